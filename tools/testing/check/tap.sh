#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# TAP-ish result helpers, sourced by run.sh and by later test stages.
# Counts continue from, and are saved to, the file named by $UNCORE_TAP_STATE
# (one line: "<passed> <failed>") if it is set, so that several stages share
# one total; summary.sh prints the closing line from it.

TAP_PASS=0
TAP_FAIL=0
TAP_MAXLINES=${TAP_MAXLINES:-60}

if [ -n "${UNCORE_TAP_STATE:-}" ] && [ -s "$UNCORE_TAP_STATE" ]; then
	TAP_PASS=$(awk '$1 == "passed" { print $2 }' "$UNCORE_TAP_STATE")
	TAP_FAIL=$(awk '$1 == "failed" { print $2 }' "$UNCORE_TAP_STATE")
	TAP_PASS=${TAP_PASS:-0}
	TAP_FAIL=${TAP_FAIL:-0}
fi

tap_save()
{
	[ -z "${UNCORE_TAP_STATE:-}" ] ||
		printf 'passed %d\nfailed %d\n' "$TAP_PASS" "$TAP_FAIL" >"$UNCORE_TAP_STATE"
}

# tap_ok NAME
tap_ok()
{
	TAP_PASS=$((TAP_PASS + 1))
	echo "ok $((TAP_PASS + TAP_FAIL)) - $1"
	tap_save
}

# tap_not_ok NAME [LOGFILE]: the log's first lines go indented under it
tap_not_ok()
{
	TAP_FAIL=$((TAP_FAIL + 1))
	echo "not ok $((TAP_PASS + TAP_FAIL)) - $1"
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		head -n "$TAP_MAXLINES" "$2" | sed 's/^/    /'
		[ "$(wc -l <"$2")" -le "$TAP_MAXLINES" ] ||
			echo "    ... ($(wc -l <"$2") lines, truncated)"
	fi
	tap_save
}

# tap_result STATUS NAME [LOGFILE]
tap_result()
{
	if [ "$1" -eq 0 ]; then
		tap_ok "$2"
	else
		tap_not_ok "$2" "${3:-}"
	fi
}

# tap_time WHAT SECONDS [CPU]: note how long WHAT took in $UNCORE_TIMING,
# if set (one "SECONDS<tab>WHAT[<tab>CPU]" line each; timing.sh prints the
# table), and the CPU seconds it used, if known (tap_cpu)
tap_time()
{
	[ -z "${UNCORE_TIMING:-}" ] ||
		printf '%d\t%s%s\n' "$2" "$1" "${3:+	$3}" >>"$UNCORE_TIMING"
}

# tap_cpu VAR FILE: set VAR to the CPU seconds, user and system, this
# shell and the children it waited for have used so far (bash's times,
# which in a pipe or $(...) would report a fresh subshell's; FILE is
# scratch)
tap_cpu()
{
	times >"$2"
	printf -v "$1" '%s' "$(awk '{ for (i = 1; i <= NF; i++) {
		split($i, p, "m"); t += p[1] * 60 + p[2] } }
		END { printf "%d\n", t }' "$2")"
}

# tap_summary: the closing line; returns non-zero if anything failed
tap_summary()
{
	echo "$TAP_PASS passed, $TAP_FAIL failed"
	[ "$TAP_FAIL" -eq 0 ]
}
