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

/* A heatmap of a field over a viewport, with axes and a color bar. */
struct map_spec {
	const struct pe_field *f;
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
};

/* Where a map landed. */
struct map_geom {
	int x, y, w, h;	  /* cells of the map itself */
	size_t r0, r1, c0, c1;
	size_t nsr, nsc;  /* samples */
};

/* Draw a map panel into the rectangle; returns its geometry. */
/* Say in a panel that its numbers could not be computed. */
void panel_failed(struct pe_canvas *cv, int x, int y, int w, int status);
int panel_map(struct pe_canvas *cv, int x, int y, int w, int h,
    const struct map_spec *s, struct map_geom *g);

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
/* A second curve over the plot area of the last panel_plot call with the
 * same rectangle (for comparisons). */
void panel_plot_overlay(struct pe_canvas *cv, int x, int y, int w, int h,
    const double *ys, size_t n, double ylo, double yhi, pe_color fg);

/* Text wrapped at spaces into lines of w cells from (x, y), at most h
 * lines, the last ending in " …" when the rest does not fit (words are
 * never cut). Returns the lines used. */
int panel_text(struct pe_canvas *cv, int x, int y, int w, int h,
    const char *text, pe_color fg, uint8_t attr);

/* Range of finite values in v[n]; false when none. */
bool panel_range(const double *v, size_t n, double *lo, double *hi);

#endif
