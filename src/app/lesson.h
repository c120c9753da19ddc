/* Lessons read from text (app/lesson_read.c, lesson_build.c): the view's
 * data (view/lesson.h) and the options each step's state points into;
 * lesson_live.c runs one, lesson_export.c writes its snapshots. */
#ifndef PESCOPE_APP_LESSON_H
#define PESCOPE_APP_LESSON_H

#include "app/options.h"
#include "view/lesson.h"

struct pe_app_lesson {
	struct pe_lesson l;
	struct pe_options *opts; /* one per step, in scene order: they own
				    the buffers the steps' configs use */
	size_t nopts;
};

/* Read a lesson's text (name for messages; file, when it came from one,
 * for the paths of file options in it). Returns 0, or 2 with "lesson
 * NAME, line N: ..." in err[cap]. Call pe_app_lesson_free either way. */
int pe_app_lesson_parse(struct pe_app_lesson *al, const char *name,
    const char *file, const char *text, char *err, size_t cap);
/* The lesson o asks for: --lesson-file, --lesson, else intro. */
int pe_app_lesson_load(struct pe_app_lesson *al, const struct pe_options *o,
    char *err, size_t cap);
void pe_app_lesson_free(struct pe_app_lesson *al);

/* The scene (from 0) and step --scene asks for into *k, *step (0, 0
 * without it): 0, or 2 with a message in err[cap] when the lesson has no
 * such scene or step. */
int pe_app_lesson_scene(const struct pe_options *o, const struct pe_lesson *l,
    size_t *k, size_t *step, char *err, size_t cap);
/* The state at scene k, step `step` of a loaded lesson, in o's view mode
 * (--present, --no-chrome). */
void pe_app_lesson_state(const struct pe_app_lesson *al, size_t k,
    size_t step, const struct pe_options *o, struct pe_state *st);

#endif
