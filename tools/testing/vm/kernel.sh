#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure a Debian kernel image is cached and print the path of its vmlinuz.
#   kernel.sh [--arch x86_64|arm64] [HEADERS_DIR]
#             6.1: the image matching a headers tree (default: x86_64, newest
#             /usr/src/linux-headers-*-amd64); arm64: the arm64 image of the
#             amd64 headers' version (check/arm64.sh kernel)
#   kernel.sh --series SERIES [--arch x86_64|arm64]
#             a series of check/kernels.conf: Debian's image of the version
#             and ABI that check/kdir.sh builds the modules against
# Cache: ${UNCORE_CACHE:-/var/cache/uncore-pmu}/kernel/<release>_<version>/;
# for --series, modules/ next to its boot/ holds, uncompressed, those of
# virtio_mmio and virtio_console that the image builds as modules, and
# of the virtio core (virtio, virtio_ring) where it is a module too (the
# arm64 guest's results port needs them).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

series= arch=x86_64
while [ $# -gt 0 ]; do
	case $1 in
	--arch)		arch=${2:-}; shift 2 ;;
	--series)	series=${2:-}; shift 2 ;;
	*)		break ;;
	esac
done
case $arch in
x86_64)	fl=amd64 karch=x86 ;;
arm64)	fl=arm64 karch=arm64
	[ -n "$series" ] && [ "$series" != 6.1 ] ||
		exec "$HERE/../check/arm64.sh" kernel ;;
*)	die "unknown architecture $arch" ;;
esac
cache=${UNCORE_CACHE:-/var/cache/uncore-pmu}/kernel

# The release and version of the image: kdir.sh's pin for a series, else
# those of the installed headers package of HEADERS_DIR.
if [ -n "$series" ] && [ "$series" != 6.1 ]; then
	read -r ver abi < <("$HERE/../check/kdir.sh" --pin "$series" "$karch")
	# an "-rt" series: Debian's PREEMPT_RT flavour; "-16k": its arm64
	# flavour with 16 KiB pages (check/kernels.conf)
	case $series in
	*-rt)	rel=$abi-rt-$fl ;;
	*-16k)	rel=$abi-$fl-16k ;;
	*)	rel=$abi-$fl ;;
	esac
else
	series=
	hdr=${1:-$(printf '%s\n' /usr/src/linux-headers-*-amd64 | sort -V | tail -n 1)}
	[ -d "$hdr" ] || die "no headers tree (install linux-headers-amd64)"
	rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$hdr/include/generated/utsrelease.h" 2>/dev/null) ||
		true
	[ -n "$rel" ] || rel=$(basename "$hdr" | sed 's/^linux-headers-//')
	ver=$(dpkg-query -W -f='${Version}' "linux-headers-$rel" 2>/dev/null) || ver=
	[ -n "$ver" ] ||
		die "package linux-headers-$rel is not installed: cannot tell the image version"
fi

dir=$cache/${rel}_$ver
vmlinuz=$dir/root/boot/vmlinuz-$rel

# cached: the image is there, and every module a kept module depends on
# (an image unpacked before the virtio core's modules were kept is not)
cached()
{
	local m d

	[ -s "$vmlinuz" ] || return 1
	for m in "$dir"/root/modules/*.ko; do
		[ -f "$m" ] || continue
		for d in $(modinfo -F depends "$m" | tr ',' ' '); do
			[ -f "$dir/root/modules/$d.ko" ] || return 1
		done
	done
}
if cached; then echo "$vmlinuz"; exit 0; fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if cached; then echo "$vmlinuz"; exit 0; fi

tmp=$(mktemp -d "$cache/.tmp.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT

# fetch_series: Debian's image of a series through the private apt
# configuration; boot/ and the virtio modules, uncompressed
fetch_series()
{
	local deb=$HERE/../check/debian.sh d m
	local pkgs=()

	# Debian's newer packages split the image into linux-binary-<release>
	# (the image) and linux-modules-<release>; older ones have one
	# linux-image-<release>(-unsigned). The modules only for arm64.
	if "$deb" apt-cache show "linux-binary-$rel:$fl=$ver" >/dev/null 2>&1; then
		pkgs=("linux-binary-$rel:$fl=$ver")
		[ "$arch" = arm64 ] && pkgs+=("linux-modules-$rel:$fl=$ver")
	elif "$deb" apt-cache show "linux-image-$rel-unsigned:$fl=$ver" >/dev/null 2>&1; then
		pkgs=("linux-image-$rel-unsigned:$fl=$ver")
	else
		pkgs=("linux-image-$rel:$fl=$ver")
	fi
	"$deb" download "$tmp/deb" "${pkgs[@]}" || die "cannot download ${pkgs[*]}"
	# the image is boot/vmlinuz-<release>, or usr/lib/modules/<release>/vmlinuz
	# in the newer packages; the modules are below (usr/)lib/modules/<release>
	mkdir -p "$tmp/x" "$tmp/root/boot" "$tmp/root/modules"
	for d in "$tmp"/deb/*.deb; do
		dpkg-deb --fsys-tarfile "$d" | tar -x -C "$tmp/x" --wildcards --no-anchored \
			"vmlinuz*" "virtio_mmio.ko*" "virtio_console.ko*" \
			"virtio.ko*" "virtio_ring.ko*" 2>/dev/null || true
	done
	for m in $(find "$tmp/x" -type f -name 'vmlinuz*'); do
		cp "$m" "$tmp/root/boot/vmlinuz-$rel"
	done
	for m in $(find "$tmp/x" -type f -name 'virtio*.ko*'); do
		case $m in
		*.xz)	xz -dc "$m" >"$tmp/root/modules/$(basename "$m" .xz)" ;;
		*.zst)	zstd -qdc "$m" >"$tmp/root/modules/$(basename "$m" .zst)" ;;
		*)	cp "$m" "$tmp/root/modules/" ;;
		esac
	done
	[ "$arch" != arm64 ] || [ -f "$tmp/root/modules/virtio_mmio.ko" ] ||
		die "no virtio_mmio module in ${pkgs[*]}"
	rm -rf "$tmp/deb" "$tmp/x"
}

if [ -n "$series" ]; then
	fetch_series
else
	# the image package of the installed headers, with the host's apt
	apt_fetch_first "$tmp" "linux-image-$rel-unsigned=$ver" "linux-image-$rel=$ver" ||
		die "cannot download linux-image-$rel(-unsigned)=$ver"
	debs=("$tmp"/*.deb)
	dpkg -x "${debs[0]}" "$tmp/root"
	rm -f "${debs[0]}"
fi
[ -s "$tmp/root/boot/vmlinuz-$rel" ] || die "no boot/vmlinuz-$rel in the image package"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "$vmlinuz"
