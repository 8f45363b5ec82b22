#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arch-neutral: perf's parsing of the guides' commands, the same on both guests
# release: the guides' and the install document's examples, verbatim, with each release's perf
#
# The examples of the Tegra410 and Marvell PEM admin guides
# (Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst and
# mrvl-pem-pmu.rst) and of the install document
# (Documentation/admin-guide/uncore-pmu-install.rst; its other commands
# are check/docs_cmds.py's), run as written by lib/guide.sh: every "perf stat"
# command of their literal blocks (those shown with their output
# included), options, groups and event strings verbatim, each event
# string counting a value of its own above 2^32, injected as traffic its
# filter terms select (UCF source and destination, PCIE root port, BDF
# and destination, PCIE-TGT root port and address window, C2C GPU). The
# PEM guide's names are a real Odyssey's (a base with letters); the
# simulated PEMs have the bases 0x1000000000 and 0x1000100000, so those
# two names are the one thing replaced. The filters' refusal of other
# traffic is each family's test's (50-ucf.sh, 60-pcie.sh, ...). The
# exporter daemon runs beside them all, as on an operator's server.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/guide.sh"

# The exporter daemon runs throughout with its default events, reading
# every second, as beside every server's operator: each example must
# still count exactly (it leaves half of each PMU's counters, and the
# cycle counter is shared). The PCIE requester (BDF) examples are the
# exception the guide states: the RC has one requester filter, which
# the exporter's unfiltered events cannot share, so the guide says to
# pause the exporter for them, and that is what happens here.
XPF=/tmp/guides-exporter.prom
xp=
xp_start() {
	exporter_start $XPF --interval 1000
	_rc=$?
	xp=$_xp
	return $_rc
}
xp_stop() {
	kill -TERM $xp
	wait $xp
	xp_rc="$xp_rc$?"
}
# xp_hook before|after CMD: the exporter paused around a BDF example
xp_hook() {
	case $2 in
	*src_bdf_en=0x1*)
		if [ "$1" = before ]; then
			xp_stop
		else
			xp_start || xp_rc="${xp_rc}no-file"
		fi ;;
	esac
}
: > $XPF.err
xp_rc=
xp_start
check_cmd "the exporter daemon writes its file before the examples" test -s $XPF
GUIDE_HOOK=xp_hook

guide_check nvidia-tegra410-pmu.rst 23
GUIDE_RENAME="mrvl_pcie_rc_pmu_8e0000005000:mrvl_pcie_rc_pmu_1000000000"
GUIDE_RENAME="$GUIDE_RENAME mrvl_pcie_rc_pmu_8e0000006000:mrvl_pcie_rc_pmu_1000100000"
guide_check mrvl-pem-pmu.rst 4
# the install document's perf examples, with the same PEM name
guide_check uncore-pmu-install.rst 8

GUIDE_HOOK=
xp_stop
check_eq "the exporter ran beside the examples, paused for the 3 BDF ones (exit 0 each)" \
	"0000 " "$xp_rc $(cat $XPF.err)"

done_testing
