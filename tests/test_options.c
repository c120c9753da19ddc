/* The option parser without a process: values land in the config, every
 * refusal explains itself, and the parser can run twice. */
#include <criterion/criterion.h>
#include <math.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/options.h"
#include "app/app.h"
#include "app/options_table.h"

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

/* issue 8.1: the options own every string they keep: overwriting argv (or
 * freeing a preset's text) after parsing leaves them intact. */
Test(options, strings_are_owned)
{
	struct pe_options o;
	char err[512], table[] = "pe", output[] = "out.csv", preset[] = "gpt2";
	char *a[] = {"pescope", "dump", "--preset", preset, "-t", table, "-o",
	    output, NULL};
	cr_assert_eq(pe_options_parse(&o, 8, a, err, sizeof err), 0, "%s", err);
	memset(table, 'X', sizeof table - 1);
	memset(output, 'X', sizeof output - 1);
	memset(preset, 'X', sizeof preset - 1);
	cr_expect_str_eq(o.table, "pe");
	cr_expect_str_eq(o.output, "out.csv");
	cr_expect_str_eq(o.preset, "gpt2");
	pe_options_free(&o);
}

/* issue 8.10: getopt's abbreviations reach presets too: one parser. */
Test(options, abbreviated_preset_file)
{
	struct pe_options o;
	char err[512], path[] = "/tmp/pescope-abbrev-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	const char text[] = "encoding = alibi\nheads = 12\n";
	cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)sizeof text - 1);
	close(fd);
	const char *a[] = {"pescope", "snapshot", "--preset-f", path, NULL};
	cr_assert_eq(parse(&o, err, a), 0, "%s", err);
	cr_expect_eq(o.cfg.enc, PE_ENC_ALIBI);
	cr_expect_eq(o.cfg.heads, 12);
	pe_options_free(&o);
	const char *b[] = {"pescope", "snapshot", "--preset-file=", NULL};
	cr_expect_eq(parse(&o, err, b), 2);
	pe_options_free(&o);
	unlink(path);
}

/* issue 8.9: the TUI accepts options of other encodings (they set what
 * the other tabs show); snapshot and dump refuse them; presets are
 * exempt everywhere. */
Test(options, other_encodings_options_by_command)
{
	struct pe_options o;
	char err[512];
	const char *a[] = {"pescope", "-e", "sinusoidal", "--heads", "4",
	    "--rope-scaling", "yarn", "--factor", "2", NULL};
	cr_assert_eq(parse(&o, err, a), 0, "%s", err);
	cr_expect_eq(o.cfg.heads, 4);
	pe_options_free(&o);
	const char *b[] = {"pescope", "snapshot", "-e", "sinusoidal", "--heads",
	    "4", NULL};
	cr_assert_eq(parse(&o, err, b), 2);
	cr_expect(strstr(err, "--heads has no effect with -e sinusoidal"), "%s",
	    err);
	pe_options_free(&o);
	/* gpt-neox-20b sets partial-rotary and the rest; with -e sinusoidal
	 * on the command line, the preset's rope settings are not refused */
	const char *c[] = {"pescope", "snapshot", "--preset", "gpt-neox-20b",
	    "-e", "sinusoidal", NULL};
	cr_assert_eq(parse(&o, err, c), 0, "%s", err);
	pe_options_free(&o);
	/* options shared by every table of an encoding are accepted */
	const char *d[] = {"pescope", "dump", "-e", "rope", "-n", "9", "--base",
	    "500", "--pairing", "interleaved", "--dtype", "f64", "-t",
	    "inv_freq", NULL};
	cr_assert_eq(parse(&o, err, d), 0, "%s", err);
	pe_options_free(&o);
	const char *e[] = {"pescope", "dump", "-e", "relative", "--dtype", "f64",
	    "-f", "npy", "-t", "buckets", NULL};
	cr_assert_eq(parse(&o, err, e), 0, "%s", err);
	pe_options_free(&o);
}

/* issue 8.2: numbers are read the same in every locale. */
Test(options, numbers_ignore_the_locale)
{
	struct pe_options o;
	char err[512];
	const char *names[] = {"it_IT.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8"};
	const char *got = NULL;
	for (int i = 0; i < 3 && got == NULL; i++)
		got = setlocale(LC_ALL, names[i]);
	if (got == NULL)
		cr_skip("no comma-decimal locale installed (tests/check_locale.sh "
		    "builds its own)");
	const char *a[] = {"pescope", "--base", "1.5", "-e", "rope",
	    "--rope-scaling", "linear", "--factor", "2.25", NULL};
	cr_expect_eq(parse(&o, err, a), 0, "%s", err);
	cr_expect_eq(o.cfg.base, 1.5);
	cr_expect_eq(o.cfg.rope.factor, 2.25);
	pe_options_free(&o);
	const char *b[] = {"pescope", "--base", "1,5", NULL};
	cr_expect_eq(parse(&o, err, b), 2);
	pe_options_free(&o);
	setlocale(LC_ALL, "C");
}

/* Every long option --help prints is one the parser accepts, and no
 * --help line is wider than 79 columns. */
Test(options, help_lists_only_real_options)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	pe_options_usage(fp);
	fclose(fp);
	int n = 0;
	for (char *p = buf; (p = strstr(p, "--")) != NULL; p += 2) {
		char name[64];
		size_t l = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
		if (l == 0 || l >= sizeof name)
			continue;
		memcpy(name, p + 2, l);
		name[l] = '\0';
		if (name[l - 1] == '-')
			continue;
		char opt[80];
		snprintf(opt, sizeof opt, "--%s", name);
		const char *a[] = {"pescope", opt, "1", NULL};
		struct pe_options o;
		char err[512];
		parse(&o, err, a);
		cr_expect(strstr(err, "unknown option") == NULL &&
		    strstr(err, "ambiguous") == NULL, "%s: %s", opt, err);
		pe_options_free(&o);
		n++;
	}
	cr_expect_gt(n, 40);
	for (char *line = buf; *line != '\0';) {
		size_t l = strcspn(line, "\n");
		cr_expect_leq(l, 79, "wide line: %.*s", (int)l, line);
		line += l + (line[l] == '\n');
	}
	free(buf);
}

/* Found by fuzz_options: bundled short options ("-hVhV...") are several
 * options in one argument. */
Test(options, bundled_short_options)
{
	struct pe_options o;
	char err[512];
	const char *a[] = {"pescope", "-hVhVhVhVhVhVhVhVhVhVhV", "-hV", NULL};
	cr_assert_eq(parse(&o, err, a), 0, "%s", err);
	cr_expect_eq(o.cmd, PE_CMD_VERSION);
	pe_options_free(&o);
}

/* The values a row lists for completion are the values its parser takes:
 * the two cannot drift apart. */
Test(options, completion_values_are_accepted)
{
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		if (r->values == NULL || i == O_TABLE)
			continue;
		char vals[256];
		snprintf(vals, sizeof vals, "%s", r->values);
		for (char *save, *v = strtok_r(vals, " ", &save); v != NULL;
		     v = strtok_r(NULL, " ", &save)) {
			bool dumpfmt = i == O_FORMAT &&
			    (strcmp(v, "csv") == 0 || strcmp(v, "npy") == 0);
			char opt[64];
			snprintf(opt, sizeof opt, "--%s", r->name);
			const char *a[] = {"pescope", dumpfmt ? "dump" : "snapshot",
			    opt, v, "-t", "pe", NULL};
			if (!dumpfmt)
				a[4] = NULL;
			struct pe_options o;
			char err[512] = "";
			parse(&o, err, a);
			cr_expect(strstr(err, "must be") == NULL, "%s %s: %s", opt, v,
			    err);
			pe_options_free(&o);
		}
	}
}

/* --table completes to exactly the tables dump has. */
Test(options, table_values_are_dumps_tables)
{
	char names[512];
	cr_expect_str_eq(pe_opts[O_TABLE].values,
	    pe_dump_table_names(names, sizeof names));
}

/* issue 11: --panel picks the right column, --values the numbers; an
 * option of a panel is refused in snapshot with another panel, and a
 * panel the encoding lacks is refused naming those it has. */
Test(options, panels_and_what_applies_to_them)
{
	static const struct {
		const char *args[12];
		const char *err; /* NULL: accepted */
	} cases[] = {
		{{"snapshot", "--panel", "attention"}, NULL},
		{{"snapshot", "--values"}, NULL},
		{{"snapshot", "-e", "sinusoidal", "--panel", "decay"},
		    "-e sinusoidal has the panels overview, attention, example and "
		    "shift"},
		{{"snapshot", "-e", "vit2d", "--panel", "attention"},
		    "-e vit2d has only its overview"},
		{{"--panel", "shift", "-e", "rope"}, "--panel shift"},
		{{"snapshot", "--panel", "sideways"}, "--panel 'sideways'"},
		{{"snapshot", "--tokens", "a b"},
		    "--tokens has no effect with --panel overview: it applies to "
		    "--panel attention"},
		{{"snapshot", "--panel", "attention", "--tokens", "a b"}, NULL},
		{{"snapshot", "--panel", "example", "--tokens", "a b"},
		    "--tokens has no effect with --panel example"},
		{{"snapshot", "-d", "4", "--embedding", "1,2,3,4"},
		    "--embedding has no effect with --panel overview: it applies "
		    "to --panel example"},
		{{"snapshot", "-d", "4", "--embedding", "1,2,3,4", "--panel",
		     "example"}, NULL},
		{{"snapshot", "-e", "rope", "-d", "4", "--embedding", "1,2,3,4",
		     "--panel", "example"}, NULL},
		{{"snapshot", "--shift", "3", "--panel", "shift"}, NULL},
		{{"snapshot", "--shift", "3", "--panel", "example"},
		    "--shift has no effect with --panel example"},
		{{"snapshot", "-e", "alibi", "-d", "8", "--panel", "attention"},
		    NULL},
		{{"snapshot", "-e", "alibi", "-d", "8"},
		    "--d-model has no effect with -e alibi"},
		{{"snapshot", "-e", "alibi", "--mask", "none", "--panel",
		     "attention"}, "--mask none"},
		{{"snapshot", "-e", "learned", "--max-len", "3", "--panel",
		     "attention"}, "--max-len 3"},
		{{"snapshot", "-e", "nope", "--mask", "none", "--panel",
		     "attention"}, NULL},
		{{"snapshot", "-e", "relative", "--panel", "attention"}, NULL},
		{{"snapshot", "-e", "relative", "--head", "1", "--panel",
		     "attention"}, "--head 1"},
		{{"snapshot", "-e", "relative", "--head", "1"},
		    "--head has no effect with -e relative"},
		{{"snapshot", "-e", "rope", "--train-len", "16"}, NULL},
		{{"snapshot", "-e", "vit2d", "--train-len", "16"},
		    "--train-len has no effect with -e vit2d"},
		{{"snapshot", "-e", "nope", "--panel", "share", "--train-len",
		     "16"}, NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *a[16] = {"pescope"};
		size_t n = 1;
		for (; cases[i].args[n - 1] != NULL; n++)
			a[n] = cases[i].args[n - 1];
		a[n] = NULL;
		struct pe_options o;
		char err[512] = "";
		int rc = parse(&o, err, a);
		if (cases[i].err == NULL)
			cr_expect_eq(rc, 0, "case %zu: %s", i, err);
		else
			cr_expect(rc == 2 && strstr(err, cases[i].err) != NULL,
			    "case %zu: rc %d, '%s' lacks '%s'", i, rc, err,
			    cases[i].err);
		pe_options_free(&o);
	}
	struct pe_options o;
	char err[512];
	const char *b[] = {"pescope", "snapshot", "-e", "rope", "--panel",
	    "decay", "--values", NULL};
	cr_assert_eq(parse(&o, err, b), 0, "%s", err);
	cr_expect_eq(o.panel, PE_PANEL_DECAY);
	cr_expect(o.values);
	pe_options_free(&o);
}
