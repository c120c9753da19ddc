/* Phasor tilings: the geometric sums sum_{p in block} e^{i p w} of the
 * blocks that tile a range (pe_field_span), block after block, for many
 * frequencies at once, with two sincos per frequency and the rest products
 * (field_impl.h says how). Wave grids and similarity grids are built on
 * them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/clones.h"
#include "kernel/field_impl.h"
#include "kernel/trig.h"

/* Two doubles: the hot loops below in SSE2 lanes, which GCC's -O2 cost
 * model leaves scalar. Each lane does the scalar arithmetic, so the results
 * are the same bit for bit. */
typedef double field_tiling_v2 __attribute__((vector_size(16)));

/* Load two doubles from p (any alignment). */
static inline field_tiling_v2
field_tiling_v2_load(const double *p)
{
	field_tiling_v2 v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* Store two doubles to p (any alignment). */
static inline void
field_tiling_v2_store(double *p, field_tiling_v2 v)
{
	memcpy(p, &v, sizeof v);
}

/* dest[i] = a[i] * b[i] for i < n. */
static void
field_tiling_mul(double *restrict dest, const double *restrict a,
                 const double *restrict b, size_t n)
{
	size_t i = 0;

	for (; i + 2 <= n; i += 2)
		field_tiling_v2_store(dest + i,
		                      field_tiling_v2_load(a + i) *
		                          field_tiling_v2_load(b + i));
	for (; i < n; i++)
		dest[i] = a[i] * b[i];
}

/* Blocks between direct sincos calls that re-anchor a tiling's phasors. */
#define FIELD_PHASOR_ANCHOR 64

/* Start a tiling of [lo, hi) in nb blocks; hc, hs: cos and sin of wr/2, as
 * the field keeps them (pe_field_wave_pre). PE_ENOMEM on failure. */
int
pe_field_tiling_init(struct field_tiling *t, const double *wr, const double *hc,
                     const double *hs, size_t nf, size_t lo, size_t hi,
                     size_t nb)
{
	size_t m = nf ? nf : 1;

	memset(t, 0, sizeof *t);
	t->nf = nf;
	t->wr = wr;
	t->lo = lo;
	t->hi = hi;
	t->nb = nb;
	t->n = (hi - lo) / nb > 0 ? (hi - lo) / nb : 1;
	t->hc = hc;
	t->hs = hs;
	t->c = malloc((8 + 2 * FIELD_PHASOR_NROT) * m * sizeof(double));
	if (t->c == NULL)
		return PE_ENOMEM;
	t->s = t->c + m;
	t->nc = t->s + m;
	t->ns = t->nc + m;
	t->Dn = t->ns + m;
	t->Dn1 = t->Dn + m;
	t->Dx = t->Dn1 + m;
	for (int k = 0; k < FIELD_PHASOR_NROT; k++) {
		t->rot[k].c = t->Dx + (1 + 2 * (size_t)k) * m;
		t->rot[k].s = t->rot[k].c + m;
	}
	t->h = t->rot[FIELD_PHASOR_NROT - 1].s + m;
	for (size_t i = 0; i < nf; i++)
		t->h[i] = 0.5 * wr[i];
	double n = (double)t->n;
	if (t->n == 1) {
		memcpy(t->ns, hs, nf * sizeof *hs);
		memcpy(t->nc, hc, nf * sizeof *hc);
	} else { /* nc then ns, m apart */
		pe_trig_sincos_many(t->h, nf, m, n, t->nc);
	}
	for (size_t i = 0; i < nf; i++) {
		/* sin((n + 1) h) = sin(n h) cos(h) + cos(n h) sin(h) */
		double sn1 = t->ns[i] * t->hc[i] + t->nc[i] * t->hs[i];
		if (t->hs[i] == 0.0) {
			t->Dn[i] = n;
			t->Dn1[i] = n + 1.0;
		} else {
			t->Dn[i] = t->ns[i] / t->hs[i];
			t->Dn1[i] = sn1 / t->hs[i];
		}
	}
	return PE_OK;
}

/* Release a tiling. */
void
pe_field_tiling_free(struct field_tiling *t)
{
	free(t->c);
	t->c = NULL;
}

/* The rotation e^{i delta h} for every frequency, from the cache or made:
 * delta = 2n + j, |j| <= 2, as (e^{i n h})^2 e^{i j h}; else a sincos. */
static int
field_tiling_rot(struct field_tiling *t, uint64_t delta)
{
	int k;

	for (k = 0; k < FIELD_PHASOR_NROT; k++)
		if (t->rot[k].delta == delta)
			return k;
	k = t->next;
	t->next = (t->next + 1) % FIELD_PHASOR_NROT;
	t->rot[k].delta = delta;
	double *restrict rc = t->rot[k].c, *restrict rs = t->rot[k].s;
	int64_t j = (int64_t)(delta - 2 * t->n);
	if (j < -2 || j > 2) { /* rc then rs, as the tiling lays them */
		pe_trig_sincos_many(t->h, t->nf, (size_t)(rs - rc), (double)delta,
		                    rc);
		return k;
	}
	for (size_t i = 0; i < t->nf; i++) {
		double c = t->nc[i] * t->nc[i] - t->ns[i] * t->ns[i];
		double s = 2.0 * t->nc[i] * t->ns[i];
		double hc = t->hc[i], hs = j < 0 ? -t->hs[i] : t->hs[i];
		for (int64_t a = j < 0 ? -j : j; a > 0; a--) {
			double ns = s * hc + c * hs;
			c = c * hc - s * hs;
			s = ns;
		}
		rc[i] = c;
		rs[i] = s;
	}
	return k;
}

/* Turn the phasors pc + i ps of nf frequencies by rc + i rs and write
 * their sums D (c + i s) to re[i stride], im[i stride]: the rotation of
 * pe_field_tiling_next and the products of pe_field_tiling_sums in one
 * pass, their operations in the same order (the same bits), built for the
 * vector units too (PE_CLONES). */
PE_CLONES static void
field_tiling_turn_at(double *restrict pc, double *restrict ps,
                     const double *restrict rc, const double *restrict rs,
                     const double *restrict D, size_t nf, double *restrict re,
                     double *restrict im, size_t stride)
{
	for (size_t i = 0; i < nf; i++) {
		double c0 = pc[i], s0 = ps[i];
		double c = c0 * rc[i] - s0 * rs[i];
		double s = s0 * rc[i] + c0 * rs[i];
		pc[i] = c;
		ps[i] = s;
		re[i * stride] = c * D[i];
		im[i * stride] = s * D[i];
	}
}

/* Move to the next block (pe_field_tiling_next); with re, its sums into
 * re[i stride] and im[i stride] (pe_field_tiling_next_at). */
static void
field_tiling_step(struct field_tiling *t, double *re, double *im,
                  size_t stride)
{
	size_t p0, p1, nf = t->nf;
	bool done = false; /* the sums written */

	field_span(t->lo, t->hi, t->nb, t->b, &p0, &p1);
	uint64_t len = p1 - p0, mid = 2 * (uint64_t)p0 + len - 1;
	if (len == t->n) {
		t->D = t->Dn;
	} else if (len == t->n + 1) {
		t->D = t->Dn1;
	} else {
		for (size_t i = 0; i < nf; i++)
			t->Dx[i] = pe_trig_dirichlet(t->wr[i], len);
		t->D = t->Dx;
	}
	if (t->b == 0 || mid < t->mid || t->steps >= FIELD_PHASOR_ANCHOR) {
		double m = (double)((int64_t)mid - t->off); /* exact */
		pe_trig_sincos_many(t->h, nf, (size_t)(t->s - t->c), m, t->c);
		t->steps = 0;
	} else if (mid != t->mid) {
		int k = field_tiling_rot(t, mid - t->mid);
		const double *restrict rc = t->rot[k].c, *restrict rs =
		                                             t->rot[k].s;
		double *restrict pc = t->c, *restrict ps = t->s;
		if (re != NULL) {
			field_tiling_turn_at(pc, ps, rc, rs, t->D, nf, re, im,
			                     stride);
			done = true;
		} else {
			size_t i = 0;
			for (; i + 2 <= nf; i += 2) {
				field_tiling_v2 c0 = field_tiling_v2_load(pc + i);
				field_tiling_v2 s0 = field_tiling_v2_load(ps + i);
				field_tiling_v2 c1 = field_tiling_v2_load(rc + i);
				field_tiling_v2 s1 = field_tiling_v2_load(rs + i);
				field_tiling_v2_store(pc + i, c0 * c1 - s0 * s1);
				field_tiling_v2_store(ps + i, s0 * c1 + c0 * s1);
			}
			for (; i < nf; i++) {
				double c0 = pc[i], s0 = ps[i];
				pc[i] = c0 * rc[i] - s0 * rs[i];
				ps[i] = s0 * rc[i] + c0 * rs[i];
			}
		}
		t->steps++;
	}
	t->mid = mid;
	t->b++;
	if (re != NULL && !done)
		pe_field_tiling_sums_at(t, re, im, stride);
}

/* Turn the phasors pc + i ps of nf frequencies through four blocks in
 * turn, by rc[l] + i rs[l] into block l, and write block l's sums D[l]
 * (c + i s) to re[4 i + l], im[4 i + l]: four calls of
 * field_tiling_turn_at, their operations in the same order (the same
 * bits), in one pass over the phasors; the four lanes of a frequency are
 * adjacent, so the vector units store them whole instead of a double at a
 * time (PE_CLONES; -O3 vectorises the loop over frequencies). */
PE_CLONES static void
field_tiling_turn4(double *restrict pc, double *restrict ps,
                   const double *const rc[4], const double *const rs[4],
                   const double *const D[4], size_t nf, double *restrict re,
                   double *restrict im)
{
	const double *r0 = rc[0], *r1 = rc[1], *r2 = rc[2], *r3 = rc[3];
	const double *s0 = rs[0], *s1 = rs[1], *s2 = rs[2], *s3 = rs[3];
	const double *d0 = D[0], *d1 = D[1], *d2 = D[2], *d3 = D[3];

	for (size_t i = 0; i < nf; i++) {
		double c = pc[i], s = ps[i], u;
		u = c * r0[i] - s * s0[i];
		s = s * r0[i] + c * s0[i];
		c = u;
		re[4 * i] = c * d0[i];
		im[4 * i] = s * d0[i];
		u = c * r1[i] - s * s1[i];
		s = s * r1[i] + c * s1[i];
		c = u;
		re[4 * i + 1] = c * d1[i];
		im[4 * i + 1] = s * d1[i];
		u = c * r2[i] - s * s2[i];
		s = s * r2[i] + c * s2[i];
		c = u;
		re[4 * i + 2] = c * d2[i];
		im[4 * i + 2] = s * d2[i];
		u = c * r3[i] - s * s3[i];
		s = s * r3[i] + c * s3[i];
		c = u;
		re[4 * i + 3] = c * d3[i];
		im[4 * i + 3] = s * d3[i];
		pc[i] = c;
		ps[i] = s;
	}
}

/* The next four blocks and their sums into re[4 i + l], im[4 i + l] for
 * block l, as four calls of pe_field_tiling_next_at with stride 4 give
 * them. Where all four are rotations by cached steps of blocks of the two
 * usual lengths (every block but those of a re-anchoring sincos, about
 * one in FIELD_PHASOR_ANCHOR), one pass (field_tiling_turn4); else the
 * four steps. */
void
pe_field_tiling_next4(struct field_tiling *t, double *re, double *im)
{
	const double *rc[4], *rs[4], *D[4];
	uint64_t mid[4], prev = t->mid;
	bool fast = t->b > 0 && t->b + 4 <= t->nb &&
	    t->steps + 4 <= FIELD_PHASOR_ANCHOR;

	for (int l = 0; fast && l < 4; l++) {
		size_t p0, p1;
		field_span(t->lo, t->hi, t->nb, t->b + (size_t)l, &p0, &p1);
		uint64_t len = p1 - p0;
		mid[l] = 2 * (uint64_t)p0 + len - 1;
		fast = mid[l] > prev && (len == t->n || len == t->n + 1);
		D[l] = len == t->n ? t->Dn : t->Dn1;
		prev = mid[l];
	}
	/* the rotations, each still in its slot once all four are made
	 * (they are pure functions of the step: the cache holds the same
	 * values whichever order made them) */
	int k[4];
	prev = t->mid;
	for (int l = 0; fast && l < 4; l++) {
		k[l] = field_tiling_rot(t, mid[l] - prev);
		prev = mid[l];
	}
	prev = t->mid;
	for (int l = 0; fast && l < 4; l++) {
		fast = t->rot[k[l]].delta == mid[l] - prev;
		rc[l] = t->rot[k[l]].c;
		rs[l] = t->rot[k[l]].s;
		prev = mid[l];
	}
	if (!fast) {
		for (int l = 0; l < 4; l++)
			field_tiling_step(t, re + l, im + l, 4);
		return;
	}
	field_tiling_turn4(t->c, t->s, rc, rs, D, t->nf, re, im);
	t->D = D[3];
	t->mid = mid[3];
	t->b += 4;
	t->steps += 4;
}

/* Move to the next block: its phasors t->c, t->s and factors t->D. */
void
pe_field_tiling_next(struct field_tiling *t)
{
	field_tiling_step(t, NULL, NULL, 0);
}

/* Move to the next block and write its sums to re[i stride], im[i
 * stride]. */
void
pe_field_tiling_next_at(struct field_tiling *t, double *re, double *im,
                        size_t stride)
{
	field_tiling_step(t, re, im, stride);
}

/* The current block's sums D(len, wr) e^{i mid h}: re[i] = D cos, im[i] = D
 * sin, for every frequency. */
void
pe_field_tiling_sums(const struct field_tiling *t, double *re, double *im)
{
	field_tiling_mul(re, t->c, t->D, t->nf);
	field_tiling_mul(im, t->s, t->D, t->nf);
}

/* The current block's sums as pe_field_tiling_sums gives them, into
 * re[i stride] and im[i stride] (a wave grid's lanes). */
void
pe_field_tiling_sums_at(const struct field_tiling *t, double *re, double *im,
                        size_t stride)
{
	for (size_t i = 0; i < t->nf; i++) {
		re[i * stride] = t->c[i] * t->D[i];
		im[i * stride] = t->s[i] * t->D[i];
	}
}
