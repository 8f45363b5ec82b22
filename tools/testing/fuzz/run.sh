#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the native libFuzzer targets (clang, ASan + UBSan) and run them.
#
#   run.sh check [SECONDS]        replay corpus/ and regressions/, then fuzz
#                                 each target SECONDS (default 20) from seed 1
#   run.sh fuzz SECONDS WORKDIR   fuzz each target SECONDS, growing
#                                 WORKDIR/<target>/corpus; crashes go to
#                                 WORKDIR/<target>/crash-*
#
# Prints "<target>: N execs in S s (R exec/s)" per target. Exits non-zero on
# a build failure, a crash, a leak or a sanitizer report. clang-14 is required:
# without it this fails, it never skips.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
TARGETS="fuzz_apmt fuzz_acpi fuzz_config fuzz_exporter"
CC=${FUZZ_CC:-clang-14}
CFLAGS="-std=gnu11 -g -O1 -Wall -Werror -Wno-unused-function
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"

mode=${1:-check}
case $mode in
check)	secs=${2:-20}; work= ;;
fuzz)	[ $# -eq 3 ] || { sed -n '6,10s/^# \{0,1\}//p' "$0" >&2; exit 2; }
	secs=$2; work=$3 ;;
*)	sed -n '6,10s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac

BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT

command -v "$CC" >/dev/null || { echo "run.sh: no $CC (deps.sh installs clang-14)" >&2; exit 1; }

rc=0
for t in $TARGETS; do
	# shellcheck disable=SC2086 # word splitting wanted
	case $t in
	# the exporter's parser is user space: kstub.c for the entry point only
	fuzz_exporter)	srcs="$HERE/$t.c $REPO/tools/uncore-exporter/uxp_parse.c" ;;
	*)		srcs="$HERE/$t.c" ;;
	esac
	srcs="$srcs $HERE/../kstub/kstub.c"
	# shellcheck disable=SC2086 # word splitting wanted
	if ! "$CC" $CFLAGS -I "$HERE/../kstub" -I "$REPO/include" -o "$BIN/$t" \
		$srcs >"$BIN/$t.build" 2>&1; then
		cat "$BIN/$t.build"
		echo "$t: build failed"
		rc=1
		continue
	fi

	seeds=()
	for d in "$HERE/corpus/$t" "$HERE/regressions/$t"; do
		[ -d "$d" ] && seeds+=("$d")
	done

	if [ "$mode" = check ]; then
		# every committed input once: none may crash
		mapfile -t files < <(find "${seeds[@]}" -type f | sort)
		if ! "$BIN/$t" "${files[@]}" >"$BIN/$t.replay" 2>&1 ||
		   [ "$(grep -c '^Executed ' "$BIN/$t.replay")" -ne ${#files[@]} ]; then
			tail -n 40 "$BIN/$t.replay"
			echo "$t: a corpus or regression input fails"
			rc=1
			continue
		fi
		out=$BIN/$t.work
		opts=(-seed=1)
	else
		out=$work/$t
		opts=()
	fi
	mkdir -p "$out/corpus"
	"$BIN/$t" "${opts[@]}" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-print_final_stats=1 -artifact_prefix="$out/" \
		"$out/corpus" "${seeds[@]}" >"$BIN/$t.log" 2>&1
	r=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$BIN/$t.log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$BIN/$t.log")
	bad='ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:'
	if [ $r -ne 0 ] || grep -qE "$bad" "$BIN/$t.log"; then
		grep -vE '^#[0-9]|Uses: ' "$BIN/$t.log" | tail -n 60
		echo "$t: CRASH after ${execs:-?} execs; input: $(ls "$out"/crash-* "$out"/leak-* \
			"$out"/timeout-* "$out"/oom-* 2>/dev/null | head -n 1)"
		rc=1
		continue
	fi
	new=$(find "$out/corpus" -type f | wc -l)
	echo "$t: ${execs:-?} execs in $secs s (${speed:-?} exec/s), $new new inputs"
done

if [ "$mode" = fuzz ] && [ $rc -ne 0 ]; then
	echo "promote a crash into a regression input:"
	echo "  cp $work/<target>/crash-<sha1> $HERE/regressions/<target>/<what-it-is>"
fi
exit $rc
