/* What is generated from the option and command tables: --help (every
 * command's, or one command's options), the man page and the bash and zsh
 * completions. Adding an option row or a command row adds it to all. The
 * command table is passed in (its rows' run functions print these). */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/options_table.h"

static const char *const group_titles[G_COUNT] = {
	"Encoding and sizes (the TUI, snapshot and dump):",
	"RoPE scaling (names as in Hugging Face transformers' rope_scaling):",
	"Toy attention and worked examples (the TUI and dump):",
	"Training a learned table (-e learned; the TUI, snapshot and dump):",
	"snapshot and the TUI:",
	"Lessons (pescope lesson; snapshot --lesson):",
	"Files (snapshot, dump; --size: snapshot, bench; --record: the TUI):",
	"dump:",
	"bench:",
	"",
};

static const char rule_text[] =
    "snapshot and dump refuse an option that has no effect on what they write\n"
    "(an option of another encoding, or of another rope scaling type, or in\n"
    "dump one of another table's: --shift is shift's); the TUI accepts them\n"
    "all: they set what you see after switching encodings.\n";

struct pe_embedded {
	const char *name;
	const char *text;
};
extern const struct pe_embedded pe_lessons[];

/* Whether command row c is typed as a word after "pescope". */
static bool
docs_is_word(const struct pe_command *c)
{
	return c->name != NULL && c->name[0] != '\0';
}

/* The usage line of command cmd ("pescope snapshot [OPTION]..."). */
static void
docs_usage_line(FILE *fp, const struct pe_command *c, bool first)
{
	char left[64];
	snprintf(left, sizeof left, "pescope%s%s %s", c->name[0] ? " " : "",
	    c->name, c->usage);
	fprintf(fp, "%s %-36s %s\n", first ? "Usage:" : "  or: ", left,
	    c->what);
}

/* The options of group g that apply to one of the commands in cmds. */
static void
docs_group(FILE *fp, int g, unsigned cmds)
{
	bool any = false;
	for (int i = 0; i < O_COUNT; i++)
		any |= pe_opts[i].group == (enum opt_group)g &&
		    (pe_opts[i].cmds & cmds) != 0;
	if (!any)
		return;
	fprintf(fp, "\n%s%s", group_titles[g], group_titles[g][0] ? "\n" : "");
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		if (r->group != (enum opt_group)g || (r->cmds & cmds) == 0)
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
			fprintf(fp, "%*s%.*s\n", first ? 26 - l : 26, "",
			    (int)n,
			    h);
			h += n + (h[n] == '\n');
		}
	}
}

/* See options.h: every command's usage and every option. */
void
pe_options_usage(FILE *fp, const struct pe_command *cmds)
{
	bool first = true;
	for (int c = 0; c < PE_CMD_COUNT; c++)
		if (cmds[c].name != NULL) {
			docs_usage_line(fp, &cmds[c], first);
			first = false;
		}
	fprintf(fp, "See transformer positional encodings in a terminal.\n"
	    "`pescope COMMAND --help` lists a command's options only.\n\n%s",
	    rule_text);
	for (int g = 0; g < G_COUNT; g++)
		docs_group(fp, g, ~0u);
	fputs("\nExit status: 0 on success, 1 when writing fails, 2 for bad "
	      "input\n(nothing is written).\n", fp);
}

/* See options.h: the TUI's --help is everything's; a command's, its
 * usage and the options it takes. */
void
pe_options_help(FILE *fp, const struct pe_command *cmds, enum pe_cmd cmd)
{
	if ((unsigned)cmd >= PE_CMD_COUNT || !docs_is_word(&cmds[cmd])) {
		pe_options_usage(fp, cmds);
		return;
	}
	docs_usage_line(fp, &cmds[cmd], true);
	if (cmds[cmd].strict)
		fprintf(fp, "\n%s", rule_text);
	unsigned bit = 1u << cmd;
	bool none = true;
	for (int i = 0; i < O_COUNT; i++)
		none &= (pe_opts[i].cmds & bit) == 0 || i == O_HELP;
	if (none)
		fputs("\nIt takes no options but --help.\n", fp);
	else
		for (int g = 0; g < G_COUNT; g++)
			docs_group(fp, g, bit);
	fputs("\nExit status: 0 on success, 1 when writing fails, 2 for bad "
	      "input\n(nothing is written). `pescope --help` lists every "
	      "command.\n", fp);
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
pe_options_man(FILE *fp, const struct pe_command *cmds)
{
	fprintf(fp, ".TH PESCOPE 1 \"\" \"pescope %s\" \"User Commands\"\n",
	    PESCOPE_VERSION);
	fputs(".SH NAME\npescope \\- see transformer positional encodings in a "
	      "terminal\n.SH SYNOPSIS\n", fp);
	for (int i = 0; i < PE_CMD_COUNT; i++) {
		const struct pe_command *c = &cmds[i];
		if (c->name == NULL)
			continue;
		fprintf(fp, ".B pescope%s%s\n", c->name[0] ? " " : "", c->name);
		if (c->usage[0] != '\0') {
			fputs(".RI \"", fp);
			man_text(fp, c->usage, strlen(c->usage));
			fputs("\"\n", fp);
		}
		fputs(".br\n", fp);
	}
	fputs(".SH DESCRIPTION\npescope shows positional encodings "
	      "(sinusoidal, learned, relative, RoPE and its context "
	      "extensions, ALiBi, NoPE, ViT 2\\-D sin\\-cos) with every number "
	      "exact to the reference implementations.\nWithout a command it "
	      "starts the TUI; press ? there for every key. \\fBsnapshot\\fR "
	      "writes exactly the frame the TUI shows for the same options and "
	      "size; \\fBdump\\fR writes the raw numbers. \\fBpescope\\fR "
	      "\\fIcommand\\fR \\fB\\-\\-help\\fR lists the options a command "
	      "takes.\n.PP\n", fp);
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
	for (size_t i = 0; pe_preset_name(i) != NULL; i++) {
		const char *name = pe_preset_name(i);
		struct pe_arch a;
		char err[256];
		fputs(".TP\n.B ", fp);
		man_text(fp, name, strlen(name));
		fputc('\n', fp);
		pe_arch_init(&a);
		if (pe_preset_read(name, &a, err, sizeof err) == PE_OK &&
		    a.description != NULL)
			man_text(fp, a.description, strlen(a.description));
		pe_arch_free(&a);
		fputc('\n', fp);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B NO_COLOR\nwhen set and not empty, "
	      "frames are written without color unless \\fB\\-\\-color\\fR "
	      "says otherwise.\n.TP\n.B TERM, COLORTERM\nthe TUI's color "
	      "depth; COLORTERM=truecolor or 24bit asks for 24\\-bit "
	      "color.\n.TP\n.B LC_ALL, LC_CTYPE, LANG\nthe character set only: "
	      "numbers are read and written the same in every locale.\n.TP\n.B "
	      "LINES, COLUMNS\nthe TUI's size only when the terminal reports "
	      "none, at most 1000 each.\n.TP\n.B PESCOPE_SNAPSHOT_DIR\nwhere "
	      "the TUI's \\fBw\\fR key saves the frame (default: the current "
	      "folder).\n.SH EXIT STATUS\n0 on success, 1 when writing fails, "
	      "2 for bad input (nothing is written).\n.SH "
	      "EXAMPLES\n.nf\npescope \\-e rope \\-d 128 \\-\\-preset "
	      "llama\\-3.1\\-8b\npescope snapshot \\-e alibi \\-\\-heads 12 "
	      "\\-f html \\-o alibi.html\npescope dump \\-e rope \\-\\-table "
	      "inv_freq \\-\\-format npy \\-o inv.npy\n.fi\n", fp);
	/* the guide: installed beside the other docs (meson.build's
	 * PESCOPE_DOCDIR), docs/ in the source tree */
	fputs(".SH SEE ALSO\nThe guide, a page a topic (encodings and their "
	      "sources, the keys, panels, compare, lessons, export, dump and "
	      "its benchmark, terminals and colors), in Markdown: "
	      "\\fI" PESCOPE_DOCDIR "/\\fR (README.md lists the pages; "
	      "\\fIdocs/\\fR in the source tree).\n", fp);
}

/* Every long option, as "--a --b ...", for the scripts. */
static void
all_long(FILE *fp, const char *sep)
{
	for (int i = 0; i < O_COUNT; i++)
		fprintf(fp, "%s--%s", i == 0 ? "" : sep, pe_opts[i].name);
}

/* Append word to the space-separated list buf. */
static void
docs_word(char *buf, size_t cap, const char *word)
{
	size_t l = strlen(buf);
	snprintf(buf + l, cap - l, "%s%s", l > 0 ? " " : "", word);
}

/* See options_table.h. */
const char *
opt_values(const struct opt_row *r, char *buf, size_t cap)
{
	int v;
	buf[0] = '\0';
	for (const struct opt_choices *ch = r->choices; ch != NULL;
	     ch = ch->next)
		for (int i = 0; opt_choice(ch, i, &v) != NULL; i++)
			docs_word(buf, cap, opt_choice(ch, i, &v));
	switch (r->complete) {
	case COMPLETE_PRESETS:
		for (size_t i = 0; pe_preset_name(i) != NULL; i++)
			docs_word(buf, cap, pe_preset_name(i));
		break;
	case COMPLETE_LESSONS:
		for (size_t i = 0; pe_lessons[i].name != NULL; i++)
			docs_word(buf, cap, pe_lessons[i].name);
		break;
	case COMPLETE_TABLES:
		pe_dump_table_names(buf, cap);
		break;
	case COMPLETE_NONE:
		break;
	}
	return buf[0] != '\0' ? buf : NULL;
}

/* The commands typed as words, space-separated. */
static void
docs_commands(FILE *fp, const struct pe_command *cmds)
{
	bool first = true;
	for (int i = 0; i < PE_CMD_COUNT; i++)
		if (docs_is_word(&cmds[i])) {
			fprintf(fp, "%s%s", first ? "" : " ", cmds[i].name);
			first = false;
		}
}

/* bash: complete -F _pescope pescope. */
static void
completion_bash(FILE *fp, const struct pe_command *cmds)
{
	char values[1024];
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
		if (opt_values(r, values, sizeof values) != NULL) {
			fprintf(fp, ") COMPREPLY=($(compgen -W \"%s\" -- "
			    "\"$cur\")); return ;;\n", values);
		} else if (r->file) {
			fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return "
			    ";;\n",
			    fp);
		} else {
			fputs(") return ;;\n", fp);
		}
	}
	fputs("\tesac\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ] && [[ $cur != -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"", fp);
	docs_commands(fp, cmds);
	fputs("\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
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
completion_zsh(FILE *fp, const struct pe_command *cmds)
{
	char values[1024];
	fputs("#compdef pescope\n# zsh completion for pescope (pescope "
	      "completion zsh)\n_pescope() {\n\tlocal -a opts\n\topts=(\n", fp);
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		const char *h = r->help;
		fputs("\t\t'", fp);
		if (r->letter)
			fprintf(fp, "(-%c --%s)'{-%c,--%s}'", r->letter,
			    r->name,
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
			if (opt_values(r, values, sizeof values) != NULL) {
				fprintf(fp, "(%s)", values);
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
	      "\t\t_values command ", fp);
	docs_commands(fp, cmds);
	fputs("\n\t\treturn\n\tfi\n"
	      "\tif [[ $words[2] == completion ]]; then\n"
	      "\t\t_values shell bash zsh\n\t\treturn\n\tfi\n"
	      "\t_arguments -s $opts\n}\n"
	      "_pescope \"$@\"\n", fp);
}

/* A completion script for shell 0 (bash) or 1 (zsh). */
void
pe_options_completion(FILE *fp, const struct pe_command *cmds, int shell)
{
	if (shell == 0)
		completion_bash(fp, cmds);
	else
		completion_zsh(fp, cmds);
}
