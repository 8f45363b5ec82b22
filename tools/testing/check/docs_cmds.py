#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The commands of the install document and of README's quick start,
# checked against the tree (docs.sh, check 8). Every command line of a
# literal block (a "::" block of the .rst, an indented block of README's
# quick start; continuation lines joined, comments dropped), and every
# inline literal of the prose that starts with modprobe, rmmod, modinfo,
# systemctl, make or uncore-metrics, is split at |, &&, || and ; and each
# simple command must be one this check knows:
#
#   modprobe, rmmod, modinfo  every module is one of modules.manifest's or
#                             a kernel driver the document speaks of;
#                             modprobe of several modules has -a (or -r:
#                             without either the second would be a
#                             parameter of the first); a load that names
#                             uncore_cspmu names every driver of ours
#   uncore-metrics, uncore-metrics-exporter
#                             every option is one the tool's --help gives
#   systemctl                 a unit of ours is one the packages ship
#   make                      the target is one of the Makefile's
#   dkms                      -m names dkms.conf's package
#   others                    a command of ALLOWED below (the system's,
#                             run as written; not checked further)
#
# A command not known is a problem too: it must be added here, with what
# to check. perf's event strings are docs_events.py's.
#
# Usage: docs_cmds.py REPO FILE...; prints the problems, one a line, and
# exits 1 if any.

import os
import re
import subprocess
import sys

REPO = sys.argv[1]
FILES = sys.argv[2:]

# the kernel's own modules the documents tell operators to load or unload
KERNEL = {'arm_cspmu_module', 'nvidia_cspmu', 'marvell_cn10k_ddr_pmu',
          'marvell_cn10k_tad_pmu'}
ALLOWED = {'apt-get', 'apt', 'dpkg', 'dpkg-scanpackages', 'dnf', 'rpm',
           'mokutil', 'openssl', 'mkdir', 'test', 'tar', 'cd', 'install', 'rm',
           'cp', 'ls', 'cat', 'head', 'curl', 'grep', 'awk', 'echo', 'reboot',
           'update-initramfs', 'touch', 'sleep', 'perf', 'lsmod', 'man',
           'journalctl', 'systemd-analyze', 'promtool', 'rpmbuild', 'uname'}


def sh(*cmd):
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True).stdout


OURS = set(sh('scripts/manifest.sh', 'modules').split())
DRIVERS = set(sh('scripts/manifest.sh', 'modules', 'drivers').split())
UNITS = {os.path.basename(p) for p in
         sh('git', 'ls-files', 'packaging/systemd').split()}
TARGETS = set(re.findall(r'^([a-z][a-z0-9-]*):', open(os.path.join(REPO, 'Makefile')).read(),
                         re.M))
DKMS = re.search(r'PACKAGE_NAME="\$\{UNCORE_DKMS_NAME:-([^}]*)\}"',
                 open(os.path.join(REPO, 'dkms.conf')).read()).group(1)


def options(text):
    return set(re.findall(r'(?<![\w-])(--?[A-Za-z][\w-]*)', text))


TOOLOPTS = {
    'uncore-metrics': options(sh('tools/uncore-metrics/uncore-metrics', '--help')),
    # the daemon's usage text, as its source spells it
    'uncore-metrics-exporter': options(
        ''.join(re.findall(r'"(\s+-.*?)\\n"',
                           open(os.path.join(REPO, 'tools/uncore-exporter/'
                                             'uncore-metrics-exporter.c')).read()))),
}


def run_end(lines, i, keep):
    """the index of the first line from I on that KEEP refuses"""
    while i < len(lines) and keep(lines[i]):
        i += 1
    return i


def blocks(path):
    """(line number, [lines]) of each literal block of PATH: README's
    indented blocks of its quick start, an .rst's "::" blocks"""
    lines = open(path).read().split('\n')
    out = []
    quick = not path.endswith('.md')
    i = 0
    while i < len(lines):
        line = lines[i]
        if path.endswith('.md'):
            if line.startswith('## '):
                quick = line == '## Quick start'
            start = i if quick and line.startswith('    ') else None
        elif line.rstrip().endswith('::') and not line.lstrip().startswith('..'):
            start = run_end(lines, i + 1, lambda x: not x.strip())
        else:
            start = None
        if start is None:
            i += 1
            continue
        if path.endswith('.md'):
            end = run_end(lines, start, lambda x: x.startswith('    '))
        else:
            end = run_end(lines, start, lambda x: x.startswith(' ') or not x.strip())
        out.append((start + 1, lines[start:end]))
        i = end
    return out


def commands(block):
    """(line number offset, command line) with continuations joined"""
    cur, start = '', None
    for n, line in enumerate(block):
        t = line.strip()
        if not t and not cur:
            continue
        if start is None:
            start = n
        if t.endswith('\\'):
            cur += t[:-1] + ' '
            continue
        cur += t
        if cur.strip():
            yield start, cur
        cur, start = '', None


def scan(c):
    """(index, character) of each character of C outside quotes"""
    q = None
    for i, ch in enumerate(c):
        if q:
            if ch == q:
                q = None
        elif ch in '\'"':
            q = ch
        else:
            yield i, ch


def strip_comment(c):
    """the line without its comment (a # after a blank, outside quotes)"""
    for i, ch in scan(c):
        if ch == '#' and (i == 0 or c[i - 1] in ' \t'):
            return c[:i]
    return c


def subst(c):
    """C with each $(...) replaced by X, and the commands inside them"""
    out, subs, start, depth, last = [], [], None, 0, 0
    for i, ch in scan(c):
        if start is None:
            if c.startswith('$(', i):
                start, depth = i, 0
            continue
        if ch == '(':
            depth += 1
        elif ch == ')':
            depth -= 1
            if not depth:
                subs.append(c[start + 2:i])
                out.append(c[last:start] + 'X')
                last, start = i + 1, None
    return ''.join(out) + c[last:], subs


def split(c):
    """the simple commands of C: split at |, ||, && and ; outside quotes"""
    parts, last, skip = [], 0, False
    for i, ch in scan(c):
        if skip:
            skip = False
        elif ch in '|&;':
            parts.append(c[last:i])
            skip = c[i:i + 2] in ('||', '&&')
            last = i + (2 if skip else 1)
    return parts + [c[last:]]


def words(c):
    return re.findall(r"'[^']*'|\"[^\"]*\"|\S+", c)


def check(where, c, bad):
    c = strip_comment(c).strip()
    if not c:
        return
    # $(...) is a command of its own
    c, subs = subst(c)
    for sub in subs:
        check(where, sub, bad)
    for simple in split(c):
        # a subshell's parentheses
        simple = simple.strip().lstrip('(').rstrip(')').strip()
        w = words(simple)
        if not w:
            continue
        cmd, args = w[0], w[1:]
        if cmd.startswith('/'):
            # a file the packages install, named on a line of its own
            base = os.path.basename(cmd)
            if not sh('git', 'ls-files', f'packaging/*{base}').strip():
                bad.append(f'{where}: {cmd}: no {base} under packaging/')
            continue
        if cmd in ('modprobe', 'rmmod', 'modinfo'):
            if cmd == 'modinfo' and '-F' in args:
                # -F FIELD: the field is no module
                i = args.index('-F')
                args = args[:i] + args[i + 2:]
            opts = [a for a in args if a.startswith('-')]
            # X: a $(...); <module>: a placeholder
            mods = [a for a in args if not a.startswith(('-', '<')) and a != 'X' and
                    '=' not in a]
            for m in mods:
                if m not in OURS and m not in KERNEL:
                    bad.append(f'{where}: {cmd}: {m} is neither ours nor a kernel '
                               f'driver the documents name')
            multi = cmd == 'modprobe' and len(mods) > 1
            if multi and not any(o in ('-a', '--all', '-r', '--remove') for o in opts):
                bad.append(f'{where}: modprobe of {len(mods)} modules without -a: '
                           f'"{simple}" passes {mods[1]} to {mods[0]} as a parameter')
            if (cmd == 'modprobe' and 'uncore_cspmu' in mods and
                    not any(o in ('-r', '--remove') for o in opts)):
                miss = sorted(DRIVERS - set(mods))
                if miss:
                    bad.append(f'{where}: modprobe of every driver lacks {" ".join(miss)}')
        elif cmd in TOOLOPTS:
            for a in args:
                o = a.split('=')[0]
                if o.startswith('-') and o != '--' and o not in TOOLOPTS[cmd]:
                    bad.append(f'{where}: {cmd} has no option {o}')
        elif cmd == 'systemctl':
            for a in args:
                if a.startswith('uncore') and a not in UNITS and a + '.service' not in UNITS:
                    bad.append(f'{where}: systemctl: no unit {a} in packaging/systemd')
        elif cmd == 'make':
            for a in args:
                if '=' not in a and not a.startswith('-') and a not in TARGETS:
                    bad.append(f'{where}: make: the Makefile has no target {a}')
        elif cmd == 'dkms':
            if '-m' in args and args[args.index('-m') + 1] != DKMS:
                bad.append(f'{where}: dkms -m {args[args.index("-m") + 1]}: '
                           f'the package is {DKMS}')
        elif cmd not in ALLOWED:
            bad.append(f'{where}: "{cmd}": a command this check does not know '
                       f'(add it to {os.path.relpath(__file__, REPO)})')


def inline(path):
    """(line number, command) of each inline literal of the prose that is
    a command this check knows (``modprobe -a ...``), across line ends"""
    text = open(path).read()
    cmd = r'(?:modprobe|rmmod|modinfo|systemctl|make|uncore-metrics(?:-exporter)?)\s[^`]*'
    lit = r'``(' + cmd + r')``'
    if path.endswith('.md'):
        lit = r'(?<!`)`(' + cmd + r')`'
    for m in re.finditer(lit, text):
        yield text.count('\n', 0, m.start()) + 1, ' '.join(m.group(1).split())


def main():
    bad = []
    n = 0
    for f in FILES:
        for ln, block in blocks(os.path.join(REPO, f)):
            for off, c in commands(block):
                n += 1
                check(f'{f}:{ln + off}', c, bad)
        for ln, c in inline(os.path.join(REPO, f)):
            n += 1
            check(f'{f}:{ln}', c, bad)
    for b in bad:
        print(b)
    if not bad:
        print(f'{n} command lines checked')
    return 1 if bad else 0


sys.exit(main())
