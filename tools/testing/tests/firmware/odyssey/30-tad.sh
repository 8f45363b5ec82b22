#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Marvell Odyssey LLC-TAD PMU, end to end through perf: every event counts
# the traffic injected into each of the four TAD blocks, summed, above
# 2^32; only the blocks' own traffic; a group of all eight counters, which
# mainline refuses (it takes only disabled events, and perf opens group
# members enabled); more events than counters multiplexed with a pinned
# one exact; an event disabled and enabled again, exact (mainline keeps
# the old prev_count after the restart); the PMU's CPU going offline.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/odyssey.sh"

T=tad
I=$UNCORE_SIM/$T/inject

EVENTS="tad_req_msh_in_exlmn:0x03 tad_alloc_dtg:0x1a tad_alloc_ltg:0x1b
tad_alloc_any:0x1c tad_hit_dtg:0x1d tad_hit_ltg:0x1e tad_hit_any:0x1f
tad_tag_rd:0x20 tad_tot_cycle:0xff"

# block b's value for the i-th event: above 2^32 for block 3
val() {
	echo $(($1 * 100 + $2 * 10 + ($2 == 3) * 4294967296))
}

i=0
: > /tmp/tad_all
for e in $EVENTS; do
	i=$((i + 1))
	for b in 0 1 2 3; do
		echo "event=${e%%:*} value=$(val $i $b) tad=$b" >> /tmp/tad_all
	done
done

# sum I: what the i-th event counts over the four blocks
sum() {
	echo $(($(val $1 0) + $(val $1 1) + $(val $1 2) + $(val $1 3)))
}

# count_all FORM: the events in groups of at most 8, FORM name or id, each
# run injecting every event into every block; prints "event=count" for
# each that did not count its sum exactly
count_all() {
	_i=0 _bad="" _g="" _want=""
	for _e in $EVENTS; do
		_i=$((_i + 1))
		if [ "$1" = name ]; then _ev="$T/${_e%%:*}/"; else _ev="$T/event=${_e#*:}/"; fi
		_g="$_g${_g:+,}$_ev"
		_want="$_want $_ev|$(sum $_i)"
		[ $_i -eq 8 ] || [ $_i -eq 9 ] || continue
		_bad="$_bad$(perf stat -a -x';' -e "{$_g}" -- sh -c "cat /tmp/tad_all > $I" \
			2>&1 >/dev/null | awk -F';' -v want="$_want" 'NF >= 3 { got[$3] = $1 }
			END {
				n = split(want, w, " ")
				for (j = 1; j <= n; j++) {
					split(w[j], kv, "|")
					if (got[kv[1]] != kv[2])
						printf "%s=%s(want %s) ", kv[1], got[kv[1]], kv[2]
				}
			}')"
		_g="" _want=""
	done
	echo "$_bad"
}

check_eq "all 9 events by name, summed over 4 TADs, in groups" "" "$(count_all name)"
check_eq "all 9 events by id, summed over 4 TADs, in groups" "" "$(count_all id)"

for b in 0 1 2 3; do
	c=$(stat_count "$T/tad_hit_any/" "echo 'event=tad_hit_any value=$((b + 5)) tad=$b' > $I")
	check_eq "TAD $b alone counts into the sum" $((b + 5)) "$c"
done
c=$(stat_count "$T/tad_hit_any/" "echo 'event=tad_hit_dtg value=9 tad=2' > $I")
check_eq "another event's traffic is not counted" 0 "$c"

# the same event on all 8 counters at once, each summing every block
printf 'event=tad_tag_rd value=%s tad=%s\n' 1 0 2 1 4 2 8 3 > /tmp/tad_tag
out=$(perf stat -a -x';' -e "{$(events_n 8 "$T/tad_tag_rd/")}" -- sh -c "cat /tmp/tad_tag > $I" \
	2>&1 >/dev/null | awk -F';' '{ printf "%s:%s ", $1, $5 }')
check_eq "group of 8, every counter 15 over the blocks" \
	"15:100.00 15:100.00 15:100.00 15:100.00 15:100.00 15:100.00 15:100.00 15:100.00 " "$out"

# ---- more events than counters ----
# 10 flexible events share the 7 counters the pinned one leaves: each is
# stopped and restarted many times; its raw count may not exceed what was
# injected. (A delta from a stale base would not show here: the bogus
# deltas of the restarts cancel in the sum. The disable/enable test below
# sees it.)
flex=""
lines=""
for e in tad_alloc_dtg tad_alloc_ltg tad_alloc_any tad_hit_dtg tad_hit_ltg tad_hit_any \
	 tad_req_msh_in_exlmn tad_tot_cycle tad_alloc_dtg tad_hit_any; do
	flex="$flex,$T/$e/"
done
for e in tad_alloc_dtg tad_alloc_ltg tad_alloc_any tad_hit_dtg tad_hit_ltg tad_hit_any \
	 tad_req_msh_in_exlmn tad_tot_cycle; do
	lines="${lines}event=$e value=1 tad=0\nevent=$e value=2 tad=3\n"
done
ody_mux "$T/tad_tag_rd/" "$flex" $I "event=tad_tag_rd value=3 tad=1" "$lines"
ody_mux_check 10 120 120

# ---- registers after perf has gone: every counter stopped ----
check_eq "every PRF 0 once perf is done" "" \
	"$(awk '$1 ~ /^regs:0x[0-9a-f]*9[0-3][08]$/ && $2 != "0x0" { print }' $UNCORE_SIM/$T/regs)"

# ---- stopped and started again: the count goes on exactly ----
# Mainline clears the counters at start but keeps the last value as the
# base of the next delta: the second period would add 7 - 5 here.
c=$(ody_toggle "$T/tad_hit_dtg/" $I "event=tad_hit_dtg value=5 tad=2" \
	"event=tad_hit_dtg value=100 tad=2" "event=tad_hit_dtg value=7 tad=0")
check_eq "disabled and enabled again: 5 + 7, the 100 between not counted" 12 "$c"

# ---- CPU hotplug: the PMU's CPU goes offline during an interval run ----
cpu=$(cat $EV/$T/cpumask)
if [ ! -e /sys/devices/system/cpu/cpu$cpu/online ]; then
	not_ok "hotplug: CPU $cpu can go offline" "no /sys/devices/system/cpu/cpu$cpu/online"
else
	perf stat -a -x';' -I 200 -o /tmp/tad_hp.out -e "$T/tad_alloc_any/" -- sh -c "
		echo 'event=tad_alloc_any value=11 tad=1' > $I
		sleep 0.5
		echo 0 > /sys/devices/system/cpu/cpu$cpu/online
		sleep 0.5
		echo 'event=tad_alloc_any value=13 tad=2' > $I
		sleep 0.5"
	new=$(cat $EV/$T/cpumask)
	sum=$(awk -F';' '$4 ~ /tad_alloc_any/ && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' \
		/tmp/tad_hp.out)
	check_eq "hotplug: counts before and after offline all reported" 24 "$sum"
	if [ "$new" != "$cpu" ] && [ -n "$new" ]; then
		ok "hotplug: cpumask moved from $cpu to $new"
	else
		not_ok "hotplug: cpumask moved" "before '$cpu' after '$new'"
	fi
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
	c=$(stat_count "$T/tad_alloc_any/" "echo 'event=tad_alloc_any value=17 tad=3' > $I")
	check_eq "hotplug: counts after the CPU is back" 17 "$c"
fi

done_testing
