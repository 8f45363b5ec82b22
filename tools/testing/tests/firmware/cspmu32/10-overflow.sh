#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 32-bit CSPMU counters with the overflow interrupt: more than 2^32 counted
# exactly (the simulator delivers it in chunks and waits for the driver to
# clear each overflow), the interrupt handled on the PMU's CPU.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_1
P=nvidia_pcie_pmu_0_rc_2

# UCF of socket 1 is APMT node 0x100, so device arm-cs-arch-pmu.256.
dev=arm-cs-arch-pmu.256
irqs() {
	awk -v d="$1" '$NF == d { s = 0; for (i = 2; i <= 5; i++) s += $i; print s }' \
		/proc/interrupts
}

big=$(((1 << 34) + 12345))
before=$(irqs "$dev")
c=$(stat_count "$U/slc_bytes_rd/" "echo 'event=slc_bytes_rd value=$big' > $UNCORE_SIM/$U/inject")
check_eq "2^34 + 12345 on a 32-bit counter, with the interrupt" "$big" "$c"
after=$(irqs "$dev")
if [ -n "$before" ] && [ $((after - before)) -ge 4 ]; then
	ok "overflow interrupts taken: $((after - before))"
else
	not_ok "overflow interrupts taken" "before '$before' after '$after' for '$dev'" \
		"$(cat /proc/interrupts)"
fi
irq=$(awk -v d="$dev" '$NF == d { sub(":", "", $1); print $1 }' /proc/interrupts)
check_eq "IRQ affinity is the PMU's CPU" "$(cat $EV/$U/cpumask)" \
	"$(cat /proc/irq/$irq/effective_affinity_list 2>&1)"
c=$(stat_count "$U/cycles/" "echo 'event=cycles value=$big' > $UNCORE_SIM/$U/inject")
check_eq "cycle counter, 32 bits, with the interrupt" "$big" "$c"
c=$(stat_count "$P/rd_bytes,src_rp_mask=0x4/" \
	"echo 'event=rd_bytes value=$((3 << 31)) rp=2' > $UNCORE_SIM/$P/inject")
check_eq "PCIE 32-bit counter, 3 * 2^31" $((3 << 31)) "$c"

# The active CPU moves: so does the interrupt, and counts stay exact.
echo 0 > /sys/devices/system/cpu/cpu2/online
check_eq "CPU 2 offline: $U has no CPU (one associated CPU)" "" "$(cat $EV/$U/cpumask)"
echo 1 > /sys/devices/system/cpu/cpu2/online
c=$(stat_count "$U/slc_bytes_rd/" "echo 'event=slc_bytes_rd value=$big' > $UNCORE_SIM/$U/inject")
check_eq "after the CPU came back: exact again" "$big" "$c"
check_eq "IRQ affinity follows" 2 "$(cat /proc/irq/$irq/effective_affinity_list 2>&1)"
# Independently of what /proc/irq says: the overflow interrupts of the
# next count are taken on CPU 2, the PMU's CPU again, and on no other.
percpu() {
	awk -v d="$1" '$NF == d { print $2, $3, $4, $5 }' /proc/interrupts
}
set -- $(percpu "$dev")
b0=$1 b1=$2 b2=$3 b3=$4
c=$(stat_count "$U/slc_bytes_wr/" "echo 'event=slc_bytes_wr value=$big' > $UNCORE_SIM/$U/inject")
check_eq "after the CPU came back: a second count exact" "$big" "$c"
set -- $(percpu "$dev")
on2=$(($3 - b2))
[ $on2 -ge 4 ] && on2=yes
check_eq "after the CPU came back: overflow interrupts on CPU 2 only" "0 0 yes 0" \
	"$(($1 - b0)) $(($2 - b1)) $on2 $(($4 - b3))"

done_testing
