/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel API, in user space, to compile a simulator
 * model (sim_cspmu.c) for the host-side self-test. Every header under
 * linux/ here includes this file.
 */
#ifndef __KSTUB_H
#define __KSTUB_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the kernel's names for the fixed-width types */
#define u8			uint8_t
#define u16			uint16_t
#define u32			uint32_t
#define u64			unsigned long long

/* sparse's address-space marker: nothing to the host compiler */
#define __iomem

#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))
#define U64_MAX			UINT64_MAX
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define min(a, b)		kstub_min(a, b)
#define max(a, b)		kstub_max(a, b)
#define max_t(type, a, b)	kstub_max((type)(a), (type)(b))

/* The kernel's min()/max() for user space, without a conditional. */
static inline unsigned long long kstub_min(unsigned long long a,
					   unsigned long long b)
{
	return b ^ ((a ^ b) & -(unsigned long long)(a < b));
}

static inline unsigned long long kstub_max(unsigned long long a,
					   unsigned long long b)
{
	return a ^ ((a ^ b) & -(unsigned long long)(a < b));
}

#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define upper_32_bits(n)	((u32)((u64)(n) >> 32))
#define GFP_KERNEL		0
#define kzalloc(s, f)		((void)(f), calloc(1, s))
#define kfree(p)		free(p)
#define module_param(n, t, p)	extern char kstub_param_##n[sizeof(t *) + (p)]
#define MODULE_PARM_DESC(n, d)	extern char kstub_desc_##n[sizeof(d)]
#define pr_err(...)		fprintf(stderr, __VA_ARGS__)

struct seq_file { int unused; };
struct dentry;
struct mutex { int unused; };
struct delayed_work { int unused; };
typedef struct { int counter; } atomic_t;
struct kstub_raw_spinlock { int unused; };

#define raw_spinlock_t		struct kstub_raw_spinlock

#endif
