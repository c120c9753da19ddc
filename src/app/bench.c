/* pescope bench: for every view and each of its panels, the time to build
 * and render a full frame (median of many), at the default sizes and at
 * seq_len 1,048,576 x d_model 8192 (vit2d: a 128 x 128 grid), and the
 * process's peak memory. With --tables: each kind of dump table's fill
 * throughput beside memset of as many bytes, in the same run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "app/app.h"
#include "app/stream.h"
#include "pescope/encoding.h"
#include "pescope/train.h"
#include "pescope/wave.h"
#include "tui/tui.h"
#include "view/encoding.h"
#include "view/view.h"

/* Monotonic time in milliseconds. */
static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Peak resident memory of this process in MiB. */
static double
peak_mib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

/* A cell's pixels for bench --graphics (a 1080p screen's 10 x 20). */
#define BENCH_CELL_W 10
#define BENCH_CELL_H 20

/* CPU time of this process in milliseconds (what a loaded machine's
 * other work does not add). */
static double
cpu_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* What a series of frames took: the median and the slowest on the clock,
 * the median of the process's CPU time (chafa's threads included; what
 * other work on the machine does not add). */
struct bench_times {
	double median, max, cpu;
	int frames;
};

/* Time up to `frames` frames of st on cv (at least 5; past 1.5 s no
 * more), each the render and, with pictures (g an image protocol), what
 * the TUI writes of them after it, to /dev/null: moving the cursor down a
 * row each frame (as the animation does), or (change) each frame after
 * the model m of cfg was made again, as a key that changes a parameter
 * does (not timed: "model ms"), so that the picture and what a panel
 * keeps are made anew and sent; -1 when a frame failed. */
static int
bench_series(struct pe_state *st, struct pe_model *m,
    const struct pe_config *cfg, struct pe_canvas *cv, int frames,
    enum pe_gfx g, bool change, struct bench_times *bt)
{
	bool pictures = g != PE_GFX_AUTO && g != PE_GFX_CELLS;
	FILE *null = pictures ? fopen("/dev/null", "w") : NULL;
	double *t = malloc(2 * (size_t)frames * sizeof *t), spent = 0;
	int done = 0, rc = t != NULL && (null != NULL || !pictures) ? 0 : -1;
	size_t n = pe_config_positions(&st->pane[st->focus].cfg);

	if (null != NULL)
		pe_gfx_offscreen(g, null); /* from nothing on screen */
	for (; rc == 0 && done < frames && (done < 5 || spent < 1500); done++) {
		if (change && done > 0) {
			pe_model_free(m);
			if (pe_model_init(m, cfg) != PE_OK) {
				memset(m, 0, sizeof *m);
				rc = -1;
				break;
			}
		}
		double a = now_ms(), ca = cpu_ms();
		if (pe_view_render(st, m, cv, NULL) != PE_OK)
			rc = -1; /* a panel failed: the time is not a frame's */
		if (pictures) {
			pe_gfx_before(cv, false);
			pe_gfx_after(cv);
		}
		t[done] = now_ms() - a;
		t[frames + done] = cpu_ms() - ca;
		spent += t[done];
		if (!change) {
			st->cur_r = (st->cur_r + 1) % n;
			pe_state_clamp(st);
		}
	}
	if (null != NULL) {
		pe_gfx_offscreen(PE_GFX_CELLS, NULL);
		fclose(null);
	}
	if (t != NULL && done > 0) {
		qsort(t, (size_t)done, sizeof *t, cmp_double);
		qsort(t + frames, (size_t)done, sizeof *t, cmp_double);
		bt->median = t[done / 2];
		bt->max = t[done - 1];
		bt->cpu = t[frames + done / 2];
	}
	bt->frames = done;
	free(t);
	return rc;
}

/* Time one configuration and panel: model build once, then frames where
 * only the cursor moves and frames where the picture changes (with g an
 * image protocol: each with its maps' pictures at pixel resolution and
 * the bytes the TUI writes of them). */
static int
bench_one(const struct pe_config *cfg, enum pe_panel panel, int w, int h,
    int frames, enum pe_gfx g, double *model_ms, struct bench_times *cursor,
    struct bench_times *change)
{
	struct pe_state st;
	struct pe_model m;
	struct pe_canvas cv;
	double t0 = now_ms();
	if (pe_model_init(&m, cfg) != PE_OK)
		return -1;
	*model_ms = now_ms() - t0;
	if (pe_canvas_init(&cv, w, h) != PE_OK) {
		pe_model_free(&m);
		return -1;
	}
	if (g != PE_GFX_AUTO && g != PE_GFX_CELLS)
		pe_canvas_want_pixels(&cv, BENCH_CELL_W, BENCH_CELL_H,
		    pe_gfx_name(g));
	int rc = 0;
	for (int k = 0; k < 2 && rc == 0; k++) {
		pe_state_init(&st, cfg);
		st.pane[st.focus].panel = panel;
		st.cur_r = cfg->n / 3;
		pe_state_clamp(&st);
		rc = bench_series(&st, &m, cfg, &cv, frames, g, k == 1, k == 0 ?
		    cursor : change);
	}
	pe_canvas_free(&cv);
	pe_model_free(&m);
	return rc;
}

/* A config for encoding e at the default or the large size. */
static void
bench_config(enum pe_encoding e, bool large, struct pe_config *cfg,
    double **table)
{
	pe_config_default(cfg);
	cfg->enc = e;
	if (large) {
		cfg->n = (size_t)1 << 20;
		cfg->d = 8192;
		cfg->grid_h = cfg->grid_w = 128;
		cfg->max_distance = 1024;
	}
	pe_config_encoding_defaults(cfg, large, false);
	/* an encoding whose tables leave double's range at the large length
	 * (xpos's scale) runs at the longest it holds */
	while (large && cfg->n > 1 && pe_config_check(cfg, NULL, 0) != PE_OK)
		cfg->n /= 2;
	/* what the encoding makes for itself (learned: the untrained table,
	 * which keeps its max_len: positions past it have no row) */
	pe_config_prepare(cfg, table, NULL, 0); /* nothing made: fails later */
}

/* A kind of dump table the table bench fills: its options. */
struct bench_table {
	const char *label;
	const char *enc;	  /* the encoding, by name */
	const char *table;
	size_t n, d, heads, grid; /* 0: the default */
	enum pe_dtype dtype;
};

/* The kinds, each 64 to 256 MiB (a quarter with --quick). */
static const struct bench_table bench_tables[] = {
	{"sinusoidal pe", "sinusoidal", "pe", 16384, 4096, 0, 0, PE_F32},
	{"sinusoidal pe f64", "sinusoidal", "pe", 8192, 4096, 0, 0, PE_F64},
	{"rope angles", "rope", "angles", 262144, 128, 0, 0, PE_F32},
	{"rope cos", "rope", "cos", 262144, 128, 0, 0, PE_F32},
	{"rope sin", "rope", "sin", 262144, 128, 0, 0, PE_F32},
	{"alibi bias", "alibi", "bias", 4096, 0, 8, 0, PE_F32},
	{"vit2d pe", "vit2d", "pe", 0, 1024, 0, 128, PE_F32},
	{"similarity", "sinusoidal", "similarity", 8192, 512, 0, 0, PE_F32},
	{"relative buckets", "relative", "buckets", 4096, 0, 0, 0, PE_I64},
	{"nope mask", "nope", "mask", 8192, 0, 0, 0, PE_F32},
};

/* GB/s of table k filled with threads threads (memset_only: memset):
 * per second of the process's CPU time on one thread (other work on the
 * machine takes the core away, not the CPU time), of wall time on
 * more. */
static double
bench_table_rate(const struct pe_options *o, const struct bench_table *b,
    size_t threads, bool memset_only, double *mib)
{
	struct pe_options x = *o;
	char name[32];
	double s = 0, cpu = 0, bytes = 0;

	pe_config_default(&x.cfg);
	x.cfg.enc = (enum pe_encoding)pe_encoding_parse(b->enc);
	if (b->n)
		x.cfg.n = b->n / (o->bench_quick ? 4 : 1);
	if (b->d)
		x.cfg.d = b->d;
	if (b->heads)
		x.cfg.heads = b->heads;
	if (b->grid)
		x.cfg.grid_h = x.cfg.grid_w = b->grid / (o->bench_quick ? 2 : 1);
	snprintf(name, sizeof name, "%s", b->table);
	x.table = name;
	x.dtype = b->dtype;
	x.dump_format = PE_DUMP_NPY;
	x.head_given = false;
	/* the best of 3 (1 with --quick): other work on the machine only
	 * ever slows a run down */
	double best = 0.0;
	for (int run = 0; run < (o->bench_quick ? 1 : 3); run++) {
		if (pe_dump_bench(&x, threads, memset_only, &s, &cpu, &bytes) !=
		    PE_EXIT_OK)
			return -1.0;
		if (threads == 1)
			s = cpu;
		if (best == 0.0 || s < best)
			best = s;
	}
	*mib = bytes / (1024.0 * 1024.0);
	return bytes / best / 1e9;
}

/* The load average over the last minute (-1 when unknown). */
static double
bench_load(void)
{
	double l[1];
	return getloadavg(l, 1) == 1 ? l[0] : -1.0;
}

/* The trainer (train.h): at the defaults, each task trained until it is
 * learned (at most 1000 steps; --quick: 20 steps), its steps per second
 * and the seconds it took; then offset:3 at the training bounds (d 128,
 * n 256, V 64) for a second. One thread, as the trainer always is. */
static int
bench_train(const struct pe_options *o)
{
	printf("training (train.h; one thread): at the defaults d 32, n 64, "
	    "V 16, batch 32,\nlr 0.01, each task to %.0f%% held-out accuracy "
	    "(at most %d steps; learned: the step it got there, - not yet)\n",
	    100 * PE_TRAIN_LEARNED, o->bench_quick ? 20 : 1000);
	printf("%-21s %-26s %9s %9s %9s\n", "task", "size", "steps/s",
	    "learned", "seconds");
	for (int b = 0; b <= PE_TRAIN_TASK_COUNT; b++) {
		struct pe_train_config cfg;
		struct pe_trainer *tr;
		struct pe_train_stats st;
		char task[32], size[64];
		bool bounds = b == PE_TRAIN_TASK_COUNT;
		pe_train_default(&cfg);
		cfg.task = bounds ? PE_TRAIN_OFFSET : (enum pe_train_task)b;
		if (bounds) {
			cfg.d = PE_TRAIN_MAX_D;
			cfg.n = PE_TRAIN_MAX_N;
			cfg.vocab = PE_TRAIN_MAX_VOCAB;
		}
		if (pe_train_new(&cfg, &tr) != PE_OK)
			return PE_EXIT_FAIL;
		pe_train_label(&cfg, task, sizeof task);
		snprintf(size, sizeof size, "n %zu d %zu V %zu", cfg.n, cfg.d,
		    cfg.vocab);
		double t0 = now_ms();
		do {
			if (pe_train_run(tr, bounds ? 1 : 10, 0, NULL) != PE_OK)
				break;
			pe_train_stats(tr, &st);
		} while (st.step < (o->bench_quick ? 20 : 1000) &&
		    (bounds ? now_ms() - t0 < 1000 :
		    st.learned_step == PE_TRAIN_NOT_YET));
		double s = (now_ms() - t0) / 1e3;
		pe_train_stats(tr, &st);
		char learned[32] = "-";
		if (st.learned_step != PE_TRAIN_NOT_YET)
			snprintf(learned, sizeof learned, "%zu",
			    st.learned_step);
		printf("%-21s %-26s %9.1f %9s %9.2f\n", task, size,
		    (double)st.step / s, learned, s);
		fflush(stdout);
		pe_train_free(tr);
	}
	return PE_EXIT_OK;
}


/* The TUI's frames while it trains (--train offset:3 at the defaults):
 * each frame a slice of training (the loop's budget, 8 ms), then the model
 * rebuilt from the changed table and the frame drawn at w x h; the
 * medians and the worst of the rebuild, the frame and the whole turn (on
 * the clock, and in CPU time). */
static int
bench_train_frames(int w, int h, int frames)
{
	struct pe_train_config tc;
	struct pe_trainer *tr;
	struct pe_canvas cv;
	struct pe_state st;
	struct pe_config cfg;

	pe_train_default(&tc);
	if (pe_train_new(&tc, &tr) != PE_OK)
		return PE_EXIT_FAIL;
	if (pe_canvas_init(&cv, w, h) != PE_OK) {
		pe_train_free(tr);
		return PE_EXIT_FAIL;
	}
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_LEARNED;
	cfg.d = tc.d;
	cfg.n = cfg.max_len = tc.n;
	cfg.table = pe_train_table(tr);
	cfg.table_untrained = false;
	cfg.trainer = tr;
	pe_state_init(&st, &cfg);
	double *t = malloc(4 * (size_t)frames * sizeof *t);
	int rc = t != NULL ? PE_EXIT_OK : PE_EXIT_FAIL;
	double *model = t, *draw = t + frames, *turn = t + 2 * frames;
	double *cpu = t + 3 * frames;
	for (int f = 0; rc == PE_EXIT_OK && f < frames; f++) {
		struct pe_model m;
		double a = now_ms(), ca = cpu_ms();
		pe_train_run(tr, PE_TRAIN_MAX_STEPS, 0.008, NULL);
		double b = now_ms();
		if (pe_model_init(&m, &cfg) != PE_OK)
			rc = PE_EXIT_FAIL;
		double c = now_ms();
		if (rc == PE_EXIT_OK && pe_view_render(&st, &m, &cv, NULL) !=
		    PE_OK)
			rc = PE_EXIT_FAIL;
		if (rc == PE_EXIT_OK || c > b)
			pe_model_free(&m);
		model[f] = c - b;
		draw[f] = now_ms() - c;
		turn[f] = now_ms() - a;
		cpu[f] = cpu_ms() - ca;
	}
	if (rc == PE_EXIT_OK) {
		struct pe_train_stats ts;
		pe_train_stats(tr, &ts);
		for (int k = 0; k < 4; k++)
			qsort(t + k * frames, (size_t)frames, sizeof *t,
			    cmp_double);
		/* under the views' columns: the frame as a cursor frame,
		 * change and its CPU time "-" (a turn makes its model) */
		printf("%-21s %-26s %9.2f %9.2f %9s %9s %9.2f %7d\n",
		    "learned --train", "n 64 d 32: model, frame",
		    model[frames / 2], draw[frames / 2], "-", "-",
		    draw[frames - 1], frames);
		printf("%-21s %-26s %9.2f %9.2f %9s %9s %9.2f %7d\n",
		    "learned --train", "turn: 8 ms training + both",
		    cpu[frames / 2], turn[frames / 2], "-", "-",
		    turn[frames - 1], frames);
		printf("(the turn's first column is its CPU time; %zu steps "
		    "trained in those turns)\n", ts.step);
	}
	free(t);
	pe_canvas_free(&cv);
	pe_train_free(tr);
	return rc;
}

/* pescope bench --tables. */
static int
bench_tables_run(const struct pe_options *o)
{
	size_t cpus = pe_stream_cpus();
	int rc = PE_EXIT_OK;

	printf("pescope bench --tables: dump's fill (prepare, fill, encode as "
	    "NPY, write nowhere)\nbeside memset of as many bytes through the "
	    "same chunks; GB/s (best of 3): 1 thread\nper CPU second, %zu per "
	    "wall second; wave loops: %s; load average %.1f\n", cpus,
	    pe_wave_isa(), bench_load());
	printf("%-18s %8s %9s %9s %9s %9s\n", "table", "MiB", "fill 1",
	    "memset 1", "fill N", "memset N");
	for (size_t k = 0; k < sizeof bench_tables / sizeof bench_tables[0]; k++) {
		const struct bench_table *b = &bench_tables[k];
		double mib = 0, r[4];
		for (int v = 0; v < 4; v++)
			r[v] = bench_table_rate(o, b, v < 2 ? 1 : cpus, v % 2 == 1,
			    &mib);
		if (r[0] < 0 || r[2] < 0) {
			printf("%-18s failed\n", b->label);
			rc = PE_EXIT_FAIL;
			continue;
		}
		printf("%-18s %8.0f %9.2f %9.2f %9.2f %9.2f\n", b->label, mib, r[0],
		    r[1], r[2], r[3]);
		fflush(stdout);
	}
	return rc;
}

/* pescope bench. */
int
pe_bench_run(const struct pe_options *o)
{
	if (o->bench_tables)
		return bench_tables_run(o);

	int w = 200, h = 60;
	int frames = o->bench_quick ? 5 : 31;
	if (o->width != 120 || o->height != 40)
		w = o->width, h = o->height;
	enum pe_gfx g = (enum pe_gfx)o->graphics;
	printf("pescope bench: frame %dx%d, median of up to %d frames (1.5 s "
	    "each at most), one core\n", w, h, frames);
	if (g != PE_GFX_AUTO && g != PE_GFX_CELLS)
		printf("graphics %s: the main map's picture at %dx%d-pixel cells "
		    "and the %s bytes\nthe TUI writes of it (chafa) after each "
		    "frame, written to /dev/null, not a terminal\n(the picture's "
		    "block means and colors on two threads, the caller and one "
		    "worker;\nchafa makes a large picture's two images at once on "
		    "them)\n",
		    pe_gfx_name(g), BENCH_CELL_W, BENCH_CELL_H, pe_gfx_name(g));
	printf("cursor: only the cursor moves, a row a frame (as the animation "
	    "does; a picture is\nkept while what it shows is unchanged); "
	    "change: every frame after its model was\nmade again, as a key "
	    "that changes a parameter does (every block and color made\nagain"
	    "%s); medians on the clock, and change's in CPU time\n(cpu); max: "
	    "the slowest frame of either; load average %.1f\n",
	    g != PE_GFX_AUTO && g != PE_GFX_CELLS ? ", the picture's bytes sent"
	    : "", bench_load());
	printf("%-21s %-26s %9s %9s %9s %9s %9s %7s\n", "view", "size",
	    "model ms", "cursor ms", "change ms", "cpu ms", "max ms", "frames");
	int rc = PE_EXIT_OK;
	for (int large = 0; large < 2; large++)
		for (int e = 0; e < PE_ENC_COUNT; e++)
			for (int p = 0; p < PE_PANEL_COUNT; p++) {
				struct pe_config cfg;
				double *table = NULL;
				double mm = 0;
				struct bench_times cur = {0}, chg = {0};
				char size[64], view[64];
				bench_config((enum pe_encoding)e, large, &cfg, &table);
				if (!pe_enc_has_panel(pe_enc_view_of(&cfg), (enum pe_panel)p)) {
					free(table);
					continue;
				}
				if (p != PE_PANEL_OVERVIEW) /* the panels mark it */
					cfg.teach.train_len = cfg.n / 2;
				if (pe_config_positions(&cfg) == cfg.n)
					snprintf(size, sizeof size, "n %zu d %zu", cfg.n, cfg.d);
				else if (pe_config_positions(&cfg) ==
				    cfg.grid_h * cfg.grid_w)
					snprintf(size, sizeof size, "grid %zux%zu d %zu",
					    cfg.grid_h, cfg.grid_w, cfg.d);
				else
					snprintf(size, sizeof size, "%zu tokens d %zu",
					    pe_config_positions(&cfg), cfg.d);
				snprintf(view, sizeof view, "%s%s%s",
				    pe_encoding_name(cfg.enc), p ? "/" : "",
				    p ? pe_panel_name((enum pe_panel)p) : "");
				if (bench_one(&cfg, (enum pe_panel)p, w, h, frames, g, &mm,
					&cur, &chg) != 0) {
					printf("%-21s %-26s failed\n", view, size);
					rc = PE_EXIT_FAIL;
				} else {
					double mx = cur.max > chg.max ? cur.max : chg.max;
					int nf = cur.frames < chg.frames ? cur.frames
					    : chg.frames;
					printf("%-21s %-26s %9.2f %9.2f %9.2f %9.2f %9.2f "
					    "%7d\n", view, size, mm, cur.median, chg.median,
					    chg.cpu, mx, nf);
				}
				fflush(stdout);
				free(table);
			}
	if (bench_train_frames(w, h, o->bench_quick ? 20 : 200) != PE_EXIT_OK ||
	    bench_train(o) != PE_EXIT_OK)
		rc = PE_EXIT_FAIL;
	printf("peak memory: %.1f MiB\n", peak_mib());
	return rc;
}
