/* Axes (tick labels that never touch) and the color-bar legend. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pescope/draw.h"

#define GLYPH_RULE 0x2500u /* BOX DRAWINGS LIGHT HORIZONTAL */
#define GLYPH_TICK 0x252cu /* BOX DRAWINGS LIGHT DOWN AND HORIZONTAL */
#define GLYPH_HALF 0x2580u /* UPPER HALF BLOCK */
#define AXIS_MIN_STEP 3    /* vertical labels: at least 2 blank rows apart */
#define AXIS_MAX_STEP 8

/* First index covered by cell k of ncells tiling [lo, hi): lo +
 * floor(k (hi - lo) / ncells), the lower bound pe_field_span gives block k
 * (the samples of a cell are consecutive blocks, so its first row does not
 * depend on the samples per cell). */
static size_t
axis_first(size_t lo, size_t hi, size_t ncells, size_t k)
{
	unsigned __int128 num = (unsigned __int128)k * (hi - lo);

	return lo + (size_t)(num / ncells);
}

/* How round a label is: twice its trailing decimal zeros, plus one when
 * what is left ends in 5 (so 100 > 50 > 10 > 5 > 3). */
static int
axis_roundness(size_t v)
{
	int z = 0;

	if (v == 0)
		return 40;
	while (v % 10 == 0) {
		v /= 10;
		z++;
	}
	return 2 * z + (v % 10 == 5);
}

/* Format an index in at most width columns (exact digits when they fit). */
static void
axis_label(char *buf, size_t cap, int width, size_t v)
{
	snprintf(buf, cap, "%zu", v);
	if (strlen(buf) > (size_t)width)
		pe_fmt_num(buf, cap, width, (double)v);
}

/* Label step in cells between min_step and max_step whose labels are the
 * roundest numbers (the least round label decides; ties: the smaller step). */
static int
axis_step(size_t lo, size_t hi, size_t ncells, int min_step, int max_step)
{
	int best = min_step, best_score = -1;

	for (int s = min_step; s <= max_step; s++) {
		int score = 99;
		for (size_t k = (size_t)s; k < ncells; k += (size_t)s) {
			int r = axis_roundness(axis_first(lo, hi, ncells, k));
			if (r < score)
				score = r;
		}
		if (score > best_score) {
			best_score = score;
			best = s;
		}
	}
	return best;
}

/* Vertical axis: labels right-aligned in x..x+w-1 at cells 0, s, 2s, ...
 * (s >= 3, so two labels always have blank rows between them); a label
 * equal to the one above it is left out. per_cell only scales the samples,
 * not which row a cell starts at. */
void
pe_draw_vaxis(struct pe_canvas *cv, int x, int y, int w, int h, size_t r0,
              size_t r1, int per_cell, pe_color fg)
{
	char buf[48];
	size_t prev = 0;
	bool have_prev = false;
	int step;

	(void)per_cell;
	if (w < 1 || h < 1 || r1 <= r0)
		return;
	step = axis_step(r0, r1, (size_t)h, AXIS_MIN_STEP, AXIS_MAX_STEP);
	for (int k = 0; k < h; k += step) {
		size_t v = axis_first(r0, r1, (size_t)h, (size_t)k);
		int len;

		if (have_prev && v == prev)
			continue;
		axis_label(buf, sizeof buf, w, v);
		len = (int)strlen(buf);
		pe_canvas_text(cv, x + w - len, y + k, len, buf, fg,
		               PE_COLOR_DEFAULT, 0);
		prev = v;
		have_prev = true;
	}
}

/* Cell of w tiling [lo, hi) that holds index v: the last cell starting at
 * or before v, moved back over cells that start at the same index (when
 * cells outnumber indices, each index spans several). */
static int
axis_cell_of(size_t lo, size_t hi, int w, size_t v)
{
	int k = (int)(((unsigned __int128)(v - lo) * (unsigned)w) / (hi - lo));

	if (k > w - 1)
		k = w - 1;
	while (k + 1 < w && axis_first(lo, hi, (size_t)w, (size_t)k + 1) <= v)
		k++;
	while (k > 0 && axis_first(lo, hi, (size_t)w, (size_t)k) > v)
		k--;
	while (k > 0 && axis_first(lo, hi, (size_t)w, (size_t)k - 1) ==
	                    axis_first(lo, hi, (size_t)w, (size_t)k))
		k--;
	return k;
}

/* Smallest of 1, 2, 5, 10, 20, 50, ... that is at least x. */
static size_t
axis_nice(double x)
{
	size_t p = 1;

	for (;;) {
		if ((double)p >= x)
			return p;
		if ((double)(2 * p) >= x)
			return 2 * p;
		if ((double)(5 * p) >= x)
			return 5 * p;
		if (p > SIZE_MAX / 100)
			return p * 10;
		p *= 10;
	}
}

/* Draw one horizontal-axis label v at cell k: a tick on the rule, the
 * number below it (pulled left to end inside the axis); skipped when it
 * would come within a column of the previous label. */
static void
axis_hlabel(struct pe_canvas *cv, int x, int y, int w, int k, size_t v,
            pe_color fg, int *next_free)
{
	char buf[48];
	int len, at = x + k;

	axis_label(buf, sizeof buf, w, v);
	len = (int)strlen(buf);
	if (at + len > x + w)
		at = x + w - len;
	if (at < *next_free)
		return;
	pe_canvas_set(cv, x + k, y, GLYPH_TICK, fg, PE_COLOR_DEFAULT, 0);
	pe_canvas_text(cv, at, y + 1, len, buf, fg, PE_COLOR_DEFAULT, 0);
	*next_free = at + len + 1;
}

/* Horizontal axis: a rule with ticks at y and labels left-aligned under
 * them at y + 1: c0 at the first cell, then the multiples of a round step
 * (1, 2, 5 x 10^k, wide enough for the longest label and two blanks), each
 * under the cell that holds that column; labels never touch. */
void
pe_draw_haxis(struct pe_canvas *cv, int x, int y, int w, size_t c0, size_t c1,
              pe_color fg)
{
	char buf[48];
	int widest, next_free = x;
	size_t n = c1 - c0, step, v;

	if (w < 1 || c1 <= c0)
		return;
	for (int i = 0; i < w; i++)
		pe_canvas_set(cv, x + i, y, GLYPH_RULE, fg, PE_COLOR_DEFAULT,
		              0);
	snprintf(buf, sizeof buf, "%zu", c1 - 1);
	widest = (int)strlen(buf);
	step = axis_nice((double)(widest + 2) * (double)n / (double)w);
	axis_hlabel(cv, x, y, w, 0, c0, fg, &next_free);
	for (v = (c0 / step + 1) * step; v < c1 && v > c0; v += step) {
		axis_hlabel(cv, x, y, w, axis_cell_of(c0, c1, w, v), v, fg,
		            &next_free);
		if (v > SIZE_MAX - step)
			break;
	}
}

/* The colormap across w cells at (x, y): shade cells (so mono shows the
 * ramp) that carry their level for the 16-color ramps. */
void
pe_draw_colorbar_bar(struct pe_canvas *cv, int x, int y, int w,
                     const struct pe_scale *sc)
{
	for (int i = 0; i < w; i++) {
		double t = ((double)i + 0.5) / (double)w;
		pe_color c = pe_cmap_color(sc->cmap, t);
		struct pe_cell *cell = pe_canvas_at(cv, x + i, y);

		if (cell == NULL)
			continue;
		cell->cp = GLYPH_HALF;
		cell->fg = c;
		cell->bg = c;
		cell->attr = 0;
		cell->kind = PE_CELL_SHADE;
		cell->shade = (uint8_t)(t * 255.0 + 0.5);
		cell->ramp = 0;
		cell->lvok = 0;
		pe_palette_mark(cell, 0, sc->cmap, sc->cyclic, cell->shade);
		pe_palette_mark(cell, 1, sc->cmap, sc->cyclic, cell->shade);
	}
}

/* Color bar: w cells of the colormap (cell i shows t = (i + 0.5) / w, as a
 * shade cell so mono shows the ramp), then lo, mid and hi below it, each in
 * a third of the width: left-aligned, centred, right-aligned. */
void
pe_draw_colorbar(struct pe_canvas *cv, int x, int y, int w,
                 const struct pe_scale *sc, const char *fmt, pe_color fg)
{
	double vals[3] = {sc->lo, 0.5 * (sc->lo + sc->hi), sc->hi};
	int slot = (w - 2) / 3, at[3];
	char buf[3][64];
	int len[3];

	pe_draw_colorbar_bar(cv, x, y, w, sc);
	if (slot < 1)
		return;
	for (int i = 0; i < 3; i++) {
		buf[i][0] = '\0';
		if (fmt != NULL)
			snprintf(buf[i], sizeof buf[i], fmt, vals[i]);
		if (fmt == NULL || strlen(buf[i]) > (size_t)slot)
			pe_fmt_num(buf[i], sizeof buf[i], slot, vals[i]);
		len[i] = (int)strlen(buf[i]);
	}
	at[0] = x;
	at[1] = x + w / 2 - len[1] / 2;
	at[2] = x + w - len[2];
	/* Keep a blank column between neighbours. */
	if (at[1] < at[0] + len[0] + 1)
		at[1] = at[0] + len[0] + 1;
	if (at[1] + len[1] + 1 > at[2])
		at[1] = at[2] - 1 - len[1];
	for (int i = 0; i < 3; i++)
		pe_canvas_text(cv, at[i], y + 1, len[i], buf[i], fg,
		               PE_COLOR_DEFAULT, 0);
}
