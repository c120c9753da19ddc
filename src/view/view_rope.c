/* The RoPE view: angles, the wheel, scores and the scaling's bands. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/rope.h"
#include "render/palette.h"

#include "view/view_impl.h"

/* A score plot (view_map_dot) at (x, y), w x h, of query or distance
 * from p: with a scaling, its two curves (scaled, and unscaled for
 * comparison) named on a legend line under it by the colors they show. */
static void
rope_score_plot(struct ctx *c, int x, int y, int w, int h, size_t p,
    const char *what, const char *plain)
{
	static const char *const labels[] = {"scaled", "unscaled"};
	static const pe_color colors[] = {C_CURVE, C_CURVE2};

	if (c->cfg->rope.type == PE_ROPE_DEFAULT || h < 5) {
		view_map_dot(c, x, y, w, h, p, c->cfg->rope.type ==
		    PE_ROPE_DEFAULT ? plain : what);
		return;
	}
	int ll = panel_legend_lines(c->cv, w, labels, colors, 2);
	view_map_dot(c, x, y, w, h - ll, p, what);
	panel_legend(c->cv, x, y + h - ll, w, ll, labels, colors, 2);
}

/* One line naming the pairs each scaling leaves alone, blends and
 * interpolates: read off the ratio of scaled to unscaled frequency. */
static void
rope_bands(struct ctx *c, const struct pe_rope *r, int x, int y, int w)
{
	size_t kept = 0, interp = 0, blend = 0, k0 = SIZE_MAX, k1 = 0;
	double f = c->cfg->rope.factor;
	for (size_t j = 0; j < r->npairs; j++) {
		double q = r->inv_freq[j] / r->inv_freq0[j];
		if (fabs(q - 1.0) < 1e-9) {
			kept++;
		} else if (fabs(q * f - 1.0) < 1e-9) {
			interp++;
		} else {
			blend++;
			if (j < k0)
				k0 = j;
			k1 = j;
		}
	}
	char l[200];
	if (blend > 0)
		snprintf(l, sizeof l, "pairs kept %zu · blended %zu (j %zu–%zu) · "
		    "÷%g %zu", kept, blend, k0, k1, f, interp);
	else
		snprintf(l, sizeof l, "pairs kept %zu · ÷%g %zu · other %zu", kept, f,
		    interp, blend);
	pe_canvas_text_fit(c->cv, x, y, w, l, C_DIM, PE_COLOR_DEFAULT, 0);
}

/* v with at most sig significant digits in at most width characters
 * ("%.*g", else the shorter "%.*e" with a compact exponent); "" when
 * neither fits. */
static void
rope_num(char *buf, size_t cap, double v, int sig, int width)
{
	char e[32];
	int n = snprintf(buf, cap, "%.*g", sig, v);
	snprintf(e, sizeof e, "%.*e", sig - 1, v);
	char *x = strchr(e, 'e');
	if (x != NULL) { /* e-05 -> e-5, e+07 -> e7 */
		char *d = x + 1;
		if (*d == '+')
			memmove(d, d + 1, strlen(d));
		else if (*d == '-')
			d++;
		while (d[0] == '0' && d[1] != '\0')
			memmove(d, d + 1, strlen(d));
	}
	if (n < 0 || (size_t)n >= cap || strlen(e) < strlen(buf))
		snprintf(buf, cap, "%s", e); /* a cut %g is never shown */
	if ((int)strlen(buf) > width)
		buf[0] = '\0';
}

/* The wheel's labels in w columns, one line per hand: "j=… ω=… θ=…" in
 * columns; when that is too wide ω goes, then θ takes 2 significant digits
 * instead of 3; numbers are never cut (without room, no labels). */
static void
rope_wheel_labels(struct ctx *c, const struct pe_rope *r, int x, int y, int w,
    int lines, size_t nh, const double *ang, const pe_color *col)
{
	char js[16][32], os[16][32], ts[16][32];
	size_t n = nh < (size_t)(lines > 0 ? lines : 0) ? nh : (size_t)lines;
	for (int sig = 3; sig >= 2; sig--) {
		int jw = 0, ow = 0, tw = 0;
		bool ok = true;
		for (size_t j = 0; j < n; j++) {
			size_t pj = nh == r->npairs ? j : j * (r->npairs - 1) / (nh - 1);
			snprintf(js[j], sizeof js[j], "%zu", pj);
			rope_num(os[j], sizeof os[j], r->inv_freq[pj], 3, 12);
			rope_num(ts[j], sizeof ts[j], ang[j], sig, 12);
			ok = ok && ts[j][0] != '\0';
			jw = (int)strlen(js[j]) > jw ? (int)strlen(js[j]) : jw;
			ow = (int)strlen(os[j]) > ow ? (int)strlen(os[j]) : ow;
			tw = (int)strlen(ts[j]) > tw ? (int)strlen(ts[j]) : tw;
		}
		bool with_w = 2 + jw + 3 + ow + 3 + tw <= w;
		if (!ok || (!with_w && 2 + jw + 3 + tw > w))
			continue;
		for (size_t j = 0; j < n; j++) {
			char l[128];
			if (with_w)
				snprintf(l, sizeof l, "j=%-*s ω=%-*s θ=%s", jw, js[j], ow,
				    os[j], ts[j]);
			else
				snprintf(l, sizeof l, "j=%-*s θ=%s", jw, js[j], ts[j]);
			pe_canvas_text(c->cv, x, y + (int)j, w, l, col[j],
			    PE_COLOR_DEFAULT, 0);
		}
		return;
	}
}

/* The pairs whose unscaled wavelength exceeds --train-len L, counted and
 * named (j ranges) into buf; "" without L. */
static void
rope_beyond_text(const struct ctx *c, const struct pe_rope *r, char *buf,
    size_t cap)
{
	size_t L = c->cfg->teach.train_len;
	buf[0] = '\0';
	if (L == 0)
		return;
	size_t *js = malloc((r->npairs > 0 ? r->npairs : 1) * sizeof *js);
	if (js == NULL)
		return;
	/* the angles trained with at L: linear scaling's are the scaled ones
	 * (its train_len is the scaled context), the others' unscaled */
	bool scaled = pe_rope_trained_scaled(c->cfg);
	char wl[64];
	if (scaled)
		snprintf(wl, sizeof wl, "2π·%g/ω_j (linear ×%g, as trained)",
		    c->cfg->rope.factor, c->cfg->rope.factor);
	else
		snprintf(wl, sizeof wl, "2π/ω_j (unscaled)");
	size_t n = pe_rope_never_turned(c->cfg, r, (double)L, js);
	if (n == 0) {
		snprintf(buf, cap, "train_len %zu: every pair's wavelength %s "
		    "is ≤ %zu, so each turned fully in training", L, wl, L);
		free(js);
		return;
	}
	/* runs of consecutive pairs, the first four of them */
	char list[160] = "";
	size_t runs = 0;
	for (size_t i = 0; i < n; i++, runs++) {
		size_t a = i;
		while (i + 1 < n && js[i + 1] == js[i] + 1)
			i++;
		if (runs == 4)
			view_cat(list, sizeof list, ", …");
		else if (runs < 4 && i > a)
			view_cat(list, sizeof list, "%s%zu–%zu", runs ? ", " : "", js[a],
			    js[i]);
		else if (runs < 4)
			view_cat(list, sizeof list, "%s%zu", runs ? ", " : "", js[a]);
	}
	snprintf(buf, cap, "train_len %zu: %zu of %zu pairs (j %s) have "
	    "wavelength %s > %zu: they never turned once in training, the "
	    "observation behind NTK and YaRN", L, n, r->npairs, list, wl, L);
	free(js);
}

/* rope's main map and its inspector. */
static void
rope_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	const struct pe_rope *r = &c->mainf.rope;
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0, PE_TWO_PI, true};
	char legend[96];
	snprintf(legend, sizeof legend, "0 = 2π · %s: a block spans many turns",
	    pe_palette_no_hue_name((enum pe_depth)c->cv->depth,
		(enum pe_theme)c->cv->theme));
	view_map_main(c, &sc, "θ[m, j] mod 2π  (position m ↓, pair j →)", "%.3g",
	    legend);
	size_t m = c->st->cur_r, j = c->st->cur_c;
	double th = pe_rope_angle(r, (double)m, j);
	snprintf(c->insp[0], sizeof c->insp[0], " θ[%zu,%zu] = m·ω_%zu "
	    "= %zu · %.9g = %.9g rad (mod 2π: %.6g); unscaled ω_%zu = "
	    "base^(−%zu/%zu) = %.10g^(−%zu/%zu) = %.6g", m, j, j, m, r->inv_freq[j],
	    th, fmod(th, PE_TWO_PI), j, 2 * j, r->rot, k->base, 2 * j, r->rot,
	    r->inv_freq0[j]);
	view_map_inspect(c, "pos", "pair");
}

/* rope: angles mod 2 pi, the wheel, dot products, frequency bands. */
static void
view_rope(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	const struct pe_rope *r = &c->mainf.rope;
	rope_map(c);

	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t m = c->st->cur_r;
	bool scaled = k->rope.type != PE_ROPE_DEFAULT;
	char beyond[400];
	rope_beyond_text(c, r, beyond, sizeof beyond);
	int bl = beyond[0] != '\0' ? panel_text_lines(w, beyond) : 0;
	/* with a scaling, its words and plots come first (the score 8 lines,
	 * the wavelengths 10): the wheel takes what they leave */
	int keep = scaled ? (bl > 0 ? bl + 1 : 0) + 8 + 1 + 10 : 0;
	int wh = h - keep >= 30 ? 12 : (h - keep >= 18 ? 8 : 0);
	if (wh > 0) {
		size_t nh = r->npairs < 16 ? r->npairs : 16;
		double ang[16];
		pe_color col[16];
		for (size_t j = 0; j < nh; j++) {
			size_t pj = nh == r->npairs ? j : j * (r->npairs - 1) / (nh - 1);
			ang[j] = fmod(pe_rope_angle(r, (double)m, pj), PE_TWO_PI);
			/* the lighter part of the map, readable on dark and light */
			col[j] = pe_cmap_color(PE_CMAP_SEQUENTIAL, 0.35 + 0.65 *
			    (double)j / (double)(nh > 1 ? nh - 1 : 1));
		}
		char t[96];
		snprintf(t, sizeof t, "rotation of each pair at m = %zu", m);
		if (pe_text_cells(t) > w) /* the position matters most */
			snprintf(t, sizeof t, "rotation at m = %zu", m);
		pe_canvas_text_fit(c->cv, x, y, w, t, C_TEXT, PE_COLOR_DEFAULT,
		    PE_ATTR_BOLD);
		int ww = wh * 2 + 2;
		pe_draw_wheel(c->cv, x, y + 1, ww, wh - 1, ang, nh, col);
		rope_wheel_labels(c, r, x + ww + 1, y + 1, w - ww - 1, wh - 1, nh,
		    ang, col);
		y += wh + 1;
		h -= wh + 1;
	}
	/* the words whole when the score plot keeps 8 lines, else shortened
	 * to two, else left out (the plot is the point) */
	int bshow = bl > 0 && h >= bl + 1 + 8 ? bl : bl > 2 && h >= 3 + 8 ? 2
	    : 0;
	if (bshow > 0) {
		int used = panel_text(c->cv, x, y, w, bshow, beyond, C_TEXT, 0);
		y += used + 1;
		h -= used + 1;
	}
	int hd = scaled && h >= 19 ? h - 11 : h >= 16 ? h / 2 : h;
	if (scaled && hd > h / 2 + 2)
		hd = h / 2 + 2;
	rope_score_plot(c, x, y, w, hd, m, "score",
	    "score (R_m q)·(R_n k), q=k=(1,0)");
	y += hd + 1;
	h -= hd + 1;
	if (h >= 9 && k->rope.type != PE_ROPE_DEFAULT) {
		/* wavelengths before and after scaling, log scale */
		size_t np = r->npairs;
		double *a = calloc(np, sizeof *a), *b = calloc(np, sizeof *b);
		if (view_check(c, a == NULL || b == NULL ? PE_ENOMEM : PE_OK, x, y,
			w) == PE_OK) {
			double lo = 0, hi = 0;
			for (size_t j = 0; j < np; j++) {
				a[j] = log10(pe_rope_wavelength(r, j, false));
				b[j] = log10(pe_rope_wavelength(r, j, true));
			}
			double l2 = 0, h2 = 0;
			panel_range(a, np, &lo, &hi);
			panel_range(b, np, &l2, &h2);
			if (l2 < lo)
				lo = l2;
			if (h2 > hi)
				hi = h2;
			double orig = log10((double)(k->rope.type == PE_ROPE_DYNAMIC
				? k->rope.max_pos : k->rope.original_max_pos));
			if (orig > hi)
				hi = orig;
			char ol[40];
			const char *labels[] = {"scaled", "unscaled", ol};
			const pe_color colors[] = {C_CURVE, C_CURVE2, C_CURVE3};
			snprintf(ol, sizeof ol, "%g", pow(10, orig));
			/* the legend and the bands under it */
			int ll = panel_legend_lines(c->cv, w, labels, colors, 3);
			int ph = h - 1 - ll;
			panel_plot(c->cv, x, y, w, ph, "log10 wavelength 2π/ω_j by "
			    "pair j", a, np, lo, hi, "pair 0", "high j = slow", -1);
			panel_legend(c->cv, x, y + ph, w, ll, labels, colors, 3);
			rope_bands(c, r, x, y + h - 1, w);
			panel_plot_overlay(c->cv, x, y, w, ph, b, np, lo, hi,
			    C_CURVE2);
			double *o = calloc(np, sizeof *o);
			if (o != NULL) {
				for (size_t j = 0; j < np; j++)
					o[j] = orig;
				panel_plot_overlay(c->cv, x, y, w, ph, o, np, lo, hi,
				    C_CURVE3);
				free(o);
			}
		}
		free(a);
		free(b);
	} else if (h >= 8 && c->m->has_sim) {
		view_map_simmap(c, x, y, w, h, "score matrix (query m ↓, key n →)");
	}
}

/* The decay bound at distances, a plot sample each (the first of its
 * block): the samples [0, ns) in two halves, one a core. */
struct rope_decay_job {
	const struct pe_rope *r;
	size_t n, ns;
	double *dist, *dest;
	int rc[2];
};

/* Half `part` of a rope_decay_job: each distance is its own sum, so the
 * halves give the bits one call would. */
static void
rope_decay_part(void *arg, int part)
{
	struct rope_decay_job *j = arg;
	size_t half = j->ns / 2, a = part == 0 ? 0 : half;
	size_t b = part == 0 ? half : j->ns;
	j->rc[part] = pe_rope_decay_many(j->r, j->dist + a, b - a, j->dest + a);
}

/* The decay bound at ns distances, one a plot sample (the first of its
 * block), kept in the model's cache for the next frames. */
static const double *
rope_decay(struct ctx *c, size_t ns)
{
	struct pe_view_cache *k = c->m->cache;
	if (k->decay != NULL && k->decay_ns == ns)
		return k->decay;
	free(k->decay);
	k->decay_ns = 0;
	double *dist = malloc(ns * sizeof *dist);
	if (dist == NULL || (k->decay = malloc(ns * sizeof *k->decay)) == NULL) {
		free(dist);
		return NULL;
	}
	for (size_t s = 0; s < ns; s++) {
		size_t r0, r1;
		pe_field_span(0, c->cfg->n, ns, s, &r0, &r1);
		dist[s] = (double)r0;
	}
	struct rope_decay_job j = {&c->mainf.rope, c->cfg->n, ns, dist,
	    k->decay, {PE_OK, PE_OK}};
	panel_run2(rope_decay_part, &j);
	free(dist);
	if (j.rc[0] != PE_OK || j.rc[1] != PE_OK) {
		free(k->decay);
		k->decay = NULL;
		return NULL;
	}
	k->decay_ns = ns;
	return k->decay;
}

/* The decay bound's plot has at least this many lines (the score plot
 * and the words above and below it go first). */
#define DECAY_MIN_H 8

/* rope's decay panel: the score by distance, and RoFormer's bound on it
 * below, on the same distances. */
static void
rope_decay_panel(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	const struct pe_rope *r = &c->mainf.rope;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t n = k->n, m = c->st->cur_r;
	char t[200], b[400];

	snprintf(t, sizeof t, "RoPE's long-term decay by distance r (Su et al. "
	    "§3.4.3)");
	int used = panel_text(c->cv, x, y, w, 1, t, C_TEXT, PE_ATTR_BOLD);
	y += used;
	h -= used;
	rope_beyond_text(c, r, b, sizeof b);
	/* the bound is the panel's point: it gets its rows first, then the
	 * score by distance above it, then the words on the pairs */
	int tail = b[0] != '\0' && h >= DECAY_MIN_H + 3 ? 3 : 0;
	int hp = h - tail - 1 - DECAY_MIN_H >= 6 ? (h - tail - 1) / 2 : 0;
	if (hp > 0) {
		rope_score_plot(c, x, y, w, hp, 0, "score by distance",
		    "score (R_0 q)·(R_r k), q=k=(1,0), by distance");
		y += hp + 1;
		h -= hp + 1;
	}
	int pw = w - 7;
	int hd = h - tail;
	if (pw >= 4 && hd >= 4) {
		size_t ns = (size_t)pw < n ? (size_t)pw : n;
		const double *ys = rope_decay(c, ns);
		if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) == PE_OK) {
			double top = ((double)r->npairs + 1) / 2; /* r = 0: mean of j */
			char xhi[32];
			snprintf(xhi, sizeof xhi, "%zu", n - 1);
			panel_plot(c->cv, x, y, w, hd, "bound (1/P)·Σ_j |S_j(r)|, "
			    "S_j(r) = Σ_{k<j} e^{i·r·ω_k}", ys, ns, 0, top, "r = 0",
			    xhi, (long)panel_sample_of(0, n, ns, m));
			view_map_mark_plot(c, x, y, w, hd, n, ns);
		}
		y += hd;
	}
	if (tail > 0)
		panel_text(c->cv, x, y, w, tail, b, C_TEXT, 0);

	double v = pe_rope_decay(r, (double)m);
	snprintf(c->panel_insp, sizeof c->panel_insp, " bound(r = %zu) = (1/P)·Σ_{j=1..P} |S_j(%zu)| = "
	    "(1/%zu)·%.9g = %.9g; at r = 0 it is (P + 1)/2 = %g", m, m, r->npairs,
	    v * (double)r->npairs, v, ((double)r->npairs + 1) / 2);
}

/* ---- row -------------------------------------------------------------- */

static void
rope_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	const struct pe_rope *r = &c->mainf.rope;
	view_item(it, 0, "head_dim %zu", k->d);
	view_item(it, 0, "seq_len %zu", k->n);
	view_item(it, 1, "base %.10g", k->base);
	view_item(it, 2, "pairing %s", k->pairing == PE_PAIR_HALF
	    ? "half (rotate_half)"
	    : "interleaved (GPT-J; Llama 4's complex form, DeepSeek's)");
	if (r->rot != k->d && k->attn.qk_rope_dim == 0)
		view_item(it, 1, "rotary %zu of %zu", r->rot, k->d);
	view_attn_params(c, it);
	if (k->rope.type == PE_ROPE_LONGROPE) {
		/* which factor longrope uses, and why (HF: rope_scaling's
		 * factor, or the Phi-3 ratio) */
		if (k->rope.factor_given)
			view_item(it, 0, "longrope ×%g (--factor) orig %zu",
			    pe_rope_longrope_factor(&k->rope),
			    k->rope.original_max_pos);
		else
			view_item(it, 0, "longrope ×%g = max_pos %zu / orig %zu",
			    pe_rope_longrope_factor(&k->rope), k->rope.max_pos,
			    k->rope.original_max_pos);
	} else if (k->rope.type != PE_ROPE_DEFAULT) {
		view_item(it, 0, "%s ×%g", pe_rope_type_name(k->rope.type),
		    k->rope.factor);
		if (k->rope.type == PE_ROPE_DYNAMIC && k->n <= k->rope.max_pos)
			/* HF: seq_len = max(seq_len, max_pos), the base unchanged */
			view_item(it, 0, "inactive: seq_len ≤ max_pos %zu",
			    k->rope.max_pos);
		else if (k->rope.type == PE_ROPE_DYNAMIC)
			view_item(it, 2, "max_pos %zu", k->rope.max_pos);
		else if (k->rope.type != PE_ROPE_LINEAR)
			view_item(it, 2, "orig %zu", k->rope.original_max_pos);
	}
	if (k->rope.type != PE_ROPE_DEFAULT) {
		if (k->rope.type == PE_ROPE_YARN) {
			double bf, bs; /* 0 means HF's default */
			pe_rope_yarn_betas(&k->rope, &bf, &bs);
			view_item(it, 3, "β %g/%g", bf, bs);
		}
		if (k->rope.type == PE_ROPE_LLAMA3)
			view_item(it, 3, "low %g high %g", k->rope.low_freq_factor,
			    k->rope.high_freq_factor);
		view_item(it, 0, "cos,sin ×%.4g", r->attention_scaling);
	}
}

/* p: half <-> interleaved. */
static int
rope_pairing(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	(void)key;
	c.pairing = c.pairing == PE_PAIR_HALF ? PE_PAIR_INTERLEAVED : PE_PAIR_HALF;
	return pe_state_apply(st, &c);
}

/* s: the next rope scaling type, S: the previous (from the one shown:
 * llama-2-7b's default, s gives linear); longrope is skipped (with a word)
 * when no factor lists were given. */
static int
rope_type(struct pe_state *st, int key)
{
	struct pe_config cand = st->pane[st->focus].cfg;
	bool skipped = false;
	int t = (int)cand.rope.type;

	for (;;) {
		t = (t + (key == 's' ? 1 : -1) + PE_ROPE_TYPE_COUNT) % PE_ROPE_TYPE_COUNT;
		if (t == PE_ROPE_LONGROPE && (cand.rope.short_factor == NULL ||
		    cand.rope.long_factor == NULL)) {
			skipped = true;
			continue;
		}
		break;
	}
	cand.rope.type = (enum pe_rope_type)t;
	int act = pe_state_apply(st, &cand);
	if ((act & PE_ACT_REBUILD) && skipped)
		pe_state_status(st, "rope scaling %s (longrope skipped: it needs "
		    "--short-factor, --long-factor)",
		    pe_rope_type_name(cand.rope.type));
	return act;
}

/* f/F: the scaling factor halved, doubled. */
static int
rope_factor(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	if (c.rope.type == PE_ROPE_DEFAULT) {
		pe_state_status(st, "'%c': rope scaling is default (no factor); s / "
		    "S choose a scaling type", key);
		return PE_ACT_REDRAW;
	}
	if (c.rope.type == PE_ROPE_LONGROPE && !c.rope.factor_given) {
		/* start from the factor in use (max_pos / original_max_pos);
		 * a changed one is explicit, as --factor */
		c.rope.factor = pe_rope_longrope_factor(&c.rope);
		c.rope.factor_given = true;
	}
	c.rope.factor = key == 'f' ? c.rope.factor / 2 : c.rope.factor * 2;
	if (c.rope.factor < 1.0) {
		pe_state_status(st, "factor %g: the scaling factor must be >= 1",
		    c.rope.factor);
		return PE_ACT_REDRAW;
	}
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key rope_keys[] = {
	PE_SHARED_D_MODEL("head_dim"),
	PE_SHARED_SEQ_LEN,
	PE_SHARED_BASE,
	{"p", "p", "pairing", rope_pairing},
	{"sS", "s/S", "scaling", rope_type},
	{"fF", "f/F", "factor", rope_factor},
	{"o", "o", "span", view_attn_span_key},
	{"kK", "k/K", "span size", view_attn_size_key},
	{"uU", "u/U", "rope_dim", view_attn_rope_dim_key},
	{"<>", "</>", "sink head", view_attn_head_key},
	PE_KEYS_END,
};

static const struct pe_enc_panel rope_panels[] = {
	{PE_PANEL_ATTENTION, view_toy_panel, view_toy_width},
	{PE_PANEL_EXAMPLE, view_example_rotated, view_example_width},
	{PE_PANEL_DECAY, rope_decay_panel, NULL},
	{PE_PANEL_MASK, view_attn_mask, NULL},
	{PE_PANEL_SINKS, view_attn_sinks, NULL},
	{PE_PANEL_SPLIT, view_attn_split, NULL},
	{PE_PANEL_OVERVIEW, NULL, NULL},
};

/* A scaled rope's unscaled similarity, for the comparison curves. */
static int
rope_model(struct pe_model *m)
{
	int st;

	if (m->cfg.rope.type == PE_ROPE_DEFAULT)
		return PE_OK;
	m->base_cfg = m->cfg;
	m->base_cfg.rope.type = PE_ROPE_DEFAULT;
	if ((st = pe_field_init(&m->base, PE_FIELD_SIMILARITY, &m->base_cfg)) !=
	    PE_OK)
		return st;
	m->has_base = true;
	return PE_OK;
}

const struct pe_enc_view view_rope_row = {
	.main = PE_FIELD_ROPE_ANGLE,
	.start_mid = true,
	.params = rope_params,
	.draw = view_rope,
	.keys = rope_keys,
	.panels = rope_panels,
	.map = rope_map,
	.model = rope_model,
};
