/* What every view's drawing shares: a pane's ctx, its parameter line and
 * its body (the encoding's row's view), a panel's status, the items of a
 * line and bounded appends. view.c lays out the frame around a pane,
 * view_compare.c two panes. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pescope/encoding.h"
#include "pescope/model.h"
#include "view/panels.h"
#include "view/view_impl.h"

/* printf into a bounded buffer, appending. */
void
view_cat(char *buf, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;
	if (n >= cap - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, cap - n, fmt, ap);
	va_end(ap);
}

/* Record a panel's status; say a failure in the panel. */
int
view_check(struct ctx *c, int rc, int x, int y, int w)
{
	if (rc == PE_OK)
		return rc;
	if (c->status == PE_OK)
		c->status = rc;
	if (w > 0)
		panel_failed(c->cv, x, y, w, rc);
	return rc;
}

/* Append an item of priority prio. */
void
view_item(struct items *it, int prio, const char *fmt, ...)
{
	va_list ap;
	if (it->n >= sizeof it->prio / sizeof it->prio[0])
		return;
	va_start(ap, fmt);
	vsnprintf(it->text[it->n], sizeof it->text[it->n], fmt, ap);
	va_end(ap);
	it->ptr[it->n] = it->text[it->n];
	it->prio[it->n++] = prio;
}

/* The parameter line (the frame's second line, or a pane's first): every
 * parameter of the encoding with its current value; when they do not fit,
 * the least important go whole (sizes, the scaling and its attention
 * factor stay; explanations go first). */
static void
param_items(struct ctx *c, struct items *it)
{
	it->n = 0;
	if (c->pane != NULL && c->pane->arch != NULL) {
		/* a model's layer: which, its span, what is not modelled */
		const struct pe_arch *a = c->pane->arch;
		const struct pe_attn *t = &a->layers[c->pane->layer].cfg.attn;
		bool one_kind = true; /* then which layer matters less */
		for (size_t i = 1; one_kind && i < a->nlayers; i++)
			one_kind = pe_layer_same_kind(&a->layers[0],
			    &a->layers[i]);
		view_item(it, one_kind ? 4 : 0, "layer %zu/%zu",
		    c->pane->layer, a->nlayers);
		if (t->span == PE_SPAN_SLIDING)
			view_item(it, 0, "sliding %zu", t->window);
		else if (t->span == PE_SPAN_CHUNKED)
			view_item(it, 0, "chunked %zu", t->chunk);
		if (!t->rotates &&
		    pe_config_def(c->cfg)->attention == PE_ATTN_NONE)
			view_item(it, 0, "NoPE");
		if (a->nnotes > 0)
			view_item(it, 1, "%zu key%s not modelled", a->nnotes,
			    a->nnotes == 1 ? "" : "s");
	}
	pe_enc_view_of(c->cfg)->params(c, it);
}

/* Lower an item's importance in pane B when pane A shows it too: what the
 * two share goes first when B's line is short, so what B changes stays
 * (A keeps its own order: the sizes are said there). */
#define PARAM_SHARED 8

/* See view_impl.h. */
void
view_params(struct ctx *c, const struct items *other, struct items *made,
    int x, int y, int w)
{
	struct items it;
	char b[1024];

	param_items(c, &it);
	if (made != NULL) { /* a copy whose pointers are its own */
		*made = it;
		for (size_t i = 0; i < it.n; i++)
			made->ptr[i] = made->text[i];
	}
	for (size_t i = 0; other != NULL && i < it.n; i++)
		for (size_t j = 0; j < other->n; j++)
			if (strcmp(it.text[i], other->text[j]) == 0) {
				it.prio[i] += PARAM_SHARED;
				break;
			}
	b[0] = ' ';
	pe_text_pick(b + 1, sizeof b - 1, it.ptr, it.prio, it.n, " · ", w - 1);
	pe_canvas_text(c->cv, x, y, w, b, C_TEXT, PE_COLOR_DEFAULT, 0);
}

/* A frame's (or a pane's) ctx for st and m on cv: cleared, its hit
 * cleared, the main field the state's (alibi: its head). */
void
view_ctx_init(struct ctx *c, const struct pe_state *st,
    const struct pe_model *m, struct pe_canvas *cv, struct pe_hit *hit)
{
	memset(c, 0, sizeof *c);
	memset(hit, 0, sizeof *hit);
	pe_canvas_clear(cv);
	c->st = st, c->m = m, c->cfg = &m->cfg, c->cv = cv, c->hit = hit;
	c->pane = &st->pane[st->focus];
	c->w = cv->w, c->h = cv->h;
	c->mainf = m->main;
	/* a bias map, its samples and the inspector are the selected head's
	 * (the model's field starts at head 0) */
	if (c->mainf.kind == PE_FIELD_BIAS && c->pane->head < c->cfg->heads)
		c->mainf.head = c->pane->head;
}

/* A model's layer whose positions pescope does not model (an unknown
 * rope_type, ...): not drawn, the body says why and names the keys;
 * true when so. dump refuses such a layer's tables alike. */
static bool
body_not_modelled(struct ctx *c)
{
	const struct pe_arch *a = c->pane != NULL ? c->pane->arch : NULL;
	if (a == NULL || c->pane->layer >= a->nlayers ||
	    a->layers[c->pane->layer].cfg.attn.exact)
		return false;
	char l[2048];
	size_t o = (size_t)snprintf(l, sizeof l, "layer %zu: not drawn. Its "
	    "positions are not modelled, so no map or panel here is the "
	    "model's:", c->pane->layer);
	bool rope_type = false;
	for (size_t i = 0; i < a->nnotes && o < sizeof l; i++) {
		const struct pe_model_note *n = &a->notes[i];
		size_t k = strlen(n->key);
		rope_type |= k >= 9 && strcmp(n->key + k - 9, "rope_type") == 0;
		o += (size_t)snprintf(l + o, sizeof l - o, "%s %s \"%s\": %s",
		    i ? ";" : "", n->key, n->value, n->why);
	}
	for (int t = 0; rope_type && t < PE_ROPE_TYPE_COUNT && o < sizeof l;
	    t++)
		o += (size_t)snprintf(l + o, sizeof l - o, "%s%s", t == 0 ?
		    ". The rope types pescope computes: " : ", ",
		    pe_rope_type_name((enum pe_rope_type)t));
	if (o < sizeof l)
		snprintf(l + o, sizeof l - o, ".");
	int right = c->rx + c->rw > c->lw ? c->rx + c->rw : c->lw;
	int w = right - c->bx > 0 ? right - c->bx : c->w - c->bx;
	panel_text(c->cv, c->bx, c->by, w, c->bh, l, C_TEXT, 0);
	snprintf(c->insp[0], sizeof c->insp[0], " layer %zu: not modelled "
	    "(dump refuses its tables)", c->pane->layer);
	return true;
}

/* The row's view in the ctx's body: the overview, or with a panel chosen
 * the main map and the panel in the right column (the panel's formula is
 * then the first inspector line and the map's the second). */
void
view_body(struct ctx *c)
{
	const struct pe_enc_view *v = pe_enc_view_of(c->cfg);
	enum pe_panel chosen = pe_state_panel(c->st);
	const struct pe_enc_panel *p = pe_enc_panel_of(v, chosen);
	if (body_not_modelled(c)) {
		return;
	} else if (p != NULL && v->map != NULL && c->lw == 0) {
		/* the panel alone (a lesson's scene about it) */
		p->draw(c);
		memcpy(c->insp[0], c->panel_insp, sizeof c->insp[0]);
	} else if (p != NULL && v->map != NULL) {
		v->map(c);
		p->draw(c);
		memcpy(c->insp[1], c->insp[0], sizeof c->insp[1]);
		memcpy(c->insp[0], c->panel_insp, sizeof c->insp[0]);
	} else {
		v->draw(c);
	}
}
