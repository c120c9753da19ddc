/* Toy attention over a sentence: small and fully specified, so a
 * reader can recompute every number.
 *
 * Tokens. The sentence (cfg->teach.tokens, or PE_TOY_SENTENCE) is split on
 * white space (space, \t, \n, \v, \f, \r); it has 1..PE_TOY_MAX_TOKENS
 * tokens, and token i sits at position i.
 *
 * Embeddings. Each distinct word w (its bytes, case and all) has a fixed
 * vector x(w) of width d, drawn N(0, 1):
 *   seed   = FNV-1a 64 of w's bytes: h = 0xcbf29ce484222325, then for each
 *            byte b: h = (h XOR b) * 0x100000001b3 (mod 2^64)
 *   draws  = splitmix64 (Steele, Lea & Flood 2014; Vigna's reference code)
 *            from state s = seed: s += 0x9e3779b97f4a7c15; z = s;
 *            z = (z XOR z >> 30) * 0xbf58476d1ce4e5b9;
 *            z = (z XOR z >> 27) * 0x94d049bb133111eb; out = z XOR z >> 31
 *   u      = ((out >> 11) + 1) * 2^-53, a double in (0, 1]
 *   x[2k]   = sqrt(-2 ln u1) cos(2 pi u2)   (Box & Muller 1958, in double,
 *   x[2k+1] = sqrt(-2 ln u1) sin(2 pi u2)    u1 then u2 for each k)
 * An odd d drops the last sine. A word's vector at width d is the first d
 * numbers of its vector at any larger width.
 *
 * Scores. W_q = W_k = I, so q_i = k_i, and
 *   score(i, j) = q_i . q_j / sqrt(d) + b(i, j) + mask(i, j)
 *   sinusoidal, learned: q_i = x_i + PE(i)            b = 0
 *   rope:       q_i = R_i x_i (HF apply_rotary_pos_emb: the pairing, cos
 *               and sin times attention_scaling, dims past the rotary
 *               dimension passed through), b = 0
 *   alibi:      q_i = x_i, b = the bias of head `head` (alibi.h)
 *   nope:       q_i = x_i, b = 0
 *   relative:   q_i = x_i, b = bias[head, t5 bucket or shaw index of
 *               j - i] from cfg->teach.bias. T5's relative_attention_bias
 *               and a per-distance scalar for Shaw (whose a^K_ij is a
 *               vector dotted with the query; the toy uses one number per
 *               clipped distance, as T5 does). T5 itself does not divide
 *               by sqrt(d) (its initialisation absorbs it); the toy does,
 *               for every encoding alike.
 * mask(i, j) = -inf where the layer's mask hides key j from query i
 * (pe_toy_attn: causal when the mask is, j > i; a window or chunks as
 * transformers' masking_utils has them, attn.h), else 0. With the
 * attention shape of recent models (cfg->attn, attn.h):
 *   a decoupled head (DeepSeek's MLA, qk_rope_dim): only its last
 *     qk_rope_dim dims rotate, and the score is times mscale^2 when its
 *     rope is scaled with mscale_all_dim (pe_attn_scale); the dims that
 *     rotate give the score's position part, the others its content part
 *     (pe_toy_score_parts; for a partial rotary the first rotary dims);
 *   Llama 4's temperature (attn.temperature, a layer that does not
 *     rotate): query i is times pe_attn_temperature(i), so row i of the
 *     scores is;
 *   sinks (GPT-OSS, attn.sinks): the softmax of each row is over the keys
 *     and the head's sink logit, whose column is dropped
 *     (pe_attn_softmax_sink).
 * Attention is the softmax of each row over the keys. Every sum is in
 * double. */
#ifndef PESCOPE_TOY_H
#define PESCOPE_TOY_H

#include "pescope.h"

#define PE_TOY_MAX_TOKENS 64
#define PE_TOY_SENTENCE "the dog bit the man"

/* A sentence: spans of the caller's text, not copies. */
struct pe_toy_sentence {
	size_t count;			     /* T, 1..PE_TOY_MAX_TOKENS */
	const char *word[PE_TOY_MAX_TOKENS]; /* token i's first byte */
	size_t len[PE_TOY_MAX_TOKENS];	     /* and its length in bytes */
};

/* Split text into tokens on white space.
 * formula: tokens = text.split() (Python's, for ASCII white space)
 * @param[in]  text  the sentence; NULL means PE_TOY_SENTENCE
 * @param[out] dest  the tokens, pointing into text
 * Returns PE_OK, PE_EINVAL when there is no token, PE_ERANGE when there are
 * more than PE_TOY_MAX_TOKENS. */
int pe_toy_split(const char *text, struct pe_toy_sentence *dest);

/* The sentence's tokens reordered: token i of dest is token perm[i] of s.
 * formula: dest.word[i] = s.word[perm[i]]
 * @param[in]  s     the sentence (T tokens)
 * @param[in]  perm  [T], a permutation of 0..T-1
 * @param[out] dest  the permuted sentence (may not alias s)
 * Returns PE_OK, or PE_EINVAL when perm is not a permutation of 0..T-1. */
int pe_toy_permute(const struct pe_toy_sentence *s, const size_t *perm,
    struct pe_toy_sentence *dest);

/* The permutation the comparison panel uses: cfg->teach.permute when
 * given; else 0,4,2,3,1 ("the man bit the dog") for the default sentence
 * (any text whose tokens are PE_TOY_SENTENCE's); else the reversal
 * T-1, ..., 0.
 * formula: perm = --permute | [0,4,2,3,1] | [T-1 ... 0]
 * @param[in]  cfg   its teach.permute
 * @param[in]  s     the sentence (T tokens)
 * @param[out] dest  [T]
 * Returns PE_OK, or PE_EINVAL when --permute has the wrong length. */
int pe_toy_permutation(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t *dest);

/* One word's embedding (the generator above).
 * formula: x = Box-Muller(splitmix64(FNV-1a-64(word)))[0:d]
 * @param[in]  word, len  the word's bytes
 * @param[in]  d          width
 * @param[out] dest       [d] */
void pe_toy_embedding(const char *word, size_t len, size_t d, double *dest);

/* The sentence's token embeddings, one row per token.
 * formula: dest[i*d + c] = x(word_i)[c]
 * @param[in]  s     the sentence (T tokens)
 * @param[in]  d     width
 * @param[out] dest  [T, d]
 * Returns PE_OK, or PE_EINVAL for d == 0. */
int pe_toy_embeddings(const struct pe_toy_sentence *s, size_t d,
    double *dest);

/* The toy's attention shape: the layer's (pe_config_attn: its window or
 * chunks, causal where the row, the layer or a span says so), with
 * --mask causal or none deciding causality when given.
 * formula: t = attn(cfg); t.causal = mask == auto ? t.causal
 *          : mask == causal */
struct pe_attn;
void pe_toy_attn(const struct pe_config *cfg, struct pe_attn *dest);

/* Whether the toy attention is causal for cfg (pe_toy_attn's causal):
 * --mask causal, or --mask left to its default where the encoding's row
 * says so (nope, alibi's causal mode), the layer is a decoder's or it has
 * a window or chunks.
 * formula: mask == causal || (mask == auto && (row.causal(cfg) ||
 *          attn.causal || attn.span != full)) */
bool pe_toy_causal(const struct pe_config *cfg);

/* Whether the toy attention is defined for cfg, head and sentence s:
 * refused for an encoding whose row has no toy rule (vit2d: patches, not a
 * sentence), and by the rule (pescope/encoding.h): for learned when a
 * token's position is past max_len (no row), for alibi's causal mode with
 * --mask none (the bias has no value above the diagonal), for relative
 * without a --bias-file (the bias is learned) or with one of the wrong
 * shape, and for a head past the bias's heads.
 * formula: (none: a check)
 * @param[in]  cfg   a config that passed pe_config_check
 * @param[in]  s     the sentence (T tokens)
 * @param[in]  head  alibi: the head; relative: the bias row
 * @param[out] why   a sentence naming the option, when refused
 * Returns PE_OK or PE_EINVAL. */
int pe_toy_check(const struct pe_config *cfg, const struct pe_toy_sentence *s,
    size_t head, char *why, size_t cap);

/* The toy scores (the formula above), -INFINITY where masked.
 * formula: dest[i*T + j] = q_i . q_j / sqrt(d) + b(i, j) + mask(i, j)
 * @param[in]  cfg   encoding and parameters (pe_toy_check passed)
 * @param[in]  s     the sentence (T tokens; token i at position i)
 * @param[in]  head  alibi: the head; relative: the bias row
 * @param[out] dest  [T, T]
 * Returns PE_OK, PE_EINVAL when pe_toy_check refuses, PE_ENOMEM. */
int pe_toy_scores(const struct pe_config *cfg, const struct pe_toy_sentence *s,
    size_t head, double *dest);

/* The scores split by dimension: content[i*T + j] over the dims that do
 * not rotate, position[i*T + j] over those that do (rope's rotary dims;
 * none for an encoding that does not rotate), each scaled as the score;
 * content + position = the score before any bias, up to rounding; -inf
 * in both where masked.
 * formula: part_X(i, j) = sum_{k in X} q_i[k] q_j[k] / sqrt(d) mscale^2
 *          temperature(i)
 * Returns as pe_toy_scores. */
int pe_toy_score_parts(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, double *content,
    double *position);

/* The share of each query's attention the head's sink takes
 * (pe_attn_softmax_sink's share), with cfg->attn.sinks.
 * formula: dest[i] = e^{z_h} / (e^{z_h} + sum_j e^{score(i, j)})
 * @param[out] dest  [T]
 * Returns as pe_toy_scores, PE_EINVAL without sinks. */
int pe_toy_sink_share(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, double *dest);

/* Softmax of each row over the keys, max-subtracted; -inf weighs 0.
 * formula: dest[i*t + j] = exp(s_ij - max_k s_ik) / sum_k exp(s_ik - max_k
 *          s_ik)
 * @param[in]  t       rows and columns
 * @param[in]  scores  [t, t], every row with a finite entry
 * @param[out] dest    [t, t] (may be scores)
 * Returns PE_OK, or PE_EINVAL for t == 0 or a row without a finite score. */
int pe_toy_softmax(size_t t, const double *scores, double *dest);

/* The toy attention: pe_toy_scores, then pe_toy_softmax (with sinks,
 * pe_attn_softmax_sink with the head's sink: rows then sum to less than
 * 1).
 * formula: dest = softmax_rows(scores)
 * @param[out] dest  [T, T]
 * Returns as pe_toy_scores. */
int pe_toy_attention(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, double *dest);

/* How far attention is from permutation invariance: A for the sentence,
 * A' for the permuted one (token i of it is token perm[i]), mapped back
 * (P A' P^T: original tokens a, b are at inv[a], inv[b] of the permuted
 * sentence). 0 up to rounding for nope with --mask none; clearly not with a
 * positional encoding.
 * formula: dest = max_{a,b} |A[a, b] - A'[inv[a], inv[b]]|, inv = perm^-1
 * @param[in]  cfg, s, head  as pe_toy_attention
 * @param[in]  perm          [T], a permutation of 0..T-1
 * @param[out] dest          the largest difference
 * Returns as pe_toy_attention, PE_EINVAL for a perm that is not one. */
int pe_toy_permutation_gap(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, const size_t *perm, size_t head,
    double *dest);

/* The same gap of two attentions already made: A and A' mapped back (B =
 * P A' P^T, as pe_toy_permutation_gap maps it), for a caller that shows
 * both (the toy attention panel: two attentions, not four).
 * formula: max_{a,b} |A[a, b] - B[a, b]|
 * @param[in] t     tokens
 * @param[in] a, b  [T, T]
 * Returns the largest difference. */
double pe_toy_gap(size_t t, const double *a, const double *b);

#endif
