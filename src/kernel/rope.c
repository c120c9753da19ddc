/* Rotary position embedding (Su et al. 2021, "RoFormer", eq. 34) and its
 * context extensions, transcribed from Hugging Face transformers'
 * src/transformers/modeling_rope_utils.py (the _compute_*_parameters
 * functions) and modeling_llama.py (apply_rotary_pos_emb, rotate_half).
 *
 * Precision: HF builds inv_freq in float32 from an int64 arange
 * (torch.arange(0, dim, 2).float() / dim, then base ** that, then 1 / it),
 * and forms cos/sin from float32 angles. Here every quantity is formed in
 * double, so inv_freq differs from HF's in its float32 rounding (relative
 * ~6e-8) and angles m * inv_freq at large m differ by m times that; the
 * places where HF rounds to float32 are marked "f32:" below. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "pescope/rope.h"
#include "kernel/check.h"
#include "kernel/clones.h"
#include "kernel/encoding_impl.h"
#include "kernel/testing.h"
#include "kernel/trig.h"


/* Rotary dimension: int(head_dim * partial_rotary_factor), as HF
 * (modeling_rope_utils.py, _compute_default_rope_parameters). */
size_t
pe_rope_rotary_dim(const struct pe_config *cfg)
{
	if (cfg->attn.qk_rope_dim > 0)
		return cfg->attn.qk_rope_dim;
	return (size_t)((double)cfg->d * cfg->rope.partial_rotary);
}

/* 0, or the content part a decoupled head keeps before its rotated part. */
size_t
pe_rope_rotary_offset(const struct pe_config *cfg)
{
	size_t rot = pe_rope_rotary_dim(cfg);

	return cfg->attn.qk_rope_dim > 0 && rot <= cfg->d ? cfg->d - rot : 0;
}

/* HF's default inverse frequencies 1 / base^(2j/rot) into dest[rot/2]
 * (_compute_default_rope_parameters; f32: the exponent 2j/rot and the power).
 */
static void
rope_default(double base, size_t rot, double *dest)
{
	for (size_t j = 0; j < rot / 2; j++)
		dest[j] = 1.0 / pow(base, (double)(2 * j) / (double)rot);
}

/* YaRN's get_mscale: 0.1 * mscale * ln(scale) + 1, or 1 when scale <= 1
 * (Peng et al. 2023; HF _compute_yarn_parameters). */
static double
yarn_get_mscale(double scale, double mscale)
{
	if (scale <= 1.0)
		return 1.0;
	return 0.1 * mscale * log(scale) + 1.0;
}

/* YaRN's find_correction_dim: the dimension whose wavelength makes
 * num_rotations turns in max_pos positions,
 *   dim * ln(max_pos / (num_rotations 2 pi)) / (2 ln base). */
static double
yarn_correction_dim(double num_rotations, double dim, double base,
                    double max_pos)
{
	return dim * log(max_pos / (num_rotations * 2.0 * M_PI)) /
	       (2.0 * log(base));
}

/* YaRN (HF _compute_yarn_parameters): blend of interpolated (inv_freq /
 * factor) and extrapolated (unscaled) frequencies along a linear ramp between
 * the correction dims of beta_fast and beta_slow; floor/ceil only when
 * truncate. As current HF, the correction range uses
 * original_max_position_embeddings (older releases used
 * max_position_embeddings). The attention factor: attention_factor when
 * given; else get_mscale(factor, mscale) / get_mscale(factor,
 * mscale_all_dim) when both are given and nonzero; else
 * get_mscale(factor) = 0.1 ln(factor) + 1. Returns it. */
static double
rope_yarn(const struct pe_rope_scaling *s, double base, size_t rot,
          const double *inv0, double *dest)
{
	double factor = s->factor;
	double att;

	if (!isnan(s->attention_factor))
		att = s->attention_factor;
	else if (!isnan(s->mscale) && s->mscale != 0.0 &&
	         !isnan(s->mscale_all_dim) && s->mscale_all_dim != 0.0)
		att = yarn_get_mscale(factor, s->mscale) /
		      yarn_get_mscale(factor, s->mscale_all_dim);
	else
		att = yarn_get_mscale(factor, 1.0);

	double beta_fast, beta_slow;
	pe_rope_yarn_betas(s, &beta_fast, &beta_slow);
	double omp = (double)s->original_max_pos;
	double low = yarn_correction_dim(beta_fast, (double)rot, base, omp);
	double high = yarn_correction_dim(beta_slow, (double)rot, base, omp);
	if (s->truncate) {
		low = floor(low);
		high = ceil(high);
	}
	low = fmax(low, 0.0);
	high = fmin(high, (double)rot - 1.0);
	if (low == high)
		high += 0.001; /* HF: prevent singularity */

	for (size_t j = 0; j < rot / 2; j++) {
		/* f32: HF's ramp (arange - min) / (max - min) is float32. */
		double ramp = ((double)j - low) / (high - low);
		ramp = fmin(fmax(ramp, 0.0), 1.0);
		double extra = 1.0 - ramp; /* inv_freq_extrapolation_factor */
		double interp = inv0[j] / factor;
		dest[j] = interp * (1.0 - extra) + inv0[j] * extra;
	}
	return att;
}

/* Llama 3.1 (HF _compute_llama3_parameters): wavelengths above
 * original/low_freq_factor are divided by factor, those below
 * original/high_freq_factor kept, and the band between blended with
 * smooth = (original / wavelen - low) / (high - low). */
static void
rope_llama3(const struct pe_rope_scaling *s, size_t npairs, const double *inv0,
            double *dest)
{
	double old = (double)s->original_max_pos;
	double lo = s->low_freq_factor, hi = s->high_freq_factor;
	double low_wavelen = old / lo;
	double high_wavelen = old / hi;

	for (size_t j = 0; j < npairs; j++) {
		double wavelen = 2.0 * M_PI / inv0[j];
		double f =
		    wavelen > low_wavelen ? inv0[j] / s->factor : inv0[j];
		if (!(wavelen < high_wavelen) && !(wavelen > low_wavelen)) {
			double smooth = (old / wavelen - lo) / (hi - lo);
			f = (1.0 - smooth) * f / s->factor + smooth * f;
		}
		dest[j] = f;
	}
}

/* The factor longrope uses. HF _compute_longrope_parameters:
 *   factor = config.rope_scaling.get("factor")
 *   if hasattr(config, "original_max_position_embeddings"):  # Phi-3
 *       factor = config.max_position_embeddings /
 *                config.original_max_position_embeddings
 * An explicit factor is a config without the top-level field. */
double
pe_rope_longrope_factor(const struct pe_rope_scaling *s)
{
	if (s->factor_given)
		return s->factor;
	return (double)s->max_pos / (double)s->original_max_pos;
}

/* yarn's betas, HF _compute_yarn_parameters:
 *   beta_fast = config.rope_scaling.get("beta_fast") or 32
 *   beta_slow = config.rope_scaling.get("beta_slow") or 1 */
void
pe_rope_yarn_betas(const struct pe_rope_scaling *s, double *beta_fast,
                   double *beta_slow)
{
	*beta_fast =
	    s->beta_fast != 0.0 && !isnan(s->beta_fast) ? s->beta_fast : 32.0;
	*beta_slow =
	    s->beta_slow != 0.0 && !isnan(s->beta_slow) ? s->beta_slow : 1.0;
}

/* LongRoPE (HF _compute_longrope_parameters, Phi-3): per-pair rescale
 * factors, long_factor when seq_len > original_max_pos else short_factor;
 * inv_freq = 1 / (ext_j base^(2j/rot)). `factor` is pe_rope_longrope_factor
 * (factor, else max_pos / original_max_pos as HF for Phi-3); the
 * pretrained length is original_max_pos either way. The attention factor
 * defaults to sqrt(1 + ln(factor) / ln(original_max_pos)), or 1 when
 * factor <= 1. Returns the attention factor. */
static double
rope_longrope(const struct pe_rope_scaling *s, size_t seq_len, size_t npairs,
              const double *inv0, double *dest)
{
	double omp = (double)s->original_max_pos;
	double factor = pe_rope_longrope_factor(s);
	double att;

	if (!isnan(s->attention_factor))
		att = s->attention_factor;
	else if (factor <= 1.0)
		att = 1.0;
	else
		att = sqrt(1.0 + log(factor) / log(omp));

	/* f32: HF holds the factor lists as float32 tensors. */
	const double *ext =
	    seq_len > s->original_max_pos ? s->long_factor : s->short_factor;
	for (size_t j = 0; j < npairs; j++)
		dest[j] = inv0[j] / ext[j];
	return att;
}

/* Derive inv_freq (scaled), inv_freq0 (default) and the attention scaling. */
int
pe_rope_init(struct pe_rope *r, const struct pe_config *cfg)
{
	const struct pe_rope_scaling *s = &cfg->rope;

	r->inv_freq = NULL;
	r->inv_freq0 = NULL;
	if (cfg->d == 0 || cfg->d % 2 != 0 || !isfinite(cfg->base) ||
	    cfg->base <= 1.0 ||
	    !(s->partial_rotary > 0.0 && s->partial_rotary <= 1.0))
		return PE_EINVAL;
	size_t rot = pe_rope_rotary_dim(cfg);
	if (rot < 2 || rot % 2 != 0 || rot > cfg->d)
		return PE_EINVAL;
	if (s->type != PE_ROPE_DEFAULT &&
	    (!isfinite(s->factor) || s->factor <= 0.0))
		return PE_EINVAL;
	if ((s->type == PE_ROPE_YARN || s->type == PE_ROPE_LONGROPE ||
	     s->type == PE_ROPE_LLAMA3) &&
	    s->original_max_pos == 0)
		return PE_EINVAL;
	if (s->type == PE_ROPE_DYNAMIC && s->max_pos == 0)
		return PE_EINVAL;
	if (s->type == PE_ROPE_LLAMA3 &&
	    !(s->high_freq_factor > s->low_freq_factor))
		return PE_EINVAL;
	if (s->type == PE_ROPE_LONGROPE &&
	    (s->short_factor == NULL || s->long_factor == NULL ||
	     s->n_short != rot / 2 || s->n_long != rot / 2))
		return PE_EINVAL;
	if ((unsigned)s->type >= PE_ROPE_TYPE_COUNT)
		return PE_EINVAL;

	r->d = cfg->d;
	r->rot = rot;
	r->off = pe_rope_rotary_offset(cfg);
	r->npairs = rot / 2;
	r->pairing = cfg->pairing;
	r->attention_scaling = 1.0;
	r->inv_freq = malloc(r->npairs * sizeof *r->inv_freq);
	r->inv_freq0 = malloc(r->npairs * sizeof *r->inv_freq0);
	if (r->inv_freq == NULL || r->inv_freq0 == NULL) {
		pe_rope_free(r);
		return PE_ENOMEM;
	}
	rope_default(cfg->base, rot, r->inv_freq0);

	switch (s->type) {
	case PE_ROPE_DEFAULT:
		rope_default(cfg->base, rot, r->inv_freq);
		break;
	case PE_ROPE_LINEAR:
		/* _compute_linear_scaling_rope_parameters: inv_freq /= factor.
		 */
		for (size_t j = 0; j < r->npairs; j++)
			r->inv_freq[j] = r->inv_freq0[j] / s->factor;
		break;
	case PE_ROPE_DYNAMIC: {
		/* _compute_dynamic_ntk_parameters: seq_len = max(seq_len,
		 * max_pos); base *= (factor seq_len / max_pos - (factor - 1))
		 * ^ (dim / (dim - 2)). dim = 2 would divide by zero in HF too;
		 * there the exponent is +inf and so is the base. */
		double mp = (double)s->max_pos;
		double sl = cfg->n > s->max_pos ? (double)cfg->n : mp;
		double dim = (double)rot;
		double base =
		    cfg->base * pow(s->factor * sl / mp - (s->factor - 1.0),
		                    dim / (dim - 2.0));
		rope_default(base, rot, r->inv_freq);
		break;
	}
	case PE_ROPE_YARN:
		r->attention_scaling =
		    rope_yarn(s, cfg->base, rot, r->inv_freq0, r->inv_freq);
		break;
	case PE_ROPE_LONGROPE:
		r->attention_scaling = rope_longrope(s, cfg->n, r->npairs,
		                                     r->inv_freq0, r->inv_freq);
		break;
	case PE_ROPE_LLAMA3:
		rope_llama3(s, r->npairs, r->inv_freq0, r->inv_freq);
		break;
	default:
		pe_rope_free(r);
		return PE_EINVAL;
	}
	return PE_OK;
}

/* Release the frequency tables. */
void
pe_rope_free(struct pe_rope *r)
{
	free(r->inv_freq);
	free(r->inv_freq0);
	r->inv_freq = NULL;
	r->inv_freq0 = NULL;
}

/* Dimensions of pair j: half (HF rotate_half, GPT-NeoX) pairs j with
 * j + rot/2; interleaved (GPT-J rotate_every_two, RoFormer) 2j with 2j+1. */
void
pe_rope_pair_dims(size_t j, size_t rot, enum pe_pairing pairing, size_t *a,
                  size_t *b)
{
	if (pairing == PE_PAIR_INTERLEAVED) {
		*a = 2 * j;
		*b = 2 * j + 1;
	} else {
		*a = j;
		*b = j + rot / 2;
	}
}

/* theta[m, j] = m * inv_freq[j], in double, not reduced. */
double
pe_rope_angle(const struct pe_rope *r, double m, size_t j)
{
	return m * r->inv_freq[j];
}

/* Rows p0 .. p0+npos-1 of the angles [n, npairs], as pe_rope_angle. */
int
pe_rope_angle_rows(const struct pe_rope *r, size_t p0, size_t npos,
                   double *dest)
{
	if (r == NULL || r->inv_freq == NULL || (npos > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t k = 0; k < npos; k++) {
		double m = (double)(p0 + k);
		for (size_t j = 0; j < r->npairs; j++)
			dest[k * r->npairs + j] = m * r->inv_freq[j];
	}
	return PE_OK;
}

/* The angle rows as floats (dump's float32 table): one multiply and one
 * rounding per value, in the vector units. */
PE_CLONES int
pe_rope_angle_rows_f32(const struct pe_rope *r, size_t p0, size_t npos,
                       float *dest)
{
	if (r == NULL || r->inv_freq == NULL || (npos > 0 && dest == NULL))
		return PE_EINVAL;
	const double *w = r->inv_freq;
	size_t np = r->npairs;
	for (size_t k = 0; k < npos; k++) {
		double m = (double)(p0 + k);
		float *row = dest + k * np;
		for (size_t j = 0; j < np; j++)
			row[j] = (float)(m * w[j]);
	}
	return PE_OK;
}

/* Pair of column c of the [npos, rot] cos/sin tables: HF's
 * emb = cat(freqs, freqs) for half; repeat_interleave for interleaved. */
static size_t
rope_column_pair(const struct pe_rope *r, size_t c)
{
	return r->pairing == PE_PAIR_INTERLEAVED ? c / 2 : c % r->npairs;
}

/* cos and sin tables [npos, rot] times attention_scaling (HF's
 * LlamaRotaryEmbedding.forward: cos = emb.cos() * attention_scaling). */
int
pe_rope_fill_cos_sin(const struct pe_rope *r, size_t p0, size_t npos,
                     double *cos_dest, double *sin_dest)
{
	if (r == NULL || r->inv_freq == NULL || r->rot == 0)
		return PE_EINVAL;
	for (size_t k = 0; k < npos; k++) {
		for (size_t c = 0; c < r->rot; c++) {
			double t = (double)(p0 + k) *
			           r->inv_freq[rope_column_pair(r, c)];
			if (cos_dest != NULL)
				cos_dest[k * r->rot + c] =
				    cos(t) * r->attention_scaling;
			if (sin_dest != NULL)
				sin_dest[k * r->rot + c] =
				    sin(t) * r->attention_scaling;
		}
	}
	return PE_OK;
}

/* Rotate x to position m in double, as HF's apply_rotary_pos_emb:
 * q * cos + rotate_half(q) * sin with cos and sin already times
 * attention_scaling (LlamaRotaryEmbedding.forward); the dims past rot
 * pass through (GPT-NeoX's q_pass, GPT-J's rotary_dim), and a decoupled
 * head's first qk_nope_dim dims before them (DeepSeek's q_nope, which
 * torch.cat((q_nope, q_pe)) puts first). */
void
pe_rope_apply(const struct pe_rope *r, const double *x, double m, double *dest)
{
	for (size_t c = 0; c < r->off; c++)
		dest[c] = x[c];
	for (size_t c = r->off + r->rot; c < r->d; c++)
		dest[c] = x[c];
	for (size_t j = 0; j < r->npairs; j++) {
		size_t a, b;
		pe_rope_pair_dims(j, r->rot, r->pairing, &a, &b);
		a += r->off;
		b += r->off;
		double t = m * r->inv_freq[j];
		double co = cos(t) * r->attention_scaling;
		double si = sin(t) * r->attention_scaling;
		dest[a] = x[a] * co - x[b] * si;
		dest[b] = x[b] * co + x[a] * si;
	}
}

/* Wavelength 2 pi / inv_freq[j] in positions. */
double
pe_rope_wavelength(const struct pe_rope *r, size_t j, bool orig)
{
	return PE_TWO_PI / (orig ? r->inv_freq0[j] : r->inv_freq[j]);
}

/* RoFormer's long-term decay bound (Su et al. 2021, sec. 3.4.3): the
 * partial sums S_j of exp(i r w_k) accumulate pair by pair, in double. */
double
pe_rope_decay(const struct pe_rope *r, double dist)
{
	double re = 0.0, im = 0.0, total = 0.0;

	if (r == NULL || r->inv_freq == NULL || r->npairs == 0)
		return NAN;
	for (size_t j = 0; j < r->npairs; j++) {
		double t = dist * r->inv_freq[j];
		re += cos(t);
		im += sin(t);
		total += hypot(re, im); /* |S_{j+1}| */
	}
	return total / (double)r->npairs;
}

/* The bound at count distances dist[k] (pe_rope_decay's sum): each
 * distance's angles at once on the vector units (pe_trig_sincos_many,
 * within 1 ulp of libm's sincos) and |S_j| as sqrt(re^2 + im^2) (|S_j| <=
 * P: nothing to overflow), so a few ulps from pe_rope_decay's; the panel's
 * plot, ~8x faster. PE_ENOMEM when memory ran out. */
int
pe_rope_decay_many(const struct pe_rope *r, const double *dist, size_t count,
                   double *dest)
{
	if (r == NULL || r->inv_freq == NULL || (count > 0 && (dist == NULL ||
	    dest == NULL)))
		return PE_EINVAL;
	size_t P = r->npairs;
	double *cs = malloc(2 * (P ? P : 1) * sizeof *cs);
	if (cs == NULL)
		return PE_ENOMEM;
	for (size_t k = 0; k < count; k++) {
		double re = 0.0, im = 0.0, total = 0.0;
		if (P == 0) {
			dest[k] = NAN;
			continue;
		}
		pe_trig_sincos_many(r->inv_freq, P, P, dist[k], cs);
		for (size_t j = 0; j < P; j++) {
			re += cs[j];
			im += cs[P + j];
			total += sqrt(re * re + im * im); /* |S_{j+1}| */
		}
		dest[k] = total / (double)P;
	}
	free(cs);
	return PE_OK;
}

/* The bound for count distances from r0. */
int
pe_rope_decay_fill(const struct pe_rope *r, size_t r0, size_t count,
                   double *dest)
{
	if (r == NULL || r->inv_freq == NULL || (count > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t k = 0; k < count; k++)
		dest[k] = pe_rope_decay(r, (double)(r0 + k));
	return PE_OK;
}

/* Pairs whose wavelength (scaled, or the original when orig) exceeds L. */
size_t
pe_rope_beyond(const struct pe_rope *r, double train_len, bool orig,
               size_t *dest)
{
	size_t count = 0;

	for (size_t j = 0; j < r->npairs; j++)
		if (pe_rope_wavelength(r, j, orig) > train_len) {
			if (dest != NULL)
				dest[count] = j;
			count++;
		}
	return count;
}

/* A config's linear scaling trains with the scaled angles at its
 * max_position_embeddings (modeling_rope_utils.py,
 * _compute_linear_scaling_rope_parameters); linear added to a model
 * trained without it (PI) keeps the unscaled ones. */
bool
pe_rope_trained_scaled(const struct pe_config *cfg)
{
	return cfg->teach.train_scaled && cfg->rope.type == PE_ROPE_LINEAR;
}

/* The pairs beyond L with the angles trained with at L. */
size_t
pe_rope_never_turned(const struct pe_config *cfg, const struct pe_rope *r,
    double train_len, size_t *dest)
{
	return pe_rope_beyond(r, train_len, !pe_rope_trained_scaled(cfg), dest);
}

/* printf into why[cap] (when there is one) and return PE_EINVAL. */
static int
rope_refuse(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
rope_refuse(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && cap > 0) {
		va_start(ap, fmt);
		vsnprintf(why, cap, fmt, ap);
		va_end(ap);
	}
	return PE_EINVAL;
}

/* Why attention_scaling att is refused: the option that set it. */
static int
rope_refuse_att(const struct pe_config *cfg, double att, char *why,
                size_t cap)
{
	const struct pe_rope_scaling *s = &cfg->rope;
	const char *t = pe_rope_type_name(s->type);

	if (!isnan(s->attention_factor))
		return rope_refuse(why, cap,
		    "attention_factor %g: cos and sin times it, and the "
		    "similarity (up to its square times d_model %zu), are not "
		    "finite", s->attention_factor, cfg->d);
	if (s->type == PE_ROPE_LONGROPE && s->original_max_pos == 1)
		/* HF: math.log(1) = 0, a ZeroDivisionError */
		return rope_refuse(why, cap,
		    "original_max_pos 1: longrope's attention factor sqrt(1 + "
		    "ln(factor) / ln(original_max_position_embeddings)) divides by "
		    "ln 1 = 0 (HF raises ZeroDivisionError); use 2 or more, or "
		    "give attention_factor");
	if (s->type == PE_ROPE_YARN && !isnan(s->mscale) && s->mscale != 0.0 &&
	    !isnan(s->mscale_all_dim) && s->mscale_all_dim != 0.0)
		return rope_refuse(why, cap,
		    "mscale %g, mscale_all_dim %g: yarn's attention factor "
		    "get_mscale(factor, mscale) / get_mscale(factor, "
		    "mscale_all_dim) is %g, not a finite number whose square "
		    "times d_model stays finite", s->mscale, s->mscale_all_dim, att);
	return rope_refuse(why, cap,
	    "factor %g: %s's attention factor is %g, not a finite number "
	    "whose square times d_model stays finite", s->factor, t, att);
}

/* Why inv_freq[j] = w is refused (what of it is not finite). */
static int
rope_refuse_freq(const struct pe_config *cfg, size_t j, double w,
                 const char *what, char *why, size_t cap)
{
	const struct pe_rope_scaling *s = &cfg->rope;
	const char *t = pe_rope_type_name(s->type);

	if (s->type == PE_ROPE_LONGROPE) {
		bool lng = cfg->n > s->original_max_pos;
		const double *ext = lng ? s->long_factor : s->short_factor;
		return rope_refuse(why, cap,
		    "%s_factor: entry %zu (%g) makes inv_freq[%zu] = %g, and %s "
		    "is not finite", lng ? "long" : "short", j, ext[j], j, w,
		    what);
	}
	if (s->type == PE_ROPE_DEFAULT)
		return rope_refuse(why, cap, "base %g: inv_freq[%zu] = %g, and "
		    "%s is not finite", cfg->base, j, w, what);
	return rope_refuse(why, cap,
	    "factor %g: %s scaling makes inv_freq[%zu] = %g, and %s is not "
	    "finite", s->factor, t, j, w, what);
}

/* Check that cfg's rope tables are finite. */
int
pe_rope_check(const struct pe_config *cfg, char *why, size_t cap)
{
	struct pe_rope r;
	int rc = PE_OK;

	if (pe_rope_init(&r, cfg) != PE_OK)
		return PE_OK; /* out of memory: pe_rope_init says so later */
	/* the rope's own tables (inv_freq, wavelength, angles, cos and sin,
	 * similarity) */
	double att = r.attention_scaling;
	double last = cfg->n > 0 ? (double)(cfg->n - 1) : 0.0;
	if (!(isfinite(att) && isfinite(att * att * (double)cfg->d)))
		rc = rope_refuse_att(cfg, att, why, cap);
	for (size_t j = 0; j < r.npairs && rc == PE_OK; j++) {
		double w = r.inv_freq[j];
		if (!isfinite(w))
			rc = rope_refuse_freq(cfg, j, w, "it", why, cap);
		else if (!isfinite(PE_TWO_PI / w))
			rc = rope_refuse_freq(cfg, j, w,
			    "its wavelength 2π/inv_freq", why, cap);
		else if (!isfinite(last * w))
			rc = rope_refuse_freq(cfg, j, w,
			    "the angle (seq_len − 1)·inv_freq", why, cap);
	}
	pe_rope_free(&r);
	return rc;
}

static const char *const rope_names[PE_ROPE_TYPE_COUNT] = {
	"default", "linear", "dynamic", "yarn", "longrope", "llama3",
};

/* HF's rope_type name. */
const char *
pe_rope_type_name(enum pe_rope_type t)
{
	return (unsigned)t < PE_ROPE_TYPE_COUNT ? rope_names[t] : "?";
}

/* Check the rope_scaling parameters. */
static int
rope_check_scaling(const struct pe_config *cfg, char *why, size_t cap)
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

/* A decoupled head (DeepSeek's MLA): its rotated and content parts. */
static int
rope_check_decoupled(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_attn *t = &cfg->attn;

	if (t->qk_rope_dim == 0 && t->qk_nope_dim == 0)
		return PE_OK;
	if (t->qk_rope_dim < 2 || t->qk_rope_dim % 2 != 0)
		FAIL("rope_dim %zu: the rotated part of a decoupled head "
		     "(DeepSeek's qk_rope_head_dim) must be even and at least 2 "
		     "(each pair rotates two dimensions)", t->qk_rope_dim);
	if (t->qk_rope_dim + t->qk_nope_dim != cfg->d)
		FAIL("rope_dim %zu + nope_dim %zu = %zu: the two parts of a "
		     "decoupled head must make the head dimension d_model %zu "
		     "(DeepSeek-V3: 64 + 128 = 192)", t->qk_rope_dim,
		    t->qk_nope_dim, t->qk_rope_dim + t->qk_nope_dim, cfg->d);
	if (cfg->rope.partial_rotary != 1.0)
		FAIL("partial_rotary %g: a decoupled head's rotated part is its "
		     "rope_dim; partial_rotary must stay 1",
		    cfg->rope.partial_rotary);
	return PE_OK;
}

/* rope: pairs of dimensions, then the scaling. */
int
pe_rope_config_check(const struct pe_config *cfg, char *why, size_t cap)
{
	int rc;

	if (cfg->d % 2 != 0)
		FAIL("d_model %zu: rope needs an even d_model (each pair "
		     "rotates two dimensions)", cfg->d);
	if ((rc = rope_check_decoupled(cfg, why, cap)) != PE_OK)
		return rc;
	return rope_check_scaling(cfg, why, cap);
}

/* R_p x for p = p0 .. p0+npos-1 (pe_rope_apply), row k's x at
 * x + k * stride. */
int
pe_rope_rotate_rows(const struct pe_config *cfg, size_t p0, size_t npos,
    const double *x, size_t stride, double *dest)
{
	struct pe_rope r;
	int rc;

	if ((rc = pe_rope_init(&r, cfg)) != PE_OK)
		return rc;
	for (size_t k = 0; k < npos; k++)
		pe_rope_apply(&r, x + k * stride, (double)(p0 + k),
		    dest + k * cfg->d);
	pe_rope_free(&r);
	return PE_OK;
}

/* inv_freq of the rotary pairs (scaled); NaN when the rope cannot be
 * made. */
size_t
pe_rope_freqs(const struct pe_config *cfg, double *dest)
{
	size_t np = pe_rope_rotary_dim(cfg) / 2;
	struct pe_rope r;

	if (dest == NULL)
		return np;
	if (pe_rope_init(&r, cfg) != PE_OK) {
		for (size_t j = 0; j < np; j++)
			dest[j] = NAN;
		return np;
	}
	for (size_t j = 0; j < np; j++)
		dest[j] = j < r.npairs ? r.inv_freq[j] : NAN;
	pe_rope_free(&r);
	return np;
}

/* The base and the scaling: "base 500000 · llama3 ×8" (longrope's factor
 * only when the config gave one). */
int
pe_rope_describe(const struct pe_config *cfg, char *dest, size_t cap)
{
	const struct pe_rope_scaling *s = &cfg->rope;

	if (s->type == PE_ROPE_DEFAULT)
		return snprintf(dest, cap, "base %.15g", cfg->base);
	if (s->type == PE_ROPE_LONGROPE && !s->factor_given)
		return snprintf(dest, cap, "base %.15g · %s", cfg->base,
		    pe_rope_type_name(s->type));
	return snprintf(dest, cap, "base %.15g · %s ×%.15g", cfg->base,
	    pe_rope_type_name(s->type), s->factor);
}
