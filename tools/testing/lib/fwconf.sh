# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# A firmware's boot settings: tools/testing/tests/firmware/<firmware>/
# firmware.conf, "key=value" lines and "#" comments, sourced by
# vm-test.sh, vm-all.sh and mutation/run.sh. The keys:
#   arch=x86_64|arm64  the one guest that boots it (default: any, x86_64
#                      in make check)
#   kernel=newest      make check boots it on the newest kernel series of
#                      check/kernels.conf (default: Debian 12's 6.1);
#   kernel=SERIES      or on that series of check/kernels.conf (7.3-rt:
#                      Debian's PREEMPT_RT kernel, 6.12-16k: its arm64
#                      kernel with 16 KiB pages)
#   kernel=64k         not in make check, nor in vm-test.sh: the topology
#                      of operator/coexist.sh's guest (make check-64k),
#                      on vm/kernel-64k.sh's kernel; it reads append=
#   append=ARGS        more on the guest's kernel command line
#   apmt_backend=yes   the simulator hands the APMT to the helper layer
#                      (uncore_sim.apmt=) on x86 too, as on arm64
# A firmware without the file has every default.

# fw_conf DIR KEY: KEY's value in DIR/firmware.conf, nothing if unset;
# status 1 (and the line on stderr) for a key or value it does not know
fw_conf()
{
	local f=$1/firmware.conf

	[ -f "$f" ] || return 0
	awk -v k="$2" -v f="$f" '
	/^[ \t]*(#|$)/ { next }
	{
		key = substr($0, 1, index($0, "=") - 1)
		val = substr($0, index($0, "=") + 1)
		if (key == "arch" && val !~ /^(x86_64|arm64)$/ ||
		    key == "kernel" && val !~ /^(newest|64k|[0-9]+\.[0-9]+(-rt|-16k)?)$/ ||
		    key == "apmt_backend" && val != "yes" ||
		    key !~ /^(arch|kernel|append|apmt_backend)$/) {
			printf "%s:%d: unknown setting: %s\n", f, NR, $0 > "/dev/stderr"
			bad = 1
		}
		if (key == k)
			v = val
	}
	END { if (bad) exit 1; if (v != "") print v }' "$f"
}
