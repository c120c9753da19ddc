/* Writing a canvas out as ANSI (UTF-8 + SGR), plain text or one HTML page.
 * Every format writes exactly h lines of w one-column glyphs. */
#include <stdio.h>
#include <string.h>

#include "pescope/pescope.h"
#include "render/writer.h"

/* Page colors of the HTML output (a dark terminal). */
#define HTML_FG PE_RGB(0xd0, 0xd0, 0xd0)
#define HTML_BG PE_RGB(0x1c, 0x1c, 0x1c)


/* Parse "ansi", "txt" ("text"), "html"; -1 when unknown. */
int
pe_format_parse(const char *s)
{
	if (s == NULL)
		return -1;
	if (strcmp(s, "ansi") == 0)
		return PE_FMT_ANSI;
	if (strcmp(s, "txt") == 0 || strcmp(s, "text") == 0)
		return PE_FMT_TXT;
	if (strcmp(s, "html") == 0)
		return PE_FMT_HTML;
	return -1;
}

/* The glyph a cell shows at a depth; control and invalid code points show
 * as a space so that every glyph is one column. */
uint32_t
pe_writer_glyph(const struct pe_cell *c, enum pe_depth depth)
{
	uint32_t cp = c->cp;

	if (depth == PE_DEPTH_MONO) {
		switch (c->kind) {
		case PE_CELL_SHADE:
			return pe_palette_ramp(c->shade);
		case PE_CELL_MASKED:
			return PE_GLYPH_MASKED;
		case PE_CELL_UNDEFINED:
			return PE_GLYPH_UNDEF;
		default:
			break;
		}
	}
	if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return ' ';
	return cp;
}

/* Whether two looks are the same. */
static bool
writer_same(const struct pe_look *a, const struct pe_look *b)
{
	return a->fg == b->fg && a->bg == b->bg && a->attr == b->attr;
}

/* Write one code point as UTF-8. */
static void
writer_putcp(FILE *fp, uint32_t cp)
{
	char buf[4];
	int n = pe_utf8_encode(cp, buf);

	fwrite(buf, 1, (size_t)n, fp);
}

/* SGR parameters of one color (ECMA-48 sec. 8.3.117; 38/48;2 and ;5 are
 * ITU T.416 / xterm's ctlseqs; 90-97 and 100-107 aixterm's bright set). */
static void
writer_sgr_color(FILE *fp, pe_color c, enum pe_depth depth, bool bg)
{
	if (c < 0)
		return;
	switch (depth) {
	case PE_DEPTH_TRUECOLOR:
		fprintf(fp, ";%d;2;%d;%d;%d", bg ? 48 : 38, (c >> 16) & 0xff,
		        (c >> 8) & 0xff, c & 0xff);
		break;
	case PE_DEPTH_256:
		fprintf(fp, ";%d;5;%d", bg ? 48 : 38, (int)c);
		break;
	case PE_DEPTH_8:
		fprintf(fp, ";%d", (bg ? 40 : 30) + (int)(c & 7));
		break;
	case PE_DEPTH_16:
		if (c < 8)
			fprintf(fp, ";%d", (bg ? 40 : 30) + (int)c);
		else
			fprintf(fp, ";%d", (bg ? 100 : 90) + (int)c - 8);
		break;
	case PE_DEPTH_MONO:
		break;
	}
}

/* Switch the terminal to a look: reset, then set what differs from the
 * default (so no state leaks from the previous look). */
static void
writer_sgr(FILE *fp, const struct pe_look *lk, enum pe_depth depth)
{
	fputs("\033[0", fp);
	if (lk->attr & PE_ATTR_BOLD)
		fputs(";1", fp);
	if (lk->attr & PE_ATTR_DIM)
		fputs(";2", fp);
	if (lk->attr & PE_ATTR_UNDERLINE)
		fputs(";4", fp);
	if (lk->attr & PE_ATTR_REVERSE)
		fputs(";7", fp);
	writer_sgr_color(fp, lk->fg, depth, false);
	writer_sgr_color(fp, lk->bg, depth, true);
	fputc('m', fp);
}

/* ANSI: SGR only where the look changes, a reset before every newline. */
static void
writer_ansi(FILE *fp, const struct pe_canvas *cv, enum pe_depth depth)
{
	for (int y = 0; y < cv->h; y++) {
		struct pe_look cur = {PE_COLOR_DEFAULT, PE_COLOR_DEFAULT, 0};

		for (int x = 0; x < cv->w; x++) {
			const struct pe_cell *c =
			    &cv->cells[(size_t)y * (size_t)cv->w + (size_t)x];
			struct pe_look lk = pe_palette_look(c, depth);

			if (!writer_same(&lk, &cur)) {
				writer_sgr(fp, &lk, depth);
				cur = lk;
			}
			writer_putcp(fp, pe_writer_glyph(c, depth));
		}
		fputs("\033[0m\n", fp);
	}
}

/* Plain text: mono glyphs, nothing else. */
static void
writer_txt(FILE *fp, const struct pe_canvas *cv)
{
	for (int y = 0; y < cv->h; y++) {
		for (int x = 0; x < cv->w; x++)
			writer_putcp(fp,
			             pe_writer_glyph(
			                 &cv->cells[(size_t)y * (size_t)cv->w +
			                            (size_t)x],
			                 PE_DEPTH_MONO));
		fputc('\n', fp);
	}
}

/* Write text with &, <, >, " and ' escaped (HTML 5, sec. 13.1.4). */
static void
writer_html_escape(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&#39;", fp);
			break;
		default:
			fputc(*s, fp);
		}
	}
}

/* Write one glyph, escaped. */
static void
writer_html_glyph(FILE *fp, uint32_t cp)
{
	char buf[5];

	buf[pe_utf8_encode(cp, buf)] = '\0';
	writer_html_escape(fp, buf);
}

/* RGB of a quantised color for CSS, def when default. */
static pe_color
writer_html_rgb(pe_color q, enum pe_depth depth, pe_color def)
{
	if (q < 0)
		return def;
	if (depth == PE_DEPTH_256 || depth == PE_DEPTH_16 || depth == PE_DEPTH_8)
		return pe_palette_rgb(q);
	return q;
}

/* One CSS declaration (fmt with at most one unsigned), ';' between
 * declarations; returns true (a separator is due next). */
static bool
writer_css(FILE *fp, bool sep, const char *fmt, unsigned v)
{
	if (sep)
		fputc(';', fp);
	fprintf(fp, fmt, v);
	return true;
}

/* Open a <span> for a look that is not the page's default; returns whether
 * it opened one. */
static bool
writer_html_span(FILE *fp, const struct pe_look *lk, enum pe_depth depth)
{
	pe_color fg = lk->fg, bg = lk->bg;
	bool rev = (lk->attr & PE_ATTR_REVERSE) != 0, sep = false;

	if (fg < 0 && bg < 0 && lk->attr == 0)
		return false;
	if (depth == PE_DEPTH_MONO) {
		/* No colors at all, so reverse video has nothing to swap. */
		fg = -1;
		bg = -1;
		if ((lk->attr & ~PE_ATTR_REVERSE) == 0)
			return false;
	} else if (rev) {
		fg = writer_html_rgb(lk->bg, depth, HTML_BG);
		bg = writer_html_rgb(lk->fg, depth, HTML_FG);
	} else {
		fg = lk->fg < 0 ? -1 : writer_html_rgb(lk->fg, depth, HTML_FG);
		bg = lk->bg < 0 ? -1 : writer_html_rgb(lk->bg, depth, HTML_BG);
	}
	fputs("<span style=\"", fp);
	if (fg >= 0)
		sep = writer_css(fp, sep, "color:#%06x", (unsigned)fg);
	if (bg >= 0)
		sep = writer_css(fp, sep, "background:#%06x", (unsigned)bg);
	if (lk->attr & PE_ATTR_BOLD)
		sep = writer_css(fp, sep, "font-weight:bold", 0);
	if (lk->attr & PE_ATTR_DIM)
		sep = writer_css(fp, sep, "opacity:0.6", 0);
	if (lk->attr & PE_ATTR_UNDERLINE)
		writer_css(fp, sep, "text-decoration:underline", 0);
	fputs("\">", fp);
	return true;
}

/* HTML: a whole page with one <pre>; runs of one look share a <span>, and
 * no span crosses a line end. Mono depth has no colors. */
static void
writer_html(FILE *fp, const struct pe_canvas *cv, enum pe_depth depth,
            const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>",
	      fp);
	writer_html_escape(fp, title != NULL && title[0] != '\0' ? title
	                                                         : "pescope");
	fprintf(fp,
	        "</title>\n<style>\n"
	        "body { margin: 0; background: #%06x; color: #%06x; }\n"
	        "pre { margin: 0; padding: 1em; line-height: 1; "
	        "font-family: \"DejaVu Sans Mono\", \"Cascadia Mono\", Menlo, "
	        "Consolas, monospace; background: #%06x; color: #%06x; }\n"
	        "</style>\n</head>\n<body>\n<pre>",
	        (unsigned)HTML_BG, (unsigned)HTML_FG, (unsigned)HTML_BG,
	        (unsigned)HTML_FG);
	for (int y = 0; y < cv->h; y++) {
		struct pe_look cur = {PE_COLOR_DEFAULT, PE_COLOR_DEFAULT, 0};
		bool open = false;

		for (int x = 0; x < cv->w; x++) {
			const struct pe_cell *c =
			    &cv->cells[(size_t)y * (size_t)cv->w + (size_t)x];
			struct pe_look lk = pe_palette_look(c, depth);

			if (x == 0 || !writer_same(&lk, &cur)) {
				if (open)
					fputs("</span>", fp);
				open = writer_html_span(fp, &lk, depth);
				cur = lk;
			}
			writer_html_glyph(fp, pe_writer_glyph(c, depth));
		}
		if (open)
			fputs("</span>", fp);
		fputc('\n', fp);
	}
	fputs("</pre>\n</body>\n</html>\n", fp);
}

/* Write cv in a format at a depth; PE_EIO when the stream failed. */
int
pe_write_canvas(FILE *fp, const struct pe_canvas *cv, enum pe_format fmt,
                enum pe_depth depth, const char *title)
{
	if (fp == NULL || cv == NULL || cv->cells == NULL)
		return PE_EINVAL;
	if ((unsigned)depth > PE_DEPTH_MONO)
		depth = PE_DEPTH_TRUECOLOR;
	switch (fmt) {
	case PE_FMT_ANSI:
		writer_ansi(fp, cv, depth);
		break;
	case PE_FMT_TXT:
		writer_txt(fp, cv);
		break;
	case PE_FMT_HTML:
		writer_html(fp, cv, depth, title);
		break;
	default:
		return PE_EINVAL;
	}
	if (fflush(fp) != 0 || ferror(fp))
		return PE_EIO;
	return PE_OK;
}
