#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make sure Debian's kernel image matching a headers tree is cached and print
# the path of its vmlinuz.
#   kernel.sh [--arch x86_64|arm64] [HEADERS_DIR]
#             (default: x86_64, newest /usr/src/linux-headers-*-amd64)
# Cache: ${UNCORE_CACHE:-/var/cache/uncore-pmu}/kernel/<release>_<version>/;
# arm64: the arm64 image of the amd64 headers' version (check/arm64.sh kernel).
set -euo pipefail

die() { echo "kernel.sh: $*" >&2; exit 1; }

if [ "${1:-}" = --arch ]; then
	case ${2:-} in
	x86_64)	;;
	arm64)	exec "$(dirname "$0")/../check/arm64.sh" kernel ;;
	*)	die "unknown architecture ${2:-}" ;;
	esac
	shift 2
fi

hdr=${1:-$(printf '%s\n' /usr/src/linux-headers-*-amd64 | sort -V | tail -n 1)}
[ -d "$hdr" ] || die "no headers tree (install linux-headers-amd64)"
rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
	"$hdr/include/generated/utsrelease.h" 2>/dev/null) ||
	true
[ -n "$rel" ] || rel=$(basename "$hdr" | sed 's/^linux-headers-//')
ver=$(dpkg-query -W -f='${Version}' "linux-headers-$rel" 2>/dev/null) || ver=
[ -n "$ver" ] || die "package linux-headers-$rel is not installed: cannot tell the image version"

cache=${UNCORE_CACHE:-/var/cache/uncore-pmu}/kernel
dir=$cache/${rel}_$ver
vmlinuz=$dir/root/boot/vmlinuz-$rel
if [ -s "$vmlinuz" ]; then echo "$vmlinuz"; exit 0; fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -s "$vmlinuz" ]; then echo "$vmlinuz"; exit 0; fi

tmp=$(mktemp -d "$cache/.tmp.XXXXXX")
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
fetch() {
	local pkg
	for pkg in "linux-image-$rel-unsigned" "linux-image-$rel"; do
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver") >&2 &&
			return 0
	done
	return 1
}
if ! fetch; then
	echo "kernel.sh: download failed, running apt-get update and retrying" >&2
	apt-get update -q >&2 || true
	fetch || die "cannot download linux-image-$rel(-unsigned)=$ver"
fi
debs=("$tmp"/*.deb)
deb=${debs[0]}
dpkg -x "$deb" "$tmp/root"
[ -s "$tmp/root/boot/vmlinuz-$rel" ] || die "$deb has no boot/vmlinuz-$rel"
rm -f "$deb"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
echo "$vmlinuz"
