# SPDX-License-Identifier: GPL-2.0
#
# What the two operator guests (run.sh, x86; coexist.sh, arm64 with 64 KiB
# pages) set up the same way. Sourced after lib/host.sh, with REPO (the
# tree), HERE (this directory), BUILD (the guest's build directory), TMP
# and R (where the root is unpacked) set.
#   op_src [MAKE ARGS]   a copy of the tree in $BUILD/src, "make deb" there
#   op_root TAR          the root tarball unpacked in $R, /proc, /sys and
#                        /dev mounted (umount_root undoes the mounts)
#   op_install [ENV]     README's quick start in the root, as an operator
#                        types it: the local repository, both packages
#                        (DKMS builds the modules), with environment ENV
#   op_test_parts REL SIM TEST
#                        the test-only parts: the simulator module SIM for
#                        kernel REL, the units that load it and run TEST
#                        (guest/), the test library, README
#   op_disk              the disk image $BUILD/disk.img made of $R, which goes

op_src() {
	mkdir -p "$BUILD/src"
	git -C "$REPO" ls-files -co --exclude-standard -z |
		rsync -rlp --checksum --delete --from0 --files-from=- "$REPO/" "$BUILD/src/"
	run make -s -C "$BUILD/src" deb "$@"
}

umount_root() {
	local m

	for m in "$R/proc" "$R/sys" "$R/dev"; do
		! mountpoint -q "$m" || umount -l "$m"
	done
}

op_root() {
	umount_root
	rm -rf --one-file-system "$R"
	mkdir -p "$R"
	tar -C "$R" -xf "$1"
	mount -t proc none "$R/proc"
	mount -t sysfs none "$R/sys"
	mount --bind /dev "$R/dev"
}

op_install() {
	local env=(env "$@" DEBIAN_FRONTEND=noninteractive)
	local re='^    (mkdir -p /srv/uncore-pmu|\(cd /srv/uncore-pmu|echo .deb \[trusted=yes\])'

	mkdir -p "$R/root/tree/.build"
	cp -r "$BUILD/src/.build/deb" "$R/root/tree/.build/"
	printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
	chmod +x "$R/usr/sbin/policy-rc.d"
	sed -n '/^## Quick start/,/^## /p' "$BUILD/src/README.md" | grep -E "$re" |
		sed 's/^    //' >"$TMP/repo.sh"
	[ "$(wc -l <"$TMP/repo.sh")" -eq 3 ] ||
		die "README's quick start: not the three lines of the local repository:" \
		    "$(cat "$TMP/repo.sh")"
	run chroot "$R" sh -ec "cd /root/tree; $(cat "$TMP/repo.sh")"
	run chroot "$R" apt-get update
	run chroot "$R" "${env[@]}" apt-get install -y uncore-pmu-dkms uncore-pmu-tools
	rm -f "$R/usr/sbin/policy-rc.d"
}

op_test_parts() {
	local g=$HERE/guest l=$R/usr/local/lib/uncore-test

	install -D -m 0644 "$2" "$R/lib/modules/$1/extra/uncore-test/uncore_sim.ko"
	install -m 0644 "$g/90uncore-test-assume-yes" "$R/etc/apt/apt.conf.d/"
	install -m 0644 "$g/uncore-sim-test.service" "$g/uncore-operator-test.service" \
		"$R/etc/systemd/system/"
	install -D -m 0755 "$g/$3" "$g/run-test" -t "$l"
	install -D -m 0644 "$REPO/tools/testing/tests/lib/lib.sh" -t "$l/lib"
	install -m 0644 "$BUILD/src/README.md" "$l/"
	run chroot "$R" depmod "$1"
	run chroot "$R" systemctl enable uncore-sim-test.service uncore-operator-test.service
}

op_disk() {
	echo "${0##*/}: the disk image" >&2
	rm -f "$BUILD/disk.img"
	run mke2fs -q -t ext4 -L operator -d "$R" "$BUILD/disk.img" 4G
	rm -rf --one-file-system "$R"
}
