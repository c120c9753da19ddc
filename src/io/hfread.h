/* Private to the config reader (hfconfig.c, hfjson.c, hfrope.c,
 * hfother.c): the model families, a reading in progress and the key
 * readers every part uses. */
#ifndef PESCOPE_IO_HFREAD_H
#define PESCOPE_IO_HFREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "pescope/model.h"

/* Room for a key path in messages. */
#define KEYLEN 256

/* What kind of positions a model family has. */
enum fam_kind {
	FAM_ROPE,     /* RoPE in its attention layers */
	FAM_MROPE,    /* Qwen2-VL's multimodal RoPE */
	FAM_LEARNED,  /* a learned table added at the input */
	FAM_T5,	      /* T5's relative buckets */
	FAM_ALIBI,    /* ALiBi's biases */
	FAM_FALCON,   /* ALiBi or RoPE, by the `alibi` key */
	FAM_VIT2D,    /* MAE's fixed 2-D sin-cos table */
	FAM_ROPE2D,   /* RoPE-ViT's axial or mixed 2-D RoPE */
};

/* How a family's layer_types default when the config has none. */
enum layer_rule {
	RULE_FULL,	/* every layer full attention */
	RULE_WINDOW,	/* every layer sliding when sliding_window is set
			   (Mistral, Phi-3: one window for all layers) */
	RULE_ALTERNATE, /* sliding, full, sliding, ... (Gemma 2, GPT-OSS) */
	RULE_PATTERN,	/* full every sliding_window_pattern-th (Gemma 3) */
	RULE_QWEN,	/* sliding from max_window_layers on, when
			   use_sliding_window (Qwen2, Qwen3) */
	RULE_NOROPE,	/* layers from no_rope_layers (Llama 4, SmolLM3) */
};

/* Model-specific reading. */
enum {
	F_NOROPE = 1 << 0,     /* no_rope_layers / no_rope_layer_interval */
	F_GEMMA3 = 1 << 1,     /* rope_local_base_freq, per-type defaults */
	F_MLA = 1 << 2,	       /* DeepSeek's decoupled qk_rope_head_dim */
	F_PRESCALE = 1 << 3,   /* Gemma's query_pre_attn_scalar */
	F_ORIGINAL = 1 << 4,   /* a top-level original_max_position_
				  embeddings by default (Phi-3: 4096) */
	F_NEOX = 1 << 5,       /* rotary_pct, rotary_emb_base */
	F_GPTJ = 1 << 6,       /* n_embd, n_head, n_layer, rotary_dim */
	F_LLAMA4 = 1 << 7,     /* chunked rope layers, temperature */
	F_SMOL = 1 << 8,       /* sliding NoPE layers */
	F_INTERLEAVE = 1 << 9, /* rope_interleave (DeepSeek-V3), default on */
	F_SU = 1 << 10,	       /* Phi-3's early rope type "su" */
};

/* One model family: its model_type and how its keys are read. */
struct family {
	const char *model_type;
	const char *file; /* the transformers file that reads its keys */
	enum fam_kind kind;
	double theta;	  /* the config class's default_theta */
	enum pe_pairing pairing;
	enum layer_rule rule;
	unsigned flags;
};

/* A reading in progress. */
struct reader {
	const char *file;	   /* for messages */
	json_t *root;		   /* the whole config */
	json_t *text;		   /* its language model (root or
				      text_config) */
	const char *pre;	   /* key prefix of text: "" or
				      "text_config." */
	const struct family *fam;
	struct pe_arch *arch;
	char *err;
	size_t cap;
	size_t head_dim;	   /* of a query head */
	size_t heads;		   /* num_attention_heads; 0: not given */
	size_t max_pos;		   /* max_position_embeddings; 0: none */
};

/* Why the reading failed: "FILE: " and the sentence into err; returns
 * PE_EFORMAT (hfjson.c). */
int hfjson_fail(struct reader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "PATH: must be WHAT, got VALUE" (hfjson_fail). */
int hfjson_fail_value(struct reader *r, const char *path, const char *what,
    const json_t *v);
/* v as compact JSON, shortened to about 40 bytes, into dest[cap]. */
void hfjson_value_text(const json_t *v, char *dest, size_t cap);
/* obj[key], or NULL when absent or null (Python's `.get(key)` is
 * None). */
json_t *hfjson_get(const json_t *obj, const char *key);
/* Typed keys of obj, named PRE KEY in messages: PE_OK with *dest set (and
 * *given true, when given is not NULL), PE_OK with *given false when
 * absent, or the refusal (PE_EFORMAT) naming the key, its range and its
 * value. */
int hfjson_number(struct reader *r, const json_t *obj, const char *pre,
    const char *key, double lo, bool lo_open, double hi, const char *what,
    double *dest, bool *given);
int hfjson_size(struct reader *r, const json_t *obj, const char *pre,
    const char *key, size_t lo, size_t hi, size_t *dest, bool *given);
int hfjson_bool(struct reader *r, const json_t *obj, const char *pre,
    const char *key, bool *dest);
int hfjson_string(struct reader *r, const json_t *obj, const char *pre,
    const char *key, const char **dest);
/* Whether s is a name (a layer type): 1 to max - 1 printable ASCII
 * characters, no space. */
bool hfjson_name(const char *s, size_t max);
/* Whether s is text a person reads (description, source): no control
 * character (C0 but tab, DEL, C1). */
bool hfjson_text(const char *s);
/* Note the unmodelled key PRE KEY of value v (NULL: none) and why. */
int hfjson_note(struct reader *r, const char *pre, const char *key,
    const json_t *v, const char *why);

/* The head dimension into r->head_dim (hfrope.c). */
int hfrope_head_dim(struct reader *r);
/* The n layers of a RoPE or M-RoPE model (hfrope.c). */
int hfrope_read(struct reader *r, size_t n);
/* The n layers of a model without RoPE (hfother.c). */
int hfother_read(struct reader *r, size_t n);

#endif
