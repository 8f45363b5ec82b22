#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: manifest.sh [-f MANIFEST] QUERY
#
# Answers from modules.manifest (the one list of this package's modules,
# see its header), for Kbuild, the Makefile, dkms.conf and the tests.
# POSIX sh and awk only: DKMS runs it on the servers that build the
# modules. QUERY:
#   modules [layer|drivers]  the module names in load order (all, the
#                            helper layer's, the drivers')
#   configs [layer|drivers]  CONFIG_<symbol>=m of the same modules
#   kbuild                   <symbol>:<module>:<object>,... one a line;
#                            objects only where they are not <module>.c
#   kconfig                  the Kconfig file
#   kinds                    "<kind> <module> <hid> <asl> <apmt>" for each
#                            simulator kind, "-" where the manifest has none
#   pmus                     "<regex><TAB><source>[:<tables>]<TAB><mask>"
#                            for each PMU kind (check/docs_events.py)
#   guides                   "<module> <guide>" for each driver with a guide
# A malformed manifest is an error (exit status 1, the line on stderr).
set -eu

MANIFEST=$(dirname "$0")/../modules.manifest
if [ "${1:-}" = -f ]; then
	MANIFEST=${2:?manifest.sh: -f needs a file}
	shift 2
fi
query=${1:?usage: manifest.sh [-f MANIFEST] QUERY [ARG]}
arg=${2:-}

exec awk -v Q="$query" -v A="$arg" -v F="$MANIFEST" '
function fail(msg) {
	printf "%s:%d: %s\n", F, FNR, msg > "/dev/stderr"
	bad = 1
	exit 1
}
function layer(i) { return !((i, "title", 1) in v) }
function want(i) {
	return A == "" || (A == "layer" && layer(i)) || (A == "drivers" && !layer(i))
}
function get(i, k) { return ((i, k, 1) in v) ? v[i, k, 1] : "" }
function opt(s, k,   n, t, j) {
	n = split(s, t, " ")
	for (j = 2; j <= n; j++)
		if (index(t[j], k "=") == 1)
			return substr(t[j], length(k) + 2)
	return "-"
}
/^#/ { next }
/^$/ { key = ""; next }
/^[ \t]/ {
	if (key == "")
		fail("an indented line continues no key")
	sub(/^[ \t]+/, "")
	v[m, key, c[m, key]] = v[m, key, c[m, key]] "\n" ($0 == "." ? "" : $0)
	next
}
/^[a-z]+:/ {
	key = substr($0, 1, index($0, ":") - 1)
	val = substr($0, index($0, ":") + 1)
	sub(/^[ \t]+/, "", val)
	if (key !~ /^(module|kconfig|title|arch|depends|uses|sources|sim|pmu|guide|help)$/)
		fail("unknown key " key)
	if (key == "module")
		mod[++m] = val
	else if (m == 0)
		fail("a key before the first module:")
	if (key != "sim" && key != "pmu" && (m, key, 1) in v)
		fail("a second " key ": in module " mod[m])
	v[m, key, ++c[m, key]] = val
	next
}
{ fail("not a key: value line") }
END {
	if (bad)
		exit 1
	for (i = 1; i <= m; i++)
		if (get(i, "kconfig") == "" || get(i, "sources") == "" || get(i, "help") == "") {
			FNR = 0
			fail("module " mod[i] " needs kconfig:, sources: and help:")
		}
	if (Q == "modules" || Q == "configs") {
		for (i = 1; i <= m; i++)
			if (want(i))
				print Q == "modules" ? mod[i] : "CONFIG_" get(i, "kconfig") "=m"
	} else if (Q == "kbuild") {
		for (i = 1; i <= m; i++) {
			n = split(get(i, "sources"), s, " ")
			objs = ""
			for (j = 1; (n > 1 || s[1] != mod[i] ".c") && j <= n; j++)
				objs = objs (j > 1 ? "," : "") substr(s[j], 1, length(s[j]) - 2)
			print get(i, "kconfig") ":" mod[i] ":" objs
		}
	} else if (Q == "kconfig") {
		# (split: the SPDX line of this script stays its only one)
		print "# SPDX" "-License-Identifier: GPL-2.0"
		print "#"
		print "# Symbols for drivers/perf/. Out of tree the Makefile sets the same"
		print "# symbols on the kbuild command line, following these dependencies."
		print "# Generated from modules.manifest by \"make manifest\": edit that, not"
		print "# this file."
		for (i = 1; i <= m; i++) {
			print ""
			print "config " get(i, "kconfig")
			print "\ttristate" (layer(i) ? "" : " \"" get(i, "title") "\"")
			if (!layer(i))
				print "\tdepends on (" get(i, "arch") \
				      " || (COMPILE_TEST && 64BIT)) && ACPI"
			else if (get(i, "depends") != "")
				print "\tdepends on " get(i, "depends")
			for (j = 1; j < i; j++)
				if (mod[j] == get(i, "uses"))
					print "\tselect " get(j, "kconfig")
			print "\thelp"
			n = split(get(i, "help"), h, "\n")
			for (j = 1; j <= n; j++)
				print h[j] == "" ? "" : "\t  " h[j]
		}
	} else if (Q == "kinds") {
		for (i = 1; i <= m; i++)
			for (j = 1; j <= c[i, "sim"]; j++) {
				split(v[i, "sim", j], s, " ")
				print s[1], mod[i], opt(v[i, "sim", j], "hid"),
				      opt(v[i, "sim", j], "asl"), opt(v[i, "sim", j], "apmt")
			}
	} else if (Q == "pmus") {
		for (i = 1; i <= m; i++)
			for (j = 1; j <= c[i, "pmu"]; j++) {
				n = split(v[i, "pmu", j], s, " ")
				split(get(i, "sources"), src, " ")
				print s[1] "\t" src[1] (n > 2 ? ":" s[3] : "") "\t" s[2]
			}
	} else if (Q == "guides") {
		for (i = 1; i <= m; i++)
			if (get(i, "guide") != "")
				print mod[i], get(i, "guide")
	} else {
		print "manifest.sh: unknown query " Q > "/dev/stderr"
		exit 2
	}
}' "$MANIFEST"
