#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: function_graph
#
# The MMIO budgets of make bench (87-bench.sh) on the Grace PMUs, with
# and without a filter: one register read per read() of a 64-bit atomic
# counter and no write; scheduling writes only the registers that change;
# a group of all counters is read in one read transaction, no counter
# while it counts; no allocation and no print in any callback.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/bench.sh"

bench_require
for spec in "scf nvidia_scf_pmu_0 scf_cache" "pcie nvidia_pcie_pmu_0 rd_bytes_loc" \
	    "pcief nvidia_pcie_pmu_1 wr_bytes_rem,root_port=0x21" \
	    "c2c0 nvidia_nvlink_c2c0_pmu_0 rd_req_loc,port=0x2" \
	    "c2c1 nvidia_nvlink_c2c1_pmu_1 rd_cum_outs_rem" \
	    "cnvl nvidia_cnvlink_pmu_0 total_bytes_loc,rem_socket=0xe" \
	    "gen nvidia_uncore_pmu_0 event=0x77,filter=0x3,filter2=0x9"; do
	set -- $spec
	bench_run $1 $2 $CSX "$(ev $2 $3)"
	bench_table $1 "$2: $3"
	check_read $1 1
	check_add $1
	bench_clean $1
done

# The whole PMU as one group: 8 event counters and the cycle counter.
P=nvidia_cnvlink_pmu_1
evs=$(events_n 8 "$(ev $P rd_bytes_loc)" | tr , ' ')
# shellcheck disable=SC2086 # one word per event
bench_run grp $P -g $CSX $evs "$(ev $P cycles)"
bench_table grp "$P: group of all 9 counters"
check_read grp 1
check_eq "grp: read: 16 group reads, each counter once" "144 144" \
	"$(bench_rd grp read calls) $(bench_get grp read traced reads)"
check_eq "grp: read: no counter read while it counts (read transaction)" 0 \
	"$(bench_get grp read stats reads_while_running)"
check_add grp
bench_clean grp
bench_teardown

done_testing
