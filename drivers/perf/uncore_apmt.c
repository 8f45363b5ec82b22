// SPDX-License-Identifier: GPL-2.0
/*
 * APMT enumeration for kernels that have no APMT parser of their own.
 *
 * Kernels before 6.2, and kernels built without CONFIG_ACPI_APMT, never
 * turn the firmware's Arm Performance Monitoring Table into devices, so
 * nothing would bind the CoreSight PMU drivers there. The helper layer
 * then does what the kernel's parser does: one "arm-cs-arch-pmu" platform
 * device per node, id = node id & INT_MAX, resources page 0, page 1 (dual
 * page only) and the overflow interrupt (if any), and a pointer to the
 * node in the permanently mapped table as platform data. Where the kernel
 * has a parser, it is left to create the devices.
 *
 * A test register backend may bring an APMT of its own for guests whose
 * firmware cannot carry one (uncore_apmt_add_backend()); if the firmware
 * has none, its nodes go through the same walk while the backend is
 * registered, on kernels with a parser too (which found nothing to do).
 * Without such a backend nothing changes.
 */

#define pr_fmt(fmt) "uncore_cspmu: " fmt

#include <linux/acpi.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/sizes.h>

#include "uncore_apmt.h"
#include "uncore_backend.h"
#include "uncore_internal.h"

#define UNCORE_APMT_SIG		"APMT"
#define UNCORE_APMT_PAGE_SIZE	SZ_4K
/* struct uncore_apmt_node.length comes first: what a walk must be able to read */
#define UNCORE_APMT_LEN_SIZE	sizeof(__le16)

/**
 * struct uncore_apmt_dev - one platform device made from an APMT node
 * @pdev: the device
 * @id:   its platform device id (node id & INT_MAX)
 * @gsi:  overflow interrupt GSI registered for it, if @irq
 * @irq:  whether @gsi was registered and must be unregistered
 */
struct uncore_apmt_dev {
	struct platform_device *pdev;
	int id;
	u32 gsi;
	bool irq;
};

/*
 * The table the devices point into: the firmware's (mapped until exit) or
 * a backend's. uncore_apmt_lock serialises a backend's add and remove.
 */
static struct acpi_table_header *uncore_apmt_table;
static bool uncore_apmt_firmware;
static struct uncore_apmt_dev *uncore_apmt_devs;
static unsigned int uncore_apmt_ndevs;
static DEFINE_MUTEX(uncore_apmt_lock);

/* Whether page @page at @base fits a resource [base, base + 4K - 1]; logs why not. */
static bool uncore_apmt_page_ok(unsigned int idx, u32 raw_id, unsigned int page,
				u64 base)
{
	if (!base) {
		pr_err("APMT node %u (id %u): no page %u base address%s, skipped\n",
		       idx, raw_id, page, page ? " (dual page)" : "");
		return false;
	}
	if (base > (u64)(resource_size_t)~0 - (UNCORE_APMT_PAGE_SIZE - 1)) {
		pr_err("APMT node %u (id %u): page %u base address %#llx out of range, skipped\n",
		       idx, raw_id, page, base);
		return false;
	}
	return true;
}

/* An unnamed resource, as the kernel's parser makes (DEFINE_RES_*() in 5.10 are initializers). */
static void uncore_apmt_set_res(struct resource *res, u64 start, u64 size,
				unsigned long flags)
{
	res->start = start;
	res->end = start + size - 1;
	res->flags = flags;
}

/* Whether node @idx can become a device; logs why not. */
static bool uncore_apmt_node_ok(unsigned int idx,
				const struct uncore_apmt_node *node)
{
	u32 raw_id = le32_to_cpu(node->id);
	int id = raw_id & INT_MAX;
	unsigned int i;

	if (node->type >= UNCORE_APMT_TYPE_COUNT) {
		pr_warn("APMT node %u (id %u): unknown type %u, skipped\n",
			idx, raw_id, node->type);
		return false;
	}
	if (!uncore_apmt_page_ok(idx, raw_id, 0, le64_to_cpu(node->base_address0)))
		return false;
	if ((node->flags & UNCORE_APMT_DUAL_PAGE) &&
	    !uncore_apmt_page_ok(idx, raw_id, 1, le64_to_cpu(node->base_address1)))
		return false;
	for (i = 0; i < uncore_apmt_ndevs; i++) {
		if (uncore_apmt_devs[i].id == id) {
			pr_err("APMT node %u (id %u): duplicate id, %s.%d exists already, skipped\n",
			       idx, raw_id, UNCORE_APMT_DEV_NAME, id);
			return false;
		}
	}
	return true;
}

/* Make the platform device of node @idx, unless the node is invalid. */
static void uncore_apmt_add_node(unsigned int idx, struct uncore_apmt_node *node)
{
	struct uncore_apmt_dev *udev = &uncore_apmt_devs[uncore_apmt_ndevs];
	u32 raw_id = le32_to_cpu(node->id);
	u32 gsi = le32_to_cpu(node->ovflw_irq);
	struct platform_device_info info = {
		.name = UNCORE_APMT_DEV_NAME,
		.id = raw_id & INT_MAX,
		/* Drivers read *(struct uncore_apmt_node **)dev_get_platdata(). */
		.data = &node,
		.size_data = sizeof(node),
	};
	struct resource res[3] = { };
	unsigned int nres = 0;
	struct platform_device *pdev;
	int irq, trigger;

	if (!uncore_apmt_node_ok(idx, node))
		return;
	if (raw_id > INT_MAX)
		pr_warn("APMT node %u (id %u): id truncated to %d for the device\n",
			idx, raw_id, info.id);

	uncore_apmt_set_res(&res[nres++], le64_to_cpu(node->base_address0),
			    UNCORE_APMT_PAGE_SIZE, IORESOURCE_MEM);
	if (node->flags & UNCORE_APMT_DUAL_PAGE)
		uncore_apmt_set_res(&res[nres++], le64_to_cpu(node->base_address1),
				    UNCORE_APMT_PAGE_SIZE, IORESOURCE_MEM);

	udev->irq = false;
	if (gsi) {
		trigger = (le32_to_cpu(node->ovflw_irq_flags) & UNCORE_APMT_IRQ_EDGE) ?
			  ACPI_EDGE_SENSITIVE : ACPI_LEVEL_SENSITIVE;
		irq = acpi_register_gsi(NULL, gsi, trigger, ACPI_ACTIVE_HIGH);
		if (irq <= 0) {
			pr_warn("APMT node %u (id %u): cannot register overflow GSI %u (%d), no interrupt\n",
				idx, raw_id, gsi, irq);
		} else {
			uncore_apmt_set_res(&res[nres++], irq, 1, IORESOURCE_IRQ);
			udev->irq = true;
			udev->gsi = gsi;
		}
	}

	info.res = res;
	info.num_res = nres;
	pdev = platform_device_register_full(&info);
	if (IS_ERR(pdev)) {
		pr_err("APMT node %u (id %u): cannot create %s.%d: %pe\n",
		       idx, raw_id, UNCORE_APMT_DEV_NAME, info.id, pdev);
		if (udev->irq)
			acpi_unregister_gsi(gsi);
		return;
	}
	udev->pdev = pdev;
	udev->id = info.id;
	uncore_apmt_ndevs++;
}

/*
 * Walk the nodes of @hdr and register a device for each valid one. An
 * invalid node is reported and skipped; a node whose length cannot be
 * trusted ends the walk. Return: whether any device was made.
 */
static bool uncore_apmt_walk(struct acpi_table_header *hdr, const char *src)
{
	struct uncore_apmt_node *node;
	unsigned int idx, max_nodes;
	u32 len, off, nlen;

	len = hdr->length;
	if (len < sizeof(*hdr)) {
		pr_err("APMT: table length %u is shorter than its header\n", len);
		return false;
	}
	max_nodes = (len - sizeof(*hdr)) / UNCORE_APMT_NODE_LEN;
	uncore_apmt_devs = kcalloc(max_nodes, sizeof(*uncore_apmt_devs), GFP_KERNEL);
	if (!uncore_apmt_devs)
		return false;

	for (idx = 0, off = sizeof(*hdr); off < len; idx++, off += nlen) {
		node = (struct uncore_apmt_node *)((u8 *)hdr + off);
		if (len - off < UNCORE_APMT_LEN_SIZE) {
			pr_err("APMT node %u at offset %u: truncated by the table end (%u), ignoring the rest\n",
			       idx, off, len);
			break;
		}
		nlen = le16_to_cpu(node->length);
		if (nlen < UNCORE_APMT_NODE_LEN) {
			pr_err("APMT node %u at offset %u: length %u is below %u, ignoring the rest of the table\n",
			       idx, off, nlen, UNCORE_APMT_NODE_LEN);
			break;
		}
		if (nlen > len - off) {
			pr_err("APMT node %u at offset %u: length %u runs past the table end (%u), ignoring the rest\n",
			       idx, off, nlen, len);
			break;
		}
		uncore_apmt_add_node(idx, node);
	}

	pr_info("APMT: %u of %u nodes became %s devices%s\n",
		uncore_apmt_ndevs, idx, UNCORE_APMT_DEV_NAME, src);
	if (uncore_apmt_ndevs) {
		uncore_apmt_table = hdr;
		return true;
	}
	kfree(uncore_apmt_devs);
	uncore_apmt_devs = NULL;
	return false;
}

/* Unregister the devices in reverse order, then their overflow GSIs. */
static void uncore_apmt_remove_devs(void)
{
	struct uncore_apmt_dev *udev;

	while (uncore_apmt_ndevs) {
		udev = &uncore_apmt_devs[--uncore_apmt_ndevs];
		platform_device_unregister(udev->pdev);
		if (udev->irq)
			acpi_unregister_gsi(udev->gsi);
	}
	kfree(uncore_apmt_devs);
	uncore_apmt_devs = NULL;
	uncore_apmt_table = NULL;
}

/*
 * At the uncore_cspmu module's init: walk the nodes of the firmware's APMT
 * and register an "arm-cs-arch-pmu" platform device for each valid one.
 * Without an APMT nothing happens; with the kernel's own parser
 * (CONFIG_ACPI_APMT), only whether the firmware has a table is noted.
 * Never fails the module load.
 */
int __init uncore_apmt_init(void)
{
	struct acpi_table_header *hdr;
	acpi_status status;

	if (acpi_disabled)
		return 0;
	status = acpi_get_table(UNCORE_APMT_SIG, 0, &hdr);
	if (status == AE_NOT_FOUND)
		return 0;
	if (ACPI_FAILURE(status)) {
		pr_err("APMT: cannot get the table: %s\n",
		       acpi_format_exception(status));
		return 0;
	}
	uncore_apmt_firmware = true;
	if (IS_ENABLED(CONFIG_ACPI_APMT)) {
		pr_info("APMT: the kernel's own parser creates the %s devices\n",
			UNCORE_APMT_DEV_NAME);
		acpi_put_table(hdr);
		return 0;
	}
	/* The table stays mapped while devices point into it. */
	if (!uncore_apmt_walk(hdr, ""))
		acpi_put_table(hdr);
	return 0;
}

/**
 * uncore_apmt_add_backend - create the devices of a backend's APMT
 * @hdr: the APMT, valid until uncore_apmt_remove_backend()
 *
 * Only if the firmware has no APMT: a backend's table never adds to or
 * replaces the firmware's.
 */
void uncore_apmt_add_backend(struct acpi_table_header *hdr)
{
	mutex_lock(&uncore_apmt_lock);
	if (uncore_apmt_firmware || uncore_apmt_table)
		pr_info("APMT: the firmware has one, the register backend's is ignored\n");
	else if (acpi_disabled)
		pr_info("APMT: ACPI is disabled, the register backend's is ignored\n");
	else
		uncore_apmt_walk(hdr, " (from the register backend)");
	mutex_unlock(&uncore_apmt_lock);
}
EXPORT_SYMBOL_NS_GPL(uncore_apmt_add_backend, UNCORE_PMU_BACKEND);

/**
 * uncore_apmt_remove_backend - remove what uncore_apmt_add_backend() made
 * @hdr: the APMT given to it
 */
void uncore_apmt_remove_backend(struct acpi_table_header *hdr)
{
	mutex_lock(&uncore_apmt_lock);
	if (!uncore_apmt_firmware && uncore_apmt_table == hdr)
		uncore_apmt_remove_devs();
	mutex_unlock(&uncore_apmt_lock);
}
EXPORT_SYMBOL_NS_GPL(uncore_apmt_remove_backend, UNCORE_PMU_BACKEND);

/* Remove what uncore_apmt_init() created, and unmap the table. */
void __exit uncore_apmt_exit(void)
{
	struct acpi_table_header *hdr = uncore_apmt_table;

	/* A backend's table went with its backend, before this module. */
	if (!uncore_apmt_firmware || !hdr)
		return;
	uncore_apmt_remove_devs();
	acpi_put_table(hdr);
}
