/* Private to the kernel and its tests: what only the tests call. Whole
 * tables filled the slow, obvious way and single values, against which
 * the fields, the dump tables and the closed forms are checked. Only the
 * files that define them and the tests include this header; it is not the
 * kernel's API (include/pescope/ is). */
#ifndef PESCOPE_KERNEL_TESTING_H
#define PESCOPE_KERNEL_TESTING_H

#include "pescope/field.h"
#include "pescope/pescope.h"
#include "pescope/rope.h"

/* alibi.c */
/* Fill dest[h*n*n + i*n + j] for every head. */
int pe_alibi_fill(const struct pe_config *cfg, double *dest);

/* pe_alibi_recency for each key of query i, with cfg's heads, mode and n.
 * formula: dest[j] = pe_alibi_recency(slopes, heads, mode, i, n, j, j + 1)
 * @param[out] dest  [cfg->n]
 * Returns PE_OK, or PE_EINVAL for i >= n or bad heads, PE_ENOMEM. */
int pe_alibi_recency_fill(const struct pe_config *cfg, size_t i,
    double *dest);

/* field.c */
/* Similarity profile: dest[k] = S(p, p + k) for k = 0 .. nk-1 (a
 * PE_FIELD_SIMILARITY field; NAN past the last position). */
int pe_field_profile(const struct pe_field *f, size_t p, size_t nk,
    double *dest);

/* field_rope2d.c */
/* The most multiply-adds a mixed patch map's table is built with pair by
 * pair (2^28): past it the reference initialisation's is built from L
 * (a test sets 0 to check that build). */
extern uint64_t pe_field_rope2d_build_max;

/* learned.c */
/* The embedding of position p: PE_OK and *dest = table[p, c], or PE_ERANGE
 * when p >= max_len (a model trained with max_len positions cannot place a
 * token at p: there is no row for it). */
int pe_learned_value(const struct pe_config *cfg, size_t p, size_t c,
    double *dest);

/* nope.c */
/* Fill dest[i*n + j] with the causal mask. */
int pe_nope_fill(size_t n, double *dest);

/* relative.c */
/* Fill dest[i*n + j] with the bucket (t5) or index (shaw) of query i, key j. */
int pe_relative_fill(const struct pe_config *cfg, int64_t *dest);

/* rope.c */
/* Fill the cos and sin tables [npos, rot] for positions p0.., in the pairing's
 * column order, multiplied by attention_scaling (as HF does). */
int pe_rope_fill_cos_sin(const struct pe_rope *r, size_t p0, size_t npos,
    double *cos_dest, double *sin_dest);

/* vit2d.c */
/* Fill dest[(grid_h*grid_w) * d] in row-major patch order.
 * PE_EINVAL when d is not a positive multiple of 4 or the grid is empty. */
int pe_vit2d_fill(size_t grid_h, size_t grid_w, size_t d, double *dest);

/* xpos.c */
/* The decay envelope at distance k = query - key (K = 0): sum_j
 * zeta_j^(k/gamma), the largest score at that distance (every cos 1); and
 * its exact mean over k = k0 .. k1-1 (geometric sums). */
double pe_xpos_envelope(const struct pe_config *cfg, double k);

double pe_xpos_envelope_mean(const struct pe_config *cfg, int64_t k0,
    int64_t k1);

#endif
