/* Views of the pairwise encodings: relative (T5, Shaw), ALiBi, NoPE. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/alibi.h"
#include "pescope/nope.h"
#include "pescope/relative.h"
#include "pescope/toy.h"

#include "view/view_impl.h"

static void relative_inspect(struct ctx *c);

/* relative's main map and its inspector. */
static void
relative_map(struct ctx *c)
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
	view_map_main(c, &sc, t5 ? "T5 bucket[query ↓, key →]"
			     : "Shaw index[query ↓, key →]", "%.0f", legend);
	relative_inspect(c);
}

/* relative: T5 buckets or Shaw indices over query x key. */
static void
view_relative(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	bool t5 = k->relative == PE_REL_T5;
	double hi = t5 ? (double)k->buckets - 1 : 2.0 * (double)k->max_relative;
	size_t me = t5 ? pe_t5_max_exact(k->bidirectional, k->buckets) : 0;
	relative_map(c);

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
		if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) ==
		    PE_OK) {
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
		/* one short paragraph each, wrapped into the column */
		char l[160];
		size_t nb = k->bidirectional ? k->buckets / 2 : k->buckets;
		snprintf(l, sizeof l, "%s: %zu buckets%s",
		    k->bidirectional ? "bidirectional" : "unidirectional", nb,
		    k->bidirectional ? " per direction" : "");
		y += panel_text(c->cv, x, y, w, h, l, C_TEXT, 0);
		snprintf(l, sizeof l, "buckets 0..%zu: exact distances 0..%zu",
		    me - 1, me - 1);
		y += panel_text(c->cv, x, y, w, c->by + c->bh - y, l, C_DIM, 0);
		snprintf(l, sizeof l, "buckets %zu..%zu: log-spaced up to %zu", me,
		    nb - 1, k->max_distance);
		y += panel_text(c->cv, x, y, w, c->by + c->bh - y, l, C_DIM, 0);
		if (k->bidirectional)
			snprintf(l, sizeof l, "keys after the query: the same, +%zu",
			    nb);
		else
			snprintf(l, sizeof l, "keys after the query: bucket 0");
		y += panel_text(c->cv, x, y, w, c->by + c->bh - y, l, C_DIM, 0);
	}
}

/* relative's inspector: the cursor's bucket or index. */
static void
relative_inspect(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	bool t5 = k->relative == PE_REL_T5;
	size_t me = t5 ? pe_t5_max_exact(k->bidirectional, k->buckets) : 0;
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
	view_map_inspect(c, "query", "key");
}

/* The bias scale of alibi's maps: every head on the steepest head's
 * range (so a shallow head looks as flat as it is), or with own the
 * large head's own range. */
static struct pe_scale
alibi_scale(const struct ctx *c, bool own)
{
	const struct pe_config *k = c->cfg;
	double m = own ? c->mainf.slopes[c->pane->head] : c->mainf.slopes[0];
	for (size_t h = 0; !own && h < k->heads; h++)
		m = c->mainf.slopes[h] > m ? c->mainf.slopes[h] : m;
	double lo = -m * (double)(k->n > 1 ? k->n - 1 : 1);
	return (struct pe_scale){PE_CMAP_SEQUENTIAL, lo, 0, false};
}

/* alibi's main map (the head drawn large) and its inspector. */
static void
alibi_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	double m = c->mainf.slopes[c->pane->head];
	bool own = c->pane->head_own_scale;
	struct pe_scale sc = alibi_scale(c, own);
	char title[96], legend[160];
	snprintf(title, sizeof title, "bias head %zu, slope %.6g (query ↓, key →)",
	    c->pane->head, m);
	snprintf(legend, sizeof legend, "%s%s", k->alibi_mode == PE_ALIBI_CAUSAL
	    ? "masked: later keys · " : "", own
	    ? "scale: this head (o)" : "scale: all heads (o)");
	view_map_main(c, &sc, title, "%.3g", legend);
	size_t i = c->st->cur_r, j = c->st->cur_c;
	double b = pe_alibi_bias(m, i, j, k->alibi_mode) + 0.0; /* no -0 */
	if (isinf(b))
		snprintf(c->insp[0], sizeof c->insp[0], " bias[h%zu][q=%zu, k=%zu] = "
		    "−inf (key after query: masked)", c->pane->head, i, j);
	else if (k->alibi_mode == PE_ALIBI_CAUSAL)
		snprintf(c->insp[0], sizeof c->insp[0], " bias[h%zu][q=%zu, k=%zu] = "
		    "−m·(q − k) = −%.6g·(%zu − %zu) = %.9g", c->pane->head, i,
		    j, m, i, j, b);
	else
		snprintf(c->insp[0], sizeof c->insp[0], " bias[h%zu][q=%zu, k=%zu] = "
		    "−m·|q − k| = −%.6g·%zu = %.9g", c->pane->head, i, j, m,
		    i > j ? i - j : j - i, b);
	view_map_inspect(c, "query", "key");
}

/* Every head's bias for the cursor's query over the keys, a line each
 * (the heads on the half lines of ceil(H/2) lines when H lines do not
 * fit), labelled by head; when even half lines are too few, the run of
 * heads that holds the pane's head, its title saying which of how many. */
static void
alibi_strip(struct ctx *c, int x, int y, int w, int h,
    const struct pe_scale *sc)
{
	const struct pe_config *k = c->cfg;
	size_t H = k->heads, q = c->st->cur_r;
	bool two = (size_t)(h - 1) < H; /* two heads a line */
	size_t lines = two ? (H + 1) / 2 : H, first = 0;
	char t[96], l[48];

	if (lines > (size_t)(h - 1)) { /* the run of heads holding the pane's */
		lines = (size_t)(h - 1);
		first = c->pane->head / (2 * lines) * (2 * lines);
		if (first + 2 * lines > H)
			first = H - 2 * lines;
		first -= first % 2;
	}
	size_t last = two ? first + 2 * lines - 1 : first + lines - 1;
	if (last >= H)
		last = H - 1;
	/* the widest label and a space: "h110/111 ", "h9 " */
	size_t even = last - last % 2; /* the last line's first head */
	int lab = 1 + (two ? snprintf(l, sizeof l, "h%zu/%zu", even, even + 1)
	                   : snprintf(l, sizeof l, "h%zu", last));
	if (first == 0 && last + 1 == H)
		snprintf(t, sizeof t, "heads 0–%zu at query %zu", H - 1, q);
	else
		snprintf(t, sizeof t, "heads %zu–%zu of %zu at query %zu", first,
		    last, H, q);
	pe_canvas_text_fit(c->cv, x, y, w, t, C_TEXT, PE_COLOR_DEFAULT,
	    PE_ATTR_BOLD);
	y++;
	int mw = w - lab;
	if (mw < 2)
		return;
	size_t ns = (size_t)mw < k->n ? (size_t)mw : k->n;
	struct pe_stats *cells = calloc((size_t)mw * 2, sizeof *cells);
	struct pe_stats *row = calloc(ns, sizeof *row);
	if (view_check(c, cells == NULL || row == NULL ? PE_ENOMEM : PE_OK, x, y,
	    w) != PE_OK) {
		free(cells);
		free(row);
		return;
	}
	struct pe_field f = c->mainf;
	for (size_t li = 0; li < lines; li++) {
		size_t h0 = first + (two ? 2 * li : li), h1 = two ? h0 + 1 : h0;
		if (two && h1 < H)
			snprintf(l, sizeof l, "h%zu/%zu", h0, h1);
		else
			snprintf(l, sizeof l, "h%zu", h0);
		bool here = c->pane->head == h0 || (two && c->pane->head == h1);
		pe_canvas_text(c->cv, x, y + (int)li, lab - 1, l, here ? C_ACCENT
		    : C_DIM, PE_COLOR_DEFAULT, here ? PE_ATTR_BOLD : 0);
		for (int half = 0; half < 2; half++) {
			size_t hh = half == 0 ? h0 : h1;
			if (hh >= H) { /* no head: the page */
				for (int i = 0; i < mw; i++)
					cells[(size_t)half * (size_t)mw + (size_t)i] =
					    (struct pe_stats){.mean = NAN};
				continue;
			}
			f.head = hh;
			view_check(c, pe_field_grid(&f, q, q + 1, 1, 0, k->n, ns, row),
			    0, 0, 0);
			for (int i = 0; i < mw; i++)
				cells[(size_t)half * (size_t)mw + (size_t)i] =
				    row[(size_t)i * ns / (size_t)mw];
		}
		pe_draw_heatmap(c->cv, x + lab, y + (int)li, mw, 1, cells, sc);
		if (two && h1 >= H)
			for (int i = 0; i < mw; i++) {
				struct pe_cell *cell = pe_canvas_at(c->cv, x + lab + i,
				    y + (int)li);
				if (cell != NULL && cell->cp == 0x2580)
					cell->bg = PE_COLOR_DEFAULT;
			}
	}
	free(cells);
	free(row);
}

/* alibi: one head large, all heads small, the attention row. */
static void
view_alibi(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	double m = c->mainf.slopes[c->pane->head];
	alibi_map(c);

	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t i = c->st->cur_r;
	/* attention row after softmax over the biased zeros */
	int ha = h >= 20 ? h / 3 : h / 2;
	int pw = w - 7;
	if (pw > 4 && ha >= 4) {
		size_t ns = (size_t)pw * 2 < k->n ? (size_t)pw * 2 : k->n;
		double *ys = calloc(ns, sizeof *ys), top = 0;
		if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) ==
		    PE_OK) {
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
			view_map_mark_plot(c, x, y, w, ha, k->n, ns);
			free(ys);
		}
		y += ha + 1;
		h -= ha + 1;
	}
	/* every head: small maps when they fit, else a strip a line each
	 * (two heads a line when even that does not fit): the bias of the
	 * cursor's query over the keys, on the maps' scale */
	size_t H = k->heads;
	struct pe_scale all = alibi_scale(c, false);
	/* the largest tiles (a map of 8k x 4k cells and its label line) that
	 * hold every head */
	int tw = 10, th = 5, per_row = w / tw;
	for (int z = 4; z >= 1; z--) {
		int kw = 8 * z + 2, kh = 4 * z + 1;
		if (h >= 1 + kh && (size_t)(w / kw) * (size_t)((h - 1) / kh) >= H) {
			tw = kw, th = kh, per_row = w / kw;
			break;
		}
	}
	if (h >= 1 + th && (size_t)per_row * (size_t)((h - 1) / th) >= H) {
		pe_canvas_text_fit(c->cv, x, y, w, "all heads: head:slope, one "
		    "shared scale", C_TEXT, PE_COLOR_DEFAULT, PE_ATTR_BOLD);
		y++;
		struct pe_field f = c->mainf;
		for (size_t hh = 0; hh < H; hh++) {
			int cx = x + (int)(hh % (size_t)per_row) * tw;
			int cy = y + (int)(hh / (size_t)per_row) * th;
			double mh = c->mainf.slopes[hh];
			struct map_spec s;
			struct map_geom g;
			memset(&s, 0, sizeof s);
			f.head = hh;
			s.f = &f;
			s.r0 = 0, s.r1 = k->n, s.c0 = 0, s.c1 = k->n;
			s.scale = all;
			view_check(c, panel_map(c->cv, cx, cy, tw - 2, th - 1, &s, &g),
			    0, 0, 0);
			/* head:slope, the slope in fewer digits rather than cut */
			char l[48], num[32];
			int pre = snprintf(l, sizeof l, "%zu:", hh);
			snprintf(num, sizeof num, "%.3g", mh);
			if (pre + (int)strlen(num) > tw - 1)
				pe_fmt_num(num, sizeof num, tw - 1 - pre, mh);
			view_cat(l, sizeof l, "%s", num);
			pe_canvas_text(c->cv, cx, cy + th - 1, tw - 1, l,
			    hh == c->pane->head ? C_ACCENT : C_DIM,
			    PE_COLOR_DEFAULT,
			    hh == c->pane->head ? PE_ATTR_BOLD : 0);
		}
	} else if (h >= 3) {
		alibi_strip(c, x, y, w, h, &all);
	}
}

/* alibi's recency panel: the attention the last query gives each key from
 * the biases alone, averaged over the heads; what that does and does not
 * explain about "lost in the middle". */
static void
alibi_recency(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	const double *sl = c->mainf.slopes;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t n = k->n, q = n - 1, j = c->st->cur_c;
	char t[200], l[900];

	snprintf(t, sizeof t, "ALiBi's recency: the attention query %zu (the "
	    "last) gives each key from the biases alone, mean of %zu heads", q,
	    k->heads);
	int used = panel_text(c->cv, x, y, w, 2, t, C_TEXT, PE_ATTR_BOLD);
	y += used;
	h -= used;
	/* the plot first: with little room it takes it all, the prose goes */
	int pw = w - 7, hp = h >= 24 ? h / 2 : h >= 14 ? h - 10 : h;
	if (pw > 4 && hp >= 4) {
		size_t ns = (size_t)pw * 2 < n ? (size_t)pw * 2 : n;
		double *ys = calloc(ns, sizeof *ys), top = 0;
		if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) ==
		    PE_OK) {
			for (size_t s = 0; s < ns; s++) {
				size_t j0, j1;
				pe_field_span(0, n, ns, s, &j0, &j1);
				ys[s] = pe_alibi_recency(sl, k->heads, k->alibi_mode, q, n,
				    j0, j1);
				if (ys[s] > top)
					top = ys[s];
			}
			char xhi[40];
			snprintf(xhi, sizeof xhi, "%zu (the query)", q);
			panel_plot(c->cv, x, y, w, hp, "mean softmax of −m_h·(q − k) "
			    "over heads, by key", ys, ns, 0, top > 0 ? top : 1, "key 0",
			    xhi, (long)panel_sample_of(0, n, ns, j));
			view_map_mark_plot(c, x, y, w, hp, n, ns);
			free(ys);
		}
		y += hp + 1;
		h -= hp + 1;
	}
	size_t L = view_map_train_len(c);
	snprintf(l, sizeof l, "Recency: every head favours near keys, so the "
	    "mean falls from the query back to the start. That explains why the "
	    "end of a long text is used well, not the U of \"lost in the "
	    "middle\": its start is used well too, and no ALiBi bias favours "
	    "the start (that takes content, such as attention sinks).");
	if (L > 0)
		view_cat(l, sizeof l, " Past train_len %zu the bias simply "
		    "continues: −m·(q − k) has no length in it (the claim: trained "
		    "on 1024 tokens, coherent at 2048).", L);
	if (h > 0)
		panel_text(c->cv, x, y, w, h, l, C_DIM, 0);

	double v = pe_alibi_recency(sl, k->heads, k->alibi_mode, q, n, j, j + 1);
	snprintf(c->panel_insp, sizeof c->panel_insp, " recency[q=%zu, k=%zu] = "
	    "(1/%zu)·Σ_h e^{−m_h·%s}/Σ_k e^{−m_h·%s} = %.9g", q, j, k->heads,
	    k->alibi_mode == PE_ALIBI_CAUSAL ? "(q − k)" : "|q − k|",
	    k->alibi_mode == PE_ALIBI_CAUSAL ? "(q − k)" : "|q − k|", v);
}

/* nope's main map (the mask) and its inspector. */
static void
nope_map(struct ctx *c)
{
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, -1, 0, false};
	struct pe_attn t;
	char title[96], why[64];

	/* the mask field's shape: causal, and the layer's window or chunks */
	pe_config_attn(c->cfg, &t);
	t.causal = true;
	if (t.span == PE_SPAN_SLIDING)
		snprintf(title, sizeof title, "causal mask, window %zu [query ↓, "
		    "key →]", t.window);
	else if (t.span == PE_SPAN_CHUNKED)
		snprintf(title, sizeof title, "causal mask, chunks of %zu [query "
		    "↓, key →]", t.chunk);
	else
		snprintf(title, sizeof title, "causal mask[query ↓, key →]");
	/* no color bar: the mask holds 0 and −∞ only (the legend) */
	view_map_main(c, &sc, title, NULL, t.span == PE_SPAN_FULL
	    ? "visible iff key ≤ query"
	    : t.span == PE_SPAN_SLIDING
	    ? "masked (−inf): key after query or out of the window; 0: seen"
	    : "masked (−inf): key after query or in another chunk; 0: seen");
	size_t i = c->st->cur_r, j = c->st->cur_c;
	if (j > i)
		snprintf(why, sizeof why, "key after query: masked");
	else if (!pe_attn_sees(&t, i, j))
		snprintf(why, sizeof why, "%s", t.span == PE_SPAN_SLIDING
		    ? "before the window: masked" : "an earlier chunk: masked");
	else
		snprintf(why, sizeof why, "key at or before query: visible");
	snprintf(c->insp[0], sizeof c->insp[0], " mask[q=%zu, k=%zu] = %s (%s)",
	    i, j, pe_attn_sees(&t, i, j) ? "0" : "−inf", why);
	view_map_inspect(c, "query", "key");
}

/* nope: the causal mask, and dot products that say nothing. */
static void
view_nope(struct ctx *c)
{
	nope_map(c);
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	int hd = h >= 16 ? h / 2 : h;
	view_map_dot(c, x, y, w, hd, c->st->cur_r, "positional score of query to key");
	if (h - hd - 1 >= 4)
		panel_text(c->cv, x, y + hd + 1, w, h - hd - 1, "No position "
		    "vectors: the positional part of every query-key score is 0, so "
		    "every key looks alike to attention. Order enters only through "
		    "the mask: key j is visible to query i iff j ≤ i.", C_DIM, 0);
}

/* H(b) - H(a) = sum_{k=a+1}^{b} 1/k: summed while short or below 64,
 * the rest from H(m) = ln m + γ + 1/(2m) - 1/(12m²) + 1/(120m⁴) - ...
 * (the error is below 1/(252 m⁶), under 1e-13 from m = 64 on). */
static double
harmonic_diff(size_t a, size_t b)
{
	double s = 0;
	for (; a < b && (a < 64 || b - a <= 256); a++)
		s += 1.0 / (double)(a + 1);
	if (a < b) {
		double ma = (double)a, mb = (double)b;
		s += log(mb / ma) + 1 / (2 * mb) - 1 / (2 * ma) -
		    1 / (12 * mb * mb) + 1 / (12 * ma * ma) +
		    1 / (120 * mb * mb * mb * mb) - 1 / (120 * ma * ma * ma * ma);
	}
	return s;
}

/* nope's share panel: the start token's share 1/(i+1) of a uniform causal
 * average, by query. */
static void
nope_share(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t n = k->n, i = c->st->cur_r;
	char l[700];

	int used = panel_text(c->cv, x, y, w, 2, "the order a causal mask leaks: "
	    "the start token's share 1/(i+1)", C_TEXT, PE_ATTR_BOLD);
	y += used;
	h -= used;
	/* the queries that see key 0: all, or those before the window has
	 * moved past it or chunk 0 has ended */
	struct pe_attn t;
	pe_config_attn(k, &t);
	size_t S = t.span == PE_SPAN_SLIDING ? t.window
	    : t.span == PE_SPAN_CHUNKED ? t.chunk : n;
	if (S > n)
		S = n;
	/* the plot first: with little room it takes it all, the prose goes */
	int pw = w - 7, hp = h >= 24 ? h / 2 : h >= 13 ? h - 9 : h;
	if (pw > 4 && hp >= 4) {
		size_t ns = (size_t)pw * 2 < n ? (size_t)pw * 2 : n;
		double *ys = calloc(ns, sizeof *ys);
		if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) ==
		    PE_OK) {
			for (size_t s = 0; s < ns; s++) { /* block means */
				size_t a, b;
				pe_field_span(0, n, ns, s, &a, &b);
				ys[s] = a < S ? harmonic_diff(a, b < S ? b : S) /
				    (double)(b - a) : 0.0;
			}
			char xhi[32];
			snprintf(xhi, sizeof xhi, "%zu", n - 1);
			panel_plot(c->cv, x, y, w, hp, "1/(i+1) by query i", ys, ns, 0,
			    1, "query 0", xhi, (long)panel_sample_of(0, n, ns, i));
			view_map_mark_plot(c, x, y, w, hp, n, ns);
			free(ys);
		}
		y += hp + 1;
		h -= hp + 1;
	}
	size_t L = view_map_train_len(c);
	snprintf(l, sizeof l, "No position vectors, yet order leaks: a query that "
	    "attends uniformly to the keys it may see (j ≤ i) averages i + 1 "
	    "values, so the first token's share falls as 1/(i+1) and the output "
	    "tells the position (Kazemnejad et al. 2023, Theorem 1).");
	if (L > 0)
		view_cat(l, sizeof l, " Past train_len %zu the shares are smaller "
		    "than any seen in training (1/(L+1) = %.3g).", L,
		    pe_nope_start_share(L));
	if (S < n)
		view_cat(l, sizeof l, " With %s of %zu the first token is out of "
		    "sight from query %zu on: its share is 0 there.",
		    t.span == PE_SPAN_SLIDING ? "a window" : "chunks", S, S);
	if (h > 0)
		panel_text(c->cv, x, y, w, h, l, C_DIM, 0);
	if (i >= S)
		snprintf(c->panel_insp, sizeof c->panel_insp, " share(i = %zu) = 0: "
		    "key 0 is hidden from query %zu (%s of %zu)", i, i,
		    t.span == PE_SPAN_SLIDING ? "a window" : "chunks", S);
	else
		snprintf(c->panel_insp, sizeof c->panel_insp, " share(i = %zu) = "
		    "1/(i + 1) = 1/%zu = %.9g", i, i + 1, pe_nope_start_share(i));
}

/* ---- rows ------------------------------------------------------------- */

static void
relative_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	if (k->relative == PE_REL_T5) {
		view_item(it, 0, "t5 buckets %zu", k->buckets);
		view_item(it, 1, "max_distance %zu", k->max_distance);
		view_item(it, 1, "%s", k->bidirectional ? "bidirectional"
							: "unidirectional");
		view_item(it, 0, "seq_len %zu", k->n);
		view_item(it, 2, "rel = key − query");
	} else {
		view_item(it, 0, "shaw K %zu", k->max_relative);
		view_item(it, 0, "seq_len %zu", k->n);
		view_item(it, 2, "index = clip(key − query, −K, K) + K");
	}
}

/* t: t5 <-> shaw. */
static int
relative_kind(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	(void)key;
	c.relative = c.relative == PE_REL_T5 ? PE_REL_SHAW : PE_REL_T5;
	return pe_state_apply(st, &c);
}

/* u: t5's direction. */
static int
relative_direction(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	(void)key;
	if (c.relative != PE_REL_T5) {
		pe_state_status(st, "'u': only t5 buckets have a direction; t "
		    "switches to t5");
		return PE_ACT_REDRAW;
	}
	c.bidirectional = !c.bidirectional;
	return pe_state_apply(st, &c);
}

/* k/K: t5 buckets -/+ 2, or shaw's K -/+ 1. */
static int
relative_buckets(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	if (c.relative == PE_REL_T5)
		c.buckets = key == 'k' ? c.buckets - 2 : c.buckets + 2;
	else
		c.max_relative = key == 'k' ? c.max_relative - 1
					    : c.max_relative + 1;
	return pe_state_apply(st, &c);
}

/* m/M: t5's max_distance halved, doubled. */
static int
relative_distance(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	if (c.relative != PE_REL_T5) {
		pe_state_status(st, "'%c': max_distance belongs to t5 buckets; t "
		    "switches to t5", key);
		return PE_ACT_REDRAW;
	}
	c.max_distance = key == 'm' ? c.max_distance / 2 : c.max_distance * 2;
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key relative_keys[] = {
	{"t", "t", "t5/shaw", relative_kind},
	{"kK", "k/K", "buckets/K", relative_buckets},
	{"mM", "m/M", "max_dist", relative_distance},
	{"u", "u", "direction", relative_direction},
	PE_SHARED_SEQ_LEN,
	PE_KEYS_END,
};

/* T5's keys act on T5 buckets alone (relative_distance and
 * relative_direction refuse the others). */
static bool
relative_key_acts(const struct pe_config *cfg, const struct pe_enc_key *k)
{
	return cfg->relative == PE_REL_T5 || (k->press != relative_distance &&
	    k->press != relative_direction);
}

static const struct pe_enc_panel relative_panels[] = {
	{PE_PANEL_ATTENTION, view_toy_panel, view_toy_width},
	{PE_PANEL_OVERVIEW, NULL, NULL},
};

const struct pe_enc_view view_relative_row = {
	.main = PE_FIELD_RELATIVE,
	.params = relative_params,
	.draw = view_relative,
	.keys = relative_keys,
	.key_acts = relative_key_acts,
	.panels = relative_panels,
	.map = relative_map,
};

static void
alibi_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	view_item(it, 0, "heads %zu", k->heads);
	view_item(it, 0, "seq_len %zu", k->n);
	view_item(it, 1, "mode %s", k->alibi_mode == PE_ALIBI_CAUSAL ? "causal"
								    : "symmetric");
	view_item(it, 0, "head %zu large (slope %.6g)", c->mainf.head,
	    c->mainf.slopes[c->mainf.head]);
	view_item(it, 2, "bias = %s", k->alibi_mode == PE_ALIBI_CAUSAL
	    ? "−m·(query − key)" : "−m·|query − key|");
}

/* h/H: one head fewer, one more. */
static int
alibi_heads(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	c.heads = key == 'h' ? c.heads - 1 : c.heads + 1;
	return pe_state_apply(st, &c);
}

/* </>: the head drawn large. */
static int
alibi_head(struct pe_state *st, int key)
{
	struct pe_pane *p = &st->pane[st->focus];

	if (key == '<' ? p->head == 0 : p->head + 1 >= p->cfg.heads) {
		pe_state_status(st, "head %zu is the %s of %zu", p->head,
		    key == '<' ? "first" : "last", p->cfg.heads);
		return PE_ACT_REDRAW;
	}
	p->head = key == '<' ? p->head - 1 : p->head + 1;
	return PE_ACT_REDRAW;
}

/* o: the large head on the scale every head shares, or on its own. */
static int
alibi_own_scale(struct pe_state *st, int key)
{
	struct pe_pane *p = &st->pane[st->focus];
	(void)key;
	p->head_own_scale = !p->head_own_scale;
	pe_state_status(st, p->head_own_scale ? "head %zu on its own scale (o: "
	    "one scale for all heads)" : "one scale for all heads: a shallow "
	    "head looks as flat as it is (o: head %zu's own)", p->head);
	return PE_ACT_REDRAW;
}

/* a: causal <-> symmetric. */
static int
alibi_mode(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	(void)key;
	c.alibi_mode = c.alibi_mode == PE_ALIBI_CAUSAL ? PE_ALIBI_SYMMETRIC
						       : PE_ALIBI_CAUSAL;
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key alibi_keys[] = {
	{"hH", "h/H", "heads", alibi_heads},
	{"<>", "</>", "head", alibi_head},
	{"a", "a", "mode", alibi_mode},
	{"o", "o", "own scale", alibi_own_scale},
	PE_SHARED_SEQ_LEN,
	PE_KEYS_END,
};

static const struct pe_enc_panel alibi_panels[] = {
	{PE_PANEL_ATTENTION, view_toy_panel, view_toy_width},
	{PE_PANEL_RECENCY, alibi_recency, NULL},
	{PE_PANEL_OVERVIEW, NULL, NULL},
};

const struct pe_enc_view view_alibi_row = {
	.main = PE_FIELD_BIAS,
	.params = alibi_params,
	.draw = view_alibi,
	.keys = alibi_keys,
	.panels = alibi_panels,
	.map = alibi_map,
};

static void
nope_params(struct ctx *c, struct items *it)
{
	view_item(it, 0, "seq_len %zu", c->cfg->n);
	view_attn_params(c, it);
	/* the toy attention may be shown without its mask (/, --mask
	 * none): then nothing gives it the order */
	if (pe_toy_causal(c->cfg))
		view_item(it, 2, "no positional encoding: order comes only from "
		    "the causal mask");
	else
		view_item(it, 2, "no positional encoding; unmasked, the toy "
		    "attention sees no order");
}

static const struct pe_enc_key nope_keys[] = {
	PE_SHARED_SEQ_LEN,
	{"o", "o", "span", view_attn_span_key},
	{"kK", "k/K", "span size", view_attn_size_key},
	{"t", "t", "temperature", view_attn_temperature_key},
	{"<>", "</>", "sink head", view_attn_head_key},
	PE_KEYS_END,
};

static const struct pe_enc_panel nope_panels[] = {
	{PE_PANEL_ATTENTION, view_toy_panel, view_toy_width},
	{PE_PANEL_SHARE, nope_share, NULL},
	{PE_PANEL_MASK, view_attn_mask, NULL},
	{PE_PANEL_SINKS, view_attn_sinks, NULL},
	{PE_PANEL_TEMPERATURE, view_attn_temperature, NULL},
	{PE_PANEL_OVERVIEW, NULL, NULL},
};

const struct pe_enc_view view_nope_row = {
	.main = PE_FIELD_MASK,
	.params = nope_params,
	.draw = view_nope,
	.keys = nope_keys,
	.panels = nope_panels,
	.map = nope_map,
};
