/* rope2d fields (rope2d.h): the cosine of the rotated unit q of patch
 * `anchor` with each patch's, an [H, W] map (the score over the d/2 pairs,
 * |R q|^2), and the score of every two patches, [H W, H W].
 *
 * The patch map depends on the offset (x - x_a, y - y_a) only. Axial, it
 * is C(|dx|) + C(|dy|) with C(k) = sum over the d/4 frequencies of
 * cos(k f_q), as vit2d's: the field keeps C for k < max(H, W) (SLEEF's
 * vectorised cosines, pe_wave_cos_sums), and a block's mean is separable,
 * the mean of C over its rows plus that over its columns, so a grid costs
 * O(H + W + cells) for any anchor. Mixed, a patch-map field keeps the
 * table T(dx, dy) = sum_j cos(dx fx_j + dy fy_j) of every offset of the
 * grid, (2H - 1)(2W - 1) numbers, and the prefix sums of its rows, so a
 * block is a sum over its rows (a narrow one, its rectangle of T) and a
 * whole map costs its rows times its column blocks. T is built from the
 * frequencies one of two ways:
 *   - pair by pair, a product of per-pair phasor tables, when that takes
 *     at most pe_field_rope2d_build_max multiply-adds (any frequencies);
 *   - for the reference initialisation (init_random_2d_freqs: pair k is
 *     f_k (cos a, sin a), pair d/4 + k is f_k (cos(pi/2 + a), sin(pi/2 +
 *     a)), f_k = 1/base^(4k/d) <= 1), as T(dx, dy) = L(u) + L(v), the
 *     offset's coordinates along the head's two directions u = dx cos a +
 *     dy sin a, v = dx cos(pi/2 + a) + dy sin(pi/2 + a), where L(s) =
 *     sum_k cos(s f_k) is a sum of cosines of frequencies at most 1. L is
 *     kept at the integers up to the grid's diagonal (pe_wave_cos_sums)
 *     and read between them by the 32-point Lagrange interpolant on the
 *     integers around s (barycentric form): its remainder is at most
 *     max|L^(32)| prod_{i=-15}^{16} |s - i| / 32! <= (d/4) 3.3e-11, so a
 *     cosine of the map (T / (d/2)) is within 2e-11 of the pair-by-pair
 *     sum, and the build costs (grid diagonal) d/4 cosines plus 64
 *     multiply-adds an offset instead of H W d/2 phasor products.
 * Past pe_field_rope2d_table_max entries (or a learned file whose build
 * is too long) it falls back to closed forms: pair j turns by x fx_j + y
 * fy_j, so over a rectangle the sum of e^{i theta_j} is a product of two
 * arithmetic progressions (Lagrange, trig.h), a block costs O(pairs) and a
 * grid one dot product per cell (pe_field_dots), bounded and interruptible;
 * a row or column block's factors are one run of pe_trig_runs for all of a
 * chunk's pairs (SLEEF's sincos), the pairs prepared at init. The scores use the closed forms (a range of patch indices is partial
 * rows and whole ones). */
#include <math.h>
#include <stdlib.h>

#include "kernel/field_impl.h"
#include "kernel/testing.h"
#include "kernel/trig.h"
#include "pescope/rope2d.h"
#include "pescope/wave.h"

/* Largest offset table a patch-map field keeps (doubles: a grid of 1024 x
 * 1024; mixed keeps as many row prefix sums), the most multiply-adds a
 * mixed one may take to build pair by pair, and the most cosines of L
 * (the grid's diagonal times d/4) a reference initialisation's may. */
#define ROPE2D_TABLE_MAX ((uint64_t)1 << 22)
#define ROPE2D_BUILD_MAX ((uint64_t)1 << 28)
#define ROPE2D_LINE_MAX ((uint64_t)1 << 30)
/* Points of the interpolant of L; integers of L past the diagonal. */
#define ROPE2D_TAPS 32
#define ROPE2D_LINE_PAD (ROPE2D_TAPS / 2 + 4)
/* Widest rectangle of T a block sums entry by entry (wider: the row
 * prefix sums). */
#define ROPE2D_WIDE 32

uint64_t pe_field_rope2d_table_max = ROPE2D_TABLE_MAX;
uint64_t pe_field_rope2d_build_max = ROPE2D_BUILD_MAX;

/* Entries of a patch-map field's table: axial C(k), k < max(H, W); mixed
 * T(dx, dy) for every offset. */
static uint64_t
rope2d_table_entries(const struct pe_config *cfg)
{
	uint64_t H = cfg->grid_h, W = cfg->grid_w;

	if (cfg->rope2d.kind == PE_ROPE2D_AXIAL)
		return H > W ? H : W;
	return (2 * H - 1) * (2 * W - 1);
}

/* Integers s = 0 .. n-1 at which a reference initialisation's L is kept:
 * past the grid's diagonal by the interpolant's half and a margin. */
static size_t
rope2d_line_len(const struct pe_config *cfg)
{
	double diag = hypot((double)cfg->grid_h - 1, (double)cfg->grid_w - 1);

	return (size_t)ceil(diag) + ROPE2D_LINE_PAD;
}

/* Whether a mixed T is built pair by pair (else from L). */
static bool
rope2d_pairwise(const struct pe_config *cfg)
{
	uint64_t H = cfg->grid_h, W = cfg->grid_w;

	return W * (2 * H - 1) * (uint64_t)(cfg->d / 2) <=
	    pe_field_rope2d_build_max;
}

/* Whether a patch-map field of cfg keeps its table. */
static bool
rope2d_has_table(const struct pe_config *cfg)
{
	if (rope2d_table_entries(cfg) > pe_field_rope2d_table_max)
		return false;
	if (cfg->rope2d.kind == PE_ROPE2D_AXIAL || rope2d_pairwise(cfg))
		return true;
	return cfg->rope2d.freqs == NULL && cfg->d >= 4 &&
	    (uint64_t)rope2d_line_len(cfg) * (cfg->d / 4) <= ROPE2D_LINE_MAX;
}

/* The table of a patch-map field, after fy at f->prefix: axial C(k) at
 * [k]; mixed T(dx, dy) at [(dy + H - 1)(2W - 1) + dx + W - 1], then its
 * rows' prefix sums (rope2d_row_sums); NULL when it keeps none. */
static double *
rope2d_table(const struct pe_field *f)
{
	if (f->kind != PE_FIELD_PATCH_COSINE || !rope2d_has_table(f->cfg))
		return NULL;
	return f->prefix + f->nomega;
}

/* Axial C(k) = sum_q cos(k f_q) in frequency order (fx_q = f_q for q <
 * d/4), k < max(H, W). */
static int
rope2d_build_axial(struct pe_field *f, double *T)
{
	const struct pe_config *cfg = f->cfg;
	size_t H = cfg->grid_h, W = cfg->grid_w, Q = f->nomega / 2;
	size_t M = H > W ? H : W;
	struct pe_wave wv;

	if (Q == 0) {
		for (size_t k = 0; k < M; k++)
			T[k] = 0.0;
		return PE_OK;
	}
	int rc = pe_wave_init(&wv, f->omega, Q, PE_WAVE_EXACT);
	if (rc == PE_OK)
		rc = pe_wave_cos_sums(&wv, 0, M, T);
	pe_wave_free(&wv);
	return rc;
}

/* Mixed T(dx, dy) = sum_j Re(e^{i dx fx_j} e^{i dy fy_j}) pair by pair
 * for dx >= 0 (the caller mirrors the rest: T(-dx, -dy) = T(dx, dy)). */
static int
rope2d_build_pairwise(struct pe_field *f, double *T)
{
	const struct pe_config *cfg = f->cfg;
	size_t H = cfg->grid_h, W = cfg->grid_w, P = f->nomega;
	size_t NW = 2 * W - 1, NH = 2 * H - 1;
	double *ph = malloc(2 * (W + NH) * sizeof *ph);

	if (ph == NULL)
		return PE_ENOMEM;
	double *cx = ph, *sx = ph + W, *cy = sx + W, *sy = cy + NH;
	for (size_t i = 0; i < NH * NW; i++)
		T[i] = 0.0;
	for (size_t j = 0; j < P; j++) {
		for (size_t dx = 0; dx < W; dx++)
			sincos((double)dx * f->omega[j], &sx[dx], &cx[dx]);
		for (size_t iy = 0; iy < NH; iy++)
			sincos(((double)iy - (double)(H - 1)) * f->prefix[j], &sy[iy],
			    &cy[iy]);
		for (size_t iy = 0; iy < NH; iy++) {
			double *row = T + iy * NW + (W - 1);
			for (size_t dx = 0; dx < W; dx++)
				row[dx] += cx[dx] * cy[iy] - sx[dx] * sy[iy];
		}
	}
	free(ph);
	return PE_OK;
}

/* The barycentric weights of ROPE2D_TAPS equispaced points, (-1)^i
 * binomial(TAPS - 1, i) (Berrut and Trefethen 2004, "Barycentric Lagrange
 * interpolation", SIAM Review 46(3), eq. 5.1). */
static void
rope2d_bary_weights(double *lw)
{
	double b = 1.0;

	for (size_t i = 0; i < ROPE2D_TAPS; i++) {
		lw[i] = i % 2 ? -b : b;
		b = b * (double)(ROPE2D_TAPS - 1 - i) / (double)(i + 1);
	}
}

/* L(s) from its values at the integers L[0 .. n-1] (L even): the
 * interpolant on the ROPE2D_TAPS integers s0 - 15 .. s0 + 16 around s (s0
 * = floor |s|), in the second barycentric form; L[s] at an integer. */
static double
rope2d_line_at(const double *L, const double *lw, double s)
{
	double t = fabs(s), fl = floor(t), num = 0.0, den = 0.0;
	long s0 = (long)fl, first = s0 - (ROPE2D_TAPS / 2 - 1);

	if (t == fl)
		return L[s0];
	for (long i = 0; i < ROPE2D_TAPS; i++) {
		long m = first + i;
		double q = lw[i] / (t - (double)m);
		num += q * L[m < 0 ? -m : m];
		den += q;
	}
	return num / den;
}

/* Mixed T for the reference initialisation, for dy >= 0: L(u) + L(v) at
 * the offset's coordinates along the head's directions (cos a, sin a) =
 * (fx_0, fy_0) and (cos(pi/2 + a), sin(pi/2 + a)) = (fx_q, fy_q), q = d/4
 * (f_0 = 1), L(s) = sum_k cos(s f_k) kept at the integers. */
static int
rope2d_build_lines(struct pe_field *f, double *T)
{
	const struct pe_config *cfg = f->cfg;
	size_t H = cfg->grid_h, W = cfg->grid_w, Q = f->nomega / 2;
	size_t NW = 2 * W - 1, NH = 2 * H - 1, n = rope2d_line_len(cfg);
	double ca = f->omega[0], sa = f->prefix[0], cb = f->omega[Q],
	       sb = f->prefix[Q], lw[ROPE2D_TAPS];
	double *mag = malloc((Q + n) * sizeof *mag);
	struct pe_wave wv;

	if (mag == NULL)
		return PE_ENOMEM;
	double *L = mag + Q;
	for (size_t k = 0; k < Q; k++)
		mag[k] = pe_rope2d_mag(cfg, k);
	int rc = pe_wave_init(&wv, mag, Q, PE_WAVE_EXACT);
	if (rc == PE_OK)
		rc = pe_wave_cos_sums(&wv, 0, n, L);
	pe_wave_free(&wv);
	rope2d_bary_weights(lw);
	for (size_t iy = H - 1; iy < NH && rc == PE_OK; iy++) {
		double dy = (double)iy - (double)(H - 1);
		for (size_t ix = 0; ix < NW; ix++) {
			double dx = (double)ix - (double)(W - 1);
			T[iy * NW + ix] = rope2d_line_at(L, lw, dx * ca + dy * sa) +
			    rope2d_line_at(L, lw, dx * cb + dy * sb);
		}
	}
	free(mag);
	return rc;
}

/* Prefix sums of T's rows into R: R[iy][ix] = sum_{k <= ix} T[iy][k]. */
static void
rope2d_row_sums(const double *T, size_t NH, size_t NW, double *R)
{
	for (size_t iy = 0; iy < NH; iy++) {
		double acc = 0.0;
		for (size_t ix = 0; ix < NW; ix++) {
			acc += T[iy * NW + ix];
			R[iy * NW + ix] = acc;
		}
	}
}

/* Build the table: axial C; mixed T (pair by pair, or from L), the rows
 * dy < 0 by T(-dx, -dy) = T(dx, dy), then R. */
static int
rope2d_build_table(struct pe_field *f, double *T)
{
	const struct pe_config *cfg = f->cfg;
	size_t H = cfg->grid_h, W = cfg->grid_w;
	size_t NW = 2 * W - 1, NH = 2 * H - 1;
	int rc;

	if (cfg->rope2d.kind == PE_ROPE2D_AXIAL)
		return rope2d_build_axial(f, T);
	if (rope2d_pairwise(cfg)) {
		rc = rope2d_build_pairwise(f, T);
		/* dx < 0 from (-dx, -dy) */
		for (size_t iy = 0; iy < NH && rc == PE_OK; iy++)
			for (size_t dx = 1; dx < W; dx++)
				T[iy * NW + (W - 1) - dx] =
				    T[(NH - 1 - iy) * NW + (W - 1) + dx];
	} else {
		rc = rope2d_build_lines(f, T);
		for (size_t iy = 0; iy < H - 1 && rc == PE_OK; iy++) /* dy < 0 */
			for (size_t ix = 0; ix < NW; ix++)
				T[iy * NW + ix] = T[(NH - 1 - iy) * NW + (NW - 1 - ix)];
	}
	if (rc == PE_OK)
		rope2d_row_sums(T, NH, NW, T + NH * NW);
	return rc;
}

/* A patch map without a table: its pairs prepared for pe_trig_runs, after
 * fy at f->prefix: h = pe_trig_reduce(w) / 2, sin h, cos h and 1 / sin h
 * (0 where sin h is 0), for w = fx (axis 0) and w = fy (axis 1), each
 * array d/2 long. */
#define ROPE2D_PREP 8

/* Prepare the pairs of a patch map without a table at pre. */
static void
rope2d_prepare(struct pe_field *f, double *pre)
{
	size_t P = f->nomega;

	for (int axis = 0; axis < 2; axis++) {
		const double *w = axis == 0 ? f->omega : f->prefix;
		double *h = pre + (size_t)axis * 4 * P, *sh = h + P, *ch = sh + P,
		       *ish = ch + P;
		for (size_t j = 0; j < P; j++) {
			h[j] = 0.5 * pe_trig_reduce(w[j]);
			sincos(h[j], &sh[j], &ch[j]);
			ish[j] = sh[j] == 0.0 ? 0.0 : 1.0 / sh[j];
		}
	}
}

/* fx at f->omega, fy at f->prefix, then a patch map's offset table or,
 * without one, its prepared pairs (rope2d_prepare). */
static int
rope2d_init(struct pe_field *f)
{
	const struct pe_config *cfg = f->cfg;
	size_t P = cfg->d / 2;
	bool patch = f->kind == PE_FIELD_PATCH_COSINE;
	bool table = patch && rope2d_has_table(cfg);
	size_t extra = table ? (size_t)rope2d_table_entries(cfg) *
	    (cfg->rope2d.kind == PE_ROPE2D_AXIAL ? 1 : 2)
	    : patch ? ROPE2D_PREP * P : 0;

	f->nomega = P;
	f->omega = malloc((P ? P : 1) * sizeof *f->omega);
	f->prefix = malloc((P + extra ? P + extra : 1) * sizeof *f->prefix);
	if (f->omega == NULL || f->prefix == NULL)
		return PE_ENOMEM;
	int rc = pe_rope2d_freqs(cfg, f->omega, f->prefix);
	if (rc == PE_OK && table)
		rc = rope2d_build_table(f, f->prefix + P);
	else if (rc == PE_OK && patch)
		rope2d_prepare(f, f->prefix + P);
	return rc;
}

/* sum_{p = p0}^{p0 + n - 1} e^{i p w}: *re, *im. */
static void
rope2d_ap(double w, uint64_t p0, uint64_t n, double *re, double *im)
{
	pe_trig_sum(0.0, w, p0, n, im, re);
}

/* Complex product (a + ib)(c + id) into *re, *im. */
static void
rope2d_mul(double a, double b, double c, double d, double *re, double *im)
{
	*re = a * c - b * d;
	*im = a * d + b * c;
}

/* ---- the patch map -------------------------------------------------- */

/* Score of patches a and b. */
static double
rope2d_score(const struct pe_field *f, size_t a, size_t b)
{
	return pe_rope2d_score(f->cfg, f->omega, f->prefix, a, b);
}

/* Axial: sum of C(|k - a|) over k in [k0, k1). */
static double
rope2d_axial_sum(const double *C, size_t a, size_t k0, size_t k1)
{
	double sum = 0.0;

	for (size_t k = k0; k < k1; k++)
		sum += C[k >= a ? k - a : a - k];
	return sum;
}

/* Sum of the scores over rows [h0, h1) x columns [w0, w1) from the
 * anchor, from the table: axial C's sums over the rows and over the
 * columns, each times the other side's count; mixed the rectangle of T
 * (at most ROPE2D_WIDE columns) or a difference of R a row. */
static double
rope2d_table_sum(const struct pe_field *f, const double *T, size_t h0,
    size_t h1, size_t w0, size_t w1)
{
	size_t H = f->cfg->grid_h, W = f->cfg->grid_w, NW = 2 * W - 1, xa, ya;
	double sum = 0.0;

	pe_rope2d_coords(f->anchor, W, &xa, &ya);
	if (f->cfg->rope2d.kind == PE_ROPE2D_AXIAL)
		return rope2d_axial_sum(T, ya, h0, h1) * (double)(w1 - w0) +
		    rope2d_axial_sum(T, xa, w0, w1) * (double)(h1 - h0);
	if (w1 - w0 <= ROPE2D_WIDE) {
		for (size_t h = h0; h < h1; h++) {
			const double *row = T + (h + H - 1 - ya) * NW + (W - 1 - xa);
			for (size_t w = w0; w < w1; w++)
				sum += row[w];
		}
		return sum;
	}
	/* R(w1 - 1) - R(w0 - 1) a row, R after T */
	const double *R = T + (2 * H - 1) * NW;
	size_t lo = w0 + W - 1 - xa, hi = w1 - 1 + W - 1 - xa;
	for (size_t h = h0; h < h1; h++) {
		const double *row = R + (h + H - 1 - ya) * NW;
		sum += row[hi] - (lo > 0 ? row[lo - 1] : 0.0);
	}
	return sum;
}

/* Cosine of the anchor with the patch at row h, column w. */
static double
rope2d_patch_value(const struct pe_field *f, size_t h, size_t w)
{
	const struct pe_config *cfg = f->cfg;
	const double *T = rope2d_table(f);

	if (f->anchor >= cfg->grid_h * cfg->grid_w)
		return NAN;
	if (T != NULL)
		return rope2d_table_sum(f, T, h, h + 1, w, w + 1) /
		    (double)f->nomega;
	return rope2d_score(f, f->anchor, h * cfg->grid_w + w) /
	    (double)f->nomega;
}

/* sum_{p = p0}^{p1 - 1} e^{i (p - a) w_k} for the pairs [k0, k0 + kn)
 * of an axis (0: fx, 1: fy) of a patch map without a table, into re, im:
 * one run of pe_trig_runs (Lagrange's identity, trig.h; SLEEF's sincos
 * for all the pairs at once), its midpoint 2 (p0 - a) + n - 1. */
static void
rope2d_patch_run(const struct pe_field *f, int axis, size_t p0, size_t p1,
    size_t a, size_t k0, size_t kn, double *re, double *im)
{
	size_t P = f->nomega;
	const double *h = f->prefix + P + (size_t)axis * 4 * P + k0;
	struct pe_trig_freqs fr = {h, h + P, h + 2 * P, h + 3 * P, {NULL, NULL},
		{NULL, NULL}};
	double n = (double)(p1 - p0);
	struct pe_trig_run run = {2.0 * ((double)p0 - (double)a) + n - 1.0, n,
		1.0, -1};

	pe_trig_runs(&fr, kn, &run, 1, false, re, im);
}

/* Row factor of the patch map over rows [h0, h1): conj(sum_y e^{i (y -
 * y_a) fy_j}). */
static void
rope2d_patch_xf(const struct pe_field *f, size_t h0, size_t h1, size_t k0,
    size_t kn, double *re, double *im)
{
	size_t xa, ya;

	pe_rope2d_coords(f->anchor, f->cfg->grid_w, &xa, &ya);
	rope2d_patch_run(f, 1, h0, h1, ya, k0, kn, re, im);
	for (size_t k = 0; k < kn; k++)
		im[k] = -im[k];
}

/* Column factor over columns [w0, w1): sum_x e^{i (x - x_a) fx_j}, so a
 * cell is Re sum_j e^{i ((x - x_a) fx_j + (y - y_a) fy_j)} over its
 * rectangle. */
static void
rope2d_patch_yf(const struct pe_field *f, size_t w0, size_t w1, size_t k0,
    size_t kn, double *re, double *im)
{
	size_t xa, ya;

	pe_rope2d_coords(f->anchor, f->cfg->grid_w, &xa, &ya);
	rope2d_patch_run(f, 0, w0, w1, xa, k0, kn, re, im);
}

/* Mean cosine of a block of the patch map: its rectangle of T, or the
 * closed forms. */
static int
rope2d_patch_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	struct pe_stats tmp;

	(void)minmax;
	if (f->anchor >= f->cfg->grid_h * f->cfg->grid_w)
		return PE_EINVAL;
	const double *T = rope2d_table(f);
	if (T != NULL) {
		dest->mean = rope2d_table_sum(f, T, r0, r1, c0, c1) /
		    ((double)f->nomega * (double)dest->count);
		return PE_OK;
	}
	int rc = pe_field_dots(f, r0, r1, 1, c0, c1, 1, f->nomega,
	    rope2d_patch_xf, rope2d_patch_yf, 1.0 / (double)f->nomega, &tmp);
	dest->mean = tmp.mean;
	return rc;
}

/* A part of an axial patch-map block (field_separable_grid): the mean of
 * C(|k - a|) over rows (a the anchor's y) or columns (its x). */
static double
rope2d_axial_part(const struct pe_field *f, int axis, size_t lo, size_t hi,
    const void *arg)
{
	size_t xa, ya;

	pe_rope2d_coords(f->anchor, f->cfg->grid_w, &xa, &ya);
	return rope2d_axial_sum(arg, axis == 0 ? ya : xa, lo, hi) /
	    (double)(hi - lo);
}

/* Grid of the patch map: separable (axial), a rectangle of T per cell
 * (mixed), or pe_field_dots. */
static int
rope2d_patch_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	struct field_cells it;

	if (f->anchor >= f->cfg->grid_h * f->cfg->grid_w)
		return PE_EINVAL;
	const double *T = rope2d_table(f);
	if (T == NULL)
		return pe_field_dots(f, r0, r1, nr, c0, c1, nc, f->nomega,
		    rope2d_patch_xf, rope2d_patch_yf, 1.0 / (double)f->nomega,
		    dest);
	if (f->cfg->rope2d.kind == PE_ROPE2D_AXIAL)
		return field_separable_grid(f, r0, r1, nr, c0, c1, nc,
		    rope2d_axial_part, T, (double)f->nomega, NULL, dest);
	/* the rectangles of T: the map's area and its cells in all */
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		field_stats_init(&dest[it.k], it.count);
		dest[it.k].mean = rope2d_table_sum(f, T, it.p0, it.p1, it.q0,
		    it.q1) / ((double)f->nomega * (double)it.count);
	}
	return PE_OK;
}

/* ---- scores ------------------------------------------------------------ */

/* sum over patches [i0, i1) of e^{i theta_j}, pairs [k0, k0 + kn): a
 * partial first row, whole rows (sum_x times sum_y), a partial last row. */
static void
rope2d_sim_factor(const struct pe_field *f, size_t i0, size_t i1, size_t k0,
    size_t kn, double *re, double *im)
{
	size_t W = f->cfg->grid_w;
	size_t y0 = i0 / W, x0 = i0 % W, y1 = (i1 - 1) / W, x1 = (i1 - 1) % W;

	for (size_t k = 0; k < kn; k++) {
		size_t j = k0 + k;
		double fx = f->omega[j], fy = f->prefix[j], sr = 0, si = 0, ar,
		       ai, br, bi, pr, pi;
		if (y0 == y1) {
			rope2d_ap(fx, x0, x1 + 1 - x0, &ar, &ai);
			rope2d_ap(fy, y0, 1, &br, &bi);
			rope2d_mul(ar, ai, br, bi, &sr, &si);
		} else {
			rope2d_ap(fx, x0, W - x0, &ar, &ai);
			rope2d_ap(fy, y0, 1, &br, &bi);
			rope2d_mul(ar, ai, br, bi, &pr, &pi);
			sr += pr, si += pi;
			if (y1 > y0 + 1) {
				rope2d_ap(fx, 0, W, &ar, &ai);
				rope2d_ap(fy, y0 + 1, y1 - y0 - 1, &br, &bi);
				rope2d_mul(ar, ai, br, bi, &pr, &pi);
				sr += pr, si += pi;
			}
			rope2d_ap(fx, 0, x1 + 1, &ar, &ai);
			rope2d_ap(fy, y1, 1, &br, &bi);
			rope2d_mul(ar, ai, br, bi, &pr, &pi);
			sr += pr, si += pi;
		}
		re[k] = sr;
		im[k] = si;
	}
}

/* Mean score of a block of patch pairs (closed forms). */
static int
rope2d_sim_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	struct pe_stats tmp;

	(void)minmax;
	int rc = pe_field_dots(f, r0, r1, 1, c0, c1, 1, f->nomega,
	    rope2d_sim_factor, rope2d_sim_factor, 1.0, &tmp);
	dest->mean = tmp.mean;
	return rc;
}

/* Grid of scores: one dot product per cell (pe_field_dots). */
static int
rope2d_sim_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	return pe_field_dots(f, r0, r1, nr, c0, c1, nc, f->nomega,
	    rope2d_sim_factor, rope2d_sim_factor, 1.0, dest);
}

/* Min and max by a scan of the block's entries, each O(pairs); PE_ERANGE
 * past FIELD_SCAN_BUDGET. */
static int
rope2d_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	uint64_t cost = rope2d_table(f) != NULL ? 1 : f->nomega ? f->nomega : 1;
	if ((uint64_t)(r1 - r0) > FIELD_SCAN_BUDGET / (c1 - c0) / cost)
		return PE_ERANGE;
	for (size_t r = r0; r < r1; r++)
		for (size_t c = c0; c < c1; c++)
			field_fold(f->kind == PE_FIELD_SIMILARITY
				? rope2d_score(f, r, c)
				: rope2d_patch_value(f, r, c), lo, hi);
	return PE_OK;
}

/* Score of patches r and c. */
static double
rope2d_sim_value(const struct pe_field *f, size_t r, size_t c)
{
	return rope2d_score(f, r, c);
}

const struct field_ops pe_field_rope2d_patch_ops = {rope2d_init,
	rope2d_patch_value, rope2d_patch_block, rope2d_patch_grid,
	rope2d_minmax, false, NULL};
const struct field_ops pe_field_rope2d_sim_ops = {rope2d_init,
	rope2d_sim_value, rope2d_sim_block, rope2d_sim_grid, rope2d_minmax,
	false, NULL};
