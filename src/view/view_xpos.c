/* The xPos view: RoPE's (the angle map, the rotation at the cursor's
 * position, the score against the keys) with the scale's decay: the score
 * beside plain RoPE's, and the envelope sum_j zeta_j^(k/gamma). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/xpos.h"

#include "view/view_impl.h"

/* The rotation of each pair at query row m (angles (m + K) w_j): up to 16
 * hands of the wheel, pairs spread over the head. */
static void
xpos_wheel(struct ctx *c, int x, int y, int w, int wh, size_t m)
{
	const struct pe_field *f = &c->mainf;
	size_t P = f->rope.npairs, nh = P < 16 ? P : 16;
	double ang[16];
	pe_color col[16];
	char t[96];

	for (size_t j = 0; j < nh; j++) {
		size_t pj = nh == P ? j : j * (P - 1) / (nh - 1);
		ang[j] = pe_field_value(f, m, pj);
		col[j] = pe_cmap_color(PE_CMAP_SEQUENTIAL, 0.35 + 0.65 *
		    (double)j / (double)(nh > 1 ? nh - 1 : 1));
	}
	snprintf(t, sizeof t, "rotation of each pair at m = %zu", m);
	if (pe_text_cells(t) > w)
		snprintf(t, sizeof t, "rotation at m = %zu", m);
	pe_canvas_text_fit(c->cv, x, y, w, t, C_TEXT, PE_COLOR_DEFAULT,
	    PE_ATTR_BOLD);
	int ww = wh * 2 + 2;
	pe_draw_wheel(c->cv, x, y + 1, ww, wh - 1, ang, nh, col);
	/* what the wheel leaves out: the scale on the hands */
	char l[3][80];
	int64_t pm = pe_xpos_query_pos(c->cfg, m);
	snprintf(l[0], sizeof l[0], "scale ζ_j^(%lld/γ):", (long long)pm);
	snprintf(l[1], sizeof l[1], "j 0: %.6g", exp((double)pm /
	    c->cfg->xpos.xpos_scale_base * log(pe_xpos_zeta(0, c->cfg->d))));
	snprintf(l[2], sizeof l[2], "j %zu: %.6g", P - 1, exp((double)pm /
	    c->cfg->xpos.xpos_scale_base * log(pe_xpos_zeta(P - 1, c->cfg->d))));
	for (int i = 0; i < 3 && i < wh - 1; i++)
		pe_canvas_text_fit(c->cv, x + ww + 1, y + 1 + i, w - ww - 1, l[i],
		    i == 0 ? C_TEXT : C_DIM, PE_COLOR_DEFAULT, 0);
}

/* Block means of row m of a score field over keys [0, n) in ns samples. */
static int
xpos_row(const struct pe_field *f, size_t m, size_t n, size_t ns, double *ys)
{
	struct pe_stats *st = calloc(ns, sizeof *st);
	if (st == NULL)
		return PE_ENOMEM;
	int rc = pe_field_grid(f, m, m + 1, 1, 0, n, ns, st);
	for (size_t i = 0; i < ns && rc == PE_OK; i++)
		ys[i] = st[i].mean;
	free(st);
	return rc;
}

/* Plain RoPE's similarity beside xpos's (the same head, pairs and base,
 * no scale; its queries at m + K, xpos_offset), made once a model; NULL
 * with *rc its failure. */
static const struct pe_field *
xpos_plain(struct ctx *c, int *rc)
{
	struct pe_view_cache *v = c->m->cache;
	const struct pe_config *k = c->cfg;
	if (v == NULL) {
		*rc = PE_ENOMEM;
		return NULL;
	}
	if (!v->xpos_done) {
		struct pe_config *rc_ = &v->xpos_cfg;
		pe_config_default(rc_);
		rc_->enc = PE_ENC_ROPE;
		rc_->d = k->d;
		rc_->n = k->n + k->xpos.xpos_offset;
		rc_->base = k->base;
		rc_->pairing = PE_PAIR_INTERLEAVED;
		v->xpos_rc = pe_field_init(&v->xpos_rope, PE_FIELD_SIMILARITY,
		    rc_);
		v->xpos_done = true;
	}
	*rc = v->xpos_rc;
	return v->xpos_rc == PE_OK ? &v->xpos_rope : NULL;
}

static int xpos_envelope_keep(struct ctx *c, size_t ns);

/* The two score rows of xpos_score, one a core (panel_run2), and on the
 * second (plain RoPE's row, the quicker) the envelope kept for its panel
 * (env: its ctx, or NULL). */
struct xpos_rows {
	const struct pe_field *f[2];
	size_t m[2], n, ns;
	double *ys[2];
	int rc[2];
	struct ctx *env;
};

/* Row `part` of xpos_rows. */
static void
xpos_rows_part(void *arg, int part)
{
	struct xpos_rows *r = arg;
	r->rc[part] = xpos_row(r->f[part], r->m[part], r->n, r->ns,
	    r->ys[part]);
	if (part == 1 && r->env != NULL) /* its failure: the panel's own */
		(void)xpos_envelope_keep(r->env, r->ns);
}

/* The score of query m against every key, xPos (orange) and plain RoPE
 * at the same frequencies (green); env: the envelope's panel follows, as
 * wide (its samples made beside RoPE's row). */
static void
xpos_score(struct ctx *c, int x, int y, int w, int h, size_t m, bool env)
{
	const struct pe_config *k = c->cfg;
	size_t n = k->n;
	int pw = w - 7;
	if (pw < 4 || h < 4 || !c->m->has_sim)
		return;
	size_t ns = (size_t)pw * 2 < n ? (size_t)pw * 2 : n;
	int st;
	const struct pe_field *rf = xpos_plain(c, &st);
	double *ys = calloc(2 * ns, sizeof *ys);
	if (view_check(c, ys == NULL ? PE_ENOMEM : st, x, y, w) != PE_OK) {
		free(ys);
		return;
	}
	/* the queries sit at m + K (xpos_offset): RoPE's row m + K; the
	 * rows are independent, so each takes a core */
	struct xpos_rows rows = {{&c->m->sim, rf}, {m, m + k->xpos.xpos_offset},
	    n, ns, {ys, ys + ns}, {PE_OK, PE_OK}, env ? c : NULL};
	panel_run2(xpos_rows_part, &rows);
	st = rows.rc[0] != PE_OK ? rows.rc[0] : rows.rc[1];
	if (view_check(c, st, x, y, w) == PE_OK) {
		/* the range of the keys up to the query (a causal model's):
		 * past it the scale grows as zeta^(-k/gamma) and is drawn
		 * clipped */
		size_t upto = panel_sample_of(0, n, ns, m) + 1;
		double lo = 0, hi = 0, l2 = 0, h2 = 0;
		panel_range(ys, upto, &lo, &hi);
		panel_range(ys + ns, upto, &l2, &h2);
		lo = fmin(lo, l2);
		hi = fmax(hi, h2);
		if (hi - lo < 1e-12) {
			lo -= 1;
			hi += 1;
		}
		char t[160], tail[48], head[100], xhi[32];
		snprintf(tail, sizeof tail, ", query %zu", m);
		char what[120];
		const char *rn = panel_color(c->cv, C_CURVE2);
		if (rn != NULL)
			snprintf(what, sizeof what, "score, key ≤ query (%s: RoPE)",
			    rn);
		else
			snprintf(what, sizeof what, "score, key ≤ query, and RoPE's");
		if (pe_text_fit(head, sizeof head, what,
			w - pe_text_cells(tail)) > 0)
			snprintf(t, sizeof t, "%s%s", head, tail);
		else
			snprintf(t, sizeof t, "query %zu", m);
		snprintf(xhi, sizeof xhi, "%zu", n - 1);
		panel_plot(c->cv, x, y, w, h, t, ys, ns, lo, hi, "key 0", xhi,
		    (long)panel_sample_of(0, n, ns, m));
		panel_plot_overlay(c->cv, x, y, w, h, ys + ns, ns, lo, hi, C_CURVE2);
	}
	free(ys);
}

/* The envelope at ns samples kept in the model's cache, since no cursor
 * move changes it (d/2 exps a sample): PE_ENOMEM without one. */
static int
xpos_envelope_keep(struct ctx *c, size_t ns)
{
	struct pe_view_cache *v = c->m->cache;
	if (v == NULL)
		return PE_ENOMEM;
	if (v->xpos_env == NULL || v->xpos_env_ns != ns) {
		free(v->xpos_env);
		v->xpos_env_ns = 0;
		if ((v->xpos_env = malloc(ns * sizeof *v->xpos_env)) == NULL)
			return PE_ENOMEM;
		int rc = pe_xpos_envelope_fill(c->cfg, c->cfg->n, ns,
		    v->xpos_env);
		if (rc != PE_OK) {
			free(v->xpos_env);
			v->xpos_env = NULL;
			return rc;
		}
		v->xpos_env_ns = ns;
	}
	return PE_OK;
}

/* The envelope at ns samples into ys (xpos_envelope_keep). */
static int
xpos_envelope_of(struct ctx *c, size_t ns, double *ys)
{
	if (c->m->cache == NULL)
		return pe_xpos_envelope_fill(c->cfg, c->cfg->n, ns, ys);
	int rc = xpos_envelope_keep(c, ns);
	if (rc == PE_OK)
		memcpy(ys, c->m->cache->xpos_env, ns * sizeof *ys);
	return rc;
}

/* The decay envelope sum_j zeta_j^(k/gamma) over k = query - key = 0 ..
 * n-1 (exact block means), under RoPE's flat d/2 (green). */
static void
xpos_envelope(struct ctx *c, int x, int y, int w, int h)
{
	const struct pe_config *k = c->cfg;
	size_t n = k->n;
	int pw = w - 7;
	if (pw < 4 || h < 4)
		return;
	size_t ns = (size_t)pw * 2 < n ? (size_t)pw * 2 : n;
	double *ys = calloc(2 * ns, sizeof *ys);
	if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) != PE_OK)
		return;
	double P = (double)(k->d / 2);
	if (view_check(c, xpos_envelope_of(c, ns, ys), x, y, w) != PE_OK) {
		free(ys);
		return;
	}
	for (size_t s = 0; s < ns; s++)
		ys[ns + s] = P;
	/* from its lowest value to d/2: at gamma 512 the decay over a short
	 * sequence is a few percent */
	double lo = 0, hi = P;
	panel_range(ys, ns, &lo, &hi);
	if (P - lo < 1e-9 * P)
		lo = P - 1e-9 * P;
	char t[120], xhi[32];
	const char *rc = panel_color(c->cv, C_CURVE2);
	snprintf(t, sizeof t, "envelope Σ_j ζ_j^(k/γ), k = query − key (%s: "
	    "RoPE's d/2)", rc != NULL ? rc : "the line");
	if (pe_text_cells(t) > w)
		snprintf(t, sizeof t, "envelope Σ ζ_j^(k/γ) (%s: RoPE)",
		    rc != NULL ? rc : "line");
	snprintf(xhi, sizeof xhi, "%zu", n - 1);
	panel_plot(c->cv, x, y, w, h, t, ys, ns, lo, P, "k 0", xhi, -1);
	panel_plot_overlay(c->cv, x, y, w, h, ys + ns, ns, lo, P, C_CURVE2);
	free(ys);
}

/* xpos's main map (angles) and its inspector. */
static void
xpos_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0, PE_TWO_PI, true};
	char title[96];

	if (k->xpos.xpos_offset > 0)
		snprintf(title, sizeof title, "θ[m, j] = (m + %zu)·ω_j mod "
		    "2π  (m ↓, pair j →)", k->xpos.xpos_offset);
	else
		snprintf(title, sizeof title, "θ[m, j] mod 2π  (position m ↓, pair "
		    "j →)");
	view_map_main(c, &sc, title, "%.3g",
	    "0 = 2π · grey: a block spans many turns");

	size_t m = c->st->cur_r, j = c->st->cur_c;
	const struct pe_field *f = &c->mainf;
	double th = (double)(m + k->xpos.xpos_offset) * f->rope.inv_freq[j];
	int64_t pm = pe_xpos_query_pos(k, m);
	double z = pe_xpos_zeta(j, k->d);
	snprintf(c->insp[0], sizeof c->insp[0], " θ[%zu,%zu] = %zu · ω_%zu "
	    "= %.9g rad (mod 2π: %.6g); scale ζ_%zu^(%lld/γ) = %.6g^(%lld/%g) = "
	    "%.9g, ζ_j = (2j + 0.4d)/(1.4d)", m, j, m + k->xpos.xpos_offset, j, th,
	    fmod(th, PE_TWO_PI), j, (long long)pm, z, (long long)pm,
	    k->xpos.xpos_scale_base,
	    exp((double)pm / k->xpos.xpos_scale_base * log(z)));
	view_map_inspect(c, "pos", "pair");
}

/* xpos: angles, the wheel, the score against RoPE's, the envelope. */
static void
view_xpos(struct ctx *c)
{
	xpos_map(c);

	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t m = c->st->cur_r;
	int wh = h >= 30 ? 10 : (h >= 20 ? 7 : 0);
	if (wh > 0) {
		xpos_wheel(c, x, y, w, wh, m);
		y += wh + 1;
		h -= wh + 1;
	}
	int hs = h >= 14 ? h / 2 : h;
	xpos_score(c, x, y, w, hs, m, h - hs - 1 >= 6);
	y += hs + 1;
	h -= hs + 1;
	if (h >= 6)
		xpos_envelope(c, x, y, w, h);
}

/* ---- row -------------------------------------------------------------- */

/* The parameter line: head, length, base, the scale base, the offset. */
static void
xpos_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	view_item(it, 0, "head_dim %zu", k->d);
	view_item(it, 0, "seq_len %zu", k->n);
	view_item(it, 1, "base %.10g", k->base);
	view_item(it, 0, "scale base γ %g", k->xpos.xpos_scale_base);
	if (k->xpos.xpos_offset > 0)
		view_item(it, 0, "offset %zu", k->xpos.xpos_offset);
	view_item(it, 2, "pairing interleaved (torchscale)");
	view_item(it, 3, "q ×ζ^(m/γ), k ×ζ^(−n/γ)");
}

/* g/G: the scale base gamma halved, doubled. */
static int
xpos_gamma(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	c.xpos.xpos_scale_base = key == 'g' ? c.xpos.xpos_scale_base / 2
					    : c.xpos.xpos_scale_base * 2;
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key xpos_keys[] = {
	PE_SHARED_D_MODEL("head_dim"),
	PE_SHARED_SEQ_LEN,
	PE_SHARED_BASE,
	{"gG", "g/G", "scale base γ", xpos_gamma},
	PE_KEYS_END,
};

const struct pe_enc_view view_xpos_row = {
	.main = PE_FIELD_ROPE_ANGLE,
	.start_mid = true,
	.params = xpos_params,
	.draw = view_xpos,
	.map = xpos_map,
	.keys = xpos_keys,
};
