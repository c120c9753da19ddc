/* Private to the kernel: the hooks the encoding table (encoding.c) points
 * at, each defined in its encoding's file. The public face is the table
 * (pescope/encoding.h); these are not called by name outside the kernel. */
#ifndef PESCOPE_KERNEL_ENCODING_IMPL_H
#define PESCOPE_KERNEL_ENCODING_IMPL_H

#include "pescope/encoding.h"
#include "pescope/toy.h"

/* The checks every encoding shares (config.c): d_model, seq_len and base
 * in range. The encodings' own entry points that take a whole config call
 * this and their own check, not pe_config_check (which calls them). */
int pe_config_check_shared(const struct pe_config *cfg, char *why,
    size_t cap);

/* sinusoidal.c: an even d_model (t2t: 4 or more); its frequencies; PE
 * rows. */
int pe_sinusoidal_check(const struct pe_config *cfg, char *why, size_t cap);
size_t pe_sinusoidal_freqs(const struct pe_config *cfg, double *dest);
int pe_sinusoidal_vector(const struct pe_config *cfg, size_t p0,
    size_t npos, double *dest);

/* learned.c: max_len's range; the table's rows (NaN past it); the toy's
 * rule (a row for every token); the untrained table; its size in words. */
int pe_learned_check(const struct pe_config *cfg, char *why, size_t cap);
int pe_learned_vector(const struct pe_config *cfg, size_t p0, size_t npos,
    double *dest);
int pe_learned_toy_check(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, char *why, size_t cap);
int pe_learned_prepare(struct pe_config *cfg, double **owned, char *why,
    size_t cap);
int pe_learned_describe(const struct pe_config *cfg, char *dest, size_t cap);

/* relative.c: shaw's K or t5's buckets; "t5" or "shaw"; the heads of the
 * learned bias; the toy's bias b(i, j) = bias[head, index of j - i]. */
int pe_relative_check(const struct pe_config *cfg, char *why, size_t cap);
const char *pe_relative_variant(const struct pe_config *cfg);
size_t pe_relative_heads(const struct pe_config *cfg);
int pe_relative_toy_check(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, char *why, size_t cap);
int pe_relative_toy_bias(const struct pe_config *cfg, size_t head, size_t t,
    double *scores);
int pe_relative_bias_check(const struct pe_config *cfg, char *why,
    size_t cap);
int pe_relative_describe(const struct pe_config *cfg, char *dest,
    size_t cap);

/* rope.c: an even d_model, the scaling, finite tables; inv_freq; R_p x;
 * its base and scaling in words. */
int pe_rope_config_check(const struct pe_config *cfg, char *why,
    size_t cap);
size_t pe_rope_freqs(const struct pe_config *cfg, double *dest);
int pe_rope_rotate_rows(const struct pe_config *cfg, size_t p0, size_t npos,
    const double *x, size_t stride, double *dest);
int pe_rope_describe(const struct pe_config *cfg, char *dest, size_t cap);

/* alibi.c: the heads; causal by its mode; the toy's bias of a head. */
int pe_alibi_check(const struct pe_config *cfg, char *why, size_t cap);
bool pe_alibi_causal(const struct pe_config *cfg);
int pe_alibi_toy_check(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, char *why, size_t cap);
int pe_alibi_toy_bias(const struct pe_config *cfg, size_t head, size_t t,
    double *scores);
int pe_alibi_describe(const struct pe_config *cfg, char *dest, size_t cap);

/* nope.c: a decoder's mask. */
bool pe_nope_causal(const struct pe_config *cfg);

/* vit2d.c: d_model divisible by 4, the grid. */
int pe_vit2d_check(const struct pe_config *cfg, char *why, size_t cap);

/* mrope.c, xpos.c, rope2d.c: their rules, positions and defaults. */
int pe_mrope_check(const struct pe_config *cfg, char *why, size_t cap);
void pe_mrope_defaults(struct pe_config *cfg, bool d_given,
    bool base_given);
int pe_mrope_describe(const struct pe_config *cfg, char *dest, size_t cap);
int pe_xpos_check(const struct pe_config *cfg, char *why, size_t cap);
int pe_rope2d_check(const struct pe_config *cfg, char *why, size_t cap);

#endif
