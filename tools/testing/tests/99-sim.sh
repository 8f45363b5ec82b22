#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The simulator's own control contract that every later test relies on: a
# background rate runs until it is stopped, by an empty write or by an open
# that truncates the file (the shell's "> rate" with nothing written), and
# the busy file names what would still change counters. The harness reads
# busy after every test and fails the test that left something running.
# Last of the built-in tests: its perf run programs the UCF cycle filter,
# whose reset value sim/tests/05-firmware.sh checks.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_0
C=nvidia_cmem_latency_pmu_0
R="event=cycles value=1 per_sec=100"

check_eq "busy: nothing running at the start" "" "$(cat $UNCORE_SIM/busy)"

echo "$R" > $UNCORE_SIM/$U/rate
echo 'event=rd_req value=1 instance=0 mc=0 per_sec=100' > $UNCORE_SIM/$C/rate
check_eq "rate: reads back what was written" "$R" "$(cat $UNCORE_SIM/$U/rate)"
check_eq "busy: names both running rates" "$C rate $U rate" \
	"$(sort $UNCORE_SIM/busy | tr '\n' ' ' | sed 's/ $//')"

echo > $UNCORE_SIM/$U/rate
check_eq "rate: an empty write stops it" "" "$(cat $UNCORE_SIM/$U/rate)"
check_eq "busy: only the rate still running" "$C rate" "$(cat $UNCORE_SIM/busy)"

: > $UNCORE_SIM/$C/rate
check_eq "rate: an open that truncates stops it" "" "$(cat $UNCORE_SIM/$C/rate)"
check_eq "busy: nothing running after both stopped" "" "$(cat $UNCORE_SIM/busy)"

# reading the file (an open without O_TRUNC) leaves a rate running
echo "$R" > $UNCORE_SIM/$U/rate
cat $UNCORE_SIM/$U/rate >/dev/null
check_eq "rate: reading leaves it running" "$U rate" "$(cat $UNCORE_SIM/busy)"
echo > $UNCORE_SIM/$U/rate

# inject_on_read: a line armed on one register, applied once right after
# the driver's next read of it; busy names it while it is armed
O=$UNCORE_SIM/$U/inject_on_read
for w in 'page7:0x0 event=cycles' 'page0:0x2 event=cycles' 'page0:0x1000 event=cycles' \
	 'page0:0xf8 event=bogus' 'page0:0xf8' 'page0 event=cycles' \
	 'page0:0xf8 times=0 event=cycles' 'page0:0xf8 times=65 event=cycles' \
	 'page0:0xf8 times=2' 'page0:0xf8 times=x event=cycles'; do
	check_fail "inject_on_read: '$w' refused" sh -c "echo '$w' > $O"
done
L='page0:0xf8 event=cycles value=1000'
echo "$L" > $O
check_eq "inject_on_read: reads back while armed" "$L" "$(cat $O)"
check_eq "busy: names the armed injection" "$U inject_on_read" "$(cat $UNCORE_SIM/busy)"
echo > $O
check_eq "inject_on_read: an empty write disarms" "" "$(cat $O)$(cat $UNCORE_SIM/busy)"
echo 'page0:0xf8 times=64 event=cycles value=1' > $O
check_eq "inject_on_read: times= reads back with the reads to come" \
	"page0:0xf8 times=64 event=cycles value=1 (64 to come)" "$(cat $O)"
echo > $O
# armed on the cycle counter (page 0, 0xf8): the driver reads it once, at
# the end of the count, after stopping it; the read returns the value
# before the armed traffic, which then reaches no counting counter
echo "$L" > $O
c=$(stat_count "$U/cycles/" "echo 'event=cycles value=5' > $UNCORE_SIM/$U/inject")
check_eq "inject_on_read: fired on the driver's read, after its value" "5 fired" \
	"$c $([ -z "$(cat $O)" ] && echo fired)"
check_eq "busy: nothing armed once it fired" "" "$(cat $UNCORE_SIM/busy)"

# the traffic itself: counted while the rate runs, none once a truncating
# open stopped it
count() {
	perf stat -a -x';' -e $U/cycles/ -- sleep 0.3 2>&1 >/dev/null |
		awk -F';' '{ print $1 }'
}
echo "$R" > $UNCORE_SIM/$U/rate
n=$(count)
case $n in
''|*[!0-9]*|0) not_ok "rate: cycles counted while it runs" "got: '$n'" ;;
*) ok "rate: cycles counted while it runs" ;;
esac
: > $UNCORE_SIM/$U/rate
check_eq "rate: no cycles counted once a truncating open stopped it" 0 "$(count)"

done_testing
