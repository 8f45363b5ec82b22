/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences that only the simulator meets, decided by the
 * same conftest.sh probes as include/uncore_compat.h (which it includes).
 */
#ifndef __SIM_COMPAT_H
#define __SIM_COMPAT_H

#include <linux/acpi.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/smp.h>

#include "uncore_compat.h"

/**
 * uncore_init_irq_work_hard - set up an irq_work that runs in hard IRQ context
 * @work: the irq_work
 * @fn: its function
 *
 * IRQ_WORK_INIT_HARD() arrived in 5.11; before, every irq_work runs in hard
 * interrupt context unless PREEMPT_RT, which those Debian kernels are not.
 * Test simulator only.
 */
static inline void uncore_init_irq_work_hard(struct irq_work *work,
					     void (*fn)(struct irq_work *))
{
#ifdef UNCORE_HAVE_IRQ_WORK_INIT_HARD
	*work = IRQ_WORK_INIT_HARD(fn);
#else
	init_irq_work(work, fn);
#endif
}

/**
 * uncore_init_csd - set up a csd for smp_call_function_single_async()
 * @csd: the csd, zeroed
 * @fn: its function
 * @data: @fn's argument
 *
 * INIT_CSD() arrived in 5.11; before, the fields are set one by one. Test
 * simulator only.
 */
static inline void uncore_init_csd(call_single_data_t *csd, smp_call_func_t fn, void *data)
{
#ifdef UNCORE_HAVE_INIT_CSD
	INIT_CSD(csd, fn, data);
#else
	csd->func = fn;
	csd->info = data;
#endif
}

/*
 * IRQ_MOVE_PCNTXT let an interrupt's affinity change in process context
 * where GENERIC_PENDING_IRQ (x86) would defer it to the next ack. From 6.14
 * on that is what every chip without IRQCHIP_MOVE_DEFERRED gets, and the
 * flag is gone. Used by the test simulator's interrupt chip.
 */
#ifdef UNCORE_HAVE_IRQ_MOVE_PCNTXT
#define UNCORE_IRQ_MOVE_PCNTXT	IRQ_MOVE_PCNTXT
#else
#define UNCORE_IRQ_MOVE_PCNTXT	0
#endif

/**
 * uncore_acpi_load_table - load an SSDT into the ACPI namespace at run time
 * @table: the table; ACPICA keeps pointing into it, so it must never be freed
 *
 * acpi_load_table() gained a table index argument in later kernels (the
 * acpi_load_table_idx probe decides); the index is not needed here. Test
 * simulator only.
 *
 * Return: the ACPICA status.
 */
static inline acpi_status uncore_acpi_load_table(struct acpi_table_header *table)
{
#ifdef UNCORE_HAVE_ACPI_LOAD_TABLE_IDX
	return acpi_load_table(table, NULL);
#else
	return acpi_load_table(table);
#endif
}

#endif /* __SIM_COMPAT_H */
