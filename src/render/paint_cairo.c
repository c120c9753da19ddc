/* paint.h's dots, text and pictures drawn with cairo (cairo 1.16,
 * Debian's libcairo2) for the PNG and PDF writers; see paint_cairo.h.
 * Text goes through cairo's font selection (fontconfig). */
#include <stdint.h>
#include <string.h>

#include "pescope/pescope.h"
#include "render/paint_cairo.h"

/* Set the source to an RGB color; see paint_cairo.h. */
void
pe_paint_cairo_rgb(cairo_t *cr, pe_color c)
{
	cairo_set_source_rgb(cr, ((c >> 16) & 0xff) / 255.0,
	    ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

/* A braille dot. */
static void
paint_cairo_dot(void *arg, pe_color rgb, double cx, double cy, double r)
{
	struct pe_paint_cairo *pc = arg;

	pe_paint_cairo_rgb(pc->cr, rgb);
	cairo_new_sub_path(pc->cr);
	cairo_arc(pc->cr, cx, cy, r, 0, 6.283185307179586);
	cairo_fill(pc->cr);
}

/* A run of text, one glyph on each cell (the font's advance need not be
 * the cell's), clipped to its cells. The font is nearly as tall as a cell
 * (its ascent and descent 0.97 of it) and the image surface draws a glyph
 * from a whole pixel, so a stroke at the descent would land on the first
 * pixel row of the cell below; an underscore's stroke is there, and 0.04
 * em thick: a faint grey under a pixel. So an underscore is a bar across
 * its cell where the underline goes (pc->underscore_*), its cell clipped
 * below the bar: the font's stroke is hidden but its glyph stays, for a
 * PDF's text. */
static void
paint_cairo_text(void *arg, const struct pe_paint_text *t)
{
	struct pe_paint_cairo *pc = arg;
	cairo_t *cr = pc->cr;
	cairo_glyph_t *g = NULL;
	int n = 0, i;
	double cw = pc->cw, y = t->y + pc->baseline;
	double bar = pc->baseline + pc->underscore_gap + pc->underscore_h;
	const char *s;
	uint32_t cp;

	cairo_save(cr);
	for (i = 0, s = t->utf8; *s != '\0'; i++) {
		s += pe_utf8_decode(s, &cp);
		cairo_rectangle(cr, t->x + cw * i, t->y, cw, cp == '_' ? bar
		                                                      : pc->ch);
	}
	cairo_clip(cr);
	cairo_select_font_face(cr, PE_PAINT_CAIRO_MONO, CAIRO_FONT_SLANT_NORMAL,
	    t->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, pc->font);
	pe_paint_cairo_rgb(cr, t->rgb);
	if (cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(cr), t->x, y,
	    t->utf8, -1, &g, &n, NULL, NULL, NULL) == CAIRO_STATUS_SUCCESS &&
	    n == t->cells) {
		for (i = 0; i < n; i++) {
			g[i].x = t->x + cw * i;
			g[i].y = y;
		}
		cairo_show_glyphs(cr, g, n);
	} else {
		/* a glyph of several code points (never from pescope's
		 * canvas): each code point on its own cell */
		for (i = 0, s = t->utf8; *s != '\0'; i++) {
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
	for (i = 0, s = t->utf8; *s != '\0'; i++) {
		s += pe_utf8_decode(s, &cp);
		if (cp == '_')
			cairo_rectangle(cr, t->x + cw * i,
			    y + pc->underscore_gap, cw, pc->underscore_h);
	}
	if (t->underline)
		cairo_rectangle(cr, t->x, y + pc->underline_gap, cw * t->cells,
		    pc->underline_h);
	cairo_fill(cr);
	cairo_restore(cr);
}

/* End of a layer: cairo draws as it goes. */
static void
paint_cairo_end(void *arg, enum pe_paint_layer layer)
{
	(void)arg;
	(void)layer;
}

/* A picture of the pixel layer over its cells, each of its pixels a
 * rectangle of the frame (no smoothing between them). */
static void
paint_cairo_image(void *arg, const struct pe_pixmap *pm)
{
	struct pe_paint_cairo *pc = arg;
	cairo_t *cr = pc->cr;
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, pm->pw);

	if (stride != pm->pw * 4) /* RGB24 is 4 bytes a pixel, unpadded */
		return;
	cairo_surface_t *img = cairo_image_surface_create_for_data(
	    (unsigned char *)pm->rgb, CAIRO_FORMAT_RGB24, pm->pw, pm->ph,
	    stride);
	cairo_save(cr);
	cairo_translate(cr, pc->cw * pm->x, pc->ch * pm->y);
	cairo_scale(cr, pc->cw * pm->w / pm->pw, pc->ch * pm->h / pm->ph);
	cairo_set_source_surface(cr, img, 0, 0);
	cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
	cairo_rectangle(cr, 0, 0, pm->pw, pm->ph);
	cairo_fill(cr);
	cairo_restore(cr);
	cairo_surface_destroy(img);
}

/* The painter drawing into pc; see paint_cairo.h. */
struct pe_painter
pe_paint_cairo_painter(struct pe_paint_cairo *pc,
    void (*rect)(void *arg, enum pe_paint_layer layer, pe_color rgb,
    double x, double y, double w, double h))
{
	struct pe_painter p = {pc->cw, pc->ch, pc, rect, paint_cairo_dot,
	    paint_cairo_text, paint_cairo_end, paint_cairo_image};

	return p;
}

/* cairo's write function: the caller's stream; see paint_cairo.h. */
cairo_status_t
pe_paint_cairo_write(void *closure, const unsigned char *data,
    unsigned int length)
{
	FILE *fp = closure;

	return fwrite(data, 1, length, fp) == length ? CAIRO_STATUS_SUCCESS
	                                             : CAIRO_STATUS_WRITE_ERROR;
}
