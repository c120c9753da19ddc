/* Writing a canvas out: ANSI (UTF-8 + SGR), plain text (glyphs, mono ramp),
 * and HTML (one self-contained <pre>). */
#ifndef PESCOPE_WRITER_H
#define PESCOPE_WRITER_H

#include <stdio.h>

#include "canvas.h"
#include "palette.h"

enum pe_format { PE_FMT_ANSI, PE_FMT_TXT, PE_FMT_HTML };

int pe_format_parse(const char *s); /* -1 if unknown */

/* The glyph a cell shows at a depth: mono turns shade cells into the ramp
 * and masked/undefined cells into their mono glyphs. */
uint32_t pe_writer_glyph(const struct pe_cell *c, enum pe_depth depth);

/* Write cv: exactly h lines of w display columns each, newline-terminated.
 * ANSI resets attributes at the end of every line; TXT is always mono
 * glyphs; HTML is a whole document. Returns 0 or PE_EIO. */
int pe_write_canvas(FILE *fp, const struct pe_canvas *cv,
    enum pe_format fmt, enum pe_depth depth, const char *title);

#endif
