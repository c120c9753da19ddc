/* Building a lesson's steps: each step's accumulated option lines go
 * through the command line's own parser as `snapshot` arguments, so a
 * scene can set anything a command line can and is refused what a
 * command line would be; the lessons a command asks for (a file, or a
 * built-in one), and the state at a scene's step. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "app/lesson.h"
#include "app/lesson_impl.h"
#include "app/options_table.h"
#include "io/io.h"

/* A lesson's text is at most this long. */
#define LESSON_MAX_BYTES ((size_t)1 << 20)

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
			return lesson_fail(err, cap, name, line, "a '{' without its '}' on "
			    "the line (placeholders are {name} or {name:args})");
		char spec[64], why[300], nm[64];
		snprintf(spec, sizeof spec, "%.*s", (int)(close - s - 1), s + 1);
		const char *colon = strchr(spec, ':');
		snprintf(nm, sizeof nm, "%.*s", colon ? (int)(colon - spec) : 63,
		    spec);
		if (pe_lesson_placeholder_check(nm, colon ? colon + 1 : "", enc, why,
		    sizeof why) != 0)
			return lesson_fail(err, cap, name, line, "%s", why);
		s = close;
	}
	return 0;
}

/* The options a scene's steps so far add up to: for each option the line
 * that set it last, in the order of those lines (a preset's line is kept
 * for each preset named, its last time). A step's command line is these,
 * less what the step sets again, then the step's own lines: what a
 * command line of every line so far gives, since an option's value is
 * its last one and a preset applied again sets what it set before. So a
 * step costs its own lines and its scene's distinct options, not every
 * line before it. */
struct carry {
	const struct opt_line **line;
	size_t n, cap;
	/* the scene keys' last values so far (zoom from the whole map) */
	const struct raw_step *zoom, *play, *speed;
};

/* Whether line b sets again what line a set: the same option (a preset:
 * the same one). */
static bool
sets_again(const struct opt_line *a, const struct opt_line *b)
{
	if (a->id != b->id)
		return false;
	if (a->id != O_PRESET && a->id != O_PRESET_FILE)
		return true;
	return strcmp(a->val, b->val) == 0;
}

/* Add step t's lines to the carry: each drops the line it sets again. */
static int
carry_step(struct carry *C, const struct raw_step *t)
{
	for (size_t j = 0; j < t->nopts; j++) {
		size_t o = 0;
		for (size_t i = 0; i < C->n; i++)
			if (!sets_again(C->line[i], &t->opts[j]))
				C->line[o++] = C->line[i];
		C->n = o;
		if (C->n == C->cap) {
			size_t nc = C->cap > 0 ? C->cap * 2 : 16;
			const struct opt_line **nl = realloc(C->line,
			    nc * sizeof *nl);
			if (nl == NULL)
				return PE_ENOMEM;
			C->line = nl, C->cap = nc;
		}
		C->line[C->n++] = &t->opts[j];
	}
	if (t->zoom_given)
		C->zoom = t;
	if (t->play_given)
		C->play = t;
	if (t->speed > 0)
		C->speed = t;
	return PE_OK;
}

/* Whether one of step t's own lines sets again what line l set. */
static bool
set_again_by(const struct opt_line *l, const struct raw_step *t)
{
	for (size_t j = 0; j < t->nopts; j++)
		if (sets_again(l, &t->opts[j]))
			return true;
	return false;
}

/* "--NAME" and the value of line l as argv words at argv[*argc]. */
static void
add_words(char **argv, int *argc, const char *file,
    const struct opt_line *l)
{
	size_t fl = strlen(l->key) + 3;
	if ((argv[*argc] = malloc(fl)) != NULL)
		snprintf(argv[*argc], fl, "--%s", l->key);
	(*argc)++;
	if (l->val != NULL)
		argv[(*argc)++] = lesson_value(file, l->id, l->val);
}

/* Build step k of scene sc into *st, its options into *o: the carried
 * options of the steps before and its own lines, through the command
 * line's parser as snapshot's. C is the carry of steps 0..k-1; on success
 * it is the carry of steps 0..k. */
static int
build_step(const char *name, const char *file, const struct raw_scene *sc,
    size_t k, struct carry *C, struct pe_options *o, struct pe_state *st,
    char *err, size_t cap)
{
	const struct raw_step *t = &sc->steps[k];
	size_t nargs = 2 + 2 * (C->n + t->nopts);
	char **argv = calloc(nargs + 1, sizeof *argv);
	int argc = 0, rc = 0;
	if (argv == NULL)
		return lesson_fail(err, cap, name, 0, "out of memory");
	argv[argc++] = strdup("pescope");
	argv[argc++] = strdup("snapshot");
	for (size_t i = 0; i < C->n; i++)
		if (!set_again_by(C->line[i], t))
			add_words(argv, &argc, file, C->line[i]);
	for (size_t j = 0; j < t->nopts; j++)
		add_words(argv, &argc, file, &t->opts[j]);
	for (int i = 0; i < argc; i++)
		if (argv[i] == NULL)
			rc = lesson_fail(err, cap, name, 0, "out of memory");
	char msg[1024];
	if (rc == 0 && pe_options_parse(o, argc, argv, msg, sizeof msg) != 0)
		rc = lesson_fail(err, cap, name, line_of(sc, k, msg), "scene %s: %s",
		    sc->title, msg);
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	if (rc != 0)
		return rc;
	if (carry_step(C, t) != PE_OK)
		return lesson_fail(err, cap, name, 0, "out of memory");
	size_t rows, cols;
	pe_state_main_dims(&o->cfg, &rows, &cols);
	if (o->cursor_given && (o->cursor_p >= rows || o->cursor_j >= cols))
		return lesson_fail(err, cap, name, line_of(sc, k, "--cursor"), "cursor "
		    "%zu,%zu: the %s map is %zu x %zu", o->cursor_p, o->cursor_j,
		    pe_encoding_name(o->cfg.enc), rows, cols);
	pe_app_state_from_options(o, st);
	/* the scene keys: their last values in this step and the steps
	 * before (a zoom starts from the whole map, so the last one is what
	 * all of them give) */
	if (C->zoom != NULL && C->zoom->zoom > 0)
		pe_state_zoom(st, C->zoom->zoom, st->cur_r, st->cur_c);
	if (C->play != NULL)
		st->playing = C->play->play;
	if (C->speed != NULL)
		st->speed = C->speed->speed;
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

/* A lesson being built, a step at a time (pe_app_lesson_begin). */
struct pe_lesson_build {
	struct pe_app_lesson al; /* what is built so far */
	char *name, *file;	 /* for messages; the file's folder */
	struct raw_scene *sc;	 /* the lesson as read */
	size_t n;
	size_t scene, step;	 /* the next step to build */
	size_t at;		 /* its options' index in al.opts */
	size_t last_sets;	 /* the scene's last step that changes the
				    view, or 0 */
	struct carry carry;	 /* the scene's options before the step */
};

/* Free what a build holds besides its lesson. */
static void
build_free(struct pe_lesson_build *B)
{
	lesson_raw_free(B->sc, B->n);
	free(B->carry.line);
	free(B->name);
	free(B->file);
	free(B);
}

/* See app/lesson.h. */
int
pe_app_lesson_begin(struct pe_lesson_build **out, const char *name,
    const char *file, const char *text, char *err, size_t cap)
{
	struct pe_lesson_build *B = calloc(1, sizeof *B);
	struct pe_app_lesson *al;
	size_t total = 0;
	int rc;

	*out = NULL;
	if (B == NULL)
		return lesson_fail(err, cap, name, 0, "out of memory");
	al = &B->al;
	B->name = strdup(name);
	B->file = file != NULL ? strdup(file) : NULL;
	al->l.name = strdup(name);
	if (B->name == NULL || al->l.name == NULL || (file != NULL &&
	    B->file == NULL)) {
		rc = lesson_fail(err, cap, name, 0, "out of memory");
		goto fail;
	}
	rc = lesson_read(name, text, &al->l, &B->sc, &B->n, err, cap);
	if (rc != 0)
		goto fail;
	if (al->l.title == NULL)
		al->l.title = strdup(name);
	for (size_t i = 0; i < B->n; i++)
		total += B->sc[i].nsteps;
	al->opts = calloc(total, sizeof *al->opts);
	al->l.scenes = calloc(B->n, sizeof *al->l.scenes);
	if (al->l.title == NULL || al->opts == NULL || al->l.scenes == NULL) {
		rc = lesson_fail(err, cap, name, 0, "out of memory");
		goto fail;
	}
	al->l.nscenes = B->n;
	*out = B;
	return 0;
fail:
	pe_app_lesson_free(al);
	build_free(B);
	return rc;
}

/* Scene i's own fields (title, notes) and room for its steps. */
static int
scene_begin(struct pe_lesson_build *B, size_t i, char *err, size_t cap)
{
	struct raw_scene *r = &B->sc[i];
	struct pe_scene *s = &B->al.l.scenes[i];

	s->title = strdup(r->title);
	s->line = r->line;
	s->text_only = r->text_only;
	s->panel_only = r->panel_only;
	s->notes = r->notes != NULL ? r->notes : strdup("");
	r->notes = NULL;
	s->steps = calloc(r->nsteps, sizeof *s->steps);
	if (s->title == NULL || s->notes == NULL || s->steps == NULL)
		return lesson_fail(err, cap, B->name, 0, "out of memory");
	s->nsteps = r->nsteps;
	B->carry.n = 0;
	B->carry.zoom = B->carry.play = B->carry.speed = NULL;
	B->last_sets = 0;
	for (size_t k = 1; k < r->nsteps; k++) {
		const struct raw_step *t = &r->steps[k];
		if (t->nopts > 0 || t->zoom_given || t->play_given ||
		    t->speed > 0)
			B->last_sets = k;
	}
	return 0;
}

/* Build the next step: its state, its placeholders checked, and its
 * caption filled once when a later step of its scene changes the view. */
static int
next_step(struct pe_lesson_build *B, char *err, size_t cap)
{
	struct raw_scene *sc = &B->sc[B->scene];
	struct pe_scene *s = &B->al.l.scenes[B->scene];
	size_t k = B->step;
	int rc;

	if (k == 0 && (rc = scene_begin(B, B->scene, err, cap)) != 0)
		return rc;
	struct pe_step *t = &s->steps[k];
	struct raw_step *r = &sc->steps[k];
	struct pe_options *o = &B->al.opts[B->at];
	t->line = r->line;
	t->sets_options = k > 0 && (r->nopts > 0 || r->zoom_given ||
	    r->play_given || r->speed > 0);
	t->caption = r->caption != NULL ? r->caption : strdup("");
	r->caption = NULL;
	if (t->caption == NULL)
		return lesson_fail(err, cap, B->name, 0, "out of memory");
	B->al.nopts = ++B->at;
	if (k > 0 && !t->sets_options) {
		/* text only: the view of the step before, whose options it
		 * shares (its own stay unused) */
		t->start = s->steps[k - 1].start;
		rc = 0;
	} else {
		rc = build_step(B->name, B->file, sc, k, &B->carry, o,
		    &t->start, err, cap);
	}
	/* every placeholder, for the step's encoding */
	if (rc == 0) {
		struct raw_step tmp = *r;
		tmp.caption = t->caption;
		rc = check_caption(B->name, &tmp,
		    t->start.pane[t->start.focus].cfg.enc, err, cap);
	}
	if (rc == 0 && k < B->last_sets && *t->caption != '\0' &&
	    pe_lesson_freeze_step(t) != PE_OK)
		rc = lesson_fail(err, cap, B->name, 0, "out of memory");
	/* what the scene holds across its steps: the ranges each view
	 * draws, the last step's whole caption */
	if (rc == 0 && pe_lesson_measure_step(&B->al.l, B->scene, k) != PE_OK)
		rc = lesson_fail(err, cap, B->name, 0, "out of memory");
	if (rc != 0)
		return rc;
	if (++B->step == sc->nsteps) {
		B->step = 0;
		B->scene++;
	}
	return 0;
}

/* See app/lesson.h. */
int
pe_app_lesson_work(struct pe_lesson_build *B, long long until, char *err,
    size_t cap)
{
	while (B->scene < B->n) {
		int rc = next_step(B, err, cap);
		if (rc != 0)
			return rc;
		if (until >= 0 && B->scene < B->n && pe_clock_ms() >= until)
			return 1;
	}
	return 0;
}

/* See app/lesson.h. */
void
pe_app_lesson_take(struct pe_lesson_build *B, struct pe_app_lesson *al)
{
	*al = B->al;
	build_free(B);
}

/* See app/lesson.h. */
void
pe_app_lesson_drop(struct pe_lesson_build *B)
{
	if (B == NULL)
		return;
	pe_app_lesson_free(&B->al);
	build_free(B);
}

/* See app/lesson.h. */
int
pe_app_lesson_parse(struct pe_app_lesson *al, const char *name,
    const char *file, const char *text, char *err, size_t cap)
{
	struct pe_lesson_build *B;
	int rc;

	memset(al, 0, sizeof *al);
	if ((rc = pe_app_lesson_begin(&B, name, file, text, err, cap)) != 0)
		return rc;
	if ((rc = pe_app_lesson_work(B, -1, err, cap)) != 0) {
		pe_app_lesson_drop(B);
		return rc;
	}
	pe_app_lesson_take(B, al);
	return 0;
}

/* Read a regular file of at most max bytes into a malloc'd buffer (a NUL
 * after its last byte) without ever waiting on it: it is opened
 * non-blocking, so a FIFO nobody writes to is refused at once instead of
 * waited on in open(2), and refused unless fstat says it is a regular
 * file. PE_OK, PE_EINVAL (not a regular file), PE_ERANGE (larger than
 * max), PE_ENOMEM, or PE_EIO (errno says why). */
static int
read_regular(const char *path, size_t max, unsigned char **dest, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	unsigned char *buf = NULL;
	struct stat sb;
	size_t n = 0;
	int rc = PE_OK, e = 0;

	if (fd < 0)
		return PE_EIO;
	if (fstat(fd, &sb) != 0) {
		rc = PE_EIO;
		e = errno;
	} else if (!S_ISREG(sb.st_mode)) {
		rc = PE_EINVAL;
	} else if ((uintmax_t)sb.st_size > max) {
		rc = PE_ERANGE;
	} else if ((buf = malloc(max + 2)) == NULL) {
		rc = PE_ENOMEM;
	}
	/* to the end, or one byte past max (it grew since fstat) */
	while (rc == PE_OK && n <= max) {
		ssize_t got = read(fd, buf + n, max + 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = PE_EIO;
			e = errno;
		} else if (got == 0) {
			break;
		} else {
			n += (size_t)got;
		}
	}
	if (rc == PE_OK && n > max)
		rc = PE_ERANGE;
	close(fd);
	if (rc != PE_OK) {
		free(buf);
		errno = e;
		return rc;
	}
	buf[n] = '\0';
	*dest = buf;
	*len = n;
	return PE_OK;
}

/* See app/lesson.h. */
int
pe_app_lesson_read(const char *path, bool live, char **text, char *err,
    size_t cap)
{
	unsigned char *buf;
	size_t len;
	int st = live ? read_regular(path, LESSON_MAX_BYTES, &buf, &len)
	    : pe_file_read(path, LESSON_MAX_BYTES, &buf, &len);

	*text = NULL;
	if (st != PE_OK) {
		snprintf(err, cap, "--lesson-file '%s': cannot read it: %s",
		    path, st == PE_ERANGE ? "larger than 1 MiB" : st == PE_EINVAL
		    ? "not a regular file" : st == PE_ENOMEM ? "out of memory"
		    : strerror(errno));
		return 2;
	}
	if (memchr(buf, '\0', len) != NULL) {
		free(buf);
		snprintf(err, cap, "--lesson-file '%s': not a text file", path);
		return 2;
	}
	*text = (char *)buf;
	return 0;
}

/* See app/lesson.h. */
int
pe_app_lesson_load(struct pe_app_lesson *al, const struct pe_options *o,
    char *err, size_t cap)
{
	if (o->lesson_file != NULL) {
		char *text;
		if (pe_app_lesson_read(o->lesson_file, false, &text, err,
		    cap) != 0) {
			memset(al, 0, sizeof *al);
			return 2;
		}
		int rc = pe_app_lesson_parse(al, o->lesson_file, o->lesson_file,
		    text, err, cap);
		free(text);
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
			free(s->steps[k].caption), free(s->steps[k].frozen),
			    free(s->steps[k].shown);
		free(s->steps);
		free(s->title);
		free(s->notes);
	}
	free(al->l.scenes);
	free(al->l.name);
	free(al->l.title);
	memset(al, 0, sizeof *al);
}

/* The scene (from 0) and step --scene asks for; see app/lesson.h. */
int
pe_app_lesson_scene(const struct pe_options *o, const struct pe_lesson *l, size_t *k,
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

/* The state at scene k, step `step` of a loaded lesson. */
void
pe_app_lesson_state(const struct pe_app_lesson *al, size_t k,
    size_t step, const struct pe_options *o, struct pe_state *st)
{
	memset(st, 0, sizeof *st);
	st->session.lesson = &al->l;
	st->session.elapsed = -1;
	st->session.present = o->present;
	st->session.no_chrome = o->no_chrome;
	pe_lesson_goto(st, k, step);
}
