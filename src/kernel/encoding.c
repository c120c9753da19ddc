/* The encodings: one row each (pescope/encoding.h), in tab order, and what
 * derives from the rows: names, the full check, positions and defaults.
 * The hooks live in their encodings' files (kernel/encoding_impl.h). */
#include <math.h>
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
		.describe = pe_learned_describe,
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
		.describe = pe_relative_describe,
	},
	[PE_ENC_ROPE] = {
		.name = "rope",
		.params = P_(D_MODEL) | P_(SEQ_LEN) | P_(BASE) | P_(PAIRING) |
		    P_(ROPE_SCALING) | P_(SPAN) | P_(SINKS) | P_(DECOUPLED),
		.caps = C_(TOY) | C_(EXAMPLE) | C_(ROPE),
		.attention = PE_ATTN_ROTATE,
		.check = pe_rope_config_check,
		.freqs = pe_rope_freqs,
		.rotate = pe_rope_rotate_rows,
		.toy = &toy_plain,
		.describe = pe_rope_describe,
	},
	[PE_ENC_ALIBI] = {
		.name = "alibi",
		.params = P_(SEQ_LEN) | P_(HEADS) | P_(ALIBI_MODE),
		.caps = C_(TOY) | C_(HEADS),
		.attention = PE_ATTN_BIAS,
		.check = pe_alibi_check,
		.causal = pe_alibi_causal,
		.toy = &toy_alibi,
		.describe = pe_alibi_describe,
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
		.caps = C_(ROPE),
		.attention = PE_ATTN_ROTATE,
		.check = pe_mrope_check,
		.positions = pe_mrope_length,
		.defaults = pe_mrope_defaults,
		.describe = pe_mrope_describe,
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

/* YaRN's get_mscale as modeling_deepseek_v3.py has it (yarn_get_mscale). */
static double
config_yarn_mscale(double scale, double mscale)
{
	if (scale <= 1.0)
		return 1.0;
	return 0.1 * mscale * log(scale) + 1.0;
}

/* The layer's shape: what the encoding's row reads of cfg->attn; causal
 * for a decoder's layer, the encoding's own default (NoPE, ALiBi causal),
 * any window or chunk, and sinks (GPT-OSS's). */
void
pe_config_attn(const struct pe_config *cfg, struct pe_attn *dest)
{
	const struct pe_encoding_def *e = pe_config_def(cfg);

	*dest = cfg->attn;
	if (!(e->params & PE_PARAM_SPAN))
		dest->span = PE_SPAN_FULL;
	if (!(e->params & PE_PARAM_SINKS)) {
		dest->sinks = NULL;
		dest->n_sinks = 0;
	}
	if (!(e->params & PE_PARAM_TEMPERATURE))
		dest->temperature = false;
	if (!(e->params & PE_PARAM_DECOUPLED))
		dest->qk_rope_dim = dest->qk_nope_dim = 0;
	/* sinks are GPT-OSS's, a causal decoder: modeling_gpt_oss.py's
	 * eager_attention_forward adds the causal mask, then the sink */
	if (dest->span != PE_SPAN_FULL || dest->sinks != NULL ||
	    (e->causal != NULL && e->causal(cfg)))
		dest->causal = true;
}

/* head_dim^-0.5, times DeepSeek-V3's mscale^2 for a decoupled head. */
double
pe_attn_scale(const struct pe_config *cfg, double *mscale)
{
	const struct pe_rope_scaling *s = &cfg->rope;
	double m = 1.0;

	if (cfg->attn.qk_rope_dim > 0 &&
	    (pe_config_def(cfg)->params & PE_PARAM_DECOUPLED) &&
	    s->type != PE_ROPE_DEFAULT &&
	    !isnan(s->mscale_all_dim) && s->mscale_all_dim != 0.0)
		m = config_yarn_mscale(s->factor, s->mscale_all_dim);
	if (mscale != NULL)
		*mscale = m;
	return m * m / sqrt((double)cfg->d);
}

/* cfg->attn's own rules (every encoding's): a window or a chunk of at
 * least 1, sinks that are finite and one a head, a temperature with
 * floor_scale >= 1; the sentence names the parameter (window, chunk,
 * sinks, floor_scale, attn_scale). The decoupled dims are rope's (its
 * check). Here, not in attn.c, so that attn.c's use of the rows
 * (pe_config_def) is the only call between the two files. */
static int
config_attn_check(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_attn *t = &cfg->attn;

	if (t->span == PE_SPAN_SLIDING && (t->window < 1 ||
	    t->window > PE_MAX_N))
		FAIL("window %zu: a sliding window sees 1..%zu keys (the query "
		    "and the window - 1 before it)", t->window, PE_MAX_N);
	if (t->span == PE_SPAN_CHUNKED && (t->chunk < 1 || t->chunk > PE_MAX_N))
		FAIL("chunk %zu: a chunk holds 1..%zu positions", t->chunk,
		    PE_MAX_N);
	if (t->sinks != NULL) {
		if (t->n_sinks < 1 || t->n_sinks > PE_MAX_HEADS)
			FAIL("sinks: %zu numbers; one sink logit a head, 1..%zu "
			    "heads", t->n_sinks, PE_MAX_HEADS);
		if (t->heads > 0 && t->n_sinks != t->heads)
			FAIL("sinks: %zu numbers, and the model has %zu attention "
			    "heads (num_attention_heads); give exactly %zu, one "
			    "sink logit a head", t->n_sinks, t->heads, t->heads);
		for (size_t h = 0; h < t->n_sinks; h++)
			if (!isfinite(t->sinks[h]) || fabs(t->sinks[h]) > 1e300)
				FAIL("sinks: entry %zu (%g) is not a finite number",
				    h, t->sinks[h]);
	}
	if (t->temperature) {
		if (!isfinite(t->floor_scale) || t->floor_scale < 1.0 ||
		    t->floor_scale > (double)PE_MAX_N)
			FAIL("floor_scale %g: Llama 4's temperature steps every "
			    "floor_scale positions; must be in 1..%zu",
			    t->floor_scale, PE_MAX_N);
		if (!isfinite(t->attn_scale) || fabs(t->attn_scale) > 1e6)
			FAIL("attn_scale %g: must be a finite number of at most "
			    "1e6 in size", t->attn_scale);
	}
	return PE_OK;
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
	if ((rc = config_attn_check(cfg, why, cap)) != PE_OK)
		return rc;
	return e->check != NULL ? e->check(cfg, why, cap) : PE_OK;
}
