#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware pages, on Debian's arm64 kernel with 16 KiB pages (and on
# vm/kernel-64k.sh's with 64 KiB pages): one device
# of every family. The two UCFs' registers share one page of guest RAM,
# which each driver maps with its own MMIO: each reaches its registers,
# and only its own, at their offset in that page. Every PMU's sysfs ABI
# is byte for byte the one a 4 KiB-page kernel shows; every PMU counts
# exactly, a group counts exactly, and PMUs whose CPU goes offline while
# they count go on counting exactly.

. "$(dirname "$0")/lib/lib.sh"

U0=nvidia_ucf_pmu_0
U1=nvidia_ucf_pmu_1

# 16 KiB (Debian's arm64-16k, make check) or 64 KiB (vm/kernel-64k.sh's)
ps=$(awk '/^KernelPageSize:/ { print $2, $3; exit }' /proc/self/smaps)
check_eq "the kernel's pages are 16 or 64 KiB ($ps)" yes \
	"$(case $ps in "16 kB" | "64 kB") echo yes ;; esac)"

want="mrvl_ddr_pmu_1000200000 mrvl_pcie_rc_pmu_1000000000
nvidia_cmem_latency_pmu_0 nvidia_cnvlink_pmu_0 nvidia_nvclink_pmu_0
nvidia_nvdlink_pmu_0 nvidia_nvlink_c2c0_pmu_0 nvidia_nvlink_c2c1_pmu_0
nvidia_nvlink_c2c_pmu_0 nvidia_pcie_pmu_0 nvidia_pcie_pmu_0_rc_0
nvidia_pcie_tgt_pmu_0_rc_0 nvidia_scf_pmu_0 $U0 $U1 nvidia_uncore_pmu_0 tad"
check_eq "every device probed: one PMU of each family, two UCFs" \
	"$(echo $want | tr ' ' '\n' | sort | xargs)" "$(our_pmus | sort | xargs)"

# ---- the ABI: every file of format/ and events/, the identifier ----

# abi: "PMU/FILE: contents" for each, in name order
abi() {
	for p in $(our_pmus | sort); do
		for f in $(cd $EV/$p && ls -d format/* events/* identifier 2>/dev/null); do
			echo "$p/$f: $(cat $EV/$p/$f)"
		done
	done
}
# The sha256 of abi's output on Debian's 4 KiB-page arm64 7.3 kernel,
# booted with this firmware (vm-test.sh --arch arm64 --firmware pages
# --kernel 7.3): a change to any PMU's ABI changes it there too.
ABI_4K=ea181835ccaf86053a886222eedcad485f7548ae92821ef6273ee7751395a8f5
a=$(abi)
h=$(echo "$a" | sha256sum | cut -d' ' -f1)
check_eq "format/, events/, identifier as on 4 KiB pages ($(echo "$a" | wc -l) files)" \
	"$ABI_4K" "$h"
[ "$h" = "$ABI_4K" ] || echo "$a" | sed 's/^/# abi: /'

# ---- two PMUs in one page ----

for u in $U0 $U1; do
	check_eq "$u: its registers in RAM, not the backend's" 1 \
		"$(dmesg | grep -c "uncore_sim: $u: registers in RAM at")"
	check_eq "$u: the identifier read from RAM" 2cf2036b "$(cat $EV/$u/identifier 2>&1)"
done
at='s/.*uncore_sim: nvidia_ucf_pmu_[01]: registers in RAM at \(0x[0-9a-f]*\),.*/\1/p'
check_eq "the two windows are 4 KiB apart in one page" "0x70000000 0x70001000" \
	"$(dmesg | sed -n "$at" | sort | xargs)"
# Each UCF's cycle counter (PMCCNTR, 0xf8) and event counter 0 (0x0) move
# by their own amounts, in one perf run: each PMU sees exactly its own.
c=$((1 << 33))
out=$(perf stat -a -x';' -e "{$U0/cycles/,$U0/event=0x3/}" \
	-e "{$U1/cycles/,$U1/event=0x3/}" -- sh -c "
	echo 'page0:0xf8 +$((c + 1))' > $UNCORE_SIM/$U0/mem
	echo 'page0:0x0 +$((c + 2))' > $UNCORE_SIM/$U0/mem
	echo 'page0:0xf8 +$((c + 3))' > $UNCORE_SIM/$U1/mem
	echo 'page0:0x0 +$((c + 4))' > $UNCORE_SIM/$U1/mem" 2>&1 >/dev/null |
	awk -F';' '{ print $3 "=" $1 }' | xargs)
w0="$U0/cycles/=$((c + 1)) $U0/event=0x3/=$((c + 2))"
w1="$U1/cycles/=$((c + 3)) $U1/event=0x3/=$((c + 4))"
check_eq "two groups on the two UCFs of one page: each counts its own registers" "$w0 $w1" "$out"
check_eq "the register backend served none of their accesses" "0 0 0 0" \
	"$(for u in $U0 $U1; do sim_stat $u mmio_reads; sim_stat $u mmio_writes; done | xargs)"

# ---- every other PMU: exact counts, a group, a CPU going offline ----

# every_pmu VALUE [CMD]: as count_every_pmu, the UCFs left out (their
# traffic is what the test writes to RAM, above); with CMD, VALUE is
# injected twice, CMD run between, and each PMU must count 2 x VALUE,
# but VALUE only where CMD took its only associated CPU offline
# ($OFF): with no CPU left, its events stay where they were, stopped
OFF=
every_pmu() {
	args="" inj=""
	for p in $(our_pmus | grep -v '^nvidia_ucf_pmu_'); do
		e=$(pmu_event $p)
		args="$args -e $p/$e/"
		inj="$inj echo 'event=$e value=$1' > $UNCORE_SIM/$p/inject;"
	done
	[ -z "${2:-}" ] || inj="$inj $2; $inj"
	perf stat -a -x';' $args -- sh -c "$inj" 2>&1 >/dev/null |
		awk -F';' -v v="$1" -v twice="${2:+1}" -v off=" $OFF " '{
			p = $3; sub("/.*", "", p)
			w = twice && index(off, " " p " ") == 0 ? 2 * v : v
			if ($1 != w) print $3 "=" $1 }'
}
check_eq "every other PMU counts 2^40 + 3 exactly" "" "$(every_pmu $(((1 << 40) + 3)))"

P=nvidia_pcie_pmu_0_rc_0
g=$(events_n 4 "$P/event=0x3/")
check_eq "a group of 4 and cycles on PCIE: each member 12345" "12345 12345 12345 12345 12345" \
	"$(perf stat -a -x';' -e "{$P/cycles/,$g}" -- sh -c "
		echo 'event=0x3 value=12345' > $UNCORE_SIM/$P/inject
		echo 'event=cycles value=12345' > $UNCORE_SIM/$P/inject" 2>&1 >/dev/null |
		awk -F';' '{ print $1 }' | xargs)"

# the CPU of socket 0's PMUs goes offline while every PMU counts: those
# with another CPU move to it, those associated with that CPU alone stop
P=nvidia_pcie_pmu_0_rc_0
cpu=$(cat $EV/$P/cpumask)
OFF=$(for p in $(our_pmus); do
	[ "$(cat $EV/$p/associated_cpus 2>/dev/null)" != "$cpu" ] || echo $p
done | xargs)
w="nvidia_cnvlink_pmu_0 nvidia_nvlink_c2c0_pmu_0 nvidia_nvlink_c2c1_pmu_0 nvidia_pcie_pmu_0"
w="$w $P nvidia_pcie_tgt_pmu_0_rc_0 nvidia_scf_pmu_0 $U0 nvidia_uncore_pmu_0"
check_eq "the PMUs associated with CPU $cpu alone: the CoreSight ones" "$w" "$OFF"
check_eq "CPU $cpu offline between two 2^33 + 5: the others count both, those stop at one" "" \
	"$(every_pmu $(((1 << 33) + 5)) "echo 0 > /sys/devices/system/cpu/cpu$cpu/online")"
echo 1 > /sys/devices/system/cpu/cpu$cpu/online
OFF=
check_eq "and every PMU counts exactly with it back" "" "$(every_pmu 77)"

done_testing
