#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Debug kernel only (tests/debug/, before the kmemleak scan): every module
# of ours but the simulator is loaded again and again with one slab
# allocation of its load failing, the 1st, the 2nd, ... (failslab with
# /proc/self/fail-nth, progs/failnth_insmod.c), until a load runs without
# reaching the failing site. So each error path of the module loader, of
# our init and of every probe it runs is taken once. Each time:
# - a refused load says ENOMEM and leaves no PMU of ours behind;
# - a load that succeeds with a failed allocation (a device whose probe
#   failed, so the driver skips it) leaves whole PMUs only (each with the
#   format/ and events/ entries and cpumask it has after a plain load),
#   and its module unloads again, leaving the PMUs there were before;
# - no WARN, BUG or KASAN report.
# What a failed path leaked is kmemleak's (99-kmemleak.sh, after this).
# Runs in the default firmware's boot only: the other firmware boots have
# fewer devices of the same drivers.

. "$(dirname "$0")/lib/lib.sh"
. /etc/uncore-vm.conf

FS=/sys/kernel/debug/failslab
LIB=/lib/modules-test
MAX=3000

grep -q 'uncore_sim.topology=default\( \|$\)' /proc/cmdline || {
	echo "# not the default firmware: the failslab loads run in the default boot"
	exit 0
}
if [ ! -d $FS ] || [ ! -w /proc/self/fail-nth ]; then
	not_ok "failslab and /proc/self/fail-nth are available" "kernel without CONFIG_FAILSLAB"
	done_testing
	exit
fi
ok "failslab and /proc/self/fail-nth are available"
# fail-nth works at probability 0; allocations that may sleep count too
# (failslab leaves them out by default), and no stack dump per failure.
echo 0 >$FS/verbose
echo N >$FS/ignore-gfp-wait

# args M: M's parameters from the kernel command line, as the init passes them
args() {
	for w in $(cat /proc/cmdline); do
		case $w in "$1".*=*) printf '%s ' "${w#"$1".}" ;; esac
	done
}

# shape: per PMU of ours its name, type, format and event counts, cpumask
shape() {
	for p in $(our_pmus); do
		echo "$p $(cat $EV/$p/type 2>&1) $(ls $EV/$p/format 2>&1 | wc -l)" \
		     "$(ls $EV/$p/events 2>&1 | wc -l) $(cat $EV/$p/cpumask 2>&1)"
	done | sort
}

# whole: the PMUs that are not as they were with every module loaded
# (the type of a PMU registered again differs: compared without it)
whole() {
	shape | awk '{ $2 = ""; print }' | grep -vxFf /tmp/failslab-ref | awk '{ print $1 }'
}

before=$(dmesg | wc -l)
all=$(our_pmus | sort)
shape | awk '{ $2 = ""; print }' >/tmp/failslab-ref

rev=
for m in $MODULES; do
	rev="$m $rev"
done
for m in $rev; do
	grep -q "^$m " /proc/modules && rmmod "$m"
done
check_eq "every module unloads before the fault loads" "" \
	"$(for m in $MODULES; do grep "^$m " /proc/modules; done)"

for m in $MODULES; do
	a=$(args "$m")
	if [ "$m" = uncore_sim ]; then
		# shellcheck disable=SC2086 # the parameters, one word each
		check_cmd "insmod $m" insmod $LIB/$m.ko $a
		continue
	fi
	pre=$(our_pmus | sort)
	n=1 refused=0 partial=0 bad=
	while [ $n -le $MAX ]; do
		# shellcheck disable=SC2086
		out=$("$TESTLIB/failnth_insmod" $n $LIB/$m.ko $a 2>&1)
		set -- $out
		case "$1 $2" in
		"loaded left")
			left=$3
			w=$(whole)
			[ -z "$w" ] || bad="$bad; site $n: loaded with PMUs not whole: $(echo $w)"
			[ "$left" != 0 ] && break
			partial=$((partial + 1))
			rmmod "$m" || { bad="$bad; site $n: rmmod failed"; break; }
			;;
		refused\ *)
			refused=$((refused + 1))
			[ "$2" = ENOMEM ] || bad="$bad; site $n: refused with $2, not ENOMEM"
			if grep -q "^$m " /proc/modules; then
				bad="$bad; site $n: refused yet loaded"
				break
			fi
			;;
		*)
			bad="$bad; site $n: failnth_insmod: $(echo $out)"
			break ;;
		esac
		now=$(our_pmus | sort)
		[ "$now" = "$pre" ] ||
			bad="$bad; site $n: PMUs now: $(echo $now), before: $(echo $pre)"
		n=$((n + 1))
	done
	if [ $n -gt $MAX ]; then
		bad="$bad; the load still reached site $MAX"
	fi
	if [ -z "$bad" ]; then
		ok "$m: loaded with each of its $((n - 1)) slab allocations failing in turn," \
		   "$refused refused with ENOMEM, $partial loaded without a device; all unwound"
	else
		not_ok "$m: loads with one slab allocation failing" "${bad#; }"
	fi
	grep -q "^$m " /proc/modules || insmod $LIB/$m.ko $a
done
echo 0 >/proc/self/fail-nth 2>/dev/null
echo Y >$FS/ignore-gfp-wait

check_eq "every module is loaded again" "" \
	"$(for m in $MODULES; do grep -q "^$m " /proc/modules || echo "$m"; done)"
check_eq "the same PMUs as before the fault loads" "$all" "$(our_pmus | sort)"
check_eq "after the fault loads: every PMU counts 1234567 exactly" "" "$(count_every_pmu 1234567)"
pat='WARNING:|BUG:|Oops|KASAN|lockdep|possible circular|inconsistent lock|refcount_t'
pat="$pat|list_(add|del) corruption"
check_eq "no WARN, BUG or KASAN report in the fault loads" "" \
	"$(dmesg | tail -n +$((before + 1)) | grep -E "$pat")"

done_testing
