/* The one command-line parser: one row per option (in the spirit of tmux's
 * options-table.c) says its names, which commands, encodings, rope scaling
 * types and relative kinds it applies to, and its help line. getopt_long,
 * the "has no effect here" refusal and --help all read the table. */
#include "app/options.h"
#include "app/app.h"
#include "app/options_table.h"
#include "app/stream.h"
#include "render/draw.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/learned.h"
#include "pescope/toy.h"
#include "view/encoding.h"
#include "view/view.h"

#define R_SCALED (R(LINEAR) | R(DYNAMIC) | R(YARN) | R(LONGROPE) | R(LLAMA3))
/* The encodings with a toy attention (toy.h: vit2d has patches, not
 * words); named, so that a new encoding joins only when toy.c has it. */
#define E_TOY (E(SINUSOIDAL) | E(LEARNED) | E(RELATIVE) | E(ROPE) | E(ALIBI) | \
    E(NOPE))
/* The teaching options: the TUI, snapshot (their panels) and dump (their
 * tables). */
#define C_TEACH C_CONF

const struct opt_row pe_opts[O_COUNT] = {
	[O_ENCODING] = {"encoding", 'e', true, C_CONF, E_ALL, 0, 0, G_ENC, "E",
	    "sinusoidal (default), learned, relative, rope,\n"
	    "alibi, nope, vit2d, mrope, xpos, rope2d",
	    "sinusoidal learned relative rope alibi nope vit2d mrope xpos "
	    "rope2d"},
	[O_D_MODEL] = {"d-model", 'd', true, C_CONF,
	    E(SINUSOIDAL) | E(LEARNED) | E(ROPE) | E(VIT2D) | E(MROPE) |
	    E(XPOS) | E(ROPE2D), 0, 0, G_ENC, "N",
	    "model width (rope, mrope, xpos: the head dimension;\n"
	    "the toy tables and panel: the tokens' width, any\n"
	    "encoding); 64 (mrope: 128)", .also_panels = PAN(ATTENTION),
	    .also_encs = E_TOY},
	[O_SEQ_LEN] = {"seq-len", 'n', true, C_CONF,
	    E_ALL & ~(E(VIT2D) | E(MROPE) | E(ROPE2D)), 0, 0, G_ENC, "N",
	    "sequence length; 64 (vit2d and rope2d are sized by\n"
	    "--grid, mrope by its text, image and frames)"},
	[O_BASE] = {"base", 0, true, C_CONF,
	    E(SINUSOIDAL) | E(ROPE) | E(MROPE) | E(XPOS) | E(ROPE2D), 0, 0,
	    G_ENC, "B",
	    "sinusoidal / rope base theta; 10000 (mrope:\n"
	    "1000000; xpos: torchscale's fixed 10000; rope2d:\n"
	    "RoPE-ViT's 100 axial, 10 mixed)"},
	[O_LAYOUT] = {"layout", 0, true, C_CONF, E(SINUSOIDAL), 0, 0, G_ENC, "L",
	    "sinusoidal columns: interleaved (the paper,\n"
	    "PyTorch), split (GPT-J: the paper's frequencies,\n"
	    "sines then cosines) or t2t (tensor2tensor, fairseq:\n"
	    "base^(-i/(d/2-1)))",
	    "interleaved split t2t"},
	[O_PAIRING] = {"pairing", 0, true, C_CONF, E(ROPE), 0, 0, G_ENC, "P",
	    "rope: half (HF rotate_half) or interleaved (GPT-J)",
	    "half interleaved"},
	[O_HEADS] = {"heads", 0, true, C_CONF, E(ALIBI), 0, 0, G_ENC, "H",
	    "alibi heads; 8"},
	[O_ALIBI_MODE] = {"alibi-mode", 0, true, C_CONF, E(ALIBI), 0, 0, G_ENC,
	    "M", "alibi: causal (default) or symmetric",
	    "causal symmetric"},
	[O_RELATIVE] = {"relative", 0, true, C_CONF, E(RELATIVE), 0, 0, G_ENC, "K",
	    "relative: t5 (default) or shaw",
	    "t5 shaw"},
	[O_BUCKETS] = {"buckets", 0, true, C_CONF, E(RELATIVE), 0, K_T5, G_ENC,
	    "N", "t5 num_buckets; 32"},
	[O_MAX_DISTANCE] = {"max-distance", 0, true, C_CONF, E(RELATIVE), 0, K_T5,
	    G_ENC, "N", "t5 max_distance; 128"},
	[O_BIDIRECTIONAL] = {"bidirectional", 0, false, C_CONF, E(RELATIVE), 0,
	    K_T5, G_ENC, NULL, "t5 encoder buckets (default)"},
	[O_UNIDIRECTIONAL] = {"unidirectional", 0, false, C_CONF, E(RELATIVE), 0,
	    K_T5, G_ENC, NULL, "t5 decoder buckets"},
	[O_MAX_RELATIVE] = {"max-relative", 0, true, C_CONF, E(RELATIVE), 0,
	    K_SHAW, G_ENC, "K", "shaw clipping distance; 16"},
	[O_GRID] = {"grid", 0, true, C_CONF, E(VIT2D) | E(MROPE) | E(ROPE2D), 0,
	    0, G_ENC, "HxW",
	    "vit2d, rope2d patch grid; mrope's image after the\n"
	    "merge (HF's llm_grid_h x llm_grid_w); 14x14"},
	[O_TEXT_BEFORE] = {"text-before", 0, true, C_CONF, E(MROPE), 0, 0,
	    G_ENC, "N", "mrope: text tokens before the image; 8"},
	[O_FRAMES] = {"frames", 0, true, C_CONF, E(MROPE), 0, 0, G_ENC, "F",
	    "mrope: a video of F frames (HF's llm_grid_t,\n"
	    "time step 1); 1, an image"},
	[O_TEXT_AFTER] = {"text-after", 0, true, C_CONF, E(MROPE), 0, 0, G_ENC,
	    "M", "mrope: text tokens after the image; 8"},
	[O_MROPE_SECTION] = {"mrope-section", 0, true, C_CONF, E(MROPE), 0, 0,
	    G_ENC, "T,H,W",
	    "mrope: pairs turned by t, h and w, T+H+W = d/2;\n"
	    "Qwen2-VL's 16,24,24 (scaled to d/2)"},
	[O_XPOS_SCALE_BASE] = {"xpos-scale-base", 0, true, C_CONF, E(XPOS), 0, 0,
	    G_ENC, "G", "xpos: the scale's base gamma, zeta^(m/gamma); 512"},
	[O_XPOS_OFFSET] = {"xpos-offset", 0, true, C_CONF, E(XPOS), 0, 0, G_ENC,
	    "K", "xpos: the queries' offset (torchscale's\n"
	    "forward(q, offset)); 0"},
	[O_ROPE2D] = {"rope2d", 0, true, C_CONF, E(ROPE2D), 0, 0, G_ENC, "K",
	    "rope2d: axial (default; RoPE-ViT's RoPE-Axial) or\n"
	    "mixed (RoPE-Mixed: learned x and y frequencies)",
	    "axial mixed"},
	[O_FREQS_FILE] = {"freqs-file", 0, true, C_CONF, E(ROPE2D), 0, 0, G_ENC,
	    "F.npy", "rope2d mixed: learned frequencies, [2, heads,\n"
	    "d/2] or the reference's freqs [2, depth, heads\n"
	    "d/2] (else init_random_2d_freqs, torch seed 0)",
	    NULL, true},
	[O_LAYER] = {"layer", 0, true, C_CONF, E(ROPE2D), 0, 0, G_ENC, "L",
	    "rope2d mixed: the block of a [2, depth, ...] file;\n"
	    "0"},
	[O_TABLE_FILE] = {"table-file", 0, true, C_CONF, E(LEARNED), 0, 0, G_ENC,
	    "F.npy", "learned: a [max_len, d] table (else untrained)",
	    NULL, true},
	[O_MAX_LEN] = {"max-len", 0, true, C_CONF, E(LEARNED), 0, 0, G_ENC, "L",
	    "learned: rows of the untrained table; 1024"},

	[O_ROPE_SCALING] = {"rope-scaling", 0, true, C_CONF, E(ROPE), 0, 0,
	    G_ROPE, "T", "default, linear, dynamic, yarn, longrope, llama3",
	    "default linear dynamic yarn longrope llama3"},
	[O_FACTOR] = {"factor", 0, true, C_CONF, E(ROPE), R_SCALED, 0, G_ROPE,
	    "F", "scaling factor (>= 1); 4 (longrope: when given;\n"
	    "else max-pos / original-max-pos, as HF's Phi-3)"},
	[O_ORIGINAL_MAX_POS] = {"original-max-pos", 0, true, C_CONF, E(ROPE),
	    R(YARN) | R(LONGROPE) | R(LLAMA3), 0, G_ROPE, "N",
	    "original_max_position_embeddings; 4096"},
	[O_MAX_POS] = {"max-pos", 0, true, C_CONF, E(ROPE),
	    R(DYNAMIC) | R(LONGROPE), 0, G_ROPE, "N",
	    "max_position_embeddings (dynamic, longrope); 4096"},
	[O_BETA_FAST] = {"beta-fast", 0, true, C_CONF, E(ROPE), R(YARN), 0,
	    G_ROPE, "B", "yarn; 32 (0 means unset, as HF: 32)"},
	[O_BETA_SLOW] = {"beta-slow", 0, true, C_CONF, E(ROPE), R(YARN), 0,
	    G_ROPE, "B", "yarn; 1 (0 means unset, as HF: 1)"},
	[O_MSCALE] = {"mscale", 0, true, C_CONF, E(ROPE), R(YARN), 0, G_ROPE, "M",
	    "yarn; with --mscale-all-dim the attention factor is\n"
	    "get_mscale(f, M) / get_mscale(f, A);\n"
	    "0 or only one given: unset (0.1 ln(f) + 1), as HF"},
	[O_MSCALE_ALL_DIM] = {"mscale-all-dim", 0, true, C_CONF, E(ROPE), R(YARN),
	    0, G_ROPE, "A", "yarn (0 means unset, as HF)"},
	[O_ATTENTION_FACTOR] = {"attention-factor", 0, true, C_CONF, E(ROPE),
	    R(YARN) | R(LONGROPE), 0, G_ROPE, "A",
	    "yarn, longrope: the factor on cos and sin; derived"},
	[O_TRUNCATE] = {"truncate", 0, false, C_CONF, E(ROPE), R(YARN), 0, G_ROPE,
	    NULL, "yarn: floor/ceil the correction range (default)"},
	[O_NO_TRUNCATE] = {"no-truncate", 0, false, C_CONF, E(ROPE), R(YARN), 0,
	    G_ROPE, NULL, "yarn: keep the correction range fractional"},
	[O_LOW_FREQ] = {"low-freq-factor", 0, true, C_CONF, E(ROPE), R(LLAMA3), 0,
	    G_ROPE, "F", "llama3; 1"},
	[O_HIGH_FREQ] = {"high-freq-factor", 0, true, C_CONF, E(ROPE), R(LLAMA3),
	    0, G_ROPE, "F", "llama3; 4"},
	[O_SHORT_FACTOR] = {"short-factor", 0, true, C_CONF, E(ROPE), R(LONGROPE),
	    0, G_ROPE, "LIST|@FILE", "longrope: rotary_dim/2 numbers",
	    NULL, true},
	[O_LONG_FACTOR] = {"long-factor", 0, true, C_CONF, E(ROPE), R(LONGROPE),
	    0, G_ROPE, "LIST|@FILE", "longrope: rotary_dim/2 numbers",
	    NULL, true},
	[O_PARTIAL_ROTARY] = {"partial-rotary", 0, true, C_CONF, E(ROPE), 0, 0,
	    G_ROPE, "F", "fraction of dims that rotate (GPT-NeoX); 1"},
	[O_TRAIN_LEN] = {"train-len", 0, true, C_TEACH, E_TOY, 0, 0, G_ENC, "L",
	    "the model's training context (presets set it):\n"
	    "maps and plots mark positions >= L; rope names\n"
	    "the pairs that never turned in it; dump: rope's\n"
	    "table beyond"},

	[O_TOKENS] = {"tokens", 0, true, C_TEACH, E_TOY, 0, 0, G_TEACH, "TEXT",
	    "toy attention's sentence: 1 to 64 words split on\n"
	    "white space; \"the dog bit the man\"",
	    .panels = PAN(ATTENTION)},
	[O_PERMUTE] = {"permute", 0, true, C_TEACH, E_TOY, 0, 0, G_TEACH, "LIST",
	    "reorder the tokens: token i is token LIST[i] (a\n"
	    "permutation of 0..T-1; compared with 0,4,2,3,1 for\n"
	    "the default sentence, else the reversal)",
	    .panels = PAN(ATTENTION)},
	[O_MASK] = {"mask", 0, true, C_TEACH, E_TOY, 0, 0, G_TEACH, "M",
	    "toy attention's mask: causal or none (default:\n"
	    "causal for nope and alibi causal, else none)",
	    "causal none", .panels = PAN(ATTENTION)},
	[O_BIAS_FILE] = {"bias-file", 0, true, C_TEACH, E(RELATIVE), 0, 0,
	    G_TEACH, "F.npy",
	    "relative: the learned bias, [buckets] or [heads,\n"
	    "buckets] (relative_attention_bias.weight.T;\n"
	    "shaw: 2K+1 clipped distances)",
	    NULL, true, .panels = PAN(ATTENTION)},
	[O_EMBEDDING] = {"embedding", 0, true, C_TEACH,
	    E(SINUSOIDAL) | E(LEARNED) | E(ROPE), 0, 0, G_TEACH, "LIST|@FILE",
	    "the worked example's x: d_model numbers (else the\n"
	    "toy embedding of \"the\")", NULL, true,
	    .panels = PAN(EXAMPLE)},
	[O_SHIFT] = {"shift", 0, true, C_TEACH, E(SINUSOIDAL), 0, 0, G_TEACH,
	    "K", "M_K with PE(p+K) = M_K PE(p), -n < K < n; 1",
	    .panels = PAN(SHIFT)},

	[O_PRESET] = {"preset", 0, true, C_CONF, 0, 0, 0, G_ROPE, "NAME",
	    "a real model's settings (--list-presets); other\n"
	    "options override it wherever they stand"},
	[O_PRESET_FILE] = {"preset-file", 0, true, C_CONF, 0, 0, 0, G_ROPE,
	    "FILE", "settings from a file (lines: option = value)",
	    NULL, true},

	[O_CURSOR] = {"cursor", 0, true, C_TUI | C_SNAP, 0, 0, 0, G_VIEW, "P,J",
	    "cursor at position P, column J"},
	[O_PANEL] = {"panel", 0, true, C_TUI | C_SNAP, 0, 0, 0, G_VIEW, "P",
	    "the right column (the c key): overview (default),\n"
	    "attention (toy attention, not vit2d), example\n"
	    "(sinusoidal, learned, rope), shift (sinusoidal),\n"
	    "decay (rope), recency (alibi), share (nope)",
	    "overview attention example shift decay recency share"},
	[O_VALUES] = {"values", 0, false, C_TUI | C_SNAP, 0, 0, 0, G_VIEW, NULL,
	    "numbers over the colors where a cell shows one\n"
	    "element and they fit (the v key)"},
	[O_PRESENT] = {"present", 0, false, C_TUI | C_SNAP | C_LESSON, 0, 0, 0,
	    G_VIEW, NULL, "the presenter view (the P key): no tab bar or\n"
	    "key hints, samples 2 cells wide, plots in blocks"},
	[O_NO_CHROME] = {"no-chrome", 0, false, C_SNAP, 0, 0, 0, G_VIEW, NULL,
	    "snapshot: the frame without the tab bar and the\n"
	    "key hints (for slides; --present implies it)"},
	[O_RECORD] = {"record", 0, true, C_TUI | C_LESSON, 0, 0, 0, G_OUT,
	    "FILE.cast",
	    "the TUI, lesson: record the session as an\n"
	    "asciicast v2 file (asciinema play replays it)",
	    NULL, true},
	[O_COMPARE] = {"compare", 0, true, C_TUI | C_SNAP, 0, 0, 0, G_VIEW,
	    "OPTIONS",
	    "a second pane beside the first: this configuration\n"
	    "with OPTIONS (config options and presets, quoted\n"
	    "as one argument) applied on top, and the difference\n"
	    "A - B where the main maps have one shape (the x key)"},
	[O_HEAD] = {"head", 0, true, C_CONF, E(ALIBI) | E(ROPE2D), 0, 0, G_VIEW,
	    "H", "alibi: the head drawn large; rope2d mixed: the\n"
	    "head of the frequencies; dump: the head of a\n"
	    "3-D table written as CSV; toy tables and panel:\n"
	    "alibi's head, the --bias-file row",
	    .also_panels = PAN(ATTENTION), .also_encs = E(RELATIVE)},
	[O_LESSON] = {"lesson", 0, true, C_LESSON | C_SNAP, 0, 0, 0, G_LESSON,
	    "NAME", "a built-in lesson (default intro; lesson --list)",
	    "intro"},
	[O_LESSON_FILE] = {"lesson-file", 0, true, C_LESSON | C_SNAP, 0, 0, 0,
	    G_LESSON, "FILE", "a lesson from a file (the README's format)",
	    NULL, true},
	[O_SCENE] = {"scene", 0, true, C_LESSON | C_SNAP, 0, 0, 0, G_LESSON,
	    "K[.S]", "start at scene K (from 1), step S (from 1)"},
	[O_ALL] = {"all", 0, false, C_SNAP, 0, 0, 0, G_LESSON, NULL,
	    "snapshot: every scene's steps, a file each into\n"
	    "the folder -o DIR (NN-title[-S].ext); with -f pdf\n"
	    "one handout -o FILE.pdf, a page per step"},
	[O_LIST] = {"list", 0, false, C_LESSON, 0, 0, 0, G_LESSON, NULL,
	    "lesson: list the lesson's scenes (--lesson,\n"
	    "--lesson-file) or else every built-in lesson's"},
	[O_PLACEHOLDERS] = {"placeholders", 0, false, C_LESSON, 0, 0, 0,
	    G_LESSON, NULL, "lesson: the {placeholders} a caption may quote"},
	[O_SPEAKER] = {"speaker", 0, false, C_LESSON, 0, 0, 0, G_LESSON, NULL,
	    "lesson: the speaker's view (notes, next scene,\n"
	    "clock) of the lesson another instance presents"},
	[O_LINK] = {"link", 0, true, C_LESSON, 0, 0, 0, G_LESSON, "PATH",
	    "lesson: the socket the two instances share\n"
	    "(default: $XDG_RUNTIME_DIR or /tmp, per lesson)",
	    NULL, true},
	[O_SIZE] = {"size", 0, true, C_SNAP | C_BENCH, 0, 0, 0, G_OUT, "WxH",
	    "frame size in cells, 80x24 to 1000x1000; 120x40\n"
	    "(bench: 200x60)"},
	[O_COLOR] = {"color", 0, true, C_TUI | C_SNAP | C_LESSON, 0, 0, 0, G_VIEW, "C",
	    "truecolor, 256, 16, 8 or mono (NO_COLOR: mono;\n"
	    "COLORTERM=truecolor: truecolor)",
	    "truecolor 256 16 8 mono"},
	[O_THEME] = {"theme", 0, true, C_TUI | C_SNAP | C_LESSON, 0, 0, 0, G_VIEW, "T",
	    "dark (default: the terminal's colors) or light\n"
	    "(paints a white page, for projectors); txt and\n"
	    "--color mono ansi have no colors to change",
	    "dark light"},
	[O_FORMAT] = {"format", 'f', true, C_SNAP | C_DUMP, 0, 0, 0, G_OUT, "F",
	    "snapshot: ansi (default), txt, html, svg or pdf;\n"
	    "dump: csv (default) or npy",
	    "ansi txt html svg pdf csv npy"},
	[O_OUTPUT] = {"output", 'o', true, C_SNAP | C_DUMP, 0, 0, 0, G_OUT,
	    "FILE", "write to FILE atomically (default: stdout)",
	    NULL, true},

	[O_TABLE] = {"table", 't', true, C_DUMP, 0, 0, 0, G_DUMP, "T",
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
	    "pe similarity profile cosine inv_freq angles cos sin wavelength "
	    "attention_scaling slopes bias buckets index mask token_embeddings "
	    "scores attention sum rotated shift decay beyond recency "
	    "start_share positions scale"},
	[O_DTYPE] = {"dtype", 0, true, C_DUMP, 0, 0, 0, G_DUMP, "D",
	    "f32 (default) or f64 (integer tables stay int64)",
	    "f32 f64"},
	[O_THREADS] = {"threads", 0, true, C_DUMP, 0, 0, 0, G_DUMP, "N",
	    "threads that fill the table (the output is the same\n"
	    "for any N); the online CPUs"},
	[O_QUICK] = {"quick", 0, false, C_BENCH, 0, 0, 0, G_BENCH, NULL,
	    "fewer frames"},
	[O_TABLES] = {"tables", 0, false, C_BENCH, 0, 0, 0, G_BENCH, NULL,
	    "table fill throughput (GB/s) of each kind of dump\n"
	    "table beside memset of as many bytes"},

	[O_LIST_PRESETS] = {"list-presets", 0, false, C_ANY, 0, 0, 0, G_MISC,
	    NULL, "the presets and their sources"},
	[O_HELP] = {"help", 'h', false, C_ANY, 0, 0, 0, G_MISC, NULL, "this text"},
	[O_VERSION] = {"version", 'V', false, C_ANY, 0, 0, 0, G_MISC, NULL,
	    "the version"},
};

static const char *const cmd_names[] = {
	"the TUI", "snapshot", "dump", "bench", "help", "version", "list-presets",
	"completion", "manpage", "lesson",
};

/* Write a one-line error into err and return 2. */
static int
fail(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return 2;
}

/* The "C" locale, for reading numbers whatever the user's locale. */
static locale_t
c_locale(void)
{
	static locale_t loc;
	if (loc == (locale_t)0)
		loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

/* Whether s[0..len) is a plain decimal number: [+-]digits[.digits][e[+-]
 * digits]. One rule for every number pescope reads: no spaces, no hex, no
 * inf or nan, the same in every locale. */
static bool
is_number(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (digits == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t e = i;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == e)
			return false;
	}
	return i == len;
}

/* Read the number s[0..len) (checked with is_number) in the C locale. */
static bool
read_number(const char *s, size_t len, double *dest)
{
	char tmp[128];
	if (len == 0 || len >= sizeof tmp || !is_number(s, len))
		return false;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	double v = strtod_l(tmp, NULL, c_locale());
	if (errno == ERANGE && fabs(v) > 1.0) /* overflow; underflow is fine */
		return false;
	*dest = v;
	return isfinite(v);
}

/* Whether s is all digits (at least one). */
static bool
is_digits(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Parse a whole-string unsigned integer in [lo, hi]. */
static int
parse_size(const char *opt, const char *s, size_t lo, size_t hi, size_t *dest,
    char *err, size_t cap)
{
	errno = 0;
	unsigned long long v = is_digits(s) ? strtoull(s, NULL, 10) : 0;
	if (!is_digits(s) || errno != 0 || v < lo || v > hi)
		return fail(err, cap, "--%s '%s': must be an integer in %zu..%zu",
		    opt, s, lo, hi);
	*dest = (size_t)v;
	return 0;
}

/* Parse a whole-string finite decimal number. */
static int
parse_double(const char *opt, const char *s, double *dest, char *err,
    size_t cap)
{
	if (!read_number(s, strlen(s), dest))
		return fail(err, cap, "--%s '%s': must be a finite decimal number "
		    "(such as 2, 0.5 or 1e-3)", opt, s);
	return 0;
}

/* Parse "A<sep>B" into two integers in [lo, hi]. */
static int
parse_pair(const char *opt, const char *s, char sep, size_t lo, size_t hi,
    size_t *a, size_t *b, const char *form, char *err, size_t cap)
{
	const char *x = strchr(s, sep);
	char tmp[32];
	if (x == NULL || (size_t)(x - s) >= sizeof tmp)
		goto bad;
	memcpy(tmp, s, (size_t)(x - s));
	tmp[x - s] = '\0';
	if (parse_size(opt, tmp, lo, hi, a, NULL, 0) != 0 ||
	    parse_size(opt, x + 1, lo, hi, b, NULL, 0) != 0)
		goto bad;
	return 0;
bad:
	return fail(err, cap, "--%s '%s': must be %s with each number in %zu..%zu",
	    opt, s, form, lo, hi);
}

/* Parse exactly n comma-separated integers in [0, hi] ("16,24,24"). */
static int
parse_sizes(const char *opt, const char *s, size_t n, size_t hi, size_t *dest,
    const char *form, char *err, size_t cap)
{
	size_t v[8], k = 0;
	const char *p = s;
	char tmp[32];

	while (k < n && k < 8) {
		size_t l = strcspn(p, ",");
		if (l == 0 || l >= sizeof tmp)
			goto bad;
		memcpy(tmp, p, l);
		tmp[l] = '\0';
		if (parse_size(opt, tmp, 0, hi, &v[k], NULL, 0) != 0)
			goto bad;
		k++;
		p += l;
		if (*p == '\0')
			break;
		p++;
	}
	if (k != n || *p != '\0')
		goto bad;
	memcpy(dest, v, n * sizeof *dest);
	return 0;
bad:
	return fail(err, cap, "--%s '%s': must be %s, each in 0..%zu", opt, s,
	    form, hi);
}

/* Why a file could not be read, from a pe_file_read status. */
static const char *
file_why(int st)
{
	switch (st) {
	case PE_EIO:
		return strerror(errno);
	case PE_ERANGE:
		return "too large";
	case PE_EINVAL:
		return "not a regular file";
	default:
		return pe_strerror(st);
	}
}

/* Parse a list "a,b,c" or "@FILE" (numbers separated by commas, spaces or
 * newlines, optionally in brackets; '#' comments) into a malloc'd array. */
static int
parse_list(const char *opt, const char *s, double **dest, size_t *n, char *err,
    size_t cap)
{
	static const char seps[] = ", \t\r\n[]";
	unsigned char *buf = NULL;
	size_t len;
	const char *p = s;

	if (s[0] == '@') {
		int st = pe_file_read(s + 1, 1 << 20, &buf, &len);
		if (st != PE_OK)
			return fail(err, cap, "--%s '%s': cannot read it: %s", opt,
			    s + 1, file_why(st));
		p = (const char *)buf;
	}
	size_t cnt = 0, room = 16;
	double *v = malloc(room * sizeof *v);
	int rc = 0;
	while (v != NULL && *p != '\0') {
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		if (strchr(seps, *p) != NULL) {
			p++;
			continue;
		}
		size_t tl = strcspn(p, ", \t\r\n[]#");
		double x;
		if (!read_number(p, tl, &x)) {
			rc = fail(err, cap, "--%s: '%.*s' is not a finite decimal "
			    "number", opt, (int)(tl < 24 ? tl : 24), p);
			break;
		}
		if (cnt == room) {
			double *nv = realloc(v, (room *= 2) * sizeof *v);
			if (nv == NULL) {
				free(v);
				v = NULL;
				break;
			}
			v = nv;
		}
		v[cnt++] = x;
		p += tl;
	}
	free(buf);
	if (v == NULL)
		return fail(err, cap, "out of memory");
	if (rc != 0 || cnt == 0) {
		free(v);
		return rc != 0 ? rc
			       : fail(err, cap, "--%s: the list is empty", opt);
	}
	free(*dest);
	*dest = v;
	*n = cnt;
	return 0;
}

/* Match s against names; the index, or -1 after writing "--opt 's': must
 * be one of a, b or c" into err. */
static int
pick(const char *opt, const char *s, const char *const *names, int n,
    char *err, size_t cap)
{
	char list[256] = "";
	for (int i = 0; i < n; i++) {
		if (strcmp(s, names[i]) == 0)
			return i;
		size_t l = strlen(list);
		snprintf(list + l, sizeof list - l, "%s%s",
		    i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
	}
	fail(err, cap, "--%s '%s': must be %s", opt, s, list);
	return -1;
}

/* Replace an owned string with a copy of s. */
static int
own(char **dest, const char *s, char *err, size_t cap)
{
	char *c = strdup(s);
	if (c == NULL)
		return fail(err, cap, "out of memory");
	free(*dest);
	*dest = c;
	return 0;
}

/* Append item i of n to a list "a, b or c". */
static void
list_item(char *buf, size_t cap, int i, int n, const char *item)
{
	size_t l = strlen(buf);
	snprintf(buf + l, cap - l, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ",
	    item);
}

static int load_table(struct pe_options *o, const char *path, char *err,
    size_t cap);
static int load_bias(struct pe_options *o, const char *path, char *err,
    size_t cap);
static int load_freqs(struct pe_options *o, const char *path, char *err,
    size_t cap);
static int parse_permute(struct pe_options *o, const char *arg, char *err,
    size_t cap);

/* Apply one option with its argument (NULL for flags) to *o. */
static int
apply(struct pe_options *o, enum opt_id id, const char *arg, char *err,
    size_t cap)
{
	static const char *const scalings[] = {"default", "linear", "dynamic",
		"yarn", "longrope", "llama3"};
	static const char *const layouts[] = {"interleaved", "split", "t2t"};
	static const char *const pairings[] = {"half", "interleaved"};
	static const char *const modes[] = {"causal", "symmetric"};
	static const char *const kinds[] = {"t5", "shaw"};
	static const char *const dumps[] = {"csv", "npy"};
	static const char *const snaps[] = {"ansi", "txt", "html", "svg",
	    "pdf"};
	static const char *const themes[] = {"dark", "light"};
	static const char *const dtypes[] = {"f32", "f64"};
	static const char *const depths[] = {"truecolor", "256", "16", "8",
		"mono"};
	static const char *const masks[] = {"causal", "none"};
	static const char *const rope2d_kinds[] = {"axial", "mixed"};
	struct pe_config *c = &o->cfg;
	struct pe_rope_scaling *r = &c->rope;
	const char *name = pe_opts[id].name;
	int k;

	switch (id) {
	case O_ENCODING: {
		const char *encs[PE_ENC_COUNT];
		for (int e = 0; e < PE_ENC_COUNT; e++)
			encs[e] = pe_encoding_name((enum pe_encoding)e);
		if ((k = pick(name, arg, encs, PE_ENC_COUNT, err, cap)) < 0)
			return 2;
		c->enc = (enum pe_encoding)k;
		return 0;
	}
	case O_D_MODEL:
		o->d_given = true;
		return parse_size(name, arg, 1, PE_MAX_D, &c->d, err, cap);
	case O_SEQ_LEN:
		return parse_size(name, arg, 1, PE_MAX_N, &c->n, err, cap);
	case O_BASE:
		o->base_given = true;
		if (parse_double(name, arg, &c->base, err, cap) != 0)
			return 2;
		if (c->base <= 1.0)
			return fail(err, cap, "--base '%s': must be a finite number > 1",
			    arg);
		return 0;
	case O_LAYOUT:
		if ((k = pick(name, arg, layouts, 3, err, cap)) < 0)
			return 2;
		c->layout = (enum pe_layout)k;
		return 0;
	case O_PAIRING:
		if ((k = pick(name, arg, pairings, 2, err, cap)) < 0)
			return 2;
		c->pairing = (enum pe_pairing)k;
		return 0;
	case O_HEADS:
		return parse_size(name, arg, 1, PE_MAX_HEADS, &c->heads, err, cap);
	case O_ALIBI_MODE:
		if ((k = pick(name, arg, modes, 2, err, cap)) < 0)
			return 2;
		c->alibi_mode = (enum pe_alibi_mode)k;
		return 0;
	case O_RELATIVE:
		if ((k = pick(name, arg, kinds, 2, err, cap)) < 0)
			return 2;
		c->relative = (enum pe_relative_kind)k;
		return 0;
	case O_BUCKETS:
		return parse_size(name, arg, 2, 4096, &c->buckets, err, cap);
	case O_MAX_DISTANCE:
		return parse_size(name, arg, 1, PE_MAX_N, &c->max_distance, err,
		    cap);
	case O_BIDIRECTIONAL:
	case O_UNIDIRECTIONAL:
		c->bidirectional = id == O_BIDIRECTIONAL;
		return 0;
	case O_MAX_RELATIVE:
		return parse_size(name, arg, 1, PE_MAX_N, &c->max_relative, err,
		    cap);
	case O_GRID:
		return parse_pair(name, arg, 'x', 1, PE_MAX_GRID, &c->grid_h,
		    &c->grid_w, "HxW (rows x columns of patches)", err, cap);
	case O_TEXT_BEFORE:
		return parse_size(name, arg, 0, PE_MAX_N, &c->mrope.text_before,
		    err, cap);
	case O_FRAMES:
		return parse_size(name, arg, 1, PE_MAX_N, &c->mrope.frames, err,
		    cap);
	case O_TEXT_AFTER:
		return parse_size(name, arg, 0, PE_MAX_N, &c->mrope.text_after, err,
		    cap);
	case O_MROPE_SECTION:
		return parse_sizes(name, arg, 3, PE_MAX_D, c->mrope.mrope_section,
		    "T,H,W (three pair counts)", err, cap);
	case O_XPOS_SCALE_BASE:
		if (parse_double(name, arg, &c->xpos.xpos_scale_base, err, cap) != 0)
			return 2;
		if (c->xpos.xpos_scale_base <= 0)
			return fail(err, cap, "--xpos-scale-base '%s': must be a finite "
			    "number > 0", arg);
		return 0;
	case O_XPOS_OFFSET:
		return parse_size(name, arg, 0, PE_MAX_N, &c->xpos.xpos_offset, err,
		    cap);
	case O_ROPE2D:
		if ((k = pick(name, arg, rope2d_kinds, 2, err, cap)) < 0)
			return 2;
		c->rope2d.kind = (enum pe_rope2d_kind)k;
		return 0;
	case O_FREQS_FILE:
		return load_freqs(o, arg, err, cap);
	case O_LAYER:
		return parse_size(name, arg, 0, PE_MAX_N, &c->rope2d.layer, err, cap);
	case O_TABLE_FILE:
		return load_table(o, arg, err, cap);
	case O_MAX_LEN:
		o->max_len_given = true;
		return parse_size(name, arg, 1, PE_MAX_N, &c->max_len, err, cap);
	case O_ROPE_SCALING:
		if ((k = pick(name, arg, scalings, PE_ROPE_TYPE_COUNT, err, cap)) < 0)
			return 2;
		r->type = (enum pe_rope_type)k;
		return 0;
	case O_FACTOR:
		r->factor_given = true; /* longrope: not max_pos / orig */
		return parse_double(name, arg, &r->factor, err, cap);
	case O_ORIGINAL_MAX_POS:
		return parse_size(name, arg, 1, PE_MAX_N, &r->original_max_pos, err,
		    cap);
	case O_MAX_POS:
		return parse_size(name, arg, 1, PE_MAX_N, &r->max_pos, err, cap);
	case O_BETA_FAST:
		return parse_double(name, arg, &r->beta_fast, err, cap);
	case O_BETA_SLOW:
		return parse_double(name, arg, &r->beta_slow, err, cap);
	case O_MSCALE:
		return parse_double(name, arg, &r->mscale, err, cap);
	case O_MSCALE_ALL_DIM:
		return parse_double(name, arg, &r->mscale_all_dim, err, cap);
	case O_ATTENTION_FACTOR:
		return parse_double(name, arg, &r->attention_factor, err, cap);
	case O_TRUNCATE:
	case O_NO_TRUNCATE:
		r->truncate = id == O_TRUNCATE;
		return 0;
	case O_LOW_FREQ:
		return parse_double(name, arg, &r->low_freq_factor, err, cap);
	case O_HIGH_FREQ:
		return parse_double(name, arg, &r->high_freq_factor, err, cap);
	case O_SHORT_FACTOR:
		if (parse_list(name, arg, &o->short_factor, &r->n_short, err,
			cap) != 0)
			return 2;
		r->short_factor = o->short_factor;
		return 0;
	case O_LONG_FACTOR:
		if (parse_list(name, arg, &o->long_factor, &r->n_long, err, cap) != 0)
			return 2;
		r->long_factor = o->long_factor;
		return 0;
	case O_PARTIAL_ROTARY:
		if (parse_double(name, arg, &r->partial_rotary, err, cap) != 0)
			return 2;
		if (r->partial_rotary <= 0 || r->partial_rotary > 1)
			return fail(err, cap, "--partial-rotary '%s': must be in (0, 1]",
			    arg);
		return 0;
	case O_TRAIN_LEN:
		return parse_size(name, arg, 1, PE_MAX_N, &c->teach.train_len, err,
		    cap);
	case O_TOKENS:
		if (own(&o->tokens, arg, err, cap) != 0)
			return 2;
		c->teach.tokens = o->tokens;
		return 0;
	case O_PERMUTE:
		return parse_permute(o, arg, err, cap);
	case O_MASK:
		if ((k = pick(name, arg, masks, 2, err, cap)) < 0)
			return 2;
		c->teach.mask = k == 0 ? PE_TOY_MASK_CAUSAL : PE_TOY_MASK_NONE;
		return 0;
	case O_BIAS_FILE:
		return load_bias(o, arg, err, cap);
	case O_EMBEDDING:
		if (parse_list(name, arg, &o->embedding, &c->teach.n_embedding, err,
			cap) != 0)
			return 2;
		c->teach.embedding = o->embedding;
		return 0;
	case O_SHIFT: {
		double v;
		if (!read_number(arg, strlen(arg), &v) || v != trunc(v) ||
		    fabs(v) > (double)PE_MAX_N)
			return fail(err, cap, "--shift '%s': must be an integer with "
			    "-n < K < n", arg);
		c->teach.shift = (int64_t)v;
		return 0;
	}
	case O_PANEL:
		if ((k = pe_panel_parse(arg)) < 0) {
			char list[160] = "";
			for (int p = 0; p < PE_PANEL_COUNT; p++)
				list_item(list, sizeof list, p, PE_PANEL_COUNT,
				    pe_panel_name((enum pe_panel)p));
			return fail(err, cap, "--panel '%s': must be %s", arg, list);
		}
		o->panel = k;
		return 0;
	case O_VALUES:
		o->values = true;
		return 0;
	case O_LESSON:
		return own(&o->lesson, arg, err, cap);
	case O_LESSON_FILE:
		return own(&o->lesson_file, arg, err, cap);
	case O_SCENE: {
		const char *dot = strchr(arg, '.');
		char kk[32];
		snprintf(kk, sizeof kk, "%.*s", dot != NULL ? (int)(dot - arg) : 31,
		    arg);
		o->scene_given = true;
		o->scene_step = 1;
		if (parse_size(name, kk, 1, 1000, &o->scene, err, cap) != 0 ||
		    (dot != NULL && parse_size(name, dot + 1, 1, 1000,
			&o->scene_step, err, cap) != 0))
			return fail(err, cap, "--scene '%s': must be K or K.S, scene "
			    "K from 1 and step S from 1", arg);
		return 0;
	}
	case O_ALL:
		o->lesson_all = true;
		return 0;
	case O_LIST:
		o->lesson_list = true;
		return 0;
	case O_PLACEHOLDERS:
		o->lesson_placeholders = true;
		return 0;
	case O_SPEAKER:
		o->speaker = true;
		return 0;
	case O_LINK:
		return own(&o->link, arg, err, cap);
	case O_PRESENT:
		o->present = true;
		return 0;
	case O_NO_CHROME:
		o->no_chrome = true;
		return 0;
	case O_RECORD:
		if (arg[0] == '\0')
			return fail(err, cap, "--record: the file name is "
			    "empty");
		free(o->record);
		if ((o->record = strdup(arg)) == NULL)
			return fail(err, cap, "out of memory");
		return 0;
	case O_COMPARE:
		return own(&o->compare, arg, err, cap);
	case O_CURSOR:
		o->cursor_given = true;
		return parse_pair(name, arg, ',', 0, PE_MAX_N, &o->cursor_p,
		    &o->cursor_j, "P,J (position, then column)", err, cap);
	case O_HEAD:
		o->head_given = true;
		if (parse_size(name, arg, 0, PE_MAX_HEADS - 1, &o->head, err, cap) !=
		    0)
			return 2;
		c->rope2d.head = o->head; /* rope2d mixed's head is the config's */
		return 0;
	case O_SIZE: {
		size_t w, h;
		if (parse_pair(name, arg, 'x', 1, 1000, &w, &h,
			"WxH (columns x lines)", err, cap) != 0)
			return 2;
		if (w < PE_VIEW_MIN_W || h < PE_VIEW_MIN_H)
			return fail(err, cap, "--size '%s': must be at least %dx%d "
			    "(the smallest frame pescope draws) and at most "
			    "1000x1000", arg, PE_VIEW_MIN_W, PE_VIEW_MIN_H);
		o->width = (int)w;
		o->height = (int)h;
		return 0;
	}
	case O_COLOR:
		if ((k = pick(name, arg, depths, 5, err, cap)) < 0)
			return 2;
		o->depth = pe_depth_parse(arg);
		return 0;
	case O_THEME:
		if ((k = pick(name, arg, themes, 2, err, cap)) < 0)
			return 2;
		o->theme = (enum pe_theme)pe_theme_parse(arg);
		return 0;
	case O_FORMAT:
		o->format_given = true;
		if (o->cmd == PE_CMD_DUMP) {
			if ((k = pick(name, arg, dumps, 2, err, cap)) < 0)
				return 2;
			o->dump_format = (enum pe_dump_format)k;
			return 0;
		}
		if ((k = pick(name, arg, snaps, 5, err, cap)) < 0)
			return 2;
		o->snap_format = (enum pe_format)pe_format_parse(arg);
		return 0;
	case O_OUTPUT:
		if (arg[0] == '\0')
			return fail(err, cap, "--output: the file name is empty");
		if (strcmp(arg, "-") == 0) {
			free(o->output);
			o->output = NULL;
			return 0;
		}
		return own(&o->output, arg, err, cap);
	case O_TABLE:
		return own(&o->table, arg, err, cap);
	case O_DTYPE:
		if ((k = pick(name, arg, dtypes, 2, err, cap)) < 0)
			return 2;
		o->dtype = k == 0 ? PE_F32 : PE_F64;
		return 0;
	case O_THREADS:
		return parse_size(name, arg, 1, PE_STREAM_MAX_THREADS, &o->threads,
		    err, cap);
	case O_QUICK:
		o->bench_quick = true;
		return 0;
	case O_TABLES:
		o->bench_tables = true;
		return 0;
	case O_LIST_PRESETS:
		o->cmd = PE_CMD_LIST_PRESETS;
		return 0;
	case O_HELP:
		o->cmd = PE_CMD_HELP;
		return 0;
	case O_VERSION:
		o->cmd = PE_CMD_VERSION;
		return 0;
	case O_PRESET:
	case O_PRESET_FILE:
	case O_COUNT:
		break;
	}
	return fail(err, cap, "--%s: not handled", name);
}

/* Read an NPY table for the learned encoding. It does not choose the
 * encoding: a table with another encoding is refused in finish(). */
static int
load_table(struct pe_options *o, const char *path, char *err, size_t cap)
{
	size_t rows, cols;
	const char *why = NULL;
	double *t;
	int st = pe_npy_read_file(path, (size_t)1 << 32, PE_MAX_N, PE_MAX_D, &t,
	    &rows, &cols, &why);
	switch (st) {
	case PE_OK:
		break;
	case PE_EIO:
		return fail(err, cap, "--table-file '%s': cannot read it: %s", path,
		    strerror(errno));
	case PE_EINVAL:
	case PE_ERANGE:
		return fail(err, cap, "--table-file '%s': %s (a table is a regular "
		    "NPY file of at most 4 GiB, [1..%zu, 1..%zu])", path,
		    why != NULL ? why : pe_strerror(st), PE_MAX_N, PE_MAX_D);
	default:
		return fail(err, cap, "--table-file '%s': not a usable NPY table "
		    "(%s); need a 2-D <f4 or <f8 array [max_len, d_model]", path,
		    why != NULL ? why : pe_strerror(st));
	}
	for (size_t k = 0; k < rows * cols; k++)
		if (!isfinite(t[k])) {
			double v = t[k];
			free(t);
			return fail(err, cap, "--table-file '%s': entry [%zu, %zu] is "
			    "%g; a learned table must be finite", path, k / cols,
			    k % cols, v);
		}
	free(o->table_data);
	o->table_data = t;
	o->table_rows = rows;
	o->table_cols = cols;
	return 0;
}

/* Read --bias-file: a relative bias [buckets] or [heads, buckets], as a
 * checkpoint's relative_attention_bias.weight.T; finite. Its shape is
 * checked against the relative kind with the rest (pe_teach_check). */
static int
load_bias(struct pe_options *o, const char *path, char *err, size_t cap)
{
	size_t nd, rows, cols;
	const char *why = NULL;
	double *t;
	int st = pe_npy_read_file_nd(path, (size_t)1 << 32, PE_MAX_HEADS,
	    2 * PE_MAX_N + 1, &t, &nd, &rows, &cols, &why);
	switch (st) {
	case PE_OK:
		break;
	case PE_EIO:
		return fail(err, cap, "--bias-file '%s': cannot read it: %s", path,
		    strerror(errno));
	default:
		return fail(err, cap, "--bias-file '%s': %s; need a <f4 or <f8 "
		    "array [buckets] or [heads, buckets] (heads 1..%zu)", path,
		    why != NULL ? why : pe_strerror(st), PE_MAX_HEADS);
	}
	for (size_t k = 0; k < rows * cols; k++)
		if (!isfinite(t[k])) {
			double v = t[k];
			free(t);
			return fail(err, cap, "--bias-file '%s': entry %zu is %g; a "
			    "bias must be finite", path, k, v);
		}
	free(o->bias_data);
	o->bias_data = t;
	o->cfg.teach.bias = t;
	o->cfg.teach.bias_heads = rows;
	o->cfg.teach.bias_len = cols;
	return 0;
}

/* Read --freqs-file: RoPE-Mixed's learned frequencies, [2, d/2] (one head),
 * [2, heads, d/2] or the reference's parameter [2, depth, heads d/2],
 * finite. That d_model divides them, and --head and --layer are inside,
 * is checked with the rest (pe_rope2d_check). */
static int
load_freqs(struct pe_options *o, const char *path, char *err, size_t cap)
{
	size_t nd, shape[3];
	const char *why = NULL;
	double *t;
	int st = pe_npy_read_file_3d(path, (size_t)1 << 32,
	    PE_MAX_HEADS * PE_MAX_D, &t, &nd, shape, &why);
	switch (st) {
	case PE_OK:
		break;
	case PE_EIO:
		return fail(err, cap, "--freqs-file '%s': cannot read it: %s", path,
		    strerror(errno));
	default:
		return fail(err, cap, "--freqs-file '%s': %s; need a <f4 or <f8 "
		    "array [2, heads, d/2] or [2, depth, heads d/2]", path,
		    why != NULL ? why : pe_strerror(st));
	}
	if (nd < 2 || shape[0] != 2) {
		char dims[64];
		snprintf(dims, sizeof dims, nd == 1 ? "[%zu]" : nd == 2
		    ? "[%zu, %zu]" : "[%zu, %zu, %zu]", shape[0], shape[1], shape[2]);
		free(t);
		return fail(err, cap, "--freqs-file '%s': the array is %s; RoPE-Mixed's "
		    "frequencies are [2, heads, d/2] (x, then y) or the reference's "
		    "freqs [2, depth, heads d/2]", path, dims);
	}
	size_t rows = nd == 2 ? 1 : shape[1], cols = nd == 2 ? shape[1] : shape[2];
	for (size_t k = 0; k < 2 * rows * cols; k++)
		if (!isfinite(t[k])) {
			double v = t[k];
			free(t);
			return fail(err, cap, "--freqs-file '%s': entry %zu is %g; "
			    "frequencies must be finite", path, k, v);
		}
	free(o->freqs_data);
	o->freqs_data = t;
	o->cfg.rope2d.freqs = t;
	o->cfg.rope2d.freqs_rows = rows;
	o->cfg.rope2d.freqs_cols = cols;
	return 0;
}

/* Read --permute: a list of token indices (numbers by parse_list's rule,
 * each a whole number 0..63); that it is a permutation of the sentence's
 * is checked with the rest (pe_teach_check). */
static int
parse_permute(struct pe_options *o, const char *arg, char *err, size_t cap)
{
	double *v = NULL;
	size_t n;
	if (parse_list("permute", arg, &v, &n, err, cap) != 0)
		return 2;
	size_t *p = malloc(n * sizeof *p);
	if (p == NULL) {
		free(v);
		return fail(err, cap, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] >= 0 && v[i] < PE_TOY_MAX_TOKENS && v[i] == trunc(v[i]))) {
			int rc = fail(err, cap, "--permute: entry %zu (%g) is not a "
			    "token index: a permutation of 0..T-1 (T at most %d)", i,
			    v[i], PE_TOY_MAX_TOKENS);
			free(v);
			free(p);
			return rc;
		}
		p[i] = (size_t)v[i];
	}
	free(v);
	free(o->permute);
	o->permute = p;
	o->cfg.teach.permute = p;
	o->cfg.teach.n_permute = n;
	return 0;
}

/* Find an option by long name. */
static int
find_opt(const char *name)
{
	for (int i = 0; i < O_COUNT; i++)
		if (strcmp(pe_opts[i].name, name) == 0)
			return i;
	return -1;
}

extern const struct pe_embedded {
	const char *name;
	const char *text;
} pe_presets[];

/* Text of a compiled-in preset, or NULL. */
const char *
pe_preset_text(const char *name)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++)
		if (strcmp(pe_presets[i].name, name) == 0)
			return pe_presets[i].text;
	return NULL;
}

/* Trim spaces, tabs (and a CR at the end) of s in place. */
char *
pe_options_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* See options.h. */
bool
pe_options_line(char *line, char **key, char **val)
{
	char *hash = strchr(line, '#');
	if (hash != NULL)
		*hash = '\0';
	char *eq = strchr(line, '=');
	*val = NULL;
	if (eq != NULL) {
		*eq = '\0';
		*val = pe_options_trim(eq + 1);
	}
	*key = pe_options_trim(line);
	return **key != '\0' || eq != NULL;
}

/* Apply a preset's text (lines "option = value") to *o. */
int
pe_options_apply_preset(struct pe_options *o, const char *name,
    const char *text, char *err, size_t cap)
{
	char *copy = strdup(text), *save = NULL, *line;
	int lineno = 0, rc = 0;
	if (copy == NULL)
		return fail(err, cap, "out of memory");
	for (line = strtok_r(copy, "\n", &save); line != NULL && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *key, *val;
		if (!pe_options_line(line, &key, &val))
			continue;
		if (strcmp(key, "source") == 0 || strcmp(key, "description") == 0) {
			if (strcmp(key, "source") == 0 && val != NULL)
				rc = own(&o->preset_source, val, err, cap);
			continue;
		}
		int id = find_opt(key);
		if (id < 0 || pe_opts[id].encs == 0 || id == O_TABLE_FILE ||
		    id == O_BIAS_FILE || id == O_FREQS_FILE) {
			rc = fail(err, cap, "preset %s, line %d: '%s' is not an option "
			    "a preset can set", name, lineno, key);
			break;
		}
		if (pe_opts[id].arg && (val == NULL || *val == '\0')) {
			rc = fail(err, cap, "preset %s, line %d: '%s' needs a value",
			    name, lineno, key);
			break;
		}
		if (!pe_opts[id].arg && val != NULL) {
			rc = fail(err, cap, "preset %s, line %d: '%s' takes no value",
			    name, lineno, key);
			break;
		}
		char msg[512];
		if (apply(o, (enum opt_id)id, val, msg, sizeof msg) != 0)
			rc = fail(err, cap, "preset %s, line %d: %s", name, lineno, msg);
	}
	free(copy);
	return rc;
}

/* Apply --preset NAME or --preset-file FILE. */
static int
apply_preset_opt(struct pe_options *o, bool is_file, const char *arg,
    char *err, size_t cap)
{
	if (!is_file) {
		const char *t = pe_preset_text(arg);
		if (t == NULL)
			return fail(err, cap, "--preset '%s': unknown preset; "
			    "`pescope --list-presets` lists them", arg);
		if (own(&o->preset, arg, err, cap) != 0)
			return 2;
		return pe_options_apply_preset(o, arg, t, err, cap);
	}
	unsigned char *buf;
	size_t len;
	int st = pe_file_read(arg, 1 << 20, &buf, &len);
	if (st != PE_OK)
		return fail(err, cap, "--preset-file '%s': cannot read it: %s", arg,
		    file_why(st));
	if (memchr(buf, '\0', len) != NULL) {
		free(buf);
		return fail(err, cap, "--preset-file '%s': not a text file", arg);
	}
	int rc = own(&o->preset, arg, err, cap);
	if (rc == 0)
		rc = pe_options_apply_preset(o, arg, (const char *)buf, err, cap);
	free(buf);
	return rc;
}

/* "a, b or c" from the names of the bits set in mask. */
static const char *
mask_names(unsigned mask, const char *(*name)(int), int count, char *buf,
    size_t cap)
{
	int total = 0, seen = 0;
	for (int i = 0; i < count; i++)
		total += (mask >> i) & 1;
	buf[0] = '\0';
	for (int i = 0; i < count; i++) {
		if (!((mask >> i) & 1))
			continue;
		size_t l = strlen(buf);
		snprintf(buf + l, cap - l, "%s%s",
		    seen == 0 ? "" : seen == total - 1 ? " and " : ", ", name(i));
		seen++;
	}
	return buf;
}

static const char *
enc_name(int i)
{
	return pe_encoding_name((enum pe_encoding)i);
}

static const char *
scaling_name(int i)
{
	return pe_rope_type_name((enum pe_rope_type)i);
}

static const char *
kind_name(int i)
{
	return i == PE_REL_T5 ? "t5" : "shaw";
}

static const char *
panel_name(int i)
{
	return pe_panel_name((enum pe_panel)i);
}

/* --panel: one the encoding has; in its attention panel, a toy attention
 * it can compute (relative without --bias-file shows its buckets) and a
 * head the bias has. */
static int
check_panel(const struct pe_options *o, char *err, size_t cap)
{
	const struct pe_config *c = &o->cfg;
	const struct pe_enc_view *v = pe_enc_view_of(c);
	enum pe_panel p = (enum pe_panel)o->panel;
	char list[160] = "", why[512];
	unsigned has = 0;

	for (int i = 0; i < PE_PANEL_COUNT; i++)
		if (pe_enc_has_panel(v, (enum pe_panel)i))
			has |= 1u << i;
	if (!(has & (1u << p)) && has == 1)
		return fail(err, cap, "--panel %s: -e %s has only its overview",
		    pe_panel_name(p), pe_encoding_name(c->enc));
	if (!(has & (1u << p)))
		return fail(err, cap, "--panel %s: -e %s has the panels %s",
		    pe_panel_name(p), pe_encoding_name(c->enc),
		    mask_names(has, panel_name, PE_PANEL_COUNT, list, sizeof list));
	if (p != PE_PANEL_ATTENTION)
		return 0;
	size_t head = o->head_given ? o->head : 0;
	if (c->enc == PE_ENC_RELATIVE && o->head_given &&
	    (c->teach.bias == NULL || head >= c->teach.bias_heads))
		return fail(err, cap, "--head %zu: relative's toy attention reads "
		    "row --head of --bias-file, which has %zu", head,
		    c->teach.bias == NULL ? (size_t)0 : c->teach.bias_heads);
	if (c->enc == PE_ENC_RELATIVE && c->teach.bias == NULL)
		return 0;
	struct pe_toy_sentence s;
	if (pe_toy_split(c->teach.tokens, &s) != PE_OK ||
	    pe_toy_check(c, &s, head, why, sizeof why) != PE_OK)
		return pe_options_flags(why, err, cap);
	return 0;
}

/* In snapshot and dump, refuse an option given on the command line that
 * changes nothing for the chosen encoding, scaling type or relative kind;
 * in dump also a table's own option with another table. */
static int
check_applies(const struct pe_options *o, const bool *given, char *err,
    size_t cap)
{
	const struct pe_config *c = &o->cfg;
	char list[160];

	if (o->cmd != PE_CMD_SNAPSHOT && o->cmd != PE_CMD_DUMP)
		return 0;
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		if (!given[i] || r->encs == 0)
			continue;
		enum pe_dump_scope scope = o->cmd == PE_CMD_DUMP
		    ? pe_dump_option_scope(o->table, r->name, list, sizeof list)
		    : PE_DUMP_OPT_USUAL;
		if (scope == PE_DUMP_OPT_OTHER_TABLE)
			return fail(err, cap, "--%s has no effect on dump table %s: it "
			    "applies to %s", r->name, o->table, list);
		if (scope == PE_DUMP_OPT_ALSO)
			continue; /* the table takes it for every encoding it has */
		bool snap = o->cmd == PE_CMD_SNAPSHOT;
		if (snap && (r->also_panels & (1u << o->panel)) &&
		    (r->also_encs & (1u << c->enc)))
			continue; /* the panel takes it for this encoding */
		if (!(r->encs & (1u << c->enc)))
			return fail(err, cap, "--%s has no effect with -e %s: it "
			    "applies to %s", r->name, pe_encoding_name(c->enc),
			    mask_names(r->encs, enc_name, PE_ENC_COUNT, list,
				sizeof list));
		if (c->enc == PE_ENC_ROPE && r->scalings != 0 &&
		    !(r->scalings & (1u << c->rope.type)))
			return fail(err, cap, "--%s has no effect with --rope-scaling "
			    "%s: it applies to %s", r->name,
			    pe_rope_type_name(c->rope.type),
			    mask_names(r->scalings, scaling_name,
				PE_ROPE_TYPE_COUNT, list, sizeof list));
		if (c->enc == PE_ENC_RELATIVE && r->kinds != 0 &&
		    !(r->kinds & (1u << c->relative)))
			return fail(err, cap, "--%s has no effect with --relative %s: "
			    "it applies to %s", r->name, kind_name(c->relative),
			    mask_names(r->kinds, kind_name, 2, list, sizeof list));
		if (snap && r->panels != 0 && !(r->panels & (1u << o->panel)))
			return fail(err, cap, "--%s has no effect with --panel %s: it "
			    "applies to --panel %s", r->name,
			    pe_panel_name((enum pe_panel)o->panel),
			    mask_names(r->panels, panel_name, PE_PANEL_COUNT, list,
				sizeof list));
	}
	return 0;
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
		bool word = n > 0 && (i == 0 || !isalnum((unsigned char)why[i - 1]));
		bool named = memchr(why + i, '_', n) != NULL; /* d_model, ... */
		char name[64];
		if (word && (i < head || named) && n < sizeof name) {
			for (size_t k = 0; k < n; k++)
				name[k] = why[i + k] == '_' ? '-' : why[i + k];
			name[n] = '\0';
			if (find_opt(name) >= 0) {
				o += (size_t)snprintf(err + o, cap - o, "--%s", name);
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

/* Lessons: one lesson, what --scene and --all need, and in snapshot no
 * option a scene sets (the scene sets them). */
static int
check_lesson(const struct pe_options *o, const bool *given, char *err,
    size_t cap)
{
	bool lesson = o->lesson != NULL || o->lesson_file != NULL;

	if (o->lesson != NULL && o->lesson_file != NULL)
		return fail(err, cap, "--lesson and --lesson-file: give one of them");
	if (o->cmd != PE_CMD_SNAPSHOT)
		return o->lesson_list && given[O_SCENE]
		    ? fail(err, cap, "--list and --scene: --list lists the scenes; "
			"give one of them") : 0;
	if (!lesson && (given[O_SCENE] || given[O_ALL]))
		return fail(err, cap, "--%s: needs --lesson NAME or --lesson-file "
		    "FILE", given[O_SCENE] ? "scene" : "all");
	if (given[O_ALL] && given[O_SCENE])
		return fail(err, cap, "--all and --scene: --all writes every scene; "
		    "give one of them");
	if (given[O_ALL] && o->output == NULL)
		return fail(err, cap, "--all: needs -o DIR, the folder for the "
		    "files (with -f pdf: -o FILE.pdf, the handout)");
	if (!lesson)
		return 0;
	for (int i = 0; i < O_COUNT; i++)
		if (given[i] && (pe_opts[i].encs != 0 || i == O_PRESET ||
		    i == O_PRESET_FILE || i == O_CURSOR || i == O_PANEL ||
		    i == O_VALUES || i == O_HEAD || i == O_COMPARE))
			return fail(err, cap, "--%s has no effect with --%s: each "
			    "scene sets its own view (write it in a lesson file)",
			    pe_opts[i].name, o->lesson != NULL ? "lesson"
							       : "lesson-file");
	return 0;
}

/* The checks that need every option: table width, the config, what
 * applies where. */
static int
finish(struct pe_options *o, const bool *given, char *err, size_t cap)
{
	struct pe_config *c = &o->cfg;
	char why[512];

	if (check_lesson(o, given, err, cap) != 0)
		return 2;
	/* the encoding's own defaults (its row in config.c) for what no
	 * option or preset gave */
	pe_config_encoding_defaults(c, o->d_given, o->base_given);
	if (o->table_data != NULL) {
		if (c->enc != PE_ENC_LEARNED)
			return fail(err, cap, "--table-file: only the learned encoding "
			    "reads a table, and the encoding is %s; add -e learned",
			    pe_encoding_name(c->enc));
		if (o->d_given && c->d != o->table_cols)
			return fail(err, cap, "--table-file: the table is %zu wide but "
			    "--d-model is %zu; they must agree (or leave out "
			    "--d-model)", o->table_cols, c->d);
		c->d = o->table_cols;
		if (o->max_len_given && c->max_len != o->table_rows)
			return fail(err, cap, "--max-len %zu: the table file has %zu "
			    "rows; leave out --max-len to use them all", c->max_len,
			    o->table_rows);
		c->max_len = o->table_rows;
		c->table = o->table_data;
		c->table_untrained = false;
	}
	if (pe_config_check(c, why, sizeof why) != PE_OK)
		return pe_options_flags(why, err, cap);
	if (o->cmd == PE_CMD_DUMP &&
	    pe_dump_check_table(c, o->table, err, cap) != 0)
		return 2;
	int rc = check_applies(o, given, err, cap);
	if (rc != 0)
		return rc;
	if (pe_teach_check(c, why, sizeof why) != PE_OK)
		return pe_options_flags(why, err, cap);
	if (given[O_SHIFT] && (c->teach.shift <= -(int64_t)c->n ||
	    c->teach.shift >= (int64_t)c->n))
		return fail(err, cap, "--shift %lld: must be an integer in "
		    "%lld..%lld (-n < K < n, seq_len %zu)",
		    (long long)c->teach.shift, 1 - (long long)c->n,
		    (long long)c->n - 1, c->n);
	if (c->enc == PE_ENC_LEARNED && o->table_data == NULL) {
		/* GPT-2's init, labelled untrained; bounded so it fits in memory. */
		int st = pe_learned_untrained(c->max_len, c->d, &o->table_data);
		if (st == PE_ERANGE)
			return fail(err, cap, "--max-len %zu: an untrained table of %zu "
			    "x %zu is too large; max_len x d_model must be at most "
			    "%zu", c->max_len, c->max_len, c->d,
			    PE_LEARNED_MAX_ENTRIES);
		if (st != PE_OK)
			return fail(err, cap, "out of memory for the learned table");
		c->table = o->table_data;
		c->table_untrained = true;
	}
	if (o->freqs_data != NULL && (c->enc != PE_ENC_ROPE2D ||
	    c->rope2d.kind != PE_ROPE2D_MIXED))
		return fail(err, cap, "--freqs-file: only rope2d mixed reads learned "
		    "frequencies; add -e rope2d --rope2d mixed");
	if (c->enc == PE_ENC_ROPE2D && c->rope2d.kind == PE_ROPE2D_AXIAL &&
	    (o->cmd == PE_CMD_SNAPSHOT || o->cmd == PE_CMD_DUMP))
		for (int id = 0; id < O_COUNT; id++)
			if (given[id] && (id == O_HEAD || id == O_LAYER))
				return fail(err, cap, "--%s has no effect with --rope2d "
				    "axial: it applies to mixed", pe_opts[id].name);
	o->head_in_config = c->enc == PE_ENC_ROPE2D &&
	    c->rope2d.kind == PE_ROPE2D_MIXED;
	if (o->head_given && pe_field_supported(c->enc, PE_FIELD_BIAS) &&
	    o->head >= c->heads) /* alibi's heads */
		return fail(err, cap, "--head %zu: must be in 0..%zu (there are %zu "
		    "heads)", o->head, c->heads - 1, c->heads);
	if (given[O_NO_CHROME] && o->present)
		return fail(err, cap, "--no-chrome has no effect with "
		    "--present: the presenter view has no tab bar or key "
		    "hints");
	/* pane B shows the panel when it has it, else its overview */
	if ((o->cmd == PE_CMD_SNAPSHOT || o->cmd == PE_CMD_TUI) && !o->pane_b)
		return check_panel(o, err, cap);
	return 0;
}

/* Explain a long option getopt_long refused: unknown, or the start of
 * several ("--pre": --preset or --preset-file). */
static int
unknown_long(const char *arg, char *err, size_t cap)
{
	const char *name = arg + strspn(arg, "-");
	size_t len = strcspn(name, "=");
	char list[256] = "";
	int hits = 0;
	for (int i = 0; i < O_COUNT; i++)
		if (strncmp(pe_opts[i].name, name, len) == 0) {
			size_t l = strlen(list);
			snprintf(list + l, sizeof list - l, "%s--%s",
			    hits++ == 0 ? "" : ", ", pe_opts[i].name);
		}
	if (hits > 1)
		return fail(err, cap, "ambiguous option '%.*s': could be %s",
		    (int)(name - arg + len), arg, list);
	return fail(err, cap, "unknown option '%s'; see `pescope --help`", arg);
}

/* One option as getopt_long found it, applied after every preset. */
struct opt_hit {
	enum opt_id id;
	const char *arg;
};

/* One getopt_long pass over av[1 .. ac) (abbreviations included): the
 * options into hits (room for one per character of av), refusing what
 * does not apply to cmd. Returns 0 or 2 with a message. */
static int
collect(int ac, char **av, enum pe_cmd cmd, struct opt_hit *hits, int *nhits,
    char *err, size_t cap)
{
	struct option lo[O_COUNT + 1];
	char shorts[2 * O_COUNT + 2] = ":";
	int rc = 0, ch;

	for (int i = 0; i < O_COUNT; i++) {
		lo[i] = (struct option){pe_opts[i].name,
			pe_opts[i].arg ? required_argument : no_argument, NULL, 256 + i};
		if (pe_opts[i].letter != 0) {
			size_t l = strlen(shorts);
			shorts[l] = pe_opts[i].letter;
			shorts[l + 1] = pe_opts[i].arg ? ':' : '\0';
			shorts[l + 2] = '\0';
		}
	}
	memset(&lo[O_COUNT], 0, sizeof lo[O_COUNT]);
	*nhits = 0;
	optind = 0; /* full re-initialisation, so the parser can run twice */
	opterr = 0;
	while (rc == 0 && (ch = getopt_long(ac, av, shorts, lo, NULL)) != -1) {
		int id = -1;
		if (ch >= 256) {
			id = ch - 256;
		} else if (ch == ':') {
			rc = fail(err, cap, "%s: needs a value", av[optind - 1]);
		} else if (ch == '?') {
			if (optopt >= 256)
				rc = fail(err, cap, "--%s takes no value",
				    pe_opts[optopt - 256].name);
			else if (optopt != 0)
				rc = fail(err, cap, "unknown option '-%c'; see "
				    "`pescope --help`", optopt);
			else
				rc = unknown_long(av[optind - 1], err, cap);
		} else {
			for (int i = 0; i < O_COUNT; i++)
				if (pe_opts[i].letter == ch)
					id = i;
		}
		if (rc != 0 || id < 0)
			continue;
		if (!(pe_opts[id].cmds & (1u << cmd))) {
			rc = fail(err, cap, "--%s does not apply to %s", pe_opts[id].name,
			    cmd_names[cmd]);
			continue;
		}
		hits[(*nhits)++] = (struct opt_hit){(enum opt_id)id, optarg};
	}
	if (rc == 0 && optind < ac)
		rc = fail(err, cap, "unexpected argument '%s'; see `pescope "
		    "--help`", av[optind]);
	return rc;
}

/* The defaults every parse starts from. */
static void
options_init(struct pe_options *o, enum pe_cmd cmd)
{
	memset(o, 0, sizeof *o);
	pe_config_default(&o->cfg);
	o->cmd = cmd;
	o->width = 120;
	o->height = 40;
	o->depth = -1;
	o->snap_format = PE_FMT_ANSI;
	o->theme = PE_THEME_DARK;
	o->dump_format = PE_DUMP_CSV;
	o->dtype = PE_F32;
}

/* Apply hits' presets (presets true) or their other options to *o; given
 * marks the others. */
static int
apply_hits(struct pe_options *o, const struct opt_hit *hits, int n,
    bool presets, bool *given, char *err, size_t cap)
{
	int rc = 0;
	for (int i = 0; rc == 0 && i < n; i++) {
		enum opt_id id = hits[i].id;
		bool is_preset = id == O_PRESET || id == O_PRESET_FILE;
		if (is_preset != presets)
			continue;
		if (is_preset) {
			rc = apply_preset_opt(o, id == O_PRESET_FILE,
			    hits[i].arg, err, cap);
			continue;
		}
		if (given != NULL)
			given[id] = true;
		rc = apply(o, id, hits[i].arg, err, cap);
	}
	return rc;
}

/* Whether hits hold a preset. */
static bool
has_preset(const struct opt_hit *hits, int n)
{
	for (int i = 0; i < n; i++)
		if (hits[i].id == O_PRESET || hits[i].id == O_PRESET_FILE)
			return true;
	return false;
}

/* Whether the command line changed a number of the preset's config as:
 * saying the preset's own value again (-e rope with a rope preset) is no
 * change; --factor's "given" matters to longrope only. */
static bool
preset_modified(const struct pe_config *cfg, const struct pe_config *as)
{
	struct pe_config now = *cfg;
	if (now.rope.type != PE_ROPE_LONGROPE)
		now.rope.factor_given = as->rope.factor_given;
	return memcmp(&now, as, sizeof now) != 0;
}

/* Split s into words as a shell splits the quoting one types inside an
 * argument: blanks separate words; '...' keeps every character; "..."
 * keeps every character but a backslash before " \ $ or `, which goes; a
 * backslash outside quotes keeps the next character. The words go into
 * buf (strlen(s) + 1 bytes), NUL-separated, and words[] (at most max).
 * Returns their count, or -1 at an unterminated quote or a trailing
 * backslash. */
static int
split_words(const char *s, char *buf, char **words, int max)
{
	int n = 0;
	char *o = buf;

	while (*s != '\0') {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (*s == '\0')
			break;
		if (n == max)
			return -1;
		words[n++] = o;
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n') {
			if (*s == '\'') {
				const char *e = strchr(s + 1, '\'');
				if (e == NULL)
					return -1;
				memcpy(o, s + 1, (size_t)(e - s - 1));
				o += e - s - 1;
				s = e + 1;
			} else if (*s == '"') {
				for (s++; *s != '"'; s++) {
					if (*s == '\0')
						return -1;
					if (*s == '\\' && s[1] != '\0' &&
					    strchr("\"\\$`", s[1]) != NULL)
						s++;
					*o++ = *s;
				}
				s++;
			} else if (*s == '\\') {
				if (s[1] == '\0')
					return -1;
				*o++ = s[1];
				s += 2;
			} else {
				*o++ = *s++;
			}
		}
		*o++ = '\0';
	}
	return n;
}

/* --compare: pane B's options into o->cmp: o's command line again (its
 * presets, then its options), then the words' presets and options on top,
 * which must be config options; the checks of finish() on the result,
 * with the words' options as the given ones. Messages start "--compare
 * (pane B): ". */
static int
parse_compare(struct pe_options *o, const struct opt_hit *ha, int na,
    char *err, size_t cap)
{
	static const char pre[] = "--compare (pane B): ";
	size_t len = strlen(o->compare);
	int max = (int)(len / 2 + 2), nb = 0, rc = 0;
	char *buf = malloc(len + 1), *msg = malloc(cap);
	char **av = calloc((size_t)max + 1, sizeof *av);
	struct opt_hit *hb = calloc(len + 1, sizeof *hb);
	struct pe_options *b = calloc(1, sizeof *b);
	bool given[O_COUNT] = {false};

	if (b != NULL) {
		options_init(b, o->cmd);
		b->pane_b = true;
		o->cmp = b; /* pe_options_free(o) frees it */
	}
	if (buf == NULL || msg == NULL || av == NULL || hb == NULL ||
	    b == NULL) {
		rc = fail(err, cap, "out of memory");
		goto end;
	}
	av[0] = (char *)"pescope";
	int nw = split_words(o->compare, buf, av + 1, max - 1);
	if (nw < 0) {
		rc = fail(err, cap, "%s'%s': a quote is not closed", pre,
		    o->compare);
		goto end;
	}
	if (nw == 0) {
		rc = fail(err, cap, "%sno options: say what pane B changes, "
		    "e.g. --compare \"-e rope\"", pre);
		goto end;
	}
	if (av[1][0] != '-') {
		rc = fail(err, cap, "%s'%s' is not an option: --compare "
		    "takes the options of a configuration, not a command", pre,
		    av[1]);
		goto end;
	}
	if ((rc = collect(nw + 1, av, o->cmd, hb, &nb, msg, cap)) != 0) {
		fail(err, cap, "%s%s", pre, msg);
		goto end;
	}
	for (int i = 0; i < nb; i++) {
		enum opt_id id = hb[i].id;
		if (pe_opts[id].encs != 0 || id == O_PRESET ||
		    id == O_PRESET_FILE)
			continue;
		rc = fail(err, cap, "%s--%s is not a config option: --compare "
		    "takes what sets a pane's configuration (encoding, sizes, "
		    "scaling, the panels' inputs, presets)", pre,
		    pe_opts[id].name);
		goto end;
	}
	/* A's command line, then B's words on top; the config as the
	 * presets left it says whether B is its preset modified */
	struct pe_config as_preset;
	rc = apply_hits(b, ha, na, true, NULL, msg, cap);
	as_preset = b->cfg;
	if (rc == 0)
		rc = apply_hits(b, ha, na, false, NULL, msg, cap);
	if (rc == 0 && has_preset(hb, nb)) {
		rc = apply_hits(b, hb, nb, true, NULL, msg, cap);
		as_preset = b->cfg;
	}
	if (rc == 0)
		rc = apply_hits(b, hb, nb, false, given, msg, cap);
	free(b->compare);
	b->compare = NULL;
	if (rc == 0 && b->preset != NULL)
		b->preset_modified = preset_modified(&b->cfg, &as_preset);
	if (rc == 0)
		rc = finish(b, given, msg, cap);
	if (rc != 0)
		fail(err, cap, "%s%s", pre, msg);
end:
	free(buf);
	free(msg);
	free(av);
	free(hb);
	return rc;
}

/* Parse argv into *o. One getopt_long pass (abbreviations included)
 * collects the options; presets are applied first, then the others in
 * order, so the command line overrides a preset wherever it stands. */
int
pe_options_parse(struct pe_options *o, int argc, char **argv, char *err,
    size_t cap)
{
	bool given[O_COUNT] = {false};
	int first = 1, rc = 0;

	options_init(o, PE_CMD_TUI);
	if (argc > 1 && argv[1][0] != '-') {
		static const char *const cmds[] = {"snapshot", "dump", "lesson",
			"bench", "completion", "manpage"};
		static const enum pe_cmd ids[] = {PE_CMD_SNAPSHOT, PE_CMD_DUMP,
			PE_CMD_LESSON, PE_CMD_BENCH, PE_CMD_COMPLETION, PE_CMD_MANPAGE};
		int k = -1;
		for (int i = 0; i < 6; i++)
			if (strcmp(argv[1], cmds[i]) == 0)
				k = i;
		if (k < 0)
			return fail(err, cap, "unknown command '%s': commands are "
			    "snapshot, dump, lesson, bench, completion and manpage "
			    "(none starts the TUI)", argv[1]);
		o->cmd = ids[k];
		first = 2;
		if (o->cmd == PE_CMD_COMPLETION) {
			if (argc != 3 || (strcmp(argv[2], "bash") != 0 &&
					     strcmp(argv[2], "zsh") != 0))
				return fail(err, cap, "completion takes one word: bash "
				    "or zsh");
			o->shell = strcmp(argv[2], "zsh") == 0;
			return 0;
		}
		if (o->cmd == PE_CMD_MANPAGE && argc != 2)
			return fail(err, cap, "manpage takes no options");
	}

	/* At most one option per character ("-hV" is two). */
	size_t room = 1;
	for (int i = first; i < argc; i++)
		room += strlen(argv[i]) + 1;
	struct opt_hit *hits = calloc(room, sizeof *hits);
	if (hits == NULL)
		return fail(err, cap, "out of memory");
	int nhits = 0;
	rc = collect(argc - first + 1, argv + first - 1, o->cmd, hits, &nhits, err,
	    cap);
	if (rc == 0)
		rc = apply_hits(o, hits, nhits, true, NULL, err, cap);
	struct pe_config as_preset = o->cfg; /* both from one memset */
	if (rc == 0)
		rc = apply_hits(o, hits, nhits, false, given, err, cap);
	if (o->preset != NULL)
		o->preset_modified = preset_modified(&o->cfg, &as_preset);
	if (rc != 0 || o->cmd == PE_CMD_HELP || o->cmd == PE_CMD_VERSION ||
	    o->cmd == PE_CMD_LIST_PRESETS || o->cmd == PE_CMD_MANPAGE)
		goto end;
	if (o->cmd == PE_CMD_DUMP && o->table == NULL) {
		rc = fail(err, cap, "dump needs --table T (which table to write); "
		    "see `pescope --help`");
		goto end;
	}
	rc = finish(o, given, err, cap);
	if (rc == 0 && o->compare != NULL)
		rc = parse_compare(o, hits, nhits, err, cap);
end:
	free(hits);
	return rc;
}

/* Release what the options own. */
void
pe_options_free(struct pe_options *o)
{
	free(o->table_data);
	free(o->freqs_data);
	o->freqs_data = NULL;
	free(o->short_factor);
	free(o->long_factor);
	free(o->preset_source);
	free(o->preset);
	free(o->lesson);
	free(o->lesson_file);
	free(o->link);
	free(o->table);
	free(o->output);
	free(o->record);
	o->record = NULL;
	free(o->tokens);
	free(o->permute);
	free(o->bias_data);
	free(o->embedding);
	free(o->compare);
	o->compare = NULL;
	if (o->cmp != NULL) {
		pe_options_free(o->cmp);
		free(o->cmp);
		o->cmp = NULL;
	}
	o->tokens = NULL;
	o->permute = NULL;
	o->bias_data = o->embedding = NULL;
	o->table_data = NULL;
	o->short_factor = o->long_factor = NULL;
	o->preset_source = o->preset = o->table = o->output = NULL;
}

/* The value of "key = value" in a preset's text, as a length-bounded
 * span; NULL when absent. */
static const char *
preset_field(const char *text, const char *key, int *len)
{
	size_t kl = strlen(key);
	for (const char *p = text; p != NULL && *p != '\0';) {
		if (strncmp(p, key, kl) == 0) {
			const char *q = p + kl;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '=') {
				q++;
				while (*q == ' ' || *q == '\t')
					q++;
				*len = (int)strcspn(q, "\n");
				return q;
			}
		}
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
	*len = 0;
	return NULL;
}

/* Write "%-18s text" with text wrapped at word boundaries to 79 columns,
 * continuation lines indented under it. */
static void
wrap(FILE *fp, const char *name, const char *text)
{
	enum { INDENT = 19, WIDTH = 79 };
	int col = fprintf(fp, "%-18s", name);
	bool first = true;
	while (*text != '\0') {
		size_t n = strcspn(text, " ");
		if (!first && col + 1 + (int)n > WIDTH) {
			col = fprintf(fp, "\n%*s", INDENT - 1, "") - 1;
			first = true;
		}
		col += fprintf(fp, " %.*s", (int)n, text);
		first = false;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', fp);
}

/* List the compiled-in presets: name and description, then the source. */
void
pe_options_list_presets(FILE *fp)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++) {
		const char *t = pe_presets[i].text;
		int dl, sl;
		const char *d = preset_field(t, "description", &dl);
		const char *s = preset_field(t, "source", &sl);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", dl, d ? d : "");
		wrap(fp, pe_presets[i].name, line);
		if (s != NULL) {
			snprintf(line, sizeof line, "source: %.*s", sl, s);
			wrap(fp, "", line);
		}
	}
}


/* Print "pescope: <message>" to standard error, with control characters
 * escaped: a message may quote an argument or a preset line. */
void
pe_app_error(const char *fmt, ...)
{
	char msg[2048], safe[4 * sizeof msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "pescope: %s\n", pe_text_escape(msg, safe, sizeof safe));
}
