#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The 64 KiB-page guest's test (tools/testing/operator/coexist.sh): run
# once, after the boot has settled, by uncore-operator-test.service, TAP
# on stdout. The kernel (vm/kernel-64k.sh's, installed from its own
# packages) has its own copies of our drivers as modules under kernel/;
# ours were installed as README says (DKMS built them into
# updates/dkms/, the package put its modprobe.d file in /lib/modprobe.d);
# at boot the simulated hardware came first (uncore-sim-test.service,
# ordered before udev's coldplug), then udev loaded a driver for every
# device by its modalias, as on a server:
#
#   1. installed: each device of ours is bound to our driver, the
#      CoreSight PMU of another implementer to the kernel's arm_cspmu,
#      and each of them counts exactly;
#   2. removed: README's stop and remove, verbatim, except the unload of
#      the helper layer, which the simulator (the hardware) holds; then
#      what a reboot does: the kernel's drivers that were loaded go, and
#      udev's coldplug runs again (udevadm trigger). The kernel's own
#      drivers must bind every device and count exactly.

. /usr/local/lib/uncore-test/lib/lib.sh

export UNCORE_SIM=/sys/kernel/debug/uncore_sim
README=/usr/local/lib/uncore-test/README.md
CONF=/lib/modprobe.d/uncore-pmu.conf
UCF=nvidia_ucf_pmu_0
ARM=arm_cspmu_mc_119
DDR=mrvl_ddr_pmu_70200000
PEM=mrvl_pcie_rc_pmu_70100000
CMEM=nvidia_cmem_latency_pmu_0
SCF=nvidia_scf_pmu_0
C2C=nvidia_nvlink_c2c_pmu_0
PD=/sys/bus/platform/devices

# the devices: platform device, what binds it with ours installed (our
# module, or the kernel's), what binds it without ours
DEVS="arm-cs-arch-pmu.16 uncore_cspmu arm_cspmu_module
arm-cs-arch-pmu.119 arm_cspmu_module arm_cspmu_module
arm-cs-arch-pmu.32 uncore_cspmu arm_cspmu_module
MRVL000E:00 marvell_pem_pmu marvell_pem_pmu
MRVL000C:00 marvell_odyssey_ddr_pmu marvell_cn10k_ddr_pmu
MRVL000D:00 marvell_odyssey_tad_pmu marvell_cn10k_tad_pmu
NVDA2021:00 nvidia_t410_cmem_latency_pmu nvidia_t410_cmem_latency_pmu
NVDA2023:00 nvidia_t410_c2c_pmu nvidia_t410_c2c_pmu"

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

# settle WANT: wait (30 s at most) until all_bound is WANT and, when a
# PMU name follows, that PMU has registered (a CoreSight product module
# is requested, and registers, after its device appeared)
settle() {
	udevadm settle
	n=0
	while [ "$(all_bound)" != "$1" ] || { [ -n "${2:-}" ] && [ ! -d "$EV/$2" ]; }; do
		[ $n -lt 30 ] || break
		sleep 1
		n=$((n + 1))
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

# ---- 1. installed ----

# every window in RAM holds what its model reads at reset (a model of
# 64-bit registers refuses 4-byte reads, and RAM then held all ones)
check_eq "the simulator filled the register windows with no access refused" "" \
	"$(dmesg | grep 'uncore_sim: bad' | head -n 3)"

ver=$(cat /usr/share/uncore-test/version)
check_eq "dkms built ours for the running kernel" \
	"uncore-pmu/$ver, $(uname -r), aarch64: installed" \
	"$(dkms status -m uncore-pmu -v "$ver" -k "$(uname -r)" 2>/dev/null)"
# (a module file's name may end in .xz or .zst: compressed by the kernel's
# packaging or by DKMS)
check_eq "modprobe takes ours where the names are the same" \
	"/lib/modules/$(uname -r)/updates/dkms/marvell_pem_pmu.ko" \
	"$(modinfo -n marvell_pem_pmu | sed 's/\.ko\..*/.ko/')"
kmods="arm_cspmu_module marvell_cn10k_ddr_pmu marvell_cn10k_tad_pmu marvell_pem_pmu
	nvidia_cspmu nvidia_t410_c2c_pmu nvidia_t410_cmem_latency_pmu"
check_eq "the kernel's package has its own copies of them" "$(echo $kmods)" \
	"$(find /lib/modules/"$(uname -r)"/kernel/drivers/perf -name '*.ko*' |
		sed 's|.*/||; s|\.ko.*||' | sort | xargs)"
want=$(echo "$DEVS" | awk '{ print $2 ($2 == "arm_cspmu_module" ? "" : "(ours)") }' | xargs)
settle "$want" $UCF
check_eq "installed: udev bound ours to our devices, arm_cspmu to the other implementer's" \
	"$want" "$(all_bound)"
check_eq "installed: the kernel's rivals were loaded, after ours" \
	"arm_cspmu_module marvell_cn10k_ddr_pmu marvell_cn10k_tad_pmu" \
	"$(for m in arm_cspmu_module marvell_cn10k_ddr_pmu marvell_cn10k_tad_pmu; do
		[ -d /sys/module/$m ] && echo $m; done | xargs)"
check_eq "installed: our UCF and SCF and the kernel's arm_cspmu PMU registered" \
	"$UCF $SCF $ARM" \
	"$(for p in $UCF $SCF $ARM; do [ -d "$EV/$p" ] && echo $p; done | xargs)"
c=$(((1 << 33) + 7))
check_eq "installed: our $UCF counts cycles exactly" $c "$(count $UCF/cycles/ page0:0xf8 $c)"
# The kernel's CoreSight PMUs show no cycles event here (the model's
# PMCFGR, as RAM holds it, has no cycle counter for them): an event
# counter, counter 0 (page0 0x0), which the first event takes
check_eq "installed: the kernel's $ARM counts event 0x3 exactly" $((c + 1)) \
	"$(count $ARM/event=0x3/ page0:0x0 $((c + 1)))"
check_eq "installed: our $SCF counts scf_cache exactly (counter 0)" $((c + 4)) \
	"$(count $SCF/scf_cache/ page0:0x0 $((c + 4)))"
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
# C2C's cycle counter (instance 0, the first of GPU 0's), at 4 modulo 8:
# the same, the kernel's driver counting from zero
echo 'inst0:0x86c =0' > "$UNCORE_SIM/$C2C/mem"
check_eq "installed: our $C2C counts cycles exactly" $((c + 6)) \
	"$(count $C2C/cycles/ inst0:0x86c $((c + 6)))"

# ---- 2. removed ----

sed -n '/^## Quick start/,/^## /p' $README |
	grep -E '^    (systemctl stop|modprobe -r|apt-get purge) ' |
	sed 's/^    //' >/tmp/remove
check_eq "README's quick start has the four stop and remove commands" 4 \
	"$(wc -l </tmp/remove)"
while read -r c; do
	case $c in
	# the simulator holds the helper layer
	"modprobe -r uncore_cspmu"*) continue ;;
	esac
	if out=$(sh -c "$c" 2>&1 </dev/null); then
		ok "README: $c"
	else
		not_ok "README: $c" "$out"
	fi
done </tmp/remove
check_eq "removed: no module of ours is left on disk, nor the modprobe.d file" "" \
	"$(ls /lib/modules/*/updates/dkms/*.ko* $CONF 2>/dev/null | xargs)"
check_eq "removed: no device bound but the other implementer's" \
	"- arm_cspmu_module - - - - - -" "$(all_bound)"
# what a reboot does: the loaded drivers go, udev's coldplug comes again
for m in nvidia_cspmu arm_cspmu_module marvell_cn10k_ddr_pmu marvell_cn10k_tad_pmu; do
	[ ! -d /sys/module/$m ] || rmmod $m || echo "# rmmod $m failed"
done
check_eq "removed: no device bound" "- - - - - - - -" "$(all_bound)"
check_cmd "udevadm trigger --action=add (udev's coldplug)" \
	udevadm trigger --action=add --subsystem-match=platform
want=$(echo "$DEVS" | awk '{ print $3 }' | xargs)
settle "$want" $UCF
check_eq "removed: udev bound the kernel's drivers to every device" "$want" "$(all_bound)"
check_eq "removed: the kernel's nvidia_cspmu registered $UCF and $SCF" \
	"/sys/devices/platform/arm-cs-arch-pmu.16 /sys/devices/platform/arm-cs-arch-pmu.32" \
	"$(for p in $UCF $SCF; do dirname "$(readlink -f "$EV/$p")"; done | xargs)"
check_eq "removed: the kernel's $UCF counts event 0x3 exactly" $((c + 2)) \
	"$(count $UCF/event=0x3/ page0:0x0 $((c + 2)))"
check_eq "removed: the kernel's $ARM counts event 0x3 exactly" $((c + 3)) \
	"$(count $ARM/event=0x3/ page0:0x0 $((c + 3)))"
check_eq "removed: the kernel's $SCF counts scf_cache exactly (counter 0)" $((c + 5)) \
	"$(count $SCF/scf_cache/ page0:0x0 $((c + 5)))"
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
echo 'inst0:0x86c =0' > "$UNCORE_SIM/$C2C/mem"
check_eq "removed: the kernel's $C2C counts cycles exactly" $((c + 7)) \
	"$(count $C2C/cycles/ inst0:0x86c $((c + 7)))"

done_testing
