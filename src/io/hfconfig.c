/* A Hugging Face config.json as a model's layers (hfconfig.h), read with
 * jansson.
 *
 * The semantics are transformers v5's. Every model's config class goes
 * through RotaryEmbeddingConfigMixin (src/transformers/
 * modeling_rope_utils.py): convert_rope_params_to_dict takes
 * `rope_scaling or rope_parameters`, sets rope_theta and
 * partial_rotary_factor, and standardize_rope_params makes either one
 * global dict (case 1: its keys are not a subset of layer_types) or one
 * dict per layer type (case 2); rope_type defaults to the v4 key `type`,
 * then "default"; for llama3, yarn and longrope original_max_position_
 * embeddings defaults to max_position_embeddings (case 1: a top-level
 * original_max_position_embeddings, Phi-3's, takes priority). The
 * _compute_*_parameters functions of the same file read the rest; the
 * kernel's rope.c computes them. The per-model keys (layer patterns,
 * NoPE layers, decoupled heads, ...) are read as each model's
 * configuration_*.py and modeling_*.py do; each is cited where it is
 * read. Where v4 differed, the code says so. */#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/hfconfig.h"
#include "io/hfread.h"
#include "io/io.h"

/* The families. A model_type not listed is read as a generic RoPE
 * decoder when it has RoPE keys (and says so in a note). */
static const struct family families[] = {
	{"llama", "models/llama/configuration_llama.py", FAM_ROPE, 10000.0,
	    PE_PAIR_HALF, RULE_FULL, 0},
	/* Llama 4's text_config: interleaved pairs (modeling_llama4.py's
	 * apply_rotary_emb multiplies complex pairs 2j, 2j+1), default_theta
	 * 500000 (configuration_llama4.py). */
	{"llama4_text", "models/llama4/configuration_llama4.py", FAM_ROPE,
	    500000.0, PE_PAIR_INTERLEAVED, RULE_NOROPE, F_NOROPE | F_LLAMA4},
	{"mistral", "models/mistral/configuration_mistral.py", FAM_ROPE,
	    10000.0, PE_PAIR_HALF, RULE_WINDOW, 0},
	{"mixtral", "models/mixtral/configuration_mixtral.py", FAM_ROPE,
	    1000000.0, PE_PAIR_HALF, RULE_WINDOW, 0},
	{"qwen2", "models/qwen2/configuration_qwen2.py", FAM_ROPE, 10000.0,
	    PE_PAIR_HALF, RULE_QWEN, 0},
	{"qwen2_moe", "models/qwen2_moe/configuration_qwen2_moe.py",
	    FAM_ROPE, 10000.0, PE_PAIR_HALF, RULE_QWEN, 0},
	{"qwen3", "models/qwen3/configuration_qwen3.py", FAM_ROPE, 10000.0,
	    PE_PAIR_HALF, RULE_QWEN, 0},
	{"qwen3_moe", "models/qwen3_moe/configuration_qwen3_moe.py",
	    FAM_ROPE, 10000.0, PE_PAIR_HALF, RULE_QWEN, 0},
	{"phi3", "models/phi3/configuration_phi3.py", FAM_ROPE, 10000.0,
	    PE_PAIR_HALF, RULE_WINDOW, F_ORIGINAL | F_SU},
	{"gemma", "models/gemma/configuration_gemma.py", FAM_ROPE, 10000.0,
	    PE_PAIR_HALF, RULE_FULL, 0},
	{"gemma2", "models/gemma2/configuration_gemma2.py", FAM_ROPE, 10000.0,
	    PE_PAIR_HALF, RULE_ALTERNATE, F_PRESCALE},
	{"gemma3_text", "models/gemma3/configuration_gemma3.py", FAM_ROPE,
	    1000000.0, PE_PAIR_HALF, RULE_PATTERN, F_GEMMA3 | F_PRESCALE},
	{"gpt_oss", "models/gpt_oss/configuration_gpt_oss.py", FAM_ROPE,
	    150000.0, PE_PAIR_HALF, RULE_ALTERNATE, 0},
	{"deepseek_v2", "models/deepseek_v2/configuration_deepseek_v2.py",
	    FAM_ROPE, 10000.0, PE_PAIR_INTERLEAVED, RULE_FULL, F_MLA},
	{"deepseek_v3", "models/deepseek_v3/configuration_deepseek_v3.py",
	    FAM_ROPE, 10000.0, PE_PAIR_HALF, RULE_FULL,
	    F_MLA | F_INTERLEAVE},
	{"smollm3", "models/smollm3/configuration_smollm3.py", FAM_ROPE,
	    2000000.0, PE_PAIR_HALF, RULE_NOROPE, F_NOROPE | F_SMOL},
	{"gpt_neox", "models/gpt_neox/configuration_gpt_neox.py", FAM_ROPE,
	    10000.0, PE_PAIR_HALF, RULE_FULL, F_NEOX},
	{"gptj", "models/gptj/configuration_gptj.py", FAM_ROPE, 10000.0,
	    PE_PAIR_INTERLEAVED, RULE_FULL, F_GPTJ},
	{"falcon", "models/falcon/configuration_falcon.py", FAM_FALCON,
	    10000.0, PE_PAIR_HALF, RULE_FULL, 0},
	{"qwen2_vl_text", "models/qwen2_vl/configuration_qwen2_vl.py",
	    FAM_MROPE, 1000000.0, PE_PAIR_HALF, RULE_QWEN, 0},
	{"qwen2_5_vl_text", "models/qwen2_5_vl/configuration_qwen2_5_vl.py",
	    FAM_MROPE, 1000000.0, PE_PAIR_HALF, RULE_QWEN, 0},
	{"qwen3_vl_text", "models/qwen3_vl/configuration_qwen3_vl.py",
	    FAM_MROPE, 5000000.0, PE_PAIR_HALF, RULE_FULL, 0},
	{"gpt2", "models/gpt2/configuration_gpt2.py", FAM_LEARNED, 0.0,
	    PE_PAIR_HALF, RULE_FULL, 0},
	{"bert", "models/bert/configuration_bert.py", FAM_LEARNED, 0.0,
	    PE_PAIR_HALF, RULE_FULL, 0},
	{"t5", "models/t5/configuration_t5.py", FAM_T5, 0.0, PE_PAIR_HALF,
	    RULE_FULL, 0},
	{"bloom", "models/bloom/configuration_bloom.py", FAM_ALIBI, 0.0,
	    PE_PAIR_HALF, RULE_FULL, 0},
	{"mpt", "models/mpt/configuration_mpt.py", FAM_ALIBI, 0.0,
	    PE_PAIR_HALF, RULE_FULL, 0},
	{"vit_mae", "models/vit_mae/configuration_vit_mae.py", FAM_VIT2D, 0.0,
	    PE_PAIR_HALF, RULE_FULL, 0},
	/* not a transformers model: naver-ai/rope-vit's models/vit_rope.py
	 * (its constructor's arguments under their names there) */
	{"rope_vit", "naver-ai/rope-vit models/vit_rope.py", FAM_ROPE2D,
	    100.0, PE_PAIR_HALF, RULE_FULL, 0},
};

/* The multimodal configs whose language model is their text_config, and
 * the text model_type a config without one means (v5 builds the text
 * config from the top-level keys: configuration_qwen2_vl.py). */
static const struct {
	const char *outer, *text;
} outer_types[] = {
	{"llama4", "llama4_text"},	   {"gemma3", "gemma3_text"},
	{"qwen2_vl", "qwen2_vl_text"},	   {"qwen2_5_vl", "qwen2_5_vl_text"},
	{"qwen3_vl", "qwen3_vl_text"},
};

/* The family of a model_type, or NULL. */
static const struct family *
family_of(const char *model_type)
{
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (strcmp(families[i].model_type, model_type) == 0)
			return &families[i];
	return NULL;
}

/* The generic RoPE decoder an unlisted model_type is read as. */
static const struct family generic = {
	"?", "modeling_rope_utils.py", FAM_ROPE, 10000.0, PE_PAIR_HALF,
	RULE_FULL, 0,
};

/* Find the language model (text_config when there is one:
 * configuration_utils.py's get_text_config) and its family. */
static int
find_family(struct reader *r)
{
	const char *outer = NULL, *inner = NULL;
	int rc;

	if (!json_is_object(r->root))
		return hfjson_fail(r, "the config must be a JSON object, not "
		    "%s",
		    json_is_array(r->root) ? "an array" : "a single value");
	if ((rc = hfjson_string(r, r->root, "", "model_type", &outer)) != PE_OK)
		return rc;
	json_t *tc = hfjson_get(r->root, "text_config");
	if (tc != NULL) {
		if (!json_is_object(tc))
			return hfjson_fail_value(r, "text_config", "an "
			    "object", tc);
		r->text = tc;
		r->pre = "text_config.";
		if ((rc = hfjson_string(r, tc, r->pre, "model_type", &inner)) !=
		    PE_OK)
			return rc;
	}
	const char *type = inner;
	for (size_t i = 0; type == NULL && outer != NULL &&
	     i < sizeof outer_types / sizeof outer_types[0]; i++)
		if (strcmp(outer, outer_types[i].outer) == 0)
			type = outer_types[i].text;
	if (type == NULL)
		type = outer;
	if (type == NULL)
		return hfjson_fail(r, "model_type: missing; it names the "
		    "model (\"llama\", "
		    "\"gemma3\", ...), which says how the other keys are read");
	snprintf(r->arch->model_type, sizeof r->arch->model_type, "%s", type);
	r->fam = family_of(type);
	if (r->fam == NULL) {
		/* read as any RoPE decoder when it has RoPE keys */
		if (hfjson_get(r->text, "rope_theta") == NULL &&
		    hfjson_get(r->text, "rope_scaling") == NULL &&
		    hfjson_get(r->text, "rope_parameters") == NULL)
			return hfjson_fail(r, "model_type \"%s\": pescope "
			    "does not know "
			    "this model, and it has no rope_theta, "
			        "rope_scaling "
			    "or rope_parameters to read as a RoPE model", type);
		r->fam = &generic;
		int st = pe_arch_note(r->arch, "model_type", type,
		    "not a model pescope knows: read as a RoPE decoder "
		    "(HF's standardize_rope_params), every layer full");
		if (st != PE_OK)
			return st;
	}
	return PE_OK;
}

/* The number of layers: num_hidden_layers (n_layer for GPT-2, GPT-J and
 * BLOOM: their configs' attribute_map). */
static int
read_layer_count(struct reader *r, size_t *dest)
{
	static const char *const keys[] = {"num_hidden_layers", "n_layer",
	    "num_layers", "n_layers", "depth"};
	bool given = false;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !given; i++) {
		int rc = hfjson_size(r, r->text, r->pre, keys[i], 1,
		    PE_MAX_LAYERS,
		    dest, &given);
		if (rc != PE_OK)
			return rc;
	}
	if (!given)
		return hfjson_fail(r, "%snum_hidden_layers: missing (the "
		    "number of "
		    "layers)", r->pre);
	return PE_OK;
}

/* max_position_embeddings (n_positions: GPT-2, GPT-J; max_seq_len:
 * MPT): into r->max_pos and the model. */
static int
read_max_pos(struct reader *r)
{
	static const char *const keys[] = {"max_position_embeddings",
	    "n_positions", "max_seq_len", "seq_length"};
	bool g = false;
	int rc;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0] && !g; i++)
		if ((rc = hfjson_size(r, r->text, r->pre, keys[i], 1, PE_MAX_N,
		    &r->max_pos, &g)) != PE_OK)
			return rc;
	r->arch->max_pos = r->max_pos;
	return PE_OK;
}

/* pescope's own keys of a shipped config ("_pescope": description,
 * source, seq_len, train_len, grid, frames), which transformers ignores. */
static int
read_own_keys(struct reader *r)
{
	json_t *p = hfjson_get(r->root, "_pescope");
	const char *s;
	size_t x;
	bool g;
	int rc;

	if (p == NULL)
		return PE_OK;
	if (!json_is_object(p))
		return hfjson_fail_value(r, "_pescope", "an object", p);
	if ((rc = hfjson_string(r, p, "_pescope.", "description", &s)) != PE_OK)
		return rc;
	if (s != NULL && (r->arch->description = strdup(s)) == NULL)
		return PE_ENOMEM;
	if ((rc = hfjson_string(r, p, "_pescope.", "source", &s)) != PE_OK)
		return rc;
	if (s != NULL && (r->arch->source = strdup(s)) == NULL)
		return PE_ENOMEM;
	if ((rc = hfjson_size(r, p, "_pescope.", "train_len", 1, PE_MAX_N, &x,
	    &g)) != PE_OK)
		return rc;
	if (g)
		r->arch->train_len = x;
	if ((rc = hfjson_size(r, p, "_pescope.", "seq_len", 1, PE_MAX_N, &x,
	    &g)) != PE_OK)
		return rc;
	for (size_t i = 0; g && i < r->arch->nlayers; i++)
		r->arch->layers[i].cfg.n = x;
	json_t *grid = hfjson_get(p, "grid");
	if (grid != NULL) {
		if (!json_is_array(grid) || json_array_size(grid) != 2 ||
		    !json_is_integer(json_array_get(grid, 0)) ||
		    !json_is_integer(json_array_get(grid, 1)) ||
		    json_integer_value(json_array_get(grid, 0)) < 1 ||
		    json_integer_value(json_array_get(grid, 1)) < 1 ||
		    json_integer_value(json_array_get(grid, 0)) >
		    (json_int_t)PE_MAX_GRID ||
		    json_integer_value(json_array_get(grid, 1)) >
		    (json_int_t)PE_MAX_GRID)
			return hfjson_fail_value(r, "_pescope.grid",
			    "[height, width] "
			    "in patches", grid);
		for (size_t i = 0; i < r->arch->nlayers; i++) {
			r->arch->layers[i].cfg.grid_h =
			    (size_t)json_integer_value(json_array_get(grid, 0));
			r->arch->layers[i].cfg.grid_w =
			    (size_t)json_integer_value(json_array_get(grid, 1));
		}
	}
	if ((rc = hfjson_size(r, p, "_pescope.", "frames", 1, PE_MAX_GRID, &x,
	    &g)) != PE_OK)
		return rc;
	for (size_t i = 0; g && i < r->arch->nlayers; i++)
		r->arch->layers[i].cfg.mrope.frames = x;
	return PE_OK;
}

/* Read a config held in memory. */
int
pe_hf_read_buf(const char *buf, size_t len, const char *name,
               struct pe_arch *dest, char *err, size_t cap)
{
	struct reader r = {
		.file = name != NULL ? name : "config", .pre = "", .arch = dest,
		.err = err, .cap = cap,
	};
	json_error_t je;
	size_t n = 0;
	int rc;

	pe_arch_free(dest);
	if (err != NULL && cap > 0)
		err[0] = '\0';
	/* JSON_DISABLE_EOF_CHECK off: text after the object is an error;
	 * JSON_ALLOW_NUL off */
	r.root = json_loadb(buf, len, 0, &je);
	if (r.root == NULL) {
		if (err != NULL && cap > 0)
			snprintf(err, cap, "%s:%d:%d: %s", r.file, je.line,
			    je.column, je.text);
		return PE_EFORMAT;
	}
	r.text = r.root;
	if ((rc = find_family(&r)) != PE_OK || (rc = read_max_pos(&r)) != PE_OK)
		goto end;
	if ((rc = read_layer_count(&r, &n)) != PE_OK)
		goto end;
	if ((rc = pe_arch_set_layers(dest, n)) != PE_OK)
		goto end;
	if (r.fam->kind == FAM_FALCON) {
		/* configuration_falcon.py: alibi (default false) */
		bool alibi = false;
		if ((rc = hfjson_bool(&r, r.text, r.pre, "alibi",
		    &alibi)) != PE_OK)
			goto end;
		rc = alibi ? hfother_read(&r, n) : hfrope_read(&r, n);
	} else if (r.fam->kind == FAM_ROPE || r.fam->kind == FAM_MROPE)
		rc = hfrope_read(&r, n);
	else
		rc = hfother_read(&r, n);
	if (rc == PE_OK)
		rc = read_own_keys(&r);
	if (rc == PE_OK) {
		char why[512];
		if (pe_arch_check(dest, why, sizeof why) != PE_OK)
			rc = hfjson_fail(&r, "%s", why);
	}
end:
	json_decref(r.root);
	if (rc == PE_ENOMEM && err != NULL && cap > 0)
		snprintf(err, cap, "%s: out of memory", r.file);
	return rc;
}

/* Read a config file. */
int
pe_hf_read_file(const char *path, struct pe_arch *dest, char *err,
                size_t cap)
{
	unsigned char *buf;
	size_t len;

	pe_arch_free(dest);
	int rc = pe_file_read(path, PE_HF_MAX_BYTES, &buf, &len);
	if (rc != PE_OK) {
		if (err == NULL || cap == 0)
			return rc;
		if (rc == PE_EIO)
			snprintf(err, cap, "%s: %s", path, strerror(errno));
		else if (rc == PE_EINVAL)
			snprintf(err, cap, "%s: not a regular file (a "
			    "directory or "
			    "a device): a config is a JSON file", path);
		else if (rc == PE_ERANGE)
			snprintf(err, cap, "%s: more than %zu MiB: not a model "
			    "config", path, PE_HF_MAX_BYTES >> 20);
		else
			snprintf(err, cap, "%s: out of memory", path);
		return rc;
	}
	rc = pe_hf_read_buf((const char *)buf, len, path, dest, err, cap);
	free(buf);
	return rc;
}
