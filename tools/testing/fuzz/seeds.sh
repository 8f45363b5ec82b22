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
