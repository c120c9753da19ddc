/* ALiBi (Press et al. 2022, "Train Short, Test Long"), slopes as in the
 * authors' code (ofirpress/attention_with_linear_biases). Distance is
 * query - key. */
#ifndef PESCOPE_ALIBI_H
#define PESCOPE_ALIBI_H

#include "pescope.h"

/* Fill dest[heads] with the head slopes. Power-of-two h: 2^(-8k/h), k=1..h;
 * otherwise those of the closest lower power of two, then every other slope
 * of twice that power. Returns PE_EINVAL for heads == 0. */
int pe_alibi_slopes(size_t heads, double *dest);

/* Bias of query i for key j with slope m: causal -m (i-j) for j <= i and
 * -INFINITY for j > i; symmetric -m |i-j|. */
double pe_alibi_bias(double m, size_t i, size_t j, enum pe_alibi_mode mode);

/* Rows [r0, r1) of that bias seen as [heads * n, n]: row r is head r / n's
 * query r % n (slopes: pe_alibi_slopes of cfg->heads).
 * formula: dest[(r - r0) n + j] = pe_alibi_bias(slopes[r / n], r % n, j,
 *          cfg->alibi_mode)
 * Returns PE_OK, or PE_EINVAL for a NULL buffer or rows past the end. */
int pe_alibi_bias_rows(const struct pe_config *cfg, const double *slopes,
    size_t r0, size_t r1, double *dest);

/* The bias by query - key of one head, as a line the rows are windows of:
 * row i of the [n, n] bias is dest[n - 1 - i .. 2n - 1 - i).
 * formula: dest[t] = pe_alibi_bias(m, n - 1, t, mode), t < 2n - 1
 * Returns PE_OK, or PE_EINVAL for n == 0 or a NULL buffer. */
int pe_alibi_bias_line(double m, size_t n, enum pe_alibi_mode mode,
    double *dest);

/* Mean attention weight that query i (of n) gives keys [j0, j1) after a
 * softmax over the ALiBi biases alone (all content scores equal): weights
 * exp(-m (i-j)) over j <= i (causal) or exp(-m |i-j|) over all j
 * (symmetric), normalised. Closed form (geometric sums), any block size. */
double pe_alibi_attention(double m, size_t i, size_t n, size_t j0, size_t j1,
    enum pe_alibi_mode mode);

/* ALiBi's recency: the mean weight query i (of n) gives keys [j0, j1)
 * after a softmax over the biases alone, averaged over the heads. Every
 * head prefers near keys, the steep ones sharply: the average is a
 * recency profile, not the "lost in the middle" U shape (which needs
 * content: the start of the text is not favoured by any bias).
 * formula: dest = (1/H) sum_h pe_alibi_attention(m_h, i, n, j0, j1, mode)
 * source: Press et al. 2022, sec. 3 (the bias is added before the
 *         softmax).
 * @param[in] slopes, heads  pe_alibi_slopes
 * Returns NaN for an empty range, i >= n or heads == 0. */
double pe_alibi_recency(const double *slopes, size_t heads,
    enum pe_alibi_mode mode, size_t i, size_t n, size_t j0, size_t j1);

#endif
