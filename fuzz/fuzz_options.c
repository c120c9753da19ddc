/* libFuzzer target: the command line. The input is split at NUL bytes into
 * arguments after "pescope"; the first may be a command. Any argv must give
 * 0 or 2 and leave nothing behind (ASan, LeakSanitizer); what parsed has a
 * help text (the rows' generators run on it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "render/draw.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[66];
	int argc = 0;
	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "pescope";
	for (char *p = buf; p <= buf + size && argc < 65; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;

	struct pe_options o;
	char err[512];
	int rc = pe_options_parse(&o, argc, argv, err, sizeof err);
	if (rc != 0 && rc != 2)
		abort();
	if (rc == 2 && err[0] == '\0')
		abort(); /* a refusal always explains itself */
	char safe[4 * sizeof err];
	pe_text_escape(err, safe, sizeof safe);
	if (rc == 0) {
		char *text = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&text, &len);
		if (fp != NULL) {
			pe_options_help(fp, pe_commands, o.named);
			fclose(fp);
			if (len == 0)
				abort(); /* every command has a usage line */
		}
		free(text);
	}
	pe_options_free(&o);
	free(buf);
	return 0;
}
