#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware container-affinity: socket 0's UCF is associated with a
# processor container holding CPUs 0-3. When its CPU goes offline during
# counting, cpumask and the overflow interrupt move to another CPU of the
# container (the same NUMA node first) and the count stays exact.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_0
I=$UNCORE_SIM/$U/inject
dev=arm-cs-arch-pmu.0

check_eq "associated_cpus is the whole container" 0-3 "$(cat $EV/$U/associated_cpus)"
cpu=$(cat $EV/$U/cpumask)
check_eq "active CPU is on the PMU's node" 0 \
	"$(socket_of $cpu)"
irq=$(awk -v d="$dev" '$NF == d { sub(":", "", $1); print $1 }' /proc/interrupts)
check_eq "overflow IRQ on the active CPU" "$cpu" \
	"$(cat /proc/irq/$irq/effective_affinity_list 2>&1)"

c=$(stat_count "$U/slc_bytes_rd/" "echo 'event=slc_bytes_rd value=1000' > $I
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	echo 'event=slc_bytes_rd value=234' > $I")
check_eq "count exact across the move" 1234 "$c"
new=$(cat $EV/$U/cpumask)
check_eq "cpumask moved to the other CPU of node 0" $((1 - cpu)) "$new"
check_eq "IRQ moved with it" "$new" "$(cat /proc/irq/$irq/effective_affinity_list 2>&1)"

# Both CPUs of node 0 offline: the PMU goes to node 1, still in the container.
echo 0 > /sys/devices/system/cpu/cpu$new/online
far=$(cat $EV/$U/cpumask)
case "$far" in
2 | 3) ok "node 0 offline: cpumask on node 1 ($far)" ;;
*) not_ok "node 0 offline: cpumask on node 1" "got '$far'" ;;
esac
check_eq "node 0 offline: IRQ follows" "$far" "$(cat /proc/irq/$irq/effective_affinity_list 2>&1)"
c=$(stat_count "$U/slc_bytes_wr/" "echo 'event=slc_bytes_wr value=77' > $I")
check_eq "node 0 offline: counts" 77 "$c"

# A CPU of the PMU's own node returns: the PMU goes back to it.
echo 1 > /sys/devices/system/cpu/cpu$new/online
check_eq "node-local CPU back: cpumask returns" "$new" "$(cat $EV/$U/cpumask)"
check_eq "node-local CPU back: IRQ returns" "$new" \
	"$(cat /proc/irq/$irq/effective_affinity_list 2>&1)"
echo 1 > /sys/devices/system/cpu/cpu$cpu/online
c=$(stat_count "$U/slc_bytes_rd/" "echo 'event=slc_bytes_rd value=5' > $I")
check_eq "counts after all CPUs are back" 5 "$c"

done_testing
