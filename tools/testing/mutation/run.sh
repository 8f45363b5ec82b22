#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Mutation testing of the guest tests: each mutant of the list (mutants,
# format in its header) changes one thing in a copy of the tree, then the
# tests it names run on that copy. A test that fails kills the mutant.
#
# Usage: run.sh --list          name, file and tests of every mutant
#        run.sh --check         static check of the list (seconds), TAP
#        run.sh [NAME...]       run the named mutants (default: all)
#
# A run copies the repository's files (git ls-files -co --exclude-standard)
# to a scratch tree under ${TMPDIR:-/tmp}, applies one mutant, builds the
# modules there as vm-test.sh does (a failed build: "stillborn"), then runs
# "vm-test.sh --no-summary --arch A --firmware F --kernel K --only GLOB"
# from the copy for each tests: line. One line per mutant:
#   killed NAME SECONDS s: TEST...     a test failed (the tests that did;
#                                      kernel-report: an oops, KASAN... on
#                                      the console; guest-died: no end)
#   survived NAME SECONDS s            every test passed
#   survived NAME SECONDS s (reason given)   ...and the mutant has survives:
#   stillborn NAME SECONDS s           the modules did not build
#   error NAME SECONDS s: WHAT         the run itself failed (not counted),
#                                      a VM timeout or an early-boot failure
#                                      with no test failed among them
# then "mutation: K killed, S survived (R with a written reason), B
# stillborn of N: kill ratio K/(N-B)". A killed mutant that has a survives:
# line is reported "killed ... (reason stale)". Exit status 1 when a mutant
# without survives: survived, one with it was killed, one was stillborn or
# a run failed; 2 for bad arguments or a list that fails --check.
#
# Environment: UNCORE_MUTATION_LIST (another list file), UNCORE_MUTATION_BUILD
# (the build directory for vm-test.sh, kept; default: one per run, removed
# with the scratch tree), UNCORE_MUTATION_LOGS (where each mutant's log goes,
# default .build/mutation/ of the repository), UNCORE_SKIP_DEPS=1 (no
# deps.sh).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
LIST=${UNCORE_MUTATION_LIST:-$HERE/mutants}
KDIR_SH=$REPO/tools/testing/check/kdir.sh
TESTS=$REPO/tools/testing/tests
# shellcheck source=../lib/fwconf.sh
. "$HERE/../lib/fwconf.sh"

usage()
{
	sed -n '8,10s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

bad_list()
{
	local ln=$1

	shift
	echo "run.sh: $LIST:$ln: $*" >&2
	exit 2
}

# ---- the list ----

N=0
declare -a M_NAME M_FILE M_FROM M_TO M_TESTS M_WHY M_SURV M_LINE M_HAS
cur=-1 last=

# field KEY VALUE LINENO: store one field of the current paragraph
field()
{
	local k=$1 v=$2 ln=$3

	if [ $cur -lt 0 ]; then
		cur=$N
		N=$((N + 1))
		M_LINE[cur]=$ln M_HAS[cur]=" "
		M_NAME[cur]='' M_FILE[cur]='' M_FROM[cur]='' M_TO[cur]=''
		M_TESTS[cur]='' M_WHY[cur]='' M_SURV[cur]=''
	fi
	case " ${M_HAS[cur]} " in
	*" $k "*)	[ "$k" = tests ] || bad_list "$ln" "second $k: in one mutant" ;;
	esac
	M_HAS[cur]="${M_HAS[cur]}$k "
	case $k in
	name)		M_NAME[cur]=$v ;;
	file)		M_FILE[cur]=$v ;;
	from)		M_FROM[cur]=$v ;;
	to)		M_TO[cur]=$v ;;
	tests)		M_TESTS[cur]="${M_TESTS[cur]}$v"$'\n' ;;
	why)		M_WHY[cur]=$v ;;
	survives)	M_SURV[cur]=$v ;;
	esac
	last=$k
}

parse_list()
{
	local line ln=0 k v

	if [ ! -f "$LIST" ] || [ ! -r "$LIST" ]; then
		echo "run.sh: no list $LIST" >&2
		exit 2
	fi
	while IFS= read -r line || [ -n "$line" ]; do
		ln=$((ln + 1))
		case $line in
		'#'*)	continue ;;
		'+'|'+ '*)
			# last: the field above in this paragraph, "" after a blank line
			case $last in
			from|to) ;;
			*)	bad_list $ln "a + line continues only from: or to:" ;;
			esac
			v=${line#+}
			v=${v# }
			if [ "$last" = from ]; then
				M_FROM[cur]="${M_FROM[cur]}"$'\n'"$v"
			else
				M_TO[cur]="${M_TO[cur]}"$'\n'"$v"
			fi
			continue ;;
		esac
		if [ -z "${line//[[:space:]]/}" ]; then
			cur=-1 last=
			continue
		fi
		k=${line%%:*}
		case $k in
		name|file|from|to|tests|why|survives) ;;
		*)	bad_list $ln "not a field (name file from to tests why survives)," \
				"a + line or a comment: $line" ;;
		esac
		v=${line#"$k":}
		v=${v# }
		field "$k" "$v" $ln
	done <"$LIST"
	[ $N -gt 0 ] || bad_list 0 "no mutant"
}

# count_in FILE TEXT: how often TEXT occurs in FILE (0, 1 or 2 for more)
count_in()
{
	local c rest

	c=$(cat "$1"; echo x)
	c=${c%x}
	[[ $c == *"$2"* ]] || { echo 0; return; }
	rest=${c#*"$2"}
	[[ $rest == *"$2"* ]] && { echo 2; return; }
	echo 1
}

SERIES=
NEWEST=
series_list()
{
	[ -n "$SERIES" ] && return 0
	SERIES=$("$KDIR_SH" --list 2>/dev/null | xargs) || true
	[ -n "$SERIES" ] || { echo "run.sh: $KDIR_SH --list gave nothing" >&2; exit 2; }
	NEWEST=${SERIES##* }
}

# check_tests LINE: problems with one tests: line, on stdout
check_tests()
{
	local a f k g extra dir t fa fk found=0

	read -r a f k g extra <<<"$1"
	if [ -z "$g" ] || [ -n "$extra" ]; then
		echo "tests: '$1': want ARCH FIRMWARE KERNEL GLOB"
		return
	fi
	case $a in
	x86_64|arm64) ;;
	*)	echo "tests: '$1': ARCH $a is not x86_64 or arm64" ;;
	esac
	case " $SERIES " in
	*" $k "*) ;;
	*)	echo "tests: '$1': KERNEL $k is not one of $SERIES" ;;
	esac
	dir=$TESTS
	if [ "$f" != default ]; then
		dir=$TESTS/firmware/$f
		case $f in
		*/*|.*) echo "tests: '$1': FIRMWARE $f is not a firmware name"; return ;;
		esac
		[ -d "$dir" ] || { echo "tests: '$1': no firmware directory $dir"; return; }
	fi
	fa=$(fw_conf "$dir" arch 2>&1) || echo "tests: '$1': $fa"
	if [ -n "$fa" ] && [ "$fa" != "$a" ]; then
		echo "tests: '$1': firmware $f runs only on $fa"
	fi
	fk=$(fw_conf "$dir" kernel 2>&1)
	if [ "$fk" = newest ] && [ "$k" != "$NEWEST" ]; then
		echo "tests: '$1': firmware $f boots the newest series, $NEWEST"
	elif [ -n "$fk" ] && [ "$fk" != newest ] && [ "$k" != "$fk" ]; then
		echo "tests: '$1': firmware $f boots series $fk"
	fi
	for t in "$dir/"$g; do
		[ -f "$t" ] && [ -x "$t" ] && found=1
	done
	[ $found = 1 ] || echo "tests: '$1': GLOB $g matches no executable test in $dir"
}

# check_one I: problems with mutant I, on stdout
check_one()
{
	local i=$1 n=${M_NAME[$1]} j l

	for j in name file from to tests why; do
		case "${M_HAS[i]}" in
		*" $j "*) ;;
		*)	echo "no $j: field" ;;
		esac
	done
	if [ -n "$n" ] && ! [[ $n =~ ^[a-z0-9][a-z0-9.-]*$ ]]; then
		echo "name '$n': use lower-case letters, digits, '-' and '.'"
	fi
	for ((j = 0; j < i; j++)); do
		[ "${M_NAME[j]}" != "$n" ] || echo "name '$n' also at line ${M_LINE[j]}"
	done
	if [ -n "${M_FILE[i]}" ]; then
		case ${M_FILE[i]} in
		/*|*..*)	echo "file ${M_FILE[i]}: give a path inside the repository" ;;
		*)	if [ ! -f "$REPO/${M_FILE[i]}" ]; then
				echo "file ${M_FILE[i]}: no such file"
			elif [ -z "${M_FROM[i]}" ]; then
				echo "from: is empty"
			else
				case $(count_in "$REPO/${M_FILE[i]}" "${M_FROM[i]}") in
				0)	echo "from: not found in ${M_FILE[i]}" ;;
				2)	echo "from: occurs more than once in ${M_FILE[i]}" ;;
				esac
			fi ;;
		esac
	fi
	case "${M_HAS[i]}" in
	*" from "*" to "*|*" to "*" from "*)
		[ "${M_FROM[i]}" != "${M_TO[i]}" ] || echo "to: is the same as from:" ;;
	esac
	[ -n "${M_WHY[i]}" ] || case "${M_HAS[i]}" in *" why "*) echo "why: is empty" ;; esac
	while IFS= read -r l; do
		[ -z "$l" ] || check_tests "$l"
	done <<<"${M_TESTS[i]}"
}

do_check()
{
	local i l out fail=0

	series_list
	for ((i = 0; i < N; i++)); do
		out=$(check_one "$i")
		if [ -z "$out" ]; then
			echo "ok $((i + 1)) - mutant ${M_NAME[i]}"
		else
			fail=1
			echo "not ok $((i + 1)) - mutant ${M_NAME[i]:-at line ${M_LINE[i]}}"
			while IFS= read -r l; do
				echo "    $LIST:${M_LINE[i]}: $l"
			done <<<"$out"
		fi
	done
	echo "1..$N"
	return $fail
}

do_list()
{
	local i l tests

	for ((i = 0; i < N; i++)); do
		tests=
		while IFS= read -r l; do
			[ -z "$l" ] || tests="$tests${tests:+, }$l"
		done <<<"${M_TESTS[i]}"
		printf '%s %s %s\n' "${M_NAME[i]}" "${M_FILE[i]}" "$tests"
	done
}

# ---- running mutants ----

# apply I TREE: the mutant's replacement in TREE's copy of its file, once
apply()
{
	local f=$2/${M_FILE[$1]} c new

	[ "$(count_in "$f" "${M_FROM[$1]}")" = 1 ] || return 1
	c=$(cat "$f"; echo x)
	c=${c%x}
	new=${c/"${M_FROM[$1]}"/"${M_TO[$1]}"}
	[ "$new" != "$c" ] || return 1
	printf '%s' "$new" >"$f"
}

# sync TREE: TREE holds the repository's files as they are (undoing the
# last mutant); files are compared by content, so only changed ones move
sync_tree()
{
	git -C "$REPO" ls-files -co --exclude-standard -z |
		rsync -rlp --checksum --from0 --files-from=- "$REPO/" "$1/"
}

# prebuild TREE ARCH SERIES LOG: the module build vm-test.sh makes, in a
# build directory of its own per architecture and series (incremental)
prebuild()
{
	local tree=$1 arch=$2 ser=$3 log=$4 kdir dir karch=x86 mk=()

	[ "$arch" = arm64 ] && { karch=arm64; mk=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-); }
	dir=$WORK/prebuild/$arch-$ser
	mkdir -p "$dir"
	kdir=$("$KDIR_SH" "$ser" "$karch" 2>>"$log") || return 2
	git -C "$tree" ls-files -co --exclude-standard -z |
		rsync -rlp --checksum --from0 --files-from=- "$tree/" "$dir/" >>"$log" 2>&1 ||
		return 2
	make -C "$dir" -j"$(nproc)" KDIR="$kdir" "${mk[@]}" COMPILE_TEST=1 modules >>"$log" 2>&1 ||
		return 1
}

# run_one I: prints the result line, returns 0 if it is what the list expects
run_one()
{
	local i=$1 name=${M_NAME[$1]} log start secs l a f k g rc st failed="" what=""
	local tree=$WORK/tree built=" " out=$WORK/vm-test.out

	log=$LOGS/$name.log
	: >"$log"
	start=$(date +%s)
	if ! sync_tree "$tree" >>"$log" 2>&1; then
		what="copying the tree failed"
	elif ! apply "$i" "$tree"; then
		what="the replacement did not apply exactly once"
	fi
	if [ -z "$what" ]; then
		while IFS= read -r l; do
			[ -n "$l" ] || continue
			read -r a f k g <<<"$l"
			case $built in
			*" $a-$k "*) ;;
			*)	echo "# prebuild $a $k" >>"$log"
				prebuild "$tree" "$a" "$k" "$log"
				st=$?
				if [ $st = 1 ]; then
					secs=$(($(date +%s) - start))
					echo "stillborn $name $secs s"
					return 1
				elif [ $st != 0 ]; then
					what="no kernel tree for $a $k (see the log)"
					break
				fi
				built="$built$a-$k " ;;
			esac
			echo "# vm-test.sh --arch $a --firmware $f --kernel $k --only $g" >>"$log"
			(cd "$tree" && UNCORE_VM_BUILD=$BUILD_DIR \
				tools/testing/vm-test.sh --no-summary --arch "$a" \
				--firmware "$f" --kernel "$k" --only "$g") >"$out" 2>&1
			rc=$?
			cat "$out" >>"$log"
			# vm-test.sh's own failures before the boot are no kill
			if grep -q '^not ok - vm: setup failed' "$out"; then
				what="vm-test.sh setup failed (status $rc)"
				break
			fi
			if ! grep -qE '^(not )?ok[ 0-9]* - ' "$out"; then
				what="vm-test.sh (status $rc) reported no test"
				break
			fi
			[ $rc = 0 ] && ! grep -q '^not ok' "$out" && continue
			# "not ok N - TEST: ..." names the test; a kernel report on
			# the console or a guest that died also kills. A VM that
			# only ran out of time, or never got to init, proves
			# nothing: the run is an error, not a kill.
			failed=$(sed -n 's/^not ok[ 0-9]*- \([^:]*\):.*/\1/p' "$out" |
				grep -vx vm | sort -u | xargs)
			grep -q '^# console: [0-9]* kernel problem' "$out" &&
				failed="$failed${failed:+ }kernel-report"
			grep -q '^not ok - vm: the guest stopped' "$out" &&
				failed="$failed${failed:+ }guest-died"
			if [ -z "$failed" ]; then
				what="no test failed, but the VM run did (status $rc):"
				what="$what $(grep -m1 '^not ok' "$out" || echo 'no not ok line')"
				break
			fi
			failed="$failed ($a $f $k)"
			break
		done <<<"${M_TESTS[i]}"
	fi
	secs=$(($(date +%s) - start))
	if [ -n "$what" ]; then
		echo "error $name $secs s: $what"
		return 1
	fi
	if [ -n "$failed" ]; then
		if [ -n "${M_SURV[i]}" ]; then
			echo "killed $name $secs s: $failed (reason stale)"
			return 1
		fi
		echo "killed $name $secs s: $failed"
		return 0
	fi
	if [ -n "${M_SURV[i]}" ]; then
		echo "survived $name $secs s (reason given)"
		return 0
	fi
	echo "survived $name $secs s"
	return 1
}

do_run()
{
	local i sel=() n name found res line
	local killed=0 surv=0 reason=0 still=0 errs=0 total=0 fail=0

	for name; do
		found=-1
		for ((i = 0; i < N; i++)); do
			[ "${M_NAME[i]}" = "$name" ] && found=$i
		done
		[ $found -ge 0 ] || { echo "run.sh: no mutant $name (run.sh --list)" >&2; exit 2; }
		sel+=("$found")
	done
	[ $# -gt 0 ] || for ((i = 0; i < N; i++)); do sel+=("$i"); done

	if ! do_check >"$WORK/check.out"; then
		grep -v '^ok ' "$WORK/check.out" >&2
		echo "run.sh: $LIST fails --check" >&2
		exit 2
	fi
	if [ -z "${UNCORE_SKIP_DEPS:-}" ]; then
		"$REPO/tools/testing/check/deps.sh" >&2 ||
			{ echo "run.sh: deps.sh failed" >&2; exit 1; }
	fi
	mkdir -p "$WORK/tree" "$LOGS" || exit 1
	sync_tree "$WORK/tree" || { echo "run.sh: cannot copy the tree" >&2; exit 1; }
	# vm-test.sh lists the files it builds with git: the copy gets an index
	(cd "$WORK/tree" && git init -q && git add -A) ||
		{ echo "run.sh: cannot make the copy a git tree" >&2; exit 1; }

	for i in "${sel[@]}"; do
		total=$((total + 1))
		line=$(run_one "$i")
		res=$?
		echo "$line"
		[ $res = 0 ] || fail=1
		case $line in
		killed*)	killed=$((killed + 1)) ;;
		survived*)	surv=$((surv + 1))
				[ -z "${M_SURV[i]}" ] || reason=$((reason + 1)) ;;
		stillborn*)	still=$((still + 1)) ;;
		*)		errs=$((errs + 1)) ;;
		esac
	done
	n=$((total - errs))
	echo "mutation: $killed killed, $surv survived ($reason with a written reason)," \
	     "$still stillborn of $n: kill ratio $killed/$((n - still))"
	[ $errs = 0 ] || echo "mutation: $errs not run (errors above)"
	echo "mutation: logs in $LOGS"
	return $fail
}

case ${1:-} in
-h|--help)	sed -n '3,29s/^# \{0,1\}//p' "$0"; exit 0 ;;
--list)		[ $# = 1 ] || usage; parse_list; do_list; exit 0 ;;
--check)	[ $# = 1 ] || usage; parse_list; do_check; exit $? ;;
-*)		echo "run.sh: unknown option $1" >&2; usage ;;
esac

parse_list
WORK=$(mktemp -d "${TMPDIR:-/tmp}/uncore-mutation.XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT
BUILD_DIR=${UNCORE_MUTATION_BUILD:-$WORK/vm-build}
LOGS=${UNCORE_MUTATION_LOGS:-$REPO/.build/mutation}
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
do_run "$@"
