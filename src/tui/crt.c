/* The CRT, as htop calls it: curses init and teardown, colors, writing a
 * canvas to the screen (the signals that must restore the terminal are
 * crt_signal.c's). The only file that sets curses up; nothing else knows
 * about pairs. */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "render/writer.h"
#include "render/draw.h"
#include "tui/crt_signal.h"
#include "tui/tui.h"

/* The most LINES or COLUMNS may ask for when the terminal does not say
 * its size (a 1000 x 1000 frame is ~20 MB of canvas and curses screens). */
#define CRT_MAX_SIDE 1000

extern char **environ;

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
	bool nudge;	   /* direct colors below 8 are sent as the ANSI ones
			      (xterm-direct): send 8 for them */
	enum pe_theme theme;
	char note[400];
	struct termios saved; /* the terminal's modes before curses */
	bool saved_ok;
	bool recording;	   /* curses writes through record.c's relay */
} crt;

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

/* A color of a cell's look (palette.h) as a terminal color number. */
static int
term_color(pe_color q, bool fg)
{
	if (q < 0) {
		if (crt.defaults)
			return -1;
		return fg ? COLOR_WHITE : COLOR_BLACK;
	}
	/* xterm-direct's setaf sends numbers below 8 as the ANSI colors;
	 * nudge those near-blacks to 0x000008. */
	if (crt.depth == PE_DEPTH_TRUECOLOR && crt.nudge && q < 8)
		return 8;
	return (int)q;
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

	static const struct pe_cell blank = {.cp = ' ', .fg = PE_COLOR_DEFAULT,
	    .bg = PE_COLOR_DEFAULT};
	bool pictures = cv->npix > 0 && pe_gfx_mode() != PE_GFX_CELLS;

	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			const struct pe_cell *c = &cv->cells[(size_t)y * cv->w + x];
			/* under a picture: blanks, which never change while it
			 * is up (curses then never writes over it) */
			if (pictures && pe_canvas_pixmap_at(cv, x, y) != NULL)
				c = &blank;
			wchar_t wc[2] = {(wchar_t)pe_writer_glyph(c, crt.depth), 0};
			struct pe_look lk = pe_palette_look(c, crt.depth,
			    crt.theme);
			int pair = 0;
			cchar_t cc;

			if (wc[0] == 0 || (wc[0] < 32) || wc[0] == 127)
				wc[0] = ' ';
			else if (!crt.utf8)
				wc[0] = (wchar_t)ascii_glyph(c, (uint32_t)wc[0]);
			if (crt.depth != PE_DEPTH_MONO) {
				pair = pair_for(term_color(lk.fg, true),
				    term_color(lk.bg, false));
				if (pair < 0) {
					if (!last_try)
						return false;
					pair = 0;
				}
			}
			setcchar(&cc, wc, term_attr(lk.attr), 0, &pair);
			/* The bottom-right cell cannot scroll: ERR is fine. */
			mvadd_wch(y, x, &cc);
		}
	}
	return true;
}

/* The window's background: the light theme's page, so that what curses
 * blanks (a cleared line, the screen after a resize) is painted too, and
 * cells written without a color take it. */
static void
theme_background(void)
{
	struct pe_cell blank = {.cp = ' ', .fg = PE_COLOR_DEFAULT,
	    .bg = PE_COLOR_DEFAULT};
	wchar_t wc[2] = {L' ', 0};
	cchar_t cc;
	int pair;

	if (crt.theme != PE_THEME_LIGHT || crt.depth == PE_DEPTH_MONO)
		return;
	struct pe_look lk = pe_palette_look(&blank, crt.depth, crt.theme);
	pair = pair_for(term_color(lk.fg, true), term_color(lk.bg, false));
	if (pair < 0)
		return;
	setcchar(&cc, wc, A_NORMAL, 0, &pair);
	bkgrnd(&cc);
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
		theme_background();
		put_canvas(cv, true);
		full = true;
	}
	if (full)
		clearok(curscr, TRUE);
	pe_gfx_before(cv, full);
	refresh();
	pe_gfx_after(cv);
	pe_gfx_mouse(true);
	if (crt.recording)
		pe_rec_frame(false);
}


/* The terminal's size in cells. */
void
pe_crt_size(int *w, int *h)
{
	*w = COLS > 0 ? COLS : 1;
	*h = LINES > 0 ? LINES : 1;
}

/* Set the theme frames are drawn in (before pe_crt_init). */
void
pe_crt_set_theme(enum pe_theme theme)
{
	crt.theme = (unsigned)theme < PE_THEME_COUNT ? theme : PE_THEME_DARK;
}

/* The theme frames are drawn in. */
enum pe_theme
pe_crt_theme(void)
{
	return crt.theme;
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

/* Add a sentence to the note (the status line shows it at start). */
static void __attribute__((format(printf, 1, 2)))
note_add(const char *fmt, ...)
{
	size_t n = strlen(crt.note);
	va_list ap;

	if (n > 0 && n + 2 < sizeof crt.note) {
		memcpy(crt.note + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(crt.note + n, sizeof crt.note - n, fmt, ap);
	va_end(ap);
}

/* Make curses take the terminal's own size: LINES and COLUMNS count only
 * when the terminal has none, and then up to CRT_MAX_SIDE. What is
 * refused goes to the note. */
static void
size_env(void)
{
	static const char *const names[2] = {"COLUMNS", "LINES"};
	struct winsize ws;
	bool real = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0 && ws.ws_row > 0;
	char refused[96] = "";

	for (int i = 0; i < 2; i++) {
		const char *v = getenv(names[i]);
		if (v == NULL)
			continue;
		char *end;
		errno = 0;
		long n = strtol(v, &end, 10);
		bool ok = v[0] != '\0' && *end == '\0' && errno == 0 && n >= 1;
		long have = i == 0 ? ws.ws_col : ws.ws_row;
		if (real ? ok && n == have : ok && n <= CRT_MAX_SIDE)
			continue;
		size_t l = strlen(refused);
		snprintf(refused + l, sizeof refused - l, "%s%s=%.12s%s",
		    l > 0 ? " " : "", names[i], v, strlen(v) > 12 ? "…" : "");
		if (!real && ok) {
			char b[16];
			snprintf(b, sizeof b, "%d", CRT_MAX_SIDE);
			setenv(names[i], b, 1);
		} else {
			unsetenv(names[i]);
		}
	}
	if (real) {
		/* The terminal knows: curses asks it, now and on resize. */
		unsetenv("LINES");
		unsetenv("COLUMNS");
		if (refused[0] != '\0')
			note_add("%s ignored: the terminal is %dx%d", refused,
			    ws.ws_col, ws.ws_row);
	} else if (refused[0] != '\0') {
		note_add("%s refused: at most %d each without a size from the "
		    "terminal", refused, CRT_MAX_SIDE);
	}
}

/* What the terminfo entry says about colors. */
struct caps {
	int colors;  /* 0: none */
	bool direct; /* color numbers are 0xRRGGBB (RGB flag) */
};

/* The richest depth an entry shows. */
static enum pe_depth
caps_depth(const struct caps *c)
{
	if (c->colors <= 0)
		return PE_DEPTH_MONO;
	if (c->direct)
		return PE_DEPTH_TRUECOLOR;
	if (c->colors >= 256)
		return PE_DEPTH_256;
	if (c->colors >= 16)
		return PE_DEPTH_16;
	if (c->colors >= 8)
		return PE_DEPTH_8;
	return PE_DEPTH_MONO;
}

/* Whether COLORTERM says the terminal takes 24-bit colors (the
 * convention of most terminal programs: "truecolor" or "24bit"). */
static bool
colorterm_truecolor(void)
{
	const char *ct = getenv("COLORTERM");

	return ct != NULL &&
	    (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0);
}

/* The color capabilities of a terminfo entry beyond what $TERM's has: the
 * SGR forms of ECMA-48 (30-37), aixterm (90-97), xterm (38;5) and ITU
 * T.416 (38;2). Indexed by enum pe_depth. */
static const char *const depth_caps[] = {
	[PE_DEPTH_TRUECOLOR] = "colors#0x1000000, pairs#0x10000, RGB,\n"
	    "\tsetaf=\\E[38;2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;"
	    "%p1%{255}%&%dm,\n"
	    "\tsetab=\\E[48;2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;"
	    "%p1%{255}%&%dm,\n",
	[PE_DEPTH_256] = "colors#256, pairs#0x10000,\n"
	    "\tsetaf=\\E[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d"
	    "%e38;5;%p1%d%;m,\n"
	    "\tsetab=\\E[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d"
	    "%e48;5;%p1%d%;m,\n",
	[PE_DEPTH_16] = "colors#16, pairs#256,\n"
	    "\tsetaf=\\E[%?%p1%{8}%<%t3%p1%d%e9%p1%{8}%-%d%;m,\n"
	    "\tsetab=\\E[%?%p1%{8}%<%t4%p1%d%e10%p1%{8}%-%d%;m,\n",
	[PE_DEPTH_8] = ("colors#8, pairs#64,\n"
	    "\tsetaf=\\E[3%p1%dm,\n\tsetab=\\E[4%p1%dm,\n"),
};

/* Remove a folder tic wrote one entry into (dir/<c>/name, or dir/<hex of
 * c>/name on file systems that ignore case) and the source file. */
static void
entry_remove(const char *dir, const char *name)
{
	char p[4200];

	snprintf(p, sizeof p, "%s/%c/%s", dir, name[0], name);
	unlink(p);
	snprintf(p, sizeof p, "%s/%c", dir, name[0]);
	rmdir(p);
	snprintf(p, sizeof p, "%s/%02x/%s", dir, (unsigned)name[0], name);
	unlink(p);
	snprintf(p, sizeof p, "%s/%02x", dir, (unsigned)name[0]);
	rmdir(p);
	snprintf(p, sizeof p, "%s/entry.src", dir);
	unlink(p);
	rmdir(dir);
}

/* Compile a terminfo entry `name`: $TERM's with the color capabilities of
 * depth, into a fresh folder (its path to dir[cap]) with tic(1), which
 * every ncurses installation has. Curses knows no other way to send
 * colors the entry does not describe. Returns 0, or -1 (then nothing is
 * left behind). */
static int
entry_build(enum pe_depth depth, const char *name, char *dir, size_t cap)
{
	const char *tmp = getenv("TMPDIR");
	char src[4200];
	int rc = -1, st = 0;
	pid_t pid;

	if (tmp == NULL || tmp[0] == '\0')
		tmp = "/tmp";
	if ((size_t)snprintf(dir, cap, "%s/pescope-terminfo-XXXXXX", tmp) >= cap ||
	    mkdtemp(dir) == NULL)
		return -1;
	snprintf(src, sizeof src, "%s/entry.src", dir);
	FILE *fp = fopen(src, "w");
	if (fp == NULL)
		goto end;
	fprintf(fp, "%s|%s for pescope,\n\t%s\tuse=%s,\n", name,
	    getenv("TERM"), depth_caps[depth], getenv("TERM"));
	if (fclose(fp) != 0)
		goto end;

	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
	    O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
	    O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
	    O_WRONLY, 0);
	char *argv[] = {"tic", "-x", "-o", dir, src, NULL};
	if (posix_spawnp(&pid, "tic", &fa, NULL, argv, environ) == 0) {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			rc = 0;
	}
	posix_spawn_file_actions_destroy(&fa);
end:
	if (rc != 0)
		entry_remove(dir, name);
	return rc;
}

/* The depth to draw with: --color (forced), else NO_COLOR (mono), else
 * the entry's, raised to truecolor by COLORTERM over a 256-color entry. */
static enum pe_depth
depth_choose(int forced, const struct caps *c)
{
	enum pe_depth best = caps_depth(c);
	const char *nc = getenv("NO_COLOR");

	if (forced >= 0)
		return (enum pe_depth)forced;
	if (nc != NULL && nc[0] != '\0')
		return PE_DEPTH_MONO;
	if (best == PE_DEPTH_256 && colorterm_truecolor())
		return PE_DEPTH_TRUECOLOR;
	return best;
}

/* Set up colors and the pair cache for crt.depth (decided with the entry
 * curses runs on). */
static void
colors_init(void)
{
	if (crt.depth == PE_DEPTH_MONO)
		return;
	if (!has_colors() || start_color() != OK || COLOR_PAIRS < 2) {
		note_add("this terminal shows no colors");
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
 * drive (known TERM with cursor addressing), without writing anything;
 * read its color capabilities into c. */
static int
check_terminal(char *err, size_t cap, struct caps *c)
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
	int colors = tigetnum("colors"), pairs = tigetnum("pairs");
	const char *setaf = tigetstr("setaf");
	c->colors = colors > 0 && pairs >= 2 && setaf != NULL &&
	    setaf != (char *)-1 ? colors : 0;
	c->direct = colors >= 0x1000000 || (tigetflag("RGB") > 0 && colors > 256);
	del_curterm(cur_term);
	if (!ok) {
		snprintf(err, cap, "TERM=%s cannot move the cursor; try `pescope "
		    "snapshot`", term);
		return -1;
	}
	return 0;
}

/* The stream curses writes to: the terminal, or record.c's relay. */
static FILE *
crt_out(void)
{
	FILE *fp = pe_rec_output();
	return fp != NULL ? fp : stdout;
}

/* Start curses on the terminal at a depth richer than the entry's, with an
 * entry built for it (entry_build); NULL when that failed (the caller then
 * starts on $TERM's entry). */
static SCREEN *
newterm_at(enum pe_depth depth)
{
	static const char *const names[] = {"pescope-direct", "pescope-256",
	    "pescope-16", "pescope-8"};
	char dir[4096];
	const char *prev = getenv("TERMINFO");
	char *saved = prev != NULL ? strdup(prev) : NULL;
	SCREEN *scr = NULL;

	if (entry_build(depth, names[depth], dir, sizeof dir) != 0) {
		free(saved);
		return NULL;
	}
	setenv("TERMINFO", dir, 1);
	scr = newterm(names[depth], crt_out(), stdin);
	if (saved != NULL)
		setenv("TERMINFO", saved, 1);
	else
		unsetenv("TERMINFO");
	free(saved);
	entry_remove(dir, names[depth]);
	return scr;
}

/* Start curses on the terminal; see tui.h. */
int
pe_crt_init(int depth, const char *record, char *err, size_t cap)
{
	struct caps c;

	enum pe_theme theme = crt.theme;
	memset(&crt, 0, sizeof crt);
	crt.theme = theme;
	/* what can be checked first, then the file system */
	if ((record != NULL && pe_rec_check(record, err, cap) != 0) ||
	    check_terminal(err, cap, &c) != 0)
		return -1;
	size_env();
	if (record != NULL) {
		if (pe_rec_open(record, err, cap) != 0)
			return -1;
		crt.recording = true;
	}
	enum pe_depth best = caps_depth(&c);
	crt.depth = depth_choose(depth, &c);
	crt.saved_ok = tcgetattr(STDIN_FILENO, &crt.saved) == 0;

	/* Our handlers first, so curses installs none of its own for these
	 * (it leaves SIGWINCH, which it turns into KEY_RESIZE). */
	pe_crt_sig_catch();

	if (crt.depth < best) {
		/* richer than the entry says: a forced --color, or COLORTERM */
		crt.scr = newterm_at(crt.depth);
		if (crt.scr == NULL) {
			note_add("%s colors need tic(1) to describe them to "
			    "curses; using %s", pe_depth_name(crt.depth),
			    pe_depth_name(best));
			crt.depth = best;
		}
	} else {
		crt.nudge = crt.depth == PE_DEPTH_TRUECOLOR;
	}
	if (crt.scr == NULL)
		crt.scr = newterm(NULL, crt_out(), stdin);
	if (crt.scr == NULL) {
		snprintf(err, cap, "cannot start curses on TERM=%s; try `pescope "
		    "snapshot`", getenv("TERM"));
		if (crt.recording)
			pe_rec_close();
		crt.recording = false;
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
	colors_init();
	theme_background();
	pe_input_init();
	pe_crt_sig_fatal();
	if (crt.recording) {
		/* the real terminal in curses' modes; the header */
		pe_rec_sync_modes();
		pe_rec_begin(COLS, LINES);
	}
	pe_crt_sig_up(crt.saved_ok ? &crt.saved : NULL);
	return 0;
}

/* Restore the terminal (idempotent). */
void
pe_crt_done(void)
{
	if (!crt.active)
		return;
	pe_crt_sig_down();
	crt.active = false;
	pe_gfx_stop(); /* no picture stays behind */
	pe_gfx_mouse(false);
	curs_set(1);
	endwin();
	fflush(stdout);
	delscreen(crt.scr);
	crt.scr = NULL;
	if (crt.recording) {
		/* curses restored the pseudo-terminal's modes: the real
		 * terminal's are ours to restore */
		pe_rec_close();
		crt.recording = false;
		if (crt.saved_ok)
			tcsetattr(STDIN_FILENO, TCSADRAIN, &crt.saved);
	}
	free(crt.slots);
	crt.slots = NULL;
	pe_crt_sig_release();
}

/* Leave curses, stop, and come back when continued (the caller repaints). */
void
pe_crt_suspend(void)
{
	if (!crt.active)
		return;
	pe_crt_sig_down();
	pe_gfx_stop();
	pe_gfx_mouse(false); /* the next frame turns it on again */
	curs_set(1);
	endwin();
	fflush(stdout);
	if (crt.recording) { /* the shell gets the terminal as it was */
		pe_rec_frame(true);
		if (crt.saved_ok)
			tcsetattr(STDIN_FILENO, TCSADRAIN, &crt.saved);
	}
	pe_crt_sig_stop();
	curs_set(0);
	clearok(curscr, TRUE);
	refresh();
	if (crt.recording) {
		pe_rec_sync_modes();
		pe_rec_frame(false);
	}
	pe_crt_sig_up(crt.saved_ok ? &crt.saved : NULL);
}

/* Say on the bottom line that a frame is being computed. */
void
pe_crt_busy(const char *msg)
{
	if (!crt.active)
		return;
	attr_t a = A_REVERSE | A_BOLD;
	attron(a);
	mvaddnstr(LINES - 1, 0, msg, COLS);
	attroff(a);
	clrtoeol(); /* nothing of the line it covers stays beside it */
	refresh();
	if (crt.recording)
		pe_rec_frame(false);
}

/* Restore the terminal, then say what went wrong. */
void
pe_crt_fatal(const char *fmt, ...)
{
	char msg[1024], safe[4 * sizeof msg];
	va_list ap;

	pe_crt_done();
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "pescope: %s\n", pe_text_escape(msg, safe, sizeof safe));
}

/* Choose how pictures are shown; see tui.h. */
enum pe_gfx
pe_crt_graphics(enum pe_gfx want, char *why, size_t cap)
{
	if (!crt.active || !pe_depth_pictures(crt.depth)) {
		/* no picture its legend cannot show; said when asked for */
		why[0] = '\0';
		if (!crt.active || want == PE_GFX_CELLS || want == PE_GFX_AUTO)
			return PE_GFX_CELLS;
		if (crt.depth == PE_DEPTH_MONO)
			snprintf(why, cap, "graphics: cells (--color mono)");
		else /* whole at 80 columns */
			snprintf(why, cap, "graphics: cells (%s colors: a legend "
			    "cannot show a picture's; try --color 256)",
			    crt.depth == PE_DEPTH_16 ? "16" : "8");
		return PE_GFX_CELLS;
	}
	enum pe_gfx g = pe_gfx_start(want, crt_out(), why, cap);
	if (g == PE_GFX_KITTY) /* a fatal signal takes the pictures too */
		pe_crt_sig_restore_add("\033_Ga=d,d=A,q=2\033\\");
	if (g != PE_GFX_CELLS) /* and pixel mouse reports (pe_gfx_mouse) */
		pe_crt_sig_restore_add("\033[?1016l");
	return g;
}
