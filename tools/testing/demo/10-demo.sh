#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo: background traffic on simulated PEM, CMEM and UCF devices,
# perf stat -I on it, and the table an operator gets from the same
# counters with uncore-metrics (tools/uncore-metrics, in the guest's lib/
# as for the tests).

EV=/sys/bus/event_source/devices
TOOL=$(dirname "$0")/lib/uncore-metrics
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
if [ ! -x "$TOOL" ]; then
	echo "not ok 1 - demo: no $TOOL"
	exit 1
fi

echo "== simulated devices ($UNCORE_SIM/devices)"
cat "$UNCORE_SIM/devices"
echo
echo "== PMUs registered"
for d in "$EV"/mrvl_* "$EV"/nvidia_* "$EV"/tad; do
	[ -d "$d" ] && printf '%s ' "${d##*/}"
done
echo
echo

# PEM: 2000 inbound reads/s, 25 outstanding on average; 10000 posted TLPs/s
# of 16 DWORDs. CMEM: 10000 reads/s with 40 cycles latency at 1 GHz. UCF:
# 64 MB/s of SLC reads from local CPUs to local CPU memory, 1 MB/s from the
# other socket.
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

# The same traffic through the operator's tool: bandwidth, rates and
# latency per PMU, a table per interval (appended, not redrawn). Expected:
# PEM inbound 640 kB/s (10000 TLPs/s x 16 DWORDs x 4 bytes), 10 kTLP/s,
# 25 cycles; CMEM 320 kB/s (32 bytes a read), 40 ns; UCF SLC reads
# 65 MB/s (every source, as the tool sets no filter).
echo "== uncore-metrics -f pem,cmem,ucf -s 0 -n 3 --no-redraw"
"$TOOL" -f pem,cmem,ucf -s 0 -n 3 --no-redraw > /tmp/demo.table 2> /tmp/demo.err
st=$?
cat /tmp/demo.table /tmp/demo.err
for p in $P $C $U; do
	echo > "$UNCORE_SIM/$p/rate"
done
# every PMU of the traffic has a figure above zero in the last interval
miss=$(awk '/^# / { split("", seen) } $1 ~ /_[0-9a-f]+$/ {
		for (i = 2; i <= NF; i++) if ($i + 0 > 0) seen[$1] = 1 }
	END { n = split("pcie_rc_1000000000 cmem_latency_0 ucf_0", want, " ")
	      for (i = 1; i <= n; i++) if (!(want[i] in seen)) printf " %s", want[i] }' \
	/tmp/demo.table)
if [ $st != 0 ] || [ -n "$miss" ]; then
	echo "not ok 1 - demo: uncore-metrics exited with $st; nothing counted on:$miss"
	exit 1
fi
echo "ok 1 - demo"
