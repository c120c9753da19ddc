/* mrope fields (mrope.h): the angle map theta[token, pair] mod 2 pi, the
 * score of every two tokens, and the score of one token with each patch
 * of the image or video as a [frames grid_h, grid_w] map (a cosine: the
 * score over the d/2 pairs, |R q|^2 for the unit q).
 *
 * Every sum over a block runs over the positions of one axis, which a
 * token range turns into a few runs of consecutive positions, each held by
 * some tokens (pe_mrope_runs): a text part, partial rows and frames of the
 * vision block, and whole rows or frames repeating. Each run sums in
 * closed form (Lagrange, trig.h), so a block costs O(pairs), whatever its
 * size. A score block is Re sum_j G_j(rows) conj(G_j(cols)) with G the sum
 * of e^{i p w_j} over a range; grids keep G per row block and per column
 * block, a chunk of pairs at a time, and take one dot product per cell
 * (pe_field_dots): O((nr + nc) pairs runs + nr nc pairs). The patch map,
 * separable by axis, sums per-anchor tables of each axis instead (its
 * frames, rows and columns), O(map + cells). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/field_impl.h"
#include "kernel/trig.h"
#include "pescope/mrope.h"

/* Pairs of a field's head. */
static size_t
mrope_pairs(const struct pe_field *f)
{
	return f->cfg->d / 2;
}

/* inv_freq at f->omega. */
static int
mrope_init(struct pe_field *f)
{
	f->nomega = mrope_pairs(f);
	f->omega = malloc((f->nomega ? f->nomega : 1) * sizeof *f->omega);
	if (f->omega == NULL)
		return PE_ENOMEM;
	pe_mrope_inv_freq(f->cfg, f->omega);
	return PE_OK;
}

/* The runs of every axis over tokens [i0, i1). */
struct mrope_ranges {
	struct pe_mrope_run run[3][PE_MROPE_MAX_RUNS];
	size_t n[3];
};

/* Fill rg with the runs of the three axes over tokens [i0, i1). */
static void
mrope_ranges(const struct pe_config *cfg, size_t i0, size_t i1,
    struct mrope_ranges *rg)
{
	for (int a = 0; a < 3; a++)
		rg->n[a] = pe_mrope_runs(cfg, (enum pe_mrope_axis)a, i0, i1,
		    rg->run[a]);
}

/* sum over runs of mult e^{i p w}: *re (cosines), *im (sines); a run of
 * frames at their times (Qwen2.5-VL's) a frame at a time. */
static void
mrope_geo(const struct pe_config *cfg, const struct pe_mrope_run *run,
    size_t n, double w, double *re, double *im)
{
	double c = 0.0, s = 0.0;

	for (size_t k = 0; k < n; k++) {
		double rs, rc;
		if (run[k].frames) {
			double wr = pe_trig_reduce(w);
			rs = rc = 0.0;
			for (uint64_t f = 0; f < run[k].len; f++) {
				double fs, fc;
				sincos(wr * (double)pe_mrope_run_pos(cfg, &run[k], f),
				    &fs, &fc);
				rs += fs;
				rc += fc;
			}
		} else if (run[k].len == 1) /* one position (a row's h, a frame's
					       t) */
			sincos(pe_trig_reduce(w) * (double)run[k].p0, &rs, &rc);
		else
			pe_trig_sum(0.0, w, run[k].p0, run[k].len, &rs, &rc);
		c += (double)run[k].mult * rc;
		s += (double)run[k].mult * rs;
	}
	*re = c;
	*im = s;
}

/* ---- the angle map ------------------------------------------------- */

/* [L, d/2]. */
static void
mrope_angle_shape(const struct pe_config *cfg, size_t *rows, size_t *cols)
{
	*rows = pe_mrope_length(cfg);
	*cols = cfg->d / 2;
}

/* theta[i, j] mod 2 pi. */
static double
mrope_angle_value(const struct pe_field *f, size_t r, size_t c)
{
	size_t sec[3];
	int64_t p[3];

	pe_mrope_sections(f->cfg, sec);
	pe_mrope_position(f->cfg, r, p);
	double a = fmod((double)p[pe_mrope_pair_axis(f->cfg, sec, c)] *
	    f->omega[c], PE_TWO_PI);
	return a < 0.0 ? a + PE_TWO_PI : a;
}

/* Circular statistics of count angles from their sums of sines ts and
 * cosines tc (Mardia & Jupp 2000, 2.2.1), as the wave fields do. */
static void
mrope_angle_finish(double ts, double tc, struct pe_stats *dest)
{
	double m = atan2(ts, tc);
	dest->mean = m < 0.0 ? m + PE_TWO_PI : m;
	dest->resultant = fmin(hypot(ts, tc) / (double)dest->count, 1.0);
}

/* Sums of sines and cosines of the columns [c0, c1) over the rows rg. */
static void
mrope_angle_sums(const struct pe_field *f, const struct mrope_ranges *rg,
    size_t c0, size_t c1, double *ts, double *tc)
{
	size_t sec[3];

	pe_mrope_sections(f->cfg, sec);
	*ts = *tc = 0.0;
	for (size_t j = c0; j < c1; j++) {
		enum pe_mrope_axis a = pe_mrope_pair_axis(f->cfg, sec, j);
		double re, im;
		mrope_geo(f->cfg, rg->run[a], rg->n[a], f->omega[j], &re, &im);
		*tc += re;
		*ts += im;
	}
}

/* Circular mean of a block: per column, the runs of its axis. */
static int
mrope_angle_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	struct mrope_ranges rg;
	double ts, tc;

	(void)minmax;
	mrope_ranges(f->cfg, r0, r1, &rg);
	mrope_angle_sums(f, &rg, c0, c1, &ts, &tc);
	mrope_angle_finish(ts, tc, dest);
	return PE_OK;
}

/* Grid of the angle map: the runs once per row block, each column block
 * from them; O(nr (c1 - c0) runs). */
static int
mrope_angle_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	struct field_cells it;
	struct mrope_ranges rg;

	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		if (it.bj == 0) {
			if (it.bi % 8 == 7 && pe_field_interrupted())
				return PE_EINTR;
			mrope_ranges(f->cfg, it.p0, it.p1, &rg);
		}
		double ts, tc;
		struct pe_stats *st = &dest[it.k];
		field_stats_init(st, it.count);
		mrope_angle_sums(f, &rg, it.q0, it.q1, &ts, &tc);
		mrope_angle_finish(ts, tc, st);
	}
	return PE_OK;
}

/* ---- products of sums: scores ----------------------------------------- */

/* G_j over tokens [i0, i1) for pairs [k0, k0 + kn). */
static void
mrope_sim_factor(const struct pe_field *f, size_t i0, size_t i1, size_t k0,
    size_t kn, double *re, double *im)
{
	struct mrope_ranges rg;
	size_t sec[3];

	pe_mrope_sections(f->cfg, sec);
	mrope_ranges(f->cfg, i0, i1, &rg);
	for (size_t k = 0; k < kn; k++) {
		enum pe_mrope_axis a = pe_mrope_pair_axis(f->cfg, sec, k0 + k);
		mrope_geo(f->cfg, rg.run[a], rg.n[a], f->omega[k0 + k], &re[k],
		    &im[k]);
	}
}

/* Score of tokens r and c. */
static double
mrope_sim_value(const struct pe_field *f, size_t r, size_t c)
{
	size_t sec[3];

	pe_mrope_sections(f->cfg, sec);
	return pe_mrope_score(f->cfg, f->omega, sec, r, c);
}

/* Mean score of a block: sum_j Re(G_j(rows) conj(G_j(cols))) / count. */
static int
mrope_sim_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	(void)minmax;
	struct pe_stats tmp;
	int rc = pe_field_dots(f, r0, r1, 1, c0, c1, 1, mrope_pairs(f),
	    mrope_sim_factor, mrope_sim_factor, 1.0, &tmp);
	dest->mean = tmp.mean;
	return rc;
}

/* Grid of scores: per-block sums of e^{i p w} and one dot product per
 * cell (pe_field_dots). */
static int
mrope_sim_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	return pe_field_dots(f, r0, r1, nr, c0, c1, nc, mrope_pairs(f),
	    mrope_sim_factor, mrope_sim_factor, 1.0, dest);
}

/* ---- one token against the patches ------------------------------------ */

/* [frames grid_h, grid_w]: frame f's row r is row f grid_h + r. */
static void
mrope_patch_shape(const struct pe_config *cfg, size_t *rows, size_t *cols)
{
	*rows = cfg->mrope.frames * cfg->grid_h;
	*cols = cfg->grid_w;
}

/* Token of patch (row g, column c) of the patch map. */
static size_t
mrope_patch_token(const struct pe_config *cfg, size_t g, size_t c)
{
	return cfg->mrope.text_before + g * cfg->grid_w + c;
}

/* Cosine of token `anchor` with the patch at (g, c): score / (d/2). */
static double
mrope_patch_value(const struct pe_field *f, size_t g, size_t c)
{
	size_t L = pe_mrope_length(f->cfg);

	if (f->anchor >= L)
		return NAN;
	return mrope_sim_value(f, f->anchor, mrope_patch_token(f->cfg, g, c)) /
	    (double)mrope_pairs(f);
}

/* The positions of axis a over patch-map rows [g0, g1) (one column) as
 * runs: t by frame, h by row within a frame. */
static size_t
mrope_patch_row_runs(const struct pe_config *cfg, enum pe_mrope_axis a,
    size_t g0, size_t g1, struct pe_mrope_run *dest)
{
	uint64_t N = cfg->mrope.text_before, H = cfg->grid_h;
	size_t n = 0;

	if (a == PE_MROPE_H) {
		size_t fa = g0 / H, fb = (g1 - 1) / H;
		if (fa == fb) {
			dest[n++] = (struct pe_mrope_run){N + g0 % H, g1 - g0, 1,
			    false};
			return n;
		}
		dest[n++] = (struct pe_mrope_run){N + g0 % H, H - g0 % H, 1,
		    false};
		if (fb - fa > 1)
			dest[n++] = (struct pe_mrope_run){N, H, fb - fa - 1, false};
		dest[n++] = (struct pe_mrope_run){N, (g1 - 1) % H + 1, 1, false};
		return n;
	}
	size_t f0 = g0 / H, f1 = (g1 - 1) / H;
	uint64_t t0 = N + (uint64_t)pe_mrope_frame_time(cfg, f0);
	uint64_t t1 = N + (uint64_t)pe_mrope_frame_time(cfg, f1);
	if (f0 == f1) {
		dest[n++] = (struct pe_mrope_run){t0, 1, g1 - g0, false};
		return n;
	}
	dest[n++] = (struct pe_mrope_run){t0, 1, (f0 + 1) * H - g0, false};
	if (f1 - f0 > 1)
		dest[n++] = cfg->mrope.tokens_per_second > 0.0
		    ? (struct pe_mrope_run){f0 + 1, f1 - f0 - 1, H, true}
		    : (struct pe_mrope_run){N + f0 + 1, f1 - f0 - 1, H, false};
	dest[n++] = (struct pe_mrope_run){t1, 1, g1 - f1 * H, false};
	return n;
}

/* Row factor of the patch map: X_j = e^{i p_a w_j} conj(R_j), R_j the sum
 * over rows [g0, g1) (axis t or h) or their count (axis w). */
static void
mrope_patch_xf(const struct pe_field *f, size_t g0, size_t g1, size_t k0,
    size_t kn, double *re, double *im)
{
	const struct pe_config *cfg = f->cfg;
	struct pe_mrope_run run[2][PE_MROPE_MAX_RUNS];
	size_t nrun[2], sec[3];
	int64_t pa[3];

	pe_mrope_sections(cfg, sec);
	pe_mrope_position(cfg, f->anchor, pa);
	nrun[0] = mrope_patch_row_runs(cfg, PE_MROPE_T, g0, g1, run[0]);
	nrun[1] = mrope_patch_row_runs(cfg, PE_MROPE_H, g0, g1, run[1]);
	for (size_t k = 0; k < kn; k++) {
		size_t j = k0 + k;
		enum pe_mrope_axis a = pe_mrope_pair_axis(f->cfg, sec, j);
		double w = f->omega[j], rr = (double)(g1 - g0), ri = 0.0, ac, as;
		if (a != PE_MROPE_W)
			mrope_geo(cfg, run[a], nrun[a], w, &rr, &ri);
		sincos(fmod((double)pa[a] * w, PE_TWO_PI), &as, &ac);
		re[k] = ac * rr + as * ri; /* e^{i p w} conj(R) */
		im[k] = as * rr - ac * ri;
	}
}

/* Column factor: Y_j the sum over columns [c0, c1) (axis w) or their
 * count. */
static void
mrope_patch_yf(const struct pe_field *f, size_t c0, size_t c1, size_t k0,
    size_t kn, double *re, double *im)
{
	size_t sec[3];
	uint64_t N = f->cfg->mrope.text_before;

	pe_mrope_sections(f->cfg, sec);
	for (size_t k = 0; k < kn; k++) {
		size_t j = k0 + k;
		re[k] = (double)(c1 - c0);
		im[k] = 0.0;
		if (pe_mrope_pair_axis(f->cfg, sec, j) == PE_MROPE_W) {
			struct pe_mrope_run run = {N + c0, c1 - c0, 1, false};
			mrope_geo(f->cfg, &run, 1, f->omega[j], &re[k], &im[k]);
		}
	}
}

/* The patch map's score is separable by axis: C_t(t_a - t) + C_h(h_a - h)
 * + C_w(w_a - w) with C_x(k) = sum over the pairs of axis x of cos(k w_j),
 * and a patch's t, h and w take frames, H and W values. The tables of the
 * anchor, when they cost at most pe_field_mrope_table_max cosines and
 * entries. */
uint64_t pe_field_mrope_table_max = (uint64_t)1 << 22;

struct mrope_axis_tables {
	double *t, *h, *w; /* [frames], [grid_h], [grid_w] */
};

/* The anchor's tables; false (nothing allocated) when they would cost
 * more than pe_field_mrope_table_max or memory runs out. */
static bool
mrope_axis_tables(const struct pe_field *f, struct mrope_axis_tables *tb)
{
	const struct pe_config *cfg = f->cfg;
	uint64_t F = cfg->mrope.frames, H = cfg->grid_h, W = cfg->grid_w;
	size_t sec[3];
	int64_t pa[3], N = (int64_t)cfg->mrope.text_before;

	pe_mrope_sections(cfg, sec);
	uint64_t cost = F * (sec[0] + 1) + H * (sec[1] + 1) + W * (sec[2] + 1);
	if (F > pe_field_mrope_table_max || cost > pe_field_mrope_table_max)
		return false;
	tb->t = calloc(F + H + W, sizeof *tb->t);
	if (tb->t == NULL)
		return false;
	tb->h = tb->t + F;
	tb->w = tb->h + H;
	pe_mrope_position(cfg, f->anchor, pa);
	double *dst[3] = {tb->t, tb->h, tb->w};
	uint64_t len[3] = {F, H, W};
	for (size_t j = 0; j < mrope_pairs(f); j++) {
		enum pe_mrope_axis a = pe_mrope_pair_axis(f->cfg, sec, j);
		for (uint64_t v = 0; v < len[a]; v++) {
			int64_t p = N + (a == PE_MROPE_T
			    ? pe_mrope_frame_time(cfg, v) : (int64_t)v);
			dst[a][v] += cos((double)(pa[a] - p) * f->omega[j]);
		}
	}
	return true;
}

/* Sum over patch-map rows [g0, g1) of C_t and C_h (row g: frame g / H, row
 * g mod H), and over columns [c0, c1) of C_w. */
static double
mrope_rows_sum(const struct pe_config *cfg, const struct mrope_axis_tables *tb,
    size_t g0, size_t g1)
{
	double s = 0.0;
	for (size_t g = g0; g < g1; g++)
		s += tb->t[g / cfg->grid_h] + tb->h[g % cfg->grid_h];
	return s;
}

/* Sum of C_w over patch-map columns [c0, c1). */
static double
mrope_cols_sum(const struct mrope_axis_tables *tb, size_t c0, size_t c1)
{
	double s = 0.0;
	for (size_t c = c0; c < c1; c++)
		s += tb->w[c];
	return s;
}

/* Mean cosine of a block of the patch map (anchor a token): from the axis
 * tables, sum_rows (C_t + C_h) nc + sum_cols C_w nr, or the closed forms. */
static int
mrope_patch_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	struct mrope_axis_tables tb;

	(void)minmax;
	if (f->anchor >= pe_mrope_length(f->cfg))
		return PE_EINVAL;
	if (mrope_axis_tables(f, &tb)) {
		double s = mrope_rows_sum(f->cfg, &tb, r0, r1) * (double)(c1 - c0) +
		    mrope_cols_sum(&tb, c0, c1) * (double)(r1 - r0);
		dest->mean = s / ((double)mrope_pairs(f) * (double)dest->count);
		free(tb.t);
		return PE_OK;
	}
	struct pe_stats tmp;
	int rc = pe_field_dots(f, r0, r1, 1, c0, c1, 1, mrope_pairs(f),
	    mrope_patch_xf, mrope_patch_yf, 1.0 / (double)mrope_pairs(f), &tmp);
	dest->mean = tmp.mean;
	return rc;
}

/* Grid of the patch map: the axis tables once, a sum per row block and
 * per column block, O(rows + columns + cells); else pe_field_dots. */
static int
mrope_patch_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	struct mrope_axis_tables tb;
	struct field_cells it;

	if (f->anchor >= pe_mrope_length(f->cfg))
		return PE_EINVAL;
	if (!mrope_axis_tables(f, &tb))
		return pe_field_dots(f, r0, r1, nr, c0, c1, nc, mrope_pairs(f),
		    mrope_patch_xf, mrope_patch_yf, 1.0 / (double)mrope_pairs(f),
		    dest);
	double *rs = malloc((nr + nc) * sizeof *rs);
	if (rs == NULL) {
		free(tb.t);
		return PE_ENOMEM;
	}
	double *cs = rs + nr;
	for (size_t bi = 0; bi < nr; bi++) {
		size_t p0, p1;
		field_span(r0, r1, nr, bi, &p0, &p1);
		rs[bi] = mrope_rows_sum(f->cfg, &tb, p0, p1) / (double)(p1 - p0);
	}
	for (size_t bj = 0; bj < nc; bj++) {
		size_t q0, q1;
		field_span(c0, c1, nc, bj, &q0, &q1);
		cs[bj] = mrope_cols_sum(&tb, q0, q1) / (double)(q1 - q0);
	}
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		field_stats_init(&dest[it.k], it.count);
		dest[it.k].mean = (rs[it.bi] + cs[it.bj]) / (double)mrope_pairs(f);
	}
	free(rs);
	free(tb.t);
	return PE_OK;
}

/* Min and max by a scan of the block's entries (a score or a patch
 * cosine), each O(pairs); PE_ERANGE past FIELD_SCAN_BUDGET. */
static int
mrope_scan_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	uint64_t cost = mrope_pairs(f) ? mrope_pairs(f) : 1;
	if ((uint64_t)(r1 - r0) > FIELD_SCAN_BUDGET / (c1 - c0) / cost)
		return PE_ERANGE;
	for (size_t r = r0; r < r1; r++)
		for (size_t c = c0; c < c1; c++)
			field_fold(f->kind == PE_FIELD_SIMILARITY
				? mrope_sim_value(f, r, c)
				: mrope_patch_value(f, r, c), lo, hi);
	return PE_OK;
}

const struct field_ops pe_field_mrope_angle_ops = {mrope_init,
	mrope_angle_value, mrope_angle_block, mrope_angle_grid, NULL, false,
	mrope_angle_shape};
const struct field_ops pe_field_mrope_sim_ops = {mrope_init, mrope_sim_value,
	mrope_sim_block, mrope_sim_grid, mrope_scan_minmax, false, NULL};
const struct field_ops pe_field_mrope_patch_ops = {mrope_init,
	mrope_patch_value, mrope_patch_block, mrope_patch_grid,
	mrope_scan_minmax, false, mrope_patch_shape};
