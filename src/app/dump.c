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
#include "pescope/field.h"
#include "pescope/io.h"
#include "pescope/nope.h"
#include "pescope/relative.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"
#include "pescope/vit2d.h"

/* Largest output dump writes. */
#define DUMP_MAX_BYTES ((double)4 * 1024 * 1024 * 1024)

enum table_id {
	T_PE, T_SIMILARITY, T_PROFILE, T_COSINE, T_INV_FREQ, T_ANGLES, T_COS,
	T_SIN, T_WAVELENGTH, T_ATTENTION_SCALING, T_SLOPES, T_BIAS, T_BUCKETS,
	T_INDEX, T_MASK, T_COUNT
};

static const char *const table_names[T_COUNT] = {
	"pe", "similarity", "profile", "cosine", "inv_freq", "angles", "cos",
	"sin", "wavelength", "attention_scaling", "slopes", "bias", "buckets",
	"index", "mask",
};

/* Whether encoding e (with its relative kind) has table t. */
static bool
has_table(const struct pe_config *c, enum table_id t)
{
	switch (c->enc) {
	case PE_ENC_SINUSOIDAL:
	case PE_ENC_LEARNED:
		return t == T_PE || t == T_SIMILARITY || t == T_PROFILE;
	case PE_ENC_VIT2D: /* cosine: the maps the TUI shows */
		return t == T_PE || t == T_SIMILARITY || t == T_PROFILE ||
		    t == T_COSINE;
	case PE_ENC_ROPE:
		return t == T_INV_FREQ || t == T_ANGLES || t == T_COS ||
		    t == T_SIN || t == T_WAVELENGTH || t == T_ATTENTION_SCALING ||
		    t == T_SIMILARITY || t == T_PROFILE;
	case PE_ENC_ALIBI:
		return t == T_SLOPES || t == T_BIAS;
	case PE_ENC_RELATIVE:
		return c->relative == PE_REL_T5 ? t == T_BUCKETS : t == T_INDEX;
	case PE_ENC_NOPE:
		return t == T_MASK || t == T_SIMILARITY || t == T_PROFILE;
	default:
		return false;
	}
}

/* The tables an encoding has, as "a, b, c" into buf. */
static const char *
list_tables(const struct pe_config *c, char *buf, size_t cap)
{
	buf[0] = '\0';
	for (int t = 0; t < T_COUNT; t++)
		if (has_table(c, (enum table_id)t)) {
			if (buf[0] != '\0')
				strncat(buf, ", ", cap - strlen(buf) - 1);
			strncat(buf, table_names[t], cap - strlen(buf) - 1);
		}
	return buf;
}

/* Rows of the encoding's position axis (vit2d: patches). */
static size_t
npos(const struct pe_config *c)
{
	return c->enc == PE_ENC_VIT2D ? c->grid_h * c->grid_w : c->n;
}

/* Shape of table t for config c. */
static void
table_shape(const struct pe_config *c, size_t rot, enum table_id t,
    struct pe_table *dest)
{
	size_t n = npos(c);
	dest->ndim = 2;
	dest->shape[2] = 0;
	switch (t) {
	case T_PE:
		dest->shape[0] = n, dest->shape[1] = c->d;
		break;
	case T_SIMILARITY:
	case T_COSINE:
	case T_BUCKETS:
	case T_INDEX:
	case T_MASK:
		dest->shape[0] = n, dest->shape[1] = n;
		break;
	case T_PROFILE:
		dest->ndim = 1, dest->shape[0] = n, dest->shape[1] = 0;
		break;
	case T_INV_FREQ:
	case T_WAVELENGTH:
		dest->ndim = 1, dest->shape[0] = rot / 2, dest->shape[1] = 0;
		break;
	case T_ATTENTION_SCALING:
		dest->ndim = 1, dest->shape[0] = 1, dest->shape[1] = 0;
		break;
	case T_SLOPES:
		dest->ndim = 1, dest->shape[0] = c->heads, dest->shape[1] = 0;
		break;
	case T_ANGLES:
		dest->shape[0] = n, dest->shape[1] = rot / 2;
		break;
	case T_COS:
	case T_SIN:
		dest->shape[0] = n, dest->shape[1] = rot;
		break;
	case T_BIAS:
		dest->ndim = 3;
		dest->shape[0] = c->heads, dest->shape[1] = n, dest->shape[2] = n;
		break;
	default:
		break;
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

/* Compute table t into tab (allocating its buffer). */
static int
compute(const struct pe_config *c, const struct pe_rope *r, enum table_id t,
    struct pe_table *tab, double **fbuf, int64_t **ibuf)
{
	size_t count = tab->shape[0] * (tab->ndim > 1 ? tab->shape[1] : 1) *
	    (tab->ndim > 2 ? tab->shape[2] : 1);
	size_t n = npos(c);
	int st = PE_OK;

	if (t == T_BUCKETS || t == T_INDEX) {
		*ibuf = malloc(count * sizeof **ibuf);
		if (*ibuf == NULL)
			return PE_ENOMEM;
		tab->i = *ibuf;
		return pe_relative_fill(c, *ibuf);
	}
	*fbuf = malloc(count * sizeof **fbuf);
	double *v = *fbuf;
	if (v == NULL)
		return PE_ENOMEM;
	tab->f = v;

	switch (t) {
	case T_PE:
		if (c->enc == PE_ENC_SINUSOIDAL)
			return pe_sinusoidal_fill(0, n, c->d, c->base, c->layout, v);
		if (c->enc == PE_ENC_VIT2D)
			return pe_vit2d_fill(c->grid_h, c->grid_w, c->d, v);
		for (size_t p = 0; p < n; p++)
			for (size_t j = 0; j < c->d; j++)
				v[p * c->d + j] = p < c->max_len
				    ? (double)c->table[p * c->d + j] : NAN;
		return PE_OK;
	case T_SIMILARITY:
	case T_PROFILE:
	case T_COSINE: {
		if (c->enc == PE_ENC_VIT2D) {
			double *pe = malloc(n * c->d * sizeof *pe);
			if (pe == NULL)
				return PE_ENOMEM;
			st = pe_vit2d_fill(c->grid_h, c->grid_w, c->d, pe);
			if (st == PE_OK)
				vit2d_similarity(c, pe, t != T_PROFILE,
				    t == T_COSINE, v);
			free(pe);
			return st;
		}
		struct pe_field f;
		if ((st = pe_field_init(&f, PE_FIELD_SIMILARITY, c)) != PE_OK)
			return st;
		if (t == T_PROFILE) {
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
	case T_INV_FREQ:
		for (size_t j = 0; j < r->npairs; j++)
			v[j] = r->inv_freq[j];
		return PE_OK;
	case T_WAVELENGTH:
		for (size_t j = 0; j < r->npairs; j++)
			v[j] = pe_rope_wavelength(r, j, false);
		return PE_OK;
	case T_ATTENTION_SCALING:
		v[0] = r->attention_scaling;
		return PE_OK;
	case T_ANGLES:
		for (size_t m = 0; m < n; m++)
			for (size_t j = 0; j < r->npairs; j++)
				v[m * r->npairs + j] = pe_rope_angle(r, (double)m, j);
		return PE_OK;
	case T_COS:
	case T_SIN: {
		double *other = malloc(count * sizeof *other);
		if (other == NULL)
			return PE_ENOMEM;
		st = t == T_COS ? pe_rope_fill_cos_sin(r, 0, n, v, other)
				: pe_rope_fill_cos_sin(r, 0, n, other, v);
		free(other);
		return st;
	}
	case T_SLOPES:
		return pe_alibi_slopes(c->heads, v);
	case T_BIAS:
		return pe_alibi_fill(c, v);
	case T_MASK:
		return pe_nope_fill(n, v);
	default:
		return PE_EINVAL;
	}
}

/* pescope dump. */
int
pe_dump_run(const struct pe_options *o)
{
	const struct pe_config *c = &o->cfg;
	char names[256];
	int t = -1;

	for (int i = 0; i < T_COUNT; i++)
		if (strcmp(o->table, table_names[i]) == 0)
			t = i;
	if (t < 0) {
		pe_app_error("--table '%s': unknown table; %s has: %s", o->table,
		    pe_encoding_name(c->enc), list_tables(c, names, sizeof names));
		return PE_EXIT_USAGE;
	}
	if (!has_table(c, (enum table_id)t)) {
		pe_app_error("--table '%s': not available for %s%s; it has: %s",
		    o->table, pe_encoding_name(c->enc),
		    c->enc == PE_ENC_RELATIVE
			? (c->relative == PE_REL_T5 ? " (t5)" : " (shaw)") : "",
		    list_tables(c, names, sizeof names));
		return PE_EXIT_USAGE;
	}

	struct pe_rope rope;
	memset(&rope, 0, sizeof rope);
	size_t rot = 0;
	if (c->enc == PE_ENC_ROPE) {
		if (pe_rope_init(&rope, c) != PE_OK) {
			pe_app_error("rope: cannot derive the frequencies");
			return PE_EXIT_USAGE;
		}
		rot = rope.rot;
	}

	struct pe_table tab;
	memset(&tab, 0, sizeof tab);
	table_shape(c, rot, (enum table_id)t, &tab);
	bool ints = t == T_BUCKETS || t == T_INDEX;
	enum pe_dtype dt = ints ? PE_I64 : o->dtype;
	double elems = (double)tab.shape[0] *
	    (double)(tab.ndim > 1 ? tab.shape[1] : 1) *
	    (double)(tab.ndim > 2 ? tab.shape[2] : 1);
	double bytes = elems * (dt == PE_F32 ? 4 : 8);
	int rc = PE_EXIT_USAGE;
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

	if (o->head_given && (tab.ndim != 3 || o->dump_format == PE_DUMP_NPY)) {
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
	double *fbuf = NULL;
	int64_t *ibuf = NULL;
	int st = compute(c, &rope, (enum table_id)t, &tab, &fbuf, &ibuf);
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
	free(fbuf);
	free(ibuf);
end:
	if (c->enc == PE_ENC_ROPE)
		pe_rope_free(&rope);
	return rc;
}
