/* Half-block heatmaps: two block-mean samples per cell, the upper one as
 * the foreground of U+2580 and the lower one as its background. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/wave.h"
#include "render/draw.h"
#include "render/heatmap_impl.h"

#define GLYPH_UPPER_HALF 0x2580u /* UPPER HALF BLOCK */
#define GLYPH_HATCH 0x2571u      /* BOX DRAWINGS LIGHT DIAGONAL */
#define GLYPH_MIDDOT 0x00b7u     /* MIDDLE DOT */
#define COLOR_MID_GREY PE_RGB(0x80, 0x80, 0x80)
#define COLOR_HATCH PE_RGB(0x76, 0x76, 0x76)
#define COLOR_DOT PE_RGB(0xd0, 0xd0, 0xd0)

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
enum pe_sample_class
pe_sample_class(const struct pe_stats *s)
{
	if (s->count > 0 && s->masked > s->count / 2)
		return PE_SAMPLE_MASKED;
	if (s->count > 0 && s->undefined > s->count / 2)
		return PE_SAMPLE_UNDEF;
	if (isnan(s->mean) || s->count == 0)
		return s->masked > s->undefined ? PE_SAMPLE_MASKED :
		    PE_SAMPLE_UNDEF;
	return PE_SAMPLE_VALUE;
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

	switch (pe_sample_class(s)) {
	case PE_SAMPLE_MASKED:
		return PE_COLOR_MASKED;
	case PE_SAMPLE_UNDEF:
		return PE_COLOR_UNDEF;
	case PE_SAMPLE_VALUE:
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

/* pe_scale_pixels' loop is built for the vector units too, picked at
 * load time (GCC's target_clones, as the kernel's clones.h does): the
 * same IEEE operations in the same order (no contraction:
 * -ffp-contract=off), so every clone gives the same bits. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__linux__)
#define HEATMAP_CLONES \
	__attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define HEATMAP_CLONES
#endif

/* Samples pe_scale_pixels takes at once (GCC's vector extensions: a
 * machine without 512-bit registers takes each operation in halves or
 * quarters). */
#define HEATMAP_LANES 8
typedef double heatmap_vd __attribute__((vector_size(8 * HEATMAP_LANES)));
typedef int64_t heatmap_vm __attribute__((vector_size(8 * HEATMAP_LANES)));
typedef int32_t heatmap_vi __attribute__((vector_size(4 * HEATMAP_LANES)));

/* Lane by lane, a where m is set, else b (a comparison's mask). */
#define HEATMAP_SEL(m, a, b) \
	((heatmap_vd)(((m) & (heatmap_vm)(a)) | (~(m) & (heatmap_vm)(b))))
/* Every lane x (HEATMAP_LANES of them). */
#define HEATMAP_ALL(x) ((heatmap_vd){x, x, x, x, x, x, x, x})

/* pe_scale_t of the lanes' finite means on a cyclic scale, t - floor(t)
 * wrapped as it does. floor is a, rounded to an integer by adding and
 * taking away 2^52 (exact below 2^52, where the ulp reaches 1; above, a
 * is one), given t's sign and stepped down where it rounded up: floor's
 * value, sign of zero included (in the default rounding, to nearest,
 * which nothing changes), in operations a vector unit has (GCC will not
 * turn floor's own branches into selections). */
static inline void
heatmap_wrap(heatmap_vd *tp)
{
	const heatmap_vm sign = (heatmap_vm)HEATMAP_ALL(-0.0);
	heatmap_vd t = *tp, a = (heatmap_vd)((heatmap_vm)t & ~sign), r;

	r = (a + HEATMAP_ALL(0x1p52)) - HEATMAP_ALL(0x1p52);
	r = (heatmap_vd)((heatmap_vm)r | ((heatmap_vm)t & sign));
	r -= HEATMAP_SEL(r > t, HEATMAP_ALL(1.0), HEATMAP_ALL(0.0));
	t -= HEATMAP_SEL(a < HEATMAP_ALL(0x1p52), r, t);
	*tp = HEATMAP_SEL(t >= HEATMAP_ALL(1.0), HEATMAP_ALL(0.0), t);
}

/* The lanes' means as pe_scale_t makes them t, then pe_cmap_color's
 * clamp (NaN -> 0). A mean that is not a value's (NaN, a masked block's)
 * gets some t in [0, 1] whose color is not used. */
static inline void
heatmap_t(const struct heatmap_plan *pl, heatmap_vd *tp)
{
	const heatmap_vd zero = HEATMAP_ALL(0.0), one = HEATMAP_ALL(1.0);
	const heatmap_vm abs = ~(heatmap_vm)HEATMAP_ALL(-0.0);
	heatmap_vd t = *tp;

	if (pl->flat) {
		t = HEATMAP_ALL(0.5);
	} else if (pl->cyclic) {
		t = (t - HEATMAP_ALL(pl->lo)) / HEATMAP_ALL(pl->span);
		t = HEATMAP_SEL(((heatmap_vd)((heatmap_vm)t & abs)) <=
		    HEATMAP_ALL(DBL_MAX), t, zero);
		heatmap_wrap(&t);
	} else {
		t = (t - HEATMAP_ALL(pl->lo)) / HEATMAP_ALL(pl->span);
		t = HEATMAP_SEL(t < zero, zero, t);
		t = HEATMAP_SEL(t > one, one, t);
	}
	t = HEATMAP_SEL(t > zero, t, zero);
	*tp = HEATMAP_SEL(t > one, one, t);
}

/* The lanes' colors faded toward mid grey by 1 - R: heatmap_blend lane
 * by lane, the same operations but its clamps, which hold nothing back
 * (with f in [0, 1], f (g - c) lies between 0 and g - c and c + f (g - c)
 * between c and g, each rounded to a double no further than the bound).
 * Conversions go by 2^52, in the lanes' own 64 bits: a channel k is the
 * double 2^52 + k, less 2^52; x + 2^52 holds x rounded to an integer,
 * ties to even, in its low bits, and a tie rounded down (x less that
 * integer is 1/2, exactly) goes up, as lround and heatmap_blend round. */
static inline void
heatmap_fade(const heatmap_vd *rp, heatmap_vm *cp)
{
	const heatmap_vd zero = HEATMAP_ALL(0.0), one = HEATMAP_ALL(1.0);
	const heatmap_vd big = HEATMAP_ALL(0x1p52);
	heatmap_vm c = *cp, out = {0};
	heatmap_vd r = *rp, f;

	r = HEATMAP_SEL(r <= one, r, one); /* NaN and > 1: 1 */
	r = HEATMAP_SEL(r < zero, zero, r);
	f = one - r;
	for (int sh = 16; sh >= 0; sh -= 8) {
		heatmap_vd ca = (heatmap_vd)(((c >> sh) & 0xff) |
		    (heatmap_vm)big) - big;
		heatmap_vd x = ca + f * (HEATMAP_ALL(0x80) - ca);
		heatmap_vd y = x + big;
		/* a mask is -1 where set */
		heatmap_vm v = ((heatmap_vm)y & 0x1ff) -
		    (x - (y - big) == HEATMAP_ALL(0.5));
		out |= v << sh;
	}
	*cp = out;
}

/* The opaque color of one sample, by its class: a masked or undefined
 * sample's (counted in *special), else pe_scale_color's (the vector
 * loops' samples that are not blocks of finite entries alone, and their
 * last few). */
static uint32_t
heatmap_other(const struct pe_scale *sc, const struct pe_stats *s,
    size_t *special)
{
	switch (pe_sample_class(s)) {
	case PE_SAMPLE_MASKED:
		++*special;
		return 0xff000000u | (uint32_t)PE_COLOR_MASKED;
	case PE_SAMPLE_UNDEF:
		++*special;
		return 0xff000000u | (uint32_t)PE_COLOR_UNDEF;
	case PE_SAMPLE_VALUE:
		break;
	}
	return 0xff000000u | (uint32_t)pe_scale_color(sc, s);
}

/* The opaque colors of a group of HEATMAP_LANES value samples, means t
 * and resultant lengths r (fade: a cyclic scale's, r not all 1), into
 * dest: t, its bucket (pe_cmap_color's own for a mixed bucket's t), the
 * fade. */
static inline void
heatmap_group(const struct heatmap_plan *pl, const heatmap_vd *tp,
    const heatmap_vd *rp, bool fade, uint32_t *dest)
{
	heatmap_vd t = *tp, r = *rp;
	heatmap_vi k;
	heatmap_vm c;
	uint32_t any = 0;

	heatmap_t(pl, &t);
	/* t 2^16 is exact: its integer part is t's bucket */
	k = __builtin_convertvector(t * HEATMAP_ALL((double)PE_CMAP_BUCKETS),
	    heatmap_vi);
	for (int j = 0; j < HEATMAP_LANES; j++)
		any |= (uint32_t)(c[j] = pl->lut[k[j]]);
	for (int j = 0; any & PE_CMAP_MIXED && j < HEATMAP_LANES; j++)
		if ((uint32_t)c[j] & PE_CMAP_MIXED)
			c[j] = pe_cmap_color(pl->cmap, t[j]);
	if (fade)
		heatmap_fade(&r, &c);
	for (int j = 0; j < HEATMAP_LANES; j++)
		dest[j] = 0xff000000u | (uint32_t)c[j];
}

/* pe_scale_color of n samples, opaque, HEATMAP_LANES at a time, each
 * group's whole work in one pass (heatmap_group), so that the next
 * group's loads (a sample is a cache line) go on while this one's colors
 * are made: what the color reads of the lanes, which of them are blocks
 * of finite entries alone, their colors; the others by class. The last n
 * % HEATMAP_LANES by pe_scale_color. The samples not values, counted. */
HEATMAP_CLONES static size_t
heatmap_row(const struct heatmap_plan *pl, const struct pe_stats *s,
    size_t n, uint32_t *dest)
{
	size_t i = 0, special = 0;

	for (; n - i >= HEATMAP_LANES; i += HEATMAP_LANES) {
		const struct pe_stats *p = s + i;
		heatmap_vd t, r;
		unsigned fast = 0;
		for (int j = 0; j < HEATMAP_LANES; j++) {
			t[j] = p[j].mean;
			r[j] = p[j].resultant;
			fast |= (unsigned)((p[j].masked | p[j].undefined) == 0 &&
			    p[j].count != 0 && !isnan(p[j].mean)) << j;
		}
		if (fast != 0)
			heatmap_group(pl, &t, &r, pl->cyclic, dest + i);
		for (int j = 0; fast != (1u << HEATMAP_LANES) - 1 &&
		    j < HEATMAP_LANES; j++)
			if (!(fast >> j & 1))
				dest[i + (size_t)j] = heatmap_other(pl->sc,
				    &p[j], &special);
	}
	for (; i < n; i++)
		dest[i] = heatmap_other(pl->sc, &s[i], &special);
	return special;
}

/* heatmap_row of blocks of finite entries alone given as their means and
 * resultant lengths (res NULL: 1, no fade: f 0 leaves a channel's
 * double as it is), loaded whole: a NaN mean is an undefined sample's
 * (pe_sample_class of no finite entry), counted. */
HEATMAP_CLONES static size_t
heatmap_means(const struct heatmap_plan *pl, const double *mean,
    const double *res, size_t n, uint32_t *dest)
{
	size_t i = 0, special = 0;
	const uint32_t undef = 0xff000000u | (uint32_t)PE_COLOR_UNDEF;
	heatmap_vd t, r = HEATMAP_ALL(1.0);

	for (; n - i >= HEATMAP_LANES; i += HEATMAP_LANES) {
		memcpy(&t, mean + i, sizeof t);
		if (res != NULL)
			memcpy(&r, res + i, sizeof r);
		heatmap_group(pl, &t, &r, pl->cyclic && res != NULL, dest + i);
		heatmap_vm nan = t != t;
		for (int j = 0; j < HEATMAP_LANES; j++)
			if (nan[j]) {
				dest[i + (size_t)j] = undef;
				special++;
			}
	}
	for (; i < n; i++) {
		struct pe_stats one = {.mean = mean[i], .resultant = res != NULL
		    ? res[i] : 1.0, .count = 1};
		dest[i] = heatmap_other(pl->sc, &one, &special);
	}
	return special;
}

/* What pe_scale_color asks of sc, asked once for a row of samples. */
static struct heatmap_plan
heatmap_plan(const struct pe_scale *sc)
{
	double span = sc->hi - sc->lo;
	return (struct heatmap_plan){sc, pe_cmap_buckets(sc->cmap),
	    (unsigned)sc->cmap < PE_CMAP_COUNT ? sc->cmap : PE_CMAP_SEQUENTIAL,
	    sc->lo, span, !(span != 0.0) || !isfinite(span), sc->cyclic};
}

/* The pixel layer's colors of n samples; see draw.h. */
size_t
pe_scale_pixels(const struct pe_scale *sc, const struct pe_stats *s,
    size_t n, uint32_t *dest)
{
	struct heatmap_plan pl = heatmap_plan(sc);
	return heatmap_row(&pl, s, n, dest);
}

/* The same of samples given as means and resultants; see draw.h. Where
 * the wave loops are AVX-512F's, so are these (heatmap_avx512.c), but
 * for the last n % 8. */
size_t
pe_scale_means(const struct pe_scale *sc, const double *mean,
    const double *res, size_t n, uint32_t *dest)
{
	struct heatmap_plan pl = heatmap_plan(sc);
	size_t done = 0, special = 0;
#if defined(PE_WAVE_X86)
	if (strcmp(pe_wave_isa(), "avx512") == 0) {
		done = n - n % 8;
		special = pe_heatmap_means_avx512(&pl, mean, res, done, dest);
	}
#endif
	return special + heatmap_means(&pl, mean + done, res != NULL ? res +
	    done : NULL, n - done, dest + done);
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

/* The glyph and colors of a cell whose two samples are both of class k
 * (masked: a hatch, undefined: a dot), attributes and levels left
 * alone. */
static void
heatmap_special(struct pe_cell *c, enum pe_sample_class k)
{
	bool masked = k == PE_SAMPLE_MASKED;

	c->cp = masked ? GLYPH_HATCH : GLYPH_MIDDOT;
	c->fg = masked ? COLOR_HATCH : COLOR_DOT;
	c->bg = masked ? PE_COLOR_MASKED : PE_COLOR_UNDEF;
	c->kind = masked ? PE_CELL_MASKED : PE_CELL_UNDEFINED;
}

/* The inks of masked and undefined cells at a depth in a theme: the cells
 * pe_draw_heatmap makes, through pe_palette_look (the light theme's pale
 * masks, a depth's quantisation), as RGB; see draw.h. */
void
pe_sample_inks(enum pe_depth depth, enum pe_theme theme,
    struct pe_sample_inks *dest)
{
	static const enum pe_sample_class ks[] = {PE_SAMPLE_MASKED,
	    PE_SAMPLE_UNDEF};

	memset(dest, 0, sizeof *dest);
	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		struct pe_cell c = {0};
		struct pe_look lk;
		heatmap_special(&c, ks[i]);
		lk = pe_palette_look(&c, depth, theme);
		dest->bg[ks[i]] = 0xff000000u |
		    (uint32_t)pe_look_rgb(lk.bg, depth, theme, false);
		dest->ink[ks[i]] = 0xff000000u |
		    (uint32_t)pe_look_rgb(lk.fg, depth, theme, true);
	}
}

/* Whether pixel (u, v) of a cw x ch cell (v = 0 the top) is ink of class
 * k's glyph. The hatch is U+2571's line from the bottom-left corner to the
 * top-right, x / cw + y / ch = 1, and a pixel is on it when its centre is
 * within t/2 pixels of it along the cell's longer side (one pixel a row
 * in a tall cell; t thicker in a large one); the dot a disc of radius r at
 * the centre. In integers, doubled (centres at odd coordinates). */
static bool
heatmap_ink(int u, int v, int cw, int ch, enum pe_sample_class k)
{
	int lo = cw < ch ? cw : ch, hi = cw < ch ? ch : cw;

	if (k == PE_SAMPLE_MASKED) {
		long f = (long)(2 * u + 1) * ch + (long)(2 * v + 1) * cw -
		    2L * cw * ch;
		long t = (long)hi * (1 + lo / 16);
		return f > -t && f <= t;
	}
	long r = lo / 8 > 0 ? lo / 8 : 1;
	long du = 2 * u + 1 - cw, dv = 2 * v + 1 - ch;
	return du * du + dv * dv <= 4 * r * r;
}

/* Paint the pixels of a masked or undefined sample as its cells look; see
 * draw.h. */
void
pe_sample_pattern(uint32_t *rgb, int pw, int cw, int ch, int x0, int x1,
    int y0, int y1, enum pe_sample_class k, const struct pe_sample_inks *in)
{
	uint32_t bg = in->bg[k], ink = in->ink[k];
	/* below 3 pixels a side a glyph is a smear: the background alone */
	bool glyph = k != PE_SAMPLE_VALUE && cw >= 3 && ch >= 3;

	/* a run longer than a cell: the glyph's row of the cell once, then
	 * its pixels along the run */
	uint32_t cell[64];
	bool tile = glyph && x1 - x0 > cw &&
	    cw <= (int)(sizeof cell / sizeof cell[0]);

	for (int y = y0; y < y1; y++) {
		uint32_t *line = rgb + (size_t)y * (size_t)pw;
		int v = glyph ? y % ch : 0, u = glyph ? x0 % cw : 0;
		if (tile) {
			for (int i = 0; i < cw; i++)
				cell[i] = heatmap_ink(i, v, cw, ch, k) ? ink : bg;
			for (int x = x0; x < x1; x++) {
				line[x] = cell[u];
				if (++u == cw)
					u = 0;
			}
			continue;
		}
		for (int x = x0; x < x1; x++) {
			line[x] = glyph && heatmap_ink(u, v, cw, ch, k) ? ink :
			    bg;
			if (++u == cw)
				u = 0;
		}
	}
}

/* Draw samples [2h x w] as w x h half-block cells. Mixed cells are shade
 * cells; their level is the mean of the value samples' levels (0 when
 * neither is a value). */
void
pe_draw_heatmap(struct pe_canvas *cv, int x, int y, int w, int h,
                const struct pe_stats *samples, const struct pe_scale *sc)
{
	/* a cell row's two rows of colors at once (pe_scale_pixels: the
	 * vector units' loop, pe_scale_color's bits); sample by sample
	 * where memory ran out */
	uint32_t *rgb = w > 0 ? malloc(2 * (size_t)w * sizeof *rgb) : NULL;
	for (int cy = 0; cy < h; cy++) {
		const struct pe_stats *row = &samples[(size_t)(2 * cy) *
		    (size_t)w];
		if (rgb != NULL) {
			pe_scale_pixels(sc, row, (size_t)w, rgb);
			pe_scale_pixels(sc, row + w, (size_t)w, rgb + w);
		}
		for (int cx = 0; cx < w; cx++) {
			const struct pe_stats *up, *lo;
			enum pe_sample_class ku, kl;
			struct pe_cell *c = pe_canvas_at(cv, x + cx, y + cy);
			int sum = 0, nv = 0;

			if (c == NULL)
				continue;
			up =
			    &samples[(size_t)(2 * cy) * (size_t)w + (size_t)cx];
			lo = &samples[(size_t)(2 * cy + 1) * (size_t)w +
			              (size_t)cx];
			ku = pe_sample_class(up);
			kl = pe_sample_class(lo);
			c->attr = 0;
			c->shade = 0;
			c->ramp = 0;
			c->lvok = 0;
			if (ku != PE_SAMPLE_VALUE && ku == kl) {
				heatmap_special(c, ku);
				continue;
			}
			c->cp = GLYPH_UPPER_HALF;
			c->fg = rgb != NULL ? (pe_color)(rgb[cx] & 0xffffffu) :
			    pe_scale_color(sc, up);
			c->bg = rgb != NULL ? (pe_color)(rgb[w + cx] & 0xffffffu) :
			    pe_scale_color(sc, lo);
			c->kind = PE_CELL_SHADE;
			if (ku == PE_SAMPLE_VALUE) {
				int lv = heatmap_level(sc, up);
				if (heatmap_has_hue(sc, up))
					pe_palette_mark(c, 0, sc->cmap, sc->cyclic,
					                (uint8_t)lv);
				sum += lv;
				nv++;
			}
			if (kl == PE_SAMPLE_VALUE) {
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
	free(rgb);
}
