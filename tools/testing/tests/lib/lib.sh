# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the guest tests (busybox sh). Source it, call the checks,
# end with "done_testing". Output is TAP: "ok N - desc" / "not ok N - desc".

TESTLIB=$(dirname "$0")/lib
PERF_OPEN=$TESTLIB/perf_open
TAP_N=0
TAP_FAILED=0
EV=/sys/bus/event_source/devices

# The guest's perf, as "MAJOR.MINOR" (5.10, 6.1, 6.12, 7.3: a release
# boot runs that release's perf, vm-test.sh --release)
PERF_VERSION=$(perf --version 2>/dev/null |
	sed -n 's/^perf version \([0-9]*\.[0-9]*\).*/\1/p')

# perf 5.10 (Debian 11) starts the workload of "perf stat -a ... -- CMD"
# before it enables the counters (its builtin-stat.c: start_workload,
# then enable_counters; later perfs enable first), so traffic that CMD
# injects at once can come before the enable and not be counted: a
# property of that perf, not of the drivers (the admin guides say so).
# Under perf 5.10 the workload after "--" of the tests' perf stat runs
# waits 0.3 s first, as an operator's workload is longer than the enable.
if [ "$PERF_VERSION" = 5.10 ]; then
	perf() {
		if [ "$1" != stat ]; then
			command perf "$@"
			return
		fi
		_pw=0
		for _pa; do
			shift
			if [ $_pw = 0 ] && [ "$_pa" = -- ]; then
				set -- "$@" -- sh -c 'sleep 0.3; exec "$@"' sh
				_pw=1
			else
				set -- "$@" "$_pa"
			fi
		done
		command perf "$@"
	}
fi

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1"
}

not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $1"
	shift
	# every line a comment, also those of a value of several lines
	for l in "$@"; do
		printf '%s\n' "$l" | sed 's/^/#   /'
	done
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected: '$2'" "got:      '$3'"
	fi
}

# check_cmd DESC CMD...: passes if the command succeeds
check_cmd() {
	d=$1
	shift
	if out=$("$@" 2>&1); then
		ok "$d"
	else
		not_ok "$d" "command failed: $*" "$out"
	fi
}

# check_fail DESC CMD...: passes if the command fails
check_fail() {
	d=$1
	shift
	if out=$("$@" 2>&1); then
		not_ok "$d" "command succeeded: $*" "$out"
	else
		ok "$d"
	fi
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# inject DEV LINE...: inject traffic into simulated device DEV
inject() {
	dev=$1
	shift
	printf '%s\n' "$@" > "$UNCORE_SIM/$dev/inject"
}

# stat_count EVENT CMD: count of EVENT while sh -c CMD runs, system-wide.
# Prints the count column as perf prints it (a number, <not counted>, or
# <not supported>).
stat_count() {
	perf stat -a -x';' -e "$1" -- sh -c "$2" 2>&1 >/dev/null |
		awk -F';' -v e="$1" '$3 == e { print $1; f = 1 }
			/^No supported events found/ { n = $0 }
			END { if (!f && n != "") print n }'
}

# NOTSUP: what perf says of an event the kernel refused, when it was the
# only one: a "<not supported>" row, but perf 7.3 prints no row, only
# "Error:" and this line (and exits 1)
NOTSUP="<not supported>"
case $PERF_VERSION in
7.*)	NOTSUP="No supported events found." ;;
esac

# sim_stat DEV KEY: a counter from the simulator's stats file
sim_stat() {
	awk -v k="$2" '$1 == k { print $2 }' "$UNCORE_SIM/$1/stats"
}

# exporter_run CMD ARGS...: the exporter daemon (tools/uncore-exporter,
# built for the guest) with ARGS while sh -c CMD injects traffic, then
# SIGTERM, which writes the interval it cut short: its file is
# $EXPORTER_FILE, its stderr $EXPORTER_FILE.err
EXPORTER_FILE=/tmp/exporter-run.prom
exporter_run() {
	_cmd=$1
	shift
	: > $EXPORTER_FILE.err
	exporter_start $EXPORTER_FILE --interval 600000 "$@"
	sh -c "$_cmd"
	kill -TERM $_xp
	wait $_xp
}

# exporter_start FILE ARGS...: the daemon in the background, writing FILE
# (its stderr added to FILE.err) with ARGS, its pid in $_xp; returns once
# it wrote FILE (status 0), died or took 30 s (status 1)
exporter_start() {
	_f=$1
	shift
	rm -f "$_f"
	"$TESTLIB/uncore-metrics-exporter" --output "$_f" "$@" >/dev/null 2>>"$_f.err" &
	_xp=$!
	_i=0
	while [ ! -s "$_f" ] && [ $_i -lt 300 ] && kill -0 $_xp 2>/dev/null; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -s "$_f" ]
}

pmu_type() {
	cat "$EV/$1/type"
}

# modules_last_first: the modules the guest init loaded ($MODULES of
# /etc/uncore-vm.conf, which the test sources), last first: the order
# in which they unload
modules_last_first() {
	r=
	for m in $MODULES; do
		r="$m $r"
	done
	echo $r
}

# unload_ours: unload every module of $MODULES still loaded, last first;
# prints those still loaded afterwards (nothing when all went)
unload_ours() {
	for m in $(modules_last_first); do
		grep -q "^$m " /proc/modules && rmmod "$m"
	done
	for m in $MODULES; do
		grep "^$m " /proc/modules
	done
}

# cmdline_args M: module M's parameters from the kernel command line, one
# word each, as the guest init passes them to insmod
cmdline_args() {
	for w in $(cat /proc/cmdline); do
		case $w in "$1".*=*) printf '%s ' "${w#"$1".}" ;; esac
	done
}

# our_pmus: every PMU of ours that is registered (the LLC-TAD's is tad,
# without a vendor prefix)
our_pmus() {
	ls $EV | grep -E '^(mrvl_pcie_rc_pmu_|mrvl_ddr_pmu_|nvidia_|tad$)'
}

# pmu_event PMU: the event of PMU that checks over every PMU count
pmu_event() {
	case $1 in
	mrvl_pcie_rc_pmu_*)	echo ib_tlp_npr ;;
	mrvl_ddr_pmu_*)		echo ddr_ddr_reads ;;
	tad)			echo tad_tot_cycle ;;
	*)			echo cycles ;;
	esac
}

# count_every_pmu VALUE: inject VALUE into one event of every PMU of ours
# in one system-wide perf run; prints "pmu/event/=count" for each PMU that
# did not count exactly VALUE (nothing when all did).
count_every_pmu() {
	args=""
	inj=""
	for p in $(our_pmus); do
		e=$(pmu_event $p)
		args="$args -e $p/$e/"
		inj="$inj echo 'event=$e value=$1' > $UNCORE_SIM/$p/inject;"
	done
	perf stat -a -x';' $args -- sh -c "$inj" 2>&1 >/dev/null |
		awk -F';' -v v="$1" '$1 != v { print $3 "=" $1 }'
}

# events_n N EVENT: N copies of the event string EVENT, comma-separated
events_n() {
	_l="" _i=0
	while [ $_i -lt "$1" ]; do
		_l="$_l${_l:+,}$2"
		_i=$((_i + 1))
	done
	echo "$_l"
}

# check_no_event_limit PMU EVENT N INJECT LINE: a PMU of shared
# free-running counters takes any number of events. N separate EVENTs and
# a group of N more count at once in one perf run, while LINE is injected
# 20 times into INJECT: each must count 20 times LINE's value, running all
# the time (no multiplexing).
check_no_event_limit() {
	_v=${5##*value=}
	_v=${_v%% *}
	_l=$(events_n "$3" "$1/$2/")
	_out=$(perf stat -a -x';' -e "$_l,{$_l}" -- sh -c "
		i=0
		while [ \$i -lt 20 ]; do
			echo '$5' > $4
			i=\$((i + 1))
		done" 2>&1 >/dev/null)
	check_eq "$1: $3 events and a group of $3, all exact, none multiplexed" \
		"$(($3 * 2)):" "$(echo "$_out" | awk -F';' -v e="$1/$2/" -v w=$((_v * 20)) '
			$3 == e { n++; if ($1 != w || $5 != "100.00") b = b " " $1 "@" $5 }
			END { print n ":" b }')"
}

# check_group_refused LABEL EVENTS: perf refuses the group of the
# comma-separated EVENTS at open with EINVAL, and counts none of it
check_group_refused() {
	_out=$(perf stat -vv -a -x';' -e "{$2}" -- true 2>&1 >/dev/null)
	if echo "$_out" | grep -q 'failed, error -22'; then
		ok "$1: refused with EINVAL"
	else
		not_ok "$1: refused with EINVAL" "$_out"
	fi
	check_eq "$1: not counted" "<not supported>" \
		"$(echo "$_out" | awk -F';' 'NF >= 3 { l = $1 } END { print l }')"
}

# check_rc_pmus PREFIX IDENTIFIER: PREFIX_<s>_rc_<rc> exists for RCs 0-5
# of both sockets, with IDENTIFIER, associated with its APMT node's CPU
# (2 * socket in the default firmware)
check_rc_pmus() {
	_miss=""
	for _s in 0 1; do
		for _rc in 0 1 2 3 4 5; do
			_p=$1_${_s}_rc_$_rc
			[ -d "$EV/$_p" ] || _miss="$_miss $_p"
			[ "$(cat $EV/$_p/identifier 2>&1)" = "$2" ] || _miss="$_miss $_p:identifier"
			[ "$(cat $EV/$_p/associated_cpus 2>&1)" = $((_s * 2)) ] ||
				_miss="$_miss $_p:associated_cpus"
		done
	done
	check_eq "12 $1 PMUs, identifier $2, socket CPUs" "" "$_miss"
}

# mask_terms MASK PREFIX NAME...: ",PREFIX<NAME>=0x1" for the i-th NAME of
# each bit i set in MASK: the perf terms that select those classes
mask_terms() {
	_m=$1 _pf=$2 _t=""
	shift 2
	for _n in "$@"; do
		[ $((_m & 1)) = 1 ] && _t="$_t,$_pf$_n=0x1"
		_m=$((_m >> 1))
	done
	echo "$_t"
}

# check_inject_count EVENT WANT LINE...: EVENT counts WANT while the LINEs
# are injected into its PMU, all at once
check_inject_count() {
	_ev=$1 _want=$2
	shift 2
	printf '%s\n' "$@" > /tmp/inject_lines
	check_eq "$_ev" "$_want" \
		"$(stat_count "$_ev" "cat /tmp/inject_lines > $UNCORE_SIM/${_ev%%/*}/inject")"
}

# overlap_sessions INJECT EVENT LINE1 LINE2 EVENT_B LINE_B...: a session of
# EVENT (which may carry a modifier, such as D for pinned) runs while LINE1
# and then, after the other sessions, LINE2 are injected into INJECT;
# between the two, one session after the other counts each EVENT_B while
# its LINE_B is injected. Prints the count of each session, one word each
# (perf's "<not counted>" as <not_counted>, no row as "none"): EVENT's,
# then each EVENT_B's.
overlap_sessions() {
	_inj=$1 _ea=$2 _a1=$3 _a2=$4
	shift 4
	rm -f /tmp/ovl_ready /tmp/ovl_done
	perf stat -a -x';' -o /tmp/ovl_a.out -e "$_ea" -- sh -c "
		echo '$_a1' > $_inj
		touch /tmp/ovl_ready
		while [ ! -f /tmp/ovl_done ]; do sleep 0.1; done
		echo '$_a2' > $_inj" &
	_apid=$!
	_i=0
	while [ ! -f /tmp/ovl_ready ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	_b=""
	while [ $# -ge 2 ]; do
		_c=$(stat_count "$1" "echo '$2' > $_inj" | tr ' ' _)
		_b="$_b ${_c:-none}"
		shift 2
	done
	touch /tmp/ovl_done
	wait $_apid
	# the session's only event: its row, whatever name perf gives a
	# modifier
	_c=$(awk -F';' 'NF >= 3 { print $1; exit }' /tmp/ovl_a.out | tr ' ' _)
	echo "${_c:-none}$_b"
}

# tgt_range_events PMU EVENT N STEP FILE: N PCIE-TGT events of EVENT, each
# with an address range of its own (range i: base STEP * (i + 1), mask
# 0xff * STEP), comma-separated; FILE gets one inject line per range, value
# i + 1 at an address inside it
tgt_range_events() {
	_l="" _i=0 _mask=$((0xff * $4))
	: > "$5"
	while [ $_i -lt "$3" ]; do
		_base=$(($4 * (_i + 1)))
		_l="$_l${_l:+,}$1/$2,dst_addr_base=$_base,dst_addr_mask=$_mask,dst_addr_en=1/"
		echo "event=$2 value=$((_i + 1)) addr=$((_base + 0x40))" >> "$5"
		_i=$((_i + 1))
	done
	echo "$_l"
}

# check_tgt_slots_released PMU: every address-filter slot of the PCIE-TGT
# PMU is disabled (CTRL 0); a released slot's range may stay for the next
# user
check_tgt_slots_released() {
	check_eq "$1: all slots released" "" \
		"$(awk '$1 ~ /^filter:0x(d38|d4c|d60|d74|d88|d9c|db0|dc4)$/ && $2 != "0x0" {
			print $1 "=" $2 }' "$UNCORE_SIM/$1/regs" 2>&1)"
}

# grid_traffic EVENT ROWKEY "ROWS" COLKEY "COLS": an inject line for each
# pair of a row value r (the i-th of ROWS) and a column value c (the j-th
# of COLS), "event=EVENT value=1 << (NCOLS * i + j) ROWKEY=r COLKEY=c": a
# count then tells which pairs a filter let through (grid_sum)
grid_traffic() {
	_nc=$(echo $5 | wc -w) _i=0
	for _r in $3; do
		_j=0
		for _c in $5; do
			echo "event=$1 value=$((1 << (_nc * _i + _j))) $2=$_r $4=$_c"
			_j=$((_j + 1))
		done
		_i=$((_i + 1))
	done
}

# grid_sum ROWS NROWS COLS NCOLS: the sum of 1 << (NCOLS * r + c) over the
# rows r set in the mask ROWS and the columns c set in COLS (0: all), the
# expected count of filter tests that inject 1 << (NCOLS * r + c) for
# each class pair (r, c)
grid_sum() {
	_rm=$1 _cm=$3 _sum=0 _r=0
	[ "$_rm" = 0 ] && _rm=$(((1 << $2) - 1))
	[ "$_cm" = 0 ] && _cm=$(((1 << $4) - 1))
	while [ $_r -lt "$2" ]; do
		_c=0
		while [ $_c -lt "$4" ]; do
			[ $(((_rm >> _r) & (_cm >> _c) & 1)) = 1 ] &&
				_sum=$((_sum + (1 << ($4 * _r + _c))))
			_c=$((_c + 1))
		done
		_r=$((_r + 1))
	done
	echo $_sum
}

# check_cspmu_counts: exact counts on one PMU of each CSPMU driver, with a
# value above 2^32, so that a torn or wrong-width counter read shows (for
# the firmware descriptions that change how counters are read or enumerated)
check_cspmu_counts() {
	_v=$(((1 << 40) + 7))
	for _spec in "nvidia_ucf_pmu_0 slc_bytes_rd" "nvidia_pcie_pmu_1_rc_3 wr_req" \
		     "nvidia_pcie_pmu_0_rc_0 rd_bytes" "nvidia_pcie_tgt_pmu_1_rc_5 wr_bytes"; do
		set -- $_spec
		if [ ! -d "$EV/$1" ]; then
			not_ok "$1 registered"
			continue
		fi
		for _e in $2 cycles; do
			check_eq "$1/$_e/ counts 2^40 + 7" "$_v" "$(stat_count "$1/$_e/" \
				"echo 'event=$_e value=$_v' > $UNCORE_SIM/$1/inject")"
		done
	done
}

# check_one_cpu PMU: its cpumask names exactly one CPU (the PEM PMUs)
check_one_cpu() {
	_cpus=$(cat "$EV/$1/cpumask")
	case "$_cpus" in
	[0-9] | [0-9][0-9])
		ok "$1 cpumask is one CPU ($_cpus)" ;;
	*)
		not_ok "$1 cpumask is one CPU" "got '$_cpus'" ;;
	esac
}

# socket_of CPU: the socket of an online CPU, numbered 0, 1... in the order
# of the package ids. x86 numbers packages 0, 1; arm64 ACPI names them by
# their PPTT offset (e.g. 36, 116): both give 0 and 1 here. All CPUs of the
# guest must be online, for the ranking to see every package.
socket_of() {
	_id=$(cat /sys/devices/system/cpu/cpu$1/topology/physical_package_id 2>&1) ||
		{ echo "$_id"; return 1; }
	cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id |
		sort -nu | awk -v id="$_id" '$1 == id { print NR - 1 }'
}

# ---- uncore-metrics (the tool is copied into the guest's lib/) ----

METRICS_TOOL=$TESTLIB/uncore-metrics
METRICS_OUT=/tmp/metrics.out
METRICS_RAW=/tmp/metrics.raw

# measure CMD TOOL-ARGS...: the tool (CSV, into $METRICS_OUT) over one
# interval holding CMD; NS is the interval in ns, as the tool computes it
# from perf's one timestamp (perf's output: $METRICS_RAW)
measure() {
	_cmd=$1
	shift
	rm -f $METRICS_OUT $METRICS_RAW
	"$METRICS_TOOL" --csv -I 100000 --record $METRICS_RAW "$@" -- sh -c "$_cmd" \
		> $METRICS_OUT 2>/tmp/metrics.err
	_st=$?
	[ $_st = 0 ] || not_ok "uncore-metrics $* exited with $_st" "$(cat /tmp/metrics.err)"
	NS=$(awk -F, '{ sub(/^ +/, "", $1) } $1 ~ /^[0-9]+\.[0-9]+$/ { t[$1] = 1 }
		END { n = 0; for (k in t) { n++; v = k }
		      if (n != 1) exit
		      s = v; sub(/\..*/, "", s); f = v; sub(/.*\./, "", f)
		      f = substr(f "000000000", 1, 9)
		      sub(/^0+/, "", s); sub(/^0+/, "", f)
		      printf "%.0f", s * 1000000000 + f }' $METRICS_RAW)
	if [ -n "$NS" ] && [ "$NS" -gt 0 ]; then
		ok "uncore-metrics $*: one interval in perf's output"
	else
		not_ok "uncore-metrics $*: one interval in perf's output" "$(cat $METRICS_RAW)"
		NS=1
	fi
}

# fig PMU METRIC: the figure the tool printed ("" if undefined or absent)
fig() {
	awk -F, -v p="$1" -v m="$2" '$3 == p && $6 == m { print $7 }' $METRICS_OUT
}

# wild_select FORM SCRIPT: what perf counts for the event string FORM over
# SCRIPT's traffic, all its rows added up (a wildcard gives one row per
# PMU or one merged row, by perf version), or "error" if perf refused FORM
wild_select() {
	_ws=$(perf stat -a -x';' -e "$1" -- sh "$2" 2>&1 >/dev/null) || {
		echo error
		return
	}
	echo "$_ws" | awk -F';' '$1 ~ /^[0-9]+$/ { s += $1; n++ }
		END { if (n) print s; else print "none" }'
}

# wild_row SCRIPT FORM V5.10 V6.1 V6.12 V7.3: the row of the admin guides'
# table "PMU names and wildcards by perf version": FORM selects the PMUs
# whose injected values add up to the value of this guest's perf version
wild_row() {
	case $PERF_VERSION in
	5.10)	_wr=$3 ;;
	6.1)	_wr=$4 ;;
	6.12)	_wr=$5 ;;
	7.3)	_wr=$6 ;;
	*)	_wr="a column for perf $PERF_VERSION" ;;
	esac
	check_eq "perf $PERF_VERSION: $2" "$_wr" "$(wild_select "$2" "$1")"
}
