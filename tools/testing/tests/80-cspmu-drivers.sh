#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The three CSPMU drivers side by side: the APMT devices the helper layer
# made, each bound by the one driver whose product it is (never by the
# Grace or the generic NVIDIA driver, also loaded), interrupts on the PMUs'
# CPUs, and unloading and reloading the drivers in any order.

. "$(dirname "$0")/lib/lib.sh"

MODDIR=${UNCORE_MODDIR:-/lib/modules-test}
DRV=/sys/bus/platform/drivers

check_eq "26 arm-cs-arch-pmu devices from the APMT" 26 \
	"$(ls -d /sys/bus/platform/devices/arm-cs-arch-pmu.* | wc -l)"
# Per device: the firmware resource and the driver's request in it; plus
# the PCIE-TGT address-filter blocks, requested in the device's name too.
check_eq "their windows are claimed: 2 x 26 + 12 filter blocks" 64 \
	"$(grep -c ' : arm-cs-arch-pmu\.' /proc/iomem)"

bound() {
	ls "$DRV/$1" 2>/dev/null | grep -c '^arm-cs-arch-pmu\.'
}

check_bindings() {
	check_eq "$1: UCF driver bound 2 devices" 2 "$(bound nvidia-t410-ucf-pmu)"
	check_eq "$1: PCIE driver bound 12 devices" 12 "$(bound nvidia-t410-pcie-pmu)"
	check_eq "$1: PCIE-TGT driver bound 12 devices" 12 "$(bound nvidia-t410-pcie-tgt-pmu)"
	check_eq "$1: Grace and generic drivers bound none" "0 0" \
		"$(bound nvidia-t241-pmu) $(bound nvidia-generic-pmu)"
	check_eq "$1: 26 CSPMU PMUs" 26 \
		"$(ls $EV | grep -cE '^nvidia_(ucf|pcie|pcie_tgt)_pmu_')"
}

counts() {
	for spec in "nvidia_ucf_pmu_1 slc_access_rd" "nvidia_pcie_pmu_1_rc_5 wr_req" \
		    "nvidia_pcie_tgt_pmu_0_rc_2 rd_req"; do
		set -- $spec
		c=$(stat_count "$1/$2/" "echo 'event=$2 value=41' > $UNCORE_SIM/$1/inject")
		[ "$c" = 41 ] || echo "$1=$c"
	done
}

check_bindings "all three loaded"
bad=""
for d in $(ls -d /sys/bus/platform/devices/arm-cs-arch-pmu.*); do
	irq=$(awk -v d="${d##*/}" '$NF == d { sub(":", "", $1); print $1 }' /proc/interrupts)
	[ -n "$irq" ] || { bad="$bad ${d##*/}:noirq"; continue; }
	aff=$(cat /proc/irq/$irq/effective_affinity_list)
	case "$aff" in
	0 | 2) ;;
	*) bad="$bad ${d##*/}:affinity=$aff" ;;
	esac
done
check_eq "every device has its overflow IRQ on socket's first CPU" "" "$bad"

for order in "pcie tgt ucf" "ucf pcie tgt" "tgt ucf pcie"; do
	for m in $order; do
		case $m in
		ucf) rmmod nvidia_t410_ucf_pmu ;;
		pcie) rmmod nvidia_t410_pcie_pmu ;;
		tgt) rmmod nvidia_t410_pcie_tgt_pmu ;;
		esac
	done
	check_eq "unloaded ($order): no CSPMU PMU left" 0 \
		"$(ls $EV | grep -cE '^nvidia_(ucf|pcie|pcie_tgt)_pmu_')"
	check_eq "unloaded ($order): devices stay" 26 \
		"$(ls -d /sys/bus/platform/devices/arm-cs-arch-pmu.* | wc -l)"
	# Offered to every driver left, Grace's (Grace PCIE differs from
	# Tegra410's only in the PMIIDR revision) and the generic NVIDIA
	# one, no Tegra410 device is taken.
	for d in /sys/bus/platform/devices/arm-cs-arch-pmu.*; do
		echo "${d##*/}" > /sys/bus/platform/drivers_probe
	done
	check_eq "unloaded ($order): no other driver takes a device" "0 0 0" \
		"$(bound nvidia-t241-pmu) $(bound nvidia-generic-pmu) \
$(ls $EV | grep -cE '^nvidia_(ucf|pcie|pcie_tgt|scf|nvlink_c2c[01]|cnvlink|uncore)_pmu_')"
	for m in $order; do
		case $m in
		ucf) insmod $MODDIR/nvidia_t410_ucf_pmu.ko ;;
		pcie) insmod $MODDIR/nvidia_t410_pcie_pmu.ko ;;
		tgt) insmod $MODDIR/nvidia_t410_pcie_tgt_pmu.ko ;;
		esac
	done
	check_bindings "reloaded ($order)"
	check_eq "reloaded ($order): counts exact" "" "$(counts)"
done

done_testing
