#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the x86_64 test VM (q35, TCG, 4 CPUs in two NUMA nodes/sockets), or the
# arm64 one (virt + UEFI), print the TAP lines its tests report on the results
# port, then "N passed, N failed".
#   run.sh [--kernel VMLINUZ] --initrd FILE [--acpitable FILE]... [--append "..."]
#          [--timeout SEC] [--boot-stall SEC] [--log FILE] [--no-summary]
#          [--arch x86_64|arm64] [--tcg-multi] [--disk IMAGE] [--cpu MODEL]
# --cpu: the arm64 guest's CPU model (default cortex-a57, which has no
# 16 KiB translation granule: a 16K-page kernel needs neoverse-n1).
# --tcg-multi: one host thread per vCPU (QEMU's multi-threaded TCG); by
# default all vCPUs share one host thread (--tcg-single, vm/README.md).
# --disk: a raw disk image as the guest's virtio disk (/dev/vda; on arm64
# over MMIO), its writes kept in a throw-away snapshot (the operator
# guests' root).
# With UNCORE_TAP_STATE=FILE the counts are also added to FILE ("passed N",
# "failed N"). Exit status 0 only if nothing failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"
# shellcheck disable=SC2034 # read by die()
DIE_STATUS=2
usage() { sed -n '6,10s/^# \{0,1\}//p' "$0" >&2; exit 2; }

kernel='' initrd='' append='' tmo=900 stall=300 log='' summary=1
accel=(-accel tcg,thread=single)
acpi=() tables=() arch=x86_64 disk=() cpu=cortex-a57
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--acpitable) tables+=("$2"); acpi+=(-acpitable "file=$2"); shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--boot-stall) stall=$2; shift 2 ;;
	--tcg-single) accel=(-accel tcg,thread=single); shift ;;
	--tcg-multi) accel=(-accel tcg,thread=multi); shift ;;
	--log) log=$2; shift 2 ;;
	--no-summary) summary=0; shift ;;
	--arch) arch=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--disk) disk=("$2"); shift 2 ;;
	-h|--help) usage ;;
	*) die "unknown argument $1" ;;
	esac
done
[ -f "$initrd" ] || usage
if [ ${#disk[@]} -gt 0 ]; then
	d="file=${disk[0]},format=raw,snapshot=on,cache=unsafe"
	if [ "$arch" = arm64 ]; then
		disk=(-drive "$d,if=none,id=vda" -device virtio-blk-device,drive=vda)
	else
		disk=(-drive "$d,if=virtio")
	fi
fi
case $arch in
x86_64)	qemu=qemu-system-x86_64 qpkg=qemu-system-x86 ;;
arm64)	qemu=qemu-system-aarch64 qpkg=qemu-system-arm
	efi=/usr/share/AAVMF/AAVMF_CODE.fd efivars=/usr/share/AAVMF/AAVMF_VARS.fd ;;
*)	die "unknown architecture $arch" ;;
esac
[ -n "$kernel" ] || kernel=$("$here/kernel.sh" --arch "$arch") || die "no kernel image"
for f in "$kernel" ${tables[@]+"${tables[@]}"}; do [ -f "$f" ] || die "no such file: $f"; done
command -v $qemu >/dev/null ||
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$qpkg >&2 ||
	die "cannot install $qpkg"
if [ "$arch" = arm64 ] && [ ! -f "$efi" ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		qemu-efi-aarch64 >&2 || die "cannot install qemu-efi-aarch64"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/uncore-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
res=$work/results
[ -n "$log" ] || log=$work/console.log
mkdir -p "$(dirname "$log")"
rm -f "$log.stall1" "$log.stall2"	# boot() empties $res and $log

# hex LE VALUE BYTES: VALUE as BYTES little-endian bytes, in hex
hex_le()
{
	local v=$1 n=$2 out=''

	while [ "$n" -gt 0 ]; do
		out=$out$(printf '%02x' $((v & 0xff)))
		v=$((v >> 8)); n=$((n - 1))
	done
	echo "$out"
}

# srat_arm64 FILE: the arm64 guest's SRAT, as an upgrade of QEMU's (same OEM
# ids, higher OEM revision). QEMU's says the same about the CPUs (ACPI UIDs
# 0-1 node 0, 2-3 node 1) and RAM, but not about the UEFI variable flash at
# 64 MiB, which UEFI reports as write-combining MMIO: 6.1 turns that into a
# memblock without a node and then gives up NUMA altogether. Here it is in
# node 0 (both flash banks, 0-128 MiB).
srat_arm64()
{
	local body='' hdr sum=0 i b

	for i in 0 1 2 3; do	# GICC affinity: type 3, 18 bytes, node, UID, enabled
		body=$body"0312$(hex_le $((i / 2)) 4)$(hex_le $i 4)$(hex_le 1 4)$(hex_le 0 4)"
	done
	for i in 0:0:0x8000000 0:0x40000000:0x20000000 1:0x60000000:0x20000000; do
		IFS=: read -r n b sz <<<"$i"	# memory affinity: type 1, 40 bytes
		body=$body"0128$(hex_le "$n" 4)0000$(hex_le "$b" 8)$(hex_le "$sz" 8)"
		body=$body"$(hex_le 0 4)$(hex_le 1 4)$(hex_le 0 8)"
	done
	body="$(hex_le 1 4)$(hex_le 0 8)$body"	# reserved (1), reserved
	# header: SRAT, length, revision 3, checksum, BOCHS, BXPC, OEM revision 2
	hdr="53524154$(hex_le $((36 + ${#body} / 2)) 4)0300"
	hdr=$hdr"424f43485320""4258504320202020""$(hex_le 2 4)""554e4352""$(hex_le 1 4)"
	for ((i = 0; i < ${#hdr} + ${#body}; i += 2)); do
		b=$hdr$body
		sum=$(((sum + 0x${b:i:2}) & 0xff))
	done
	b=$hdr$body
	b=${b:0:18}$(printf '%02x' $(((256 - sum) & 0xff)))${b:20}
	printf '%b' "$(sed 's/../\\x&/g' <<<"$b")" >"$1"
}

# arm64: ACPI through UEFI; QEMU refuses -acpitable there, so the tables go
# in by the kernel's initrd table upgrade: an uncompressed cpio holding
# kernel/firmware/acpi/*.aml in front of the initrd. The one UART is the
# console; the results port is a virtio console (guest /dev/hvc0).
if [ "$arch" = arm64 ]; then
	mkdir -p "$work/upgrade/kernel/firmware/acpi"
	# short names: 6.1 truncates those longer than 18 characters
	srat_arm64 "$work/upgrade/kernel/firmware/acpi/srat.aml"
	i=0
	for f in ${tables[@]+"${tables[@]}"}; do
		cp "$f" "$work/upgrade/kernel/firmware/acpi/t$i.aml"
		i=$((i + 1))
	done
	(cd "$work/upgrade" && find kernel | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0) >"$work/initrd"
	cat "$initrd" >>"$work/initrd"
	# UEFI in pflash (code read-only, variables as a throw-away snapshot):
	# with -bios, 6.1 sees the second flash bank as memory without a NUMA
	# node and gives up NUMA.
	machine=(-M virt,gic-version=3 -cpu "$cpu"
		 -drive "if=pflash,format=raw,unit=0,readonly=on,file=$efi"
		 -drive "if=pflash,format=raw,unit=1,snapshot=on,file=$efivars"
		 -device virtio-serial-device -chardev "file,id=res,path=$res"
		 -device virtconsole,chardev=res -serial "file:$log"
		 -initrd "$work/initrd" ${disk[@]+"${disk[@]}"})
	cmdline="console=ttyAMA0 panic=-1 oops=panic"
else
	machine=(-M q35 -cpu max,vendor=GenuineIntel
		 -serial "file:$log" -serial "file:$res"
		 -initrd "$initrd" ${acpi[@]+"${acpi[@]}"} ${disk[@]+"${disk[@]}"})
	# mitigations=off: TCG's max CPU says Intel and not immune to
	# Meltdown, so the kernel would isolate page tables, and every
	# guest syscall's CR3 switch then flushes TCG's whole soft TLB: perf
	# stat took 1.1 s with and 0.75 s without. The suite tests our
	# drivers, not the CPU's side channels (the arm64 guest is not
	# affected: its CPU model needs no KPTI).
	# idle=halt: a kernel that idles with MWAIT (Debian's 5.10 does, "using
	# mwait in idle threads") spins: TCG's MWAIT does not sleep when the
	# machine has more than one vCPU, so each idle vCPU took a host CPU
	# (the 5.10 release boot took 19 CPU-minutes of a cold make check,
	# 6.12's 5). HLT sleeps; the newer kernels idle with it already.
	cmdline="console=ttyS0 cpu0_hotplug panic=-1 oops=panic mitigations=off idle=halt"
	# maxcpus=1: the initramfs guest boots on CPU 0 alone and its init
	# brings the others online first thing. At late_initcall the kernel
	# flips the sched_clock static keys; a vCPU woken from HLT then ran
	# sched_clock_cpu()'s stale int3 under multi-threaded TCG (the
	# "Oops: int3" below), in two boots in a row of one make check. With
	# one CPU up there is no other vCPU to run it. (The disk guest is
	# Debian's systemd boot, left as an operator's machine boots.)
	[ ${#disk[@]} -gt 0 ] || cmdline="$cmdline maxcpus=1"
fi

# boot: start QEMU in the background (pid in qpid).
boot()
{
	: >"$res"; : >"$log"
	timeout -k 5 "$tmo" $qemu ${accel[@]+"${accel[@]}"} "${machine[@]}" -m 1G -nic none \
		-smp 4,sockets=2,cores=2,threads=1 \
		-object memory-backend-ram,id=m0,size=512M \
		-object memory-backend-ram,id=m1,size=512M \
		-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 \
		-display none -monitor none -no-reboot \
		-kernel "$kernel" -append "$cmdline $append" </dev/null &
	qpid=$!
}

# Stream complete TAP lines while the guest runs.
shown=0
show() {
	local n
	n=$(tr -d '\r' <"$res" | grep -c '')
	[ "$n" -gt "$shown" ] || return 0
	tr -d '\r' <"$res" | sed -n "$((shown + 1)),${n}p" | grep -E '^((not )?ok([ 	]|$)|#)'
	shown=$n
}

# TCG guests very rarely hang in the kernel's own early boot (seen: 6.1 after
# "IP idents hash table entries", a debug kernel in its RCU-tasks self-test),
# or die there (seen: Debian's x86 7.3 under QEMU 7.2's multi-threaded TCG,
# an "Oops: int3" in sched_clock_cpu() when the boot flips the
# sched_clock_stable static key: a vCPU still runs the breakpoint byte
# after the patching CPU has removed it), before the initramfs runs and so
# before any module or test. If the console stays silent for --boot-stall
# seconds, or QEMU ends, before the guest's init has written a result, that
# boot is counted as failed early and started once more: no module of ours
# is loaded and no test has run yet, so nothing is repeated or lost.
# The same int3 can strike later, or leave the boot going (seen: Debian's
# 6.12 in __schedule() while perf flipped the scheduler's perf static key
# during 90-all-pmu.sh; the 7.3 boot going on after the oops in
# sched_clock_cpu()): once init has reported, an "Oops: int3" whose RIP is
# in the core kernel (not in a module: ours would be named there) ends that
# boot at once and starts the guest again, its results discarded, since a
# kernel that oopsed cannot vouch for them. A second failed boot of either
# kind fails the run.
start=$(date +%s)
stalls=0 qst=0 int3=0
qpid=
trap 'kill $qpid 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# early WHY: the boot failed before init; keep its console, maybe boot again
early()
{
	local last

	stalls=$((stalls + 1)) int3=0
	# what went wrong if the kernel said so, else its last words
	last=$(tr -d '\r' <"$log" | grep -m 1 -E 'Oops|BUG:|Kernel panic') ||
		last="last line: $(tr -d '\r' <"$log" | grep -v '^[[:space:]]*$' | tail -n 1)"
	cp "$log" "$log.stall$stalls"
	echo "# vm: boot $stalls $1 before the guest's init ran (${last:-none};" \
	     "console in $log.stall$stalls)"
	[ "$stalls" -lt 2 ] || return 1
	echo "# vm: booting the guest again"
	again
}
# again: a new boot; what the last one showed is not counted
again()
{
	boot
	size=0 quiet=$(date +%s) shown=0
}
# int3_core: the console has an "Oops: int3" whose RIP is in the core
# kernel (the TCG text-patching oops above); its RIP line on stdout
int3_core()
{
	local rip

	rip=$(tr -d '\r' <"$log" | grep -A 8 'Oops: int3' | grep -m 1 'RIP:') || return 1
	grep -qE '\[[A-Za-z0-9_]+\][[:space:]]*$' <<<"$rip" && return 1
	echo "$rip"
}
# int3_again: after int3_core, the boot is ended and, the first time,
# started again; fails the second time
int3_again()
{
	local rip

	rip=$(int3_core | sed 's/^.*RIP: *//')
	kill $qpid 2>/dev/null
	wait $qpid 2>/dev/null
	stalls=$((stalls + 1)) int3=1
	cp "$log" "$log.stall$stalls"
	echo "# vm: boot $stalls oopsed on an int3 in the core kernel (RIP $rip;" \
	     "console in $log.stall$stalls): TCG's cross-vCPU text patching, not ours"
	[ "$stalls" -lt 2 ] || return 1
	echo "# vm: booting the guest again; the results above are discarded"
	again
}
boot
size=0 quiet=$(date +%s)
while :; do
	while kill -0 $qpid 2>/dev/null; do
		show
		sleep 1
		if [ -s "$res" ]; then
			if int3_core >/dev/null; then
				int3_again || break 2
			fi
			continue
		fi
		n=$(stat -c %s "$log")
		if [ "$n" != "$size" ]; then
			size=$n quiet=$(date +%s)
			continue
		fi
		[ $(($(date +%s) - quiet)) -ge "$stall" ] || continue
		kill $qpid 2>/dev/null
		wait $qpid 2>/dev/null
		early "stalled: no console output for ${stall} s" || break 2
	done
	wait $qpid 2>/dev/null
	qst=$?
	if [ -s "$res" ] && int3_core >/dev/null; then
		int3_again || break
		continue
	fi
	[ -s "$res" ] && break
	early "ended (QEMU status $qst)" || break
done
show
secs=$(($(date +%s) - start))

results=$(tr -d '\r' <"$res")
passed=$(grep -cE '^ok([ 	]|$)' <<<"$results")
failed=$(grep -cE '^not ok([ 	]|$)' <<<"$results")
# A plan on the port ("1..N": the operator guests pass their test's on)
# must match the results since the last "@@ start" or plan: a result lost
# on the way is a failure, not one test fewer.
while read -r want got; do
	echo "not ok - vm: the results port lost results: $got of a plan of $want"
	failed=$((failed + 1))
done < <(awk '/^@@ start / { n = 0; next }
	/^(not )?ok([ \t]|$)/ { n++; next }
	/^1\.\.[0-9]+$/ { if (substr($0, 4) + 0 != n) print substr($0, 4) + 0, n; n = 0 }' \
	<<<"$results")

if [ "$stalls" -ge 2 ] && [ "$int3" = 1 ]; then
	echo "not ok - vm: the kernel failed twice, the second time on an int3 in the core kernel"
	failed=$((failed + 1))
elif [ "$stalls" -ge 2 ]; then
	echo "not ok - vm: the kernel failed in early boot twice, before the guest's init"
	failed=$((failed + 1))
elif [ "$qst" -eq 124 ] || [ "$qst" -eq 137 ]; then
	echo "not ok - vm: killed after the ${tmo} s timeout"
	failed=$((failed + 1))
elif ! grep -qx '@@ uncore-vm done' <<<"$results"; then
	last=$(sed -n 's/^@@ start //p' <<<"$results" | tail -n 1)
	echo "not ok - vm: the guest stopped before reporting completion${last:+ (during $last)}"
	failed=$((failed + 1))
fi

# Kernel problems on the console (kernel lines only, they carry a timestamp):
# print each offending line and the 24 kernel lines after it (where the
# faulting address and the stack are, for a CI log that has no console);
# count one failure per report, a report ending at "---[ end" or 100 lines
# after it began; a panic after a report is not another.
problems=$(tr -d '\r' <"$log" | awk '
	!/\[ *[0-9]+\.[0-9]+\]/ { next }
	/---\[ end/ { open = 0 }
	/Oops|WARNING:|BUG:|KASAN|possible circular locking|INFO: lockdep|Call Trace/ ||
	/Kernel panic|inconsistent lock state|called from invalid context|ODEBUG:/ ||
	/kmemleak: .*(suspected memory leak|detector disabled|Cannot|Failed|pool empty)/ {
		print "# console: " $0
		ctx = 24
		if (/Kernel panic/ && n) next
		if (!open || NR - open > 100) { n++; open = NR }
		next
	}
	ctx > 0 { print "# console: " $0; ctx-- }
	END { print n + 0 }')
nprob=$(tail -n 1 <<<"$problems")
if [ "$nprob" -gt 0 ]; then
	sed '$d' <<<"$problems"
	echo "# console: $nprob kernel problem report(s); full log: $log"
	failed=$((failed + nprob))
fi
echo "# vm: qemu ran ${secs} s" >&2
# each test's time in the guest, longest first, for whoever trims a boot
times=$(tr -d '\r' <"$log" 2>/dev/null |
	sed -n 's|.*uncore-vm: [^ ]*/\([^ /]*\) exited with .* after \([0-9]*\) s.*|\2 \1|p' |
	sort -rn |
	awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 } END { if (NR) print "" }')
[ -z "$times" ] || echo "# vm: test times (s): $times" >&2

[ -z "${UNCORE_TAP_STATE:-}" ] || state_add "$UNCORE_TAP_STATE" "$passed" "$failed"
[ "$summary" = 0 ] || echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
