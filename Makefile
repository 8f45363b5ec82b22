# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of the uncore PMU helper layer and drivers.
#
#   make [KDIR=<kernel build tree>] [ARCH=arm64 CROSS_COMPILE=...] [COMPILE_TEST=1] [W=1] [C=2]
#   make install | clean | check | demo | vm-test [EXTRA_TESTS=dir] [FIRMWARE=name] [ARCH=arm64]
#        [KERNEL=5.10|6.1|6.12|7.3]
#   make fuzz-soak [FUZZ_SEED=n] [FUZZ_ITER=n] [FUZZ_SECS=s] [DEBUG_KERNEL=1]
#   make fuzz-native [FUZZ_TIME=seconds]: the native libFuzzer targets (tools/testing/fuzz)
#   make bench: MMIO per perf callback, read() cost, the exporter's CPU, in the VM (BENCHMARKS.md)
#   make dkms-install [DKMS_KVER=<release>] | dkms-remove   (as root, see uncore-pmu-install.rst)
#   make deb | rpm: .build/deb/, .build/rpm/ (Documentation/admin-guide/uncore-pmu-install.rst)
#   make install-tools | install-exporter | install-docs [DESTDIR=...] [PREFIX=/usr/local]
#   make check-debug: the VM tests again on a self-built KASAN/lockdep/kmemleak kernel
#   make check-64k: every family on a self-built 64 KiB-page arm64 kernel
#   make coverage: make check-debug's boots with gcov, and the coverage report
#   make mutation [MUTANTS="name ..."]: driver mutants against the VM tests (tools/testing/mutation)
#   make manifest: Kconfig again from modules.manifest, after a change there

HOST_ARCH := $(shell uname -m | sed -e 's/aarch64/arm64/' -e 's/x86_64/x86/')
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
TARGET_ARCH := $(if $(ARCH),$(ARCH),$(HOST_ARCH))

# The running kernel's tree if it has one, else the newest Debian headers.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(shell ls -d /usr/src/linux-headers-*-$(DEB_ARCH) 2>/dev/null | sort -V | tail -n 1))

# Mirror Kconfig: the drivers need arm64 (the hardware) or COMPILE_TEST.
ifneq ($(filter arm64,$(TARGET_ARCH))$(filter 1 y,$(COMPILE_TEST)),)
DRIVERS := y
endif
# The modules and their symbols: modules.manifest, the one list.
CONFIGS := $(shell scripts/manifest.sh configs layer)
ifeq ($(DRIVERS),y)
CONFIGS += $(shell scripts/manifest.sh configs drivers)
endif

# The register-level simulator is a test module: test builds only, and
# never from the DKMS package, which does not carry it.
ifneq ($(filter 1 y,$(COMPILE_TEST)),)
ifneq ($(wildcard $(CURDIR)/tools/testing/sim/sim_core.c),)
CONFIGS += CONFIG_UNCORE_SIM=m
endif
endif

# The package version lives in dkms.conf only; sourcing it as dkms does
# also gives the package name (a test may override it).
DKMS_ID := $(shell bash -c '. $(CURDIR)/dkms.conf && echo "$$PACKAGE_NAME $$PACKAGE_VERSION"')
DKMS_NAME := $(word 1,$(DKMS_ID))
UNCORE_VERSION := $(word 2,$(DKMS_ID))

GEN := $(CURDIR)/.build/$(TARGET_ARCH)$(subst /,_,$(abspath $(KDIR)))
KBUILD := $(MAKE) -C $(KDIR) M=$(CURDIR) $(CONFIGS) UNCORE_GEN=$(GEN) \
	UNCORE_VERSION=$(UNCORE_VERSION)

.PHONY: all modules install clean check demo vm-test fuzz-soak fuzz-native bench mutation help FORCE

all: modules

$(GEN)/uncore_conftest.h: scripts/conftest.sh
	@test -d "$(KDIR)" || { echo "KDIR=$(KDIR): no kernel build tree" >&2; exit 1; }
	@mkdir -p $(GEN)
	scripts/conftest.sh $(KDIR) $@

modules: $(GEN)/uncore_conftest.h
ifneq ($(DRIVERS),y)
	@echo "note: drivers need ARCH=arm64 or COMPILE_TEST=1; building the helper layer only"
endif
	+$(KBUILD) modules

install: modules
	+$(KBUILD) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
		$(KDIR)/include/generated/utsrelease.h)

clean:
	+$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf .build $(EXPORTER_BIN)

# make check: static checks and the VM tests side by side, one closing line
# for both.
STATE := $(CURDIR)/.check-state
check:
	@mkdir -p .build
	+@tools/testing/check/all.sh $(STATE)

# make vm-test [EXTRA_TESTS=<dir>] [FIRMWARE=<firmware>] [ARCH=arm64] [KERNEL=<series>]
vm-test:
	+tools/testing/vm-test.sh $(if $(EXTRA_TESTS),--extra $(EXTRA_TESTS)) \
		$(if $(FIRMWARE),--firmware $(FIRMWARE)) $(if $(filter arm64,$(ARCH)),--arch arm64) \
		$(if $(KERNEL),--kernel $(KERNEL))

demo:
	+tools/testing/vm-test.sh --demo

# make fuzz-soak [FUZZ_SEED=n] [FUZZ_ITER=n] [FUZZ_SECS=s] [DEBUG_KERNEL=1]:
# the perf_event_open fuzzer alone, for longer than make check gives it
# (default 20000 iterations or 480 s, whichever ends first); with
# DEBUG_KERNEL=1 on the KASAN/lockdep/kmemleak kernel of make check-debug,
# ending with its leak scan (tools/testing/README.md: the soak).
FUZZ_ITER ?= 20000
FUZZ_SECS ?= 480
fuzz-soak:
	+$(if $(DEBUG_KERNEL),tree=$$(tools/testing/vm/debug-kernel.sh) || \
		{ echo "fuzz-soak: building the debug kernel failed" >&2; exit 1; }; ) \
	UNCORE_FUZZ_ITER=$(FUZZ_ITER) UNCORE_FUZZ_TIME=$(FUZZ_SECS) \
		$(if $(FUZZ_SEED),UNCORE_FUZZ_SEED=$(FUZZ_SEED)) \
		tools/testing/vm-test.sh --only '95-*' \
		$(if $(DEBUG_KERNEL),--kernel-tree "$$tree" --timeout-scale $(DEBUG_TIMEOUT_SCALE))

# make fuzz-native [FUZZ_TIME=seconds]: the native libFuzzer targets
# (tools/testing/fuzz/README.md), each for FUZZ_TIME seconds (default 600),
# corpus grown and crashes kept in .build/fuzz-native/<target>/.
FUZZ_TIME ?= 600
fuzz-native:
	tools/testing/fuzz/run.sh fuzz $(FUZZ_TIME) $(CURDIR)/.build/fuzz-native

# make bench: the MMIO bench (tests/87-bench.sh) in the x86 VM, with its
# timing part, the exporter's CPU (tests/87-exporter-bench.sh), and the
# MMIO bench on the upstream twins (PEM, CMEM, C2C in that boot; the
# CoreSight PMU twins in an arm64 boot), on the newest kernel series of
# check/kernels.conf, whose linux-source carries them.
# Prints the tables BENCHMARKS.md shows.
bench:
	+newest=$$(tools/testing/check/kdir.sh --list | tail -n 1) && \
	tools/testing/vm-test.sh --bench --kernel $$newest && \
	tools/testing/vm-test.sh --bench --kernel $$newest --arch arm64 --only '87-twin-bench-cspmu.sh'

# make mutation [MUTANTS="name ..."]: each mutant of tools/testing/mutation/mutants
# (one slip in a copy of the tree) against the guest tests that should
# catch it, one VM boot per tests: line; killed, survived or stillborn each,
# then the kill ratio (tools/testing/mutation/README.md).
mutation:
	+tools/testing/mutation/run.sh $(MUTANTS)

# Kconfig is generated (its symbols for an in-tree build); the other
# consumers of modules.manifest read it when they run.
.PHONY: manifest
manifest:
	scripts/manifest.sh kconfig >Kconfig.tmp && mv Kconfig.tmp Kconfig

help:
	@sed -n '3,18p' $(firstword $(MAKEFILE_LIST))

# ---- DKMS package (dkms.conf) ----
#
# make dkms-install [DKMS_KVER=<release>]: copy the package to
# /usr/src/<name>-<version>/, dkms add, build and install it for the
# running (or the given) kernel, and install the modprobe.d file that
# loads our drivers before the kernel's own of the same devices (in
# /lib/modprobe.d: a same-named file in /etc/modprobe.d turns it off) and
# the modules-load.d file that loads the CSPMU engine at boot.
# make dkms-remove: dkms remove for every kernel, then delete the sources
# and both files. DKMS_FLAGS go to dkms build, install and remove (e.g.
# --kernelsourcedir <tree>); MODPROBE_D and MODULES_LOAD_D move the files.
DKMS_KVER ?= $(shell uname -r)
DKMS_SRC := $(DESTDIR)/usr/src/$(DKMS_NAME)-$(UNCORE_VERSION)
DKMS_MV := -m $(DKMS_NAME) -v $(UNCORE_VERSION)
MODPROBE_D ?= /lib/modprobe.d
MODPROBE_CONF := packaging/modprobe.d/uncore-pmu.conf
MODULES_LOAD_D ?= /etc/modules-load.d
MODULES_LOAD_CONF := packaging/modules-load.d/uncore-pmu.conf
# The package: the sources, this file and what it needs to build them.
DKMS_FILES := dkms.conf $(firstword $(MAKEFILE_LIST)) Kbuild Kconfig \
	modules.manifest scripts/manifest.sh scripts/conftest.sh $(MODPROBE_CONF) $(wildcard include/*.h drivers/perf/*.h) \
	$(filter-out %.mod.c,$(wildcard drivers/perf/*.c))

.PHONY: dkms-src dkms-install dkms-remove install-conf

dkms-src:
	@test -n "$(DKMS_NAME)" -a -n "$(UNCORE_VERSION)" || \
		{ echo "dkms.conf: no PACKAGE_NAME or PACKAGE_VERSION" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	tar -cf - $(DKMS_FILES) | tar -xf - -C $(DKMS_SRC)

dkms-install: dkms-src
	dkms status $(DKMS_MV) | grep -q . || dkms add $(DKMS_MV)
	dkms build $(DKMS_MV) -k $(DKMS_KVER) --force $(DKMS_FLAGS)
	dkms install $(DKMS_MV) -k $(DKMS_KVER) --force $(DKMS_FLAGS)
	$(MAKE) install-conf

# make install-conf [DESTDIR=...]: the modprobe.d and modules-load.d files
# (dkms-install and the packages).
install-conf:
	install -D -m 644 $(MODPROBE_CONF) $(DESTDIR)$(MODPROBE_D)/uncore-pmu.conf
	install -D -m 644 $(MODULES_LOAD_CONF) $(DESTDIR)$(MODULES_LOAD_D)/uncore-pmu.conf

dkms-remove:
	if dkms status $(DKMS_MV) | grep -q .; then \
		dkms remove $(DKMS_MV) --all $(DKMS_FLAGS); fi
	rm -rf $(DKMS_SRC)
	rm -f $(MODPROBE_D)/uncore-pmu.conf $(MODULES_LOAD_D)/uncore-pmu.conf

# make exporter: the exporter daemon, tools/uncore-exporter/ (user space,
# plain C), with the CC, CFLAGS, CPPFLAGS and LDFLAGS of the environment
# (a package build passes dpkg-buildflags' or rpm's), warnings on.
EXPORTER_DIR := tools/uncore-exporter
EXPORTER_BIN := $(EXPORTER_DIR)/uncore-metrics-exporter
EXPORTER_SRCS := $(addprefix $(EXPORTER_DIR)/,uncore-metrics-exporter.c uxp_parse.c uxp_vocab.c)
EXPORTER_CFLAGS ?= -O2 -g
.PHONY: exporter
exporter: $(EXPORTER_BIN)
$(EXPORTER_BIN): $(EXPORTER_SRCS) $(EXPORTER_DIR)/uxp.h
	$(CC) -std=gnu11 -Wall -Wextra $(EXPORTER_CFLAGS) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) \
		-o $@ $(EXPORTER_SRCS)

# make install-tools [DESTDIR=...] [PREFIX=/usr/local]: the user-space tools
# to PREFIX/bin, the exporter daemon (make exporter) to PREFIX/sbin, their
# manual pages to PREFIX/share/man/man1 and man8; the RC-mapping tool only
# if this tree has it.
# make install-exporter [DESTDIR=...] [PREFIX=/usr/local]: the exporter's
# systemd unit (to SYSTEMD_UNITDIR, running PREFIX/sbin/uncore-metrics-exporter)
# and its settings, /etc/default/uncore-metrics, the udev rule that starts
# it when a PMU registers (to UDEV_RULESDIR), and, for the Prometheus server
# and Grafana that read node_exporter, the recording rules and alerts and
# the dashboard (to PREFIX/share/uncore-pmu-tools/). The packages use both.
# No sysctl is changed: the daemon opens its events with the capabilities
# the unit gives it, at the kernel's own kernel.perf_event_paranoid.
PREFIX ?= /usr/local
SYSTEMD_UNITDIR ?= /lib/systemd/system
UDEV_RULESDIR ?= /lib/udev/rules.d
EXPORTER_RULES := packaging/udev/60-uncore-pmu.rules
EXPORTER_SHARE := $(PREFIX)/share/uncore-pmu-tools
EXPORTER_PROM := packaging/prometheus/uncore-pmu-rules.yml
EXPORTER_DASHBOARD := packaging/grafana/uncore-pmu.json
TOOLS_BINDIR := $(DESTDIR)$(PREFIX)/bin
TOOLS_SBINDIR := $(DESTDIR)$(PREFIX)/sbin
TOOLS_MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
EXPORTER_UNIT := packaging/systemd/uncore-metrics-exporter.service
.PHONY: install-tools install-exporter
install-tools: $(EXPORTER_BIN)
	install -d $(TOOLS_BINDIR) $(TOOLS_SBINDIR) $(TOOLS_MANDIR) $(TOOLS_MANDIR)/../man8
	install -m 0755 tools/uncore-metrics/uncore-metrics $(TOOLS_BINDIR)/
	install -m 0644 tools/uncore-metrics/uncore-metrics.1 $(TOOLS_MANDIR)/
	install -m 0755 $(EXPORTER_BIN) $(TOOLS_SBINDIR)/
	install -m 0644 $(EXPORTER_DIR)/uncore-metrics-exporter.8 $(TOOLS_MANDIR)/../man8/
	if [ -f tools/uncore-rcmap/t410-pcie-rcmap ]; then \
		install -m 0755 tools/uncore-rcmap/t410-pcie-rcmap $(TOOLS_BINDIR)/; \
		install -m 0644 tools/uncore-rcmap/t410-pcie-rcmap.1 $(TOOLS_MANDIR)/; \
	fi

install-exporter:
	install -d $(DESTDIR)$(SYSTEMD_UNITDIR)
	sed 's|/usr/sbin/uncore-metrics-exporter|$(PREFIX)/sbin/uncore-metrics-exporter|g' \
		$(EXPORTER_UNIT) > $(DESTDIR)$(SYSTEMD_UNITDIR)/uncore-metrics-exporter.service
	chmod 0644 $(DESTDIR)$(SYSTEMD_UNITDIR)/uncore-metrics-exporter.service
	install -D -m 0644 packaging/default/uncore-metrics $(DESTDIR)/etc/default/uncore-metrics
	install -D -m 0644 $(EXPORTER_RULES) $(DESTDIR)$(UDEV_RULESDIR)/60-uncore-pmu.rules
	install -D -m 0644 $(EXPORTER_PROM) $(DESTDIR)$(EXPORTER_SHARE)/prometheus/uncore-pmu-rules.yml
	install -D -m 0644 $(EXPORTER_DASHBOARD) $(DESTDIR)$(EXPORTER_SHARE)/grafana/uncore-pmu.json

# make install-docs [DESTDIR=...] [PREFIX=/usr/local]: the operator's
# documents, to PREFIX/share/doc/<package>/ as the packages ship them.
# install-docs-dkms: this README.md and the admin guides (the install
# document, Documentation/admin-guide/uncore-pmu-install.rst, and the
# guides of Documentation/admin-guide/perf/, without Sphinx's index) to
# uncore-pmu-dkms/; install-docs-tools: the README.md of uncore-metrics,
# which the exporter unit's Documentation= names, to uncore-pmu-tools/.
# Each package's build calls its own.
DOCS_DIR := $(DESTDIR)$(PREFIX)/share/doc
ADMIN_GUIDES := Documentation/admin-guide/uncore-pmu-install.rst \
	$(filter-out %/index.rst,$(wildcard Documentation/admin-guide/perf/*.rst))
.PHONY: install-docs install-docs-dkms install-docs-tools
install-docs: install-docs-dkms install-docs-tools

install-docs-dkms:
	install -d $(DOCS_DIR)/uncore-pmu-dkms
	install -m 0644 README.md $(ADMIN_GUIDES) $(DOCS_DIR)/uncore-pmu-dkms/

install-docs-tools:
	install -d $(DOCS_DIR)/uncore-pmu-tools
	install -m 0644 tools/uncore-metrics/README.md $(DOCS_DIR)/uncore-pmu-tools/

# ---- RPM packages (packaging/rpm/) ----
#
# make rpm: uncore-pmu-dkms (noarch) and uncore-pmu-tools (the machine's
# architecture: the exporter daemon is compiled) RPMs for RHEL 9, built
# with rpmbuild under a private _topdir, .build/rpm/: the RPMs end up in
# .build/rpm/RPMS/noarch/ and .build/rpm/RPMS/<arch>/. Source0 is a tarball of the working
# tree's files the install targets above read (uncommitted changes
# included); the version is dkms.conf's PACKAGE_VERSION. An rpm without
# the systemd macros is Debian's: packaging/rpm/macros.debian then stands
# in for RHEL 9's systemd-rpm-macros (and runs brp-compress with bash).
# --nodeps: the BuildRequires are RHEL package names (make,
# systemd-rpm-macros), which Debian's empty rpm database does not know;
# on RHEL, pass RPMBUILD_FLAGS= to have them checked.
RPM_TOP := $(CURDIR)/.build/rpm
RPM_SPEC := packaging/rpm/uncore-pmu.spec
RPM_TARBALL := $(RPM_TOP)/SOURCES/uncore-pmu-$(UNCORE_VERSION).tar.gz
RPM_FILES := $(DKMS_FILES) LICENSE README.md $(MODULES_LOAD_CONF) $(EXPORTER_UNIT) $(EXPORTER_RULES) \
	$(EXPORTER_SRCS) $(EXPORTER_DIR)/uxp.h $(EXPORTER_DIR)/uncore-metrics-exporter.8 \
	$(EXPORTER_PROM) $(EXPORTER_DASHBOARD) \
	packaging/default/uncore-metrics $(ADMIN_GUIDES) tools/uncore-metrics/README.md \
	tools/uncore-metrics/uncore-metrics tools/uncore-metrics/uncore-metrics.1 \
	$(wildcard tools/uncore-rcmap/t410-pcie-rcmap tools/uncore-rcmap/t410-pcie-rcmap.1)
# recursive: rpm is asked only when make rpm runs
RPM_MACROS = $(if $(shell rpm --eval '%{?systemd_post:1}'),,--load packaging/rpm/macros.debian)
RPMBUILD_FLAGS ?= --nodeps
.PHONY: rpm
rpm:
	@command -v rpmbuild >/dev/null || { echo "rpmbuild not found (Debian: apt-get install rpm)" >&2; exit 1; }
	@test -n "$(UNCORE_VERSION)" || { echo "dkms.conf: no PACKAGE_VERSION" >&2; exit 1; }
	rm -rf $(RPM_TOP)
	mkdir -p $(RPM_TOP)/SOURCES
	tar -czf $(RPM_TARBALL) --owner=0 --group=0 --numeric-owner \
		--transform 's|^|uncore-pmu-$(UNCORE_VERSION)/|' $(RPM_FILES)
	env -u UNCORE_DKMS_NAME rpmbuild -bb $(RPMBUILD_FLAGS) $(RPM_MACROS) \
		--define '_topdir $(RPM_TOP)' --define 'version_from_dkms $(UNCORE_VERSION)' $(RPM_SPEC)


# make deb: the Debian packages uncore-pmu-dkms (arch all) and
# uncore-pmu-tools (the machine's architecture: the exporter daemon is
# compiled; DEB_ARCH=arm64 cross-builds it on an amd64 machine) with
# debhelper and dh-dkms, into .build/deb/. The version is
# dkms.conf's PACKAGE_VERSION, written into a changelog made for the build;
# the build runs in a copy of the tree without the tests, the .git and
# what builds and checks leave in it (the guests' .vm-build* is gigabytes).
DEB_OUT := $(CURDIR)/.build/deb
DEB_SRC := $(DEB_OUT)/$(DKMS_NAME)-$(UNCORE_VERSION)
DEB_MAINT := $(shell sed -n 's/^Maintainer: //p' packaging/debian/control)
DEB_DATE := $(shell date -R -d @$$(git log -1 --format=%ct 2>/dev/null || date +%s))
.PHONY: deb
deb:
	rm -rf $(DEB_OUT)
	mkdir -p $(DEB_SRC)
	tar -cf - --exclude=./.git --exclude=./.build --exclude='./.vm-build*' \
		--exclude=./tools/testing --exclude=./$(EXPORTER_BIN) --exclude='./.*-state' \
		--exclude='*.o' --exclude='*.ko' . | tar -xf - -C $(DEB_SRC)
	rm -rf $(DEB_SRC)/debian
	cp -r packaging/debian $(DEB_SRC)/debian
	printf '%s (%s) unstable; urgency=medium\n\n  * Version %s of dkms.conf.\n\n -- %s  %s\n' \
		$(DKMS_NAME) $(UNCORE_VERSION) $(UNCORE_VERSION) '$(DEB_MAINT)' '$(DEB_DATE)' \
		> $(DEB_SRC)/debian/changelog
	cd $(DEB_SRC) && dpkg-buildpackage -b --no-sign $(if $(DEB_ARCH),-a $(DEB_ARCH))
	ls $(DEB_OUT)/*.deb

# make check-debug: every x86 VM run of make check (default firmware and each
# firmware, two at a time: vm-all.sh) on the debug kernel of debug-kernel.sh (built
# once, ~40 min cold), with the timeouts scaled for its slowness. Never
# part of make check.
DEBUG_STATE := $(CURDIR)/.check-debug-state
DEBUG_TIMEOUT_SCALE ?= 8
.PHONY: check-debug
check-debug:
	@rm -f $(DEBUG_STATE)
	+@if tree=$$(tools/testing/vm/debug-kernel.sh); then \
		UNCORE_TAP_STATE=$(DEBUG_STATE) tools/testing/vm-all.sh \
			--kernel-tree $$tree --timeout-scale $(DEBUG_TIMEOUT_SCALE) || true; \
	else \
		echo "not ok - check-debug: building the debug kernel failed"; \
		printf 'passed 0\nfailed 1\n' > $(DEBUG_STATE); \
	fi
	@tools/testing/check/summary.sh $(DEBUG_STATE)

# make check-64k: on the 64 KiB-page arm64 kernel of vm/kernel-64k.sh
# (built once from Debian's linux-source, with the kernel's own copies of
# our drivers as modules, and packaged), the pages firmware (one device of
# every family, two PMUs in one page), then operator/coexist.sh: the
# kernel installed from its packages in a Debian 12 arm64 root with
# systemd and udev, ours installed through DKMS as README says, beside
# the kernel's own drivers; removed, the kernel's drivers take over.
# Never part of make check.
K64_STATE := $(CURDIR)/.check-64k-state
.PHONY: check-64k
check-64k:
	@rm -f $(K64_STATE)
	+@if tree=$$(tools/testing/vm/kernel-64k.sh); then \
		UNCORE_TAP_STATE=$(K64_STATE) tools/testing/vm-test.sh --arch arm64 \
			--kernel-tree $$tree --firmware pages || true; \
		UNCORE_TAP_STATE=$(K64_STATE) tools/testing/operator/coexist.sh \
			--no-summary $$tree || true; \
	else \
		echo "not ok - check-64k: building the 64 KiB-page kernel failed"; \
		printf 'passed 0\nfailed 1\n' > $(K64_STATE); \
	fi
	@tools/testing/check/summary.sh $(K64_STATE)

# make coverage: every x86 boot of make check with our modules built for gcov,
# on the coverage flavour of debug-kernel.sh (CONFIG_GCOV_KERNEL without the
# run-time checkers, which only slow the boots; COVERAGE_FLAVOUR=debug runs
# them on the full debug kernel), each boot's line and branch
# counts collected from the guest, then the report of
# tools/testing/coverage/report.sh: .build/coverage/html/index.html and
# .build/coverage/summary.txt. Fails if a test fails, or a file of
# drivers/ or include/ runs under 95% of its lines, or a line never run
# lacks its reason in tools/testing/coverage/reasons. Never part of make check.
COVERAGE_OUT := $(CURDIR)/.build/coverage
COVERAGE_STATE := $(CURDIR)/.coverage-state
COVERAGE_FLAVOUR ?= coverage
COVERAGE_TIMEOUT_SCALE ?= $(if $(filter debug,$(COVERAGE_FLAVOUR)),$(DEBUG_TIMEOUT_SCALE),3)
.PHONY: coverage
coverage:
	@rm -rf $(COVERAGE_STATE) $(COVERAGE_OUT)
	@mkdir -p $(COVERAGE_OUT)/info
	+@if tree=$$(tools/testing/vm/debug-kernel.sh --flavour $(COVERAGE_FLAVOUR)); then \
		UNCORE_COVERAGE_DIR=$(COVERAGE_OUT)/info UNCORE_TAP_STATE=$(COVERAGE_STATE) \
		tools/testing/vm-all.sh --kernel-tree $$tree \
			--timeout-scale $(COVERAGE_TIMEOUT_SCALE) || true; \
	else \
		echo "not ok - coverage: building the $(COVERAGE_FLAVOUR) kernel failed"; \
		printf 'passed 0\nfailed 1\n' > $(COVERAGE_STATE); \
	fi
	@st=0; tools/testing/coverage/report.sh $(COVERAGE_OUT)/info $(COVERAGE_OUT) || st=1; \
		tools/testing/check/summary.sh $(COVERAGE_STATE) && exit $$st
