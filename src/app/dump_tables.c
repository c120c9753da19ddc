/* dump's tables: one row per table (struct dump_table, dump_impl.h), each
 * with the fill that writes rows [r0, r1) and the prep that makes what the
 * rows share. A table one encoding has names it; the toy attention's and
 * the worked example's follow the encodings' capabilities. Fills run on
 * several threads at once: they only read their struct dump_ctx. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/dump_impl.h"
#include "pescope/alibi.h"
#include "pescope/encoding.h"
#include "pescope/example.h"
#include "pescope/mrope.h"
#include "pescope/nope.h"
#include "pescope/relative.h"
#include "pescope/rope2d.h"
#include "pescope/sinusoidal.h"
#include "pescope/train.h"
#include "pescope/vit2d.h"
#include "pescope/xpos.h"

#define E(x) (1u << PE_ENC_##x)
/* the encodings whose similarity is a field (pe_field_value) */
#define E_SIM_FIELD (E(LEARNED) | E(NOPE) | E(MROPE) | E(XPOS) | E(ROPE2D))
#define A(x) (1u << PE_ATTN_##x)

/* The options of the toy tables: the sentence, its order, the mask and
 * relative's learned bias; they take d_model and --head with every
 * encoding (the toy's width, alibi's head, the bias's row). */
#define TOY_OPTS "tokens permute mask bias-file"
#define TOY_ALSO "d-model head"

#define FILL_ARGS const struct dump_ctx *x, size_t r0, size_t r1, void *dest
static int fill_pe_wave(FILL_ARGS);
static int fill_pe_learned(FILL_ARGS);
static int fill_pe_vit2d(FILL_ARGS);
static int fill_similarity(FILL_ARGS);
static int fill_vit2d_similarity(FILL_ARGS);
static int fill_rope(FILL_ARGS);
static int fill_alibi(FILL_ARGS);
static int fill_relative(FILL_ARGS);
static int fill_mask(FILL_ARGS);
static int fill_toy(FILL_ARGS);
static int fill_sum(FILL_ARGS);
static int fill_rotated(FILL_ARGS);
static int fill_shift(FILL_ARGS);
static int fill_beyond(FILL_ARGS);
static int fill_recency(FILL_ARGS);
static int fill_share(FILL_ARGS);
static int fill_temperature(FILL_ARGS);
static int check_temperature(const struct dump_ctx *x, char *why, size_t cap);
static int check_sinks(const struct dump_ctx *x, char *why, size_t cap);
static int check_toy(const struct dump_ctx *x, char *why, size_t cap);
static int check_embedding(const struct dump_ctx *x, char *why, size_t cap);
static int check_train_len(const struct dump_ctx *x, char *why, size_t cap);
static int check_trained(const struct dump_ctx *x, char *why, size_t cap);
static int fill_loss(FILL_ARGS);
static int prep_sinusoid(struct dump_ctx *x);
static int prep_vit2d(struct dump_ctx *x);
static int prep_sim_sinusoid(struct dump_ctx *x);
static int prep_sim_rope(struct dump_ctx *x);
static int prep_sim_vit2d(struct dump_ctx *x);
static int prep_sim_field(struct dump_ctx *x);
static int prep_rope(struct dump_ctx *x);
static int prep_slopes(struct dump_ctx *x);
static int prep_relative(struct dump_ctx *x);
static int prep_toy(struct dump_ctx *x);
static int prep_beyond(struct dump_ctx *x);
static int prep_bias(struct dump_ctx *x);
static int prep_mask(struct dump_ctx *x);
#define FILL32_ARGS const struct dump_ctx *x, size_t r0, size_t r1, float *dest
static int fill32_pe_wave(FILL32_ARGS);
static int fill32_pe_vit2d(FILL32_ARGS);
static int fill32_rope(FILL32_ARGS);

const struct dump_table dump_tables[] = {
	{"pe", E(SINUSOIDAL), 0, {AX_POS, AX_D}, false, fill_pe_wave, NULL, NULL,
	    NULL, prep_sinusoid, .fill32 = fill32_pe_wave},
	{"pe", E(LEARNED), 0, {AX_POS, AX_D}, false, fill_pe_learned},
	{"pe", E(VIT2D), 0, {AX_POS, AX_D}, false, fill_pe_vit2d, NULL, NULL,
	    NULL, prep_vit2d, .fill32 = fill32_pe_vit2d},
	{"similarity", E(SINUSOIDAL), 0, {AX_POS, AX_POS}, false,
	    fill_similarity, NULL, NULL, NULL, prep_sim_sinusoid,
	    .fill32 = dump_fill32_lines},
	{"similarity", E(ROPE), 0, {AX_POS, AX_POS}, false, fill_similarity,
	    NULL, NULL, NULL, prep_sim_rope, .rope = true,
	    .fill32 = dump_fill32_lines},
	{"similarity", E(VIT2D), 0, {AX_POS, AX_POS}, false,
	    fill_vit2d_similarity, NULL, NULL, NULL, prep_sim_vit2d},
	{"similarity", E_SIM_FIELD, 0, {AX_POS, AX_POS}, false, fill_similarity,
	    NULL, NULL, NULL, prep_sim_field},
	{"profile", E(SINUSOIDAL), 0, {AX_POS}, false, fill_similarity, NULL,
	    NULL, NULL, prep_sim_sinusoid},
	{"profile", E(ROPE), 0, {AX_POS}, false, fill_similarity, NULL, NULL,
	    NULL, prep_sim_rope, .rope = true},
	{"profile", E(VIT2D), 0, {AX_POS}, false, fill_vit2d_similarity, NULL,
	    NULL, NULL, prep_sim_vit2d},
	{"profile", E_SIM_FIELD, 0, {AX_POS}, false, fill_similarity, NULL, NULL,
	    NULL, prep_sim_field},
	{"cosine", E(VIT2D), 0, {AX_POS, AX_POS}, false, fill_vit2d_similarity,
	    NULL, NULL, NULL, prep_sim_vit2d},
	{"inv_freq", E(ROPE), 0, {AX_PAIRS}, false, fill_rope, .rope = true},
	{"angles", E(ROPE), 0, {AX_POS, AX_PAIRS}, false, fill_rope,
	    .rope = true, .fill32 = fill32_rope},
	{"cos", E(ROPE), 0, {AX_POS, AX_ROT}, false, fill_rope, NULL, NULL, NULL,
	    prep_rope, .rope = true, .fill32 = fill32_rope},
	{"sin", E(ROPE), 0, {AX_POS, AX_ROT}, false, fill_rope, NULL, NULL, NULL,
	    prep_rope, .rope = true, .fill32 = fill32_rope},
	{"wavelength", E(ROPE), 0, {AX_PAIRS}, false, fill_rope, .rope = true},
	{"attention_scaling", E(ROPE), 0, {AX_ONE}, false, fill_rope,
	    .rope = true},
	{"slopes", E(ALIBI), 0, {AX_HEADS}, false, fill_alibi, NULL, NULL, NULL,
	    prep_slopes},
	{"bias", E(ALIBI), 0, {AX_HEADS, AX_POS, AX_POS}, false, fill_alibi,
	    NULL, NULL, NULL, prep_bias, .fill32 = dump_fill32_lines},
	{"buckets", E(RELATIVE), 1u << PE_REL_T5, {AX_POS, AX_POS}, true,
	    fill_relative, NULL, NULL, NULL, prep_relative},
	{"index", E(RELATIVE), 1u << PE_REL_SHAW, {AX_POS, AX_POS}, true,
	    fill_relative, NULL, NULL, NULL, prep_relative},
	/* the layer's mask (attn.h: causal, a window, chunks), 0 or -inf */
	{"mask", E(NOPE) | E(ROPE), 0, {AX_POS, AX_POS}, false, fill_mask,
	    NULL, NULL, NULL, prep_mask, .fill32 = dump_fill32_lines},
	/* Llama 4's query temperature of a NoPE layer, by position */
	{"temperature", E(NOPE), 0, {AX_POS}, false, fill_temperature,
	    check_temperature},
	/* the toy attention (toy.h): every encoding that has one */
	{"token_embeddings", 0, 0, {AX_TOKENS, AX_D}, false, fill_toy,
	    check_toy, "tokens permute", "d-model", .caps = PE_CAP_TOY},
	{"scores", 0, 0, {AX_TOKENS, AX_TOKENS}, false, fill_toy, check_toy,
	    TOY_OPTS, TOY_ALSO, prep_toy, .caps = PE_CAP_TOY},
	{"attention", 0, 0, {AX_TOKENS, AX_TOKENS}, false, fill_toy,
	    check_toy, TOY_OPTS, TOY_ALSO, prep_toy, .caps = PE_CAP_TOY},
	/* the toy with a layer's sinks (GPT-OSS): each query's share to its
	 * head's sink; a score split into a decoupled head's parts */
	{"sink_share", E(NOPE) | E(ROPE), 0, {AX_TOKENS}, false, fill_toy,
	    check_sinks, TOY_OPTS, TOY_ALSO, prep_toy},
	{"score_content", E(ROPE), 0, {AX_TOKENS, AX_TOKENS}, false, fill_toy,
	    check_toy, TOY_OPTS, TOY_ALSO, prep_toy},
	{"score_position", E(ROPE), 0, {AX_TOKENS, AX_TOKENS}, false, fill_toy,
	    check_toy, TOY_OPTS, TOY_ALSO, prep_toy},
	/* the worked examples (example.h: x + PE(p), R_p x) and the
	 * properties (sinusoidal.h, rope.h, alibi.h, nope.h) */
	{"sum", 0, 0, {AX_POS, AX_D}, false, fill_sum, check_embedding,
	    "embedding", NULL, .caps = PE_CAP_EXAMPLE, .attns = A(ADD)},
	{"rotated", 0, 0, {AX_POS, AX_D}, false, fill_rotated, check_embedding,
	    "embedding", NULL, .caps = PE_CAP_EXAMPLE, .attns = A(ROTATE)},
	{"shift", E(SINUSOIDAL), 0, {AX_D, AX_D}, false, fill_shift, NULL,
	    "shift", NULL},
	{"decay", E(ROPE), 0, {AX_POS}, false, fill_rope, .rope = true},
	{"beyond", E(ROPE), 0, {AX_BEYOND}, true, fill_beyond, check_train_len,
	    "train-len", NULL, prep_beyond, .rope = true},
	{"recency", E(ALIBI), 0, {AX_POS}, false, fill_recency, NULL, NULL, NULL,
	    prep_slopes},
	{"start_share", E(NOPE), 0, {AX_POS}, false, fill_share},
	/* --train (train.h): the run's curves */
	{"loss", E(LEARNED), 0, {AX_STEPS, AX_CURVE}, false, fill_loss,
	    check_trained},
	/* mrope (mrope.h); similarity and profile above */
	{"positions", E(MROPE), 0, {AX_POS, AX_THREE}, true, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_mrope},
	{"angles", E(MROPE), 0, {AX_POS, AX_HALF}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_mrope},
	{"cos", E(MROPE), 0, {AX_POS, AX_D}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_mrope},
	{"sin", E(MROPE), 0, {AX_POS, AX_D}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_mrope},
	/* xpos (xpos.h): the queries' tables */
	{"scale", E(XPOS), 0, {AX_POS, AX_HALF}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_xpos},
	{"cos", E(XPOS), 0, {AX_POS, AX_D}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_xpos},
	{"sin", E(XPOS), 0, {AX_POS, AX_D}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_xpos},
	/* rope2d (rope2d.h): the patches' angles and freqs_cis */
	{"angles", E(ROPE2D), 0, {AX_POS, AX_HALF}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_rope2d},
	{"cos", E(ROPE2D), 0, {AX_POS, AX_HALF}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_rope2d},
	{"sin", E(ROPE2D), 0, {AX_POS, AX_HALF}, false, dump_fill_whole, NULL, NULL,
	    NULL, dump_prep_rope2d},
};
const size_t dump_ntables = sizeof dump_tables / sizeof dump_tables[0];

/* The toy sentence of config c: its tokens, reordered by --permute. */
int
dump_toy_sentence(const struct pe_config *c, struct pe_toy_sentence *dest)
{
	struct pe_toy_sentence s;
	int st = pe_toy_split(c->teach.tokens, &s);

	if (st != PE_OK)
		return st;
	if (c->teach.permute == NULL) {
		*dest = s;
		return PE_OK;
	}
	if (c->teach.n_permute != s.count)
		return PE_EINVAL;
	return pe_toy_permute(&s, c->teach.permute, dest);
}

/* The pairs rope's beyond lists: those whose unscaled wavelength (the
 * frequencies trained with at the original context) exceeds --train-len. */
size_t
dump_beyond(const struct pe_config *c, const struct pe_rope *r, size_t *dest)
{
	return pe_rope_beyond(r, (double)c->teach.train_len, true, dest);
}

/* How exact a wave must be for the dtype the values are written in. */
static enum pe_wave_accuracy
wave_accuracy(const struct dump_ctx *x)
{
	return x->dtype == PE_F32 ? PE_WAVE_F32 : PE_WAVE_EXACT;
}

/* Make x->p.wave from nw frequencies. */
static int
prep_wave(struct dump_ctx *x, const double *w, size_t nw)
{
	int st = pe_wave_init(&x->p.wave, w, nw, wave_accuracy(x));
	x->p.has_wave = st == PE_OK;
	return st;
}

/* Make x->p.wave from nw frequencies freq(i, d, base, layout). */
static int
prep_freqs(struct dump_ctx *x, size_t nw,
    double (*freq)(const struct pe_config *c, size_t i))
{
	double *w = malloc((nw > 0 ? nw : 1) * sizeof *w);

	if (w == NULL)
		return PE_ENOMEM;
	for (size_t i = 0; i < nw; i++)
		w[i] = freq(x->c, i);
	int st = prep_wave(x, w, nw);
	free(w);
	return st;
}

/* Sinusoidal frequency i of c's layout. */
static double
sinusoid_freq(const struct pe_config *c, size_t i)
{
	return pe_sinusoidal_freq(i, c->d, c->base, c->layout);
}

/* vit2d's frequency i of each half. */
static double
vit2d_freq(const struct pe_config *c, size_t i)
{
	return pe_vit2d_omega(i, c->d);
}

/* The sinusoid's d/2 frequencies (its layout's) as a wave. */
static int
prep_sinusoid(struct dump_ctx *x)
{
	return prep_freqs(x, x->c->d / 2, sinusoid_freq);
}

/* vit2d's d/4 frequencies (each half's) as a wave. */
static int
prep_vit2d(struct dump_ctx *x)
{
	return prep_freqs(x, x->c->d / 4, vit2d_freq);
}

/* Release what a prep made. */
void
dump_prep_free(struct dump_prep *p)
{
	if (p->has_wave)
		pe_wave_free(&p->wave);
	if (p->has_field)
		pe_field_free(&p->field);
	free(p->v);
	free(p->iv);
	free(p->line);
	free(p->line32);
	memset(p, 0, sizeof *p);
}

/* |a - b|. */
static size_t
dist(size_t a, size_t b)
{
	return a > b ? a - b : b - a;
}

/* Rows of vit2d's pe: patch r = h W + w is [sin w om | cos w om | sin h om
 * | cos h om] (MAE); the patches of one grid row share the h half. */
static int
fill_pe_vit2d(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	static const struct pe_wave_out halves = {false, false, true, 1.0};
	size_t d = x->c->d, gw = x->c->grid_w;
	double *v = dest;

	for (size_t r = r0; r < r1;) {
		size_t h = r / gw, w = r % gw;
		size_t cnt = gw - w < r1 - r ? gw - w : r1 - r;
		double *row = v + (r - r0) * d;
		int st = pe_wave_rows(&x->p.wave, w, cnt, &halves, row, d);
		if (st == PE_OK)
			st = pe_wave_rows(&x->p.wave, h, 1, &halves, row + d / 2, d);
		if (st != PE_OK)
			return st;
		for (size_t k = 1; k < cnt; k++)
			memcpy(row + k * d + d / 2, row + d / 2, d / 2 * sizeof *row);
		r += cnt;
	}
	return PE_OK;
}

/* vit2d's pe as floats (fill_pe_vit2d's rows). */
static int
fill32_pe_vit2d(const struct dump_ctx *x, size_t r0, size_t r1, float *dest)
{
	static const struct pe_wave_out halves = {false, false, true, 1.0};
	size_t d = x->c->d, gw = x->c->grid_w;

	for (size_t r = r0; r < r1;) {
		size_t h = r / gw, w = r % gw;
		size_t cnt = gw - w < r1 - r ? gw - w : r1 - r;
		float *row = dest + (r - r0) * d;
		int st = pe_wave_rows_f32(&x->p.wave, w, cnt, &halves, row, d);
		if (st == PE_OK)
			st = pe_wave_rows_f32(&x->p.wave, h, 1, &halves, row + d / 2,
			    d);
		if (st != PE_OK)
			return st;
		for (size_t k = 1; k < cnt; k++)
			memcpy(row + k * d + d / 2, row + d / 2, d / 2 * sizeof *row);
		r += cnt;
	}
	return PE_OK;
}

/* The sinusoid's output layout: pairs, or halves for split and t2t. */
static struct pe_wave_out
pe_wave_layout(const struct pe_config *c)
{
	bool halves = c->layout == PE_LAYOUT_SPLIT || c->layout == PE_LAYOUT_T2T;
	struct pe_wave_out out = {!halves, false, true, 1.0};
	return out;
}

/* The sinusoid's pe, in its layout. */
static int
fill_pe_wave(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	struct pe_wave_out out = pe_wave_layout(x->c);

	return pe_wave_rows(&x->p.wave, r0, r1 - r0, &out, dest, x->c->d);
}

/* The sinusoid's pe as floats. */
static int
fill32_pe_wave(const struct dump_ctx *x, size_t r0, size_t r1, float *dest)
{
	struct pe_wave_out out = pe_wave_layout(x->c);

	return pe_wave_rows_f32(&x->p.wave, r0, r1 - r0, &out, dest, x->c->d);
}

/* The learned table's pe (NaN past its rows). */
static int
fill_pe_learned(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	const struct pe_config *c = x->c;
	double *v = dest;

	for (size_t p = r0; p < r1; p++)
		for (size_t j = 0; j < c->d; j++)
			v[(p - r0) * c->d + j] =
			    p < c->max_len ? c->table[p * c->d + j] : NAN;
	return PE_OK;
}

/* What the similarities share. Sinusoidal and rope: S depends on k = i - j
 * only, sum_f cos(k w_f) (rope: att^2 times it plus one per pass-through
 * pair, field_sim.c); the matrix reads a profile of every distance. vit2d:
 * PE_i . PE_j = C_W(w_i - w_j) + C_H(h_i - h_j), C(k) = sum_q cos(k om_q),
 * and every row's squared norm is C_W(0) + C_H(0) = d/2 (pe_vit2d_cosine).
 * Learned, nope and the rest: their field's values. */

/* The line of a wave's similarity: the profile mirrored, t standing for
 * distance |n - 1 - t|. */
static int
line_sim(const struct dump_ctx *x, size_t h, double *dest)
{
	(void)h;
	for (size_t t = 0; t < 2 * x->n - 1; t++)
		dest[t] = x->p.v[dist(x->n - 1, t)];
	return PE_OK;
}

/* A wave's similarity (x->p.wave, scale, offset set): the matrix reads a
 * profile of every distance, as its line; the profile's rows are
 * distances. */
static int
prep_sim_profile(struct dump_ctx *x)
{
	int st = PE_OK;

	if (strcmp(x->t->name, "similarity") != 0)
		return PE_OK;
	x->p.nv = x->n;
	if ((x->p.v = malloc(x->n * sizeof *x->p.v)) == NULL)
		return PE_ENOMEM;
	st = pe_wave_cos_sums(&x->p.wave, 0, x->n, x->p.v);
	for (size_t k = 0; st == PE_OK && k < x->n; k++)
		x->p.v[k] = x->p.scale * x->p.v[k] + x->p.offset;
	return st == PE_OK ? dump_prep_lines(x, 1, line_sim) : st;
}

/* The sinusoid's similarity: its frequencies. */
static int
prep_sim_sinusoid(struct dump_ctx *x)
{
	int st;

	x->p.scale = 1.0;
	x->p.offset = 0.0;
	if ((st = prep_sinusoid(x)) != PE_OK)
		return st;
	return prep_sim_profile(x);
}

/* rope's similarity: att^2 times the inverse frequencies' cosines plus
 * one per pass-through pair. */
static int
prep_sim_rope(struct dump_ctx *x)
{
	int st;

	x->p.scale = x->r->attention_scaling * x->r->attention_scaling;
	x->p.offset = (double)((x->r->d - x->r->rot) / 2);
	if ((st = prep_wave(x, x->r->inv_freq, x->r->npairs)) != PE_OK)
		return st;
	return prep_sim_profile(x);
}

/* vit2d's similarity: the cosine sums by grid distance along each axis. */
static int
prep_sim_vit2d(struct dump_ctx *x)
{
	const struct pe_config *c = x->c;
	int st;

	if ((st = prep_vit2d(x)) != PE_OK)
		return st;
	x->p.nv = c->grid_w + c->grid_h;
	if ((x->p.v = malloc(x->p.nv * sizeof *x->p.v)) == NULL)
		return PE_ENOMEM;
	st = pe_wave_cos_sums(&x->p.wave, 0, c->grid_w, x->p.v);
	if (st == PE_OK)
		st = pe_wave_cos_sums(&x->p.wave, 0, c->grid_h, x->p.v + c->grid_w);
	return st;
}

/* The similarity field of the other encodings. */
static int
prep_sim_field(struct dump_ctx *x)
{
	int st = pe_field_init(&x->p.field, PE_FIELD_SIMILARITY, x->c);

	x->p.has_field = st == PE_OK;
	return st;
}

/* vit2d's similarity of patches i and j (cosine: divided by the norms). */
static double
vit2d_similarity(const struct dump_ctx *x, size_t i, size_t j, bool cosine)
{
	size_t gw = x->c->grid_w;
	const double *cw = x->p.v, *ch = x->p.v + gw;
	double s = cw[dist(i % gw, j % gw)] + ch[dist(i / gw, j / gw)];
	return cosine ? s / (cw[0] + ch[0]) : s;
}

/* similarity and profile (row 0 of it): a wave's profile, or the field. */
static int
fill_similarity(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	bool profile = strcmp(x->t->name, "profile") == 0;
	size_t n = x->n, cols = profile ? 1 : n;
	double *v = dest;

	if (profile && x->p.has_wave) {
		int st = pe_wave_cos_sums(&x->p.wave, r0, r1 - r0, v);
		for (size_t k = 0; st == PE_OK && k < r1 - r0; k++)
			v[k] = x->p.scale * v[k] + x->p.offset;
		return st;
	}
	if (!profile && x->p.line != NULL) {
		dump_lines_rows(x, r0, r1, v, false);
		return PE_OK;
	}
	for (size_t r = r0; r < r1; r++) {
		double *row = v + (r - r0) * cols;
		size_t i = profile ? 0 : r, j0 = profile ? r : 0;
		for (size_t j = j0; j < j0 + cols; j++)
			row[j - j0] = x->p.has_wave ? x->p.v[dist(i, j)]
			    : pe_field_value(&x->p.field, i, j);
	}
	return PE_OK;
}

/* vit2d's similarity, profile (row 0 of it) and cosine. */
static int
fill_vit2d_similarity(const struct dump_ctx *x, size_t r0, size_t r1,
    void *dest)
{
	bool profile = strcmp(x->t->name, "profile") == 0;
	bool cosine = strcmp(x->t->name, "cosine") == 0;
	size_t n = x->n, cols = profile ? 1 : n;
	double *v = dest;

	for (size_t r = r0; r < r1; r++) {
		double *row = v + (r - r0) * cols;
		size_t i = profile ? 0 : r, j0 = profile ? r : 0;
		for (size_t j = j0; j < j0 + cols; j++)
			row[j - j0] = vit2d_similarity(x, i, j, cosine);
	}
	return PE_OK;
}

/* rope's cos and sin: the inverse frequencies as a wave. */
static int
prep_rope(struct dump_ctx *x)
{
	return prep_wave(x, x->r->inv_freq, x->r->npairs);
}

/* rope's frequency tables and RoFormer's decay bound. */
static int
fill_rope(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	const struct pe_rope *r = x->r;
	const char *t = x->t->name;
	double *v = dest;

	if (strcmp(t, "decay") == 0)
		return pe_rope_decay_fill(r, r0, r1 - r0, v);
	if (strcmp(t, "inv_freq") == 0 || strcmp(t, "wavelength") == 0) {
		bool inv = t[0] == 'i';
		for (size_t j = r0; j < r1; j++)
			v[j - r0] = inv ? r->inv_freq[j] : pe_rope_wavelength(r, j, false);
	} else if (strcmp(t, "attention_scaling") == 0) {
		v[0] = r->attention_scaling;
	} else if (strcmp(t, "angles") == 0) {
		return pe_rope_angle_rows(r, r0, r1 - r0, v);
	} else { /* cos or sin, HF's cat(freqs, freqs) or repeat_interleave */
		bool cos = strcmp(t, "cos") == 0;
		struct pe_wave_out out = {r->pairing == PE_PAIR_INTERLEAVED, cos,
			cos, r->attention_scaling};
		return pe_wave_rows(&x->p.wave, r0, r1 - r0, &out, v, r->rot);
	}
	return PE_OK;
}

/* rope's angles, cos and sin as floats. */
static int
fill32_rope(const struct dump_ctx *x, size_t r0, size_t r1, float *dest)
{
	const struct pe_rope *r = x->r;
	bool cos = strcmp(x->t->name, "cos") == 0;
	struct pe_wave_out out = {r->pairing == PE_PAIR_INTERLEAVED, cos, cos,
		r->attention_scaling};

	if (strcmp(x->t->name, "angles") == 0)
		return pe_rope_angle_rows_f32(r, r0, r1 - r0, dest);
	return pe_wave_rows_f32(&x->p.wave, r0, r1 - r0, &out, dest, r->rot);
}

/* alibi's slopes, for its bias and recency. */
static int
prep_slopes(struct dump_ctx *x)
{
	x->p.nv = x->c->heads;
	if ((x->p.v = malloc(x->p.nv * sizeof *x->p.v)) == NULL)
		return PE_ENOMEM;
	return pe_alibi_slopes(x->c->heads, x->p.v);
}

/* Head h's bias by query - key. */
static int
line_bias(const struct dump_ctx *x, size_t h, double *dest)
{
	return pe_alibi_bias_line(x->p.v[h], x->n, x->c->alibi_mode, dest);
}

/* alibi's bias: the slopes and each head's line. */
static int
prep_bias(struct dump_ctx *x)
{
	int st = prep_slopes(x);
	return st == PE_OK ? dump_prep_lines(x, x->c->heads, line_bias) : st;
}

/* alibi's slopes and bias (rows by head, then query). */
static int
fill_alibi(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	double *v = dest;

	if (strcmp(x->t->name, "slopes") == 0) {
		memcpy(v, x->p.v + r0, (r1 - r0) * sizeof *v);
		return PE_OK;
	}
	if (x->p.line != NULL) {
		dump_lines_rows(x, r0, r1, v, false);
		return PE_OK;
	}
	return pe_alibi_bias_rows(x->c, x->p.v, r0, r1, v);
}

/* t5 buckets or shaw's indices, once per distance. */
static int
prep_relative(struct dump_ctx *x)
{
	x->p.nv = 2 * x->n - 1;
	if ((x->p.iv = malloc(x->p.nv * sizeof *x->p.iv)) == NULL)
		return PE_ENOMEM;
	return pe_relative_by_distance(x->c, x->p.iv);
}

/* t5 buckets or shaw's clipped indices: row i reads distances -i.. */
static int
fill_relative(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	int64_t *v = dest;
	size_t n = x->n;

	for (size_t i = r0; i < r1; i++)
		memcpy(v + (i - r0) * n, x->p.iv + (n - 1 - i), n * sizeof *v);
	return PE_OK;
}

/* The mask by query - key. */
static int
line_mask(const struct dump_ctx *x, size_t h, double *dest)
{
	struct pe_attn t;

	(void)h;
	pe_config_attn(x->c, &t);
	/* element j of the line is key - query = j - (n - 1): the last
	 * query's row, continued past the last key */
	for (size_t j = 0; j < 2 * x->n - 1; j++)
		dest[j] = pe_attn_sees(&t, x->n - 1, j) ? 0.0 : -INFINITY;
	return PE_OK;
}

/* The layer's mask: one line when it depends on key - query alone (full,
 * a window); chunks are not (each fill asks the shape). */
static int
prep_mask(struct dump_ctx *x)
{
	struct pe_attn t;

	pe_config_attn(x->c, &t);
	if (t.span == PE_SPAN_CHUNKED)
		return PE_OK;
	return dump_prep_lines(x, 1, line_mask);
}

/* nope's causal mask. */
static int
fill_mask(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	struct pe_attn t;

	if (x->p.line != NULL) {
		dump_lines_rows(x, r0, r1, dest, false);
		return PE_OK;
	}
	pe_config_attn(x->c, &t);
	return pe_attn_mask_rows(&t, r0, r1 - r0, x->n, dest);
}

/* temperature: pe_attn_temperature at positions r0 .. r1-1. */
static int
fill_temperature(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	struct pe_attn t;
	double *v = dest;

	pe_config_attn(x->c, &t);
	for (size_t p = r0; p < r1; p++)
		v[p - r0] = pe_attn_temperature(&t, p);
	return PE_OK;
}

/* scores and attention: the whole [T, T] (T <= PE_TOY_MAX_TOKENS). */
static int
prep_toy(struct dump_ctx *x)
{
	struct pe_toy_sentence s;
	int st = dump_toy_sentence(x->c, &s);

	if (st != PE_OK)
		return st;
	const char *t = x->t->name;
	x->p.nv = s.count * s.count;
	if ((x->p.v = malloc(2 * x->p.nv * sizeof *x->p.v)) == NULL)
		return PE_ENOMEM;
	if (strcmp(t, "scores") == 0)
		return pe_toy_scores(x->c, &s, x->head, x->p.v);
	if (strcmp(t, "sink_share") == 0)
		return pe_toy_sink_share(x->c, &s, x->head, x->p.v);
	if (strcmp(t, "score_content") == 0)
		return pe_toy_score_parts(x->c, &s, x->head, x->p.v,
		    x->p.v + x->p.nv);
	if (strcmp(t, "score_position") == 0)
		return pe_toy_score_parts(x->c, &s, x->head, x->p.v + x->p.nv,
		    x->p.v);
	return pe_toy_attention(x->c, &s, x->head, x->p.v);
}

/* The toy attention's tables: token_embeddings (a row per token), scores,
 * attention. */
static int
fill_toy(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	struct pe_toy_sentence s;
	double *v = dest;
	int st = dump_toy_sentence(x->c, &s);

	if (st != PE_OK)
		return st;
	if (strcmp(x->t->name, "sink_share") == 0) { /* [T] */
		memcpy(v, x->p.v + r0, (r1 - r0) * sizeof *v);
		return PE_OK;
	}
	if (strcmp(x->t->name, "token_embeddings") != 0) {
		memcpy(v, x->p.v + r0 * s.count, (r1 - r0) * s.count * sizeof *v);
		return PE_OK;
	}
	for (size_t i = r0; i < r1; i++)
		pe_toy_embedding(s.word[i], s.len[i], x->c->d,
		    v + (i - r0) * x->c->d);
	return PE_OK;
}

/* sum: x + PE(p) for positions r0 .. r1-1 (the encoding's vector). */
static int
fill_sum(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	return pe_example_sum(x->c, x->c->teach.embedding, r0, r1 - r0, dest);
}

/* rotated: R_p x for positions r0 .. r1-1 (the encoding's rotation). */
static int
fill_rotated(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	return pe_config_def(x->c)->rotate(x->c, r0, r1 - r0,
	    x->c->teach.embedding, 0, dest);
}

/* sinusoidal's M_K. */
static int
fill_shift(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	const struct pe_config *c = x->c;
	return pe_sinusoidal_shift_rows(c->d, c->base, c->layout,
	    c->teach.shift, r0, r1, dest);
}

/* rope's pairs beyond --train-len, as int64 indices. */
static int
prep_beyond(struct dump_ctx *x)
{
	size_t *idx = malloc((x->r->npairs + 1) * sizeof *idx);

	if (idx == NULL)
		return PE_ENOMEM;
	x->p.nv = dump_beyond(x->c, x->r, idx);
	if ((x->p.iv = malloc((x->p.nv + 1) * sizeof *x->p.iv)) == NULL) {
		free(idx);
		return PE_ENOMEM;
	}
	for (size_t k = 0; k < x->p.nv; k++)
		x->p.iv[k] = (int64_t)idx[k];
	free(idx);
	return PE_OK;
}

/* rope's pairs beyond --train-len. */
static int
fill_beyond(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	memcpy(dest, x->p.iv + r0, (r1 - r0) * sizeof *x->p.iv);
	return PE_OK;
}

/* alibi's recency for the last query, averaged over heads. */
static int
fill_recency(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	const struct pe_config *c = x->c;
	double *v = dest;

	for (size_t j = r0; j < r1; j++)
		v[j - r0] = pe_alibi_recency(x->p.v, c->heads, c->alibi_mode,
		    x->n - 1, x->n, j, j + 1);
	return PE_OK;
}

/* nope's start-token share 1/(i+1). */
static int
fill_share(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	double *v = dest;
	(void)x;
	for (size_t i = r0; i < r1; i++)
		v[i - r0] = pe_nope_start_share(i);
	return PE_OK;
}

/* Whether the toy attention is defined here. */
static int
check_toy(const struct dump_ctx *x, char *why, size_t cap)
{
	struct pe_toy_sentence s;

	if (dump_toy_sentence(x->c, &s) != PE_OK) {
		snprintf(why, cap, "--tokens, --permute: the toy sentence needs 1..%d "
		    "words and --permute a permutation of their indices",
		    PE_TOY_MAX_TOKENS);
		return PE_EINVAL;
	}
	return pe_toy_check(x->c, &s, x->head, why, cap);
}

/* temperature needs the layer's temperature on. */
static int
check_temperature(const struct dump_ctx *x, char *why, size_t cap)
{
	struct pe_attn t;

	pe_config_attn(x->c, &t);
	if (t.temperature)
		return PE_OK;
	snprintf(why, cap, "--table temperature needs the layer's temperature "
	    "on (its queries are not scaled, every value would be 1); "
	    "--temperature turns on Llama 4's attn_temperature_tuning, which "
	    "its NoPE layers have");
	return PE_EINVAL;
}

/* sink_share needs sinks, and the toy. */
static int
check_sinks(const struct dump_ctx *x, char *why, size_t cap)
{
	struct pe_attn t;

	pe_config_attn(x->c, &t);
	if (t.sinks == NULL) {
		snprintf(why, cap, "--table sink_share needs --sinks LIST, a sink "
		    "logit a head (GPT-OSS's sinks)");
		return PE_EINVAL;
	}
	return check_toy(x, why, cap);
}

/* sum and rotated need the worked example's x. */
static int
check_embedding(const struct dump_ctx *x, char *why, size_t cap)
{
	if (x->c->teach.embedding != NULL)
		return PE_OK;
	snprintf(why, cap, "--table %s needs --embedding LIST: x, d_model (%zu) "
	    "numbers", x->t->name, x->c->d);
	return PE_EINVAL;
}

/* loss needs a training run. */
static int
check_trained(const struct dump_ctx *x, char *why, size_t cap)
{
	if (x->c->trainer != NULL)
		return PE_OK;
	snprintf(why, cap, "table loss needs train TASK: it is a training "
	    "run's curves");
	return PE_EINVAL;
}

/* The training run's curves, a row per step s = 0..N: s, the training
 * loss of step s (its batch before its update; nan at 0, where no step
 * was taken), and the held-out loss and accuracy measured after it (nan
 * between evaluations, which come every 10 steps; train.h). */
static int
fill_loss(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	const struct pe_trainer *tr = x->c->trainer;
	size_t nl, ne, every = pe_train_config(tr)->eval_every;
	const double *loss = pe_train_losses(tr, &nl);
	const struct pe_train_eval *ev = pe_train_evals(tr, &ne);
	double *v = dest;

	for (size_t s = r0; s < r1; s++, v += 4) {
		size_t e = s / every;
		bool has = s % every == 0 && e < ne && ev[e].step == s;
		v[0] = (double)s;
		v[1] = s >= 1 && s <= nl ? loss[s - 1] : NAN;
		v[2] = has ? ev[e].loss : NAN;
		v[3] = has ? ev[e].accuracy : NAN;
	}
	return PE_OK;
}

/* beyond needs a training length. */
static int
check_train_len(const struct dump_ctx *x, char *why, size_t cap)
{
	if (x->c->teach.train_len > 0)
		return PE_OK;
	snprintf(why, cap, "--table beyond needs --train-len L, the model's "
	    "training context (the rope presets set it)");
	return PE_EINVAL;
}
