/* Program state: what the TUI changes with keys and what a view draws.
 * Pure data and pure transitions (keys -> state), testable without a
 * terminal. */
#ifndef PESCOPE_VIEW_STATE_H
#define PESCOPE_VIEW_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "render/palette.h"
#include "pescope/model.h"
#include "pescope/pescope.h"

struct pe_lesson;

/* Keys, terminal-independent: printable ASCII as itself, the rest here. */
enum pe_key {
	PE_KEY_ESC = 27,
	PE_KEY_TAB = 9,
	PE_KEY_ENTER = 13,
	PE_KEY_UP = 0x110000,
	PE_KEY_DOWN,
	PE_KEY_LEFT,
	PE_KEY_RIGHT,
	PE_KEY_PGUP,
	PE_KEY_PGDN,
	PE_KEY_HOME,
	PE_KEY_END,
	PE_KEY_BTAB, /* shift-tab */
	PE_KEY_TICK, /* animation timer */
	PE_KEY_ALT = 0x40000000, /* bit: a printable key with Alt (b/B: the
				    base by ×10 instead of ×2) */
};

/* The right column's panel (the c / C keys, --panel). The overview is each
 * encoding's own right column; a row (view/encoding.h) lists the others it
 * has. */
enum pe_panel {
	PE_PANEL_OVERVIEW,  /* the encoding's own right column */
	PE_PANEL_ATTENTION, /* toy attention over a sentence, and permuted */
	PE_PANEL_EXAMPLE,   /* x + PE(p) (rope: R_p x), norms and angle */
	PE_PANEL_SHIFT,	    /* sinusoidal: M_K and its residual */
	PE_PANEL_DECAY,	    /* rope: RoFormer's bound beside the score */
	PE_PANEL_RECENCY,   /* alibi: a late query's attention from biases */
	PE_PANEL_SHARE,	    /* nope: the start token's share 1/(i+1) */
	PE_PANEL_MASK,	    /* rope, nope: a window beside chunks (attn.h) */
	PE_PANEL_SINKS,	    /* rope, nope: the share a head's sink takes */
	PE_PANEL_TEMPERATURE, /* nope: Llama 4's query scale by position */
	PE_PANEL_SPLIT,	    /* rope: a score's content and position parts */
	PE_PANEL_COUNT
};

/* What a transition asks of the caller (htop's HANDLED/REDRAW/...). */
enum pe_action {
	PE_ACT_NONE = 0,
	PE_ACT_REDRAW = 1 << 0,	  /* state changed: draw a new frame */
	PE_ACT_REBUILD = 1 << 1,  /* config changed: rebuild the model */
	PE_ACT_QUIT = 1 << 2,
	PE_ACT_SNAPSHOT = 1 << 3, /* write the frame to files */
};

/* The panes of compare mode. */
enum pe_pane_id { PE_PANE_A, PE_PANE_B };

/* What a pane owns: a lesson step replaces it, compare mode copies it.
 * The rest of struct pe_state (the cursor, the viewport, help, values,
 * the animation) the panes share. */
struct pe_pane {
	struct pe_config cfg;
	size_t head;		   /* alibi: the head drawn large */
	enum pe_panel panel;	   /* the right column's panel, when the
				      encoding has it (pe_state_panel) */
	const char *preset;	   /* preset name shown in the title, or NULL */
	bool preset_modified;	   /* the config no longer is the preset's */
	const struct pe_arch *arch; /* the model (--config) cfg is a layer
				      of, or NULL; its owner outlives the
				      state */
	size_t layer;		   /* that layer */
	bool head_own_scale;	   /* alibi: the large head's colors on its
				      own scale (o, --head-scale own), not
				      the one every head shares */
};

/* What the session keeps whatever a key or a lesson's step changes: the
 * view mode, the lesson running and where in it, the link. */
struct pe_session {
	bool present;		   /* presenter view (P, --present): no tab
				      bar or key hints, column samples 2
				      cells wide, plots in blocks */
	bool no_chrome;		   /* snapshot --no-chrome: no tab bar and
				      no key hints, samples as usual */
	const struct pe_lesson *lesson; /* the lesson running (view/lesson.h),
				   or NULL */
	size_t scene, step;	   /* its scene and the scene's step shown */
	bool speaker;		   /* the speaker's view: notes, next scene,
				      clock (lesson --speaker) */
	bool notes;		   /* the notes over the frame (the i key) */
	bool blank;		   /* the audience's screen is blank (b or .
				      in a lesson, as a clicker's blank
				      key); any key brings it back */
	bool clock_reset;	   /* R: the lesson's clock starts again
				      (the session's hook does it) */
	/* the preset picker (e): the presets --preset takes, given by the
	 * program (app/picker.c), the one marked, and the one asked for,
	 * which the TUI's hook applies to the focused pane */
	const char *const *presets; /* [npresets] names, or NULL */
	const char *const *preset_about; /* [npresets] descriptions */
	size_t npresets;
	bool picker;		   /* the picker is open */
	size_t pick;		   /* its marked line */
	const char *want_preset;   /* chosen, not applied yet; or NULL */
	bool caption_below;	   /* the frame leaves the caption out (a
				      handout page prints it below) */
	double elapsed;		   /* seconds since the lesson started, for
				      the speaker's clock; < 0: unknown */
	char link[160];		   /* how the link to the other instance
				      stands, or "" (no link) */
};

/* What a key asks of a pane's training run (--train), which the TUI's
 * loop does and clears. */
enum pe_train_req {
	PE_TRAIN_REQ_NONE,
	PE_TRAIN_REQ_STEP,    /* one more step (s) */
	PE_TRAIN_REQ_RESTART, /* start again from the seed (r) */
};

struct pe_state {
	/* pane[PE_PANE_A], and with compare (--compare; x, X) pane B beside
	 * it; the keys change pane[focus] (A without compare) */
	struct pe_pane pane[2];
	enum pe_pane_id focus;
	bool compare;
	size_t cur_r, cur_c;	   /* cursor: an exact element of the main
				      map */
	size_t vr0, vr1, vc0, vc1; /* viewport of the main map: [vr0,vr1) x
				      [vc0,vc1); vr1 == 0 means the whole map */
	bool playing;		   /* animation: the cursor sweeps positions */
	int speed;		   /* animation steps per second, 1..64 */
	bool help;		   /* the help overlay is up */
	bool values;		   /* numbers over the colors where a sample
				      is one element and they fit */
	char status[200];	   /* a message for the status line, or "" */
	char status_note[200];	   /* a status that only notes (the graphics
				      in use): drawn dim while it is the
				      status, not as a warning */
	bool model_view;	   /* the body shows the focused pane's model,
				      every layer (L; needs a model) */
	bool train_paused;	   /* --train: the runs do not train between
				      frames (space) */
	enum pe_train_req train_req; /* for the focused pane's run */
	struct pe_session session;
};

/* The animation's speed: steps per second. */
#define PE_SPEED_MIN 1
#define PE_SPEED_MAX 64
#define PE_SPEED_DEFAULT 8

/* Start from a config (already checked): whole map, cursor at 0,0 (rope:
 * at the main map's middle row, where the rotation shows). */
void pe_state_init(struct pe_state *st, const struct pe_config *cfg);

/* Rows and columns of the main map for a config:
 *   sinusoidal, learned: n x d        rope: n x rot/2 (pairs)
 *   relative, alibi, nope: n x n      vit2d: grid_h x grid_w (patches) */
void pe_state_main_dims(const struct pe_config *cfg, size_t *rows,
    size_t *cols);

/* Show layer `layer` of the focused pane's model: its config replaces
 * the pane's (the sequence length and the teaching inputs stay), checked
 * first. Returns PE_ACT_REBUILD, or PE_ACT_REDRAW with the reason in the
 * status (no model; past its layers, naming the count; a config the
 * kernel refuses). */
int pe_state_layer(struct pe_state *st, size_t layer);

/* Bring cursor and viewport inside the map after any change. */
void pe_state_clamp(struct pe_state *st);

/* The viewport shown of a map of rows x cols: [r0, r1) x [c0, c1), the
 * explicit one or the whole map. */
void pe_state_viewport(const struct pe_state *st, size_t rows, size_t cols,
    size_t *r0, size_t *r1, size_t *c0, size_t *c1);

/* Apply one key. `cell_rows`/`cell_cols` are the matrix rows / columns one
 * screen cell of the main map covers now (for moves of one cell); pass 1
 * when unknown. Returns enum pe_action bits. A refused change leaves the
 * state valid and explains itself in st->status. */
int pe_state_key(struct pe_state *st, int key, size_t cell_rows,
    size_t cell_cols);

/* Switch to encoding enc (a tab click; the number keys), keeping every
 * other parameter where the new encoding allows it; d_model and base still
 * at the old encoding's default take the new encoding's. */
int pe_state_set_encoding(struct pe_state *st, int enc);

/* Change d_model to d (d/D): refused with a user-supplied table. */
int pe_state_set_d(struct pe_state *st, size_t d);

/* For the encodings' own keys (view/encoding.h): install a candidate
 * config when pe_config_check takes it (PE_ACT_REDRAW | PE_ACT_REBUILD),
 * else keep the old one and say why; and write the status line. */
int pe_state_apply(struct pe_state *st, struct pe_config *cand);
void pe_state_status(struct pe_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Whether the status is a note (status_note), drawn dim. */
bool pe_state_status_is_note(const struct pe_state *st);

/* The panel the right column shows: st->panel when the encoding has it,
 * else its overview. */
enum pe_panel pe_state_panel(const struct pe_state *st);

/* A panel's name ("attention"), and the reverse (-1 if unknown). */
const char *pe_panel_name(enum pe_panel p);
int pe_panel_parse(const char *name);

/* Compare mode. pe_state_compare turns it on (pane B a copy of pane A,
 * focused) or off (pane A stays); pe_state_focus moves the keys to pane
 * `pane` (X, a click in a pane), clamping the shared cursor and viewport
 * to its map. Both return enum pe_action bits. */
int pe_state_compare(struct pe_state *st, bool on);
int pe_state_focus(struct pe_state *st, enum pe_pane_id pane);
/* The pane the keys act on: PE_PANE_A when compare is off. */
enum pe_pane_id pe_state_focused(const struct pe_state *st);
/* Pane `pane` as a state of its own, for drawing it: its settings, the
 * shared cursor and viewport clamped to its map, compare off. */
void pe_state_pane(const struct pe_state *st, enum pe_pane_id pane,
    struct pe_state *dest);
/* Pane `pane`'s config (the TUI builds a model from it, regenerates its
 * untrained learned table, restores it when a model cannot be built). */
struct pe_config *pe_state_pane_cfg(struct pe_state *st, enum pe_pane_id pane);

/* Move the cursor to an element (mouse click); clamps. */
int pe_state_point(struct pe_state *st, size_t r, size_t c);
/* Zoom the viewport by 2^steps (negative: out) around (r, c). */
int pe_state_zoom(struct pe_state *st, int steps, size_t r, size_t c);

#endif
