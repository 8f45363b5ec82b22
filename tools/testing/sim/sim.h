/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register-level simulator of the uncore PMUs (test only, never shipped):
 * the topology tables that tools/testing/sim/gen.sh generates and the
 * framework a device model plugs into.
 */
#ifndef __UNCORE_SIM_H
#define __UNCORE_SIM_H

#include <linux/atomic.h>
#include <linux/dcache.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

/* Kinds of simulated device; the names are those of the devices file. */
enum sim_kind {
	SIM_KIND_UCF,
	SIM_KIND_PCIE,
	SIM_KIND_PCIE_TGT,
	SIM_KIND_CMEM,
	SIM_KIND_NVLINK_C2C,
	SIM_KIND_NVCLINK,
	SIM_KIND_NVDLINK,
	SIM_KIND_PEM,
	SIM_KIND_SCF,
	SIM_KIND_GRACE_PCIE,
	SIM_KIND_NVLINK_C2C0,
	SIM_KIND_NVLINK_C2C1,
	SIM_KIND_CNVLINK,
	SIM_KIND_NVIDIA_GENERIC,
	SIM_KIND_ODYSSEY_DDR,
	SIM_KIND_ODYSSEY_TAD,
	SIM_NR_KINDS
};

/**
 * struct sim_win_desc - one register window of a device (generated)
 * @name: window name in the regs file: page0, page1, filter, inst<n>,
 *        bcast or regs
 * @base: physical base address
 * @size: size in bytes
 */
struct sim_win_desc {
	const char *name;
	u64 base;
	u64 size;
};

/**
 * struct sim_prop - a numeric property of a device (generated)
 * @key: property name; _DSD properties appear without their "dsd." prefix
 * @val: its value
 */
struct sim_prop {
	const char *key;
	u64 val;
};

/**
 * struct sim_dev_desc - one device of a topology (generated)
 * @kind:     what it is
 * @name:     PMU name the driver is expected to register
 * @hid:      ACPI _HID of its firmware node, or NULL if it has none
 * @uid:      ACPI _UID, or NULL if it has no firmware node
 * @socket:   socket (NUMA node) it belongs to
 * @wins:     register windows, in firmware resource order
 * @nr_wins:  number of @wins
 * @props:    further properties (_DSD masks, rc, ...)
 * @nr_props: number of @props
 */
struct sim_dev_desc {
	enum sim_kind kind;
	const char *name;
	const char *hid;
	const char *uid;
	unsigned int socket;
	const struct sim_win_desc *wins;
	unsigned int nr_wins;
	const struct sim_prop *props;
	unsigned int nr_props;
};

/**
 * struct sim_topology - a named set of devices (generated)
 * @name:    the name the topology= parameter selects
 * @devs:    the devices
 * @nr_devs: number of @devs
 */
struct sim_topology {
	const char *name;
	const struct sim_dev_desc *devs;
	unsigned int nr_devs;
};

/* Most attributes one inject line can carry (see struct sim_attr_desc). */
#define SIM_MAX_ATTRS	8

/**
 * struct sim_attr_desc - a traffic attribute of the inject grammar
 * @key:    the name before '=' (src, dst, rp, bdf, addr, target, instance, mc)
 * @values: NULL-terminated value names, parsed to their index; NULL for a
 *          number
 * @max:    largest accepted number when @values is NULL
 *
 * An omitted attribute has value 0: the first name, or the number 0.
 */
struct sim_attr_desc {
	const char *key;
	const char *const *values;
	u64 max;
};

/**
 * struct sim_signal - an event name the inject grammar accepts
 * @name: as in the PMU's sysfs events/ directory
 * @id:   the event id (signal number) it stands for
 */
struct sim_signal {
	const char *name;
	u64 id;
};

/**
 * struct sim_inject - one parsed line of the inject grammar
 * @event: event id (signal)
 * @value: how much the signal adds
 * @attr:  attribute values, indexed like the kind's sim_kind_ops.attrs
 * @chunked: set by a model that has started to deliver the line in chunks
 *          (sim_kind_ops.inject); 0 when parsed
 */
struct sim_inject {
	u64 event;
	u64 value;
	u64 attr[SIM_MAX_ATTRS];
	bool chunked;
};

/**
 * struct sim_stats - access statistics of a device (the stats file)
 * @mmio_reads:          register reads by drivers
 * @mmio_writes:         register writes by drivers
 * @reads_while_running: reads of a counter while it was counting
 * @status_reads:        reads of an overflow status register
 * @bcast_writes:        writes to a broadcast window (CMEM, C2C)
 */
struct sim_stats {
	u64 mmio_reads;
	u64 mmio_writes;
	u64 reads_while_running;
	u64 status_reads;
	u64 bcast_writes;
};

struct sim_rate;
struct sim_irq;

/**
 * struct sim_on_read - an injection armed on a register read (inject_on_read)
 * @state: SIM_ON_READ_IDLE, _ARMED, or a negative errno of the injection
 *         that failed when it fired
 * @win:   window index of the register
 * @off:   its offset in the window
 * @left:  how many more reads of it apply @inj (times=, default 1)
 * @times: whether times= was given (the shown text then counts down)
 * @inj:   the line to apply right after the driver's next reads of it
 * @text:  what was written, shown while armed
 */
struct sim_on_read {
	int state;
	unsigned int win;
	u32 off;
	unsigned int left;
	bool times;
	struct sim_inject inj;
	char text[128];
};

#define SIM_ON_READ_IDLE	0
#define SIM_ON_READ_ARMED	1
#define SIM_ON_READ_MAX_TIMES	64

/**
 * struct sim_dev - one simulated device
 * @desc:      its topology entry
 * @ops:       its kind's model
 * @lock:      serialises register access, injection and the model state;
 *             taken with interrupts off, so the model never sleeps under it
 * @stats:     access statistics, under @lock
 * @model:     the kind's state, set by sim_kind_ops.init
 * @dir:       its debugfs directory
 * @rate_lock: serialises writers of the rate file
 * @rate:      background traffic, or NULL; changed only with @rate_work
 *             cancelled
 * @rate_work: applies @rate periodically
 * @injecting: inject writes in progress (the busy file)
 * @irq:       its overflow interrupt (sim_irq.c), or NULL for none
 * @on_read:   the injection armed on a register read, under @lock
 * @mem:       for a device with property mmio=1, its windows mapped
 *             (guest RAM the kernel leaves alone, memmap=): the backend
 *             does not serve them, the driver's MMIO reaches them
 */
struct sim_dev {
	const struct sim_dev_desc *desc;
	const struct sim_kind_ops *ops;
	raw_spinlock_t lock;
	struct sim_stats stats;
	void *model;
	struct dentry *dir;
	struct mutex rate_lock;		/* see above */
	struct sim_rate *rate;
	struct delayed_work rate_work;
	atomic_t injecting;
	struct sim_irq *irq;
	struct sim_on_read on_read;
	void __iomem **mem;
};

/**
 * struct sim_kind_ops - the model of one kind of device
 * @signals:    event names accepted by inject
 * @nr_signals: number of @signals
 * @event_max:  largest numeric event id inject accepts (the PMU's event
 *              format field); ids without a signal of their own are
 *              delivered too and may count nothing
 * @attrs:      traffic attributes accepted by inject (at most
 *              SIM_MAX_ATTRS)
 * @nr_attrs:   number of @attrs
 * @init:       create the model state in sdev->model (optional); may sleep
 * @exit:       free what @init allocated (optional)
 * @read:       read @bytes (4 or 8, naturally aligned) at offset @off of
 *              window @win (index into desc->wins); set *@counting if a
 *              counter that was counting was read. Called under sdev->lock
 * @write:      write @bytes of @val at @off of window @win; under sdev->lock
 * @inject:     deliver one parsed inject line; under sdev->lock. NULL if the
 *              kind has no model yet (inject and rate fail with
 *              -EOPNOTSUPP). A model that delivers in chunks
 *              (tools/testing/sim/contract.md 3.1) delivers what may go at once,
 *              subtracts it from @inj->value and returns how many
 *              milliseconds at most to wait for @settled before it is
 *              called again with the rest; the caller drops the lock
 *              while it waits and fails the write with -ETIMEDOUT if
 *              @settled stays false. Return: 0 when all is delivered,
 *              > 0 to wait, or a negative errno
 * @settled:    whether the driver has done what the last partial @inject
 *              waits for (cleared an overflow, read a counter); under
 *              sdev->lock. Required if @inject can return > 0
 * @regs_show:  print every implemented register with sim_regs_print();
 *              under sdev->lock (optional)
 * @has_irq:    the device gets an overflow interrupt of the simulator's
 *              own IRQ domain (sim_irq.c) unless its firmware names one
 *              (property ovflw_irq non-zero); the model drives its level
 *              with sim_irq_set_level()
 * @reg_bytes:  the width of the model's registers, 8 for a device read 64
 *              bits at a time (CMEM); 0 means 4. With mmio=1 the windows
 *              in RAM are filled at load by reads of that width
 *
 * Registers are modelled as the hardware documents of the project say (the
 * "Simulator obligations" sections); a model never absorbs a driver error.
 */
struct sim_kind_ops {
	const struct sim_signal *signals;
	unsigned int nr_signals;
	u64 event_max;
	const struct sim_attr_desc *attrs;
	unsigned int nr_attrs;
	int (*init)(struct sim_dev *sdev);
	void (*exit)(struct sim_dev *sdev);
	u64 (*read)(struct sim_dev *sdev, unsigned int win, u32 off,
		    unsigned int bytes, bool *counting);
	void (*write)(struct sim_dev *sdev, unsigned int win, u32 off, u64 val,
		      unsigned int bytes);
	int (*inject)(struct sim_dev *sdev, struct sim_inject *inj);
	bool (*settled)(struct sim_dev *sdev);
	void (*regs_show)(struct sim_dev *sdev, struct seq_file *m);
	bool has_irq;
	unsigned int reg_bytes;
};

void sim_regs_print(struct seq_file *m, struct sim_dev *sdev,
		    unsigned int win, u32 off, u64 val);
void sim_bad_access(struct sim_dev *sdev, unsigned int win, u32 off,
		    unsigned int bytes, bool write);

bool sim_prop(const struct sim_dev *sdev, const char *key, u64 *val);

int sim_irq_init(struct sim_dev *devs, unsigned int nr);
void sim_irq_exit(void);
int sim_irq_virq(const struct sim_dev *sdev);
void sim_irq_set_level(struct sim_dev *sdev, bool level);
bool sim_irq_live(const struct sim_dev *sdev);

extern const struct sim_kind_ops sim_ucf_ops;
extern const struct sim_kind_ops sim_pcie_ops;
extern const struct sim_kind_ops sim_pcie_tgt_ops;
extern const struct sim_kind_ops sim_cmem_ops;
extern const struct sim_kind_ops sim_nvlink_c2c_ops;
extern const struct sim_kind_ops sim_nvclink_ops;
extern const struct sim_kind_ops sim_nvdlink_ops;
extern const struct sim_kind_ops sim_pem_ops;
extern const struct sim_kind_ops sim_scf_ops;
extern const struct sim_kind_ops sim_grace_pcie_ops;
extern const struct sim_kind_ops sim_nvlink_c2c01_ops;
extern const struct sim_kind_ops sim_cnvlink_ops;
extern const struct sim_kind_ops sim_nvidia_generic_ops;
extern const struct sim_kind_ops sim_odyssey_ddr_ops;
extern const struct sim_kind_ops sim_odyssey_tad_ops;

#endif /* __UNCORE_SIM_H */
