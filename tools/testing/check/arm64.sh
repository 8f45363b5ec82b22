#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian's arm64 6.1 pieces, downloaded (never installed) and cached.
#
# Usage: $0 kdir | kernel | rootfs
#   kdir    print the arm64 headers tree to cross-build against
#   kernel  print the path of the arm64 vmlinuz; modules/ next to its boot/
#           holds virtio_mmio.ko and virtio_console.ko of the same package
#   rootfs  print a directory holding arm64 busybox, perf and perf's libraries
#
# The version is the one of the installed amd64 6.1 headers (kdir.sh 6.1), so
# the headers, the kernel image and the host's x86 linux-kbuild-6.1 (whose
# fixdep, modpost... replace the arm64 binaries the arm64 headers point to)
# all agree.  Packages are fetched with "apt-get download" and unpacked with
# "dpkg -x" (of the kernel image only the files used, from its data tarball)
# into ${UNCORE_CACHE:-/var/cache/uncore-pmu}/arm64/<version>/; the arm64 dpkg
# architecture must be known to apt (deps.sh adds it).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}/arm64

# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

amd64=$("$HERE/kdir.sh" 6.1)
rel=$(basename "$amd64" | sed 's/^linux-headers-//')
abi=${rel%-amd64}
ver=$(dpkg-query -W -f='${Version}' "linux-headers-$rel" 2>/dev/null) ||
	die "linux-headers-$rel is not installed"
kbver=$(dpkg-query -W -f='${Version}' linux-kbuild-6.1 2>/dev/null) || kbver=none
[ "$kbver" = "$ver" ] ||
	die "linux-kbuild-6.1 is $kbver, the headers are $ver: the host tools must match"
dir=$CACHE/$ver

# fetch DEST PKG...: download the packages and unpack them all into DEST
fetch()
{
	local dest=$1 tmp deb
	shift

	tmp=$(mktemp -d "$CACHE/.tmp.XXXXXX")
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$tmp'" RETURN
	apt_fetch "$tmp" "$@" || return 1
	mkdir -p "$tmp/root"
	for deb in "$tmp"/*.deb; do
		dpkg -x "$deb" "$tmp/root"
	done
	rm -rf "$dest"
	mv "$tmp/root" "$dest"
}

# ready NAME: NAME is cached and complete
ready() { [ -f "$dir/.$1-done" ]; }

lock()
{
	mkdir -p "$CACHE" "$dir"
	exec 9>"$CACHE/.lock"
	flock 9
}

kdir()
{
	local tree=$dir/headers/usr/src/linux-headers-$abi-arm64 l

	if ! ready headers; then
		lock
		ready headers || {
			fetch "$dir/headers" "linux-headers-$abi-arm64:arm64=$ver" ||
				die "cannot download linux-headers-$abi-arm64:arm64=$ver"
			# The package's scripts/ and tools/ point to the arm64
			# linux-kbuild-6.1; the host's x86 one of the same version
			# does the same job here.
			for l in scripts tools; do
				rm -f "$tree/$l"
				ln -s "/usr/lib/linux-kbuild-6.1/$l" "$tree/$l"
			done
			[ -f "$tree/.config" ] || die "no $tree/.config"
			touch "$dir/.headers-done"
		}
	fi
	echo "$tree"
}

# image TMP: download the kernel image package into TMP and extract to
# TMP/image only boot/ and the two modules the guest loads for its results
# port (QEMU virt has one UART, the console): the package's other modules
# take 300 MB unpacked.
image()
{
	local tmp=$1 deb mods=lib/modules/$abi-arm64/kernel/drivers

	apt_fetch_first "$tmp" "linux-image-$abi-arm64-unsigned:arm64=$ver" \
		"linux-image-$abi-arm64:arm64=$ver"
	deb=$(echo "$tmp"/*.deb)
	[ -f "$deb" ] || die "cannot download linux-image-$abi-arm64(-unsigned):arm64=$ver"
	mkdir -p "$tmp/x" "$tmp/image/modules"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/x" --wildcards './boot/*' \
		"./$mods/virtio/virtio_mmio.ko" "./$mods/char/virtio_console.ko"
	mv "$tmp/x/boot" "$tmp/image/"
	mv "$tmp/x/$mods/virtio/virtio_mmio.ko" "$tmp/x/$mods/char/virtio_console.ko" \
		"$tmp/image/modules/"
	[ -s "$tmp/image/boot/vmlinuz-$abi-arm64" ] ||
		die "no boot/vmlinuz-$abi-arm64 in $deb"
}

kernel()
{
	local vmlinuz=$dir/image/boot/vmlinuz-$abi-arm64 tmp

	if ! ready image; then
		lock
		ready image || {
			tmp=$(mktemp -d "$CACHE/.tmp.XXXXXX")
			# shellcheck disable=SC2064 # expand now
			trap "rm -rf '$tmp'" EXIT
			image "$tmp"
			rm -rf "$dir/image"
			mv "$tmp/image" "$dir/image"
			touch "$dir/.image-done"
		}
	fi
	echo "$vmlinuz"
}

# The ELF NEEDED names of FILE
needed()
{
	readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

# lib_pkg LIB: the package holding LIB, known from its amd64 twin installed
# on this host with perf (multiarch library packages have the same name on
# both architectures; libunwind-aarch64.so.8 has libunwind-x86_64.so.8)
lib_pkg()
{
	case $1 in ld-linux-*) echo libc6; return ;; esac
	dpkg-query -S "*/x86_64-linux-gnu/${1//aarch64/x86_64}" 2>/dev/null |
		head -n 1 | cut -d: -f1 || true
}

# add_libs ROOT: add to ROOT the arm64 packages of every library that a
# library or perf in ROOT needs and ROOT lacks, until nothing is missing
add_libs()
{
	local root=$1 perf=$2 seen=" " new lib pkg objs

	objs=$perf
	while :; do
		new=
		# shellcheck disable=SC2086 # word splitting wanted
		for lib in $(for f in $objs; do needed "$f"; done | sort -u); do
			case $seen in *" $lib "*) continue ;; esac
			seen="$seen$lib "
			[ -e "$root/lib/aarch64-linux-gnu/$lib" ] ||
			[ -e "$root/usr/lib/aarch64-linux-gnu/$lib" ] && continue
			pkg=$(lib_pkg "$lib")
			[ -n "$pkg" ] || die "no package found for $lib"
			case " $new " in *" $pkg:arm64 "*) ;; *) new="$new $pkg:arm64" ;; esac
		done
		[ -n "$new" ] || return 0
		echo "$new" >>"$root.packages"
		# shellcheck disable=SC2086 # word splitting wanted
		fetch "$root.new" $new || die "cannot download$new"
		cp -a "$root.new/." "$root/"
		objs=$(cd "$root.new" && find lib/aarch64-linux-gnu \
			     usr/lib/aarch64-linux-gnu -maxdepth 1 -name 'lib*.so*' \
			     -type f 2>/dev/null | sed "s|^|$root/|" || true)
		rm -rf "$root.new"
	done
}

# rootfs: busybox-static, linux-perf, and the packages of the libraries perf
# needs, found from the ELF NEEDED entries (ldd cannot run arm64 binaries).
rootfs()
{
	local root=$dir/rootfs perf

	if ! ready rootfs; then
		lock
		ready rootfs || {
			rm -f "$root.packages"
			fetch "$root" "busybox-static:arm64" "linux-perf:arm64=$ver" ||
				die "cannot download busybox-static:arm64, linux-perf:arm64=$ver"
			# /usr/bin/perf, or perf_<version> behind a wrapper script
			perf=$root/usr/bin/perf
			[ "$(head -c 4 "$perf")" = $'\x7fELF' ] ||
				perf=$(printf '%s\n' "$root"/usr/bin/perf_[0-9]* |
				       sort -V | tail -n 1)
			[ -f "$perf" ] || die "no perf binary in linux-perf:arm64"
			add_libs "$root" "$perf"
			touch "$dir/.rootfs-done"
		}
	fi
	echo "$root"
}

case "${1:-}" in
kdir)	kdir ;;
kernel)	kernel ;;
rootfs)	rootfs ;;
*)	echo "usage: $0 kdir|kernel|rootfs" >&2; exit 2 ;;
esac
