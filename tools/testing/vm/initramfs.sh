#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the test VM's initramfs (gzip'd newc cpio): static busybox, Debian's
# perf with its libraries, the project's modules and the tests; see README.md.
#   initramfs.sh OUT.cpio.gz [--modules DIR] [--order "mod1 mod2 ..."]
#                [--tests DIR]... [--extra-files DIR] [--test-timeout SEC]
#                [--arch x86_64|arm64] [--boot-modules DIR] [--userland DIR]
#   --userland  take perf and its libraries from DIR (check/release.sh: a
#               Debian release's perf unpacked) instead of the host's
#               (x86_64) or Debian 12's arm64 packages (check/arm64.sh)
set -euo pipefail

# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"
usage() { sed -n '5,9s/^# \{0,1\}//p' "$0" >&2; exit 2; }

out='' moddir='' order='' extra='' tmo=600 tests=() arch=x86_64 kmods='' ul=''
while [ $# -gt 0 ]; do
	case $1 in
	--modules) moddir=$2; shift 2 ;;
	--order) order=$2; shift 2 ;;
	--tests) tests+=("$2"); shift 2 ;;
	--extra-files) extra=$2; shift 2 ;;
	--test-timeout) tmo=$2; shift 2 ;;
	--arch) arch=$2; shift 2 ;;
	--boot-modules) kmods=$2; shift 2 ;;
	--userland) ul=$2; shift 2 ;;
	-h|--help) usage ;;
	-*) die "unknown option $1" ;;
	*) [ -z "$out" ] || usage; out=$1; shift ;;
	esac
done
[ -n "$out" ] || usage
case $tmo in ''|*[!0-9]*) die "--test-timeout needs seconds" ;; esac
case $arch in x86_64|arm64) ;; *) die "unknown architecture $arch" ;; esac

# Tools the image is made of; install them if this is a fresh machine.
need() { # command package
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "initramfs.sh: installing $2" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >&2 ||
		die "cannot install $2"
}
# The guest's userland: the host's busybox and perf on x86_64; Debian's
# arm64 packages unpacked under check/arm64.sh's root on arm64. With
# --userland, perf and its libraries come from that root instead (the
# busybox stays). $sys is where perf and its libraries are, empty for the
# host; outside the host, ldd cannot help (a foreign architecture, or
# another release's C library) and libraries are found from the ELF NEEDED
# entries instead.
sys=
case $arch in
x86_64)	tri=x86_64-linux-gnu ;;
arm64)	tri=aarch64-linux-gnu ;;
esac
if [ "$arch" = arm64 ]; then
	sys=$("$(dirname "$0")/../check/arm64.sh" rootfs) || die "no arm64 userland"
	bb=$sys/bin/busybox
	[ -f "$bb" ] || die "no busybox in $sys"
else
	need busybox busybox-static
	bb=$(command -v busybox)
	if ldd "$bb" >/dev/null 2>&1; then
		die "$bb is not a static busybox (install busybox-static)"
	fi
fi
# perf_want: the upstream version of the --userland root's perf package
# (release.sh lists the .debs it unpacked in .packages), which the guest's
# "perf --version" must give: the guest runs the release's perf, not
# another one found first
perf_want=
if [ -n "$ul" ]; then
	[ -d "$ul" ] || die "no userland directory $ul"
	sys=$(cd "$ul" && pwd)
	perf_want=$(sed -n 's/^linux-perf\(-[0-9.]*\)\{0,1\}_\([0-9.]*\)[-_].*/\2/p' \
		"$sys/.packages" 2>/dev/null | head -n 1)
	[ -n "$perf_want" ] || die "no linux-perf package listed in $sys/.packages"
fi
if [ -n "$sys" ]; then
	perf=$sys/usr/bin/perf
	[ -e "$perf" ] || perf=$(printf '%s\n' "$sys"/usr/bin/perf_[0-9]* | sort -V | tail -n 1)
	[ -f "$perf" ] || die "no perf in $sys"
else
	need perf linux-perf
	# /usr/bin/perf may be a wrapper script exec'ing /usr/bin/perf_<version>.
	perf=$(readlink -f "$(command -v perf)")
fi
if [ "$(head -c 4 "$perf")" != $'\x7fELF' ]; then
	perf=$(printf '%s\n' "$sys"/usr/bin/perf_[0-9]* | sort -V | tail -n 1)
	[ -f "$perf" ] || die "cannot find the real perf binary"
fi

# libs_of FILE: the absolute guest paths of the shared libraries FILE needs
libs_of()
{
	if [ -z "$sys" ]; then
		ldd "$1" | awk '/=> \//{print $3} /^[ \t]*\//{print $1}'
		return
	fi
	local want=" " todo lib d found interp
	interp=$(readelf -l "$1" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
	[ -z "$interp" ] || echo "$interp"
	todo=$1
	while [ -n "$todo" ]; do
		set -- $(for f in $todo; do
			readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
		done | sort -u)
		todo=
		for lib; do
			case $want in *" $lib "*) continue ;; esac
			want="$want$lib "
			found=
			for d in /lib/$tri /usr/lib/$tri /lib /usr/lib; do
				[ -e "$sys$d/$lib" ] && found=$d/$lib && break
			done
			[ -n "$found" ] || die "no $lib (needed by perf) under $sys"
			echo "$found"
			todo="$todo $(readlink -f "$sys$found")"
		done
	done
}

root=$(mktemp -d "${TMPDIR:-/tmp}/uncore-initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT
# mktemp makes it 0700: the guest's / must let unprivileged users in
chmod 755 "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc,lib/modules-test,tests}

# GNU cpio for a foreign busybox, which cannot run here
cpio=("$bb" cpio)
[ "$arch" = x86_64 ] || cpio=(cpio --quiet)

# The userland (busybox, perf, its libraries and tests) is the bulk of the
# image and the same for every boot of an architecture: one gzip'd cpio
# of it is kept in the cache, keyed by those files and this script, and
# each image is that archive followed by one of the boot's own files (the
# kernel unpacks concatenated archives in turn).
# bash, for perf's shell tests that name /bin/bash (most of 7.3's), from
# the --userland root when it has one (check/release.sh's roots do);
# busybox's sh stays /bin/sh
bash=
[ -z "$ul" ] || [ ! -x "$sys/usr/bin/bash" ] || bash=/usr/bin/bash
libs=$( { libs_of "$perf"; [ -z "$bash" ] || libs_of "$sys$bash"; } | sort -u)
key=$( { echo "$arch $sys"; md5sum "$0"
	 for f in "$bb" "$perf" $bash $libs; do stat -L -c '%n %s %Y' "$sys$f" 2>/dev/null ||
		 stat -L -c '%n %s %Y' "$f"; done
	 [ ! -d "$sys/usr/lib/perf-core/tests" ] ||
		 find "$sys/usr/lib/perf-core/tests" -printf '%p %s %T@\n' | sort; } |
	md5sum | cut -c1-16)
base=${UNCORE_CACHE:-/var/cache/uncore-pmu}/initramfs/userland-$arch-$key.cpio.gz
if [ ! -s "$base" ]; then
	ub=$(mktemp -d "${TMPDIR:-/tmp}/uncore-userland.XXXXXX")
	chmod 755 "$ub"
	mkdir -p "$ub"/{bin,usr/bin}
	cp "$bb" "$ub/bin/busybox"
	[ -z "$bash" ] || cp "$sys$bash" "$ub/bin/bash"
	# A foreign busybox cannot list its applets here: /init installs them.
	applets=bin/sh
	[ "$arch" != x86_64 ] || applets=$("$bb" --list-full)
	for a in $applets; do
		[ -e "$ub/$a" ] || { mkdir -p "$ub/$(dirname "$a")"; ln -s /bin/busybox "$ub/$a"; }
	done
	cp "$perf" "$ub/usr/bin/perf"
	for lib in $libs; do
		mkdir -p "$ub$(dirname "$lib")"
		cp -L "$sys$lib" "$ub$lib"
	done
	[ -d "$sys/usr/lib/perf-core/tests" ] &&
		mkdir -p "$ub/usr/lib/perf-core" &&
			cp -a "$sys/usr/lib/perf-core/tests" "$ub/usr/lib/perf-core/"
	mkdir -p "$(dirname "$base")"
	(cd "$ub" && find . | LC_ALL=C sort | "${cpio[@]}" -o -H newc -R 0:0 2>/dev/null) |
		gzip -6 >"$base.$$"
	rm -rf "$ub"
	mv "$base.$$" "$base"
fi

# arm64: QEMU virt has one UART, the console; the results port is a virtio
# console (/dev/hvc0), whose modules come from the kernel image's package
# (--boot-modules, default that of Debian's 6.1 image; "none" where the
# kernel builds them in): those of
# virtio_mmio and virtio_console that it builds as modules, after the
# virtio core's where it builds that as modules too (Debian's 5.10).
results=/dev/ttyS1 boot_mods=
if [ "$arch" = arm64 ]; then
	[ -n "$kmods" ] ||
		kmods=$(dirname "$(dirname "$("$(dirname "$0")/kernel.sh" --arch arm64)")")/modules
	mkdir -p "$root/lib/modules-boot"
	# "none": a kernel that builds them in (vm/kernel-64k.sh's)
	for m in virtio_ring virtio virtio_mmio virtio_console; do
		[ "$kmods" != none ] && [ -f "$kmods/$m.ko" ] || continue
		cp "$kmods/$m.ko" "$root/lib/modules-boot/"
		boot_mods="$boot_mods $m"
	done
	[ -n "$boot_mods" ] || [ "$kmods" = none ] || die "no virtio_mmio.ko in $kmods"
	results=/dev/hvc0
fi

# Modules: all .ko flat in /lib/modules-test, the --order ones are loaded.
if [ -n "$moddir" ]; then
	[ -d "$moddir" ] || die "no module directory $moddir"
	find "$moddir" -name '*.ko' -exec cp {} "$root/lib/modules-test/" \;
fi
for m in $order; do
	[ -f "$root/lib/modules-test/$m.ko" ] ||
		die "module $m.ko not found under ${moddir:-(no --modules)}"
done

# Test directories: the first is /tests/builtin, the next /tests/extra, extra2...
i=0
: >"$root/tests/order"
for d in ${tests[@]+"${tests[@]}"}; do
	[ -d "$d" ] || die "no test directory $d"
	case $i in 0) n=builtin ;; 1) n=extra ;; *) n=extra$i ;; esac
	mkdir -p "$root/tests/$n"
	cp -RL --preserve=mode "$d/." "$root/tests/$n/"
	echo "$n" >>"$root/tests/order"
	i=$((i + 1))
done
if [ -n "$extra" ]; then
	[ -d "$extra" ] || die "no directory $extra"
	cp -RL --preserve=mode "$extra/." "$root/"
fi

printf 'MODULES="%s"\nTEST_TIMEOUT=%s\nRESULTS=%s\nBOOT_MODULES="%s"\nPERF_WANT="%s"\n' \
	"$order" "$tmo" "$results" "$boot_mods" "$perf_want" >"$root/etc/uncore-vm.conf"
cat >"$root/init" <<'INIT'
#!/bin/sh
# Guest init: mount, insmod in order, run the tests, report on ttyS1, power off.
export PATH=/usr/bin:/bin:/usr/sbin:/sbin
[ -e /bin/mount ] || /bin/busybox --install -s
mount -t devtmpfs none /dev
exec </dev/console >/dev/console 2>&1
mount -t proc none /proc
mount -t sysfs none /sys
mount -t debugfs none /sys/kernel/debug
mount -t tmpfs none /tmp
# the CPUs the kernel left offline at boot (vm/run.sh's maxcpus=1 on x86)
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ "$(cat "$c")" = 1 ] || echo 1 >"$c" || echo "uncore-vm: cannot online ${c%/online}"
done
. /etc/uncore-vm.conf
export UNCORE_SIM=/sys/kernel/debug/uncore_sim HOME=/tmp
for m in $BOOT_MODULES; do
	insmod /lib/modules-boot/$m.ko || echo "uncore-vm: insmod $m failed"
done
i=0
while [ ! -e $RESULTS ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
stty -F $RESULTS raw -echo 2>/dev/null
exec 3>$RESULTS
say() { echo "$*" >&3; }
echo "uncore-vm: $(uname -r), $(nproc) cpus"

# insmod in order, with <module>.<param>=<value> from the kernel cmdline.
n=0
for m in $MODULES; do
	n=$((n + 1))
	args=''
	for w in $(cat /proc/cmdline); do
		case $w in "$m".*=*) args="$args ${w#"$m".}" ;; esac
	done
	say "@@ start insmod $m"
	if msg=$(insmod /lib/modules-test/$m.ko $args 2>&1); then
		say "ok $n - init: insmod $m$args"
	else
		echo "$msg"
		say "not ok $n - init: insmod $m$args: $(echo $msg)"
	fi
done
# the perf every test runs; with --userland, the release's
pv=$(perf --version 2>&1 | head -n 1)
if [ -z "$PERF_WANT" ]; then
	say "# init: $pv"
elif [ "$pv" = "perf version $PERF_WANT" ]; then
	say "ok $((n + 1)) - init: the release's perf runs: $pv"
else
	say "not ok $((n + 1)) - init: the release's perf runs: '$pv', not perf version $PERF_WANT"
fi
# x86: idle vCPUs halt (vm/run.sh's idle=halt); TCG's MWAIT spins
if [ "$(uname -m)" = x86_64 ]; then
	if dmesg | grep -q 'using mwait in idle threads'; then
		say "not ok - init: the kernel idles with MWAIT, which spins under TCG"
	else
		say "ok - init: the kernel does not idle with MWAIT"
	fi
fi

# sim_idle NAME: every test leaves the simulator as it found it, no rate
# running, no injection armed on a register read and no injection under
# way (an injection still going a few seconds after the test's processes
# were killed); else the test fails and what it
# left is stopped, so that no later test counts its traffic.
sim_idle() {
	[ -r $UNCORE_SIM/busy ] || return 0
	i=0
	while [ -n "$(cat $UNCORE_SIM/busy)" ] && [ $i -lt 30 ]; do
		grep -qE ' (rate|inject_on_read)$' $UNCORE_SIM/busy && break
		sleep 0.1; i=$((i + 1))
	done
	left=$(cat $UNCORE_SIM/busy)
	[ -n "$left" ] || return 0
	say "not ok - $1: left the simulator busy: $(echo $left)"
	for d in $(echo "$left" | awk '$2 == "rate" { print $1 }'); do
		echo >$UNCORE_SIM/$d/rate
	done
	for d in $(echo "$left" | awk '$2 == "inject_on_read" { print $1 }'); do
		echo >$UNCORE_SIM/$d/inject_on_read
	done
}

# Run each executable file of each test directory, in name order.
for d in $(cat /tests/order); do
	for t in /tests/$d/*; do
		[ -f "$t" ] && [ -x "$t" ] || continue
		name=${t##*/}
		say "@@ start $name"
		echo "uncore-vm: running $d/$name"
		t0=$(cut -d. -f1 /proc/uptime)
		(cd /tmp && exec timeout -k 10 $TEST_TIMEOUT "$t") </dev/null >/tmp/.out 2>&1 3>&-
		st=$?
		kill -KILL -1 2>/dev/null # leftovers of the test (we are pid 1)
		sed "s|^|$name: |" /tmp/.out
		echo "uncore-vm: $d/$name exited with status $st" \
		     "after $(($(cut -d. -f1 /proc/uptime) - t0)) s"
		awk -v name="$name" -v st=$st -v tmo=$TEST_TIMEOUT '
		/^(not )?ok([ \t]|$)/ {
			nok = /^not ok/; p = nok ? "not ok" : "ok"
			r = substr($0, nok ? 7 : 3); num = ""
			if (match(r, /^[ \t]+[0-9]+/)) {
				num = substr(r, RSTART, RLENGTH); gsub(/[ \t]/, "", num)
				r = substr(r, RLENGTH + 1)
			}
			sub(/^[ \t]*(-[ \t]*)?/, "", r)
			l[++k] = p (num == "" ? "" : " " num) " - " name (r == "" ? "" : ": " r)
			res++; bad += nok; next
		}
		/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; next }
		/^#/ || /^Bail out!/ { r = $0; sub(/^#[ \t]*/, "", r); l[++k] = "# " name ": " r }
		END {
			for (i = 1; i <= k; i++)
				if (l[i] !~ /^#/ || st || bad) print l[i]
			if (plan != "" && plan != res)
				print "not ok - " name ": planned " plan " tests, reported " res
			else if (st && !bad) {
				to = (st == 124 || st == 137 || st == 143)
				print "not ok - " name ": exited with status " st \
					(to ? " (timed out after " tmo " s?)" : "")
			}
		}' /tmp/.out >&3
		sim_idle "$name"
	done
done

# Every boot ends with every module unloaded, last first, so that what an
# unbind or an unload prints (the console check fails a boot on any
# WARNING or BUG) is in every boot's log, 5.10's included.
say "@@ start rmmod"
r=
for m in $MODULES; do
	r="$m $r"
done
left=
for m in $r; do
	grep -q "^$m " /proc/modules || continue
	# first the modules that use it and are not ours (a test's own, such
	# as the upstream twins on the layer's register backend)
	for u in $(awk -v m="$m" '$1 == m && $4 != "-" { gsub(",", " ", $4); print $4 }' \
		   /proc/modules); do
		case " $MODULES " in *" $u "*) ;; *) rmmod "$u" 2>/dev/null ;; esac
	done
	msg=$(rmmod "$m" 2>&1) || left="$left $m ($(echo $msg))"
done
if [ -z "$left" ]; then
	say "ok - init: every module unloads at the end"
else
	say "not ok - init: every module unloads at the end:$left"
fi

say "@@ uncore-vm done"
exec 3>&-
sync
poweroff -f
INIT
chmod 755 "$root/init"
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true

mkdir -p "$(dirname "$out")"
{ cat "$base"
  (cd "$root" && find . | LC_ALL=C sort | "${cpio[@]}" -o -H newc -R 0:0 2>/dev/null) |
	gzip -6; } >"$out.tmp"
mv "$out.tmp" "$out"
