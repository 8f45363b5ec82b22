# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# build-arm64-S, sourced by run.sh: cross-build every module for arm64
# (ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) at W=1 against the arm64
# tree of series S ("kdir.sh S arm64": Debian's arm64 headers for 6.1, a
# tree prepared from Debian's source and arm64 configuration otherwise):
#
#  1. the shipped configuration: no COMPILE_TEST, as on an arm64 server; the
#     helper layer and every driver of modules.manifest must be built as AArch64 objects,
#     with zero compiler or modpost warnings;
#  2. the test configuration the arm64 guest loads: COMPILE_TEST=1 adds the
#     simulator module, again AArch64 and without a warning.
# One TAP result. sparse-arm64-S is run.sh's check_sparse over the same
# build (C=2, the sparse the tree accepts: sparse.sh): no report about our
# files; right after build-arm64-S only sparse runs.

ARM64_MODS=$("$REPO/scripts/manifest.sh" modules | sed 's|^|drivers/perf/|')
ARM64_SIM="tools/testing/sim/uncore_sim tools/testing/twins/twin_shim"

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

# check_build_arm64 SERIES
check_build_arm64()
{
	local s=$1 log=$TMP/build-arm64-$1.log out=$TMP/build-arm64-$1.out rc=0
	local n

	# shellcheck disable=SC2086 # word splitting wanted
	n=$(echo $ARM64_MODS $ARM64_SIM | wc -w)
	: >"$out"
	# shellcheck disable=SC2086 # word splitting wanted
	{
		kbuild arm64 "$s" "$log" W=1 &&
		arm64_kos "$out" $ARM64_MODS &&
		kbuild --again arm64 "$s" "$log" W=1 COMPILE_TEST=1 &&
		arm64_kos "$out" $ARM64_SIM
	} || rc=1
	grep -iE '(warning|error):' "$log" >>"$out"
	[ -s "$out" ] && rc=1
	[ $rc -eq 0 ] || tail -n 40 "$log" >>"$out"
	tap_result $rc "build arm64 $s W=1 (cross, $n modules)" "$out"
}
