# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of the uncore PMU helper layer and drivers.
#
#   make [KDIR=<kernel build tree>] [ARCH=arm64 CROSS_COMPILE=...] [COMPILE_TEST=1] [W=1] [C=2]
#   make install | clean | check | demo | vm-test [EXTRA_TESTS=dir] [FIRMWARE=variant] [ARCH=arm64]

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
	+@$(MAKE) --no-print-directory check-arm64-vm STATE=$(STATE)
	@tools/testing/check/summary.sh $(STATE)

# make vm-test [EXTRA_TESTS=<dir>] [FIRMWARE=<variant>] [ARCH=arm64]
vm-test:
	+tools/testing/vm-test.sh $(if $(EXTRA_TESTS),--extra $(EXTRA_TESTS)) \
		$(if $(FIRMWARE),--firmware $(FIRMWARE)) $(if $(filter arm64,$(ARCH)),--arch arm64)

demo:
	+tools/testing/vm-test.sh --demo

help:
	@sed -n '3,6p' $(firstword $(MAKEFILE_LIST))

# The arm64 guest (tools/testing/vm/README.md), counted in make check's
# totals: the default firmware. Its variants run with
# "make vm-test ARCH=arm64 FIRMWARE=<variant>".
.PHONY: check-arm64-vm
check-arm64-vm:
	+@UNCORE_TAP_STATE=$(STATE) tools/testing/vm-test.sh --no-summary --arch arm64 || true
