/* A canvas as vector shapes, for the writers that draw rather than print
 * (SVG, PDF): cell backgrounds and block elements as rectangles merged
 * into runs of one color along a row, box-drawing lines as rectangles,
 * braille as dots, everything else as text in runs of one look. The
 * glyphs drawn as shapes need no font and are exact. */
#ifndef PESCOPE_PAINT_H
#define PESCOPE_PAINT_H

#include "canvas.h"
#include "palette.h"

/* Layers, painted in order: nothing in a layer overlaps anything else in
 * it, so a writer may group a layer's shapes by color. */
enum pe_paint_layer {
	PE_PAINT_BG,	/* cell backgrounds, blocks, half blocks, shades */
	PE_PAINT_LINES, /* box drawing */
	PE_PAINT_DOTS,	/* braille */
	PE_PAINT_TEXT,	/* glyphs in a font */
	PE_PAINT_LAYERS
};

/* Text attributes a painter is asked for. */
struct pe_paint_text {
	double x, y;	 /* top left of the run's first cell */
	const char *utf8;
	int cells;	 /* one glyph per cell */
	pe_color rgb;
	bool bold, underline;
	double opacity;	 /* 1, or 0.6 for dim text */
};

/* What a writer draws with; coordinates in its units (a cell is cw x ch,
 * the canvas' top left is 0, 0). Each layer ends with a call of end. */
struct pe_painter {
	double cw, ch;
	void *arg;
	void (*rect)(void *arg, enum pe_paint_layer layer, pe_color rgb,
	    double x, double y, double w, double h);
	void (*dot)(void *arg, pe_color rgb, double cx, double cy, double r);
	void (*text)(void *arg, const struct pe_paint_text *t);
	void (*end)(void *arg, enum pe_paint_layer layer);
	/* The canvas's pixel layer, drawn over the background layer (after
	 * its end, before the lines): a picture at pixels pm->pw x pm->ph over the cells
	 * pm->x, pm->y, pm->w, pm->h. NULL: the writer draws cells alone. */
	void (*image)(void *arg, const struct pe_pixmap *pm);
};

/* Paint cv at a depth in a theme, layer by layer. The page's own color
 * (the theme's background) is painted too, as the cells' backgrounds. */
void pe_paint_canvas(const struct pe_canvas *cv, enum pe_depth depth,
    enum pe_theme theme, const struct pe_painter *p);

/* The arms of a box-drawing glyph drawn as lines: bits 1 left, 2 right,
 * 4 up, 8 down, and 16 for heavy; 0 when it is not one (then it is text). */
unsigned pe_paint_box_arms(uint32_t cp);

#endif
