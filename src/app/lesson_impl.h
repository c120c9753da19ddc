/* Private to the lesson files of app/: a lesson as read (lesson_read.c),
 * before its steps are built (lesson_build.c). */
#ifndef PESCOPE_APP_LESSON_IMPL_H
#define PESCOPE_APP_LESSON_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "view/lesson.h"

/* A lesson is at most this long and has at most this many steps (its
 * scenes' first steps and their [pause]s): a larger one is refused with
 * the bound, so loading one costs at most a fraction of a second. */
#define LESSON_MAX_BYTES ((size_t)1 << 20)
#define LESSON_MAX_STEPS 1000

/* The built-in lessons (assets/lessons/, compiled in by tools/embed.sh). */
extern const struct pe_embedded {
	const char *name;
	const char *text;
} pe_lessons[];

/* One option line of a step. */
struct opt_line {
	char *key, *val; /* val NULL for a flag */
	int id;		 /* its option row (options_table.h) */
	int line;
};

/* A step as read: its option lines and caption. */
struct raw_step {
	struct opt_line *opts;
	size_t nopts, opts_cap;
	char *caption;
	size_t caption_len, caption_cap;
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
	bool text_only, panel_only;
	struct raw_step *steps;
	size_t nsteps, steps_cap;
	char *notes;
	size_t notes_len, notes_cap;
};

/* Write "lesson NAME, line N: ..." (line 0: no line) into err; returns
 * 2. */
int lesson_fail(char *err, size_t cap, const char *name, int line,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The option row called name (a long name), or -1. */
int lesson_option_id(const char *name);

/* Read a lesson's text (at most LESSON_MAX_BYTES, LESSON_MAX_STEPS) into
 * scenes (*out, *nout; free with lesson_raw_free), its title and duration
 * into l, in time linear in its length. 0, or 2 with the message in
 * err[cap]. */
int lesson_read(const char *name, const char *text, struct pe_lesson *l,
    struct raw_scene **out, size_t *nout, char *err, size_t cap);
void lesson_raw_free(struct raw_scene *sc, size_t n);

/* Where a lesson was left (lesson_place.c): the scene and step kept for
 * the lesson called key (a built-in's name, a lesson file's path) in the
 * user's state folder ($XDG_STATE_HOME/pescope, else
 * ~/.local/state/pescope). load: true with them in *scene, *step when one
 * is kept and the lesson l still has it (the scene found by its title
 * when scenes moved); save: PE_OK, or why not (no state folder: PE_EINVAL,
 * PE_EIO). */
bool lesson_place_load(const struct pe_lesson *l, const char *key,
    size_t *scene, size_t *step);
int lesson_place_save(const struct pe_lesson *l, const char *key,
    size_t scene, size_t step);

#endif
