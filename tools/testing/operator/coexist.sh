#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 [--no-summary] [TREE]
#
# The 64 KiB-page operator guest (README.md here), booted by make
# check-64k: the arm64 kernel of vm/kernel-64k.sh (TREE, built if not
# given), whose own copies of our drivers are modules, installed from its
# own packages (make bindeb-pkg) in a Debian 12 arm64 root with systemd
# as PID 1, udev and dkms (root.sh --arm64); our .debs installed as README
# says (a local apt repository, apt-get install; DKMS builds the modules
# against the kernel's headers package in that root, through qemu-user).
# The only test-only parts are the simulator module, its firmware (the
# coexist topology: one device of each family the kernel also drives,
# every register window guest RAM, since the kernel's drivers reach them
# with plain MMIO) and the units that load it and run the test
# (guest/coexist-test.sh). One boot. UNCORE_VM_BUILD is the build
# directory, UNCORE_TAP_STATE the shared pass/fail state (vm/run.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TESTING=$(cd "$HERE/.." && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
BUILD=${UNCORE_VM_BUILD:-$REPO/.vm-build}/coexist
R=$BUILD/root
TMP=$BUILD/tmp
summary=()
[ "${1:-}" != --no-summary ] || { summary=(--no-summary); shift; }

# shellcheck source=../lib/host.sh
. "$TESTING/lib/host.sh"
# shellcheck source=lib.sh
. "$HERE/lib.sh"
# shellcheck source=../lib/fwconf.sh
. "$TESTING/lib/fwconf.sh"

trap 'setup_failed coexist' EXIT
[ "$(id -u)" -eq 0 ] || die "needs root (chroot, the root's files)"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
TREE=${1:-$("$TESTING/vm/kernel-64k.sh")}
REL=$(cat "$TREE/include/config/kernel.release")
rm -rf "$TMP"
mkdir -p "$TMP"

echo "coexist: the packages (arm64) and the simulator, from a copy of the tree" >&2
op_src DEB_ARCH=arm64
K=(KDIR="$TREE" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- COMPILE_TEST=1)
run make -C "$BUILD/src" "${K[@]}" modules
SIM=$BUILD/src/tools/testing/sim/uncore_sim.ko
run "$BUILD/src/tools/testing/sim/gen.sh" coexist "$TMP/fw"

TAR=$("$HERE/root.sh" --arm64 "$TREE/deb")
op_root "$TAR"
trap 'st=$?; umount_root; (exit $st) || setup_failed coexist' EXIT

# README's "Quick start", as an operator types it, in the root: this
# root is arm64, so DKMS builds as on the server, with no override
echo "coexist: installing the packages as README says (DKMS under qemu-user)" >&2
op_install
VER=$(bash -c '. "$1" && echo "$PACKAGE_VERSION"' _ "$REPO/dkms.conf")
st=$(chroot "$R" dkms status -m uncore-pmu -v "$VER" -k "$REL")
[ "$st" = "uncore-pmu/$VER, $REL, aarch64: installed" ] || die "dkms status: '$st'"

# the test-only parts: the simulator's APMT (the DSDT's devices come in
# by the initrd table upgrade, below), loaded before udev's coldplug, so
# that every driver finds its registers filled when udev loads it
install -D -m 0644 "$TMP/fw/apmt-coexist.dat" "$R/lib/firmware/uncore-sim/apmt-coexist.dat"
echo "options uncore_sim topology=coexist apmt=uncore-sim/apmt-coexist.dat" \
	>"$R/etc/modprobe.d/uncore-sim-test.conf"
mkdir -p "$R/etc/systemd/system/uncore-sim-test.service.d"
printf '[Unit]\nBefore=systemd-udev-trigger.service\n' \
	>"$R/etc/systemd/system/uncore-sim-test.service.d/coexist.conf"
op_test_parts "$REL" "$SIM" coexist-test.sh
echo "$VER" >"$TMP/version"
install -D -m 0644 "$TMP/version" "$R/usr/share/uncore-test/version"
# no login prompt on the console, nor on the results port (a virtio
# console, which systemd gives a getty of its own)
run chroot "$R" systemctl mask serial-getty@ttyAMA0.service serial-getty@hvc0.service \
	getty@tty1.service
umount_root
trap 'setup_failed coexist' EXIT
op_disk
trap - EXIT

# No initramfs: the kernel mounts the disk. The initrd run.sh boots with
# holds only the ACPI tables of the initrd table upgrade.
tables=()
for t in "$TMP/fw"/*.aml; do
	tables+=(--acpitable "$t")
done
: | cpio --quiet -o -H newc >"$TMP/empty.cpio"
# The topology's own settings (its firmware.conf: mem=, which leaves the
# register windows to the guest's RAM above it); the exporter stays off
# (the test moves the counters the first event takes)
fw=$(fw_conf "$TESTING/tests/firmware/coexist" append)
"$TESTING/vm/run.sh" --arch arm64 --kernel "$TREE/arch/arm64/boot/Image" \
	--initrd "$TMP/empty.cpio" "${tables[@]}" --disk "$BUILD/disk.img" \
	--log "$BUILD/console.log" --timeout 1500 --boot-stall 300 ${summary[@]+"${summary[@]}"} \
	--append "root=/dev/vda rw $fw uncore_test.scenario=coexist \
systemd.mask=uncore-metrics-exporter.service systemd.show_status=0"
