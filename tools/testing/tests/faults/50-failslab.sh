#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Kernels with failslab only (vm-test.sh installs tests/faults/ when the
# kernel has CONFIG_FAILSLAB: both flavours of vm/debug-kernel.sh), after
# every other test but the leak scan and the gcov dump. Our drivers have
# no sysfs bind/unbind (suppress_bind_attrs, as perf drivers do), so a
# probe runs again only in a module load: every module of ours but the
# simulator is loaded again and again with one slab allocation of its
# load failing, the 1st, the 2nd, ... (failslab with /proc/self/fail-nth,
# progs/failnth_insmod.c), until a load runs without reaching the failing
# site. So each error path of the module loader, of our init and of every
# probe it runs is taken once. Each time:
# - a refused load says ENOMEM and leaves no PMU of ours behind;
# - a load that succeeds with a failed allocation (a device whose probe
#   failed, so the driver skips it) leaves whole PMUs only (each with the
#   format/ and events/ entries and cpumask it has after a plain load),
#   and its module unloads again, leaving the PMUs there were before;
# - no WARN, BUG or KASAN report.
# The loader's own sites come first and are the same for every load of a
# module: the initcall_start trace event tells whether a load got as far
# as our init, so a binary search finds the first site of ours, and only
# the sites from there on are failed one by one.
# The console's log level is lowered while the loads run: a failed
# vmalloc in the loader prints a stack dump (warn_alloc) the VM runner
# would count as a kernel problem; this test looks for the real ones in
# the kernel log itself.
# What a failed path leaked is kmemleak's (99-kmemleak.sh, after this, on
# the debug kernel). vm-test.sh installs it in the boot of the faults
# firmware only: one device of each kind, so that each error path of a
# probe runs once, not once per device of the default firmware.

. "$(dirname "$0")/lib/lib.sh"
. /etc/uncore-vm.conf

FS=/sys/kernel/debug/failslab
LIB=/lib/modules-test
TR=/sys/kernel/debug/tracing
BIG=1000000

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
printk=$(cat /proc/sys/kernel/printk)
echo 1 >/proc/sys/kernel/printk

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
	shape | awk '{ $2 = ""; print }' | grep -vxFf /tmp/failslab-ref |
		while read -r p rest; do
			echo "$p $rest (was: $(grep "^$p " /tmp/failslab-ref | cut -d' ' -f2-));"
		done
}

before=$(dmesg | wc -l)
all=$(our_pmus | sort)
shape | awk '{ $2 = ""; print }' >/tmp/failslab-ref

check_eq "every module unloads before the fault loads" "" "$(unload_ours)"

# The initcall_start trace event (in do_one_initcall, which the loader
# calls for the module's init once all its own allocations are made): a
# hit says the load got as far as our init. (A kprobe on the module's own
# init_module crashed 6.1 on the second load of a module.)
echo >$TR/trace
if echo 1 >$TR/events/initcall/initcall_start/enable; then
	ok "the initcall_start trace event is on"
else
	not_ok "the initcall_start trace event is on" "cannot enable it in $TR"
fi

# load M N: load M with its Nth site failing; sets res ("loaded" or
# "refused ERRNO"), left (what fail-nth read after it) and init (1 if
# our init_module ran)
load() {
	echo >$TR/trace
	# shellcheck disable=SC2086 # the parameters, one word each
	out=$("$TESTLIB/failnth_insmod" "$2" $LIB/$1.ko $a 2>&1)
	# shellcheck disable=SC2086 # split the result line
	set -- $out
	case "$1 $2 $3" in
	"loaded left "*) res=loaded left=$3 ;;
	"refused "*" left") res="refused $2" left=$4 ;;
	*) res="error: $out" left= ;;
	esac
	init=0
	grep -q 'initcall_start:' $TR/trace && init=1
}

for m in $MODULES; do
	a=$(cmdline_args "$m")
	if [ "$m" = uncore_sim ]; then
		# shellcheck disable=SC2086 # the parameters, one word each
		check_cmd "insmod $m" insmod $LIB/$m.ko $a
		continue
	fi
	pre=$(our_pmus | sort)
	t0=$(cut -d. -f1 /proc/uptime)
	bad=
	# every site of a whole load
	load "$m" $BIG
	if [ "$res" != loaded ] || [ "$init" != 1 ] || [ -z "$left" ]; then
		not_ok "$m: loads with fail-nth set past its end" "$res, init ran: $init"
		grep -q "^$m " /proc/modules || insmod $LIB/$m.ko $a
		continue
	fi
	total=$((BIG - left))
	rmmod "$m"
	# the loader's sites: the last N whose load never reached our init
	lo=0 hi=$total
	while [ $((hi - lo)) -gt 1 ]; do
		mid=$(((lo + hi) / 2))
		load "$m" $mid
		grep -q "^$m " /proc/modules && rmmod "$m"
		if [ $init = 1 ]; then hi=$mid; else lo=$mid; fi
	done
	# The loader's count varies by a site or two from load to load, so
	# the search may land past our first site: start a few before it
	# (a loader's site failing is one more refused load).
	first=$((hi > 4 ? hi - 3 : 1))
	n=$first refused=0 partial=0
	while :; do
		load "$m" $n
		case $res in
		loaded)
			w=$(whole)
			# shellcheck disable=SC2086
			[ -z "$w" ] || bad="$bad; site $n: loaded with PMUs not whole" \
				"(name, formats, events, cpumask): $w"
			[ "$left" != 0 ] && break
			partial=$((partial + 1))
			rmmod "$m" || { bad="$bad; site $n: rmmod failed"; break; }
			;;
		refused\ *)
			refused=$((refused + 1))
			[ "$res" = "refused ENOMEM" ] ||
				bad="$bad; site $n: $res, not ENOMEM"
			if grep -q "^$m " /proc/modules; then
				bad="$bad; site $n: refused yet loaded"
				break
			fi
			;;
		*)
			bad="$bad; site $n: failnth_insmod: $res"
			break ;;
		esac
		now=$(our_pmus | sort)
		# shellcheck disable=SC2086
		[ "$now" = "$pre" ] ||
			bad="$bad; site $n: PMUs now: $(echo $now), before: $(echo $pre)"
		[ -z "$bad" ] || break
		n=$((n + 1))
		# a load's count varies a little (caches filled once)
		[ $n -le $((total * 2 + 50)) ] ||
			{ bad="$bad; site $n: far past the $total of a whole load"; break; }
	done
	if [ -z "$bad" ]; then
		secs=$(($(cut -d. -f1 /proc/uptime) - t0))
		msg="$m: sites $first to $((n - 1)) of its load failed in turn"
		msg="$msg (our init from about site $hi): $refused refused"
		msg="$msg with ENOMEM, $partial loaded without a device; all unwound ($secs s)"
		ok "$msg"
	else
		not_ok "$m: loads with one slab allocation failing" "${bad#; }"
	fi
	grep -q "^$m " /proc/modules || insmod $LIB/$m.ko $a
done
echo 0 >$TR/events/initcall/initcall_start/enable
echo 0 >/proc/self/fail-nth 2>/dev/null
echo Y >$FS/ignore-gfp-wait
echo "$printk" >/proc/sys/kernel/printk

check_eq "every module is loaded again" "" \
	"$(for m in $MODULES; do grep -q "^$m " /proc/modules || echo "$m"; done)"
check_eq "the same PMUs as before the fault loads" "$all" "$(our_pmus | sort)"
check_eq "after the fault loads: every PMU counts 1234567 exactly" "" "$(count_every_pmu 1234567)"
pat='WARNING:|BUG:|Oops|KASAN|lockdep|possible circular|inconsistent lock|refcount_t'
pat="$pat|list_(add|del) corruption"
# The loader's static-key setup of a module (jump_label_module_notify,
# before its init) WARNs when its allocation fails, and again as the
# failed load is undone: the kernel's, in the binary search's loads.
check_eq "no WARN, BUG or KASAN report in the fault loads" "" \
	"$(dmesg | tail -n +$((before + 1)) | grep -E "$pat" | grep -v 'at kernel/jump_label\.c:')"

done_testing
