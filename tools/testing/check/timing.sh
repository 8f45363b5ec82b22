#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 TIMINGFILE [TOTAL [CPU]]: how long each part of a run took,
# longest first, as "# time" comment lines (TAP readers skip them): the
# file holds one "SECONDS<tab>WHAT[<tab>CPU]" line per static check and
# per boot (tap_time in tap.sh, vm_time in vm-all.sh), CPU being the
# seconds of CPU the part used, user and system, where known. TOTAL, in
# seconds, is the wall time of the whole run and CPU its CPU time: the
# boots and the static checks run side by side, so the parts add up to
# more, and CPU over TOTAL is how many of the machine's CPUs the run kept
# busy on average.
set -u

f=${1:?usage: timing.sh TIMINGFILE [TOTAL [CPU]]}
if [ ! -s "$f" ]; then
	echo "# time: nothing was timed ($f is empty)"
	exit 0
fi
echo "# time: each part, longest first (boots and static checks overlap)"
echo "# time   wall     cpu  part"
sort -t '	' -k1,1nr "$f" |
	awk -F '\t' '{
		cpu = ($3 == "") ? "      -" : sprintf("%4d:%02d", $3 / 60, $3 % 60)
		printf "# time %3d:%02d %s  %s\n", $1 / 60, $1 % 60, cpu, $2
	}'
[ -z "${2:-}" ] && exit 0
if [ -n "${3:-}" ]; then
	printf '# time %3d:%02d %4d:%02d  make check, wall clock and CPU %s\n' \
		$(($2 / 60)) $(($2 % 60)) $(($3 / 60)) $(($3 % 60)) \
		"($(($3 / $2)).$(($3 * 10 / $2 % 10)) CPUs busy on average)"
else
	printf '# time %3d:%02d  make check, wall clock\n' $(($2 / 60)) $(($2 % 60))
fi
