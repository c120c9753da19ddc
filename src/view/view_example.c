/* The worked example panel: a token's vector x and the position
 * added to it at the cursor's position p (sinusoidal, learned: x + PE(p)),
 * or x rotated there (rope: R_p x), as rows of numbers over signed bars,
 * then the norms and the angle: addition changes length and direction,
 * rotation keeps the length. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/example.h"
#include "pescope/rope.h"
#include "pescope/toy.h"

#include "view/view_impl.h"

/* Cells a number takes at most in the rows, a blank included. */
#define EX_NUM_W 7
/* The word whose toy embedding is x without --embedding. */
#define EX_WORD "the"

/* One row of the example: its label, d values and the bars' color. */
struct ex_row {
	const char *label;
	const double *v;
	pe_color fg;
};

/* x: --embedding when it has d numbers, else the toy embedding of
 * EX_WORD; says which into src[cap]. */
void
view_example_vector(const struct pe_config *cfg, double *x, char *src,
    size_t cap)
{
	const struct pe_teach *t = &cfg->teach;
	if (t->embedding != NULL && t->n_embedding == cfg->d) {
		memcpy(x, t->embedding, cfg->d * sizeof *x);
		snprintf(src, cap, "x: the token's vector, %zu numbers given by "
		    "--embedding", cfg->d);
		return;
	}
	pe_toy_embedding(EX_WORD, strlen(EX_WORD), cfg->d, x);
	if (t->embedding != NULL)
		snprintf(src, cap, "x = the toy embedding of \"%s\" (--embedding "
		    "has %zu numbers, d_model is %zu)", EX_WORD, t->n_embedding,
		    cfg->d);
	else
		snprintf(src, cap, "x = the toy embedding of \"%s\" (--embedding "
		    "sets x)", EX_WORD);
}

/* v as the rows print it: three significant digits, fewer (or an
 * exponent) when that is wider than a column's number. */
static void
ex_num(char *buf, size_t cap, double v)
{
	if (isnan(v))
		snprintf(buf, cap, "·");
	else if (snprintf(buf, cap, "%.3g", v + 0.0) > EX_NUM_W - 1)
		pe_fmt_num(buf, cap, EX_NUM_W - 1, v);
}

/* Signed bars of v over [0, d) in the w x hb cells at (x, y): one bar per
 * column of cw cells (cw > 0), else a dense chart, a dot column per
 * block of dimensions (their mean); scale is the largest |value|. */
static void
ex_bars(struct pe_canvas *cv, int x, int y, int w, int hb, const double *v,
    size_t d, int cw, double scale, pe_color fg)
{
	int rows = 4 * hb, half = rows / 2;
	size_t ncol = cw > 0 ? d : (size_t)w * 2;
	for (size_t k = 0; k < ncol; k++) {
		double m;
		int dx0, dx1;
		if (cw > 0) {
			m = v[k];
			int bw = 2 * cw - 2 < 8 ? 2 * cw - 2 : 8;
			dx0 = (int)k * 2 * cw + (2 * cw - bw) / 2;
			dx1 = dx0 + (bw > 1 ? bw : 1);
		} else {
			size_t a, b;
			double sum = 0;
			pe_field_span(0, d, ncol, k, &a, &b);
			for (size_t i = a; i < b; i++)
				sum += v[i];
			m = sum / (double)(b - a);
			dx0 = (int)k;
			dx1 = dx0 + 1;
		}
		if (!isfinite(m) || scale <= 0)
			continue;
		int hgt = (int)lround(fabs(m) / scale * half);
		for (int dx = dx0; dx < dx1; dx++)
			for (int i = 0; i < hgt; i++)
				pe_draw_dot(cv, x, y, w, hb, dx, m > 0 ? half - 1 - i
								 : half + i, fg);
	}
}

/* The rows: a label and numbers, then bars. When d numbers fit (each the
 * widest number and a blank) every dimension has a column, its number
 * over its bar; else the first dimensions' numbers and " …", over bars
 * of all of them. The cursor's dimension cur is in bold. Returns the
 * lines used. */
static int
ex_rows(struct ctx *c, int x, int y, int w, int h, const struct ex_row *r,
    size_t nr, size_t d, size_t cur)
{
	int lw = 0, nw = 4; /* label column; a number's column */
	for (size_t i = 0; i < nr; i++) {
		if (pe_text_cells(r[i].label) + 1 > lw)
			lw = pe_text_cells(r[i].label) + 1;
		for (size_t k = 0; k < d && (size_t)k * 4 < (size_t)w; k++) {
			char b[32];
			ex_num(b, sizeof b, r[i].v[k]);
			if (pe_text_cells(b) + 1 > nw)
				nw = pe_text_cells(b) + 1;
		}
	}
	int ww = w - lw;
	if (ww < nw + 2)
		return 0;
	int cw = (size_t)ww >= d * (size_t)nw ? ww / (int)d : 0;
	size_t shown = cw > 0 ? d : (size_t)((ww - 2) / nw);
	int hb = (h - (int)nr - (cw > 0 ? 0 : 2)) / (int)nr;
	if (hb > 3)
		hb = 3;
	double scale = 0;
	for (size_t i = 0; i < nr; i++)
		for (size_t k = 0; k < d; k++)
			if (isfinite(r[i].v[k]) && fabs(r[i].v[k]) > scale)
				scale = fabs(r[i].v[k]);
	int yy = y;
	for (size_t i = 0; i < nr && yy < y + h; i++) {
		pe_canvas_text(c->cv, x, yy, lw, r[i].label, r[i].fg, PE_COLOR_DEFAULT,
		    PE_ATTR_BOLD);
		for (size_t k = 0; k < shown && k < d; k++) {
			char b[32];
			ex_num(b, sizeof b, r[i].v[k]);
			int l = pe_text_cells(b);
			int at = cw > 0 ? x + lw + (int)k * cw + (cw - l) / 2
					: x + lw + (int)k * nw + (nw - 1 - l);
			pe_canvas_text(c->cv, at, yy, l, b, k == cur ? C_ACCENT : C_TEXT,
			    PE_COLOR_DEFAULT, k == cur ? PE_ATTR_BOLD : 0);
		}
		if (cw == 0 && shown < d)
			pe_canvas_text(c->cv, x + lw + (int)shown * nw, yy, 2, "…",
			    C_DIM, PE_COLOR_DEFAULT, 0);
		yy++;
		if (hb > 0 && yy + hb <= y + h) {
			ex_bars(c->cv, x + lw, yy, ww, hb, r[i].v, d, cw, scale, r[i].fg);
			yy += hb;
		}
	}
	if (cw == 0 && yy < y + h) {
		char l[160];
		snprintf(l, sizeof l, "numbers: dims 0–%zu of %zu; bars: all%s",
		    shown - 1, d, (size_t)ww * 2 < d ? " (a dot column is the mean "
		    "of its dims)" : "");
		yy += panel_text(c->cv, x, yy, w, 2, l, C_DIM, 0);
	}
	return yy - y;
}

/* Title and the source of x; returns the lines used. */
static int
ex_head(struct ctx *c, int x, int y, int w, const char *title,
    const char *src)
{
	int n = panel_text(c->cv, x, y, w, 1, title, C_TEXT, PE_ATTR_BOLD);
	return n + panel_text(c->cv, x, y + n, w, 2, src, C_DIM, 0);
}

/* Additive: x, PE(p) and x + PE(p) at the cursor's position. */
void
view_example_sum(struct ctx *c)
{
	const struct pe_config *cfg = c->cfg;
	size_t d = cfg->d, p = c->st->cur_r, j = c->st->cur_c;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	double *v = malloc(3 * d * sizeof *v);
	if (view_check(c, v == NULL ? PE_ENOMEM : PE_OK, x, y, w) != PE_OK) {
		snprintf(c->panel_insp, sizeof c->panel_insp, " worked example: "
		    "not computed: %s", pe_strerror(PE_ENOMEM));
		return;
	}
	double *xv = v, *pe = v + d, *sum = v + 2 * d;
	char src[200], title[160], l[400];
	view_example_vector(cfg, xv, src, sizeof src);
	int rc = pe_example_sum(cfg, xv, p, 1, sum);
	for (size_t k = 0; k < d; k++) /* the main map's row p: PE[p, :] */
		pe[k] = pe_field_value(&c->mainf, p, k);
	snprintf(title, sizeof title, "x + PE(p) at p = %zu: the worked example",
	    p);
	int used = ex_head(c, x, y, w, title, src);
	y += used + 1;
	h -= used + 1;
	if (view_check(c, rc, x, y, w) != PE_OK) {
		snprintf(c->panel_insp, sizeof c->panel_insp, " worked example: "
		    "not computed: %s", pe_strerror(rc));
		free(v);
		return;
	}
	char lp[32], ls[32];
	snprintf(lp, sizeof lp, "PE(%zu)", p);
	snprintf(ls, sizeof ls, "x+PE(%zu)", p);
	struct ex_row rows[3] = {{"x", xv, C_CURVE2}, {lp, pe, C_ACCENT},
	    {ls, sum, C_CURVE}};
	bool none = isnan(sum[0]); /* learned, past max_len */
	used = ex_rows(c, x, y, w, h - 4, rows, none ? 1 : 3, d, j);
	y += used + 1;
	h -= used + 1;

	double nx = pe_example_norm(xv, d), np = pe_example_norm(pe, d), ns = NAN,
	    ang = NAN;
	if (none) {
		snprintf(l, sizeof l, "position %zu ≥ max_len %zu: the table has no "
		    "PE(%zu) to add", p, cfg->max_len, p);
		panel_text(c->cv, x, y, w, h, l, C_WARN, 0);
		snprintf(c->panel_insp, sizeof c->panel_insp, " x + PE(%zu): no "
		    "embedding — position %zu ≥ max_len %zu", p, p, cfg->max_len);
		free(v);
		return;
	}
	rc = pe_example_sum_norm(cfg, xv, p, &ns);
	if (rc == PE_OK)
		rc = pe_example_sum_angle(cfg, xv, p, &ang);
	view_check(c, rc, x, y, w);
	/* "; " between them: "·" would read as a product */
	snprintf(l, sizeof l, "|x| = %.4g;  |PE(%zu)| = %.4g;  |x + PE(%zu)| = "
	    "%.4g;  angle(x, x + PE(%zu)) = %.4g rad (%.3g°)", nx, p, np, p, ns,
	    p, ang, ang * 180 / M_PI);
	used = panel_text(c->cv, x, y, w, h, l, C_TEXT, 0);
	if (h - used >= 2)
		panel_text(c->cv, x, y + used, w, h - used, "Adding a position "
		    "changes the vector's length and its direction: the token's "
		    "meaning and its place share the same dimensions.", C_DIM, 0);
	snprintf(c->panel_insp, sizeof c->panel_insp, " (x + PE(%zu))[%zu] = "
	    "x[%zu] + PE[%zu,%zu] = %.6g + %.9g = %.9g", p, j, j, p, j, xv[j],
	    pe[j], sum[j]);
	free(v);
}

/* Rotary: x and R_m x at the cursor's position. */
void
view_example_rotated(struct ctx *c)
{
	const struct pe_config *cfg = c->cfg;
	const struct pe_rope *r = &c->mainf.rope;
	size_t d = cfg->d, m = c->st->cur_r, j = c->st->cur_c;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	double *v = malloc(2 * d * sizeof *v);
	if (view_check(c, v == NULL ? PE_ENOMEM : PE_OK, x, y, w) != PE_OK) {
		snprintf(c->panel_insp, sizeof c->panel_insp, " worked example: "
		    "not computed: %s", pe_strerror(PE_ENOMEM));
		return;
	}
	double *xv = v, *rx = v + d;
	char src[200], title[160], l[400], lr[32];
	view_example_vector(cfg, xv, src, sizeof src);
	pe_rope_apply(r, xv, (double)m, rx);
	snprintf(title, sizeof title, "R_m x at m = %zu: the worked example, x "
	    "rotated", m);
	int used = ex_head(c, x, y, w, title, src);
	y += used + 1;
	h -= used + 1;
	snprintf(lr, sizeof lr, "R_%zu x", m);
	struct ex_row rows[2] = {{"x", xv, C_CURVE2}, {lr, rx, C_CURVE}};
	/* the cursor's pair: its first dimension in bold */
	size_t da, db;
	pe_rope_pair_dims(j, r->rot, r->pairing, &da, &db);
	used = ex_rows(c, x, y, w, h - 4, rows, 2, d, da);
	y += used + 1;
	h -= used + 1;

	double nx = pe_example_norm(xv, d), nr = NAN;
	view_check(c, pe_example_rotated_norm(r, xv, m, &nr), x, y, w);
	if (r->attention_scaling == 1.0)
		snprintf(l, sizeof l, "|x| = %.6g;  |R_%zu x| = %.6g = |x|: a "
		    "rotation keeps the length; only the direction moves, by the "
		    "pairs' angles θ_j = m·ω_j.", nx, m, nr);
	else
		snprintf(l, sizeof l, "|x| = %.6g;  |R_%zu x| = %.6g: a rotation "
		    "keeps the length, and HF scales cos and sin by %.4g (the "
		    "rotating dims' length times it).", nx, m, nr,
		    r->attention_scaling);
	panel_text(c->cv, x, y, w, h, l, C_TEXT, 0);

	double th = pe_rope_angle(r, (double)m, j), att = r->attention_scaling;
	double co = att * cos(th), si = att * sin(th);
	snprintf(c->panel_insp, sizeof c->panel_insp, " (R_%zu x)[%zu,%zu] = "
	    "(x_a·c − x_b·s, x_b·c + x_a·s), c = %s%.6g, s = %s%.6g (θ = m·ω_%zu = "
	    "%zu·%.6g) = (%.6g·%.6g − %.6g·%.6g, %.6g·%.6g + %.6g·%.6g) = (%.9g, "
	    "%.9g)", m, da, db, att != 1.0 ? "att·cos θ = " : "cos θ = ", co,
	    att != 1.0 ? "att·sin θ = " : "sin θ = ", si, j, m, r->inv_freq[j],
	    xv[da], co, xv[db], si, xv[db], co, xv[da], si, rx[da], rx[db]);
	free(v);
}

/* See view_impl.h: the right column the worked example needs for every
 * dimension's number (a label, then columns of up to 7 cells: "-0.449 "),
 * for a small d; 0 for a larger one (its numbers shorten to the first
 * dimensions anyway). */
int
view_example_width(const struct ctx *c)
{
	size_t d = c->cfg->d;
	return d <= 8 ? 10 + 7 * (int)d : 0;
}
