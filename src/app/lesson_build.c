/* Building a lesson's steps: each step's accumulated option lines go
 * through the command line's own parser as `snapshot` arguments, so a
 * scene can set anything a command line can and is refused what a
 * command line would be; the lessons a command asks for (a file, or a
 * built-in one), and the state at a scene's step. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/lesson.h"
#include "app/lesson_impl.h"
#include "app/options_table.h"
#include "io/io.h"

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
		return lesson_fail(err, cap, name, 0, "out of memory");
	argv[argc++] = strdup("pescope");
	argv[argc++] = strdup("snapshot");
	for (size_t i = 0; i <= k; i++)
		for (size_t j = 0; j < sc->steps[i].nopts; j++) {
			const struct opt_line *ol = &sc->steps[i].opts[j];
			int id = lesson_option_id(ol->key);
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
	size_t rows, cols;
	pe_state_main_dims(&o->cfg, &rows, &cols);
	if (o->cursor_given && (o->cursor_p >= rows || o->cursor_j >= cols))
		return lesson_fail(err, cap, name, line_of(sc, k, "--cursor"), "cursor "
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
	if ((rc = lesson_read(name, text, &al->l, &sc, &n, err, cap)) != 0)
		return rc;
	if (al->l.title == NULL)
		al->l.title = strdup(name);
	for (size_t i = 0; i < n; i++)
		total += sc[i].nsteps;
	al->opts = calloc(total, sizeof *al->opts);
	al->l.scenes = calloc(n, sizeof *al->l.scenes);
	if (al->opts == NULL || al->l.scenes == NULL) {
		lesson_raw_free(sc, n);
		return lesson_fail(err, cap, name, 0, "out of memory");
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
			rc = lesson_fail(err, cap, name, 0, "out of memory");
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
	lesson_raw_free(sc, n);
	if (rc == 0 && pe_lesson_freeze(&al->l) != PE_OK)
		rc = lesson_fail(err, cap, name, 0, "out of memory");
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
	st->lesson = &al->l;
	st->elapsed = -1;
	st->present = o->present;
	st->no_chrome = o->no_chrome;
	pe_lesson_goto(st, k, step);
}
