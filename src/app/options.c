/* The one command-line parser: the command (a row of pe_commands), then
 * one getopt_long pass built from the option rows; presets are applied
 * first, then the other options in order, then the words after the
 * command (lesson NAME), then the checks that need every option, then
 * --compare's pane B. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/options_impl.h"

/* Whether command i is typed as a word after "pescope". */
static bool
options_is_word(int i)
{
	return pe_commands[i].name != NULL && pe_commands[i].name[0] != '\0';
}

/* The command called name, or -1. */
static int
options_command(const char *name)
{
	for (int i = 0; i < PE_CMD_COUNT; i++)
		if (options_is_word(i) &&
		    strcmp(pe_commands[i].name, name) == 0)
			return i;
	return -1;
}

/* "unknown command 'x': commands are a, b and c". */
static int
options_unknown_command(const char *name, char *err, size_t cap)
{
	char list[256] = "";
	int n = 0, k = 0;
	for (int i = 0; i < PE_CMD_COUNT; i++)
		n += options_is_word(i);
	for (int i = 0; i < PE_CMD_COUNT; i++)
		if (options_is_word(i))
			opt_list_item(list, sizeof list, k++, n,
			    pe_commands[i].name, " and ");
	return opt_fail(err, cap, "unknown command '%s': commands are %s (none "
	    "starts the TUI)", name, list);
}

/* Parse argv into *o. One getopt_long pass (abbreviations included)
 * collects the options; the model (--preset, --config) is applied first,
 * then the others in order, so the command line overrides it wherever it
 * stands. */
int
pe_options_parse(struct pe_options *o, int argc, char **argv, char *err,
    size_t cap)
{
	bool given[O_COUNT] = {false};
	int first = 1, rc = 0, word;

	opt_init(o, PE_CMD_TUI);
	if (argc > 1 && argv[1][0] != '-') {
		int k = options_command(argv[1]);
		if (k < 0)
			return options_unknown_command(argv[1], err, cap);
		o->cmd = o->named = (enum pe_cmd)k;
		first = 2;
	}

	/* At most one option per character ("-hV" is two). */
	size_t room = 1;
	for (int i = first; i < argc; i++)
		room += strlen(argv[i]) + 1;
	struct opt_hit *hits = calloc(room, sizeof *hits);
	if (hits == NULL)
		return opt_fail(err, cap, "out of memory");
	int nhits = 0;
	char **av = argv + first - 1;
	int ac = argc - first + 1;
	rc = opt_collect(ac, av, o->cmd, hits, &nhits, &word, err, cap);
	if (rc == 0)
		rc = opt_apply_model(o, hits, nhits, NULL, 0, err, cap);
	struct pe_config as_preset = o->cfg; /* both from one memset */
	if (rc == 0)
		rc = opt_apply_hits(o, hits, nhits, given, err, cap);
	if (o->preset != NULL)
		o->preset_modified = opt_preset_modified(&o->cfg, &as_preset);
	const struct pe_command *cmd = &pe_commands[o->named];
	if (rc != 0 || pe_commands[o->cmd].name == NULL) /* --help, ... */
		goto end;
	if (word >= 0 && cmd->words == NULL) {
		rc = opt_fail(err, cap, "unexpected argument '%s'; see "
		    "`pescope %s%s--help`", av[word], cmd->name,
		    cmd->name[0] ? " " : "");
		goto end;
	}
	if (word < 0)
		word = ac; /* no words */
	if (cmd->words != NULL &&
	    (rc = cmd->words(o, ac - word, av + word, err, cap)) != 0)
		goto end;
	if (o->cmd == PE_CMD_DUMP && o->table == NULL) {
		rc = opt_fail(err, cap, "dump needs --table T (which table to "
		    "write); see `pescope dump --help`");
		goto end;
	}
	rc = opt_finish(o, given, err, cap);
	if (rc == 0 && o->compare != NULL)
		rc = opt_compare(o, hits, nhits, err, cap);
end:
	free(hits);
	return rc;
}

/* Release what the options own. */
void
pe_options_free(struct pe_options *o)
{
	free(o->table_data);
	free(o->freqs_data);
	o->freqs_data = NULL;
	free(o->short_factor);
	free(o->long_factor);
	free(o->preset);
	free(o->config);
	if (o->arch != NULL)
		pe_arch_free(o->arch);
	free(o->arch);
	free(o->lesson);
	free(o->lesson_file);
	free(o->link);
	free(o->table);
	free(o->output);
	free(o->record);
	o->record = NULL;
	free(o->tokens);
	free(o->permute);
	free(o->bias_data);
	free(o->embedding);
	free(o->sinks);
	o->sinks = NULL;
	pe_train_free(o->trainer);
	o->trainer = NULL;
	free(o->compare);
	o->compare = NULL;
	if (o->cmp != NULL) {
		pe_options_free(o->cmp);
		free(o->cmp);
		o->cmp = NULL;
	}
	o->tokens = NULL;
	o->permute = NULL;
	o->bias_data = o->embedding = NULL;
	o->table_data = NULL;
	o->short_factor = o->long_factor = NULL;
	o->preset = o->config = o->table = o->output = NULL;
	o->arch = NULL;
	o->lesson = o->lesson_file = o->link = NULL;
}
