#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Coverage boots only (vm-test.sh installs it with UNCORE_COVERAGE_DIR set,
# on a kernel with CONFIG_GCOV_KERNEL): the very last test of the boot.
# It first unloads every module of ours still loaded (on the debug kernel
# the kmemleak test has done so already), so the exit paths are counted
# too (gcov_persist keeps an unloaded module's counts).
#
# Copies every .gcda under /sys/kernel/debug/gcov/ (each at the absolute
# path its object had on the host) and writes them to stdout, which the
# init copies to the console: a gzip'd tar as hex between the lines
# "@@ gcov begin N" and "@@ gcov end", N the number of files. Hex, not
# base64: no console line can spell a word the host scans the console for.

. "$(dirname "$0")/lib/lib.sh"
. /etc/uncore-vm.conf

G=/sys/kernel/debug/gcov
OUT=/tmp/gcov-out

if [ ! -d $G ]; then
	not_ok "gcov data" "$G missing: a kernel without CONFIG_GCOV_KERNEL"
	done_testing
	exit
fi
rev=$(modules_last_first)
for m in $rev; do
	grep -q "^$m " /proc/modules && check_cmd "rmmod $m" rmmod "$m"
done
rm -rf $OUT
n=0
find $G -name '*.gcda' >/tmp/gcov-list
while read -r f; do
	d=$OUT${f#"$G"}
	mkdir -p "${d%/*}"
	# debugfs says size 0: read, never stat, each file
	cat "$f" >"$d" || { not_ok "gcov data" "cannot read $f"; done_testing; exit; }
	n=$((n + 1))
done </tmp/gcov-list
if [ $n -eq 0 ]; then
	not_ok "gcov data" "no .gcda under $G: modules built without GCOV_PROFILE"
	done_testing
	exit
fi
echo "@@ gcov begin $n"
tar -cf - -C $OUT . | gzip -9 | od -An -v -tx1 | tr -d ' '
echo "@@ gcov end"
ok "gcov data of $n object files written"
done_testing
