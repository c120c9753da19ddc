/* The terminal front end: the only code that talks to curses.
 *   crt.c    init / teardown, colors, drawing a canvas (htop's CRT)
 *   crt_signal.c  the signals that must give the terminal back
 *   input.c  curses keys and mouse -> enum pe_key / clicks / wheel
 *   loop.c   the event loop (pe_tui_run)
 *   graphics.c  pictures in the terminal: protocol detection, chafa */
#ifndef PESCOPE_TUI_TUI_H
#define PESCOPE_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "render/canvas.h"
#include "render/palette.h"

/* How the maps' pixel layers reach the terminal: auto (ask it), one of
 * the image protocols (kitty's graphics protocol, iTerm2's inline
 * images, DEC sixel), or cells (text only: the frame is the cells). */
enum pe_gfx { PE_GFX_AUTO, PE_GFX_KITTY, PE_GFX_ITERM, PE_GFX_SIXEL,
    PE_GFX_CELLS, PE_GFX_COUNT };
const char *pe_gfx_name(enum pe_gfx g);
int pe_gfx_parse(const char *s); /* -1 when unknown */

/* ---- crt.c ------------------------------------------------------------ */

/* Start curses on the controlling terminal. record: the name of a file to
 * record the session into (record.c), or NULL; what can be told of it by
 * looking is checked first, the terminal next, and only then is the file
 * created (a temporary file beside the name). depth: a forced enum pe_depth
 * (--color; a depth the terminfo entry lacks is described to curses with
 * an entry built by tic), or -1 to decide from NO_COLOR, the entry and
 * COLORTERM (truecolor or 24bit over a 256-color entry). The window size
 * is the terminal's; LINES and COLUMNS count only when it has none (at
 * most 1000 each). Signals that end the program restore the terminal
 * first. Returns 0, or -1 with a one-line message in err[cap] when
 * standard input/output is not a terminal or TERM cannot address the
 * cursor; nothing has been written to the terminal then. */
int pe_crt_init(int depth, const char *record, char *err, size_t cap);
/* The theme frames are drawn in (palette.h); set before pe_crt_init. The
 * light theme paints its background in every cell, blank or not. */
void pe_crt_set_theme(enum pe_theme theme);
enum pe_theme pe_crt_theme(void);
/* Restore the terminal (idempotent; also run at exit). */
void pe_crt_done(void);
/* htop's CRT_fatalError: restore the terminal, then print "pescope:
 * <message>" to standard error, control characters escaped. */
void pe_crt_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The color depth frames are drawn with. */
enum pe_depth pe_crt_depth(void);
/* A note for the status line about what start-up refused (LINES and
 * COLUMNS, a depth that could not be had), or NULL. */
const char *pe_crt_note(void);
/* The terminal's size in cells (each at least 1). */
void pe_crt_size(int *w, int *h);
/* How the maps' pictures are shown (pe_gfx_start on curses' stream):
 * cells at mono. why[cap]: a note for the status line, or "". */
enum pe_gfx pe_crt_graphics(enum pe_gfx want, char *why, size_t cap);
/* Write a canvas to the screen and refresh (its pictures through
 * graphics.c, the cells under them blank). full: repaint every cell. */
void pe_crt_draw(const struct pe_canvas *cv, bool full);
/* The signal that asked to end the program (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1, ...), or 0; the first one counts. The handlers only
 * set flags and write a byte to a self-pipe (async-signal-safe), and give
 * the signals back their previous actions at pe_crt_done. */
int pe_crt_quit_signal(void);
/* The read end of that self-pipe, for a wait to poll beside the terminal
 * (-1: none); pe_crt_wake_drain empties it. */
int pe_crt_wake_fd(void);
void pe_crt_wake_drain(void);
/* Whether SIGTSTP arrived (then call pe_crt_suspend) or SIGCONT did (then
 * repaint everything). Each call clears the flag it reports. */
bool pe_crt_take_suspend(void);
bool pe_crt_take_continue(void);
/* Leave curses, stop the process, and come back when continued. */
void pe_crt_suspend(void);
/* Show msg on the bottom line at once (a frame is being computed). */
void pe_crt_busy(const char *msg);

/* ---- input.c ---------------------------------------------------------- */

enum pe_input_kind {
	PE_IN_NONE,   /* timeout or interrupted */
	PE_IN_KEY,    /* key: enum pe_key or a character */
	PE_IN_CLICK,  /* left button at (x, y) */
	PE_IN_WHEEL,  /* wheel at (x, y): wheel +1 up (zoom in), -1 down */
	PE_IN_RESIZE, /* the terminal changed size */
	PE_IN_UNKNOWN, /* a key or sequence we have no use for: name says */
	PE_IN_REPLY,  /* the terminal's answer to a query (name: the
			 sequence), never a key */
	PE_IN_GONE,   /* the terminal hung up or its input ended */
};

struct pe_input {
	enum pe_input_kind kind;
	int key;
	int x, y;	/* the mouse's cell, as curses decodes a report (one less
			   than the terminal's numbers); a pixel where
			   graphics.c turned SGR-Pixels on (pe_gfx_mouse_at) */
	int wheel;
	char name[48]; /* PE_IN_UNKNOWN: "Alt+x", "F5", "ESC [15;5~" */
};

/* Keypad, mouse reporting and a short Esc delay on the current screen. */
void pe_input_init(void);
/* Wait at most timeout_ms (-1: forever; 0: only what has arrived) for one
 * event. Esc is PE_KEY_ESC only when nothing follows it; a sequence curses
 * does not know is read to its end and comes as one PE_IN_UNKNOWN (or as
 * the key when it is a common one, like ESC [1~ for Home). */
void pe_input_read(struct pe_input *in, int timeout_ms);
/* Whether input is waiting (or the terminal has gone), without reading. */
bool pe_input_pending(void);

/* ---- graphics.c ------------------------------------------------------- */

/* After curses started, before the first frame: the protocol in use,
 * want's or for auto the terminal's answers to queries written to out
 * (the stream curses writes to) and read from standard input within
 * PE_GFX_QUERY_MS: kitty's graphics query, primary device attributes
 * (4: sixel), XTWINOPS 16 t (a cell's pixels); then TERM and
 * TERM_PROGRAM. Cells in screen, and in tmux unless allow-passthrough is
 * on. Bytes that are no reply (keys typed meanwhile) go back to curses.
 * why[cap] says what is in use and why, for the status line ("" when
 * auto found cells: the frame is then today's). */
#define PE_GFX_QUERY_MS 250
enum pe_gfx pe_gfx_start(enum pe_gfx want, FILE *out, char *why,
    size_t cap);
/* The protocol in use (PE_GFX_CELLS before pe_gfx_start). */
enum pe_gfx pe_gfx_mode(void);
/* A cell's pixels now (the terminal's size in pixels, else its answer
 * to XTWINOPS), 0 x 0 when cells are in use. */
void pe_gfx_cell(int *pw, int *ph);
/* A frame: before curses' refresh, with the canvas written to it (the
 * cells under its pictures blank), mark for repainting the lines a
 * picture that is gone or moved covered (sixel and iTerm2 pictures are
 * the terminal's cells: curses must write them again). full: the whole
 * screen is repainted. */
void pe_gfx_before(const struct pe_canvas *cv, bool full);
/* After the refresh: the pictures that changed, or that curses wrote
 * over, each at its cells, replacing what was there, never stacked (kitty:
 * images with ids, a picture kept on screen while its serial is the same
 * and only its cursor's frame, an image of its own, replaced). Writing
 * stops at the next chunk when a key comes (the picture is then drawn
 * again with the next frame). */
void pe_gfx_after(const struct pe_canvas *cv);
/* A reply to a query that came later than the start (input.c reads it
 * as PE_IN_REPLY): XTWINOPS's cell size is taken; true when it changed. */
bool pe_gfx_reply(const char *seq);
/* Take every picture off the screen (quitting, suspending). */
void pe_gfx_stop(void);
/* Mouse reports in pixels (SGR-Pixels, xterm's mode 1016) on or off,
 * where the start found the terminal knows the mode (DECRQM) and pictures
 * are shown (not through tmux, which reports cells): on after a frame's
 * refresh, since curses' own mouse modes replace it; off before curses
 * leaves the screen. */
void pe_gfx_mouse(bool on);
/* Where a mouse report is on the screen: its pixel from 0, its cell, and
 * a cell's pixels. */
struct pe_gfx_pointer {
	int px, py, x, y, cw, ch;
};
/* A mouse report curses decoded at (x, y) as its pixel (terminals number
 * them from 1, as xterm, or from 0, as kitty) in *p; false when reports
 * are cells (then *p says nothing). */
bool pe_gfx_mouse_at(int x, int y, struct pe_gfx_pointer *p);
/* Write the pictures of each frame given to pe_gfx_before/_after to out
 * as protocol g would to a terminal (bench, tests), from nothing on
 * screen; no terminal is asked anything and no key cuts a picture short.
 * out NULL: cells again. */
void pe_gfx_offscreen(enum pe_gfx g, FILE *out);
/* After pe_gfx_offscreen: write as through tmux's passthrough to a pane
 * whose first cell is at column ox, row oy of the terminal (tests). */
void pe_gfx_offscreen_tmux(int ox, int oy);
/* A picture as protocol g's bytes (bench): a malloc'd string in *out of
 * *len bytes, drawn over cells of cw x ch pixels; 0, or -1 out of
 * memory or for a protocol that has none. */
int pe_gfx_encode(enum pe_gfx g, const struct pe_pixmap *pm, int cw, int ch,
    char **out, size_t *len);

/* ---- record.c --------------------------------------------------------- */

/* Whether path can be recorded into, by looking only (nothing is
 * created): 0, or -1 with a message naming --record in err[cap] ("-", a
 * folder, a folder that is missing or not writable). */
int pe_rec_check(const char *path, char *err, size_t cap);
/* Record into path (after pe_rec_check and the terminal's check): a
 * temporary file beside it (io's atomic files: renamed into place by
 * pe_rec_close, so what is at path stays whole until then and a link
 * there is replaced, its target never written), a pseudo-terminal of the
 * real terminal's size and modes for curses to write to, and a thread
 * relaying it to the terminal and the file. Returns 0, or -1 with a
 * message in err[cap] (nothing is left behind). */
int pe_rec_open(const char *path, char *err, size_t cap);
/* The stream curses is to write to while recording, else NULL. */
FILE *pe_rec_output(void);
/* Curses has started on a w x h screen: the header line; from now on a
 * SIGWINCH gives the pseudo-terminal the real terminal's size first and
 * records an "r" event. */
void pe_rec_begin(int w, int h);
/* The real terminal takes the input modes curses set on the
 * pseudo-terminal; its output is passed through (after curses changed
 * modes: start, continue). */
void pe_rec_sync_modes(void);
/* Curses has written a frame (refresh): what it wrote since the last one
 * is one "o" event. wait: return once it is on the terminal and in the
 * file. */
void pe_rec_frame(bool wait);
/* Stop recording (after endwin): the last bytes as an event, the thread
 * joined, the file renamed into place. Returns 0 or the errno of the first
 * write that failed (each event is written whole or not at all, so the
 * file ends at the last whole event), or of the rename (the file is then
 * kept under its temporary name). */
int pe_rec_close(void);
/* That error of the last recording, or 0. */
int pe_rec_error(void);
/* The error that stopped the recording in progress (the session goes on
 * without it), or 0. */
int pe_rec_failed(void);
/* When the last recording ended on an error: a sentence for the exit
 * message in dest[cap] (naming --record and the file, the reason in words:
 * "file size limit exceeded") and true. */
bool pe_rec_report(char *dest, size_t cap);
/* The file name being recorded into (for the status line). */
const char *pe_rec_name(void);

/* ---- loop.c ----------------------------------------------------------- */

struct pe_state;
/* What the program around the TUI does between frames (a lesson's link to
 * the speaker's instance, its live reload, the speaker's clock): poll runs
 * after the waiting input has been applied, and at least every period_ms;
 * it may change the state and returns enum pe_action bits. */
struct pe_tui_hooks {
	int (*poll)(void *arg, struct pe_state *st);
	void *arg;
	int period_ms;
};

/* Run the interactive program from a ready state (the command line's,
 * which `pescope snapshot` would draw too) with color depth `depth` (-1:
 * from the terminal), in a theme, recorded into the file named record
 * (--record; NULL: none; see pe_crt_init: nothing is created when there is
 * no terminal), with hooks (NULL: none).
 * Returns the process's exit status: 0, 1 when memory ran out (or the
 * terminal went away under nohup), 2 when there is no terminal to run on;
 * each failure is said on standard error. A signal that ends the program
 * is raised again once the terminal is restored, and a terminal that went
 * away ends it by SIGHUP, as a hangup would. */
struct pe_tui_opts {
	int depth;
	enum pe_theme theme;
	const char *record;
	const struct pe_tui_hooks *hooks;
	enum pe_gfx graphics;	/* --graphics (0: auto) */
};
int pe_tui_run(const struct pe_state *start, const struct pe_tui_opts *opts);

#endif
