#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arch-neutral: permissions and sysfs modes, the same on both guests
# release: what an unprivileged user of each release's perf is refused
#
# Privilege: with perf_event_paranoid at 2 an unprivileged user opens none
# of our events (the kernel's EACCES; perf says why with -v); our sysfs
# files are read-only; no kernel virtual address shows in sysfs or in what
# the modules logged.

. "$(dirname "$0")/lib/lib.sh"

NOBODY="$TESTLIB/runas 65534 65534"
PARANOID=/proc/sys/kernel/perf_event_paranoid
old=$(cat $PARANOID)
echo 2 > $PARANOID
check_eq "perf_event_paranoid is 2" 2 "$(cat $PARANOID)"
check_eq "the unprivileged user is uid 65534" 65534 "$($NOBODY id -u)"

# One PMU of each driver, with an event every one of them has.
for spec in mrvl_pcie_rc_pmu_1000000000:ib_tlp_npr nvidia_cmem_latency_pmu_0:cycles \
	    nvidia_nvlink_c2c_pmu_1:cycles nvidia_nvclink_pmu_0:cycles \
	    nvidia_nvdlink_pmu_1:cycles nvidia_ucf_pmu_0:cycles \
	    nvidia_pcie_pmu_1_rc_3:cycles nvidia_pcie_tgt_pmu_0_rc_2:cycles; do
	p=${spec%%:*}
	e=${spec#*:}
	cpu=$(cat $EV/$p/cpumask)
	cfg=$(sed 's/^event=//' $EV/$p/events/$e)
	check_eq "$p: root opens $e on CPU $cpu" ok \
		"$($PERF_OPEN -c "$cpu" "$(pmu_type $p)" "$cfg" 2>&1)"
	check_eq "$p: unprivileged CPU-wide open is EACCES" "errno 13 EACCES" \
		"$($NOBODY $PERF_OPEN -c "$cpu" "$(pmu_type $p)" "$cfg" 2>&1)"
	check_eq "$p: unprivileged open on its own task is EACCES" "errno 13 EACCES" \
		"$($NOBODY $PERF_OPEN -c -1 -p 0 "$(pmu_type $p)" "$cfg" 2>&1)"
	# perf retries with :u after EACCES; the core refuses exclude_kernel on
	# a PMU that cannot exclude (EINVAL), so perf prints <not supported>,
	# and with -v it names the sysctl.
	out=$($NOBODY perf stat -v -a -x';' -e "$p/$e/" -- true 2>&1)
	case $out in
	*"kernel.perf_event_paranoid=2"*)
		ok "$p: perf -v names perf_event_paranoid to the unprivileged user" ;;
	*)
		not_ok "$p: perf -v names perf_event_paranoid to the unprivileged user" \
			"$(echo "$out" | grep . | head -n 5)" ;;
	esac
	# perf 7.3 no longer retries: it prints no row, only its
	# perf_event_paranoid help
	want="<not supported>"
	[ "$PERF_VERSION" != 7.3 ] || want="refused"
	check_eq "$p: the unprivileged user counts nothing" "$want" \
		"$(echo "$out" | awk -F';' -v e="$p/$e/" '
			index($3, e) == 1 { print $1; f = 1 }
			/perf_event_paranoid/ { r = 1 }
			END { if (!f && r) print "refused" }')"
done
echo "$old" > $PARANOID

# Only the perf core's own writable files (uevent, the multiplexing
# interval) and runtime PM's may be writable; every file of ours is 0444.
pmus=$(ls $EV | grep -E '^(mrvl_pcie_rc_pmu_|nvidia_)')
bad=""
n=0
for p in $pmus; do
	for f in $(cd $EV/$p/ && find . -type f); do
		case $f in
		./uevent|./perf_event_mux_interval_ms|./power/*)
			continue ;;
		esac
		m=$(stat -c %a "$EV/$p/$f")
		[ "$m" = 444 ] || bad="$bad $p/${f#./}=$m"
		n=$((n + 1))
	done
done
check_eq "every sysfs file of ours is read-only (0444)" "" "$bad"
# 36 PMUs with at least type, cpumask, identifier and one format and event
check_cmd "the mode check saw our files ($n)" test "$n" -ge 180
f=$EV/nvidia_ucf_pmu_0/cpumask
check_fail "root cannot write cpumask either" sh -c "echo 0 > $f"

# x86-64 and arm64 kernel addresses start with 0xffff.
kaddr='ffff[0-9a-f]{12}'
leak=""
for p in $pmus; do
	leak="$leak$(cd $EV/$p/ && find . -type f ! -path './power/*' ! -name uevent |
		xargs grep -lE "$kaddr" 2>/dev/null | sed "s|^\.|$p|")"
done
check_eq "no kernel address in our sysfs files" "" "$leak"
check_eq "no kernel address in what the modules logged" "" \
	"$(dmesg | grep -iE 'uncore|nvidia|mrvl|pem|cspmu|apmt|t410' | grep -E "$kaddr")"

done_testing
