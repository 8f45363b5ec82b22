#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 [STATEFILE] - print the closing "N passed, N failed" line from
# the tap.sh state file (default $UNCORE_TAP_STATE); exit non-zero if any
# test failed or no state exists.
set -eu

UNCORE_TAP_STATE=${1:-${UNCORE_TAP_STATE:-}}
if [ -z "$UNCORE_TAP_STATE" ] || [ ! -s "$UNCORE_TAP_STATE" ]; then
	echo "${0##*/}: no test state (UNCORE_TAP_STATE)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
# shellcheck source=tap.sh
. "$(dirname "$0")/tap.sh"
tap_summary
