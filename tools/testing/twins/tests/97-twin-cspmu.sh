#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tegra410 UCF, PCIE and PCIE-TGT (CoreSight PMUs from the APMT): our
# three drivers and the upstream engine with its NVIDIA module
# (twin_arm_cspmu, twin_nvidia_cspmu) in one boot, on the same simulated
# hardware: the same ABI on all 26 PMUs; every event of every PMU by name
# with traffic of every source or root port and values above 2^32, summed
# over both sockets' PMUs at once; the filters (UCF source and destination,
# PCIE root ports, destinations and BDF, PCIE-TGT root ports and address
# range) in raw form; a group; multiplexing with a pinned event; and the
# errno of refused input.
# twins: twin_arm_cspmu twin_nvidia_cspmu

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

OURS="nvidia_t410_ucf_pmu nvidia_t410_pcie_pmu nvidia_t410_pcie_tgt_pmu"
TWIN="twin_arm_cspmu twin_nvidia_cspmu"
# at most 7 regular events and cycles per PMU and run: 8 counters suffice
# whether or not a driver gives cycles the cycle counter
BATCH=7

PMUS=""
for s in 0 1; do
	PMUS="$PMUS nvidia_ucf_pmu_$s"
	for rc in 0 1 2 3 4 5; do
		PMUS="$PMUS nvidia_pcie_pmu_${s}_rc_$rc nvidia_pcie_tgt_pmu_${s}_rc_$rc"
	done
done

# lines KIND: traffic classes of PMU kind KIND (every source, destination,
# root port or target at least once), ";"-separated: "+ ATTRS" counts with
# the default filters, "- ATTRS" must not (PCIE-TGT counts no CXL traffic
# unless an address range selects it)
lines() {
	case $1 in
	ucf)	echo "+ src=loc_noncpu dst=loc_cmem;+ src=loc_cpu dst=loc_gmem;\
+ src=rem dst=loc_other;+ src=loc_cpu dst=rem" ;;
	pcie)	echo "+ rp=0 dst=loc_cmem;+ rp=3 dst=loc_gmem bdf=0x0180;\
+ rp=5 dst=loc_pcie_p2p;+ rp=7 dst=rem" ;;
	tgt)	echo "+ rp=0 target=bar addr=0x10040;- rp=2 target=cxl addr=0x2000001000;\
+ rp=6 target=bar addr=0x9000;+ rp=7 target=bar addr=0x4abc" ;;
	esac
}

kind() {
	case $1 in
	nvidia_ucf_*)	echo ucf ;;
	nvidia_pcie_tgt_*) echo tgt ;;
	*)		echo pcie ;;
	esac
}

# traffic PMU EVENT K: inject lines for EVENT into /tmp/cs.inj.PMU, value
# about K * 2^32 spread over the PMU kind's classes; prints the total
traffic() {
	if [ "$2" = cycles ]; then
		v=$((4294967296 * ($3 % 7 + 1) + 100 * $3 + 1))
		echo "event=cycles value=$v" >>/tmp/cs.inj.$1
		echo $v
		return
	fi
	_sum=0 _j=0
	_ifs=$IFS
	IFS=';'
	for _c in $(lines "$(kind "$1")"); do
		v=$((4294967296 * ($3 % 7 + 1) + 100 * $3 + 10 * _j + 3))
		echo "event=$2 value=$v ${_c#? }" >>/tmp/cs.inj.$1
		[ "${_c%% *}" = - ] || _sum=$((_sum + v))
		_j=$((_j + 1))
	done
	IFS=$_ifs
	echo $_sum
}

# run_named OUT EXPECTED EVENTSPEC...: one perf run over every PMU at once; an
# EVENTSPEC is "PMU/EVENT/" by name, counted with traffic() for EVENT
run_named() {
	_out=$1 _exp=$2
	shift 2
	rm -f /tmp/cs.inj.*
	_inj="" _k=0
	for _ev in "$@"; do
		_p=${_ev%%/*}
		_e=${_ev#*/}
		_e=${_e%/}
		_k=$((_k + 1))
		echo "count $_ev $(traffic "$_p" "$_e" "$_k")" >>"$_exp"
	done
	for _f in /tmp/cs.inj.*; do
		_inj="${_inj}cat $_f > $UNCORE_SIM/${_f#/tmp/cs.inj.}/inject; "
	done
	stat_all "$_inj" "$@" >>"$_out"
}

# filtered OUT EXPECTED INJFILE EVENTSPEC=WANT...: one perf run of raw,
# filtered events with the traffic of INJFILE (lines "PMU LINE")
filtered() {
	_out=$1 _exp=$2 _injf=$3
	shift 3
	_evs=""
	for _a in "$@"; do
		_evs="$_evs ${_a%=*}"
		echo "count ${_a%=*} ${_a##*=}" >>"$_exp"
	done
	rm -f /tmp/cs.inj.*
	while read -r _p _l; do
		echo "$_l" >>/tmp/cs.inj.$_p
	done <"$_injf"
	_inj=""
	for _f in /tmp/cs.inj.*; do
		_inj="${_inj}cat $_f > $UNCORE_SIM/${_f#/tmp/cs.inj.}/inject; "
	done
	stat_all "$_inj" $_evs >>"$_out"
}

cat >/tmp/cs.filt <<'EOF'
nvidia_ucf_pmu_0 event=slc_bytes_rd value=1 src=loc_noncpu dst=loc_cmem
nvidia_ucf_pmu_0 event=slc_bytes_rd value=2 src=loc_cpu dst=loc_cmem
nvidia_ucf_pmu_0 event=slc_bytes_rd value=4 src=loc_cpu dst=loc_gmem
nvidia_ucf_pmu_0 event=slc_bytes_rd value=8 src=rem dst=loc_other
nvidia_ucf_pmu_0 event=slc_bytes_rd value=16 src=loc_noncpu dst=rem
nvidia_ucf_pmu_0 event=slc_bytes_rd value=4294967296 src=rem dst=rem
nvidia_pcie_pmu_0_rc_1 event=rd_req value=1 rp=0 dst=loc_cmem
nvidia_pcie_pmu_0_rc_1 event=rd_req value=2 rp=1 dst=loc_gmem
nvidia_pcie_pmu_0_rc_1 event=rd_req value=4 rp=2 dst=loc_pcie_p2p
nvidia_pcie_pmu_0_rc_1 event=rd_req value=8 rp=3 dst=loc_pcie_cxl
nvidia_pcie_pmu_0_rc_1 event=rd_req value=16 rp=7 dst=rem
nvidia_pcie_pmu_0_rc_1 event=rd_req value=4294967296 rp=1 dst=rem
nvidia_pcie_pmu_1_rc_4 event=rd_cum_outs value=1000 rp=2 bdf=0x0180 dst=rem
nvidia_pcie_pmu_1_rc_4 event=rd_cum_outs value=3 rp=2 bdf=0x0181
nvidia_pcie_pmu_1_rc_4 event=wr_req value=7 rp=0 bdf=0x0180 dst=loc_cmem
nvidia_pcie_pmu_1_rc_4 event=wr_req value=50 rp=0 bdf=0x2781
nvidia_pcie_tgt_pmu_0_rc_1 event=rd_bytes value=10 rp=0 target=bar addr=0x10040
nvidia_pcie_tgt_pmu_0_rc_1 event=rd_bytes value=20 rp=1 target=bar addr=0x10100
nvidia_pcie_tgt_pmu_0_rc_1 event=rd_bytes value=40 rp=7 target=cxl addr=0x100ff
nvidia_pcie_tgt_pmu_0_rc_1 event=rd_bytes value=4294967296 rp=2 target=bar addr=0x9000
EOF

# scenario OUT EXPECTED
scenario() {
	abi_snapshot $PMUS >"$1"
	: >"$2"
	# every event by name: UCF's in batches, PCIE and PCIE-TGT whole
	b=0
	while :; do
		evs="" more=0
		for p in $PMUS; do
			i=0
			for f in $EV/$p/events/*; do
				e=${f##*/}
				[ -f "$f" ] || continue
				if [ "$e" = cycles ]; then
					[ $b -eq 0 ] && evs="$evs $p/$e/"
					continue
				fi
				lo=$((b * BATCH))
				if [ $i -ge $lo ] && [ $i -lt $((lo + BATCH)) ]; then
					evs="$evs $p/$e/"
				fi
				[ $i -ge $(((b + 1) * BATCH)) ] && more=1
				i=$((i + 1))
			done
		done
		run_named "$1" "$2" $evs
		[ $more = 1 ] || break
		b=$((b + 1))
	done
	# raw events with filters (examples of the documentation among them)
	u=nvidia_ucf_pmu_0 r=nvidia_pcie_pmu_0_rc_1 d=nvidia_pcie_pmu_1_rc_4
	t=nvidia_pcie_tgt_pmu_0_rc_1
	range=dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=0x1
	filtered "$1" "$2" /tmp/cs.filt \
		"$u/event=0x113/=4294967327" \
		"$u/event=0x113,src_loc_cpu=0x1/=6" \
		"$u/event=0x113,dst_loc_cmem=0x1/=3" \
		"$u/event=0x113,src_loc_cpu=0x1,dst_loc_cmem=0x1/=2" \
		"$u/event=0x113,src_rem=0x1,dst_rem=0x1,dst_loc_other=0x1/=4294967304" \
		"$r/event=0x2/=4294967327" \
		"$r/event=0x2,src_rp_mask=0x3/=4294967299" \
		"$r/event=0x2,dst_rem=0x1/=4294967312" \
		"$r/event=0x2,src_rp_mask=0x8c,dst_loc_pcie_cxl=0x1,dst_rem=0x1/=24" \
		"$r/event=0x2,src_rp_mask=0x2,dst_loc_gmem=0x1/=2" \
		"$d/event=0x4,src_bdf=0x0180,src_bdf_en=0x1/=1000" \
		"$d/event=0x3,src_bdf=0x0180,src_bdf_en=0x1/=7" \
		"$t/event=0x0/=4294967326" \
		"$t/event=0x0,dst_rp_mask=0x3/=30" \
		"$t/event=0x0,$range/=50" \
		"$t/event=0x0,dst_rp_mask=0x4,$range/=4294967346"
	# a group, multiplexing (12 events on 8 counters), refused input
	iu=$UNCORE_SIM/$u/inject
	group_of ucf "printf '%s\n' 'event=slc_bytes_rd value=64' 'event=slc_bytes_wr value=32' \
		'event=cycles value=1000' > $iu" $u/slc_bytes_rd/ $u/slc_bytes_wr/ $u/cycles/ >>"$1"
	echo "group ucf 64,32,1000" >>"$2"
	# (only whether every event counted: both engines stop the PMU with
	# PMCR.E at each rotation, as the architecture has it, so traffic in
	# that window is lost for the pinned event too, on either side, and
	# its count depends on timing)
	mux_pinned ucf 11 $u/slc_bytes_wr/ $u/slc_bytes_rd/ \
		"printf 'event=slc_bytes_wr value=10\nevent=slc_bytes_rd value=10\n' > $iu" |
		grep -v '^mux ucf-pinned ' >>"$1"
	echo "mux ucf-counted 11" >>"$2"
	tu=$(pmu_type $u) tr=$(pmu_type $r) tt=$(pmu_type $t)
	{
		errno_of ucf-config-bit-33 "$tu" 0x200000113
		errno_of ucf-config1-bit-3 -1 8 "$tu" 0x113
		errno_of ucf-config2 -2 1 "$tu" 0x113
		errno_of ucf-sampling -s 1000 "$tu" 0x113
		errno_of ucf-task -p 0 -c -1 "$tu" 0x113
		errno_of ucf-cpu-not-associated -c 2 "$tu" 0x113
		errno_of ucf-two-cycles-group -L "$tu:0x100000000" "$tu" 0x100000000
		errno_of pcie-rp-and-bdf -1 $(((1 << 24) | (0x180 << 8) | 1)) "$tr" 2
		errno_of pcie-sibling-other-bdf -L "$tr:2" -1 $(((1 << 24) | (0x181 << 8))) "$tr" 3
		errno_of tgt-event-5 "$tt" 5
		errno_of tgt-config-bit-12 "$tt" 0x1000
		errno_of tgt-sampling -s 10 "$tt" 0
	} >>"$1"
}

twin_run cspmu "$OURS" "$TWIN"

done_testing
