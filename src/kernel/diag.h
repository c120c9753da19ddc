/* Private to the kernel: fields that depend on (query, key) through the
 * relative position k = key - query only (alibi bias, the causal mask, T5
 * buckets, Shaw indices). Their block means are sums along diagonals of a
 * rectangle, done in closed form piece by piece: O(1) for alibi and nope,
 * O(num_buckets) for t5, whatever the rectangle's size. */
#ifndef PESCOPE_KERNEL_DIAG_H
#define PESCOPE_KERNEL_DIAG_H

#include "pescope/field.h"

/* Exact value of a PE_FIELD_BIAS, PE_FIELD_MASK or PE_FIELD_RELATIVE field at
 * (query r, key c): -INFINITY where masked. Uses f->cfg, f->head, f->slopes. */
double pe_diag_value(const struct pe_field *f, size_t r, size_t c);

/* Statistics of rows [r0, r1) x cols [c0, c1) of such a field; min/max are
 * always exact (closed form), so `minmax` only sets minmax_exact. */
int pe_diag_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest);

/* Means of an nr x nc grid of blocks tiling rows [r0, r1) x cols [c0,
 * c1) of such a field (pe_field_grid's; the same statistics as
 * pe_diag_block gives each block, min and max not marked exact); stop,
 * when not NULL, is polled now and then: PE_EINTR when it says so. */
int pe_diag_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest,
    bool (*stop)(void));

#endif
