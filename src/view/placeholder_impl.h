/* The placeholders' table (placeholder.c: what each one quotes from the
 * kernel) and what its reader (placeholder_text.c: checking, listing and
 * filling captions) shares with it. Private to the view layer. */
#ifndef PESCOPE_VIEW_PLACEHOLDER_IMPL_H
#define PESCOPE_VIEW_PLACEHOLDER_IMPL_H

#include <stddef.h>

#include "pescope/encoding.h"
#include "view/view_impl.h"

/* What a placeholder's fill gets: the frame's state and model, and its
 * arguments. */
struct fillctx {
	const struct pe_state *st;
	const struct pe_model *m;
	const struct pe_config *cfg;
	long long a[2]; /* arguments; defaults from the cursor */
	size_t na;	/* how many were given */
	int part;	/* the row's part */
};

typedef int (*fill_fn)(const struct fillctx *f, char *buf, size_t cap);

/* What a placeholder needs of an encoding's kernel row (pescope/
 * encoding.h), as a bit above the encodings' own (E). */
enum need {
	N_EXAMPLE,  /* the worked example's x (PE_CAP_EXAMPLE) */
	N_ADDED,    /* ... and a vector added to it (PE_ATTN_ADD) */
	N_ROTATED,  /* ... and a rotation of it (PE_ATTN_ROTATE) */
	N_PAIRS,    /* pair frequencies (the row's freqs) */
	N_SHIFT,    /* the shift matrix M_K (PE_CAP_SHIFT) */
	N_TOY,	    /* a toy attention (PE_CAP_TOY) */
	N_TABLE,    /* a learned table (PE_PARAM_TABLE) */
	N_RELATIVE, /* relative's parameters (PE_PARAM_RELATIVE) */
	N_SCALING,  /* a rope scaling (PE_PARAM_ROPE_SCALING) */
	N_SPAN,	    /* a window or chunks (PE_PARAM_SPAN) */
	N_SINKS,    /* a sink logit a head (PE_PARAM_SINKS) */
	N_TEMPERATURE, /* Llama 4's temperature (PE_PARAM_TEMPERATURE) */
	N_DECOUPLED, /* a decoupled head (PE_PARAM_DECOUPLED) */
};
#define E(x) (1u << PE_ENC_##x)
#define NEED(x) (1u << (16 + N_##x))
#define ALL 0u
_Static_assert(PE_ENC_COUNT <= 16, "encodings and needs share a mask");

/* A placeholder: {name} or {name:args}. */
struct placeholder {
	const char *name;
	const char *args;  /* "" none, "P" one optional, "P,Q" two */
	unsigned encs;	   /* the encodings it applies to: ALL, every one;
			      its E() bits, and those whose row has what its
			      NEED() bits say (what no row says is named) */
	const char *what;
	fill_fn fill;	   /* NULL: the config's size_t at field - 1 */
	size_t field;
	int part;	   /* which of its fill's quantities (a fill that
			      quotes several: fill_norm's |x|, |x + PE(P)|,
			      ...); 0 for the others */
};

/* Every placeholder a caption may use (placeholder.c). */
extern const struct placeholder pe_placeholders[];
extern const size_t pe_nplaceholders;

#endif
