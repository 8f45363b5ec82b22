#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build (once) a self-built x86_64 test kernel from Debian's
# linux-source-6.1 and print its build tree (KDIR for our modules; the image
# is <tree>/arch/x86/boot/bzImage).
#   debug-kernel.sh [--config-only] [--flavour debug|coverage]
# Flavours (fragments next to this script, merged over x86_64_defconfig and
# kvm_guest.config; every option of each is verified after olddefconfig):
#   debug     guest.config + coverage.config + debug.config: KASAN, lockdep,
#             kmemleak... (`make check-debug`, fuzz-soak DEBUG_KERNEL=1)
#   coverage  guest.config + coverage.config: gcov without the run-time
#             checkers, which change no line our code runs but make each
#             TCG boot several times slower (`make coverage`)
# Cache: ${UNCORE_CACHE:-/var/cache/uncore-pmu}/debug-kernel/
#   linux-source-<version>/                  the unpacked source, never built in
#   <version>-[coverage-]<fragment hash>/    the O= build tree, kept whole
#   <version>-[coverage-]<fragment hash>.log the build log
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

config_only=0
flavour=debug
while [ $# -gt 0 ]; do
	case $1 in
	--config-only) config_only=1; shift ;;
	--flavour) flavour=${2:-}; shift 2 || shift ;;
	*) flavour=usage; break ;;
	esac
done
case $flavour in
debug) frags=("$here/guest.config" "$here/coverage.config" "$here/debug.config"); tag= ;;
coverage) frags=("$here/guest.config" "$here/coverage.config"); tag=coverage- ;;
*) sed -n '6s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac

# The compiler, flex, bison, libelf-dev... and linux-source-6.1 itself.
"$here/../check/deps.sh" >&2
tar=/usr/src/linux-source-6.1.tar.xz
[ -f "$tar" ] || die "$tar missing (run tools/testing/check/deps.sh)"
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed"
# Bump RECIPE when the build steps below change in a way the fragment
# does not show.
RECIPE=1
hash=$( (echo "recipe $RECIPE"; cat "${frags[@]}") | sha256sum | cut -c1-12)
cache=${UNCORE_CACHE:-/var/cache/uncore-pmu}/debug-kernel
src=$cache/linux-source-$ver
out=$cache/$ver-$tag$hash
log=$out.log
stamp=$out/.uncore-pmu-built

if [ $config_only = 0 ] && [ -f "$stamp" ]; then echo "$out"; exit 0; fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ $config_only = 0 ] && [ -f "$stamp" ]; then echo "$out"; exit 0; fi

if [ ! -f "$src/.uncore-pmu-unpacked" ]; then
	echo "debug-kernel.sh: unpacking $tar" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tar" -C "$src.tmp"
	mv "$src.tmp/linux-source-6.1" "$src"
	rmdir "$src.tmp"
	touch "$src/.uncore-pmu-unpacked"
fi

# A tree without the stamp is an interrupted build: make resumes it (the
# same inputs give the same .config, so kbuild keeps what it built).
mkdir -p "$out"
{
	make -C "$src" O="$out" x86_64_defconfig
	# merge_config.sh keeps its temporary files in the current directory
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
		"$src/kernel/configs/kvm_guest.config" "${frags[@]}")
	make -C "$src" O="$out" olddefconfig
} >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "configuring failed, see $log"; }

# Every assignment must be in .config as written, every "is not set"
# option must be off.
bad=$(awk '
	NR == FNR {
		if (/^CONFIG_[A-Za-z0-9_]+=/) want[$0] = 1
		else if (/^# CONFIG_[A-Za-z0-9_]+ is not set$/) off[$2] = 1
		next
	}
	{ have[$0] = 1 }
	/^CONFIG_[A-Za-z0-9_]+=/ { n = $0; sub(/=.*/, "", n); on[n] = $0 }
	END {
		for (w in want) if (!(w in have)) {
			n = w; sub(/=.*/, "", n)
			print "  wanted " w ", got " (n in on ? on[n] : "not set")
		}
		for (o in off) if (o in on) print "  wanted " o " off, got " on[o]
	}' <(cat "${frags[@]}") "$out/.config" | sort)
names=$(printf '%s ' "${frags[@]##*/}")
[ -z "$bad" ] || die "$(printf 'options of %s lost in %s/.config:\n%s' "$names" "$out" "$bad")"
echo "debug-kernel.sh: $out/.config has every option of $names" >&2
if [ $config_only = 1 ]; then echo "$out"; exit 0; fi

jobs=$(nproc)
echo "debug-kernel.sh: building $ver ($flavour) in $out with -j$jobs" \
	"(~35 min on 2 cores; log: $log)" >&2
start=$(date +%s)
nice -n 10 make -C "$src" O="$out" -j"$jobs" all >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "build failed, see $log"; }
for f in arch/x86/boot/bzImage Module.symvers .config; do
	[ -s "$out/$f" ] || die "build left no $out/$f"
done
echo "debug-kernel.sh: built in $(($(date +%s) - start)) s" | tee -a "$log" >&2
touch "$stamp"
echo "$out"
