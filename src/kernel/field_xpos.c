/* xPos fields (xpos.h): the queries' angle map theta[r, j] = (r + K) w_j
 * mod 2 pi, and the score of every query row with every key row.
 *
 * The angle map sums each column in closed form along rows (Lagrange,
 * trig.h). The score is sum_j Re(c_j z_j^(r - c)) with z_j = zeta_j^(1/gamma)
 * e^{i w_j}: a block's sum over rows and columns is, per pair,
 *   c_j z_j^(r0 - c1 + 1) A_j(nr) A_j(nc),  A(n) = sum_{k<n} z^k
 *                                              = expm1(n s) / expm1(s),
 * s = ln z, with complex expm1 written so that z near 1 loses nothing; the
 * power is formed from integers (its exponent's real part stays within the
 * range pe_xpos_check allows). A block costs O(pairs); a grid O(nr nc
 * pairs), the A's once per row block and column block. */
#include <math.h>
#include <stdlib.h>

#include "kernel/field_impl.h"
#include "kernel/trig.h"
#include "pescope/xpos.h"

/* inv_freq at f->omega and ln(zeta_j) / gamma at f->prefix. */
static int
xpos_init(struct pe_field *f)
{
	size_t P = f->cfg->d / 2;

	f->nomega = P;
	f->omega = malloc((P ? P : 1) * sizeof *f->omega);
	f->prefix = malloc((P ? P : 1) * sizeof *f->prefix);
	if (f->omega == NULL || f->prefix == NULL)
		return PE_ENOMEM;
	pe_xpos_inv_freq(f->cfg, f->omega);
	for (size_t j = 0; j < P; j++)
		f->prefix[j] = log(pe_xpos_zeta(j, f->cfg->d)) /
		    f->cfg->xpos.xpos_scale_base;
	return PE_OK;
}

/* [n, d/2]. */
static void
xpos_angle_shape(const struct pe_config *cfg, size_t *rows, size_t *cols)
{
	*rows = cfg->n;
	*cols = cfg->d / 2;
}

/* (r + K) w_c mod 2 pi. */
static double
xpos_angle_value(const struct pe_field *f, size_t r, size_t c)
{
	double a = fmod((double)(r + f->cfg->xpos.xpos_offset) * f->omega[c],
	    PE_TWO_PI);
	return a < 0.0 ? a + PE_TWO_PI : a;
}

/* Circular mean and resultant of a block [r0, r1) x [c0, c1). */
static void
xpos_angle_stats(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, struct pe_stats *dest)
{
	double ts = 0.0, tc = 0.0;
	uint64_t K = f->cfg->xpos.xpos_offset;

	for (size_t j = c0; j < c1; j++) {
		double s, c;
		pe_trig_sum(0.0, f->omega[j], r0 + K, r1 - r0, &s, &c);
		ts += s;
		tc += c;
	}
	double m = atan2(ts, tc);
	dest->mean = m < 0.0 ? m + PE_TWO_PI : m;
	dest->resultant = fmin(hypot(ts, tc) / (double)dest->count, 1.0);
}

static int
xpos_angle_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	(void)minmax;
	xpos_angle_stats(f, r0, r1, c0, c1, dest);
	return PE_OK;
}

/* Grid of the angle map, block by block: O(nr (c1 - c0)) sums. */
static int
xpos_angle_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	struct field_cells it;

	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		if (it.bj == 0 && it.bi % 8 == 7 && pe_field_interrupted())
			return PE_EINTR;
		field_stats_init(&dest[it.k], it.count);
		xpos_angle_stats(f, it.p0, it.p1, it.q0, it.q1, &dest[it.k]);
	}
	return PE_OK;
}

/* ---- scores ------------------------------------------------------------ */

/* Score of query row r with key row c. */
static double
xpos_sim_value(const struct pe_field *f, size_t r, size_t c)
{
	return pe_xpos_score(f->cfg, f->omega, r, c);
}

/* expm1(x + i y) into *re, *im, accurate near 0: e^x cos y - 1 =
 * expm1(x) cos y - 2 sin^2(y/2). */
static void
xpos_cexpm1(double x, double y, double *re, double *im)
{
	double s, c, h = sin(0.5 * y);
	sincos(y, &s, &c);
	*re = expm1(x) * c - 2.0 * h * h;
	*im = exp(x) * s;
}

/* A(n) = sum_{k<n} z^k for z = e^{x + i y} into *re, *im. */
static void
xpos_geo(double x, double y, uint64_t n, double *re, double *im)
{
	double nr, ni, dr, di;

	xpos_cexpm1((double)n * x, (double)n * y, &nr, &ni);
	xpos_cexpm1(x, y, &dr, &di);
	double den = dr * dr + di * di;
	if (den == 0.0) {
		*re = (double)n;
		*im = 0.0;
		return;
	}
	*re = (nr * dr + ni * di) / den;
	*im = (ni * dr - nr * di) / den;
}

/* Per pair j of the scores' block [r0, r1) x [c0, c1), given A_j(nr) and
 * A_j(nc): Re(zeta^((a + k0)/gamma) e^{i (K + k0) w} A(nr) A(nc)), k0 = r0
 * - c1 + 1, a = m_0 - n_0 (the centred positions' offset). */
static double
xpos_block_term(const struct pe_field *f, size_t j, int64_t k0, double ar,
    double ai, double br, double bi)
{
	const struct pe_config *cfg = f->cfg;
	int64_t a = pe_xpos_query_pos(cfg, 0) - pe_xpos_key_pos(cfg, 0);
	double mag = exp((double)(a + k0) * f->prefix[j]);
	double s, c;
	sincos((double)((int64_t)cfg->xpos.xpos_offset + k0) * f->omega[j], &s,
	    &c);
	double pr = ar * br - ai * bi, pi = ar * bi + ai * br;
	return mag * (c * pr - s * pi);
}

/* Mean score of a block. */
static int
xpos_sim_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	double sum = 0.0;
	int64_t k0 = (int64_t)r0 - (int64_t)c1 + 1;

	(void)minmax;
	for (size_t j = 0; j < f->nomega; j++) {
		double ar, ai, br, bi;
		xpos_geo(f->prefix[j], f->omega[j], r1 - r0, &ar, &ai);
		xpos_geo(f->prefix[j], f->omega[j], c1 - c0, &br, &bi);
		sum += xpos_block_term(f, j, k0, ar, ai, br, bi);
	}
	dest->mean = sum / (double)dest->count;
	return PE_OK;
}

/* Grid of scores: A_j per block length (a tiling has two) for rows and
 * columns, then one sum over the pairs per cell. */
static int
xpos_sim_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t P = f->nomega;
	struct field_cells it;
	/* every block of a tiling is n0 or n0 + 1 long (1 when there are more
	 * blocks than items): the A's of those four lengths */
	uint64_t want[4];
	size_t nw = 0;
	double *A;

	for (int axis = 0; axis < 2; axis++) {
		size_t lo = axis ? c0 : r0, hi = axis ? c1 : r1, nb = axis ? nc : nr;
		uint64_t n0 = (hi - lo) / nb;
		want[nw++] = n0 > 0 ? n0 : 1;
		want[nw++] = n0 + 1;
	}
	A = malloc(4 * 2 * (P ? P : 1) * sizeof *A);
	if (A == NULL)
		return PE_ENOMEM;
	for (size_t w = 0; w < nw; w++)
		for (size_t j = 0; j < P; j++)
			xpos_geo(f->prefix[j], f->omega[j], want[w], &A[(w * P + j) * 2],
			    &A[(w * P + j) * 2 + 1]);
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		if (it.bj == 0 && it.bi % 8 == 7 && pe_field_interrupted()) {
			free(A);
			return PE_EINTR;
		}
		uint64_t np = it.p1 - it.p0, nq = it.q1 - it.q0;
		size_t wr = np == want[0] ? 0 : 1, wc = nq == want[2] ? 2 : 3;
		int64_t k0 = (int64_t)it.p0 - (int64_t)it.q1 + 1;
		double sum = 0.0;
		for (size_t j = 0; j < P; j++) {
			const double *a = &A[(wr * P + j) * 2], *b = &A[(wc * P + j) * 2];
			sum += xpos_block_term(f, j, k0, a[0], a[1], b[0], b[1]);
		}
		field_stats_init(&dest[it.k], it.count);
		dest[it.k].mean = sum / (double)it.count;
	}
	free(A);
	return PE_OK;
}

/* Min and max of a block: the score depends on r - c only, so a scan of
 * its diagonals, each O(pairs); PE_ERANGE past FIELD_SCAN_BUDGET. */
static int
xpos_sim_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	uint64_t diags = (uint64_t)(r1 - r0) + (c1 - c0) - 1;
	if (diags * (f->nomega ? f->nomega : 1) > FIELD_SCAN_BUDGET)
		return PE_ERANGE;
	/* each diagonal r - c = k through the block: its first cell */
	for (int64_t k = (int64_t)r0 - (int64_t)(c1 - 1);
	     k <= (int64_t)(r1 - 1) - (int64_t)c0; k++) {
		size_t r = k >= (int64_t)r0 - (int64_t)c0 ? (size_t)((int64_t)c0 + k)
		                                          : r0;
		size_t c = (size_t)((int64_t)r - k);
		field_fold(xpos_sim_value(f, r, c), lo, hi);
	}
	return PE_OK;
}

const struct field_ops pe_field_xpos_angle_ops = {xpos_init,
	xpos_angle_value, xpos_angle_block, xpos_angle_grid, NULL, false,
	xpos_angle_shape};
const struct field_ops pe_field_xpos_sim_ops = {xpos_init, xpos_sim_value,
	xpos_sim_block, xpos_sim_grid, xpos_sim_minmax, false, NULL};
