/* Fields: the logical matrices pescope draws, and exact block means of them.
 *
 * Waves (sinusoidal PE, RoPE cos/sin/angle) sum in closed form along
 * positions with Lagrange's identity (trig.h), so a block of B rows x C
 * columns costs O(C). Similarities of waves are sums over frequencies of
 * products of two geometric sums. Learned tables keep column prefix sums
 * every FIELD_LEARNED_STRIDE rows (a block's column sums cost at most that
 * many table rows); vit2d splits a range of patch indices into partial and
 * full grid rows, and its patch cosine is separable in h and w. Alibi bias,
 * the causal mask and relative buckets are diagonal fields, handled by
 * diag.c.
 *
 * Grids share work: a wave grid walks its row blocks with one phasor per
 * frequency (struct field_tiling), a similarity grid computes one dot
 * product per distinct block (equal sizes and |offset| give equal means),
 * a patch-cosine grid one sum per row block and per column block.
 *
 * struct pe_field's prefix holds what a kind derives once: learned, the prefix
 * sums and the table's row norms (struct field_learned); waves and their
 * similarities, the reduced frequencies and e^{i w/2} (field_wave_prepare);
 * patch cosine, the table of C(k) (field_init_vit2d). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/diag.h"
#include "kernel/field_impl.h"
#include "kernel/trig.h"
#include "pescope/alibi.h"
#include "pescope/field.h"

/* Whether an encoding has this kind of field. */
bool
pe_field_supported(enum pe_encoding enc, enum pe_field_kind kind)
{
	switch (enc) {
	case PE_ENC_SINUSOIDAL:
	case PE_ENC_LEARNED:
		return kind == PE_FIELD_PE || kind == PE_FIELD_SIMILARITY;
	case PE_ENC_ROPE:
		return kind == PE_FIELD_ROPE_ANGLE ||
		       kind == PE_FIELD_ROPE_COS || kind == PE_FIELD_ROPE_SIN ||
		       kind == PE_FIELD_SIMILARITY;
	case PE_ENC_ALIBI:
		return kind == PE_FIELD_BIAS;
	case PE_ENC_NOPE:
		return kind == PE_FIELD_MASK || kind == PE_FIELD_SIMILARITY;
	case PE_ENC_RELATIVE:
		return kind == PE_FIELD_RELATIVE;
	case PE_ENC_VIT2D:
		return kind == PE_FIELD_PE || kind == PE_FIELD_PATCH_COSINE;
	default:
		return false;
	}
}

/* Whether f is a wave: closed-form sums of sin/cos down its columns. */
static bool
field_is_wave(const struct pe_field *f)
{
	return (f->kind == PE_FIELD_PE && f->cfg->enc == PE_ENC_SINUSOIDAL) ||
	       f->kind == PE_FIELD_ROPE_ANGLE || f->kind == PE_FIELD_ROPE_COS ||
	       f->kind == PE_FIELD_ROPE_SIN;
}

/* Whether f is the similarity of a wave encoding (sinusoidal or rope). */
static bool
field_is_wave_sim(const struct pe_field *f)
{
	return f->kind == PE_FIELD_SIMILARITY &&
	       (f->cfg->enc == PE_ENC_SINUSOIDAL || f->cfg->enc == PE_ENC_ROPE);
}

/* An alibi field's slopes, one per head. */
static int
field_init_alibi(struct pe_field *f)
{
	f->slopes = malloc(f->cfg->heads * sizeof *f->slopes);
	if (f->slopes == NULL)
		return PE_ENOMEM;
	return pe_alibi_slopes(f->cfg->heads, f->slopes);
}

/* Prepare a field of the given kind for cfg. */
int
pe_field_init(struct pe_field *f, enum pe_field_kind kind,
              const struct pe_config *cfg)
{
	int rc;

	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->cfg = cfg;
	if (cfg == NULL || (unsigned)kind >= PE_FIELD_KIND_COUNT ||
	    pe_config_check(cfg, NULL, 0) != PE_OK ||
	    !pe_field_supported(cfg->enc, kind))
		return PE_EINVAL;

	switch (kind) {
	case PE_FIELD_PE:
		f->rows = cfg->enc == PE_ENC_VIT2D ? cfg->grid_h * cfg->grid_w
		                                   : cfg->n;
		f->cols = cfg->d;
		break;
	case PE_FIELD_PATCH_COSINE:
		f->rows = cfg->grid_h;
		f->cols = cfg->grid_w;
		break;
	default:
		f->rows = cfg->n;
		f->cols = cfg->n;
		break;
	}

	switch (cfg->enc) {
	case PE_ENC_SINUSOIDAL:
	case PE_ENC_ROPE:
		rc = pe_field_wave_init(f);
		break;
	case PE_ENC_VIT2D:
		rc = pe_field_patch_init(f);
		break;
	case PE_ENC_LEARNED:
		rc = pe_field_learned_init(f);
		break;
	case PE_ENC_ALIBI:
		rc = field_init_alibi(f);
		break;
	default:
		rc = PE_OK;
		break;
	}
	if (rc != PE_OK)
		pe_field_free(f);
	return rc;
}

/* Release what pe_field_init allocated. */
void
pe_field_free(struct pe_field *f)
{
	if (f->rope.inv_freq != NULL || f->rope.inv_freq0 != NULL)
		pe_rope_free(&f->rope);
	free(f->slopes);
	free(f->omega);
	free(f->prefix);
	f->slopes = NULL;
	f->omega = NULL;
	f->prefix = NULL;
	f->nomega = 0;
}

/* Similarity of a wave encoding at relative position k = i - j:
 * sinusoidal PE_i . PE_j = sum_f cos(k omega_f) (sin a sin b + cos a cos b
 * = cos(a - b)); rope (R_i q) . (R_j q) for q = (1, 0) in every pair:
 * s^2 sum_f cos(k theta_f) per rotary pair (s = attention_scaling, which HF
 * applies to both q and k) plus 1 per pass-through pair. */
static double
field_wave_sim(const struct pe_field *f, double k)
{
	size_t nfreq;
	const double *w = pe_field_wave_freqs(f, &nfreq);
	double sum = 0.0;

	for (size_t i = 0; i < nfreq; i++)
		sum += cos(k * w[i]);
	if (f->cfg->enc == PE_ENC_ROPE) {
		double s = f->rope.attention_scaling;
		return s * s * sum + (double)((f->rope.d - f->rope.rot) / 2);
	}
	return sum;
}

/* Exact value at (r, c). */
double
pe_field_value(const struct pe_field *f, size_t r, size_t c)
{
	if (f == NULL || f->cfg == NULL || r >= f->rows || c >= f->cols)
		return NAN;
	const struct pe_config *cfg = f->cfg;

	switch (f->kind) {
	case PE_FIELD_BIAS:
	case PE_FIELD_MASK:
	case PE_FIELD_RELATIVE:
		return pe_diag_value(f, r, c);
	case PE_FIELD_PE:
		if (cfg->enc == PE_ENC_LEARNED)
			return pe_field_learned_value(f, r, c);
		if (cfg->enc == PE_ENC_VIT2D)
			return pe_field_patch_value(f, r, c);
		return pe_field_wave_value(f, r, c);
	case PE_FIELD_ROPE_ANGLE:
	case PE_FIELD_ROPE_COS:
	case PE_FIELD_ROPE_SIN:
		return pe_field_wave_value(f, r, c);
	case PE_FIELD_SIMILARITY:
		if (cfg->enc == PE_ENC_NOPE)
			return 0.0;
		if (cfg->enc == PE_ENC_LEARNED)
			return pe_field_learned_value(f, r, c);
		return field_wave_sim(f, (double)r - (double)c);
	case PE_FIELD_PATCH_COSINE:
		return pe_field_patch_value(f, r, c);
	default:
		return NAN;
	}
}

/* Empty statistics of a rectangle of count entries. */
void
pe_field_stats_init(struct pe_stats *s, uint64_t count)
{
	s->mean = NAN;
	s->min = NAN;
	s->max = NAN;
	s->resultant = 1.0;
	s->count = count;
	s->masked = 0;
	s->undefined = 0;
	s->minmax_exact = false;
}

/* Mean of a block of a wave similarity: per frequency
 * Re(sum_p e^{i p w} conj(sum_q e^{i q w})) / (np nq) (pe_trig_cross). */
static void
field_wave_sim_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                     size_t c1, struct pe_stats *dest)
{
	size_t nfreq;
	const double *w = pe_field_wave_freqs(f, &nfreq);
	double sum = 0.0;

	for (size_t i = 0; i < nfreq; i++)
		sum += pe_trig_cross(w[i], r0, r1 - r0, c0, c1 - c0);
	sum /= (double)dest->count;
	if (f->cfg->enc == PE_ENC_ROPE) {
		double s = f->rope.attention_scaling;
		sum = s * s * sum + (double)((f->rope.d - f->rope.rot) / 2);
	}
	dest->mean = sum;
}

/* Fold value v into running min/max. */
void
pe_field_fold(double v, double *lo, double *hi)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* Exact min and max of the finite entries of a block when the scan fits in
 * FIELD_SCAN_BUDGET; otherwise they stay NAN and minmax_exact false. */
static void
field_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
             size_t c1, struct pe_stats *dest)
{
	const struct pe_config *cfg = f->cfg;
	uint64_t nr = r1 - r0, nc = c1 - c0;
	double lo = INFINITY, hi = -INFINITY;

	if (f->kind == PE_FIELD_SIMILARITY && cfg->enc == PE_ENC_NOPE) {
		lo = hi = 0.0;
	} else if (field_is_wave_sim(f)) {
		/* S depends on k = i - j only: scan the distinct diagonals. */
		size_t nfreq;
		pe_field_wave_freqs(f, &nfreq);
		if ((nr + nc - 1) * (uint64_t)nfreq > FIELD_SCAN_BUDGET)
			return;
		for (int64_t k = (int64_t)r0 - (int64_t)(c1 - 1);
		     k <= (int64_t)(r1 - 1) - (int64_t)c0; k++)
			pe_field_fold(field_wave_sim(f, (double)k), &lo, &hi);
	} else if (f->kind == PE_FIELD_PATCH_COSINE) {
		pe_field_patch_minmax(f, r0, r1, c0, c1, &lo, &hi);
	} else {
		uint64_t cost = f->kind == PE_FIELD_SIMILARITY ? cfg->d : 1;
		if (nr > FIELD_SCAN_BUDGET / nc / cost)
			return;
		if (field_is_wave(f) &&
		    pe_field_scan_minmax(f, r0, r1, c0, c1, &lo, &hi) == PE_OK)
			goto done;
		if (cfg->enc == PE_ENC_LEARNED) {
			/* rows (and, for similarity, columns) past the table
			 * are NAN: scan the defined ones only */
			size_t L = pe_field_learned_rows(cfg);
			r1 = r1 < L ? r1 : L;
			if (f->kind == PE_FIELD_SIMILARITY)
				c1 = c1 < L ? c1 : L;
		}
		for (size_t r = r0; r < r1; r++)
			for (size_t c = c0; c < c1; c++)
				pe_field_fold(pe_field_value(f, r, c), &lo,
				              &hi);
	}
done:
	if (lo <= hi) {
		dest->min = lo;
		dest->max = hi;
	}
	dest->minmax_exact = true;
}

/* Statistics of rows [r0, r1) x cols [c0, c1). */
int
pe_field_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
               size_t c1, bool minmax, struct pe_stats *dest)
{
	if (f == NULL || f->cfg == NULL || dest == NULL || r0 >= r1 ||
	    r1 > f->rows || c0 >= c1 || c1 > f->cols)
		return PE_EINVAL;
	const struct pe_config *cfg = f->cfg;

	pe_field_stats_init(dest, (uint64_t)(r1 - r0) * (c1 - c0));
	switch (f->kind) {
	case PE_FIELD_BIAS:
	case PE_FIELD_MASK:
	case PE_FIELD_RELATIVE:
		return pe_diag_block(f, r0, r1, c0, c1, minmax, dest);
	case PE_FIELD_PE:
		if (cfg->enc == PE_ENC_LEARNED)
			pe_field_learned_block(f, r0, r1, c0, c1, dest);
		else if (cfg->enc == PE_ENC_VIT2D)
			pe_field_patch_block(f, r0, r1, c0, c1, dest);
		else
			pe_field_wave_block(f, r0, r1, c0, c1, dest);
		break;
	case PE_FIELD_ROPE_ANGLE:
	case PE_FIELD_ROPE_COS:
	case PE_FIELD_ROPE_SIN:
		pe_field_wave_block(f, r0, r1, c0, c1, dest);
		break;
	case PE_FIELD_SIMILARITY:
		if (cfg->enc == PE_ENC_NOPE)
			dest->mean = 0.0;
		else if (cfg->enc == PE_ENC_LEARNED)
			pe_field_learned_block(f, r0, r1, c0, c1, dest);
		else
			field_wave_sim_block(f, r0, r1, c0, c1, dest);
		break;
	case PE_FIELD_PATCH_COSINE: {
		int rc = pe_field_patch_block(f, r0, r1, c0, c1, dest);
		if (rc != PE_OK)
			return rc;
		break;
	}
	default:
		return PE_EINVAL;
	}
	if (minmax)
		field_minmax(f, r0, r1, c0, c1, dest);
	return PE_OK;
}

/* Block k of nblocks tiling [lo, hi): [lo + k n / nb, lo + (k+1) n / nb),
 * widened to one item when there are more blocks than items. */
void
pe_field_span(size_t lo, size_t hi, size_t nblocks, size_t k, size_t *b0,
              size_t *b1)
{
	if (hi <= lo || nblocks == 0) {
		*b0 = *b1 = lo;
		return;
	}
	unsigned __int128 n = hi - lo;
	size_t a = lo + (size_t)(n * k / nblocks);
	size_t b = lo + (size_t)(n * (k + 1) / nblocks);
	if (a >= hi)
		a = hi - 1;
	if (b <= a)
		b = a + 1;
	if (b > hi)
		b = hi;
	*b0 = a;
	*b1 = b;
}

/* Per-block geometric sums D(n, w) e^{i mid w/2} for every frequency of nb
 * blocks tiling [lo, hi): block b's real parts at dest[b * 2F + i], its
 * imaginary parts at dest[b * 2F + F + i]. */
static int
field_geo_blocks(const double *wr, const double *hc, const double *hs,
                 size_t nf, size_t lo, size_t hi, size_t nb, double *dest)
{
	struct field_tiling ti;

	if (pe_field_tiling_init(&ti, wr, hc, hs, nf, lo, hi, nb) != PE_OK)
		return PE_ENOMEM;
	for (size_t b = 0; b < nb; b++) {
		pe_field_tiling_next(&ti);
		double *row = dest + b * 2 * nf;
		pe_field_tiling_sums(&ti, row, row + nf);
	}
	pe_field_tiling_free(&ti);
	return PE_OK;
}

/* Doubles of a similarity grid's dot products done per pass (cache tile). */
#define FIELD_DOT_TILE 256

/* Dot product of a[n] and b[n] with eight accumulators (the additions are
 * independent, so they pipeline and vectorise). */
static double
field_dot(const double *a, const double *b, size_t n)
{
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
	size_t k = 0;

	for (; k + 8 <= n; k += 8) {
		s0 += a[k] * b[k];
		s1 += a[k + 1] * b[k + 1];
		s2 += a[k + 2] * b[k + 2];
		s3 += a[k + 3] * b[k + 3];
		s4 += a[k + 4] * b[k + 4];
		s5 += a[k + 5] * b[k + 5];
		s6 += a[k + 6] * b[k + 6];
		s7 += a[k + 7] * b[k + 7];
	}
	double sum = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
	for (; k < n; k++)
		sum += a[k] * b[k];
	return sum;
}

/* Grids whose distinct blocks are worth finding (field_sim_unique): at
 * most this many cells (its tables stay small) ... */
#define FIELD_SIM_DEDUP_CELLS 4096
/* ... and at least this many frequencies (a dot product costs more than
 * hashing a key). */
#define FIELD_SIM_DEDUP_FREQS 64

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
	for (size_t bi = 0; bi < nr; bi++) {
		size_t p0, p1;
		pe_field_span(r0, r1, nr, bi, &p0, &p1);
		for (size_t bj = 0; bj < nc; bj++) {
			size_t q0, q1;
			pe_field_span(c0, c1, nc, bj, &q0, &q1);
			struct field_sim_key k = field_sim_key(p0, p1, q0, q1);
			uint64_t h = (k.lo * 0x9e3779b97f4a7c15ULL) ^
			             (k.hi * 0xbf58476d1ce4e5b9ULL) ^
			             (k.dm * 0x94d049bb133111ebULL);
			size_t at = (size_t)(h ^ (h >> 29)) & (cap - 1);
			for (;; at = (at + 1) & (cap - 1)) {
				size_t u = slot[at];
				if (u == 0) {
					slot[at] = (uint32_t)(nu + 1);
					key[nu] = k;
					rep[nu] = (uint32_t)(bi * nc + bj);
					uid[bi * nc + bj] = (uint32_t)nu++;
					break;
				}
				if (key[u - 1].lo == k.lo &&
				    key[u - 1].hi == k.hi &&
				    key[u - 1].dm == k.dm) {
					uid[bi * nc + bj] = (uint32_t)(u - 1);
					break;
				}
			}
		}
	}
	free(slot);
	free(key);
	return nu;
}

/* Grid of a wave similarity: mean(i, j) = Re(G_i . conj(H_j)) / (np nq)
 * with the per-block geometric sums G and H (field_geo_blocks), once per
 * distinct block (field_sim_unique), a chunk of frequencies at a time:
 * memory O(FIELD_SIM_SCRATCH + nr nc) at any d. */
static int
field_wave_sim_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
                    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t nf, ncell = nr * nc;
	int rc = PE_ENOMEM;

	pe_field_wave_freqs(f, &nf);
	/* G and H of a pass within FIELD_SIM_SCRATCH doubles, in whole dot
	 * tiles (FIELD_DOT_TILE / 2 frequencies) when they fit */
	size_t chunk = FIELD_SIM_SCRATCH / (2 * (nr + nc));
	if (chunk >= FIELD_DOT_TILE / 2)
		chunk -= chunk % (FIELD_DOT_TILE / 2);
	chunk = chunk < 8 ? 8 : chunk;
	chunk = chunk > nf ? nf : chunk;

	const double *wr, *hc, *hs;
	pe_field_wave_pre(f, &wr, &hc, &hs);
	bool dedup =
	    ncell <= FIELD_SIM_DEDUP_CELLS && nf >= FIELD_SIM_DEDUP_FREQS;
	double *G = malloc((nr + nc) * 2 * (chunk ? chunk : 1) * sizeof *G);
	uint32_t *uid = NULL, *rep = NULL;
	double *acc = NULL;
	size_t nu = ncell;
	if (G == NULL)
		goto end;
	double *H = G + nr * 2 * chunk;
	if (dedup) {
		uid = malloc(2 * ncell * sizeof *uid);
		acc = calloc(ncell, sizeof *acc);
		if (uid == NULL || acc == NULL)
			goto end;
		rep = uid + ncell;
		nu = field_sim_unique(r0, r1, nr, c0, c1, nc, uid, rep);
		if (nu == 0)
			goto end;
	} else {
		for (size_t i = 0; i < ncell; i++)
			dest[i].mean = 0.0;
	}
	for (size_t k0 = 0; k0 < nf; k0 += chunk) {
		size_t kn = nf - k0 < chunk ? nf - k0 : chunk;
		if (field_geo_blocks(wr + k0, hc + k0, hs + k0, kn, r0, r1, nr,
		                     G) != PE_OK ||
		    field_geo_blocks(wr + k0, hc + k0, hs + k0, kn, c0, c1, nc,
		                     H) != PE_OK)
			goto end;
		/* tiles of FIELD_DOT_TILE doubles, added in frequency order */
		for (size_t t0 = 0; t0 < 2 * kn; t0 += FIELD_DOT_TILE) {
			size_t tn = 2 * kn - t0 < FIELD_DOT_TILE
			                ? 2 * kn - t0
			                : FIELD_DOT_TILE;
			for (size_t u = 0; u < nu; u++) {
				size_t cell = dedup ? rep[u] : u;
				size_t bi = cell / nc, bj = cell % nc;
				double *a = dedup ? &acc[u] : &dest[u].mean;
				*a += field_dot(G + bi * 2 * kn + t0,
				                H + bj * 2 * kn + t0, tn);
			}
		}
	}

	double s2 = 1.0, pass = 0.0;
	if (f->cfg->enc == PE_ENC_ROPE) {
		s2 = f->rope.attention_scaling * f->rope.attention_scaling;
		pass = (double)((f->rope.d - f->rope.rot) / 2);
	}
	for (size_t bi = 0; bi < nr; bi++) {
		size_t p0, p1;
		pe_field_span(r0, r1, nr, bi, &p0, &p1);
		for (size_t bj = 0; bj < nc; bj++) {
			size_t q0, q1;
			pe_field_span(c0, c1, nc, bj, &q0, &q1);
			struct pe_stats *st = &dest[bi * nc + bj];
			double sum = dedup ? acc[uid[bi * nc + bj]] : st->mean;
			pe_field_stats_init(st,
			                    (uint64_t)(p1 - p0) * (q1 - q0));
			st->mean = s2 * sum / (double)st->count + pass;
		}
	}
	rc = PE_OK;
end:
	free(G);
	free(uid);
	free(acc);
	return rc;
}

/* Similarity means of one row block [r0, r1) against nc column blocks:
 * mean_j = s^2 sum_f D(np) D(nq) cos((mq - mp) h_f) / (np nq) + pass, with
 * the column tiling's phasors started at mid - mp, so that each block is
 * one sum over the frequencies (no per-block sums stored, no dot products
 * of them). */
static int
field_wave_sim_row(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                   size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t nf;
	const double *wr, *hc, *hs;

	pe_field_wave_freqs(f, &nf);
	pe_field_wave_pre(f, &wr, &hc, &hs);
	uint64_t np = r1 - r0, mp = 2 * (uint64_t)r0 + np - 1;
	if (mp > INT64_MAX)
		return PE_ENOMEM;
	double *Dp = malloc(
	    (nf < FIELD_WAVE_CHUNK ? nf : FIELD_WAVE_CHUNK) * sizeof *Dp + 1);
	if (Dp == NULL)
		return PE_ENOMEM;
	for (size_t j = 0; j < nc; j++)
		dest[j].mean = 0.0;
	for (size_t k0 = 0; k0 < nf; k0 += FIELD_WAVE_CHUNK) {
		size_t kn =
		    nf - k0 < FIELD_WAVE_CHUNK ? nf - k0 : FIELD_WAVE_CHUNK;
		struct field_tiling row, ti;
		/* D(np) of the one row block: its tiling's Dn */
		if (pe_field_tiling_init(&row, wr + k0, hc + k0, hs + k0, kn,
		                         r0, r1, 1) != PE_OK) {
			free(Dp);
			return PE_ENOMEM;
		}
		memcpy(Dp, row.Dn, kn * sizeof *Dp);
		pe_field_tiling_free(&row);
		if (pe_field_tiling_init(&ti, wr + k0, hc + k0, hs + k0, kn, c0,
		                         c1, nc) != PE_OK) {
			free(Dp);
			return PE_ENOMEM;
		}
		ti.off = (int64_t)mp;
		for (size_t j = 0; j < nc; j++) {
			pe_field_tiling_next(&ti);
			double a0 = 0.0, a1 = 0.0;
			size_t i = 0;
			for (; i + 2 <= kn; i += 2) {
				a0 += Dp[i] * ti.D[i] * ti.c[i];
				a1 += Dp[i + 1] * ti.D[i + 1] * ti.c[i + 1];
			}
			for (; i < kn; i++)
				a0 += Dp[i] * ti.D[i] * ti.c[i];
			dest[j].mean += a0 + a1;
		}
		pe_field_tiling_free(&ti);
	}
	free(Dp);

	double s2 = 1.0, pass = 0.0;
	if (f->cfg->enc == PE_ENC_ROPE) {
		s2 = f->rope.attention_scaling * f->rope.attention_scaling;
		pass = (double)((f->rope.d - f->rope.rot) / 2);
	}
	for (size_t j = 0; j < nc; j++) {
		size_t q0, q1;
		pe_field_span(c0, c1, nc, j, &q0, &q1);
		double sum = dest[j].mean;
		pe_field_stats_init(&dest[j], np * (q1 - q0));
		dest[j].mean = s2 * sum / (double)dest[j].count + pass;
	}
	return PE_OK;
}

/* Means of an nr x nc grid of blocks tiling rows [r0, r1) x cols [c0, c1). */
int
pe_field_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
              size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	if (f == NULL || f->cfg == NULL || dest == NULL || r0 >= r1 ||
	    r1 > f->rows || c0 >= c1 || c1 > f->cols || nr == 0 || nc == 0)
		return PE_EINVAL;
	if (field_is_wave(f) &&
	    pe_field_wave_grid(f, r0, r1, nr, c0, c1, nc, dest) == PE_OK)
		return PE_OK;
	if (field_is_wave_sim(f) && nr == 1 &&
	    field_wave_sim_row(f, r0, r1, c0, c1, nc, dest) == PE_OK)
		return PE_OK;
	if (field_is_wave_sim(f) &&
	    field_wave_sim_grid(f, r0, r1, nr, c0, c1, nc, dest) == PE_OK)
		return PE_OK;
	if (f->kind == PE_FIELD_PATCH_COSINE) {
		int rc = pe_field_patch_grid(f, r0, r1, nr, c0, c1, nc, dest);
		if (rc != PE_ENOMEM)
			return rc;
	}
	if (f->cfg->enc == PE_ENC_LEARNED &&
	    pe_field_learned_grid(f, r0, r1, nr, c0, c1, nc, dest) == PE_OK)
		return PE_OK;
	for (size_t bi = 0; bi < nr; bi++) {
		size_t p0, p1;
		pe_field_span(r0, r1, nr, bi, &p0, &p1);
		for (size_t bj = 0; bj < nc; bj++) {
			size_t q0, q1;
			pe_field_span(c0, c1, nc, bj, &q0, &q1);
			int rc = pe_field_block(f, p0, p1, q0, q1, false,
			                        &dest[bi * nc + bj]);
			if (rc != PE_OK)
				return rc;
		}
	}
	return PE_OK;
}

/* Similarity profile dest[k] = S(p, p + k), NAN past the last position. */
int
pe_field_profile(const struct pe_field *f, size_t p, size_t nk, double *dest)
{
	if (f == NULL || f->cfg == NULL || f->kind != PE_FIELD_SIMILARITY ||
	    (nk > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t k = 0; k < nk; k++)
		dest[k] = p < f->rows && k < f->rows - p
		              ? pe_field_value(f, p, p + k)
		              : NAN;
	return PE_OK;
}
