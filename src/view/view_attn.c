/* The panels of a layer's attention shape (pescope/attn.h), for the
 * encodings whose rows read it: the mask (a sliding window beside chunks
 * of the same size, at a chunk boundary), GPT-OSS's sinks beside the share
 * NoPE's causal mask gives the first token, Llama 4's query temperature
 * against position, and a score split into the parts of a decoupled head
 * (DeepSeek's MLA). Every number comes from the kernel: pe_attn_sees and
 * pe_attn_seen, the toy attention (toy.h), pe_attn_temperature and
 * pe_attn_scale. And the keys that change the shape. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/attn.h"
#include "pescope/encoding.h"
#include "pescope/rope.h"
#include "pescope/toy.h"

#include "view/view_impl.h"

/* ---- the mask ---------------------------------------------------------- */

/* A mask over absolute positions as a map source: block i, j holds the
 * pairs pe_attn_seen_rect counts (0 each), the rest masked. */
static int
mask_grid(const void *arg, size_t r0, size_t r1, size_t nr, size_t c0,
    size_t c1, size_t nc, struct pe_stats *dest)
{
	const struct pe_attn *t = arg;
	for (size_t i = 0; i < nr; i++) {
		size_t a0, a1;
		pe_field_span(r0, r1, nr, i, &a0, &a1);
		for (size_t j = 0; j < nc; j++) {
			size_t b0, b1;
			struct pe_stats *s = &dest[i * nc + j];
			pe_field_span(c0, c1, nc, j, &b0, &b1);
			memset(s, 0, sizeof *s);
			s->count = (uint64_t)(a1 - a0) * (uint64_t)(b1 - b0);
			uint64_t seen = pe_attn_seen_rect(t, a0, a1, b0, b1);
			s->masked = s->count - seen;
			s->mean = seen > 0 ? 0.0 : NAN;
			s->resultant = 1;
			s->min = s->max = NAN;
		}
	}
	return PE_OK;
}

/* One element: 0 seen, -inf hidden. */
static double
mask_value(const void *arg, size_t r, size_t c)
{
	return pe_attn_sees(arg, r, c) ? 0.0 : -INFINITY;
}

/* A mask map of positions [p0, p1) with its title. */
static int
mask_map(struct ctx *c, int x, int y, int w, int h, const struct pe_attn *t,
    size_t p0, size_t p1, const char *title)
{
	struct map_spec s;
	struct map_geom g;

	memset(&s, 0, sizeof s);
	s.src = (struct map_source){t, mask_grid, mask_value};
	s.r0 = p0, s.r1 = p1, s.c0 = p0, s.c1 = p1;
	s.scale = (struct pe_scale){PE_CMAP_SEQUENTIAL, -1, 0, false};
	s.title = title;
	s.fmt = "%.2g";
	s.axes = true;
	s.legend = "hidden (−inf)";
	s.swatch = PE_CELL_MASKED;
	s.values = c->st->values;
	return view_check(c, panel_map(c->cv, x, y, w, h, &s, &g), x, y, w);
}

/* The span's size, and the shapes of a window and of chunks of that size
 * (the layer's and the other, for comparison), causal as the layer. */
static size_t
mask_pair(const struct pe_config *cfg, struct pe_attn *layer,
    struct pe_attn *win, struct pe_attn *chk)
{
	pe_config_attn(cfg, layer);
	size_t s = layer->span == PE_SPAN_SLIDING ? layer->window
	    : layer->span == PE_SPAN_CHUNKED ? layer->chunk : 0;
	*win = *chk = *layer;
	win->span = PE_SPAN_SLIDING;
	win->window = s;
	chk->span = PE_SPAN_CHUNKED;
	chk->chunk = s;
	return s;
}

/* The mask panel: the layer's window or chunks beside the other of the
 * same size, around the first chunk boundary. */
void
view_attn_mask(struct ctx *c)
{
	const struct pe_config *cfg = c->cfg;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	struct pe_attn t, win, chk;
	size_t n = pe_config_positions(cfg), S = mask_pair(cfg, &t, &win, &chk);
	char l[900];

	y += panel_text(c->cv, x, y, w, 2, "attention mask (0 seen, −inf "
	    "hidden), as transformers' masking_utils adds it", C_TEXT,
	    PE_ATTR_BOLD);
	h = c->by + c->bh - y;
	if (S == 0) {
		size_t L = n < 16 ? n : 16;
		int mh = h >= 24 ? 20 : h - 4;
		if (mh >= 6)
			mask_map(c, x, y, w < 40 ? w : 40, mh, &t, 0, L,
			    t.causal ? "full causal: k ≤ q" : "full: every key");
		if (h - mh - 1 >= 2)
			panel_text(c->cv, x, y + mh + 1, w, h - mh - 1, "Full "
			    "attention: every query sees every earlier key. A "
			    "sliding window (--window W, Mistral, Gemma, GPT-OSS) "
			    "or chunks (--chunk C, Llama 4) limit it; o cycles "
			    "them here, k/K sets the size.", C_DIM, 0);
		snprintf(c->panel_insp, sizeof c->panel_insp, " mask: full%s "
		    "attention over %zu positions (no window, no chunks)",
		    t.causal ? " causal" : "", n);
		return;
	}
	/* positions around the first chunk boundary B = S */
	size_t B = S, L = n < 16 ? n : 16;
	size_t p0 = B > L / 2 ? B - L / 2 : 0;
	if (p0 + L > n)
		p0 = n - L;
	bool sliding = t.span == PE_SPAN_SLIDING;
	int mw = (w - 2) / 2, mh = h - 7 < (int)L + 4 ? h - 7 : (int)L + 4;
	if (mh >= 6) {
		char a[200], b[200];
		snprintf(a, sizeof a, "window %zu%s", S, sliding ? " ◂ layer" : "");
		snprintf(b, sizeof b, "chunks of %zu%s", S, sliding ? ""
		    : " ◂ layer");
		mask_map(c, x, y, mw, mh, &win, p0, p0 + L, a);
		mask_map(c, x + mw + 2, y, w - mw - 2, mh, &chk, p0, p0 + L, b);
		y += mh + 1;
		h -= mh + 1;
	}
	/* the boundary in numbers */
	size_t q1 = B < n ? B : n - 1, q0 = q1 > 0 ? q1 - 1 : 0;
	snprintf(l, sizeof l, "Window: k > q − %zu (sliding_window_overlay); "
	    "chunks: q // %zu = k // %zu (chunked_overlay). At the boundary: "
	    "query %zu (the last of chunk 0) "
	    "sees %zu keys in the window and %zu in its chunk; query %zu (the "
	    "first of chunk 1) sees %zu in the window (%zu … %zu) but %zu in its "
	    "chunk. A window slides with the query; chunks start over, so a "
	    "chunk's first query sees only itself.", S, S, S, q0,
	    pe_attn_seen(&win, q0, 0, n), pe_attn_seen(&chk, q0, 0, n), q1,
	    pe_attn_seen(&win, q1, 0, n), q1 >= S - 1 ? q1 - (S - 1) : 0, q1,
	    pe_attn_seen(&chk, q1, 0, n));
	if (!t.causal)
		snprintf(l, sizeof l, "Not causal: the window is |q − k| ≤ %zu "
		    "(sliding_window_bidirectional_overlay), so query %zu sees %zu "
		    "keys; its chunk %zu.", S, q1, pe_attn_seen(&win, q1, 0, n),
		    pe_attn_seen(&chk, q1, 0, n));
	if (S >= n)
		view_cat(l, sizeof l, " Here seq_len %zu ≤ %zu: one chunk, and the "
		    "window sees every earlier key.", n, S);
	if (h >= 2)
		h -= panel_text(c->cv, x, y, w, h, l, C_TEXT, 0) + 1;
	if (h >= 2 && t.span == PE_SPAN_CHUNKED)
		panel_text(c->cv, x, y + (c->by + c->bh - y - h), w, h,
		    "Llama 4 chunks its RoPE layers (attention_chunk_size 8192) "
		    "and lets its NoPE layers, every fourth, see the whole "
		    "context.", C_DIM, 0);
	size_t qi = c->st->cur_r < n ? c->st->cur_r : n - 1;
	size_t seen = pe_attn_seen(&t, qi, 0, n);
	snprintf(c->panel_insp, sizeof c->panel_insp, " query %zu sees %zu "
	    "key%s here (%s %zu%s); a window of %zu: %zu, chunks of %zu: %zu",
	    qi, seen, seen == 1 ? "" : "s", sliding ? "window" : "chunks", S,
	    t.causal ? ", causal" : "", S, pe_attn_seen(&win, qi, 0, n), S,
	    pe_attn_seen(&chk, qi, 0, n));
}

/* ---- the toy attention's sentence, shared by the panels below ---------- */

/* The sentence, its words as labels, and the toy's shape. */
struct toy_words {
	struct pe_toy_sentence s;
	char word[PE_TOY_MAX_TOKENS][24];
	const char *label[PE_TOY_MAX_TOKENS];
};

/* Split the config's sentence; PE_OK or why into why[cap]. */
static int
toy_words(const struct pe_config *cfg, size_t head, struct toy_words *tw,
    char *why, size_t cap)
{
	int rc = pe_toy_split(cfg->teach.tokens, &tw->s);

	if (rc != PE_OK) {
		snprintf(why, cap, "the toy sentence is not usable (%s)",
		    pe_strerror(rc));
		return rc;
	}
	for (size_t i = 0; i < tw->s.count; i++) {
		size_t k = tw->s.len[i] < sizeof tw->word[i] ? tw->s.len[i] : 0;
		memcpy(tw->word[i], tw->s.word[i], k);
		tw->word[i][k] = '\0';
		tw->label[i] = tw->word[i];
	}
	return pe_toy_check(cfg, &tw->s, head, why, cap);
}

/* Say in the panel why it is not drawn. */
static void
attn_refused(struct ctx *c, const char *title, const char *why)
{
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;

	pe_canvas_text_fit(c->cv, x, y, w, title, C_TEXT, PE_COLOR_DEFAULT,
	    PE_ATTR_BOLD);
	panel_text(c->cv, x, y + 1, w, h - 1, why, C_WARN, 0);
	snprintf(c->panel_insp, sizeof c->panel_insp, " %s: not defined here: "
	    "%s", title, why);
}

/* ---- sinks -------------------------------------------------------------- */

/* The sinks panel: each query's share to the head's sink beside the first
 * token's, and beside NoPE's uniform 1/(i+1). */
void
view_attn_sinks(struct ctx *c)
{
	const struct pe_config *cfg = c->cfg;
	int x = c->rx, y = c->by, w = c->rw;
	struct pe_attn t;
	struct toy_words tw;
	char why[400], l[1200];
	size_t head = c->pane->head;

	pe_toy_attn(cfg, &t);
	if (t.sinks == NULL) {
		y += panel_text(c->cv, x, y, w, 2, "attention sinks: none in this "
		    "layer", C_TEXT, PE_ATTR_BOLD);
		panel_text(c->cv, x, y, w, c->by + c->bh - y, "GPT-OSS gives each "
		    "head a learned sink logit: the softmax runs over the scores "
		    "and the sink, and the sink's column is dropped, so a query "
		    "may give part of its attention to nothing. --sinks LIST (one "
		    "logit a head, or @FILE) adds them here; config.json holds no "
		    "weights, so pescope has no trained values.", C_DIM, 0);
		snprintf(c->panel_insp, sizeof c->panel_insp, " sinks: none "
		    "(--sinks LIST gives one logit a head)");
		return;
	}
	if (head >= t.n_sinks)
		head = t.n_sinks - 1;
	if (toy_words(cfg, head, &tw, why, sizeof why) != PE_OK) {
		attn_refused(c, "attention sinks", why);
		return;
	}
	size_t T = tw.s.count;
	double share[PE_TOY_MAX_TOKENS], a[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS];
	int rc = pe_toy_sink_share(cfg, &tw.s, head, share);
	if (rc == PE_OK)
		rc = pe_toy_attention(cfg, &tw.s, head, a);
	if (view_check(c, rc, x, y, w) != PE_OK)
		return;
	/* always causal: a layer with sinks is GPT-OSS's (pe_config_attn) */
	snprintf(l, sizeof l, "attention sinks (causal): head %zu of %zu, "
	    "sink logit %.4g (GPT-OSS's eager_attention_forward)", head,
	    t.n_sinks, t.sinks[head]);
	y += panel_text(c->cv, x, y, w, 2, l, C_TEXT, PE_ATTR_BOLD);
	/* the table: a row per query while they fit */
	char hd[160];
	bool wide = w >= 46;
	if (wide)
		snprintf(hd, sizeof hd, "%-4s%-10s %8s %9s %9s", "q", "token",
		    "to sink", "to first", "1/(i+1)");
	else
		snprintf(hd, sizeof hd, "%-3s%7s%7s%8s", "q", "sink", "first",
		    "1/(i+1)");
	pe_canvas_text_fit(c->cv, x, y++, w, hd, C_DIM, PE_COLOR_DEFAULT, 0);
	int rows = c->by + c->bh - y - 6;
	size_t shown = T < (size_t)(rows > 0 ? rows : 0) ? T
	    : (size_t)(rows > 0 ? rows : 0);
	for (size_t i = 0; i < shown; i++) {
		if (wide)
			snprintf(l, sizeof l, "%-4zu%-10.10s %8.4f %9.4f %9.4f", i,
			    tw.label[i], share[i], a[i * T], 1.0 / (double)(i + 1));
		else
			snprintf(l, sizeof l, "%-3zu%7.4f%7.4f%8.4f", i, share[i],
			    a[i * T], 1.0 / (double)(i + 1));
		pe_canvas_text_fit(c->cv, x, y++, w, l, C_TEXT, PE_COLOR_DEFAULT,
		    0);
	}
	if (shown < T)
		pe_canvas_text_fit(c->cv, x, y++, w, "…", C_DIM,
		    PE_COLOR_DEFAULT, 0);
	y++;
	size_t last = T - 1;
	double rest = 1.0 - share[last];
	snprintf(l, sizeof l, "What a sink is for: query %zu (\"%s\") gives "
	    "%.1f%% of its attention to the sink, which has no value, and %.1f%% "
	    "to its %zu keys (each row sums to 1 − the sink's share). Without a "
	    "sink a softmax must spend all of it on real keys; StreamingLLM "
	    "(Xiao et al. 2023) found models park it on the first token, which "
	    "under the causal mask gets 1/(i+1) = %.3f of a uniform average "
	    "anyway. These sink logits are the ones given (--sinks), not "
	    "GPT-OSS's trained ones.", last, tw.label[last], 100 * share[last],
	    100 * rest, pe_attn_seen(&t, last, 0, T), 1.0 / (double)T);
	if (y < c->by + c->bh)
		panel_text(c->cv, x, y, w, c->by + c->bh - y, l, C_TEXT, 0);
	size_t qi = c->st->cur_r < T ? c->st->cur_r : last;
	snprintf(c->panel_insp, sizeof c->panel_insp, " query %zu: sink share "
	    "e^z / (e^z + Σ_j e^score) = %.6g with z = %.6g; first token %.6g; "
	    "the row's keys %.6g", qi, share[qi], t.sinks[head], a[qi * T],
	    1.0 - share[qi]);
}

/* ---- temperature -------------------------------------------------------- */

/* The mean temperature over positions [a, b): its floor steps, whole. */
static double
temperature_mean(const struct pe_attn *t, size_t a, size_t b)
{
	double F = t->floor_scale, s = 0.0;

	for (size_t p = a; p < b;) {
		/* the step holding p ends where floor((p+1)/F) changes */
		double k = floor(((double)p + 1.0) / F);
		double next = (k + 1.0) * F - 1.0; /* first p of the next step */
		size_t e = next < (double)b ? (size_t)next : b;
		if (e <= p)
			e = p + 1;
		s += pe_attn_temperature(t, p) * (double)(e - p);
		p = e;
	}
	return s / (double)(b - a);
}

/* The temperature panel: Llama 4's query scale by position. */
void
view_attn_temperature(struct ctx *c)
{
	const struct pe_config *cfg = c->cfg;
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	struct pe_attn t;
	size_t n = cfg->n;
	char l[900];

	pe_config_attn(cfg, &t);
	bool on = t.temperature;
	if (!on) { /* Llama 4's constants, said to be only a reference */
		t.temperature = true;
		t.floor_scale = PE_ATTN_FLOOR_SCALE;
		t.attn_scale = PE_ATTN_ATTN_SCALE;
	}
	snprintf(l, sizeof l, "Llama 4's attention temperature: queries × "
	    "log(⌊(p+1)/%g⌋+1)·%g + 1%s", t.floor_scale, t.attn_scale,
	    on ? "" : " (off here: Llama 4's values shown)");
	y += panel_text(c->cv, x, y, w, 2, l, C_TEXT, PE_ATTR_BOLD);
	h = c->by + c->bh - y;
	int pw = w - 7, hp = h >= 24 ? h / 2 : h >= 13 ? h - 8 : h;
	size_t i = c->st->cur_r < n ? c->st->cur_r : n - 1;
	if (pw > 4 && hp >= 4) {
		size_t ns = (size_t)pw * 2 < n ? (size_t)pw * 2 : n;
		double *ys = calloc(ns, sizeof *ys), hi = 1.0;
		if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) ==
		    PE_OK) {
			for (size_t s = 0; s < ns; s++) {
				size_t a, b;
				pe_field_span(0, n, ns, s, &a, &b);
				ys[s] = temperature_mean(&t, a, b);
				if (ys[s] > hi)
					hi = ys[s];
			}
			char xhi[32], tt[96];
			snprintf(xhi, sizeof xhi, "%zu", n - 1);
			snprintf(tt, sizeof tt, "scale by position p (block means)");
			double lo = 1.0;
			if (t.attn_scale < 0)
				panel_range(ys, ns, &lo, &hi);
			panel_plot(c->cv, x, y, w, hp, tt, ys, ns, lo,
			    hi > lo ? hi : lo + 1, "0", xhi,
			    (long)panel_sample_of(0, n, ns, i));
			view_map_mark_plot(c, x, y, w, hp, n, ns);
		}
		free(ys);
		y += hp + 1;
		h -= hp + 1;
	}
	/* the steps in numbers */
	double F = t.floor_scale;
	snprintf(l, sizeof l, "The scale steps at p + 1 = k·%g: 1 up to p = %.0f, "
	    "%.6g from p = %.0f, %.6g from p = %.0f; %.6g at p = %zu.", F,
	    F - 2, pe_attn_temperature(&t, (size_t)(F - 1)), F - 1,
	    pe_attn_temperature(&t, (size_t)(2 * F - 1)), 2 * F - 1,
	    pe_attn_temperature(&t, n - 1), n - 1);
	view_cat(l, sizeof l, " %s", on
	    ? "Only the layers without RoPE scale their queries "
	      "(modeling_llama4.py: attn_temperature_tuning and not use_rope): "
	      "far from every key, their softmax would flatten as the context "
	      "grows, and the scale sharpens it again (Nakanishi 2025)."
	    : "--temperature turns it on for this NoPE layer, as "
	      "--config llama-4-scout's NoPE layers have it.");
	if (h >= 2)
		panel_text(c->cv, x, y, w, h, l, C_TEXT, 0);
	snprintf(c->panel_insp, sizeof c->panel_insp, " p = %zu: log1p(floor("
	    "(%zu + 1) / %g)) · %g + 1 = log(%.0f + 1) · %g + 1 = %.9g%s", i, i, F,
	    t.attn_scale, floor(((double)i + 1.0) / F), t.attn_scale,
	    pe_attn_temperature(&t, i), on ? "" : " (if it were on)");
}

/* ---- the score split ---------------------------------------------------- */

/* The split panel: each key's score for one query as content + position,
 * rounded so the numbers add up. */
void
view_attn_split(struct ctx *c)
{
	const struct pe_config *cfg = c->cfg;
	int x = c->rx, y = c->by, w = c->rw;
	struct toy_words tw;
	char why[400], l[1200];
	size_t off = pe_rope_rotary_offset(cfg), rot = pe_rope_rotary_dim(cfg);
	double mscale;
	double scale = pe_attn_scale(cfg, &mscale);

	if (toy_words(cfg, 0, &tw, why, sizeof why) != PE_OK) {
		attn_refused(c, "score = content + position", why);
		return;
	}
	size_t T = tw.s.count, d = cfg->d;
	if (cfg->attn.qk_rope_dim > 0)
		snprintf(l, sizeof l, "score = content + position: a decoupled "
		    "head (DeepSeek's MLA), dims 0–%zu content (q_nope), %zu–%zu "
		    "rotate (q_pe)", off - 1, off, d - 1);
	else if (rot < d)
		snprintf(l, sizeof l, "score = position + content: dims 0–%zu "
		    "rotate, %zu–%zu pass through (partial rotary)", rot - 1,
		    rot, d - 1);
	else
		snprintf(l, sizeof l, "score = position: every one of the %zu "
		    "dims rotates", d);
	y += panel_text(c->cv, x, y, w, 3, l, C_TEXT, PE_ATTR_BOLD);
	if (rot >= d) {
		panel_text(c->cv, x, y, w, c->by + c->bh - y, "With every "
		    "dimension rotated, position and content are one product: "
		    "no part of the score ignores position. DeepSeek-V2 and V3 "
		    "keep a content part apart: --rope-dim R --nope-dim N "
		    "(theirs: 64 + 128 = 192; --config deepseek-v3), or u/U "
		    "here.", C_DIM, 0);
		snprintf(c->panel_insp, sizeof c->panel_insp, " split: all %zu "
		    "dims rotate (no content part)", d);
		return;
	}
	double ct[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS],
	    po[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS],
	    sc[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS];
	int rc = pe_toy_score_parts(cfg, &tw.s, 0, ct, po);
	if (rc == PE_OK)
		rc = pe_toy_scores(cfg, &tw.s, 0, sc);
	if (view_check(c, rc, x, y, w) != PE_OK)
		return;
	size_t q = c->st->cur_r < T ? c->st->cur_r : T - 1;
	snprintf(l, sizeof l, "scale %.6g = 1/√%zu%s", scale, d, "");
	if (mscale != 1.0)
		snprintf(l, sizeof l, "scale %.6g = 1/√%zu × mscale² (mscale = "
		    "0.1·%g·ln %g + 1 = %.6g: DeepSeek-V3's YaRN on the softmax)",
		    scale, d, cfg->rope.mscale_all_dim, cfg->rope.factor, mscale);
	y += panel_text(c->cv, x, y, w, 3, l, C_DIM, 0);
	snprintf(l, sizeof l, "query %zu \"%s\" (rounded to add up):", q,
	    tw.label[q]);
	pe_canvas_text_fit(c->cv, x, y++, w, l, C_TEXT, PE_COLOR_DEFAULT, 0);
	/* the columns' names over the rows, each over its numbers */
	if (w >= 38)
		snprintf(l, sizeof l, " %-10s%7s  %8s   %7s", "key", "content",
		    "position", "score");
	else
		snprintf(l, sizeof l, "%-2s%7s %8s  %7s", "k", "content",
		    "position", "score");
	pe_canvas_text_fit(c->cv, x, y++, w, l, C_DIM, PE_COLOR_DEFAULT, 0);
	/* the rows before the text: a short panel (80x24) keeps them */
	int room = c->by + c->bh - y;
	for (size_t k = 0; k < T && (int)k < room; k++) {
		double s = sc[q * T + k];
		if (!isfinite(s)) {
			snprintf(l, sizeof l, " %-2zu %-6.6s hidden by the mask", k,
			    tw.label[k]);
		} else {
			/* the score and the content part rounded, the position
			 * part what makes them add up: each within 0.0005 */
			double sr = round(s * 1000) / 1000;
			double cr = round(ct[q * T + k] * 1000) / 1000;
			if (w >= 38)
				snprintf(l, sizeof l, " %-2zu %-6.6s %7.3f + %7.3f = "
				    "%7.3f", k, tw.label[k], cr, sr - cr, sr);
			else
				snprintf(l, sizeof l, "%-2zu%7.3f +%7.3f =%7.3f", k,
				    cr, sr - cr, sr);
		}
		pe_canvas_text_fit(c->cv, x, y++, w, l, C_TEXT, PE_COLOR_DEFAULT,
		    0);
	}
	y++;
	snprintf(l, sizeof l, "The content part (q_nope·k_nope) is the same at "
	    "any distance; only the %zu rotated dims see position. DeepSeek "
	    "keeps them apart so that its compressed key cache needs no "
	    "rotation: one rotated key of %zu dims is shared by every head.",
	    rot, rot);
	if (cfg->attn.qk_rope_dim == 0)
		snprintf(l, sizeof l, "The part that passes through (%zu dims) is "
		    "the same at any distance; only the first %zu dims see "
		    "position.", d - rot, rot);
	if (y < c->by + c->bh)
		panel_text(c->cv, x, y, w, c->by + c->bh - y, l, C_TEXT, 0);
	size_t kk = c->st->cur_c < T ? c->st->cur_c : T - 1;
	snprintf(c->panel_insp, sizeof c->panel_insp, " score[%zu,%zu] = "
	    "%.9g = content %.9g + position %.9g (× %.6g each)", q, kk,
	    sc[q * T + kk], ct[q * T + kk], po[q * T + kk], scale);
}

/* ---- the parameter line ------------------------------------------------- */

/* The shape's items of the parameter line: the window or chunks, the
 * sinks, the temperature, a decoupled head. */
void
view_attn_params(struct ctx *c, struct items *it)
{
	struct pe_attn t;

	pe_config_attn(c->cfg, &t);
	bool layer = c->pane != NULL && c->pane->arch != NULL;
	if (layer)
		; /* a model's layer: its span is the model's item (pane.c) */
	else if (t.span == PE_SPAN_SLIDING)
		view_item(it, 0, "window %zu", t.window);
	else if (t.span == PE_SPAN_CHUNKED)
		view_item(it, 0, "chunks of %zu", t.chunk);
	if (t.sinks != NULL)
		view_item(it, 1, "sinks ×%zu (head %zu: %.3g)", t.n_sinks,
		    c->pane->head < t.n_sinks ? c->pane->head : 0,
		    t.sinks[c->pane->head < t.n_sinks ? c->pane->head : 0]);
	if (t.temperature)
		view_item(it, 1, "temperature ⌊(p+1)/%g⌋ ×%g", t.floor_scale,
		    t.attn_scale);
	if (t.qk_rope_dim > 0) {
		double m;
		pe_attn_scale(c->cfg, &m);
		view_item(it, 0, "nope %zu + rope %zu", t.qk_nope_dim,
		    t.qk_rope_dim);
		if (m != 1.0)
			view_item(it, 2, "softmax ×mscale² %.4g", m * m);
	}
}

/* ---- keys --------------------------------------------------------------- */

/* One of the attention shape's keys. */
bool
view_attn_key(const struct pe_enc_key *k)
{
	return k->press == view_attn_span_key || k->press == view_attn_size_key
	    || k->press == view_attn_head_key || k->press ==
	    view_attn_rope_dim_key || k->press == view_attn_temperature_key;
}

/* o: the span cycles full → window → chunks → full, at the size it had
 * (or a quarter of the sequence). */
int
view_attn_span_key(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	struct pe_attn *t = &c.attn;
	size_t s = t->span == PE_SPAN_SLIDING ? t->window : t->chunk;

	(void)key;
	if (s == 0)
		s = c.n >= 8 ? c.n / 4 : 1;
	switch (t->span) {
	case PE_SPAN_FULL:
		t->span = PE_SPAN_SLIDING;
		t->window = s;
		break;
	case PE_SPAN_SLIDING:
		t->span = PE_SPAN_CHUNKED;
		t->chunk = s;
		break;
	case PE_SPAN_CHUNKED:
		t->span = PE_SPAN_FULL;
		t->window = t->chunk = 0;
		break;
	}
	int act = pe_state_apply(st, &c);
	if (act & PE_ACT_REBUILD)
		pe_state_status(st, "%s", t->span == PE_SPAN_FULL
		    ? "full attention (o: a window, then chunks)"
		    : t->span == PE_SPAN_SLIDING ? "a sliding window (k/K its "
		      "size; o: chunks)" : "chunks (k/K their size; o: full)");
	return act;
}

/* k/K: the window's or the chunks' size halved, doubled. */
int
view_attn_size_key(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	struct pe_attn *t = &c.attn;
	size_t *s = t->span == PE_SPAN_SLIDING ? &t->window : &t->chunk;

	if (t->span == PE_SPAN_FULL) {
		pe_state_status(st, "'%c': full attention has no window or "
		    "chunks; o adds a window", key);
		return PE_ACT_REDRAW;
	}
	if (key == 'k' && *s == 1) {
		pe_state_status(st, "%s 1 is the smallest", t->span ==
		    PE_SPAN_SLIDING ? "window" : "chunk");
		return PE_ACT_REDRAW;
	}
	*s = key == 'k' ? *s / 2 : (*s > PE_MAX_N / 2 ? *s : *s * 2);
	return pe_state_apply(st, &c);
}

/* </>: the sinks' head. */
int
view_attn_head_key(struct pe_state *st, int key)
{
	struct pe_pane *p = &st->pane[st->focus];
	size_t heads = pe_config_heads(&p->cfg);

	if (p->cfg.attn.sinks == NULL) {
		pe_state_status(st, "'%c': no sinks (--sinks LIST gives a logit a "
		    "head)", key);
		return PE_ACT_REDRAW;
	}
	if (key == '<' ? p->head == 0 : p->head + 1 >= heads) {
		pe_state_status(st, "head %zu is the %s of %zu", p->head,
		    key == '<' ? "first" : "last", heads);
		return PE_ACT_REDRAW;
	}
	p->head = key == '<' ? p->head - 1 : p->head + 1;
	return PE_ACT_REDRAW;
}

/* u/U: a decoupled head's rotated part halved, doubled (the rest content);
 * from a whole rotated head, u keeps half of it. */
int
view_attn_rope_dim_key(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	struct pe_attn *t = &c.attn;
	size_t r = t->qk_rope_dim > 0 ? t->qk_rope_dim : c.d;

	r = key == 'u' ? r / 2 : r * 2;
	r -= r % 2;
	if (r >= c.d) {
		t->qk_rope_dim = t->qk_nope_dim = 0; /* every dim rotates */
	} else if (r < 2) {
		pe_state_status(st, "rope_dim 2 is the smallest rotated part");
		return PE_ACT_REDRAW;
	} else {
		t->qk_rope_dim = r;
		t->qk_nope_dim = c.d - r;
		c.rope.partial_rotary = 1.0;
	}
	return pe_state_apply(st, &c);
}

/* t: Llama 4's temperature on or off. */
int
view_attn_temperature_key(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;

	(void)key;
	c.attn.temperature = !c.attn.temperature;
	int act = pe_state_apply(st, &c);
	if (act & PE_ACT_REBUILD)
		pe_state_status(st, "temperature %s (floor_scale %g, attn_scale "
		    "%g)", c.attn.temperature ? "on" : "off", c.attn.floor_scale,
		    c.attn.attn_scale);
	return act;
}
