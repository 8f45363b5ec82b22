#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Prometheus side of the packages, with Debian's promtool: the rules
# file (packaging/prometheus/) passes promtool check rules with no
# warning; its unit tests (tools/testing/prometheus/) pass, with a test
# for every recording rule and every alert; the Grafana dashboard
# (packaging/grafana/) parses, names only recorded series or series the
# exporter writes (its fixtures' textfiles), shows every recording rule,
# and each of its queries parses as PromQL; every counter the exporter
# writes feeds a rule or a panel, or the tools README says why not. The
# live evaluation of all of them, by a Prometheus server, is the operator
# guest's (operator/).
# Prints what it checks; exit status 1 if anything fails.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
RULES=$REPO/packaging/prometheus/uncore-pmu-rules.yml
TESTS=$REPO/tools/testing/prometheus/uncore-pmu-rules.test.yml
DASH=$REPO/packaging/grafana/uncore-pmu.json
FIX=$REPO/tools/uncore-metrics/fixtures
MREADME=$REPO/tools/uncore-metrics/README.md
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
st=0

fail() {
	echo "FAILED: $*"
	st=1
}

command -v promtool >/dev/null || { echo "promtool not installed (deps.sh)"; exit 1; }
echo "# $(promtool --version 2>&1 | head -n 1)"

if out=$(promtool check rules "$RULES" 2>&1) && ! grep -qi warn <<<"$out"; then
	echo "ok: promtool check rules: $(grep -o '[0-9]* rules found' <<<"$out")"
else
	fail "promtool check rules $RULES: $out"
fi

# a unit test for every rule: each recorded name in a promql_expr_test,
# each alert in an alert_rule_test
for r in $(sed -n 's/^ *- record: //p' "$RULES"); do
	grep -qE "^ *- expr: .*$r" "$TESTS" || fail "no unit test of recording rule $r"
done
for a in $(sed -n 's/^ *- alert: //p' "$RULES"); do
	grep -qE "^ *- alertname: $a\$" "$TESTS" || fail "no unit test of alert $a"
done
if out=$(cd "$(dirname "$TESTS")" && promtool test rules "$(basename "$TESTS")" 2>&1); then
	echo "ok: promtool test rules: $(grep -c 'expr: \|alertname: ' "$TESTS") cases"
else
	fail "promtool test rules: $out"
fi

# every counter of the exporter's files feeds a recording rule or a panel,
# or the tools README lists it, with why, among those left to queries
n=0
for m in $(sed -n 's/^\(uncore_pmu_[a-z_]*_total\){.*/\1/p' "$FIX"/*.prom | sort -u); do
	n=$((n + 1))
	grep -qw "$m" "$RULES" "$DASH" && continue
	grep -q "^- \`$m\`: " "$MREADME" ||
		fail "$m feeds no recording rule or panel, and $MREADME does not say why"
done
echo "ok: $n counters: each in a rule, a panel or the README's list of those left to queries"

if ! python3 -m json.tool "$DASH" >/dev/null; then
	fail "$DASH is not JSON"
elif python3 "$REPO/tools/testing/prometheus/dashboard.py" lint "$DASH" "$RULES" \
	"$FIX/all.prom" "$FIX/grace.prom" "$FIX/odyssey.prom" \
	>"$TMP/queries.yml" 2>"$TMP/lint"; then
	if out=$(promtool check rules "$TMP/queries.yml" 2>&1); then
		echo "ok: dashboard: $(grep -c 'record:' "$TMP/queries.yml") queries parse," \
		     "every recording rule shown"
	else
		fail "dashboard queries: $out"
	fi
else
	fail "dashboard: $(cat "$TMP/lint")"
fi
exit $st
