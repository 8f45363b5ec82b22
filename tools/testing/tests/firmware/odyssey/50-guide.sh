#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the Odyssey DDR and LLC-TAD guides' examples, verbatim, with each release's perf
#
# The examples of the Odyssey admin guides
# (Documentation/admin-guide/perf/mrvl-odyssey-ddr-pmu.rst and
# mrvl-odyssey-tad-pmu.rst), run as written: every "perf stat" command of
# their literal blocks, options and event strings verbatim, with its
# workload, "sleep 1", replaced by a script that injects traffic. Each
# event string of a command gets its own value, into its DDR controller,
# or into each of the four TAD blocks; what perf prints for it must be
# the sum of the values injected for its event on its PMU (one event
# named twice counts both).

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/guide.sh"

guide_check mrvl-odyssey-ddr-pmu.rst 5
guide_check mrvl-odyssey-tad-pmu.rst 3

done_testing
