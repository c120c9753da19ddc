/* Axes (tick labels that never touch) and the color-bar legend. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"

#define GLYPH_RULE 0x2500u /* BOX DRAWINGS LIGHT HORIZONTAL */
#define GLYPH_TICK 0x252cu /* BOX DRAWINGS LIGHT DOWN AND HORIZONTAL */
#define GLYPH_HALF 0x2580u /* UPPER HALF BLOCK */
#define AXIS_VGAP 3        /* vertical labels: at least 2 blank rows apart */

/* Element shown by sample s of ns tiling [lo, hi): lo + floor(s n / ns),
 * the lower bound pe_field_span gives block s (with more samples than
 * elements each element repeats over consecutive samples). */
static size_t
axis_elem(size_t lo, size_t hi, size_t ns, size_t s)
{
	return lo + (size_t)((unsigned __int128)s * (hi - lo) / ns);
}

/* First sample of ns tiling [lo, hi) that shows v: the last sample
 * starting at or before v, moved back over samples that start at the same
 * element. */
static size_t
axis_sample_of(size_t lo, size_t hi, size_t ns, size_t v)
{
	size_t s = (size_t)((unsigned __int128)(v - lo) * ns / (hi - lo));

	if (s > ns - 1)
		s = ns - 1;
	while (s + 1 < ns && axis_elem(lo, hi, ns, s + 1) <= v)
		s++;
	while (s > 0 && axis_elem(lo, hi, ns, s) > v)
		s--;
	while (s > 0 &&
	       axis_elem(lo, hi, ns, s - 1) == axis_elem(lo, hi, ns, s))
		s--;
	return s;
}

/* Next of 1, 2, 5, 10, 20, 50, ... after p (0 when it would overflow). */
static size_t
axis_next_step(size_t p)
{
	size_t d = p, m = 1;

	while (d >= 10) {
		d /= 10;
		m *= 10;
	}
	if (d == 1)
		return 2 * m;
	if (d == 2)
		return 5 * m;
	return m > SIZE_MAX / 10 ? 0 : 10 * m;
}

/* Ticks at lo and at the multiples of step in (lo, hi), each at the cell of
 * its first sample (one closer than gap cells to the tick before is left
 * out: never, with pe_axis_ticks's step). Returns the count (at most max
 * written). */
static size_t
axis_place(size_t lo, size_t hi, size_t ns, int per_cell, int gap, size_t step,
           struct pe_tick *dest, size_t max)
{
	size_t n = 0, m = (lo / step + 1) * step;
	int last = 0;

	if (max > 0)
		dest[n++] = (struct pe_tick){lo, 0};
	for (; m < hi && m > lo && n < max; m += step) {
		int cell =
		    (int)(axis_sample_of(lo, hi, ns, m) / (size_t)per_cell);

		if (cell - last >= gap) {
			dest[n++] = (struct pe_tick){m, cell};
			last = cell;
		}
		if (m > SIZE_MAX - step)
			break;
	}
	return n;
}

/* Round ticks: the smallest 1-2-5 step whose multiples, and lo, all land
 * at least gap cells apart, so that no multiple is left out. */
size_t
pe_axis_ticks(size_t lo, size_t hi, size_t ns, int per_cell, int gap,
              struct pe_tick *dest, size_t max)
{
	size_t step = 1;

	if (hi <= lo || ns == 0 || per_cell < 1 || max == 0)
		return 0;
	if (gap < 1)
		gap = 1;
	/* a first guess from the mean spacing, then the exact check */
	double need = (double)gap * per_cell * (double)(hi - lo) / (double)ns;
	while (step != 0 && (double)axis_next_step(step) <= need * 0.5)
		step = axis_next_step(step);
	for (; step != 0; step = axis_next_step(step)) {
		/* lo's label counts too (0 10 20, never 0 20 30, nor 34 100
		 * 150 with 50 left out) */
		size_t m = (lo / step + 1) * step, prev = 0;
		bool ok = true;

		for (; m < hi && m > lo; m += step) {
			size_t c =
			    axis_sample_of(lo, hi, ns, m) / (size_t)per_cell;

			if (prev != SIZE_MAX && c - prev < (size_t)gap) {
				ok = false;
				break;
			}
			prev = c;
			if (m > SIZE_MAX - step)
				break;
		}
		if (ok)
			return axis_place(lo, hi, ns, per_cell, gap, step, dest,
			                  max);
	}
	dest[0] = (struct pe_tick){lo, 0};
	return 1;
}

/* Format an index in at most width columns (exact digits when they fit). */
static void
axis_label(char *buf, size_t cap, int width, size_t v)
{
	snprintf(buf, cap, "%zu", v);
	if (strlen(buf) > (size_t)width)
		pe_fmt_num(buf, cap, width, (double)v);
}

/* Vertical axis: labels right-aligned in x..x+w-1 at the cells of
 * pe_axis_ticks (2 samples a cell, labels 3 cells apart at least). */
void
pe_draw_vaxis(struct pe_canvas *cv, int x, int y, int w, int h, size_t r0,
              size_t r1, size_t ns, pe_color fg)
{
	struct pe_tick t[256];
	char buf[48];
	size_t n;

	if (w < 1 || h < 1 || r1 <= r0 || ns == 0)
		return;
	n = pe_axis_ticks(r0, r1, ns, 2, AXIS_VGAP, t, sizeof t / sizeof t[0]);
	for (size_t i = 0; i < n && t[i].cell < h; i++) {
		int len;

		axis_label(buf, sizeof buf, w, t[i].v);
		len = (int)strlen(buf);
		pe_canvas_text(cv, x + w - len, y + t[i].cell, len, buf, fg,
		               PE_COLOR_DEFAULT, 0);
	}
}

/* Horizontal axis: a rule with ticks at y and labels left-aligned under
 * them at y + 1 (pulled left to end inside the axis), at pe_axis_ticks's
 * cells spaced for the widest label and two blanks; a label that would
 * touch the one before it is left out. */
void
pe_draw_haxis(struct pe_canvas *cv, int x, int y, int w, size_t c0, size_t c1,
              pe_color fg)
{
	struct pe_tick t[256];
	char buf[48];
	int next_free = x;
	size_t n;

	if (w < 1 || c1 <= c0)
		return;
	for (int i = 0; i < w; i++)
		pe_canvas_set(cv, x + i, y, GLYPH_RULE, fg, PE_COLOR_DEFAULT,
		              0);
	snprintf(buf, sizeof buf, "%zu", c1 - 1);
	n = pe_axis_ticks(c0, c1, (size_t)w, 1, (int)strlen(buf) + 2, t,
	                  sizeof t / sizeof t[0]);
	for (size_t i = 0; i < n; i++) {
		int len, at = x + t[i].cell;

		axis_label(buf, sizeof buf, w, t[i].v);
		len = (int)strlen(buf);
		if (at + len > x + w)
			at = x + w - len;
		if (at < next_free)
			continue;
		pe_canvas_set(cv, x + t[i].cell, y, GLYPH_TICK, fg,
		              PE_COLOR_DEFAULT, 0);
		pe_canvas_text(cv, at, y + 1, len, buf, fg, PE_COLOR_DEFAULT,
		               0);
		next_free = at + len + 1;
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
