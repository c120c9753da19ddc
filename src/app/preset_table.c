/* The shipped configs compiled in (assets/models/NAME.json, made a C
 * array by tools/embed.sh): their names, texts and models, the list
 * --list-presets prints, and the name of the model a command line names.
 * A leaf of the app layer: it calls the loader (io/hfconfig.c) and
 * nothing of the option parser, so docs.c's completions and the checks
 * can ask it without joining the parser's calls. */
#include <stdio.h>
#include <string.h>

#include "app/options_impl.h"
#include "io/hfconfig.h"

extern const struct pe_embedded {
	const char *name;
	const char *text;
} pe_presets[];

/* See options.h. */
const char *
pe_preset_text(const char *name)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++)
		if (strcmp(pe_presets[i].name, name) == 0)
			return pe_presets[i].text;
	return NULL;
}

/* See options.h. */
const char *
pe_preset_name(size_t i)
{
	for (size_t k = 0; pe_presets[k].name != NULL; k++)
		if (k == i)
			return pe_presets[k].name;
	return NULL;
}

/* See options.h. */
int
pe_preset_read(const char *name, struct pe_arch *dest, char *err,
    size_t cap)
{
	const char *text = pe_preset_text(name);
	if (text == NULL) {
		pe_arch_free(dest);
		snprintf(err, cap, "--preset '%s': unknown preset; `pescope "
		    "--list-presets` lists them", name);
		return PE_EINVAL;
	}
	return pe_hf_read_buf(text, strlen(text), name, dest, err, cap);
}

/* See options.h. */
const char *
pe_options_model_name(const struct pe_options *o)
{
	return o->config != NULL ? o->config : o->preset;
}

/* Write "%-18s text" with text wrapped at word boundaries to 79 columns,
 * continuation lines indented under it. */
static void
preset_wrap(FILE *fp, const char *name, const char *text)
{
	enum { INDENT = 19, WIDTH = 79 };
	int col = fprintf(fp, "%-18s", name);
	bool first = true;
	while (*text != '\0') {
		size_t n = strcspn(text, " ");
		if (!first && col + 1 + (int)n > WIDTH) {
			col = fprintf(fp, "\n%*s", INDENT - 1, "") - 1;
			first = true;
		}
		col += fprintf(fp, " %.*s", (int)n, text);
		first = false;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', fp);
}

/* List the compiled-in presets: name and description, then the source. */
void
pe_options_list_presets(FILE *fp)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++) {
		struct pe_arch a;
		char err[512], line[1024];
		pe_arch_init(&a);
		if (pe_preset_read(pe_presets[i].name, &a, err, sizeof err) !=
		    PE_OK)
			snprintf(line, sizeof line, "(does not load: %s)", err);
		else
			snprintf(line, sizeof line, "%s", a.description != NULL
			    ? a.description : a.model_type);
		preset_wrap(fp, pe_presets[i].name, line);
		if (a.source != NULL) {
			snprintf(line, sizeof line, "source: %s", a.source);
			preset_wrap(fp, "", line);
		}
		pe_arch_free(&a);
	}
}

/* See options.h: what --preset accepts, one at a time; the description is
 * the config's own (_pescope.description), read through the loader. */
const char *
pe_options_preset_at(size_t i, char *about, size_t cap)
{
	const char *name = pe_preset_name(i);
	if (name == NULL)
		return NULL;
	struct pe_arch a;
	char err[512];
	pe_arch_init(&a);
	if (pe_preset_read(name, &a, err, sizeof err) == PE_OK)
		snprintf(about, cap, "%s", a.description != NULL ?
		    a.description : a.model_type);
	else
		snprintf(about, cap, "(does not load: %s)", err);
	pe_arch_free(&a);
	return name;
}
