#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware dup-name: a second PCIE device of socket 0 also reports
# RC 0, so two devices ask for the PMU name nvidia_pcie_pmu_0_rc_0, as
# firmware may by mistake. The first registration wins; the helper
# layer refuses the second before sysfs sees it (no sysfs warning or stack
# dump), the probe fails with -EEXIST and one message, and nothing stays
# behind: the device is unbound, the PMU counts the first device only, and
# CPU hotplug and unloading and reloading stay safe.

. "$(dirname "$0")/lib/lib.sh"

MODDIR=${UNCORE_MODDIR:-/lib/modules-test}
DRV=/sys/bus/platform/drivers/uncore-cspmu
NAME=nvidia_pcie_pmu_0_rc_0
DUP=arm-cs-arch-pmu.99
MSG="$DUP: error -EEXIST: cannot register PMU $NAME"

bound() {
	ls "$DRV" 2>/dev/null | grep -c '^arm-cs-arch-pmu\.'
}

# kernel messages after the last "mark" written to /dev/kmsg
since_mark() {
	dmesg | sed -n '/dup-name: mark$/h; /dup-name: mark$/!H; ${x; p}'
}

# count EVENT: the count of $NAME/EVENT/ while both devices see traffic
count() {
	stat_count "$NAME/$1/" "echo 'event=$1 value=41' > $UNCORE_SIM/$NAME/inject;
		echo 'event=$1 value=7' > $UNCORE_SIM/dup_pcie_pmu_0_rc_0/inject"
}

check_eq "27 arm-cs-arch-pmu devices from the APMT" 27 \
	"$(ls -d /sys/bus/platform/devices/arm-cs-arch-pmu.* | wc -l)"
check_eq "the engine bound 26 devices" 26 "$(bound)"
check_eq "the duplicate ($DUP) is not bound" no \
	"$(test -e /sys/bus/platform/devices/$DUP/driver && echo yes || echo no)"
check_eq "12 PCIE PMUs" 12 "$(ls $EV | grep -c '^nvidia_pcie_pmu_')"
check_eq "one message: $MSG" 1 "$(dmesg | grep -c "$MSG")"
check_eq "no sysfs duplicate-name warning" 0 "$(dmesg | grep -c 'duplicate filename')"
check_eq "$NAME counts the first device only" 41 "$(count wr_req)"

echo "dup-name: mark" > /dev/kmsg
check_cmd "CPU 1 offline" sh -c 'echo 0 > /sys/devices/system/cpu/cpu1/online'
check_cmd "CPU 1 online" sh -c 'echo 1 > /sys/devices/system/cpu/cpu1/online'
check_eq "no oops or warning on hotplug" "" \
	"$(since_mark | grep -E 'BUG|Oops|WARNING|general protection')"
check_eq "$NAME still counts 41" 41 "$(count rd_req)"

echo "dup-name: mark" > /dev/kmsg
check_cmd "rmmod nvidia_t410_pcie_pmu" rmmod nvidia_t410_pcie_pmu
check_eq "unloaded: no PCIE PMU left" 0 "$(ls $EV | grep -c '^nvidia_pcie_pmu_')"
check_cmd "insmod nvidia_t410_pcie_pmu" insmod $MODDIR/nvidia_t410_pcie_pmu.ko
check_eq "reloaded: 26 devices bound" 26 "$(bound)"
check_eq "reloaded: the same one message" 1 "$(since_mark | grep -c "$MSG")"
check_eq "reloaded: no sysfs warning" 0 "$(since_mark | grep -c 'duplicate filename')"
check_eq "reloaded: no oops or warning" "" \
	"$(since_mark | grep -E 'BUG|Oops|WARNING|general protection')"
check_eq "reloaded: $NAME counts 41" 41 "$(count wr_req)"

done_testing
