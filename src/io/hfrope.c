/* The config reader's RoPE models (hfread.h): layer types, the rope
 * dicts as transformers v5 standardizes them, each layer's shape. The
 * semantics, and the files each key is cited to, are hfconfig.c's header's.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/hfread.h"
#include "pescope/encoding.h"
#include "pescope/rope.h"

/* The head dimension, as modeling_rope_utils.py's
 * _compute_default_rope_parameters: getattr(config, "head_dim", None) or
 * hidden_size // num_attention_heads (GPT-J, MPT, BLOOM: n_embd / d_model
 * over n_head / n_heads). */
int
hfrope_head_dim(struct reader *r)
{
	size_t hd = 0, hidden = 0, heads = 0;
	bool has_hd, has_hidden = false, has_heads = false;
	static const char *const hkeys[] = {"hidden_size", "n_embd",
	    "d_model", "embed_dim"};
	static const char *const nkeys[] = {"num_attention_heads", "n_head",
	    "n_heads", "num_heads"};
	int rc;

	if ((rc = hfjson_size(r, r->text, r->pre, "head_dim", 1, PE_MAX_D, &hd,
	    &has_hd)) != PE_OK)
		return rc;
	for (size_t i = 0; i < 4 && !has_hidden; i++)
		if ((rc = hfjson_size(r, r->text, r->pre, hkeys[i], 1, PE_MAX_D,
		    &hidden, &has_hidden)) != PE_OK)
			return rc;
	for (size_t i = 0; i < 4 && !has_heads; i++)
		if ((rc = hfjson_size(r, r->text, r->pre, nkeys[i], 1,
		    PE_MAX_HEADS,
		    &heads, &has_heads)) != PE_OK)
			return rc;
	if (has_heads)
		r->heads = heads;
	if (has_hd) {
		r->head_dim = hd;
		return PE_OK;
	}
	if (!has_hidden || !has_heads)
		return hfjson_fail(r, "%shead_dim: missing, and so is "
		    "hidden_size or "
		    "num_attention_heads (head_dim is hidden_size // "
		    "num_attention_heads)", r->pre);
	if (hidden / heads == 0)
		return hfjson_fail(r, "%shidden_size %zu // "
		    "num_attention_heads %zu is "
		    "0: no head dimension", r->pre, hidden, heads);
	r->head_dim = hidden / heads;
	return PE_OK;
}

/* The rope type named name (HF's names: pe_rope_type_name), or -1. */
static int
rope_type_of(const char *name)
{
	for (int t = 0; t < PE_ROPE_TYPE_COUNT; t++)
		if (strcmp(name, pe_rope_type_name((enum pe_rope_type)t)) == 0)
			return t;
	return -1;
}

/* The rope keys one rope dict may hold (modeling_rope_utils.py's
 * _validate_*_rope_parameters, required and optional keys of every type,
 * plus mrope_section and mrope_interleaved of the multimodal configs):
 * a key outside these is noted, since it may change positions. */
static bool
rope_key_known(const char *key)
{
	static const char *const known[] = {"rope_type", "type", "rope_theta",
	    "partial_rotary_factor", "factor",
	        "original_max_position_embeddings",
	    "attention_factor", "beta_fast", "beta_slow", "mscale",
	    "mscale_all_dim", "truncate", "short_factor", "long_factor",
	    "low_freq_factor", "high_freq_factor", "mrope_section",
	    "mrope_interleaved"};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(key, known[i]) == 0)
			return true;
	return false;
}

/* A factor list of n numbers into a list the model owns. */
static int
read_list(struct reader *r, const json_t *dict, const char *pre,
          const char *key, size_t n, const double **dest, size_t *count)
{
	json_t *v = hfjson_get(dict, key);
	char path[KEYLEN], what[96];

	snprintf(path, sizeof path, "%s%s", pre, key);
	snprintf(what, sizeof what, "a list of %zu positive numbers (rotary "
	    "dims / 2)", n);
	if (v == NULL)
		return hfjson_fail(r, "%s: missing (longrope needs %s)", path,
		    what);
	if (!json_is_array(v) || json_array_size(v) != n)
		return hfjson_fail_value(r, path, what, v);
	double *list = pe_arch_lists(r->arch, n);
	if (list == NULL)
		return PE_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		json_t *x = json_array_get(v, i);
		if (!json_is_number(x) || !(json_number_value(x) > 0.0) ||
		    !isfinite(json_number_value(x))) {
			char at[KEYLEN + 24];
			snprintf(at, sizeof at, "%s[%zu]", path, i);
			return hfjson_fail_value(r, at, "a positive number", x);
		}
		list[i] = json_number_value(x);
	}
	*dest = list;
	*count = n;
	return PE_OK;
}

/* The rope of one dict (the global one, or one layer type's) into cfg:
 * _compute_*_parameters' keys (modeling_rope_utils.py v5). nested: the
 * dict is one of several keyed by layer type (standardize_rope_params'
 * case 2). Sets *exact false (with a note) when its rope type is not one
 * pescope computes. */
static int
read_rope_dict(struct reader *r, const json_t *dict, const char *pre,
               bool nested, double theta, struct pe_config *cfg,
               bool *exact)
{
	const json_t *t = r->text;
	const char *name = NULL;
	int rc;

	*exact = true;
	/* rope_type, else the v4 key `type`, else "default"
	 * (standardize_rope_params) */
	if ((rc = hfjson_string(r, dict, pre, "rope_type", &name)) != PE_OK)
		return rc;
	if (name == NULL &&
	    (rc = hfjson_string(r, dict, pre, "type", &name)) != PE_OK)
		return rc;
	if (name == NULL)
		name = "default";
	/* Qwen2-VL's v4 "mrope" is the default rope over sections
	 * (configuration_qwen2_vl.py: rope_type "mrope" becomes "default");
	 * Phi-3's early "su" is longrope (configuration_phi3.py's
	 * _rope_scaling_adjustment) */
	if (strcmp(name, "mrope") == 0)
		name = "default";
	else if (strcmp(name, "su") == 0 && (r->fam->flags & F_SU))
		name = "longrope";
	int type = rope_type_of(name);
	if (type < 0) {
		char key[KEYLEN + 16];
		snprintf(key, sizeof key, "%srope_type", pre);
		rc = pe_arch_note(r->arch, key, name,
		    "a rope type pescope does not compute: these layers' "
		    "tables are not drawn");
		*exact = false;
		type = PE_ROPE_DEFAULT;
		if (rc != PE_OK)
			return rc;
	}
	cfg->rope.type = (enum pe_rope_type)type;

	/* rope_theta: the dict's, else the top-level key, else the class's
	 * default_theta (convert_rope_params_to_dict) */
	if ((rc = hfjson_number(r, dict, pre, "rope_theta", 1.0, true, 1e300,
	    "a number > 1", &theta, NULL)) != PE_OK)
		return rc;
	cfg->base = theta;

	/* partial_rotary_factor: a top-level one is written into every dict
	 * (standardize_rope_params); else the dict's; else 1 */
	double prf = 1.0;
	bool top_prf;
	if ((rc = hfjson_number(r, dict, pre, "partial_rotary_factor", 0.0,
	    true,
	    1.0, "a number in (0, 1]", &prf, NULL)) != PE_OK)
		return rc;
	if ((rc = hfjson_number(r, t, r->pre, "partial_rotary_factor", 0.0,
	    true,
	    1.0, "a number in (0, 1]", &prf, &top_prf)) != PE_OK)
		return rc;
	cfg->rope.partial_rotary = prf;

	/* original_max_position_embeddings, for llama3, yarn and longrope:
	 * case 1 gives a top-level one priority (Phi-3's; Phi3Config
	 * defaults it to 4096), else the dict's, else
	 * max_position_embeddings; case 2 only the dict's, else
	 * max_position_embeddings */
	size_t orig = r->max_pos;
	bool has_orig = false, top_orig = false;
	if ((rc = hfjson_size(r, dict, pre,
	    "original_max_position_embeddings", 1,
	    PE_MAX_N, &orig, &has_orig)) != PE_OK)
		return rc;
	if (!nested) {
		size_t o = 0;
		if ((rc = hfjson_size(r, t, r->pre,
		    "original_max_position_embeddings", 1, PE_MAX_N, &o,
		    &top_orig)) != PE_OK)
			return rc;
		if (top_orig)
			orig = o;
		else if ((r->fam->flags & F_ORIGINAL) && !has_orig)
			orig = 4096;
	}
	cfg->rope.original_max_pos = orig;
	cfg->rope.max_pos = r->max_pos;

	bool needs_factor = type == PE_ROPE_LINEAR || type == PE_ROPE_DYNAMIC ||
	    type == PE_ROPE_YARN || type == PE_ROPE_LLAMA3;
	bool factor_given = false;
	double factor = 1.0;
	if ((rc = hfjson_number(r, dict, pre, "factor", 1.0, false, 1e300,
	    "a number >= 1", &factor, &factor_given)) != PE_OK)
		return rc;
	if (type == PE_ROPE_YARN && !factor_given) {
		/* _compute_yarn_parameters (v5): factor None -> the ratio of
		 * max_position_embeddings to the original (v4 always took
		 * that ratio when the dict had an original) */
		if (orig == 0 || r->max_pos == 0)
			return hfjson_fail(r, "%sfactor: missing, and yarn's "
			    "fallback "
			    "max_position_embeddings / original_max_position_"
			    "embeddings needs both", pre);
		factor = (double)r->max_pos / (double)orig;
		factor_given = true;
	} else if (needs_factor && !factor_given)
		return hfjson_fail(r, "%sfactor: missing (%s scaling needs "
		    "it)", pre,
		    name);
	if (needs_factor && (orig == 0 && type != PE_ROPE_LINEAR &&
	    type != PE_ROPE_DYNAMIC))
		return hfjson_fail(r, "%soriginal_max_position_embeddings: "
		    "missing, and "
		    "so is max_position_embeddings", pre);
	if (type == PE_ROPE_DYNAMIC && r->max_pos == 0)
		return hfjson_fail(r, "%smax_position_embeddings: missing "
		    "(dynamic "
		    "scaling divides by it)", r->pre);
	/* a type without a factor keeps pe_config_default's, which the
	 * TUI's scaling keys start from (as they do without a config) */
	if (factor_given)
		cfg->rope.factor = factor;
	cfg->rope.factor_given = factor_given;

	/* yarn's optional keys (_compute_yarn_parameters) */
	double x;
	bool g;
	if ((rc = hfjson_number(r, dict, pre, "attention_factor", 0.0, true,
	    1e300, "a number > 0", &x, &g)) != PE_OK)
		return rc;
	cfg->rope.attention_factor = g ? x : NAN;
	if ((rc = hfjson_number(r, dict, pre, "beta_fast", 0.0, false, 1e300,
	    "a number >= 0", &x, &g)) != PE_OK)
		return rc;
	cfg->rope.beta_fast = g ? x : 0.0; /* `or 32` */
	if ((rc = hfjson_number(r, dict, pre, "beta_slow", 0.0, false, 1e300,
	    "a number >= 0", &x, &g)) != PE_OK)
		return rc;
	cfg->rope.beta_slow = g ? x : 0.0; /* `or 1` */
	if ((rc = hfjson_number(r, dict, pre, "mscale", 0.0, false, 1e300,
	    "a number >= 0", &x, &g)) != PE_OK)
		return rc;
	cfg->rope.mscale = g ? x : NAN;
	if ((rc = hfjson_number(r, dict, pre, "mscale_all_dim", 0.0, false,
	    1e300,
	    "a number >= 0", &x, &g)) != PE_OK)
		return rc;
	cfg->rope.mscale_all_dim = g ? x : NAN;
	/* truncate: HF v5 reads config.rope_parameters.get("truncate", True),
	 * the top-level dict: with one dict per layer type that is never a
	 * layer's own value, so a layer's truncate is noted and True used */
	bool truncate = true;
	if ((rc = hfjson_bool(r, dict, pre, "truncate", &truncate)) != PE_OK)
		return rc;
	if (nested && !truncate) {
		if ((rc = hfjson_note(r, pre, "truncate", hfjson_get(dict,
		    "truncate"),
		    "HF v5 reads truncate from the top-level rope_parameters "
		    "only: ignored here as there")) != PE_OK)
			return rc;
		truncate = true;
	}
	cfg->rope.truncate = truncate;

	/* llama3's bands (_compute_llama3_parameters: both required) */
	if (type == PE_ROPE_LLAMA3) {
		bool gl, gh;
		double lo = 1.0, hi = 4.0;
		if ((rc = hfjson_number(r, dict, pre, "low_freq_factor", 0.0,
		    true,
		    1e300, "a number > 0", &lo, &gl)) != PE_OK)
			return rc;
		if ((rc = hfjson_number(r, dict, pre, "high_freq_factor", 0.0,
		    true,
		    1e300, "a number > 0", &hi, &gh)) != PE_OK)
			return rc;
		if (!gl || !gh)
			return hfjson_fail(r, "%s%s: missing (llama3 scaling "
			    "needs "
			    "low_freq_factor and high_freq_factor)", pre,
			    gl ? "high_freq_factor" : "low_freq_factor");
		if (!(hi > lo))
			return hfjson_fail(r, "%shigh_freq_factor: must be "
			    "greater than "
			    "low_freq_factor %g (the band between them is "
			    "blended), got %g", pre, lo, hi);
		cfg->rope.low_freq_factor = lo;
		cfg->rope.high_freq_factor = hi;
	}

	/* longrope's lists, one entry per rotary pair */
	if (type == PE_ROPE_LONGROPE) {
		size_t pairs = (size_t)((double)r->head_dim * prf) / 2;
		if ((rc = read_list(r, dict, pre, "short_factor", pairs,
		    &cfg->rope.short_factor, &cfg->rope.n_short)) != PE_OK)
			return rc;
		if ((rc = read_list(r, dict, pre, "long_factor", pairs,
		    &cfg->rope.long_factor, &cfg->rope.n_long)) != PE_OK)
			return rc;
		if (orig == 0)
			return hfjson_fail(r,
			    "%soriginal_max_position_embeddings: "
			    "missing (longrope needs the pretrained length)",
			    pre);
	}

	/* the keys no rope type reads are noted: they may change positions */
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)dict, key, v) {
		if (!rope_key_known(key) &&
		    (rc = hfjson_note(r, pre, key, v, "not a key HF's rope "
		        "functions "
		    "read; ignored")) != PE_OK)
			return rc;
	}
	return PE_OK;
}

/* Which layer-type names pescope knows, and their spans. */
static int
span_of(const char *type)
{
	if (strcmp(type, "full_attention") == 0)
		return PE_SPAN_FULL;
	if (strcmp(type, "sliding_attention") == 0)
		return PE_SPAN_SLIDING;
	if (strcmp(type, "chunked_attention") == 0)
		return PE_SPAN_CHUNKED;
	return -1;
}

/* The layer types: layer_types when given (a list of num_hidden_layers
 * strings), else the family's rule. use_rope[i] says whether layer i
 * rotates (no_rope_layers). */
static int
read_layer_types(struct reader *r, size_t n, bool *use_rope)
{
	const json_t *t = r->text;
	struct pe_layer *L = r->arch->layers;
	int rc;

	for (size_t i = 0; i < n; i++)
		use_rope[i] = true;
	if (r->fam->flags & F_NOROPE) {
		/* no_rope_layers: 1 rotates, 0 is a NoPE layer
		 * (modeling_llama4.py, modeling_smollm3.py: use_rope =
		 * config.no_rope_layers[layer_idx]); none (Llama 4: or empty)
		 * -> every no_rope_layer_interval-th layer is NoPE,
		 * int((i + 1) % interval != 0) (configuration_llama4.py,
		 * configuration_smollm3.py) */
		size_t interval = 4;
		if ((rc = hfjson_size(r, t, r->pre, "no_rope_layer_interval", 1,
		    PE_MAX_LAYERS, &interval, NULL)) != PE_OK)
			return rc;
		json_t *list = hfjson_get(t, "no_rope_layers");
		char path[KEYLEN];
		snprintf(path, sizeof path, "%sno_rope_layers", r->pre);
		if (list != NULL && !json_is_array(list))
			return hfjson_fail_value(r, path, "a list of 0 and 1",
			    list);
		if (list != NULL && json_array_size(list) > 0) {
			if (json_array_size(list) < n)
				return hfjson_fail(r, "%s: must have at least "
				    "num_hidden_layers (%zu) entries, got %zu",
				    path, n, json_array_size(list));
			for (size_t i = 0; i < n; i++) {
				json_t *x = json_array_get(list, i);
				if (!json_is_integer(x) ||
				    (json_integer_value(x) != 0 &&
				     json_integer_value(x) != 1)) {
					char at[KEYLEN + 24];
					snprintf(at, sizeof at, "%s[%zu]", path,
					    i);
					return hfjson_fail_value(r, at, "0 or "
					    "1", x);
				}
				use_rope[i] = json_integer_value(x) == 1;
			}
		} else
			for (size_t i = 0; i < n; i++)
				use_rope[i] = (i + 1) % interval != 0;
	}

	json_t *types = hfjson_get(t, "layer_types");
	char path[KEYLEN];
	snprintf(path, sizeof path, "%slayer_types", r->pre);
	if (types != NULL) {
		if (!json_is_array(types))
			return hfjson_fail_value(r, path, "a list of layer "
			    "type names",
			    types);
		if (json_array_size(types) != n)
			return hfjson_fail(r, "%s: must have "
			    "num_hidden_layers (%zu) "
			    "entries, got %zu", path, n,
			        json_array_size(types));
		for (size_t i = 0; i < n; i++) {
			json_t *x = json_array_get(types, i);
			if (!json_is_string(x) || !hfjson_name(
			    json_string_value(x), PE_LAYER_TYPE_MAX)) {
				char at[KEYLEN + 24];
				snprintf(at, sizeof at, "%s[%zu]", path, i);
				return hfjson_fail_value(r, at, "a layer type "
				    "name "
				    "(\"full_attention\", ...)", x);
			}
			snprintf(L[i].type, sizeof L[i].type, "%s",
			    json_string_value(x));
		}
		return PE_OK;
	}

	/* the families' defaults */
	bool has_window = hfjson_get(t, "sliding_window") != NULL;
	size_t pattern = 6, max_window = 0;
	bool use_window = false;
	switch (r->fam->rule) {
	case RULE_FULL:
		break;
	case RULE_WINDOW:
		/* modeling_mistral.py, modeling_phi3.py: every layer's
		 * attention takes sliding_window=config.sliding_window */
		for (size_t i = 0; has_window && i < n; i++)
			snprintf(L[i].type, sizeof L[i].type,
			    "sliding_attention");
		break;
	case RULE_ALTERNATE:
		/* configuration_gemma2.py, configuration_gpt_oss.py:
		 * "sliding_attention" if bool((i + 1) % 2) */
		for (size_t i = 0; i < n; i++)
			if ((i + 1) % 2 != 0)
				snprintf(L[i].type, sizeof L[i].type,
				    "sliding_attention");
		break;
	case RULE_PATTERN:
		/* configuration_gemma3.py: the v4 key sliding_window_pattern
		 * (default 6): sliding if bool((i + 1) % pattern) */
		if ((rc = hfjson_size(r, t, r->pre, "sliding_window_pattern", 1,
		    PE_MAX_LAYERS, &pattern, NULL)) != PE_OK)
			return rc;
		for (size_t i = 0; i < n; i++)
			if ((i + 1) % pattern != 0)
				snprintf(L[i].type, sizeof L[i].type,
				    "sliding_attention");
		break;
	case RULE_QWEN:
		/* configuration_qwen2.py (and qwen3): sliding_window only when
		 * use_sliding_window; "sliding_attention" if sliding_window is
		 * not None and i >= max_window_layers */
		if ((rc = hfjson_bool(r, t, r->pre, "use_sliding_window",
		    &use_window)) != PE_OK)
			return rc;
		max_window = 28;
		if ((rc = hfjson_size(r, t, r->pre, "max_window_layers", 0,
		    PE_MAX_LAYERS, &max_window, NULL)) != PE_OK)
			return rc;
		for (size_t i = 0; use_window && has_window && i < n; i++)
			if (i >= max_window)
				snprintf(L[i].type, sizeof L[i].type,
				    "sliding_attention");
		break;
	case RULE_NOROPE:
		if (r->fam->flags & F_LLAMA4) {
			/* configuration_llama4.py: "chunked_attention" if the
			 * layer rotates else "full_attention" */
			for (size_t i = 0; i < n; i++)
				if (use_rope[i])
					snprintf(L[i].type, sizeof L[i].type,
					    "chunked_attention");
		} else {
			/* configuration_smollm3.py: "sliding_attention" for
			 * the NoPE layers when use_sliding_window and
			 * sliding_window */
			if ((rc = hfjson_bool(r, t, r->pre,
			    "use_sliding_window",
			    &use_window)) != PE_OK)
				return rc;
			for (size_t i = 0; use_window && has_window && i < n;
			     i++)
				if (!use_rope[i])
					snprintf(L[i].type, sizeof L[i].type,
					    "sliding_attention");
		}
		break;
	}
	return PE_OK;
}

/* The rope dicts of a RoPE family: `rope_scaling or rope_parameters`
 * (convert_rope_params_to_dict), with Gemma 3's own conversion. Returns
 * the dict (NULL: none) and whether it is keyed by layer type. */
static int
rope_dicts(struct reader *r, json_t **dest, bool *nested)
{
	const json_t *t = r->text;
	json_t *rs = hfjson_get(t, "rope_scaling"), *rp = hfjson_get(t,
	    "rope_parameters");
	char path[KEYLEN];

	*dest = NULL;
	*nested = false;
	if (rs != NULL && !json_is_object(rs)) {
		snprintf(path, sizeof path, "%srope_scaling", r->pre);
		return hfjson_fail_value(r, path, "an object (or null)", rs);
	}
	if (rp != NULL && !json_is_object(rp)) {
		snprintf(path, sizeof path, "%srope_parameters", r->pre);
		return hfjson_fail_value(r, path, "an object (or null)", rp);
	}
	/* `rope_scaling or self.rope_parameters`: an empty rope_scaling is
	 * falsy */
	json_t *d = rs != NULL && json_object_size(rs) > 0 ? rs : rp;
	if (r->fam->flags & F_GEMMA3) {
		/* configuration_gemma3.py's convert_rope_params_to_dict: the
		 * dicts are per type; rope_scaling updates full_attention's */
		*nested = true;
		*dest = d;
		return PE_OK;
	}
	if (d == NULL || json_object_size(d) == 0)
		return PE_OK;
	/* case 2 when its keys are a subset of layer_types */
	json_t *types = hfjson_get(t, "layer_types");
	bool subset = json_is_array(types);
	const char *key;
	json_t *v;
	json_object_foreach(d, key, v) {
		bool found = false;
		for (size_t i = 0; subset && i < json_array_size(types); i++) {
			json_t *x = json_array_get(types, i);
			if (json_is_string(x) &&
			    strcmp(json_string_value(x), key) == 0)
				found = true;
		}
		subset = subset && found;
	}
	*nested = subset;
	*dest = d;
	return PE_OK;
}

/* Fill layer l's shape from its type and the family. */
static int
layer_shape(struct reader *r, struct pe_layer *l, bool rotates)
{
	const json_t *t = r->text;
	int span = span_of(l->type);
	int rc;

	l->cfg.attn.rotates = rotates;
	l->cfg.attn.causal = true;
	l->cfg.attn.head_dim = r->head_dim;
	if (span < 0) {
		/* Qwen3-Next's "linear_attention", ...: not attention pescope
		 * models */
		char key[KEYLEN];
		snprintf(key, sizeof key, "%slayer_types: %s", r->pre, l->type);
		rc = pe_arch_note(r->arch, key, l->type, "a layer type pescope "
		    "does not model (drawn as full attention)");
		if (rc != PE_OK)
			return rc;
		span = PE_SPAN_FULL;
	}
	l->cfg.attn.span = (enum pe_attn_span)span;
	if (span == PE_SPAN_SLIDING) {
		/* sliding_window: the window of the layers whose type is
		 * sliding_attention (modeling_gemma2.py, modeling_gemma3.py,
		 * modeling_gpt_oss.py, modeling_qwen2.py,
		 * modeling_mistral.py) */
		size_t w = 0;
		bool g;
		if ((rc = hfjson_size(r, t, r->pre, "sliding_window", 1,
		    PE_MAX_N,
		    &w, &g)) != PE_OK)
			return rc;
		if (!g)
			return hfjson_fail(r, "%ssliding_window: missing, and "
			    "layer %s "
			    "is sliding_attention", r->pre, l->type);
		l->cfg.attn.window = w;
	} else if (span == PE_SPAN_CHUNKED) {
		/* attention_chunk_size (configuration_llama4.py, default
		 * 8192; modeling_llama4.py's chunked mask) */
		size_t c = 8192;
		if ((rc = hfjson_size(r, t, r->pre, "attention_chunk_size", 1,
		    PE_MAX_N, &c, NULL)) != PE_OK)
			return rc;
		l->cfg.attn.chunk = c;
	}
	return PE_OK;
}

/* The scores' scale of a RoPE model's layers: head_dim^-0.5
 * (modeling_llama.py's self.scaling); Gemma's query_pre_attn_scalar^-0.5
 * (modeling_gemma2.py); DeepSeek's qk_head_dim^-0.5 times mscale^2 with
 * mscale = 0.1 mscale_all_dim ln(factor) + 1 when the rope is scaled and
 * mscale_all_dim is set (modeling_deepseek_v3.py's
 * DeepseekV3Attention). */
static int
softmax_scale(struct reader *r, const struct pe_layer *l, size_t qk_dim,
              double *dest)
{
	double s = 1.0 / sqrt((double)qk_dim);
	int rc;

	if (r->fam->flags & F_PRESCALE) {
		double q = 0.0;
		bool g;
		if ((rc = hfjson_number(r, r->text, r->pre,
		    "query_pre_attn_scalar",
		    0.0, true, 1e300, "a number > 0", &q, &g)) != PE_OK)
			return rc;
		if (g)
			s = 1.0 / sqrt(q);
	}
	if ((r->fam->flags & F_MLA) && l->cfg.rope.type != PE_ROPE_DEFAULT) {
		double all = l->cfg.rope.mscale_all_dim, f = l->cfg.rope.factor;
		if (!isnan(all) && all != 0.0 && f > 1.0) {
			double m = 0.1 * all * log(f) + 1.0;
			s *= m * m;
		}
	}
	*dest = s;
	return PE_OK;
}

/* Llama 4's attention temperature of its NoPE layers
 * (configuration_llama4.py: attn_temperature_tuning, default True;
 * floor_scale 8192, attn_scale 0.1; modeling_llama4.py applies it when
 * attn_temperature_tuning and not use_rope). */
static int
family_temperature(struct reader *r)
{
	const json_t *t = r->text;
	json_t *v = hfjson_get(t, "attn_temperature_tuning");
	double floor_scale = PE_ATTN_FLOOR_SCALE, attn_scale = PE_ATTN_ATTN_SCALE;
	int rc;

	if (!(r->fam->flags & F_LLAMA4))
		return PE_OK;
	/* a truthy value, as Python's `if self.attn_temperature_tuning` */
	bool on = v == NULL || json_is_true(v) ||
	    (json_is_integer(v) && json_integer_value(v) != 0) ||
	    (json_is_real(v) && json_real_value(v) != 0.0);
	if (v != NULL && !json_is_boolean(v) && !json_is_number(v))
		return hfjson_fail_value(r, "attn_temperature_tuning",
		    "true or false", v);
	if (!on)
		return PE_OK;
	if ((rc = hfjson_number(r, t, r->pre, "floor_scale", 1.0, false,
	    (double)PE_MAX_N, "a number in 1..2^30", &floor_scale, NULL)) !=
	    PE_OK ||
	    (rc = hfjson_number(r, t, r->pre, "attn_scale", -1e6, false, 1e6,
	    "a number in -1e6..1e6", &attn_scale, NULL)) != PE_OK)
		return rc;
	for (size_t i = 0; i < r->arch->nlayers; i++) {
		struct pe_config *c = &r->arch->layers[i].cfg;
		if (c->enc != PE_ENC_NOPE)
			continue;
		c->attn.temperature = true;
		c->attn.floor_scale = floor_scale;
		c->attn.attn_scale = attn_scale;
	}
	return PE_OK;
}

/* The multimodal keys of Qwen2.5-VL and Qwen3-VL: a frame's temporal id
 * follows time (vision_config.tokens_per_second, modeling_qwen2_5_vl.py's
 * get_rope_index), the pairs interleave (rope_scaling.mrope_interleaved,
 * modeling_qwen3_vl.py's apply_interleaved_mrope). */
static int
family_mrope(struct reader *r)
{
	const json_t *t = r->text;
	json_t *rp = hfjson_get(t, "rope_parameters"), *rs = hfjson_get(t,
	    "rope_scaling");
	json_t *d = rs != NULL ? rs : rp, *v;
	bool inter = false;
	double tps = 0.0;
	int rc;

	if (r->fam->kind != FAM_MROPE)
		return PE_OK;
	if ((v = hfjson_get(d, "mrope_interleaved")) != NULL) {
		if (!json_is_boolean(v))
			return hfjson_fail_value(r, rs != NULL
			    ? "rope_scaling.mrope_interleaved"
			    : "rope_parameters.mrope_interleaved", "true or false",
			    v);
		inter = json_is_true(v);
	}
	json_t *vc = hfjson_get(r->root, "vision_config");
	if (vc != NULL && (rc = hfjson_number(r, vc, "vision_config.",
	    "tokens_per_second", 0.0, true, 1e6, "a number in (0, 1e6]", &tps,
	    NULL)) != PE_OK)
		return rc;
	for (size_t i = 0; i < r->arch->nlayers; i++) {
		struct pe_config *c = &r->arch->layers[i].cfg;
		if (c->enc != PE_ENC_MROPE)
			continue;
		c->mrope.layout = inter ? PE_MROPE_INTERLEAVED
		    : PE_MROPE_CONTIGUOUS;
		c->mrope.tokens_per_second = tps;
	}
	return PE_OK;
}

/* Notes for the keys of a family that change positions but that pescope
 * does not draw yet; the ones it draws read. */
static int
family_notes(struct reader *r)
{
	const json_t *t = r->text;
	json_t *v;
	int rc;

	if ((rc = family_temperature(r)) != PE_OK ||
	    (rc = family_mrope(r)) != PE_OK)
		return rc;
	if ((v = hfjson_get(t, "use_bidirectional_attention")) != NULL &&
	    json_is_true(v))
		rc = hfjson_note(r, r->pre, "use_bidirectional_attention", v,
		    "attention is not causal (and Gemma 3 halves its window): "
		    "drawn causal");
	return rc;
}

/* A RoPE or M-RoPE model's layers. */
int
hfrope_read(struct reader *r, size_t n)
{
	const json_t *t = r->text;
	json_t *dicts;
	bool nested;
	bool *use_rope = calloc(n, sizeof *use_rope);
	int rc;

	if (use_rope == NULL)
		return PE_ENOMEM;
	if ((rc = hfrope_head_dim(r)) != PE_OK ||
	    (rc = read_layer_types(r, n, use_rope)) != PE_OK ||
	    (rc = rope_dicts(r, &dicts, &nested)) != PE_OK)
		goto end;

	/* the top-level rope_theta (the v4 key; GPT-NeoX's rotary_emb_base,
	 * configuration_gpt_neox.py) and the class's default */
	double theta = r->fam->theta;
	if ((rc = hfjson_number(r, t, r->pre, "rope_theta", 1.0, true, 1e300,
	    "a number > 1", &theta, NULL)) != PE_OK)
		goto end;
	if ((r->fam->flags & F_NEOX) &&
	    (rc = hfjson_number(r, t, r->pre, "rotary_emb_base", 1.0, true,
	        1e300,
	    "a number > 1", &theta, NULL)) != PE_OK)
		goto end;

	/* the pairing: Llama 4, GPT-J and DeepSeek-V2 pair 2j with 2j + 1;
	 * DeepSeek-V3 does when rope_interleave (default true:
	 * modeling_deepseek_v3.py's apply_rotary_pos_emb_interleave) */
	enum pe_pairing pairing = r->fam->pairing;
	if (r->fam->flags & F_INTERLEAVE) {
		bool inter = true;
		if ((rc = hfjson_bool(r, t, r->pre, "rope_interleave",
		    &inter)) !=
		    PE_OK)
			goto end;
		pairing = inter ? PE_PAIR_INTERLEAVED : PE_PAIR_HALF;
	}

	/* the rotated part of the head: DeepSeek's qk_rope_head_dim (its
	 * config sets head_dim = qk_rope_head_dim:
	 * configuration_deepseek_v3.py), GPT-J's rotary_dim, GPT-NeoX's
	 * rotary_pct */
	size_t qk_rope = 0, qk_nope = 0;
	if (r->fam->flags & F_MLA) {
		bool g1, g2;
		if ((rc = hfjson_size(r, t, r->pre, "qk_rope_head_dim", 2,
		    PE_MAX_D,
		    &qk_rope, &g1)) != PE_OK ||
		    (rc = hfjson_size(r, t, r->pre, "qk_nope_head_dim", 0,
		        PE_MAX_D,
		    &qk_nope, &g2)) != PE_OK)
			goto end;
		if (!g1) {
			rc = hfjson_fail(r, "%sqk_rope_head_dim: missing (the "
			    "rotated "
			    "part of each head)", r->pre);
			goto end;
		}
		r->head_dim = qk_rope;
	}
	double prf_top = NAN;
	if (r->fam->flags & F_GPTJ) {
		size_t rd = 0;
		bool g;
		if ((rc = hfjson_size(r, t, r->pre, "rotary_dim", 2,
		    r->head_dim,
		    &rd, &g)) != PE_OK)
			goto end;
		if (g)
			prf_top = (double)rd / (double)r->head_dim;
	}
	if (r->fam->flags & F_NEOX) {
		double pct;
		bool g;
		if ((rc = hfjson_number(r, t, r->pre, "rotary_pct", 0.0, true,
		    1.0,
		    "a number in (0, 1]", &pct, &g)) != PE_OK)
			goto end;
		if (g)
			prf_top = pct;
	}

	/* every layer type's rope */
	for (size_t i = 0; i < n; i++) {
		struct pe_layer *l = &r->arch->layers[i];
		struct pe_config *c = &l->cfg;
		const json_t *dict = dicts;
		char pre[KEYLEN];
		bool exact = true;
		double th = theta;
		snprintf(pre, sizeof pre, "%s%s.", r->pre,
		    hfjson_get(t, "rope_scaling") != NULL &&
		    json_object_size(hfjson_get(t, "rope_scaling")) > 0 ?
		    "rope_scaling" : "rope_parameters");
		if (nested) {
			dict = hfjson_get(dicts, l->type);
			if (r->fam->flags & F_GEMMA3) {
				/* Gemma 3: rope_scaling (the v4 key) is the
				 * full layers'; rope_theta the full layers'
				 * base, rope_local_base_freq the sliding ones'
				 * (default_theta global 1e6, local 1e4) */
				json_t *rs = hfjson_get(t, "rope_scaling");
				bool full = strcmp(l->type,
				    "full_attention") == 0;
				if (rs != NULL && json_object_size(rs) > 0 &&
				    hfjson_get(rs, "full_attention") == NULL) {
					dict = full ? rs : NULL;
					snprintf(pre, sizeof pre,
					    "%srope_scaling.",
					    r->pre);
				} else
					snprintf(pre, sizeof pre,
					    "%srope_parameters.%s.", r->pre,
					    l->type);
				th = full ? 1000000.0 : 10000.0;
				const char *k = full ? "rope_theta" :
				    "rope_local_base_freq";
				if ((rc = hfjson_number(r, t, r->pre, k, 1.0,
				    true,
				    1e300, "a number > 1", &th, NULL)) != PE_OK)
					goto end;
			} else
				snprintf(pre, sizeof pre,
				    "%srope_parameters.%s.",
				    r->pre, l->type);
			if (dict != NULL && !json_is_object(dict)) {
				rc = hfjson_fail_value(r, pre, "an object",
				    dict);
				goto end;
			}
		}
		json_t *empty = NULL;
		if (dict == NULL)
			dict = empty = json_object();
		c->enc = r->fam->kind == FAM_MROPE ? PE_ENC_MROPE : PE_ENC_ROPE;
		c->d = r->head_dim;
		if (qk_rope > 0) {
			/* MLA's head is qk_nope_head_dim + qk_rope_head_dim,
			 * its rope the last qk_rope_head_dim
			 * (modeling_deepseek_v3.py: qk_head_dim, the split of
			 * q into q_nope and q_pe) */
			c->d = qk_rope + qk_nope;
			c->attn.qk_rope_dim = qk_rope;
			c->attn.qk_nope_dim = qk_nope;
		}
		c->pairing = pairing;
		rc = read_rope_dict(r, dict, pre, nested, th, c, &exact);
		if (rc == PE_OK && !isnan(prf_top))
			c->rope.partial_rotary = prf_top;
		if (rc == PE_OK && r->fam->kind == FAM_MROPE) {
			/* mrope_section: pairs turned by t, h and w
			 * (modeling_qwen2_vl.py's
			 * apply_multimodal_rotary_pos_emb) */
			json_t *sec = hfjson_get(dict, "mrope_section");
			if (sec == NULL || !json_is_array(sec) ||
			    json_array_size(sec) != 3)
				rc = hfjson_fail_value(r,
				    "rope_scaling.mrope_section",
				    "a list of 3 whole numbers", sec != NULL ?
				    sec : json_null());
			for (size_t k = 0; rc == PE_OK && k < 3; k++) {
				json_t *x = json_array_get(sec, k);
				if (!json_is_integer(x) ||
				    json_integer_value(x) < 0 ||
				    json_integer_value(x) >
				    (json_int_t)PE_MAX_D)
					rc = hfjson_fail_value(r,
					    "rope_scaling.mrope_section",
					    "a list of 3 whole numbers", sec);
				else
					c->mrope.mrope_section[k] =
					    (size_t)json_integer_value(x);
			}
		}
		json_decref(empty);
		if (rc != PE_OK)
			goto end;
		c->n = r->max_pos > 0 ? r->max_pos : c->n;
		if ((rc = layer_shape(r, l, use_rope[i])) != PE_OK)
			goto end;
		l->cfg.attn.rotary_dim = use_rope[i] ? pe_rope_rotary_dim(c) : 0;
		l->cfg.attn.qk_rope_dim = qk_rope;
		l->cfg.attn.qk_nope_dim = qk_nope;
		l->cfg.attn.heads = r->heads;
		if (qk_rope > 0)
			l->cfg.attn.head_dim = qk_rope + qk_nope;
		if (!exact)
			l->cfg.attn.rotates = false;
		l->cfg.attn.exact = exact;
		if (!use_rope[i])
			c->enc = PE_ENC_NOPE;
		if ((rc = softmax_scale(r, l, qk_rope + qk_nope > 0 ?
		    qk_rope + qk_nope : r->head_dim, &l->cfg.attn.softmax_scale)) !=
		    PE_OK)
			goto end;
	}
	/* the trained context: the original length when scaled */
	const struct pe_layer *l0 = &r->arch->layers[0];
	r->arch->train_len = r->max_pos;
	for (size_t i = 0; i < n; i++) {
		const struct pe_rope_scaling *s = &r->arch->layers[i].cfg.rope;
		if (pe_config_def(&r->arch->layers[i].cfg)->attention !=
		    PE_ATTN_NONE &&
		    (s->type == PE_ROPE_YARN || s->type == PE_ROPE_LLAMA3 ||
		     s->type == PE_ROPE_LONGROPE))
			r->arch->train_len = s->original_max_pos;
	}
	(void)l0;
	rc = family_notes(r);
end:
	free(use_rope);
	return rc;
}

