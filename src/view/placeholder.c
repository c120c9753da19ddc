/* The placeholders a caption quotes from the kernel: one table
 * (pe_placeholders[]: name, arguments, encodings, what, fill) that the
 * loader checks a caption against and the frame fills for the state on
 * screen (placeholder_text.c reads it). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/alibi.h"
#include "pescope/attn.h"
#include "pescope/model.h"
#include "pescope/mrope.h"
#include "pescope/encoding.h"
#include "pescope/example.h"
#include "pescope/nope.h"
#include "pescope/relative.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"
#include "pescope/toy.h"
#include "pescope/train.h"

#include "view/lesson.h"
#include "view/placeholder_impl.h"
#include "view/view_impl.h"

/* A size_t of struct pe_config, printed as it is (fill_field). */
#define FIELD(member) NULL, offsetof(struct pe_config, member) + 1

/* printf into buf; returns 0. */
static int __attribute__((format(printf, 3, 4)))
put(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return 0;
}

/* A number as captions print it: 4 significant digits, no "-0". */
static int
put_num(char *buf, size_t cap, double v)
{
	if (isnan(v))
		return put(buf, cap, "undefined");
	if (isinf(v))
		return put(buf, cap, v < 0 ? "−∞" : "∞");
	if (fabs(v) >= 1e4 && fabs(v) < 1e12) /* 54412, not 5.441e+04 */
		return put(buf, cap, "%.0f", v);
	return put(buf, cap, "%.4g", v + 0.0);
}

/* A vector "[a, b, c]" at 3 significant digits, no-break spaces after
 * the commas (a caption never breaks a vector); past 8 numbers " …". */
static int
put_vec(char *buf, size_t cap, const double *v, size_t n)
{
	size_t o = 0;
	o += (size_t)snprintf(buf + o, cap - o, "[");
	for (size_t i = 0; i < n && i < 8 && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%.3g", i ? ",\u00a0" : "",
		    v[i] + 0.0);
	if (o < cap)
		snprintf(buf + o, cap - o, "%s]", n > 8 ? ",\u00a0…" : "");
	return 0;
}

/* Argument k, or the default dflt when not given. */
static long long
arg(const struct fillctx *f, size_t k, long long dflt)
{
	return k < f->na ? f->a[k] : dflt;
}

static int
fill_base(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%.10g", f->cfg->base);
}

/* The main map's element at the cursor (alibi: the head drawn large). */
static int
fill_value(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_field mf = f->m->main;
	size_t head = f->st->pane[f->st->focus].head;
	if (mf.kind == PE_FIELD_BIAS && head < f->cfg->heads)
		mf.head = head;
	return put_num(buf, cap, pe_field_value(&mf, f->st->cur_r,
	    f->st->cur_c));
}

static int
fill_row(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%zu", f->st->cur_r);
}

static int
fill_col(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%zu", f->st->cur_c);
}

/* The worked example's x (view_example.c's, --embedding or a toy word). */
static int
example_x(const struct fillctx *f, double **x)
{
	char src[200];
	if ((*x = calloc(f->cfg->d, sizeof **x)) == NULL)
		return PE_ENOMEM;
	view_example_vector(f->cfg, *x, src, sizeof src);
	return PE_OK;
}

static int
fill_x(const struct fillctx *f, char *buf, size_t cap)
{
	double *x;
	if (example_x(f, &x) != PE_OK)
		return put(buf, cap, "(out of memory)");
	put_vec(buf, cap, x, f->cfg->d);
	free(x);
	return 0;
}

/* What fill_pe_or_sum quotes (a row's part). */
enum { PE_ALONE, PE_SUM };

/* PE(P) (zero x) or x + PE(P), P from the argument or the cursor. */
static int
fill_pe_or_sum(const struct fillctx *f, char *buf, size_t cap)
{
	bool sum = f->part == PE_SUM;
	size_t d = f->cfg->d;
	double *x = NULL, *y = malloc(d * sizeof *y);
	long long p = arg(f, 0, (long long)f->st->cur_r);
	int rc = y == NULL ? PE_ENOMEM
	    : sum ? example_x(f, &x) : ((x = calloc(d, sizeof *x)) == NULL
						? PE_ENOMEM : PE_OK);
	if (rc == PE_OK)
		rc = pe_example_sum(f->cfg, x, (size_t)p, 1, y);
	if (rc == PE_OK)
		put_vec(buf, cap, y, d);
	else
		put(buf, cap, "(%s)", pe_strerror(rc));
	free(x);
	free(y);
	return 0;
}

/* What fill_norm quotes (a row's part). */
enum { NORM_X, NORM_SUM, ANGLE_SUM, NORM_ROTATED };

/* |x|, |x + PE(P)|, the angle between them (degrees) or |R_P x|. */
static int
fill_norm(const struct fillctx *f, char *buf, size_t cap)
{
	double *x, v = NAN;
	int rc;
	if ((rc = example_x(f, &x)) != PE_OK)
		return put(buf, cap, "(%s)", pe_strerror(rc));
	size_t p = (size_t)arg(f, 0, (long long)f->st->cur_r);
	if (f->part == NORM_X)
		v = pe_example_norm(x, f->cfg->d);
	else if (f->part == NORM_SUM)
		rc = pe_example_sum_norm(f->cfg, x, p, &v);
	else if (f->part == ANGLE_SUM) {
		rc = pe_example_sum_angle(f->cfg, x, p, &v);
		v = v * 180.0 / M_PI;
	} else {
		struct pe_rope r;
		if ((rc = pe_rope_init(&r, f->cfg)) == PE_OK) {
			rc = pe_example_rotated_norm(&r, x, p, &v);
			pe_rope_free(&r);
		}
	}
	free(x);
	if (rc != PE_OK)
		return put(buf, cap, "(%s)", pe_strerror(rc));
	return put_num(buf, cap, v);
}

/* Frequency of pair J (the encoding's: sinusoidal's layout's, rope's
 * scaled inv_freq). */
static double
freq(const struct fillctx *f, size_t j)
{
	size_t np = pe_config_freqs(f->cfg, NULL);
	double *w = np > 0 ? malloc(np * sizeof *w) : NULL, v = NAN;

	if (w != NULL) {
		pe_config_freqs(f->cfg, w);
		if (j < np)
			v = w[j];
	}
	free(w);
	return v;
}

/* Pairs of the frequencies: d/2 (sinusoidal), rope's rotary pairs. */
static size_t
npairs(const struct pe_config *c)
{
	return pe_config_freqs(c, NULL);
}

/* A pair index from the argument (default: the last pair); -1 = last. */
static size_t
pair_arg(const struct fillctx *f)
{
	long long j = arg(f, 0, -1);
	size_t np = npairs(f->cfg);
	if (j < 0 || (size_t)j >= np)
		return np - 1;
	return (size_t)j;
}

static int
fill_freq(const struct fillctx *f, char *buf, size_t cap)
{
	return put_num(buf, cap, freq(f, pair_arg(f)));
}

static int
fill_wavelength(const struct fillctx *f, char *buf, size_t cap)
{
	return put_num(buf, cap, 2 * M_PI / freq(f, pair_arg(f)));
}

static int
fill_pairs(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%zu", npairs(f->cfg));
}

/* PE(P) . PE(Q) (the similarity field), default the cursor's row and
 * column. */
static int
fill_dot(const struct fillctx *f, char *buf, size_t cap)
{
	if (!f->m->has_sim)
		return put(buf, cap, "(no dot product)");
	long long p = arg(f, 0, (long long)f->st->cur_r);
	long long q = arg(f, 1, p);
	size_t rows, cols;
	pe_field_shape(f->cfg, PE_FIELD_SIMILARITY, &rows, &cols);
	if ((size_t)p >= rows || (size_t)q >= cols)
		return put(buf, cap, "(past seq_len)");
	return put_num(buf, cap, pe_field_value(&f->m->sim, (size_t)p,
	    (size_t)q));
}

static int
fill_shift(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%lld", (long long)f->cfg->teach.shift);
}

/* The largest |PE(p+K) - M_K PE(p)| over the whole sequence. */
static int
fill_residual(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_config *c = f->cfg;
	double r;
	int rc = pe_sinusoidal_shift_residual(c->n, c->d, c->base, c->layout,
	    c->teach.shift, 0, c->n, &r);
	if (rc != PE_OK)
		return put(buf, cap, "(%s)", pe_strerror(rc));
	return put(buf, cap, "%.2g", r);
}

/* The positions p the residual runs over, p and p + K both in [0, n):
 * "0 to 60" (n 64, K 3). */
static int
fill_shift_range(const struct fillctx *f, char *buf, size_t cap)
{
	long long n = (long long)f->cfg->n, k = (long long)f->cfg->teach.shift;
	long long lo = k < 0 ? -k : 0, hi = k < 0 ? n - 1 : n - 1 - k;
	if (hi < lo)
		return put(buf, cap, "(none: |K| ≥ seq_len)");
	return put(buf, cap, "%lld to %lld", lo, hi);
}

/* The last position with a row. */
static int
fill_last_pos(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%zu", f->cfg->max_len - 1);
}

/* "2049th": the first token (counting from one) with no row. */
static int
fill_past_token(const struct fillctx *f, char *buf, size_t cap)
{
	size_t k = f->cfg->max_len + 1;
	const char *suf = "th";
	if (k % 100 < 11 || k % 100 > 13)
		suf = k % 10 == 1 ? "st" : k % 10 == 2 ? "nd"
		    : k % 10 == 3 ? "rd" : "th";
	return put(buf, cap, "%zu%s", k, suf);
}

/* The training run's statistics (--train), false without one. */
static bool
train_stats(const struct fillctx *f, struct pe_train_stats *st)
{
	if (f->cfg->trainer == NULL)
		return false;
	pe_train_stats(f->cfg->trainer, st);
	return true;
}

/* The run's step. */
static int
fill_train_step(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_train_stats st;
	if (!train_stats(f, &st))
		return put(buf, cap, "(no --train)");
	return put(buf, cap, "%zu", st.step);
}

/* The held-out accuracy of the run's last evaluation, in percent. */
static int
fill_train_accuracy(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_train_stats st;
	if (!train_stats(f, &st))
		return put(buf, cap, "(no --train)");
	if (isnan(st.accuracy))
		return put(buf, cap, "(not measured yet)");
	return put(buf, cap, "%.1f%%", 100 * st.accuracy);
}

/* The run's task, "offset:3". */
static int
fill_train_task(const struct fillctx *f, char *buf, size_t cap)
{
	if (f->cfg->trainer == NULL)
		return put(buf, cap, "(no --train)");
	pe_train_label(pe_train_config(f->cfg->trainer), buf, cap);
	return 0;
}

/* When the run reached PE_TRAIN_LEARNED held out. */
static int
fill_train_learned(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_train_stats st;
	if (!train_stats(f, &st))
		return put(buf, cap, "(no --train)");
	if (st.learned_step == PE_TRAIN_NOT_YET)
		return put(buf, cap, "not yet learned (%.0f%% held out)",
		    100 * PE_TRAIN_LEARNED);
	return put(buf, cap, "learned at step %zu", st.learned_step);
}

/* The mean of P P^T on its K-th sub-diagonal (K: offset's, else 1). */
static int
fill_band(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_config *c = f->cfg;
	if (c->table == NULL)
		return put(buf, cap, "(no table)");
	const struct pe_train_config *tc = c->trainer != NULL
	    ? pe_train_config(c->trainer) : NULL;
	long long k = arg(f, 0, tc != NULL && tc->task == PE_TRAIN_OFFSET
	    ? (long long)tc->k : 1);
	size_t rows = c->n < c->max_len ? c->n : c->max_len;
	if ((size_t)k >= rows)
		return put(buf, cap, "(past the table)");
	double s = 0;
	for (size_t i = (size_t)k; i < rows; i++) {
		double dot = 0;
		for (size_t j = 0; j < c->d; j++)
			dot += c->table[i * c->d + j] *
			    c->table[(i - (size_t)k) * c->d + j];
		s += dot;
	}
	return put_num(buf, cap, s / (double)(rows - (size_t)k));
}

/* T5's bucket or Shaw's clipped index of relative distance REL. */
static int
fill_bucket(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_config *c = f->cfg;
	long long rel = arg(f, 0, (long long)f->st->cur_c -
	    (long long)f->st->cur_r);
	if (c->relative == PE_REL_T5)
		return put(buf, cap, "%lld", (long long)pe_t5_bucket(rel,
		    c->bidirectional, c->buckets, c->max_distance));
	return put(buf, cap, "%lld", (long long)pe_shaw_index(rel,
	    c->max_relative));
}

static int
fill_max_exact(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%zu", pe_t5_max_exact(f->cfg->bidirectional,
	    f->cfg->buckets));
}

/* The slopes of cfg's heads (caller frees), or NULL. */
static double *
slopes(const struct pe_config *c)
{
	double *s = malloc(c->heads * sizeof *s);
	if (s != NULL && pe_alibi_slopes(c->heads, s) != PE_OK) {
		free(s);
		s = NULL;
	}
	return s;
}

/* Head H's slope (default the head drawn large). */
static int
fill_slope(const struct fillctx *f, char *buf, size_t cap)
{
	double *s = slopes(f->cfg);
	long long h = arg(f, 0, (long long)f->st->pane[f->st->focus].head);
	if (s == NULL || (size_t)h >= f->cfg->heads) {
		free(s);
		return put(buf, cap, "(no head %lld)", h);
	}
	put(buf, cap, "%g", s[h]);
	free(s);
	return 0;
}

static int
fill_head(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%zu", f->st->pane[f->st->focus].head);
}

/* The bias of the large head for query Q and key K. */
static int
fill_bias(const struct fillctx *f, char *buf, size_t cap)
{
	double *s = slopes(f->cfg);
	if (s == NULL)
		return put(buf, cap, "(out of memory)");
	size_t h = f->st->pane[f->st->focus].head;
	if (h >= f->cfg->heads)
		h = 0;
	long long q = arg(f, 0, (long long)f->st->cur_r);
	long long k = arg(f, 1, (long long)f->st->cur_c);
	double b = pe_alibi_bias(s[h], (size_t)q, (size_t)k,
	    f->cfg->alibi_mode);
	free(s);
	return put_num(buf, cap, b);
}

/* The share of attention (bias alone, averaged over the heads) the last
 * query gives its nearest W keys, W the argument (default 16). */
static int
fill_recency(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_config *c = f->cfg;
	double *s = slopes(c);
	if (s == NULL)
		return put(buf, cap, "(out of memory)");
	size_t i = c->n - 1, w = (size_t)arg(f, 0, 16);
	if (w > c->n)
		w = c->n;
	double r = pe_alibi_recency(s, c->heads, c->alibi_mode, i, c->n,
	    i + 1 - w, i + 1) * (double)w;
	free(s);
	return put(buf, cap, "%.1f%%", 100 * r);
}

/* What fill_beyond quotes (a row's part). */
enum { BEYOND_UNSCALED, BEYOND_SCALED };

/* How many of rope's pairs never complete a turn within train_len (or
 * seq_len): unscaled (beyond) and as scaled (beyond_scaled). */
static int
fill_beyond(const struct fillctx *f, char *buf, size_t cap)
{
	bool orig = f->part == BEYOND_UNSCALED;
	struct pe_rope r;
	double L = f->cfg->teach.train_len ? (double)f->cfg->teach.train_len
					   : (double)f->cfg->n;
	if (pe_rope_init(&r, f->cfg) != PE_OK)
		return put(buf, cap, "(out of memory)");
	size_t k = pe_rope_beyond(&r, L, orig, NULL);
	pe_rope_free(&r);
	return put(buf, cap, "%zu", k);
}

static int
fill_factor(const struct fillctx *f, char *buf, size_t cap)
{
	if (f->cfg->rope.type == PE_ROPE_DEFAULT)
		return put(buf, cap, "1");
	return put(buf, cap, "%g", f->cfg->rope.factor);
}

static int
fill_scaling(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%s", pe_rope_type_name(f->cfg->rope.type));
}

static int
fill_attention_factor(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_rope r;
	if (pe_rope_init(&r, f->cfg) != PE_OK)
		return put(buf, cap, "(out of memory)");
	put(buf, cap, "%.4g", r.attention_scaling);
	pe_rope_free(&r);
	return 0;
}

/* NoPE: the start token's share 1/(I+1) of query I's attention. */
static int
fill_share(const struct fillctx *f, char *buf, size_t cap)
{
	long long i = arg(f, 0, (long long)f->st->cur_r);
	return put(buf, cap, "%.3g%%", 100 * pe_nope_start_share((size_t)i));
}

/* The toy attention's largest change when the sentence is permuted (the
 * comparison panel's). */
static int
fill_gap(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_toy_sentence s;
	size_t perm[PE_TOY_MAX_TOKENS];
	double g;
	int rc = pe_toy_split(f->cfg->teach.tokens, &s);
	size_t head = f->st->pane[f->st->focus].head;
	if (rc == PE_OK)
		rc = pe_toy_permutation(f->cfg, &s, perm);
	if (rc == PE_OK)
		rc = pe_toy_permutation_gap(f->cfg, &s, perm, head, &g);
	if (rc != PE_OK)
		return put(buf, cap, "(%s)", pe_strerror(rc));
	return put(buf, cap, "%.2g", g);
}

static int
fill_grid(const struct fillctx *f, char *buf, size_t cap)
{
	return put(buf, cap, "%zu×%zu", f->cfg->grid_h, f->cfg->grid_w);
}

/* The model's layer on screen (--config, a preset), counting from 0. */
static int
fill_layer(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_pane *p = &f->st->pane[f->st->focus];
	if (p->arch == NULL)
		return put(buf, cap, "(no model)");
	return put(buf, cap, "%zu", p->layer);
}

/* The model's layers. */
static int
fill_layers(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_pane *p = &f->st->pane[f->st->focus];
	if (p->arch == NULL)
		return put(buf, cap, "(no model)");
	return put(buf, cap, "%zu", p->arch->nlayers);
}

/* The model's name: its description up to the first colon ("Gemma 3
 * 4B"), else the config's model_type. */
static int
fill_model(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_arch *a = f->st->pane[f->st->focus].arch;
	if (a == NULL)
		return put(buf, cap, "(no model)");
	const char *d = a->description, *colon = d != NULL ? strchr(d, ':')
	    : NULL;
	if (colon == NULL)
		return put(buf, cap, "%s", a->model_type);
	return put(buf, cap, "%.*s", (int)(colon - d), d);
}

/* The model's layers grouped into kinds (pe_arch_kinds): *kind_of is
 * malloc'd [nlayers], *k the kind argument K (default: the kind of the
 * layer on screen). Returns the number of kinds, or 0 with a message in
 * buf. */
static size_t
model_kinds(const struct fillctx *f, size_t **kind_of, size_t *k,
    char *buf, size_t cap)
{
	const struct pe_pane *p = &f->st->pane[f->st->focus];
	*kind_of = NULL;
	if (p->arch == NULL || p->arch->nlayers == 0) {
		put(buf, cap, "(no model)");
		return 0;
	}
	if ((*kind_of = malloc(p->arch->nlayers * sizeof **kind_of)) == NULL) {
		put(buf, cap, "(out of memory)");
		return 0;
	}
	size_t nk = pe_arch_kinds(p->arch, *kind_of);
	size_t shown = p->layer < p->arch->nlayers ? p->layer : 0;
	long long a = arg(f, 0, (long long)(*kind_of)[shown]);
	if (a < 0 || (size_t)a >= nk) {
		put(buf, cap, "(kind %lld: the model has %zu)", a, nk);
		free(*kind_of);
		*kind_of = NULL;
		return 0;
	}
	*k = (size_t)a;
	return nk;
}

/* How many kinds of layers the model has. */
static int
fill_kinds(const struct fillctx *f, char *buf, size_t cap)
{
	size_t *kind_of, k, nk = model_kinds(f, &kind_of, &k, buf, cap);
	free(kind_of);
	return nk > 0 ? put(buf, cap, "%zu", nk) : 0;
}

/* What fill_kind quotes (a row's part). */
enum { KIND_WORDS, KIND_COUNT };

/* Kind K of the model's layers in a few words (pe_layer_describe:
 * "sliding 1024 · base 10000"), or how many layers are of it. */
static int
fill_kind(const struct fillctx *f, char *buf, size_t cap)
{
	const struct pe_arch *a = f->st->pane[f->st->focus].arch;
	size_t *kind_of, k;
	if (model_kinds(f, &kind_of, &k, buf, cap) == 0)
		return 0;
	if (f->part == KIND_COUNT) {
		char ranges[16];
		size_t n = pe_arch_kind_ranges(a, kind_of, k, ranges,
		    sizeof ranges);
		free(kind_of);
		return put(buf, cap, "%zu", n);
	}
	size_t first = 0;
	while (kind_of[first] != k)
		first++;
	free(kind_of);
	pe_layer_describe(&a->layers[first], buf, cap);
	return 0;
}

/* How many keys query Q sees in the sequence (the layer's mask). */
static int
fill_seen(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_attn t;
	size_t n = pe_config_positions(f->cfg);
	long long q = arg(f, 0, (long long)f->st->cur_r);
	if (q < 0 || (size_t)q >= n)
		return put(buf, cap, "(query %lld: past the %zu positions)", q, n);
	pe_config_attn(f->cfg, &t);
	return put(buf, cap, "%zu", pe_attn_seen(&t, (size_t)q, 0, n));
}

/* Llama 4's query scale at position P. */
static int
fill_temperature(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_attn t;
	long long p = arg(f, 0, (long long)f->st->cur_r);
	if (p < 0)
		return put(buf, cap, "(position %lld)", p);
	pe_config_attn(f->cfg, &t);
	return put(buf, cap, "%.6g", pe_attn_temperature(&t, (size_t)p));
}

/* The toy sentence and its size, or a message in buf. */
static int
toy_sentence(const struct fillctx *f, struct pe_toy_sentence *s, char *buf,
    size_t cap)
{
	int rc = pe_toy_split(f->cfg->teach.tokens, s);
	if (rc != PE_OK)
		put(buf, cap, "(%s)", pe_strerror(rc));
	return rc;
}

/* The share of query Q's attention the sink of the head on screen
 * takes (the sinks panel's). */
static int
fill_sink_share(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_toy_sentence s;
	double share[PE_TOY_MAX_TOKENS];
	size_t head = f->st->pane[f->st->focus].head;
	if (toy_sentence(f, &s, buf, cap) != PE_OK)
		return 0;
	long long q = arg(f, 0, (long long)s.count - 1);
	if (q < 0 || (size_t)q >= s.count)
		return put(buf, cap, "(query %lld: the sentence has %zu tokens)",
		    q, s.count);
	int rc = pe_toy_sink_share(f->cfg, &s, head, share);
	if (rc != PE_OK)
		return put(buf, cap, "(no sinks: %s)", pe_strerror(rc));
	return put(buf, cap, "%.3g%%", 100 * share[q]);
}

/* What fill_score quotes (a row's part). */
enum { SCORE_CONTENT, SCORE_POSITION, SCORE_WHOLE };

/* A toy score's content or position part, or the whole score, for query
 * Q and key K (the split panel's, rounded as it shows them). */
static int
fill_score(const struct fillctx *f, char *buf, size_t cap)
{
	struct pe_toy_sentence s;
	double ct[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS],
	    po[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS];
	if (toy_sentence(f, &s, buf, cap) != PE_OK)
		return 0;
	long long q = arg(f, 0, (long long)s.count - 1), k = arg(f, 1, 0);
	if (q < 0 || k < 0 || (size_t)q >= s.count || (size_t)k >= s.count)
		return put(buf, cap, "(query %lld, key %lld: the sentence has "
		    "%zu tokens)", q, k, s.count);
	int rc = pe_toy_score_parts(f->cfg, &s, 0, ct, po);
	if (rc != PE_OK)
		return put(buf, cap, "(%s)", pe_strerror(rc));
	size_t i = (size_t)q * s.count + (size_t)k;
	if (!isfinite(ct[i] + po[i]))
		return put(buf, cap, "(masked)");
	/* as the panel rounds: score and content to 0.001, position what
	 * makes them add up */
	double sr = round((ct[i] + po[i]) * 1000) / 1000;
	double cr = round(ct[i] * 1000) / 1000;
	return put(buf, cap, "%.3f", f->part == SCORE_CONTENT ? cr
	    : f->part == SCORE_POSITION ? sr - cr : sr);
}

/* DeepSeek-V3's mscale on the softmax (1 when none). */
static int
fill_mscale(const struct fillctx *f, char *buf, size_t cap)
{
	double m;
	pe_attn_scale(f->cfg, &m);
	return put(buf, cap, "%.4g", m);
}

/* M-RoPE: frame F's temporal id (Qwen2.5-VL's time, or F). */
static int
fill_frame_time(const struct fillctx *f, char *buf, size_t cap)
{
	long long fr = arg(f, 0, 0);
	if (fr < 0 || (size_t)fr >= f->cfg->mrope.frames)
		return put(buf, cap, "(frame %lld: the video has %zu)", fr,
		    f->cfg->mrope.frames);
	return put(buf, cap, "%lld",
	    (long long)pe_mrope_frame_time(f->cfg, (size_t)fr));
}

/* M-RoPE: the axis pair J follows, t, h or w. */
static int
fill_pair_axis(const struct fillctx *f, char *buf, size_t cap)
{
	static const char *const name[] = {"t", "h", "w"};
	size_t sec[3];
	long long j = arg(f, 0, 0);
	if (j < 0 || (size_t)j >= f->cfg->d / 2)
		return put(buf, cap, "(pair %lld: there are %zu)", j,
		    f->cfg->d / 2);
	pe_mrope_sections(f->cfg, sec);
	return put(buf, cap, "%s", name[pe_mrope_pair_axis(f->cfg, sec,
	    (size_t)j)]);
}

/* Every placeholder a caption may use. */
const struct placeholder pe_placeholders[] = {
	{"n", "", ALL, "seq_len", FIELD(n)},
	{"d", "", ALL, "d_model (rope: head_dim)", FIELD(d)},
	{"base", "", E(SINUSOIDAL) | E(ROPE) | E(XPOS) | E(MROPE), "the base",
	    fill_base},
	{"value", "", ALL, "the main map's element at the cursor", fill_value},
	{"row", "", ALL, "the cursor's row (position, query)", fill_row},
	{"col", "", ALL, "the cursor's column", fill_col},
	{"x", "", NEED(EXAMPLE),
	    "the worked example's token vector x", fill_x},
	{"pe", "P", NEED(ADDED), "the vector PE(P)", fill_pe_or_sum,
	    .part = PE_ALONE},
	{"sum", "P", NEED(ADDED), "x + PE(P)", fill_pe_or_sum,
	    .part = PE_SUM},
	{"x_norm", "", NEED(EXAMPLE), "|x|", fill_norm, .part = NORM_X},
	{"sum_norm", "P", NEED(ADDED), "|x + PE(P)|", fill_norm,
	    .part = NORM_SUM},
	{"sum_angle", "P", NEED(ADDED),
	    "the angle between x and x + PE(P), degrees", fill_norm,
	    .part = ANGLE_SUM},
	{"rot_norm", "P", NEED(ROTATED), "|R_P x|", fill_norm,
	    .part = NORM_ROTATED},
	{"pairs", "", NEED(PAIRS), "frequency pairs", fill_pairs},
	{"freq", "J", NEED(PAIRS),
	    "pair J's frequency (default: the last pair)", fill_freq},
	{"wavelength", "J", NEED(PAIRS),
	    "pair J's wavelength 2π/ω_J (default: the last pair)",
	    fill_wavelength},
	{"dot", "P,Q", E(SINUSOIDAL) | E(LEARNED) | E(ROPE) | E(XPOS),
	    "the dot-product panel's value for positions P and Q", fill_dot},
	{"shift", "", NEED(SHIFT), "K of PE(p+K) = M_K·PE(p)", fill_shift},
	{"residual", "", NEED(SHIFT),
	    "the largest |PE(p+K) − M_K·PE(p)| over the sequence",
	    fill_residual},
	{"shift_range", "", NEED(SHIFT),
	    "the positions p it runs over, p and p+K in the sequence (\"0 to "
	    "60\")", fill_shift_range},
	{"max_len", "", NEED(TABLE), "the learned table's rows",
	    FIELD(max_len)},
	{"last_pos", "", NEED(TABLE),
	    "the last position with a row (max_len − 1)", fill_last_pos},
	{"past_token", "", NEED(TABLE),
	    "the first token with no row, counting from one (\"2049th\")",
	    fill_past_token},
	{"train_step", "", NEED(TABLE), "--train: the run's step",
	    fill_train_step},
	{"train_accuracy", "", NEED(TABLE),
	    "--train: the last held-out accuracy (\"96.5%\")",
	    fill_train_accuracy},
	{"train_task", "", NEED(TABLE), "--train: the task (\"offset:3\")",
	    fill_train_task},
	{"train_learned", "", NEED(TABLE),
	    "--train: \"learned at step N\" (95% held out), or not yet",
	    fill_train_learned},
	{"band", "K", NEED(TABLE),
	    "the mean of P·Pᵀ on its K-th sub-diagonal (offset's K)",
	    fill_band},
	{"max_relative", "", NEED(RELATIVE), "Shaw's clipping distance K",
	    FIELD(max_relative)},
	{"bucket", "REL", NEED(RELATIVE),
	    "T5's bucket or Shaw's index of key − query = REL", fill_bucket},
	{"max_exact", "", NEED(RELATIVE), "T5's distances with a bucket each",
	    fill_max_exact},
	{"heads", "", E(ALIBI), "the number of heads", FIELD(heads)},
	{"head", "", E(ALIBI), "the head drawn large", fill_head},
	{"slope", "H", E(ALIBI), "head H's slope (default: the large one)",
	    fill_slope},
	{"bias", "Q,K", E(ALIBI), "the large head's bias for query Q, key K",
	    fill_bias},
	{"train_len", "", ALL, "--train-len", FIELD(teach.train_len)},
	{"recency", "W", E(ALIBI),
	    "the last query's attention share of its nearest W keys (16)",
	    fill_recency},
	{"beyond", "", NEED(SCALING),
	    "pairs with a wavelength over --train-len, unscaled", fill_beyond,
	    .part = BEYOND_UNSCALED},
	{"beyond_scaled", "", NEED(SCALING), "the same, with the scaling",
	    fill_beyond, .part = BEYOND_SCALED},
	{"factor", "", NEED(SCALING), "the scaling factor (1 unscaled)",
	    fill_factor},
	{"scaling", "", NEED(SCALING), "the scaling's name", fill_scaling},
	{"attention_factor", "", NEED(SCALING),
	    "the scaling's attention factor",
	    fill_attention_factor},
	{"share", "I", E(NOPE), "the start token's share of query I", fill_share},
	{"gap", "", NEED(TOY),
	    "the toy attention's largest change under the permutation",
	    fill_gap},
	{"grid", "", E(VIT2D) | E(ROPE2D), "the patch grid", fill_grid},
	{"frame_time", "F", E(MROPE),
	    "frame F's temporal id (Qwen2.5-VL: seconds x tokens_per_second)",
	    fill_frame_time},
	{"pair_axis", "J", E(MROPE), "the axis pair J follows: t, h or w",
	    fill_pair_axis},
	{"layer", "", ALL, "the model's layer on screen (a preset, --config)",
	    fill_layer},
	{"layers", "", ALL, "the model's layers", fill_layers},
	{"model", "", ALL, "the model's name (its description's first words)",
	    fill_model},
	{"kinds", "", ALL, "how many kinds of layers the model has",
	    fill_kinds},
	{"kind", "K", ALL,
	    "kind K of the model's layers in a few words (default: the "
	    "layer's)", fill_kind, .part = KIND_WORDS},
	{"kind_layers", "K", ALL,
	    "how many of the model's layers are of kind K (default: the "
	    "layer's)", fill_kind, .part = KIND_COUNT},
	{"window", "", NEED(SPAN), "the sliding window (--window)",
	    FIELD(attn.window)},
	{"chunk", "", NEED(SPAN), "the chunk (--chunk)", FIELD(attn.chunk)},
	{"seen", "Q", NEED(SPAN),
	    "how many keys query Q sees (the layer's mask)", fill_seen},
	{"temperature", "P", NEED(TEMPERATURE),
	    "Llama 4's query scale at position P", fill_temperature},
	{"sink_share", "Q", NEED(SINKS),
	    "the sink's share of query Q's attention (the head on screen)",
	    fill_sink_share},
	{"content", "Q,K", NEED(DECOUPLED),
	    "the content part of query Q's score for key K", fill_score,
	    .part = SCORE_CONTENT},
	{"position", "Q,K", NEED(DECOUPLED),
	    "the position part of query Q's score for key K", fill_score,
	    .part = SCORE_POSITION},
	{"score", "Q,K", NEED(DECOUPLED),
	    "query Q's score for key K (content + position)", fill_score,
	    .part = SCORE_WHOLE},
	{"rope_dim", "", NEED(DECOUPLED), "the rotated dims (--rope-dim)",
	    FIELD(attn.qk_rope_dim)},
	{"nope_dim", "", NEED(DECOUPLED), "the content dims (--nope-dim)",
	    FIELD(attn.qk_nope_dim)},
	{"mscale", "", NEED(DECOUPLED),
	    "DeepSeek-V3's mscale on the softmax (1: none)", fill_mscale},
};

const size_t pe_nplaceholders =
    sizeof pe_placeholders / sizeof pe_placeholders[0];
