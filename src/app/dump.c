/* pescope dump: the raw numbers of one table, as CSV or NPY. Everything is
 * checked before any work; the output is written atomically. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "pescope/alibi.h"
#include "pescope/example.h"
#include "pescope/field.h"
#include "pescope/io.h"
#include "pescope/mrope.h"
#include "pescope/nope.h"
#include "pescope/relative.h"
#include "pescope/rope2d.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"
#include "pescope/toy.h"
#include "pescope/xpos.h"
#include "pescope/vit2d.h"

/* Largest output dump writes. */
#define DUMP_MAX_BYTES ((double)4 * 1024 * 1024 * 1024)

/* The axes a table's shape is made of. */
enum axis {
	AX_NONE,
	AX_POS,	  /* positions (vit2d: patches) */
	AX_D,	  /* d_model */
	AX_PAIRS, /* rope: rotary pairs, rot / 2 */
	AX_ROT,	  /* rope: rotary dims */
	AX_HEADS, /* alibi heads */
	AX_ONE,	  /* a single number */
	AX_TOKENS, /* the toy sentence's tokens */
	AX_BEYOND, /* rope: the pairs whose wavelength exceeds --train-len */
	AX_HALF,  /* d_model / 2: the pairs of a head whose every pair turns */
	AX_THREE, /* mrope: the position triple (t, h, w) */
};

struct dump_ctx;

/* One row per table: its name, which encodings (and relative kinds) have
 * it, its shape, whether it holds integers, how it is filled, what it
 * needs, and the options it names (options_table.h): its own, refused with
 * every other table, and those of other encodings it takes too. */
struct dump_table {
	const char *name;
	unsigned encs;	    /* 1 << enum pe_encoding */
	unsigned kinds;	    /* 1 << enum pe_relative_kind; 0: any */
	enum axis axes[3];  /* AX_NONE ends the shape */
	bool ints;	    /* int64 (the other tables are floating) */
	int (*fill)(const struct dump_ctx *x, void *dest);
	/* NULL, or whether the table can be written (PE_OK), else a
	 * sentence naming the option in why */
	int (*check)(const struct dump_ctx *x, char *why, size_t cap);
	const char *opts;   /* its own options, space-separated long names */
	const char *also;   /* options of other encodings it takes too */
};

/* What a fill function gets. */
struct dump_ctx {
	const struct pe_config *c;
	const struct pe_rope *r; /* rope only */
	const struct dump_table *t;
	size_t n;		 /* positions */
	size_t count;		 /* elements */
	size_t head;		 /* --head (toy attention) */
};

#define E(x) (1u << PE_ENC_##x)
#define E_VECTOR (E(SINUSOIDAL) | E(LEARNED) | E(VIT2D))
#define E_SIMILAR (E_VECTOR | E(ROPE) | E(NOPE) | E(MROPE) | E(XPOS) | \
    E(ROPE2D))
/* the toy attention's encodings (toy.h), named as in options.c */
#define E_TOY (E(SINUSOIDAL) | E(LEARNED) | E(RELATIVE) | E(ROPE) | E(ALIBI) | \
    E(NOPE))

/* The options of the toy tables: the sentence, its order, the mask and
 * relative's learned bias; they take d_model and --head with every
 * encoding (the toy's width, alibi's head, the bias's row). */
#define TOY_OPTS "tokens permute mask bias-file"
#define TOY_ALSO "d-model head"

static int fill_pe(const struct dump_ctx *x, void *dest);
static int fill_similarity(const struct dump_ctx *x, void *dest);
static int fill_rope(const struct dump_ctx *x, void *dest);
static int fill_alibi(const struct dump_ctx *x, void *dest);
static int fill_relative(const struct dump_ctx *x, void *dest);
static int fill_mask(const struct dump_ctx *x, void *dest);
static int fill_toy(const struct dump_ctx *x, void *dest);
static int fill_example(const struct dump_ctx *x, void *dest);
static int fill_shift(const struct dump_ctx *x, void *dest);
static int fill_beyond(const struct dump_ctx *x, void *dest);
static int fill_recency(const struct dump_ctx *x, void *dest);
static int fill_share(const struct dump_ctx *x, void *dest);
static int fill_mrope(const struct dump_ctx *x, void *dest);
static int fill_xpos(const struct dump_ctx *x, void *dest);
static int fill_rope2d(const struct dump_ctx *x, void *dest);
static int check_toy(const struct dump_ctx *x, char *why, size_t cap);
static int check_embedding(const struct dump_ctx *x, char *why, size_t cap);
static int check_train_len(const struct dump_ctx *x, char *why, size_t cap);

static const struct dump_table tables[] = {
	{"pe", E_VECTOR, 0, {AX_POS, AX_D}, false, fill_pe},
	{"similarity", E_SIMILAR, 0, {AX_POS, AX_POS}, false, fill_similarity},
	{"profile", E_SIMILAR, 0, {AX_POS}, false, fill_similarity},
	{"cosine", E(VIT2D), 0, {AX_POS, AX_POS}, false, fill_similarity},
	{"inv_freq", E(ROPE), 0, {AX_PAIRS}, false, fill_rope},
	{"angles", E(ROPE), 0, {AX_POS, AX_PAIRS}, false, fill_rope},
	{"cos", E(ROPE), 0, {AX_POS, AX_ROT}, false, fill_rope},
	{"sin", E(ROPE), 0, {AX_POS, AX_ROT}, false, fill_rope},
	{"wavelength", E(ROPE), 0, {AX_PAIRS}, false, fill_rope},
	{"attention_scaling", E(ROPE), 0, {AX_ONE}, false, fill_rope},
	{"slopes", E(ALIBI), 0, {AX_HEADS}, false, fill_alibi},
	{"bias", E(ALIBI), 0, {AX_HEADS, AX_POS, AX_POS}, false, fill_alibi},
	{"buckets", E(RELATIVE), 1u << PE_REL_T5, {AX_POS, AX_POS}, true,
	    fill_relative},
	{"index", E(RELATIVE), 1u << PE_REL_SHAW, {AX_POS, AX_POS}, true,
	    fill_relative},
	{"mask", E(NOPE), 0, {AX_POS, AX_POS}, false, fill_mask},
	/* issue 11: the toy attention (toy.h) */
	{"token_embeddings", E_TOY, 0, {AX_TOKENS, AX_D}, false, fill_toy,
	    check_toy, "tokens permute", "d-model"},
	{"scores", E_TOY, 0, {AX_TOKENS, AX_TOKENS}, false, fill_toy, check_toy,
	    TOY_OPTS, TOY_ALSO},
	{"attention", E_TOY, 0, {AX_TOKENS, AX_TOKENS}, false, fill_toy,
	    check_toy, TOY_OPTS, TOY_ALSO},
	/* the worked examples and the properties (example.h, sinusoidal.h,
	 * rope.h, alibi.h, nope.h) */
	{"sum", E(SINUSOIDAL) | E(LEARNED), 0, {AX_POS, AX_D}, false,
	    fill_example, check_embedding, "embedding", NULL},
	{"rotated", E(ROPE), 0, {AX_POS, AX_D}, false, fill_example,
	    check_embedding, "embedding", NULL},
	{"shift", E(SINUSOIDAL), 0, {AX_D, AX_D}, false, fill_shift, NULL,
	    "shift", NULL},
	{"decay", E(ROPE), 0, {AX_POS}, false, fill_rope},
	{"beyond", E(ROPE), 0, {AX_BEYOND}, true, fill_beyond, check_train_len,
	    "train-len", NULL},
	{"recency", E(ALIBI), 0, {AX_POS}, false, fill_recency},
	{"start_share", E(NOPE), 0, {AX_POS}, false, fill_share},
	/* issue 15: mrope (mrope.h); similarity and profile above */
	{"positions", E(MROPE), 0, {AX_POS, AX_THREE}, true, fill_mrope},
	{"angles", E(MROPE), 0, {AX_POS, AX_HALF}, false, fill_mrope},
	{"cos", E(MROPE), 0, {AX_POS, AX_D}, false, fill_mrope},
	{"sin", E(MROPE), 0, {AX_POS, AX_D}, false, fill_mrope},
	/* xpos (xpos.h): the queries' tables */
	{"scale", E(XPOS), 0, {AX_POS, AX_HALF}, false, fill_xpos},
	{"cos", E(XPOS), 0, {AX_POS, AX_D}, false, fill_xpos},
	{"sin", E(XPOS), 0, {AX_POS, AX_D}, false, fill_xpos},
	/* rope2d (rope2d.h): the patches' angles and freqs_cis */
	{"angles", E(ROPE2D), 0, {AX_POS, AX_HALF}, false, fill_rope2d},
	{"cos", E(ROPE2D), 0, {AX_POS, AX_HALF}, false, fill_rope2d},
	{"sin", E(ROPE2D), 0, {AX_POS, AX_HALF}, false, fill_rope2d},
};
#define NTABLES (sizeof tables / sizeof tables[0])

/* Whether the config's encoding (and relative kind) has table t. */
static bool
has_table(const struct pe_config *c, const struct dump_table *t)
{
	return (t->encs & (1u << c->enc)) &&
	    (c->enc != PE_ENC_RELATIVE || t->kinds == 0 ||
		(t->kinds & (1u << c->relative)));
}

/* The tables an encoding has, as "a, b, c" into buf. */
const char *
pe_dump_tables_of(const struct pe_config *c, char *buf, size_t cap)
{
	buf[0] = '\0';
	for (size_t t = 0; t < NTABLES; t++)
		if (has_table(c, &tables[t])) {
			if (buf[0] != '\0')
				strncat(buf, ", ", cap - strlen(buf) - 1);
			strncat(buf, tables[t].name, cap - strlen(buf) - 1);
		}
	return buf;
}

/* The first row named `name` at or after row `from`, or NULL. */
static const struct dump_table *
find_row(const char *name, size_t from)
{
	for (size_t t = from; name != NULL && t < NTABLES; t++)
		if (strcmp(name, tables[t].name) == 0)
			return &tables[t];
	return NULL;
}

/* Every table's name, space-separated, in table order (a name several
 * encodings' rows share, once). */
const char *
pe_dump_table_names(char *buf, size_t cap)
{
	buf[0] = '\0';
	for (size_t t = 0; t < NTABLES; t++) {
		if (find_row(tables[t].name, 0) != &tables[t])
			continue;
		size_t l = strlen(buf);
		snprintf(buf + l, cap - l, "%s%s", l ? " " : "", tables[t].name);
	}
	return buf;
}

/* Table `name` (the first row of that name). */
static const struct dump_table *
find_table(const char *name)
{
	return find_row(name, 0);
}

/* Table `name` as config c has it: the row of that name whose encodings
 * hold c's (several encodings may each have a row of one name, with its
 * own shape and fill), else the first row of the name, else NULL. */
static const struct dump_table *
find_table_for(const struct pe_config *c, const char *name)
{
	for (const struct dump_table *t = find_row(name, 0); t != NULL;
	     t = find_row(name, (size_t)(t - tables) + 1))
		if (has_table(c, t))
			return t;
	return find_table(name);
}

/* Whether the space-separated list has word w. */
static bool
list_has(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; p != NULL && *p != '\0';) {
		size_t l = strcspn(p, " ");
		if (l == n && strncmp(p, w, n) == 0)
			return true;
		p += l + (p[l] == ' ');
	}
	return false;
}

/* How table `table` takes option `opt`: as usual, for every encoding
 * (also), or not at all (another table's own: their names into buf). */
enum pe_dump_scope
pe_dump_option_scope(const char *table, const char *opt, char *buf,
    size_t cap)
{
	const struct dump_table *t = find_table(table);
	size_t total = 0, seen = 0;

	buf[0] = '\0';
	if (t == NULL || list_has(t->opts, opt))
		return PE_DUMP_OPT_USUAL;
	if (list_has(t->also, opt))
		return PE_DUMP_OPT_ALSO;
	for (size_t k = 0; k < NTABLES; k++)
		total += list_has(tables[k].opts, opt);
	if (total == 0)
		return PE_DUMP_OPT_USUAL;
	for (size_t k = 0; k < NTABLES; k++) {
		if (!list_has(tables[k].opts, opt))
			continue;
		size_t l = strlen(buf);
		snprintf(buf + l, cap - l, "%s%s",
		    seen == 0 ? "" : seen == total - 1 ? " and " : ", ",
		    tables[k].name);
		seen++;
	}
	return PE_DUMP_OPT_OTHER_TABLE;
}

/* Rows of the encoding's position axis (vit2d: patches). */
static size_t
npos(const struct pe_config *c)
{
	return pe_config_positions(c);
}

/* The toy sentence of config c: its tokens, reordered by --permute. */
static int
toy_sentence(const struct pe_config *c, struct pe_toy_sentence *dest)
{
	struct pe_toy_sentence s;
	int st = pe_toy_split(c->teach.tokens, &s);

	if (st != PE_OK)
		return st;
	if (c->teach.permute == NULL) {
		*dest = s;
		return PE_OK;
	}
	if (c->teach.n_permute != s.count)
		return PE_EINVAL;
	return pe_toy_permute(&s, c->teach.permute, dest);
}

/* The pairs rope's beyond lists: those whose unscaled wavelength (the
 * frequencies trained with at the original context) exceeds --train-len. */
static size_t
beyond(const struct pe_config *c, const struct pe_rope *r, size_t *dest)
{
	return pe_rope_beyond(r, (double)c->teach.train_len, true, dest);
}

/* Shape of table t for config c (r: the rope, rope only). */
static void
table_shape(const struct pe_config *c, const struct pe_rope *r,
    const struct dump_table *t, struct pe_table *dest)
{
	struct pe_toy_sentence s;
	size_t rot = r != NULL ? r->rot : 0;

	dest->ndim = 0;
	memset(dest->shape, 0, sizeof dest->shape);
	for (size_t k = 0; k < 3 && t->axes[k] != AX_NONE; k++) {
		size_t len = 1;
		switch (t->axes[k]) {
		case AX_POS: len = npos(c); break;
		case AX_D: len = c->d; break;
		case AX_PAIRS: len = rot / 2; break;
		case AX_ROT: len = rot; break;
		case AX_HEADS: len = c->heads; break;
		case AX_TOKENS:
			len = toy_sentence(c, &s) == PE_OK ? s.count : 0;
			break;
		case AX_BEYOND: len = r != NULL ? beyond(c, r, NULL) : 0; break;
		case AX_HALF: len = c->d / 2; break;
		case AX_THREE: len = 3; break;
		case AX_ONE:
		case AX_NONE: len = 1; break;
		}
		dest->shape[dest->ndim++] = len;
	}
}

/* Similarity matrix and profile of vit2d from its embedding (dot products);
 * with cosine, each divided by the two rows' norms (the ViT paper's
 * figure: cos(PE_i, PE_j) = PE_i . PE_j / (|PE_i| |PE_j|)). */
static void
vit2d_similarity(const struct pe_config *c, const double *pe, bool matrix,
    bool cosine, double *dest)
{
	size_t n = npos(c), d = c->d;
	for (size_t i = 0; i < (matrix ? n : 1); i++)
		for (size_t j = 0; j < n; j++) {
			double s = 0, si = 0, sj = 0;
			for (size_t k = 0; k < d; k++) {
				s += pe[i * d + k] * pe[j * d + k];
				si += pe[i * d + k] * pe[i * d + k];
				sj += pe[j * d + k] * pe[j * d + k];
			}
			dest[i * n + j] = cosine ? s / sqrt(si * sj) : s;
		}
}

/* pe: sinusoidal, vit2d, or the learned table (NaN past its rows). */
static int
fill_pe(const struct dump_ctx *x, void *dest)
{
	const struct pe_config *c = x->c;
	double *v = dest;
	if (c->enc == PE_ENC_SINUSOIDAL)
		return pe_sinusoidal_fill(0, x->n, c->d, c->base, c->layout, v);
	if (c->enc == PE_ENC_VIT2D)
		return pe_vit2d_fill(c->grid_h, c->grid_w, c->d, v);
	for (size_t p = 0; p < x->n; p++)
		for (size_t j = 0; j < c->d; j++)
			v[p * c->d + j] = p < c->max_len ? c->table[p * c->d + j] : NAN;
	return PE_OK;
}

/* similarity, profile (row 0 of it) and vit2d's cosine. */
static int
fill_similarity(const struct dump_ctx *x, void *dest)
{
	const struct pe_config *c = x->c;
	bool profile = strcmp(x->t->name, "profile") == 0;
	size_t n = x->n;
	double *v = dest;
	int st;

	if (c->enc == PE_ENC_VIT2D) {
		double *pe = malloc(n * c->d * sizeof *pe);
		if (pe == NULL)
			return PE_ENOMEM;
		st = pe_vit2d_fill(c->grid_h, c->grid_w, c->d, pe);
		if (st == PE_OK)
			vit2d_similarity(c, pe, !profile,
			    strcmp(x->t->name, "cosine") == 0, v);
		free(pe);
		return st;
	}
	struct pe_field f;
	if ((st = pe_field_init(&f, PE_FIELD_SIMILARITY, c)) != PE_OK)
		return st;
	if (profile) {
		st = pe_field_profile(&f, 0, n, v);
	} else if (c->enc == PE_ENC_SINUSOIDAL || c->enc == PE_ENC_ROPE) {
		/* S(i, j) depends on |i - j| only: one profile fills all. */
		double *prof = malloc(n * sizeof *prof);
		if (prof == NULL) {
			st = PE_ENOMEM;
		} else if ((st = pe_field_profile(&f, 0, n, prof)) == PE_OK) {
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < n; j++)
					v[i * n + j] = prof[i > j ? i - j : j - i];
		}
		free(prof);
	} else {
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				v[i * n + j] = pe_field_value(&f, i, j);
	}
	pe_field_free(&f);
	return st;
}

/* rope's frequency tables and RoFormer's decay bound. */
static int
fill_rope(const struct dump_ctx *x, void *dest)
{
	const struct pe_rope *r = x->r;
	const char *t = x->t->name;
	double *v = dest;

	if (strcmp(t, "decay") == 0)
		return pe_rope_decay_fill(r, 0, x->n, v);
	if (strcmp(t, "inv_freq") == 0 || strcmp(t, "wavelength") == 0) {
		bool inv = t[0] == 'i';
		for (size_t j = 0; j < r->npairs; j++)
			v[j] = inv ? r->inv_freq[j] : pe_rope_wavelength(r, j, false);
	} else if (strcmp(t, "attention_scaling") == 0) {
		v[0] = r->attention_scaling;
	} else if (strcmp(t, "angles") == 0) {
		for (size_t m = 0; m < x->n; m++)
			for (size_t j = 0; j < r->npairs; j++)
				v[m * r->npairs + j] = pe_rope_angle(r, (double)m, j);
	} else { /* cos or sin */
		double *other = malloc(x->count * sizeof *other);
		if (other == NULL)
			return PE_ENOMEM;
		int st = strcmp(t, "cos") == 0
		    ? pe_rope_fill_cos_sin(r, 0, x->n, v, other)
		    : pe_rope_fill_cos_sin(r, 0, x->n, other, v);
		free(other);
		return st;
	}
	return PE_OK;
}

/* alibi's slopes and bias. */
static int
fill_alibi(const struct dump_ctx *x, void *dest)
{
	if (strcmp(x->t->name, "slopes") == 0)
		return pe_alibi_slopes(x->c->heads, dest);
	return pe_alibi_fill(x->c, dest);
}

/* t5 buckets or shaw's clipped indices. */
static int
fill_relative(const struct dump_ctx *x, void *dest)
{
	return pe_relative_fill(x->c, dest);
}

/* nope's causal mask. */
static int
fill_mask(const struct dump_ctx *x, void *dest)
{
	return pe_nope_fill(x->n, dest);
}

/* The toy attention's tables: token_embeddings, scores, attention. */
static int
fill_toy(const struct dump_ctx *x, void *dest)
{
	struct pe_toy_sentence s;
	int st = toy_sentence(x->c, &s);

	if (st != PE_OK)
		return st;
	if (strcmp(x->t->name, "token_embeddings") == 0)
		return pe_toy_embeddings(&s, x->c->d, dest);
	if (strcmp(x->t->name, "scores") == 0)
		return pe_toy_scores(x->c, &s, x->head, dest);
	return pe_toy_attention(x->c, &s, x->head, dest);
}

/* sum (x + PE(p)) and rotated (R_p x) for every position. */
static int
fill_example(const struct dump_ctx *x, void *dest)
{
	const double *e = x->c->teach.embedding;

	if (x->c->enc == PE_ENC_ROPE)
		return pe_example_rotated(x->r, e, 0, x->n, dest);
	return pe_example_sum(x->c, e, 0, x->n, dest);
}

/* sinusoidal's M_K. */
static int
fill_shift(const struct dump_ctx *x, void *dest)
{
	const struct pe_config *c = x->c;
	return pe_sinusoidal_shift(c->d, c->base, c->layout, c->teach.shift,
	    dest);
}

/* rope's pairs beyond --train-len, as int64 indices. */
static int
fill_beyond(const struct dump_ctx *x, void *dest)
{
	size_t *idx = malloc((x->r->npairs + 1) * sizeof *idx);
	int64_t *v = dest;

	if (idx == NULL)
		return PE_ENOMEM;
	size_t n = beyond(x->c, x->r, idx);
	for (size_t k = 0; k < n; k++)
		v[k] = (int64_t)idx[k];
	free(idx);
	return PE_OK;
}

/* alibi's recency for the last query, averaged over heads. */
static int
fill_recency(const struct dump_ctx *x, void *dest)
{
	return pe_alibi_recency_fill(x->c, x->n - 1, dest);
}

/* nope's start-token share 1/(i+1). */
static int
fill_share(const struct dump_ctx *x, void *dest)
{
	double *v = dest;
	for (size_t i = 0; i < x->n; i++)
		v[i] = pe_nope_start_share(i);
	return PE_OK;
}

/* mrope's positions, angles, cos and sin. */
static int
fill_mrope(const struct dump_ctx *x, void *dest)
{
	const char *t = x->t->name;

	if (strcmp(t, "positions") == 0)
		return pe_mrope_fill_positions(x->c, dest);
	if (strcmp(t, "angles") == 0)
		return pe_mrope_fill_angles(x->c, dest);
	if (strcmp(t, "cos") == 0)
		return pe_mrope_fill_cos_sin(x->c, dest, NULL);
	return pe_mrope_fill_cos_sin(x->c, NULL, dest);
}

/* xpos's scale, cos and sin (the queries'). */
static int
fill_xpos(const struct dump_ctx *x, void *dest)
{
	const char *t = x->t->name;

	if (strcmp(t, "scale") == 0)
		return pe_xpos_fill_scale(x->c, dest);
	if (strcmp(t, "cos") == 0)
		return pe_xpos_fill_cos_sin(x->c, dest, NULL);
	return pe_xpos_fill_cos_sin(x->c, NULL, dest);
}

/* rope2d's angles, cos and sin. */
static int
fill_rope2d(const struct dump_ctx *x, void *dest)
{
	const char *t = x->t->name;

	if (strcmp(t, "angles") == 0)
		return pe_rope2d_fill_angles(x->c, dest);
	if (strcmp(t, "cos") == 0)
		return pe_rope2d_fill_cos_sin(x->c, dest, NULL);
	return pe_rope2d_fill_cos_sin(x->c, NULL, dest);
}

/* Whether the toy attention is defined here. */
static int
check_toy(const struct dump_ctx *x, char *why, size_t cap)
{
	struct pe_toy_sentence s;

	if (toy_sentence(x->c, &s) != PE_OK) {
		snprintf(why, cap, "--tokens, --permute: the toy sentence needs 1..%d "
		    "words and --permute a permutation of their indices",
		    PE_TOY_MAX_TOKENS);
		return PE_EINVAL;
	}
	return pe_toy_check(x->c, &s, x->head, why, cap);
}

/* sum and rotated need the worked example's x. */
static int
check_embedding(const struct dump_ctx *x, char *why, size_t cap)
{
	if (x->c->teach.embedding != NULL)
		return PE_OK;
	snprintf(why, cap, "--table %s needs --embedding LIST: x, d_model (%zu) "
	    "numbers", x->t->name, x->c->d);
	return PE_EINVAL;
}

/* beyond needs a training length. */
static int
check_train_len(const struct dump_ctx *x, char *why, size_t cap)
{
	if (x->c->teach.train_len > 0)
		return PE_OK;
	snprintf(why, cap, "--table beyond needs --train-len L, the model's "
	    "training context (the rope presets set it)");
	return PE_EINVAL;
}

/* 0 when config c has table `name`, else 2 and why. */
int
pe_dump_check_table(const struct pe_config *c, const char *name, char *err,
    size_t cap)
{
	const struct dump_table *t = find_table_for(c, name);
	char names[512];

	if (t == NULL) {
		snprintf(err, cap, "--table '%s': unknown table; %s has: %s", name,
		    pe_encoding_name(c->enc), pe_dump_tables_of(c, names, sizeof names));
		return PE_EXIT_USAGE;
	}
	if (!has_table(c, t)) {
		snprintf(err, cap, "--table '%s': not available for %s%s; it has: %s",
		    name, pe_encoding_name(c->enc),
		    c->enc == PE_ENC_RELATIVE
			? (c->relative == PE_REL_T5 ? " (t5)" : " (shaw)") : "",
		    pe_dump_tables_of(c, names, sizeof names));
		return PE_EXIT_USAGE;
	}
	return 0;
}

/* pescope dump. */
int
pe_dump_run(const struct pe_options *o)
{
	const struct pe_config *c = &o->cfg;
	const struct dump_table *t = find_table_for(c, o->table);
	char why[1024];

	if (pe_dump_check_table(c, o->table, why, sizeof why) != 0) {
		pe_app_error("%s", why);
		return PE_EXIT_USAGE;
	}

	struct pe_rope rope;
	memset(&rope, 0, sizeof rope);
	if (c->enc == PE_ENC_ROPE) {
		if (pe_rope_init(&rope, c) != PE_OK) {
			pe_app_error("rope: cannot derive the frequencies");
			return PE_EXIT_USAGE;
		}
	}

	struct pe_table tab;
	memset(&tab, 0, sizeof tab);
	struct dump_ctx x = {c, &rope, t, npos(c), 0, o->head};
	int rc = PE_EXIT_USAGE;
	if (t->check != NULL && t->check(&x, why, sizeof why) != PE_OK) {
		char msg[sizeof why + 64];
		pe_options_flags(why, msg, sizeof msg);
		pe_app_error("%s", msg);
		goto end;
	}
	table_shape(c, c->enc == PE_ENC_ROPE ? &rope : NULL, t, &tab);
	enum pe_dtype dt = t->ints ? PE_I64 : o->dtype;
	double elems = (double)tab.shape[0] *
	    (double)(tab.ndim > 1 ? tab.shape[1] : 1) *
	    (double)(tab.ndim > 2 ? tab.shape[2] : 1);
	double bytes = elems * (dt == PE_F32 ? 4 : 8);
	if (bytes > DUMP_MAX_BYTES) {
		pe_app_error("--table %s: [%zu x %zu%s] is %.1f GiB; dump writes at "
		    "most 4 GiB (lower --seq-len or --d-model)", o->table,
		    tab.shape[0], tab.ndim > 1 ? tab.shape[1] : 1,
		    tab.ndim > 2 ? " x ..." : "", bytes / (1024.0 * 1024 * 1024));
		goto end;
	}
	if (o->dump_format == PE_DUMP_CSV && tab.ndim == 3 && !o->head_given) {
		pe_app_error("--table %s is 3-D [%zu, %zu, %zu]: CSV needs --head H "
		    "(0..%zu), or use --format npy", o->table, tab.shape[0],
		    tab.shape[1], tab.shape[2], tab.shape[0] - 1);
		goto end;
	}

	/* --head picks the CSV slice of a 3-D table; the toy tables take it
	 * as an input (alibi's head, the bias's row), and so does an encoding
	 * whose parameter it is (rope2d mixed's head) */
	bool head_input = list_has(t->also, "head") || o->head_in_config;
	if (o->head_given && !head_input &&
	    (tab.ndim != 3 || o->dump_format == PE_DUMP_NPY)) {
		pe_app_error(tab.ndim != 3
			? "--head: table %s has no head axis"
			: "--head: table %s as NPY holds every head; --head picks "
			  "the head written as CSV", o->table);
		goto end;
	}

	/* The output is created before any work: a bad path costs nothing. */
	struct pe_atomic out;
	const char *path = o->output != NULL ? o->output : "-";
	if (pe_atomic_open(&out, path) != PE_OK) {
		pe_app_error("-o '%s': cannot create a file there: %s", path,
		    strerror(errno));
		goto end;
	}
	x.count = (size_t)elems;
	void *buf = malloc((x.count > 0 ? x.count : 1) *
	    (t->ints ? sizeof(int64_t) : sizeof(double)));
	int st = buf == NULL ? PE_ENOMEM : t->fill(&x, buf);
	if (t->ints)
		tab.i = buf;
	else
		tab.f = buf;
	if (st != PE_OK) {
		pe_atomic_abort(&out);
		pe_app_error("--table %s: %s", o->table, pe_strerror(st));
		rc = st == PE_ENOMEM ? PE_EXIT_FAIL : PE_EXIT_USAGE;
		goto free_bufs;
	}
	/* a finite number past float32's range would be written as inf:
	 * round to nearest overflows from 2^128 - 2^103 (halfway past
	 * FLT_MAX) on */
	if (dt == PE_F32 && tab.f != NULL) {
		size_t count = (size_t)elems;
		for (size_t k = 0; k < count; k++)
			if (isfinite(tab.f[k]) && fabs(tab.f[k]) >= 0x1.ffffffp+127) {
				pe_app_error("--dtype f32: entry %zu of --table %s is %g, "
				    "past float32's range (it would be written as inf); "
				    "use --dtype f64", k, o->table, tab.f[k]);
				pe_atomic_abort(&out);
				rc = PE_EXIT_USAGE;
				goto free_bufs;
			}
	}

	st = o->dump_format == PE_DUMP_NPY ? pe_npy_write(out.fp, &tab, dt)
					   : pe_csv_write(out.fp, &tab, dt, o->head);
	if (st == PE_OK)
		st = pe_atomic_commit(&out);
	else
		pe_atomic_abort(&out);
	if (st != PE_OK) {
		pe_app_error("-o '%s': write failed (%s); nothing was written", path,
		    strerror(errno));
		rc = PE_EXIT_FAIL;
	} else {
		rc = PE_EXIT_OK;
	}
free_bufs:
	free(buf);
end:
	if (c->enc == PE_ENC_ROPE)
		pe_rope_free(&rope);
	return rc;
}
