/* The lesson's frames: the audience's (a scene line, the view drawn one
 * row taller with its tab bar left out, the caption band) and the
 * speaker's (notes, what comes next, the clock). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/caption.h"
#include "view/lesson.h"
#include "view/view_impl.h"

/* ---- what a scene holds across its steps ------------------------------ */

/* See lesson.h. */
int
pe_lesson_measure_step(struct pe_lesson *l, size_t k, size_t step)
{
	struct pe_scene *s = &l->scenes[k];
	struct pe_step *t = &s->steps[step];
	const struct pe_config *cfg = &t->start.pane[t->start.focus].cfg;
	struct pe_model m;
	struct pe_canvas cv;
	struct pe_hit hit;
	struct ctx c;
	int rc;

	if (s->nsteps < 2 || s->text_only)
		return PE_OK; /* nothing moves between steps */
	if ((rc = pe_model_init(&m, cfg)) != PE_OK)
		return rc;
	if ((rc = pe_canvas_init(&cv, 1, 1)) != PE_OK) {
		pe_model_free(&m);
		return rc;
	}
	/* the main map's scale as its row's map computes it, nothing drawn
	 * (compare mode's probe) */
	struct pe_state st = t->start;
	st.session.lesson = l;
	st.session.scene = k;
	st.session.step = step;
	view_ctx_init(&c, &st, &m, &cv, &hit);
	c.probe = true;
	const struct pe_enc_view *v = pe_enc_view_of(cfg);
	v->map(&c);
	t->kind = (int)v->main;
	t->scale = c.scale;
	t->sim_bound = m.has_sim ? view_map_sim_bound(&m) : 0;
	t->measured = true;
	if (step + 1 == s->nsteps) {
		/* the whole caption, each step's text for its own view */
		char *buf = malloc(16384);
		if (buf != NULL && pe_lesson_caption(&st, &m, buf, 16384) == 0)
			t->shown = buf;
		else
			free(buf);
	}
	pe_canvas_free(&cv);
	pe_model_free(&m);
	return PE_OK;
}

/* What a scene's steps hold for its frame, into *h (and *sc, which h
 * points at): the union of the main maps' scales when every step's main
 * map is one kind on one colormap, the largest score range, and whether
 * the panel fills the body. Only while the view is the step's: once a key
 * changed it, the view's own ranges. */
static void
scene_hold(const struct pe_state *st, struct view_hold *h,
    struct pe_scale *sc)
{
	const struct pe_scene *s =
	    &st->session.lesson->scenes[st->session.scene];
	char changed[8];

	memset(h, 0, sizeof *h);
	h->panel_only = s->panel_only;
	pe_lesson_changes(st, changed, sizeof changed);
	if (changed[0] != '\0' || s->nsteps < 2)
		return;
	bool same = true;
	for (size_t i = 0; i < s->nsteps; i++) {
		const struct pe_step *t = &s->steps[i];
		const struct pe_step *t0 = &s->steps[0];
		if (!t->measured)
			return;
		if (t->sim_bound > h->sim_bound)
			h->sim_bound = t->sim_bound;
		if (t->kind != t0->kind || t->scale.cmap != t0->scale.cmap ||
		    t->scale.cyclic != t0->scale.cyclic)
			same = false;
		if (i == 0) {
			*sc = t->scale;
		} else {
			sc->lo = t->scale.lo < sc->lo ? t->scale.lo : sc->lo;
			sc->hi = t->scale.hi > sc->hi ? t->scale.hi : sc->hi;
		}
	}
	if (same)
		h->scale = sc;
}

/* A parameter a lesson's step sets: its name and where it is. */
struct changed_field {
	const char *name;
	size_t off, size;
	bool in_cfg;	/* in the pane's config, else in the pane */
};
#define CFG_FIELD(name, f) {name, offsetof(struct pe_config, f), \
    sizeof(((struct pe_config *)0)->f), true}
#define PANE_FIELD(name, f) {name, offsetof(struct pe_pane, f), \
    sizeof(((struct pe_pane *)0)->f), false}

/* See lesson.h. Whole fields compared byte for byte: a key sets a value
 * the step's option set, or leaves it (the pointers a config holds are
 * compared as pointers: a key never makes a new table). */
void
pe_lesson_changes(const struct pe_state *st, char *buf, size_t cap)
{
	static const struct changed_field fields[] = {
		CFG_FIELD("encoding", enc), CFG_FIELD("d_model", d),
		CFG_FIELD("seq_len", n), CFG_FIELD("base", base),
		CFG_FIELD("layout", layout), CFG_FIELD("pairing", pairing),
		CFG_FIELD("heads", heads), CFG_FIELD("mode", alibi_mode),
		CFG_FIELD("relative", relative), CFG_FIELD("buckets", buckets),
		CFG_FIELD("max_distance", max_distance),
		CFG_FIELD("direction", bidirectional),
		CFG_FIELD("K", max_relative), CFG_FIELD("grid", grid_h),
		CFG_FIELD("grid", grid_w), CFG_FIELD("max_len", max_len),
		CFG_FIELD("scaling", rope.type), CFG_FIELD("factor", rope.factor),
		CFG_FIELD("original_max_pos", rope.original_max_pos),
		CFG_FIELD("max_pos", rope.max_pos), CFG_FIELD("mrope", mrope),
		CFG_FIELD("xpos", xpos), CFG_FIELD("rope2d", rope2d),
		CFG_FIELD("mask", teach.mask), CFG_FIELD("shift", teach.shift),
		CFG_FIELD("train_len", teach.train_len),
		PANE_FIELD("head", head), PANE_FIELD("panel", panel),
		PANE_FIELD("head scale", head_own_scale),
	};
	const struct pe_session *se = &st->session;
	const struct pe_scene *s = &se->lesson->scenes[se->scene];
	const struct pe_step *t = &s->steps[se->step < s->nsteps ? se->step
					      : s->nsteps - 1];
	const struct pe_pane *a = &st->pane[st->focus];
	const struct pe_pane *b = &t->start.pane[t->start.focus];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const struct changed_field *f = &fields[i];
		const char *pa = f->in_cfg ? (const char *)&a->cfg
					   : (const char *)a;
		const char *pb = f->in_cfg ? (const char *)&b->cfg
					   : (const char *)b;
		if (memcmp(pa + f->off, pb + f->off, f->size) == 0)
			continue;
		if (o > 0 && i > 0 && strcmp(fields[i - 1].name, f->name) == 0)
			continue; /* grid's two fields: named once */
		int n = snprintf(buf + o, cap - o, "%s%s", o > 0 ? ", " : "",
		    f->name);
		if (n < 0 || (size_t)n >= cap - o) {
			buf[o] = '\0';
			return;
		}
		o += (size_t)n;
	}
}

/* ---- frames ------------------------------------------------------------ */

/* The scene shown. */
static const struct pe_scene *
scene_of(const struct pe_state *st)
{
	return &st->session.lesson->scenes[st->session.scene];
}

/* The scene line: "3/17 · title", the step, the keys. */
static void
draw_scene_line(const struct pe_state *st, struct pe_canvas *cv, int y)
{
	const struct pe_session *se = &st->session;
	const struct pe_lesson *l = se->lesson;
	const struct pe_scene *s = scene_of(st);
	char head[256], step[32] = "", b[512];
	const char *items[4];
	int prio[4];
	size_t n = 0;

	char changed[160];
	snprintf(head, sizeof head, " %zu/%zu · %s ", se->scene + 1,
	    l->nscenes, s->title);
	int x = pe_canvas_text_fit(cv, 0, y, cv->w, head, PE_RGB(0, 0, 0),
	    C_ACCENT, PE_ATTR_BOLD);
	/* what the keys changed of the scene's view (r puts it back) */
	pe_lesson_changes(st, changed, sizeof changed);
	if (changed[0] != '\0') {
		char b2[200];
		snprintf(b2, sizeof b2, " (changed: %s; r resets)", changed);
		if (pe_text_cells(b2) > cv->w - x - 2)
			snprintf(b2, sizeof b2, " (changed: %s)", changed);
		x += pe_canvas_text_fit(cv, x, y, cv->w - x, b2, C_WARN,
		    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	}
	if (s->nsteps > 1)
		snprintf(step, sizeof step, "step %zu/%zu", se->step + 1,
		    s->nsteps);
	if (step[0] != '\0')
		items[n] = step, prio[n++] = 0;
	/* the keys, where the frame shows keys (not on a slide, not in the
	 * presenter view) */
	if (!st->session.present && !st->session.no_chrome)
		items[n] = "PgDn next · PgUp back · r reset", prio[n++] = 2;
	items[n] = l->title, prio[n++] = 1;
	pe_text_pick(b, sizeof b, items, prio, n, "  ", cv->w - x - 2);
	int bw = pe_text_cells(b);
	if (bw > 0)
		pe_canvas_text(cv, cv->w - bw - 1, y, bw, b, C_DIM,
		    PE_COLOR_DEFAULT, 0);
}

/* "mm:ss" or "h:mm:ss" of s seconds. */
static void
clock_text(char *buf, size_t cap, double s)
{
	long t = s > 0 ? (long)s : 0;
	if (t >= 3600)
		snprintf(buf, cap, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, cap, "%02ld:%02ld", t / 60, t % 60);
}

/* The speaker's view (lesson --speaker): the scene the audience sees, its
 * notes, what comes next, and the clock. */
static int
speaker_frame(const struct pe_state *st, struct pe_canvas *cv,
    struct caption_lines *L)
{
	const struct pe_session *se = &st->session;
	const struct pe_lesson *l = se->lesson;
	const struct pe_scene *s = scene_of(st);
	int w = cv->w, h = cv->h, y = 2;
	char b[512], t1[32], t2[32];

	draw_scene_line(st, cv, 0);
	if (se->elapsed >= 0) {
		clock_text(t1, sizeof t1, se->elapsed);
		if (l->minutes > 0) {
			double left = l->minutes * 60 - se->elapsed;
			clock_text(t2, sizeof t2, left < 0 ? -left : left);
			snprintf(b, sizeof b, "%s elapsed · %s %s (%g min planned)", t1,
			    t2, left < 0 ? "over" : "left", l->minutes);
		} else {
			snprintf(b, sizeof b, "%s elapsed", t1);
		}
		/* time over: in the warning color */
		bool over = l->minutes > 0 && se->elapsed > l->minutes * 60;
		pe_canvas_text_fit(cv, 1, y++, w - 2, b, over ? C_WARN : C_ACCENT,
		    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	}
	if (se->blank)
		pe_canvas_text_fit(cv, 1, y++, w - 2, "the audience's screen is "
		    "blank (b or .); any key brings it back", C_WARN,
		    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	if (se->step + 1 < s->nsteps) {
		/* the next step's first line: what the next key reveals (its
		 * numbers are its view's, so "…" stands for them) */
		const char *t = s->steps[se->step + 1].caption;
		int o = snprintf(b, sizeof b, "next: step %zu/%zu of this scene%s",
		    se->step + 2, s->nsteps, *t ? ": " : "");
		for (; *t != '\0' && *t != '\n' && o + 4 < (int)sizeof b; t++) {
			const char *close = *t == '{' ? strchr(t, '}') : NULL;
			if (close != NULL) {
				o += snprintf(b + o, sizeof b - (size_t)o, "…");
				t = close;
			} else {
				b[o++] = *t;
			}
		}
		b[o] = '\0';
	}
	else if (se->scene + 1 < l->nscenes)
		snprintf(b, sizeof b, "next: %zu/%zu · %s", se->scene + 2,
		    l->nscenes, l->scenes[se->scene + 1].title);
	else
		snprintf(b, sizeof b, "next: the end of the lesson");
	pe_canvas_text_fit(cv, 1, y++, w - 2, b, C_DIM, PE_COLOR_DEFAULT, 0);
	y++;
	caption_wrap(L, s->notes[0] != '\0' ? s->notes : "(no notes for this "
	    "scene)", w - 2);
	caption_draw(cv, L, 1, y, w - 2, h - 2 - y, false);
	const char *bottom = st->status[0] != '\0' ? st->status : se->link;
	pe_canvas_text_fit(cv, 0, h - 1, w, bottom, st->status[0] != '\0' &&
	    !pe_state_status_is_note(st) ? C_WARN : C_DIM, PE_COLOR_DEFAULT, 0);
	return PE_OK;
}

/* The scene's notes in a box over the lower part of the frame (the i
 * key: one screen, no speaker's view). */
static void
notes_overlay(const struct pe_state *st, struct pe_canvas *cv,
    struct caption_lines *L)
{
	const struct pe_scene *s = scene_of(st);
	int bw = cv->w - 4;
	caption_wrap(L, s->notes[0] != '\0' ? s->notes : "(no notes for this "
	    "scene)", bw - 4);
	int bh = L->n + 2 < cv->h - 4 ? L->n + 2 : cv->h - 4;
	int x = 2, y = cv->h - bh - 1;
	/* the whole width of its lines: no word of the caption beside it */
	pe_canvas_fill(cv, 0, y, cv->w, bh, ' ', C_TEXT, PE_COLOR_DEFAULT);
	pe_canvas_box(cv, x, y, bw, bh, " notes (i hides them) ", C_ACCENT);
	caption_draw(cv, L, x + 2, y + 1, bw - 4, bh - 2, false);
}

/* See view_impl.h. */
int
view_lesson_frame(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit)
{
	struct caption_lines *L = malloc(sizeof *L); /* 32 KiB: not on the stack */
	char *text = malloc(16384);
	int w = cv->w, h = cv->h, rc = PE_OK;
	if (text == NULL || L == NULL) {
		free(text);
		free(L);
		return PE_ENOMEM;
	}
	if (st->session.speaker) {
		free(text);
		hit->tab_y = -1;
		rc = speaker_frame(st, cv, L);
		if (st->help)
			view_help(cv);
		free(L);
		return rc;
	}
	if (st->session.blank) {
		/* the audience's screen blanked: black, whatever the theme */
		for (int i = 0; i < w * h; i++)
			cv->cells[i].bg = PE_RGB(0, 0, 0), cv->cells[i].fg =
			    PE_RGB(0, 0, 0);
		hit->tab_y = -1;
		free(text);
		free(L);
		return PE_OK;
	}
	bool failed = pe_lesson_caption(st, m, text, 16384) != 0;
	caption_wrap(L, text, w - 2);
	free(text);
	draw_scene_line(st, cv, 0);

	const struct pe_scene *s = scene_of(st);
	/* the band is sized for the scene's whole caption from its first
	 * step on, so that the view neither shrinks nor moves as steps add
	 * lines */
	const struct pe_step *last = &s->steps[s->nsteps - 1];
	int lines = L->n;
	if (!s->text_only && !failed && last->shown != NULL) {
		struct caption_lines *W = malloc(sizeof *W);
		if (W != NULL) {
			caption_wrap(W, last->shown, w - 2);
			lines = W->n > lines ? W->n : lines;
			free(W);
		}
	}
	if (s->text_only) {
		/* the caption is the page; the status line stays */
		caption_draw(cv, L, 1, 2, w - 2, h - 3, failed);
		if (st->status[0] != '\0')
			pe_canvas_text_fit(cv, 0, h - 1, w, st->status,
			    pe_state_status_is_note(st) ? C_DIM : C_WARN,
			    PE_COLOR_DEFAULT, pe_state_status_is_note(st) ? 0 :
			    PE_ATTR_BOLD);
		hit->tab_y = -1;
		if (st->session.notes)
			notes_overlay(st, cv, L);
		if (st->help)
			view_help(cv);
		free(L);
		return PE_OK;
	}
	/* the band: a rule and the lines, as many as the view leaves (the
	 * presenter view's has no hints to lose: two rows more) */
	int most = h - 1 - PE_LESSON_VIEW_MIN_H + (st->session.present ? 2 : 0);
	int band = lines + 1 < most ? lines + 1 : most;
	if (st->session.caption_below)
		band = 0;
	int pane_h = h - 1 - band; /* rows of the view under the scene line */
	struct pe_canvas pane;
	if (pe_canvas_init(&pane, w, pane_h) != PE_OK) {
		free(L);
		return PE_ENOMEM;
	}
	pane.depth = cv->depth, pane.theme = cv->theme;
	/* the view without a tab bar (view_frame leaves it out in a lesson),
	 * a row down: the scene line stands above it; the scales and the
	 * panel's room the scene holds */
	pe_canvas_want_like(&pane, cv); /* its map's pixels come along */
	struct view_hold hold;
	struct pe_scale sc;
	scene_hold(st, &hold, &sc);
	rc = view_frame_held(st, m, &pane, hit, &hold);
	int bs = pe_canvas_blit(cv, 0, 1, &pane);
	if (rc == PE_OK)
		rc = bs;
	pe_canvas_free(&pane);
	hit->map_y += 1;
	hit->tab_y = -1; /* no tabs to click */
	int ry = 1 + pane_h;
	for (int x = 0; band > 0 && x < w; x++)
		pe_canvas_set(cv, x, ry, 0x2500, C_DIM, PE_COLOR_DEFAULT, 0);
	if (band > 0)
		caption_draw(cv, L, 1, ry + 1, w - 2, band - 1, failed);
	if (st->session.notes)
		notes_overlay(st, cv, L);
	if (st->help)
		view_help(cv);
	free(L);
	return rc;
}
