/* Lessons in the view: stepping scenes and steps (the keys). The
 * lesson's data comes from app/lesson_build.c; the placeholders are in
 * placeholder.c, the frames in lesson_frame.c. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "view/lesson.h"

/* ---- stepping --------------------------------------------------------- */

/* Install step `step` of scene k, keeping the session. */
int
pe_lesson_goto(struct pe_state *st, size_t k, size_t step)
{
	const struct pe_lesson *l = st->lesson;
	if (l == NULL || l->nscenes == 0)
		return PE_ACT_NONE;
	if (k >= l->nscenes)
		k = l->nscenes - 1;
	const struct pe_scene *s = &l->scenes[k];
	if (step >= s->nsteps)
		step = s->nsteps - 1;
	struct pe_state keep = *st;
	*st = s->steps[step].start;
	st->lesson = keep.lesson;
	st->scene = k;
	st->step = step;
	st->speaker = keep.speaker;
	st->present = keep.present;
	st->no_chrome = keep.no_chrome;
	st->notes = keep.notes;
	st->caption_below = keep.caption_below;
	st->elapsed = keep.elapsed;
	memcpy(st->link, keep.link, sizeof st->link);
	st->status[0] = '\0';
	return PE_ACT_REDRAW | PE_ACT_REBUILD;
}

/* Reveal step `step` of the current scene: a step with options of its own
 * installs its view, one without only shows its text. */
static int
lesson_step(struct pe_state *st, size_t step, bool install)
{
	if (install)
		return pe_lesson_goto(st, st->scene, step);
	st->step = step;
	return PE_ACT_REDRAW;
}

/* The lesson keys; see lesson.h. */
int
pe_lesson_key(struct pe_state *st, int key)
{
	const struct pe_lesson *l = st->lesson;
	if (l == NULL)
		return -1;
	const struct pe_scene *s = &l->scenes[st->scene];
	switch (key) {
	case PE_KEY_PGDN:
		if (st->step + 1 < s->nsteps)
			return lesson_step(st, st->step + 1,
			    s->steps[st->step + 1].sets_options);
		if (st->scene + 1 >= l->nscenes) {
			pe_state_status(st, "the last scene; PgUp goes back, q quits");
			return PE_ACT_REDRAW;
		}
		return pe_lesson_goto(st, st->scene + 1, 0);
	case PE_KEY_PGUP:
		if (st->step > 0) {
			/* back to the step before: its view again when the step
			 * being left changed it */
			bool install = s->steps[st->step].sets_options;
			return lesson_step(st, st->step - 1, install);
		}
		if (st->scene == 0) {
			pe_state_status(st, "the first scene; PgDn goes on");
			return PE_ACT_REDRAW;
		}
		return pe_lesson_goto(st, st->scene - 1, SIZE_MAX);
	case 'r': {
		int act = pe_lesson_goto(st, st->scene, st->step);
		pe_state_status(st, "scene %zu reset", st->scene + 1);
		return act;
	}
	case 'i':
		st->notes = !st->notes;
		if (st->notes && s->notes[0] == '\0')
			pe_state_status(st, "scene %zu has no notes", st->scene + 1);
		return PE_ACT_REDRAW;
	}
	return -1;
}
