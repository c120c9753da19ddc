/* The canvas: a W x H grid of cells that views draw into and writers write
 * out (after tmux's grid.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas.h"
#include "pescope/pescope.h"

/* Box-drawing code points (Unicode block U+2500). */
#define BOX_H 0x2500u
#define BOX_V 0x2502u
#define BOX_TL 0x250cu
#define BOX_TR 0x2510u
#define BOX_BL 0x2514u
#define BOX_BR 0x2518u

/* A blank cell: space on default colors. */
static void
canvas_blank(struct pe_cell *c)
{
	c->cp = ' ';
	c->fg = PE_COLOR_DEFAULT;
	c->bg = PE_COLOR_DEFAULT;
	c->attr = 0;
	c->kind = PE_CELL_TEXT;
	c->shade = 0;
	c->ramp = 0;
	c->lvok = 0;
}

/* Allocate a w x h canvas of blank cells. */
int
pe_canvas_init(struct pe_canvas *cv, int w, int h)
{
	cv->w = 0;
	cv->h = 0;
	cv->cells = NULL;
	cv->large = false;
	cv->depth = 0; /* PE_DEPTH_TRUECOLOR */
	cv->theme = 0; /* PE_THEME_DARK */
	if (w < 1 || h < 1 ||
	    (size_t)w > SIZE_MAX / sizeof *cv->cells / (size_t)h)
		return PE_EINVAL;
	cv->cells = malloc((size_t)w * (size_t)h * sizeof *cv->cells);
	if (cv->cells == NULL)
		return PE_ENOMEM;
	cv->w = w;
	cv->h = h;
	pe_canvas_clear(cv);
	return PE_OK;
}

/* Free a canvas's cells (safe on a zeroed or freed canvas). */
void
pe_canvas_free(struct pe_canvas *cv)
{
	if (cv == NULL)
		return;
	free(cv->cells);
	cv->cells = NULL;
	cv->w = 0;
	cv->h = 0;
}

/* Blank every cell. */
void
pe_canvas_clear(struct pe_canvas *cv)
{
	size_t n = (size_t)cv->w * (size_t)cv->h;

	for (size_t i = 0; i < n; i++)
		canvas_blank(&cv->cells[i]);
}

/* Cell at (x, y), or NULL when outside. */
struct pe_cell *
pe_canvas_at(struct pe_canvas *cv, int x, int y)
{
	if (cv == NULL || cv->cells == NULL || x < 0 || y < 0 || x >= cv->w ||
	    y >= cv->h)
		return NULL;
	return &cv->cells[(size_t)y * (size_t)cv->w + (size_t)x];
}

/* Set one cell as text (clipped). */
void
pe_canvas_set(struct pe_canvas *cv, int x, int y, uint32_t cp, pe_color fg,
              pe_color bg, uint8_t attr)
{
	struct pe_cell *c = pe_canvas_at(cv, x, y);

	if (c == NULL)
		return;
	c->cp = cp;
	c->fg = fg;
	c->bg = bg;
	c->attr = attr;
	c->kind = PE_CELL_TEXT;
	c->shade = 0;
	c->ramp = 0;
	c->lvok = 0;
}

/* Decode one UTF-8 code point (RFC 3629: no overlongs, no surrogates, at
 * most U+10FFFF); returns bytes used, 0 at the end of the string. */
int
pe_utf8_decode(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	uint32_t c, min;
	int n;

	if (u[0] == 0) {
		*cp = 0;
		return 0;
	}
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0) {
		c = u[0] & 0x1f;
		n = 2;
		min = 0x80;
	} else if ((u[0] & 0xf0) == 0xe0) {
		c = u[0] & 0x0f;
		n = 3;
		min = 0x800;
	} else if ((u[0] & 0xf8) == 0xf0) {
		c = u[0] & 0x07;
		n = 4;
		min = 0x10000;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	for (int i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = (c << 6) | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = c;
	return n;
}

/* Encode cp as UTF-8 into buf[4]; invalid code points become U+FFFD. */
int
pe_utf8_encode(uint32_t cp, char *buf)
{
	unsigned char *b = (unsigned char *)buf;

	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		b[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | (cp >> 6));
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | (cp >> 12));
		b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (unsigned char)(0xf0 | (cp >> 18));
	b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
	b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
	b[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Write UTF-8 text at (x, y), one cell per code point, at most max_w cells;
 * control characters show as spaces. Returns the cells written. */
int
pe_canvas_text(struct pe_canvas *cv, int x, int y, int max_w, const char *utf8,
               pe_color fg, pe_color bg, uint8_t attr)
{
	uint32_t cp;
	int used, n = 0;

	if (utf8 == NULL || y < 0 || y >= cv->h)
		return 0;
	while (n < max_w && x + n < cv->w &&
	       (used = pe_utf8_decode(utf8, &cp)) > 0) {
		utf8 += used;
		if (cp < 0x20 || cp == 0x7f)
			cp = ' ';
		if (x + n >= 0)
			pe_canvas_set(cv, x + n, y, cp, fg, bg, attr);
		n++;
	}
	return n;
}

/* printf into the canvas, like pe_canvas_text. */
int
pe_canvas_printf(struct pe_canvas *cv, int x, int y, int max_w, pe_color fg,
                 pe_color bg, uint8_t attr, const char *fmt, ...)
{
	char small[256], *buf = small;
	va_list ap;
	int len, n;

	va_start(ap, fmt);
	len = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (len < 0)
		return 0;
	if ((size_t)len >= sizeof small) {
		buf = malloc((size_t)len + 1);
		if (buf == NULL)
			return 0;
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	n = pe_canvas_text(cv, x, y, max_w, buf, fg, bg, attr);
	if (buf != small)
		free(buf);
	return n;
}

/* Fill a rectangle with one glyph and colors (clipped). */
void
pe_canvas_fill(struct pe_canvas *cv, int x, int y, int w, int h, uint32_t cp,
               pe_color fg, pe_color bg)
{
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++)
			pe_canvas_set(cv, x + i, y + j, cp, fg, bg, 0);
}

/* Draw a single-line box (at least 2 x 2) with an optional title in its
 * top edge. */
void
pe_canvas_box(struct pe_canvas *cv, int x, int y, int w, int h,
              const char *title, pe_color fg)
{
	pe_color bg = PE_COLOR_DEFAULT;

	if (w < 2 || h < 2)
		return;
	for (int i = 1; i < w - 1; i++) {
		pe_canvas_set(cv, x + i, y, BOX_H, fg, bg, 0);
		pe_canvas_set(cv, x + i, y + h - 1, BOX_H, fg, bg, 0);
	}
	for (int j = 1; j < h - 1; j++) {
		pe_canvas_set(cv, x, y + j, BOX_V, fg, bg, 0);
		pe_canvas_set(cv, x + w - 1, y + j, BOX_V, fg, bg, 0);
	}
	pe_canvas_set(cv, x, y, BOX_TL, fg, bg, 0);
	pe_canvas_set(cv, x + w - 1, y, BOX_TR, fg, bg, 0);
	pe_canvas_set(cv, x, y + h - 1, BOX_BL, fg, bg, 0);
	pe_canvas_set(cv, x + w - 1, y + h - 1, BOX_BR, fg, bg, 0);
	if (title != NULL && title[0] != '\0' && w > 4) {
		/* " title " after the corner and one rule, before the end. */
		int n = pe_canvas_text(cv, x + 2, y, w - 4, " ", fg, bg, 0);
		n += pe_canvas_text(cv, x + 2 + n, y, w - 4 - n, title, fg, bg,
		                    PE_ATTR_BOLD);
		pe_canvas_text(cv, x + 2 + n, y, w - 4 - n, " ", fg, bg, 0);
	}
}

/* Copy src's cells into dst at (x, y), clipped. */
void
pe_canvas_blit(struct pe_canvas *dst, int x, int y,
    const struct pe_canvas *src)
{
	for (int r = 0; r < src->h; r++)
		for (int c = 0; c < src->w; c++) {
			struct pe_cell *d = pe_canvas_at(dst, x + c, y + r);
			size_t k = (size_t)r * (size_t)src->w + (size_t)c;
			if (d != NULL)
				*d = src->cells[k];
		}
}
