#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: function_graph
#
# The MMIO budgets of make bench (87-bench.sh) on the Odyssey DDR and
# LLC-TAD PMUs: a read() of a DDR counter, programmable or free-running,
# is one register read and no write; a read() of a TAD event is one read
# per TAD block (the PMU sums the blocks) and no write; scheduling writes
# only the registers that change, besides the commands it must give (a
# DDR counter's START, which zeroes it; a TAD counter's clear in each
# block, which the simulator cannot show as a change when the bench's
# counters already read 0); a group of the eight programmable DDR
# counters and both free-running ones is read counter by counter, each
# once per read; no allocation and no print in any callback.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/bench.sh"

D=mrvl_ddr_pmu_1000200000
# the TAD blocks of the firmware (topology.topo: marvell,tad-cnt)
NTAD=4

# check_sched NAME CMDS: scheduling (add with start, and the whole phase)
# writes no more than the registers it changes plus CMDS commands
check_sched() {
	for ph in enable reenable; do
		c=$(bench_get "$1" $ph regs changed)
		check_le "$1: $ph: add+start writes <= registers changed + $2 commands" \
			$((c + $2)) "$(bench_get "$1" $ph add writes)"
		check_le "$1: $ph: all writes of the phase <= registers changed + $2 commands" \
			$((c + $2)) "$(bench_get "$1" $ph stats mmio_writes)"
	done
}

bench_require
for spec in "ddrp $D ddr_cam_read 1 1" "ddrf $D ddr_ddr_reads 1 0" \
	    "ddrw $D ddr_ddr_writes 1 0" "tad tad tad_hit_any $NTAD $NTAD"; do
	set -- $spec
	bench_run $1 $2 "$(ev $2 $3)"
	bench_table $1 "$2: $3"
	check_read $1 $4
	check_sched $1 $5
	bench_clean $1
done

# The whole DDR PMU as one group: the 8 programmable counters and both
# free-running counters, 10 events.
evs=""
for e in ddr_cam_read ddr_cam_write ddr_precharge ddr_refresh ddr_war_hazard \
	 ddr_raw_hazard ddr_waw_hazard ddr_zqcl ddr_ddr_reads ddr_ddr_writes; do
	evs="$evs $(ev $D $e)"
done
# shellcheck disable=SC2086 # one word per event
bench_run grp $D -g $evs
bench_table grp "$D: group of 8 counters and 2 free-running"
check_read grp 1
check_eq "grp: read: 16 group reads, each counter once" "160 160" \
	"$(bench_rd grp read calls) $(bench_get grp read traced reads)"
check_sched grp 8
bench_clean grp
bench_teardown

done_testing
