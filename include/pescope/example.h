/* The worked example of adding a position to a token: a vector x
 * of width d (--embedding) plus the encoding's PE(p), or rotated to p.
 * Addition changes magnitude and direction; rotation keeps the magnitude
 * (up to HF's attention scaling, which multiplies cos and sin). */
#ifndef PESCOPE_EXAMPLE_H
#define PESCOPE_EXAMPLE_H

#include "pescope.h"

struct pe_rope;

/* x + PE(p) for positions p0 .. p0+npos-1, PE the vector of cfg's
 * encoding (its row's `vector`: sinusoidal, learned). A learned table has
 * no row past max_len: those rows are NaN.
 * formula: dest[(p - p0)*d + c] = x[c] + PE(p, c)
 * source: Vaswani et al. 2017, sec. 3.5 ("we add positional encodings to
 *         the input embeddings"); GPT-2 and BERT add wpe the same way.
 * @param[in]  cfg   an encoding with a vector, checked
 * @param[in]  x     [d]
 * @param[out] dest  [npos, d]
 * Returns PE_OK, or PE_EINVAL for an encoding without a vector. */
int pe_example_sum(const struct pe_config *cfg, const double *x, size_t p0,
    size_t npos, double *dest);

/* R_p x for positions p0 .. p0+npos-1 (rope), as pe_rope_apply.
 * formula: dest[(p - p0)*d + .] = R_p x: each pair (a, b) -> att (a cos
 *          p w_j - b sin p w_j, b cos p w_j + a sin p w_j); dims past the
 *          rotary dimension copied
 * source: Su et al. 2021 (RoFormer), eq. 34; HF apply_rotary_pos_emb.
 * @param[in]  r     the rope (pe_rope_init)
 * @param[in]  x     [d]
 * @param[out] dest  [npos, d]
 * Returns PE_OK, or PE_EINVAL for a NULL argument. */
int pe_example_rotated(const struct pe_rope *r, const double *x, size_t p0,
    size_t npos, double *dest);

/* Euclidean norm of x[d].
 * formula: |x| = sqrt(sum_c x[c]^2) */
double pe_example_norm(const double *x, size_t d);

/* |x + PE(p)| (an encoding with a vector).
 * formula: dest = sqrt(sum_c (x[c] + PE(p, c))^2)
 * source: as pe_example_sum.
 * Returns PE_OK, PE_ERANGE past a learned table's max_len (dest NaN),
 * PE_EINVAL for an encoding without a vector, or PE_ENOMEM. */
int pe_example_sum_norm(const struct pe_config *cfg, const double *x,
    size_t p, double *dest);

/* The angle between x and x + PE(p), in radians, 0..pi (NaN when either is
 * the zero vector). Kahan's form, exact for small angles too.
 * formula: dest = 2 atan2(|x/|x| - y/|y||, |x/|x| + y/|y||), y = x + PE(p)
 * source: W. Kahan, "How Futile are Mindless Assessments of Roundoff in
 *         Floating-Point Computation?" (2006), "Mangled Angles".
 * Returns as pe_example_sum_norm. */
int pe_example_sum_angle(const struct pe_config *cfg, const double *x,
    size_t p, double *dest);

/* |R_p x|, computed from the rotated vector. A rotation keeps the norm, and
 * HF's attention scaling att multiplies cos and sin, so
 * |R_p x|^2 = att^2 |x_rot|^2 + |x_pass|^2: |x| exactly when att = 1,
 * att |x| with every dim rotating (att != 1 only for yarn and longrope).
 * formula: dest = sqrt(sum_c (R_p x)[c]^2)
 * source: Su et al. 2021, sec. 3.4.2 (R is orthogonal); HF
 *         LlamaRotaryEmbedding.forward (cos, sin times attention_scaling).
 * Returns PE_OK, PE_EINVAL for a NULL argument, or PE_ENOMEM. */
int pe_example_rotated_norm(const struct pe_rope *r, const double *x,
    size_t p, double *dest);

#endif
