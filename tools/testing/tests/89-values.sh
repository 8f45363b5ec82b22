#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Values, not only totals: register contents after perf has programmed or
# released them, counts above 2^32 on the default firmware, each value a
# hi-lo-hi read returns while traffic carries into the high word between
# its reads, and the effect of a freeze/thaw on the counters of a
# fixed-function PMU. Each section names the slip it is there to catch.

. "$(dirname "$0")/lib/lib.sh"

# reg PMU WIN:OFF: a register of the simulated PMU as its regs file shows it
reg() {
	awk -v r="$2" '$1 == r { print $2 }' "$UNCORE_SIM/$1/regs"
}

# ---- PEM: free-running 64-bit counters read with one 64-bit access ----
# A 32-bit read of a PEM counter loses every carry into bit 32: each value
# at or above 2^32 counts exactly here, on the default machine.
P=mrvl_pcie_rc_pmu_1000000000
out=$(perf stat -a -x';' -e "$P/ib_tlp_npr/,$P/ob_reads_partid/,$P/ats_inv_latency/" -- \
	sh -c "printf 'event=ib_tlp_npr value=4294967296
event=ob_reads_partid value=1099511627783
event=ats_inv_latency value=4503599627370499
' > $UNCORE_SIM/$P/inject" 2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "$P: 2^32, 2^40 + 7 and 2^52 + 3 exact" \
	"4294967296 1099511627783 4503599627370499 " "$out"
out=$(perf stat -a -x';' -I 200 -e "$P/ib_reads/" -- sh -c "
	echo 'event=ib_reads value=8589934597' > $UNCORE_SIM/$P/inject; sleep 0.5
	echo 'event=ib_reads value=4294967295' > $UNCORE_SIM/$P/inject; sleep 0.5" \
	2>&1 >/dev/null | awk -F';' 'NF >= 4 && $2 != 0 { printf "%s ", $2 }')
check_eq "$P: interval values 2^33 + 5, then 2^32 - 1" "8589934597 4294967295 " "$out"

# ---- CSPMU cycle counter: PMCCFILTR programmed at every start ----
# UCF: config1 & 0xfff, or 0xf07 without filters; PCIE: always 0xff,
# every root port and no requester (the cycle counter counts every cycle
# and is shared by all cycles events, so a cycles event's terms must not
# put a BDF beside the counting events' one); PCIE-TGT 0. The register
# resets to 0 here, so a driver that never writes it shows 0 on UCF and
# PCIE.
ccfilt() {
	_c=$(stat_count "$1/$2/" "echo 'event=cycles value=77' > $UNCORE_SIM/$1/inject")
	check_eq "$1/$2/: counts 77, PMCCFILTR $3" "77 $3" "$_c $(reg $1 page0:0x47c)"
}
U=nvidia_ucf_pmu_0
ccfilt $U cycles,src_loc_cpu=1 0x2
ccfilt $U cycles 0xf07
ccfilt $U cycles,dst_rem=1,src_rem=1 0x804
ccfilt $U cycles 0xf07
PC=nvidia_pcie_pmu_1_rc_2
ccfilt $PC cycles,src_rp_mask=0x4 0xff
ccfilt $PC cycles,src_bdf=0x180,src_bdf_en=1 0xff
ccfilt nvidia_pcie_tgt_pmu_1_rc_2 cycles 0x0

# ---- PCIE: a stopped counter keeps no BDF filter ----
# The RC has one BDF filter for all counters: when a BDF-filtered event
# stops, its counter's PMEVFILTR is cleared (Documentation/hw/nvidia-t410-cspmu.md 5.5:
# reset_ev_filter writes 0). The group's member inherits the leader's BDF.
PB=nvidia_pcie_pmu_0_rc_4
out=$(perf stat -a -x';' -e "{$PB/rd_req,src_bdf=0x180,src_bdf_en=1/,$PB/wr_req/}" -- sh -c "
	printf 'event=rd_req value=10 bdf=0x180
event=rd_req value=100 bdf=0x181
event=wr_req value=7 bdf=0x180
event=wr_req value=70 bdf=0x200
' > $UNCORE_SIM/$PB/inject
	awk '\$1 ~ /^page0:0xa0[04]\$/ { printf \"%s \", \$2 }' \
		$UNCORE_SIM/$PB/regs > /tmp/pcie-bdf.run" \
	2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "$PB: BDF 0x180 group: rd_req 10, wr_req 7" "10 7 " "$out"
check_eq "$PB: while counting, PMEVFILTR0/1 hold BDF 0x180 enabled" \
	"0x1018000 0x1018000 " "$(cat /tmp/pcie-bdf.run)"
check_eq "$PB: after the events stopped, PMEVFILTR0/1 are 0" "0x0 0x0" \
	"$(reg $PB page0:0xa00) $(reg $PB page0:0xa04)"
bad=""
for r in $(awk '$1 ~ /^page0:0xa[0-9a-f][0-9a-f]$/ { print $1 "=" $2 }' $UNCORE_SIM/$PB/regs); do
	[ $((${r#*=} & 0x1000000)) = 0 ] || bad="$bad $r"
done
check_eq "$PB: no PMEVFILTR keeps a BDF enable" "" "$bad"
check_inject_count "$PB/rd_req/" 7 "event=rd_req value=3 bdf=0x180" \
	"event=rd_req value=4 bdf=0x181"
rm -f /tmp/pcie-bdf.run

# ---- PCIE-TGT: same base, different masks: two ranges, two slots ----
# A slot is shared only by an equal (base, mask) pair (5.6.1).
T=nvidia_pcie_tgt_pmu_0_rc_3
A="$T/rd_bytes,dst_addr_base=0x10000,dst_addr_mask=0xfff00,dst_addr_en=1/"
B="$T/rd_bytes,dst_addr_base=0x10000,dst_addr_mask=0xf0000,dst_addr_en=1/"
out=$(perf stat -a -x';' -e "$A,$B" -- sh -c "
	printf 'event=rd_bytes value=1 addr=0x10040
event=rd_bytes value=2 addr=0x1a000
event=rd_bytes value=4 addr=0x20000
' > $UNCORE_SIM/$T/inject
	grep '^filter:' $UNCORE_SIM/$T/regs > /tmp/tgt-slots.run" \
	2>&1 >/dev/null | awk -F';' '{ printf "%s=%s ", $3, $1 }')
check_eq "$T: mask 0xfff00 counts 1, mask 0xf0000 counts 3" "$A=1 $B=3 " "$out"
# enabled slots while counting: "base/mask" of each, sorted
slots=$(awk '{ split($1, a, ":"); v[a[2]] = $2 }
	END {
		for (s = 0; s < 8; s++) {
			o = 0xd38 + 20 * s
			if (v[sprintf("0x%x", o)] != "0x1") continue
			print v[sprintf("0x%x", o + 4)] "/" v[sprintf("0x%x", o + 12)]
		}
	}' /tmp/tgt-slots.run | sort | xargs)
check_eq "$T: two slots enabled while counting, one per mask" "0x10000/0xf0000 0x10000/0xfff00" \
	"$slots"
check_tgt_slots_released $T
rm -f /tmp/tgt-slots.run

# ---- C2C: hi-lo-hi reads while traffic carries into the high word ----
# The counters are two 32-bit words. The simulator applies traffic right
# after the driver's read of one word (inject_on_read), so the low word
# wraps between the reads of one hi-lo-hi sequence: first after the first
# high-word read, then after the low-word read. Each read must still
# return the exact value: every interval of perf stat -I counts exactly
# what was injected in it, never a torn value that the next interval
# would cancel out. Instance 0 is the first the driver reads.
D=nvidia_nvdlink_pmu_0
R=$UNCORE_SIM/$D/inject_on_read
cat > /tmp/tear.sh <<EOF
fired() {
	i=0
	while [ -n "\$(cat $R)" ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
	cat $R >> /tmp/tear.state
	echo fired >> /tmp/tear.state
}
echo 'event=in_rd_req value=4294967294 instance=0' > $UNCORE_SIM/$D/inject
sleep 0.5
echo 'inst0:0x880 event=in_rd_req value=5 instance=0' > $R
fired
echo 'event=in_rd_req value=4294967290 instance=0' > $UNCORE_SIM/$D/inject
sleep 0.5
echo 'inst0:0x87c event=in_rd_req value=5 instance=0' > $R
fired
sleep 0.5
EOF
rm -f /tmp/tear.state
out=$(perf stat -a -x';' -I 100 -e "$D/in_rd_req/" -- sh /tmp/tear.sh 2>&1 >/dev/null |
	awk -F';' 'NF >= 4 && $2 != 0 { printf "%s ", $2 }')
check_eq "$D: both injections fired on a counter read" "fired fired" \
	"$(xargs < /tmp/tear.state 2>&1)"
check_eq "$D: every interval exact across two carries mid-read" \
	"4294967294 5 4294967290 5 " "$out"
echo > $R
rm -f /tmp/tear.sh /tmp/tear.state

# ---- CMEM: a group read thaws the counters it froze ----
# Two independent checks of the thaw: traffic after several group reads
# still counts, and every instance's CTRL is back to counting (0x1) while
# the events run.
C=nvidia_cmem_latency_pmu_1
out=$(perf stat -a -x';' -I 100 -e "{$C/rd_req/,$C/cycles/}" -- sh -c "
	echo 'event=rd_req value=11 instance=5 mc=1' > $UNCORE_SIM/$C/inject
	sleep 0.5
	awk '\$1 ~ /^inst[0-9]+:0x808\$/ { print \$2 }' $UNCORE_SIM/$C/regs | sort | uniq -c |
		xargs > /tmp/cmem-ctrl.run
	echo 'event=rd_req value=22 instance=12 mc=0' > $UNCORE_SIM/$C/inject
	sleep 0.3" 2>&1 >/dev/null | awk -F';' '
	NF >= 4 { n = split($4, p, "/"); if (p[n - 1] == "rd_req") { s += $2; if ($2 > 0) k++ } }
	END { printf "%d in %d", s, k }')
check_eq "$C: traffic after group reads counted (11, then 22)" "33 in 2" "$out"
check_eq "$C: after group reads all 14 instances count (CTRL 0x1)" "14 0x1" \
	"$(cat /tmp/cmem-ctrl.run)"
rm -f /tmp/cmem-ctrl.run

done_testing
