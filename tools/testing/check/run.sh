#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the repository, one TAP-ish line each, then the closing
# "N passed, N failed" line (see tap.sh).
#
# Usage: $0 [--no-summary] [CHECK...]
#   CHECK: build-S sparse-S (x86), build-arm64-S sparse-arm64-S (arm64 cross)
#          for each series S of "kdir.sh --list"; manifest (check/manifest.sh)
#          coccicheck checkpatch spdx
#          sim-selftest fuzz-native (libFuzzer targets, tools/testing/fuzz: corpus,
#          regressions, 20 s each) exporter (the exporter daemon on the host:
#          its unit tests and a fake sysfs of software PMUs, check/exporter.sh)
#          rcmap vm-runner perf-json docs metrics prometheus
#          (promtool: the rules, their unit tests, the dashboard) manpages, dkms (6.1 and
#          the newest series), rpm (make rpm: rpmlint, file lists, scriptlets),
#          packages (the .debs in a Debian 12 root, the RPMs' scriptlets there),
#          mutants (the list of make mutation, statically: mutation/run.sh --check);
#          modprobe (the modprobe.d file's coexistence rules under kmod, check/modprobe.sh);
#          build-arm64 (both arm64 6.1 checks)
#          (default: all).  --no-summary leaves the closing line to summary.sh;
#          set UNCORE_TAP_STATE to share the counts with it. --list prints
#          the default list.
#   UNCORE_SKIP_DEPS=1 skips deps.sh.
#
# build-S: W=1 COMPILE_TEST=1 build against the x86 tree of S (kdir.sh), no
# compiler or modpost warning. sparse-S: C=2 over the same build with the
# sparse that tree accepts (sparse.sh), no report about our files; right
# after build-S (the default order) only sparse runs, as C=2 checks every
# source whether compiled or not. The arm64 pair: build-arm64.sh.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
SERIES=$("$HERE/kdir.sh" --list | tr '\n' ' ')
ALL=
# An "-rt" series (PREEMPT_RT, kernels.conf) builds on x86 only, a
# "-16k" one (16 KiB pages) on arm64 only: sparse sees the same code as
# their base series'.
for s in $SERIES; do
	case $s in
	*-rt)	ALL="$ALL build-$s" ;;
	*-16k)	;;
	*)	ALL="$ALL build-$s sparse-$s" ;;
	esac
done
ALL="$ALL manifest coccicheck checkpatch spdx sim-selftest fuzz-native exporter rcmap vm-runner"
ALL="$ALL perf-json docs dkms"
ALL="$ALL metrics prometheus manpages rpm packages mutants modprobe"
# sparse on arm64 for the newest series only: the x86 runs cover every
# series' compatibility paths (the same preprocessed code but for the
# architecture's headers), and each arm64 run cost minutes of make check
for s in $SERIES; do
	case $s in *-rt) continue ;; esac
	ALL="$ALL build-arm64-$s"
done
ALL="$ALL sparse-arm64-$(echo $SERIES | awk '{ print $NF }')"
ALL=${ALL# }
JOBS=$(nproc)
# shellcheck source=tap.sh
. "$HERE/tap.sh"

# checkpatch --ignore lists per file type (none needed so far but one:
# tools/uncore-metrics/README.md cites an LKML message by the public
# archive that holds it, whose lore.kernel.org address is not known here)
CP_IGNORE_C=
CP_IGNORE_BUILD=
CP_IGNORE_SCRIPT=
CP_IGNORE_DOC=PREFER_LORE_ARCHIVE
# tools/testing/kstub/: user-space stand-ins for kernel headers, which
# re-create the kernel's own macros, typedefs and attribute spellings (its
# list.h and kconfig.h trip the same checks), and libFuzzer's entry point;
# their stand-ins drop arguments user space has no use for (a device, a
# namespace, GFP flags), which newer checkpatch calls MACRO_ARG_UNUSED
CP_IGNORE_KSTUB=MACRO_ARG_REUSE,MACRO_ARG_PRECEDENCE,COMPLEX_MACRO,NEW_TYPEDEFS,MACRO_ARG_UNUSED
CP_IGNORE_KSTUB=$CP_IGNORE_KSTUB,PREFER_DEFINED_ATTRIBUTE_MACRO,IS_ENABLED_CONFIG,EXPORT_SYMBOL
CP_IGNORE_KSTUB=$CP_IGNORE_KSTUB,CAMELCASE

# Semantic patches that cannot run with this spatch, "name.cocci" each,
# with the reason in a comment (none so far: the two OCaml ones need ocaml-nox).
COCCI_EXCLUDE=

summary=1
while [ $# -gt 0 ]; do
	case $1 in
	--no-summary)	summary=0; shift ;;
	-h|--help)	sed -n "4,21{s/^# \\{0,1\\}//;s|\\\$0|$0|;p}" "$0"; exit 0 ;;
	--list)		echo "$ALL"; exit 0 ;;
	*)		break ;;
	esac
done
CHECKS=${*:-$ALL}

# A make calling us must not leak its flags and variables into our builds.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
export LC_ALL=C

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Repository files (tracked or untracked, not ignored) of the given kind:
# "checkpatch" lists sources and scripts, "spdx" adds ASL, SmPL, dkms.conf,
# the packaged configuration files and packaging/rpm/ (spec, macros, rpmlint).
list_files()
{
	local f

	git -C "$REPO" ls-files -co --exclude-standard | sort -u |
	while read -r f; do
		[ -f "$REPO/$f" ] || continue
		case $f in
		*/fixtures/*|*.json|LICENSE|*/.gitignore|.gitignore|*.mod.c)
			continue ;;
		*.c|*.h|*.sh|*.awk|*.py|*.rst|*.md|Kbuild|*/Kbuild|Kconfig|\
		*/Kconfig|Makefile|*/Makefile)
			echo "$f"; continue ;;
		packaging/debian/copyright|packaging/debian/source/*)
			continue ;;	# DEP-5 licence statement; a format name
		*.asl|*.cocci|dkms.conf|modules.manifest|packaging/*)
			[ "$1" = spdx ] && echo "$f"; continue ;;
		esac
		# any other executable script
		[ -x "$REPO/$f" ] && [ "$(head -c2 "$REPO/$f")" = '#!' ] &&
			echo "$f"
	done
}

# What the last kbuild left in the repository: "ARCH TREE ARGS" of a build
# that succeeded, ARGS without C= and CHECK=; empty if unknown.
KBUILT=

# kbuild [--again] ARCH SERIES LOG ARGS...: build the modules with ARGS
# against the ARCH (x86, arm64) tree of SERIES, output to LOG. First "make
# clean", except with --again (build on top of the previous kbuild) and
# when the repository holds a build of the same tree and ARGS but for C=
# and CHECK= (a sparse check after the build).
kbuild()
{
	local again=0 arch ser log kdir key a
	local mk=()

	[ "$1" = --again ] && { again=1; shift; }
	arch=$1 ser=$2 log=$3
	shift 3
	kdir=$("$HERE/kdir.sh" "$ser" "$arch" 2>>"$log") || { KBUILT=; return 1; }
	[ "$arch" = arm64 ] && mk=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	key="$arch $kdir"
	for a; do
		case $a in C=*|CHECK=*) ;; *) key="$key $a" ;; esac
	done
	if [ $again -eq 0 ] && [ "$key" != "$KBUILT" ]; then
		KBUILT=
		make -C "$REPO" KDIR="$kdir" "${mk[@]}" "$@" clean >>"$log" 2>&1 ||
			return 1
	fi
	KBUILT=
	make -C "$REPO" -j"$JOBS" KDIR="$kdir" "${mk[@]}" "$@" modules >>"$log" 2>&1 ||
		return 1
	KBUILT=$key
}

# check_build SERIES: x86 COMPILE_TEST=1 build, zero warnings at W=1
# (compiler and modpost)
check_build()
{
	local log=$TMP/build-$1.log out=$TMP/build-$1.out rc=0

	kbuild x86 "$1" "$log" W=1 COMPILE_TEST=1 || rc=1
	grep -iE '(warning|error):' "$log" >"$out" && rc=1
	grep -q 'CC \[M\]' "$log" || { echo "nothing was compiled" >>"$out"; rc=1; }
	[ $rc -eq 0 ] || tail -n 40 "$log" >>"$out"
	tap_result $rc "build $1 x86 W=1" "$out"
}

# check_sparse ARCH SERIES: C=2 over the build of check_build (x86) or
# check_build_arm64 (build-arm64.sh), with the sparse the tree accepts
# (sparse.sh); no sparse report about our files
check_sparse()
{
	local arch=$1 s=$2 log=$TMP/sparse-$1-$2.log out=$TMP/sparse-$1-$2.out
	local name="sparse $2 x86 C=2" via='' kdir sp ver rc=0

	[ "$arch" = x86 ] || { name="sparse $arch $s C=2"; via="cross, "; }
	: >"$out"
	if ! kdir=$("$HERE/kdir.sh" "$s" "$arch" 2>"$TMP/sparse.err") ||
	   ! sp=$("$HERE/sparse.sh" "$kdir" 2>>"$TMP/sparse.err"); then
		cat "$TMP/sparse.err" >>"$out"
		tap_not_ok "$name${via:+ (cross)}" "$out"
		return
	fi
	cat "$TMP/sparse.err" >>"$log"
	ver=$("$sp" --version 2>/dev/null | cut -d' ' -f1)
	if [ "$sp" = "$(command -v sparse)" ]; then
		ver="host ${ver:-?}"
	else
		ver="sid ${ver:-?}"
	fi
	kbuild "$arch" "$s" "$log" W=1 COMPILE_TEST=1 C=2 CHECK="$sp" || rc=1
	# kbuild drops C=2 with this warning when its checker-valid.sh
	# refuses the sparse
	grep -E 'C=[0-9]+ specified, but .* not available' "$log" | sort -u >>"$out"
	sparse_result "$log" "$out" "$name ($via$ver)" $rc
}

# sparse_result LOG OUT DESC RC: the result of a C=2 build whose output is
# in LOG (RC non-zero if the build failed): sparse must have run and said
# nothing about a file of ours. OUT collects what is wrong.
sparse_result()
{
	local log=$1 out=$2 rc=$4 line f

	grep -q '^ *CHECK ' "$log" ||
		{ echo "sparse did not run (C=2 not forwarded?)" >>"$out"; rc=1; }
	grep -E '\.(c|h):[0-9]+:[0-9]+: (warning|error)' "$log" |
	while IFS= read -r line; do
		f=${line%%:*}
		case $f in
		"$REPO"/*)	echo "$line" ;;
		/*)		;;
		*)		[ -e "$REPO/$f" ] && echo "$line" ;;
		esac
	done >>"$out"
	grep -qE '\.(c|h):[0-9]+:[0-9]+: ' "$out" && rc=1
	[ $rc -eq 0 ] || tail -n 20 "$log" >>"$out"
	tap_result $rc "$3" "$out"
}

# cocci_one FILE.cocci: run one semantic patch as scripts/coccicheck does
# (report mode, its Options: and Requires: header lines); prints its reports,
# and a loud line if spatch itself failed.
cocci_one()
{
	local cocci=$1 name opt req files out err

	name=$(basename "$cocci")
	opt=$(grep "Options:" "$cocci" | cut -d: -f2)
	req=$(grep "Requires:" "$cocci" | cut -d: -f2 | tr -d ' ')
	if [ -n "$req" ] &&
	   ! printf '%s\n%s\n' "$req" "$SPATCH_VERSION" | sort -CV; then
		echo "$name: needs spatch $req, have $SPATCH_VERSION"
		return
	fi
	files=$COCCI_C
	case $opt in *--include-headers*) files="$files $COCCI_H" ;; esac
	out=$TMP/cocci/$name.out
	err=$TMP/cocci/$name.err
	# shellcheck disable=SC2086 # word splitting wanted
	if spatch -D report --no-show-diff --very-quiet --cocci-file "$cocci" \
		  $opt $COCCI_INC $files >"$out" 2>"$err"; then
		sed "s|^|$name: |" "$out"
	else
		echo "$name: SPATCH FAILED (exit $?):"
		sed "s|^|$name: |" "$out" "$err" | tail -n 15
	fi
}

# check_cocci: every semantic patch of linux-source-6.1 over our C files.
# Include paths mirror LINUXINCLUDE of an out-of-tree build against the
# installed 6.1 headers (srctree = the -common package, objtree = the -amd64
# one, which holds the generated headers): those are the headers the
# modules really build against and match the semantic patches' version.
check_cocci()
{
	local out=$TMP/cocci.out rc=0 src kdir srct f c

	src=$("$HERE/src61.sh" 2>"$TMP/src.err") &&
		kdir=$("$HERE/kdir.sh" 6.1 2>>"$TMP/src.err") ||
		{ tap_not_ok coccicheck "$TMP/src.err"; return; }
	srct=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$kdir/Makefile")
	[ -n "$srct" ] || srct=$kdir
	COCCI_INC="-I $srct/arch/x86/include -I $kdir/arch/x86/include/generated"
	COCCI_INC="$COCCI_INC -I $srct/include -I $kdir/include"
	COCCI_INC="$COCCI_INC -I $srct/arch/x86/include/uapi"
	COCCI_INC="$COCCI_INC -I $kdir/arch/x86/include/generated/uapi"
	COCCI_INC="$COCCI_INC -I $srct/include/uapi -I $kdir/include/generated/uapi"
	COCCI_INC="$COCCI_INC -I $REPO/include"
	COCCI_INC="$COCCI_INC --include $srct/include/linux/compiler-version.h"
	COCCI_INC="$COCCI_INC --include $srct/include/linux/kconfig.h"
	COCCI_C=$(list_files checkpatch | grep '\.c$' | sed "s|^|$REPO/|")
	COCCI_H=$(list_files checkpatch | grep '\.h$' | sed "s|^|$REPO/|")
	SPATCH_VERSION=$(spatch --version | sed -n 's/^spatch version \([^ ]*\).*/\1/p')
	export COCCI_INC COCCI_C COCCI_H SPATCH_VERSION TMP
	export -f cocci_one
	if [ -z "$COCCI_C" ]; then
		echo "no C files" >"$out"
		tap_ok "coccicheck # no C files"
		return
	fi
	mkdir -p "$TMP/cocci"
	find "$src/scripts/coccinelle" -name '*.cocci' | sort |
	while read -r c; do
		for f in $COCCI_EXCLUDE; do
			[ "$(basename "$c")" = "$f" ] && continue 2
		done
		echo "$c"
	done | xargs -r -n 1 -P "$JOBS" bash -c 'cocci_one "$1"' _ >>"$out" 2>&1
	[ -s "$out" ] && rc=1
	tap_result $rc coccicheck "$out"
}

# checkpatch_group IGNORE FILES...: one checkpatch run, output on stdout
checkpatch_group()
{
	local ign=$1
	shift
	[ $# -gt 0 ] || return 0
	(cd "$REPO" && perl "$CHECKPATCH" --strict --no-tree --terse \
		--show-types ${ign:+--ignore "$ign"} -f "$@")
}

# checkpatch_all: every file through $CHECKPATCH, each kind of file with
# its ignore list
checkpatch_all()
{
	local all

	all=$(list_files checkpatch)
	# shellcheck disable=SC2046 # word splitting wanted (no blanks in names)
	{
		checkpatch_group "$CP_IGNORE_C" $(echo "$all" | grep -E '\.[ch]$' |
			grep -v '^tools/testing/kstub/')
		checkpatch_group "$CP_IGNORE_KSTUB" $(echo "$all" | grep -E '\.[ch]$' |
			grep '^tools/testing/kstub/')
		checkpatch_group "$CP_IGNORE_BUILD" \
			$(echo "$all" | grep -E '(^|/)(Kbuild|Kconfig|Makefile)$')
		checkpatch_group "$CP_IGNORE_DOC" $(echo "$all" | grep -E '\.(md|rst)$')
		checkpatch_group "$CP_IGNORE_SCRIPT" $(echo "$all" |
			grep -vE '\.([ch]|md|rst)$|(^|/)(Kbuild|Kconfig|Makefile)$')
	}
}

# checkpatch: 6.1's checkpatch.pl (the host's series), then the newest
# series' (its tree from kdir.sh): a newer one knows more (7.3's asks for
# kzalloc_obj() and refuses strings that look like SPDX tags), and the
# tree must pass both, as a reviewer may run either
check_checkpatch()
{
	local out=$TMP/checkpatch.out rc=0 src newest kdir

	src=$("$HERE/src61.sh" 2>"$TMP/src.err") ||
		{ tap_not_ok checkpatch "$TMP/src.err"; return; }
	newest=$(echo $SERIES | awk '{ print $NF }')
	kdir=$("$HERE/kdir.sh" "$newest" 2>"$TMP/src.err") ||
		{ tap_not_ok checkpatch "$TMP/src.err"; return; }
	[ -f "$kdir/source/scripts/checkpatch.pl" ] || {
		echo "no scripts/checkpatch.pl in $kdir/source ($newest)" >"$TMP/src.err"
		tap_not_ok checkpatch "$TMP/src.err"
		return
	}
	{
		CHECKPATCH=$src/scripts/checkpatch.pl
		echo "checkpatch.pl of 6.1:"
		checkpatch_all || rc=1
		CHECKPATCH=$kdir/source/scripts/checkpatch.pl
		echo "checkpatch.pl of $newest:"
		checkpatch_all || rc=1
	} >"$out" 2>&1
	grep -qE '(ERROR|WARNING|CHECK):' "$out" && rc=1
	[ $rc -eq 0 ] || [ -s "$out" ] || echo "checkpatch failed" >"$out"
	tap_result $rc checkpatch "$out"
}

check_spdx()
{
	local out=$TMP/spdx.out rc=0 f

	list_files spdx | while read -r f; do
		head -n 3 "$REPO/$f" |
			grep -qE 'SPDX[-]License-Identifier[:] GPL-2\.0(-only)?( |$)' ||
			echo "$f: no GPL-2.0 SPDX tag in the first 3 lines"
	done >"$out"
	[ -s "$out" ] && rc=1
	tap_result $rc spdx "$out"
}

# The simulator's CSPMU model, compiled in user space with its own TAP checks.
check_sim_selftest()
{
	local out=$TMP/selftest.out rc=0

	"$REPO/tools/testing/sim/selftest/run.sh" >"$out" 2>&1 || rc=1
	grep -q '^not ok' "$out" && rc=1
	grep -q '^ok' "$out" || rc=1
	tap_result $rc "simulator self-test ($(grep -c '^ok' "$out") checks)" "$out"
}

# The exporter daemon on the host (check/exporter.sh): TAP lines, a plan
check_exporter()
{
	local out=$TMP/exporter.out rc=0

	"$HERE/exporter.sh" >"$out" 2>&1 || rc=1
	grep -q '^not ok' "$out" && rc=1
	tail -n 1 "$out" | grep -q '^1\.\.[0-9]' || rc=1
	tap_result $rc "exporter daemon ($(grep -c '^ok' "$out") checks)" "$out"
}

# The native libFuzzer targets: every committed input replayed, then a
# fixed budget of fuzzing each from a fixed seed; figures in the title.
check_fuzz_native()
{
	local out=$TMP/fuzz.out rc=0 figs re

	"$REPO/tools/testing/fuzz/run.sh" check "${UNCORE_FUZZ_NATIVE_TIME:-20}" >"$out" 2>&1 ||
		rc=1
	# "fuzz_apmt: 1234 execs in 20 s (61 exec/s), ..." -> "apmt 1234 at 61/s"
	re='s/^fuzz_\([a-z]*\): \([0-9]*\) execs in .*(\([0-9]*\) exec\/s).*/\1 \2 at \3\/s/p'
	figs=$(sed -n "$re" "$out" | paste -sd, | sed 's/,/, /g')
	tap_result $rc "fuzz-native (${figs:-no figures})" "$out"
}

if [ -z "${UNCORE_SKIP_DEPS:-}" ]; then
	"$HERE/deps.sh" 2>&1 | tee "$TMP/deps.out" >&2
	[ "${PIPESTATUS[0]}" -eq 0 ] || : >"$TMP/deps.failed"
fi
if [ -e "$TMP/deps.failed" ]; then
	tap_not_ok "install dependencies" "$TMP/deps.out"
	[ $summary -eq 0 ] || tap_summary
	exit 1
fi

if ! git -C "$REPO" ls-files >/dev/null 2>"$TMP/git.out"; then
	tap_not_ok "list repository files (git)" "$TMP/git.out"
	[ $summary -eq 0 ] || tap_summary
	exit 1
fi

# series S: S is a series of the build matrix
series()
{
	case " $SERIES " in *" $1 "*) return 0 ;; esac
	return 1
}

unknown()
{
	echo "unknown check $1 (have: $ALL build-arm64)" >"$TMP/unknown"
	tap_not_ok "$1" "$TMP/unknown"
}

for c in $CHECKS; do
	t0=$SECONDS
	tap_cpu c0 "$TMP/cpu"
	# only a build or sparse check leaves a build kbuild() knows about
	case $c in build-*|sparse-*) ;; *) KBUILT= ;; esac
	case $c in
	build-arm64)		. "$HERE/build-arm64.sh"
				check_build_arm64 6.1; check_sparse arm64 6.1 ;;
	build-arm64-*|sparse-arm64-*)
				s=${c#*-arm64-}
				if ! series "$s"; then
					unknown "$c"
				elif [ "${c%%-*}" = build ]; then
					. "$HERE/build-arm64.sh" && check_build_arm64 "$s"
				else
					check_sparse arm64 "$s"
				fi ;;
	build-*)		if series "${c#build-}"; then
					check_build "${c#build-}"
				else
					unknown "$c"
				fi ;;
	sparse-*)		if series "${c#sparse-}"; then
					check_sparse x86 "${c#sparse-}"
				else
					unknown "$c"
				fi ;;
	manifest)	"$HERE/manifest.sh" >"$TMP/man.out" 2>&1
			tap_result $? "manifest (modules.manifest, its consumers)" \
				"$TMP/man.out" ;;
	coccicheck)		check_cocci ;;
	checkpatch)		check_checkpatch ;;
	spdx)			check_spdx ;;
	sim-selftest)		check_sim_selftest ;;
	fuzz-native)		check_fuzz_native ;;
	exporter)		check_exporter ;;
	rcmap)			"$HERE/rcmap.sh" >"$TMP/rcm" 2>&1; tap_result $? rcmap "$TMP/rcm" ;;
	vm-runner)	"$HERE/vm-runner.sh" >"$TMP/vmr" 2>&1
				tap_result $? "vm-runner ($(tail -n 1 "$TMP/vmr"))" "$TMP/vmr" ;;
	perf-json)	"$HERE/perf-json.sh" >"$TMP/pj" 2>&1; tap_result $? perf-json "$TMP/pj" ;;
	docs)			"$HERE/docs.sh" >"$TMP/docs.out" 2>&1
				tap_result $? docs "$TMP/docs.out" ;;
	dkms)	# the installed 6.1 headers and the newest series' prepared tree
		for s in 6.1 $(echo "$SERIES" | awk '{ print $NF }'); do
			"$HERE/dkms.sh" "$s" >"$TMP/dkms.out" 2>&1
			tap_result $? "dkms ($s x86)" "$TMP/dkms.out"
		done ;;
	metrics)		. "$HERE/metrics.sh" && check_metrics ;;
	manpages)	"$HERE/manpages.sh" >"$TMP/man" 2>&1; tap_result $? manpages "$TMP/man" ;;
	prometheus)	"$HERE/prometheus.sh" >"$TMP/prom" 2>&1
			tap_result $? "prometheus: rules, rule tests, dashboard" "$TMP/prom" ;;
	rpm)		"$HERE/rpm.sh" >"$TMP/rpm.out" 2>&1; tap_result $? rpm "$TMP/rpm.out" ;;
	packages)	"$HERE/packages.sh" >"$TMP/pkg" 2>&1; tap_result $? packages "$TMP/pkg" ;;
	modprobe)	"$HERE/modprobe.sh" >"$TMP/mp" 2>&1
			tap_result $? "modprobe ($(tail -n 1 "$TMP/mp"))" "$TMP/mp" ;;
	mutants)	"$REPO/tools/testing/mutation/run.sh" --check >"$TMP/mut" 2>&1
			tap_result $? "mutants ($(grep -c '^ok' "$TMP/mut") of make mutation)" \
				"$TMP/mut" ;;
	*)			unknown "$c" ;;
	esac
	tap_cpu c1 "$TMP/cpu"
	tap_time "static: $c" $((SECONDS - t0)) $((c1 - c0))
done

if [ $summary -eq 1 ]; then
	tap_summary
else
	[ "$TAP_FAIL" -eq 0 ]
fi
