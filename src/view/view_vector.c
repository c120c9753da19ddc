/* Views of the vector encodings: sinusoidal and learned. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/sinusoidal.h"
#include "pescope/train.h"

#include "view/view_impl.h"

/* ---- views ------------------------------------------------------------ */

/* Right column for the vector encodings: dot products and the row. */
static void
right_vector(struct ctx *c, const char *rowtitle, double lo, double hi)
{
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t p = c->st->cur_r;
	int hc = h >= 30 ? h / 3 : (h >= 18 ? 8 : h / 2);
	view_map_dot(c, x, y, w, hc, p, "PE(p)·PE(key)");
	y += hc + 1;
	h -= hc + 1;
	int hr = h >= 20 ? 7 : 0; /* the cursor row, when there is room */
	if (hr > 0) {
		view_map_row(c, x, y + h - hr, w, hr, p, rowtitle, lo, hi, "dim");
		h -= hr + 1;
	}
	if (h >= 8)
		view_map_simmap(c, x, y, w, h, "similarity PE·PEᵀ (query ↓, key →)");
}

/* sinusoidal's main map and its inspector. */
static void
sinusoidal_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	struct pe_scale sc = {PE_CMAP_DIVERGING, -1, 1, false};
	view_map_main(c, &sc, "PE[position ↓, dimension →]", "%.2g", NULL);

	size_t p = c->st->cur_r, col = c->st->cur_c, i;
	int is_cos;
	pe_sinusoidal_column(col, k->d, k->layout, &i, &is_cos);
	double v = pe_sinusoidal_value(p, col, k->d, k->base, k->layout);
	/* t2t: base^(-i/(d/2 - 1)) (pe_sinusoidal_freq); else base^(-2i/d) */
	bool t2t = k->layout == PE_LAYOUT_T2T;
	snprintf(c->insp[0], sizeof c->insp[0],
	    " PE[%zu,%zu] = %s(%zu · %.10g^(−%zu/%zu)) = %.9g", p, col,
	    is_cos ? "cos" : "sin", p, k->base, t2t ? i : 2 * i,
	    t2t ? k->d / 2 - 1 : k->d, v);
	view_map_inspect(c, "pos", "dim");
}

/* sinusoidal: the classic stripes, dot products, the cursor row. */
static void
view_sinusoidal(struct ctx *c)
{
	sinusoidal_map(c);
	right_vector(c, "PE[p, :] across dimensions", -1, 1);
}

/* learned's main map and its inspector. */
static void
learned_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	double a = c->m->learned_absmax > 0 ? c->m->learned_absmax : 1;
	struct pe_scale sc = {PE_CMAP_DIVERGING, -a, a, false};
	char legend[128] = "", title[128];
	if (k->n > k->max_len)
		snprintf(legend, sizeof legend, "no embedding: positions ≥ "
		    "max_len %zu cannot be placed", k->max_len);
	if (k->trainer != NULL) {
		struct pe_train_stats st;
		char task[32];
		pe_train_stats(k->trainer, &st);
		pe_train_label(pe_train_config(k->trainer), task, sizeof task);
		snprintf(title, sizeof title, "PE[position ↓, dimension →]  "
		    "(trained %zu steps on %s)", st.step, task);
	} else {
		snprintf(title, sizeof title, "PE[position ↓, dimension →]  %s",
		    k->table_untrained ? "(untrained init)" : "(table)");
	}
	view_map_main(c, &sc, title, "%.3g", legend[0] ? legend : NULL);

	size_t p = c->st->cur_r, col = c->st->cur_c;
	if (p >= k->max_len)
		snprintf(c->insp[0], sizeof c->insp[0], " PE[%zu,%zu]: no embedding "
		    "— position %zu ≥ max_len %zu (the table has no row for it)",
		    p, col, p, k->max_len);
	else
		snprintf(c->insp[0], sizeof c->insp[0], " PE[%zu,%zu] = table[%zu,"
		    "%zu] = %.9g", p, col, p, col,
		    (double)k->table[p * k->d + col]);
	view_map_inspect(c, "pos", "dim");
}

/* ns samples of a curve of n values: the mean of each sample's block of
 * values (pe_field_span's tiling), so a long run is drawn whole. */
static void
train_samples(const double *v, size_t n, size_t ns, double *dest)
{
	for (size_t k = 0; k < ns; k++) {
		size_t b0, b1;
		double s = 0;
		pe_field_span(0, n, ns, k, &b0, &b1);
		for (size_t i = b0; i < b1; i++)
			s += v[i];
		dest[k] = b1 > b0 ? s / (double)(b1 - b0) : 0;
	}
}

/* A curve of a training run in a braille plot: the values v[n] of steps
 * first .. last, from lo to hi, a faint line at the value `mark` (the
 * accuracy at which a task is learned; NAN: none). */
static void
train_plot(struct ctx *c, int x, int y, int w, int h, const char *title,
    const double *v, size_t n, size_t first, size_t last, double lo,
    double hi)
{
	char xlo[32], xhi[32];
	int pw = w - 7;

	if (n == 0 || pw < 4 || h < 4) {
		pe_canvas_text_fit(c->cv, x, y, w, title, C_TEXT,
		    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
		if (h >= 2)
			pe_canvas_text_fit(c->cv, x, y + 1, w, "no step yet",
			    C_DIM, PE_COLOR_DEFAULT, 0);
		return;
	}
	size_t ns = n < (size_t)pw * 2 ? n : (size_t)pw * 2;
	double *ys = malloc(ns * sizeof *ys);
	if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) != PE_OK)
		return;
	train_samples(v, n, ns, ys);
	snprintf(xlo, sizeof xlo, "step %zu", first);
	snprintf(xhi, sizeof xhi, "%zu", last);
	panel_plot(c->cv, x, y, w, h, title, ys, ns, lo, hi, xlo, xhi, -1);
	free(ys);
}

/* learned with --train: the run's similarity P P^T, its training loss
 * and held-out accuracy by step, and what this is (and is not). */
static void
right_training(struct ctx *c)
{
	const struct pe_trainer *tr = c->cfg->trainer;
	const struct pe_train_config *tc = pe_train_config(tr);
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	struct pe_train_stats st;
	char task[32], what[320];
	size_t nl, ne;

	pe_train_stats(tr, &st);
	pe_train_label(tc, task, sizeof task);
	const double *loss = pe_train_losses(tr, &nl);
	const struct pe_train_eval *ev = pe_train_evals(tr, &ne);
	const char *stop = st.diverged ? ", then its loss stopped being "
	    "finite: stopped" : "";
	bool tight = h < 16; /* the short caption, the similarity first */
	if (tight)
		snprintf(what, sizeof what, "%s, %zu steps on %s%s; not "
		    "GPT-2's (learned on text).", tc->task == PE_TRAIN_DISTANCE
		    ? "No model: P·Pᵀ fitted" : "One layer", st.step, task,
		    st.diverged ? ", diverged" : "");
	else if (tc->task == PE_TRAIN_DISTANCE)
		snprintf(what, sizeof what, "No model: the table alone fitted "
		    "for %zu steps so that P·Pᵀ is exp(−(i−j)²/(2·%g²)) "
		    "(train.h)%s; GPT-2's table was learned on text and "
		    "differs.", st.step, tc->sigma, stop);
	else
		snprintf(what, sizeof what, "A one-layer model trained for %zu "
		    "steps on %s (train.h)%s; GPT-2's table was learned on "
		    "text and differs.", st.step, task, stop);
	int ht = tight ? (w >= 60 ? 1 : 2) : (w >= 60 ? 2 : 3); /* caption */
	int hp = h >= 30 ? 8 : 6;     /* the plots */
	int hs = h - hp - ht - 2;     /* the similarity map */
	if (hs < 8) { /* little room: the similarity first, then the plots */
		hs = h - ht - 1 >= 8 ? h - ht - 1 : 0;
		hp = hs > 0 ? 0 : h - ht - 1;
	}
	if (hs >= 8) {
		view_map_simmap(c, x, y, w, hs, "similarity P·Pᵀ (query ↓, "
		    "key →)");
		y += hs + 1;
	}
	if (hp >= 4) {
		double hi = 0, *acc = malloc((ne > 0 ? ne : 1) * sizeof *acc);
		for (size_t i = 0; i < nl; i++)
			hi = loss[i] > hi ? loss[i] : hi;
		for (size_t i = 0; acc != NULL && i < ne; i++)
			acc[i] = ev[i].accuracy;
		int wl = w >= 50 ? (w - 1) / 2 : w;
		train_plot(c, x, y, wl, hp, "training loss", loss, nl, 1,
		    st.step, 0, hi > 0 ? hi : 1);
		char title[64];
		snprintf(title, sizeof title, "held-out accuracy (%s%.0f%%)",
		    tc->task == PE_TRAIN_DISTANCE ? "pairs; " : "",
		    ne > 0 ? 100 * ev[ne - 1].accuracy : 0.0);
		if (w >= 50 && acc != NULL)
			train_plot(c, x + wl + 1, y, w - wl - 1, hp, title, acc,
			    ne, 0, ne > 0 ? ev[ne - 1].step : 0, 0, 1);
		free(acc);
		y += hp + 1;
	}
	panel_text(c->cv, x, y, w, ht, what, C_DIM, 0);
}

/* learned: the table, with positions past max_len undefined; with
 * --train, the run beside it. */
static void
view_learned(struct ctx *c)
{
	double a = c->m->learned_absmax > 0 ? c->m->learned_absmax : 1;
	learned_map(c);
	if (c->cfg->trainer != NULL)
		right_training(c);
	else
		right_vector(c, "PE[p, :] across dimensions", -a, a);
}

/* ---- the shift panel: PE(p + K) = M_K PE(p) -------------------------- */

/* M_K as a map source: d, the layout's frequencies and columns. */
struct shift_src {
	const struct pe_config *cfg;
	size_t *sin_col, *cos_col; /* [d/2]: frequency i's columns */
	double *co, *si;	   /* [d/2]: cos(K w_i), sin(K w_i) */
};

/* M_K[r, c]: the 2x2 rotation of a frequency on its sin and cos columns
 * (sinusoidal.h, pe_sinusoidal_shift), 0 elsewhere. */
static double
shift_value(const void *arg, size_t r, size_t c)
{
	const struct shift_src *m = arg;
	const struct pe_config *k = m->cfg;
	size_t ir, ic;
	int rcos, ccos;
	pe_sinusoidal_column(r, k->d, k->layout, &ir, &rcos);
	pe_sinusoidal_column(c, k->d, k->layout, &ic, &ccos);
	if (ir != ic)
		return 0.0;
	if (rcos == ccos)
		return m->co[ir];
	return rcos ? -m->si[ir] : m->si[ir];
}

/* The samples [lo[e], hi[e]) of nb tiling [a0, a1) that show element e
 * (a sample shows a block; a magnified element spans several). */
static void
shift_samples(size_t a0, size_t a1, size_t nb, size_t *lo, size_t *hi)
{
	for (size_t e = a0; e < a1; e++)
		lo[e - a0] = hi[e - a0] = 0;
	for (size_t k = 0; k < nb; k++) {
		size_t b0, b1;
		pe_field_span(a0, a1, nb, k, &b0, &b1);
		for (size_t e = b0; e < b1; e++) {
			if (hi[e - a0] == 0)
				lo[e - a0] = k;
			hi[e - a0] = k + 1;
		}
	}
}

/* Block means of M_K: its 2d nonzero entries added into the samples that
 * show them (O(d + samples), any d). */
static int
shift_grid(const void *arg, size_t r0, size_t r1, size_t nr, size_t c0,
    size_t c1, size_t nc, struct pe_stats *dest)
{
	const struct shift_src *m = arg;
	size_t half = m->cfg->d / 2;
	size_t *rl = malloc((r1 - r0) * 2 * sizeof *rl);
	size_t *cl = malloc((c1 - c0) * 2 * sizeof *cl);
	if (rl == NULL || cl == NULL) {
		free(rl);
		free(cl);
		return PE_ENOMEM;
	}
	size_t *rh = rl + (r1 - r0), *ch = cl + (c1 - c0);
	shift_samples(r0, r1, nr, rl, rh);
	shift_samples(c0, c1, nc, cl, ch);
	for (size_t k = 0; k < nr * nc; k++)
		dest[k] = (struct pe_stats){.mean = 0, .resultant = 1};
	for (size_t i = 0; i < half; i++) {
		size_t rc[4][2] = {{m->sin_col[i], m->sin_col[i]},
		    {m->sin_col[i], m->cos_col[i]}, {m->cos_col[i], m->sin_col[i]},
		    {m->cos_col[i], m->cos_col[i]}};
		double v[4] = {m->co[i], m->si[i], -m->si[i], m->co[i]};
		for (int e = 0; e < 4; e++) {
			size_t r = rc[e][0], c = rc[e][1];
			if (r < r0 || r >= r1 || c < c0 || c >= c1)
				continue;
			for (size_t a = rl[r - r0]; a < rh[r - r0]; a++)
				for (size_t b = cl[c - c0]; b < ch[c - c0]; b++)
					dest[a * nc + b].mean += v[e];
		}
	}
	for (size_t a = 0; a < nr; a++)
		for (size_t b = 0; b < nc; b++) {
			size_t p0, p1, q0, q1;
			pe_field_span(r0, r1, nr, a, &p0, &p1);
			pe_field_span(c0, c1, nc, b, &q0, &q1);
			struct pe_stats *s = &dest[a * nc + b];
			s->count = (uint64_t)((p1 - p0) * (q1 - q0));
			s->mean /= (double)s->count;
			s->min = s->max = NAN;
		}
	free(rl);
	free(cl);
	return PE_OK;
}

/* The positions [*p0, *p1) whose residual the panel shows: at most
 * SHIFT_BUDGET / d of them (the cost is (p1 - p0) d), around the cursor,
 * inside those with 0 <= p + K < n; false when there are none. */
#define SHIFT_BUDGET 16384
static bool
shift_window(const struct pe_config *k, size_t p, size_t *p0, size_t *p1)
{
	int64_t K = k->teach.shift, n = (int64_t)k->n;
	if (K <= -n || K >= n)
		return false;
	size_t lo = K < 0 ? (size_t)-K : 0, hi = (size_t)(K > 0 ? n - K : n);
	size_t want = SHIFT_BUDGET / k->d > 0 ? SHIFT_BUDGET / k->d : 1;
	if (want > hi - lo)
		want = hi - lo;
	size_t a = p > want / 2 ? p - want / 2 : 0;
	if (a < lo)
		a = lo;
	if (a + want > hi)
		a = hi - want;
	*p0 = a;
	*p1 = a + want;
	return true;
}

/* sinusoidal's shift panel: M_K as a map, its blocks, and the residual
 * max |PE(p + K) - M_K PE(p)| over a window of positions. */
static void
sinusoidal_shift(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t d = k->d, half = d / 2, p = c->st->cur_r, j = c->st->cur_c;
	int64_t K = k->teach.shift;
	struct shift_src m = {k, NULL, NULL, NULL, NULL};
	m.sin_col = malloc(half * 2 * sizeof *m.sin_col);
	m.co = malloc(half * 2 * sizeof *m.co);
	if (view_check(c, m.sin_col == NULL || m.co == NULL ? PE_ENOMEM : PE_OK, x,
		y, w) != PE_OK) {
		free(m.sin_col);
		free(m.co);
		snprintf(c->panel_insp, sizeof c->panel_insp, " M_K: not computed: "
		    "%s", pe_strerror(PE_ENOMEM));
		return;
	}
	m.cos_col = m.sin_col + half;
	m.si = m.co + half;
	for (size_t col = 0; col < d; col++) {
		size_t i;
		int is_cos;
		pe_sinusoidal_column(col, d, k->layout, &i, &is_cos);
		(is_cos ? m.cos_col : m.sin_col)[i] = col;
	}
	for (size_t i = 0; i < half; i++) {
		double t = (double)K * pe_sinusoidal_freq(i, d, k->base, k->layout);
		m.co[i] = cos(t);
		m.si[i] = sin(t);
	}

	char t[200], l[400];
	snprintf(t, sizeof t, "M_K with PE(p + K) = M_K·PE(p), K = %lld (row ↓, "
	    "column →)", (long long)K);
	int used = panel_text(c->cv, x, y, w, 2, t, C_TEXT, PE_ATTR_BOLD);
	y += used;
	h -= used;
	struct map_spec s;
	struct map_geom g;
	memset(&s, 0, sizeof s);
	s.src = (struct map_source){&m, shift_grid, shift_value};
	s.r0 = 0, s.r1 = d, s.c0 = 0, s.c1 = d;
	s.scale = (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false};
	s.fmt = "%.2g";
	s.axes = true;
	s.colorbar = true;
	s.values = c->st->values;
	s.cursor = true;
	s.cur_r = j, s.cur_c = j;
	int mh = h - 6 > 8 ? h - 6 : h - 3;
	if (mh > (int)d / 2 + 3 && mh > 12) /* no taller than it needs */
		mh = (int)d / 2 + 3 > 12 ? (int)d / 2 + 3 : 12;
	int mw = w < 2 * mh + 8 ? w : 2 * mh + 8;
	view_check(c, panel_map(c->cv, x, y, mw, mh, &s, &g), x, y, w);
	y += mh + 1;
	h -= mh + 1;

	snprintf(l, sizeof l, "one 2×2 rotation per frequency ω_i on its sin and "
	    "cos columns (%s): [cos Kω_i, sin Kω_i; −sin Kω_i, cos Kω_i]",
	    k->layout == PE_LAYOUT_INTERLEAVED ? "2i, 2i+1" : "i, d/2 + i");
	used = panel_text(c->cv, x, y, w, h, l, C_DIM, 0);
	y += used;
	h -= used;
	size_t p0, p1;
	double res = NAN;
	if (!shift_window(k, p, &p0, &p1))
		snprintf(l, sizeof l, "residual: K = %lld, and no position p has p "
		    "+ K inside 0..%zu", (long long)K, k->n - 1);
	else if (view_check(c, pe_sinusoidal_shift_residual(k->n, d, k->base,
		     k->layout, K, p0, p1, &res), x, y, w) == PE_OK)
		snprintf(l, sizeof l, "residual over p = %zu..%zu (%s): max "
		    "|PE(p+K) − M_K·PE(p)| = %.2g, rounding level", p0, p1 - 1,
		    p1 - p0 == (size_t)(k->n - (size_t)(K < 0 ? -K : K))
		    ? "every p with p + K inside" : "the cursor's window; "
		    "positions × d_model ≤ 16384", res);
	else
		l[0] = '\0';
	if (h > 0)
		panel_text(c->cv, x, y, w, h, l, C_TEXT, 0);

	/* the cursor's column: its row of M_K times PE(p) */
	size_t i, jj;
	int is_cos;
	pe_sinusoidal_column(j, d, k->layout, &i, &is_cos);
	jj = is_cos ? m.sin_col[i] : m.cos_col[i];
	double a = pe_sinusoidal_value(p, j, d, k->base, k->layout);
	double b = pe_sinusoidal_value(p, jj, d, k->base, k->layout);
	double mj = m.co[i], mo = is_cos ? -m.si[i] : m.si[i];
	int64_t q = (int64_t)p + K;
	char tail[96] = "";
	if (q >= 0 && q < (int64_t)k->n)
		snprintf(tail, sizeof tail, " = PE[%lld,%zu] = %.9g", (long long)q,
		    j, pe_sinusoidal_value((size_t)q, j, d, k->base, k->layout));
	snprintf(c->panel_insp, sizeof c->panel_insp, " (M_%lld·PE(%zu))[%zu] = "
	    "cos(Kω_%zu)·PE[%zu,%zu] %s sin(Kω_%zu)·PE[%zu,%zu] = %.6g·%.6g %s "
	    "%.6g·%.6g = %.9g%s", (long long)K, p, j, i, p, j,
	    is_cos ? "−" : "+", i, p, jj, mj, a, mo < 0 ? "−" : "+", fabs(mo), b,
	    mj * a + mo * b, tail);
	free(m.sin_col);
	free(m.co);
}

/* ---- rows ------------------------------------------------------------- */

static void
sinusoidal_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	view_item(it, 0, "d_model %zu", k->d);
	view_item(it, 0, "seq_len %zu", k->n);
	view_item(it, 1, "base %.10g", k->base);
	view_item(it, 2, "layout %s", k->layout == PE_LAYOUT_INTERLEAVED
	    ? "interleaved (sin,cos,…)"
	    : k->layout == PE_LAYOUT_SPLIT ? "split (GPT-J: sin…|cos…)"
					   : "t2t (tensor2tensor: sin…|cos…)");
}

/* l: interleaved -> split -> t2t -> interleaved. */
static int
sinusoidal_layout(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	(void)key;
	c.layout = c.layout == PE_LAYOUT_INTERLEAVED ? PE_LAYOUT_SPLIT
		   : c.layout == PE_LAYOUT_SPLIT     ? PE_LAYOUT_T2T
						     : PE_LAYOUT_INTERLEAVED;
	return pe_state_apply(st, &c);
}

/* o/O: the shift panel's offset K, one less, one more (-n < K < n). */
static int
sinusoidal_shift_key(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	int64_t n = (int64_t)c.n;
	c.teach.shift += key == 'o' ? -1 : 1;
	if (c.teach.shift <= -n || c.teach.shift >= n) {
		pe_state_status(st, "shift K %lld: must be in %lld..%lld (-n < K "
		    "< n, seq_len %zu)", (long long)c.teach.shift, 1 - (long long)n,
		    (long long)n - 1, c.n);
		return PE_ACT_REDRAW;
	}
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key sinusoidal_keys[] = {
	PE_SHARED_D_MODEL("d_model"),
	PE_SHARED_SEQ_LEN,
	PE_SHARED_BASE,
	{"l", "l", "layout", sinusoidal_layout},
	{"oO", "o/O", "offset K", sinusoidal_shift_key},
	PE_KEYS_END,
};

static const struct pe_enc_panel sinusoidal_panels[] = {
	{PE_PANEL_ATTENTION, view_toy_panel, view_toy_width},
	{PE_PANEL_EXAMPLE, view_example_sum, view_example_width},
	{PE_PANEL_SHIFT, sinusoidal_shift, NULL},
	{PE_PANEL_OVERVIEW, NULL, NULL},
};

const struct pe_enc_view view_sinusoidal_row = {
	.main = PE_FIELD_PE,
	.params = sinusoidal_params,
	.draw = view_sinusoidal,
	.keys = sinusoidal_keys,
	.panels = sinusoidal_panels,
	.map = sinusoidal_map,
};

static void
learned_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	view_item(it, 0, "d_model %zu", k->d);
	view_item(it, 0, "seq_len %zu", k->n);
	view_item(it, 1, "max_len %zu", k->max_len);
	if (k->trainer == NULL) {
		view_item(it, 2, "%s", k->table_untrained
		    ? "untrained: N(0, 0.02²) init" : "table from file");
		return;
	}
	struct pe_train_stats st;
	char task[32];
	pe_train_stats(k->trainer, &st);
	pe_train_label(pe_train_config(k->trainer), task, sizeof task);
	view_item(it, 0, "trained on %s", task);
	view_item(it, 1, "step %zu", st.step);
	if (st.diverged)
		view_item(it, 0, "diverged at step %zu: stopped", st.step + 1);
	else if (st.eval_step == st.step && isfinite(st.accuracy))
		view_item(it, 1, "held-out accuracy %.1f%%",
		    100 * st.accuracy);
	else if (isfinite(st.accuracy))
		view_item(it, 1, "held-out accuracy %.1f%% at step %zu",
		    100 * st.accuracy, st.eval_step);
}

static const struct pe_enc_key learned_keys[] = {
	PE_SHARED_D_MODEL("d_model"),
	PE_SHARED_SEQ_LEN,
	PE_KEYS_END,
};

static const struct pe_enc_panel learned_panels[] = {
	{PE_PANEL_ATTENTION, view_toy_panel, view_toy_width},
	{PE_PANEL_EXAMPLE, view_example_sum, view_example_width},
	{PE_PANEL_OVERVIEW, NULL, NULL},
};

/* The color range of the table and the bound of its dot products, once
 * per config rather than once per frame. */
static int
learned_model(struct pe_model *m)
{
	const struct pe_config *cfg = &m->cfg;
	size_t rows = cfg->max_len < cfg->n ? cfg->max_len : cfg->n;

	for (size_t p = 0; p < rows; p++) {
		double sq = 0;
		for (size_t j = 0; j < cfg->d; j++) {
			double v = (double)cfg->table[p * cfg->d + j];
			sq += v * v;
			if (fabs(v) > m->learned_absmax)
				m->learned_absmax = fabs(v);
		}
		if (sq > m->sim_bound)
			m->sim_bound = sq;
	}
	return PE_OK;
}

const struct pe_enc_view view_learned_row = {
	.main = PE_FIELD_PE,
	.params = learned_params,
	.draw = view_learned,
	.keys = learned_keys,
	.panels = learned_panels,
	.map = learned_map,
	.model = learned_model,
};
