/* `pescope model FILE`: a model's layer strip as text (model.h), for a
 * person at 80 columns and for scripts: the header, the strip (one letter
 * per layer, its kind), each kind with its layers, attention, rope and
 * wavelength bands against its reach and the trained context, and what
 * the config has that pescope does not model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/model.h"
#include "io/io.h"
#include "pescope/encoding.h"
#include "pescope/rope.h"
#include "pescope/model.h"

/* Print text wrapped at width, the first line after `first` columns
 * already used, the others indented by indent. */
static void
model_wrap(FILE *fp, const char *text, size_t first, size_t indent,
           size_t width)
{
	size_t col = first;
	const char *p = text;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		const char *e = p;
		size_t cols = 0;
		while (*e != '\0' && *e != ' ') {
			/* count UTF-8 characters, not bytes (·, ×) */
			if (((unsigned char)*e & 0xc0) != 0x80)
				cols++;
			e++;
		}
		if (e == p)
			break;
		if (col > indent && col + 1 + cols > width) {
			fprintf(fp, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > first || (col > indent && p != text)) {
			fputc(' ', fp);
			col++;
		}
		fwrite(p, 1, (size_t)(e - p), fp);
		col += cols;
		p = e;
	}
	fputc('\n', fp);
}

/* The letter of kind k: A..Z, then a..z, then '+'. */
static char
model_letter(size_t k)
{
	if (k < 26)
		return (char)('A' + k);
	if (k < 52)
		return (char)('a' + k - 26);
	return '+';
}

/* The strip: a ruler of layer numbers every 10, then a letter a layer,
 * in rows of at most width - 8 layers. */
static void
model_strip(FILE *fp, const struct pe_arch *a, const size_t *kind_of,
            size_t width)
{
	size_t per = width > 18 ? (width - 8) / 10 * 10 : 10;

	for (size_t r0 = 0; r0 < a->nlayers; r0 += per) {
		size_t r1 = r0 + per < a->nlayers ? r0 + per : a->nlayers;
		fprintf(fp, "%-8s", r0 == 0 ? "layers" : "");
		for (size_t i = r0; i < r1; i += 10) {
			int w = fprintf(fp, "%zu", i);
			if (i + 10 < r1)
				fprintf(fp, "%*s", 10 - w, "");
		}
		fprintf(fp, "\n%-8s", "");
		for (size_t i = r0; i < r1; i++)
			fputc(model_letter(kind_of[i]), fp);
		fputc('\n', fp);
	}
}

/* One kind: its letter, count, description, layers and bands. */
static void
model_kind(FILE *fp, const struct pe_arch *a, const size_t *kind_of,
           size_t k, size_t width)
{
	const struct pe_layer *l = NULL;
	char ranges[512], what[160], line[640];

	for (size_t i = 0; i < a->nlayers && l == NULL; i++)
		if (kind_of[i] == k)
			l = &a->layers[i];
	size_t count = pe_arch_kind_ranges(a, kind_of, k, ranges,
	    sizeof ranges);
	pe_layer_describe(l, what, sizeof what);
	int used = fprintf(fp, "%c  %zu layer%s  ", model_letter(k), count,
	    count == 1 ? "" : "s");
	model_wrap(fp, what, (size_t)used, 3, width);
	fprintf(fp, "   ");
	snprintf(line, sizeof line, "layers %s", ranges);
	model_wrap(fp, line, 3, 3, width);

	struct pe_layer_bands b;
	if (!l->cfg.attn.exact)
		snprintf(line, sizeof line, "not drawn: its positions are not "
		    "modelled (see below)");
	else if (pe_layer_bands(l, a->train_len, &b) != PE_OK)
		snprintf(line, sizeof line, "its rope cannot be built");
	else if (b.pairs == 0)
		line[0] = '\0';
	else {
		const char *reach = l->cfg.attn.span == PE_SPAN_SLIDING ? "window" :
		    l->cfg.attn.span == PE_SPAN_CHUNKED ? "chunk" : "sequence";
		int n = snprintf(line, sizeof line, "%zu of %zu dims turn; "
		    "wavelengths %.3g to %.3g positions; %zu of %zu pairs turn "
		    "within the %s (%zu)", l->cfg.attn.rotary_dim, l->cfg.attn.head_dim,
		    b.shortest, b.longest, b.turn_in_reach, b.pairs, reach,
		    b.reach);
		if (a->train_len > 0 && n > 0 && (size_t)n < sizeof line)
			snprintf(line + n, sizeof line - (size_t)n,
			    ", %zu within the trained %zu", b.turn_in_train,
			    a->train_len);
	}
	if (line[0] != '\0') {
		fprintf(fp, "   ");
		model_wrap(fp, line, 3, 3, width);
	}
}

/* Print the model as text, wrapped at width columns (at least 40). */
int
pe_app_model_print(FILE *fp, const struct pe_arch *a, size_t width)
{
	char line[640];

	if (width < 40)
		width = 40;
	size_t *kind_of = malloc(a->nlayers * sizeof *kind_of);
	if (kind_of == NULL)
		return PE_ENOMEM;
	size_t kinds = pe_arch_kinds(a, kind_of);
	if (a->description != NULL)
		model_wrap(fp, a->description, 0, 2, width);
	if (a->source != NULL) {
		snprintf(line, sizeof line, "source: %s", a->source);
		model_wrap(fp, line, 0, 2, width);
	}
	int n = snprintf(line, sizeof line, "%s · %zu layers · %zu kind%s",
	    a->model_type, a->nlayers, kinds, kinds == 1 ? "" : "s");
	if (a->max_pos > 0 && n > 0 && (size_t)n < sizeof line)
		n += snprintf(line + n, sizeof line - (size_t)n,
		    " · %zu positions", a->max_pos);
	if (a->train_len > 0 && n > 0 && (size_t)n < sizeof line)
		snprintf(line + n, sizeof line - (size_t)n, " · trained %zu",
		    a->train_len);
	model_wrap(fp, line, 0, 2, width);
	fputc('\n', fp);
	model_strip(fp, a, kind_of, width);
	fputc('\n', fp);
	for (size_t k = 0; k < kinds; k++)
		model_kind(fp, a, kind_of, k, width);
	if (a->nnotes > 0) {
		fprintf(fp, "\nnot modelled (named, not drawn):\n");
		for (size_t i = 0; i < a->nnotes; i++) {
			const struct pe_model_note *m = &a->notes[i];
			snprintf(line, sizeof line, "%s%s%s: %s", m->key,
			    m->value[0] ? " = " : "", m->value, m->why);
			fprintf(fp, "  ");
			model_wrap(fp, line, 2, 4, width);
		}
	}
	free(kind_of);
	return ferror(fp) ? PE_EIO : PE_OK;
}

/* A double as CSV writes it (%.17g in the C locale, nan and inf). */
static void
model_csv_number(FILE *fp, double v)
{
	char b[PE_DTOA_MAX];

	pe_dtoa_g(v, 17, b);
	fputs(b, fp);
}

/* One layer's CSV line. */
static void
model_csv_layer(FILE *fp, const struct pe_arch *a, size_t i)
{
	const struct pe_layer *l = &a->layers[i];
	const struct pe_config *c = &l->cfg;
	bool rope = (pe_config_def(c)->caps & PE_CAP_ROPE) &&
	    l->cfg.attn.rotates;
	char kind[160];
	double att = NAN;

	if (rope) {
		struct pe_rope r;
		if (pe_rope_init(&r, c) == PE_OK) {
			att = r.attention_scaling;
			pe_rope_free(&r);
		}
	}
	pe_layer_describe(l, kind, sizeof kind);
	fprintf(fp, "%zu,%s,%s,%d,%d,%d,%s,%zu,%zu,%zu,%zu,", i, l->type,
	    pe_encoding_name(c->enc), l->cfg.attn.rotates, l->cfg.attn.exact,
	    l->cfg.attn.causal, pe_attn_span_name(l->cfg.attn.span), l->cfg.attn.window,
	    l->cfg.attn.chunk, l->cfg.attn.head_dim, l->cfg.attn.rotary_dim);
	if (rope) {
		model_csv_number(fp, c->base);
		fprintf(fp, ",%s,", pe_rope_type_name(c->rope.type));
		if (c->rope.type != PE_ROPE_DEFAULT)
			model_csv_number(fp, c->rope.factor);
		fputc(',', fp);
		model_csv_number(fp, att);
	} else
		fputs(",,,", fp);
	fputc(',', fp);
	if (l->cfg.attn.softmax_scale > 0.0)
		model_csv_number(fp, l->cfg.attn.softmax_scale);
	/* the kind has no comma or quote: quoted for its spaces anyway */
	fprintf(fp, ",\"%s\"\n", kind);
}

/* dump --table layers. */
int
pe_app_model_csv(const struct pe_options *o)
{
	struct pe_atomic out;
	const struct pe_arch *a = o->arch;

	if (o->dump_format != PE_DUMP_CSV) {
		pe_app_error("--table layers: CSV only (its columns are names "
		    "and numbers): leave out --format npy");
		return PE_EXIT_USAGE;
	}
	if (pe_atomic_open(&out, o->output != NULL ? o->output : "-") !=
	    PE_OK) {
		pe_app_error("-o '%s': cannot create it", o->output);
		return PE_EXIT_USAGE;
	}
	fputs("layer,type,encoding,rotates,exact,causal,span,window,chunk,"
	    "head_dim,rotary_dim,base,rope_type,factor,attention_scaling,"
	    "softmax_scale,kind\n", out.fp);
	for (size_t i = 0; i < a->nlayers; i++)
		model_csv_layer(out.fp, a, i);
	if (pe_atomic_commit(&out) != PE_OK) {
		pe_app_error("-o: cannot write the table");
		return PE_EXIT_FAIL;
	}
	return PE_EXIT_OK;
}
