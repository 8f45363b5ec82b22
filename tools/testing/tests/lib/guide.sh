# SPDX-License-Identifier: GPL-2.0
#
# The examples of an admin guide, run as written (sourced after lib.sh).
#
# guide_examples FILE prints every "perf stat" command of FILE's literal
# blocks, those shown with a "# " prompt included, a command continued
# with "\" joined. guide_run CMD runs one: its workload ("sleep N") is
# replaced by a script that injects traffic, and a command without one
# (perf stat -I, which counts until Ctrl-C) runs until two intervals have
# passed after the injection, then gets SIGINT. Every event string of
# the command gets a value of its own, above 2^32, injected as traffic
# its terms select (guide_traffic); what perf prints for each string
# must be the sum of the values injected for its event on its PMU (one
# event named twice counts both), over every interval with -I.
#
# GUIDE_RENAME="FROM:TO ...": PMU names the guide shows that the
# simulated machine has under another name (a real PEM's base), replaced
# in the command before it runs; the only change made to a command.
#
# GUIDE_HOOK=FUNC: called as "FUNC before CMD" and "FUNC after CMD"
# around each example (to pause what the guide says to pause for it).

G=/tmp/guide
GUIDE_RENAME=${GUIDE_RENAME:-}
GUIDE_HOOK=${GUIDE_HOOK:-}

guide_examples() {
	awk '/^ +(# )?perf stat / {
		cmd = $0
		while (cmd ~ /\\$/ && (getline l) > 0) {
			sub(/\\$/, "", cmd)
			cmd = cmd l
		}
		sub(/^ +(# )?/, "", cmd)
		gsub(/  +/, " ", cmd)
		print cmd
	}' "$1"
}

# guide_name PMU TERM: the events/ name of TERM (a name, or event=0x..
# of an alias), else TERM itself (an id without an alias)
guide_name() {
	case $2 in
	event=*)
		for _f in "$EV/$1/events/"*; do
			[ "$(cat "$_f")" = "$2" ] && { basename "$_f"; return; }
		done
		echo "$2"
		;;
	*)	echo "$2" ;;
	esac
}

# guide_bit MASK: the number of MASK's lowest set bit
guide_bit() {
	_m=$(($1)) _b=0
	while [ $((_m & 1)) = 0 ] && [ $_b -lt 64 ]; do
		_m=$((_m >> 1)) _b=$((_b + 1))
	done
	echo $_b
}

# guide_traffic PMU EVENT FILTERS VALUE: the inject lines of traffic that
# EVENT with FILTERS (the string's other terms, comma-separated) counts
# on PMU, adding up to VALUE but on the LLC-TAD (VALUE + b in each TAD
# block b); "?TERM" where a filter has no rule here
guide_traffic() {
	_ev=$2
	case $_ev in
	event=*)	;;
	*)		_ev="event=$_ev" ;;
	esac
	if [ "$1" = tad ]; then
		for _b in 0 1 2 3; do
			echo "$_ev value=$(($4 + _b)) tad=$_b"
		done
		return
	fi
	_a=
	for _t in $(echo "$3" | tr ',' ' '); do
		_k=${_t%%=*} _v=${_t#*=}
		case $1:$_k in
		nvidia_ucf_pmu_*:src_loc_cpu)	_a="$_a src=loc_cpu" ;;
		nvidia_ucf_pmu_*:src_loc_noncpu) _a="$_a src=loc_noncpu" ;;
		nvidia_ucf_pmu_*:src_rem)	_a="$_a src=rem" ;;
		nvidia_ucf_pmu_*:dst_loc_cmem | nvidia_pcie_pmu_*:dst_loc_cmem)
						_a="$_a dst=loc_cmem" ;;
		nvidia_ucf_pmu_*:dst_loc_gmem | nvidia_pcie_pmu_*:dst_loc_gmem)
						_a="$_a dst=loc_gmem" ;;
		nvidia_ucf_pmu_*:dst_loc_other)	_a="$_a dst=loc_other" ;;
		nvidia_ucf_pmu_*:dst_rem | nvidia_pcie_pmu_*:dst_rem)
						_a="$_a dst=rem" ;;
		nvidia_pcie_pmu_*:dst_loc_pcie_p2p) _a="$_a dst=loc_pcie_p2p" ;;
		nvidia_pcie_pmu_*:dst_loc_pcie_cxl) _a="$_a dst=loc_pcie_cxl" ;;
		nvidia_pcie_pmu_*:src_rp_mask | nvidia_pcie_tgt_pmu_*:dst_rp_mask)
						_a="$_a rp=$(guide_bit "$_v")" ;;
		nvidia_pcie_pmu_*:src_bdf)	_a="$_a bdf=$_v" ;;
		nvidia_pcie_tgt_pmu_*:dst_addr_base) _a="$_a addr=$_v" ;;
		# the enables go with the values above; the mask leaves the
		# base's own address in
		nvidia_pcie_pmu_*:src_bdf_en | nvidia_pcie_tgt_pmu_*:dst_addr_en) ;;
		nvidia_pcie_tgt_pmu_*:dst_addr_mask) ;;
		# instances 0-6 are GPU 0's, 7-13 GPU 1's
		nvidia_nvlink_c2c_pmu_*:gpu_mask)
			_a="$_a instance=$((7 * $(guide_bit "$_v")))" ;;
		*)	echo "?$_t"; return ;;
		esac
	done
	echo "$_ev value=$4$_a"
}

# guide_counts INTERVAL: what perf printed (stdin) for each event string,
# in order, a count each; with INTERVAL=1 (-I) the sum over intervals of
# the rows at each position
guide_counts() {
	awk -v iv="$1" '{
		for (i = 2; i <= NF; i++)
			if ($i ~ /\/$/) {
				c = $(i - 1)
				gsub(/,/, "", c)
				if (iv) {
					if ($1 != ts) { ts = $1; k = 0 }
				} else
					ts = ""
				k++
				if (c ~ /^[0-9]+$/) s[k] += c; else s[k] = c
				if (k > n) n = k
				break
			}
	} END { for (k = 1; k <= n; k++) printf "%.0f ", s[k] }' | sed 's/ $//'
}

# guide_run CMD: prints "ok" or what differs
guide_run() {
	_cmd=$1
	for _r in $GUIDE_RENAME; do
		_cmd=$(echo "$_cmd" | sed "s/${_r%%:*}/${_r#*:}/g")
	done
	rm -rf $G
	mkdir -p $G/inj
	: > $G/sums
	: > $G/order
	_i=0 _gp=0 _lf=
	# each event string with the number of its {group}, 0 outside one
	echo "$_cmd" | awk '{
		s = $0
		while (match(s, /[{}]|[a-z][a-z0-9_]*\/[^\/ ]+\//)) {
			t = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			if (t == "{") { g = ++n; continue }
			if (t == "}") { g = 0; continue }
			print t, g + 0
		}
	}' > $G/strings
	while read -r _s _g; do
		_i=$((_i + 1))
		_p=${_s%%/*}
		_t=${_s#*/}
		_t=${_t%/}
		_n=$(guide_name "$_p" "${_t%%,*}")
		_f=
		case $_t in
		*,*)	_f=${_t#*,} ;;
		esac
		# A PCIE group member without a requester filter of its own
		# takes its leader's when that one filters by BDF
		# (Documentation/hw/nvidia-t410-cspmu.md, PMEVFILTR): its traffic is the
		# leader's requester's.
		_tf=$_f
		if [ "$_g" != 0 ] && [ "$_g" = "$_gp" ]; then
			case $_p in
			nvidia_pcie_pmu_*)
				_own=$(echo ",$_f" | grep -c ',src_')
				_bdf=$(echo ",$_lf" | grep -cE ',src_bdf_en=(0x)?1(,|$)')
				[ "$_own" != 0 ] || [ "$_bdf" = 0 ] ||
					_tf=$(echo "$_lf" | awk -F, '{
						for (i = 1; i <= NF; i++)
							if ($i ~ /^src_/) o = o (o ? "," : "") $i
						print o }')${_f:+,$_f} ;;
			esac
		elif [ "$_g" != 0 ]; then
			_lf=$_f
		fi
		_gp=$_g
		[ -d "$EV/$_p" ] || { echo "$_s: no such PMU"; return; }
		case $_n in
		event=*) ;;
		*)	[ -f "$EV/$_p/events/$_n" ] || { echo "$_s: no such event"; return; } ;;
		esac
		# one key per event of a PMU: its strings must not filter apart
		if grep -q "^$_p/$_n " $G/order && ! grep -qxF "$_p/$_n $_f" $G/order; then
			echo "$_s: $_p/$_n twice with other filters" \
			     "(not modelled here)"
			return
		fi
		_v=$((_i * 4294967296 + 1000 * _i))
		guide_traffic "$_p" "$_n" "$_tf" "$_v" > $G/lines
		if grep -q '^?' $G/lines; then
			echo "$_s: no traffic rule for $(sed 's/^?//' $G/lines)"
			return
		fi
		cat $G/lines >> "$G/inj/$_p"
		awk -v k="$_p/$_n" '{ sub(/.*value=/, ""); sub(/ .*/, ""); print k, $0 }' \
			$G/lines >> $G/sums
		echo "$_p/$_n $_f" >> $G/order
	done < $G/strings
	[ -s $G/strings ] || { echo "no event string"; return; }
	{
		# perf 5.10 enables system-wide counters after it has started
		# the command (lib.sh): an operator's "sleep 1" outlasts that
		[ "$PERF_VERSION" != 5.10 ] || echo "sleep 0.3"
		echo "for f in $G/inj/*; do"
		echo "	cat \"\$f\" > $UNCORE_SIM/\${f##*/}/inject"
		echo "done"
		echo ": > $G/injected"
	} > $G/load.sh
	_want=$(awk 'NR == FNR { s[$1] += $2; next } { printf "%.0f ", s[$1] }' \
		$G/sums $G/order | sed 's/ $//')
	case $_cmd in
	*" sleep "[0-9]*)
		_got=$(sh -c "${_cmd% sleep *} sh $G/load.sh" 2>&1 >/dev/null </dev/null |
			guide_counts 0)
		;;
	*" -I "*)
		# made here, not only by the redirection below, which happens
		# in the child: a guide_rows before it found no file, "[ '' -lt
		# 2 ]" failed, the wait ended at once and the traffic went in
		# before perf counted (0 0, seen once in the arm64 boot)
		: > $G/out
		sh -c "exec $_cmd" > $G/out 2>&1 </dev/null &
		_pid=$!
		# counting once the first interval is out (perf's start under
		# TCG can take seconds); then two more
		if ! guide_rows "$_i" 600; then
			kill -INT $_pid
			wait $_pid
			echo "no interval of perf within 60 s: $(head -n 3 $G/out)"
			return
		fi
		sh $G/load.sh
		guide_rows $(($(guide_rows) + 2 * _i)) 300 ||
			echo "(fewer than two intervals after the traffic within 30 s)" > $G/late
		kill -INT $_pid
		wait $_pid
		_got=$(guide_counts 1 < $G/out)
		[ ! -f $G/late ] || _got="$_got $(cat $G/late)"
		;;
	*)	echo "neither a 'sleep N' workload nor -I"; return ;;
	esac
	[ -f $G/injected ] || { echo "the traffic was not injected"; return; }
	if [ "$_got" = "$_want" ]; then
		echo ok
	elif [ -f $G/out ]; then
		echo "expected '$_want', got '$_got' from: $(tr '\n' '|' < $G/out | tr -s ' ')"
	else
		echo "expected '$_want', got '$_got'"
	fi
}

# guide_rows [N TENTHS]: without arguments, the number of interval rows
# of an event in $G/out (a timestamp first, the event string last); else
# wait until there are N, at most TENTHS tenths of a second
guide_rows() {
	if [ $# = 0 ]; then
		[ -f $G/out ] || { echo 0; return; }
		grep -cE '^ *[0-9]+\.[0-9]+ .*/[[:space:]]*$' $G/out
		return
	fi
	_w=0
	while [ "$(guide_rows)" -lt "$1" ]; do
		[ $_w -lt "$2" ] || return 1
		sleep 0.1
		_w=$((_w + 1))
	done
}

# guide_check FILE N: FILE (a guide in lib/) has N examples, each counts
guide_check() {
	guide_examples "$TESTLIB/$1" > $G.examples
	check_eq "${1%.rst}: $2 examples" "$2" "$(wc -l < $G.examples)"
	while read -r _c; do
		[ -z "$GUIDE_HOOK" ] || $GUIDE_HOOK before "$_c"
		check_eq "${1%.rst}: $_c" ok "$(guide_run "$_c" </dev/null)"
		[ -z "$GUIDE_HOOK" ] || $GUIDE_HOOK after "$_c"
	done < $G.examples
}
