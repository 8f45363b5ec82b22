// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the exporter's format/ and events/ parser
 * (tools/uncore-exporter/uxp_parse.c), as the daemon calls it on a PMU's
 * sysfs files.
 *
 * Input: up to four format/ entries, lines "name=spec\n", up to an empty
 * line; the rest is an events/ file. Beyond the sanitizers: an accepted
 * format never has a bit outside 0-63 or more than 64 bits, an accepted
 * event sets no bit outside its fields' ranges and config registers, and
 * a rejected one leaves no error text unterminated.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../uncore-exporter/uxp.h"

#define NFMT 4

static char names[NFMT][32];
static struct uxp_field fields[NFMT];
static int valid[NFMT];
static int nfmt;

static int lookup(void *ctx, const char *term, struct uxp_field *f)
{
	int i;

	(void)ctx;
	for (i = 0; i < nfmt; i++) {
		if (strcmp(names[i], term))
			continue;
		if (!valid[i])
			return -EINVAL;
		*f = fields[i];
		return 0;
	}
	return -ENOENT;
}

static uint64_t mask_of(const struct uxp_field *f)
{
	uint64_t m = 0;
	unsigned int i, bits = 0;

	for (i = 0; i < f->nr; i++) {
		unsigned int w = f->hi[i] - f->lo[i] + 1;

		if (f->hi[i] > 63 || f->lo[i] > f->hi[i])
			abort();
		bits += w;
		m |= (w == 64 ? ~0ULL : ((1ULL << w) - 1)) << f->lo[i];
	}
	if (bits > 64 || f->reg > 2)
		abort();
	return m;
}

/* called by kstub.c's libFuzzer entry point */
int fuzz_one(const unsigned char *data, size_t size);

int fuzz_one(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1), *p, *nl, why[160];
	uint64_t cfg[3], allowed[3] = { ~0ULL, ~0ULL, ~0ULL };
	int i, err, perf_terms;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	p = text;
	nfmt = 0;
	while ((nl = strchr(p, '\n')) && nl != p && nfmt < NFMT) {
		char *eq;

		*nl = '\0';
		eq = strchr(p, '=');
		if (eq && eq - p < 32) {
			memcpy(names[nfmt], p, eq - p);
			names[nfmt][eq - p] = '\0';
			valid[nfmt] = !uxp_parse_format(eq + 1, &fields[nfmt]);
			if (valid[nfmt])
				mask_of(&fields[nfmt]);
			nfmt++;
		}
		p = nl + 1;
	}
	if (nl == p)
		p++;
	/* where perf's own configN terms may appear, any bit may be set */
	perf_terms = !!strstr(p, "config");
	if (!perf_terms) {
		memset(allowed, 0, sizeof(allowed));
		for (i = 0; i < nfmt; i++)
			if (valid[i])
				allowed[fields[i].reg] |= mask_of(&fields[i]);
	}
	why[0] = '\0';
	err = uxp_parse_event(p, lookup, NULL, cfg, why, sizeof(why));
	if (err) {
		if (err != -EINVAL && err != -ERANGE)
			abort();
		if (!memchr(why, '\0', sizeof(why)) || !why[0])
			abort();
	} else {
		for (i = 0; i < 3; i++)
			if (cfg[i] & ~allowed[i])
				abort();
	}
	free(text);
	return 0;
}
