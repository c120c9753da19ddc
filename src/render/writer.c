/* Writing a canvas out as ANSI (UTF-8 + SGR), plain text or one HTML page
 * (each exactly h lines of w one-column glyphs), and the entry to the SVG
 * and PDF writers. */
#include <stdio.h>
#include <string.h>

#include "pescope/pescope.h"
#include "render/pdf.h"
#include "render/writer.h"

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
writer_ansi(FILE *fp, const struct pe_canvas *cv, enum pe_depth depth,
    enum pe_theme theme)
{
	for (int y = 0; y < cv->h; y++) {
		struct pe_look cur = {PE_COLOR_DEFAULT, PE_COLOR_DEFAULT, 0};

		for (int x = 0; x < cv->w; x++) {
			const struct pe_cell *c =
			    &cv->cells[(size_t)y * (size_t)cv->w + (size_t)x];
			struct pe_look lk = pe_palette_look(c, depth, theme);

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

/* Write text with &, <, >, " and ' escaped (HTML 5, sec. 13.1.4; the
 * same five are XML 1.0's predefined entities, sec. 4.6: SVG too). */
void
pe_writer_escape(FILE *fp, const char *s)
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
	pe_writer_escape(fp, buf);
}

/* What an HTML cell paints: text color, a background that may be two
 * colors (a half block: top and bottom), attributes; runs of equal paint
 * share a <span>. */
struct html_paint {
	pe_color fg, top, bottom; /* RGB; -1: the page's */
	uint8_t attr;
};

/* Whether two paints are the same. */
static bool
writer_html_same(const struct html_paint *a, const struct html_paint *b)
{
	return a->fg == b->fg && a->top == b->top && a->bottom == b->bottom &&
	    a->attr == b->attr;
}

/* The paint of a cell's look and its glyph *cp, which a half or full
 * block becomes a blank over (the blocks are backgrounds: they tile
 * exactly whatever the font). Mono has no colors. */
static struct html_paint
writer_html_paint(const struct pe_look *lk, enum pe_depth depth,
    enum pe_theme theme, uint32_t *cp)
{
	struct html_paint p = {-1, -1, -1, lk->attr};
	pe_color fg, bg;

	if (depth == PE_DEPTH_MONO) {
		/* no colors at all, so reverse video has nothing to swap */
		p.attr &= (uint8_t)~PE_ATTR_REVERSE;
		return p;
	}
	fg = lk->fg < 0 ? -1 : pe_look_rgb(lk->fg, depth, theme, true);
	bg = lk->bg < 0 ? -1 : pe_look_rgb(lk->bg, depth, theme, false);
	if (lk->attr & PE_ATTR_REVERSE) {
		pe_color t = pe_look_rgb(lk->fg, depth, theme, true);
		fg = pe_look_rgb(lk->bg, depth, theme, false);
		bg = t;
		p.attr &= (uint8_t)~PE_ATTR_REVERSE;
	}
	p.fg = fg;
	p.top = p.bottom = bg;
	switch (*cp) {
	case 0x2580: /* upper half */
		p.top = fg < 0 ? pe_look_rgb(-1, depth, theme, true) : fg;
		break;
	case 0x2584: /* lower half */
		p.bottom = fg < 0 ? pe_look_rgb(-1, depth, theme, true) : fg;
		break;
	case 0x2588: /* full block */
		p.top = p.bottom = fg < 0 ? pe_look_rgb(-1, depth, theme, true)
		                          : fg;
		break;
	default:
		return p;
	}
	*cp = ' ';
	if (p.top >= 0 && p.bottom < 0)
		p.bottom = pe_look_rgb(-1, depth, theme, false);
	if (p.bottom >= 0 && p.top < 0)
		p.top = pe_look_rgb(-1, depth, theme, false);
	p.attr &= (uint8_t)~(PE_ATTR_UNDERLINE | PE_ATTR_DIM);
	return p;
}

/* One CSS declaration (fmt with at most two unsigned), ';' between
 * declarations; returns true (a separator is due next). */
static bool
writer_css(FILE *fp, bool sep, const char *fmt, unsigned v, unsigned w)
{
	if (sep)
		fputc(';', fp);
	fprintf(fp, fmt, v, w);
	return true;
}

/* Open a <span> for a run of `cells` cells of one paint: an inline block
 * exactly that many cells wide (1ch each, the monospace font's advance),
 * so a glyph from a fallback font (braille, arrows) never moves the rest
 * of the line off the grid. */
static void
writer_html_span(FILE *fp, const struct html_paint *p, int cells)
{
	fprintf(fp, "<span style=\"width:%dch", cells);
	if (p->fg >= 0)
		writer_css(fp, true, "color:#%06x", (unsigned)p->fg, 0);
	if (p->top >= 0 && p->top == p->bottom)
		writer_css(fp, true, "background:#%06x", (unsigned)p->top, 0);
	else if (p->top >= 0)
		writer_css(fp, true, "background:linear-gradient(#%06x 50%%,"
		    "#%06x 50%%)", (unsigned)p->top, (unsigned)p->bottom);
	if (p->attr & PE_ATTR_BOLD)
		writer_css(fp, true, "font-weight:bold", 0, 0);
	if (p->attr & PE_ATTR_DIM)
		writer_css(fp, true, "opacity:0.6", 0, 0);
	if (p->attr & PE_ATTR_UNDERLINE)
		writer_css(fp, true, "text-decoration:underline", 0, 0);
	fputs("\">", fp);
}

/* HTML: a whole page with one <pre>; runs of one paint share a <span>,
 * and no span crosses a line end. Every span is an inline block as tall
 * as a line and as wide as its cells, so backgrounds tile without gaps
 * and no line's background covers the glyphs of the line above (a line
 * is 1.25 em: DejaVu Sans Mono's ascent and descent, 1.164 em, fit in it,
 * the underscore too); half and full blocks are backgrounds, exact
 * whatever the font. */
static void
writer_html(FILE *fp, const struct pe_canvas *cv, enum pe_depth depth,
            enum pe_theme theme, const char *title)
{
	pe_color page_bg = pe_look_rgb(-1, depth, theme, false);
	pe_color page_fg = pe_look_rgb(-1, depth, theme, true);

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>",
	      fp);
	pe_writer_escape(fp, title != NULL && title[0] != '\0' ? title
	                                                         : "pescope");
	fprintf(fp,
	        "</title>\n<style>\n"
	        "body { margin: 0; background: #%06x; color: #%06x; }\n"
	        "pre { margin: 0; padding: 1em; font-size: 16px; "
	        "line-height: 1.25; "
	        "font-family: \"DejaVu Sans Mono\", \"Cascadia Mono\", Menlo, "
	        "Consolas, monospace; background: #%06x; color: #%06x; }\n"
	        "pre span { display: inline-block; height: 1.25em; "
	        "vertical-align: top; }\n"
	        "</style>\n</head>\n<body>\n<pre>",
	        (unsigned)page_bg, (unsigned)page_fg, (unsigned)page_bg,
	        (unsigned)page_fg);
	for (int y = 0; y < cv->h; y++) {
		const struct pe_cell *row =
		    &cv->cells[(size_t)y * (size_t)cv->w];

		for (int x = 0; x < cv->w;) {
			struct pe_look lk =
			    pe_palette_look(&row[x], depth, theme);
			uint32_t cp = pe_writer_glyph(&row[x], depth);
			struct html_paint p =
			    writer_html_paint(&lk, depth, theme, &cp);
			int end = x + 1;

			/* the run: the cells after x of the same paint */
			for (; end < cv->w; end++) {
				struct pe_look l2 =
				    pe_palette_look(&row[end], depth, theme);
				uint32_t c2 = pe_writer_glyph(&row[end], depth);
				struct html_paint p2 =
				    writer_html_paint(&l2, depth, theme, &c2);
				if (!writer_html_same(&p, &p2))
					break;
			}
			writer_html_span(fp, &p, end - x);
			for (; x < end; x++) {
				lk = pe_palette_look(&row[x], depth, theme);
				cp = pe_writer_glyph(&row[x], depth);
				writer_html_paint(&lk, depth, theme, &cp);
				writer_html_glyph(fp, cp);
			}
			fputs("</span>", fp);
		}
		fputc('\n', fp);
	}
	fputs("</pre>\n</body>\n</html>\n", fp);
}

/* ANSI: see writer.h. */
static int
writer_ansi_doc(FILE *fp, const struct pe_canvas *cv,
    const struct pe_write_opts *wo)
{
	writer_ansi(fp, cv, wo->depth, wo->theme);
	return PE_OK;
}

/* Plain text: see writer.h. */
static int
writer_txt_doc(FILE *fp, const struct pe_canvas *cv,
    const struct pe_write_opts *wo)
{
	(void)wo;
	writer_txt(fp, cv);
	return PE_OK;
}

/* HTML: see writer.h. */
static int
writer_html_doc(FILE *fp, const struct pe_canvas *cv,
    const struct pe_write_opts *wo)
{
	writer_html(fp, cv, wo->depth, wo->theme, wo->title);
	return PE_OK;
}

/* PDF: a document of one page (pdf.h writes more). */
static int
writer_pdf_doc(FILE *fp, const struct pe_canvas *cv,
    const struct pe_write_opts *wo)
{
	struct pe_pdf *pdf = pe_pdf_open(fp, wo->title);
	if (pdf == NULL)
		return PE_ENOMEM;
	pe_pdf_paper(pdf, (enum pe_paper)wo->paper);
	int st = pe_pdf_page(pdf, cv, wo->depth, wo->theme, NULL);
	int cs = pe_pdf_close(pdf);
	return st != PE_OK ? st : cs;
}

/* The formats, one row each (writer.h). */
const struct pe_format_row pe_formats[PE_FMT_COUNT] = {
	[PE_FMT_ANSI] = {"ansi", NULL, "ansi", false, false, 0,
	    writer_ansi_doc},
	[PE_FMT_TXT] = {"txt", "text", "txt", false, false, 0, writer_txt_doc},
	[PE_FMT_HTML] = {"html", NULL, "html", false, false, 0,
	    writer_html_doc},
	[PE_FMT_SVG] = {"svg", NULL, "svg", false, false, 1, pe_write_svg},
	[PE_FMT_PDF] = {"pdf", NULL, "pdf", true, true, 1, writer_pdf_doc},
	[PE_FMT_PNG] = {"png", NULL, "png", true, false, 2, pe_write_png},
};

/* Whether s is one of the space-separated words of list. */
static bool
writer_word_in(const char *s, const char *list)
{
	size_t n = strlen(s);
	for (const char *p = list; p != NULL && *p != '\0';) {
		size_t l = strcspn(p, " ");
		if (l == n && n > 0 && strncmp(p, s, n) == 0)
			return true;
		p += l + (p[l] == ' ');
	}
	return false;
}

/* The format named s (its name or an alias); -1 when unknown. */
int
pe_format_parse(const char *s)
{
	if (s == NULL)
		return -1;
	for (int f = 0; f < PE_FMT_COUNT; f++)
		if (strcmp(s, pe_formats[f].name) == 0 ||
		    writer_word_in(s, pe_formats[f].aliases))
			return f;
	return -1;
}

/* The name of a format. */
const char *
pe_format_name(enum pe_format f)
{
	return (unsigned)f < PE_FMT_COUNT ? pe_formats[f].name : "?";
}

/* Write cv in a format; see writer.h. */
int
pe_write(FILE *fp, const struct pe_canvas *cv, enum pe_format fmt,
         const struct pe_write_opts *wo)
{
	struct pe_write_opts o;

	if (fp == NULL || cv == NULL || cv->cells == NULL || wo == NULL ||
	    (unsigned)fmt >= PE_FMT_COUNT)
		return PE_EINVAL;
	o = *wo;
	if ((unsigned)o.depth > PE_DEPTH_MONO)
		o.depth = PE_DEPTH_TRUECOLOR;
	if ((unsigned)o.theme >= PE_THEME_COUNT)
		o.theme = PE_THEME_DARK;
	int st = pe_formats[fmt].write(fp, cv, &o);
	if (st != PE_OK)
		return st;
	if (fflush(fp) != 0 || ferror(fp))
		return PE_EIO;
	return PE_OK;
}

/* pe_write in the dark theme. */
int
pe_write_canvas(FILE *fp, const struct pe_canvas *cv, enum pe_format fmt,
                enum pe_depth depth, const char *title)
{
	struct pe_write_opts o = {depth, PE_THEME_DARK, title};

	return pe_write(fp, cv, fmt, &o);
}
