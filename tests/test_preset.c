/* Presets are the shipped configs: the compiled-in text of each is the
 * file under assets/models/ (and every file there is a preset), each loads
 * through the loader as --config loads the file, to the same config, and
 * the values a preset gives are the model's published ones (written here
 * from the configs each file's _pescope.source names). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "helpers.h"
#include "pescope/rope.h"

/* Parse "pescope snapshot ARGS" into *o (ARGS: up to 6 words); expect
 * rc. */
static void
parse(struct pe_options *o, int rc, const char *a1, const char *a2,
    const char *a3, const char *a4)
{
	char *argv[8] = {"pescope", "snapshot"};
	int argc = 2;
	const char *w[] = {a1, a2, a3, a4};
	for (int i = 0; i < 4 && w[i] != NULL; i++)
		argv[argc++] = (char *)w[i];
	char err[768];
	int got = pe_options_parse(o, argc, argv, err, sizeof err);
	cr_assert_eq(got, rc, "%s %s %s: %s", a1, a2, a3 ? a3 : "", err);
}

/* Parse "pescope --preset NAME [EXTRA]" into *o. */
static void
load(struct pe_options *o, const char *name, const char *extra)
{
	parse(o, 0, "--preset", name, extra, NULL);
}

Test(preset, compiled_text_is_the_shipped_file_and_loads)
{
	size_t n = 0;
	for (; pe_preset_name(n) != NULL; n++) {
		const char *name = pe_preset_name(n);
		char rel[256];
		snprintf(rel, sizeof rel, "assets/models/%s.json", name);
		char *file = th_slurp(th_src(rel), NULL);
		cr_assert_not_null(file, "%s missing", rel);
		cr_assert_str_eq(pe_preset_text(name), file, "%s", name);
		free(file);
		/* its own keys: a description and the source of its values */
		struct pe_arch a;
		char err[512];
		pe_arch_init(&a);
		cr_assert_eq(pe_preset_read(name, &a, err, sizeof err), PE_OK,
		    "%s: %s", name, err);
		cr_expect(a.description != NULL && a.description[0] != '\0',
		    "%s: no description", name);
		cr_expect(a.source != NULL && a.source[0] != '\0',
		    "%s: no source", name);
		pe_arch_free(&a);
	}
	/* every shipped config is a preset */
	DIR *d = opendir(th_src("assets/models"));
	cr_assert_not_null(d);
	size_t files = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".json") != 0)
			continue;
		files++;
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(l - 5), e->d_name);
		cr_expect_not_null(pe_preset_text(name), "%s is not compiled "
		    "in (meson.build's list)", e->d_name);
	}
	closedir(d);
	cr_expect_eq(files, n);
	cr_expect_geq(n, 25);
	cr_expect_null(pe_preset_name(n));
}

/* The pointers a config holds (the model's buffers) left out. */
static void
config_values(struct pe_config *c)
{
	c->table = NULL;
	c->rope.short_factor = c->rope.long_factor = NULL;
	c->rope2d.freqs = NULL;
	c->teach.tokens = NULL;
	c->teach.permute = NULL;
	c->teach.bias = c->teach.embedding = NULL;
}

Test(preset, a_preset_is_its_config_read_as_a_file)
{
	for (size_t i = 0; pe_preset_name(i) != NULL; i++) {
		const char *name = pe_preset_name(i);
		char rel[256];
		snprintf(rel, sizeof rel, "assets/models/%s.json", name);
		struct pe_options p, c;
		load(&p, name, NULL);
		parse(&c, 0, "--config", th_src(rel), NULL, NULL);
		cr_expect_str_eq(p.preset, name);
		cr_expect_null(p.config);
		cr_expect_null(c.preset);
		cr_assert_not_null(p.arch);
		cr_assert_not_null(c.arch);
		cr_expect_eq(p.arch->nlayers, c.arch->nlayers, "%s", name);
		for (size_t k = 0; k < p.cfg.rope.n_short; k++)
			cr_expect_eq(p.cfg.rope.short_factor[k],
			    c.cfg.rope.short_factor[k]);
		config_values(&p.cfg);
		config_values(&c.cfg);
		cr_expect(memcmp(&p.cfg, &c.cfg, sizeof p.cfg) == 0,
		    "%s: --preset and --config differ", name);
		cr_expect(!p.preset_modified, "%s", name);
		pe_options_free(&p);
		pe_options_free(&c);
	}
}

Test(preset, values_match_the_published_configs)
{
	struct pe_options o;
	load(&o, "llama-3.1-8b", NULL);
	cr_assert_eq(o.cfg.enc, PE_ENC_ROPE);
	cr_assert_eq(o.cfg.d, 128);
	cr_assert_eq(o.cfg.base, 500000.0);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_LLAMA3);
	cr_assert_eq(o.cfg.rope.factor, 8.0);
	cr_assert_eq(o.cfg.rope.low_freq_factor, 1.0);
	cr_assert_eq(o.cfg.rope.high_freq_factor, 4.0);
	cr_assert_eq(o.cfg.rope.original_max_pos, 8192);
	cr_assert_eq(o.cfg.n, 131072);
	cr_assert_eq(o.cfg.teach.train_len, 8192);
	cr_assert_eq(o.arch->nlayers, 32);
	pe_options_free(&o);

	/* DeepSeek-V2's rope pairs are interleaved: HF's
	 * modeling_deepseek_v2.py apply_rotary_emb multiplies complex pairs
	 * (dims 2j, 2j+1: view_as_complex of reshape(..., -1, 2)) */
	load(&o, "deepseek-v2", NULL);
	/* MLA's decoupled head: qk_nope_head_dim 128 + qk_rope_head_dim 64,
	 * only the 64 rope dims rotate */
	cr_assert_eq(o.cfg.d, 192);
	cr_assert_eq(o.cfg.attn.qk_rope_dim, 64);
	cr_assert_eq(o.cfg.pairing, PE_PAIR_INTERLEAVED);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_YARN);
	cr_assert_eq(o.cfg.rope.factor, 40.0);
	cr_assert_eq(o.cfg.rope.original_max_pos, 4096);
	cr_assert_eq(o.cfg.rope.mscale, 0.707);
	cr_assert_eq(o.cfg.rope.mscale_all_dim, 0.707);
	cr_assert_eq(o.cfg.rope.beta_fast, 32.0);
	cr_assert_eq(o.cfg.rope.beta_slow, 1.0);
	cr_assert_eq(o.cfg.teach.train_len, 4096);
	pe_options_free(&o);

	load(&o, "qwen2.5-7b-yarn", NULL);
	cr_assert_eq(o.cfg.base, 1e6);
	cr_assert_eq(o.cfg.rope.factor, 4.0);
	cr_assert_eq(o.cfg.rope.original_max_pos, 32768);
	cr_assert_eq(o.cfg.n, 131072);
	pe_options_free(&o);

	load(&o, "gpt-j-6b", NULL);
	cr_assert_eq(o.cfg.d, 256);
	cr_assert_eq(o.cfg.pairing, PE_PAIR_INTERLEAVED);
	cr_assert_eq((size_t)(o.cfg.d * o.cfg.rope.partial_rotary), 64);
	pe_options_free(&o);

	load(&o, "gpt-neox-20b", NULL);
	cr_assert_eq(o.cfg.d, 96);
	cr_assert_eq((size_t)(o.cfg.d * o.cfg.rope.partial_rotary), 24);
	pe_options_free(&o);

	load(&o, "bloom-176b", NULL);
	cr_assert_eq(o.cfg.enc, PE_ENC_ALIBI);
	cr_assert_eq(o.cfg.heads, 112);
	cr_assert_eq(o.cfg.alibi_mode, PE_ALIBI_CAUSAL);
	cr_assert_eq(o.cfg.n, 2048);
	cr_assert_eq(o.cfg.teach.train_len, 2048);
	pe_options_free(&o);
	load(&o, "mpt-7b", NULL);
	cr_assert_eq(o.cfg.heads, 32);
	pe_options_free(&o);

	load(&o, "t5-base", NULL);
	cr_assert_eq(o.cfg.enc, PE_ENC_RELATIVE);
	cr_assert_eq(o.cfg.buckets, 32);
	cr_assert_eq(o.cfg.max_distance, 128);
	cr_assert(o.cfg.bidirectional); /* layer 0: the encoder's */
	pe_options_free(&o);

	load(&o, "gpt2", NULL);
	cr_assert_eq(o.cfg.max_len, 1024);
	cr_assert_eq(o.cfg.d, 768);
	cr_assert(o.cfg.table_untrained);
	pe_options_free(&o);
	load(&o, "bert-base", NULL);
	cr_assert_eq(o.cfg.max_len, 512);
	pe_options_free(&o);

	load(&o, "mae-vit-b16", NULL);
	cr_assert_eq(o.cfg.enc, PE_ENC_VIT2D);
	cr_assert_eq(o.cfg.grid_h, 14);
	cr_assert_eq(o.cfg.grid_w, 14);
	cr_assert_eq(o.cfg.d, 768);
	pe_options_free(&o);

	load(&o, "qwen2-vl-7b", NULL);
	cr_assert_eq(o.cfg.enc, PE_ENC_MROPE);
	cr_assert_eq(o.cfg.mrope.mrope_section[0], 16);
	cr_assert_eq(o.cfg.mrope.mrope_section[1], 24);
	cr_assert_eq(o.cfg.mrope.mrope_section[2], 24);
	cr_assert_eq(o.cfg.grid_h, 14);
	cr_assert_eq(o.cfg.mrope.frames, 1);
	pe_options_free(&o);

	load(&o, "rope-vit-b16-axial", NULL);
	cr_assert_eq(o.cfg.enc, PE_ENC_ROPE2D);
	cr_assert_eq(o.cfg.rope2d.kind, PE_ROPE2D_AXIAL);
	cr_assert_eq(o.cfg.d, 64);
	cr_assert_eq(o.cfg.base, 100.0);
	pe_options_free(&o);

	load(&o, "llama-2-7b", NULL);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_DEFAULT);
	cr_assert_eq(o.cfg.base, 10000.0);
	cr_assert_eq(o.cfg.n, 4096);
	pe_options_free(&o);

	/* Phi-3.5 mini: the 48 pairs' lists of its config.json, first and
	 * last (microsoft/Phi-3.5-mini-instruct) */
	load(&o, "phi-3.5-mini", NULL);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_LONGROPE);
	cr_assert_eq(o.cfg.rope.n_short, 48);
	cr_assert_eq(o.cfg.rope.n_long, 48);
	cr_assert_eq(o.cfg.rope.short_factor[0], 1.0);
	cr_assert_eq(o.cfg.rope.short_factor[47], 2.8399994373321533);
	cr_assert_eq(o.cfg.rope.long_factor[0], 1.0800000429153442);
	cr_assert_eq(o.cfg.rope.long_factor[47], 64.83999633789062);
	cr_assert_eq(o.cfg.rope.original_max_pos, 4096);
	cr_assert_eq(o.cfg.rope.max_pos, 131072);
	pe_options_free(&o);

	/* Phi-3 mini 128k (its June 2024 config): the factors' ends as
	 * quoted from microsoft/Phi-3-mini-128k-instruct's config.json, and
	 * the attention factor llama.cpp's conversion of that model stored
	 * (phi3.rope.scaling.attn_factor = 1.190238118171692, a float32:
	 * sqrt(1 + ln 32 / ln 4096)) */
	load(&o, "phi-3-mini-128k", NULL);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_LONGROPE);
	cr_assert_eq(o.cfg.rope.n_short, 48);
	cr_assert_eq(o.cfg.rope.n_long, 48);
	cr_assert_eq(o.cfg.rope.short_factor[0], 1.1);
	cr_assert_eq(o.cfg.rope.short_factor[4], 1.3500000000000003);
	cr_assert_eq(o.cfg.rope.short_factor[47], 3.049999999999997);
	cr_assert_eq(o.cfg.rope.long_factor[0], 1.0700000524520874);
	cr_assert_eq(o.cfg.rope.long_factor[15], 14.609999656677246);
	cr_assert_eq(o.cfg.rope.long_factor[47], 64.76000213623047);
	cr_assert_eq(o.cfg.rope.original_max_pos, 4096);
	cr_assert_eq(o.cfg.rope.max_pos, 131072);
	cr_assert_eq(o.cfg.d, 96);
	struct pe_rope r;
	cr_assert_eq(pe_rope_init(&r, &o.cfg), PE_OK);
	cr_expect(fabs(r.attention_scaling - 1.190238118171692) < 1e-7,
	    "attention scaling %.17g", r.attention_scaling);
	/* past the original 4096 positions the long factors divide
	 * inv_freq: pair 47 is 10000^(-94/96) / 64.76000213623047 */
	cr_expect(fabs(r.inv_freq[47] / (pow(10000.0, -94.0 / 96.0) /
	    64.76000213623047) - 1.0) < 1e-12, "%.17g", r.inv_freq[47]);
	pe_rope_free(&r);
	pe_options_free(&o);
}

Test(preset, later_options_override_and_the_last_model_is_the_model)
{
	struct pe_options o;
	load(&o, "llama-3.1-8b", "--factor=16");
	cr_assert_eq(o.cfg.rope.factor, 16.0);
	cr_expect(o.preset_modified);
	pe_options_free(&o);

	/* an option before the preset overrides it too */
	parse(&o, 0, "-n", "512", "--preset", "llama-3.1-8b");
	cr_assert_eq(o.cfg.n, 512);
	pe_options_free(&o);

	/* the last model named is the model, as the last value of an
	 * option is */
	parse(&o, 0, "--preset", "gpt2", "--preset", "llama-2-7b");
	cr_expect_str_eq(o.preset, "llama-2-7b");
	cr_expect_eq(o.cfg.enc, PE_ENC_ROPE);
	pe_options_free(&o);
	char rel[] = "assets/models/gpt2.json";
	parse(&o, 0, "--preset", "llama-2-7b", "--config", th_src(rel));
	cr_expect_null(o.preset);
	cr_expect_eq(o.cfg.enc, PE_ENC_LEARNED);
	pe_options_free(&o);

	/* a preset's layers, as a config's */
	parse(&o, 0, "--preset", "gemma-3-4b", "--layer", "5");
	cr_expect_eq(o.layer, 5);
	cr_expect_eq(o.cfg.base, 1e6); /* the global layer */
	cr_expect_eq(o.cfg.rope.type, PE_ROPE_LINEAR);
	pe_options_free(&o);
	parse(&o, 0, "--layer", "4", "--preset", "gemma-3-4b");
	cr_expect_eq(o.cfg.base, 10000.0); /* a local one */
	pe_options_free(&o);
}

Test(preset, refusals_name_the_preset)
{
	struct pe_options o;
	char err[512];
	char *a[] = {"pescope", "--preset", "llama-9", NULL};
	cr_assert_eq(pe_options_parse(&o, 3, a, err, sizeof err), 2);
	cr_expect(strstr(err, "--preset 'llama-9': unknown preset") != NULL,
	    "%s", err);
	pe_options_free(&o);
	char *b[] = {"pescope", "--preset", "gemma-3-4b", "--layer", "34", NULL};
	cr_assert_eq(pe_options_parse(&o, 5, b, err, sizeof err), 2);
	cr_expect(strstr(err, "--layer 34: the model of gemma-3-4b has 34 "
	    "layers (0 to 33)") != NULL, "%s", err);
	pe_options_free(&o);
	/* the old option files are gone: --preset-file is not an option */
	char *c[] = {"pescope", "--preset-file", "x.preset", NULL};
	cr_assert_eq(pe_options_parse(&o, 3, c, err, sizeof err), 2);
	pe_options_free(&o);
}

/* --compare: pane B may name its own model (a preset or a config) and
 * layer; with A's model, B's --layer picks B's layer; A's --layer applies
 * to B's model when B names none; A's options apply to B's model too. */
Test(preset, compare_names_its_own_model_and_layer)
{
	struct pe_options o;
	parse(&o, 0, "--preset", "gemma-3-4b", "--compare", "--layer 5");
	cr_assert_not_null(o.cmp);
	cr_expect_eq(o.layer, 0);
	cr_expect_eq(o.cfg.base, 10000.0);
	cr_expect_eq(o.cmp->layer, 5);
	cr_expect_str_eq(o.cmp->preset, "gemma-3-4b");
	cr_expect_eq(o.cmp->cfg.base, 1e6);
	cr_expect(!o.cmp->preset_modified, "a layer is not a change");
	pe_options_free(&o);

	char rel[] = "assets/models/llama-4-scout.json", words[600];
	snprintf(words, sizeof words, "--config '%s' --layer 3", th_src(rel));
	parse(&o, 0, "--preset", "gemma-3-4b", "--compare", words);
	cr_expect_str_eq(o.preset, "gemma-3-4b");
	cr_expect_null(o.cmp->preset);
	cr_expect_eq(o.cmp->arch->nlayers, 48);
	cr_expect_eq(o.cmp->layer, 3);
	cr_expect_eq(o.cmp->cfg.enc, PE_ENC_NOPE);
	pe_options_free(&o);

	/* A's -n and --layer apply to B's own model */
	char *argv[] = {"pescope", "snapshot", "--preset", "gemma-3-4b",
	    "--layer", "5", "-n", "4096", "--compare", "--preset gemma-2-9b",
	    NULL};
	char err[768];
	cr_assert_eq(pe_options_parse(&o, 10, argv, err, sizeof err), 0, "%s",
	    err);
	cr_expect_eq(o.cmp->layer, 5);
	cr_expect_eq(o.cmp->arch->nlayers, 42);
	cr_expect_eq(o.cmp->cfg.n, 4096);
	cr_expect(o.cmp->preset_modified, "-n changed B's model");
	pe_options_free(&o);

	/* B's layer past its model's */
	char *bad[] = {"pescope", "snapshot", "--preset", "gemma-3-4b",
	    "--compare", "--layer 40", NULL};
	cr_assert_eq(pe_options_parse(&o, 6, bad, err, sizeof err), 2);
	cr_expect(strstr(err, "--compare (pane B): --layer 40: the model of "
	    "gemma-3-4b has 34 layers") != NULL, "%s", err);
	pe_options_free(&o);
}
