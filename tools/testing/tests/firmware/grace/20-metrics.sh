#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: uncore-metrics on the Grace families, reading each release's perf
#
# Firmware grace: tools/uncore-metrics/uncore-metrics on the Grace
# (Tegra241) PMUs. Each family's PMUs are found and no other family's;
# traffic of known size is injected while the tool's perf counts one
# interval, and every figure must be exactly the value computed here, in
# the tool's own order of operations, from the injected amounts and the
# interval perf printed (the tool prints 9 significant digits).

. "$(dirname "$0")/lib/lib.sh"

TOOL=$METRICS_TOOL
OUT=$METRICS_OUT
RAW=$METRICS_RAW

# exact DESC EXPR PMU METRIC: the figure is EXPR, an awk expression, as
# the tool prints it ("%.9g")
exact() {
	check_eq "$1" "$(awk "BEGIN { printf \"%.9g\", $2 }")" "$(fig "$3" "$4")"
}

# figures PMU: the metric names the tool printed for PMU, in order
figures() {
	awk -F, -v p="$1" '$3 == p { printf "%s%s", s, $6; s = " " }' $OUT
}

check_eq "tool present in the guest" yes "$([ -x "$TOOL" ] && echo yes)"

# ---- which PMUs belong to which family ----

"$TOOL" --list > $OUT 2>/tmp/gmetrics.err
check_eq "--list: the header line" "family socket pmu" "$(head -n 1 $OUT | tr -s ' ')"
check_eq "--list: the ten Grace PMUs, each in its family, no generic PMU" \
	"scf:0:nvidia_scf_pmu_0 scf:1:nvidia_scf_pmu_1 grace-pcie:0:nvidia_pcie_pmu_0\
 grace-pcie:1:nvidia_pcie_pmu_1 nvlink-c2c0:0:nvidia_nvlink_c2c0_pmu_0\
 nvlink-c2c0:1:nvidia_nvlink_c2c0_pmu_1 nvlink-c2c1:0:nvidia_nvlink_c2c1_pmu_0\
 nvlink-c2c1:1:nvidia_nvlink_c2c1_pmu_1 cnvlink:0:nvidia_cnvlink_pmu_0\
 cnvlink:1:nvidia_cnvlink_pmu_1" \
	"$(awk 'NR > 1 { printf "%s%s:%s:%s", s, $1, $2, $3; s = " " }' $OUT)"
"$TOOL" -f pcie -n 1 > $OUT 2>/tmp/gmetrics.err
st=$?
check_eq "-f pcie: Grace's nvidia_pcie_pmu_<s> is no Tegra410 PCIE" "1 uncore-metrics: no pcie \
PMU (nvidia_pcie_pmu_*_rc_*) in /sys/bus/event_source/devices; is the nvidia_t410_pcie_pmu \
module loaded?" "$st $(cat /tmp/gmetrics.err)"
"$TOOL" -f scf,ucf -n 1 > $OUT 2>/tmp/gmetrics.err
check_eq "-f scf,ucf: no Tegra410 UCF on Grace" "uncore-metrics: no ucf PMU (nvidia_ucf_pmu_*) \
in /sys/bus/event_source/devices; is the nvidia_t410_ucf_pmu module loaded?" \
	"$(cat /tmp/gmetrics.err)"

# ---- SCF: write and read bandwidth, read data rate, read latency, frequency ----
S=nvidia_scf_pmu_0
measure "printf '%s\n' 'event=cmem_wr_total_bytes value=6400000' \
	'event=remote_socket_wr_total_bytes value=128000' 'event=cmem_rd_data value=300000' \
	'event=remote_socket_rd_data value=7000' 'event=cmem_rd_access value=2000' \
	'event=cmem_rd_outstanding value=500000' 'event=remote_socket_rd_access value=40' \
	'event=remote_socket_rd_outstanding value=26000' 'event=cycles value=3000000' \
	> $UNCORE_SIM/$S/inject
	echo 'event=cmem_wr_total_bytes value=99' > $UNCORE_SIM/nvidia_scf_pmu_1/inject" -f scf -s 0
exact "SCF local write bandwidth = cmem_wr_total_bytes / ns" "6400000 * 1 / $NS" \
	$S local_write_bw_gbps
exact "SCF remote write bandwidth = remote_socket_wr_total_bytes / ns" "128000 * 1 / $NS" \
	$S remote_write_bw_gbps
exact "SCF local read bandwidth = cmem_rd_data x 32 / ns" "300000 * 32 / $NS" \
	$S local_read_bw_gbps
exact "SCF remote read bandwidth = remote_socket_rd_data x 32 / ns" "7000 * 32 / $NS" \
	$S remote_read_bw_gbps
exact "SCF local read data rate = cmem_rd_data per second" "300000 * 1e9 / $NS" \
	$S local_read_data_per_sec
exact "SCF remote read data rate = remote_socket_rd_data per second" "7000 * 1e9 / $NS" \
	$S remote_read_data_per_sec
check_eq "SCF local read latency = cmem_rd_outstanding / cmem_rd_access" 250 \
	"$(fig $S local_read_lat_cycles)"
exact "SCF local read latency in ns = outstanding * ns / (access * cycles)" \
	"500000 * $NS / (2000 * 3000000)" $S local_read_lat_ns
check_eq "SCF remote read latency = remote_socket_rd_outstanding / _access" 650 \
	"$(fig $S remote_read_lat_cycles)"
exact "SCF remote read latency in ns" "26000 * $NS / (40 * 3000000)" $S remote_read_lat_ns
exact "SCF frequency = cycles / ns" "3000000 * 1 / $NS" $S freq_ghz
check_eq "SCF: its 11 figures, the read bandwidths last" "local_write_bw_gbps\
 remote_write_bw_gbps local_read_data_per_sec remote_read_data_per_sec local_read_lat_cycles\
 local_read_lat_ns remote_read_lat_cycles remote_read_lat_ns freq_ghz local_read_bw_gbps\
 remote_read_bw_gbps" "$(figures $S)"
check_eq "SCF: --socket 0 leaves out socket 1" 0 "$(grep -c nvidia_scf_pmu_1 $OUT)"

# ---- Grace PCIE: bandwidth and latency, local and remote, all root ports ----
P=nvidia_pcie_pmu_1
measure "printf '%s\n' 'event=rd_bytes_loc value=4096000 rp=3' \
	'event=rd_bytes_loc value=1024000 rp=9' 'event=rd_bytes_rem value=64000 rp=0' \
	'event=wr_bytes_loc value=2048000 rp=5' 'event=wr_bytes_rem value=512 rp=1' \
	'event=rd_req_loc value=300 rp=3' 'event=rd_req_loc value=100 rp=9' \
	'event=rd_cum_outs_loc value=180000 rp=3' 'event=rd_req_rem value=16 rp=0' \
	'event=rd_cum_outs_rem value=14400 rp=0' 'event=cycles value=2000000' \
	> $UNCORE_SIM/$P/inject" -f grace-pcie
exact "Grace PCIE local read bandwidth = rd_bytes_loc / ns, every root port" \
	"5120000 * 1 / $NS" $P local_read_bw_gbps
exact "Grace PCIE remote read bandwidth = rd_bytes_rem / ns" "64000 * 1 / $NS" \
	$P remote_read_bw_gbps
exact "Grace PCIE local write bandwidth = wr_bytes_loc / ns" "2048000 * 1 / $NS" \
	$P local_write_bw_gbps
exact "Grace PCIE remote write bandwidth = wr_bytes_rem / ns" "512 * 1 / $NS" \
	$P remote_write_bw_gbps
check_eq "Grace PCIE local read latency = rd_cum_outs_loc / rd_req_loc" 450 \
	"$(fig $P local_read_lat_cycles)"
exact "Grace PCIE local read latency in ns" "180000 * $NS / (400 * 2000000)" \
	$P local_read_lat_ns
check_eq "Grace PCIE remote read latency = rd_cum_outs_rem / rd_req_rem" 900 \
	"$(fig $P remote_read_lat_cycles)"
exact "Grace PCIE remote read latency in ns" "14400 * $NS / (16 * 2000000)" \
	$P remote_read_lat_ns
exact "Grace PCIE frequency" "2000000 * 1 / $NS" $P freq_ghz
check_eq "Grace PCIE socket 0 without reads: latency undefined" "" \
	"$(fig nvidia_pcie_pmu_0 local_read_lat_cycles)"
check_eq "grace-pcie: the PMUs of both sockets, nothing else" \
	"nvidia_pcie_pmu_0 nvidia_pcie_pmu_1" \
	"$(awk -F, 'NR > 1 { print $3 }' $OUT | sort -u | tr '\n' ' ' | sed 's/ $//')"

# ---- NVLink-C2C0, NVLink-C2C1, CNVLink: every port and remote socket ----
A=nvidia_nvlink_c2c0_pmu_0
B=nvidia_nvlink_c2c1_pmu_0
C=nvidia_cnvlink_pmu_0
measure "printf '%s\n' 'event=rd_bytes_loc value=3000000 port=0' \
	'event=rd_bytes_loc value=200000 port=1' 'event=rd_req_loc value=50 port=1' \
	'event=rd_cum_outs_loc value=35000 port=0' 'event=cycles value=500000' \
	> $UNCORE_SIM/$A/inject
	printf '%s\n' 'event=wr_bytes_rem value=6000000 port=1' 'event=rd_req_rem value=20 port=0' \
	'event=rd_cum_outs_rem value=9000 port=1' 'event=cycles value=1500000' \
	> $UNCORE_SIM/$B/inject
	printf '%s\n' 'event=rd_bytes_rem value=900000 rsock=1' \
	'event=wr_bytes_rem value=300000 rsock=3' 'event=rd_req_rem value=10 rsock=2' \
	'event=rd_req_rem value=20 rsock=3' 'event=rd_cum_outs_rem value=24000 rsock=0' \
	'event=wr_bytes_loc value=77 rsock=2' 'event=cycles value=2000000' \
	> $UNCORE_SIM/$C/inject" -f nvlink-c2c0,nvlink-c2c1,cnvlink -s 0
exact "NVLink-C2C0 local read bandwidth, both ports" "3200000 * 1 / $NS" \
	$A local_read_bw_gbps
check_eq "NVLink-C2C0 local read latency" 700 "$(fig $A local_read_lat_cycles)"
exact "NVLink-C2C0 local read latency in ns" "35000 * $NS / (50 * 500000)" \
	$A local_read_lat_ns
exact "NVLink-C2C0 frequency" "500000 * 1 / $NS" $A freq_ghz
check_eq "NVLink-C2C0 without remote reads: latency undefined" "" \
	"$(fig $A remote_read_lat_cycles)"
exact "NVLink-C2C1 remote write bandwidth" "6000000 * 1 / $NS" $B remote_write_bw_gbps
exact "NVLink-C2C1 local write bandwidth without traffic" 0 $B local_write_bw_gbps
check_eq "NVLink-C2C1 remote read latency" 450 "$(fig $B remote_read_lat_cycles)"
exact "NVLink-C2C1 remote read latency in ns" "9000 * $NS / (20 * 1500000)" \
	$B remote_read_lat_ns
exact "CNVLink remote read bandwidth, every remote socket" "900000 * 1 / $NS" \
	$C remote_read_bw_gbps
exact "CNVLink remote write bandwidth" "300000 * 1 / $NS" $C remote_write_bw_gbps
exact "CNVLink local write bandwidth" "77 * 1 / $NS" $C local_write_bw_gbps
check_eq "CNVLink remote read latency" 800 "$(fig $C remote_read_lat_cycles)"
exact "CNVLink remote read latency in ns" "24000 * $NS / (30 * 2000000)" \
	$C remote_read_lat_ns
exact "CNVLink frequency" "2000000 * 1 / $NS" $C freq_ghz
check_eq "each link PMU: its 9 figures" "9 9 9" \
	"$(for p in $A $B $C; do figures $p | wc -w; done | tr '\n' ' ' | sed 's/ $//')"

# ---- JSON on a Grace PMU ----
"$TOOL" --json -f scf -s 1 -I 100000 -- sh -c \
	"printf '%s\n' 'event=cmem_rd_data value=5000' 'event=cmem_rd_access value=10' \
	'event=cmem_rd_outstanding value=1230' 'event=cycles value=1000' \
	> $UNCORE_SIM/nvidia_scf_pmu_1/inject" > $OUT 2>/tmp/gmetrics.err
check_eq "--json: status" 0 $?
check_eq "--json: SCF counts of socket 1" \
	'"counts":{"cmem_rd_access":10,"cmem_rd_outstanding":1230,"remote_socket_rd_access":0,'\
'"remote_socket_rd_outstanding":0,"cycles":1000,"cmem_rd_data":5000,"cmem_wr_total_bytes":0,'\
'"remote_socket_rd_data":0,"remote_socket_wr_total_bytes":0}' \
	"$(grep -o '"counts":{[^}]*}' $OUT)"
check_eq "--json: latency figure" '"local_read_lat_cycles":123,' \
	"$(grep -o '"local_read_lat_cycles":[^,]*,' $OUT)"

# ---- the exporter daemon on the same traffic, every counter taken ----
exporter_run "printf '%s\n' 'event=cmem_rd_data value=5000' 'event=cmem_rd_access value=10' \
	'event=cmem_rd_outstanding value=1230' 'event=cmem_wr_total_bytes value=500000123' \
	> $UNCORE_SIM/nvidia_scf_pmu_1/inject" --family scf --socket 1 --counters all
check_eq "the exporter daemon: SIGTERM, exit 0, nothing on stderr" "0" "$?$(cat $EXPORTER_FILE.err)"
L='pmu="nvidia_scf_pmu_1",family="scf",socket="1",direction="read",destination="local"'
W='pmu="nvidia_scf_pmu_1",family="scf",socket="1",direction="write",destination="local"'
check_eq "the exporter daemon's file: SCF reads and writes in bytes, requests, outstanding" \
	"uncore_pmu_memory_bytes_total{$L} 160000
uncore_pmu_memory_bytes_total{$W} 500000123
uncore_pmu_memory_requests_total{$L} 10
uncore_pmu_memory_outstanding_request_cycles_total{$L} 1230" \
	"$(grep 'destination="local"' $EXPORTER_FILE)"

done_testing
