/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KSTUB_IDR_H
#define KSTUB_IDR_H
#include "../kstub.h"

/* An IDA of the numbers 0 to 63, enough for a fuzzer's devices. */
struct ida {
	unsigned long long used;
};

#define DEFINE_IDA(name) struct ida name = { 0 }

static inline int ida_alloc(struct ida *ida, int gfp)
{
	int id;

	(void)gfp;
	for (id = 0; id < 64; id++) {
		if (!(ida->used & (1ULL << id))) {
			ida->used |= 1ULL << id;
			return id;
		}
	}
	return -ENOSPC;
}

static inline void ida_free(struct ida *ida, unsigned int id)
{
	ida->used &= ~(1ULL << id);
}
#endif
