/* 2-D RoPE for image patches, transcribed from naver-ai/rope-vit
 * models/vit_rope.py (deit/models_v2_rope.py has the same functions):
 *   init_t_xy(end_x, end_y): t_x = t % end_x, t_y = t // end_x;
 *   compute_axial_cis(dim, end_x, end_y, theta=100): freqs = 1 / theta **
 *     (arange(0, dim, 4)[:dim // 4] / dim) for x and for y, freqs_cis =
 *     cat([polar(outer(t_x, freqs)), polar(outer(t_y, freqs))], -1);
 *   init_random_2d_freqs(dim, num_heads, theta=10, rotate=True): per head
 *     angles = torch.rand(1) * 2 pi, fx = cat([mag cos(angles), mag
 *     cos(pi/2 + angles)]), fy = cat([mag sin(angles), mag sin(pi/2 +
 *     angles)]), stacked to [2, heads, dim/2];
 *   compute_mixed_cis(freqs, t_x, t_y, num_heads): polar(t_x freqs[0] +
 *     t_y freqs[1]) per block and head;
 *   apply_rotary_emb: view_as_complex(x.reshape(..., -1, 2)) * freqs_cis
 *     (interleaved pairs), the class token left alone.
 * The reference computes in float32; here in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pescope/rope2d.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"

/* Grid coordinates of patch i. */
void
pe_rope2d_coords(size_t i, size_t grid_w, size_t *x, size_t *y)
{
	*x = grid_w ? i % grid_w : 0;
	*y = grid_w ? i / grid_w : 0;
}

/* mt19937 (Matsumoto and Nishimura 1998), init_genrand: the generator
 * torch.manual_seed seeds on the CPU. */
struct mt {
	uint32_t s[624];
	size_t i;
};

/* Seed the generator (init_genrand). */
static void
mt_seed(struct mt *m, uint32_t seed)
{
	m->s[0] = seed;
	for (size_t k = 1; k < 624; k++)
		m->s[k] = 1812433253u * (m->s[k - 1] ^ (m->s[k - 1] >> 30)) +
		    (uint32_t)k;
	m->i = 624;
}

/* The next 32-bit output (genrand_int32). */
static uint32_t
mt_next(struct mt *m)
{
	if (m->i >= 624) {
		for (size_t k = 0; k < 624; k++) {
			uint32_t y = (m->s[k] & 0x80000000u) |
			    (m->s[(k + 1) % 624] & 0x7fffffffu);
			m->s[k] = m->s[(k + 397) % 624] ^ (y >> 1) ^
			    (y & 1u ? 0x9908b0dfu : 0u);
		}
		m->i = 0;
	}
	uint32_t y = m->s[m->i++];
	y ^= y >> 11;
	y ^= (y << 7) & 0x9d2c5680u;
	y ^= (y << 15) & 0xefc60000u;
	y ^= y >> 18;
	return y;
}

/* torch.rand's k-th float after torch.manual_seed(0) (uniform_real for
 * float: the low 24 bits of one 32-bit draw, times 2^-24). */
double
pe_rope2d_torch_rand(size_t k)
{
	struct mt m;
	uint32_t x = 0;

	mt_seed(&m, 0);
	for (size_t i = 0; i <= k; i++)
		x = mt_next(&m);
	return (double)(x & 0xffffffu) * 0x1p-24;
}

/* f_k = 1 / base^(4k/d), k < d/4. */
double
pe_rope2d_mag(const struct pe_config *cfg, size_t k)
{
	return 1.0 / pow(cfg->base, (double)(4 * k) / (double)cfg->d);
}

/* Heads of the file: [2, heads, d/2] holds freqs_cols = d/2; the
 * reference's [2, depth, heads d/2] a multiple of it. */
size_t
pe_rope2d_file_heads(const struct pe_config *cfg)
{
	const struct pe_rope2d *r = &cfg->rope2d;
	size_t P = cfg->d / 2;

	if (r->freqs == NULL || P == 0)
		return 0;
	return r->freqs_cols == P ? r->freqs_rows : r->freqs_cols / P;
}

/* Blocks of the file (1 for [2, heads, d/2]). */
size_t
pe_rope2d_file_depth(const struct pe_config *cfg)
{
	const struct pe_rope2d *r = &cfg->rope2d;

	if (r->freqs == NULL)
		return 0;
	return r->freqs_cols == cfg->d / 2 ? 1 : r->freqs_rows;
}

/* Whether cfg's rope2d parameters (and the shared ones) fail their checks:
 * the tables below read them whatever cfg's encoding. */
static bool
rope2d_refused(const struct pe_config *cfg)
{
	return pe_config_check_shared(cfg, NULL, 0) != PE_OK ||
	    pe_rope2d_check(cfg, NULL, 0) != PE_OK;
}

/* The frequencies of cfg's head. */
int
pe_rope2d_freqs(const struct pe_config *cfg, double *fx, double *fy)
{
	const struct pe_rope2d *r = &cfg->rope2d;
	size_t P = cfg->d / 2, Q = cfg->d / 4;

	if (rope2d_refused(cfg))
		return PE_EINVAL;
	if (r->kind == PE_ROPE2D_AXIAL) {
		for (size_t k = 0; k < Q; k++) {
			fx[k] = fy[Q + k] = pe_rope2d_mag(cfg, k);
			fx[Q + k] = fy[k] = 0.0;
		}
		return PE_OK;
	}
	if (r->freqs != NULL) {
		/* [2, rows, cols]: block `layer` (or head `head` when cols is
		 * d/2), then the head's d/2 */
		size_t plane = r->freqs_rows * r->freqs_cols, at;
		if (r->freqs_cols == P)
			at = r->head * P;
		else
			at = r->layer * r->freqs_cols + r->head * P;
		for (size_t j = 0; j < P; j++) {
			fx[j] = r->freqs[at + j];
			fy[j] = r->freqs[plane + at + j];
		}
		return PE_OK;
	}
	double a = pe_rope2d_torch_rand(r->head) * PE_TWO_PI;
	double ca = cos(a), sa = sin(a), cb = cos(M_PI / 2 + a),
	       sb = sin(M_PI / 2 + a);
	for (size_t k = 0; k < Q; k++) {
		double f = pe_rope2d_mag(cfg, k);
		fx[k] = f * ca;
		fx[Q + k] = f * cb;
		fy[k] = f * sa;
		fy[Q + k] = f * sb;
	}
	return PE_OK;
}

/* A [H W, d/2] table of every patch: its angles (what 0), or their cos
 * and sin (what 1). */
static int
rope2d_fill(const struct pe_config *cfg, double *a, double *b, int what)
{
	size_t P = cfg->d / 2, N = cfg->grid_h * cfg->grid_w;
	double *fx = malloc(2 * (P ? P : 1) * sizeof *fx);

	if (fx == NULL)
		return PE_ENOMEM;
	double *fy = fx + P;
	int rc = pe_rope2d_freqs(cfg, fx, fy);
	for (size_t i = 0; i < N && rc == PE_OK; i++) {
		size_t x, y;
		pe_rope2d_coords(i, cfg->grid_w, &x, &y);
		for (size_t j = 0; j < P; j++) {
			double t = (double)x * fx[j] + (double)y * fy[j];
			if (what == 0)
				a[i * P + j] = t;
			if (what == 1 && a != NULL)
				a[i * P + j] = cos(t);
			if (what == 1 && b != NULL)
				b[i * P + j] = sin(t);
		}
	}
	free(fx);
	return rc;
}

/* angles [H W, d/2]. */
int
pe_rope2d_fill_angles(const struct pe_config *cfg, double *dest)
{
	return rope2d_fill(cfg, dest, NULL, 0);
}

/* cos, sin [H W, d/2]: freqs_cis (torch.polar(1, angle)). */
int
pe_rope2d_fill_cos_sin(const struct pe_config *cfg, double *cos_dest,
    double *sin_dest)
{
	return rope2d_fill(cfg, cos_dest, sin_dest, 1);
}

/* sum_j cos(dx fx_j + dy fy_j), the differences exact integers. */
double
pe_rope2d_score(const struct pe_config *cfg, const double *fx,
    const double *fy, size_t a, size_t b)
{
	size_t xa, ya, xb, yb;
	double sum = 0.0;

	pe_rope2d_coords(a, cfg->grid_w, &xa, &ya);
	pe_rope2d_coords(b, cfg->grid_w, &xb, &yb);
	double dx = (double)xa - (double)xb, dy = (double)ya - (double)yb;
	for (size_t j = 0; j < cfg->d / 2; j++)
		sum += cos(dx * fx[j] + dy * fy[j]);
	return sum;
}

/* rope2d's rules. */
int
pe_rope2d_check(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_rope2d *r = &cfg->rope2d;
	size_t P = cfg->d / 2;

	if (cfg->d % 4 != 0)
		FAIL("d_model %zu: rope2d needs d_model divisible by 4 (x and y "
		     "each take d/4 frequencies, RoPE-ViT's arange(0, dim, 4))",
		    cfg->d);
	if (cfg->grid_h < 1 || cfg->grid_w < 1 || cfg->grid_h > PE_MAX_GRID ||
	    cfg->grid_w > PE_MAX_GRID)
		FAIL("grid %zux%zu: each side must be in 1..%zu", cfg->grid_h,
		    cfg->grid_w, PE_MAX_GRID);
	if (r->kind != PE_ROPE2D_MIXED)
		return PE_OK;
	if (r->freqs == NULL) {
		if (r->layer != 0)
			FAIL("layer %zu: the reference initialisation is one block; "
			     "layer picks a block of a freqs_file", r->layer);
		if (r->head >= PE_MAX_HEADS)
			FAIL("head %zu: must be in 0..%zu", r->head, PE_MAX_HEADS - 1);
		return PE_OK;
	}
	if (r->freqs_rows < 1 || r->freqs_cols < P || r->freqs_cols % P != 0)
		FAIL("d_model %zu: the freqs_file holds [2, %zu, %zu], and each "
		     "head needs d_model/2 = %zu frequencies per axis ([2, heads, "
		     "d/2], or the reference's [2, depth, heads d/2])", cfg->d,
		    r->freqs_rows, r->freqs_cols, P);
	size_t heads = pe_rope2d_file_heads(cfg), depth = pe_rope2d_file_depth(cfg);
	if (r->head >= heads)
		FAIL("head %zu: the freqs_file has %zu head%s (0..%zu)", r->head,
		    heads, heads == 1 ? "" : "s", heads - 1);
	if (r->layer >= depth)
		FAIL("layer %zu: the freqs_file has %zu block%s (0..%zu)", r->layer,
		    depth, depth == 1 ? "" : "s", depth - 1);
	for (size_t k = 0; k < 2 * r->freqs_rows * r->freqs_cols; k++)
		if (!isfinite(r->freqs[k]) ||
		    !isfinite(r->freqs[k] * (double)PE_MAX_GRID))
			FAIL("freqs_file: entry %zu is %g, not a finite frequency",
			    k, r->freqs[k]);
	return PE_OK;
}

/* RoPE-ViT's rope_theta: 100 for the axial models, 10 for the mixed. */
void
pe_rope2d_defaults(struct pe_config *cfg, bool d_given, bool base_given)
{
	(void)d_given;
	if (!base_given)
		cfg->base = cfg->rope2d.kind == PE_ROPE2D_MIXED ? 10.0 : 100.0;
}
