# SPDX-License-Identifier: GPL-2.0
#
# build-arm64, sourced by run.sh: cross-build every module for arm64 against
# Debian's arm64 6.1 headers (arm64.sh kdir) at W=1, then sparse at C=2.
#
#  1. the shipped configuration: no COMPILE_TEST, as on an arm64 server; the
#     helper layer and all six drivers must be built, with zero compiler or
#     modpost warnings;
#  2. the test configuration the arm64 guest loads: COMPILE_TEST=1 adds the
#     simulator module, again without a warning;
#  3. sparse (C=2) over all of it: no warning about our files.
# One TAP result for 1+2, one for 3.

ARM64_MAKE="ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-"
ARM64_MODS="drivers/perf/uncore_pmu drivers/perf/marvell_pem_pmu
	drivers/perf/nvidia_t410_cmem_latency_pmu drivers/perf/nvidia_t410_c2c_pmu
	drivers/perf/nvidia_t410_ucf_pmu drivers/perf/nvidia_t410_pcie_pmu
	drivers/perf/nvidia_t410_pcie_tgt_pmu"

# arm64_make LOG ARGS...: make in the repository for arm64, output to LOG
arm64_make()
{
	local log=$1
	shift

	# shellcheck disable=SC2086 # word splitting wanted
	make -C "$REPO" -j"$JOBS" KDIR="$ARM64_KDIR" $ARM64_MAKE "$@" >>"$log" 2>&1
}

# arm64_kos OUT MODULES...: each module must be an aarch64 object
arm64_kos()
{
	local out=$1 m
	shift

	for m in "$@"; do
		if [ ! -f "$REPO/$m.ko" ]; then
			echo "$m.ko was not built" >>"$out"
		elif ! readelf -h "$REPO/$m.ko" | grep -q 'Machine:.*AArch64'; then
			echo "$m.ko is not an AArch64 object" >>"$out"
		fi
	done
}

check_build_arm64()
{
	local log=$TMP/build-arm64.log out=$TMP/build-arm64.out rc=0
	local slog=$TMP/sparse-arm64.log sout=$TMP/sparse-arm64.out

	ARM64_KDIR=$("$HERE/arm64.sh" kdir 2>"$out") || {
		tap_not_ok "build arm64 W=1" "$out"
		tap_not_ok "sparse C=2 (arm64)" "$out"
		return
	}
	: >"$out"
	# shellcheck disable=SC2086 # word splitting wanted
	{
		arm64_make "$log" clean &&
		arm64_make "$log" W=1 modules &&
		arm64_kos "$out" $ARM64_MODS &&
		arm64_make "$log" W=1 COMPILE_TEST=1 modules &&
		arm64_kos "$out" tools/testing/sim/uncore_sim
	} || rc=1
	grep -iE '(warning|error):' "$log" >>"$out"
	[ -s "$out" ] && rc=1
	[ $rc -eq 0 ] || tail -n 40 "$log" >>"$out"
	tap_result $rc "build arm64 W=1 (cross, 6.1 arm64 headers, 8 modules)" "$out"

	rc=0
	: >"$sout"
	{
		arm64_make "$slog" clean &&
		arm64_make "$slog" C=2 COMPILE_TEST=1 modules
	} || rc=1
	sparse_result "$slog" "$sout" "sparse C=2 (arm64)" $rc
}
