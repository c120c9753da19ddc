#!/usr/bin/python3
"""Independent reference for mrope (tests/test_mrope.c, tests/check_numpy.py).

A numpy transcription of Hugging Face transformers'
src/transformers/models/qwen2_vl/modeling_qwen2_vl.py (Qwen2-VL):
Qwen2VLModel.get_rope_index (one sequence, no attention mask: the loop over
vision_start tokens, the text ranges, t_index / h_index / w_index plus
text_len + st_idx, the text after from max + 1, llm_grid_h = h //
spatial_merge_size), Qwen2VLRotaryEmbedding.forward (freqs = inv_freq x
position per axis, emb = cat(freqs, freqs)), rotate_half and
apply_multimodal_rotary_pos_emb (cos and sin split by mrope_section * 2,
chunk i taken from axis i % 3). HF computes in float32; this in float64.

The sequence is built as token ids: text, the <|vision_start|> marker as
the last text token before the image (HF counts images by it), the image
or video pads, text. An image at the very start (no text before) is the
same sequence after a marker, shifted back by one position (get_rope_index
is translation invariant).

Run: /usr/bin/python3 tests/ref/mrope_ref.py   (prints C initialisers)
"""
import numpy as np

TEXT, VISION_START, IMAGE, VIDEO = 100, 151652, 151655, 151656
SPATIAL_MERGE = 2


def get_rope_index(input_ids, image_grid_thw=None, video_grid_thw=None):
    """position_ids (3, L) of one sequence, as get_rope_index."""
    input_tokens = list(input_ids)
    ids = np.asarray(input_ids)
    vision_start_indices = np.nonzero(ids == VISION_START)[0]
    vision_tokens = ids[vision_start_indices + 1]
    image_nums = int((vision_tokens == IMAGE).sum())
    video_nums = int((vision_tokens == VIDEO).sum())
    llm_pos_ids_list = []
    st = 0
    image_index, video_index = 0, 0
    remain_images, remain_videos = image_nums, video_nums
    for _ in range(image_nums + video_nums):
        if IMAGE in input_tokens and remain_images > 0:
            ed_image = input_tokens.index(IMAGE, st)
        else:
            ed_image = len(input_tokens) + 1
        if VIDEO in input_tokens and remain_videos > 0:
            ed_video = input_tokens.index(VIDEO, st)
        else:
            ed_video = len(input_tokens) + 1
        if ed_image < ed_video:
            t, h, w = image_grid_thw[image_index]
            image_index += 1
            remain_images -= 1
            ed = ed_image
        else:
            t, h, w = video_grid_thw[video_index]
            video_index += 1
            remain_videos -= 1
            ed = ed_video
        llm_grid_t, llm_grid_h, llm_grid_w = (
            t, h // SPATIAL_MERGE, w // SPATIAL_MERGE)
        text_len = ed - st
        st_idx = (llm_pos_ids_list[-1].max() + 1
                  if len(llm_pos_ids_list) > 0 else 0)
        llm_pos_ids_list.append(
            np.broadcast_to(np.arange(text_len), (3, text_len)) + st_idx)
        t_index = np.repeat(np.arange(llm_grid_t), llm_grid_h * llm_grid_w)
        h_index = np.tile(np.repeat(np.arange(llm_grid_h), llm_grid_w),
                          llm_grid_t)
        w_index = np.tile(np.arange(llm_grid_w), llm_grid_t * llm_grid_h)
        llm_pos_ids_list.append(
            np.stack([t_index, h_index, w_index]) + text_len + st_idx)
        st = ed + llm_grid_t * llm_grid_h * llm_grid_w
    if st < len(input_tokens):
        st_idx = (llm_pos_ids_list[-1].max() + 1
                  if len(llm_pos_ids_list) > 0 else 0)
        text_len = len(input_tokens) - st
        llm_pos_ids_list.append(
            np.broadcast_to(np.arange(text_len), (3, text_len)) + st_idx)
    return np.concatenate(llm_pos_ids_list, axis=1).reshape(3, -1)


def positions(text_before, grid_h, grid_w, frames, text_after):
    """[L, 3] int64: the sequence text, image (frames 1) or video, text."""
    pad = IMAGE if frames == 1 else VIDEO
    thw = [[frames, grid_h * SPATIAL_MERGE, grid_w * SPATIAL_MERGE]]
    shift = 1 if text_before == 0 else 0
    ids = ([TEXT] * (text_before - 1 + shift) + [VISION_START]
           + [pad] * (frames * grid_h * grid_w) + [TEXT] * text_after)
    if frames == 1:
        p = get_rope_index(ids, image_grid_thw=thw)
    else:
        p = get_rope_index(ids, video_grid_thw=thw)
    p = p[:, shift:] - shift
    return np.ascontiguousarray(p.T).astype(np.int64)


def inv_freq(d, base):
    """_compute_default_rope_parameters (Qwen2-VL's 'mrope' is default)."""
    return 1.0 / (base ** (np.arange(0, d, 2, dtype=np.int64)
                           .astype(np.float64) / d))


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def cos_sin(pos, d, base, section):
    """cos, sin [L, d] after apply_multimodal_rotary_pos_emb's split."""
    position_ids = pos.T.astype(np.float64)        # (3, L)
    freqs = position_ids[:, :, None] * inv_freq(d, base)[None, None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)  # (3, L, d)
    cos, sin = np.cos(emb), np.sin(emb)
    sec2 = list(section) * 2
    cuts = np.cumsum(sec2)[:-1]
    assert sum(sec2) == d, "mrope_section must cover the head"
    cos = np.concatenate([m[i % 3] for i, m in
                          enumerate(np.split(cos, cuts, axis=-1))], axis=-1)
    sin = np.concatenate([m[i % 3] for i, m in
                          enumerate(np.split(sin, cuts, axis=-1))], axis=-1)
    return cos, sin


def angles(pos, d, base, section):
    """[L, d/2]: the first half of the selected emb (before cos)."""
    position_ids = pos.T.astype(np.float64)
    freqs = position_ids[:, :, None] * inv_freq(d, base)[None, None, :]
    cuts = np.cumsum(list(section))[:-1]
    return np.concatenate([m[i % 3] for i, m in
                           enumerate(np.split(freqs, cuts, axis=-1))],
                          axis=-1)


def scores(pos, d, base, section):
    """[L, L]: (q cos + rotate_half(q) sin) . (k cos + ...) for q = k = the
    unit (1, 0) in every rotate_half pair."""
    cos, sin = cos_sin(pos, d, base, section)
    x = np.concatenate([np.ones(d // 2), np.zeros(d // 2)])
    q = x * cos + rotate_half(np.broadcast_to(x, cos.shape)) * sin
    return q @ q.T


def c_array(name, a, fmt="%.17g"):
    flat = np.asarray(a).reshape(-1)
    body = ",\n".join("\t" + ", ".join(fmt % v for v in flat[i:i + 4])
                      for i in range(0, len(flat), 4))
    return "static const %s %s[%d] = {\n%s,\n};" % (
        "int64_t" if np.asarray(a).dtype.kind == "i" else "double", name,
        len(flat), body)


if __name__ == "__main__":
    # an image 2 x 3 between 3 and 2 text tokens
    print(c_array("ref_pos_3_2x3_2", positions(3, 2, 3, 1, 2), "%d"))
    # a video of 3 frames of 2 x 2 after 2 text tokens, 1 after
    print(c_array("ref_pos_video", positions(2, 2, 2, 3, 1), "%d"))
    # no text: the image alone
    print(c_array("ref_pos_image_only", positions(0, 3, 2, 1, 0), "%d"))
    # scores of the 3, 2x3, 2 sequence at d 16, base 100, sections 2,3,3
    p = positions(3, 2, 3, 1, 2)
    print(c_array("ref_score_d16", scores(p, 16, 100.0, [2, 3, 3])))
    c, s = cos_sin(p, 16, 100.0, [2, 3, 3])
    print(c_array("ref_cos_d16_row5", c[5]))
    print(c_array("ref_sin_d16_row9", s[9]))
