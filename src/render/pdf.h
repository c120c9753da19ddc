/* Frames as vector PDF pages (cairo's PDF surface): one page per call,
 * each a canvas drawn as in SVG (paint.h: rectangles merged into runs,
 * exact blocks and braille, text in a monospace font found through
 * fontconfig) with a few paragraphs of text below it (a caption, notes).
 *
 *   struct pe_pdf *pdf = pe_pdf_open(fp, "pescope lesson");
 *   for (each scene)
 *           pe_pdf_page(pdf, &cv, PE_DEPTH_TRUECOLOR, PE_THEME_LIGHT,
 *               "Caption.\n\nNotes for the reader.");
 *   if (pe_pdf_close(pdf) != PE_OK) ... nothing usable was written
 */
#ifndef PESCOPE_PDF_H
#define PESCOPE_PDF_H

#include <stdio.h>

#include "canvas.h"
#include "palette.h"

struct pe_pdf;

/* A page size: fit (each page as large as its frame and text), ISO A4
 * and US letter portrait (595 x 842 pt, 612 x 792 pt: the frame over
 * its text), a 16:9 slide (960 x 540 pt, 13.33 x 7.5 in). */
enum pe_paper { PE_PAPER_FIT, PE_PAPER_A4, PE_PAPER_LETTER, PE_PAPER_16_9,
    PE_PAPER_COUNT };

/* Start a PDF document written to fp (which stays the caller's), titled
 * title (NULL: "pescope"); NULL when out of memory. Nothing is written
 * before the first page. */
struct pe_pdf *pe_pdf_open(FILE *fp, const char *title);

/* Add a page: cv at a depth in a theme, the whole page in the theme's
 * colors, and below the frame the text `below` (UTF-8, may be NULL):
 * paragraphs separated by a blank line, wrapped to the frame's width; a
 * single newline breaks a line. The page is as wide as the frame plus
 * margins and as tall as the frame and the text need (points: a cell is
 * 6 x 12, the frame's font 10 pt). Returns PE_OK, or the first error
 * (PE_EIO, PE_ENOMEM), which every later call and pe_pdf_close return. */
int pe_pdf_page(struct pe_pdf *pdf, const struct pe_canvas *cv,
    enum pe_depth depth, enum pe_theme theme, const char *below);

/* The size of the pages from now on (PE_PAPER_FIT: as before). On a
 * paper size the frame is scaled to the page's width within its margins
 * (no larger than twice its size), smaller when the text below needs the
 * room, and text that still does not fit goes on to a page of its own. */
void pe_pdf_paper(struct pe_pdf *pdf, enum pe_paper paper);

/* Finish the document and free pdf; PE_OK, or the first error (then the
 * output is not a whole PDF). A document with no page writes nothing. */
int pe_pdf_close(struct pe_pdf *pdf);

#endif
