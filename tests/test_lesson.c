/* Lessons: the built-in lesson's scenes render whole at every
 * size with every placeholder filled; the numbers of scenes 2, 4, 5, 7 and
 * 12 agree with independent arithmetic or the kernel; the keys step
 * scenes and steps; a bad lesson is refused at its line; a lesson written
 * from the guide (docs/lessons.md) loads. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "app/lesson.h"
#include "helpers.h"
#include "pescope/alibi.h"
#include "pescope/learned.h"
#include "pescope/sinusoidal.h"
#include "pescope/toy.h"
#include "view/encoding.h"
#include "view/lesson.h"
#include "view/view.h"

/* The focused pane of state s (the one the keys change). */
#define PANE(s) ((s).pane[(s).focus])

/* The built-in lesson. */
static void
load_intro(struct pe_app_lesson *al)
{
	struct pe_options o;
	char err[1024];
	memset(&o, 0, sizeof o);
	int rc = pe_app_lesson_load(al, &o, err, sizeof err);
	cr_assert_eq(rc, 0, "%s", err);
}

/* The index (from 0) of the built-in lesson's scene whose title starts
 * with title: the tests name scenes, so a scene added moves none. */
static size_t
scene_titled(const struct pe_lesson *l, const char *title)
{
	for (size_t k = 0; k < l->nscenes; k++)
		if (strncmp(l->scenes[k].title, title, strlen(title)) == 0)
			return k;
	cr_assert_fail("no scene '%s' in the lesson", title);
	return 0;
}

/* The caption of scene k (from 1), step s (from 1), as the frame fills
 * it, into buf. */
static void
caption(const struct pe_app_lesson *al, size_t k, size_t s, char *buf,
    size_t cap)
{
	struct pe_state st;
	struct pe_model m;
	memset(&st, 0, sizeof st);
	st.session.lesson = &al->l;
	pe_lesson_goto(&st, k - 1, s - 1);
	cr_assert_eq(pe_model_init(&m, &PANE(st).cfg), PE_OK);
	cr_assert_eq(pe_lesson_caption(&st, &m, buf, cap), 0, "%s", buf);
	pe_model_free(&m);
}

/* The canvas's text, rows joined by '\n'. */
static char *
canvas_text(const struct pe_canvas *cv)
{
	size_t cap = (size_t)cv->w * (size_t)cv->h * 4 + (size_t)cv->h + 1, o = 0;
	char *s = malloc(cap);
	for (int y = 0; y < cv->h; y++) {
		for (int x = 0; x < cv->w; x++)
			o += (size_t)pe_utf8_encode(cv->cells[y * cv->w + x].cp, s + o);
		s[o++] = '\n';
	}
	s[o] = '\0';
	return s;
}

/* A lesson step drawn: its state, model, canvas and the canvas's text. */
struct drawn {
	struct pe_state st;
	struct pe_model m;
	struct pe_canvas cv;
	char *text;
};

/* Draw step s of scene k (from 0) of l at w x h, the presenter's view
 * when present; hit (or NULL) gets the frame's places. Free with
 * drawn_free. */
static void
draw_step(struct drawn *d, const struct pe_lesson *l, size_t k, size_t s,
    int w, int h, bool present, struct pe_hit *hit)
{
	memset(&d->st, 0, sizeof d->st);
	d->st.session.lesson = l;
	d->st.session.present = present;
	pe_lesson_goto(&d->st, k, s);
	cr_assert_eq(pe_model_init(&d->m, &PANE(d->st).cfg), PE_OK);
	pe_canvas_init(&d->cv, w, h);
	pe_view_render(&d->st, &d->m, &d->cv, hit);
	d->text = canvas_text(&d->cv);
}

/* Free what draw_step made. */
static void
drawn_free(struct drawn *d)
{
	free(d->text);
	pe_canvas_free(&d->cv);
	pe_model_free(&d->m);
}

/* A fresh $XDG_STATE_HOME (where the presenter keeps its place) for a
 * test; state_home_end removes it. */
static char *
state_home_begin(void)
{
	char *dir = th_tmpdir();
	cr_assert_not_null(dir);
	setenv("XDG_STATE_HOME", dir, 1);
	return dir;
}

/* Remove the test's $XDG_STATE_HOME. */
static void
state_home_end(char *dir)
{
	char cmd[600];
	unsetenv("XDG_STATE_HOME");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
	free(dir);
}

/* Every step of every scene at three sizes: drawn, no placeholder left
 * unfilled or out of place, the whole caption on screen. */
Test(lesson, every_scene_renders_whole)
{
	static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	struct pe_app_lesson al;
	load_intro(&al);
	cr_assert_geq(al.l.nscenes, 16);
	for (size_t k = 0; k < al.l.nscenes; k++)
		for (size_t s = 0; s < al.l.scenes[k].nsteps; s++) {
			struct pe_state st;
			struct pe_model m;
			char cap[8192];
			memset(&st, 0, sizeof st);
			st.session.lesson = &al.l;
			pe_lesson_goto(&st, k, s);
			cr_assert_eq(pe_model_init(&m, &PANE(st).cfg), PE_OK);
			cr_assert_eq(pe_lesson_caption(&st, &m, cap, sizeof cap), 0,
			    "scene %zu.%zu: %s", k + 1, s + 1, cap);
			cr_expect(strchr(cap, '{') == NULL && strchr(cap, '}') == NULL,
			    "scene %zu.%zu: %s", k + 1, s + 1, cap);
			cr_expect(strstr(cap, "(n/a") == NULL &&
			    strstr(cap, " nan") == NULL,
			    "scene %zu.%zu: %s", k + 1, s + 1, cap);
			for (size_t z = 0; z < 3; z++) {
				struct pe_canvas cv;
				pe_canvas_init(&cv, sizes[z][0], sizes[z][1]);
				cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
				char *t = canvas_text(&cv);
				cr_expect(strstr(t, "more line") == NULL, "scene %zu.%zu at "
				    "%dx%d: the caption does not fit", k + 1, s + 1,
				    sizes[z][0], sizes[z][1]);
				char head[32];
				snprintf(head, sizeof head, " %zu/%zu · ", k + 1,
				    al.l.nscenes);
				cr_expect(strncmp(t, head, strlen(head)) == 0, "%.80s", t);
				free(t);
				pe_canvas_free(&cv);
			}
			pe_model_free(&m);
		}
	pe_app_lesson_free(&al);
}

/* Whether every word of caption appears, in order, in the text of the
 * frame's caption band (the rows under its rule; a text-only scene's
 * rows under the scene line): no word is cut, shortened or left out.
 * The first missing word into miss[cap]. */
static bool
caption_uncut(const struct pe_canvas *cv, const char *caption, bool text_only,
    char *miss, size_t cap)
{
	char *t = canvas_text(cv), *band = NULL;
	for (char *line = t; line != NULL && *line != '\0';) {
		char *nl = strchr(line, '\n');
		if (text_only && line == t) {
			band = nl + 1;
			break;
		}
		if (strncmp(line, "────", strlen("────")) == 0) {
			band = nl + 1;
			break;
		}
		line = nl != NULL ? nl + 1 : NULL;
	}
	bool ok = band != NULL;
	if (!ok)
		snprintf(miss, cap, "(no caption band)");
	for (char *p = band; p != NULL && *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	char *words = strdup(caption), *save = NULL;
	const char *at = band;
	for (char *w = strtok_r(words, " \n", &save); ok && w != NULL;
	     w = strtok_r(NULL, " \n", &save)) {
		const char *f = strstr(at, w);
		if (f == NULL) {
			snprintf(miss, cap, "'%s'", w);
			ok = false;
			break;
		}
		at = f + strlen(w);
	}
	if (ok && (strchr(band, '{') != NULL || strstr(band, "more line")))
		snprintf(miss, cap, "a placeholder or \"more lines\""), ok = false;
	free(words);
	free(t);
	return ok;
}

/* Every step of every scene, at 80x24, 120x40 and 200x60, in the
 * presenter view and without it, in both themes: the whole caption on
 * screen, no word cut or left out, no placeholder unfilled. */
Test(lesson, no_caption_is_cut)
{
	static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	struct pe_app_lesson al;
	load_intro(&al);
	int bad = 0;
	for (size_t k = 0; k < al.l.nscenes; k++)
		for (size_t s = 0; s < al.l.scenes[k].nsteps; s++) {
			struct pe_state st;
			struct pe_model m;
			char cap[16384], miss[600];
			memset(&st, 0, sizeof st);
			st.session.lesson = &al.l;
			pe_lesson_goto(&st, k, s);
			cr_assert_eq(pe_model_init(&m, &PANE(st).cfg), PE_OK);
			cr_assert_eq(pe_lesson_caption(&st, &m, cap, sizeof cap), 0);
			for (size_t z = 0; z < 3; z++)
				for (int v = 0; v < 4; v++) {
					struct pe_canvas cv;
					st.session.present = v & 1;
					pe_canvas_init(&cv, sizes[z][0], sizes[z][1]);
					cv.theme = v >> 1;
					cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
					if (!caption_uncut(&cv, cap, al.l.scenes[k].text_only,
					    miss, sizeof miss) && bad++ < 20)
						cr_expect_fail("scene %zu.%zu at %dx%d%s%s: %s "
						    "is not on screen", k + 1, s + 1, sizes[z][0],
						    sizes[z][1], v & 1 ? ", presenter" : "",
						    v >> 1 ? ", light" : "", miss);
					pe_canvas_free(&cv);
				}
			pe_model_free(&m);
		}
	cr_expect_eq(bad, 0, "%d frames cut a caption", bad);
	pe_app_lesson_free(&al);
}

/* "[a, b, c, d]" as captions write a vector (%.3g, no-break spaces). */
static void
vec(char *buf, size_t cap, const double *v, size_t n)
{
	size_t o = (size_t)snprintf(buf, cap, "[");
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(buf + o, cap - o, "%s%.3g", i ? ",\u00a0" : "",
		    v[i] + 0.0);
	snprintf(buf + o, cap - o, "]");
}

/* Scene 2: x + PE(0), then a step at p = 5 (the cursor there, so that
 * the panel shows what the caption says) with x + PE(5), d = 4, from sin
 * and cos directly (Vaswani et al. 2017, sec. 3.5: PE(p, 2i) = sin(p /
 * 10000^(2i/d)), PE(p, 2i+1) = cos(...)). */
Test(lesson, scene_2_adds_the_position)
{
	struct pe_app_lesson al;
	char cap[8192], want[256];
	load_intro(&al);
	caption(&al, 2, 1, cap, sizeof cap);
	double x[4] = {0.51, -0.22, 0.88, 0.14}, y[4];
	cr_expect(strstr(cap, "[0.51,\u00a00.78,\u00a00.88,\u00a01.14]") != NULL,
	    "%s", cap);
	cr_expect(strstr(cap, "PE(5)") == NULL, "PE(5) comes with its step");
	cr_assert_eq(al.l.scenes[1].nsteps, 2);
	cr_expect_eq(al.l.scenes[1].steps[1].start.cur_r, 5, "the panel at 5");
	caption(&al, 2, 2, cap, sizeof cap);
	y[0] = x[0] + sin(5.0), y[1] = x[1] + cos(5.0);
	y[2] = x[2] + sin(5.0 / 100.0), y[3] = x[3] + cos(5.0 / 100.0);
	vec(want, sizeof want, y, 4);
	cr_expect(strstr(cap, want) != NULL, "%s not in %s", want, cap);
	double n = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2] + y[3] * y[3]);
	snprintf(want, sizeof want, "|x + PE(5)| = %.4g", n);
	cr_expect(strstr(cap, want) != NULL, "%s not in %s", want, cap);
	pe_app_lesson_free(&al);
}

/* Scene 2's panel reads as sentences: x is the token's vector that
 * --embedding gives (it printed "x = --embedding (4 numbers)", x equal to
 * a flag), and the norms stand apart ("|x| = 1.05 · |PE(0)| = 1.414" read
 * as a product). */
Test(lesson, scene_2_panel_says_what_x_is)
{
	struct pe_app_lesson al;
	load_intro(&al);
	for (size_t step = 0; step < 2; step++) {
		struct drawn d;
		draw_step(&d, &al.l, 1, step, 120, 40, false, NULL);
		const char *t = d.text;
		cr_expect(strstr(t, "x = --embedding") == NULL, "2.%zu: %s",
		    step + 1, t);
		cr_expect(strstr(t, "--embedding") != NULL, "2.%zu names the "
		    "flag: %s", step + 1, t);
		const char *n = strstr(t, "|x| = ");
		cr_expect(n != NULL, "2.%zu: %s", step + 1, t);
		for (const char *p = n; p != NULL && *p != '\n'; p++)
			cr_expect(strncmp(p, "· |", strlen("· |")) != 0, "2.%zu: a "
			    "norm after a product sign: %.80s", step + 1, n);
		drawn_free(&d);
	}
	pe_app_lesson_free(&al);
}

/* Scene 4: t = 5, d = 4; omega_1 = 10000^(-2/4) = 0.01. */
Test(lesson, scene_4_the_table_by_hand)
{
	struct pe_app_lesson al;
	char cap[8192], want[256];
	load_intro(&al);
	caption(&al, 4, 1, cap, sizeof cap);
	cr_expect(strstr(cap, "ω_0 = 1 and ω_1 = 0.01") != NULL, "%s", cap);
	double p1[4] = {sin(1.0), cos(1.0), sin(0.01), cos(0.01)};
	double p4[4] = {sin(4.0), cos(4.0), sin(0.04), cos(0.04)};
	vec(want, sizeof want, p1, 4);
	cr_expect(strstr(cap, want) != NULL, "%s not in %s", want, cap);
	vec(want, sizeof want, p4, 4);
	cr_expect(strstr(cap, want) != NULL, "%s not in %s", want, cap);
	snprintf(want, sizeof want, "PE[1, 0] = %.4g", sin(1.0));
	cr_expect(strstr(cap, want) != NULL, "%s not in %s", want, cap);
	pe_app_lesson_free(&al);
}

/* Scene 5: K and the residual the kernel finds over every position. */
Test(lesson, scene_5_shift_residual_is_the_kernels)
{
	struct pe_app_lesson al;
	char cap[8192], want[256];
	double r;
	load_intro(&al);
	caption(&al, 5, 1, cap, sizeof cap);
	cr_assert_eq(pe_sinusoidal_shift_residual(64, 16, 10000, PE_LAYOUT_INTERLEAVED,
	    3, 0, 64, &r), PE_OK);
	cr_expect(r < 1e-12, "the residual is rounding: %g", r);
	/* the check runs over p = 0 .. 60: p + K within the 64 positions */
	snprintf(want, sizeof want, "Here K = 3: for every p from 0 to 60 (p + "
	    "K stays within the 64 positions) the largest |PE(p+K) − M_K·PE(p)| "
	    "is %.2g", r);
	cr_expect(strstr(cap, want) != NULL, "%s not in %s", want, cap);
	pe_app_lesson_free(&al);
}

/* Scene 7: 2048 trained positions; the 2049th token, at 2048, has none. */
Test(lesson, scene_7_names_both_numbers)
{
	struct pe_app_lesson al;
	char cap[8192];
	load_intro(&al);
	caption(&al, 7, 1, cap, sizeof cap);
	/* what is shown, not GPT-2's or BERT's sizes (1024, 512) */
	cr_expect(strstr(cap, "The table shown has 2048 rows") != NULL, "%s",
	    cap);
	cr_expect(strstr(cap, "here 2048") == NULL, "%s", cap);
	cr_expect(strstr(cap, "positions 0 to 2047 have a row") != NULL, "%s",
	    cap);
	cr_expect(strstr(cap, "The 2049th token, at position 2048, has no "
	    "vector") != NULL, "%s", cap);
	pe_app_lesson_free(&al);
}

/* Scene 12: the recency share is the kernel's, at 4096 positions. */
Test(lesson, scene_13_recency_is_the_kernels)
{
	struct pe_app_lesson al;
	char cap[8192], want[256];
	double s[8];
	load_intro(&al);
	caption(&al, 13, 1, cap, sizeof cap);
	cr_assert_eq(pe_alibi_slopes(8, s), PE_OK);
	double r = pe_alibi_recency(s, 8, PE_ALIBI_CAUSAL, 4095, 4096, 4080,
	    4096) * 16;
	/* the same share by brute force: a softmax per head over -m (i - j) */
	double brute = 0;
	for (int h = 0; h < 8; h++) {
		double z = 0, near = 0;
		for (int j = 0; j < 4096; j++) {
			double w = exp(-s[h] * (4095 - j));
			z += w;
			if (j >= 4080)
				near += w;
		}
		brute += near / z / 8;
	}
	cr_expect(fabs(r - brute) < 1e-12, "%g vs %g", r, brute);
	snprintf(want, sizeof want, "its nearest 16 keys %.1f%% of its attention",
	    100 * r);
	cr_expect(strstr(cap, want) != NULL, "%s not in %s", want, cap);
	cr_expect(strstr(cap, "Trained on 1024 tokens, ALiBi runs on 4096") != NULL,
	    "%s", cap);
	pe_app_lesson_free(&al);
}

/* A key. */
static int
key(struct pe_state *st, int k)
{
	return pe_state_key(st, k, 1, 1);
}

/* PgDn reveals steps, then moves on; PgUp goes back step by step; r puts
 * the step's view back. */
Test(lesson, keys_step_scenes_and_steps)
{
	struct pe_app_lesson al;
	struct pe_state st;
	load_intro(&al);
	memset(&st, 0, sizeof st);
	st.session.lesson = &al.l;
	pe_lesson_goto(&st, 0, 0);
	cr_assert_eq(PANE(st).cfg.enc, PE_ENC_NOPE);
	cr_assert_eq(al.l.scenes[0].nsteps, 2);
	int a = key(&st, PE_KEY_PGDN);
	cr_expect(a & PE_ACT_REBUILD, "step 2 sets options");
	cr_expect_eq(st.session.scene, 0);
	cr_expect_eq(st.session.step, 1);
	cr_expect_eq(PANE(st).cfg.enc, PE_ENC_SINUSOIDAL);
	key(&st, PE_KEY_PGDN);
	cr_expect_eq(st.session.scene, 1);
	cr_expect_eq(st.session.step, 0);
	cr_expect_eq(PANE(st).cfg.d, 4);
	key(&st, PE_KEY_PGUP);
	cr_expect_eq(st.session.scene, 0);
	cr_expect_eq(st.session.step, 1, "back to the previous scene's last "
	    "step");
	key(&st, PE_KEY_PGUP);
	cr_expect_eq(st.session.step, 0);
	cr_expect_eq(PANE(st).cfg.enc, PE_ENC_NOPE);
	key(&st, PE_KEY_PGUP);
	cr_expect_eq(st.session.scene, 0);
	cr_expect_neq(st.status[0], '\0', "the first scene says so");
	/* explore, then reset */
	key(&st, 'N');
	key(&st, PE_KEY_DOWN);
	const struct pe_state *s0 = &al.l.scenes[0].steps[0].start;
	cr_expect_neq(PANE(st).cfg.n, PANE(*s0).cfg.n);
	key(&st, 'r');
	cr_expect_eq(PANE(st).cfg.n, PANE(*s0).cfg.n);
	cr_expect_eq(st.cur_r, al.l.scenes[0].steps[0].start.cur_r);
	cr_expect_eq(st.session.lesson, &al.l);
	/* PgDn past the last scene stays there */
	pe_lesson_goto(&st, al.l.nscenes - 1, SIZE_MAX);
	key(&st, PE_KEY_PGDN);
	cr_expect_eq(st.session.scene, al.l.nscenes - 1);
	cr_expect_neq(st.status[0], '\0');
	/* a step without options of its own keeps what was explored */
	pe_lesson_goto(&st, 10, 0); /* rope, example; step 2 sets decay */
	pe_app_lesson_free(&al);
}

/* A clicker's keys: b (most clickers' blank-screen button) and . blank
 * the audience's screen, and any key brings it back and does nothing
 * else (b divided the base by 10, silently: scene 3's caption turned to
 * "1000^(−2i/d)"); a parameter key still works, and the scene line names
 * what the scene did not set ("changed: base") until r resets it; Home
 * and End go to the first and the last scene; R restarts the clock. */
Test(lesson, clicker_keys_blank_and_mark_changes)
{
	struct pe_app_lesson al;
	struct pe_state st;
	struct pe_model m;
	char cap[8192], changed[160];
	load_intro(&al);
	memset(&st, 0, sizeof st);
	st.session.lesson = &al.l;
	pe_lesson_goto(&st, 2, 0); /* scene 3, the sinusoidal formula */
	double base = PANE(st).cfg.base;
	for (int k = 0; k < 2; k++) {
		key(&st, k ? '.' : 'b');
		cr_expect(st.session.blank, "'%c' blanks", k ? '.' : 'b');
		cr_expect_float_eq(PANE(st).cfg.base, base, 0, "the base stays");
		int a = key(&st, 'N'); /* any key: back, and nothing else */
		cr_expect(!st.session.blank);
		cr_expect_eq(a & PE_ACT_REBUILD, 0);
		cr_expect_eq(PANE(st).cfg.n, al.l.scenes[2].steps[0].start.pane[0]
		    .cfg.n, "the key that brought it back did nothing else");
	}
	/* the blank frame: nothing of the scene on it */
	struct pe_canvas cv;
	cr_assert_eq(pe_model_init(&m, &PANE(st).cfg), PE_OK);
	pe_canvas_init(&cv, 80, 24);
	st.session.blank = true;
	pe_view_render(&st, &m, &cv, NULL);
	char *t = canvas_text(&cv);
	cr_expect(strstr(t, "sinusoidal") == NULL && strstr(t, "3/18") == NULL,
	    "%s", t);
	free(t);
	st.session.blank = false;
	pe_model_free(&m);
	/* B doubles the base: said on the scene line, r puts it back */
	pe_lesson_changes(&st, changed, sizeof changed);
	cr_expect_str_eq(changed, "");
	key(&st, 'B');
	cr_expect_float_eq(PANE(st).cfg.base, 2 * base, 0);
	pe_lesson_changes(&st, changed, sizeof changed);
	cr_expect_str_eq(changed, "base");
	cr_assert_eq(pe_model_init(&m, &PANE(st).cfg), PE_OK);
	pe_view_render(&st, &m, &cv, NULL);
	t = canvas_text(&cv);
	cr_expect(strstr(t, "(changed: base") != NULL, "%.160s", t);
	free(t);
	cr_assert_eq(pe_lesson_caption(&st, &m, cap, sizeof cap), 0);
	cr_expect(strstr(cap, "20000^(−2i/d)") != NULL, "%s", cap);
	pe_model_free(&m);
	key(&st, PE_KEY_PGDN); /* a step on: the next scene's own */
	key(&st, PE_KEY_PGUP);
	pe_lesson_changes(&st, changed, sizeof changed);
	cr_expect_str_eq(changed, "");
	key(&st, 'B');
	key(&st, 'r');
	cr_expect_float_eq(PANE(st).cfg.base, base, 0, "r resets");
	pe_lesson_changes(&st, changed, sizeof changed);
	cr_expect_str_eq(changed, "");
	/* Home and End: the first and the last scene */
	key(&st, PE_KEY_END);
	cr_expect_eq(st.session.scene, al.l.nscenes - 1);
	key(&st, PE_KEY_HOME);
	cr_expect_eq(st.session.scene, 0);
	cr_expect_eq(st.session.step, 0);
	key(&st, 'R');
	cr_expect(st.session.clock_reset, "R asks the session to restart the "
	    "clock");
	pe_canvas_free(&cv);
	pe_app_lesson_free(&al);
}

/* b and B step the base by ×2 (Alt: ×10); in a lesson b is the blank key,
 * so the base goes down by Alt+b. */
Test(lesson, base_keys_step_by_two_and_ten)
{
	struct pe_state st;
	struct pe_config cfg;
	pe_config_default(&cfg);
	pe_state_init(&st, &cfg);
	key(&st, 'b');
	cr_expect_float_eq(PANE(st).cfg.base, 5000, 0);
	key(&st, 'B');
	key(&st, 'B');
	cr_expect_float_eq(PANE(st).cfg.base, 20000, 0);
	key(&st, 'b' | PE_KEY_ALT);
	cr_expect_float_eq(PANE(st).cfg.base, 2000, 0);
	key(&st, 'B' | PE_KEY_ALT);
	cr_expect_float_eq(PANE(st).cfg.base, 20000, 0);
	key(&st, 'q' | PE_KEY_ALT);
	cr_expect(strstr(st.status, "Alt+q does nothing") != NULL, "%s",
	    st.status);
}

/* A lesson's text, parsed; 0 or 2 with err. */
static int
parse(const char *text, char *err, size_t cap)
{
	struct pe_app_lesson al;
	int rc = pe_app_lesson_parse(&al, "t", NULL, text, err, cap);
	pe_app_lesson_free(&al);
	return rc;
}

/* Each problem is refused at its line, naming it. */
Test(lesson, bad_lessons_name_the_line)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"title = x\n", "no scene"},
		{"oops = 1\n[scene] a\n", "line 1: 'oops' before the first"},
		{"[scene]\n", "line 1: [scene] needs a title"},
		{"[scene] a\n[slide]\n", "line 2: unknown section '[slide]'"},
		{"[caption]\nx\n", "line 1: [caption] before the first [scene]"},
		{"[scene] a\nencoding = rope\nd-model = 63\n", "line 3: "},
		{"[scene] a\nencoding = rope\nheads = 8\n", "line 3: scene a: "
		    "--heads has no effect with -e rope"},
		{"[scene] a\noutput = x\n", "line 2: 'output' is not an option a "
		    "scene sets"},
		{"[scene] a\nfrobnicate = 2\n", "line 2: 'frobnicate' is not an "
		    "option"},
		{"[scene] a\n[caption]\nhi\nencoding = rope\n", NULL},
		{"[scene] a\n[caption]\nhi\n[caption]\n", "line 4: a second "
		    "[caption]"},
		{"[scene] a\nencoding = rope\n[caption]\n\nsee {slope}\n",
		    "line 5: {slope} has no value with -e rope"},
		{"[scene] a\n[caption]\n{nosuch}\n", "line 3: unknown placeholder"},
		{"[scene] a\n[caption]\nan { alone\n", "line 3: a '{' without"},
		{"[scene] a\n[caption]\n{pe:x}\n", "line 3: {pe:x}: the argument"},
		{"[scene] a\nzoom = 99\n", "line 2: zoom '99'"},
		{"[scene] a\nencoding = learned\ncursor = 99999,0\n", "line 3: cursor"},
		{"[scene] a\n[pause]\ntext-only\n", "line 3: text-only"},
		{"[scene] d is {d}\n", "line 1: a scene's title is fixed text"},
		{"\xef\xbb\xbf[scene] a BOM is no text\nlayout = split\n", NULL},
		{"duration = soon\n[scene] a\n", "line 1: duration 'soon'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[1024] = "";
		int rc = parse(cases[i].text, err, sizeof err);
		if (cases[i].want == NULL) { /* text after a caption; a BOM and
					       --layout, which text-only leaves
					       free */
			cr_expect_eq(rc, 0, "case %zu: %s", i, err);
			continue;
		}
		cr_expect_eq(rc, 2, "case %zu accepted", i);
		cr_expect(strstr(err, cases[i].want) != NULL, "case %zu: '%s' not in "
		    "'%s'", i, cases[i].want, err);
	}
}

/* The guide's example lesson (tests/fixtures/readme.lesson, copied from
 * docs/lessons.md's "Writing a lesson") loads and renders, steps included. */
Test(lesson, the_readme_lesson_loads)
{
	struct pe_options o;
	struct pe_app_lesson al;
	char err[1024];
	memset(&o, 0, sizeof o);
	o.lesson_file = (char *)th_fixture("readme.lesson");
	cr_assert_eq(pe_app_lesson_load(&al, &o, err, sizeof err), 0, "%s", err);
	cr_expect_geq(al.l.nscenes, 2);
	for (size_t k = 0; k < al.l.nscenes; k++)
		for (size_t s = 0; s < al.l.scenes[k].nsteps; s++) {
			char cap[8192];
			caption(&al, k + 1, s + 1, cap, sizeof cap);
			cr_expect(strchr(cap, '{') == NULL, "%s", cap);
		}
	pe_app_lesson_free(&al);
}

/* ---- a running lesson: live reload --------------------------------- */

/* Write text to path (replacing what is there). */
static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	cr_assert_not_null(fp, "%s", path);
	fputs(text, fp);
	cr_assert_eq(fclose(fp), 0);
}

/* Poll the session until its status line holds want, for at most 5 s
 * (a reload looks at the file every 300 ms); whether it came. */
static bool
poll_until(struct pe_lesson_session *S, struct pe_state *st, const char *want)
{
	for (int i = 0; i < 100; i++) {
		pe_lesson_session_poll(S, st);
		if (strstr(st->status, want) != NULL)
			return true;
		nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
	}
	return false;
}

/* A lesson session for o (the built-in lesson unless o names a file):
 * opened, or the test fails saying why. */
static struct pe_lesson_session *
session_of(const struct pe_options *o, struct pe_state *st)
{
	struct pe_lesson_session *S;
	char err[1024];
	cr_assert_eq(pe_lesson_session_open(&S, o, st, err, sizeof err), 0,
	    "%s", err);
	return S;
}

static const char two_scenes[] =
    "title = reload\n[scene] one\nseq-len = 32\n[caption]\nfirst\n"
    "[scene] two\nseq-len = 64\n[caption]\nsecond\n";

/* A session on a lesson file in a new folder, at its second scene. */
static struct pe_lesson_session *
open_session(struct pe_options *o, struct pe_state *st, char *dir,
    char *path, size_t cap)
{
	char *d = th_tmpdir();
	struct pe_lesson_session *S;
	cr_assert_not_null(d);
	snprintf(dir, cap, "%s", d);
	snprintf(path, cap, "%s/live.lesson", d);
	free(d);
	write_file(path, two_scenes);
	memset(o, 0, sizeof *o);
	o->lesson_file = path;
	S = session_of(o, st);
	pe_lesson_goto(st, 1, 0);
	cr_assert_eq(PANE(*st).cfg.n, 64);
	return S;
}

/* An edit of the lesson file shows at a poll, in the scene shown. */
Test(lesson, reload_shows_an_edit, .timeout = 30)
{
	struct pe_options o;
	struct pe_state st;
	char dir[256], path[300];
	struct pe_lesson_session *S = open_session(&o, &st, dir, path,
	    sizeof path);
	write_file(path, "title = reload\n[scene] one\nseq-len = 32\n"
	    "[scene] two\nseq-len = 128\n[caption]\nsecond, edited\n");
	cr_expect(poll_until(S, &st, "reloaded"), "status: %s", st.status);
	cr_expect_eq(st.session.scene, 1);
	cr_expect_eq(PANE(st).cfg.n, 128, "the edit is shown");
	pe_lesson_session_close(S);
	unlink(path);
	rmdir(dir);
}

/* The lesson file replaced by a FIFO nobody writes to, or by a folder:
 * the poll comes back at once (it used to wait in open(2) for a writer,
 * and the TUI froze: no key, not even q, did anything), the status line
 * says why, and the lesson shown stays. */
Test(lesson, reload_never_waits_on_a_fifo, .timeout = 30)
{
	struct pe_options o;
	struct pe_state st;
	char dir[256], path[300];
	struct pe_lesson_session *S = open_session(&o, &st, dir, path,
	    sizeof path);
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(mkfifo(path, 0600), 0);
	cr_expect(poll_until(S, &st, "not a regular file"), "status: %s",
	    st.status);
	cr_expect(strstr(st.status, "not reloaded") != NULL, "%s", st.status);
	cr_expect_eq(PANE(st).cfg.n, 64, "the last good lesson stays");
	/* the next polls come back too, and keep saying so */
	st.status[0] = '\0';
	for (int i = 0; i < 3; i++)
		pe_lesson_session_poll(S, &st);
	cr_expect(strstr(st.status, "not a regular file") != NULL, "%s",
	    st.status);
	/* a folder in its place */
	cr_assert_eq(unlink(path), 0);
	cr_assert_eq(mkdir(path, 0700), 0);
	cr_expect(poll_until(S, &st, "not a regular file"), "status: %s",
	    st.status);
	/* and a good file again reloads */
	cr_assert_eq(rmdir(path), 0);
	write_file(path, two_scenes);
	cr_expect(poll_until(S, &st, "reloaded"), "status: %s", st.status);
	pe_lesson_session_close(S);
	unlink(path);
	rmdir(dir);
}

/* ---- big lessons: bounded, built in linear time, reloaded in slices --- */

/* A lesson of one scene of `steps` steps, each with `lines` option lines
 * (eight options taking turns, so every step changes the view) and a
 * caption; malloc'd. */
static char *
big_lesson(size_t steps, size_t lines)
{
	static const char *const opts[] = {
		"seq-len = 64", "seq-len = 128", "d-model = 32", "d-model = 64",
		"base = 1000", "base = 10000", "cursor = 3,1", "cursor = 5,2",
	};
	size_t cap = 64 + steps * (lines * 16 + 40), o = 0;
	char *s = malloc(cap);
	cr_assert_not_null(s);
	o += (size_t)snprintf(s + o, cap - o, "title = big\n[scene] one\n");
	for (size_t k = 0; k < steps; k++) {
		if (k > 0)
			o += (size_t)snprintf(s + o, cap - o, "[pause]\n");
		for (size_t j = 0; j < lines; j++)
			o += (size_t)snprintf(s + o, cap - o, "%s\n",
			    opts[(k + j) % 8]);
		o += (size_t)snprintf(s + o, cap - o,
		    "[caption]\nstep %zu {n}\n", k);
	}
	return s;
}

/* CPU seconds of this process. */
static double
cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The largest lesson there may be (1000 steps of 50 option lines, 0.6
 * MB in one scene) loads in well under a second: each step carries the
 * options before it instead of parsing every earlier step's lines again
 * (that was quadratic: 1000 steps of 20 lines took 1.65 s, this one
 * about 4 s, and a 670 KB lesson 47 s). */
Test(lesson, loading_is_linear_in_steps, .timeout = 60)
{
	char *text = big_lesson(1000, 50), err[1024];
	struct pe_app_lesson al;
	double t0 = cpu_seconds();
	int rc = pe_app_lesson_parse(&al, "big", NULL, text, err, sizeof err);
	double t = cpu_seconds() - t0;
	cr_assert_eq(rc, 0, "%s", err);
	cr_expect_eq(al.l.scenes[0].nsteps, 1000);
	/* the last step is the options' last values, as a command line of
	 * every line so far would give (step 999: lines 999..1048 mod 8) */
	const struct pe_state *last = &al.l.scenes[0].steps[999].start;
	cr_expect_eq(PANE(*last).cfg.n, 64);
	cr_expect_eq(PANE(*last).cfg.d, 64);
	cr_expect_float_eq(PANE(*last).cfg.base, 10000.0, 0);
	cr_expect_eq(last->cur_r, 5);
	cr_expect(t < 1.0, "1000 steps took %.2f s of CPU", t);
	pe_app_lesson_free(&al);
	free(text);
}

/* A lesson has at most 1000 steps and 1 MiB: past either it is refused
 * with the bound, at the line of the first step too many. */
Test(lesson, steps_and_size_are_bounded)
{
	char *text = big_lesson(1001, 1), err[1024];
	struct pe_app_lesson al;
	int rc = pe_app_lesson_parse(&al, "big", NULL, text, err, sizeof err);
	pe_app_lesson_free(&al);
	free(text);
	cr_expect_eq(rc, 2, "1001 steps accepted");
	/* title, [scene], then 4 lines a step: step 1001's [pause] */
	cr_expect(strstr(err, "lesson big, line 4002: a lesson has at most "
	    "1000 steps") != NULL, "%s", err);

	size_t n = (1u << 20) + 1;
	text = malloc(n + 1);
	cr_assert_not_null(text);
	memset(text, '\n', n);
	memcpy(text, "[scene] a\n", 10);
	text[n] = '\0';
	rc = pe_app_lesson_parse(&al, "huge", NULL, text, err, sizeof err);
	pe_app_lesson_free(&al);
	free(text);
	cr_expect_eq(rc, 2, "a text over 1 MiB accepted");
	cr_expect(strstr(err, "lesson huge: 1048577 bytes; a lesson is at most "
	    "1 MiB") != NULL, "%s", err);
}

/* A reload of the largest lesson never stalls a frame: each poll does a
 * slice of the work (the TUI draws between polls), and the new lesson is
 * shown once it is whole. */
Test(lesson, reload_never_stalls_a_frame, .timeout = 120)
{
	struct pe_options o;
	struct pe_state st;
	char dir[256], path[300];
	struct pe_lesson_session *S = open_session(&o, &st, dir, path,
	    sizeof path);
	char *text = big_lesson(1000, 50);
	write_file(path, text);
	free(text);
	double worst = 0;
	int polls = 0;
	for (; polls < 20000 && strstr(st.status, "reloaded") == NULL;
	    polls++) {
		double t0 = cpu_seconds();
		pe_lesson_session_poll(S, &st);
		double t = cpu_seconds() - t0;
		worst = t > worst ? t : worst;
		nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
	}
	cr_expect(strstr(st.status, "reloaded") != NULL, "%d polls: %s", polls,
	    st.status);
	cr_expect_eq(st.session.lesson->scenes[0].nsteps, 1000);
	cr_expect(worst < 0.1, "a poll took %.3f s of CPU", worst);
	pe_lesson_session_close(S);
	unlink(path);
	rmdir(dir);
}

/* A build with its time up does one step a call: a reload's slices are as
 * small as a step, and the lesson built so is the one parsed at once. */
Test(lesson, a_build_goes_a_step_at_a_time)
{
	char *text = big_lesson(50, 3), err[1024];
	struct pe_lesson_build *B;
	struct pe_app_lesson al, whole;
	cr_assert_eq(pe_app_lesson_begin(&B, "big", NULL, text, err,
	    sizeof err), 0, "%s", err);
	int calls = 1;
	while (pe_app_lesson_work(B, 0, err, sizeof err) == 1)
		calls++;
	cr_expect_eq(calls, 50, "one step a call: %d calls", calls);
	pe_app_lesson_take(B, &al);
	cr_assert_eq(pe_app_lesson_parse(&whole, "big", NULL, text, err,
	    sizeof err), 0, "%s", err);
	for (size_t k = 0; k < 50; k++) {
		const struct pe_state *a = &al.l.scenes[0].steps[k].start;
		const struct pe_state *b = &whole.l.scenes[0].steps[k].start;
		cr_expect(memcmp(&PANE(*a).cfg, &PANE(*b).cfg, offsetof(struct
		    pe_config, table)) == 0, "step %zu", k);
		cr_expect_eq(a->cur_r, b->cur_r);
	}
	pe_app_lesson_free(&al);
	pe_app_lesson_free(&whole);
	free(text);
}

/* A restart goes on where the lesson was left: the presenting instance
 * keeps its scene and step under $XDG_STATE_HOME/pescope, and a new one
 * without --scene starts there (it went back to scene 1); --scene K
 * starts elsewhere; --duration replaces the lesson's minutes; a lesson
 * left at its last scene starts again. */
Test(lesson, a_restart_resumes_where_the_lesson_was, .timeout = 30)
{
	char *dir = state_home_begin();
	struct pe_options o;
	struct pe_state st;
	struct pe_lesson_session *S;
	memset(&o, 0, sizeof o);
	S = session_of(&o, &st);
	cr_expect_eq(st.session.scene, 0, "no place kept: the first scene");
	pe_lesson_goto(&st, 5, 0);
	pe_lesson_session_poll(S, &st);
	pe_lesson_session_close(S);

	S = session_of(&o, &st);
	cr_expect_eq(st.session.scene, 5, "resumed at scene 6");
	cr_expect(strstr(st.status, "resumed at scene 6/") != NULL, "%s",
	    st.status);
	size_t yarn = scene_titled(st.session.lesson, "Extending RoPE");
	pe_lesson_goto(&st, yarn, 2); /* its third step */
	pe_lesson_session_poll(S, &st);
	pe_lesson_session_close(S);
	S = session_of(&o, &st);
	cr_expect(st.session.scene == yarn && st.session.step == 2,
	    "resumed at %zu.3: %zu.%zu", yarn + 1, st.session.scene + 1,
	    st.session.step + 1);
	pe_lesson_session_close(S);

	o.scene_given = true, o.scene = 2, o.scene_step = 1;
	o.duration_given = true, o.duration = 50;
	S = session_of(&o, &st);
	cr_expect_eq(st.session.scene, 1, "--scene 2 starts there");
	cr_expect_float_eq(st.session.lesson->minutes, 50, 0, "--duration");
	pe_lesson_session_close(S);

	/* a lesson left at its last scene was given to its end: the next
	 * start is its first scene, and the status line says why (a
	 * lecturer's report: next week's class opened on the conclusion) */
	memset(&o, 0, sizeof o);
	S = session_of(&o, &st);
	pe_lesson_goto(&st, st.session.lesson->nscenes - 1, 0);
	pe_lesson_session_poll(S, &st);
	pe_lesson_session_close(S);
	S = session_of(&o, &st);
	cr_expect(st.session.scene == 0 && st.session.step == 0,
	    "starts again: %zu.%zu", st.session.scene + 1, st.session.step + 1);
	cr_expect(strstr(st.status, "starts again") != NULL, "%s", st.status);
	pe_lesson_session_close(S);
	state_home_end(dir);
}

/* The syncs this test program asks for: fsync is defined here, so every
 * call the library makes comes through (and still syncs). */
static int fsyncs;

int
fsync(int fd)
{
	fsyncs++;
	return (int)syscall(SYS_fsync, fd);
}

/* The presenter keeps its place on every step without waiting for the
 * disk: a step is a key on a projector, and a sync (seconds on a busy or
 * network home folder) would hold the frame. The place is worth nothing
 * after a crash; a half-written one is never read (rename), and an empty
 * one starts the lesson at its first scene. */
Test(lesson, a_step_keeps_the_place_without_a_sync, .timeout = 30)
{
	char *dir = state_home_begin();
	struct pe_options o;
	struct pe_state st;
	struct pe_lesson_session *S;
	memset(&o, 0, sizeof o);
	S = session_of(&o, &st);
	int before = fsyncs;
	pe_lesson_goto(&st, 3, 0);
	pe_lesson_session_poll(S, &st);
	pe_lesson_goto(&st, 4, 0);
	pe_lesson_session_poll(S, &st);
	cr_expect_eq(fsyncs, before, "%d syncs for two steps", fsyncs - before);
	pe_lesson_session_close(S);
	S = session_of(&o, &st);
	cr_expect_eq(st.session.scene, 4, "the place was kept: scene %zu",
	    st.session.scene + 1);
	pe_lesson_session_close(S);
	state_home_end(dir);
}

/* The notes (i) over the frame at 80x24: the box's lines are the box's
 * alone, no letter of the caption or the key hints beside it. */
Test(lesson, the_notes_box_leaves_no_fragments_beside_it)
{
	struct pe_app_lesson al;
	load_intro(&al);
	struct drawn d;
	draw_step(&d, &al.l, 0, 0, 80, 24, false, NULL);
	d.st.session.notes = true;
	pe_view_render(&d.st, &d.m, &d.cv, NULL);
	int top = -1, bottom = -1;
	for (int y = 0; y < d.cv.h; y++)
		for (int x = 0; x < d.cv.w; x++) {
			if (d.cv.cells[y * d.cv.w + x].cp == 0x250c && top < 0)
				top = y; /* ┌ */
			if (d.cv.cells[y * d.cv.w + x].cp == 0x2514)
				bottom = y; /* └ */
		}
	cr_assert(top >= 0 && bottom > top, "no box: %d %d", top, bottom);
	for (int y = top; y <= bottom; y++)
		for (int x = 0; x < d.cv.w; x += d.cv.w - 1)
			for (int k = 0; k < 2; k++) {
				int cx = x == 0 ? k : x - k;
				uint32_t cp = d.cv.cells[y * d.cv.w + cx].cp;
				cr_expect(cp == ' ' || cp == 0, "row %d col %d: U+%04X",
				    y, cx, (unsigned)cp);
			}
	drawn_free(&d);
	pe_app_lesson_free(&al);
}

/* The speaker's clock: R starts it again; time over is in the warning
 * color (the accent's while there is time left). */
Test(lesson, the_clock_resets_and_warns_when_over, .timeout = 30)
{
	char *dir = state_home_begin();
	struct pe_options o;
	struct pe_state st;
	struct pe_lesson_session *S;
	memset(&o, 0, sizeof o);
	o.speaker = true;
	S = session_of(&o, &st);
	nanosleep(&(struct timespec){1, 200 * 1000 * 1000}, NULL);
	pe_lesson_session_poll(S, &st);
	cr_expect_geq(st.session.elapsed, 1);
	key(&st, 'R');
	pe_lesson_session_poll(S, &st);
	cr_expect_lt(st.session.elapsed, 1, "R: %g s", st.session.elapsed);
	/* 46 minutes into a 45-minute lesson, and 10 minutes in */
	for (int over = 0; over < 2; over++) {
		struct pe_model m;
		struct pe_canvas cv;
		st.session.elapsed = over ? 46 * 60 : 10 * 60;
		cr_assert_eq(pe_model_init(&m, &PANE(st).cfg), PE_OK);
		pe_canvas_init(&cv, 100, 30);
		pe_view_render(&st, &m, &cv, NULL);
		char *t = canvas_text(&cv);
		char *at = strstr(t, over ? "01:00 over" : "35:00 left");
		cr_expect(at != NULL, "%.300s", t);
		int y = 0;
		for (char *p = t; p < at; p++)
			y += *p == '\n';
		const struct pe_cell *c = &cv.cells[y * cv.w + 1];
		cr_expect_eq(c->fg, over ? PE_RGB(0xff, 0x87, 0x5f)
		    : PE_RGB(0x5f, 0xaf, 0xff), "the clock's color %06x", c->fg);
		free(t);
		pe_canvas_free(&cv);
		pe_model_free(&m);
	}
	pe_lesson_session_close(S);
	state_home_end(dir);
}

/* Off the script: / toggles the toy attention's mask (NoPE's panel told
 * the room to use --mask none, a flag); s goes forward from the scaling
 * shown (from llama-2-7b's default the first press gave "llama3 ×4"), S
 * back; dynamic NTK at seq_len ≤ max_pos says it is inactive there. */
Test(lesson, off_script_keys)
{
	struct pe_app_lesson al;
	struct pe_state st;
	load_intro(&al);
	memset(&st, 0, sizeof st);
	st.session.lesson = &al.l;
	pe_lesson_goto(&st, 0, 0); /* NoPE, attention panel, mask none */
	cr_assert(!pe_toy_causal(&PANE(st).cfg));
	key(&st, '/');
	cr_expect(pe_toy_causal(&PANE(st).cfg), "/: causal");
	key(&st, '/');
	cr_expect(!pe_toy_causal(&PANE(st).cfg), "/ again: none");
	/* llama-2-7b, unscaled */
	pe_lesson_goto(&st, scene_titled(&al.l, "Extending RoPE"), 0);
	cr_assert_eq(PANE(st).cfg.rope.type, PE_ROPE_DEFAULT);
	key(&st, 's');
	cr_expect_eq(PANE(st).cfg.rope.type, PE_ROPE_LINEAR, "s: forward");
	key(&st, 's');
	cr_expect_eq(PANE(st).cfg.rope.type, PE_ROPE_DYNAMIC);
	key(&st, 'S');
	cr_expect_eq(PANE(st).cfg.rope.type, PE_ROPE_LINEAR, "S: back");
	/* dynamic below max_pos */
	struct pe_config cfg = PANE(st).cfg;
	cfg.rope.type = PE_ROPE_DYNAMIC;
	cfg.rope.max_pos = 4096;
	for (int k = 0; k < 2; k++) {
		struct pe_state s2;
		struct pe_model m;
		struct pe_canvas cv;
		cfg.n = k ? 16384 : 4096;
		pe_state_init(&s2, &cfg);
		cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
		pe_canvas_init(&cv, 200, 60);
		pe_view_render(&s2, &m, &cv, NULL);
		char *t = canvas_text(&cv);
		bool said = strstr(t, "inactive: seq_len ≤ max_pos 4096") != NULL;
		cr_expect(k ? !said : said, "seq_len %zu: %.400s", cfg.n, t);
		free(t);
		pe_canvas_free(&cv);
		pe_model_free(&m);
	}
	pe_app_lesson_free(&al);
}

/* The scene on PI, NTK and YaRN at 120x40 and 200x60: nothing on the
 * frame is cut (the pairs' explanation ended in "…"), the body neither moves nor
 * shrinks between its steps (the caption band is its last step's), and
 * the score axis keeps one range (it went ±64 to ±82.975). */
Test(lesson, the_scaling_scene_holds_its_layout)
{
	static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	struct pe_app_lesson al;
	load_intro(&al);
	size_t yarn = scene_titled(&al.l, "Extending RoPE");
	const struct pe_scene *s = &al.l.scenes[yarn];
	cr_assert_eq(s->nsteps, 4);
	for (size_t z = 0; z < 3; z++)
		for (int present = 0; present < 2; present++) {
			int rule = -1;
			char top[32] = "";
			for (size_t k = 0; k < s->nsteps; k++) {
				struct drawn d;
				draw_step(&d, &al.l, yarn, k, sizes[z][0], sizes[z][1],
				    present, NULL);
				char *t = d.text;
				if (z > 0)
					cr_expect(strstr(t, "…") == NULL, "%zu.%zu at %dx%d%s: "
					    "%s", yarn + 1, k + 1, sizes[z][0], sizes[z][1],
					    present ? " (presenter)" : "", strstr(t, "…") -
					    (strstr(t, "…") - t > 60 ? 60 : 0));
				int y = 0, r = -1;
				char score[32] = "";
				for (char *l = t; *l != '\0'; y++) {
					char *nl = strchr(l, '\n');
					*nl = '\0'; /* a line at a time */
					if (strncmp(l, "────", strlen("────")) == 0 && r < 0)
						r = y;
					/* the score plot's top label: "82.975│" */
					char *bar = strstr(l, "│");
					if (score[0] == '\0' && bar != NULL && bar - l > 8 &&
					    strstr(l, "score") == NULL) {
						char *p = bar;
						while (p > l && p[-1] != ' ')
							p--;
						if (p < bar && (p[0] == '-' || (p[0] >= '0' &&
						    p[0] <= '9')))
							snprintf(score, sizeof score, "%.*s",
							    (int)(bar - p), p);
					}
					*nl = '\n';
					l = nl + 1;
				}
				if (k == 0) {
					rule = r;
					snprintf(top, sizeof top, "%s", score);
				}
				cr_expect_eq(r, rule, "%zu.%zu at %dx%d: the band moved "
				    "(rule at %d, was %d)", yarn + 1, k + 1, sizes[z][0],
				    sizes[z][1], r, rule);
				cr_expect_str_eq(score, top, "%zu.%zu at %dx%d: the score "
				    "axis %s, was %s", yarn + 1, k + 1, sizes[z][0],
				    sizes[z][1], score, top);
				drawn_free(&d);
			}
		}
	pe_app_lesson_free(&al);
}

/* A panel that is the point of a scene gets its room at 80x24: scene 1's
 * toy attention shows every token of "the dog bit the man" as a row of
 * both matrices (it drew 2 of the 5), the last scene's decay bound is a
 * plot of at least 6 rows (it was 2), in the presenter view and without. */
Test(lesson, the_panel_of_a_scene_gets_its_room)
{
	struct pe_app_lesson al;
	load_intro(&al);
	for (int present = 0; present < 2; present++)
		for (size_t step = 0; step < 2; step++) {
			struct drawn d;
			draw_step(&d, &al.l, 0, step, 80, 24, present, NULL);
			const char *t = d.text;
			/* row labels start a line, or stand after a map's gap */
			static const char *const words[] = {"the", "dog", "bit", "man"};
			int want[] = {4, 2, 2, 2}; /* "the" twice in each map */
			for (size_t w = 0; w < 4; w++) {
				int n = 0;
				char pat[16];
				snprintf(pat, sizeof pat, "%s  ", words[w]);
				for (const char *p = t; (p = strstr(p, pat)) != NULL; p++)
					n += p == t || p[-1] == '\n' || p[-1] == ' ';
				cr_expect_geq(n, want[w], "1.%zu%s: '%s' labels %d rows, "
				    "want %d:\n%s", step + 1, present ? " presenter" : "",
				    words[w], n, want[w], t);
			}
			drawn_free(&d);
		}
	for (int present = 0; present < 2; present++) {
		struct drawn d;
		draw_step(&d, &al.l, scene_titled(&al.l, "Lost in the middle"), 0,
		    80, 24, present, NULL);
		int top = -1, axis = -1, y = 0;
		for (char *l = d.text; *l != '\0'; y++) {
			char *nl = strchr(l, '\n');
			*nl = '\0'; /* a line at a time */
			if (top < 0 && strstr(l, "bound (1/P)") != NULL)
				top = y;
			if (top >= 0 && axis < 0 && strstr(l, "r = 0") != NULL)
				axis = y;
			*nl = '\n';
			l = nl + 1;
		}
		cr_expect(top >= 0 && axis - top - 1 >= 6, "the last scene%s: the "
		    "bound's plot has %d rows", present ? " presenter" : "",
		    axis - top - 1);
		drawn_free(&d);
	}
	pe_app_lesson_free(&al);
}

/* A scene about its panel shows the panel alone: the last scene's main
 * map was a RoPE angle map the scene never mentions, and scene 1's was
 * NoPE's empty one; at every size the panel starts the line. */
Test(lesson, a_panel_scene_draws_no_unrelated_map)
{
	static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	static const char *const titles[] = {"Word order matters",
	    "Lost in the middle"};
	struct pe_app_lesson al;
	load_intro(&al);
	for (size_t k = 0; k < 2; k++)
		for (size_t z = 0; z < 3; z++) {
			struct drawn d;
			struct pe_hit hit;
			memset(&hit, 0, sizeof hit);
			draw_step(&d, &al.l, scene_titled(&al.l, titles[k]), 0,
			    sizes[z][0], sizes[z][1], false, &hit);
			cr_expect(hit.map_w == 0 && hit.panel_x == 0, "%s at %dx%d: a "
			    "map %dx%d beside the panel at x = %d", titles[k],
			    sizes[z][0], sizes[z][1], hit.map_w, hit.map_h,
			    hit.panel_x);
			drawn_free(&d);
		}
	pe_app_lesson_free(&al);
}

/* One notation on every frame: ω for a pair's frequency, θ = m·ω for an
 * angle (the panels said "angles m·θ_j", "2π/θ_j"), the base as base
 * ("theta" only as HF's rope_theta): every encoding's every panel at
 * 120x40, each lesson step, and --help. */
Test(lesson, one_notation)
{
	/* θ for a frequency: "m·θ_j", "2π/θ_j", "r·θ_k"; HF's names */
	static const char *const bad[] = {"·θ", "/θ", "inv_freq", "theta"};
	static double table[1024 * 64];
	pe_learned_init(1024, 64, 1, table);
	for (int e = 0; e < PE_ENC_COUNT; e++)
		for (int p = 0; p < PE_PANEL_COUNT; p++) {
			struct pe_config cfg;
			struct pe_state st;
			struct pe_model m;
			struct pe_canvas cv;
			pe_config_default(&cfg);
			cfg.enc = (enum pe_encoding)e;
			cfg.table = table;
			cfg.teach.train_len = 40;
			pe_config_encoding_defaults(&cfg, false, false);
			if (pe_config_check(&cfg, NULL, 0) != PE_OK ||
			    !pe_enc_has_panel(pe_enc_view_of(&cfg), (enum pe_panel)p))
				continue;
			pe_state_init(&st, &cfg);
			st.pane[0].panel = (enum pe_panel)p;
			cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
			pe_canvas_init(&cv, 120, 40);
			pe_view_render(&st, &m, &cv, NULL);
			char *t = canvas_text(&cv);
			for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
				cr_expect(strstr(t, bad[b]) == NULL, "%s %s: '%s' in %s",
				    pe_encoding_name(cfg.enc),
				    pe_panel_name((enum pe_panel)p), bad[b],
				    strstr(t, bad[b]));
			free(t);
			pe_canvas_free(&cv);
			pe_model_free(&m);
		}
	const char *argv[] = {"pescope", "--help", NULL};
	char *out = NULL, *err = NULL;
	size_t len = 0;
	cr_assert_eq(th_run(argv, NULL, &out, &len, &err), 0);
	for (char *p = out; (p = strstr(p, "theta")) != NULL; p++)
		cr_expect(p - out >= 5 && strncmp(p - 5, "rope_theta", 10) == 0,
		    "--help: %.60s", p - (p - out > 20 ? 20 : 0));
	free(out);
	free(err);
}

/* The encodings each placeholder applies to, pinned as they were when each
 * named its encodings (most now follow the kernel rows: a new encoding
 * with a worked example gets {x}, one with pairs {freq}). */
Test(lesson, placeholders_apply_where_they_should)
{
	static const struct {
		const char *name, *encs;
	} want[] = {
		{"n", "*"}, {"d", "*"}, {"value", "*"}, {"train_len", "*"},
		{"base", "sinusoidal rope mrope xpos"},
		{"x", "sinusoidal learned rope"},
		{"x_norm", "sinusoidal learned rope"},
		{"pe", "sinusoidal learned"}, {"sum", "sinusoidal learned"},
		{"sum_norm", "sinusoidal learned"},
		{"sum_angle", "sinusoidal learned"}, {"rot_norm", "rope"},
		{"pairs", "sinusoidal rope"}, {"freq", "sinusoidal rope"},
		{"wavelength", "sinusoidal rope"},
		{"dot", "sinusoidal learned rope xpos"},
		{"shift", "sinusoidal"}, {"residual", "sinusoidal"},
		{"shift_range", "sinusoidal"},
		{"max_len", "learned"}, {"last_pos", "learned"},
		{"past_token", "learned"}, {"max_relative", "relative"},
		{"bucket", "relative"}, {"max_exact", "relative"},
		{"heads", "alibi"}, {"slope", "alibi"}, {"recency", "alibi"},
		{"beyond", "rope"}, {"factor", "rope"}, {"scaling", "rope"},
		{"attention_factor", "rope"}, {"share", "nope"},
		{"gap", "sinusoidal learned relative rope alibi nope"},
		{"grid", "vit2d rope2d"}, {"model", "*"}, {"kinds", "*"},
		{"kind", "*"}, {"kind_layers", "*"},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *ph = want[i].name;
		for (int e = 0; e < PE_ENC_COUNT; e++) {
			enum pe_encoding enc = (enum pe_encoding)e;
			char list[128], word[32], why[300];
			snprintf(list, sizeof list, " %s ", want[i].encs);
			snprintf(word, sizeof word, " %s ",
			    pe_encoding_name(enc));
			bool yes = strcmp(want[i].encs, "*") == 0 ||
			    strstr(list, word) != NULL;
			int rc = pe_lesson_placeholder_check(ph, "", enc, why,
			    sizeof why);
			cr_expect_eq(rc == 0, yes, "{%s} with %s: %s", ph, word,
			    rc == 0 ? "taken" : why);
		}
	}
}

/* The modern lesson's summary quotes each shipped config's layers: its
 * last step's lines, one a model, against what the config files say
 * (num_hidden_layers; Gemma 3's sliding_window_pattern puts a full layer
 * every sixth, Llama 4's no_rope_layer_interval 4 a NoPE layer every
 * fourth, GPT-OSS's layer_types alternate), read here with jansson. */
Test(lesson, the_modern_summary_quotes_the_configs)
{
	static const struct {
		const char *preset, *line;
		int every;	/* a layer of the second kind every N; 0: one kind */
	} models[] = {
		{"gemma-3-4b", "Gemma 3 4B, %d layers: %d layers sliding 1024 · "
		    "base 10000; %d layers full · base 1000000 · linear ×8.", 6},
		{"gpt-oss-20b", "GPT-OSS 20B, %d layers: %d layers sliding 128 · "
		    "base 150000 · yarn ×32; %d layers full · base 150000 · "
		    "yarn ×32;", 2},
		{"llama-4-scout", "Llama 4 Scout 17B-16E, %d layers: %d layers "
		    "chunked 8192 · base 500000 · llama3 ×8; %d layers full · "
		    "NoPE · temperature", 4},
		{"smollm3-3b", "SmolLM3 3B, %d layers: %d layers full · base "
		    "5000000; %d layers full · NoPE.", 4},
		{"deepseek-v3", "DeepSeek-V3, %d layers: %d layers full · base "
		    "10000 · yarn ×40 · nope 128 + rope 64", 0},
		{"qwen2.5-vl-7b", "Qwen2.5-VL 7B, %d layers: %d layers full · "
		    "M-RoPE base 1000000", 0},
	};
	struct pe_options o;
	struct pe_app_lesson al;
	char err[1024], cap[16384];
	memset(&o, 0, sizeof o);
	o.lesson = "modern";
	cr_assert_eq(pe_app_lesson_load(&al, &o, err, sizeof err), 0, "%s", err);
	size_t k = scene_titled(&al.l, "What today's models do");
	caption(&al, k + 1, al.l.scenes[k].nsteps, cap, sizeof cap);
	for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
		char path[256], want[512];
		snprintf(path, sizeof path, "assets/models/%s.json",
		    models[i].preset);
		json_error_t je;
		json_t *j = json_load_file(th_src(path), 0, &je);
		cr_assert_not_null(j, "%s: %s", path, je.text);
		json_t *t = json_object_get(j, "text_config");
		int n = (int)json_integer_value(json_object_get(t != NULL ? t : j,
		    "num_hidden_layers"));
		int second = models[i].every > 0 ? n / models[i].every : 0;
		cr_expect_gt(n, 0, "%s", path);
		snprintf(want, sizeof want, models[i].line, n, n - second,
		    second);
		cr_expect(strstr(cap, want) != NULL, "'%s' not in %s", want, cap);
		json_decref(j);
	}
	pe_app_lesson_free(&al);
}

/* The built-in lesson name, loaded. */
static void
load_lesson(struct pe_app_lesson *al, const char *name)
{
	struct pe_options o;
	char err[1024];

	memset(&o, 0, sizeof o);
	o.lesson = (char *)name; /* the options' own strings are argv's */
	cr_assert_eq(pe_app_lesson_load(al, &o, err, sizeof err), 0, "%s: %s",
	    name, err);
}

/* The frame's line that starts with start, into buf ("" when none). */
static void
frame_line(const char *text, const char *start, char *buf, size_t cap)
{
	buf[0] = '\0';
	for (const char *l = text; *l != '\0';) {
		const char *nl = strchr(l, '\n');
		size_t n = (size_t)(nl - l);
		if (strncmp(l, start, strlen(start)) == 0) {
			snprintf(buf, cap, "%.*s", (int)n, l);
			return;
		}
		l = nl + 1;
	}
}

/* No frame of a lesson contradicts itself: NoPE's parameter line said
 * "order comes only from the causal mask" over intro's first scene, whose
 * toy attention says "mask none" (the scene's point: no positions and no
 * mask, a bag of words). Every step of both lessons at 80x24 and 120x40. */
Test(lesson, the_parameter_line_agrees_with_the_toy_mask)
{
	static const char *const names[] = {"intro", "modern"};
	static const int sizes[][2] = {{80, 24}, {120, 40}};

	for (size_t n = 0; n < 2; n++) {
		struct pe_app_lesson al;
		load_lesson(&al, names[n]);
		for (size_t k = 0; k < al.l.nscenes; k++)
			for (size_t s = 0; s < al.l.scenes[k].nsteps; s++)
				for (size_t z = 0; z < 2; z++) {
					struct drawn d;
					draw_step(&d, &al.l, k, s, sizes[z][0],
					    sizes[z][1], false, NULL);
					cr_expect(strstr(d.text, "mask none") == NULL ||
					    strstr(d.text, "only from the causal "
					    "mask") == NULL, "%s %zu.%zu at %dx%d: a "
					    "causal mask's order over mask none:\n%s",
					    names[n], k + 1, s + 1, sizes[z][0],
					    sizes[z][1], d.text);
					drawn_free(&d);
				}
		pe_app_lesson_free(&al);
	}
	/* and with the mask, NoPE's scene, it is the mask's order */
	struct pe_app_lesson al;
	struct drawn d;
	load_intro(&al);
	draw_step(&d, &al.l, scene_titled(&al.l, "NoPE"), 0, 80, 24, false,
	    NULL);
	cr_expect(strstr(d.text, "only from the causal mask") != NULL, "%s",
	    d.text);
	drawn_free(&d);
	pe_app_lesson_free(&al);
}

/* A scene about the mask draws it: modern's Gemma 3 scene said "the mask
 * is a band" over a mask panel too short for its maps at 80x24 (its text
 * alone). Every step of both lessons whose panel is the mask shows the
 * maps (their legend) at 80x24, 120x40 and 200x60, and no caption calls
 * a mask a band. */
Test(lesson, a_mask_scene_draws_the_mask)
{
	static const char *const names[] = {"intro", "modern"};
	static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	int scenes = 0;

	for (size_t n = 0; n < 2; n++) {
		struct pe_app_lesson al;
		char cap[16384];
		load_lesson(&al, names[n]);
		for (size_t k = 0; k < al.l.nscenes; k++)
			for (size_t s = 0; s < al.l.scenes[k].nsteps; s++) {
				caption(&al, k + 1, s + 1, cap, sizeof cap);
				cr_expect(strstr(cap, "mask is a band") == NULL,
				    "%s %zu.%zu: %s", names[n], k + 1, s + 1,
				    cap);
				for (size_t z = 0; z < 3; z++) {
					struct drawn d;
					draw_step(&d, &al.l, k, s, sizes[z][0],
					    sizes[z][1], false, NULL);
					if (PANE(d.st).panel == PE_PANEL_MASK) {
						scenes += z == 0;
						cr_expect(strstr(d.text, " hidden "
						    "(−inf)") != NULL, "%s %zu.%zu at "
						    "%dx%d: no mask drawn:\n%s",
						    names[n], k + 1, s + 1,
						    sizes[z][0], sizes[z][1], d.text);
					}
					drawn_free(&d);
				}
			}
		pe_app_lesson_free(&al);
	}
	cr_expect_geq(scenes, 1, "no lesson step shows the mask panel");
}

/* The footer lists the keys that act in the view: intro's Shaw step
 * listed T5's m/M (max_distance) and u (direction), which it refuses. */
Test(lesson, the_footer_lists_keys_that_act)
{
	struct pe_app_lesson al;
	size_t k;
	char foot[1024];

	load_intro(&al);
	k = scene_titled(&al.l, "Relative positions");
	for (size_t s = 0; s < 2; s++) {
		struct drawn d;
		draw_step(&d, &al.l, k, s, 200, 60, false, NULL);
		bool t5 = PANE(d.st).cfg.relative == PE_REL_T5;
		frame_line(d.text, "? help", foot, sizeof foot);
		cr_expect(strstr(foot, "k/K buckets/K") != NULL, "%zu.%zu: %s",
		    k + 1, s + 1, foot);
		cr_expect_eq(strstr(foot, "m/M max_dist") != NULL, t5,
		    "%zu.%zu (%s): %s", k + 1, s + 1, t5 ? "t5" : "shaw", foot);
		cr_expect_eq(strstr(foot, "u direction") != NULL, t5,
		    "%zu.%zu (%s): %s", k + 1, s + 1, t5 ? "t5" : "shaw", foot);
		if (!t5) { /* what it left out, pressed, is refused */
			d.st.status[0] = '\0';
			key(&d.st, 'm');
			cr_expect(strstr(d.st.status, "t5") != NULL, "m: '%s'",
			    d.st.status);
			cr_expect_eq(PANE(d.st).cfg.relative, PE_REL_SHAW);
		}
		drawn_free(&d);
	}
	pe_app_lesson_free(&al);
}
