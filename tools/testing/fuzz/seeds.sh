#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Regenerate the APMT seeds of corpus/fuzz_apmt/: the simulator's APMT for
# every firmware topology (gen.sh), and hand-made malformed tables derived
# from the default one. Each seed is fuzz_apmt's mode byte and the table.
#   seeds.sh [CORPUSDIR]   (default: corpus/fuzz_apmt beside this script)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
SIM=$HERE/../sim
OUT=${1:-$HERE/corpus/fuzz_apmt}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$OUT"
fws="default $(cd "$SIM/../tests/firmware" && ls)"
for fw in $fws; do
	"$SIM/gen.sh" "$fw" "$TMP" >"$TMP/gen.log" 2>&1 ||
		{ cat "$TMP/gen.log" >&2; exit 1; }
	# no CSPMU in this firmware, no APMT
	[ -f "$TMP/apmt-$fw.dat" ] || continue
	# firmware path (mode 1) and backend path with a second table (mode 16)
	{ printf '\001'; cat "$TMP/apmt-$fw.dat"; } >"$OUT/valid-$fw-firmware"
	{ printf '\020'; cat "$TMP/apmt-$fw.dat"; } >"$OUT/valid-$fw-backend"
done

python3 - "$TMP/apmt-default.dat" "$OUT" <<'PY'
import struct, sys

src, out = sys.argv[1], sys.argv[2]
good = bytearray(open(src, 'rb').read())
HDR, NODE = 36, 56

def table(nodes, length=None):
    t = bytearray(good[:HDR]) + b''.join(nodes)
    struct.pack_into('<I', t, 4, len(t) if length is None else length)
    return t

def node(length=NODE, flags=0, typ=0, nid=1, base0=0x10000000, base1=0, gsi=0,
         irqflags=0, extra=b''):
    n = struct.pack('<HBBIQIQQIIIII', length, flags, typ, nid, 0, 0, base0, base1,
                    gsi, 0, irqflags, 0, 0)
    return n + extra

def write(name, t, mode=0):
    open(f'{out}/bad-{name}', 'wb').write(bytes([mode]) + bytes(t))

write('truncated-header', good[:20])
write('length-below-header', table([], length=30))
write('length-past-input', table([node()], length=HDR + 3 * NODE))
write('node-length-0', table([node(length=0), node(nid=2)]))
write('node-length-1', table([node(length=1)]))
write('node-length-55', table([node(length=55)]))
write('node-length-past-end', table([node(), node(length=0xffff, nid=2)]))
write('node-cut-by-table', table([node()])[:HDR + 30] + b'', 0)
write('node-2-bytes-left', table([node()], length=HDR + NODE + 1))
write('node-longer-aligned', table([node(length=64, extra=b'\0' * 8), node(nid=2)]))
write('dup-id', table([node(nid=7), node(nid=7, base0=0x20000000)]))
write('id-above-int-max', table([node(nid=0x80000001), node(nid=1)]))
write('base0-zero', table([node(base0=0)]))
write('base0-top', table([node(base0=0xfffffffffffff001)]))
write('dual-no-base1', table([node(flags=1)]))
write('dual-base1-top', table([node(flags=1, base1=0xfffffffffffff000)]))
write('unknown-type', table([node(typ=5), node(typ=255, nid=2)]))
write('gsi-fails', table([node(gsi=0x23), node(nid=2, gsi=0x40, irqflags=1)]))
write('many-min-nodes', table([node(nid=i) for i in range(64)]))
write('register-fails', table([node(nid=1, gsi=0x40), node(nid=2)]), mode=8)
write('acpi-disabled', table([node()]), mode=2 | 16)
write('no-table', table([node()]), mode=1 | 4)
PY

# fuzz_acpi: C2C probes and PCIE-TGT _CRS templates (see fuzz_acpi.c)
python3 - "$HERE/corpus/fuzz_acpi" <<'PY'
import struct, sys, os

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
WIN = 0x8b8

def c2c(name, hid, flags, props, nres, uid, size=WIN):
    d = bytes([0, hid, flags]) + struct.pack('<III', *props) + bytes([nres])
    d += struct.pack('<H', size - WIN + 0x100) * nres + uid
    open(f'{out}/c2c-{name}', 'wb').write(d)

c2c('nvlink-cpu', 0, 0b0011, (0x3fff, 0, 0), 15, b'0')
c2c('nvlink-gpu', 0, 0b1101, (0, 0x7f, 0x3f80), 15, b'1')
c2c('nvclink-gpu1', 1, 0b1001, (0, 0, 0xfff), 13, b'0x1')
c2c('nvdlink-cxl', 2, 0b0001, (0, 0, 0), 17, b'0')
c2c('no-uid', 0, 0b0010, (1, 0, 0), 15, b'0')
c2c('uid-not-number', 0, 0b0011, (1, 0, 0), 15, b'socket0')
c2c('uid-no-cpu', 0, 0b0011, (1, 0, 0), 15, b'7')
c2c('no-instance', 0, 0b1111, (0, 0, 0), 15, b'0')
c2c('too-few-windows', 0, 0b0011, (1, 0, 0), 14, b'0')
c2c('window-too-small', 0, 0b0011, (1, 0, 0), 15, b'0', size=WIN - 4)
c2c('no-type', 9, 0b0011, (1, 0, 0), 15, b'0')

def tgt(name, crs):
    open(f'{out}/tgt-{name}', 'wb').write(b'\x01' + crs)

END = b'\x79\x00'
fixed32 = lambda base, ln: b'\x86\x09\x00\x01' + struct.pack('<II', base, ln)
mem32 = lambda lo, hi, ln: b'\x85\x11\x00\x01' + struct.pack('<IIII', lo, hi, 1, ln)
qword = lambda lo, hi, ln, off=0, flags=0x0c: (b'\x8a\x2b\x00\x00' + bytes([flags, 0]) +
        struct.pack('<QQQQQ', 0, lo, hi, off, ln))
dword = lambda lo, hi, ln: (b'\x87\x17\x00\x00\x0c\x00' + struct.pack('<IIIII', 0, lo, hi, 0, ln))
irq = b'\x89\x06\x00\x01\x01' + struct.pack('<I', 40)

tgt('fixed32', fixed32(0x30000000, 0x1000) + END)
tgt('irq-then-mem32', irq + mem32(0x30000000, 0x30000fff, 0x1000) + END)
tgt('qword', qword(0x3000000000, 0x3000000fff, 0x1000) + END)
tgt('dword', dword(0x30000000, 0x30000fff, 0x1000) + END)
tgt('too-small', fixed32(0x30000000, 0xdd0) + END)
tgt('zero-length-then-ok', fixed32(0x30000000, 0) + fixed32(0x40000000, 0x1000) + END)
tgt('qword-max-below-min', qword(0x3000001000, 0x3000000000, 0x1000) + END)
tgt('qword-wraps', qword(0xfffffffffffff000, 0xffffffffffffffff, 0x2000) + END)
tgt('no-end-tag', fixed32(0x30000000, 0x1000))
tgt('bad-length', b'\x86\x08\x00' + b'\x00' * 8 + END)
tgt('no-mem', irq + END)
tgt('io-only', b'\x4b\x00\x10\x20' + END)
PY

# fuzz_config: PMU types shaped like ours, with groups (see fuzz_config.c)
python3 - "$HERE/corpus/fuzz_config" <<'PY'
import struct, sys, os

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def ev(kind, cpu, c0, c1=0, c2=0):
    return bytes([kind, cpu]) + struct.pack('<QQQ', c0, c1, c2)

def cfg(name, flags, ncnt, mask, fmts, evs):
    d = bytes([flags, ncnt, mask]) + b''.join(bytes([m]) + s.encode() + b'\n' for m, s in fmts)
    d += b'\n' + b''.join(evs)
    open(f'{out}/{name}', 'wb').write(d)

tgt = [(0, 'config:0-2'), (0, 'config:3-10'), (0, 'config:11'), (0, 'config1:0-63'),
       (0, 'config2:0-63')]
cfg('tgt-like', 1, 8, 0, tgt, [ev(0, 0, 0x800 | 1, 0x1000, 0xfff), ev(0, 0, 2), ev(1, 0, 0)])
c2c = [(0, 'config:0-3'), (1, 'config1:0-1')]
cfg('c2c-gpu-like', 3, 0, 1, c2c, [ev(0, 2, 1, 1), ev(0, 2, 3, 2), ev(0, 2, 8)])
cfg('c2c-cpu-like', 3, 0, 2, c2c, [ev(0, 2, 1, 1), ev(0, 2, 5)])
ucf = [(0, 'config:0-32'), (0, 'config1:0-3'), (0, 'config1:8-11'), (0, 'config1:16-17')]
cfg('ucf-like', 0, 4, 0, ucf, [ev(0, 0, 0x1), ev(0, 0, 0x100000000), ev(0, 0, 2, 0x10f),
                               ev(0, 0, 3), ev(0, 0, 4), ev(2, 0, 0)])
cfg('foreign-leader', 0, 4, 0, ucf, [ev(2, 0, 0), ev(0, 0, 1)])
cfg('sampling-task', 0, 4, 0, ucf, [ev(4, 0, 0), ev(8, 0, 0), ev(0, 0xff, 0)])
cfg('bad-spec', 0, 4, 0, [(0, 'config:5-2'), (0, 'config3:1')], [ev(0, 0, 0)])
cfg('spec-64', 0, 4, 0, [(0, 'config:0-64')], [ev(0, 0, 0)])
cfg('spec-whole-words', 0, 64, 3, [(0, 'config'), (1, 'config1'), (2, 'config2')],
    [ev(0, 1, 2**64 - 1, 2**64 - 1, 2**64 - 1)] * 5)
PY
