/* The CRT, as htop calls it: curses init and teardown, colors, writing a
 * canvas to the screen, and the signals that must restore the terminal.
 * The only file that sets curses up; nothing else knows about pairs. */
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <unistd.h>
#include <wchar.h>

#include "pescope/writer.h"
#include "tui/tui.h"

/* A cache slot: a (fg, bg) of terminal color numbers and its pair. */
struct slot {
	uint64_t key; /* fg << 32 | bg, both as uint32; 0 = empty */
	int pair;
};

static struct {
	SCREEN *scr;
	bool active;	   /* curses owns the terminal */
	enum pe_depth depth;
	bool direct;	   /* color numbers are 0xRRGGBB (terminfo RGB) */
	bool defaults;	   /* use_default_colors worked: -1 is allowed */
	bool utf8;	   /* the locale can show non-ASCII glyphs */
	int ncolors;	   /* COLORS */
	int max_pair;	   /* highest pair number we may define */
	int next_pair;	   /* next pair to define; pairs are never reused
			      until the whole screen is repainted */
	struct slot *slots;
	size_t nslots;	   /* a power of two, > 2 * max_pair */
	char note[160];
} crt;

static volatile sig_atomic_t quit_sig, tstp_flag, cont_flag;

/* Record a quit signal; the loop restores the terminal and exits. */
static void
on_quit(int sig)
{
	quit_sig = sig;
}

/* Record a suspend request; the loop leaves curses and stops. */
static void
on_tstp(int sig)
{
	(void)sig;
	tstp_flag = 1;
}

/* Record a continue: the screen must be repainted. */
static void
on_cont(int sig)
{
	(void)sig;
	cont_flag = 1;
}

/* Install a handler without SA_RESTART, so a blocked read returns. */
static void
catch(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

/* Signals caught since the last call: SIGINT or SIGTERM, or 0. */
int
pe_crt_quit_signal(void)
{
	return (int)quit_sig;
}

/* Whether SIGTSTP arrived; clears the flag. */
bool
pe_crt_take_suspend(void)
{
	bool r = tstp_flag != 0;
	tstp_flag = 0;
	return r;
}

/* Whether SIGCONT arrived; clears the flag. */
bool
pe_crt_take_continue(void)
{
	bool r = cont_flag != 0;
	cont_flag = 0;
	return r;
}

/* Forget every pair (the screen is about to be repainted in full). */
static void
pairs_reset(void)
{
	if (crt.slots != NULL)
		memset(crt.slots, 0, crt.nslots * sizeof *crt.slots);
	crt.next_pair = 1;
}

/* The pair for terminal colors (fg, bg): cached, or defined now; -1 when
 * the pool is used up. */
static int
pair_for(int fg, int bg)
{
	if (fg == -1 && bg == -1)
		return 0;
	uint64_t key = ((uint64_t)(uint32_t)fg << 32 | (uint32_t)bg) + 1;
	/* Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4). */
	size_t mask = crt.nslots - 1;
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & mask;

	for (;; i = (i + 1) & mask) {
		if (crt.slots[i].key == key)
			return crt.slots[i].pair;
		if (crt.slots[i].key == 0)
			break;
	}
	if (crt.next_pair > crt.max_pair)
		return -1;
	int p = crt.next_pair++;
	if (init_extended_pair(p, fg, bg) == ERR)
		return 0;
	crt.slots[i].key = key;
	crt.slots[i].pair = p;
	return p;
}

/* A cell's fg or bg as a terminal color number at the current depth. */
static int
term_color(const struct pe_cell *cell, bool fg)
{
	pe_color c = fg ? cell->fg : cell->bg;
	if (c == PE_COLOR_DEFAULT || c < 0) {
		if (crt.defaults)
			return -1;
		return fg ? COLOR_WHITE : COLOR_BLACK;
	}
	switch (crt.depth) {
	case PE_DEPTH_TRUECOLOR:
		/* xterm-direct's setaf sends numbers below 8 as the ANSI
		 * colors; nudge those near-blacks to 0x000008. */
		return c < 8 ? 8 : (int)c;
	case PE_DEPTH_256:
		return pe_palette_256_cell(cell, fg); /* cyclic maps keep a hue */
	case PE_DEPTH_16:
		/* heatmaps take their colormap's ordered ramp */
		return pe_palette_16_cell(cell, fg) % (crt.ncolors < 16 ? 8 : 16);
	default:
		return -1;
	}
}

/* Curses attributes of canvas attributes. */
static attr_t
term_attr(uint8_t a)
{
	attr_t r = A_NORMAL;

	if (a & PE_ATTR_BOLD)
		r |= A_BOLD;
	if (a & PE_ATTR_DIM)
		r |= A_DIM;
	if (a & PE_ATTR_REVERSE)
		r |= A_REVERSE;
	if (a & PE_ATTR_UNDERLINE)
		r |= A_UNDERLINE;
	return r;
}

/* An ASCII stand-in for a glyph when the locale is not UTF-8 (htop falls
 * back the same way): shade cells take the mono ramp. */
static uint32_t
ascii_glyph(const struct pe_cell *c, uint32_t cp)
{
	if (cp < 128)
		return cp;
	if (c->kind == PE_CELL_SHADE)
		return pe_palette_ramp(c->shade);
	if (cp >= 0x2800 && cp <= 0x28ff) /* braille dots */
		return cp == 0x2800 ? ' ' : '.';
	switch (cp) {
	case 0x2500: case 0x2501: case 0x2212: /* ─ ━ − */
		return '-';
	case 0x2502: case 0x2503: /* │ ┃ */
		return '|';
	case 0x25b8: case 0x25b6: case 0x2192: case 0x2265: /* ▸ ▶ → ≥ */
		return '>';
	case 0x25c2: case 0x25c0: case 0x2190: case 0x2264: /* ◂ ◀ ← ≤ */
		return '<';
	case 0x25b4: case 0x25b2: case 0x2191: /* ▴ ▲ ↑ */
		return '^';
	case 0x25be: case 0x25bc: case 0x2193: /* ▾ ▼ ↓ */
		return 'v';
	case 0x00b7: case 0x2026: case 0x22c5: /* · … ⋅ */
		return '.';
	case 0x00d7: /* × */
		return 'x';
	case 0x03b8: /* θ */
		return 't';
	case 0x03c0: /* π */
		return 'p';
	}
	if (cp >= 0x2500 && cp <= 0x257f) /* other box drawing */
		return '+';
	if (cp >= 0x2580 && cp <= 0x259f) /* blocks */
		return '#';
	return '?';
}

/* Put the canvas into stdscr; false when the pair pool ran out (then
 * nothing is guaranteed about stdscr). last_try: use the default pair for
 * cells that find none instead of failing. */
static bool
put_canvas(const struct pe_canvas *cv, bool last_try)
{
	int h = cv->h < LINES ? cv->h : LINES;
	int w = cv->w < COLS ? cv->w : COLS;

	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			const struct pe_cell *c = &cv->cells[(size_t)y * cv->w + x];
			wchar_t wc[2] = {(wchar_t)pe_writer_glyph(c, crt.depth), 0};
			int pair = 0;
			cchar_t cc;

			if (wc[0] == 0 || (wc[0] < 32) || wc[0] == 127)
				wc[0] = ' ';
			else if (!crt.utf8)
				wc[0] = (wchar_t)ascii_glyph(c, (uint32_t)wc[0]);
			if (crt.depth != PE_DEPTH_MONO) {
				pair = pair_for(term_color(c, true),
				    term_color(c, false));
				if (pair < 0) {
					if (!last_try)
						return false;
					pair = 0;
				}
			}
			setcchar(&cc, wc, term_attr(c->attr), 0, &pair);
			/* The bottom-right cell cannot scroll: ERR is fine. */
			mvadd_wch(y, x, &cc);
		}
	}
	return true;
}

/* Write a canvas to the screen and refresh. When the pair pool is full,
 * forget every pair and repaint the whole screen with fresh ones, so no
 * pair on screen is ever redefined behind curses' back. */
void
pe_crt_draw(const struct pe_canvas *cv, bool full)
{
	if (!crt.active)
		return;
	if (!put_canvas(cv, false)) {
		pairs_reset();
		put_canvas(cv, true);
		full = true;
	}
	if (full)
		clearok(curscr, TRUE);
	refresh();
}

/* The terminal's size in cells. */
void
pe_crt_size(int *w, int *h)
{
	*w = COLS > 0 ? COLS : 1;
	*h = LINES > 0 ? LINES : 1;
}

/* The color depth frames are drawn with. */
enum pe_depth
pe_crt_depth(void)
{
	return crt.depth;
}

/* A note about the colors chosen, or NULL. */
const char *
pe_crt_note(void)
{
	return crt.note[0] != '\0' ? crt.note : NULL;
}

/* Choose the depth (forced or from terminfo and NO_COLOR) and set up the
 * colors and the pair cache. */
static void
colors_init(int forced)
{
	enum pe_depth best = PE_DEPTH_MONO;

	/* Decide from terminfo first: start_color writes to the terminal,
	 * and a mono screen must get no color sequences at all. */
	crt.depth = PE_DEPTH_MONO;
	int colors = tigetnum("colors"), pairs = tigetnum("pairs");
	if (has_colors() && colors > 0 && pairs >= 2) {
		int rgb = tigetflag("RGB");
		crt.direct = colors >= 0x1000000 || (rgb > 0 && colors > 256);
		if (crt.direct)
			best = PE_DEPTH_TRUECOLOR;
		else if (colors >= 256)
			best = PE_DEPTH_256;
		else if (colors >= 8)
			best = PE_DEPTH_16;
	}
	if (forced >= 0) {
		crt.depth = (enum pe_depth)forced;
		if (crt.depth < best) {
			snprintf(crt.note, sizeof crt.note, "--color %s: this "
			    "terminal (TERM=%s) shows at most %s; using that",
			    pe_depth_name(crt.depth), getenv("TERM"),
			    pe_depth_name(best));
			crt.depth = best;
		}
	} else {
		const char *nc = getenv("NO_COLOR");
		crt.depth = nc != NULL && nc[0] != '\0' ? PE_DEPTH_MONO : best;
	}
	if (crt.depth == PE_DEPTH_MONO)
		return;
	if (start_color() != OK || COLOR_PAIRS < 2) {
		crt.depth = PE_DEPTH_MONO;
		return;
	}
	crt.ncolors = COLORS;
	crt.defaults = use_default_colors() == OK;
	crt.max_pair = COLOR_PAIRS - 1;
	if (crt.max_pair > 65535)
		crt.max_pair = 65535;
	crt.nslots = 1;
	while (crt.nslots <= 2 * (size_t)crt.max_pair)
		crt.nslots *= 2;
	crt.slots = calloc(crt.nslots, sizeof *crt.slots);
	if (crt.slots == NULL) {
		crt.depth = PE_DEPTH_MONO;
		return;
	}
	pairs_reset();
}

/* Check that standard input and output are a terminal that curses can
 * drive (known TERM with cursor addressing), without writing anything. */
static int
check_terminal(char *err, size_t cap)
{
	const char *term = getenv("TERM");
	int e = 0;

	if (!isatty(STDOUT_FILENO)) {
		snprintf(err, cap, "standard output is not a terminal; try "
		    "`pescope snapshot` to write the frame to a file");
		return -1;
	}
	if (!isatty(STDIN_FILENO)) {
		snprintf(err, cap, "standard input is not a terminal; try "
		    "`pescope snapshot` to write the frame to a file");
		return -1;
	}
	if (term == NULL || term[0] == '\0') {
		snprintf(err, cap, "TERM is not set, so the terminal is unknown; "
		    "try `pescope snapshot`");
		return -1;
	}
	if (setupterm(NULL, STDOUT_FILENO, &e) != OK) {
		snprintf(err, cap, "TERM=%s: no terminfo entry for it; try "
		    "`pescope snapshot`", term);
		return -1;
	}
	const char *cup = tigetstr("cup");
	bool ok = cup != NULL && cup != (char *)-1;
	del_curterm(cur_term);
	if (!ok) {
		snprintf(err, cap, "TERM=%s cannot move the cursor; try `pescope "
		    "snapshot`", term);
		return -1;
	}
	return 0;
}

/* Start curses on the terminal; see tui.h. */
int
pe_crt_init(int depth, char *err, size_t cap)
{
	memset(&crt, 0, sizeof crt);
	if (check_terminal(err, cap) != 0)
		return -1;

	/* Our handlers first, so curses installs none of its own for these
	 * (it leaves SIGWINCH, which it turns into KEY_RESIZE). */
	quit_sig = tstp_flag = cont_flag = 0;
	catch(SIGINT, on_quit);
	catch(SIGTERM, on_quit);
	catch(SIGHUP, on_quit);
	catch(SIGTSTP, on_tstp);
	catch(SIGCONT, on_cont);

	crt.scr = newterm(NULL, stdout, stdin);
	if (crt.scr == NULL) {
		snprintf(err, cap, "cannot start curses on TERM=%s; try `pescope "
		    "snapshot`", getenv("TERM"));
		return -1;
	}
	set_term(crt.scr);
	crt.active = true;
	crt.utf8 = MB_CUR_MAX > 1;
	atexit(pe_crt_done);
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	curs_set(0);
	colors_init(depth);
	pe_input_init();
	return 0;
}

/* Restore the terminal (idempotent). */
void
pe_crt_done(void)
{
	if (!crt.active)
		return;
	crt.active = false;
	curs_set(1);
	endwin();
	fflush(stdout);
	delscreen(crt.scr);
	crt.scr = NULL;
	free(crt.slots);
	crt.slots = NULL;
	signal(SIGTSTP, SIG_DFL);
	signal(SIGCONT, SIG_DFL);
}

/* Leave curses, stop, and come back when continued (the caller repaints). */
void
pe_crt_suspend(void)
{
	if (!crt.active)
		return;
	curs_set(1);
	endwin();
	fflush(stdout);
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP); /* stops here until SIGCONT */
	catch(SIGTSTP, on_tstp);
	curs_set(0);
	clearok(curscr, TRUE);
	refresh();
}
