/* The commands, one row each (as git's builtin table): the word that names
 * it, its usage, what it does, the words it takes after its options and
 * the function that runs it. The parser, --help, the man page, the
 * completions and main read the rows. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app/app.h"
#include "app/model.h"
#include "app/options_impl.h"
#include "io/hfconfig.h"
#include "tui/tui.h"
#include "view/state.h"

/* The TUI: it starts from the state snapshot draws (cursor, head,
 * preset). */
static int
commands_tui(const struct pe_options *o)
{
	struct pe_state st;
	pe_app_state_from_options(o, &st);
	pe_app_picker_init(&st); /* L: a preset by name */
	struct pe_tui_hooks hooks = {pe_app_picker_poll, NULL, 100};
	/* --record: the TUI creates the file once it has a terminal */
	struct pe_tui_opts to = {o->depth, o->theme, o->record, &hooks,
	    (enum pe_gfx)o->graphics};
	return pe_tui_run(&st, &to);
}

/* What a model (--config, --preset) has that is not drawn: one warning a
 * key, on standard error (snapshot, dump). */
static void
commands_model_warn(const struct pe_options *o)
{
	for (size_t i = 0; o->arch != NULL && i < o->arch->nnotes; i++) {
		const struct pe_model_note *m = &o->arch->notes[i];
		pe_app_error("warning: %s: %s%s%s: %s",
		    pe_options_model_name(o), m->key,
		    m->value[0] ? " = " : "", m->value, m->why);
	}
}

/* dump: the model's strip as CSV (--table layers), or a table. */
static int
commands_dump(const struct pe_options *o)
{
	commands_model_warn(o);
	if (o->arch != NULL && strcmp(o->table, "layers") == 0)
		return pe_app_model_csv(o);
	return pe_dump_run(o);
}

/* model FILE|NAME: the model's layers as text. */
static int
commands_model(const struct pe_options *o)
{
	struct pe_arch a;
	char err[768];
	int st;

	pe_arch_init(&a);
	if (o->config != NULL)
		st = pe_hf_read_file(o->config, &a, err, sizeof err);
	else
		st = pe_preset_read(o->preset, &a, err, sizeof err);
	if (st != PE_OK) {
		pe_app_error("%s", err);
		pe_arch_free(&a);
		return PE_EXIT_USAGE;
	}
	int rc = pe_app_model_print(stdout, &a, 80);
	pe_arch_free(&a);
	if (fflush(stdout) != 0 || rc != PE_OK) {
		pe_app_error("model: cannot write: %s", strerror(errno));
		return PE_EXIT_FAIL;
	}
	return PE_EXIT_OK;
}

/* model FILE|NAME: the config to read, a file or (when no file has the
 * name) a preset's. */
static int
commands_model_file(struct pe_options *o, int n, char **word, char *err,
    size_t cap)
{
	struct stat sb;
	if (n != 1)
		return opt_fail(err, cap, "model takes one FILE (a "
		    "config.json) or a preset's NAME; see `pescope model "
		    "--help`");
	if (stat(word[0], &sb) == 0)
		return opt_own(&o->config, word[0], err, cap);
	if (pe_preset_text(word[0]) != NULL)
		return opt_own(&o->preset, word[0], err, cap);
	return opt_fail(err, cap, "model '%s': no such file, nor a preset "
	    "(`pescope --list-presets` lists them)", word[0]);
}

/* snapshot: a lesson's steps (app/lesson.c) or the frame of the options. */
static int
commands_snapshot(const struct pe_options *o)
{
	commands_model_warn(o);
	if (o->lesson != NULL || o->lesson_file != NULL)
		return pe_snapshot_lesson(o);
	return pe_snapshot_run(o);
}

/* completion SHELL. */
static int
commands_completion(const struct pe_options *o)
{
	pe_options_completion(stdout, pe_commands, o->shell);
	return PE_EXIT_OK;
}

/* manpage. */
static int
commands_manpage(const struct pe_options *o)
{
	(void)o;
	pe_options_man(stdout, pe_commands);
	return PE_EXIT_OK;
}

/* --help: every command's, or after a command that command's. */
static int
commands_help(const struct pe_options *o)
{
	pe_options_help(stdout, pe_commands, o->named);
	return PE_EXIT_OK;
}

/* --version: the version (meson.build's) and the commit it was built from. */
static int
commands_version(const struct pe_options *o)
{
	(void)o;
	printf("pescope %s\n%s\n", PESCOPE_VERSION, pe_build_commit);
	return PE_EXIT_OK;
}

/* --list-presets. */
static int
commands_list_presets(const struct pe_options *o)
{
	(void)o;
	pe_options_list_presets(stdout);
	return PE_EXIT_OK;
}

/* lesson [NAME]: the name of a built-in lesson, as --lesson NAME. */
static int
commands_lesson_name(struct pe_options *o, int n, char **word, char *err,
    size_t cap)
{
	if (n == 0)
		return 0;
	if (n > 1)
		return opt_fail(err, cap, "unexpected argument '%s': lesson "
		    "takes one lesson name; see `pescope lesson --help`",
		    word[1]);
	if (o->lesson != NULL)
		return opt_fail(err, cap, "lesson %s and --lesson %s: name the "
		    "lesson once", word[0], o->lesson);
	return opt_own(&o->lesson, word[0], err, cap);
}

/* completion bash|zsh. */
static int
commands_shell(struct pe_options *o, int n, char **word, char *err,
    size_t cap)
{
	static const char *const shells[] = {"bash", "zsh"};
	for (int i = 0; n == 1 && i < 2; i++)
		if (strcmp(word[0], shells[i]) == 0) {
			o->shell = i;
			return 0;
		}
	return opt_fail(err, cap, "completion takes one word: bash or zsh");
}

const struct pe_command pe_commands[PE_CMD_COUNT] = {
	[PE_CMD_TUI] = {"", "[OPTION]...", "the interactive viewer (TUI)",
	    .run = commands_tui},
	[PE_CMD_SNAPSHOT] = {"snapshot", "[OPTION]...",
	    "the same frame, written as text", .strict = true,
	    .run = commands_snapshot},
	[PE_CMD_DUMP] = {"dump", "--table T [OPTION]...",
	    "the raw numbers (CSV or NPY)", .strict = true,
	    .run = commands_dump},
	[PE_CMD_LESSON] = {"lesson", "[NAME] [OPTION]...",
	    "a guided tour, scene by scene", .words = commands_lesson_name,
	    .run = pe_lesson_run},
	[PE_CMD_BENCH] = {"bench", "[--size WxH] [--quick]", "time every view",
	    .run = pe_bench_run},
	[PE_CMD_COMPLETION] = {"completion", "bash|zsh",
	    "a shell completion script", .words = commands_shell,
	    .run = commands_completion},
	[PE_CMD_MANPAGE] = {"manpage", "", "this program's man page (troff)",
	    .run = commands_manpage},
	[PE_CMD_MODEL] = {"model", "FILE|NAME", "a config.json's layers",
	    .words = commands_model_file, .run = commands_model},
	[PE_CMD_HELP] = {NULL, NULL, "this text", .run = commands_help},
	[PE_CMD_VERSION] = {NULL, NULL, "the version", .run = commands_version},
	[PE_CMD_LIST_PRESETS] = {NULL, NULL, "the presets",
	    .run = commands_list_presets},
};

/* See app.h. */
const char *
pe_command_label(enum pe_cmd cmd)
{
	if ((unsigned)cmd >= PE_CMD_COUNT || pe_commands[cmd].name == NULL)
		return "?";
	return pe_commands[cmd].name[0] != '\0' ? pe_commands[cmd].name
						: "the TUI";
}
