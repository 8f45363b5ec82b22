#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Marvell Odyssey DDR (DSS) and LLC-TAD: our drivers and the upstream one
# that drives both SoCs' PMUs of each kind (twin_marvell_cn10k_ddr_pmu,
# twin_marvell_cn10k_tad_pmu, built from Debian's linux-source by
# vm-test.sh) in one boot, on the odyssey firmware: which devices each
# binds, the same ABI, every event of both PMUs counting injected
# traffic above 2^32, refused input, and each defect of issue 35 item 4
# seen on the twin exactly as it shows there while ours counts exactly:
# (a) the overflow poll 1000 times too long, (b) an unknown DDR event
# taking a counter, (c) two events clearing one free-running counter,
# (d) a TAD restart losing the count, (e) TAD events refused in a group,
# (f) a second TAD device refused for its name.
# firmware: odyssey
# twins: twin_marvell_cn10k_ddr_pmu twin_marvell_cn10k_tad_pmu

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

D0=mrvl_ddr_pmu_1000200000
D1=mrvl_ddr_pmu_10002a0000
T=tad
I0=$UNCORE_SIM/$D0/inject
I1=$UNCORE_SIM/$D1/inject
IT=$UNCORE_SIM/$T/inject
OURS="marvell_odyssey_ddr_pmu marvell_odyssey_tad_pmu"
TWINS="twin_marvell_cn10k_ddr_pmu twin_marvell_cn10k_tad_pmu"
U64_MAX=18446744073709551615

# the DDR events as events/ lists them (sorted), programmable then the two
# free-running ones; the i-th is injected with value ddr_val i
# shellcheck disable=SC2010 # sysfs names, no blanks
DDR_PROG=$(ls $EV/$D0/events | grep -v '^ddr_ddr_')
DDR_ALL="$DDR_PROG ddr_ddr_reads ddr_ddr_writes"
TAD_ALL=$(ls $EV/$T/events)
ddr_val() {
	echo $(($1 * 4294967296 + 1000 + 7 * $1))
}
# TAD block b's value of the i-th event; the sum over the four blocks
tad_val() {
	echo $(($1 * 100 + $2 * 10 + ($2 == 3) * 4294967296))
}
tad_sum() {
	echo $(($(tad_val $1 0) + $(tad_val $1 1) + $(tad_val $1 2) + $(tad_val $1 3)))
}
i=0
for e in $DDR_ALL; do
	i=$((i + 1))
	echo "event=$e value=$(ddr_val $i)"
done >/tmp/ody_ddr_all
i=0
for e in $TAD_ALL; do
	i=$((i + 1))
	for b in 0 1 2 3; do
		echo "event=$e value=$(tad_val $i $b) tad=$b"
	done
done >/tmp/ody_tad_all

# devices OUT MARK: which Odyssey devices are bound, and the errno of each
# failed probe logged after dmesg line MARK (the driver core's line)
devices() {
	for d in MRVL000C:00 MRVL000C:01 MRVL000C:02 MRVL000D:00 MRVL000D:01 \
		 MRVL000D:02 MRVL000D:03 MRVL000D:04 MRVL000D:05; do
		b=no
		[ -e /sys/bus/platform/devices/$d/driver ] && b=yes
		e=$(dmesg | tail -n +$(($2 + 1)) | sed -n \
			"s/.* $d: probe with driver .* failed with error \(-[0-9]*\)\$/\1/p" |
			tail -n 1)
		echo "bound $d $b"
		echo "probe-error $d ${e:-none}"
	done >>"$1"
	# shellcheck disable=SC2010 # sysfs names, no blanks
	echo "pmus $(ls $EV | grep -E '^(mrvl_ddr_pmu_|tad)' | tr '\n' ',')" >>"$1"
}

# batch OUT WANT PMU INJECT FIRST LAST FORM VAL EVENT...: events FIRST..LAST
# of EVENT... of PMU, by name (FORM name) or id (FORM id), ungrouped in one
# perf run while INJECT runs; the i-th is to count "VAL i"
batch() {
	_o=$1 _w=$2 _p=$3 _inj=$4 _f=$5 _l=$6 _form=$7 _val=$8
	shift 8
	_i=0 _ev=""
	for _e in "$@"; do
		_i=$((_i + 1))
		[ $_i -ge "$_f" ] && [ $_i -le "$_l" ] || continue
		if [ "$_form" = name ]; then
			_x="$_p/$_e/"
		else
			_x="$_p/$(cat "$EV/$_p/events/$_e")/"
		fi
		_ev="$_ev $_x"
		echo "count $_x $($_val $_i)" >>"$_w"
	done
	# shellcheck disable=SC2086 # one word per event
	stat_all "$_inj" $_ev |
		sed 's/<not counted>/<not_counted>/; s/<not supported>/<not_supported>/' >>"$_o"
}

# group_counts KEY INJECT EVENT...: EVENT... as one group while INJECT
# runs: "group KEY <counts joined by ,>", or "group KEY refused" if perf
# reported no count
group_counts() {
	_k=$1 _inj=$2
	shift 2
	_c=$(perf stat -a -x';' -e "{$(echo "$@" | tr ' ' ',')}" -- sh -c "$_inj" 2>&1 >/dev/null |
		awk -F';' 'NF >= 3 { printf "%s%s", (n++ ? "," : ""), $1 }' | tr ' ' _)
	echo "group $_k ${_c:-refused}"
}

# restart KEY EVENT INJECT1 INJECT2: EVENT counts INJECT1, is disabled and
# enabled again (perf's control fifo: the driver's del, then add and
# start), then counts INJECT2; "restart KEY <count>"
restart() {
	rm -f /tmp/ody_ctl /tmp/ody_ack
	mkfifo /tmp/ody_ctl /tmp/ody_ack
	_c=$(perf stat -a -x';' --control fifo:/tmp/ody_ctl,/tmp/ody_ack -e "$2" -- sh -c "
		$3
		echo disable > /tmp/ody_ctl; read a < /tmp/ody_ack
		echo enable > /tmp/ody_ctl; read a < /tmp/ody_ack
		$4" 2>&1 >/dev/null | awk -F';' -v e="$2" '$3 == e { print $1 }' | tr ' ' _)
	echo "restart $1 ${_c:-none}"
}

# scenario OUT EXPECTED
scenario() {
	abi_snapshot $D0 $D1 $T >>"$1"
	: >"$2"
	# every DDR event of D0 by name, eight at a time (one per counter, so
	# nothing multiplexes), the last batch with both free-running ones
	for f in 1 9 17 25 33 41 49; do
		# shellcheck disable=SC2086 # one word per event
		batch "$1" "$2" $D0 "cat /tmp/ody_ddr_all > $I0" $f $((f + 7)) name ddr_val $DDR_ALL
	done
	# raw, and on the other controller (only its own traffic)
	# shellcheck disable=SC2086
	batch "$1" "$2" $D0 "cat /tmp/ody_ddr_all > $I0" 1 8 id ddr_val $DDR_ALL
	# shellcheck disable=SC2086
	batch "$1" "$2" $D1 "cat /tmp/ody_ddr_all > $I0; cat /tmp/ody_ddr_all > $I1" \
		47 54 name ddr_val $DDR_ALL
	# every TAD event, by name and raw, summed over the four blocks
	# shellcheck disable=SC2086
	batch "$1" "$2" $T "cat /tmp/ody_tad_all > $IT" 1 8 name tad_sum $TAD_ALL
	# shellcheck disable=SC2086
	batch "$1" "$2" $T "cat /tmp/ody_tad_all > $IT" 9 9 name tad_sum $TAD_ALL
	# shellcheck disable=SC2086
	batch "$1" "$2" $T "cat /tmp/ody_tad_all > $IT" 1 8 id tad_sum $TAD_ALL
	# shellcheck disable=SC2086
	batch "$1" "$2" $T "cat /tmp/ody_tad_all > $IT" 9 9 id tad_sum $TAD_ALL

	# (e) TAD events in a group: perf opens members enabled
	l="event=tad_hit_any value=5 tad=0\nevent=tad_alloc_any value=7 tad=3\n"
	group_counts tad "printf '$l' > $IT" $T/tad_hit_any/ $T/tad_alloc_any/ >>"$1"
	echo "group tad 5,7" >>"$2"
	tt=$(pmu_type $T)
	{
		errno_of tad-enabled "$tt" 0x1f
		errno_of tad-disabled -d "$tt" 0x1f
		errno_of tad-member -d -L "$tt:0x1f" "$tt" 0x1c
		errno_of tad-sampling -d -s 1000 "$tt" 0x1f
		errno_of tad-event-0x25 -d "$tt" 0x25
		errno_of tad-config-bit-8 -d "$tt" 0x11f
	} >>"$1"
	# (d) a TAD event disabled and enabled again
	restart tad "$T/tad_hit_any/" "echo 'event=tad_hit_any value=10 tad=1' > $IT" \
		"echo 'event=tad_hit_any value=5 tad=2' > $IT" >>"$1"
	echo "restart tad 15" >>"$2"
	restart ddr-reads "$D0/ddr_ddr_reads/" "echo 'event=ddr_ddr_reads value=10' > $I0" \
		"echo 'event=ddr_ddr_reads value=5' > $I0" >>"$1"
	echo "restart ddr-reads 15" >>"$2"

	# (c) a second session of ddr_ddr_reads while the first runs: the
	# first as a flexible event (perf core reschedules it around the
	# other's add, folding its count first), then pinned (it is not)
	# shellcheck disable=SC2046 # one word per session
	set -- "$1" "$2" $(overlap_sessions $I0 "$D0/ddr_ddr_reads/" 'event=ddr_ddr_reads value=3' \
		'event=ddr_ddr_reads value=5' "$D0/ddr_ddr_reads/" 'event=ddr_ddr_reads value=7' \
		"$D0/ddr_ddr_writes/" 'event=ddr_ddr_writes value=9')
	echo "overlap ddr_ddr_reads $3,$4,$5" >>"$1"
	echo "overlap ddr_ddr_reads 15,7,9" >>"$2"
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(overlap_sessions $I0 "$D0/ddr_ddr_reads/D" \
		'event=ddr_ddr_reads value=3' 'event=ddr_ddr_reads value=5' \
		"$D0/ddr_ddr_reads/" 'event=ddr_ddr_reads value=7')
	echo "overlap-pinned ddr_ddr_reads $3,$4" >>"$1"
	echo "overlap-pinned ddr_ddr_reads 15,7" >>"$2"

	# (a) the poll: the twin's parameter set to 1 s (ours is 1 s from the
	# firmware's boot parameters); the timer's time left while an event
	# runs, in seconds rounded up to ten; a counter saturated at 2^64 - 1,
	# restarted from 0 by the poll or not within 5 s, then 5 more
	for m in $OURS $TWINS; do
		p=/sys/module/$m/parameters/poll_period_sec
		[ -e "$p" ] || continue
		[ -w "$p" ] && echo 1 >"$p"
		echo "poll_period_sec $(cat "$p")" >>"$1"
	done
	echo "poll_period_sec 1" >>"$2"
	c=$(perf stat -a -x';' -e "$D0/ddr_hif_rd_access/" -- sh -c "
		echo 'event=ddr_hif_rd_access value=$U64_MAX' > $I0
		cat /proc/timer_list > /tmp/ody_timers
		i=0
		while [ \$i -lt 50 ] && ! grep -qx 'regs:0x201c0 0x0' $UNCORE_SIM/$D0/regs; do
			sleep 0.1
			i=\$((i + 1))
		done
		grep -qx 'regs:0x201c0 0x0' $UNCORE_SIM/$D0/regs && r=yes || r=no
		echo \$r > /tmp/ody_restarted
		echo 'event=ddr_hif_rd_access value=5' > $I0" 2>&1 >/dev/null |
		awk -F';' '{ print $1 }' | tr ' ' _)
	echo "saturation restarted-within-5s $(cat /tmp/ody_restarted)" >>"$1"
	echo "saturation count $c" >>"$1"
	echo "saturation-poll-timer-s $(awk '/cn10k_ddr_pmu_timer_handler/ { getline
		for (i = 1; i <= NF; i++)
			if ($i == "[in") { print int(($(i + 1) / 1e9 + 9) / 10) * 10; f = 1 } }
		END { if (!f) print "none" }' /tmp/ody_timers)" >>"$1"
	printf 'saturation restarted-within-5s yes\nsaturation count 4\n' >>"$2"

	# (b) an unknown event id on D1, then D1's eight counters in a group;
	# last, as on the twin the counter it takes stays taken
	c=$(stat_count "$D1/event=0x3e/" "sleep 0.3" | tr ' ' _)
	echo "unknown-event $D1/event=0x3e/ ${c:-refused}" >>"$1"
	g="" want=""
	i=0
	for e in $DDR_PROG; do
		i=$((i + 1))
		[ $i -le 8 ] || break
		g="$g $D1/$e/"
		want="$want${want:+,}$(ddr_val $i)"
	done
	# shellcheck disable=SC2086 # one word per event
	group_counts ddr-8-after-unknown "cat /tmp/ody_ddr_all > $I1" $g >>"$1"
	echo "group ddr-8-after-unknown $want" >>"$2"
	t1=$(pmu_type $D1)
	{
		errno_of ddr-event-0x3e "$t1" 0x3e
		errno_of ddr-event-0x165 "$t1" 0x165
		errno_of ddr-sampling -s 1000 "$t1" 0x10
		errno_of ddr-task -p 0 -c -1 "$t1" 0x10
	} >>"$1"
}

rm -f /tmp/ody.ours /tmp/ody.twin
mark=$(dmesg | wc -l)
twin_reload "$OURS"
devices /tmp/ody.ours "$mark"
scenario /tmp/ody.ours /tmp/ody.want
mark=$(dmesg | wc -l)
# (f) the twin registers a PMU named tad for every LLC-TAD device in
# turn: each after the first trips sysfs's duplicate-name report (a stack
# dump, "Call Trace:" on x86, "Call trace:" on arm64), four here. They
# are kept off the console, whose every stack dump fails the boot, and
# checked in the log below: exactly those four.
printk=$(cat /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk
twin_swap "$OURS" "$TWINS"
echo "$printk" >/proc/sys/kernel/printk
check_eq "(f) twin: the kernel log of its load has four duplicate tad reports, nothing else" \
	"4 4 4 0" "$(dmesg | tail -n +$((mark + 1)) | awk '
		/sysfs: cannot create duplicate filename .\/devices\/tad.$/ { d++ }
		/kobject_add_internal failed for tad with -EEXIST/ { k++ }
		/Call [Tt]race:/ { c++ }
		/Oops|WARNING:|BUG:|KASAN|Kernel panic|ODEBUG:|lockdep/ { o++ }
		END { print d + 0, k + 0, c + 0, o + 0 }')"
devices /tmp/ody.twin "$mark"
scenario /tmp/ody.twin /tmp/ody.want2
twin_unswap "$OURS" "$TWINS"
check_eq "the same injections for both" "" "$(cmp /tmp/ody.want /tmp/ody.want2 2>&1)"
# ours back on every device the twin had (its TAD probe moves the
# resource it maps: twin_shim puts it back)
# shellcheck disable=SC2010 # sysfs names, no blanks
check_eq "ours back: both DDR PMUs and tad" "mrvl_ddr_pmu_1000200000 mrvl_ddr_pmu_10002a0000 tad" \
	"$(ls $EV | grep -E '^(mrvl_ddr_pmu_|tad$)' | tr '\n' ' ' | sed 's/ $//')"
check_eq "ours back: tad counts" 31 "$(stat_count "$T/tad_hit_ltg/" \
	"echo 'event=tad_hit_ltg value=31 tad=3' > $IT")"
twin_report odyssey "ABI and counts" /tmp/ody.ours /tmp/ody.twin /tmp/ody.want

# The twin's side of each defect, exactly as it shows (README.md).
twin() {
	awk -v k="$1" 'index($0, k " ") == 1 { print substr($0, length(k) + 2) }' /tmp/ody.twin
}
check_eq "(a) twin: poll timer due in 1000 s with poll_period_sec=1" 1000 \
	"$(twin saturation-poll-timer-s)"
check_eq "(a) twin: a saturated counter not restarted within 5 s (5 periods)" no \
	"$(twin "saturation restarted-within-5s")"
# perf prints the count through a double: 2^64 - 1 shows as 2^64
check_eq "(a) twin: the saturated count stays at 2^64 - 1" 18446744073709551616 \
	"$(twin "saturation count")"
check_eq "(b) twin: an unknown DDR event id opens" ok "$(twin "errno ddr-event-0x3e")"
check_eq "(b) twin: it counts nothing (its add fails)" "<not_counted>" \
	"$(twin "unknown-event $D1/event=0x3e/")"
check_eq "(b) twin: its counter is given back: D1's 8 counters in a group count" \
	"$(awk '$1 == "group" && $2 == "ddr-8-after-unknown" { print $3 }' /tmp/ody.want)" \
	"$(twin "group ddr-8-after-unknown")"
check_eq "(c) twin: a flexible session of ddr_ddr_reads counts all (rescheduled)" "15,7,9" \
	"$(twin "overlap ddr_ddr_reads")"
check_eq "(c) twin: a pinned one loses 3 (cleared) and 5 (the other's stop disabled it)" \
	"7,7" "$(twin "overlap-pinned ddr_ddr_reads")"
check_eq "(d) twin: 10, restart, 5: counts 5" 5 "$(twin "restart tad")"
check_eq "(e) twin: in a TAD group the member is refused, so the leader never counts" \
	"<not_counted>,<not_supported>" "$(twin "group tad")"
check_eq "(e) twin: a TAD event opened enabled: EINVAL" "errno_22_EINVAL" \
	"$(twin "errno tad-enabled")"
check_eq "(e) twin: a group member (opened enabled) of a disabled leader: EINVAL" \
	"errno_22_EINVAL" "$(twin "errno tad-member")"
check_eq "(e) twin: the same event opened disabled opens" ok "$(twin "errno tad-disabled")"
check_eq "(f) twin: the second valid LLC-TAD (MRVL000D:05) refused: EEXIST" -17 \
	"$(twin "probe-error MRVL000D:05")"
check_eq "(f) twin: one PMU named tad, the good device's (bound: MRVL000D:00 to :05)" \
	"yes,no,no,no,no,no," \
	"$(for d in 0 1 2 3 4 5; do twin "bound MRVL000D:0$d"; done | tr '\n' ,)"

done_testing
