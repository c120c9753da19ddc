/* A canvas as one standalone SVG document (SVG 1.1, W3C 2011): cells and
 * blocks as rectangles merged into runs and grouped by color into one
 * <path> per color (so a 120 x 40 frame stays small), box lines as
 * rectangles, braille as circles, text as <text> runs in a monospace font
 * stack, each stretched to its cells (textLength). A viewBox and
 * crispEdges let it scale without blur. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/pescope.h"
#include "render/paint.h"
#include "render/writer.h"

/* A cell in SVG units, the font size and the baseline below a cell's top:
 * DejaVu Sans Mono advances 0.602 em (9.03 at 15), its ascent is 0.928 em
 * and its descent 0.236 em, centred in the 18-unit line. */
#define SVG_CW 9.0
#define SVG_CH 18.0
#define SVG_MARGIN 18.0 /* around the cells, in the page's color */
#define SVG_FONT 15
#define SVG_BASELINE 14.2

/* The path data of one color in the layer being painted. */
struct svg_color {
	pe_color rgb;
	char *d;
	size_t len, cap;
};

/* The writer's state: the output, and the layer's paths by color. */
struct svg {
	FILE *fp;
	bool oom;
	struct svg_color *cols; /* in first-seen order */
	size_t ncols, capcols;
	int *slots;		/* open addressing: index + 1 into cols */
	size_t nslots;		/* a power of two */
};

/* Print v with at most three decimals and no trailing zeros. */
static int
svg_num(char *buf, size_t cap, double v)
{
	int n = snprintf(buf, cap, "%.3f", v);

	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (n == 2 && buf[0] == '-' && buf[1] == '0')
		n = snprintf(buf, cap, "0");
	return n;
}

/* The path buffer of a color (created on first use); NULL out of memory. */
static struct svg_color *
svg_color_of(struct svg *s, pe_color rgb)
{
	size_t mask, i;

	if (s->ncols * 2 >= s->nslots) {
		size_t n = s->nslots ? s->nslots * 2 : 256;
		int *sl = calloc(n, sizeof *sl);
		if (sl == NULL)
			return NULL;
		for (size_t k = 0; k < s->ncols; k++) {
			size_t j = ((uint32_t)s->cols[k].rgb * 2654435761u) &
			    (n - 1);
			while (sl[j] != 0)
				j = (j + 1) & (n - 1);
			sl[j] = (int)k + 1;
		}
		free(s->slots);
		s->slots = sl;
		s->nslots = n;
	}
	mask = s->nslots - 1;
	/* Knuth's multiplicative hash (TAOCP vol. 3, 6.4) */
	for (i = ((uint32_t)rgb * 2654435761u) & mask; s->slots[i] != 0;
	     i = (i + 1) & mask)
		if (s->cols[s->slots[i] - 1].rgb == rgb)
			return &s->cols[s->slots[i] - 1];
	if (s->ncols == s->capcols) {
		size_t n = s->capcols ? s->capcols * 2 : 64;
		struct svg_color *c = realloc(s->cols, n * sizeof *c);
		if (c == NULL)
			return NULL;
		s->cols = c;
		s->capcols = n;
	}
	s->cols[s->ncols] = (struct svg_color){rgb, NULL, 0, 0};
	s->slots[i] = (int)++s->ncols;
	return &s->cols[s->ncols - 1];
}

/* Append text to a color's path data. */
static void
svg_append(struct svg *s, pe_color rgb, const char *txt, size_t n)
{
	struct svg_color *c = svg_color_of(s, rgb);

	if (c == NULL) {
		s->oom = true;
		return;
	}
	if (c->len + n + 1 > c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256;
		while (cap < c->len + n + 1)
			cap *= 2;
		char *d = realloc(c->d, cap);
		if (d == NULL) {
			s->oom = true;
			return;
		}
		c->d = d;
		c->cap = cap;
	}
	memcpy(c->d + c->len, txt, n);
	c->len += n;
	c->d[c->len] = '\0';
}

/* A rectangle as a subpath: M x y h w v h h -w z. */
static void
svg_rect(void *arg, enum pe_paint_layer layer, pe_color rgb, double x,
    double y, double w, double h)
{
	char a[4][32], buf[160];
	int n;

	(void)layer;
	svg_num(a[0], sizeof a[0], x);
	svg_num(a[1], sizeof a[1], y);
	svg_num(a[2], sizeof a[2], w);
	svg_num(a[3], sizeof a[3], h);
	n = snprintf(buf, sizeof buf, "M%s %sh%sv%sh-%sz", a[0], a[1], a[2],
	    a[3], a[2]);
	svg_append(arg, rgb, buf, (size_t)n);
}

/* A circle as a subpath of two arcs. */
static void
svg_dot(void *arg, pe_color rgb, double cx, double cy, double r)
{
	char a[4][32], buf[200];
	int n;

	svg_num(a[0], sizeof a[0], cx - r);
	svg_num(a[1], sizeof a[1], cy);
	svg_num(a[2], sizeof a[2], r);
	svg_num(a[3], sizeof a[3], 2 * r);
	n = snprintf(buf, sizeof buf, "M%s %sa%s %s 0 1 0 %s 0a%s %s 0 1 0 -%s "
	    "0z", a[0], a[1], a[2], a[2], a[3], a[2], a[2], a[3]);
	svg_append(arg, rgb, buf, (size_t)n);
}

/* A run of text stretched over its cells. */
static void
svg_text(void *arg, const struct pe_paint_text *t)
{
	struct svg *s = arg;
	char x[32], y[32], w[32];

	svg_num(x, sizeof x, t->x);
	svg_num(y, sizeof y, t->y + SVG_BASELINE);
	svg_num(w, sizeof w, SVG_CW * t->cells);
	fprintf(s->fp, "<text x=\"%s\" y=\"%s\" textLength=\"%s\" "
	    "lengthAdjust=\"spacing\" fill=\"#%06x\"",
	    x, y, w, (unsigned)t->rgb);
	if (t->bold)
		fputs(" font-weight=\"bold\"", s->fp);
	if (t->underline)
		fputs(" text-decoration=\"underline\"", s->fp);
	fputc('>', s->fp);
	pe_writer_escape(s->fp, t->utf8);
	fputs("</text>\n", s->fp);
}

/* Bytes gathered for a data: URI. */
struct svg_bytes {
	unsigned char *b;
	size_t len, cap;
};

/* cairo's write function: append to the buffer. */
static cairo_status_t
svg_bytes_write(void *closure, const unsigned char *data, unsigned int length)
{
	struct svg_bytes *o = closure;

	if (o->len + length > o->cap) {
		size_t cap = o->cap ? o->cap : 65536;
		while (cap < o->len + length)
			cap *= 2;
		unsigned char *b = realloc(o->b, cap);
		if (b == NULL)
			return CAIRO_STATUS_NO_MEMORY;
		o->b = b;
		o->cap = cap;
	}
	memcpy(o->b + o->len, data, length);
	o->len += length;
	return CAIRO_STATUS_SUCCESS;
}

/* Base64 (RFC 4648 sec. 4) of b[n] onto fp. */
static void
svg_base64(FILE *fp, const unsigned char *b, size_t n)
{
	static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)b[i] << 16;
		if (i + 1 < n)
			v |= (unsigned)b[i + 1] << 8;
		if (i + 2 < n)
			v |= b[i + 2];
		char q[4] = {al[v >> 18 & 63], al[v >> 12 & 63],
		    i + 1 < n ? al[v >> 6 & 63] : '=', i + 2 < n ? al[v & 63] : '='};
		fwrite(q, 1, 4, fp);
	}
}

/* A picture of the pixel layer: an <image> of a PNG (cairo's) over its
 * cells, its pixels kept sharp (image-rendering). */
static void
svg_image(void *arg, const struct pe_pixmap *pm)
{
	struct svg *s = arg;
	struct svg_bytes o = {0};
	int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, pm->pw);

	if (stride != pm->pw * 4) /* RGB24 is 4 bytes a pixel, unpadded */
		return;
	cairo_surface_t *img = cairo_image_surface_create_for_data(
	    (unsigned char *)pm->rgb, CAIRO_FORMAT_RGB24, pm->pw, pm->ph, stride);
	if (cairo_surface_write_to_png_stream(img, svg_bytes_write, &o) !=
	    CAIRO_STATUS_SUCCESS) {
		s->oom = true;
	} else {
		fprintf(s->fp, "<image xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
		    "x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
		    "preserveAspectRatio=\"none\" image-rendering=\"optimizeSpeed\" "
		    "style=\"image-rendering:pixelated\" data-pixels=\"%dx%d\" "
		    "xlink:href=\"data:image/png;base64,", SVG_CW * pm->x,
		    SVG_CH * pm->y, SVG_CW * pm->w, SVG_CH * pm->h, pm->pw, pm->ph);
		svg_base64(s->fp, o.b, o.len);
		fputs("\"/>\n", s->fp);
	}
	free(o.b);
	cairo_surface_destroy(img);
}

/* End of a layer: one <path> per color, then the next layer's group. */
static void
svg_end(void *arg, enum pe_paint_layer layer)
{
	struct svg *s = arg;

	for (size_t i = 0; i < s->ncols; i++) {
		fprintf(s->fp, "<path fill=\"#%06x\" d=\"%s\"/>\n",
		    (unsigned)s->cols[i].rgb, s->cols[i].d ? s->cols[i].d : "");
		free(s->cols[i].d);
	}
	s->ncols = 0;
	if (s->slots != NULL)
		memset(s->slots, 0, s->nslots * sizeof *s->slots);
	fputs("</g>\n", s->fp);
	switch (layer) {
	case PE_PAINT_BG:
		fputs("<g class=\"lines\" shape-rendering=\"crispEdges\">\n",
		    s->fp);
		break;
	case PE_PAINT_LINES:
		fputs("<g class=\"dots\">\n", s->fp);
		break;
	case PE_PAINT_DOTS:
		fprintf(s->fp, "<g class=\"text\" xml:space=\"preserve\" "
		    "style=\"white-space:pre\" "
		    "font-size=\"%d\" font-family=\"'DejaVu Sans Mono', "
		    "'Cascadia Mono', Menlo, Consolas, 'Liberation Mono', "
		    "monospace\">\n", SVG_FONT);
		break;
	default:
		break;
	}
}

/* Write cv as an SVG document; see writer.h. */
int
pe_write_svg(FILE *fp, const struct pe_canvas *cv,
             const struct pe_write_opts *wo)
{
	struct svg s = {.fp = fp};
	struct pe_painter p = {SVG_CW, SVG_CH, &s, svg_rect, svg_dot, svg_text,
	    svg_end, svg_image};
	double w = SVG_CW * cv->w, h = SVG_CH * cv->h, m = SVG_MARGIN;
	const char *title = wo->title != NULL && wo->title[0] != '\0'
	    ? wo->title : "pescope";
	pe_color page = pe_look_rgb(-1, wo->depth, wo->theme, false);

	/* a margin of the page's color around the cells (a slide's frame
	 * does not touch its edge); the cells keep their coordinates */
	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%g\" height=\"%g\" viewBox=\"%g %g %g %g\" "
	    "data-cols=\"%d\" data-rows=\"%d\" data-margin=\"%g\" "
	    "data-theme=\"%s\" data-depth=\"%s\">\n<title>", w + 2 * m,
	    h + 2 * m, -m, -m, w + 2 * m, h + 2 * m, cv->w, cv->h, m,
	    pe_theme_name(wo->theme), pe_depth_name(wo->depth));
	pe_writer_escape(fp, title);
	fprintf(fp, "</title>\n<rect class=\"margin\" x=\"%g\" y=\"%g\" "
	    "width=\"%g\" height=\"%g\" fill=\"#%06x\"/>\n", -m, -m,
	    w + 2 * m, h + 2 * m, (unsigned)page);
	fputs("<g class=\"cells\" shape-rendering=\"crispEdges\">\n", fp);
	pe_paint_canvas(cv, wo->depth, wo->theme, &p);
	fputs("</svg>\n", fp);
	for (size_t i = 0; i < s.ncols; i++)
		free(s.cols[i].d);
	free(s.cols);
	free(s.slots);
	return s.oom ? PE_ENOMEM : PE_OK;
}
