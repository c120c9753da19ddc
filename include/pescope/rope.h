/* Rotary position embedding (Su et al. 2021, RoFormer) and its context
 * extensions, following Hugging Face transformers' modeling_rope_utils.py. */
#ifndef PESCOPE_ROPE_H
#define PESCOPE_ROPE_H

#include "pescope.h"

/* Everything derived from a rope config once: the inverse frequencies after
 * scaling and the attention scaling HF multiplies cos and sin by. */
struct pe_rope {
	size_t d;	   /* head dimension */
	size_t rot;	   /* rotary dimension = int(d * partial_rotary), even;
			      a decoupled head's qk_rope_dim */
	size_t off;	   /* the first dimension that rotates: 0, or a
			      decoupled head's qk_nope_dim (its rotated part
			      is last) */
	size_t npairs;	   /* rot / 2 */
	enum pe_pairing pairing;
	double attention_scaling;
	double *inv_freq;  /* [npairs], scaled */
	double *inv_freq0; /* [npairs], unscaled (default rope, same base) */
};

/* Derive inv_freq and attention scaling from cfg (rope_type, factor, ...).
 * For dynamic, the current sequence length is cfg->n. Allocates;
 * release with pe_rope_free. PE_EINVAL names no parameter: call
 * pe_config_check first for a sentence. */
int pe_rope_init(struct pe_rope *r, const struct pe_config *cfg);

/* Rotary dimension, as HF: int(head_dim * partial_rotary_factor). The rest
 * of the head passes through unrotated. A decoupled head (DeepSeek's MLA,
 * attn.qk_rope_dim): its qk_rope_dim, the last dimensions of the head
 * (modeling_deepseek_v3.py: q_nope, q_pe = split(q, [qk_nope_head_dim,
 * qk_rope_head_dim])), whose inverse frequencies are those of a head of
 * qk_rope_dim (its rotary embedding's dim is config.qk_rope_head_dim). */
size_t pe_rope_rotary_dim(const struct pe_config *cfg);

/* The first dimension that rotates: 0, or a decoupled head's
 * qk_nope_dim. */
size_t pe_rope_rotary_offset(const struct pe_config *cfg);
void pe_rope_free(struct pe_rope *r);

/* Dimension indices (a, b) forming pair j in the chosen pairing:
 * half: (j, j + rot/2); interleaved: (2j, 2j + 1). */
void pe_rope_pair_dims(size_t j, size_t rot, enum pe_pairing pairing,
    size_t *a, size_t *b);

/* Angle theta[m, j] = m * inv_freq[j], in double, not reduced. */
double pe_rope_angle(const struct pe_rope *r, double m, size_t j);

/* Rows p0 .. p0+npos-1 of the angles: dest[k npairs + j] =
 * pe_rope_angle(r, p0 + k, j). Returns PE_OK, or PE_EINVAL. */
int pe_rope_angle_rows(const struct pe_rope *r, size_t p0, size_t npos,
    double *dest);

/* The same rows as float32, each the float of pe_rope_angle's double. */
int pe_rope_angle_rows_f32(const struct pe_rope *r, size_t p0, size_t npos,
    float *dest);

/* Rotate x[d] to position m in double: HF's apply_rotary_pos_emb on one
 * vector (modeling_llama.py: x cos + rotate_half(x) sin, cos and sin
 * multiplied by attention_scaling), in the pairing's dims; the dims past
 * rot pass through unchanged.
 * formula: (a, b) -> (a c - b s, b c + a s), c = att cos(m w_j),
 *          s = att sin(m w_j), for each pair j with dims (a, b)
 * @param[in]  r     the rope (pe_rope_init)
 * @param[in]  x     [d]
 * @param[in]  m     position
 * @param[out] dest  [d] (may not alias x) */
void pe_rope_apply(const struct pe_rope *r, const double *x, double m,
    double *dest);

/* Wavelength 2 pi / inv_freq[j] (after scaling, or before when orig). */
double pe_rope_wavelength(const struct pe_rope *r, size_t j, bool orig);

/* RoFormer's long-term decay bound at relative distance dist: the mean
 * over j of |S_j|, S_j the partial sums of the pairs' phasors, with the
 * frequencies in use (scaled when a scaling type is set). Under partial
 * rotary only the rotary pairs count (npairs = rot/2, not d/2): the
 * passed-through dims carry no phase. Attention scaling multiplies every
 * score by att^2 and is left out, as RoFormer has none.
 * formula: dest = (1/P) sum_{j=1}^{P} |S_j(r)|, S_j(r) = sum_{k=0}^{j-1}
 *          exp(i r w_k), P = npairs, w = inv_freq
 * source: Su et al. 2021 (RoFormer), sec. 3.4.3, Figure 2.
 * Cost O(npairs). */
double pe_rope_decay(const struct pe_rope *r, double dist);

/* pe_rope_decay for distances r0 .. r0+count-1.
 * formula: dest[k] = pe_rope_decay(r, r0 + k)
 * Returns PE_OK, or PE_EINVAL for a NULL argument. */
int pe_rope_decay_fill(const struct pe_rope *r, size_t r0, size_t count,
    double *dest);

/* pe_rope_decay at count distances dist[k], its angles' sincos on the
 * vector units (within 1 ulp of libm's) and |S_j| by sqrt: within a few
 * ulps of pe_rope_decay's numbers, several times faster (the decay
 * panel's plot).
 * formula: dest[k] ~= pe_rope_decay(r, dist[k])
 * Returns PE_OK, PE_EINVAL for a NULL argument, or PE_ENOMEM. */
int pe_rope_decay_many(const struct pe_rope *r, const double *dist,
    size_t count, double *dest);

/* The pairs whose wavelength exceeds the training length L: they never
 * completed a turn in training (the observation behind NTK-aware scaling
 * and YaRN, whose ratio r = L / lambda_j < 1 marks them). orig picks the
 * unscaled frequencies (those a model trained with at its original
 * context) rather than the scaled ones.
 * formula: { j : 2 pi / w_j > L },  w = inv_freq0 (orig) or inv_freq
 * source: Peng et al. 2023 (YaRN), sec. 3.2 (r(d) = L / lambda_d).
 * @param[in]  r          the rope
 * @param[in]  train_len  L
 * @param[in]  orig       unscaled (true) or scaled frequencies
 * @param[out] dest       NULL, or room for npairs indices: the pairs, in
 *                        increasing order
 * Returns how many there are. */
size_t pe_rope_beyond(const struct pe_rope *r, double train_len, bool orig,
    size_t *dest);

/* Whether a model trained at its train_len with the scaled angles: a
 * config's own linear scaling (teach.train_scaled; modeling_rope_utils.py's
 * _compute_linear_scaling_rope_parameters: inv_freq / factor; its
 * max_position_embeddings, pescope's train_len, is the scaled context).
 * Linear scaling put on a model trained without it (PI on Llama 2) keeps
 * the unscaled angles of its training.
 * YaRN, llama3 and longrope give original_max_position_embeddings, the
 * context trained before scaling, with the unscaled angles; dynamic NTK
 * scales only past max_position_embeddings.
 * @param[in]  cfg  the config
 * Returns true when the training angles are the scaled ones. */
bool pe_rope_trained_scaled(const struct pe_config *cfg);

/* The pairs that never completed a turn in training: pe_rope_beyond with
 * the angles a model trained with at train_len (pe_rope_trained_scaled).
 * formula: { j : 2 pi / w_j > L }, w = inv_freq when trained scaled,
 *          inv_freq0 otherwise
 * @param[in]  cfg        the config r was made from
 * @param[in]  r          the rope
 * @param[in]  train_len  L
 * @param[out] dest       NULL, or room for npairs indices
 * Returns how many there are. */
size_t pe_rope_never_turned(const struct pe_config *cfg,
    const struct pe_rope *r, double train_len, size_t *dest);

/* The factor longrope uses: --factor when given (HF's rope_scaling["factor"]),
 * else max_pos / original_max_pos (HF, for a config with a top-level
 * original_max_position_embeddings, as Phi-3's). */
double pe_rope_longrope_factor(const struct pe_rope_scaling *s);

/* The beta_fast and beta_slow yarn uses: HF's `get("beta_fast") or 32`,
 * `get("beta_slow") or 1` (0 and unset mean the default). */
void pe_rope_yarn_betas(const struct pe_rope_scaling *s, double *beta_fast,
    double *beta_slow);

/* Check that cfg's rope tables are finite (inv_freq, its wavelengths, the
 * angles up to seq_len, cos and sin times attention_scaling, and the
 * similarity, at most attention_scaling^2 d); cfg's parameters must have
 * passed pe_config_check's range checks. PE_EINVAL with a sentence naming
 * the option in why[cap] when they are not; PE_OK otherwise (and when out
 * of memory, which pe_rope_init reports later). */
int pe_rope_check(const struct pe_config *cfg, char *why, size_t cap);

#endif
