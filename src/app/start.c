/* The start state from options (config, cursor, panel, preset, compare):
 * the TUI, a snapshot and each step of a lesson begin from it, so they
 * draw the same frame. */
#include "app/app.h"
#include "view/state.h"

/* Start state from options: config, cursor, preset name. Shared with the
 * TUI so that both start from the same frame. */
void
pe_app_state_from_options(const struct pe_options *o, struct pe_state *st)
{
	pe_state_init(st, &o->cfg);
	st->preset = o->preset;
	st->preset_modified = o->preset_modified;
	if (o->head_given) /* alibi's head, relative's bias row: clamped */
		st->head = o->head;
	st->panel = (enum pe_panel)o->panel;
	st->values = o->values;
	st->present = o->present;
	st->no_chrome = o->no_chrome;
	if (o->cursor_given) {
		st->cur_r = o->cursor_p;
		st->cur_c = o->cursor_j;
	}
	pe_state_clamp(st);
	if (o->cmp != NULL) { /* --compare: pane B beside, A focused */
		const struct pe_options *b = o->cmp;
		st->compare = true;
		st->other = (struct pe_pane){b->cfg,
			b->head_given ? b->head : 0, st->panel, b->preset,
			b->preset_modified};
	}
}
