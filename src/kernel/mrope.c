/* Multimodal RoPE of Qwen2-VL, transcribed from Hugging Face transformers'
 * src/transformers/models/qwen2_vl/modeling_qwen2_vl.py:
 *   Qwen2VLModel.get_rope_index   the position triples (position_ids);
 *   Qwen2VLRotaryEmbedding.forward freqs = inv_freq x position per axis,
 *                                  emb = cat(freqs, freqs);
 *   apply_multimodal_rotary_pos_emb the split of cos and sin by
 *                                  mrope_section * 2, chunk k taking axis
 *                                  k % 3, then q cos + rotate_half(q) sin.
 * HF works in float32; here every angle is formed in double. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pescope/mrope.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"

/* Qwen2-VL's sections of its 64 pairs (config.json rope_scaling). */
static const size_t qwen2vl_sections[3] = {16, 24, 24};

/* The sections cfg uses. */
void
pe_mrope_sections(const struct pe_config *cfg, size_t dest[3])
{
	const size_t *s = cfg->mrope.mrope_section;
	size_t pairs = cfg->d / 2;

	if (s[0] != 0 || s[1] != 0 || s[2] != 0) {
		memcpy(dest, s, 3 * sizeof *dest);
		return;
	}
	for (int k = 0; k < 3; k++)
		dest[k] = pairs * qwen2vl_sections[k] / 64;
}

/* Pair j's axis in the contiguous layout: HF's cos.split(mrope_section *
 * 2) gives dims [0, s_t) to t, [s_t, s_t + s_h) to h, the rest of the
 * first half to w, and the second half (rotate_half's partners j + d/2)
 * the same again. */
enum pe_mrope_axis
pe_mrope_axis_of(const size_t sections[3], size_t j)
{
	if (j < sections[0])
		return PE_MROPE_T;
	if (j < sections[0] + sections[1])
		return PE_MROPE_H;
	return PE_MROPE_W;
}

/* Pair j's axis in cfg's layout. Interleaved is Qwen3-VL's
 * (modeling_qwen3_vl.py, Qwen3VLTextRotaryEmbedding.apply_interleaved_
 * mrope): freqs_t = freqs[0]; for dim, offset in (1, 2): idx =
 * slice(offset, mrope_section[dim] * 3, 3); freqs_t[..., idx] =
 * freqs[dim, ..., idx]: pair j follows h when j % 3 == 1 and j < 3 s_h,
 * w when j % 3 == 2 and j < 3 s_w, else t. */
enum pe_mrope_axis
pe_mrope_pair_axis(const struct pe_config *cfg, const size_t sections[3],
    size_t j)
{
	if (cfg->mrope.layout != PE_MROPE_INTERLEAVED)
		return pe_mrope_axis_of(sections, j);
	if (j % 3 == 1 && j < 3 * sections[1])
		return PE_MROPE_H;
	if (j % 3 == 2 && j < 3 * sections[2])
		return PE_MROPE_W;
	return PE_MROPE_T;
}

/* Whether frames follow time (Qwen2.5-VL's tokens_per_second). */
static bool
mrope_timed(const struct pe_config *cfg)
{
	return cfg->mrope.tokens_per_second > 0.0;
}

/* Frame f's temporal id before the offset: Qwen2.5-VL's get_rope_index,
 *   time_tensor = expanded_range * second_per_grid_t * tokens_per_second
 *   t_index = time_tensor.long()
 * an int64 arange times two Python numbers is a float32 tensor: each
 * product rounded to float32, then truncated; Qwen2-VL (no
 * tokens_per_second): f. */
int64_t
pe_mrope_frame_time(const struct pe_config *cfg, size_t f)
{
	if (!mrope_timed(cfg))
		return (int64_t)f;
	volatile float x = (float)f * (float)cfg->mrope.seconds_per_frame;
	volatile float y = x * (float)cfg->mrope.tokens_per_second;
	return (int64_t)y;
}

/* Tokens of the image or video. */
static size_t
mrope_vision(const struct pe_config *cfg)
{
	const struct pe_mrope *m = &cfg->mrope;
	size_t hw = cfg->grid_h * cfg->grid_w;

	if (hw == 0 || m->frames > SIZE_MAX / hw)
		return SIZE_MAX;
	return m->frames * hw;
}

/* Tokens in the sequence. */
size_t
pe_mrope_length(const struct pe_config *cfg)
{
	const struct pe_mrope *m = &cfg->mrope;
	size_t v = mrope_vision(cfg);

	if (v == SIZE_MAX || m->text_before > SIZE_MAX - v ||
	    m->text_after > SIZE_MAX - v - m->text_before)
		return 0;
	return m->text_before + v + m->text_after;
}

/* The first position of the text after the vision tokens:
 * get_rope_index's st_idx = llm_pos_ids_list[-1].max() + 1, the vision
 * block's largest position N + max(t, h, w index) plus one (the last
 * frame's temporal id when frames follow time). */
static uint64_t
mrope_after_start(const struct pe_config *cfg)
{
	uint64_t big = (uint64_t)pe_mrope_frame_time(cfg,
	    cfg->mrope.frames - 1) + 1;

	if (cfg->grid_h > big)
		big = cfg->grid_h;
	if (cfg->grid_w > big)
		big = cfg->grid_w;
	return (uint64_t)cfg->mrope.text_before + big;
}

/* The part of token i, and a vision token's frame, row and column. */
enum pe_mrope_part
pe_mrope_part_of(const struct pe_config *cfg, size_t i, size_t *f, size_t *r,
    size_t *c)
{
	size_t n = cfg->mrope.text_before, v = mrope_vision(cfg);
	size_t W = cfg->grid_w, HW = cfg->grid_h * cfg->grid_w;

	*f = *r = *c = 0;
	if (i < n)
		return PE_MROPE_TEXT_BEFORE;
	if (i - n >= v)
		return PE_MROPE_TEXT_AFTER;
	i -= n;
	*f = i / HW;
	*r = i % HW / W;
	*c = i % W;
	return PE_MROPE_VISION;
}

/* get_rope_index: text before at arange(N); the vision block at
 * stack([t_index, h_index, w_index]) + text_len + st_idx, t_index the
 * frame (Qwen2-VL's temporal step is 1; Qwen2.5-VL's the frame's time,
 * pe_mrope_frame_time), h_index the row, w_index the column; the text
 * after from the largest position plus 1. */
void
pe_mrope_position(const struct pe_config *cfg, size_t i, int64_t dest[3])
{
	size_t f, r, c;
	int64_t n = (int64_t)cfg->mrope.text_before;

	switch (pe_mrope_part_of(cfg, i, &f, &r, &c)) {
	case PE_MROPE_TEXT_BEFORE:
		dest[0] = dest[1] = dest[2] = (int64_t)i;
		return;
	case PE_MROPE_VISION:
		dest[PE_MROPE_T] = n + pe_mrope_frame_time(cfg, f);
		dest[PE_MROPE_H] = n + (int64_t)r;
		dest[PE_MROPE_W] = n + (int64_t)c;
		return;
	case PE_MROPE_TEXT_AFTER:
		break;
	}
	int64_t k = (int64_t)(i - cfg->mrope.text_before - mrope_vision(cfg));
	dest[0] = dest[1] = dest[2] = (int64_t)mrope_after_start(cfg) + k;
}

/* HF _compute_default_rope_parameters: 1 / base^(arange(0, d, 2) / d)
 * (f32 in HF). Qwen2-VL's config turns rope_scaling type "mrope" into
 * "default". */
void
pe_mrope_inv_freq(const struct pe_config *cfg, double *dest)
{
	for (size_t j = 0; j < cfg->d / 2; j++)
		dest[j] = 1.0 / pow(cfg->base, (double)(2 * j) / (double)cfg->d);
}

/* Append run (p0, len, mult) when it holds tokens. */
static void
mrope_push(struct pe_mrope_run *dest, size_t *n, uint64_t p0, uint64_t len,
    uint64_t mult)
{
	if (len == 0 || mult == 0)
		return;
	dest[(*n)++] = (struct pe_mrope_run){p0, len, mult, false};
}

/* Append the whole frames [f0, f0 + len), mult tokens each: positions
 * N + f when a frame is a step, else a run of frames at their times. */
static void
mrope_push_frames(const struct pe_config *cfg, struct pe_mrope_run *dest,
    size_t *n, uint64_t f0, uint64_t len, uint64_t mult)
{
	if (len == 0 || mult == 0)
		return;
	if (!mrope_timed(cfg)) {
		mrope_push(dest, n, cfg->mrope.text_before + f0, len, mult);
		return;
	}
	dest[(*n)++] = (struct pe_mrope_run){f0, len, mult, true};
}

/* Position of frame f's temporal id (text_before + its time). */
static uint64_t
mrope_frame_pos(const struct pe_config *cfg, size_t f)
{
	return cfg->mrope.text_before + (uint64_t)pe_mrope_frame_time(cfg, f);
}

/* The position of a run's k-th position (a run of frames: frame p0 + k's
 * time). */
uint64_t
pe_mrope_run_pos(const struct pe_config *cfg, const struct pe_mrope_run *run,
    uint64_t k)
{
	return run->frames ? mrope_frame_pos(cfg, run->p0 + k) : run->p0 + k;
}

/* Rows [g0, g1) (global rows f H + r of the vision block), each held by
 * mult tokens, as positions N + r: a partial frame, whole frames (every r
 * once each), a partial frame. */
static void
mrope_rows(const struct pe_config *cfg, size_t g0, size_t g1, uint64_t mult,
    struct pe_mrope_run *dest, size_t *n)
{
	uint64_t N = cfg->mrope.text_before, H = cfg->grid_h;

	if (g0 >= g1)
		return;
	size_t fa = g0 / H, fb = (g1 - 1) / H;
	if (fa == fb) {
		mrope_push(dest, n, N + g0 % H, g1 - g0, mult);
		return;
	}
	mrope_push(dest, n, N + g0 % H, H - g0 % H, mult);
	mrope_push(dest, n, N, H, mult * (fb - fa - 1));
	mrope_push(dest, n, N, (g1 - 1) % H + 1, mult);
}

/* Vision tokens [v0, v1) (0-based in the block) of axis a as runs. */
static void
mrope_vision_runs(const struct pe_config *cfg, enum pe_mrope_axis a,
    size_t v0, size_t v1, struct pe_mrope_run *dest, size_t *n)
{
	uint64_t N = cfg->mrope.text_before, W = cfg->grid_w;
	uint64_t HW = (uint64_t)cfg->grid_h * cfg->grid_w;
	size_t g0 = v0 / W, g1 = (v1 - 1) / W;

	switch (a) {
	case PE_MROPE_W: /* the column: along a row, whole rows repeat */
		if (g0 == g1) {
			mrope_push(dest, n, N + v0 % W, v1 - v0, 1);
			return;
		}
		mrope_push(dest, n, N + v0 % W, W - v0 % W, 1);
		mrope_push(dest, n, N, W, g1 - g0 - 1);
		mrope_push(dest, n, N, (v1 - 1) % W + 1, 1);
		return;
	case PE_MROPE_H: /* the row: constant along a row */
		if (g0 == g1) {
			mrope_push(dest, n, N + g0 % cfg->grid_h, 1, v1 - v0);
			return;
		}
		mrope_push(dest, n, N + g0 % cfg->grid_h, 1, (g0 + 1) * W - v0);
		mrope_rows(cfg, g0 + 1, g1, W, dest, n);
		mrope_push(dest, n, N + g1 % cfg->grid_h, 1, v1 - g1 * W);
		return;
	case PE_MROPE_T: { /* the frame: constant over a frame */
		size_t f0 = v0 / HW, f1 = (v1 - 1) / HW;
		if (f0 == f1) {
			mrope_push(dest, n, mrope_frame_pos(cfg, f0), 1, v1 - v0);
			return;
		}
		mrope_push(dest, n, mrope_frame_pos(cfg, f0), 1,
		    (f0 + 1) * HW - v0);
		mrope_push_frames(cfg, dest, n, f0 + 1, f1 - f0 - 1, HW);
		mrope_push(dest, n, mrope_frame_pos(cfg, f1), 1, v1 - f1 * HW);
		return;
	}
	}
}

/* Positions of axis a over tokens [i0, i1) as runs. */
size_t
pe_mrope_runs(const struct pe_config *cfg, enum pe_mrope_axis a, size_t i0,
    size_t i1, struct pe_mrope_run *dest)
{
	size_t N = cfg->mrope.text_before, V = mrope_vision(cfg), n = 0;

	if (i0 < N)
		mrope_push(dest, &n, i0, (i1 < N ? i1 : N) - i0, 1);
	size_t v0 = i0 > N ? i0 - N : 0, v1 = i1 > N ? i1 - N : 0;
	if (v1 > V)
		v1 = V;
	if (v0 < v1)
		mrope_vision_runs(cfg, a, v0, v1, dest, &n);
	if (i1 > N + V) {
		size_t a0 = i0 > N + V ? i0 : N + V;
		mrope_push(dest, &n, mrope_after_start(cfg) + (a0 - N - V),
		    i1 - a0, 1);
	}
	return n;
}

/* Whether cfg's mrope parameters (and the shared ones) fail their checks:
 * the tables below read them whatever cfg's encoding. */
static bool
mrope_refused(const struct pe_config *cfg)
{
	return pe_config_check_shared(cfg, NULL, 0) != PE_OK ||
	    pe_mrope_check(cfg, NULL, 0) != PE_OK;
}

/* positions [L, 3]. */
int
pe_mrope_fill_positions(const struct pe_config *cfg, int64_t *dest)
{
	if (mrope_refused(cfg))
		return PE_EINVAL;
	size_t L = pe_mrope_length(cfg);
	for (size_t i = 0; i < L; i++)
		pe_mrope_position(cfg, i, dest + 3 * i);
	return PE_OK;
}

/* angles [L, d/2]: theta = position of the pair's axis times inv_freq
 * (Qwen2VLRotaryEmbedding.forward's freqs, the section's axis). */
int
pe_mrope_fill_angles(const struct pe_config *cfg, double *dest)
{
	size_t P = cfg->d / 2, sec[3];

	if (mrope_refused(cfg))
		return PE_EINVAL;
	pe_mrope_sections(cfg, sec);
	size_t L = pe_mrope_length(cfg);
	for (size_t j = 0; j < P; j++)
		dest[j] = 1.0 / pow(cfg->base, (double)(2 * j) / (double)cfg->d);
	/* row 0 holds inv_freq until the rows after it are done */
	for (size_t i = L; i-- > 0;) {
		int64_t p[3];
		pe_mrope_position(cfg, i, p);
		for (size_t j = 0; j < P; j++)
			dest[i * P + j] =
			    (double)p[pe_mrope_pair_axis(cfg, sec, j)] *
			    dest[j];
	}
	return PE_OK;
}

/* cos and sin [L, d]: emb = cat(freqs, freqs) per axis, then column k
 * from the chunk of mrope_section * 2 it falls in, axis chunk % 3: the
 * axis of pair k mod d/2 (interleaved: Qwen3-VL takes the pairs' axes
 * before the cat, emb = cat(freqs_t, freqs_t): again pair k mod d/2's). */
int
pe_mrope_fill_cos_sin(const struct pe_config *cfg, double *cos_dest,
    double *sin_dest)
{
	size_t P = cfg->d / 2, d = cfg->d, sec[3];

	if (mrope_refused(cfg))
		return PE_EINVAL;
	pe_mrope_sections(cfg, sec);
	size_t L = pe_mrope_length(cfg);
	for (size_t i = 0; i < L; i++) {
		int64_t p[3];
		pe_mrope_position(cfg, i, p);
		for (size_t k = 0; k < d; k++) {
			size_t j = k % P;
			double w = 1.0 / pow(cfg->base, (double)(2 * j) / (double)d);
			double t = (double)p[pe_mrope_pair_axis(cfg, sec, j)] *
			    w;
			if (cos_dest != NULL)
				cos_dest[i * d + k] = cos(t);
			if (sin_dest != NULL)
				sin_dest[i * d + k] = sin(t);
		}
	}
	return PE_OK;
}

/* Score of tokens a and b for q = k = (1, 0) per pair: (R_a q).(R_b k) =
 * sum_j cos(theta_a,j - theta_b,j), the difference of positions an exact
 * integer. */
double
pe_mrope_score(const struct pe_config *cfg, const double *inv_freq,
    const size_t sections[3], size_t a, size_t b)
{
	int64_t pa[3], pb[3];
	double sum = 0.0;

	pe_mrope_position(cfg, a, pa);
	pe_mrope_position(cfg, b, pb);
	for (size_t j = 0; j < cfg->d / 2; j++) {
		enum pe_mrope_axis x = pe_mrope_pair_axis(cfg, sections, j);
		sum += cos((double)(pa[x] - pb[x]) * inv_freq[j]);
	}
	return sum;
}

/* mrope's rules. */
int
pe_mrope_check(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_mrope *m = &cfg->mrope;
	const size_t *s = m->mrope_section;

	if (cfg->d % 2 != 0)
		FAIL("d_model %zu: mrope needs an even head_dim (each pair rotates "
		     "two dimensions)", cfg->d);
	if (s[0] == 0 && s[1] == 0 && s[2] == 0) {
		if (cfg->d % 16 != 0)
			FAIL("d_model %zu: mrope's default sections, Qwen2-VL's "
			     "16,24,24 of 64 pairs scaled to d_model/2, need d_model "
			     "divisible by 16; give mrope_section T,H,W with T + H + "
			     "W = %zu", cfg->d, cfg->d / 2);
	} else if (s[0] > cfg->d || s[1] > cfg->d || s[2] > cfg->d ||
	    s[0] + s[1] + s[2] != cfg->d / 2) {
		FAIL("mrope_section %zu,%zu,%zu: the sections cover %zu pairs and "
		     "head_dim %zu has %zu; HF splits cos and sin by mrope_section "
		     "* 2, so T + H + W must be d_model/2 = %zu", s[0], s[1], s[2],
		    s[0] + s[1] + s[2], cfg->d, cfg->d / 2, cfg->d / 2);
	}
	if (m->layout == PE_MROPE_INTERLEAVED) {
		size_t sec[3], P = cfg->d / 2, got[3] = {0, 0, 0};
		pe_mrope_sections(cfg, sec);
		for (size_t j = 0; j < P; j++)
			got[pe_mrope_pair_axis(cfg, sec, j)]++;
		if (got[1] != sec[1] || got[2] != sec[2])
			FAIL("mrope_section %zu,%zu,%zu: interleaved (Qwen3-VL), h "
			     "takes pairs 1, 4, 7, ... below 3 H and w pairs 2, 5, "
			     "8, ... below 3 W; of head_dim %zu's %zu pairs that "
			     "is %zu for h and %zu for w, not the sections' %zu "
			     "and %zu: 3 max(H, W) must be at most %zu",
			    sec[0], sec[1], sec[2], cfg->d, P, got[1], got[2],
			    sec[1], sec[2], P + 1);
	}
	if ((unsigned)m->layout >= PE_MROPE_LAYOUT_COUNT)
		FAIL("mrope_layout %u: contiguous or interleaved",
		    (unsigned)m->layout);
	if (!isfinite(m->tokens_per_second) || m->tokens_per_second < 0.0 ||
	    m->tokens_per_second > 1e6)
		FAIL("tokens_per_second %g: Qwen2.5-VL's temporal ids per second "
		     "of video, 0 (a frame a step, Qwen2-VL) or up to 1e6",
		    m->tokens_per_second);
	if (!isfinite(m->seconds_per_frame) || m->seconds_per_frame <= 0.0 ||
	    m->seconds_per_frame > 1e6)
		FAIL("seconds_per_frame %g: the seconds a frame of the grid "
		     "spans (Qwen2.5-VL's second_per_grid_t), in (0, 1e6]",
		    m->seconds_per_frame);
	if (cfg->grid_h < 1 || cfg->grid_w < 1 || cfg->grid_h > PE_MAX_GRID ||
	    cfg->grid_w > PE_MAX_GRID)
		FAIL("grid %zux%zu: each side must be in 1..%zu", cfg->grid_h,
		    cfg->grid_w, PE_MAX_GRID);
	if (m->frames < 1 || m->frames > PE_MAX_N)
		FAIL("frames %zu: must be in 1..%zu (1: an image)", m->frames,
		    PE_MAX_N);
	if (m->text_before > PE_MAX_N || m->text_after > PE_MAX_N)
		FAIL("text_before %zu, text_after %zu: each must be at most %zu",
		    m->text_before, m->text_after, PE_MAX_N);
	size_t L = pe_mrope_length(cfg);
	if (L == 0 || L > PE_MAX_N)
		FAIL("frames %zu: text_before %zu + frames %zu x grid %zux%zu + "
		     "text_after %zu tokens is more than %zu", m->frames,
		    m->text_before, m->frames, cfg->grid_h, cfg->grid_w,
		    m->text_after, PE_MAX_N);
	/* the last frame's time, in float as HF's, before it is a long */
	double last = (double)(float)((float)(m->frames - 1) *
	    (float)m->seconds_per_frame) * (float)m->tokens_per_second;
	if (mrope_timed(cfg) && !(last <= (double)PE_MAX_N))
		FAIL("tokens_per_second %g: the last frame's temporal id (frames "
		     "%zu - 1) x seconds_per_frame %g x %g is more than %zu",
		    m->tokens_per_second, m->frames, m->seconds_per_frame,
		    m->tokens_per_second, PE_MAX_N);
	return PE_OK;
}

/* Qwen2-VL-7B's head_dim and rope_theta. */
void
pe_mrope_defaults(struct pe_config *cfg, bool d_given, bool base_given)
{
	if (!d_given)
		cfg->d = 128;
	if (!base_given)
		cfg->base = 1000000.0;
}

/* rope's words after "M-RoPE ": "M-RoPE base 1000000". */
int
pe_mrope_describe(const struct pe_config *cfg, char *dest, size_t cap)
{
	static const char pre[] = "M-RoPE ";
	int n = snprintf(dest, cap, "%s", pre);
	size_t at = (size_t)n;
	int m = pe_rope_describe(cfg, at < cap ? dest + at : NULL,
	    at < cap ? cap - at : 0);
	return m < 0 ? m : n + m;
}
