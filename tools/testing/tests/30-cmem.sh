#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the family's ABI, its guide's examples and refused input, with each release's perf
#
# Tegra410 CMEM latency PMU, end to end: sysfs, sums over instances and
# memory controllers, the documented group and latency formula, exact counts
# across rescheduling (the counters are cleared at every pmu_disable, so
# this proves the fold before the clear), and CPU hotplug in the socket.

. "$(dirname "$0")/lib/lib.sh"

C0=nvidia_cmem_latency_pmu_0
C1=nvidia_cmem_latency_pmu_1
I0=$UNCORE_SIM/$C0/inject
I1=$UNCORE_SIM/$C1/inject

# ---- sysfs ----
for s in 0 1; do
	p=nvidia_cmem_latency_pmu_$s
	check_eq "$p registered" yes "$([ -d $EV/$p ] && echo yes)"
	check_eq "$p identifier" NVDA2021 "$(cat $EV/$p/identifier)"
	check_eq "$p format/event" "config:0-1" "$(cat $EV/$p/format/event)"
	check_eq "$p format/ has only event" event "$(ls $EV/$p/format)"
	check_eq "$p events" "cycles=event=0x0 rd_cum_outs=event=0x2 rd_req=event=0x1" \
		"$(for e in $(ls $EV/$p/events); do
			printf '%s=%s ' $e "$(cat $EV/$p/events/$e)"
		done | sed 's/ $//')"
	check_eq "$p associated_cpus" "$(cat /sys/devices/system/node/node$s/cpulist)" \
		"$(cat $EV/$p/associated_cpus)"
	cpu=$(cat $EV/$p/cpumask)
	check_eq "$p cpumask is a CPU of socket $s" "$s" \
		"$(socket_of $cpu)"
done

# ---- sums over the 14 instances and 3 memory controllers ----
lines=""
want=0
i=0
while [ $i -lt 14 ]; do
	mc=$((i % 3))
	v=$((i * 10 + mc + 1))
	lines="$lines
event=rd_req value=$v instance=$i mc=$mc"
	want=$((want + v))
	i=$((i + 1))
done
c=$(stat_count "$C0/rd_req/" "printf '%s\n' '$lines' > $I0")
check_eq "rd_req sums all instances" "$want" "$c"

c=$(stat_count "$C0/rd_cum_outs/" "printf 'event=rd_cum_outs value=5 instance=0 mc=0
event=rd_cum_outs value=7 instance=13 mc=2
event=rd_cum_outs value=11 instance=6 mc=1
event=rd_cum_outs value=13 instance=6 mc=2\n' > $I0")
check_eq "rd_cum_outs sums all instances and controllers" 36 "$c"

for mc in 0 1 2; do
	c=$(stat_count "$C0/rd_req/" "echo 'event=rd_req value=9 instance=13 mc=$mc' > $I0")
	check_eq "rd_req counts MC$mc of instance 13" 9 "$c"
done

c=$(stat_count "$C0/cycles/" "echo 'event=cycles value=123456' > $I0")
check_eq "cycles" 123456 "$c"

c=$(stat_count "$C1/rd_req/" "echo 'event=rd_req value=3 instance=2' > $I1;
	echo 'event=rd_req value=40 instance=2' > $I0")
check_eq "socket 1 counts only its own traffic" 3 "$c"

c=$(stat_count "$C0/event=0x1/" "echo 'event=rd_req value=17 instance=4 mc=1' > $I0")
check_eq "raw event=0x1 is rd_req" 17 "$c"

# ---- the documented group and the latency formula ----
G="{$C0/rd_req/,$C0/rd_cum_outs/,$C0/cycles/}"
out=$(perf stat -a -x';' -e "$G" -- sh -c "printf '%s\n' \
	'event=rd_req value=400 instance=1 mc=0' 'event=rd_req value=600 instance=9 mc=2' \
	'event=rd_cum_outs value=9000 instance=1 mc=0' \
	'event=rd_cum_outs value=16000 instance=9 mc=2' \
	'event=cycles value=2000000' > $I0" 2>&1 >/dev/null)
req=$(echo "$out" | awk -F';' '$3 ~ /rd_req/ { print $1 }')
outs=$(echo "$out" | awk -F';' '$3 ~ /rd_cum_outs/ { print $1 }')
cyc=$(echo "$out" | awk -F';' '$3 ~ /cycles/ { print $1 }')
check_eq "group: rd_req rd_cum_outs cycles" "1000 25000 2000000" "$req $outs $cyc"
check_eq "group: average latency = rd_cum_outs / rd_req" 25 "$((outs / req))"
# ---- exact across rescheduling: each session start/stop clears the counters ----
set -- $(overlap_sessions $I0 "$C0/rd_req/" 'event=rd_req value=3 instance=5' \
	'event=rd_req value=5 instance=7 mc=1' \
	"$C0/rd_req/" 'event=rd_req value=7 instance=2 mc=2' \
	"$C0/rd_cum_outs/" 'event=rd_req value=11 instance=3')
check_eq "overlapping: second session sees its own delta" 7 "$2"
check_eq "overlapping: third session (other event) sees none" 0 "$3"
check_eq "overlapping: first session keeps every count" 26 "$1"

# ---- no limit on events: the counters are shared, no event takes one ----
check_no_event_limit $C0 rd_cum_outs 40 $I0 'event=rd_cum_outs value=10'

# ---- hotplug inside socket 1 ----
cpu=$(cat $EV/$C1/cpumask)
other=2
[ "$cpu" = 2 ] && other=3
c=$(stat_count "$C1/rd_req/" "echo 'event=rd_req value=21 instance=1' > $I1
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	echo 'event=rd_req value=8 instance=12 mc=2' > $I1")
check_eq "hotplug in socket: counts exact across the move" 29 "$c"
check_eq "hotplug in socket: cpumask moved to the other CPU" "$other" "$(cat $EV/$C1/cpumask)"
echo 0 > /sys/devices/system/cpu/cpu$other/online
check_eq "socket offline: cpumask empty" "" "$(cat $EV/$C1/cpumask)"
T1=$(pmu_type $C1)
check_eq "socket offline: open refused with EINVAL" "errno 22 EINVAL" \
	"$($PERF_OPEN -c $cpu "$T1" 1)"
for p in nvidia_nvlink_c2c_pmu_1 nvidia_nvclink_pmu_1 nvidia_nvdlink_pmu_1; do
	check_eq "socket offline: $p cpumask empty" "" "$(cat $EV/$p/cpumask)"
	check_eq "socket offline: $p refuses events with EINVAL" "errno 22 EINVAL" \
		"$($PERF_OPEN -c $cpu "$(pmu_type $p)" 2)"
done
check_eq "socket offline: socket 0 PMU still counts" 4 \
	"$(stat_count "$C0/rd_req/" "echo 'event=rd_req value=4' > $I0")"
echo 1 > /sys/devices/system/cpu/cpu$other/online
check_eq "socket back: cpumask is the CPU that came back" "$other" "$(cat $EV/$C1/cpumask)"
c=$(stat_count "$C1/rd_req/" "echo 'event=rd_req value=31 instance=13' > $I1")
check_eq "socket back: counts again" 31 "$c"
c=$(stat_count "nvidia_nvdlink_pmu_1/in_rd_req/" \
	"echo 'event=in_rd_req value=19 instance=3' > $UNCORE_SIM/nvidia_nvdlink_pmu_1/inject")
check_eq "socket back: nvdlink_1 counts again" 19 "$c"
echo 1 > /sys/devices/system/cpu/cpu$cpu/online

# ---- refused input ----
T=$(pmu_type $C0)
check_eq "errno: event 0x3" "errno 22 EINVAL" "$($PERF_OPEN "$T" 3)"
check_eq "errno: config bit 2" "errno 22 EINVAL" "$($PERF_OPEN "$T" 4)"
check_eq "errno: config1 set" "errno 22 EINVAL" "$($PERF_OPEN -1 1 "$T" 1)"
check_eq "errno: CPU of the other socket" "errno 22 EINVAL" "$($PERF_OPEN -c 2 "$T" 1)"
check_eq "errno: sampling" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -s 100 "$T" 1)"
TP=$(pmu_type mrvl_pcie_rc_pmu_1000000000)
check_eq "errno: group with another hardware PMU" "errno 22 EINVAL" \
	"$($PERF_OPEN -c 0 -L "$TP:0" "$T" 1)"

done_testing
