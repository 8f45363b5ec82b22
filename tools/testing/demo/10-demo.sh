#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo: background traffic on simulated PEM, CMEM and UCF devices,
# perf stat -I on it, and the figures an operator derives from the counts.

EV=/sys/bus/event_source/devices
P=mrvl_pcie_rc_pmu_1000000000
C=nvidia_cmem_latency_pmu_0
U=nvidia_ucf_pmu_0
secs=4

for p in $P $C $U; do
	if [ ! -d "$EV/$p" ] || [ ! -d "$UNCORE_SIM/$p" ]; then
		echo "not ok 1 - demo: $p or its simulated device is missing"
		exit 1
	fi
done

echo "== simulated devices ($UNCORE_SIM/devices)"
cat "$UNCORE_SIM/devices"
echo
echo "== PMUs registered"
ls $EV | grep -E '^(mrvl|nvidia)_' | tr '\n' ' '
echo
echo

# PEM: 2000 inbound reads/s, 25 outstanding on average; 10000 posted TLPs/s
# of 16 DWORDs. CMEM: 10000 reads/s with 40 cycles latency at 1 GHz. UCF:
# 64 MB/s of SLC reads from local CPUs to local CPU memory.
printf '%s\n' 'event=ib_reads value=2' 'event=ib_inflight value=50' \
	'event=ib_tlp_pr value=10' 'event=ib_tlp_dwords_pr value=160' 'per_sec=1000' \
	> "$UNCORE_SIM/$P/rate"
printf '%s\n' 'event=rd_req value=10 instance=3 mc=1' \
	'event=rd_cum_outs value=400 instance=3 mc=1' 'event=cycles value=1000000' \
	'per_sec=1000' > "$UNCORE_SIM/$C/rate"
printf '%s\n' 'event=slc_bytes_rd value=64000 src=loc_cpu dst=loc_cmem' \
	'event=slc_bytes_rd value=1000 src=rem dst=loc_cmem' 'per_sec=1000' \
	> "$UNCORE_SIM/$U/rate"

CG="{$C/rd_req/,$C/rd_cum_outs/,$C/cycles/}"
UE="$U/slc_bytes_rd,src_loc_cpu=0x1,dst_loc_cmem=0x1/"
echo "== perf stat -a -I 1000 for $secs s"
perf stat -a -I 1000 -e "$P/ib_reads/,$P/ib_inflight/,$P/ib_tlp_dwords_pr/" \
	-e "$CG" -e "$UE" -- sleep $secs 2>&1
echo

perf stat -a -x';' -e "$P/ib_reads/,$P/ib_inflight/,$P/ib_tlp_dwords_pr/" -e "$CG" -e "$UE" \
	-- sleep 2 2>/tmp/demo.csv
for p in $P $C $U; do
	echo > "$UNCORE_SIM/$p/rate"
done
awk -F';' '
	$3 ~ /ib_reads/ { r = $1 }
	$3 ~ /ib_inflight/ { f = $1 }
	$3 ~ /ib_tlp_dwords_pr/ { d = $1 }
	$3 ~ /cmem.*rd_req/ { cr = $1 }
	$3 ~ /cmem.*rd_cum_outs/ { co = $1 }
	$3 ~ /cmem.*cycles/ { cc = $1; ns = $4 }
	$3 ~ /ucf/ { ub = $1; uns = $4 }
	END {
		if (r == 0 || cr == 0 || ns == 0 || uns == 0) {
			print "not ok 1 - demo: nothing counted"
			exit 1
		}
		ghz = cc / ns
		print "== derived over 2 s"
		printf "PEM inbound reads/s          %12.0f\n", r / 2
		printf "PEM average inbound latency  %12.1f cycles (ib_inflight / ib_reads)\n",
			f / r
		printf "PEM inbound posted payload   %12.3f MB/s (ib_tlp_dwords_pr * 4 bytes)\n",
			d * 4 / 2 / 1e6
		printf "CMEM frequency               %12.3f GHz (cycles / elapsed ns)\n", ghz
		printf "CMEM average read latency    %12.1f cycles, %.1f ns %s\n",
			co / cr, co / cr / ghz, "(rd_cum_outs / rd_req)"
		printf "CMEM read bandwidth          %12.3f MB/s (rd_req * 32 bytes / elapsed)\n",
			cr * 32 / ns * 1000
		printf "UCF SLC reads, CPU to CMEM   %12.3f GB/s (slc_bytes_rd / elapsed ns)\n",
			ub / uns
		print "ok 1 - demo"
	}' /tmp/demo.csv
