/* Colors: colormaps (data in assets/, compiled in) and the quantisation to
 * what a terminal or file can show. One module for every writer. */
#ifndef PESCOPE_PALETTE_H
#define PESCOPE_PALETTE_H

#include "canvas.h"

enum pe_depth {
	PE_DEPTH_TRUECOLOR,
	PE_DEPTH_256,
	PE_DEPTH_16,
	PE_DEPTH_8, /* the 8 ANSI colors (TERM=xterm, screen, linux) */
	PE_DEPTH_MONO,
};

enum pe_cmap {
	PE_CMAP_DIVERGING,  /* signed values centred on zero */
	PE_CMAP_SEQUENTIAL, /* magnitudes, indices: perceptually uniform */
	PE_CMAP_CYCLIC,	    /* angles mod 2 pi: 0 and 2 pi meet */
	PE_CMAP_COUNT
};

/* Name of the colormap and where its data comes from. */
const char *pe_cmap_name(enum pe_cmap cm);
const char *pe_cmap_source(enum pe_cmap cm);

/* Color at t in [0, 1] (clamped), linear between the table's entries. */
pe_color pe_cmap_color(enum pe_cmap cm, double t);
/* The buckets pe_cmap_color reads first, for a loop over many t: entry
 * (size_t)(t * PE_CMAP_BUCKETS) of a t in [0, 1] is t's color, or has
 * PE_CMAP_MIXED set where the bucket's t do not all get one color (ask
 * pe_cmap_color). Made by the first call for that colormap (or
 * pe_cmap_color's); a colormap out of range is the sequential one. */
#define PE_CMAP_BUCKETS 65536
#define PE_CMAP_MIXED 0x80000000u
const uint32_t *pe_cmap_buckets(enum pe_cmap cm);

/* Colors of the special samples, and their mono glyphs. */
#define PE_COLOR_MASKED PE_RGB(0x26, 0x26, 0x26)
#define PE_COLOR_UNDEF PE_RGB(0x6c, 0x00, 0x6c)

/* Index of the nearest xterm-256 color (the 6x6x6 cube 16..231 or the grey
 * ramp 232..255) to c, and the RGB of a palette index 0..255. */
int pe_palette_256(pe_color c);
pe_color pe_palette_rgb(int index);
/* Index 0..15 of the nearest of the 16 ANSI colors (xterm's values). */
int pe_palette_16(pe_color c);
/* Index at 16 colors of a cell's foreground (fg) or background, or -1 for
 * the default: heatmap halves of a diverging or sequential map take that
 * map's ordered 16-color ramp (nearest colors would scramble the order of
 * a smooth map), everything else the nearest ANSI color. */
int pe_palette_16_cell(const struct pe_cell *c, bool fg);
/* Index at 256 colors of a cell's foreground (fg) or background, or -1 for
 * the default: a heatmap half marked as the cyclic colormap keeps a hue
 * (the nearest cube entry off the grey diagonal), since greys on a cyclic
 * map mean "a block spans many turns"; everything else the nearest entry. */
int pe_palette_256_cell(const struct pe_cell *c, bool fg);
/* Set a cell's ramp fields for a half (0 upper/fg, 1 lower/bg) drawn from
 * colormap cm at level lv (a cyclic scale counts as the cyclic colormap,
 * which keeps nearest colors at 16). */
void pe_palette_mark(struct pe_cell *c, int half, enum pe_cmap cm,
    bool cyclic, uint8_t lv);

/* The theme a frame is written in. Dark uses the terminal's own colors
 * (a dark screen is assumed where a writer needs a real color); light
 * paints its own background, for projectors that wash out dark screens. */
enum pe_theme {
	PE_THEME_DARK,
	PE_THEME_LIGHT,
	PE_THEME_COUNT
};

/* Parse "dark", "light" (-1 if unknown); the name of a theme. */
int pe_theme_parse(const char *s);
const char *pe_theme_name(enum pe_theme t);

/* The page colors of a theme, as RGB: what the terminal's default
 * background and foreground stand for (dark: a dark terminal's, the colors
 * file writers paint; light: the colors the light theme paints). */
#define PE_THEME_DARK_BG PE_RGB(0x1c, 0x1c, 0x1c)
#define PE_THEME_DARK_FG PE_RGB(0xd0, 0xd0, 0xd0)
#define PE_THEME_LIGHT_BG PE_RGB(0xff, 0xff, 0xff)
#define PE_THEME_LIGHT_FG PE_RGB(0x1c, 0x1c, 0x1c)

/* The least contrast (WCAG 2.x ratio) of text on its background, and of
 * lines and plot dots (WCAG's non-text contrast) on the page. */
#define PE_CONTRAST_TEXT 4.5
#define PE_CONTRAST_GRAPHIC 3.0

/* WCAG 2.x relative luminance of an RGB color, and the contrast ratio
 * (lighter + 0.05) / (darker + 0.05) of two colors, 1 to 21. */
double pe_palette_luminance(pe_color c);
double pe_palette_contrast(pe_color a, pe_color b);

/* A cell as a terminal at a depth shows it: fg and bg are RGB (truecolor),
 * palette indices (256, 16, 8) or PE_COLOR_DEFAULT (always at mono). */
struct pe_look {
	pe_color fg, bg;
	uint8_t attr; /* enum pe_attr bits */
};
/* The look of a cell at a depth in a theme: the one mapping the file
 * writers and the TUI share. Heatmap halves take their colormap's ordered
 * ramp at 16 and 8 colors and keep their colors in every theme. Black or
 * white text on a color (a color bar's label) is whichever of the two
 * reads on the color the background became. Text on the page (the default
 * background) keeps PE_CONTRAST_TEXT with the theme's page, lines and plot
 * dots PE_CONTRAST_GRAPHIC: a color short of it is darkened (light) or
 * lightened (dark) at truecolor, and replaced by the nearest palette entry
 * that reads at 256, 16 and 8 colors. Dark: the default colors stay the
 * terminal's, and text on them at 16 and 8 colors is never black or white
 * (it would vanish on a dark or a light screen): it takes the terminal's
 * own foreground, dimmed when it was a grey. Light: the default background
 * and foreground become the theme's (at 16 and 8 colors white and black),
 * so a light look has no default colors, except at mono, which has none. */
struct pe_look pe_palette_look(const struct pe_cell *c, enum pe_depth depth,
    enum pe_theme theme);

/* RGB of a color of a look (an index at 256, 16, 8 colors), the theme's
 * page color when it is the default (fg: the foreground). */
pe_color pe_look_rgb(pe_color q, enum pe_depth depth, enum pe_theme theme,
    bool fg);

/* What a map's value half without a hue (a cyclic block of many turns,
 * faded to grey) looks like at a depth in a theme, for its legend: "grey",
 * but "black" at 8 colors on the light theme, whose page is the eight's
 * only grey. */
const char *pe_palette_no_hue_name(enum pe_depth depth, enum pe_theme theme);
/* The name of the color that text (graphic: a line or plot dots) in
 * color c shows at a depth in a theme, read off the look's RGB (its hue,
 * or grey, black, white): "orange", "green", "blue", ...; what a legend
 * says, so that it names what is drawn at every depth (at 8 colors a
 * green and a blue may both be cyan). NULL at mono, which has none. */
const char *pe_palette_color_name(pe_color c, enum pe_depth depth,
    enum pe_theme theme, bool graphic);

/* The mono ramp: glyph for a shade level 0..255 (" .:-=+*#%@"). */
uint32_t pe_palette_ramp(uint8_t shade);
/* Mono glyphs of special cells. */
#define PE_GLYPH_MASKED ((uint32_t)'/')
#define PE_GLYPH_UNDEF ((uint32_t)'?')

/* Parse "truecolor", "256", "16", "8", "mono" (-1 if unknown). */
int pe_depth_parse(const char *s);
const char *pe_depth_name(enum pe_depth d);
/* Whether maps are pictures at depth d: 256 colors or more. A picture's
 * pixels are the colormap's 24-bit colors and its legend (a color bar,
 * swatches) is cells, which at 16 colors or fewer could not show them. */
bool pe_depth_pictures(enum pe_depth d);

#endif
