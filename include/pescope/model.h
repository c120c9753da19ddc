/* A model as its layers: what a checkpoint's config says each layer does
 * with positions. Each layer is an encoding configuration (struct
 * pe_config, what the kernel's tables and fields take) plus its attention
 * shape (struct pe_attn: does it rotate, which keys a query sees, which
 * dimensions turn). The config reader (src/io/hfconfig.c) fills one from a
 * Hugging Face config.json; the kernel here only holds, checks, groups and
 * describes it. Pure: no I/O. */
#ifndef PESCOPE_MODEL_H
#define PESCOPE_MODEL_H

#include "pescope.h"

/* Longest layer type name kept, NUL included. */
#define PE_LAYER_TYPE_MAX 32

/* One layer. */
struct pe_layer {
	char type[PE_LAYER_TYPE_MAX]; /* the config's name for its kind:
					 layer_types' entry
					 ("sliding_attention", ...), or the
					 stack ("encoder", "decoder") */
	struct pe_config cfg;	      /* its positions and attention shape
					 (cfg.attn), as the kernel takes
					 them; list pointers point into the
					 model's own buffers */
};

/* Longest texts of a note, NUL included. */
#define PE_NOTE_KEY_MAX 96
#define PE_NOTE_VALUE_MAX 64
#define PE_NOTE_WHY_MAX 112

/* A key that changes positions but that pescope does not model: said, not
 * dropped. */
struct pe_model_note {
	char key[PE_NOTE_KEY_MAX];     /* its path in the config, e.g.
					  "rope_parameters.full_attention
					  .rope_type" */
	char value[PE_NOTE_VALUE_MAX]; /* its value as written (shortened) */
	char why[PE_NOTE_WHY_MAX];     /* what it does that is not shown */
};

/* A model: its layers and what could not be shown. Owns every buffer
 * (pe_arch_free). */
struct pe_arch {
	char model_type[48];	  /* the config's model_type (of its
				     text_config when it has one) */
	char *description;	  /* one line, or NULL */
	char *source;		  /* where the values come from, or NULL */
	size_t nlayers;
	struct pe_layer *layers;  /* [nlayers] */
	size_t max_pos;		  /* positions the config allows
				     (max_position_embeddings, n_positions,
				     ...); 0: the config says none */
	size_t train_len;	  /* the trained context (the original one
				     when scaled); 0: unknown */
	size_t nnotes;
	struct pe_model_note *notes; /* [nnotes] */
	double **lists;		  /* [nlists]: the factor lists layers point
				     into */
	size_t nlists;
};

/* An empty model (no layers). */
void pe_arch_init(struct pe_arch *a);

/* Release everything a model owns; leaves it empty. */
void pe_arch_free(struct pe_arch *a);

/* Give a model n layers, each with pe_config_default's config and a full
 * causal attention that does not rotate. PE_ENOMEM, or PE_EINVAL for n 0
 * or above PE_MAX_LAYERS. */
#define PE_MAX_LAYERS ((size_t)4096)
int pe_arch_set_layers(struct pe_arch *a, size_t n);

/* A new list of count doubles that the model owns (layers point at it;
 * pe_arch_free frees it), or NULL when out of memory or count is 0. */
double *pe_arch_lists(struct pe_arch *a, size_t count);

/* Note a key pescope does not model (key, value and why are shortened to
 * fit, after a whole character; a control character, C0, DEL or C1, and a
 * byte that is not UTF-8 are kept as \xNN, so a note never carries an
 * escape sequence). A note already there (same key) is not repeated.
 * PE_OK or PE_ENOMEM. */
int pe_arch_note(struct pe_arch *a, const char *key, const char *value,
    const char *why);

/* Check every layer's config (pe_config_check) and shape: PE_EINVAL with
 * "layer L (TYPE): <the config's sentence>" in why[cap], or PE_OK. */
int pe_arch_check(const struct pe_arch *a, char *why, size_t cap);

/* Whether two layers do the same with positions (same type, rotation,
 * span, window, chunk, encoding and parameters): the model view groups
 * them as one kind. */
bool pe_layer_same_kind(const struct pe_layer *x, const struct pe_layer *y);

/* Group the layers into kinds, in the order each kind first appears:
 * kind_of[i] is layer i's kind (0 ..), for every layer. Returns the number
 * of kinds. */
size_t pe_arch_kinds(const struct pe_arch *a, size_t *kind_of);

/* A layer's kind in a few words into dest[cap], e.g. "sliding 1024 · base
 * 10000", "NoPE · full", "chunked 8192 · base 500000 · llama3 ×8"; always
 * NUL-terminated. Returns the length it needed (as snprintf). */
int pe_layer_describe(const struct pe_layer *l, char *dest, size_t cap);

/* A layer's RoPE wavelengths against what its queries see. */
struct pe_layer_bands {
	size_t pairs;	     /* rotating pairs (0: the layer does not rotate) */
	double shortest;     /* the shortest and longest wavelength */
	double longest;	     /*   2 pi / w_j, in positions, after scaling */
	size_t reach;	     /* the keys a query sees: the window, the chunk,
				or (full attention) the config's n */
	size_t turn_in_reach; /* pairs whose wavelength fits in reach */
	size_t turn_in_train; /* pairs whose wavelength fits in train_len */
};

/* The bands of layer l (its rope built as pe_rope_init builds it):
 * formula: lambda_j = 2 pi / w_j; turn_in_X = #{ j : lambda_j <= X }
 * source: Peng et al. 2023 (YaRN), sec. 3.2 (r = L / lambda_j: a pair
 * with r < 1 never turns within L). A layer that does not rotate (or is
 * not exact) has pairs 0 and the rest 0; PE_OK, PE_ENOMEM, or PE_EINVAL
 * for a rope pe_rope_init refuses. */
int pe_layer_bands(const struct pe_layer *l, size_t train_len,
    struct pe_layer_bands *dest);

/* The layers of kind k as ranges, "0-4, 6-10, 12", into dest[cap]
 * (always terminated, shortened with "..." when it does not fit);
 * kind_of from pe_arch_kinds. Returns how many layers are of kind k. */
size_t pe_arch_kind_ranges(const struct pe_arch *a, const size_t *kind_of,
    size_t k, char *dest, size_t cap);

#endif
