/* SPDX-License-Identifier: GPL-2.0 */
#include "../kstub.h"
