/* The option parser without a process: values land in the config, every
 * refusal explains itself, and the parser can run twice. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "app/options.h"

/* Parse a NULL-terminated argv; returns the status, message in err. */
static int
parse(struct pe_options *o, char *err, const char **args)
{
	int n = 0;
	while (args[n] != NULL)
		n++;
	return pe_options_parse(o, n, (char **)args, err, 512);
}

Test(options, defaults)
{
	struct pe_options o;
	char err[512];
	const char *a[] = {"pescope", NULL};
	cr_assert_eq(parse(&o, err, a), 0);
	cr_assert_eq(o.cmd, PE_CMD_TUI);
	cr_assert_eq(o.cfg.enc, PE_ENC_SINUSOIDAL);
	cr_assert_eq(o.cfg.d, 64);
	cr_assert_eq(o.cfg.n, 64);
	cr_assert_eq(o.cfg.base, 10000.0);
	cr_assert_eq(o.width, 120);
	cr_assert_eq(o.height, 40);
	cr_assert_eq(o.depth, -1);
	pe_options_free(&o);
}

Test(options, values_land_in_the_config)
{
	struct pe_options o;
	char err[512];
	const char *a[] = {"pescope", "snapshot", "-e", "rope", "-d", "128", "-n",
	    "4096", "--base=500000", "--pairing", "interleaved", "--rope-scaling",
	    "yarn", "--factor", "8", "--original-max-pos", "2048", "--no-truncate",
	    "--cursor", "7,3", "--size", "200x60", "--color", "256", "-f", "html",
	    "-o", "x.html", NULL};
	cr_assert_eq(parse(&o, err, a), 0, "%s", err);
	cr_assert_eq(o.cmd, PE_CMD_SNAPSHOT);
	cr_assert_eq(o.cfg.enc, PE_ENC_ROPE);
	cr_assert_eq(o.cfg.d, 128);
	cr_assert_eq(o.cfg.n, 4096);
	cr_assert_eq(o.cfg.base, 500000.0);
	cr_assert_eq(o.cfg.pairing, PE_PAIR_INTERLEAVED);
	cr_assert_eq(o.cfg.rope.type, PE_ROPE_YARN);
	cr_assert_eq(o.cfg.rope.factor, 8.0);
	cr_assert_eq(o.cfg.rope.original_max_pos, 2048);
	cr_assert(!o.cfg.rope.truncate);
	cr_assert(o.cursor_given);
	cr_assert_eq(o.cursor_p, 7);
	cr_assert_eq(o.cursor_j, 3);
	cr_assert_eq(o.width, 200);
	cr_assert_eq(o.height, 60);
	cr_assert_eq(o.depth, PE_DEPTH_256);
	cr_assert_eq(o.snap_format, PE_FMT_HTML);
	cr_assert_str_eq(o.output, "x.html");
	pe_options_free(&o);
}

Test(options, factor_lists_inline_and_refused)
{
	struct pe_options o;
	char err[512];
	const char *a[] = {"pescope", "dump", "-e", "rope", "-d", "8",
	    "--rope-scaling", "longrope", "--short-factor", "1,1.5,2,3",
	    "--long-factor", "[1 2 4 8]", "--table", "inv_freq", NULL};
	cr_assert_eq(parse(&o, err, a), 0, "%s", err);
	cr_assert_eq(o.cfg.rope.n_short, 4);
	cr_assert_eq(o.cfg.rope.long_factor[3], 8.0);
	pe_options_free(&o);
	const char *b[] = {"pescope", "dump", "-e", "rope", "-d", "8",
	    "--rope-scaling", "longrope", "--short-factor", "1,x", "--table",
	    "inv_freq", NULL};
	cr_assert_eq(parse(&o, err, b), 2);
	cr_assert(strstr(err, "--short-factor") != NULL, "%s", err);
	pe_options_free(&o);
}

Test(options, refusals_name_option_and_range)
{
	struct pe_options o;
	char err[512];
	const char *a[] = {"pescope", "-d", "0", NULL};
	cr_assert_eq(parse(&o, err, a), 2);
	cr_assert(strstr(err, "--d-model") && strstr(err, "1..1048576"), "%s",
	    err);
	pe_options_free(&o);
	const char *b[] = {"pescope", "-e", "vit2d", "-d", "30", NULL};
	cr_assert_eq(parse(&o, err, b), 2);
	cr_assert(strstr(err, "divisible by 4"), "%s", err);
	pe_options_free(&o);
	const char *c[] = {"pescope", "--table", "pe", NULL};
	cr_assert_eq(parse(&o, err, c), 2);
	cr_assert(strstr(err, "does not apply"), "%s", err);
	pe_options_free(&o);
	const char *d[] = {"pescope", "-e", "relative", "--buckets", "8",
	    "--max-distance", "2", NULL};
	cr_assert_eq(parse(&o, err, d), 2);
	cr_assert(strstr(err, "--max-distance"), "%s", err);
	pe_options_free(&o);
	const char *e[] = {"pescope", "-d", NULL};
	cr_assert_eq(parse(&o, err, e), 2);
	cr_assert(strstr(err, "needs a value"), "%s", err);
	pe_options_free(&o);
}

Test(options, runs_twice)
{
	struct pe_options o;
	char err[512];
	const char *a[] = {"pescope", "-n", "9", NULL};
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(parse(&o, err, a), 0, "%s", err);
		cr_assert_eq(o.cfg.n, 9);
		pe_options_free(&o);
	}
}
