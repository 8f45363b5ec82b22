#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: function_graph
#
# MMIO cost of a UCF read without 64-bit atomic access (dual page): one
# hi-lo-hi sequence, three 32-bit reads, and no write
# (tests/lib/bench.sh; the default firmware's figures are in 87-bench.sh).

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/bench.sh"

bench_require
bench_run ucf $UCF $CSX "$(bench_event $UCF slc_bytes_rd)"
bench_table ucf "UCF $UCF: slc_bytes_rd (64-bit counters, hi-lo-hi, dual page)"
check_eq "ucf: read: 3 MMIO reads per call" "3 3" \
	"$(bench_rd ucf read reads_min) $(bench_rd ucf read reads_max)"
check_eq "ucf: read: no MMIO write" "0 0" \
	"$(bench_rd ucf read writes_max) $(bench_rd ucf read2 writes_max)"
# Without 64-bit access a 64-bit counter is two 32-bit registers: each
# changed counter (page 1, below PMEVTYPER's 0x400) counts twice.
for ph in enable reenable; do
	words=$(awk -v ph=$ph '$1 == "ucf" && $2 == ph && $3 == "regs" {
		n = substr($4, 9)
		for (i = 5; i <= NF; i++)
			if ($i ~ /^page1:0x/ && hexval($i) < 1024)
				n++
		print n }
		function hexval(r,    h, v, c) {
			h = tolower(substr(r, 9)); v = 0
			while (h != "") {
				c = index("0123456789abcdef", substr(h, 1, 1)) - 1
				v = v * 16 + c; h = substr(h, 2)
			}
			return v
		}' $BENCH_RES)
	check_le "ucf: $ph: add+start writes <= 32-bit registers changed" \
		"$words" "$(bench_get ucf $ph add writes)"
	check_le "ucf: $ph: all writes of the phase <= 32-bit registers changed" \
		"$words" "$(bench_get ucf $ph stats mmio_writes)"
done
bench_clean ucf
bench_teardown

done_testing
