#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the family's ABI, its guide's examples and refused input, with each release's perf
#
# Tegra410 UCF PMU (CoreSight PMU from the APMT): sysfs, the documented
# example commands verbatim, every source/destination filter alone and
# combined with the defaults, cycles, groups, multiplexing and refused
# input.

. "$(dirname "$0")/lib/lib.sh"

U0=nvidia_ucf_pmu_0
U1=nvidia_ucf_pmu_1
IU0=$UNCORE_SIM/$U0/inject
IU1=$UNCORE_SIM/$U1/inject

SRCS="loc_noncpu loc_cpu rem"
DSTS="loc_cmem loc_gmem loc_other rem"

# ---- sysfs ----
for s in 0 1; do
	p=nvidia_ucf_pmu_$s
	check_eq "$p registered" yes "$([ -d $EV/$p ] && echo yes)"
	check_eq "$p identifier" 2cf2036b "$(cat $EV/$p/identifier 2>&1)"
	check_eq "$p associated_cpus (APMT processor affinity)" "$((s * 2))" \
		"$(cat $EV/$p/associated_cpus 2>&1)"
	check_eq "$p cpumask" "$((s * 2))" "$(cat $EV/$p/cpumask 2>&1)"
done
fmt=""
for f in event src_loc_noncpu src_loc_cpu src_rem dst_loc_cmem dst_loc_gmem \
	 dst_loc_other dst_rem; do
	fmt="$fmt $f=$(cat $EV/$U0/format/$f 2>&1)"
done
check_eq "formats" " event=config:0-32 src_loc_noncpu=config1:0 src_loc_cpu=config1:1 \
src_rem=config1:2 dst_loc_cmem=config1:8 dst_loc_gmem=config1:9 dst_loc_other=config1:10 \
dst_rem=config1:11" "$fmt"
check_eq "format/ has 8 entries" 8 "$(ls $EV/$U0/format | wc -l)"
evs=""
for e in bus_cycles:0x1d slc_allocate:0xf0 slc_wb:0xf3 slc_refill_rd:0x109 \
	 slc_refill_wr:0x10a slc_access_rd:0x111 slc_access_wr:0x112 slc_bytes_rd:0x113 \
	 slc_bytes_wr:0x114 slc_hit_rd:0x119 mem_access_rd:0x121 mem_access_wr:0x122 \
	 mem_bytes_rd:0x123 mem_bytes_wr:0x124 local_snoop:0x180 ext_snp_access:0x181 \
	 ext_snp_evict:0x182 slc_access_dataless:0x183 slc_access_atomic:0x184 \
	 cycles:0x100000000; do
	got=$(cat "$EV/$U0/events/${e%%:*}" 2>&1)
	[ "$got" = "event=${e#*:}" ] || evs="$evs ${e%%:*}='$got'"
done
check_eq "events/* contents (v3 list)" "" "$evs"
check_eq "20 events, no slc_access" 20 "$(ls $EV/$U0/events | wc -l)"

# ---- traffic of every source/destination class, each a distinct bit ----
grid_traffic slc_bytes_rd src "$SRCS" dst "$DSTS" > /tmp/ucf_all
grid_traffic 0x0 src "$SRCS" dst "$DSTS" > /tmp/ucf_all0


# Every filter term alone, pairs, and the defaults of an empty group.
for f in "0 0" "1 0" "2 0" "4 0" "0 1" "0 2" "0 4" "0 8" "2 1" "5 8" "3 6" "7 15" \
	 "6 0" "0 12"; do
	set -- $f
	ev="$U0/event=0x113$(mask_terms $1 src_ $SRCS)$(mask_terms $2 dst_ $DSTS)/"
	c=$(stat_count "$ev" "cat /tmp/ucf_all > $IU0")
	check_eq "filter src=$1 dst=$2: $ev" "$(grid_sum $1 3 $2 4)" "$c"
done

# The documented example commands, verbatim.
c=$(stat_count "nvidia_ucf_pmu_0/event=0x0/" "cat /tmp/ucf_all0 > $IU0")
check_eq "doc: nvidia_ucf_pmu_0/event=0x0/" 4095 "$c"
c=$(stat_count "nvidia_ucf_pmu_0/event=0x0,src_loc_cpu=0x1,dst_loc_cmem=0x1/" \
	"cat /tmp/ucf_all0 > $IU0")
check_eq "doc: nvidia_ucf_pmu_0/event=0x0,src_loc_cpu=0x1,dst_loc_cmem=0x1/" 16 "$c"
grid_traffic 0x0 src "$SRCS" dst "$DSTS" > /tmp/ucf_all0_1
c=$(stat_count "nvidia_ucf_pmu_1/event=0x0,src_loc_noncpu=0x1,dst_rem=0x1/" \
	"cat /tmp/ucf_all0_1 > $IU1; cat /tmp/ucf_all0 > $IU0")
check_eq "doc: nvidia_ucf_pmu_1/event=0x0,src_loc_noncpu=0x1,dst_rem=0x1/" 8 "$c"
c=$(stat_count "nvidia_ucf_pmu_0/event=0x113,src_loc_cpu=0x1,dst_loc_cmem=0x1/" \
	"printf '%s\n' 'event=slc_bytes_rd value=4096 src=loc_cpu dst=loc_cmem' \
	'event=slc_bytes_rd value=1 src=loc_noncpu dst=loc_cmem' \
	'event=slc_bytes_rd value=2 src=loc_cpu dst=loc_gmem' \
	'event=slc_bytes_wr value=8 src=loc_cpu dst=loc_cmem' > $IU0")
check_eq "done-when: event=0x113 local CPU to local CMEM only" 4096 "$c"

c=$(stat_count "$U0/slc_bytes_rd,src_loc_cpu=1,dst_loc_cmem=1/" "cat /tmp/ucf_all > $IU0")
check_eq "named event with filters" 16 "$c"
c=$(stat_count "$U0/slc_access_wr/" "cat /tmp/ucf_all > $IU0")
check_eq "other event id counts nothing" 0 "$c"
c=$(stat_count "$U0/cycles/" "echo 'event=cycles value=777777' > $IU0")
check_eq "cycles" 777777 "$c"
c=$(stat_count "$U0/cycles,src_loc_cpu=1/" "echo 'event=cycles value=5' > $IU0")
check_eq "cycles with a source filter still counts cycles" 5 "$c"

# ---- groups ----
out=$(perf stat -a -x';' -e "{$U0/slc_bytes_rd/,$U0/slc_bytes_wr/,$U0/cycles/}" -- \
	sh -c "printf '%s\n' 'event=slc_bytes_rd value=64' 'event=slc_bytes_wr value=32' \
	'event=cycles value=1000' > $IU0" 2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "group of rd, wr, cycles" "64 32 1000 " "$out"
T=$(pmu_type $U0)
check_group_refused "group of 9 regular events on 8 counters" "$(events_n 9 "$U0/event=0x113/")"
# The cycle counter is shared: cycles events take no counter, any number
# count at once, in one group or beside a full one, each exactly.
check_eq "two cycle events in one group open" ok \
	"$($PERF_OPEN -L "$T:0x100000000" "$T" 0x100000000)"
m=$(events_n 8 "$U0/slc_bytes_rd/")
out=$(perf stat -a -x';' -e "{$m,$U0/cycles/,$U0/cycles/}" -e "$U0/cycles/" -- \
	sh -c "echo 'event=cycles value=300' > $IU0
	perf stat -a -x';' -o /tmp/ucf_cyc2 -e $U0/cycles/ -- \
		sh -c \"echo 'event=cycles value=20' > $IU0\"
	printf '%s\n' 'event=slc_bytes_rd value=7' 'event=cycles value=4000' > $IU0" \
	2>&1 >/dev/null | awk -F';' '{ printf "%s/%s ", $1, $5 }')
w=7/100.00
check_eq "8 events and 2 cycles in a group, 1 cycles beside: exact, unscaled" \
	"$w $w $w $w $w $w $w $w 4320/100.00 4320/100.00 4320/100.00 " "$out"
check_eq "a second perf stat's cycles in the middle: its share, unscaled" "20/100.00" \
	"$(awk -F';' '/cycles/ { print $1 "/" $5 }' /tmp/ucf_cyc2)"

# ---- more events than counters: perf multiplexes and scales ----
m=$(events_n 12 "$U0/event=0x113/")
out=$(perf stat -a -x';' -e "$m" -- sh -c "
	i=0
	while [ \$i -lt 20 ]; do
		echo 'event=slc_bytes_rd value=100' > $IU0
		sleep 0.05
		i=\$((i + 1))
	done" 2>&1 >/dev/null)
bad=$(echo "$out" | awk -F';' '$1 !~ /^[0-9]+$/ { b = b " " $1 } END { print NR ":" b }')
check_eq "12 events on 8 counters: all counted" "12:" "$bad"
mux=$(echo "$out" | awk -F';' '$5 != "100.00"' | wc -l)
if [ "$mux" -gt 0 ]; then
	ok "multiplexed: $mux events ran part of the time"
else
	not_ok "multiplexed" "$out"
fi

# ---- refused input ----
check_eq "errno: config bit 33" "errno 22 EINVAL" "$($PERF_OPEN "$T" 0x200000113)"
check_eq "errno: config1 bit 3 (no such filter)" "errno 22 EINVAL" "$($PERF_OPEN -1 8 "$T" 0x113)"
check_eq "errno: config2 set" "errno 22 EINVAL" "$($PERF_OPEN -2 1 "$T" 0x113)"
check_eq "errno: sampling" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -s 1000 "$T" 0x113)"
check_eq "errno: CPU not associated" "errno 22 EINVAL" "$($PERF_OPEN -c 2 "$T" 0x113)"
check_eq "any event id in config:0-32 opens" ok "$($PERF_OPEN "$T" 0x1ff)"

# ---- the one associated CPU goes offline and comes back ----
T1=$(pmu_type $U1)
echo 0 > /sys/devices/system/cpu/cpu2/online
check_eq "CPU 2 offline: $U1 cpumask empty" "" "$(cat $EV/$U1/cpumask)"
check_eq "CPU 2 offline: $U1 refuses events" "errno 22 EINVAL" "$($PERF_OPEN -c 2 "$T1" 0x113)"
echo 1 > /sys/devices/system/cpu/cpu2/online
check_eq "CPU 2 back: cpumask" 2 "$(cat $EV/$U1/cpumask)"
c=$(stat_count "$U1/slc_bytes_wr/" "echo 'event=slc_bytes_wr value=99' > $IU1")
check_eq "CPU 2 back: counts" 99 "$c"

done_testing
