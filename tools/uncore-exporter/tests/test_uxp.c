// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the exporter's sysfs parsing and vocabulary, TAP output:
 * split fields, terms, values too wide, malformed format/ and events/
 * files, PMU names and their labels. Built with ASan and UBSan by
 * tools/testing/check/exporter.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../uxp.h"

static int nr, failed;

static void check(int cond, const char *what)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++nr, what);
	if (!cond)
		failed++;
}

/* a PMU's format/: "name=spec" lines */
static const char *const *formats;

static int lookup(void *ctx, const char *term, struct uxp_field *f)
{
	const char *const *p;
	size_t n = strlen(term);

	(void)ctx;
	for (p = formats; *p; p++)
		if (!strncmp(*p, term, n) && (*p)[n] == '=')
			return uxp_parse_format(*p + n + 1, f) ? -EINVAL : 0;
	return -ENOENT;
}

static int event(const char *text, uint64_t cfg[3])
{
	char why[160];

	return uxp_parse_event(text, lookup, NULL, cfg, why, sizeof(why));
}

static void test_format(void)
{
	static const char *const bad[] = {
		"", "config", "config:", "config:a", "config:5-", "config:7-3",
		"config:64", "config:0-64", "config3:0-7", "conf:0-7",
		"config:0-7,", "config:0-7 ", "config:1,2,3,4,5,6,7,8,9",
		"config:0-63,0", "config1:-1", "config:0x5",
	};
	struct uxp_field f;
	unsigned int i;
	char what[96];

	check(!uxp_parse_format("config:0-7\n", &f) && f.reg == 0 && f.nr == 1 &&
	      f.lo[0] == 0 && f.hi[0] == 7, "format config:0-7");
	check(uxp_parse_format("config:0-7\n\n", &f) == -EINVAL,
	      "format with two newlines is refused");
	check(!uxp_parse_format("config1:32", &f) && f.reg == 1 && f.nr == 1 &&
	      f.lo[0] == 32 && f.hi[0] == 32, "format config1:32, one bit");
	check(!uxp_parse_format("config2:0-63", &f) && f.reg == 2,
	      "format config2:0-63, the whole register");
	check(!uxp_parse_format("config:0-7,32-35", &f) && f.nr == 2 &&
	      f.lo[1] == 32 && f.hi[1] == 35, "format config:0-7,32-35, split");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "format '%s' is refused", bad[i]);
		check(uxp_parse_format(bad[i], &f) == -EINVAL, what);
	}
}

static void test_event(void)
{
	static const char *const ucf[] = {
		"event=config:0-7,32-35", "src_loc_cpu=config1:0", "dst_rem=config1:4-5",
		"bad=config:zz", NULL,
	};
	uint64_t c[3];

	formats = ucf;
	check(!event("event=0x1d\n", c) && c[0] == 0x1d && !c[1] && !c[2],
	      "event=0x1d");
	check(!event("event=0x123", c) && c[0] == (0x23 | (1ULL << 32)),
	      "a split field: 0x123 puts 0x23 in bits 0-7 and 1 in bits 32-35");
	check(!event("event=0xfff", c) && c[0] == (0xff | (0xfULL << 32)),
	      "a split field filled");
	check(event("event=0x1000", c) == -ERANGE,
	      "a value wider than the split field is refused");
	check(!event("event=0x2,src_loc_cpu", c) && c[0] == 2 && c[1] == 1,
	      "a bare term is 1");
	check(!event("event=0x2,dst_rem=3", c) && c[1] == (3 << 4),
	      "a decimal value, shifted into its field");
	check(event("event=0x2,dst_rem=4", c) == -ERANGE, "4 does not fit two bits");
	check(event("event=0x2,nosuch=1", c) == -EINVAL, "a term without format/ is refused");
	check(event("event=0x2,bad=1", c) == -EINVAL,
	      "a term whose format/ does not parse is refused");
	check(!event("config=0x100000000", c) && c[0] == 0x100000000ULL,
	      "perf's own config term, where format/ has none");
	check(!event("config1=0x5,event=1", c) && c[1] == 5 && c[0] == 1,
	      "perf's own config1 term");
	check(event("config3=1", c) == -EINVAL, "config3 is no term of perf's");
	check(event("", c) == -EINVAL, "an empty events file is refused");
	check(event("event=", c) == -EINVAL, "a term without its value is refused");
	check(event("event=0x", c) == -EINVAL, "0x without digits is refused");
	check(event("event=?", c) == -EINVAL, "a parameter to be filled in is refused");
	check(event("event=1,,src_loc_cpu", c) == -EINVAL, "an empty term is refused");
	check(event("event=1,", c) == -EINVAL, "a trailing comma is refused");
	check(event("event=1 ", c) == -EINVAL, "a trailing blank is refused");
	check(event("event=0x10000000000000000", c) == -EINVAL,
	      "a value over 64 bits is refused");
	check(event("Event=1", c) == -EINVAL, "terms are lowercase");
}

#define TGT_LABELS \
	"pmu=\"nvidia_pcie_tgt_pmu_1_rc_2\",family=\"pcie-tgt\",socket=\"1\",rc=\"2\""

/* EVENT of the SCF feeds memory_bytes as reads from DEST, 32 a count */
static int scf_read_bytes(const struct uxp_family *f, const char *event,
			  const char *dest)
{
	const struct uxp_series *s = uxp_series_of(f, event);
	char name[96], labels[96];

	if (!s)
		return 0;
	uxp_metric_name(s->metric, name, sizeof(name));
	snprintf(labels, sizeof(labels), ",direction=\"read\",destination=\"%s\"", dest);
	return !strcmp(name, "uncore_pmu_memory_bytes_total") &&
	       !strcmp(s->labels, labels) && s->mul == 32;
}

static void test_vocab(void)
{
	char buf[256];
	const struct uxp_family *f;

	f = uxp_family_of("nvidia_pcie_pmu_0_rc_10");
	check(f && !strcmp(f->name, "pcie"), "nvidia_pcie_pmu_0_rc_10 is Tegra410 pcie");
	f = uxp_family_of("nvidia_pcie_pmu_1");
	check(f && !strcmp(f->name, "grace-pcie"), "nvidia_pcie_pmu_1 is grace-pcie");
	check(!uxp_family_of("nvidia_pcie_pmu_"), "nvidia_pcie_pmu_ is no PMU of ours");
	check(!uxp_family_of("nvidia_ucf_pmu_0x"), "nvidia_ucf_pmu_0x is no PMU of ours");
	check(!uxp_family_of("nvidia_uncore_pmu_0"), "the generic NVIDIA PMU is not exported");
	f = uxp_family_of("mrvl_pcie_rc_pmu_8e0000005000");
	check(f && !strcmp(f->name, "pem"), "a PEM by its hex address");
	check(!uxp_family_of("mrvl_pcie_rc_pmu_8E00"), "uppercase hex is not a PEM name");
	f = uxp_family_of("tad");
	check(f && !strcmp(f->name, "tad"), "tad");
	f = uxp_family_of("nvidia_pcie_tgt_pmu_1_rc_2");
	uxp_pmu_labels(f, "nvidia_pcie_tgt_pmu_1_rc_2", buf, sizeof(buf));
	check(!strcmp(buf, TGT_LABELS), "labels of a PCIE-TGT PMU");
	f = uxp_family_of("mrvl_ddr_pmu_87e1c0000000");
	uxp_pmu_labels(f, "mrvl_ddr_pmu_87e1c0000000", buf, sizeof(buf));
	check(!strcmp(buf, "pmu=\"mrvl_ddr_pmu_87e1c0000000\",family=\"ddr\""),
	      "an Odyssey PMU carries no socket");
	check(uxp_natcmp("nvidia_pcie_pmu_0_rc_2", "nvidia_pcie_pmu_0_rc_10") < 0,
	      "rc_2 before rc_10");
	check(uxp_natcmp("mrvl_pcie_rc_pmu_87e000000", "mrvl_pcie_rc_pmu_1000000000") < 0,
	      "PEM addresses by value");
	uxp_metric_name(8, buf, sizeof(buf));
	check(!strcmp(buf, "uncore_pmu_memory_outstanding_request_cycles_total"),
	      "an outstanding metric's name");
	f = uxp_family_named("pem");
	check(uxp_series_of(f, "ib_tlp_dwords_pr") &&
	      uxp_series_of(f, "ib_tlp_dwords_pr")->mul == 4, "a PEM DWORD is 4 bytes");
	f = uxp_family_named("scf");
	check(scf_read_bytes(f, "cmem_rd_data", "local") &&
	      scf_read_bytes(f, "remote_socket_rd_data", "remote"),
	      "a Grace SCF read data count is 32 bytes read, local and remote");
	check(uxp_family_named("nvlink-c2c") == uxp_family_named("c2c"),
	      "nvlink-c2c names c2c");
}

/* every event a family counts feeds a series, and in the order given */
static void test_table(void)
{
	unsigned int i, bad = 0;

	for (i = 0; i < uxp_nr_families; i++) {
		const char *const *e;

		for (e = uxp_families[i].events; *e; e++)
			if (!uxp_series_of(&uxp_families[i], *e)) {
				printf("# %s: %s feeds no series\n", uxp_families[i].name, *e);
				bad++;
			}
	}
	check(!bad, "every event counted feeds a series");
}

int main(void)
{
	test_format();
	test_event();
	test_vocab();
	test_table();
	printf("1..%d\n", nr);
	return failed ? 1 : 0;
}
