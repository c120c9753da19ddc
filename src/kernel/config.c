/* The shared vocabulary: status names, the defaults and the checks every
 * encoding shares. Each encoding's own rules, names and defaults are its
 * row's (encoding.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pescope/pescope.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"

/* Human-readable name of a status code. */
const char *
pe_strerror(int status)
{
	switch (status) {
	case PE_OK:
		return "success";
	case PE_EINVAL:
		return "invalid parameter";
	case PE_ENOMEM:
		return "out of memory";
	case PE_ERANGE:
		return "index past the encoding's limit";
	case PE_EFORMAT:
		return "malformed data";
	case PE_EIO:
		return "input/output error";
	case PE_EINTR:
		return "interrupted";
	}
	return "unknown error";
}

/* Fill *cfg with the defaults. */
void
pe_config_default(struct pe_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->enc = PE_ENC_SINUSOIDAL;
	cfg->d = 64;
	cfg->n = 64;
	cfg->base = 10000.0;
	cfg->layout = PE_LAYOUT_INTERLEAVED;
	cfg->pairing = PE_PAIR_HALF;
	cfg->heads = 8;
	cfg->alibi_mode = PE_ALIBI_CAUSAL;
	cfg->relative = PE_REL_T5;
	cfg->buckets = 32;
	cfg->max_distance = 128;
	cfg->bidirectional = true;
	cfg->max_relative = 16;
	cfg->grid_h = 14;
	cfg->grid_w = 14;
	cfg->max_len = 1024;
	cfg->table = NULL;
	cfg->table_untrained = true;

	/* rope_scaling: HF's defaults where it has them. */
	cfg->rope.type = PE_ROPE_DEFAULT;
	cfg->rope.factor = 4.0;
	cfg->rope.original_max_pos = 4096;
	cfg->rope.max_pos = 4096;
	cfg->rope.beta_fast = 32.0;
	cfg->rope.beta_slow = 1.0;
	cfg->rope.mscale = NAN;
	cfg->rope.mscale_all_dim = NAN;
	cfg->rope.attention_factor = NAN;
	cfg->rope.truncate = true;
	cfg->rope.low_freq_factor = 1.0;
	cfg->rope.high_freq_factor = 4.0;
	cfg->rope.partial_rotary = 1.0;
	/* mrope: text, a 14 x 14 image (the grid above), text */
	cfg->mrope.text_before = 8;
	cfg->mrope.frames = 1;
	cfg->mrope.text_after = 8;
	cfg->mrope.layout = PE_MROPE_CONTIGUOUS;
	cfg->mrope.tokens_per_second = 0.0; /* Qwen2-VL: a frame a step */
	cfg->mrope.seconds_per_frame = 1.0; /* get_rope_index's default */
	/* the attention: full, no sinks, no temperature, nothing decoupled;
	 * Llama 4's temperature constants for when it is turned on */
	cfg->attn.exact = true;
	cfg->attn.span = PE_SPAN_FULL;
	cfg->attn.floor_scale = PE_ATTN_FLOOR_SCALE;
	cfg->attn.attn_scale = PE_ATTN_ATTN_SCALE;
	cfg->xpos.xpos_scale_base = 512.0; /* torchscale's XPOS default */
	cfg->teach.shift = 1;
}

/* The checks every encoding shares: d_model, seq_len and base in range. */
int
pe_config_check_shared(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->d < 1 || cfg->d > PE_MAX_D)
		FAIL("d_model %zu: must be in 1..%zu", cfg->d, PE_MAX_D);
	if (cfg->n < 1 || cfg->n > PE_MAX_N)
		FAIL("seq_len %zu: must be in 1..%zu", cfg->n, PE_MAX_N);
	if (!isfinite(cfg->base) || cfg->base <= 1.0)
		FAIL("base %g: must be a finite number > 1", cfg->base);
	return PE_OK;
}
