/* Panels: the pieces a view lays out (a map with axes and color bar, a
 * braille plot with labels, a wheel, small multiples). Private to view/. */
#ifndef PESCOPE_VIEW_PANELS_H
#define PESCOPE_VIEW_PANELS_H

#include "render/draw.h"
#include "view/view.h"

/* Colors of the chrome (named elements, never raw numbers at call sites). */
#define C_TEXT PE_COLOR_DEFAULT
#define C_DIM PE_RGB(0x8a, 0x8a, 0x8a)
#define C_ACCENT PE_RGB(0x5f, 0xaf, 0xff)
#define C_WARN PE_RGB(0xff, 0x87, 0x5f)
#define C_CURVE PE_RGB(0xff, 0x87, 0x00) /* reads on dark and light */
#define C_CURVE2 PE_RGB(0x00, 0xaf, 0x87)
/* a third curve: apart from the first two at 16 and 8 colors too */
#define C_CURVE3 PE_RGB(0xd7, 0x5f, 0xd7)

/* The name of the color a plot drawn in c shows on cv (its depth and
 * theme: pe_palette_color_name), for a legend; NULL when it has none
 * (mono). */
const char *panel_color(const struct pe_canvas *cv, pe_color c);

/* A matrix that is not a field (a small array, M_K): its block means over
 * a tiling, as pe_field_grid, and its elements, as pe_field_value. */
struct map_source {
	const void *arg;
	int (*grid)(const void *arg, size_t r0, size_t r1, size_t nr, size_t c0,
	    size_t c1, size_t nc, struct pe_stats *dest);
	double (*value)(const void *arg, size_t r, size_t c);
};

/* A row-major array [rows, cols] as a map source (-inf masked, NaN
 * undefined): panel_array_source. */
struct panel_array {
	const double *v;
	size_t cols;
};
struct map_source panel_array_source(const struct panel_array *a);

/* A map's picture kept while what it shows is unchanged (the model's:
 * its fields do not change while it lives): the field's kind, head and
 * anchor, the viewport, the pixels and the scale, and its pixels without
 * the cursor's frame. */
struct map_keep {
	uint64_t serial;       /* the picture's (pe_pixmap.serial); 0: empty */
	uint64_t used;	       /* when last drawn, to replace the oldest */
	enum pe_field_kind kind;
	size_t head, anchor;
	size_t r0, r1, c0, c1;
	int pw, ph;
	struct pe_scale scale;
	int depth, theme;      /* the canvas's: masked and undefined samples
				  are painted in their colors */
	uint32_t *rgb;	       /* [ph * pw] */
};
/* A map's block means at cell resolution kept the same way (what the
 * cells show: the same key but the scale, at nsr x nsc samples). */
struct map_keep_cells {
	uint64_t used;	       /* 0: empty */
	enum pe_field_kind kind;
	size_t head, anchor;
	size_t r0, r1, c0, c1;
	size_t nsr, nsc;
	struct pe_stats *st;   /* [nsr * nsc] */
};
/* The pictures a model keeps (its main map's; two for compare mode's
 * narrow panes and a head toggled back), and as many cell grids. */
#define MAP_KEEP 2
/* Free what kept pictures and cell grids hold. */
void panel_keep_free(struct map_keep *k, struct map_keep_cells *kc,
    int n);

/* A heatmap of a field over a viewport, with axes and a color bar. */
struct map_spec {
	const struct pe_field *f;
	struct map_source src; /* when f is NULL */
	size_t r0, r1, c0, c1; /* viewport */
	struct pe_scale scale;
	const char *title;
	const char *fmt;       /* color bar numbers, e.g. "%.3g" */
	bool cursor;
	size_t cur_r, cur_c;
	bool axes;	       /* tick labels (else a bare map) */
	bool colorbar;
	const char *legend;    /* extra legend line, or NULL */
	int swatch;	       /* PE_CELL_MASKED / _UNDEFINED: a sample cell
				  of that look starts the legend; 0 = none */
	bool mask;	       /* a mask (0 or −∞ only): no color bar, the
				  legend starts with a swatch of each value,
				  "0: visible, −∞: masked" */
	bool values;	       /* each element's number over its color, where
				  a sample is one element and they fit */
	size_t mark_from;      /* rows >= it marked beside the axis
				  (--train-len); 0: none */
	const char *const *row_labels; /* [rows]: words for the vertical
					  axis instead of numbers (tokens) */
	const char *const *col_labels; /* [cols]: words under the columns
					  when every one fits, else numbers */
	bool pixels;	       /* also a pixel layer where the canvas wants
				  one (the main map): the same kernel calls
				  at pixel resolution, the cursor's sample
				  framed */
	struct map_keep *keep; /* [MAP_KEEP]: the picture kept (f a model's
				  field), or NULL: made every frame */
	struct map_keep_cells *keep_cells; /* [MAP_KEEP]: likewise, the
				  block means at cell resolution */
};

/* Where a map landed. */
struct map_geom {
	int x, y, w, h;	  /* cells of the map itself */
	size_t r0, r1, c0, c1;
	size_t nsr, nsc;  /* samples */
	int cw;		  /* cells a column sample is wide: 1, or 2 on a
			     large canvas (the presenter view) */
	/* its pixel layer (canvas.h's tiling), pnr == 0: none */
	size_t pnr, pnc;  /* samples */
	int pw, ph;	  /* pixels */
};

/* Cells a map's column sample is wide on cv: 2 on a large canvas, else 1. */
int panel_col_cells(const struct pe_canvas *cv);

/* Draw a map panel into the rectangle; returns its geometry. */
/* Say in a panel that its numbers could not be computed. */
void panel_failed(struct pe_canvas *cv, int x, int y, int w, int status);
int panel_map(struct pe_canvas *cv, int x, int y, int w, int h,
    const struct map_spec *s, struct map_geom *g);

/* fn(arg, 0) and fn(arg, 1) at once, on this thread and the pool's
 * worker (render/pool.h's pe_pool_run2), with what the kernel makes once
 * a process made first (its vector loops' choice), so two threads never
 * race to make it. Panels' independent work, and the kernel's grids'
 * halves (pe_field_set_run2). */
void panel_run2(void (*fn)(void *arg, int part), void *arg);

/* The samples (rows, columns) panel_map draws spec s with in w x h
 * cells; 0 x 0 when it does not fit. */
void panel_map_tiling(const struct pe_canvas *cv, const struct map_spec *s,
    int w, int h, size_t *nsr, size_t *nsc);

/* Lines a map panel needs besides the map: title, axis, bar, legend. */
int panel_map_chrome_h(const struct map_spec *s);

/* Sample index (of nb tiling [lo, hi)) holding element v. */
size_t panel_sample_of(size_t lo, size_t hi, size_t nb, size_t v);

/* A braille plot with its title, y range labels and x range labels. A
 * marker column (x_mark >= 0, in sample units of n) is drawn as a faint
 * vertical line. */
void panel_plot(struct pe_canvas *cv, int x, int y, int w, int h,
    const char *title, const double *ys, size_t n, double ylo, double yhi,
    const char *xlo, const char *xhi, long x_mark);
/* A faint vertical line of color fg at sample idx of n of the last
 * panel_plot in the same rectangle, and `label` on its x label line when
 * that place is free (--train-len's mark). */
void panel_plot_mark(struct pe_canvas *cv, int x, int y, int w, int h,
    size_t n, size_t idx, const char *label, pe_color fg);

/* The glyph and color that mark positions past --train-len. */
#define PANEL_MARK_GLYPH 0x250a /* ┊ */
#define C_MARK C_WARN

/* A second curve over the plot area of the last panel_plot call with the
 * same rectangle (for comparisons). */
void panel_plot_overlay(struct pe_canvas *cv, int x, int y, int w, int h,
    const double *ys, size_t n, double ylo, double yhi, pe_color fg);

/* A legend under a plot, at most `lines` lines: for each curve a swatch
 * in its color and its label with the name of the color it shows on cv
 * ("━ scaled (orange)"), whole items, the next line when one does not
 * fit. Returns the lines it used. */
int panel_legend(struct pe_canvas *cv, int x, int y, int w, int lines,
    const char *const *labels, const pe_color *colors, int n);
/* The lines panel_legend needs for these items in w cells. */
int panel_legend_lines(const struct pe_canvas *cv, int w,
    const char *const *labels, const pe_color *colors, int n);

/* Text wrapped at spaces into lines of w cells from (x, y), at most h
 * lines, the last ending in " …" when the rest does not fit (words are
 * never cut). Returns the lines used. */
int panel_text(struct pe_canvas *cv, int x, int y, int w, int h,
    const char *text, pe_color fg, uint8_t attr);

/* The lines panel_text needs to draw all of text in w cells. */
int panel_text_lines(int w, const char *text);

/* v formatted for a values cell: "%.*f" with dec decimals, without a
 * "-" on a number that prints as zero. */
void panel_value_text(char *buf, size_t cap, double v, int dec);

/* Range of finite values in v[n]; false when none. */
bool panel_range(const double *v, size_t n, double *lo, double *hi);

#endif
