/* The canvas: a W x H grid of cells that views draw into and writers write
 * out (after tmux's grid.c). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/canvas.h"
#include "render/palette.h"
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
	cv->px_w = cv->px_h = 0;
	cv->px_by = NULL;
	cv->pix = NULL;
	cv->npix = 0;
	cv->spare = NULL;
	cv->nspare = 0;
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
	pe_canvas_drop_pixels(cv);
	free(cv->spare);
	cv->spare = NULL;
	cv->nspare = 0;
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
	pe_canvas_drop_pixels(cv);
}

/* Ask for a pixel layer; see canvas.h. */
int
pe_canvas_want_pixels(struct pe_canvas *cv, int px_w, int px_h,
    const char *by)
{
	if (px_w < 0 || px_h < 0 || px_w > PE_PX_CELL_MAX ||
	    px_h > PE_PX_CELL_MAX || (px_w == 0) != (px_h == 0))
		return PE_EINVAL;
	cv->px_w = px_w;
	cv->px_h = px_h;
	cv->px_by = px_w > 0 ? by : NULL;
	return PE_OK;
}

/* The pixel layer request of src. */
void
pe_canvas_want_like(struct pe_canvas *dst, const struct pe_canvas *src)
{
	dst->px_w = src->px_w;
	dst->px_h = src->px_h;
	dst->px_by = src->px_by;
	dst->depth = src->depth; /* a legend names what src's writer shows */
	dst->theme = src->theme;
}

/* Append a picture slot; NULL out of memory. */
static struct pe_pixmap *
canvas_pix_add(struct pe_canvas *cv)
{
	struct pe_pixmap *v = realloc(cv->pix, (size_t)(cv->npix + 1) *
	    sizeof *v);
	if (v == NULL)
		return NULL;
	cv->pix = v;
	memset(&v[cv->npix], 0, sizeof *v);
	return &v[cv->npix++];
}

/* Whether the canvas shows pictures; see canvas.h. */
bool
pe_canvas_pictures(const struct pe_canvas *cv)
{
	return cv->px_w > 0 && pe_depth_pictures((enum pe_depth)cv->depth);
}

/* A new picture over a rectangle of cells; see canvas.h. */
struct pe_pixmap *
pe_canvas_pixmap(struct pe_canvas *cv, int x, int y, int w, int h)
{
	if (cv->px_w <= 0 || cv->px_h <= 0 || w < 1 || h < 1 || x < 0 ||
	    y < 0 || x + w > cv->w || y + h > cv->h)
		return NULL;
	if (!pe_canvas_pictures(cv))
		return NULL;
	size_t pw = (size_t)w * (size_t)cv->px_w;
	size_t ph = (size_t)h * (size_t)cv->px_h;
	if (pw > INT32_MAX || ph > INT32_MAX ||
	    pw > SIZE_MAX / sizeof(uint32_t) / ph)
		return NULL;
	uint32_t *rgb;
	if (cv->spare != NULL && cv->nspare == pw * ph) {
		rgb = cv->spare; /* the last frame's, of this size */
		cv->spare = NULL;
		cv->nspare = 0;
	} else if ((rgb = malloc(pw * ph * sizeof *rgb)) == NULL) {
		return NULL;
	}
	struct pe_pixmap *pm = canvas_pix_add(cv);
	if (pm == NULL) {
		free(rgb);
		return NULL;
	}
	pm->x = x, pm->y = y, pm->w = w, pm->h = h;
	pm->pw = (int)pw, pm->ph = (int)ph;
	pm->rgb = rgb;
	return pm;
}

/* The picture covering a cell, or NULL. */
const struct pe_pixmap *
pe_canvas_pixmap_at(const struct pe_canvas *cv, int x, int y)
{
	for (int i = cv->npix - 1; i >= 0; i--) {
		const struct pe_pixmap *pm = &cv->pix[i];
		if (x >= pm->x && x < pm->x + pm->w && y >= pm->y &&
		    y < pm->y + pm->h)
			return pm;
	}
	return NULL;
}

/* Drop the pictures. */
void
pe_canvas_drop_pixels(struct pe_canvas *cv)
{
	for (int i = 0; i < cv->npix; i++) {
		size_t n = (size_t)cv->pix[i].pw * (size_t)cv->pix[i].ph;
		if (n > cv->nspare) { /* the largest kept for the next frame */
			free(cv->spare);
			cv->spare = cv->pix[i].rgb;
			cv->nspare = n;
		} else {
			free(cv->pix[i].rgb);
		}
		free(cv->pix[i].under);
	}
	free(cv->pix);
	cv->pix = NULL;
	cv->npix = 0;
}

/* Whether pixel (x, y) is on the frame of a sample's pixels [x0, x1) x
 * [y0, y1): two rings around it. */
static bool
canvas_on_frame(int x0, int x1, int y0, int y1, int x, int y)
{
	bool outer = x >= x0 - 2 && x < x1 + 2 && y >= y0 - 2 && y < y1 + 2;
	bool inner = x >= x0 && x < x1 && y >= y0 && y < y1;
	return outer && !inner;
}

/* Whether a pixel is on the cursor's frame; see canvas.h. */
bool
pe_pixmap_on_frame(const struct pe_pixmap *pm, int x, int y)
{
	return pm->cur_w > 0 && canvas_on_frame(pm->cur_x, pm->cur_x +
	    pm->cur_w, pm->cur_y, pm->cur_y + pm->cur_h, x, y);
}

/* What canvas_frame_walk does at each pixel of the frame. */
enum walk {
	WALK_COUNT,   /* nothing: count them */
	WALK_PAINT,   /* keep the pixel in under (when not NULL), paint it */
	WALK_RESTORE, /* put under back */
	WALK_SWAP,    /* exchange the pixel and under's */
};

/* Visit the frame's pixels inside the picture, row by row; their count. */
static size_t
canvas_frame_walk(uint32_t *rgb, int pw, int ph, int x0, int x1, int y0,
    int y1, uint32_t *under, enum walk how)
{
	size_t k = 0;
	for (int y = y0 - 2; y < y1 + 2; y++) {
		if (y < 0 || y >= ph)
			continue;
		bool band = y < y0 || y >= y1; /* a whole row of the rings */
		for (int x = x0 - 2; x < x1 + 2; x++) {
			if (!band && x == x0)
				x = x1; /* over the sample's own pixels */
			if (x < 0 || x >= pw || x >= x1 + 2)
				continue;
			uint32_t *p = &rgb[(size_t)y * (size_t)pw + (size_t)x];
			uint32_t t;
			bool inner = x >= x0 - 1 && x < x1 + 1 && y >= y0 - 1 &&
			    y < y1 + 1;
			switch (how) {
			case WALK_COUNT:
				break;
			case WALK_PAINT:
				if (under != NULL)
					under[k] = *p;
				*p = inner ? 0xff000000u : 0xffffffffu;
				break;
			case WALK_RESTORE:
				*p = under[k];
				break;
			case WALK_SWAP:
				t = *p;
				*p = under[k];
				under[k] = t;
				break;
			}
			k++;
		}
	}
	return k;
}

/* Frame the cursor's sample; see canvas.h. */
int
pe_pixmap_frame_cursor(struct pe_pixmap *pm, int x0, int x1, int y0, int y1)
{
	size_t n = canvas_frame_walk(pm->rgb, pm->pw, pm->ph, x0, x1, y0, y1,
	    NULL, WALK_COUNT);
	uint32_t *under = malloc((n ? n : 1) * sizeof *under);
	if (under == NULL)
		return PE_ENOMEM;
	free(pm->under);
	pm->under = under;
	pm->nunder = canvas_frame_walk(pm->rgb, pm->pw, pm->ph, x0, x1, y0, y1,
	    under, WALK_PAINT);
	pm->cur_x = x0, pm->cur_y = y0;
	pm->cur_w = x1 - x0, pm->cur_h = y1 - y0;
	return PE_OK;
}

/* Exchange the frame's pixels with under; see canvas.h. */
void
pe_pixmap_swap_frame(struct pe_pixmap *pm)
{
	if (pm->cur_w > 0 && pm->under != NULL)
		canvas_frame_walk(pm->rgb, pm->pw, pm->ph, pm->cur_x,
		    pm->cur_x + pm->cur_w, pm->cur_y, pm->cur_y + pm->cur_h,
		    pm->under, WALK_SWAP);
}

/* The pixels without the cursor's frame; see canvas.h. */
void
pe_pixmap_plain(const struct pe_pixmap *pm, uint32_t *dest)
{
	memcpy(dest, pm->rgb, (size_t)pm->pw * (size_t)pm->ph * sizeof *dest);
	if (pm->cur_w > 0 && pm->under != NULL)
		canvas_frame_walk(dest, pm->pw, pm->ph, pm->cur_x, pm->cur_x +
		    pm->cur_w, pm->cur_y, pm->cur_y + pm->cur_h, pm->under,
		    WALK_RESTORE);
}

/* The sample pixel p of n shows: floor(ns p / n), pe_field_span's cut of
 * [0, ns) into n blocks (each sample over a run of pixels when ns < n). */
size_t
pe_pixmap_sample(size_t ns, size_t n, size_t p)
{
	size_t s;
	if (n == 0 || ns == 0)
		return 0;
	s = (size_t)((unsigned __int128)ns * p / n);
	return s < ns ? s : ns - 1;
}

/* The pixels that show sample s: the p with floor(ns p / n) == s, that
 * is [ceil(s n / ns), ceil((s + 1) n / ns)). */
void
pe_pixmap_pixels(size_t ns, size_t n, size_t s, int *a, int *b)
{
	if (ns == 0) {
		*a = *b = 0;
		return;
	}
	*a = (int)(((unsigned __int128)s * n + ns - 1) / ns);
	*b = (int)(((unsigned __int128)(s + 1) * n + ns - 1) / ns);
	if (*b > (int)n)
		*b = (int)n;
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

/* Drop the pictures that cells [x, x + w) x [y, y + h) cover part of:
 * what is drawn there is over them (a terminal shows a picture over its
 * cells), so their cells show instead. */
static void
canvas_drop_under(struct pe_canvas *cv, int x, int y, int w, int h)
{
	int k = 0;
	for (int i = 0; i < cv->npix; i++) {
		struct pe_pixmap *pm = &cv->pix[i];
		if (pm->x < x + w && x < pm->x + pm->w && pm->y < y + h &&
		    y < pm->y + pm->h) {
			free(pm->rgb);
			free(pm->under);
			continue;
		}
		cv->pix[k++] = *pm;
	}
	cv->npix = k;
}

/* Draw a single-line box (at least 2 x 2) with an optional title in its
 * top edge; a box is over what it covers, pictures too (they are
 * dropped: their cells show around it). */
void
pe_canvas_box(struct pe_canvas *cv, int x, int y, int w, int h,
              const char *title, pe_color fg)
{
	pe_color bg = PE_COLOR_DEFAULT;

	if (w >= 2 && h >= 2)
		canvas_drop_under(cv, x, y, w, h);
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
int
pe_canvas_blit(struct pe_canvas *dst, int x, int y,
    const struct pe_canvas *src)
{
	int rc = PE_OK;

	for (int r = 0; r < src->h; r++)
		for (int c = 0; c < src->w; c++) {
			struct pe_cell *d = pe_canvas_at(dst, x + c, y + r);
			size_t k = (size_t)r * (size_t)src->w + (size_t)c;
			if (d != NULL)
				*d = src->cells[k];
		}
	for (int i = 0; i < src->npix; i++) {
		const struct pe_pixmap *s = &src->pix[i];
		if (dst->px_w != src->px_w || dst->px_h != src->px_h)
			break; /* drawn at another size: not this frame's */
		struct pe_pixmap *d = pe_canvas_pixmap(dst, x + s->x, y + s->y,
		    s->w, s->h);
		if (d == NULL) {
			if (x + s->x >= 0 && y + s->y >= 0 &&
			    x + s->x + s->w <= dst->w && y + s->y + s->h <= dst->h)
				rc = PE_ENOMEM;
			continue;
		}
		uint32_t *rgb = d->rgb, *under = NULL;
		if (s->under != NULL &&
		    (under = malloc((s->nunder ? s->nunder : 1) *
		    sizeof *under)) == NULL) {
			free(rgb);
			dst->npix--;
			rc = PE_ENOMEM;
			continue;
		}
		*d = *s;
		d->x += x, d->y += y;
		d->rgb = rgb;
		d->under = under;
		memcpy(rgb, s->rgb, (size_t)s->pw * (size_t)s->ph * sizeof *rgb);
		if (under != NULL)
			memcpy(under, s->under, s->nunder * sizeof *under);
	}
	return rc;
}
