#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: a group read through each release's perf
#
# Group reads are one snapshot: perf reads a group inside a read
# transaction, during which the PMU is frozen (CSPMU PMCR.E, CMEM CTRL,
# C2C C2C_CTRL). Every member's traffic is injected in one atomic write,
# over and over, while perf stat -I 100 reads the group; each interval must
# show the members' counts in exactly the injected ratios. Traffic that
# arrives while a PMU is frozen is not counted for any of its counters, so
# an event outside the group still keeps its exact ratio to the group over
# the whole run (C2C: its count survives the restart from zero at thaw).

. "$(dirname "$0")/lib/lib.sh"

STOP=/tmp/group-read.stop
# Each register read takes longer: gaps between the reads of one group
# wide enough (a millisecond or two in all) for the injector to hit them,
# were the PMU not frozen. TCG may run one vCPU at a time for a while, so
# shorter gaps are rarely hit even then.
DELAY=/sys/module/uncore_sim/parameters/read_delay_us

# group_run PMU GROUP-EVENTS EXTRA-EVENTS INJECT-LINES: perf stat -I 100 of
# the group {GROUP-EVENTS} (and EXTRA-EVENTS, comma-separated, outside it)
# while INJECT-LINES go to PMU's inject file in one write, over and over
# for 4 s; 1 s without traffic follows, so the last intervals print the
# rest. Prints perf's CSV lines.
group_run() {
	_g=""
	for e in $2; do
		_g="$_g,$1/$e/"
	done
	_x=""
	for e in $3; do
		_x="$_x,$1/$e/"
	done
	printf '%s\n' "$4" > /tmp/group-read.inj
	# The injector: shell builtins only (no fork per write), on a CPU other
	# than the PMU's, so its writes can land between two counter reads;
	# a short sleep after every 20 writes, so that a guest whose vCPUs
	# share one host thread (vm/run.sh) runs perf's timer too.
	cat > /tmp/group-read.sh <<-EOF
	l=\$(cat /tmp/group-read.inj)
	i=0
	while [ ! -f $STOP ]; do
		printf '%s\\n' "\$l" > $UNCORE_SIM/$1/inject
		i=\$((i + 1))
		[ \$((i % 20)) -ne 0 ] || sleep 0.01
	done
	EOF
	_cpu=$(cat "$EV/$1/cpumask")
	_icpu=3
	[ "$_cpu" = 3 ] && _icpu=2
	rm -f "$STOP"
	perf stat -a -I 100 -x';' -e "{${_g#,}}$_x" -- sh -c "
		taskset -c $_icpu sh /tmp/group-read.sh &
		sleep 4; touch $STOP; wait; sleep 1" 2>&1 >/dev/null
}

# check_ratios DESC CSV BASE EVENT=FACTOR...: in every interval where BASE
# counted, each EVENT counted FACTOR times as much; at least 10 such
# intervals (a loaded host gives perf and the injector fewer). Prints the
# offending intervals otherwise.
check_ratios() {
	_d=$1 _csv=$2 _base=$3
	shift 3
	_out=$(echo "$_csv" | awk -F';' -v base="$_base" -v want="$*" '
		NF >= 4 { n = split($4, p, "/"); ev = p[n - 1]; c[$1, ev] = $2; t[$1] = 1 }
		END {
			nw = split(want, w, " ")
			for (ts in t) {
				b = c[ts, base]
				if (b !~ /^[0-9]+$/) { bad = bad " " ts ":" base "=" b; continue }
				if (b == 0) continue
				good++
				for (i = 1; i <= nw; i++) {
					split(w[i], kv, "=")
					got = c[ts, kv[1]]
					if (got != b * kv[2])
						bad = bad " " ts ":" base "=" b "," kv[1] "=" got
				}
			}
			if (bad != "") print "mismatch" bad
			else if (good < 10) print "only " good " intervals with traffic"
			else print "ok"
		}')
	if [ "$_out" = ok ]; then
		ok "$_d"
	else
		not_ok "$_d" "$_out"
	fi
}

# total CSV EVENT: the sum of EVENT's counts over every interval
total() {
	echo "$1" | awk -F';' -v e="$2" '
		NF >= 4 { n = split($4, p, "/"); if (p[n - 1] == e) s += $2 }
		END { printf "%d\n", s }'
}

# ---- UCF (CSPMU): PMCR.E ----
U=nvidia_ucf_pmu_0
echo 0 > "$UNCORE_SIM/$U/stats"
# All 8 counters, event k injected k times per write.
uevs="slc_bytes_rd slc_bytes_wr mem_access_rd mem_access_wr mem_bytes_rd mem_bytes_wr
slc_access_rd slc_access_wr"
lines=""
want=""
k=1
for e in $uevs; do
	lines="${lines}event=$e value=$k
"
	[ $k -gt 1 ] && want="$want $e=$k"
	k=$((k + 1))
done
echo 250 > $DELAY
csv=$(group_run $U "$uevs" "" "$lines")
check_ratios "UCF: every interval of the 8-counter group is one snapshot" "$csv" \
	slc_bytes_rd $want
# Group reads happen frozen, and del reads a counter after stopping it.
check_eq "UCF: no counter read while it counted" 0 "$(sim_stat $U reads_while_running)"
check_eq "UCF: no status register read" 0 "$(sim_stat $U status_reads)"

# ---- CMEM: CTRL ----
C=nvidia_cmem_latency_pmu_0
echo 20 > $DELAY
csv=$(group_run $C "rd_req rd_cum_outs cycles" "" \
	"event=rd_req value=1 instance=3 mc=1
event=rd_cum_outs value=5 instance=9 mc=2
event=cycles value=10")
check_ratios "CMEM: every interval of the group is one snapshot" "$csv" \
	rd_req rd_cum_outs=5 cycles=10

# ---- C2C: C2C_CTRL, restarting from zero at thaw ----
N=nvidia_nvlink_c2c_pmu_0
csv=$(group_run $N "in_rd_req in_rd_cum_outs" "out_rd_req" \
	"event=in_rd_req value=1 instance=2
event=in_rd_cum_outs value=5 instance=9
event=out_rd_req value=7 instance=12")
check_ratios "C2C: every interval of the group is one snapshot" "$csv" \
	in_rd_req in_rd_cum_outs=5
req=$(total "$csv" in_rd_req)
check_eq "C2C: the event outside the group kept every count across the restarts" \
	"$((7 * req))" "$(total "$csv" out_rd_req)"
[ "$req" -gt 0 ] && ok "C2C: traffic was counted ($req)" ||
	not_ok "C2C: traffic was counted" "in_rd_req total $req"

echo 0 > $DELAY
rm -f "$STOP" /tmp/group-read.inj /tmp/group-read.sh
done_testing
