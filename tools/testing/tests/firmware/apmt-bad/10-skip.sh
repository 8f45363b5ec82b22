#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware apmt-bad: the APMT node of socket 1's UCF has type 7,
# which no kernel knows; socket 1's PCIE RC 5 is dual page without a page
# 1 base; RC 4's page 0 does not fit the address space. The helper layer
# skips each with a message naming it and makes every other node a
# device: socket 1's PCIE-TGT RC 3 repeats RC 2's id (skipped), RC 4 has
# its id 0x80000fff cut to 4095; the last node, an extra UCF's, claims 40
# bytes and ends the walk.

. "$(dirname "$0")/lib/lib.sh"

msg=$(dmesg | grep 'uncore_cspmu: APMT')
case "$msg" in
*"(id 256): unknown type 7, skipped"*)
	ok "the bad node is reported by index, id and reason" ;;
*)
	not_ok "the bad node is reported" "$msg" ;;
esac
for want in "no page 1 base address (dual page), skipped" \
	    "page 0 base address 0xfffffffffffff800 out of range, skipped" \
	    "(id 2147487743): id truncated to 4095 for the device" \
	    "(id 290): duplicate id, arm-cs-arch-pmu.290 exists already, skipped" \
	    "APMT node 26 at offset 1492: length 40 is below 56, ignoring the rest of the table"; do
	check_eq "reported: ...$want" 1 "$(echo "$msg" | grep -cF "$want")"
done
check_eq "one summary line: 22 of the 26 nodes before the short one" 1 \
	"$(echo "$msg" | grep -c 'APMT: 22 of 26 nodes became arm-cs-arch-pmu devices')"
check_eq "no device for the bad node" no \
	"$([ -e /sys/bus/platform/devices/arm-cs-arch-pmu.256 ] && echo yes || echo no)"
check_eq "22 devices" 22 "$(ls -d /sys/bus/platform/devices/arm-cs-arch-pmu.* | wc -l)"
check_eq "the device of the long id" yes \
	"$([ -e /sys/bus/platform/devices/arm-cs-arch-pmu.4095 ] && echo yes || echo no)"
for p in nvidia_ucf_pmu_1 nvidia_pcie_pmu_1_rc_5 nvidia_pcie_pmu_1_rc_4 \
	 nvidia_pcie_tgt_pmu_1_rc_3 nvidia_ucf_pmu_9; do
	check_eq "no PMU $p" no "$([ -e $EV/$p ] && echo yes || echo no)"
done
for p in nvidia_ucf_pmu_0 nvidia_pcie_pmu_1_rc_3 nvidia_pcie_tgt_pmu_1_rc_2 \
	 nvidia_pcie_tgt_pmu_1_rc_4 nvidia_pcie_tgt_pmu_1_rc_5; do
	check_eq "$p is there" yes "$([ -e $EV/$p ] && echo yes || echo no)"
done
check_eq "the PMU of the long id counts exactly" 1234567 \
	"$(stat_count nvidia_pcie_tgt_pmu_1_rc_4/cycles/ \
	   "echo 'event=cycles value=1234567' > $UNCORE_SIM/nvidia_pcie_tgt_pmu_1_rc_4/inject")"

done_testing
