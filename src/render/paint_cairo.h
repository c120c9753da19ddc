/* paint.h's shapes drawn with cairo, as the PNG (png.c) and PDF (pdf.c)
 * writers both draw them: a painter over a cairo context whose user space
 * is the frame's (a cell is cw x ch, the canvas' top left is 0, 0); each
 * writer brings its own rectangles (PNG's meet on whole pixels, PDF's
 * backgrounds bleed into their neighbours). */
#ifndef PESCOPE_PAINT_CAIRO_H
#define PESCOPE_PAINT_CAIRO_H

#include <cairo.h>
#include <stdio.h>

#include "paint.h"

/* The frame's font: DejaVu Sans Mono (ascent 0.928 em, descent 0.236 em,
 * centred in the cell). */
#define PE_PAINT_CAIRO_MONO "DejaVu Sans Mono"

/* What the shared shapes are drawn with; a painter's arg. */
struct pe_paint_cairo {
	cairo_t *cr;
	double cw, ch;		/* a cell */
	double font, baseline;	/* the font's size, the baseline below the
				 * cell's top */
	double underline_gap;	/* an underline's top below the baseline */
	double underline_h;	/* its thickness */
	double underscore_gap;	/* an underscore's bar: its top below the
				 * baseline */
	double underscore_h;	/* its thickness */
};

/* Set cr's source to an RGB color. */
void pe_paint_cairo_rgb(cairo_t *cr, pe_color c);

/* The painter drawing into pc: its dots, text (one glyph on each cell),
 * the pixel layer's pictures (each picture pixel a rectangle, never
 * smoothed) and a writer's own rect. */
struct pe_painter pe_paint_cairo_painter(struct pe_paint_cairo *pc,
    void (*rect)(void *arg, enum pe_paint_layer layer, pe_color rgb,
    double x, double y, double w, double h));

/* cairo's write function for a stream: closure is the FILE. */
cairo_status_t pe_paint_cairo_write(void *closure, const unsigned char *data,
    unsigned int length);

#endif
