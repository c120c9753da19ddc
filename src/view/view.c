/* Views: state -> canvas. This file holds the model, the chrome shared by
 * every encoding (tabs, inspector, status line, help) and one view's frame
 * around its body (pane.c); the views themselves are in view_<kind>.c, the
 * whole frame the TUI and `pescope snapshot` draw in frame.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/encoding.h"
#include "pescope/rope.h"
#include "view/lesson.h"
#include "view/view_impl.h"

/* ---- model ---------------------------------------------------------- */

/* Build the fields a config's view needs. */
int
pe_model_init(struct pe_model *m, const struct pe_config *cfg)
{
	enum pe_field_kind main;
	int st;

	memset(m, 0, sizeof *m);
	m->cfg = *cfg;
	/* the panels' long grids take both cores, as the pictures do */
	pe_field_set_run2(panel_run2);
	if ((m->cache = calloc(1, sizeof *m->cache)) == NULL)
		return PE_ENOMEM;
	main = pe_enc_view_of(cfg)->main;
	if ((st = pe_field_init(&m->main, main, &m->cfg)) != PE_OK) {
		free(m->cache);
		m->cache = NULL;
		return st;
	}
	if (pe_field_supported(cfg->enc, PE_FIELD_SIMILARITY)) {
		if ((st = pe_field_init(&m->sim, PE_FIELD_SIMILARITY, &m->cfg)) !=
		    PE_OK)
			goto fail;
		m->has_sim = true;
	}
	if (pe_enc_view_of(cfg)->model != NULL &&
	    (st = pe_enc_view_of(cfg)->model(m)) != PE_OK)
		goto fail;
	return PE_OK;
fail:
	pe_model_free(m);
	return st;
}

/* Release a model's fields. */
void
pe_model_free(struct pe_model *m)
{
	pe_field_free(&m->main);
	if (m->has_sim)
		pe_field_free(&m->sim);
	if (m->has_base)
		pe_field_free(&m->base);
	m->has_sim = m->has_base = false;
	if (m->cache != NULL) {
		free(m->cache->decay);
		free(m->cache->xpos_env);
		if (m->cache->xpos_done && m->cache->xpos_rc == PE_OK)
			pe_field_free(&m->cache->xpos_rope);
		panel_keep_free(m->cache->pictures, m->cache->cells,
		    MAP_KEEP);
		panel_keep_free(NULL, m->cache->sim_cells, MAP_KEEP);
	}
	free(m->cache);
	m->cache = NULL;
}

/* ---- chrome ---------------------------------------------------------- */


/* Label of encoding e's tab: " N name " (encodings past the ninth have
 * no number key: " name "); compact, the others show their key only. */
static void
tab_label(char *t, size_t cap, int e, bool compact)
{
	const char *name = pe_encoding_name((enum pe_encoding)e);
	if (e >= 9)
		snprintf(t, cap, " %s ", name);
	else if (compact)
		snprintf(t, cap, " %d ", e + 1);
	else
		snprintf(t, cap, " %d %s ", e + 1, name);
}

/* Compare mode's presets for the tab line, each pane's (A first) when it
 * has one: "A: llama-2-7b · B: llama-2-7b (modified) ". Returns its
 * length (0: none). */
static int
compare_presets(const struct pe_state *st, char *p, size_t cap)
{
	int n = 0;
	p[0] = '\0';
	for (int i = PE_PANE_A; i <= PE_PANE_B; i++) {
		const struct pe_pane *pane = &st->pane[i];
		if (pane->preset == NULL)
			continue;
		n += snprintf(p + n, cap - (size_t)n, "%s%s: %s%s", n > 0 ? " · "
		    : "preset ", i == PE_PANE_A ? "A" : "B", pane->preset,
		    pane->preset_modified ? " (modified)" : "");
		if ((size_t)n >= cap)
			return 0;
	}
	if (n > 0)
		n += snprintf(p + n, cap - (size_t)n, " ");
	return (size_t)n < cap ? n : 0;
}

/* Top line: program name, the encoding tabs, the preset. When every tab
 * named does not fit beside the preset's name, the current one keeps its
 * name and the others show their number key, so the current encoding is
 * always on screen. */
static void
draw_tabs(struct ctx *c, int y)
{
	const struct pe_pane *pane = &c->st->pane[c->st->focus];
	int x = 0, full = 0, pl = 0;
	char t[32], p[96] = "";
	x += pe_canvas_text(c->cv, x, y, c->w, " pescope ", PE_RGB(0, 0, 0),
	    C_ACCENT, PE_ATTR_BOLD);
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		tab_label(t, sizeof t, e, false);
		full += pe_text_cells(t);
	}
	bool model = pane->arch != NULL;
	if (model)
		full += 9; /* " L model " */
	if (c->st->compare)
		pl = compare_presets(c->st, p, sizeof p);
	else if (pane->preset != NULL)
		pl = snprintf(p, sizeof p, "preset %s%s ", pane->preset,
		    pane->preset_modified ? " (modified)" : "");
	bool compact = x + full + (pl > 0 ? pl + 1 : 0) > c->w;
	c->hit->tab_y = y;
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		bool on = (int)c->cfg->enc == e;
		tab_label(t, sizeof t, e, compact && !on);
		c->hit->tab_x0[e] = x;
		x += pe_canvas_text(c->cv, x, y, c->w - x, t,
		    on ? PE_RGB(0, 0, 0) : C_TEXT, on ? PE_RGB(0xd0, 0xd0, 0xd0)
						  : PE_COLOR_DEFAULT,
		    on ? PE_ATTR_BOLD : 0);
		c->hit->tab_x1[e] = x;
	}
	if (model) {
		/* the model view's tab (L), on while it shows */
		bool on = c->st->model_view;
		x += pe_canvas_text(c->cv, x, y, c->w - x,
		    compact && !on ? " L " : " L model ",
		    on ? PE_RGB(0, 0, 0) : C_TEXT,
		    on ? PE_RGB(0xd0, 0xd0, 0xd0) : PE_COLOR_DEFAULT,
		    on ? PE_ATTR_BOLD : 0);
	}
	if (pl > 0 && x + pl + 1 <= c->w)
		pe_canvas_text(c->cv, c->w - pl, y, pl, p, C_DIM,
		    PE_COLOR_DEFAULT, 0);
}

/* Bottom line: the message of the last action, else (with chrome) the
 * keys that matter: whole hints, help and quit first, then the encoding's
 * keys that act on the config shown, then moving, then play and save. */
static void
draw_status(struct ctx *c, bool chrome)
{
	char b[512];
	int y = c->h - 1;
	if (c->st->status[0] != '\0') {
		bool note = pe_state_status_is_note(c->st);
		pe_canvas_text_fit(c->cv, 0, y, c->w, c->st->status, note ? C_DIM
		    : C_WARN, PE_COLOR_DEFAULT, note ? 0 : PE_ATTR_BOLD);
		return;
	}
	if (!chrome)
		return;
	struct items it;
	it.n = 0;
	view_item(&it, 0, "? help");
	view_item(&it, 0, "q quit");
	if (c->st->compare) { /* alone, x is in the help */
		view_item(&it, 0, "X focus %s", c->st->focus == PE_PANE_B ? "A"
		    : "B");
		view_item(&it, 1, "x compare off");
	}
	view_item(&it, 2, "←↑↓→ move");
	view_item(&it, 2, "+/- zoom");
	view_item(&it, 1, "1-%d encoding", PE_ENC_COUNT < 9 ? PE_ENC_COUNT : 9);
	const struct pe_enc_view *v = pe_enc_view_of(c->cfg);
	for (const struct pe_enc_key *k = v->keys; k->keys != NULL; k++)
		if (v->key_acts == NULL || v->key_acts(c->cfg, k))
			view_item(&it, view_attn_key(k) ? 4 : 1, "%s %s",
			    k->label, k->what);
	if (v->panels != NULL && v->panels[0].draw != NULL)
		view_item(&it, 1, "c/C panel");
	view_item(&it, 2, "v values");

	if (c->cfg->trainer != NULL &&
	    (pe_config_def(c->cfg)->params & PE_PARAM_TABLE)) {
		view_item(&it, 1, "space %s", c->st->train_paused ? "train"
		    : "pause");
		view_item(&it, 1, "s step");
		view_item(&it, 2, "r restart");
		view_item(&it, 3, "w save (+ table .npy)");
	} else {
		view_item(&it, 3, "space %s", c->st->playing ? "pause"
		    : "play");
		view_item(&it, 3, "w save");
	}
	if (c->cv->px_by != NULL) /* what shows the maps' pictures */
		view_item(&it, 2, "pixels: %s", c->cv->px_by);
	pe_text_pick(b, sizeof b, it.ptr, it.prio, it.n, "  ", c->w);
	pe_canvas_text(c->cv, 0, y, c->w, b, C_DIM, PE_COLOR_DEFAULT, 0);
}

/* The two inspector lines above the status line. */
static void
draw_inspector(struct ctx *c)
{
	pe_canvas_text_fit(c->cv, 0, c->h - 3, c->w, c->insp[0], C_TEXT,
	    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	pe_canvas_text_fit(c->cv, 0, c->h - 2, c->w, c->insp[1], C_DIM,
	    PE_COLOR_DEFAULT, 0);
}

/* The help overlay's lines: the keys every encoding has, then one line
 * per encoding with its own keys (from its row), then the rest; with a
 * run training the table on screen (--train), its keys instead of the
 * animation's. */
static size_t
help_lines(char lines[][96], size_t cap, bool model, bool training)
{
	static const char *const head[] = {
		"pescope keys",
		"",
		"",  /* the number keys: filled in below */
		"arrows               move the cursor by one (smallest) sample",
		"+ / -   0            zoom in / out around the cursor; whole map",
		"PgUp PgDn { } Home End  pan the map (in a lesson { } only)",
		"PgDn PgUp Home End   lesson: step on, back; first, last scene",
		"r i  b .  R          lesson: reset; notes; blank screen; clock",
		"d/D  n/N  b/B        halve/double d_model, seq_len, base (Alt: ×10)",
		"c/C v P  /  e        panel; values; presenter; toy mask; a preset",
		"x / X                compare side by side; keys to the other pane",
	};
	static const char *const tail[] = {
		"space [ ]  w         play, slower, faster; save the frame (.ansi)",
		"?  Esc  q  mouse     help; close it; quit; click a tab, wheel zooms",
		"",
		"any key closes this help",
	};
	size_t n = 0;
	char numbers[32]; /* the number keys there are */
	snprintf(numbers, sizeof numbers, "1-%d, Tab, Shift-Tab",
	    PE_ENC_COUNT < 9 ? PE_ENC_COUNT : 9);
	for (size_t i = 0; i < sizeof head / sizeof head[0] && n < cap; i++)
		if (i == 2)
			snprintf(lines[n++], 96, "%-20s choose the encoding",
			    numbers);
		else
			snprintf(lines[n++], 96, "%s", head[i]);
	/* an encoding's own keys, on lines of at most 55 cells (the box's
	 * 66 less the name's column), more lines when they need them */
	for (int e = 0; e < PE_ENC_COUNT && n < cap; e++) {
		char keys[84] = ""; /* 55 cells of UTF-8, and the name's 11 fit 96 */
		const char *name = pe_encoding_name((enum pe_encoding)e);
		for (const struct pe_enc_key *k = pe_enc_views[e]->keys;
		     k->keys != NULL && n < cap; k++) {
			char item[48];
			if (k->press == NULL)
				continue;
			snprintf(item, sizeof item, "%s %s", k->label, k->what);
			if (keys[0] != '\0' && pe_text_cells(keys) + 3 +
			    pe_text_cells(item) > 55) {
				snprintf(lines[n++], 96, "%-11s%s", name, keys);
				name = "";
				keys[0] = '\0';
			}
			view_cat(keys, sizeof keys, "%s%s", keys[0] ? " · " : "",
			    item);
		}
		if (keys[0] != '\0' && n < cap)
			snprintf(lines[n++], 96, "%-11s%s", name, keys);
	}
	if (model && n < cap)
		snprintf(lines[n++], 96, "%s", "L  , .               the model "
		    "(--config): its view; previous, next layer");
	for (size_t i = 0; i < sizeof tail / sizeof tail[0] && n < cap; i++)
		snprintf(lines[n++], 96, "%s", i == 0 && training
		    ? "space s r  w         training: pause; one step; "
		      "restart; + .npy" : tail[i]);
	return n;
}

/* Fit the help's lines to rows of the screen: while they are too many,
 * the blank lines go first (from the bottom), then the mouse's line (the
 * least needed: a click does what it looks like). The first line, the
 * title, and the last, how to close, stay. Returns the lines left. */
static int
help_fit(char lines[][96], int n, int rows)
{
	for (int pass = 0; pass < 2 && n > rows; pass++)
		for (int i = n - 2; i > 0 && n > rows; i--) {
			bool drop = pass == 0 ? lines[i][0] == '\0'
			    : strncmp(lines[i], "mouse ", 6) == 0;
			if (!drop)
				continue;
			memmove(lines[i], lines[i + 1], (size_t)(n - i - 1) *
			    sizeof lines[0]);
			n--;
		}
	return n;
}

/* The help overlay, centred. */
static void
draw_help(struct ctx *c)
{
	char lines[40][96];
	bool training = c->cfg != NULL && c->cfg->trainer != NULL &&
	    (pe_config_def(c->cfg)->params & PE_PARAM_TABLE);
	int n = (int)help_lines(lines, 40, c->pane != NULL &&
	    c->pane->arch != NULL, training);
	n = help_fit(lines, n, c->h - 2);
	int bw = 70 < c->w - 2 ? 70 : c->w - 2, bh = n + 2;
	int x = (c->w - bw) / 2, y = (c->h - bh) / 2;
	if (y < 0)
		y = 0;
	pe_canvas_fill(c->cv, x, y, bw, bh, ' ', C_TEXT, PE_COLOR_DEFAULT);
	pe_canvas_box(c->cv, x, y, bw, bh, " help ", C_ACCENT);
	for (int i = 0; i < n && i + 1 < bh - 1; i++)
		pe_canvas_text_fit(c->cv, x + 2, y + 1 + i, bw - 4, lines[i],
		    i == 0 ? C_ACCENT : C_TEXT, PE_COLOR_DEFAULT,
		    i == 0 ? PE_ATTR_BOLD : 0);
}

/* The help overlay over the whole of cv (a lesson's frame). */
void
view_help(struct pe_canvas *cv)
{
	struct ctx c;
	memset(&c, 0, sizeof c);
	c.cv = cv, c.w = cv->w, c.h = cv->h;
	draw_help(&c);
}

/* ---- frame ------------------------------------------------------------ */

/* The presenter view's text: the grey of labels and hints (C_DIM) is the
 * text color, since a projector washes grey out (at 16 colors it is the
 * terminal's dark "bright black"); the grey of plot dots and marks
 * stays. */
static void
present_legible(struct pe_canvas *cv)
{
	for (size_t i = 0; i < (size_t)cv->w * (size_t)cv->h; i++) {
		struct pe_cell *cell = &cv->cells[i];
		if (cell->kind == PE_CELL_TEXT && cell->fg == C_DIM &&
		    !(cell->cp >= 0x2580 && cell->cp <= 0x259f) &&
		    !(cell->cp >= 0x2800 && cell->cp <= 0x28ff))
			cell->fg = C_TEXT;
	}
}

/* Map a screen cell of the main map to an element: in its pixel layer,
 * the sample under pixel (ox, oy) of the cell (-1: its middle pixel). */
static bool
hit_map(const struct pe_hit *hit, int x, int y, int ox, int oy, size_t *r,
    size_t *c)
{
	size_t b1;
	if (hit->too_small || hit->nsr == 0 || x < hit->map_x || y < hit->map_y ||
	    x >= hit->map_x + hit->map_w || y >= hit->map_y + hit->map_h)
		return false;
	if (hit->pnr > 0 && hit->px_w > 0) {
		size_t pw = (size_t)hit->map_w * (size_t)hit->px_w;
		size_t ph = (size_t)hit->map_h * (size_t)hit->px_h;
		size_t px = (size_t)(x - hit->map_x) * (size_t)hit->px_w +
		    (size_t)(ox >= 0 && ox < hit->px_w ? ox : hit->px_w / 2);
		size_t py = (size_t)(y - hit->map_y) * (size_t)hit->px_h +
		    (size_t)(oy >= 0 && oy < hit->px_h ? oy : hit->px_h / 2);
		pe_field_span(hit->r0, hit->r1, hit->pnr,
		    pe_pixmap_sample(hit->pnr, ph, py), r, &b1);
		pe_field_span(hit->c0, hit->c1, hit->pnc,
		    pe_pixmap_sample(hit->pnc, pw, px), c, &b1);
		return true;
	}
	size_t sr = (size_t)(y - hit->map_y) * 2;
	size_t sc = (size_t)(x - hit->map_x) / (size_t)(hit->map_cw > 1
	    ? hit->map_cw : 1);
	if (sr >= hit->nsr)
		sr = hit->nsr - 1;
	if (sc >= hit->nsc)
		sc = hit->nsc - 1;
	pe_field_span(hit->r0, hit->r1, hit->nsr, sr, r, &b1);
	pe_field_span(hit->c0, hit->c1, hit->nsc, sc, c, &b1);
	return true;
}

/* The focused pane's fields of hit replaced by the other pane's. */
static struct pe_hit
hit_other(const struct pe_hit *hit)
{
	struct pe_hit h = *hit;
	h.map_x = hit->other.x, h.map_y = hit->other.y;
	h.map_w = hit->other.w, h.map_h = hit->other.h;
	h.r0 = hit->other.r0, h.r1 = hit->other.r1;
	h.c0 = hit->other.c0, h.c1 = hit->other.c1;
	h.nsr = hit->other.nsr, h.nsc = hit->other.nsc;
	h.map_cw = hit->other.cw;
	h.pnr = hit->other.pnr, h.pnc = hit->other.pnc;
	return h;
}

/* Map a screen cell of the main map to an element; see view.h. */
bool
pe_view_hit_map(const struct pe_hit *hit, int x, int y, size_t *r, size_t *c)
{
	return hit_map(hit, x, y, -1, -1, r, c);
}

/* The same for the other pane's map (compare mode). */
bool
pe_view_hit_other(const struct pe_hit *hit, int x, int y, size_t *r,
    size_t *c)
{
	if (hit->other.w == 0)
		return false;
	struct pe_hit h = hit_other(hit);
	return hit_map(&h, x, y, -1, -1, r, c);
}

/* Map a screen pixel to an element of the main map; see view.h. */
bool
pe_view_hit_map_px(const struct pe_hit *hit, int px, int py, int cw, int ch,
    size_t *r, size_t *c)
{
	if (px < 0 || py < 0 || cw <= 0 || ch <= 0)
		return false;
	bool own = cw == hit->px_w && ch == hit->px_h; /* else a layer of
							  other cells */
	return hit_map(hit, px / cw, py / ch, own ? px % cw : -1,
	    own ? py % ch : -1, r, c);
}

/* The same for the other pane's map (compare mode). */
bool
pe_view_hit_other_px(const struct pe_hit *hit, int px, int py, int cw,
    int ch, size_t *r, size_t *c)
{
	if (hit->other.w == 0)
		return false;
	struct pe_hit h = hit_other(hit);
	return pe_view_hit_map_px(&h, px, py, cw, ch, r, c);
}

/* One view's frame at cv's size; see view_impl.h. */
int
view_frame(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit)
{
	return view_frame_held(st, m, cv, hit, NULL);
}

/* The right column's width: its share of the frame, or what the chosen
 * panel needs to draw its matrices whole, the main map keeping at least
 * VIEW_MAP_MIN_W cells (it samples anyway); the whole body with
 * panel_only. */
#define VIEW_MAP_MIN_W 24
static int
right_width(struct ctx *c, bool panel_only)
{
	const struct pe_enc_view *v = pe_enc_view_of(c->cfg);
	const struct pe_enc_panel *p = pe_enc_panel_of(v, pe_state_panel(c->st));
	int rw = c->w * 2 / 5;

	if (rw < 30)
		rw = 30;
	if (rw > 80)
		rw = 80;
	if (p != NULL && panel_only)
		return c->w;
	if (p != NULL && p->width != NULL) {
		int want = p->width(c), most = c->w - VIEW_MAP_MIN_W - 2;
		if (want > rw)
			rw = want < most ? want : most > rw ? most : rw;
	}
	return rw;
}

/* One view's frame, with what a lesson's scene holds; see view_impl.h. */
int
view_frame_held(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit, const struct view_hold *hold)
{
	struct ctx c;

	view_ctx_init(&c, st, m, cv, hit);
	if (hold != NULL) {
		c.share = hold->scale;
		c.sim_bound = hold->sim_bound;
	}
	cv->large = st->session.present; /* blocks for plots, wide samples */

	/* The lines, top down: the tab bar (not in the presenter view,
	 * without chrome or in a lesson, whose scene line stands there), the
	 * parameter line, the body, two inspector lines and the status line
	 * (there without chrome too, for messages, so that the body keeps its
	 * size when one comes and goes). */
	bool chrome = !st->session.present && !st->session.no_chrome;
	int top = 0;
	hit->tab_y = -1;
	if (chrome && st->session.lesson == NULL)
		draw_tabs(&c, top++);
	/* the parameter line at top (a compare pane's: its first line) */
	c.bx = 0, c.by = top + 1, c.bh = c.h - 3 - (top + 1);
	bool panel_only = hold != NULL && hold->panel_only &&
	    !(st->compare && m->other != NULL);
	c.rw = right_width(&c, panel_only);
	c.lw = c.w - c.rw - 2;
	c.rx = c.lw + 2;
	if (c.rw == c.w) /* the panel alone */
		c.lw = 0, c.rx = 0;
	hit->panel_x = c.rx;

	if (st->compare && m->other != NULL) {
		view_compare(&c);
	} else {
		view_params(&c, NULL, NULL, 0, top, c.w);
		if (st->model_view && c.pane->arch != NULL)
			view_model_body(&c);
		else
			view_body(&c);
	}
	draw_inspector(&c);
	draw_status(&c, chrome);
	/* a lesson's help covers its whole frame */
	if (st->help && st->session.lesson == NULL)
		draw_help(&c);
	if (st->session.present)
		present_legible(cv);
	return c.status;
}
