/* The lesson's frames: the audience's (a scene line, the view drawn one
 * row taller with its tab bar left out, the caption band) and the
 * speaker's (notes, what comes next, the clock). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/caption.h"
#include "view/lesson.h"
#include "view/view_impl.h"

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

	snprintf(head, sizeof head, " %zu/%zu · %s ", se->scene + 1,
	    l->nscenes, s->title);
	int x = pe_canvas_text_fit(cv, 0, y, cv->w, head, PE_RGB(0, 0, 0),
	    C_ACCENT, PE_ATTR_BOLD);
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
		pe_canvas_text_fit(cv, 1, y++, w - 2, b, C_ACCENT, PE_COLOR_DEFAULT,
		    PE_ATTR_BOLD);
	}
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
	pe_canvas_text_fit(cv, 0, h - 1, w, bottom, st->status[0] != '\0'
	    ? C_WARN : C_DIM, PE_COLOR_DEFAULT, 0);
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
	pe_canvas_fill(cv, x, y, bw, bh, ' ', C_TEXT, PE_COLOR_DEFAULT);
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
	bool failed = pe_lesson_caption(st, m, text, 16384) != 0;
	caption_wrap(L, text, w - 2);
	free(text);
	draw_scene_line(st, cv, 0);

	const struct pe_scene *s = scene_of(st);
	if (s->text_only) {
		/* the caption is the page; the status line stays */
		caption_draw(cv, L, 1, 2, w - 2, h - 3, failed);
		if (st->status[0] != '\0')
			pe_canvas_text_fit(cv, 0, h - 1, w, st->status, C_WARN,
			    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
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
	int band = L->n + 1 < most ? L->n + 1 : most;
	if (st->session.caption_below)
		band = 0;
	int pane_h = h - 1 - band; /* rows of the view under the scene line */
	struct pe_canvas pane;
	if (pe_canvas_init(&pane, w, pane_h) != PE_OK) {
		free(L);
		return PE_ENOMEM;
	}
	/* the view without a tab bar (view_frame leaves it out in a lesson),
	 * a row down: the scene line stands above it */
	pe_canvas_want_like(&pane, cv); /* its map's pixels come along */
	rc = view_frame(st, m, &pane, hit);
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
