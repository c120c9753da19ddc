/* The vit2d view: the ViT paper's patch maps (cosines of the embeddings). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_impl.h"

/* The right column of the 2-D encodings (vit2d, rope2d): the map of every
 * patch (the ViT paper's figure), on scale sc; when the grid is too fine
 * for the room, every s-th patch in each direction. */
void
view_patch_maps(struct ctx *c, const struct pe_scale *sc)
{
	const struct pe_config *k = c->cfg;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh - 1;
	size_t s = 1;
	while ((k->grid_w + s - 1) / s * 5 > (size_t)w + 1 ||
	    (k->grid_h + s - 1) / s * 3 > (size_t)h)
		s++;
	size_t gw = (k->grid_w + s - 1) / s, gh = (k->grid_h + s - 1) / s;
	char t[96];
	/* cosines, not the raw dot products `dump --table similarity` writes */
	if (s == 1)
		snprintf(t, sizeof t, "cosine maps of every patch");
	else
		snprintf(t, sizeof t, "cosine maps, patch step %zu", s);
	pe_canvas_text_fit(c->cv, x, y, w, t, C_TEXT, PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	y++;
	int cw = w / (int)gw, ch = h / (int)gh;
	if (cw > 2 * ch + 1) /* keep the small maps roughly square */
		cw = 2 * ch + 1;
	if (cw >= 3 && ch >= 2) {
		struct pe_field f = c->mainf;
		for (size_t hh = 0; hh < gh; hh++)
			for (size_t ww = 0; ww < gw; ww++) {
				struct map_spec ms;
				struct map_geom g;
				memset(&ms, 0, sizeof ms);
				f.anchor = hh * s * k->grid_w + ww * s;
				ms.f = &f;
				ms.r0 = 0, ms.r1 = k->grid_h, ms.c0 = 0, ms.c1 = k->grid_w;
				ms.scale = *sc;
				view_check(c, panel_map(c->cv, x + (int)ww * cw,
				    y + (int)hh * ch, cw - 1, ch - (ch > 2), &ms, &g), 0,
				    0, 0);
			}
	}
}

/* vit2d's main map (the cursor patch's cosines) and its inspector. */
static void
vit2d_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	struct pe_field *mf = &c->mainf;
	size_t ph = c->st->cur_r, pw = c->st->cur_c;
	mf->anchor = ph * k->grid_w + pw; /* the map follows the cursor */
	/* Cosines of 2-D sin-cos embeddings sit mostly near 1: a scale from the
	 * grid's lowest cosine to 1 shows their structure (the legend says
	 * so). Patch 0 meets every offset there is, so its map holds the min. */
	struct pe_field f0 = c->mainf;
	struct pe_stats all;
	f0.anchor = 0;
	int rc = pe_field_block(&f0, 0, k->grid_h, 0, k->grid_w, true, &all);
	double lo = view_check(c, rc, 0, 0, 0) == PE_OK && isfinite(all.min) &&
		    all.min < 1 ? all.min : -1;
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, lo, 1, false};
	char title[96];
	snprintf(title, sizeof title, "cosine(PE(%zu,%zu), PE(h,w))  (h ↓, w →)",
	    ph, pw);
	view_map_main(c, &sc, title, "%.3g", NULL);

	double v = pe_field_value(mf, ph, pw);
	snprintf(c->insp[0], sizeof c->insp[0], " cos(PE(%zu,%zu), PE(%zu,%zu)) = "
	    "(C(Δw) + C(Δh)) / (d/2) = %.9g, C(k) = Σ_i cos(k·ω_i)",
	    ph, pw, ph, pw, v);
	view_map_inspect(c, "h", "w");
}

/* vit2d: cosine similarity of the cursor patch to every patch. */
static void
view_vit2d(struct ctx *c)
{
	vit2d_map(c);
	/* right: every patch's map (the ViT paper's figure), on the main
	 * map's scale */
	view_patch_maps(c, &c->scale);
}

/* ---- row -------------------------------------------------------------- */

static void
vit2d_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	view_item(it, 0, "grid %zu×%zu patches", k->grid_h, k->grid_w);
	view_item(it, 0, "d_model %zu", k->d);
	view_item(it, 1, "MAE 2-D sin-cos");
	view_item(it, 2, "dims 0..%zu encode w, %zu..%zu encode h", k->d / 2 - 1,
	    k->d / 2, k->d - 1);
}

/* g/G: the grid's side -/+ 1. */
static int
vit2d_grid(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	c.grid_h = c.grid_w = key == 'g' ? c.grid_h - 1 : c.grid_h + 1;
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key vit2d_keys[] = {
	{"gG", "g/G", "grid", vit2d_grid},
	PE_SHARED_D_MODEL("d_model"),
	PE_KEYS_END,
};

const struct pe_enc_view view_vit2d_row = {
	.main = PE_FIELD_PATCH_COSINE,
	.sweep_2d = true,
	.rows_not_positions = true,
	.params = vit2d_params,
	.draw = view_vit2d,
	.map = vit2d_map,
	.keys = vit2d_keys,
};
