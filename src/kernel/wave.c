/* Rows of sines and cosines (pescope/wave.h): the anchors and tables of
 * the fast accuracy, the choice of instruction set, and the generic loops
 * (libm, as pe_sinusoidal_value computes one value).
 *
 * PE_WAVE_F32 walks every row p down three levels: p = b + 16u + v with b
 * a multiple of 64, u < 4, v < 16. The block's anchor, sin and cos of
 * fl(b w), is exact (the instruction set's sincos); the anchor of
 * q = b + 16u comes from it by angle addition with the step table (sin,
 * cos of fl(16u w)), corrected to fl(q w) to second order; row p from q's
 * anchor with the row table (fl(v w)), corrected to fl(p w) to first
 * order. Each
 * correction r = fl(p w) - fl(q w) - fl(v w) is exact (Sterbenz: q >= v
 * or q = 0, and fl(p w) - fl(q w) is within a factor 2 of fl(v w)), and r
 * is below 2 ulps of p w. So a row's values depend on p alone, whatever
 * rows a call asks for; the tables a row reads stay small (20 entries),
 * and the sincos is 1/64 of the work. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kernel/trig.h"
#include "kernel/wave_impl.h"

/* Bytes the two angle-addition tables may take (20 x 2 doubles a
 * frequency); past it (nw above 13,056) the rows are exact. */
#define WAVE_TABLE_BYTES ((size_t)4 << 20)
/* Rows of a block (an exact anchor) and of a step (an anchor by angle
 * addition): the step table has WAVE_NSTEP entries, the row table
 * WAVE_STEP. */
#define WAVE_BLOCK 64
#define WAVE_STEP 16
#define WAVE_NSTEP (WAVE_BLOCK / WAVE_STEP)
#define WAVE_ENTRIES (WAVE_NSTEP + WAVE_STEP)
/* Frequencies a tile of pe_wave_rows covers: its part of the tables
 * (20 x 2 x 128 doubles, 40 KiB) and of the anchors stays near the
 * first-level cache. */
#define WAVE_TILE 128

/* Place pair j's values (a = first, b = second) as out says, as doubles
 * or (f32) as floats. */
static inline void
wave_put(const struct pe_wave_out *out, size_t half, size_t j, double s,
         double c, void *dest, bool f32)
{
	double a = (out->cos1 ? c : s) * out->scale;
	double b = (out->cos2 ? c : s) * out->scale;
	size_t ia = out->pairs ? 2 * j : j;
	size_t ib = out->pairs ? 2 * j + 1 : half + j;
	if (f32) {
		((float *)dest)[ia] = (float)a;
		((float *)dest)[ib] = (float)b;
	} else {
		((double *)dest)[ia] = a;
		((double *)dest)[ib] = b;
	}
}

/* Generic exact loop: libm's sin and cos of fl(p w_j). */
static inline void
wave_exact_body(const double *w, size_t nw, size_t half, double p,
                const struct pe_wave_out *out, void *dest, bool f32)
{
	for (size_t j = 0; j < nw; j++) {
		double t = p * w[j];
		wave_put(out, half, j, sin(t), cos(t), dest, f32);
	}
}

static void
wave_exact_generic(const double *w, size_t nw, size_t half, double p,
                   const struct pe_wave_out *out, double *dest)
{
	wave_exact_body(w, nw, half, p, out, dest, false);
}

static void
wave_exact32_generic(const double *w, size_t nw, size_t half, double p,
                     const struct pe_wave_out *out, float *dest)
{
	wave_exact_body(w, nw, half, p, out, dest, true);
}

/* Generic step, the angle addition to second order:
 * sin(a0 + am) = s0 cm + c0 sm = S, cos(a0 + am) = c0 cm - s0 sm = C, and
 * with r = fl(q w) - a0 - am (exact; a0 = fl(b w), am = fl(m w)),
 * sin(a0 + am + r) = S (1 - r^2/2) + C r, cos = C (1 - r^2/2) - S r. */
static void
wave_step_generic(const double *w, size_t nw, double q, double m,
                  const double *s0, const double *c0, const double *sm,
                  const double *cm, double *s, double *c)
{
	double b = q - m;

	for (size_t j = 0; j < nw; j++) {
		double r = (q * w[j] - b * w[j]) - m * w[j], h = 0.5 * r * r;
		double S = s0[j] * cm[j] + c0[j] * sm[j];
		double C = c0[j] * cm[j] - s0[j] * sm[j];
		s[j] = (S - S * h) + C * r;
		c[j] = (C - C * h) - S * r;
	}
}

/* Generic rows, the angle addition to first order: row q + v for v = v0
 * .. v0 + nrows - 1 from q's anchor (s0, c0) and the level-1 table's
 * entry v (sines at t1 + v tstride, cosines nw1 after). */
static inline void
wave_rows_body(const double *w, size_t nw, size_t half, double q, size_t v0,
               size_t nrows, const double *s0, const double *c0,
               const double *t1, size_t nw1, size_t tstride,
               const struct pe_wave_out *out, void *dest, size_t stride,
               bool f32)
{
	size_t es = f32 ? sizeof(float) : sizeof(double);

	for (size_t i = 0; i < nrows; i++) {
		const double *sv = t1 + (v0 + i) * tstride, *cv = sv + nw1;
		double v = (double)(v0 + i), p = q + v;
		void *row = (char *)dest + i * stride * es;
		for (size_t j = 0; j < nw; j++) {
			double r = (p * w[j] - q * w[j]) - v * w[j];
			double S = s0[j] * cv[j] + c0[j] * sv[j];
			double C = c0[j] * cv[j] - s0[j] * sv[j];
			wave_put(out, half, j, S + C * r, C - S * r, row, f32);
		}
	}
}

static void
wave_rows_generic(const double *w, size_t nw, size_t half, double q,
                  size_t v0, size_t nrows, const double *s0, const double *c0,
                  const double *t1, size_t nw1, size_t tstride,
                  const struct pe_wave_out *out, void *dest, size_t stride,
                  bool f32)
{
	if (f32)
		wave_rows_body(w, nw, half, q, v0, nrows, s0, c0, t1, nw1,
		    tstride, out, dest, stride, true);
	else
		wave_rows_body(w, nw, half, q, v0, nrows, s0, c0, t1, nw1,
		    tstride, out, dest, stride, false);
}

/* Generic anchor: libm's sin and cos. */
static void
wave_anchor_generic(const double *w, size_t nw, size_t half, double p,
                    double *s)
{
	for (size_t j = 0; j < nw; j++)
		sincos(p * w[j], &s[j], &s[half + j]);
}

static const struct wave_isa wave_generic = {"generic", wave_exact_generic,
	wave_exact32_generic, wave_anchor_generic, wave_step_generic,
	wave_rows_generic, NULL};

/* The loops in use, chosen at the first wave (no thread fills before its
 * wave is made). */
static const struct wave_isa *wave_isa_in_use;

/* The best loops this CPU runs. */
static const struct wave_isa *
wave_pick(void)
{
#if defined(PE_WAVE_X86)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		return &pe_wave_avx512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return &pe_wave_avx2;
#endif
	return &wave_generic;
}

/* The loops in use. */
static const struct wave_isa *
wave_isa(void)
{
	if (wave_isa_in_use == NULL)
		wave_isa_in_use = wave_pick();
	return wave_isa_in_use;
}

/* Name of the loops in use. */
const char *
pe_wave_isa(void)
{
	return wave_isa()->name;
}

/* Force the loops named name (tests). */
bool
pe_wave_force_isa(const char *name)
{
	const struct wave_isa *isa = NULL;

	if (strcmp(name, "generic") == 0)
		isa = &wave_generic;
#if defined(PE_WAVE_X86)
	__builtin_cpu_init();
	if (strcmp(name, "avx512") == 0 && __builtin_cpu_supports("avx512f"))
		isa = &pe_wave_avx512;
	if (strcmp(name, "avx2") == 0 && __builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("fma"))
		isa = &pe_wave_avx2;
#endif
	if (isa != NULL)
		wave_isa_in_use = isa;
	return isa != NULL;
}

/* Largest |p w| the anchors' sincos holds to its bound (SLEEF's u35:
 * 1e14); past it the exact loop's. */
#define WAVE_ANCHOR_MAX 1e14

/* sin and cos of fl(p w_j) of nw frequencies (of largest |w| wmax): the
 * sines at s, the cosines at s + half; the anchors' sincos where it holds,
 * else the exact one. */
static void
wave_anchor(const struct wave_isa *isa, const double *w, size_t nw,
            double wmax, double p, size_t half, double *s)
{
	static const struct pe_wave_out halves = {false, false, true, 1.0};

	if (p * wmax < WAVE_ANCHOR_MAX)
		isa->anchor(w, nw, half, p, s);
	else
		isa->exact(w, nw, half, p, &halves, s);
}

/* Bytes on a cache line's start: the loops' vector loads then never
 * straddle two lines. NULL when out of memory. */
static void *
wave_alloc(size_t bytes)
{
	void *p = NULL;
	return posix_memalign(&p, 64, bytes > 0 ? bytes : 64) == 0 ? p : NULL;
}

/* Entry e of tile t of a wave's tables: e < 4 is the step table's entry
 * e (sin, cos of fl(16e w_j)), e >= 4 the row table's entry e - 4 (of
 * fl((e - 4) w_j)): WAVE_TILE sines, then WAVE_TILE cosines, of the
 * tile's frequencies. A tile's entries are one block of memory, so the
 * rows of a tile read 40 KiB and no two entries compete for a cache set. */
static double *
wave_entry(const struct pe_wave *wv, size_t t, size_t e)
{
	return wv->tab + (t * WAVE_ENTRIES + e) * 2 * WAVE_TILE;
}

/* The serials of the waves made so far (pe_wave.serial). */
static atomic_ulong wave_serials;

/* Prepare the frequencies and, for PE_WAVE_F32, the two tables: entry m
 * of the step table is sin and cos of fl(16 m w_j), of the row table of
 * fl(m w_j) (wave_entry). */
int
pe_wave_init(struct pe_wave *wv, const double *w, size_t nw,
             enum pe_wave_accuracy acc)
{
	const struct wave_isa *isa = wave_isa();
	size_t per = WAVE_ENTRIES * 2 * sizeof(double);

	memset(wv, 0, sizeof *wv);
	if (nw == 0 || w == NULL || nw > SIZE_MAX / per)
		return PE_EINVAL;
	for (size_t j = 0; j < nw; j++)
		if (!isfinite(w[j]))
			return PE_EINVAL;
	if ((wv->w = wave_alloc(nw * sizeof *wv->w)) == NULL)
		return PE_ENOMEM;
	memcpy(wv->w, w, nw * sizeof *wv->w);
	wv->nw = nw;
	for (size_t j = 0; j < nw; j++)
		wv->wmax = fmax(wv->wmax, fabs(w[j]));
	wv->block = 1;
	size_t ntile = (nw + WAVE_TILE - 1) / WAVE_TILE;
	if (acc != PE_WAVE_F32 || ntile * WAVE_TILE * per > WAVE_TABLE_BYTES)
		return PE_OK;
	if ((wv->tab = wave_alloc(ntile * WAVE_TILE * per)) == NULL) {
		pe_wave_free(wv);
		return PE_ENOMEM;
	}
	wv->block = WAVE_BLOCK;
	wv->serial = atomic_fetch_add(&wave_serials, 1) + 1;
	for (size_t t = 0; t < ntile; t++) {
		size_t j0 = t * WAVE_TILE;
		size_t nj = nw - j0 < WAVE_TILE ? nw - j0 : WAVE_TILE;
		for (size_t e = 0; e < WAVE_ENTRIES; e++) {
			double m = (double)(e < WAVE_NSTEP ? e * WAVE_STEP
			    : e - WAVE_NSTEP);
			double *at = wave_entry(wv, t, e);
			memset(at, 0, 2 * WAVE_TILE * sizeof *at);
			wave_anchor(isa, wv->w + j0, nj, wv->wmax, m, WAVE_TILE, at);
		}
	}
	return PE_OK;
}

/* Release a wave. */
void
pe_wave_free(struct pe_wave *wv)
{
	free(wv->w);
	free(wv->tab);
	memset(wv, 0, sizeof *wv);
}

/* A thread's anchors of the blocks it reached last, one block a tile, of
 * the wave it filled last (by its serial, with the loops that made them):
 * dump asks for rows a chunk at a time, and a chunk of fewer rows than a
 * block (16 rows of d 8192) starts in the block the chunk before it ended
 * in; the similarity's cosine sums ask 16 rows at a time, vit2d's pe a
 * grid row at a time. The anchors are the same bits whoever made them, so a row's values
 * still depend on p alone. */
struct wave_memo {
	size_t bytes;		/* of the mapping the memo is */
	unsigned long serial;	/* 0: none */
	const struct wave_isa *isa;
	size_t ntile;
	bool turn;		/* the tiles' order (wave_rows) */
	size_t *b;		/* [ntile]: the block tile t holds, or SIZE_MAX */
	double *anc;		/* [ntile][2 WAVE_TILE]: sines, then cosines */
};

static pthread_key_t wave_memo_key;
static pthread_once_t wave_memo_once = PTHREAD_ONCE_INIT;
static bool wave_memo_ok;

/* Release a thread's memo (at its exit, or for a larger one). */
static void
wave_memo_free(void *p)
{
	struct wave_memo *m = p;

	if (m != NULL)
		munmap(m, m->bytes);
}

/* Make the key of the threads' memos, once. */
static void
wave_memo_key_make(void)
{
	wave_memo_ok = pthread_key_create(&wave_memo_key, wave_memo_free) == 0;
}

/* A memo of ntile tiles, empty, in pages of its own: mapped, not taken
 * from malloc's heap, so that it moves nothing the program allocates
 * later (the same buffers at the same offsets, whether a wave was filled
 * before or not). NULL when out of memory. */
static struct wave_memo *
wave_memo_map(size_t ntile)
{
	size_t head = (sizeof(struct wave_memo) + 63) / 64 * 64;
	size_t anc = ntile * 2 * WAVE_TILE * sizeof(double);
	size_t bytes = head + anc + ntile * sizeof(size_t);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	struct wave_memo *m = p;
	memset(m, 0, sizeof *m);
	m->bytes = bytes;
	m->ntile = ntile;
	m->anc = (double *)(void *)((char *)p + head);
	m->b = (size_t *)(void *)((char *)p + head + anc);
	return m;
}

/* This thread's memo, made ready for wv and isa (emptied when it held
 * another wave's); NULL when there is none to be had (no memory): the
 * anchors are then made on the stack, as without it. */
static struct wave_memo *
wave_memo(const struct pe_wave *wv, const struct wave_isa *isa)
{
	size_t ntile = (wv->nw + WAVE_TILE - 1) / WAVE_TILE;
	struct wave_memo *m;

	if (pthread_once(&wave_memo_once, wave_memo_key_make) != 0 ||
	    !wave_memo_ok)
		return NULL;
	m = pthread_getspecific(wave_memo_key);
	if (m != NULL && m->serial == wv->serial && m->isa == isa)
		return m;
	if (m == NULL || m->ntile < ntile) {
		struct wave_memo *grown = wave_memo_map(ntile);
		if (grown == NULL)
			return NULL;
		if (pthread_setspecific(wave_memo_key, grown) != 0) {
			wave_memo_free(grown);
			return NULL;
		}
		wave_memo_free(m);
		m = grown;
	}
	for (size_t t = 0; t < m->ntile; t++)
		m->b[t] = SIZE_MAX;
	m->serial = wv->serial;
	m->isa = isa;
	return m;
}

/* Rows p0 .. p0+npos-1 of tile j0 .. j0+nj-1, angle addition, into dest
 * (the first row's start); anc holds 6 WAVE_TILE doubles (the block's
 * anchor, then two steps'); memo, when not NULL, this thread's anchors
 * of the tile (its block at *mb), used when they are the block's and
 * left holding the last block's. */
static void
wave_tile_add(const struct wave_isa *isa, const struct pe_wave *wv,
              size_t j0, size_t nj, size_t p0, size_t npos,
              const struct pe_wave_out *out, double *anc, double *memo,
              size_t *mb, void *dest, size_t stride, bool f32)
{
	size_t nw = wv->nw, es = f32 ? sizeof(float) : sizeof(double);
	size_t ts = 2 * WAVE_TILE, bcur = SIZE_MAX, ucur = SIZE_MAX;
	const double *w = wv->w + j0, *t8 = wave_entry(wv, j0 / WAVE_TILE, 0);
	const double *t1 = wave_entry(wv, j0 / WAVE_TILE, WAVE_NSTEP);
	double *bs = memo != NULL ? memo : anc, *bc = bs + WAVE_TILE;
	double *us = anc + 2 * WAVE_TILE, *uc = us + WAVE_TILE;
	double *vs = anc + 4 * WAVE_TILE;
	const double *s0 = bs, *c0 = bc;
	char *at = (char *)dest + (out->pairs ? 2 * j0 : j0) * es;

	for (size_t k = 0; k < npos;) {
		size_t p = p0 + k, b = p - p % WAVE_BLOCK;
		size_t u = (p - b) / WAVE_STEP, q = b + u * WAVE_STEP;
		if (b != bcur) {
			if (memo == NULL || *mb != b)
				wave_anchor(isa, w, nj, wv->wmax, (double)b, WAVE_TILE,
				    bs);
			if (memo != NULL)
				*mb = b;
			bcur = b;
			ucur = SIZE_MAX;
		}
		if (u != ucur) {
			const double *e = t8 + u * ts;
			if (u == 0) {
				s0 = bs, c0 = bc;
			} else {
				isa->step(w, nj, (double)q, (double)(q - b), bs, bc, e,
				    e + WAVE_TILE, us, uc);
				s0 = us, c0 = uc;
			}
			ucur = u;
		}
		size_t v0 = p - q, nrows = WAVE_STEP - v0;
		if (v0 == 0 && u + 1 < WAVE_NSTEP && npos - k >= 2 * WAVE_STEP &&
		    isa->rows2 != NULL) {
			/* this step and the next whole: the next's anchor, then
			 * both steps' rows in one pass over the row table */
			const double *e = t8 + (u + 1) * ts;
			isa->step(w, nj, (double)(q + WAVE_STEP),
			    (double)(q + WAVE_STEP - b), bs, bc, e, e + WAVE_TILE, vs,
			    vs + WAVE_TILE);
			isa->rows2(w, nj, nw, (double)q, s0, c0, vs, vs + WAVE_TILE,
			    t1, WAVE_TILE, ts, out, at + k * stride * es, stride, f32);
			k += 2 * WAVE_STEP;
			continue;
		}
		if (nrows > npos - k)
			nrows = npos - k;
		isa->rows(w, nj, nw, (double)q, v0, nrows, s0, c0, t1, WAVE_TILE,
		    ts, out, at + k * stride * es, stride, f32);
		k += nrows;
	}
}

/* Rows p0 .. p0+npos-1 as out says, as doubles or (f32) floats, a tile
 * of WAVE_TILE frequencies at a time over all the rows, so that the tile's
 * part of the tables and anchors stays in cache. */
static int
wave_rows(const struct pe_wave *wv, size_t p0, size_t npos,
          const struct pe_wave_out *out, void *dest, size_t stride, bool f32)
{
	const struct wave_isa *isa = wave_isa();
	size_t es = f32 ? sizeof(float) : sizeof(double);
	_Alignas(64) double anc[6 * WAVE_TILE];

	if (wv == NULL || wv->w == NULL || out == NULL ||
	    (npos > 0 && dest == NULL) || stride < 2 * wv->nw)
		return PE_EINVAL;
	struct wave_memo *memo = wv->block > 1 && npos > 0 ?
	    wave_memo(wv, isa) : NULL;
	size_t ntile = (wv->nw + WAVE_TILE - 1) / WAVE_TILE;
	bool back = memo != NULL && (memo->turn ^= 1);
	for (size_t k0 = 0; k0 < ntile; k0++) {
		size_t t = back ? ntile - 1 - k0 : k0, j0 = t * WAVE_TILE;
		size_t nj = wv->nw - j0 < WAVE_TILE ? wv->nw - j0 : WAVE_TILE;
		if (wv->block > 1) {
			wave_tile_add(isa, wv, j0, nj, p0, npos, out, anc,
			    memo != NULL ? memo->anc + t * 2 * WAVE_TILE : NULL,
			    memo != NULL ? &memo->b[t] : NULL, dest, stride, f32);
			continue;
		}
		size_t at = out->pairs ? 2 * j0 : j0;
		for (size_t k = 0; k < npos; k++) {
			char *row = (char *)dest + (k * stride + at) * es;
			if (f32)
				isa->exact32(wv->w + j0, nj, wv->nw,
				    (double)(p0 + k), out, (float *)row);
			else
				isa->exact(wv->w + j0, nj, wv->nw, (double)(p0 + k),
				    out, (double *)row);
		}
	}
	return PE_OK;
}

/* Rows p0 .. p0+npos-1 as out says (doubles). */
int
pe_wave_rows(const struct pe_wave *wv, size_t p0, size_t npos,
             const struct pe_wave_out *out, double *dest, size_t stride)
{
	return wave_rows(wv, p0, npos, out, dest, stride, false);
}

/* The same rows as floats. */
int
pe_wave_rows_f32(const struct pe_wave *wv, size_t p0, size_t npos,
                 const struct pe_wave_out *out, float *dest, size_t stride)
{
	return wave_rows(wv, p0, npos, out, dest, stride, true);
}

/* Sums of the cosines of rows p0 .. p0+npos-1, in frequency order: the
 * rows WAVE_STEP at a time, each summed on its own. */
int
pe_wave_cos_sums(const struct pe_wave *wv, size_t p0, size_t npos,
                 double *dest)
{
	static const struct pe_wave_out halves = {false, false, true, 1.0};

	if (wv == NULL || wv->w == NULL || (npos > 0 && dest == NULL))
		return PE_EINVAL;
	size_t nw = wv->nw;
	double *rows = malloc(WAVE_STEP * 2 * nw * sizeof *rows);
	if (rows == NULL)
		return PE_ENOMEM;
	for (size_t k = 0; k < npos; k += WAVE_STEP) {
		size_t n = npos - k < WAVE_STEP ? npos - k : WAVE_STEP;
		int st = wave_rows(wv, p0 + k, n, &halves, rows, 2 * nw, false);
		if (st != PE_OK) {
			free(rows);
			return st;
		}
		for (size_t i = 0; i < n; i++) {
			double sum = 0.0;
			for (size_t j = 0; j < nw; j++)
				sum += rows[i * 2 * nw + nw + j];
			dest[k + i] = sum;
		}
	}
	free(rows);
	return PE_OK;
}

/* cos and sin of x h[i] for n frequencies (trig.h), with the exact loop
 * in use: the cosines first, the sines stride after. */
void
pe_trig_sincos_many(const double *h, size_t n, size_t stride, double x,
                    double *c)
{
	static const struct pe_wave_out cos_sin = {false, true, false, 1.0};

	if (n > 0)
		wave_isa()->exact(h, n, stride, x, &cos_sin, c);
}

/* pe_trig_runs with libm: the formulas of trig.h, one frequency at a
 * time. */
static void
wave_runs_generic(const struct pe_trig_freqs *fr, size_t n,
                  const struct pe_trig_run *run, size_t nrun, bool add,
                  double *re, double *im)
{
	for (size_t k = 0; k < n; k++) {
		double h = fr->h[k], ish = fr->ish[k];
		double sr = add ? re[k] : 0.0, si = add ? im[k] : 0.0;
		for (size_t r = 0; r < nrun; r++) {
			const struct pe_trig_run *u = &run[r];
			double s, c, d = 1.0, sl, cl;
			if (u->anchor < 0) {
				sincos(u->mid * h, &s, &c);
				if (u->len != 1.0)
					d = ish == 0.0 ? u->len : sin(u->len * h) * ish;
			} else {
				if (u->len == 1.0) {
					sl = fr->sh[k];
					cl = fr->ch[k];
				} else {
					sincos(u->len * h, &sl, &cl);
					d = ish == 0.0 ? u->len : sl * ish;
				}
				double ac = fr->ac[u->anchor][k];
				double as = fr->as[u->anchor][k];
				if (u->anchor == 1)
					sl = -sl;
				c = ac * cl - as * sl;
				s = as * cl + ac * sl;
			}
			sr += u->mult * (d * c);
			si += u->mult * (d * s);
		}
		re[k] = sr;
		im[k] = si;
	}
}

/* Runs' sums for n frequencies (trig.h), with the loops in use. */
void
pe_trig_runs(const struct pe_trig_freqs *fr, size_t n,
             const struct pe_trig_run *run, size_t nrun, bool add,
             double *re, double *im)
{
#if defined(PE_WAVE_X86)
	if (wave_isa() == &pe_wave_avx512) {
		pe_wave_avx512_runs(fr, n, run, nrun, add, re, im);
		return;
	}
#endif
	wave_runs_generic(fr, n, run, nrun, add, re, im);
}
