/* Views of the vector encodings: sinusoidal and learned. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/sinusoidal.h"

#include "view/view_impl.h"

/* ---- views ------------------------------------------------------------ */

/* Right column for the vector encodings: dot products and the row. */
static void
right_vector(struct ctx *c, const char *rowtitle, double lo, double hi)
{
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t p = c->st->cur_r;
	int hc = h >= 30 ? h / 3 : (h >= 18 ? 8 : h / 2);
	view_map_dot(c, x, y, w, hc, p, "PE(p)·PE(key)");
	y += hc + 1;
	h -= hc + 1;
	int hr = h >= 20 ? 7 : 0; /* the cursor row, when there is room */
	if (hr > 0) {
		view_map_row(c, x, y + h - hr, w, hr, p, rowtitle, lo, hi, "dim");
		h -= hr + 1;
	}
	if (h >= 8)
		view_map_simmap(c, x, y, w, h, "similarity PE·PEᵀ (query ↓, key →)");
}

/* sinusoidal: the classic stripes, dot products, the cursor row. */
static void
view_sinusoidal(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	struct pe_scale sc = {PE_CMAP_DIVERGING, -1, 1, false};
	view_map_main(c, &sc, "PE[position ↓, dimension →]", "%.2g", NULL);
	right_vector(c, "PE[p, :] across dimensions", -1, 1);

	size_t p = c->st->cur_r, col = c->st->cur_c, i;
	int is_cos;
	pe_sinusoidal_column(col, k->d, k->layout, &i, &is_cos);
	double v = pe_sinusoidal_value(p, col, k->d, k->base, k->layout);
	/* t2t: base^(-i/(d/2 - 1)) (pe_sinusoidal_freq); else base^(-2i/d) */
	bool t2t = k->layout == PE_LAYOUT_T2T;
	snprintf(c->insp[0], sizeof c->insp[0],
	    " PE[%zu,%zu] = %s(%zu · %g^(−%zu/%zu)) = %.9g", p, col,
	    is_cos ? "cos" : "sin", p, k->base, t2t ? i : 2 * i,
	    t2t ? k->d / 2 - 1 : k->d, v);
	view_map_inspect(c, "pos", "dim");
}

/* learned: the table, with positions past max_len undefined. */
static void
view_learned(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	double a = c->m->learned_absmax > 0 ? c->m->learned_absmax : 1;
	struct pe_scale sc = {PE_CMAP_DIVERGING, -a, a, false};
	char legend[128] = "";
	if (k->n > k->max_len)
		snprintf(legend, sizeof legend, "no embedding: positions ≥ "
		    "max_len %zu cannot be placed", k->max_len);
	view_map_main(c, &sc, k->table_untrained
			      ? "PE[position ↓, dimension →]  (untrained init)"
			      : "PE[position ↓, dimension →]  (table)",
	    "%.3g", legend[0] ? legend : NULL);
	right_vector(c, "PE[p, :] across dimensions", -a, a);

	size_t p = c->st->cur_r, col = c->st->cur_c;
	if (p >= k->max_len)
		snprintf(c->insp[0], sizeof c->insp[0], " PE[%zu,%zu]: no embedding "
		    "— position %zu ≥ max_len %zu (the table has no row for it)",
		    p, col, p, k->max_len);
	else
		snprintf(c->insp[0], sizeof c->insp[0], " PE[%zu,%zu] = table[%zu,"
		    "%zu] = %.9g", p, col, p, col,
		    (double)k->table[p * k->d + col]);
	view_map_inspect(c, "pos", "dim");
}

/* ---- rows ------------------------------------------------------------- */

static void
sinusoidal_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	view_item(it, 0, "d_model %zu", k->d);
	view_item(it, 0, "seq_len %zu", k->n);
	view_item(it, 1, "base %g", k->base);
	view_item(it, 2, "layout %s", k->layout == PE_LAYOUT_INTERLEAVED
	    ? "interleaved (sin,cos,…)"
	    : k->layout == PE_LAYOUT_SPLIT ? "split (GPT-J: sin…|cos…)"
					   : "t2t (tensor2tensor: sin…|cos…)");
}

/* l: interleaved -> split -> t2t -> interleaved. */
static int
sinusoidal_layout(struct pe_state *st, int key)
{
	struct pe_config c = st->cfg;
	(void)key;
	c.layout = c.layout == PE_LAYOUT_INTERLEAVED ? PE_LAYOUT_SPLIT
		   : c.layout == PE_LAYOUT_SPLIT     ? PE_LAYOUT_T2T
						     : PE_LAYOUT_INTERLEAVED;
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key sinusoidal_keys[] = {
	PE_SHARED_D_MODEL("d_model"),
	PE_SHARED_SEQ_LEN,
	PE_SHARED_BASE,
	{"l", "l", "layout", sinusoidal_layout},
	PE_KEYS_END,
};

const struct pe_enc_view view_sinusoidal_row = {
	.main = PE_FIELD_PE,
	.params = sinusoidal_params,
	.draw = view_sinusoidal,
	.keys = sinusoidal_keys,
};

static void
learned_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	view_item(it, 0, "d_model %zu", k->d);
	view_item(it, 0, "seq_len %zu", k->n);
	view_item(it, 1, "max_len %zu", k->max_len);
	view_item(it, 2, "%s", k->table_untrained ? "untrained: N(0, 0.02²) init"
						  : "table from file");
}

static const struct pe_enc_key learned_keys[] = {
	PE_SHARED_D_MODEL("d_model"),
	PE_SHARED_SEQ_LEN,
	PE_KEYS_END,
};

const struct pe_enc_view view_learned_row = {
	.main = PE_FIELD_PE,
	.params = learned_params,
	.draw = view_learned,
	.keys = learned_keys,
};
