#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The coverage of one boot (vm-test.sh with UNCORE_COVERAGE_DIR):
#   collect.sh CONSOLE_LOG SRC_DIR OUT.info
# CONSOLE_LOG holds the hex dump of tests/coverage/99-zz-gcov.sh; each
# .gcda in it carries the absolute path its object had when SRC_DIR was
# built, and goes next to that object's .gcno. lcov (with gcc's gcov)
# then counts lines and branches; OUT.info keeps our files only, with
# paths relative to SRC_DIR (drivers/..., include/..., tools/testing/sim/...).
# The last line on stderr says what failed.
set -euo pipefail

# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

[ $# -eq 3 ] || die "usage: collect.sh CONSOLE_LOG SRC_DIR OUT.info"
log=$1 out=$3
src=$(cd "$2" && pwd -P)
command -v lcov >/dev/null || die "lcov missing (tools/testing/check/deps.sh installs it)"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# the test's own lines, as the guest init copied them to the console
tr -d '\r' <"$log" | sed -n 's/^99-zz-gcov\.sh: //p' >"$TMP/lines"
n=$(sed -n 's/^@@ gcov begin \([0-9][0-9]*\)$/\1/p' "$TMP/lines")
[ -n "$n" ] || die "no gcov dump on the console (did the boot reach 99-zz-gcov.sh?)"
grep -q '^@@ gcov end$' "$TMP/lines" || die "the gcov dump on the console is cut short"
sed -n '/^@@ gcov begin/,/^@@ gcov end$/p' "$TMP/lines" | sed '1d;$d' |
	perl -ne 'chomp; /^[0-9a-f]*$/ or die "not hex: $_\n"; print pack("H*", $_)' \
	>"$TMP/dump.tar.gz"
mkdir "$TMP/x"
tar -xzf "$TMP/dump.tar.gz" -C "$TMP/x" || die "the gcov dump does not unpack"
got=0
while IFS= read -r -d '' f; do
	p=${f#"$TMP/x"}
	case $p in
	"$src"/*) ;;
	*) die "$p: not an object of $src (built elsewhere?)" ;;
	esac
	[ -f "${p%.gcda}.gcno" ] || die "$p: no ${p##*/}'s .gcno next to it"
	cp "$f" "$p"
	got=$((got + 1))
done < <(find "$TMP/x" -name '*.gcda' -print0)
[ "$got" = "$n" ] || die "the dump holds $got .gcda files, the guest wrote $n"

# lcov 1.16: branch counts only with lcov_branch_coverage=1
lcov --quiet --capture --rc lcov_branch_coverage=1 --gcov-tool gcov \
	--directory "$src" --output-file "$TMP/all.info" >"$TMP/lcov.log" 2>&1 ||
	{ cat "$TMP/lcov.log" >&2; die "lcov --capture failed"; }
lcov --quiet --rc lcov_branch_coverage=1 --extract "$TMP/all.info" \
	"$src/drivers/*" "$src/include/*" "$src/tools/testing/sim/*" \
	--output-file "$TMP/ours.info" >"$TMP/lcov.log" 2>&1 ||
	{ cat "$TMP/lcov.log" >&2; die "lcov --extract failed"; }
sed "s|^SF:$src/|SF:|" "$TMP/ours.info" >"$out"
grep -q '^SF:drivers/' "$out" || die "$out: no file of drivers/ counted"
echo "collect.sh: $got .gcda files, $(grep -c '^SF:' "$out") source files, in $out" >&2
