#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build everything the test VM needs and run the guest tests in it.
#
# Usage: vm-test.sh [--firmware FIRMWARE] [--extra DIR] [--no-summary]
#                   [--only GLOB] [--demo] [--arch x86_64|arm64]
#                   [--kernel-tree DIR] [--timeout-scale N] [--bench]
#                   [--kernel SERIES] [--release | --release-perf]
#                   [--tcg-multi]
#   --firmware  the firmware to boot: a directory tools/testing/tests/firmware/<firmware>/
#               with its topology.topo, tests and boot settings (firmware.conf,
#               lib/fwconf.sh)
#   --extra     a directory of further guest tests, run after the built-in
#   --only      run only built-in tests whose file name matches GLOB
#   --demo      run tools/testing/demo/ instead of the tests
#   --arch      the guest: x86_64 (default) or arm64 (tools/testing/vm/README.md)
#   --kernel-tree  build the modules with KDIR=DIR and boot DIR/arch/x86/boot/bzImage
#               (a self-built tree, e.g. vm/debug-kernel.sh's) instead of Debian's;
#               with --arch arm64, DIR/arch/arm64/boot/Image (vm/kernel-64k.sh's);
#               if DIR/.config has failslab, the faults firmware's boot
#               runs tests/faults/ after the others; if it has kmemleak,
#               tests/debug/ runs last
#   --kernel    boot Debian's kernel of SERIES (check/kdir.sh --list; default
#               6.1, the installed headers' version) with the modules built
#               against the tree check/kdir.sh prepares for it (same config,
#               Module.symvers and release as Debian's image)
#   --release   the guest's perf (and its libraries) is that of the Debian
#               release of SERIES (check/release.sh: 5.10 bullseye, 6.12
#               trixie, 7.3 trixie-backports), not Debian 12's; the boot
#               runs the release suite only: the tests whose head says
#               "# release: WHY" (make check's release boots, vm-all.sh)
#   --release-perf  the same perf, with the whole suite (make check's
#               arm64 default boot)
#   --tcg-multi  one host thread per vCPU (QEMU's multi-threaded TCG), not
#               one for all (vm/run.sh; --tcg-single, the default, is kept)
#   --timeout-scale  multiply the guest test and the QEMU timeouts by N (slow kernels)
#   --bench     make bench: only the benches (87-*), with the MMIO bench's
#               timing part (tests/lib/bench.conf BENCH_TIMING=1) and the
#               tests named NN-<what>-bench.sh, which no other run has
#               (87-exporter-bench.sh), then print their tables
# A test whose first lines hold "# requires: FEATURE..." (function_graph:
# CONFIG_FUNCTION_GRAPH_TRACER, dynamic_debug: CONFIG_DYNAMIC_DEBUG) is left
# out (with a "# " line saying so) of a --kernel-tree boot whose .config
# lacks one; Debian's kernels have them all.
# UNCORE_TAP_STATE and --no-summary are handed to the VM runner, so make
# check can add these results to the static checks' totals.
# UNCORE_VM_SHARED_SRC=DIR: the copy of the sources and its module build
# live under DIR (per architecture and series) instead of the build
# directory, shared by every boot that sets it: vm-all.sh's workers build
# an architecture and series once, one worker at a time (a lock), and
# each boot takes its modules and tables from there. Not with coverage
# (its counts are per boot).
# UNCORE_COVERAGE_DIR=DIR (make coverage; --kernel-tree of a kernel with
# CONFIG_GCOV_KERNEL only): the modules are built with gcov profiling, the
# boot ends with tests/coverage/ (which unloads every module still loaded,
# then dumps the counts), and the line and branch counts of this boot are
# written to DIR/<arch>-<firmware>.info (lcov), source paths relative to
# the tree.

set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/host.sh
. "$HERE/lib/host.sh"
# shellcheck source=lib/fwconf.sh
. "$HERE/lib/fwconf.sh"
REPO=$(cd "$HERE/../.." && pwd)
BUILD=${UNCORE_VM_BUILD:-$REPO/.vm-build}
firmware=default
extra=
only='*'
demo=0
bench=0
arch=x86_64
runargs=()
ktree=
tscale=1
series=6.1
release=0
relperf=0

while [ $# -gt 0 ]; do
	case $1 in
	--firmware)	firmware=$2; shift 2 ;;
	--extra)	extra=$2; shift 2 ;;
	--only)		only=$2; shift 2 ;;
	--demo)		demo=1; shift ;;
	--bench)	bench=1; only='87-*'; shift ;;
	--arch)		arch=$2; shift 2 ;;
	--no-summary)	runargs+=(--no-summary); shift ;;
	--kernel-tree)	ktree=$2; shift 2 ;;
	--kernel)	series=$2; shift 2 ;;
	--release)	release=1; relperf=1; shift ;;
	--release-perf)	relperf=1; shift ;;
	--tcg-single)	runargs+=(--tcg-single); shift ;;
	--tcg-multi)	runargs+=(--tcg-multi); shift ;;
	--timeout-scale) tscale=$2; shift 2 ;;
	*)		echo "vm-test.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done

# A make calling us must not leak its variables into the module build.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

# Until the VM runs, a failure here is one failed test in the shared state.
trap 'setup_failed vm' EXIT

# The firmware's boot settings (lib/fwconf.sh; none for the default)
fwdir=$HERE/tests/firmware/$firmware
fw_arch=$(fw_conf "$fwdir" arch) && fw_append=$(fw_conf "$fwdir" append) &&
	fw_apmt_backend=$(fw_conf "$fwdir" apmt_backend) &&
	fw_kernel=$(fw_conf "$fwdir" kernel) || exit 2
if [ "$fw_kernel" = 64k ]; then
	echo "vm-test.sh: firmware $firmware is operator/coexist.sh's (make check-64k)" >&2
	exit 2
fi

"$HERE/check/deps.sh" >&2
case $tscale in
''|*[!0-9]*|0) echo "vm-test.sh: --timeout-scale needs a positive integer" >&2; exit 2 ;;
esac
if ! "$HERE/check/kdir.sh" --list | grep -qxF -- "$series"; then
	echo "vm-test.sh: --kernel $series: not one of $("$HERE/check/kdir.sh" --list | xargs)" >&2
	exit 2
fi
[ -z "$ktree" ] || [ "$series" = 6.1 ] ||
	{ echo "vm-test.sh: --kernel-tree and --kernel exclude each other" >&2; exit 2; }
userland=()
if [ $relperf = 1 ]; then
	[ -z "$ktree" ] && [ "$series" != 6.1 ] || {
		echo "vm-test.sh: --release needs --kernel of a series other than 6.1" \
		     "(6.1 boots with Debian 12's perf already)" >&2
		exit 2
	}
	ul=$("$HERE/check/release.sh" "$series" "$arch") || exit 1
	userland=(--userland "$ul")
fi
covdir=${UNCORE_COVERAGE_DIR:-}
gcov=()
if [ -n "$covdir" ]; then
	[ -n "$ktree" ] && grep -qx 'CONFIG_GCOV_KERNEL=y' "$ktree/.config" || {
		echo "vm-test.sh: UNCORE_COVERAGE_DIR needs --kernel-tree of a kernel" \
		     "with CONFIG_GCOV_KERNEL=y (vm/debug-kernel.sh's)" >&2
		exit 2
	}
	mkdir -p "$covdir"
	covdir=$(cd "$covdir" && pwd)
	gcov=(UNCORE_GCOV=1)
fi
# arm64: Debian's arm64 headers or tree, cross-compiled, in a build dir of its own
kmake=() cc=gcc
case $arch in
x86_64)	karch=x86 kimage=arch/x86/boot/bzImage ;;
arm64)	karch=arm64 kimage=arch/arm64/boot/Image
	kmake=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	cc=aarch64-linux-gnu-gcc
	BUILD=$BUILD/arm64 ;;
*)	echo "vm-test.sh: unknown architecture $arch" >&2; exit 2 ;;
esac
# a self-built tree and its image (--kernel-tree), or Debian's of the series
if [ -n "$ktree" ]; then
	kdir=$(cd "$ktree" && pwd)
	[ -s "$kdir/$kimage" ] || { echo "vm-test.sh: no $kdir/$kimage" >&2; exit 2; }
else
	kdir=$("$HERE/check/kdir.sh" "$series" $karch)
fi
[ "$series" = 6.1 ] || BUILD=$BUILD/$series
# where the sources are copied and built (UNCORE_VM_SHARED_SRC)
SRCB=$BUILD
if [ -n "${UNCORE_VM_SHARED_SRC:-}" ] && [ -z "$covdir" ]; then
	SRCB=$UNCORE_VM_SHARED_SRC/$arch-$series${ktree:+-tree-$(echo "$kdir" | md5sum | cut -c1-8)}
fi

# The upstream drivers the twins harness builds (tools/testing/twins/), as
# paths under drivers/perf. The CoreSight PMU engine and its NVIDIA module
# find their CPUs and instance ids only on ACPI arm64: built for arm64 only.
TWIN_FILES="marvell_pem_pmu.c nvidia_t410_cmem_latency_pmu.c nvidia_t410_c2c_pmu.c
	marvell_cn10k_ddr_pmu.c marvell_cn10k_tad_pmu.c"
[ "$arch" != arm64 ] || TWIN_FILES="$TWIN_FILES arm_cspmu/arm_cspmu.c \
	arm_cspmu/nvidia_cspmu.c arm_cspmu/arm_cspmu.h"
rm -rf "$BUILD/modules" "$BUILD/tests" "$BUILD/fw" "$BUILD/debug-tests" "$BUILD/faults-tests"
mkdir -p "$BUILD/modules" "$BUILD/tests/lib" "$BUILD/fw"

# Build in a private copy of the sources, so a build in the work tree (or
# for another kernel) at the same time cannot mix into the guest's modules.
# Files are compared by content and a changed one gets the time of the
# copy, not its own: one build directory used by several checkouts (a
# file older than the object another checkout built) still rebuilds
# every changed file, and an unchanged one is left alone.
echo "vm-test: building modules against $kdir" >&2
t_build=$SECONDS
mkdir -p "$SRCB"
exec {srclock}>"$SRCB/.lock"
flock "$srclock"
# make check's static checks build in the work tree beside the boots:
# kbuild's temporary directories (.tmp_<pid>/) are left out, and another
# file of that build gone by the time rsync reaches it is its status 24.
mkdir -p "$SRCB/src"
st=0
git -C "$REPO" ls-files -co --exclude-standard -z | grep -zv '^\.tmp_' |
	rsync -rlp --checksum --delete --from0 --files-from=- "$REPO/" "$SRCB/src/" ||
	st=$?
[ "$st" -eq 0 ] || [ "$st" -eq 24 ] || exit "$st"
# The upstream twins (tools/testing/twins/README.md), from the tree's own
# linux-source, linked into the private copy only: on kernels that carry
# them all (the newest series).
twins=()
rm -rf "$SRCB/src/tools/testing/twins/upstream"
if [ -f "$kdir/source/drivers/perf/nvidia_t410_c2c_pmu.c" ]; then
	mkdir -p "$SRCB/src/tools/testing/twins/upstream"
	for f in $TWIN_FILES; do
		# sources become twin_<name>.c; headers keep their name, for
		# the sources' own #include "..."
		case $f in
		*.c)	to=twin_${f##*/} ;;
		*)	to=${f##*/} ;;
		esac
		ln -s "$kdir/source/drivers/perf/$f" \
			"$SRCB/src/tools/testing/twins/upstream/$to"
	done
	twins=(UNCORE_TWINS=1)
fi
# counts of an earlier boot in this build directory must not mix in
find "$SRCB/src" -name '*.gcda' -delete
make -C "$SRCB/src" KDIR="$kdir" ${kmake[@]+"${kmake[@]}"} COMPILE_TEST=1 \
	${twins[@]+"${twins[@]}"} ${gcov[@]+"${gcov[@]}"} modules > "$SRCB/modules.log" 2>&1 || {
	cat "$SRCB/modules.log" >&2
	exit 1
}
find "$SRCB/src/drivers" "$SRCB/src/tools/testing/sim" "$SRCB/src/tools/testing/twins" \
	-name '*.ko' -exec cp {} "$BUILD/modules/" \;

t_build=$((SECONDS - t_build)) t_image=$SECONDS
"$SRCB/src/tools/testing/sim/gen.sh" "$firmware" "$BUILD/fw" >&2
exec {srclock}>&-
tables=()
for t in "$BUILD/fw"/*.aml "$BUILD/fw"/*.dat; do
	[ -f "$t" ] && tables+=(--acpitable "$t")
done
# arm64: 6.1's initrd table upgrade refuses APMT, so the simulator loads it
# from /lib/firmware and hands it to the helper layer (apmt= parameter).
# A firmware with apmt_backend=yes has its APMT handed over so on x86
# too (its tests load malformed tables that way).
files=() append=
if [ "$arch" = arm64 ] || [ "$fw_apmt_backend" = yes ]; then
	tables=()
	for t in "$BUILD/fw"/*.aml "$BUILD/fw"/*.dat; do
		case ${t##*/} in
		apmt-*)	continue ;;
		*.dat)	[ "$arch" = arm64 ] && continue ;;
		esac
		[ -f "$t" ] && tables+=(--acpitable "$t")
	done
	rm -rf "$BUILD/files"
	mkdir -p "$BUILD/files/lib/firmware/uncore-sim"
	for t in "$BUILD/fw"/apmt-*.dat; do
		[ -f "$t" ] || continue
		cp "$t" "$BUILD/files/lib/firmware/uncore-sim/"
		append="uncore_sim.apmt=uncore-sim/${t##*/}"
	done
	files=(--extra-files "$BUILD/files")
fi
# Guest tests: the scripts, their library and its static helpers.
# The default firmware runs tests/*; a firmware runs tests/firmware/<firmware>/*;
# every boot runs the simulator's firmware check (sim/tests/) first.
tdir=$HERE/tests
[ "$firmware" = default ] || tdir=$HERE/tests/firmware/$firmware
# Firmware only one guest can have names that guest (firmware.conf arch=).
# Coverage boots are x86 only (the gcov kernel is an x86 one): there an
# arm64-only firmware boots on x86, its tests being the same; only what it
# compares with mainline's arm64-only drivers (the twins) stays on arm64.
# So do release boots (--release): the release suite asks what each
# release's perf makes of the PMUs, which the guest's architecture does
# not change, and make check boots each release on x86.
if [ -n "$fw_arch" ] && [ "$fw_arch" != "$arch" ] &&
   ! { { [ -n "$covdir" ] || [ $release = 1 ]; } && [ "$arch" = x86_64 ]; }; then
	echo "vm-test.sh: firmware $firmware runs only on $fw_arch guests" >&2
	exit 2
fi
if [ $demo = 1 ]; then
	cp "$HERE/demo/"* "$BUILD/tests/"
else
	for t in "$tdir/"$only; do
		[ -f "$t" ] || continue
		# Tests are the executables; a .sh that is not would silently not run.
		if [ ! -x "$t" ]; then
			case $t in
			*.sh)	echo "vm-test.sh: $t is not executable" >&2; exit 2 ;;
			esac
			continue
		fi
		# "# requires: FEATURE...": kernel features the test needs
		miss=
		for f in $(head -n 10 "$t" | sed -n 's/^# requires://p'); do
			case $f in
			function_graph)	opt=CONFIG_FUNCTION_GRAPH_TRACER ;;
			dynamic_debug)	opt=CONFIG_DYNAMIC_DEBUG ;;
			*)	echo "vm-test.sh: $t requires unknown feature $f" >&2; exit 2 ;;
			esac
			[ -z "$ktree" ] || grep -qx "$opt=y" "$kdir/.config" ||
				miss="$miss $f ($opt)"
		done
		if [ -n "$miss" ]; then
			echo "# vm-test: left out ${t##*/}: it requires$miss," \
			     "which $kdir/.config lacks"
			continue
		fi
		# NN-<what>-bench.sh (87-exporter-bench.sh): make bench's
		# only, minutes of measurement with nothing for make check
		case ${t##*/} in
		*-*-bench.sh) [ $bench = 1 ] || continue ;;
		esac
		# "# release: WHY": the test is in the release suite, which
		# a --release boot runs alone (with the simulator's check)
		if [ $release = 1 ] && ! head -n 10 "$t" | grep -q '^# release:'; then
			continue
		fi
		# "# arch-neutral: WHY": what the test checks is the same on
		# either guest. make check runs the default suite once, split
		# between its two default boots (UNCORE_VM_SPLIT): the
		# arch-neutral tests in the x86 one (UNCORE_VM_SPLIT=neutral),
		# the others in the arm64 one (=arch), the architecture the
		# drivers ship for, where CPU 0 can go offline and the twins
		# of the CoreSight PMUs build.
		neutral=0
		head -n 10 "$t" | grep -q '^# arch-neutral:' && neutral=1
		# The arm64 boot with a release's perf (--release-perf) is
		# that release's arm64 boot too: it keeps the arch-neutral
		# tests of the release suite.
		if [ "${UNCORE_VM_SPLIT:-}" = arch ] && [ $neutral = 1 ] &&
		   [ $relperf = 1 ] && head -n 10 "$t" | grep -q '^# release:'; then
			neutral=0
		fi
		if [ "${UNCORE_VM_SPLIT:-}" = arch ] && [ $neutral = 1 ]; then
			echo "# vm-test: left out ${t##*/}: arch-neutral, run in the" \
			     "x86 default boot"
			continue
		fi
		if [ "${UNCORE_VM_SPLIT:-}" = neutral ] && [ $neutral = 0 ]; then
			echo "# vm-test: left out ${t##*/}: run in the arm64 default boot"
			continue
		fi
		cp "$t" "$BUILD/tests/"
	done
	# The twins tests, where the twins were built. In a test's head (the
	# comment block up to the first empty line), "# twins: MODULE..."
	# names the twin modules it loads, and "# firmware: FIRMWARE..." the
	# firmware it runs on (without it, the default). A test whose twins
	# this build lacks is left out, and says so.
	for t in "$HERE/twins/tests/"$only; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		fw=$(sed -n '1,/^$/s/^# firmware://p' "$t")
		echo " ${fw:-default} " | grep -q " $firmware " || continue
		# the twins' bench (and its timing) is make bench's
		case ${t##*/} in
		*-bench*.sh) [ $bench = 1 ] || continue ;;
		esac
		# not in the release suite: the twins compare drivers, not perfs
		[ $release = 0 ] || continue
		if [ "${UNCORE_VM_SPLIT:-}" = neutral ]; then
			echo "# vm-test: left out ${t##*/}: run in the arm64 default boot"
			continue
		fi
		if [ ${#twins[@]} -eq 0 ]; then
			echo "# vm-test: left out ${t##*/}: $kdir/source has no" \
			     "upstream twins (the newest series of check/kernels.conf has)"
			continue
		fi
		miss=
		for m in $(sed -n '1,/^$/s/^# twins://p' "$t"); do
			[ -f "$BUILD/modules/$m.ko" ] || miss="$miss $m"
		done
		if [ -n "$miss" ]; then
			echo "# vm-test: left out ${t##*/}: this build has no$miss" \
			     "(TWIN_FILES above: which architectures build each twin)"
			continue
		fi
		cp "$t" "$BUILD/tests/"
		cp "$HERE/twins/tests/twins.sh" "$BUILD/tests/lib/"
		cp "$HERE/twins/known-differences" "$BUILD/tests/lib/twins-known"
	done
	# The simulator's own check of the firmware, in every boot.
	cp "$HERE/sim/tests/"*.sh "$BUILD/tests/"
	# The firmware as generated, for tests that compare what booted.
	mkdir -p "$BUILD/tests/fw"
	cp "$BUILD/fw/"*.aml "$BUILD/fw/"*.dat "$BUILD/tests/fw/" 2>/dev/null || true
fi
cp "$HERE/tests/lib/"*.sh "$BUILD/tests/lib/"
cp "$REPO/tools/uncore-metrics/uncore-metrics" "$BUILD/tests/lib/"
# its packaged settings (the service's interval)
cp "$REPO/packaging/default/uncore-metrics" "$BUILD/tests/lib/uncore-metrics.default"
# The operators' documents, whose example commands tests run verbatim.
cp "$REPO/Documentation/admin-guide/perf/"*.rst "$BUILD/tests/lib/"
cp "$REPO/Documentation/admin-guide/uncore-pmu-install.rst" "$BUILD/tests/lib/"
for c in "$HERE/tests/progs/"*.c; do
	t=$(basename "$c" .c)
	$cc -static -O2 -Wall -o "$BUILD/tests/lib/$t" "$c"
done
# The exporter daemon, for the guest's architecture (85-exporter.sh and
# the firmwares' metrics tests). On arm64, the architecture it ships for,
# the packaged binary itself: make deb cross-builds uncore-pmu-tools for
# arm64 as a fleet installs it (dynamic, with dpkg's hardening), and the
# guest runs it on its own C library. On x86, and in an arm64 release
# boot, a static build: a release's C library may be older than the one
# the package is built against (Debian 11's 2.31; the package needs
# 2.34, and its dependency keeps it off such a release), and 84-guides.sh
# runs the daemon beside the guides' examples in every release.
if [ "$arch" = arm64 ] && [ $release = 1 ]; then
	$cc -static -O2 -Wall -Wextra -Werror \
		-o "$BUILD/tests/lib/uncore-metrics-exporter" \
		"$REPO"/tools/uncore-exporter/{uncore-metrics-exporter,uxp_parse,uxp_vocab}.c
elif [ "$arch" = arm64 ]; then
	if ! make -s -C "$REPO" deb DEB_ARCH=arm64 DEB_OUT="$BUILD/deb" \
		>"$BUILD/deb.log" 2>&1 ||
	   ! dpkg-deb -x "$BUILD"/deb/uncore-pmu-tools_*_arm64.deb "$BUILD/deb/root"; then
		tail -n 30 "$BUILD/deb.log" >&2
		echo "vm-test.sh: make deb DEB_ARCH=arm64 failed" >&2
		exit 1
	fi
	cp "$BUILD/deb/root/usr/sbin/uncore-metrics-exporter" "$BUILD/tests/lib/"
else
	$cc -static -O2 -Wall -Wextra -Werror -o "$BUILD/tests/lib/uncore-metrics-exporter" \
		"$REPO"/tools/uncore-exporter/{uncore-metrics-exporter,uxp_parse,uxp_vocab}.c
fi
# Bounds and seed of the fuzzer test, when the caller sets them.
for v in UNCORE_FUZZ_SEED UNCORE_FUZZ_ITER UNCORE_FUZZ_TIME; do
	[ -z "${!v:-}" ] || echo "$v=${!v}"
done > "$BUILD/tests/lib/fuzz.conf"
# perf's own all-PMU test in 90-all-pmu.sh, unless the caller (vm-all.sh)
# leaves it to another boot: UNCORE_PERF_ALL_PMU_TEST=0.
echo "PERF_ALL_PMU_TEST=${UNCORE_PERF_ALL_PMU_TEST:-1}" > "$BUILD/tests/lib/suite.conf"
# The bench's timing part runs in make bench only.
echo "BENCH_TIMING=$bench" > "$BUILD/tests/lib/bench.conf"

tests=(--tests "$BUILD/tests")
if [ -n "$extra" ]; then
	case $extra in
	/*)	;;
	*)	extra=$REPO/$extra ;;
	esac
	[ -d "$extra" ] || { echo "vm-test.sh: no directory $extra" >&2; exit 2; }
	tests+=(--tests "$extra")
fi
# On a kernel with failslab, the faults firmware's boot loads every module
# with each allocation of its load failing in turn (tests/faults/), after
# the other tests.
rm -rf "$BUILD/faults-tests"
# Not on a KASAN kernel (the debug flavour): its loads are ten times
# slower, and the 2,500 or so failing loads would take hours there.
if [ $demo = 0 ] && [ "$firmware" = faults ] &&
   grep -qx 'CONFIG_FAILSLAB=y' "$kdir/.config" 2>/dev/null &&
   ! grep -qx 'CONFIG_KASAN=y' "$kdir/.config"; then
	mkdir -p "$BUILD/faults-tests/lib"
	cp "$HERE/tests/faults/"* "$BUILD/faults-tests/"
	cp "$HERE/tests/lib/lib.sh" "$BUILD/tests/lib/failnth_insmod" "$BUILD/faults-tests/lib/"
	tests+=(--tests "$BUILD/faults-tests")
fi
# A kernel with kmemleak ends each boot with the leak scan (tests/debug/).
if [ $demo = 0 ] && grep -qx 'CONFIG_DEBUG_KMEMLEAK=y' "$kdir/.config" 2>/dev/null; then
	mkdir -p "$BUILD/debug-tests/lib"
	cp "$HERE/tests/debug/"* "$BUILD/debug-tests/"
	cp "$HERE/tests/lib/lib.sh" "$BUILD/debug-tests/lib/"
	tests+=(--tests "$BUILD/debug-tests")
fi
# Coverage: the gcov dump, the very last test.
rm -rf "$BUILD/coverage-tests"
if [ $demo = 0 ] && [ -n "$covdir" ]; then
	mkdir -p "$BUILD/coverage-tests/lib"
	cp "$HERE/tests/coverage/"* "$BUILD/coverage-tests/"
	cp "$HERE/tests/lib/lib.sh" "$BUILD/coverage-tests/lib/"
	tests+=(--tests "$BUILD/coverage-tests")
fi

# The load order: modules.manifest's, the simulator (the hardware) after
# the helper layer it uses and before the drivers.
order="$("$REPO/scripts/manifest.sh" modules layer | tr '\n' ' ')uncore_sim"
order="$order $("$REPO/scripts/manifest.sh" modules drivers | tr '\n' ' ')"
order=${order% }
# The arm64 guest is slower: each perf run costs more under TCG, and perf's
# all-PMU test (when it runs there) also walks the CPU PMU's events. The limits catch a
# hang, not slowness: the x86 default boot takes 8-10 minutes alone on two
# cores and over 15 beside other VMs, and 90-all-pmu.sh runs perf about
# 310 times, 1-2 s each beside another VM (its 600 s limit was too close).
# --timeout-scale stretches both for slow (debug) kernels.
if [ "$arch" = arm64 ]; then
	tmo=(--test-timeout $((1200 * tscale)))
	runargs+=(--timeout $((2400 * tscale)))
else
	tmo=(--test-timeout $((1200 * tscale)))
	runargs+=(--timeout $((2400 * tscale)))
fi
# A kernel with 16 KiB pages needs a CPU with that translation granule:
# the default arm64 model (cortex-a57) has none, neoverse-n1 has it.
case $series in
*-16k)	runargs+=(--cpu neoverse-n1) ;;
esac
# A boot whose kernel goes silent this long before init is booted again
# (run.sh --boot-stall); a debug kernel's early boot is slower.
runargs+=(--boot-stall $((240 + 60 * tscale)))
if [ -n "$ktree" ]; then
	kernel=$kdir/$kimage
elif [ "$series" != 6.1 ] || [ "$arch" = arm64 ]; then
	kernel=$("$HERE/vm/kernel.sh" --series "$series" --arch "$arch")
else
	kernel=$("$HERE/vm/kernel.sh" "$kdir")
fi
# arm64: the results port's virtio modules come from the image's package
# (a self-built tree, vm/kernel-64k.sh's, builds them in)
bootmods=()
if [ "$arch" = arm64 ] && [ -n "$ktree" ]; then
	bootmods=(--boot-modules none)
elif [ "$arch" = arm64 ]; then
	bootmods=(--boot-modules "$(dirname "$(dirname "$kernel")")/modules")
fi
"$HERE/vm/initramfs.sh" "$BUILD/initrd.gz" --arch "$arch" --modules "$BUILD/modules" \
	--order "$order" "${tests[@]}" ${files[@]+"${files[@]}"} "${tmo[@]}" \
	${bootmods[@]+"${bootmods[@]}"} ${userland[@]+"${userland[@]}"} >&2

# where a boot's time goes before QEMU: whoever trims make check reads it
echo "# vm-test: $arch/$firmware: modules built in $t_build s," \
     "firmware tables and initramfs in $((SECONDS - t_image)) s" >&2

append="uncore_sim.topology=$firmware${append:+ $append}"
# A firmware may need more on the kernel command line (module parameters).
[ -z "$fw_append" ] || append="$append $fw_append"
# A slow (debug) kernel on a loaded host may miss the boot-time check that
# the timer interrupt arrives through the IO-APIC, and panic. With 5-level
# paging (TCG's max CPU has LA57), an interrupt while identify_cpu() has
# cleared the boot CPU's feature bits makes KASAN see the direct map as
# unshadowed: a false "wild-memory-access" that also turns lockdep off.
# (Under QEMU 7.2's multi-threaded TCG a debug-kernel boot hung with CPU 0
# idle for good from early boot, its timer never firing: what a lost
# wake-up of a halted vCPU would do. Every boot now runs its vCPUs in one
# host thread, vm/run.sh.)
if [ -n "$ktree" ] && [ "$arch" = x86_64 ]; then
	append="$append no_timer_check no5lvl"
fi
trap - EXIT
if [ $demo = 0 ] && [ $bench = 0 ] && [ -n "$covdir" ]; then
	st=0
	"$HERE/vm/run.sh" --kernel "$kernel" --initrd "$BUILD/initrd.gz" \
		"${tables[@]}" --append "$append" --log "$BUILD/console.log" --arch "$arch" \
		"${runargs[@]}" || st=$?
	if ! err=$("$HERE/coverage/collect.sh" "$BUILD/console.log" "$BUILD/src" \
			"$covdir/$arch-$firmware.info" 2>&1); then
		echo "$err" | sed 's/^/# /'
		echo "not ok - vm: coverage data of $arch/$firmware: ${err##*$'\n'}"
		[ -z "${UNCORE_TAP_STATE:-}" ] || state_add "$UNCORE_TAP_STATE" 0 1
		st=1
	fi
	exit $st
fi
if [ $demo = 0 ] && [ $bench = 0 ]; then
	exec "$HERE/vm/run.sh" --kernel "$kernel" --initrd "$BUILD/initrd.gz" \
		"${tables[@]}" --append "$append" --log "$BUILD/console.log" --arch "$arch" \
		"${runargs[@]}"
fi

# make bench: the tables are the bench's "# " lines on the guest console.
if [ $bench = 1 ]; then
	st=0
	"$HERE/vm/run.sh" --kernel "$kernel" --initrd "$BUILD/initrd.gz" "${tables[@]}" \
		--append "$append" --log "$BUILD/console.log" --arch "$arch" \
		"${runargs[@]}" > "$BUILD/bench.tap" || st=$?
	# the bench's output in order (tables and checks), then what else the
	# VM reported and the summary
	# (87-bench.sh, and the twins' 87-twin-bench*.sh where they were built)
	bench_re='[0-9]*-[a-z0-9-]*bench[a-z0-9-]*\.sh: '
	tr -d '\r' < "$BUILD/console.log" | sed -n "s/^$bench_re//p"
	grep -v -e "^\\(not \\)\\{0,1\\}ok [0-9]* - $bench_re" -e "^# $bench_re" "$BUILD/bench.tap"
	exit $st
fi

# The demo's own output is on the guest console: show it after the run.
st=0
"$HERE/vm/run.sh" --kernel "$kernel" --initrd "$BUILD/initrd.gz" "${tables[@]}" \
	--append "$append" --log "$BUILD/console.log" --arch "$arch" > "$BUILD/demo.tap" || st=$?
tr -d '\r' < "$BUILD/console.log" | sed -n 's/^[0-9]*-demo\.sh: //p'
[ $st = 0 ] || cat "$BUILD/demo.tap"
exit $st
