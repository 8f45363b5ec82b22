#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arch-neutral: every alias opens through the same perf and sysfs on both guests
# release: every alias, as each release's perf lists and opens it
#
# Every events/ alias of every PMU of ours opens and counts system-wide, and
# perf's own "perf all PMU test" passes. perf's test runs without -a and
# only asks that perf print the event's name (perf 6.12 and 7.3 count an
# uncore event system-wide then, on the PMU's CPU; older perfs may print
# <not supported>, which it accepts too), so its loop runs here again
# with -a over perf's own list of our events, each count a number, eight
# events per perf run so that no PMU has to multiplex.

. "$(dirname "$0")/lib/lib.sh"

sysfs=0
for p in $(ls $EV | grep -E '^(mrvl_pcie_rc_pmu_|nvidia_)'); do
	sysfs=$((sysfs + $(ls "$EV/$p/events" | wc -l)))
done
# perf 6.12 and 7.3 list an alias once for all instances of a PMU, by
# the name without its instance suffix (mrvl_pcie_rc_pmu/ib_tlp_npr/,
# nvidia_pcie_pmu_0_rc/rd_bytes/); 5.10 and 6.1 once per PMU
listed=$sysfs
if [ "$PERF_VERSION" = 6.12 ] || [ "$PERF_VERSION" = 7.3 ]; then
	listed=$(for p in $(ls $EV | grep -E '^(mrvl_pcie_rc_pmu_|nvidia_)'); do
			ls "$EV/$p/events" | sed "s|^|${p%_*}/|"
		done | sort -u | wc -l)
fi

# make check runs perf's own test in the release boots only (vm-all.sh):
# with Debian 12's perf, beside the other boots, it costs about 800 s of
# one; without -a it fails for our PMUs only if perf does not print an
# event's name.
[ -f "$TESTLIB/suite.conf" ] && . "$TESTLIB/suite.conf"
if [ "${PERF_ALL_PMU_TEST:-1}" = 0 ]; then
	echo "# perf test \"perf all PMU test\": not in this boot (PERF_ALL_PMU_TEST=0)"
elif ! perf test list 2>&1 | grep -q 'perf all PMU test'; then
	# perf 5.10 (Debian 11) has no such test: the loop below is all
	echo "# perf test \"perf all PMU test\": $(perf --version) has none"
else
	out=$(perf test -v "perf all PMU test" 2>&1)
	case "$out" in
	*": Ok"*)
		ok "perf test: perf all PMU test" ;;
	*)
		not_ok "perf test: perf all PMU test" "$(echo "$out" | tail -n 5)" ;;
	esac
fi

# stat_batch EVENTS...: every event must count a plain number.
stat_batch() {
	args=""
	for e in "$@"; do
		args="$args -e $e"
	done
	perf stat -a -x';' $args -- true 2>&1 >/dev/null |
		awk -F';' '$1 !~ /^[0-9]+$/ { print $3 "=" $1 }'
}

m=0
bad=""
batch=""
pmu=""
n=0
for e in $(perf list --raw-dump pmu 2>/dev/null) END/; do
	case "$e" in
	mrvl_pcie_rc_pmu_* | mrvl_pcie_rc_pmu/* | nvidia_* | END/) ;;
	*) continue ;;
	esac
	if [ -n "$batch" ] && { [ "${e%%/*}" != "$pmu" ] || [ $n = 8 ]; }; then
		bad="$bad$(stat_batch $batch)"
		batch=""
		n=0
	fi
	[ "$e" = END/ ] && break
	pmu=${e%%/*}
	batch="$batch $e"
	n=$((n + 1))
	m=$((m + 1))
done
check_eq "perf list events of our PMUs count with -a ($m events)" "" "$bad"
check_eq "perf $PERF_VERSION lists every events/ alias of our PMUs" "$listed" "$m"
if [ "$sysfs" -ge 260 ]; then
	ok "events covered: $sysfs in sysfs"
else
	not_ok "events covered" "only $sysfs in sysfs"
fi

done_testing
