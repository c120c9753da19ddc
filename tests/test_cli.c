/* The command line as a user meets it: exit statuses, messages, exact CSV
 * numbers, and files that are written whole or not at all. Runs the real
 * binary ($PESCOPE_BIN). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

/* Run pescope, return status; out/err freed by the caller. */
static int
run(const char *const *argv, char **out, char **err)
{
	return th_run(argv, NULL, out, NULL, err);
}

Test(cli, help_and_version)
{
	char *out, *err;
	const char *a[] = {"pescope", "--help", NULL};
	cr_assert_eq(run(a, &out, &err), 0);
	cr_assert(strstr(out, "Usage: pescope") != NULL);
	cr_assert(strstr(out, "--d-model") != NULL);
	/* the layouts say whose tables they are */
	cr_assert(strstr(out, "split (GPT-J") != NULL);
	cr_assert(strstr(out, "t2t (tensor2tensor") != NULL);
	/* yarn's zeros mean what they mean in HF; --truncate is listed */
	cr_assert(strstr(out, "0 means unset") != NULL);
	cr_assert(strstr(out, "--truncate ") != NULL);
	cr_assert(strstr(out, "0 or only one given: unset") != NULL);
	cr_assert_str_empty(err);
	free(out), free(err);
	const char *b[] = {"pescope", "--version", NULL};
	cr_assert_eq(run(b, &out, &err), 0);
	cr_assert_str_eq(out, "pescope 0.1.0\n");
	free(out), free(err);
}

/* Parse one CSV line of doubles. */
static int
csv_row(const char *line, double *v, int max)
{
	int n = 0;
	const char *p = line;
	while (n < max && *p && *p != '\n') {
		char *end;
		v[n++] = strtod(p, &end);
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* The seeds' example: d=4, positions 0..4 are [sin p, cos p, sin(p/100),
 * cos(p/100)] (base 10000: omega_1 = 10000^(-2/4) = 1/100). */
Test(cli, dump_sinusoidal_csv_matches_the_formula)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-e", "sinusoidal", "-d", "4", "-n",
	    "5", "--table", "pe", "--dtype", "f64", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "stderr: %s", err);
	const char *line = out;
	for (int p = 0; p < 5; p++) {
		double v[8];
		cr_assert_eq(csv_row(line, v, 8), 4);
		double want[4] = {sin(p), cos(p), sin(p / 100.0), cos(p / 100.0)};
		for (int j = 0; j < 4; j++)
			cr_assert(th_close(v[j], want[j], 1e-15, 0), "p %d j %d: %.17g",
			    p, j, v[j]);
		line = strchr(line, '\n') + 1;
	}
	cr_assert_str_empty(line);
	free(out), free(err);
}

/* The worked example: x = [0.51, -0.22, 0.88, 0.14] plus PE(0) = [0, 1, 0,
 * 1] gives [0.51, 0.78, 0.88, 1.14]. */
Test(cli, worked_example_adds_pe0)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-e", "sinusoidal", "-d", "4", "-n",
	    "1", "--table", "pe", NULL};
	cr_assert_eq(run(a, &out, &err), 0);
	double v[4], x[4] = {0.51, -0.22, 0.88, 0.14}, want[4] = {0.51, 0.78, 0.88,
	    1.14};
	cr_assert_eq(csv_row(out, v, 4), 4);
	for (int j = 0; j < 4; j++)
		cr_assert(th_close(x[j] + v[j], want[j], 1e-12, 0));
	free(out), free(err);
}

Test(cli, dump_t5_buckets_seed_example)
{
	/* queries 0..2, keys 0..1 of a 3x3 table: rel = key - query */
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-e", "relative", "-n", "3",
	    "--table", "buckets", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	cr_assert_str_eq(out, "0,17,18\n1,0,17\n2,1,0\n");
	free(out), free(err);
	const char *b[] = {"pescope", "dump", "-e", "relative", "-n", "3",
	    "--unidirectional", "--table", "buckets", NULL};
	cr_assert_eq(run(b, &out, &err), 0, "%s", err);
	cr_assert_str_eq(out, "0,0,0\n1,0,0\n2,1,0\n");
	free(out), free(err);
}

Test(cli, dump_alibi_mask_spelling)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-e", "alibi", "--heads", "8", "-n",
	    "3", "--table", "bias", "--head", "0", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	/* head 0 of 8 has slope 1/2: bias -(i - j)/2, -inf above */
	const char *line = out;
	for (int i = 0; i < 3; i++) {
		double v[3];
		cr_assert_eq(csv_row(line, v, 3), 3);
		for (int j = 0; j < 3; j++)
			cr_assert(th_close(v[j], j > i ? -INFINITY : -(i - j) / 2.0, 0,
			    0), "bias[%d,%d] = %g", i, j, v[j]);
		line = strchr(line, '\n') + 1;
	}
	cr_assert(strstr(out, "-inf") != NULL);
	free(out), free(err);
	const char *b[] = {"pescope", "dump", "-e", "alibi", "--heads", "8",
	    "--table", "slopes", NULL};
	cr_assert_eq(run(b, &out, &err), 0, "%s", err);
	cr_assert_str_eq(out, "0.5\n0.25\n0.125\n0.0625\n0.03125\n0.015625\n"
	    "0.0078125\n0.00390625\n");
	free(out), free(err);
}

/* Every refusal: exit 2, a message naming the option, nothing on stdout. */
struct bad {
	const char *args[16];
	const char *needle;
};

static const struct bad bads[] = {
	{{"dump", "-d", "0", "--table", "pe"}, "--d-model"},
	{{"dump", "-d", "-3", "--table", "pe"}, "--d-model"},
	{{"dump", "-d", "12x", "--table", "pe"}, "--d-model"},
	{{"dump", "-n", "0", "--table", "pe"}, "--seq-len"},
	{{"dump", "-n", "99999999999999999999", "--table", "pe"}, "--seq-len"},
	{{"dump", "-d", "63", "--table", "pe"}, "even"},
	{{"dump", "-e", "rope", "-d", "63", "--table", "cos"}, "--d-model"},
	{{"dump", "-e", "vit2d", "-d", "66", "--table", "pe"}, "divisible by 4"},
	{{"dump", "--base", "1", "--table", "pe"}, "--base"},
	{{"dump", "--base", "inf", "--table", "pe"}, "--base"},
	{{"dump", "--base", "nan", "--table", "pe"}, "--base"},
	{{"dump", "-e", "sinusoid", "--table", "pe"}, "--encoding"},
	{{"dump", "--table", "nonsense"}, "--table"},
	{{"dump", "--layout", "t2t", "-d", "2", "--table", "pe"}, "--layout t2t"},
	{{"dump", "--layout", "fairseq", "--table", "pe"}, "t2t"},
	{{"dump", "-e", "alibi", "--table", "pe"}, "not available"},
	{{"dump", "-e", "alibi", "--table", "bias"}, "--head"},
	{{"dump", "-e", "alibi", "--heads", "4096", "-n", "65536", "--table",
	     "bias", "--format", "npy"}, "4 GiB"},
	{{"dump", "--format", "xls", "--table", "pe"}, "--format"},
	{{"dump", "--dtype", "f16", "--table", "pe"}, "--dtype"},
	{{"dump"}, "--table"},
	{{"dump", "-e", "rope", "--rope-scaling", "yarn", "--factor", "0.5",
	     "--table", "inv_freq"}, "--factor"},
	{{"dump", "-e", "rope", "--rope-scaling", "yarn", "--beta-fast", "1",
	     "--beta-slow", "2", "--table", "inv_freq"}, "beta"},
	{{"dump", "-e", "rope", "--rope-scaling", "llama3", "--low-freq-factor",
	     "4", "--high-freq-factor", "1", "--table", "inv_freq"}, "freq"},
	{{"dump", "-e", "rope", "-d", "8", "--rope-scaling", "longrope",
	     "--short-factor", "1,2,3", "--long-factor", "1,2,3,4", "--table",
	     "inv_freq"}, "--short-factor"},
	{{"dump", "--cursor", "1,1", "--table", "pe"}, "--cursor"},
	{{"dump", "--table-file", "@FIX/f8_nan_2x2.npy", "--table", "pe"},
	    "must be finite"},
	/* non-finite tables (issue 8, item 5) */
	{{"dump", "-e", "rope", "-d", "8", "--rope-scaling", "longrope",
	     "--short-factor", "1,1,1,1", "--long-factor", "1,1,1,1",
	     "--original-max-pos", "1", "--table", "inv_freq"},
	    "--original-max-pos 1"},
	{{"dump", "-e", "rope", "-d", "8", "--rope-scaling", "longrope",
	     "--short-factor", "1e-320,1,1,1", "--long-factor", "1,1,1,1",
	     "--table", "inv_freq"}, "--short-factor"},
	{{"dump", "-e", "rope", "-d", "8", "--rope-scaling", "yarn", "--factor",
	     "1e308", "--mscale", "1e308", "--mscale-all-dim", "1e308",
	     "--table", "cos"}, "--mscale"},
	{{"dump", "-e", "rope", "-d", "8", "--rope-scaling", "longrope",
	     "--short-factor", "1e-300,1,1,1", "--long-factor", "1,1,1,1",
	     "--table", "inv_freq"}, "--dtype"},
	{{"snapshot", "--table", "pe"}, "--table"},
	{{"snapshot", "--size", "0x5"}, "--size"},
	{{"snapshot", "--color", "blue"}, "--color"},
	{{"snapshot", "--cursor", "64,0"}, "--cursor"},
	{{"frobnicate"}, "unknown command"},
	{{"--bogus"}, "unknown option"},
	{{"--preset", "gpt-5"}, "--preset"},
	{{"dump", "--grid", "3y4", "-e", "vit2d", "--table", "pe"}, "--grid"},
};

Test(cli, bad_input_exits_2_and_names_the_option)
{
	for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		const char *a[18] = {"pescope"};
		size_t n = 1;
		for (; bads[i].args[n - 1] != NULL; n++) /* @FIX/: a fixture */
			a[n] = strncmp(bads[i].args[n - 1], "@FIX/", 5) == 0
			    ? th_fixture(bads[i].args[n - 1] + 5)
			    : bads[i].args[n - 1];
		a[n] = NULL;
		char *out, *err;
		int st = run(a, &out, &err);
		cr_expect_eq(st, 2, "case %zu (%s %s): status %d, stderr %s", i,
		    a[1], a[2] ? a[2] : "", st, err);
		cr_expect(strstr(err, bads[i].needle) != NULL,
		    "case %zu: stderr lacks '%s': %s", i, bads[i].needle, err);
		cr_expect_str_empty(out, "case %zu wrote to stdout", i);
		free(out), free(err);
	}
}

Test(cli, output_is_atomic)
{
	char *dir = th_tmpdir();
	char path[512], *out, *err;
	snprintf(path, sizeof path, "%s/pe.csv", dir);
	FILE *fp = fopen(path, "w");
	fputs("old\n", fp);
	fclose(fp);

	/* an error leaves the old file untouched and no temporary behind */
	const char *a[] = {"pescope", "dump", "-d", "63", "--table", "pe", "-o",
	    path, NULL};
	cr_assert_eq(run(a, &out, &err), 2);
	free(out), free(err);
	char *txt = th_slurp(path, NULL);
	cr_assert_str_eq(txt, "old\n");
	free(txt);
	cr_assert_eq(th_dir_count(dir), 1);

	/* success replaces it whole */
	const char *b[] = {"pescope", "dump", "-d", "2", "-n", "1", "--table",
	    "pe", "-o", path, NULL};
	cr_assert_eq(run(b, &out, &err), 0, "%s", err);
	free(out), free(err);
	txt = th_slurp(path, NULL);
	cr_assert_str_eq(txt, "0,1\n");
	free(txt);
	cr_assert_eq(th_dir_count(dir), 1);

	/* a folder that cannot be written: exit 1, nothing created */
	char ro[512];
	snprintf(ro, sizeof ro, "%s/missing/pe.csv", dir);
	const char *c[] = {"pescope", "dump", "--table", "pe", "-o", ro, NULL};
	cr_assert_eq(run(c, &out, &err), 1);
	cr_assert(strstr(err, "missing") != NULL);
	free(out), free(err);
	cr_assert_eq(th_dir_count(dir), 1);
	unlink(path);
	rmdir(dir);
	free(dir);
}

Test(cli, table_file_is_checked)
{
	char *out, *err;
	/* a numpy-written [3, 4] float32 table */
	const char *a[] = {"pescope", "dump", "--table-file",
	    th_fixture("f4_3x4.npy"), "-n", "6", "--table", "pe", NULL};
	const char *fx = th_fixture("f4_3x4.npy");
	if (access(fx, R_OK) != 0)
		cr_skip("fixture %s missing", fx);
	char fxcopy[1024];
	snprintf(fxcopy, sizeof fxcopy, "%s", fx);
	a[3] = fxcopy;
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	/* rows 3..5 are past the table: nan */
	cr_assert(strstr(out, "nan,nan,nan,nan\nnan") != NULL, "%s", out);
	free(out), free(err);

	const char *b[] = {"pescope", "dump", "--table-file", fxcopy, "-d", "8",
	    "--table", "pe", NULL};
	cr_assert_eq(run(b, &out, &err), 2);
	cr_assert(strstr(err, "--d-model") != NULL, "%s", err);
	free(out), free(err);

	/* truncated and garbage files */
	char *dir = th_tmpdir(), bad[512];
	snprintf(bad, sizeof bad, "%s/bad.npy", dir);
	size_t len;
	char *buf = th_slurp(fxcopy, &len);
	FILE *fp = fopen(bad, "wb");
	fwrite(buf, 1, len - 7, fp);
	fclose(fp);
	free(buf);
	const char *c[] = {"pescope", "dump", "--table-file", bad, "--table", "pe",
	    NULL};
	cr_assert_eq(run(c, &out, &err), 2);
	cr_assert(strstr(err, "--table-file") != NULL, "%s", err);
	free(out), free(err);
	fp = fopen(bad, "wb");
	fputs("\x93NUMPY garbage", fp);
	fclose(fp);
	cr_assert_eq(run(c, &out, &err), 2);
	free(out), free(err);
	unlink(bad);
	rmdir(dir);
	free(dir);
}

Test(cli, presets_load_and_list)
{
	char *out, *err;
	const char *a[] = {"pescope", "--list-presets", NULL};
	cr_assert_eq(run(a, &out, &err), 0);
	const char *names[] = {"llama-2-7b", "llama-3.1-8b", "qwen2.5-7b-yarn",
	    "deepseek-v2", "gpt-j-6b", "gpt-neox-20b", "mpt-7b", "bloom-176b",
	    "t5-base", "gpt2", "bert-base", "mae-vit-b16"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		cr_expect(strstr(out, names[i]) != NULL, "%s missing", names[i]);
	free(out), free(err);

	/* bloom has 112 heads: slopes has 112 lines */
	const char *b[] = {"pescope", "dump", "--preset", "bloom-176b", "--table",
	    "slopes", NULL};
	cr_assert_eq(run(b, &out, &err), 0, "%s", err);
	int lines = 0;
	for (char *p = out; *p; p++)
		lines += *p == '\n';
	cr_assert_eq(lines, 112);
	free(out), free(err);

	/* options after or before a preset override it */
	const char *c[] = {"pescope", "dump", "--heads", "4", "--preset",
	    "mpt-7b", "--table", "slopes", NULL};
	cr_assert_eq(run(c, &out, &err), 0, "%s", err);
	cr_assert_str_eq(out, "0.25\n0.0625\n0.015625\n0.00390625\n");
	free(out), free(err);
}
