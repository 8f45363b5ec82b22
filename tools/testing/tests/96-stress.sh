#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Stress on every PMU at once: a pinned session counting one event on each
# of the 36 PMUs, beside sessions that ask for more events than counters
# (CSPMU, CMEM and C2C) and one event on every PMU, with background
# traffic from the simulator's rate generator; meanwhile every CPU in turn
# goes offline and comes back, and the drivers are asked to unload. Then:
# exact counts (where no multiplexing freezes the counters), a socket whose
# last CPU is offline refuses new events until one returns, and every PMU
# still counts exactly.

. "$(dirname "$0")/lib/lib.sh"

V=1000003
K=4
MUX_UCF=nvidia_ucf_pmu_0
MUX_PCIE=nvidia_pcie_pmu_1_rc_2
MUX_CMEM=nvidia_cmem_latency_pmu_0
MUX_C2C=nvidia_nvlink_c2c_pmu_1
pmus=$(our_pmus)

checked_event() {
	pmu_event "$1"
}

# ---- background traffic on events nobody checks exactly ----
for p in $MUX_UCF $MUX_PCIE; do
	echo 'event=0x3 value=5 per_sec=1000' > $UNCORE_SIM/$p/rate
done
echo 'event=rd_cum_outs value=5 instance=0 mc=0 per_sec=1000' > $UNCORE_SIM/$MUX_CMEM/rate
echo 'event=in_rd_req value=5 per_sec=1000' > $UNCORE_SIM/$MUX_C2C/rate

# ---- sessions with more events than counters, and one on every PMU ----
# (a background perf ignores SIGINT in a script: its workload ends it)
rm -f /tmp/stop
UNTIL_STOP='while [ ! -e /tmp/stop ]; do sleep 0.2; done'
mux=""
for p in $MUX_UCF $MUX_PCIE; do
	i=1
	while [ $i -le 12 ]; do
		mux="$mux -e $p/event=$(printf '0x%x' $i)/"
		i=$((i + 1))
	done
done
i=0
while [ $i -lt 36 ]; do
	mux="$mux -e $MUX_CMEM/rd_cum_outs/ -e $MUX_C2C/in_rd_req/"
	i=$((i + 1))
done
perf stat -a -x';' -o /tmp/mux.out $mux -- sh -c "$UNTIL_STOP" 2>/dev/null &
mux_pid=$!
every=""
for p in $pmus; do
	e=$(ls $EV/$p/events | grep -v "^$(checked_event $p)\$" | head -n 1)
	every="$every -e $p/$e/"
done
perf stat -a -x';' -o /tmp/every.out $every -- sh -c "$UNTIL_STOP" 2>/dev/null &
every_pid=$!
sleep 2

# ---- the pinned session; its workload injects, hotplugs and tries rmmod ----
# each PMU with its checked event, "pmu/event"
list=$(for p in $pmus; do echo "$p/$(checked_event $p)"; done | xargs)
cat > /tmp/stress-work.sh <<EOS
r=0
while [ \$r -lt $K ]; do
	cpu=\$(echo 1 0 3 2 | cut -d' ' -f\$((r % 4 + 1)))
	echo 0 > /sys/devices/system/cpu/cpu\$cpu/online
	for pe in $list; do
		echo "event=\${pe#*/} value=$V" > $UNCORE_SIM/\${pe%/*}/inject
	done
	echo 1 > /sys/devices/system/cpu/cpu\$cpu/online
	for pe in $list; do
		echo "event=\${pe#*/} value=$V" > $UNCORE_SIM/\${pe%/*}/inject
	done
	if [ \$r -eq 2 ]; then
		for m in nvidia_t410_ucf_pmu nvidia_t410_cmem_latency_pmu \
			 uncore_cspmu uncore_pmu; do
			rmmod \$m 2>/dev/null && echo "\$m unloaded"
		done > /tmp/rmmod.out
	fi
	r=\$((r + 1))
done
EOS
pinned=""
for p in $pmus; do
	pinned="$pinned -e $p/$(checked_event $p)/D"
done
perf stat -a -x';' -o /tmp/pinned.out $pinned -- sh /tmp/stress-work.sh 2>/dev/null
touch /tmp/stop
wait $mux_pid $every_pid
# an empty write stops a rate (the harness fails a test that leaves one)
for p in $MUX_UCF $MUX_PCIE $MUX_CMEM $MUX_C2C; do
	echo > $UNCORE_SIM/$p/rate
done
check_eq "the background traffic stopped" "" "$(cat $UNCORE_SIM/busy)"

check_eq "no driver unloaded while its events were open" "" "$(cat /tmp/rmmod.out)"
check_eq "every CPU is back online" "0-3" "$(cat /sys/devices/system/cpu/online)"

# Every PMU with another associated CPU keeps every count across the storm
# (PEM: all CPUs; CMEM and C2C: both CPUs of the socket). A CSPMU's APMT
# node names one CPU (0 or 2): its events end when that CPU goes offline,
# in round 1 (CPU 0) or 3 (CPU 2), and do not come back (perf core), so
# they hold the traffic of the rounds before; where CPU 0 cannot go offline
# (x86 from 6.5), socket 0's hold every round's. The two oversubscribed
# CSPMUs are left out: their rotation stops the whole PMU, as the hardware
# does, while traffic may arrive.
cpu0=0
[ -e /sys/devices/system/cpu/cpu0/online ] && cpu0=1
bad=$(awk -F';' -v v=$V -v k=$K -v a=$MUX_UCF/ -v b=$MUX_PCIE/ -v cpu0=$cpu0 '
	$3 !~ /\/D$/ { next }
	{ n++ }
	index($3, a) == 1 || index($3, b) == 1 { next }
	{ w = 2 * k * v }
	$3 ~ /^nvidia_(ucf|pcie|pcie_tgt)_pmu_0/ { w = cpu0 ? 2 * v : 2 * k * v }
	$3 ~ /^nvidia_(ucf|pcie|pcie_tgt)_pmu_1/ { w = 6 * v }
	$1 != w { print $3 "=" $1 " (want " w ")" }
	END { if (n != 36) print "pinned events: " n }' /tmp/pinned.out)
check_eq "hotplug storm: 34 pinned events count exactly" "" "$bad"
bad=$(awk -F';' -v a=$MUX_UCF/ -v b=$MUX_PCIE/ '
	$3 ~ /\/D$/ && (index($3, a) == 1 || index($3, b) == 1) && $1 !~ /^[0-9]+$/ { print }' \
	/tmp/pinned.out)
check_eq "hotplug storm: the oversubscribed CSPMUs' pinned events counted" "" "$bad"

bad=$(awk -F';' '$3 ~ /\// && $1 !~ /^[0-9]+$/ { print $3 "=" $1 }' /tmp/every.out)
check_eq "one event on every PMU: all 36 counted" "36:" \
	"$(grep -c '/;' /tmp/every.out):$bad"
n=$(awk -F';' '$3 ~ /\// && $1 ~ /^[0-9]+$/' /tmp/mux.out | wc -l)
check_eq "oversubscribed sessions: all 96 events counted" 96 "$n"
part=$(awk -F';' '$3 ~ /\// && $5 != "100.00"' /tmp/mux.out | wc -l)
check_cmd "oversubscribed sessions were multiplexed ($part ran part of the time)" \
	test "$part" -gt 0

# ---- the last CPU of socket 1 goes: its PMUs refuse new events ----
P1=nvidia_ucf_pmu_1
C1=nvidia_cmem_latency_pmu_1
echo 0 > /sys/devices/system/cpu/cpu2/online
echo 0 > /sys/devices/system/cpu/cpu3/online
for p in $P1 $C1; do
	check_eq "$p: no CPU of socket 1 online: open on CPU 3 is EINVAL" "errno 22 EINVAL" \
		"$($PERF_OPEN -c 3 "$(pmu_type $p)" 0 2>&1)"
	check_eq "$p: ... and on CPU 0 (not associated) too" "errno 22 EINVAL" \
		"$($PERF_OPEN -c 0 "$(pmu_type $p)" 0 2>&1)"
done
check_eq "socket 0 PMUs still count exactly" "7" \
	"$(stat_count nvidia_ucf_pmu_0/cycles/ \
		"echo 'event=cycles value=7' > $UNCORE_SIM/nvidia_ucf_pmu_0/inject")"
# CMEM is associated with both CPUs of the socket; the UCF, through its
# APMT node, with CPU 2 (processor UID 2) only.
echo 1 > /sys/devices/system/cpu/cpu3/online
check_eq "$C1 adopts CPU 3 when it returns" 3 "$(cat $EV/$C1/cpumask)"
check_eq "$P1 still has no CPU" "" "$(cat $EV/$P1/cpumask)"
check_eq "$P1 still refuses new events" "errno 22 EINVAL" \
	"$($PERF_OPEN -c 2 "$(pmu_type $P1)" 0 2>&1)"
echo 1 > /sys/devices/system/cpu/cpu2/online
check_eq "$P1 adopts CPU 2 when it returns" 2 "$(cat $EV/$P1/cpumask)"
check_eq "$P1 opens events again" ok "$($PERF_OPEN -c 2 "$(pmu_type $P1)" 0 2>&1)"

# ---- afterwards every PMU counts exactly ----
check_eq "after the stress: every PMU counts exactly" "" "$(count_every_pmu 31337)"

done_testing
