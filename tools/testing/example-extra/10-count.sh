#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Example of an outside test for make vm-test EXTRA_TESTS=<dir>: find a
# simulated PEM in $UNCORE_SIM/devices, inject traffic and check that perf
# counts exactly that.

pmu=$(awk '$2 == "pem" { print $1; exit }' "$UNCORE_SIM/devices")
if [ -z "$pmu" ]; then
	echo "not ok 1 - a simulated PEM is listed in devices"
	exit 1
fi
echo "ok 1 - a simulated PEM is listed in devices ($pmu)"

c=$(perf stat -a -x';' -e "$pmu/ib_tlp_npr/" -- \
	sh -c "echo 'event=ib_tlp_npr value=42' > $UNCORE_SIM/$pmu/inject" 2>&1 >/dev/null |
	awk -F';' '{ print $1 }')
if [ "$c" = 42 ]; then
	echo "ok 2 - perf counts the injected 42"
else
	echo "not ok 2 - perf counts the injected 42 (got '$c')"
	exit 1
fi
