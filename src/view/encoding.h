/* One row per encoding (in the spirit of ncdu's dir_output and tmux's
 * cmd_entry): what the tab bar, the keys, the help, the footer and the
 * frame need to know of an encoding. The rows live beside each view
 * (view_<kind>.c); pe_enc_views (encoding.c) indexes them by enum
 * pe_encoding. Adding an encoding is a kernel file, a view file with its
 * row, one line in pe_enc_views, a test file and a golden frame. */
#ifndef PESCOPE_VIEW_ENCODING_H
#define PESCOPE_VIEW_ENCODING_H

#include <stdbool.h>
#include <stddef.h>

#include "pescope/field.h"
#include "pescope/pescope.h"
#include "view/state.h"

struct pe_state;
struct pe_model;
struct ctx;
struct items;

/* A key an encoding owns. */
struct pe_enc_key {
	const char *keys;  /* the characters that press it: "sS" */
	const char *label; /* as the help and the footer show them: "s/S" */
	const char *what;  /* what it changes, in a few words: "scaling" */
	/* The transition: PE_ACT_* bits; a refusal sets st->status. NULL:
	 * a key every encoding that lists it shares (d/D, n/N, b/B), which
	 * state.c handles. */
	int (*press)(struct pe_state *st, int key);
};

/* The shared keys, for the rows' lists (the label says what it is here). */
#define PE_SHARED_D_MODEL(what) {"dD", "d/D", what, NULL}
#define PE_SHARED_SEQ_LEN {"nN", "n/N", "seq_len", NULL}
#define PE_SHARED_BASE {"bB", "b/B", "base", NULL}
#define PE_KEYS_END {NULL, NULL, NULL, NULL}

/* A panel of the right column besides the overview (state.h). */
struct pe_enc_panel {
	enum pe_panel id;
	/* Draws the right column (c->rx, c->by, c->rw, c->bh) and its
	 * inspector line (c->panel_insp); NULL ends a row's list. */
	void (*draw)(struct ctx *c);
	/* The right column's width it needs to draw its matrices whole (the
	 * main map then gives up the room), or 0; NULL: the usual share. */
	int (*width)(const struct ctx *c);
};

struct pe_enc_view {
	enum pe_field_kind main; /* the main map's field */
	bool sweep_2d;		 /* the animation walks rows and columns */
	bool start_mid;		 /* the cursor starts at the middle row */
	/* The parameter line's items (pane.c lays them out). */
	void (*params)(struct ctx *c, struct items *it);
	/* The main map, the right column and the inspector lines. */
	void (*draw)(struct ctx *c);
	/* Its keys, shared ones included, in the order the footer shows
	 * them; ends with PE_KEYS_END. */
	const struct pe_enc_key *keys;
	/* Whether key k of `keys` acts on cfg (the footer lists only those:
	 * Shaw's clipping has no max_distance and no direction); NULL: every
	 * key does. */
	bool (*key_acts)(const struct pe_config *cfg,
	    const struct pe_enc_key *k);
	/* The panels it has besides the overview, in the order c cycles
	 * them, ending with {0, NULL}; NULL: the overview only. With them,
	 * `map` draws the main map and its inspector alone (the panels'
	 * frames, and compare mode's narrow panes), and `draw` is the
	 * overview's. Every row has one. */
	const struct pe_enc_panel *panels;
	void (*map)(struct ctx *c);
	/* Its main map's rows are not sequence positions (vit2d: patch
	 * rows): --train-len marks none. */
	bool rows_not_positions;
	/* What it derives once per config into the model besides the main
	 * and similarity fields (learned: the table's range; rope: the
	 * unscaled similarity); NULL: nothing. PE_OK or a PE_* status. */
	int (*model)(struct pe_model *m);
};

extern const struct pe_enc_view *const pe_enc_views[PE_ENC_COUNT];

/* The row of cfg's encoding. */
const struct pe_enc_view *pe_enc_view_of(const struct pe_config *cfg);

/* The row's panel p, or NULL (the overview, or a panel it lacks). */
const struct pe_enc_panel *pe_enc_panel_of(const struct pe_enc_view *v,
    enum pe_panel p);

/* Whether the row has panel p (the overview: always). */
bool pe_enc_has_panel(const struct pe_enc_view *v, enum pe_panel p);

/* The encoding's key for `key`, or NULL. */
const struct pe_enc_key *pe_enc_key_of(const struct pe_enc_view *v, int key);

#endif
