#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static check "vm-runner": tools/testing/vm/run.sh's own verdicts, against a
# fake qemu-system-x86_64 (first in PATH) that plays a scripted guest: it
# writes given lines to the console (first -serial file) and the results
# port (second -serial file), may go silent, and may exit. Each case checks
# run.sh's exit status and the exact TAP and "# vm:" lines it prints.
#
# Prints one line per failed case and "vm-runner: N cases, N failed"; exits
# non-zero on any failure.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
RUN=$(cd "$HERE/../vm" && pwd)/run.sh
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/bin"
: >"$TMP/bzImage"
: >"$TMP/initrd"

# The fake QEMU: boot number N (counted in $FAKE_DIR/boots) follows the
# script $FAKE_DIR/boot<N> (else $FAKE_DIR/boot), one command per line:
# "console TEXT", "result TEXT", "sleep SEC", "hang", "exit".
cat >"$TMP/bin/qemu-system-x86_64" <<'FAKE'
#!/bin/bash
con='' res=''
while [ $# -gt 0 ]; do
	case $1 in
	-serial)	f=${2#file:}
			if [ -z "$con" ]; then con=$f; else res=$f; fi
			shift 2 ;;
	*)		shift ;;
	esac
done
n=$(($(cat "$FAKE_DIR/boots" 2>/dev/null || echo 0) + 1))
echo $n >"$FAKE_DIR/boots"
script=$FAKE_DIR/boot$n
[ -f "$script" ] || script=$FAKE_DIR/boot
: >"$con"; : >"$res"
while read -r cmd arg; do
	case $cmd in
	console)	echo "$arg" >>"$con" ;;
	result)		echo "$arg" >>"$res" ;;
	sleep)		sleep "$arg" ;;
	hang)		exec sleep 3600 ;;
	exit)		exit 0 ;;
	esac
done <"$script"
FAKE
chmod +x "$TMP/bin/qemu-system-x86_64"

cases=0 bad=0
# stalled BOOT LAST-LINE: run.sh's line for a stalled boot of case $name
stalled()
{
	printf '# vm: boot %s stalled: no console output for 3 s before the' "$1"
	printf " guest's init ran (last line: %s; console in %s.stall%s)\n" \
		"$2" "$TMP/$name/console.log" "$1"
}

# died BOOT REPORT: run.sh's line for a boot of case $name that ended early
died()
{
	printf "# vm: boot %s ended (QEMU status 0) before the guest's init ran" "$1"
	printf ' (%s; console in %s.stall%s)\n' "$2" "$TMP/$name/console.log" "$1"
}

# expect NAME STATUS ARGS...: start run.sh (console log in the case's dir) and
# compare its status and stdout with STATUS and $TMP/NAME/expect
expect()
{
	local name=$1 want=$2 st

	shift 2
	cases=$((cases + 1))
	PATH=$TMP/bin:$PATH FAKE_DIR=$TMP/$name "$RUN" --kernel "$TMP/bzImage" \
		--initrd "$TMP/initrd" --log "$TMP/$name/console.log" "$@" \
		>"$TMP/$name/out" 2>"$TMP/$name/err"
	st=$?
	if [ "$st" != "$want" ] || ! diff -u "$TMP/$name/expect" "$TMP/$name/out" \
		>"$TMP/$name/diff"; then
		bad=$((bad + 1))
		echo "FAIL $name: exit status $st (want $want)"
		cat "$TMP/$name/diff" "$TMP/$name/err" 2>/dev/null
	fi
}

# script NAME [BOOT]: the guest script of NAME's boot BOOT (all boots) from stdin
script()
{
	mkdir -p "$TMP/$1"
	cat >"$TMP/$1/boot${2:-}"
}

ok_boot='console [    0.000000] Linux version 6.1.0
console uncore-vm: 6.1.0, 4 cpus
result @@ start insmod uncore_pmu
result ok 1 - init: insmod uncore_pmu
result @@ uncore-vm done
exit'

# A guest that boots and reports: its results, nothing else.
script plain <<<"$ok_boot"
printf 'ok 1 - init: insmod uncore_pmu\n1 passed, 0 failed\n' >"$TMP/plain/expect"
expect plain 0 --boot-stall 3

# An operator guest passes its test's plan on: a result the port lost
# (one of two) is a failure, not one test fewer; a plan that matches is not.
script lost <<'EOF'
console [    0.000000] Linux version 6.1.0
console uncore-vm: 6.1.0, 4 cpus
result @@ start operator-boot
result ok 2 - operator boot: b
result 1..2
result @@ start operator-late
result ok 1 - operator late: a
result 1..1
result @@ uncore-vm done
exit
EOF
{
	echo 'ok 2 - operator boot: b'
	echo 'ok 1 - operator late: a'
	echo 'not ok - vm: the results port lost results: 1 of a plan of 2'
	echo '2 passed, 1 failed'
} >"$TMP/lost/expect"
expect lost 1 --boot-stall 3

# Silent before init the first time: killed after --boot-stall, booted again.
script stall-once 1 <<'EOF'
console [    0.000000] Linux version 6.1.0
console [    0.100000] IP idents hash table entries: 16384
hang
EOF
script stall-once <<<"$ok_boot"
name=stall-once
{
	stalled 1 '[    0.100000] IP idents hash table entries: 16384'
	echo '# vm: booting the guest again'
	echo 'ok 1 - init: insmod uncore_pmu'
	echo '1 passed, 0 failed'
} >"$TMP/$name/expect"
expect stall-once 0 --boot-stall 3

# Silent before init twice: the run fails, saying so.
script stall-twice <<'EOF'
console [    0.000000] Linux version 6.1.0
hang
EOF
name=stall-twice
{
	stalled 1 '[    0.000000] Linux version 6.1.0'
	echo '# vm: booting the guest again'
	stalled 2 '[    0.000000] Linux version 6.1.0'
	echo "not ok - vm: the kernel failed in early boot twice, before the guest's init"
	echo '0 passed, 1 failed'
} >"$TMP/$name/expect"
expect stall-twice 1 --boot-stall 3

# Dead before init the first time (the x86 7.3 "Oops: int3" under TCG):
# booted again; the first boot's report is kept aside, not counted.
script died-once 1 <<'EOF'
console [    2.572794] Oops: int3: 0000 [#1] SMP PTI
console [    2.600030] Call Trace:
console [    2.956293] Kernel panic - not syncing: Fatal exception in interrupt
exit
EOF
script died-once <<<"$ok_boot"
name=died-once
{
	died 1 '[    2.572794] Oops: int3: 0000 [#1] SMP PTI'
	echo '# vm: booting the guest again'
	echo 'ok 1 - init: insmod uncore_pmu'
	echo '1 passed, 0 failed'
} >"$TMP/$name/expect"
expect died-once 0 --boot-stall 3

# Dead before init twice: the run fails, with the second boot's report.
script died-twice <<'EOF'
console [    2.956293] Kernel panic - not syncing: Fatal exception in interrupt
exit
EOF
name=died-twice
panic='[    2.956293] Kernel panic - not syncing: Fatal exception in interrupt'
{
	died 1 "$panic"
	echo '# vm: booting the guest again'
	died 2 "$panic"
	echo "not ok - vm: the kernel failed in early boot twice, before the guest's init"
	echo "# console: $panic"
	echo "# console: 1 kernel problem report(s); full log: $TMP/$name/console.log"
	echo '0 passed, 2 failed'
} >"$TMP/$name/expect"
expect died-twice 1 --boot-stall 3

# Output that keeps coming, however slowly, is not a stall.
script slow-boot <<EOF
console [    0.000000] Linux version 6.1.0
sleep 2
console [    2.000000] still booting
sleep 2
$ok_boot
EOF
cp "$TMP/plain/expect" "$TMP/slow-boot/expect"
expect slow-boot 0 --boot-stall 3

# Once init has reported, a quiet guest (a long test) is left alone: only
# the wall-clock timeout ends it, and no boot is repeated.
script quiet-test <<'EOF'
console uncore-vm: 6.1.0, 4 cpus
result @@ start insmod uncore_pmu
result ok 1 - init: insmod uncore_pmu
result @@ start 90-all-pmu.sh
hang
EOF
printf '%s\n' 'ok 1 - init: insmod uncore_pmu' \
	'not ok - vm: killed after the 8 s timeout' '1 passed, 1 failed' \
	>"$TMP/quiet-test/expect"
expect quiet-test 1 --boot-stall 3 --timeout 8
[ "$(cat "$TMP/quiet-test/boots")" = 1 ] || {
	bad=$((bad + 1))
	echo "FAIL quiet-test: booted $(cat "$TMP/quiet-test/boots") times (want 1)"
}

# A guest that stops without the end marker.
script no-end <<'EOF'
console uncore-vm: 6.1.0, 4 cpus
result @@ start insmod uncore_pmu
result ok 1 - init: insmod uncore_pmu
result @@ start 30-cmem.sh
exit
EOF
printf '%s\n' 'ok 1 - init: insmod uncore_pmu' \
	'not ok - vm: the guest stopped before reporting completion (during 30-cmem.sh)' \
	'1 passed, 1 failed' >"$TMP/no-end/expect"
expect no-end 1 --boot-stall 3

# A report mid-run: its line and the kernel lines after it (where the
# faulting address and the stack are) go to the output, the guest's own
# lines do not, and the report counts as one failure. An int3 in a module
# is not TCG's text patching: no new boot.
script report <<'EOF'
console uncore-vm: 6.1.0, 4 cpus
result @@ start insmod uncore_pmu
result ok 1 - init: insmod uncore_pmu
console [   12.000000] Oops: int3: 0000 [#1] SMP NOPTI
console [   12.000001] RIP: 0010:some_function+0x1/0x10 [uncore_pmu]
console guest output without a timestamp
console [   12.000002] Call Trace:
console [   12.000003]  <TASK>
result @@ uncore-vm done
exit
EOF
printf '%s\n' 'ok 1 - init: insmod uncore_pmu' \
	'# console: [   12.000000] Oops: int3: 0000 [#1] SMP NOPTI' \
	'# console: [   12.000001] RIP: 0010:some_function+0x1/0x10 [uncore_pmu]' \
	'# console: [   12.000002] Call Trace:' \
	'# console: [   12.000003]  <TASK>' \
	"# console: 1 kernel problem report(s); full log: $TMP/report/console.log" \
	'1 passed, 1 failed' >"$TMP/report/expect"
expect report 1 --boot-stall 3

# int3_boot: a guest that reports, then oopses on an int3 in the core
# kernel (TCG's text patching) and goes on
int3_boot='console uncore-vm: 6.1.0, 4 cpus
result @@ start insmod uncore_pmu
result ok 1 - init: insmod uncore_pmu
sleep 2
console [   12.000000] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI
console [   12.000001] RIP: 0010:__schedule+0x1/0x10
hang'
# int3_line BOOT: run.sh's line for that boot of case $name
int3_line()
{
	printf '# vm: boot %s oopsed on an int3 in the core kernel' "$1"
	printf ' (RIP 0010:__schedule+0x1/0x10; console in %s.stall%s):' \
		"$TMP/$name/console.log" "$1"
	printf " TCG's cross-vCPU text patching, not ours\n"
}

# An int3 in the core kernel after init reported: that boot is ended at
# once and the guest booted again; only the second boot's results count.
script int3-once 1 <<<"$int3_boot"
script int3-once <<<"$ok_boot"
name=int3-once
{
	echo 'ok 1 - init: insmod uncore_pmu'
	int3_line 1
	echo '# vm: booting the guest again; the results above are discarded'
	echo 'ok 1 - init: insmod uncore_pmu'
	echo '1 passed, 0 failed'
} >"$TMP/$name/expect"
expect int3-once 0 --boot-stall 30 --timeout 20

# The same twice: the run fails, with the second boot's report.
script int3-twice <<<"$int3_boot"
name=int3-twice
{
	echo 'ok 1 - init: insmod uncore_pmu'
	int3_line 1
	echo '# vm: booting the guest again; the results above are discarded'
	echo 'ok 1 - init: insmod uncore_pmu'
	int3_line 2
	echo 'not ok - vm: the kernel failed twice, the second time on an int3 in the core kernel'
	echo '# console: [   12.000000] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI'
	echo '# console: [   12.000001] RIP: 0010:__schedule+0x1/0x10'
	echo "# console: 1 kernel problem report(s); full log: $TMP/$name/console.log"
	echo '1 passed, 2 failed'
} >"$TMP/$name/expect"
expect int3-twice 1 --boot-stall 30 --timeout 20

echo "vm-runner: $cases cases, $bad failed"
[ "$bad" -eq 0 ]
