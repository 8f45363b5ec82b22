#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the build, the static checks and the
# test VM need.  Idempotent: apt is only touched when something is missing.
set -eu

PKGS="git perl gcc make bc flex bison libelf-dev libssl-dev kmod cpio xz-utils rsync
	linux-headers-amd64 linux-source-6.1 linux-source-6.12
	sparse coccinelle ocaml-nox python3
	qemu-system-x86 busybox-static linux-perf acpica-tools"
PKGS="$PKGS dash pciutils"  # rcmap check: the RC-mapping tool under dash; lspci format reference
PKGS="$PKGS python3-sphinx python3-docutils"  # docs.sh: sphinx-build -W, kernel-doc extension
PKGS="$PKGS man-db groff-base"  # manpages: man renders the tools' pages
PKGS="$PKGS tmux"  # metrics: the live table view runs on a real terminal (tmux pane)
PKGS="$PKGS dkms openssl"  # DKMS package test (dkms.sh); openssl makes its signing key
PKGS="$PKGS debhelper dh-dkms lintian debootstrap systemd"  # packages.sh: make deb, its root
PKGS="$PKGS rpm rpmlint"  # rpm check (rpm.sh): rpmbuild, rpm -qp, rpm2cpio (with cpio), rpmlint
PKGS="$PKGS dwarves"  # pahole: prepared trees keep Debian's DEBUG_INFO_BTF (struct module layout)
PKGS="$PKGS gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm qemu-efi-aarch64"  # arm64
# make deb DEB_ARCH=arm64 (the arm64 guests run the packaged exporter):
# dpkg-shlibdeps reads the arm64 C library's symbols for the Depends
PKGS="$PKGS libc6:arm64"
# fuzz-native (tools/testing/fuzz): clang with libFuzzer and the ASan/UBSan runtimes
PKGS="$PKGS clang-14 libclang-rt-14-dev"
PKGS="$PKGS strace"  # exporter.sh: the daemon's system calls per interval
PKGS="$PKGS lcov"  # make coverage: lcov and genhtml over the gcov counts of the debug boots
PKGS="$PKGS prometheus"  # metrics: promtool checks the textfile, the rules and their unit tests
PKGS="$PKGS ${UNCORE_EXTRA_PKGS:-}"

# arm64.sh downloads Debian's arm64 headers, kernel image and guest userland
# (never installs them): apt must know the arm64 architecture.
update=
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "${0##*/}: adding the arm64 dpkg architecture" >&2
	dpkg --add-architecture arm64
	update=1
fi

missing=
# (dpkg-query, not dpkg -s: a package installed for two architectures,
# libssl-dev with vm/kernel-64k.sh's libssl-dev:arm64, is one name that
# dpkg -s calls ambiguous)
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -qx 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && [ -z "$update" ] && exit 0

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
[ -z "$missing" ] && exit 0
echo "${0##*/}: installing:$missing" >&2
# shellcheck disable=SC2086 # word splitting wanted
apt-get install -y -qq --no-install-recommends $missing
