#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 [--no-summary]
#
# The operator guest (README.md here): a Debian 12 system booted with
# systemd as PID 1, Debian's 6.1 kernel and udev, our .debs installed as
# README says (a local apt repository, apt-get install; DKMS builds the
# modules in that root, with the test-only x86 override of dkms.conf),
# Debian's perf and prometheus-node-exporter. The only test-only parts
# are the simulator module, its firmware files and the units that load it
# and run the test (guest/). Booted twice from one disk image (each boot's
# writes thrown away): scenario "boot" and scenario "late"
# (guest/operator-test.sh). UNCORE_VM_BUILD is the build directory,
# UNCORE_TAP_STATE the shared pass/fail state (vm/run.sh).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TESTING=$(cd "$HERE/.." && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
BUILD=${UNCORE_VM_BUILD:-$REPO/.vm-build}/operator
summary=()
[ "${1:-}" != --no-summary ] || summary=(--no-summary)

# shellcheck source=../lib/host.sh
. "$TESTING/lib/host.sh"

# Until the guest boots, a failure is one failed test in the shared state.
trap 'setup_failed operator' EXIT
[ "$(id -u)" -eq 0 ] || die "needs root (chroot, the root's files)"
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

KDIR=$("$TESTING/check/kdir.sh" 6.1)
REL=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$KDIR/include/generated/utsrelease.h")
[ -n "$REL" ] || die "no UTS_RELEASE in $KDIR"
TMP=$BUILD/tmp
rm -rf "$TMP"
mkdir -p "$TMP" "$BUILD/src"

echo "operator: the packages and the simulator, from a copy of the tree" >&2
git -C "$REPO" ls-files -co --exclude-standard -z |
	rsync -rlp --checksum --delete --from0 --files-from=- "$REPO/" "$BUILD/src/"
run make -s -C "$BUILD/src" deb
run make -C "$BUILD/src" KDIR="$KDIR" COMPILE_TEST=1 modules
SIM=$BUILD/src/tools/testing/sim/uncore_sim.ko
run "$BUILD/src/tools/testing/sim/gen.sh" default "$TMP/fw"

TAR=$("$HERE/root.sh" "$REL")
R=$BUILD/root
umount_root() {
	local m

	for m in "$R/proc" "$R/sys" "$R/dev"; do
		! mountpoint -q "$m" || umount -l "$m"
	done
}
umount_root
rm -rf --one-file-system "$R"
mkdir -p "$R"
tar -C "$R" -xf "$TAR"
mount -t proc none "$R/proc"
mount -t sysfs none "$R/sys"
mount --bind /dev "$R/dev"
trap 'st=$?; umount_root; (exit $st); setup_failed operator' EXIT

# README's "Quick start", as an operator types it, in the root. Only the
# DKMS override differs: the drivers build for arm64, this guest is x86.
echo "operator: installing the packages as README says" >&2
DKMS_ENV=(env "UNCORE_DKMS_ARCH=^$(uname -m)\$" UNCORE_DKMS_COMPILE_TEST=1
	  DEBIAN_FRONTEND=noninteractive)
mkdir -p "$R/root/tree/.build"
cp -r "$BUILD/src/.build/deb" "$R/root/tree/.build/"
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod +x "$R/usr/sbin/policy-rc.d"
sed -n '/^## Quick start/,/^## /p' "$BUILD/src/README.md" |
	grep -E '^    (mkdir -p /srv/uncore-pmu|\(cd /srv/uncore-pmu|echo .deb \[trusted=yes\])' |
	sed 's/^    //' >"$TMP/repo.sh"
[ "$(wc -l <"$TMP/repo.sh")" -eq 3 ] ||
	die "README's quick start: not the three lines of the local repository:" \
	    "$(cat "$TMP/repo.sh")"
run chroot "$R" sh -ec "cd /root/tree; $(cat "$TMP/repo.sh")"
run chroot "$R" apt-get update
run chroot "$R" "${DKMS_ENV[@]}" apt-get install -y uncore-pmu-dkms uncore-pmu-tools
rm -f "$R/usr/sbin/policy-rc.d"
VER=$(bash -c '. "$1" && echo "$PACKAGE_VERSION"' _ "$REPO/dkms.conf")
st=$(chroot "$R" "${DKMS_ENV[@]}" dkms status -m uncore-pmu -v "$VER")
[ "$st" = "uncore-pmu/$VER, $REL, $(uname -m): installed" ] || die "dkms status: '$st'"

# the operator's settings: node_exporter on loopback only, a short interval
sed -i 's|^ARGS=.*|ARGS="--web.listen-address=127.0.0.1:9100"|' \
	"$R/etc/default/prometheus-node-exporter"
sed -i 's|^UNCORE_METRICS_INTERVAL=.*|UNCORE_METRICS_INTERVAL=2000|' "$R/etc/default/uncore-metrics"

# the test-only parts
G=$HERE/guest
install -D -m 0644 "$SIM" "$R/lib/modules/$REL/extra/uncore-test/uncore_sim.ko"
install -D -m 0644 "$TMP/fw/apmt-default.dat" "$R/lib/firmware/uncore-sim/apmt-default.dat"
install -D -m 0644 "$TMP/fw/ssdt-default.aml" "$R/lib/firmware/uncore-sim/ssdt-default.aml"
install -m 0644 "$G/uncore-sim-test.conf" "$R/etc/modprobe.d/"
install -m 0644 "$G/90uncore-test-assume-yes" "$R/etc/apt/apt.conf.d/"
install -m 0644 "$G/uncore-sim-test.service" "$G/uncore-operator-test.service" \
	"$R/etc/systemd/system/"
L=$R/usr/local/lib/uncore-test
install -D -m 0755 "$G/operator-test.sh" "$G/run-test" -t "$L"
install -D -m 0644 "$TESTING/tests/lib/lib.sh" -t "$L/lib"
install -m 0644 "$BUILD/src/README.md" "$L/"
run chroot "$R" depmod "$REL"
run chroot "$R" systemctl enable uncore-sim-test.service uncore-operator-test.service
# no login prompt on the console
run chroot "$R" systemctl mask serial-getty@ttyS0.service getty@tty1.service
cp "$R/boot/vmlinuz-$REL" "$R/boot/initrd.img-$REL" "$TMP/"
umount_root
trap 'setup_failed operator' EXIT

echo "operator: the disk image" >&2
rm -f "$BUILD/disk.img"
run mke2fs -q -t ext4 -L operator -d "$R" "$BUILD/disk.img" 4G
rm -rf --one-file-system "$R"
trap - EXIT

st=0
for sc in "boot modprobe.blacklist=nvidia_t410_c2c_pmu" "late uncore_test.late_sim"; do
	# shellcheck disable=SC2086 # the scenario, then its kernel arguments
	set -- $sc
	"$TESTING/vm/run.sh" --kernel "$TMP/vmlinuz-$REL" --initrd "$TMP/initrd.img-$REL" \
		--disk "$BUILD/disk.img" --log "$BUILD/console-$1.log" --timeout 1500 \
		--boot-stall 300 "${summary[@]}" \
		--append "root=/dev/vda rw uncore_test.scenario=$1 $2 systemd.show_status=0" || st=1
done
exit $st
