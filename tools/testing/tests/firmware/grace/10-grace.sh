#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the Tegra241 guide's examples, each event string verbatim, with each release's perf
#
# Firmware grace: two Grace (Tegra241) sockets (tools/testing/sim/contract.md 2.1).
# The PMUs mainline's nvidia_cspmu registers for this firmware, with its
# names, format/ strings and identifiers; every event of each PMU counts
# exactly the traffic injected under its name; each filter bit selects
# exactly its port's traffic, and a filter left 0 selects every port; the
# cycle counter; a group of all counters; the generic NVIDIA PMU counts
# raw ids with its all-ones filter default.

. "$(dirname "$0")/lib/lib.sh"

GRACE="nvidia_scf_pmu nvidia_pcie_pmu nvidia_nvlink_c2c0_pmu nvidia_nvlink_c2c1_pmu
	nvidia_cnvlink_pmu"

# ---- what registered, and as what ----

want=$(for p in $GRACE; do echo ${p}_0; echo ${p}_1; done; echo nvidia_uncore_pmu_0)
check_eq "the PMUs of two Grace sockets and one generic PMU" \
	"$(echo "$want" | sort | tr '\n' ' ')" "$(our_pmus | sort | tr '\n' ' ')"

# PMU identifier formats: format/ file contents, then the identifier
for spec in "nvidia_scf_pmu event=config:0-32 2cf0036b" \
	    "nvidia_pcie_pmu event=config:0-32,root_port=config1:0-9 1030036b" \
	    "nvidia_nvlink_c2c0_pmu event=config:0-32,port=config1:0-1 1050036b" \
	    "nvidia_nvlink_c2c1_pmu event=config:0-32,port=config1:0-1 1040036b" \
	    "nvidia_cnvlink_pmu event=config:0-32,rem_socket=config1:0-3 1060036b"; do
	set -- $spec
	for s in 0 1; do
		p=${1}_$s
		check_eq "$p: format/" "$2" "$(cd $EV/$p/format &&
			for f in *; do printf '%s=%s,' "$f" "$(cat $f)"; done | sed 's/,$//')"
		check_eq "$p: identifier" "$3" "$(cat $EV/$p/identifier)"
		check_eq "$p: cpumask is the socket's first CPU" \
			"$(cat $EV/$p/associated_cpus)" "$(cat $EV/$p/cpumask)"
	done
done
G=nvidia_uncore_pmu_0
check_eq "$G: format/" "event=config:0-32,filter=config1:0-31,filter2=config2:0-31" \
	"$(cd $EV/$G/format && for f in *; do printf '%s=%s,' "$f" "$(cat $f)"; done |
		sed 's/,$//')"
check_eq "$G: identifier" 1ff0036b "$(cat $EV/$G/identifier)"
check_eq "$G: events/ is cycles only" "cycles=event=0x100000000" \
	"$(cd $EV/$G/events && for f in *; do echo "$f=$(cat $f)"; done)"

# Revision dispatch: Grace PCIE (PMIIDR 0x1030036B) shares its product
# with Tegra410 PCIE (0x1030136B); the engine gives each to its own module.
check_eq "the engine bound the 11 devices" 11 \
	"$(ls /sys/bus/platform/drivers/uncore-cspmu 2>/dev/null | grep -c '^arm-cs-arch-pmu')"
check_eq "no Tegra410 PCIE PMU" 0 "$(ls $EV | grep -c '^nvidia_pcie_pmu_[0-9]*_rc_')"

# ---- every event counts its own traffic ----

# count_events PMU: each event of PMU's events/, 8 at a time (the
# counters: no multiplexing), counts the value injected under its name,
# 1000 + its position, in the same run as the others
count_events() {
	_p=$1
	ls $EV/$_p/events > /tmp/grace_evs
	_n=$(wc -l < /tmp/grace_evs)
	_i=0 _bad="" _done=0
	while [ $_i -lt "$_n" ]; do
		_args="" _inj="" _want=""
		for _e in $(sed -n "$((_i + 1)),$((_i + 8))p" /tmp/grace_evs); do
			_v=$((1000 + _i))
			_args="$_args -e $_p/$_e/"
			_inj="$_inj echo 'event=$_e value=$_v' > $UNCORE_SIM/$_p/inject;"
			_want="$_want $_p/$_e/=$_v"
			_i=$((_i + 1))
		done
		_got=$(perf stat -a -x';' $_args -- sh -c "$_inj" 2>&1 >/dev/null |
			awk -F';' '$3 ~ /\/$/ { printf " %s=%s", $3, $1 }')
		[ "$_got" = "$_want" ] || _bad="$_bad; want:$_want got:$_got"
		_done=$((_done + $(echo "$_want" | wc -w)))
	done
	check_eq "$_p: each of its $_n events counts its own traffic" "$_n" "$_done${_bad}"
}

for p in $GRACE; do
	count_events ${p}_0
done
count_events nvidia_cnvlink_pmu_1
check_eq "nvidia_scf_pmu_0: 54 events" 54 "$(ls $EV/nvidia_scf_pmu_0/events | wc -l)"
check_eq "nvidia_pcie_pmu_0: 15 events" 15 "$(ls $EV/nvidia_pcie_pmu_0/events | wc -l)"

# ---- filters: bit n of the mask selects port n, 0 selects all ----

# check_filter PMU FIELD KEY NPORTS MASK...: one run counting rd_req_loc
# with each FIELD=MASK while port p injects 1 << p (KEY=p); each counts
# the sum of its mask's ports, all of them for mask 0
check_filter() {
	_p=$1 _f=$2 _k=$3 _np=$4
	shift 4
	_args="" _want="" _inj=""
	for _m in "$@"; do
		_args="$_args -e $_p/rd_req_loc,$_f=$_m/"
		_w=$((_m))
		[ $_w = 0 ] && _w=$(((1 << _np) - 1))
		_want="$_want $_m=$_w"
	done
	_i=0
	while [ $_i -lt "$_np" ]; do
		_inj="$_inj event=rd_req_loc value=$((1 << _i)) $_k=$_i
"
		_i=$((_i + 1))
	done
	printf '%s' "$_inj" > /tmp/grace_inj
	perf stat -a -x';' $_args -- sh -c "cat /tmp/grace_inj > $UNCORE_SIM/$_p/inject" \
		2> /tmp/grace_out >/dev/null
	check_eq "$_p: $_f masks:$*" "$_want" "$(awk -F';' -v f="$_f" '$3 ~ /\/$/ {
		m = $3; sub(".*" f "=", "", m); sub("/$", "", m)
		printf " %s=%s", m, $1 }' /tmp/grace_out)"
}

check_filter nvidia_pcie_pmu_0 root_port rp 10 0 0x1 0x2 0x4 0x8 0x10 0x20 0x40
check_filter nvidia_pcie_pmu_0 root_port rp 10 0x80 0x100 0x200 0x155 0x2aa 0x3ff 0x201
check_filter nvidia_pcie_pmu_1 root_port rp 10 0 0x200 0x3
for p in nvidia_nvlink_c2c0_pmu nvidia_nvlink_c2c1_pmu; do
	check_filter ${p}_0 port "port" 2 0 0x1 0x2 0x3
	check_filter ${p}_1 port "port" 2 0 0x2
done
check_filter nvidia_cnvlink_pmu_0 rem_socket rsock 4 0 0x1 0x2 0x4 0x8 0xe 0x5 0xf
check_filter nvidia_cnvlink_pmu_1 rem_socket rsock 4 0 0xe

# The registers hold what mainline writes: the mask, or all ports for 0;
# SCF, without a filter, 0. Counter 0 of a lone event, PMCCFILTR of cycles.
# reg_after PMU EVENT REG: REG (window:offset) while EVENT counts
reg_after() {
	perf stat -a -e "$1/$2/" -- sh -c \
		"awk '\$1 == \"$3\" { print \$2 }' $UNCORE_SIM/$1/regs > /tmp/grace_reg" \
		>/dev/null 2>&1
	cat /tmp/grace_reg
}
for spec in "nvidia_pcie_pmu_0 root_port 0x3ff" "nvidia_nvlink_c2c0_pmu_0 port 0x3" \
	    "nvidia_nvlink_c2c1_pmu_0 port 0x3" "nvidia_cnvlink_pmu_0 rem_socket 0xf"; do
	set -- $spec
	check_eq "$1: PMEVFILTR0 of a filter left 0 is $3" "$3" \
		"$(reg_after $1 rd_req_loc page0:0xa00)"
	check_eq "$1: PMEVFILTR0 of $2=0x1 is 0x1" 0x1 \
		"$(reg_after $1 rd_req_loc,$2=0x1 page0:0xa00)"
	check_eq "$1: PMCCFILTR of cycles is $3" "$3" "$(reg_after $1 cycles page0:0x47c)"
done
check_eq "nvidia_scf_pmu_0: PMEVFILTR0 is 0" 0x0 \
	"$(reg_after nvidia_scf_pmu_0 scf_cache page0:0xa00)"

# ---- the cycle counter, and all counters at once ----

check_eq "every PMU counts 2^40 + 7 cycles" "" "$(count_every_pmu $(((1 << 40) + 7)))"
P=nvidia_nvlink_c2c0_pmu_0
evs=$(events_n 8 "$P/wr_bytes_rem/"),$P/cycles/
out=$(perf stat -a -x';' -e "{$evs}" -- sh -c "
	echo 'event=wr_bytes_rem value=123456789' > $UNCORE_SIM/$P/inject
	echo 'event=cycles value=987654321' > $UNCORE_SIM/$P/inject" 2>&1 >/dev/null)
check_eq "$P: a group of 8 events and cycles counts exactly" \
	"$(events_n 8 123456789),987654321" \
	"$(echo "$out" | awk -F';' '$3 ~ /\/$/ { printf "%s%s", s, $1; s = "," }')"
check_group_refused "$P: a group of 9 events on 8 counters" "$(events_n 9 "$P/wr_bytes_rem/")"

# ---- the examples of Documentation/admin-guide/perf/nvidia-tegra241-pmu.rst ----

# Each "perf stat -a -e EVENT" of the document, EVENT verbatim, while event
# 0x0 (rd_bytes_loc; a raw id on SCF) comes in on every port, 1 << n
# from port n (SCF, without ports: 1): the count is what the filter selects.
grep -E '^ +perf stat -a -e ' $TESTLIB/nvidia-tegra241-pmu.rst | awk '{ print $5 }' \
	> /tmp/grace_examples
check_eq "the document has 15 examples" 15 "$(wc -l < /tmp/grace_examples)"
while read -r ev; do
	p=${ev%%/*}
	case $p in
	nvidia_pcie_*)		k=rp n=10 f=root_port ;;
	nvidia_nvlink_*)	k=port n=2 f=port ;;
	nvidia_cnvlink_*)	k=rsock n=4 f=rem_socket ;;
	*)			k="" n=1 f=none ;;
	esac
	: > /tmp/grace_inj
	i=0
	while [ $i -lt $n ]; do
		echo "event=0x0 value=$((1 << i))${k:+ $k=$i}" >> /tmp/grace_inj
		i=$((i + 1))
	done
	m=$(echo "$ev" | sed -n "s/.*$f=\([0-9a-fA-Fx]*\).*/\1/p")
	want=$((${m:-0}))
	[ "$want" = 0 ] && want=$(((1 << n) - 1))
	check_eq "example $ev" "$want" \
		"$(stat_count "$ev" "cat /tmp/grace_inj > $UNCORE_SIM/$p/inject")"
done < /tmp/grace_examples

# ---- refused input ----

T=$(pmu_type nvidia_pcie_pmu_0)
check_eq "errno: root_port bit 10 (no such port)" "errno 22 EINVAL" "$($PERF_OPEN -1 0x400 "$T" 0)"
check_eq "errno: config2 on a PMU without filter2" "errno 22 EINVAL" "$($PERF_OPEN -2 1 "$T" 0)"
check_eq "errno: sampling" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -s 1000 "$T" 0)"
check_eq "errno: CPU not associated" "errno 22 EINVAL" "$($PERF_OPEN -c 2 "$T" 0)"
check_eq "errno: SCF takes no filter" "errno 22 EINVAL" \
	"$($PERF_OPEN -1 1 "$(pmu_type nvidia_scf_pmu_0)" 0xf2)"

# ---- the one associated CPU of socket 1's PMUs goes offline and comes back ----

S1=nvidia_scf_pmu_1
echo 0 > /sys/devices/system/cpu/cpu2/online
check_eq "CPU 2 offline: $S1 cpumask empty" "" "$(cat $EV/$S1/cpumask)"
check_eq "CPU 2 offline: $S1 refuses events" "errno 22 EINVAL" \
	"$($PERF_OPEN -c 2 "$(pmu_type $S1)" 0xf2)"
echo 1 > /sys/devices/system/cpu/cpu2/online
check_eq "CPU 2 back: cpumask" 2 "$(cat $EV/$S1/cpumask)"
check_eq "CPU 2 back: counts" 99 \
	"$(stat_count "$S1/scf_cache/" "echo 'event=scf_cache value=99' > $UNCORE_SIM/$S1/inject")"

# ---- the generic NVIDIA PMU: raw ids, all-ones filter default ----

check_eq "$G: raw event=0x123 counts" 4242 \
	"$(stat_count "$G/event=0x123/" "echo 'event=0x123 value=4242' > $UNCORE_SIM/$G/inject")"
check_eq "$G: PMEVFILTR0 of filter=0 is all ones" 0xffffffff \
	"$(reg_after $G event=0x123 page0:0xa00)"
check_eq "$G: PMEVFILT2R0 of filter2=0 is all ones" 0xffffffff \
	"$(reg_after $G event=0x123 page0:0x800)"
check_eq "$G: PMEVFILTR0 of filter=0x5" 0x5 "$(reg_after $G event=0x123,filter=0x5 page0:0xa00)"
check_eq "$G: PMEVFILT2R0 of filter2=0x6" 0x6 \
	"$(reg_after $G event=0x123,filter2=0x6 page0:0x800)"

done_testing
