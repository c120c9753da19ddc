/* Private to the kernel: how a check says why it refuses. */
#ifndef PESCOPE_KERNEL_CHECK_H
#define PESCOPE_KERNEL_CHECK_H

#include <stdio.h>

#include "pescope/pescope.h"

/* Say why into why[cap] (when given) and return PE_EINVAL from the
 * calling check; the callers name their `why` and `cap` so. */
#define FAIL(...)                                     \
	do {                                          \
		if (why != NULL && cap > 0)           \
			snprintf(why, cap, __VA_ARGS__); \
		return PE_EINVAL;                     \
	} while (0)

#endif
