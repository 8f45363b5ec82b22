#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the family's ABI, its guide's examples and refused input, with each release's perf
#
# Tegra410 C2C PMUs (NVLink-C2C with two GPUs, NV-CLink to the other SoC,
# NV-DLink to CXL memory) on the default firmware: sysfs per peer type,
# gpu_mask selection, hidden events refused by number, exact counts across
# rescheduling (the hardware restarts at 0 on every enable) and hotplug.

. "$(dirname "$0")/lib/lib.sh"

N0=nvidia_nvlink_c2c_pmu_0
CL0=nvidia_nvclink_pmu_0
DL0=nvidia_nvdlink_pmu_0
IN=$UNCORE_SIM/$N0/inject
ICL=$UNCORE_SIM/$CL0/inject
IDL=$UNCORE_SIM/$DL0/inject

ALL9="cycles in_rd_cum_outs in_rd_req in_wr_cum_outs in_wr_req"
ALL9="$ALL9 out_rd_cum_outs out_rd_req out_wr_cum_outs out_wr_req"
CPU5="cycles in_rd_cum_outs in_rd_req out_rd_cum_outs out_rd_req"
CXL3="cycles in_rd_cum_outs in_rd_req"

events_of() {
	ls "$EV/$1/events" | sort | tr '\n' ' ' | sed 's/ $//'
}

sorted() {
	echo "$1" | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//'
}

# ---- sysfs ----
for s in 0 1; do
	for spec in "nvlink_c2c NVDA2023 nr_gpu=2" "nvclink NVDA2022 nr_cpu=1" \
		    "nvdlink NVDA2020 nr_cxlmem=1"; do
		set -- $spec
		p=nvidia_$1_pmu_$s
		check_eq "$p registered" yes "$([ -d $EV/$p ] && echo yes)"
		check_eq "$p identifier" "$2" "$(cat $EV/$p/identifier)"
		check_eq "$p peer" "$3" "$(cat $EV/$p/peer)"
		check_eq "$p format/event" "config:0-3" "$(cat $EV/$p/format/event)"
		check_eq "$p associated_cpus" "$(cat /sys/devices/system/node/node$s/cpulist)" \
			"$(cat $EV/$p/associated_cpus)"
		cpu=$(cat $EV/$p/cpumask)
		check_eq "$p cpumask in socket $s" "$s" \
			"$(socket_of $cpu)"
	done
	check_eq "nvlink_c2c_$s events (GPU peer)" "$(sorted "$ALL9")" \
		"$(events_of nvidia_nvlink_c2c_pmu_$s)"
	check_eq "nvlink_c2c_$s formats" "event gpu_mask" \
		"$(ls $EV/nvidia_nvlink_c2c_pmu_$s/format | tr '\n' ' ' | sed 's/ $//')"
	check_eq "nvlink_c2c_$s format/gpu_mask" "config1:0-1" \
		"$(cat $EV/nvidia_nvlink_c2c_pmu_$s/format/gpu_mask)"
	check_eq "nvclink_$s events (CPU peer: reads only)" "$(sorted "$CPU5")" \
		"$(events_of nvidia_nvclink_pmu_$s)"
	check_eq "nvclink_$s formats" event "$(ls $EV/nvidia_nvclink_pmu_$s/format)"
	check_eq "nvdlink_$s events (CXL memory: incoming reads)" "$(sorted "$CXL3")" \
		"$(events_of nvidia_nvdlink_pmu_$s)"
	check_eq "nvdlink_$s formats" event "$(ls $EV/nvidia_nvdlink_pmu_$s/format)"
done
bad=""
i=0
for e in $ALL9; do
	[ "$(cat $EV/$N0/events/$e)" = "event=0x$i" ] || bad="$bad $e"
	i=$((i + 1))
done
check_eq "nvlink_c2c events/* contents" "" "$bad"

# ---- gpu_mask: instances 0-6 are GPU 0, 7-13 GPU 1 ----
traffic="printf '%s\n' 'event=in_rd_req value=5 instance=3' 'event=in_rd_req value=7 instance=9' \
	'event=in_rd_req value=100 instance=6' 'event=in_rd_req value=1000 instance=13' > $IN"
check_eq "gpu_mask=0x1 counts GPU 0 instances" 105 \
	"$(stat_count "$N0/in_rd_req,gpu_mask=0x1/" "$traffic")"
check_eq "gpu_mask=0x2 counts GPU 1 instances" 1007 \
	"$(stat_count "$N0/in_rd_req,gpu_mask=0x2/" "$traffic")"
check_eq "gpu_mask=0x3 counts both" 1112 \
	"$(stat_count "$N0/in_rd_req,gpu_mask=0x3/" "$traffic")"
check_eq "gpu_mask unset counts both" 1112 "$(stat_count "$N0/in_rd_req/" "$traffic")"
i9="echo 'event=in_rd_req value=7 instance=9' > $IN"
check_eq "spec example: instance 9 with gpu_mask=0x2" 7 \
	"$(stat_count "$N0/in_rd_req,gpu_mask=0x2/" "$i9")"
check_eq "spec example: instance 9 with gpu_mask=0x1" 0 \
	"$(stat_count "$N0/in_rd_req,gpu_mask=0x1/" "$i9")"

# Every event, on every instance it should see.
n=0
bad=""
for e in $ALL9; do
	n=$((n + 11))
	[ $e = cycles ] && continue
	c=$(stat_count "$N0/$e/" \
		"printf 'event=$e value=$n instance=0\nevent=$e value=1 instance=13\n' > $IN")
	[ "$c" = $((n + 1)) ] || bad="$bad $e=$c"
done
check_eq "nvlink_c2c: every event sums instances 0 and 13" "" "$bad"
check_eq "cycles (lock-step instances)" 4242 \
	"$(stat_count "$N0/cycles/" "echo 'event=cycles value=4242' > $IN")"
check_eq "cycles with gpu_mask=0x2" 99 \
	"$(stat_count "$N0/cycles,gpu_mask=0x2/" "echo 'event=cycles value=99' > $IN")"

bad=""
for e in $CPU5; do
	c=$(stat_count "$CL0/$e/" \
		"printf 'event=$e value=3 instance=0\nevent=$e value=4 instance=11\n' > $ICL")
	[ "$c" = 7 ] || bad="$bad $e=$c"
done
check_eq "nvclink: read events sum all 12 instances (cycles: all advance)" "" "$bad"
bad=""
for e in $CXL3; do
	c=$(stat_count "$DL0/$e/" \
		"printf 'event=$e value=6 instance=0\nevent=$e value=9 instance=15\n' > $IDL")
	[ "$c" = 15 ] || bad="$bad $e=$c"
done
check_eq "nvdlink: read events sum all 16 instances (cycles: all advance)" "" "$bad"

# ---- refused input ----
T=$(pmu_type $N0)
TCL=$(pmu_type $CL0)
TDL=$(pmu_type $DL0)
for id in 3 4 7 8; do
	check_eq "nvclink hides event $id and refuses it by number" "errno 22 EINVAL" \
		"$($PERF_OPEN "$TCL" $id)"
done
for id in 3 4 5 6 7 8; do
	check_eq "nvdlink refuses event $id" "errno 22 EINVAL" "$($PERF_OPEN "$TDL" $id)"
done
check_eq "nvclink has no gpu_mask (config1)" "errno 22 EINVAL" "$($PERF_OPEN -1 1 "$TCL" 2)"
check_eq "nvlink_c2c refuses event 9" "errno 22 EINVAL" "$($PERF_OPEN "$T" 9)"
check_eq "nvlink_c2c refuses config bit 8" "errno 22 EINVAL" "$($PERF_OPEN "$T" 0x100)"
check_eq "nvlink_c2c refuses gpu_mask bit 2" "errno 22 EINVAL" "$($PERF_OPEN -1 4 "$T" 2)"
check_eq "nvlink_c2c accepts gpu_mask 0x3" ok "$($PERF_OPEN -1 3 "$T" 2)"
check_eq "nvclink accepts out_rd_req" ok "$($PERF_OPEN "$TCL" 6)"
c=$(stat_count "$CL0/event=0x3/" true)
check_eq "perf stat of a hidden event is $NOTSUP" "$NOTSUP" "$c"

# ---- exact across rescheduling: counters restart at 0 on every enable ----
set -- $(overlap_sessions $IN "$N0/out_rd_req/" 'event=out_rd_req value=3 instance=1' \
	'event=out_rd_req value=5 instance=8' \
	"$N0/out_rd_req,gpu_mask=0x2/" 'event=out_rd_req value=7 instance=10')
check_eq "overlapping: second session sees its own delta" 7 "$2"
check_eq "overlapping: first session keeps every count" 15 "$1"

# ---- no limit on events: the counters are shared, no event takes one ----
check_no_event_limit $N0 in_rd_req 40 $IN 'event=in_rd_req value=10'

# ---- hotplug inside a socket keeps counts ----
# Socket 0's NV-DLink PMU, or socket 1's where the active CPU of socket 0
# cannot go offline (x86 from 6.5 keeps its boot CPU online).
HP=$DL0
cpu=$(cat $EV/$HP/cpumask)
if [ ! -e /sys/devices/system/cpu/cpu$cpu/online ]; then
	HP=nvidia_nvdlink_pmu_1
	cpu=$(cat $EV/$HP/cpumask)
fi
IHP=$UNCORE_SIM/$HP/inject
c=$(stat_count "$HP/in_rd_req/" "echo 'event=in_rd_req value=12 instance=4' > $IHP
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	echo 'event=in_rd_req value=30 instance=5' > $IHP")
check_eq "hotplug in socket: exact across the move ($HP)" 42 "$c"
new=$(cat $EV/$HP/cpumask)
echo 1 > /sys/devices/system/cpu/cpu$cpu/online
if [ -n "$new" ] && [ "$new" != "$cpu" ]; then
	ok "hotplug in socket: cpumask of $HP moved from $cpu to $new"
else
	not_ok "hotplug in socket: cpumask moved" "$HP: before $cpu after '$new'"
fi

done_testing
