/* Renderers that draw into a canvas: half-block heatmaps, braille line
 * plots, the RoPE wheel, axes and color bars. */
#ifndef PESCOPE_DRAW_H
#define PESCOPE_DRAW_H

#include "canvas.h"
#include "pescope/field.h"
#include "palette.h"

/* How values map to colors: t = (v - lo) / (hi - lo) into a colormap.
 * Cyclic scales wrap t into [0, 1) and fade a sample toward grey as its
 * resultant length falls (a block spanning many turns has no direction). */
struct pe_scale {
	enum pe_cmap cmap;
	double lo, hi;
	bool cyclic;
};

/* Position of v on the scale in [0, 1] (wrapped when cyclic, clamped else). */
double pe_scale_t(const struct pe_scale *sc, double v);
/* What a block-mean sample shows: a value, or a masked or undefined
 * sample (more than half its entries so, or nothing finite to average). */
enum pe_sample_class {
	PE_SAMPLE_VALUE,
	PE_SAMPLE_MASKED,
	PE_SAMPLE_UNDEF
};
enum pe_sample_class pe_sample_class(const struct pe_stats *s);

/* The colors (opaque 0xFFRRGGBB) a masked and an undefined heatmap cell
 * is written in at a depth in a theme, by class: the background and the
 * ink of its glyph (the hatch, the dot); a value's are 0. */
struct pe_sample_inks {
	uint32_t bg[PE_SAMPLE_UNDEF + 1], ink[PE_SAMPLE_UNDEF + 1];
};
void pe_sample_inks(enum pe_depth depth, enum pe_theme theme,
    struct pe_sample_inks *dest);
/* Paint pixels [x0, x1) x [y0, y1) of a picture pw pixels wide, whose
 * cells are cw x ch pixels from its pixel (0, 0), as a sample of class k
 * (masked or undefined) looks in the cells: k's background, and in each
 * cell of at least 3 x 3 pixels the part of its glyph these pixels hold,
 * a diagonal from the bottom-left corner to the top-right (U+2571), a dot
 * at the centre (U+00B7). */
void pe_sample_pattern(uint32_t *rgb, int pw, int cw, int ch, int x0,
    int x1, int y0, int y1, enum pe_sample_class k,
    const struct pe_sample_inks *in);

/* Color of one block-mean sample: the colormap, or PE_COLOR_MASKED when
 * more than half its entries are masked, PE_COLOR_UNDEF when more than half
 * are undefined. */
pe_color pe_scale_color(const struct pe_scale *sc, const struct pe_stats *s);
/* The pixel layer's colors of n samples: dest[i] = 0xFF000000 |
 * pe_scale_color(sc, &s[i]) (opaque 0xFFRRGGBB), bit for bit, made a run
 * of samples at a time on the vector units. Returns how many are masked
 * or undefined (pe_sample_class), whose patterns the caller paints. */
size_t pe_scale_pixels(const struct pe_scale *sc, const struct pe_stats *s,
    size_t n, uint32_t *dest);
/* The same of n blocks of finite entries alone (count > 0, none masked
 * or undefined), given as their means and resultant lengths (res NULL:
 * every one 1): a NaN mean is undefined, and counted. */
size_t pe_scale_means(const struct pe_scale *sc, const double *mean,
    const double *res, size_t n, uint32_t *dest);

/* Draw samples [2h rows x w cols] (row-major) as w x h cells of the
 * half-block U+2580: foreground the upper sample, background the lower.
 * Cells whose two samples are both masked show U+2571 (hatched), both
 * undefined U+00B7; shade holds the mean level of the two for mono. */
void pe_draw_heatmap(struct pe_canvas *cv, int x, int y, int w, int h,
    const struct pe_stats *samples, const struct pe_scale *sc);

/* A tick of an axis: a value and the cell that shows it. */
struct pe_tick {
	size_t v;
	int cell;
};

/* Ticks of an axis whose ns samples tile [lo, hi) as pe_field_span cuts
 * them (more samples than elements: each element repeats), per_cell
 * samples to a cell: lo at cell 0, then the multiples of the smallest step
 * of 1, 2, 5 x 10^k whose ticks (lo's included) land at least gap cells
 * apart, each at the cell of the first sample that shows it. Writes at most
 * max into dest; returns the count. */
size_t pe_axis_ticks(size_t lo, size_t hi, size_t ns, int per_cell, int gap,
    struct pe_tick *dest, size_t max);

/* Tick labels for a vertical axis: h cells showing rows [r0, r1) as ns
 * half-cell samples (2 per cell; the last cell may hold one); labels at
 * pe_axis_ticks's rows, two blank rows apart at least, right-aligned in the
 * w columns at x..x+w-1. */
void pe_draw_vaxis(struct pe_canvas *cv, int x, int y, int w, int h,
    size_t r0, size_t r1, size_t ns, pe_color fg);
/* Tick labels for a horizontal axis of w cells showing cols [c0, c1) (one
 * sample a cell): a line of ticks at y and labels below it (2 lines), at
 * pe_axis_ticks's columns, spaced apart. */
void pe_draw_haxis(struct pe_canvas *cv, int x, int y, int w, size_t c0,
    size_t c1, pe_color fg);

/* The colormap alone across w cells at (x, y) (shade cells). */
void pe_draw_colorbar_bar(struct pe_canvas *cv, int x, int y, int w,
    const struct pe_scale *sc);

/* Color bar: one line of the colormap across w cells at (x, y), and on the
 * line below its low end, midpoint and high end printed with fmt (a
 * printf format for one double, e.g. "%.3g"). */
void pe_draw_colorbar(struct pe_canvas *cv, int x, int y, int w,
    const struct pe_scale *sc, const char *fmt, pe_color fg);

/* Braille line plot of ys[0..n) (NAN = gap) in a w x h cell box with 2 x 4
 * dots per cell; x spans the box, y maps [ylo, yhi] to bottom..top. Samples
 * are joined by straight segments. */
void pe_draw_plot(struct pe_canvas *cv, int x, int y, int w, int h,
    const double *ys, size_t n, double ylo, double yhi, pe_color fg);
/* Set one braille dot (px, py) of a w x h cell box at (x, y) (dots: 2w x 4h;
 * py = 0 is the top); existing dots in the cell are kept. On a large
 * canvas (cv->large) the cell's quadrant block that holds the dot is set
 * instead (2 x 2 per cell): every plot, wheel and mark drawn with it is
 * then a line of blocks. */
void pe_draw_dot(struct pe_canvas *cv, int x, int y, int w, int h, int px,
    int py, pe_color fg);

/* Braille dots of the straight segment (x0, y0)-(x1, y1) in dot
 * coordinates of a w x h cell box at (x, y) (Bresenham). */
void pe_draw_segment(struct pe_canvas *cv, int x, int y, int w, int h, int x0,
    int y0, int x1, int y1, pe_color fg);

/* RoPE wheel: a circle in a w x h cell box with one hand per angle
 * (radians, counter-clockwise from 3 o'clock, y up), drawn in braille. */
void pe_draw_wheel(struct pe_canvas *cv, int x, int y, int w, int h,
    const double *angles, size_t n, const pe_color *colors);

/* Cells of UTF-8 text: one per code point. */
int pe_text_cells(const char *s);
/* Text that fits width cells, never cut inside a word or a number: src
 * whole when it fits, else whole words (split at spaces; leading blanks
 * kept) followed by " …": the longest run, preferring one that closes its
 * brackets and ends an item (two spaces, ';' or ','), never ending
 * in punctuation alone; "" when not even the first word fits. Writes dst
 * (cap bytes); returns its cells. */
int pe_text_fit(char *dst, size_t cap, const char *src, int width);
/* pe_canvas_text of the text pe_text_fit makes of utf8 in max_w cells (and
 * the canvas); returns the cells written. */
int pe_canvas_text_fit(struct pe_canvas *cv, int x, int y, int max_w,
    const char *utf8, pe_color fg, pe_color bg, uint8_t attr);
/* Items (n at most 64; NULL or "" skipped) joined by sep in their order,
 * those of the largest prio dropped whole, the later first, until the line
 * fits width; a last item still too wide is shortened by pe_text_fit.
 * Writes dst; returns its cells. */
int pe_text_pick(char *dst, size_t cap, const char *const *items,
    const int *prio, size_t n, const char *sep, int width);

/* Format a number into buf in at most width characters ("%.*g" shrinking,
 * "-inf", "nan"); returns buf. */
char *pe_fmt_num(char *buf, size_t cap, int width, double v);

/* Copy s into dest[cap] with control characters, C1 controls and bytes
 * that are not UTF-8 written as \xNN (C1 as \u00NN), so a message that
 * quotes user input cannot send escape sequences to a terminal. Returns
 * dest. */
char *pe_text_escape(const char *s, char *dest, size_t cap);

#endif
