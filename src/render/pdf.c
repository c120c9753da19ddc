/* Frames as vector PDF pages through cairo's PDF surface (cairo 1.16,
 * Debian's libcairo2): paint.h's shapes as filled rectangles and circles,
 * text through cairo's font selection (fontconfig), each glyph placed on
 * its cell. */
#include <cairo-pdf.h>
#include <cairo.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/pescope.h"
#include "render/paint_cairo.h"
#include "render/pdf.h"

/* Points: a cell, the frame's font (DejaVu Sans Mono: ascent 0.928 em,
 * descent 0.236 em, centred in the cell), the margin, the notes' font,
 * line and the gap above them. */
#define PDF_CW 6.0
#define PDF_CH 12.0
#define PDF_FONT 10.0
#define PDF_BASELINE 9.5
#define PDF_UNDERLINE_GAP 1.2	/* below the baseline; an underscore's bar
				 * too (paint_cairo.c) */
#define PDF_UNDERLINE_H 0.6
#define PDF_MARGIN 24.0
#define PDF_NOTE_FONT 10.0
#define PDF_NOTE_LINE 14.0
#define PDF_GAP 14.0
/* Cell backgrounds reach this far into their right and lower neighbours,
 * which paint over it: no hairline seams between runs in a viewer that
 * anti-aliases each fill on its own. */
#define PDF_BLEED 0.15

#define PDF_SANS "DejaVu Sans"

struct pe_pdf {
	FILE *fp;
	char *title;
	cairo_surface_t *surface; /* NULL until the first page */
	cairo_t *cr;
	cairo_surface_t *measure_surface; /* 1 x 1 image, to wrap text */
	cairo_t *measure;
	int status;
	enum pe_paper paper;	  /* the pages' size */
};

/* A paper's size in points (0 x 0: fit) and its margin. */
static void
pdf_paper_size(enum pe_paper paper, double *w, double *h)
{
	switch (paper) {
	case PE_PAPER_A4: /* ISO 216: 210 x 297 mm */
		*w = 595.276, *h = 841.890;
		break;
	case PE_PAPER_LETTER: /* 8.5 x 11 in */
		*w = 612, *h = 792;
		break;
	case PE_PAPER_16_9: /* a widescreen slide, 13.333 x 7.5 in */
		*w = 960, *h = 540;
		break;
	default:
		*w = *h = 0;
	}
}
#define PDF_PAPER_MARGIN 36.0
#define PDF_MAX_SCALE 2.0

/* The page size from now on; see pdf.h. */
void
pe_pdf_paper(struct pe_pdf *pdf, enum pe_paper paper)
{
	if (pdf != NULL && (unsigned)paper < PE_PAPER_COUNT)
		pdf->paper = paper;
}

/* Start a document; see pdf.h. */
struct pe_pdf *
pe_pdf_open(FILE *fp, const char *title)
{
	struct pe_pdf *pdf = calloc(1, sizeof *pdf);

	if (pdf == NULL)
		return NULL;
	pdf->fp = fp;
	pdf->title = strdup(title != NULL && title[0] != '\0' ? title
	                                                      : "pescope");
	pdf->measure_surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
	    1, 1);
	pdf->measure = cairo_create(pdf->measure_surface);
	if (pdf->title == NULL || cairo_status(pdf->measure) !=
	    CAIRO_STATUS_SUCCESS) {
		cairo_destroy(pdf->measure);
		cairo_surface_destroy(pdf->measure_surface);
		free(pdf->title);
		free(pdf);
		return NULL;
	}
	cairo_select_font_face(pdf->measure, PDF_SANS, CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(pdf->measure, PDF_NOTE_FONT);
	return pdf;
}

/* A rectangle of paint.h. */
static void
pdf_rect(void *arg, enum pe_paint_layer layer, pe_color rgb, double x,
    double y, double w, double h)
{
	struct pe_paint_cairo *pc = arg;
	double b = layer == PE_PAINT_BG ? PDF_BLEED : 0;

	pe_paint_cairo_rgb(pc->cr, rgb);
	cairo_rectangle(pc->cr, x, y, w + b, h + b);
	cairo_fill(pc->cr);
}

/* Lines of wrapped text, growing. */
struct pdf_lines {
	char **v;
	int n, cap;
	bool oom;
};

/* Append a copy of the first len bytes of s. */
static void
pdf_lines_push(struct pdf_lines *l, const char *s, size_t len)
{
	char *c;

	if (l->oom)
		return;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		char **v = realloc(l->v, (size_t)cap * sizeof *v);
		if (v == NULL) {
			l->oom = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	if ((c = strndup(s, len)) == NULL) {
		l->oom = true;
		return;
	}
	l->v[l->n++] = c;
}

/* The notes' lines: `below` wrapped to width points at blanks (a word
 * wider than the line stands alone on it), "" for a blank line between
 * paragraphs. Returns the count (-1: out of memory); *out is a malloc'd
 * array of malloc'd lines. */
static int
pdf_wrap(cairo_t *m, const char *below, double width, char ***out)
{
	struct pdf_lines l = {0};

	*out = NULL;
	for (const char *s = below; s != NULL && *s != '\0';) {
		const char *e = strchr(s, '\n');
		size_t len = e != NULL ? (size_t)(e - s) : strlen(s);
		char *src = strndup(s, len), line[8192] = "", *save = NULL;

		if (src == NULL) {
			l.oom = true;
			break;
		}
		if (len == 0 && l.n > 0 && l.v[l.n - 1][0] != '\0')
			pdf_lines_push(&l, "", 0);
		for (char *w = strtok_r(src, " \t", &save); w != NULL;
		     w = strtok_r(NULL, " \t", &save)) {
			char cand[8192];
			cairo_text_extents_t ext;

			if (strlen(line) + strlen(w) + 2 > sizeof cand) {
				/* a line this long never fits: break it here */
				pdf_lines_push(&l, line, strlen(line));
				line[0] = '\0';
			}
			/* fits: the check above made room (gcc at -O0 cannot
			 * tell, hence the test of what snprintf wrote) */
			if (snprintf(cand, sizeof cand, "%s%s%.4000s", line,
			    line[0] != '\0' ? " " : "", w) >= (int)sizeof cand)
				continue;
			cairo_text_extents(m, cand, &ext);
			if (ext.x_advance <= width || line[0] == '\0') {
				snprintf(line, sizeof line, "%s", cand);
				continue;
			}
			pdf_lines_push(&l, line, strlen(line));
			snprintf(line, sizeof line, "%s", w);
		}
		if (line[0] != '\0')
			pdf_lines_push(&l, line, strlen(line));
		free(src);
		s = e != NULL ? e + 1 : s + len;
	}
	/* no blank line at the end */
	while (!l.oom && l.n > 0 && l.v[l.n - 1][0] == '\0')
		free(l.v[--l.n]);
	if (l.oom) {
		for (int i = 0; i < l.n; i++)
			free(l.v[i]);
		free(l.v);
		return -1;
	}
	*out = l.v;
	return l.n;
}

/* Map a cairo status to a pescope one. */
static int
pdf_status(cairo_status_t s)
{
	if (s == CAIRO_STATUS_SUCCESS)
		return PE_OK;
	return s == CAIRO_STATUS_NO_MEMORY ? PE_ENOMEM : PE_EIO;
}

/* Add a page; see pdf.h. */
int
pe_pdf_page(struct pe_pdf *pdf, const struct pe_canvas *cv,
            enum pe_depth depth, enum pe_theme theme, const char *below)
{
	struct pe_paint_cairo pc = {NULL, PDF_CW, PDF_CH, PDF_FONT,
	    PDF_BASELINE, PDF_UNDERLINE_GAP, PDF_UNDERLINE_H,
	    PDF_UNDERLINE_GAP, PDF_UNDERLINE_H};
	char **lines = NULL;
	int nl;
	double fw, fh, pw, ph;

	if (pdf == NULL || cv == NULL || cv->cells == NULL)
		return PE_EINVAL;
	if (pdf->status != PE_OK)
		return pdf->status;
	fw = PDF_CW * cv->w;
	fh = PDF_CH * cv->h;
	double margin = PDF_MARGIN, scale = 1, tw = fw;
	pdf_paper_size(pdf->paper, &pw, &ph);
	if (pw > 0)
		margin = PDF_PAPER_MARGIN, tw = pw - 2 * margin;
	nl = pdf_wrap(pdf->measure, below, tw, &lines);
	if (nl < 0)
		return pdf->status = PE_ENOMEM;
	int first = nl; /* the lines on the frame's page */
	if (pw > 0) {
		/* the frame as wide as the page allows, smaller when the text
		 * needs the room, at least half that; the rest of the text on
		 * pages of its own */
		double room = ph - 2 * margin, text = nl > 0 ? PDF_GAP +
		    PDF_NOTE_LINE * nl : 0;
		scale = tw / fw < PDF_MAX_SCALE ? tw / fw : PDF_MAX_SCALE;
		if (fh * scale > room)
			scale = room / fh;
		if (fh * scale + text > room) {
			double fit = (room - text) / fh;
			scale = fit > scale / 2 ? fit : scale / 2;
		}
		first = (int)((room - fh * scale - PDF_GAP) / PDF_NOTE_LINE);
		first = first < 0 ? 0 : first > nl ? nl : first;
	} else {
		pw = fw + 2 * margin;
		ph = fh + 2 * margin + (nl > 0 ? PDF_GAP + PDF_NOTE_LINE * nl : 0);
	}
	if (pdf->surface == NULL) {
		pdf->surface = cairo_pdf_surface_create_for_stream(
		    pe_paint_cairo_write, pdf->fp, pw, ph);
		cairo_pdf_surface_set_metadata(pdf->surface,
		    CAIRO_PDF_METADATA_TITLE, pdf->title);
		cairo_pdf_surface_set_metadata(pdf->surface,
		    CAIRO_PDF_METADATA_CREATOR, "pescope " PESCOPE_VERSION);
		pdf->cr = cairo_create(pdf->surface);
	} else {
		cairo_pdf_surface_set_size(pdf->surface, pw, ph);
	}
	cairo_t *cr = pdf->cr;
	pe_paint_cairo_rgb(cr, pe_look_rgb(-1, depth, theme, false));
	cairo_paint(cr);
	/* the frame, centred across the page at its scale */
	double fx = margin + (pw - 2 * margin - fw * scale) / 2;
	cairo_save(cr);
	cairo_translate(cr, fx, margin);
	cairo_scale(cr, scale, scale);
	pc.cr = cr;
	struct pe_painter p = pe_paint_cairo_painter(&pc, pdf_rect);
	pe_paint_canvas(cv, depth, theme, &p);
	cairo_restore(cr);
	double y0 = margin + fh * scale + PDF_GAP;
	for (int i = 0; i < nl; i++) {
		if (i == first && i > 0) { /* the rest on a page of its own */
			cairo_show_page(cr);
			pe_paint_cairo_rgb(cr, pe_look_rgb(-1, depth, theme,
			    false));
			cairo_paint(cr);
			y0 = margin - PDF_NOTE_LINE * i;
			first = i + (int)((ph - 2 * margin) / PDF_NOTE_LINE);
		}
		pe_paint_cairo_rgb(cr, pe_look_rgb(-1, depth, theme, true));
		cairo_select_font_face(cr, PDF_SANS, CAIRO_FONT_SLANT_NORMAL,
		    CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, PDF_NOTE_FONT);
		cairo_move_to(cr, margin, y0 + PDF_NOTE_LINE * i + PDF_NOTE_FONT);
		cairo_show_text(cr, lines[i]);
	}
	for (int i = 0; i < nl; i++)
		free(lines[i]);
	free(lines);
	cairo_show_page(cr);
	pdf->status = pdf_status(cairo_status(cr));
	if (pdf->status == PE_OK)
		pdf->status = pdf_status(cairo_surface_status(pdf->surface));
	return pdf->status;
}

/* Finish and free; see pdf.h. */
int
pe_pdf_close(struct pe_pdf *pdf)
{
	int st;

	if (pdf == NULL)
		return PE_EINVAL;
	st = pdf->status;
	if (pdf->surface != NULL) {
		cairo_destroy(pdf->cr);
		cairo_surface_finish(pdf->surface);
		if (st == PE_OK)
			st = pdf_status(cairo_surface_status(pdf->surface));
		cairo_surface_destroy(pdf->surface);
	}
	cairo_destroy(pdf->measure);
	cairo_surface_destroy(pdf->measure_surface);
	free(pdf->title);
	free(pdf);
	return st;
}
