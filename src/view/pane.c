/* What every view's drawing shares: a pane's ctx, its parameter line and
 * its body (the encoding's row's view), a panel's status, the items of a
 * line and bounded appends. view.c lays out the frame around a pane,
 * view_compare.c two panes. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/encoding.h"
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
view_params(struct ctx *c, const struct ctx *other, int x, int y, int w)
{
	struct items it, ot;
	char b[1024];

	param_items(c, &it);
	/* a copy of the other's ctx (large: on the heap) makes its items;
	 * nothing is drawn */
	struct ctx *oc = other != NULL ? malloc(sizeof *oc) : NULL;
	if (oc != NULL) {
		*oc = *other;
		param_items(oc, &ot);
		free(oc);
		for (size_t i = 0; i < it.n; i++)
			for (size_t j = 0; j < ot.n; j++)
				if (strcmp(it.text[i], ot.text[j]) == 0) {
					it.prio[i] += PARAM_SHARED;
					break;
				}
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

/* The row's view in the ctx's body: the overview, or with a panel chosen
 * the main map and the panel in the right column (the panel's formula is
 * then the first inspector line and the map's the second). */
void
view_body(struct ctx *c)
{
	const struct pe_enc_view *v = pe_enc_view_of(c->cfg);
	enum pe_panel chosen = pe_state_panel(c->st);
	const struct pe_enc_panel *p = pe_enc_panel_of(v, chosen);
	if (p != NULL && v->map != NULL && c->lw == 0) {
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
