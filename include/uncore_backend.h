/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helper layer's register backend interface: a test module (the
 * register simulator, tools/testing/sim/) that stands in for the
 * registers of the windows it claims, and for the firmware's overflow
 * interrupts and APMT where a test guest has none. Drivers never include
 * this: their accessors (uncore_pmu.h) reach a backend without knowing of
 * it. Exported in a namespace of its own, which only test modules import.
 */
#ifndef __UNCORE_BACKEND_H
#define __UNCORE_BACKEND_H

#include "uncore_pmu.h"

struct acpi_table_header;

/* The backend namespace, written as uncore_compat.h writes UNCORE_PMU. */
#ifdef UNCORE_HAVE_NS_STRING
#define UNCORE_PMU_BACKEND	"UNCORE_PMU_BACKEND"
#endif

/**
 * UNCORE_BACKEND_IMPORT_NS - import the backend interface's namespace
 *
 * Test modules, and the CSPMU engine for a backend's interrupt; with
 * UNCORE_IMPORT_NS() where they use the layer too.
 */
#define UNCORE_BACKEND_IMPORT_NS()	MODULE_IMPORT_NS(UNCORE_PMU_BACKEND)

/**
 * struct uncore_backend - a register backend (the test simulator)
 * @owner:  module providing the backend; pinned while it serves a window
 * @claims: return true if the backend models [@phys, @phys + @size)
 * @read:   read @bytes (4 or 8) at physical address @addr
 * @write:  write @bytes (4 or 8) of @val at physical address @addr
 * @irq:    optional: a Linux IRQ for the device whose first window starts
 *          at @base, for devices whose firmware gives none; 0 for none
 *
 * With no backend registered the accessors of uncore_pmu.h are plain
 * relaxed MMIO behind a disabled static branch.
 */
struct uncore_backend {
	struct module *owner;
	bool (*claims)(phys_addr_t phys, resource_size_t size);
	u64 (*read)(phys_addr_t addr, unsigned int bytes);
	void (*write)(phys_addr_t addr, u64 val, unsigned int bytes);
	int (*irq)(phys_addr_t base);
};

int uncore_backend_register(const struct uncore_backend *be);
void uncore_backend_unregister(const struct uncore_backend *be);
int uncore_backend_irq(const struct uncore_win *win);

/*
 * An APMT standing in for the firmware's, for test guests whose firmware
 * cannot carry one (6.1's initrd table upgrade refuses APMT), from the
 * uncore_cspmu module: if the firmware has no APMT, devices are made of
 * its nodes as of the firmware's, until it is removed again. A backend
 * adds it once registered and removes it before it unregisters.
 */
void uncore_apmt_add_backend(struct acpi_table_header *hdr);
void uncore_apmt_remove_backend(struct acpi_table_header *hdr);

#endif /* __UNCORE_BACKEND_H */
