/* The rope2d view: as vit2d's, so the two 2-D encodings compare directly:
 * the cosine of the rotated unit q of the patch under the cursor with
 * every patch's, and every patch's map beside it. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/rope2d.h"

#include "view/view_impl.h"

/* rope2d's main map (the cursor patch's cosines) and its inspector. */
static void
rope2d_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	struct pe_field *mf = &c->mainf;
	size_t ph = c->st->cur_r, pw = c->st->cur_c;
	mf->anchor = ph * k->grid_w + pw; /* the map follows the cursor */
	/* from the grid's lowest cosine (patch 0 meets every offset) to 1,
	 * as vit2d's */
	struct pe_field f0 = c->mainf;
	struct pe_stats all;
	f0.anchor = 0;
	int rc = pe_field_block(&f0, 0, k->grid_h, 0, k->grid_w, true, &all);
	double lo = view_check(c, rc, 0, 0, 0) == PE_OK && all.minmax_exact &&
		    isfinite(all.min) && all.min < 1 ? all.min : -1;
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, lo, 1, false};
	char title[120];
	snprintf(title, sizeof title, "cos(R(%zu,%zu)q, R(y,x)q)  (y ↓, x →)", ph,
	    pw);
	view_map_main(c, &sc, title, "%.3g", "q = (1,0) per pair: score / (d/2)");

	double v = pe_field_value(mf, ph, pw);
	snprintf(c->insp[0], sizeof c->insp[0], " cos(R(%zu,%zu)q, R(%zu,%zu)q) = "
	    "(1/(d/2)) Σ_j cos(Δx·fx_j + Δy·fy_j) = %.9g, pair j: %s", ph, pw, ph,
	    pw, v, k->rope2d.kind == PE_ROPE2D_AXIAL
		? "fx = 1/base^(4j/d) for j < d/4, else fy"
		: "fx, fy learned (RoPE-Mixed)");
	view_map_inspect(c, "y", "x");
}

/* rope2d: the cursor patch's cosine map and the small multiples. */
static void
view_rope2d(struct ctx *c)
{
	rope2d_map(c);
	/* right: every patch's map, as vit2d's, on the main map's scale */
	view_patch_maps(c, &c->scale);
}

/* ---- row -------------------------------------------------------------- */

/* The parameter line: grid, head, base, the kind and its frequencies. */
static void
rope2d_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	const struct pe_rope2d *r = &k->rope2d;
	view_item(it, 0, "grid %zu×%zu patches", k->grid_h, k->grid_w);
	view_item(it, 0, "head_dim %zu", k->d);
	view_item(it, 1, "base %.10g", k->base);
	if (r->kind == PE_ROPE2D_AXIAL) {
		view_item(it, 0, "axial (RoPE-ViT)");
		view_item(it, 2, "pairs 0..%zu turn with x, %zu..%zu with y",
		    k->d / 4 - 1, k->d / 4, k->d / 2 - 1);
	} else if (r->freqs == NULL) {
		view_item(it, 0, "mixed, head %zu", r->head);
		view_item(it, 2, "init_random_2d_freqs (torch seed 0)");
	} else {
		view_item(it, 0, "mixed, head %zu of %zu", r->head,
		    pe_rope2d_file_heads(k));
		if (pe_rope2d_file_depth(k) > 1)
			view_item(it, 1, "block %zu of %zu", r->layer,
			    pe_rope2d_file_depth(k));
		view_item(it, 2, "learned (--freqs-file)");
	}
	view_item(it, 3, "interleaved pairs");
}

/* g/G: the grid's side -/+ 1. */
static int
rope2d_grid(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	c.grid_h = c.grid_w = key == 'g' ? c.grid_h - 1 : c.grid_h + 1;
	return pe_state_apply(st, &c);
}

/* m: axial <-> mixed; a base at the old kind's default (100 axial, 10
 * mixed) takes the new one's. */
static int
rope2d_kind(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg, d = c;
	(void)key;
	pe_rope2d_defaults(&d, true, false);
	bool at_default = c.base == d.base;
	c.rope2d.kind = c.rope2d.kind == PE_ROPE2D_AXIAL ? PE_ROPE2D_MIXED
							: PE_ROPE2D_AXIAL;
	if (at_default)
		pe_rope2d_defaults(&c, true, false);
	return pe_state_apply(st, &c);
}

/* h/H: the mixed frequencies' head -/+ 1. */
static int
rope2d_head(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	if (c.rope2d.kind != PE_ROPE2D_MIXED) {
		pe_state_status(st, "'%c': axial rope2d has one set of frequencies; "
		    "m switches to mixed, whose heads differ", key);
		return PE_ACT_REDRAW;
	}
	if (key == 'h' && c.rope2d.head == 0) {
		pe_state_status(st, "head 0 is the first");
		return PE_ACT_REDRAW;
	}
	c.rope2d.head = key == 'h' ? c.rope2d.head - 1 : c.rope2d.head + 1;
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key rope2d_keys[] = {
	{"gG", "g/G", "grid", rope2d_grid},
	{"m", "m", "axial/mixed", rope2d_kind},
	{"hH", "h/H", "head", rope2d_head},
	PE_SHARED_D_MODEL("head_dim"),
	PE_SHARED_BASE,
	PE_KEYS_END,
};

const struct pe_enc_view view_rope2d_row = {
	.main = PE_FIELD_PATCH_COSINE,
	.sweep_2d = true,
	.params = rope2d_params,
	.draw = view_rope2d,
	.map = rope2d_map,
	.keys = rope2d_keys,
};
