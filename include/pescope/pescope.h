/* pescope: the kernel's shared vocabulary.
 *
 * Everything the kernel computes is described by one struct pe_config: the
 * encoding, its sizes and its own parameters. The kernel is pure math: no
 * I/O, no exit, no curses; every function that can fail returns a PE_*
 * status and writes into buffers its caller owns. */
#ifndef PESCOPE_PESCOPE_H
#define PESCOPE_PESCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attn.h"

/* PESCOPE_VERSION is meson.build's project version, given to the
 * compiler by the build. */
#ifndef PESCOPE_VERSION
#error "PESCOPE_VERSION comes from meson.build (-DPESCOPE_VERSION=...)"
#endif

/* 2 pi, once for every layer (angles are formed in double). */
#define PE_TWO_PI 6.283185307179586476925286766559

/* Status codes. Zero is success; every failure is negative. */
enum pe_status {
	PE_OK = 0,
	PE_EINVAL = -1,	 /* a parameter is out of its valid range */
	PE_ENOMEM = -2,	 /* allocation failed */
	PE_ERANGE = -3,	 /* an index is past the encoding's limit */
	PE_EFORMAT = -4, /* malformed input data (NPY, factor list) */
	PE_EIO = -5,	 /* read or write failed (io layer only) */
	PE_EINTR = -6,	 /* stopped early by the interrupt check (field.h) */
};

/* Human-readable name of a status code. */
const char *pe_strerror(int status);

enum pe_encoding {
	PE_ENC_SINUSOIDAL,
	PE_ENC_LEARNED,
	PE_ENC_RELATIVE,
	PE_ENC_ROPE,
	PE_ENC_ALIBI,
	PE_ENC_NOPE,
	PE_ENC_VIT2D,
	PE_ENC_MROPE, /* Qwen2-VL's multimodal rope (mrope.h) */
	PE_ENC_XPOS,  /* xPos, Sun et al. 2022 (xpos.h) */
	PE_ENC_ROPE2D, /* RoPE-ViT's 2-D rope for patches (rope2d.h) */
	PE_ENC_COUNT
};

/* Sinusoidal column layout (and, for t2t, frequencies). */
enum pe_layout {
	PE_LAYOUT_INTERLEAVED, /* sin, cos, sin, cos ... (the paper, PyTorch) */
	PE_LAYOUT_SPLIT,       /* the paper's frequencies, all sines then all
				  cosines (GPT-J's create_sinusoidal_positions) */
	PE_LAYOUT_T2T,	       /* tensor2tensor's get_timing_signal_1d (and
				  fairseq): base^(-i/(d/2-1)), sines, cosines */
};

/* RoPE pairing of dimensions. */
enum pe_pairing {
	PE_PAIR_HALF,	     /* HF/NeoX rotate_half: dim j with j + d/2 */
	PE_PAIR_INTERLEAVED, /* GPT-J/RoFormer: dim 2j with 2j + 1 */
};

enum pe_alibi_mode {
	PE_ALIBI_CAUSAL,    /* -m (i - j) for j <= i, -inf above */
	PE_ALIBI_SYMMETRIC, /* -m |i - j| */
};

enum pe_relative_kind {
	PE_REL_T5,   /* T5 buckets (Raffel et al. 2020) */
	PE_REL_SHAW, /* Shaw et al. 2018 clipped distances */
};

/* rope_type, with Hugging Face transformers' names. */
enum pe_rope_type {
	PE_ROPE_DEFAULT,
	PE_ROPE_LINEAR,
	PE_ROPE_DYNAMIC,
	PE_ROPE_YARN,
	PE_ROPE_LONGROPE,
	PE_ROPE_LLAMA3,
	PE_ROPE_TYPE_COUNT
};

/* Parameters of rope scaling, named as in HF's rope_scaling dict.
 * NAN means "not given" where HF's default depends on other fields. */
struct pe_rope_scaling {
	enum pe_rope_type type;
	double factor;		  /* linear, dynamic, yarn, longrope, llama3 */
	bool factor_given;	  /* longrope: --factor given (else HF's Phi-3
				     path: max_pos / original_max_pos) */
	size_t original_max_pos;  /* original_max_position_embeddings */
	size_t max_pos;		  /* max_position_embeddings (dynamic, longrope) */
	double beta_fast;	  /* yarn, default 32; 0 = unset (HF `or 32`) */
	double beta_slow;	  /* yarn, default 1; 0 = unset (HF `or 1`) */
	double mscale;		  /* yarn, NAN or 0 = unset */
	double mscale_all_dim;	  /* yarn, NAN or 0 = unset */
	double attention_factor;  /* yarn, longrope; NAN = derive */
	bool truncate;		  /* yarn, default true */
	double low_freq_factor;	  /* llama3, default 1 */
	double high_freq_factor;  /* llama3, default 4 */
	const double *short_factor; /* longrope, rotary_dim/2 entries */
	const double *long_factor;  /* longrope, rotary_dim/2 entries */
	size_t n_short, n_long;	    /* lengths of the two lists */
	double partial_rotary;	    /* fraction of dims that rotate, (0, 1] */
};

/* Which pairs M-RoPE's sections take (mrope.h). */
enum pe_mrope_layout {
	PE_MROPE_CONTIGUOUS, /* Qwen2-VL, Qwen2.5-VL: t's pairs first, then
				h's, then w's */
	PE_MROPE_INTERLEAVED, /* Qwen3-VL's apply_interleaved_mrope: t, h, w,
				 t, h, w, ... then t */
	PE_MROPE_LAYOUT_COUNT
};

/* Qwen2-VL's multimodal rope: the token sequence (text, an image or a
 * video, text) and the pairs each position component turns (mrope.h). */
struct pe_mrope {
	size_t text_before;	 /* text tokens before the image */
	size_t frames;		 /* HF's llm_grid_t: 1 an image, more a video */
	size_t text_after;	 /* text tokens after it */
	size_t mrope_section[3]; /* pairs turned by t, h and w; all 0:
				    Qwen2-VL's 16,24,24 of 64 scaled to d/2 */
	enum pe_mrope_layout layout; /* which pairs each section takes */
	double tokens_per_second; /* Qwen2.5-VL's vision_config.
				     tokens_per_second: a frame's temporal id
				     follows time; 0: Qwen2-VL's step of 1 */
	double seconds_per_frame; /* Qwen2.5-VL's second_per_grid_t (a
				     frame of the merged grid); 1 */
};

/* xPos's scale (xpos.h, torchscale's XPOS). */
struct pe_xpos {
	double xpos_scale_base; /* torchscale's scale_base (gamma); 512 */
	size_t xpos_offset;	/* XPOS.forward's offset for the queries; 0 */
};

/* RoPE-ViT's two 2-D ropes (rope2d.h). */
enum pe_rope2d_kind {
	PE_ROPE2D_AXIAL, /* compute_axial_cis: half the pairs turn with x,
			    half with y */
	PE_ROPE2D_MIXED, /* compute_mixed_cis: every pair with x fx + y fy */
};

struct pe_rope2d {
	enum pe_rope2d_kind kind;
	const double *freqs;	/* mixed: learned frequencies [2, freqs_rows,
				   freqs_cols]: [2, heads, d/2], or the
				   reference's [2, depth, heads d/2]; NULL:
				   init_random_2d_freqs after
				   torch.manual_seed(0) */
	size_t freqs_rows, freqs_cols;
	size_t head;		/* mixed: the head shown */
	size_t layer;		/* mixed: the block shown ([2, depth, ...]) */
};

/* The toy attention's mask (--mask). */
enum pe_toy_mask {
	PE_TOY_MASK_AUTO,   /* causal for nope and for alibi's causal mode,
			       none otherwise */
	PE_TOY_MASK_CAUSAL, /* a key after the query gets -inf */
	PE_TOY_MASK_NONE,   /* every key is seen */
};

/* Inputs of the teaching panels and tables (toy.h, example.h,
 * the shift, decay and training-length helpers). They change none of an
 * encoding's own tables. The buffers belong to the caller (the options). */
struct pe_teach {
	const char *tokens;	  /* the toy sentence, words split on white
				     space; NULL: PE_TOY_SENTENCE (toy.h) */
	const size_t *permute;	  /* [n_permute]: token i of the permuted
				     sentence is token permute[i]; NULL: none */
	size_t n_permute;
	enum pe_toy_mask mask;
	const double *bias;	  /* relative: the learned bias, row-major
				     [bias_heads, bias_len]; NULL: none */
	size_t bias_heads, bias_len;
	const double *embedding;  /* the worked example's x [n_embedding];
				     NULL: none */
	size_t n_embedding;
	int64_t shift;		  /* K of PE(p + K) = M_K PE(p); 1 */
	size_t train_len;	  /* the model's training context; 0: unknown */
	bool train_scaled;	  /* train_len is the scaled context: a
				     config's linear scaling, whose
				     max_position_embeddings it is */
};

struct pe_trainer; /* train.h */

/* Everything that determines an encoding's numbers. */
struct pe_config {
	enum pe_encoding enc;
	size_t d;    /* d_model (rope: the head dimension) */
	size_t n;    /* sequence length */
	double base; /* sinusoidal / rope base theta, default 10000 */
	enum pe_layout layout;
	enum pe_pairing pairing;
	size_t heads; /* alibi */
	enum pe_alibi_mode alibi_mode;
	enum pe_relative_kind relative;
	size_t buckets;	     /* t5 num_buckets, default 32 */
	size_t max_distance; /* t5, default 128 */
	bool bidirectional;  /* t5, default true */
	size_t max_relative; /* shaw K, default 16 */
	size_t grid_h, grid_w; /* vit2d's and rope2d's patch grid; mrope's
				  image (HF's llm_grid_h, llm_grid_w) */
	size_t max_len;	       /* learned: rows in the table */
	const double *table;   /* learned: [max_len, d], row-major, in double
				  (an f8 table's own values); NULL = none yet */
	bool table_untrained;  /* learned: table is the N(0, 0.02^2) init */
	struct pe_trainer *trainer; /* learned: the training run (train.h)
				  whose position table `table` is (max_len
				  = n), or NULL; the TUI trains it between
				  frames, the views only read it */
	struct pe_rope_scaling rope;
	struct pe_mrope mrope;
	struct pe_xpos xpos;
	struct pe_rope2d rope2d;
	struct pe_teach teach;
	struct pe_attn attn; /* the attention shape (attn.h): span, sinks,
				temperature, decoupled dims */
};

/* Fill *cfg with the defaults (sinusoidal, d 64, n 64, base 10000, ...). */
void pe_config_default(struct pe_config *cfg);

/* The encoding's own defaults of the shared parameters the command line
 * did not give (its row in config.c; the encodings without one keep
 * pe_config_default's). */
void pe_config_encoding_defaults(struct pe_config *cfg, bool d_given,
    bool base_given);

/* Positions an encoding's tables have: seq_len, or its own count (vit2d,
 * rope2d: grid_h x grid_w patches; mrope: its tokens). */
size_t pe_config_positions(const struct pe_config *cfg);

/* Limits on sizes, so that every index and byte count fits comfortably. */
#define PE_MAX_D ((size_t)1 << 20)	/* d_model */
#define PE_MAX_N ((size_t)1 << 30)	/* seq_len */
#define PE_MAX_HEADS ((size_t)4096)
#define PE_MAX_GRID ((size_t)4096)	/* vit2d grid side */
/* The largest Euclidean norm of a vector given as data (a learned table's
 * row, the worked example's x): dot products of sums of up to PE_MAX_N
 * such vectors stay below 1.2e146, far from overflow (DBL_MAX is 1.8e308),
 * and so do their squares. A trained table's rows have norms of a few
 * units. */
#define PE_MAX_NORM 1e64

/* Check a config for consistency. On failure returns PE_EINVAL and writes
 * into why[cap] a sentence that starts with the parameter and its value,
 * by its name in struct pe_config (the command line maps it to its flag),
 * then says what is allowed, e.g. "d_model 63: rope needs an even d_model
 * (each pair rotates two dimensions)". */
int pe_config_check(const struct pe_config *cfg, char *why, size_t cap);

/* Check the teaching inputs (cfg->teach) against the rest of cfg: the
 * sentence has 1..PE_TOY_MAX_TOKENS words, --permute is a permutation of
 * its token indices, --embedding has d numbers, and a relative bias file
 * has the shape the relative kind needs (--shift's range, -n < K < n, is
 * the option's: M_K exists for every K). Separate from
 * pe_config_check, so that a TUI key that changes d or n is not refused
 * for a panel's sake: a panel checks its own inputs (pe_toy_check).
 * PE_EINVAL with a sentence naming the option in why[cap], or PE_OK. */
int pe_teach_check(const struct pe_config *cfg, char *why, size_t cap);

/* Lower-case name of an encoding ("rope"), and the reverse (-1 if unknown);
 * the names are the encodings' rows (encoding.h). HF's rope_type name. */
const char *pe_encoding_name(enum pe_encoding enc);
int pe_encoding_parse(const char *name);
const char *pe_rope_type_name(enum pe_rope_type t);

#endif
