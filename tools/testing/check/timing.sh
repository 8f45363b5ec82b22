#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 TIMINGFILE [TOTAL]: how long each part of a run took, longest
# first, as "# time" comment lines (TAP readers skip them): the file holds
# one "SECONDS<tab>WHAT" line per static check and per boot (tap_time in
# tap.sh, vm_time in vm-all.sh). TOTAL, in seconds, is the wall time of
# the whole run: the boots and the static checks run side by side, so
# the parts add up to more.
set -u

f=${1:?usage: timing.sh TIMINGFILE [TOTAL]}
if [ ! -s "$f" ]; then
	echo "# time: nothing was timed ($f is empty)"
	exit 0
fi
echo "# time: each part, longest first (boots and static checks overlap)"
sort -t '	' -k1,1nr "$f" |
	awk -F '\t' '{ printf "# time %5d:%02d  %s\n", $1 / 60, $1 % 60, $2 }'
[ -z "${2:-}" ] ||
	printf '# time %5d:%02d  make check, wall clock\n' $(($2 / 60)) $(($2 % 60))
