/* Relative positions: Shaw et al. 2018 clipped distances and T5 buckets.
 * Relative position is key - query throughout. */
#ifndef PESCOPE_RELATIVE_H
#define PESCOPE_RELATIVE_H

#include "pescope.h"

/* Shaw et al. 2018, eq. (3): clip(rel, -K, K) + K, in [0, 2K]. */
int64_t pe_shaw_index(int64_t rel, size_t k);

/* T5's _relative_position_bucket (Raffel et al. 2020; HF modeling_t5.py) for
 * rel = key - query: half of the buckets (of each direction, when
 * bidirectional) are exact distances, the rest logarithmic up to
 * max_distance; bidirectional puts positive rel in the upper half. */
int64_t pe_t5_bucket(int64_t rel, bool bidirectional, size_t num_buckets,
    size_t max_distance);

/* Smallest distance n = |rel| (bidirectional) or -rel that is in the
 * logarithmic range: num_buckets/2 or /4 (the exact buckets). */
size_t pe_t5_max_exact(bool bidirectional, size_t num_buckets);

/* The same numbers by relative distance, once each: the table's row i is
 * dest[n - 1 - i .. 2n - 2 - i].
 * formula: dest[k] = bucket or index of rel = k - (n - 1), k < 2n - 1
 * Returns PE_OK, or PE_EINVAL for n == 0 or a NULL buffer. */
int pe_relative_by_distance(const struct pe_config *cfg, int64_t *dest);

#endif
