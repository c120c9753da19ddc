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
#include "tui/tui.h"

/* The most pictures on screen at once (compare mode has two). */
#define GFX_MAX 8
/* Bytes written between looks at the keyboard. */
#define GFX_CHUNK 16384

/* A picture as it was written. */
struct shown {
	int x, y, w, h, pw, ph;
	uint64_t hash;
};

static struct {
	enum pe_gfx mode;
	FILE *out;
	bool tmux;	   /* wrap each sequence in tmux's passthrough */
	int reply_w, reply_h; /* a cell's pixels from XTWINOPS 16 t */
	struct shown on[GFX_MAX];
	int non;
	bool dirty;	   /* what is on screen is not known: write all */
	ChafaTermInfo *ti;
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

/* Write bytes as they are, or inside tmux's passthrough (DCS tmux; with
 * each ESC doubled; tmux 3.3's allow-passthrough). */
static void
gfx_put(const char *s, size_t n)
{
	if (!gfx.tmux) {
		fwrite(s, 1, n, gfx.out);
		return;
	}
	fputs("\033Ptmux;", gfx.out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\033')
			fputc('\033', gfx.out);
		fputc(s[i], gfx.out);
	}
	fputs("\033\\", gfx.out);
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
	return false;
}

/* A reply that came after the start (input.c: PE_IN_REPLY). */
bool
pe_gfx_reply(const char *seq)
{
	struct answers a = {0};
	if (!gfx_parse_reply(seq, &a) || a.cw <= 0 || a.ch <= 0)
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
	gfx.non = 0;
	gfx.dirty = true;
	gfx.tmux = false;
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
	}
	if (env_is("TERM", "dumb", false) || getenv("TERM") == NULL) {
		snprintf(why, cap, "graphics: cells (TERM=dumb)");
		return gfx.mode;
	}
	/* the queries: kitty's (a 1 x 1 image it only checks), a cell's
	 * pixels, then the device attributes, which every terminal answers
	 * last */
	static const char kq[] = "\033_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\033\\";
	if (want == PE_GFX_AUTO)
		gfx_put(kq, sizeof kq - 1);
	gfx_put("\033[16t", 5);
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
			how = "TERM";
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

/* Whether a picture is on screen as it is now. */
static bool
gfx_is_on(const struct pe_pixmap *pm, uint64_t h)
{
	for (int i = 0; i < gfx.non; i++)
		if (gfx.on[i].hash == h && gfx.on[i].x == pm->x &&
		    gfx.on[i].y == pm->y && gfx.on[i].w == pm->w &&
		    gfx.on[i].h == pm->h)
			return true;
	return false;
}

/* Before the refresh: the lines of pictures that go away are written
 * again by curses (sixel and iTerm2 pictures replace the cells). */
void
pe_gfx_before(const struct pe_canvas *cv, bool full)
{
	if (gfx.mode == PE_GFX_CELLS)
		return;
	if (full)
		gfx.dirty = true;
	/* one update for the terminal: cells and pictures at once
	 * (synchronized output, mode 2026; ignored where unknown) */
	fputs("\033[?2026h", gfx.out);
	if (gfx.mode == PE_GFX_KITTY || gfx.dirty)
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

/* A picture's bytes through chafa: a canvas of exactly its pixels, so
 * nothing is scaled (sixel: one cell as tall as the picture rounded up
 * to sixel's bands of 6 rows, the rows added transparent, so chafa does
 * not scale it to a multiple of 6). */
static GString *
gfx_chafa(enum pe_gfx g, const struct pe_pixmap *pm, int cw, int ch)
{
	ChafaCanvasConfig *cf = chafa_canvas_config_new();
	const uint32_t *px = pm->rgb;
	uint32_t *pad = NULL;
	int h = pm->ph;

	if (cf == NULL)
		return NULL;
	chafa_canvas_config_set_canvas_mode(cf, CHAFA_CANVAS_MODE_TRUECOLOR);
	chafa_canvas_config_set_dither_mode(cf, CHAFA_DITHER_MODE_NONE);
	chafa_canvas_config_set_pixel_mode(cf, g == PE_GFX_KITTY
	    ? CHAFA_PIXEL_MODE_KITTY : g == PE_GFX_ITERM ? CHAFA_PIXEL_MODE_ITERM2
	    : CHAFA_PIXEL_MODE_SIXELS);
	if (g == PE_GFX_SIXEL) {
		h = (pm->ph + 5) / 6 * 6;
		if (h != pm->ph) {
			pad = calloc((size_t)pm->pw * (size_t)h, sizeof *pad);
			if (pad == NULL) {
				chafa_canvas_config_unref(cf);
				return NULL;
			}
			memcpy(pad, pm->rgb, (size_t)pm->pw * (size_t)pm->ph *
			    sizeof *pad);
			px = pad;
		}
		chafa_canvas_config_set_geometry(cf, 1, 1);
		chafa_canvas_config_set_cell_geometry(cf, pm->pw, h);
	} else {
		chafa_canvas_config_set_geometry(cf, pm->w, pm->h);
		chafa_canvas_config_set_cell_geometry(cf, pm->pw / pm->w,
		    pm->ph / pm->h);
	}
	(void)cw, (void)ch;
	ChafaCanvas *cv = chafa_canvas_new(cf);
	GString *s = NULL;
	if (cv != NULL) {
		/* 0xFFRRGGBB in memory order: B, G, R, A */
		chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_BGRA8_UNASSOCIATED,
		    (const guint8 *)px, pm->pw, h, pm->pw * 4);
		if (gfx.ti == NULL) /* one for the process, kept */
			gfx.ti = chafa_term_db_get_fallback_info(
			    chafa_term_db_get_default());
		s = chafa_canvas_print(cv, gfx.ti);
		chafa_canvas_unref(cv);
	}
	chafa_canvas_config_unref(cf);
	free(pad);
	return s;
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
	GString *s = gfx_chafa(g, pm, cw, ch);
	if (s == NULL)
		return -1;
	*len = s->len;
	*out = g_string_free(s, FALSE);
	return 0;
}

/* Write a picture's bytes at its cells, a chunk at a time; false when a
 * key came first (the picture was cut short: sixel's string ended, kitty's
 * transfer closed and the picture deleted). */
static bool
gfx_write(const struct pe_pixmap *pm, const char *s, size_t n)
{
	char at[32];
	snprintf(at, sizeof at, "\0337\033[%d;%dH", pm->y + 1, pm->x + 1);
	fputs(at, gfx.out);
	for (size_t i = 0; i < n;) {
		size_t k = n - i < GFX_CHUNK ? n - i : GFX_CHUNK;
		if (gfx.mode == PE_GFX_KITTY) {
			/* whole APC pieces: up to the ESC \ that ends one */
			const char *e = i + k < n ? memmem(s + i + k, n - i - k,
			    "\033\\", 2) : NULL;
			k = e != NULL ? (size_t)(e - s) + 2 - i : n - i;
		}
		gfx_put(s + i, k);
		fflush(gfx.out);
		i += k;
		if (i < n && gfx.mode != PE_GFX_ITERM && pe_input_pending()) {
			if (gfx.mode == PE_GFX_SIXEL)
				gfx_put("\033\\", 2);
			else
				gfx_put("\033_Gm=0;\033\\\033_Ga=d,d=A,q=2\033\\",
				    28);
			fputs("\0338", gfx.out);
			return false;
		}
	}
	fputs("\0338", gfx.out);
	return true;
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
	for (int i = 0; i < n; i++) {
		h[i] = gfx_hash(&cv->pix[i]);
		if (!gfx_is_on(&cv->pix[i], h[i]))
			change = true;
	}
	if (!change) {
		fputs("\033[?2026l", gfx.out);
		fflush(gfx.out);
		return;
	}
	if (gfx.mode == PE_GFX_KITTY) /* every picture off, then each new */
		gfx_put("\033_Ga=d,d=A,q=2\033\\", 16);
	int non = 0;
	bool whole = true;
	for (int i = 0; i < n && whole; i++) {
		const struct pe_pixmap *pm = &cv->pix[i];
		if (gfx.mode != PE_GFX_KITTY && !gfx.dirty && gfx_is_on(pm, h[i])) {
			gfx.on[non++] = (struct shown){pm->x, pm->y, pm->w, pm->h,
			    pm->pw, pm->ph, h[i]};
			continue;
		}
		GString *s = gfx_chafa(gfx.mode, pm, pm->pw / pm->w,
		    pm->ph / pm->h);
		if (s == NULL)
			continue;
		whole = gfx_write(pm, s->str, s->len);
		g_string_free(s, TRUE);
		/* a picture cut short is on screen in part: it is never the
		 * same as a new one (hash 0), and its lines go if it goes */
		gfx.on[non++] = (struct shown){pm->x, pm->y, pm->w, pm->h,
		    pm->pw, pm->ph, whole ? h[i] : 0};
	}
	gfx.non = non;
	gfx.dirty = !whole; /* cut short: all again next frame */
	fputs("\033[?2026l", gfx.out);
	fflush(gfx.out);
}

/* Every picture off the screen. */
void
pe_gfx_stop(void)
{
	if (gfx.mode == PE_GFX_KITTY && gfx.out != NULL) {
		gfx_put("\033_Ga=d,d=A,q=2\033\\", 16);
		fflush(gfx.out);
	}
	gfx.non = 0;
	gfx.dirty = true;
}
