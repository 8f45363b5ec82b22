#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo: background traffic on the simulated PEMs, perf stat -I on it,
# and the figures an operator derives from the counts.

P=mrvl_pcie_rc_pmu_1000000000
S=$UNCORE_SIM/$P
secs=4

if [ ! -d "/sys/bus/event_source/devices/$P" ] || [ ! -d "$S" ]; then
	echo "not ok 1 - demo: $P or its simulated device is missing"
	exit 1
fi

echo "== simulated devices ($UNCORE_SIM/devices)"
cat "$UNCORE_SIM/devices"
echo
echo "== PMUs registered"
ls /sys/bus/event_source/devices | grep -E '^(mrvl|nvidia)_'
echo

# 2000 inbound reads/s with 25 outstanding on average (50000 inflight/s),
# and 10000 posted TLPs/s of 16 DWORDs each (640000 bytes/s).
printf '%s\n' 'event=ib_reads value=2' 'event=ib_inflight value=50' \
	'event=ib_tlp_pr value=10' 'event=ib_tlp_dwords_pr value=160' 'per_sec=1000' > "$S/rate"

echo "== perf stat -a -I 1000 on $P for $secs s"
perf stat -a -I 1000 -e "$P/ib_reads/,$P/ib_inflight/,$P/ib_tlp_pr/,$P/ib_tlp_dwords_pr/" \
	-- sleep $secs 2>&1
echo

perf stat -a -x';' -e "$P/ib_reads/,$P/ib_inflight/,$P/ib_tlp_dwords_pr/" -- sleep 2 \
	2>/tmp/demo.csv
echo > "$S/rate"
awk -F';' '
	$3 ~ /ib_reads/ { r = $1 }
	$3 ~ /ib_inflight/ { f = $1 }
	$3 ~ /ib_tlp_dwords_pr/ { d = $1 }
	END {
		if (r == 0) {
			print "not ok 1 - demo: no reads counted"
			exit 1
		}
		print "== derived over 2 s"
		printf "inbound reads/s            %12.0f\n", r / 2
		printf "average inbound latency    %12.1f cycles (ib_inflight / ib_reads)\n", f / r
		printf "inbound posted payload     %12.3f MB/s (ib_tlp_dwords_pr * 4 bytes)\n",
			d * 4 / 2 / 1e6
		print "ok 1 - demo"
	}' /tmp/demo.csv
