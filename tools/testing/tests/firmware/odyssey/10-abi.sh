#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the DDR and LLC-TAD ABI and refused input, under each release's perf
#
# Marvell Odyssey DDR and LLC-TAD PMUs: the sysfs ABI byte for byte as
# mainline's drivers show it (Documentation/hw/marvell-odyssey-ddr-tad.md 2.1, 2.2, 3.1,
# 3.2), and refused input with the exact errno (design.md 3.3), including
# what mainline gets wrong: ids missing from events/ open there, and a TAD
# event opened enabled or inside a group is refused there.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/odyssey.sh"

D0=mrvl_ddr_pmu_1000200000
D1=mrvl_ddr_pmu_10002a0000
T=tad

DDR_EVENTS="$ODY_DDR_PROG $ODY_DDR_FREE"

TAD_EVENTS="tad_req_msh_in_exlmn:0x03 tad_alloc_dtg:0x1a tad_alloc_ltg:0x1b
tad_alloc_any:0x1c tad_hit_dtg:0x1d tad_hit_ltg:0x1e tad_hit_any:0x1f
tad_tag_rd:0x20 tad_tot_cycle:0xff"

# ---- the PMUs of this firmware ----
check_eq "Marvell PMUs registered" \
	"$D0 $D1 mrvl_pcie_rc_pmu_1000000000 mrvl_pcie_rc_pmu_1000100000 $T" \
	"$(ls $EV | grep -E '^(mrvl_|tad$)' | tr '\n' ' ' | sed 's/ $//')"
check_eq "our_pmus: every PMU of this firmware, tad among them" \
	"$D0 $D1 mrvl_pcie_rc_pmu_1000000000 mrvl_pcie_rc_pmu_1000100000 $T" \
	"$(our_pmus | sort | xargs)"
check_eq "count_every_pmu: each PMU's event counts 2^40 + 3" "" \
	"$(count_every_pmu $(((1 << 40) + 3)))"
check_eq "simulator devices" \
"mrvl_pcie_rc_pmu_1000000000 pem 0x1000000000
mrvl_pcie_rc_pmu_1000100000 pem 0x1000100000
$D0 odyssey_ddr 0x1000200000
$D1 odyssey_ddr 0x10002a0000
$T odyssey_tad 0x1000400000" "$(cat $UNCORE_SIM/devices)"

# check_abi PMU FORMAT N EVENTS: the files of PMU, format/event, the N
# events/ files with their contents, one CPU in cpumask
check_abi() {
	_p=$1
	# as mainline: no associated_cpus, no identifier, no parent device
	# link before 6.5 (the perf core's own files besides)
	check_eq "$_p: files" \
		"cpumask events format perf_event_mux_interval_ms power subsystem type uevent" \
		"$(ls $EV/$_p/ | grep -v '^device$' | tr '\n' ' ' | sed 's/ $//')"
	check_eq "$_p: format/ has only event" "event" "$(ls $EV/$_p/format)"
	check_eq "$_p: format/event" "$2" "$(cat $EV/$_p/format/event)"
	check_eq "$_p: $3 events" "$3" "$(ls $EV/$_p/events | wc -l)"
	_bad=""
	for _e in $4; do
		_f=$EV/$_p/events/${_e%%:*}
		_want="event=${_e#*:}"
		_got=$(cat "$_f" 2>&1)
		# byte for byte: the text and one newline
		_n=$(wc -c <"$_f" 2>/dev/null)
		[ "$_got" = "$_want" ] && [ "$_n" = $((${#_want} + 1)) ] ||
			_bad="$_bad ${_e%%:*}='$_got'($_n bytes)"
	done
	check_eq "$_p: events/* contents" "" "$_bad"
	check_eq "$_p: format/event bytes" $((${#2} + 1)) "$(wc -c <$EV/$_p/format/event)"
	check_one_cpu "$_p"
}
check_abi $D0 "config:0-8" 54 "$DDR_EVENTS"
check_abi $D1 "config:0-8" 54 "$DDR_EVENTS"
check_abi $T "config:0-7" 9 "$TAD_EVENTS"

# ---- refused input ----
TD=$(pmu_type $D0)
TD1=$(pmu_type $D1)
TT=$(pmu_type $T)
for id in 0x0 0x1c 0x1d 0x1e 0x20 0x24 0x26 0x3e 0x63 0x66 0xff 0x165 0x1ff; do
	check_eq "$D0: errno for id $id (not in events/)" "errno 22 EINVAL" \
		"$($PERF_OPEN "$TD" $id)"
done
check_eq "$D0: errno for config bit 9" "errno 22 EINVAL" "$($PERF_OPEN "$TD" 0x201)"
check_eq "$D0: errno for config1" "errno 22 EINVAL" "$($PERF_OPEN -1 1 "$TD" 1)"
check_eq "$D0: errno for sampling" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -s 1000 "$TD" 1)"
check_eq "$D0: errno per task" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -p 0 -c -1 "$TD" 1)"
check_eq "$D0: errno per task on a CPU" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -p 0 -c 0 "$TD" 1)"
check_eq "$D0: errno in a group of $D1" "errno 22 EINVAL" "$($PERF_OPEN -L "$TD1:1" "$TD" 1)"
check_eq "$D0: errno in a group of tad" "errno 22 EINVAL" "$($PERF_OPEN -L "$TT:0x1f" "$TD" 1)"
check_eq "$D0: opens id 0x3d (last programmable)" "ok" "$($PERF_OPEN "$TD" 0x3d)"
check_eq "$D0: opens ddr_ddr_reads" "ok" "$($PERF_OPEN "$TD" 0x65)"
check_eq "$D0: opens in a software group" "ok" "$($PERF_OPEN -L 1:0 "$TD" 1)"
for id in 0x0 0x1 0x2 0x4 0x19 0x21 0x24 0xfe; do
	check_eq "$T: errno for id $id (not in events/)" "errno 22 EINVAL" "$($PERF_OPEN "$TT" $id)"
done
check_eq "$T: errno for config bit 8" "errno 22 EINVAL" "$($PERF_OPEN "$TT" 0x11f)"
check_eq "$T: errno for sampling" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -s 1000 "$TT" 0x1f)"
check_eq "$T: errno per task" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -p 0 -c -1 "$TT" 0x1f)"
check_eq "$T: errno in a group of $D0" "errno 22 EINVAL" "$($PERF_OPEN -L "$TD:1" "$TT" 0x1f)"
# mainline refuses both (attr.disabled must be 1): perf_open opens enabled
check_eq "$T: opens enabled, and reads" "ok" "$($PERF_OPEN "$TT" 0xff | head -1)"
check_eq "$T: opens enabled in a group of tad" "ok" "$($PERF_OPEN -L "$TT:0x1a" "$TT" 0x1f)"

# groups: 8 counters; free-running DDR events take none
g8=$(events_n 8 "$D0/ddr_cam_read/")
check_group_refused "$D0: a group of 9 programmable events" "$g8,$D0/ddr_cam_write/"
check_group_refused "$T: a group of 9 events" "$(events_n 9 "$T/tad_hit_any/")"
out=$(perf stat -a -x';' -e "{$g8,$D0/ddr_ddr_reads/,$D0/ddr_ddr_writes/,$D0/ddr_ddr_reads/}" \
	-- true 2>&1 >/dev/null |
	awk -F';' '$1 == "<not supported>" || $1 == "<not counted>"' | wc -l)
check_eq "$D0: a group of 8 programmable and 3 free-running events opens" 0 "$out"

# perf tool paths
c=$(stat_count "$D0/event=0x1c/" "true")
check_eq "$D0: perf stat event=0x1c is $NOTSUP" "$NOTSUP" "$c"
c=$(stat_count "$T/event=0x0/" "true")
check_eq "$T: perf stat event=0x0 is $NOTSUP" "$NOTSUP" "$c"
check_fail "$D0: perf record is refused" \
	perf record -a -e "$D0/ddr_cam_read/" -o /tmp/ddr.data -- true
check_fail "$T: perf record is refused" perf record -a -e "$T/tad_hit_any/" -o /tmp/tad.data -- true

done_testing
