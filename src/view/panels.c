/* Panels: a map with axes and color bar, a labelled braille plot. */
#include "view/panels.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/wave.h"
#include "render/pool.h"

/* Width of the vertical axis labels for rows up to hi. */
static int
vaxis_width(size_t hi)
{
	char buf[32];
	return snprintf(buf, sizeof buf, "%zu", hi) + 1;
}

/* Block means of a row-major array over a tiling (pe_field_span's). */
static int
array_grid(const void *arg, size_t r0, size_t r1, size_t nr, size_t c0,
    size_t c1, size_t nc, struct pe_stats *dest)
{
	const struct panel_array *a = arg;
	for (size_t i = 0; i < nr; i++) {
		size_t a0, a1;
		pe_field_span(r0, r1, nr, i, &a0, &a1);
		for (size_t j = 0; j < nc; j++) {
			size_t b0, b1;
			struct pe_stats *s = &dest[i * nc + j];
			double sum = 0;
			uint64_t fin = 0;
			pe_field_span(c0, c1, nc, j, &b0, &b1);
			memset(s, 0, sizeof *s);
			for (size_t r = a0; r < a1; r++)
				for (size_t c = b0; c < b1; c++) {
					double v = a->v[r * a->cols + c];
					if (isinf(v) && v < 0)
						s->masked++;
					else if (!isfinite(v))
						s->undefined++;
					else
						sum += v, fin++;
				}
			s->count = (uint64_t)((a1 - a0) * (b1 - b0));
			s->mean = fin > 0 ? sum / (double)fin : NAN;
			s->resultant = 1;
			s->min = s->max = NAN;
		}
	}
	return PE_OK;
}

/* One element of a row-major array. */
static double
array_value(const void *arg, size_t r, size_t c)
{
	const struct panel_array *a = arg;
	return a->v[r * a->cols + c];
}

/* A row-major array as a map source. */
struct map_source
panel_array_source(const struct panel_array *a)
{
	return (struct map_source){a, array_grid, array_value};
}

/* v with dec decimals; a number that prints as zero has no sign. */
void
panel_value_text(char *buf, size_t cap, double v, int dec)
{
	snprintf(buf, cap, "%.*f", dec, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

/* Width of the vertical axis when rows carry words: the widest label
 * (at most ROW_LABEL_MAX cells), a blank and the marker column. */
#define ROW_LABEL_MAX 12
static int
row_labels_width(const struct map_spec *s)
{
	int wide = 1;
	for (size_t r = s->r0; r < s->r1; r++) {
		int l = pe_text_cells(s->row_labels[r]);
		if (l <= ROW_LABEL_MAX && l > wide)
			wide = l;
	}
	return wide + 2;
}

/* Lines a map panel needs besides the map. */
int
panel_map_chrome_h(const struct map_spec *s)
{
	return (s->title != NULL) + (s->axes ? 1 : 0) +
	    (s->colorbar || s->mask ? 1 : 0) + (s->legend != NULL);
}

/* Cells a map's column sample is wide on cv. */
int
panel_col_cells(const struct pe_canvas *cv)
{
	return cv->large ? 2 : 1;
}

/* One-line horizontal axis: labels left-aligned at the round columns of
 * pe_axis_ticks (the widest label and two blanks apart), a cursor marker at
 * cell `mark` (or -1); a label the marker would touch, or that would run
 * past the map, is left out. Each of the nsc samples is cw cells wide. */
static void
haxis_line(struct pe_canvas *cv, int x, int y, int w, size_t c0, size_t c1,
    size_t nsc, int cw, long mark)
{
	struct pe_tick t[256];
	char buf[32];
	int len = snprintf(buf, sizeof buf, "%zu", c1 - 1);
	size_t n = pe_axis_ticks(c0, c1, nsc, 1, (len + 2 + cw - 1) / cw, t,
	    sizeof t / sizeof t[0]);
	if (mark >= 0)
		pe_canvas_set(cv, x + (int)mark, y, 0x25b4, C_ACCENT,
		    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	for (size_t i = 0; i < n; i++) {
		int cx = t[i].cell * cw;
		int l = snprintf(buf, sizeof buf, "%zu", t[i].v);
		if (cx + l > w)
			break;
		if (mark >= 0 && mark >= cx - 1 && mark <= cx + l)
			continue;
		pe_canvas_text(cv, x + cx, y, l, buf, C_DIM, PE_COLOR_DEFAULT, 0);
	}
}

/* A color bar's number, printed with fmt; one that prints as zero prints
 * without a sign (a rounded "-0" tells the reader nothing), and NaN is
 * "nan" whatever its sign bit (printf writes "-nan"). */
static void
bar_label(char *buf, size_t cap, const char *fmt, double v)
{
	snprintf(buf, cap, fmt, isnan(v) ? NAN : v);
	if (buf[0] == '-' && buf[1] != '\0' &&
	    strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
}

/* One-line color bar: "lo <bar with the midpoint in it> hi". */
static void
colorbar_line(struct pe_canvas *cv, int x, int y, int w,
    const struct pe_scale *sc, const char *fmt)
{
	char lo[32], mid[32], hi[32];
	bar_label(lo, sizeof lo, fmt, sc->lo);
	bar_label(mid, sizeof mid, fmt, 0.5 * (sc->lo + sc->hi));
	bar_label(hi, sizeof hi, fmt, sc->hi);
	if (sc->cyclic) /* angles read better in units of pi */
		snprintf(lo, sizeof lo, "0"), snprintf(mid, sizeof mid, "π"),
		    snprintf(hi, sizeof hi, "2π");
	int ll = pe_canvas_text(cv, x, y, w, lo, C_DIM, PE_COLOR_DEFAULT, 0);
	int hl = (int)strlen(hi) - (sc->cyclic ? 1 : 0);
	int bx = x + ll + 1, bw = w - ll - hl - 2;
	if (bw < 3)
		return;
	pe_draw_colorbar_bar(cv, bx, y, bw, sc);
	int ml = (int)strlen(mid) - (sc->cyclic ? 1 : 0);
	if (ml + 2 < bw) {
		int mx = bx + (bw - ml) / 2;
		pe_color c = pe_cmap_color(sc->cmap, 0.5);
		int r = (c >> 16) & 255, g = (c >> 8) & 255, b = c & 255;
		bool light = 299 * r + 587 * g + 114 * b > 128000;
		pe_canvas_text(cv, mx, y, ml, mid, light ? PE_RGB(0, 0, 0)
		    : PE_RGB(255, 255, 255), c, PE_ATTR_BOLD);
	}
	pe_canvas_text(cv, bx + bw + 1, y, hl, hi, C_DIM, PE_COLOR_DEFAULT, 0);
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

/* Samples for n elements in `avail` sample slots. More elements than slots:
 * one sample per slot, each the mean of its block (blocks differ by at most
 * one element: resolution first). Fewer: a whole magnification when it
 * leaves less than an eighth of the slots blank (every element the same
 * size on screen), else every slot, each element repeated over 1 or 2 (or
 * k and k + 1) consecutive slots as nearest-neighbour scaling does; a
 * sample is then still one exact element (pe_field_span's blocks). */
static size_t
fit_samples(size_t n, size_t avail)
{
	if (avail == 0 || n >= avail)
		return avail;
	size_t whole = n * (avail / n);
	return (avail - whole) * 8 < avail ? whole : avail;
}

/* Say in a panel that its numbers could not be computed (a status the
 * frame also returns). */
void
panel_failed(struct pe_canvas *cv, int x, int y, int w, int status)
{
	char t[96];
	snprintf(t, sizeof t, "not drawn: %s", pe_strerror(status));
	pe_canvas_text_fit(cv, x, y, w, t, C_WARN, PE_COLOR_DEFAULT,
	    PE_ATTR_BOLD);
}

/* The samples [*a, *b) of nb tiling [lo, hi) that show element v (more
 * samples than elements: several; else the one that holds it). */
static void
samples_of(size_t lo, size_t hi, size_t nb, size_t v, size_t *a, size_t *b)
{
	size_t k = panel_sample_of(lo, hi, nb, v), b0, b1;
	*a = *b = k;
	while (*a > 0) {
		pe_field_span(lo, hi, nb, *a - 1, &b0, &b1);
		if (b0 != v || b1 != v + 1)
			break;
		(*a)--;
	}
	for (;; (*b)++) {
		if (*b >= nb)
			break;
		pe_field_span(lo, hi, nb, *b, &b0, &b1);
		if (*b > k && (b0 != v || b1 != v + 1))
			break;
	}
}

/* Words beside the rows: a row's label on the first line that shows it
 * alone in both halves (else on its first line when that line starts it);
 * rows sharing their lines with others get none. */
static void
row_label_axis(struct pe_canvas *cv, int x, int y, int axw, int mh,
    const struct map_spec *s, size_t nsr)
{
	for (size_t r = s->r0; r < s->r1; r++) {
		size_t a, b;
		samples_of(s->r0, s->r1, nsr, r, &a, &b);
		if (b - a < 2 && nsr >= s->r1 - s->r0)
			continue; /* half a line: its neighbour shares it */
		if (b - a < 2) {
			size_t b0, b1;
			pe_field_span(s->r0, s->r1, nsr, a, &b0, &b1);
			if (b1 - b0 != 1 || a % 2 != 0)
				continue;
		}
		int line = (int)((a + 1) / 2);
		const char *l = s->row_labels[r];
		if (line >= mh || pe_text_cells(l) > axw - 2)
			continue;
		pe_canvas_text(cv, x, y + line, axw - 2, l, C_DIM, PE_COLOR_DEFAULT,
		    0);
	}
}

/* Words under the columns when each column is a whole element at least a
 * word and a blank wide (nsc samples of cw cells); false (nothing drawn)
 * otherwise. */
static bool
col_label_line(struct pe_canvas *cv, int x, int y, int w,
    const struct map_spec *s, size_t nsc, int cw, long mark)
{
	if (nsc < s->c1 - s->c0)
		return false;
	for (size_t c = s->c0; c < s->c1; c++) {
		size_t a, b;
		samples_of(s->c0, s->c1, nsc, c, &a, &b);
		if ((int)(b - a) * cw < pe_text_cells(s->col_labels[c]) + 1)
			return false;
	}
	for (size_t c = s->c0; c < s->c1; c++) {
		size_t a, b;
		samples_of(s->c0, s->c1, nsc, c, &a, &b);
		a *= (size_t)cw, b *= (size_t)cw;
		pe_canvas_text(cv, x + (int)a, y, (int)(b - a), s->col_labels[c],
		    mark >= (long)a && mark < (long)b ? C_ACCENT : C_DIM,
		    PE_COLOR_DEFAULT, 0);
	}
	(void)w;
	return true;
}

/* The marker column beside rows >= s->mark_from (--train-len). */
static void
mark_rows(struct pe_canvas *cv, int x, int y, int mh, const struct map_spec *s,
    size_t nsr)
{
	for (int k = 0; k < mh; k++) {
		size_t b0, b1, sr = (size_t)k * 2 + 1 < nsr ? (size_t)k * 2 + 1
							   : (size_t)k * 2;
		pe_field_span(s->r0, s->r1, nsr, sr, &b0, &b1);
		if (b1 > s->mark_from)
			pe_canvas_set(cv, x, y + k, PANEL_MARK_GLYPH, C_MARK,
			    PE_COLOR_DEFAULT, 0);
	}
}

/* Decimals of a map's values cells: none when every shown value is a
 * whole number, else the most of 3, 2, 1, 0 that let every number fit
 * its element's width less a blank; -1 when none fits. */
static int
values_decimals(const struct map_spec *s, size_t nsc, int cw)
{
	bool whole = true;
	int narrow = 1 << 30;
	for (size_t c = s->c0; c < s->c1; c++) {
		size_t a, b;
		samples_of(s->c0, s->c1, nsc, c, &a, &b);
		if ((int)(b - a) * cw < narrow)
			narrow = (int)(b - a) * cw;
	}
	for (size_t r = s->r0; r < s->r1 && whole; r++)
		for (size_t c = s->c0; c < s->c1 && whole; c++) {
			double v = s->f != NULL ? pe_field_value(s->f, r, c)
						: s->src.value(s->src.arg, r, c);
			whole = !isfinite(v) || (v == trunc(v) && fabs(v) < 1e15);
		}
	for (int dec = whole ? 0 : 3; dec >= 0; dec--) {
		bool fit = true;
		char buf[64];
		for (size_t r = s->r0; r < s->r1 && fit; r++)
			for (size_t c = s->c0; c < s->c1 && fit; c++) {
				double v = s->f != NULL ? pe_field_value(s->f, r, c)
							: s->src.value(s->src.arg, r, c);
				if (!isfinite(v))
					continue;
				panel_value_text(buf, sizeof buf, v, dec);
				fit = (int)strlen(buf) + 1 <= narrow;
			}
		if (fit)
			return dec;
	}
	return -1;
}

/* Each element's number over its color, on the middle line of those it
 * fills alone, centred; only when every sample is one element (a
 * magnified map) and the numbers fit. The cursor's number is underlined. */
static bool
draw_values(struct pe_canvas *cv, int mx, int y, const struct map_spec *s,
    size_t nsr, size_t nsc, int cw, bool cur)
{
	bool drew = false;
	if (nsr < s->r1 - s->r0 || nsc < s->c1 - s->c0)
		return false;
	int dec = values_decimals(s, nsc, cw);
	if (dec < 0)
		return false;
	for (size_t r = s->r0; r < s->r1; r++) {
		size_t ra, rb;
		samples_of(s->r0, s->r1, nsr, r, &ra, &rb);
		int l0 = (int)((ra + 1) / 2), l1 = (int)(rb / 2); /* whole lines */
		if (l1 <= l0)
			continue;
		int line = (l0 + l1 - 1) / 2;
		for (size_t c = s->c0; c < s->c1; c++) {
			size_t ca, cb;
			double v = s->f != NULL ? pe_field_value(s->f, r, c)
						: s->src.value(s->src.arg, r, c);
			if (!isfinite(v))
				continue;
			samples_of(s->c0, s->c1, nsc, c, &ca, &cb);
			ca *= (size_t)cw, cb *= (size_t)cw;
			char buf[64];
			panel_value_text(buf, sizeof buf, v, dec);
			int len = (int)strlen(buf);
			int at = mx + (int)ca + ((int)(cb - ca) - len) / 2;
			struct pe_cell *cell = pe_canvas_at(cv, mx + (int)ca, y + line);
			if (cell == NULL)
				continue;
			pe_color bg = cell->fg;
			int rr = (bg >> 16) & 255, gg = (bg >> 8) & 255, bb = bg & 255;
			bool light = bg >= 0 && 299 * rr + 587 * gg + 114 * bb > 128000;
			bool here = cur && r == s->cur_r && c == s->cur_c;
			pe_color fg = light ? PE_RGB(0, 0, 0) : PE_RGB(255, 255, 255);
			/* the element's cells on that line become text: blanks
			 * on its color around the number */
			for (size_t k = ca; k < cb; k++)
				pe_canvas_set(cv, mx + (int)k, y + line, ' ', fg, bg, 0);
			pe_canvas_text(cv, at, y + line, len, buf, fg, bg,
			    here ? PE_ATTR_BOLD | PE_ATTR_UNDERLINE : 0);
			drew = true;
		}
	}
	return drew;
}

/* Draw a map panel into the rectangle; when the kernel fails, say so in
 * it and return the status. */

/* The axis width and the samples a map of spec s gets in w x h cells;
 * false when it does not fit. */
static bool
map_tiling(const struct map_spec *s, int w, int h, int cw, int *axw,
    size_t *nsr, size_t *nsc)
{
	*axw = !s->axes ? 0 : s->row_labels != NULL ? row_labels_width(s)
	    : vaxis_width(s->r1 > 0 ? s->r1 - 1 : 0);
	int avail_h = h - panel_map_chrome_h(s);
	int avail_w = w - *axw;
	if (avail_h < 1 || avail_w < 2)
		return false;
	*nsr = fit_samples(s->r1 - s->r0, (size_t)avail_h * 2);
	*nsc = fit_samples(s->c1 - s->c0, (size_t)(avail_w / cw));
	return *nsc > 0;
}

/* Greatest common divisor. */
static size_t
gcd(size_t a, size_t b)
{
	while (b != 0) {
		size_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The sample rows [k0, k1) of the tiling of [r0, r1) into nr as one
 * grid call: rows [a, b) cut into nb blocks. The band's own cut is the
 * whole tiling's where n k0 / nr and n k1 / nr are whole (the caller's
 * bands start at multiples of nr / gcd(n, nr)); a band of one sample row
 * is always its block. */
static void
band_rows(size_t r0, size_t r1, size_t nr, size_t k0, size_t k1, size_t *a,
    size_t *b)
{
	size_t n = r1 - r0, e;
	if (k1 - k0 == 1) {
		pe_field_span(r0, r1, nr, k0, a, b);
		return;
	}
	*a = r0 + (size_t)((unsigned __int128)n * k0 / nr);
	pe_field_span(r0, r1, nr, k1 - 1, &e, b);
}

/* Drop the canvas's last picture (the one being made). */
static void
drop_last(struct pe_canvas *cv)
{
	if (cv->npix > 0) {
		free(cv->pix[--cv->npix].rgb);
		free(cv->pix[cv->npix].under);
	}
}

/* Pictures made so far, for their serials (pe_pixmap.serial). */
static uint64_t keep_serial;

/* Free what kept pictures and cell grids hold; see panels.h. */
void
panel_keep_free(struct map_keep *k, struct map_keep_cells *kc, int n)
{
	for (int i = 0; i < n; i++) {
		if (k != NULL) {
			free(k[i].rgb);
			memset(&k[i], 0, sizeof k[i]);
		}
		if (kc != NULL) {
			free(kc[i].st);
			memset(&kc[i], 0, sizeof kc[i]);
		}
	}
}

/* Elements of a map past which its cells under a picture are made on
 * both cores (below, the second core's start costs more than it saves). */
#define CELLS_HALVES_ITEMS ((size_t)1 << 22)

/* The cells' grid of cells_grid, cut in two bands at sample row k. */
struct cells_halves {
	const struct map_spec *s;
	size_t nsr, nsc, k;
	struct pe_stats *st;
	int rc[2];
};

/* Part part's band of the cells (cells_halves). */
static void
cells_half(void *arg, int part)
{
	struct cells_halves *h = arg;
	const struct map_spec *s = h->s;
	size_t k0 = part ? h->k : 0, k1 = part ? h->nsr : h->k, a, b;
	band_rows(s->r0, s->r1, h->nsr, k0, k1, &a, &b);
	h->rc[part] = pe_field_grid(s->f, a, b, k1 - k0, s->c0, s->c1, h->nsc,
	    h->st + k0 * h->nsc);
}

/* The kernel's nsr x nsc grid of what s shows into st; with halves (the
 * cells under a picture, seen only while it is sent: the main thread made
 * mrope's a tenth of its frame alone) on both cores where a band's cut is
 * the whole grid's (band_rows) near the middle. */
static int
cells_grid(const struct map_spec *s, size_t nsr, size_t nsc,
    struct pe_stats *st, bool halves)
{
	if (s->f == NULL)
		return s->src.grid(s->src.arg, s->r0, s->r1, nsr, s->c0, s->c1,
		    nsc, st);
	size_t n = s->r1 - s->r0, step = nsr / gcd(n, nsr);
	size_t k = (nsr / 2 + step / 2) / step * step;
	if (!halves || (uint64_t)n * (s->c1 - s->c0) < CELLS_HALVES_ITEMS ||
	    k == 0 || k >= nsr)
		return pe_field_grid(s->f, s->r0, s->r1, nsr, s->c0, s->c1, nsc,
		    st);
	struct cells_halves h = {s, nsr, nsc, k, st, {PE_OK, PE_OK}};
	panel_run2(cells_half, &h);
	return h.rc[0] != PE_OK ? h.rc[0] : h.rc[1];
}

/* The block means of what s shows at nsr x nsc into st: kept ones when
 * they are (s->keep_cells), else the kernel's grid (cells_grid: halves,
 * where a picture will cover them), then kept in place of the oldest
 * (memory running out keeps nothing). */
static int
keep_cells_grid(const struct map_spec *s, size_t nsr, size_t nsc,
    struct pe_stats *st, bool halves)
{
	struct map_keep_cells *kc = s->keep_cells, *old = NULL;
	for (int i = 0; kc != NULL && s->f != NULL && i < MAP_KEEP; i++) {
		struct map_keep_cells *k = &kc[i];
		if (k->used != 0 && k->kind == s->f->kind && k->head ==
		    s->f->head && k->anchor == s->f->anchor && k->r0 == s->r0 &&
		    k->r1 == s->r1 && k->c0 == s->c0 && k->c1 == s->c1 &&
		    k->nsr == nsr && k->nsc == nsc) {
			memcpy(st, k->st, nsr * nsc * sizeof *st);
			k->used = ++keep_serial;
			return PE_OK;
		}
		if (old == NULL || k->used < old->used)
			old = k;
	}
	int rc = cells_grid(s, nsr, nsc, st, halves);
	if (rc != PE_OK || old == NULL)
		return rc;
	struct pe_stats *keep = old->st != NULL && old->nsr * old->nsc == nsr *
	    nsc ? old->st : realloc(old->st, nsr * nsc * sizeof *keep);
	if (keep == NULL) {
		panel_keep_free(NULL, old, 1);
		return rc;
	}
	*old = (struct map_keep_cells){++keep_serial, s->f->kind, s->f->head,
	    s->f->anchor, s->r0, s->r1, s->c0, s->c1, nsr, nsc, keep};
	memcpy(keep, st, nsr * nsc * sizeof *st);
	return rc;
}

/* Whether kept picture k shows what spec s draws into pm on cv (its
 * depth and theme too: they paint the masked and undefined samples). */
static bool
keep_matches(const struct map_keep *k, const struct pe_canvas *cv,
    const struct map_spec *s, const struct pe_pixmap *pm)
{
	return k->serial != 0 && k->depth == cv->depth &&
	    k->theme == cv->theme && k->kind == s->f->kind &&
	    k->head == s->f->head && k->anchor == s->f->anchor &&
	    k->r0 == s->r0 && k->r1 == s->r1 && k->c0 == s->c0 &&
	    k->c1 == s->c1 && k->pw == pm->pw && k->ph == pm->ph &&
	    k->scale.cmap == s->scale.cmap && k->scale.cyclic ==
	    s->scale.cyclic && memcmp(&k->scale.lo, &s->scale.lo,
	    sizeof k->scale.lo) == 0 && memcmp(&k->scale.hi, &s->scale.hi,
	    sizeof k->scale.hi) == 0;
}

/* The kept picture of what s draws into pm on cv, or NULL. */
static struct map_keep *
keep_find(const struct pe_canvas *cv, const struct map_spec *s,
    const struct pe_pixmap *pm)
{
	for (int i = 0; s->keep != NULL && s->f != NULL && i < MAP_KEEP; i++)
		if (keep_matches(&s->keep[i], cv, s, pm))
			return &s->keep[i];
	return NULL;
}

/* Where a picture pm that s draws is to be kept, in place of the oldest
 * kept picture, with room for its pixels, emptied (keep_store fills in
 * what it shows once it is made); NULL where nothing is kept or memory
 * ran out. */
static struct map_keep *
keep_slot(const struct map_spec *s, const struct pe_pixmap *pm)
{
	if (s->keep == NULL || s->f == NULL)
		return NULL;
	struct map_keep *k = &s->keep[0];
	for (int i = 1; i < MAP_KEEP; i++)
		if (s->keep[i].used < k->used)
			k = &s->keep[i];
	size_t n = (size_t)pm->pw * (size_t)pm->ph;
	uint32_t *rgb = k->rgb != NULL && k->pw == pm->pw && k->ph == pm->ph
	    ? k->rgb : realloc(k->rgb, n * sizeof *rgb);
	if (rgb == NULL) {
		panel_keep_free(k, NULL, 1);
		return NULL;
	}
	*k = (struct map_keep){.pw = pm->pw, .ph = pm->ph, .rgb = rgb};
	return k;
}

/* Keep pm's pixels (its cursor not yet framed), already copied into k's
 * (keep_slot; k NULL: nothing kept), as what s draws on cv; pm gets the
 * picture's serial. */
static void
keep_store(const struct pe_canvas *cv, const struct map_spec *s,
    struct map_keep *k, struct pe_pixmap *pm)
{
	pm->serial = ++keep_serial;
	if (k == NULL)
		return;
	*k = (struct map_keep){pm->serial, pm->serial, s->f->kind, s->f->head,
	    s->f->anchor, s->r0, s->r1, s->c0, s->c1, pm->pw, pm->ph, s->scale,
	    cv->depth, cv->theme, k->rgb};
}

/* The most bytes of block means one grid call of a picture fills: room
 * for the shortest band that cuts as the whole does when that is every
 * row (an odd picture height against a power-of-two length: 969 pixel
 * rows, 19-pixel cells, by 275 of 1100 columns of 4096 is 17 MB; at 16 MiB
 * such a picture was a grid call per sample row, 130 ms of CPU instead of
 * 47). */
#define MAP_PIXELS_BYTES ((size_t)1 << 25)

/* The bytes of block means a rectangle of a picture aims at: several
 * rectangles a core, so the two cores taking them in turn finish
 * together, yet few enough that a grid call's own work (a tiling's sincos
 * of every frequency) stays a few percent of it. */
#define MAP_RECT_BYTES ((size_t)1 << 22)

/* The blocks of [lo, lo + n) cut into ns, as grid calls of runs of
 * *run samples that cut as the whole does: *step samples start a run
 * where the cut is whole (ns / gcd(n, ns)); most: the longest run
 * wanted. A run of one sample is always its block. */
static void
map_run(size_t n, size_t ns, size_t most, size_t *step, size_t *run)
{
	*step = ns / gcd(n, ns);
	*run = *step <= most ? *step * (most / *step) : 1;
}

/* A picture's fill (map_pixels_fill): its rectangles of samples, each a
 * grid call, taken in turn by the two parts of pe_pool_run2. */
struct map_fill {
	const struct map_spec *s;
	struct pe_pixmap *pm;
	uint32_t *keep;		/* [ph * pw]: a copy of pm's pixels, row by
				   row as they are made, or NULL */
	size_t nr, nc, band, chunk;
	size_t units, per_row;	/* rectangles; of them, in a band */
	const size_t *colof;	/* each pixel column's sample (nc != pw) */
	struct pe_sample_inks inks; /* the canvas's masked, undefined cells */
	int cw, ch;		/* a cell's pixels */
	atomic_size_t next;	/* the next rectangle to take */
	atomic_int rc;		/* the first failure, PE_OK */
};

/* Memory the fills keep from picture to picture for a part's block means
 * and colors: megabytes a rectangle, whose fresh pages every frame cost
 * a tenth of the fill in page faults. A part takes a free one (the TUI's
 * two; none free: memory of its own, freed after). */
#define MAP_BUFS 4
static struct map_buf {
	atomic_bool busy;
	void *mem;
	size_t bytes;
} map_bufs[MAP_BUFS];

/* A kept buffer of at least bytes (*slot its index, or -1 and memory of
 * its own), or NULL when memory ran out. */
static void *
map_buf_take(size_t bytes, int *slot)
{
	for (int i = 0; i < MAP_BUFS; i++) {
		struct map_buf *b = &map_bufs[i];
		if (atomic_exchange(&b->busy, true))
			continue;
		if (b->bytes < bytes) {
			free(b->mem);
			b->mem = malloc(bytes);
			b->bytes = b->mem != NULL ? bytes : 0;
		}
		if (b->mem == NULL) {
			atomic_store(&b->busy, false);
			return NULL;
		}
		*slot = i;
		return b->mem;
	}
	*slot = -1;
	return malloc(bytes);
}

/* Give back what map_buf_take gave. */
static void
map_buf_give(void *mem, int slot)
{
	if (slot < 0)
		free(mem);
	else
		atomic_store(&map_bufs[slot].busy, false);
}

/* The class of sample j of a row (pe_sample_class; a row of means alone
 * has no masked entries, and a NaN mean is undefined). */
static enum pe_sample_class
map_row_class(const struct pe_field_row *row, size_t j)
{
	if (row->cells != NULL)
		return pe_sample_class(&row->cells[j]);
	return isnan(row->mean[j]) ? PE_SAMPLE_UNDEF : PE_SAMPLE_VALUE;
}

/* Paint the masked and undefined samples of a row of nk samples from
 * column sample j0, over pixel rows [ya, yb), as their cells look: the
 * theme's background and the glyph's hatch or dot, cell by cell (a run of
 * samples of one class at once). */
static void
map_fill_special(const struct map_fill *mf, const struct pe_field_row *row,
    size_t j0, size_t nk, int ya, int yb)
{
	struct pe_pixmap *pm = mf->pm;
	size_t pw = (size_t)pm->pw;

	for (size_t j = 0; j < nk;) {
		enum pe_sample_class k = map_row_class(row, j);
		size_t e = j + 1;
		if (k == PE_SAMPLE_VALUE) {
			j++;
			continue;
		}
		while (e < nk && map_row_class(row, e) == k)
			e++;
		int xa, xb, xc, xd;
		pe_pixmap_pixels(mf->nc, pw, j0 + j, &xa, &xb);
		pe_pixmap_pixels(mf->nc, pw, j0 + e - 1, &xc, &xd);
		pe_sample_pattern(pm->rgb, pm->pw, mf->cw, mf->ch, xa, xd, ya,
		    yb, k, &mf->inks);
		j = e;
	}
}

/* A rectangle of a fill being colored (map_fill_row): its first sample
 * row and column, its columns, its pixel columns [xa, xe). */
struct map_rect {
	struct map_fill *mf;
	uint32_t *scol;	/* a color a sample column (nc != pw) */
	size_t k0, j0, nk;
	int xa, xe;
};

/* Color sample row k0 + k of a rectangle from its block means, over its
 * pixel rows: a color a sample, then (fewer samples than pixels) each
 * over its run of pixels; masked and undefined samples as their cells
 * look. */
static int
map_fill_row(void *arg, size_t k, const struct pe_field_row *row)
{
	const struct map_rect *rt = arg;
	const struct map_fill *mf = rt->mf;
	struct pe_pixmap *pm = mf->pm;
	size_t pw = (size_t)pm->pw;
	int ya, yb;
	pe_pixmap_pixels(mf->nr, (size_t)pm->ph, rt->k0 + k, &ya, &yb);
	uint32_t *line = pm->rgb + (size_t)ya * pw;
	uint32_t *px = mf->nc == pw ? line + rt->j0 : rt->scol + rt->j0;
	size_t special = row->cells != NULL ? pe_scale_pixels(&mf->s->scale,
	    row->cells, rt->nk, px) : pe_scale_means(&mf->s->scale, row->mean,
	    row->resultant, rt->nk, px);
	if (mf->nc != pw)
		for (int p = rt->xa; p < rt->xe; p++)
			line[p] = rt->scol[mf->colof[p]];
	for (int yy = ya + 1; yy < yb; yy++)
		memcpy(pm->rgb + (size_t)yy * pw + rt->xa, line + rt->xa,
		    (size_t)(rt->xe - rt->xa) * sizeof *line);
	if (special > 0)
		map_fill_special(mf, row, rt->j0, rt->nk, ya, yb);
	/* the picture kept, while these pixels are in cache */
	for (int yy = ya; mf->keep != NULL && yy < yb; yy++)
		memcpy(mf->keep + (size_t)yy * pw + rt->xa, pm->rgb +
		    (size_t)yy * pw + rt->xa, (size_t)(rt->xe - rt->xa) *
		    sizeof *line);
	return PE_OK;
}

/* The colors of rectangle u of a fill, with st and scol its part's: the
 * kernel's grid hands each row on as it is finished (pe_field_grid_rows,
 * read while in cache), a source's whole grid its rows after. */
static int
map_fill_unit(struct map_fill *mf, size_t u, struct pe_stats *st,
    uint32_t *scol)
{
	const struct map_spec *s = mf->s;
	size_t nr = mf->nr, nc = mf->nc, pw = (size_t)mf->pm->pw;
	size_t k0 = u / mf->per_row * mf->band, j0 = u % mf->per_row *
	    mf->chunk;
	size_t k1 = k0 + mf->band < nr ? k0 + mf->band : nr, a, b;
	size_t j1 = j0 + mf->chunk < nc ? j0 + mf->chunk : nc, ca, cb;
	struct map_rect rt = {mf, scol, k0, j0, j1 - j0, 0, 0};
	int xb;
	band_rows(s->r0, s->r1, nr, k0, k1, &a, &b);
	band_rows(s->c0, s->c1, nc, j0, j1, &ca, &cb);
	/* the rectangle's pixel columns [xa, xe) */
	pe_pixmap_pixels(nc, pw, j0, &rt.xa, &xb);
	pe_pixmap_pixels(nc, pw, j1 - 1, &xb, &rt.xe);
	if (s->f != NULL)
		return pe_field_grid_rows(s->f, a, b, k1 - k0, ca, cb, rt.nk,
		    st, map_fill_row, &rt);
	int rc = s->src.grid(s->src.arg, a, b, k1 - k0, ca, cb, rt.nk, st);
	for (size_t k = 0; k < k1 - k0 && rc == PE_OK; k++)
		rc = map_fill_row(&rt, k, &(struct pe_field_row){st + k * rt.nk,
		    NULL, NULL});
	return rc;
}

/* One part of a fill: rectangles in turn until none is left or one
 * failed (its buffers a kept one, map_buf_take). */
static void
map_fill_part(void *arg, int part)
{
	struct map_fill *mf = arg;
	(void)part;
	size_t nst = mf->band * mf->chunk;
	int slot;
	struct pe_stats *st = map_buf_take(nst * sizeof *st + mf->nc *
	    sizeof(uint32_t), &slot);
	int rc = st != NULL ? PE_OK : PE_ENOMEM;
	uint32_t *scol = st != NULL ? (uint32_t *)(void *)(st + nst) : NULL;
	while (rc == PE_OK && atomic_load(&mf->rc) == PE_OK) {
		size_t u = atomic_fetch_add(&mf->next, 1);
		if (u >= mf->units)
			break;
		rc = map_fill_unit(mf, u, st, scol);
	}
	int ok = PE_OK;
	if (rc != PE_OK)
		atomic_compare_exchange_strong(&mf->rc, &ok, rc);
	if (st != NULL)
		map_buf_give(st, slot);
}

/* Fill pm's pixels with the colors of the nr x nc block means of what s
 * shows, from the kernel's grid in rectangles of about MAP_RECT_BYTES
 * that cut as the whole grid would (bands of whole rows, or of columns
 * where the shortest band that cuts so is too wide; never more than
 * MAP_PIXELS_BYTES: past it a grid call per sample row, which costs its
 * per-call work, the wave fields' direct sincos, nr times), so memory
 * stays bounded. With more than one rectangle the machine's two cores
 * take them in turn (pe_pool_run2): the same grid calls, so the same
 * pixels, whoever makes them. PE_ENOMEM when memory ran out. */
static int
map_pixels_fill(const struct pe_canvas *cv, const struct map_spec *s,
    struct pe_pixmap *pm, uint32_t *keep, size_t nr, size_t nc)
{
	size_t n = s->r1 - s->r0, m = s->c1 - s->c0;
	size_t pw = (size_t)pm->pw;
	size_t cap = MAP_PIXELS_BYTES / sizeof(struct pe_stats);
	size_t want = MAP_RECT_BYTES / sizeof(struct pe_stats);
	size_t rstep, band, cstep, chunk;
	map_run(n, nr, want / nc ? want / nc : 1, &rstep, &band);
	map_run(m, nc, nc, &cstep, &chunk);
	chunk = nc;
	if (band == 1 && rstep > 1 && rstep * cstep <= cap) {
		/* whole row bands would be too large: rectangles of
		 * columns */
		band = rstep;
		chunk = cstep * (want / (rstep * cstep) ? want / (rstep *
		    cstep) : 1);
		chunk = chunk < nc ? chunk : nc;
	}
	struct map_fill mf = {.s = s, .pm = pm, .keep = keep, .nr = nr,
	    .nc = nc, .band = band, .chunk = chunk, .cw = pm->pw / pm->w,
	    .ch = pm->ph / pm->h};
	pe_sample_inks(cv->depth, cv->theme, &mf.inks);
	mf.per_row = (nc + chunk - 1) / chunk;
	mf.units = (nr + band - 1) / band * mf.per_row;
	atomic_init(&mf.next, 0);
	atomic_init(&mf.rc, PE_OK);
	size_t *colof = nc != pw ? malloc(pw * sizeof *colof) : NULL;
	if (nc != pw && colof == NULL)
		return PE_ENOMEM;
	for (size_t p = 0; colof != NULL && p < pw; p++)
		colof[p] = pe_pixmap_sample(nc, pw, p);
	mf.colof = colof;
	if (mf.units > 1) {
		/* what is made once a process, made here first */
		(void)pe_cmap_color(s->scale.cmap, 0.5);
		(void)pe_wave_isa();
		pe_pool_run2(map_fill_part, &mf);
	} else {
		map_fill_part(&mf, 0);
	}
	free(colof);
	return atomic_load(&mf.rc);
}

/* Two parts at once; see panels.h. */
void
panel_run2(void (*fn)(void *arg, int part), void *arg)
{
	(void)pe_wave_isa();
	pe_pool_run2(fn, arg);
}

/* The map's pixel layer over its mw x mh cells at (mx, y): one sample per
 * pixel (exact block means where the elements outnumber the pixels, else
 * each element over a run of pixels), from the kernel's grid in bands of
 * rows that cut as the whole grid would, so memory stays bounded; the
 * cursor's sample framed. Memory running out leaves the cells alone. */
static int
map_pixels(struct pe_canvas *cv, const struct map_spec *s, int mx, int y,
    int mw, int mh, bool cur, struct map_geom *g)
{
	struct pe_pixmap *pm = pe_canvas_pixmap(cv, mx, y, mw, mh);
	if (pm == NULL)
		return PE_OK;
	size_t n = s->r1 - s->r0, m = s->c1 - s->c0;
	size_t pw = (size_t)pm->pw, ph = (size_t)pm->ph;
	size_t nr = n < ph ? n : ph, nc = m < pw ? m : pw;
	struct map_keep *kept = keep_find(cv, s, pm);
	if (kept != NULL) { /* what it shows is unchanged: its pixels */
		memcpy(pm->rgb, kept->rgb, pw * ph * sizeof *pm->rgb);
		pm->serial = kept->serial;
		kept->used = ++keep_serial;
	} else {
		struct map_keep *k = keep_slot(s, pm);
		int rc = map_pixels_fill(cv, s, pm, k != NULL ? k->rgb : NULL,
		    nr, nc);
		if (rc != PE_OK) {
			drop_last(cv);
			return rc == PE_ENOMEM ? PE_OK : rc; /* the cells are
								the picture */
		}
		keep_store(cv, s, k, pm);
	}
	pm->r0 = s->r0, pm->r1 = s->r1, pm->c0 = s->c0, pm->c1 = s->c1;
	pm->nr = nr, pm->nc = nc;
	if (cur) {
		size_t sr = panel_sample_of(s->r0, s->r1, nr, s->cur_r);
		size_t sc = panel_sample_of(s->c0, s->c1, nc, s->cur_c);
		int x0, x1, y0, y1;
		pe_pixmap_pixels(nr, ph, sr, &y0, &y1);
		pe_pixmap_pixels(nc, pw, sc, &x0, &x1);
		if (pe_pixmap_frame_cursor(pm, x0, x1, y0, y1) != PE_OK) {
			drop_last(cv); /* the cells are the picture */
			return PE_OK;
		}
	}
	g->pnr = nr, g->pnc = nc;
	g->pw = (int)pw, g->ph = (int)ph;
	return PE_OK;
}

/* The samples panel_map would draw spec s with in w x h cells of cv (0 x
 * 0 when it does not fit). */
void
panel_map_tiling(const struct pe_canvas *cv, const struct map_spec *s,
    int w, int h, size_t *nsr, size_t *nsc)
{
	int axw;
	if (!map_tiling(s, w, h, panel_col_cells(cv), &axw, nsr, nsc))
		*nsr = *nsc = 0;
}

int
panel_map(struct pe_canvas *cv, int x, int y, int w, int h,
    const struct map_spec *s, struct map_geom *g)
{
	int axw, cw = panel_col_cells(cv); /* cells a column sample is wide */
	size_t nsr, nsc;
	memset(g, 0, sizeof *g);
	if (!map_tiling(s, w, h, cw, &axw, &nsr, &nsc))
		return PE_OK;
	if (s->title != NULL) {
		pe_canvas_text_fit(cv, x, y, w, s->title, C_TEXT, PE_COLOR_DEFAULT,
		    PE_ATTR_BOLD);
		y++;
	}
	int mh = (int)((nsr + 1) / 2), mw = (int)nsc * cw;
	/* the samples, then (cw > 1) each repeated over its cells */
	struct pe_stats *st = calloc((size_t)mh * 2 * nsc * (size_t)(cw + 1),
	    sizeof *st);
	/* a picture will cover the cells (unless numbers stand over them:
	 * the cells' halves are the same blocks either way) */
	bool under = s->pixels && cv->px_w > 0;
	int rc = st == NULL ? PE_ENOMEM : keep_cells_grid(s, nsr, nsc, st,
	    under);
	if (rc != PE_OK) {
		free(st);
		panel_failed(cv, x, y, w, rc);
		return rc;
	}
	if (nsr % 2 != 0) /* the last lower half has no sample */
		memcpy(st + nsr * nsc, st + (nsr - 1) * nsc, nsc * sizeof *st);
	struct pe_stats *cells = st;
	if (cw > 1) {
		cells = st + (size_t)mh * 2 * nsc;
		for (size_t i = 0; i < (size_t)mh * 2 * (size_t)mw; i++)
			cells[i] = st[i / (size_t)mw * nsc + i % (size_t)mw /
			    (size_t)cw];
	}
	int mx = x + axw;
	pe_draw_heatmap(cv, mx, y, mw, mh, cells, &s->scale);
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
	g->cw = cw;

	int yy = y + mh;
	bool cur = s->cursor && s->cur_r >= s->r0 && s->cur_r < s->r1 &&
	    s->cur_c >= s->c0 && s->cur_c < s->c1;
	if (s->axes) {
		long cmark = cur ? (long)panel_sample_of(s->c0, s->c1, nsc, s->cur_c)
		    * cw : -1;
		if (s->row_labels != NULL)
			row_label_axis(cv, x, y, axw, mh, s, nsr);
		else
			pe_draw_vaxis(cv, x, y, axw - 1, mh, s->r0, s->r1, nsr, C_DIM);
		if (s->col_labels == NULL ||
		    !col_label_line(cv, mx, yy, mw, s, nsc, cw, cmark))
			haxis_line(cv, mx, yy, mw, s->c0, s->c1, nsc, cw,
			    cmark);
		if (s->mark_from > 0)
			mark_rows(cv, x + axw - 1, y, mh, s, nsr);
		yy += 1;
	}
	bool numbers = s->values && draw_values(cv, mx, y, s, nsr, nsc, cw, cur);
	/* the pixel layer, unless numbers stand over the colors (text, which
	 * a picture would hide) */
	if (s->pixels && !numbers && cv->px_w > 0) {
		rc = map_pixels(cv, s, mx, y, mw, mh, cur, g);
		if (rc != PE_OK) {
			panel_failed(cv, x, y, w, rc);
			return rc;
		}
	}
	if (cur) {
		size_t sr = panel_sample_of(s->r0, s->r1, nsr, s->cur_r);
		size_t sc = panel_sample_of(s->c0, s->c1, nsc, s->cur_c);
		for (int k = 0; k < cw; k++) { /* each cell of the sample */
			struct pe_cell *cell = pe_canvas_at(cv,
			    mx + (int)sc * cw + k, y + (int)sr / 2);
			if (cell == NULL || cell->kind == PE_CELL_TEXT)
				continue;
			/* mark the cursor's half of the cell, keep the
			 * other half's color: upper sample -> U+2580, lower
			 * -> U+2584 */
			bool upper = sr % 2 == 0;
			pe_color other = upper ? cell->bg : cell->fg;
			pe_color mine = upper ? cell->fg : cell->bg;
			if (cell->cp != 0x2580) /* masked/undefined glyph cells */
				other = mine = cell->bg;
			int r = 0, gg = 0, b = 0;
			if (mine >= 0)
				r = (mine >> 16) & 255, gg = (mine >> 8) & 255,
				b = mine & 255;
			bool light = mine >= 0 && 299 * r + 587 * gg + 114 * b > 128000;
			/* the remaining half is now the background */
			if (!upper)
				cell->lv[1] = cell->lv[0];
			cell->lvok = (uint8_t)(cell->lvok & (upper ? 2 : 1) ? 2 : 0);
			cell->cp = upper ? 0x2580 : 0x2584;
			cell->fg = light ? PE_RGB(0, 0, 0) : PE_RGB(255, 255, 255);
			cell->bg = other;
			cell->attr = 0;
			cell->kind = PE_CELL_TEXT;
		}
		if (s->axes)
			pe_canvas_set(cv, x + axw - 1, y + (int)sr / 2, 0x25b8, C_ACCENT,
			    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	}
	if (s->mask) {
		/* the two values a mask holds, each with its swatch */
		struct pe_stats sw[4];
		memset(sw, 0, sizeof sw);
		for (int i = 0; i < 2; i++) {
			sw[i].count = sw[2 + i].count = 1;
			sw[i].mean = 0;
			sw[2 + i].mean = NAN;
			sw[2 + i].masked = 1;
		}
		int lx = x;
		pe_draw_heatmap(cv, lx, yy, 1, 1, sw, &s->scale);
		lx += 2;
		lx += pe_canvas_text(cv, lx, yy, x + w - lx, "0: visible, ", C_DIM,
		    PE_COLOR_DEFAULT, 0);
		pe_draw_heatmap(cv, lx, yy, 1, 1, sw + 2, &s->scale);
		lx += 2;
		pe_canvas_text(cv, lx, yy, x + w - lx, "−∞: masked", C_DIM,
		    PE_COLOR_DEFAULT, 0);
		yy += 1;
	} else if (s->colorbar) {
		int bw = mw < 24 ? (w < 24 ? w : 24) : mw;
		colorbar_line(cv, bw == mw ? mx : x, yy, bw, &s->scale,
		    s->fmt != NULL ? s->fmt : "%.3g");
		yy += 1;
	}
	if (s->legend != NULL) {
		int lx = x;
		if (s->swatch != 0) {
			struct pe_stats sw[2];
			memset(sw, 0, sizeof sw);
			for (int i = 0; i < 2; i++) {
				sw[i].count = 1;
				sw[i].mean = NAN;
				if (s->swatch == PE_CELL_MASKED)
					sw[i].masked = 1;
				else
					sw[i].undefined = 1;
			}
			pe_draw_heatmap(cv, x, yy, 1, 1, sw, &s->scale);
			lx += 2;
		}
		/* a legend is a list of items: " · " between them */
		char buf[512], items[512];
		const char *it[16];
		int pr[16] = {0};
		size_t n = 0;
		snprintf(items, sizeof items, "%s", s->legend);
		for (char *p = items, *e; p != NULL && n < 16; p = e) {
			e = strstr(p, " · ");
			if (e != NULL)
				*e = '\0', e += strlen(" · ");
			it[n++] = p;
		}
		pe_text_pick(buf, sizeof buf, it, pr, n, " · ", w - (lx - x));
		pe_canvas_text(cv, lx, yy, w - (lx - x), buf, C_DIM,
		    PE_COLOR_DEFAULT, 0);
	}
	return PE_OK;
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
	pe_canvas_text_fit(cv, x, y, w, title, C_TEXT, PE_COLOR_DEFAULT,
	    PE_ATTR_BOLD);
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
	int ll = pe_canvas_text_fit(cv, px, py + ph, pw, xlo, C_DIM,
	    PE_COLOR_DEFAULT, 0);
	int l = pe_text_cells(xhi);
	if (l < pw - ll - 1)
		pe_canvas_text(cv, px + pw - l, py + ph, l, xhi, C_DIM,
		    PE_COLOR_DEFAULT, 0);
}

/* A faint vertical line at sample idx of the last panel_plot here, and
 * its label on the x label line where that is blank. */
void
panel_plot_mark(struct pe_canvas *cv, int x, int y, int w, int h, size_t n,
    size_t idx, const char *label, pe_color fg)
{
	if (h < 4 || w < PLOT_YLAB + 4 || n == 0)
		return;
	int py = y + 1, ph = h - 2, px = x + PLOT_YLAB, pw = w - PLOT_YLAB;
	int dx = (int)((double)idx * (pw * 2 - 1) / (double)(n > 1 ? n - 1 : 1));
	for (int dy = 1; dy < ph * 4; dy += 3)
		pe_draw_dot(cv, px, py, pw, ph, dx, dy, fg);
	if (label == NULL)
		return;
	int l = pe_text_cells(label), at = px + dx / 2;
	if (at + l > px + pw)
		at = px + pw - l;
	for (int i = -1; i <= l; i++) { /* a blank either side */
		struct pe_cell *c = pe_canvas_at(cv, at + i, py + ph);
		if (c == NULL || (i >= 0 && i < l && at + i < px) ||
		    (c->cp != ' ' && c->cp != 0))
			return;
	}
	pe_canvas_text(cv, at, py + ph, l, label, fg, PE_COLOR_DEFAULT, 0);
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

/* Text wrapped at spaces into lines of w cells from (x, y), at most h
 * lines; a last line that cannot hold the rest ends in " …" (words are
 * never cut). Returns the lines used. */
static int
text_run(struct pe_canvas *cv, int x, int y, int w, int h,
    const char *text, pe_color fg, uint8_t attr)
{
	int used = 0;
	const char *s = text;
	while (*s == ' ')
		s++;
	while (*s != '\0' && used < h) {
		if (pe_text_cells(s) <= w || used == h - 1) {
			if (cv == NULL || pe_canvas_text_fit(cv, x, y + used, w, s,
			    fg, PE_COLOR_DEFAULT, attr) > 0)
				used++;
			break;
		}
		/* the longest run of whole words that fits */
		const char *end = s, *p = s;
		int cells = 0;
		for (;;) {
			const char *w0 = p, *w1;
			while (*w0 == ' ')
				w0++;
			w1 = w0 + strcspn(w0, " ");
			int wc = 0;
			for (const char *q = p; q < w1; q++)
				wc += ((unsigned char)*q & 0xc0) != 0x80;
			if (*w0 == '\0' || cells + wc > w)
				break;
			cells += wc;
			end = p = w1;
		}
		if (end == s) { /* a word wider than the line */
			if (cv != NULL)
				pe_canvas_text_fit(cv, x, y + used, w, s, fg,
				    PE_COLOR_DEFAULT, attr);
			used++;
			break;
		}
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)(end - s), s);
		if (cv != NULL)
			pe_canvas_text(cv, x, y + used, w, line, fg,
			    PE_COLOR_DEFAULT, attr);
		used++;
		s = end;
		while (*s == ' ')
			s++;
	}
	return used;
}

/* Text wrapped into lines; see panels.h. */
int
panel_text(struct pe_canvas *cv, int x, int y, int w, int h,
    const char *text, pe_color fg, uint8_t attr)
{
	return text_run(cv, x, y, w, h, text, fg, attr);
}

/* The lines panel_text needs for all of text in w cells. */
int
panel_text_lines(int w, const char *text)
{
	return text_run(NULL, 0, 0, w, 1 << 20, text, 0, 0);
}

/* A plot color's name as cv will show it; see panels.h. */
const char *
panel_color(const struct pe_canvas *cv, pe_color c)
{
	return pe_palette_color_name(c, (enum pe_depth)cv->depth,
	    (enum pe_theme)cv->theme, true);
}

/* A legend of curves; see panels.h. */
int
panel_legend(struct pe_canvas *cv, int x, int y, int w, int lines,
    const char *const *labels, const pe_color *colors, int n)
{
	int at = x, line = 0, on_line = 0;

	for (int i = 0; i < n && line < lines; i++) {
		char item[160];
		const char *name = panel_color(cv, colors[i]);
		if (name != NULL)
			snprintf(item, sizeof item, "%s (%s)", labels[i], name);
		else
			snprintf(item, sizeof item, "%s", labels[i]);
		int need = (on_line > 0 ? 2 : 0) + 2 + pe_text_cells(item);
		if (at - x + need > w && on_line > 0) {
			if (++line >= lines)
				break;
			at = x, on_line = 0;
			need = 2 + pe_text_cells(item);
		}
		if (at - x + need > w)
			break;
		if (on_line > 0)
			at += 2;
		pe_canvas_set(cv, at, y + line, 0x2501, colors[i],
		    PE_COLOR_DEFAULT, 0);
		at += 2;
		at += pe_canvas_text(cv, at, y + line, x + w - at, item, C_DIM,
		    PE_COLOR_DEFAULT, 0);
		on_line++;
	}
	return on_line > 0 ? line + 1 : line;
}

/* The lines panel_legend needs; see panels.h. */
int
panel_legend_lines(const struct pe_canvas *cv, int w,
    const char *const *labels, const pe_color *colors, int n)
{
	int at = 0, lines = n > 0 ? 1 : 0;

	for (int i = 0; i < n; i++) {
		const char *name = panel_color(cv, colors[i]);
		int need = 2 + pe_text_cells(labels[i]) +
		    (name != NULL ? 3 + pe_text_cells(name) : 0);
		if (at > 0 && at + 2 + need > w) {
			lines++;
			at = need;
		} else {
			at += (at > 0 ? 2 : 0) + need;
		}
	}
	return lines;
}
