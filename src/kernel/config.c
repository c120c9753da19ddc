/* The shared vocabulary: defaults, names and the consistency check. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pescope/mrope.h"
#include "pescope/pescope.h"
#include "pescope/rope.h"
#include "pescope/rope2d.h"
#include "pescope/xpos.h"
#include "kernel/check.h"

static const char *const enc_names[PE_ENC_COUNT] = {
	"sinusoidal", "learned", "relative", "rope", "alibi", "nope", "vit2d",
	"mrope", "xpos", "rope2d",
};

static const char *const rope_names[PE_ROPE_TYPE_COUNT] = {
	"default", "linear", "dynamic", "yarn", "longrope", "llama3",
};

/* Human-readable name of a status code. */
const char *
pe_strerror(int status)
{
	switch (status) {
	case PE_OK:
		return "success";
	case PE_EINVAL:
		return "invalid parameter";
	case PE_ENOMEM:
		return "out of memory";
	case PE_ERANGE:
		return "index past the encoding's limit";
	case PE_EFORMAT:
		return "malformed data";
	case PE_EIO:
		return "input/output error";
	case PE_EINTR:
		return "interrupted";
	}
	return "unknown error";
}

/* Lower-case name of an encoding. */
const char *
pe_encoding_name(enum pe_encoding enc)
{
	return (unsigned)enc < PE_ENC_COUNT ? enc_names[enc] : "?";
}

/* Encoding named name, or -1. */
int
pe_encoding_parse(const char *name)
{
	for (int i = 0; i < PE_ENC_COUNT; i++)
		if (strcmp(name, enc_names[i]) == 0)
			return i;
	return -1;
}

/* HF's rope_type name. */
const char *
pe_rope_type_name(enum pe_rope_type t)
{
	return (unsigned)t < PE_ROPE_TYPE_COUNT ? rope_names[t] : "?";
}

/* rope_type named name, or -1. */
int
pe_rope_type_parse(const char *name)
{
	for (int i = 0; i < PE_ROPE_TYPE_COUNT; i++)
		if (strcmp(name, rope_names[i]) == 0)
			return i;
	return -1;
}

/* Fill *cfg with the defaults. */
void
pe_config_default(struct pe_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->enc = PE_ENC_SINUSOIDAL;
	cfg->d = 64;
	cfg->n = 64;
	cfg->base = 10000.0;
	cfg->layout = PE_LAYOUT_INTERLEAVED;
	cfg->pairing = PE_PAIR_HALF;
	cfg->heads = 8;
	cfg->alibi_mode = PE_ALIBI_CAUSAL;
	cfg->relative = PE_REL_T5;
	cfg->buckets = 32;
	cfg->max_distance = 128;
	cfg->bidirectional = true;
	cfg->max_relative = 16;
	cfg->grid_h = 14;
	cfg->grid_w = 14;
	cfg->max_len = 1024;
	cfg->table = NULL;
	cfg->table_untrained = true;

	/* rope_scaling: HF's defaults where it has them. */
	cfg->rope.type = PE_ROPE_DEFAULT;
	cfg->rope.factor = 4.0;
	cfg->rope.original_max_pos = 4096;
	cfg->rope.max_pos = 4096;
	cfg->rope.beta_fast = 32.0;
	cfg->rope.beta_slow = 1.0;
	cfg->rope.mscale = NAN;
	cfg->rope.mscale_all_dim = NAN;
	cfg->rope.attention_factor = NAN;
	cfg->rope.truncate = true;
	cfg->rope.low_freq_factor = 1.0;
	cfg->rope.high_freq_factor = 4.0;
	cfg->rope.partial_rotary = 1.0;
	/* mrope: text, a 14 x 14 image (the grid above), text */
	cfg->mrope.text_before = 8;
	cfg->mrope.frames = 1;
	cfg->mrope.text_after = 8;
	cfg->xpos.xpos_scale_base = 512.0; /* torchscale's XPOS default */
	cfg->teach.shift = 1;
}


/* Check the rope_scaling parameters. */
static int
check_rope(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_rope_scaling *r = &cfg->rope;
	const char *t = pe_rope_type_name(r->type);

	if (!(r->partial_rotary > 0.0 && r->partial_rotary <= 1.0))
		FAIL("partial_rotary %g: must be in (0, 1]", r->partial_rotary);
	size_t rot = pe_rope_rotary_dim(cfg);
	if (rot < 2 || rot % 2 != 0)
		FAIL("partial_rotary %g: the rotary dimension int(%zu * %g) = %zu "
		     "must be even and at least 2",
		    r->partial_rotary, cfg->d, r->partial_rotary, rot);
	if (r->type == PE_ROPE_DEFAULT)
		return pe_rope_check(cfg, why, cap);
	if (!isfinite(r->factor) || r->factor < 1.0)
		FAIL("factor %g: %s scaling needs a finite factor >= 1", r->factor,
		    t);
	if (r->type == PE_ROPE_DYNAMIC && r->max_pos < 1)
		FAIL("max_pos %zu: dynamic scaling needs max_position_embeddings "
		     ">= 1", r->max_pos);
	if ((r->type == PE_ROPE_YARN || r->type == PE_ROPE_LONGROPE ||
		r->type == PE_ROPE_LLAMA3) && r->original_max_pos < 1)
		FAIL("original_max_pos %zu: %s scaling needs "
		     "original_max_position_embeddings >= 1", r->original_max_pos, t);
	if (r->type == PE_ROPE_YARN) {
		/* 0 means unset, as HF's `or 32` / `or 1` */
		double bf, bs;
		pe_rope_yarn_betas(r, &bf, &bs);
		if (!isfinite(bf) || !isfinite(bs) || bf <= bs)
			FAIL("beta_fast %g, beta_slow %g: yarn needs finite values "
			     "with beta_fast > beta_slow (0 means unset: 32 and 1)",
			    bf, bs);
		/* 0 means unset, as HF's `if mscale and mscale_all_dim` */
		if (!isnan(r->mscale) && r->mscale != 0.0 &&
		    !(isfinite(r->mscale) && r->mscale > 0))
			FAIL("mscale %g: must be a finite number > 0 (or 0: unset)",
			    r->mscale);
		if (!isnan(r->mscale_all_dim) && r->mscale_all_dim != 0.0 &&
		    !(isfinite(r->mscale_all_dim) && r->mscale_all_dim > 0))
			FAIL("mscale_all_dim %g: must be a finite number > 0 (or 0: "
			     "unset)", r->mscale_all_dim);
	}
	if ((r->type == PE_ROPE_YARN || r->type == PE_ROPE_LONGROPE) &&
	    !isnan(r->attention_factor) &&
	    !(isfinite(r->attention_factor) && r->attention_factor > 0))
		FAIL("attention_factor %g: must be a finite number > 0",
		    r->attention_factor);
	if (r->type == PE_ROPE_LLAMA3) {
		if (!isfinite(r->low_freq_factor) || !isfinite(r->high_freq_factor) ||
		    r->low_freq_factor <= 0 ||
		    r->low_freq_factor >= r->high_freq_factor)
			FAIL("low_freq_factor %g, high_freq_factor %g: llama3 needs "
			     "0 < low_freq_factor < high_freq_factor",
			    r->low_freq_factor, r->high_freq_factor);
	}
	if (r->type == PE_ROPE_LONGROPE) {
		if (r->short_factor == NULL || r->long_factor == NULL)
			FAIL("short_factor/long_factor: longrope needs both lists, "
			     "%zu numbers each (rotary dim / 2)", rot / 2);
		if (r->n_short != rot / 2)
			FAIL("short_factor: %zu numbers given, longrope needs %zu "
			     "(rotary dim %zu / 2)", r->n_short, rot / 2, rot);
		if (r->n_long != rot / 2)
			FAIL("long_factor: %zu numbers given, longrope needs %zu "
			     "(rotary dim %zu / 2)", r->n_long, rot / 2, rot);
		for (size_t i = 0; i < rot / 2; i++)
			if (!(isfinite(r->short_factor[i]) && r->short_factor[i] > 0) ||
			    !(isfinite(r->long_factor[i]) && r->long_factor[i] > 0))
				FAIL("short_factor/long_factor: entry %zu is not a "
				     "finite number > 0", i);
	}
	/* the ranges hold; the tables they make must be finite too */
	return pe_rope_check(cfg, why, cap);
}

/* sinusoidal: a sin and a cos column per frequency. */
static int
check_sinusoidal(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->d % 2 != 0)
		FAIL("d_model %zu: sinusoidal needs an even d_model (each "
		     "frequency fills a sin and a cos column)", cfg->d);
	/* tensor2tensor's get_timing_signal_1d divides by
	 * num_timescales - 1 */
	if (cfg->layout == PE_LAYOUT_T2T && cfg->d < 4)
		FAIL("layout t2t: d_model %zu has one timescale, and "
		     "tensor2tensor divides by num_timescales - 1 = 0; use "
		     "d_model 4 or more", cfg->d);
	return PE_OK;
}

/* learned: the table's rows. */
static int
check_learned(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->max_len < 1 || cfg->max_len > PE_MAX_N)
		FAIL("max_len %zu: must be in 1..%zu", cfg->max_len, PE_MAX_N);
	return PE_OK;
}

/* relative: shaw's K, or t5's buckets and max_distance. */
static int
check_relative(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->relative == PE_REL_SHAW) {
		if (cfg->max_relative < 1 || cfg->max_relative > PE_MAX_N)
			FAIL("max_relative %zu: must be in 1..%zu",
			    cfg->max_relative, PE_MAX_N);
		return PE_OK;
	}
	if (cfg->buckets < (cfg->bidirectional ? 4u : 2u) || cfg->buckets > 4096)
		FAIL("buckets %zu: must be in %u..4096 (%s: half of %s are "
		     "exact)", cfg->buckets, cfg->bidirectional ? 4u : 2u,
		    cfg->bidirectional ? "bidirectional" : "unidirectional",
		    cfg->bidirectional ? "each direction's buckets"
				       : "the buckets");
	size_t exact = cfg->bidirectional ? cfg->buckets / 4 : cfg->buckets / 2;
	if (cfg->max_distance <= exact || cfg->max_distance > PE_MAX_N)
		FAIL("max_distance %zu: must be in %zu..%zu (more than the %zu "
		     "exact buckets)", cfg->max_distance, exact + 1, PE_MAX_N,
		    exact);
	return PE_OK;
}

/* rope: pairs of dimensions, then the scaling. */
static int
check_rope_enc(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->d % 2 != 0)
		FAIL("d_model %zu: rope needs an even d_model (each pair "
		     "rotates two dimensions)", cfg->d);
	return check_rope(cfg, why, cap);
}

/* alibi: the heads. */
static int
check_alibi(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->heads < 1 || cfg->heads > PE_MAX_HEADS)
		FAIL("heads %zu: must be in 1..%zu", cfg->heads, PE_MAX_HEADS);
	return PE_OK;
}

/* vit2d: two axes, each a sin and a cos half; the grid. */
static int
check_vit2d(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->d % 4 != 0)
		FAIL("d_model %zu: vit2d needs d_model divisible by 4 (two "
		     "axes, each a sin and a cos half)", cfg->d);
	if (cfg->grid_h < 1 || cfg->grid_w < 1 || cfg->grid_h > PE_MAX_GRID ||
	    cfg->grid_w > PE_MAX_GRID)
		FAIL("grid %zux%zu: each side must be in 1..%zu", cfg->grid_h,
		    cfg->grid_w, PE_MAX_GRID);
	return PE_OK;
}

/* Each encoding's own rules (NULL: none beyond the shared ones). */
static int (*const encoding_checks[PE_ENC_COUNT])(const struct pe_config *,
    char *, size_t) = {
	[PE_ENC_SINUSOIDAL] = check_sinusoidal,
	[PE_ENC_LEARNED] = check_learned,
	[PE_ENC_RELATIVE] = check_relative,
	[PE_ENC_ROPE] = check_rope_enc,
	[PE_ENC_ALIBI] = check_alibi,
	[PE_ENC_NOPE] = NULL,
	[PE_ENC_VIT2D] = check_vit2d,
	[PE_ENC_MROPE] = pe_mrope_check,
	[PE_ENC_XPOS] = pe_xpos_check,
	[PE_ENC_ROPE2D] = pe_rope2d_check,
};

/* vit2d, rope2d: one position per patch. */
static size_t
patches(const struct pe_config *cfg)
{
	return cfg->grid_h * cfg->grid_w;
}

/* Each encoding's count of positions (NULL: seq_len). */
static size_t (*const encoding_positions[PE_ENC_COUNT])(
    const struct pe_config *) = {
	[PE_ENC_VIT2D] = patches,
	[PE_ENC_MROPE] = pe_mrope_length,
	[PE_ENC_ROPE2D] = patches,
};

/* Each encoding's own defaults of the shared parameters (NULL: none). */
static void (*const encoding_defaults[PE_ENC_COUNT])(struct pe_config *,
    bool d_given, bool base_given) = {
	[PE_ENC_MROPE] = pe_mrope_defaults,
	[PE_ENC_ROPE2D] = pe_rope2d_defaults,
};

/* Positions of cfg's encoding. */
size_t
pe_config_positions(const struct pe_config *cfg)
{
	if ((unsigned)cfg->enc < PE_ENC_COUNT &&
	    encoding_positions[cfg->enc] != NULL)
		return encoding_positions[cfg->enc](cfg);
	return cfg->n;
}

/* The encoding's defaults for what was not given. */
void
pe_config_encoding_defaults(struct pe_config *cfg, bool d_given,
    bool base_given)
{
	if ((unsigned)cfg->enc < PE_ENC_COUNT &&
	    encoding_defaults[cfg->enc] != NULL)
		encoding_defaults[cfg->enc](cfg, d_given, base_given);
}

/* Check a config for consistency; explain the first problem in why. */
int
pe_config_check(const struct pe_config *cfg, char *why, size_t cap)
{
	if ((unsigned)cfg->enc >= PE_ENC_COUNT)
		FAIL("encoding: unknown encoding");
	if (cfg->d < 1 || cfg->d > PE_MAX_D)
		FAIL("d_model %zu: must be in 1..%zu", cfg->d, PE_MAX_D);
	if (cfg->n < 1 || cfg->n > PE_MAX_N)
		FAIL("seq_len %zu: must be in 1..%zu", cfg->n, PE_MAX_N);
	if (!isfinite(cfg->base) || cfg->base <= 1.0)
		FAIL("base %g: must be a finite number > 1", cfg->base);
	if (encoding_checks[cfg->enc] == NULL)
		return PE_OK;
	return encoding_checks[cfg->enc](cfg, why, cap);
}
