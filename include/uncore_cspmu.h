/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CSPMU engine of the helper layer: PMUs built on the Arm CoreSight PMU
 * architecture (IHI 0091), enumerated from the APMT. The engine binds the
 * devices and knows which module drives which product; a driver module
 * registers, per product, its names, formats and events, and filter hooks.
 */
#ifndef __UNCORE_CSPMU_H
#define __UNCORE_CSPMU_H

#include <linux/hrtimer.h>
#include <linux/idr.h>

#include "uncore_apmt.h"
#include "uncore_pmu.h"

/* Each page holds registers up to 0xfff */
#define CSPMU_PAGE_SIZE		0x1000

/* Page 0 registers */
#define CSPMU_PMEVTYPER(n)	(0x400 + 4 * (n))
#define CSPMU_PMCCFILTR		0x47c
#define CSPMU_PMEVFILT2R(n)	(0x800 + 4 * (n))
#define CSPMU_PMEVFILTR(n)	(0xa00 + 4 * (n))
#define CSPMU_PMCNTENSET(k)	(0xc00 + 4 * (k))
#define CSPMU_PMCNTENCLR(k)	(0xc20 + 4 * (k))
#define CSPMU_PMINTENSET(k)	(0xc40 + 4 * (k))
#define CSPMU_PMCFGR		0xe00
#define CSPMU_PMCR		0xe04
#define CSPMU_PMIIDR		0xe08
#define CSPMU_PMPIDR4		0xfd0
#define CSPMU_PMPIDR(n)		(0xfe0 + 4 * (n))
/* Page 1 registers */
#define CSPMU_PMEVCNTR32(n)	(4 * (n))
#define CSPMU_PMEVCNTR64(n)	(8 * (n))
#define CSPMU_PMOVSCLR(k)	(0xc80 + 4 * (k))

#define CSPMU_PMCFGR_N		GENMASK(7, 0)
#define CSPMU_PMCFGR_SIZE	GENMASK(13, 8)
#define CSPMU_PMCFGR_CC		BIT(14)

#define CSPMU_PMCR_E		BIT(0)
#define CSPMU_PMCR_P		BIT(1)
#define CSPMU_PMCR_C		BIT(2)

/* Physical counter indices the configuration registers cover. */
#define CSPMU_MAX_PHYS		64
/* SET/CLR registers (32 counters each) for those. */
#define CSPMU_NR_SETS		DIV_ROUND_UP(CSPMU_MAX_PHYS, 32)
/* Physical index of the dedicated cycle counter. */
#define CSPMU_CYCLE_PHYS	31
/* PMIIDR bits a product is matched on: product, variant, revision. */
#define CSPMU_PRODID_MASK	0xfffff000
/*
 * PMIIDR implementer (JEP106 code); NVIDIA's, and its products. Which
 * module drives each is the engine's table, cspmu_products[].
 */
#define CSPMU_IMPLEMENTER	GENMASK(11, 0)
#define NV_CSPMU_IMPLEMENTER	0x36b
#define NV_T241_SCF_PRODID	0x2cf00000
#define NV_T241_PCIE_PRODID	0x10300000
#define NV_T241_C2C1_PRODID	0x10400000
#define NV_T241_C2C0_PRODID	0x10500000
#define NV_T241_CNVLINK_PRODID	0x10600000
#define NV_T410_UCF_PRODID	0x2cf20000
#define NV_T410_PCIE_PRODID	0x10301000
#define NV_T410_PCIE_TGT_PRODID	0x10700000

/* Default cycle-counter event id of the CSPMU formats (config bit 32). */
#define CSPMU_EV_CYCLES		BIT_ULL(32)

/* attr_mask bit of attributes shown only if PMCFGR.CC says a cycle counter exists. */
#define UNCORE_CSPMU_ATTR_CC	BIT(0)

struct acpi_device;
struct uncore_cspmu;

/**
 * enum uncore_cspmu_naming - the numbers in a CSPMU's PMU name
 * @UNCORE_CSPMU_BY_SOCKET:    <name>_<socket>
 * @UNCORE_CSPMU_BY_SOCKET_RC: <name>_<socket>_rc_<RC>, the RC number
 *                             from the ACPI device's _DSD instance_id
 * @UNCORE_CSPMU_BY_SEQ:       <name>_<n>, n the lowest number no other
 *                             device of the entry holds (its @seq)
 */
enum uncore_cspmu_naming {
	UNCORE_CSPMU_BY_SOCKET,
	UNCORE_CSPMU_BY_SOCKET_RC,
	UNCORE_CSPMU_BY_SEQ,
};

/**
 * struct uncore_cspmu_impl - how a CSPMU driver drives one product
 * @prodid:          the product of the engine's table this entry drives:
 *                   PMIIDR product/variant/revision (mask 0xfffff000), an
 *                   NV_*_PRODID; 0 for the table's entry of every other
 *                   product of an implementer
 * @name:            PMU name before its numbers (enum uncore_cspmu_naming)
 * @naming:          which numbers follow @name
 * @seq:             the numbers of %UNCORE_CSPMU_BY_SEQ names in use
 * @formats:         format/ entries, as &uncore_pmu_desc.formats
 * @events:          events/ entries, as &uncore_pmu_desc.events
 * @flags:           UNCORE_PMU_* flags; the engine gives the callbacks and
 *                   the counters it finds in PMCFGR
 * @event_type:      PMEVTYPER value of @event (default: config[31:0])
 * @is_cycle:        @event counts on the cycle counter (default: config
 *                   == CSPMU_EV_CYCLES)
 * @filter:          the config1 bits PMEVFILTR (without @set_ev_filter)
 *                   and PMCCFILTR (without @set_cc_filter) take; all of
 *                   them when the event sets none
 * @filter2:         the same for config2 and PMEVFILT2R (0: not written)
 * @set_ev_filter:   program the filters of regular counter @phys
 * @set_cc_filter:   program PMCCFILTR for a cycle event
 * @reset_ev_filter: undo @set_ev_filter when the event stops
 * @validate_group:  at open: may a regular @event join its group (the
 *                   group's counters are checked already); -EINVAL refuses
 * @claim:           at pmu->add, a counter found: may a regular @event
 *                   count beside the scheduled ones
 *                   (uncore_pmu_for_each_event()), and take what it
 *                   shares with them; -EINVAL leaves it to perf's next
 *                   rotation
 * @unclaim:         at pmu->del: give back what @claim took
 * @init:            extra probe work with the ACPI device of the node
 */
struct uncore_cspmu_impl {
	u32 prodid;
	const char *name;
	enum uncore_cspmu_naming naming;
	struct ida *seq;
	struct attribute **formats;
	struct attribute **events;
	u32 flags;
	u32 filter;
	u32 filter2;
	u32 (*event_type)(struct perf_event *event);
	bool (*is_cycle)(struct perf_event *event);
	void (*set_ev_filter)(struct uncore_cspmu *cspmu, struct perf_event *event,
			      unsigned int phys);
	void (*set_cc_filter)(struct uncore_cspmu *cspmu, struct perf_event *event);
	void (*reset_ev_filter)(struct uncore_cspmu *cspmu, struct perf_event *event,
				unsigned int phys);
	int (*validate_group)(struct uncore_cspmu *cspmu, struct perf_event *event);
	int (*claim)(struct uncore_cspmu *cspmu, struct perf_event *event);
	void (*unclaim)(struct uncore_cspmu *cspmu, struct perf_event *event);
	int (*init)(struct uncore_cspmu *cspmu, struct acpi_device *adev);
};

/**
 * struct uncore_cspmu_regs - the engine's copy of register state
 * @pmcr_e:     PMCR.E as last written
 * @frozen:     a read transaction cleared PMCR.E, and thaw sets it again
 * @disabled:   between pmu_disable and pmu_enable
 * @cnten_want: PMCNTEN as the started counters need it (physical bits)
 * @cnten_hw:   PMCNTEN as last written
 * @cfg:        PMEVTYPER, PMEVFILT2R and PMEVFILTR of each physical counter
 *              as last written (PMCCFILTR is PMEVTYPER31's slot)
 * @cfg_valid:  which @cfg entries are known, bit 64 * register + counter
 * @held:       value of each stopped counter (logical index), valid while
 *              its bit in @held_valid is set
 * @held_valid: see @held
 *
 * Invariants, kept by the engine alone:
 *  - every value cached here is what the register holds: the engine reads
 *    them at probe and updates the copy with each write, so a write of the
 *    value a register holds already is left out;
 *  - PMCNTEN changes between pmu_disable and pmu_enable only in
 *    @cnten_want, and pmu_enable writes them at once (one SET, one CLR);
 *  - a counter whose bit in @held_valid is set has not counted since it
 *    was read, so its next start needs no preload if @held is in the upper
 *    half of the range.
 */
struct uncore_cspmu_regs {
	bool pmcr_e;
	bool frozen;
	bool disabled;
	u32 cnten_want[CSPMU_NR_SETS];
	u32 cnten_hw[CSPMU_NR_SETS];
	u32 cfg[3][CSPMU_MAX_PHYS];
	DECLARE_BITMAP(cfg_valid, 3 * CSPMU_MAX_PHYS);
	u64 held[UNCORE_PMU_MAX_COUNTERS];
	DECLARE_BITMAP(held_valid, UNCORE_PMU_MAX_COUNTERS);
};

/**
 * struct uncore_cspmu - one CSPMU instance
 * @upmu: the helper-layer PMU
 * @priv: driver data
 *
 * A driver uses these and the engine's helpers below; the rest is the
 * engine's.
 */
struct uncore_cspmu {
	struct uncore_pmu upmu;
	void *priv;
	/* private: */
	/* NUMA node of the first associated CPU; RC number (_DSD instance_id) */
	u32 socket;
	u32 rc;
	/* the name's number taken from impl->seq (UNCORE_CSPMU_BY_SEQ) */
	int seq_id;
	/* the driver's description, and the layer's: its tables, our callbacks */
	const struct uncore_cspmu_impl *impl;
	/* the array @impl is in: the driver module's registration */
	const struct uncore_cspmu_impl *backend;
	struct uncore_pmu_desc desc;
	/* the APMT node the device was made from */
	const struct uncore_apmt_node *apmt;
	/* page 0 (control, configuration); page 1 (counters), page 0 if single */
	struct uncore_win page0;
	struct uncore_win page1;
	/* product identification matched on (APMT override first) */
	u32 pmiidr;
	/* 64-bit counters can be read with one access */
	bool atomic64;
	/* logical index of the cycle counter, or num_counters if none */
	unsigned int cycle_idx;
	struct uncore_cspmu_regs regs;
};

/**
 * uncore_cspmu_on_cycle - does @event read the dedicated cycle counter
 * @c:     the CSPMU
 * @event: a scheduled event of @c (uncore_pmu_for_each_event())
 *
 * Every cycles event of a CSPMU with a cycle counter reads it, shared
 * (%UNCORE_HW_SHARED): it takes no regular counter and no filter.
 *
 * Return: true for an event on the cycle counter.
 */
static inline bool uncore_cspmu_on_cycle(const struct uncore_cspmu *c,
					 const struct perf_event *event)
{
	return c->cycle_idx < c->upmu.num_counters && uncore_event_shared(event);
}

/**
 * to_uncore_cspmu - the CSPMU instance that embeds a perf PMU
 * @pmu: the perf PMU of a CSPMU driver
 *
 * Return: the containing &struct uncore_cspmu.
 */
static inline struct uncore_cspmu *to_uncore_cspmu(struct pmu *pmu)
{
	return container_of(to_uncore_pmu(pmu), struct uncore_cspmu, upmu);
}

void uncore_cspmu_write_cfg(struct uncore_cspmu *cspmu, u32 off, u32 val);

int uncore_cspmu_backend_register(const struct uncore_cspmu_impl *impls,
				  unsigned int n, struct module *owner,
				  const char *modname);
void uncore_cspmu_backend_unregister(const struct uncore_cspmu_impl *impls);

/**
 * module_uncore_cspmu_backend - a CSPMU driver module
 * @__impls: array of the driver's struct uncore_cspmu_impl, one a product
 *           of the engine's table that names this module
 *
 * The module registers @__impls with the engine when it loads, and the
 * engine probes the devices of those products; it unregisters them when
 * it unloads, and the engine unbinds those devices first. The devices
 * themselves belong to the engine's one platform driver, which loads a
 * product's module on demand.
 */
#define module_uncore_cspmu_backend(__impls)				\
static const struct uncore_cspmu_impl *const __impls##_backend = (__impls); \
static int __init __impls##_register(void)				\
{									\
	return uncore_cspmu_backend_register(__impls##_backend,		\
					     sizeof(__impls) / sizeof((__impls)[0]) + \
					     __must_be_array(__impls),	\
					     THIS_MODULE, KBUILD_MODNAME); \
}									\
module_init(__impls##_register);					\
static void __exit __impls##_unregister(void)				\
{									\
	uncore_cspmu_backend_unregister(__impls##_backend);		\
}									\
module_exit(__impls##_unregister)

#endif /* __UNCORE_CSPMU_H */
