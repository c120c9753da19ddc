/* Compare mode's frame body (DESIGN.md: compare is two states): two panes
 * side by side, each a state of its own (pe_state_pane: its settings, the
 * shared cursor and viewport) drawn with its model on a canvas of the
 * pane's size and copied into the frame, and below them the difference
 * strip A − B, a field of its own (pe_field_diff_grid), or a line saying
 * why there is none. The main maps share one color scale when they show
 * the same kind of field. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view_impl.h"

/* Rows, columns and what the values are, by field kind, for the strip's
 * words. */
static const struct {
	const char *rows, *cols, *what;
} kind_words[PE_FIELD_KIND_COUNT] = {
	[PE_FIELD_PE] = {"positions", "dims", "PE values"},
	[PE_FIELD_ROPE_ANGLE] = {"positions", "pairs", "angles"},
	[PE_FIELD_ROPE_COS] = {"positions", "dims", "cosines"},
	[PE_FIELD_ROPE_SIN] = {"positions", "dims", "sines"},
	[PE_FIELD_BIAS] = {"queries", "keys", "biases"},
	[PE_FIELD_MASK] = {"queries", "keys", "mask values"},
	[PE_FIELD_RELATIVE] = {"queries", "keys", "buckets"},
	[PE_FIELD_SIMILARITY] = {"queries", "keys", "dot products"},
	[PE_FIELD_PATCH_COSINE] = {"patch rows", "patch columns", "cosines"},
};

/* How a pane lays out its body. */
enum pane_mode {
	PANE_MAP,     /* the main map alone */
	PANE_MAP_DOT, /* the main map over the dot-product panel */
	PANE_FULL,    /* the row's own view: map and right column */
};

/* One pane: its state, model, canvas and ctx. */
struct pane {
	enum pe_pane_id id;
	struct pe_state st;
	struct pe_canvas cv;
	struct pe_hit hit;
	struct ctx c;
	int x;		   /* its column in the frame (line 1 is its top) */
	bool has_dot;	   /* its positions have a dot-product panel */
};

/* Smallest pane (columns, body lines) for the row's own layout, and the
 * smallest body for the map with the dot-product panel under it. */
#define FULL_MIN_W 90
#define FULL_MIN_H 24
#define DOT_MIN_H 22

/* Set a pane up: its state, canvas and ctx. */
static int
pane_init(struct pane *p, const struct pe_state *st, enum pe_pane_id id,
    const struct pe_model *m, int x, int w, int h)
{
	memset(p, 0, sizeof *p);
	p->id = id;
	p->x = x;
	pe_state_pane(st, id, &p->st);
	if (pe_canvas_init(&p->cv, w, h) != PE_OK) {
		p->cv.cells = NULL;
		return PE_ENOMEM;
	}
	view_ctx_init(&p->c, &p->st, m, &p->cv, &p->hit);
	p->c.in_compare = true;
	/* its rows are the similarity's queries: the dot-product panel */
	p->has_dot = m->has_sim &&
	    !pe_enc_view_of(&m->cfg)->rows_not_positions &&
	    m->sim.rows == m->cfg.n && m->main.rows == m->cfg.n;
	return PE_OK;
}

/* The scale a pane's main map would have on its own (its row's map
 * function with the probe on: nothing is drawn). */
static bool
pane_scale(const struct pane *p, struct pe_scale *sc)
{
	const struct pe_enc_view *v = pe_enc_view_of(p->c.cfg);
	if (v->map == NULL)
		return false;
	struct ctx *pc = malloc(sizeof *pc);
	if (pc == NULL)
		return false;
	*pc = p->c;
	pc->probe = true;
	v->map(pc);
	*sc = pc->scale;
	free(pc);
	return true;
}

/* The pane's first line: its badge (the focused pane's stands out) and
 * its parameters; pane A's items into made, pane B's keeping what differs
 * from them (other) first. */
static void
pane_params(struct pane *p, const struct items *other, struct items *made,
    bool focused)
{
	const char *badge = p->id == PE_PANE_A ? " A " : " B ";
	struct pe_canvas *cv = &p->cv;
	if (focused)
		pe_canvas_text(cv, 0, 0, 3, badge, PE_RGB(0, 0, 0), C_ACCENT,
		    PE_ATTR_BOLD);
	else
		pe_canvas_text(cv, 0, 0, 3, badge, C_DIM, PE_COLOR_DEFAULT, 0);
	view_params(&p->c, other, made, 3, 0, p->cv.w - 3);
}

/* Draw a pane's body in the mode given; map_h: its map's lines in the
 * map modes. */
static void
pane_body(struct pane *p, enum pane_mode mode, int map_h)
{
	struct ctx *c = &p->c;
	int w = p->cv.w;

	c->bx = 0, c->by = 1, c->bh = p->cv.h - 1;
	if (mode == PANE_FULL) {
		c->rw = w * 2 / 5;
		if (c->rw < 30)
			c->rw = 30;
		if (c->rw > 80)
			c->rw = 80;
		c->lw = w - c->rw - 2;
		c->rx = c->lw + 2;
		view_body(c);
		return;
	}
	c->lw = w, c->rx = w, c->rw = 0;
	c->bh = map_h;
	pe_enc_view_of(c->cfg)->map(c);
	int y = 1 + map_h + 1, h = p->cv.h - y;
	if (mode == PANE_MAP_DOT && p->has_dot && h >= 4)
		view_map_dot(c, 0, y, w, h, p->st.cur_r, "positional score");
}

/* The difference strip's source: A − B from the two main fields, the
 * samples computed once for the scale and handed to panel_map. */
struct diff_src {
	const struct pe_field *a, *b;
	const struct pe_stats *pre; /* [nr * nc] for the tiling below */
	size_t r0, r1, nr, c0, c1, nc;
};

/* Block means of A − B (the samples computed already when the tiling is
 * theirs). */
static int
diff_grid(const void *arg, size_t r0, size_t r1, size_t nr, size_t c0,
    size_t c1, size_t nc, struct pe_stats *dest)
{
	const struct diff_src *d = arg;
	if (d->pre != NULL && r0 == d->r0 && r1 == d->r1 && nr == d->nr &&
	    c0 == d->c0 && c1 == d->c1 && nc == d->nc) {
		memcpy(dest, d->pre, nr * nc * sizeof *dest);
		return PE_OK;
	}
	int rc = pe_field_diff_grid(d->a, d->b, r0, r1, nr, c0, c1, nc, dest);
	/* angles: a block that spans many turns has no direction (the panes
	 * grey it), so neither has its difference, unless the two circular
	 * means agree exactly (a pair the scaling left alone) */
	bool angle = d->a->kind == PE_FIELD_ROPE_ANGLE;
	for (size_t k = 0; rc == PE_OK && k < nr * nc; k++)
		if (angle && dest[k].resultant < 0.5 && !isnan(dest[k].mean) &&
		    dest[k].mean != 0) {
			dest[k].mean = NAN;
			dest[k].undefined = dest[k].count;
		}
	return rc;
}

/* A − B at one element. */
static double
diff_value(const void *arg, size_t r, size_t c)
{
	const struct diff_src *d = arg;
	return pe_field_diff_value(d->a, d->b, r, c);
}

/* "64×32 positions × pairs" for a field. */
static void
shape_words(char *buf, size_t cap, const struct pe_field *f)
{
	snprintf(buf, cap, "%zu×%zu %s × %s", f->rows, f->cols,
	    kind_words[f->kind].rows, kind_words[f->kind].cols);
}

/* The strip's one line when A − B is not defined: why. */
static void
strip_none(struct ctx *c, const struct pe_field *a, const struct pe_field *b,
    int y)
{
	char l[320], sa[96], sb[96];
	if (a->rows != b->rows || a->cols != b->cols) {
		shape_words(sa, sizeof sa, a);
		shape_words(sb, sizeof sb, b);
		snprintf(l, sizeof l, "no difference: A is %s, B is %s", sa,
		    sb);
	} else {
		snprintf(l, sizeof l, "no difference: A shows %s and B %s; a "
		    "circular mean of angles does not subtract from a mean",
		    kind_words[a->kind].what, kind_words[b->kind].what);
	}
	pe_canvas_text_fit(c->cv, 0, y, c->w, l, C_DIM, PE_COLOR_DEFAULT, 0);
}

/* The difference strip A − B in lines [y, y + h) of the frame: the main
 * fields' exact block means subtracted over the shared viewport, on a
 * scale of its own (symmetric about 0), with the cursor. */
static void
strip_draw(struct ctx *c, const struct pane *pa, const struct pane *pb,
    int y, int h)
{
	const struct pe_field *a = &pa->c.mainf, *b = &pb->c.mainf;
	const struct pe_state *st = &pa->st;
	struct diff_src d = {a, b, NULL, 0, 0, 0, 0, 0, 0};
	struct map_spec s;
	struct map_geom g;
	bool angle = a->kind == PE_FIELD_ROPE_ANGLE;

	memset(&s, 0, sizeof s);
	s.src = (struct map_source){&d, diff_grid, diff_value};
	if (st->vr1 != 0)
		s.r0 = st->vr0, s.r1 = st->vr1, s.c0 = st->vc0, s.c1 = st->vc1;
	else
		s.r0 = 0, s.r1 = a->rows, s.c0 = 0, s.c1 = a->cols;
	s.axes = s.colorbar = s.cursor = true;
	s.cur_r = st->cur_r, s.cur_c = st->cur_c;
	s.values = st->values;
	s.fmt = "%.3g";

	/* the title: what it is, and A − B at the cursor */
	char title[256], v[48];
	double dv = pe_field_diff_value(a, b, st->cur_r, st->cur_c);
	if (isnan(dv))
		snprintf(v, sizeof v, "undefined");
	else if (isinf(dv))
		snprintf(v, sizeof v, "masked in both");
	else
		snprintf(v, sizeof v, "%.6g", dv + 0.0);
	/* whole items, the least needed dropped first when narrow */
	char cur[96];
	snprintf(cur, sizeof cur, "at the cursor (%zu, %zu): %s", st->cur_r,
	    st->cur_c, v);
	const char *items[] = {"A − B", angle ? "angles wrapped into [−π, π)"
	    : "exact block means subtracted", cur, angle ? "exact block means "
	    "subtracted" : NULL};
	int prio[] = {0, 1, 0, 2};
	pe_text_pick(title, sizeof title, items, prio, angle ? 4 : 3, " · ",
	    c->w);
	s.title = title;
	char legend[160];
	snprintf(legend, sizeof legend, "own scale, symmetric about 0 · "
	    "%s − %s", kind_words[a->kind].what, kind_words[b->kind].what);
	s.legend = h >= 8 ? legend : NULL;

	/* the samples first: the scale is ± their largest |A − B| */
	size_t nr, nc;
	s.scale = (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false};
	panel_map_tiling(c->cv, &s, c->w, h, &nr, &nc);
	if (nr == 0 || nc == 0)
		return;
	struct pe_stats *pre = malloc(nr * nc * sizeof *pre);
	int rc = pre == NULL ? PE_ENOMEM
	    : diff_grid(&d, s.r0, s.r1, nr, s.c0, s.c1, nc, pre);
	if (view_check(c, rc, 0, y, c->w) != PE_OK) {
		free(pre);
		return;
	}
	double top = 0;
	bool many_turns = false;
	for (size_t k = 0; k < nr * nc; k++) {
		if (isfinite(pre[k].mean) && fabs(pre[k].mean) > top)
			top = fabs(pre[k].mean);
		many_turns = many_turns || (angle && pre[k].undefined > 0);
	}
	if (many_turns) { /* a sample of that look starts the legend */
		s.swatch = PE_CELL_UNDEFINED;
		char rest[160];
		snprintf(rest, sizeof rest, "%s", legend);
		snprintf(legend, sizeof legend, "spans many turns: no angle · "
		    "%.120s", rest);
	}
	if (top > 0)
		s.scale.lo = -top, s.scale.hi = top;
	else
		snprintf(legend, sizeof legend, "A = B everywhere shown");
	d.pre = pre;
	d.r0 = s.r0, d.r1 = s.r1, d.nr = nr;
	d.c0 = s.c0, d.c1 = s.c1, d.nc = nc;
	view_check(c, panel_map(c->cv, 0, y, c->w, h, &s, &g), 0, 0, 0);
	free(pre);
}

/* Copy a pane's hit geometry into the frame's, moved by the pane's
 * place. */
static void
pane_hit(const struct pane *p, struct pe_hit *frame, int y0, bool focused)
{
	const struct pe_hit *h = &p->hit;
	if (h->map_w == 0)
		return;
	if (focused) {
		frame->map_x = h->map_x + p->x, frame->map_y = h->map_y + y0;
		frame->map_cw = h->map_cw;
		frame->map_w = h->map_w, frame->map_h = h->map_h;
		frame->r0 = h->r0, frame->r1 = h->r1;
		frame->c0 = h->c0, frame->c1 = h->c1;
		frame->nsr = h->nsr, frame->nsc = h->nsc;
		frame->cell_rows = h->cell_rows;
		frame->cell_cols = h->cell_cols;
		frame->pnr = h->pnr, frame->pnc = h->pnc;
		frame->px_w = h->px_w, frame->px_h = h->px_h;
		return;
	}
	frame->other.x = h->map_x + p->x, frame->other.y = h->map_y + y0;
	frame->other.cw = h->map_cw;
	frame->other.w = h->map_w, frame->other.h = h->map_h;
	frame->other.r0 = h->r0, frame->other.r1 = h->r1;
	frame->other.c0 = h->c0, frame->other.c1 = h->c1;
	frame->other.nsr = h->nsr, frame->other.nsc = h->nsc;
	frame->other.pnr = h->pnr, frame->other.pnc = h->pnc;
	frame->px_w = h->px_w, frame->px_h = h->px_h;
}

/* The body of a compare frame: lines c->by - 1 .. h - 4 (the tabs, when
 * the frame has them, above; the inspector and status lines below); the
 * inspector lines are the focused pane's formula, then the other's. */
void
view_compare(struct ctx *c)
{
	const struct pe_state *st = c->st;
	enum pe_pane_id f = pe_state_focused(st);
	const struct pe_model *ma = f == PE_PANE_A ? c->m : c->m->other;
	const struct pe_model *mb = f == PE_PANE_A ? c->m->other : c->m;
	struct pane *p = calloc(2, sizeof *p);
	int y0 = c->by - 1, body = c->h - 3 - y0, pw = (c->w - 1) / 2;

	if (p == NULL) {
		view_check(c, PE_ENOMEM, 0, y0, c->w);
		return;
	}
	/* the strip's lines (a map, or the line saying why there is none),
	 * then the panes' */
	bool diff = pe_field_diff_defined(&ma->main, &mb->main);
	int hs = diff ? body / 4 : 1;
	if (diff && hs < 6)
		hs = 6;
	if (hs > 14)
		hs = 14;
	int ph = body - hs;
	if (pane_init(&p[0], st, PE_PANE_A, ma, 0, pw, ph) != PE_OK ||
	    pane_init(&p[1], st, PE_PANE_B, mb, pw + 1, pw, ph) != PE_OK) {
		view_check(c, PE_ENOMEM, 0, y0, c->w);
		goto end;
	}
	pe_canvas_want_like(&p[0].cv, c->cv); /* each pane's map: pixels too */
	pe_canvas_want_like(&p[1].cv, c->cv);
	for (int i = 0; i < 2; i++) /* drawn as the frame is */
		p[i].cv.large = c->cv->large;

	/* one color scale when the panes show the same kind of field; one
	 * range for their dot products */
	struct pe_scale sa, sb, shared;
	if (p[0].c.mainf.kind == p[1].c.mainf.kind && pane_scale(&p[0], &sa) &&
	    pane_scale(&p[1], &sb) && sa.cmap == sb.cmap &&
	    sa.cyclic == sb.cyclic) {
		shared = sa;
		shared.lo = fmin(sa.lo, sb.lo);
		shared.hi = fmax(sa.hi, sb.hi);
		p[0].c.share = p[1].c.share = &shared;
	}
	if (ma->has_sim && mb->has_sim) {
		double ba = view_map_sim_bound(ma), bb = view_map_sim_bound(mb);
		p[0].c.sim_bound = p[1].c.sim_bound = ba > bb ? ba : bb;
	}

	/* the layout both panes take, so that their maps line up */
	enum pane_mode mode = PANE_MAP;
	int inner = ph - 1, map_h = inner;
	if (pw >= FULL_MIN_W && inner >= FULL_MIN_H) {
		mode = PANE_FULL;
	} else if (inner >= DOT_MIN_H && (p[0].has_dot || p[1].has_dot)) {
		int hd = inner / 3;
		hd = hd < 7 ? 7 : hd > 12 ? 12 : hd;
		mode = PANE_MAP_DOT;
		map_h = inner - hd - 1;
	}
	struct items a_items; /* pane A's, drawn first */
	for (int i = 0; i < 2; i++) {
		bool focused = (enum pe_pane_id)i == f;
		pane_params(&p[i], i == 1 ? &a_items : NULL, i == 0 ? &a_items :
		    NULL, focused);
		pane_body(&p[i], mode, map_h);
		pe_canvas_blit(c->cv, p[i].x, y0, &p[i].cv);
		pane_hit(&p[i], c->hit, y0, focused);
		if (c->status == PE_OK)
			c->status = p[i].c.status;
	}
	for (int y = y0; y < y0 + ph; y++)
		pe_canvas_set(c->cv, pw, y, 0x2502, C_DIM, PE_COLOR_DEFAULT, 0);

	if (diff)
		strip_draw(c, &p[0], &p[1], y0 + ph, hs);
	else
		strip_none(c, &p[0].c.mainf, &p[1].c.mainf, y0 + ph);

	/* the inspector: the focused pane's formula, then the other's */
	const struct ctx *cf = &p[f].c, *co = &p[f == PE_PANE_A].c;
	snprintf(c->insp[0], sizeof c->insp[0], "%s%.500s", f == PE_PANE_A ? "A"
	    : "B", cf->insp[0]);
	snprintf(c->insp[1], sizeof c->insp[1], "%s%.500s", f == PE_PANE_A ? "B"
	    : "A", co->insp[0]);
end:
	pe_canvas_free(&p[0].cv);
	pe_canvas_free(&p[1].cv);
	free(p);
}
