#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: dynamic_debug
#
# Firmware faults (topology fw-faults): a CSPMU with an unknown PMIIDR is
# not an error, the CSPMU engine declines it with a debug message only and
# loads no module for it.
# The layer's debug messages are on (append: uncore_cspmu.dyndbg=+p); a
# kernel without dynamic debug compiles them out, so vm-test.sh leaves this
# test out there. That the device stays unbound is 10-faults.sh's check.

. "$(dirname "$0")/lib/lib.sh"

log=$(dmesg)
m="arm-cs-arch-pmu.281: PMIIDR 0x12345678: a product no module drives"
if echo "$log" | grep -qF -- "$m"; then
	ok "unknown PMIIDR: the engine declines it (debug)"
else
	not_ok "unknown PMIIDR: the engine declines it (debug)" "no log line: $m"
fi
check_eq "unknown PMIIDR: no module asked for" "" \
	"$(echo "$log" | grep -F 'arm-cs-arch-pmu.281: ' | grep -F 'waiting for')"

done_testing
