#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware faults (topology fw-faults): each malformed device fails its
# probe with one clear message and errno, registers nothing, keeps nothing
# claimed, and the default machine beside it works as before. (A PMIIDR
# that no module drives is not an error: 20-decline-debug.sh.)

. "$(dirname "$0")/lib/lib.sh"

log=$(dmesg)
# expect_log DESC TEXT: the kernel log holds TEXT (a whole message)
expect_log() {
	if echo "$log" | grep -qF -- "$2"; then
		ok "$1"
	else
		not_ok "$1" "no log line: $2"
	fi
}

C=nvidia-t410-cmem-latency-pmu
L=nvidia-t410-c2c-pmu
expect_log "CMEM without _UID: ENODEV" \
	"$C NVDA2021:02: error -ENODEV: firmware gives no _UID"
expect_log "CMEM with 14 of 15 windows: ENXIO" \
	"$C NVDA2021:03: error -ENXIO: no MEM resource 14"
expect_log "NV-CLink with a non-numeric _UID: EINVAL" \
	"$L NVDA2022:02: error -EINVAL: _UID \"sock1\" is not a socket number"
expect_log "NV-DLink with short windows: EINVAL" \
	"$L NVDA2020:02: error -EINVAL: MEM resource 0 is 0x800 bytes, registers need 0x8b8"
masks="cpu_en_mask, gpu0_en_mask, gpu1_en_mask"
expect_log "NVLink-C2C with no _DSD mask: EINVAL" \
	"$L NVDA2023:02: error -EINVAL: firmware enables no instance ($masks)"
expect_log "PEM with a short window: EINVAL" \
	"pem-pmu MRVL000E:03: error -EINVAL: MEM resource 0 is 0x1000 bytes, registers need 0x2d48"
expect_log "PEM overlapping another: the kernel refuses the device (EBUSY)" \
	"acpi MRVL000E:02: platform device creation failed: -16"
expect_log "UCF whose APMT node matches no CPU: ENODEV" \
	"uncore-cspmu arm-cs-arch-pmu.496: error -ENODEV: no CPU matches APMT affinity 99"
expect_log "PCIE whose APMT node names no ACPI device: ENODEV" \
	"uncore-cspmu arm-cs-arch-pmu.282: error -ENODEV: APMT node 282 names no ACPI device"

# Nothing bound, nothing registered for the faulty devices.
for d in NVDA2021:02 NVDA2021:03 NVDA2022:02 NVDA2020:02 NVDA2023:02 MRVL000E:03 \
	 arm-cs-arch-pmu.496 arm-cs-arch-pmu.281 arm-cs-arch-pmu.282; do
	check_eq "$d: no driver bound" no \
		"$([ -e /sys/bus/platform/devices/$d/driver ] && echo yes || echo no)"
	# A failed probe releases what it requested: at most the resource
	# entries the platform device itself carries remain, never a nested
	# request of the same name.
	check_eq "$d: no region left requested" 0 \
		"$(grep -cE "^ +[0-9a-f]+-[0-9a-f]+ : $d" /proc/iomem)"
done
check_eq "exactly the default machine's 36 PMUs" 36 "$(our_pmus | wc -l)"
check_eq "none registered for RC 9 or 10" "" "$(our_pmus | grep -E '_rc_(9|10)$')"

# The default machine beside them is unaffected.
check_eq "every PMU counts exactly" "" "$(count_every_pmu 4242424242)"

# Unloading leaves no reference behind: the simulator's module goes too.
for m in nvidia_t410_pcie_tgt_pmu nvidia_t410_pcie_pmu nvidia_t410_ucf_pmu \
	 nvidia_t410_c2c_pmu nvidia_t410_cmem_latency_pmu marvell_pem_pmu uncore_sim; do
	check_cmd "rmmod $m" rmmod $m
done
check_eq "no region of ours left in /proc/iomem" "" \
	"$(grep -E ' : (NVDA20|MRVL000E|arm-cs-arch-pmu).* (NVDA20|MRVL000E|arm-cs-arch-pmu)' \
		/proc/iomem)"

done_testing
