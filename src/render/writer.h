/* Writing a canvas out: ANSI (UTF-8 + SGR), plain text (glyphs, mono ramp),
 * HTML (one self-contained <pre>), SVG (svg.c) and PDF (pdf.h). */
#ifndef PESCOPE_WRITER_H
#define PESCOPE_WRITER_H

#include <stdio.h>

#include "canvas.h"
#include "palette.h"

#include <stdbool.h>

enum pe_format { PE_FMT_ANSI, PE_FMT_TXT, PE_FMT_HTML, PE_FMT_SVG,
    PE_FMT_PDF, PE_FMT_PNG, PE_FMT_COUNT };

/* The glyph a cell shows at a depth: mono turns shade cells into the ramp
 * and masked/undefined cells into their mono glyphs. */
uint32_t pe_writer_glyph(const struct pe_cell *c, enum pe_depth depth);

/* How a canvas is written: its color depth and theme (palette.h), and the
 * document's title (HTML, SVG, PDF; NULL: "pescope"). */
struct pe_write_opts {
	enum pe_depth depth;
	enum pe_theme theme;
	const char *title;
	int paper;	/* pdf: enum pe_paper (pdf.h); 0 fits the frame */
};

/* A format: one row of pe_formats, which the command line's -f, the
 * snapshot command and the lessons' exports read. */
struct pe_format_row {
	const char *name;    /* as -f spells it */
	const char *aliases; /* other spellings, space-separated, or NULL */
	const char *ext;     /* a file's extension, without the dot */
	bool binary;	     /* never written onto a terminal */
	bool paged;	     /* a document of pages (pdf.h): a handout of many
				frames is one file, a page per frame */
	int pixels;	     /* draws the canvas's pixel layer: 0 never (the
				cell writers), 1 when asked (--scale: SVG,
				PDF), 2 always (PNG: an image) */
	/* cv as one document (wo normalised by pe_write) */
	int (*write)(FILE *fp, const struct pe_canvas *cv,
	    const struct pe_write_opts *wo);
};
extern const struct pe_format_row pe_formats[PE_FMT_COUNT];
/* The format called s (a name or an alias), or -1; a format's name. */
int pe_format_parse(const char *s);
const char *pe_format_name(enum pe_format f);

/* Write cv. ANSI, TXT and HTML: exactly h lines of w display columns
 * each, newline-terminated; ANSI resets attributes at the end of every
 * line; TXT is always mono glyphs (no colors, so no theme); HTML is a
 * whole document. SVG: one standalone document (svg.c). PDF: one page
 * (pdf.h). Returns 0, PE_EIO when the stream failed, PE_EINVAL for a bad
 * argument, PE_ENOMEM. */
int pe_write(FILE *fp, const struct pe_canvas *cv, enum pe_format fmt,
    const struct pe_write_opts *wo);
/* pe_write in the dark theme. */
int pe_write_canvas(FILE *fp, const struct pe_canvas *cv,
    enum pe_format fmt, enum pe_depth depth, const char *title);

/* Write text with &, <, >, " and ' escaped (HTML and XML). */
void pe_writer_escape(FILE *fp, const char *s);

/* png.c: cv as one PNG image, a cell pe_png_cell(cv) x twice as many
 * pixels (the pixel layer's cell, else 8 x 16); PE_EINVAL past cairo's
 * 32767 pixels a side. */
int pe_write_png(FILE *fp, const struct pe_canvas *cv,
    const struct pe_write_opts *wo);
int pe_png_cell(const struct pe_canvas *cv);
/* The pixels a cell is for the writers that draw, at --scale N: N x 2N,
 * N in PE_SCALE_MIN..PE_SCALE_MAX (PNG's default 8). */
#define PE_SCALE_MIN 2
#define PE_SCALE_MAX 32
#define PE_SCALE_DEFAULT 8

/* svg.c: cv as one standalone SVG document (see writer.c's pe_write). */
int pe_write_svg(FILE *fp, const struct pe_canvas *cv,
    const struct pe_write_opts *wo);

#endif
