/* A model as its layers (model.h): holding, checking, grouping and
 * describing them. What a config's keys mean is the reader's
 * (src/io/hfconfig.c); here a layer is a struct pe_config and a struct
 * pe_attn. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/encoding.h"
#include "pescope/model.h"
#include "pescope/rope.h"

/* An empty model. */
void
pe_arch_init(struct pe_arch *a)
{
	memset(a, 0, sizeof *a);
}

/* Release what a model owns. */
void
pe_arch_free(struct pe_arch *a)
{
	free(a->description);
	free(a->source);
	free(a->layers);
	free(a->notes);
	for (size_t i = 0; i < a->nlists; i++)
		free(a->lists[i]);
	free(a->lists);
	pe_arch_init(a);
}

/* n layers of default configs, full causal attention, no rotation. */
int
pe_arch_set_layers(struct pe_arch *a, size_t n)
{
	if (n == 0 || n > PE_MAX_LAYERS)
		return PE_EINVAL;
	struct pe_layer *l = calloc(n, sizeof *l);
	if (l == NULL)
		return PE_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		pe_config_default(&l[i].cfg);
		l[i].cfg.attn.exact = true;
		l[i].cfg.attn.causal = true;
		l[i].cfg.attn.span = PE_SPAN_FULL;
		snprintf(l[i].type, sizeof l[i].type, "full_attention");
	}
	free(a->layers);
	a->layers = l;
	a->nlayers = n;
	return PE_OK;
}

/* A list of count doubles the model owns. */
double *
pe_arch_lists(struct pe_arch *a, size_t count)
{
	if (count == 0 || count > PE_MAX_D)
		return NULL;
	double **grown = realloc(a->lists, (a->nlists + 1) * sizeof *grown);
	if (grown == NULL)
		return NULL;
	a->lists = grown;
	double *list = calloc(count, sizeof *list);
	if (list == NULL)
		return NULL;
	a->lists[a->nlists++] = list;
	return list;
}

/* The character at s as a note shows it, into piece[8]: itself, or for
 * a control character (C0, DEL, C1) or a byte that is not UTF-8 "\xNN"
 * (a note quotes a config's keys and values: no escape sequence reaches a
 * terminal). Returns the bytes of s it took; *len the bytes written. */
static size_t
note_piece(const unsigned char *s, char *piece, size_t *len)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 :
	    c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	bool ok = n > 0 && !(n == 1 && (c < 0x20 || c == 0x7f)) &&
	    !(n == 2 && c == 0xc2 && s[1] < 0xa0);
	for (size_t k = 1; ok && k < n; k++)
		ok = (s[k] & 0xc0) == 0x80;
	if (!ok) {
		snprintf(piece, 8, "\\x%02x", c);
		*len = 4;
		return 1;
	}
	memcpy(piece, s, n);
	*len = n;
	return n;
}

/* Copy src into dest[cap] printable (note_piece), shortened with "..."
 * after a whole character when it does not fit. */
static void
note_copy(char *dest, size_t cap, const char *src)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t total = 0, o = 0, len;
	char piece[8];

	for (size_t i = 0; s[i] != '\0'; total += len)
		i += note_piece(s + i, piece, &len);
	size_t room = total < cap ? cap - 1 : cap - 4;
	for (size_t i = 0; s[i] != '\0';) {
		size_t took = note_piece(s + i, piece, &len);
		if (o + len > room)
			break;
		memcpy(dest + o, piece, len);
		o += len;
		i += took;
	}
	if (total >= cap)
		memcpy(dest + o, "...", 4);
	else
		dest[o] = '\0';
}

/* Note a key pescope does not model (once per key). */
int
pe_arch_note(struct pe_arch *a, const char *key, const char *value,
             const char *why)
{
	struct pe_model_note n;

	note_copy(n.key, sizeof n.key, key);
	note_copy(n.value, sizeof n.value, value != NULL ? value : "");
	note_copy(n.why, sizeof n.why, why);
	for (size_t i = 0; i < a->nnotes; i++)
		if (strcmp(a->notes[i].key, n.key) == 0)
			return PE_OK;
	struct pe_model_note *grown =
	    realloc(a->notes, (a->nnotes + 1) * sizeof *grown);
	if (grown == NULL)
		return PE_ENOMEM;
	a->notes = grown;
	a->notes[a->nnotes++] = n;
	return PE_OK;
}

/* Check each layer's config and shape. */
int
pe_arch_check(const struct pe_arch *a, char *why, size_t cap)
{
	char sentence[512];

	if (a->nlayers == 0 || a->layers == NULL) {
		if (why != NULL && cap > 0)
			snprintf(why, cap, "the model has no layers");
		return PE_EINVAL;
	}
	for (size_t i = 0; i < a->nlayers; i++) {
		const struct pe_layer *l = &a->layers[i];
		const char *bad = NULL;
		if (pe_config_check(&l->cfg, sentence, sizeof sentence) !=
		    PE_OK)
			bad = sentence;
		else if (l->cfg.attn.span == PE_SPAN_SLIDING &&
		    l->cfg.attn.window == 0)
			bad = "a sliding window of 0 keys sees nothing";
		else if (l->cfg.attn.span == PE_SPAN_CHUNKED &&
		    l->cfg.attn.chunk == 0)
			bad = "a chunk of 0 positions holds nothing";
		if (bad != NULL) {
			if (why != NULL && cap > 0)
				snprintf(why, cap, "layer %zu (%s): %s", i,
				    l->type, bad);
			return PE_EINVAL;
		}
	}
	return PE_OK;
}

/* Two doubles that are the same number (NaN equal to NaN). */
static bool
same_number(double x, double y)
{
	return x == y || (isnan(x) && isnan(y));
}

/* Two factor lists with the same values. */
static bool
same_list(const double *x, size_t nx, const double *y, size_t ny)
{
	if (nx != ny)
		return false;
	if (x == y || nx == 0)
		return true;
	if (x == NULL || y == NULL)
		return false;
	return memcmp(x, y, nx * sizeof *x) == 0;
}

/* Whether two rope scalings are the same. */
static bool
same_scaling(const struct pe_rope_scaling *x, const struct pe_rope_scaling *y)
{
	return x->type == y->type && same_number(x->factor, y->factor) &&
	       x->factor_given == y->factor_given &&
	       x->original_max_pos == y->original_max_pos &&
	       x->max_pos == y->max_pos &&
	       same_number(x->beta_fast, y->beta_fast) &&
	       same_number(x->beta_slow, y->beta_slow) &&
	       same_number(x->mscale, y->mscale) &&
	       same_number(x->mscale_all_dim, y->mscale_all_dim) &&
	       same_number(x->attention_factor, y->attention_factor) &&
	       x->truncate == y->truncate &&
	       same_number(x->low_freq_factor, y->low_freq_factor) &&
	       same_number(x->high_freq_factor, y->high_freq_factor) &&
	       same_number(x->partial_rotary, y->partial_rotary) &&
	       same_list(x->short_factor, x->n_short, y->short_factor,
	                 y->n_short) &&
	       same_list(x->long_factor, x->n_long, y->long_factor, y->n_long);
}

/* Whether two layers do the same with positions. */
bool
pe_layer_same_kind(const struct pe_layer *x, const struct pe_layer *y)
{
	const struct pe_config *a = &x->cfg, *b = &y->cfg;

	const struct pe_attn *s = &a->attn, *t = &b->attn;
	if (strcmp(x->type, y->type) != 0 || s->exact != t->exact ||
	    s->rotates != t->rotates || s->causal != t->causal ||
	    s->span != t->span || s->window != t->window ||
	    s->chunk != t->chunk || s->head_dim != t->head_dim ||
	    s->rotary_dim != t->rotary_dim ||
	    s->qk_rope_dim != t->qk_rope_dim ||
	    s->qk_nope_dim != t->qk_nope_dim ||
	    !same_number(s->softmax_scale, t->softmax_scale) ||
	    s->heads != t->heads ||
	    !same_list(s->sinks, s->n_sinks, t->sinks, t->n_sinks) ||
	    s->temperature != t->temperature ||
	    (s->temperature && (!same_number(s->floor_scale, t->floor_scale) ||
	    !same_number(s->attn_scale, t->attn_scale))))
		return false;
	if (a->enc != b->enc || a->d != b->d || a->n != b->n ||
	    !same_number(a->base, b->base) || a->pairing != b->pairing ||
	    a->heads != b->heads || a->alibi_mode != b->alibi_mode ||
	    a->relative != b->relative || a->buckets != b->buckets ||
	    a->max_distance != b->max_distance ||
	    a->bidirectional != b->bidirectional || a->max_len != b->max_len ||
	    a->grid_h != b->grid_h || a->grid_w != b->grid_w)
		return false;
	return same_scaling(&a->rope, &b->rope) &&
	       memcmp(a->mrope.mrope_section, b->mrope.mrope_section,
	              sizeof a->mrope.mrope_section) == 0 &&
	       a->mrope.layout == b->mrope.layout &&
	       same_number(a->mrope.tokens_per_second,
	                   b->mrope.tokens_per_second) &&
	       same_number(a->mrope.seconds_per_frame,
	                   b->mrope.seconds_per_frame);
}

/* Group layers into kinds in order of first appearance. */
size_t
pe_arch_kinds(const struct pe_arch *a, size_t *kind_of)
{
	size_t kinds = 0;

	for (size_t i = 0; i < a->nlayers; i++) {
		size_t k = kinds;
		for (size_t j = 0; j < i; j++)
			if (pe_layer_same_kind(&a->layers[i], &a->layers[j])) {
				k = kind_of[j];
				break;
			}
		kind_of[i] = k;
		if (k == kinds)
			kinds++;
	}
	return kinds;
}

/* Append printf text to dest[cap] at *len (len keeps counting past cap,
 * as snprintf's result does). */
static void
describe_add(char *dest, size_t cap, int *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
describe_add(char *dest, size_t cap, int *len, const char *fmt, ...)
{
	va_list ap;
	size_t at = (size_t)*len;

	va_start(ap, fmt);
	int n = vsnprintf(at < cap ? dest + at : NULL, at < cap ? cap - at : 0,
	                  fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += n;
}

/* A layer's kind in a few words. */
int
pe_layer_describe(const struct pe_layer *l, char *dest, size_t cap)
{
	const struct pe_config *c = &l->cfg;
	const struct pe_attn *t = &l->cfg.attn;
	int len = 0;

	if (cap > 0)
		dest[0] = '\0';
	if (t->span == PE_SPAN_SLIDING)
		describe_add(dest, cap, &len, "sliding %zu", t->window);
	else if (t->span == PE_SPAN_CHUNKED)
		describe_add(dest, cap, &len, "chunked %zu", t->chunk);
	else
		describe_add(dest, cap, &len, "%s",
		             t->causal ? "full" : "bidirectional");
	const struct pe_encoding_def *def = pe_config_def(c);
	bool rope = (def->caps & PE_CAP_ROPE) != 0;
	if (rope && !t->exact) { /* a rope type pescope does not compute */
		describe_add(dest, cap, &len, " · rope not modelled");
		return len;
	}
	if (def->attention == PE_ATTN_NONE || (rope && !t->rotates)) {
		describe_add(dest, cap, &len, " · NoPE");
	} else if (def->describe == NULL) {
		describe_add(dest, cap, &len, " · %s", def->name);
	} else {
		describe_add(dest, cap, &len, " · ");
		size_t at = (size_t)len;
		int n = def->describe(c, at < cap ? dest + at : NULL,
		                      at < cap ? cap - at : 0);
		if (n > 0)
			len += n;
		/* a decoupled head says so below */
		if (rope && t->rotary_dim != 0 && t->rotary_dim != t->head_dim &&
		    t->qk_rope_dim == 0)
			describe_add(dest, cap, &len, " · rotary %zu of %zu",
			             t->rotary_dim, t->head_dim);
	}
	/* what the layer's softmax does besides (attn.h) */
	if (t->qk_rope_dim > 0)
		describe_add(dest, cap, &len, " · nope %zu + rope %zu",
		             t->qk_nope_dim, t->qk_rope_dim);
	if (t->temperature)
		describe_add(dest, cap, &len, " · temperature ⌊(p+1)/%.15g⌋ "
		             "×%.15g", t->floor_scale, t->attn_scale);
	if (t->sinks != NULL)
		describe_add(dest, cap, &len, " · sinks ×%zu", t->n_sinks);
	return len;
}

/* A layer's wavelengths against its reach and the trained context. */
int
pe_layer_bands(const struct pe_layer *l, size_t train_len,
               struct pe_layer_bands *dest)
{
	memset(dest, 0, sizeof *dest);
	const struct pe_config *c = &l->cfg;
	dest->reach = l->cfg.attn.span == PE_SPAN_SLIDING ? l->cfg.attn.window :
	    l->cfg.attn.span == PE_SPAN_CHUNKED ? l->cfg.attn.chunk : c->n;
	if (!l->cfg.attn.rotates || !l->cfg.attn.exact ||
	    !(pe_config_def(c)->caps & PE_CAP_ROPE))
		return PE_OK;
	struct pe_rope r;
	int rc = pe_rope_init(&r, c);
	if (rc != PE_OK)
		return rc;
	struct pe_config tc = *c;
	tc.teach.train_scaled = c->rope.type == PE_ROPE_LINEAR;
	bool scaled = pe_rope_trained_scaled(&tc);
	dest->pairs = r.npairs;
	dest->shortest = INFINITY;
	dest->longest = 0.0;
	for (size_t j = 0; j < r.npairs; j++) {
		double w = pe_rope_wavelength(&r, j, false);
		dest->shortest = fmin(dest->shortest, w);
		dest->longest = fmax(dest->longest, w);
		if (w <= (double)dest->reach)
			dest->turn_in_reach++;
		/* with the angles it was trained with, as pe_rope_never_turned
		 * counts the rest: a model's own linear scaling trained scaled
		 * at train_len (as --config sets teach.train_scaled), YaRN's and
		 * llama3's unscaled at the original context */
		if (pe_rope_wavelength(&r, j, !scaled) <= (double)train_len)
			dest->turn_in_train++;
	}
	pe_rope_free(&r);
	return PE_OK;
}

/* The layers of kind k as ranges. */
size_t
pe_arch_kind_ranges(const struct pe_arch *a, const size_t *kind_of, size_t k,
                    char *dest, size_t cap)
{
	size_t count = 0;
	int len = 0;

	if (cap > 0)
		dest[0] = '\0';
	for (size_t i = 0; i < a->nlayers; i++) {
		if (kind_of[i] != k)
			continue;
		size_t j = i;
		while (j + 1 < a->nlayers && kind_of[j + 1] == k)
			j++;
		count += j - i + 1;
		if (j == i)
			describe_add(dest, cap, &len, "%s%zu", len ? ", "
			    "" : "", i);
		else
			describe_add(dest, cap, &len, "%s%zu-%zu", len ? ", "
			    "" : "",
			             i, j);
		i = j;
	}
	if ((size_t)len >= cap && cap >= 4)
		memcpy(dest + cap - 4, "...", 4);
	return count;
}
