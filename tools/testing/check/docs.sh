#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Documentation check ("docs" in run.sh; also works alone). Fails if
#  1. sphinx-build -W of Documentation/ (our conf.py with the kernel's
#     kernel-doc extension and script from linux-source-6.1) reports any
#     warning, kernel-doc's included;
#  2. scripts/kernel-doc -none of linux-source-6.1, as W=1 runs it, or
#     that of linux-source-6.12 with -Wall, warns about any .c or .h file;
#  3. an exported function, or a struct, enum, inline function or
#     lower-case or UNCORE_* function-like macro of include/*.h, has no
#     kernel-doc comment;
#  4. docs_events.py finds a perf event string in the documentation or
#     README.md that our drivers would not accept, or an event or format
#     table that differs from a driver's;
#  5. a page under Documentation/ does not start with the SPDX line;
#  6. README.md is over 200 lines or has no `make check` in its first 24,
#     or a line of README.md, HACKING.md or tools/testing/README.md is
#     over 100 characters, or over 300 for a table row (one starting
#     with '|');
#  7. a file of the tree points outside it (the design documents the
#     project was started from: ../shared/, spec/*.md, a hw/*.md that is
#     not Documentation/hw/'s), or names a Documentation/hw/ or contract
#     file that does not exist;
#  8. docs_cmds.py finds a command of the install document or of README's
#     quick start that the tree contradicts: a module that is not ours nor
#     a kernel driver they name, modprobe of several modules without -a,
#     a load of every driver that lacks one, an option our tools do not
#     have, a unit, make target or DKMS name the tree does not have, or a
#     command the check does not know.
# The two kernel sources come from deps.sh; the pieces used are extracted
# once under $UNCORE_CACHE/docs. Output: the problems found, one a line.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}
DEST=$CACHE/docs
SRC61=/usr/src/linux-source-6.1.tar.xz
SRC612=/usr/src/linux-source-6.12.tar.xz
SPHINX_VERSION=
export LC_ALL=C

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rc=0

fail()
{
	echo "$*"
	rc=1
}

# Sphinx extension of 6.1 and kernel-doc of 6.12, extracted once.
extract_tools()
{
	local id

	for f in "$SRC61" "$SRC612"; do
		[ -f "$f" ] || { echo "$f missing (run deps.sh)"; return 1; }
	done
	id="$(stat -c '%s %Y' "$SRC61" "$SRC612" | tr '\n' ' ')"
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.docs.lock"
	flock 9
	if [ "$(cat "$DEST/.uncore-pmu-stamp" 2>/dev/null)" != "$id" ]; then
		rm -rf "$DEST" "$DEST.tmp"
		mkdir -p "$DEST.tmp/6.1" "$DEST.tmp/6.12"
		tar -xJf "$SRC61" -C "$DEST.tmp/6.1" --strip-components=1 \
			linux-source-6.1/Documentation/sphinx || return 1
		tar -xJf "$SRC612" -C "$DEST.tmp/6.12" --strip-components=1 \
			linux-source-6.12/scripts/kernel-doc || return 1
		mv "$DEST.tmp" "$DEST"
		echo "$id" >"$DEST/.uncore-pmu-stamp"
	fi
	exec 9>&-
}

# Our C sources and headers, tracked or not, without generated files.
c_files()
{
	git -C "$REPO" ls-files -co --exclude-standard -- '*.c' '*.h' |
		grep -vE '(^|/)fixtures/|\.mod\.c$' | sort -u |
		while read -r f; do [ -f "$REPO/$f" ] && echo "$f"; done
}

# Names a file documents in kernel-doc, one a line.
documented()
{
	"$KDOC61" -rst -sphinx-version "$SPHINX_VERSION" "$REPO/$1" 2>/dev/null |
		sed -nE 's/^\.\. c:(function|macro|struct|enum|union|type):: //p' |
		sed -E 's/ *\(.*//; s/.*[ *]//'
}

# What must be documented: exported functions of .c files; structs,
# enums, inline functions and API macros of public headers.
needs_doc()
{
	local f=$1 sym

	case $f in
	*.c)
		sed -nE 's/^EXPORT_SYMBOL[A-Z_]*\(([A-Za-z0-9_]+).*/\1/p' "$REPO/$f" |
		while read -r sym; do
			# a function definition starts in column 0
			grep -qE "^[A-Za-z].*[ *]$sym\(" "$REPO/$f" && echo "$sym"
		done
		;;
	include/*.h)
		sed -nE 's/^(struct|enum|union) ([A-Za-z0-9_]+) \{.*/\2/p
			 s/^static (inline|__always_inline) .*[ *]([A-Za-z0-9_]+)\(.*/\2/p
			 s/^#define ([a-z_][a-z0-9_]*|UNCORE_[A-Z0-9_]*)\(.*/\1/p' "$REPO/$f"
		;;
	esac
}

check_kerneldoc()
{
	local f out=$TMP/kdoc.out

	for f in $(c_files); do
		(cd "$REPO" && "$KDOC61" -none "$f") >>"$out" 2>&1 ||
			echo "$f: kernel-doc (6.1) failed" >>"$out"
		(cd "$REPO" && perl "$KDOC612" -none -Wall "$f") >>"$out" 2>&1 ||
			echo "$f: kernel-doc -Wall (6.12) failed" >>"$out"
		needs_doc "$f" | sort -u >"$TMP/need"
		documented "$f" | sort -u >"$TMP/have"
		comm -23 "$TMP/need" "$TMP/have" |
			sed "s|^|$f: no kernel-doc comment for |" >>"$out"
	done
	if [ -s "$out" ]; then
		fail "kernel-doc:"
		sed 's/^/  /' "$out"
	fi
}

check_sphinx()
{
	local out=$TMP/sphinx.out bad=0

	if ! UNCORE_SPHINX_EXT=$DEST/6.1/Documentation/sphinx UNCORE_KERNELDOC=$KDOC61 \
	     sphinx-build -W -E -q -b html -d "$TMP/doctrees" \
			  "$REPO/Documentation" "$TMP/html" >"$out" 2>&1; then
		fail "sphinx-build -W failed:"
		bad=1
	elif grep -qiE 'warning|error' "$out"; then
		fail "sphinx-build -W passed, but kernel-doc warned:"
		bad=1
	elif ! grep -q '"c.uncore_pmu_init"' "$TMP/html/driver-api/uncore-pmu.html"; then
		fail "the API reference was not generated"
		bad=1
	fi
	[ $bad -eq 0 ] || sed 's/^/  /' "$out"
}

# The kernel's form of the licence line, as the first line of every page.
check_spdx_rst()
{
	# split, so that checkpatch does not take it for this file's tag
	local f want=".. SPDX""-License-Identifier: GPL-2.0"

	for f in $(cd "$REPO" && git ls-files -co --exclude-standard -- 'Documentation/*.rst'); do
		[ "$(head -n 1 "$REPO/$f")" = "$want" ] ||
			fail "$f: first line is not '$want'"
	done
}

# The developer documents stay readable in a terminal and in a diff:
# README short, with the two commands near its top; prose lines wrapped;
# table rows, which cannot wrap, kept short.
check_lengths()
{
	local out=$TMP/lengths.out

	(cd "$REPO" && awk '
		FILENAME == "README.md" {
			readme = FNR
			if (FNR <= 24 && /make check([^-A-Za-z0-9_]|$)/)
				cmd = 1
		}
		/^\|/ && length > 300 {
			print FILENAME ":" FNR ": table row of " length \
			      " characters (at most 300)"
		}
		!/^\|/ && length > 100 {
			print FILENAME ":" FNR ": line of " length \
			      " characters (at most 100, or 300 for a table row)"
		}
		END {
			if (readme > 200)
				print "README.md:" readme ": " readme \
				      " lines (at most 200)"
			if (!cmd)
				print "README.md:24: no `make check` in the first 24 lines"
		}' README.md HACKING.md tools/testing/README.md) >"$out" 2>&1
	if [ -s "$out" ]; then
		fail "document lengths:"
		sed 's/^/  /' "$out"
	fi
}

# Everything a newcomer is sent to is in the tree: the hardware notes in
# Documentation/hw/, the simulator's and the harness's contracts beside
# their code.
check_self_contained()
{
	local out=$TMP/outside.out f
	local away='\.\./shared/|(^|[^A-Za-z0-9_./-])'
	away+='(spec/[a-z-]+|hw/(nvidia|marvell)[a-z0-9-]*)\.md'
	local ours='Documentation/hw/[a-z0-9-]+\.md|sim/contract\.md|vm/harness\.md'

	(cd "$REPO" && git ls-files -co --exclude-standard |
		grep -v -e '^tools/testing/check/docs\.sh$' |
		xargs -d '\n' grep -n -I -E "$away" 2>/dev/null) >"$out"
	for f in $(cd "$REPO" && git ls-files -co --exclude-standard |
			xargs -d '\n' grep -h -o -I -E "$ours" 2>/dev/null | sort -u); do
		case $f in
		sim/*|vm/*) f=tools/testing/$f ;;
		esac
		[ -f "$REPO/$f" ] || echo "$f: named in the tree, not in it" >>"$out"
	done
	if [ -s "$out" ]; then
		fail "pointers outside the tree:"
		sed 's/^/  /' "$out"
	fi
}

check_commands()
{
	local out=$TMP/commands.out

	if ! python3 "$HERE/docs_cmds.py" "$REPO" Documentation/admin-guide/uncore-pmu-install.rst \
			README.md >"$out" 2>&1; then
		fail "commands of the install document and README:"
		sed 's/^/  /' "$out"
	fi
}

check_events()
{
	local docs out=$TMP/events.out

	docs=$(cd "$REPO" && git ls-files -co --exclude-standard -- \
		'Documentation/*.rst' README.md | sort -u)
	# shellcheck disable=SC2086 # word splitting wanted (no blanks in names)
	if ! python3 "$HERE/docs_events.py" "$REPO" $docs >"$out" 2>&1; then
		fail "event strings and tables:"
		sed 's/^/  /' "$out"
	else
		tail -n 1 "$out"
	fi
}

extract_tools >"$TMP/extract.out" 2>&1 ||
	{ cat "$TMP/extract.out"; echo "cannot extract the kernel's doc tools"; exit 1; }
KDOC61=$("$HERE/src61.sh" 2>"$TMP/src.err")/scripts/kernel-doc ||
	{ cat "$TMP/src.err"; exit 1; }
KDOC612=$DEST/6.12/scripts/kernel-doc
SPHINX_VERSION=$(sphinx-build --version | sed -n 's/^sphinx-build \([0-9.]*\).*/\1/p')
[ -n "$SPHINX_VERSION" ] || { echo "sphinx-build missing (run deps.sh)"; exit 1; }

check_spdx_rst
check_lengths
check_self_contained
check_commands
check_sphinx
check_kerneldoc
check_events
exit $rc
