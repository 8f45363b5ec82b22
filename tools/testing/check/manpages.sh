#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Static check "manpages": the manual pages of the user-space tools
# (tools/*/<tool>.1, one for each tool make install-tools installs).
#  - man renders each, and groff -ww finds nothing to warn about;
#  - every option the tool's --help lists is in its page;
#  - make install-tools DESTDIR=... installs each tool with its page under
#    usr/local/share/man/man1.
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
for tool in tools/uncore-metrics/uncore-metrics tools/uncore-rcmap/t410-pcie-rcmap; do
	page=$REPO/$tool.1
	name=${tool##*/}
	if [ ! -f "$page" ]; then
		bad "$tool: no manual page $tool.1"
		continue
	fi
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=all -E UTF-8 -l "$page" \
		> "$TMP/$name.txt" 2> "$TMP/$name.err" ||
		bad "$tool.1: man failed: $(cat "$TMP/$name.err")"
	# groff -ww: every warning (man's "all" leaves out undefined macros)
	groff -man -Tutf8 -ww -z "$page" 2>> "$TMP/$name.err"
	[ -s "$TMP/$name.err" ] && bad "$tool.1: $(cat "$TMP/$name.err")"
	grep -q "^NAME" "$TMP/$name.txt" || bad "$tool.1: no NAME section"
	# the options of --help: "-x, --long", "--long" or "-x" at a line's start
	opt='^ \{1,8\}\(-[a-zA-Z0-9]\)\{0,1\}\(, \)\{0,1\}\(--[a-z][a-z-]*\)\{0,1\}.*'
	sh "$REPO/$tool" --help 2>&1 | sed -n "s/$opt/\\1 \\3/p" |
		tr ' ' '\n' | grep -- '^-' | sort -u > "$TMP/$name.opts"
	[ -s "$TMP/$name.opts" ] || bad "$tool: no option found in --help"
	# the rendered page, hyphens as typed
	sed 's/\xe2\x80\x90/-/g' "$TMP/$name.txt" > "$TMP/$name.plain"
	while read -r o; do
		grep -qe "$o\\b" "$TMP/$name.plain" || bad "$tool.1: option $o of --help is missing"
	done < "$TMP/$name.opts"
done

make -s -C "$REPO" install-tools DESTDIR="$TMP/root" > "$TMP/install.out" 2>&1 ||
	bad "make install-tools failed: $(cat "$TMP/install.out")"
for f in usr/local/bin/uncore-metrics usr/local/bin/t410-pcie-rcmap \
	 usr/local/share/man/man1/uncore-metrics.1 usr/local/share/man/man1/t410-pcie-rcmap.1; do
	[ -f "$TMP/root/$f" ] || bad "make install-tools: no $f"
done
exit $fail
