#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PREEMPT_RT. Every CoreSight PMU (Tegra410's and two Grace sockets') has
# 32-bit counters and no interrupt, so the layer's poll folds them every
# 0.5 ms; an Odyssey DDR and LLC-TAD count beside them. On RT a soft timer's callback
# runs in a thread that perf's multiplexing (a hard timer) and IPIs can
# preempt, with pmu->del taking the event the callback's walk stands on;
# the poll is a hard timer, so that cannot happen. Checked here with the
# poll running throughout: every family's count above 2^32, perf
# multiplexing 12 events on 8 counters for three seconds beside traffic,
# the same while register reads are slowed so that a walk takes 1.6 ms,
# a group read every 100 ms whose intervals add up exactly, and a PMU
# whose CPU goes offline while it counts.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_0
I=$UNCORE_SIM/$U/inject
P=nvidia_pcie_pmu_1_rc_2

check_eq "the kernel is PREEMPT_RT" yes "$(uname -v | grep -q PREEMPT_RT && echo yes)"
check_eq "no overflow interrupt requested" "" "$(grep arm-cs-arch-pmu /proc/interrupts)"
check_eq "Tegra410's UCFs and two Grace sockets' SCF and CNVLINK PMUs" "ucf 2 scf 2 cnvlink 2" \
	"$(for f in ucf scf cnvlink; do
		printf '%s %s ' $f "$(our_pmus | grep -c "^nvidia_${f}_pmu_[01]$")"
	done | sed 's/ $//')"
check_eq "an Odyssey DDR and LLC-TAD, the DDR polled every second" \
	"mrvl_ddr_pmu_1000200000 tad poll_period_sec=1" \
	"$(our_pmus | grep -E '^(mrvl_ddr|tad)' | xargs) $(cmdline_args marvell_odyssey_ddr_pmu | xargs)"

# every family, one event each, a value above 2^32 (chunked on the 32-bit
# counters, each chunk waiting for the poll to read the counter)
check_eq "every PMU counts 2^32 + 5 exactly" "" "$(count_every_pmu 4294967301)"

# multiplexing: perf rotates 12 events on 8 counters every few ms while
# the poll walks the scheduled ones, with background traffic on both PMUs
for p in $U $P; do
	echo 'event=0x3 value=5 per_sec=1000' > $UNCORE_SIM/$p/rate
done
m=$(events_n 12 "$U/event=0x3/"),$(events_n 12 "$P/event=0x3/")
out=$(perf stat -a -x';' -e "$m" -- sleep 3 2>&1 >/dev/null)
for p in $U $P; do
	echo > $UNCORE_SIM/$p/rate
done
# counted OUT: "N:" for N rows of OUT with a count above 0, the others after
counted() {
	echo "$1" | awk -F';' '$1 ~ /^[0-9]+$/ && $1 > 0 { n++ }
		$1 !~ /^[0-9]+$/ { b = b " " $0 }
		END { print n ":" b }'
}
check_eq "24 multiplexed events for 3 s: each counted" "24:" "$(counted "$out")"
check_cmd "they took turns (running under 100%)" \
	test "$(echo "$out" | awk -F';' '$5 != "100.00"' | wc -l)" -gt 0

# The same with the poll's walk made long: every register read delayed
# 200 us, so that the walk of UCF 0's 8 scheduled events (40-bit, a poll
# every 125 ms) takes 1.6 ms, while perf swaps two groups of 8 every 4 ms.
# A soft timer's walk would be preempted by the swap, which removes every
# event the walk could stand on, and spin on it for ever: perf would not
# end. What is checked is that it ends and that both groups took turns
# (each ran, none all the time). Not that each counted traffic: with
# reads that slow, a swap itself reads for most of the 4 ms with the PMU
# stopped (PMCR.E 0 in 11 of 12 samples), so traffic arriving then is
# lost as on hardware, and a rate in step with the swaps gave one group
# nothing in one CI run. The group reads below count exactly.
echo 200 > /sys/module/uncore_sim/parameters/read_delay_us
g=$(events_n 8 "$U/event=0x3/")
out=$(timeout 120 perf stat -a -x';' -e "{$g}" -e "{$g}" -- sleep 3 2>&1 >/dev/null)
echo 0 > /sys/module/uncore_sim/parameters/read_delay_us
# rows with a count and a running share strictly between 0 and 100 %
turns=$(echo "$out" | awk -F';' '$1 ~ /^[0-9]+$/ && $5 + 0 > 0 && $5 + 0 < 100' | wc -l)
check_eq "two groups of 8 swapped beside a 1.6 ms poll walk, 3 s: perf ends, each ran in part" \
	16 "$turns"
[ "$turns" = 16 ] || echo "$out" | sed 's/^/# perf: /'

# group reads every 100 ms (each one freezes the PMU) while 2^33 + 777
# arrives in chunks: the intervals of each member add up to it
big=$(((1 << 33) + 777))
g=$(events_n 8 "$U/slc_bytes_rd/")
sums=$(perf stat -a -x';' -I 100 -e "{$g}" -- \
	sh -c "echo 'event=slc_bytes_rd value=$big' > $I" 2>&1 >/dev/null |
	awk -F';' '$4 ~ /slc_bytes_rd/ { t += $2; n++ }
		END { printf "%.0f %d", t, n % 8 }')
check_eq "a group of 8 read every 100 ms: the intervals add up, 8 members each time" \
	"$((8 * big)) 0" "$sums"

# the PMU's CPU goes offline while it counts: the poll follows it
cpu=$(cat $EV/$U/cpumask)
c=$(stat_count "$U/slc_bytes_wr/" "echo 'event=slc_bytes_wr value=1000' > $I
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	echo 'event=slc_bytes_wr value=$big' > $I")
echo 1 > /sys/devices/system/cpu/cpu$cpu/online
check_eq "2^33 + 1777 across the PMU's move to another CPU" $((big + 1000)) "$c"
check_eq "every PMU still counts exactly" "" "$(count_every_pmu 77)"

done_testing
