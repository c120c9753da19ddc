/* Presets: the compiled-in text equals the file under assets/presets/, each
 * loads, and the values a preset sets are the model's published ones
 * (written here from the configs named in each file's source line). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "helpers.h"

static const char *const names[] = {"llama-2-7b", "llama-3.1-8b",
    "qwen2.5-7b-yarn", "deepseek-v2", "gpt-j-6b", "gpt-neox-20b", "mpt-7b",
    "bloom-176b", "t5-base", "gpt2", "bert-base", "mae-vit-b16"};

/* Parse "pescope --preset NAME" (plus extra args) into *o. */
static void
load(struct pe_options *o, const char *name, const char *extra)
{
	char *argv[] = {"pescope", "--preset", (char *)name, (char *)extra, NULL};
	char err[512];
	int rc = pe_options_parse(o, extra ? 4 : 3, argv, err, sizeof err);
	cr_assert_eq(rc, 0, "%s: %s", name, err);
}

Test(preset, compiled_text_equals_the_file_and_loads)
{
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char rel[256];
		snprintf(rel, sizeof rel, "assets/presets/%s.preset", names[i]);
		char *file = th_slurp(th_src(rel), NULL);
		cr_assert_not_null(file, "%s missing", rel);
		const char *text = pe_preset_text(names[i]);
		cr_assert_not_null(text, "%s not compiled in", names[i]);
		cr_assert_str_eq(text, file);
		cr_assert(strstr(file, "source = ") != NULL, "%s names no source",
		    names[i]);
		free(file);
		struct pe_options o;
		load(&o, names[i], NULL);
		cr_assert_not_null(o.preset_source);
		pe_options_free(&o);
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
	pe_options_free(&o);

	load(&o, "deepseek-v2", NULL);
	cr_assert_eq(o.cfg.d, 64);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_YARN);
	cr_assert_eq(o.cfg.rope.factor, 40.0);
	cr_assert_eq(o.cfg.rope.original_max_pos, 4096);
	cr_assert_eq(o.cfg.rope.mscale, 0.707);
	cr_assert_eq(o.cfg.rope.mscale_all_dim, 0.707);
	cr_assert_eq(o.cfg.rope.beta_fast, 32.0);
	cr_assert_eq(o.cfg.rope.beta_slow, 1.0);
	pe_options_free(&o);

	load(&o, "qwen2.5-7b-yarn", NULL);
	cr_assert_eq(o.cfg.base, 1e6);
	cr_assert_eq(o.cfg.rope.factor, 4.0);
	cr_assert_eq(o.cfg.rope.original_max_pos, 32768);
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
	pe_options_free(&o);
	load(&o, "mpt-7b", NULL);
	cr_assert_eq(o.cfg.heads, 32);
	pe_options_free(&o);

	load(&o, "t5-base", NULL);
	cr_assert_eq(o.cfg.enc, PE_ENC_RELATIVE);
	cr_assert_eq(o.cfg.buckets, 32);
	cr_assert_eq(o.cfg.max_distance, 128);
	cr_assert(o.cfg.bidirectional);
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

	load(&o, "llama-2-7b", NULL);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_DEFAULT);
	cr_assert_eq(o.cfg.base, 10000.0);
	pe_options_free(&o);
}

Test(preset, later_options_override_and_files_load)
{
	struct pe_options o;
	load(&o, "llama-3.1-8b", "--factor=16");
	cr_assert_eq(o.cfg.rope.factor, 16.0);
	pe_options_free(&o);

	/* a user's copy of a preset, edited */
	char *dir = th_tmpdir(), path[512];
	snprintf(path, sizeof path, "%s/mine.preset", dir);
	FILE *fp = fopen(path, "w");
	fprintf(fp, "%s", pe_preset_text("llama-3.1-8b"));
	fprintf(fp, "factor = 32   # longer context\n");
	fclose(fp);
	char *argv[] = {"pescope", "--preset-file", path, NULL};
	char err[512];
	cr_assert_eq(pe_options_parse(&o, 3, argv, err, sizeof err), 0, "%s", err);
	cr_assert_eq(o.cfg.rope.factor, 32.0);
	pe_options_free(&o);

	/* a bad line names the file, the line and the option */
	fp = fopen(path, "w");
	fprintf(fp, "encoding = rope\nfactor = fast\n");
	fclose(fp);
	cr_assert_eq(pe_options_parse(&o, 3, argv, err, sizeof err), 2);
	cr_assert(strstr(err, "line 2") && strstr(err, "--factor"), "%s", err);
	pe_options_free(&o);
	fp = fopen(path, "w");
	fprintf(fp, "warp-drive = 9\n");
	fclose(fp);
	cr_assert_eq(pe_options_parse(&o, 3, argv, err, sizeof err), 2);
	cr_assert(strstr(err, "warp-drive") != NULL, "%s", err);
	pe_options_free(&o);
	remove(path);
	remove(dir);
	free(dir);
}
