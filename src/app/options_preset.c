/* Presets: option files ("option = value" lines) compiled in or read from
 * a file, applied before the command line's other options so that those
 * override a preset wherever they stand. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options_impl.h"
#include "io/hfconfig.h"

extern const struct pe_embedded {
	const char *name;
	const char *text;
} pe_presets[];

/* Text of a compiled-in preset, or NULL. */
const char *
pe_preset_text(const char *name)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++)
		if (strcmp(pe_presets[i].name, name) == 0)
			return pe_presets[i].text;
	return NULL;
}

/* Trim spaces, tabs (and a CR at the end) of s in place. */
char *
pe_options_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 &&
	    (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* See options.h. */
bool
pe_options_line(char *line, char **key, char **val)
{
	char *hash = strchr(line, '#');
	if (hash != NULL)
		*hash = '\0';
	char *eq = strchr(line, '=');
	*val = NULL;
	if (eq != NULL) {
		*eq = '\0';
		*val = pe_options_trim(eq + 1);
	}
	*key = pe_options_trim(line);
	return **key != '\0' || eq != NULL;
}

/* Whether a preset may set row id: a config option that reads no file. */
static bool
preset_sets(int id)
{
	return id >= 0 && opt_is_config(id) && pe_opts[id].type != OPT_FILE;
}

/* Apply a preset's text (lines "option = value") to *o. */
int
pe_options_apply_preset(struct pe_options *o, const char *name,
    const char *text, char *err, size_t cap)
{
	char *copy = strdup(text), *save = NULL, *line;
	int lineno = 0, rc = 0;
	if (copy == NULL)
		return opt_fail(err, cap, "out of memory");
	for (line = strtok_r(copy, "\n", &save); line != NULL && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *key, *val;
		if (!pe_options_line(line, &key, &val))
			continue;
		if (strcmp(key, "source") == 0 ||
		    strcmp(key, "description") == 0) {
			if (strcmp(key, "source") == 0 && val != NULL)
				rc = opt_own(&o->preset_source, val, err, cap);
			continue;
		}
		int id = opt_find(key);
		if (!preset_sets(id)) {
			rc = opt_fail(err, cap, "preset %s, line %d: '%s' is "
			    "not an option a preset can set", name, lineno,
			    key);
			break;
		}
		if (pe_opts[id].arg && (val == NULL || *val == '\0')) {
			rc = opt_fail(err, cap, "preset %s, line %d: '%s' "
			    "needs a value",
			    name, lineno, key);
			break;
		}
		if (!pe_opts[id].arg && val != NULL) {
			rc = opt_fail(err, cap, "preset %s, line %d: '%s' "
			    "takes no value", name, lineno, key);
			break;
		}
		char msg[512];
		if (opt_apply(o, (enum opt_id)id, val, msg, sizeof msg) != 0)
			rc = opt_fail(err, cap, "preset %s, line %d: %s", name,
			    lineno,
			    msg);
	}
	free(copy);
	return rc;
}

/* Apply --preset NAME or --preset-file FILE. */
static int
preset_apply_opt(struct pe_options *o, bool is_file, const char *arg,
    char *err, size_t cap)
{
	if (!is_file) {
		const char *t = pe_preset_text(arg);
		if (t == NULL)
			return opt_fail(err, cap, "--preset '%s': unknown "
			    "preset; `pescope --list-presets` lists them", arg);
		if (opt_own(&o->preset, arg, err, cap) != 0)
			return 2;
		return pe_options_apply_preset(o, arg, t, err, cap);
	}
	unsigned char *buf;
	size_t len;
	int st = pe_file_read(arg, 1 << 20, &buf, &len);
	if (st != PE_OK)
		return opt_fail(err, cap, "--preset-file '%s': cannot read it: "
		    "%s",
		    arg, opt_file_why(st));
	if (memchr(buf, '\0', len) != NULL) {
		free(buf);
		return opt_fail(err, cap, "--preset-file '%s': not a text file",
		    arg);
	}
	int rc = opt_own(&o->preset, arg, err, cap);
	if (rc == 0)
		rc = pe_options_apply_preset(o, arg, (const char *)buf, err,
		    cap);
	free(buf);
	return rc;
}

/* --config FILE (a model's config.json, through the loader) and its
 * layer: --layer's value (the last given) when there is one, else 0. The
 * layer's config becomes the config, as a preset's would: the options
 * given after override it. */
static int
config_apply_opt(struct pe_options *o, const char *arg,
    const struct opt_hit *hits, int n, char *err, size_t cap)
{
	size_t layer = 0;
	const char *given = NULL;
	for (int i = 0; i < n; i++)
		if (hits[i].id == O_LAYER)
			given = hits[i].arg;
	if (given != NULL) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(given, &end, 10);
		if (given[0] < '0' || given[0] > '9' || *end != '\0' ||
		    errno != 0)
			return opt_fail(err, cap, "--layer '%s': a layer number "
			    "(from 0)", given);
		layer = (size_t)v;
	}
	if (o->arch != NULL)
		return opt_fail(err, cap, "--config '%s': one model at a time "
		    "(--config %s came first)", arg, o->config);
	o->arch = calloc(1, sizeof *o->arch);
	if (o->arch == NULL || opt_own(&o->config, arg, err, cap) != 0)
		return opt_fail(err, cap, "out of memory");
	pe_arch_init(o->arch);
	if (pe_hf_read_file(arg, o->arch, err, cap) != PE_OK)
		return 2; /* the loader's message names the file */
	if (layer >= o->arch->nlayers)
		return opt_fail(err, cap, "--layer %zu: the model of %s has %zu "
		    "layers (0 to %zu)", layer, arg, o->arch->nlayers,
		    o->arch->nlayers - 1);
	o->layer = layer;
	o->cfg = o->arch->layers[layer].cfg;
	o->cfg.rope2d.layer = layer;
	o->cfg.teach.train_len = o->arch->train_len;
	/* the config's sizes are given: no encoding default replaces them */
	o->d_given = o->base_given = true;
	return 0;
}

/* See options_impl.h. */
int
opt_apply_hits(struct pe_options *o, const struct opt_hit *hits, int n,
    bool presets, bool *given, char *err, size_t cap)
{
	int rc = 0;
	for (int i = 0; rc == 0 && i < n; i++) {
		enum opt_id id = hits[i].id;
		bool is_preset = id == O_PRESET || id == O_PRESET_FILE ||
		    id == O_CONFIG;
		if (is_preset != presets)
			continue;
		if (id == O_CONFIG) {
			rc = config_apply_opt(o, hits[i].arg, hits, n, err, cap);
			continue;
		}
		if (is_preset) {
			rc = preset_apply_opt(o, id == O_PRESET_FILE,
			    hits[i].arg, err, cap);
			continue;
		}
		if (given != NULL)
			given[id] = true;
		rc = opt_apply(o, id, hits[i].arg, err, cap);
	}
	return rc;
}

/* Whether hits hold a preset. */
bool
opt_has_preset(const struct opt_hit *hits, int n)
{
	for (int i = 0; i < n; i++)
		if (hits[i].id == O_PRESET || hits[i].id == O_PRESET_FILE)
			return true;
	return false;
}

/* Whether the command line changed a number of the preset's config as:
 * saying the preset's own value again (-e rope with a rope preset) is no
 * change; --factor's "given" matters to longrope only. */
bool
opt_preset_modified(const struct pe_config *cfg, const struct pe_config *as)
{
	struct pe_config now = *cfg;
	if (now.rope.type != PE_ROPE_LONGROPE)
		now.rope.factor_given = as->rope.factor_given;
	return memcmp(&now, as, sizeof now) != 0;
}

/* The value of "key = value" in a preset's text, as a length-bounded
 * span; NULL when absent. */
static const char *
preset_field(const char *text, const char *key, int *len)
{
	size_t kl = strlen(key);
	for (const char *p = text; p != NULL && *p != '\0';) {
		if (strncmp(p, key, kl) == 0) {
			const char *q = p + kl;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '=') {
				q++;
				while (*q == ' ' || *q == '\t')
					q++;
				*len = (int)strcspn(q, "\n");
				return q;
			}
		}
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
	*len = 0;
	return NULL;
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
		const char *t = pe_presets[i].text;
		int dl, sl;
		const char *d = preset_field(t, "description", &dl);
		const char *s = preset_field(t, "source", &sl);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", dl, d ? d : "");
		preset_wrap(fp, pe_presets[i].name, line);
		if (s != NULL) {
			snprintf(line, sizeof line, "source: %.*s", sl, s);
			preset_wrap(fp, "", line);
		}
	}
}

/* See options.h: what --preset accepts, one at a time. */
const char *
pe_options_preset_at(size_t i, char *about, size_t cap)
{
	for (size_t k = 0; pe_presets[k].name != NULL; k++) {
		if (k != i)
			continue;
		int dl;
		const char *d = preset_field(pe_presets[k].text, "description",
		    &dl);
		snprintf(about, cap, "%.*s", dl, d != NULL ? d : "");
		return pe_presets[k].name;
	}
	return NULL;
}
