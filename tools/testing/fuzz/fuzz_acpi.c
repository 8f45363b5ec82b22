// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: what the ACPI-enumerated drivers take from firmware,
 * through the real drivers/perf/uncore_core.c and two real drivers:
 *
 *  - the C2C PMU's whole probe (nvidia_t410_c2c_pmu.c): _UID as a socket
 *    number (uncore_pmu_acpi_socket()), the _DSD instance masks
 *    (cpu_en_mask, gpu0_en_mask, gpu1_en_mask), the _CRS memory windows
 *    (uncore_map_windows()), the format/ and events/ parsing of
 *    registration, and every sysfs file the PMU then shows;
 *  - the PCIE-TGT PMU's address-filter setup (tgt_init() in
 *    nvidia_t410_pcie_tgt_pmu.c): the ACPI device's _CRS, as a resource
 *    template, through an acpi_dev_get_resources() that validates and
 *    converts descriptors as ACPICA and drivers/acpi/resource.c do.
 *
 * Input: byte 0 picks the driver (bit 0: PCIE-TGT). C2C: byte 1 the HID
 * (0-2: NVDA2023, NVDA2022, NVDA2020; else none), byte 2 which of _UID and
 * the three _DSD properties exist (bits 0-3), bytes 3-14 the property
 * values, byte 15 the number of MEM resources, then a 16-bit size each,
 * and the rest the _UID string. PCIE-TGT: the rest is the _CRS template.
 */
#include "kstub.h"
#include "../../../drivers/perf/uncore_core.c"
#include "../../../drivers/perf/nvidia_t410_c2c_pmu.c"
#include "../../../drivers/perf/nvidia_t410_pcie_tgt_pmu.c"

#define FUZZ_MAX_RES		40
#define FUZZ_MAX_MAP		(64 * 1024)

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_acpi: %s\n", what);
	abort();
}

/* ---- firmware, from the input ---- */

static struct acpi_device fuzz_adev;
static struct platform_device fuzz_pdev;
static struct resource fuzz_res[FUZZ_MAX_RES];
static unsigned int fuzz_nres;
static bool fuzz_has_prop[3];
static u32 fuzz_prop[3];
static const char *const fuzz_prop_names[3] = { "cpu_en_mask", "gpu0_en_mask", "gpu1_en_mask" };
static const u8 *fuzz_crs;
static size_t fuzz_crs_len;

int device_property_read_u32(struct device *dev, const char *name, u32 *val)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fuzz_prop_names); i++) {
		if (strcmp(name, fuzz_prop_names[i]))
			continue;
		if (!fuzz_has_prop[i])
			return -EINVAL;
		*val = fuzz_prop[i];
		return 0;
	}
	fuzz_fail("a _DSD property the firmware never has");
	return -EINVAL;
}

int fwnode_property_read_u32(struct fwnode_handle *f, const char *name, u32 *val)
{
	return -EINVAL;
}

struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type,
				       unsigned int num)
{
	unsigned int i;

	for (i = 0; i < fuzz_nres; i++)
		if (resource_type(&fuzz_res[i]) == type && !num--)
			return &fuzz_res[i];
	return NULL;
}

/* As the kernel: a MEM resource, claimable (no conflict), then mapped. */
void __iomem *devm_ioremap_resource(struct device *dev, const struct resource *res)
{
	void *p;

	if (!res || resource_type(res) != IORESOURCE_MEM)
		return ERR_PTR(-EINVAL);
	if (res->end < res->start)
		return ERR_PTR(-EBUSY);
	/* the registers used must lie in here: ASan reports any other access */
	p = calloc(1, resource_size(res) && resource_size(res) < FUZZ_MAX_MAP ?
		   resource_size(res) : FUZZ_MAX_MAP);
	if (!p)
		abort();
	devm_add_action_or_reset(dev, free, p);
	return p;
}

/*
 * acpi_dev_get_resources(): ACPICA's template validation
 * (acpi_ut_validate_resource(): known type, the length that type has,
 * an end tag), then drivers/acpi/resource.c's conversion of memory, I/O
 * and IRQ descriptors; disabled resources (zero length, or an end before
 * the start) are not listed.
 */
static u64 fuzz_le(const u8 *p, unsigned int n)
{
	u64 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void fuzz_add_res(struct list_head *list, u64 start, u64 end, u64 len,
			 unsigned long flags)
{
	struct resource_entry *e;

	/* acpi_dev_resource_len_valid() */
	if (flags != IORESOURCE_IRQ && (!len || end - start + 1 == 0 || start > end))
		return;
	e = calloc(1, sizeof(*e) + sizeof(*e->res));
	if (!e)
		abort();
	e->res = (struct resource *)(e + 1);
	e->res->start = start;
	e->res->end = end;
	e->res->flags = flags;
	list_add_tail(&e->node, list);
}

static void fuzz_addr_space(struct list_head *list, const u8 *d, unsigned int w)
{
	/* resource type, general flags, type flags, granularity, min, max, offset, length */
	const u8 *f = d + 3 + 3 + w;
	u64 min = fuzz_le(f, w), max = fuzz_le(f + w, w);
	u64 off = fuzz_le(f + 2 * w, w), len = fuzz_le(f + 3 * w, w);

	if (d[3] != 0)		/* memory ranges only */
		return;
	if (d[4] & 1)		/* consumer: no translation */
		off = 0;
	fuzz_add_res(list, min + off, max + off, len, IORESOURCE_MEM);
}

int acpi_dev_get_resources(struct acpi_device *adev, struct list_head *list,
			   int (*preproc)(struct acpi_resource *, void *), void *data)
{
	static const u8 small_len[16] = {
		[4] = 3, [5] = 2, [6] = 1, [8] = 7, [9] = 3, [0xa] = 5, [0xe] = 7, [0xf] = 1,
	};
	size_t off = 0, n;
	const u8 *d;
	int count = 0;

	while (off < fuzz_crs_len) {
		d = fuzz_crs + off;
		if (!(d[0] & 0x80)) {
			unsigned int type = d[0] >> 3 & 0xf, len = d[0] & 7;

			if (!small_len[type] || len > small_len[type] ||
			    (type == 4 && len < 2) || (type == 8 && len != 7) ||
			    (type == 9 && len != 3) || (type == 0xf && len != 1))
				goto bad;
			if (off + 1 + len > fuzz_crs_len)
				goto bad;
			if (type == 0xf)
				return count;
			if (type == 4 && fuzz_le(d + 1, 2))
				fuzz_add_res(list, __builtin_ctz(fuzz_le(d + 1, 2)),
					     __builtin_ctz(fuzz_le(d + 1, 2)), 1, IORESOURCE_IRQ);
			if (type == 9)
				fuzz_add_res(list, fuzz_le(d + 1, 2), fuzz_le(d + 1, 2) + d[3] - 1,
					     d[3], IORESOURCE_IO);
			off += 1 + len;
			count++;
			continue;
		}
		if (off + 3 > fuzz_crs_len)
			goto bad;
		n = fuzz_le(d + 1, 2);
		if (off + 3 + n > fuzz_crs_len)
			goto bad;
		switch (d[0]) {
		case 0x81:	/* Memory24: flags, min, max, align, length, in 256 bytes */
			if (n != 9)
				goto bad;
			fuzz_add_res(list, fuzz_le(d + 4, 2) << 8,
				     (fuzz_le(d + 4, 2) << 8) + (fuzz_le(d + 10, 2) << 8) - 1,
				     fuzz_le(d + 10, 2) << 8, IORESOURCE_MEM);
			break;
		case 0x85:	/* Memory32: flags, min, max, align, length */
			if (n != 17)
				goto bad;
			fuzz_add_res(list, fuzz_le(d + 4, 4),
				     fuzz_le(d + 4, 4) + fuzz_le(d + 16, 4) - 1,
				     fuzz_le(d + 16, 4), IORESOURCE_MEM);
			break;
		case 0x86:	/* Memory32Fixed: flags, base, length */
			if (n != 9)
				goto bad;
			fuzz_add_res(list, fuzz_le(d + 4, 4),
				     fuzz_le(d + 4, 4) + fuzz_le(d + 8, 4) - 1,
				     fuzz_le(d + 8, 4), IORESOURCE_MEM);
			break;
		case 0x87:	/* DWord address space */
			if (n < 23)
				goto bad;
			fuzz_addr_space(list, d, 4);
			break;
		case 0x88:	/* Word address space: never memory here */
			if (n < 13)
				goto bad;
			break;
		case 0x89:	/* Extended IRQ: flags, count, the interrupts */
			if (n < 6 || !d[4] || n < 2 + 4u * d[4])
				goto bad;
			fuzz_add_res(list, fuzz_le(d + 5, 4), fuzz_le(d + 5, 4), 1,
				     IORESOURCE_IRQ);
			break;
		case 0x8a:	/* QWord address space */
			if (n < 43)
				goto bad;
			fuzz_addr_space(list, d, 8);
			break;
		case 0x82: case 0x84: case 0x8b: case 0x8c: case 0x8d: case 0x8e:
			break;
		default:
			goto bad;
		}
		off += 3 + n;
		count++;
	}
bad:
	/* AE_AML_INVALID_RESOURCE_TYPE, _BAD_RESOURCE_LENGTH, _NO_RESOURCE_END_TAG */
	acpi_dev_free_resource_list(list);
	return -EIO;
}

void acpi_dev_free_resource_list(struct list_head *list)
{
	struct resource_entry *e, *tmp;

	list_for_each_entry_safe(e, tmp, list, node) {
		list_del(&e->node);
		free(e);
	}
}

/* The engine's; tgt_init() never calls it, the filter callbacks would. */
void uncore_cspmu_write_cfg(struct uncore_cspmu *c, u32 off, u32 val)
{
	fuzz_fail("a filter register written during setup");
}

int uncore_cspmu_backend_register(const struct uncore_cspmu_impl *impls,
				  unsigned int n, struct module *owner,
				  const char *modname)
{
	fuzz_fail("the engine's registration is not under test here");
	return -ENODEV;
}

void uncore_cspmu_backend_unregister(const struct uncore_cspmu_impl *impls)
{
	fuzz_fail("the engine's registration is not under test here");
}

/* ---- the checks ---- */

/* Every file the registered PMU shows, as sysfs would read it. */
static void fuzz_show_sysfs(struct uncore_pmu *upmu)
{
	static char buf[4096];
	const struct attribute_group *const *g;
	struct attribute **a;
	int i = 0;

	for (g = upmu->groups; *g; g++) {
		for (a = (*g)->attrs; *a; a++, i++) {
			struct device_attribute *da =
				container_of(*a, struct device_attribute, attr);

			if ((*g)->is_visible && !(*g)->is_visible(&upmu->dev->kobj, *a, i))
				continue;
			if (da->show(upmu->dev, da, buf) <= 0 || !memchr(buf, '\n', sizeof(buf)))
				fuzz_fail("a sysfs file shows nothing");
		}
	}
}

static void fuzz_c2c(const u8 *data, size_t size)
{
	static const struct c2c_type *const types[] = {
		&c2c_nvlink, &c2c_nvclink, &c2c_nvdlink,
	};
	struct c2c_pmu *c2c;
	bool has_uid;
	char *uid;
	unsigned int i;

	if (size < 16)
		return;
	fuzz_pdev.dev.match_data = data[1] < ARRAY_SIZE(types) ? types[data[1]] : NULL;
	has_uid = data[2] & 1;
	for (i = 0; i < 3; i++) {
		fuzz_has_prop[i] = data[2] & BIT(i + 1);
		memcpy(&fuzz_prop[i], data + 3 + 4 * i, 4);
	}
	fuzz_nres = data[15] % FUZZ_MAX_RES;
	data += 16;
	size -= 16;
	for (i = 0; i < fuzz_nres; i++) {
		u64 len = C2C_WIN_SIZE;

		/* sizes around the registers' end, the page and beyond */
		if (size >= 2) {
			len = fuzz_le(data, 2) + C2C_WIN_SIZE - 0x100;
			data += 2;
			size -= 2;
		}
		fuzz_res[i] = (struct resource) {
			.start = 0x10000000ULL * (i + 1),
			.end = 0x10000000ULL * (i + 1) + len - 1,
			.flags = i == 3 ? IORESOURCE_IRQ : IORESOURCE_MEM,
		};
	}
	uid = strndup((const char *)data, size);
	if (!uid)
		abort();
	fuzz_adev.uid = has_uid ? uid : NULL;
	fuzz_adev.hid = "NVDA2023";
	fuzz_pdev.dev.acpi = &fuzz_adev;

	kstub_last_pmu = NULL;
	if (!c2c_pmu_probe(&fuzz_pdev)) {
		if (!kstub_last_pmu)
			fuzz_fail("probe succeeded without a PMU");
		c2c = to_c2c_pmu(to_uncore_pmu(kstub_last_pmu));
		if (cpumask_empty(&c2c->upmu.associated_cpus) || !c2c->peers ||
		    c2c->upmu.node < 0 || c2c->upmu.cpu < 0 ||
		    !cpumask_test_cpu(c2c->upmu.cpu, &c2c->upmu.associated_cpus))
			fuzz_fail("C2C PMU registered without CPUs, peers or node");
		fuzz_pdev.dev.driver_data = kstub_last_pmu;
		fuzz_show_sysfs(&c2c->upmu);
	}
	kstub_devm_release();
	free(uid);
}

static void fuzz_tgt(const u8 *data, size_t size)
{
	static struct uncore_cspmu c;
	struct tgt_pmu *tgt;
	int s;

	memset(&c, 0, sizeof(c));
	c.upmu.dev = &fuzz_pdev.dev;
	fuzz_crs = data + 1;
	fuzz_crs_len = size - 1;
	if (!tgt_init(&c, &fuzz_adev)) {
		tgt = c.priv;
		/* every slot read back and disabled: no range is set yet */
		for (s = 0; s < TGT_NUM_SLOTS; s++)
			if (!tgt->slot[s].hw_known || tgt->slot[s].enabled || tgt->slot[s].users)
				fuzz_fail("slot state after setup");
	}
	kstub_devm_release();
}

int fuzz_one(const u8 *data, size_t size)
{
	static bool once;

	if (!once) {
		uncore_pmu_module_init();
		once = true;
	}
	if (size < 1)
		return 0;
	memset(&fuzz_pdev, 0, sizeof(fuzz_pdev));
	memset(&fuzz_adev, 0, sizeof(fuzz_adev));
	fuzz_pdev.dev.numa_node = NUMA_NO_NODE;
	if (data[0] & 1)
		fuzz_tgt(data, size);
	else
		fuzz_c2c(data, size);
	if (!list_empty(&uncore_pmus))
		fuzz_fail("a PMU stayed registered");
	return 0;
}
