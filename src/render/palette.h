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

/* A cell as a terminal at a depth shows it: fg and bg are RGB (truecolor),
 * palette indices (256, 16, 8) or PE_COLOR_DEFAULT (always at mono). */
struct pe_look {
	pe_color fg, bg;
	uint8_t attr; /* enum pe_attr bits */
};
/* The look of a cell at a depth: the one mapping the file writers and the
 * TUI share. Heatmap halves take their colormap's ordered ramp at 16 and 8
 * colors; text on the default background is never black or white there
 * (it would vanish on a dark or a light screen): it takes the terminal's
 * own foreground, dimmed when it was a grey. */
struct pe_look pe_palette_look(const struct pe_cell *c, enum pe_depth depth);

/* The mono ramp: glyph for a shade level 0..255 (" .:-=+*#%@"). */
uint32_t pe_palette_ramp(uint8_t shade);
/* Mono glyphs of special cells. */
#define PE_GLYPH_MASKED ((uint32_t)'/')
#define PE_GLYPH_UNDEF ((uint32_t)'?')

/* Parse "truecolor", "256", "16", "8", "mono" (-1 if unknown). */
int pe_depth_parse(const char *s);
const char *pe_depth_name(enum pe_depth d);

#endif
