// SPDX-License-Identifier: GPL-2.0
/*
 * Overflow interrupts of the simulated devices (tools/testing/sim/contract.md section 2,
 * "Overflow interrupts"): an IRQ domain of the simulator's own with one
 * level-triggered interrupt per device whose kind has one and whose
 * firmware names none. The helper layer gets the Linux IRQ through the
 * register backend's irq hook, requests it and moves its affinity to the
 * PMU's active CPU; the chip records that CPU as the effective affinity.
 *
 * The model sets the line level under its device lock. A rising level, an
 * unmask or the start-up of a requested interrupt queues an irq_work on the
 * current CPU; it runs once interrupts are enabled again (so never under the
 * device lock) and delivers the interrupt, with generic_handle_irq() and
 * interrupts disabled, on the CPU of the effective affinity: directly if
 * that is this CPU, else through an asynchronous IPI. handle_level_irq()
 * masks the line while the handler runs and unmasks it after; the unmask
 * raises again while the level is still high, so a handler that does not
 * clear the overflow status sees the interrupt again, at most
 * SIM_IRQ_STORM times in a row before the simulator gives up on it until
 * the level next rises.
 */

#define pr_fmt(fmt) "uncore_sim: " fmt

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/irqdomain.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "sim_compat.h"

#include "sim.h"

/* Deliveries in a row with the level still high before giving up. */
#define SIM_IRQ_STORM		10000

/**
 * struct sim_irq - the overflow interrupt of one device
 * @sdev:    the device
 * @virq:    its Linux IRQ number
 * @level:   the line level the model last set (under sdev->lock)
 * @masked:  the chip masked it
 * @live:    it is requested and started up
 * @dying:   the module is going away: deliver nothing more
 * @cpu:     the CPU of its effective affinity
 * @storm:   deliveries since the level last rose
 * @work:    raises it from the CPU that changed the level
 * @csd:     delivers it on another CPU
 * @csd_busy: @csd is in flight
 */
struct sim_irq {
	struct sim_dev *sdev;
	unsigned int virq;
	bool level;
	bool masked;
	bool live;
	bool dying;
	unsigned int cpu;
	unsigned int storm;
	struct irq_work work;
	call_single_data_t csd;
	atomic_t csd_busy;
};

static struct fwnode_handle *sim_irq_fwnode;
static struct irq_domain *sim_irq_domain;
static struct sim_irq **sim_irqs;
static unsigned int sim_nr_irqs;

/* Deliver @si on this CPU, interrupts disabled, if it is pending. */
static void sim_irq_deliver(struct sim_irq *si)
{
	if (READ_ONCE(si->dying) || !READ_ONCE(si->level) ||
	    READ_ONCE(si->masked))
		return;
	if (si->storm >= SIM_IRQ_STORM)
		return;
	if (++si->storm == SIM_IRQ_STORM)
		pr_warn("%s: IRQ %u still pending after %u deliveries; not raised again until it is cleared\n",
			si->sdev->desc->name, si->virq, SIM_IRQ_STORM);
	generic_handle_irq(si->virq);
}

static void sim_irq_csd_func(void *info)
{
	struct sim_irq *si = info;

	sim_irq_deliver(si);
	atomic_set_release(&si->csd_busy, 0);
	/* a raise that found the csd busy after the handler had run */
	if (READ_ONCE(si->level) && !READ_ONCE(si->masked) &&
	    !READ_ONCE(si->dying))
		irq_work_queue(&si->work);
}

static void sim_irq_work_func(struct irq_work *work)
{
	struct sim_irq *si = container_of(work, struct sim_irq, work);
	unsigned int cpu = READ_ONCE(si->cpu);
	unsigned int self = smp_processor_id();

	if (READ_ONCE(si->dying))
		return;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu))
		cpu = self;
	if (cpu == self) {
		sim_irq_deliver(si);
		return;
	}
	if (atomic_xchg(&si->csd_busy, 1))
		return;
	if (smp_call_function_single_async(cpu, &si->csd))
		atomic_set(&si->csd_busy, 0);
}

/* ---- the irq_chip ---- */

static void sim_irq_mask(struct irq_data *d)
{
	struct sim_irq *si = irq_data_get_irq_chip_data(d);

	WRITE_ONCE(si->masked, true);
}

static void sim_irq_unmask(struct irq_data *d)
{
	struct sim_irq *si = irq_data_get_irq_chip_data(d);

	WRITE_ONCE(si->masked, false);
	if (READ_ONCE(si->level))
		irq_work_queue(&si->work);
}

static unsigned int sim_irq_startup(struct irq_data *d)
{
	struct sim_irq *si = irq_data_get_irq_chip_data(d);

	WRITE_ONCE(si->live, true);
	sim_irq_unmask(d);
	return 0;
}

static void sim_irq_shutdown(struct irq_data *d)
{
	struct sim_irq *si = irq_data_get_irq_chip_data(d);

	WRITE_ONCE(si->live, false);
	sim_irq_mask(d);
}

static int sim_irq_set_affinity(struct irq_data *d,
				const struct cpumask *mask, bool force)
{
	struct sim_irq *si = irq_data_get_irq_chip_data(d);
	unsigned int cpu;

	cpu = force ? cpumask_first(mask) :
		      cpumask_first_and(mask, cpu_online_mask);
	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	WRITE_ONCE(si->cpu, cpu);
	irq_data_update_effective_affinity(d, cpumask_of(cpu));
	return IRQ_SET_MASK_OK;
}

static struct irq_chip sim_irq_chip = {
	.name			= "uncore_sim",
	.irq_startup		= sim_irq_startup,
	.irq_shutdown		= sim_irq_shutdown,
	.irq_mask		= sim_irq_mask,
	.irq_unmask		= sim_irq_unmask,
	.irq_set_affinity	= sim_irq_set_affinity,
};

static int sim_irq_map(struct irq_domain *d, unsigned int virq,
		       irq_hw_number_t hw)
{
	if (hw >= sim_nr_irqs || !sim_irqs[hw])
		return -EINVAL;
	irq_set_chip_data(virq, sim_irqs[hw]);
	irq_set_chip_and_handler_name(virq, &sim_irq_chip, handle_level_irq,
				      "level");
	/*
	 * Without IRQ_MOVE_PCNTXT, GENERIC_PENDING_IRQ (x86) defers every
	 * affinity change to an ack path this chip does not have.
	 */
	irq_set_status_flags(virq, IRQ_LEVEL | IRQ_NOPROBE | UNCORE_IRQ_MOVE_PCNTXT);
	return 0;
}

static const struct irq_domain_ops sim_irq_domain_ops = {
	.map	= sim_irq_map,
};

/* ---- interface to the framework and the models ---- */

/**
 * sim_irq_virq - the Linux IRQ of a device's overflow interrupt
 * @sdev: the device
 *
 * Return: the IRQ number, or 0 if the device has none of the simulator's.
 */
int sim_irq_virq(const struct sim_dev *sdev)
{
	return sdev->irq ? sdev->irq->virq : 0;
}

/**
 * sim_irq_set_level - set the level of a device's overflow interrupt line
 * @sdev:  the device; its lock is held
 * @level: pending (any overflow status bit with its interrupt enabled)
 *
 * A rising level raises the interrupt on the CPU of its effective
 * affinity once the caller has dropped the lock and enabled interrupts.
 * Nothing happens for a device without an interrupt.
 */
void sim_irq_set_level(struct sim_dev *sdev, bool level)
{
	struct sim_irq *si = sdev->irq;

	if (!si || si->level == level)
		return;
	WRITE_ONCE(si->level, level);
	if (!level)
		return;
	WRITE_ONCE(si->storm, 0);
	if (!READ_ONCE(si->masked))
		irq_work_queue(&si->work);
}

/**
 * sim_irq_live - whether a device's overflow interrupt is requested
 * @sdev: the device
 *
 * Return: true while a driver has the interrupt requested (started up), so
 * an enabled overflow interrupt reaches it.
 */
bool sim_irq_live(const struct sim_dev *sdev)
{
	return sdev->irq && READ_ONCE(sdev->irq->live);
}

static bool sim_irq_wanted(const struct sim_dev *sdev)
{
	u64 gsi;

	/* firmware with a wired interrupt: the kernel maps that one */
	return sdev->ops->has_irq && !(sim_prop(sdev, "ovflw_irq", &gsi) && gsi);
}

/**
 * sim_irq_init - create the IRQ domain and an interrupt per device that
 *                needs one
 * @devs: the devices
 * @nr:   their number
 *
 * Return: 0 or a negative errno (nothing left allocated).
 */
int sim_irq_init(struct sim_dev *devs, unsigned int nr)
{
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < nr; i++)
		n += sim_irq_wanted(&devs[i]);
	if (!n)
		return 0;
	sim_irqs = kcalloc(n, sizeof(*sim_irqs), GFP_KERNEL);
	if (!sim_irqs)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		struct sim_irq *si;

		if (!sim_irq_wanted(&devs[i]))
			continue;
		si = kzalloc_obj(*si, GFP_KERNEL);
		if (!si) {
			ret = -ENOMEM;
			goto err;
		}
		si->sdev = &devs[i];
		si->masked = true;
		si->cpu = cpumask_first(cpu_online_mask);
		uncore_init_irq_work_hard(&si->work, sim_irq_work_func);
		uncore_init_csd(&si->csd, sim_irq_csd_func, si);
		sim_irqs[sim_nr_irqs++] = si;
	}

	sim_irq_fwnode = irq_domain_alloc_named_fwnode("uncore_sim");
	if (!sim_irq_fwnode) {
		ret = -ENOMEM;
		goto err;
	}
	sim_irq_domain = irq_domain_create_linear(sim_irq_fwnode, sim_nr_irqs,
						  &sim_irq_domain_ops, NULL);
	if (!sim_irq_domain) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < sim_nr_irqs; i++) {
		struct sim_irq *si = sim_irqs[i];
		unsigned int virq = irq_create_mapping(sim_irq_domain, i);

		if (!virq) {
			ret = -ENOSPC;
			goto err;
		}
		si->virq = virq;
		si->sdev->irq = si;
	}
	return 0;

err:
	sim_irq_exit();
	return ret;
}

/**
 * sim_irq_exit - tear down what sim_irq_init() created
 *
 * No driver may hold one of the interrupts any more.
 */
void sim_irq_exit(void)
{
	unsigned int i;

	for (i = 0; i < sim_nr_irqs; i++)
		WRITE_ONCE(sim_irqs[i]->dying, true);
	for (i = 0; i < sim_nr_irqs; i++)
		while (atomic_read_acquire(&sim_irqs[i]->csd_busy))
			usleep_range(100, 200);
	/* the tail of a csd function runs with interrupts off */
	synchronize_rcu();
	for (i = 0; i < sim_nr_irqs; i++) {
		struct sim_irq *si = sim_irqs[i];

		irq_work_sync(&si->work);
		if (si->virq)
			irq_dispose_mapping(si->virq);
		si->sdev->irq = NULL;
		kfree(si);
	}
	if (sim_irq_domain)
		irq_domain_remove(sim_irq_domain);
	if (sim_irq_fwnode)
		irq_domain_free_fwnode(sim_irq_fwnode);
	kfree(sim_irqs);
	sim_irqs = NULL;
	sim_irq_domain = NULL;
	sim_irq_fwnode = NULL;
	sim_nr_irqs = 0;
}
