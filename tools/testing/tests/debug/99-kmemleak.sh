#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debug kernel only (vm-test.sh installs it when the kernel has kmemleak):
# the last test of each boot. Asks kmemleak for unreferenced objects twice:
# with our modules loaded (leaks made while the tests ran, with symbolic
# backtraces), then after unloading every module (memory a module's exit
# path did not free). Any unreferenced object fails the test, whoever
# allocated it: a leak found after unload has a backtrace of raw addresses
# in code that is gone, and a leak of a kernel object we hold a reference
# to (kobject, perf event, device) is allocated by the kernel, not by us.

. "$(dirname "$0")/lib/lib.sh"

KML=/sys/kernel/debug/kmemleak
. /etc/uncore-vm.conf

# Two scans, as kmemleak recommends: an object that was only transiently
# unreferenced (a pointer in flight) is no longer listed after the second.
# A scan skips objects younger than 5 s: the second one sees those too.
leaks() {
	echo scan > $KML || return 1
	sleep 6
	echo scan > $KML || return 1
	cat $KML
}

# leak_check DESC: one result for the current kmemleak listing
leak_check() {
	if ! out=$(leaks 2>&1); then
		not_ok "$1" "cannot scan or read $KML: $out"
		return
	fi
	if [ -z "$out" ]; then
		ok "$1"
		return
	fi
	echo "$out"
	n=$(echo "$out" | grep -c '^unreferenced object')
	mods=$(echo "$out" | grep -o '\[[a-z0-9_]*\]$' | sort -u | tr -d '[]' | tr '\n' ' ')
	not_ok "$1" "$n unreferenced object(s); modules in the backtraces: ${mods:-none}"
	echo "$out" | head -n 40 | sed 's/^/#   /'
}

if [ ! -r $KML ]; then
	not_ok "kmemleak is available" "$KML missing: kernel without kmemleak, or it was disabled"
	done_testing
	exit
fi
ok "kmemleak is available"

leak_check "no leak with the modules loaded"

# Where each module was, to map the raw addresses of an after-unload report.
rev=$(modules_last_first)
for m in $rev; do
	echo "# $(grep "^$m " /proc/modules)"
done
# Tests may have unloaded some already (fw-faults unloads all but the layer).
for m in $rev; do
	grep -q "^$m " /proc/modules && check_cmd "rmmod $m" rmmod "$m"
done
check_eq "none of our modules is loaded" "" \
	"$(for m in $MODULES; do grep "^$m " /proc/modules; done)"

leak_check "no leak after unloading every module"

done_testing
