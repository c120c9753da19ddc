/* The encodings: one row each (pescope/encoding.h), in tab order, and what
 * derives from the rows: names, the full check, positions and defaults.
 * The hooks live in their encodings' files (kernel/encoding_impl.h). */
#include <string.h>

#include "pescope/encoding.h"
#include "pescope/mrope.h"
#include "pescope/rope2d.h"
#include "pescope/xpos.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"

/* vit2d, rope2d: one position per patch. */
static size_t
grid_patches(const struct pe_config *cfg)
{
	return cfg->grid_h * cfg->grid_w;
}

/* Each encoding's part of the toy attention (toy.h). */
static const struct pe_toy_rule toy_plain = {NULL, NULL, NULL, NULL};
static const struct pe_toy_rule toy_learned = {pe_learned_toy_check, NULL,
	NULL, NULL};
static const struct pe_toy_rule toy_relative = {pe_relative_toy_check,
	pe_relative_toy_bias, pe_relative_bias_check, " + b"};
static const struct pe_toy_rule toy_alibi = {pe_alibi_toy_check,
	pe_alibi_toy_bias, NULL, " + bias"};

#define P_(x) PE_PARAM_##x
#define C_(x) PE_CAP_##x

static const struct pe_encoding_def defs[PE_ENC_COUNT] = {
	[PE_ENC_SINUSOIDAL] = {
		.name = "sinusoidal",
		.params = P_(D_MODEL) | P_(SEQ_LEN) | P_(BASE) | P_(LAYOUT),
		.caps = C_(TOY) | C_(EXAMPLE) | C_(SHIFT),
		.attention = PE_ATTN_ADD,
		.check = pe_sinusoidal_check,
		.freqs = pe_sinusoidal_freqs,
		.vector = pe_sinusoidal_vector,
		.toy = &toy_plain,
	},
	[PE_ENC_LEARNED] = {
		.name = "learned",
		.params = P_(D_MODEL) | P_(SEQ_LEN) | P_(TABLE),
		.caps = C_(TOY) | C_(EXAMPLE),
		.attention = PE_ATTN_ADD,
		.check = pe_learned_check,
		.vector = pe_learned_vector,
		.prepare = pe_learned_prepare,
		.toy = &toy_learned,
	},
	[PE_ENC_RELATIVE] = {
		.name = "relative",
		.params = P_(SEQ_LEN) | P_(RELATIVE) | P_(BIAS),
		.caps = C_(TOY),
		.attention = PE_ATTN_BIAS,
		.check = pe_relative_check,
		.heads = pe_relative_heads,
		.variant = pe_relative_variant,
		.toy = &toy_relative,
	},
	[PE_ENC_ROPE] = {
		.name = "rope",
		.params = P_(D_MODEL) | P_(SEQ_LEN) | P_(BASE) | P_(PAIRING) |
		    P_(ROPE_SCALING) | P_(SPAN) | P_(SINKS) | P_(DECOUPLED),
		.caps = C_(TOY) | C_(EXAMPLE),
		.attention = PE_ATTN_ROTATE,
		.check = pe_rope_config_check,
		.freqs = pe_rope_freqs,
		.rotate = pe_rope_rotate_rows,
		.toy = &toy_plain,
	},
	[PE_ENC_ALIBI] = {
		.name = "alibi",
		.params = P_(SEQ_LEN) | P_(HEADS) | P_(ALIBI_MODE),
		.caps = C_(TOY) | C_(HEADS),
		.attention = PE_ATTN_BIAS,
		.check = pe_alibi_check,
		.causal = pe_alibi_causal,
		.toy = &toy_alibi,
	},
	[PE_ENC_NOPE] = {
		.name = "nope",
		.params = P_(SEQ_LEN) | P_(SPAN) | P_(SINKS) | P_(TEMPERATURE),
		.caps = C_(TOY),
		.attention = PE_ATTN_NONE,
		.causal = pe_nope_causal,
		.toy = &toy_plain,
	},
	[PE_ENC_VIT2D] = {
		.name = "vit2d",
		.params = P_(D_MODEL) | P_(GRID),
		.attention = PE_ATTN_ADD,
		.check = pe_vit2d_check,
		.positions = grid_patches,
	},
	[PE_ENC_MROPE] = {
		.name = "mrope",
		.params = P_(D_MODEL) | P_(BASE) | P_(GRID) | P_(MROPE),
		.attention = PE_ATTN_ROTATE,
		.check = pe_mrope_check,
		.positions = pe_mrope_length,
		.defaults = pe_mrope_defaults,
	},
	[PE_ENC_XPOS] = {
		.name = "xpos",
		.params = P_(D_MODEL) | P_(SEQ_LEN) | P_(BASE) | P_(XPOS),
		.attention = PE_ATTN_ROTATE,
		.check = pe_xpos_check,
	},
	[PE_ENC_ROPE2D] = {
		.name = "rope2d",
		.params = P_(D_MODEL) | P_(BASE) | P_(GRID) | P_(ROPE2D),
		.caps = C_(HEADS),
		.attention = PE_ATTN_ROTATE,
		.check = pe_rope2d_check,
		.positions = grid_patches,
		.defaults = pe_rope2d_defaults,
	},
};

/* The row of enc, or NULL. */
const struct pe_encoding_def *
pe_encoding_def(enum pe_encoding enc)
{
	return (unsigned)enc < PE_ENC_COUNT ? &defs[enc] : NULL;
}

/* The row of cfg's encoding. */
const struct pe_encoding_def *
pe_config_def(const struct pe_config *cfg)
{
	return &defs[cfg->enc];
}

/* The encodings with every capability in caps. */
unsigned
pe_encodings_with(unsigned caps)
{
	unsigned mask = 0;

	for (unsigned e = 0; e < PE_ENC_COUNT; e++)
		if ((defs[e].caps & caps) == caps)
			mask |= 1u << e;
	return mask;
}

/* The encodings that read any parameter in params. */
unsigned
pe_encodings_taking(unsigned params)
{
	unsigned mask = 0;

	for (unsigned e = 0; e < PE_ENC_COUNT; e++)
		if (defs[e].params & params)
			mask |= 1u << e;
	return mask;
}

/* Lower-case name of an encoding. */
const char *
pe_encoding_name(enum pe_encoding enc)
{
	return (unsigned)enc < PE_ENC_COUNT ? defs[enc].name : "?";
}

/* Encoding named name, or -1. */
int
pe_encoding_parse(const char *name)
{
	for (int i = 0; i < PE_ENC_COUNT; i++)
		if (strcmp(name, defs[i].name) == 0)
			return i;
	return -1;
}

/* Positions of cfg's encoding. */
size_t
pe_config_positions(const struct pe_config *cfg)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);

	return e != NULL && e->positions != NULL ? e->positions(cfg) : cfg->n;
}

/* The encoding's defaults for what was not given. */
void
pe_config_encoding_defaults(struct pe_config *cfg, bool d_given,
    bool base_given)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);

	if (e != NULL && e->defaults != NULL)
		e->defaults(cfg, d_given, base_given);
}

/* How many heads --head picks from. */
size_t
pe_config_heads(const struct pe_config *cfg)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);

	if (e != NULL && e->heads != NULL)
		return e->heads(cfg);
	/* a sink logit a head (attn.h) */
	if (e != NULL && (e->params & PE_PARAM_SINKS) &&
	    cfg->attn.sinks != NULL && cfg->attn.n_sinks > 0)
		return cfg->attn.n_sinks;
	return cfg->heads;
}

/* cfg's pair frequencies, and how many. */
size_t
pe_config_freqs(const struct pe_config *cfg, double *dest)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);

	return e != NULL && e->freqs != NULL ? e->freqs(cfg, dest) : 0;
}

/* Make what cfg needs and does not have. */
int
pe_config_prepare(struct pe_config *cfg, double **owned, char *why,
    size_t cap)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);

	if (owned != NULL)
		*owned = NULL;
	if (e == NULL || e->prepare == NULL)
		return PE_OK;
	return e->prepare(cfg, owned, why, cap);
}

/* Check a config for consistency; explain the first problem in why. */
int
pe_config_check(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);
	int rc;

	if (e == NULL)
		FAIL("encoding: unknown encoding");
	if ((rc = pe_config_check_shared(cfg, why, cap)) != PE_OK)
		return rc;
	if ((rc = pe_attn_check(cfg, why, cap)) != PE_OK)
		return rc;
	return e->check != NULL ? e->check(cfg, why, cap) : PE_OK;
}
