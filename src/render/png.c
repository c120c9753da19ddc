/* A canvas as one PNG image through cairo's image surface (cairo 1.16,
 * Debian's libcairo2): the shapes of paint.h as the SVG and PDF writers
 * draw them, at a cell of N x 2N pixels, and the pixel layer copied pixel
 * for pixel (its pictures are drawn at that size: each of their pixels is
 * one of the image's). Text goes through cairo's font selection
 * (fontconfig), each glyph placed on its cell. */
#include <cairo.h>

#include "pescope/pescope.h"
#include "render/paint_cairo.h"
#include "render/writer.h"

/* A cell's width when the canvas asked for no pixel layer; the height is
 * twice it. The font is DejaVu Sans Mono at 15/18 of the cell's height,
 * its baseline 14.2/18 of it below the cell's top (svg.c's proportions:
 * ascent 0.928 em, descent 0.236 em, centred). */
#define PNG_CELL_DEFAULT 8

/* A rectangle of paint.h (whole pixels: a cell is whole pixels). */
static void
png_rect(void *arg, enum pe_paint_layer layer, pe_color rgb, double x,
    double y, double w, double h)
{
	struct pe_paint_cairo *pc = arg;

	(void)layer;
	pe_paint_cairo_rgb(pc->cr, rgb);
	/* shapes meet on whole pixels: no seams to smooth */
	cairo_set_antialias(pc->cr, CAIRO_ANTIALIAS_NONE);
	cairo_rectangle(pc->cr, x, y, w, h);
	cairo_fill(pc->cr);
	cairo_set_antialias(pc->cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* The text's place in a cell of cw x ch pixels, in whole pixels: cairo's
 * image surface draws a glyph from a whole pixel, so the baseline is
 * rounded here as it would be there, and the underline (and the
 * underscore, drawn as it: the font's stroke is 0.04 em, under a pixel
 * thick at 8 x 16) is at least a pixel, below the baseline and inside the
 * cell, never on the next row's first pixels. */
static struct pe_paint_cairo
png_metrics(cairo_t *cr, int cw, int ch)
{
	double font = ch * 15.0 / 18.0;
	int baseline = (int)(ch * 14.2 / 18.0 + 0.5);
	int h = (int)(font / 18 + 0.5), gap = (int)(font / 10 + 0.5);

	if (h < 1)
		h = 1;
	if (gap < 1)
		gap = 1;
	if (baseline + gap + h > ch)
		gap = ch - h - baseline;
	return (struct pe_paint_cairo){cr, cw, ch, font, baseline, gap, h, gap,
	    h};
}

/* The cell's width in pixels a canvas is written at: its pixel layer's,
 * else the default. */
int
pe_png_cell(const struct pe_canvas *cv)
{
	return cv->px_w > 0 ? cv->px_w : PNG_CELL_DEFAULT;
}

/* Write cv as a PNG image; see writer.h. */
int
pe_write_png(FILE *fp, const struct pe_canvas *cv,
    const struct pe_write_opts *wo)
{
	int cw = pe_png_cell(cv), ch = 2 * cw;
	if ((cv->px_w > 0 && cv->px_h != ch) || cw > PE_PX_CELL_MAX ||
	    (size_t)cv->w * (size_t)cw > 32767 ||
	    (size_t)cv->h * (size_t)ch > 32767)
		return PE_EINVAL; /* cairo's largest image is 32767 a side */
	cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
	    cv->w * cw, cv->h * ch);
	cairo_t *cr = cairo_create(sf);
	struct pe_paint_cairo pc = png_metrics(cr, cw, ch);
	struct pe_painter pt = pe_paint_cairo_painter(&pc, png_rect);
	int rc = PE_OK;

	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		rc = PE_ENOMEM;
	} else {
		pe_paint_cairo_rgb(cr, pe_look_rgb(-1, wo->depth, wo->theme,
		    false));
		cairo_paint(cr);
		pe_paint_canvas(cv, wo->depth, wo->theme, &pt);
		cairo_surface_flush(sf);
		if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
			rc = PE_ENOMEM;
		else if (cairo_surface_write_to_png_stream(sf,
		    pe_paint_cairo_write, fp) != CAIRO_STATUS_SUCCESS)
			rc = PE_EIO;
	}
	cairo_destroy(cr);
	cairo_surface_destroy(sf);
	return rc;
}
