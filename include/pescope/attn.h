/* The attention shape of a layer: which keys a query sees (a causal mask,
 * a sliding window, chunks), what else enters its softmax (a learned sink
 * logit per head, Llama 4's query temperature), and which dimensions of a
 * head rotate (DeepSeek's decoupled RoPE). A struct pe_attn is part of
 * every struct pe_config (cfg->attn): the model loader (model.h) fills it
 * from a checkpoint's config.json, the command line from --window,
 * --chunk, --sinks, --rope-dim, --floor-scale, ..., and the toy attention
 * (toy.h), the mask field and dump read it.
 *
 * Sources, each transcribed where it is used (src/kernel/attn.c; the two
 * functions that read the encoding's row, pe_config_attn and
 * pe_attn_scale, in src/kernel/encoding.c beside the rows):
 *   masks        transformers' masking_utils.py (causal_mask_function,
 *                sliding_window_overlay, sliding_window_bidirectional_
 *                overlay, chunked_overlay);
 *   sinks        modeling_gpt_oss.py's eager_attention_forward;
 *   temperature  modeling_llama4.py's Llama4TextAttention.forward;
 *   decoupled    modeling_deepseek_v3.py's DeepseekV3Attention (the split
 *                of a head into qk_nope_head_dim and qk_rope_head_dim, and
 *                its softmax scale with YaRN's mscale). */
#ifndef PESCOPE_ATTN_H
#define PESCOPE_ATTN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pe_config;

/* Which keys a query of a layer may see (besides causality). */
enum pe_attn_span {
	PE_SPAN_FULL,	 /* every key (the causal ones when causal) */
	PE_SPAN_SLIDING, /* the `window` most recent keys, itself included
			    (HF's sliding_window mask) */
	PE_SPAN_CHUNKED, /* the keys of its own chunk of `chunk` positions
			    (Llama 4's attention_chunk_size) */
};

/* A layer's attention shape: what it does with positions besides its
 * encoding's own tables. A zero field means "not there". */
struct pe_attn {
	bool exact;	       /* pescope computes its positions as the
				  model does (false: a note says what is
				  not modelled; its tables are refused) */
	bool rotates;	       /* RoPE turns its queries and keys (false: a
				  NoPE layer, or an encoding without
				  rotation) */
	bool causal;	       /* a query sees no later key (decoders) */
	enum pe_attn_span span;
	size_t window;	       /* PE_SPAN_SLIDING: HF's sliding_window */
	size_t chunk;	       /* PE_SPAN_CHUNKED: attention_chunk_size */
	size_t head_dim;       /* a query's (and key's) dimension */
	size_t rotary_dim;     /* the dimensions that turn (0: none) */
	size_t qk_rope_dim;    /* decoupled RoPE (MLA): the rotated part of
				  a query head, its last dimensions; 0: not
				  decoupled (--rope-dim) */
	size_t qk_nope_dim;    /* decoupled RoPE: the content part, its
				  first dimensions (--nope-dim) */
	double softmax_scale;  /* the scores' scale as the model's attention
				  applies it (head_dim^-0.5, Gemma's
				  query_pre_attn_scalar^-0.5, DeepSeek's
				  mscale^2 qk_head_dim^-0.5); 0: unknown */
	size_t heads;	       /* num_attention_heads (0: not known) */
	const double *sinks;   /* [n_sinks]: GPT-OSS's learned sink logit of
				  each head; NULL: none (--sinks) */
	size_t n_sinks;
	bool temperature;      /* Llama 4's attn_temperature_tuning: a NoPE
				  layer scales its queries by position */
	double floor_scale;    /* its floor_scale (8192) */
	double attn_scale;     /* its attn_scale (0.1) */
};

/* Llama 4's defaults of the temperature (configuration_llama4.py). */
#define PE_ATTN_FLOOR_SCALE 8192.0
#define PE_ATTN_ATTN_SCALE 0.1

/* The span's name: "full", "sliding" or "chunked". */
const char *pe_attn_span_name(enum pe_attn_span span);

/* Whether a query at position q sees the key at position k in a layer of
 * this shape, as transformers' masks say (masking_utils.py):
 *   causal_mask_function                  k <= q
 *   sliding_window_overlay                k > q - window
 *   sliding_window_bidirectional_overlay  |q - k| <= window (a layer that
 *                                         is not causal)
 *   chunked_overlay                       k // chunk == q // chunk
 * (a chunked layer that is not causal: the chunk alone). */
bool pe_attn_sees(const struct pe_attn *t, size_t q, size_t k);

/* How many of the keys [k0, k1) query q sees (pe_attn_sees, counted in
 * closed form: the window's band and the chunk's block cut by the range).
 * formula: #{ k in [k0, k1) : pe_attn_sees(t, q, k) } */
size_t pe_attn_seen(const struct pe_attn *t, size_t q, size_t k0, size_t k1);

/* How many pairs of rows [r0, r1) x keys [c0, c1) are seen. Chunked:
 * in closed form (whole chunks inside both ranges count C (C + 1) / 2
 * causal or C^2, the few cut ones piece by piece), O(1); the other spans
 * row by row (the mask field sums those along diagonals instead).
 * formula: sum_{q in [r0, r1)} pe_attn_seen(t, q, c0, c1) */
uint64_t pe_attn_seen_rect(const struct pe_attn *t, size_t r0, size_t r1,
    size_t c0, size_t c1);

/* Rows q0 .. q0+nq-1 of the additive mask over nk keys into dest[nq nk]:
 * 0 where the query sees the key, -inf where it does not (what the model
 * adds to its scores). PE_OK, or PE_EINVAL for a NULL argument. */
int pe_attn_mask_rows(const struct pe_attn *t, size_t q0, size_t nq,
    size_t nk, double *dest);

/* The attention shape cfg's mask field and mask table use, and the toy
 * attention with its --mask (pe_toy_attn): cfg->attn, as much of it as
 * the encoding's row reads (PE_PARAM_SPAN, SINKS, TEMPERATURE, DECOUPLED:
 * the rest is full, none, off), causal when the encoding's row says so
 * (NoPE, ALiBi's causal mode), the layer is a decoder's (attn.causal) or
 * it has a window or chunks (HF's sliding_window_causal_mask_function and
 * chunked_causal_mask_function: a window is a decoder's) or sinks
 * (modeling_gpt_oss.py's eager_attention_forward: causal mask, then the
 * sink). */
void pe_config_attn(const struct pe_config *cfg, struct pe_attn *dest);

/* Llama 4's temperature of a query at position p (modeling_llama4.py,
 * Llama4TextAttention.forward, for a NoPE layer with
 * attn_temperature_tuning):
 *   attn_scales = log1p(floor((cache_position.float() + 1) / floor_scale))
 *                 * attn_scale + 1
 * the query is multiplied by it (the keys are not). The floor is taken of
 * float32 values as HF's are (position and position + 1 rounded to
 * float32, then the quotient), the logarithm and the rest in double; 1
 * when t has no temperature.
 * source: Nakanishi 2025, "Scalable-Softmax Is Superior for Attention"
 *         (arXiv 2501.19399), which the code cites. */
double pe_attn_temperature(const struct pe_attn *t, size_t p);

/* The factor of the scores: head_dim^-0.5 with head_dim = cfg->d (the
 * toy's 1/sqrt(d)), and with a decoupled head (qk_rope_dim) whose rope is
 * scaled and has mscale_all_dim, times mscale^2 as DeepSeek-V3 applies it
 * (modeling_deepseek_v3.py, DeepseekV3Attention.__init__):
 *   scaling = qk_head_dim ** -0.5
 *   if mscale_all_dim: mscale = yarn_get_mscale(factor, mscale_all_dim);
 *                      scaling *= mscale * mscale
 * yarn_get_mscale(s, m) = 0.1 m ln(s) + 1 for s > 1, else 1. Sets *mscale
 * (when not NULL) to that mscale (1 when none). */
double pe_attn_scale(const struct pe_config *cfg, double *mscale);

/* Each row of a [t, t] score matrix softmaxed with a sink logit beside the
 * keys, the sink's column then dropped (modeling_gpt_oss.py,
 * eager_attention_forward):
 *   combined = cat([scores, sink], -1); combined -= combined.max(-1)
 *   probs = softmax(combined); weights = probs[..., :-1]
 * so each row sums to 1 - share[i], share[i] the sink's part.
 * @param[in]  t       rows and columns
 * @param[in]  scores  [t, t], -inf where masked
 * @param[in]  sink    the head's sink logit (finite)
 * @param[out] dest    [t, t] (may be scores)
 * @param[out] share   [t] the sink's share of each row, or NULL
 * Returns PE_OK, or PE_EINVAL for t == 0, a NaN or +inf score or a sink
 * that is not finite. */
int pe_attn_softmax_sink(size_t t, const double *scores, double sink,
    double *dest, double *share);

#endif
