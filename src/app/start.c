/* The start state from options (config, cursor, panel, preset, compare):
 * the TUI, a snapshot and each step of a lesson begin from it, so they
 * draw the same frame. */
#include "app/app.h"
#include "view/state.h"

/* Start state from options: pane A's config, head, panel and preset (and
 * with --compare pane B's), the cursor, values, the view mode. */
void
pe_app_state_from_options(const struct pe_options *o, struct pe_state *st)
{
	struct pe_pane *a = &st->pane[PE_PANE_A];

	pe_state_init(st, &o->cfg);
	a->preset = o->preset;
	a->preset_modified = o->preset_modified;
	a->arch = o->arch; /* --config: the model, and its layer shown */
	a->layer = o->layer;
	st->model_view = o->model_view && o->arch != NULL;
	if (o->head_given) /* alibi's head, relative's bias row: clamped */
		a->head = o->head;
	a->panel = (enum pe_panel)o->panel;
	a->head_own_scale = o->head_own_scale;
	st->values = o->values;
	st->session.present = o->present;
	st->session.no_chrome = o->no_chrome;
	if (o->cursor_given) {
		st->cur_r = o->cursor_p;
		st->cur_c = o->cursor_j;
	}
	pe_state_clamp(st);
	if (o->cmp != NULL) { /* --compare: pane B beside, A focused */
		const struct pe_options *b = o->cmp;
		st->compare = true;
		st->pane[PE_PANE_B] = (struct pe_pane){b->cfg,
			b->head_given ? b->head : 0, a->panel, b->preset,
			b->preset_modified, b->arch, b->layer, b->head_own_scale};
	}
}
