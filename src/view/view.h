/* Views: for each encoding a pure function from the state to a filled
 * canvas. The TUI and `pescope snapshot` call the same function, so a
 * snapshot is the frame. */
#ifndef PESCOPE_VIEW_VIEW_H
#define PESCOPE_VIEW_VIEW_H

#include "render/canvas.h"
#include "pescope/field.h"
#include "view/state.h"

/* Smallest frame a view draws; below it, a "terminal too small" message. */
#define PE_VIEW_MIN_W 80
#define PE_VIEW_MIN_H 24

struct pe_view_cache;

/* Data derived from a config once (fields and their caches); rebuilt only
 * when the config changes (PE_ACT_REBUILD). */
struct pe_model {
	struct pe_config cfg; /* the copy the fields point at */
	struct pe_field main; /* the main map */
	struct pe_field sim;  /* similarity (when the encoding has one) */
	bool has_sim;
	struct pe_config base_cfg; /* rope: the same, unscaled */
	struct pe_field base;	   /* its similarity, for comparison */
	bool has_base;
	double learned_absmax; /* learned: max |table| over the shown rows */
	double sim_bound;      /* a bound of |S| the row's model hook found
				  (learned: max |PE_p|^2); 0: S(0, 0) */
	struct pe_view_cache *cache; /* what panels compute once for this
					config, filled on first use
					(view_impl.h) */
	/* compare mode: the unfocused pane's model (its pane's config), which
	 * the caller owns and sets before pe_view_render; NULL: none */
	const struct pe_model *other;
};

int pe_model_init(struct pe_model *m, const struct pe_config *cfg);
void pe_model_free(struct pe_model *m);

/* Where things landed on the last frame, for mouse hit-testing. */
struct pe_hit {
	bool too_small;
	int tab_y, tab_x0[PE_ENC_COUNT], tab_x1[PE_ENC_COUNT]; /* tab_y -1:
					   no tab bar */
	int map_x, map_y, map_w, map_h; /* the main map's cells */
	size_t r0, r1, c0, c1;		/* the viewport it shows */
	size_t nsr, nsc;		/* samples: rows (2 per cell), cols */
	int map_cw;			/* cells a column sample is wide (2 in
					   the presenter view) */
	size_t cell_rows, cell_cols;	/* elements the smallest sample covers:
					   a cursor step */
	size_t pnr, pnc;		/* the map's pixel layer's samples
					   (0: none; then nsr, nsc count) */
	int px_w, px_h;			/* its pixels a cell */
	int panel_x;			/* the right column's first cell (its
					   width follows the panel's needs) */
	/* compare mode: the fields above are the focused pane's map; this
	 * is the other pane's (w == 0: not drawn) */
	struct {
		int x, y, w, h, cw;
		size_t r0, r1, c0, c1, nsr, nsc, pnr, pnc;
	} other;
};

/* Draw the whole frame for st into cv (its size is the frame's); in
 * compare mode (st->compare) two panes from m and m->other. hit may be
 * NULL. Returns PE_OK, or the first status a panel's kernel call
 * failed with (PE_ENOMEM; PE_EINTR when the interrupt check stopped a
 * grid); each failed panel says so in the frame. */
int pe_view_render(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit);

/* Map a screen cell (x, y) of the main map to a matrix element; false when
 * outside. */
bool pe_view_hit_map(const struct pe_hit *hit, int x, int y, size_t *r,
    size_t *c);
/* The same for the other pane's map in compare mode (a click there moves
 * the focus, then the cursor). */
bool pe_view_hit_other(const struct pe_hit *hit, int x, int y, size_t *r,
    size_t *c);
/* The same from a pixel (px, py) of the screen, whose cells are cw x ch
 * pixels (SGR-Pixels mouse reports): in the map's pixel layer, the sample
 * under that pixel, not the cell's middle one. */
bool pe_view_hit_map_px(const struct pe_hit *hit, int px, int py, int cw,
    int ch, size_t *r, size_t *c);
bool pe_view_hit_other_px(const struct pe_hit *hit, int px, int py, int cw,
    int ch, size_t *r, size_t *c);

#endif
