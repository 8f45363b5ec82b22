#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 RELEASE
#
# The operator guest's Debian 12 root, before our packages: debootstrap
# from the mirror the machine's apt uses, then, from the machine's own
# sources (updates, security), Debian's kernel RELEASE (image, modules
# and an initramfs made by initramfs-tools), its headers, systemd as
# PID 1 with udev, dkms, perf, Debian's prometheus-node-exporter and curl:
# what an operator's server runs. Made once and kept as a tarball in the
# cache (a new package list or release makes a new one); prints its path.
# Needs root (debootstrap, chroot).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}/operator
SUITE=bookworm
REL=${1:?usage: root.sh RELEASE}

# shellcheck source=../lib/host.sh
. "$HERE/../lib/host.sh"

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || die "debootstrap is not installed (deps.sh)"

# the image (the -unsigned one, as the busybox guests boot), headers
# and the packages our .debs depend on; dpkg-dev for README's local
# repository; procps for the tests' pgrep; Debian's Prometheus server,
# which evaluates the packaged rules, and jq to read its HTTP API
PKGS="systemd systemd-sysv udev kmod dbus initramfs-tools e2fsprogs
	linux-image-$REL-unsigned linux-headers-$REL dkms openssl
	linux-perf pciutils prometheus-node-exporter curl dpkg-dev procps
	prometheus jq"
# shellcheck disable=SC2086 # one word per package
KEY=$(echo $PKGS "$(sha256sum "$0" | cut -c 1-12)" | md5sum | cut -c 1-10)
TAR=$CACHE/$SUITE-$(dpkg --print-architecture)-$REL-$KEY.tar
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

echo "root.sh: debootstrap $SUITE for the operator guest (once)" >&2
debootstrap_root "$R" "$SUITE"
mount -t proc none "$R/proc"
mount -t sysfs none "$R/sys"
mount --bind /dev "$R/dev"
# no daemon starts in the chroot
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod +x "$R/usr/sbin/policy-rc.d"
run chroot "$R" apt-get update
# shellcheck disable=SC2086 # one word per package
run chroot "$R" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
	--no-install-recommends $PKGS
[ -s "$R/boot/vmlinuz-$REL" ] && [ -s "$R/boot/initrd.img-$REL" ] ||
	die "the root has no kernel or initramfs of $REL"
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
for f in "$CACHE"/$SUITE-*.tar; do
	[ "$f" = "$TAR" ] || rm -f "$f"
done
echo "$TAR"
