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
 * size: the pairs of one axis, all its runs at once (pe_trig_runs,
 * vectorised with SLEEF); a run that starts at the vision block's first
 * position N or ends at an axis's last turns the anchor's phase, prepared
 * at init, by its length: one sincos a pair gives its Dirichlet factor and
 * its phase. The angle map keeps its runs' sums from row block to row
 * block and turns a run's from a kept one of its length (struct
 * mrope_kept). A score block is
 * Re sum_j G_j(rows) conj(G_j(cols)) with G the sum of e^{i p w_j} over a
 * range; grids keep G per row block and per column block, a chunk of pairs
 * at a time, and take one dot product per cell (pe_field_dots):
 * O((nr + nc) pairs runs + nr nc pairs). The patch map, separable by axis,
 * sums per-anchor tables of each axis (its frames, rows and columns),
 * O(map + cells), or, past their budget, the closed forms per row block
 * and per column block, O((nr + nc) pairs runs). */
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

/* What mrope_init prepares (at f->prefix): the pairs sorted by axis (in
 * index order within one), and per sorted slot half the reduced
 * frequency, its sine, and the phases of the two anchors of its axis. */
struct mrope_pre {
	size_t start[4];  /* axis a's slots: [start[a], start[a + 1]) */
	size_t *order;	  /* slot -> pair */
	bool sorted;	  /* order is the identity (the contiguous layout) */
	double *h, *sh, *ch, *ish; /* pe_trig_reduce(w) / 2, its sin and cos,
				      1 / sin (struct pe_trig_freqs) */
	double *e0c, *e0s; /* cos, sin of (2 N - 1) h: runs from N */
	double *e1c, *e1s; /* of (2 (N + extent) - 1) h: runs to an axis's
			      last vision position (W, H, frames) */
	uint64_t a0, a1[3]; /* the anchors: N, N + extent of each axis */
};

/* Pairs a piece of a factor computation takes (its sums on the stack). */
#define MROPE_PIECE 512

/* The prepared pairs. */
static const struct mrope_pre *
mrope_pre(const struct pe_field *f)
{
	return (const struct mrope_pre *)(const void *)f->prefix;
}

/* inv_freq at f->omega; the sorted pairs and their anchors at f->prefix
 * (struct mrope_pre, one allocation). */
static int
mrope_init(struct pe_field *f)
{
	const struct pe_config *cfg = f->cfg;
	size_t P = mrope_pairs(f), sec[3], n1 = P ? P : 1;

	f->nomega = P;
	f->omega = malloc(n1 * sizeof *f->omega);
	void *mem = malloc(sizeof(struct mrope_pre) + n1 * (sizeof(size_t) +
	    8 * sizeof(double)));
	if (f->omega == NULL || mem == NULL) {
		free(mem);
		return PE_ENOMEM;
	}
	f->prefix = mem;
	struct mrope_pre *pre = mem;
	pre->order = (size_t *)(void *)(pre + 1);
	pre->h = (double *)(void *)(pre->order + n1);
	pre->sh = pre->h + n1;
	pre->ch = pre->sh + n1;
	pre->ish = pre->ch + n1;
	pre->e0c = pre->ish + n1;
	pre->e0s = pre->e0c + n1;
	pre->e1c = pre->e0s + n1;
	pre->e1s = pre->e1c + n1;
	pe_mrope_inv_freq(cfg, f->omega);
	pe_mrope_sections(cfg, sec);
	uint64_t N = cfg->mrope.text_before;
	pre->a0 = N;
	pre->a1[PE_MROPE_T] = N + cfg->mrope.frames;
	pre->a1[PE_MROPE_H] = N + cfg->grid_h;
	pre->a1[PE_MROPE_W] = N + cfg->grid_w;
	size_t slot = 0;
	for (int a = 0; a < 3; a++) {
		pre->start[a] = slot;
		for (size_t j = 0; j < P; j++) {
			if (pe_mrope_pair_axis(cfg, sec, j) != (enum pe_mrope_axis)a)
				continue;
			double h = 0.5 * pe_trig_reduce(f->omega[j]);
			pre->order[slot] = j;
			pre->h[slot] = h;
			sincos(h, &pre->sh[slot], &pre->ch[slot]);
			pre->ish[slot] = pre->sh[slot] == 0.0 ? 0.0
			    : 1.0 / pre->sh[slot];
			sincos((2.0 * (double)N - 1.0) * h, &pre->e0s[slot],
			    &pre->e0c[slot]);
			sincos((2.0 * (double)pre->a1[a] - 1.0) * h,
			    &pre->e1s[slot], &pre->e1c[slot]);
			slot++;
		}
	}
	pre->start[3] = slot;
	pre->sorted = true;
	for (size_t t = 0; t < P; t++)
		pre->sorted = pre->sorted && pre->order[t] == t;
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

/* Runs pe_trig_runs takes per call. */
#define MROPE_NRUN 32

/* The frequencies of the slots from lo (struct pe_trig_freqs). */
static struct pe_trig_freqs
mrope_freqs(const struct mrope_pre *pre, size_t lo)
{
	struct pe_trig_freqs fr = {pre->h + lo, pre->sh + lo, pre->ch + lo,
		pre->ish + lo, {pre->e0c + lo, pre->e1c + lo},
		{pre->e0s + lo, pre->e1s + lo}};
	return fr;
}

/* The run of pe_trig_runs for the k-th of run u of axis a (k 0 but for a
 * run of frames): a run of frames at their times (Qwen2.5-VL's) a frame
 * at a time, a run from N or to the axis's last vision position from its
 * anchor's phase. */
static struct pe_trig_run
mrope_trig_run(const struct pe_field *f, enum pe_mrope_axis a,
    const struct pe_mrope_run *u, uint64_t k)
{
	const struct mrope_pre *pre = mrope_pre(f);
	double len = (double)u->len, mult = (double)u->mult;

	if (u->frames)
		return (struct pe_trig_run){2.0 * (double)pe_mrope_run_pos(f->cfg,
		    u, k), 1.0, mult, -1};
	if (u->p0 == pre->a0)
		return (struct pe_trig_run){0.0, len, mult, 0};
	if (u->p0 + u->len == pre->a1[a])
		return (struct pe_trig_run){0.0, len, mult, 1};
	return (struct pe_trig_run){(double)(2 * u->p0) + len - 1.0, len, mult,
		-1};
}

/* The runs of pe_trig_runs run[nrun] stands for (mrope_trig_run). */
static uint64_t
mrope_trig_count(const struct pe_mrope_run *run, size_t nrun)
{
	uint64_t n = 0;

	for (size_t r = 0; r < nrun; r++)
		n += run[r].frames ? run[r].len : 1;
	return n;
}

/* mult e^{i p w} summed over the runs of axis a into re, im (added to
 * them with add) for the m slots from slot lo (pe_trig_runs). */
static void
mrope_runs(const struct pe_field *f, enum pe_mrope_axis a,
    const struct pe_mrope_run *run, size_t nrun, size_t lo, size_t m,
    bool add, double *re, double *im)
{
	struct pe_trig_freqs fr = mrope_freqs(mrope_pre(f), lo);
	struct pe_trig_run tr[MROPE_NRUN];
	size_t n = 0;

	for (size_t r = 0; r < nrun; r++) {
		for (uint64_t k = 0; k < (run[r].frames ? run[r].len : 1); k++) {
			if (n == MROPE_NRUN) {
				pe_trig_runs(&fr, m, tr, n, add, re, im);
				add = true;
				n = 0;
			}
			tr[n++] = mrope_trig_run(f, a, &run[r], k);
		}
	}
	if (n > 0 || !add)
		pe_trig_runs(&fr, m, tr, n, add, re, im);
}

/* The first slot of axis a whose pair is at least j. */
static size_t
mrope_slot(const struct mrope_pre *pre, int a, size_t j)
{
	size_t lo = pre->start[a], hi = pre->start[a + 1];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pre->order[mid] < j)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Runs an angle map keeps per axis (struct mrope_kept): an image row's
 * row blocks' w runs and some of the next row's (8: 37.6 -> 34.5 ms of
 * CPU a changing 16,400-token d 8192 kitty frame; 16: 32.5; 32: 33.5). */
#define MROPE_KEPT 16

/* Turns an axis keeps (struct mrope_kept): a run's phase turned by the
 * steps between an image row's row blocks (2 len: 32, 34 and their sums
 * for blocks of 16 and 17 tokens). */
#define MROPE_TURNS 4
/* The farthest a run is turned from a kept one (mid's step), and the
 * most turns in a row from a run made directly (each a complex product,
 * an ulp or two: mid h's own rounding is about as large). */
#define MROPE_TURN_STEP 256
#define MROPE_TURN_DEPTH 16

/* An axis's runs' sums with mult 1 (D e^{i mid h}, pe_trig_runs) kept
 * from row block to row block of an angle map. An image's t and h are
 * one position over a row of it and its w runs come back, so most row
 * blocks' runs were seen a row block or a row before; their mults (the
 * tokens a position) differ. A row block computes the runs it has not
 * kept and sums every run's mult times its kept sums in run order (D c
 * with mult 1 is D c). A run not kept whose length a kept one has,
 * mid - Δ before it, is that one turned by e^{i Δ h} (the same D; a
 * table of the turn's sincos a step Δ, kept too): the w runs of an image
 * row's blocks, each a complex product a pair instead of a sincos and a
 * sine. */
struct mrope_kept {
	struct pe_trig_run key[MROPE_KEPT]; /* mult 1 */
	size_t last[MROPE_KEPT]; /* the last row block using it, + 1 (0:
				    empty) */
	int depth[MROPE_KEPT];	 /* turns since it was made directly */
	double *re, *im;	 /* entry e's of slot s: [e ns + s - start] */
	size_t start, ns;
	/* turn q: e^{i step[q] h} of every slot, [2 q ns + s - start] the
	 * cosines, then the sines */
	double step[MROPE_TURNS];
	size_t tlast[MROPE_TURNS]; /* as last */
	double *turn;
	/* the row block's runs: n (0: not kept, the axis through
	 * mrope_runs), their entries, mults and how to make them: fresh
	 * (from[t] < 0: directly, else turning entry from[t] by turn
	 * by[t]); and the turns to make first */
	size_t n;
	int ent[MROPE_KEPT], from[MROPE_KEPT], by[MROPE_KEPT];
	double mult[MROPE_KEPT];
	bool fresh[MROPE_KEPT], tfresh[MROPE_TURNS];
};

/* The turn of step Δ for row block bi: kept, or made into the one least
 * lately used (not this block's: a block turns at most MROPE_KEPT runs,
 * and MROPE_TURNS is fewer, so -1 where none is left). */
static int
mrope_kept_turn(struct mrope_kept *kp, double step, size_t bi)
{
	int q, old = -1;

	for (q = 0; q < MROPE_TURNS; q++)
		if (kp->tlast[q] != 0 && kp->step[q] == step)
			break;
	if (q == MROPE_TURNS) {
		for (int i = 0; i < MROPE_TURNS; i++)
			if (kp->tlast[i] <= bi && (old < 0 ||
			    kp->tlast[i] < kp->tlast[old]))
				old = i;
		if (old < 0)
			return -1;
		q = old;
		kp->step[q] = step;
		kp->tfresh[q] = true;
	}
	kp->tlast[q] = bi + 1;
	return q;
}

/* The entry of a run like u (its length, no anchor) that u turns from:
 * made before block bi, mid at most MROPE_TURN_STEP before u's, under
 * MROPE_TURN_DEPTH turns; the nearest. -1: none. */
static int
mrope_kept_base(const struct mrope_kept *kp, const struct pe_trig_run *u,
    size_t bi)
{
	int best = -1;

	if (u->anchor >= 0)
		return -1;
	for (int q = 0; q < MROPE_KEPT; q++) {
		const struct pe_trig_run *k = &kp->key[q];
		if (kp->last[q] == 0 || kp->last[q] > bi || k->anchor >= 0 ||
		    k->len != u->len || k->mid >= u->mid || u->mid - k->mid >
		    MROPE_TURN_STEP || kp->depth[q] >= MROPE_TURN_DEPTH)
			continue;
		if (best < 0 || k->mid > kp->key[best].mid)
			best = q;
	}
	return best;
}

/* Plan axis a's runs of row block bi: kept where an entry holds the same
 * run, else into the entry least lately used (never one of this block's
 * nor the one it turns from: at most MROPE_KEPT - 1 runs are kept; a
 * later run may take a base, mrope_kept_sums reads it first), made by a
 * turn where one can be (mrope_kept_base), else directly. More runs: none
 * kept (n 0). */
static void
mrope_kept_plan(const struct pe_field *f, enum pe_mrope_axis a,
    const struct mrope_ranges *rg, size_t bi, struct mrope_kept *kp)
{
	const struct pe_mrope_run *run = rg->run[a];
	size_t t = 0;

	kp->n = 0;
	memset(kp->tfresh, 0, sizeof kp->tfresh);
	if (mrope_trig_count(run, rg->n[a]) >= MROPE_KEPT)
		return;
	for (size_t r = 0; r < rg->n[a]; r++) {
		for (uint64_t k = 0; k < (run[r].frames ? run[r].len : 1); k++) {
			struct pe_trig_run u = mrope_trig_run(f, a, &run[r], k);
			int e = -1, old = -1, from = -1;
			kp->mult[t] = u.mult;
			u.mult = 1.0;
			for (int q = 0; q < MROPE_KEPT && e < 0; q++)
				if (kp->last[q] != 0 && kp->key[q].mid == u.mid &&
				    kp->key[q].len == u.len &&
				    kp->key[q].anchor == u.anchor)
					e = q;
			kp->fresh[t] = e < 0;
			kp->from[t] = -1;
			if (e < 0) {
				from = mrope_kept_base(kp, &u, bi);
				for (int q = 0; q < MROPE_KEPT; q++)
					if (q != from && (old < 0 ||
					    kp->last[q] < kp->last[old]))
						old = q;
				e = old; /* last <= bi: not this block's */
				int by = from >= 0 ? mrope_kept_turn(kp,
				    u.mid - kp->key[from].mid, bi) : -1;
				kp->from[t] = by >= 0 ? from : -1;
				kp->by[t] = by;
				kp->depth[e] = by >= 0 ? kp->depth[from] + 1 : 0;
				kp->key[e] = u;
			}
			kp->last[e] = bi + 1;
			kp->ent[t++] = e;
		}
	}
	kp->n = t;
}

/* The sums of the m slots from slot lo (kp's axis) into re, im: the
 * turns to make, the runs turned in run order (a base is read before a
 * later run of the block takes its entry, as only an earlier one can),
 * then those made directly, then every run's mult times its entry added
 * in run order. */
static void
mrope_kept_sums(const struct pe_field *f, struct mrope_kept *kp, size_t lo,
    size_t m, double *re, double *im)
{
	const struct mrope_pre *pre = mrope_pre(f);
	struct pe_trig_freqs fr = mrope_freqs(pre, lo);
	size_t at = lo - kp->start, ns = kp->ns;

	for (int q = 0; q < MROPE_TURNS; q++)
		if (kp->tfresh[q]) /* cos, sin of step h (trig.h) */
			pe_trig_sincos_many(pre->h + lo, m, ns, kp->step[q],
			    kp->turn + 2 * (size_t)q * ns + at);
	for (size_t t = 0; t < kp->n; t++) {
		if (!kp->fresh[t] || kp->from[t] < 0)
			continue;
		double *dr = kp->re + (size_t)kp->ent[t] * ns + at;
		double *di = kp->im + (size_t)kp->ent[t] * ns + at;
		const double *br = kp->re + (size_t)kp->from[t] * ns + at;
		const double *bi = kp->im + (size_t)kp->from[t] * ns + at;
		const double *tc = kp->turn + 2 * (size_t)kp->by[t] * ns + at;
		const double *ts = tc + ns;
		for (size_t j = 0; j < m; j++) {
			double c = br[j], s = bi[j];
			dr[j] = c * tc[j] - s * ts[j];
			di[j] = s * tc[j] + c * ts[j];
		}
	}
	for (size_t t = 0; t < kp->n; t++) {
		size_t e = (size_t)kp->ent[t] * ns + at;
		if (kp->fresh[t] && kp->from[t] < 0)
			pe_trig_runs(&fr, m, &kp->key[kp->ent[t]], 1, false,
			    kp->re + e, kp->im + e);
	}
	for (size_t t = 0; t < kp->n; t++) {
		const double *er = kp->re + (size_t)kp->ent[t] * ns + at;
		const double *ei = kp->im + (size_t)kp->ent[t] * ns + at;
		double mult = kp->mult[t];
		for (size_t j = 0; j < m; j++) { /* from +0, as pe_trig_runs */
			re[j] = (t == 0 ? 0.0 : re[j]) + mult * er[j];
			im[j] = (t == 0 ? 0.0 : im[j]) + mult * ei[j];
		}
	}
}

/* The sums of axis a's m slots from slot lo over the runs rg: kept
 * (kp not NULL, planned) or made (mrope_runs). */
static void
mrope_axis_sums(const struct pe_field *f, enum pe_mrope_axis a,
    const struct mrope_ranges *rg, struct mrope_kept *kp, size_t lo,
    size_t m, double *re, double *im)
{
	if (kp != NULL && kp->n > 0)
		mrope_kept_sums(f, kp, lo, m, re, im);
	else
		mrope_runs(f, a, rg->run[a], rg->n[a], lo, m, false, re, im);
}

/* G_j = sum over the runs rg of its axis of mult e^{i p w_j} for pairs
 * [k0, k0 + kn): re[k], im[k] for pair k0 + k; each axis's pairs in pieces
 * of MROPE_PIECE slots, a run at a time. The pairs of an axis a with
 * keep[a] (keep NULL: none) are left as they are; kp (NULL: none) the
 * three axes' kept runs, planned for rg. */
static void
mrope_factors(const struct pe_field *f, const struct mrope_ranges *rg,
    size_t k0, size_t kn, const bool *keep, struct mrope_kept *kp,
    double *re, double *im)
{
	const struct mrope_pre *pre = mrope_pre(f);
	double ar[MROPE_PIECE], ai[MROPE_PIECE];

	for (int a = 0; a < 3; a++) {
		if (keep != NULL && keep[a])
			continue;
		enum pe_mrope_axis ax = (enum pe_mrope_axis)a;
		struct mrope_kept *ka = kp != NULL ? &kp[a] : NULL;
		size_t lo = mrope_slot(pre, a, k0), hi = mrope_slot(pre, a, k0 + kn);
		if (pre->sorted) { /* slot t is pair t: straight into re, im */
			mrope_axis_sums(f, ax, rg, ka, lo, hi - lo, re + (lo - k0),
			    im + (lo - k0));
			continue;
		}
		for (size_t s0 = lo; s0 < hi; s0 += MROPE_PIECE) {
			size_t m = hi - s0 < MROPE_PIECE ? hi - s0 : MROPE_PIECE;
			mrope_axis_sums(f, ax, rg, ka, s0, m, ar, ai);
			for (size_t t = 0; t < m; t++) {
				re[pre->order[s0 + t] - k0] = ar[t];
				im[pre->order[s0 + t] - k0] = ai[t];
			}
		}
	}
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

/* Circular statistics of columns [q0, q1) of a row's sums (from column
 * c0), summed in column order. */
static void
mrope_angle_cell(const double *re, const double *im, size_t c0, size_t q0,
    size_t q1, struct pe_stats *dest)
{
	double ts = 0.0, tc = 0.0, w[3];

	for (size_t j = q0; j < q1; j++) {
		tc += re[j - c0];
		ts += im[j - c0];
	}
	pe_field_circular(&ts, &tc, 1, w, dest);
}

/* Circular mean of a block: per column, the runs of its axis. */
static int
mrope_angle_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	struct mrope_ranges rg;

	(void)minmax;
	double *re = malloc(2 * (c1 - c0) * sizeof *re);
	if (re == NULL)
		return PE_ENOMEM;
	mrope_ranges(f->cfg, r0, r1, &rg);
	mrope_factors(f, &rg, c0, c1 - c0, NULL, NULL, re, re + (c1 - c0));
	mrope_angle_cell(re, re + (c1 - c0), c0, c0, c1, dest);
	free(re);
	return PE_OK;
}

/* Column blocks up to this wide add a fixed number of terms each
 * (mrope_angle_add). */
#define MROPE_ANGLE_PAD 8

/* Add the n sums re[j], im[j] to cell[0], cell[1], one after the other:
 * for n <= most <= MROPE_ANGLE_PAD most terms, those past n zeros (x + 0
 * is x, and the cells' sums start at +0, which adding never makes -0:
 * the same bits), so that the loop has one length a grid and its end is
 * always guessed (pixels of 3 or 4 pairs missed it about once a cell). */
static inline void
mrope_angle_add(const double *re, const double *im, size_t n, size_t most,
    double *cell)
{
	double sc = cell[0], ss = cell[1];

	if (most > MROPE_ANGLE_PAD) {
		for (size_t j = 0; j < n; j++) {
			sc += re[j];
			ss += im[j];
		}
	} else {
		for (size_t j = 0; j < most; j++) {
			bool in = j < n;
			size_t at = in ? j : 0;
			sc += in ? re[at] : 0.0;
			ss += in ? im[at] : 0.0;
		}
	}
	cell[0] = sc;
	cell[1] = ss;
}

/* The cells' sums acc[2 bj], acc[2 bj + 1] of the nc column blocks qb
 * (each at most most <= MROPE_ANGLE_PAD wide) of a row's sums re, im
 * (from column c0), as mrope_angle_add makes them, two cells at a time
 * (their chains of additions side by side). */
static void
mrope_angle_cells(const double *re, const double *im, size_t c0,
    const size_t *qb, size_t nc, size_t most, double *acc)
{
	size_t bj = 0;

	for (; bj + 1 < nc; bj += 2) {
		const double *ra = re + (qb[2 * bj] - c0), *ia = im + (qb[2 * bj] - c0);
		const double *rb = re + (qb[2 * bj + 2] - c0);
		const double *ib = im + (qb[2 * bj + 2] - c0);
		size_t na = qb[2 * bj + 1] - qb[2 * bj];
		size_t nb = qb[2 * bj + 3] - qb[2 * bj + 2];
		double ca = 0.0, sa = 0.0, cb = 0.0, sb = 0.0;
		for (size_t j = 0; j < most; j++) {
			bool ina = j < na, inb = j < nb;
			size_t a = ina ? j : 0, b = inb ? j : 0;
			ca += ina ? ra[a] : 0.0;
			sa += ina ? ia[a] : 0.0;
			cb += inb ? rb[b] : 0.0;
			sb += inb ? ib[b] : 0.0;
		}
		acc[2 * bj] = ca;
		acc[2 * bj + 1] = sa;
		acc[2 * bj + 2] = cb;
		acc[2 * bj + 3] = sb;
	}
	for (; bj < nc; bj++)
		mrope_angle_add(re + (qb[2 * bj] - c0), im + (qb[2 * bj] - c0),
		    qb[2 * bj + 1] - qb[2 * bj], most, acc + 2 * bj);
}

/* Whether axis a's runs are the same in rg and prev. */
static bool
mrope_same_runs(const struct mrope_ranges *rg, const struct mrope_ranges *prev,
    int a)
{
	if (rg->n[a] != prev->n[a])
		return false;
	for (size_t r = 0; r < rg->n[a]; r++) {
		const struct pe_mrope_run *u = &rg->run[a][r], *v = &prev->run[a][r];
		if (u->p0 != v->p0 || u->len != v->len || u->mult != v->mult ||
		    u->frames != v->frames)
			return false;
	}
	return true;
}

/* Grid of the angle map, a row block at a time: its runs, then the sums
 * of every pair (an axis's runs kept from earlier row blocks summed with
 * this block's mults, struct mrope_kept), added to the cells of the
 * column blocks in column order (a cell's sums in the order of the pairs,
 * whatever the order of the rows), and the row's circular statistics at
 * once while its sums are in cache; O(nr (c1 - c0) runs). The row's sums
 * of an axis whose runs are the previous row block's are that row's, kept
 * (an image's row, or its one frame, spans several row blocks). PE_EINTR
 * polled every 8 row blocks. Into dest, or (row not NULL) each row's
 * means and resultants handed to row as it is finished. */
static int
mrope_angle_fill(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest,
    pe_field_row_fn *row, void *arg)
{
	struct mrope_ranges rg, prev;
	int rc = PE_ENOMEM;
	size_t ncol = c1 - c0;

	size_t *qb = malloc(2 * (nc ? nc : 1) * sizeof *qb);
	/* a row's sums of every pair, kept from row block to row block */
	double *fre = malloc(2 * (ncol ? ncol : 1) * sizeof *fre);
	/* a row's sines, cosines, scratch and counts */
	double *re = malloc(6 * (nc ? nc : 1) * sizeof *re);
	double *acc = malloc(3 * (nc ? nc : 1) * sizeof *acc);
	/* the runs kept: MROPE_KEPT sums of every slot */
	const struct mrope_pre *pre = mrope_pre(f);
	size_t P = mrope_pairs(f);
	struct mrope_kept kp[3] = {0};
	double *kept = malloc(2 * (MROPE_KEPT + MROPE_TURNS) * (P ? P : 1) *
	    sizeof *kept);
	if (qb == NULL || fre == NULL || re == NULL || acc == NULL ||
	    kept == NULL)
		goto end;
	for (int a = 0; a < 3; a++) {
		kp[a].start = pre->start[a];
		kp[a].ns = pre->start[a + 1] - pre->start[a];
		kp[a].re = kept + 2 * (MROPE_KEPT + MROPE_TURNS) *
		    pre->start[a];
		kp[a].im = kp[a].re + MROPE_KEPT * kp[a].ns;
		kp[a].turn = kp[a].im + MROPE_KEPT * kp[a].ns;
	}
	double *fim = fre + ncol;
	size_t most = 0; /* the widest column block */
	double *qw = acc + 2 * nc; /* the widths as doubles */
	for (size_t bj = 0; bj < nc; bj++) {
		field_span(c0, c1, nc, bj, &qb[2 * bj], &qb[2 * bj + 1]);
		if (qb[2 * bj + 1] - qb[2 * bj] > most)
			most = qb[2 * bj + 1] - qb[2 * bj];
		qw[bj] = (double)(qb[2 * bj + 1] - qb[2 * bj]);
	}
	for (size_t bi = 0; bi < nr; bi++) {
		size_t p0, p1;
		if (bi % 8 == 0 && pe_field_interrupted()) {
			rc = PE_EINTR;
			goto end;
		}
		field_span(r0, r1, nr, bi, &p0, &p1);
		mrope_ranges(f->cfg, p0, p1, &rg);
		bool keep[3];
		for (int a = 0; a < 3; a++) {
			keep[a] = bi > 0 && mrope_same_runs(&rg, &prev, a);
			if (!keep[a])
				mrope_kept_plan(f, (enum pe_mrope_axis)a, &rg, bi,
				    &kp[a]);
		}
		prev = rg;
		memset(acc, 0, 2 * nc * sizeof *acc);
		mrope_factors(f, &rg, c0, ncol, keep, kp, fre, fim);
		if (most <= MROPE_ANGLE_PAD)
			mrope_angle_cells(fre, fim, c0, qb, nc, most, acc);
		else
			for (size_t bj = 0; bj < nc; bj++)
				mrope_angle_add(fre + (qb[2 * bj] - c0),
				    fim + (qb[2 * bj] - c0), qb[2 * bj + 1] -
				    qb[2 * bj], most, acc + 2 * bj);
		/* the row's cells, their circular means at once, each cell
		 * written whole */
		uint64_t *cnt = (uint64_t *)(void *)(re + 5 * nc);
		double *cd = re + 2 * nc, len = (double)(p1 - p0);
		for (size_t bj = 0; bj < nc; bj++) {
			cnt[bj] = (uint64_t)(p1 - p0) * (qb[2 * bj + 1] -
			    qb[2 * bj]);
			/* the one rounding of the count, as (double)cnt
			 * (field_wave_finish_row) */
			cd[bj] = len * qw[bj];
			re[bj] = acc[2 * bj + 1];
			re[nc + bj] = acc[2 * bj];
		}
		if (row == NULL) {
			pe_field_circular_put(re, re + nc, cd, cnt, nc,
			    re + 3 * nc, dest + bi * nc);
			continue;
		}
		pe_trig_polar_many(re, re + nc, cd, nc, re + 3 * nc,
		    re + 4 * nc);
		if ((rc = row(arg, bi, &(struct pe_field_row){NULL, re + 3 * nc,
		    re + 4 * nc})) != PE_OK)
			goto end;
	}
	rc = PE_OK;
end:
	free(qb);
	free(fre);
	free(re);
	free(acc);
	free(kept);
	return rc;
}

/* Grid of the angle map (mrope_angle_fill). */
static int
mrope_angle_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	return mrope_angle_fill(f, r0, r1, nr, c0, c1, nc, dest, NULL, NULL);
}

/* Its rows handed on as finished (mrope_angle_fill). */
static int
mrope_angle_rows(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *scratch,
    pe_field_row_fn *row, void *arg)
{
	return mrope_angle_fill(f, r0, r1, nr, c0, c1, nc, scratch, row, arg);
}

/* ---- products of sums: scores ----------------------------------------- */

/* G_j over tokens [i0, i1) for pairs [k0, k0 + kn). */
static void
mrope_sim_factor(const struct pe_field *f, size_t i0, size_t i1, size_t k0,
    size_t kn, double *re, double *im)
{
	struct mrope_ranges rg;

	mrope_ranges(f->cfg, i0, i1, &rg);
	mrope_factors(f, &rg, k0, kn, NULL, NULL, re, im);
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

/* The anchor's phases e^{i p_a w_j} per slot (cos at c, sin at s), each
 * angle reduced by fmod as the values' are. */
static void
mrope_patch_phases(const struct pe_field *f, double *c, double *s)
{
	const struct mrope_pre *pre = mrope_pre(f);
	int64_t pa[3];

	pe_mrope_position(f->cfg, f->anchor, pa);
	for (int a = 0; a < 3; a++)
		for (size_t t = pre->start[a]; t < pre->start[a + 1]; t++)
			sincos(fmod((double)pa[a] * f->omega[pre->order[t]],
			    PE_TWO_PI), &s[t], &c[t]);
}

/* sum over the pairs of axis a of Re(e^{i p_a w_j} conj(R_j)), R_j the sum
 * of e^{i p w_j} over the runs: the anchor's score with those positions,
 * summed (ph: mrope_patch_phases). */
static double
mrope_patch_axis(const struct pe_field *f, enum pe_mrope_axis a,
    const struct pe_mrope_run *run, size_t nrun, const double *pc,
    const double *ps)
{
	const struct mrope_pre *pre = mrope_pre(f);
	double ar[MROPE_PIECE], ai[MROPE_PIECE], sum = 0.0;

	for (size_t s0 = pre->start[a]; s0 < pre->start[a + 1];
	     s0 += MROPE_PIECE) {
		size_t m = pre->start[a + 1] - s0 < MROPE_PIECE
		    ? pre->start[a + 1] - s0 : MROPE_PIECE;
		mrope_runs(f, a, run, nrun, s0, m, false, ar, ai);
		for (size_t t = 0; t < m; t++)
			sum += pc[s0 + t] * ar[t] + ps[s0 + t] * ai[t];
	}
	return sum;
}

/* Sum over patch-map rows [g0, g1) of the anchor's t and h scores (per
 * row: sum over the pairs of t and h of cos((p_a - p) w_j)). */
static double
mrope_patch_rows_closed(const struct pe_field *f, size_t g0, size_t g1,
    const double *pc, const double *ps)
{
	struct pe_mrope_run run[PE_MROPE_MAX_RUNS];
	double s = 0.0;

	for (int a = PE_MROPE_T; a <= PE_MROPE_H; a++) {
		size_t n = mrope_patch_row_runs(f->cfg, (enum pe_mrope_axis)a, g0,
		    g1, run);
		s += mrope_patch_axis(f, (enum pe_mrope_axis)a, run, n, pc, ps);
	}
	return s;
}

/* Sum over patch-map columns [c0, c1) of the anchor's w scores. */
static double
mrope_patch_cols_closed(const struct pe_field *f, size_t c0, size_t c1,
    const double *pc, const double *ps)
{
	struct pe_mrope_run run = {f->cfg->mrope.text_before + c0, c1 - c0, 1,
		false};
	return mrope_patch_axis(f, PE_MROPE_W, &run, 1, pc, ps);
}

/* The patch map's score is separable by axis: C_t(t_a - t) + C_h(h_a - h)
 * + C_w(w_a - w) with C_x(k) = sum over the pairs of axis x of cos(k w_j),
 * and a patch's t, h and w take frames, H and W values. The tables of the
 * anchor, when they cost at most pe_field_mrope_table_max cosines and
 * entries: entry v of axis x is the anchor's score with position v of x,
 * sum_j Re(e^{i p_a w_j} conj(e^{i p_v w_j})) (mrope_patch_axis). */
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
	int64_t N = (int64_t)cfg->mrope.text_before;

	pe_mrope_sections(cfg, sec);
	uint64_t cost = F * (sec[0] + 1) + H * (sec[1] + 1) + W * (sec[2] + 1);
	if (F > pe_field_mrope_table_max || cost > pe_field_mrope_table_max)
		return false;
	size_t P = mrope_pairs(f);
	tb->t = malloc((F + H + W + 2 * (P ? P : 1)) * sizeof *tb->t);
	if (tb->t == NULL)
		return false;
	tb->h = tb->t + F;
	tb->w = tb->h + H;
	double *pc = tb->w + W, *ps = pc + P;
	mrope_patch_phases(f, pc, ps);
	double *dst[3] = {tb->t, tb->h, tb->w};
	uint64_t len[3] = {F, H, W};
	for (int a = 0; a < 3; a++)
		for (uint64_t v = 0; v < len[a]; v++) {
			struct pe_mrope_run one = {(uint64_t)(N + (a == PE_MROPE_T
			    ? pe_mrope_frame_time(cfg, v) : (int64_t)v)), 1, 1, false};
			dst[a][v] = mrope_patch_axis(f, (enum pe_mrope_axis)a, &one, 1,
			    pc, ps);
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

static int mrope_patch_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, struct pe_stats *dest);

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
	int rc = mrope_patch_grid(f, r0, r1, 1, c0, c1, 1, &tmp);
	dest->mean = tmp.mean;
	return rc;
}

/* What a patch-map part reads: the axis tables, or the anchor's phases
 * for the closed forms. */
struct mrope_patch_src {
	const struct mrope_axis_tables *tb; /* NULL: closed forms */
	const double *pc, *ps;
};

/* A part of a patch-map block (field_separable_grid): the mean over rows
 * (axis 0) of the t and h scores or over columns of the w scores. */
static double
mrope_patch_part(const struct pe_field *f, int axis, size_t lo, size_t hi,
    const void *arg)
{
	const struct mrope_patch_src *src = arg;
	double s;

	if (axis == 0)
		s = src->tb != NULL ? mrope_rows_sum(f->cfg, src->tb, lo, hi)
		    : mrope_patch_rows_closed(f, lo, hi, src->pc, src->ps);
	else
		s = src->tb != NULL ? mrope_cols_sum(src->tb, lo, hi)
		    : mrope_patch_cols_closed(f, lo, hi, src->pc, src->ps);
	return s / (double)(hi - lo);
}

/* Grid of the patch map, separable: a sum per row block (t and h) and
 * per column block (w), each cell their means added. From the axis tables
 * once, O(rows + columns + cells); else the closed forms per block,
 * O((nr + nc) pairs runs). */
static int
mrope_patch_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	struct mrope_axis_tables tb = {NULL, NULL, NULL};
	struct mrope_patch_src src = {NULL, NULL, NULL};
	double *ph = NULL;

	if (f->anchor >= pe_mrope_length(f->cfg))
		return PE_EINVAL;
	size_t P = mrope_pairs(f);
	if (mrope_axis_tables(f, &tb)) {
		src.tb = &tb;
	} else {
		ph = malloc(2 * (P ? P : 1) * sizeof *ph);
		if (ph == NULL)
			return PE_ENOMEM;
		mrope_patch_phases(f, ph, ph + P);
		src.pc = ph;
		src.ps = ph + P;
	}
	int rc = field_separable_grid(f, r0, r1, nr, c0, c1, nc,
	    mrope_patch_part, &src, (double)P, pe_field_interrupted, dest);
	free(ph);
	free(tb.t);
	return rc;
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
	mrope_angle_shape, mrope_angle_rows};
const struct field_ops pe_field_mrope_sim_ops = {mrope_init, mrope_sim_value,
	mrope_sim_block, mrope_sim_grid, mrope_scan_minmax, false, NULL};
const struct field_ops pe_field_mrope_patch_ops = {mrope_init,
	mrope_patch_value, mrope_patch_block, mrope_patch_grid,
	mrope_scan_minmax, false, mrope_patch_shape};
