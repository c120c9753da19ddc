/* pescope bench: for every view, the time to build and render a full frame
 * (median of many), at the default sizes and at seq_len 1,048,576 x d_model
 * 8192 (vit2d: a 128 x 128 grid), and the process's peak memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "app/app.h"
#include "pescope/learned.h"
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

/* Time one configuration: model build once, then `frames` renders. */
static int
bench_one(const struct pe_config *cfg, int w, int h, int frames,
    double *model_ms, double *median_ms, double *max_ms, int *nframes)
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
	pe_state_init(&st, cfg);
	st.cur_r = cfg->n / 3;
	pe_state_clamp(&st);
	double *t = malloc((size_t)frames * sizeof *t), spent = 0;
	int done = 0, rc = t != NULL ? 0 : -1;
	/* at least 5 frames; stop early past 1.5 s so the whole bench stays
	 * within its budget even on a slow machine */
	for (; t != NULL && done < frames && (done < 5 || spent < 1500);
	     done++) {
		double a = now_ms();
		if (pe_view_render(&st, &m, &cv, NULL) != PE_OK)
			rc = -1; /* a panel failed: the time is not a frame's */
		t[done] = now_ms() - a;
		spent += t[done];
		st.cur_r = (st.cur_r + 1) % cfg->n; /* as the animation does */
		pe_state_clamp(&st);
	}
	if (t != NULL) {
		qsort(t, (size_t)done, sizeof *t, cmp_double);
		*median_ms = t[done / 2];
		*max_ms = t[done - 1];
	}
	*nframes = done;
	free(t);
	pe_canvas_free(&cv);
	pe_model_free(&m);
	return rc;
}

/* A config for encoding e at the default or the large size. */
static void
bench_config(const struct pe_options *o, enum pe_encoding e, bool large,
    struct pe_config *cfg, double **table)
{
	pe_config_default(cfg);
	cfg->enc = e;
	cfg->table = o->cfg.table;
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
	if (e == PE_ENC_LEARNED) {
		/* the table keeps its max_len: positions past it have no row */
		pe_learned_untrained(cfg->max_len, cfg->d, table); /* NULL: fails */
		cfg->table = *table;
	}
}

/* pescope bench. */
int
pe_bench_run(const struct pe_options *o)
{
	int w = 200, h = 60;
	int frames = o->bench_quick ? 5 : 31;
	if (o->width != 120 || o->height != 40)
		w = o->width, h = o->height;
	printf("pescope bench: frame %dx%d, median of up to %d frames (1.5 s "
	    "each at most), one core\n", w, h, frames);
	printf("%-11s %-26s %9s %9s %9s %7s\n", "view", "size", "model ms",
	    "frame ms", "max ms", "frames");
	int rc = PE_EXIT_OK;
	for (int large = 0; large < 2; large++)
		for (int e = 0; e < PE_ENC_COUNT; e++) {
			struct pe_config cfg;
			double *table = NULL;
			double mm = 0, med = 0, mx = 0;
			int nf = 0;
			char size[64];
			bench_config(o, (enum pe_encoding)e, large, &cfg, &table);
			if (pe_config_positions(&cfg) == cfg.n)
				snprintf(size, sizeof size, "n %zu d %zu", cfg.n, cfg.d);
			else if (pe_config_positions(&cfg) == cfg.grid_h * cfg.grid_w)
				snprintf(size, sizeof size, "grid %zux%zu d %zu", cfg.grid_h,
				    cfg.grid_w, cfg.d);
			else
				snprintf(size, sizeof size, "%zu tokens d %zu",
				    pe_config_positions(&cfg), cfg.d);
			if (bench_one(&cfg, w, h, frames, &mm, &med, &mx, &nf) != 0) {
				printf("%-11s %-26s failed\n", pe_encoding_name(cfg.enc),
				    size);
				rc = PE_EXIT_FAIL;
			} else {
				printf("%-11s %-26s %9.2f %9.2f %9.2f %7d\n",
				    pe_encoding_name(cfg.enc), size, mm, med, mx, nf);
			}
			fflush(stdout);
			free(table);
		}
	printf("peak memory: %.1f MiB\n", peak_mib());
	return rc;
}
