/* pescope: see transformer positional encodings in a terminal.
 * The command line is parsed once (app/options.c); each command is a
 * function that returns the exit status. */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "tui/tui.h"
#include "view/state.h"

int
main(int argc, char **argv)
{
	struct pe_options o;
	char err[1024];
	int rc;

	/* The character set follows the user's locale (for the TUI's
	 * glyphs); numbers never do: LC_NUMERIC stays "C", so a German or
	 * Italian user reads and writes the same numbers as everyone. */
	setlocale(LC_CTYPE, "");
	if (pe_options_parse(&o, argc, argv, err, sizeof err) != 0) {
		pe_app_error("%s", err);
		fputs("Try 'pescope --help' for more information.\n", stderr);
		pe_options_free(&o);
		return PE_EXIT_USAGE;
	}
	switch (o.cmd) {
	case PE_CMD_HELP:
		pe_options_usage(stdout);
		rc = PE_EXIT_OK;
		break;
	case PE_CMD_VERSION:
		printf("pescope %s\n", PESCOPE_VERSION);
		rc = PE_EXIT_OK;
		break;
	case PE_CMD_LIST_PRESETS:
		pe_options_list_presets(stdout);
		rc = PE_EXIT_OK;
		break;
	case PE_CMD_COMPLETION:
		pe_options_completion(stdout, o.shell);
		rc = PE_EXIT_OK;
		break;
	case PE_CMD_MANPAGE:
		pe_options_man(stdout);
		rc = PE_EXIT_OK;
		break;
	case PE_CMD_DUMP:
		rc = pe_dump_run(&o);
		break;
	case PE_CMD_SNAPSHOT: /* with --lesson: a lesson's steps */
		rc = o.lesson != NULL || o.lesson_file != NULL
		    ? pe_snapshot_lesson(&o) : pe_snapshot_run(&o);
		break;
	case PE_CMD_LESSON:
		rc = pe_lesson_run(&o);
		break;
	case PE_CMD_BENCH:
		rc = pe_bench_run(&o);
		break;
	default: {
		/* the TUI starts from the state snapshot draws: cursor, head,
		 * preset */
		struct pe_state st;
		int fd = -1;
		int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
		if (o.record != NULL && (fd = open(o.record, flags, 0666)) < 0) {
			/* refused before the terminal is touched */
			pe_app_error("--record '%s': cannot create a file there: "
			    "%s", o.record, strerror(errno));
			rc = PE_EXIT_USAGE;
			break;
		}
		pe_app_state_from_options(&o, &st);
		struct pe_tui_opts to = {o.depth, o.theme, fd, NULL};
		rc = pe_tui_run(&st, &to);
		if (rc == PE_EXIT_USAGE && o.record != NULL)
			unlink(o.record); /* no terminal: nothing recorded */
		break;
	}
	}
	if (fflush(stdout) != 0 && rc == PE_EXIT_OK) {
		pe_app_error("standard output: write failed");
		rc = PE_EXIT_FAIL;
	}
	pe_options_free(&o);
	return rc;
}
