#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No interrupt, 40-bit counters, and a PMU associated with a processor
# container: the layer's poll folds the counters (every 125 ms), and when
# the PMU's CPU goes offline during counting, or a CPU of its own node
# comes back, the poll must go with the PMU to its new CPU. The simulator
# delivers more than 2^40 in chunks and waits for a read of the counter
# after each one, so a poll left behind on the old CPU fails the
# injection (it times out) and the count.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_0
I=$UNCORE_SIM/$U/inject

check_eq "associated_cpus is the whole container" 0-3 "$(cat $EV/$U/associated_cpus)"
cpu=$(cat $EV/$U/cpumask)
big=$(((1 << 41) + 777))
err=/tmp/migrate-inject.err
c=$(stat_count "$U/slc_bytes_rd/" "echo 'event=slc_bytes_rd value=1000' > $I
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	echo 'event=slc_bytes_rd value=$big' > $I 2>$err")
check_eq "2^41 + 1777 across the PMU's move, no interrupt" $((big + 1000)) "$c"
check_eq "the injection was folded in time (no timeout)" "" "$(cat $err)"
new=$(cat $EV/$U/cpumask)
if [ "$new" != "$cpu" ]; then
	ok "cpumask moved off CPU $cpu (to $new)"
else
	not_ok "cpumask moved off CPU $cpu" "still $new"
fi

# Node 0's other CPU goes too, so the PMU is on node 1; that CPU returns
# during counting and the PMU goes back to it (a move made from the CPU
# coming online, while the poll runs on node 1): counts stay exact.
echo 0 > /sys/devices/system/cpu/cpu$new/online
far=$(cat $EV/$U/cpumask)
c=$(stat_count "$U/cycles/" "echo 'event=cycles value=$big' > $I
	echo 1 > /sys/devices/system/cpu/cpu$new/online
	echo 'event=cycles value=$big' > $I 2>$err")
check_eq "cycle counter, 2 * (2^41 + 777) across the move back from CPU $far" \
	$((2 * big)) "$c"
check_eq "no timeout across the move back" "" "$(cat $err)"
check_eq "cpumask back on CPU $new" "$new" "$(cat $EV/$U/cpumask)"
echo 1 > /sys/devices/system/cpu/cpu$cpu/online
rm -f "$err"

done_testing
