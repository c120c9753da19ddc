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

/* The options own every string they keep: overwriting argv (or
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

/* getopt's abbreviations reach the model options too: one
 * parser. */
Test(options, abbreviated_config)
{
	struct pe_options o;
	char err[512], path[] = "/tmp/pescope-abbrev-XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	const char text[] = "{\"model_type\": \"bloom\", \"n_head\": 12, "
	    "\"n_layer\": 2}\n";
	cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)sizeof text - 1);
	close(fd);
	const char *a[] = {"pescope", "snapshot", "--conf", path, NULL};
	cr_assert_eq(parse(&o, err, a), 0, "%s", err);
	cr_expect_eq(o.cfg.enc, PE_ENC_ALIBI);
	cr_expect_eq(o.cfg.heads, 12);
	pe_options_free(&o);
	const char *b[] = {"pescope", "snapshot", "--config=", NULL};
	cr_expect_eq(parse(&o, err, b), 2);
	cr_expect(strstr(err, "--config: the file name is empty") != NULL,
	    "%s", err);
	pe_options_free(&o);
	unlink(path);
}

/* The TUI accepts options of other encodings (they set what
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

/* Numbers are read the same in every locale. */
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
	pe_options_usage(fp, pe_commands);
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

/* Whether "pescope CMD --NAME VALUE ..." parses for some command of row r
 * and some encoding (or relative's shaw kind): a value completions offer
 * is one the parser takes somewhere. The last refusal into why. */
static bool
accepted_somewhere(const struct opt_row *r, const char *value, char *why)
{
	char opt[64];
	snprintf(opt, sizeof opt, "--%s", r->name);
	for (int c = 0; c < PE_CMD_COUNT; c++) {
		if (!(r->cmds & (1u << c)) || pe_commands[c].name == NULL)
			continue;
		for (int e = -2; e < PE_ENC_COUNT; e++) {
			const char *a[12] = {"pescope"};
			int n = 1;
			if (pe_commands[c].name[0] != '\0')
				a[n++] = pe_commands[c].name;
			a[n++] = opt;
			a[n++] = value;
			if (e >= 0) {
				a[n++] = "-e";
				a[n++] = pe_encoding_name((enum pe_encoding)e);
			} else if (e == -1) {
				a[n++] = "-e";
				a[n++] = "relative";
				a[n++] = "--relative";
				a[n++] = "shaw";
			}
			if (c == PE_CMD_DUMP && r != &pe_opts[O_TABLE]) {
				a[n++] = "-t";
				a[n++] = "pe";
			}
			if (r == &pe_opts[O_PAPER]) { /* PDF pages */
				a[n++] = "-f";
				a[n++] = "pdf";
			}
			a[n] = NULL;
			struct pe_options o;
			int rc = parse(&o, why, a);
			pe_options_free(&o);
			if (rc == 0)
				return true;
		}
	}
	return false;
}

/* The values a row's completions offer are derived from its choices (the
 * owning module's name table), presets, tables or lessons: every one is
 * accepted by the parser, for some command the row applies to. */
Test(options, derived_values_are_accepted)
{
	int rows = 0;
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		char vals[1024], why[512] = "";
		if (opt_values(r, vals, sizeof vals) == NULL)
			continue;
		rows++;
		for (char *save, *v = strtok_r(vals, " ", &save); v != NULL;
		     v = strtok_r(NULL, " ", &save))
			cr_expect(accepted_somewhere(r, v, why),
			    "--%s %s is offered but refused: %s", r->name, v, why);
	}
	cr_expect_geq(rows, 15);
}

/* A row's type agrees with what getopt and lessons read of it, and an
 * option of names lists each name in its help. */
Test(options, rows_are_typed)
{
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		cr_expect_eq(r->arg, r->type != OPT_FLAG, "--%s", r->name);
		cr_expect(r->type != OPT_FILE || r->file, "--%s", r->name);
		cr_expect(!r->arg || r->metavar != NULL, "--%s", r->name);
		if (r->parse == NULL && r->type != OPT_LIST &&
		    r->type != OPT_FILE && r->type != OPT_STRING)
			cr_expect(r->width == 1 || r->width == 4 || r->width == 8,
			    "--%s: width %u", r->name, r->width);
		if (r->type == OPT_ENUM)
			cr_expect(r->choices != NULL, "--%s", r->name);
		int v;
		for (const struct opt_choices *ch = r->choices; ch != NULL;
		     ch = ch->next)
			for (int k = 0; opt_choice(ch, k, &v) != NULL; k++) {
				const char *name = opt_choice(ch, k, &v);
				cr_expect_eq(opt_choice_parse(ch, name), v, "--%s %s",
				    r->name, name);
				cr_expect(strstr(r->help, name) != NULL,
				    "--%s: the help does not name %s", r->name, name);
			}
	}
}

/* Aliases the owning modules know are taken: --color 24bit and direct
 * (palette.c), -f text (the writer's table). */
Test(options, aliases)
{
	static const struct {
		const char *opt, *val;
		int depth, fmt;
	} cases[] = {
		{"--color", "24bit", PE_DEPTH_TRUECOLOR, PE_FMT_ANSI},
		{"--color", "direct", PE_DEPTH_TRUECOLOR, PE_FMT_ANSI},
		{"--color", "truecolor", PE_DEPTH_TRUECOLOR, PE_FMT_ANSI},
		{"--color", "8", PE_DEPTH_8, PE_FMT_ANSI},
		{"-f", "text", -1, PE_FMT_TXT},
		{"-f", "txt", -1, PE_FMT_TXT},
		{"--format=svg", NULL, -1, PE_FMT_SVG},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pe_options o;
		char err[512] = "";
		const char *a[] = {"pescope", "snapshot", cases[i].opt,
		    cases[i].val, NULL};
		cr_expect_eq(parse(&o, err, a), 0, "%s %s: %s", cases[i].opt,
		    cases[i].val, err);
		cr_expect_eq(o.depth, cases[i].depth, "%s %s", cases[i].opt,
		    cases[i].val);
		cr_expect_eq((int)o.snap_format, cases[i].fmt, "%s %s", cases[i].opt,
		    cases[i].val);
		pe_options_free(&o);
	}
	/* dump's -f is dump's: text is no CSV */
	struct pe_options o;
	char err[512] = "";
	const char *b[] = {"pescope", "dump", "-t", "pe", "-f", "text", NULL};
	cr_expect_eq(parse(&o, err, b), 2);
	cr_expect(strstr(err, "--format 'text': must be csv or npy") != NULL,
	    "%s", err);
	pe_options_free(&o);
	const char *c[] = {"pescope", "snapshot", "--color", "24-bit", NULL};
	cr_expect_eq(parse(&o, err, c), 2);
	cr_expect(strstr(err, "--color '24-bit': must be truecolor, 256, 16, 8 "
	    "or mono") != NULL, "%s", err);
	pe_options_free(&o);
}

/* Range messages come from the rows: a float's bounds as its row gives
 * them, a size's range, a name's choices. */
Test(options, ranges_from_the_rows)
{
	static const struct {
		const char *opt, *val, *err;
	} cases[] = {
		{"--base", "1", "--base '1': must be a finite number > 1"},
		{"--xpos-scale-base", "0",
		    "--xpos-scale-base '0': must be a finite number > 0"},
		{"--partial-rotary", "1.5",
		    "--partial-rotary '1.5': must be in (0, 1]"},
		{"--partial-rotary", "0", "--partial-rotary '0': must be in (0, 1]"},
		{"--factor", "x", "--factor 'x': must be a finite decimal number"},
		{"--heads", "0", "--heads '0': must be an integer in 1..4096"},
		{"--buckets", "4097", "--buckets '4097': must be an integer in "
		    "2..4096"},
		{"--mask", "sideways", "--mask 'sideways': must be causal or none"},
		{"-e", "bert", "--encoding 'bert': must be sinusoidal, learned, "},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *a[] = {"pescope", cases[i].opt, cases[i].val, NULL};
		struct pe_options o;
		char err[512] = "";
		cr_expect_eq(parse(&o, err, a), 2, "case %zu", i);
		cr_expect(strstr(err, cases[i].err) != NULL, "case %zu: %s", i, err);
		pe_options_free(&o);
	}
	struct pe_options o;
	char err[512] = "";
	const char *b[] = {"pescope", "--partial-rotary", "1", "--base", "1.5",
	    NULL};
	cr_expect_eq(parse(&o, err, b), 0, "%s", err);
	cr_expect_eq(o.cfg.rope.partial_rotary, 1.0);
	cr_expect_eq(o.cfg.base, 1.5);
	pe_options_free(&o);
}

/* A command's words: lesson takes its lesson's name, completion its
 * shell; the others none. */
Test(options, command_words)
{
	struct pe_options o;
	char err[512] = "";
	const char *a[] = {"pescope", "lesson", "intro", "--list", NULL};
	cr_assert_eq(parse(&o, err, a), 0, "%s", err);
	cr_expect_eq(o.cmd, PE_CMD_LESSON);
	cr_expect_str_eq(o.lesson, "intro");
	pe_options_free(&o);
	const char *b[] = {"pescope", "lesson", "--speaker", "intro", NULL};
	cr_assert_eq(parse(&o, err, b), 0, "%s", err);
	cr_expect_str_eq(o.lesson, "intro");
	cr_expect(o.speaker);
	pe_options_free(&o);
	const char *c[] = {"pescope", "lesson", "intro", "--lesson", "intro",
	    NULL};
	cr_expect_eq(parse(&o, err, c), 2);
	cr_expect(strstr(err, "name the lesson once") != NULL, "%s", err);
	pe_options_free(&o);
	const char *d[] = {"pescope", "lesson", "intro", "outro", NULL};
	cr_expect_eq(parse(&o, err, d), 2);
	cr_expect(strstr(err, "'outro'") != NULL, "%s", err);
	pe_options_free(&o);
	const char *e[] = {"pescope", "snapshot", "intro", NULL};
	cr_expect_eq(parse(&o, err, e), 2);
	cr_expect(strstr(err, "unexpected argument 'intro'") != NULL, "%s", err);
	pe_options_free(&o);
	const char *f[] = {"pescope", "completion", "zsh", NULL};
	cr_assert_eq(parse(&o, err, f), 0, "%s", err);
	cr_expect_eq(o.cmd, PE_CMD_COMPLETION);
	cr_expect_eq(o.shell, 1);
	pe_options_free(&o);
	const char *g[] = {"pescope", "completion", "fish", NULL};
	cr_expect_eq(parse(&o, err, g), 2);
	cr_expect(strstr(err, "bash or zsh") != NULL, "%s", err);
	pe_options_free(&o);
	const char *h[] = {"pescope", "snapshot", "--help", NULL};
	cr_assert_eq(parse(&o, err, h), 0, "%s", err);
	cr_expect_eq(o.cmd, PE_CMD_HELP);
	cr_expect_eq(o.named, PE_CMD_SNAPSHOT);
	pe_options_free(&o);
}

/* A command's --help lists the options whose rows apply to it, and only
 * those, in lines of at most 79 columns. */
Test(options, help_of_a_command)
{
	for (int c = 0; c < PE_CMD_COUNT; c++) {
		if (pe_commands[c].name == NULL || pe_commands[c].name[0] == '\0')
			continue;
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);
		pe_options_help(fp, pe_commands, (enum pe_cmd)c);
		fclose(fp);
		char usage[64];
		snprintf(usage, sizeof usage, "Usage: pescope %s",
		    pe_commands[c].name);
		cr_expect(strncmp(buf, usage, strlen(usage)) == 0, "%s", buf);
		for (int i = 0; i < O_COUNT; i++) {
			char opt[64];
			snprintf(opt, sizeof opt, "--%s ", pe_opts[i].name);
			bool listed = strstr(buf, opt) != NULL;
			bool applies = (pe_opts[i].cmds & (1u << c)) != 0;
			cr_expect(listed == applies || (i == O_HELP && !listed),
			    "%s --help %s --%s", pe_commands[c].name,
			    applies ? "lacks" : "lists", pe_opts[i].name);
		}
		for (char *line = buf; *line != '\0';) {
			size_t l = strcspn(line, "\n");
			cr_expect_leq(l, 79, "wide line: %.*s", (int)l, line);
			line += l + (line[l] == '\n');
		}
		free(buf);
	}
}

/* --panel picks the right column, --values the numbers; an
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
