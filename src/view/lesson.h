/* Lessons: a sequence of scenes, each a live view (a start state) with a
 * caption. The lesson player only sets state and draws a scene line and a
 * caption band around the frame; every key still works inside a scene.
 * The data is built by app/lesson_build.c from a lesson file; here are the
 * pieces the view and the keys need: the scenes, the placeholders a
 * caption quotes from the kernel, and the frame. */
#ifndef PESCOPE_VIEW_LESSON_H
#define PESCOPE_VIEW_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "render/draw.h"
#include "view/state.h"

/* One step of a scene: what the next-scene key reveals before it moves
 * on. Step 0 is the scene itself. */
struct pe_step {
	struct pe_state start; /* the view at this step (its own options on
				  top of the step before, when it has any) */
	bool sets_options;     /* the step changes the view (else only text
				  is revealed and the view is left as it is) */
	char *caption;	       /* this step's paragraphs (shown after the
				  earlier steps'), or "" */
	char *frozen;	       /* the caption filled for `start`, when a
				  later step changes the view; or NULL */
	int line;	       /* where the step starts in the file */
	/* what the scene holds across its steps (pe_lesson_measure_step) */
	char *shown;	       /* the last step of a scene of several: its
				  whole caption as it reads when the step is
				  reached, which the caption band is sized
				  for from the first step on; else NULL */
	bool measured;	       /* the ranges below are known */
	int kind;	       /* the main map's field (enum pe_field_kind) */
	struct pe_scale scale; /* the main map's scale */
	double sim_bound;      /* the score axis's range, 0: no score */
};

struct pe_scene {
	char *title;
	int line;	  /* the scene's first line in the file */
	bool text_only;	  /* layout = text: the caption fills the frame */
	bool panel_only;  /* the chosen panel fills the body: the scene is
			     about it, not about the main map */
	struct pe_step *steps;
	size_t nsteps;	  /* >= 1 */
	char *notes;	  /* for the speaker, or "" */
};

struct pe_lesson {
	char *name;	  /* "intro", or the file's path */
	char *title;
	double minutes;	  /* planned duration, 0 when not given */
	struct pe_scene *scenes;
	size_t nscenes;	  /* >= 1 */
};

/* Rows of caption text at most, for a frame h rows high. */
#define PE_LESSON_VIEW_MIN_H 15 /* the view's rows under a caption (no tab
				   bar there: the scene line stands above) */

/* Go to scene k (0-based), step `step` (clamped; SIZE_MAX: its last),
 * keeping the session (the lesson, the view mode). Returns enum pe_action
 * bits. */
int pe_lesson_goto(struct pe_state *st, size_t k, size_t step);

/* The lesson keys: PgDn (next step, then next scene), PgUp (back a step,
 * then the previous scene's last step), Home and End (the first and the
 * last scene), r (the step's start again), b and . (blank the screen, as
 * a clicker's blank key; any key brings it back), R (the clock starts
 * again), i (the notes). Returns -1 when key is none of them or no
 * lesson runs. */
int pe_lesson_key(struct pe_state *st, int key);

/* A placeholder's name and argument ("sum", "5") is one a caption may use
 * with encoding enc: 0, or 2 with the reason in why[cap]. */
int pe_lesson_placeholder_check(const char *name, const char *arg,
    enum pe_encoding enc, char *why, size_t cap);

/* Each placeholder's name, argument and meaning, one per line (docs/lessons.md and
 * `pescope lesson --placeholders`). */
void pe_lesson_placeholders(char *buf, size_t cap);

/* Fill, once, step t's caption for its own start state (pe_step.frozen),
 * when a later step of its scene changes the view, whose numbers the
 * caption would then contradict. PE_OK or PE_ENOMEM. */
int pe_lesson_freeze_step(struct pe_step *t);

/* Measure step `step` of scene k of a lesson being built (its steps up
 * to this one are): the ranges its view draws, and for a scene's last
 * step its whole caption (pe_step.shown), so that the frame holds them
 * across the scene. PE_OK or PE_ENOMEM. */
int pe_lesson_measure_step(struct pe_lesson *l, size_t k, size_t step);

/* The parameters of the view on screen that its scene's step did not
 * set (the keys changed them), by name, ", " between ("base, seq_len"),
 * into buf[cap]; "" when none. */
void pe_lesson_changes(const struct pe_state *st, char *buf, size_t cap);

struct pe_model;
/* The caption text of st's scene up to its current step, with every
 * {placeholder} filled from the kernel for st and m, into buf[cap].
 * Paragraphs are separated by "\n\n"; a line that starts with a space is
 * kept as it is. Returns 0, or 2 with a placeholder's problem in buf. */
int pe_lesson_caption(const struct pe_state *st, const struct pe_model *m,
    char *buf, size_t cap);

#endif
