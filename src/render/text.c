/* Text that fits a width: whole, or whole words and an ellipsis, or whole
 * items chosen by priority. Nothing is ever cut inside a word or a number. */
#include <stdio.h>
#include <string.h>

#include "render/draw.h"

#define ELLIPSIS " …" /* two cells */

/* Cells (code points) of UTF-8 text. */
int
pe_text_cells(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Whether the word s[0..len) is punctuation only (no letter, digit or
 * non-ASCII glyph): such a word cannot end an elided text ("a = …"). */
static bool
text_punct(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch >= 0x80 || (ch >= '0' && ch <= '9') ||
		    ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z') || ch == ')' ||
		    ch == ']')
			return false;
	}
	return true;
}

/* Text that fits width cells: src whole, else a run of whole words (split
 * at spaces) that leaves room for " …", then " …". Of the runs that fit, the
 * longest that leaves no bracket open (when there is one), and of those one
 * that ends an item (before two spaces, after a ';' or ',') when
 * that keeps at least half as much; a last word of punctuation only ("=", "·")
 * goes, and so does a ',', ';' or ':' ending the last word. "" when not
 * even the first word fits. */
int
pe_text_fit(char *dst, size_t cap, const char *src, int width)
{
	size_t end, best = 0, closed = 0, item = 0;
	int cells, depth = 0, closed_c = 0, item_c = 0;

	if (cap == 0)
		return 0;
	dst[0] = '\0';
	if (width <= 0 || src == NULL)
		return 0;
	if (pe_text_cells(src) <= width) {
		snprintf(dst, cap, "%s", src);
		return pe_text_cells(dst);
	}
	/* keep the leading blanks (an indent is part of the look) */
	end = strspn(src, " ");
	cells = (int)end;
	for (;;) {
		size_t w0 = end, w1, next;
		int wc;

		while (src[w0] == ' ')
			w0++;
		if (src[w0] == '\0')
			break;
		w1 = w0 + strcspn(src + w0, " ");
		wc = (int)(w0 - end);
		for (size_t i = w0; i < w1; i++) {
			unsigned char ch = (unsigned char)src[i];
			wc += (ch & 0xc0) != 0x80;
			depth +=
			    (ch == '(' || ch == '[') - (ch == ')' || ch == ']');
		}
		if (cells + wc + 2 > width)
			break;
		cells += wc;
		end = w1;
		if (text_punct(src + w0, w1 - w0))
			continue;
		best = end;
		if (depth <= 0)
			closed = end, closed_c = cells;
		next = end + strspn(src + end, " ");
		if (depth <= 0 && (next - end >= 2 || src[end - 1] == ';' ||
		                   src[end - 1] == ',' || src[next] == '\0'))
			item = end, item_c = cells;
	}
	if (item > 0 && 2 * item_c >= closed_c)
		best = item;
	else if (closed > 0)
		best = closed;
	if (best == 0)
		return 0;
	if (strchr(",;:", src[best - 1]) != NULL && !text_punct(src, best - 1))
		best--;
	snprintf(dst, cap, "%.*s%s", (int)best, src, ELLIPSIS);
	return pe_text_cells(dst);
}

/* pe_canvas_text of the text pe_text_fit makes of utf8. */
int
pe_canvas_text_fit(struct pe_canvas *cv, int x, int y, int max_w,
                   const char *utf8, pe_color fg, pe_color bg, uint8_t attr)
{
	char buf[1024];

	if (max_w > cv->w - x)
		max_w = cv->w - x;
	if (pe_text_fit(buf, sizeof buf, utf8, max_w) == 0)
		return 0;
	return pe_canvas_text(cv, x, y, max_w, buf, fg, bg, attr);
}

/* Items joined by sep in their order, those of the largest prio dropped
 * whole (the later first) until the rest fits width; when one item is left
 * and still too wide, pe_text_fit shortens it. Returns the cells of dst. */
int
pe_text_pick(char *dst, size_t cap, const char *const *items, const int *prio,
             size_t n, const char *sep, int width)
{
	bool keep[64];
	size_t left = 0;

	if (cap == 0)
		return 0;
	dst[0] = '\0';
	if (n > sizeof keep / sizeof keep[0])
		n = sizeof keep / sizeof keep[0];
	for (size_t i = 0; i < n; i++) {
		keep[i] = items[i] != NULL && items[i][0] != '\0';
		left += keep[i];
	}
	for (;;) {
		int cells = 0;
		size_t k = 0, drop = n;

		for (size_t i = 0; i < n; i++)
			if (keep[i])
				cells += pe_text_cells(items[i]) +
				         (k++ > 0 ? pe_text_cells(sep) : 0);
		if (cells <= width || left <= 1)
			break;
		for (size_t i = 0; i < n; i++)
			if (keep[i] && (drop == n || prio[i] >= prio[drop]))
				drop = i;
		keep[drop] = false;
		left--;
	}
	for (size_t i = 0, k = 0; i < n; i++) {
		size_t len = strlen(dst);

		if (!keep[i])
			continue;
		snprintf(dst + len, cap - len, "%s%s", k++ > 0 ? sep : "",
		         items[i]);
	}
	if (pe_text_cells(dst) > width) {
		char tmp[1024];

		snprintf(tmp, sizeof tmp, "%s", dst);
		return pe_text_fit(dst, cap, tmp, width);
	}
	return pe_text_cells(dst);
}

/* Copy s with control bytes, C1 controls and invalid UTF-8 escaped. */
char *
pe_text_escape(const char *s, char *dest, size_t cap)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	if (cap == 0)
		return dest;
	while (*p != '\0' && o + 1 < cap) {
		size_t n = 1;
		unsigned cp = *p;
		if (*p >= 0xc2 && *p <= 0xf4) {
			n = *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
			cp = *p & (0x7f >> n);
			for (size_t k = 1; k < n; k++) {
				if ((p[k] & 0xc0) != 0x80) {
					n = 0;
					break;
				}
				cp = cp << 6 | (p[k] & 0x3f);
			}
			if (n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000)))
				n = 0; /* overlong or a surrogate */
			if (n == 4 && (cp < 0x10000 || cp > 0x10ffff))
				n = 0;
		} else if (*p >= 0x80) {
			n = 0;
		}
		bool ctl = cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0);
		if (n == 0 || (ctl && n == 1)) {
			if (o + 5 > cap)
				break;
			o += (size_t)snprintf(dest + o, cap - o, "\\x%02x", *p);
			p++;
		} else if (ctl) { /* a C1 control spelled in UTF-8 */
			if (o + 7 > cap)
				break;
			o += (size_t)snprintf(dest + o, cap - o, "\\u%04x", cp);
			p += n;
		} else {
			if (o + n >= cap)
				break;
			memcpy(dest + o, p, n);
			o += n;
			p += n;
		}
	}
	dest[o] = '\0';
	return dest;
}
