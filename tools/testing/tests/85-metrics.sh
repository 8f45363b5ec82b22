#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arch-neutral: the tool is awk over perf's output, the same on both guests
# release: uncore-metrics parses the output of the perf it runs with
#
# tools/uncore-metrics/uncore-metrics in the guest, against the simulator:
# known traffic is injected while the tool's perf counts one interval, and
# every figure is compared with the value computed here from the injected
# amounts and the interval length perf itself printed (read from the raw
# output the tool records). Then JSON output, a run of several intervals
# and the error for a family whose module is not loaded.

. "$(dirname "$0")/lib/lib.sh"

TOOL=$METRICS_TOOL
MODDIR=${UNCORE_MODDIR:-/lib/modules-test}
OUT=$METRICS_OUT
RAW=$METRICS_RAW

# near DESC EXPECTED PMU METRIC: the figure equals EXPECTED, an awk
# expression, within 1e-6 relative (the tool prints 9 digits)
near() {
	got=$(fig "$3" "$4")
	want=$(awk "BEGIN { printf \"%.9g\", $2 }")
	if awk -v g="$got" -v w="$want" 'BEGIN {
		d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w
		exit !(g != "" && d <= 1e-6 * a + 1e-12) }'; then
		ok "$1"
	else
		not_ok "$1" "$3 $4: expected $want ($2), got '$got'" "$(cat $OUT)"
	fi
}

check_eq "tool present in the guest" yes "$([ -x "$TOOL" ] && echo yes)"

# ---- UCF: bandwidth, request rate, frequency on socket 0 ----
U=nvidia_ucf_pmu_0
measure "printf '%s\n' 'event=slc_bytes_rd value=4096000' 'event=slc_bytes_wr value=1024000' \
	'event=mem_bytes_rd value=3000000 src=rem dst=loc_gmem' 'event=mem_bytes_wr value=500000' \
	'event=slc_access_rd value=1000' 'event=mem_access_wr value=250 src=loc_noncpu' \
	'event=cycles value=5000000' > $UNCORE_SIM/$U/inject
	echo 'event=slc_bytes_rd value=77' > $UNCORE_SIM/nvidia_ucf_pmu_1/inject" -f ucf -s 0
near "UCF SLC read bandwidth = slc_bytes_rd / ns" "4096000 / $NS" $U slc_read_bw_gbps
near "UCF SLC write bandwidth" "1024000 / $NS" $U slc_write_bw_gbps
near "UCF memory read bandwidth (all sources and destinations)" "3000000 / $NS" \
	$U mem_read_bw_gbps
near "UCF memory write bandwidth" "500000 / $NS" $U mem_write_bw_gbps
near "UCF SLC read request rate = slc_access_rd / cycles" "1000 / 5000000" \
	$U slc_read_req_per_cycle
near "UCF memory write request rate" "250 / 5000000" $U mem_write_req_per_cycle
near "UCF SLC write request rate with no requests" 0 $U slc_write_req_per_cycle
near "UCF frequency = cycles / ns" "5000000 / $NS" $U freq_ghz
check_eq "UCF: --socket 0 leaves out socket 1" 0 "$(grep -c nvidia_ucf_pmu_1 $OUT)"
check_eq "UCF: 9 figures" 9 "$(grep -c "^[^,]*,[^,]*,$U," $OUT)"

# ---- PCIE: bandwidth, latency, frequency on socket 0 rc 1 ----
P=nvidia_pcie_pmu_0_rc_1
measure "printf '%s\n' 'event=rd_bytes value=8192000 rp=3' 'event=wr_bytes value=2048' \
	'event=rd_req value=100' 'event=wr_req value=7 dst=rem' 'event=rd_cum_outs value=25000' \
	'event=cycles value=2000000' > $UNCORE_SIM/$P/inject" -f pcie -s 0
near "PCIE read bandwidth = rd_bytes / ns" "8192000 / $NS" $P read_bw_gbps
near "PCIE write bandwidth" "2048 / $NS" $P write_bw_gbps
near "PCIE write request rate = wr_req / cycles" "7 / 2000000" $P write_req_per_cycle
near "PCIE read latency in cycles = rd_cum_outs / rd_req" 250 $P read_lat_cycles
near "PCIE read latency in ns = cycles / (cycles / ns)" "250 / (2000000 / $NS)" \
	$P read_lat_ns
near "PCIE frequency" "2000000 / $NS" $P freq_ghz
check_eq "PCIE rc 0 without reads: latency undefined" "" \
	"$(fig nvidia_pcie_pmu_0_rc_0 read_lat_cycles)"
check_eq "PCIE: all six RCs of socket 0" 6 \
	"$(awk -F, '$6 == "freq_ghz" && $3 ~ /^nvidia_pcie_pmu_0_rc_/' $OUT | wc -l)"

# ---- PCIE-TGT: bandwidth ----
T=nvidia_pcie_tgt_pmu_1_rc_2
measure "printf '%s\n' 'event=rd_bytes value=640000 rp=5' 'event=wr_bytes value=64 rp=1' \
	'event=cycles value=1000' > $UNCORE_SIM/$T/inject" -f pcie-tgt -s 1
near "PCIE-TGT read bandwidth to BARs" "640000 / $NS" $T read_bw_gbps
near "PCIE-TGT write bandwidth" "64 / $NS" $T write_bw_gbps
check_eq "PCIE-TGT has no latency figure" "" "$(grep lat $OUT)"

# ---- CMEM: latency in cycles and ns, bandwidth ----
C=nvidia_cmem_latency_pmu_0
measure "printf '%s\n' 'event=rd_req value=1000 instance=1 mc=0' \
	'event=rd_req value=600 instance=9 mc=2' 'event=rd_cum_outs value=24000 instance=1' \
	'event=rd_cum_outs value=40000 instance=13 mc=1' 'event=cycles value=3000000' \
	> $UNCORE_SIM/$C/inject" -f cmem
near "CMEM latency in cycles = rd_cum_outs / rd_req" "64000 / 1600" $C read_lat_cycles
near "CMEM latency in ns = latency / (cycles / ns)" "40 / (3000000 / $NS)" $C read_lat_ns
near "CMEM frequency" "3000000 / $NS" $C freq_ghz
near "CMEM bandwidth = rd_req * 32 / ns" "1600 * 32 / $NS" $C read_bw_gbps
check_eq "CMEM socket 1 without traffic: latency undefined" "" \
	"$(fig nvidia_cmem_latency_pmu_1 read_lat_ns)"

# ---- C2C: NVLink-C2C to two GPUs, NV-CLink to a SoC, NV-DLink ----
L=nvidia_nvlink_c2c_pmu_0
K=nvidia_nvclink_pmu_0
D=nvidia_nvdlink_pmu_0
measure "printf '%s\n' 'event=in_rd_req value=6 instance=2' 'event=in_rd_req value=4 instance=12' \
	'event=in_rd_cum_outs value=3000 instance=5' 'event=out_wr_req value=4 instance=9' \
	'event=out_wr_cum_outs value=80 instance=0' 'event=cycles value=1000000' \
	> $UNCORE_SIM/$L/inject
	printf '%s\n' 'event=out_rd_req value=3 instance=11' 'event=out_rd_cum_outs value=1500' \
	'event=cycles value=2500000' > $UNCORE_SIM/$K/inject
	printf '%s\n' 'event=in_rd_req value=5 instance=15' 'event=in_rd_cum_outs value=500' \
	'event=cycles value=4000000' > $UNCORE_SIM/$D/inject" -f c2c,nvclink,nvdlink -s 0
near "NVLink-C2C incoming read latency, both GPUs" "3000 / 10" $L in_rd_lat_cycles
near "NVLink-C2C incoming read latency in ns" "300 / (1000000 / $NS)" $L in_rd_lat_ns
near "NVLink-C2C outgoing write latency" "80 / 4" $L out_wr_lat_cycles
near "NVLink-C2C outgoing write latency in ns" "20 / (1000000 / $NS)" $L out_wr_lat_ns
check_eq "NVLink-C2C incoming writes without requests: undefined" "" \
	"$(fig $L in_wr_lat_cycles)"
near "NVLink-C2C frequency" "1000000 / $NS" $L freq_ghz
near "NV-CLink outgoing read latency" "1500 / 3" $K out_rd_lat_cycles
near "NV-CLink outgoing read latency in ns" "500 / (2500000 / $NS)" $K out_rd_lat_ns
check_eq "NV-CLink to a SoC: read figures only" "in_rd out_rd" \
	"$(awk -F, -v p=$K '$3 == p && sub(/_lat_cycles$/, "", $6) { print $6 }' $OUT |
		tr '\n' ' ' | sed 's/ $//')"
near "NV-DLink CXL read latency" "500 / 5" $D in_rd_lat_cycles
near "NV-DLink CXL read latency in ns" "100 / (4000000 / $NS)" $D in_rd_lat_ns
near "NV-DLink frequency" "4000000 / $NS" $D freq_ghz

# ---- PEM ----
M=mrvl_pcie_rc_pmu_1000000000
measure "printf '%s\n' 'event=ib_tlp_dwords_pr value=1600' \
	'event=ib_tlp_dwords_cpl_partid value=400' 'event=ib_tlp_pr value=100' \
	'event=ib_tlp_cpl_partid value=50' 'event=ib_tlp_npr value=25' \
	'event=ib_inflight value=5000' 'event=ib_reads value=200' \
	'event=ob_tlp_dwords_npr_partid value=8' 'event=ob_tlp_npr_partid value=2' \
	> $UNCORE_SIM/$M/inject" -f pem
near "PEM inbound bandwidth = payload DWORDs * 4 / ns" "2000 * 4 / $NS" $M ib_bw_gbps
near "PEM outbound bandwidth" "8 * 4 / $NS" $M ob_bw_gbps
near "PEM inbound TLPs per second" "175 * 1e9 / $NS" $M ib_tlp_per_sec
near "PEM inbound read latency = ib_inflight / ib_reads" 25 $M ib_read_lat_cycles
check_eq "PEM outbound latency without reads: undefined" "" "$(fig $M ob_read_lat_cycles)"
near "second PEM without traffic" 0 mrvl_pcie_rc_pmu_1000100000 ib_bw_gbps

# ---- JSON ----
"$TOOL" --json -f cmem -s 0 -I 100000 --record $RAW -- \
	sh -c "printf '%s\n' 'event=rd_req value=50' 'event=rd_cum_outs value=1500' \
	'event=cycles value=1000000' > $UNCORE_SIM/$C/inject" > $OUT 2>/tmp/metrics.err
check_eq "--json: status" 0 $?
NS=$(awk -F, '{ sub(/^ +/, "", $1); printf "%.0f", $1 * 1e9; exit }' $RAW)
check_eq "--json: one document, one interval, one PMU" \
	"{\"intervals\":[ {\"time\":$(awk -F, '{ sub(/^ +/, "", $1); print $1; exit }' $RAW),\
\"interval_ns\":$NS,\"pmus\":[{\"pmu\":\"$C\",\"family\":\"cmem\",\"socket\":0,\
\"counts\":{\"rd_req\":50,\"rd_cum_outs\":1500,\"cycles\":1000000},\"metrics\":{" \
	"$(tr '\n' ' ' < $OUT | sed 's/\"metrics\":{.*/"metrics":{/')"
check_eq "--json: latency figure and the closing" '"read_lat_cycles":30,' \
	"$(grep -o '"read_lat_cycles":[^,]*,' $OUT)"
check_eq "--json: document closed" ']}' "$(tail -n 1 $OUT)"

# ---- several intervals without a command ----
"$TOOL" --csv -f nvdlink -s 1 -I 300 -n 3 > $OUT 2>/tmp/metrics.err
check_eq "-n 3: status" 0 $?
check_eq "-n 3: three intervals" 3 "$(awk -F, 'NR > 1 { print $1 }' $OUT | uniq | wc -l)"
check_eq "-n 3: no traffic, latency undefined" ",,,"  \
	"$(awk -F, '$6 == "in_rd_lat_cycles" { printf ",%s", $7 }' $OUT)"
"$TOOL" -f nvdlink -s 1 -I 200 -n 1 > $OUT 2>/tmp/metrics.err
check_eq "table: family, unit and PMU lines" "nvdlink|ns|nvdlink_1" \
	"$(sed -n 3,5p $OUT | awk '{ printf "%s%s", s, $1; s = "|" }')"
"$TOOL" --long -f nvdlink -s 1 -I 200 -n 1 > $OUT 2>/tmp/metrics.err
check_eq "--long: header line" "PMU METRIC VALUE UNIT" \
	"$(sed -n 2p $OUT | tr -s ' ')"

# ---- a family whose module is not loaded ----
check_cmd "rmmod marvell_pem_pmu" rmmod marvell_pem_pmu
"$TOOL" -f pem -n 1 > $OUT 2>/tmp/metrics.err
st=$?
check_eq "absent family: status 1 and one line" "1 1" "$st $(wc -l < /tmp/metrics.err)"
check_eq "absent family: the message" "uncore-metrics: no pem PMU (mrvl_pcie_rc_pmu_*) in \
/sys/bus/event_source/devices; is the marvell_pem_pmu module loaded?" "$(cat /tmp/metrics.err)"
check_eq "absent family: nothing on stdout" "" "$(cat $OUT)"
check_cmd "insmod marvell_pem_pmu again" insmod "$MODDIR/marvell_pem_pmu.ko"
check_eq "PEM PMUs back" 2 "$(ls $EV | grep -c mrvl_pcie_rc_pmu)"

done_testing
