/* Lessons: reading a lesson file into scenes (each step's options go
 * through the command line's own parser, so a scene can set anything a
 * command line can and is refused what a command line would be), the
 * `pescope lesson` command and `snapshot --lesson`.
 *
 * The format (README, "Writing a lesson"):
 *   title = ...                  before the first scene
 *   duration = MINUTES           (optional)
 *   [scene] TITLE                a scene; option = value lines follow
 *   [caption]                    text: paragraphs, {placeholders}
 *   [pause]                      a new step: its option lines, [caption]
 *   [notes]                      for the speaker
 * Scene keys besides the options: zoom = K, play, speed = N,
 * text-only. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "app/lesson.h"
#include "app/options_table.h"
#include "io/io.h"
#include "render/pdf.h"
#include "render/writer.h"
#include "tui/tui.h"
#include "view/lesson.h"
#include "view/view.h"

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

/* Write "NAME, line N: ..." into err; returns 2. */
static int __attribute__((format(printf, 5, 6)))
lfail(char *err, size_t cap, const char *name, int line, const char *fmt,
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

/* Append len bytes and a newline to a growing text. */
static int
append(char **buf, size_t *len, const char *s, size_t n)
{
	char *b = realloc(*buf, *len + n + 2);
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

static void
free_raw(struct raw_scene *sc, size_t n)
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

/* Whether a scene may set option row id: the config, a preset, and the
 * view's cursor, panel, values and head (not where the frame goes). */
static bool
scene_option(int id)
{
	return pe_opts[id].encs != 0 || id == O_PRESET || id == O_PRESET_FILE ||
	    id == O_CURSOR || id == O_PANEL || id == O_VALUES || id == O_HEAD;
}

/* The option row called name (a long name), or -1. */
static int
option_id(const char *name)
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
			return lfail(err, cap, name, line, "zoom '%s': must be an "
			    "integer in 0..30 (zoom-in steps around the cursor)",
			    val ? val : "");
		t->zoom_given = true;
		return 0;
	}
	if (strcmp(key, "play") == 0) {
		if (val != NULL && strcmp(val, "on") != 0 && strcmp(val, "off") != 0)
			return lfail(err, cap, name, line, "play '%s': must be on "
			    "or off (or play alone)", val);
		t->play = val == NULL || strcmp(val, "on") == 0;
		t->play_given = true;
		return 0;
	}
	if (strcmp(key, "speed") == 0) {
		if (!int_in(val, 1, 64, &t->speed))
			return lfail(err, cap, name, line, "speed '%s': must be an "
			    "integer in 1..64 (steps per second)", val ? val : "");
		return 0;
	}
	int id = option_id(key);
	if (id < 0)
		return lfail(err, cap, name, line, "'%s' is not an option; a scene "
		    "sets options (as in a preset: name = value), zoom, play, "
		    "speed and text-only", key);
	if (!scene_option(id))
		return lfail(err, cap, name, line, "'%s' is not an option a scene "
		    "sets (it says where the frame goes: give it on the command "
		    "line)", key);
	if (pe_opts[id].arg && (val == NULL || *val == '\0'))
		return lfail(err, cap, name, line, "'%s' needs a value", key);
	if (!pe_opts[id].arg && val != NULL)
		return lfail(err, cap, name, line, "'%s' takes no value", key);
	struct opt_line *o = realloc(t->opts, (t->nopts + 1) * sizeof *o);
	if (o == NULL)
		return lfail(err, cap, name, 0, "out of memory");
	t->opts = o;
	o[t->nopts].key = strdup(key);
	o[t->nopts].val = val != NULL ? strdup(val) : NULL;
	o[t->nopts].line = line;
	t->nopts++;
	return 0;
}

/* Start a new step in scene sc at line. */
static struct raw_step *
new_step(struct raw_scene *sc, int line)
{
	struct raw_step *s = realloc(sc->steps, (sc->nsteps + 1) * sizeof *s);
	if (s == NULL)
		return NULL;
	sc->steps = s;
	memset(&s[sc->nsteps], 0, sizeof s[0]);
	s[sc->nsteps].line = line;
	return &s[sc->nsteps++];
}

enum mode { M_HEAD, M_OPTS, M_CAPTION, M_NOTES };

/* A lesson being read, a line at a time. */
struct reader {
	const char *name;	/* for messages */
	struct pe_lesson *l;	/* its title and duration */
	struct raw_scene *sc;	/* the scenes so far */
	size_t n;
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

/* "[scene] TITLE": a new scene with its first step. */
static int
scene_start(struct reader *R, const char *title)
{
	if (*title == '\0')
		return lfail(R->err, R->cap, R->name, R->line, "[scene] needs a "
		    "title after it: [scene] TITLE");
	if (strchr(title, '{') != NULL)
		return lfail(R->err, R->cap, R->name, R->line, "a scene's title "
		    "is fixed text: {placeholders} go in its [caption]");
	struct raw_scene *s2 = realloc(R->sc, (R->n + 1) * sizeof *s2);
	if (s2 == NULL)
		return lfail(R->err, R->cap, R->name, 0, "out of memory");
	R->sc = s2;
	struct raw_scene *c = &R->sc[R->n++];
	memset(c, 0, sizeof *c);
	c->title = strdup(title);
	c->line = R->line;
	R->mode = M_OPTS;
	if (c->title == NULL || new_step(c, R->line) == NULL)
		return lfail(R->err, R->cap, R->name, 0, "out of memory");
	return 0;
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
		return lfail(R->err, R->cap, R->name, R->line, "unknown section "
		    "'%s'; the sections are [scene] TITLE, [caption], [pause] "
		    "and [notes] (a text line starting with [ is written \\[)",
		    line);
	struct raw_scene *c = cur_scene(R);
	struct raw_step *t = cur_step(R);
	if (c == NULL)
		return lfail(R->err, R->cap, R->name, R->line, "[%s] before the "
		    "first [scene]", sect);
	if (*rest != '\0')
		return lfail(R->err, R->cap, R->name, R->line, "[%s] takes "
		    "nothing after it on its line", sect);
	if (strcmp(sect, "caption") == 0) {
		if (t->has_caption)
			return lfail(R->err, R->cap, R->name, R->line, "a second "
			    "[caption] in one step; [pause] starts the next step");
		t->has_caption = true;
		t->caption_line = R->line;
		R->mode = M_CAPTION;
		return 0;
	}
	if (strcmp(sect, "pause") == 0) {
		R->mode = M_OPTS;
		return new_step(c, R->line) != NULL ? 0
		    : lfail(R->err, R->cap, R->name, 0, "out of memory");
	}
	if (c->notes != NULL)
		return lfail(R->err, R->cap, R->name, R->line, "a second [notes] "
		    "in one scene");
	R->mode = M_NOTES;
	return (c->notes = strdup("")) != NULL ? 0
	    : lfail(R->err, R->cap, R->name, 0, "out of memory");
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
	if ((*buf == NULL || **buf == '\0') && *t == '\0')
		return 0; /* blank lines before the text */
	if (*buf == NULL && caption)
		st->caption_line = R->line - 1; /* its first line's */
	if (append(buf, bl, t, strlen(t)) != PE_OK)
		return lfail(R->err, R->cap, R->name, 0, "out of memory");
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
		return lfail(R->err, R->cap, R->name, R->line, "'%s' before the "
		    "first [scene]: only title = ... and duration = MINUTES go "
		    "there", key);
	if (!int_in(val, 1, 1000, &m))
		return lfail(R->err, R->cap, R->name, R->line, "duration '%s': "
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
	if (strcmp(key, "text-only") == 0) {
		if (c->nsteps > 1 || val != NULL)
			return lfail(R->err, R->cap, R->name, R->line, "text-only "
			    "takes no value and stands in a scene's first step");
		c->text_only = true;
		return 0;
	}
	if (st->has_caption)
		return lfail(R->err, R->cap, R->name, R->line, "'%s' after the "
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
static int
read_lesson(const char *name, const char *text, struct pe_lesson *l,
    struct raw_scene **out, size_t *nout, char *err, size_t cap)
{
	struct reader R = {name, l, NULL, 0, M_HEAD, 0, err, cap};
	const char *p = text;
	if (strncmp(p, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 byte order mark */
		p += 3;
	char line[4096];
	int rc = 0;

	while (*p != '\0' && rc == 0) {
		size_t len = strcspn(p, "\n");
		R.line++;
		if (len >= sizeof line) {
			rc = lfail(err, cap, name, R.line, "the line is longer than "
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
		rc = lfail(err, cap, name, 0, "no scene: a lesson has at least "
		    "one [scene] TITLE");
	for (size_t i = 0; rc == 0 && i < R.n; i++) {
		struct raw_scene *c = &R.sc[i];
		for (size_t k = 0; k < c->nsteps; k++)
			trim_text(c->steps[k].caption, &c->steps[k].caption_len);
		trim_text(c->notes, &c->notes_len);
	}
	if (rc != 0) {
		free_raw(R.sc, R.n);
		return rc;
	}
	*out = R.sc;
	*nout = R.n;
	return 0;
}

/* An option's value as the lesson means it: a file's path (a file
 * option's, or an @FILE list's) relative to the lesson file's folder. */
static char *
lesson_value(const char *file, int id, const char *val)
{
	const char *mv = pe_opts[id].metavar;
	bool list = mv != NULL && strstr(mv, "@FILE") != NULL;
	const char *path = list && val[0] == '@' ? val + 1 : val;
	if (file == NULL || !pe_opts[id].file || (list && val[0] != '@') ||
	    path[0] == '/' || strrchr(file, '/') == NULL)
		return strdup(val);
	int dir = (int)(strrchr(file, '/') - file);
	size_t n = (size_t)dir + strlen(path) + 3;
	char *s = malloc(n);
	if (s != NULL)
		snprintf(s, n, "%s%.*s/%s", path != val ? "@" : "", dir, file, path);
	return s;
}

/* The file line an option's message is about: the last line of the
 * steps' options whose name the message quotes as --NAME; else the
 * step's first line. */
static int
line_of(const struct raw_scene *sc, size_t upto, const char *msg)
{
	int best = sc->steps[upto].line;
	for (size_t k = 0; k <= upto; k++)
		for (size_t j = 0; j < sc->steps[k].nopts; j++) {
			char flag[80];
			snprintf(flag, sizeof flag, "--%s", sc->steps[k].opts[j].key);
			const char *at = strstr(msg, flag);
			size_t fl = strlen(flag);
			if (at != NULL && !isalnum((unsigned char)at[fl]) &&
			    at[fl] != '-')
				best = sc->steps[k].opts[j].line;
		}
	return best;
}

/* Check every {placeholder} of a caption for the step's encoding. */
static int
check_caption(const char *name, const struct raw_step *t,
    enum pe_encoding enc, char *err, size_t cap)
{
	const char *s = t->caption;
	int line = t->caption_line + 1;
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '\n') {
			line++;
			continue;
		}
		if (*s != '{')
			continue;
		const char *close = strchr(s, '}'), *nl = strchr(s, '\n');
		if (close == NULL || (nl != NULL && nl < close) || close - s > 60)
			return lfail(err, cap, name, line, "a '{' without its '}' on "
			    "the line (placeholders are {name} or {name:args})");
		char spec[64], why[300], nm[64];
		snprintf(spec, sizeof spec, "%.*s", (int)(close - s - 1), s + 1);
		const char *colon = strchr(spec, ':');
		snprintf(nm, sizeof nm, "%.*s", colon ? (int)(colon - spec) : 63,
		    spec);
		if (pe_lesson_placeholder_check(nm, colon ? colon + 1 : "", enc, why,
		    sizeof why) != 0)
			return lfail(err, cap, name, line, "%s", why);
		s = close;
	}
	return 0;
}

/* Build step k of scene sc into *st, its options into *o. */
static int
build_step(const char *name, const char *file, const struct raw_scene *sc,
    size_t k, struct pe_options *o, struct pe_state *st, char *err,
    size_t cap)
{
	size_t nargs = 2;
	for (size_t i = 0; i <= k; i++)
		nargs += 2 * sc->steps[i].nopts;
	char **argv = calloc(nargs + 1, sizeof *argv);
	int argc = 0, rc = 0;
	if (argv == NULL)
		return lfail(err, cap, name, 0, "out of memory");
	argv[argc++] = strdup("pescope");
	argv[argc++] = strdup("snapshot");
	for (size_t i = 0; i <= k; i++)
		for (size_t j = 0; j < sc->steps[i].nopts; j++) {
			const struct opt_line *ol = &sc->steps[i].opts[j];
			int id = option_id(ol->key);
			size_t fl = strlen(ol->key) + 3;
			argv[argc] = malloc(fl);
			if (argv[argc] != NULL)
				snprintf(argv[argc], fl, "--%s", ol->key);
			argc++;
			if (ol->val != NULL)
				argv[argc++] = lesson_value(file, id, ol->val);
		}
	for (int i = 0; i < argc; i++)
		if (argv[i] == NULL)
			rc = lfail(err, cap, name, 0, "out of memory");
	char msg[1024];
	if (rc == 0 && pe_options_parse(o, argc, argv, msg, sizeof msg) != 0)
		rc = lfail(err, cap, name, line_of(sc, k, msg), "scene %s: %s",
		    sc->title, msg);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	if (rc != 0)
		return rc;
	size_t rows, cols;
	pe_state_main_dims(&o->cfg, &rows, &cols);
	if (o->cursor_given && (o->cursor_p >= rows || o->cursor_j >= cols))
		return lfail(err, cap, name, line_of(sc, k, "--cursor"), "cursor "
		    "%zu,%zu: the %s map is %zu x %zu", o->cursor_p, o->cursor_j,
		    pe_encoding_name(o->cfg.enc), rows, cols);
	pe_app_state_from_options(o, st);
	/* the scene keys of this step and the steps before */
	for (size_t i = 0; i <= k; i++) {
		const struct raw_step *t = &sc->steps[i];
		if (t->zoom_given) { /* from the whole map */
			st->vr0 = st->vr1 = st->vc0 = st->vc1 = 0;
			if (t->zoom > 0)
				pe_state_zoom(st, t->zoom, st->cur_r, st->cur_c);
		}
		if (t->play_given)
			st->playing = t->play;
		if (t->speed > 0)
			st->speed = t->speed;
	}
	st->status[0] = '\0';
	return 0;
}

/* Text of a built-in lesson, or NULL. */
static const char *
builtin(const char *name)
{
	for (size_t i = 0; pe_lessons[i].name != NULL; i++)
		if (strcmp(pe_lessons[i].name, name) == 0)
			return pe_lessons[i].text;
	return NULL;
}

/* The built-in lessons' names, "a, b". */
static void
builtin_names(char *buf, size_t cap)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; pe_lessons[i].name != NULL && o < cap; i++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? ", " : "",
		    pe_lessons[i].name);
}

/* See app/lesson.h. */
int
pe_app_lesson_parse(struct pe_app_lesson *al, const char *name,
    const char *file, const char *text, char *err, size_t cap)
{
	struct raw_scene *sc;
	size_t n, total = 0, at = 0;
	int rc;

	memset(al, 0, sizeof *al);
	al->l.name = strdup(name);
	if ((rc = read_lesson(name, text, &al->l, &sc, &n, err, cap)) != 0)
		return rc;
	if (al->l.title == NULL)
		al->l.title = strdup(name);
	for (size_t i = 0; i < n; i++)
		total += sc[i].nsteps;
	al->opts = calloc(total, sizeof *al->opts);
	al->l.scenes = calloc(n, sizeof *al->l.scenes);
	if (al->opts == NULL || al->l.scenes == NULL) {
		free_raw(sc, n);
		return lfail(err, cap, name, 0, "out of memory");
	}
	al->l.nscenes = n;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct pe_scene *s = &al->l.scenes[i];
		s->title = sc[i].title;
		sc[i].title = NULL;
		s->line = sc[i].line;
		s->text_only = sc[i].text_only;
		s->notes = sc[i].notes != NULL ? sc[i].notes : strdup("");
		sc[i].notes = NULL;
		s->steps = calloc(sc[i].nsteps, sizeof *s->steps);
		if (s->steps == NULL) {
			rc = lfail(err, cap, name, 0, "out of memory");
			break;
		}
		s->nsteps = sc[i].nsteps;
		sc[i].title = s->title; /* for messages */
		for (size_t k = 0; k < s->nsteps && rc == 0; k++) {
			struct pe_step *t = &s->steps[k];
			struct raw_step *r = &sc[i].steps[k];
			t->line = r->line;
			t->sets_options = k > 0 && (r->nopts > 0 || r->zoom_given ||
			    r->play_given || r->speed > 0);
			t->caption = r->caption != NULL ? r->caption : strdup("");
			r->caption = NULL;
			rc = build_step(name, file, &sc[i], k, &al->opts[at], &t->start,
			    err, cap);
			/* every placeholder, for the step's encoding */
			if (rc == 0) {
				struct raw_step tmp = *r;
				tmp.caption = t->caption;
				rc = check_caption(name, &tmp, al->opts[at].cfg.enc, err,
				    cap);
			}
			al->nopts = ++at;
		}
		sc[i].title = NULL;
	}
	free_raw(sc, n);
	if (rc == 0 && pe_lesson_freeze(&al->l) != PE_OK)
		rc = lfail(err, cap, name, 0, "out of memory");
	return rc;
}

/* See app/lesson.h. */
int
pe_app_lesson_load(struct pe_app_lesson *al, const struct pe_options *o,
    char *err, size_t cap)
{
	if (o->lesson_file != NULL) {
		unsigned char *buf;
		size_t len;
		int st = pe_file_read(o->lesson_file, 1 << 20, &buf, &len);
		if (st != PE_OK) {
			memset(al, 0, sizeof *al);
			snprintf(err, cap, "--lesson-file '%s': cannot read it: %s",
			    o->lesson_file, st == PE_ERANGE ? "larger than 1 MiB"
			    : st == PE_EINVAL ? "not a regular file" : strerror(errno));
			return 2;
		}
		if (memchr(buf, '\0', len) != NULL) {
			free(buf);
			memset(al, 0, sizeof *al);
			snprintf(err, cap, "--lesson-file '%s': not a text file",
			    o->lesson_file);
			return 2;
		}
		int rc = pe_app_lesson_parse(al, o->lesson_file, o->lesson_file,
		    (const char *)buf, err, cap);
		free(buf);
		return rc;
	}
	const char *name = o->lesson != NULL ? o->lesson : "intro";
	const char *text = builtin(name);
	if (text == NULL) {
		char names[256];
		builtin_names(names, sizeof names);
		memset(al, 0, sizeof *al);
		snprintf(err, cap, "--lesson '%s': unknown lesson; the built-in "
		    "lessons are %s (lesson --list)", name, names);
		return 2;
	}
	return pe_app_lesson_parse(al, name, NULL, text, err, cap);
}

/* See app/lesson.h. */
void
pe_app_lesson_free(struct pe_app_lesson *al)
{
	for (size_t i = 0; i < al->nopts; i++)
		pe_options_free(&al->opts[i]);
	free(al->opts);
	for (size_t i = 0; i < al->l.nscenes; i++) {
		struct pe_scene *s = &al->l.scenes[i];
		for (size_t k = 0; s->steps != NULL && k < s->nsteps; k++)
			free(s->steps[k].caption), free(s->steps[k].frozen);
		free(s->steps);
		free(s->title);
		free(s->notes);
	}
	free(al->l.scenes);
	free(al->l.name);
	free(al->l.title);
	memset(al, 0, sizeof *al);
}

/* The scene (from 0) and step --scene asks for; 2 with a message when the
 * lesson has none such. */
static int
scene_arg(const struct pe_options *o, const struct pe_lesson *l, size_t *k,
    size_t *step, char *err, size_t cap)
{
	*k = 0, *step = 0;
	if (!o->scene_given)
		return 0;
	if (o->scene > l->nscenes) {
		snprintf(err, cap, "--scene %zu: lesson %s has %zu scenes (1..%zu)",
		    o->scene, l->name, l->nscenes, l->nscenes);
		return 2;
	}
	const struct pe_scene *s = &l->scenes[o->scene - 1];
	if (o->scene_step > s->nsteps) {
		snprintf(err, cap, "--scene %zu.%zu: scene %zu has %zu step%s "
		    "(1..%zu)", o->scene, o->scene_step, o->scene, s->nsteps,
		    s->nsteps == 1 ? "" : "s", s->nsteps);
		return 2;
	}
	*k = o->scene - 1;
	*step = o->scene_step - 1;
	return 0;
}

/* A lesson's scenes, a line each: number, title, steps. */
static void
list_scenes(FILE *fp, const struct pe_lesson *l)
{
	for (size_t i = 0; i < l->nscenes; i++) {
		const struct pe_scene *s = &l->scenes[i];
		fprintf(fp, "%-3zu %s", i + 1, s->title);
		if (s->nsteps > 1)
			fprintf(fp, " (%zu steps)", s->nsteps);
		fputc('\n', fp);
	}
}

/* The state at scene k, step `step` of a loaded lesson. */
static void
lesson_state(const struct pe_app_lesson *al, size_t k, size_t step,
    const struct pe_options *o, struct pe_state *st)
{
	memset(st, 0, sizeof *st);
	st->lesson = &al->l;
	st->elapsed = -1;
	st->present = o->present;
	st->no_chrome = o->no_chrome;
	pe_lesson_goto(st, k, step);
}

/* ---- a running lesson: the link, live reload, the clock ------------- */

/* Look at the lesson file this often for changes. */
#define RELOAD_MS 300
/* A speaker's instance tries to reach the presenter this often. */
#define CONNECT_MS 500

/* What pe_tui_run's hook keeps between frames. */
struct session {
	const struct pe_options *o;
	struct pe_app_lesson *al;   /* the lesson shown (replaced on reload) */
	struct pe_app_lesson *old;  /* the one before, freed a poll later */
	struct pe_link link;
	bool linked;		    /* a link was set up */
	size_t sent_scene, sent_step; /* where the other side is */
	bool synced;		    /* the speaker had the presenter's hello:
				       until then it follows, never leads */
	bool have_t0;		    /* the speaker took a presenter's start */
	time_t t0;		    /* the lesson's start (the first presenter
				       the speaker linked to) */
	long shown_s;		    /* the clock's second on screen */
	struct stat file;	    /* the lesson file as last read */
	char broken[200];	    /* why the file on disk is not shown, or ""
				       (a status line's room) */
	long long next_reload, next_connect;
};

/* Whether a file changed since sb was taken. */
static bool
changed(const struct stat *a, const struct stat *b)
{
	return a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
	    a->st_mtim.tv_nsec != b->st_mtim.tv_nsec || a->st_size != b->st_size ||
	    a->st_ino != b->st_ino;
}

/* Read the lesson file again when it changed: on success the same scene
 * (and step, where it still has them) of the new text; on a mistake, the
 * message in the status line and the last good lesson kept. */
static int
reload(struct session *S, struct pe_state *st)
{
	struct stat sb;
	char err[1024];
	if (S->o->lesson_file == NULL || stat(S->o->lesson_file, &sb) != 0 ||
	    !changed(&sb, &S->file))
		return PE_ACT_NONE;
	S->file = sb;
	struct pe_app_lesson *nl = calloc(1, sizeof *nl);
	if (nl == NULL)
		return PE_ACT_NONE;
	if (pe_app_lesson_load(nl, S->o, err, sizeof err) != 0) {
		pe_app_lesson_free(nl);
		free(nl);
		/* "line N: why (not reloaded)": the file and scene are known */
		const char *why = strstr(err, "line ");
		why = why != NULL ? why : err;
		const char *sc = strstr(why, ": scene ");
		const char *rest = sc != NULL ? strstr(sc + 8, ": ") : NULL;
		if (rest != NULL)
			snprintf(S->broken, sizeof S->broken, "%.*s%s (not reloaded)",
			    (int)(sc - why), why, rest);
		else
			snprintf(S->broken, sizeof S->broken, "%.180s (not reloaded)",
			    why);
		pe_state_status(st, "%s", S->broken);
		return PE_ACT_REDRAW;
	}
	S->broken[0] = '\0';
	if (S->old != NULL) {
		pe_app_lesson_free(S->old);
		free(S->old);
	}
	/* the scene shown, found by its title (scenes may have moved), else
	 * by its number */
	const char *title = st->lesson->scenes[st->scene].title;
	size_t k = st->scene, step = st->step;
	for (size_t i = 0; i < nl->l.nscenes; i++)
		if (strcmp(nl->l.scenes[i].title, title) == 0) {
			k = i;
			break;
		}
	S->old = S->al;
	S->al = nl;
	st->lesson = &nl->l;
	int act = pe_lesson_goto(st, k, step);
	pe_state_status(st, "reloaded %s", S->o->lesson_file);
	return act;
}

/* Say how the link stands in st->link. */
static void
link_note(struct session *S, struct pe_state *st, const char *fmt)
{
	snprintf(st->link, sizeof st->link, fmt, S->link.path);
}

/* Apply a line from the other instance: "hello T0 K S" or "goto K S". */
static int
link_line(struct session *S, struct pe_state *st, const char *line)
{
	long long t0;
	size_t k, step;
	if (sscanf(line, "hello %lld %zu %zu", &t0, &k, &step) == 3) {
		/* a presenter restarted mid-lesson: the clock goes on */
		if (!S->have_t0)
			S->t0 = (time_t)t0;
		S->have_t0 = S->synced = true;
	} else if (sscanf(line, "goto %zu %zu", &k, &step) != 2)
		return PE_ACT_NONE; /* not ours: ignored */
	if (k >= st->lesson->nscenes)
		return PE_ACT_NONE;
	S->sent_scene = k, S->sent_step = step; /* no echo */
	if (k == st->scene && step == st->step)
		return PE_ACT_REDRAW;
	return pe_lesson_goto(st, k, step);
}

/* The link: accept or reach the other instance, follow its scenes, tell
 * it ours. */
static int
link_poll(struct session *S, struct pe_state *st)
{
	int act = PE_ACT_NONE;
	char line[512], msg[64];
	if (!S->linked)
		return act;
	if (!S->link.server && !pe_link_connected(&S->link) &&
	    pe_clock_ms() >= S->next_connect) {
		S->next_connect = pe_clock_ms() + CONNECT_MS;
		if (pe_link_connect(&S->link) == PE_OK) {
			link_note(S, st, "linked to the presenting instance at %s");
			S->synced = false; /* the audience's scene comes first */
			act |= PE_ACT_REDRAW;
		}
	}
	for (int i = 0; i < 16; i++) {
		int ev = pe_link_poll(&S->link, line, sizeof line);
		if (ev == PE_LINK_NONE)
			break;
		if (ev == PE_LINK_JOINED) {
			link_note(S, st, "the speaker's view is linked at %s");
			snprintf(msg, sizeof msg, "hello %lld %zu %zu", (long long)S->t0,
			    st->scene, st->step);
			pe_link_send(&S->link, msg);
			S->sent_scene = st->scene, S->sent_step = st->step;
			act |= PE_ACT_REDRAW;
		} else if (ev == PE_LINK_LEFT) {
			if (S->link.server) {
				link_note(S, st, "the speaker's view left (%s)");
				pe_state_status(st, "the speaker's view quit; the lesson "
				    "goes on");
			} else {
				link_note(S, st, "the presenting instance quit; waiting "
				    "for it at %s");
			}
			act |= PE_ACT_REDRAW;
		} else {
			act |= link_line(S, st, line);
		}
	}
	if (pe_link_connected(&S->link) && (S->link.server || S->synced) &&
	    (st->scene != S->sent_scene || st->step != S->sent_step)) {
		snprintf(msg, sizeof msg, "goto %zu %zu", st->scene, st->step);
		if (pe_link_send(&S->link, msg) == PE_OK)
			S->sent_scene = st->scene, S->sent_step = st->step;
	}
	return act;
}

/* pe_tui_run's hook: reload, link, clock. */
static int
session_poll(void *arg, struct pe_state *st)
{
	struct session *S = arg;
	int act = PE_ACT_NONE;
	long long now = pe_clock_ms();
	if (now >= S->next_reload) {
		S->next_reload = now + RELOAD_MS;
		act |= reload(S, st);
	}
	act |= link_poll(S, st);
	if (S->broken[0] != '\0' && st->status[0] == '\0') {
		/* a key cleared it, but the file is still broken */
		pe_state_status(st, "%s", S->broken);
		act |= PE_ACT_REDRAW;
	}
	st->elapsed = difftime(time(NULL), S->t0);
	if (st->speaker && (long)st->elapsed != S->shown_s) {
		S->shown_s = (long)st->elapsed;
		act |= PE_ACT_REDRAW;
	}
	return act;
}

/* The link's default path: $XDG_RUNTIME_DIR/pescope-NAME.sock, else the
 * temporary folder's pescope-UID-NAME.sock; NAME from the lesson's. */
static void
default_link(char *buf, size_t cap, const char *lesson)
{
	const char *base = strrchr(lesson, '/') ? strrchr(lesson, '/') + 1 : lesson;
	char name[48];
	size_t o = 0;
	for (; *base != '\0' && *base != '.' && o + 1 < sizeof name; base++)
		name[o++] = isalnum((unsigned char)*base) || *base == '-' ? *base
									   : '_';
	name[o] = '\0';
	const char *run = getenv("XDG_RUNTIME_DIR");
	if (run != NULL && run[0] == '/') {
		snprintf(buf, cap, "%s/pescope-%s.sock", run, name);
		return;
	}
	const char *tmp = getenv("TMPDIR");
	snprintf(buf, cap, "%s/pescope-%u-%s.sock", tmp != NULL && tmp[0] == '/'
	    ? tmp : "/tmp", (unsigned)geteuid(), name);
}

/* pescope lesson. */
int
pe_lesson_run(const struct pe_options *o)
{
	struct pe_app_lesson al;
	char err[1024];
	size_t k, step;

	if (o->lesson_placeholders) {
		char *buf = malloc(16384);
		if (buf == NULL)
			return PE_EXIT_FAIL;
		pe_lesson_placeholders(buf, 16384);
		fputs(buf, stdout);
		free(buf);
		return PE_EXIT_OK;
	}
	if (o->lesson_list && o->lesson == NULL && o->lesson_file == NULL) {
		for (size_t i = 0; pe_lessons[i].name != NULL; i++) {
			if (pe_app_lesson_parse(&al, pe_lessons[i].name, NULL,
			    pe_lessons[i].text, err, sizeof err) != 0) {
				pe_app_error("%s", err);
				pe_app_lesson_free(&al);
				return PE_EXIT_FAIL;
			}
			printf("%s%s: %s\n", i ? "\n" : "", al.l.name, al.l.title);
			list_scenes(stdout, &al.l);
			pe_app_lesson_free(&al);
		}
		return PE_EXIT_OK;
	}
	struct session S;
	memset(&S, 0, sizeof S);
	S.o = o;
	if (o->lesson_file != NULL)
		stat(o->lesson_file, &S.file);
	if ((S.al = calloc(1, sizeof *S.al)) == NULL)
		return PE_EXIT_FAIL;
	if (pe_app_lesson_load(S.al, o, err, sizeof err) != 0 ||
	    scene_arg(o, &S.al->l, &k, &step, err, sizeof err) != 0) {
		pe_app_error("%s", err);
		pe_app_lesson_free(S.al);
		free(S.al);
		return PE_EXIT_USAGE;
	}
	if (o->lesson_list) {
		printf("%s: %s\n", S.al->l.name, S.al->l.title);
		list_scenes(stdout, &S.al->l);
		pe_app_lesson_free(S.al);
		free(S.al);
		return PE_EXIT_OK;
	}
	char path[256];
	if (o->link != NULL)
		snprintf(path, sizeof path, "%s", o->link);
	else
		default_link(path, sizeof path, S.al->l.name);
	if (pe_link_check(path, err, sizeof err) != PE_OK) {
		pe_app_error("%s", err);
		pe_app_lesson_free(S.al);
		free(S.al);
		return PE_EXIT_USAGE;
	}
	struct pe_state st;
	lesson_state(S.al, k, step, o, &st);
	st.speaker = o->speaker;
	S.t0 = time(NULL);
	S.sent_scene = st.scene, S.sent_step = st.step;
	pe_link_init(&S.link, path);
	S.linked = true;
	if (o->speaker) {
		link_note(&S, &st, "waiting for the presenting instance at %s…");
	} else {
		int ls = pe_link_listen(&S.link);
		if (ls == PE_OK) {
			link_note(&S, &st, "a speaker's view can link at %s");
		} else {
			S.linked = false;
			snprintf(st.link, sizeof st.link, "not linked: %s",
			    ls == PE_LINK_BUSY ? "another presenting instance "
			    "listens there" : strerror(errno));
			pe_state_status(&st, "%s (%s)", st.link, path);
		}
	}
	struct pe_tui_hooks hooks = {session_poll, &S, 100};
	/* --record: the TUI creates the file once it has a terminal */
	struct pe_tui_opts to = {o->depth, o->theme, o->record, &hooks};
	int rc = pe_tui_run(&st, &to);
	pe_link_close(&S.link);
	if (S.old != NULL) {
		pe_app_lesson_free(S.old);
		free(S.old);
	}
	pe_app_lesson_free(S.al);
	free(S.al);
	return rc;
}

/* A file name's part from a title: lowercase letters and digits, '-'
 * between words, at most 40 bytes. */
static void
slug(char *dst, size_t cap, const char *title)
{
	size_t o = 0;
	bool dash = false;
	for (const char *s = title; *s != '\0' && o + 2 < cap && o < 40; s++) {
		unsigned char c = (unsigned char)*s;
		if (isascii(c) && isalnum(c)) {
			if (dash && o > 0)
				dst[o++] = '-';
			dst[o++] = (char)tolower(c);
			dash = false;
		} else {
			dash = true;
		}
	}
	dst[o] = '\0';
}

/* The handout: a PDF page per scene step, the frame without its caption
 * band, the caption and the notes below it. */
static int
handout(const struct pe_options *o, const struct pe_app_lesson *al)
{
	struct pe_atomic out;
	if (pe_atomic_open(&out, o->output) != PE_OK) {
		pe_app_error("-o '%s': cannot create a file there: %s", o->output,
		    strerror(errno));
		return PE_EXIT_USAGE;
	}
	struct pe_pdf *pdf = pe_pdf_open(out.fp, al->l.title);
	struct pe_canvas cv = {0};
	char *below = malloc(32768), *cap = malloc(16384);
	int rc = pdf != NULL && below != NULL && cap != NULL &&
	    pe_canvas_init(&cv, o->width, o->height) == PE_OK ? PE_OK : PE_ENOMEM;
	enum pe_depth depth = o->depth >= 0 ? (enum pe_depth)o->depth
					    : PE_DEPTH_TRUECOLOR;
	for (size_t i = 0; rc == PE_OK && i < al->l.nscenes; i++) {
		const struct pe_scene *s = &al->l.scenes[i];
		for (size_t j = 0; rc == PE_OK && j < s->nsteps; j++) {
			struct pe_state st;
			struct pe_model m;
			lesson_state(al, i, j, o, &st);
			st.caption_below = !s->text_only;
			st.no_chrome = true; /* a page has no keys to press */
			if ((rc = pe_model_init(&m, &st.cfg)) != PE_OK)
				break;
			rc = pe_view_render(&st, &m, &cv, NULL);
			if (rc == PE_OK) {
				pe_lesson_caption(&st, &m, cap, 16384);
				snprintf(below, 32768, "%s%s%s%s", s->text_only ? "" : cap,
				    s->notes[0] != '\0' && !s->text_only ? "\n\n" : "",
				    s->notes[0] != '\0' ? "Notes: " : "", s->notes);
				rc = pe_pdf_page(pdf, &cv, depth, o->theme, below);
			}
			pe_model_free(&m);
		}
	}
	if (cv.cells != NULL)
		pe_canvas_free(&cv);
	int cr = pdf != NULL ? pe_pdf_close(pdf) : PE_ENOMEM;
	free(below);
	free(cap);
	if (rc == PE_OK)
		rc = cr;
	if (rc == PE_OK)
		rc = pe_atomic_commit(&out);
	else
		pe_atomic_abort(&out);
	if (rc != PE_OK) {
		pe_app_error("-o '%s': the handout was not written: %s", o->output,
		    pe_strerror(rc));
		return PE_EXIT_FAIL;
	}
	return PE_EXIT_OK;
}

/* snapshot --lesson: one scene's step, or with --all every step of every
 * scene into the folder -o (with -f pdf: one handout, a page each). */
int
pe_snapshot_lesson(const struct pe_options *o)
{
	struct pe_app_lesson al;
	char err[1024];
	size_t k, step;

	if (pe_app_lesson_load(&al, o, err, sizeof err) != 0 ||
	    scene_arg(o, &al.l, &k, &step, err, sizeof err) != 0) {
		pe_app_error("%s", err);
		pe_app_lesson_free(&al);
		return PE_EXIT_USAGE;
	}
	struct pe_state st;
	int rc = PE_EXIT_OK;
	if (!o->lesson_all) {
		lesson_state(&al, k, step, o, &st);
		rc = pe_snapshot_write(o, &st, o->output != NULL ? o->output : "-");
		pe_app_lesson_free(&al);
		return rc;
	}
	if (o->snap_format == PE_FMT_PDF) {
		rc = handout(o, &al);
		pe_app_lesson_free(&al);
		return rc;
	}
	static const char *const ext[] = {
		[PE_FMT_ANSI] = "ansi", [PE_FMT_TXT] = "txt", [PE_FMT_HTML] = "html",
		[PE_FMT_SVG] = "svg", [PE_FMT_PDF] = "pdf",
	};
	const char *dot = strrchr(o->output, '.');
	for (size_t i = 0; dot != NULL && i < sizeof ext / sizeof ext[0]; i++)
		if (strcmp(dot + 1, ext[i]) == 0) {
			pe_app_error("-o '%s': --all writes a file per scene into a "
			    "folder; give it a folder's name (-f pdf writes one "
			    "handout)", o->output);
			pe_app_lesson_free(&al);
			return PE_EXIT_USAGE;
		}
	struct stat sb;
	if (stat(o->output, &sb) != 0) {
		if (mkdir(o->output, 0777) != 0) {
			pe_app_error("-o '%s': cannot create the folder: %s", o->output,
			    strerror(errno));
			pe_app_lesson_free(&al);
			return PE_EXIT_USAGE;
		}
	} else if (!S_ISDIR(sb.st_mode)) {
		pe_app_error("-o '%s': --all writes a file per scene into a folder, "
		    "and this is not one", o->output);
		pe_app_lesson_free(&al);
		return PE_EXIT_USAGE;
	}
	for (size_t i = 0; i < al.l.nscenes && rc == PE_EXIT_OK; i++) {
		const struct pe_scene *s = &al.l.scenes[i];
		for (size_t j = 0; j < s->nsteps && rc == PE_EXIT_OK; j++) {
			char sl[64], path[4096], stepn[24] = "";
			slug(sl, sizeof sl, s->title);
			if (s->nsteps > 1)
				snprintf(stepn, sizeof stepn, "-%zu", j + 1);
			snprintf(path, sizeof path, "%s/%02zu-%s%s.%s", o->output, i + 1,
			    sl, stepn, ext[o->snap_format]);
			lesson_state(&al, i, j, o, &st);
			rc = pe_snapshot_write(o, &st, path);
		}
	}
	pe_app_lesson_free(&al);
	return rc;
}
