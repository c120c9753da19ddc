/* Private to view/: a caption's text wrapped into lines (caption.c), for
 * the lesson's frames (lesson_frame.c). */
#ifndef PESCOPE_VIEW_CAPTION_H
#define PESCOPE_VIEW_CAPTION_H

#include <stdbool.h>

#include "render/canvas.h"

#define CAPTION_MAX_LINES 64

/* Wrapped caption lines. */
struct caption_lines {
	char text[CAPTION_MAX_LINES][512];
	bool verbatim[CAPTION_MAX_LINES]; /* kept as written (a table) */
	int n;
};

/* The caption's lines at width w: each text line a paragraph, wrapped;
 * a blank line kept (one of several); a line that starts with a space
 * kept as it is (tables). Lines past the last are dropped. */
void caption_wrap(struct caption_lines *L, const char *text, int w);

/* Caption lines into the rectangle (x, y, w, h); when they do not all
 * fit, the last row says how many are left out. failed: the caption could
 * not be filled (its text is the reason), drawn as a warning. */
void caption_draw(struct pe_canvas *cv, const struct caption_lines *L, int x,
    int y, int w, int h, bool failed);

#endif
