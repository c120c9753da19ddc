/* Panels: a map with axes and color bar, a labelled braille plot. */
#include "view/panels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Width of the vertical axis labels for rows up to hi. */
static int
vaxis_width(size_t hi)
{
	char buf[32];
	return snprintf(buf, sizeof buf, "%zu", hi) + 1;
}

/* Lines a map panel needs besides the map. */
int
panel_map_chrome_h(const struct map_spec *s)
{
	return (s->title != NULL) + (s->axes ? 2 : 0) + (s->colorbar ? 2 : 0) +
	    (s->legend != NULL);
}

/* Sample index of nb tiling [lo, hi) that holds element v. */
size_t
panel_sample_of(size_t lo, size_t hi, size_t nb, size_t v)
{
	size_t n = hi - lo, b0, b1;
	if (v < lo)
		return 0;
	size_t k = (size_t)((double)(v - lo) * (double)nb / (double)n);
	if (k >= nb)
		k = nb - 1;
	for (;;) {
		pe_field_span(lo, hi, nb, k, &b0, &b1);
		if (v < b0 && k > 0)
			k--;
		else if (v >= b1 && k + 1 < nb)
			k++;
		else
			return k;
	}
}

/* Samples for n elements in `avail` sample slots: whole multiples when the
 * elements are few (crisp), else blocks of ceil(n / avail) elements. */
static size_t
fit_samples(size_t n, size_t avail)
{
	if (avail == 0)
		return 0;
	if (n <= avail)
		return n * (avail / n);
	size_t b = (n + avail - 1) / avail;
	return (n + b - 1) / b;
}

/* Draw a map panel into the rectangle. */
void
panel_map(struct pe_canvas *cv, int x, int y, int w, int h,
    const struct map_spec *s, struct map_geom *g)
{
	int axw = s->axes ? vaxis_width(s->r1 > 0 ? s->r1 - 1 : 0) : 0;
	int avail_h = h - panel_map_chrome_h(s);
	int avail_w = w - axw;
	memset(g, 0, sizeof *g);
	if (avail_h < 1 || avail_w < 2)
		return;
	if (s->title != NULL) {
		pe_canvas_text(cv, x, y, w, s->title, C_TEXT, PE_COLOR_DEFAULT,
		    PE_ATTR_BOLD);
		y++;
	}
	size_t R = s->r1 - s->r0, C = s->c1 - s->c0;
	size_t nsr = fit_samples(R, (size_t)avail_h * 2);
	size_t nsc = fit_samples(C, (size_t)avail_w);
	int mh = (int)((nsr + 1) / 2), mw = (int)nsc;
	struct pe_stats *st = calloc((size_t)mh * 2 * nsc, sizeof *st);
	if (st == NULL)
		return;
	pe_field_grid(s->f, s->r0, s->r1, nsr, s->c0, s->c1, nsc, st);
	if (nsr % 2 != 0) /* the last lower half has no sample */
		memcpy(st + nsr * nsc, st + (nsr - 1) * nsc, nsc * sizeof *st);
	int mx = x + axw;
	pe_draw_heatmap(cv, mx, y, mw, mh, st, &s->scale);
	if (nsr % 2 != 0)
		for (int c = 0; c < mw; c++) {
			struct pe_cell *cell = pe_canvas_at(cv, mx + c, y + mh - 1);
			if (cell != NULL && cell->cp == 0x2580)
				cell->bg = PE_COLOR_DEFAULT;
		}
	free(st);

	g->x = mx, g->y = y, g->w = mw, g->h = mh;
	g->r0 = s->r0, g->r1 = s->r1, g->c0 = s->c0, g->c1 = s->c1;
	g->nsr = nsr, g->nsc = nsc;

	int yy = y + mh;
	if (s->axes) {
		pe_draw_vaxis(cv, x, y, axw - 1, mh, s->r0, s->r1,
		    (int)(nsr >= R ? 2 : 2), C_DIM);
		pe_draw_haxis(cv, mx, yy, mw, s->c0, s->c1, C_DIM);
		yy += 2;
	}
	if (s->cursor && s->cur_r >= s->r0 && s->cur_r < s->r1 &&
	    s->cur_c >= s->c0 && s->cur_c < s->c1) {
		size_t sr = panel_sample_of(s->r0, s->r1, nsr, s->cur_r);
		size_t sc = panel_sample_of(s->c0, s->c1, nsc, s->cur_c);
		struct pe_cell *cell = pe_canvas_at(cv, mx + (int)sc, y + (int)sr / 2);
		if (cell != NULL) {
			pe_color bg = sr % 2 == 0 ? cell->fg : cell->bg;
			int r = 0, gg = 0, b = 0;
			if (bg >= 0)
				r = (bg >> 16) & 255, gg = (bg >> 8) & 255, b = bg & 255;
			bool light = bg >= 0 && 299 * r + 587 * gg + 114 * b > 128000;
			cell->cp = '+';
			cell->fg = light ? PE_RGB(0, 0, 0) : PE_RGB(255, 255, 255);
			cell->bg = bg;
			cell->attr = PE_ATTR_BOLD;
			cell->kind = PE_CELL_TEXT;
		}
		if (s->axes) {
			pe_canvas_set(cv, x + axw - 1, y + (int)sr / 2, 0x25b8, C_ACCENT,
			    PE_COLOR_DEFAULT, 0);
			pe_canvas_set(cv, mx + (int)sc, y + mh, 0x25b4, C_ACCENT,
			    PE_COLOR_DEFAULT, 0);
		}
	}
	if (s->colorbar) {
		int bw = mw < 12 ? (w < 24 ? w : 24) : mw;
		if (bw > w)
			bw = w;
		pe_draw_colorbar(cv, x + (bw == mw ? axw : 0), yy, bw, &s->scale,
		    s->fmt != NULL ? s->fmt : "%.3g", C_DIM);
		yy += 2;
	}
	if (s->legend != NULL)
		pe_canvas_text(cv, x, yy, w, s->legend, C_DIM, PE_COLOR_DEFAULT, 0);
}

/* Range of finite values in v[n]. */
bool
panel_range(const double *v, size_t n, double *lo, double *hi)
{
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (!any || v[i] < *lo)
			*lo = v[i];
		if (!any || v[i] > *hi)
			*hi = v[i];
		any = true;
	}
	return any;
}

/* Width of the y labels of a plot. */
#define PLOT_YLAB 7

/* A braille plot with title and labels. */
void
panel_plot(struct pe_canvas *cv, int x, int y, int w, int h,
    const char *title, const double *ys, size_t n, double ylo, double yhi,
    const char *xlo, const char *xhi, long x_mark)
{
	char buf[32];
	if (h < 4 || w < PLOT_YLAB + 4)
		return;
	pe_canvas_text(cv, x, y, w, title, C_TEXT, PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	int py = y + 1, ph = h - 2, px = x + PLOT_YLAB, pw = w - PLOT_YLAB;
	pe_canvas_text(cv, x, py, PLOT_YLAB - 1,
	    pe_fmt_num(buf, sizeof buf, PLOT_YLAB - 1, yhi), C_DIM,
	    PE_COLOR_DEFAULT, 0);
	pe_canvas_text(cv, x, py + ph - 1, PLOT_YLAB - 1,
	    pe_fmt_num(buf, sizeof buf, PLOT_YLAB - 1, ylo), C_DIM,
	    PE_COLOR_DEFAULT, 0);
	for (int r = 0; r < ph; r++)
		pe_canvas_set(cv, px - 1, py + r, 0x2502, C_DIM, PE_COLOR_DEFAULT, 0);
	/* the zero line, when zero is inside the range */
	if (ylo < 0 && yhi > 0) {
		int dy = (int)lround((yhi / (yhi - ylo)) * (ph * 4 - 1));
		for (int dx = 0; dx < pw * 2; dx += 2)
			pe_draw_dot(cv, px, py, pw, ph, dx, dy, C_DIM);
	}
	if (x_mark >= 0 && n > 0) {
		int dx = (int)((double)x_mark * (pw * 2 - 1) /
		    (double)(n > 1 ? n - 1 : 1));
		for (int dy = 0; dy < ph * 4; dy += 2)
			pe_draw_dot(cv, px, py, pw, ph, dx, dy, C_ACCENT);
	}
	pe_draw_plot(cv, px, py, pw, ph, ys, n, ylo, yhi, C_CURVE);
	pe_canvas_text(cv, px, py + ph, pw, xlo, C_DIM, PE_COLOR_DEFAULT, 0);
	int l = (int)strlen(xhi);
	if (l < pw - (int)strlen(xlo) - 1)
		pe_canvas_text(cv, px + pw - l, py + ph, l, xhi, C_DIM,
		    PE_COLOR_DEFAULT, 0);
}

/* A second curve over a plot drawn by panel_plot in the same rectangle. */
void
panel_plot_overlay(struct pe_canvas *cv, int x, int y, int w, int h,
    const double *ys, size_t n, double ylo, double yhi, pe_color fg)
{
	if (h < 4 || w < PLOT_YLAB + 4)
		return;
	pe_draw_plot(cv, x + PLOT_YLAB, y + 1, w - PLOT_YLAB, h - 2, ys, n, ylo,
	    yhi, fg);
}
