#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static check "perf-json": the perf event and metric files of
# tools/perf/pmu-events/arch/arm64/nvidia/t410/sys/ (Tegra410) and
# tools/perf/pmu-events/arch/arm64/nvidia/t241/sys/ (Grace, Tegra241).
#
# perf matches a "sys" event or metric to a PMU when its "Unit" matches the
# PMU name with perf's uncore alias rule and its "Compat" matches the PMU's
# sysfs identifier (perf 6.1: strcmp; later: an anchored regex). Names like
# nvidia_pcie_pmu_0_rc_1 defeat the plain "prefix_<digits>" rule, so the
# PCIE units use perf's "a,b" form ("nvidia_pcie_pmu,rc"); the metrics name
# their events as <prefix>@event@, which perf resolves by its PMU wildcard
# rule, and that rule cannot single out the PCIE PMUs, so there are no
# PCIE / PCIE-TGT metrics (tools/uncore-metrics computes those). Grace's
# PCIE PMUs are nvidia_pcie_pmu_<s>, Tegra410's nvidia_pcie_pmu_<s>_rc_<rc>:
# each pcie.json must attach to its own and not to the other's (their
# identifiers differ in the PMIIDR revision only). Grace's PCIE names fit
# the wildcard rule, so they have metrics.
#
# For linux-source-6.1 and linux-source-6.12 (their tools/perf, extracted
# once under $UNCORE_CACHE/perf-src-<ver>):
#  - jevents.py over a copy of perf's arm64 and test trees with our files
#    added must succeed without printing anything, and its output must
#    hold every event and metric name;
#  - perf's own matching functions (pmu_uncore_alias_match, the identifier
#    match and perf_pmu__match, cut out of util/pmu.c and compiled here)
#    must attach each file's Unit/Compat to every PMU name its driver
#    registers and to no other driver's, and resolve each metric's
#    <prefix>@event@ to exactly that PMU family.
# Against the drivers: every event name and ConfigCode is in the driver's
# UNCORE_EVENT_ATTR table with the same value, hex is lower case, events
# carry no ScaleUnit (the drivers export raw counts), and metrics use only
# events that the same family's JSON defines, plus duration_time.
#
# Prints what is wrong; exits non-zero on any failure.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}
NVDIR=$REPO/tools/perf/pmu-events/arch/arm64/nvidia
MODELS="t410 t241"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PYTHONDONTWRITEBYTECODE=1
fail=0

# perf_src VER: print a directory holding tools/perf/pmu-events and
# tools/perf/util/pmu.c of linux-source-VER, extracted once.
perf_src()
{
	local ver=$1 tar=/usr/src/linux-source-$1.tar.xz dest id
	local parts="tools/perf/pmu-events tools/perf/util/pmu.c"

	dest=$CACHE/perf-src-$ver
	[ -f "$tar" ] || { echo "$tar missing (run deps.sh)"; return 1; }
	id="$(stat -c '%s %Y' "$tar") $parts"
	mkdir -p "$CACHE"
	(
		flock 9
		[ "$(cat "$dest/.uncore-pmu-stamp" 2>/dev/null)" = "$id" ] && exit 0
		rm -rf "$dest" "$dest.tmp"
		mkdir -p "$dest.tmp"
		# shellcheck disable=SC2046 # one member per part
		tar -xJf "$tar" -C "$dest.tmp" --strip-components=1 \
			$(printf "linux-source-$ver/%s " $parts) || exit 1
		mv "$dest.tmp" "$dest"
		echo "$id" >"$dest/.uncore-pmu-stamp"
	) 9>"$CACHE/.perf-src-$ver.lock" || { echo "cannot extract $parts from $tar"; return 1; }
	echo "$dest"
}

# run_jevents VER SRC: that tree's jevents.py, with our Units added to its
# unit_to_pmu() table, over perf's arm64 and test trees plus our files.
# Prints "<generated C file>:<patched jevents.py>".
run_jevents()
{
	local ver=$1 pe=$2/tools/perf/pmu-events out=$TMP/jevents-$1 model= units

	mkdir -p "$out/arch/arm64" "$out/py"
	cp -r "$pe/arch/arm64/." "$out/arch/arm64/"
	cp -r "$pe/arch/test" "$out/arch/"
	for m in $MODELS; do
		mkdir -p "$out/arch/arm64/nvidia/$m"
		cp -r "$NVDIR/$m/sys" "$out/arch/arm64/nvidia/$m/"
	done
	cp "$pe"/*.py "$out/py/"
	# Unlisted Units become "uncore_<unit>", which names no PMU of ours.
	# shellcheck disable=SC2046 # one file per word
	units=$(sed -n 's/.*"Unit": "\([^"]*\)".*/\1/p' \
		$(for m in $MODELS; do echo "$NVDIR/$m/sys/"*.json; done) | sort -u)
	awk -v units="$units" '
	{ print }
	!done && /^ *table = {$/ {
		ind = $0
		sub(/table.*/, "    ", ind)
		n = split(units, u, "\n")
		for (i = 1; i <= n; i++)
			printf "%s\047%s\047: \047%s\047,\n", ind, u[i], u[i]
		done = 1
	}' "$pe/jevents.py" >"$out/py/jevents.py"
	grep -q "'nvidia_ucf_pmu': 'nvidia_ucf_pmu'," "$out/py/jevents.py" &&
		grep -q "'nvidia_scf_pmu': 'nvidia_scf_pmu'," "$out/py/jevents.py" ||
		{ echo "$ver: cannot add our Units to jevents.py's unit_to_pmu() table"; return 1; }
	grep -q "add_argument('model'" "$pe/jevents.py" && model=all
	# shellcheck disable=SC2086 # $model is empty or one word
	if ! python3 "$out/py/jevents.py" arm64 $model "$out/arch" "$out/pmu-events.c" \
		>"$out/log" 2>&1 || [ -s "$out/log" ]; then
		echo "jevents.py ($ver) failed or complained:"
		head -n 30 "$out/log"
		return 1
	fi
	echo "$out/pmu-events.c:$out/py/jevents.py"
}

# harness VER SRC: compile perf's matching functions from util/pmu.c
harness()
{
	local ver=$1 pmu=$2/tools/perf/util/pmu.c c=$TMP/match-$1.c funcs

	if grep -q 'perf_pmu__match_ignoring_suffix' "$pmu"; then
		funcs="perf_pmu__match_ignoring_suffix pmu_uncore_alias_match"
		funcs="$funcs pmu_uncore_identifier_match perf_pmu__match"
	else
		# 6.1 compares Compat with strcmp(); make sure that is still so
		grep -q 'if (!strcmp(pmu->id, pe->compat) &&' "$pmu" ||
			{ echo "$pmu: no strcmp() Compat match"; return 1; }
		funcs="perf_pmu__valid_suffix pmu_uncore_alias_match perf_pmu__match"
	fi
	{
		cat <<-'EOF'
		#include <ctype.h>
		#include <fnmatch.h>
		#include <regex.h>
		#include <stdbool.h>
		#include <stdio.h>
		#include <stdlib.h>
		#include <string.h>
		#define pr_info(...) fprintf(stderr, __VA_ARGS__)
		struct perf_pmu { const char *name; const char *alias_name; };
		static inline bool strisglob(const char *s) { return strpbrk(s, "*?["); }
		EOF
		awk -v funcs="$funcs" '
		BEGIN { n = split(funcs, f, " "); for (i = 1; i <= n; i++) want[f[i]] = 1 }
		!on && /^(static )?(bool|int) [a-z_]+\(/ {
			name = $0
			sub(/^(static )?(bool|int) /, "", name)
			sub(/\(.*/, "", name)
			if (name in want) { on = 1; got[name] = 1 }
		}
		on { print }
		on && /^}/ { on = 0 }
		END { for (x in want) if (!(x in got)) { print "#error missing " x; } }
		' "$pmu"
		cat <<-'EOF'
		/* stdin: "alias UNIT PMU", "ident COMPAT ID" or "wild TOKEN PMU" */
		int main(void)
		{
			char m[16], a[256], b[256], pat[260];
			int r;

			while (scanf("%15s %255s %255s", m, a, b) == 3) {
				if (!strcmp(m, "alias")) {
					r = pmu_uncore_alias_match(a, b);
				} else if (!strcmp(m, "ident")) {
		#ifdef NEW_PERF
					r = pmu_uncore_identifier_match(a, b);
		#else
					r = !strcmp(b, a);
		#endif
				} else {
		#ifdef NEW_PERF
					struct perf_pmu p = { b, NULL };

					r = perf_pmu__match(&p, a);
		#else
					snprintf(pat, sizeof(pat), "%s*", a);
					r = !perf_pmu__match(pat, b, a);
		#endif
				}
				printf("%s %s %s %d\n", m, a, b, !!r);
			}
			return 0;
		}
		EOF
	} >"$c"
	local def=
	[ "${funcs#perf_pmu__match_ignoring_suffix}" != "$funcs" ] && def=-DNEW_PERF
	if ! gcc -Wall -Wno-unused-function $def -o "$TMP/match-$ver" "$c" >"$c.log" 2>&1; then
		echo "cannot compile perf's matching code of $ver:"
		head -n 20 "$c.log"
		return 1
	fi
	echo "$TMP/match-$ver"
}

args=
for ver in 6.1 6.12; do
	src=$(perf_src "$ver") || { echo "$src"; fail=1; continue; }
	[ -f "$src/tools/perf/pmu-events/jevents.py" ] ||
		{ echo "$ver: no jevents.py"; fail=1; continue; }
	gen=$(run_jevents "$ver" "$src") || { echo "$gen"; fail=1; continue; }
	bin=$(harness "$ver" "$src") || { echo "$bin"; fail=1; continue; }
	args="$args $ver:$bin:$gen"
done
[ -n "$args" ] || exit 1

# shellcheck disable=SC2086 # one argument per tree
python3 - "$REPO" "$NVDIR" "$MODELS" $args <<'EOF' || fail=1
import glob, importlib.util, json, os, re, subprocess, sys

repo, jroot, models = sys.argv[1], sys.argv[2], sys.argv[3].split()
trees = [a.split(':') for a in sys.argv[4:]]
errors = []


def err(msg):
	errors.append(msg)


def src(name):
	with open(os.path.join(repo, name)) as f:
		return f.read()


# Driver families: sample PMU names, sysfs identifier, events {name: id}.
NVIDIA_JEP106 = 0x36b	# PMIIDR implementer of every NVIDIA CSPMU


def events_of(text, defines):
	ev = {}
	for name, val in re.findall(r'UNCORE_EVENT_ATTR(?:_MASK|_DATA)?\((\w+),\s*(\w+)', text):
		val = defines.get(val, val)
		ev[name] = int(val, 0)
	return ev


def defines_of(text):
	d = {}
	for k, v in re.findall(r'#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)\b', text):
		d[k] = v
	for k, v in re.findall(r'#define\s+(\w+)\s+BIT_ULL\((\d+)\)', text):
		d[k] = hex(1 << int(v))
	return d


def samples(fmt):
	n = fmt.count('%u')
	vals = [(0, 0), (0, 1), (1, 5), (0, 12)] if n == 2 else [(0,), (1,), (3,)]
	return [fmt.replace('%u', '{}').format(*v) for v in vals]


def cspmu_name(blk):
	"""The name format of a CoreSight PMU impl: its name, then the numbers
	the engine adds as its .naming says (enum uncore_cspmu_naming)."""
	name = re.search(r'\.name\s*=\s*"([^"]+)"', blk).group(1)
	return name + ('_%u_rc_%u' if 'UNCORE_CSPMU_BY_SOCKET_RC' in blk else '_%u')


def array_of(text, name):
	m = re.search(r'\*' + name + r'\[\]\s*=\s*\{(.*?)\};', text, re.S)
	return m.group(1) if m else ''


common = defines_of(src('include/uncore_cspmu.h'))
fam = {}
for f, key in (('nvidia_t410_ucf_pmu.c', 'UCF'), ('nvidia_t410_pcie_pmu.c', 'PCIE'),
	       ('nvidia_t410_pcie_tgt_pmu.c', 'TGT')):
	t = src('drivers/perf/' + f)
	d = dict(common, **defines_of(t))
	prodid = re.search(r'\.prodid\s*=\s*(\w+)', t).group(1)
	fmt = cspmu_name(t)
	ident = '%x' % (int(d.get(prodid, prodid), 0) | NVIDIA_JEP106)
	fam[key] = (samples(fmt), ident, events_of(t, d))
# Grace: one impl table, one events array per PMU kind
t = src('drivers/perf/nvidia_t241_pmu.c')
d = dict(common, **defines_of(t))
GRACE = {'NV_T241_SCF_PRODID': 'SCF', 'NV_T241_PCIE_PRODID': 'GPCIE',
	 'NV_T241_C2C0_PRODID': 'C2C0', 'NV_T241_C2C1_PRODID': 'C2C1',
	 'NV_T241_CNVLINK_PRODID': 'CNVLINK'}
for blk in re.findall(r'\{([^{}]*\.prodid[^{}]*)\}', t):
	prodid = re.search(r'\.prodid\s*=\s*(\w+)', blk).group(1)
	fmt = cspmu_name(blk)
	arr = re.search(r'\.events\s*=\s*(\w+)', blk).group(1)
	ident = '%x' % (int(d.get(prodid, prodid), 0) | NVIDIA_JEP106)
	fam[GRACE.get(prodid, prodid)] = (samples(fmt), ident, events_of(array_of(t, arr), d))
t = src('drivers/perf/nvidia_t410_cmem_latency_pmu.c')
fmt = re.search(r'"(nvidia_cmem_latency_pmu_%u)"', t).group(1)
hid = re.search(r'\{\s*"(NVDA\w+)"', t).group(1)
fam['CMEM'] = (samples(fmt), hid, events_of(t, defines_of(t)))
t = src('drivers/perf/nvidia_t410_c2c_pmu.c')
c2cev = events_of(t, defines_of(t))
for hid, var in re.findall(r'\{\s*"(NVDA\w+)",\s*\(kernel_ulong_t\)&(\w+)\s*\}', t):
	fmt = re.search(var + r'\s*=\s*\{[^}]*\.name\s*=\s*"([^"]+)"', t).group(1)
	fam[hid] = (samples(fmt), hid, c2cev)

want = {'t410/ucf.json': 'UCF', 't410/pcie.json': 'PCIE', 't410/pcie-tgt.json': 'TGT',
	't410/cmem-latency.json': 'CMEM', 't410/nvlink-c2c.json': 'NVDA2023',
	't410/nvclink.json': 'NVDA2022', 't410/nvdlink.json': 'NVDA2020',
	't241/scf.json': 'SCF', 't241/pcie.json': 'GPCIE',
	't241/nvlink-c2c0.json': 'C2C0', 't241/nvlink-c2c1.json': 'C2C1',
	't241/cnvlink.json': 'CNVLINK'}
for k in ('UCF', 'PCIE', 'TGT', 'CMEM', 'NVDA2020', 'NVDA2022', 'NVDA2023',
	  'SCF', 'GPCIE', 'C2C0', 'C2C1', 'CNVLINK'):
	if k not in fam or not fam[k][2]:
		err('driver family %s not found or without events' % k)
if len(fam) != 12:
	err('driver families %s, expected 12' % sorted(fam))

files = sorted(os.path.relpath(p, jroot) for m in models
	       for p in glob.glob(os.path.join(jroot, m, 'sys', '*.json')))
files = [f.replace('/sys/', '/') for f in files]
if sorted(set(files) - {m + '/metrics.json' for m in models}) != sorted(want):
	err('event files are %s, expected %s' % (files, sorted(want)))

# Ask each perf version's matching code.
queries = set()
unitfam = {}		# (Unit, Compat) -> family of its event file
defined = {}		# (Unit, Compat) -> event names
data = {}
for f in files:
	try:
		m, b = f.split('/')
		with open(os.path.join(jroot, m, 'sys', b)) as fp:
			data[f] = json.load(fp)
	except ValueError as e:
		err('%s: %s' % (f, e))
		continue
	if not isinstance(data[f], list) or not data[f]:
		err('%s: not a non-empty list' % f)
		data[f] = []
# The PMU string each tree's jevents.py derives from a Unit.
pmu_of = {}
for ver, _, _, jev in trees:
	sys.path.insert(0, os.path.dirname(jev))
	spec = importlib.util.spec_from_file_location('jevents_' + ver.replace('.', '_'), jev)
	mod = importlib.util.module_from_spec(spec)
	spec.loader.exec_module(mod)
	sys.path.pop(0)
	for f, items in data.items():
		for it in items:
			if it.get('Unit'):
				pmu_of[(ver, it['Unit'])] = mod.JsonEvent(it).pmu

for f, items in data.items():
	for it in items:
		u, c = it.get('Unit'), it.get('Compat')
		if not u or not c:
			err('%s: %s lacks Unit or Compat' % (f, it))
			continue
		if f in want:
			unitfam[(u, c)] = want[f]
			defined.setdefault((u, c), set()).add(it.get('EventName'))
		for k, (names, ident, _) in fam.items():
			for n in names:
				for ver, _, _, _ in trees:
					queries.add(('alias', pmu_of[(ver, u)], n))
			queries.add(('ident', c, ident))
		for tok in re.findall(r'([A-Za-z_]\w*)@\w+@', it.get('MetricExpr', '')):
			for k, (names, _, _) in fam.items():
				for n in names:
					queries.add(('wild', tok, n))
answers = {}
for ver, binary, gen, jev in trees:
	inp = ''.join('%s %s %s\n' % q for q in sorted(queries))
	out = subprocess.run([binary], input=inp, capture_output=True, text=True).stdout
	for line in out.splitlines():
		m, a, b, r = line.split()
		answers[(ver, m, a, b)] = r == '1'
	with open(gen) as fp:
		c = fp.read()
	for f, items in data.items():
		for it in items:
			n = it.get('EventName') or it.get('MetricName')
			if n and not re.search(r'(\\000|")%s(\\000|")' % re.escape(n), c):
				err('%s: %s missing from the jevents.py %s output' % (f, n, ver))


def ask(ver, m, a, b):
	if (ver, m, a, b) not in answers:
		err('perf %s matching code gave no answer for %s %s %s' % (ver, m, a, b))
		return False
	return answers[(ver, m, a, b)]


hexre = re.compile(r'^0x[0-9a-f]+$')
EVKEYS = {'EventName', 'ConfigCode', 'BriefDescription', 'Unit', 'Compat'}
TERMS = r'[A-Za-z_]\w*@(\w+)@|duration_time|\d+(\.\d+)?|[-+*/() ]'
PMU_SAMPLES = [(k, pn) for k, (pnames, _, _) in fam.items() for pn in pnames]


def check_event(f, it, home):
	n, code = it.get('EventName'), it.get('ConfigCode', '')
	drv = fam[home][2]
	if set(it) != EVKEYS:
		err('%s: %s: unexpected keys %s (no ScaleUnit: the drivers'
		    ' export raw counts)' % (f, n, sorted(it)))
	if not hexre.match(code):
		err('%s: %s: ConfigCode %r is not lower-case hex' % (f, n, code))
	elif n not in drv:
		err('%s: %s is not an event of the driver' % (f, n))
	elif int(code, 16) != drv[n]:
		err('%s: %s: ConfigCode %s, driver has %#x' % (f, n, code, drv[n]))
	return n


def check_metric(f, it, home):
	n, expr = it.get('MetricName'), it.get('MetricExpr', '')
	for key in ('MetricExpr', 'BriefDescription', 'ScaleUnit'):
		if not it.get(key):
			err('%s: %s lacks %s' % (f, n, key))
	rest = re.sub(TERMS, '', expr)
	if rest:
		err('%s: %s: unexpected term(s) %r in %r' % (f, n, rest, expr))
	for tok, ev in re.findall(r'([A-Za-z_]\w*)@(\w+)@', expr):
		if ev not in defined[(it['Unit'], it['Compat'])]:
			err('%s: %s uses %s, which its event file lacks' % (f, n, ev))
		for ver, _, _, _ in trees:
			for k, pn in PMU_SAMPLES:
				if ask(ver, 'wild', tok, pn) != (k == home):
					err('%s: %s: perf %s %s %s@%s@ to %s' %
					    (f, n, ver, 'resolves' if k != home else
					     'does not resolve', tok, ev, pn))
	return n


for f, items in data.items():
	names = set()
	for it in items:
		u, c = it.get('Unit'), it.get('Compat')
		if not u or not c:
			continue
		if f in want:
			home = want[f]
			n = check_event(f, it, home)
		elif (u, c) in unitfam:
			home = unitfam[(u, c)]
			n = check_metric(f, it, home)
		else:
			err('%s: %s: Unit/Compat %s/%s of no event file' %
			    (f, it.get('MetricName'), u, c))
			continue
		if n in names:
			err('%s: %s defined twice' % (f, n))
		names.add(n)
		for ver, _, _, _ in trees:
			for k, pn in PMU_SAMPLES:
				ident = fam[k][1]
				# perf takes metrics by Compat alone
				hit = ask(ver, 'ident', c, ident)
				if f in want:
					hit = hit and ask(ver, 'alias', pmu_of[(ver, u)], pn)
				if hit != (k == home):
					err('%s: %s: perf %s %s it to %s (identifier %s)' %
					    (f, n, ver, 'attaches' if hit else
					     'does not attach', pn, ident))

# The PCIE pair by name, as the loop above checks every file and PMU:
# Grace's file on Grace's PMU only, Tegra410's on Tegra410's only.
for f, pn, want_hit in (('t241/pcie.json', 'nvidia_pcie_pmu_0', True),
			('t241/pcie.json', 'nvidia_pcie_pmu_0_rc_1', False),
			('t410/pcie.json', 'nvidia_pcie_pmu_0', False),
			('t410/pcie.json', 'nvidia_pcie_pmu_0_rc_1', True)):
	it = data.get(f, [{}])[0]
	ident = {n: fam[k][1] for k, (names, _, _) in fam.items() for n in names}.get(pn)
	if 'Unit' not in it or ident is None:
		err('%s or PMU %s missing for the PCIE check' % (f, pn))
		continue
	for ver, _, _, _ in trees:
		hit = (ask(ver, 'ident', it['Compat'], ident) and
		       ask(ver, 'alias', pmu_of[(ver, it['Unit'])], pn))
		if hit != want_hit:
			err('%s: perf %s %s it to %s' %
			    (f, ver, 'attaches' if hit else 'does not attach', pn))

for e in errors:
	print(e)
nev = sum(len(v) for k, v in data.items() if k in want)
nmet = sum(len(v) for k, v in data.items() if k not in want)
print('perf-json: %d events, %d metrics, %d perf trees, %d errors' %
      (nev, nmet, len(trees), len(errors)))
sys.exit(1 if errors else 0)
EOF
exit $fail
