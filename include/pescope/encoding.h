/* One row per encoding (in the spirit of tmux's options-table.c): what the
 * kernel, the command line, dump and the views need to know of an
 * encoding, said once. The rows are one table (src/kernel/encoding.c),
 * indexed by enum pe_encoding; pe_encoding_def gives a row.
 *
 * A row says the encoding's name, which parameters of struct pe_config it
 * reads (the options that set them apply to it), its capabilities (a toy
 * attention, a worked example, heads, a shift matrix), how its position
 * enters attention, and its hooks: its own check, its count of positions,
 * its defaults of the shared parameters, the vector it adds or the rotation
 * it applies, and its part of the toy attention. Code elsewhere asks a row
 * what an encoding has, never which encoding it is. */
#ifndef PESCOPE_ENCODING_H
#define PESCOPE_ENCODING_H

#include "pescope.h"

struct pe_toy_sentence;

/* How an encoding's position enters attention. */
enum pe_enc_attention {
	PE_ATTN_NONE,	/* not at all (NoPE: only a causal mask sees order) */
	PE_ATTN_ADD,	/* a vector added to the token: x + PE(p) */
	PE_ATTN_ROTATE, /* queries and keys rotated by position: R_p x */
	PE_ATTN_BIAS,	/* a bias b(i, j) added to the scores */
};

/* The parameters of struct pe_config an encoding reads; an option that
 * sets one applies to the encodings whose row has its bit. */
enum pe_param {
	PE_PARAM_D_MODEL = 1u << 0,	 /* d */
	PE_PARAM_SEQ_LEN = 1u << 1,	 /* n (positions, when no hook says
					    otherwise) */
	PE_PARAM_BASE = 1u << 2,	 /* base */
	PE_PARAM_GRID = 1u << 3,	 /* grid_h, grid_w */
	PE_PARAM_LAYOUT = 1u << 4,	 /* layout */
	PE_PARAM_PAIRING = 1u << 5,	 /* pairing */
	PE_PARAM_ROPE_SCALING = 1u << 6, /* rope: the scaling, partial_rotary */
	PE_PARAM_HEADS = 1u << 7,	 /* heads */
	PE_PARAM_ALIBI_MODE = 1u << 8,	 /* alibi_mode */
	PE_PARAM_RELATIVE = 1u << 9,	 /* relative, buckets, max_distance,
					    bidirectional, max_relative */
	PE_PARAM_TABLE = 1u << 10,	 /* max_len, table, table_untrained */
	PE_PARAM_MROPE = 1u << 11,	 /* mrope */
	PE_PARAM_XPOS = 1u << 12,	 /* xpos */
	PE_PARAM_ROPE2D = 1u << 13,	 /* rope2d (kind, freqs, layer) */
	PE_PARAM_BIAS = 1u << 14,	 /* teach.bias: a learned score bias
					    the toy attention reads */
	PE_PARAM_SPAN = 1u << 15,	 /* attn.span, window, chunk: which
					    keys a query sees (attn.h) */
	PE_PARAM_SINKS = 1u << 16,	 /* attn.sinks: a sink logit a head */
	PE_PARAM_TEMPERATURE = 1u << 17, /* attn.temperature, floor_scale,
					    attn_scale: Llama 4's NoPE
					    layers' query scale */
	PE_PARAM_DECOUPLED = 1u << 18,	 /* attn.qk_rope_dim, qk_nope_dim:
					    DeepSeek's decoupled head */
};

/* What an encoding has besides its tables. */
enum pe_enc_cap {
	PE_CAP_TOY = 1u << 0,	  /* the toy attention over a sentence
				     (toy.h); needs its row's `toy` */
	PE_CAP_EXAMPLE = 1u << 1, /* the worked example (example.h): x +
				     PE(p) (PE_ATTN_ADD, `vector`) or R_p x
				     (PE_ATTN_ROTATE, `rotate`) */
	PE_CAP_HEADS = 1u << 2,	  /* one head of several is shown (--head):
				     `heads` says how many */
	PE_CAP_SHIFT = 1u << 3,	  /* PE(p + K) = M_K PE(p) for a fixed
				     matrix M_K (sinusoidal.h) */
	PE_CAP_ROPE = 1u << 4,	  /* its rotation's pairs are rope.h's:
				     pe_rope_init takes its config (d, base,
				     pairing, the scaling in cfg->rope) */
};

/* An encoding's part of the toy attention (toy.h): scores are
 * q_i . q_j / sqrt(d) + b(i, j), with q_i = x_i + PE(i) (PE_ATTN_ADD, the
 * row's `vector`), R_i x_i (PE_ATTN_ROTATE, `rotate`) or x_i. */
struct pe_toy_rule {
	/* PE_OK, or PE_EINVAL and a sentence naming the option in why[cap]
	 * when the toy cannot be computed for cfg, sentence s and head
	 * (after the shared checks of pe_toy_check); NULL: nothing to
	 * refuse. */
	int (*check)(const struct pe_config *cfg,
	    const struct pe_toy_sentence *s, size_t head, char *why,
	    size_t cap);
	/* Add b(i, j) of head to scores[t, t] (row i the query); NULL: no
	 * bias. Called after check passed. */
	int (*bias)(const struct pe_config *cfg, size_t head, size_t t,
	    double *scores);
	/* The bias is a learned table the user supplies (teach.bias,
	 * --bias-file): PE_OK when teach.bias is NULL or has the shape cfg
	 * needs, else PE_EINVAL and why (pe_teach_check asks it); without a
	 * bias the panel shows what indexes it. NULL: not a learned bias. */
	int (*check_bias)(const struct pe_config *cfg, char *why, size_t cap);
	/* The bias's term in the panel's title: " + bias"; NULL: none. */
	const char *term;
};

/* One encoding. */
struct pe_encoding_def {
	const char *name;		   /* "rope": -e's value, the tab */
	unsigned params;		   /* enum pe_param bits */
	unsigned caps;			   /* enum pe_enc_cap bits */
	enum pe_enc_attention attention;   /* how its position enters */
	/* Its own rules, after the shared ones (d_model, seq_len and base
	 * in range): PE_OK, or PE_EINVAL with a sentence that starts with
	 * the parameter's config name in why[cap]; NULL: none. */
	int (*check)(const struct pe_config *cfg, char *why, size_t cap);
	/* Its count of positions; NULL: seq_len. */
	size_t (*positions)(const struct pe_config *cfg);
	/* Its defaults of the shared parameters that were not given (the
	 * command line) or are still at the old encoding's (a tab switch);
	 * NULL: pe_config_default's. */
	void (*defaults)(struct pe_config *cfg, bool d_given,
	    bool base_given);
	/* How many heads --head picks from (PE_CAP_HEADS, and the toy's
	 * bias rows); NULL: cfg->heads. */
	size_t (*heads)(const struct pe_config *cfg);
	/* Whether the toy attention is causal when --mask is left to its
	 * default; NULL: not causal. */
	bool (*causal)(const struct pe_config *cfg);
	/* The variant beside the name in messages ("t5"); NULL: none. */
	const char *(*variant)(const struct pe_config *cfg);
	/* The frequency w_j of each of its pairs (sinusoidal: its layout's;
	 * rope: inv_freq, scaled) into dest (NULL: only count them); the
	 * count. NULL: no pairs. */
	size_t (*freqs)(const struct pe_config *cfg, double *dest);
	/* PE_ATTN_ADD: rows p0 .. p0+npos-1 of PE [npos, d] into dest;
	 * PE_ERANGE (those rows NaN) when a position has no vector (past a
	 * learned table); NULL: no vector. */
	int (*vector)(const struct pe_config *cfg, size_t p0, size_t npos,
	    double *dest);
	/* PE_ATTN_ROTATE: R_p x for p = p0 .. p0+npos-1, x row k at
	 * x + k * stride (stride 0: one x for every row), into dest
	 * [npos, d] (may not alias x); NULL: no rotation. */
	int (*rotate)(const struct pe_config *cfg, size_t p0, size_t npos,
	    const double *x, size_t stride, double *dest);
	/* Make what cfg needs and does not have (learned: the untrained
	 * table when cfg->table is NULL) into *owned, set in cfg, which the
	 * caller frees; owned NULL: only say whether it could. PE_OK,
	 * PE_ERANGE (too large) or PE_ENOMEM, with a sentence in why[cap];
	 * NULL: nothing to make. */
	int (*prepare)(struct pe_config *cfg, double **owned, char *why,
	    size_t cap);
	/* Its part of the toy attention (PE_CAP_TOY); NULL: none. */
	const struct pe_toy_rule *toy;
	/* Its parameters in a few words into dest[cap] (a model's layer,
	 * pe_layer_describe: "ALiBi 8 heads", "base 10000 · yarn ×4"),
	 * NUL-terminated when cap > 0; the length it needed (as snprintf).
	 * NULL: its name says it. */
	int (*describe)(const struct pe_config *cfg, char *dest, size_t cap);
};

/* The row of encoding enc, or NULL when enc is not one. */
const struct pe_encoding_def *pe_encoding_def(enum pe_encoding enc);

/* The row of cfg's encoding (cfg->enc must be one). */
const struct pe_encoding_def *pe_config_def(const struct pe_config *cfg);

/* The encodings whose rows have every capability in caps, as a mask of
 * 1u << enum pe_encoding (caps 0: every encoding).
 * formula: sum over e with (def(e).caps & caps) == caps of 1 << e */
unsigned pe_encodings_with(unsigned caps);

/* The encodings whose rows read any parameter in params, as a mask of
 * 1u << enum pe_encoding.
 * formula: sum over e with def(e).params & params of 1 << e */
unsigned pe_encodings_taking(unsigned params);

/* How many heads --head picks from for cfg (its row's `heads`). */
size_t pe_config_heads(const struct pe_config *cfg);

/* cfg's pair frequencies into dest (NULL: only count them), the count;
 * 0 when its row has none (its `freqs`). */
size_t pe_config_freqs(const struct pe_config *cfg, double *dest);

/* Make what cfg needs and does not have (its row's `prepare`: learned's
 * untrained table) into *owned (NULL when nothing was made; the caller
 * frees it after the last use of cfg), or with owned NULL only check that
 * it can be made. PE_OK, or PE_ERANGE / PE_ENOMEM with why[cap]. */
int pe_config_prepare(struct pe_config *cfg, double **owned, char *why,
    size_t cap);

#endif
