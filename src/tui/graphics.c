/* Pictures in the terminal: which image protocol it speaks (asked with a
 * timeout, as presenterm and chafa-based viewers do), a cell's pixels,
 * and the canvas's pixel layers written over their cells through chafa
 * (Debian's libchafa: kitty's graphics protocol, iTerm2's inline images,
 * DEC sixel), replaced on every frame rather than stacked. The one file
 * that knows the protocols' sequences. */
#include <chafa.h>
#include <curses.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "io/io.h"
#include "pescope/pescope.h"
#include "render/pool.h"
#include "tui/tui.h"

/* The most pictures on screen at once (compare mode has two). */
#define GFX_MAX 8
/* Bytes written between looks at the keyboard: a write and a poll each
 * (16 KiB: 0.5 ms of a 1100 x 1020-pixel kitty picture's 6 MB to
 * /dev/null, on the thread that waits; 64 KiB: 0.2 ms), and well under a
 * millisecond of a terminal's reading. */
#define GFX_CHUNK 65536
/* kitty: a picture is up to this many images, bands of whole cell rows,
 * made by chafa at once on the machine's two cores (pe_pool_run2): its
 * bytes are base64 written by one thread a picture, about 7 ms of a
 * 1100 x 1020-pixel picture. */
#define GFX_BANDS 2
/* kitty: the fewest pixels a picture is cut into bands at (below, the
 * second thread's start costs more than it saves). */
#define GFX_BAND_PIXELS 65536

/* A picture as it was written. Its identity: the serial of what it shows
 * (pe_pixmap.serial) and, for sixel and iTerm2, whose pictures hold the
 * cursor's frame, the frame's place; a picture without a serial by a hash
 * of its pixels. kitty's are images with ids of their own: the picture
 * without the frame, and the frame an image of its own over it (z 1,
 * transparent but for the rings), so a cursor that moves replaces only
 * the frame. */
struct shown {
	int x, y, w, h, pw, ph;
	uint64_t serial, hash;
	int cx, cy, cw, ch;	/* the cursor's sample framed (cw 0: none) */
	uint32_t frame;		/* kitty: its cursor frame's image id (0:
				   none) */
	bool placed;		/* kitty: the picture is on screen */
	bool sent;		/* kitty: its images' data sent this frame,
				   to be placed in the update */
	int nband;		/* kitty: the picture's images (0: none made) */
	uint32_t id[GFX_BANDS]; /* kitty: their ids (their bytes carry them) */
	GString *bytes[GFX_BANDS]; /* kitty: their bytes, to place them again
				   after the screen was cleared */
};

static struct {
	enum pe_gfx mode;
	FILE *out;
	bool tmux;	   /* wrap each sequence in tmux's passthrough */
	int ox, oy;	   /* tmux: the pane's first cell on the terminal */
	int reply_w, reply_h; /* a cell's pixels from XTWINOPS 16 t */
	/* SGR-Pixels mouse reports (xterm's mode 1016: the pointer's pixel,
	 * not its cell), where the terminal said it knows the mode: wanted
	 * while pictures are shown, on after curses' own mouse modes (which
	 * would replace it: xterm keeps the last coordinate mode set) */
	bool mouse_px, mouse_on;
	int mouse_from;	   /* the first pixel's number in its reports */
	struct shown on[GFX_MAX];
	int non;
	bool dirty;	   /* what is on screen is not known: write all */
	bool offscreen;	   /* pe_gfx_offscreen: no terminal, no keys */
	uint32_t next_id;  /* kitty: the last image id given */
	uint32_t sending;  /* kitty: the image being sent (0: none) */
	ChafaTermInfo *ti[GFX_BANDS]; /* one a thread that prints */
	/* kitty: the frame's pictures from pe_gfx_before, whose images'
	 * data went before the update, to pe_gfx_after, which places them
	 * in it: the update holds only what the terminal shows at once */
	struct shown next[GFX_MAX];
	bool keep[GFX_MAX];	/* of on[]: still shown */
	int nnext;
	bool ready;		/* next is this frame's */
	bool sent_whole;	/* no key cut the data short */
	bool was_dirty;		/* the frame started from a screen not known */
	/* kitty: chafa's canvases, one a band's thread and one for this
	 * thread's other pictures, kept for the next picture of one size */
	struct gfx_canvas {
		ChafaCanvas *cv;
		int geo[4];	/* its cells w, h and a cell's pixels */
	} canvas[GFX_BANDS + 1];
} gfx = {.mode = PE_GFX_CELLS};

static const char *const gfx_names[PE_GFX_COUNT] = {"auto", "kitty",
    "iterm", "sixel", "cells"};

/* The name of a mode. */
const char *
pe_gfx_name(enum pe_gfx g)
{
	return (unsigned)g < PE_GFX_COUNT ? gfx_names[g] : "?";
}

/* A mode by name; -1 when unknown. */
int
pe_gfx_parse(const char *s)
{
	for (int g = 0; s != NULL && g < PE_GFX_COUNT; g++)
		if (strcmp(s, gfx_names[g]) == 0)
			return g;
	return -1;
}

/* The mode in use. */
enum pe_gfx
pe_gfx_mode(void)
{
	return gfx.mode;
}

/* Write the n pieces p[i] of len[i] bytes as they are, or inside one of
 * tmux's passthroughs (DCS tmux; with each ESC doubled; tmux 3.3's
 * allow-passthrough). After each passthrough tmux moves the terminal's
 * cursor home: what must be at a place goes in one with its move. */
static void
gfx_putv(const char *const *p, const size_t *len, int n)
{
	if (gfx.tmux)
		fputs("\033Ptmux;", gfx.out);
	for (int k = 0; k < n; k++) {
		if (len[k] == 0)
			continue; /* p[k] may be NULL */
		if (!gfx.tmux) {
			fwrite(p[k], 1, len[k], gfx.out);
			continue;
		}
		for (size_t i = 0; i < len[k]; i++) {
			if (p[k][i] == '\033')
				fputc('\033', gfx.out);
			fputc(p[k][i], gfx.out);
		}
	}
	if (gfx.tmux)
		fputs("\033\\", gfx.out);
}

/* Write bytes as they are, or inside tmux's passthrough. */
static void
gfx_put(const char *s, size_t n)
{
	gfx_putv(&s, &n, 1);
}

/* A cell's pixels from the terminal's size (TIOCGWINSZ's pixel fields,
 * which kitty, foot, WezTerm, xterm and mlterm fill), else XTWINOPS's. */
static void
gfx_cell_now(int *pw, int *ph)
{
	struct winsize ws;
	*pw = *ph = 0;
	if (ioctl(STDIN_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_xpixel > 0 &&
	    ws.ws_ypixel > 0 && ws.ws_col > 0 && ws.ws_row > 0) {
		*pw = ws.ws_xpixel / ws.ws_col;
		*ph = ws.ws_ypixel / ws.ws_row;
	}
	if (*pw <= 0 || *ph <= 0) {
		*pw = gfx.reply_w;
		*ph = gfx.reply_h;
	}
	if (*pw <= 0 || *ph <= 0 || *pw > PE_PX_CELL_MAX ||
	    *ph > PE_PX_CELL_MAX)
		*pw = *ph = 0;
}

/* A cell's pixels, 0 x 0 with cells. */
void
pe_gfx_cell(int *pw, int *ph)
{
	*pw = *ph = 0;
	if (gfx.mode != PE_GFX_CELLS)
		gfx_cell_now(pw, ph);
}

/* What the replies to the start's queries said. */
struct answers {
	bool kitty;	/* ESC _ G i=31 ; OK ESC \ */
	bool da;	/* primary device attributes came (the last query) */
	bool sixel;	/* ... with attribute 4 */
	int cw, ch;	/* CSI 6 ; h ; w t */
	int px_mode;	/* DECRQM's answer for mode 1016: 0 not known, 1
			   set, 2 reset, 3 always set, 4 always reset */
};

/* Take one reply (a whole sequence); true when it is one. */
static bool
gfx_parse_reply(const char *seq, struct answers *a)
{
	int h, w;
	char fin;
	if (strncmp(seq, "\033_G", 3) == 0) {
		if (strstr(seq, "i=31") != NULL && strstr(seq, ";OK") != NULL)
			a->kitty = true;
		return true;
	}
	if (strncmp(seq, "\033[?", 3) == 0 && seq[strlen(seq) - 1] == 'c') {
		a->da = true;
		/* the attributes after the class: 4 is sixel graphics */
		for (const char *p = seq + 3; *p != '\0';) {
			char *e;
			long v = strtol(p, &e, 10);
			if (e == p)
				break;
			if (v == 4 && p != seq + 3)
				a->sixel = true;
			p = *e == ';' ? e + 1 : e;
			if (*e != ';')
				break;
		}
		return true;
	}
	if (sscanf(seq, "\033[6;%d;%d%c", &h, &w, &fin) == 3 && fin == 't') {
		a->cw = w, a->ch = h;
		return true;
	}
	if (sscanf(seq, "\033[4;%d;%d%c", &h, &w, &fin) == 3 && fin == 't')
		return true;
	/* DECRPM (VT510; xterm's ctlseqs): CSI ? 1016 ; Ps $ y */
	if (sscanf(seq, "\033[?1016;%d$%c", &h, &fin) == 2 && fin == 'y') {
		a->px_mode = h >= 0 && h <= 4 ? h : 0;
		return true;
	}
	return false;
}

/* Whether the mode DECRQM said pointer pixels can be had in. */
static bool
gfx_px_usable(int px_mode)
{
	return px_mode >= 1 && px_mode <= 3;
}

/* A reply that came after the start (input.c: PE_IN_REPLY). */
bool
pe_gfx_reply(const char *seq)
{
	struct answers a = {0};
	if (!gfx_parse_reply(seq, &a))
		return false;
	if (gfx_px_usable(a.px_mode) && gfx.mode != PE_GFX_CELLS && !gfx.tmux)
		gfx.mouse_px = true; /* on after the next frame */
	if (a.cw <= 0 || a.ch <= 0)
		return false;
	bool changed = a.cw != gfx.reply_w || a.ch != gfx.reply_h;
	gfx.reply_w = a.cw, gfx.reply_h = a.ch;
	return changed;
}

/* Read the replies to the queries until the device attributes come (every
 * terminal answers those, after the others) or ms pass; keys typed
 * meanwhile go back to curses, in order. */
static void
gfx_read_replies(struct answers *a, int ms)
{
	char buf[4096], seq[512], keys[256];
	size_t nb = 0, nk = 0;
	long long end = pe_clock_ms() + ms;

	while (!a->da) {
		long long left = end - pe_clock_ms();
		struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
		if (left <= 0 || poll(&p, 1, (int)left) <= 0 ||
		    !(p.revents & POLLIN))
			break;
		ssize_t r = read(STDIN_FILENO, buf + nb, sizeof buf - nb);
		if (r <= 0)
			break;
		nb += (size_t)r;
		/* whole sequences out of the buffer, the rest are keys */
		size_t i = 0;
		while (i < nb) {
			if (buf[i] != '\033') {
				if (nk < sizeof keys)
					keys[nk++] = buf[i];
				i++;
				continue;
			}
			size_t j = i + 1;
			bool str = j < nb && buf[j] == '_', done = false;
			if (j < nb && (buf[j] == '[' || str)) {
				for (j++; j < nb; j++) {
					if (str && buf[j] == '\\' && buf[j - 1] == '\033') {
						done = true;
						break;
					}
					if (!str && buf[j] >= 0x40 && buf[j] <= 0x7e) {
						done = true;
						break;
					}
				}
			} else if (j < nb) {
				done = true; /* ESC and a key: Alt, give it back */
				j = i;
			}
			if (!done)
				break; /* the rest comes with the next read */
			size_t l = j - i + 1;
			if (l < sizeof seq) {
				memcpy(seq, buf + i, l);
				seq[l] = '\0';
				if (!gfx_parse_reply(seq, a))
					for (size_t k = 0; k < l && nk < sizeof keys; k++)
						keys[nk++] = seq[k];
			}
			i = j + 1;
		}
		memmove(buf, buf + i, nb - i);
		nb -= i;
	}
	/* keys back to curses: the last first, so they come out in order */
	for (size_t k = nb; k > 0; k--)
		if (nk < sizeof keys)
			keys[nk++] = buf[nb - k];
	for (size_t k = nk; k > 0; k--)
		ungetch((unsigned char)keys[k - 1]);
}

/* Whether tmux passes sequences through to the terminal around it
 * (allow-passthrough on, tmux 3.3), by asking tmux. */
static bool
gfx_tmux_passthrough(void)
{
	FILE *p = popen("tmux show-options -gv allow-passthrough 2>/dev/null",
	    "r");
	char line[32] = "";
	if (p == NULL)
		return false;
	if (fgets(line, sizeof line, p) == NULL)
		line[0] = '\0';
	pclose(p);
	return strncmp(line, "on", 2) == 0 || strncmp(line, "all", 3) == 0;
}

/* tmux: where the pane's first cell is on the terminal around tmux (its
 * place in the window, below a status line at the top): pictures are
 * placed by moving the terminal's cursor itself, inside the passthrough,
 * since tmux moves it to the pane's cursor only when it draws cells.
 * 0, 0 when tmux does not say. */
static void
gfx_tmux_offset(void)
{
	const char *pane = getenv("TMUX_PANE");
	char cmd[128], line[64] = "", pos[16] = "", status[8] = "";
	int x = 0, y = 0, st = 0;
	gfx.ox = gfx.oy = 0;
	if (pane == NULL || strlen(pane) > 16 || strspn(pane, "%0123456789") !=
	    strlen(pane))
		pane = "";
	snprintf(cmd, sizeof cmd, "tmux display-message -p %s%s '#{pane_left} "
	    "#{pane_top} #{status-position} #{status}' 2>/dev/null", *pane !=
	    '\0' ? "-t " : "", pane);
	FILE *p = popen(cmd, "r");
	if (p == NULL)
		return;
	if (fgets(line, sizeof line, p) == NULL)
		line[0] = '\0';
	pclose(p);
	if (sscanf(line, "%d %d %15s %7s", &x, &y, pos, status) < 2 || x < 0 ||
	    y < 0 || x > 10000 || y > 10000)
		return;
	/* status: on, off, or its lines (2 to 5) */
	if (strcmp(pos, "top") == 0)
		st = strcmp(status, "on") == 0 ? 1 : atoi(status);
	gfx.ox = x;
	gfx.oy = y + (st > 0 && st <= 5 ? st : 0);
}

/* Whether an environment variable holds s (or starts with it). */
static bool
env_is(const char *name, const char *s, bool prefix)
{
	const char *v = getenv(name);
	if (v == NULL)
		return false;
	return prefix ? strncmp(v, s, strlen(s)) == 0 : strcmp(v, s) == 0;
}

static enum pe_gfx gfx_start(enum pe_gfx want, FILE *out, char *why,
    size_t cap);
static void gfx_forget(void);

/* Choose the mode; see tui.h. Auto that finds no pictures says nothing:
 * the frame is then today's, status line included. */
enum pe_gfx
pe_gfx_start(enum pe_gfx want, FILE *out, char *why, size_t cap)
{
	enum pe_gfx g = gfx_start(want, out, why, cap);
	if (want == PE_GFX_AUTO && g == PE_GFX_CELLS)
		why[0] = '\0';
	return g;
}

/* Choose the mode; why says what was chosen and why. */
static enum pe_gfx
gfx_start(enum pe_gfx want, FILE *out, char *why, size_t cap)
{
	struct answers a = {0};
	int cw, ch;

	gfx.mode = PE_GFX_CELLS;
	gfx.out = out;
	gfx_forget();
	gfx.dirty = true;
	gfx.tmux = false;
	gfx.ox = gfx.oy = 0;
	gfx.offscreen = false;
	gfx.mouse_px = gfx.mouse_on = false;
	why[0] = '\0';
	if (want == PE_GFX_CELLS)
		return gfx.mode;
	bool in_tmux = getenv("TMUX") != NULL || env_is("TERM", "tmux", true);
	if (env_is("TERM", "screen", true) && !in_tmux) {
		snprintf(why, cap, "graphics: cells (screen passes no images)");
		return gfx.mode;
	}
	if (in_tmux) {
		if (!gfx_tmux_passthrough()) {
			snprintf(why, cap, "graphics: cells (tmux: set "
			    "allow-passthrough on for images)");
			return gfx.mode;
		}
		gfx.tmux = true;
		gfx_tmux_offset();
	}
	if (env_is("TERM", "dumb", false) || getenv("TERM") == NULL) {
		snprintf(why, cap, "graphics: cells (TERM=dumb)");
		return gfx.mode;
	}
	/* the queries: kitty's (a 1 x 1 image it only checks), a cell's
	 * pixels, whether the mouse can report pixels (DECRQM 1016; tmux
	 * reports cells to its panes), then the device attributes, which
	 * every terminal answers last */
	static const char kq[] = "\033_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\033\\";
	if (want == PE_GFX_AUTO)
		gfx_put(kq, sizeof kq - 1);
	gfx_put("\033[16t", 5);
	if (!gfx.tmux)
		gfx_put("\033[?1016$p", 9);
	fputs("\033[c", out); /* tmux's own answer ends the wait */
	fflush(out);
	gfx_read_replies(&a, PE_GFX_QUERY_MS);
	gfx.reply_w = a.cw, gfx.reply_h = a.ch;
	enum pe_gfx m = want;
	const char *how = "asked for";
	if (want == PE_GFX_AUTO) {
		how = "the terminal's answers";
		if (a.kitty)
			m = PE_GFX_KITTY;
		else if (a.sixel)
			m = PE_GFX_SIXEL;
		else if (env_is("TERM_PROGRAM", "iTerm.app", false) ||
		    env_is("TERM_PROGRAM", "WezTerm", false) ||
		    env_is("LC_TERMINAL", "iTerm2", false)) {
			m = PE_GFX_ITERM;
			how = "TERM_PROGRAM";
		} else if (env_is("TERM", "xterm-kitty", false) ||
		    getenv("KITTY_WINDOW_ID") != NULL) {
			m = PE_GFX_KITTY;
			how = env_is("TERM", "xterm-kitty", false) ? "TERM" :
			    "KITTY_WINDOW_ID";
		} else {
			snprintf(why, cap, "graphics: cells (%s)", a.da
			    ? "the terminal shows no images" : "no answer from "
			    "the terminal");
			return gfx.mode;
		}
	}
	gfx.mode = m;
	gfx_cell_now(&cw, &ch);
	if (cw <= 0) {
		gfx.mode = PE_GFX_CELLS;
		snprintf(why, cap, "graphics: cells (%s: the terminal did not "
		    "say its cell's pixels)", pe_gfx_name(m));
		return gfx.mode;
	}
	gfx.mouse_px = !gfx.tmux && gfx_px_usable(a.px_mode);
	/* xterm numbers pixels from 1, as it does cells (xterm 379: the
	 * window's pixel 305 is 306); kitty from 0 (0.26.5: 305 is 305) */
	gfx.mouse_from = env_is("TERM", "xterm-kitty", false) ||
	    getenv("KITTY_WINDOW_ID") != NULL ? 0 : 1;
	snprintf(why, cap, "graphics: %s, %dx%d-pixel cells (%s%s)",
	    pe_gfx_name(m), cw, ch, how, gfx.tmux ? ", through tmux" : "");
	return gfx.mode;
}

/* FNV-1a over a picture's place and pixels (64 bits at a time). */
static uint64_t
gfx_hash(const struct pe_pixmap *pm)
{
	uint64_t h = 1469598103934665603ull;
	int geo[6] = {pm->x, pm->y, pm->w, pm->h, pm->pw, pm->ph};
	for (int i = 0; i < 6; i++)
		h = (h ^ (uint64_t)(unsigned)geo[i]) * 1099511628211ull;
	size_t n = (size_t)pm->pw * (size_t)pm->ph;
	const uint32_t *p = pm->rgb;
	for (size_t i = 0; i + 1 < n; i += 2)
		h = (h ^ ((uint64_t)p[i] << 32 | p[i + 1])) * 1099511628211ull;
	if (n % 2 != 0)
		h = (h ^ p[n - 1]) * 1099511628211ull;
	return h;
}

/* Free a shown picture's bytes. */
static void
gfx_free_bytes(struct shown *o)
{
	for (int b = 0; b < o->nband; b++)
		if (o->bytes[b] != NULL)
			g_string_free(o->bytes[b], TRUE);
	o->nband = 0;
}

/* Forget what is on screen (its bytes freed). */
static void
gfx_forget(void)
{
	for (int i = 0; i < gfx.non; i++)
		gfx_free_bytes(&gfx.on[i]);
	gfx.non = 0;
}

/* Whether shown picture o is at pm's cells and pixels. */
static bool
gfx_same_place(const struct shown *o, const struct pe_pixmap *pm)
{
	return o->x == pm->x && o->y == pm->y && o->w == pm->w &&
	    o->h == pm->h && o->pw == pm->pw && o->ph == pm->ph;
}

/* The shown picture that is pm's pixels (kitty: but for the cursor's
 * frame; h: pm's hash when it has no serial), or NULL. */
static struct shown *
gfx_find(const struct pe_pixmap *pm, uint64_t h)
{
	bool kitty = gfx.mode == PE_GFX_KITTY;
	for (int i = 0; i < gfx.non; i++) {
		struct shown *o = &gfx.on[i];
		if (!gfx_same_place(o, pm) || o->serial != pm->serial)
			continue;
		if (pm->serial == 0 ? o->hash == h : kitty ||
		    (o->cw == pm->cur_w && (o->cw == 0 || (o->cx == pm->cur_x &&
		    o->cy == pm->cur_y && o->ch == pm->cur_h))))
			return o;
	}
	return NULL;
}

static void gfx_kitty_before(const struct pe_canvas *cv);

/* Before the refresh: kitty's new pictures' data sent; the lines of
 * sixel and iTerm2 pictures that go away written again by curses (those
 * pictures replace the cells). */
void
pe_gfx_before(const struct pe_canvas *cv, bool full)
{
	if (gfx.mode == PE_GFX_CELLS)
		return;
	if (full)
		gfx.dirty = true;
	if (full && gfx.tmux && !gfx.offscreen)
		gfx_tmux_offset(); /* a resize may have moved the pane */
	if (gfx.mode == PE_GFX_KITTY)
		gfx_kitty_before(cv);
	/* one update for the terminal: cells and pictures at once
	 * (synchronized output, mode 2026; ignored where unknown), begun
	 * before curses writes the cells (its own write(2), not ours) */
	fputs("\033[?2026h", gfx.out);
	fflush(gfx.out);
	if (gfx.mode == PE_GFX_KITTY || gfx.dirty || gfx.offscreen)
		return;
	for (int i = 0; i < gfx.non; i++) {
		bool kept = false;
		for (int k = 0; k < cv->npix && !kept; k++) {
			const struct pe_pixmap *pm = &cv->pix[k];
			kept = pm->x == gfx.on[i].x && pm->y == gfx.on[i].y &&
			    pm->w == gfx.on[i].w && pm->h == gfx.on[i].h;
		}
		if (!kept) {
			wredrawln(stdscr, gfx.on[i].y, gfx.on[i].h);
			gfx.dirty = true; /* what shared its lines goes too */
		}
	}
}

/* The terminal description chafa prints with on thread part (made once
 * a process, before any band's thread prints). */
static ChafaTermInfo *
gfx_term_info(int part)
{
	for (int b = 0; b < GFX_BANDS; b++)
		if (gfx.ti[b] == NULL)
			gfx.ti[b] = chafa_term_db_get_fallback_info(
			    chafa_term_db_get_default());
	return gfx.ti[part];
}

/* A chafa canvas of protocol g, w x h cells of cw x ch pixels. */
static ChafaCanvas *
gfx_canvas_new(enum pe_gfx g, int w, int h, int cw, int ch)
{
	ChafaCanvasConfig *cf = chafa_canvas_config_new();
	if (cf == NULL)
		return NULL;
	chafa_canvas_config_set_canvas_mode(cf, CHAFA_CANVAS_MODE_TRUECOLOR);
	chafa_canvas_config_set_dither_mode(cf, CHAFA_DITHER_MODE_NONE);
	chafa_canvas_config_set_pixel_mode(cf, g == PE_GFX_KITTY
	    ? CHAFA_PIXEL_MODE_KITTY : g == PE_GFX_ITERM ? CHAFA_PIXEL_MODE_ITERM2
	    : CHAFA_PIXEL_MODE_SIXELS);
	chafa_canvas_config_set_geometry(cf, w, h);
	chafa_canvas_config_set_cell_geometry(cf, cw, ch);
	ChafaCanvas *cv = chafa_canvas_new(cf);
	chafa_canvas_config_unref(cf);
	return cv;
}

/* kitty's bytes s from chafa made exact, in place. chafa 1.12's base64
 * ends a piece of 2 bytes past a multiple of 3 (every full piece: 512
 * bytes) with the last byte's low 4 bits in the wrong place of the digit
 * before '=' (b & 0x0f, not (b << 2) & 0x3c; chafa's f08d59c, 1.14): that
 * byte is a pixel's alpha (pieces are whole pixels), 0 or 255 in
 * pescope's pictures. 255 comes out 'P' (read back 243: a faint seam in
 * kitty, a pixel in 128), which is set to '8'; 0 is 'A' either way, and a
 * chafa without the defect never writes 'P' there. A piece is ESC _ G to
 * ESC \\ (no ESC inside); chafa's are all one length but the last two,
 * so a piece's end is looked for first where the last one's length puts
 * it (followed by the next piece's ESC), else found by memchr (a scan of
 * every byte, 0.3 ms of a 1100 x 1020-pixel picture's 9). A change is
 * only ever made before an ESC \\, at a payload's end. */
static void
gfx_kitty_repair(GString *s)
{
	char *p = s->str, *end = s->str + s->len, *e;
	size_t step = 0; /* the last piece's bytes (0: none yet) */
	while (end - p >= 4 && p[0] == '\033') {
		e = NULL;
		if (step > 0 && (size_t)(end - p) > 2 * step) {
			e = p + step - 2; /* where a piece as long ends */
			if (e[0] != '\033' || e[1] != '\\' || e[2] != '\033')
				e = NULL;
		}
		if (e == NULL) {
			e = memchr(p + 1, '\033', (size_t)(end - p - 1));
			if (e == NULL || e + 1 >= end || e[1] != '\\')
				return; /* not chafa's pieces: left as they are */
		}
		if (e - p >= 4 && e[-1] == '=' && e[-2] == 'P')
			e[-2] = '8';
		step = (size_t)(e + 2 - p);
		p = e + 2;
	}
}

/* A picture's bytes through chafa, printed with thread part's terminal
 * description, kitty's on canvas slot's kept one (slot: part, or
 * GFX_BANDS for the pictures of this thread alone): a canvas of exactly
 * its pixels, so nothing is scaled (sixel: one cell as tall as the
 * picture rounded up to sixel's bands of 6 rows, the rows added
 * transparent, so chafa does not scale it to a multiple of 6). */
static GString *
gfx_chafa_on(enum pe_gfx g, const struct pe_pixmap *pm, int part, int slot)
{
	const uint32_t *px = pm->rgb;
	uint32_t *pad = NULL;
	int h = pm->ph;
	int geo[4] = {pm->w, pm->h, pm->pw / pm->w, pm->ph / pm->h};

	if (g == PE_GFX_SIXEL) {
		h = (pm->ph + 5) / 6 * 6;
		if (h != pm->ph) {
			pad = calloc((size_t)pm->pw * (size_t)h, sizeof *pad);
			if (pad == NULL)
				return NULL;
			memcpy(pad, pm->rgb, (size_t)pm->pw * (size_t)pm->ph *
			    sizeof *pad);
			px = pad;
		}
		geo[0] = geo[1] = 1, geo[2] = pm->pw, geo[3] = h;
	}
	/* kitty's canvas is drawn on again by the next picture of its size
	 * (its making, the symbol maps, was 2.5% of a change's CPU); sixel's
	 * and iTerm2's are made for each picture, as they were */
	struct gfx_canvas *k = g == PE_GFX_KITTY ? &gfx.canvas[slot] : NULL;
	ChafaCanvas *cv = NULL;
	if (k != NULL && k->cv != NULL && memcmp(k->geo, geo, sizeof geo) == 0)
		cv = k->cv;
	else {
		cv = gfx_canvas_new(g, geo[0], geo[1], geo[2], geo[3]);
		if (k != NULL && cv != NULL) {
			if (k->cv != NULL)
				chafa_canvas_unref(k->cv);
			k->cv = cv;
			memcpy(k->geo, geo, sizeof geo);
		}
	}
	GString *s = NULL;
	if (cv != NULL) {
		/* 0xFFRRGGBB in memory order: B, G, R, A; premultiplied, as
		 * every pixel is opaque or 0 (the frame's, sixel's rows
		 * added), where it is the same: smolscale then only moves
		 * the channels, with no multiply by alpha */
		chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_BGRA8_PREMULTIPLIED,
		    (const guint8 *)px, pm->pw, h, pm->pw * 4);
		s = chafa_canvas_print(cv, gfx.ti[part]);
		if (k == NULL)
			chafa_canvas_unref(cv);
	}
	free(pad);
	if (s != NULL && g == PE_GFX_KITTY)
		gfx_kitty_repair(s);
	return s;
}

/* Ready chafa for protocol g's pictures, on this thread, none printing:
 * the terminal descriptions made, and chafa's threads: kitty's pictures
 * are made a band a thread of our own (pe_pool_run2), so chafa uses
 * none of its own (each call's pool of threads, on cores the bands
 * already fill, cost more than it gave: 9.4 -> 8.6 ms of CPU a 1100 x
 * 1020-pixel picture); sixel's and iTerm2's one picture all of them. */
static void
gfx_chafa_begin(enum pe_gfx g)
{
	static int threads; /* what chafa was told (0: nothing) */
	int want = g == PE_GFX_KITTY ? 1 : -1;
	gfx_term_info(0);
	if (threads != want)
		chafa_set_n_threads(want);
	threads = want;
}

/* A picture's bytes through chafa, on this thread. */
static GString *
gfx_chafa(enum pe_gfx g, const struct pe_pixmap *pm)
{
	gfx_chafa_begin(g);
	return gfx_chafa_on(g, pm, 0, GFX_BANDS);
}

/* A picture's bytes; see tui.h. */
int
pe_gfx_encode(enum pe_gfx g, const struct pe_pixmap *pm, int cw, int ch,
    char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	if (g != PE_GFX_KITTY && g != PE_GFX_ITERM && g != PE_GFX_SIXEL)
		return -1;
	(void)cw, (void)ch;
	GString *s = gfx_chafa(g, pm);
	if (s == NULL)
		return -1;
	*len = s->len;
	*out = g_string_free(s, FALSE);
	return 0;
}

static bool gfx_write_after(const struct pe_pixmap *pm, const char *head,
    size_t hn, const char *s, size_t n);
static void gfx_kitty_delete(uint32_t id);

/* Write a picture's bytes at its cells, a chunk at a time; false when a
 * key came first (the picture was cut short: sixel's string ended, kitty's
 * transfer closed and the picture deleted). */
static bool
gfx_write(const struct pe_pixmap *pm, const char *s, size_t n)
{
	return gfx_write_after(pm, NULL, 0, s, n);
}

/* gfx_write, with head[hn] (whole pieces) first. */
static bool
gfx_write_after(const struct pe_pixmap *pm, const char *head, size_t hn,
    const char *s, size_t n)
{
	static const char cut_kitty[] = "\033_Gm=0;\033\\";
	char at[32];
	/* tmux: the move in every passthrough (kitty places an image where
	 * the cursor is when its last piece comes), and a sixel or iTerm2
	 * picture in one (tmux's own sequences between two would end it) */
	size_t an = (size_t)snprintf(at, sizeof at, "\033[%d;%dH", gfx.oy +
	    pm->y + 1, gfx.ox + pm->x + 1);
	size_t most = gfx.tmux && gfx.mode != PE_GFX_KITTY ? n : GFX_CHUNK;
	if (!gfx.tmux)
		fputs("\0337", gfx.out);
	for (size_t i = 0; i < n || (n == 0 && i == 0);) {
		size_t k = n - i < most ? n - i : most;
		if (gfx.mode == PE_GFX_KITTY) {
			/* whole APC pieces: up to the ESC \ that ends one */
			const char *e = i + k < n ? memmem(s + i + k, n - i - k,
			    "\033\\", 2) : NULL;
			k = e != NULL ? (size_t)(e - s) + 2 - i : n - i;
		}
		const char *p[3] = {at, head, s + i};
		size_t len[3] = {an, i == 0 ? hn : 0, k};
		if (!gfx.tmux && i > 0)
			len[0] = 0; /* the cursor stays where the last left it */
		gfx_putv(p, len, 3);
		fflush(gfx.out);
		i += k;
		if (k == 0)
			break;
		if (i < n && gfx.mode != PE_GFX_ITERM && !gfx.offscreen &&
		    pe_input_pending()) {
			if (gfx.mode == PE_GFX_SIXEL) {
				gfx_put("\033\\", 2);
			} else { /* the transfer ended, the image deleted */
				gfx_put(cut_kitty, sizeof cut_kitty - 1);
				gfx_kitty_delete(gfx.sending);
			}
			if (!gfx.tmux)
				fputs("\0338", gfx.out);
			return false;
		}
	}
	if (!gfx.tmux)
		fputs("\0338", gfx.out);
	return true;
}

/* Send kitty's bytes s of a picture (chafa's transmission: its first
 * piece the picture's keys, "ESC _ G a=T,...;ESC \\") as image id
 * without a reply, its keys changed in its first piece, written before
 * the rest: with z (0 or more) placed at z-index z, the cursor left where
 * it is (C=1: kitty would move it past the image, which can scroll);
 * with z -1 only its data (a=t), placed later (gfx_kitty_show). False
 * when a key cut it short. */
static bool
gfx_kitty_send(const struct pe_pixmap *pm, const GString *s, uint32_t id,
    int z)
{
	char head[256];
	const char *end = strstr(s->str, "\033\\");
	if (strncmp(s->str, "\033_Ga=T,", 7) != 0 || end == NULL ||
	    end - s->str > 160)
		return gfx_write(pm, s->str, s->len); /* not chafa 1.12's */
	size_t first = (size_t)(end - s->str) + 2;
	int hn = z < 0 ? snprintf(head, sizeof head, "\033_Ga=t,i=%u,q=2,%.*s",
	    (unsigned)id, (int)(first - 7), s->str + 7) : snprintf(head,
	    sizeof head, "\033_Ga=T,i=%u,z=%d,q=2,C=1,%.*s", (unsigned)id, z,
	    (int)(first - 7), s->str + 7);
	gfx.sending = id;
	bool whole = gfx_write_after(pm, head, (size_t)hn, s->str + first,
	    s->len - first);
	gfx.sending = 0;
	return whole;
}

/* Delete kitty image id and its data. */
static void
gfx_kitty_delete(uint32_t id)
{
	char d[48];
	if (id == 0)
		return;
	int n = snprintf(d, sizeof d, "\033_Ga=d,d=I,i=%u,q=2\033\\",
	    (unsigned)id);
	gfx_put(d, (size_t)n);
}

/* A new kitty image id: this process's own (its pid's low 20 bits
 * above 12 of a counter, past the query's 31), so that two pescopes in
 * one kitty (tmux panes) never replace or delete each other's images. */
static uint32_t
gfx_kitty_id(void)
{
	uint32_t base = ((uint32_t)getpid() & 0xfffffu) << 12;
	gfx.next_id = gfx.next_id >= 4095 || gfx.next_id < 64 ? 64 :
	    gfx.next_id + 1;
	return base | gfx.next_id;
}

/* The cursor's frame of pm as a kitty image over the cells it touches
 * (transparent but for the rings), sent as image id; false when a key
 * cut it short or memory ran out. */
static bool
gfx_kitty_frame(const struct pe_pixmap *pm, uint32_t id)
{
	int cw = pm->pw / pm->w, ch = pm->ph / pm->h;
	int x0 = pm->cur_x - 2, x1 = pm->cur_x + pm->cur_w + 2;
	int y0 = pm->cur_y - 2, y1 = pm->cur_y + pm->cur_h + 2;
	x0 = x0 < 0 ? 0 : x0, y0 = y0 < 0 ? 0 : y0;
	x1 = x1 > pm->pw ? pm->pw : x1, y1 = y1 > pm->ph ? pm->ph : y1;
	int a = x0 / cw, b = (x1 + cw - 1) / cw, t = y0 / ch, u = (y1 + ch -
	    1) / ch;
	struct pe_pixmap fr = {.x = pm->x + a, .y = pm->y + t, .w = b - a,
	    .h = u - t, .pw = (b - a) * cw, .ph = (u - t) * ch};
	fr.rgb = calloc((size_t)fr.pw * (size_t)fr.ph, sizeof *fr.rgb);
	if (fr.rgb == NULL)
		return false;
	for (int y = y0; y < y1; y++)
		for (int x = x0; x < x1; x++)
			if (pe_pixmap_on_frame(pm, x, y))
				fr.rgb[(size_t)(y - t * ch) * (size_t)fr.pw +
				    (size_t)(x - a * cw)] = pm->rgb[(size_t)y *
				    (size_t)pm->pw + (size_t)x];
	GString *s = gfx_chafa(PE_GFX_KITTY, &fr);
	free(fr.rgb);
	if (s == NULL)
		return false;
	bool whole = gfx_kitty_send(&fr, s, id, 1);
	g_string_free(s, TRUE);
	return whole;
}

/* Band b of n of picture pm: its cell rows [h b / n, h (b + 1) / n),
 * their pixels pm's own (rows of a picture are contiguous). */
static struct pe_pixmap
gfx_band(const struct pe_pixmap *pm, int n, int b)
{
	int ch = pm->ph / pm->h;
	int t = pm->h * b / n, u = pm->h * (b + 1) / n;
	return (struct pe_pixmap){.x = pm->x, .y = pm->y + t, .w = pm->w,
	    .h = u - t, .pw = pm->pw, .ph = (u - t) * ch,
	    .rgb = pm->rgb + (size_t)t * (size_t)ch * (size_t)pm->pw};
}

/* The bands chafa makes at once (gfx_kitty_plain's job). */
struct gfx_bands {
	const struct pe_pixmap *pm;
	struct shown *o;
};

/* Part part's band of a picture: its kitty bytes. */
static void
gfx_band_part(void *arg, int part)
{
	struct gfx_bands *j = arg;
	struct pe_pixmap band = gfx_band(j->pm, j->o->nband, part);
	j->o->bytes[part] = gfx_chafa_on(PE_GFX_KITTY, &band, part,
	    part);
}

/* kitty's bytes of pm's picture without its cursor's frame (the frame's
 * pixels exchanged with what they cover for chafa, then back: the
 * canvas's pixels as they were) into o: a large picture's bands at once,
 * each an image with an id of its own. False out of memory (o has none). */
static bool
gfx_kitty_plain(const struct pe_pixmap *pm, struct shown *o)
{
	struct pe_pixmap *w = (struct pe_pixmap *)pm; /* the canvas's own */
	bool framed = pm->serial != 0 && pm->cur_w > 0, ok = true;
	o->nband = pm->h >= GFX_BANDS && (size_t)pm->pw * (size_t)pm->ph >=
	    GFX_BAND_PIXELS ? GFX_BANDS : 1;
	gfx_chafa_begin(PE_GFX_KITTY); /* before the threads print */
	if (framed)
		pe_pixmap_swap_frame(w);
	struct gfx_bands job = {pm, o};
	if (o->nband == 2)
		pe_pool_run2(gfx_band_part, &job);
	else
		gfx_band_part(&job, 0);
	if (framed)
		pe_pixmap_swap_frame(w);
	for (int b = 0; b < o->nband; b++) {
		ok = ok && o->bytes[b] != NULL;
		o->id[b] = gfx_kitty_id();
	}
	if (!ok)
		gfx_free_bytes(o);
	return ok;
}

/* Send a picture's images' data with new ids (before the update, not
 * yet shown); false when a key cut it short. */
static bool
gfx_kitty_transmit(const struct pe_pixmap *pm, struct shown *o)
{
	bool whole = true;
	for (int b = 0; b < o->nband && whole; b++) {
		struct pe_pixmap band = gfx_band(pm, o->nband, b);
		o->id[b] = gfx_kitty_id();
		whole = gfx_kitty_send(&band, o->bytes[b], o->id[b], -1);
	}
	return whole;
}

/* Place a picture's images, their data sent, each at its band's first
 * cell over its cells (z 0, the cursor left where it is). */
static void
gfx_kitty_show(const struct pe_pixmap *pm, const struct shown *o)
{
	for (int b = 0; b < o->nband; b++) {
		struct pe_pixmap band = gfx_band(pm, o->nband, b);
		char p[96];
		int n = snprintf(p, sizeof p, "\033_Ga=p,i=%u,z=0,c=%d,r=%d,C=1,"
		    "q=2\033\\", (unsigned)o->id[b], band.w, band.h);
		gfx_write(&band, p, (size_t)n); /* one piece: never cut */
	}
}

/* kitty, before the update: this frame's pictures (gfx.next), those
 * kept found among what is on screen, and the data of every new picture
 * sent with new ids, not yet shown: the picture's megabytes go before
 * the update, which then holds only the cells, the deletions and the
 * placements (kitty ends an update early past about a megabyte, showing
 * the screen half done). Not when the frame starts from a screen not
 * known (the first, a resize, a clear): curses clears the screen in it,
 * and kitty frees the data of images not placed when the screen is
 * cleared; those are sent and placed at once in the update. */
static void
gfx_kitty_before(const struct pe_canvas *cv)
{
	int n = cv->npix < GFX_MAX ? cv->npix : GFX_MAX;
	struct shown *was[GFX_MAX];
	bool whole = true;

	memset(gfx.keep, 0, sizeof gfx.keep);
	for (int i = 0; i < n; i++) {
		/* a picture with a serial is known by it */
		uint64_t h = cv->pix[i].serial != 0 ? 0 : gfx_hash(&cv->pix[i]);
		const struct pe_pixmap *pm = &cv->pix[i];
		struct shown *o = &gfx.next[i];
		was[i] = gfx_find(pm, h);
		if (was[i] != NULL && !gfx.keep[was[i] - gfx.on])
			gfx.keep[was[i] - gfx.on] = true;
		else
			was[i] = NULL;
		if (was[i] != NULL)
			*o = *was[i];
		else
			*o = (struct shown){pm->x, pm->y, pm->w, pm->h, pm->pw,
			    pm->ph, pm->serial, h, 0, 0, 0, 0, 0, false, false,
			    0, {0}, {NULL}};
		o->sent = false;
		if (gfx.dirty) /* every image goes in the update */
			o->placed = false, o->frame = 0;
		if (o->placed || !whole || gfx.dirty)
			continue;
		if (o->nband == 0 && !gfx_kitty_plain(pm, o))
			continue;
		whole = gfx_kitty_transmit(pm, o);
		o->sent = whole;
	}
	gfx.nnext = n;
	gfx.sent_whole = whole;
	gfx.was_dirty = gfx.dirty;
	gfx.ready = true;
}

/* kitty, in the update: the pictures sent placed, then those gone
 * deleted by id (after a clear, every image known), a kept picture left
 * where it is, a picture after a clear sent and placed at once, and each
 * cursor frame that moved replaced (a small image of its own, sent and
 * placed at once). */
static void
gfx_kitty_after(const struct pe_canvas *cv)
{
	int n = gfx.nnext;
	bool whole = gfx.sent_whole;

	if (!gfx.ready || n != (cv->npix < GFX_MAX ? cv->npix : GFX_MAX)) {
		gfx_kitty_before(cv); /* not this frame's: made now */
		n = gfx.nnext, whole = gfx.sent_whole;
	}
	gfx.ready = false;
	/* the data sent placed first: a delete that frees data (d=I) frees
	 * every image without a placement, these too */
	for (int i = 0; i < n; i++) {
		struct shown *o = &gfx.next[i];
		if (o->sent) {
			gfx_kitty_show(&cv->pix[i], o);
			o->placed = true, o->sent = false;
			o->frame = 0, o->cw = 0; /* its frame, placed again */
		}
	}
	for (int j = 0; j < gfx.non; j++) {
		struct shown *o = &gfx.on[j];
		bool gone = !gfx.keep[j];
		bool off = (gone && o->placed) || gfx.was_dirty;
		for (int b = 0; off && b < o->nband; b++)
			gfx_kitty_delete(o->id[b]); /* its data too */
		if (gone || gfx.was_dirty)
			gfx_kitty_delete(o->frame);
		if (gone)
			gfx_free_bytes(o);
	}
	for (int i = 0; i < n; i++) {
		const struct pe_pixmap *pm = &cv->pix[i];
		struct shown *o = &gfx.next[i];
		if (!whole) { /* a key cut the data short: all again */
			o->placed = false, o->frame = 0;
			continue;
		}
		if (!o->placed) { /* after a clear: sent and placed now */
			if (o->nband == 0 && !gfx_kitty_plain(pm, o))
				continue;
			for (int b = 0; b < o->nband && whole; b++) {
				struct pe_pixmap band = gfx_band(pm, o->nband, b);
				o->id[b] = gfx_kitty_id();
				whole = gfx_kitty_send(&band, o->bytes[b], o->id[b],
				    0);
			}
			o->placed = whole;
			o->frame = 0, o->cw = 0;
			if (!whole)
				continue;
		}
		if (!o->placed || pm->serial == 0)
			continue; /* no picture, or its frame in its pixels */
		bool moved = o->cw != pm->cur_w || o->cx != pm->cur_x ||
		    o->cy != pm->cur_y || o->ch != pm->cur_h;
		if (!moved && (o->frame != 0 || pm->cur_w == 0))
			continue;
		gfx_kitty_delete(o->frame);
		o->frame = 0;
		o->cx = pm->cur_x, o->cy = pm->cur_y;
		o->cw = pm->cur_w, o->ch = pm->cur_h;
		if (pm->cur_w > 0) {
			uint32_t id = gfx_kitty_id();
			whole = gfx_kitty_frame(pm, id);
			o->frame = whole ? id : 0;
		}
	}
	memcpy(gfx.on, gfx.next, (size_t)n * sizeof *gfx.next);
	gfx.non = n;
	gfx.dirty = !whole; /* cut short: all again next frame */
	fputs("\033[?2026l", gfx.out);
	fflush(gfx.out);
}

/* After the refresh: the pictures that changed; see tui.h. */
void
pe_gfx_after(const struct pe_canvas *cv)
{
	uint64_t h[GFX_MAX];
	int n = cv->npix < GFX_MAX ? cv->npix : GFX_MAX;
	bool change = gfx.dirty || n != gfx.non;

	if (gfx.mode == PE_GFX_CELLS)
		return;
	if (gfx.mode == PE_GFX_KITTY) {
		gfx_kitty_after(cv);
		return;
	}
	for (int i = 0; i < n; i++) /* a picture with a serial is known */
		h[i] = cv->pix[i].serial != 0 ? 0 : gfx_hash(&cv->pix[i]);
	for (int i = 0; i < n; i++)
		if (gfx_find(&cv->pix[i], h[i]) == NULL)
			change = true;
	if (!change) {
		fputs("\033[?2026l", gfx.out);
		fflush(gfx.out);
		return;
	}
	struct shown next[GFX_MAX];
	int non = 0;
	bool whole = true;
	for (int i = 0; i < n && whole; i++) {
		const struct pe_pixmap *pm = &cv->pix[i];
		struct shown now = {pm->x, pm->y, pm->w, pm->h, pm->pw, pm->ph,
		    pm->serial, h[i], pm->cur_x, pm->cur_y, pm->cur_w,
		    pm->cur_h, 0, false, false, 0, {0}, {NULL}};
		if (!gfx.dirty && gfx_find(pm, h[i]) != NULL) {
			next[non++] = now;
			continue;
		}
		GString *s = gfx_chafa(gfx.mode, pm);
		if (s == NULL)
			continue;
		whole = gfx_write(pm, s->str, s->len);
		g_string_free(s, TRUE);
		/* a picture cut short is on screen in part: it is never the
		 * same as a new one, and its lines go if it goes */
		if (!whole)
			now.serial = 0, now.hash = 0;
		next[non++] = now;
	}
	memcpy(gfx.on, next, (size_t)non * sizeof *next);
	gfx.non = non;
	gfx.dirty = !whole; /* cut short: all again next frame */
	fputs("\033[?2026l", gfx.out);
	fflush(gfx.out);
}

/* Pointer pixels in mouse reports on (after a frame curses refreshed,
 * so after its own mouse modes) or off (before curses leaves); see
 * tui.h. */
void
pe_gfx_mouse(bool on)
{
	if (gfx.out == NULL || gfx.offscreen || !gfx.mouse_px ||
	    on == gfx.mouse_on)
		return;
	fputs(on ? "\033[?1016h" : "\033[?1016l", gfx.out);
	fflush(gfx.out);
	gfx.mouse_on = on;
}

/* A report's pixel from 0, as curses decoded it (one less than the
 * report's numbers); see tui.h. */
bool
pe_gfx_mouse_at(int x, int y, struct pe_gfx_pointer *p)
{
	if (!gfx.mouse_on || gfx.mode == PE_GFX_CELLS)
		return false;
	gfx_cell_now(&p->cw, &p->ch);
	p->px = x + 1 - gfx.mouse_from;
	p->py = y + 1 - gfx.mouse_from;
	if (p->cw <= 0 || p->ch <= 0 || p->px < 0 || p->py < 0)
		return false;
	p->x = p->px / p->cw, p->y = p->py / p->ch;
	return true;
}

/* Every picture off the screen. */
void
pe_gfx_stop(void)
{
	if (gfx.mode == PE_GFX_KITTY && gfx.out != NULL) {
		/* this process's own, by id: not another's in the same kitty */
		for (int j = 0; j < gfx.non; j++) {
			for (int b = 0; b < gfx.on[j].nband; b++)
				gfx_kitty_delete(gfx.on[j].id[b]);
			gfx_kitty_delete(gfx.on[j].frame);
		}
		fflush(gfx.out);
	}
	gfx_forget();
	gfx.dirty = true;
}

/* Offscreen pictures as through tmux's passthrough; see tui.h. */
void
pe_gfx_offscreen_tmux(int ox, int oy)
{
	gfx.tmux = gfx.offscreen;
	gfx.ox = gfx.tmux ? ox : 0;
	gfx.oy = gfx.tmux ? oy : 0;
}

/* Write pictures to out as protocol g would to a terminal; see tui.h. */
void
pe_gfx_offscreen(enum pe_gfx g, FILE *out)
{
	gfx_forget();
	gfx.mode = g;
	gfx.out = out;
	gfx.tmux = false;
	gfx.ox = gfx.oy = 0;
	gfx.dirty = true;
	gfx.offscreen = out != NULL;
	if (out == NULL)
		gfx.mode = PE_GFX_CELLS;
}
