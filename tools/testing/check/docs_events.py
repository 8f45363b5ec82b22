#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Check the perf event strings and the event and format tables of the
# documentation against the drivers' attribute tables.
#
# Usage: docs_events.py REPO FILE...
#
# Every "<pmu>/<terms>/" string in FILE... whose PMU name belongs to one of
# our drivers is parsed the way perf does (event names from events/, fields
# from format/, values that fit their field) and then checked against the
# rules the driver enforces (fixed event ids, events and filters of the
# PMU's attribute mask, PCIE requester-filter rules, groups on one PMU). A table
# that follows an RST comment ".. uncore-events: <driver.c>" or
# ".. uncore-formats: <driver.c>" must list exactly the driver's events
# with their ids, or formats with their bits. The PMU name patterns below
# must be names the drivers register. Problems go to stdout, one a line;
# the exit status is 1 if there was any.

import os
import re
import subprocess
import sys

# PMU name pattern -> driver file, and the attr_mask bits (macros of the
# driver) of the PMU the documentation describes. A driver of several
# PMU kinds is "file.c:<formats array>:<events array>", the kind's tables.
# From modules.manifest's "pmu:" lines (main() fills it in).
PMUS = []


def manifest_pmus(repo):
    """The PMU kinds of modules.manifest, as scripts/manifest.sh says."""
    out = subprocess.run(['sh', os.path.join(repo, 'scripts/manifest.sh'), 'pmus'],
                         check=True, capture_output=True, text=True).stdout
    return [tuple(line.split('\t')) for line in out.splitlines()]

# Two GPUs at most on a GPU link (the C2C driver's C2C_MAX_GPU).
C2C_GPUS = 0x3

errors = []
REPO = '.'


def err(msg):
    errors.append(msg)


class Driver:
    """Attribute tables of one driver, with its macros resolved."""

    def __init__(self, repo, spec):
        name, fmt_arr, ev_arr = (spec.split(':') + ['', ''])[:3]
        self.name = name
        self.defines = {}
        for hdr in ('include/uncore_pmu.h', 'include/uncore_cspmu.h',
                    'drivers/perf/' + name):
            self.read_defines(os.path.join(repo, hdr))
        with open(os.path.join(repo, 'drivers/perf', name)) as f:
            src = f.read()
        self.fixed = self.flag_set(src, 'UNCORE_PMU_FIXED_EVENTS')
        self.formats = {}
        fmt = r'UNCORE_FORMAT_ATTR(_MASK)?\(\s*(\w+)\s*,\s*"([^"]*)"\s*(?:,\s*([^)]*))?\)'
        for m in re.finditer(fmt, self.array(src, fmt_arr)):
            self.formats[m.group(2)] = (m.group(3), self.eval(m.group(4) or '0'))
        self.events = {}
        # (name, id[, mask[, data]]); a shared free-running counter's
        # entry is (name, id, data), shown on every instance
        ev = (r'UNCORE_EVENT_ATTR(_MASK|_DATA|_SHARED)?\(\s*(\w+)\s*,\s*([^,)]+)\s*'
              r'(?:,\s*([^,)]*))?(?:,\s*[^,)]*)?\)')
        for m in re.finditer(ev, self.array(src, ev_arr)):
            mask = m.group(4) if m.group(1) in ('_MASK', '_DATA') else None
            self.events[m.group(2)] = (self.eval(m.group(3)), self.eval(mask or '0'))
        if not self.formats or not self.events:
            err('%s: no format or event table found' % name)
        # PMU names the driver registers, as patterns like those of PMUS
        self.names = set()
        for m in re.finditer(r'"((?:nvidia|mrvl)_[a-z0-9_%]+)"', src):
            pat = m.group(1).replace('%u', r'\d+').replace('%llx', '[0-9a-f]+')
            self.names.add(pat)
        # a fixed name without a vendor prefix (the LLC-TAD's "tad")
        for m in re.finditer(r'uncore_pmu_register\([^;]*?"([a-z][a-z0-9_]*)"\s*\)', src):
            self.names.add(m.group(1))
        # a CoreSight PMU driver's impl gives the name before its numbers,
        # the engine adds them as .naming says (enum uncore_cspmu_naming)
        for blk in re.findall(r'\{([^{}]*\.name\s*=[^{}]*\.formats[^{}]*)\}', src):
            m = re.search(r'\.name\s*=\s*"((?:nvidia|mrvl)_[a-z0-9_]+)"', blk)
            if m:
                rc = 'UNCORE_CSPMU_BY_SOCKET_RC' in blk
                self.names.add(m.group(1) + (r'_\d+_rc_\d+' if rc else r'_\d+'))

    def array(self, src, name):
        """The initializer of array @name in @src; all of @src without a name."""
        if not name:
            return src
        m = re.search(r'\b%s\[\] = \{(.*?)\n\};' % re.escape(name), src, re.S)
        if not m:
            err('%s: no array %s' % (self.name, name))
            return ''
        return m.group(1)

    def read_defines(self, path):
        with open(path) as f:
            for line in f:
                m = re.match(r'#define\s+(\w+)\s+(.+?)\s*(/\*.*)?$', line)
                if m and '(' not in m.group(1):
                    self.defines[m.group(1)] = m.group(2)

    def eval(self, expr):
        expr = expr.strip()
        for _ in range(10):
            expr = re.sub(r'\bBIT(_ULL)?\(([^()]+)\)', r'(1 << (\2))', expr)
            expr = re.sub(r'\b(GENMASK(_ULL)?)\(\s*(\d+)\s*,\s*(\d+)\s*\)',
                          lambda m: hex(((1 << (int(m.group(3)) + 1)) - 1) &
                                        ~((1 << int(m.group(4))) - 1)), expr)
            expr = re.sub(r'\b([A-Z_][A-Z0-9_]*)\b',
                          lambda m: '(%s)' % self.defines.get(m.group(1), m.group(1)), expr)
        if not re.fullmatch(r'[\s0-9a-fA-Fx()<|&~+*-]*', expr):
            raise ValueError('%s: cannot evaluate %s' % (self.name, expr))
        return eval(expr)

    def flag_set(self, src, flag):
        m = re.search(r'\.flags\s*=\s*([^,]+),', src)
        return bool(m) and flag in m.group(1)

    def shown(self, mask, attr_mask):
        return not mask or bool(mask & attr_mask)

    def visible_formats(self, attr_mask):
        return {n: parse_spec(s) for n, (s, v) in self.formats.items()
                if self.shown(v, attr_mask)}

    def visible_events(self, attr_mask):
        return {n: i for n, (i, v) in self.events.items() if self.shown(v, attr_mask)}


def parse_spec(spec):
    m = re.fullmatch(r'config([12]?)(?::(\d+)(?:-(\d+))?)?', spec)
    if not m:
        raise ValueError('bad format spec ' + spec)
    word = int(m.group(1) or 0)
    lo = int(m.group(2) or 0)
    hi = int(m.group(3) or m.group(2) or 63)
    return word, lo, hi


def find_pmu(name):
    for pat, drv, var in PMUS:
        if re.fullmatch(pat, name):
            return drv, var
    return None, None


class Event:
    def __init__(self, where, text, pmu, drv, attr_mask, terms):
        self.where = where
        self.text = text
        self.pmu = pmu
        self.drv = drv
        self.attr_mask = attr_mask
        self.cfg = [0, 0, 0]
        self.ok = True
        formats = drv.visible_formats(attr_mask)
        events = drv.visible_events(attr_mask)
        seen = set()
        for term in terms.split(','):
            name, _, val = term.partition('=')
            if not val and name in events:
                name, val = 'event', str(events[name])
            elif not val and name in formats:
                val = '1'
            if name not in formats:
                self.bad('unknown term "%s"' % name)
                continue
            if name in seen:
                self.bad('term "%s" given twice' % name)
            seen.add(name)
            try:
                v = int(val, 0)
            except ValueError:
                self.bad('bad value "%s" of %s' % (val, name))
                continue
            word, lo, hi = formats[name]
            if v >> (hi - lo + 1):
                self.bad('value %#x too big for %s (%d bits)' % (v, name, hi - lo + 1))
            self.cfg[word] |= (v & ((1 << (hi - lo + 1)) - 1)) << lo
        if self.ok:
            self.driver_rules(formats, events)

    def bad(self, msg):
        err('%s: %s: %s' % (self.where, self.text, msg))
        self.ok = False

    def field(self, formats, name):
        word, lo, hi = formats[name]
        return (self.cfg[word] >> lo) & ((1 << (hi - lo + 1)) - 1)

    def driver_rules(self, formats, events):
        ev = self.field(formats, 'event')
        if self.drv.fixed and ev not in events.values():
            self.bad('event id %#x is not listed for this PMU (refused)' % ev)
        if self.drv.name == 'nvidia_t410_c2c_pmu.c' and self.cfg[1] & ~C2C_GPUS:
            self.bad('gpu_mask selects a GPU that cannot exist')
        if self.drv.name == 'nvidia_t410_pcie_pmu.c':
            if self.field(formats, 'src_rp_mask') and self.field(formats, 'src_bdf_en'):
                self.bad('src_rp_mask with src_bdf_en is refused')
            if self.field(formats, 'src_bdf') and not self.field(formats, 'src_bdf_en'):
                self.bad('src_bdf without src_bdf_en counts nothing')

    def bdf(self, leader):
        """The requester filter the PCIE driver applies (with inheritance)."""
        own = self.cfg[1] & 0x1ffffff
        if not own and leader is not self and leader.cfg[1] & (1 << 24):
            own = leader.cfg[1] & 0x1ffffff
        return own & 0x1ffff00 if own & (1 << 24) else 0

    def is_cycles(self):
        if self.drv.name == 'nvidia_t410_pcie_tgt_pmu.c':
            return self.cfg[0] & 0x7 == 0x4
        if self.drv.name in ('nvidia_t410_ucf_pmu.c', 'nvidia_t410_pcie_pmu.c',
                             'nvidia_t241_pmu.c', 'nvidia_generic_pmu.c'):
            return self.cfg[0] == 1 << 32
        return False


EV_RE = re.compile(r'(?<![\w/<>*])([a-z][a-z0-9_]*)/([^/\s\'"]*)/')


def parse_events(where, text, drivers):
    out = []
    for m in EV_RE.finditer(text):
        drvname, var = find_pmu(m.group(1))
        if not drvname:
            # a PMU name without its instance suffix, which perf expands
            # to the instances ("PMU names and wildcards by perf version"
            # of the Tegra410 guide): checked as its first instance,
            # unless its terms are a placeholder
            # (nvidia_pcie_pmu/.../ names Grace's PCIE PMUs and, for
            # perf 5.10, Tegra410's RCs too: the first that has the event)
            first = m.group(2).split(',')[0]
            if re.fullmatch(r'<\w+>|\.\.\.', m.group(2)) and find_pmu(m.group(1) + '_0')[0]:
                continue
            for probe in ('_0', '_0_rc_0'):
                drvname, var = find_pmu(m.group(1) + probe)
                drv = drivers.get(drvname)
                if drv and ('=' in first or
                            first in drv.visible_events(drv.eval(var))):
                    break
        if not drvname:
            if m.group(1).startswith(('nvidia_', 'mrvl_')):
                err('%s: %s: no driver registers a PMU named like this'
                    % (where, m.group(0)))
            continue
        drv = drivers[drvname]
        out.append(Event(where, m.group(0), m.group(1), drv, drv.eval(var), m.group(2)))
    return out


def check_group(where, group, drivers):
    events = parse_events(where, group, drivers)
    if not events or not all(e.ok for e in events):
        return
    leader = events[0]
    if any(e.pmu != leader.pmu for e in events):
        err('%s: {%s}: a group must stay on one PMU' % (where, group))
        return
    if sum(e.is_cycles() for e in events) > 1:
        err('%s: {%s}: two cycles events in one group' % (where, group))
    if len(events) > 32:
        err('%s: {%s}: more than 32 events' % (where, group))
    if leader.drv.name == 'nvidia_t410_pcie_pmu.c':
        for e in events[1:]:
            if not e.is_cycles() and e.bdf(leader) != leader.bdf(leader):
                err('%s: {%s}: %s filters on another requester than its leader'
                    % (where, group, e.text))


def check_strings(path, text, drivers):
    n = 0
    for lineno, line in enumerate(text.split('\n'), 1):
        where = '%s:%d' % (path, lineno)
        n += len(parse_events(where, line, drivers))
        for g in re.finditer(r'\{([^{}]*)\}', line):
            check_group(where, g.group(1), drivers)
    return n


def table_rows(lines, start):
    """Rows of the simple table that begins after line @start."""
    i = start
    while i < len(lines) and not lines[i].startswith('='):
        i += 1
    borders = 0
    rows = []
    while i < len(lines) and borders < 3:
        line = lines[i]
        if re.match(r'^=+( +=+)*\s*$', line):
            borders += 1
        elif borders == 2 and line.strip() and not line.startswith(' '):
            rows.append(line)
        i += 1
    if borders < 3:
        rows = None
    return rows


def check_tables(path, text, drivers):
    lines = text.split('\n')
    n = 0
    for i, line in enumerate(lines):
        m = re.match(r'^\.\. uncore-(events|formats): drivers/perf/([^\s:]+)(?::(\w+))?\s*$',
                     line)
        if not m:
            continue
        where = '%s:%d' % (path, i + 1)
        kind, drvname, arr = m.groups()
        if drvname not in [d.split(':')[0] for d in drivers]:
            err('%s: unknown driver %s' % (where, drvname))
            continue
        # the table of one array of the driver, or of the whole file
        spec = drvname
        if arr:
            spec += ':' + (arr + ':' if kind == 'formats' else ':' + arr)
        if spec not in drivers:
            drivers[spec] = Driver(REPO, spec)
        drv = drivers[spec]
        rows = table_rows(lines, i + 1)
        if rows is None:
            err('%s: no simple table with a header row follows' % where)
            continue
        doc = {}
        for row in rows:
            cols = row.split()
            name = cols[0].strip('`')
            val = cols[1].strip('`') if len(cols) > 1 else ''
            if name in doc:
                err('%s: %s listed twice' % (where, name))
            doc[name] = val
        if kind == 'events':
            want = {n: i for n, (i, v) in drv.events.items()}
            for name, val in doc.items():
                try:
                    v = int(val, 0)
                except ValueError:
                    err('%s: %s: bad id "%s"' % (where, name, val))
                    continue
                if name not in want:
                    err('%s: event %s is not in %s' % (where, name, drvname))
                elif want[name] != v:
                    err('%s: event %s is %#x in %s, not %s'
                        % (where, name, want[name], drvname, val))
        else:
            want = {n: s for n, (s, v) in drv.formats.items()}
            for name, val in doc.items():
                if name not in want:
                    err('%s: format %s is not in %s' % (where, name, drvname))
                elif want[name] != val:
                    err('%s: format %s is %s in %s, not %s'
                        % (where, name, want[name], drvname, val))
        for name in want:
            if name not in doc:
                err('%s: %s of %s is missing from the table' % (where, name, drvname))
        n += 1
    return n


def main():
    global REPO
    repo = REPO = sys.argv[1]
    PMUS[:] = manifest_pmus(repo)
    drivers = {}
    for pat, drv, _ in PMUS:
        if drv not in drivers:
            drivers[drv] = Driver(repo, drv)
        if pat not in drivers[drv].names:
            err('%s registers no PMU named %s' % (drv, pat))
    strings = tables = 0
    for path in sys.argv[2:]:
        with open(os.path.join(repo, path)) as f:
            text = f.read()
        strings += check_strings(path, text, drivers)
        tables += check_tables(path, text, drivers)
    for e in errors:
        print(e)
    print('%d event strings and %d tables checked, %d problems'
          % (strings, tables, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
