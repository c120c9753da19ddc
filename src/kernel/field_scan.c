/* Exact min and max of a block of a wave field, in one pass: entries are
 * approximated from a few direct evaluations and rotations, and only those
 * that may be an extreme are evaluated exactly (struct field_scan), so the
 * result is the brute-force scan's, bit for bit. */
#include <math.h>
#include <stdlib.h>

#include "kernel/field_impl.h"

/* Positions between direct evaluations in a wave min/max scan. */
#define FIELD_SCAN_ANCHOR 64

/* An entry that may be a block's extreme: position, frequency, function
 * and its approximation. */
struct field_scan_cand {
	size_t p;
	double w, v;
	enum field_fn fn;
};

/* Entries whose approximations lie within 2 tol of the running
 * approximate maximum (sign +1) or minimum (sign -1). */
struct field_scan_cands {
	struct field_scan_cand *a;
	size_t n, cap;
	double best; /* the running approximate extreme, times sign */
	double sign;
};

/* A wave min/max scan, in one pass: the entries are approximated, each
 * from a direct sincos (fmod for angles) every FIELD_SCAN_ANCHOR positions
 * times a precomputed e^{i k w} (k < FIELD_SCAN_ANCHOR); those within
 * twice the approximation's error bound of the running approximate extremes
 * are kept, and at the end the ones still that close are evaluated exactly
 * (pe_field_wave_exact, pe_field_value's own formula). The exact extremes are
 * among them, so the result is the brute-force scan's, bit for bit, at the cost
 * of a few flops per entry instead of a sin or an fmod. */
struct field_scan {
	const struct pe_field *f;
	size_t r0, r1;
	double tol; /* bound on |approximation - exact value| */
	struct field_scan_cands mx, mn; /* candidates for the max and the min */
	double lo, hi; /* exact extremes of the entries evaluated */
	bool nomem;
};

/* Keep candidate (p, w, fn) with approximation v (times c->sign: s) if it
 * is within 2 tol of the best so far; drop those that no longer are when
 * the list fills. false when out of memory. */
static bool
field_scan_cands_add(struct field_scan_cands *c, double tol, size_t p, double w,
                     enum field_fn fn, double v, double s)
{
	if (s > c->best)
		c->best = s;
	if (s < c->best - 2.0 * tol)
		return true;
	if (c->n == c->cap) {
		size_t k = 0;
		for (size_t j = 0; j < c->n; j++)
			if (c->a[j].v * c->sign >= c->best - 2.0 * tol)
				c->a[k++] = c->a[j];
		c->n = k;
		if (c->cap == 0 || c->n > c->cap / 2) {
			size_t cap = c->cap ? 2 * c->cap : 64;
			struct field_scan_cand *a =
			    realloc(c->a, cap * sizeof *a);
			if (a == NULL)
				return false;
			c->a = a;
			c->cap = cap;
		}
	}
	c->a[c->n++] = (struct field_scan_cand){p, w, v, fn};
	return true;
}

/* Min and max of v[FIELD_SCAN_ANCHOR] (fixed length, four lanes held in
 * registers, so that it vectorises). */
static void
field_scan_extremes(const double *v, double *lo, double *hi)
{
	double l0 = v[0], l1 = v[1], l2 = v[2], l3 = v[3];
	double h0 = l0, h1 = l1, h2 = l2, h3 = l3;

	for (size_t k = 4; k < FIELD_SCAN_ANCHOR; k += 4) {
		l0 = v[k] < l0 ? v[k] : l0;
		l1 = v[k + 1] < l1 ? v[k + 1] : l1;
		l2 = v[k + 2] < l2 ? v[k + 2] : l2;
		l3 = v[k + 3] < l3 ? v[k + 3] : l3;
		h0 = v[k] > h0 ? v[k] : h0;
		h1 = v[k + 1] > h1 ? v[k + 1] : h1;
		h2 = v[k + 2] > h2 ? v[k + 2] : h2;
		h3 = v[k + 3] > h3 ? v[k + 3] : h3;
	}
	l0 = l1 < l0 ? l1 : l0;
	l2 = l3 < l2 ? l3 : l2;
	h0 = h1 > h0 ? h1 : h0;
	h2 = h3 > h2 ? h3 : h2;
	*lo = l2 < l0 ? l2 : l0;
	*hi = h2 > h0 ? h2 : h0;
}

/* One run of approximations v[k] of positions p0 + k (k < n; entries past
 * n repeat v[0]). Angles within tol of 0 or 2 pi may wrap once exact: they
 * are evaluated at once and left out. */
static void
field_scan_run(struct field_scan *sc, size_t p0, size_t n, double w,
               enum field_fn fn, const double *v)
{
	double lo, hi, tol = sc->tol;
	double zl = tol, zh = PE_TWO_PI - tol;

	field_scan_extremes(v, &lo, &hi);
	bool wrap = fn == FIELD_FN_ANGLE && (lo < zl || hi > zh);
	if (!wrap && hi < sc->mx.best - 2.0 * tol &&
	    -lo < sc->mn.best - 2.0 * tol)
		return;
	for (size_t k = 0; k < n; k++) {
		if (wrap && (v[k] < zl || v[k] > zh)) {
			field_fold(pe_field_wave_exact(sc->f, p0 + k, w, fn),
			           &sc->lo, &sc->hi);
			continue;
		}
		if (!field_scan_cands_add(&sc->mx, tol, p0 + k, w, fn, v[k],
		                          v[k]) ||
		    !field_scan_cands_add(&sc->mn, tol, p0 + k, w, fn, v[k],
		                          -v[k]))
			sc->nomem = true;
	}
}

/* An approximation of fmod(t, 2 pi) in [0, 2 pi), within an ulp of t. */
static double
field_scan_angle(double t)
{
	double a = t - floor(t / PE_TWO_PI) * PE_TWO_PI;
	if (a < 0.0)
		a += PE_TWO_PI;
	return a >= PE_TWO_PI ? a - PE_TWO_PI : a;
}

/* Scan rows [r0, r1) of frequency w: sines when fns & 1, cosines when
 * fns & 2, angles when fns & 4. */
static void
field_scan_freq(struct field_scan *sc, double w, int fns)
{
	double ps[FIELD_SCAN_ANCHOR], pc[FIELD_SCAN_ANCHOR];
	double vs[FIELD_SCAN_ANCHOR], vc[FIELD_SCAN_ANCHOR];
	double scale = pe_field_wave_scale(sc->f);

	if (fns & 4) {
		/* angles: p0 w mod 2 pi, plus k w mod 2 pi, wrapped once */
		double wa = field_scan_angle(w);
		for (size_t k = 0; k < FIELD_SCAN_ANCHOR; k++)
			pc[k] = field_scan_angle((double)k * wa);
	} else {
		for (size_t k = 0; k < FIELD_SCAN_ANCHOR; k++) {
			sincos((double)k * w, &ps[k], &pc[k]);
			ps[k] *= scale;
			pc[k] *= scale;
		}
	}
	for (size_t p0 = sc->r0; p0 < sc->r1; p0 += FIELD_SCAN_ANCHOR) {
		size_t n = sc->r1 - p0 < FIELD_SCAN_ANCHOR ? sc->r1 - p0
		                                           : FIELD_SCAN_ANCHOR;
		double t = (double)p0 * w, s, c;
		if (fns & 4) {
			double a = field_scan_angle(t);
			for (size_t k = 0; k < FIELD_SCAN_ANCHOR; k++) {
				double v = a + pc[k];
				vc[k] = v >= PE_TWO_PI ? v - PE_TWO_PI : v;
			}
			for (size_t k = n; k < FIELD_SCAN_ANCHOR; k++)
				vc[k] = vc[0];
			field_scan_run(sc, p0, n, w, FIELD_FN_ANGLE, vc);
			continue;
		}
		sincos(t, &s, &c);
		for (size_t k = 0; k < FIELD_SCAN_ANCHOR; k++) {
			vs[k] = s * pc[k] + c * ps[k];
			vc[k] = c * pc[k] - s * ps[k];
		}
		for (size_t k = n; k < FIELD_SCAN_ANCHOR; k++) {
			vs[k] = vs[0];
			vc[k] = vc[0];
		}
		if (fns & 1)
			field_scan_run(sc, p0, n, w, FIELD_FN_SIN, vs);
		if (fns & 2)
			field_scan_run(sc, p0, n, w, FIELD_FN_COS, vc);
	}
}

/* Evaluate exactly the candidates still within 2 tol of the extreme. */
static void
field_scan_finish(struct field_scan *sc, struct field_scan_cands *c)
{
	for (size_t j = 0; j < c->n; j++)
		if (c->a[j].v * c->sign >= c->best - 2.0 * sc->tol)
			field_fold(pe_field_wave_exact(sc->f, c->a[j].p,
			                               c->a[j].w, c->a[j].fn),
			           &sc->lo, &sc->hi);
	free(c->a);
	c->a = NULL;
}

/* Exact min and max of a wave block [r0, r1) x [c0, c1) (struct
 * field_scan); PE_ERANGE when positions times frequencies exceed
 * FIELD_SCAN_BUDGET, PE_ENOMEM when out of memory. */
int
pe_field_scan_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                     size_t c1, double *lo, double *hi)
{
	size_t nfreq;
	const double *w = pe_field_wave_freqs(f, &nfreq);
	unsigned char *fns = calloc(nfreq ? nfreq : 1, 1);
	double wmax = 0.0;

	if (fns == NULL)
		return PE_ENOMEM;
	uint64_t nf = 0;
	for (size_t c = c0; c < c1; c++) {
		size_t i;
		enum field_fn fn;
		pe_field_wave_column(f, c, &i, &fn);
		nf += fns[i] == 0;
		fns[i] |= (unsigned char)(1 << fn);
		if (fabs(w[i]) > wmax)
			wmax = fabs(w[i]);
	}
	/* The work is positions times frequencies: a frequency's sin and cos
	 * columns are one pass (field_scan_freq). */
	if ((uint64_t)(r1 - r0) > FIELD_SCAN_BUDGET / nf) {
		free(fns);
		return PE_ERANGE;
	}
	/* Error bound: the exact value is sin(fl(p w)), and fl(p w) is within
	 * half an ulp of p w (at most r1 wmax 2^-53), for the entry and for
	 * its anchor (whose angle mod 2 pi is off by as much again); fl(k w)
	 * and the product with the anchor add a few ulps of the unit circle
	 * (of 2 pi for angles). Four times that is generous. */
	double amp =
	    f->rope.inv_freq != NULL ? fabs(pe_field_wave_scale(f)) : 1.0;
	if (f->kind == PE_FIELD_ROPE_ANGLE)
		amp = PE_TWO_PI;
	struct field_scan sc = {
	    .f = f,
	    .r0 = r0,
	    .r1 = r1,
	    .tol = 4.0 * (amp * (double)r1 * wmax * 0x1p-51 +
	                  amp * (FIELD_SCAN_ANCHOR + 2) * 8.0 * 0x1p-53),
	    .mx = {NULL, 0, 0, -INFINITY, 1.0},
	    .mn = {NULL, 0, 0, -INFINITY, -1.0},
	    .lo = *lo,
	    .hi = *hi,
	};
	for (size_t i = 0; i < nfreq; i++)
		if (fns[i] != 0)
			field_scan_freq(&sc, w[i], fns[i]);
	free(fns);
	field_scan_finish(&sc, &sc.mx);
	field_scan_finish(&sc, &sc.mn);
	if (sc.nomem)
		return PE_ENOMEM;
	*lo = sc.lo;
	*hi = sc.hi;
	return PE_OK;
}
