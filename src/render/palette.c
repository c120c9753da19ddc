/* Quantising 24-bit colors to what a terminal can show: the xterm 256-color
 * palette, the 16 ANSI colors, and the mono glyph ramp. */
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "render/palette.h"

/* Channel levels of the 6x6x6 cube, indices 16..231 (xterm's
 * 256colres.pl: 0, then 55 + 40 k). */
static const int cube_level[6] = {0, 95, 135, 175, 215, 255};

/* xterm's default RGB values of the 16 ANSI colors (xterm's
 * XTerm-col.ad / charproc.c defaults: color0..color15). */
static const pe_color ansi16[16] = {
    0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
    0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
    0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

/* The mono ramp, darkest (empty) to densest. */
static const char ramp[] = " .:-=+*#%@";

static const char *const depth_names[] = {"truecolor", "256", "16", "8",
    "mono"};

/* Squared Euclidean distance between two RGB colors. */
static int
palette_dist2(int r, int g, int b, pe_color c)
{
	int dr = r - ((c >> 16) & 0xff);
	int dg = g - ((c >> 8) & 0xff);
	int db = b - (c & 0xff);

	return dr * dr + dg * dg + db * db;
}

/* Index 0..5 of the cube level nearest to channel value v. */
static int
palette_cube_index(int v)
{
	int best = 0;

	for (int i = 1; i < 6; i++)
		if (abs(v - cube_level[i]) < abs(v - cube_level[best]))
			best = i;
	return best;
}

/* RGB of a palette index 0..255 (xterm's defaults). */
pe_color
pe_palette_rgb(int index)
{
	if (index < 0)
		return 0;
	if (index < 16)
		return ansi16[index];
	if (index < 232) {
		int i = index - 16;
		return PE_RGB(cube_level[i / 36], cube_level[(i / 6) % 6],
		              cube_level[i % 6]);
	}
	if (index < 256) {
		int v = 8 + 10 * (index - 232);
		return PE_RGB(v, v, v);
	}
	return 0xffffff;
}

/* Nearest xterm-256 index (cube 16..231 or greys 232..255) to c by RGB
 * distance; the cube wins a tie. The cube's nearest entry is the nearest
 * level per channel, since the distance is a sum over channels. */
int
pe_palette_256(pe_color c)
{
	int r, g, b, ci, best_grey = 232, dcube, dgrey;

	if (c < 0)
		c = 0;
	r = (c >> 16) & 0xff;
	g = (c >> 8) & 0xff;
	b = c & 0xff;
	ci = 16 + 36 * palette_cube_index(r) + 6 * palette_cube_index(g) +
	     palette_cube_index(b);
	dcube = palette_dist2(r, g, b, pe_palette_rgb(ci));
	dgrey = palette_dist2(r, g, b, pe_palette_rgb(232));
	for (int i = 233; i < 256; i++) {
		int d = palette_dist2(r, g, b, pe_palette_rgb(i));
		if (d < dgrey) {
			dgrey = d;
			best_grey = i;
		}
	}
	return dgrey < dcube ? best_grey : ci;
}

/* Nearest cube entry off the grey diagonal (r = g = b) to c. Distances add
 * over channels, so when the nearest entry is a grey (a, a, a) the nearest
 * one with a hue differs from it in one channel only: the channel whose
 * second-nearest level costs the least extra. */
static int
palette_256_hue(pe_color c)
{
	int v[3], best[3], extra = -1, ch = 0, alt = 0;

	for (int k = 0; k < 3; k++) {
		v[k] = (c >> (16 - 8 * k)) & 0xff;
		best[k] = palette_cube_index(v[k]);
	}
	if (best[0] != best[1] || best[1] != best[2])
		return 16 + 36 * best[0] + 6 * best[1] + best[2];
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 6; i++) {
			int d0 = v[k] - cube_level[best[k]],
			    d1 = v[k] - cube_level[i];
			int e = d1 * d1 - d0 * d0;

			if (i != best[k] && (extra < 0 || e < extra)) {
				extra = e;
				ch = k;
				alt = i;
			}
		}
	best[ch] = alt;
	return 16 + 36 * best[0] + 6 * best[1] + best[2];
}

/* Index at 256 colors of a cell's fg or bg: a half drawn from a cyclic
 * colormap keeps a hue, the nearest entry else. */
int
pe_palette_256_cell(const struct pe_cell *c, bool fg)
{
	pe_color col = fg ? c->fg : c->bg;
	int half = fg ? 0 : 1;

	if (col < 0)
		return -1;
	if (c->ramp == PE_CMAP_CYCLIC + 1 && (c->lvok & (1 << half)))
		return palette_256_hue(col);
	return pe_palette_256(col);
}

/* Nearest of the 16 ANSI colors to c by RGB distance (lowest index wins a
 * tie). */
int
pe_palette_16(pe_color c)
{
	int r, g, b, best = 0, bestd;

	if (c < 0)
		c = 0;
	r = (c >> 16) & 0xff;
	g = (c >> 8) & 0xff;
	b = c & 0xff;
	bestd = palette_dist2(r, g, b, ansi16[0]);
	for (int i = 1; i < 16; i++) {
		int d = palette_dist2(r, g, b, ansi16[i]);
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

/* Ordered 16-color ramps (xterm indices): diverging blue, bright blue,
 * white, bright red, red; sequential as viridis goes, purple to yellow. */
static const uint8_t ramp16_div[] = {4, 12, 15, 9, 1};
static const uint8_t ramp16_seq[] = {5, 4, 6, 2, 10, 11};

/* Index at 16 colors of a cell's fg or bg (ramp for heatmap halves). */
int
pe_palette_16_cell(const struct pe_cell *c, bool fg)
{
	pe_color col = fg ? c->fg : c->bg;
	int half = fg ? 0 : 1;

	if (col < 0)
		return -1;
	if (c->ramp != 0 && c->ramp != PE_CMAP_CYCLIC + 1 &&
	    (c->lvok & (1 << half))) {
		const uint8_t *r = c->ramp - 1 == PE_CMAP_DIVERGING ? ramp16_div
								    : ramp16_seq;
		size_t n = c->ramp - 1 == PE_CMAP_DIVERGING ? sizeof ramp16_div
							    : sizeof ramp16_seq;
		return r[(size_t)c->lv[half] * n / 256];
	}
	return pe_palette_16(col);
}

/* Mark half `half` of a cell as drawn from colormap cm at level lv (any
 * cyclic scale as the cyclic colormap). */
void
pe_palette_mark(struct pe_cell *c, int half, enum pe_cmap cm, bool cyclic,
    uint8_t lv)
{
	if (cyclic)
		cm = PE_CMAP_CYCLIC;
	c->ramp = (uint8_t)(cm + 1);
	c->lv[half] = lv;
	c->lvok |= (uint8_t)(1 << half);
}

/* Glyph of a shade level: ten equal bins of the ramp, 0 -> ' ',
 * 255 -> '@'. */
uint32_t
pe_palette_ramp(uint8_t shade)
{
	return (uint32_t)ramp[(unsigned)shade * (sizeof ramp - 1) / 256];
}

/* Parse a color depth name; -1 when unknown. */
int
pe_depth_parse(const char *s)
{
	if (s == NULL)
		return -1;
	for (int i = 0; i <= PE_DEPTH_MONO; i++)
		if (strcmp(s, depth_names[i]) == 0)
			return i;
	if (strcmp(s, "24bit") == 0 || strcmp(s, "direct") == 0)
		return PE_DEPTH_TRUECOLOR;
	return -1;
}

/* Whether maps are pictures at depth d; see palette.h. */
bool
pe_depth_pictures(enum pe_depth d)
{
	return d == PE_DEPTH_TRUECOLOR || d == PE_DEPTH_256;
}

/* Name of a color depth. */
const char *
pe_depth_name(enum pe_depth d)
{
	return (unsigned)d <= PE_DEPTH_MONO ? depth_names[d] : "?";
}

/* Nearest of the 8 ANSI colors 0..7 to c (lowest index wins a tie). */
static int
palette_8(pe_color c)
{
	int r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;
	int best = 0, bestd = palette_dist2(r, g, b, ansi16[0]);

	for (int i = 1; i < 8; i++) {
		int d = palette_dist2(r, g, b, ansi16[i]);
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

/* Ordered 8-color ramps, as the 16-color ones without the bright half:
 * diverging blue, cyan, white, yellow, red; sequential magenta, blue,
 * cyan, green, yellow. */
static const uint8_t ramp8_div[] = {4, 6, 7, 3, 1};
static const uint8_t ramp8_seq[] = {5, 4, 6, 2, 3};

/* Index at 8 colors of a cell's fg or bg (ramp for heatmap halves), or -1
 * for the default. */
static int
palette_8_cell(const struct pe_cell *c, bool fg)
{
	pe_color col = fg ? c->fg : c->bg;
	int half = fg ? 0 : 1;

	if (col < 0)
		return -1;
	if (c->ramp != 0 && (c->lvok & (1 << half))) {
		bool div = c->ramp - 1 == PE_CMAP_DIVERGING;
		const uint8_t *r = div ? ramp8_div : ramp8_seq;
		size_t n = div ? sizeof ramp8_div : sizeof ramp8_seq;
		return r[(size_t)c->lv[half] * n / 256];
	}
	return palette_8(col);
}

/* Whether half `half` of a heatmap cell is a value drawn without a hue
 * (unmarked: a cyclic block of many turns), not a masked or undefined
 * half. */
static bool
palette_no_hue(const struct pe_cell *c, int half)
{
	pe_color col = half == 0 ? c->fg : c->bg;
	return c->kind == PE_CELL_SHADE && col >= 0 &&
	    !(c->lvok & (1 << half)) && col != PE_COLOR_MASKED &&
	    col != PE_COLOR_UNDEF;
}

/* Whether a color is a grey between dark and light (secondary text). */
static bool
palette_mid_grey(pe_color c)
{
	int r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;
	int hi = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int lo = r < g ? (r < b ? r : b) : (g < b ? g : b);

	return hi - lo < 0x20 && hi >= 0x40 && hi <= 0xc0;
}

/* Whether a color is a grey (black and white included): a text color
 * chosen for contrast rather than for its hue. */
static bool
palette_grey(pe_color c)
{
	int r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;
	int hi = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int lo = r < g ? (r < b ? r : b) : (g < b ? g : b);

	return hi - lo < 0x20;
}

/* sRGB channel 0..255 as linear light (IEC 61966-2-1, as WCAG 2.x). */
static double
palette_lin(int v)
{
	double x = v / 255.0;

	return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
}

/* Linear light 0..1 as an sRGB channel 0..255 (rounded). */
static int
palette_srgb(double l)
{
	double x;

	l = l < 0 ? 0 : l > 1 ? 1 : l;
	x = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
	return (int)lround(x * 255.0);
}

/* WCAG 2.x relative luminance: 0.2126 R + 0.7152 G + 0.0722 B of the
 * linear channels (W3C, WCAG 2.1, "relative luminance"). */
double
pe_palette_luminance(pe_color c)
{
	if (c < 0)
		c = 0;
	return 0.2126 * palette_lin((c >> 16) & 0xff) +
	    0.7152 * palette_lin((c >> 8) & 0xff) +
	    0.0722 * palette_lin(c & 0xff);
}

/* WCAG 2.x contrast ratio (L1 + 0.05) / (L2 + 0.05), L1 the lighter. */
double
pe_palette_contrast(pe_color a, pe_color b)
{
	double la = pe_palette_luminance(a), lb = pe_palette_luminance(b);

	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* The RGB of a quantised color at a depth. */
static pe_color
palette_q_rgb(pe_color q, enum pe_depth depth)
{
	return depth == PE_DEPTH_TRUECOLOR || depth == PE_DEPTH_MONO
	    ? q : pe_palette_rgb(q);
}

/* Black at a depth (a palette index at 256, 16 and 8 colors). */
static pe_color
palette_black(enum pe_depth depth)
{
	return depth == PE_DEPTH_256 ? 16 : 0;
}

/* White at a depth (8 colors' white is 7, xterm's #e5e5e5). */
static pe_color
palette_white(enum pe_depth depth)
{
	switch (depth) {
	case PE_DEPTH_256:
		return 231;
	case PE_DEPTH_16:
		return 15;
	case PE_DEPTH_8:
		return 7;
	default:
		return PE_RGB(0xff, 0xff, 0xff);
	}
}

/* Black or white, whichever has the higher contrast with quantised color
 * bg at a depth (WCAG 2.x, in xterm's colors). */
static pe_color
palette_bw(pe_color bg, enum pe_depth depth)
{
	pe_color b = palette_black(depth), w = palette_white(depth);
	pe_color rgb = palette_q_rgb(bg, depth);

	return pe_palette_contrast(palette_q_rgb(b, depth), rgb) >=
	    pe_palette_contrast(palette_q_rgb(w, depth), rgb) ? b : w;
}

static const char *const theme_names[] = {"dark", "light"};

/* Parse a theme name; -1 when unknown. */
int
pe_theme_parse(const char *s)
{
	if (s == NULL)
		return -1;
	for (int i = 0; i < PE_THEME_COUNT; i++)
		if (strcmp(s, theme_names[i]) == 0)
			return i;
	return -1;
}

/* Name of a theme. */
const char *
pe_theme_name(enum pe_theme t)
{
	return (unsigned)t < PE_THEME_COUNT ? theme_names[t] : "?";
}

/* The light theme's page color at a depth (bg: the background), as a look
 * color: RGB at truecolor, an index else. */
static pe_color
palette_light_page(enum pe_depth depth, bool bg)
{
	switch (depth) {
	case PE_DEPTH_256:
		return bg ? 231 : 234; /* #ffffff, #1c1c1c */
	case PE_DEPTH_16:
	case PE_DEPTH_8:
		return bg ? palette_white(depth) : 0;
	default:
		return bg ? PE_THEME_LIGHT_BG : PE_THEME_LIGHT_FG;
	}
}

/* RGB of a look's color; see palette.h. */
pe_color
pe_look_rgb(pe_color q, enum pe_depth depth, enum pe_theme theme, bool fg)
{
	if (q >= 0)
		return palette_q_rgb(q, depth);
	if (theme == PE_THEME_LIGHT)
		return fg ? PE_THEME_LIGHT_FG : PE_THEME_LIGHT_BG;
	return fg ? PE_THEME_DARK_FG : PE_THEME_DARK_BG;
}

/* The page a theme's text stands on, as RGB at a depth. */
static pe_color
palette_page_rgb(enum pe_depth depth, enum pe_theme theme)
{
	if (theme == PE_THEME_LIGHT)
		return palette_q_rgb(palette_light_page(depth, true), depth);
	return PE_THEME_DARK_BG;
}

/* Color c moved toward black (a light page) or white (a dark one) just
 * enough for a contrast of ratio with the page, its hue kept: luminance
 * is linear in the linear channels, so a light page scales them by k and
 * a dark one mixes them with white by t. */
static pe_color
palette_readable_rgb(pe_color c, pe_color page, double ratio)
{
	double lp = pe_palette_luminance(page), l = pe_palette_luminance(c);
	bool to_black = lp > 0.18;
	double lin[3];
	pe_color out = 0;

	if (pe_palette_contrast(c, page) >= ratio)
		return c;
	for (int k = 0; k < 3; k++)
		lin[k] = palette_lin((c >> (16 - 8 * k)) & 0xff);
	if (to_black) {
		double want = (lp + 0.05) / ratio - 0.05;
		double f = l > 0 && want > 0 ? want / l : 0;
		for (int k = 0; k < 3; k++)
			lin[k] *= f;
	} else {
		double want = ratio * (lp + 0.05) - 0.05;
		double t = l < 1 ? (want - l) / (1 - l) : 0;
		for (int k = 0; k < 3; k++)
			lin[k] += t * (1 - lin[k]);
	}
	for (int k = 0; k < 3; k++)
		out |= palette_srgb(lin[k]) << (16 - 8 * k);
	/* rounding may fall short by a hair: step on, one level a time */
	for (int i = 0; i < 255 && pe_palette_contrast(out, page) < ratio;
	     i++) {
		pe_color next = 0;
		for (int s = 16; s >= 0; s -= 8) {
			int v = ((out >> s) & 0xff) + (to_black ? -1 : 1);
			next |= (v < 0 ? 0 : v > 255 ? 255 : v) << s;
		}
		out = next;
	}
	return out;
}

/* The palette entry in [lo, hi) nearest to want (RGB distance) whose
 * contrast with page is at least ratio, greys skipped when no_grey; -1
 * when none is. */
static int
palette_nearest_readable(pe_color want, pe_color page, double ratio, int lo,
    int hi, bool no_grey)
{
	int r = (want >> 16) & 0xff, g = (want >> 8) & 0xff, b = want & 0xff;
	int best = -1, bestd = 0;

	for (int i = lo; i < hi; i++) {
		pe_color rgb = pe_palette_rgb(i);
		int d = palette_dist2(r, g, b, rgb);

		if ((no_grey && palette_grey(rgb)) ||
		    pe_palette_contrast(rgb, page) < ratio)
			continue;
		if (best < 0 || d < bestd) {
			best = i;
			bestd = d;
		}
	}
	return best;
}

/* Whether a glyph is a line, a block or plot dots rather than text: box
 * drawing, block elements, geometric shapes (markers) and braille. */
static bool
palette_graphic(uint32_t cp)
{
	return (cp >= 0x2500 && cp <= 0x25ff) || (cp >= 0x2800 && cp <= 0x28ff);
}

/* The look color of text in 24-bit color orig, quantised to q, on the
 * page (RGB) of a theme: q when it reads, else the color that reads
 * nearest to orig at the depth; PE_COLOR_DEFAULT when a dark theme at 16
 * or 8 colors has none (the terminal's own foreground reads). */
static pe_color
palette_fit(pe_color orig, pe_color q, enum pe_depth depth,
    enum pe_theme theme, pe_color page, double ratio)
{
	bool light = theme == PE_THEME_LIGHT;
	pe_color want;
	int n;

	if (pe_palette_contrast(palette_q_rgb(q, depth), page) >= ratio)
		return q;
	want = palette_readable_rgb(orig, page, ratio);
	switch (depth) {
	case PE_DEPTH_TRUECOLOR:
		return want;
	case PE_DEPTH_256: /* black or white always reads */
		return palette_nearest_readable(want, page, ratio, 16, 256,
		    false);
	default:
		break;
	}
	/* 16 and 8: a grey becomes the page's own text color; a hue the
	 * nearest hue that reads, if any */
	n = depth == PE_DEPTH_16 ? 16 : 8;
	if (!palette_grey(orig)) {
		int i = palette_nearest_readable(want, page, ratio, 0, n, true);
		if (i >= 0)
			return i;
	}
	return light ? 0 : PE_COLOR_DEFAULT;
}

/* The light theme's masked samples: a pale grey under a mid-grey hatch,
 * light and quiet on a white page, where the dark theme's near-black
 * (PE_COLOR_MASKED) would be the loudest thing on a slide; still apart
 * from the page and from every value. At 8 colors the page is already
 * the palest grey there is (white, #e5e5e5): the hatch is black on it. */
#define PALETTE_LIGHT_MASKED PE_RGB(0xec, 0xec, 0xec)
#define PALETTE_LIGHT_HATCH PE_RGB(0xb2, 0xb2, 0xb2)
static void
palette_light_masks(const struct pe_cell *c, enum pe_depth depth,
    struct pe_look *lk)
{
	pe_color bg, hatch;

	switch (depth) {
	case PE_DEPTH_TRUECOLOR:
		bg = PALETTE_LIGHT_MASKED, hatch = PALETTE_LIGHT_HATCH;
		break;
	case PE_DEPTH_256:
		bg = pe_palette_256(PALETTE_LIGHT_MASKED);
		hatch = pe_palette_256(PALETTE_LIGHT_HATCH);
		break;
	case PE_DEPTH_16:
		bg = 7, hatch = 8;
		break;
	default:
		bg = 7, hatch = 0;
		break;
	}
	if (c->kind == PE_CELL_MASKED) {
		lk->bg = bg;
		lk->fg = hatch;
		return;
	}
	if (c->fg == PE_COLOR_MASKED)
		lk->fg = bg;
	if (c->bg == PE_COLOR_MASKED)
		lk->bg = bg;
}

/* The look of a cell at a depth in a theme; see palette.h. */
struct pe_look
pe_palette_look(const struct pe_cell *c, enum pe_depth depth,
    enum pe_theme theme)
{
	struct pe_look lk = {PE_COLOR_DEFAULT, PE_COLOR_DEFAULT, c->attr};
	bool light = theme == PE_THEME_LIGHT;

	switch (depth) {
	case PE_DEPTH_TRUECOLOR:
		lk.fg = c->fg < 0 ? PE_COLOR_DEFAULT : c->fg;
		lk.bg = c->bg < 0 ? PE_COLOR_DEFAULT : c->bg;
		break;
	case PE_DEPTH_256: /* cyclic maps keep a hue */
		lk.fg = pe_palette_256_cell(c, true);
		lk.bg = pe_palette_256_cell(c, false);
		break;
	case PE_DEPTH_16:
		lk.fg = pe_palette_16_cell(c, true);
		lk.bg = pe_palette_16_cell(c, false);
		break;
	case PE_DEPTH_8:
		lk.fg = palette_8_cell(c, true);
		lk.bg = palette_8_cell(c, false);
		/* a value half with no hue (a cyclic block of many turns,
		 * faded to grey) is a grey no ramp has: white, the light grey
		 * of the eight, on a dark page; black on the light theme's,
		 * which is that white itself (the nearest of the eight to mid
		 * grey is yellow, the cyclic ramp's last value) */
		if (palette_no_hue(c, 0))
			lk.fg = light ? 0 : 7;
		if (palette_no_hue(c, 1))
			lk.bg = light ? 0 : 7;
		break;
	default:
		return lk;
	}
	if (c->kind != PE_CELL_TEXT && light)
		palette_light_masks(c, depth, &lk);
	if (c->kind != PE_CELL_TEXT) {
		/* heatmap samples keep their colors; a half left to the
		 * default shows the page */
		if (light && lk.bg < 0)
			lk.bg = palette_light_page(depth, true);
		if (light && lk.fg < 0)
			lk.fg = palette_light_page(depth, false);
		return lk;
	}
	if (lk.bg >= 0) {
		/* Text in black, white or grey on a color (a color bar's
		 * label, a value) keeps its contrast with the color the
		 * background became here, not the one it had in 24 bits; so
		 * does a mark (a half block on the cursor's sample) at 16 and
		 * 8 colors, where the background changed most. */
		bool requant = depth == PE_DEPTH_16 || depth == PE_DEPTH_8;
		if (!(c->attr & PE_ATTR_REVERSE) &&
		    (requant || !palette_graphic(c->cp)) &&
		    (c->fg >= 0 ? palette_grey(c->fg) : light))
			lk.fg = palette_bw(lk.bg, depth);
		return lk;
	}
	pe_color page = palette_page_rgb(depth, theme);
	double ratio = palette_graphic(c->cp) ? PE_CONTRAST_GRAPHIC
	                                      : PE_CONTRAST_TEXT;
	if (light) {
		lk.bg = palette_light_page(depth, true);
		if (lk.fg < 0)
			lk.fg = palette_light_page(depth, false);
		else
			lk.fg = palette_fit(c->fg, lk.fg, depth, theme, page,
			    ratio);
		return lk;
	}
	/* Dark, text on the default background: black and white (0, 7, 15)
	 * read on one kind of screen only. */
	if ((depth == PE_DEPTH_16 || depth == PE_DEPTH_8) && lk.fg >= 0 &&
	    !(c->attr & PE_ATTR_REVERSE) &&
	    (lk.fg == 0 || lk.fg == 7 || lk.fg == 15))
		lk.fg = PE_COLOR_DEFAULT;
	else if (lk.fg >= 0)
		lk.fg = palette_fit(c->fg, lk.fg, depth, theme, page, ratio);
	if (lk.fg < 0 && c->fg >= 0 && palette_mid_grey(c->fg) &&
	    !(c->attr & PE_ATTR_REVERSE))
		lk.attr |= PE_ATTR_DIM;
	return lk;
}

/* A color's name from its RGB: black, white or grey when it has little
 * saturation, else its hue's band (HSV hue, degrees). */
static const char *
palette_hue_name(pe_color rgb)
{
	double r = ((rgb >> 16) & 0xff) / 255.0, g = ((rgb >> 8) & 0xff) / 255.0,
	    b = (rgb & 0xff) / 255.0;
	double hi = fmax(r, fmax(g, b)), lo = fmin(r, fmin(g, b)), d = hi - lo;
	double h;

	if (hi < 0.15)
		return "black";
	if (d < 0.2 * hi || d < 0.08)
		return hi > 0.85 ? "white" : "grey";
	if (hi == r)
		h = 60 * fmod((g - b) / d + 6, 6);
	else if (hi == g)
		h = 60 * ((b - r) / d + 2);
	else
		h = 60 * ((r - g) / d + 4);
	static const struct {
		double upto;
		const char *name;
	} bands[] = {
		{15, "red"}, {45, "orange"}, {70, "yellow"}, {170, "green"},
		{200, "cyan"}, {255, "blue"}, {290, "purple"}, {340, "magenta"},
		{361, "red"},
	};
	for (size_t i = 0; i < sizeof bands / sizeof bands[0]; i++)
		if (h < bands[i].upto)
			return bands[i].name;
	return "red";
}

/* What a map's value half without a hue (a cyclic block of many turns)
 * is called at a depth in a theme; see palette.h. */
const char *
pe_palette_no_hue_name(enum pe_depth depth, enum pe_theme theme)
{
	return depth == PE_DEPTH_8 && theme == PE_THEME_LIGHT ? "black"
							      : "grey";
}

/* The name of the color a text or graphic cell of color c shows; see
 * palette.h. */
const char *
pe_palette_color_name(pe_color c, enum pe_depth depth, enum pe_theme theme,
    bool graphic)
{
	struct pe_cell cell;

	if (depth == PE_DEPTH_MONO)
		return NULL;
	memset(&cell, 0, sizeof cell);
	cell.cp = graphic ? 0x2800 : 'x';
	cell.fg = c;
	cell.bg = PE_COLOR_DEFAULT;
	cell.kind = PE_CELL_TEXT;
	struct pe_look lk = pe_palette_look(&cell, depth, theme);
	return palette_hue_name(pe_look_rgb(lk.fg, depth, theme, true));
}
