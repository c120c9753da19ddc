/* The event loop: input -> state transitions -> model rebuild -> frame.
 * Every frame is pe_view_render at the terminal's size, written to curses;
 * `w` writes the same frame to files. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pescope/encoding.h"
#include "pescope/field.h"
#include "pescope/train.h"
#include "io/io.h"
#include "render/writer.h"
#include "tui/tui.h"
#include "view/view.h"

/* When nothing animates, wake up this often anyway (signals, safety). */
#define IDLE_MS 500
/* A frame that takes longer than this says so on the bottom line. */
#define BUSY_MS 100
/* While a frame is computed, look for keys and signals this often (the
 * kernel asks more often; the clock keeps that cheap). */
#define WATCH_MS 10
/* Most time spent applying input that keeps coming before the loop looks
 * at signals, its hooks and the clock again. */
#define DRAIN_MS 50
/* --train: the training between two frames takes at most about this long
 * (the trainer stops within a unit of its work: a block of positions of
 * one sequence, well under a millisecond at the defaults, about two at
 * the training bounds), so a key never waits long behind it. */
#define TRAIN_MS 8
/* --train: a frame shows the training at most this often (a key's frame
 * comes at once): each is a new table, every cell of the map redrawn,
 * which a terminal (or a link to it) need not get a hundred times a
 * second, and the time goes to training instead. */
#define TRAIN_FRAME_MS 40

/* What the kernel's interrupt check (pe_field_set_interrupt) looks at
 * while a frame is computed. */
struct watch {
	long long start;     /* when the frame began */
	long long next;	     /* when to look at the terminal again */
	bool keys;	     /* a key may stop the frame (not while saving) */
	bool busy_shown;     /* the bottom line says "computing" */
	bool stopped;	     /* the frame was cut short */
};

/* A pane's models (compare mode has two panes; else pane A alone). */
struct pane_models {
	struct pe_model models[2]; /* the current one and the next */
	int cur;		   /* index of the current model, -1: none */
	double *table;		   /* an untrained learned table we own */
};

struct loop {
	struct pe_state st;
	struct pane_models pane[2]; /* by enum pe_pane_id */
	struct pe_canvas cv;	   /* the last frame */
	struct pe_hit hit;	   /* where its parts landed */
	bool full;		   /* repaint every cell next frame */
	size_t owed;		   /* steps asked for (s) while paused */
	bool train_moved;	   /* a table changed since the last frame */
	long long train_drawn;	   /* when a frame last showed training */
};

/* Build pane `id`'s model for its config (after the state asked for a
 * rebuild). An untrained learned table whose d_model or max_len changed
 * is regenerated first. On failure the config of the model it had comes
 * back (a new pane B without one: compare ends) and the status line says
 * why; -1 when the first model of pane A cannot be built. */
static int
rebuild(struct loop *L, enum pe_pane_id id)
{
	struct pane_models *P = &L->pane[id];
	struct pe_config *c = pe_state_pane_cfg(&L->st, id);
	double *nt = NULL;
	int next = P->cur == 0 ? 1 : 0;

	/* what the encoding makes for itself (learned: the untrained table,
	 * the command line's, so the TUI and snapshot agree) */
	if (pe_config_prepare(c, &nt, NULL, 0) != PE_OK)
		goto fail;
	if (pe_model_init(&P->models[next], c) != PE_OK)
		goto fail;
	if (P->cur >= 0)
		pe_model_free(&P->models[P->cur]);
	P->cur = next;
	if (nt != NULL) {
		free(P->table);
		P->table = nt;
	}
	return 0;

fail:
	if (nt != NULL && c->table == nt)
		c->table = NULL;
	free(nt);
	if (P->cur < 0 && id == PE_PANE_A)
		return -1;
	if (P->cur < 0) /* pane B never had a model */
		pe_state_compare(&L->st, false);
	else
		*c = P->models[P->cur].cfg;
	pe_state_clamp(&L->st);
	snprintf(L->st.status, sizeof L->st.status, "out of memory for the %s "
	    "view; the previous settings are kept", pe_encoding_name(c->enc));
	return 0;
}

/* Rebuild the panes marked in need (pane B only while compare is on),
 * and clear the marks. */
static void
rebuild_needed(struct loop *L, bool need[2])
{
	if (need[PE_PANE_A])
		rebuild(L, PE_PANE_A);
	if (need[PE_PANE_B] && L->st.compare)
		rebuild(L, PE_PANE_B);
	need[PE_PANE_A] = need[PE_PANE_B] = false;
}

/* The model of the focused pane, with the other pane's beside it in
 * compare mode (the frame draws both). */
static struct pe_model *
focused_model(struct loop *L)
{
	enum pe_pane_id f = pe_state_focused(&L->st);
	struct pane_models *P = &L->pane[f], *O = &L->pane[!f];
	struct pe_model *m = &P->models[P->cur];
	m->other = L->st.compare && O->cur >= 0 ? &O->models[O->cur] : NULL;
	return m;
}

/* The interrupt check: stop the frame when a key is waiting, the terminal
 * went away, or a signal asks to quit; say that the frame is being
 * computed once it has taken BUSY_MS. */
static bool
watch_check(void *arg)
{
	struct watch *wt = arg;
	long long now;

	if (wt->stopped)
		return true;
	now = pe_clock_ms();
	if (now < wt->next)
		return false;
	wt->next = now + WATCH_MS;
	if (pe_crt_quit_signal() != 0 || (wt->keys && pe_input_pending())) {
		wt->stopped = true;
		return true;
	}
	if (!wt->busy_shown && now - wt->start >= BUSY_MS) {
		pe_crt_busy(wt->keys ? " computing the frame… any key "
		    "interrupts, q quits " : " computing the frame… ");
		wt->busy_shown = true;
	}
	return false;
}

/* Render the frame for the current state at the terminal's size into
 * L->cv (and L->hit). keys: a key may cut it short. Returns 0, 1 when it
 * was cut short (L->cv is not a frame then), -1 when out of memory. A
 * panel the kernel could not compute says so in the frame, and the status
 * line repeats it. */
static int
render(struct loop *L, bool keys)
{
	struct watch wt = {.start = pe_clock_ms(), .keys = keys};
	int w, h;

	pe_crt_size(&w, &h);
	if (L->cv.cells == NULL || L->cv.w != w || L->cv.h != h) {
		pe_canvas_free(&L->cv);
		if (pe_canvas_init(&L->cv, w, h) != PE_OK) {
			memset(&L->cv, 0, sizeof L->cv);
			return -1;
		}
		L->full = true;
	}
	L->cv.depth = pe_crt_depth(); /* legends name the colors on screen */
	L->cv.theme = pe_crt_theme();
	/* the pixels of a cell now (a font size may have changed with the
	 * size): the maps' pictures at that resolution, or none */
	int pw, ph;
	pe_gfx_cell(&pw, &ph);
	if (pw != L->cv.px_w || ph != L->cv.px_h)
		L->full = true;
	pe_canvas_want_pixels(&L->cv, pw, ph, pw > 0
	    ? pe_gfx_name(pe_gfx_mode()) : NULL);
	wt.next = wt.start + WATCH_MS;
	pe_field_set_interrupt(watch_check, &wt);
	int rc = pe_view_render(&L->st, focused_model(L), &L->cv, &L->hit);
	pe_field_set_interrupt(NULL, NULL);
	if (wt.stopped)
		return 1;
	if (rc != PE_OK && L->st.status[0] == '\0') {
		pe_state_status(&L->st, "part of the frame is not drawn: %s",
		    pe_strerror(rc));
		/* the status line is part of the frame: draw it once more */
		pe_view_render(&L->st, focused_model(L), &L->cv, &L->hit);
	}
	return 0;
}

/* Write cv as fmt into a kept temporary file beside dir/name (io's atomic
 * files). Returns 0 or an errno value. */
static int
write_kept(struct pe_atomic *a, const char *dir, const char *name,
    const struct pe_canvas *cv, enum pe_format fmt, const char *title)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	errno = 0;
	if (pe_atomic_open(a, path) != PE_OK)
		return errno != 0 ? errno : EIO;
	struct pe_write_opts wo = {pe_crt_depth(), pe_crt_theme(), title};
	if (pe_write(a->fp, cv, fmt, &wo) != PE_OK ||
	    pe_atomic_finish(a) != PE_OK) {
		int e = errno != 0 ? errno : EIO;
		pe_atomic_abort(a);
		return e;
	}
	return 0;
}

/* Write the training run's position table [n, d] as NPY (f8: the
 * numbers --table-file reads back exactly) into a kept temporary file
 * beside dir/name. Returns 0 or an errno value. */
static int
write_table_kept(struct pe_atomic *a, const char *dir, const char *name,
    const struct pe_trainer *tr)
{
	const struct pe_train_config *tc = pe_train_config(tr);
	struct pe_table t = {2, {tc->n, tc->d, 0}, pe_train_table(tr), NULL};
	char path[4200];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	errno = 0;
	if (pe_atomic_open(a, path) != PE_OK)
		return errno != 0 ? errno : EIO;
	if (pe_npy_write(a->fp, &t, PE_F64) != PE_OK ||
	    pe_atomic_finish(a) != PE_OK) {
		int e = errno != 0 ? errno : EIO;
		pe_atomic_abort(a);
		return e;
	}
	return 0;
}

/* Write the frame as .ansi (at the depth on screen) and .txt into
 * $PESCOPE_SNAPSHOT_DIR or the current folder, named after the encoding
 * and the time, never overwriting: each file is written under a temporary
 * name and linked to its final name, adding -1, -2 ... while that name
 * exists. A pane being trained (--train) adds its table as .npy, for
 * --table-file. The status line says where, or why not. */
static void
snapshot(struct loop *L)
{
	const char *dir = getenv("PESCOPE_SNAPSHOT_DIR");
	const char *enc = pe_encoding_name(L->st.pane[L->st.focus].cfg.enc);
	const struct pe_trainer *tr = L->st.pane[L->st.focus].cfg.trainer;
	char fa[4200], ft[4200], fn[4200], stamp[32], title[64];
	struct pe_atomic ansi, txt, npy;
	time_t t = time(NULL);
	struct tm tm;
	int e;

	if (dir == NULL || dir[0] == '\0')
		dir = ".";
	localtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	snprintf(title, sizeof title, "pescope %s", enc);

	if ((e = write_kept(&ansi, dir, "snapshot.ansi", &L->cv, PE_FMT_ANSI,
		 title)) != 0)
		goto fail;
	if ((e = write_kept(&txt, dir, "snapshot.txt", &L->cv, PE_FMT_TXT,
		 title)) != 0) {
		pe_atomic_abort(&ansi);
		goto fail;
	}
	if (tr != NULL && (e = write_table_kept(&npy, dir, "snapshot.npy",
	    tr)) != 0) {
		pe_atomic_abort(&ansi);
		pe_atomic_abort(&txt);
		goto fail;
	}
	/* both names free, with the same suffix: -1, -2 ... */
	e = EEXIST;
	for (int k = 0; k < 1000 && e == EEXIST; k++) {
		char sfx[16] = "";
		if (k > 0)
			snprintf(sfx, sizeof sfx, "-%d", k);
		snprintf(fa, sizeof fa, "%s/pescope-%s-%s%s.ansi", dir, enc, stamp,
		    sfx);
		snprintf(ft, sizeof ft, "%s/pescope-%s-%s%s.txt", dir, enc, stamp,
		    sfx);
		snprintf(fn, sizeof fn, "%s/pescope-%s-%s%s.npy", dir, enc,
		    stamp, sfx);
		e = 0;
		if (pe_atomic_link(&ansi, fa) != PE_OK) {
			e = errno;
			continue;
		}
		if (pe_atomic_link(&txt, ft) != PE_OK) {
			e = errno;
			unlink(fa);
			continue;
		}
		if (tr != NULL && pe_atomic_link(&npy, fn) != PE_OK) {
			e = errno;
			unlink(fa);
			unlink(ft);
		}
	}
	pe_atomic_abort(&ansi); /* the temporary names go */
	pe_atomic_abort(&txt);
	if (tr != NULL)
		pe_atomic_abort(&npy);
	if (e != 0)
		goto fail;
	if (tr != NULL)
		snprintf(L->st.status, sizeof L->st.status, "saved %.150s, "
		    ".txt and the table .npy (--table-file)", fa);
	else
		snprintf(L->st.status, sizeof L->st.status, "saved %.170s and "
		    ".txt", fa);
	return;

fail:
	snprintf(L->st.status, sizeof L->st.status, "snapshot not saved in %s: "
	    "%s", dir, pe_io_why(e));
}

/* Mark for a rebuild the panes that show run tr. */
static void
train_moved(struct loop *L, const struct pe_trainer *tr, bool need[2])
{
	for (int p = 0; p < 2; p++) {
		enum pe_pane_id id = (enum pe_pane_id)p;
		if (pe_state_pane_cfg(&L->st, id)->trainer == tr &&
		    (id == PE_PANE_A || L->st.compare))
			need[p] = true;
	}
}

/* --train: do what a key asked of the focused pane's run (a restart, a
 * step), then train each pane's run for its share of TRAIN_MS, unless
 * training is paused (a step asked for is still taken). A pane whose
 * table changed is marked for a rebuild; a run that diverged or reached
 * the step bound stops and says so. Returns whether a run is training
 * (the loop does not wait for input then). */
static bool
train(struct loop *L, bool need[2], bool *dirty)
{
	struct pe_state *st = &L->st;
	struct pe_trainer *mine = pe_state_pane_cfg(st, st->focus)->trainer;
	struct pe_trainer *runs[2] = {NULL, NULL};
	int nruns = 0;
	bool active = false;

	for (int p = 0; p < (st->compare ? 2 : 1); p++) {
		const struct pe_config *c = pe_state_pane_cfg(st,
		    (enum pe_pane_id)p);
		/* a run trains while its pane shows it */
		if (c->trainer != NULL &&
		    (pe_config_def(c)->params & PE_PARAM_TABLE) &&
		    (nruns == 0 || runs[0] != c->trainer))
			runs[nruns++] = c->trainer;
	}
	if (st->train_req == PE_TRAIN_REQ_RESTART && mine != NULL) {
		pe_train_restart(mine);
		L->owed = 0;
		train_moved(L, mine, need);
		*dirty = true;
	} else if (st->train_req == PE_TRAIN_REQ_STEP && mine != NULL) {
		L->owed++;
	}
	st->train_req = PE_TRAIN_REQ_NONE;
	for (int i = 0; i < nruns; i++) {
		struct pe_train_stats a, b;
		pe_train_stats(runs[i], &a);
		size_t want = !st->train_paused ? PE_TRAIN_MAX_STEPS - a.step
		    : runs[i] == mine ? L->owed : 0;
		if (a.diverged || a.step >= PE_TRAIN_MAX_STEPS || want == 0)
			continue;
		size_t done = 0;
		int rc = pe_train_run(runs[i], want, TRAIN_MS / 1e3 / nruns,
		    &done);
		if (st->train_paused && runs[i] == mine)
			L->owed -= done < L->owed ? done : L->owed;
		pe_train_stats(runs[i], &b);
		if (rc == PE_ERANGE)
			pe_state_status(st, "training diverged at step %zu: "
			    "the loss stopped being finite (a smaller --lr "
			    "may train); r starts again", b.step + 1);
		else if (rc != PE_OK)
			pe_state_status(st, "training stopped: %s",
			    pe_strerror(rc));
		else if (b.step >= PE_TRAIN_MAX_STEPS)
			pe_state_status(st, "training stopped at %d steps, the "
			    "bound; r starts again", PE_TRAIN_MAX_STEPS);
		else
			active = true;
		if (b.step != a.step || b.eval_step != a.eval_step ||
		    rc != PE_OK) {
			train_moved(L, runs[i], need);
			L->train_moved = true;
		}
		if (rc != PE_OK || (st->train_paused && runs[i] == mine))
			*dirty = true; /* a message, a step asked for: now */
	}
	long long now = pe_clock_ms();
	if (L->train_moved && (*dirty || now - L->train_drawn >=
	    TRAIN_FRAME_MS)) {
		*dirty = true;
		L->train_moved = false;
		L->train_drawn = now;
	}
	return active || L->train_moved;
}

/* Where a mouse event is: its cell, and its pixel on the screen (px -1
 * where the terminal reports cells) with a cell's pixels. */
static struct pe_gfx_pointer
pointer_of(const struct pe_input *in)
{
	struct pe_gfx_pointer p;
	if (!pe_gfx_mouse_at(in->x, in->y, &p))
		p = (struct pe_gfx_pointer){-1, -1, in->x, in->y, 0, 0};
	return p;
}

/* The element of the main map (other: of the other pane's, in compare
 * mode) under the pointer: the pixel's sample where the terminal reports
 * pixels, else the cell's. */
static bool
hit_at(const struct loop *L, const struct pe_gfx_pointer *p, bool other, size_t *r,
    size_t *c)
{
	if (p->px >= 0)
		return (other ? pe_view_hit_other_px : pe_view_hit_map_px)(
		    &L->hit, p->px, p->py, p->cw, p->ch, r, c);
	return (other ? pe_view_hit_other : pe_view_hit_map)(&L->hit, p->x,
	    p->y, r, c);
}

/* The help closed by a click or the wheel, as by any key ("any key
 * closes this help"), which then does nothing else; false when it was not
 * open. */
static bool
help_closed(struct loop *L)
{
	if (!L->st.help)
		return false;
	L->st.help = false;
	L->st.status[0] = '\0';
	return true;
}

/* Handle a click: a tab chooses the encoding, the map moves the cursor. */
static int
click(struct loop *L, const struct pe_input *in)
{
	size_t r, c;
	struct pe_gfx_pointer p = pointer_of(in);
	int x = p.x, y = p.y;

	if (L->hit.too_small)
		return PE_ACT_NONE;
	if (help_closed(L))
		return PE_ACT_REDRAW;
	if (y == L->hit.tab_y) {
		for (int e = 0; e < PE_ENC_COUNT; e++)
			if (x >= L->hit.tab_x0[e] && x < L->hit.tab_x1[e]) {
				/* as a number key would (past the ninth there is
				 * none): clears the message */
				L->st.status[0] = '\0';
				return pe_state_set_encoding(&L->st, e) |
				    PE_ACT_REDRAW;
			}
		return PE_ACT_NONE;
	}
	int act = PE_ACT_NONE;
	enum pe_pane_id other = pe_state_focused(&L->st) == PE_PANE_A
	    ? PE_PANE_B : PE_PANE_A;
	if (hit_at(L, &p, true, &r, &c)) /* compare: focus it */
		act = pe_state_focus(&L->st, other);
	else if (!hit_at(L, &p, false, &r, &c))
		return PE_ACT_NONE;
	L->st.status[0] = '\0';
	return act | pe_state_point(&L->st, r, c);
}

/* Handle the wheel: zoom around the element under the pointer, or around
 * the cursor when the pointer is off the map. */
static int
wheel(struct loop *L, const struct pe_input *in)
{
	size_t r = L->st.cur_r, c = L->st.cur_c;

	if (L->hit.too_small)
		return PE_ACT_NONE;
	if (help_closed(L))
		return PE_ACT_REDRAW;
	struct pe_gfx_pointer p = pointer_of(in);
	if (!hit_at(L, &p, false, &r, &c))
		hit_at(L, &p, true, &r, &c);
	L->st.status[0] = '\0';
	return pe_state_zoom(&L->st, in->wheel, r, c);
}

/* Free everything the loop owns. */
static void
loop_free(struct loop *L)
{
	for (int i = 0; i < 2; i++) {
		struct pane_models *P = &L->pane[i];
		if (P->cur >= 0)
			pe_model_free(&P->models[P->cur]);
		P->cur = -1;
		free(P->table);
		P->table = NULL;
	}
	pe_canvas_free(&L->cv);
}

/* Note a key or sequence that does nothing on the status line. */
static int
unknown(struct loop *L, const char *name)
{
	if (strncmp(name, "ESC ", 4) == 0)
		snprintf(L->st.status, sizeof L->st.status, "unknown key "
		    "sequence %s ignored", name);
	else
		snprintf(L->st.status, sizeof L->st.status, "%s does nothing "
		    "here; ? lists the keys", name);
	return PE_ACT_REDRAW;
}

/* Apply one event to the state; enum pe_action bits. */
static int
apply(struct loop *L, const struct pe_input *in)
{
	switch (in->kind) {
	case PE_IN_KEY:
		return pe_state_key(&L->st, in->key, L->hit.cell_rows,
		    L->hit.cell_cols);
	case PE_IN_CLICK:
		return click(L, in);
	case PE_IN_WHEEL:
		return wheel(L, in);
	case PE_IN_UNKNOWN:
		return unknown(L, in->name);
	case PE_IN_RESIZE:
		L->full = true;
		return PE_ACT_REDRAW;
	case PE_IN_REPLY: /* a late answer to a query: a cell's pixels */
		if (pe_gfx_reply(in->name)) {
			L->full = true;
			return PE_ACT_REDRAW;
		}
		return PE_ACT_NONE;
	case PE_IN_NONE:
	case PE_IN_GONE:
		break;
	}
	return PE_ACT_NONE;
}

/* What drain() found. */
enum drained { DRAIN_ON, DRAIN_QUIT, DRAIN_GONE };

/* Wait up to timeout ms for input, then apply every event that is waiting
 * (for DRAIN_MS at most, then again on the next turn of the loop): keys
 * are cheap state changes, so a storm of them is one change of the state,
 * and the panes whose config they changed are marked in need[] for one
 * model build after them, not one per key. dirty: the frame must be drawn
 * again. A quit signal stops the draining at once (the loop ends). */
static enum drained
drain(struct loop *L, int timeout, bool need[2], bool *dirty)
{
	struct pe_input in;
	long long until = 0;

	for (pe_input_read(&in, timeout); in.kind != PE_IN_NONE;
	     pe_input_read(&in, 0)) {
		if (in.kind == PE_IN_GONE)
			return DRAIN_GONE;
		if (pe_crt_quit_signal() != 0)
			break;
		int act = apply(L, &in);
		if (act & PE_ACT_QUIT)
			return DRAIN_QUIT;
		if (act & PE_ACT_REBUILD) /* the focused pane's */
			need[pe_state_focused(&L->st)] = true;
		if (act & PE_ACT_SNAPSHOT) {
			/* The frame of the state as it is now (a message the key
			 * cleared is not part of it). */
			rebuild_needed(L, need);
			if (render(L, false) == 0)
				snapshot(L);
		}
		if (act & (PE_ACT_REDRAW | PE_ACT_REBUILD | PE_ACT_SNAPSHOT))
			*dirty = true;
		long long now = pe_clock_ms();
		if (until == 0)
			until = now + DRAIN_MS;
		else if (now >= until)
			break;
	}
	return DRAIN_ON;
}

/* Run the interactive program from a ready state; see tui.h. */
int
pe_tui_run(const struct pe_state *start, const struct pe_tui_opts *opts)
{
	struct loop L;
	char err[256];
	int rc = 0, sig = 0;

	memset(&L, 0, sizeof L);
	L.pane[0].cur = L.pane[1].cur = -1;
	L.st = *start;
	const struct pe_tui_hooks *hooks = opts->hooks;
	pe_crt_set_theme(opts->theme);
	if (pe_crt_init(opts->depth, opts->record, err, sizeof err) != 0) {
		pe_crt_fatal("%s", err);
		return 2;
	}
	if (rebuild(&L, PE_PANE_A) != 0 ||
	    (L.st.compare && rebuild(&L, PE_PANE_B) != 0)) {
		loop_free(&L);
		pe_crt_fatal("cannot prepare the %s view (out of memory?)",
		    pe_encoding_name(L.st.pane[L.st.focus].cfg.enc));
		return 1;
	}
	char gfx_why[160];
	pe_crt_graphics(opts->graphics, gfx_why, sizeof gfx_why);
	if (pe_crt_note() != NULL)
		snprintf(L.st.status, sizeof L.st.status, "%s", pe_crt_note());
	else if (gfx_why[0] != '\0')
		snprintf(L.st.status, sizeof L.st.status, "%s", gfx_why);
	if (pe_crt_note() == NULL && pe_gfx_mode() != PE_GFX_CELLS)
		snprintf(L.st.status_note, sizeof L.st.status_note, "%s",
		    gfx_why); /* pictures in use: a note, not a warning */

	bool dirty = true, gone = false, rec_said = false;
	bool need[2] = {false, false}; /* a model to build, by pane */
	long long next_tick = 0;
	L.full = true;
	for (;;) {
		if ((sig = pe_crt_quit_signal()) != 0)
			break;
		if (pe_crt_take_suspend()) {
			pe_crt_suspend();
			dirty = L.full = true;
		}
		if (pe_crt_take_continue())
			dirty = L.full = true;
		/* Input that waits is applied first: a model is built and a
		 * frame drawn only for the state it leaves. */
		bool waiting = pe_input_pending();
		if (dirty && !waiting) {
			rebuild_needed(&L, need);
			int r = render(&L, true);
			if (r < 0) {
				int w, h;
				pe_crt_size(&w, &h);
				pe_crt_fatal("out of memory for a %dx%d frame", w, h);
				rc = 1;
				break;
			}
			if (r == 0) {
				pe_crt_draw(&L.cv, L.full);
				dirty = L.full = false;
			}
		}

		/* --train: a slice of training, then the frame of what it
		 * did on the next turn */
		bool training = train(&L, need, &dirty);
		/* Wait for input (not when a frame is owed: its keys are
		 * there), then apply everything that has arrived before
		 * drawing again: keys never queue behind frames. */
		int timeout = dirty || training ? 0 : IDLE_MS;
		if (L.st.playing && !dirty) {
			long long now = pe_clock_ms();
			long long period = 1000 / L.st.speed;
			if (next_tick == 0 || next_tick > now + period)
				next_tick = now + period;
			timeout = next_tick > now ? (int)(next_tick - now) : 0;
		}
		if (hooks != NULL && timeout > hooks->period_ms)
			timeout = hooks->period_ms;
		enum drained dr = drain(&L, timeout, need, &dirty);
		bool quit = dr == DRAIN_QUIT;
		gone = dr == DRAIN_GONE;
		if (!quit && !gone && hooks != NULL) {
			int act = hooks->poll(hooks->arg, &L.st);
			quit = (act & PE_ACT_QUIT) != 0;
			if (act & PE_ACT_REBUILD) /* a scene: one pane */
				need[pe_state_focused(&L.st)] = true;
			if (act & (PE_ACT_REDRAW | PE_ACT_REBUILD))
				dirty = true;
		}
		if (quit || gone)
			break;
		if (!rec_said && pe_rec_failed() != 0) {
			/* the session goes on; the exit message says it again */
			rec_said = true;
			pe_state_status(&L.st, "recording stopped: %s; %s ends at "
			    "the last whole event", pe_io_why(pe_rec_failed()),
			    pe_rec_name());
			dirty = true;
		}
		if (L.st.playing && next_tick != 0 &&
		    pe_clock_ms() >= next_tick) {
			next_tick += 1000 / L.st.speed;
			if (pe_state_key(&L.st, PE_KEY_TICK, L.hit.cell_rows,
			    L.hit.cell_cols) & (PE_ACT_REDRAW | PE_ACT_REBUILD))
				dirty = true;
		}
		if (!L.st.playing)
			next_tick = 0;
	}

	loop_free(&L);
	/* a signal that came with the terminal's hangup (or while the loop
	 * ended for another reason) is the way the program ends */
	if (sig == 0)
		sig = pe_crt_quit_signal();
	if (gone && sig == 0) {
		pe_crt_fatal("the terminal went away (end of input)");
		rc = 1;
	}
	pe_crt_done();
	if (sig == 0)
		sig = pe_crt_quit_signal(); /* until the handlers were released */
	struct sigaction hup;
	if (gone && sig == 0 && sigaction(SIGHUP, NULL, &hup) == 0 &&
	    !(hup.sa_flags & SA_SIGINFO) && hup.sa_handler == SIG_DFL) {
		/* A hangup ends a program by SIGHUP (unless nohup said
		 * otherwise), not by exit: its atexit work would run in a
		 * session going away, and under LeakSanitizer the leak check
		 * stops the whole process with ptrace, a stop that a SIGCONT
		 * of the dying session cancels (its tracer then waits forever
		 * and the process spins, orphaned). */
		sig = SIGHUP;
	}
	char why[4600];
	if (pe_rec_report(why, sizeof why)) {
		pe_crt_fatal("%s", why);
		if (rc == 0)
			rc = 1;
	}
	if (sig != 0) {
		/* Die of the signal, as the shell expects, now that the
		 * terminal is restored. */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return rc;
}
