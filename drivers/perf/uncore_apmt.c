// SPDX-License-Identifier: GPL-2.0
/*
 * APMT enumeration for kernels without an APMT parser (placeholder, being
 * written).
 */

#include "uncore_internal.h"

void uncore_apmt_init(void)
{
}

void uncore_apmt_exit(void)
{
}
