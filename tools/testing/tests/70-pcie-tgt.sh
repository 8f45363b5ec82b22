#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the family's ABI, its guide's examples and refused input, with each release's perf
#
# Tegra410 PCIE-TGT PMU: the documented examples verbatim, root-port mask
# (BAR traffic only), address-range slots shared by equal ranges and
# released when the events close, and refused input.

. "$(dirname "$0")/lib/lib.sh"

P=nvidia_pcie_tgt_pmu_0_rc_0
I=$UNCORE_SIM/$P/inject

# ---- sysfs ----
check_rc_pmus nvidia_pcie_tgt_pmu 1070036b
fmt=""
for f in event dst_rp_mask dst_addr_en dst_addr_base dst_addr_mask; do
	fmt="$fmt $f=$(cat $EV/$P/format/$f 2>&1)"
done
check_eq "formats" " event=config:0-2 dst_rp_mask=config:3-10 dst_addr_en=config:11 \
dst_addr_base=config1:0-63 dst_addr_mask=config2:0-63" "$fmt"
evs=""
for e in rd_bytes:0x0 wr_bytes:0x1 rd_req:0x2 wr_req:0x3 cycles:0x4; do
	got=$(cat "$EV/$P/events/${e%%:*}" 2>&1)
	[ "$got" = "event=${e#*:}" ] || evs="$evs ${e%%:*}='$got'"
done
check_eq "events/* contents" "" "$evs"

# ---- the documented examples, verbatim ----
check_inject_count "nvidia_pcie_tgt_pmu_0_rc_0/event=0x0,dst_rp_mask=0x3/" 30 \
	"event=rd_bytes value=10 rp=0 target=bar" "event=rd_bytes value=20 rp=1 target=bar" \
	"event=rd_bytes value=40 rp=2 target=bar" "event=rd_bytes value=80 rp=0 target=cxl" \
	"event=wr_bytes value=160 rp=0 target=bar"
E=dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=0x1
check_inject_count "nvidia_pcie_tgt_pmu_0_rc_1/event=0x1,$E/" 96 \
	"event=wr_bytes value=64 addr=0x10040 rp=3 target=bar" \
	"event=wr_bytes value=32 addr=0x100ff target=cxl" \
	"event=wr_bytes value=1 addr=0x10100" "event=wr_bytes value=2 addr=0xff00" \
	"event=rd_bytes value=4 addr=0x10000"

# ---- root ports and targets ----
check_inject_count "$P/rd_req/" 7 "event=rd_req value=3 rp=0 target=bar" \
	"event=rd_req value=4 rp=7 target=bar" "event=rd_req value=100 rp=0 target=cxl"
check_inject_count "$P/rd_req,dst_rp_mask=0x80/" 4 "event=rd_req value=3 rp=0 target=bar" \
	"event=rd_req value=4 rp=7 target=bar" "event=rd_req value=100 rp=7 target=cxl"
E=dst_addr_base=0x2000000000,dst_addr_mask=0xfffffff000000000,dst_addr_en=1
check_inject_count "$P/wr_req,$E/" 11 \
	"event=wr_req value=5 addr=0x2000001000 target=cxl" \
	"event=wr_req value=6 addr=0x2fffffffff target=bar" \
	"event=wr_req value=100 addr=0x3000000000 target=cxl"
E=dst_addr_base=0x4000,dst_addr_mask=0xf000,dst_addr_en=1
check_inject_count "$P/wr_req,dst_rp_mask=0x1,$E/" 7 \
	"event=wr_req value=3 rp=0 addr=0x9000 target=bar" \
	"event=wr_req value=4 rp=5 addr=0x4abc target=cxl" \
	"event=wr_req value=100 rp=5 addr=0x9000 target=bar"
check_inject_count "$P/cycles/" 2024 "event=cycles value=2024"

# ---- slots: equal ranges share one, all are released when events close ----
# (8 counters here; nine ranges on a wider model: firmware/cspmu-wide)
evs=$(tgt_range_events $P rd_bytes 7 0x100000 /tmp/tgt_slots)
evs="$evs,$P/rd_bytes,dst_addr_base=0x100000,dst_addr_mask=0xff00000,dst_addr_en=1/"
out=$(perf stat -a -x';' -e "$evs" -- sh -c "cat /tmp/tgt_slots > $I" \
	2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "7 ranges in 7 slots, an 8th event shares slot 0" "1 2 3 4 5 6 7 1 " "$out"
check_tgt_slots_released $P
check_inject_count "$P/rd_bytes,dst_addr_base=0x7000,dst_addr_mask=0xf000,dst_addr_en=1/" 9 \
	"event=rd_bytes value=9 addr=0x7001" "event=rd_bytes value=10 addr=0x100040"

# ---- a slot is its range's until the last user goes ----
# Sessions that overlap: A (range R1) and B (R2) take a slot each; A goes
# and frees its slot; C (R2 too) comes and shares one slot with B (perf
# schedules B again beside it); B goes, and the slot stays for C, which
# counts its range's traffic.
# tgt_session NAME EVENT: a perf stat session of EVENT in the background,
# open once /tmp/tgt_NAME exists, ended by touching /tmp/tgt_NAME.go
tgt_session() {
	rm -f /tmp/tgt_$1 /tmp/tgt_$1.go
	perf stat -a -x';' -o /tmp/tgt_$1.out -e "$2" -- sh -c "
		touch /tmp/tgt_$1
		while [ ! -f /tmp/tgt_$1.go ]; do sleep 0.1; done" &
	_i=0
	while [ ! -f /tmp/tgt_$1 ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
# slots_on: how many of the 8 slots are enabled (CTRL 1)
slots_on() {
	awk '$1 ~ /^filter:0x(d38|d4c|d60|d74|d88|d9c|db0|dc4)$/ && $2 == "0x1" { n++ }
	     END { print n + 0 }' "$UNCORE_SIM/$P/regs"
}
R1=dst_addr_base=0x10000,dst_addr_mask=0xfff00,dst_addr_en=1
R2=dst_addr_base=0x20000,dst_addr_mask=0xfff00,dst_addr_en=1
tgt_session a "$P/rd_bytes,$R1/"
pa=$!
tgt_session b "$P/rd_bytes,$R2/"
pb=$!
check_eq "sessions: A and B, a slot each" 2 "$(slots_on)"
touch /tmp/tgt_a.go
wait $pa
check_eq "sessions: A gone, its slot released" 1 "$(slots_on)"
tgt_session c "$P/wr_bytes,$R2/"
pc=$!
check_eq "sessions: C shares B's range's slot" 1 "$(slots_on)"
touch /tmp/tgt_b.go
wait $pb
check_eq "sessions: B gone, the slot stays for C" 1 "$(slots_on)"
echo "event=wr_bytes value=77 addr=0x20040" > $I
echo "event=wr_bytes value=1000 addr=0x10040" > $I
touch /tmp/tgt_c.go
wait $pc
check_eq "sessions: C counts its range's traffic exactly" 77 \
	"$(awk -F';' -v e="$P/wr_bytes,$R2/" '$3 == e { print $1 }' /tmp/tgt_c.out)"
check_tgt_slots_released $P

# ---- refused input ----
T=$(pmu_type $P)
check_eq "errno: event 5" "errno 22 EINVAL" "$($PERF_OPEN "$T" 5)"
check_eq "errno: config bit 12" "errno 22 EINVAL" "$($PERF_OPEN "$T" 0x1000)"
check_eq "errno: sampling" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -s 10 "$T" 0)"

done_testing
