#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Counter wrap on the CoreSight PMUs, ours and the upstream engine
# (twin_arm_cspmu, twin_nvidia_cspmu): the simulator loaded again with
# 32-bit counters (cspmu_width=32, the cspmu32 firmware's PMCFGR), first
# with the overflow interrupt and then without any (irq=0), so that more
# than 2^32 counted on UCF, PCIE and PCIE-TGT counters and on the cycle
# counter wraps them several times. Then the simulator as booted again.
# twins: twin_arm_cspmu twin_nvidia_cspmu

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

OURS="nvidia_t410_ucf_pmu nvidia_t410_pcie_pmu nvidia_t410_pcie_tgt_pmu"
TWIN="twin_arm_cspmu twin_nvidia_cspmu"
U=nvidia_ucf_pmu_1
P=nvidia_pcie_pmu_0_rc_2
T=nvidia_pcie_tgt_pmu_1_rc_5
# UCF of socket 1 is APMT node 0x100
DEV=arm-cs-arch-pmu.256

# irqs DEV: interrupts DEV took so far, on every CPU
irqs() {
	awk -v d="$1" '$NF == d { s = 0; for (i = 2; i < NF; i++)
		if ($i ~ /^[0-9]+$/) s += $i; print s }' /proc/interrupts
}

# yes_no CMD...: "yes" if CMD succeeds, else "no"
yes_no() {
	"$@" && echo yes || echo no
}

# count KEY EVENT INJECT WANT: "count KEY <count>" into OUT, WANT into EXP
count() {
	echo "count $1 $(stat_count "$2" "$3")" >>"$OUT"
	echo "count $1 $4" >>"$EXP"
}

# scenario OUT EXPECTED, for the interrupt setting of $MODE
scenario() {
	OUT=$1 EXP=$2
	: >"$OUT"
	: >"$EXP"
	if [ "$MODE" = irq ]; then
		big=$(((1 << 34) + 12345))
		i0=$(irqs $DEV)
		count ucf "$U/slc_bytes_rd/" \
			"echo 'event=slc_bytes_rd value=$big' > $UNCORE_SIM/$U/inject" $big
		i1=$(irqs $DEV)
		echo "irq taken $(yes_no [ $((${i1:-0} - ${i0:-0})) -gt 0 ])" >>"$OUT"
		echo "irq taken yes" >>"$EXP"
		irq=$(awk -v d="$DEV" '$NF == d { sub(":", "", $1); print $1 }' /proc/interrupts)
		aff=$(cat /proc/irq/$irq/effective_affinity_list 2>&1)
		cpu=$(cat $EV/$U/cpumask)
		echo "irq affinity-is-cpumask $(yes_no [ "$aff" = "$cpu" ])" >>"$OUT"
		echo "irq affinity-is-cpumask yes" >>"$EXP"
		count cycles "$U/cycles/" \
			"echo 'event=cycles value=$big' > $UNCORE_SIM/$U/inject" $big
		count pcie "$P/rd_bytes,src_rp_mask=0x4/" \
			"echo 'event=rd_bytes value=$((3 << 31)) rp=2' > $UNCORE_SIM/$P/inject" \
			$((3 << 31))
	else
		# without an interrupt the simulator waits up to 5 s for a read
		# of the counter after each chunk: one value just above 2^32
		# (three chunks) per event keeps a driver that never reads short
		big=$(((1 << 32) + 777))
		echo "irq requested $(yes_no grep -q arm-cs-arch-pmu /proc/interrupts)" >>"$OUT"
		echo "irq requested no" >>"$EXP"
		count ucf "$U/slc_bytes_wr/" \
			"echo 'event=slc_bytes_wr value=$big' > $UNCORE_SIM/$U/inject" $big
		count pcie-tgt "$T/wr_req/" \
			"echo 'event=wr_req value=$big rp=1' > $UNCORE_SIM/$T/inject" $big
	fi
}

for MODE in irq noirq; do
	irq=1
	[ $MODE = irq ] || irq=0
	sim_reload cspmu_width=32 irq=$irq
	check_eq "$MODE: counters are 32-bit" 32 \
		"$(cat /sys/module/uncore_sim/parameters/cspmu_width)"
	twin_run cspmu-wrap-$MODE "$OURS" "$TWIN"
done
sim_reload
check_eq "the simulator as booted again" 64 \
	"$(cat /sys/module/uncore_sim/parameters/cspmu_width)"

done_testing
