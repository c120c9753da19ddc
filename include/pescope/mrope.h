/* Multimodal rotary position embedding (M-RoPE) of Qwen2-VL (Wang et al.
 * 2024), as Hugging Face transformers' models/qwen2_vl/modeling_qwen2_vl.py
 * computes it: Qwen2VLModel.get_rope_index gives every token a position
 * triple (t, h, w), and apply_multimodal_rotary_pos_emb rotates each pair
 * of the head by one of the three.
 *
 * The sequence is text_before text tokens, an image (frames 1) or a video
 * of llm_grid_t = frames frames of grid_h x grid_w patches (after the
 * vision tower's spatial merge: HF's llm_grid_h, llm_grid_w), then
 * text_after text tokens:
 *   text before, token i:        (i, i, i)
 *   patch (f, r, c):             (N + t(f), N + r, N + c),  N = text_before
 *   text after, its k-th token:  (s + k, s + k, s + k),
 *                                s = N + max(t(frames - 1) + 1, grid_h,
 *                                grid_w)
 * (s is the largest position so far plus 1). t(f) = f, a frame a step
 * (Qwen2-VL), or with tokens_per_second Qwen2.5-VL's absolute time:
 * long(f * second_per_grid_t * tokens_per_second) (modeling_qwen2_5_vl.py,
 * get_rope_index). Pairs rotate with rotate_half (pair j: dims j and
 * j + d/2) at HF's default inv_freq[j] = base^(-2j/d); pair j takes the
 * t, h or w position by the section it falls in (mrope_section, which
 * must cover the d/2 pairs exactly: HF splits cos and sin by
 * mrope_section * 2), or in Qwen3-VL's interleaved layout by j mod 3
 * (pe_mrope_pair_axis). */
#ifndef PESCOPE_MROPE_H
#define PESCOPE_MROPE_H

#include "pescope.h"

/* The components of a position triple. */
enum pe_mrope_axis { PE_MROPE_T, PE_MROPE_H, PE_MROPE_W };

/* The three parts of the sequence. */
enum pe_mrope_part { PE_MROPE_TEXT_BEFORE, PE_MROPE_VISION,
	PE_MROPE_TEXT_AFTER };

/* The sections cfg uses: its mrope_section, or when that is all zero
 * Qwen2-VL's [16, 24, 24] of 64 pairs scaled to d/2 pairs: d/8, 3d/16,
 * 3d/16 (d a multiple of 16; pe_config_check says so otherwise). */
void pe_mrope_sections(const struct pe_config *cfg, size_t dest[3]);

/* The axis pair j rotates by in the contiguous layout (sections as
 * pe_mrope_sections): Qwen2-VL's and Qwen2.5-VL's split. */
enum pe_mrope_axis pe_mrope_axis_of(const size_t sections[3], size_t j);

/* The axis pair j rotates by in cfg's layout: contiguous as
 * pe_mrope_axis_of; interleaved as Qwen3-VL's apply_interleaved_mrope
 * (h for j % 3 == 1 and j < 3 s_h, w for j % 3 == 2 and j < 3 s_w, else
 * t). */
enum pe_mrope_axis pe_mrope_pair_axis(const struct pe_config *cfg,
    const size_t sections[3], size_t j);

/* Frame f's temporal id before the text offset: f (Qwen2-VL), or with
 * tokens_per_second Qwen2.5-VL's get_rope_index: long(f *
 * second_per_grid_t * tokens_per_second), the products in float32. */
int64_t pe_mrope_frame_time(const struct pe_config *cfg, size_t f);

/* Tokens in the sequence: text_before + frames grid_h grid_w + text_after
 * (0 when that would overflow; pe_config_check refuses it). */
size_t pe_mrope_length(const struct pe_config *cfg);

/* The part token i is in, and, for a vision token, its frame, row and
 * column. */
enum pe_mrope_part pe_mrope_part_of(const struct pe_config *cfg, size_t i,
    size_t *f, size_t *r, size_t *c);

/* Position triple of token i (get_rope_index). */
void pe_mrope_position(const struct pe_config *cfg, size_t i, int64_t dest[3]);

/* HF's default inverse frequencies base^(-2j/d), j < d/2, into dest. */
void pe_mrope_inv_freq(const struct pe_config *cfg, double *dest);

/* A run of positions of one axis over a range of tokens: positions p0,
 * p0 + 1, ..., p0 + len - 1, each held by mult tokens; or, `frames`, the
 * frames p0 .. p0 + len - 1 at their temporal ids (text_before +
 * pe_mrope_frame_time: Qwen2.5-VL's times need not step by 1), each held
 * by mult tokens (pe_mrope_run_pos gives a run's positions). */
struct pe_mrope_run {
	uint64_t p0, len, mult;
	bool frames;
};

/* The k-th position of a run (k < len). */
uint64_t pe_mrope_run_pos(const struct pe_config *cfg,
    const struct pe_mrope_run *run, uint64_t k);
#define PE_MROPE_MAX_RUNS 8

/* The positions of axis a over tokens [i0, i1) as at most
 * PE_MROPE_MAX_RUNS runs in dest (text: one run each; vision: partial
 * rows and frames, and runs of whole ones); returns how many. Sums over a
 * token range (the exact block means of the fields) are sums over runs. */
size_t pe_mrope_runs(const struct pe_config *cfg, enum pe_mrope_axis a,
    size_t i0, size_t i1, struct pe_mrope_run *dest);

/* The tables of `dump`, for every token in order:
 *   positions [L, 3] (t, h, w), get_rope_index's position_ids;
 *   angles [L, d/2]: theta[i, j] = position_{axis(j)}(i) inv_freq[j];
 *   cos, sin [L, d]: HF's layout after apply_multimodal_rotary_pos_emb's
 *     section split, column k of pair k mod d/2 (cos(emb), attention
 *     scaling 1). Either of cos and sin may be NULL.
 * PE_EINVAL when cfg's shared and mrope parameters do not pass their
 * checks (pe_config_check's, whatever cfg's encoding). */
int pe_mrope_fill_positions(const struct pe_config *cfg, int64_t *dest);
int pe_mrope_fill_angles(const struct pe_config *cfg, double *dest);
int pe_mrope_fill_cos_sin(const struct pe_config *cfg, double *cos_dest,
    double *sin_dest);

/* The score of tokens a and b for q = k = (1, 0) in every pair (the same
 * unit vector at both): sum_j cos((p_{axis(j)}(a) - p_{axis(j)}(b))
 * inv_freq[j]), differences of integers formed first. inv_freq as
 * pe_mrope_inv_freq, sections as pe_mrope_sections. */
double pe_mrope_score(const struct pe_config *cfg, const double *inv_freq,
    const size_t sections[3], size_t a, size_t b);

#endif
