/* Private to view/: what a frame's drawing functions share, and the
 * per-encoding views that view.c dispatches to. */
#ifndef PESCOPE_VIEW_IMPL_H
#define PESCOPE_VIEW_IMPL_H

#include "view/encoding.h"
#include "view/panels.h"
#include "view/view.h"


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
	int status;	   /* the first kernel failure of the frame, or PE_OK */
};

/* Record a panel's status (the frame returns the first failure); when
 * rc is a failure and w > 0, also say so at (x, y) in the panel. Returns
 * rc. */
int view_check(struct ctx *c, int rc, int x, int y, int w);

/* A line of items, each with a priority (0 most important), for
 * pe_text_pick: the parameter line and the footer's key hints. */
struct items {
	char text[16][160];
	const char *ptr[16];
	int prio[16];
	size_t n;
};

/* Append an item of priority prio (view.c). */
void view_item(struct items *it, int prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* view_map.c: the main map, its inspector block and the dot-product panels */
void view_cat(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void view_map_main(struct ctx *c, const struct pe_scale *sc, const char *title,
    const char *fmt, const char *legend);
void view_map_inspect(struct ctx *c, const char *rname, const char *cname);
double view_map_sim_bound(const struct pe_model *m);
void view_map_dot(struct ctx *c, int x, int y, int w, int h, size_t p,
    const char *what);
void view_map_simmap(struct ctx *c, int x, int y, int w, int h,
    const char *title);
void view_map_row(struct ctx *c, int x, int y, int w, int h, size_t p,
    const char *title, double lo, double hi, const char *cname);

/* Each encoding's row (view/encoding.h), beside its view: view_vector.c,
 * view_pairwise.c, view_rope.c, view_vit2d.c, view_mrope.c, view_xpos.c,
 * view_rope2d.c. */
extern const struct pe_enc_view view_sinusoidal_row, view_learned_row,
    view_relative_row, view_rope_row, view_alibi_row, view_nope_row,
    view_vit2d_row, view_mrope_row, view_xpos_row, view_rope2d_row;

#endif
