/* The whole frame, the TUI's and `pescope snapshot`'s: "terminal too
 * small", a lesson's frame (lesson_frame.c) or the view's (view.c). */
#include <stdio.h>
#include <string.h>

#include "view/view_impl.h"

/* Below the minimum size: what the frame needs and what it has, in the
 * first of these layouts that fits (one line, then shorter lines stacked),
 * centred; "q quits" under it. Down to 20 x 5 nothing is cut. */
static void
draw_too_small(struct ctx *c)
{
	char need[32], have[32], both[80], all[128];
	snprintf(need, sizeof need, "need ≥ %d×%d", PE_VIEW_MIN_W, PE_VIEW_MIN_H);
	snprintf(have, sizeof have, "have %d×%d", c->w, c->h);
	snprintf(both, sizeof both, "%s, %s", need, have);
	snprintf(all, sizeof all, "terminal too small: %s", both);
	const char *layouts[][5] = {
		{all, "q quits", NULL},
		{"terminal too small", both, "q quits", NULL},
		{"terminal too small", need, have, "q quits", NULL},
		{"too small", need, have, "q quits", NULL},
		{"too small", need, have, NULL},
		{need, have, NULL},
		{have, NULL},
	};
	size_t nl = sizeof layouts / sizeof layouts[0], pick = nl - 1;
	for (size_t i = 0; i < nl; i++) {
		int lines = 0, wide = 0;
		for (; layouts[i][lines] != NULL; lines++)
			if (pe_text_cells(layouts[i][lines]) > wide)
				wide = pe_text_cells(layouts[i][lines]);
		if (wide <= c->w && lines <= c->h) {
			pick = i;
			break;
		}
	}
	int lines = 0;
	while (layouts[pick][lines] != NULL)
		lines++;
	int y = (c->h - lines) / 2;
	for (int i = 0; i < lines; i++) {
		const char *l = layouts[pick][i];
		int x = (c->w - pe_text_cells(l)) / 2;
		bool last = strcmp(l, "q quits") == 0;
		pe_canvas_text_fit(c->cv, x > 0 ? x : 0, y + i, c->w, l,
		    last ? C_DIM : C_WARN, PE_COLOR_DEFAULT,
		    last ? 0 : PE_ATTR_BOLD);
	}
}

/* Draw the whole frame: too small, a lesson's (scene line, view,
 * caption) or the view's; the first kernel failure of its panels, or
 * PE_OK. */
int
pe_view_render(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit)
{
	struct pe_hit dummy;

	if (hit == NULL)
		hit = &dummy;
	memset(hit, 0, sizeof *hit);
	pe_canvas_clear(cv);
	if (cv->w < PE_VIEW_MIN_W || cv->h < PE_VIEW_MIN_H) {
		struct ctx c;
		memset(&c, 0, sizeof c);
		c.st = st, c.cv = cv, c.w = cv->w, c.h = cv->h;
		hit->too_small = true;
		draw_too_small(&c);
		return PE_OK;
	}
	int rc = st->session.lesson != NULL ? view_lesson_frame(st, m, cv, hit)
	    : view_frame(st, m, cv, hit);
	if (st->session.picker)
		view_picker(st, cv);
	return rc;
}
