/* xPos fields (xpos.h): the queries' angle map theta[r, j] = (r + K) w_j
 * mod 2 pi, and the score of every query row with every key row.
 *
 * The angle map is RoPE's (interleaved, default) shifted by K rows, so
 * field_wave.c computes it. The score is sum_j Re(c_j z_j^(r - c)) with z_j = zeta_j^(1/gamma)
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
#include "pescope/rope.h"
#include "pescope/xpos.h"

/* The scores' inv_freq at f->omega and ln(zeta_j) / gamma at f->prefix. */
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

/* The angle map is RoPE's at positions r + K: a default rope in
 * interleaved pairs has inv_freq 1 / base^(2j/d) = base^(-j/(d/2)), and
 * the wave module (field_wave.c) computes its blocks, grids and exact
 * min/max with the rows shifted by K. */
static int
xpos_angle_init(struct pe_field *f)
{
	struct pe_config rc;

	pe_config_default(&rc);
	rc.enc = PE_ENC_ROPE;
	rc.d = f->cfg->d;
	rc.n = f->cfg->n;
	rc.base = f->cfg->base;
	rc.pairing = PE_PAIR_INTERLEAVED;
	int st = pe_rope_init(&f->rope, &rc);
	return st != PE_OK ? st : pe_field_wave_prepare(f);
}

/* (r + K) w_c mod 2 pi. */
static double
xpos_angle_value(const struct pe_field *f, size_t r, size_t c)
{
	return pe_field_wave_value(f, r + f->cfg->xpos.xpos_offset, c);
}

/* Circular mean of a block: the wave module at rows shifted by K. */
static int
xpos_angle_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	size_t K = f->cfg->xpos.xpos_offset;

	(void)minmax;
	pe_field_wave_block(f, r0 + K, r1 + K, c0, c1, dest);
	return PE_OK;
}

/* Grid of the angle map: the wave module's, rows shifted by K. */
static int
xpos_angle_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t K = f->cfg->xpos.xpos_offset;
	return pe_field_wave_grid(f, r0 + K, r1 + K, nr, c0, c1, nc, dest);
}

/* Its rows handed on as finished: the wave module's, rows shifted by K. */
static int
xpos_angle_rows(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *scratch,
    pe_field_row_fn *row, void *arg)
{
	size_t K = f->cfg->xpos.xpos_offset;
	return pe_field_wave_rows(f, r0 + K, r1 + K, nr, c0, c1, nc, scratch,
	    row, arg);
}

/* Exact min and max: the wave module's scan, rows shifted by K. */
static int
xpos_angle_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	size_t K = f->cfg->xpos.xpos_offset;
	return pe_field_scan_minmax(f, r0 + K, r1 + K, c0, c1, lo, hi);
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

/* A(n) = sum_{k<n} z^k for z = e^{x + i y} into *re, *im, given z - 1 =
 * dr + i di (xpos_cexpm1 of x, y: what every n of one z shares). */
static void
xpos_geo_of(double x, double y, double dr, double di, uint64_t n, double *re,
    double *im)
{
	double nr, ni;

	xpos_cexpm1((double)n * x, (double)n * y, &nr, &ni);
	double den = dr * dr + di * di;
	if (den == 0.0) {
		*re = (double)n;
		*im = 0.0;
		return;
	}
	*re = (nr * dr + ni * di) / den;
	*im = (ni * dr - nr * di) / den;
}

/* A(n) = sum_{k<n} z^k for z = e^{x + i y} into *re, *im. */
static void
xpos_geo(double x, double y, uint64_t n, double *re, double *im)
{
	double dr, di;

	xpos_cexpm1(x, y, &dr, &di);
	xpos_geo_of(x, y, dr, di, n, re, im);
}

/* The phasor u_j(k0) = zeta_j^((a + k0)/gamma) e^{i (K + k0) w_j} of a
 * block whose k0 = r0 - c1 + 1, a = m_0 - n_0, into *re, *im. */
static void
xpos_phasor(const struct pe_field *f, size_t j, int64_t k0, double *re,
    double *im)
{
	const struct pe_config *cfg = f->cfg;
	int64_t a = pe_xpos_query_pos(cfg, 0) - pe_xpos_key_pos(cfg, 0);
	double mag = exp((double)(a + k0) * f->prefix[j]), s, c;
	sincos((double)((int64_t)cfg->xpos.xpos_offset + k0) * f->omega[j], &s,
	    &c);
	*re = mag * c;
	*im = mag * s;
}

/* The phasors u_j(k0) of every pair (xpos_phasor) into u[2 j], u[2 j +
 * 1]: the angles' sines and cosines all at once (pe_trig_sincos_many,
 * the same angles), through sc (2 nomega doubles). */
static void
xpos_phasors(const struct pe_field *f, int64_t k0, double *u, double *sc)
{
	const struct pe_config *cfg = f->cfg;
	int64_t a = pe_xpos_query_pos(cfg, 0) - pe_xpos_key_pos(cfg, 0);
	size_t P = f->nomega;

	pe_trig_sincos_many(f->omega, P, P,
	    (double)((int64_t)cfg->xpos.xpos_offset + k0), sc);
	for (size_t j = 0; j < P; j++) {
		double mag = exp((double)(a + k0) * f->prefix[j]);
		u[2 * j] = mag * sc[j];
		u[2 * j + 1] = mag * sc[P + j];
	}
}

/* Per pair j of the scores' block [r0, r1) x [c0, c1), given A_j(nr) and
 * A_j(nc): Re(zeta^((a + k0)/gamma) e^{i (K + k0) w} A(nr) A(nc)), k0 = r0
 * - c1 + 1, a = m_0 - n_0 (the centred positions' offset). */
static double
xpos_block_term(const struct pe_field *f, size_t j, int64_t k0, double ar,
    double ai, double br, double bi)
{
	double ur, ui;
	xpos_phasor(f, j, k0, &ur, &ui);
	double pr = ar * br - ai * bi, pi = ar * bi + ai * br;
	return ur * pr - ui * pi;
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

/* Direct phasors every this many column blocks; in between a step (one
 * complex product, a few ulps each). */
#define XPOS_ANCHOR 16

/* Grid of scores: per pair A(n) for the two block lengths of each tiling,
 * then along a row of cells the phasor u_j(k0) steps by z_j^(-len) as
 * each column block moves k0 back by its length (re-anchored every
 * XPOS_ANCHOR cells, every pair's at once: xpos_phasors), and a cell is
 * sum_j Re(u_j A_j(np) A_j(nq)): O(nr nc pairs) products, O(nr nc pairs /
 * XPOS_ANCHOR) exp and sincos. */
static int
xpos_sim_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t P = f->nomega;
	struct field_cells it;
	/* every block of a tiling is n0 or n0 + 1 long (1 when there are more
	 * blocks than items) */
	uint64_t want[4];
	bool used[4]; /* n0 + 1 only where some block is that long */
	size_t nw = 0;

	for (int axis = 0; axis < 2; axis++) {
		size_t lo = axis ? c0 : r0, hi = axis ? c1 : r1, nb = axis ? nc : nr;
		uint64_t n0 = (hi - lo) / nb;
		used[nw] = true;
		want[nw++] = n0 > 0 ? n0 : 1;
		used[nw] = n0 > 0 && (hi - lo) % nb != 0;
		want[nw++] = n0 + 1;
	}
	/* A of the four lengths, the steps z^-len of the column lengths, the
	 * row's B = A(np) A(nq) for both nq, and the phasors u */
	double *A = malloc(20 * (P ? P : 1) * sizeof *A);
	if (A == NULL)
		return PE_ENOMEM;
	double *Z = A + 8 * P, *B = Z + 4 * P, *U = B + 4 * P, *sc = U + 2 * P;
	/* z_j - 1 once a pair, for every length (a third of the tables'
	 * exp, expm1 and sincos) */
	for (size_t j = 0; j < P; j++) {
		double dr, di;
		xpos_cexpm1(f->prefix[j], f->omega[j], &dr, &di);
		for (size_t w = 0; w < nw; w++)
			if (used[w])
				xpos_geo_of(f->prefix[j], f->omega[j], dr, di,
				    want[w], &A[(w * P + j) * 2],
				    &A[(w * P + j) * 2 + 1]);
	}
	for (size_t w = 0; w < 2; w++)
		for (size_t j = 0; used[2 + w] && j < P; j++) {
			double l = -(double)want[2 + w], s, c;
			double mag = exp(l * f->prefix[j]);
			sincos(l * f->omega[j], &s, &c);
			Z[(w * P + j) * 2] = mag * c;
			Z[(w * P + j) * 2 + 1] = mag * s;
		}
	int64_t prev_k0 = 0;
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		uint64_t np = it.p1 - it.p0, nq = it.q1 - it.q0;
		size_t wr = np == want[0] ? 0 : 1, wc = nq == want[2] ? 0 : 1;
		int64_t k0 = (int64_t)it.p0 - (int64_t)it.q1 + 1;
		if (it.bj == 0) {
			if (it.bi % 8 == 7 && pe_field_interrupted()) {
				free(A);
				return PE_EINTR;
			}
			for (size_t v = 0; v < 2; v++)
				for (size_t j = 0; used[2 + v] && j < P; j++) {
					const double *a = &A[(wr * P + j) * 2];
					const double *b = &A[((2 + v) * P + j) * 2];
					B[(v * P + j) * 2] = a[0] * b[0] - a[1] * b[1];
					B[(v * P + j) * 2 + 1] = a[0] * b[1] + a[1] * b[0];
				}
		}
		double sum = 0.0;
		/* k0 moved back by this block's length (or stayed, where more
		 * blocks than items repeat one); else a direct phasor */
		int64_t dk = k0 - prev_k0;
		int step = dk == 0 ? 0 : dk == -(int64_t)want[2 + wc] ? 1 : -1;
		if (it.bj == 0 || it.bj % XPOS_ANCHOR == 0)
			step = -1;
		prev_k0 = k0;
		if (step < 0)
			xpos_phasors(f, k0, U, sc);
		for (size_t j = 0; j < P; j++) {
			double *u = &U[2 * j];
			if (step > 0) {
				const double *z = &Z[(wc * P + j) * 2];
				double ur = u[0] * z[0] - u[1] * z[1];
				u[1] = u[0] * z[1] + u[1] * z[0];
				u[0] = ur;
			}
			const double *b = &B[(wc * P + j) * 2];
			sum += u[0] * b[0] - u[1] * b[1];
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

const struct field_ops pe_field_xpos_angle_ops = {xpos_angle_init,
	xpos_angle_value, xpos_angle_block, xpos_angle_grid, xpos_angle_minmax,
	false, xpos_angle_shape, xpos_angle_rows};
const struct field_ops pe_field_xpos_sim_ops = {xpos_init, xpos_sim_value,
	xpos_sim_block, xpos_sim_grid, xpos_sim_minmax, false, NULL};
