/* The option table: one typed row per option (options_table.h says what a
 * row holds). Adding an option is adding its row here (and its id to enum
 * opt_id); the parser, --help, the man page, the completions and the
 * refusals read it. */
#include <ctype.h>
#include <string.h>

#include "app/options_impl.h"
#include "app/stream.h"
#include "pescope/encoding.h"
#include "pescope/toy.h"
#include "render/pdf.h"
#include "render/writer.h"
#include "tui/tui.h"

#define R_SCALED (R(LINEAR) | R(DYNAMIC) | R(YARN) | R(LONGROPE) | R(LLAMA3))
/* The options of the toy attention and worked examples: the TUI, snapshot
 * (their panels) and dump (their tables). */
#define C_TEACH C_CONF

/* The owning modules' name tables, as choices. */
static const char *
table_enc_name(int v)
{
	return pe_encoding_name((enum pe_encoding)v);
}

static const char *
table_rope_name(int v)
{
	return pe_rope_type_name((enum pe_rope_type)v);
}

static const char *
table_panel_name(int v)
{
	return pe_panel_name((enum pe_panel)v);
}

static const char *
table_depth_name(int v)
{
	return pe_depth_name((enum pe_depth)v);
}

static const char *
table_theme_name(int v)
{
	return pe_theme_name((enum pe_theme)v);
}

static const char *
table_gfx_name(int v)
{
	return pe_gfx_name((enum pe_gfx)v);
}

static const struct opt_choices encodings = {PE_ENC_COUNT, table_enc_name,
	pe_encoding_parse, NULL, NULL};
static const struct opt_choices scalings = {PE_ROPE_TYPE_COUNT,
	table_rope_name, NULL, NULL, NULL};
static const struct opt_choices panels = {PE_PANEL_COUNT, table_panel_name,
	pe_panel_parse, NULL, NULL};
static const struct opt_choices depths = {PE_DEPTH_MONO + 1,
	table_depth_name, pe_depth_parse, NULL, NULL};
static const struct opt_choices themes = {PE_THEME_COUNT, table_theme_name,
	pe_theme_parse, NULL, NULL};
static const struct opt_choices graphics = {PE_GFX_COUNT, table_gfx_name,
	pe_gfx_parse, NULL, NULL};

/* Values only the command line names (the kernel keeps none). */
static const struct opt_choices layouts = {.names = (const struct opt_name[]){
	{"interleaved", PE_LAYOUT_INTERLEAVED}, {"split", PE_LAYOUT_SPLIT},
	{"t2t", PE_LAYOUT_T2T}, {NULL, 0}}};
static const struct opt_choices pairings = {.names = (const struct opt_name[]){
	{"half", PE_PAIR_HALF}, {"interleaved", PE_PAIR_INTERLEAVED},
	{NULL, 0}}};
static const struct opt_choices alibi_modes = {
	.names = (const struct opt_name[]){{"causal", PE_ALIBI_CAUSAL},
	{"symmetric", PE_ALIBI_SYMMETRIC}, {NULL, 0}}};
static const struct opt_choices relative_kinds = {
	.names = (const struct opt_name[]){{"t5", PE_REL_T5},
	{"shaw", PE_REL_SHAW}, {NULL, 0}}};
static const struct opt_choices rope2d_kinds = {
	.names = (const struct opt_name[]){{"axial", PE_ROPE2D_AXIAL},
	{"mixed", PE_ROPE2D_MIXED}, {NULL, 0}}};
static const struct opt_choices masks = {.names = (const struct opt_name[]){
	{"causal", PE_TOY_MASK_CAUSAL}, {"none", PE_TOY_MASK_NONE}, {NULL, 0}}};
static const struct opt_choices mrope_layouts = {
	.names = (const struct opt_name[]){{"contiguous", PE_MROPE_CONTIGUOUS},
	{"interleaved", PE_MROPE_INTERLEAVED}, {NULL, 0}}};
static const struct opt_choices head_scales = {
	.names = (const struct opt_name[]){{"shared", 0}, {"own", 1},
	{NULL, 0}}};
static const struct opt_choices papers = {.names = (const struct opt_name[]){
	{"fit", PE_PAPER_FIT}, {"a4", PE_PAPER_A4}, {"letter", PE_PAPER_LETTER},
	{"16:9", PE_PAPER_16_9}, {NULL, 0}}};
static const struct opt_choices dtypes = {.names = (const struct opt_name[]){
	{"f32", PE_F32}, {"f64", PE_F64}, {NULL, 0}}};

static const char *
table_task_name(int v)
{
	return pe_train_task_name((enum pe_train_task)v);
}

static const struct opt_choices train_tasks = {PE_TRAIN_TASK_COUNT,
	table_task_name, pe_train_task_parse, NULL, NULL};

const struct opt_row pe_opts[O_COUNT] = {
	[O_ENCODING] = {"encoding", 'e', C_CONF, G_ENC, "E",
	    "sinusoidal (default), learned, relative, rope,\n"
	    "alibi, nope, vit2d, mrope, xpos, rope2d",
	    ENUM(cfg.enc, encodings), .every_enc = true},
	[O_D_MODEL] = {"d-model", 'd', C_CONF, G_ENC, "N",
	    "model width (rope, mrope, xpos: the head dimension;\n"
	    "the toy tables and panel: the tokens' width, any\n"
	    "encoding); 64 (mrope: 128)",
	    SIZE(cfg.d, 1, PE_MAX_D), .given = OFF(d_given),
	    .params = PE_PARAM_D_MODEL, .also_panels = PAN(ATTENTION),
	    .also_caps = PE_CAP_TOY},
	[O_SEQ_LEN] = {"seq-len", 'n', C_CONF, G_ENC, "N",
	    "sequence length; 64 (vit2d and rope2d are sized by\n"
	    "--grid, mrope by its text, image and frames)",
	    SIZE(cfg.n, 1, PE_MAX_N),
	    .params = PE_PARAM_SEQ_LEN},
	[O_BASE] = {"base", 0, C_CONF, G_ENC, "B",
	    "the base of the frequencies ω_i = base^(−2i/d)\n"
	    "(HF's rope_theta); 10000 (mrope:\n"
	    "1000000; xpos: torchscale's fixed 10000; rope2d:\n"
	    "RoPE-ViT's 100 axial, 10 mixed)",
	    FLOAT(cfg.base), .lo = 1, .lo_bound = B_OPEN,
	    .given = OFF(base_given),
	    .params = PE_PARAM_BASE},
	[O_LAYOUT] = {"layout", 0, C_CONF, G_ENC, "L",
	    "sinusoidal columns: interleaved (the paper,\n"
	    "PyTorch), split (GPT-J: the paper's frequencies,\n"
	    "sines then cosines) or t2t (tensor2tensor, fairseq:\n"
	    "base^(-i/(d/2-1)))",
	    ENUM(cfg.layout, layouts), .params = PE_PARAM_LAYOUT},
	[O_PAIRING] = {"pairing", 0, C_CONF, G_ENC, "P",
	    "rope: half (HF rotate_half) or interleaved (GPT-J)",
	    ENUM(cfg.pairing, pairings), .params = PE_PARAM_PAIRING},
	[O_HEADS] = {"heads", 0, C_CONF, G_ENC, "H",
	    "alibi heads; 8 (with --train: the model's; 1)",
	    SIZE(cfg.heads, 1, PE_MAX_HEADS),
	    .params = PE_PARAM_HEADS},
	[O_ALIBI_MODE] = {"alibi-mode", 0, C_CONF, G_ENC, "M",
	    "alibi: causal (default) or symmetric",
	    ENUM(cfg.alibi_mode, alibi_modes), .params = PE_PARAM_ALIBI_MODE},
	[O_RELATIVE] = {"relative", 0, C_CONF, G_ENC, "K",
	    "relative: t5 (default) or shaw",
	    ENUM(cfg.relative, relative_kinds), .params = PE_PARAM_RELATIVE},
	[O_BUCKETS] = {"buckets", 0, C_CONF, G_ENC, "N", "t5 num_buckets; 32",
	    SIZE(cfg.buckets, 2, 4096), .params = PE_PARAM_RELATIVE, .kinds = K_T5},
	[O_MAX_DISTANCE] = {"max-distance", 0, C_CONF, G_ENC, "N",
	    "t5 max_distance; 128", SIZE(cfg.max_distance, 1, PE_MAX_N),
	    .params = PE_PARAM_RELATIVE, .kinds = K_T5},
	[O_BIDIRECTIONAL] = {"bidirectional", 0, C_CONF, G_ENC, NULL,
	    "t5 encoder buckets (default)", FLAG(cfg.bidirectional, true),
	    .params = PE_PARAM_RELATIVE, .kinds = K_T5},
	[O_UNIDIRECTIONAL] = {"unidirectional", 0, C_CONF, G_ENC, NULL,
	    "t5 decoder buckets", FLAG(cfg.bidirectional, false),
	    .params = PE_PARAM_RELATIVE, .kinds = K_T5},
	[O_MAX_RELATIVE] = {"max-relative", 0, C_CONF, G_ENC, "K",
	    "shaw clipping distance; 16", SIZE(cfg.max_relative, 1, PE_MAX_N),
	    .params = PE_PARAM_RELATIVE, .kinds = K_SHAW},
	[O_GRID] = {"grid", 0, C_CONF, G_ENC, "HxW",
	    "vit2d, rope2d patch grid; mrope's image after the\n"
	    "merge (HF's llm_grid_h x llm_grid_w); 14x14",
	    HOOK(OPT_SIZE, opt_grid), .params = PE_PARAM_GRID},
	[O_TEXT_BEFORE] = {"text-before", 0, C_CONF, G_ENC, "N",
	    "mrope: text tokens before the image; 8",
	    SIZE(cfg.mrope.text_before, 0, PE_MAX_N), .params = PE_PARAM_MROPE},
	[O_FRAMES] = {"frames", 0, C_CONF, G_ENC, "F",
	    "mrope: a video of F frames (HF's llm_grid_t,\n"
	    "time step 1); 1, an image",
	    SIZE(cfg.mrope.frames, 1, PE_MAX_N), .params = PE_PARAM_MROPE},
	[O_TEXT_AFTER] = {"text-after", 0, C_CONF, G_ENC, "M",
	    "mrope: text tokens after the image; 8",
	    SIZE(cfg.mrope.text_after, 0, PE_MAX_N), .params = PE_PARAM_MROPE},
	[O_MROPE_SECTION] = {"mrope-section", 0, C_CONF, G_ENC, "T,H,W",
	    "mrope: pairs turned by t, h and w, T+H+W = d/2;\n"
	    "Qwen2-VL's 16,24,24 (scaled to d/2)",
	    HOOK(OPT_SIZE, opt_mrope_section), .params = PE_PARAM_MROPE},
	[O_MROPE_LAYOUT] = {"mrope-layout", 0, C_CONF, G_ENC, "L",
	    "mrope: contiguous (Qwen2-VL, Qwen2.5-VL: t's\n"
	    "pairs, then h's, then w's) or interleaved\n"
	    "(Qwen3-VL's apply_interleaved_mrope: t h w ...)",
	    ENUM(cfg.mrope.layout, mrope_layouts), .params = PE_PARAM_MROPE},
	[O_TOKENS_PER_SECOND] = {"tokens-per-second", 0, C_CONF, G_ENC, "R",
	    "mrope: a frame's temporal id follows time,\n"
	    "long(f x seconds-per-frame x R) (Qwen2.5-VL's\n"
	    "vision_config.tokens_per_second, 2); 0: a step\n"
	    "a frame (Qwen2-VL)",
	    FLOAT(cfg.mrope.tokens_per_second), .lo = 0, .lo_bound = B_CLOSED,
	    .hi = 1e6, .hi_bound = B_CLOSED, .params = PE_PARAM_MROPE},
	[O_SECONDS_PER_FRAME] = {"seconds-per-frame", 0, C_CONF, G_ENC, "S",
	    "mrope: seconds a frame of the grid spans\n"
	    "(Qwen2.5-VL's second_per_grid_t: temporal patch\n"
	    "size / fps); 1 (needs --tokens-per-second)",
	    FLOAT(cfg.mrope.seconds_per_frame), .lo = 0, .lo_bound = B_OPEN,
	    .hi = 1e6, .hi_bound = B_CLOSED,
	    .given = OFF(seconds_per_frame_given), .params = PE_PARAM_MROPE},
	[O_XPOS_SCALE_BASE] = {"xpos-scale-base", 0, C_CONF, G_ENC, "G",
	    "xpos: the scale's base gamma, zeta^(m/gamma); 512",
	    FLOAT(cfg.xpos.xpos_scale_base), .lo = 0, .lo_bound = B_OPEN,
	    .params = PE_PARAM_XPOS},
	[O_XPOS_OFFSET] = {"xpos-offset", 0, C_CONF, G_ENC, "K",
	    "xpos: the queries' offset (torchscale's\n"
	    "forward(q, offset)); 0",
	    SIZE(cfg.xpos.xpos_offset, 0, PE_MAX_N), .params = PE_PARAM_XPOS},
	[O_ROPE2D] = {"rope2d", 0, C_CONF, G_ENC, "K",
	    "rope2d: axial (default; RoPE-ViT's RoPE-Axial) or\n"
	    "mixed (RoPE-Mixed: learned x and y frequencies)",
	    ENUM(cfg.rope2d.kind, rope2d_kinds), .params = PE_PARAM_ROPE2D},
	[O_FREQS_FILE] = {"freqs-file", 0, C_CONF, G_ENC, "F.npy",
	    "rope2d mixed: learned frequencies, [2, heads,\n"
	    "d/2] or the reference's freqs [2, depth, heads\n"
	    "d/2] (else init_random_2d_freqs, torch seed 0)",
	    HOOK(OPT_FILE, opt_freqs_file), .params = PE_PARAM_ROPE2D},
	[O_LAYER] = {"layer", 0, C_CONF, G_ENC, "L",
	    "the layer shown: the model's (--config, any\n"
	    "encoding); rope2d mixed: the block of a\n"
	    "[2, depth, ...] file; 0", SIZE(cfg.rope2d.layer, 0, PE_MAX_N),
	    .params = PE_PARAM_ROPE2D},
	[O_TABLE_FILE] = {"table-file", 0, C_CONF, G_ENC, "F.npy",
	    "learned: a [max_len, d] table (else untrained)",
	    HOOK(OPT_FILE, opt_table_file), .params = PE_PARAM_TABLE},
	[O_MAX_LEN] = {"max-len", 0, C_CONF, G_ENC, "L",
	    "learned: rows of the untrained table; 1024",
	    SIZE(cfg.max_len, 1, PE_MAX_N), .given = OFF(max_len_given),
	    .params = PE_PARAM_TABLE},

	[O_ROPE_SCALING] = {"rope-scaling", 0, C_CONF, G_ROPE, "T",
	    "default, linear, dynamic, yarn, longrope, llama3",
	    ENUM(cfg.rope.type, scalings), .params = PE_PARAM_ROPE_SCALING},
	[O_FACTOR] = {"factor", 0, C_CONF, G_ROPE, "F",
	    "scaling factor (>= 1); 4 (longrope: when given;\n"
	    "else max-pos / original-max-pos, as HF's Phi-3)",
	    FLOAT(cfg.rope.factor), .given = OFF(cfg.rope.factor_given),
	    .params = PE_PARAM_ROPE_SCALING, .scalings = R_SCALED},
	[O_ORIGINAL_MAX_POS] = {"original-max-pos", 0, C_CONF, G_ROPE, "N",
	    "original_max_position_embeddings; 4096",
	    SIZE(cfg.rope.original_max_pos, 1, PE_MAX_N), .params = PE_PARAM_ROPE_SCALING,
	    .scalings = R(YARN) | R(LONGROPE) | R(LLAMA3)},
	[O_MAX_POS] = {"max-pos", 0, C_CONF, G_ROPE, "N",
	    "max_position_embeddings (dynamic, longrope); 4096",
	    SIZE(cfg.rope.max_pos, 1, PE_MAX_N), .params = PE_PARAM_ROPE_SCALING,
	    .scalings = R(DYNAMIC) | R(LONGROPE)},
	[O_BETA_FAST] = {"beta-fast", 0, C_CONF, G_ROPE, "B",
	    "yarn; 32 (0 means unset, as HF: 32)", FLOAT(cfg.rope.beta_fast),
	    .params = PE_PARAM_ROPE_SCALING, .scalings = R(YARN)},
	[O_BETA_SLOW] = {"beta-slow", 0, C_CONF, G_ROPE, "B",
	    "yarn; 1 (0 means unset, as HF: 1)", FLOAT(cfg.rope.beta_slow),
	    .params = PE_PARAM_ROPE_SCALING, .scalings = R(YARN)},
	[O_MSCALE] = {"mscale", 0, C_CONF, G_ROPE, "M",
	    "yarn; with --mscale-all-dim the attention factor is\n"
	    "get_mscale(f, M) / get_mscale(f, A);\n"
	    "0 or only one given: unset (0.1 ln(f) + 1), as HF",
	    FLOAT(cfg.rope.mscale), .params = PE_PARAM_ROPE_SCALING, .scalings = R(YARN)},
	[O_MSCALE_ALL_DIM] = {"mscale-all-dim", 0, C_CONF, G_ROPE, "A",
	    "yarn (0 means unset, as HF)", FLOAT(cfg.rope.mscale_all_dim),
	    .params = PE_PARAM_ROPE_SCALING, .scalings = R(YARN)},
	[O_ATTENTION_FACTOR] = {"attention-factor", 0, C_CONF, G_ROPE, "A",
	    "yarn, longrope: the factor on cos and sin; derived",
	    FLOAT(cfg.rope.attention_factor), .params = PE_PARAM_ROPE_SCALING,
	    .scalings = R(YARN) | R(LONGROPE)},
	[O_TRUNCATE] = {"truncate", 0, C_CONF, G_ROPE, NULL,
	    "yarn: floor/ceil the correction range (default)",
	    FLAG(cfg.rope.truncate, true), .params = PE_PARAM_ROPE_SCALING,
	    .scalings = R(YARN)},
	[O_NO_TRUNCATE] = {"no-truncate", 0, C_CONF, G_ROPE, NULL,
	    "yarn: keep the correction range fractional",
	    FLAG(cfg.rope.truncate, false), .params = PE_PARAM_ROPE_SCALING,
	    .scalings = R(YARN)},
	[O_LOW_FREQ] = {"low-freq-factor", 0, C_CONF, G_ROPE, "F", "llama3; 1",
	    FLOAT(cfg.rope.low_freq_factor), .params = PE_PARAM_ROPE_SCALING,
	    .scalings = R(LLAMA3)},
	[O_HIGH_FREQ] = {"high-freq-factor", 0, C_CONF, G_ROPE, "F",
	    "llama3; 4", FLOAT(cfg.rope.high_freq_factor), .params = PE_PARAM_ROPE_SCALING,
	    .scalings = R(LLAMA3)},
	[O_SHORT_FACTOR] = {"short-factor", 0, C_CONF, G_ROPE, "LIST|@FILE",
	    "longrope: rotary_dim/2 numbers",
	    LIST(short_factor, cfg.rope.n_short, cfg.rope.short_factor),
	    .params = PE_PARAM_ROPE_SCALING, .scalings = R(LONGROPE)},
	[O_LONG_FACTOR] = {"long-factor", 0, C_CONF, G_ROPE, "LIST|@FILE",
	    "longrope: rotary_dim/2 numbers",
	    LIST(long_factor, cfg.rope.n_long, cfg.rope.long_factor),
	    .params = PE_PARAM_ROPE_SCALING, .scalings = R(LONGROPE)},
	[O_PARTIAL_ROTARY] = {"partial-rotary", 0, C_CONF, G_ROPE, "F",
	    "fraction of dims that rotate (GPT-NeoX); 1",
	    FLOAT(cfg.rope.partial_rotary), .lo = 0, .lo_bound = B_OPEN,
	    .hi = 1, .hi_bound = B_CLOSED, .params = PE_PARAM_ROPE_SCALING},
	[O_ROPE_DIM] = {"rope-dim", 0, C_CONF, G_ROPE, "R",
	    "rope: a decoupled head (DeepSeek's MLA): only\n"
	    "its last R dims rotate (qk_rope_head_dim, 64),\n"
	    "R even; --nope-dim is d - R unless given",
	    SIZE(cfg.attn.qk_rope_dim, 1, PE_MAX_D),
	    .given = OFF(rope_dim_given), .params = PE_PARAM_DECOUPLED},
	[O_NOPE_DIM] = {"nope-dim", 0, C_CONF, G_ROPE, "N",
	    "rope: a decoupled head's first N dims, content\n"
	    "only (qk_nope_head_dim, 128); R + N = d",
	    SIZE(cfg.attn.qk_nope_dim, 1, PE_MAX_D),
	    .given = OFF(nope_dim_given), .params = PE_PARAM_DECOUPLED},
	[O_WINDOW] = {"window", 0, C_CONF, G_ROPE, "W",
	    "rope, nope: a sliding window, a query sees the\n"
	    "W most recent keys, itself included (HF's\n"
	    "sliding_window: Mistral, Gemma, GPT-OSS); 1..n-1",
	    HOOK(OPT_SIZE, opt_window), .params = PE_PARAM_SPAN},
	[O_CHUNK] = {"chunk", 0, C_CONF, G_ROPE, "C",
	    "rope, nope: chunks of C positions, a query sees\n"
	    "its own chunk's keys (Llama 4's\n"
	    "attention_chunk_size, 8192); 1..n-1",
	    HOOK(OPT_SIZE, opt_chunk), .params = PE_PARAM_SPAN},
	[O_SINKS] = {"sinks", 0, C_CONF, G_ROPE, "LIST|@FILE",
	    "rope, nope: a learned sink logit a head\n"
	    "(GPT-OSS's sinks): each softmax is over the keys\n"
	    "and the sink, whose column is dropped; --head\n"
	    "picks the head",
	    LIST(sinks, cfg.attn.n_sinks, cfg.attn.sinks),
	    .params = PE_PARAM_SINKS},
	[O_TEMPERATURE_TUNING] = {"temperature", 0, C_CONF, G_ROPE, NULL,
	    "nope: Llama 4's attn_temperature_tuning, queries\n"
	    "times log(floor((p+1)/F)+1) S + 1",
	    FLAG(cfg.attn.temperature, true), .params = PE_PARAM_TEMPERATURE},
	[O_FLOOR_SCALE] = {"floor-scale", 0, C_CONF, G_ROPE, "F",
	    "nope: the temperature's floor_scale F; 8192",
	    FLOAT(cfg.attn.floor_scale), .lo = 1, .lo_bound = B_CLOSED,
	    .hi = PE_MAX_N, .hi_bound = B_CLOSED,
	    .given = OFF(floor_scale_given), .params = PE_PARAM_TEMPERATURE},
	[O_ATTN_SCALE] = {"attn-scale", 0, C_CONF, G_ROPE, "S",
	    "nope: the temperature's attn_scale S; 0.1",
	    FLOAT(cfg.attn.attn_scale), .lo = -1e6, .lo_bound = B_CLOSED,
	    .hi = 1e6, .hi_bound = B_CLOSED,
	    .given = OFF(attn_scale_given), .params = PE_PARAM_TEMPERATURE},
	[O_TRAIN_LEN] = {"train-len", 0, C_TEACH, G_ENC, "L",
	    "the model's training context (presets set it):\n"
	    "maps and plots mark positions >= L; rope names\n"
	    "the pairs that never turned in it; dump: rope's\n"
	    "table beyond", SIZE(cfg.teach.train_len, 1, PE_MAX_N),
	    .caps = PE_CAP_TOY},

	[O_TOKENS] = {"tokens", 0, C_TEACH, G_TEACH, "TEXT",
	    "toy attention's sentence: 1 to 64 words split on\n"
	    "white space; \"the dog bit the man\"",
	    STRING(tokens), .alias = OFF(cfg.teach.tokens), .caps = PE_CAP_TOY,
	    .panels = PAN(ATTENTION)},
	[O_PERMUTE] = {"permute", 0, C_TEACH, G_TEACH, "LIST",
	    "reorder the tokens: token i is token LIST[i] (a\n"
	    "permutation of 0..T-1; compared with 0,4,2,3,1 for\n"
	    "the default sentence, else the reversal)",
	    HOOK(OPT_LIST, opt_permute), .caps = PE_CAP_TOY,
	    .panels = PAN(ATTENTION)},
	[O_MASK] = {"mask", 0, C_TEACH, G_TEACH, "M",
	    "toy attention's mask: causal or none (default:\n"
	    "causal for nope and alibi causal, else none)",
	    ENUM(cfg.teach.mask, masks), .caps = PE_CAP_TOY,
	    .panels = PAN(ATTENTION)},
	[O_BIAS_FILE] = {"bias-file", 0, C_TEACH, G_TEACH, "F.npy",
	    "relative: the learned bias, [buckets] or [heads,\n"
	    "buckets] (relative_attention_bias.weight.T;\n"
	    "shaw: 2K+1 clipped distances)",
	    HOOK(OPT_FILE, opt_bias_file), .params = PE_PARAM_BIAS,
	    .panels = PAN(ATTENTION)},
	[O_EMBEDDING] = {"embedding", 0, C_TEACH, G_TEACH, "LIST|@FILE",
	    "the worked example's x: d_model numbers (else the\n"
	    "toy embedding of \"the\")",
	    LIST(embedding, cfg.teach.n_embedding, cfg.teach.embedding),
	    .caps = PE_CAP_EXAMPLE,
	    .panels = PAN(EXAMPLE)},
	[O_SHIFT] = {"shift", 0, C_TEACH, G_TEACH, "K",
	    "M_K with PE(p+K) = M_K PE(p), -n < K < n; 1",
	    HOOK(OPT_SIZE, opt_shift), .caps = PE_CAP_SHIFT,
	    .panels = PAN(SHIFT)},

	[O_TRAIN] = {"train", 0, C_CONF, G_TRAIN, "TASK[:K]",
	    "learned: train a one-layer model (train.h) and show\n"
	    "its position table: offset:K (the token K back;\n"
	    "K 3), reverse (the second half mirrors the first),\n"
	    "first (the first token) or distance (P P^T fits a\n"
	    "Gaussian of i - j); -d 32 -n 64 unless given,\n"
	    "d <= 128, n <= 256; --heads: its heads (1)",
	    HOOK(OPT_ENUM, opt_train), .choices = &train_tasks,
	    .params = PE_PARAM_TABLE},
	[O_TRAIN_STEPS] = {"train-steps", 0, C_CONF, G_TRAIN, "N",
	    "--train: Adam steps taken before the first frame\n"
	    "(dump, snapshot: the table after them); 0",
	    SIZE(train_steps, 0, PE_TRAIN_MAX_STEPS), .params = PE_PARAM_TABLE},
	[O_SEED] = {"seed", 0, C_CONF, G_TRAIN, "S",
	    "--train: the seed of the init and the sequences;\n"
	    "98943134 (the untrained table's)",
	    SIZE(train.seed, 0, UINT64_MAX), .params = PE_PARAM_TABLE},
	[O_LR] = {"lr", 0, C_CONF, G_TRAIN, "LR",
	    "--train: Adam's learning rate (> 0); 0.01",
	    FLOAT(train.lr), .lo = 0, .lo_bound = B_OPEN,
	    .params = PE_PARAM_TABLE},
	[O_VOCAB] = {"vocab", 0, C_CONF, G_TRAIN, "V",
	    "--train (not distance): tokens in the sequences,\n"
	    "2..64; 16",
	    SIZE(train.vocab, 2, PE_TRAIN_MAX_VOCAB), .params = PE_PARAM_TABLE},

	[O_PRESET] = {"preset", 0, C_CONF, G_ROPE, "NAME",
	    "a shipped model's config.json (--list-presets),\n"
	    "as --config reads a file; other options override it",
	    STRING(preset), .nonempty = true, .complete = COMPLETE_PRESETS},
	[O_CONFIG] = {"config", 0, C_CONF, G_ROPE, "FILE",
	    "a model's config.json (Hugging Face's): the config\n"
	    "is its layer --layer; other options override it", PATH(config),
	    .nonempty = true},

	[O_CURSOR] = {"cursor", 0, C_TUI | C_SNAP, G_VIEW, "P,J",
	    "cursor at position P, column J", HOOK(OPT_SIZE, opt_cursor)},
	[O_PANEL] = {"panel", 0, C_TUI | C_SNAP, G_VIEW, "P",
	    "the right column (the c key): overview (default),\n"
	    "attention (toy attention, not vit2d), example\n"
	    "(sinusoidal, learned, rope), shift (sinusoidal),\n"
	    "decay (rope), recency (alibi), share (nope),\n"
	    "mask and sinks (rope, nope), temperature (nope),\n"
	    "split (rope)",
	    ENUM(panel, panels)},
	[O_MODEL_VIEW] = {"model-view", 0, C_TUI | C_SNAP, G_VIEW, NULL,
	    "the model of --config, every layer (the L key)",
	    FLAG(model_view, true)},
	[O_VALUES] = {"values", 0, C_TUI | C_SNAP, G_VIEW, NULL,
	    "numbers over the colors where a cell shows one\n"
	    "element and they fit (the v key)", FLAG(values, true)},
	[O_PRESENT] = {"present", 0, C_TUI | C_SNAP | C_LESSON, G_VIEW, NULL,
	    "the presenter view (the P key): no tab bar or\n"
	    "key hints, samples 2 cells wide, plots in blocks",
	    FLAG(present, true)},
	[O_NO_CHROME] = {"no-chrome", 0, C_SNAP, G_VIEW, NULL,
	    "snapshot: the frame without the tab bar and the\n"
	    "key hints (for slides; --present implies it)",
	    FLAG(no_chrome, true)},
	[O_RECORD] = {"record", 0, C_TUI | C_LESSON, G_OUT, "FILE.cast",
	    "the TUI, lesson: record the session as an\n"
	    "asciicast v2 file (asciinema play replays it)",
	    PATH(record), .nonempty = true},
	[O_COMPARE] = {"compare", 0, C_TUI | C_SNAP, G_VIEW, "OPTIONS",
	    "a second pane beside the first: this configuration\n"
	    "with OPTIONS (config options and presets, quoted\n"
	    "as one argument) applied on top, and the difference\n"
	    "A - B where the main maps have one shape (the x key)",
	    STRING(compare)},
	[O_HEAD] = {"head", 0, C_CONF, G_VIEW, "H",
	    "alibi: the head drawn large; rope2d mixed: the\n"
	    "head of the frequencies; dump: the head of a\n"
	    "3-D table written as CSV; toy tables and panel:\n"
	    "alibi's head, the --bias-file row, the --sinks\n"
	    "logit",
	    SIZE(head, 0, PE_MAX_HEADS - 1), .given = OFF(head_given),
	    .alias = OFF(cfg.rope2d.head), /* rope2d mixed's head */
	    .caps = PE_CAP_HEADS, .also_panels = PAN(ATTENTION) | PAN(SINKS),
	    .also_params = PE_PARAM_BIAS | PE_PARAM_SINKS},
	[O_HEAD_SCALE] = {"head-scale", 0, C_TUI | C_SNAP, G_VIEW, "S",
	    "alibi: the colors of the head drawn large, shared\n"
	    "(default: every head on one scale, so a shallow\n"
	    "head looks as flat as it is) or own (its own\n"
	    "range; the o key)", ENUM(head_own_scale, head_scales),
	    .params = PE_PARAM_ALIBI_MODE},
	[O_LESSON] = {"lesson", 0, C_LESSON | C_SNAP, G_LESSON, "NAME",
	    "a built-in lesson (default intro; lesson --list);\n"
	    "pescope lesson NAME says it without --lesson",
	    STRING(lesson), .complete = COMPLETE_LESSONS},
	[O_LESSON_FILE] = {"lesson-file", 0, C_LESSON | C_SNAP, G_LESSON,
	    "FILE", "a lesson from a file (docs/lessons.md)",
	    PATH(lesson_file)},
	[O_SCENE] = {"scene", 0, C_LESSON | C_SNAP, G_LESSON, "K[.S]",
	    "start at scene K (from 1), step S (from 1)",
	    HOOK(OPT_SIZE, opt_scene), .given = OFF(scene_given)},
	[O_ALL] = {"all", 0, C_SNAP, G_LESSON, NULL,
	    "snapshot: every scene's steps, a file each into\n"
	    "the folder -o DIR (NN-title[-S].ext); with -f pdf\n"
	    "one handout -o FILE.pdf, a page per step",
	    FLAG(lesson_all, true)},
	[O_LIST] = {"list", 0, C_LESSON, G_LESSON, NULL,
	    "lesson: list the lesson's scenes (--lesson,\n"
	    "--lesson-file) or else every built-in lesson's",
	    FLAG(lesson_list, true)},
	[O_PLACEHOLDERS] = {"placeholders", 0, C_LESSON, G_LESSON, NULL,
	    "lesson: the {placeholders} a caption may quote",
	    FLAG(lesson_placeholders, true)},
	[O_SPEAKER] = {"speaker", 0, C_LESSON, G_LESSON, NULL,
	    "lesson: the speaker's view (notes, next scene,\n"
	    "clock) of the lesson another instance presents",
	    FLAG(speaker, true)},
	[O_LINK] = {"link", 0, C_LESSON, G_LESSON, "PATH",
	    "lesson: the socket the two instances share\n"
	    "(default: $XDG_RUNTIME_DIR or /tmp, per lesson)", PATH(link)},
	[O_DURATION] = {"duration", 0, C_LESSON, G_LESSON, "MIN",
	    "lesson: the minutes planned, over the lesson's own\n"
	    "duration (the speaker's clock counts down from it)",
	    FLOAT(duration), .lo = 0, .lo_bound = B_OPEN, .hi = 1440,
	    .hi_bound = B_CLOSED, .given = OFF(duration_given)},
	[O_PAPER] = {"paper", 0, C_SNAP, G_LESSON, "P",
	    "-f pdf: the page, a4 or letter (portrait: the\n"
	    "frame over its caption and notes) or 16:9 (a\n"
	    "slide); fit (a frame's default): each page as\n"
	    "large as its frame and text; a handout's: a4",
	    ENUM(paper, papers), .given = OFF(paper_given)},
	[O_NO_NOTES] = {"no-notes", 0, C_SNAP, G_LESSON, NULL,
	    "the handout (--all -f pdf) without the speaker's\n"
	    "notes: each page its frame and caption",
	    FLAG(no_notes, true)},
	[O_SIZE] = {"size", 0, C_SNAP | C_BENCH, G_OUT, "WxH",
	    "frame size in cells, 80x24 to 1000x1000; 120x40\n"
	    "(bench: 200x60)", HOOK(OPT_SIZE, opt_frame_size)},
	[O_COLOR] = {"color", 0, C_TUI | C_SNAP | C_LESSON, G_VIEW, "C",
	    "truecolor (or 24bit), 256, 16, 8 or mono (NO_COLOR:\n"
	    "mono; COLORTERM=truecolor: truecolor)",
	    ENUM(depth, depths)},
	[O_THEME] = {"theme", 0, C_TUI | C_SNAP | C_LESSON, G_VIEW, "T",
	    "dark (default: the terminal's colors) or light\n"
	    "(paints a white page, for projectors); txt and\n"
	    "--color mono ansi have no colors to change; a\n"
	    "lesson's PDF handout: light unless told, for paper",
	    ENUM(theme, themes), .given = OFF(theme_given)},
	[O_GRAPHICS] = {"graphics", 0, C_TUI | C_LESSON | C_BENCH, G_VIEW, "G",
	    "the main maps as images: auto (default: asks the\n"
	    "terminal; cells in tmux without allow-passthrough\n"
	    "and in screen), kitty, iterm, sixel, or cells\n"
	    "(text only); bench: time the frame with kitty's",
	    ENUM(graphics, graphics)},
	[O_SCALE] = {"scale", 0, C_SNAP, G_OUT, "N",
	    "png, svg, pdf: a cell is N x 2N pixels, the main\n"
	    "map drawn at that resolution (png: 8; svg and pdf\n"
	    "draw cells as shapes unless it is given)",
	    SIZE(scale, PE_SCALE_MIN, PE_SCALE_MAX), .given = OFF(scale_given)},
	[O_FORMAT] = {"format", 'f', C_SNAP | C_DUMP, G_OUT, "F",
	    "snapshot: ansi (default), txt (or text), html, svg,\n"
	    "pdf or png; dump: csv (default) or npy",
	    HOOK(OPT_ENUM, opt_format), .choices = &opt_formats,
	    .given = OFF(format_given)},
	[O_OUTPUT] = {"output", 'o', C_SNAP | C_DUMP, G_OUT, "FILE",
	    "write to FILE atomically (default: stdout)",
	    HOOK(OPT_FILE, opt_output)},

	[O_TABLE] = {"table", 't', C_DUMP, G_DUMP, "T",
	    "pe, similarity (dot products), profile, cosine\n"
	    "(vit2d), inv_freq, angles, cos, sin, wavelength,\n"
	    "attention_scaling, slopes, bias, buckets, index,\n"
	    "mask (as the encoding has them); the toy\n"
	    "attention's token_embeddings [T,d], scores [T,T]\n"
	    "(-inf masked) and attention [T,T] (not vit2d,\n"
	    "mrope, xpos, rope2d);\n"
	    "sum [n,d] = x + PE(p) (sinusoidal, learned),\n"
	    "rotated [n,d] = R_p x (rope), shift [d,d] = M_K\n"
	    "(sinusoidal), decay [n] (rope: RoFormer's bound\n"
	    "by distance), beyond (rope: pairs whose unscaled\n"
	    "wavelength > --train-len), recency [n] (alibi: the\n"
	    "last query's softmax of the biases, mean of heads),\n"
	    "start_share [n] (nope: 1/(i+1)); mrope: positions\n"
	    "[L,3] int64 (each token's t, h, w), angles,\n"
	    "cos, sin, similarity, profile; xpos: scale [n,d/2]\n"
	    "(the queries'; keys 1/scale), cos, sin [n,d] (x\n"
	    "scale, duplicate_interleave), similarity, profile;\n"
	    "rope2d: angles, cos, sin [HW,d/2] (freqs_cis),\n"
	    "similarity, profile",
	    STRING(table), .complete = COMPLETE_TABLES},
	[O_DTYPE] = {"dtype", 0, C_DUMP, G_DUMP, "D",
	    "f32 (default) or f64 (integer tables stay int64)",
	    ENUM(dtype, dtypes)},
	[O_THREADS] = {"threads", 0, C_DUMP, G_DUMP, "N",
	    "threads that fill the table (the output is the same\n"
	    "for any N); the online CPUs",
	    SIZE(threads, 1, PE_STREAM_MAX_THREADS)},
	[O_QUICK] = {"quick", 0, C_BENCH, G_BENCH, NULL, "fewer frames",
	    FLAG(bench_quick, true)},
	[O_TABLES] = {"tables", 0, C_BENCH, G_BENCH, NULL,
	    "table fill throughput (GB/s) of each kind of dump\n"
	    "table beside memset of as many bytes",
	    FLAG(bench_tables, true)},

	[O_LIST_PRESETS] = {"list-presets", 0, C_ANY, G_MISC, NULL,
	    "the presets and their sources", FLAG(cmd, PE_CMD_LIST_PRESETS)},
	[O_HELP] = {"help", 'h', C_EVERY, G_MISC, NULL,
	    "this text (after a command: its options)",
	    FLAG(cmd, PE_CMD_HELP)},
	[O_VERSION] = {"version", 'V', C_ANY, G_MISC, NULL, "the version",
	    FLAG(cmd, PE_CMD_VERSION)},
};

/* The encodings that read one of params or have all of caps. */
static unsigned
table_encs(bool every, unsigned params, unsigned caps)
{
	unsigned m = every ? pe_encodings_with(0) : 0;
	if (params != 0)
		m |= pe_encodings_taking(params);
	if (caps != 0)
		m |= pe_encodings_with(caps);
	return m;
}

/* See options_table.h. */
unsigned
opt_encs(const struct opt_row *r)
{
	return table_encs(r->every_enc, r->params, r->caps);
}

/* See options_table.h. */
unsigned
opt_also_encs(const struct opt_row *r)
{
	return table_encs(false, r->also_params, r->also_caps);
}

/* See options_table.h. */
bool
opt_is_config(int id)
{
	const struct opt_row *r = &pe_opts[id];
	return r->every_enc || r->params != 0 || r->caps != 0;
}

/* See options_table.h. */
bool
opt_is_model(int id)
{
	return id == O_PRESET || id == O_CONFIG;
}

/* Find an option by long name. */
int
opt_find(const char *name)
{
	for (int i = 0; i < O_COUNT; i++)
		if (strcmp(pe_opts[i].name, name) == 0)
			return i;
	return -1;
}

/* A kernel message names parameters by their config names ("d_model 63,
 * beta_fast 2: ..."); on the command line they are flags. Rewrite as the
 * option ("--d-model 63") every word that names one: in the message's
 * head (before the first ':') any such word, after it only the words with
 * an underscore, since a plain word there ("base", "factor") is prose.
 * Returns 2. */
int
pe_options_flags(const char *why, char *err, size_t cap)
{
	const char *colon = strchr(why, ':');
	size_t head = colon != NULL ? (size_t)(colon - why) : 0, o = 0;

	for (size_t i = 0; why[i] != '\0' && o + 1 < cap;) {
		size_t n = strspn(why + i, "abcdefghijklmnopqrstuvwxyz_");
		bool word = n > 0 &&
		    (i == 0 || !isalnum((unsigned char)why[i - 1]));
		bool named = memchr(why + i, '_', n) != NULL; /* d_model, ... */
		char name[64];
		if (word && (i < head || named) && n < sizeof name) {
			for (size_t k = 0; k < n; k++)
				name[k] = why[i + k] == '_' ? '-' : why[i + k];
			name[n] = '\0';
			if (opt_find(name) >= 0) {
				o += (size_t)snprintf(err + o, cap - o, "--%s",
				    name);
				i += n;
				continue;
			}
		}
		if (n == 0)
			n = 1;
		for (size_t k = 0; k < n && o + 1 < cap; k++)
			err[o++] = why[i++];
	}
	err[o < cap ? o : cap - 1] = '\0';
	return 2;
}
