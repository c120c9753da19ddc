/* A caption's text wrapped into lines at a width, and drawn into a
 * rectangle (the lesson's caption band, the notes, the speaker's view). */
#include <stdio.h>
#include <string.h>

#include "view/caption.h"
#include "view/view_impl.h"

/* Append one line (dropped past the last). */
static void
add_line(struct caption_lines *L, const char *s, size_t len, bool verbatim)
{
	if (L->n >= CAPTION_MAX_LINES)
		return;
	snprintf(L->text[L->n], sizeof L->text[0], "%.*s", (int)len, s);
	L->verbatim[L->n++] = verbatim;
}

/* The cells of s's first len bytes. */
static int
cells_of(const char *s, size_t len)
{
	int c = 0;
	for (size_t i = 0; i < len; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Wrap a paragraph (words separated by spaces and newlines) into lines
 * of at most w cells; a word wider than w gets a line of its own (the
 * frame shortens it whole with pe_text_fit). */
static void
wrap_paragraph(struct caption_lines *L, const char *p, size_t len, int w)
{
	char line[512];
	size_t o = 0;
	int cells = 0;
	size_t i = 0;
	while (i < len) {
		while (i < len && (p[i] == ' ' || p[i] == '\n'))
			i++;
		size_t j = i;
		while (j < len && p[j] != ' ' && p[j] != '\n')
			j++;
		if (j == i)
			break;
		int wc = cells_of(p + i, j - i);
		if (o > 0 && cells + 1 + wc > w) {
			add_line(L, line, o, false);
			o = 0, cells = 0;
		}
		if (o > 0 && o + 1 < sizeof line) {
			line[o++] = ' ';
			cells++;
		}
		size_t k = j - i < sizeof line - 1 - o ? j - i : sizeof line - 1 - o;
		memcpy(line + o, p + i, k);
		o += k;
		cells += wc;
		i = j;
	}
	if (o > 0)
		add_line(L, line, o, false);
}

/* The caption's lines at width w; see caption.h. */
void
caption_wrap(struct caption_lines *L, const char *text, int w)
{
	const char *s = text;
	L->n = 0;
	while (*s != '\0') {
		size_t len = strcspn(s, "\n");
		if (len == 0) {
			if (L->n > 0 && L->text[L->n - 1][0] != '\0')
				add_line(L, "", 0, false);
		} else if (*s == ' ') {
			add_line(L, s, len, true);
		} else {
			wrap_paragraph(L, s, len, w);
		}
		s += len + (s[len] == '\n');
	}
	while (L->n > 0 && L->text[L->n - 1][0] == '\0')
		L->n--;
}

/* Caption lines into a rectangle; see caption.h. */
void
caption_draw(struct pe_canvas *cv, const struct caption_lines *L, int x,
    int y, int w, int h, bool failed)
{
	int shown = L->n <= h ? L->n : h - 1;
	for (int i = 0; i < shown; i++)
		pe_canvas_text_fit(cv, x, y + i, w, L->text[i],
		    failed ? C_WARN : C_TEXT, PE_COLOR_DEFAULT, 0);
	if (shown < L->n && h > 0) {
		char more[80];
		snprintf(more, sizeof more, "… %d more line%s of the caption "
		    "(a larger window shows them)", L->n - shown,
		    L->n - shown == 1 ? "" : "s");
		pe_canvas_text_fit(cv, x, y + shown, w, more, C_WARN,
		    PE_COLOR_DEFAULT, 0);
	}
}
