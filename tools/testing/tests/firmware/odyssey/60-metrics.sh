#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware odyssey: tools/uncore-metrics/uncore-metrics on the Odyssey DDR
# and LLC-TAD PMUs. Each family's PMUs are found; DDR reads and writes of
# known numbers are injected into both controllers, and hits, lookups and
# allocations into the four TAD blocks, while the tool's perf counts one
# interval; every figure of the CSV, the table (its total row the sum of
# the controllers) and the JSON must be exactly the value computed here
# from the injected amounts and the interval perf printed, in the tool's
# own order of operations (it prints 9 digits). The exporter daemon's
# file then has the counts of the same traffic.

. "$(dirname "$0")/lib/lib.sh"

TOOL=$METRICS_TOOL
OUT=$METRICS_OUT
RAW=$METRICS_RAW
D0=mrvl_ddr_pmu_1000200000
D1=mrvl_ddr_pmu_10002a0000

# exact DESC EXPR PMU METRIC: the figure is EXPR, an awk expression, as
# the tool prints it ("%.9g")
exact() {
	check_eq "$1" "$(awk "BEGIN { printf \"%.9g\", $2 }")" "$(fig "$3" "$4")"
}

# figures PMU: the metric names the tool printed for PMU, in order
figures() {
	awk -F, -v p="$1" '$3 == p { printf "%s%s", s, $6; s = " " }' $OUT
}

check_eq "tool present in the guest" yes "$([ -x "$TOOL" ] && echo yes)"

# ---- which PMUs belong to which family ----
"$TOOL" --list -f ddr,tad > $OUT 2>/tmp/ometrics.err
# the socket column: the package of the PMU's CPU (no _PXM on Odyssey),
# which arm64 numbers by the firmware's PPTT, not from 0
c=$(cat $EV/tad/cpumask)
pk=$(cat /sys/devices/system/cpu/cpu${c%%[!0-9]*}/topology/physical_package_id)
check_eq "--list -f ddr,tad: both controllers by address value, then tad" \
	"ddr:$pk:$D0 ddr:$pk:$D1 tad:$pk:tad" \
	"$(awk 'NR > 1 { printf "%s%s:%s:%s", s, $1, $2, $3; s = " " }' $OUT)"

# ---- DDR: reads and writes per second, per controller ----
measure "printf '%s\n' 'event=ddr_ddr_reads value=6000000' \
	'event=ddr_ddr_writes value=2500000' 'event=ddr_cam_read value=999' > $UNCORE_SIM/$D0/inject
	printf '%s\n' 'event=ddr_ddr_reads value=1500000' \
	'event=ddr_ddr_writes value=700' > $UNCORE_SIM/$D1/inject" -f ddr
exact "$D0 read rate = ddr_ddr_reads / s" "6000000 * 1e9 / $NS" $D0 read_per_sec
exact "$D0 write rate = ddr_ddr_writes / s" "2500000 * 1e9 / $NS" $D0 write_per_sec
exact "$D1 read rate, its own controller's reads only" "1500000 * 1e9 / $NS" $D1 read_per_sec
exact "$D1 write rate" "700 * 1e9 / $NS" $D1 write_per_sec
check_eq "DDR: 2 figures a controller, no GB/s (bytes per read undocumented)" \
	"read_per_sec write_per_sec|read_per_sec write_per_sec" "$(figures $D0)|$(figures $D1)"
check_eq "DDR: the free-running counters only, raw counts as injected" \
	"6000000 2500000 1500000 700" \
	"$(awk -F, '$1 ~ /[0-9][.][0-9]/ { printf "%s%s", s, $2; s = " " }' $RAW)"

# the table of the same counts: a row a controller and their total, each
# column in the unit its largest figure gives (k, M or G req/s), two
# decimals
"$TOOL" --input $RAW > $OUT 2>/tmp/ometrics.err
# cell ROW COLUMN: the figure of the table row ROW in column COLUMN (2, 3)
cell() {
	awk -v r="$1" -v c="$2" '$1 == r { print $c; exit }' $OUT
}
# header COLUMN: the unit under the column's name
header() {
	awk -v c="$1" '$1 == "ddr" { getline; print $(c - 1); exit }' $OUT
}
# unit MAX: the unit of a column whose largest figure is MAX req/s
unit() {
	awk -v m="$1" 'BEGIN {
		print (m >= 1e9 ? "G" : m >= 1e6 ? "M" : m >= 1e3 ? "k" : "") "req/s" }'
}
# scaled EXPR UNIT: EXPR req/s in UNIT, as the table prints it
scaled() {
	awk -v u="$2" "BEGIN { v = $1; p = substr(u, 1, 1); m = 1
		if (p == \"k\") m = 1e3; else if (p == \"M\") m = 1e6; else if (p == \"G\") m = 1e9
		printf \"%.2f\", v / m }"
}
R0="6000000 * 1e9 / $NS"
R1="1500000 * 1e9 / $NS"
W0="2500000 * 1e9 / $NS"
W1="700 * 1e9 / $NS"
UR=$(unit "$(awk "BEGIN { print $R0 }")")
UW=$(unit "$(awk "BEGIN { print $W0 }")")
check_eq "table: ddr rows, by address, and total" "ddr_1000200000 ddr_10002a0000 total" \
	"$(awk '/^(ddr_|total)/ { printf "%s%s", s, $1; s = " " }' $OUT)"
check_eq "table: the units of the largest figures" "$UR $UW" "$(header 2) $(header 3)"
check_eq "table: each controller's reads and writes" \
	"$(scaled "$R0" $UR) $(scaled "$W0" $UW) $(scaled "$R1" $UR) $(scaled "$W1" $UW)" \
	"$(cell ddr_1000200000 2) $(cell ddr_1000200000 3) $(cell ddr_10002a0000 2)\
 $(cell ddr_10002a0000 3)"
check_eq "table: total reads and writes, the sums of the controllers" \
	"$(scaled "$R0 + $R1" $UR) $(scaled "$W0 + $W1" $UW)" "$(cell total 2) $(cell total 3)"

# ---- LLC-TAD: hit ratio, lookups, hits, allocations, all four blocks ----
measure "printf '%s\n' 'event=tad_tag_rd value=1000 tad=0' 'event=tad_tag_rd value=3000 tad=3' \
	'event=tad_hit_any value=700 tad=0' 'event=tad_hit_any value=2300 tad=3' \
	'event=tad_alloc_any value=11 tad=1' 'event=tad_alloc_any value=29 tad=2' \
	'event=tad_hit_dtg value=5000 tad=0' 'event=tad_alloc_ltg value=5000 tad=1' \
	> $UNCORE_SIM/tad/inject" -f tad
check_eq "TAD hit ratio = tad_hit_any * 100 / tad_tag_rd, over the blocks" 75 \
	"$(fig tad hit_ratio)"
exact "TAD lookups per second = tad_tag_rd / s" "4000 * 1e9 / $NS" tad lookup_per_sec
exact "TAD hits per second = tad_hit_any / s" "3000 * 1e9 / $NS" tad hit_per_sec
exact "TAD allocations per second = tad_alloc_any / s, not DTG/LTG" "40 * 1e9 / $NS" \
	tad alloc_per_sec
check_eq "TAD: its 4 figures" "hit_ratio lookup_per_sec hit_per_sec alloc_per_sec" \
	"$(figures tad)"

# ---- JSON ----
"$TOOL" --json -f ddr,tad -I 100000 -- sh -c \
	"printf '%s\n' 'event=tad_tag_rd value=400 tad=2' 'event=tad_hit_any value=100 tad=1' \
	'event=tad_alloc_any value=300 tad=0' > $UNCORE_SIM/tad/inject
	printf '%s\n' 'event=ddr_ddr_reads value=64' 'event=ddr_ddr_writes value=32' \
	> $UNCORE_SIM/$D1/inject" > $OUT 2>/tmp/ometrics.err
check_eq "--json: status" 0 $?
check_eq "--json: the counts of each PMU" \
	'"counts":{"ddr_ddr_reads":0,"ddr_ddr_writes":0}|'\
'"counts":{"ddr_ddr_reads":64,"ddr_ddr_writes":32}|'\
'"counts":{"tad_tag_rd":400,"tad_hit_any":100,"tad_alloc_any":300}' \
	"$(grep -o '"counts":{[^}]*}' $OUT | tr '\n' '|' | sed 's/|$//')"
check_eq "--json: the TAD hit ratio, no socket" '"family":"tad","socket":null|"hit_ratio":25,' \
	"$(grep -o '"family":"tad","socket":[a-z0-9]*' $OUT)|$(grep -o '"hit_ratio":[^,]*,' $OUT)"
check_eq "--json: $D0 without traffic: 0 reads per second" '"read_per_sec":0,' \
	"$(grep -o '"read_per_sec":[^,]*,' $OUT | head -n 1)"

# ---- the exporter daemon on the same traffic ----
exporter_run "printf '%s\n' 'event=tad_tag_rd value=400 tad=2' 'event=tad_hit_any value=100 tad=1' \
	'event=tad_alloc_any value=300 tad=0' > $UNCORE_SIM/tad/inject
	printf '%s\n' 'event=ddr_ddr_reads value=64' 'event=ddr_ddr_writes value=32' \
	> $UNCORE_SIM/$D1/inject" --family ddr,tad
check_eq "the exporter daemon: SIGTERM, exit 0, nothing on stderr" "0" "$?$(cat $EXPORTER_FILE.err)"
L0="pmu=\"$D0\",family=\"ddr\""
L1="pmu=\"$D1\",family=\"ddr\""
L="pmu=\"tad\",family=\"tad\""
check_eq "the exporter daemon's file: DDR requests, TAD lookups, hits and allocations" \
	"uncore_pmu_cache_lookups_total{$L} 400
uncore_pmu_cache_hits_total{$L} 100
uncore_pmu_cache_allocations_total{$L} 300
uncore_pmu_memory_requests_total{$L0,direction=\"read\"} 0
uncore_pmu_memory_requests_total{$L0,direction=\"write\"} 0
uncore_pmu_memory_requests_total{$L1,direction=\"read\"} 64
uncore_pmu_memory_requests_total{$L1,direction=\"write\"} 32" \
	"$(grep -E '^uncore_pmu_(cache_[a-z]+|memory_requests)_total\{' $EXPORTER_FILE)"
V=$(cat /sys/module/marvell_odyssey_tad_pmu/version 2>/dev/null)
check_eq "the exporter daemon's file: the TAD's info: no identifier, its module and version" \
	"uncore_pmu_info{$L,identifier=\"\",module=\"marvell_odyssey_tad_pmu\",version=\"$V\"} 1" \
	"$(grep "^uncore_pmu_info{$L" "$EXPORTER_FILE")"
# 4 metrics with series (memory_requests and the three cache_ ones), then
# the enabled and running seconds (counters), the info, the interval and
# the time of writing (gauges): 9 HELP and TYPE lines, 6 of them counters
check_eq "the exporter daemon's file: HELP and TYPE for each of the 9 metrics, 6 counters" \
	"9 9 6" \
	"$(grep -c '^# HELP uncore_pmu_' "$EXPORTER_FILE") \
$(grep -c '^# TYPE uncore_pmu_' "$EXPORTER_FILE") \
$(grep -c '^# TYPE uncore_pmu_.*_total counter$' "$EXPORTER_FILE")"

done_testing
