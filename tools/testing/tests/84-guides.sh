#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arch-neutral: perf's parsing of the guides' commands, the same on both guests
# release: the Tegra410 and PEM guides' examples, verbatim, with each release's perf
#
# The examples of the Tegra410 and Marvell PEM admin guides
# (Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst and
# mrvl-pem-pmu.rst), run as written by lib/guide.sh: every "perf stat"
# command of their literal blocks (those shown with their output
# included), options, groups and event strings verbatim, each event
# string counting a value of its own above 2^32, injected as traffic its
# filter terms select (UCF source and destination, PCIE root port, BDF
# and destination, PCIE-TGT root port and address window, C2C GPU). The
# PEM guide's names are a real Odyssey's (a base with letters); the
# simulated PEMs have the bases 0x1000000000 and 0x1000100000, so those
# two names are the one thing replaced. The filters' refusal of other
# traffic is each family's test's (50-ucf.sh, 60-pcie.sh, ...).

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/guide.sh"

guide_check nvidia-tegra410-pmu.rst 23
GUIDE_RENAME="mrvl_pcie_rc_pmu_8e0000005000:mrvl_pcie_rc_pmu_1000000000"
GUIDE_RENAME="$GUIDE_RENAME mrvl_pcie_rc_pmu_8e0000006000:mrvl_pcie_rc_pmu_1000100000"
guide_check mrvl-pem-pmu.rst 4

done_testing
