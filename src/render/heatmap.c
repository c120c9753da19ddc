/* Half-block heatmaps: two block-mean samples per cell, the upper one as
 * the foreground of U+2580 and the lower one as its background. */
#include <math.h>
#include <string.h>

#include "render/draw.h"

#define GLYPH_UPPER_HALF 0x2580u /* UPPER HALF BLOCK */
#define GLYPH_HATCH 0x2571u      /* BOX DRAWINGS LIGHT DIAGONAL */
#define GLYPH_MIDDOT 0x00b7u     /* MIDDLE DOT */
#define COLOR_MID_GREY PE_RGB(0x80, 0x80, 0x80)
#define COLOR_HATCH PE_RGB(0x76, 0x76, 0x76)
#define COLOR_DOT PE_RGB(0xd0, 0xd0, 0xd0)

/* What one sample shows. */
enum sample_class { SAMPLE_VALUE, SAMPLE_MASKED, SAMPLE_UNDEF };

/* Position of v on the scale: (v - lo) / (hi - lo), wrapped into [0, 1)
 * when cyclic, clamped to [0, 1] otherwise; 0.5 when lo == hi, NAN for a
 * NAN value. */
double
pe_scale_t(const struct pe_scale *sc, double v)
{
	double span = sc->hi - sc->lo, t;

	if (isnan(v))
		return NAN;
	if (!(span != 0.0) || !isfinite(span))
		return 0.5;
	t = (v - sc->lo) / span;
	if (sc->cyclic) {
		if (!isfinite(t))
			return 0.0;
		t -= floor(t);
		return t >= 1.0 ? 0.0 : t;
	}
	return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

/* Masked when more than half the entries are masked, undefined when more
 * than half are undefined or nothing finite is left to average. */
static enum sample_class
heatmap_class(const struct pe_stats *s)
{
	if (s->count > 0 && s->masked > s->count / 2)
		return SAMPLE_MASKED;
	if (s->count > 0 && s->undefined > s->count / 2)
		return SAMPLE_UNDEF;
	if (isnan(s->mean) || s->count == 0)
		return s->masked > s->undefined ? SAMPLE_MASKED : SAMPLE_UNDEF;
	return SAMPLE_VALUE;
}

/* Linear blend of a toward b by f in [0, 1], per channel. */
static pe_color
heatmap_blend(pe_color a, pe_color b, double f)
{
	int out = 0;

	for (int sh = 16; sh >= 0; sh -= 8) {
		double ca = (a >> sh) & 0xff, cb = (b >> sh) & 0xff;
		/* clamped, then rounded half away from zero as lround
		 * (x - floor(x) is exact here), without a branch */
		double x = ca + f * (cb - ca);
		x = x > 0.0 ? x : 0.0;
		x = x < 255.0 ? x : 255.0;
		int v = (int)x;
		out |= (v + (x - (double)v >= 0.5)) << sh;
	}
	return out;
}

/* Color of one block-mean sample. A cyclic sample fades toward mid grey by
 * 1 - R, R the mean resultant length (Mardia & Jupp, Directional
 * Statistics, 2000, sec. 2.3.1): a block of uniformly spread angles has
 * R ~ 0 and no direction to show. */
pe_color
pe_scale_color(const struct pe_scale *sc, const struct pe_stats *s)
{
	double r;
	pe_color c;

	switch (heatmap_class(s)) {
	case SAMPLE_MASKED:
		return PE_COLOR_MASKED;
	case SAMPLE_UNDEF:
		return PE_COLOR_UNDEF;
	case SAMPLE_VALUE:
		break;
	}
	c = pe_cmap_color(sc->cmap, pe_scale_t(sc, s->mean));
	if (sc->cyclic) {
		r = s->resultant;
		if (isnan(r) || r > 1.0)
			r = 1.0;
		if (r < 0.0)
			r = 0.0;
		c = heatmap_blend(c, COLOR_MID_GREY, 1.0 - r);
	}
	return c;
}

/* Whether two samples get the same color (what pe_scale_color reads of
 * them, bit for bit). */
static bool
heatmap_same(const struct pe_scale *sc, const struct pe_stats *a,
    const struct pe_stats *b)
{
	return a->count == b->count && a->masked == b->masked &&
	    a->undefined == b->undefined &&
	    memcmp(&a->mean, &b->mean, sizeof a->mean) == 0 &&
	    (!sc->cyclic || memcmp(&a->resultant, &b->resultant,
	    sizeof a->resultant) == 0);
}

/* The pixel layer's colors of n samples; see draw.h. */
void
pe_scale_pixels(const struct pe_scale *sc, const struct pe_stats *s,
    size_t n, uint32_t *dest)
{
	for (size_t i = 0; i < n; i++)
		dest[i] = i > 0 && heatmap_same(sc, &s[i], &s[i - 1])
		    ? dest[i - 1]
		    : 0xff000000u | (uint32_t)pe_scale_color(sc, &s[i]);
}

/* Whether a value sample shows its colormap's color: always, but on a
 * cyclic scale only while its resultant length is at least 1/2 (below,
 * the fade toward grey outweighs the hue: a block of many turns). Such
 * halves are marked, so that 256 colors keep their hue and never a grey. */
static bool
heatmap_has_hue(const struct pe_scale *sc, const struct pe_stats *s)
{
	return !sc->cyclic || isnan(s->resultant) || s->resultant >= 0.5;
}

/* Mono level 0..255 of a value sample. */
static int
heatmap_level(const struct pe_scale *sc, const struct pe_stats *s)
{
	double t = pe_scale_t(sc, s->mean);

	if (isnan(t))
		return 0;
	return (int)lround(t * 255.0);
}

/* Draw samples [2h x w] as w x h half-block cells. Mixed cells are shade
 * cells; their level is the mean of the value samples' levels (0 when
 * neither is a value). */
void
pe_draw_heatmap(struct pe_canvas *cv, int x, int y, int w, int h,
                const struct pe_stats *samples, const struct pe_scale *sc)
{
	for (int cy = 0; cy < h; cy++) {
		for (int cx = 0; cx < w; cx++) {
			const struct pe_stats *up, *lo;
			enum sample_class ku, kl;
			struct pe_cell *c = pe_canvas_at(cv, x + cx, y + cy);
			int sum = 0, nv = 0;

			if (c == NULL)
				continue;
			up =
			    &samples[(size_t)(2 * cy) * (size_t)w + (size_t)cx];
			lo = &samples[(size_t)(2 * cy + 1) * (size_t)w +
			              (size_t)cx];
			ku = heatmap_class(up);
			kl = heatmap_class(lo);
			c->attr = 0;
			c->shade = 0;
			c->ramp = 0;
			c->lvok = 0;
			if (ku == SAMPLE_MASKED && kl == SAMPLE_MASKED) {
				c->cp = GLYPH_HATCH;
				c->fg = COLOR_HATCH;
				c->bg = PE_COLOR_MASKED;
				c->kind = PE_CELL_MASKED;
				continue;
			}
			if (ku == SAMPLE_UNDEF && kl == SAMPLE_UNDEF) {
				c->cp = GLYPH_MIDDOT;
				c->fg = COLOR_DOT;
				c->bg = PE_COLOR_UNDEF;
				c->kind = PE_CELL_UNDEFINED;
				continue;
			}
			c->cp = GLYPH_UPPER_HALF;
			c->fg = pe_scale_color(sc, up);
			c->bg = pe_scale_color(sc, lo);
			c->kind = PE_CELL_SHADE;
			if (ku == SAMPLE_VALUE) {
				int lv = heatmap_level(sc, up);
				if (heatmap_has_hue(sc, up))
					pe_palette_mark(c, 0, sc->cmap, sc->cyclic,
					                (uint8_t)lv);
				sum += lv;
				nv++;
			}
			if (kl == SAMPLE_VALUE) {
				int lv = heatmap_level(sc, lo);
				if (heatmap_has_hue(sc, lo))
					pe_palette_mark(c, 1, sc->cmap, sc->cyclic,
					                (uint8_t)lv);
				sum += lv;
				nv++;
			}
			if (nv > 0)
				c->shade = (uint8_t)((sum + nv / 2) / nv);
		}
	}
}
