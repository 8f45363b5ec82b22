#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Static check "manpages": the manual pages of the user-space tools
# (tools/*/<tool>.1, one for each tool make install-tools installs, and
# the exporter daemon's tools/uncore-exporter/uncore-metrics-exporter.8).
#  - man renders each, and groff -ww finds nothing to warn about;
#  - every option the tool's --help lists is in its page;
#  - make install-tools DESTDIR=... installs each tool with its page under
#    usr/local/share/man/man1 (the daemon: sbin and man8), the daemon
#    built outside the tree.
# Prints what is wrong; exits non-zero on any failure.

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
bad() {
	echo "$*"
	fail=1
}

command -v man > /dev/null || { echo "man not found (deps.sh installs man-db)"; exit 1; }
XP=$TMP/uncore-metrics-exporter
make -s -C "$REPO" EXPORTER_BIN="$XP" "$XP" >"$TMP/xp.out" 2>&1 ||
	bad "make exporter failed: $(cat "$TMP/xp.out")"
for tool in tools/uncore-metrics/uncore-metrics tools/uncore-rcmap/t410-pcie-rcmap \
	    tools/uncore-exporter/uncore-metrics-exporter; do
	page=$REPO/$tool.1
	help="sh $REPO/$tool"
	case $tool in
	*exporter)	page=$REPO/$tool.8
			help=$XP ;;
	esac
	name=${tool##*/}
	if [ ! -f "$page" ]; then
		bad "$tool: no manual page ${page#"$REPO"/}"
		continue
	fi
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=all -E UTF-8 -l "$page" \
		> "$TMP/$name.txt" 2> "$TMP/$name.err" ||
		bad "${page#"$REPO"/}: man failed: $(cat "$TMP/$name.err")"
	# groff -ww: every warning (man's "all" leaves out undefined macros)
	groff -man -Tutf8 -ww -z "$page" 2>> "$TMP/$name.err"
	[ -s "$TMP/$name.err" ] && bad "${page#"$REPO"/}: $(cat "$TMP/$name.err")"
	grep -q "^NAME" "$TMP/$name.txt" || bad "${page#"$REPO"/}: no NAME section"
	# the options of --help: "-x, --long", "--long" or "-x" at a line's start
	opt='^ \{1,8\}\(-[a-zA-Z0-9]\)\{0,1\}\(, \)\{0,1\}\(--[a-z][a-z-]*\)\{0,1\}.*'
	$help --help 2>&1 | sed -n "s/$opt/\\1 \\3/p" |
		tr ' ' '\n' | grep -- '^-' | sort -u > "$TMP/$name.opts"
	[ -s "$TMP/$name.opts" ] || bad "$tool: no option found in --help"
	# the rendered page, hyphens as typed
	sed 's/\xe2\x80\x90/-/g' "$TMP/$name.txt" > "$TMP/$name.plain"
	while read -r o; do
		grep -qe "$o\\b" "$TMP/$name.plain" ||
			bad "${page#"$REPO"/}: option $o of --help is missing"
	done < "$TMP/$name.opts"
done

make -s -C "$REPO" EXPORTER_BIN="$XP" install-tools DESTDIR="$TMP/root" > "$TMP/install.out" 2>&1 ||
	bad "make install-tools failed: $(cat "$TMP/install.out")"
for f in usr/local/bin/uncore-metrics usr/local/bin/t410-pcie-rcmap \
	 usr/local/sbin/uncore-metrics-exporter usr/local/share/man/man8/uncore-metrics-exporter.8 \
	 usr/local/share/man/man1/uncore-metrics.1 usr/local/share/man/man1/t410-pcie-rcmap.1; do
	[ -f "$TMP/root/$f" ] || bad "make install-tools: no $f"
done
exit $fail
