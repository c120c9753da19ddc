/* Learned fields: block means of a learned table (GPT-2, BERT) and of the
 * dot products of its rows, from column prefix sums stored every
 * FIELD_LEARNED_STRIDE rows, so that a block's column sums cost at most that
 * many table rows whatever its height. Rows past max_len are undefined
 * (NAN) and left out of the means. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/field_impl.h"
#include "pescope/learned.h"

/* Seed of the table a learned field makes when cfg->table is NULL. */

/* Rows of a learned table that exist among the first n positions. */
static size_t
field_learned_rows(const struct pe_config *cfg)
{
	return cfg->n < cfg->max_len ? cfg->n : cfg->max_len;
}

/* Rows between the stored column prefix sums of a learned field. */
#define FIELD_LEARNED_STRIDE 32

/* Where a learned field keeps its parts, all in one allocation at
 * f->prefix:
 *   K[k * d + c] = sum of table[p][c] over p < k STRIDE, k = 0 .. L/STRIDE
 *   (column prefix sums at every STRIDE-th row: 1/STRIDE of a full
 *   table's memory, so building them touches few pages);
 *   similarity only: norm[p] = table[p] . table[p], p < L;
 *   when cfg->table is NULL, the field's own table [L * d]. */
struct field_learned {
	size_t L, d;
	const double *K;
	const double *norm; /* NULL for a PE field */
	const double *tab;
};

/* Parts of a learned field (struct field_learned). */
static void
field_learned_parts(const struct pe_field *f, struct field_learned *lp)
{
	size_t nk;

	lp->L = field_learned_rows(f->cfg);
	lp->d = f->cfg->d;
	nk = lp->L / FIELD_LEARNED_STRIDE + 1;
	lp->K = f->prefix;
	lp->norm =
	    f->kind == PE_FIELD_SIMILARITY ? f->prefix + nk * lp->d : NULL;
	lp->tab = f->cfg->table != NULL
	              ? f->cfg->table
	              : f->prefix + nk * lp->d + (lp->norm != NULL ? lp->L : 0);
}

/* Dot product of two table rows (four accumulators, so that it pipelines
 * and vectorises). */
static double
field_learned_dot(const double *a, const double *b, size_t n)
{
	double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
	size_t k = 0;

	for (; k + 4 <= n; k += 4) {
		s0 += a[k] * b[k];
		s1 += a[k + 1] * b[k + 1];
		s2 += a[k + 2] * b[k + 2];
		s3 += a[k + 3] * b[k + 3];
	}
	for (; k < n; k++)
		s0 += a[k] * b[k];
	return (s0 + s1) + (s2 + s3);
}

/* Build a learned field's parts from the table (cfg->table, or the
 * N(0, 0.02^2) init with seed PE_LEARNED_SEED when there is none). */
int
pe_field_learned_init(struct pe_field *f)
{
	const struct pe_config *cfg = f->cfg;
	size_t L = field_learned_rows(cfg), d = cfg->d;
	size_t nk = L / FIELD_LEARNED_STRIDE + 1;
	size_t nnorm = f->kind == PE_FIELD_SIMILARITY ? L : 0;
	size_t ntab = cfg->table == NULL ? L : 0;
	struct field_learned lp;

	if (nk > SIZE_MAX / d / sizeof(double) - nnorm ||
	    (ntab > 0 && L > SIZE_MAX / d / sizeof(double) - (nk * d + nnorm)))
		return PE_ENOMEM;
	f->prefix = malloc((nk * d + nnorm + ntab * d) * sizeof(double));
	if (f->prefix == NULL)
		return PE_ENOMEM;
	field_learned_parts(f, &lp);
	if (ntab > 0)
		/* The init fills rows in order, so the first L rows of the
		 * max_len-row table are the first L * d draws. */
		pe_learned_init(L, d, PE_LEARNED_SEED,
		                f->prefix + nk * d + nnorm);
	double *K = f->prefix;
	for (size_t c = 0; c < d; c++)
		K[c] = 0.0;
	for (size_t k = 1; k < nk; k++) {
		double *row = K + k * d;
		memcpy(row, row - d, d * sizeof *row);
		for (size_t p = (k - 1) * FIELD_LEARNED_STRIDE;
		     p < k * FIELD_LEARNED_STRIDE; p++) {
			const double *t = lp.tab + p * d;
			for (size_t c = 0; c < d; c++)
				row[c] += t[c];
		}
	}
	if (nnorm > 0) {
		double *norm = f->prefix + nk * d;
		for (size_t p = 0; p < L; p++)
			norm[p] = field_learned_dot(lp.tab + p * d,
			                             lp.tab + p * d, d);
	}
	return PE_OK;
}

/* Add sign * table[p][c0..c1) to dest for rows p in [a, b). */
static void
field_learned_rows_add(const struct field_learned *lp, size_t a, size_t b,
                       size_t c0, size_t c1, double sign, double *dest)
{
	for (size_t p = a; p < b; p++) {
		const double *t = lp->tab + p * lp->d + c0;
		if (sign > 0)
			for (size_t c = 0; c < c1 - c0; c++)
				dest[c] += t[c];
		else
			for (size_t c = 0; c < c1 - c0; c++)
				dest[c] -= t[c];
	}
}

/* Add sign * (sum of table[p][c0..c1) over p < r) to dest: the nearest
 * stored prefix row, corrected by at most STRIDE/2 table rows. */
static void
field_learned_prefix_add(const struct field_learned *lp, size_t r, size_t c0,
                         size_t c1, double sign, double *dest)
{
	size_t k = (r + FIELD_LEARNED_STRIDE / 2) / FIELD_LEARNED_STRIDE;
	if (k > lp->L / FIELD_LEARNED_STRIDE)
		k = lp->L / FIELD_LEARNED_STRIDE;
	size_t at = k * FIELD_LEARNED_STRIDE;
	const double *K = lp->K + k * lp->d + c0;

	if (sign > 0)
		for (size_t c = 0; c < c1 - c0; c++)
			dest[c] += K[c];
	else
		for (size_t c = 0; c < c1 - c0; c++)
			dest[c] -= K[c];
	if (at < r)
		field_learned_rows_add(lp, at, r, c0, c1, sign, dest);
	else
		field_learned_rows_add(lp, r, at, c0, c1, -sign, dest);
}

/* dest[c - c0] = sum of table[p][c] over rows p in [a, b) (b <= L), for c
 * in [c0, c1): the rows themselves when there are few, else the difference
 * of two prefix sums. O(min(b - a, STRIDE) (c1 - c0)). */
static void
field_learned_colsum(const struct field_learned *lp, size_t a, size_t b,
                     size_t c0, size_t c1, double *dest)
{
	for (size_t c = 0; c < c1 - c0; c++)
		dest[c] = 0.0;
	if (b - a <= FIELD_LEARNED_STRIDE) {
		field_learned_rows_add(lp, a, b, c0, c1, 1.0, dest);
		return;
	}
	field_learned_prefix_add(lp, b, c0, c1, 1.0, dest);
	field_learned_prefix_add(lp, a, c0, c1, -1.0, dest);
}

/* Value of a learned PE field at (p, c): the table's entry. */
static double
field_learned_pe(const struct pe_field *f, size_t p, size_t c)
{
	struct field_learned lp;

	if (p >= f->cfg->max_len)
		return NAN;
	field_learned_parts(f, &lp);
	return lp.tab[p * lp.d + c];
}

/* Learned similarity: the dot product of rows i and j of the table. */
static double
field_learned_sim(const struct pe_field *f, size_t i, size_t j)
{
	struct field_learned lp;

	if (i >= f->cfg->max_len || j >= f->cfg->max_len)
		return NAN;
	field_learned_parts(f, &lp);
	if (i == j)
		return lp.norm[i];
	return field_learned_dot(lp.tab + i * lp.d, lp.tab + j * lp.d, lp.d);
}

/* Columns per pass of a learned block's column sums (a stack buffer). */
#define FIELD_LEARNED_CHUNK 256

/* The end of the defined rows among [.., r): min(r, L). */
static size_t
field_learned_end(const struct field_learned *lp, size_t r)
{
	return r < lp->L ? r : lp->L;
}

/* Count the defined entries of a block, rows [r0, re) x cols [c0, ce) (0
 * when either is empty), and the rest of dest->count as undefined. */
static uint64_t
field_learned_defined(struct pe_stats *dest, size_t r0, size_t re, size_t c0,
                      size_t ce)
{
	uint64_t def = r0 < re && c0 < ce ? (uint64_t)(re - r0) * (ce - c0) : 0;

	dest->undefined = dest->count - def;
	return def;
}

/* Mean of a learned PE block from its column sums (field_learned_colsum);
 * rows past max_len are undefined and left out. */
static void
field_learned_pe_block(const struct pe_field *f, size_t r0, size_t r1,
                       size_t c0, size_t c1, struct pe_stats *dest)
{
	struct field_learned lp;
	double cs[FIELD_LEARNED_CHUNK];

	field_learned_parts(f, &lp);
	size_t e = field_learned_end(&lp, r1);
	uint64_t def = field_learned_defined(dest, r0, e, c0, c1);
	if (def == 0)
		return;
	double sum = 0.0;
	for (size_t a = c0; a < c1; a += FIELD_LEARNED_CHUNK) {
		size_t b =
		    c1 - a < FIELD_LEARNED_CHUNK ? c1 : a + FIELD_LEARNED_CHUNK;
		field_learned_colsum(&lp, r0, e, a, b, cs);
		for (size_t c = 0; c < b - a; c++)
			sum += cs[c];
	}
	dest->mean = sum / (double)def;
}

/* Mean of a learned similarity block: (sum of rows [r0, pe)) . (sum of
 * rows [c0, qe)) over the defined rows and columns. */
static void
field_learned_sim_block(const struct pe_field *f, size_t r0, size_t r1,
                        size_t c0, size_t c1, struct pe_stats *dest)
{
	struct field_learned lp;
	double u[FIELD_LEARNED_CHUNK], v[FIELD_LEARNED_CHUNK];

	field_learned_parts(f, &lp);
	size_t pe = field_learned_end(&lp, r1), qe = field_learned_end(&lp, c1);
	uint64_t def = field_learned_defined(dest, r0, pe, c0, qe);
	if (def == 0)
		return;
	double sum = 0.0;
	for (size_t a = 0; a < lp.d; a += FIELD_LEARNED_CHUNK) {
		size_t b = lp.d - a < FIELD_LEARNED_CHUNK
		               ? lp.d
		               : a + FIELD_LEARNED_CHUNK;
		field_learned_colsum(&lp, r0, pe, a, b, u);
		field_learned_colsum(&lp, c0, qe, a, b, v);
		for (size_t c = 0; c < b - a; c++)
			sum += u[c] * v[c];
	}
	dest->mean = sum / (double)def;
}

/* Grid of a learned PE field: per row block the column sums of its defined
 * rows (field_learned_colsum), then per column block their sum. */
static int
field_learned_pe_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
                      size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	struct field_learned lp;
	struct field_cells it;
	double *cs = malloc((c1 - c0) * sizeof *cs);

	if (cs == NULL)
		return PE_ENOMEM;
	field_learned_parts(f, &lp);
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		size_t e = field_learned_end(&lp, it.p1);
		if (it.bj == 0 && it.p0 < e)
			field_learned_colsum(&lp, it.p0, e, c0, c1, cs);
		struct pe_stats *st = &dest[it.k];
		field_stats_init(st, it.count);
		uint64_t def =
		    field_learned_defined(st, it.p0, e, it.q0, it.q1);
		if (def == 0)
			continue;
		double sum = 0.0;
		for (size_t q = it.q0; q < it.q1; q++)
			sum += cs[q - c0];
		st->mean = sum / (double)def;
	}
	free(cs);
	return PE_OK;
}

/* Column sums, table columns [a, b), of the defined rows of each of nb
 * blocks tiling [lo, hi): block k's at dest[k * stride]; blocks past the
 * table are left alone. */
static void
field_learned_block_sums(const struct field_learned *lp, size_t lo, size_t hi,
                         size_t nb, size_t a, size_t b, double *dest,
                         size_t stride)
{
	for (size_t k = 0; k < nb; k++) {
		size_t p0, p1;
		field_span(lo, hi, nb, k, &p0, &p1);
		if (p0 < lp->L)
			field_learned_colsum(lp, p0, field_learned_end(lp, p1),
			                     a, b, dest + k * stride);
	}
}

/* Grid of a learned similarity: mean(i, j) = U_i . V_j / count with U, V
 * the column sums of the defined rows of row block i and column block j,
 * FIELD_LEARNED_CHUNK table columns at a time (memory O((nr + nc) chunk)). */
static int
field_learned_sim_grid(const struct pe_field *f, size_t r0, size_t r1,
                       size_t nr, size_t c0, size_t c1, size_t nc,
                       struct pe_stats *dest)
{
	struct field_learned lp;
	struct field_cells it;

	field_learned_parts(f, &lp);
	/* U and V of a pass within FIELD_SIM_SCRATCH doubles */
	size_t chunk = FIELD_SIM_SCRATCH / (nr + nc);
	chunk = chunk < 8 ? 8 : chunk;
	chunk = chunk > FIELD_LEARNED_CHUNK ? FIELD_LEARNED_CHUNK : chunk;
	chunk = chunk > lp.d ? lp.d : chunk;
	double *U = malloc((nr + nc) * chunk * sizeof *U);
	if (U == NULL)
		return PE_ENOMEM;
	double *V = U + nr * chunk;
	for (size_t i = 0; i < nr * nc; i++)
		dest[i].mean = 0.0;
	for (size_t a = 0; a < lp.d; a += chunk) {
		size_t b = lp.d - a < chunk ? lp.d : a + chunk;
		if (pe_field_interrupted()) {
			free(U);
			return PE_EINTR;
		}
		field_learned_block_sums(&lp, r0, r1, nr, a, b, U, chunk);
		field_learned_block_sums(&lp, c0, c1, nc, a, b, V, chunk);
		/* (not a field_cells walk: most blocks of a long sequence lie
		 * past the table, and whole rows of them are skipped here) */
		for (size_t bi = 0; bi < nr; bi++) {
			size_t p0, p1;
			field_span(r0, r1, nr, bi, &p0, &p1);
			if (p0 >= lp.L)
				continue;
			const double *u = U + bi * chunk;
			for (size_t bj = 0; bj < nc; bj++) {
				size_t q0, q1;
				field_span(c0, c1, nc, bj, &q0, &q1);
				if (q0 >= lp.L)
					continue;
				const double *v = V + bj * chunk;
				double sum = 0.0;
				for (size_t c = 0; c < b - a; c++)
					sum += u[c] * v[c];
				dest[bi * nc + bj].mean += sum;
			}
		}
	}
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		struct pe_stats *st = &dest[it.k];
		double sum = st->mean;
		field_stats_init(st, it.count);
		uint64_t def = field_learned_defined(
		    st, it.p0, field_learned_end(&lp, it.p1), it.q0,
		    field_learned_end(&lp, it.q1));
		if (def != 0)
			st->mean = sum / (double)def;
	}
	free(U);
	return PE_OK;
}

/* Value at (r, c): the table's entry, or the dot product of rows r and c. */
double
pe_field_learned_value(const struct pe_field *f, size_t r, size_t c)
{
	if (f->kind == PE_FIELD_SIMILARITY)
		return field_learned_sim(f, r, c);
	return field_learned_pe(f, r, c);
}

/* Mean of a block of a learned field, over its defined entries. */
void
pe_field_learned_block(const struct pe_field *f, size_t r0, size_t r1,
                       size_t c0, size_t c1, struct pe_stats *dest)
{
	if (f->kind == PE_FIELD_SIMILARITY)
		field_learned_sim_block(f, r0, r1, c0, c1, dest);
	else
		field_learned_pe_block(f, r0, r1, c0, c1, dest);
}

/* Grid of a learned field. */
int
pe_field_learned_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
                      size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	if (f->kind == PE_FIELD_SIMILARITY)
		return field_learned_sim_grid(f, r0, r1, nr, c0, c1, nc, dest);
	return field_learned_pe_grid(f, r0, r1, nr, c0, c1, nc, dest);
}

/* Exact min and max of a block: rows (and, for similarity, columns) past
 * the table are NAN, so only the defined ones are scanned. */
void
pe_field_learned_minmax(const struct pe_field *f, size_t r0, size_t r1,
                        size_t c0, size_t c1, double *lo, double *hi)
{
	size_t L = field_learned_rows(f->cfg);

	r1 = r1 < L ? r1 : L;
	if (f->kind == PE_FIELD_SIMILARITY)
		c1 = c1 < L ? c1 : L;
	for (size_t r = r0; r < r1; r++)
		for (size_t c = c0; c < c1; c++)
			field_fold(pe_field_learned_value(f, r, c), lo, hi);
}
