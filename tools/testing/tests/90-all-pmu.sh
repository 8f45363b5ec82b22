#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every events/ alias of every PMU of ours opens and counts system-wide, and
# perf's own "perf all PMU test" passes. perf's test runs without -a, which
# uncore PMUs refuse and it accepts as <not supported>, so its loop is run
# here again with -a for our events.

. "$(dirname "$0")/lib/lib.sh"

ours() {
	ls $EV | grep -E '^(mrvl_pcie_rc_pmu_|nvidia_)'
}

# A count must be a plain number: not <not supported>, not <not counted>.
counts() {
	c=$(perf stat -a -x';' -e "$1" -- true 2>&1 >/dev/null | awk -F';' '{ print $1 }')
	case "$c" in
	'' | *[!0-9]*) return 1 ;;
	esac
}

n=0
bad=""
for p in $(ours); do
	for e in $(ls "$EV/$p/events"); do
		n=$((n + 1))
		counts "$p/$e/" || bad="$bad $p/$e/"
	done
done
check_eq "every events/ alias of our PMUs counts with perf stat -a ($n aliases)" "" "$bad"
if [ "$n" -ge 54 ]; then
	ok "aliases found: $n"
else
	not_ok "aliases found" "only $n"
fi

out=$(perf test -v "perf all PMU test" 2>&1)
case "$out" in
*": Ok"*)
	ok "perf test: perf all PMU test" ;;
*)
	not_ok "perf test: perf all PMU test" "$(echo "$out" | tail -n 5)" ;;
esac

# The same loop as perf's test, over perf's own event list, with -a.
m=0
bad=""
for e in $(perf list --raw-dump pmu 2>/dev/null); do
	case "$e" in
	mrvl_pcie_rc_pmu_* | nvidia_*) ;;
	*) continue ;;
	esac
	m=$((m + 1))
	counts "$e" || bad="$bad $e"
done
check_eq "perf list events of our PMUs count with -a ($m events)" "" "$bad"
check_eq "perf list names as many of our events as sysfs has" "$n" "$m"

done_testing
