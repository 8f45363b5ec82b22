#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) the 64 KiB-page arm64 kernel and print its build tree
# (KDIR for our modules; the image is <tree>/arch/arm64/boot/Image, an
# EFI-stub image; <tree>/deb/ holds its Debian packages).
#   kernel-64k.sh [--config-only]
# The kernel Grace fleets boot (64 KiB pages), with the kernel's own
# copies of our drivers built as modules: Debian's linux-source of the
# newest series of check/kernels.conf (the tree check/kdir.sh unpacks),
# Debian's arm64 configuration with its modules left out (localmodconfig
# with no module loaded) and 64k.config merged over it (every option
# verified after olddefconfig), cross-built with aarch64-linux-gnu-,
# then packaged by the kernel's own "make bindeb-pkg" (linux-image-*,
# linux-headers-*: what a fleet installs a self-built kernel with, and
# DKMS builds against).
# Cache: ${UNCORE_CACHE:-/var/cache/uncore-pmu}/kernel-64k/
#   <version>-<fragment hash>/       the O= build tree, kept whole
#   <version>-<fragment hash>/deb/   its packages
#   <version>-<fragment hash>.log    the build log
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/host.sh
. "$here/../lib/host.sh"

config_only=0
case ${1:-} in
--config-only) config_only=1 ;;
'') ;;
*) sed -n '5s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac

series=$("$here/../check/kdir.sh" --list | tail -n 1)
kdir=$("$here/../check/kdir.sh" "$series" arm64)
# the O= tree kdir.sh prepared names its source in its Makefile
src=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$kdir/Makefile")
[ -f "$src/Makefile" ] || die "no linux-source tree behind $kdir"
read -r ver _ < <("$here/../check/kdir.sh" --pin "$series" arm64)
frag=$here/64k.config
command -v aarch64-linux-gnu-gcc >/dev/null ||
	die "aarch64-linux-gnu-gcc is not installed (check/deps.sh)"
# the headers package rebuilds scripts/ (sign-file) for arm64
dpkg-query -W -f='${Status}' libssl-dev:arm64 2>/dev/null | grep -q ' installed$' ||
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		libssl-dev:arm64 >&2 || die "cannot install libssl-dev:arm64"
# Bump RECIPE when the build steps below change in a way the fragment
# does not show.
RECIPE=3
hash=$( (echo "recipe $RECIPE"; cat "$frag") | sha256sum | cut -c1-12)
cache=${UNCORE_CACHE:-/var/cache/uncore-pmu}/kernel-64k
out=$cache/$ver-$hash
log=$out.log
stamp=$out/.uncore-pmu-built
mk=(make -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)

if [ $config_only = 0 ] && [ -f "$stamp" ]; then echo "$out"; exit 0; fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ $config_only = 0 ] && [ -f "$stamp" ]; then echo "$out"; exit 0; fi

# A tree without the stamp is an interrupted build: make resumes it. A
# new tree starts as a copy of the last complete one of the same version,
# if any: Kbuild then rebuilds only what the changed options touch (an
# O= tree names its own files by relative paths).
if [ ! -d "$out" ]; then
	for d in "$cache/$ver"-*/; do
		[ -f "$d/.uncore-pmu-built" ] || continue
		echo "kernel-64k.sh: starting from ${d%/}" >&2
		cp -a "${d%/}" "$out.tmp"
		rm -rf "$out.tmp/deb" "$out.tmp/debian" "$out.tmp/.uncore-pmu-built"
		mv "$out.tmp" "$out"
		break
	done
fi
mkdir -p "$out"
{
	# Debian's arm64 configuration (kdir.sh's tree has it) with every
	# module left out: what Debian builds in stays, nothing else is built
	cp "$kdir/.config" "$out/.config"
	: >"$out/lsmod.empty"
	yes '' | "${mk[@]}" LSMOD="$out/lsmod.empty" localmodconfig
	(cd "$out" && ARCH=arm64 "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "$frag")
	"${mk[@]}" olddefconfig
} >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "configuring failed, see $log"; }

# Every assignment must be in .config as written, every "is not set"
# option must be off.
bad=$(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$frag" | while read -r l; do
	grep -qxF "$l" "$out/.config" && continue
	got=$(grep -E "^(# )?${l%%=*}[= ]" "$out/.config") || got='not set'
	echo "  wanted $l, got $got"
done
sed -n 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1/p' "$frag" | while read -r o; do
	! grep -q "^$o=" "$out/.config" || echo "  wanted $o off, got $(grep "^$o=" "$out/.config")"
done)
[ -z "$bad" ] || die "$(printf 'options of 64k.config lost in %s/.config:\n%s' "$out" "$bad")"
echo "kernel-64k.sh: $out/.config has every option of 64k.config" >&2
if [ $config_only = 1 ]; then echo "$out"; exit 0; fi

echo "kernel-64k.sh: building $ver (64 KiB pages) in $out with -j$(nproc)" \
	"(log: $log)" >&2
start=$(date +%s)
nice -n 10 "${mk[@]}" -j"$(nproc)" Image modules >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "build failed, see $log"; }
for f in arch/arm64/boot/Image Module.symvers \
	 drivers/perf/arm_cspmu/arm_cspmu_module.ko drivers/perf/arm_cspmu/nvidia_cspmu.ko \
	 drivers/perf/nvidia_t410_cmem_latency_pmu.ko drivers/perf/nvidia_t410_c2c_pmu.ko \
	 drivers/perf/marvell_pem_pmu.ko drivers/perf/marvell_cn10k_ddr_pmu.ko \
	 drivers/perf/marvell_cn10k_tad_pmu.ko; do
	[ -s "$out/$f" ] || die "the build left no $out/$f"
done
# The packages, by the kernel's own recipe (no build dependency check: the
# cross compiler is not a package dpkg-checkbuilddeps knows for arm64).
# dpkg-buildpackage writes them next to the tree, in the cache directory:
# they go into the tree.
rm -rf "$out/deb" "$cache"/*.deb "$cache"/*.buildinfo "$cache"/*.changes
nice -n 10 "${mk[@]}" DPKG_FLAGS=-d KDEB_PKGVERSION="${ver%%-*}-1" \
	DEB_BUILD_OPTIONS="parallel=$(nproc)" bindeb-pkg >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "make bindeb-pkg failed, see $log"; }
mkdir -p "$out/deb"
mv "$cache"/*.deb "$out/deb/"
rm -f "$cache"/*.buildinfo "$cache"/*.changes
for p in linux-image linux-headers; do
	ls "$out/deb/$p"-*_arm64.deb >/dev/null 2>&1 ||
		die "make bindeb-pkg left no $p package in $out/deb"
done
echo "kernel-64k.sh: built in $(($(date +%s) - start)) s" | tee -a "$log" >&2
touch "$stamp"
# the trees of other versions or fragments are stale
for d in "$cache"/*; do
	[ "$d" = "$out" ] || [ "$d" = "$log" ] || rm -rf "$d"
done
echo "$out"
