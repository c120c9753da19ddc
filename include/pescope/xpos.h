/* xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer"), as the
 * authors' torchscale computes it (torchscale/component/
 * xpos_relative_position.py, XPOS; multihead_attention.py applies it as
 * q = xpos(q, offset, downscale=False), k = xpos(k, 0, downscale=True)).
 *
 * RoPE in GPT-J's interleaved pairs (rotate_every_two, duplicate_interleave)
 * at inv_freq_j = base^(-j / (d/2)) (fixed_pos_embedding: 10000 there), with
 * each pair j of a query at row r multiplied by zeta_j^(m/gamma) and of a
 * key by zeta_j^(-n/gamma):
 *   zeta_j = (2j + 0.4 d) / (1.4 d),   gamma = xpos_scale_base (512),
 *   m = min_pos + K + r,  min_pos = -(n + K) // 2 (floor division), K the
 *   queries' offset; keys: n = min_pos(n, 0) + c;
 *   angles: (r + K) inv_freq_j for queries, c inv_freq_j for keys.
 * The scale uses the centred positions and the angles the plain ones; for
 * K = 0 the score depends on r - c only and decays with it (zeta_j < 1). */
#ifndef PESCOPE_XPOS_H
#define PESCOPE_XPOS_H

#include "pescope.h"

/* zeta_j = (2j + 0.4 d) / (1.4 d) (XPOS's scale buffer). */
double pe_xpos_zeta(size_t j, size_t d);

/* torchscale's min_pos = -(length + offset) // 2, Python's floor. */
int64_t pe_xpos_min_pos(size_t length, size_t offset);

/* inv_freq_j = 1 / base^(j / (d/2)), j < d/2 (fixed_pos_embedding). */
void pe_xpos_inv_freq(const struct pe_config *cfg, double *dest);

/* The centred position of query row r, min_pos(n, K) + K + r, and of key
 * row c, min_pos(n, 0) + c (the scale's exponents times gamma). */
int64_t pe_xpos_query_pos(const struct pe_config *cfg, size_t r);
int64_t pe_xpos_key_pos(const struct pe_config *cfg, size_t c);

/* The queries' tables of `dump` (XPOS.forward(q, offset=K)):
 *   scale [n, d/2]: zeta_j^(m/gamma) (keys use its inverse at K = 0);
 *   cos, sin [n, d]: duplicate_interleave(cos (r + K) inv_freq x scale),
 *     what apply_rotary_pos_emb multiplies x and rotate_every_two(x) by
 *     (columns 2j and 2j + 1 both pair j). Either may be NULL.
 * PE_EINVAL when cfg's shared and xpos parameters do not pass their
 * checks (pe_config_check's, whatever cfg's encoding). */
int pe_xpos_fill_scale(const struct pe_config *cfg, double *dest);
int pe_xpos_fill_cos_sin(const struct pe_config *cfg, double *cos_dest,
    double *sin_dest);

/* Score of query row r and key row c for q = k = (1, 0) in every pair:
 *   sum_j zeta_j^((m_r - n_c)/gamma) cos(((r + K) - c) inv_freq_j)
 * with the centred positions of pe_xpos_query_pos and pe_xpos_key_pos;
 * inv_freq as pe_xpos_inv_freq. */
double pe_xpos_score(const struct pe_config *cfg, const double *inv_freq,
    size_t r, size_t c);

/* The envelope's means over the ns blocks that tile k = 0 .. n-1 as
 * pe_field_span cuts them, into dest[ns] (each pe_xpos_envelope_mean's,
 * the powers stepped from block to block). PE_EINVAL, PE_ENOMEM. */
int pe_xpos_envelope_fill(const struct pe_config *cfg, size_t n, size_t ns,
    double *dest);

#endif
