/* Waves: sinusoidal PE (Vaswani et al. 2017) and RoPE's cos, sin and angle
 * tables (Su et al. 2021; HF transformers modeling_rope_utils.py), columns
 * of sin or cos of p w, or p w mod 2 pi.
 *
 * A block's mean sums each column in closed form along positions with
 * Lagrange's identity (trig.h), so a block of B rows x C columns costs
 * O(C). A grid walks its row blocks with one phasor per frequency (struct
 * field_tiling) and adds each frequency to the column blocks that show it
 * (struct field_wave_terms). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/clones.h"
#include "kernel/field_impl.h"
#include "kernel/trig.h"
#include "pescope/sinusoidal.h"

/* Frequencies of a wave field, and how many: its rope's (rope, and any
 * module that sets one up, as xpos), else omega. */
const double *
pe_field_wave_freqs(const struct pe_field *f, size_t *nfreq)
{
	if (f->rope.inv_freq != NULL) {
		*nfreq = f->rope.npairs;
		return f->rope.inv_freq;
	}
	*nfreq = f->nomega;
	return f->omega;
}

/* Frequency index and function of column c of a wave field. RoPE cos/sin
 * columns follow the pairing: half is HF's cat(freqs, freqs), interleaved
 * repeats each frequency twice. */
void
pe_field_wave_column(const struct pe_field *f, size_t c, size_t *freq,
                     enum field_fn *fn)
{
	int is_cos;

	switch (f->kind) {
	case PE_FIELD_ROPE_ANGLE:
		*freq = c;
		*fn = FIELD_FN_ANGLE;
		return;
	case PE_FIELD_ROPE_COS:
	case PE_FIELD_ROPE_SIN:
		*freq = f->rope.pairing == PE_PAIR_INTERLEAVED
		            ? c / 2
		            : c % f->rope.npairs;
		*fn =
		    f->kind == PE_FIELD_ROPE_COS ? FIELD_FN_COS : FIELD_FN_SIN;
		return;
	default:
		pe_sinusoidal_column(c, f->cfg->d, f->cfg->layout, freq,
		                     &is_cos);
		*fn = is_cos ? FIELD_FN_COS : FIELD_FN_SIN;
		return;
	}
}

/* Amplitude of a wave: HF multiplies rope cos and sin by attention_scaling. */
double
pe_field_wave_scale(const struct pe_field *f)
{
	return f->rope.inv_freq != NULL ? f->rope.attention_scaling : 1.0;
}

/* A wave field's frequencies prepared once, at f->prefix: wr[F] reduced
 * (pe_trig_reduce), then cos(wr/2)[F] and sin(wr/2)[F], so that grids
 * need no sincos of them (pe_field_tiling_init). */
int
pe_field_wave_prepare(struct pe_field *f)
{
	size_t nf;
	const double *w = pe_field_wave_freqs(f, &nf);

	f->prefix = malloc(3 * (nf ? nf : 1) * sizeof *f->prefix);
	if (f->prefix == NULL)
		return PE_ENOMEM;
	double *wr = f->prefix, *hc = wr + nf, *hs = hc + nf;
	for (size_t i = 0; i < nf; i++) {
		wr[i] = pe_trig_reduce(w[i]);
		sincos(0.5 * wr[i], &hs[i], &hc[i]);
	}
	return PE_OK;
}

/* The arrays of pe_field_wave_prepare: wr, cos(wr/2), sin(wr/2). */
void
pe_field_wave_pre(const struct pe_field *f, const double **wr,
                  const double **hc, const double **hs)
{
	size_t nf;

	pe_field_wave_freqs(f, &nf);
	*wr = f->prefix;
	*hc = f->prefix + nf;
	*hs = f->prefix + 2 * nf;
}

/* A sinusoid's wave field: its layout's frequencies (omega), prepared
 * (field_wave_prepare). */
int
pe_field_wave_init(struct pe_field *f)
{
	const struct pe_config *cfg = f->cfg;

	f->nomega = cfg->d / 2;
	f->omega = malloc(f->nomega * sizeof *f->omega);
	if (f->omega == NULL)
		return PE_ENOMEM;
	for (size_t i = 0; i < f->nomega; i++)
		f->omega[i] = pe_sinusoidal_freq(i, cfg->d, cfg->base, cfg->layout);
	return pe_field_wave_prepare(f);
}

/* A rope's wave field: its inv_freq and column count (the rope),
 * prepared. */
int
pe_field_wave_init_rope(struct pe_field *f)
{
	int rc = pe_rope_init(&f->rope, f->cfg);

	return rc != PE_OK ? rc : pe_field_wave_prepare(f);
}

/* Value at position p of a wave field's function fn of frequency w. */
double
pe_field_wave_exact(const struct pe_field *f, size_t p, double w,
                    enum field_fn fn)
{
	double t = (double)p * w;
	if (fn == FIELD_FN_ANGLE) {
		double a = fmod(t, PE_TWO_PI);
		return a < 0.0 ? a + PE_TWO_PI : a;
	}
	return (fn == FIELD_FN_COS ? cos(t) : sin(t)) * pe_field_wave_scale(f);
}

/* Value of column c at position p of a wave field. */
double
pe_field_wave_value(const struct pe_field *f, size_t p, size_t c)
{
	size_t nfreq, i;
	enum field_fn fn;
	const double *w = pe_field_wave_freqs(f, &nfreq);

	pe_field_wave_column(f, c, &i, &fn);
	return pe_field_wave_exact(f, p, w[i], fn);
}

/* Circular statistics of n blocks from their sums of sines ts[i] and
 * cosines tc[i] over dest[i].count entries (Mardia & Jupp 2000, section
 * 2.2.1): the circular mean atan2(ts, tc) in [0, 2 pi) and the mean
 * resultant length sqrt(ts^2 + tc^2) / count (the sum of squares: the sums
 * are at most count, far from overflow; within 2 ulp of hypot's), all n
 * at once (pe_trig_polar_many: SLEEF's vector atan2, within 3.5 ulp);
 * w is 3 n doubles of scratch. */
void
pe_field_circular(const double *ts, const double *tc, size_t n, double *w,
                  struct pe_stats *dest)
{
	double *cnt = w, *m = w + n, *r = w + 2 * n;

	for (size_t i = 0; i < n; i++)
		cnt[i] = (double)dest[i].count;
	pe_trig_polar_many(ts, tc, cnt, n, m, r);
	for (size_t i = 0; i < n; i++) {
		dest[i].mean = m[i];
		dest[i].resultant = r[i];
	}
}

/* Write n cells' statistics whole: mean[i], resultant res[i] (res NULL:
 * 1), count[i] entries, none masked or undefined, no min or max (what
 * field_stats_init and a grid's two results set), each cell in one go. A
 * picture's cells are tens of megabytes, past the core's cache:
 * initialising them and then storing the two results was a second pass
 * over them and ten stores a cell. */
PE_CLONES void
pe_field_stats_put(const double *mean, const double *res,
    const uint64_t *count, size_t n, struct pe_stats *dest)
{
	for (size_t i = 0; i < n; i++)
		dest[i] = (struct pe_stats){.mean = mean[i], .min = NAN,
		    .max = NAN, .resultant = res != NULL ? res[i] : 1.0,
		    .count = count[i]};
}

/* Circular statistics of n cells of count[i] entries (cnt[i] the same
 * as doubles) from their sums of sines ts[i] and cosines tc[i], as
 * pe_field_circular gives them, written whole (pe_field_stats_put); w: 2 n
 * doubles of scratch. */
void
pe_field_circular_put(const double *ts, const double *tc, const double *cnt,
    const uint64_t *count, size_t n, double *w, struct pe_stats *dest)
{
	pe_trig_polar_many(ts, tc, cnt, n, w, w + n);
	pe_field_stats_put(w, w + n, count, n, dest);
}

/* A block's statistics from its sums of sines ts and cosines tc over
 * dest->count entries: the mean of a sin/cos field; for angles the
 * circular statistics (pe_field_circular). */
static void
field_wave_finish(const struct pe_field *f, double ts, double tc,
                  struct pe_stats *dest)
{
	if (f->kind == PE_FIELD_ROPE_ANGLE) {
		double w[3];
		pe_field_circular(&ts, &tc, 1, w, dest);
		return;
	}
	dest->mean = (ts + tc) * pe_field_wave_scale(f) / (double)dest->count;
}

/* Mean (and circular statistics) of rows [r0, r1) x cols [c0, c1) of a wave
 * field: per column one closed-form trig sum over the rows (Lagrange). */
void
pe_field_wave_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                    size_t c1, struct pe_stats *dest)
{
	size_t nfreq, last = SIZE_MAX;
	const double *w = pe_field_wave_freqs(f, &nfreq);
	uint64_t n = r1 - r0;
	double s = 0.0, c = 0.0, ts = 0.0, tc = 0.0;

	for (size_t col = c0; col < c1; col++) {
		size_t i;
		enum field_fn fn;
		pe_field_wave_column(f, col, &i, &fn);
		if (i != last) {
			pe_trig_sum(0.0, w[i], r0, n, &s, &c);
			last = i;
		}
		if (fn == FIELD_FN_COS)
			tc += c;
		else if (fn == FIELD_FN_SIN)
			ts += s;
		else {
			ts += s;
			tc += c;
		}
	}
	field_wave_finish(f, ts, tc, dest);
}

/* What a column block sums of a wave grid: terms (block, frequency, how
 * many sine and cosine columns of it), grouped by frequency chunk and, in
 * a chunk, by block. iw packs i << 4 | sines << 2 | cosines. For the sums
 * (field_wave_add) a chunk's blocks are also laid out padded: each has
 * the chunk's most terms, width[k], its own then terms of no columns
 * (adding 0 to a sum that is 0 or not changes no bit: x + 0 is x, and
 * +0 + -0 is +0, the sums starting at +0), so that the loop over a
 * block's terms has one length a chunk and the branch predictor always
 * guesses its end (a length of 3 or 4, as pixels of 3.7 columns have,
 * missed about once a block: a third of the sums' time). */
struct field_wave_terms {
	uint32_t *blk, *iw;
	size_t *start; /* chunk k: terms [start[k], start[k + 1]) */
	size_t nchunk;
	uint32_t *pblk;	/* padded: the blocks of chunk k, [bstart[k],
			   bstart[k + 1]) */
	uint32_t *piw;	/* their terms, width[k] a block, from pstart[k] */
	size_t *bstart, *pstart, *width;
};

/* Build the terms of nc column blocks tiling [c0, c1) of a wave field with
 * nfreq frequencies; PE_ENOMEM on failure. */
static int
field_wave_terms_init(const struct pe_field *f, size_t c0, size_t c1, size_t nc,
                      size_t nfreq, struct field_wave_terms *t)
{
	size_t ncol = c1 - c0, nterm = 0, cap = ncol > nc ? ncol : nc;
	uint32_t *blk = malloc(cap * sizeof *blk);
	uint32_t *iw = malloc(cap * sizeof *iw);

	*t = (struct field_wave_terms){0};
	t->nchunk = (nfreq + FIELD_WAVE_CHUNK - 1) / FIELD_WAVE_CHUNK;
	t->start = calloc(t->nchunk + 2, sizeof *t->start);
	t->blk = malloc(cap * sizeof *t->blk);
	t->iw = malloc(cap * sizeof *t->iw);
	if (blk == NULL || iw == NULL || t->start == NULL || t->blk == NULL ||
	    t->iw == NULL) {
		free(blk);
		free(iw);
		return PE_ENOMEM;
	}
	/* per block, its columns as terms; a frequency's sine and cosine
	 * columns side by side (interleaved layouts) merge into one term */
	for (size_t bj = 0; bj < nc; bj++) {
		size_t q0, q1, first = nterm;
		field_span(c0, c1, nc, bj, &q0, &q1);
		for (size_t q = q0; q < q1; q++) {
			size_t i;
			enum field_fn fn;
			pe_field_wave_column(f, q, &i, &fn);
			uint32_t add = fn == FIELD_FN_SIN   ? 1u << 2
			               : fn == FIELD_FN_COS ? 1u
			                                    : 1u << 2 | 1u;
			if (nterm > first && iw[nterm - 1] >> 4 == i) {
				iw[nterm - 1] += add;
				continue;
			}
			blk[nterm] = (uint32_t)bj;
			iw[nterm++] = (uint32_t)i << 4 | add;
		}
	}
	/* stable counting sort by chunk: blocks stay in order in a chunk */
	for (size_t j = 0; j < nterm; j++)
		t->start[(iw[j] >> 4) / FIELD_WAVE_CHUNK + 2]++;
	for (size_t k = 2; k < t->nchunk + 2; k++)
		t->start[k] += t->start[k - 1];
	for (size_t j = 0; j < nterm; j++) {
		size_t at = t->start[(iw[j] >> 4) / FIELD_WAVE_CHUNK + 1]++;
		t->blk[at] = blk[j];
		t->iw[at] = iw[j];
	}
	free(blk);
	free(iw);
	/* the padded layout: per chunk its blocks and their widest */
	t->bstart = calloc(4 * (t->nchunk + 1), sizeof *t->bstart);
	if (t->bstart == NULL)
		return PE_ENOMEM;
	t->pstart = t->bstart + t->nchunk + 1;
	t->width = t->pstart + t->nchunk + 1;
	size_t nblk = 0, npad = 0;
	for (size_t k = 0; k < t->nchunk; k++) {
		size_t most = 0;
		for (size_t j = t->start[k]; j < t->start[k + 1];) {
			size_t e = j + 1;
			while (e < t->start[k + 1] && t->blk[e] == t->blk[j])
				e++;
			most = e - j > most ? e - j : most;
			nblk++;
			j = e;
		}
		t->width[k] = most;
		t->bstart[k + 1] = nblk;
		npad += (t->bstart[k + 1] - t->bstart[k]) * most;
		t->pstart[k + 1] = npad;
	}
	t->pblk = malloc((nblk ? nblk : 1) * sizeof *t->pblk);
	t->piw = malloc((npad ? npad : 1) * sizeof *t->piw);
	if (t->pblk == NULL || t->piw == NULL)
		return PE_ENOMEM;
	for (size_t k = 0, b = 0, q = 0; k < t->nchunk; k++) {
		for (size_t j = t->start[k]; j < t->start[k + 1]; b++) {
			size_t e = j;
			t->pblk[b] = t->blk[j];
			/* a pad: the block's first frequency, no columns */
			uint32_t pad = t->iw[j] >> 4 << 4;
			for (; e < t->start[k + 1] && t->blk[e] == t->blk[j];
			    e++)
				t->piw[q++] = t->iw[e];
			for (size_t w = e - j; w < t->width[k]; w++)
				t->piw[q++] = pad;
			j = e;
		}
	}
	return PE_OK;
}

/* Release a wave grid's terms. */
static void
field_wave_terms_free(struct field_wave_terms *t)
{
	free(t->blk);
	free(t->iw);
	free(t->start);
	free(t->bstart);
	free(t->pblk);
	free(t->piw);
}

/* Row blocks a wave grid adds up at once: each one a lane of a vector,
 * with the scalar loop's operations in its order (a product, then a sum:
 * contraction is off), so the same bits. */
#define FIELD_WAVE_LANES 4
typedef double field_wave_v __attribute__((vector_size(8 * FIELD_WAVE_LANES)));

/* Chunks of frequencies a wave grid walks at once (their tilings' memory,
 * about 32 KiB each at FIELD_WAVE_CHUNK frequencies). */
#define FIELD_WAVE_GROUP 16

/* Release the first n tilings of ti (those never made have c NULL). */
static void
field_wave_tilings_free(struct field_tiling *ti, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (ti[k].c != NULL)
			pe_field_tiling_free(&ti[k]);
}

/* The next nb row blocks' sums of tiling ti's nf frequencies, lane by
 * lane: CL[i L + l], SL[i L + l] (lanes past nb zero). */
static void
field_wave_lanes(struct field_tiling *ti, size_t nb, size_t nf, double *CL,
    double *SL)
{
	if (nb == 4 && FIELD_WAVE_LANES == 4) {
		pe_field_tiling_next4(ti, CL, SL);
		return;
	}
	for (size_t l = 0; l < FIELD_WAVE_LANES; l++) {
		if (l < nb) {
			pe_field_tiling_next_at(ti, CL + l, SL + l,
			    FIELD_WAVE_LANES);
			continue;
		}
		for (size_t i = 0; i < nf; i++) {
			SL[i * FIELD_WAVE_LANES + l] = 0.0;
			CL[i * FIELD_WAVE_LANES + l] = 0.0;
		}
	}
}

/* Add chunk k's terms (its frequencies from flo) to the running sums of
 * a group of row blocks, a vector of lanes a column block: per column
 * block, its terms' sum (width[k] of them, padded), then that sum to the
 * block's sines at acc[2 L bj] and cosines at acc[2 L bj + L]. Built for
 * the vector units too (PE_CLONES: the same operations in the same
 * order). */
PE_CLONES static void
field_wave_add(const struct field_wave_terms *tm, size_t k, size_t flo,
    const double *CL, const double *SL, double *acc)
{
	static const double count[4] = {0.0, 1.0, 2.0, 3.0};
	const uint32_t *restrict blk = tm->pblk + tm->bstart[k];
	const uint32_t *restrict iw = tm->piw + tm->pstart[k];
	size_t nb = tm->bstart[k + 1] - tm->bstart[k], width = tm->width[k];

	for (size_t b = 0; b < nb; b++, iw += width) {
		field_wave_v ts = {0}, tc = {0}, vs, vc;
		for (size_t j = 0; j < width; j++) {
			uint32_t v = iw[j];
			size_t i = (v >> 4) - flo;
			memcpy(&vs, SL + i * FIELD_WAVE_LANES, sizeof vs);
			memcpy(&vc, CL + i * FIELD_WAVE_LANES, sizeof vc);
			ts += count[v >> 2 & 3] * vs;
			tc += count[v & 3] * vc;
		}
		double *a = acc + 2 * FIELD_WAVE_LANES * (size_t)blk[b];
		memcpy(&vs, a, sizeof vs);
		memcpy(&vc, a + FIELD_WAVE_LANES, sizeof vc);
		vs += ts;
		vc += tc;
		memcpy(a, &vs, sizeof vs);
		memcpy(a + FIELD_WAVE_LANES, &vc, sizeof vc);
	}
}

/* Finish lane l of a group's running sums acc (field_wave_add) into a
 * row of nc blocks of len rows each, qw[bj] columns wide (qwd[bj] as a
 * double): every cell written whole into row (pe_field_stats_put), angles
 * all at once (pe_field_circular_put); or (row NULL) only the means and
 * resultants, in fin. *out says where they are. fin: 6 nc doubles of
 * scratch. A count as a double is len qwd[bj], the one rounding of the
 * integer len qw[bj] as (double)(len qw[bj]) is (the same bits), so the
 * means' loop needs no integer conversion and runs on the vector units
 * (PE_CLONES). */
PE_CLONES static void
field_wave_finish_row(const struct pe_field *f, const double *acc, size_t l,
    struct pe_stats *row, size_t nc, const size_t *qw, const double *qwd,
    size_t len, double *fin, struct pe_field_row *out)
{
	double *ts = fin, *tc = fin + nc, *cd = fin + 2 * nc, *m = fin + 3 * nc;
	uint64_t *cnt = (uint64_t *)(void *)(fin + 5 * nc);
	double lend = (double)len;

	for (size_t bj = 0; bj < nc; bj++) {
		ts[bj] = acc[2 * FIELD_WAVE_LANES * bj + l];
		tc[bj] = acc[2 * FIELD_WAVE_LANES * bj + FIELD_WAVE_LANES + l];
		cd[bj] = lend * qwd[bj];
	}
	/* the counts as integers: the cells' alone */
	for (size_t bj = 0; row != NULL && bj < nc; bj++)
		cnt[bj] = (uint64_t)len * qw[bj];
	*out = (struct pe_field_row){row, row != NULL ? NULL : m, NULL};
	if (f->kind == PE_FIELD_ROPE_ANGLE) {
		if (row != NULL)
			pe_field_circular_put(ts, tc, cd, cnt, nc, m, row);
		else
			pe_trig_polar_many(ts, tc, cd, nc, m, m + nc);
		out->resultant = row != NULL ? NULL : m + nc;
		return;
	}
	/* field_wave_finish's mean */
	double scale = pe_field_wave_scale(f);
	for (size_t bj = 0; bj < nc; bj++)
		m[bj] = (ts[bj] + tc[bj]) * scale / cd[bj];
	if (row != NULL)
		pe_field_stats_put(m, NULL, cnt, nc, row);
}

/* Grid of a wave field: per row-block the closed-form sums of every
 * frequency (struct field_tiling), FIELD_WAVE_CHUNK frequencies at a time,
 * added to the column blocks that show them (struct field_wave_terms);
 * O(nr (F + cols) + nr nc) arithmetic and O(F) sincos per
 * FIELD_PHASOR_ANCHOR row-blocks. Rows are finished in order, in the last
 * group of chunks: into dest, or (row not NULL) each handed to row as its
 * means and resultants once it is finished. */
static int
field_wave_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest,
    pe_field_row_fn *row, void *arg)
{
	size_t nfreq;
	const double *wr, *hc, *hs;
	struct field_wave_terms tm;
	struct field_cells it;
	double *S = NULL;
	size_t *qw = NULL;
	int rc = PE_ENOMEM;

	pe_field_wave_freqs(f, &nfreq);
	pe_field_wave_pre(f, &wr, &hc, &hs);
	if (nfreq >= (size_t)1 << 28 || nc > UINT32_MAX)
		return PE_ENOMEM;
	if (field_wave_terms_init(f, c0, c1, nc, nfreq, &tm) != PE_OK)
		goto end;
	/* the lanes' sums, frequency by frequency: SL[i L + l]; then the
	 * running sums of the row blocks (field_wave_add), a group of
	 * FIELD_WAVE_LANES at a time: of the group in hand when one group of
	 * chunks covers every frequency, else of every group (the groups of
	 * chunks add to them in turn) */
	size_t ngroup = (tm.nchunk + FIELD_WAVE_GROUP - 1) / FIELD_WAVE_GROUP;
	size_t nacc = 2 * FIELD_WAVE_LANES * nc *
	    (ngroup > 1 ? (nr + FIELD_WAVE_LANES - 1) / FIELD_WAVE_LANES : 1);
	S = malloc((2 * FIELD_WAVE_LANES * FIELD_WAVE_CHUNK + nacc) *
	    sizeof *S);
	if (S == NULL)
		goto end;
	double *SL = S;
	double *CL = SL + FIELD_WAVE_LANES * FIELD_WAVE_CHUNK;
	double *accs = CL + FIELD_WAVE_LANES * FIELD_WAVE_CHUNK;
	/* the column blocks' widths, for the counts; a row's sums of sines
	 * and cosines, its counts and its circular means
	 * (field_wave_finish_row) */
	qw = malloc(nc * sizeof *qw + 7 * nc * sizeof(double));
	if (qw == NULL)
		goto end;
	double *qwd = (double *)(void *)(qw + nc), *fin = qwd + nc;
	for (size_t bj = 0; bj < nc; bj++) {
		size_t q0, q1;
		field_span(c0, c1, nc, bj, &q0, &q1);
		qw[bj] = q1 - q0;
		qwd[bj] = (double)qw[bj];
	}
	/* FIELD_WAVE_GROUP chunks at once, each its own tiling, row block
	 * after row block: a row's sums stay in cache while every chunk of
	 * the group adds to them (one pass over dest a group, not a chunk).
	 * A block still adds its chunks in their order: the same bits. */
	for (size_t g0 = 0; g0 < tm.nchunk; g0 += FIELD_WAVE_GROUP) {
		size_t g1 = g0 + FIELD_WAVE_GROUP < tm.nchunk
		    ? g0 + FIELD_WAVE_GROUP : tm.nchunk;
		size_t flo[FIELD_WAVE_GROUP], nfs[FIELD_WAVE_GROUP];
		struct field_tiling ti[FIELD_WAVE_GROUP];
		size_t made = 0;
		if (pe_field_interrupted()) {
			rc = PE_EINTR;
			goto end;
		}
		for (size_t k = g0; k < g1; k++, made++) {
			size_t j0 = tm.start[k], j1 = tm.start[k + 1];
			ti[k - g0].c = NULL;
			nfs[k - g0] = 0;
			if (j0 == j1)
				continue;
			/* the chunk's frequencies that some column shows */
			size_t lo = SIZE_MAX, hi = 0;
			for (size_t j = j0; j < j1; j++) {
				size_t i = tm.iw[j] >> 4;
				lo = i < lo ? i : lo;
				hi = i > hi ? i : hi;
			}
			flo[k - g0] = lo;
			nfs[k - g0] = hi - lo + 1;
			if (pe_field_tiling_init(&ti[k - g0], wr + lo, hc + lo,
			        hs + lo, hi - lo + 1, r0, r1, nr) != PE_OK) {
				field_wave_tilings_free(ti, made);
				goto end;
			}
		}
		/* FIELD_WAVE_LANES row blocks at a time, each a lane (lanes
		 * past the last block add zeros and are dropped) */
		for (size_t bi = 0; bi < nr; bi += FIELD_WAVE_LANES) {
			size_t nb = nr - bi < FIELD_WAVE_LANES ? nr - bi
			                                       : FIELD_WAVE_LANES;
			struct pe_stats *rows = row != NULL ? NULL : dest +
			    bi * nc;
			double *acc = ngroup > 1 ? accs + 2 * bi * nc : accs;
			if (g0 == 0)
				memset(acc, 0, 2 * FIELD_WAVE_LANES * nc *
				    sizeof *acc);
			for (size_t k = g0; k < g1; k++) {
				size_t j0 = tm.start[k], j1 = tm.start[k + 1];
				size_t nf = nfs[k - g0];
				if (j0 == j1)
					continue;
				field_wave_lanes(&ti[k - g0], nb, nf, CL, SL);
				field_wave_add(&tm, k, flo[k - g0], CL, SL, acc);
			}
			/* the last group: these rows are whole, finished
			 * while in cache */
			for (size_t l = 0; g1 == tm.nchunk && l < nb; l++) {
				size_t p0, p1;
				field_span(r0, r1, nr, bi + l, &p0, &p1);
				struct pe_field_row done;
				field_wave_finish_row(f, acc, l, rows != NULL ?
				    rows + l * nc : NULL, nc, qw, qwd, p1 - p0,
				    fin, &done);
				int said = row != NULL ? row(arg, bi + l, &done)
				    : PE_OK;
				if (said != PE_OK) {
					field_wave_tilings_free(ti, made);
					rc = said;
					goto end;
				}
			}
		}
		field_wave_tilings_free(ti, made);
	}
	if (tm.nchunk == 0) { /* no terms: every block's sums are 0 */
		field_cells_start(&it, r0, r1, nr, c0, c1, nc);
		while (field_cells_next(&it)) {
			struct pe_stats *cell = &dest[row != NULL ? it.bj :
			    it.k];
			field_stats_init(cell, it.count);
			field_wave_finish(f, 0.0, 0.0, cell);
			int said = row != NULL && it.bj == nc - 1 ?
			    row(arg, it.bi, &(struct pe_field_row){dest, NULL,
			    NULL}) : PE_OK;
			if (said != PE_OK) {
				rc = said;
				goto end;
			}
		}
	}
	rc = PE_OK;
end:
	free(qw);
	free(S);
	field_wave_terms_free(&tm);
	return rc;
}

/* Grid of means of a wave field (field_wave_grid). */
int
pe_field_wave_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	return field_wave_grid(f, r0, r1, nr, c0, c1, nc, dest, NULL, NULL);
}

/* Its rows handed on as finished (field_wave_grid). */
int
pe_field_wave_rows(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *scratch,
    pe_field_row_fn *row, void *arg)
{
	return field_wave_grid(f, r0, r1, nr, c0, c1, nc, scratch, row, arg);
}
