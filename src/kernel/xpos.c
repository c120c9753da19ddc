/* xPos, transcribed from torchscale (microsoft/torchscale)
 * torchscale/component/xpos_relative_position.py:
 *   fixed_pos_embedding(x): inv_freq = 1 / (10000 ** (arange(0, dim) / dim))
 *     with dim = head_dim / 2, sinusoid_inp = arange(seq_len) x inv_freq;
 *   duplicate_interleave(m): each column twice, side by side;
 *   rotate_every_two(x): (x0, x1) -> (-x1, x0) per pair;
 *   apply_rotary_pos_emb(x, sin, cos, scale): x cos' + rotate_every_two(x)
 *     sin' with cos' = duplicate_interleave(cos * scale), sin' likewise;
 *   XPOS: scale buffer (arange(0, head_dim, 2) + 0.4 head_dim) / (1.4
 *     head_dim); forward(x, offset, downscale): min_pos = -(length +
 *     offset) // 2, max_pos = length + offset + min_pos, scale =
 *     self.scale ** (arange(min_pos, max_pos) / scale_base), sin and cos
 *     of the length + offset rows, the last `length` rows kept; downscale:
 *     1 / scale;
 * torchscale/component/multihead_attention.py: k = xpos(k, offset=0,
 * downscale=True), q = xpos(q, offset=offset, downscale=False).
 * torchscale computes in float32; here in double, zeta^e as exp(e ln zeta). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pescope/field.h"
#include "pescope/xpos.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"
#include "kernel/testing.h"

/* zeta_j = (2j + 0.4 d) / (1.4 d). */
double
pe_xpos_zeta(size_t j, size_t d)
{
	return ((double)(2 * j) + 0.4 * (double)d) / (1.4 * (double)d);
}

/* -(length + offset) // 2: Python floors toward minus infinity. */
int64_t
pe_xpos_min_pos(size_t length, size_t offset)
{
	int64_t t = (int64_t)(length + offset);
	return -((t + 1) / 2);
}

/* 1 / base^(j / (d/2)). */
void
pe_xpos_inv_freq(const struct pe_config *cfg, double *dest)
{
	size_t P = cfg->d / 2;
	for (size_t j = 0; j < P; j++)
		dest[j] = 1.0 / pow(cfg->base, (double)j / (double)P);
}

/* min_pos(n, K) + K + r: the query row's centred position (the scale rows
 * kept after scale[-length:]). */
int64_t
pe_xpos_query_pos(const struct pe_config *cfg, size_t r)
{
	size_t K = cfg->xpos.xpos_offset;
	return pe_xpos_min_pos(cfg->n, K) + (int64_t)K + (int64_t)r;
}

/* min_pos(n, 0) + c: the key row's (offset 0). */
int64_t
pe_xpos_key_pos(const struct pe_config *cfg, size_t c)
{
	return pe_xpos_min_pos(cfg->n, 0) + (int64_t)c;
}

/* zeta_j^(e / gamma). */
static double
xpos_pow(const struct pe_config *cfg, size_t j, double e)
{
	return exp(e / cfg->xpos.xpos_scale_base *
	    log(pe_xpos_zeta(j, cfg->d)));
}

/* Whether cfg's xpos parameters (and the shared ones) fail their checks:
 * the tables below read them whatever cfg's encoding. */
static bool
xpos_refused(const struct pe_config *cfg)
{
	return pe_config_check_shared(cfg, NULL, 0) != PE_OK ||
	    pe_xpos_check(cfg, NULL, 0) != PE_OK;
}

/* scale [n, d/2] of the queries. */
int
pe_xpos_fill_scale(const struct pe_config *cfg, double *dest)
{
	size_t P = cfg->d / 2;

	if (xpos_refused(cfg))
		return PE_EINVAL;
	for (size_t r = 0; r < cfg->n; r++)
		for (size_t j = 0; j < P; j++)
			dest[r * P + j] =
			    xpos_pow(cfg, j, (double)pe_xpos_query_pos(cfg, r));
	return PE_OK;
}

/* cos and sin [n, d]: duplicate_interleave(cos(angle) * scale). */
int
pe_xpos_fill_cos_sin(const struct pe_config *cfg, double *cos_dest,
    double *sin_dest)
{
	size_t P = cfg->d / 2, d = cfg->d, K = cfg->xpos.xpos_offset;

	if (xpos_refused(cfg))
		return PE_EINVAL;
	for (size_t r = 0; r < cfg->n; r++)
		for (size_t j = 0; j < P; j++) {
			double w = 1.0 / pow(cfg->base, (double)j / (double)P);
			double t = (double)(r + K) * w, s, c;
			double sc = xpos_pow(cfg, j, (double)pe_xpos_query_pos(cfg, r));
			sincos(t, &s, &c);
			if (cos_dest != NULL)
				cos_dest[r * d + 2 * j] = cos_dest[r * d + 2 * j + 1] =
				    c * sc;
			if (sin_dest != NULL)
				sin_dest[r * d + 2 * j] = sin_dest[r * d + 2 * j + 1] =
				    s * sc;
		}
	return PE_OK;
}

/* (q' . k') for q = k = (1, 0) per pair: sum_j zeta_j^((m - n)/gamma)
 * cos((r + K - c) w_j), the exponent and the angle from integers. */
double
pe_xpos_score(const struct pe_config *cfg, const double *inv_freq, size_t r,
    size_t c)
{
	double e = (double)(pe_xpos_query_pos(cfg, r) - pe_xpos_key_pos(cfg, c));
	double k = (double)((int64_t)(r + cfg->xpos.xpos_offset) - (int64_t)c);
	double sum = 0.0;

	for (size_t j = 0; j < cfg->d / 2; j++)
		sum += xpos_pow(cfg, j, e) * cos(k * inv_freq[j]);
	return sum;
}

/* sum_j zeta_j^(k/gamma). */
double
pe_xpos_envelope(const struct pe_config *cfg, double k)
{
	double sum = 0.0;

	for (size_t j = 0; j < cfg->d / 2; j++)
		sum += xpos_pow(cfg, j, k);
	return sum;
}

/* Mean of the envelope over k0 .. k1-1: per pair the geometric sum
 * rho^k0 (rho^n - 1) / (rho - 1), rho = zeta^(1/gamma), with expm1 so that
 * rho near 1 loses nothing. */
double
pe_xpos_envelope_mean(const struct pe_config *cfg, int64_t k0, int64_t k1)
{
	double n = (double)(k1 - k0), sum = 0.0;

	if (k1 <= k0)
		return NAN;
	for (size_t j = 0; j < cfg->d / 2; j++) {
		double l = log(pe_xpos_zeta(j, cfg->d)) / cfg->xpos.xpos_scale_base;
		sum += exp((double)k0 * l) * expm1(n * l) / expm1(l);
	}
	return sum / n;
}

/* The envelope's means over the ns blocks that tile k = 0 .. n-1
 * (pe_field_span): per pair the geometric sums of the two block lengths
 * once, and rho^k0 stepped from block to block (a direct power every 16),
 * O(ns pairs) products. */
int
pe_xpos_envelope_fill(const struct pe_config *cfg, size_t n, size_t ns,
    double *dest)
{
	size_t P = cfg->d / 2;

	if (n == 0 || ns == 0 || dest == NULL)
		return PE_EINVAL;
	double *t = malloc(6 * (P ? P : 1) * sizeof *t);
	if (t == NULL)
		return PE_ENOMEM;
	double *l = t, *g0 = t + P, *g1 = g0 + P, *e0 = g1 + P, *e1 = e0 + P,
	       *pw = e1 + P;
	size_t len0 = n / ns > 0 ? n / ns : 1, prev0 = 0;
	for (size_t j = 0; j < P; j++) {
		l[j] = log(pe_xpos_zeta(j, cfg->d)) / cfg->xpos.xpos_scale_base;
		g0[j] = expm1((double)len0 * l[j]) / expm1(l[j]);
		g1[j] = expm1((double)(len0 + 1) * l[j]) / expm1(l[j]);
		e0[j] = exp((double)len0 * l[j]);
		e1[j] = exp((double)(len0 + 1) * l[j]);
	}
	for (size_t b = 0; b < ns; b++) {
		size_t k0, k1;
		pe_field_span(0, n, ns, b, &k0, &k1);
		size_t len = k1 - k0, dk = k0 - prev0;
		bool direct = b % 16 == 0 ||
		    (dk != 0 && dk != len0 && dk != len0 + 1);
		double sum = 0.0;
		for (size_t j = 0; j < P; j++) {
			if (direct)
				pw[j] = exp((double)k0 * l[j]);
			else if (dk == len0)
				pw[j] *= e0[j];
			else if (dk != 0)
				pw[j] *= e1[j];
			double g = len == len0 ? g0[j] : len == len0 + 1 ? g1[j]
			    : expm1((double)len * l[j]) / expm1(l[j]);
			sum += pw[j] * g;
		}
		prev0 = k0;
		dest[b] = sum / (double)len;
	}
	free(t);
	return PE_OK;
}

/* xpos's rules. */
int
pe_xpos_check(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_xpos *x = &cfg->xpos;

	if (cfg->d % 2 != 0)
		FAIL("d_model %zu: xpos needs an even head_dim (each pair rotates "
		     "two dimensions)", cfg->d);
	if (!isfinite(x->xpos_scale_base) || x->xpos_scale_base <= 0)
		FAIL("xpos_scale_base %g: must be a finite number > 0",
		    x->xpos_scale_base);
	if (x->xpos_offset > PE_MAX_N)
		FAIL("xpos_offset %zu: must be in 0..%zu", x->xpos_offset,
		    PE_MAX_N);
	/* the largest exponent a table meets: the queries' centred positions
	 * and the score's m - n, at most |a| + n - 1 */
	int64_t qlo = pe_xpos_query_pos(cfg, 0);
	int64_t a = qlo - pe_xpos_key_pos(cfg, 0);
	double top = fmax(fabs((double)a) + (double)cfg->n - 1.0,
	    fmax(fabs((double)qlo), fabs((double)qlo + (double)cfg->n - 1)));
	double ln = top / x->xpos_scale_base * log(3.5) +
	    log((double)(cfg->d / 2 > 0 ? cfg->d / 2 : 1));
	if (!(ln < 700.0))
		FAIL("seq_len %zu: xpos's scale zeta^(m/gamma) reaches e^%.0f with "
		     "xpos_scale_base %g (zeta_0 = 2/7, |m| up to %.0f), past "
		     "double's range; lower seq_len or xpos_offset, or raise "
		     "xpos_scale_base", cfg->n, ln, x->xpos_scale_base, top);
	return PE_OK;
}
