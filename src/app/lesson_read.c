/* Reading a lesson's text into scenes of steps, each with its option
 * lines and caption (app/lesson_build.c builds the steps' states).
 *
 * The format (docs/lessons.md, "Writing a lesson"):
 *   title = ...                  before the first scene
 *   duration = MINUTES           (optional)
 *   [scene] TITLE                a scene; option = value lines follow
 *   [caption]                    text: paragraphs, {placeholders}
 *   [pause]                      a new step: its option lines, [caption]
 *   [notes]                      for the speaker
 * Scene keys besides the options: zoom = K, play, speed = N,
 * text-only, panel-only. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/lesson_impl.h"
#include "app/options.h"
#include "app/options_table.h"

/* Write "lesson NAME, line N: ..." into err; returns 2. */
int
lesson_fail(char *err, size_t cap, const char *name, int line, const char *fmt,
    ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(err, cap, "lesson %s, line %d: %s", name, line, msg);
	else
		snprintf(err, cap, "lesson %s: %s", name, msg);
	return 2;
}

/* Room for want elements of size bytes in arr, which has room for *cap:
 * arr itself, or arr grown (doubling, so that filling it one element at
 * a time costs linear time), or NULL when memory runs out (arr is kept
 * then). */
static void *
grow(void *arr, size_t *cap, size_t want, size_t size)
{
	size_t n = *cap > 0 ? *cap : 4;
	void *p;

	if (want <= *cap)
		return arr;
	while (n < want)
		n *= 2;
	if ((p = realloc(arr, n * size)) == NULL)
		return NULL;
	*cap = n;
	return p;
}

/* Append n bytes and a newline to a growing text of *len bytes, room
 * for *cap. */
static int
append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	char *b = grow(*buf, cap, *len + n + 2, 1);
	if (b == NULL)
		return PE_ENOMEM;
	memcpy(b + *len, s, n);
	*len += n;
	b[(*len)++] = '\n';
	b[*len] = '\0';
	*buf = b;
	return PE_OK;
}

/* Drop trailing newlines and blank lines of a text. */
static void
trim_text(char *s, size_t *len)
{
	if (s == NULL)
		return;
	while (*len > 0 && (s[*len - 1] == '\n' || s[*len - 1] == ' '))
		s[--*len] = '\0';
}

/* Free scenes as read. */
void
lesson_raw_free(struct raw_scene *sc, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < sc[i].nsteps; k++) {
			struct raw_step *t = &sc[i].steps[k];
			for (size_t j = 0; j < t->nopts; j++) {
				free(t->opts[j].key);
				free(t->opts[j].val);
			}
			free(t->opts);
			free(t->caption);
		}
		free(sc[i].steps);
		free(sc[i].title);
		free(sc[i].notes);
	}
	free(sc);
}

/* Whether a scene may set option row id: the config, a model (preset,
 * config: a file relative to the lesson's), and the view's cursor,
 * panel, values and head (not where the frame goes). */
static bool
scene_option(int id)
{
	return opt_is_config(id) || opt_is_model(id) ||
	    id == O_CURSOR || id == O_PANEL || id == O_VALUES || id == O_HEAD;
}

/* The option row called name (a long name), or -1. */
int
lesson_option_id(const char *name)
{
	for (int i = 0; i < O_COUNT; i++)
		if (strcmp(pe_opts[i].name, name) == 0)
			return i;
	return -1;
}

/* Parse an integer in [lo, hi]. */
static bool
int_in(const char *s, int lo, int hi, int *dest)
{
	char *end;
	if (s == NULL || *s == '\0')
		return false;
	long v = strtol(s, &end, 10);
	if (*end != '\0' || v < lo || v > hi)
		return false;
	*dest = (int)v;
	return true;
}

/* One option line of a step: a scene key, or an option a scene may
 * set. */
static int
step_line(struct raw_step *t, const char *key, const char *val, int line,
    const char *name, char *err, size_t cap)
{
	if (strcmp(key, "zoom") == 0) {
		if (!int_in(val, 0, 30, &t->zoom))
			return lesson_fail(err, cap, name, line, "zoom '%s': must be an "
			    "integer in 0..30 (zoom-in steps around the cursor)",
			    val ? val : "");
		t->zoom_given = true;
		return 0;
	}
	if (strcmp(key, "play") == 0) {
		if (val != NULL && strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
			return lesson_fail(err, cap, name, line, "play '%s': must be on "
			    "or off (or play alone)", val);
		t->play = val == NULL || strcmp(val, "on") == 0;
		t->play_given = true;
		return 0;
	}
	if (strcmp(key, "speed") == 0) {
		if (!int_in(val, 1, 64, &t->speed))
			return lesson_fail(err, cap, name, line, "speed '%s': must be an "
			    "integer in 1..64 (steps per second)", val ? val : "");
		return 0;
	}
	int id = lesson_option_id(key);
	if (id < 0)
		return lesson_fail(err, cap, name, line, "'%s' is not an option; a scene "
		    "sets options (name = value, as --name value), zoom, play, "
		    "speed, text-only and panel-only", key);
	if (!scene_option(id))
		return lesson_fail(err, cap, name, line, "'%s' is not an option a scene "
		    "sets (it says where the frame goes: give it on the command "
		    "line)", key);
	if (pe_opts[id].arg && (val == NULL || *val == '\0'))
		return lesson_fail(err, cap, name, line, "'%s' needs a value", key);
	if (!pe_opts[id].arg && val != NULL)
		return lesson_fail(err, cap, name, line, "'%s' takes no value", key);
	struct opt_line *o = grow(t->opts, &t->opts_cap, t->nopts + 1,
	    sizeof *o);
	if (o == NULL)
		return lesson_fail(err, cap, name, 0, "out of memory");
	t->opts = o;
	o[t->nopts].key = strdup(key);
	o[t->nopts].val = val != NULL ? strdup(val) : NULL;
	o[t->nopts].id = id;
	o[t->nopts].line = line;
	t->nopts++;
	return 0;
}

enum mode { M_HEAD, M_OPTS, M_CAPTION, M_NOTES };

/* A lesson being read, a line at a time. */
struct reader {
	const char *name;	/* for messages */
	struct pe_lesson *l;	/* its title and duration */
	struct raw_scene *sc;	/* the scenes so far */
	size_t n, sc_cap;
	size_t steps;		/* the steps so far, of every scene */
	enum mode mode;		/* what the next text line is */
	int line;		/* the line being read */
	char *err;
	size_t cap;
};

/* The scene being read and its last step (NULL before the first). */
static struct raw_scene *
cur_scene(struct reader *R)
{
	return R->n > 0 ? &R->sc[R->n - 1] : NULL;
}

static struct raw_step *
cur_step(struct reader *R)
{
	struct raw_scene *c = cur_scene(R);
	return c != NULL ? &c->steps[c->nsteps - 1] : NULL;
}

/* Start a new step in scene sc at the line read: 0, or 2 past a lesson's
 * last step (LESSON_MAX_STEPS) or when memory runs out. */
static int
new_step(struct reader *R, struct raw_scene *sc)
{
	if (R->steps == LESSON_MAX_STEPS)
		return lesson_fail(R->err, R->cap, R->name, R->line, "a lesson "
		    "has at most %d steps (its scenes and their [pause]s), and "
		    "this is one more", LESSON_MAX_STEPS);
	struct raw_step *s = grow(sc->steps, &sc->steps_cap, sc->nsteps + 1,
	    sizeof *s);
	if (s == NULL)
		return lesson_fail(R->err, R->cap, R->name, 0, "out of memory");
	sc->steps = s;
	memset(&s[sc->nsteps], 0, sizeof s[0]);
	s[sc->nsteps++].line = R->line;
	R->steps++;
	return 0;
}

/* "[scene] TITLE": a new scene with its first step. */
static int
scene_start(struct reader *R, const char *title)
{
	if (*title == '\0')
		return lesson_fail(R->err, R->cap, R->name, R->line, "[scene] needs a "
		    "title after it: [scene] TITLE");
	if (strchr(title, '{') != NULL)
		return lesson_fail(R->err, R->cap, R->name, R->line, "a scene's title "
		    "is fixed text: {placeholders} go in its [caption]");
	struct raw_scene *s2 = grow(R->sc, &R->sc_cap, R->n + 1, sizeof *s2);
	if (s2 == NULL)
		return lesson_fail(R->err, R->cap, R->name, 0, "out of memory");
	R->sc = s2;
	struct raw_scene *c = &R->sc[R->n++];
	memset(c, 0, sizeof *c);
	c->title = strdup(title);
	c->line = R->line;
	R->mode = M_OPTS;
	if (c->title == NULL)
		return lesson_fail(R->err, R->cap, R->name, 0, "out of memory");
	return new_step(R, c);
}

/* A section line "[NAME] rest". */
static int
section(struct reader *R, char *line)
{
	char *close = strchr(line, ']');
	char sect[32] = "";
	if (close != NULL && close - line < 30)
		snprintf(sect, sizeof sect, "%.*s", (int)(close - line - 1),
		    line + 1);
	char *rest = close != NULL ? pe_options_trim(close + 1) : line;
	if (strcmp(sect, "scene") == 0)
		return scene_start(R, rest);
	if (strcmp(sect, "caption") != 0 && strcmp(sect, "pause") != 0 &&
	    strcmp(sect, "notes") != 0)
		return lesson_fail(R->err, R->cap, R->name, R->line, "unknown section "
		    "'%s'; the sections are [scene] TITLE, [caption], [pause] "
		    "and [notes] (a text line starting with [ is written \\[)",
		    line);
	struct raw_scene *c = cur_scene(R);
	struct raw_step *t = cur_step(R);
	if (c == NULL)
		return lesson_fail(R->err, R->cap, R->name, R->line, "[%s] before the "
		    "first [scene]", sect);
	if (*rest != '\0')
		return lesson_fail(R->err, R->cap, R->name, R->line, "[%s] takes "
		    "nothing after it on its line", sect);
	if (strcmp(sect, "caption") == 0) {
		if (t->has_caption)
			return lesson_fail(R->err, R->cap, R->name, R->line, "a second "
			    "[caption] in one step; [pause] starts the next step");
		t->has_caption = true;
		t->caption_line = R->line;
		R->mode = M_CAPTION;
		return 0;
	}
	if (strcmp(sect, "pause") == 0) {
		R->mode = M_OPTS;
		return new_step(R, c);
	}
	if (c->notes != NULL)
		return lesson_fail(R->err, R->cap, R->name, R->line, "a second [notes] "
		    "in one scene");
	R->mode = M_NOTES;
	return (c->notes = strdup("")) != NULL ? 0
	    : lesson_fail(R->err, R->cap, R->name, 0, "out of memory");
}

/* A line of a caption or of notes ("\[" starts one with a bracket). */
static int
text_line(struct reader *R, const char *line)
{
	const char *t = line[0] == '\\' && line[1] == '[' ? line + 1 : line;
	struct raw_step *st = cur_step(R);
	struct raw_scene *c = cur_scene(R);
	bool caption = R->mode == M_CAPTION;
	char **buf = caption ? &st->caption : &c->notes;
	size_t *bl = caption ? &st->caption_len : &c->notes_len;
	size_t *bc = caption ? &st->caption_cap : &c->notes_cap;
	if ((*buf == NULL || **buf == '\0') && *t == '\0')
		return 0; /* blank lines before the text */
	if (*buf == NULL && caption)
		st->caption_line = R->line - 1; /* its first line's */
	if (append(buf, bl, bc, t, strlen(t)) != PE_OK)
		return lesson_fail(R->err, R->cap, R->name, 0, "out of memory");
	return 0;
}

/* Before the first scene: title = ..., duration = MINUTES. */
static int
head_line(struct reader *R, const char *key, const char *val)
{
	int m;
	if (strcmp(key, "title") == 0 && val != NULL && *val != '\0') {
		free(R->l->title);
		R->l->title = strdup(val);
		return 0;
	}
	if (strcmp(key, "duration") != 0)
		return lesson_fail(R->err, R->cap, R->name, R->line, "'%s' before the "
		    "first [scene]: only title = ... and duration = MINUTES go "
		    "there", key);
	if (!int_in(val, 1, 1000, &m))
		return lesson_fail(R->err, R->cap, R->name, R->line, "duration '%s': "
		    "must be minutes, an integer in 1..1000", val ? val : "");
	R->l->minutes = m;
	return 0;
}

/* An option line of a scene's step (text-only: of its first step only). */
static int
option_line(struct reader *R, const char *key, const char *val)
{
	struct raw_scene *c = cur_scene(R);
	struct raw_step *st = cur_step(R);
	if (strcmp(key, "text-only") == 0 || strcmp(key, "panel-only") == 0) {
		if (c->nsteps > 1 || val != NULL)
			return lesson_fail(R->err, R->cap, R->name, R->line, "%s "
			    "takes no value and stands in a scene's first step", key);
		if (key[0] == 't')
			c->text_only = true;
		else
			c->panel_only = true;
		return 0;
	}
	if (st->has_caption)
		return lesson_fail(R->err, R->cap, R->name, R->line, "'%s' after the "
		    "caption: a step's options come before its [caption]", key);
	return step_line(st, key, val, R->line, R->name, R->err, R->cap);
}

/* One line of the lesson. */
static int
lesson_line(struct reader *R, char *line)
{
	char *key, *val;
	if (line[0] == '[')
		return section(R, line);
	if (R->mode == M_CAPTION || R->mode == M_NOTES)
		return text_line(R, line);
	if (!pe_options_line(line, &key, &val))
		return 0;
	return R->mode == M_HEAD ? head_line(R, key, val)
				 : option_line(R, key, val);
}

/* Read a lesson's text into scenes. */
int
lesson_read(const char *name, const char *text, struct pe_lesson *l,
    struct raw_scene **out, size_t *nout, char *err, size_t cap)
{
	struct reader R = {.name = name, .l = l, .mode = M_HEAD, .err = err,
		.cap = cap};
	const char *p = text;
	size_t size = strlen(text);
	if (size > LESSON_MAX_BYTES)
		return lesson_fail(err, cap, name, 0, "%zu bytes; a lesson is "
		    "at most 1 MiB", size);
	if (strncmp(p, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte order mark */
		p += 3;
	char line[4096];
	int rc = 0;

	while (*p != '\0' && rc == 0) {
		size_t len = strcspn(p, "\n");
		R.line++;
		if (len >= sizeof line) {
			rc = lesson_fail(err, cap, name, R.line, "the line is longer than "
			    "%zu bytes", sizeof line - 1);
			break;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (p[len] == '\n');
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		rc = lesson_line(&R, line);
	}
	if (rc == 0 && R.n == 0)
		rc = lesson_fail(err, cap, name, 0, "no scene: a lesson has at least "
		    "one [scene] TITLE");
	for (size_t i = 0; rc == 0 && i < R.n; i++) {
		struct raw_scene *c = &R.sc[i];
		for (size_t k = 0; k < c->nsteps; k++)
			trim_text(c->steps[k].caption, &c->steps[k].caption_len);
		trim_text(c->notes, &c->notes_len);
	}
	if (rc != 0) {
		lesson_raw_free(R.sc, R.n);
		return rc;
	}
	*out = R.sc;
	*nout = R.n;
	return 0;
}
