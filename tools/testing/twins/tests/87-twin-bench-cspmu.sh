#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: function_graph
#
# make bench on the CoreSight PMU twins (arm64): the MMIO of every perf
# callback and the time of read() for our UCF, PCIE and PCIE-TGT drivers
# and for the upstream engine with its NVIDIA module, in the same boot,
# with the same events as 87-bench.sh (tests/lib/bench.sh). For every run
# the traced MMIO must be all the simulator saw. Prints the two side by
# side; BENCHMARKS.md shows these tables. Run by make bench only.
# twins: twin_arm_cspmu twin_nvidia_cspmu

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/bench.sh"
. "$(dirname "$0")/lib/twins.sh"

RUNS_cspmu="ucf ucfg pcie tgt tgtf"
scen_cspmu() {
	bench_run $1-ucf $UCF $CSX "$(ev $UCF slc_bytes_rd)"
	# the whole PMU as one group: the 8 event counters and cycles
	g="$(ev $UCF cycles) $(events_n 8 "$(ev $UCF slc_bytes_rd)" | tr , ' ')"
	# shellcheck disable=SC2086 # one word per event
	bench_run $1-ucfg $UCF -g $CSX $g
	bench_run $1-pcie $PCIE $CSX "$(ev $PCIE rd_req)"
	bench_run $1-tgt $TGT $CSX "$(ev $TGT rd_bytes)"
	bench_run $1-tgtf $TGT $CSX \
		"$(ev $TGT wr_bytes,dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=0x1)"
}
TITLE_ucf="UCF $UCF: slc_bytes_rd (64-bit counters, atomic)"
TITLE_ucfg="UCF $UCF: group of cycles and 8 x slc_bytes_rd"
TITLE_pcie="PCIE $PCIE: rd_req"
TITLE_tgt="PCIE-TGT $TGT: rd_bytes"
TITLE_tgtf="PCIE-TGT $TGT: wr_bytes with an address filter"

timing_cspmu() {
	twin_bench_timing $1 $UCF slc_bytes_rd
	twin_bench_timing $1 $PCIE rd_req
	twin_bench_timing $1 $TGT rd_bytes
}

twin_bench_family cspmu \
	"nvidia_t410_ucf_pmu nvidia_t410_pcie_pmu nvidia_t410_pcie_tgt_pmu" \
	"twin_arm_cspmu twin_nvidia_cspmu" \
	add=arm_cspmu_add del=arm_cspmu_del start=arm_cspmu_start stop=arm_cspmu_stop \
	read=arm_cspmu_read enable=arm_cspmu_enable disable=arm_cspmu_disable

twin_bench_report $RUNS_cspmu

done_testing
