#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Marvell Odyssey DDR PMU, end to end through perf: every event counts the
# traffic injected under its name or id exactly, each above 2^32; the two
# free-running counters shared by any number of events and sessions at
# once (mainline clears them under a running event); a full group of the
# eight programmable counters beside the free-running ones; more events
# than counters multiplexed, a pinned one exact and none with a bogus
# delta; a saturated counter restarted by the poll (mainline polls every
# 27.8 h and is off by one after a restart); the PMU's CPU going offline.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/odyssey.sh"

D0=mrvl_ddr_pmu_1000200000
D1=mrvl_ddr_pmu_10002a0000
I0=$UNCORE_SIM/$D0/inject
I1=$UNCORE_SIM/$D1/inject

PROG=$ODY_DDR_PROG

# value of the i-th event: above 2^32, different for every event
val() {
	echo $(($1 * 4294967296 + 1000 + 7 * $1))
}

# every signal at once, each with its own value: a counter that counted
# another event's signal shows that one's value
i=0
: > /tmp/ddr_all
for e in $PROG $ODY_DDR_FREE; do
	i=$((i + 1))
	echo "event=${e%%:*} value=$(val $i)" >> /tmp/ddr_all
done

# count_batch FORM FIRST LAST: one group of the events FIRST..LAST of PROG,
# named (FORM name) or raw (FORM id), while every signal is injected;
# prints "name=count" for each that did not count its own value exactly
count_batch() {
	_i=0 _g="" _want=""
	for _e in $PROG; do
		_i=$((_i + 1))
		[ $_i -ge "$2" ] && [ $_i -le "$3" ] || continue
		if [ "$1" = name ]; then _ev="$D0/${_e%%:*}/"; else _ev="$D0/event=${_e#*:}/"; fi
		_g="$_g${_g:+,}$_ev"
		_want="$_want $_ev|$(val $_i)"
	done
	perf stat -a -x';' -e "{$_g}" -- sh -c "cat /tmp/ddr_all > $I0" 2>&1 >/dev/null |
		awk -F';' -v want="$_want" 'NF >= 3 { got[$3] = $1 }
		END {
			n = split(want, w, " ")
			for (j = 1; j <= n; j++) {
				split(w[j], kv, "|")
				if (got[kv[1]] != kv[2])
					printf "%s=%s(want %s) ", kv[1], got[kv[1]], kv[2]
			}
		}'
}

# ---- every programmable event, named and raw, exact above 2^32 ----
for form in name id; do
	bad=""
	first=1
	while [ $first -le 52 ]; do
		bad="$bad$(count_batch $form $first $((first + 7)))"
		first=$((first + 8))
	done
	check_eq "all 52 programmable events by $form count exactly (values above 2^32)" "" "$bad"
done

# ---- the free-running counters ----
fr="$D0/ddr_ddr_reads/,$D0/ddr_ddr_writes/,$D0/event=0x65/,$D0/event=0x64/"
out=$(perf stat -a -x';' -e "$fr" \
	-- sh -c "cat /tmp/ddr_all > $I0" 2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "ddr_ddr_reads/writes, named and raw, above 2^32" \
	"$(val 54) $(val 53) $(val 54) $(val 53) " "$out"
r=$(events_n 3 "$D0/ddr_ddr_reads/")
w=$(events_n 3 "$D0/ddr_ddr_writes/")
out=$(perf stat -a -x';' -e "$r,$w,{$r,$w}" -- sh -c "
	i=0
	while [ \$i -lt 20 ]; do
		printf 'event=ddr_ddr_reads value=11\nevent=ddr_ddr_writes value=5\n' > $I0
		i=\$((i + 1))
	done" 2>&1 >/dev/null |
	awk -F';' '$5 != "100.00" { b = b " " $3 "@" $5 } { c[$3] = c[$3] " " $1 }
		END { print c["'"$D0/ddr_ddr_reads/"'"] "|" c["'"$D0/ddr_ddr_writes/"'"] "|" b }')
check_eq "6 events of each free-running counter at once, all exact, none multiplexed" \
	" 220 220 220 220 220 220| 100 100 100 100 100 100|" "$out"
set -- $(overlap_sessions $I0 "$D0/ddr_ddr_reads/" 'event=ddr_ddr_reads value=3' \
	'event=ddr_ddr_reads value=5' "$D0/ddr_ddr_reads/" 'event=ddr_ddr_reads value=7' \
	"$D0/ddr_ddr_writes/" 'event=ddr_ddr_writes value=9')
check_eq "overlapping sessions of ddr_ddr_reads: B, then a writes session" "7 9" "$2 $3"
check_eq "overlapping session A counts all of its window" 15 "$1"
c=$(stat_count "$D1/ddr_ddr_reads/" \
	"echo 'event=ddr_ddr_reads value=50' > $I0; echo 'event=ddr_ddr_reads value=6' > $I1")
check_eq "$D1 counts only its own controller's reads" 6 "$c"
c=$(stat_count "$D1/ddr_cam_read/" \
	"echo 'event=ddr_cam_read value=50' > $I0; echo 'event=ddr_cam_read value=4' > $I1")
check_eq "$D1 counts only its own controller's events" 4 "$c"

# ---- a full group: the 8 counters and both free-running ones ----
g="" want=""
i=0
for e in $PROG; do
	i=$((i + 1))
	[ $i -le 8 ] || break
	g="$g$D0/${e%%:*}/,"
	want="$want$(val $i):100.00 "
done
out=$(perf stat -a -x';' -e "{$g$D0/ddr_ddr_reads/,$D0/ddr_ddr_writes/}" -- \
	sh -c "cat /tmp/ddr_all > $I0" 2>&1 >/dev/null | awk -F';' '{ printf "%s:%s ", $1, $5 }')
check_eq "group of 8 programmable events and both free-running counters, exact" \
	"$want$(val 54):100.00 $(val 53):100.00 " "$out"

# ---- more events than counters: multiplexed, a pinned one exact ----
# 12 flexible events share the 7 counters the pinned one leaves; each is
# stopped and started many times, and no raw (unscaled) count may exceed
# what was injected.
flex="" lines=""
i=0
for e in $PROG; do
	i=$((i + 1))
	[ $i -ge 9 ] && [ $i -le 20 ] || continue
	flex="$flex,$D0/${e%%:*}/"
	lines="${lines}event=${e%%:*} value=3\n"
done
ody_mux "$D0/ddr_hif_wr_access/" "$flex" $I0 "event=ddr_hif_wr_access value=7" "$lines"
ody_mux_check 12 280 120
c=$(stat_count "$D0/ddr_cam_read/" "echo 'event=ddr_cam_read value=12' > $I0")
check_eq "counts after multiplexing" 12 "$c"

# ---- stopped and started again: the count goes on exactly ----
# A programmable counter is zeroed by START at each enable; a free-running
# one never is (its event starts from a snapshot).
c=$(ody_toggle "$D1/ddr_precharge/" $I1 "event=ddr_precharge value=5" \
	"event=ddr_precharge value=100" "event=ddr_precharge value=7")
check_eq "programmable, disabled and enabled again: 5 + 7" 12 "$c"
c=$(ody_toggle "$D1/ddr_ddr_writes/" $I1 "event=ddr_ddr_writes value=6" \
	"event=ddr_ddr_writes value=100" "event=ddr_ddr_writes value=9")
check_eq "free-running, disabled and enabled again: 6 + 9" 15 "$c"

# ---- a saturated counter is restarted by the poll ----
# The counter stops at 2^64 - 1; the poll (every second on this firmware)
# folds it and restarts it from 0, so the count goes on: 2^64 - 1 + 5 is 4
# in a 64-bit count. Mainline leaves prev_count at 2^64 - 1, so the delta
# after the restart is one too many (5 here); a driver that never
# restarts stays at 2^64 - 1.
out=$(perf stat -a -x';' -e "$D0/ddr_hif_rd_access/" -- sh -c "
	echo 'event=ddr_hif_rd_access value=18446744073709551615' > $I0
	i=0
	while [ \$i -lt 100 ] && ! grep -qx 'regs:0x201c0 0x0' $UNCORE_SIM/$D0/regs; do
		sleep 0.1
		i=\$((i + 1))
	done
	echo 'event=ddr_hif_rd_access value=5' > $I0" 2>&1 >/dev/null | awk -F';' '{ print $1 }')
check_eq "saturated at 2^64 - 1, restarted, then 5 more: 4 (mod 2^64)" 4 "$out"

# ---- registers after perf has gone ----
check_eq "free-running counters disabled when no event reads them" "0x0" \
	"$(awk '$1 == "regs:0x20240" { print $2 }' $UNCORE_SIM/$D0/regs)"
check_eq "no programmable counter left enabled" "" \
	"$(awk '$1 ~ /^regs:0x20(16|17|18|19)/ && length($2) == 18 && $2 ~ /^0x[89a-f]/' \
		$UNCORE_SIM/$D0/regs)"

# ---- CPU hotplug: the PMU's CPU goes offline during an interval run ----
cpu=$(cat $EV/$D0/cpumask)
if [ ! -e /sys/devices/system/cpu/cpu$cpu/online ]; then
	not_ok "hotplug: CPU $cpu can go offline" "no /sys/devices/system/cpu/cpu$cpu/online"
else
	perf stat -a -x';' -I 200 -o /tmp/ddr_hp.out \
		-e "$D0/ddr_cam_write/,$D0/ddr_ddr_writes/" -- sh -c "
		printf 'event=ddr_cam_write value=11\nevent=ddr_ddr_writes value=21\n' > $I0
		sleep 0.5
		echo 0 > /sys/devices/system/cpu/cpu$cpu/online
		sleep 0.5
		printf 'event=ddr_cam_write value=13\nevent=ddr_ddr_writes value=23\n' > $I0
		sleep 0.5"
	new=$(cat $EV/$D0/cpumask)
	sums=$(awk -F';' '$2 ~ /^[0-9]+$/ { s[$4] += $2 }
		END { print s["'"$D0/ddr_cam_write/"'"] + 0, s["'"$D0/ddr_ddr_writes/"'"] + 0 }' \
		/tmp/ddr_hp.out)
	check_eq "hotplug: counts before and after offline all reported" "24 44" "$sums"
	if [ "$new" != "$cpu" ] && [ -n "$new" ]; then
		ok "hotplug: cpumask moved from $cpu to $new"
	else
		not_ok "hotplug: cpumask moved" "before '$cpu' after '$new'"
	fi
	# the poll moved with the events: a saturated counter still restarts
	out=$(perf stat -a -x';' -e "$D0/ddr_zqcl/" -- sh -c "
		echo 'event=ddr_zqcl value=18446744073709551615' > $I0
		i=0
		while [ \$i -lt 100 ] && ! grep -qx 'regs:0x201c0 0x0' $UNCORE_SIM/$D0/regs; do
			sleep 0.1
			i=\$((i + 1))
		done
		echo 'event=ddr_zqcl value=9' > $I0" 2>&1 >/dev/null | awk -F';' '{ print $1 }')
	check_eq "hotplug: the poll runs on CPU $new" 8 "$out"
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
	c=$(stat_count "$D0/ddr_cam_write/" "echo 'event=ddr_cam_write value=17' > $I0")
	check_eq "hotplug: counts after the CPU is back" 17 "$c"
fi

done_testing
