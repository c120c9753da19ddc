/* pescope lesson: a running lesson's session, the TUI's hook between
 * frames: live reload of --lesson-file, the link to the other instance
 * (presenter and speaker), the speaker's clock; and --list,
 * --placeholders. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "app/lesson.h"
#include "app/lesson_impl.h"
#include "io/io.h"
#include "render/draw.h"
#include "tui/tui.h"

/* Write text from a file to fp with its control characters escaped
 * (pe_text_escape: an OSC or a BEL of a lesson never reaches a terminal). */
static void
put_text(FILE *fp, const char *text)
{
	size_t cap = 4 * strlen(text) + 1;
	char *safe = malloc(cap);
	if (safe == NULL)
		return;
	fputs(pe_text_escape(text, safe, cap), fp);
	free(safe);
}

/* A lesson's name and title, then its scenes, a line each: number, title,
 * steps. */
static void
list_lesson(FILE *fp, const struct pe_lesson *l)
{
	put_text(fp, l->name);
	fputs(": ", fp);
	put_text(fp, l->title);
	fputc('\n', fp);
	for (size_t i = 0; i < l->nscenes; i++) {
		const struct pe_scene *s = &l->scenes[i];
		fprintf(fp, "%-3zu ", i + 1);
		put_text(fp, s->title);
		if (s->nsteps > 1)
			fprintf(fp, " (%zu steps)", s->nsteps);
		fputc('\n', fp);
	}
}

/* Look at the lesson file this often for changes. */
#define RELOAD_MS 300
/* A reload builds the lesson this long a poll at most (and a step). */
#define RELOAD_SLICE_MS 30
/* A speaker's instance tries to reach the presenter this often. */
#define CONNECT_MS 500
/* A presenter that resumed waits this long for a joining speaker's
 * "here" before its hello. */
#define HERE_MS 500

/* What pe_tui_run's hook keeps between frames. */
struct pe_lesson_session {
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
	bool watch;		    /* --lesson-file, a regular file at the
				       start: reloaded when it changes */
	struct stat file;	    /* the lesson file as last read */
	struct pe_lesson_build *build; /* a reload being built, or NULL */
	char broken[200];	    /* why the file on disk is not shown, or ""
				       (a status line's room) */
	long long next_reload, next_connect;
	const char *key;	    /* the lesson's name for its kept place */
	size_t saved_scene, saved_step; /* the place kept (SIZE_MAX: none) */
	size_t start_scene, start_step; /* where it started */
	bool follow;		    /* a presenter that resumed: the first
				       speaker to link says where the class
				       is (its "here"), until a key moves */
	bool hello_due;		    /* a speaker joined: the hello waits for
				       its "here", until hello_at */
	long long hello_at;
	bool sent_blank;	    /* the blank the other side has */
};

/* Whether a file changed since sb was taken. */
static bool
changed(const struct stat *a, const struct stat *b)
{
	return a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
	    a->st_mtim.tv_nsec != b->st_mtim.tv_nsec || a->st_size != b->st_size ||
	    a->st_ino != b->st_ino;
}

/* Say why the lesson file on disk is not shown, in the status line (and
 * again after a key clears it, until the file is good): "line N: why (not
 * reloaded)", since the file and the scene are known, or "cannot read the
 * lesson file: why (not reloaded)". */
static int
not_reloaded(struct pe_lesson_session *S, struct pe_state *st,
    const char *err)
{
	const char *why = strstr(err, "line ");
	const char *unread = strstr(err, "cannot read it: ");
	why = why != NULL ? why : err;
	const char *sc = strstr(why, ": scene ");
	const char *rest = sc != NULL ? strstr(sc + 8, ": ") : NULL;
	if (unread != NULL)
		snprintf(S->broken, sizeof S->broken, "cannot read the lesson "
		    "file: %.120s (not reloaded)", unread + 16);
	else if (rest != NULL)
		snprintf(S->broken, sizeof S->broken, "%.*s%s (not reloaded)",
		    (int)(sc - why), why, rest);
	else
		snprintf(S->broken, sizeof S->broken, "%.180s (not reloaded)",
		    why);
	pe_state_status(st, "%s", S->broken);
	return PE_ACT_REDRAW;
}

/* Show the reloaded lesson nl: the same scene (found by its title, since
 * scenes may have moved, else by its number) and step, where it still
 * has them. The lesson before is freed a poll later, after the model was
 * rebuilt from the new one. */
static int
install(struct pe_lesson_session *S, struct pe_state *st,
    struct pe_app_lesson *nl)
{
	S->broken[0] = '\0';
	if (S->old != NULL) {
		pe_app_lesson_free(S->old);
		free(S->old);
	}
	const char *title = st->session.lesson->scenes[st->session.scene].title;
	size_t k = st->session.scene, step = st->session.step;
	for (size_t i = 0; i < nl->l.nscenes; i++)
		if (strcmp(nl->l.scenes[i].title, title) == 0) {
			k = i;
			break;
		}
	S->old = S->al;
	S->al = nl;
	if (S->o->duration_given)
		nl->l.minutes = S->o->duration;
	st->session.lesson = &nl->l;
	int act = pe_lesson_goto(st, k, step);
	pe_state_status(st, "reloaded %s", S->o->lesson_file);
	return act;
}

/* Read the lesson file again when it changed, and build it a slice of
 * RELOAD_SLICE_MS at a time, a poll each, so that the frames go on (a
 * lesson of a thousand steps is built across polls); once whole it is
 * shown; a mistake is said in the status line and the last good lesson
 * stays. */
static int
reload(struct pe_lesson_session *S, struct pe_state *st)
{
	const char *path = S->o->lesson_file;
	long long until = pe_clock_ms() + RELOAD_SLICE_MS;
	struct stat sb;
	char err[1024], *text;
	int rc;

	if (S->build == NULL) {
		if (!S->watch || stat(path, &sb) != 0 ||
		    !changed(&sb, &S->file))
			return PE_ACT_NONE;
		S->file = sb;
		/* never waiting on the file: a regular one only, opened
		 * non-blocking (a FIFO put there is refused, not waited on) */
		if (pe_app_lesson_read(path, true, &text, err, sizeof err) != 0)
			return not_reloaded(S, st, err);
		rc = pe_app_lesson_begin(&S->build, path, path, text, err,
		    sizeof err);
		free(text);
		if (rc != 0)
			return not_reloaded(S, st, err);
	}
	if ((rc = pe_app_lesson_work(S->build, until, err, sizeof err)) == 1)
		return PE_ACT_NONE; /* the next poll goes on */
	if (rc != 0) {
		pe_app_lesson_drop(S->build);
		S->build = NULL;
		return not_reloaded(S, st, err);
	}
	struct pe_app_lesson *nl = calloc(1, sizeof *nl);
	if (nl == NULL)
		return PE_ACT_NONE; /* kept: the next poll tries again */
	pe_app_lesson_take(S->build, nl);
	S->build = NULL;
	return install(S, st, nl);
}

/* Say how the link stands in st->session.link. */
static void
link_note(struct pe_lesson_session *S, struct pe_state *st, const char *fmt)
{
	snprintf(st->session.link, sizeof st->session.link, fmt, S->link.path);
}

/* Steps of scene k of the lesson arg (pe_link_parse's bound). */
static size_t
lesson_steps(const void *arg, size_t k)
{
	const struct pe_lesson *l = arg;
	return k < l->nscenes ? l->scenes[k].nsteps : 0;
}

/* The presenter's hello to a speaker that joined: its start and where
 * the lesson is. */
static void
send_hello(struct pe_lesson_session *S, const struct pe_state *st)
{
	char msg[64];
	snprintf(msg, sizeof msg, "hello %lld %zu %zu", (long long)S->t0,
	    st->session.scene, st->session.step);
	pe_link_send(&S->link, msg);
	S->sent_scene = st->session.scene, S->sent_step = st->session.step;
	S->sent_blank = false;
}

/* Apply a line from the other instance: "hello T0 K S" or "goto K S",
 * every field bounded (pe_link_parse); anything else is refused and the
 * status line says why (quoting none of the peer's bytes). */
static int
link_line(struct pe_lesson_session *S, struct pe_state *st, const char *line)
{
	const struct pe_lesson *l = st->session.lesson;
	struct pe_link_msg m;
	char why[160];
	if (pe_link_parse(line, (long long)time(NULL), l->nscenes, lesson_steps,
	    l, &m, why, sizeof why) != PE_OK) {
		pe_state_status(st, "the other instance sent %s: ignored", why);
		return PE_ACT_REDRAW;
	}
	if (m.kind == PE_LINK_BLANK) {
		/* the other side's blank key: the audience's screen */
		S->sent_blank = m.blank; /* no echo */
		st->session.blank = m.blank;
		return PE_ACT_REDRAW;
	}
	if (m.kind == PE_LINK_HERE) {
		/* where a speaker's view is as it links: a presenter that
		 * resumed goes there (the speaker followed the class); one that
		 * was told a scene keeps it (its hello is on the way) */
		if (!S->link.server || !S->hello_due)
			return PE_ACT_NONE;
		S->hello_due = false;
		int act = PE_ACT_REDRAW;
		/* a key moved the presenter since it started: it leads */
		if (st->session.scene != S->start_scene ||
		    st->session.step != S->start_step)
			S->follow = false;
		if (S->follow && (m.scene != st->session.scene ||
		    m.step != st->session.step)) {
			act |= pe_lesson_goto(st, m.scene, m.step);
			pe_state_status(st, "at the speaker's scene %zu/%zu (Home: "
			    "the first scene)", m.scene + 1,
			    st->session.lesson->nscenes);
		}
		S->follow = false;
		send_hello(S, st);
		return act;
	}
	if (m.kind == PE_LINK_HELLO) {
		/* a presenter restarted mid-lesson: the clock goes on */
		if (!S->have_t0)
			S->t0 = (time_t)m.t0;
		S->have_t0 = S->synced = true;
	}
	S->sent_scene = m.scene, S->sent_step = m.step; /* no echo */
	if (m.scene == st->session.scene && m.step == st->session.step)
		return PE_ACT_REDRAW;
	return pe_lesson_goto(st, m.scene, m.step);
}

/* The speaker's view cannot be linked (why): said on the status line
 * once, and in the lesson's link note while it lasts. */
static int
link_unavailable(struct pe_state *st, const char *why)
{
	char note[sizeof st->session.link];
	int len = snprintf(note, sizeof note,
	    "the speaker's view is unavailable: %s", why);
	if (len >= (int)sizeof note) /* a long reason is cut, and says so */
		memcpy(note + sizeof note - sizeof "…", "…", sizeof "…");
	if (strcmp(note, st->session.link) == 0)
		return PE_ACT_NONE;
	snprintf(st->session.link, sizeof st->session.link, "%s", note);
	pe_state_status(st, "%s", note);
	return PE_ACT_REDRAW;
}

/* The link: accept or reach the other instance, follow its scenes, tell
 * it ours. */
static int
link_poll(struct pe_lesson_session *S, struct pe_state *st)
{
	const struct pe_session *se = &st->session;
	int act = PE_ACT_NONE;
	char line[512], msg[64];
	if (!S->linked)
		return act;
	if (!S->link.server && !pe_link_connected(&S->link) &&
	    pe_clock_ms() >= S->next_connect) {
		S->next_connect = pe_clock_ms() + CONNECT_MS;
		int cr = pe_link_connect(&S->link);
		if (cr == PE_OK) {
			link_note(S, st, "linked to the presenting instance at %s");
			S->synced = false; /* the audience's scene comes first */
			/* where this view is: a presenter that resumed takes it */
			snprintf(msg, sizeof msg, "here %zu %zu", se->scene,
			    se->step);
			pe_link_send(&S->link, msg);
			act |= PE_ACT_REDRAW;
		} else if (cr == PE_LINK_UNSAFE) {
			/* looked at again on the next try */
			act |= link_unavailable(st, S->link.why);
		} else if (strncmp(se->link, "the speaker's view is unavailable",
		    33) == 0) {
			/* what was in the way has gone */
			link_note(S, st, "waiting for the presenting instance at "
			    "%s…");
			act |= PE_ACT_REDRAW;
		}
	}
	for (int i = 0; i < 16; i++) {
		int ev = pe_link_poll(&S->link, line, sizeof line);
		if (ev == PE_LINK_NONE)
			break;
		if (ev == PE_LINK_REFUSED) {
			pe_state_status(st, "%s (another user's): the lesson goes on",
			    S->link.why);
			act |= PE_ACT_REDRAW;
		} else if (ev == PE_LINK_JOINED) {
			link_note(S, st, "the speaker's view is linked at %s");
			/* the hello waits a moment for the speaker's "here" */
			S->hello_due = true;
			S->hello_at = pe_clock_ms() + HERE_MS;
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
	if (S->hello_due && pe_clock_ms() >= S->hello_at) {
		/* no "here" came: the presenter's place */
		S->hello_due = S->follow = false;
		send_hello(S, st);
	}
	bool leads = pe_link_connected(&S->link) && !S->hello_due &&
	    (S->link.server || S->synced);
	if (leads && (se->scene != S->sent_scene || se->step != S->sent_step)) {
		snprintf(msg, sizeof msg, "goto %zu %zu", se->scene, se->step);
		if (pe_link_send(&S->link, msg) == PE_OK)
			S->sent_scene = se->scene, S->sent_step = se->step;
	}
	if (leads && se->blank != S->sent_blank) {
		snprintf(msg, sizeof msg, "blank %d", se->blank ? 1 : 0);
		if (pe_link_send(&S->link, msg) == PE_OK)
			S->sent_blank = se->blank;
	}
	return act;
}

/* pe_tui_run's hook: reload, link, clock; see app/lesson.h. */
int
pe_lesson_session_poll(void *arg, struct pe_state *st)
{
	struct pe_lesson_session *S = arg;
	int act = PE_ACT_NONE;
	long long now = pe_clock_ms();
	if (S->build != NULL || now >= S->next_reload) {
		if (S->build == NULL)
			S->next_reload = now + RELOAD_MS;
		act |= reload(S, st);
	}
	act |= link_poll(S, st);
	if (S->broken[0] != '\0' && st->status[0] == '\0') {
		/* a key cleared it, but the file is still broken */
		pe_state_status(st, "%s", S->broken);
		act |= PE_ACT_REDRAW;
	}
	if (st->session.clock_reset) { /* R */
		st->session.clock_reset = false;
		S->t0 = time(NULL);
		S->have_t0 = true; /* a presenter's hello no longer sets it */
		S->shown_s = -1;
	}
	/* the presenter keeps where the lesson is, for a restart; a key
	 * that moved it ends following a speaker's place */
	const struct pe_session *se = &st->session;
	if (se->scene != S->start_scene || se->step != S->start_step)
		S->follow = false;
	if (!se->speaker && (se->scene != S->saved_scene ||
	    se->step != S->saved_step)) {
		lesson_place_save(se->lesson, S->key, se->scene, se->step);
		S->saved_scene = se->scene, S->saved_step = se->step;
	}
	act |= pe_app_picker_poll(NULL, st); /* L: a preset, off the script */
	st->session.elapsed = difftime(time(NULL), S->t0);
	if (st->session.speaker && (long)st->session.elapsed != S->shown_s) {
		S->shown_s = (long)st->session.elapsed;
		act |= PE_ACT_REDRAW;
	}
	return act;
}

/* See app/lesson.h. */
int
pe_lesson_session_open(struct pe_lesson_session **out,
    const struct pe_options *o, struct pe_state *st, char *err, size_t cap)
{
	struct pe_lesson_session *S = calloc(1, sizeof *S);
	size_t k, step;

	*out = NULL;
	if (S == NULL || (S->al = calloc(1, sizeof *S->al)) == NULL) {
		free(S);
		snprintf(err, cap, "out of memory");
		return 2;
	}
	S->o = o;
	pe_link_init(&S->link, ""); /* none yet: pe_lesson_run makes it */
	/* the file before it is read: an edit since then reloads; a pipe
	 * is read once */
	S->watch = o->lesson_file != NULL && stat(o->lesson_file,
	    &S->file) == 0 && S_ISREG(S->file.st_mode);
	if (pe_app_lesson_load(S->al, o, err, cap) != 0 ||
	    pe_app_lesson_scene(o, &S->al->l, &k, &step, err, cap) != 0) {
		pe_lesson_session_close(S);
		return 2;
	}
	if (o->duration_given) /* --duration: over the lesson's own */
		S->al->l.minutes = o->duration;
	/* --scene, else where the lesson was left (a restart mid-class),
	 * else its first scene; a lesson left at its last scene was given
	 * to its end, and the next class starts it again */
	S->key = o->lesson_file != NULL ? o->lesson_file
	    : o->lesson != NULL ? o->lesson : "intro";
	size_t lk = k, ls = step;
	bool kept = !o->scene_given && lesson_place_load(&S->al->l, S->key,
	    &lk, &ls);
	bool ended = kept && lk + 1 == S->al->l.nscenes;
	bool resumed = kept && !ended && (lk > 0 || ls > 0);
	if (resumed)
		k = lk, step = ls;
	pe_app_lesson_state(S->al, k, step, o, st);
	st->session.speaker = o->speaker;
	pe_app_picker_init(st);
	if (resumed && !o->speaker) /* a speaker's line says the link */
		pe_state_status(st, "resumed at scene %zu/%zu, where the lesson was "
		    "left (Home: the first scene; --scene K starts there)", k + 1,
		    S->al->l.nscenes);
	else if (ended && !o->speaker)
		pe_state_status(st, "the lesson was left at its last scene: it "
		    "starts again (End: the last scene)");
	S->t0 = time(NULL);
	S->sent_scene = st->session.scene, S->sent_step = st->session.step;
	S->saved_scene = S->start_scene = st->session.scene;
	S->saved_step = S->start_step = st->session.step;
	S->follow = !o->scene_given && !o->speaker;
	*out = S;
	return 0;
}

/* See app/lesson.h. */
void
pe_lesson_session_close(struct pe_lesson_session *S)
{
	if (S == NULL)
		return;
	pe_link_close(&S->link);
	pe_app_lesson_drop(S->build);
	if (S->old != NULL) {
		pe_app_lesson_free(S->old);
		free(S->old);
	}
	pe_app_lesson_free(S->al);
	free(S->al);
	free(S);
}

/* pescope lesson. */
int
pe_lesson_run(const struct pe_options *o)
{
	struct pe_app_lesson al;
	char err[1024];

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
			if (i > 0)
				putchar('\n');
			list_lesson(stdout, &al.l);
			pe_app_lesson_free(&al);
		}
		return PE_EXIT_OK;
	}
	struct pe_lesson_session *S;
	struct pe_state st;
	if (pe_lesson_session_open(&S, o, &st, err, sizeof err) != 0) {
		pe_app_error("%s", err);
		return PE_EXIT_USAGE;
	}
	if (o->lesson_list) {
		list_lesson(stdout, &S->al->l);
		pe_lesson_session_close(S);
		return PE_EXIT_OK;
	}
	/* The link is optional: only a --link that can never be one (too
	 * long) is refused; when it cannot be made, the lesson runs and says
	 * why (why has room for the path and a reason). */
	char path[256] = "", why[sizeof path + 128] = "";
	if (o->link != NULL && pe_link_check(o->link, err, sizeof err) != PE_OK) {
		pe_app_error("%s", err);
		pe_lesson_session_close(S);
		return PE_EXIT_USAGE;
	}
	if (o->link != NULL)
		snprintf(path, sizeof path, "%s", o->link);
	else if (pe_link_default(path, sizeof path, S->al->l.name, why,
	    sizeof why) != PE_OK)
		path[0] = '\0';
	pe_link_init(&S->link, path);
	S->linked = path[0] != '\0';
	if (!S->linked) {
		link_unavailable(&st, why);
	} else if (o->speaker) {
		link_note(S, &st, "waiting for the presenting instance at %s…");
	} else {
		int ls = pe_link_listen(&S->link);
		if (ls == PE_OK) {
			link_note(S, &st, "a speaker's view can link at %s");
		} else {
			S->linked = false;
			if (ls == PE_LINK_UNSAFE)
				snprintf(why, sizeof why, "%s", S->link.why);
			else if (ls == PE_LINK_BUSY)
				snprintf(why, sizeof why, "another presenting instance "
				    "listens at %s", path);
			else
				snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
			link_unavailable(&st, why);
		}
	}
	struct pe_tui_hooks hooks = {pe_lesson_session_poll, S, 100};
	/* --record: the TUI creates the file once it has a terminal */
	struct pe_tui_opts to = {o->depth, o->theme, o->record, &hooks,
	    (enum pe_gfx)o->graphics};
	int rc = pe_tui_run(&st, &to);
	pe_lesson_session_close(S);
	return rc;
}
