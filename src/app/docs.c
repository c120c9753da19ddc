/* What is generated from the option table: --help, the man page and the
 * bash and zsh completions. Adding an option row adds it to all three. */
#include <stdio.h>
#include <string.h>

#include "app/options.h"
#include "app/options_table.h"

static const char *const group_titles[G_COUNT] = {
	"Encoding and sizes (the TUI, snapshot and dump):",
	"RoPE scaling (names as in Hugging Face transformers' rope_scaling):",
	"Toy attention and worked examples (the TUI and dump):",
	"snapshot and the TUI:",
	"Lessons (pescope lesson; snapshot --lesson):",
	"Files (snapshot, dump; --size: snapshot, bench; --record: the TUI):",
	"dump:",
	"bench:",
	"",
};

/* The commands: name, arguments, what it does (usage and man page). */
static const struct {
	const char *name, *args, *what;
} commands[] = {
	{"", "[OPTION]...", "the interactive viewer (TUI)"},
	{"snapshot", "[OPTION]...", "the same frame, written as text"},
	{"dump", "--table T [OPTION]...", "the raw numbers (CSV or NPY)"},
	{"lesson", "[OPTION]...", "a guided tour, scene by scene"},
	{"bench", "[--size WxH] [--quick]", "time every view"},
	{"completion", "bash|zsh", "a shell completion script"},
	{"manpage", "", "this program's man page (troff)"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const char rule_text[] =
    "snapshot and dump refuse an option that has no effect on what they write\n"
    "(an option of another encoding, or of another rope scaling type, or in\n"
    "dump one of another table's: --shift is shift's); the TUI accepts them\n"
    "all: they set what you see after switching encodings.\n";

extern const struct pe_embedded {
	const char *name;
	const char *text;
} pe_presets[];

/* The usage text, from the table. */
void
pe_options_usage(FILE *fp)
{
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char left[64];
		snprintf(left, sizeof left, "pescope%s%s %s",
		    commands[i].name[0] ? " " : "", commands[i].name,
		    commands[i].args);
		fprintf(fp, "%s %-36s %s\n", i == 0 ? "Usage:" : "  or: ", left,
		    commands[i].what);
	}
	fprintf(fp, "See transformer positional encodings in a terminal.\n\n%s",
	    rule_text);
	for (int g = 0; g < G_COUNT; g++) {
		fprintf(fp, "\n%s%s", group_titles[g], group_titles[g][0] ? "\n" : "");
		for (int i = 0; i < O_COUNT; i++) {
			const struct opt_row *r = &pe_opts[i];
			if (r->group != (enum opt_group)g)
				continue;
			char left[64];
			int l = snprintf(left, sizeof left, "  %c%c%c --%s%s%s",
			    r->letter ? '-' : ' ', r->letter ? r->letter : ' ',
			    r->letter ? ',' : ' ', r->name, r->metavar ? " " : "",
			    r->metavar ? r->metavar : "");
			const char *h = r->help;
			fputs(left, fp);
			if (l > 24) {
				fputc('\n', fp);
				l = 0;
			}
			for (bool first = true; *h != '\0'; first = false) {
				size_t n = strcspn(h, "\n");
				fprintf(fp, "%*s%.*s\n", first ? 26 - l : 26, "", (int)n,
				    h);
				h += n + (h[n] == '\n');
			}
		}
	}
	fputs("\nExit status: 0 on success, 1 when writing fails, 2 for bad input\n"
	      "(nothing is written).\n", fp);
}

/* Write s as troff text: backslashes and leading dots escaped, '-' as
 * \- (a real minus, so man pages can be searched for options). */
static void
man_text(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '\\')
			fputs("\\e", fp);
		else if (c == '-')
			fputs("\\-", fp);
		else if ((c == '.' || c == '\'') && (i == 0 || s[i - 1] == '\n'))
			fputs("\\&.", fp);
		else
			fputc(c, fp);
	}
}

/* The man page, pescope(1). */
void
pe_options_man(FILE *fp)
{
	fprintf(fp, ".TH PESCOPE 1 \"\" \"pescope %s\" \"User Commands\"\n",
	    PESCOPE_VERSION);
	fputs(".SH NAME\npescope \\- see transformer positional encodings in a "
	      "terminal\n.SH SYNOPSIS\n", fp);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		fprintf(fp, ".B pescope%s%s\n", commands[i].name[0] ? " " : "",
		    commands[i].name);
		if (commands[i].args[0] != '\0') {
			fputs(".RI \"", fp);
			man_text(fp, commands[i].args, strlen(commands[i].args));
			fputs("\"\n", fp);
		}
		fputs(".br\n", fp);
	}
	fputs(".SH DESCRIPTION\n"
	      "pescope shows positional encodings (sinusoidal, learned, relative, "
	      "RoPE and its context extensions, ALiBi, NoPE, ViT 2\\-D sin\\-cos) "
	      "with every number exact to the reference implementations.\n"
	      "Without a command it starts the TUI; press ? there for every key. "
	      "\\fBsnapshot\\fR writes exactly the frame the TUI shows for the "
	      "same options and size; \\fBdump\\fR writes the raw numbers.\n"
	      ".PP\n", fp);
	man_text(fp, rule_text, strlen(rule_text));
	fputs(".SH OPTIONS\n", fp);
	for (int g = 0; g < G_COUNT; g++) {
		const char *t = group_titles[g][0] ? group_titles[g] : "Other:";
		fputs(".SS \"", fp);
		man_text(fp, t, strlen(t) - 1); /* without the colon */
		fputs("\"\n", fp);
		for (int i = 0; i < O_COUNT; i++) {
			const struct opt_row *r = &pe_opts[i];
			if (r->group != (enum opt_group)g)
				continue;
			fputs(".TP\n", fp);
			if (r->letter)
				fprintf(fp, "\\fB\\-%c\\fR, ", r->letter);
			fputs("\\fB", fp);
			man_text(fp, "--", 2);
			man_text(fp, r->name, strlen(r->name));
			fputs("\\fR", fp);
			if (r->metavar != NULL) {
				fputs(" \\fI", fp);
				man_text(fp, r->metavar, strlen(r->metavar));
				fputs("\\fR", fp);
			}
			fputc('\n', fp);
			for (const char *h = r->help; *h != '\0';) {
				size_t n = strcspn(h, "\n");
				man_text(fp, h, n);
				fputc(h[n] == '\n' ? ' ' : '\n', fp);
				h += n + (h[n] == '\n');
			}
		}
	}
	fputs(".SH PRESETS\n", fp);
	for (size_t i = 0; pe_presets[i].name != NULL; i++) {
		fputs(".TP\n.B ", fp);
		man_text(fp, pe_presets[i].name, strlen(pe_presets[i].name));
		fputc('\n', fp);
		const char *d = strstr(pe_presets[i].text, "description");
		if (d != NULL && (d = strchr(d, '=')) != NULL) {
			d += 1 + strspn(d + 1, " ");
			man_text(fp, d, strcspn(d, "\n"));
		}
		fputc('\n', fp);
	}
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B NO_COLOR\nwhen set and not empty, frames are written "
	      "without color unless \\fB\\-\\-color\\fR says otherwise.\n"
	      ".TP\n.B TERM, COLORTERM\nthe TUI's color depth; "
	      "COLORTERM=truecolor or 24bit asks for 24\\-bit color.\n"
	      ".TP\n.B LC_ALL, LC_CTYPE, LANG\nthe character set only: numbers "
	      "are read and written the same in every locale.\n"
	      ".TP\n.B LINES, COLUMNS\nthe TUI's size only when the terminal "
	      "reports none, at most 1000 each.\n"
	      ".TP\n.B PESCOPE_SNAPSHOT_DIR\nwhere the TUI's \\fBw\\fR key saves "
	      "the frame (default: the current folder).\n"
	      ".SH EXIT STATUS\n0 on success, 1 when writing fails, 2 for bad "
	      "input (nothing is written).\n"
	      ".SH EXAMPLES\n.nf\n"
	      "pescope \\-e rope \\-d 128 \\-\\-preset llama\\-3.1\\-8b\n"
	      "pescope snapshot \\-e alibi \\-\\-heads 12 \\-f html \\-o alibi.html\n"
	      "pescope dump \\-e rope \\-\\-table inv_freq \\-\\-format npy "
	      "\\-o inv.npy\n"
	      ".fi\n", fp);
}

/* Every long option, as "--a --b ...", for the scripts. */
static void
all_long(FILE *fp, const char *sep)
{
	for (int i = 0; i < O_COUNT; i++)
		fprintf(fp, "%s--%s", i == 0 ? "" : sep, pe_opts[i].name);
}

/* The preset names, space-separated. */
static void
preset_names(FILE *fp)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++)
		fprintf(fp, "%s%s", i == 0 ? "" : " ", pe_presets[i].name);
}

/* bash: complete -F _pescope pescope. */
static void
completion_bash(FILE *fp)
{
	fputs("# bash completion for pescope (pescope completion bash)\n"
	      "_pescope()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} "
	      "prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tcase $prev in\n", fp);
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		if (!r->arg)
			continue;
		fprintf(fp, "\t--%s", r->name);
		if (r->letter)
			fprintf(fp, "|-%c", r->letter);
		if (i == O_PRESET) {
			fputs(") COMPREPLY=($(compgen -W \"", fp);
			preset_names(fp);
			fputs("\" -- \"$cur\")); return ;;\n", fp);
		} else if (r->values != NULL) {
			fprintf(fp, ") COMPREPLY=($(compgen -W \"%s\" -- \"$cur\")); "
			    "return ;;\n", r->values);
		} else if (r->file) {
			fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
			    fp);
		} else {
			fputs(") return ;;\n", fp);
		}
	}
	fputs("\tesac\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ] && [[ $cur != -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"snapshot dump bench completion "
	      "manpage\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	      "\tif [ \"${COMP_WORDS[1]}\" = completion ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\"))\n"
	      "\t\treturn\n\tfi\n"
	      "\tCOMPREPLY=($(compgen -W \"", fp);
	all_long(fp, " ");
	fputs("\" -- \"$cur\"))\n}\ncomplete -F _pescope pescope\n", fp);
}

/* Write s for a zsh single-quoted string in an _arguments spec: ' as
 * '\'' and the characters _arguments reads specially ([ ] :) escaped. */
static void
zsh_text(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\'')
			fputs("'\\''", fp);
		else if (s[i] == '[' || s[i] == ']' || s[i] == ':' || s[i] == '\\')
			fprintf(fp, "\\%c", s[i]);
		else
			fputc(s[i], fp);
	}
}

/* zsh: #compdef pescope, with _arguments. */
static void
completion_zsh(FILE *fp)
{
	fputs("#compdef pescope\n# zsh completion for pescope (pescope completion "
	      "zsh)\n_pescope() {\n\tlocal -a opts\n\topts=(\n", fp);
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		const char *h = r->help;
		fputs("\t\t'", fp);
		if (r->letter)
			fprintf(fp, "(-%c --%s)'{-%c,--%s}'", r->letter, r->name,
			    r->letter, r->name);
		else
			fprintf(fp, "--%s", r->name);
		fputc('[', fp);
		zsh_text(fp, h, strcspn(h, "\n"));
		fputc(']', fp);
		if (r->arg) {
			fputc(':', fp);
			zsh_text(fp, r->metavar, strlen(r->metavar));
			fputc(':', fp);
			if (i == O_PRESET) {
				fputc('(', fp);
				preset_names(fp);
				fputc(')', fp);
			} else if (r->values != NULL) {
				fprintf(fp, "(%s)", r->values);
			} else if (r->file) {
				fputs("_files", fp);
			} else {
				fputc(' ', fp);
			}
		}
		fputs("'\n", fp);
	}
	fputs("\t)\n"
	      "\tif (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then\n"
	      "\t\t_values command snapshot dump bench completion manpage\n"
	      "\t\treturn\n\tfi\n"
	      "\tif [[ $words[2] == completion ]]; then\n"
	      "\t\t_values shell bash zsh\n\t\treturn\n\tfi\n"
	      "\t_arguments -s $opts\n}\n"
	      "_pescope \"$@\"\n", fp);
}

/* A completion script for shell 0 (bash) or 1 (zsh). */
void
pe_options_completion(FILE *fp, int shell)
{
	if (shell == 0)
		completion_bash(fp);
	else
		completion_zsh(fp);
}
