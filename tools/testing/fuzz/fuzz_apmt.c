// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the APMT walk of drivers/perf/uncore_apmt.c, the real
 * file, on a table made from the input.
 *
 * Input: one mode byte, then the table as firmware would give it (an ACPI
 * header and the nodes; corpus/fuzz_apmt/ holds the simulator's APMTs).
 * The table is mapped as ACPICA maps it: at least its header, and as many
 * bytes as the header's length says (zero-padded if the input is shorter),
 * in an allocation of exactly that size, so AddressSanitizer reports any
 * read past the table. Mode bits:
 *   0: enumerate as the module init does (firmware table), else as a
 *      register backend adds and removes its table
 *   1: acpi_disabled
 *   2: acpi_get_table() finds no table
 *   3: platform_device_register_full() fails for odd ids
 *   4: a second backend table arrives while the first is in place
 * GSIs whose low two bits are 3 fail to register.
 *
 * Checked beyond the sanitizers: every device's platform data points at a
 * whole node inside the table, no two devices share an id, resources are
 * well formed, and after removal every device, GSI and table reference
 * is given back.
 */
#include "kstub.h"
#include "../../../drivers/perf/uncore_apmt.c"

#define FUZZ_MAX_TABLE		(64 * 1024)
#define FUZZ_MAX_DEVS		4096

static u8 *fuzz_table;
static size_t fuzz_table_len;
static unsigned int fuzz_mode;
static int fuzz_table_refs, fuzz_gsi_refs;
static unsigned int fuzz_live;
static struct platform_device *fuzz_devs[FUZZ_MAX_DEVS];

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_apmt: %s\n", what);
	abort();
}

acpi_status acpi_get_table(const char *sig, u32 instance, struct acpi_table_header **t)
{
	if (strcmp(sig, "APMT") || instance)
		fuzz_fail("asked for another table");
	if (fuzz_mode & 4)
		return AE_NOT_FOUND;
	*t = (struct acpi_table_header *)fuzz_table;
	fuzz_table_refs++;
	return AE_OK;
}

void acpi_put_table(struct acpi_table_header *t)
{
	if ((u8 *)t != fuzz_table || --fuzz_table_refs < 0)
		fuzz_fail("a table put that was never got");
}

int acpi_register_gsi(struct device *dev, u32 gsi, int trigger, int polarity)
{
	if (!gsi)
		fuzz_fail("GSI 0 registered");
	if ((gsi & 3) == 3)
		return -EINVAL;
	fuzz_gsi_refs++;
	return (int)(gsi & 0xffff) + 1;
}

void acpi_unregister_gsi(u32 gsi)
{
	if (--fuzz_gsi_refs < 0)
		fuzz_fail("GSI unregistered more often than registered");
}

struct platform_device *platform_device_register_full(const struct platform_device_info *info)
{
	const struct uncore_apmt_node *node;
	struct uncore_apmt_node copy;
	struct platform_device *pdev;
	unsigned int i;

	if (strcmp(info->name, UNCORE_APMT_DEV_NAME) || info->id < 0)
		fuzz_fail("bad device name or id");
	for (i = 0; i < FUZZ_MAX_DEVS; i++)
		if (fuzz_devs[i] && fuzz_devs[i]->id == info->id)
			fuzz_fail("two devices with one id");
	if (info->size_data != sizeof(node) || !info->data)
		fuzz_fail("platform data is not a node pointer");
	memcpy(&node, info->data, sizeof(node));
	if ((u8 *)node < fuzz_table + sizeof(struct acpi_table_header) ||
	    (u8 *)node + sizeof(*node) > fuzz_table + fuzz_table_len)
		fuzz_fail("node outside the table");
	/* what the CSPMU engine reads of it: the whole node */
	memcpy(&copy, node, sizeof(copy));
	if (le16_to_cpu(copy.length) < UNCORE_APMT_NODE_LEN)
		fuzz_fail("node shorter than a node");
	if (info->num_res < 1 || info->num_res > 3)
		fuzz_fail("resource count");
	for (i = 0; i < info->num_res; i++) {
		const struct resource *r = &info->res[i];

		if (r->end < r->start)
			fuzz_fail("resource ends before it starts");
		if (resource_type(r) == IORESOURCE_MEM && resource_size(r) != SZ_4K)
			fuzz_fail("page resource is not 4K");
		if (resource_type(r) == IORESOURCE_MEM && !r->start)
			fuzz_fail("page at address 0");
	}
	if ((fuzz_mode & 8) && (info->id & 1))
		return ERR_PTR(-ENOMEM);
	if (fuzz_live >= FUZZ_MAX_DEVS)
		fuzz_fail("more devices than nodes can be");
	pdev = calloc(1, sizeof(*pdev) + sizeof(node));
	if (!pdev)
		abort();
	pdev->name = info->name;
	pdev->id = info->id;
	pdev->dev.platform_data = pdev + 1;
	memcpy(pdev->dev.platform_data, info->data, sizeof(node));
	for (i = 0; i < FUZZ_MAX_DEVS; i++) {
		if (!fuzz_devs[i]) {
			fuzz_devs[i] = pdev;
			break;
		}
	}
	fuzz_live++;
	return pdev;
}

void platform_device_unregister(struct platform_device *pdev)
{
	unsigned int i;

	for (i = 0; i < FUZZ_MAX_DEVS; i++) {
		if (fuzz_devs[i] == pdev) {
			fuzz_devs[i] = NULL;
			fuzz_live--;
			free(pdev);
			return;
		}
	}
	fuzz_fail("unregistering a device never registered");
}

int fuzz_one(const u8 *data, size_t size)
{
	struct acpi_table_header hdr = { };
	size_t len;

	if (size < 1)
		return 0;
	fuzz_mode = data[0];
	data++;
	size--;

	memcpy(&hdr, data, min(size, sizeof(hdr)));
	len = max_t(size_t, hdr.length, sizeof(hdr));
	if (len > FUZZ_MAX_TABLE)
		return -1;	/* not worth a corpus entry */
	fuzz_table = calloc(1, len);
	if (!fuzz_table)
		abort();
	fuzz_table_len = len;
	memcpy(fuzz_table, data, min(size, len));
	acpi_disabled = fuzz_mode & 2;

	if (fuzz_mode & 1) {
		uncore_apmt_init();
		uncore_apmt_exit();
		uncore_apmt_firmware = false;
	} else {
		uncore_apmt_add_backend((struct acpi_table_header *)fuzz_table);
		if (fuzz_mode & 16) {
			/* refused: one table at a time */
			unsigned int before = fuzz_live;

			uncore_apmt_add_backend((struct acpi_table_header *)fuzz_table);
			if (fuzz_live != before)
				fuzz_fail("a second backend table made devices");
		}
		uncore_apmt_remove_backend((struct acpi_table_header *)fuzz_table);
	}

	if (fuzz_live)
		fuzz_fail("devices left after removal");
	if (fuzz_gsi_refs)
		fuzz_fail("GSIs left registered after removal");
	if (fuzz_table_refs)
		fuzz_fail("table reference leaked");
	if (uncore_apmt_table || uncore_apmt_devs || uncore_apmt_ndevs)
		fuzz_fail("walk state left behind");
	free(fuzz_table);
	fuzz_table = NULL;
	return 0;
}
