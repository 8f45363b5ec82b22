# SPDX-License-Identifier: GPL-2.0
#
# Side-by-side helpers of the twins tests (busybox sh), sourced after
# lib.sh. A scenario prints one line per observation, "<key> <value>", the
# same keys whichever driver is loaded (the value is the line's last
# field, so it holds no blank); twin_compare then checks every key
# of ours against the twin's, and every listed known difference against
# what was seen. Known differences: lib/twins-known, one per line,
# "<family> <key>|<reason>".

TWIN_KNOWN=$TESTLIB/twins-known

# abi_snapshot PMU...: PMU names, format/ and events/ contents, identifier,
# cpumask, associated_cpus and peer, as "<pmu>/<file> <value>"
abi_snapshot() {
	for p in "$@"; do
		echo "$p/ registered"
		for f in $EV/$p/format/* $EV/$p/events/*; do
			[ -f "$f" ] || continue
			echo "$p/${f#$EV/$p/} $(cat "$f")"
		done
		for f in identifier cpumask associated_cpus peer; do
			if [ -f "$EV/$p/$f" ]; then
				echo "$p/$f $(cat "$EV/$p/$f")"
			else
				echo "$p/$f (none)"
			fi
		done
	done
}

# stat_all INJECT EVENT...: count every EVENT in one system-wide perf run
# while sh -c INJECT runs; prints "count <event> <count>" per event
stat_all() {
	_inj=$1
	shift
	_args=""
	for _e in "$@"; do
		_args="$_args -e $_e"
	done
	perf stat -a -x';' $_args -- sh -c "$_inj" 2>&1 >/dev/null |
		awk -F';' '{ print "count " $3 " " $1 }'
}

# errno_of NAME PERF_OPEN-ARGS...: "errno NAME <result>", the result of
# perf_open (ok, or the errno of the refused open) with "_" for blanks
errno_of() {
	_n=$1
	shift
	echo "errno $_n $($PERF_OPEN "$@" | tr ' ' _)"
}

# group_of KEY INJECT EVENT...: EVENT... as one group in one system-wide
# perf run while sh -c INJECT runs; prints "group KEY <counts>", the
# members' counts in order joined by ","
group_of() {
	_key=$1 _inj=$2
	shift 2
	_g=$(echo "$@" | tr ' ' ',')
	echo "group $_key $(perf stat -a -x';' -e "{$_g}" -- sh -c "$_inj" 2>&1 >/dev/null |
		awk -F';' '{ printf "%s%s", (NR > 1 ? "," : ""), $1 }')"
}

# mux_pinned KEY N PINNED OTHER INJECT: PINNED pinned (:D) and N events
# OTHER (another event than PINNED) besides, more than upstream runs at
# once, in one system-wide perf run while INJECT runs 40 times, 0.05 s
# apart; prints "mux KEY-pinned
# <count>" (a pinned event is never rotated out, so it counts every
# injection) and "mux KEY-counted <n>", how many of the others counted
mux_pinned() {
	_evs="$3D"
	_i=0
	while [ $_i -lt "$2" ]; do
		_evs="$_evs,$4"
		_i=$((_i + 1))
	done
	perf stat -a -x';' -e "$_evs" -- sh -c "
		i=0
		while [ \$i -lt 40 ]; do
			$5
			sleep 0.05
			i=\$((i + 1))
		done" 2>&1 >/dev/null | awk -F';' -v k="$1" -v p="$3" '
		!pinned && index($3, p) == 1 { pinned = 1; print "mux " k "-pinned " $1; next }
		$1 ~ /^[0-9]+$/ { n++ }
		END { print "mux " k "-counted " n + 0 }'
}

# twin_swap OURS TWIN: unload our driver modules OURS, load the twin
# modules TWIN (after twin_shim), each a list in load order; twin_unswap
# OURS TWIN: the other way round. Both fail the test (and say why) if a
# module does not go or come. Modules load on CPU 3, so that a driver which
# takes the CPU its probe runs on gives the same answer every time.
twin_swap() {
	for _m in $1; do
		check_cmd "rmmod $_m" rmmod "$_m"
	done
	lsmod | grep -q '^twin_shim ' ||
		check_cmd "insmod twin_shim" insmod /lib/modules-test/twin_shim.ko
	for _m in $2; do
		check_cmd "insmod $_m (on CPU 3)" taskset 8 insmod "/lib/modules-test/$_m.ko"
	done
}
# twin_reload OURS: load our driver modules afresh (with their boot
# parameters, as the init loaded them), on CPU 3 as the twin will be, so
# that both are compared from the state a load gives (earlier tests may
# have moved our PMUs' CPUs by hotplug)
twin_reload() {
	for _m in $1; do
		check_cmd "rmmod $_m" rmmod "$_m"
		# shellcheck disable=SC2046 # one word per parameter
		check_cmd "insmod $_m afresh (on CPU 3)" \
			taskset 8 insmod "/lib/modules-test/$_m.ko" $(boot_params "$_m")
	done
}
twin_unswap() {
	_rev=""
	for _m in $2; do
		_rev="$_m $_rev"
	done
	for _m in $_rev; do
		check_cmd "rmmod $_m" rmmod "$_m"
	done
	for _m in $1; do
		# shellcheck disable=SC2046 # one word per parameter
		check_cmd "insmod $_m again (on CPU 3)" \
			taskset 8 insmod "/lib/modules-test/$_m.ko" $(boot_params "$_m")
	done
}

# sim_reload [PARAM=VALUE...]: the simulator loaded again, with the boot's
# parameters (the kernel command line's uncore_sim.*) and PARAMs after
# them, which win; none: as booted. Every module that maps its windows
# (our drivers, loaded twins) goes first; ours come back after it, in the
# init's order, with their boot parameters. The hardware does not change
# under a loaded driver, so neither does the simulator.
sim_reload() {
	. /etc/uncore-vm.conf
	for _m in $(lsmod | awk '$1 ~ /^twin_/ && $1 != "twin_shim" { print $1 }'); do
		check_cmd "rmmod $_m" rmmod "$_m"
	done
	_after="" _rev="" _seen=0
	for _m in $MODULES; do
		[ $_seen = 0 ] || { _after="$_after $_m"; _rev="$_m $_rev"; }
		[ "$_m" != uncore_sim ] || _seen=1
	done
	for _m in $_rev; do
		lsmod | grep -q "^$_m " || continue
		check_cmd "rmmod $_m" rmmod "$_m"
	done
	check_cmd "rmmod uncore_sim" rmmod uncore_sim
	check_cmd "insmod uncore_sim $*" insmod /lib/modules-test/uncore_sim.ko \
		$(boot_params uncore_sim) "$@"
	for _m in $_after; do
		check_cmd "insmod $_m" insmod "/lib/modules-test/$_m.ko" $(boot_params "$_m")
	done
}

# boot_params MODULE: MODULE's parameters on the kernel command line
boot_params() {
	for _w in $(cat /proc/cmdline); do
		case $_w in "$1".*=*) echo "${_w#"$1".}" ;; esac
	done
}

# twin_compare FAMILY OURS TWIN [EXPECTED]: every key of OURS must have the
# same value in TWIN, unless "<FAMILY> <key>" is a known difference; a known
# difference that did not occur fails too (the list says what is true
# today). With EXPECTED (lines "<key> <value>" of what the injections
# must give), ours must match it exactly.
twin_compare() {
	_fam=$1
	awk -v fam="$_fam" -v known="$TWIN_KNOWN" -v expf="${4:-}" '
	# a line is "<key> <value>": the value is its last field
	function key(line) { sub(/ [^ ]*$/, "", line); return line }
	function val(line) { return substr(line, length(key(line)) + 2) }
	BEGIN {
		while ((getline l < known) > 0) {
			if (l ~ /^#/ || l !~ /\|/) continue
			k = substr(l, 1, index(l, "|") - 1)
			if (index(k, fam " ") != 1) continue
			k = substr(k, length(fam) + 2)
			why[k] = substr(l, index(l, "|") + 1); seen[k] = 0
		}
		if (expf != "")
			while ((getline l < expf) > 0) want[key(l)] = val(l)
	}
	FILENAME == ARGV[1] { ours[key($0)] = val($0); order[++n] = key($0); next }
	{ twin[key($0)] = val($0); if (!(key($0) in ours)) order[++n] = key($0) }
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			o = (k in ours) ? ours[k] : "(missing)"
			t = (k in twin) ? twin[k] : "(missing)"
			if ((k in want) && o != want[k])
				printf "not ok - %s %s: ours %s, injected %s\n", fam, k, o, want[k]
			if (o == t) { agree++; continue }
			if (k in why) {
				seen[k] = 1
				printf "known %s (ours %s, twin %s): %s\n", k, o, t, why[k]
				continue
			}
			printf "not ok - %s %s: ours %s, twin %s\n", fam, k, o, t
		}
		for (k in seen)
			if (!seen[k] && why[k] !~ /^sometimes: /)
				printf "not ok - %s %s: %s\n", fam, k,
					"listed as a known difference, but both agree"
		printf "agree %d\n", agree
	}' "$2" "$3"
}

# twin_report FAMILY WHAT OURS TWIN [EXPECTED]: twin_compare as one TAP line
twin_report() {
	_out=$(twin_compare "$1" "$3" "$4" "${5:-}")
	echo "$_out" | grep '^known' | sed "s/^/# $1 /"
	_n=$(echo "$_out" | sed -n 's/^agree //p')
	_k=$(echo "$_out" | grep -c '^known')
	_what="ours and the upstream twin agree"
	if echo "$_out" | grep -q '^not ok' || [ "${_n:-0}" -eq 0 ]; then
		not_ok "$1 $2: $_what" "agreed on ${_n:-0}"
		echo "$_out" | grep '^not ok' | head -n 20 | sed 's/^not ok - /#   /'
	else
		ok "$1 $2: $_what on $_n observations ($_k known differences)"
	fi
}

# twin_run FAMILY OURS [TWIN]: the scenario() of the calling test on our
# driver modules OURS (loaded afresh), then on the twin modules TWIN
# (default twin_OURS), then ours back; compared
twin_run() {
	_twin=${3:-twin_$2}
	twin_reload "$2"
	scenario /tmp/$1.ours /tmp/$1.want
	twin_swap "$2" "$_twin"
	scenario /tmp/$1.twin /tmp/$1.want2
	twin_unswap "$2" "$_twin"
	check_eq "the same injections for both" "" "$(cmp /tmp/$1.want /tmp/$1.want2 2>&1)"
	twin_report "$1" "ABI and counts" /tmp/$1.ours /tmp/$1.twin /tmp/$1.want
}

# ---- the bench on both sides (twins tests named *-bench*.sh, after
# lib/bench.sh; make bench only) ----

TWIN_BENCH_TIMING=/tmp/twin-bench.timing
: >$TWIN_BENCH_TIMING

# twin_bench_timing SIDE PMU EVENT: median read() time of PMU/EVENT/
# against a software event's, into $TWIN_BENCH_TIMING
twin_bench_timing() {
	if _out=$($TESTLIB/pmu_bench -T -n 2000 -p $2 "$(ev $2 $3)" 2>&1); then
		echo "$_out" | sed -n "s/^timing /timing $1 $2\\/$3\\/ /p" >>$TWIN_BENCH_TIMING
		ok "$1: timing: $2/$3/"
	else
		not_ok "$1: timing: $2/$3/" "$_out"
	fi
}

# twin_bench_side FAMILY SIDE WANT [CB=FUNC...]: the runs (scen_FAMILY) and
# timings (timing_FAMILY) of the calling test on one side, with the
# callbacks' functions (bench_setup); WANT: the callbacks that must be
# traced
twin_bench_side() {
	_fam=$1 _side=$2 _want=$3
	shift 3
	if ! bench_setup "$@"; then
		not_ok "$_side $_fam: function_graph tracer set up" \
			"$(cat /sys/kernel/tracing/available_tracers 2>&1)"
		return
	fi
	check_eq "$_side $_fam: every callback traced" "$_want" "${BENCH_GRAPH# }"
	scen_$_fam $_side
	bench_teardown
	timing_$_fam $_side
}

# twin_bench_family FAMILY OURS TWIN CB=FUNC...: ours (loaded afresh), then
# the twin modules TWIN with the functions of their callbacks, then ours
# back
twin_bench_family() {
	_f=$1 _o=$2 _t=$3
	shift 3
	twin_reload "$_o"
	twin_bench_side $_f ours "$BENCH_CALLBACKS"
	twin_swap "$_o" "$_t"
	_w=$(for _cf in "$@"; do printf '%s ' "${_cf%%=*}"; done)
	twin_bench_side $_f twin "${_w% }" "$@"
	twin_unswap "$_o" "$_t"
}

# twin_bench_report RUN...: the side-by-side table of each run (titled
# $TITLE_<run>), which must have results on both sides, then the read()
# timings, which must have both sides of every event
twin_bench_report() {
	for _r in "$@"; do
		eval "bench_pair $_r \"\$TITLE_$_r\""
		check_eq "$_r: results of ours and of the twin" "yes yes" \
			"$(awk -v o="ours-$_r" -v t="twin-$_r" '$1 == o { a = 1 } $1 == t { b = 1 }
				END { print (a ? "yes" : "no"), (b ? "yes" : "no") }' $BENCH_RES)"
	done
	bench_timing_pair $TWIN_BENCH_TIMING
	check_eq "read() timed on both sides for every event" "" \
		"$(awk '{ n[$3] += ($2 == "ours") + 2 * ($2 == "twin") }
			END { for (e in n) if (n[e] != 3) print e }' $TWIN_BENCH_TIMING)"
}
