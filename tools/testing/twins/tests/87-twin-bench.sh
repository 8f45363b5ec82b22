#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: function_graph
#
# make bench on the upstream twins: the MMIO of every perf callback, and
# the time of read(), measured for our driver and for its upstream twin in
# the same boot, on the same simulated hardware, with the same events
# (tests/lib/bench.sh, as 87-bench.sh). For every run the traced MMIO must
# be all the simulator saw. Prints the two side by side, per phase and
# callback; BENCHMARKS.md shows these tables. Run by make bench only
# (vm-test.sh --bench).
# twins: twin_marvell_pem_pmu twin_nvidia_t410_cmem_latency_pmu twin_nvidia_t410_c2c_pmu

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/bench.sh"
. "$(dirname "$0")/lib/twins.sh"

# The scenarios (twin_bench_family): scen_<family> SIDE runs the bench
# runs, named SIDE-RUN, and timing_<family> SIDE the read() timings;
# RUNS_<family> lists the runs, TITLE_<run> says what each measures.
RUNS_pem="pem"
scen_pem() {
	bench_run $1-pem $PEM "$(ev $PEM ib_tlp_npr)"
}
RUNS_cmem="cmc cmr cmg"
scen_cmem() {
	bench_run $1-cmc $CMEM "$(ev $CMEM cycles)"
	bench_run $1-cmr $CMEM "$(ev $CMEM rd_req)"
	bench_run $1-cmg $CMEM -g "$(ev $CMEM cycles)" "$(ev $CMEM rd_req)" \
		"$(ev $CMEM rd_cum_outs)"
}
RUNS_c2c="c2a c2g c2c nvclink nvdlink"
scen_c2c() {
	bench_run $1-c2a $C2C "$(ev $C2C in_rd_req)"
	bench_run $1-c2g $C2C "$(ev $C2C in_rd_req,gpu_mask=0x1)"
	bench_run $1-c2c $C2C "$(ev $C2C cycles)"
	bench_run $1-nvclink $CLINK "$(ev $CLINK in_rd_req)"
	bench_run $1-nvdlink $DLINK "$(ev $DLINK in_rd_req)"
}

TITLE_pem="PEM $PEM: ib_tlp_npr (free-running)"
TITLE_cmc="CMEM $CMEM: cycles"
TITLE_cmr="CMEM $CMEM: rd_req (14 instances x 3 MCs)"
TITLE_cmg="CMEM $CMEM: group {cycles, rd_req, rd_cum_outs}"
TITLE_c2a="NVLink-C2C $C2C: in_rd_req, both GPUs (14 instances)"
TITLE_c2g="NVLink-C2C $C2C: in_rd_req,gpu_mask=0x1 (GPU 0: 7 instances)"
TITLE_c2c="NVLink-C2C $C2C: cycles"
TITLE_nvclink="NV-CLink $CLINK: in_rd_req (12 instances)"
TITLE_nvdlink="NV-DLink $DLINK: in_rd_req (16 instances)"

timing_pem() {
	twin_bench_timing $1 $PEM ib_tlp_npr
}
timing_cmem() {
	twin_bench_timing $1 $CMEM rd_req
}
timing_c2c() {
	twin_bench_timing $1 $C2C in_rd_req
	twin_bench_timing $1 $CLINK in_rd_req
	twin_bench_timing $1 $DLINK in_rd_req
}

twin_bench_family pem marvell_pem_pmu twin_marvell_pem_pmu add=pem_perf_event_add \
	del=pem_perf_event_del start=pem_perf_event_start stop=pem_perf_event_stop \
	read=pem_perf_event_update
twin_bench_family cmem nvidia_t410_cmem_latency_pmu twin_nvidia_t410_cmem_latency_pmu \
	add=cmem_lat_pmu_add del=cmem_lat_pmu_del start=cmem_lat_pmu_start \
	stop=cmem_lat_pmu_stop read=cmem_lat_pmu_read enable=cmem_lat_pmu_enable \
	disable=cmem_lat_pmu_disable
twin_bench_family c2c nvidia_t410_c2c_pmu twin_nvidia_t410_c2c_pmu \
	add=nv_c2c_pmu_add del=nv_c2c_pmu_del start=nv_c2c_pmu_start \
	stop=nv_c2c_pmu_stop read=nv_c2c_pmu_read enable=nv_c2c_pmu_enable \
	disable=nv_c2c_pmu_disable

twin_bench_report $RUNS_pem $RUNS_cmem $RUNS_c2c

done_testing
