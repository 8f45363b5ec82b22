#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the family's ABI, its guide's examples and refused input, with each release's perf
#
# Tegra410 PCIE PMU: names from the socket and the RC's instance_id, the
# documented examples verbatim, root-port, BDF and destination filters and
# their defaults, and the one-BDF-per-PMU rules.

. "$(dirname "$0")/lib/lib.sh"

P=nvidia_pcie_pmu_0_rc_0
I=$UNCORE_SIM/$P/inject
DSTS="loc_cmem loc_gmem loc_pcie_p2p loc_pcie_cxl rem"

# ---- sysfs: rc 0-5 on both sockets ----
check_rc_pmus nvidia_pcie_pmu 1030136b
fmt=""
for f in event src_rp_mask src_bdf src_bdf_en dst_loc_cmem dst_loc_gmem dst_loc_pcie_p2p \
	 dst_loc_pcie_cxl dst_rem; do
	fmt="$fmt $f=$(cat $EV/$P/format/$f 2>&1)"
done
check_eq "formats" " event=config:0-32 src_rp_mask=config1:0-7 src_bdf=config1:8-23 \
src_bdf_en=config1:24 dst_loc_cmem=config2:0 dst_loc_gmem=config2:1 dst_loc_pcie_p2p=config2:2 \
dst_loc_pcie_cxl=config2:3 dst_rem=config2:4" "$fmt"
evs=""
for e in rd_bytes:0x0 wr_bytes:0x1 rd_req:0x2 wr_req:0x3 rd_cum_outs:0x4 cycles:0x100000000; do
	got=$(cat "$EV/$P/events/${e%%:*}" 2>&1)
	[ "$got" = "event=${e#*:}" ] || evs="$evs ${e%%:*}='$got'"
done
check_eq "events/* contents" "" "$evs"

# ---- traffic from every RP to every destination, each a distinct bit ----
# rp_traffic EVENT: value 1 << (5 * rp + dst) for rp 0-3; RP 4-7 add 1 << 20.
rp_traffic() {
	grid_traffic $1 rp "0 1 2 3" dst "$DSTS"
	echo "event=$1 value=$((1 << 20)) rp=7 dst=loc_cmem"
}

# expect RPMASK DSTMASK for rp_traffic (0 = everything in that group)
expect() {
	rm=$1
	dm=$2
	[ "$rm" = 0 ] && rm=255
	[ "$dm" = 0 ] && dm=31
	sum=$(grid_sum $rm 4 $dm 5)
	[ $(((rm >> 7) & 1)) = 1 ] && [ $((dm & 1)) = 1 ] && sum=$((sum + (1 << 20)))
	echo $sum
}

rp_traffic rd_req > /tmp/pcie_rd_req
for f in "0 0" "1 0" "2 0" "8 0" "128 0" "0 1" "0 2" "0 4" "0 8" "0 16" "3 1" "5 24" "255 31"; do
	set -- $f
	rps=""
	[ "$1" != 0 ] && rps=",src_rp_mask=$1"
	ev="$P/event=0x2$rps$(mask_terms $2 dst_ $DSTS)/"
	c=$(stat_count "$ev" "cat /tmp/pcie_rd_req > $I")
	check_eq "filter rp=$1 dst=$2: $ev" "$(expect $1 $2)" "$c"
done

# ---- the documented examples, verbatim, with traffic that must not count ----
check_inject_count "nvidia_pcie_pmu_0_rc_0/event=0x0,src_rp_mask=0x1/" 100 \
	"event=rd_bytes value=100 rp=0 dst=rem" "event=rd_bytes value=5 rp=1" \
	"event=wr_bytes value=7 rp=0"
check_inject_count "nvidia_pcie_pmu_0_rc_1/event=0x1,src_rp_mask=0x3,dst_loc_cmem=0x1/" 30 \
	"event=wr_bytes value=10 rp=0 dst=loc_cmem" "event=wr_bytes value=20 rp=1 dst=loc_cmem" \
	"event=wr_bytes value=40 rp=1 dst=loc_gmem" "event=wr_bytes value=80 rp=2 dst=loc_cmem"
check_inject_count "nvidia_pcie_pmu_1_rc_2/event=0x2,src_rp_mask=0x1/" 3 \
	"event=rd_req value=3 rp=0 dst=loc_pcie_p2p" "event=rd_req value=4 rp=3"
check_inject_count "nvidia_pcie_pmu_1_rc_3/event=0x3,src_rp_mask=0x3,dst_loc_cmem=0x1/" 11 \
	"event=wr_req value=5 rp=0" "event=wr_req value=6 rp=1" \
	"event=wr_req value=7 rp=1 dst=rem" "event=wr_req value=9 rp=4"
check_inject_count "nvidia_pcie_pmu_0_rc_4/event=0x4,src_bdf=0x0180,src_bdf_en=0x1/" 1000 \
	"event=rd_cum_outs value=1000 rp=2 bdf=0x0180 dst=rem" \
	"event=rd_cum_outs value=3 rp=2 bdf=0x0181" "event=rd_cum_outs value=5 rp=0 bdf=0x2781"

# The spec's example traffic for rc 1.
c=$(stat_count "nvidia_pcie_pmu_0_rc_1/rd_req,src_bdf=0x0180,src_bdf_en=1,dst_rem=1/" \
	"echo 'event=rd_req value=10 rp=1 bdf=0x0180 dst=rem' > \
	$UNCORE_SIM/nvidia_pcie_pmu_0_rc_1/inject")
check_eq "BDF 01:01.0 to remote memory" 10 "$c"

c=$(stat_count "$P/cycles/" "echo 'event=cycles value=31337' > $I")
check_eq "cycles" 31337 "$c"
# cycles never writes a requester into PMCCFILTR: the RC's one BDF filter
# stays the counting events' (a group's here, with another BDF on cycles)
grp="{$P/rd_req,src_bdf=0x0180,src_bdf_en=1/,$P/cycles,src_bdf=0x0200,src_bdf_en=1/}"
out=$(perf stat -a -x';' -e "$grp" -- sh -c "printf '%s\n' \
	'event=rd_req value=6 bdf=0x0180' 'event=rd_req value=9 bdf=0x0200' \
	'event=cycles value=77' > $I
	awk '\$1 == \"page0:0x47c\" { print \$2 }' $UNCORE_SIM/$P/regs > /tmp/pcie-ccf" \
	2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "a BDF group with cycles naming another BDF: the group's BDF counts" "6 77 " "$out"
check_eq "PMCCFILTR: every root port, no requester" 0xff "$(cat /tmp/pcie-ccf)"

# ---- BDF rules ----
T=$(pmu_type $P)
check_eq "errno: RP mask together with a BDF" "errno 22 EINVAL" \
	"$($PERF_OPEN -1 $(((1 << 24) | (0x180 << 8) | 1)) "$T" 2)"
check_eq "errno: sibling with another BDF than its leader" "errno 22 EINVAL" \
	"$($PERF_OPEN -L "$T:2" -1 $(((1 << 24) | (0x181 << 8))) "$T" 3)"
check_eq "BDF without RP opens" ok "$($PERF_OPEN -1 $(((1 << 24) | (0x180 << 8))) "$T" 2)"
# One BDF filter per RC: while a pinned event holds BDF 01:01.0, an event
# with another BDF is never scheduled. The holder is a perf of its own that
# runs the whole time: with both events in one perf, perf disables the
# holder first and the second event may run, uncounting, until perf
# disables it too (a debug kernel hit that window).
rm -f /tmp/bdf-stop
perf stat -a -x';' -o /tmp/bdf-hold -e "$P/rd_req,src_bdf=0x0180,src_bdf_en=1/D" -- \
	sh -c 'while [ ! -e /tmp/bdf-stop ]; do sleep 0.1; done' &
hold=$!
# counting once a counter of the PMU is enabled (PMCNTENSET0)
i=0
en() { awk '$1 == "page0:0xc00" { print $2 }' "$UNCORE_SIM/$P/regs"; }
while [ "$(en)" = 0x0 ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
check_eq "the BDF holder counts (PMCNTENSET0 bit 0)" 1 "$(($(en) & 1))"
c=$(stat_count "$P/wr_req,src_bdf=0x0200,src_bdf_en=1/" \
	"printf '%s\n' 'event=wr_req value=9 bdf=0x0200' > $I")
check_eq "two BDF values at once: the second is not counted" "<not counted>" "$c"
inject $P 'event=rd_req value=6 bdf=0x0180' 'event=rd_req value=5 bdf=0x0200'
touch /tmp/bdf-stop
wait $hold
check_eq "two BDF values at once: the first counts its BDF" 6 \
	"$(grep -v '^#' /tmp/bdf-hold | awk -F';' 'NF > 2 { print $1 }')"
out=$(perf stat -a -x';' -e "{$P/rd_req,src_bdf=0x0180,src_bdf_en=1/,$P/wr_req/}" -- \
	sh -c "printf '%s\n' 'event=rd_req value=6 bdf=0x0180' 'event=wr_req value=9 bdf=0x0180' \
	'event=wr_req value=100 bdf=0x0200 rp=0' > $I" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s ", $1 }')
check_eq "sibling inherits the leader's BDF" "6 9 " "$out"
c=$(stat_count "$P/rd_req/" "echo 'event=rd_req value=12 rp=6' > $I")
check_eq "after BDF events close, unfiltered counting again" 12 "$c"

done_testing
