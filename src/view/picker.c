/* The preset picker (e): a list of the presets --preset takes, over the
 * frame; arrows mark one, Enter asks for it (the TUI's hook applies it
 * to the focused pane, app/picker.c), any other key closes the list. */
#include <stdio.h>
#include <string.h>

#include "view/picker.h"
#include "view/view_impl.h"

/* See picker.h: e. */
int
pe_picker_open(struct pe_state *st)
{
	struct pe_session *se = &st->session;
	const struct pe_pane *p = &st->pane[st->focus];

	if (se->npresets == 0) {
		pe_state_status(st, "no presets to choose from here");
		return PE_ACT_REDRAW;
	}
	se->picker = true;
	se->pick = 0;
	for (size_t i = 0; p->preset != NULL && i < se->npresets; i++)
		if (strcmp(se->presets[i], p->preset) == 0)
			se->pick = i;
	return PE_ACT_REDRAW;
}

/* See picker.h: a key while the picker is open. */
int
pe_picker_key(struct pe_state *st, int key)
{
	struct pe_session *se = &st->session;
	size_t n = se->npresets;

	switch (key) {
	case PE_KEY_UP:
		se->pick = se->pick > 0 ? se->pick - 1 : n - 1;
		return PE_ACT_REDRAW;
	case PE_KEY_DOWN:
		se->pick = se->pick + 1 < n ? se->pick + 1 : 0;
		return PE_ACT_REDRAW;
	case PE_KEY_PGUP:
		se->pick = se->pick > 10 ? se->pick - 10 : 0;
		return PE_ACT_REDRAW;
	case PE_KEY_PGDN:
		se->pick = se->pick + 10 < n ? se->pick + 10 : n - 1;
		return PE_ACT_REDRAW;
	case PE_KEY_ENTER:
	case '\n':
		se->picker = false;
		se->want_preset = se->presets[se->pick];
		return PE_ACT_REDRAW;
	}
	se->picker = false; /* Esc, L or any key: closed, nothing chosen */
	return PE_ACT_REDRAW;
}

/* See view_impl.h: the list, centred, the marked line on the accent. */
void
view_picker(const struct pe_state *st, struct pe_canvas *cv)
{
	const struct pe_session *se = &st->session;
	int bw = cv->w - 4 < 100 ? cv->w - 4 : 100, bh = cv->h - 4;
	int rows = bh - 3, x = (cv->w - bw) / 2, y = 2;
	size_t n = se->npresets, first = 0;

	if (rows < 1 || bw < 20)
		return;
	if ((int)n < rows)
		bh = (int)n + 3, rows = (int)n;
	if (se->pick >= (size_t)rows)
		first = se->pick - (size_t)rows + 1;
	pe_canvas_fill(cv, x, y, bw, bh, ' ', C_TEXT, PE_COLOR_DEFAULT);
	pe_canvas_box(cv, x, y, bw, bh, " a preset: ↑↓ choose, Enter takes it, "
	    "Esc closes ", C_ACCENT);
	for (int i = 0; i < rows && first + (size_t)i < n; i++) {
		size_t k = first + (size_t)i;
		char l[512];
		snprintf(l, sizeof l, " %-22s %s", se->presets[k],
		    se->preset_about != NULL ? se->preset_about[k] : "");
		bool on = k == se->pick;
		pe_canvas_text_fit(cv, x + 1, y + 1 + i, bw - 2, l, on
		    ? PE_RGB(0, 0, 0) : C_TEXT, on ? C_ACCENT : PE_COLOR_DEFAULT,
		    on ? PE_ATTR_BOLD : 0);
	}
	char foot[64];
	snprintf(foot, sizeof foot, " %zu of %zu ", se->pick + 1, n);
	pe_canvas_text(cv, x + 2, y + bh - 1, bw - 4, foot, C_DIM,
	    PE_COLOR_DEFAULT, 0);
}
