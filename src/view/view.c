/* Views: state -> canvas, one function per encoding over shared chrome
 * (encoding tabs, parameter line, inspector, status line, help). The TUI
 * and `pescope snapshot` both call pe_view_render. */
#include "view/view.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/alibi.h"
#include "pescope/relative.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"
#include "pescope/vit2d.h"
#include "view/panels.h"

#define TWO_PI 6.283185307179586

/* What one frame's drawing functions share. */
struct ctx {
	const struct pe_state *st;
	const struct pe_model *m;
	const struct pe_config *cfg;
	struct pe_canvas *cv;
	struct pe_hit *hit;
	int w, h;	   /* frame */
	int bx, by, bh;	   /* body: x, first line, lines */
	int lw;		   /* left column (main map) width */
	int rx, rw;	   /* right column */
	struct pe_field mainf; /* the model's main field (vit2d: anchored) */
	struct map_geom g; /* the main map, once drawn */
	char insp[2][512]; /* inspector lines */
};

/* ---- model ---------------------------------------------------------- */

/* Build the fields a config's view needs. */
int
pe_model_init(struct pe_model *m, const struct pe_config *cfg)
{
	enum pe_field_kind main;
	int st;

	memset(m, 0, sizeof *m);
	m->cfg = *cfg;
	switch (cfg->enc) {
	case PE_ENC_ROPE:
		main = PE_FIELD_ROPE_ANGLE;
		break;
	case PE_ENC_ALIBI:
		main = PE_FIELD_BIAS;
		break;
	case PE_ENC_NOPE:
		main = PE_FIELD_MASK;
		break;
	case PE_ENC_RELATIVE:
		main = PE_FIELD_RELATIVE;
		break;
	case PE_ENC_VIT2D:
		main = PE_FIELD_PATCH_COSINE;
		break;
	default:
		main = PE_FIELD_PE;
	}
	if ((st = pe_field_init(&m->main, main, &m->cfg)) != PE_OK)
		return st;
	if (pe_field_supported(cfg->enc, PE_FIELD_SIMILARITY)) {
		if ((st = pe_field_init(&m->sim, PE_FIELD_SIMILARITY, &m->cfg)) !=
		    PE_OK)
			goto fail;
		m->has_sim = true;
	}
	if (cfg->enc == PE_ENC_LEARNED) {
		/* the color range of the table and the bound of its dot
		 * products, once per config rather than once per frame */
		size_t rows = cfg->max_len < cfg->n ? cfg->max_len : cfg->n;
		for (size_t p = 0; p < rows; p++) {
			double sq = 0;
			for (size_t j = 0; j < cfg->d; j++) {
				double v = (double)cfg->table[p * cfg->d + j];
				sq += v * v;
				if (fabs(v) > m->learned_absmax)
					m->learned_absmax = fabs(v);
			}
			if (sq > m->learned_sqmax)
				m->learned_sqmax = sq;
		}
	}
	if (cfg->enc == PE_ENC_ROPE && cfg->rope.type != PE_ROPE_DEFAULT) {
		/* the same rope unscaled, for the comparison curves */
		m->base_cfg = m->cfg;
		m->base_cfg.rope.type = PE_ROPE_DEFAULT;
		if ((st = pe_field_init(&m->base, PE_FIELD_SIMILARITY,
			 &m->base_cfg)) != PE_OK)
			goto fail;
		m->has_base = true;
	}
	return PE_OK;
fail:
	pe_model_free(m);
	return st;
}

/* Release a model's fields. */
void
pe_model_free(struct pe_model *m)
{
	pe_field_free(&m->main);
	if (m->has_sim)
		pe_field_free(&m->sim);
	if (m->has_base)
		pe_field_free(&m->base);
	m->has_sim = m->has_base = false;
}

/* ---- chrome ---------------------------------------------------------- */

/* printf into a bounded buffer, appending. */
static void
cat(char *buf, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	if (n >= cap - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
}

/* Top line: program name, the encoding tabs, the preset. */
static void
draw_tabs(struct ctx *c)
{
	int x = 0;
	x += pe_canvas_text(c->cv, x, 0, c->w, " pescope ", PE_RGB(0, 0, 0),
	    C_ACCENT, PE_ATTR_BOLD);
	c->hit->tab_y = 0;
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		char t[32];
		bool on = (int)c->cfg->enc == e;
		snprintf(t, sizeof t, " %d %s ", e + 1,
		    pe_encoding_name((enum pe_encoding)e));
		c->hit->tab_x0[e] = x;
		x += pe_canvas_text(c->cv, x, 0, c->w - x, t,
		    on ? PE_RGB(0, 0, 0) : C_TEXT, on ? PE_RGB(0xd0, 0xd0, 0xd0)
						  : PE_COLOR_DEFAULT,
		    on ? PE_ATTR_BOLD : 0);
		c->hit->tab_x1[e] = x;
	}
	if (c->st->preset != NULL) {
		char t[96];
		int l = snprintf(t, sizeof t, "preset %s ", c->st->preset);
		if (x + l + 1 <= c->w)
			pe_canvas_text(c->cv, c->w - l, 0, l, t, C_DIM,
			    PE_COLOR_DEFAULT, 0);
	}
}

/* Second line: every parameter of the encoding with its current value. */
static void
draw_params(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	char b[512] = "";

	switch (k->enc) {
	case PE_ENC_SINUSOIDAL:
		cat(b, sizeof b, " d_model %zu · seq_len %zu · base %g · layout %s",
		    k->d, k->n, k->base,
		    k->layout == PE_LAYOUT_INTERLEAVED ? "interleaved (sin,cos,…)"
						       : "split (sin…|cos…)");
		break;
	case PE_ENC_LEARNED:
		cat(b, sizeof b, " d_model %zu · seq_len %zu · max_len %zu · %s",
		    k->d, k->n, k->max_len,
		    k->table_untrained ? "untrained: N(0, 0.02²) init"
				       : "table from file");
		break;
	case PE_ENC_RELATIVE:
		if (k->relative == PE_REL_T5)
			cat(b, sizeof b, " t5 buckets %zu · max_distance %zu · %s · "
			    "seq_len %zu · rel = key − query", k->buckets,
			    k->max_distance, k->bidirectional ? "bidirectional"
							      : "unidirectional",
			    k->n);
		else
			cat(b, sizeof b, " shaw K %zu · seq_len %zu · index = "
			    "clip(key − query, −K, K) + K", k->max_relative, k->n);
		break;
	case PE_ENC_ROPE: {
		const struct pe_rope *r = &c->mainf.rope;
		cat(b, sizeof b, " head_dim %zu · seq_len %zu · base %g · pairing %s",
		    k->d, k->n, k->base,
		    k->pairing == PE_PAIR_HALF ? "half (rotate_half)"
					       : "interleaved (GPT-J)");
		if (r->rot != k->d)
			cat(b, sizeof b, " · rotary %zu of %zu", r->rot, k->d);
		if (k->rope.type != PE_ROPE_DEFAULT) {
			cat(b, sizeof b, " · %s ×%g", pe_rope_type_name(k->rope.type),
			    k->rope.factor);
			if (k->rope.type == PE_ROPE_DYNAMIC)
				cat(b, sizeof b, " max_pos %zu", k->rope.max_pos);
			else if (k->rope.type != PE_ROPE_LINEAR)
				cat(b, sizeof b, " orig %zu", k->rope.original_max_pos);
			if (k->rope.type == PE_ROPE_YARN)
				cat(b, sizeof b, " β %g/%g", k->rope.beta_fast,
				    k->rope.beta_slow);
			if (k->rope.type == PE_ROPE_LLAMA3)
				cat(b, sizeof b, " low %g high %g", k->rope.low_freq_factor,
				    k->rope.high_freq_factor);
			cat(b, sizeof b, " · cos,sin ×%.4g", r->attention_scaling);
		}
		break;
	}
	case PE_ENC_ALIBI:
		cat(b, sizeof b, " heads %zu · seq_len %zu · mode %s · head %zu "
		    "large (slope %.6g) · bias = −m·(query − key)", k->heads, k->n,
		    k->alibi_mode == PE_ALIBI_CAUSAL ? "causal" : "symmetric",
		    c->st->head, c->mainf.slopes[c->st->head]);
		break;
	case PE_ENC_NOPE:
		cat(b, sizeof b, " seq_len %zu · no positional encoding: order comes "
		    "only from the causal mask", k->n);
		break;
	case PE_ENC_VIT2D:
		cat(b, sizeof b, " grid %zu×%zu patches · d_model %zu · MAE 2-D "
		    "sin-cos: dims 0..%zu encode w, %zu..%zu encode h", k->grid_h,
		    k->grid_w, k->d, k->d / 2 - 1, k->d / 2, k->d - 1);
		break;
	default:
		break;
	}
	pe_canvas_text(c->cv, 0, 1, c->w, b, C_TEXT, PE_COLOR_DEFAULT, 0);
}

/* Key hints for the status line, per encoding. */
static const char *
hints(enum pe_encoding e)
{
	switch (e) {
	case PE_ENC_SINUSOIDAL:
		return "d/D d_model  n/N seq_len  b/B base  l layout";
	case PE_ENC_LEARNED:
		return "d/D d_model  n/N seq_len";
	case PE_ENC_RELATIVE:
		return "r t5/shaw  k/K buckets or K  m/M max_dist  u direction  "
		       "n/N seq_len";
	case PE_ENC_ROPE:
		return "d/D head_dim  n/N seq_len  b/B base  p pairing  s/S scaling  "
		       "f/F factor";
	case PE_ENC_ALIBI:
		return "h/H heads  </> head  a mode  n/N seq_len";
	case PE_ENC_NOPE:
		return "n/N seq_len";
	case PE_ENC_VIT2D:
		return "g/G grid  d/D d_model";
	default:
		return "";
	}
}

/* Bottom line: the message of the last action, else the keys that matter. */
static void
draw_status(struct ctx *c)
{
	char b[512];
	int y = c->h - 1;
	if (c->st->status[0] != '\0') {
		pe_canvas_text(c->cv, 0, y, c->w, c->st->status, C_WARN,
		    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
		return;
	}
	snprintf(b, sizeof b, "? help  q quit  ←↑↓→ move  +/- zoom  1-7 "
	    "encoding  %s  space %s  w save", hints(c->cfg->enc),
	    c->st->playing ? "pause" : "play");
	pe_canvas_text(c->cv, 0, y, c->w, b, C_DIM, PE_COLOR_DEFAULT, 0);
}

/* The two inspector lines above the status line. */
static void
draw_inspector(struct ctx *c)
{
	pe_canvas_text(c->cv, 0, c->h - 3, c->w, c->insp[0], C_TEXT,
	    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	pe_canvas_text(c->cv, 0, c->h - 2, c->w, c->insp[1], C_DIM,
	    PE_COLOR_DEFAULT, 0);
}

static const char *const help_lines[] = {
	"pescope keys",
	"",
	"1-7, Tab, Shift-Tab  choose the encoding",
	"arrows               move the cursor by one map sample",
	"+ / -   0            zoom in / out around the cursor; whole map",
	"PgUp PgDn Home End   pan the map",
	"d/D  n/N  b/B        d_model, seq_len halve/double; base /10, x10",
	"l  p                 sinusoidal layout; rope pairing",
	"s/S  f/F             rope scaling type; factor /2, x2",
	"h/H  < >  a          alibi heads -/+; head drawn large; mode",
	"r  u  k/K  m/M       relative: t5/shaw; direction; buckets or K;",
	"                     max_distance",
	"g/G                  vit2d grid side -/+",
	"space  [ ]           play / pause the sweep; slower, faster",
	"w                    save the frame (.ansi and .txt)",
	"mouse                click: tab or cursor; wheel: zoom",
	"? / q, Esc           this help / quit",
	"",
	"any key closes this help",
};

/* The help overlay, centred. */
static void
draw_help(struct ctx *c)
{
	int n = (int)(sizeof help_lines / sizeof help_lines[0]);
	int bw = 70 < c->w - 2 ? 70 : c->w - 2, bh = n + 2;
	int x = (c->w - bw) / 2, y = (c->h - bh) / 2;
	if (y < 0)
		y = 0;
	pe_canvas_fill(c->cv, x, y, bw, bh, ' ', C_TEXT, PE_COLOR_DEFAULT);
	pe_canvas_box(c->cv, x, y, bw, bh, " help ", C_ACCENT);
	for (int i = 0; i < n && i + 1 < bh - 1; i++)
		pe_canvas_text(c->cv, x + 2, y + 1 + i, bw - 4, help_lines[i],
		    i == 0 ? C_ACCENT : C_TEXT, PE_COLOR_DEFAULT,
		    i == 0 ? PE_ATTR_BOLD : 0);
}

/* ---- the main map ---------------------------------------------------- */

/* The state's viewport of the main map. */
static void
viewport(const struct pe_state *st, size_t *r0, size_t *r1, size_t *c0,
    size_t *c1)
{
	size_t rows, cols;
	pe_state_main_dims(&st->cfg, &rows, &cols);
	if (st->vr1 == 0 || st->vr1 > rows || st->vc1 > cols ||
	    st->vr0 >= st->vr1 || st->vc0 >= st->vc1) {
		*r0 = 0, *r1 = rows, *c0 = 0, *c1 = cols;
		return;
	}
	*r0 = st->vr0, *r1 = st->vr1, *c0 = st->vc0, *c1 = st->vc1;
}

/* Draw the main map in the left column and note its geometry. */
static void
draw_main(struct ctx *c, const struct pe_scale *sc, const char *title,
    const char *fmt, const char *legend)
{
	struct map_spec s;
	memset(&s, 0, sizeof s);
	s.f = &c->mainf;
	viewport(c->st, &s.r0, &s.r1, &s.c0, &s.c1);
	s.scale = *sc;
	s.title = title;
	s.fmt = fmt;
	s.cursor = true;
	s.cur_r = c->st->cur_r;
	s.cur_c = c->st->cur_c;
	s.axes = true;
	s.colorbar = true;
	s.legend = legend;
	if (legend != NULL && strncmp(legend, "masked", 6) == 0)
		s.swatch = PE_CELL_MASKED;
	else if (legend != NULL && strncmp(legend, "no embedding", 12) == 0)
		s.swatch = PE_CELL_UNDEFINED;
	panel_map(c->cv, c->bx, c->by, c->lw, c->bh, &s, &c->g);

	struct pe_hit *h = c->hit;
	h->map_x = c->g.x, h->map_y = c->g.y, h->map_w = c->g.w,
	h->map_h = c->g.h;
	h->r0 = c->g.r0, h->r1 = c->g.r1, h->c0 = c->g.c0, h->c1 = c->g.c1;
	h->nsr = c->g.nsr, h->nsc = c->g.nsc;
	size_t R = c->g.r1 - c->g.r0, C = c->g.c1 - c->g.c0;
	h->cell_rows = c->g.nsr ? (R + c->g.nsr - 1) / c->g.nsr : 1;
	h->cell_cols = c->g.nsc ? (C + c->g.nsc - 1) / c->g.nsc : 1;
	if (h->cell_rows < 1)
		h->cell_rows = 1;
	if (h->cell_cols < 1)
		h->cell_cols = 1;
}

/* The block of elements that the cursor's sample (half a cell) covers. */
static void
cursor_block(const struct ctx *c, size_t *r0, size_t *r1, size_t *c0,
    size_t *c1)
{
	const struct map_geom *g = &c->g;
	size_t sr = panel_sample_of(g->r0, g->r1, g->nsr, c->st->cur_r);
	size_t sc = panel_sample_of(g->c0, g->c1, g->nsc, c->st->cur_c);
	pe_field_span(g->r0, g->r1, g->nsr, sr, r0, r1);
	pe_field_span(g->c0, g->c1, g->nsc, sc, c0, c1);
}

/* Second inspector line: the cursor cell's block, when it has several. */
static void
inspect_block(struct ctx *c, const char *rname, const char *cname)
{
	size_t r0, r1, c0, c1;
	struct pe_stats s;
	if (c->g.nsr == 0)
		return;
	cursor_block(c, &r0, &r1, &c0, &c1);
	if ((r1 - r0) * (c1 - c0) <= 1) {
		snprintf(c->insp[1], sizeof c->insp[1], " the cursor's sample is "
		    "one element: %s %zu, %s %zu", rname, r0, cname, c0);
		return;
	}
	pe_field_block(&c->mainf, r0, r1, c0, c1, true, &s);
	char *b = c->insp[1];
	snprintf(b, sizeof c->insp[1], " sample = block %s %zu–%zu × %s %zu–%zu "
	    "(%zu elements): ", rname, r0, r1 - 1, cname, c0, c1 - 1,
	    (r1 - r0) * (c1 - c0));
	if (c->mainf.kind == PE_FIELD_ROPE_ANGLE)
		cat(b, sizeof c->insp[1], "circular mean %.4g rad, resultant %.3g",
		    s.mean, s.resultant);
	else if (isnan(s.mean))
		cat(b, sizeof c->insp[1], "all %s", s.masked ? "masked" : "undefined");
	else
		cat(b, sizeof c->insp[1], "mean %.6g  min %.6g  max %.6g", s.mean,
		    s.min, s.max);
	if (s.masked)
		cat(b, sizeof c->insp[1], "  (%llu masked)",
		    (unsigned long long)s.masked);
	if (s.undefined)
		cat(b, sizeof c->insp[1], "  (%llu undefined)",
		    (unsigned long long)s.undefined);
}

/* ---- right-column panels -------------------------------------------- */

/* Similarity row S(p, j) for keys j across [0, n) as block means. */
static void
sim_row(const struct pe_field *f, size_t p, size_t n, size_t ns, double *ys)
{
	struct pe_stats *st = calloc(ns, sizeof *st);
	if (st == NULL)
		return;
	pe_field_grid(f, p, p + 1, 1, 0, n, ns, st);
	for (size_t i = 0; i < ns; i++)
		ys[i] = st[i].mean;
	free(st);
}

/* Largest |S| a similarity field reaches: S(p, p) bounds it. */
static double
sim_bound(const struct pe_model *m)
{
	if (m->cfg.enc == PE_ENC_LEARNED) /* |PE_p . PE_q| <= max |PE_p|^2 */
		return m->learned_sqmax > 0 ? m->learned_sqmax : 1;
	double v = pe_field_value(&m->sim, 0, 0);
	return isfinite(v) && v > 0 ? v : 1;
}

/* The dot-product curve: S(p, j) against the key j for the cursor p. */
static void
panel_dot(struct ctx *c, int x, int y, int w, int h, size_t p,
    const char *what)
{
	size_t n = c->cfg->n;
	int pw = w - 7;
	if (pw < 4 || h < 4 || !c->m->has_sim)
		return;
	size_t ns = (size_t)pw * 2;
	if (ns > n)
		ns = n;
	double *ys = calloc(ns, sizeof *ys);
	if (ys == NULL)
		return;
	sim_row(&c->m->sim, p, n, ns, ys);
	double bnd = sim_bound(c->m);
	char title[160], xlo[40], xhi[40];
	snprintf(title, sizeof title, "%s, query %zu", what, p);
	if (p > 0)
		snprintf(xlo, sizeof xlo, "key 0 (k=−%zu)", p);
	else
		snprintf(xlo, sizeof xlo, "key 0 (k=0)");
	snprintf(xhi, sizeof xhi, "%zu (k=%zu)", n - 1, n - 1 - p);
	long mark = (long)panel_sample_of(0, n, ns, p);
	panel_plot(c->cv, x, y, w, h, title, ys, ns, -bnd, bnd, xlo, xhi, mark);
	if (c->m->has_base) {
		sim_row(&c->m->base, p, n, ns, ys);
		panel_plot_overlay(c->cv, x, y, w, h, ys, ns, -bnd, bnd, C_CURVE2);
	}
	free(ys);
}

/* The similarity matrix as a small map. */
static void
panel_simmap(struct ctx *c, int x, int y, int w, int h, const char *title)
{
	struct map_spec s;
	struct map_geom g;
	double bnd = sim_bound(c->m);
	memset(&s, 0, sizeof s);
	s.f = &c->m->sim;
	s.r0 = 0, s.r1 = c->cfg->n, s.c0 = 0, s.c1 = c->cfg->n;
	s.scale = (struct pe_scale){PE_CMAP_DIVERGING, -bnd, bnd, false};
	s.title = title;
	s.axes = true;
	s.colorbar = true;
	s.cursor = false;
	s.fmt = "%.3g";
	panel_map(c->cv, x, y, w, h, &s, &g);
}

/* Values of the cursor row of the main map across its columns. */
static void
panel_row_values(struct ctx *c, int x, int y, int w, int h, size_t p,
    const char *title, double lo, double hi, const char *cname)
{
	size_t cols = c->mainf.cols;
	int pw = w - 7;
	if (pw < 4 || h < 4)
		return;
	size_t ns = (size_t)pw * 2 < cols ? (size_t)pw * 2 : cols;
	struct pe_stats *st = calloc(ns, sizeof *st);
	double *ys = calloc(ns, sizeof *ys);
	if (st != NULL && ys != NULL) {
		pe_field_grid(&c->mainf, p, p + 1, 1, 0, cols, ns, st);
		for (size_t i = 0; i < ns; i++)
			ys[i] = st[i].mean;
		char xhi[32], xlo[32];
		snprintf(xlo, sizeof xlo, "%s 0", cname);
		snprintf(xhi, sizeof xhi, "%zu", cols - 1);
		long mark = (long)panel_sample_of(0, cols, ns, c->st->cur_c);
		panel_plot(c->cv, x, y, w, h, title, ys, ns, lo, hi, xlo, xhi, mark);
	}
	free(st);
	free(ys);
}

/* ---- views ------------------------------------------------------------ */

/* Right column for the vector encodings: dot products and the row. */
static void
right_vector(struct ctx *c, const char *rowtitle, double lo, double hi)
{
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t p = c->st->cur_r;
	int hc = h >= 30 ? h / 3 : (h >= 18 ? 8 : h / 2);
	panel_dot(c, x, y, w, hc, p, "PE(p)·PE(key)");
	y += hc + 1;
	h -= hc + 1;
	int hr = h >= 20 ? 7 : 0; /* the cursor row, when there is room */
	if (hr > 0) {
		panel_row_values(c, x, y + h - hr, w, hr, p, rowtitle, lo, hi, "dim");
		h -= hr + 1;
	}
	if (h >= 8)
		panel_simmap(c, x, y, w, h, "similarity PE·PEᵀ (query ↓, key →)");
}

/* sinusoidal: the classic stripes, dot products, the cursor row. */
static void
view_sinusoidal(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	struct pe_scale sc = {PE_CMAP_DIVERGING, -1, 1, false};
	draw_main(c, &sc, "PE[position ↓, dimension →]", "%.2g", NULL);
	right_vector(c, "PE[p, :] across dimensions", -1, 1);

	size_t p = c->st->cur_r, col = c->st->cur_c, i;
	int is_cos;
	pe_sinusoidal_column(col, k->d, k->layout, &i, &is_cos);
	double v = pe_sinusoidal_value(p, col, k->d, k->base, k->layout);
	snprintf(c->insp[0], sizeof c->insp[0],
	    " PE[%zu,%zu] = %s(%zu · %g^(−%zu/%zu)) = %.9g", p, col,
	    is_cos ? "cos" : "sin", p, k->base, 2 * i, k->d, v);
	inspect_block(c, "pos", "dim");
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
	draw_main(c, &sc, k->table_untrained
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
	inspect_block(c, "pos", "dim");
}

/* relative: T5 buckets or Shaw indices over query x key. */
static void
view_relative(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	bool t5 = k->relative == PE_REL_T5;
	double hi = t5 ? (double)k->buckets - 1 : 2.0 * (double)k->max_relative;
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, 0, hi, false};
	char legend[200];
	size_t me = t5 ? pe_t5_max_exact(k->bidirectional, k->buckets) : 0;
	if (t5)
		snprintf(legend, sizeof legend, "exact |rel| < %zu · log %zu..%zu "
		    "· ≥ %zu: last bucket", me, me, k->max_distance - 1,
		    k->max_distance);
	else
		snprintf(legend, sizeof legend, "index = clip(key − query, −%zu, "
		    "%zu) + %zu", k->max_relative, k->max_relative, k->max_relative);
	draw_main(c, &sc, t5 ? "T5 bucket[query ↓, key →]"
			     : "Shaw index[query ↓, key →]", "%.0f", legend);

	/* right: bucket (or index) against the relative position */
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	long span = (long)(t5 ? k->max_distance + k->max_distance / 4
			      : 2 * k->max_relative + 4);
	if (span > (long)k->n)
		span = (long)k->n;
	int pw = w - 7;
	if (pw > 4 && h > 6) {
		size_t ns = (size_t)pw * 2;
		double *ys = calloc(ns, sizeof *ys);
		if (ys != NULL) {
			for (size_t i = 0; i < ns; i++) {
				long rel = -span + (long)((double)i * 2.0 * (double)span /
				    (double)(ns - 1));
				ys[i] = t5 ? (double)pe_t5_bucket(rel, k->bidirectional,
						 k->buckets, k->max_distance)
					   : (double)pe_shaw_index(rel, k->max_relative);
			}
			char xlo[32], xhi[32];
			snprintf(xlo, sizeof xlo, "rel −%ld", span);
			snprintf(xhi, sizeof xhi, "+%ld", span);
			int hp = h > 16 ? h / 2 : h;
			panel_plot(c->cv, x, y, w, hp, t5 ? "bucket against rel = key − "
			    "query" : "index against rel = key − query", ys, ns, 0, hi,
			    xlo, xhi, (long)(ns / 2));
			free(ys);
			y += hp + 1;
			h -= hp + 1;
		}
	}
	if (t5 && h >= 6) {
		char l[160];
		size_t nb = k->bidirectional ? k->buckets / 2 : k->buckets;
		snprintf(l, sizeof l, "%s: %zu buckets%s",
		    k->bidirectional ? "bidirectional" : "unidirectional", nb,
		    k->bidirectional ? " per direction" : "");
		pe_canvas_text(c->cv, x, y++, w, l, C_TEXT, PE_COLOR_DEFAULT, 0);
		snprintf(l, sizeof l, "buckets 0..%zu: exact distances 0..%zu",
		    me - 1, me - 1);
		pe_canvas_text(c->cv, x, y++, w, l, C_DIM, PE_COLOR_DEFAULT, 0);
		snprintf(l, sizeof l, "buckets %zu..%zu: log-spaced up to %zu", me,
		    nb - 1, k->max_distance);
		pe_canvas_text(c->cv, x, y++, w, l, C_DIM, PE_COLOR_DEFAULT, 0);
		if (k->bidirectional) {
			snprintf(l, sizeof l, "keys after the query: the same, +%zu",
			    nb);
			pe_canvas_text(c->cv, x, y++, w, l, C_DIM, PE_COLOR_DEFAULT, 0);
		} else {
			pe_canvas_text(c->cv, x, y++, w, "keys after the query: bucket 0",
			    C_DIM, PE_COLOR_DEFAULT, 0);
		}
	}

	size_t i = c->st->cur_r, j = c->st->cur_c;
	long rel = (long)j - (long)i;
	if (t5) {
		int64_t b = pe_t5_bucket(rel, k->bidirectional, k->buckets,
		    k->max_distance);
		size_t dist = rel < 0 ? (size_t)-rel
				      : (k->bidirectional ? (size_t)rel : 0);
		snprintf(c->insp[0], sizeof c->insp[0], " bucket[q=%zu, k=%zu]: rel "
		    "= %ld → bucket %lld (%s)", i, j, rel, (long long)b,
		    dist < me ? "exact" : (dist < k->max_distance ? "log" : "clamped"));
	} else {
		snprintf(c->insp[0], sizeof c->insp[0], " index[q=%zu, k=%zu] = "
		    "clip(%ld, −%zu, %zu) + %zu = %lld", i, j, rel, k->max_relative,
		    k->max_relative, k->max_relative,
		    (long long)pe_shaw_index(rel, k->max_relative));
	}
	inspect_block(c, "query", "key");
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
	pe_canvas_text(c->cv, x, y, w, l, C_DIM, PE_COLOR_DEFAULT, 0);
}

/* rope: angles mod 2 pi, the wheel, dot products, frequency bands. */
static void
view_rope(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	const struct pe_rope *r = &c->mainf.rope;
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0, TWO_PI, true};
	draw_main(c, &sc, "θ[m, j] mod 2π  (position m ↓, pair j →)", "%.3g",
	    "cyclic: 0 = 2π · grey: a block spans many turns");

	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t m = c->st->cur_r;
	/* the wheel: one hand per pair, as many as fit */
	int wh = h >= 30 ? 12 : (h >= 18 ? 8 : 0);
	if (wh > 0) {
		size_t nh = r->npairs < 16 ? r->npairs : 16;
		double ang[16];
		pe_color col[16];
		for (size_t j = 0; j < nh; j++) {
			size_t pj = nh == r->npairs ? j : j * (r->npairs - 1) / (nh - 1);
			ang[j] = fmod(pe_rope_angle(r, (double)m, pj), TWO_PI);
			/* the lighter part of the map, readable on dark and light */
			col[j] = pe_cmap_color(PE_CMAP_SEQUENTIAL, 0.35 + 0.65 *
			    (double)j / (double)(nh > 1 ? nh - 1 : 1));
		}
		char t[96];
		snprintf(t, sizeof t, "rotation of each pair at m = %zu", m);
		pe_canvas_text(c->cv, x, y, w, t, C_TEXT, PE_COLOR_DEFAULT,
		    PE_ATTR_BOLD);
		int ww = wh * 2 + 2;
		pe_draw_wheel(c->cv, x, y + 1, ww, wh - 1, ang, nh, col);
		for (size_t j = 0; j < nh && (int)j < wh - 1; j++) {
			size_t pj = nh == r->npairs ? j : j * (r->npairs - 1) / (nh - 1);
			char l[96];
			snprintf(l, sizeof l, "j=%-3zu ω=%-9.3g θ=%.3g", pj,
			    r->inv_freq[pj], ang[j]);
			pe_canvas_text(c->cv, x + ww + 1, y + 1 + (int)j, w - ww - 1, l,
			    col[j], PE_COLOR_DEFAULT, 0);
		}
		y += wh + 1;
		h -= wh + 1;
	}
	int hd = h >= 16 ? h / 2 : h;
	panel_dot(c, x, y, w, hd, m, k->rope.type != PE_ROPE_DEFAULT
					 ? "score (green: unscaled)"
					 : "score (R_m q)·(R_n k), q=k=(1,0)");
	y += hd + 1;
	h -= hd + 1;
	if (h >= 7 && k->rope.type != PE_ROPE_DEFAULT) {
		/* wavelengths before (green) and after scaling, log scale */
		size_t np = r->npairs;
		double *a = calloc(np, sizeof *a), *b = calloc(np, sizeof *b);
		if (a != NULL && b != NULL) {
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
			char t[120];
			snprintf(t, sizeof t, "log10 wavelength (green: unscaled, "
			    "blue: %g)", pow(10, orig));
			panel_plot(c->cv, x, y, w, h - 1, t, a, np, lo, hi, "pair 0",
			    "high j = slow", -1);
			rope_bands(c, r, x, y + h - 1, w);
			panel_plot_overlay(c->cv, x, y, w, h - 1, b, np, lo, hi,
			    C_CURVE2);
			double *o = calloc(np, sizeof *o);
			if (o != NULL) {
				for (size_t j = 0; j < np; j++)
					o[j] = orig;
				panel_plot_overlay(c->cv, x, y, w, h - 1, o, np, lo, hi,
				    C_ACCENT);
				free(o);
			}
		}
		free(a);
		free(b);
	} else if (h >= 8 && c->m->has_sim) {
		panel_simmap(c, x, y, w, h, "score matrix (query m ↓, key n →)");
	}

	size_t j = c->st->cur_c;
	double th = pe_rope_angle(r, (double)m, j);
	snprintf(c->insp[0], sizeof c->insp[0], " θ[%zu,%zu] = m · inv_freq[%zu] "
	    "= %zu · %.9g = %.9g rad (mod 2π: %.6g); unscaled inv_freq = "
	    "%g^(−%zu/%zu) = %.6g", m, j, j, m, r->inv_freq[j], th,
	    fmod(th, TWO_PI), k->base, 2 * j, r->rot, r->inv_freq0[j]);
	inspect_block(c, "pos", "pair");
}

/* alibi: one head large, all heads small, the attention row. */
static void
view_alibi(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	double m = c->mainf.slopes[c->st->head];
	double lo = -m * (double)(k->n > 1 ? k->n - 1 : 1);
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, lo, 0, false};
	char title[96];
	snprintf(title, sizeof title, "bias head %zu, slope %.6g (query ↓, key →)",
	    c->st->head, m);
	draw_main(c, &sc, title, "%.3g",
	    k->alibi_mode == PE_ALIBI_CAUSAL ? "masked: key after query (−inf)"
					     : NULL);

	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t i = c->st->cur_r;
	/* attention row after softmax over the biased zeros */
	int ha = h >= 20 ? h / 3 : h / 2;
	int pw = w - 7;
	if (pw > 4 && ha >= 4) {
		size_t ns = (size_t)pw * 2 < k->n ? (size_t)pw * 2 : k->n;
		double *ys = calloc(ns, sizeof *ys), top = 0;
		if (ys != NULL) {
			for (size_t s = 0; s < ns; s++) {
				size_t j0, j1;
				pe_field_span(0, k->n, ns, s, &j0, &j1);
				ys[s] = pe_alibi_attention(m, i, k->n, j0, j1, k->alibi_mode);
				if (ys[s] > top)
					top = ys[s];
			}
			char t[96], xhi[32];
			snprintf(t, sizeof t, "softmax attention of query %zu (zero "
			    "content)", i);
			snprintf(xhi, sizeof xhi, "%zu", k->n - 1);
			panel_plot(c->cv, x, y, w, ha, t, ys, ns, 0, top > 0 ? top : 1,
			    "key 0", xhi, (long)panel_sample_of(0, k->n, ns, i));
			free(ys);
		}
		y += ha + 1;
		h -= ha + 1;
	}
	/* small multiples: every head */
	size_t H = k->heads;
	if (h >= 4) {
		pe_canvas_text(c->cv, x, y, w, "all heads: head:slope, one shared "
		    "scale", C_TEXT, PE_COLOR_DEFAULT, PE_ATTR_BOLD);
		y++;
		h--;
		int tw = 10, th = 5; /* map 8x4 cells + label line */
		int per_row = w / tw;
		int rows = h / th;
		if ((size_t)per_row * (size_t)rows < H)
			rows = (h - 1) / th; /* keep a line to say how many more */
		size_t shown = (size_t)per_row * (size_t)rows;
		if (shown > H)
			shown = H;
		struct pe_field f = c->mainf;
		for (size_t hh = 0; hh < shown; hh++) {
			int cx = x + (int)(hh % (size_t)per_row) * tw;
			int cy = y + (int)(hh / (size_t)per_row) * th;
			double mh = c->mainf.slopes[hh];
			struct map_spec s;
			struct map_geom g;
			memset(&s, 0, sizeof s);
			f.head = hh;
			s.f = &f;
			s.r0 = 0, s.r1 = k->n, s.c0 = 0, s.c1 = k->n;
			s.scale = (struct pe_scale){PE_CMAP_SEQUENTIAL,
			    -c->mainf.slopes[0] * (double)(k->n > 1 ? k->n - 1 : 1), 0,
			    false};
			panel_map(c->cv, cx, cy, tw - 2, th - 1, &s, &g);
			char l[32];
			snprintf(l, sizeof l, "%zu:%.3g", hh, mh);
			pe_canvas_text(c->cv, cx, cy + th - 1, tw - 1, l,
			    hh == c->st->head ? C_ACCENT : C_DIM, PE_COLOR_DEFAULT,
			    hh == c->st->head ? PE_ATTR_BOLD : 0);
		}
		if (shown < H) {
			char l[64];
			snprintf(l, sizeof l, "… %zu more heads (</> selects)",
			    H - shown);
			pe_canvas_text(c->cv, x, y + rows * th, w, l, C_DIM,
			    PE_COLOR_DEFAULT, 0);
		}
	}

	size_t j = c->st->cur_c;
	double b = pe_alibi_bias(m, i, j, k->alibi_mode) + 0.0; /* no -0 */
	if (isinf(b))
		snprintf(c->insp[0], sizeof c->insp[0], " bias[h%zu][q=%zu, k=%zu] = "
		    "−inf (key after query: masked)", c->st->head, i, j);
	else if (k->alibi_mode == PE_ALIBI_CAUSAL)
		snprintf(c->insp[0], sizeof c->insp[0], " bias[h%zu][q=%zu, k=%zu] = "
		    "−m·(q − k) = −%.6g·(%zu − %zu) = %.9g", c->st->head, i, j, m, i,
		    j, b);
	else
		snprintf(c->insp[0], sizeof c->insp[0], " bias[h%zu][q=%zu, k=%zu] = "
		    "−m·|q − k| = −%.6g·%zu = %.9g", c->st->head, i, j, m,
		    i > j ? i - j : j - i, b);
	inspect_block(c, "query", "key");
}

/* nope: the causal mask, and dot products that say nothing. */
static void
view_nope(struct ctx *c)
{
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, -1, 0, false};
	draw_main(c, &sc, "causal mask[query ↓, key →]", "%.0f",
	    "masked (−inf): key after query; 0: may attend");
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	int hd = h >= 16 ? h / 2 : h;
	panel_dot(c, x, y, w, hd, c->st->cur_r, "positional score of query to key");
	if (h - hd - 1 >= 4) {
		const char *lines[] = {
			"No position vectors: the positional part of",
			"every query-key score is 0, so every key looks",
			"alike to attention. Order enters only through",
			"the mask: key j is visible to query i iff j ≤ i.",
		};
		for (int i = 0; i < 4; i++)
			pe_canvas_text(c->cv, x, y + hd + 1 + i, w, lines[i], C_DIM,
			    PE_COLOR_DEFAULT, 0);
	}
	size_t i = c->st->cur_r, j = c->st->cur_c;
	snprintf(c->insp[0], sizeof c->insp[0], " mask[q=%zu, k=%zu] = %s", i, j,
	    j <= i ? "0 (key at or before query: visible)"
		   : "−inf (key after query: masked)");
	inspect_block(c, "query", "key");
}

/* vit2d: cosine similarity of the cursor patch to every patch. */
static void
view_vit2d(struct ctx *c)
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
	pe_field_block(&f0, 0, k->grid_h, 0, k->grid_w, true, &all);
	double lo = isfinite(all.min) && all.min < 1 ? all.min : -1;
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, lo, 1, false};
	char title[96];
	snprintf(title, sizeof title, "cosine(PE(%zu,%zu), PE(h,w))  (h ↓, w →)",
	    ph, pw);
	draw_main(c, &sc, title, "%.3g", NULL);

	/* right: every patch's map (the ViT paper's figure); when the grid is
	 * too fine for the room, every s-th patch in each direction */
	int x = c->rx, y = c->by, w = c->rw, h = c->bh - 1;
	size_t s = 1;
	while ((k->grid_w + s - 1) / s * 5 > (size_t)w + 1 ||
	    (k->grid_h + s - 1) / s * 3 > (size_t)h)
		s++;
	size_t gw = (k->grid_w + s - 1) / s, gh = (k->grid_h + s - 1) / s;
	char t[96];
	if (s == 1)
		snprintf(t, sizeof t, "every patch's similarity map");
	else
		snprintf(t, sizeof t, "similarity maps, patches in steps of %zu", s);
	pe_canvas_text(c->cv, x, y, w, t, C_TEXT, PE_COLOR_DEFAULT, PE_ATTR_BOLD);
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
				ms.scale = sc;
				panel_map(c->cv, x + (int)ww * cw, y + (int)hh * ch, cw - 1,
				    ch - (ch > 2), &ms, &g);
			}
	}

	double v = pe_field_value(mf, ph, pw);
	snprintf(c->insp[0], sizeof c->insp[0], " cos(PE(%zu,%zu), PE(%zu,%zu)) = "
	    "(C(Δw) + C(Δh)) / (d/2) = %.9g, C(k) = Σ_i cos(k·ω_i)",
	    ph, pw, ph, pw, v);
	inspect_block(c, "h", "w");
}

/* ---- frame ------------------------------------------------------------ */

/* Map a screen cell of the main map to an element. */
bool
pe_view_hit_map(const struct pe_hit *hit, int x, int y, size_t *r, size_t *c)
{
	size_t b1;
	if (hit->too_small || hit->nsr == 0 || x < hit->map_x || y < hit->map_y ||
	    x >= hit->map_x + hit->map_w || y >= hit->map_y + hit->map_h)
		return false;
	size_t sr = (size_t)(y - hit->map_y) * 2;
	if (sr >= hit->nsr)
		sr = hit->nsr - 1;
	pe_field_span(hit->r0, hit->r1, hit->nsr, sr, r, &b1);
	pe_field_span(hit->c0, hit->c1, hit->nsc, (size_t)(x - hit->map_x), c,
	    &b1);
	return true;
}

/* Draw the whole frame. */
void
pe_view_render(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit)
{
	struct pe_hit dummy;
	struct ctx c;

	memset(&c, 0, sizeof c);
	if (hit == NULL)
		hit = &dummy;
	memset(hit, 0, sizeof *hit);
	pe_canvas_clear(cv);
	c.st = st, c.m = m, c.cfg = &m->cfg, c.cv = cv, c.hit = hit;
	c.w = cv->w, c.h = cv->h;
	c.mainf = m->main;

	if (c.w < PE_VIEW_MIN_W || c.h < PE_VIEW_MIN_H) {
		char msg[96];
		hit->too_small = true;
		snprintf(msg, sizeof msg, "terminal too small: need ≥ %d×%d, have "
		    "%d×%d", PE_VIEW_MIN_W, PE_VIEW_MIN_H, c.w, c.h);
		int l = (int)strlen(msg) - 4; /* three 3-byte glyphs ≥ × × */
		int y = c.h / 2, x = l < c.w ? (c.w - l) / 2 : 0;
		pe_canvas_text(cv, x, y, c.w - x, msg, C_WARN, PE_COLOR_DEFAULT,
		    PE_ATTR_BOLD);
		if (y + 1 < c.h)
			pe_canvas_text(cv, 0, y + 1, c.w, "q quits", C_DIM,
			    PE_COLOR_DEFAULT, 0);
		return;
	}
	c.bx = 0, c.by = 2, c.bh = c.h - 5;
	c.rw = c.w * 2 / 5;
	if (c.rw < 30)
		c.rw = 30;
	if (c.rw > 80)
		c.rw = 80;
	c.lw = c.w - c.rw - 2;
	c.rx = c.lw + 2;

	draw_tabs(&c);
	draw_params(&c);
	switch (c.cfg->enc) {
	case PE_ENC_SINUSOIDAL:
		view_sinusoidal(&c);
		break;
	case PE_ENC_LEARNED:
		view_learned(&c);
		break;
	case PE_ENC_RELATIVE:
		view_relative(&c);
		break;
	case PE_ENC_ROPE:
		view_rope(&c);
		break;
	case PE_ENC_ALIBI:
		view_alibi(&c);
		break;
	case PE_ENC_NOPE:
		view_nope(&c);
		break;
	case PE_ENC_VIT2D:
		view_vit2d(&c);
		break;
	default:
		break;
	}
	draw_inspector(&c);
	draw_status(&c);
	if (st->help)
		draw_help(&c);
}
