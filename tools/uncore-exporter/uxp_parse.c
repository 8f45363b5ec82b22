// SPDX-License-Identifier: GPL-2.0
/*
 * The sysfs description of a PMU's events, read as perf reads it.
 *
 * A format/ file names a register of perf_event_attr and its bits:
 * "config:0-7", "config1:0-1", "config:0-7,32-35" (a field split over
 * two ranges: the low bits of the value go to the first range). An
 * events/ file holds an event's terms: "event=0x113,src_loc_cpu=0x1", a
 * bare term meaning 1. Everything read here is checked: a malformed
 * file, a term with no format/ entry and a value wider than its field are
 * errors, never guessed at.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "uxp.h"

static int parse_uint(const char **p, unsigned long long *v, int hex_ok)
{
	const char *s = *p;
	unsigned long long x = 0;
	unsigned int base = 10, digits = 0;

	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++, digits++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (x > (~0ULL - d) / base)
			return -ERANGE;
		x = x * base + d;
	}
	if (!digits)
		return -EINVAL;
	*p = s;
	*v = x;
	return 0;
}

/* the end of a sysfs file's text: at most one newline */
static int at_end(const char *p)
{
	return *p == '\0' || (*p == '\n' && p[1] == '\0');
}

/**
 * uxp_parse_format() - read a format/ file
 * @text: its contents
 * @f: the field
 *
 * Return: 0, or -EINVAL for text that is not "configN:ranges".
 */
int uxp_parse_format(const char *text, struct uxp_field *f)
{
	static const char *const regs[] = { "config:", "config1:", "config2:" };
	const char *p = NULL;
	unsigned int i, bits = 0;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < 3; i++) {
		if (!strncmp(text, regs[i], strlen(regs[i]))) {
			p = text + strlen(regs[i]);
			f->reg = i;
			break;
		}
	}
	if (!p)
		return -EINVAL;
	for (;;) {
		unsigned long long lo, hi;

		if (f->nr == UXP_MAX_RANGES || parse_uint(&p, &lo, 0))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_uint(&p, &hi, 0))
				return -EINVAL;
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		bits += hi - lo + 1;
		if (bits > 64)
			return -EINVAL;
		f->lo[f->nr] = lo;
		f->hi[f->nr] = hi;
		f->nr++;
		if (*p != ',')
			break;
		p++;
	}
	return at_end(p) ? 0 : -EINVAL;
}

/**
 * uxp_field_set() - put a term's value into its field
 * @f: the field
 * @val: the value
 * @cfg: config, config1 and config2
 *
 * Return: 0, or -ERANGE where @val has bits the field has not.
 */
int uxp_field_set(const struct uxp_field *f, uint64_t val, uint64_t cfg[3])
{
	unsigned int i, shift = 0;

	for (i = 0; i < f->nr; i++) {
		unsigned int w = f->hi[i] - f->lo[i] + 1;
		uint64_t mask = w == 64 ? ~0ULL : (1ULL << w) - 1;
		uint64_t part = shift < 64 ? (val >> shift) & mask : 0;

		cfg[f->reg] &= ~(mask << f->lo[i]);
		cfg[f->reg] |= part << f->lo[i];
		shift += w;
	}
	if (shift < 64 && (val >> shift))
		return -ERANGE;
	return 0;
}

/**
 * uxp_parse_event() - read an events/ file into configs
 * @text: its contents, "term[=value],..."
 * @lookup: the PMU's format/ entries
 * @ctx: passed to @lookup
 * @cfg: config, config1 and config2, set from zero
 * @why: where to say what is wrong, on error
 * @whylen: its size
 *
 * Return: 0; -EINVAL for malformed text or a term without a format/
 * entry; -ERANGE for a value wider than its field.
 */
int uxp_parse_event(const char *text, uxp_field_lookup lookup, void *ctx,
		    uint64_t cfg[3], char *why, size_t whylen)
{
	const char *p = text;

	cfg[0] = 0;
	cfg[1] = 0;
	cfg[2] = 0;
	for (;;) {
		char term[UXP_NAME_MAX];
		unsigned long long v = 1;
		struct uxp_field f;
		size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_");
		int err;

		if (!n || n >= sizeof(term)) {
			snprintf(why, whylen, "not a term at '%.16s'", p);
			return -EINVAL;
		}
		memcpy(term, p, n);
		term[n] = '\0';
		p += n;
		if (*p == '=') {
			p++;
			err = parse_uint(&p, &v, 1);
			if (err) {
				snprintf(why, whylen, "term '%s': not a number", term);
				return -EINVAL;
			}
		}
		err = lookup(ctx, term, &f);
		if (err == -ENOENT && !strncmp(term, "config", 6) &&
		    (!term[6] || ((term[6] == '1' || term[6] == '2') && !term[7]))) {
			/* perf's own terms for a whole register */
			f.reg = term[6] ? term[6] - '0' : 0;
			f.nr = 1;
			f.lo[0] = 0;
			f.hi[0] = 63;
			err = 0;
		}
		if (err) {
			snprintf(why, whylen, "term '%s' %s", term,
				 err == -ENOENT ? "is not in format/" :
				 "has a format/ entry that does not parse");
			return -EINVAL;
		}
		if (uxp_field_set(&f, v, cfg)) {
			snprintf(why, whylen, "term '%s': 0x%llx does not fit its field",
				 term, v);
			return -ERANGE;
		}
		if (at_end(p))
			return 0;
		if (*p != ',') {
			snprintf(why, whylen, "not a term at '%.16s'", p);
			return -EINVAL;
		}
		p++;
	}
}
