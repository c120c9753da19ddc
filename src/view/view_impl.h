/* Private to view/: what a frame's drawing functions share, and the
 * per-encoding views that pane.c dispatches to. */
#ifndef PESCOPE_VIEW_IMPL_H
#define PESCOPE_VIEW_IMPL_H

#include "pescope/toy.h"
#include "view/encoding.h"
#include "view/panels.h"
#include "view/view.h"


/* What panels compute once per model (one config) and keep across frames:
 * filled on first use, keyed by what else it depends on. */
struct pe_view_cache {
	/* view_toy.c: the toy attention of head toy_head */
	bool toy_done;
	size_t toy_head;
	int toy_rc;		/* PE_OK, PE_EINVAL (toy_why), PE_ENOMEM */
	char toy_why[400];
	struct pe_toy_sentence toy_s, toy_p; /* the sentence; permuted */
	size_t toy_perm[PE_TOY_MAX_TOKENS];
	double toy_a[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS]; /* A */
	double toy_b[PE_TOY_MAX_TOKENS * PE_TOY_MAX_TOKENS]; /* P A' P^T */
	double toy_gap;		/* pe_toy_permutation_gap's (pe_toy_gap) */
	/* view_rope.c: the decay bound at one distance per plot sample */
	double *decay;
	size_t decay_ns;
	/* panels.c: the main map's pictures, kept while they show what
	 * they showed */
	struct map_keep pictures[MAP_KEEP];
	struct map_keep_cells cells[MAP_KEEP];
	/* view_xpos.c: plain RoPE's similarity at xpos's frequencies (its
	 * config, which the field points to), made on first use (xpos_rc
	 * its status, xpos_done once tried); the envelope at xpos_env_ns
	 * samples */
	bool xpos_done;
	int xpos_rc;
	struct pe_config xpos_cfg;
	struct pe_field xpos_rope;
	double *xpos_env;
	size_t xpos_env_ns;
	/* view_map.c: the similarity map's block means (view_map_simmap),
	 * which no cursor move changes */
	struct map_keep_cells sim_cells[MAP_KEEP];
};

/* What one frame's drawing functions share. */
struct ctx {
	const struct pe_state *st;
	const struct pe_pane *pane; /* the pane drawn: st->pane[st->focus] */
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
	char panel_insp[512]; /* a panel's formula line (the first line
				 then; the map's formula the second) */
	int status;	   /* the first kernel failure of the frame, or PE_OK */
	struct pe_scale scale; /* the main map's scale as drawn (vit2d's
				  small maps take it) */
	/* compare mode (view_compare.c): a pane's frame */
	bool in_compare;
	bool probe;	   /* view_map_main only notes the scale it is
			      given (in scale) and draws nothing */
	const struct pe_scale *share; /* the main map's scale, shared by
					 both panes (same field kind) */
	double sim_bound;  /* the dot products' range, shared; 0: own */
};

/* Record a panel's status (the frame returns the first failure); when
 * rc is a failure and w > 0, also say so at (x, y) in the panel. Returns
 * rc. */
int view_check(struct ctx *c, int rc, int x, int y, int w);

/* A line of items, each with a priority (0 most important), for
 * pe_text_pick: the parameter line and the footer's key hints. */
struct items {
	char text[24][160];
	const char *ptr[24];
	int prio[24];
	size_t n;
};

/* Append an item of priority prio (pane.c). */
void view_item(struct items *it, int prio, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* pane.c: printf into buf[cap] after what it holds. */
void view_cat(char *buf, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* view_map.c: the main map, its inspector block and the dot-product panels */
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
/* --train-len on a plot whose ns samples cover positions [0, n): the
 * positions past it marked (nothing without --train-len, or with the
 * main map's rows not positions). */
void view_map_mark_plot(struct ctx *c, int x, int y, int w, int h, size_t n,
    size_t ns);
/* The --train-len L a view marks, or 0. */
size_t view_map_train_len(const struct ctx *c);

/* pane.c: a frame's or a pane's ctx (view_ctx_init); a parameter line
 * at (x, y), w cells (made: its items, when not NULL; pane B's: other
 * is pane A's items, and what B shares with A goes first when the line
 * is short); the row's view (its overview, or the main map and
 * the chosen panel) in the ctx's body. */
void view_ctx_init(struct ctx *c, const struct pe_state *st,
    const struct pe_model *m, struct pe_canvas *cv, struct pe_hit *hit);
void view_params(struct ctx *c, const struct items *other,
    struct items *made, int x, int y, int w);
/* model_view.c: the body as the model view (every layer of the focused
 * pane's model), its inspector lines the layer shown and the notes. */
void view_model_body(struct ctx *c);
void view_body(struct ctx *c);
/* view_compare.c: the body of a compare frame (two panes, each drawn on
 * a canvas of its own, and the difference strip) and its inspector
 * lines. */
void view_compare(struct ctx *c);

/* view_toy.c: the toy attention panel (every encoding but vit2d), and
 * the width its two maps need with every token a column. */
void view_toy_panel(struct ctx *c);
int view_toy_width(const struct ctx *c);

/* view_attn.c: the attention shape's panels (rope, nope: the mask, the
 * sinks; nope: the temperature; rope: the score split) and its keys (o the
 * span, k/K its size, </> the sinks' head, u/U a decoupled head's rotated
 * part, t the temperature). */
void view_attn_mask(struct ctx *c);
void view_attn_params(struct ctx *c, struct items *it);
void view_attn_sinks(struct ctx *c);
void view_attn_temperature(struct ctx *c);
void view_attn_split(struct ctx *c);
int view_attn_span_key(struct pe_state *st, int key);
int view_attn_size_key(struct pe_state *st, int key);
int view_attn_head_key(struct pe_state *st, int key);
int view_attn_rope_dim_key(struct pe_state *st, int key);
int view_attn_temperature_key(struct pe_state *st, int key);
/* Whether k is one of the keys above (the footer drops them first: they
 * are in the help, and c/C reaches their panels). */
bool view_attn_key(const struct pe_enc_key *k);

/* view_example.c: the worked example, x + PE(p) or R_p x, at the
 * cursor's position. */
void view_example_sum(struct ctx *c);
void view_example_rotated(struct ctx *c);
/* view_example.c: the width the example's numbers need (panel rows). */
int view_example_width(const struct ctx *c);

/* view_example.c: the worked example's x (--embedding when it has d
 * numbers, else a toy word's), and where it came from into src[cap]. */
void view_example_vector(const struct pe_config *cfg, double *x, char *src,
    size_t cap);

/* view.c: one view's frame (tabs, parameter line, body, inspector, status)
 * at cv's size, at least PE_VIEW_MIN_W x PE_LESSON_VIEW_MIN_H. */
int view_frame(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit);
/* What a lesson's scene holds across its steps, so that nothing moves
 * when a step changes the view: the main map's scale (NULL: the view's
 * own), the score axis's range (0: its own); and whether the chosen
 * panel fills the body alone (the scene is about it). */
struct view_hold {
	const struct pe_scale *scale;
	double sim_bound;
	bool panel_only;
};
/* view.c: view_frame, held (hold may be NULL). */
int view_frame_held(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit, const struct view_hold *hold);
/* picker.c: the preset picker's list over the frame (view/picker.h). */
void view_picker(const struct pe_state *st, struct pe_canvas *cv);
/* view.c: the help overlay over the whole of cv. */
void view_help(struct pe_canvas *cv);
/* lesson_frame.c: the lesson's frame: the scene line, the view, the
 * caption; or the speaker's. */
int view_lesson_frame(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, struct pe_hit *hit);

/* view_vit2d.c: the small map of every patch, for vit2d and rope2d. */
void view_patch_maps(struct ctx *c, const struct pe_scale *sc);

/* Each encoding's row (view/encoding.h), beside its view: view_vector.c,
 * view_pairwise.c, view_rope.c, view_vit2d.c, view_mrope.c, view_xpos.c,
 * view_rope2d.c. */
extern const struct pe_enc_view view_sinusoidal_row, view_learned_row,
    view_relative_row, view_rope_row, view_alibi_row, view_nope_row,
    view_vit2d_row, view_mrope_row, view_xpos_row, view_rope2d_row;

#endif
