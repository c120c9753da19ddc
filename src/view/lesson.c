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
	const struct pe_lesson *l = st->session.lesson;
	if (l == NULL || l->nscenes == 0)
		return PE_ACT_NONE;
	if (k >= l->nscenes)
		k = l->nscenes - 1;
	const struct pe_scene *s = &l->scenes[k];
	if (step >= s->nsteps)
		step = s->nsteps - 1;
	struct pe_session keep = st->session;
	*st = s->steps[step].start;
	st->session = keep;
	st->session.scene = k;
	st->session.step = step;
	st->status[0] = '\0';
	return PE_ACT_REDRAW | PE_ACT_REBUILD;
}

/* Reveal step `step` of the current scene: a step with options of its own
 * installs its view, one without only shows its text. */
static int
lesson_step(struct pe_state *st, size_t step, bool install)
{
	if (install)
		return pe_lesson_goto(st, st->session.scene, step);
	st->session.step = step;
	return PE_ACT_REDRAW;
}

/* The lesson keys; see lesson.h. */
int
pe_lesson_key(struct pe_state *st, int key)
{
	struct pe_session *se = &st->session;
	const struct pe_lesson *l = se->lesson;
	if (l == NULL)
		return -1;
	const struct pe_scene *s = &l->scenes[se->scene];
	switch (key) {
	case PE_KEY_PGDN:
		if (se->step + 1 < s->nsteps)
			return lesson_step(st, se->step + 1,
			    s->steps[se->step + 1].sets_options);
		if (se->scene + 1 >= l->nscenes) {
			pe_state_status(st, "the last scene; PgUp goes back, q quits");
			return PE_ACT_REDRAW;
		}
		return pe_lesson_goto(st, se->scene + 1, 0);
	case PE_KEY_PGUP:
		if (se->step > 0) {
			/* back to the step before: its view again when the step
			 * being left changed it */
			bool install = s->steps[se->step].sets_options;
			return lesson_step(st, se->step - 1, install);
		}
		if (se->scene == 0) {
			pe_state_status(st, "the first scene; PgDn goes on");
			return PE_ACT_REDRAW;
		}
		return pe_lesson_goto(st, se->scene - 1, SIZE_MAX);
	case 'r': {
		int act = pe_lesson_goto(st, se->scene, se->step);
		pe_state_status(st, "scene %zu reset", se->scene + 1);
		return act;
	}
	case PE_KEY_HOME: /* the first scene, the last */
	case PE_KEY_END:
		return pe_lesson_goto(st, key == PE_KEY_HOME ? 0
		    : l->nscenes - 1, 0);
	case 'b': /* a clicker's blank key (and PowerPoint's) */
	case '.':
		se->blank = true;
		return PE_ACT_REDRAW;
	case 'R':
		se->clock_reset = true;
		pe_state_status(st, "the clock starts again");
		return PE_ACT_REDRAW;
	case 'i':
		se->notes = !se->notes;
		if (se->notes && s->notes[0] == '\0')
			pe_state_status(st, "scene %zu has no notes",
			    se->scene + 1);
		return PE_ACT_REDRAW;
	}
	return -1;
}
