/* The preset picker's program side: the presets --preset takes (one
 * function, pe_options_preset_at, lists them), given to the state for its
 * list, and the TUI's hook that applies the one chosen (e, Enter) to the
 * focused pane through the command line's own parser, as --preset NAME
 * would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/options.h"
#include "view/state.h"

/* The names and descriptions, built once. */
static struct {
	const char **names, **about;
	size_t n;
	bool done;
} presets;

/* The options of each preset applied: they own what its config points at
 * (a longrope's factor lists), for as long as the program runs. */
static struct pe_options **applied;
static size_t napplied;

/* Build the lists once. */
static void
picker_lists(void)
{
	char about[512];
	size_t n = 0;

	if (presets.done)
		return;
	presets.done = true;
	while (pe_options_preset_at(n, about, sizeof about) != NULL)
		n++;
	presets.names = calloc(n + 1, sizeof *presets.names);
	presets.about = calloc(n + 1, sizeof *presets.about);
	if (presets.names == NULL || presets.about == NULL) {
		free(presets.names);
		free(presets.about);
		presets.names = presets.about = NULL;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		presets.names[i] = pe_options_preset_at(i, about, sizeof about);
		presets.about[i] = strdup(about);
		if (presets.about[i] == NULL)
			presets.about[i] = "";
	}
	presets.n = n;
}

/* See app.h. */
void
pe_app_picker_init(struct pe_state *st)
{
	picker_lists();
	st->session.presets = presets.names;
	st->session.preset_about = presets.about;
	st->session.npresets = presets.n;
}

/* See app.h. */
int
pe_app_picker_poll(void *arg, struct pe_state *st)
{
	const char *name = st->session.want_preset;
	char err[1024];
	(void)arg;

	if (name == NULL)
		return PE_ACT_NONE;
	st->session.want_preset = NULL;
	struct pe_options *o = calloc(1, sizeof *o), **grown;
	char *argv[] = {"pescope", "--preset", (char *)name, NULL};
	if (o == NULL || (grown = realloc(applied, (napplied + 1) *
	    sizeof *applied)) == NULL) {
		free(o);
		pe_state_status(st, "preset %s: out of memory", name);
		return PE_ACT_REDRAW;
	}
	applied = grown;
	if (pe_options_parse(o, 3, argv, err, sizeof err) != 0) {
		pe_state_status(st, "preset %s: %s", name, err);
		pe_options_free(o);
		free(o);
		return PE_ACT_REDRAW;
	}
	struct pe_config c = o->cfg;
	int act = pe_state_apply(st, &c);
	if (!(act & PE_ACT_REBUILD)) { /* refused: the status says why */
		pe_options_free(o);
		free(o);
		return act | PE_ACT_REDRAW;
	}
	applied[napplied++] = o;
	struct pe_pane *p = &st->pane[st->focus];
	p->preset = name;
	p->preset_modified = false;
	p->head = o->head_given ? o->head : 0;
	pe_state_clamp(st);
	pe_state_status(st, "preset %s (e: another)", name);
	return act | PE_ACT_REDRAW;
}
