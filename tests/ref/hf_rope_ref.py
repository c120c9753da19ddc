#!/usr/bin/python3
"""Independent reference for the model loader (src/io/hfconfig.c): a numpy
(float64) transcription of what Hugging Face transformers v5 makes of a
config.json, layer by layer.

- The rope parameters: src/transformers/modeling_rope_utils.py (v5),
  RotaryEmbeddingConfigMixin.convert_rope_params_to_dict and
  standardize_rope_params (one dict, or one per layer type), and the
  _compute_{linear_scaling,dynamic_ntk,yarn,longrope,llama3}_parameters
  functions; the default rope is each model's RotaryEmbedding
  .compute_default_rope_parameters (models/llama/modeling_llama.py).
- The layers: each model's configuration file, the v5 dataclass forms
  (models/gemma2/configuration_gemma2.py, models/gemma3/
  configuration_gemma3.py's convert_rope_params_to_dict and
  sliding_window_pattern, models/llama4/configuration_llama4.py's
  no_rope_layers and layer_types, models/smollm3/configuration_smollm3.py,
  models/qwen2/configuration_qwen2.py's use_sliding_window and
  max_window_layers, models/gpt_oss/configuration_gpt_oss.py,
  models/deepseek_v3/configuration_deepseek_v3.py's head_dim =
  qk_rope_head_dim), and the modeling files for what a layer does with it
  (modeling_llama4.py: use_rope = no_rope_layers[i], interleaved complex
  pairs; modeling_deepseek_v3.py: rope_interleave and the softmax scale's
  mscale**2; modeling_gemma2.py: query_pre_attn_scalar; modeling_t5.py:
  bidirectional = not is_decoder; modeling_bloom.py, modeling_mpt.py:
  ALiBi).
- The cos table: LlamaRotaryEmbedding.forward (emb = cat(freqs, freqs),
  cos = emb.cos() * attention_scaling) for the half pairing; for the
  interleaved one (Llama 4's polar form, GPT-J's rotate_every_two,
  DeepSeek's interleave) each frequency's cos repeated for its two dims.

HF works in float32; this works in float64 so that the C code (double) can
be compared tightly. It reads the JSON with Python's json module and shares
no code with pescope.
"""
import json
import math

import numpy as np


# ---- modeling_rope_utils.py (v5) -------------------------------------------

def rope_default(p, head_dim):
    """compute_default_rope_parameters: 1 / base ** (arange(0, dim, 2) / dim)."""
    base = p["rope_theta"]
    dim = int(head_dim * p.get("partial_rotary_factor", 1.0))
    inv = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim))
    return inv, 1.0


def rope_linear(p, head_dim):
    inv, att = rope_default(p, head_dim)
    return inv / p["factor"], att


def rope_dynamic(p, head_dim, max_pos, seq_len):
    base = p["rope_theta"]
    dim = int(head_dim * p.get("partial_rotary_factor", 1.0))
    factor = p["factor"]
    seq_len = max_pos if seq_len is None else max(seq_len, max_pos)
    base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim)), 1.0


def rope_yarn(p, head_dim, max_pos, truncate):
    base = p["rope_theta"]
    dim = int(head_dim * p.get("partial_rotary_factor", 1.0))
    factor = p.get("factor")
    attention_factor = p.get("attention_factor")
    mscale = p.get("mscale")
    mscale_all_dim = p.get("mscale_all_dim")
    original = p["original_max_position_embeddings"]
    if factor is None:
        factor = max_pos / original

    def get_mscale(scale, m=1):
        if scale <= 1:
            return 1.0
        return 0.1 * m * math.log(scale) + 1.0

    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = get_mscale(factor)
    beta_fast = p.get("beta_fast") or 32
    beta_slow = p.get("beta_slow") or 1

    def find_correction_dim(num_rotations):
        return (dim * math.log(original / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    low = find_correction_dim(beta_fast)
    high = find_correction_dim(beta_slow)
    if truncate:
        low = math.floor(low)
        high = math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
    pos_freqs = base ** (np.arange(0, dim, 2).astype(np.float64) / dim)
    extra = 1 - ramp
    inv = (1.0 / (factor * pos_freqs)) * (1 - extra) + (1.0 / pos_freqs) * extra
    return inv, attention_factor


def rope_longrope(p, head_dim, max_pos, seq_len):
    base = p["rope_theta"]
    dim = int(head_dim * p.get("partial_rotary_factor", 1.0))
    factor = p.get("factor")
    attention_factor = p.get("attention_factor")
    original = p["original_max_position_embeddings"]
    if factor is None:
        factor = max_pos / original
    if attention_factor is None:
        attention_factor = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) / math.log(original))
    ext = np.array(p["long_factor"] if (seq_len and seq_len > original) else p["short_factor"],
                   dtype=np.float64)
    shape = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
    return 1.0 / (ext * base ** shape), attention_factor


def rope_llama3(p, head_dim):
    inv, att = rope_default(p, head_dim)
    factor = p["factor"]
    lo, hi = p["low_freq_factor"], p["high_freq_factor"]
    old = p["original_max_position_embeddings"]
    low_wl, high_wl = old / lo, old / hi
    wavelen = 2 * math.pi / inv
    inv_l = np.where(wavelen > low_wl, inv / factor, inv)
    smooth = (old / wavelen - lo) / (hi - lo)
    smoothed = (1 - smooth) * inv_l / factor + smooth * inv_l
    medium = ~(wavelen < high_wl) * ~(wavelen > low_wl)
    return np.where(medium, smoothed, inv_l), att


def compute(p, head_dim, max_pos, seq_len, truncate):
    t = p["rope_type"]
    if t == "default":
        return rope_default(p, head_dim)
    if t == "linear":
        return rope_linear(p, head_dim)
    if t == "dynamic":
        return rope_dynamic(p, head_dim, max_pos, seq_len)
    if t == "yarn":
        return rope_yarn(p, head_dim, max_pos, truncate)
    if t == "longrope":
        return rope_longrope(p, head_dim, max_pos, seq_len)
    if t == "llama3":
        return rope_llama3(p, head_dim)
    raise ValueError("rope_type " + t)


def standardize(c, layer_types, default_theta, force_original=None):
    """convert_rope_params_to_dict + standardize_rope_params: a dict, or a
    dict of dicts keyed by layer type. force_original: a top-level
    original_max_position_embeddings (case 1's priority)."""
    rope = c.get("rope_scaling") or c.get("rope_parameters") or {}
    rope = json.loads(json.dumps(rope))
    if rope.get("type") == "su" and c.get("model_type") == "phi3":
        rope["type"] = "longrope"  # configuration_phi3.py, before standardizing
    theta = c.get("rope_theta", default_theta)
    prf = c.get("partial_rotary_factor")
    max_pos = c.get("max_position_embeddings")
    nested = layer_types is not None and rope != {} and set(rope.keys()) <= set(layer_types)

    def fill(d, case1):
        d.setdefault("rope_type", d.get("type", "default"))
        d.setdefault("rope_theta", theta)
        if prf is not None:
            d["partial_rotary_factor"] = prf
        if d["rope_type"] in ("llama3", "yarn", "longrope"):
            if case1 and force_original is not None:
                d["original_max_position_embeddings"] = force_original
            else:
                d.setdefault("original_max_position_embeddings", max_pos)
        return d

    if nested:
        return {k: fill(v, False) for k, v in rope.items()}, True
    return fill(rope, True), False


# ---- the models' configuration files ---------------------------------------

def model_layers(path):
    """[(type, rope dict or None, shape dict)] and the model's facts."""
    with open(path) as f:
        root = json.load(f)
    own = root.get("_pescope", {})
    mt = root["model_type"]
    c = root.get("text_config") or root
    outer = {"llama4": "llama4_text", "gemma3": "gemma3_text", "qwen2_vl": "qwen2_vl_text",
             "qwen2_5_vl": "qwen2_5_vl_text", "qwen3_vl": "qwen3_vl_text"}
    mrope = ("qwen2_vl_text", "qwen2_5_vl_text", "qwen3_vl_text")
    mt = c.get("model_type", mt) if c is not root else mt
    mt = outer.get(mt, mt)
    head_dim = c.get("head_dim") or (c.get("hidden_size", c.get("n_embd", c.get("d_model", c.get("embed_dim", 0))))
                                     // c.get("num_attention_heads", c.get("n_head", c.get("n_heads", c.get("num_heads", 1)))))
    n = c.get("num_hidden_layers", c.get("n_layer", c.get("num_layers", c.get("n_layers", c.get("depth")))))
    max_pos = c.get("max_position_embeddings", c.get("n_positions", c.get("max_seq_len")))
    layers = []

    if mt in ("gpt2", "bert"):
        for _ in range(n):
            layers.append(dict(type="decoder" if mt == "gpt2" else "encoder", enc="learned",
                               causal=mt == "gpt2", max_len=max_pos,
                               d=c["n_embd"] if mt == "gpt2" else c["hidden_size"]))
        return layers, dict(max_pos=max_pos)
    if mt == "t5":
        dec = c.get("num_decoder_layers", n)
        for i in range(n + dec):
            layers.append(dict(type="encoder" if i < n else "decoder", enc="relative",
                               causal=i >= n, bidirectional=i < n,
                               buckets=c.get("relative_attention_num_buckets", 32),
                               max_distance=c.get("relative_attention_max_distance", 128)))
        return layers, dict(max_pos=max_pos)
    if mt in ("bloom", "mpt"):
        heads = c.get("n_head", c.get("n_heads"))
        return [dict(type="full_attention", enc="alibi", causal=True, heads=heads)
                for _ in range(n)], dict(max_pos=max_pos)
    if mt == "vit_mae":
        return [dict(type="encoder", enc="vit2d", causal=False) for _ in range(n)], dict(max_pos=None)
    if mt == "rope_vit":
        return [dict(type="encoder", enc="rope2d", causal=False) for _ in range(n)], dict(max_pos=None)

    # RoPE decoders: layer types
    use_rope = [True] * n
    types = c.get("layer_types")
    if mt in ("llama4_text", "smollm3"):
        nrl = c.get("no_rope_layers")
        interval = c.get("no_rope_layer_interval", 4)
        if not nrl:
            nrl = [int((i + 1) % interval != 0) for i in range(n)]
        use_rope = [bool(x) for x in nrl[:n]]
    if types is None:
        if mt == "llama4_text":
            types = ["chunked_attention" if r else "full_attention" for r in use_rope]
        elif mt == "smollm3":
            sw = c.get("sliding_window") if c.get("use_sliding_window") else None
            types = ["sliding_attention" if sw is not None and not r else "full_attention" for r in use_rope]
        elif mt in ("gemma2", "gpt_oss"):
            types = ["sliding_attention" if bool((i + 1) % 2) else "full_attention" for i in range(n)]
        elif mt == "gemma3_text":
            pat = c.get("sliding_window_pattern", 6)
            types = ["sliding_attention" if bool((i + 1) % pat) else "full_attention" for i in range(n)]
        elif mt in ("qwen2", "qwen3", "qwen2_vl_text", "qwen2_5_vl_text"):
            sw = c.get("sliding_window") if c.get("use_sliding_window") else None
            mwl = c.get("max_window_layers", 28)
            types = ["sliding_attention" if sw is not None and i >= mwl else "full_attention" for i in range(n)]
        elif mt in ("mistral", "phi3"):
            sw = c.get("sliding_window")
            types = ["sliding_attention" if sw is not None else "full_attention"] * n
        else:
            types = ["full_attention"] * n

    # the rope dicts
    theta_default = {"llama4_text": 500000.0, "gpt_oss": 150000.0, "qwen2_vl_text": 1000000.0,
                     "qwen2_5_vl_text": 1000000.0, "qwen3_vl_text": 5000000.0}.get(mt, 10000.0)
    cc = dict(c)
    if mt == "gpt_neox":
        cc["partial_rotary_factor"] = c.get("rotary_pct", 1.0)
        cc["rope_theta"] = c.get("rotary_emb_base", 10000)
    if mt == "gptj":
        cc["partial_rotary_factor"] = c["rotary_dim"] / head_dim
    if mt in ("deepseek_v3", "deepseek_v2"):
        head_dim = c["qk_rope_head_dim"]
    force_original = c.get("original_max_position_embeddings")
    if mt == "phi3" and force_original is None:
        force_original = 4096
    if mt == "gemma3_text":
        # Gemma3TextConfig.convert_rope_params_to_dict
        rp = json.loads(json.dumps(c.get("rope_parameters") or {
            "sliding_attention": {"rope_type": "default"}, "full_attention": {"rope_type": "default"}}))
        if c.get("rope_scaling") is not None:
            rp["full_attention"].update(c["rope_scaling"])
        rp["full_attention"].setdefault("rope_theta", c.get("rope_theta", 1000000.0))
        rp["sliding_attention"].setdefault("rope_theta", c.get("rope_local_base_freq", 10000.0))
        cc = dict(c, rope_parameters=rp, rope_scaling=None)
        cc.pop("rope_theta", None)
        rope, nested = standardize(cc, types, None)
    else:
        rope, nested = standardize(cc, types, theta_default, force_original)
    for d in (rope.values() if nested else [rope]):
        if d["rope_type"] == "mrope":
            d["rope_type"] = "default"
    # yarn's truncate: config.rope_parameters.get("truncate", True)
    truncate = True if nested else rope.get("truncate", True)

    pairing = "half"
    if mt in ("llama4_text", "gptj", "deepseek_v2") or (mt == "deepseek_v3" and c.get("rope_interleave", True)):
        pairing = "interleaved"
    seq_len = own.get("seq_len", max_pos)
    for i in range(n):
        t = types[i]
        p = rope[t] if nested else rope
        shape = dict(type=t, enc="mrope" if mt in mrope else "rope", causal=True,
                     rotates=use_rope[i], head_dim=head_dim,
                     span={"full_attention": "full", "sliding_attention": "sliding",
                           "chunked_attention": "chunked"}[t])
        if t == "sliding_attention":
            shape["window"] = c["sliding_window"]
        if t == "chunked_attention":
            shape["chunk"] = c.get("attention_chunk_size", 8192)
        if not use_rope[i]:
            shape["enc"] = "nope"
        else:
            inv, att = compute(p, head_dim, max_pos, seq_len, truncate)
            shape.update(inv_freq=inv, attention_scaling=att, rope_type=p["rope_type"], pairing=pairing,
                         base=p["rope_theta"], rotary_dim=int(head_dim * p.get("partial_rotary_factor", 1.0)))
        # the softmax scale
        qk = head_dim
        if mt in ("deepseek_v3", "deepseek_v2"):
            qk = c["qk_rope_head_dim"] + c["qk_nope_head_dim"]
            shape["head_dim"] = qk
        scale = qk ** -0.5
        if mt in ("gemma2", "gemma3_text") and c.get("query_pre_attn_scalar"):
            scale = c["query_pre_attn_scalar"] ** -0.5
        if mt in ("deepseek_v3", "deepseek_v2") and p.get("rope_type", "default") != "default":
            mad = p.get("mscale_all_dim", 0)
            if mad:
                m = 0.1 * mad * math.log(p["factor"]) + 1.0
                scale = scale * m * m
        shape["softmax_scale"] = scale
        layers.append(shape)
    return layers, dict(max_pos=max_pos, seq_len=seq_len)


def cos_row(inv, att, pairing, p):
    """cos of position p for every rotary column, times attention_scaling."""
    freqs = p * inv
    if pairing == "half":
        emb = np.concatenate([freqs, freqs])
    else:
        emb = np.repeat(freqs, 2)
    return np.cos(emb) * att
