/* Views: state -> canvas. This file holds the model, the chrome shared by
 * every encoding (tabs, parameter line, inspector, status line, help) and
 * the frame; the views themselves are in view_<kind>.c. The TUI and
 * `pescope snapshot` both call pe_view_render. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pescope/rope.h"
#include "view/view_impl.h"

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
		view_cat(b, sizeof b, " d_model %zu · seq_len %zu · base %g · layout %s",
		    k->d, k->n, k->base,
		    k->layout == PE_LAYOUT_INTERLEAVED ? "interleaved (sin,cos,…)"
						       : "split (sin…|cos…)");
		break;
	case PE_ENC_LEARNED:
		view_cat(b, sizeof b, " d_model %zu · seq_len %zu · max_len %zu · %s",
		    k->d, k->n, k->max_len,
		    k->table_untrained ? "untrained: N(0, 0.02²) init"
				       : "table from file");
		break;
	case PE_ENC_RELATIVE:
		if (k->relative == PE_REL_T5)
			view_cat(b, sizeof b, " t5 buckets %zu · max_distance %zu · %s · "
			    "seq_len %zu · rel = key − query", k->buckets,
			    k->max_distance, k->bidirectional ? "bidirectional"
							      : "unidirectional",
			    k->n);
		else
			view_cat(b, sizeof b, " shaw K %zu · seq_len %zu · index = "
			    "clip(key − query, −K, K) + K", k->max_relative, k->n);
		break;
	case PE_ENC_ROPE: {
		const struct pe_rope *r = &c->mainf.rope;
		view_cat(b, sizeof b, " head_dim %zu · seq_len %zu · base %g · pairing %s",
		    k->d, k->n, k->base,
		    k->pairing == PE_PAIR_HALF ? "half (rotate_half)"
					       : "interleaved (GPT-J)");
		if (r->rot != k->d)
			view_cat(b, sizeof b, " · rotary %zu of %zu", r->rot, k->d);
		if (k->rope.type != PE_ROPE_DEFAULT) {
			view_cat(b, sizeof b, " · %s ×%g", pe_rope_type_name(k->rope.type),
			    k->rope.factor);
			if (k->rope.type == PE_ROPE_DYNAMIC)
				view_cat(b, sizeof b, " max_pos %zu", k->rope.max_pos);
			else if (k->rope.type != PE_ROPE_LINEAR)
				view_cat(b, sizeof b, " orig %zu", k->rope.original_max_pos);
			if (k->rope.type == PE_ROPE_YARN)
				view_cat(b, sizeof b, " β %g/%g", k->rope.beta_fast,
				    k->rope.beta_slow);
			if (k->rope.type == PE_ROPE_LLAMA3)
				view_cat(b, sizeof b, " low %g high %g", k->rope.low_freq_factor,
				    k->rope.high_freq_factor);
			view_cat(b, sizeof b, " · cos,sin ×%.4g", r->attention_scaling);
		}
		break;
	}
	case PE_ENC_ALIBI:
		view_cat(b, sizeof b, " heads %zu · seq_len %zu · mode %s · head %zu "
		    "large (slope %.6g) · bias = −m·(query − key)", k->heads, k->n,
		    k->alibi_mode == PE_ALIBI_CAUSAL ? "causal" : "symmetric",
		    c->st->head, c->mainf.slopes[c->st->head]);
		break;
	case PE_ENC_NOPE:
		view_cat(b, sizeof b, " seq_len %zu · no positional encoding: order comes "
		    "only from the causal mask", k->n);
		break;
	case PE_ENC_VIT2D:
		view_cat(b, sizeof b, " grid %zu×%zu patches · d_model %zu · MAE 2-D "
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
	"arrows               move the cursor by one (smallest) sample",
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
	"?  Esc  q            this help; close it; quit",
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
