#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A CSPMU without a cycle counter (socket 1's UCF, PMCFGR.CC = 0): no
# cycles event in sysfs, and a raw config with bit 32, which PMEVTYPER
# (32 bits) cannot hold, is refused with EINVAL instead of counting the
# event of its low word; the other events count on all 8 counters.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_1
T=$(pmu_type $U)
# socket 1: its one associated CPU is CPU 2

check_eq "8 counters, no cycle counter (PMCFGR.CC = 0)" 0x3f07 \
	"$(awk '$1 == "page0:0xe00" { print $2 }' $UNCORE_SIM/$U/regs)"
check_fail "no cycles in events/" test -e $EV/$U/events/cycles
check_eq "errno: config 0x100000000 (cycles) without a cycle counter" "errno 22 EINVAL" \
	"$($PERF_OPEN -c 2 "$T" 0x100000000)"
check_eq "errno: config 0x100000113 (bit 32 and an event id)" "errno 22 EINVAL" \
	"$($PERF_OPEN -c 2 "$T" 0x100000113)"
check_eq "config 0x113 opens" ok "$($PERF_OPEN -c 2 "$T" 0x113)"
m=$(events_n 8 "$U/slc_bytes_rd/")
out=$(perf stat -a -x';' -e "{$m}" -- \
	sh -c "echo 'event=slc_bytes_rd value=4242' > $UNCORE_SIM/$U/inject" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s ", $1 }')
check_eq "a group of 8 events on the 8 counters" \
	"4242 4242 4242 4242 4242 4242 4242 4242 " "$out"

done_testing
