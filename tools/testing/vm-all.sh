#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every VM boot of make check: the x86 and arm64 guests with the default
# firmware on the newest kernel series of check/kernels.conf, and the x86
# guest on Debian's 6.1 (or the newest, where a firmware asks) with each
# firmware (tools/testing/tests/firmware/*),
# run by UNCORE_VM_JOBS workers at once (default 2: a TCG guest keeps about
# one host CPU busy). Each worker has a directory of its own (worker-<n>
# under the cache) and the modules of an architecture and series are
# built once for all (shared/); each boot's output is kept and printed
# whole, in job order, once it is done. The default suite on 6.1 is make vm-test's
# default, not make check's: the other firmware keep 6.1 booted in make check,
# and every check of the default suite runs once on the newest kernel: the
# arch-neutral ones in the x86 boot, the others in the arm64 boot (the
# architecture the drivers ship for, where CPU 0 can go offline).
#
# Usage: vm-all.sh [--kernel-tree DIR --timeout-scale N]
#   UNCORE_TAP_STATE: counts of every boot are added to this file.
#   --kernel-tree, --timeout-scale: passed to every vm-test.sh (make
#   check-debug); then x86 boots only, the default firmware and the
#   other firmware, in build directories
#   debug-<n> under the cache, so a make check may run beside it.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib/host.sh
. "$HERE/lib/host.sh"
# shellcheck source=lib/fwconf.sh
. "$HERE/lib/fwconf.sh"
REPO=$(cd "$HERE/../.." && pwd)
JOBS=${UNCORE_VM_JOBS:-2}
VMARGS=()
# Build directories outside the repository: make check's static checks run
# beside the boots, and their "make clean" in the repository (kbuild M=)
# would delete build products (.mod files) in any directory under it.
# Kept per clone in the cache, so a later run builds incrementally.
BUILDROOT=${UNCORE_CACHE:-/var/cache/uncore-pmu}/vm-build/$(echo "$REPO" | md5sum | cut -c1-12)
BUILDPFX=$BUILDROOT/worker-
# One build of the modules per architecture and series, for every worker
# (vm-test.sh): a second worker's boot of the same kernel waits for the
# first one's build instead of doing it again (two minutes of CPU for
# arm64, beside everything else).
export UNCORE_VM_SHARED_SRC=$BUILDROOT/shared
while [ $# -gt 0 ]; do
	case $1 in
	--kernel-tree|--timeout-scale)
		[ $# -ge 2 ] || { echo "vm-all.sh: $1 needs a value" >&2; exit 2; }
		VMARGS+=("$1" "$2")
		BUILDPFX=$BUILDROOT/debug-
		UNCORE_VM_SHARED_SRC=$BUILDROOT/debug-shared
		shift 2 ;;
	*)	echo "vm-all.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# vm_time JOB SECONDS [CPUFILE]: how long a boot (or the preparation)
# took, for all.sh's table (UNCORE_TIMING), with the CPU seconds of the
# calling shell's waited-for children if CPUFILE is given (scratch for
# bash's times, which must run in that shell); one short line written at
# once, so two workers' lines do not mix
vm_time() {
	local cpu=

	[ -n "${UNCORE_TIMING:-}" ] || return 0
	[ -z "${3:-}" ] || cpu=$(awk 'NR == 2 { for (i = 1; i <= NF; i++) {
		split($i, p, "m"); t += p[1] * 60 + p[2] } }
		END { printf "\t%d", t }' "$3")
	printf '%d\tboot: %s%s\n' "$2" "$1" "$cpu" >>"$UNCORE_TIMING"
}

# Longest first, so the workers end close together: "ARCH FIRMWARE SERIES".
NEWEST=$("$HERE/check/kdir.sh" --list | tail -n 1)
# the series of the release boots (Debian 12's 6.1 is every other boot's)
RELEASES="5.10 6.12 $NEWEST"
jobs=()
if [ ${#VMARGS[@]} -eq 0 ]; then
	jobs+=("arm64 default $NEWEST" "x86_64 default $NEWEST")
	# the operator guest: Debian 12 with systemd, the packages (operator/)
	jobs+=("x86_64 operator 6.1")
	# Debian 11 on arm64, the architecture the drivers ship for: the
	# oldest kernel, with no APMT parser of its own and the virtio core
	# as modules (vm/kernel.sh), and bullseye's arm64 perf, the release
	# suite (about 6 minutes of a worker); 7.3's arm64 boot is the one
	# above, and 6.12 lies between them
	jobs+=("arm64 default 5.10 release")
	# Each Debian release as its operators run it: its kernel with its
	# own perf (check/release.sh), the release suite only (the tests
	# marked "# release:"); Debian 12 is the boots above. Each with the
	# default firmware, and with the odyssey one for its DDR PMUs, whose
	# hex suffixes with a letter are the wildcard table's rows of their
	# own (a minute's boot), and with the grace one for the Tegra241
	# guide's examples (its arm64 boot below has Debian 12's perf). Both
	# firmwares boot arm64 otherwise; the release suite asks what perf
	# makes of the PMUs, which the architecture does not change.
	for s in $RELEASES; do
		jobs+=("x86_64 default $s release" "x86_64 odyssey $s release"
		       "x86_64 grace $s release")
	done
else
	jobs+=("x86_64 default 6.1")
fi
# A firmware boots 6.1 unless its firmware.conf says kernel=newest (or
# names a series), on
# x86 unless it says arch=arm64 (lib/fwconf.sh):
# the firmware a twins test needs (# firmware: in
# tools/testing/twins/tests/), since only the newest series has the twins.
for v in "$HERE"/tests/firmware/*/; do
	s=6.1
	k=$(fw_conf "$v" kernel) && a=$(fw_conf "$v" arch) || exit 2
	[ "$k" != newest ] || [ ${#VMARGS[@]} -gt 0 ] || s=$NEWEST
	# a series of its own (7.3-rt: PREEMPT_RT); not with --kernel-tree
	case $k in
	newest|"") ;;
	*)	[ ${#VMARGS[@]} -gt 0 ] || s=$k ;;
	esac
	# operator/coexist.sh's alone (make check-64k)
	if [ "$k" = 64k ]; then
		echo "# vm-all: left out $(basename "$v"): operator/coexist.sh boots it"
		continue
	fi
	# the guest it names, if one (default x86_64)
	a=${a:-x86_64}
	# the debug kernel is an x86 one: an arm64-only firmware cannot boot
	# it, but for coverage it boots as an x86 guest (vm-test.sh)
	if [ ${#VMARGS[@]} -gt 0 ] && [ "$a" != x86_64 ] &&
	   [ -n "${UNCORE_COVERAGE_DIR:-}" ]; then
		a=x86_64
	elif [ ${#VMARGS[@]} -gt 0 ] && [ "$a" != x86_64 ]; then
		echo "# vm-all: left out $(basename "$v"): it boots $a guests only," \
		     "and --kernel-tree is an x86 kernel"
		continue
	fi
	jobs+=("$a $(basename "$v") $s")
done

# Downloads and caches, once, before workers could race for them.
START=$SECONDS t0=$SECONDS
{ [ -n "${UNCORE_SKIP_DEPS:-}" ] || "$HERE/check/deps.sh" >&2; } &&
	"$HERE/vm/kernel.sh" "$("$HERE/check/kdir.sh" 6.1)" >/dev/null ||
	echo "vm-all: preparing the x86 guest failed; the boots will say why" >&2
# The operator guest's Debian root (operator/root.sh), made once and kept:
# on a fresh machine that took a quarter of an hour, most of it downloads
# and dpkg's writes, not CPU. Begun here, beside the other preparations
# and the first boots, it is there when the operator boot asks (or that
# boot waits on root.sh's lock for the rest, and makes it itself if this
# one failed: its output is then the one shown).
rootpid=
if [ ${#VMARGS[@]} -eq 0 ]; then
	rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$("$HERE/check/kdir.sh" 6.1)/include/generated/utsrelease.h" 2>/dev/null)
	if [ -n "$rel" ]; then
		"$HERE/operator/root.sh" "$rel" >"$TMP/root.out" 2>&1 &
		rootpid=$!
	fi
fi
[ ${#VMARGS[@]} -gt 0 ] || "$HERE/check/arm64.sh" rootfs >/dev/null ||
	echo "vm-all: preparing the arm64 guest failed; its boot will say why" >&2
if [ ${#VMARGS[@]} -eq 0 ]; then
	for a in x86_64:x86 arm64:arm64; do
		{ "$HERE/check/kdir.sh" "$NEWEST" "${a#*:}" &&
		  "$HERE/vm/kernel.sh" --series "$NEWEST" --arch "${a%:*}"; } >/dev/null ||
			echo "vm-all: preparing the ${a%:*} $NEWEST guest failed;" \
			     "its boot will say why" >&2
	done
	# the release boots' kernels and perfs
	for s in $RELEASES; do
		{ "$HERE/vm/kernel.sh" --series "$s" --arch x86_64 &&
		  "$HERE/check/release.sh" "$s" x86_64; } >/dev/null ||
			echo "vm-all: preparing the $s release guest failed;" \
			     "its boot will say why" >&2
	done
	"$HERE/check/release.sh" "$NEWEST" arm64 >/dev/null ||
		echo "vm-all: preparing the arm64 guest's perf failed; its boot will say why" >&2
fi

times >"$TMP/cpu"
vm_time "preparing the guests (kernels, roots)" $((SECONDS - t0)) "$TMP/cpu"

# run_job N "ARCH FIRMWARE SERIES [release]": one boot, in a free worker
# slot ("release": with the release's perf and suite, vm-test.sh --release)
run_job() {
	local n=$1 arch firmware series slot fd split all_pmu mode rel=()

	read -r arch firmware series mode <<<"$2"
	[ "${mode:-}" != release ] || rel=(--release)
	# the arm64 default boot runs the newest release's own perf
	[ "$arch $firmware $series ${mode:-} ${VMARGS_S:-}" != "arm64 default $NEWEST  " ] ||
		rel=(--release-perf)
	local t0=$SECONDS

	for slot in $(seq 1 "$JOBS"); do
		exec {fd}>"$TMP/slot$slot"
		flock -n "$fd" && break
		exec {fd}>&-
	done
	# perf's own all-PMU test runs `perf stat -e EVENT true` once for
	# each of some 350 events, without -a, so an uncore PMU fails it only
	# if perf does not print the event's name (vm/README.md);
	# 90-all-pmu.sh's loop over our events with -a covers every one of
	# ours and counts. With Debian 12's perf, beside the other boots and
	# the static checks, it cost 830 s of the x86 default boot (750 s in
	# the arm64 one), the longest piece of make check: make check leaves
	# that one to make vm-test and make check-debug, which run it. The
	# release boots run it, as an operator's perf test of that release
	# would: about 60 s with 6.12's perf, 45 s with 7.3's (5.10 has none).
	# make coverage leaves it out too: its per-task opens of our events
	# are refused where the fuzzer's are (95-fuzz.sh), and it is most of
	# the debug default boot's time.
	all_pmu=1
	[ "$firmware" != default ] || [ -n "$VMARGS_S" ] || [ "${mode:-}" = release ] ||
		all_pmu=0
	[ -z "${UNCORE_COVERAGE_DIR:-}" ] || all_pmu=0
	if [ "$firmware" = operator ]; then
		UNCORE_VM_BUILD="$BUILDPFX$slot" UNCORE_TAP_STATE="$TMP/state$n" \
			"$HERE/operator/run.sh" --no-summary >"$TMP/out$n" 2>&1
		echo "vm-all: operator guest done ($(grep -c '^ok' "$TMP/out$n") ok," \
		     "$(grep -c '^not ok' "$TMP/out$n") not ok)" >&2
		times >"$TMP/cpu$n"
		vm_time "$arch $firmware $series" $((SECONDS - t0)) "$TMP/cpu$n"
		return
	fi
	# The default suite runs once, split between the two default boots
	# of the newest kernel (vm-test.sh, UNCORE_VM_SPLIT): the
	# arch-neutral tests on x86, the others on arm64. Both ran
	# everything before: 9 minutes of a worker, one boot's tests twice.
	# (The arm64 one has the release's perf, --release-perf, and keeps
	# the release suite's arch-neutral tests: vm-test.sh.)
	split=
	if [ "$firmware" = default ] && [ -z "$VMARGS_S" ] && [ "${mode:-}" != release ]; then
		case $arch in
		arm64)	split=arch ;;
		*)	split=neutral ;;
		esac
	fi
	# shellcheck disable=SC2086 # VMARGS_S: the options, one word each
	UNCORE_VM_SPLIT=$split UNCORE_PERF_ALL_PMU_TEST=$all_pmu \
	UNCORE_VM_BUILD="$BUILDPFX$slot" UNCORE_TAP_STATE="$TMP/state$n" \
		"$HERE/vm-test.sh" --no-summary --arch "$arch" --firmware "$firmware" \
		--kernel "$series" ${rel[@]+"${rel[@]}"} $VMARGS_S \
		>"$TMP/out$n" 2>&1
	echo "vm-all: $arch/$firmware/$series${mode:+ $mode} done" \
	     "($(grep -c '^ok' "$TMP/out$n") ok, $(grep -c '^not ok' "$TMP/out$n") not ok)" >&2
	times >"$TMP/cpu$n"
	vm_time "$arch $firmware $series${mode:+ $mode}" $((SECONDS - t0)) "$TMP/cpu$n"
}
export -f vm_time
export -f run_job
VMARGS_S=${VMARGS[*]-}
export HERE REPO JOBS TMP BUILDPFX VMARGS_S NEWEST

for i in "${!jobs[@]}"; do
	printf '%s\t%s\n' "$i" "${jobs[$i]}"
done | xargs -P "$JOBS" -L 1 -d '\n' bash -c 'run_job "${1%%	*}" "${1#*	}"' _

[ -z "$rootpid" ] || wait "$rootpid"
pass=0 fail=0
for i in "${!jobs[@]}"; do
	echo "# ---- vm: ${jobs[$i]} ----"
	cat "$TMP/out$i" 2>/dev/null
	st=$(state_get "$TMP/state$i")
	[ -s "$TMP/state$i" ] || { echo "not ok - vm: ${jobs[$i]} reported nothing"; st="0 1"; }
	pass=$((pass + ${st% *}))
	fail=$((fail + ${st#* }))
done
[ -z "${UNCORE_TAP_STATE:-}" ] || state_add "$UNCORE_TAP_STATE" "$pass" "$fail"
times >"$TMP/cpu"
vm_time "all, wall clock ($JOBS at once)" $((SECONDS - START)) "$TMP/cpu"
[ "$fail" -eq 0 ]
