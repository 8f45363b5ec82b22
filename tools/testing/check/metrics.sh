#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of tools/uncore-metrics/uncore-metrics: the same cases under
# busybox sh (with busybox's awk, sed, ... first in PATH), dash and bash,
# against recorded perf output, a fake sysfs and a fake perf
# (tools/uncore-metrics/fixtures/). Outputs are compared exactly; JSON goes
# through python3 -m json.tool. Every figure of the table view is
# checked against the CSV output (same number, scaled), and the live view
# runs in a detached tmux session (private server) whose screen must show
# the last interval only, and each interval as soon as perf has printed it.
#
# run.sh sources this file and calls check_metrics (one result line);
# executed directly it prints one TAP line per case.

# metrics_table_vs_csv TABLE CSV [KINDS]: every figure of the table view
# is the one of the CSV output of the same input, in the unit of its column
# header, rounded to the decimals of the column; the unit of a column is
# the one the documented rule chooses from its largest figure in the first
# interval that has one above zero, and stays; "-" is an undefined figure,
# a blank cell a figure the PMU does not have. A row is labelled with the
# PMU's name without vendor prefix and "_pmu"; a row "total" ("socket N")
# has the sums of the family's (socket's) figures that add up (bandwidth,
# rates per second), undefined if one is. The table has exactly the
# figures of the kinds of column in KINDS (default "bw rate lat ratio", or
# "all"), in blocks of a family that may be split, no two columns of a
# block of one name (a latency in cycles beside the same in ns is "_cyc").
metrics_table_vs_csv()
{
	python3 - "$1" "$2" "${3:-bw rate lat ratio}" <<'EOF'
import csv
import re
import sys

SUFFIX = re.compile(r'_(gbps|per_cycle|per_sec|cycles|ns|ghz)$')


def header(metric):
    """A column header: the metric without its unit suffix."""
    return SUFFIX.sub('', metric)
PREFIX = {'k': 1e3, 'M': 1e6, 'G': 1e9}
KINDS = sys.argv[3].split()
fig = {}
label = {}
metrics = {}
rows = list(csv.DictReader(open(sys.argv[2])))
# the figures a total row adds: (time, family, socket or None, name, unit)
part = {}
for r in rows:
    fig[(r['time'], r['pmu'], header(r['metric']), r['unit'])] = r['value']
    for sk in (r['socket'], None):
        part.setdefault((r['time'], r['family'], sk, header(r['metric']), r['unit']),
                        []).append(r['value'])
    label[re.sub(r'_pmu_', '_', re.sub(r'^(nvidia|mrvl)_', '', r['pmu']))] = r['pmu']
    metrics.setdefault((r['time'], r['family']), set()).add(r['metric'])


def kinds(r):
    """the kinds of column of a CSV figure, as README gives them"""
    u = r['unit']
    if r['metric'].endswith('_read_data_per_sec'):
        return []   # Grace SCF read data counts: with "all" only
    if u == 'GB/s':
        return ['bw']
    if u.endswith('/s'):
        return ['rate']
    if u == 'req/cycle':
        return ['req']
    if u == 'ns':
        return ['lat']
    if u == 'GHz':
        return ['freq']
    if u == '%':
        return ['ratio']
    ns = re.sub(r'_cycles$', '_ns', r['metric'])
    return ['cycles'] if ns in metrics[(r['time'], r['family'])] else ['lat', 'cycles']


shown = set()
for r in rows:
    if 'all' in KINDS or set(kinds(r)) & set(KINDS):
        shown.add((r['time'], r['pmu'], header(r['metric']), r['unit']))
err = []
seen = set()
fixed = {}


SCALED = {'MB/s': ('GB/s', 1e3), 'kB/s': ('GB/s', 1e6), 'B/s': ('GB/s', 1e9),
          'req/kcycle': ('req/cycle', 1e3), 'req/Mcycle': ('req/cycle', 1e6)}


def base(unit):
    """the CSV unit of a column unit, and the factor from it"""
    if unit in SCALED:
        return SCALED[unit]
    m = re.match(r'^([kMG])(.+/s)$', unit)
    if unit != 'GB/s' and m:
        return m.group(2), 1 / PREFIX[m.group(1)]
    return unit, 1


def rule(b, top):
    """the unit the documented rule gives a column of CSV unit B"""
    if top <= 0:
        return b
    if b == 'GB/s':
        for u, least in (('GB/s', 1), ('MB/s', 1e-3), ('kB/s', 1e-6)):
            if top >= least:
                return u
        return 'B/s'
    if b == 'req/cycle':
        for u, least in (('req/cycle', 1e-3), ('req/kcycle', 1e-4)):
            if top >= least:
                return u
        return 'req/Mcycle'
    if not b.endswith('/s'):
        return b
    for p in ('G', 'M', 'k'):
        if top >= PREFIX[p]:
            return p + b
    return b


def check_block(t, hdr, units, lines):
    names = hdr.split()[1:]
    ends = [m.end() for m in re.finditer(r'\S+', units)]
    if len(set(names)) != len(names):
        err.append('%s: two columns of one name' % hdr)
    # a latency in cycles beside the same in ns: "_cyc", its unit tells
    names = [re.sub(r'_cyc$', '', n) for n in names]
    if len(ends) != len(names):
        err.append('%s: %d column names, %d units' % (hdr, len(names), len(ends)))
        return
    cols = []
    for name, unit in zip(names, units.split()):
        b, mul = base(unit)
        cols.append((name, unit, b, mul, {'req/cycle': 3, 'cycles': 1, 'ns': 1}.get(b, 2), []))
    fam = hdr.split()[0]
    for line in lines:
        lab = line.split()[0]
        if lab == 'socket':
            lab = ' '.join(line.split()[:2])
        pmu = label.get(lab, lab)
        start = len(lab)
        for k, (name, unit, b, mul, d, vals) in enumerate(cols):
            cell = line[start:ends[k]].strip()
            start = ends[k]
            key = (t, pmu, name, b)
            if lab == 'total' or lab.startswith('socket '):
                # the sum of the family's (socket's) figures; undefined if
                # one is, none for what does not add up
                sk = lab.split()[1] if lab != 'total' else None
                fs = part.get((t, fam, sk, name, b), []) if b == 'GB/s' or b.endswith('/s') \
                    else []
                key = (t, lab, name, b)
                if not fs:
                    if cell != '':
                        err.append('%s %s %s [%s]: "%s", no sum' % (t, lab, name, unit, cell))
                elif '' in fs:
                    if cell != '-':
                        err.append('%s %s %s: "%s" for an undefined sum' % (t, lab, name, cell))
                else:
                    fig[key] = repr(sum(float(x) for x in fs))
                    shown.add(key)
                if key not in fig:
                    continue
                # a sum has the column's unit, not one of its own
                v = float(fig[key]) * mul
                if not re.match(r'^\d+\.\d{%d}$' % d, cell) or \
                        abs(float(cell) - v) > 0.5 * 10 ** -d + 1e-6 * abs(v):
                    err.append('%s %s %s: "%s %s", CSV sum %s %s'
                               % (t, lab, name, cell, unit, fig[key], b))
                seen.add(key)
                continue
            if key not in fig:
                if cell != '':
                    err.append('%s %s %s [%s]: "%s", not in the CSV' % (t, pmu, name, unit, cell))
                continue
            if key in seen:
                err.append('%s %s %s [%s]: twice in the table' % key)
            seen.add(key)
            v = fig[key]
            if v == '':
                if cell != '-':
                    err.append('%s %s %s: "%s" for an undefined figure' % (t, pmu, name, cell))
                continue
            vals.append(float(v))
            if not re.match(r'^\d+\.\d{%d}$' % d, cell):
                err.append('%s %s %s: "%s" is not fixed-point with %d decimals'
                           % (t, pmu, name, cell, d))
                continue
            want = float(v) * mul
            if abs(float(cell) - want) > 0.5 * 10 ** -d + 1e-6 * abs(want):
                err.append('%s %s %s: "%s %s", CSV %s %s' % (t, pmu, name, cell, unit, v, b))
    for name, unit, b, mul, d, vals in cols:
        key = (hdr.split()[0], name, b)
        if key not in fixed and max(vals + [0]) > 0:
            fixed[key] = rule(b, max(vals))
        want = fixed.get(key, b)
        if unit != want:
            err.append('%s %s: unit %s, the rule gives %s' % (t, name, unit, want))


lines = open(sys.argv[1]).read().split('\n')
t = None
i = 0
while i < len(lines):
    m = re.match(r'^# (\S+) s, interval ', lines[i])
    if m:
        t = m.group(1)
    elif lines[i] == '' and i + 3 < len(lines) and lines[i + 1] != '' \
            and not lines[i + 1].startswith('#'):
        j = i + 3
        while j < len(lines) and lines[j] != '':
            j += 1
        check_block(t, lines[i + 1], lines[i + 2], lines[i + 3:j])
        i = j
        continue
    i += 1
for key in sorted(shown - seen):
    err.append('%s %s %s [%s]: in the CSV, not in the table' % key)
for key in sorted(seen - shown):
    err.append('%s %s %s [%s]: in the table, not of the kinds %s' % (key + (KINDS,)))
for e in err[:20]:
    print('table: ' + e)
sys.exit(1 if err or not seen else 0)
EOF
}

# metrics_sysfs DIR: the fake /sys/bus/event_source/devices of fixtures/sysfs.txt
metrics_sysfs()
{
	local pmu file content

	while read -r pmu file content; do
		case $pmu in '#'* | '') continue ;; esac
		mkdir -p "$1/$pmu/$(dirname "$file")"
		echo "$content" >"$1/$pmu/$file"
	done <"$MX_FIX/sysfs.txt"
}

# metrics_cpus DIR: a fake /sys/devices/system/cpu, CPUs 0 and 1 on
# package 0, 2 and 3 on package 1
metrics_cpus()
{
	local c

	for c in 0 1 2 3; do
		mkdir -p "$1/cpu$c/topology"
		echo $((c / 2)) >"$1/cpu$c/topology/physical_package_id"
	done
}

# metrics_order_sysfs DIR: PMUs whose names sort differently by text and by
# the values of their numbers (sockets 2 and 10, rc 2 and 10; PEM addresses
# 0x87e000000, 0xa00000000, 0x1000000000), from the fake sysfs in $W/sysfs;
# the PEMs on CPU 0 (package 0), on no CPU, on CPU 2 (package 1)
metrics_order_sysfs()
{
	local p

	mkdir -p "$1"
	for p in nvidia_ucf_pmu_10 nvidia_ucf_pmu_2; do
		cp -r "$W/sysfs/nvidia_ucf_pmu_0" "$1/$p"
	done
	for p in nvidia_pcie_pmu_0_rc_10 nvidia_pcie_pmu_0_rc_2 nvidia_pcie_pmu_10_rc_0 \
		 nvidia_pcie_pmu_2_rc_0; do
		cp -r "$W/sysfs/nvidia_pcie_pmu_0_rc_2" "$1/$p"
	done
	for p in mrvl_pcie_rc_pmu_1000000000 mrvl_pcie_rc_pmu_87e000000 \
		 mrvl_pcie_rc_pmu_a00000000; do
		cp -r "$W/sysfs/mrvl_pcie_rc_pmu_1000000000" "$1/$p"
	done
	echo 0 >"$1/mrvl_pcie_rc_pmu_87e000000/cpumask"
	rm "$1/mrvl_pcie_rc_pmu_a00000000/cpumask"
}

# metrics_odyssey_sysfs DIR: the Odyssey DDR and LLC-TAD PMUs as their
# drivers register them (events/ as event=0x%02x, format/event, a cpumask
# of CPU 2, package 1), two DDR controllers whose names sort differently
# by text and by address value, and a PEM
metrics_odyssey_sysfs()
{
	local p e

	for p in mrvl_ddr_pmu_10002a0000 mrvl_ddr_pmu_1000200000 tad; do
		mkdir -p "$1/$p/events" "$1/$p/format"
		echo 2 >"$1/$p/cpumask"
	done
	for p in mrvl_ddr_pmu_10002a0000 mrvl_ddr_pmu_1000200000; do
		echo config:0-8 >"$1/$p/format/event"
		for e in ddr_cam_read:0x10 ddr_ddr_writes:0x64 ddr_ddr_reads:0x65; do
			echo "event=${e#*:}" >"$1/$p/events/${e%%:*}"
		done
	done
	echo config:0-7 >"$1/tad/format/event"
	for e in tad_alloc_any:0x1c tad_hit_any:0x1f tad_tag_rd:0x20 tad_tot_cycle:0xff; do
		echo "event=${e#*:}" >"$1/tad/events/${e%%:*}"
	done
	cp -r "$W/sysfs/mrvl_pcie_rc_pmu_1000000000" "$1/"
}

# metrics_fake_perf FILE: a perf that records its arguments to
# $FAKE_PERF_ARGS (and, joined, as a line of $FAKE_PERF_LOG if set: one
# line per start) and acts as $FAKE_PERF_MODE says
metrics_fake_perf()
{
	cat >"$1" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" >"$FAKE_PERF_ARGS"
[ -z "$FAKE_PERF_LOG" ] || printf '%s\n' "$*" >>"$FAKE_PERF_LOG"
fd=
prev=
for a in "$@"; do
	[ "$prev" = --log-fd ] && fd=$a
	prev=$a
done
case $FAKE_PERF_MODE in
ok)
	eval "cat \"\$FAKE_PERF_OUT\" >&$fd"
	exit 0 ;;
slow)
	# an interval at a time, FAKE_PERF_DELAY seconds apart, as perf -I does;
	# "sleep" and "wake" go to $FAKE_PERF_MARK (if set) around each pause
	prev=
	while IFS= read -r l; do
		case $l in
		*[0-9],*)
			t=${l%%,*}
			if [ -n "$prev" ] && [ "$t" != "$prev" ]; then
				[ -z "$FAKE_PERF_MARK" ] || echo sleep >>"$FAKE_PERF_MARK"
				sleep "$FAKE_PERF_DELAY"
				[ -z "$FAKE_PERF_MARK" ] || echo wake >>"$FAKE_PERF_MARK"
			fi
			prev=$t ;;
		esac
		eval "printf '%s\\n' \"\$l\" >&$fd"
	done <"$FAKE_PERF_OUT"
	exit 0 ;;
gen)
	# until killed: every FAKE_PERF_DELAY seconds an interval of 1 s with a
	# line for each event asked for (name=PMU.EVENT), the counts 1000000,
	# cycles 2000000000 (2 GHz); its number goes to $FAKE_PERF_MARK (if
	# set). It ends after the interval once $FAKE_PERF_END (if set) exists,
	# or after $FAKE_PERF_N intervals (if set).
	evs=$(printf '%s\n' "$@" | grep -o 'name=[^/]*' | sed 's/^name=//')
	n=0
	while :; do
		eval "sleep \"\$FAKE_PERF_DELAY\" $fd>&-"
		n=$((n + 1))
		out=
		for e in $evs; do
			c=1000000
			case $e in *.cycles) c=2000000000 ;; esac
			out="$out$n.000000000,$c,,$e,1000000000,100.00,,
"
		done
		eval "printf '%s' \"\$out\" >&$fd"
		[ -z "$FAKE_PERF_MARK" ] || echo $n >>"$FAKE_PERF_MARK"
		[ -z "$FAKE_PERF_END" ] || [ ! -e "$FAKE_PERF_END" ] || exit 0
		[ -z "$FAKE_PERF_N" ] || [ $n -lt "$FAKE_PERF_N" ] || exit 0
	done ;;
eperm)
	cat >&2 <<EOT
Error:
Access to performance monitoring and observability operations is limited.
Consider adjusting /proc/sys/kernel/perf_event_paranoid setting to open
access to performance monitoring and observability operations for processes
without CAP_PERFMON, CAP_SYS_PTRACE or CAP_SYS_ADMIN Linux capability.
EOT
	exit 255 ;;
fail)
	echo 'event syntax error: bad term' >&2
	exit 129 ;;
esac
exit 99
EOF
	chmod +x "$1"
}

MX_N=0
MX_FAILED=0

mx_ok()
{
	MX_N=$((MX_N + 1))
	echo "ok $MX_N - $1"
}

mx_not_ok()
{
	MX_N=$((MX_N + 1))
	MX_FAILED=$((MX_FAILED + 1))
	echo "not ok $MX_N - $1"
	shift
	[ $# -eq 0 ] || printf '%s\n' "$@" | head -n 20 | sed 's/^/#   /'
}

# mx_same DESC EXPECTED-FILE ACTUAL-FILE
mx_same()
{
	if cmp -s "$2" "$3"; then
		mx_ok "$1"
	else
		mx_not_ok "$1" "$(diff -u "$2" "$3")"
	fi
}

# mx_eq DESC EXPECTED ACTUAL
mx_eq()
{
	if [ "$2" = "$3" ]; then
		mx_ok "$1"
	else
		mx_not_ok "$1" "expected: '$2'" "got:      '$3'"
	fi
}

# mx_no_exp DESC [FILE]: no figure in exponent notation in FILE ($W/out)
mx_no_exp()
{
	local e

	if e=$(grep -E '[0-9]e[-+]?[0-9]' "${2:-$W/out}"); then
		mx_not_ok "$1: no exponent notation" "$e"
	else
		mx_ok "$1: no exponent notation"
	fi
}

# mx_width DESC WIDTH [FILE]: no line of FILE ($W/out) is longer than WIDTH
mx_width()
{
	local e

	e=$(awk -v w="$2" 'length($0) > w { printf "%d: %d characters\n", NR, length($0) }' \
		"${3:-$W/out}")
	if [ -z "$e" ]; then
		mx_ok "$1: no line over $2 characters"
	else
		mx_not_ok "$1: no line over $2 characters" "$e"
	fi
}

# mx_table_vs_csv DESC CSV [KINDS]: the figures of the table in $W/out are
# those of CSV, of the kinds of column KINDS (default: bw rate lat ratio)
mx_table_vs_csv()
{
	local e

	if e=$(metrics_table_vs_csv "$W/out" "$2" "${3:-}" 2>&1); then
		mx_ok "$1: each figure is the CSV one, scaled and rounded"
	else
		mx_not_ok "$1: each figure is the CSV one, scaled and rounded" "$e"
	fi
}

# mx_units: the units of the rates per second the tool computes (the unit
# argument of its ratio() calls, bandwidth aside), and those of them that,
# with a prefix k, M or G of the table, spell an allocator (kalloc, malloc,
# kfree, mmap): none. The LLC-TAD allocations were "alloc/s", which the
# table printed "Malloc/s"; a unit added here is read with its prefixes.
mx_units()
{
	local u x p e=

	u=$(sed -n 's/.*ratio(p, "[a-z_]*", "\([^" ]*\/s\)".*/\1/p' "$MX_TOOL" |
		LC_ALL=C sort -u | grep -vx 'GB/s' | tr '\n' ' ' | sed 's/ $//')
	for x in $u; do
		for p in k M G; do
			echo "$p$x" | grep -qiE '^[kmg](alloc|free|map)/' && e="$e $p$x"
		done
	done
	mx_eq "rates per second: their units, none read as an allocator with a prefix" \
		"TLP/s data/s hit/s line/s lookup/s req/s|" "$u|${e# }"
}

# mx_run SHELL ARGS...: the tool under SHELL; stdout in $W/out, stderr in
# $W/err (or $MX_RUN_OUT, $MX_RUN_ERR if set), status in $ST. With
# MX_RUN_TIMEOUT=SEC, the tool and its children are killed after SEC s.
mx_run()
{
	local sh=$1 out=${MX_RUN_OUT:-$W/out} err=${MX_RUN_ERR:-$W/err} to=
	shift
	[ -z "${MX_RUN_TIMEOUT:-}" ] || to="$(command -v timeout) $MX_RUN_TIMEOUT"
	ST=0
	# shellcheck disable=SC2086 # $to is a command and its argument, or nothing
	case $sh in
	busybox)
		PATH=$W/bb:$W/bin:$PATH $to "$W/bb/sh" "$MX_TOOL" "$@" >"$out" 2>"$err" || ST=$? ;;
	*)
		PATH=$W/bin:$PATH $to "$sh" "$MX_TOOL" "$@" >"$out" 2>"$err" || ST=$? ;;
	esac
}

# mx_screen [-J]: the screen of the tmux session, trailing blank lines
# dropped; with -J, a line wrapped on the screen is joined (and trailing
# blanks, which -J keeps, are dropped)
mx_screen()
{
	tmux -S "$MX_SOCK" capture-pane -p "$@" -t mx | sed 's/ *$//' |
		awk '{ l[NR] = $0 } END { n = NR; while (n > 0 && l[n] == "") n--
					for (i = 1; i <= n; i++) print l[i] }'
}

# mx_tty SHELL SCREEN ARGS...: the tool under SHELL in a detached tmux
# session of 160x50 (MX_TTY_SIZE=COLSxROWS if set; no status line) on a
# private server, with the environment of the caller; when it has ended,
# the screen (capture-pane, trailing blank lines dropped) goes to SCREEN,
# the same with wrapped lines joined to SCREEN.J, and its status to $ST.
# tmux is required: no skip.
# With MX_PEEK=FILE, the screen is also taken while the fake perf sleeps
# for the first time (FAKE_PERF_MARK), a second after it fell asleep, into
# FILE, and what the mark file held then into FILE.mark.
mx_tty()
{
	local sh=$1 scr=$2 sock path=$W/bin:$PATH i size=${MX_TTY_SIZE:-160x50}
	shift 2

	# A server of its own each time: kill-server returns before the old
	# server is gone, and a new session on its socket could meet it dying
	# ("server exited unexpectedly").
	MX_TTY_N=$((${MX_TTY_N:-0} + 1))
	MX_SOCK=$W/tmux.$MX_TTY_N.sock
	sock=$MX_SOCK

	ST="tmux not installed"
	: >"$scr"
	command -v tmux >/dev/null || return
	case $sh in
	busybox)	path=$W/bb:$path; sh=$W/bb/sh ;;
	*)		sh=$(command -v "$sh") ;;
	esac
	{
		printf 'export PATH=%s\n' "$path"
		for v in UNCORE_METRICS_SYSFS FAKE_PERF_ARGS FAKE_PERF_OUT FAKE_PERF_MODE \
			 FAKE_PERF_DELAY FAKE_PERF_MARK; do
			eval "printf 'export %s=%s\\n' $v \"\${$v:-}\""
		done
	} >"$W/tty.env"
	cat >"$W/tty-run" <<EOF
#!/bin/sh
. '$W/tty.env'
"\$@"
echo \$? >'$W/tty.rc'
tmux -S '$sock' wait-for -S mx-done
exec sleep 60
EOF
	chmod +x "$W/tty-run"
	rm -f "$W/tty.rc"
	ST=timeout
	printf 'set -g status off\n' >"$W/tmux.conf"
	if ! tmux -S "$sock" -f "$W/tmux.conf" new-session -d -s mx -x "${size%x*}" \
		-y "${size#*x}" "$W/tty-run" "$sh" "$MX_TOOL" "$@"; then
		ST="tmux failed"
		return
	fi
	if [ -n "${MX_PEEK:-}" ]; then
		i=0
		while [ $i -lt 100 ] && ! grep -q sleep "$FAKE_PERF_MARK" 2>/dev/null; do
			sleep 0.1
			i=$((i + 1))
		done
		sleep 1
		mx_screen >"$MX_PEEK"
		cat "$FAKE_PERF_MARK" >"$MX_PEEK.mark" 2>/dev/null
	fi
	timeout 30 tmux -S "$sock" wait-for mx-done
	mx_screen >"$scr"
	mx_screen -J >"$scr.J"
	tmux -S "$sock" kill-server
	[ ! -s "$W/tty.rc" ] || ST=$(cat "$W/tty.rc")
}

# mx_nowrap DESC SCREEN: no line of the terminal wrapped (SCREEN, as
# mx_tty took it, is the same with wrapped lines joined: SCREEN.J)
mx_nowrap()
{
	if cmp -s "$2" "$2.J"; then
		mx_ok "$1: no line wrapped"
	else
		mx_not_ok "$1: no line wrapped" "$(diff "$2" "$2.J")"
	fi
}

# mx_labels FILE: the row labels of PMUs in FILE, a table or screen, sorted
mx_labels()
{
	awk '$1 ~ /_[0-9a-f]+$/ { print $1 }' "$1" | sort -u
}

# mx_reach SHELL DESC CSV SCREEN ARGS...: every PMU of CSV (the tool's CSV
# of the recording shown) is on SCREEN, a screen of MX_TTY_SIZE, or on the
# screen of the same run (ARGS) with -f and the families SCREEN says are
# not shown; the screens of these runs fit, unwrapped, too
mx_reach()
{
	local s=$1 d=$2 csv=$3 scr=$4 fams f e=
	shift 4

	awk -F, 'NR > 1 { p = $3; sub(/^(nvidia|mrvl)_/, "", p); sub(/_pmu_/, "_", p)
			  print p }' "$csv" | sort -u >"$W/reach.want"
	mx_labels "$scr" >"$W/reach.got"
	fams=$(sed -n 's/^(not shown: \([a-z0-9,-]*\); see them with -f)$/\1/p' "$scr")
	for f in $(echo "$fams" | tr ',' ' '); do
		mx_tty "$s" "$W/reach.screen" "$@" -f "$f"
		[ "$ST" = 0 ] || e="$e -f $f: status $ST;"
		awk -v w="${MX_TTY_SIZE%x*}" 'length($0) > w { x = 1 } END { exit x }' \
			"$W/reach.screen" || e="$e -f $f: a line too long;"
		cmp -s "$W/reach.screen" "$W/reach.screen.J" || e="$e -f $f: a line wrapped;"
		grep -q '^(not shown' "$W/reach.screen" && e="$e -f $f: cut again;"
		mx_labels "$W/reach.screen" >>"$W/reach.got"
	done
	sort -u "$W/reach.got" -o "$W/reach.got"
	if [ -n "$fams" ] && [ -z "$e" ] && cmp -s "$W/reach.want" "$W/reach.got"; then
		mx_ok "$d: every PMU on the screen, or with -f $fams"
	else
		mx_not_ok "$d: every PMU on the screen, or with -f ${fams:-(none cut)}" "$e" \
			"$(diff "$W/reach.want" "$W/reach.got")"
	fi
}

# metrics_cases SHELL: every case under one shell
metrics_cases()
{
	local s=$1 e p cmd t0 t1

	# ---- recorded perf output ----
	mx_run "$s" --input "$MX_FIX/perf-all.csv"
	mx_same "$s: table from perf-all.csv" "$MX_FIX/all.table" "$W/out"
	mx_eq "$s: one warning for the event perf did not count" \
		"uncore-metrics: warning: nvidia_ucf_pmu_1/slc_bytes_rd: <not counted>" \
		"$(cat "$W/err")"
	mx_no_exp "$s: table from perf-all.csv"
	mx_table_vs_csv "$s: table from perf-all.csv" "$MX_FIX/all.csv"
	mx_width "$s: table from perf-all.csv" 80
	# a recording cut short: its last line cut in the PMU's name, or in
	# the event's; a line of an event the tool does not compute from
	head -n 20 "$MX_FIX/perf-all.csv" >"$W/cut.csv"
	sed -n 21p "$MX_FIX/perf-all.csv" | cut -c1-40 >>"$W/cut.csv"
	mx_run "$s" --input "$W/cut.csv" --csv
	mx_eq "$s: a line cut short: exit 1, one message naming it" \
		"1:uncore-metrics: line 21 is cut short: 1.000000000,8000000000,,nvidia_pcie_" \
		"$ST:$(grep -v 'not counted' "$W/err")"
	head -n 20 "$MX_FIX/perf-all.csv" >"$W/cut.csv"
	e=nvidia_pcie_pmu_0_rc_1/rd_by/
	echo "1.000000000,8000000000,,$e,1000000000,100.00,," >>"$W/cut.csv"
	echo "1.000000000,7,,$e,1000000000,100.00,," >>"$W/cut.csv"
	mx_run "$s" --input "$W/cut.csv" --csv
	w="uncore-metrics: warning: $e: not an event uncore-metrics computes from, left out"
	mx_eq "$s: an event it does not compute from: one warning, exit 0" \
		"0:$w" "$ST:$(grep -v 'not counted' "$W/err")"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --csv --json
	w="uncore-metrics: --csv and --json exclude each other"
	mx_eq "$s: --csv --json: usage error" "2:$w Try 'uncore-metrics --help'." \
		"$ST:$(tr '\n' ' ' <"$W/err" | sed 's/ $//')"
	mx_run "$s" --input "$MX_FIX/perf-all.csv"
	mx_eq "$s: totals: UCF of two sockets, undefined where a PMU's figure is" \
		"total - 4.10 2.00 1000.00|total 13.65 6.83 3.33 1666.67|" \
		"$(awk '/^(socket|total)/ { printf "%s|", $0 }' "$W/out" | tr -s ' ')"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --columns all -f pem
	mx_eq "$s: totals: none of one PMU" "" "$(grep -E '^(socket|total)' "$W/out")"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --wide
	mx_same "$s: --wide: every column, a block per family" "$MX_FIX/all-wide.table" "$W/out"
	mx_table_vs_csv "$s: --wide" "$MX_FIX/all.csv" all
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --columns req,freq
	mx_table_vs_csv "$s: --columns req,freq" "$MX_FIX/all.csv" "req freq"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --columns bw,req
	mx_table_vs_csv "$s: --columns bw,req" "$MX_FIX/all.csv" "bw req"
	mx_width "$s: --columns bw,req" 80
	e="slc_read_bw slc_write_bw mem_read_bw mem_write_bw slc_read_req"
	mx_eq "$s: --columns bw,req: UCF goes on in a second block at 80 columns" \
		"$e | slc_write_req mem_read_req mem_write_req" \
		"$(awk '/^# / { n++ } n == 1 && /^ucf / { $1 = ""; printf "%s%s", s, substr($0, 2)
			s = " | " }' "$W/out")"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --columns lat,cycles -f pem,nvclink
	e="nvclink in_rd_lat_cyc in_rd_lat out_rd_lat_cyc out_rd_lat|pem ib_read_lat ob_read_lat"
	mx_eq "$s: --columns lat,cycles: latency in cycles and ns, PEM in cycles once" "$e" \
		"$(awk '/^# / { n++ }
			n == 1 && /^(nvclink|pem) / { printf "%s%s", s, $0; s = "|" }' "$W/out" |
			tr -s ' ')"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --columns bw,nothing
	e="uncore-metrics: unknown kind of column 'nothing'"
	mx_eq "$s: --columns: an unknown kind" \
		"2:$e (have: bw rate lat cycles req freq ratio all)" \
		"$ST:$(head -n 1 "$W/err")"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --redraw
	mx_eq "$s: --redraw: home and clear before each interval" 2 \
		"$(grep -c "$(printf '^\033\\[H\033\\[2J# ')" "$W/out")"
	sed "s/$(printf '\033')\\[H$(printf '\033')\\[2J//" "$W/out" >"$W/got"
	mx_same "$s: --redraw: the same tables otherwise" "$MX_FIX/all.table" "$W/got"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --long
	mx_same "$s: --long: a line per PMU and metric" "$MX_FIX/all.long" "$W/out"

	# ---- the table view: units per column, fixed point ----
	mx_run "$s" --input "$MX_FIX/perf-scale.csv" --wide
	mx_same "$s: scale: table (--wide)" "$MX_FIX/scale.table" "$W/out"
	mx_no_exp "$s: scale: table"
	mx_table_vs_csv "$s: scale: table" "$MX_FIX/scale.csv" all
	mx_eq "$s: scale: bandwidth in GB/s, MB/s or kB/s from 1 of it, else B/s" \
		"MB/s GB/s kB/s kB/s GB/s B/s" \
		"$(awk '/^(pcie|pcie-tgt|pem) / { getline; printf "%s%s %s", s, $1, $2; s = " " }' \
			"$W/out")"
	mx_eq "$s: scale: from 1 kB/s in kB/s (999999 B/s rounds to 1000.00)" \
		"1000.00 1.00 | 4.00 0.00" \
		"$(awk '$1 ~ /^pcie_tgt_/ { a = $2 " " $3 }
			$1 ~ /^pcie_rc_/ { b = b " " $3 } END { print a " |" b }' "$W/out")"
	mx_eq "$s: scale: req/cycle, req/kcycle below 0.001, req/Mcycle below 0.0001" \
		"req/Mcycle req/Mcycle 1.000 2.000 | req/kcycle req/kcycle 0.500 0.100" \
		"$(awk '/^(pcie|pcie-tgt) / { getline; u = $3 " " $4; getline
			printf "%s%s %s %s", s, u, $4, $5; s = " | " }' "$W/out")"
	mx_eq "$s: scale: rates take k, M or G by the largest" "TLP/s GTLP/s" \
		"$(awk '/^pem / { getline; print $3, $4 }' "$W/out")"
	mx_eq "$s: scale: too small for the precision is 0.00, undefined -" \
		"0.00 0.00 0.001 | 0.00 0.00 1.00 0.00 - -" \
		"$(awk '$1 == "pcie_0_rc_1" { a = $2 " " $3 " " $4 }
			$1 == "pcie_rc_2000" { $1 = ""; b = $0 }
			END { print a " |" b }' "$W/out")"
	mx_run "$s" --input "$MX_FIX/perf-scale.csv"
	mx_table_vs_csv "$s: scale: the default table" "$MX_FIX/scale.csv"
	mx_run "$s" --input "$MX_FIX/perf-scale.csv" --csv
	mx_same "$s: scale: --csv" "$MX_FIX/scale.csv" "$W/out"
	# read_bw 875 MB/s in all, then 1.175 and 2.075 GB/s: MB/s throughout;
	# write_bw 0, then 3 MB/s, then 3.001 GB/s: MB/s from the second
	mx_run "$s" --input "$MX_FIX/perf-units.csv"
	mx_same "$s: units: table of three intervals" "$MX_FIX/units.table" "$W/out"
	mx_eq "$s: units: a column keeps the unit of its first figure above zero" \
		"MB/s GB/s | MB/s MB/s | MB/s MB/s" \
		"$(awk '/^pcie / { getline; printf "%s%s %s", s, $1, $2; s = " | " }' "$W/out")"
	mx_eq "$s: units: 1 GB/s and 2 GB/s in MB/s, 3 GB/s too" \
		"1000.00 2.00 | 2000.00 3000.00" \
		"$(awk '$1 == "pcie_0_rc_10" && ++n > 1 {
			printf "%s%s %s", s, $2, $3; s = " | " }' "$W/out")"
	# sockets 0 and 10 have two PMUs each, socket 2 one; rc_2 of socket 2
	# did not count its reads in the third interval
	mx_eq "$s: totals: a row per socket of several PMUs, then the total" \
		"socket 0 2100.00 3000.00|socket 10 250.00 1.00|total - 3001.00" \
		"$(awk '/^# 3\./ { n = 1 }
			n && /^(socket|total)/ { printf "%s%s", s, $0; s = "|" }' "$W/out" |
			tr -s ' ')"
	e="socket 0 600.00 0.00|socket 10 250.00 0.00|total 875.00 0.00"
	mx_eq "$s: totals: in bandwidth columns only, in each interval" \
		"$e|socket 0 1100.00 2.00" \
		"$(awk '/^(socket|total)/ { printf "%s%s", s, $0; s = "|" }' "$W/out" | tr -s ' ' |
			cut -d '|' -f 1-4)"
	mx_run "$s" --input "$MX_FIX/perf-units.csv" --csv
	mx_same "$s: units: --csv" "$MX_FIX/units.csv" "$W/out"
	mx_run "$s" --input "$MX_FIX/perf-units.csv"
	mx_table_vs_csv "$s: units: table" "$MX_FIX/units.csv"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --csv
	mx_same "$s: --csv" "$MX_FIX/all.csv" "$W/out"
	mx_eq "$s: --input --csv: no wall clock, unix_time empty" "unix_time|0" \
		"$(awk -F, 'NR == 1 { printf "%s|", $9 } NR > 1 && (NF != 9 || $9 != "") { n++ }
			END { print n + 0 }' "$W/out")"
	mx_run "$s" --input - --csv <"$MX_FIX/perf-all.csv"
	mx_same "$s: --input - reads stdin" "$MX_FIX/all.csv" "$W/out"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --json
	mx_same "$s: --json" "$MX_FIX/all.json" "$W/out"
	if e=$(python3 -m json.tool "$W/out" 2>&1 >/dev/null); then
		mx_ok "$s: --json output parses (python3 -m json.tool)"
	else
		mx_not_ok "$s: --json output parses (python3 -m json.tool)" "$e"
	fi
	mx_run "$s" --input "$MX_FIX/perf-raw.csv" --csv
	mx_same "$s: raw event strings split by -x, commas" "$MX_FIX/raw.csv" "$W/out"
	mx_same "$s: warnings for scaled and unsupported events" "$MX_FIX/raw.err" "$W/err"
	mx_run "$s" --input "$MX_FIX/perf-raw.ssv" --csv
	mx_same "$s: -x';' recording" "$MX_FIX/raw.csv" "$W/out"
	# recorded as perf's glob gives them: rc_10 before rc_2, socket 10 before 2
	mx_run "$s" --input "$MX_FIX/perf-units.csv" --csv
	e="nvidia_pcie_pmu_0_rc_2 nvidia_pcie_pmu_0_rc_10 nvidia_pcie_pmu_2_rc_0"
	mx_eq "$s: --input: PMUs in numeric order, whatever the recording's" \
		"$e nvidia_pcie_pmu_10_rc_0 nvidia_pcie_pmu_10_rc_1" \
		"$(awk -F, '$1 == "1.000000000" { print $3 }' "$W/out" | uniq | tr '\n' ' ' |
			sed 's/ $//')"
	mx_run "$s" --input "$MX_FIX/perf-all.csv" --csv --family ucf,pem --socket 1
	awk -F, 'NR == 1 || ($4 == "ucf" && $5 == 1) || $4 == "pem"' "$MX_FIX/all.csv" \
		>"$W/exp"
	mx_same "$s: --family ucf,pem --socket 1 on a recording" "$W/exp" "$W/out"

	# ---- Grace (Tegra241): SCF and the four memory traffic PMUs ----
	mx_run "$s" --input "$MX_FIX/perf-grace.csv"
	mx_same "$s: Grace: table from perf-grace.csv" "$MX_FIX/grace.table" "$W/out"
	mx_no_exp "$s: Grace: table"
	mx_table_vs_csv "$s: Grace: table" "$MX_FIX/grace.csv"
	mx_width "$s: Grace: table" 80
	mx_eq "$s: Grace: SCF and PCIE over 80 columns go on in a second block" \
		"scf scf grace-pcie grace-pcie pcie nvlink-c2c0 nvlink-c2c1 cnvlink" \
		"$(awk '/^# / { n++ }
			n == 1 && p == "" && /^[a-z]/ { printf "%s%s", s, $1; s = " " }
			{ p = $0 }' "$W/out")"
	mx_run "$s" --input "$MX_FIX/perf-grace.csv" --wide
	mx_table_vs_csv "$s: Grace: --wide" "$MX_FIX/grace.csv" all
	mx_eq "$s: Grace: --wide: a block per family" \
		"scf grace-pcie pcie nvlink-c2c0 nvlink-c2c1 cnvlink" \
		"$(awk '/^# / { n++ }
			n == 1 && p == "" && /^[a-z]/ { printf "%s%s", s, $1; s = " " }
			{ p = $0 }' "$W/out")"
	mx_same "$s: Grace: warnings for an uncounted and a scaled event" \
		"$MX_FIX/grace.err" "$W/err"
	mx_run "$s" --input "$MX_FIX/perf-grace.csv" --csv
	mx_same "$s: Grace: --csv" "$MX_FIX/grace.csv" "$W/out"
	mx_run "$s" --input "$MX_FIX/perf-grace.csv" --json
	mx_same "$s: Grace: --json" "$MX_FIX/grace.json" "$W/out"
	if e=$(python3 -m json.tool "$W/out" 2>&1 >/dev/null); then
		mx_ok "$s: Grace: --json output parses"
	else
		mx_not_ok "$s: Grace: --json output parses" "$e"
	fi
	# nvidia_pcie_pmu_0 is Grace's, nvidia_pcie_pmu_0_rc_1 Tegra410's
	mx_run "$s" --input "$MX_FIX/perf-grace.csv" --csv --family grace-pcie
	awk -F, 'NR == 1 || $4 == "grace-pcie"' "$MX_FIX/grace.csv" >"$W/exp"
	mx_same "$s: Grace: --family grace-pcie leaves out Tegra410 PCIE" "$W/exp" "$W/out"
	mx_eq "$s: Grace: grace-pcie is nvidia_pcie_pmu_0 only" "nvidia_pcie_pmu_0" \
		"$(awk -F, 'NR > 1 { print $3 }' "$W/out" | sort -u | tr '\n' ' ' | sed 's/ $//')"
	mx_run "$s" --input "$MX_FIX/perf-grace.csv" --csv --family pcie
	mx_eq "$s: Grace: --family pcie is nvidia_pcie_pmu_0_rc_1 only" \
		"nvidia_pcie_pmu_0_rc_1" \
		"$(awk -F, 'NR > 1 { print $3 }' "$W/out" | sort -u | tr '\n' ' ' | sed 's/ $//')"
	mx_run "$s" --input "$MX_FIX/perf-grace.csv" --csv -f scf,cnvlink -s 1
	mx_eq "$s: Grace: --family scf,cnvlink --socket 1" "nvidia_scf_pmu_1" \
		"$(awk -F, 'NR > 1 { print $3 }' "$W/out" | sort -u | tr '\n' ' ' | sed 's/ $//')"

	# ---- Marvell Odyssey: DDR (free-running reads, writes), LLC-TAD ----
	mx_run "$s" --input "$MX_FIX/perf-odyssey.csv"
	mx_same "$s: Odyssey: table from perf-odyssey.csv" "$MX_FIX/odyssey.table" "$W/out"
	mx_no_exp "$s: Odyssey: table"
	mx_table_vs_csv "$s: Odyssey: table" "$MX_FIX/odyssey.csv"
	mx_width "$s: Odyssey: table" 80
	mx_same "$s: Odyssey: warnings for an uncounted and a scaled event" \
		"$MX_FIX/odyssey.err" "$W/err"
	mx_eq "$s: Odyssey: DDR rows by address value, a total row; TAD's hit ratio" \
		"ddr_ff000000 ddr_1000200000 ddr_10002a0000 total|hit_ratio lookup hit alloc" \
		"$(awk '/^# / { n++ } n == 1 && /^(ddr_|total)/ { printf "%s%s", s, $1; s = " " }
			n == 1 && /^tad / && t == "" { t = $2 " " $3 " " $4 " " $5 }
			END { print "|" t }' "$W/out")"
	mx_eq "$s: Odyssey: TAD's units: millions of lookups, hits and lines allocated a second" \
		"% Mlookup/s Mhit/s Mline/s" \
		"$(awk '/^tad / { getline; $1 = $1; print; exit }' "$W/out")"
	mx_run "$s" --input "$MX_FIX/perf-odyssey.csv" --columns rate
	mx_eq "$s: Odyssey: --columns rate leaves out the hit ratio" "lookup hit alloc" \
		"$(awk '/^tad / { print $2, $3, $4; exit }' "$W/out")"
	mx_run "$s" --input "$MX_FIX/perf-odyssey.csv" --csv
	mx_same "$s: Odyssey: --csv" "$MX_FIX/odyssey.csv" "$W/out"
	# the formulas, from the counts of the recording: reads (writes) per
	# second; the hit ratio tad_hit_any * 100 / tad_tag_rd, undefined
	# without lookups; 2^64 - 1 reads in 2 s
	mx_eq "$s: Odyssey: each figure from its counts" \
		"3e+09 1e+09 500000 - 75 8000000 6000000 1500000 9.22337204e+18 320 - 1.5" \
		"$(awk -F, '{ k[$1 " " $3 " " $6] = ($7 == "" ? "-" : $7) }
		END {
			a = "1.000000000 mrvl_ddr_pmu_1000200000 "
			b = "1.000000000 mrvl_ddr_pmu_10002a0000 "
			c = "3.000000000 mrvl_ddr_pmu_1000200000 "
			d = "3.000000000 mrvl_ddr_pmu_10002a0000 "
			printf "%s %s %s %s ", k[a "read_per_sec"], k[a "write_per_sec"],
				k[b "read_per_sec"], k[b "write_per_sec"]
			printf "%s %s %s %s ", k["1.000000000 tad hit_ratio"],
				k["1.000000000 tad lookup_per_sec"],
				k["1.000000000 tad hit_per_sec"], k["1.000000000 tad alloc_per_sec"]
			printf "%s %s %s %s", k[c "read_per_sec"], k[d "write_per_sec"],
				k["3.000000000 tad hit_ratio"], k["3.000000000 tad alloc_per_sec"]
		}' "$W/out")"
	mx_run "$s" --input "$MX_FIX/perf-odyssey.csv" --json
	mx_same "$s: Odyssey: --json" "$MX_FIX/odyssey.json" "$W/out"
	if e=$(python3 -m json.tool "$W/out" 2>&1 >/dev/null); then
		mx_ok "$s: Odyssey: --json output parses"
	else
		mx_not_ok "$s: Odyssey: --json output parses" "$e"
	fi
	mx_run "$s" --input "$MX_FIX/perf-odyssey.csv" --csv --family tad --socket 1
	awk -F, 'NR == 1 || $4 == "tad"' "$MX_FIX/odyssey.csv" >"$W/exp"
	mx_same "$s: Odyssey: --family tad, not filtered by --socket" "$W/exp" "$W/out"
	mx_run "$s" --input "$MX_FIX/perf-odyssey.csv" --csv --family ddr
	awk -F, 'NR == 1 || $4 == "ddr"' "$MX_FIX/odyssey.csv" >"$W/exp"
	mx_same "$s: Odyssey: --family ddr" "$W/exp" "$W/out"

	UNCORE_METRICS_SYSFS=$W/odyssey UNCORE_METRICS_CPU_SYSFS=$W/cpu mx_run "$s" --list
	mx_eq "$s: Odyssey: --list: DDR by address value, tad, no socket in the names" \
		"pem:1:mrvl_pcie_rc_pmu_1000000000 ddr:1:mrvl_ddr_pmu_1000200000\
 ddr:1:mrvl_ddr_pmu_10002a0000 tad:1:tad" \
		"$(awk 'NR > 1 { printf "%s%s:%s:%s", s, $1, $2, $3; s = " " }' "$W/out")"
	UNCORE_METRICS_SYSFS=$W/odyssey mx_run "$s" --dry-run -f ddr,tad -I 500
	e="perf stat -a -x, --log-fd 3 -I 500"
	for p in mrvl_ddr_pmu_1000200000 mrvl_ddr_pmu_10002a0000; do
		e="$e -e '{$p/event=0x65,name=$p.ddr_ddr_reads/,"
		e="$e$p/event=0x64,name=$p.ddr_ddr_writes/}'"
	done
	e="$e -e '{tad/event=0x20,name=tad.tad_tag_rd/,tad/event=0x1f,name=tad.tad_hit_any/"
	e="$e,tad/event=0x1c,name=tad.tad_alloc_any/}'"
	mx_eq "$s: Odyssey: --dry-run: the free-running counters, the TAD events, a group each" \
		"0:$e" "$ST:$(cat "$W/out")"

	mx_run "$s" --input "$W/nothing.csv"
	mx_eq "$s: --input of a missing file" "1:uncore-metrics: cannot read $W/nothing.csv" \
		"$ST:$(cat "$W/err")"
	mx_run "$s" --input "$MX_FIX/sysfs.txt"
	e="uncore-metrics: no 'perf stat -x, -I' lines of supported PMUs"
	mx_eq "$s: --input without perf data" "1:$e in $MX_FIX/sysfs.txt" "$ST:$(cat "$W/err")"

	# ---- the perf command built from the fake sysfs ----
	export UNCORE_METRICS_SYSFS=$W/sysfs UNCORE_METRICS_CPU_SYSFS=$W/cpu
	mx_run "$s" --dry-run
	mx_same "$s: --dry-run, every family" "$MX_FIX/dry-run.txt" "$W/out"
	e="uncore-metrics: warning: nvidia_cmem_latency_pmu_1/rd_req:"
	mx_eq "$s: an events/ term missing from format/ is skipped with a warning" \
		"$e term 'mc' not in format/, skipped" "$(cat "$W/err")"
	mx_run "$s" --dry-run -f nvlink-c2c,cmem -s 0 -I 500 -n 3 --perf /opt/perf -- sleep 1
	cmd="/opt/perf stat -a -x, --log-fd 3 -I 500 --interval-count 3 -e"
	cmd="$cmd '{nvidia_nvlink_c2c_pmu_0/event=0x0,name=nvidia_nvlink_c2c_pmu_0.cycles/"
	p=nvidia_nvlink_c2c_pmu_0
	for e in in_rd_req:2 in_rd_cum_outs:1 in_wr_req:4 in_wr_cum_outs:3 out_rd_req:6 \
		 out_rd_cum_outs:5 out_wr_req:8 out_wr_cum_outs:7; do
		cmd="$cmd,$p/event=0x${e#*:},name=$p.${e%:*}/"
	done
	p=nvidia_cmem_latency_pmu_0
	cmd="$cmd}' -e '{$p/event=0x1,name=$p.rd_req/,$p/event=0x2,name=$p.rd_cum_outs/"
	cmd="$cmd,$p/event=0x0,name=$p.cycles/}'"
	cmd="$cmd -- sh -c '\"\$@\"; s=\$?; sleep 0.3; exit \$s' sh sleep 1"
	mx_eq "$s: --dry-run with families, socket, interval, count, command" "0:$cmd" \
		"$ST:$(cat "$W/out")"
	mx_run "$s" --dry-run -f grace-pcie,cnvlink
	cmd="perf stat -a -x, --log-fd 3 -I 1000"
	for p in nvidia_pcie_pmu_0 nvidia_cnvlink_pmu_0; do
		g=
		for e in rd_req_loc:6 rd_cum_outs_loc:c rd_req_rem:7 rd_cum_outs_rem:d \
			 cycles:100000000; do
			g="$g${g:+,}$p/event=0x${e#*:},name=$p.${e%:*}/"
		done
		cmd="$cmd -e '{$g}'"
		g=
		for e in rd_bytes_loc:0 rd_bytes_rem:1 wr_bytes_loc:2 wr_bytes_rem:3; do
			g="$g${g:+,}$p/event=0x${e#*:},name=$p.${e%:*}/"
		done
		cmd="$cmd -e '{$g}'"
	done
	mx_eq "$s: --dry-run -f grace-pcie,cnvlink: two groups each, no Tegra410 PCIE" \
		"0:$cmd" "$ST:$(cat "$W/out")"
	mx_run "$s" --dry-run -f scf
	p=nvidia_scf_pmu_0
	cmd="perf stat -a -x, --log-fd 3 -I 1000 -e '{$p/event=0x1a6,name=$p.cmem_rd_access/"
	cmd="$cmd,$p/event=0x1a7,name=$p.cmem_rd_outstanding/"
	cmd="$cmd,$p/event=0x1a4,name=$p.remote_socket_rd_access/"
	cmd="$cmd,$p/event=0x1a3,name=$p.remote_socket_rd_outstanding/"
	cmd="$cmd,$p/event=0x100000000,name=$p.cycles/}'"
	cmd="$cmd -e '{$p/event=0x1a5,name=$p.cmem_rd_data/"
	cmd="$cmd,$p/event=0x1db,name=$p.cmem_wr_total_bytes/"
	cmd="$cmd,$p/event=0x1a2,name=$p.remote_socket_rd_data/"
	cmd="$cmd,$p/event=0x1a1,name=$p.remote_socket_wr_total_bytes/}'"
	mx_eq "$s: --dry-run -f scf: latency with cycles, then data" "0:$cmd" \
		"$ST:$(cat "$W/out")"
	mx_run "$s" --dry-run -f pcie
	mx_eq "$s: --dry-run -f pcie: Tegra410 PCIE only" "nvidia_pcie_pmu_0_rc_2" \
		"$(grep -o 'name=nvidia_pcie_pmu_[0-9a-z_]*' "$W/out" | sed 's/name=//' | sort -u)"
	mx_run "$s" --dry-run -f cmem -I 300 -d 1
	mx_eq "$s: --duration 1 at 300 ms is 4 intervals" "--interval-count 4" \
		"$(grep -o -- '--interval-count [0-9]*' "$W/out")"
	mx_run "$s" --list
	mx_same "$s: --list" "$MX_FIX/list.txt" "$W/out"
	UNCORE_METRICS_SYSFS=$W/order mx_run "$s" --list
	mx_same "$s: --list: numeric order, a header, the socket of a PEM's CPU" \
		"$MX_FIX/list-order.txt" "$W/out"
	UNCORE_METRICS_SYSFS=$W/order mx_run "$s" --dry-run
	mx_eq "$s: --dry-run: the PMUs in numeric order" \
		"$(awk 'NR > 1 { print $3 }' "$MX_FIX/list-order.txt" | tr '\n' ' ')" \
		"$(grep -o 'name=[a-z0-9_]*' "$W/out" | sed 's/^name=//' | uniq | tr '\n' ' ')"

	# ---- errors ----
	UNCORE_METRICS_SYSFS=$W/empty mx_run "$s" --family cmem
	e="uncore-metrics: no cmem PMU (nvidia_cmem_latency_pmu_*) in $W/empty;"
	mx_eq "$s: absent family" "1:$e is the nvidia_t410_cmem_latency_pmu module loaded?" \
		"$ST:$(cat "$W/err")"
	UNCORE_METRICS_SYSFS=$W/empty mx_run "$s"
	e="uncore-metrics: no NVIDIA Tegra410, NVIDIA Grace or Marvell Odyssey uncore PMU in"
	mx_eq "$s: no PMU at all" "1:$e $W/empty; are the modules loaded?" \
		"$ST:$(tr '\n' ' ' <"$W/err" | sed 's/ $//')"
	UNCORE_METRICS_SYSFS=$W/t410pcie mx_run "$s" --family grace-pcie
	e="uncore-metrics: no grace-pcie PMU (nvidia_pcie_pmu_<socket>, no _rc_) in"
	mx_eq "$s: Tegra410 PCIE is no Grace PCIE" \
		"1:$e $W/t410pcie; is the nvidia_t241_pmu module loaded?" "$ST:$(cat "$W/err")"
	UNCORE_METRICS_SYSFS=$W/gracepcie mx_run "$s" --family pcie
	e="uncore-metrics: no pcie PMU (nvidia_pcie_pmu_*_rc_*) in"
	mx_eq "$s: Grace PCIE is no Tegra410 PCIE" \
		"1:$e $W/gracepcie; is the nvidia_t410_pcie_pmu module loaded?" \
		"$ST:$(cat "$W/err")"
	mx_run "$s" -f pcie-tgt -s 0
	mx_eq "$s: family absent on the socket asked for" \
		"1:uncore-metrics: no pcie-tgt PMU on socket 0" "$ST:$(cat "$W/err")"
	mx_run "$s" --bogus
	mx_eq "$s: unknown option" \
		"2:uncore-metrics: unknown option '--bogus' Try 'uncore-metrics --help'." \
		"$ST:$(tr '\n' ' ' <"$W/err" | sed 's/ $//')"
	# the Prometheus textfile is the exporter daemon's now: the option went
	rm -f "$W/x.prom"
	mx_run "$s" --prometheus "$W/x.prom"
	e="uncore-metrics: unknown option '--prometheus' Try 'uncore-metrics --help'."
	mx_eq "$s: --prometheus FILE: an unknown option, nothing written" "2:$e||no" \
		"$ST:$(tr '\n' ' ' <"$W/err" | sed 's/ $//')|$(cat "$W/out")|$(
		[ -e "$W/x.prom" ] && echo yes || echo no)"
	mx_run "$s" -f ucf,gpu
	mx_eq "$s: unknown family" "2:uncore-metrics: unknown family 'gpu'" \
		"$ST:$(head -n 1 "$W/err" | sed 's/ (have.*//')"
	mx_run "$s" -I 5
	mx_eq "$s: interval below 10 ms" \
		"2:uncore-metrics: interval 5 ms is below perf's 10 ms minimum" \
		"$ST:$(head -n 1 "$W/err")"
	mx_run "$s" -n
	mx_eq "$s: option without its argument" "2:uncore-metrics: option -n needs an argument" \
		"$ST:$(head -n 1 "$W/err")"
	mx_run "$s" --perf no-such-perf-binary -n 1
	e="uncore-metrics: perf not found in PATH"
	mx_eq "$s: perf missing" "1:$e (install linux-perf or your distribution's perf)" \
		"$ST:$(cat "$W/err")"
	mx_run "$s" --help
	mx_eq "$s: --help" "0:Usage: uncore-metrics [OPTIONS] [-- COMMAND [ARG...]]" \
		"$ST:$(head -n 1 "$W/out")"

	# ---- live runs through the fake perf ----
	export FAKE_PERF_ARGS=$W/args FAKE_PERF_OUT=$MX_FIX/perf-all.csv
	FAKE_PERF_MODE=ok mx_run "$s" --record "$W/rec.csv"
	mx_same "$s: live: table as from the recording" "$MX_FIX/all.table" "$W/out"
	mx_same "$s: live: --record saves perf's output" "$MX_FIX/perf-all.csv" "$W/rec.csv"
	tr -d "'" <"$MX_FIX/dry-run.txt" | sed 's/^perf //' >"$W/exp"
	{ tr '\n' ' ' <"$W/args" | sed 's/ $//'; echo; } >"$W/got"
	mx_same "$s: live: perf got the --dry-run arguments" "$W/exp" "$W/got"
	# CSV: the wall clock of each interval appended, the start of perf plus
	# its timestamp (whole seconds under busybox, whose date has no %N)
	t0=$(date +%s)
	FAKE_PERF_MODE=ok mx_run "$s" --csv
	t1=$(date +%s)
	cut -d, -f 1-8 "$MX_FIX/all.csv" >"$W/exp"
	cut -d, -f 1-8 "$W/out" >"$W/got"
	mx_same "$s: live --csv: the eight columns of before, as from the recording" \
		"$W/exp" "$W/got"
	mx_eq "$s: live --csv: unix_time last, perf's start (date) plus the timestamp" \
		"unix_time|9|$(($(wc -l <"$MX_FIX/all.csv") - 1)) good" \
		"$(awk -F, -v a="$t0" -v b="$t1" 'NR == 1 { printf "%s|%d|", $NF, NF; next }
			NF == 9 && $9 ~ /^[0-9]+\.[0-9]+$/ && length($9) == index($9, ".") + 9 &&
			$9 - $1 >= a && $9 - $1 < b + 1 { n++ }
			END { print n " good" }' "$W/out")"
	t0=$(date +%s)
	FAKE_PERF_MODE=ok mx_run "$s" --json
	t1=$(date +%s)
	if e=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [(i["time"], i["unix_time"]) for i in d["intervals"]]
ok = len(t) == 2 and all(int(sys.argv[2]) <= u - s < int(sys.argv[3]) + 1 for s, u in t)
sys.exit(0 if ok else "unix_time: %s" % t)' "$W/out" "$t0" "$t1" 2>&1); then
		mx_ok "$s: live --json: unix_time, last in each interval"
	else
		mx_not_ok "$s: live --json: unix_time, last in each interval" "$e"
	fi
	FAKE_PERF_MODE=eperm mx_run "$s" -n 1 -f ucf
	e="uncore-metrics: perf has no permission to count system-wide"
	e="$e (kernel.perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid))"
	e="$e: run as root or with CAP_PERFMON (which Debian's kernels honour at 2 or lower),"
	e="$e or set kernel.perf_event_paranoid to 0 or lower"
	mx_eq "$s: perf without permission" "1:$e" "$ST:$(cat "$W/err")"
	FAKE_PERF_MODE=fail mx_run "$s" -n 1 -f ucf
	mx_eq "$s: perf failing" \
		"1:event syntax error: bad term uncore-metrics: perf stat failed (status 129)" \
		"$ST:$(tr '\n' ' ' <"$W/err" | sed 's/ $//')"

	# ---- the live view: redrawn on a terminal, appended elsewhere ----
	export FAKE_PERF_DELAY=0.3
	FAKE_PERF_MODE=slow mx_run "$s"
	mx_same "$s: live, not a terminal: every interval appended" "$MX_FIX/all.table" "$W/out"
	FAKE_PERF_MODE=slow mx_tty "$s" "$W/screen"
	mx_same "$s: live on a terminal (tmux): the screen shows the last interval" \
		"$MX_FIX/live.screen" "$W/screen"
	# the 9 PMUs once each, under the timestamp of the last interval
	mx_eq "$s: live on a terminal: status 0, one table on the screen" \
		"0|1|# 2.500000000 s, interval 1500.000 ms|9 rows, 9 PMUs" \
		"$ST|$(grep -c '^# [0-9.]* s, interval' "$W/screen")|$(head -n 1 "$W/screen")|$(
		awk '$1 ~ /_[0-9a-f]+$/ { n++; if (!u[$1]++) d++ }
		     END { printf "%d rows, %d PMUs", n, d }' "$W/screen")"
	mx_no_exp "$s: live on a terminal" "$W/screen"
	mx_width "$s: live on a 160x50 terminal" 160 "$W/screen"
	mx_nowrap "$s: live on a 160x50 terminal" "$W/screen"
	# 80x24: the top of the table, and a line naming the families cut
	FAKE_PERF_MODE=slow MX_TTY_SIZE=80x24 mx_tty "$s" "$W/screen"
	mx_same "$s: live on an 80x24 terminal: the table from its top, what is cut named" \
		"$MX_FIX/live-80x24.screen" "$W/screen"
	mx_eq "$s: live on an 80x24 terminal: status 0, the last line free, nothing scrolled" \
		"0|yes|# 2.500000000 s, interval 1500.000 ms" \
		"$ST|$([ "$(wc -l <"$W/screen")" -le 23 ] && echo yes)|$(head -n 1 "$W/screen")"
	mx_width "$s: live on an 80x24 terminal" 80 "$W/screen"
	mx_nowrap "$s: live on an 80x24 terminal" "$W/screen"
	FAKE_PERF_MODE=slow FAKE_PERF_DELAY=0.1 MX_TTY_SIZE=80x24 mx_reach "$s" \
		"$s: live on an 80x24 terminal" "$MX_FIX/all.csv" "$W/screen"
	# Grace, its first interval: SCF and PCIE in two blocks each
	sed '/^ *3\.000000000,/,$d' "$MX_FIX/perf-grace.csv" >"$W/grace1.csv"
	MX_TTY_SIZE=80x24 mx_tty "$s" "$W/screen" --input "$W/grace1.csv" --redraw
	mx_width "$s: Grace on an 80x24 terminal (--redraw)" 80 "$W/screen"
	mx_nowrap "$s: Grace on an 80x24 terminal (--redraw)" "$W/screen"
	awk -F, 'NR == 1 || $1 == "1.000000000"' "$MX_FIX/grace.csv" >"$W/grace1.out"
	MX_TTY_SIZE=80x24 mx_reach "$s" "$s: Grace on an 80x24 terminal" "$W/grace1.out" \
		"$W/screen" --input "$W/grace1.csv" --redraw
	FAKE_PERF_MODE=slow mx_tty "$s" "$W/screen" --no-redraw -f ucf
	mx_same "$s: live on a terminal, --no-redraw: every interval appended" \
		"$MX_FIX/live-append.screen" "$W/screen"
	mx_tty "$s" "$W/screen" --input "$MX_FIX/perf-all.csv" -f ucf
	mx_same "$s: --input on a terminal: every interval appended" \
		"$MX_FIX/live-append.screen" "$W/screen"
	# perf asked for the 18 UCF events prints them, then sleeps 2 s: the
	# interval is on the screen while it sleeps, not when the next one starts
	rm -f "$W/mark"
	FAKE_PERF_MODE=slow FAKE_PERF_DELAY=2 FAKE_PERF_MARK=$W/mark MX_PEEK=$W/peek \
		mx_tty "$s" "$W/screen" -f ucf
	mx_eq "$s: live on a terminal: the screen taken while perf sleeps" sleep \
		"$(cat "$W/peek.mark")"
	mx_same "$s: live on a terminal: an interval shown at its last event" \
		"$MX_FIX/live-first.screen" "$W/peek"
	mx_eq "$s: live on a terminal, -f ucf: status 0, the last interval at the end" \
		"0|# 2.500000000 s, interval 1500.000 ms" "$ST|$(head -n 1 "$W/screen")"
	unset UNCORE_METRICS_SYSFS UNCORE_METRICS_CPU_SYSFS FAKE_PERF_ARGS FAKE_PERF_OUT \
		FAKE_PERF_DELAY
	metrics_follow "$s"
}

# mx_until SECONDS CMD...: CMD every 0.1 s until it succeeds; fails after
# SECONDS
mx_until()
{
	local n=$(($1 * 10))

	shift
	until "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

# mx_lines FILE N: FILE has N lines or more
mx_lines()
{
	[ -e "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]
}

# mx_csv_pmus FILE: the PMUs of the last interval of FILE, the --csv output
# of a --follow run (a header line at each start of perf), sorted, on a line
mx_csv_pmus()
{
	awk -F, '$1 == "time" { t = ""; l = ""; next }
		 $1 != t { t = $1; l = "" }
		 { l = l $3 "\n" }
		 END { printf "%s", l }' "$1" 2>/dev/null | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# mx_csv_has FILE PMUS: the last interval of FILE has the PMUs PMUS
mx_csv_has()
{
	[ "$(mx_csv_pmus "$1")" = "$2" ]
}

# mx_perf_pmus N: the PMUs of the Nth perf start ($W/flog), in their order
mx_perf_pmus()
{
	sed -n "$1p" "$W/flog" | grep -o 'name=[a-z0-9_]*\.' | sed 's/^name=//; s/\.$//' |
		awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//'
}

# mx_step DESC CMD...: wait (20 s at most) for CMD, the case DESC passing
# if it comes; "not ok" and status 1 if not
mx_step()
{
	local d=$1

	shift
	if mx_until 20 "$@"; then
		mx_ok "$d"
	else
		mx_not_ok "$d" "timed out waiting for: $*" \
			"perf starts: $(sed -n '$=' "$W/flog" 2>/dev/null)" \
			"PMUs of the last interval: $(mx_csv_pmus "$W/fout")" \
			"$(cat "$W/ferr" 2>/dev/null)"
		return 1
	fi
}

# mx_pmu_add NAME / mx_pmu_del NAME: a PMU of the fake sysfs registers in
# $W/fsys (copied whole, then renamed in: no half-made PMU is ever seen),
# or goes (renamed out)
mx_pmu_add()
{
	rm -rf "$W/fstage/$1"
	cp -r "$W/sysfs/$1" "$W/fstage/$1"
	mv "$W/fstage/$1" "$W/fsys/$1"
}

mx_pmu_del()
{
	rm -rf "$W/fstage/$1"
	mv "$W/fsys/$1" "$W/fstage/$1"
}

# metrics_follow SHELL: --follow, through the fake perf's "gen" mode, which
# counts the events it is given until it is ended
metrics_follow()
{
	local s=$1 e exp n ok=1

	# ---- refused: --follow measures, until it is stopped ----
	for e in "--input:--input perf-all.csv" --list:--list --dry-run:--dry-run \
		 "--count:-n 3" "--count:--count=3" "--duration:-d 2"; do
		# shellcheck disable=SC2086 # the options are split
		mx_run "$s" --follow ${e#*:}
		exp="uncore-metrics: --follow does not go with ${e%%:*}"
		mx_eq "$s: --follow ${e#*:}: usage error" \
			"2:$exp Try 'uncore-metrics --help'." \
			"$ST:$(tr '\n' ' ' <"$W/err" | sed 's/ $//')"
	done
	mx_run "$s" -f cmem --follow -- sleep 1
	mx_eq "$s: --follow -- COMMAND: usage error" \
		"2:uncore-metrics: --follow takes no COMMAND Try 'uncore-metrics --help'." \
		"$ST:$(tr '\n' ' ' <"$W/err" | sed 's/ $//')"

	# ---- the PMUs unchanged: perf is started once ----
	rm -rf "$W/fsys" "$W/fstage" "$W/flog"
	mkdir "$W/fsys" "$W/fstage"
	mx_pmu_add nvidia_cmem_latency_pmu_0
	mx_pmu_add nvidia_ucf_pmu_0
	UNCORE_METRICS_SYSFS=$W/fsys FAKE_PERF_ARGS=$W/args FAKE_PERF_MODE=gen \
		FAKE_PERF_DELAY=0.2 FAKE_PERF_N=6 FAKE_PERF_LOG=$W/flog \
		mx_run "$s" --follow --csv -I 200
	mx_eq "$s: --follow, no PMU change: one perf start, 6 intervals, status 0, no message" \
		"0|1|nvidia_ucf_pmu_0 nvidia_cmem_latency_pmu_0|6|" \
		"$ST|$(wc -l <"$W/flog")|$(mx_perf_pmus 1)|$(awk -F, 'NR > 1 { print $1 }' \
			"$W/out" | sort -u | wc -l)|$(cat "$W/err")"

	# ---- PMUs that register and go while it runs ----
	rm -rf "$W/fsys" "$W/fstage" "$W/flog" "$W/fmark" "$W/fend" "$W/fst" "$W/fout" \
		"$W/ferr"
	mkdir "$W/fsys" "$W/fstage"
	mx_pmu_add nvidia_cmem_latency_pmu_0
	(
		export UNCORE_METRICS_SYSFS=$W/fsys FAKE_PERF_ARGS=$W/args FAKE_PERF_MODE=gen \
			FAKE_PERF_DELAY=0.2 FAKE_PERF_LOG=$W/flog FAKE_PERF_MARK=$W/fmark \
			FAKE_PERF_END=$W/fend
		MX_RUN_OUT=$W/fout MX_RUN_ERR=$W/ferr MX_RUN_TIMEOUT=120 \
			mx_run "$s" --follow --csv -I 200 -s 0
		echo "$ST" >"$W/fst"
	) &
	mx_step "$s: --follow: perf started, its first interval printed" \
		mx_csv_has "$W/fout" nvidia_cmem_latency_pmu_0 || ok=0
	if [ $ok = 1 ]; then
		mx_eq "$s: --follow: the first perf counts nvidia_cmem_latency_pmu_0" \
			"1|nvidia_cmem_latency_pmu_0" "$(wc -l <"$W/flog")|$(mx_perf_pmus 1)"
		# not selected (-s 0): nothing happens, for 5 intervals
		mx_pmu_add nvidia_ucf_pmu_1
		n=$(($(wc -l <"$W/fmark") + 5))
		mx_step "$s: --follow: 5 intervals more" mx_lines "$W/fmark" $n || ok=0
	fi
	if [ $ok = 1 ]; then
		mx_eq "$s: --follow: a PMU of socket 1 (-s 0) starts nothing" 1 \
			"$(wc -l <"$W/flog")"
		mx_pmu_add nvidia_ucf_pmu_0
		UNCORE_METRICS_SYSFS=$W/fsys mx_run "$s" --dry-run -I 200 -s 0
		exp=$(tr -d "'" <"$W/out" | sed 's/^perf //')
		mx_step "$s: --follow: a new PMU: perf started again" mx_lines "$W/flog" 2 || ok=0
	fi
	if [ $ok = 1 ]; then
		mx_eq "$s: --follow: the second perf counts nvidia_ucf_pmu_0 too" \
			"nvidia_ucf_pmu_0 nvidia_cmem_latency_pmu_0" "$(mx_perf_pmus 2)"
		mx_eq "$s: --follow: the second perf command is the --dry-run one" \
			"$exp" "$(sed -n 2p "$W/flog")"
		mx_step "$s: --follow: the new PMU's figures printed" mx_csv_has \
			"$W/fout" "nvidia_cmem_latency_pmu_0 nvidia_ucf_pmu_0" || ok=0
	fi
	if [ $ok = 1 ]; then
		mx_pmu_del nvidia_cmem_latency_pmu_0
		mx_step "$s: --follow: a PMU gone: perf started again" mx_lines "$W/flog" 3 || ok=0
	fi
	if [ $ok = 1 ]; then
		mx_eq "$s: --follow: the third perf counts what is left" nvidia_ucf_pmu_0 \
			"$(mx_perf_pmus 3)"
		mx_step "$s: --follow: the figures without the PMU gone" \
			mx_csv_has "$W/fout" nvidia_ucf_pmu_0 || ok=0
	fi
	if [ $ok = 1 ]; then
		mx_pmu_del nvidia_ucf_pmu_0
		mx_step "$s: --follow: no PMU left: the tool ends" test -s "$W/fst" || ok=0
	fi
	if [ $ok = 1 ]; then
		e="uncore-metrics: PMUs changed: +nvidia_ucf_pmu_0; starting perf again"
		e="$e|uncore-metrics: PMUs changed: -nvidia_cmem_latency_pmu_0; starting perf again"
		e="$e|uncore-metrics: no uncore PMU on socket(s) 0 in $W/fsys"
		mx_eq "$s: --follow: status 1, a line per change, the error of no PMU" "1|3|$e" \
			"$(cat "$W/fst")|$(wc -l <"$W/flog")|$(tr '\n' '|' <"$W/ferr" |
			sed 's/|$//')"
		mx_eq "$s: --follow --csv: a header per perf start, the third's interval last" \
			"3|nvidia_ucf_pmu_0" \
			"$(grep -c '^time,' "$W/fout")|$(mx_csv_pmus "$W/fout")"
	fi
	# whatever happened: perf ends at its next interval, and so the tool
	# (or the timeout ends it)
	touch "$W/fend"
	wait
}

metrics_main()
{
	local s a bb

	MX_TOOL=$REPO/tools/uncore-metrics/uncore-metrics
	MX_FIX=$REPO/tools/uncore-metrics/fixtures
	W=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$W'" RETURN
	mkdir -p "$W/bb" "$W/bin" "$W/sysfs" "$W/empty" "$W/t410pcie" "$W/gracepcie"
	metrics_sysfs "$W/sysfs"
	metrics_cpus "$W/cpu"
	metrics_order_sysfs "$W/order"
	metrics_odyssey_sysfs "$W/odyssey"
	cp -r "$W/sysfs/nvidia_pcie_pmu_0_rc_2" "$W/t410pcie/"
	cp -r "$W/sysfs/nvidia_pcie_pmu_0" "$W/gracepcie/"
	metrics_fake_perf "$W/bin/perf"
	mx_units
	command -v tmux >/dev/null ||
		mx_not_ok "tmux not installed: the live view is not tested (deps.sh installs it)"
	bb=$(command -v busybox || echo /bin/busybox)
	for a in $("$bb" --list); do
		ln -s "$bb" "$W/bb/$a"
	done
	for s in busybox dash bash; do
		a=$s
		[ $s != busybox ] || a=$W/bb/sh
		if ! command -v "$a" >/dev/null; then
			mx_not_ok "$s: shell not installed"
			continue
		fi
		metrics_cases $s
	done
	echo "1..$MX_N"
	[ $MX_FAILED -eq 0 ]
}

# run.sh: one result line
check_metrics()
{
	local out=$TMP/metrics.out rc=0

	(metrics_main) >"$out" 2>&1 || rc=1
	grep -q '^ok' "$out" || rc=1
	[ $rc -eq 0 ] || grep -v '^ok' "$out" >"$out.fail"
	tap_result $rc "uncore-metrics host tests ($(grep -c '^ok' "$out") checks)" "$out.fail"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u
	REPO=$(cd "$(dirname "$0")/../../.." && pwd)
	export LC_ALL=C
	metrics_main
fi
