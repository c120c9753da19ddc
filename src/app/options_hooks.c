/* The readers of the options that no generic type reads (a row's .parse):
 * pairs and triples, files read whole (NPY tables), a permutation, a
 * signed shift, a scene, the frame's size, -f (whose names depend on the
 * command) and -o ("-" is standard output). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/options_impl.h"
#include "pescope/learned.h"
#include "pescope/toy.h"
#include "render/writer.h"
#include "view/view.h"

/* The names of a snapshot's formats: the writer's table. */
static const char *
hooks_format_name(int v)
{
	return pe_format_name((enum pe_format)v);
}

/* -f's names: the writer's formats (snapshot), then dump's. */
static const struct opt_choices dump_formats = {.names =
    (const struct opt_name[]){{"csv", PE_DUMP_CSV}, {"npy", PE_DUMP_NPY},
	{NULL, 0}}};
const struct opt_choices opt_formats = {PE_FMT_COUNT, hooks_format_name,
	pe_format_parse, NULL, &dump_formats};

/* --train TASK[:K]: a task of train.h, K (offset's distance back) after
 * a colon; offset alone is offset:3. K's range (below seq_len) is
 * checked with the config. */
int
opt_train(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	const char *colon = strchr(arg, ':');
	size_t len = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
	char name[32];
	int task = -1;

	if (len < sizeof name) {
		memcpy(name, arg, len);
		name[len] = '\0';
		task = pe_train_task_parse(name);
	}
	if (task < 0)
		return opt_fail(err, cap, "--%s '%s': the task must be "
		    "offset[:K], reverse, first or distance", r->name, arg);
	o->train.task = (enum pe_train_task)task;
	o->train.k = 3;
	o->train_given = true;
	if (colon == NULL)
		return 0;
	if (o->train.task != PE_TRAIN_OFFSET)
		return opt_fail(err, cap, "--%s '%s': only offset takes :K "
		    "(the distance back)", r->name, arg);
	if (opt_size(r->name, colon + 1, 1, PE_TRAIN_MAX_N - 1, &o->train.k,
	    NULL, 0) != 0)
		return opt_fail(err, cap, "--%s '%s': K must be an integer in "
		    "1..%d, below --seq-len", r->name, arg,
		    PE_TRAIN_MAX_N - 1);
	return 0;
}

/* --grid HxW. */
int
opt_grid(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	return opt_pair(r->name, arg, 'x', 1, PE_MAX_GRID, &o->cfg.grid_h,
	    &o->cfg.grid_w, "HxW (rows x columns of patches)", err, cap);
}

/* --mrope-section T,H,W. */
int
opt_mrope_section(struct pe_options *o, const struct opt_row *r,
    const char *arg, char *err, size_t cap)
{
	return opt_sizes(r->name, arg, 3, PE_MAX_D, o->cfg.mrope.mrope_section,
	    "T,H,W (three pair counts)", err, cap);
}

/* --window W: a sliding window of W keys (the span's last word wins;
 * options_check.c refuses --window with --chunk). */
int
opt_window(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	if (opt_size(r->name, arg, 1, PE_MAX_N, &o->cfg.attn.window, err,
	    cap) != 0)
		return 2;
	o->cfg.attn.span = PE_SPAN_SLIDING;
	o->window_given = true;
	return 0;
}

/* --chunk C: chunks of C positions. */
int
opt_chunk(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	if (opt_size(r->name, arg, 1, PE_MAX_N, &o->cfg.attn.chunk, err,
	    cap) != 0)
		return 2;
	o->cfg.attn.span = PE_SPAN_CHUNKED;
	o->chunk_given = true;
	return 0;
}

/* Read an NPY table for the learned encoding. It does not choose the
 * encoding: a table with another encoding is refused in opt_finish(). */
int
opt_table_file(struct pe_options *o, const struct opt_row *r,
    const char *path, char *err, size_t cap)
{
	size_t rows, cols;
	const char *why = NULL;
	double *t;
	(void)r;
	int st = pe_npy_read_file(path, (size_t)1 << 32, PE_MAX_N, PE_MAX_D, &t,
	    &rows, &cols, &why);
	switch (st) {
	case PE_OK:
		break;
	case PE_EIO:
		return opt_fail(err, cap, "--table-file '%s': cannot read it: "
		    "%s",
		    path, strerror(errno));
	case PE_EINVAL:
	case PE_ERANGE:
		return opt_fail(err, cap, "--table-file '%s': %s (a table is a "
		    "regular NPY file of at most 4 GiB, [1..%zu, 1..%zu])",
		    path, why != NULL ? why : pe_strerror(st), PE_MAX_N,
		    PE_MAX_D);
	default:
		return opt_fail(err, cap, "--table-file '%s': not a usable NPY "
		    "table (%s); need a 2-D <f4 or <f8 array [max_len, "
		    "d_model]", path, why != NULL ? why : pe_strerror(st));
	}
	/* finite, and no dot product of its rows can overflow */
	char bad[256];
	if (pe_learned_table_check(t, rows, cols, bad, sizeof bad) != PE_OK) {
		free(t);
		return opt_fail(err, cap, "--table-file '%s': %s", path, bad);
	}
	free(o->table_data);
	o->table_data = t;
	o->table_rows = rows;
	o->table_cols = cols;
	return 0;
}

/* Read --bias-file: a relative bias [buckets] or [heads, buckets], as a
 * checkpoint's relative_attention_bias.weight.T; finite. Its shape is
 * checked against the relative kind with the rest (pe_teach_check). */
int
opt_bias_file(struct pe_options *o, const struct opt_row *r,
    const char *path, char *err, size_t cap)
{
	size_t nd, rows, cols;
	const char *why = NULL;
	double *t;
	(void)r;
	int st = pe_npy_read_file_nd(path, (size_t)1 << 32, PE_MAX_HEADS,
	    2 * PE_MAX_N + 1, &t, &nd, &rows, &cols, &why);
	switch (st) {
	case PE_OK:
		break;
	case PE_EIO:
		return opt_fail(err, cap, "--bias-file '%s': cannot read it: "
		    "%s", path, strerror(errno));
	default:
		return opt_fail(err, cap, "--bias-file '%s': %s; need a <f4 or "
		    "<f8 array [buckets] or [heads, buckets] (heads 1..%zu)",
		    path,
		    why != NULL ? why : pe_strerror(st), PE_MAX_HEADS);
	}
	for (size_t k = 0; k < rows * cols; k++)
		if (!isfinite(t[k])) {
			double v = t[k];
			free(t);
			return opt_fail(err, cap, "--bias-file '%s': entry %zu "
			    "is %g; a bias must be finite", path, k, v);
		}
	free(o->bias_data);
	o->bias_data = t;
	o->cfg.teach.bias = t;
	o->cfg.teach.bias_heads = rows;
	o->cfg.teach.bias_len = cols;
	return 0;
}

/* Read --freqs-file: RoPE-Mixed's learned frequencies, [2, d/2] (one head),
 * [2, heads, d/2] or the reference's parameter [2, depth, heads d/2],
 * finite. That d_model divides them, and --head and --layer are inside,
 * is checked with the rest (pe_rope2d_check). */
int
opt_freqs_file(struct pe_options *o, const struct opt_row *r,
    const char *path, char *err, size_t cap)
{
	size_t nd, shape[3];
	const char *why = NULL;
	double *t;
	(void)r;
	int st = pe_npy_read_file_3d(path, (size_t)1 << 32,
	    PE_MAX_HEADS * PE_MAX_D, &t, &nd, shape, &why);
	switch (st) {
	case PE_OK:
		break;
	case PE_EIO:
		return opt_fail(err, cap, "--freqs-file '%s': cannot read it: "
		    "%s",
		    path, strerror(errno));
	default:
		return opt_fail(err, cap, "--freqs-file '%s': %s; need a <f4 "
		    "or <f8 array [2, heads, d/2] or [2, depth, heads d/2]",
		    path,
		    why != NULL ? why : pe_strerror(st));
	}
	if (nd < 2 || shape[0] != 2) {
		char dims[64];
		snprintf(dims, sizeof dims, nd == 1 ? "[%zu]" : nd == 2
		    ? "[%zu, %zu]" : "[%zu, %zu, %zu]", shape[0], shape[1],
		        shape[2]);
		free(t);
		return opt_fail(err, cap, "--freqs-file '%s': the array is %s; "
		    "RoPE-Mixed's frequencies are [2, heads, d/2] (x, then y) "
		    "or the reference's freqs [2, depth, heads d/2]", path,
		    dims);
	}
	size_t rows = nd == 2 ? 1 : shape[1];
	size_t cols = nd == 2 ? shape[1] : shape[2];
	for (size_t k = 0; k < 2 * rows * cols; k++)
		if (!isfinite(t[k])) {
			double v = t[k];
			free(t);
			return opt_fail(err, cap, "--freqs-file '%s': entry "
			    "%zu is %g; frequencies must be finite", path, k,
			    v);
		}
	free(o->freqs_data);
	o->freqs_data = t;
	o->cfg.rope2d.freqs = t;
	o->cfg.rope2d.freqs_rows = rows;
	o->cfg.rope2d.freqs_cols = cols;
	return 0;
}

/* Read --permute: a list of token indices (numbers by opt_list's rule,
 * each a whole number 0..63); that it is a permutation of the sentence's
 * is checked with the rest (pe_teach_check). */
int
opt_permute(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	double *v = NULL;
	size_t n;
	if (opt_list(r->name, arg, &v, &n, err, cap) != 0)
		return 2;
	size_t *p = malloc(n * sizeof *p);
	if (p == NULL) {
		free(v);
		return opt_fail(err, cap, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] >= 0 && v[i] < PE_TOY_MAX_TOKENS &&
		    v[i] == trunc(v[i]))) {
			int rc = opt_fail(err, cap, "--permute: entry %zu (%g) "
			    "is not a token index: a permutation of 0..T-1 (T "
			    "at most %d)", i,
			    v[i], PE_TOY_MAX_TOKENS);
			free(v);
			free(p);
			return rc;
		}
		p[i] = (size_t)v[i];
	}
	free(v);
	free(o->permute);
	o->permute = p;
	o->cfg.teach.permute = p;
	o->cfg.teach.n_permute = n;
	return 0;
}

/* --shift K: a whole number (its range, -n < K < n, is checked once n is
 * known). */
int
opt_shift(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	double v;
	if (!opt_read_number(arg, strlen(arg), &v) || v != trunc(v) ||
	    fabs(v) > (double)PE_MAX_N)
		return opt_fail(err, cap, "--%s '%s': must be an integer with "
		    "-n < K < n", r->name, arg);
	o->cfg.teach.shift = (int64_t)v;
	return 0;
}

/* --scene K[.S]. */
int
opt_scene(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	const char *dot = strchr(arg, '.');
	char kk[32];
	snprintf(kk, sizeof kk, "%.*s", dot != NULL ? (int)(dot - arg) : 31,
	    arg);
	o->scene_step = 1;
	if (opt_size(r->name, kk, 1, 1000, &o->scene, err, cap) != 0 ||
	    (dot != NULL && opt_size(r->name, dot + 1, 1, 1000, &o->scene_step,
		err, cap) != 0))
		return opt_fail(err, cap, "--scene '%s': must be K or K.S, "
		    "scene K from 1 and step S from 1", arg);
	return 0;
}

/* --cursor P,J. */
int
opt_cursor(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	o->cursor_given = true;
	return opt_pair(r->name, arg, ',', 0, PE_MAX_N, &o->cursor_p,
	    &o->cursor_j, "P,J (position, then column)", err, cap);
}

/* --size WxH: at least the smallest frame pescope draws. */
int
opt_frame_size(struct pe_options *o, const struct opt_row *r,
    const char *arg, char *err, size_t cap)
{
	size_t w, h;
	if (opt_pair(r->name, arg, 'x', 1, 1000, &w, &h,
		"WxH (columns x lines)", err, cap) != 0)
		return 2;
	if (w < PE_VIEW_MIN_W || h < PE_VIEW_MIN_H)
		return opt_fail(err, cap, "--size '%s': must be at least %dx%d "
		    "(the smallest frame pescope draws) and at most 1000x1000",
		    arg, PE_VIEW_MIN_W, PE_VIEW_MIN_H);
	o->width = (int)w;
	o->height = (int)h;
	return 0;
}

/* -f: a dump's format with dump, else a snapshot's (the writer's formats,
 * their aliases too). */
int
opt_format(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	int k;
	if (o->cmd == PE_CMD_DUMP) {
		k = opt_pick(r->name, opt_formats.next, arg, err, cap);
		if (k < 0)
			return 2;
		o->dump_format = (enum pe_dump_format)k;
		return 0;
	}
	if ((k = opt_pick(r->name, &opt_formats, arg, err, cap)) < 0)
		return 2;
	o->snap_format = (enum pe_format)k;
	return 0;
}

/* -o FILE; "-" is standard output. */
int
opt_output(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	(void)r;
	if (arg[0] == '\0')
		return opt_fail(err, cap, "--output: the file name is empty");
	if (strcmp(arg, "-") == 0) {
		free(o->output);
		o->output = NULL;
		return 0;
	}
	return opt_own(&o->output, arg, err, cap);
}
