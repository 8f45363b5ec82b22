#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Narrow counters on a dual-page CSPMU: the counters and PMOVSCLR live on
# page 1, so the overflow handler must read and clear the status there.
# More than 2^32 counted exactly across several wraps of a 32-bit counter
# (the simulator delivers each wrap in a chunk and waits up to 1 s for the
# driver to clear the overflow: a handler on the wrong page fails the
# injection), the interrupt taken on the PMU's CPU, and nothing left set
# in PMOVS afterwards.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_1
P=nvidia_pcie_pmu_0_rc_5

# irqs DEV: overflow interrupts of DEV so far, all CPUs
irqs() {
	awk -v d="$1" '$NF == d { s = 0; for (i = 2; i <= 5; i++) s += $i; print s }' \
		/proc/interrupts
}

# reg PMU WIN:OFF: a register of the simulated PMU, "" if it has none
reg() {
	awk -v r="$2" '$1 == r { print $2 }' "$UNCORE_SIM/$1/regs"
}

check_eq "$U: 32-bit counters (PMCFGR SIZE=31), dual page" "0x5f08 yes" \
	"$(reg $U page0:0xe00) $([ -n "$(reg $U page1:0xc80)" ] && echo yes)"
check_eq "$P: 32-bit counters (PMCFGR SIZE=31), dual page" "0x5f08 yes" \
	"$(reg $P page0:0xe00) $([ -n "$(reg $P page1:0xc80)" ] && echo yes)"

# UCF of socket 1 is APMT node 0x100, PCIE RC 5 of socket 0 node 0x15.
for spec in "$U slc_bytes_rd arm-cs-arch-pmu.256 src=loc_cpu" \
	    "$U cycles arm-cs-arch-pmu.256" \
	    "$P rd_bytes arm-cs-arch-pmu.21 rp=3" \
	    "$P cycles arm-cs-arch-pmu.21"; do
	set -- $spec
	big=$(((5 << 32) + 12345))
	before=$(irqs "$3")
	c=$(stat_count "$1/$2/" "echo 'event=$2 value=$big $4' > $UNCORE_SIM/$1/inject")
	check_eq "$1/$2/: 5 * 2^32 + 12345 on a 32-bit page-1 counter" "$big" "$c"
	after=$(irqs "$3")
	if [ -n "$before" ] && [ $((after - before)) -ge 5 ] && [ $((after - before)) -le 20 ]; then
		ok "$1/$2/: overflow interrupts taken: $((after - before))"
	else
		not_ok "$1/$2/: overflow interrupts taken (5 to 20: one per 2^32, no storm)" \
			"before '$before' after '$after' for '$3'"
	fi
	check_eq "$1: PMOVS clear on page 1 afterwards" 0x0 "$(reg $1 page1:0xc80)"
done

# Two counters of one PMU overflowing in the same chunks: each is folded.
v=$(((3 << 32) + 7))
out=$(perf stat -a -x';' -e "$U/slc_bytes_rd/,$U/slc_bytes_wr/" -- sh -c \
	"printf 'event=slc_bytes_rd value=$v\nevent=slc_bytes_wr value=$((v + 1))\n' \
		> $UNCORE_SIM/$U/inject" 2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "$U: two 32-bit counters wrapping in turn, both exact" "$v $((v + 1)) " "$out"

# PCIE RC 4 of socket 0: 40-bit counters written one word at a time, which
# count on between the two writes (the simulator's mid_write=5). The
# overflow handler reloads a counting counter; a reload whose low word can
# carry into the high word that the second write replaces loses most of a
# range.
R=nvidia_pcie_pmu_0_rc_4
check_eq "$R: 40-bit counters (PMCFGR SIZE=39)" 0x6708 "$(reg $R page0:0xe00)"
big=$(((5 << 40) + 4321))
c=$(stat_count "$R/rd_bytes/" "echo 'event=rd_bytes value=$big rp=0' > $UNCORE_SIM/$R/inject")
check_eq "$R: 5 * 2^40 + 4321, counting between the halves of each reload" "$big" "$c"
c=$(stat_count "$R/cycles/" "echo 'event=cycles value=$big' > $UNCORE_SIM/$R/inject")
check_eq "$R: the cycle counter too" "$big" "$c"

done_testing
