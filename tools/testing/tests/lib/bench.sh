# SPDX-License-Identifier: GPL-2.0
#
# MMIO cost of every perf callback of our PMUs (busybox sh; source it after
# lib.sh). ftrace's function_graph tracer, restricted to the helper layer's
# struct pmu callbacks and to the PMU's CPU, shows every register access
# inside each callback; pmu_bench (tests/progs/) drives the callbacks in fixed
# phases and marks each phase in the trace. The simulator's stats give the
# same totals independently: bench_run checks that the two agree.
#
# All driver MMIO in the guest goes through uncore_backend_read/_write
# (drivers/perf/uncore_core.c) to the simulator's backend ops, sim_be_read
# and sim_be_write. Those two are what is counted: they are called through
# a function pointer, so each access is a frame of its own, whereas the
# compiler may inline uncore_backend_read into its callers in
# uncore_core.c (uncore_read_hilohi), which then show no frame for it.
#
#   bench_setup [CB=FUNC...]     mount tracefs, pick the callbacks; 1 if no function_graph.
#                                Without arguments the helper layer's (CB uncore_pmu_CB);
#                                with, the function of each callback CB of another driver
#                                (an upstream twin: tools/testing/twins)
#   bench_run NAME PMU [pmu_bench options] EVENT...
#   bench_get NAME PHASE ROW FIELD
#       ROW: a callback (add del start stop read pmu_enable pmu_disable
#       start_txn commit_txn cancel_txn), FIELD: calls reads_min reads_max
#       writes_min writes_max allocs prints, or reads writes (all calls of
#       the phase together); 0 when the callback was not called.
#       ROW stats|regs|traced, FIELD a key of that line
#   bench_table NAME [TITLE]     the results of NAME as "# " lines
#   bench_event PMU TERMS        "CONFIG:CONFIG1:CONFIG2" of an event string such as
#                                "in_rd_req,gpu_mask=0x1", from the PMU's events/ and format/
#   bench_teardown
#   bench_require                bench_setup, or fail the test and exit
#   check_read NAME READS        budget: READS register reads per read(), no write
#   check_add NAME               budget: scheduling writes only registers that change
#   ev PMU TERMS                 bench_event, for bench_run's arguments
#
# Results: $BENCH_RES, one line per NAME, phase and callback
#   NAME PHASE CALLBACK calls reads_min reads_max writes_min writes_max allocs prints reads writes
# and per phase "NAME PHASE stats key=value...", "NAME PHASE regs changed=N ...",
# "NAME PHASE traced reads=R writes=W" (the top-level frames: each MMIO once).
# Each count belongs to the callback perf core called: a callback that
# another one calls (start inside add, stop inside del) has no row of its
# own there, so the figures do not depend on what the compiler inlines.

BENCH_RES=/tmp/bench.results
BENCH_PMU_BENCH=$TESTLIB/pmu_bench
BENCH_CALLBACKS="add del start stop read enable disable start_txn commit_txn cancel_txn"
BENCH_T=

# The PMUs the benches measure, by their default firmware names, and the
# CSPMU registers left out of "registers changed": the CLR views of the
# enable sets, which read back the SET state (a change would count twice).
UCF=nvidia_ucf_pmu_0
PCIE=nvidia_pcie_pmu_0_rc_0
TGT=nvidia_pcie_tgt_pmu_0_rc_0
CMEM=nvidia_cmem_latency_pmu_0
C2C=nvidia_nvlink_c2c_pmu_0
CLINK=nvidia_nvclink_pmu_0
DLINK=nvidia_nvdlink_pmu_0
PEM=mrvl_pcie_rc_pmu_1000000000
CSX="-x page0:0xc20 -x page0:0xc60"

# ev PMU TERMS: bench_event, or a word that fails the run it is given to
ev() {
	bench_event "$@" || echo "bad-event-$1-$2"
}

# bench_require: bench_setup for a test of our callbacks, which cannot go
# on without it. vm-test.sh leaves bench tests out on kernels built
# without the tracer; on the others its absence is a failure, not a skip.
bench_require() {
	bench_setup && return 0
	not_ok "function_graph tracer available" "$(cat /sys/kernel/tracing/available_tracers 2>&1)"
	done_testing
	exit 1
}

# bench_w VALUE FILE: write a tracing control file, say which one failed
bench_w() {
	echo "$1" > $BENCH_T/$2 2>/dev/null && return 0
	echo "# bench: cannot write '$1' to $BENCH_T/$2"
	return 1
}

bench_setup() {
	for BENCH_T in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -e $BENCH_T/trace ] && break
		mount -t tracefs nodev $BENCH_T 2>/dev/null && [ -e $BENCH_T/trace ] && break
	done
	[ -e $BENCH_T/trace ] || { echo "# bench: no tracefs"; return 1; }
	grep -qw function_graph $BENCH_T/available_tracers ||
		{ echo "# bench: the kernel has no function_graph tracer"; return 1; }
	BENCH_CPUMASK=$(cat $BENCH_T/tracing_cpumask)
	bench_w nop current_tracer
	bench_w 0 tracing_on
	: > $BENCH_T/set_graph_function
	if [ $# -eq 0 ]; then
		for c in $BENCH_CALLBACKS; do
			set -- "$@" "$c=uncore_pmu_$c"
		done
	fi
	BENCH_GRAPH=""
	BENCH_FUNCS=""
	for cf in "$@"; do
		f=${cf#*=}
		# names present in this build only (a static callback the
		# compiler folded into another has no frame of its own)
		grep -q "^$f \[" $BENCH_T/available_filter_functions || continue
		echo $f >> $BENCH_T/set_graph_function || return 1
		BENCH_GRAPH="$BENCH_GRAPH ${cf%%=*}"
		BENCH_FUNCS="$BENCH_FUNCS $cf"
	done
	echo "# bench: traced callbacks:$BENCH_GRAPH"
	# Patch only what the parser looks at: our modules and the twins
	# (callbacks, driver code, the simulator's backend) and the allocators
	# and printk. Every other function stays unpatched: switching the
	# tracer on and off patches a few hundred call sites instead of the
	# whole kernel.
	: > $BENCH_T/set_ftrace_filter
	for m in /sys/module/uncore_pmu /sys/module/uncore_cspmu /sys/module/uncore_sim \
		 /sys/module/marvell_* \
		 /sys/module/nvidia_t410_* /sys/module/twin_*; do
		[ -d "$m" ] && echo ":mod:${m##*/}" >> $BENCH_T/set_ftrace_filter 2>/dev/null
	done
	for f in '*kmalloc*' '*kmem_cache_alloc*' '*alloc_pages*' '*vmalloc*' '*vzalloc*' \
		 '*krealloc*' '*kvmalloc*' 'pcpu_alloc*' '*get_free_pages*' 'devm_k*alloc*' \
		 '*printk*' '_dev_*' 'dev_printk*' 'dev_vprintk_emit' '__warn_printk' \
		 'warn_slowpath*'; do
		echo "$f" >> $BENCH_T/set_ftrace_filter 2>/dev/null
	done
	f=${BENCH_FUNCS# }
	f=${f%% *}
	grep -q "^${f#*=} " $BENCH_T/set_ftrace_filter ||
		{ echo "# bench: cannot filter on the callbacks' functions"; return 1; }
	bench_w 16384 buffer_size_kb
	bench_w function_graph current_tracer || return 1
	# the tracer's own options exist while it is the current tracer
	bench_w funcgraph-irqs trace_options
	# the results of every setup of this test, for side-by-side tables
	[ -n "$BENCH_RES_KEPT" ] || : > $BENCH_RES
	BENCH_RES_KEPT=1
}

bench_teardown() {
	[ -n "$BENCH_T" ] || return 0
	bench_w 0 tracing_on
	bench_w nop current_tracer
	: > $BENCH_T/set_graph_function
	: > $BENCH_T/set_ftrace_filter
	bench_w "$BENCH_CPUMASK" tracing_cpumask
	bench_w 1408 buffer_size_kb
	bench_w 1 tracing_on
}

# bench_event PMU TERMS: the attr config words of a perf event string,
# encoded with the PMU's format/ (fields "configN:lo-hi" or "configN:bit",
# comma lists filled from the lowest bits up) and events/ aliases
bench_event() {
	_c0=0 _c1=0 _c2=0
	for _t in $(echo "$2" | tr ',' ' '); do
		case $_t in
		*=*)	_terms=$_t ;;
		*)	_terms=$(tr ',' ' ' < $EV/$1/events/$_t) || return 1 ;;
		esac
		for _kv in $_terms; do
			_k=${_kv%%=*} _v=$((${_kv#*=}))
			_f=$(cat $EV/$1/format/$_k) || return 1
			_w=${_f%%:*}
			for _r in $(echo "${_f#*:}" | tr ',' ' '); do
				_lo=${_r%-*} _hi=${_r#*-}
				_n=$((_hi - _lo + 1))
				if [ $_n -ge 64 ]; then
					_bits=$_v
				else
					_bits=$(((_v & ((1 << _n) - 1)) << _lo))
					_v=$((_v >> _n))
				fi
				case $_w in
				config)	 _c0=$((_c0 | _bits)) ;;
				config1) _c1=$((_c1 | _bits)) ;;
				config2) _c2=$((_c2 | _bits)) ;;
				esac
			done
		done
	done
	printf '0x%x:0x%x:0x%x\n' $_c0 $_c1 $_c2
}

# bench_parse NAME: the trace on stdin, results on stdout
bench_parse() {
	awk -v name="$1" -v funcs="$BENCH_FUNCS" '
	function alloc(f) {
		sub(/_noprof$/, "", f)
		return f ~ /^_*(kmalloc|kzalloc|kcalloc|kmem_cache_alloc|kmalloc_trace)/ ||
		       f ~ /^_*(alloc_pages|vmalloc|vzalloc|krealloc|kvmalloc|kvzalloc)/ ||
		       f ~ /^_*(pcpu_alloc|get_free_pages|devm_kmalloc|devm_kzalloc)/
	}
	function isprint(f) {
		return f ~ /^_*(printk|vprintk|dev_printk|dev_vprintk_emit)/ ||
		       f ~ /^_*(warn_printk|warn_slowpath)/ ||
		       f ~ /^_*_dev_(emerg|alert|crit|err|warn|notice|info)/
	}
	function hit(kind,    i) {
		for (i = 1; i <= d; i++)
			if (cb[i])
				cnt[i, kind]++
		if (kind == "r" || kind == "w")
			tot[phase, kind]++
	}
	# Only the callback perf core called opens a row: one it calls
	# itself (start in add, stop in del) counts in it, inlined or not.
	function open_frame(f) {
		d++
		fn[d] = f
		cb[d] = (f in cbs) && !incb
		if (cb[d])
			incb = 1
		cnt[d, "r"] = cnt[d, "w"] = cnt[d, "a"] = cnt[d, "p"] = 0
	}
	function close_frame(    k, c) {
		if (d < 1)
			return
		if (cb[d]) {
			c = fn[d]
			k = phase SUBSEP c
			if (!(k in calls)) {
				order[++nk] = k
				rmin[k] = wmin[k] = -1
			}
			calls[k]++
			if (rmin[k] < 0 || cnt[d, "r"] < rmin[k]) rmin[k] = cnt[d, "r"]
			if (cnt[d, "r"] > rmax[k]) rmax[k] = cnt[d, "r"]
			if (wmin[k] < 0 || cnt[d, "w"] < wmin[k]) wmin[k] = cnt[d, "w"]
			if (cnt[d, "w"] > wmax[k]) wmax[k] = cnt[d, "w"]
			rsum[k] += cnt[d, "r"]
			wsum[k] += cnt[d, "w"]
			al[k] += cnt[d, "a"]
			pr[k] += cnt[d, "p"]
			incb = 0
		}
		d--
	}
	function leaf(f) {
		if (f == "sim_be_read") hit("r")
		else if (f == "sim_be_write") hit("w")
		else if (alloc(f)) hit("a")
		else if (isprint(f)) hit("p")
	}
	BEGIN {
		# "CB=FUNC ...": the function of each callback
		n = split(funcs, t, " ")
		for (i = 1; i <= n; i++) {
			j = index(t[i], "=")
			cbs[substr(t[i], j + 1)] = substr(t[i], 1, j - 1)
		}
		phase = "before"
		d = 0
	}
	/^#/ { next }
	{
		p = index($0, "|")
		if (!p)
			next
		s = substr($0, p + 1)
		sub(/^[ \t]+/, "", s)
		sub(/[ \t]+$/, "", s)
		if (s == "")
			next
		if (s ~ /^\/\* bench phase=/) {
			phase = s
			sub(/^\/\* bench phase=/, "", phase)
			sub(/[ \t]*\*\/$/, "", phase)
			d = incb = 0
			if (!(phase in seen)) {
				seen[phase] = 1
				phases[++np] = phase
			}
			next
		}
		if (s ~ /^}/) {
			close_frame()
			next
		}
		if (s ~ /^\/\*/)
			next
		f = s
		sub(/[ (].*/, "", f)
		if (s ~ /\{$/) {
			leaf(f)
			open_frame(f)
		} else if (s ~ /\);$/) {
			leaf(f)
			if (f in cbs) {
				open_frame(f)
				close_frame()
			}
		}
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]
			split(k, kp, SUBSEP)
			c = cbs[kp[2]]
			if (c == "enable" || c == "disable")
				c = "pmu_" c
			print name, kp[1], c, calls[k], rmin[k], rmax[k] + 0, \
			      wmin[k], wmax[k] + 0, al[k] + 0, pr[k] + 0, \
			      rsum[k] + 0, wsum[k] + 0
		}
		for (i = 1; i <= np; i++)
			print name, phases[i], "traced", "reads=" (tot[phases[i], "r"] + 0), \
			      "writes=" (tot[phases[i], "w"] + 0)
	}'
}

# bench_run NAME PMU [pmu_bench options] EVENT...: one run of pmu_bench on
# PMU under the tracer; appends to $BENCH_RES and checks that the traced
# MMIO of every phase is all the simulator saw.
bench_run() {
	_bn=$1
	_bp=$2
	shift 2
	_cpu=$(cat $EV/$_bp/cpumask)
	bench_w "$(printf '%x' $((1 << _cpu)))" tracing_cpumask
	: > $BENCH_T/trace
	bench_w 1 tracing_on
	$BENCH_PMU_BENCH -p $_bp -c $_cpu -m $BENCH_T/trace_marker \
		-s $UNCORE_SIM/$_bp/stats -r $UNCORE_SIM/$_bp/regs "$@" > /tmp/bench.out 2>&1
	_st=$?
	bench_w 0 tracing_on
	if [ $_st != 0 ]; then
		not_ok "$_bn: pmu_bench $*" "$(cat /tmp/bench.out)"
		return 1
	fi
	_ovr=$(awk '$1 == "overrun:" { print $2 }' $BENCH_T/per_cpu/cpu$_cpu/stats)
	check_eq "$_bn: trace buffer did not overrun" 0 "$_ovr"
	bench_parse "$_bn" < $BENCH_T/trace >> $BENCH_RES
	awk -v n="$_bn" '$1 == "stats" || $1 == "regs" {
		k = $1; $1 = n " " $2; $2 = k; print }' /tmp/bench.out >> $BENCH_RES
	# every MMIO of each phase was seen inside a callback
	for _ph in $(awk '$1 == "stats" { print $2 }' /tmp/bench.out); do
		_sr=$(bench_get "$_bn" $_ph stats mmio_reads)
		_sw=$(bench_get "$_bn" $_ph stats mmio_writes)
		_tr=$(bench_get "$_bn" $_ph traced reads)
		_tw=$(bench_get "$_bn" $_ph traced writes)
		check_eq "$_bn: $_ph: traced MMIO is all the simulator saw" \
			"reads=$_sr writes=$_sw" "reads=$_tr writes=$_tw"
	done
}

# bench_get NAME PHASE ROW FIELD
bench_get() {
	awk -v n="$1" -v ph="$2" -v row="$3" -v f="$4" '
	BEGIN {
		cols = "calls reads_min reads_max writes_min writes_max allocs prints"
		split(cols " reads writes", c)
		for (i in c)
			col[c[i]] = i + 3
	}
	$1 == n && $2 == ph && $3 == row {
		if ((f in col) && row != "stats" && row != "regs" && row != "traced") {
			v = $(col[f])
		} else {
			for (i = 4; i <= NF; i++)
				if (index($i, f "=") == 1)
					v = substr($i, length(f) + 2)
		}
	}
	END { print (v == "" ? 0 : v) }' $BENCH_RES
}

# bench_table NAME [TITLE]: the rows of NAME as a readable table
bench_table() {
	echo "# ---- ${2:-$1} ----"
	awk -v n="$1" '
	function mm(a, b) { return a == b ? a : a "-" b }
	$1 != n { next }
	!($2 in seen) { seen[$2] = 1; ph[++np] = $2 }
	$3 == "stats" { st[$2] = $0; next }
	$3 == "regs" {
		# the count, and which registers when they are few
		rg[$2] = substr($4, 9)
		if (NF > 4 && NF <= 12) {
			l = $5
			for (i = 6; i <= NF; i++)
				l = l " " $i
			rg[$2] = rg[$2] " (" l ")"
		}
		next
	}
	$3 == "traced" { next }
	{ row[$2] = row[$2] sprintf("#   %-9s %-12s %5d %9s %10s %6d %6d\n", $2, $3, $4,
				    mm($5, $6), mm($7, $8), $9, $10) }
	END {
		printf "#   %-9s %-12s %5s %9s %10s %6s %6s\n", "phase", "callback", "calls",
		       "reads/call", "writes/call", "allocs", "prints"
		for (i = 1; i <= np; i++) {
			p = ph[i]
			printf "%s", row[p]
			if (!(p in st))
				continue
			s = st[p]
			sub(/^[^ ]+ [^ ]+ stats /, "", s)
			printf "#   %-9s   sim: %s, registers changed: %s\n", p, s, rg[p]
		}
	}' $BENCH_RES
	echo "#   (per call; start called by add counts in add, stop called by del in del)"
}

# ---- budget checks ----

# check_le DESC LIMIT VALUE: passes if VALUE <= LIMIT
check_le() {
	if [ "$3" -le "$2" ] 2>/dev/null; then
		ok "$1"
	else
		not_ok "$1" "expected: at most $2" "got:      $3"
	fi
}

# bench_clean NAME: no callback of run NAME allocated or printed
bench_clean() {
	check_eq "$1: no allocation and no print in any callback" "" \
		"$(awk -v n="$1" '$1 == n && $4 ~ /^[0-9]+$/ && ($9 || $10) {
			printf " %s/%s:allocs=%s,prints=%s", $2, $3, $9, $10 }' $BENCH_RES)"
}

# bench_rd NAME PHASE FIELD: FIELD of the read callback in PHASE
bench_rd() {
	bench_get "$1" "$2" read "$3"
}

# bench_has NAME PHASE KEY: the simulator's stats of that phase have KEY
bench_has() {
	awk -v n="$1" -v ph="$2" -v k="$3" '$1 == n && $2 == ph && $3 == "stats" {
		for (i = 4; i <= NF; i++) if (index($i, k "=") == 1) f = 1 }
		END { exit !f }' $BENCH_RES
}

# bench_check_stat DESC NAME PHASE KEY EXPECTED: a key of the simulator's
# stats in that phase
bench_check_stat() {
	check_eq "$1" "$5" "$(bench_get "$2" "$3" stats "$4")"
}

# ---- side by side (the upstream twins: tools/testing/twins) ----

# bench_pair RUN [TITLE]: runs ours-RUN and twin-RUN side by side, per
# phase and callback (calls, reads/call, writes/call), and each phase's
# MMIO as the simulator counted it
bench_pair() {
	echo "# ---- ${2:-$1}: ours | upstream ----"
	awk -v o="ours-$1" -v t="twin-$1" '
	function mm(a, b) { return a == b ? a : a "-" b }
	BEGIN { np = split("open enable read disable reenable read2 close", ph, " ") }
	$1 != o && $1 != t { next }
	{ s = ($1 == o) ? "o" : "t" }
	$3 == "stats" {
		for (i = 4; i <= NF; i++) {
			if ($i ~ /^mmio_reads=/) r[$2, s] = substr($i, 12)
			if ($i ~ /^mmio_writes=/) w[$2, s] = substr($i, 13)
		}
		next
	}
	$3 == "regs" || $3 == "traced" { next }
	{
		k = $2 SUBSEP $3
		if (!(k in cell)) { cb[$2] = cb[$2] " " $3; cell[k] = 1 }
		v[k, s] = sprintf("%d x %s/%s", $4, mm($5, $6), mm($7, $8))
	}
	END {
		printf "#   %-9s %-12s %-18s %-18s\n", "phase", "callback", "ours", "upstream"
		printf "#   %-9s %-12s %-18s %-18s\n", "", "", "calls x r/w", "calls x r/w"
		for (i = 1; i <= np; i++) {
			p = ph[i]
			n = split(cb[p], c, " ")
			for (j = 1; j <= n; j++) {
				k = p SUBSEP c[j]
				printf "#   %-9s %-12s %-18s %-18s\n", p, c[j],
				       ((k, "o") in v) ? v[k, "o"] : "-",
				       ((k, "t") in v) ? v[k, "t"] : "-"
			}
			if ((p, "o") in r || (p, "t") in r)
				printf "#   %-9s %-12s %-18s %-18s\n", p, "(all MMIO)",
				       r[p, "o"] + 0 "/" w[p, "o"] + 0,
				       r[p, "t"] + 0 "/" w[p, "t"] + 0
		}
	}' $BENCH_RES
}

# bench_timing_pair FILE: lines "timing SIDE EVENT ours=NS sw=NS ratio=R"
# as one table: our read() and the upstream one, in ns and per software
# event read
bench_timing_pair() {
	echo "# ---- read() time, median ns (ratio to a software event's read()) ----"
	awk '
	{ s = $2; e = $3
	  t[e, s] = substr($4, 6) " (" substr($6, 7) ")"
	  if (!(e in seen)) { seen[e] = 1; ord[++m] = e } }
	END {
		printf "#   %-34s %-16s %-16s\n", "event", "ours", "upstream"
		for (i = 1; i <= m; i++)
			printf "#   %-34s %-16s %-16s\n", ord[i], t[ord[i], "ours"],
			       t[ord[i], "twin"]
	}' "$1"
}

# check_read NAME READS: each read() of the read phase read READS registers
# and wrote none
check_read() {
	check_eq "$1: read: $2 MMIO reads per call" "$2 $2" \
		"$(bench_rd "$1" read reads_min) $(bench_rd "$1" read reads_max)"
	check_eq "$1: read: no MMIO write" "0 0" \
		"$(bench_rd "$1" read writes_max) $(bench_rd "$1" read2 writes_max)"
}

# check_add NAME: scheduling writes no more than the registers it must
# change: add (with start), and the whole phase (pmu_disable, add,
# pmu_enable: the counter enables wait for pmu_enable, one write per set)
check_add() {
	for ph in enable reenable; do
		check_le "$1: $ph: add+start writes <= registers changed" \
			"$(bench_get "$1" $ph regs changed)" "$(bench_get "$1" $ph add writes)"
		w=$(bench_get "$1" $ph stats mmio_writes)
		check_le "$1: $ph: all writes of the phase <= registers changed" \
			"$(bench_get "$1" $ph regs changed)" "$w"
	done
}
