# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of the uncore PMU helper layer and drivers.
#
#   make [KDIR=<kernel build tree>] [ARCH=arm64 CROSS_COMPILE=...] [COMPILE_TEST=1] [W=1] [C=2]
#   make install | clean | check | demo | vm-test [EXTRA_TESTS=dir] [FIRMWARE=variant]
#   make check-debug: the VM tests again on a self-built KASAN/lockdep/kmemleak kernel

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
CONFIGS := CONFIG_UNCORE_PMU=m
ifeq ($(DRIVERS),y)
CONFIGS += CONFIG_MARVELL_PEM_PMU=m
CONFIGS += CONFIG_NVIDIA_TEGRA410_CMEM_LATENCY_PMU=m
CONFIGS += CONFIG_NVIDIA_TEGRA410_C2C_PMU=m
CONFIGS += CONFIG_NVIDIA_TEGRA410_UCF_PMU=m
CONFIGS += CONFIG_NVIDIA_TEGRA410_PCIE_PMU=m
CONFIGS += CONFIG_NVIDIA_TEGRA410_PCIE_TGT_PMU=m
endif

# The register-level simulator is a test module: test builds only.
ifneq ($(filter 1 y,$(COMPILE_TEST)),)
CONFIGS += CONFIG_UNCORE_SIM=m
endif

GEN := $(CURDIR)/.build/$(TARGET_ARCH)$(subst /,_,$(abspath $(KDIR)))
KBUILD := $(MAKE) -C $(KDIR) M=$(CURDIR) $(CONFIGS) UNCORE_GEN=$(GEN)

.PHONY: all modules install clean check demo vm-test help FORCE

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
	rm -rf .build

# make check: static checks, then the VM tests, one closing line for both.
STATE := $(CURDIR)/.check-state
check:
	@mkdir -p .build && rm -f $(STATE)
	+@UNCORE_TAP_STATE=$(STATE) tools/testing/check/run.sh --no-summary || true
	+@UNCORE_TAP_STATE=$(STATE) tools/testing/vm-test.sh --no-summary || true
	+@for v in $(notdir $(wildcard tools/testing/tests/variants/*)); do \
		UNCORE_TAP_STATE=$(STATE) tools/testing/vm-test.sh --no-summary \
			--firmware $$v || true; \
	done
	@tools/testing/check/summary.sh $(STATE)

# make vm-test [EXTRA_TESTS=<dir>] [FIRMWARE=<variant>]
vm-test:
	+tools/testing/vm-test.sh $(if $(EXTRA_TESTS),--extra $(EXTRA_TESTS)) \
		$(if $(FIRMWARE),--firmware $(FIRMWARE))

demo:
	+tools/testing/vm-test.sh --demo

help:
	@sed -n '3,7p' $(firstword $(MAKEFILE_LIST))

# make check-debug: every VM run of make check (default firmware, then each
# variant) on the debug kernel of tools/testing/vm/debug-kernel.sh (built
# once, ~40 min cold), with the timeouts scaled for its slowness. Never
# part of make check.
DEBUG_STATE := $(CURDIR)/.check-debug-state
DEBUG_TIMEOUT_SCALE ?= 4
.PHONY: check-debug
check-debug:
	@rm -f $(DEBUG_STATE)
	+@if tree=$$(tools/testing/vm/debug-kernel.sh); then \
		for v in default $(notdir $(wildcard tools/testing/tests/variants/*)); do \
			UNCORE_TAP_STATE=$(DEBUG_STATE) tools/testing/vm-test.sh --no-summary \
				--kernel-tree $$tree --timeout-scale $(DEBUG_TIMEOUT_SCALE) \
				--firmware $$v || true; \
		done; \
	else \
		echo "not ok - check-debug: building the debug kernel failed"; \
		printf 'passed 0\nfailed 1\n' > $(DEBUG_STATE); \
	fi
	@tools/testing/check/summary.sh $(DEBUG_STATE)
