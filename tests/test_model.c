/* The model: its layers held, checked, grouped and described
 * (src/kernel/model.c), and the config reader's v4/v5 forms, text_config,
 * NoPE layers, notes and refusals (src/io/hfconfig.c) on small configs
 * written here, whose layers follow from transformers' rules by hand (the
 * shipped configs are compared with numpy in tests/check_model.py). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/lesson.h"
#include "app/model.h"
#include "helpers.h"
#include "io/hfconfig.h"
#include "pescope/model.h"
#include "pescope/rope.h"
#include "render/canvas.h"
#include "view/model_view.h"

/* Read text as a config, asserting success. */
static void
read_ok(const char *text, struct pe_arch *a)
{
	char err[512];

	pe_arch_init(a);
	int rc = pe_hf_read_buf(text, strlen(text), "t.json", a, err,
	    sizeof err);
	cr_assert_eq(rc, PE_OK, "%s", err);
}

/* Read text as a config, asserting a refusal whose message has want. */
static void
read_refused(const char *text, const char *want)
{
	struct pe_arch a;
	char err[512];

	pe_arch_init(&a);
	int rc = pe_hf_read_buf(text, strlen(text), "t.json", &a, err,
	    sizeof err);
	cr_expect_neq(rc, PE_OK, "accepted: %s", text);
	cr_expect(strstr(err, want) != NULL, "message %s, want %s", err, want);
	pe_arch_free(&a);
}

Test(model, layers_default_and_notes)
{
	struct pe_arch a;

	pe_arch_init(&a);
	cr_expect_eq(pe_arch_set_layers(&a, 0), PE_EINVAL);
	cr_expect_eq(pe_arch_set_layers(&a, PE_MAX_LAYERS + 1), PE_EINVAL);
	cr_assert_eq(pe_arch_set_layers(&a, 3), PE_OK);
	cr_expect_eq(a.nlayers, 3);
	cr_expect(a.layers[2].cfg.attn.causal && a.layers[2].cfg.attn.exact);
	cr_expect(!a.layers[2].cfg.attn.rotates);
	cr_expect_eq(pe_arch_note(&a, "k", "1", "why"), PE_OK);
	cr_expect_eq(pe_arch_note(&a, "k", "2", "again"), PE_OK);
	cr_expect_eq(a.nnotes, 1, "a key is noted once");
	/* a long value is shortened, never overflowing */
	char longv[300];
	memset(longv, 'x', sizeof longv - 1);
	longv[sizeof longv - 1] = '\0';
	cr_expect_eq(pe_arch_note(&a, "k2", longv, longv), PE_OK);
	cr_expect_eq(strlen(a.notes[1].value), PE_NOTE_VALUE_MAX - 1);
	cr_expect_str_eq(a.notes[1].value + PE_NOTE_VALUE_MAX - 4, "...");
	double *l = pe_arch_lists(&a, 4);
	cr_expect(l != NULL && l[3] == 0.0);
	cr_expect(pe_arch_lists(&a, 0) == NULL);
	pe_arch_free(&a);
	cr_expect_eq(a.nlayers, 0);
	cr_expect(a.layers == NULL && a.notes == NULL && a.lists == NULL);
}

Test(model, check_names_the_layer)
{
	struct pe_arch a;
	char why[512];

	pe_arch_init(&a);
	cr_expect_eq(pe_arch_check(&a, why, sizeof why), PE_EINVAL);
	cr_assert_eq(pe_arch_set_layers(&a, 4), PE_OK);
	cr_expect_eq(pe_arch_check(&a, why, sizeof why), PE_OK);
	a.layers[2].cfg.enc = PE_ENC_ROPE;
	a.layers[2].cfg.d = 63;
	cr_expect_eq(pe_arch_check(&a, why, sizeof why), PE_EINVAL);
	cr_expect(strncmp(why, "layer 2 (full_attention): d_model 63", 36) == 0,
	    "%s", why);
	a.layers[2].cfg.d = 64;
	a.layers[1].cfg.attn.span = PE_SPAN_SLIDING;
	cr_expect_eq(pe_arch_check(&a, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "layer 1") != NULL, "%s", why);
	pe_arch_free(&a);
}

Test(model, kinds_group_in_order_of_appearance)
{
	/* Gemma 3's pattern: 5 sliding layers, then a full one */
	static const char text[] =
	    "{\"model_type\": \"gemma3_text\", \"num_hidden_layers\": 12,"
	    " \"head_dim\": 256, \"hidden_size\": 2560,"
	    " \"num_attention_heads\": 8, \"max_position_embeddings\": 131072,"
	    " \"sliding_window\": 1024, \"rope_local_base_freq\": 10000.0,"
	    " \"rope_theta\": 1000000.0,"
	    " \"rope_scaling\": {\"factor\": 8.0, \"rope_type\": \"linear\"}}";
	struct pe_arch a;
	size_t kind[12];
	char d[128];

	read_ok(text, &a);
	cr_assert_eq(a.nlayers, 12);
	cr_expect_eq(pe_arch_kinds(&a, kind), 2);
	for (size_t i = 0; i < 12; i++)
		cr_expect_eq(kind[i], (i + 1) % 6 == 0 ? 1u : 0u, "layer %zu",
		    i);
	pe_layer_describe(&a.layers[0], d, sizeof d);
	cr_expect_str_eq(d, "sliding 1024 · base 10000");
	pe_layer_describe(&a.layers[5], d, sizeof d);
	cr_expect_str_eq(d, "full · base 1000000 · linear ×8");
	/* describe reports the room it needed, and always terminates */
	int need = pe_layer_describe(&a.layers[5], d, 8);
	cr_expect_eq((size_t)need, strlen("full · base 1000000 · linear ×8"));
	cr_expect_eq(strlen(d), 7);
	/* the sliding layers keep the local base; the full ones divide by 8 */
	cr_expect_eq(a.layers[0].cfg.base, 10000.0);
	cr_expect_eq(a.layers[5].cfg.rope.type, PE_ROPE_LINEAR);
	cr_expect_eq(a.layers[5].cfg.rope.factor, 8.0);
	cr_expect_eq(a.layers[0].cfg.rope.type, PE_ROPE_DEFAULT);
	pe_arch_free(&a);
}

Test(model, v5_rope_parameters_by_layer_type)
{
	/* v5's form: one dict per layer type (standardize_rope_params' case
	 * 2), rope_theta inside each; truncate inside one is noted (HF reads
	 * it from the top level only) */
	static const char text[] =
	    "{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 4,"
	    " \"head_dim\": 64, \"hidden_size\": 2880, "
	        "\"num_attention_heads\": 64,"
	    " \"max_position_embeddings\": 131072, \"sliding_window\": 128,"
	    " \"layer_types\": [\"sliding_attention\", \"full_attention\","
	    "   \"sliding_attention\", \"full_attention\"],"
	    " \"rope_parameters\": {"
	    "  \"sliding_attention\": {\"rope_type\": \"default\", "
	        "\"rope_theta\": 10000},"
	    "  \"full_attention\": {\"rope_type\": \"yarn\", \"rope_theta\": "
	        "150000,"
	    "   \"factor\": 32.0, \"original_max_position_embeddings\": 4096,"
	    "   \"truncate\": false}}}";
	struct pe_arch a;

	read_ok(text, &a);
	cr_assert_eq(a.nlayers, 4);
	cr_expect_eq(a.layers[0].cfg.attn.span, PE_SPAN_SLIDING);
	cr_expect_eq(a.layers[0].cfg.attn.window, 128);
	cr_expect_eq(a.layers[0].cfg.base, 10000.0);
	cr_expect_eq(a.layers[1].cfg.attn.span, PE_SPAN_FULL);
	cr_expect_eq(a.layers[1].cfg.base, 150000.0);
	cr_expect_eq(a.layers[1].cfg.rope.type, PE_ROPE_YARN);
	cr_expect(a.layers[1].cfg.rope.truncate, "HF uses True here");
	cr_expect_eq(a.nnotes, 1);
	cr_expect_str_eq(a.notes[0].key,
	    "rope_parameters.full_attention.truncate");
	cr_expect_eq(a.train_len, 4096);
	pe_arch_free(&a);
}

Test(model, v4_flat_truncate_is_read)
{
	static const char text[] =
	    "{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 2,"
	    " \"head_dim\": 64, \"max_position_embeddings\": 131072,"
	    " \"sliding_window\": 128, \"rope_theta\": 150000,"
	    " \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 32.0,"
	    "  \"original_max_position_embeddings\": 4096, \"truncate\": "
	        "false}}";
	struct pe_arch a;

	read_ok(text, &a);
	/* GPT-OSS's default layer_types alternate, sliding first */
	cr_expect_str_eq(a.layers[0].type, "sliding_attention");
	cr_expect_str_eq(a.layers[1].type, "full_attention");
	cr_expect(!a.layers[0].cfg.rope.truncate);
	cr_expect(!a.layers[1].cfg.rope.truncate);
	cr_expect_eq(a.nnotes, 0);
	pe_arch_free(&a);
}

Test(model, yarn_factor_from_lengths_only_when_absent)
{
	/* v5: factor from the config; max / original only without one */
	static const char with[] =
	    "{\"model_type\": \"llama\", \"num_hidden_layers\": 1,"
	    " \"head_dim\": 64, \"max_position_embeddings\": 65536,"
	    " \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 4.0,"
	    "  \"original_max_position_embeddings\": 4096}}";
	static const char without[] =
	    "{\"model_type\": \"llama\", \"num_hidden_layers\": 1,"
	    " \"head_dim\": 64, \"max_position_embeddings\": 65536,"
	    " \"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": null,"
	    "  \"original_max_position_embeddings\": 4096}}";
	struct pe_arch a;

	read_ok(with, &a);
	cr_expect_eq(a.layers[0].cfg.rope.factor, 4.0);
	pe_arch_free(&a);
	read_ok(without, &a);
	cr_expect_eq(a.layers[0].cfg.rope.factor, 16.0);
	pe_arch_free(&a);
}

Test(model, text_config_and_nope_layers)
{
	/* Llama 4: no_rope_layers empty -> every 4th layer NoPE (full
	 * attention), the others chunked; interleaved pairs */
	static const char text[] =
	    "{\"model_type\": \"llama4\", \"text_config\": {"
	    " \"model_type\": \"llama4_text\", \"num_hidden_layers\": 8,"
	    " \"head_dim\": 128, \"max_position_embeddings\": 262144,"
	    " \"no_rope_layers\": [], \"attention_chunk_size\": 8192,"
	    " \"attn_temperature_tuning\": false, \"rope_theta\": 500000.0}}";
	struct pe_arch a;

	read_ok(text, &a);
	cr_expect_str_eq(a.model_type, "llama4_text");
	for (size_t i = 0; i < 8; i++) {
		bool nope = (i + 1) % 4 == 0;
		cr_expect_eq(a.layers[i].cfg.attn.rotates, !nope, "layer %zu", i);
		cr_expect_eq(a.layers[i].cfg.enc,
		    nope ? PE_ENC_NOPE : PE_ENC_ROPE, "layer %zu", i);
		cr_expect_eq(a.layers[i].cfg.attn.span,
		    nope ? PE_SPAN_FULL : PE_SPAN_CHUNKED, "layer %zu", i);
		if (!nope) {
			cr_expect_eq(a.layers[i].cfg.attn.chunk, 8192);
			cr_expect_eq(a.layers[i].cfg.pairing,
			    PE_PAIR_INTERLEAVED);
		}
	}
	cr_expect_eq(a.nnotes, 0, "temperature tuning off: nothing unshown");
	char d[128];
	pe_layer_describe(&a.layers[3], d, sizeof d);
	cr_expect_str_eq(d, "full · NoPE");
	pe_arch_free(&a);
}

Test(model, unknown_rope_type_is_named_not_drawn)
{
	static const char text[] =
	    "{\"model_type\": \"llama\", \"num_hidden_layers\": 2,"
	    " \"head_dim\": 64, \"max_position_embeddings\": 4096,"
	    " \"rope_scaling\": {\"rope_type\": \"proportional\", \"factor\": "
	        "2.0,"
	    "  \"wiggle\": 3}}";
	struct pe_arch a;

	read_ok(text, &a);
	cr_expect(!a.layers[0].cfg.attn.exact);
	cr_expect(!a.layers[0].cfg.attn.rotates);
	cr_assert_eq(a.nnotes, 2);
	cr_expect_str_eq(a.notes[0].key, "rope_scaling.rope_type");
	cr_expect_str_eq(a.notes[0].value, "proportional");
	cr_expect_str_eq(a.notes[1].key, "rope_scaling.wiggle");
	pe_arch_free(&a);
}

Test(model, partial_rotary_and_head_dim)
{
	/* head_dim absent: hidden_size // num_attention_heads; a top-level
	 * partial_rotary_factor wins over the dict's (standardize) */
	static const char text[] =
	    "{\"model_type\": \"llama\", \"num_hidden_layers\": 1,"
	    " \"hidden_size\": 4096, \"num_attention_heads\": 32,"
	    " \"max_position_embeddings\": 4096, \"partial_rotary_factor\": "
	        "0.5,"
	    " \"rope_parameters\": {\"rope_type\": \"default\","
	    "  \"partial_rotary_factor\": 0.25, \"rope_theta\": 10000}}";
	struct pe_arch a;

	read_ok(text, &a);
	cr_expect_eq(a.layers[0].cfg.d, 128);
	cr_expect_eq(a.layers[0].cfg.rope.partial_rotary, 0.5);
	cr_expect_eq(a.layers[0].cfg.attn.rotary_dim, 64);
	pe_arch_free(&a);
}

Test(model, refusals_name_the_key_and_value)
{
	read_refused("{\"model_type\": \"llama\",\n \"x\" 1}",
	    "t.json:2:6: ");
	read_refused("{\"model_type\": \"llama\", \"num_hidden_layers\": 2,"
	    " \"head_dim\": 64, \"rope_theta\": \"big\"}",
	    "t.json: rope_theta: must be a number > 1, got \"big\"");
	read_refused("{\"model_type\": \"llama\", \"num_hidden_layers\": 0,"
	    " \"head_dim\": 64, \"rope_theta\": 10000}",
	    "num_hidden_layers: must be a whole number from 1 to 4096, got 0");
	read_refused("{\"model_type\": \"llama\", \"num_hidden_layers\": 1,"
	    " \"head_dim\": 64, \"max_position_embeddings\": 4096,"
	    " \"rope_scaling\": {\"rope_type\": \"linear\", \"factor\": 0.5}}",
	    "rope_scaling.factor: must be a number >= 1, got 0.5");
	read_refused("{\"model_type\": \"llama\", \"num_hidden_layers\": 1,"
	    " \"head_dim\": 64, \"max_position_embeddings\": 4096,"
	    " \"rope_scaling\": {\"rope_type\": \"linear\"}}",
	    "rope_scaling.factor: missing");
	read_refused("{\"model_type\": \"llama\", \"num_hidden_layers\": 1,"
	    " \"head_dim\": 63, \"rope_theta\": 10000}",
	    "layer 0 (full_attention): d_model 63");
	read_refused("{\"model_type\": \"smollm3\", \"num_hidden_layers\": 4,"
	    " \"head_dim\": 64, \"rope_theta\": 10000,"
	    " \"no_rope_layers\": [1, 1, 2, 0]}",
	    "no_rope_layers[2]: must be 0 or 1, got 2");
	read_refused("{\"text_config\": 3}", "text_config: must be an object");
	read_refused("{}", "model_type: missing");
	read_refused("", "t.json:1:0: ");
}

Test(model, file_refusals)
{
	struct pe_arch a;
	char err[512];

	pe_arch_init(&a);
	cr_expect_eq(pe_hf_read_file("/", &a, err, sizeof err), PE_EINVAL);
	cr_expect(strstr(err, "not a regular file") != NULL, "%s", err);
	cr_expect_eq(pe_hf_read_file("/dev/null", &a, err, sizeof err),
	    PE_EINVAL);
	cr_expect_eq(pe_hf_read_file("/nonexistent/c.json", &a, err,
	    sizeof err), PE_EIO);
	cr_expect(strstr(err, "No such file") != NULL, "%s", err);
	pe_arch_free(&a);
}

Test(model, shipped_configs_read)
{
	/* every shipped config reads and checks (its numbers: check_model) */
	static const char *const names[] = {"llama-3.1-8b", "llama-4-scout",
	    "qwen2.5-7b", "qwen3-8b", "gemma-2-9b", "gemma-3-4b", "gpt-oss-20b",
	    "deepseek-v3", "phi-3-mini-128k", "phi-3-vision-128k", "mistral-7b",
	    "smollm3-3b", "gpt2", "bert-base", "t5-base", "bloom-176b"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char rel[96], err[512];
		struct pe_arch a;
		snprintf(rel, sizeof rel, "assets/models/%s.json", names[i]);
		pe_arch_init(&a);
		cr_expect_eq(pe_hf_read_file(th_src(rel), &a, err, sizeof err),
		    PE_OK, "%s: %s", names[i], err);
		cr_expect(a.source != NULL && a.description != NULL, "%s",
		    names[i]);
		pe_arch_free(&a);
	}
}

/* Display columns of a UTF-8 line (each character one column). */
static size_t
columns(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

Test(model, bands_and_ranges)
{
	struct pe_arch a;
	char err[512], buf[64];

	pe_arch_init(&a);
	cr_assert_eq(pe_hf_read_file(th_src("assets/models/gemma-3-4b.json"),
	    &a, err, sizeof err), PE_OK, "%s", err);
	size_t kind[34];
	cr_assert_eq(pe_arch_kinds(&a, kind), 2);
	cr_expect_eq(pe_arch_kind_ranges(&a, kind, 1, buf, sizeof buf), 5);
	cr_expect_str_eq(buf, "5, 11, 17, 23, 29");
	cr_expect_eq(pe_arch_kind_ranges(&a, kind, 0, buf, sizeof buf), 29);
	cr_expect_str_eq(buf, "0-4, 6-10, 12-16, 18-22, 24-28, 30-33");
	cr_expect_eq(pe_arch_kind_ranges(&a, kind, 0, buf, 12), 29);
	cr_expect_str_eq(buf, "0-4, 6-1...");
	/* sliding layers: base 10000, 128 pairs, window 1024: pair j turns
	 * within it when 2 pi 10000^(2j/256) <= 1024, i.e. j <= 128
	 * ln(1024 / 2 pi) / ln 10000 */
	struct pe_layer_bands b;
	cr_assert_eq(pe_layer_bands(&a.layers[0], a.train_len, &b), PE_OK);
	size_t want = (size_t)floor(128.0 * log(1024.0 / (2.0 * M_PI)) /
	    log(10000.0)) + 1;
	cr_expect_eq(b.pairs, 128);
	cr_expect_eq(b.reach, 1024);
	cr_expect_eq(b.turn_in_reach, want, "%zu vs %zu", b.turn_in_reach,
	    want);
	cr_expect(th_close(b.shortest, 2.0 * M_PI, 0, 1e-15));
	cr_expect(th_close(b.longest,
	    2.0 * M_PI * pow(10000.0, 254.0 / 256.0), 0, 1e-12));
	cr_expect_eq(b.turn_in_train, 128);
	pe_arch_free(&a);
}

Test(model, text_strip_at_80_columns)
{
	struct pe_arch a;
	char err[512], *text = NULL;
	size_t len = 0;

	pe_arch_init(&a);
	cr_assert_eq(pe_hf_read_file(th_src("assets/models/gemma-3-4b.json"),
	    &a, err, sizeof err), PE_OK, "%s", err);
	FILE *fp = open_memstream(&text, &len);
	cr_assert(fp != NULL);
	cr_expect_eq(pe_app_model_print(fp, &a, 80), PE_OK);
	fclose(fp);
	/* every line fits in 80 columns */
	for (char *p = text, *e; *p != '\0'; p = e + 1) {
		e = strchr(p, '\n');
		cr_assert(e != NULL, "the text ends with a newline");
		cr_expect_leq(columns(p, (size_t)(e - p)), 80, "%.*s",
		    (int)(e - p), p);
	}
	/* the strip: a letter per layer, B every 6th (Gemma 3's pattern) */
	char strip[35];
	for (size_t i = 0; i < 34; i++)
		strip[i] = (i + 1) % 6 == 0 ? 'B' : 'A';
	strip[34] = '\0';
	cr_expect(strstr(text, strip) != NULL, "%s", text);
	cr_expect(strstr(text, "A  29 layers  sliding 1024 · base 10000\n") !=
	    NULL, "%s", text);
	cr_expect(strstr(text, "B  5 layers  full · base 1000000 · linear "
	    "×8") !=
	    NULL, "%s", text);
	free(text);
	pe_arch_free(&a);
}

Test(model, masks_at_a_window_edge_and_a_chunk_boundary)
{
	/* transformers' masking_utils.py: sliding k > q - W (and k <= q);
	 * chunked q // C == k // C (and k <= q) */
	struct pe_attn sl = {.exact = true, .causal = true,
	    .span = PE_SPAN_SLIDING, .window = 4};
	struct pe_attn ch = {.exact = true, .causal = true,
	    .span = PE_SPAN_CHUNKED, .chunk = 4};
	struct pe_attn full = {.exact = true, .causal = true};
	double m[8 * 8];

	cr_assert_eq(pe_attn_mask_rows(&sl, 0, 8, 8, m), PE_OK);
	for (int q = 0; q < 8; q++)
		for (int k = 0; k < 8; k++) {
			bool seen = k <= q && k > q - 4;
			cr_expect_eq(m[q * 8 + k], seen ? 0.0 : -INFINITY,
			    "sliding q %d k %d", q, k);
		}
	/* query 5 sees 2..5 in the window, 4..5 in its chunk */
	cr_expect(pe_attn_sees(&sl, 5, 2) && !pe_attn_sees(&sl, 5, 1));
	cr_expect(pe_attn_sees(&ch, 5, 4) && !pe_attn_sees(&ch, 5, 3));
	cr_expect(pe_attn_sees(&ch, 3, 0) && !pe_attn_sees(&ch, 3, 4));
	cr_expect(pe_attn_sees(&full, 7, 0) && !pe_attn_sees(&full, 0, 1));
	full.causal = false;
	cr_expect(pe_attn_sees(&full, 0, 7));
	cr_expect_eq(pe_attn_mask_rows(&full, 0, 1, 1, NULL), PE_EINVAL);
}

Test(model, view_strip_kinds_and_bands_fit)
{
	struct pe_arch a;
	struct pe_canvas cv;
	char err[512];

	pe_arch_init(&a);
	cr_assert_eq(pe_hf_read_file(th_src("assets/models/gpt-oss-20b.json"),
	    &a, err, sizeof err), PE_OK, "%s", err);
	cr_assert_eq(pe_canvas_init(&cv, 80, 24), PE_OK);
	/* drawn into a 60 x 10 rectangle at (10, 5) */
	cr_expect_eq(pe_view_model_draw(&cv, 10, 5, 60, 10, &a, 3), PE_OK);
	for (int y = 0; y < 24; y++)
		for (int x = 0; x < 80; x++) {
			const struct pe_cell *c = pe_canvas_at(&cv, x, y);
			bool inside = x >= 10 && x < 70 && y >= 5 && y < 15;
			if (!inside)
				cr_expect(c->cp == ' ', "drawn outside at "
				    "%d,%d",
				    x, y);
		}
	/* the strip (row 6, from column 17): sliding A, full B alternate;
	 * the current layer (3) reversed, the others on their kind's color */
	for (int i = 0; i < 24; i++) {
		const struct pe_cell *c = pe_canvas_at(&cv, 17 + i, 6);
		cr_expect_eq(c->cp, i % 2 == 0 ? 'A' : 'B', "layer %d", i);
		if (i == 3)
			cr_expect(c->attr & PE_ATTR_REVERSE);
		else
			cr_expect_neq(c->bg, PE_COLOR_DEFAULT, "layer %d", i);
	}
	cr_expect_eq(pe_canvas_at(&cv, 17, 6)->bg,
	    pe_canvas_at(&cv, 19, 6)->bg, "one color a kind");
	cr_expect_neq(pe_canvas_at(&cv, 17, 6)->bg,
	    pe_canvas_at(&cv, 18, 6)->bg, "kinds differ");
	cr_expect_eq(pe_view_model_draw(&cv, 0, 0, 10, 2, &a, 0), PE_EINVAL);
	pe_canvas_free(&cv);
	pe_arch_free(&a);
}

/* Row y of a canvas as text, its ASCII cells only (others as '?'). */
static void
row_text(struct pe_canvas *cv, int y, char *out, size_t n)
{
	size_t k = 0;
	for (int x = 0; x < cv->w && k + 1 < n; x++) {
		uint32_t cp = pe_canvas_at(cv, x, y)->cp;
		out[k++] = cp < 128 ? (char)cp : '?';
	}
	out[k] = '\0';
}

/* Pairs i of a RoPE of head d and base b, linear factor f, whose
 * wavelength 2π f b^(2i/d) (modeling_rope_utils.py's inv_freq, divided by
 * the linear factor) fits in span positions: counted here, in long
 * double, independently of pe_layer_bands. */
static size_t
pairs_within(size_t d, long double b, long double f, size_t span)
{
	size_t n = 0;
	for (size_t i = 0; i < d / 2; i++)
		n += 2.0L * acosl(-1.0L) * f *
		    powl(b, (long double)(2 * i) / (long double)d) <=
		    (long double)span;
	return n;
}

Test(model, view_says_how_many_pairs_turn_in_each_reach)
{
	struct pe_arch a;
	struct pe_canvas cv;
	char err[512], row[128], want[2][128];

	pe_arch_init(&a);
	cr_assert_eq(pe_hf_read_file(th_src("assets/models/gemma-3-4b.json"),
	    &a, err, sizeof err), PE_OK, "%s", err);
	cr_assert_eq(pe_canvas_init(&cv, 80, 24), PE_OK);
	cr_assert_eq(pe_view_model_draw(&cv, 0, 0, 80, 24, &a, 0), PE_OK);
	/* Gemma 3 4B: sliding layers at base 1e4 see 1024 keys, global ones
	 * base 1e6 linear x8 the 131072 trained positions; head 256 */
	snprintf(want[0], sizeof want[0], "A %zu of 128 pairs turn within "
	    "the window (1024), %zu within the trained 131072",
	    pairs_within(256, 1e4L, 1.0L, 1024),
	    pairs_within(256, 1e4L, 1.0L, 131072));
	snprintf(want[1], sizeof want[1], "B %zu of 128 pairs turn within "
	    "the sequence (131072) ", pairs_within(256, 1e6L, 8.0L, 131072));
	/* by hand: i <= 128 log(1024 / 2π) / log 1e4 = 70.8, so 71 */
	cr_expect_eq(pairs_within(256, 1e4L, 1.0L, 1024), 71);
	bool seen[2] = {false, false};
	for (int y = 0; y < 24; y++) {
		row_text(&cv, y, row, sizeof row);
		for (int k = 0; k < 2; k++)
			seen[k] |= strncmp(row, want[k], strlen(want[k])) == 0;
	}
	cr_expect(seen[0], "no line \"%s\"", want[0]);
	cr_expect(seen[1], "no line \"%s\"", want[1]);
	pe_canvas_free(&cv);
	pe_arch_free(&a);
}

/* The pairs that turned in training, as the layer panel counts those that
 * never did: YaRN (GPT-OSS) was trained before its scaling, with the
 * unscaled angles at original_max_position_embeddings (4096), so pair i
 * turned when 2π 150000^(2i/64) <= 4096 (counted in long double here);
 * the scaled angles (the reach's, at run time) turn fewer. */
Test(model, the_trained_pairs_are_counted_with_the_trained_angles)
{
	struct pe_arch a;
	char err[512];
	pe_arch_init(&a);
	cr_assert_eq(pe_hf_read_file(th_src("assets/models/gpt-oss-20b.json"),
	    &a, err, sizeof err), PE_OK, "%s", err);
	struct pe_layer_bands b;
	cr_assert_eq(pe_layer_bands(&a.layers[0], a.train_len, &b), PE_OK);
	cr_expect_eq(a.train_len, 4096);
	size_t want = pairs_within(64, 150000.0L, 1.0L, 4096);
	cr_expect_eq(want, 18, "by hand: i <= 32 ln(4096 / 2π) / ln 150000");
	cr_expect_eq(b.turn_in_train, want, "%zu vs %zu", b.turn_in_train,
	    want);
	pe_arch_free(&a);
}

/* A lesson's scenes name a model as the command line does: config = FILE
 * (relative to the lesson file's folder) or preset = NAME, and layer = L;
 * a later model line replaces the earlier (it is one option); a built-in
 * lesson (no file) names shipped models by preset only. */
Test(model, lesson_scenes_name_a_model_and_a_layer)
{
	char *dir = th_tmpdir(), cfg[600], les[600], err[768];
	snprintf(cfg, sizeof cfg, "%s/g3.json", dir);
	snprintf(les, sizeof les, "%s/talk.lesson", dir);
	char *text = th_slurp(th_src("assets/models/gemma-3-4b.json"), NULL);
	FILE *fp = fopen(cfg, "w");
	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
	free(text);
	const char *lesson =
	    "title = Models\n\n"
	    "[scene] Gemma 3, a local layer then a global one\n"
	    "config = g3.json\n"
	    "[caption]\nLayer 0.\n"
	    "[pause]\nlayer = 5\n"
	    "[caption]\nLayer 5.\n\n"
	    "[scene] Llama 4's NoPE layer\n"
	    "config = g3.json\n"
	    "preset = llama-4-scout\n"
	    "layer = 3\n"
	    "[caption]\nNo rotation.\n";
	struct pe_app_lesson al;
	cr_assert_eq(pe_app_lesson_parse(&al, les, les, lesson, err,
	    sizeof err), 0, "%s", err);
	cr_assert_eq(al.l.nscenes, 2);
	const struct pe_state *s0 = &al.l.scenes[0].steps[0].start;
	const struct pe_state *s1 = &al.l.scenes[0].steps[1].start;
	const struct pe_state *s2 = &al.l.scenes[1].steps[0].start;
	cr_assert_not_null(s0->pane[PE_PANE_A].arch);
	cr_expect_eq(s0->pane[PE_PANE_A].arch->nlayers, 34);
	cr_expect_eq(s0->pane[PE_PANE_A].layer, 0);
	cr_expect_eq(s0->pane[PE_PANE_A].cfg.base, 10000.0);
	cr_expect_eq(s1->pane[PE_PANE_A].layer, 5);
	cr_expect_eq(s1->pane[PE_PANE_A].cfg.base, 1e6);
	cr_expect_eq(s1->pane[PE_PANE_A].cfg.rope.type, PE_ROPE_LINEAR);
	/* the preset after the config is the model */
	cr_assert_not_null(s2->pane[PE_PANE_A].arch);
	cr_expect_eq(s2->pane[PE_PANE_A].arch->nlayers, 48);
	cr_expect_str_eq(s2->pane[PE_PANE_A].preset, "llama-4-scout");
	cr_expect_eq(s2->pane[PE_PANE_A].cfg.enc, PE_ENC_NOPE);
	pe_app_lesson_free(&al);

	/* past the layers: the message names the lesson's line */
	const char *past = "title = T\n\n[scene] S\nconfig = g3.json\n"
	    "layer = 34\n[caption]\nx\n";
	cr_expect_eq(pe_app_lesson_parse(&al, les, les, past, err, sizeof err),
	    2);
	cr_expect(strstr(err, "line 5") != NULL && strstr(err, "34 layers"),
	    "%s", err);
	pe_app_lesson_free(&al);
	/* a built-in lesson has no folder for a file */
	cr_expect_eq(pe_app_lesson_parse(&al, "intro", NULL, past, err,
	    sizeof err), 2);
	cr_expect(strstr(err, "preset = NAME") != NULL, "%s", err);
	pe_app_lesson_free(&al);
	const char *builtin = "title = T\n\n[scene] S\npreset = gemma-3-4b\n"
	    "layer = 5\n[caption]\nx\n";
	cr_expect_eq(pe_app_lesson_parse(&al, "intro", NULL, builtin, err,
	    sizeof err), 0, "%s", err);
	pe_app_lesson_free(&al);
	unlink(cfg);
	rmdir(dir);
	free(dir);
}
