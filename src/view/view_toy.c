/* The toy attention panel: the sentence's attention (toy.h) and
 * its permutation's, mapped back, side by side, with their largest
 * difference. Self-attention without positions is permutation invariant;
 * a positional encoding (or a causal mask) is what tells the orders apart.
 * Every encoding whose kernel row has a toy rule lists it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/encoding.h"
#include "pescope/relative.h"
#include "pescope/toy.h"

#include "view/view_impl.h"

/* Most T² d the panel computes (four attentions of that cost, once per
 * config, under a second at the limit: 64 tokens at d_model 8192): 2^25. */
#define TOY_BUDGET 33554432.0

/* The encoding's toy rule (NULL: none). */
static const struct pe_toy_rule *
toy_rule(const struct pe_config *cfg)
{
	return pe_config_def(cfg)->toy;
}

/* Whether the toy's bias is a learned table that is not given: the panel
 * shows what indexes it instead (relative's buckets). */
static bool
toy_bias_missing(const struct pe_config *cfg)
{
	const struct pe_toy_rule *r = toy_rule(cfg);

	return r != NULL && r->check_bias != NULL && cfg->teach.bias == NULL;
}

/* The toy's head: the head of a bias that has them (alibi's head drawn
 * large, relative's bias row) or of the sinks, else 0. */
static size_t
toy_head(const struct ctx *c)
{
	const struct pe_toy_rule *r = toy_rule(c->cfg);
	struct pe_attn t;

	pe_toy_attn(c->cfg, &t);
	if (t.sinks != NULL) /* a sink logit a head */
		return c->pane->head < t.n_sinks ? c->pane->head : 0;
	return r != NULL && r->bias != NULL ? c->pane->head : 0;
}

/* The two attentions of the toy panel (panel_run2): each its own, so the
 * same bits on either core. */
struct toy_pair {
	const struct pe_config *cfg;
	const struct pe_toy_sentence *s[2];
	size_t head;
	double *dest[2];
	int rc[2];
};

/* Attention `part` of a toy_pair. */
static void
toy_pair_part(void *arg, int part)
{
	struct toy_pair *j = arg;
	j->rc[part] = pe_toy_attention(j->cfg, j->s[part], j->head,
	    j->dest[part]);
}

/* Fill the cache for head: the sentence and its permutation, A, P A' P^T
 * and the kernel's gap; a refusal keeps its sentence. */
static void
toy_compute(const struct ctx *c, struct pe_view_cache *k, size_t head)
{
	const struct pe_config *cfg = c->cfg;
	double ap[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS];
	size_t inv[PE_TOY_MAX_TOKENS];

	k->toy_done = true;
	k->toy_head = head;
	k->toy_why[0] = '\0';
	k->toy_rc = pe_toy_split(cfg->teach.tokens, &k->toy_s);
	if (k->toy_rc == PE_OK)
		k->toy_rc = pe_toy_permutation(cfg, &k->toy_s, k->toy_perm);
	if (k->toy_rc == PE_OK)
		k->toy_rc = pe_toy_permute(&k->toy_s, k->toy_perm, &k->toy_p);
	if (k->toy_rc != PE_OK) {
		snprintf(k->toy_why, sizeof k->toy_why, "the sentence or "
		    "--permute is not usable (%s)", pe_strerror(k->toy_rc));
		k->toy_rc = PE_EINVAL;
		return;
	}
	if (toy_bias_missing(cfg))
		return; /* the bias is learned: the buckets only */
	if (pe_toy_check(cfg, &k->toy_s, head, k->toy_why,
		sizeof k->toy_why) != PE_OK) {
		k->toy_rc = PE_EINVAL;
		return;
	}
	size_t t = k->toy_s.count;
	if ((double)t * (double)t * (double)cfg->d > TOY_BUDGET) {
		snprintf(k->toy_why, sizeof k->toy_why, "%zu tokens at d_model %zu: "
		    "T² × d_model is more than the panel computes for a frame "
		    "(%.0f); use fewer tokens or a smaller -d (dump --table "
		    "attention computes any size)", t, cfg->d, TOY_BUDGET);
		k->toy_rc = PE_EINVAL;
		return;
	}
	/* the sentence's attention and the permuted one's, one a core */
	struct toy_pair job = {cfg, {&k->toy_s, &k->toy_p}, head,
	    {k->toy_a, ap}, {PE_OK, PE_OK}};
	panel_run2(toy_pair_part, &job);
	k->toy_rc = job.rc[0] != PE_OK ? job.rc[0] : job.rc[1];
	if (k->toy_rc != PE_OK)
		return;
	/* P A' P^T: token a of the sentence is token inv[a] of the
	 * permuted one */
	for (size_t i = 0; i < t; i++)
		inv[k->toy_perm[i]] = i;
	for (size_t a = 0; a < t; a++)
		for (size_t b = 0; b < t; b++)
			k->toy_b[a * t + b] = ap[inv[a] * t + inv[b]];
	/* pe_toy_permutation_gap's, of the two attentions made above */
	k->toy_gap = pe_toy_gap(t, k->toy_a, k->toy_b);
}

/* The cache, computed for the frame's head when it is not yet. */
static const struct pe_view_cache *
toy_cache(const struct ctx *c)
{
	struct pe_view_cache *k = c->m->cache;
	size_t head = toy_head(c);
	if (!k->toy_done || k->toy_head != head)
		toy_compute(c, k, head);
	return k;
}

/* A token as a label: its bytes, or "" when longer than cap - 1 (a word
 * is never cut). */
static void
toy_word(const struct pe_toy_sentence *s, size_t i, char *buf, size_t cap)
{
	size_t n = s->len[i] < cap ? s->len[i] : 0;
	memcpy(buf, s->word[i], n);
	buf[n] = '\0';
}

/* The sentence as text, quoted. */
static void
toy_text(const struct pe_toy_sentence *s, char *buf, size_t cap)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->count && o + 4 < cap; i++) {
		size_t n = s->len[i];
		if (o + n + 4 >= cap)
			break;
		buf[o++] = i == 0 ? '"' : ' ';
		memcpy(buf + o, s->word[i], n);
		o += n;
	}
	if (o + 2 < cap)
		buf[o++] = '"';
	buf[o] = '\0';
}

/* A T x T map of a[] with the tokens as labels in the rectangle. */
static void
toy_map(struct ctx *c, int x, int y, int w, int h, const double *a, size_t t,
    const char *const *labels, const struct pe_scale *sc, const char *title,
    const char *legend)
{
	struct map_spec s;
	struct map_geom g;
	struct panel_array arr = {a, t};
	memset(&s, 0, sizeof s);
	s.src = panel_array_source(&arr);
	s.r0 = 0, s.r1 = t, s.c0 = 0, s.c1 = t;
	s.scale = *sc;
	s.title = title;
	s.fmt = "%.2g";
	s.axes = true;
	s.colorbar = true;
	s.legend = legend;
	s.swatch = legend != NULL && strncmp(legend, "masked", 6) == 0
	    ? PE_CELL_MASKED : 0;
	s.values = c->st->values;
	s.row_labels = labels;
	s.col_labels = labels;
	s.mark_from = view_map_train_len(c) < t ? view_map_train_len(c) : 0;
	view_check(c, panel_map(c->cv, x, y, w, h, &s, &g), x, y, w);
}

/* Lines for a toy map of t tokens: up to four a token when the room
 * allows, else one, else two tokens a line (half blocks: still every token, none
 * sampled), plus its title, axis and bar (and legend). */
static int
toy_map_h(size_t t, int room, bool legend, bool values)
{
	int chrome = 3 + legend;
	/* up to four lines a token; two with values, which stand on a
	 * token's first line as its label does */
	for (int k = values ? 2 : 4; k >= 2; k--)
		if (k * (int)t + chrome <= room)
			return k * (int)t + chrome;
	if ((int)t + chrome <= room)
		return (int)t + chrome;
	if (((int)t + 1) / 2 + chrome <= room)
		return ((int)t + 1) / 2 + chrome;
	return room;
}

/* The fewest lines a toy map of t tokens needs unsampled. */
static int
toy_map_min_h(size_t t, bool legend)
{
	return ((int)t + 1) / 2 + 3 + legend;
}

/* The width two toy maps of the frame's sentence need side by side with
 * every token a column (a sample 2 cells wide in the presenter view):
 * the right column is at least this wide when it shows them, the main
 * map giving up the room (view.c). */
int
view_toy_width(const struct ctx *c)
{
	const struct pe_view_cache *k = toy_cache(c);
	size_t t = k->toy_s.count;
	int lab = 1;

	if (k->toy_rc != PE_OK || t == 0)
		return 0;
	for (size_t i = 0; i < t; i++)
		if ((int)k->toy_s.len[i] > lab && k->toy_s.len[i] < 32)
			lab = (int)k->toy_s.len[i];
	int one = lab + 2 + (int)t * panel_col_cells(c->cv) + 1;
	return 2 * one + 2;
}

/* relative without --bias-file: the learned bias has no numbers here, so
 * the buckets of the toy's pairs, and a word on what is missing. */
static void
toy_buckets(struct ctx *c, const struct pe_view_cache *k, int x, int y,
    int w, int h, const char *const *labels)
{
	const struct pe_config *cfg = c->cfg;
	bool t5 = cfg->relative == PE_REL_T5;
	size_t t = k->toy_s.count;
	double b[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS];
	for (size_t i = 0; i < t; i++)
		for (size_t j = 0; j < t; j++) {
			int64_t rel = (int64_t)j - (int64_t)i;
			b[i * t + j] = t5 ? (double)pe_t5_bucket(rel, cfg->bidirectional,
						cfg->buckets, cfg->max_distance)
					  : (double)pe_shaw_index(rel, cfg->max_relative);
		}
	int used = panel_text(c->cv, x, y, w, 3, t5
	    ? "toy attention: T5's bias is learned (one number per bucket and "
	      "head); without --bias-file there are no scores, so only the "
	      "buckets of the sentence's pairs:"
	    : "toy attention: Shaw's bias is learned (one per clipped distance "
	      "and head); without --bias-file there are no scores, so only the "
	      "indices of the sentence's pairs:", C_TEXT, 0);
	y += used + 1;
	h -= used + 1;
	double hi = t5 ? (double)cfg->buckets - 1 : 2.0 * (double)cfg->max_relative;
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, 0, hi, false};
	int mw = w < 40 ? w : 40;
	int mh = toy_map_h(t, h - 3, false, c->st->values);
	toy_map(c, x, y, mw, mh, b, t, labels, &sc, t5
	    ? "bucket(key − query) (query ↓, key →)"
	    : "clip(key − query) + K (query ↓, key →)", NULL);
	if (h - mh - 1 >= 2)
		panel_text(c->cv, x, y + mh + 1, w, h - mh - 1, "--bias-file F.npy "
		    "([buckets] or [heads, buckets], a checkpoint's "
		    "relative_attention_bias transposed) gives the scores.", C_DIM,
		    0);
	size_t qi = c->st->cur_r < t ? c->st->cur_r : t - 1;
	size_t kj = c->st->cur_c < t ? c->st->cur_c : t - 1;
	snprintf(c->panel_insp, sizeof c->panel_insp, " %s[q=%zu %s, k=%zu %s] "
	    "= %s(%lld − %zu = %lld) = %.0f (the learned bias per %s is not "
	    "given)", t5 ? "bucket" : "index", qi, labels[qi], kj, labels[kj],
	    t5 ? "bucket" : "clip+K", (long long)kj, qi,
	    (long long)kj - (long long)qi, b[qi * t + kj],
	    t5 ? "bucket" : "distance");
}

/* The toy attention panel. */
void
view_toy_panel(struct ctx *c)
{
	const struct pe_view_cache *k = toy_cache(c);
	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t t = k->toy_s.count;
	char words[PE_TOY_MAX_TOKENS][32];
	const char *labels[PE_TOY_MAX_TOKENS];

	for (size_t i = 0; i < t; i++) {
		toy_word(&k->toy_s, i, words[i], sizeof words[i]);
		labels[i] = words[i];
	}
	if (k->toy_rc == PE_ENOMEM) {
		view_check(c, k->toy_rc, x, y, w);
		snprintf(c->panel_insp, sizeof c->panel_insp, " toy attention: "
		    "not computed: %s", pe_strerror(k->toy_rc));
		return;
	}
	if (k->toy_rc == PE_OK && toy_bias_missing(c->cfg)) {
		toy_buckets(c, k, x, y, w, h, labels);
		return;
	}
	if (k->toy_rc != PE_OK) {
		pe_canvas_text_fit(c->cv, x, y, w, "toy attention", C_TEXT,
		    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
		panel_text(c->cv, x, y + 1, w, h - 1, k->toy_why, C_WARN, 0);
		snprintf(c->panel_insp, sizeof c->panel_insp, " toy attention: "
		    "not defined here: %s", k->toy_why);
		return;
	}

	/* title: what is computed; the two sentences */
	struct pe_attn shape;
	pe_toy_attn(c->cfg, &shape);
	bool causal = shape.causal;
	char t1[300], s0[600], s1[600], l[1400], span[64] = "";
	const struct pe_toy_rule *rule = toy_rule(c->cfg);
	if (shape.span == PE_SPAN_SLIDING)
		snprintf(span, sizeof span, ", window %zu", shape.window);
	else if (shape.span == PE_SPAN_CHUNKED)
		snprintf(span, sizeof span, ", chunks of %zu", shape.chunk);
	double m;
	pe_attn_scale(c->cfg, &m);
	char scale[64] = "";
	if (m != 1.0)
		snprintf(scale, sizeof scale, "·%.4g", m * m);
	snprintf(t1, sizeof t1, "toy attention softmax(%sq·k/√%zu%s%s%s), W_q = "
	    "W_k = I, mask %s%s", shape.temperature &&
	    pe_config_def(c->cfg)->attention != PE_ATTN_ROTATE ? "τ(i)·" : "",
	    c->cfg->d, scale, rule != NULL && rule->term != NULL ? rule->term
	    : "", shape.sinks != NULL ? " ∪ sink" : "", causal ? "causal"
	    : "none", span);
	/* the maps come first: every token a row; the title and the
	 * sentences take what the maps leave, then the difference's words */
	int room = h - toy_map_min_h(t, causal || shape.span != PE_SPAN_FULL) - 1;
	int tl = room >= 4 ? 2 : room >= 1 ? 1 : 0;
	int sl = room - tl >= 2 ? 2 : room - tl >= 1 ? 1 : 0;
	if (tl > 0)
		y += panel_text(c->cv, x, y, w, tl, t1, C_TEXT, PE_ATTR_BOLD);
	toy_text(&k->toy_s, s0, sizeof s0);
	toy_text(&k->toy_p, s1, sizeof s1);
	snprintf(l, sizeof l, "%s, permuted: %s", s0, s1);
	if (sl > 0)
		y += panel_text(c->cv, x, y, w, sl, l, C_DIM, 0);
	h = c->by + c->bh - y;

	/* the two maps, masked keys hatched */
	double a[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS],
	    b[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS];
	size_t inv[PE_TOY_MAX_TOKENS];
	for (size_t i = 0; i < t; i++)
		inv[k->toy_perm[i]] = i;
	for (size_t i = 0; i < t; i++)
		for (size_t j = 0; j < t; j++) {
			a[i * t + j] = !pe_attn_sees(&shape, i, j) ? -INFINITY
			    : k->toy_a[i * t + j];
			b[i * t + j] = !pe_attn_sees(&shape, inv[i], inv[j])
			    ? -INFINITY : k->toy_b[i * t + j];
		}
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, 0, 1, false};
	int mw = (w - 2) / 2;
	bool hides = causal || shape.span != PE_SPAN_FULL;
	/* a line a token before the words on the difference (the inspector
	 * and the caption say it too), then two tokens a line */
	int full = (int)t + 3 + hides;
	int mh = h - 4 >= full ? toy_map_h(t, h - 4, hides, c->st->values)
	    : h - 1 >= full ? full : toy_map_h(t, h, hides, c->st->values);
	const char *legend = !hides ? NULL : shape.span == PE_SPAN_FULL
	    ? "masked: the key comes later" : shape.span == PE_SPAN_SLIDING
	    ? "masked: later, or out of the window"
	    : "masked: later, or another chunk";
	toy_map(c, x, y, mw, mh, a, t, labels, &sc, "A: the sentence", legend);
	toy_map(c, x + mw + 2, y, w - mw - 2, mh, b, t, labels, &sc,
	    "P·A′·Pᵀ: permuted, mapped back", legend);
	y += mh + 1;
	h -= mh + 1;

	/* the difference, and what it means */
	char gap[64], cap[600];
	if (k->toy_gap == 0)
		snprintf(gap, sizeof gap, "0");
	else if (k->toy_gap < 1e-9)
		snprintf(gap, sizeof gap, "0 (up to rounding: %.1e)", k->toy_gap);
	else
		snprintf(gap, sizeof gap, "%.3g", k->toy_gap);
	/* without positions, only the mask sees order */
	bool nope = pe_config_def(c->cfg)->attention == PE_ATTN_NONE;
	if (k->toy_gap < 1e-9)
		snprintf(cap, sizeof cap, "max |A − P·A′·Pᵀ| = %s: %s", gap, nope
		    ? "without positions (and without a mask) each word attends "
		      "to the same words wherever the sentence puts them: the "
		      "permuted sentence's attention, put back in order, is A "
		      "itself. Attention alone sees a bag of words."
		    : "reordering the words changes nothing here.");
	else if (nope)
		snprintf(cap, sizeof cap, "max |A − P·A′·Pᵀ| = %s: NoPE has no "
		    "positions, but the causal mask sees order (key j is visible "
		    "to query i iff j ≤ i); with no mask (the / key, --mask none) "
		    "the difference is 0.", gap);
	else
		snprintf(cap, sizeof cap, "max |A − P·A′·Pᵀ| = %s (rounding alone "
		    "gives ~1e-16): the positional encoding makes attention depend "
		    "on word order%s.", gap, causal ? " (the causal mask does too)"
						    : "");
	if (h >= 1)
		panel_text(c->cv, x, y, w, h, cap, C_TEXT, 0);

	/* the inspector: where the largest difference is */
	size_t ia = 0, ib = 0;
	double best = -1;
	for (size_t i = 0; i < t; i++)
		for (size_t j = 0; j < t; j++) {
			double d = fabs(k->toy_a[i * t + j] - k->toy_b[i * t + j]);
			if (d > best)
				best = d, ia = i, ib = j;
		}
	snprintf(c->panel_insp, sizeof c->panel_insp, " max|A − P·A′·Pᵀ| = "
	    "|A[%zu,%zu] − A′[%zu,%zu]| = |%.6g − %.6g| = %.6g  (query %s, key "
	    "%s; A′ is the permuted sentence's)", ia, ib, inv[ia], inv[ib],
	    k->toy_a[ia * t + ib], k->toy_b[ia * t + ib], k->toy_gap, labels[ia],
	    labels[ib]);
}
