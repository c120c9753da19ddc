/* The main map of every view (viewport, cursor, inspector block) and the
 * dot-product panels the vector encodings share. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_impl.h"

/* ---- the main map ---------------------------------------------------- */

/* The state's viewport of the main map. */
static void
viewport(const struct pe_state *st, size_t *r0, size_t *r1, size_t *c0,
    size_t *c1)
{
	size_t rows, cols;
	pe_state_main_dims(&st->pane[st->focus].cfg, &rows, &cols);
	if (st->vr1 == 0 || st->vr1 > rows || st->vc1 > cols ||
	    st->vr0 >= st->vr1 || st->vc0 >= st->vc1) {
		*r0 = 0, *r1 = rows, *c0 = 0, *c1 = cols;
		return;
	}
	*r0 = st->vr0, *r1 = st->vr1, *c0 = st->vc0, *c1 = st->vc1;
}

/* Draw the main map in the left column and note its geometry; fmt is
 * the color bar's number format, or NULL for a mask (no bar: a legend of
 * its two values). */
void
view_map_main(struct ctx *c, const struct pe_scale *sc, const char *title,
    const char *fmt, const char *legend)
{
	struct map_spec s;
	if (c->probe) { /* compare: the pane's own scale, nothing drawn */
		c->scale = *sc;
		return;
	}
	memset(&s, 0, sizeof s);
	s.f = &c->mainf;
	viewport(c->st, &s.r0, &s.r1, &s.c0, &s.c1);
	c->scale = c->share != NULL ? *c->share : *sc;
	s.scale = c->scale;
	s.title = title;
	s.fmt = fmt;
	s.cursor = true;
	s.cur_r = c->st->cur_r;
	s.cur_c = c->st->cur_c;
	s.axes = true;
	s.colorbar = fmt != NULL; /* NULL: a mask, 0 or −∞ only */
	s.mask = fmt == NULL;
	s.values = c->st->values;
	if (legend != NULL && strncmp(legend, "masked", 6) == 0)
		s.swatch = PE_CELL_MASKED;
	else if (legend != NULL && strncmp(legend, "no embedding", 12) == 0)
		s.swatch = PE_CELL_UNDEFINED;
	/* compare: whether the other pane's colors mean the same values;
	 * first, unless a swatch starts the legend */
	char both[512] = "";
	const char *note = !c->in_compare ? NULL
	    : c->share != NULL ? "shared scale" : "own scale";
	if (note != NULL && s.swatch == 0)
		view_cat(both, sizeof both, "%s", note);
	if (legend != NULL)
		view_cat(both, sizeof both, "%s%s", both[0] ? " · " : "",
		    legend);
	if (note != NULL && s.swatch != 0)
		view_cat(both, sizeof both, " · %s", note);
	/* --train-len: the rows past it marked, and said in the legend */
	size_t L = view_map_train_len(c);
	if (L > 0 && L < s.r1) {
		s.mark_from = L;
		view_cat(both, sizeof both, "%s┊ ≥ %zu: past train_len",
		    both[0] ? " · " : "", L);
	}
	s.legend = both[0] != '\0' ? both : NULL;
	s.pixels = true;
	s.keep = c->m->cache != NULL ? c->m->cache->pictures : NULL;
	s.keep_cells = c->m->cache != NULL ? c->m->cache->cells : NULL;
	view_check(c, panel_map(c->cv, c->bx, c->by, c->lw, c->bh, &s, &c->g), 0,
	    0, 0);

	struct pe_hit *h = c->hit;
	h->map_x = c->g.x, h->map_y = c->g.y, h->map_w = c->g.w,
	h->map_h = c->g.h;
	h->r0 = c->g.r0, h->r1 = c->g.r1, h->c0 = c->g.c0, h->c1 = c->g.c1;
	h->nsr = c->g.nsr, h->nsc = c->g.nsc;
	h->map_cw = c->g.cw;
	size_t R = c->g.r1 - c->g.r0, C = c->g.c1 - c->g.c0;
	/* A step is the smallest block: blocks differ by at most one element,
	 * so rounding down never jumps over a whole block (every row stays
	 * reachable); rounding up skipped rows at sizes like 64 in 42. */
	h->cell_rows = c->g.nsr ? R / c->g.nsr : 1;
	h->cell_cols = c->g.nsc ? C / c->g.nsc : 1;
	/* a pixel layer: its samples are the cursor's steps and what a click
	 * picks */
	h->pnr = c->g.pnr, h->pnc = c->g.pnc;
	h->px_w = c->cv->px_w, h->px_h = c->cv->px_h;
	if (c->g.pnr > 0) {
		h->cell_rows = R / c->g.pnr;
		h->cell_cols = C / c->g.pnc;
	}
	if (h->cell_rows < 1)
		h->cell_rows = 1;
	if (h->cell_cols < 1)
		h->cell_cols = 1;
}

/* The block of elements that the cursor's sample (half a cell, or a
 * pixel's sample) covers. */
static void
cursor_block(const struct ctx *c, size_t *r0, size_t *r1, size_t *c0,
    size_t *c1)
{
	const struct map_geom *g = &c->g;
	size_t nr = g->pnr > 0 ? g->pnr : g->nsr; /* pixels, or half cells */
	size_t nc = g->pnr > 0 ? g->pnc : g->nsc;
	size_t sr = panel_sample_of(g->r0, g->r1, nr, c->st->cur_r);
	size_t sc = panel_sample_of(g->c0, g->c1, nc, c->st->cur_c);
	pe_field_span(g->r0, g->r1, nr, sr, r0, r1);
	pe_field_span(g->c0, g->c1, nc, sc, c0, c1);
}

/* Second inspector line: the cursor cell's block, when it has several. */
void
view_map_inspect(struct ctx *c, const char *rname, const char *cname)
{
	size_t r0, r1, c0, c1;
	struct pe_stats s;
	if (c->probe || c->g.nsr == 0)
		return;
	cursor_block(c, &r0, &r1, &c0, &c1);
	if ((r1 - r0) * (c1 - c0) <= 1) {
		snprintf(c->insp[1], sizeof c->insp[1], " the cursor's sample is "
		    "one element: %s %zu, %s %zu", rname, r0, cname, c0);
		return;
	}
	int rc = pe_field_block(&c->mainf, r0, r1, c0, c1, true, &s);
	if (view_check(c, rc, 0, 0, 0) != PE_OK) {
		snprintf(c->insp[1], sizeof c->insp[1], " the cursor's sample: "
		    "not computed: %s", pe_strerror(rc));
		return;
	}
	char *b = c->insp[1];
	snprintf(b, sizeof c->insp[1], " sample = block %s %zu–%zu × %s %zu–%zu "
	    "(%zu elements): ", rname, r0, r1 - 1, cname, c0, c1 - 1,
	    (r1 - r0) * (c1 - c0));
	if (c->mainf.kind == PE_FIELD_ROPE_ANGLE)
		view_cat(b, sizeof c->insp[1], "circular mean %.4g rad, resultant %.3g",
		    s.mean, s.resultant);
	else if (isnan(s.mean))
		view_cat(b, sizeof c->insp[1], "all %s", s.masked ? "masked" : "undefined");
	else if (s.minmax_exact)
		view_cat(b, sizeof c->insp[1], "mean %.6g  min %.6g  max %.6g", s.mean,
		    s.min, s.max);
	else /* past the kernel's scan budget: NAN, not numbers */
		view_cat(b, sizeof c->insp[1], "mean %.6g  min, max: too many "
		    "to scan", s.mean);
	if (s.masked)
		view_cat(b, sizeof c->insp[1], "  (%llu masked)",
		    (unsigned long long)s.masked);
	if (s.undefined)
		view_cat(b, sizeof c->insp[1], "  (%llu undefined)",
		    (unsigned long long)s.undefined);
}

/* The --train-len L a view marks, or 0. */
size_t
view_map_train_len(const struct ctx *c)
{
	if (pe_enc_view_of(c->cfg)->rows_not_positions)
		return 0;
	return c->cfg->teach.train_len;
}

/* --train-len on a plot over positions [0, n) in ns samples. */
void
view_map_mark_plot(struct ctx *c, int x, int y, int w, int h, size_t n,
    size_t ns)
{
	size_t L = view_map_train_len(c);
	if (L == 0 || L >= n || ns == 0)
		return;
	panel_plot_mark(c->cv, x, y, w, h, ns, panel_sample_of(0, n, ns, L),
	    "┊train_len", C_MARK);
}

/* ---- right-column panels -------------------------------------------- */

/* Similarity row S(p, j) for keys j across [0, n) as block means. */
static int
sim_row(const struct pe_field *f, size_t p, size_t n, size_t ns, double *ys)
{
	struct pe_stats *st = calloc(ns, sizeof *st);
	if (st == NULL)
		return PE_ENOMEM;
	int rc = pe_field_grid(f, p, p + 1, 1, 0, n, ns, st);
	for (size_t i = 0; i < ns && rc == PE_OK; i++)
		ys[i] = st[i].mean;
	free(st);
	return rc;
}

/* Largest |S| a similarity field reaches: S(p, p) bounds it. */
double
view_map_sim_bound(const struct pe_model *m)
{
	if (m->sim_bound > 0) /* learned: |PE_p . PE_q| <= max |PE_p|^2 */
		return m->sim_bound;
	double v = pe_field_value(&m->sim, 0, 0);
	return isfinite(v) && v > 0 ? v : 1;
}

/* The dot-product curve: S(p, j) against the key j for the cursor p. */
void
view_map_dot(struct ctx *c, int x, int y, int w, int h, size_t p,
    const char *what)
{
	size_t n = c->cfg->n;
	int pw = w - 7;
	if (pw < 4 || h < 4 || !c->m->has_sim)
		return;
	size_t ns = (size_t)pw * 2;
	if (ns > n)
		ns = n;
	/* the curve, and the unscaled one it is compared with (rope) */
	double *ys = calloc(ns, sizeof *ys);
	double *base = c->m->has_base ? calloc(ns, sizeof *base) : NULL;
	int rc = ys == NULL || (c->m->has_base && base == NULL)
	    ? PE_ENOMEM : sim_row(&c->m->sim, p, n, ns, ys);
	if (rc == PE_OK && base != NULL)
		rc = sim_row(&c->m->base, p, n, ns, base);
	if (view_check(c, rc, x, y, w) != PE_OK) {
		free(ys);
		free(base);
		return;
	}
	double bnd = c->sim_bound > 0 ? c->sim_bound : view_map_sim_bound(c->m);
	char title[160], xlo[40], xhi[40];
	/* the query stays; what it is shortens first */
	char tail[48], head[100];
	snprintf(tail, sizeof tail, ", query %zu", p);
	if (pe_text_fit(head, sizeof head, what, w - pe_text_cells(tail)) > 0)
		snprintf(title, sizeof title, "%s%s", head, tail);
	else
		snprintf(title, sizeof title, "query %zu", p);
	if (p > 0)
		snprintf(xlo, sizeof xlo, "key 0 (k=−%zu)", p);
	else
		snprintf(xlo, sizeof xlo, "key 0 (k=0)");
	snprintf(xhi, sizeof xhi, "%zu (k=%zu)", n - 1, n - 1 - p);
	long mark = (long)panel_sample_of(0, n, ns, p);
	panel_plot(c->cv, x, y, w, h, title, ys, ns, -bnd, bnd, xlo, xhi, mark);
	view_map_mark_plot(c, x, y, w, h, n, ns);
	if (base != NULL)
		panel_plot_overlay(c->cv, x, y, w, h, base, ns, -bnd, bnd, C_CURVE2);
	free(ys);
	free(base);
}

/* The similarity matrix as a small map. */
void
view_map_simmap(struct ctx *c, int x, int y, int w, int h, const char *title)
{
	struct map_spec s;
	struct map_geom g;
	double bnd = view_map_sim_bound(c->m);
	memset(&s, 0, sizeof s);
	s.f = &c->m->sim;
	s.r0 = 0, s.r1 = c->cfg->n, s.c0 = 0, s.c1 = c->cfg->n;
	s.scale = (struct pe_scale){PE_CMAP_DIVERGING, -bnd, bnd, false};
	s.title = title;
	s.axes = true;
	s.colorbar = true;
	s.cursor = false;
	s.fmt = "%.3g";
	s.mark_from = view_map_train_len(c) < s.r1 ? view_map_train_len(c) : 0;
	/* the same block means every frame of this model: a cursor move
	 * redraws them without the kernel (at d 8192 a grid is ~10 ms) */
	s.keep_cells = c->m->cache != NULL ? c->m->cache->sim_cells : NULL;
	view_check(c, panel_map(c->cv, x, y, w, h, &s, &g), 0, 0, 0);
}

/* Values of the cursor row of the main map across its columns. */
void
view_map_row(struct ctx *c, int x, int y, int w, int h, size_t p,
    const char *title, double lo, double hi, const char *cname)
{
	size_t cols = c->mainf.cols;
	int pw = w - 7;
	if (pw < 4 || h < 4)
		return;
	size_t ns = (size_t)pw * 2 < cols ? (size_t)pw * 2 : cols;
	struct pe_stats *st = calloc(ns, sizeof *st);
	double *ys = calloc(ns, sizeof *ys);
	int rc = st == NULL || ys == NULL
	    ? PE_ENOMEM : pe_field_grid(&c->mainf, p, p + 1, 1, 0, cols, ns, st);
	if (view_check(c, rc, x, y, w) == PE_OK) {
		for (size_t i = 0; i < ns; i++)
			ys[i] = st[i].mean;
		char xhi[32], xlo[32];
		snprintf(xlo, sizeof xlo, "%s 0", cname);
		snprintf(xhi, sizeof xhi, "%zu", cols - 1);
		long mark = (long)panel_sample_of(0, cols, ns, c->st->cur_c);
		panel_plot(c->cv, x, y, w, h, title, ys, ns, lo, hi, xlo, xhi, mark);
	}
	free(st);
	free(ys);
}
