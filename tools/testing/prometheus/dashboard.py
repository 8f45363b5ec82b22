#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Grafana dashboard (packaging/grafana/uncore-pmu.json), for tests.

  dashboard.py exprs DASHBOARD
      one line per query of a panel: PANEL-ID<TAB>TITLE<TAB>EXPR, the
      dashboard's variables given the values that select everything
      ($instance: .*), as a Prometheus HTTP API query takes them
  dashboard.py lint DASHBOARD RULES TEXTFILE...
      the dashboard against the rules file and textfiles of the exporter:
      ids unique, every query names only recorded series (RULES), series
      the exporter writes (TEXTFILE...) or node_exporter's textfile
      series; every recording rule is shown by a panel. Writes every
      query as a recording rule to stdout, for promtool check rules to
      parse. Exit status 1 and a line per problem on stderr otherwise.
"""
import json
import re
import sys

VARS = {'$instance': '.*', '${instance}': '.*'}
FUNCS = {'rate', 'round', 'time', 'sum', 'by', 'on', 'group_left', 'without',
         'max_over_time', 'unless', 'and', 'or', 'absent', 'absent_over_time'}


def queries(path):
    """(panel id, title, expr) of every query of every panel"""
    d = json.load(open(path))
    out = []
    for p in d['panels']:
        for t in p.get('targets', []):
            e = t['expr']
            for k, v in VARS.items():
                e = e.replace(k, v)
            out.append((p['id'], p['title'], e))
    return d, out


def names(expr):
    """the series names an expression reads"""
    e = re.sub(r'\{[^}]*\}', '', re.sub(r'"[^"]*"', '', expr))
    e = re.sub(r'\[[^]]*\]', '', e)
    toks = re.findall(r'[a-zA-Z_:][a-zA-Z0-9_:]*', e)
    return {t for t in toks if t not in FUNCS}


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == 'exprs':
        for pid, title, e in queries(sys.argv[2])[1]:
            print('%s\t%s\t%s' % (pid, title, e))
        return 0
    if len(sys.argv) < 5 or sys.argv[1] != 'lint':
        print(__doc__, file=sys.stderr)
        return 2
    d, qs = queries(sys.argv[2])
    err = []
    ids = [p['id'] for p in d['panels']]
    if len(ids) != len(set(ids)):
        err.append('panel ids are not unique')
    recorded = set(re.findall(r'^\s*- record: (\S+)$', open(sys.argv[3]).read(), re.M))
    exported = set()
    for f in sys.argv[4:]:
        exported |= set(re.findall(r'^# TYPE (\S+) ', open(f).read(), re.M))
    known = recorded | exported | {'node_textfile_mtime_seconds'}
    shown = set()
    for pid, title, e in qs:
        n = names(e)
        shown |= n
        for x in sorted(n - known):
            err.append('panel %s "%s": %s is neither recorded nor exported' % (pid, title, x))
    for r in sorted(recorded - shown):
        err.append('recording rule %s is in no panel' % r)
    for p in d['panels']:
        if p['type'] != 'row' and not p.get('targets'):
            err.append('panel %s "%s" has no query' % (p['id'], p['title']))
    print('groups:\n  - name: dashboard\n    rules:')
    for i, (pid, title, e) in enumerate(qs):
        print('      - record: dashboard_query_%d\n        expr: %s' % (i, json.dumps(e)))
    for e in err:
        print('dashboard: ' + e, file=sys.stderr)
    return 1 if err else 0


if __name__ == '__main__':
    sys.exit(main())
