#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The simulator's own check of the firmware it booted with, independent of
# the drivers (tools/testing/sim/README.md, "Checking the CSPMU model").
# vm-test.sh runs it first in every boot, whatever the firmware.
#
# Every firmware: the booted SSDT and APMT are those gen.sh made for it
# (fw/ next to this script), or there is no APMT where gen.sh made none;
# the APMT is well formed; reading the simulator's files is no register
# access. The firmware whose devices are those of the default (default,
# cspmu32, cspmu-noatomic-dual, apmt-bad, impl-override,
# container-affinity) also get the detailed checks: each APMT node against
# its device, the ACPI processor UIDs, the SSDT devices, the IRQ domain,
# the inject grammar and the identification registers; grace gets its
# own: nodes, PMIIDRs, reset values, IRQs and inject grammar.

# shellcheck disable=SC1091 # the guest's copy
. "$(dirname "$0")/lib/lib.sh"

HERE=$(dirname "$0")
APMT=/sys/firmware/acpi/tables/APMT
VAR=$(cat /sys/module/uncore_sim/parameters/topology)
DEVS=$UNCORE_SIM/devices

# reading the simulator's files of every device is no register access
bad=""
for d in $(awk '{ print $1 }' "$DEVS"); do
	before=$(cat "$UNCORE_SIM/$d/stats")
	cat "$UNCORE_SIM/$d/regs" "$UNCORE_SIM/$d/stats" > /dev/null
	[ "$(cat "$UNCORE_SIM/$d/stats")" = "$before" ] || bad="$bad $d"
done
check_eq "$VAR: reading regs and stats is no register access" "" "$bad"

m=''
for t in /sys/firmware/acpi/tables/SSDT*; do
	cmp -s "$t" "$HERE/fw/ssdt-$VAR.aml" && m=$t
done
if [ -n "$m" ]; then
	ok "$VAR: SSDT is the one gen.sh wrote (${m##*/})"
else
	not_ok "$VAR: SSDT is the one gen.sh wrote"
fi

# ---- APMT ----

# The arm64 guest's firmware cannot carry an APMT (6.1's initrd table
# upgrade refuses one): there the simulator loads the table gen.sh wrote
# (apmt=<file> under /lib/firmware) and hands it to uncore_cspmu, which
# walks it as it walks a firmware APMT. The checks below then read that file.
SIMAPMT=$(cat /sys/module/uncore_sim/parameters/apmt 2>/dev/null)
if [ -n "$SIMAPMT" ]; then
	check_eq "apmt=: no firmware APMT to stand in for" absent \
		"$([ -e $APMT ] && echo present || echo absent)"
	APMT=/lib/firmware/$SIMAPMT
	walked='uncore_cspmu: APMT: [0-9]* of [0-9]* nodes.* (from the register backend)$'
	check_cmd "apmt=: uncore_cspmu walked the simulator's APMT" \
		sh -c "dmesg | grep -q '$walked'"
fi
if [ ! -f "$HERE/fw/apmt-$VAR.dat" ]; then
	check_eq "$VAR: no APMT, as gen.sh made none" absent \
		"$([ -e $APMT ] && echo present || echo absent)"
	done_testing
	exit
fi
if [ -r $APMT ]; then
	ok "APMT table present ($APMT)"
else
	not_ok "APMT table present" "no $APMT"
fi
# vm-test.sh puts the generated tables in fw/ beside the tests.
check_cmd "$VAR: APMT is the one gen.sh wrote" cmp $APMT "$HERE/fw/apmt-$VAR.dat"

# One line per node: base0 type flags id primary(hid or number) uid
# base1 irq irqflags affinity impl_id; then "sum <byte sum mod 256>".
decode() {
	od -An -tu1 -v "$1" | awk '
	function u(o, n,    v, i) {
		v = 0
		for (i = n - 1; i >= 0; i--)
			v = v * 256 + b[o + i]
		return v
	}
	function hex(v,    s, d) {
		if (v == 0)
			return "0x0"
		s = ""
		while (v > 0) {
			d = v % 16
			s = substr("0123456789abcdef", d + 1, 1) s
			v = int(v / 16)
		}
		return "0x" s
	}
	{ for (i = 1; i <= NF; i++) { b[n++] = $i; sum += $i } }
	END {
		len = u(4, 4)
		for (o = 36; o + 56 <= len; o += u(o, 2)) {
			if (u(o, 2) < 56)
				break
			t = b[o + 3]
			if (t == 3) {
				p = ""
				for (i = 8; i < 16; i++)
					p = p sprintf("%c", b[o + i])
			} else {
				p = u(o + 8, 8)
			}
			print hex(u(o + 20, 8)), t, b[o + 2], hex(u(o + 4, 4)), p,
			      u(o + 16, 4), hex(u(o + 28, 8)), u(o + 36, 4),
			      u(o + 44, 4), u(o + 48, 4), hex(u(o + 52, 4))
		}
		print "sum", sum % 256, "len", len, "size", n
	}'
}

nodes=/tmp/apmt.txt
decode $APMT > $nodes
check_eq "APMT checksum" "0" "$(awk '$1 == "sum" { print $2 }' $nodes)"
check_eq "APMT length is the file size" "$(awk '$1 == "sum" { print $6 }' $nodes)" \
	"$(awk '$1 == "sum" { print $4 }' $nodes)"
check_eq "APMT header" "APMT UNCSIM" \
	"$(dd if=$APMT bs=1 count=4 2>/dev/null) $(dd if=$APMT bs=1 skip=10 count=6 2>/dev/null)"

good() { check_cmd "inject $(basename "$1"): $2" sh -c "echo '$2' > $1/inject"; }
bad() { check_fail "inject $(basename "$1") refuses: $2" sh -c "echo '$2' > $1/inject"; }
reg() { awk -v k="$2" '$1 == k { print $2 }' "$1/regs"; }

# ---- the detailed checks of the grace firmware (tools/testing/sim/contract.md 2.1) ----
if [ "$VAR" = grace ]; then
	n=$(awk '$2 ~ /^(scf|grace_pcie|nvlink_c2c[01]|cnvlink|nvidia_generic)$/' "$DEVS" | wc -l)
	check_eq "grace: 11 devices, all of the Grace kinds" "11 11" "$n $(wc -l < "$DEVS")"
	check_eq "grace: one APMT node per device" "$n" "$(grep -vc '^sum' $nodes)"
	# node: base0, type 0 (no ACPI device), flags ATOMIC, id socket * 256
	# + kind * 16, primary the socket, affinity 2 * socket; PMIIDR the kind's
	bad=''
	while read -r name kind base; do
		case $kind in
		scf)		k=3 id=0x2cf0036b ;;
		grace_pcie)	k=4 id=0x1030036b ;;
		nvlink_c2c0)	k=5 id=0x1050036b ;;
		nvlink_c2c1)	k=6 id=0x1040036b ;;
		cnvlink)	k=7 id=0x1060036b ;;
		nvidia_generic)	k=8 id=0x1ff0036b ;;
		*)		bad="$bad; $name: kind $kind"; continue ;;
		esac
		s=${name#nvidia_*pmu_}
		exp="$base 0 4 $(printf '0x%x' $((s * 256 + k * 16))) $s 0 0x0 0 0 $((s * 2)) 0x0"
		got=$(awk -v b="$base" '$1 == b' $nodes)
		[ "$got" = "$exp" ] || bad="$bad; $name: expected '$exp' got '$got'"
		got=$(reg "$UNCORE_SIM/$name" page0:0xe08)
		[ "$got" = $id ] || bad="$bad; $name: PMIIDR $got, not $id"
		got=$(reg "$UNCORE_SIM/$name" page0:0xa00)
		[ "$got" = 0x5a5a5a5a ] || bad="$bad; $name: PMEVFILTR0 $got at reset"
	done < "$DEVS"
	if [ -z "$bad" ]; then
		ok "grace: APMT nodes, PMIIDRs, configuration registers' junk at reset"
	else
		not_ok "grace: APMT nodes, PMIIDRs and reset values match the devices" "$bad"
	fi
	i=0
	for d in /sys/kernel/irq/*; do
		[ "$(cat "$d"/chip_name 2>/dev/null)" = uncore_sim ] && i=$((i + 1))
	done
	check_eq "grace: one uncore_sim IRQ per device" "$n" "$i"
	good "$UNCORE_SIM/nvidia_pcie_pmu_0" 'event=rd_bytes_loc value=8 rp=9'
	bad "$UNCORE_SIM/nvidia_pcie_pmu_0" 'event=rd_bytes_loc rp=10'
	good "$UNCORE_SIM/nvidia_nvlink_c2c0_pmu_1" 'event=wr_req_rem port=1'
	bad "$UNCORE_SIM/nvidia_nvlink_c2c1_pmu_0" 'event=wr_req_rem port=2'
	good "$UNCORE_SIM/nvidia_cnvlink_pmu_0" 'event=rd_cum_outs_loc rsock=3'
	bad "$UNCORE_SIM/nvidia_cnvlink_pmu_0" 'event=rd_cum_outs_loc rsock=4'
	good "$UNCORE_SIM/nvidia_scf_pmu_1" 'event=cmem_wr_total_bytes value=64'
	bad "$UNCORE_SIM/nvidia_scf_pmu_1" 'event=cmem_wr_total_bytes rp=0'
	bad "$UNCORE_SIM/nvidia_scf_pmu_1" 'event=slc_bytes_rd'
	good "$UNCORE_SIM/nvidia_uncore_pmu_0" 'event=0x1ff value=3'
	bad "$UNCORE_SIM/nvidia_uncore_pmu_0" 'event=0x200000000'
	done_testing
	exit
fi

# ---- the detailed checks: the default's devices ----
case $VAR in
default|cspmu32|cspmu-noatomic-dual|apmt-bad|impl-override|container-affinity) ;;
*)	done_testing; exit ;;
esac
ncspmu=$(awk '$2 ~ /^(ucf|pcie|pcie_tgt)$/' "$DEVS" | wc -l)
# apmt-bad's last node claims 40 bytes: the walk (and the decoder) ends there
nnodes=$ncspmu
[ "$VAR" = apmt-bad ] && nnodes=$((ncspmu - 1))
check_eq "one APMT node per CSPMU device" "$nnodes" "$(grep -vc '^sum' $nodes)"

# expected node of each CSPMU device in the devices file
bad=''
while read -r name kind base; do
	case $kind in ucf|pcie|pcie_tgt) ;; *) continue ;; esac
	s=${name#nvidia_*pmu_}; s=${s%%_*}
	r=0
	case $name in *_rc_*) r=${name##*_rc_} ;; esac
	case $kind in
	ucf)		exp="$base 0 4 $(printf '0x%x' $((s * 256))) $s 0" ;;
	pcie)
		exp="$base 3 4 $(printf '0x%x' $((s * 256 + 16 + r))) SIMP0001 $((s * 16 + r))" ;;
	pcie_tgt)
		exp="$base 3 4 $(printf '0x%x' $((s * 256 + 32 + r))) SIMT0001 $((s * 16 + r))" ;;
	esac
	b1=0x0 impl=0x0
	case $VAR in
	cspmu-noatomic-dual)
		b1=$(printf '0x%x' $((base + 0x1000)))
		exp=$(echo "$exp" | awk '{ $3 = 1; print }') ;;
	apmt-bad)
		case $name in
		nvidia_ucf_pmu_1) exp=$(echo "$exp" | awk '{ $2 = 7; print }') ;;
		nvidia_pcie_pmu_1_rc_5) exp=$(echo "$exp" | awk '{ $3 = 5; print }') ;;
		nvidia_pcie_pmu_1_rc_4)
			base=0xfffffffffffff800
			exp=$(echo "$exp" | awk -v b=$base '{ $1 = b; print }') ;;
		nvidia_pcie_tgt_pmu_1_rc_3)
			exp=$(echo "$exp" | awk '{ $4 = "0x122"; print }') ;;
		nvidia_pcie_tgt_pmu_1_rc_4)
			exp=$(echo "$exp" | awk '{ $4 = "0x80000fff"; print }') ;;
		# claims 40 bytes: the decoder stops before it, as the driver does
		nvidia_ucf_pmu_9) continue ;;
		esac ;;
	impl-override)
		[ "$name" = nvidia_ucf_pmu_1 ] && impl=0x2cf2036b ;;
	container-affinity)
		[ "$name" = nvidia_ucf_pmu_0 ] && exp=$(echo "$exp" | awk '{ $3 = 6; print }') ;;
	esac
	exp="$exp $b1 0 0 $((s * 2)) $impl"
	got=$(awk -v b="$base" '$1 == b' $nodes)
	[ "$got" = "$exp" ] || bad="$bad; $name: expected '$exp' got '$got'"
done < "$DEVS"
if [ -z "$bad" ]; then
	ok "APMT nodes: base0, type, flags, id, HID/UID, base1, IRQ, affinity 2*socket, impl_id"
else
	not_ok "APMT nodes match the devices" "$bad"
fi

# processor UIDs: proc_affinity names the first CPU of a socket by its ACPI
# processor UID, which is the ProcessorID of q35's Processor () objects
# (Linux: per_cpu(processors, cpu)->acpi_id); find them in the DSDT
procids=$(od -An -tu1 -v /sys/firmware/acpi/tables/DSDT | awk '
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		for (i = 0; i + 1 < n; i++) {
			if (b[i] != 91 || b[i + 1] != 131)	# ProcessorOp 5b 83
				continue
			o = i + 2 + 1 + int(b[i + 2] / 64)	# past PkgLength
			name = ""
			for (j = 0; j < 4; j++)
				name = name sprintf("%c", b[o + j])
			print name, b[o + 4]
		}
	}')
# arm64 virt has Device (Cnnn) objects with a _UID instead
bad=''
for c in 0 1 2 3; do
	path=$(cat /sys/devices/system/cpu/cpu$c/firmware_node/path 2>/dev/null)
	id=$(echo "$procids" | awk -v n="${path##*.}" '$1 == n { print $2 }')
	[ -n "$procids" ] || id=$(cat /sys/devices/system/cpu/cpu$c/firmware_node/uid 2>&1)
	[ "$id" = "$c" ] || bad="$bad cpu$c:$path:id='$id'"
done
if [ -z "$bad" ]; then
	ok "ACPI processor UID (ProcessorID or _UID) of CPU n is n"
else
	not_ok "ACPI processor UID (ProcessorID or _UID) of CPU n is n" "$bad" "$procids"
fi
check_eq "CPU 2 is in socket 1" "1" "$(socket_of 2)"
check_eq "CPU 2 is on NUMA node 1" "2-3" "$(cat /sys/devices/system/node/node1/cpulist)"

# ---- SSDT devices ----

for hid in SIMP0001 SIMT0001; do
	uids=$(cat /sys/bus/acpi/devices/$hid:*/uid 2>/dev/null | sort -n | tr '\n' ' ')
	check_eq "$hid devices and _UIDs" "0 1 2 3 4 5 16 17 18 19 20 21 " "$uids"
	bad=''
	for d in /sys/bus/acpi/devices/"$hid":*; do
		[ -e "$d/physical_node" ] || bad="$bad ${d##*/}"
	done
	if [ -z "$bad" ]; then
		ok "$hid: a platform device each"
	else
		not_ok "$hid: a platform device each" "missing:$bad"
	fi
done
check_eq "instance_id in the SSDT 24 times" 24 \
	"$(cat /sys/firmware/acpi/tables/SSDT* | grep -ao instance_id | wc -l)"

# PCIE-TGT _CRS: the filter window, claimed by the ACPI platform device
bad=''
while read -r name kind base; do
	[ "$kind" = pcie_tgt ] || continue
	fb=$(printf '%x' $((base + 0x2000)))
	line=$(grep -i "^ *$fb-" /proc/iomem)
	case $line in
	*"$fb-$(printf '%x' $((base + 0x2fff))) : SIMT0001:"*) ;;
	*) bad="$bad $name:'$line'" ;;
	esac
done < "$DEVS"
if [ -z "$bad" ]; then
	ok "PCIE-TGT _CRS = filter window (page0 + 0x2000) in /proc/iomem"
else
	not_ok "PCIE-TGT _CRS = filter window" "$bad"
fi
check_eq "PCIE devices have no _CRS" "" "$(grep SIMP0001 /proc/iomem)"

# ---- IRQ domain ----

n=0
for d in /sys/kernel/irq/*; do
	[ "$(cat "$d"/chip_name 2>/dev/null)" = uncore_sim ] || continue
	n=$((n + 1))
	t=$(cat "$d"/type)
	[ "$t" = level ] || not_ok "IRQ ${d##*/} is level" "type $t"
done
check_eq "one uncore_sim IRQ per CSPMU device" "$ncspmu" "$n"

# ---- inject grammar ----

UCF=$UNCORE_SIM/nvidia_ucf_pmu_0
PCIE=$UNCORE_SIM/nvidia_pcie_pmu_0_rc_1
TGT=$UNCORE_SIM/nvidia_pcie_tgt_pmu_1_rc_0
good "$UCF" 'event=slc_bytes_rd value=4096 src=loc_cpu dst=loc_cmem'
good "$UCF" 'event=cycles value=10'
good "$UCF" 'event=0x0'
good "$UCF" 'event=0x100000000 src=rem dst=rem'
good "$UCF" 'event=slc_access_atomic src=loc_noncpu dst=loc_other'
bad "$UCF" 'event=slc_access'
bad "$UCF" 'event=0x200000000'
bad "$UCF" 'event=mem_bytes_rd src=cpu'
bad "$UCF" 'event=mem_bytes_rd dst=loc_pcie_p2p'
bad "$UCF" 'event=mem_bytes_rd rp=1'
good "$PCIE" 'event=rd_req value=10 rp=1 bdf=0x0180 dst=rem'
good "$PCIE" 'event=rd_cum_outs rp=7 bdf=0xffff dst=loc_pcie_cxl'
good "$PCIE" 'event=cycles'
bad "$PCIE" 'event=rd_req rp=8'
bad "$PCIE" 'event=rd_req bdf=0x10000'
bad "$PCIE" 'event=rd_req dst=loc_other'
bad "$PCIE" 'event=rd_req src=loc_cpu'
good "$TGT" 'event=wr_bytes value=64 rp=2 addr=0x10040'
good "$TGT" 'event=rd_req addr=0xffffffffffffffff target=cxl'
good "$TGT" 'event=cycles value=5'
good "$TGT" 'event=0x7'
bad "$TGT" 'event=0x8'
bad "$TGT" 'event=rd_cum_outs'
bad "$TGT" 'event=rd_req target=mmio'
bad "$TGT" 'event=rd_req addr=0x10000000000000000'
check_fail "a bad second line fails the whole write" \
	sh -c "printf 'event=rd_req\nevent=bogus\n' > $PCIE/inject"

# ---- registers ----

check_eq "UCF PMIIDR" 0x2cf2036b "$(reg "$UCF" page0:0xe08)"
check_eq "PCIE PMIIDR" 0x1030136b "$(reg "$PCIE" page0:0xe08)"
check_eq "PCIE-TGT PMIIDR" 0x1070036b "$(reg "$TGT" page0:0xe08)"
if [ "$VAR" = cspmu32 ]; then
	check_eq "PMCFGR: N=8 (8 + cycle), SIZE=31, CC" 0x5f08 "$(reg "$UCF" page0:0xe00)"
else
	check_eq "PMCFGR: N=8 (8 + cycle), SIZE=63, CC" 0x7f08 "$(reg "$UCF" page0:0xe00)"
fi
check_eq "UCF PMPIDR0..4" "0xcf 0xb2 0x2e 0x0 0x3" \
	"$(for o in 0xfe0 0xfe4 0xfe8 0xfec 0xfd0; do reg "$UCF" page0:$o; done | tr '\n' ' ' |
	sed 's/ $//')"
check_eq "PCIE PMPIDR3 (revision 1)" 0x10 "$(reg "$PCIE" page0:0xfec)"
check_eq "PMCR reads 0 after reset" 0x0 "$(reg "$UCF" page0:0xe04)"
if [ "$VAR" = cspmu32 ]; then
	cn="page0:0x0 page0:0x4 page0:0x8 page0:0xc page0:0x10 page0:0x14 page0:0x18"
	cn="$cn page0:0x1c page0:0x7c"
else
	cn="page0:0x0 page0:0x8 page0:0x10 page0:0x18 page0:0x20 page0:0x28 page0:0x30"
	cn="$cn page0:0x38 page0:0xf8"
fi
[ "$VAR" = cspmu-noatomic-dual ] && cn=$(echo "$cn" | sed 's/page0/page1/g')
check_eq "counters 0-7 and the cycle counter (31)" "$cn" \
	"$(awk '{ print $1 }' "$UCF/regs" | grep -E '^page[01]:0x([0-9a-f]|[0-9a-f][0-9a-f])$' |
	tr '\n' ' ' | sed 's/ $//')"
check_eq "PCIE-TGT: 8 slots of 5 registers" 40 "$(grep -c '^filter:' "$TGT/regs")"
if [ "$VAR" = cspmu-noatomic-dual ]; then
	check_eq "dual page: counters and PMOVS in page1" 11 "$(grep -c '^page1:' "$UCF/regs")"
	check_eq "dual page: no counters in page0" "" "$(grep '^page0:0x0 ' "$UCF/regs")"
else
	check_eq "no page1 in the single-page default" 0 "$(grep -c '^page1:' "$UCF/regs")"
fi
check_eq "PMCCFILTR is listed" 0x0 "$(reg "$UCF" page0:0x47c)"

done_testing
