#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the static checks (run.sh, in two lanes) and the VM boots
# (vm-all.sh) side by side, then one closing "N passed, N failed" line.
#
# Usage: $0 STATEFILE
#
# Dependencies are installed first, once, so that the two never run apt at
# the same time. Two guests and the static checks then share the
# machine's two CPUs evenly (niced, the static checks got next to nothing
# while two guests ran, then ran alone for 8 minutes at the end).
# The static checks' lines come as they finish; the boots' output follows
# once the last boot ends, each boot whole, in job order; then how long
# each part took (timing.sh) and the closing line.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/host.sh
. "$HERE/../lib/host.sh"
STATE=${1:?usage: all.sh STATEFILE}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -f "$STATE"
START=$SECONDS
export UNCORE_TIMING=$TMP/timing
: >"$UNCORE_TIMING"
UNCORE_TAP_STATE=$STATE
# shellcheck source=tap.sh
. "$HERE/tap.sh"

t0=$SECONDS
if ! "$HERE/deps.sh" >"$TMP/deps.out" 2>&1; then
	tap_not_ok "install dependencies" "$TMP/deps.out"
	tap_summary
	exit 1
fi
tap_time "dependencies (deps.sh)" $((SECONDS - t0))

UNCORE_TAP_STATE=$TMP/vm.state UNCORE_SKIP_DEPS=1 "$HERE/../vm-all.sh" \
	>"$TMP/vm.out" &
vm=$!
# The static checks in two lanes: those that never build in the
# repository (kbuild's "make clean" there would race a build beside it)
# run beside the others; their output follows theirs.
LANE2=" manifest coccicheck checkpatch spdx sim-selftest fuzz-native exporter rcmap vm-runner"
LANE2="$LANE2 perf-json docs metrics prometheus manpages mutants modprobe "
lane1= lane2=
for c in $("$HERE/run.sh" --list); do
	case $LANE2 in
	*" $c "*)	lane2="$lane2 $c" ;;
	*)		lane1="$lane1 $c" ;;
	esac
done
t0=$SECONDS
# (run.sh without a check name would run them all: a lane may be empty)
# shellcheck disable=SC2086 # the checks, one word each
[ -z "$lane2" ] || UNCORE_TAP_STATE=$TMP/lane2.state UNCORE_SKIP_DEPS=1 \
	"$HERE/run.sh" --no-summary $lane2 >"$TMP/lane2.out" 2>&1 &
l2=$!
# shellcheck disable=SC2086
[ -z "$lane1" ] || UNCORE_TAP_STATE=$STATE UNCORE_SKIP_DEPS=1 \
	"$HERE/run.sh" --no-summary $lane1
wait $l2
[ -n "$lane2" ] || printf 'passed 0\nfailed 0\n' >"$TMP/lane2.state"
cat "$TMP/lane2.out"
if [ -s "$TMP/lane2.state" ]; then
	st=$(state_get "$TMP/lane2.state")
	state_add "$STATE" "${st% *}" "${st#* }"
else
	echo "not ok - static checks: the second lane reported nothing"
	state_add "$STATE" 0 1
fi
tap_time "static checks, all (two lanes, beside the boots)" $((SECONDS - t0))
wait $vm
cat "$TMP/vm.out"

# the two stages' counts, added
vm=$(state_get "$TMP/vm.state")
state_add "$STATE" "${vm% *}" "${vm#* }"
if [ ! -s "$TMP/vm.state" ]; then
	echo "not ok - vm: the boots reported nothing"
	state_add "$STATE" 0 1
fi
tap_cpu cpu "$TMP/cpu"
"$HERE/timing.sh" "$UNCORE_TIMING" $((SECONDS - START)) "$cpu"
exec "$HERE/summary.sh" "$STATE"
