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

/* Black or white, whichever reads on palette color bg (its relative
 * luminance, WCAG 2.x, in xterm's colors): 0 or 7 at 8 colors, 0 or 15
 * at 16. */
static int
palette_contrast(int bg, enum pe_depth depth)
{
	pe_color c = pe_palette_rgb(bg);
	double l = 0;
	for (int s = 16, k = 0; s >= 0; s -= 8, k++) {
		static const double w[3] = {0.2126, 0.7152, 0.0722};
		double v = ((c >> s) & 0xff) / 255.0;
		v = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
		l += w[k] * v;
	}
	/* contrast with black (l + 0.05) / 0.05 against white's 1.05 / (l +
	 * 0.05): black wins above l = 0.179 */
	if (l > 0.179)
		return 0;
	return depth == PE_DEPTH_8 ? 7 : 15;
}

/* The look of a cell at a depth; see palette.h. */
struct pe_look
pe_palette_look(const struct pe_cell *c, enum pe_depth depth)
{
	struct pe_look lk = {PE_COLOR_DEFAULT, PE_COLOR_DEFAULT, c->attr};

	switch (depth) {
	case PE_DEPTH_TRUECOLOR:
		lk.fg = c->fg < 0 ? PE_COLOR_DEFAULT : c->fg;
		lk.bg = c->bg < 0 ? PE_COLOR_DEFAULT : c->bg;
		return lk;
	case PE_DEPTH_256: /* cyclic maps keep a hue */
		lk.fg = pe_palette_256_cell(c, true);
		lk.bg = pe_palette_256_cell(c, false);
		return lk;
	case PE_DEPTH_16:
		lk.fg = pe_palette_16_cell(c, true);
		lk.bg = pe_palette_16_cell(c, false);
		break;
	case PE_DEPTH_8:
		lk.fg = palette_8_cell(c, true);
		lk.bg = palette_8_cell(c, false);
		break;
	default:
		return lk;
	}
	/* Text in black, white or grey on a colored background (a color
	 * bar's label, a cursor mark) keeps its contrast with the color the
	 * background became here, not the one it had in 24 bits. */
	if (c->kind == PE_CELL_TEXT && lk.bg >= 0 && c->fg >= 0 &&
	    palette_grey(c->fg) && !(c->attr & PE_ATTR_REVERSE))
		lk.fg = palette_contrast(lk.bg, depth);
	/* Text on the default background: black and white (0, 7, 15) read on
	 * one kind of screen only. */
	if (c->kind == PE_CELL_TEXT && lk.bg < 0 && lk.fg >= 0 &&
	    !(c->attr & PE_ATTR_REVERSE) &&
	    (lk.fg == 0 || lk.fg == 7 || lk.fg == 15)) {
		if (palette_mid_grey(c->fg))
			lk.attr |= PE_ATTR_DIM;
		lk.fg = PE_COLOR_DEFAULT;
	}
	return lk;
}
