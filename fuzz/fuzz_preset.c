/* libFuzzer target: preset files (option = value lines, factor lists).
 * The text is applied over the defaults, then the whole configuration is
 * checked as `--preset-file` would, for snapshot. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	struct pe_options o;
	char err[512];
	char *argv[] = {"pescope", "snapshot", NULL};
	if (pe_options_parse(&o, 2, argv, err, sizeof err) != 0)
		abort();
	int rc = pe_options_apply_preset(&o, "fuzz", text, err, sizeof err);
	if (rc != 0 && rc != 2)
		abort();
	if (rc == 0) {
		char why[512];
		pe_config_check(&o.cfg, why, sizeof why);
	}
	pe_options_free(&o);
	free(text);
	return 0;
}
