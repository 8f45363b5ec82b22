#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Print the path of the scripts/ subset of linux-source-6.1
# (checkpatch.pl with spelling.txt and const_structs.checkpatch, coccinelle/,
# kernel-doc, coccicheck), extracted once under /var/cache/uncore-pmu.
# The headers packages ship none of these.
set -eu

CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}
TAR=/usr/src/linux-source-6.1.tar.xz
DEST=$CACHE/linux-source-6.1
PARTS="scripts"

[ -f "$TAR" ] || { echo "${0##*/}: $TAR missing (run deps.sh)" >&2; exit 1; }
id="$(stat -c '%s %Y' "$TAR") $PARTS"
mkdir -p "$CACHE"
exec 9>"$CACHE/.linux-source-6.1.lock"
flock 9
if [ "$(cat "$DEST/.uncore-pmu-stamp" 2>/dev/null)" != "$id" ]; then
	echo "${0##*/}: extracting $PARTS from $TAR" >&2
	rm -rf "$DEST" "$DEST.tmp"
	mkdir -p "$DEST.tmp"
	# shellcheck disable=SC2086 # PARTS is a list
	tar -xJf "$TAR" -C "$DEST.tmp" --strip-components=1 \
		$(printf 'linux-source-6.1/%s ' $PARTS)
	for f in checkpatch.pl spelling.txt const_structs.checkpatch \
		 kernel-doc coccicheck coccinelle; do
		[ -e "$DEST.tmp/scripts/$f" ] ||
			{ echo "${0##*/}: scripts/$f missing" >&2; exit 1; }
	done
	mv "$DEST.tmp" "$DEST"
	echo "$id" >"$DEST/.uncore-pmu-stamp"
fi
echo "$DEST"
