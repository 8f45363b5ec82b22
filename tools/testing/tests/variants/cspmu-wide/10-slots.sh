#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PCIE-TGT with 12 counters: nine distinct address ranges cannot fit the 8
# filter slots. A group of nine is refused at open with EINVAL; of nine
# separate pinned events, eight count exactly and the ninth is not counted;
# the slots are free again afterwards.

. "$(dirname "$0")/lib/lib.sh"

P=nvidia_pcie_tgt_pmu_0_rc_3
I=$UNCORE_SIM/$P/inject

check_eq "12 counters + cycle counter" 0x7f0c \
	"$(awk '$1 == "page0:0xe00" { print $2 }' $UNCORE_SIM/$P/regs)"

evs=""
eight=""
: > /tmp/slots
i=0
while [ $i -lt 9 ]; do
	base=$((0x1000000 * (i + 1)))
	ev="$P/wr_bytes,dst_addr_base=$base,dst_addr_mask=0xff000000,dst_addr_en=1/"
	evs="$evs,$ev"
	[ $i -gt 0 ] && eight="$eight,$ev"
	echo "event=wr_bytes value=$((i + 1)) addr=$((base + 0x80))" >> /tmp/slots
	i=$((i + 1))
done
evs=${evs#,}

out=$(perf stat -vv -a -x';' -e "{$evs}" -- sh -c "cat /tmp/slots > $I" 2>&1 >/dev/null)
if echo "$out" | grep -q 'failed, error -22'; then
	ok "group of nine ranges: refused with EINVAL"
else
	not_ok "group of nine ranges: refused with EINVAL" "$out"
fi
check_eq "group of nine ranges: it is not counted" "<not supported>" \
	"$(echo "$out" | awk -F';' '$3 ~ /wr_bytes/ { l = $1 } END { print l }')"

pinned=$(echo "$evs" | sed 's|/,|/D,|g; s|/$|/D|')
out=$(perf stat -a -x';' -e "$pinned" -- sh -c "cat /tmp/slots > $I" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s ", $1 }')
check_eq "nine pinned ranges: eight exact, the ninth not counted" \
	"1 2 3 4 5 6 7 8 <not counted> " "$out"

# A released slot is disabled (CTRL 0); its range may stay for the next user.
bad=$(awk '$1 ~ /^filter:0x(d38|d4c|d60|d74|d88|d9c|db0|dc4)$/ && $2 != "0x0" { print $1 "=" $2 }' \
	$UNCORE_SIM/$P/regs)
check_eq "slots released" "" "$bad"
out=$(perf stat -a -x';' -e "${eight#,}" -- sh -c "cat /tmp/slots > $I" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s ", $1 }')
check_eq "eight new ranges reuse the slots" "2 3 4 5 6 7 8 9 " "$out"

done_testing
