#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# requires: function_graph
# arch-neutral: the simulator counts the register accesses, the same on both guests
#
# MMIO cost of every perf callback, per PMU family, on the default
# firmware (issue 8): function_graph attributes each register access to
# the callback that made it (tests/lib/bench.sh), the simulator's stats
# confirm the totals. The figures are deterministic, so the budgets are
# exact assertions:
#   - read: no MMIO write; one read per atomic 64-bit counter, three per
#     hi-lo-hi pair, only the instances the filter selects; no status read;
#   - CMEM pmu_enable at most 2 writes (3 when the last event went away),
#     pmu_disable at most 3; C2C at most 1 write per enable or disable;
#   - CSPMU add (with its start) writes no more registers than changed in
#     that phase (PMCR, and PMCNTENCLR/PMINTENCLR, which read back the
#     same state as the SET registers, left out);
#   - group reads of CSPMU and CMEM read no counter while it counts
#     (reads_while_running 0: read transactions freeze the PMU);
#   - no allocation and no print in any callback.
# With BENCH_TIMING=1 in lib/bench.conf (make bench) it also times read()
# against a software event and the CPU cost of perf stat -I 100 on every
# event of every PMU of ours.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/bench.sh"
BENCH_TIMING=0
[ -f "$TESTLIB/bench.conf" ] && . "$TESTLIB/bench.conf"

bench_require
check_eq "every perf callback of the helper layer is traced" "$BENCH_CALLBACKS" \
	"${BENCH_GRAPH# }"

# check_status NAME: the read path reads no status register
check_status() {
	bench_check_stat "$1: read: no status reads" "$1" read status_reads 0
}

# ---- CSPMU: UCF, PCIE, PCIE-TGT ----

bench_run ucf $UCF $CSX "$(ev $UCF slc_bytes_rd)"
bench_table ucf "UCF $UCF: slc_bytes_rd (64-bit counters, atomic)"
check_read ucf 1
check_add ucf
bench_clean ucf

# The whole PMU as one group: every event counter and the cycle counter.
pmcfgr=$(awk '$1 == "page0:0xe00" { print $2 }' $UNCORE_SIM/$UCF/regs)
nlog=$(((pmcfgr & 0xff) + 1))
cc=$(((pmcfgr >> 14) & 1))
check_eq "$UCF: default firmware: 8 event counters and a cycle counter" "9 1" "$nlog $cc"
evs=$(events_n $((nlog - cc)) "$(ev $UCF slc_bytes_rd)" | tr , ' ')
[ $cc = 1 ] && evs="$evs $(ev $UCF cycles)"
# shellcheck disable=SC2086 # one word per event
bench_run ucfg $UCF -g $CSX $evs
bench_table ucfg "UCF $UCF: group of all $nlog counters"
check_read ucfg 1
check_eq "ucfg: read: 16 group reads, each counter once" "$((16 * nlog)) $((16 * nlog))" \
	"$(bench_rd ucfg read calls) $(bench_get ucfg read traced reads)"
check_eq "ucfg: read: no counter read while it counts (read transaction)" 0 \
	"$(bench_get ucfg read stats reads_while_running)"
check_add ucfg
bench_clean ucfg

bench_run pcie $PCIE $CSX "$(ev $PCIE rd_req)"
bench_table pcie "PCIE $PCIE: rd_req"
check_read pcie 1
check_add pcie
bench_clean pcie

bench_run tgt $TGT $CSX "$(ev $TGT rd_bytes)"
bench_table tgt "PCIE-TGT $TGT: rd_bytes"
check_read tgt 1
check_add tgt
bench_clean tgt

bench_run tgtf $TGT $CSX \
	"$(ev $TGT wr_bytes,dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=0x1)"
bench_table tgtf "PCIE-TGT $TGT: wr_bytes with an address filter"
check_read tgtf 1
check_add tgtf
bench_clean tgtf

# ---- CMEM: 14 instances x 3 MCs, 64-bit atomic counters, broadcast control ----

# check_cmem NAME: broadcast writes of pmu_enable and pmu_disable
check_cmem() {
	for ph in enable read disable reenable read2 close; do
		lim=2
		# the last event gone: gate, stop and clear
		case $ph in disable|close) lim=3 ;; esac
		check_le "$1: $ph: pmu_enable writes at most $lim" $lim \
			"$(bench_get "$1" $ph pmu_enable writes_max)"
		check_le "$1: $ph: pmu_disable writes at most 3" 3 \
			"$(bench_get "$1" $ph pmu_disable writes_max)"
	done
}

bench_run cmc $CMEM "$(ev $CMEM cycles)"
bench_table cmc "CMEM $CMEM: cycles"
check_read cmc 1
check_status cmc
check_cmem cmc
bench_clean cmc

bench_run cmr $CMEM "$(ev $CMEM rd_req)"
bench_table cmr "CMEM $CMEM: rd_req (14 instances x 3 MCs)"
check_read cmr 42
check_status cmr
check_cmem cmr
bench_clean cmr

bench_run cmg $CMEM -g "$(ev $CMEM cycles)" "$(ev $CMEM rd_req)" "$(ev $CMEM rd_cum_outs)"
bench_table cmg "CMEM $CMEM: group {cycles, rd_req, rd_cum_outs}"
check_eq "cmg: read: 16 group reads, 1 + 42 + 42 counter reads each" "48 1 42 $((16 * 85))" \
	"$(bench_rd cmg read calls) $(bench_rd cmg read reads_min) \
$(bench_rd cmg read reads_max) $(bench_get cmg read traced reads)"
check_eq "cmg: read: no MMIO write in read" 0 "$(bench_rd cmg read writes_max)"
check_eq "cmg: read: no counter read while it counts (read transaction)" 0 \
	"$(bench_get cmg read stats reads_while_running)"
check_status cmg
check_cmem cmg
bench_clean cmg

# ---- C2C: NVLink-C2C (GPU 0 instances 0-6, GPU 1 7-13), NV-CLink, NV-DLink ----

# check_c2c NAME: at most one broadcast write per enable or disable
check_c2c() {
	for ph in enable read disable reenable read2 close; do
		check_le "$1: $ph: pmu_enable and pmu_disable write at most once" 1 \
			"$(($(bench_get "$1" $ph pmu_enable writes_max) > \
			   $(bench_get "$1" $ph pmu_disable writes_max) ? \
			   $(bench_get "$1" $ph pmu_enable writes_max) : \
			   $(bench_get "$1" $ph pmu_disable writes_max)))"
	done
}

bench_run c2a $C2C "$(ev $C2C in_rd_req)"
bench_table c2a "NVLink-C2C $C2C: in_rd_req, both GPUs (14 instances, hi-lo-hi)"
check_read c2a 42
check_status c2a
check_c2c c2a
bench_clean c2a

bench_run c2g $C2C "$(ev $C2C in_rd_req,gpu_mask=0x1)"
bench_table c2g "NVLink-C2C $C2C: in_rd_req,gpu_mask=0x1 (GPU 0: 7 instances)"
check_read c2g 21
check_status c2g
check_c2c c2g
bench_clean c2g

bench_run c2c $C2C "$(ev $C2C cycles)"
bench_table c2c "NVLink-C2C $C2C: cycles"
check_read c2c 3
check_status c2c
check_c2c c2c
bench_clean c2c

# A group is read in one read transaction: each counter once, never while
# it counts (hi-lo-hi: 3 reads an instance; cycles from one instance).
bench_run c2r $C2C -g "$(ev $C2C cycles)" "$(ev $C2C in_rd_req)" "$(ev $C2C in_rd_cum_outs)"
bench_table c2r "NVLink-C2C $C2C: group {cycles, in_rd_req, in_rd_cum_outs}"
check_eq "c2r: read: 16 group reads, 3 + 42 + 42 counter reads each" "48 3 42 $((16 * 87))" \
	"$(bench_rd c2r read calls) $(bench_rd c2r read reads_min) \
$(bench_rd c2r read reads_max) $(bench_get c2r read traced reads)"
check_eq "c2r: read: no counter read while it counts (read transaction)" 0 \
	"$(bench_get c2r read stats reads_while_running)"
check_status c2r
check_c2c c2r
bench_clean c2r

for spec in "$CLINK 12" "$DLINK 16"; do
	set -- $spec
	n=${1#nvidia_}
	n=${n%%_*}
	check_eq "$1: $2 instance windows" $2 \
		"$(awk '$1 ~ /^inst[0-9]+:/ { sub(/:.*/, "", $1); w[$1] = 1 }
		   END { print length(w) }' $UNCORE_SIM/$1/regs)"
	bench_run $n $1 "$(ev $1 in_rd_req)"
	bench_table $n "$1: in_rd_req ($2 instances, hi-lo-hi)"
	check_read $n $((3 * $2))
	check_status $n
	check_c2c $n
	bench_clean $n
done

# ---- PEM: free-running 64-bit counters, never written ----

bench_run pem $PEM "$(ev $PEM ib_tlp_npr)"
bench_table pem "PEM $PEM: ib_tlp_npr (free-running)"
check_read pem 1
check_eq "pem: no MMIO write in any phase" 0 \
	"$(awk '$1 == "pem" && $3 == "stats" { for (i = 4; i <= NF; i++)
		if ($i ~ /^mmio_writes=/) { sub(/.*=/, "", $i); s += $i } } END { print s + 0 }' \
		$BENCH_RES)"
bench_clean pem

bench_teardown

# ---- timing (make bench) ----

if [ "$BENCH_TIMING" = 1 ]; then
	echo "# ---- read() time: our event vs a CPU-wide software event (cpu-clock)," \
	     "same CPU, median of 2000 ----"
	for spec in "$UCF slc_bytes_rd" "$PCIE rd_req" "$TGT rd_bytes" "$CMEM rd_req" \
		    "$C2C in_rd_req" "$CLINK in_rd_req" "$DLINK in_rd_req" "$PEM ib_tlp_npr"; do
		set -- $spec
		if out=$($TESTLIB/pmu_bench -T -n 2000 -p $1 "$(ev $1 $2)" 2>&1); then
			echo "$out" | awk -v e="$1/$2/" '{ sub(/^timing /, "")
				printf "#   %-42s %s\n", e, $0 }'
			ok "timing: $1/$2/"
		else
			not_ok "timing: $1/$2/" "$out"
		fi
	done

	# guest CPU busy (every CPU, from /proc/stat) over 10 s
	busy() {
		awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i
			print t - $5 - $6, t }' /proc/stat
	}
	pct() {
		set -- $1 $2 $3 $4
		awk -v b=$(($3 - $1)) -v t=$(($4 - $2)) \
			'BEGIN { printf "%.1f", t ? 100 * b / t : 0 }'
	}
	b0=$(busy); sleep 10; b1=$(busy)
	idle=$(pct "$b0 $b1")
	args=""
	nev=0
	for p in $(our_pmus); do
		for e in $EV/$p/events/*; do
			case $e in *.unit|*.scale) continue ;; esac
			args="$args -e $p/${e##*/}/"
			nev=$((nev + 1))
		done
	done
	b0=$(busy)
	# shellcheck disable=SC2086 # one word per option
	perf stat -a -I 100 -x';' $args -- sleep 10 > /tmp/bench.stat 2>&1
	st=$?
	b1=$(busy)
	check_eq "timing: perf stat -I 100 on all $nev events ran" 0 $st
	loaded=$(pct "$b0 $b1")
	echo "# ---- guest CPU busy over 10 s (4 CPUs, /proc/stat) ----"
	echo "#   idle:                                         $idle %"
	echo "#   perf stat -a -I 100 on all $nev events of our PMUs: $loaded %"
	awk -v a="$loaded" -v b="$idle" 'BEGIN {
		printf "#   ratio: %.1f; perf stat costs %.1f %% of the 4 CPUs\n",
		       (b > 0 ? a / b : 0), a - b }'
fi

done_testing
