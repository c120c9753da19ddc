/* Captions with placeholders: a placeholder checked against the
 * encoding it is used with, the list `pescope lesson --placeholders`
 * prints, and a step's text filled from the kernel (the table is
 * placeholder.c's). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/encoding.h"
#include "view/lesson.h"
#include "view/placeholder_impl.h"

/* The placeholder called name, or NULL. */
static const struct placeholder *
find_placeholder(const char *name)
{
	for (size_t i = 0; i < pe_nplaceholders; i++)
		if (strcmp(pe_placeholders[i].name, name) == 0)
			return &pe_placeholders[i];
	return NULL;
}

/* Parse "a" or "a,b" (integers, maybe negative); count into *n. */
static bool
parse_args(const char *s, long long *a, size_t *n)
{
	*n = 0;
	if (s == NULL || *s == '\0')
		return true;
	while (*n < 2) {
		char *end;
		if (!(*s == '-' || (*s >= '0' && *s <= '9')))
			return false;
		a[(*n)++] = strtoll(s, &end, 10);
		if (end == s || a[*n - 1] > 1000000000 || a[*n - 1] < -1000000000)
			return false;
		if (*end == '\0')
			return true;
		if (*end != ',')
			return false;
		s = end + 1;
	}
	return false;
}

/* The NEED() bits of what encoding enc's kernel row has. */
static unsigned
row_needs(enum pe_encoding enc)
{
	const struct pe_encoding_def *d = pe_encoding_def(enc);
	bool ex = d != NULL && (d->caps & PE_CAP_EXAMPLE) != 0;
	unsigned n = 0;

	if (d == NULL)
		return 0;
	n |= ex ? NEED(EXAMPLE) : 0;
	n |= ex && d->attention == PE_ATTN_ADD ? NEED(ADDED) : 0;
	n |= ex && d->attention == PE_ATTN_ROTATE ? NEED(ROTATED) : 0;
	n |= d->freqs != NULL ? NEED(PAIRS) : 0;
	n |= d->caps & PE_CAP_SHIFT ? NEED(SHIFT) : 0;
	n |= d->caps & PE_CAP_TOY ? NEED(TOY) : 0;
	n |= d->params & PE_PARAM_TABLE ? NEED(TABLE) : 0;
	n |= d->params & PE_PARAM_RELATIVE ? NEED(RELATIVE) : 0;
	n |= d->params & PE_PARAM_ROPE_SCALING ? NEED(SCALING) : 0;
	n |= d->params & PE_PARAM_SPAN ? NEED(SPAN) : 0;
	n |= d->params & PE_PARAM_SINKS ? NEED(SINKS) : 0;
	n |= d->params & PE_PARAM_TEMPERATURE ? NEED(TEMPERATURE) : 0;
	n |= d->params & PE_PARAM_DECOUPLED ? NEED(DECOUPLED) : 0;
	return n;
}

/* Whether a placeholder applies to enc: every encoding, one it names, or
 * one whose row has what it needs. */
static bool
applies(const struct placeholder *p, enum pe_encoding enc)
{
	return p->encs == ALL || (p->encs & (1u << enc)) ||
	    (p->encs & row_needs(enc));
}

/* See lesson.h. */
int
pe_lesson_placeholder_check(const char *name, const char *args,
    enum pe_encoding enc, char *why, size_t cap)
{
	const struct placeholder *p = find_placeholder(name);
	long long a[2];
	size_t n, most = 0;
	if (p == NULL) {
		snprintf(why, cap, "unknown placeholder {%s}; `pescope lesson "
		    "--placeholders` lists them", name);
		return 2;
	}
	if (p->args[0] != '\0')
		most = strchr(p->args, ',') != NULL ? 2 : 1;
	if (!parse_args(args, a, &n) || n > most) {
		if (most == 0)
			snprintf(why, cap, "{%s} takes no argument", name);
		else
			snprintf(why, cap, "{%s:%s}: the argument is %s (integers)",
			    name, args, p->args);
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		if (a[i] < 0 && strcmp(p->args, "REL") != 0) {
			snprintf(why, cap, "{%s:%s}: %s must not be negative", name,
			    args, p->args);
			return 2;
		}
	if (!applies(p, enc)) {
		snprintf(why, cap, "{%s} has no value with -e %s", name,
		    pe_encoding_name(enc));
		return 2;
	}
	return 0;
}

/* See lesson.h. */
void
pe_lesson_placeholders(char *buf, size_t cap)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < pe_nplaceholders && o < cap; i++) {
		const struct placeholder *p = &pe_placeholders[i];
		char head[64];
		snprintf(head, sizeof head, "{%s%s%s}", p->name,
		    p->args[0] ? ":" : "", p->args);
		o += (size_t)snprintf(buf + o, cap - o, "%-18s %s\n", head, p->what);
	}
}

/* Fill one placeholder "name" or "name:args" into out[cap]. */
static int
fill_one(const struct pe_state *st, const struct pe_model *m,
    const char *spec, char *out, size_t cap)
{
	char name[64], why[200];
	const char *colon = strchr(spec, ':');
	size_t len = colon != NULL ? (size_t)(colon - spec) : strlen(spec);
	snprintf(name, sizeof name, "%.*s", (int)len, spec);
	const char *args = colon != NULL ? colon + 1 : "";
	if (pe_lesson_placeholder_check(name, args, m->cfg.enc, why,
	    sizeof why) != 0) {
		/* after a key changed the encoding: say so in place */
		snprintf(out, cap, "(n/a with %s)", pe_encoding_name(m->cfg.enc));
		return find_placeholder(name) != NULL ? 0 : 2;
	}
	struct fillctx f = {.st = st, .m = m, .cfg = &m->cfg};
	parse_args(args, f.a, &f.na);
	const struct placeholder *p = find_placeholder(name);
	f.part = p->part;
	if (p->fill == NULL) {
		size_t v;
		memcpy(&v, (const char *)&m->cfg + p->field - 1, sizeof v);
		snprintf(out, cap, "%zu", v);
		return 0;
	}
	return p->fill(&f, out, cap);
}

/* Append step text t with its placeholders filled for st and m. */
static int
caption_text(const struct pe_state *st, const struct pe_model *m,
    const char *t, char *buf, size_t cap, size_t *o)
{
	while (*t != '\0' && *o + 1 < cap) {
		const char *close;
		if (*t == '{' && (close = strchr(t, '}')) != NULL &&
		    close - t < 64) {
			char spec[64], val[256];
			snprintf(spec, sizeof spec, "%.*s", (int)(close - t - 1),
			    t + 1);
			if (fill_one(st, m, spec, val, sizeof val) != 0) {
				snprintf(buf, cap, "caption: %s", val);
				return 2;
			}
			*o += (size_t)snprintf(buf + *o, cap - *o, "%s", val);
			if (*o >= cap)
				*o = cap - 1;
			t = close + 1;
			continue;
		}
		buf[(*o)++] = *t++;
	}
	buf[*o] = '\0';
	return 0;
}

/* See lesson.h. A step's text quotes the view it was written for: the
 * current one, or, when a later step shown since changed the options,
 * its own step's start (filled once, pe_lesson_freeze). */
int
pe_lesson_caption(const struct pe_state *st, const struct pe_model *m,
    char *buf, size_t cap)
{
	const struct pe_session *se = &st->session;
	const struct pe_scene *s = &se->lesson->scenes[se->scene];
	size_t o = 0, upto = se->step < s->nsteps ? se->step : s->nsteps - 1;
	size_t last = 0; /* the last step shown that changed the view, or 0 */
	for (size_t j = upto; j > 0 && last == 0; j--)
		if (s->steps[j].sets_options)
			last = j;
	buf[0] = '\0';
	for (size_t k = 0; k <= upto; k++) {
		const char *t = s->steps[k].caption;
		bool own = k < last; /* a later step shown changed the view */
		if (*t != '\0' && o > 0 && o + 1 < cap)
			buf[o++] = '\n';
		if (own && s->steps[k].frozen != NULL) {
			o += (size_t)snprintf(buf + o, cap - o, "%s",
			    s->steps[k].frozen);
			if (o >= cap)
				o = cap - 1;
			continue;
		}
		int rc = caption_text(st, m, t, buf, cap, &o);
		if (rc != 0)
			return rc;
	}
	return 0;
}

/* See lesson.h. */
int
pe_lesson_freeze_step(struct pe_step *t)
{
	const struct pe_pane *pane = &t->start.pane[t->start.focus];
	struct pe_model m;
	char *buf = malloc(8192);
	size_t o = 0;

	if (buf == NULL || pe_model_init(&m, &pane->cfg) != PE_OK) {
		free(buf);
		return PE_ENOMEM;
	}
	buf[0] = '\0';
	caption_text(&t->start, &m, t->caption, buf, 8192, &o);
	pe_model_free(&m);
	t->frozen = buf;
	return PE_OK;
}
