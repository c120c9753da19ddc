/* Keys -> state: what each key of the frame does (the frame's own keys,
 * a lesson's, the encoding's row's, moving, zooming, the animation), pure
 * (no terminal). The transitions they use are in state.c. */
#include <stdio.h>
#include <string.h>

#include "pescope/encoding.h"
#include "pescope/toy.h"
#include "pescope/train.h"
#include "view/encoding.h"
#include "view/lesson.h"
#include "view/picker.h"
#include "view/state.h"

/* The focused pane: the one the keys change. */
static struct pe_pane *
cur(struct pe_state *st)
{
	return &st->pane[st->focus];
}

/* c / C: the next or previous panel of the encoding's list (the overview
 * first); from a panel it lacks, from its overview. */
static int
cycle_panel(struct pe_state *st, int dir)
{
	const struct pe_enc_view *v = pe_enc_view_of(&cur(st)->cfg);
	enum pe_panel list[PE_PANEL_COUNT];
	size_t n = 0, at = 0;

	list[n++] = PE_PANEL_OVERVIEW;
	for (const struct pe_enc_panel *q = v->panels;
	     q != NULL && q->draw != NULL && n < PE_PANEL_COUNT; q++)
		list[n++] = q->id;
	if (n == 1) {
		pe_state_status(st, "%s has one panel, its overview",
		    pe_encoding_name(cur(st)->cfg.enc));
		return PE_ACT_REDRAW;
	}
	for (size_t i = 0; i < n; i++)
		if (list[i] == pe_state_panel(st))
			at = i;
	cur(st)->panel = list[(at + n + (size_t)(dir > 0 ? 1 : n - 1)) %
	    n];
	return PE_ACT_REDRAW;
}

/* /: the toy attention's mask, causal or none (--mask), where the
 * encoding has the toy. */
static int
toy_mask(struct pe_state *st)
{
	struct pe_config c = cur(st)->cfg;

	if (pe_config_def(&c)->toy == NULL) {
		pe_state_status(st, "'/' sets the toy attention's mask; %s has "
		    "no toy attention", pe_encoding_name(c.enc));
		return PE_ACT_REDRAW;
	}
	/* from the mask in effect (auto is causal for nope, alibi causal) */
	c.teach.mask = pe_toy_causal(&c) ? PE_TOY_MASK_NONE : PE_TOY_MASK_CAUSAL;
	int act = pe_state_apply(st, &c);
	if (act & PE_ACT_REBUILD)
		pe_state_status(st, "the toy attention's mask: %s (/ toggles)",
		    c.teach.mask == PE_TOY_MASK_NONE ? "none" : "causal");
	return act;
}

/* A key of another encoding's: say whose it is and how to get there.
 * Returns PE_ACT_REDRAW when some encoding owns key, else -1. */
static int
other_encodings_key(struct pe_state *st, int key)
{
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		const struct pe_enc_key *k = pe_enc_key_of(pe_enc_views[e], key);
		if (k == NULL)
			continue;
		if (k->press == NULL) { /* a shared key this encoding lacks */
			pe_state_status(st, "'%c' changes %s; %s has none", key,
			    k->what, pe_encoding_name(cur(st)->cfg.enc));
			return PE_ACT_REDRAW;
		}
		pe_state_status(st, "'%c' changes %s's %s: switch to %s first "
		    "(%s)", key, pe_encoding_name((enum pe_encoding)e), k->what,
		    pe_encoding_name((enum pe_encoding)e), e < 9 ? (char[]){
			(char)('1' + e), '\0'} : "Tab");
		return PE_ACT_REDRAW;
	}
	return -1;
}

/* Shift an index by delta within [0, len), saturating. */
static size_t
step(size_t v, long long delta, size_t len)
{
	if (delta < 0) {
		size_t m = (size_t)(-delta);
		return v > m ? v - m : 0;
	}
	if ((size_t)delta >= len - v)
		return len - 1;
	return v + (size_t)delta;
}

/* Move the cursor by (dr, dc) elements; the viewport follows. */
static int
move(struct pe_state *st, long long dr, long long dc)
{
	size_t rows, cols;

	pe_state_main_dims(&cur(st)->cfg, &rows, &cols);
	st->cur_r = step(st->cur_r, dr, rows);
	st->cur_c = step(st->cur_c, dc, cols);
	pe_state_clamp(st);
	return PE_ACT_REDRAW;
}

/* Pan by a viewport height (dir -1 up, +1 down): cursor and viewport. */
static int
page(struct pe_state *st, int dir)
{
	size_t rows, cols, r0, r1, c0, c1;

	pe_state_main_dims(&cur(st)->cfg, &rows, &cols);
	pe_state_viewport(st, rows, cols, &r0, &r1, &c0, &c1);
	size_t ext = r1 - r0;
	if (st->vr1 != 0) {
		size_t n0 = step(r0, dir * (long long)ext, rows);
		if (n0 + ext > rows)
			n0 = rows - ext;
		st->vr0 = n0;
		st->vr1 = n0 + ext;
	}
	st->cur_r = step(st->cur_r, dir * (long long)ext, rows);
	pe_state_clamp(st);
	return PE_ACT_REDRAW;
}

/* One animation step: the cursor's position moves forward, wrapping (vit2d:
 * patches in row-major order). */
static int
tick(struct pe_state *st, size_t cell_rows, size_t cell_cols)
{
	size_t rows, cols;

	if (!st->playing)
		return PE_ACT_NONE;
	pe_state_main_dims(&cur(st)->cfg, &rows, &cols);
	if (pe_enc_view_of(&cur(st)->cfg)->sweep_2d) {
		st->cur_c += cell_cols;
		if (st->cur_c >= cols) {
			st->cur_c = 0;
			st->cur_r += cell_rows;
			if (st->cur_r >= rows)
				st->cur_r = 0;
		}
	} else {
		st->cur_r += cell_rows;
		if (st->cur_r >= rows)
			st->cur_r = 0;
	}
	pe_state_clamp(st);
	return PE_ACT_REDRAW;
}

/* A shared key (d/D, n/N, b/B) of an encoding that lists it. */
static int
shared_key(struct pe_state *st, int key)
{
	struct pe_config c = cur(st)->cfg;

	switch (key) {
	case 'd':
		return pe_state_set_d(st, c.d / 2);
	case 'D':
		return pe_state_set_d(st, c.d > PE_MAX_D ? c.d : c.d * 2);
	case 'n':
	case 'N':
		c.n = key == 'n' ? c.n / 2 : (c.n > PE_MAX_N ? c.n : c.n * 2);
		return pe_state_apply(st, &c);
	default: /* b, B: ÷2, ×2; with Alt ÷10, ×10 */
		if ((key & PE_KEY_ALT) != 0)
			c.base = (key & ~PE_KEY_ALT) == 'b' ? c.base / 10.0
							    : c.base * 10.0;
		else
			c.base = key == 'b' ? c.base / 2.0 : c.base * 2.0;
		return pe_state_apply(st, &c);
	}
}

/* Keys that change the config: the encoding's own (its row's keys, the
 * shared d/D, n/N, b/B among them), else another encoding's (refused with
 * a word). Returns -1 when key is none of them. */
static int
config_key(struct pe_state *st, int key)
{
	const struct pe_enc_view *v = pe_enc_view_of(&cur(st)->cfg);
	int bare = key & ~PE_KEY_ALT;
	/* Alt+b, Alt+B: the base by ×10 (b and B: ×2) */
	if ((key & PE_KEY_ALT) && bare != 'b' && bare != 'B')
		return -1;
	const struct pe_enc_key *k = pe_enc_key_of(v, bare);

	if (k != NULL && (key & PE_KEY_ALT) && k->press != NULL)
		return -1; /* Alt with a key of the row's own: nothing */
	if (k != NULL)
		return k->press != NULL ? k->press(st, key) : shared_key(st, key);
	return (key & PE_KEY_ALT) ? -1 : other_encodings_key(st, key);
}

/* --train's keys, when the focused pane shows a learned table being
 * trained: space pauses and resumes the training between frames, s asks
 * for one step (and pauses), r for a restart from the seed (in a lesson
 * r also resets the scene: the lesson's key runs after). The TUI's loop
 * does what train_req asks. -1: not one of them here. */
static int
train_key(struct pe_state *st, int key)
{
	const struct pe_config *c = &cur(st)->cfg;
	struct pe_trainer *tr = c->trainer;

	if (tr == NULL || !(pe_config_def(c)->params & PE_PARAM_TABLE))
		return -1;
	switch (key) {
	case ' ':
		st->train_paused = !st->train_paused;
		pe_state_status(st, st->train_paused ? "training paused: space "
		    "goes on, s takes one step, r starts again"
		    : "training between frames: space pauses");
		return PE_ACT_REDRAW;
	case 's':
		st->train_paused = true;
		st->train_req = PE_TRAIN_REQ_STEP;
		pe_state_status(st, "one training step (paused: space goes "
		    "on)");
		return PE_ACT_REDRAW;
	case 'r':
		st->train_req = PE_TRAIN_REQ_RESTART;
		pe_state_status(st, "training again from seed %llu",
		    (unsigned long long)pe_train_config(tr)->seed);
		return st->session.lesson != NULL ? -1 : PE_ACT_REDRAW;
	case 'd':
	case 'D':
	case 'n':
	case 'N':
		pe_state_status(st, "%s %zu is the training run's (--train); "
		    "start pescope again with -%c to train another",
		    key == 'd' || key == 'D' ? "d_model" : "seq_len",
		    key == 'd' || key == 'D' ? c->d : c->n, key | 0x20);
		return PE_ACT_REDRAW;
	}
	return -1;
}

/* Apply one key; see state.h. */
int
pe_state_key(struct pe_state *st, int key, size_t cell_rows,
    size_t cell_cols)
{
	size_t rows, cols;
	int act;

	if (cell_rows == 0)
		cell_rows = 1;
	if (cell_cols == 0)
		cell_cols = 1;
	if (key == PE_KEY_TICK)
		return tick(st, cell_rows, cell_cols);
	/* a blanked lesson screen: any key brings it back, and does
	 * nothing else (a clicker's blank key pressed twice, or any other) */
	if (st->session.blank) {
		st->session.blank = false;
		return PE_ACT_REDRAW;
	}
	if (st->session.picker)
		return pe_picker_key(st, key);

	/* Any key clears the last message (a REDRAW shows that). */
	bool had_status = st->status[0] != '\0';
	st->status[0] = '\0';
	int clear = had_status ? PE_ACT_REDRAW : PE_ACT_NONE;

	if (st->help) {
		st->help = false;
		return PE_ACT_REDRAW;
	}
	if ((act = train_key(st, key)) >= 0)
		return act;
	/* the keys of every encoding's frame (no row may take them: see
	 * tests/test_encodings.c): panels, compare mode and its focus,
	 * values */
	switch (key) {
	case 'c':
	case 'C':
		return cycle_panel(st, key == 'c' ? 1 : -1);
	case ',': /* a model's layers (--config): previous, next; its view */
	case '.': {
		const struct pe_pane *p = &st->pane[st->focus];
		if (p->arch == NULL)
			break;
		if (key == ',' && p->layer == 0) {
			pe_state_status(st, "layer 0 is the first of %zu",
			    p->arch->nlayers);
			return PE_ACT_REDRAW;
		}
		return pe_state_layer(st, key == ',' ? p->layer - 1 :
		    p->layer + 1);
	}
	case 'L':
		if (st->pane[st->focus].arch == NULL)
			break;
		st->model_view = !st->model_view;
		return PE_ACT_REDRAW;
	case 'r':
		if (st->session.lesson == NULL) {
			pe_state_status(st, "r resets a lesson's scene; no lesson "
			    "runs (pescope lesson)");
			return PE_ACT_REDRAW;
		}
		break;
	case 'x':
		return pe_state_compare(st, !st->compare) | PE_ACT_REDRAW;
	case 'X': {
		enum pe_pane_id to = st->focus == PE_PANE_A ? PE_PANE_B
		    : PE_PANE_A;
		if (st->compare)
			pe_state_status(st, "keys change pane %s",
			    to == PE_PANE_A ? "A" : "B");
		return pe_state_focus(st, to) | PE_ACT_REDRAW;
	}
	case 'v':
		st->values = !st->values;
		pe_state_status(st, st->values ? "values on: each element's number "
		    "where a cell shows one element and it fits (+ zooms in)"
					       : "values off");
		return PE_ACT_REDRAW;
	case 'e': /* a preset (a model) by name, off the script */
		return pe_picker_open(st);
	case '/': /* the toy attention's mask: causal <-> none */
		return toy_mask(st);
	case 'P':
		st->session.present = !st->session.present;
		pe_state_status(st, st->session.present ? "presenter view: P "
		    "leaves it, ? lists the keys" : "presenter view off");
		return PE_ACT_REDRAW;
	}
	/* a lesson's: PgDn, PgUp step the scenes, r resets one */
	if ((act = pe_lesson_key(st, key)) >= 0)
		return act | clear;
	if ((act = config_key(st, key)) >= 0)
		return act | clear;

	pe_state_main_dims(&cur(st)->cfg, &rows, &cols);
	switch (key) {
	case 'q':
		return PE_ACT_QUIT;
	case PE_KEY_ESC:
		/* Never a quit: clickers and stray escape sequences send it. */
		pe_state_status(st, "Esc closes the help; q quits");
		return PE_ACT_REDRAW;
	case '?':
		st->help = true;
		return PE_ACT_REDRAW;
	case 'w':
		return PE_ACT_SNAPSHOT | clear;
	case '1': case '2': case '3': case '4': case '5': case '6': case '7':
	case '8': case '9':
		if (key - '1' >= PE_ENC_COUNT)
			break;
		return pe_state_set_encoding(st, key - '1') | clear;
	case PE_KEY_TAB:
		return pe_state_set_encoding(st, (int)cur(st)->cfg.enc + 1) |
		    clear;
	case PE_KEY_BTAB:
		return pe_state_set_encoding(st, (int)cur(st)->cfg.enc - 1) |
		    clear;
	case PE_KEY_UP:
		return move(st, -(long long)cell_rows, 0);
	case PE_KEY_DOWN:
		return move(st, (long long)cell_rows, 0);
	case PE_KEY_LEFT:
		return move(st, 0, -(long long)cell_cols);
	case PE_KEY_RIGHT:
		return move(st, 0, (long long)cell_cols);
	case PE_KEY_PGUP:
	case '{': /* PgUp and PgDn step a lesson's scenes */
		return page(st, -1);
	case PE_KEY_PGDN:
	case '}':
		return page(st, 1);
	case PE_KEY_HOME:
		return move(st, -(long long)rows, 0);
	case PE_KEY_END:
		return move(st, (long long)rows, 0);
	case '+':
	case '=':
		return pe_state_zoom(st, 1, st->cur_r, st->cur_c);
	case '-':
		return pe_state_zoom(st, -1, st->cur_r, st->cur_c);
	case '0':
		st->vr0 = st->vr1 = st->vc0 = st->vc1 = 0;
		pe_state_clamp(st);
		return PE_ACT_REDRAW;
	case ' ':
		st->playing = !st->playing;
		if (st->playing)
			pe_state_status(st, "playing: the cursor sweeps %s at %d "
			    "steps/s; space pauses, [ ] slower, faster",
			    pe_enc_view_of(&cur(st)->cfg)->sweep_2d
			    ? "the patches" : "the positions",
			    st->speed);
		else
			pe_state_status(st, "paused");
		return PE_ACT_REDRAW;
	case '[':
	case ']': {
		int s = key == '[' ? st->speed / 2 : st->speed * 2;
		if (s < PE_SPEED_MIN || s > PE_SPEED_MAX) {
			pe_state_status(st, "speed %d steps/s is the %s", st->speed,
			    s < PE_SPEED_MIN ? "slowest" : "fastest");
			return PE_ACT_REDRAW;
		}
		st->speed = s;
		pe_state_status(st, "speed %d steps/s", s);
		return PE_ACT_REDRAW;
	}
	}
	if (key > ' ' && key < 127) {
		pe_state_status(st, "'%c' does nothing here; ? lists the keys", key);
		return PE_ACT_REDRAW;
	}
	if ((key & PE_KEY_ALT) && (key & ~PE_KEY_ALT) > ' ' &&
	    (key & ~PE_KEY_ALT) < 127) {
		pe_state_status(st, "Alt+%c does nothing here; ? lists the keys",
		    key & ~PE_KEY_ALT);
		return PE_ACT_REDRAW;
	}
	if (key >= 1 && key <= 26 && key != PE_KEY_TAB && key != PE_KEY_ENTER) {
		pe_state_status(st, "Ctrl-%c does nothing here; ? lists the keys",
		    'A' + key - 1);
		return PE_ACT_REDRAW;
	}
	return clear;
}
