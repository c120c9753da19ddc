/* A canvas as one PNG image through cairo's image surface (cairo 1.16,
 * Debian's libcairo2): the shapes of paint.h as the SVG and PDF writers
 * draw them, at a cell of N x 2N pixels, and the pixel layer copied pixel
 * for pixel (its pictures are drawn at that size: each of their pixels is
 * one of the image's). Text goes through cairo's font selection
 * (fontconfig), each glyph placed on its cell. */
#include <cairo.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/pescope.h"
#include "render/paint.h"
#include "render/writer.h"

/* A cell's width when the canvas asked for no pixel layer; the height is
 * twice it. The font is DejaVu Sans Mono at 15/18 of the cell's height,
 * its baseline 14.2/18 of it below the cell's top (svg.c's proportions:
 * ascent 0.928 em, descent 0.236 em, centred). */
#define PNG_CELL_DEFAULT 8
#define PNG_MONO "DejaVu Sans Mono"

struct png {
	cairo_t *cr;
	double cw, ch;		/* a cell, pixels */
	double font, baseline;
};

/* Set the source to an RGB color. */
static void
png_rgb(cairo_t *cr, pe_color c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0,
	    ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

/* A rectangle of paint.h (whole pixels: a cell is whole pixels). */
static void
png_rect(void *arg, enum pe_paint_layer layer, pe_color rgb, double x,
    double y, double w, double h)
{
	struct png *p = arg;

	(void)layer;
	png_rgb(p->cr, rgb);
	/* shapes meet on whole pixels: no seams to smooth */
	cairo_set_antialias(p->cr, CAIRO_ANTIALIAS_NONE);
	cairo_rectangle(p->cr, x, y, w, h);
	cairo_fill(p->cr);
	cairo_set_antialias(p->cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* A braille dot. */
static void
png_dot(void *arg, pe_color rgb, double cx, double cy, double r)
{
	struct png *p = arg;

	png_rgb(p->cr, rgb);
	cairo_new_sub_path(p->cr);
	cairo_arc(p->cr, cx, cy, r, 0, 6.283185307179586);
	cairo_fill(p->cr);
}

/* A run of text, one glyph on each cell. */
static void
png_text(void *arg, const struct pe_paint_text *t)
{
	struct png *p = arg;
	cairo_t *cr = p->cr;
	cairo_glyph_t *g = NULL;
	int n = 0;
	double cw = p->cw, y = t->y + p->baseline;

	cairo_select_font_face(cr, PNG_MONO, CAIRO_FONT_SLANT_NORMAL,
	    t->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, p->font);
	png_rgb(cr, t->rgb);
	if (cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(cr), t->x, y,
	    t->utf8, -1, &g, &n, NULL, NULL, NULL) == CAIRO_STATUS_SUCCESS &&
	    n == t->cells) {
		for (int i = 0; i < n; i++) {
			g[i].x = t->x + cw * i;
			g[i].y = y;
		}
		cairo_show_glyphs(cr, g, n);
	} else {
		/* a glyph of several code points: each on its own cell */
		const char *s = t->utf8;
		for (int i = 0; *s != '\0'; i++) {
			uint32_t cp;
			int k = pe_utf8_decode(s, &cp);
			char one[8];
			memcpy(one, s, (size_t)k);
			one[k] = '\0';
			cairo_move_to(cr, t->x + cw * i, y);
			cairo_show_text(cr, one);
			s += k;
		}
	}
	cairo_glyph_free(g);
	if (t->underline) {
		cairo_rectangle(cr, t->x, y + p->font / 10, cw * t->cells,
		    p->font / 18 > 1 ? p->font / 18 : 1);
		cairo_fill(cr);
	}
}

/* End of a layer: cairo draws as it goes. */
static void
png_end(void *arg, enum pe_paint_layer layer)
{
	(void)arg;
	(void)layer;
}

/* A picture of the pixel layer, pixel for pixel at its cells' place. */
static void
png_image(void *arg, const struct pe_pixmap *pm)
{
	struct png *p = arg;
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, pm->pw);
	double cw = p->cw, ch = p->ch;

	if (stride != pm->pw * 4) /* RGB24 is 4 bytes a pixel, unpadded */
		return;
	cairo_surface_t *img = cairo_image_surface_create_for_data(
	    (unsigned char *)pm->rgb, CAIRO_FORMAT_RGB24, pm->pw, pm->ph, stride);
	cairo_save(p->cr);
	cairo_translate(p->cr, cw * pm->x, ch * pm->y);
	cairo_scale(p->cr, cw * pm->w / pm->pw, ch * pm->h / pm->ph);
	cairo_set_source_surface(p->cr, img, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(p->cr), CAIRO_FILTER_NEAREST);
	cairo_rectangle(p->cr, 0, 0, pm->pw, pm->ph);
	cairo_fill(p->cr);
	cairo_restore(p->cr);
	cairo_surface_destroy(img);
}

/* cairo's write function: the caller's stream. */
static cairo_status_t
png_write(void *closure, const unsigned char *data, unsigned int length)
{
	FILE *fp = closure;

	return fwrite(data, 1, length, fp) == length ? CAIRO_STATUS_SUCCESS
	                                             : CAIRO_STATUS_WRITE_ERROR;
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
	struct png p = {cr, cw, ch, ch * 15.0 / 18.0, ch * 14.2 / 18.0};
	struct pe_painter pt = {cw, ch, &p, png_rect, png_dot, png_text,
	    png_end, png_image};
	int rc = PE_OK;

	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		rc = PE_ENOMEM;
	} else {
		png_rgb(cr, pe_look_rgb(-1, wo->depth, wo->theme, false));
		cairo_paint(cr);
		pe_paint_canvas(cv, wo->depth, wo->theme, &pt);
		cairo_surface_flush(sf);
		if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
			rc = PE_ENOMEM;
		else if (cairo_surface_write_to_png_stream(sf, png_write, fp) !=
		    CAIRO_STATUS_SUCCESS)
			rc = PE_EIO;
	}
	cairo_destroy(cr);
	cairo_surface_destroy(sf);
	return rc;
}
