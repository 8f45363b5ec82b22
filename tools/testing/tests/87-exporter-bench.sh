#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench only (vm-test.sh leaves NN-<what>-bench.sh out of make check):
# the CPU the Prometheus exporter takes in steady state, as the packaged
# service runs it (uncore-metrics-exporter --output FILE --interval MS),
# on every PMU of the default firmware, against "perf stat -a -x, -I MS"
# on the same events (the daemon's --list: its groups' events, raw), at
# the same interval: the exporter's default
# (packaging/default/uncore-metrics, copied into lib/ by vm-test.sh) and
# 1 s. Traffic runs on every simulated device meanwhile (rate files).
#
# Each run has a cgroup (v2) of its own from its first process on, so its
# cpu.stat holds every process of it, those that have ended too; this
# shell stays outside. Startup is reported apart: until the counting
# process runs (the daemon, or perf) and until the first output. The window then starts
# one interval later, at an output (the exporter's file replaced, perf's
# last line of an interval), and ends at the Nth output after it, so it
# holds exactly N intervals' work: N = max(8, 120 s / interval). CPU is
# cpu.stat's usage_usec at those outputs, wall time /proc/uptime's; the
# polling between them forks nothing (test -ef, read -t on a FIFO).
#
# Asserted: every run started, each window was complete (an output every
# interval, none later than two intervals and 30 s after the one before),
# perf stat printed every event each interval, the exporter's file was
# not empty and the daemon still ran at the end; and the issue's budget,
# with a margin the host's load does not eat: the daemon's CPU per
# interval at most 0.25 times perf stat's, its startup to the first file
# at most 0.5 s of CPU, its resident set at most 4 MiB.

. "$(dirname "$0")/lib/lib.sh"

TOOL=$TESTLIB/uncore-metrics-exporter
# the daemon's comm: its name cut to 15 characters
XCOMM=uncore-metrics-
DIR=/tmp/exporter-bench
CG=/sys/fs/cgroup
PROM=$DIR/uncore.prom
REF=$DIR/seen.prom

rm -rf $DIR
mkdir -p $DIR
mkfifo $DIR/nap
exec 8<>$DIR/nap
R_PID=

# now: NOW, /proc/uptime in centiseconds (no fork)
now() {
	read -r _up _ < /proc/uptime
	NOW=${_up%.*}${_up#*.}
}

# nap SECONDS: sleep without a fork (nothing ever writes the FIFO)
nap() {
	read -r -t "$1" _ <&8
}

# cg_cpu CGROUP: U and US, cpu.stat's usage_usec and system_usec
cg_cpu() {
	while read -r _k _v; do
		case $_k in
		usage_usec)	U=$_v ;;
		system_usec)	US=$_v ;;
		esac
	done < "$1/cpu.stat"
}

# cg_has CGROUP COMM: a process of CGROUP runs COMM
cg_has() {
	while read -r _p; do
		{ read -r _c < /proc/$_p/comm; } 2>/dev/null || continue
		[ "$_c" = "$2" ] && return 0
	done < "$1/cgroup.procs"
	return 1
}

# ps_snap CGROUP FILE: "pid comm utime+stime" (clock ticks) of its processes
ps_snap() {
	_f=$2
	: > "$_f"
	while read -r _p; do
		{ read -r _l < /proc/$_p/stat; } 2>/dev/null || continue
		_c=${_l#*(}
		_c=${_c%')'*}
		# shellcheck disable=SC2086 # the fields after the comm
		set -- ${_l##*') '}
		echo "$_p $_c $((${12} + ${13}))" >> "$_f"
	done < "$1/cgroup.procs"
}

# cg_new NAME: a new empty cgroup, its path in CGP
cg_new() {
	CGP=$CG/bench-$1
	[ ! -d "$CGP" ] || rmdir "$CGP"
	mkdir "$CGP"
}

# cg_end: kill every process of CGP, remove it
cg_end() {
	[ -d "$CGP" ] || return 0
	if [ -e "$CGP/cgroup.kill" ]; then
		echo 1 > "$CGP/cgroup.kill"
	else
		while read -r _p; do kill -KILL "$_p" 2>/dev/null; done < "$CGP/cgroup.procs"
	fi
	[ -z "$R_PID" ] || kill -KILL "$R_PID" 2>/dev/null
	_i=0
	while ! grep -q '^populated 0' "$CGP/cgroup.events" && [ $_i -lt 100 ]; do
		nap 0.1
		_i=$((_i + 1))
	done
	[ -z "$R_PID" ] || wait "$R_PID" 2>/dev/null
	R_PID=
	rmdir "$CGP" 2>/dev/null
}

# in_cg CGROUP CMD...: CMD in the background (R_PID), in CGROUP from its
# first instruction on; returns once it is there (or gone)
in_cg() {
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$@" &
	R_PID=$!
	while ! grep -qx "$R_PID" "$1/cgroup.procs" && kill -0 "$R_PID" 2>/dev/null; do
		nap 0.1
	done
}

# sample FILE: append "NOW U US OUTS" (the cgroup's CPU at this output)
sample() {
	cg_cpu "$CGP"
	echo "$NOW $U $US $OUTS" >> "$1"
}

# ---- exporter's output: the file replaced ----

# wait_file LIMIT: until $PROM is another file than $REF (it was
# replaced), at most LIMIT centiseconds; then $REF is the new one
wait_file() {
	now
	_wf_end=$((NOW + $1))
	while [ "$PROM" -ef "$REF" ]; do
		nap 0.1
		now
		[ "$NOW" -lt "$_wf_end" ] || return 1
	done
	ln -f "$PROM" "$REF"
	OUTS=$((OUTS + 1))
}

# ---- perf stat's output: NEV lines of one timestamp per interval ----

# wait_lines LIMIT: until perf stat printed one more complete interval
# (NEV lines of one timestamp) on fd 7, at most LIMIT centiseconds;
# counts them in OUTS, intervals of another number of lines in BADI
wait_lines() {
	now
	_wl_end=$((NOW + $1))
	_wl_outs=$OUTS
	while :; do
		while read -r _wl_l <&7; do
			_wl_l=$PART$_wl_l
			PART=
			case $_wl_l in *,*) ;; *) continue ;; esac
			_wl_ts=${_wl_l%%,*}
			if [ "$_wl_ts" = "$TS" ]; then
				TSN=$((TSN + 1))
			else
				[ -z "$TS" ] || [ "$TSN" = "$NEV" ] || BADI=$((BADI + 1))
				TS=$_wl_ts
				TSN=1
			fi
			[ "$TSN" != "$NEV" ] || OUTS=$((OUTS + 1))
		done
		# a line perf has not finished writing
		PART=$PART$_wl_l
		now
		[ "$OUTS" = "$_wl_outs" ] || return 0
		[ "$NOW" -lt "$_wl_end" ] || return 1
		nap 0.1
	done
}

# ---- one run ----

# run NAME MS N WAIT COMM CMD...: CMD in cgroup bench-NAME, from its start
# until COMM runs and until its first output (startup), then a window of
# N outputs, from the one after the first on (WAIT: wait_file for the
# exporter's file, wait_lines for perf stat's output in $DIR/NAME.perf)
run() {
	r_n=$1 r_ms=$2 r_win=$3 r_wait=$4 r_comm=$5
	shift 5
	# an output at most two intervals and 30 s after the one before
	r_lim=$((r_ms / 5 + 3000))
	OUTS=0 TS= TSN=0 BADI=0 PART=
	rm -f "$PROM" "$REF" $DIR/$r_n.*
	: > $DIR/$r_n.b
	cg_new "$r_n"
	now
	r_t0=$NOW
	# startup takes about 20 s here; a limit for a hang
	r_dl=$((r_t0 + 30000))
	in_cg "$CGP" "$@" < /dev/null > $DIR/$r_n.out 2> $DIR/$r_n.err
	until cg_has "$CGP" "$r_comm"; do
		now
		if [ "$NOW" -ge "$r_dl" ] || ! kill -0 "$R_PID" 2>/dev/null; then
			not_ok "$r_n: $r_comm started" "$(cat $DIR/$r_n.err)"
			cg_end
			return 1
		fi
		nap 0.1
	done
	now
	cg_cpu "$CGP"
	echo "perf $((NOW - r_t0)) $U" > $DIR/$r_n.start
	if [ $r_wait = wait_file ]; then
		until [ -e "$PROM" ]; do
			now
			[ "$NOW" -lt "$r_dl" ] || break
			nap 0.1
		done
		[ ! -e "$PROM" ] || { ln -f "$PROM" "$REF"; OUTS=1; now; }
	else
		until [ -e $DIR/$r_n.perf ]; do
			now
			[ "$NOW" -lt "$r_dl" ] || break
			nap 0.1
		done
		exec 7< /dev/null
		[ ! -e $DIR/$r_n.perf ] || { exec 7< $DIR/$r_n.perf; wait_lines $((r_dl - NOW)); }
	fi
	if [ "$OUTS" = 0 ]; then
		not_ok "$r_n: first output" "$(cat $DIR/$r_n.err)"
		cg_end
		return 1
	fi
	cg_cpu "$CGP"
	echo "first $((NOW - r_t0)) $U" >> $DIR/$r_n.start
	ok "$r_n: started, first output"
	# one interval more, then the window from that output on
	$r_wait $r_lim
	r_o=$OUTS
	sample $DIR/$r_n.b
	ps_snap "$CGP" $DIR/$r_n.ps0
	while [ $((OUTS - r_o)) -lt "$r_win" ] && $r_wait $r_lim; do
		sample $DIR/$r_n.b
	done
	ps_snap "$CGP" $DIR/$r_n.ps1
	check_eq "$r_n: window complete: $r_win intervals or more, an output after each" \
		yes "$([ $((OUTS - r_o)) -ge "$r_win" ] && echo yes)"
	if [ $r_wait = wait_file ]; then
		check_eq "$r_n: the file is not empty" yes "$([ -s "$PROM" ] && echo yes)"
		check_eq "$r_n: the daemon still runs" yes "$(cg_has "$CGP" $XCOMM && echo yes)"
		rss=$(awk '$1 == "VmRSS:" { print $2 }' /proc/"$R_PID"/status)
		echo "# $r_n: resident set $rss kB"
		check_cmd "$r_n: resident set at most 4 MiB ($rss kB)" test "$rss" -le 4096
		# one series per event the daemon counts, besides the times
		NEV=$(grep -c '^uncore_pmu_[a-z_]*_total{' "$PROM")
		NEV=$((NEV - $(grep -c '^uncore_pmu_events_[a-z]*_seconds_total{' "$PROM")))
		NPMU=$(grep -c '^uncore_pmu_info{' "$PROM")
	else
		check_eq "$r_n: every interval had all $NEV lines" 0 "$BADI"
		exec 7<&-
	fi
	cg_end
	[ ! -s $DIR/$r_n.err ] || sed "s/^/# $r_n: stderr: /" $DIR/$r_n.err | head -n 5
	echo "$r_n $r_ms" >> $DIR/runs
}

# ---- the runs ----

check_eq "uncore-metrics-exporter present in the guest" yes "$([ -x "$TOOL" ] && echo yes)"
grep -q "^[^ ]* $CG cgroup2 " /proc/mounts || mount -t cgroup2 none $CG 2>/dev/null
if ! [ -r $CG/cgroup.procs ] || ! [ -r $CG/cgroup.controllers ]; then
	not_ok "cgroup v2 at $CG" "$(grep cgroup /proc/mounts)"
	done_testing
	exit 1
fi
ok "cgroup v2 at $CG"

defms=$(sed -n 's/^UNCORE_METRICS_INTERVAL=\([0-9][0-9]*\)$/\1/p' \
	$TESTLIB/uncore-metrics.default 2>/dev/null)
check_eq "the packaged default interval" yes "$([ -n "$defms" ] && echo yes)"
[ -n "$defms" ] || defms=15000

NEV=0

# traffic on every device: 1000 injections a second, cycles at 1 GHz
stop_traffic() {
	for d in $(awk '{ print $1 }' $UNCORE_SIM/devices); do
		echo > $UNCORE_SIM/$d/rate
	done
}
trap 'cg_end; stop_traffic' EXIT
bad=
while read -r d kind _; do
	case $kind in
	ucf)	l="event=slc_bytes_rd value=64000|event=slc_access_rd value=1000" ;;
	pcie)	l="event=rd_bytes value=4096|event=rd_req value=64|event=rd_cum_outs value=6400" ;;
	pcie_tgt) l="event=rd_bytes value=4096|event=rd_req value=64" ;;
	cmem)	l="event=rd_req value=10 instance=3 mc=1"
		l="$l|event=rd_cum_outs value=400 instance=3 mc=1" ;;
	nvlink_c2c | nvclink | nvdlink)
		l="event=in_rd_req value=5 instance=1|event=in_rd_cum_outs value=200 instance=1" ;;
	pem)	l="event=ib_reads value=2|event=ib_inflight value=50|event=ib_tlp_pr value=10" ;;
	*)	bad="$bad $d:$kind"; continue ;;
	esac
	[ $kind = pem ] || l="$l|event=cycles value=1000000"
	echo "$l|per_sec=1000" | tr '|' '\n' > $UNCORE_SIM/$d/rate 2>/dev/null || bad="$bad $d"
done < $UNCORE_SIM/devices
check_eq "traffic on every simulated device" "" "$bad"

for ms in $defms 1000; do
	case " $done_ms " in *" $ms "*) continue ;; esac
	done_ms="$done_ms $ms"
	win=$(((120000 + ms - 1) / ms))
	[ $win -ge 8 ] || win=8
	run exporter-$ms $ms $win wait_file $XCOMM \
		"$TOOL" --output "$PROM" --interval "$ms"
	check_eq "exporter-$ms: events of every PMU ($NPMU PMUs, $NEV events)" yes \
		"$([ "$NEV" -gt 0 ] && [ "$NPMU" -gt 0 ] && echo yes)"
	# perf stat's events: the daemon's own, as it opens them (it has
	# ended: nothing else holds a counter)
	"$TOOL" --list > $DIR/events 2> $DIR/list.err
	check_eq "exporter-$ms: --list, one event a line" "0 $NEV" \
		"$? $(grep -c '^[a-z0-9_]*/config=' $DIR/events)"
	PEV=$(sed 's/^/-e /' $DIR/events | tr '\n' ' ')
	# shellcheck disable=SC2086 # one word per option
	run perfstat-$ms $ms $win wait_lines perf \
		perf stat -a -x, -I "$ms" -o $DIR/perfstat-$ms.perf $PEV
done
trap - EXIT
stop_traffic

# ---- the table ----

echo "# ---- exporter CPU in steady state: uncore-metrics-exporter --output" \
     "FILE --interval MS on every PMU ($NPMU PMUs, $NEV events," \
     "one counter each) against perf stat -a -x, -I MS on the same $NEV events" \
     "(the daemon's --list) ----"
echo "#   traffic on every simulated device; CPU: each run's cgroup cpu.stat" \
     "(every process of the run); window: from an output to the Nth after it"
while read -r n ms; do
	awk -v n="$n" -v ms="$ms" -v out=$DIR/figures '
	FILENAME ~ /[.]b$/ { k++; t[k] = $1; u[k] = $2; s[k] = $3; o[k] = $4; next }
	FILENAME ~ /[.]start$/ { st[$1] = $2; su[$1] = $3; next }
	FILENAME ~ /[.]ps0$/ { p0[$1] = $3; next }
	FILENAME ~ /[.]ps1$/ { if ($1 in p0) by[$2] += $3 - p0[$1]; next }
	END {
		run = n
		sub(/-[0-9]+$/, "", run)
		if (k < 2) { printf "#   %-9s %6d ms  no window\n", run, ms; exit }
		wall = (t[k] - t[1]) / 100
		cpu = (u[k] - u[1]) / 1e6
		ni = o[k] - o[1]
		for (i = 2; i <= k; i++) {
			d = (u[i] - u[i - 1]) / 1e3 / (o[i] - o[i - 1])
			if (i == 2 || d < mn) mn = d
			if (i == 2 || d > mx) mx = d
			# sorted into v[1..i-1], for the median
			for (j = i - 1; j > 1 && v[j - 1] > d; j--)
				v[j] = v[j - 1]
			v[j] = d
		}
		med = (k % 2 == 0) ? v[k / 2] : (v[(k - 1) / 2] + v[(k + 1) / 2]) / 2
		printf "#   %-9s %6d ms  %3d intervals in %6.1f s (%.2f s each): CPU %7.3f s," \
		       " %.4f s/s, %5.1f ms/interval (%.0f-%.0f, median %.1f), %.0f%% system\n",
			run, ms, ni, wall, wall / ni, cpu, cpu / wall, cpu * 1e3 / ni, mn, mx, med,
			(cpu > 0 ? 100 * (s[k] - s[1]) / 1e6 / cpu : 0)
		l = ""
		sum = 0
		for (c in by)
			if (by[c] > 0) {
				l = l sprintf(" %s %.3f", c, by[c] / 100)
				sum += by[c] / 100
			}
		if (l != "")
			printf "#   %-9s %9s  by process (s):%s;" \
			       " ended processes and rounding %.3f\n",
				"", "", l, cpu - sum
		printf "#   %-9s %9s  startup: it ran after %.1f s (CPU %.2f s), first output" \
		       " after %.1f s (CPU %.2f s)\n", "", "", st["perf"] / 100, su["perf"] / 1e6,
			st["first"] / 100, su["first"] / 1e6
		printf "%s %s %.6f %.6f\n", run, ms, cpu / wall, cpu / ni >> out
	}' $DIR/$n.b $DIR/$n.start $DIR/$n.ps0 $DIR/$n.ps1
done < $DIR/runs
[ ! -f $DIR/figures ] || awk '
	{ f[$1, $2] = $3; g[$1, $2] = $4; if (!($2 in seen)) { seen[$2] = 1; ms[++n] = $2 } }
	END {
		for (i = 1; i <= n; i++) {
			m = ms[i]
			if (!(("exporter", m) in f) || !(("perfstat", m) in f))
				continue
			if (f["perfstat", m] <= 0)
				continue
			printf "#   ratio at %d ms: exporter / perf stat %.2f" \
			       " (CPU per wall second), %.2f (per interval)\n", m,
				f["exporter", m] / f["perfstat", m],
				g["exporter", m] / g["perfstat", m]
			printf "ratio %d %.4f\n", m,
				g["exporter", m] / g["perfstat", m] > "/dev/stderr"
		}
	}' $DIR/figures 2>$DIR/ratios
while read -r _ ms r; do
	check_cmd "at $ms ms the daemon takes at most 0.25 of perf stat's CPU per interval ($r)" \
		awk -v r="$r" 'BEGIN { exit !(r <= 0.25) }'
done < $DIR/ratios
for f in $DIR/exporter-*.start; do
	[ -f "$f" ] || continue
	c=$(awk '$1 == "first" { printf "%.3f", $3 / 1e6 }' "$f")
	check_cmd "${f##*/}: CPU from start to the first file at most 0.5 s ($c s)" \
		awk -v c="$c" 'BEGIN { exit !(c != "" && c <= 0.5) }'
done

done_testing
