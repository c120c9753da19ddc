/* The command line as a user meets it: exit statuses, messages, exact CSV
 * numbers, and files that are written whole or not at all. Runs the real
 * binary ($PESCOPE_BIN). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/options.h"
#include "helpers.h"

/* Run pescope, return status; out/err freed by the caller. */
static int
run(const char *const *argv, char **out, char **err)
{
	return th_run(argv, NULL, out, NULL, err);
}

/* Run pescope and expect its exit status and a piece of what it says on
 * stderr. */
static void
expect_exit(const char *const *argv, int status, const char *piece)
{
	char *out, *err;
	cr_expect_eq(run(argv, &out, &err), status, "%s: %s", argv[1], err);
	cr_expect(strstr(err, piece) != NULL, "%s", err);
	free(out), free(err);
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
	/* the teaching options and tables (toy attention, worked examples) */
	const char *teach[] = {"--tokens", "--permute", "--mask", "--bias-file",
	    "--embedding", "--shift", "--train-len", "token_embeddings",
	    "attention", "rotated", "decay", "beyond", "recency", "start_share"};
	for (size_t i = 0; i < sizeof teach / sizeof teach[0]; i++)
		cr_expect(strstr(out, teach[i]) != NULL, "--help lacks %s", teach[i]);
	cr_assert_str_empty(err);
	free(out), free(err);
	const char *b[] = {"pescope", "--version", NULL};
	cr_assert_eq(run(b, &out, &err), 0);
	/* meson.build's version, then the commit (tests/check_version.sh
	 * compares it with git's) */
	const char *v = getenv("PESCOPE_PROJECT_VERSION");
	cr_assert(v != NULL);
	char want[64];
	snprintf(want, sizeof want, "pescope %s\ncommit ", v);
	cr_assert(strncmp(out, want, strlen(want)) == 0, "--version: %s", out);
	cr_assert(strchr(out + strlen(want), '\n') != NULL);
	cr_assert_str_empty(err);
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

/* Parse CSV text into v[rows * cols]: whether it is exactly rows lines of
 * cols numbers. */
static bool
csv_table(const char *out, double *v, int rows, int cols)
{
	const char *line = out;
	for (int r = 0; r < rows; r++) {
		const char *end = strchr(line, '\n');
		int commas = 0;
		for (const char *c = line; end != NULL && c < end; c++)
			commas += *c == ',';
		if (end == NULL || commas != cols - 1 ||
		    csv_row(line, v + r * cols, cols) != cols)
			return false;
		line = end + 1;
	}
	return *line == '\0';
}

/* The seeds' example: d=4, positions 0..4 are [sin p, cos p, sin(p/100),
 * cos(p/100)] (base 10000: omega_1 = 10000^(-2/4) = 1/100). */
Test(cli, dump_sinusoidal_csv_matches_the_formula)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-e", "sinusoidal", "-d", "4", "-n",
	    "5", "--table", "pe", "--dtype", "f64", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "stderr: %s", err);
	double v[5][4];
	cr_assert(csv_table(out, &v[0][0], 5, 4), "%s", out);
	for (int p = 0; p < 5; p++) {
		double want[4] = {sin(p), cos(p), sin(p / 100.0), cos(p / 100.0)};
		for (int j = 0; j < 4; j++)
			cr_assert(th_close(v[p][j], want[j], 1e-15, 0),
			    "p %d j %d: %.17g", p, j, v[p][j]);
	}
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

/* --table sum writes x + PE(p) for every position; row 0 of the
 * worked example is 0.51 0.78 0.88 1.14, row 5 is not. */
Test(cli, dump_sum_is_the_worked_example)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-e", "sinusoidal", "-d", "4", "-n",
	    "6", "--embedding", "0.51,-0.22,0.88,0.14", "--table", "sum",
	    "--dtype", "f64", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	double v[4], want[4] = {0.51, 0.78, 0.88, 1.14};
	const char *line = out;
	cr_assert_eq(csv_row(line, v, 4), 4);
	for (int j = 0; j < 4; j++)
		cr_expect(th_close(v[j], want[j], 1e-15, 0), "%d: %.17g", j, v[j]);
	for (int p = 0; p < 5; p++)
		line = strchr(line, '\n') + 1;
	cr_assert_eq(csv_row(line, v, 4), 4);
	cr_expect(th_close(v[0], 0.51 + sin(5.0), 1e-15, 0));
	cr_expect_str_empty(strchr(line, '\n') + 1);
	free(out), free(err);
}

/* The toy attention of NoPE without a mask, mapped back from the
 * permuted sentence, is the sentence's own; the causal default masks. */
Test(cli, toy_attention_permutation)
{
	char *out, *err;
	double a[25], b[25];
	const char *x[] = {"pescope", "dump", "-e", "nope", "--mask", "none",
	    "--table", "attention", "--dtype", "f64", NULL};
	cr_assert_eq(run(x, &out, &err), 0, "%s", err);
	cr_assert(csv_table(out, a, 5, 5), "%s", out);
	free(out), free(err);
	const char *y[] = {"pescope", "dump", "-e", "nope", "--mask", "none",
	    "--permute", "0,4,2,3,1", "--table", "attention", "--dtype", "f64",
	    NULL};
	cr_assert_eq(run(y, &out, &err), 0, "%s", err);
	cr_assert(csv_table(out, b, 5, 5), "%s", out);
	free(out), free(err);
	size_t perm[5] = {0, 4, 2, 3, 1}, inv[5];
	for (size_t i = 0; i < 5; i++)
		inv[perm[i]] = i;
	for (size_t i = 0; i < 5; i++) {
		double sum = 0;
		for (size_t j = 0; j < 5; j++) {
			cr_expect(th_close(a[i * 5 + j], b[inv[i] * 5 + inv[j]], 1e-15,
			    0), "%zu,%zu", i, j);
			sum += a[i * 5 + j];
		}
		cr_expect(th_close(sum, 1, 1e-15, 0));
	}
	const char *z[] = {"pescope", "dump", "-e", "nope", "--table", "scores",
	    NULL};
	cr_assert_eq(run(z, &out, &err), 0, "%s", err);
	cr_expect(strncmp(strchr(out, ',') + 1, "-inf,-inf,-inf,-inf\n", 20) == 0,
	    "%s", out);
	free(out), free(err);
	/* the words, same word same row */
	const char *w[] = {"pescope", "dump", "-e", "alibi", "-d", "3", "--tokens",
	    "to be or not to be", "--table", "token_embeddings", NULL};
	cr_assert_eq(run(w, &out, &err), 0, "%s", err);
	char *l1 = out, *l5 = out;
	for (int k = 0; k < 4; k++)
		l5 = strchr(l5, '\n') + 1;
	cr_expect_eq(strncmp(l1, l5, (size_t)(strchr(l1, '\n') - l1)), 0);
	free(out), free(err);
}

/* A preset's training length; Llama 2's pairs past 4096. */
Test(cli, beyond_from_a_preset)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "--preset", "llama-2-7b", "--table",
	    "beyond", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	char want[256] = "";
	for (int j = 46; j < 64; j++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%d\n", j);
	cr_expect_str_eq(out, want);
	free(out), free(err);
	const char *b[] = {"pescope", "dump", "-e", "rope", "-d", "16",
	    "--train-len", "100000", "--table", "beyond", NULL};
	cr_assert_eq(run(b, &out, &err), 0, "%s", err);
	cr_expect_str_empty(out);
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
	double v[3][3];
	cr_assert(csv_table(out, &v[0][0], 3, 3), "%s", out);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			cr_assert(th_close(v[i][j], j > i ? -INFINITY
			    : -(i - j) / 2.0, 0, 0), "bias[%d,%d] = %g", i, j,
			    v[i][j]);
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
	/* a picture's colors need a legend of 256 colors or more */
	{{"--graphics", "kitty", "--color", "16"}, "--graphics kitty needs "
	    "--color 256"},
	{{"lesson", "intro", "--graphics", "sixel", "--color", "8"},
	    "at --color 8"},
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
	/* non-finite tables */
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
	/* an option that changes nothing here is refused */
	{{"dump", "-e", "sinusoidal", "--heads", "4", "--table", "pe"},
	     "--heads has no effect with -e sinusoidal"},
	{{"dump", "-e", "vit2d", "-n", "5", "--table", "pe"}, "--seq-len"},
	{{"snapshot", "-e", "vit2d", "-n", "5"}, "--seq-len"},
	{{"dump", "-e", "rope", "--factor", "2", "--table", "inv_freq"},
	     "--rope-scaling default"},
	{{"dump", "-e", "rope", "--rope-scaling", "linear", "--no-truncate",
	     "--table", "inv_freq"}, "--no-truncate"},
	{{"dump", "-e", "rope", "--rope-scaling", "llama3", "--beta-fast", "8",
	     "--table", "inv_freq"}, "applies to yarn"},
	{{"dump", "-e", "relative", "--relative", "shaw", "--buckets", "8",
	     "--table", "index"}, "--buckets"},
	{{"dump", "-e", "alibi", "-d", "8", "--table", "slopes"}, "--d-model"},
	{{"dump", "-e", "sinusoidal", "--head", "1", "--table", "pe"}, "--head"},
	{{"dump", "-e", "alibi", "--head", "1", "--table", "slopes"},
	     "no head axis"},
	{{"snapshot", "-e", "rope", "--head", "1"}, "--head"},
	{{"dump", "--size", "80x24", "--table", "pe"}, "--size"},
	{{"bench", "-e", "rope"}, "does not apply to bench"},
	/* abbreviations go through the one parser */
	{{"--conf", "/nonexistent/p"}, "No such file or directory"},
	{{"--pre", "x"}, "ambiguous"},
	/* a table only with -e learned, in either order */
	{{"dump", "-e", "sinusoidal", "--table-file", "/dev/zero", "--table",
	     "pe"}, "not a regular file"},
	/* below the smallest frame */
	{{"snapshot", "--size", "10x5"}, "at least 80x24"},
	/* one rule for numbers: no spaces, tabs, hex or commas */
	{{"dump", "-n", "\t5", "--table", "pe"}, "--seq-len"},
	{{"dump", "-n", " 5", "--table", "pe"}, "--seq-len"},
	{{"dump", "--base", " 2", "--table", "pe"}, "--base"},
	{{"dump", "--base", "0x10", "--table", "pe"}, "--base"},
	{{"dump", "--base", "1,5", "--table", "pe"}, "--base"},
	{{"dump", "--quick", "--table", "pe"}, "--quick"},
	{{"dump", "-e", "rope", "-d", "4", "--rope-scaling", "longrope",
	     "--short-factor", "1,1 2", "--long-factor", "1,0x2", "--table",
	     "inv_freq"}, "--long-factor"},
	/* the toy attention and the worked examples */
	{{"dump", "-e", "nope", "--tokens", "", "--table", "scores"},
	    "--tokens"},
	{{"dump", "-e", "nope", "--tokens", " \t ", "--table", "scores"},
	    "1..64"},
	{{"dump", "-e", "nope", "--tokens", "@65", "--table", "scores"},
	    "--tokens: 65 words"},
	{{"dump", "-e", "nope", "--permute", "0,1,1,2,3", "--table", "scores"},
	    "--permute"},
	{{"dump", "-e", "nope", "--permute", "0,1,2", "--table", "attention"},
	    "permutation of 0..4"},
	{{"dump", "-e", "nope", "--permute", "0,1.5,2,3,4", "--table",
	     "scores"}, "--permute"},
	{{"dump", "-e", "nope", "--permute", "0,x", "--table", "scores"},
	    "--permute"},
	{{"dump", "-e", "sinusoidal", "-d", "4", "--embedding", "1,2,3",
	     "--table", "sum"}, "--embedding: 3 numbers"},
	{{"dump", "-e", "sinusoidal", "-d", "4", "--embedding", "1,x,3,4",
	     "--table", "sum"}, "--embedding"},
	{{"dump", "-e", "rope", "-d", "4", "--embedding", "1,2,3,4,5",
	     "--table", "rotated"}, "--embedding"},
	{{"dump", "-e", "relative", "--bias-file", "@FIX/f4_3x4.npy", "--table",
	     "scores"}, "--bias-file"},
	{{"dump", "-e", "relative", "--bias-file", "@FIX/cube_2x2x2.npy",
	     "--table", "scores"}, "--bias-file"},
	{{"dump", "-e", "relative", "--relative", "shaw", "--max-relative", "3",
	     "--bias-file", "@FIX/vector_5.npy", "--table", "scores"},
	    "shaw needs 7"},
	{{"dump", "-e", "relative", "--relative", "shaw", "--max-relative", "2",
	     "--bias-file", "@FIX/vector_5.npy", "--head", "1", "--table",
	     "scores"}, "--head 1"},
	{{"dump", "-e", "sinusoidal", "--shift", "64", "--table", "shift"},
	    "--shift 64"},
	{{"dump", "-e", "sinusoidal", "-n", "10", "--shift", "-10", "--table",
	     "shift"}, "-9..9"},
	{{"dump", "-e", "sinusoidal", "--shift", "1.5", "--table", "shift"},
	    "--shift"},
	{{"dump", "-e", "learned", "--max-len", "3", "--table", "scores"},
	    "--max-len 3"},
	{{"dump", "-e", "alibi", "--mask", "none", "--table", "attention"},
	    "--mask none"},
	{{"dump", "-e", "alibi", "--mask", "sideways", "--table", "attention"},
	    "--mask"},
	{{"dump", "-e", "relative", "--table", "attention"}, "--bias-file"},
	{{"dump", "-e", "vit2d", "--table", "scores"}, "not available"},
	/* mrope */
	{{"dump", "-e", "mrope", "--mrope-section", "16,24,23", "--table",
	     "cos"}, "--mrope-section 16,24,23: the sections cover 63 pairs"},
	{{"dump", "-e", "mrope", "--mrope-section", "16,24", "--table", "cos"},
	    "--mrope-section '16,24': must be T,H,W"},
	{{"dump", "-e", "mrope", "-d", "40", "--table", "cos"},
	    "--d-model 40: mrope's default sections"},
	{{"dump", "-e", "mrope", "--frames", "0", "--table", "positions"},
	    "--frames"},
	{{"dump", "-e", "mrope", "-n", "12", "--table", "positions"},
	    "--seq-len has no effect with -e mrope"},
	{{"dump", "-e", "rope", "--frames", "2", "--table", "cos"},
	    "--frames has no effect with -e rope"},
	{{"dump", "-e", "mrope", "--table", "pe"}, "not available for mrope"},
	{{"dump", "-e", "mrope", "--table", "scores"}, "not available"},
	{{"dump", "-e", "xpos", "--xpos-scale-base", "0", "--table", "scale"},
	    "--xpos-scale-base '0'"},
	{{"dump", "-e", "xpos", "-n", "400000", "--table", "scale"},
	    "--seq-len 400000: xpos's scale"},
	{{"dump", "-e", "xpos", "-d", "7", "--table", "scale"}, "--d-model 7"},
	{{"dump", "-e", "rope", "--xpos-offset", "3", "--table", "cos"},
	    "--xpos-offset has no effect with -e rope"},
	{{"dump", "-e", "xpos", "--table", "positions"}, "not available for xpos"},
	{{"dump", "-e", "rope2d", "-d", "66", "--table", "angles"},
	    "--d-model 66: rope2d needs --d-model divisible by 4"},
	{{"dump", "-e", "rope2d", "--rope2d", "spiral", "--table", "angles"},
	    "--rope2d 'spiral': must be axial or mixed"},
	{{"dump", "-e", "rope2d", "--layer", "1", "--table", "angles"},
	    "--layer has no effect with --rope2d axial"},
	{{"dump", "-e", "rope2d", "--rope2d", "mixed", "--layer", "1", "--table",
	     "angles"}, "--layer 1: the reference initialisation is one block"},
	{{"dump", "-e", "rope2d", "--rope2d", "mixed", "--freqs-file",
	     "@FIX/vector_5.npy", "--table", "angles"}, "the array is [5]"},
	{{"dump", "-e", "rope", "--freqs-file", "@FIX/cube_2x2x2.npy", "--table",
	     "cos"}, "--freqs-file has no effect with -e rope"},
	{{"dump", "-e", "rope2d", "-n", "9", "--table", "angles"},
	    "--seq-len has no effect with -e rope2d"},
	{{"dump", "-e", "sinusoidal", "--shift", "2", "--table", "pe"},
	    "--shift has no effect on dump table pe: it applies to shift"},
	{{"dump", "-e", "nope", "--mask", "none", "--table",
	     "token_embeddings"}, "applies to scores, attention"},
	{{"dump", "-e", "alibi", "--tokens", "a b", "--table", "slopes"},
	    "--tokens has no effect on dump table slopes"},
	{{"dump", "-e", "sinusoidal", "--bias-file", "@FIX/vector_5.npy",
	     "--table", "scores"}, "--bias-file has no effect with -e sinusoidal"},
	{{"dump", "-e", "sinusoidal", "--train-len", "10", "--table", "pe"},
	    "--train-len has no effect on dump table pe"},
	{{"dump", "-e", "nope", "-d", "8", "--table", "start_share"},
	    "--d-model"},
	{{"dump", "-e", "sinusoidal", "--table", "sum"}, "--embedding"},
	{{"dump", "-e", "rope", "--table", "beyond"}, "--train-len"},
	{{"dump", "-e", "rope", "--embedding", "1,2", "--table", "sum"},
	    "not available"},
	{{"snapshot", "--tokens", "a b"}, "--tokens has no effect with --panel "
	    "overview: it applies to --panel attention"},
	{{"snapshot", "--panel", "example", "--embedding", "1,2"},
	    "--embedding: 2 numbers given"},
	{{"snapshot", "--panel", "attention", "--tokens", ""}, "--tokens"},
	{{"snapshot", "--panel", "attention", "--permute", "0,1"},
	    "--permute"},
	{{"snapshot", "-e", "sinusoidal", "--panel", "shift", "--shift", "64"},
	    "--shift 64"},
	{{"snapshot", "-e", "relative", "--panel", "attention", "--bias-file",
	     "@FIX/vector_5.npy"}, "--bias-file"},
	{{"snapshot", "--panel", "decay"}, "--panel decay: -e sinusoidal has "
	    "the panels overview, attention, example and shift"},
	{{"--tokens", "@65"}, "--tokens: 65 words"},
	{{"snapshot", "--theme", "blue"}, "--theme 'blue': must be dark or "
	    "light"},
	{{"dump", "--theme", "light"}, "--theme does not apply to dump"},
	{{"snapshot", "-f", "gif"}, "must be ansi, txt, html, svg, pdf or png"},
	/* issues 12 and 13: --present for the TUI and snapshot, --no-chrome
	 * for snapshot, --record for the TUI */
	{{"snapshot", "--record", "x.cast"}, "--record does not apply to "
	    "snapshot"},
	{{"dump", "-t", "pe", "--record", "x.cast"}, "--record does not apply "
	    "to dump"},
	{{"--no-chrome"}, "--no-chrome does not apply to the TUI"},
	{{"dump", "-t", "pe", "--no-chrome"}, "--no-chrome does not apply to "
	    "dump"},
	{{"dump", "-t", "pe", "--present"}, "--present does not apply to dump"},
	{{"snapshot", "--present", "--no-chrome"}, "--no-chrome has no effect "
	    "with --present"},
	{{"lesson", "--speaker", "--present"}, "--present has no effect with "
	    "--speaker"},
	{{"--record", ""}, "--record: the file name is empty"},
	/* --train (train.h): each bound named with its range */
	{{"dump", "-e", "learned", "--train", "sideways", "-t", "pe"},
	    "--train 'sideways': the task must be offset[:K], reverse, first "
	    "or distance"},
	{{"dump", "-e", "learned", "--train", "offset:64", "-t", "pe"},
	    "--train offset:64: K must be 1..63 (below --seq-len 64)"},
	{{"dump", "-e", "learned", "--train", "offset:0", "-t", "pe"},
	    "--train 'offset:0': K must be an integer in 1..255"},
	{{"dump", "-e", "learned", "--train", "first:2", "-t", "pe"},
	    "only offset takes :K"},
	{{"dump", "-e", "learned", "--train", "offset", "--train-steps",
	     "1000001", "-t", "pe"}, "--train-steps '1000001': must be an "
	    "integer in 0..1000000"},
	{{"dump", "-e", "learned", "--train", "offset", "--lr", "0", "-t",
	     "pe"}, "--lr '0': must be a finite number > 0"},
	{{"dump", "-e", "learned", "--train", "offset", "--lr", "-1e-3", "-t",
	     "pe"}, "--lr '-1e-3': must be a finite number > 0"},
	{{"dump", "-e", "learned", "--train", "offset", "--lr", "inf", "-t",
	     "pe"}, "--lr 'inf': must be a finite decimal number"},
	{{"dump", "-e", "learned", "--train", "offset", "--lr", "nan", "-t",
	     "pe"}, "--lr 'nan': must be a finite decimal number"},
	{{"dump", "-e", "learned", "--train", "offset", "-d", "129", "-t",
	     "pe"}, "--d-model 129: training needs 1..128"},
	{{"dump", "-e", "learned", "--train", "offset", "-n", "257", "-t",
	     "pe"}, "--seq-len 257: training needs 2..256"},
	{{"dump", "-e", "learned", "--train", "offset", "--vocab", "65", "-t",
	     "pe"}, "--vocab '65': must be an integer in 2..64"},
	{{"dump", "-e", "learned", "--train", "offset", "--heads", "3", "-t",
	     "pe"}, "--heads 3: must divide --d-model 32 (1..32)"},
	{{"dump", "-e", "learned", "--lr", "0.1", "-t", "pe"},
	    "--lr: needs --train TASK"},
	{{"dump", "-e", "learned", "--train-steps", "5", "-t", "pe"},
	    "--train-steps: needs --train TASK"},
	{{"dump", "-e", "learned", "--train", "distance", "--vocab", "8", "-t",
	     "pe"}, "--vocab has no effect with --train distance"},
	{{"dump", "-e", "learned", "--train", "offset", "--max-len", "10",
	     "-t", "pe"}, "--max-len has no effect with --train"},
	{{"dump", "-e", "rope", "--train", "offset", "-t", "angles"},
	    "--train has no effect with -e rope: it applies to learned"},
	{{"dump", "-e", "learned", "-t", "loss"},
	    "--table loss needs --train TASK"},
	{{"snapshot", "-e", "learned", "--train", "offset", "-d", "768"},
	    "--d-model 768: training needs 1..128"},
	{{"--record", "/nonexistent/x.cast"}, "--record '/nonexistent/x.cast': "
	    "cannot create a file there: No such file or directory"},
};

Test(cli, bad_input_exits_2_and_names_the_option)
{
	char many[3 * 65 + 1] = "";
	for (int w = 0; w < 65; w++)
		strcat(many, "ab ");
	for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
		const char *a[18] = {"pescope"};
		size_t n = 1;
		char fx[4][1024];
		for (; bads[i].args[n - 1] != NULL; n++) { /* @FIX/: a fixture */
			const char *arg = bads[i].args[n - 1];
			if (strncmp(arg, "@FIX/", 5) == 0)
				a[n] = strcpy(fx[n % 4], th_fixture(arg + 5));
			else /* @65: a sentence of 65 words */
				a[n] = strcmp(arg, "@65") == 0 ? many : arg;
		}
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

/* --train: the table after N steps is the same bytes on every run; the
 * loss table has a row per step, the held-out columns every 10 steps; a
 * step count above the run's shows a different table. */
Test(cli, train_dump_is_reproducible)
{
	const char *a[] = {"pescope", "dump", "-e", "learned", "--train",
	    "offset:3", "--train-steps", "12", "-t", "pe", "--dtype", "f64",
	    NULL};
	char *out1, *out2, *out3, *err;
	cr_assert_eq(run(a, &out1, &err), 0, "%s", err);
	free(err);
	cr_assert_eq(run(a, &out2, &err), 0, "%s", err);
	free(err);
	cr_expect_str_eq(out1, out2);
	a[7] = "11";
	cr_assert_eq(run(a, &out3, &err), 0, "%s", err);
	free(err);
	cr_expect_str_neq(out1, out3);
	double v[40];
	cr_expect_eq(csv_row(out1, v, 40), 32, "d 32 columns by default");
	free(out1), free(out2), free(out3);

	const char *l[] = {"pescope", "dump", "-e", "learned", "--train",
	    "first", "--train-steps", "12", "-t", "loss", NULL};
	char *out;
	cr_assert_eq(run(l, &out, &err), 0, "%s", err);
	const char *line = out;
	for (int s = 0; s <= 12; s++) {
		cr_assert_eq(csv_row(line, v, 8), 4, "row %d", s);
		cr_expect_eq(v[0], s);
		cr_expect_eq(isnan(v[1]), s == 0, "step %d's loss", s);
		cr_expect_eq(isnan(v[3]), s % 10 != 0, "step %d's accuracy", s);
		if (s % 10 == 0)
			cr_expect(v[3] >= 0 && v[3] <= 1);
		line = strchr(line, '\n') + 1;
	}
	cr_expect_str_empty(line);
	free(out), free(err);
}

/* The fixture table copied into a buffer of the caller's (th_fixture's
 * buffer is static). */
static const char *
fixture(const char *name, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s", th_fixture(name));
	return buf;
}

/* --table-file does not choose the encoding, in either order,
 * and its width does not become another encoding's d_model. */
Test(cli, table_file_needs_learned_in_either_order)
{
	char fx[1024], *out, *err;
	fixture("f4_3x4.npy", fx, sizeof fx);
	const char *a[] = {"pescope", "dump", "-e", "sinusoidal", "--table-file",
	    fx, "--table", "pe", NULL};
	const char *b[] = {"pescope", "dump", "--table-file", fx, "-e",
	    "sinusoidal", "--table", "pe", NULL};
	const char *c[] = {"pescope", "snapshot", "--table-file", fx, NULL};
	const char *const *all[] = {a, b, c};
	for (int i = 0; i < 3; i++) {
		cr_expect_eq(run(all[i], &out, &err), 2, "case %d", i);
		cr_expect(strstr(err, "-e learned") != NULL, "%s", err);
		cr_expect_str_empty(out);
		free(out), free(err);
	}
	const char *d[] = {"pescope", "dump", "-e", "learned", "--table-file",
	    "/nonexistent/t.npy", "--table", "pe", NULL};
	expect_exit(d, 2, "No such file or directory");
}

/* A message quoting an argument does not send its control
 * bytes to the terminal. */
Test(cli, messages_escape_control_bytes)
{
	char *out, *err;
	const char *a[] = {"pescope", "-e", "\x1b]0;pwned\x07\x1b[2J\xc2\x9b", NULL};
	cr_assert_eq(run(a, &out, &err), 2);
	cr_expect(strchr(err, 0x1b) == NULL && strchr(err, 0x07) == NULL,
	    "raw control bytes in: %s", err);
	cr_expect(strstr(err, "\\x1b]0;pwned\\x07\\x1b[2J\\u009b") != NULL, "%s",
	    err);
	free(out), free(err);

	/* the same from a config's value */
	char *dir = th_tmpdir(), path[512];
	snprintf(path, sizeof path, "%s/c.json", dir);
	FILE *fp = fopen(path, "w");
	fputs("{\"model_type\": \"\\u001b[31mred\", \"num_hidden_layers\": "
	    "2}\n", fp);
	fclose(fp);
	const char *b[] = {"pescope", "snapshot", "--config", path, NULL};
	cr_assert_eq(run(b, &out, &err), 2);
	cr_expect(strchr(err, 0x1b) == NULL, "%s", err);
	cr_expect(strstr(err, "model_type") != NULL, "%s", err);
	free(out), free(err);
	unlink(path);
	rmdir(dir);
	free(dir);
}

/* A layer whose rope_type pescope does not compute is not drawn as if it
 * were the model's: snapshot names the key and the kinds it knows, and
 * draws no map (dump refuses the layer's tables). */
Test(cli, unknown_rope_type_is_not_drawn)
{
	char *out, *err;
	char *dir = th_tmpdir(), path[512];
	snprintf(path, sizeof path, "%s/bogus.json", dir);
	FILE *fp = fopen(path, "w");
	fputs("{\"model_type\": \"llama\", \"hidden_size\": 4096,"
	    " \"num_attention_heads\": 32, \"num_hidden_layers\": 2,"
	    " \"max_position_embeddings\": 4096, \"rope_theta\": 10000.0,"
	    " \"rope_scaling\": {\"rope_type\": \"bogus\"}}\n", fp);
	fclose(fp);
	const char *a[] = {"pescope", "snapshot", "-e", "rope", "--config", path,
	    "--size", "120x40", "-f", "txt", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, "θ[m, j]") == NULL, "a RoPE map drawn:\n%s", out);
	cr_expect(strstr(out, "not drawn") != NULL, "%s", out);
	cr_expect(strstr(out, "bogus") != NULL, "%s", out);
	cr_expect(strstr(out, "yarn") != NULL && strstr(out, "llama3") != NULL,
	    "the known kinds: %s", out);
	free(out), free(err);
	const char *b[] = {"pescope", "dump", "--config", path, NULL};
	cr_expect_eq(run(b, &out, &err), 2);
	free(out), free(err);
	unlink(path);
	rmdir(dir);
	free(dir);
}

/* A bad output path costs nothing: refused before the work
 * (this table would take seconds and gigabytes). */
Test(cli, bad_output_path_is_refused_first)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-d", "8192", "-n", "65536", "-t",
	    "pe", "-o", "/nonexistent/x.csv", NULL};
	const char *b[] = {"pescope", "snapshot", "-o", "/nonexistent/x.txt",
	    NULL};
	const char *const *all[] = {a, b};
	for (int i = 0; i < 2; i++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		cr_expect_eq(run(all[i], &out, &err), 2);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		cr_expect(strstr(err, "No such file or directory") != NULL, "%s",
		    err);
		double s = (double)(t1.tv_sec - t0.tv_sec) +
		    1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		cr_expect(s < 1.0, "took %.2f s: the work ran first", s);
		free(out), free(err);
	}
}

/* A preset that the command line or a key changed says so. */
Test(cli, preset_modified_is_shown)
{
	char *out, *err;
	const char *a[] = {"pescope", "snapshot", "--preset", "llama-3.1-8b",
	    "-f", "txt", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, "preset llama-3.1-8b") != NULL);
	cr_expect(strstr(out, "(modified)") == NULL);
	free(out), free(err);
	/* saying the preset's own values again is no change */
	const char *same[] = {"pescope", "snapshot", "--preset", "llama-3.1-8b",
	    "-e", "rope", "--factor", "8", "-f", "txt", NULL};
	cr_assert_eq(run(same, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, "(modified)") == NULL);
	free(out), free(err);
	const char *b[] = {"pescope", "snapshot", "--preset", "llama-3.1-8b",
	    "--factor", "16", "-f", "txt", NULL};
	cr_assert_eq(run(b, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, "preset llama-3.1-8b (modified)") != NULL);
	free(out), free(err);
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

	/* a folder that does not exist: refused before any work, exit 2 with
	 * errno's reason, nothing created */
	char ro[512];
	snprintf(ro, sizeof ro, "%s/missing/pe.csv", dir);
	const char *c[] = {"pescope", "dump", "--table", "pe", "-o", ro, NULL};
	cr_assert_eq(run(c, &out, &err), 2);
	cr_assert(strstr(err, "missing") != NULL);
	cr_assert(strstr(err, "No such file or directory") != NULL, "%s", err);
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
	const char *a[] = {"pescope", "dump", "-e", "learned", "--table-file",
	    th_fixture("f4_3x4.npy"), "-n", "6", "--table", "pe", NULL};
	const char *fx = th_fixture("f4_3x4.npy");
	if (access(fx, R_OK) != 0)
		cr_skip("fixture %s missing", fx);
	char fxcopy[1024];
	snprintf(fxcopy, sizeof fxcopy, "%s", fx);
	a[5] = fxcopy;
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	/* rows 3..5 are past the table: nan */
	cr_assert(strstr(out, "nan,nan,nan,nan\nnan") != NULL, "%s", out);
	free(out), free(err);

	const char *b[] = {"pescope", "dump", "-e", "learned", "--table-file",
	    fxcopy, "-d", "8",
	    "--table", "pe", NULL};
	expect_exit(b, 2, "--d-model");

	/* truncated and garbage files */
	char *dir = th_tmpdir(), bad[512];
	snprintf(bad, sizeof bad, "%s/bad.npy", dir);
	size_t len;
	char *buf = th_slurp(fxcopy, &len);
	FILE *fp = fopen(bad, "wb");
	fwrite(buf, 1, len - 7, fp);
	fclose(fp);
	free(buf);
	const char *c[] = {"pescope", "dump", "-e", "learned", "--table-file",
	    bad, "--table", "pe", NULL};
	expect_exit(c, 2, "--table-file");
	fp = fopen(bad, "wb");
	fputs("\x93NUMPY garbage", fp);
	fclose(fp);
	cr_assert_eq(run(c, &out, &err), 2);
	free(out), free(err);
	unlink(bad);
	rmdir(dir);
	free(dir);
}

/* The words of text joined by single spaces (undoes --list-presets'
 * wrapping). */
static void
squeeze(char *text)
{
	char *o = text;
	bool blank = false;
	for (char *p = text; *p != '\0'; p++) {
		bool b = *p == ' ' || *p == '\n';
		if (!(b && blank))
			*o++ = b ? ' ' : *p;
		blank = b;
	}
	*o = '\0';
}

Test(cli, presets_load_and_list)
{
	char *out, *err;
	const char *a[] = {"pescope", "--list-presets", NULL};
	cr_assert_eq(run(a, &out, &err), 0);
	/* lines are wrapped at 79 columns */
	for (char *l = out; *l != '\0';) {
		size_t n = strcspn(l, "\n");
		cr_expect_leq(n, 79, "%.*s", (int)n, l);
		l += n + (l[n] == '\n');
	}
	squeeze(out);
	size_t n = 0;
	for (; pe_preset_name(n) != NULL; n++) {
		const char *name = pe_preset_name(n);
		/* each with its description and source, as the
		 * file's _pescope object has them */
		char rel[256];
		snprintf(rel, sizeof rel, "assets/models/%s.json", name);
		json_error_t je;
		json_t *j = json_load_file(th_src(rel), 0, &je);
		cr_assert_not_null(j, "%s: %s", rel, je.text);
		json_t *p = json_object_get(j, "_pescope");
		const char *d = json_string_value(json_object_get(p,
		    "description"));
		const char *src = json_string_value(json_object_get(p, "source"));
		cr_assert(d != NULL && src != NULL, "%s", rel);
		char want[2048];
		snprintf(want, sizeof want, "%s %s source: %s ", name, d, src);
		squeeze(want);
		cr_expect(strstr(out, want) != NULL, "%s: no lines '%s'", name,
		    want);
		json_decref(j);
	}
	cr_expect_geq(n, 25);
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

	/* pescope model NAME: a preset, when no file has the name */
	const char *m[] = {"pescope", "model", "gemma-3-4b", NULL};
	cr_assert_eq(run(m, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, "AAAAABAAAAAB") != NULL, "%s", out);
	free(out), free(err);
	const char *m2[] = {"pescope", "model", "no-such-model", NULL};
	expect_exit(m2, 2, "no-such-model");
	/* which is neither a file nor a preset, and says where the names
	 * are; a config that is not JSON names the option it came from, and
	 * an unknown option points at one help only */
	expect_exit(m2, 2, "nor a preset (`pescope --list-presets`");
	const char *m3[] = {"pescope", "snapshot", "--config", "/etc/passwd",
	    "-o", "/dev/null", NULL};
	expect_exit(m3, 2, "--config: /etc/passwd:");
	const char *m4[] = {"pescope", "snapshot", "--bogus", NULL};
	char *out4, *err4;
	cr_expect_eq(run(m4, &out4, &err4), 2);
	cr_expect(strstr(err4, "see `pescope --help`") == NULL, "%s", err4);
	cr_expect(strstr(err4, "pescope snapshot --help") != NULL, "%s", err4);
	free(out4), free(err4);
}

/* I/O failures say errno's reason (here: no space). */
Test(cli, write_errors_say_why)
{
	if (access("/dev/full", W_OK) != 0)
		cr_skip("no /dev/full");
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-t", "pe", "-o", "/dev/full", NULL};
	const char *b[] = {"pescope", "snapshot", "-o", "/dev/full", NULL};
	const char *const *all[] = {a, b};
	for (int i = 0; i < 2; i++) {
		cr_expect_eq(run(all[i], &out, &err), 1);
		cr_expect(strstr(err, "No space left on device") != NULL, "%s", err);
		free(out), free(err);
	}
}

/* ALiBi's diagonal is 0, not -0 (-m * 0 in IEEE arithmetic is -0). */
Test(cli, alibi_bias_has_no_negative_zero)
{
	char *out, *err;
	const char *a[] = {"pescope", "dump", "-e", "alibi", "-n", "5",
	    "--table", "bias", "--head", "2", "--alibi-mode", "symmetric", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, "-0,") == NULL && strstr(out, "-0\n") == NULL,
	    "%s", out);
	free(out), free(err);
}

/* --record without a terminal: refused like the TUI (exit 2), and the
 * file it had created is gone again. */
Test(cli, record_without_a_terminal_leaves_no_file)
{
	char path[] = "/tmp/pescope-record-XXXXXX", cast[64], *out, *err;
	cr_assert_not_null(mkdtemp(path));
	snprintf(cast, sizeof cast, "%s/x.cast", path);
	const char *a[] = {"pescope", "--record", cast, NULL};
	cr_expect_eq(run(a, &out, &err), 2);
	cr_expect(strstr(err, "not a terminal") != NULL, "%s", err);
	cr_expect_neq(access(cast, F_OK), 0, "%s was left behind", cast);
	free(out), free(err);
	rmdir(path);
}

/* A pane's header in compare mode keeps what differs from the other
 * pane when it cannot keep everything: at 80 columns, pane B's "yarn x4"
 * (the one setting that differs) was cut and both headers read the same. */
Test(cli, compare_headers_keep_what_differs)
{
	const char *argv[] = {"pescope", "snapshot", "-e", "rope", "-d", "128",
	    "--preset", "llama-2-7b", "--compare", "--rope-scaling yarn "
	    "--factor 4", "--size", "80x24", "-f", "txt", NULL};
	char *out, *err;
	cr_assert_eq(run(argv, &out, &err), 0, "%s", err);
	char *l2 = strchr(out, '\n');
	cr_assert_not_null(l2);
	char *end = strchr(l2 + 1, '\n');
	cr_assert_not_null(end);
	*end = '\0';
	char *bar = strstr(l2, "\u2502"); /* the panes' divider */
	cr_assert_not_null(bar, "%s", l2);
	cr_expect(strstr(bar, "yarn \u00d74") != NULL, "pane B: %s", bar);
	*bar = '\0';
	cr_expect(strstr(l2, "yarn") == NULL, "pane A has no yarn: %s", l2);
	free(out), free(err);
}

/* --compare: pane B's options are config options applied on top of A's;
 * a bad one is refused with exit 2 naming the pane, nothing written (the
 * -o file is not created); dump takes one configuration. */
Test(cli, compare_refusals_name_pane_b)
{
	static const struct {
		const char *opts, *needle;
	} cbads[] = {
		{"--d-model 63", "--compare (pane B): --d-model 63"},
		{"-e rope --partial-rotary 0.3", "--compare (pane B): "},
		{"--output x.txt", "--compare (pane B): --output is not a config "
		    "option"},
		{"--compare '-e rope'", "--compare (pane B): --compare is not a "
		    "config option"},
		{"--size 100x30", "--compare (pane B): --size is not a config"},
		{"snapshot -e rope", "--compare (pane B): 'snapshot' is not an "
		    "option"},
		{"-e 'rope", "--compare (pane B): '-e 'rope': a quote is not "
		    "closed"},
		{"  ", "--compare (pane B): no options"},
		{"--factor 4", "--compare (pane B): --factor has no effect with -e "
		    "sinusoidal"},
		{"--no-such", "--compare (pane B): unknown option '--no-such'"},
		{"-e vit2d --tokens 'a b'", "--compare (pane B): --tokens has no "
		    "effect with -e vit2d"},
		{"--preset nope-preset", "--compare (pane B): --preset "
		    "'nope-preset': unknown preset"},
	};
	char *dir = th_tmpdir();
	char path[1100];
	snprintf(path, sizeof path, "%s/frame.txt", dir);
	for (size_t i = 0; i < sizeof cbads / sizeof cbads[0]; i++) {
		const char *a[] = {"pescope", "snapshot", "-e", "sinusoidal",
		    "--compare", cbads[i].opts, "-o", path, NULL};
		char *out, *err;
		int st = run(a, &out, &err);
		cr_expect_eq(st, 2, "'%s': status %d, %s", cbads[i].opts, st, err);
		cr_expect(strstr(err, cbads[i].needle) != NULL, "'%s': stderr lacks "
		    "'%s': %s", cbads[i].opts, cbads[i].needle, err);
		cr_expect_eq(th_dir_count(dir), 0, "'%s': a file was written",
		    cbads[i].opts);
		free(out), free(err);
	}
	/* dump: one configuration at a time */
	const char *d[] = {"pescope", "dump", "-t", "pe", "--compare", "-e rope",
	    NULL};
	char *out, *err;
	cr_expect_eq(run(d, &out, &err), 2);
	cr_expect(strstr(err, "--compare does not apply to dump") != NULL, "%s",
	    err);
	free(out), free(err);
	free(dir);
}

/* --compare applies its options on top of A's: B keeps A's -d and takes
 * its own preset over it, quotes group words, and the frame is split. */
Test(cli, compare_applies_on_top)
{
	const char *a[] = {"pescope", "snapshot", "-e", "rope", "-d", "128",
	    "--preset", "llama-2-7b", "--compare",
	    "--rope-scaling \"yarn\" --factor '4'", "-f", "txt", NULL};
	char *out, *err;
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, " A  head_dim 128") != NULL, "%s", out);
	/* B's line says what it shares with A where it has room */
	const char *wide[] = {"pescope", "snapshot", "-e", "rope", "-d", "128",
	    "--preset", "llama-2-7b", "--compare", "--rope-scaling yarn "
	    "--factor 4", "-f", "txt", "--size", "200x60", NULL};
	char *wout, *werr;
	cr_assert_eq(run(wide, &wout, &werr), 0, "%s", werr);
	cr_expect(strstr(wout, " B  head_dim 128") != NULL, "B keeps A's -d");
	free(wout), free(werr);
	cr_expect(strstr(out, "yarn ×4") != NULL, "B is yarn x4");
	cr_expect(strstr(out, "shared scale") != NULL, "angles on both sides");
	cr_expect(strstr(out, "A − B") != NULL, "a difference strip");
	free(out), free(err);

	const char *b[] = {"pescope", "snapshot", "-e", "sinusoidal",
	    "--compare", "-e rope", "-f", "txt", NULL};
	cr_assert_eq(run(b, &out, &err), 0, "%s", err);
	cr_expect(strstr(out, "no difference: A is 64×64 positions × dims, B "
	    "is 64×32 positions × pairs") != NULL, "%s", out);
	cr_expect(strstr(out, "own scale") != NULL, "PE values and angles");
	free(out), free(err);
}

/* The aliases the owning modules know work on the command line: --color
 * 24bit is truecolor (palette.c), -f text is txt (the writer's table). */
Test(cli, color_and_format_aliases)
{
	char *out, *err, *out2, *err2;
	const char *a[] = {"pescope", "snapshot", "--size", "80x24", "--color",
	    "24bit", NULL};
	const char *b[] = {"pescope", "snapshot", "--size", "80x24", "--color",
	    "truecolor", NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	cr_assert_eq(run(b, &out2, &err2), 0, "%s", err2);
	cr_expect_str_eq(out, out2, "--color 24bit is not truecolor's frame");
	cr_expect(strstr(out, "\033[") != NULL && strstr(out, ";2;") != NULL,
	    "no 24-bit SGR in the frame");
	free(out), free(err), free(out2), free(err2);
	const char *c[] = {"pescope", "snapshot", "--size", "80x24", "-f", "text",
	    NULL};
	const char *d[] = {"pescope", "snapshot", "--size", "80x24", "-f", "txt",
	    NULL};
	cr_assert_eq(run(c, &out, &err), 0, "%s", err);
	cr_assert_eq(run(d, &out2, &err2), 0, "%s", err2);
	cr_expect_str_eq(out, out2, "-f text is not txt's frame");
	cr_expect(strchr(out, '\033') == NULL, "plain text has no escapes");
	free(out), free(err), free(out2), free(err2);
}

/* pescope CMD --help prints that command's usage and options only. */
Test(cli, help_of_each_command)
{
	static const struct {
		const char *cmd;
		const char *has[4], *lacks[4];
	} cases[] = {
		{"snapshot", {"Usage: pescope snapshot", "--d-model", "--format",
		    "has no effect"}, {"--speaker", "--quick", "--record FILE",
		    "--threads"}},
		{"lesson", {"Usage: pescope lesson [NAME]", "--speaker", "--list",
		    "--present"}, {"--table", "--d-model", "--threads", "--all"}},
		{"dump", {"Usage: pescope dump --table T", "--table", "--dtype",
		    "--d-model"}, {"--speaker", "--present", "--size WxH", "--panel"}},
		{"bench", {"Usage: pescope bench", "--quick", "--tables", "--size"},
		    {"--d-model", "--format", "--speaker", "--table "}},
		{"completion", {"Usage: pescope completion bash|zsh", "--help",
		    NULL}, {"--d-model", "--format", "--version", NULL}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *a[] = {"pescope", cases[i].cmd, "--help", NULL};
		char *out, *err;
		cr_expect_eq(run(a, &out, &err), 0, "%s --help: %s", cases[i].cmd,
		    err);
		cr_expect_str_empty(err);
		for (int k = 0; k < 4 && cases[i].has[k] != NULL; k++)
			cr_expect(strstr(out, cases[i].has[k]) != NULL,
			    "%s --help lacks %s", cases[i].cmd, cases[i].has[k]);
		for (int k = 0; k < 4 && cases[i].lacks[k] != NULL; k++)
			cr_expect(strstr(out, cases[i].lacks[k]) == NULL,
			    "%s --help lists %s", cases[i].cmd, cases[i].lacks[k]);
		free(out), free(err);
	}
	/* without a command: every command and every option */
	const char *b[] = {"pescope", "--help", NULL};
	char *out, *err;
	cr_assert_eq(run(b, &out, &err), 0);
	cr_expect(strstr(out, "--speaker") && strstr(out, "--quick") &&
	    strstr(out, "--table") && strstr(out, "pescope lesson [NAME]"),
	    "%s", out);
	free(out), free(err);
	/* a refusal points at the command's own help */
	const char *c[] = {"pescope", "dump", "--speaker", NULL};
	expect_exit(c, 2, "Try 'pescope dump --help'");
}

/* pescope lesson NAME is pescope lesson --lesson NAME. */
Test(cli, lesson_name_as_an_argument)
{
	char *out, *err, *out2, *err2;
	const char *a[] = {"pescope", "lesson", "intro", "--list", NULL};
	const char *b[] = {"pescope", "lesson", "--lesson", "intro", "--list",
	    NULL};
	cr_assert_eq(run(a, &out, &err), 0, "%s", err);
	cr_assert_eq(run(b, &out2, &err2), 0, "%s", err2);
	cr_expect_str_eq(out, out2);
	cr_expect(strstr(out, "intro:") != NULL, "%s", out);
	free(out), free(err), free(out2), free(err2);
	const char *c[] = {"pescope", "lesson", "no-such-lesson", "--list", NULL};
	cr_expect_eq(run(c, &out, &err), 2);
	cr_expect(strstr(err, "no-such-lesson") != NULL, "%s", err);
	cr_expect_str_empty(out);
	free(out), free(err);
	const char *d[] = {"pescope", "lesson", "intro", "extra", NULL};
	expect_exit(d, 2, "unexpected argument 'extra'");
}
