#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the Odyssey DDR and LLC-TAD guides' examples, verbatim, with each release's perf
#
# The examples of the Odyssey admin guides
# (Documentation/admin-guide/perf/mrvl-odyssey-ddr-pmu.rst and
# mrvl-odyssey-tad-pmu.rst), run as written: every "perf stat" command of
# their literal blocks, options and event strings verbatim, with its
# workload, "sleep 1", replaced by a script that injects traffic. Each
# event string of a command gets its own value, into its DDR controller,
# or into each of the four TAD blocks; what perf prints for it must be
# the sum of the values injected for its event on its PMU (one event
# named twice counts both).

. "$(dirname "$0")/lib/lib.sh"

G=/tmp/guide
WORKLOAD="sleep 1"

# examples FILE: the perf stat commands of FILE's literal blocks, one a
# line, a command continued with "\" joined
examples() {
	awk '/^ +perf stat / {
		cmd = $0
		while (cmd ~ /\\$/ && (getline l) > 0) {
			sub(/\\$/, "", cmd)
			cmd = cmd l
		}
		sub(/^ +/, "", cmd)
		gsub(/  +/, " ", cmd)
		print cmd
	}' "$1"
}

# name_of PMU TERM: the events/ name of TERM (a name, or event=0x..)
name_of() {
	case $2 in
	event=*)
		for _f in "$EV/$1/events/"*; do
			[ "$(cat "$_f")" = "$2" ] && basename "$_f"
		done
		;;
	*)	echo "$2" ;;
	esac
}

# run_example CMD: run CMD, its workload replaced by the injection; prints
# "ok" or what differs
run_example() {
	case $1 in
	*" $WORKLOAD") ;;
	*)	echo "does not end with '$WORKLOAD'"; return ;;
	esac
	rm -rf $G
	mkdir -p $G/inj
	: > $G/sums
	: > $G/order
	_i=0
	for _ev in $(echo "$1" | grep -oE '[a-z][a-z0-9_]*/[^/ ]+/'); do
		_i=$((_i + 1))
		_p=${_ev%%/*}
		_t=${_ev#*/}
		_n=$(name_of "$_p" "${_t%/}")
		[ -n "$_n" ] && [ -d "$EV/$_p" ] || { echo "$_ev: no such PMU or event"; return; }
		# above 2^32, different for every event string
		_v=$((_i * 4294967296 + 1000 * _i))
		if [ "$_p" = tad ]; then
			for _b in 0 1 2 3; do
				echo "event=$_n value=$((_v + _b)) tad=$_b" >> $G/inj/$_p
				echo "$_p/$_n $((_v + _b))" >> $G/sums
			done
		else
			echo "event=$_n value=$_v" >> $G/inj/$_p
			echo "$_p/$_n $_v" >> $G/sums
		fi
		echo "$_p/$_n" >> $G/order
	done
	[ $_i -gt 0 ] || { echo "no event string"; return; }
	{
		echo "for f in $G/inj/*; do"
		echo "	cat \"\$f\" > $UNCORE_SIM/\${f##*/}/inject"
		echo "done"
	} > $G/load.sh
	_want=$(awk 'NR == FNR { s[$1] += $2; next } { printf "%.0f ", s[$1] }' $G/sums $G/order)
	_got=$(sh -c "${1%" $WORKLOAD"} sh $G/load.sh" 2>&1 >/dev/null </dev/null |
		awk '{
			for (i = 2; i <= NF; i++)
				if ($i ~ /\/$/) {
					gsub(/,/, "", $1)
					printf "%s ", $1
				}
		}')
	if [ "$_got" = "$_want" ]; then
		echo ok
	else
		echo "expected '$_want', got '$_got'"
	fi
}

for doc in mrvl-odyssey-ddr-pmu:5 mrvl-odyssey-tad-pmu:3; do
	f=$TESTLIB/${doc%:*}.rst
	examples "$f" > /tmp/guide_examples
	check_eq "${doc%:*}: ${doc#*:} examples" "${doc#*:}" "$(wc -l < /tmp/guide_examples)"
	while read -r cmd; do
		check_eq "${doc%:*}: $cmd" ok "$(run_example "$cmd")"
	done < /tmp/guide_examples
done

done_testing
