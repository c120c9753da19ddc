/* Private to the lesson files of app/: a lesson as read (lesson_read.c),
 * before its steps are built (lesson_build.c). */
#ifndef PESCOPE_APP_LESSON_IMPL_H
#define PESCOPE_APP_LESSON_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "view/lesson.h"

/* The built-in lessons (assets/lessons/, compiled in by tools/embed.sh). */
extern const struct pe_embedded {
	const char *name;
	const char *text;
} pe_lessons[];

/* One option line of a step. */
struct opt_line {
	char *key, *val; /* val NULL for a flag */
	int line;
};

/* A step as read: its option lines and caption. */
struct raw_step {
	struct opt_line *opts;
	size_t nopts;
	char *caption;
	size_t caption_len;
	int line, caption_line;
	bool has_caption;
	/* scene keys */
	int zoom;		/* zoom-in steps from the whole map */
	bool zoom_given, play, play_given;
	int speed;
};

struct raw_scene {
	char *title;
	int line;
	bool text_only;
	struct raw_step *steps;
	size_t nsteps;
	char *notes;
	size_t notes_len;
};

/* Write "lesson NAME, line N: ..." (line 0: no line) into err; returns
 * 2. */
int lesson_fail(char *err, size_t cap, const char *name, int line,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The option row called name (a long name), or -1. */
int lesson_option_id(const char *name);

/* Read a lesson's text into scenes (*out, *nout; free with
 * lesson_raw_free), its title and duration into l. 0, or 2 with the
 * message in err[cap]. */
int lesson_read(const char *name, const char *text, struct pe_lesson *l,
    struct raw_scene **out, size_t *nout, char *err, size_t cap);
void lesson_raw_free(struct raw_scene *sc, size_t n);

#endif
