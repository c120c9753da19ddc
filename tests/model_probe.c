/* Test helper: read a config.json through the loader and print what the
 * kernel makes of each layer, one JSON object a line, for
 * tests/check_model.py to compare with its numpy transcription of
 * transformers (tests/ref/hf_rope_ref.py). Usage: model_probe FILE
 * [POSITION ...]; the cos rows are at the positions given. Exit 2 with the
 * loader's message on stderr when the config is refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/hfconfig.h"
#include "pescope/model.h"
#include "pescope/rope.h"
#include "kernel/testing.h"

/* Print a double array as a JSON list. */
static void
print_list(const double *v, size_t n)
{
	putchar('[');
	for (size_t i = 0; i < n; i++)
		printf("%s%.17g", i ? ", " : "", v[i]);
	putchar(']');
}

/* One layer's line. */
static int
print_layer(const struct pe_arch *a, size_t i, int npos, char **pos)
{
	const struct pe_layer *l = &a->layers[i];
	const struct pe_config *c = &l->cfg;
	char kind[128];

	pe_layer_describe(l, kind, sizeof kind);
	printf("{\"layer\": %zu, \"type\": \"%s\", \"enc\": \"%s\", "
	    "\"rotates\": %s, \"exact\": %s, \"causal\": %s, \"span\": \"%s\", "
	    "\"window\": %zu, \"chunk\": %zu, \"head_dim\": %zu, "
	    "\"rotary_dim\": %zu, \"softmax_scale\": %.17g, \"n\": %zu, "
	    "\"kind\": \"%s\"",
	    i, l->type, pe_encoding_name(c->enc),
	    l->cfg.attn.rotates ? "true" : "false",
	    l->cfg.attn.exact ? "true" : "false",
	    l->cfg.attn.causal ? "true" : "false",
	    pe_attn_span_name(l->cfg.attn.span), l->cfg.attn.window,
	    l->cfg.attn.chunk, l->cfg.attn.head_dim, l->cfg.attn.rotary_dim,
	    l->cfg.attn.softmax_scale, c->n, kind);
	if (c->enc == PE_ENC_ALIBI)
		printf(", \"heads\": %zu", c->heads);
	if (c->enc == PE_ENC_RELATIVE)
		printf(", \"buckets\": %zu, \"max_distance\": %zu, "
		    "\"bidirectional\": %s", c->buckets, c->max_distance,
		    c->bidirectional ? "true" : "false");
	if (c->enc == PE_ENC_LEARNED)
		printf(", \"max_len\": %zu, \"d\": %zu", c->max_len, c->d);
	if ((c->enc == PE_ENC_ROPE || c->enc == PE_ENC_MROPE) &&
	    l->cfg.attn.rotates) {
		struct pe_rope r;
		if (pe_rope_init(&r, c) != PE_OK) {
			fprintf(stderr, "layer %zu: pe_rope_init failed\n", i);
			return 1;
		}
		printf(", \"base\": %.17g, \"rope_type\": \"%s\", \"pairing\": "
		    "\"%s\", \"attention_scaling\": %.17g, \"inv_freq\": ",
		    c->base, pe_rope_type_name(c->rope.type),
		    c->pairing == PE_PAIR_HALF ? "half" : "interleaved",
		    r.attention_scaling);
		print_list(r.inv_freq, r.npairs);
		printf(", \"cos\": {");
		double *row = malloc(r.rot * sizeof *row);
		if (row == NULL)
			return 1;
		for (int k = 0; k < npos; k++) {
			size_t p = strtoull(pos[k], NULL, 10);
			pe_rope_fill_cos_sin(&r, p, 1, row, NULL);
			printf("%s\"%zu\": ", k ? ", " : "", p);
			print_list(row, r.rot);
		}
		putchar('}');
		free(row);
		pe_rope_free(&r);
	}
	printf("}\n");
	return 0;
}

/* Print every layer of the config in argv[1]. */
int
main(int argc, char **argv)
{
	struct pe_arch a;
	char err[512];

	if (argc < 2) {
		fprintf(stderr, "usage: model_probe FILE [POSITION ...]\n");
		return 2;
	}
	pe_arch_init(&a);
	if (pe_hf_read_file(argv[1], &a, err, sizeof err) != PE_OK) {
		fprintf(stderr, "%s\n", err);
		pe_arch_free(&a);
		return 2;
	}
	printf("{\"model_type\": \"%s\", \"layers\": %zu, \"max_pos\": %zu, "
	    "\"train_len\": %zu, \"notes\": [", a.model_type, a.nlayers,
	    a.max_pos, a.train_len);
	for (size_t i = 0; i < a.nnotes; i++)
		printf("%s\"%s\"", i ? ", " : "", a.notes[i].key);
	printf("]}\n");
	int rc = 0;
	for (size_t i = 0; i < a.nlayers && rc == 0; i++)
		rc = print_layer(&a, i, argc - 2, argv + 2);
	pe_arch_free(&a);
	return rc;
}
