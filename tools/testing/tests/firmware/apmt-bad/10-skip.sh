#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware apmt-bad: the APMT node of socket 1's UCF has type 7,
# which no kernel knows. The helper layer skips that node with a message
# naming it and makes every other node a device.

. "$(dirname "$0")/lib/lib.sh"

msg=$(dmesg | grep 'uncore_cspmu: APMT')
case "$msg" in
*"(id 256): unknown type 7, skipped"*)
	ok "the bad node is reported by index, id and reason" ;;
*)
	not_ok "the bad node is reported" "$msg" ;;
esac
check_eq "one summary line: 25 of 26 nodes" 1 \
	"$(echo "$msg" | grep -c 'APMT: 25 of 26 nodes became arm-cs-arch-pmu devices')"
check_eq "no device for the bad node" no \
	"$([ -e /sys/bus/platform/devices/arm-cs-arch-pmu.256 ] && echo yes || echo no)"
check_eq "25 devices" 25 "$(ls -d /sys/bus/platform/devices/arm-cs-arch-pmu.* | wc -l)"
check_eq "no PMU for it" no "$([ -e $EV/nvidia_ucf_pmu_1 ] && echo yes || echo no)"
check_eq "socket 0's UCF is there" yes "$([ -e $EV/nvidia_ucf_pmu_0 ] && echo yes || echo no)"

done_testing
