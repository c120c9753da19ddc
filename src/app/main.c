/* pescope: see transformer positional encodings in a terminal.
 * The command line is parsed once (app/options.c); the command it names is
 * a row of pe_commands (app/commands.c) whose function returns the exit
 * status. */
#include <locale.h>
#include <stdio.h>

#include "app/app.h"

int
main(int argc, char **argv)
{
	struct pe_options o;
	char err[1024];

	/* The character set follows the user's locale (for the TUI's
	 * glyphs); numbers never do: LC_NUMERIC stays "C", so a German or
	 * Italian user reads and writes the same numbers as everyone. */
	setlocale(LC_CTYPE, "");
	if (pe_options_parse(&o, argc, argv, err, sizeof err) != 0) {
		pe_app_error("%s", err);
		const char *cmd = pe_commands[o.named].name;
		fprintf(stderr, "Try 'pescope %s%s--help' for more "
		    "information.\n", cmd != NULL ? cmd : "",
		    cmd != NULL && cmd[0] ? " " : "");
		pe_options_free(&o);
		return PE_EXIT_USAGE;
	}
	int rc = pe_commands[o.cmd].run(&o);
	if (fflush(stdout) != 0 && rc == PE_EXIT_OK) {
		pe_app_error("standard output: write failed");
		rc = PE_EXIT_FAIL;
	}
	pe_options_free(&o);
	return rc;
}
