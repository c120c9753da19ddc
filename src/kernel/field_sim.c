/* Similarities of waves: S(i, j) = PE_i . PE_j for sinusoidal PE, and
 * (R_i q) . (R_j q) for rope, both functions of k = i - j only (sums over
 * frequencies of cos(k w)).
 *
 * A block's mean is, per frequency, the product of two geometric sums
 * (pe_trig_cross). A grid computes per row block and per column block their
 * geometric sums (struct field_tiling) and one dot product of them per
 * distinct block: equal sizes and |offset| give equal means. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/field_impl.h"
#include "kernel/trig.h"

/* ---- two halves at once ----------------------------------------------- */

/* The caller's way of running two halves of a grid at once
 * (pe_field_set_run2), or NULL: one after the other here. */
static _Atomic(pe_field_run2_fn *) field_run2_hook;

/* Set how grids run their two halves; see field.h. */
void
pe_field_set_run2(pe_field_run2_fn *run)
{
	atomic_store(&field_run2_hook, run);
}

/* Grids with less work than this (blocks times frequencies) run their
 * halves here: a hand-over to the other core costs tens of microseconds. */
#define FIELD_SIM_PAR_WORK ((uint64_t)1 << 16)

/* fn(arg, 0) and fn(arg, 1): at once through the hook when the work is
 * worth it, else one after the other. Either way the same calls, so the
 * same bits. */
static void
field_run2(void (*fn)(void *arg, int part), void *arg, uint64_t work)
{
	pe_field_run2_fn *run = atomic_load(&field_run2_hook);

	if (run != NULL && work >= FIELD_SIM_PAR_WORK) {
		run(fn, arg);
		return;
	}
	fn(arg, 0);
	fn(arg, 1);
}

/* Half `part` of a product of nr row factors by nc column factors
 * (pe_field_gemm's arguments): the rows cut at a multiple of its 4-row
 * tiles, or a single row's columns at a multiple of its 3 columns. Each
 * cell's sum is the same whatever the tile, so the halves give the bits
 * of one call. */
static void
field_gemm_half(const double *x, size_t nr, const double *y, size_t nc,
                size_t kl, size_t ks, double *acc, int part)
{
	if (nr > 1) {
		size_t a = (nr / 2 + 3) / 4 * 4;
		if (a > nr)
			a = nr;
		size_t lo = part == 0 ? 0 : a, hi = part == 0 ? a : nr;
		if (hi > lo)
			pe_field_gemm(x + lo * ks, hi - lo, y, nc, kl, ks,
			              acc + lo * nc);
		return;
	}
	size_t b = (nc / 2 + 2) / 3 * 3;
	if (b > nc)
		b = nc;
	size_t lo = part == 0 ? 0 : b, hi = part == 0 ? b : nc;
	if (nr == 1 && hi > lo)
		pe_field_gemm(x, 1, y + lo * ks, hi - lo, kl, ks, acc + lo);
}

/* Whether f is a rope similarity, with *s2 = s^2 (s = attention_scaling,
 * which HF applies to both q and k) and *pass = the pass-through pairs'
 * constant, one per pair (partial rotary); 1 and 0 for sinusoidal. */
static bool
field_sim_rope(const struct pe_field *f, double *s2, double *pass)
{
	*s2 = 1.0;
	*pass = 0.0;
	if (f->rope.inv_freq == NULL)
		return false;
	*s2 = f->rope.attention_scaling * f->rope.attention_scaling;
	*pass = (double)((f->rope.d - f->rope.rot) / 2);
	return true;
}

/* Similarity of a wave encoding at relative position k = i - j:
 * sinusoidal PE_i . PE_j = sum_f cos(k omega_f) (sin a sin b + cos a cos b
 * = cos(a - b)); rope (R_i q) . (R_j q) for q = (1, 0) in every pair:
 * s^2 sum_f cos(k theta_f) per rotary pair (s = attention_scaling, which HF
 * applies to both q and k) plus 1 per pass-through pair. */
static double
field_sim_at(const struct pe_field *f, double k)
{
	size_t nfreq;
	const double *w = pe_field_wave_freqs(f, &nfreq);
	double sum = 0.0, s2, pass;

	for (size_t i = 0; i < nfreq; i++)
		sum += cos(k * w[i]);
	if (field_sim_rope(f, &s2, &pass))
		return s2 * sum + pass;
	return sum;
}

/* Mean of a block of a wave similarity: per frequency
 * Re(sum_p e^{i p w} conj(sum_q e^{i q w})) / (np nq) (pe_trig_cross). */
void
pe_field_sim_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                   size_t c1, struct pe_stats *dest)
{
	size_t nfreq;
	const double *w = pe_field_wave_freqs(f, &nfreq);
	double sum = 0.0, s2, pass;

	for (size_t i = 0; i < nfreq; i++)
		sum += pe_trig_cross(w[i], r0, r1 - r0, c0, c1 - c0);
	sum /= (double)dest->count;
	if (field_sim_rope(f, &s2, &pass))
		sum = s2 * sum + pass;
	dest->mean = sum;
}

/* Per-block geometric sums D(n, w) e^{i mid w/2} for every frequency of nb
 * blocks tiling [lo, hi): block b's real parts at dest[b * 2 kpad + i], its
 * imaginary parts at dest[b * 2 kpad + kpad + i] (pe_field_dots' rows). */
static int
field_sim_geo_blocks(const double *wr, const double *hc, const double *hs,
                     size_t nf, size_t lo, size_t hi, size_t nb, size_t kpad,
                     double *dest)
{
	struct field_tiling ti;

	if (pe_field_tiling_init(&ti, wr, hc, hs, nf, lo, hi, nb) != PE_OK)
		return PE_ENOMEM;
	for (size_t b = 0; b < nb; b++) {
		pe_field_tiling_next(&ti);
		double *row = dest + b * 2 * kpad;
		pe_field_tiling_sums(&ti, row, row + kpad);
	}
	pe_field_tiling_free(&ti);
	return PE_OK;
}

/* Grids whose distinct blocks are worth finding (field_sim_unique): at
 * most this many cells (its tables, 40 bytes a cell, stay small) ... */
#define FIELD_SIM_DEDUP_CELLS ((size_t)1 << 18)
/* ... and at least this many frequencies (a dot product costs more than
 * hashing a key); the distinct blocks are then summed one by one when at
 * most 1 in FIELD_SIM_DEDUP_SHARE cells is one (a lone dot product runs at
 * a fraction of the tiled product's rate), which a uniform tiling's grid
 * is: its blocks have two lengths and their offsets follow the distance of
 * the blocks. */
#define FIELD_SIM_DEDUP_FREQS 64
#define FIELD_SIM_DEDUP_SHARE 4

/* What a block of a wave similarity depends on: sum_f D(np, w_f) D(nq,
 * w_f) cos(dm w_f / 2), dm = (2 p0 + np) - (2 q0 + nq), is symmetric in np
 * and nq and even in dm. */
struct field_sim_key {
	uint64_t lo, hi, dm; /* min(np, nq), max(np, nq), |dm| */
};

/* Key of block rows [p0, p1) x cols [q0, q1) (struct field_sim_key). */
static struct field_sim_key
field_sim_key(size_t p0, size_t p1, size_t q0, size_t q1)
{
	uint64_t np = p1 - p0, nq = q1 - q0;
	uint64_t mp = 2 * (uint64_t)p0 + np, mq = 2 * (uint64_t)q0 + nq;
	struct field_sim_key k = {np < nq ? np : nq, np < nq ? nq : np,
	                          mp > mq ? mp - mq : mq - mp};
	return k;
}

/* Number the distinct keys of an nr x nc grid: uid[cell] is its key's
 * number, rep[u] the first cell with key u; returns how many (0 when out of
 * memory). Blocks with equal keys have equal means, so a grid over uniform
 * tilings (whose blocks share a handful of sizes and offsets) needs far
 * fewer dot products than cells. */
static size_t
field_sim_unique(size_t r0, size_t r1, size_t nr, size_t c0, size_t c1,
                 size_t nc, uint32_t *uid, uint32_t *rep)
{
	size_t ncell = nr * nc, cap = 16, nu = 0;
	struct field_cells it;

	while (cap < 2 * ncell)
		cap *= 2;
	uint32_t *slot = malloc(cap * sizeof *slot); /* u + 1, 0: empty */
	struct field_sim_key *key = malloc(ncell * sizeof *key);
	if (slot == NULL || key == NULL) {
		free(slot);
		free(key);
		return 0;
	}
	memset(slot, 0, cap * sizeof *slot);
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		struct field_sim_key k =
		    field_sim_key(it.p0, it.p1, it.q0, it.q1);
		/* open addressing; the multipliers are splitmix64's */
		uint64_t h = (k.lo * 0x9e3779b97f4a7c15ULL) ^
		             (k.hi * 0xbf58476d1ce4e5b9ULL) ^
		             (k.dm * 0x94d049bb133111ebULL);
		size_t at = (size_t)(h ^ (h >> 29)) & (cap - 1);
		for (;; at = (at + 1) & (cap - 1)) {
			size_t u = slot[at];
			if (u == 0) {
				slot[at] = (uint32_t)(nu + 1);
				key[nu] = k;
				rep[nu] = (uint32_t)it.k;
				uid[it.k] = (uint32_t)nu++;
				break;
			}
			if (key[u - 1].lo == k.lo && key[u - 1].hi == k.hi &&
			    key[u - 1].dm == k.dm) {
				uid[it.k] = (uint32_t)(u - 1);
				break;
			}
		}
	}
	free(slot);
	free(key);
	return nu;
}

/* Finish a similarity grid: each cell's mean is s^2 sum / count + pass,
 * with sum from acc[uid[cell]] (distinct blocks), acc[cell] when uid is
 * NULL, or parked in the cell's mean when acc is NULL. */
static void
field_sim_finish(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
                 size_t c0, size_t c1, size_t nc, const double *acc,
                 const uint32_t *uid, struct pe_stats *dest)
{
	struct field_cells it;
	double s2, pass;

	field_sim_rope(f, &s2, &pass);
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		struct pe_stats *st = &dest[it.k];
		double sum = acc == NULL ? st->mean
		    : acc[uid != NULL ? uid[it.k] : it.k];
		field_stats_init(st, it.count);
		st->mean = s2 * sum / (double)st->count + pass;
	}
}

/* A chunk of field_sim_dots_grid: its row blocks' sums (part 0) and
 * column blocks' (part 1), each one tiling as before; then the product,
 * or the distinct blocks' dot products, in halves. */
struct field_sim_job {
	const double *wr, *hc, *hs;
	size_t kn, kpad, r0, r1, nr, c0, c1, nc;
	double *G, *H, *acc;
	const uint32_t *rep;
	size_t nu;
	int rc[2];
};

/* The sums of one side of a field_sim_job (part 0 rows, 1 columns). */
static void
field_sim_sums_part(void *arg, int part)
{
	struct field_sim_job *j = arg;

	j->rc[part] = part == 0
	    ? field_sim_geo_blocks(j->wr, j->hc, j->hs, j->kn, j->r0, j->r1,
	                           j->nr, j->kpad, j->G)
	    : field_sim_geo_blocks(j->wr, j->hc, j->hs, j->kn, j->c0, j->c1,
	                           j->nc, j->kpad, j->H);
}

/* Half the products of a field_sim_job: the grid's (gemm halves), or of
 * its distinct blocks (rep) the first or second half. */
static void
field_sim_dots_part(void *arg, int part)
{
	struct field_sim_job *j = arg;
	size_t ks = 2 * j->kpad;

	if (j->rep == NULL) {
		field_gemm_half(j->G, j->nr, j->H, j->nc, ks, ks, j->acc, part);
		return;
	}
	size_t lo = part == 0 ? 0 : j->nu / 2, hi = part == 0 ? j->nu / 2
	    : j->nu;
	for (size_t u = lo; u < hi; u++) {
		size_t bi = j->rep[u] / j->nc, bj = j->rep[u] % j->nc;
		j->acc[u] += pe_field_dot8(j->G + bi * ks, j->H + bj * ks, ks);
	}
}

/* Grid of a wave similarity: mean(i, j) = Re(G_i . conj(H_j)) / (np nq)
 * with the per-block geometric sums G and H (field_sim_geo_blocks), a chunk
 * of frequencies at a time: for every cell, their product (pe_field_gemm),
 * or when the grid's blocks are few of a kind, once per distinct block
 * (field_sim_unique), the same sum pe_field_gemm gives the cell. G and H,
 * then the product's halves, each take a core (field_run2). Memory
 * O(FIELD_DOTS_BYTES + nr nc) at any d. */
static int
field_sim_dots_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
                    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t nf, ncell = nr * nc;
	int rc = PE_ENOMEM;

	pe_field_wave_freqs(f, &nf);
	size_t kpad = pe_field_dots_chunk(nr + nc, nf);
	const double *wr, *hc, *hs;
	pe_field_wave_pre(f, &wr, &hc, &hs);
	bool dedup =
	    ncell <= FIELD_SIM_DEDUP_CELLS && nf >= FIELD_SIM_DEDUP_FREQS;
	double *G = pe_field_dots_alloc(nr + nc, kpad);
	double *acc = calloc(ncell ? ncell : 1, sizeof *acc);
	uint32_t *uid = NULL, *rep = NULL;
	size_t nu = ncell;
	if (G == NULL || acc == NULL)
		goto end;
	double *H = G + nr * 2 * kpad;
	if (dedup) {
		uid = malloc(2 * ncell * sizeof *uid);
		if (uid == NULL)
			goto end;
		rep = uid + ncell;
		nu = field_sim_unique(r0, r1, nr, c0, c1, nc, uid, rep);
		if (nu == 0)
			goto end;
		if (nu > ncell / FIELD_SIM_DEDUP_SHARE) { /* not worth it */
			dedup = false;
			nu = ncell;
		}
	}
	struct field_sim_job job = {.kpad = kpad, .r0 = r0, .r1 = r1,
	    .nr = nr, .c0 = c0, .c1 = c1, .nc = nc, .G = G, .H = H,
	    .acc = acc, .rep = dedup ? rep : NULL, .nu = nu};
	for (size_t k0 = 0; k0 < nf; k0 += kpad) {
		size_t kn = nf - k0 < kpad ? nf - k0 : kpad;
		if (pe_field_interrupted()) {
			rc = PE_EINTR;
			goto end;
		}
		/* the last chunk: zeros past its frequencies */
		pe_field_dots_tails(G, nr + nc, kpad, kn);
		job.wr = wr + k0, job.hc = hc + k0, job.hs = hs + k0;
		job.kn = kn;
		field_run2(field_sim_sums_part, &job, (uint64_t)(nr + nc) * kn);
		if (job.rc[0] != PE_OK || job.rc[1] != PE_OK)
			goto end;
		field_run2(field_sim_dots_part, &job, (uint64_t)nu * kn);
	}
	field_sim_finish(f, r0, r1, nr, c0, c1, nc, acc, dedup ? uid : NULL,
	                 dest);
	rc = PE_OK;
end:
	free(G);
	free(uid);
	free(acc);
	return rc;
}

/* A field_sim_row's chunks of frequencies, the first half on part 0, the
 * rest on part 1: chunk q's sum for column block j at part[q nc + j],
 * added in chunk order afterwards (the additions one loop makes). */
struct field_sim_row_job {
	const double *wr, *hc, *hs;
	size_t nf, r0, r1, c0, c1, nc;
	int64_t mp;
	double *part;
	int rc[2];
};

/* Chunks [q0, q1) of a field_sim_row_job. */
static int
field_sim_row_chunks(struct field_sim_row_job *j, size_t q0, size_t q1)
{
	struct field_tiling row, ti;
	double *Dp = malloc(FIELD_WAVE_CHUNK * sizeof *Dp);

	if (Dp == NULL)
		return PE_ENOMEM;
	for (size_t q = q0; q < q1; q++) {
		size_t k0 = q * FIELD_WAVE_CHUNK;
		size_t kn = j->nf - k0 < FIELD_WAVE_CHUNK ? j->nf - k0
		    : FIELD_WAVE_CHUNK;
		if (pe_field_interrupted()) {
			free(Dp);
			return PE_EINTR;
		}
		/* D(np) of the one row block: its tiling's Dn */
		if (pe_field_tiling_init(&row, j->wr + k0, j->hc + k0,
		                         j->hs + k0, kn, j->r0, j->r1, 1) != PE_OK)
			goto nomem;
		memcpy(Dp, row.Dn, kn * sizeof *Dp);
		pe_field_tiling_free(&row);
		if (pe_field_tiling_init(&ti, j->wr + k0, j->hc + k0, j->hs + k0,
		                         kn, j->c0, j->c1, j->nc) != PE_OK)
			goto nomem;
		ti.off = j->mp;
		double *out = j->part + q * j->nc;
		for (size_t b = 0; b < j->nc; b++) {
			pe_field_tiling_next(&ti);
			double a0 = 0.0, a1 = 0.0;
			size_t i = 0;
			for (; i + 2 <= kn; i += 2) {
				a0 += Dp[i] * ti.D[i] * ti.c[i];
				a1 += Dp[i + 1] * ti.D[i + 1] * ti.c[i + 1];
			}
			for (; i < kn; i++)
				a0 += Dp[i] * ti.D[i] * ti.c[i];
			out[b] = a0 + a1;
		}
		pe_field_tiling_free(&ti);
	}
	free(Dp);
	return PE_OK;
nomem:
	free(Dp);
	return PE_ENOMEM;
}

/* Half `part` of a field_sim_row_job's chunks. */
static void
field_sim_row_part(void *arg, int part)
{
	struct field_sim_row_job *j = arg;
	size_t nq = (j->nf + FIELD_WAVE_CHUNK - 1) / FIELD_WAVE_CHUNK;

	j->rc[part] = part == 0 ? field_sim_row_chunks(j, 0, nq / 2)
	    : field_sim_row_chunks(j, nq / 2, nq);
}

/* Similarity means of one row block [r0, r1) against nc column blocks:
 * mean_j = s^2 sum_f D(np) D(nq) cos((mq - mp) h_f) / (np nq) + pass, with
 * the column tiling's phasors started at mid - mp, so that each block is
 * one sum over the frequencies (no per-block sums stored, no dot products
 * of them). The chunks of frequencies are independent tilings: half of
 * them take the other core (field_run2), their sums added in chunk
 * order here. */
static int
field_sim_row(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
              size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t nf;
	const double *wr, *hc, *hs;

	pe_field_wave_freqs(f, &nf);
	pe_field_wave_pre(f, &wr, &hc, &hs);
	uint64_t np = r1 - r0, mp = 2 * (uint64_t)r0 + np - 1;
	if (mp > INT64_MAX)
		return PE_ENOMEM;
	size_t nq = (nf + FIELD_WAVE_CHUNK - 1) / FIELD_WAVE_CHUNK;
	double *part = malloc((nq * nc > 0 ? nq * nc : 1) * sizeof *part);
	if (part == NULL)
		return PE_ENOMEM;
	struct field_sim_row_job job = {wr, hc, hs, nf, r0, r1, c0, c1, nc,
	    (int64_t)mp, part, {PE_OK, PE_OK}};
	field_run2(field_sim_row_part, &job, (uint64_t)nc * nf);
	int rc = job.rc[0] != PE_OK ? job.rc[0] : job.rc[1];
	if (rc != PE_OK) {
		free(part);
		return rc;
	}
	for (size_t j = 0; j < nc; j++)
		dest[j].mean = 0.0;
	for (size_t q = 0; q < nq; q++)
		for (size_t j = 0; j < nc; j++)
			dest[j].mean += part[q * nc + j];
	free(part);
	field_sim_finish(f, r0, r1, 1, c0, c1, nc, NULL, NULL, dest);
	return PE_OK;
}

/* Similarity at (i, j) (field_sim_at of k = i - j). */
double
pe_field_sim_value(const struct pe_field *f, size_t i, size_t j)
{
	return field_sim_at(f, (double)i - (double)j);
}

/* Grid of a wave similarity: a single row block from the column tiling
 * (field_sim_row), else from dot products (field_sim_dots_grid). */
int
pe_field_sim_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
                  size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	if (nr == 1) {
		int rc = field_sim_row(f, r0, r1, c0, c1, nc, dest);
		if (rc != PE_ENOMEM)
			return rc;
	}
	return field_sim_dots_grid(f, r0, r1, nr, c0, c1, nc, dest);
}

/* Exact min and max of a block: S depends on k = i - j only, so scan the
 * distinct diagonals; false when that costs more than FIELD_SCAN_BUDGET. */
bool
pe_field_sim_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                    size_t c1, double *lo, double *hi)
{
	uint64_t nr = r1 - r0, nc = c1 - c0;
	size_t nfreq;

	pe_field_wave_freqs(f, &nfreq);
	if ((nr + nc - 1) * (uint64_t)nfreq > FIELD_SCAN_BUDGET)
		return false;
	for (int64_t k = (int64_t)r0 - (int64_t)(c1 - 1);
	     k <= (int64_t)(r1 - 1) - (int64_t)c0; k++)
		field_fold(field_sim_at(f, (double)k), lo, hi);
	return true;
}

/* A chunk of pe_field_dots: the factors of its row blocks then column
 * blocks, blocks [0, nb / 2) on part 0 and the rest on part 1 (each
 * block's factor one call, whoever makes it); then the product in
 * halves. */
struct field_dots_job {
	const struct pe_field *f;
	size_t r0, r1, nr, c0, c1, nc, k0, kn, kpad;
	pe_field_factor_fn xf, yf;
	double *X, *Y, *acc;
};

/* Half `part` of a field_dots_job's factors. */
static void
field_dots_factor_part(void *arg, int part)
{
	struct field_dots_job *j = arg;
	size_t nb = j->nr + j->nc, lo = part == 0 ? 0 : nb / 2;
	size_t hi = part == 0 ? nb / 2 : nb;

	for (size_t b = lo; b < hi; b++) {
		size_t p0, p1;
		double *row = j->X + b * 2 * j->kpad; /* Y follows X */
		if (b < j->nr) {
			field_span(j->r0, j->r1, j->nr, b, &p0, &p1);
			j->xf(j->f, p0, p1, j->k0, j->kn, row, row + j->kpad);
		} else {
			field_span(j->c0, j->c1, j->nc, b - j->nr, &p0, &p1);
			j->yf(j->f, p0, p1, j->k0, j->kn, row, row + j->kpad);
		}
	}
}

/* Half `part` of a field_dots_job's product. */
static void
field_dots_gemm_part(void *arg, int part)
{
	struct field_dots_job *j = arg;

	field_gemm_half(j->X, j->nr, j->Y, j->nc, 2 * j->kpad, 2 * j->kpad,
	                j->acc, part);
}

/* Products of per-block sums over pairs (pe_field_dots): the factors of a
 * chunk of pairs for every row block and column block (rows of [re kpad |
 * im kpad], zero past the chunk's pairs), then their product
 * (pe_field_gemm), FIELD_DOTS_BYTES at a time; the factors, then the
 * product, in halves on the two cores (field_run2). */
int
pe_field_dots(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, size_t npairs, pe_field_factor_fn xf,
    pe_field_factor_fn yf, double scale, struct pe_stats *dest)
{
	size_t ncell = nr * nc, kpad = pe_field_dots_chunk(nr + nc, npairs);
	struct field_cells it;
	int rc = PE_ENOMEM;

	double *X = pe_field_dots_alloc(nr + nc, kpad);
	double *acc = calloc(ncell ? ncell : 1, sizeof *acc);
	if (X == NULL || acc == NULL)
		goto end;
	double *Y = X + nr * 2 * kpad;
	struct field_dots_job job = {f, r0, r1, nr, c0, c1, nc, 0, 0, kpad,
	    xf, yf, X, Y, acc};
	for (size_t k0 = 0; k0 < npairs; k0 += kpad) {
		size_t kn = npairs - k0 < kpad ? npairs - k0 : kpad;
		if (pe_field_interrupted()) {
			rc = PE_EINTR;
			goto end;
		}
		/* the last chunk: zeros past its pairs */
		pe_field_dots_tails(X, nr + nc, kpad, kn);
		job.k0 = k0, job.kn = kn;
		field_run2(field_dots_factor_part, &job,
		    (uint64_t)(nr + nc) * kn * 16);
		field_run2(field_dots_gemm_part, &job, (uint64_t)ncell * kn);
	}
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		field_stats_init(&dest[it.k], it.count);
		dest[it.k].mean = scale * acc[it.k] / (double)it.count;
	}
	rc = PE_OK;
end:
	free(X);
	free(acc);
	return rc;
}
