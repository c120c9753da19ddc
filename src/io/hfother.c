/* The config reader's models without RoPE (hfread.h): learned tables,
 * T5's buckets, ALiBi, MAE's 2-D table, RoPE-ViT. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/hfread.h"

/* A model without RoPE: learned tables, T5's buckets, ALiBi, MAE's 2-D
 * table, RoPE-ViT. */
int
hfother_read(struct reader *r, size_t n)
{
	const json_t *t = r->text;
	struct pe_layer *L = r->arch->layers;
	size_t d = 0, heads = 0;
	bool g;
	int rc;

	switch (r->fam->kind) {
	case FAM_LEARNED: {
		/* GPT-2: n_positions x n_embd (modeling_gpt2.py's wpe); BERT:
		 * max_position_embeddings x hidden_size, added when
		 * position_embedding_type is "absolute" (modeling_bert.py) */
		const char *pet = NULL;
		if ((rc = hfjson_string(r, t, r->pre, "position_embedding_type",
		    &pet)) != PE_OK)
			return rc;
		bool bert = strcmp(r->fam->model_type, "bert") == 0;
		if (pet != NULL && strcmp(pet, "absolute") != 0 &&
		    (rc = hfjson_note(r, r->pre, "position_embedding_type",
		    hfjson_get(t, "position_embedding_type"), "Shaw-style "
		        "relative "
		    "keys (modeling_bert.py): shown as the absolute table")) !=
		    PE_OK)
			return rc;
		if ((rc = hfjson_size(r, t, r->pre,
		    bert ? "hidden_size" : "n_embd",
		    1, PE_MAX_D, &d, &g)) != PE_OK)
			return rc;
		if (!g)
			return hfjson_fail(r, "%s%s: missing (the table's "
			    "width)", r->pre,
			    bert ? "hidden_size" : "n_embd");
		if (r->max_pos == 0)
			return hfjson_fail(r, "%s%s: missing (the table's "
			    "rows)", r->pre,
			    bert ? "max_position_embeddings" : "n_positions");
		for (size_t i = 0; i < n; i++) {
			L[i].cfg.enc = PE_ENC_LEARNED;
			L[i].cfg.d = d;
			L[i].cfg.max_len = r->max_pos;
			L[i].cfg.n = r->max_pos;
			L[i].cfg.attn.causal = !bert;
			L[i].cfg.attn.head_dim = 0;
			snprintf(L[i].type, sizeof L[i].type, "%s",
			    bert ? "encoder" : "decoder");
		}
		r->arch->train_len = r->max_pos;
		return PE_OK;
	}
	case FAM_T5: {
		/* relative_attention_num_buckets (32) and _max_distance (128);
		 * the encoder's buckets are bidirectional, the decoder's
		 * self-attention's not (modeling_t5.py's compute_bias:
		 * bidirectional=not self.is_decoder); num_layers encoder
		 * layers, num_decoder_layers (default num_layers) decoder ones
		 * (configuration_t5.py) */
		size_t buckets = 32, dist = 128, dec = n;
		if ((rc = hfjson_size(r, t, r->pre,
		    "relative_attention_num_buckets",
		    2, 1u << 20, &buckets, NULL)) != PE_OK ||
		    (rc = hfjson_size(r, t, r->pre,
		    "relative_attention_max_distance", 1, PE_MAX_N, &dist,
		    NULL)) != PE_OK ||
		    (rc = hfjson_size(r, t, r->pre, "num_decoder_layers", 1,
		    PE_MAX_LAYERS, &dec, NULL)) != PE_OK)
			return rc;
		if (n + dec > PE_MAX_LAYERS)
			return hfjson_fail(r, "num_layers + "
			    "num_decoder_layers: at most "
			    "%zu layers", PE_MAX_LAYERS);
		if ((rc = pe_arch_set_layers(r->arch, n + dec)) != PE_OK)
			return rc;
		L = r->arch->layers;
		for (size_t i = 0; i < n + dec; i++) {
			bool enc = i < n;
			L[i].cfg.enc = PE_ENC_RELATIVE;
			L[i].cfg.relative = PE_REL_T5;
			L[i].cfg.buckets = buckets;
			L[i].cfg.max_distance = dist;
			L[i].cfg.bidirectional = enc;
			if (r->max_pos > 0)
				L[i].cfg.n = r->max_pos;
			L[i].cfg.attn.causal = !enc;
			snprintf(L[i].type, sizeof L[i].type, "%s",
			    enc ? "encoder" : "decoder");
		}
		r->arch->train_len = r->max_pos;
		return PE_OK;
	}
	case FAM_FALCON:
	case FAM_ALIBI: {
		/* BLOOM: n_head (modeling_bloom.py's build_alibi_tensor);
		 * MPT: n_heads, attn_config.alibi_bias_max (modeling_mpt.py's
		 * build_mpt_alibi_tensor, 8: the ALiBi paper's slopes);
		 * Falcon: ALiBi when `alibi`, else RoPE
		 * (modeling_falcon.py) */
		static const char *const hk[] = {"n_head", "n_heads",
		    "num_attention_heads"};
		for (size_t i = 0; i < 3 && heads == 0; i++)
			if ((rc = hfjson_size(r, t, r->pre, hk[i], 1,
			    PE_MAX_HEADS,
			    &heads, NULL)) != PE_OK)
				return rc;
		if (heads == 0)
			return hfjson_fail(r, "%sn_head: missing (ALiBi has a "
			    "slope per "
			    "head)", r->pre);
		json_t *ac = hfjson_get(t, "attn_config");
		if (ac != NULL) {
			bool alibi = true;
			double bmax = 8.0;
			if ((rc = hfjson_bool(r, ac, "attn_config.", "alibi",
			    &alibi)) != PE_OK ||
			    (rc = hfjson_number(r, ac, "attn_config.",
			    "alibi_bias_max", 0.0, true, 1e300, "a number > 0",
			    &bmax, NULL)) != PE_OK)
				return rc;
			if (!alibi && (rc = hfjson_note(r, "attn_config.",
			    "alibi",
			    hfjson_get(ac, "alibi"), "HF's MPT builds ALiBi "
			        "whatever "
			    "this says (modeling_mpt.py)")) != PE_OK)
				return rc;
			if ((bmax != 8.0 || (heads & (heads - 1)) != 0) &&
			    (rc = hfjson_note(r, "attn_config.",
			        "alibi_bias_max",
			    hfjson_get(ac, "alibi_bias_max"), "MPT's slopes "
			        "for this "
			    "bias max or head count differ from the ALiBi "
			    "paper's, which are drawn")) != PE_OK)
				return rc;
		}
		for (size_t i = 0; i < n; i++) {
			L[i].cfg.enc = PE_ENC_ALIBI;
			L[i].cfg.heads = heads;
			L[i].cfg.alibi_mode = PE_ALIBI_CAUSAL;
			if (r->max_pos > 0)
				L[i].cfg.n = r->max_pos;
		}
		r->arch->train_len = r->max_pos;
		return PE_OK;
	}
	case FAM_VIT2D: {
		/* ViTMAE: hidden_size, image_size / patch_size patches a side
		 * (modeling_vit_mae.py's get_2d_sincos_pos_embed) */
		size_t img = 224, patch = 16;
		if ((rc = hfjson_size(r, t, r->pre, "hidden_size", 4,
		    PE_MAX_D, &d,
		    &g)) != PE_OK ||
		    (rc = hfjson_size(r, t, r->pre, "image_size", 1, 1u << 20,
		        &img,
		    NULL)) != PE_OK ||
		    (rc = hfjson_size(r, t, r->pre, "patch_size", 1, 1u << 20,
		    &patch, NULL)) != PE_OK)
			return rc;
		if (!g)
			return hfjson_fail(r, "%shidden_size: missing", r->pre);
		if (img / patch == 0 || img / patch > PE_MAX_GRID)
			return hfjson_fail(r, "image_size %zu / patch_size "
			    "%zu: must give "
			    "1 to %zu patches a side", img, patch, PE_MAX_GRID);
		for (size_t i = 0; i < n; i++) {
			L[i].cfg.enc = PE_ENC_VIT2D;
			L[i].cfg.d = d;
			L[i].cfg.grid_h = L[i].cfg.grid_w = img / patch;
			L[i].cfg.attn.causal = false;
			snprintf(L[i].type, sizeof L[i].type, "encoder");
		}
		return PE_OK;
	}
	case FAM_ROPE2D: {
		/* rope-vit's models/vit_rope.py: embed_dim / num_heads per
		 * head, img_size / patch_size patches, rope_theta,
		 * rope_mixed */
		size_t img = 224, patch = 16;
		double th = 100.0;
		bool mixed = false;
		if ((rc = hfrope_head_dim(r)) != PE_OK ||
		    (rc = hfjson_size(r, t, r->pre, "img_size", 1, 1u << 20,
		        &img,
		    NULL)) != PE_OK ||
		    (rc = hfjson_size(r, t, r->pre, "patch_size", 1, 1u << 20,
		    &patch, NULL)) != PE_OK ||
		    (rc = hfjson_number(r, t, r->pre, "rope_theta", 1.0, true,
		        1e300,
		    "a number > 1", &th, NULL)) != PE_OK ||
		    (rc = hfjson_bool(r, t, r->pre, "rope_mixed",
		        &mixed)) != PE_OK)
			return rc;
		if (img / patch == 0 || img / patch > PE_MAX_GRID)
			return hfjson_fail(r, "img_size %zu / patch_size %zu: "
			    "must give "
			    "1 to %zu patches a side", img, patch, PE_MAX_GRID);
		for (size_t i = 0; i < n; i++) {
			L[i].cfg.enc = PE_ENC_ROPE2D;
			L[i].cfg.d = r->head_dim;
			L[i].cfg.base = th;
			L[i].cfg.grid_h = L[i].cfg.grid_w = img / patch;
			L[i].cfg.rope2d.kind = mixed ? PE_ROPE2D_MIXED :
			    PE_ROPE2D_AXIAL;
			L[i].cfg.attn.causal = false;
			L[i].cfg.attn.rotates = true;
			L[i].cfg.attn.head_dim = r->head_dim;
			L[i].cfg.attn.rotary_dim = r->head_dim;
			snprintf(L[i].type, sizeof L[i].type, "encoder");
		}
		return PE_OK;
	}
	default:
		return PE_EINVAL;
	}
}

