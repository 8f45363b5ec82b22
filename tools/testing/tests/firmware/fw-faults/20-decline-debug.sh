#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: dynamic_debug
#
# Firmware faults (topology fw-faults): a CSPMU with an unknown PMIIDR is
# not an error, every CSPMU driver declines it with a debug message only.
# The layer's debug messages are on (append: uncore_cspmu.dyndbg=+p); a
# kernel without dynamic debug compiles them out, so vm-test.sh leaves this
# test out there. That the device stays unbound is 10-faults.sh's check.

. "$(dirname "$0")/lib/lib.sh"

log=$(dmesg)
for d in ucf pcie pcie_tgt; do
	m="arm-cs-arch-pmu.281: PMIIDR 0x12345678: not a product of nvidia_t410_${d}_pmu"
	if echo "$log" | grep -qF -- "$m"; then
		ok "unknown PMIIDR: nvidia_t410_${d}_pmu declines it (debug)"
	else
		not_ok "unknown PMIIDR: nvidia_t410_${d}_pmu declines it (debug)" "no log line: $m"
	fi
done

done_testing
