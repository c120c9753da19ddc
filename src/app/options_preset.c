/* Models: --config FILE (a Hugging Face config.json) and --preset NAME
 * (a shipped config, assets/models/NAME.json, compiled in by
 * tools/embed.sh) are one mechanism: the loader (io/hfconfig.c) reads
 * either into the model, whose layer --layer names becomes the config
 * before the command line's other options, so that those override it
 * wherever they stand. The last model named is the one (as the last value
 * of any option is). Also the "option = value" lines lessons share. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options_impl.h"
#include "io/hfconfig.h"

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

/* A layer number, as --layer gives it: "--layer 's': a layer number". */
static int
model_layer(const char *s, size_t *dest, char *err, size_t cap)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (s[0] < '0' || s[0] > '9' || *end != '\0' || errno != 0)
		return opt_fail(err, cap, "--layer '%s': a layer number (from "
		    "0)", s);
	*dest = (size_t)v;
	return 0;
}

/* The model of hit m (--preset NAME, the compiled-in config, or --config
 * FILE) at layer `layer` into *o: its layer's config becomes the config,
 * as the options after override it. */
static int
model_apply(struct pe_options *o, const struct opt_hit *m, size_t layer,
    char *err, size_t cap)
{
	bool preset = m->id == O_PRESET;
	int st;

	if (m->arg[0] == '\0')
		return opt_fail(err, cap, "--%s: the %s is empty",
		    pe_opts[m->id].name, preset ? "name" : "file name");
	if (o->arch == NULL) {
		if ((o->arch = calloc(1, sizeof *o->arch)) == NULL)
			return opt_fail(err, cap, "out of memory");
		pe_arch_init(o->arch);
	}
	free(o->config);
	free(o->preset);
	o->config = o->preset = NULL;
	if (opt_own(preset ? &o->preset : &o->config, m->arg, err, cap) != 0)
		return 2;
	st = preset ? pe_preset_read(m->arg, o->arch, err, cap)
		    : pe_hf_read_file(m->arg, o->arch, err, cap);
	if (st == PE_OK && layer >= o->arch->nlayers) {
		opt_fail(err, cap, "--layer %zu: the model of %s has %zu "
		    "layers (0 to %zu)", layer, m->arg, o->arch->nlayers,
		    o->arch->nlayers - 1);
		st = PE_EINVAL;
	}
	if (st != PE_OK) { /* the loader's message names the file; the
			    * option goes in front */
		if (strncmp(err, "--", 2) != 0) {
			char *why = strdup(err);
			opt_fail(err, cap, "--%s: %s", pe_opts[m->id].name,
			    why != NULL ? why : "cannot be read");
			free(why);
		}
		pe_arch_free(o->arch);
		free(o->arch);
		o->arch = NULL;
		return 2;
	}
	o->layer = layer;
	o->cfg = o->arch->layers[layer].cfg;
	o->cfg.rope2d.layer = layer;
	o->cfg.teach.train_len = o->arch->train_len;
	/* linear scaling has no original_max_position_embeddings: the
	 * config's max_position_embeddings is the context it trained at with
	 * the scaled angles (modeling_rope_utils.py, linear: inv_freq /
	 * factor) */
	o->cfg.teach.train_scaled = o->cfg.rope.type == PE_ROPE_LINEAR;
	/* the config's sizes are given: no encoding default replaces them */
	o->d_given = o->base_given = true;
	return 0;
}

/* See options_impl.h. */
int
opt_apply_model(struct pe_options *o, const struct opt_hit *ha, int na,
    const struct opt_hit *hb, int nb, char *err, size_t cap)
{
	const struct opt_hit *model = NULL, *layer = NULL;
	size_t l = 0;

	for (int i = 0; i < na + nb; i++) {
		const struct opt_hit *h = i < na ? &ha[i] : &hb[i - na];
		if (opt_is_model(h->id))
			model = h;
		else if (h->id == O_LAYER)
			layer = h;
	}
	if (model == NULL)
		return 0;
	if (layer != NULL && model_layer(layer->arg, &l, err, cap) != 0)
		return 2;
	return model_apply(o, model, l, err, cap);
}

/* See options_impl.h. */
int
opt_apply_hits(struct pe_options *o, const struct opt_hit *hits, int n,
    bool *given, char *err, size_t cap)
{
	int rc = 0;
	for (int i = 0; rc == 0 && i < n; i++) {
		enum opt_id id = hits[i].id;
		if (given != NULL)
			given[id] = true;
		if (opt_is_model(id))
			continue; /* opt_apply_model's */
		rc = opt_apply(o, id, hits[i].arg, err, cap);
	}
	return rc;
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
