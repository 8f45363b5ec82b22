#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Static check "rcmap": runs tools/uncore-rcmap/t410-pcie-rcmap under dash
# and under busybox sh (with busybox's own awk, sed, tr and ls) against the
# recorded lspci fixtures in tools/uncore-rcmap/fixtures/, and compares
# stdout, stderr and the exit status of every case exactly with
# fixtures/expect/<case>.{out,err}.
#
# The fake lspci prints <name>.lspci-vv for "lspci -D -vv"; the fake setpci
# answers "setpci -s BDF OFF.B..." from <name>.lspci-xxxx, an excerpt of
# "lspci -D -xxxx" (a byte the excerpt lacks reads as ff, as for a user
# without access to extended configuration space).
#
# Prints one line per failed case and a closing "rcmap: N cases, N failed";
# exits non-zero on any failure.

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
TOOL=$REPO/tools/uncore-rcmap/t410-pcie-rcmap
FIX=$REPO/tools/uncore-rcmap/fixtures
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$TMP/fake" "$TMP/bb" "$TMP/sysfs"
for d in nvidia_pcie_pmu_0_rc_0 nvidia_pcie_tgt_pmu_0_rc_0 nvidia_pcie_pmu_1_rc_4 \
	 nvidia_ucf_pmu_0 cpu; do
	mkdir "$TMP/sysfs/$d"
done

cat >"$TMP/fake/lspci" <<'EOF'
#!/bin/sh
[ "$*" = "-D -vv" ] || { echo "fake lspci: unexpected arguments: $*" >&2; exit 1; }
[ -n "$RCMAP_FAIL" ] && exit 1
echo "lspci: Unable to load libkmod resources: error -2" >&2
cat "$RCMAP_LSPCI"
EOF
cat >"$TMP/fake/setpci" <<'EOF'
#!/bin/sh
[ "$1" = -s ] || { echo "fake setpci: expected -s" >&2; exit 1; }
bdf=$2
shift 2
awk -v bdf="$bdf" -v regs="$*" '
function hex(s,    i, n)
{
	n = 0
	for (i = 1; i <= length(s); i++)
		n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return n
}
/^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:/ { cur = $1; dev[cur] = 1; next }
/^[0-9a-f]+: / {
	a = hex(substr($1, 1, length($1) - 1))
	for (i = 2; i <= NF; i++)
		cfg[cur, a + i - 2] = $i
}
END {
	if (!(bdf in dev)) {
		print "setpci: Warning: No devices selected for operation group 1." \
			> "/dev/stderr"
		exit 0
	}
	n = split(regs, r, " ")
	for (i = 1; i <= n; i++) {
		if (r[i] !~ /^[0-9a-f]+\.B$/) {
			print "fake setpci: unsupported register " r[i] > "/dev/stderr"
			exit 1
		}
		a = hex(substr(r[i], 1, length(r[i]) - 2))
		print ((bdf, a) in cfg) ? cfg[bdf, a] : "ff"
	}
}' "$RCMAP_XXXX"
EOF
chmod +x "$TMP/fake/lspci" "$TMP/fake/setpci"

# A PATH with nothing but busybox applets, so the tool meets busybox's awk.
if ! command -v busybox >/dev/null; then
	echo "rcmap: busybox not found (deps.sh installs busybox-static)"
	exit 1
fi
for a in $(busybox --list); do
	ln -s "$(command -v busybox)" "$TMP/bb/$a"
done
if ! command -v dash >/dev/null; then
	echo "rcmap: dash not found"
	exit 1
fi

cases=0
failed=0

# t CASE STATUS LSPCI-FIXTURE XXXX-FIXTURE SYSFS [ARGS...]
t()
{
	name=$1 want=$2 lsf=$3 xf=$4 sys=$5
	shift 5
	for sh in dash busybox; do
		cases=$((cases + 1))
		if [ $sh = dash ]; then
			path=$TMP/fake:/usr/bin:/bin
			run="dash $TOOL"
		else
			path=$TMP/fake:$TMP/bb
			run="$TMP/bb/sh $TOOL"
		fi
		# shellcheck disable=SC2086 # $run is a command and its argument
		env PATH="$path" RCMAP_LSPCI="$FIX/$lsf.lspci-vv" \
			RCMAP_XXXX="$FIX/$xf.lspci-xxxx" T410_RCMAP_SYSFS="$sys" \
			RCMAP_FAIL="${RCMAP_FAIL:-}" \
			$run "$@" >"$TMP/out" 2>"$TMP/err"
		rc=$?
		msg=
		[ $rc -eq "$want" ] || msg="exit status $rc, expected $want"
		cmp -s "$TMP/out" "$FIX/expect/$name.out" || msg="$msg${msg:+; }stdout differs"
		cmp -s "$TMP/err" "$FIX/expect/$name.err" || msg="$msg${msg:+; }stderr differs"
		[ -z "$msg" ] && continue
		failed=$((failed + 1))
		echo "FAIL $name ($sh): $msg"
		diff -u "$FIX/expect/$name.out" "$TMP/out" | head -n 20
		diff -u "$FIX/expect/$name.err" "$TMP/err" | head -n 10
	done
}

S=$TMP/sysfs
t all		0 two-socket two-socket "$S"
t csv		0 two-socket two-socket /nonexistent --csv
t select	0 two-socket two-socket "$S" -s 0002:81:00.1 000D:C4:00.0 0009:00:00.0
t unmapped	1 two-socket two-socket "$S" 0005:01:00.0 0008:02:00.0 0001:05:00.0 05:00.0
t old-pciutils	0 old-pciutils two-socket "$S"
t mismatch	0 two-socket mismatch "$S"
t no-dvsec	3 no-dvsec two-socket "$S"
t non-root	4 non-root two-socket "$S"
t unreadable	4 two-socket unreadable "$S"
t bad-bdf	2 two-socket two-socket "$S" 1:2:3
t bad-option	2 two-socket two-socket "$S" --bogus
RCMAP_FAIL=1 t lspci-fails 5 two-socket two-socket "$S"

echo "rcmap: $cases cases, $failed failed"
[ $failed -eq 0 ]
