/* Program state and its transitions, pure (no terminal); the keys that
 * call them are in state_key.c. Every config change goes through
 * pe_config_check; a refused change keeps the old config and explains
 * itself in st->status. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pescope/encoding.h"
#include "pescope/learned.h"
#include "pescope/rope.h"
#include "view/encoding.h"
#include "view/state.h"

/* Smallest viewport side zooming in reaches (elements), unless the map
 * itself is smaller. */
#define ZOOM_MIN 4

/* The focused pane: the one the keys change. */
static struct pe_pane *
cur(struct pe_state *st)
{
	return &st->pane[st->focus];
}

/* Write a message into the status line. */
void
pe_state_status(struct pe_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->status, sizeof st->status, fmt, ap);
	va_end(ap);
}

/* Whether the status is a note (st->status_note), not a warning. */
bool
pe_state_status_is_note(const struct pe_state *st)
{
	return st->status[0] != '\0' && strcmp(st->status, st->status_note) ==
	    0;
}

/* The panels' names, by enum pe_panel (--panel takes them). */
static const char *const panel_names[PE_PANEL_COUNT] = {
	[PE_PANEL_OVERVIEW] = "overview",
	[PE_PANEL_ATTENTION] = "attention",
	[PE_PANEL_EXAMPLE] = "example",
	[PE_PANEL_SHIFT] = "shift",
	[PE_PANEL_DECAY] = "decay",
	[PE_PANEL_RECENCY] = "recency",
	[PE_PANEL_SHARE] = "share",
	[PE_PANEL_MASK] = "mask",
	[PE_PANEL_SINKS] = "sinks",
	[PE_PANEL_TEMPERATURE] = "temperature",
	[PE_PANEL_SPLIT] = "split",
};

/* A panel's name. */
const char *
pe_panel_name(enum pe_panel p)
{
	return (unsigned)p < PE_PANEL_COUNT ? panel_names[p] : "?";
}

/* A panel by name, or -1. */
int
pe_panel_parse(const char *name)
{
	for (int p = 0; p < PE_PANEL_COUNT; p++)
		if (strcmp(name, panel_names[p]) == 0)
			return p;
	return -1;
}

/* The panel shown: the chosen one when the encoding has it. */
enum pe_panel
pe_state_panel(const struct pe_state *st)
{
	const struct pe_pane *p = &st->pane[st->focus];

	if ((unsigned)p->cfg.enc < PE_ENC_COUNT &&
	    pe_enc_has_panel(pe_enc_view_of(&p->cfg), p->panel))
		return p->panel;
	return PE_PANEL_OVERVIEW;
}

/* Rows and columns of the main map for a config (its encoding's row). */
void
pe_state_main_dims(const struct pe_config *cfg, size_t *rows, size_t *cols)
{
	size_t r = 1, c = 1;

	if ((unsigned)cfg->enc < PE_ENC_COUNT)
		pe_field_shape(cfg, pe_enc_view_of(cfg)->main, &r, &c);
	*rows = r > 0 ? r : 1;
	*cols = c > 0 ? c : 1;
}

/* The viewport actually shown: the explicit one, or the whole map. */
void
pe_state_viewport(const struct pe_state *st, size_t rows, size_t cols,
    size_t *r0, size_t *r1, size_t *c0, size_t *c1)
{
	if (st->vr1 == 0) {
		*r0 = 0;
		*r1 = rows;
		*c0 = 0;
		*c1 = cols;
		return;
	}
	*r0 = st->vr0;
	*r1 = st->vr1;
	*c0 = st->vc0;
	*c1 = st->vc1;
}

/* Fit one axis of a viewport [*a0, *a1) inside [0, len), keeping its
 * extent where possible, then shift it so that it holds cur. */
static void
fit_axis(size_t *a0, size_t *a1, size_t len, size_t cur)
{
	size_t ext = *a1 > *a0 ? *a1 - *a0 : 1;

	if (ext > len)
		ext = len;
	if (*a0 > len - ext)
		*a0 = len - ext;
	if (cur < *a0)
		*a0 = cur;
	else if (cur >= *a0 + ext)
		*a0 = cur + 1 - ext;
	*a1 = *a0 + ext;
}

/* Bring cursor and viewport inside the map after any change. */
void
pe_state_clamp(struct pe_state *st)
{
	struct pe_pane *p = cur(st);
	size_t rows, cols;

	pe_state_main_dims(&p->cfg, &rows, &cols);
	if (st->cur_r >= rows)
		st->cur_r = rows - 1;
	if (st->cur_c >= cols)
		st->cur_c = cols - 1;
	if (st->vr1 != 0) {
		if (st->vc1 == 0) {
			st->vc0 = 0;
			st->vc1 = cols;
		}
		fit_axis(&st->vr0, &st->vr1, rows, st->cur_r);
		fit_axis(&st->vc0, &st->vc1, cols, st->cur_c);
		if (st->vr0 == 0 && st->vr1 == rows && st->vc0 == 0 &&
		    st->vc1 == cols)
			st->vr0 = st->vr1 = st->vc0 = st->vc1 = 0;
	} else
		st->vr0 = st->vc0 = st->vc1 = 0;
	/* alibi's heads; relative's toy attention reads a row of its bias */
	size_t heads = pe_config_heads(&p->cfg);
	if (heads == 0 || p->head >= heads)
		p->head = heads > 0 ? heads - 1 : 0;
	if (st->speed < PE_SPEED_MIN)
		st->speed = PE_SPEED_MIN;
	if (st->speed > PE_SPEED_MAX)
		st->speed = PE_SPEED_MAX;
}

/* Start from a config (already checked): whole map, cursor at 0,0, or at
 * the main map's middle row where the encoding's row says so (rope:
 * position n / 2; at m = 0 every
 * pair's angle is 0 and the wheel shows nothing turning; in the middle the
 * hands spread and the score curve has keys on both sides of the query). */
void
pe_state_init(struct pe_state *st, const struct pe_config *cfg)
{
	memset(st, 0, sizeof *st);
	st->pane[PE_PANE_A].cfg = *cfg;
	st->speed = PE_SPEED_DEFAULT;
	if (pe_enc_view_of(cfg)->start_mid) {
		size_t rows, cols;
		pe_state_main_dims(cfg, &rows, &cols);
		st->cur_r = rows / 2;
	}
	pe_state_clamp(st);
}

/* Whether the learned table is one the user supplied (--table-file): its
 * width is fixed. */
static bool
table_fixed(const struct pe_config *cfg)
{
	return cfg->table != NULL && !cfg->table_untrained;
}

/* Check a candidate config; on success install it (clamping cursor and
 * viewport), else keep the old one and put the reason in the status. */
int
pe_state_apply(struct pe_state *st, struct pe_config *cand)
{
	char why[sizeof st->status];

	/* An untrained table follows d_model and max_len: the caller
	 * regenerates it (see the TUI loop) when it is NULL. */
	if (cand->table_untrained &&
	    (cand->d != cur(st)->cfg.d ||
	    cand->max_len != cur(st)->cfg.max_len))
		cand->table = NULL;
	if (pe_config_check(cand, why, sizeof why) != PE_OK) {
		pe_state_status(st, "%s", why);
		return PE_ACT_REDRAW;
	}
	/* what the encoding makes for itself (learned: an untrained table
	 * the caller regenerates) must fit */
	if (pe_config_prepare(cand, NULL, why, sizeof why) != PE_OK) {
		pe_state_status(st, "%s", why);
		return PE_ACT_REDRAW;
	}
	cur(st)->cfg = *cand;
	cur(st)->preset_modified = cur(st)->preset != NULL;
	pe_state_clamp(st);
	return PE_ACT_REDRAW | PE_ACT_REBUILD;
}

/* Change d_model to d (refused with a user-supplied table). */
int
pe_state_set_d(struct pe_state *st, size_t d)
{
	struct pe_config cand = cur(st)->cfg;

	if (table_fixed(&cand)) {
		pe_state_status(st, "d_model %zu: the table file fixes d_model at "
		    "%zu", d, cand.d);
		return PE_ACT_REDRAW;
	}
	cand.d = d;
	return pe_state_apply(st, &cand);
}

/* The d_model and base encoding e defaults to in cfg (pe_config_default's,
 * or its own: pe_config_encoding_defaults). */
static void
encoding_defaults(const struct pe_config *cfg, enum pe_encoding e, size_t *d,
    double *base)
{
	struct pe_config t = *cfg, def;

	pe_config_default(&def);
	t.enc = e;
	t.d = def.d;
	t.base = def.base;
	pe_config_encoding_defaults(&t, false, false);
	*d = t.d;
	*base = t.base;
}

/* Switch to another encoding, keeping every other parameter; d_model and
 * base still at the old encoding's default take the new one's (mrope's
 * head_dim 128, RoPE-ViT's base 100), so a tab shows what `-e` would; when
 * d_model breaks the new encoding's rules, move it to the nearest valid
 * value (up first on a tie) and say so. */
int
pe_state_set_encoding(struct pe_state *st, int enc)
{
	const struct pe_config *now = &cur(st)->cfg;
	struct pe_config cand = *now;
	char why[sizeof st->status] = "";
	bool moved = false;
	int act;

	enc = ((enc % PE_ENC_COUNT) + PE_ENC_COUNT) % PE_ENC_COUNT;
	if ((int)now->enc == enc)
		return PE_ACT_NONE;
	size_t old_d, new_d;
	double old_base, new_base;
	encoding_defaults(now, now->enc, &old_d, &old_base);
	encoding_defaults(now, (enum pe_encoding)enc, &new_d, &new_base);
	cand.enc = (enum pe_encoding)enc;
	if (cand.d == old_d && !table_fixed(&cand))
		cand.d = new_d;
	if (cand.base == old_base)
		cand.base = new_base;
	size_t start_d = cand.d;
	if (pe_config_check(&cand, why, sizeof why) != PE_OK &&
	    !table_fixed(&cand)) {
		for (size_t k = 1; k <= 16; k++) {
			size_t up = start_d + k, down = start_d - k;
			struct pe_config t = cand;

			t.d = up;
			if (up <= PE_MAX_D && pe_config_check(&t, NULL, 0) == PE_OK) {
				cand = t;
				moved = true;
				break;
			}
			t.d = down;
			if (start_d > k && pe_config_check(&t, NULL, 0) == PE_OK) {
				cand = t;
				moved = true;
				break;
			}
		}
	}
	act = pe_state_apply(st, &cand);
	if (!(act & PE_ACT_REBUILD))
		return act;
	st->vr0 = st->vr1 = st->vc0 = st->vc1 = 0;
	pe_state_clamp(st);
	if (moved)
		pe_state_status(st, "d_model %zu -> %zu for %s: %s", start_d,
		    now->d, pe_encoding_name(now->enc), why);
	return act;
}

/* ---- compare mode: two panes, one cursor ------------------------------ */

/* The pane the keys act on. */
enum pe_pane_id
pe_state_focused(const struct pe_state *st)
{
	return st->focus;
}

/* Pane `pane`'s config. */
struct pe_config *
pe_state_pane_cfg(struct pe_state *st, enum pe_pane_id pane)
{
	return &st->pane[pane].cfg;
}

/* Pane `pane` as a state of its own (compare off), clamped to its map. */
void
pe_state_pane(const struct pe_state *st, enum pe_pane_id pane,
    struct pe_state *dest)
{
	*dest = *st;
	dest->pane[PE_PANE_A] = st->pane[pane];
	memset(&dest->pane[PE_PANE_B], 0, sizeof dest->pane[PE_PANE_B]);
	dest->focus = PE_PANE_A;
	dest->compare = false;
	pe_state_clamp(dest);
}

/* x: compare on (pane B a copy of pane A, and the keys act on it) or off
 * (pane A stays, B's settings go). */
int
pe_state_compare(struct pe_state *st, bool on)
{
	if (on == st->compare)
		return PE_ACT_NONE;
	if (!on) {
		memset(&st->pane[PE_PANE_B], 0, sizeof st->pane[PE_PANE_B]);
		st->focus = PE_PANE_A;
		st->compare = false;
		pe_state_clamp(st);
		pe_state_status(st, "compare off: pane A's settings stay");
		return PE_ACT_REDRAW;
	}
	st->pane[PE_PANE_B] = st->pane[PE_PANE_A];
	st->focus = PE_PANE_B;
	st->compare = true;
	/* B's untrained learned table is its own (the TUI regenerates it,
	 * the same numbers), so that A's can change without B's going */
	if (st->pane[PE_PANE_B].cfg.table_untrained)
		st->pane[PE_PANE_B].cfg.table = NULL;
	pe_state_status(st, "compare on: B is a copy of A and the keys change "
	    "B; X focuses A, x ends compare");
	return PE_ACT_REDRAW | PE_ACT_REBUILD;
}

/* X or a click: the keys act on pane `pane` from now on. */
int
pe_state_focus(struct pe_state *st, enum pe_pane_id pane)
{
	if (!st->compare) {
		pe_state_status(st, "one pane only: x starts compare mode");
		return PE_ACT_REDRAW;
	}
	if (pane == st->focus)
		return PE_ACT_NONE;
	st->focus = pane;
	pe_state_clamp(st);
	return PE_ACT_REDRAW;
}

/* Move the cursor to an element (mouse click); clamps. */
int
pe_state_point(struct pe_state *st, size_t r, size_t c)
{
	st->cur_r = r;
	st->cur_c = c;
	pe_state_clamp(st);
	return PE_ACT_REDRAW;
}

/* New extent of one viewport axis after zooming by 2^steps. */
static size_t
zoom_extent(size_t ext, size_t len, int steps)
{
	size_t lo = len < ZOOM_MIN ? len : ZOOM_MIN;

	for (; steps > 0; steps--)
		ext /= 2;
	for (; steps < 0 && ext < len; steps++)
		ext = ext > len / 2 ? len : ext * 2;
	if (ext < lo)
		ext = lo;
	return ext > len ? len : ext;
}

/* Place a new extent on one axis so that element p (its centre) keeps its
 * relative place, and stays inside. */
static void
zoom_axis(size_t a0, size_t a1, size_t ext, size_t len, size_t p,
    size_t *n0, size_t *n1)
{
	double old = a1 > a0 ? (double)(a1 - a0) : 1.0;
	double centre = (double)p + 0.5;
	double f = centre > (double)a0 ? (centre - (double)a0) / old : 0.0;
	double s = centre - f * (double)ext;
	size_t v0 = s > 0 ? (size_t)(s + 0.5) : 0;

	if (v0 > len - ext)
		v0 = len - ext;
	if (p < v0)
		v0 = p;
	else if (p >= v0 + ext)
		v0 = p + 1 - ext;
	*n0 = v0;
	*n1 = v0 + ext;
}

/* Zoom the viewport by 2^steps (negative: out) around (r, c). */
int
pe_state_zoom(struct pe_state *st, int steps, size_t r, size_t c)
{
	size_t rows, cols, r0, r1, c0, c1;

	pe_state_main_dims(&cur(st)->cfg, &rows, &cols);
	pe_state_viewport(st, rows, cols, &r0, &r1, &c0, &c1);
	if (r >= rows)
		r = rows - 1;
	if (c >= cols)
		c = cols - 1;
	size_t er = zoom_extent(r1 - r0, rows, steps);
	size_t ec = zoom_extent(c1 - c0, cols, steps);
	if (er == r1 - r0 && ec == c1 - c0) {
		pe_state_status(st, steps > 0 ? "zoomed in as far as it goes (%zu x %zu)"
				     : "the whole map is shown (%zu x %zu)",
		    er, ec);
		return PE_ACT_REDRAW;
	}
	if (er == rows && ec == cols) {
		st->vr0 = st->vr1 = st->vc0 = st->vc1 = 0;
		pe_state_clamp(st);
		return PE_ACT_REDRAW;
	}
	zoom_axis(r0, r1, er, rows, r, &st->vr0, &st->vr1);
	zoom_axis(c0, c1, ec, cols, c, &st->vc0, &st->vc1);
	/* The cursor stays visible: one the new viewport leaves out goes to
	 * the element zoomed around (the pointer's, with the wheel), which
	 * the viewport holds, not to its edge (an element nobody chose) */
	if (st->cur_r < st->vr0 || st->cur_r >= st->vr1 ||
	    st->cur_c < st->vc0 || st->cur_c >= st->vc1)
		st->cur_r = r, st->cur_c = c;
	pe_state_clamp(st);
	return PE_ACT_REDRAW;
}

/* Show layer `layer` of the focused pane's model. */
int
pe_state_layer(struct pe_state *st, size_t layer)
{
	struct pe_pane *p = &st->pane[st->focus];
	char kind[128];

	if (p->arch == NULL) {
		pe_state_status(st, "no model: --config FILE reads one "
		    "(its layers are then , and .)");
		return PE_ACT_REDRAW;
	}
	if (layer >= p->arch->nlayers) {
		pe_state_status(st, "layer %zu: the model has %zu layers "
		    "(0 to %zu)", layer, p->arch->nlayers,
		    p->arch->nlayers - 1);
		return PE_ACT_REDRAW;
	}
	const struct pe_layer *l = &p->arch->layers[layer];
	struct pe_config c = l->cfg;
	c.n = p->cfg.n;
	c.teach = p->cfg.teach;
	if ((pe_config_def(&c)->params & PE_PARAM_TABLE) && c.table == NULL) {
		/* the untrained table the pane has, when it fits (else the
		 * caller regenerates it: pe_state_apply) */
		c.table = p->cfg.table;
		c.table_untrained = true;
	}
	int act = pe_state_apply(st, &c);
	if (!(act & PE_ACT_REBUILD)) {
		char why[sizeof st->status];
		snprintf(why, sizeof why, "%s", st->status);
		pe_state_status(st, "layer %zu: %s", layer, why);
		return act;
	}
	p->layer = layer;
	p->preset_modified = false;
	pe_layer_describe(l, kind, sizeof kind);
	pe_state_status(st, "layer %zu/%zu: %s", layer, p->arch->nlayers,
	    kind);
	return act;
}
