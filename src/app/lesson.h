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
/* A lesson file's text (at most 1 MiB, no NUL byte) into *text (free
 * it): 0, or 2 with the message in err[cap]. live: for a running lesson,
 * which must never wait on a file: a regular file only, opened
 * non-blocking (else pipes are read too). */
int pe_app_lesson_read(const char *path, bool live, char **text, char *err,
    size_t cap);
/* A lesson built a step at a time, so that a running lesson reloads its
 * file between frames: pe_app_lesson_begin reads the text (0, or 2 with
 * "lesson NAME, line N: ..."), pe_app_lesson_work builds steps until the
 * lesson is whole (0) or the clock (pe_clock_ms) reaches until (1: more
 * to build; until < 0: no limit), or 2 with the message;
 * pe_app_lesson_take moves the whole lesson into *al, pe_app_lesson_drop
 * gives a build up. Both free the build. pe_app_lesson_parse is all
 * four. */
struct pe_lesson_build;
int pe_app_lesson_begin(struct pe_lesson_build **B, const char *name,
    const char *file, const char *text, char *err, size_t cap);
int pe_app_lesson_work(struct pe_lesson_build *B, long long until, char *err,
    size_t cap);
void pe_app_lesson_take(struct pe_lesson_build *B, struct pe_app_lesson *al);
void pe_app_lesson_drop(struct pe_lesson_build *B);

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

/* A running lesson (lesson_live.c): the lesson shown, the live reload
 * of its file, the link to the other instance, the speaker's clock. */
struct pe_lesson_session;
/* Load o's lesson into a new session (*S) and its state at --scene into
 * *st. 0, or 2 with the message in err[cap] (*S is NULL then). */
int pe_lesson_session_open(struct pe_lesson_session **S,
    const struct pe_options *o, struct pe_state *st, char *err, size_t cap);
/* Between frames (struct pe_tui_hooks' poll; arg is the session): read the
 * lesson file again when it changed, follow the link, move the clock.
 * Returns enum pe_action bits. */
int pe_lesson_session_poll(void *arg, struct pe_state *st);
/* End the session: the link closed, its lessons freed. */
void pe_lesson_session_close(struct pe_lesson_session *S);

#endif
