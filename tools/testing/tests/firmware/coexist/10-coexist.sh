#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware coexist, on vm/kernel-64k.sh's kernel (make check-64k), which
# builds the kernel's own drivers of our devices as modules: the guest has
# them, Debian 12's kmod and our modprobe.d file. The harness loaded the
# helper layer and the simulator only; the devices exist, no driver of
# them is loaded. As on a server at its first boot after the install:
#
#   1. our modules go under updates/dkms/ as DKMS puts them, the
#      kernel's under kernel/, the modprobe.d file under /lib/modprobe.d,
#      depmod indexes them; then every device's modalias is loaded with
#      modprobe -b, as udev's coldplug does (a stand-in for udev: this
#      guest has none). Each device of ours must be bound to our driver,
#      the CoreSight PMU of another implementer to the kernel's
#      arm_cspmu, and each of them counts exactly;
#   2. our package goes (its modules, the modprobe.d file; the helper
#      layer stays, as the simulator needs it), every driver is unloaded
#      as a reboot would, and the coldplug runs again: the kernel's own
#      drivers bind every device and count exactly.

. "$(dirname "$0")/lib/lib.sh"

KM=/usr/local/sbin
MOD=/lib/modules/$(uname -r)
CONF=/lib/modprobe.d/uncore-pmu.conf
UCF=nvidia_ucf_pmu_0
ARM=arm_cspmu_mc_119
DDR=mrvl_ddr_pmu_70200000
PEM=mrvl_pcie_rc_pmu_70100000
CMEM=nvidia_cmem_latency_pmu_0
PD=/sys/bus/platform/devices

# the devices: platform device, what binds it with ours installed (our
# module, or the kernel's), what binds it without ours
DEVS="arm-cs-arch-pmu.16 uncore_cspmu arm_cspmu_module
arm-cs-arch-pmu.119 arm_cspmu_module arm_cspmu_module
MRVL000E:00 marvell_pem_pmu marvell_pem_pmu
MRVL000C:00 marvell_odyssey_ddr_pmu marvell_cn10k_ddr_pmu
MRVL000D:00 marvell_odyssey_tad_pmu marvell_cn10k_tad_pmu
NVDA2021:00 nvidia_t410_cmem_latency_pmu nvidia_t410_cmem_latency_pmu"

# bound DEV: the module of the driver bound to DEV, "-" if none, with
# "(ours)" where the module carries our version (the kernel's copies of
# the same name carry none)
bound() {
	m=$(readlink "$PD/$1/driver/module" 2>/dev/null) || { echo -; return; }
	m=${m##*/}
	if [ -f "/sys/module/$m/version" ]; then
		echo "$m(ours)"
	else
		echo "$m"
	fi
}

# all_bound: bound of each device of DEVS, on one line
all_bound() {
	for d in $(echo "$DEVS" | awk '{ print $1 }'); do
		bound "$d"
	done | xargs
}

# coldplug: what udev does for each device when it starts (the stand-in)
coldplug() {
	for a in "$PD"/*/modalias; do
		"$KM/modprobe" -q -b "$(cat "$a")" || true
	done
}

# count EVENT WINDOW:OFFSET N: the count of EVENT while N is added to the
# 64-bit counter register at WINDOW:OFFSET of its PMU's device (the
# simulator's device has the PMU's name)
count() {
	perf stat -a -x';' -e "$1" -- \
		sh -c "echo '$2 +$3' > $UNCORE_SIM/${1%%/*}/mem" >/tmp/count.out 2>&1
	awk -F';' -v e="$1" '$3 == e { print $1; f = 1 }
		END { if (!f) print "no count" }' /tmp/count.out
	grep -q "^[^;]*;[^;]*;$1;" /tmp/count.out || sed 's/^/# perf: /' /tmp/count.out >&2
}

check_eq "before any load: no device bound" \
	"- - - - - -" "$(all_bound)"

# ---- 1. installed ----

mkdir -p "$MOD/updates/dkms" "$MOD/kernel/drivers/perf" "${CONF%/*}"
# the package's modules (modules.manifest's), not the test's own
for m in $(cat /usr/share/uncore-test/modules); do
	cp "/lib/modules-test/$m.ko" "$MOD/updates/dkms/"
done
cp /lib/modules-kernel/*.ko "$MOD/kernel/drivers/perf/"
cp /usr/share/uncore-test/uncore-pmu.conf "$CONF"
check_cmd "depmod of ours (updates/dkms) and the kernel's (kernel/)" "$KM/depmod" -a
echo "$KM/modprobe" > /proc/sys/kernel/modprobe
check_eq "modprobe takes ours where the names are the same" \
	"$MOD/updates/dkms/marvell_pem_pmu.ko" "$("$KM/modinfo" -n marvell_pem_pmu)"
coldplug
check_eq "installed: ours bind our devices, arm_cspmu the other implementer's" \
	"$(echo "$DEVS" | awk '{ print $2 ($2 == "arm_cspmu_module" ? "" : "(ours)") }' | xargs)" \
	"$(all_bound)"
check_eq "installed: the kernel's rivals were loaded, after ours" \
	"arm_cspmu_module marvell_cn10k_ddr_pmu marvell_cn10k_tad_pmu" \
	"$(for m in arm_cspmu_module marvell_cn10k_ddr_pmu marvell_cn10k_tad_pmu; do
		[ -d /sys/module/$m ] && echo $m; done | xargs)"
check_eq "installed: our UCF and the kernel's arm_cspmu PMU registered" "$UCF $ARM" \
	"$(for p in $UCF $ARM; do [ -d "$EV/$p" ] && echo $p; done | xargs)"
c=$(((1 << 33) + 7))
check_eq "installed: our $UCF counts cycles exactly" $c "$(count $UCF/cycles/ page0:0xf8 $c)"
# The kernel's CoreSight PMUs show no cycles event here (the model's
# PMCFGR, as RAM holds it, has no cycle counter for them): an event
# counter, counter 0 (page0 0x0), which the first event takes
check_eq "installed: the kernel's $ARM counts event 0x3 exactly" $((c + 1)) \
	"$(count $ARM/event=0x3/ page0:0x0 $((c + 1)))"
check_eq "installed: our $DDR counts DDR reads exactly" 123457 \
	"$(count $DDR/ddr_ddr_reads/ regs:0x20258 123457)"
check_eq "installed: our $PEM counts inbound non-posted TLPs exactly" 4567 \
	"$(count $PEM/ib_tlp_npr/ regs:0x0 4567)"
check_eq "installed: our tad counts allocations exactly (TAD 0, counter 0)" 891 \
	"$(count tad/tad_alloc_any/ regs:0x800 891)"
# CMEM's cycle counter (instance 0): ours read it at the start; the
# kernel's counts from zero, which its clear (CTRL = 2, a command RAM does
# not carry out) would give: the counter is set to zero before each run
echo 'inst0:0x818 =0' > "$UNCORE_SIM/$CMEM/mem"
check_eq "installed: our $CMEM counts cycles exactly" 56789 \
	"$(count $CMEM/cycles/ inst0:0x818 56789)"

# ---- 2. removed ----

# what the package removal takes, then what a reboot unloads
rm -rf "$MOD/updates" "$CONF"
check_cmd "depmod without ours" "$KM/depmod" -a
# our drivers (modules.manifest's), then the kernel's that were loaded
for m in $(cat /usr/share/uncore-test/drivers) nvidia_cspmu arm_cspmu_module \
	 marvell_cn10k_ddr_pmu marvell_cn10k_tad_pmu; do
	[ ! -d /sys/module/$m ] || rmmod $m || echo "# rmmod $m failed"
done
check_eq "removed: no device bound" "- - - - - -" "$(all_bound)"
coldplug
# a CoreSight backend registers after arm_cspmu asked for it: wait for it
n=0
while [ ! -d "$EV/$UCF" ] && [ $n -lt 10 ]; do sleep 1; n=$((n + 1)); done
check_eq "removed: the kernel's drivers bind every device" \
	"$(echo "$DEVS" | awk '{ print $3 }' | xargs)" "$(all_bound)"
check_eq "removed: the kernel's nvidia_cspmu registered $UCF" \
	/sys/devices/platform/arm-cs-arch-pmu.16 "$(dirname "$(readlink -f "$EV/$UCF")")"
check_eq "removed: the kernel's $UCF counts event 0x3 exactly" $((c + 2)) \
	"$(count $UCF/event=0x3/ page0:0x0 $((c + 2)))"
check_eq "removed: the kernel's $ARM counts event 0x3 exactly" $((c + 3)) \
	"$(count $ARM/event=0x3/ page0:0x0 $((c + 3)))"
# the kernel's driver counts from zero: it clears the counter (a command
# register write, which RAM does not carry out), as the hardware would
echo 'regs:0x20258 =0' > "$UNCORE_SIM/$DDR/mem"
check_eq "removed: the kernel's $DDR counts DDR reads exactly" 123458 \
	"$(count $DDR/ddr_ddr_reads/ regs:0x20258 123458)"
check_eq "removed: the kernel's $PEM counts inbound non-posted TLPs exactly" 4568 \
	"$(count $PEM/ib_tlp_npr/ regs:0x0 4568)"
check_eq "removed: the kernel's tad counts allocations exactly (TAD 0, counter 0)" 892 \
	"$(count tad/tad_alloc_any/ regs:0x800 892)"
echo 'inst0:0x818 =0' > "$UNCORE_SIM/$CMEM/mem"
check_eq "removed: the kernel's $CMEM counts cycles exactly" 56790 \
	"$(count $CMEM/cycles/ inst0:0x818 56790)"

# the next test finds the guest as the harness left it: the kernel's
# drivers go, the modules tree too
for m in nvidia_cspmu arm_cspmu_module marvell_pem_pmu marvell_cn10k_ddr_pmu \
	 marvell_cn10k_tad_pmu nvidia_t410_cmem_latency_pmu; do
	[ ! -d /sys/module/$m ] || rmmod $m || echo "# rmmod $m failed"
done
rm -rf "$MOD"

done_testing
