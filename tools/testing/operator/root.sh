#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 RELEASE | --arm64 DEBDIR
#
# An operator guest's Debian 12 root, before our packages: debootstrap
# from the mirror the machine's apt uses, then, from the machine's own
# sources (updates, security), systemd as PID 1 with udev, dkms and perf.
#   RELEASE         the x86 guest (run.sh): Debian's kernel RELEASE (image,
#                   modules and an initramfs made by initramfs-tools), its
#                   headers, Debian's prometheus-node-exporter, prometheus
#                   and curl: what an operator's server runs
#   --arm64 DEBDIR  the arm64 guest of the 64 KiB-page kernel (coexist.sh):
#                   an arm64 root (debootstrap runs its programs through
#                   qemu-user), with the linux-image and linux-headers
#                   packages of DEBDIR (vm/kernel-64k.sh's, made by the
#                   kernel's "make bindeb-pkg") installed as a fleet
#                   installs its own kernel; no initramfs (the kernel
#                   mounts the disk itself)
# Made once and kept as a tarball in the cache (a new package list,
# release or kernel package makes a new one); prints its path.
# Needs root (debootstrap, chroot).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}/operator
SUITE=bookworm
ARCH=amd64 DEBS=()
case ${1:-} in
--arm64)
	ARCH=arm64
	DEBS=("${2:?usage: root.sh --arm64 DEBDIR}"/linux-image-*_arm64.deb
	      "$2"/linux-headers-*_arm64.deb)
	if [ ! -f "${DEBS[0]}" ] || [ ! -f "${DEBS[1]}" ]; then
		echo "root.sh: no linux-image and linux-headers package in $2" >&2
		exit 1
	fi
	REL=$(dpkg-deb -f "${DEBS[0]}" Package | sed 's/^linux-image-//')
	;;
''|-*)	sed -n 's/^# Usage: \$0/usage: root.sh/p' "$0" >&2; exit 2 ;;
*)	REL=$1 ;;
esac

# shellcheck source=../lib/host.sh
. "$HERE/../lib/host.sh"

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || die "debootstrap is not installed (deps.sh)"

# the image (the -unsigned one, as the busybox guests boot), headers
# and the packages our .debs depend on; dpkg-dev for README's local
# repository; procps for the tests' pgrep; Debian's Prometheus server,
# which evaluates the packaged rules, and jq to read its HTTP API
PKGS="systemd systemd-sysv udev kmod dbus e2fsprogs dkms openssl
	linux-perf dpkg-dev procps"
[ "$ARCH" = arm64 ] || PKGS="$PKGS initramfs-tools linux-image-$REL-unsigned
	linux-headers-$REL pciutils prometheus-node-exporter curl prometheus jq"
# shellcheck disable=SC2086 # one word per package
KEY=$(echo $PKGS "$(sha256sum "$0" ${DEBS[@]+"${DEBS[@]}"} | cut -c 1-12)" |
	md5sum | cut -c 1-10)
TAR=$CACHE/$SUITE-$ARCH-$REL-$KEY.tar
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
if [ -s "$TAR" ]; then
	echo "$TAR"
	exit 0
fi

TMP=$(mktemp -d)
R=$TMP/root
cleanup()
{
	local m

	for m in "$R/proc" "$R/sys" "$R/dev/pts" "$R/dev"; do
		mountpoint -q "$m" && umount -l "$m"
	done
	rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT

if [ "$ARCH" = arm64 ]; then
	binfmt_arm64
	echo "root.sh: debootstrap $SUITE arm64 for the 64 KiB-page guest (once)" >&2
else
	echo "root.sh: debootstrap $SUITE for the operator guest (once)" >&2
fi
debootstrap_root "$R" "$SUITE" "$ARCH"
mount -t proc none "$R/proc"
mount -t sysfs none "$R/sys"
mount --bind /dev "$R/dev"
# no daemon starts in the chroot
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod +x "$R/usr/sbin/policy-rc.d"
run chroot "$R" apt-get update
# shellcheck disable=SC2086 # one word per package
mkdir -p "$R/tmp/kernel"
local_debs=()
for d in ${DEBS[@]+"${DEBS[@]}"}; do
	cp "$d" "$R/tmp/kernel/"
	local_debs+=("/tmp/kernel/${d##*/}")
done
# shellcheck disable=SC2086 # one word per package
run chroot "$R" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--no-install-recommends $PKGS ${local_debs[@]+"${local_debs[@]}"}
rm -rf "$R/tmp/kernel"
[ -s "$R/boot/vmlinuz-$REL" ] || die "the root has no kernel of $REL"
[ "$ARCH" = arm64 ] || [ -s "$R/boot/initrd.img-$REL" ] ||
	die "the root has no initramfs of $REL"
# (build is an absolute link, to /usr/src in the root)
chroot "$R" test -d "/lib/modules/$REL/build/scripts" || die "the root has no headers of $REL"
run chroot "$R" apt-get clean
rm -f "$R/usr/sbin/policy-rc.d"
# the machine: its disk, its name, no password prompt anywhere
echo '/dev/vda / ext4 rw,errors=remount-ro 0 1' >"$R/etc/fstab"
echo operator >"$R/etc/hostname"
: >"$R/etc/machine-id"
for m in "$R/proc" "$R/sys" "$R/dev"; do
	umount -l "$m"
done
tar -C "$R" -cf "$TAR.tmp" .
mv "$TAR.tmp" "$TAR"
for f in "$CACHE/$SUITE-$ARCH"-*.tar; do
	[ "$f" = "$TAR" ] || rm -f "$f"
done
echo "$TAR"
