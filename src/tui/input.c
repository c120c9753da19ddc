/* Input: curses keys and mouse events as terminal-independent events
 * (enum pe_key, clicks, wheel, resize), escape sequences curses does not
 * know read to their end, and the end of the terminal. */
#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tui/tui.h"
#include "view/state.h"

/* Esc alone must be quick to tell from the start of an escape sequence;
 * 25 ms is enough on a local or ssh terminal (htop uses 25 too). */
#define ESC_DELAY_MS 25
/* The rest of a sequence curses did not recognise comes at once; wait
 * this long for each further byte (a slow link may split a sequence). */
#define SEQ_BYTE_MS 50
/* Longest sequence read to its end (longer ones are cut there). */
#define SEQ_MAX 256

/* Keypad, mouse reporting and a short Esc delay on the current screen. */
void
pe_input_init(void)
{
	keypad(stdscr, TRUE);
	set_escdelay(ESC_DELAY_MS);
	mouseinterval(0);
	mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
}

/* ncurses' extended caps: k, the key, xterm's modifier number 2..8
 * (kNXT3 is Alt+PgDn, kDC5 Ctrl+Delete); the key each stands for (0:
 * none of ours) and its name. */
static const struct {
	const char *cap, *name;
	int key;
} extended[] = {
	{"NXT", "PgDn", PE_KEY_PGDN}, {"PRV", "PgUp", PE_KEY_PGUP},
	{"UP", "Up", PE_KEY_UP}, {"DN", "Down", PE_KEY_DOWN},
	{"LFT", "Left", PE_KEY_LEFT}, {"RIT", "Right", PE_KEY_RIGHT},
	{"HOM", "Home", PE_KEY_HOME}, {"END", "End", PE_KEY_END},
	{"DC", "Delete", 0}, {"IC", "Insert", 0},
};

/* The row of extended[] a curses key name is, with its modifier number in
 * *mod; -1 for other names. */
static int
extended_of(const char *name, int *mod)
{
	size_t l = name != NULL ? strlen(name) : 0;
	for (size_t i = 0; l > 2 && name[0] == 'k' &&
	    i < sizeof extended / sizeof extended[0]; i++)
		if (l == strlen(extended[i].cap) + 2 &&
		    strncmp(name + 1, extended[i].cap, l - 2) == 0 &&
		    name[l - 1] >= '2' && name[l - 1] <= '8') {
			*mod = name[l - 1] - '0';
			return (int)i;
		}
	return -1;
}

/* A navigation key with a modifier as the terminfo entry names it: the
 * key itself, so a clicker or a held Alt never loses a step. 0 for
 * others. */
static int
modified_key(wint_t k)
{
	int mod, i = extended_of(keyname((int)k), &mod);
	return i < 0 ? 0 : extended[i].key;
}

/* Whether key moves: arrows, pages, Home and End (what a modifier or an
 * Esc before it leaves as it is). */
static bool
navigation_key(int key)
{
	return key >= PE_KEY_UP && key <= PE_KEY_END;
}

/* Translate a curses function key; 0 when it means nothing to us. */
static int
function_key(wint_t k)
{
	switch (k) {
	case KEY_UP:
		return PE_KEY_UP;
	case KEY_DOWN:
		return PE_KEY_DOWN;
	case KEY_LEFT:
		return PE_KEY_LEFT;
	case KEY_RIGHT:
		return PE_KEY_RIGHT;
	case KEY_PPAGE:
		return PE_KEY_PGUP;
	case KEY_NPAGE:
		return PE_KEY_PGDN;
	case KEY_HOME:
		return PE_KEY_HOME;
	case KEY_END:
		return PE_KEY_END;
	/* Shift with a navigation key: curses has codes of its own for
	 * these (xterm's ESC [6;2~ is KEY_SNEXT), and a clicker or a held
	 * Shift never loses a step */
	case KEY_SR:
		return PE_KEY_UP;
	case KEY_SF:
		return PE_KEY_DOWN;
	case KEY_SLEFT:
		return PE_KEY_LEFT;
	case KEY_SRIGHT:
		return PE_KEY_RIGHT;
	case KEY_SPREVIOUS:
		return PE_KEY_PGUP;
	case KEY_SNEXT:
		return PE_KEY_PGDN;
	case KEY_SHOME:
		return PE_KEY_HOME;
	case KEY_SEND:
		return PE_KEY_END;
	case KEY_BTAB:
		return PE_KEY_BTAB;
	case KEY_ENTER:
		return PE_KEY_ENTER;
	}
	return modified_key(k);
}

/* A curses function key's name for the status line ("F5", "Insert"). */
static void
function_key_name(wint_t k, char *buf, size_t cap)
{
	const char *n = NULL;

	if (k >= KEY_F(1) && k <= KEY_F(63)) {
		snprintf(buf, cap, "F%d", (int)(k - KEY_F0));
		return;
	}
	switch (k) {
	case KEY_IC:
		n = "Insert";
		break;
	case KEY_DC:
		n = "Delete";
		break;
	case KEY_SIC:
		n = "Shift+Insert";
		break;
	case KEY_SDC:
		n = "Shift+Delete";
		break;
	case KEY_BACKSPACE:
		n = "Backspace";
		break;
	default:
		n = keyname((int)k);
		break;
	}
	/* an extended cap with its modifiers (xterm's 2 is Shift, 3 Alt, 5
	 * Ctrl, and their sums); other curses names (KEY_SUSPEND) are no key
	 * a person knows: said as curses' */
	static const char *const mods[] = {"Shift+", "Alt+", "Shift+Alt+",
	    "Ctrl+", "Shift+Ctrl+", "Alt+Ctrl+", "Shift+Alt+Ctrl+"};
	int mod, i = extended_of(n, &mod);
	if (i >= 0) {
		snprintf(buf, cap, "%s%s", mods[mod - 2], extended[i].name);
		return;
	}
	if (n != NULL && (strncmp(n, "KEY_", 4) == 0 || n[0] == 'k'))
		snprintf(buf, cap, "that key (curses: %s)", n);
	else
		snprintf(buf, cap, "%s", n != NULL ? n : "that key");
}

/* Read the pending mouse event into in. With SGR-Pixels on (graphics.c)
 * the terminal reports the pointer's pixel where it would report its cell
 * (CSI < b ; x ; y M), which curses decodes as it would a cell, one less
 * each, unchecked against the screen's size (ncurses 6.4): the loop makes
 * it the pixel (pe_gfx_mouse_at). */
static void
mouse(struct pe_input *in)
{
	MEVENT ev;

	in->kind = PE_IN_NONE;
	if (getmouse(&ev) != OK)
		return;
	in->x = ev.x;
	in->y = ev.y;
	if (ev.bstate & BUTTON1_PRESSED)
		in->kind = PE_IN_CLICK;
	else if (ev.bstate & BUTTON4_PRESSED) {
		in->kind = PE_IN_WHEEL;
		in->wheel = 1;
	} else if (ev.bstate & BUTTON5_PRESSED) {
		in->kind = PE_IN_WHEEL;
		in->wheel = -1;
	}
}

/* A mouse report curses did not decode (its terminfo entry names another
 * encoding: xterm-kitty's kmous is X10's ESC [ M, but with SGR-Pixels on
 * kitty reports CSI < b ; x ; y M, xterm's ctlseqs "SGR (1006)"): par is
 * "<b;x;y", fin M (press) or m (release). A release, a motion or another
 * button is no event. false when par is no report. */
static bool
sgr_mouse(struct pe_input *in, const char *par, wint_t fin)
{
	long v[3];
	const char *p = par + 1;
	if (fin != 'M' && fin != 'm')
		return false;
	for (int i = 0; i < 3; i++) { /* decimal, at most a screen's pixels */
		char *e;
		if (*p < '0' || *p > '9' || (v[i] = strtol(p, &e, 10)) > 65535 ||
		    *e != (i < 2 ? ';' : '\0'))
			return false;
		p = e + 1;
	}
	int b = (int)v[0], x = (int)v[1], y = (int)v[2];
	if (x < 1 || y < 1)
		return false;
	in->kind = PE_IN_NONE;
	in->x = x - 1, in->y = y - 1; /* as curses decodes a report */
	if (fin == 'm' || (b & 32) != 0) /* a release, a motion */
		return true;
	b &= ~(4 | 8 | 16); /* Shift, Alt (meta), Ctrl */
	if (b == 0)
		in->kind = PE_IN_CLICK;
	else if (b == 64 || b == 65) {
		in->kind = PE_IN_WHEEL;
		in->wheel = b == 64 ? 1 : -1;
	}
	return true;
}

/* Whether the terminal has gone: hung up, or readable with nothing to
 * read (end of input). A live terminal never says it is readable with no
 * bytes waiting, so asking both at once cannot mistake a key for it. */
static bool
input_gone(void)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
	int n = 0;

	if (poll(&p, 1, 0) <= 0)
		return false;
	if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
		return true;
	if (!(p.revents & POLLIN))
		return false;
	return ioctl(STDIN_FILENO, FIONREAD, &n) != 0 || n == 0;
}

/* Wait up to ms (-1: forever) for the terminal to have input: 1 when it
 * has, 0 on timeout or a signal, -1 when it has gone. A signal handler
 * writes to the self-pipe polled beside it, so a signal that came just
 * before the wait ends it at once. */
static int
input_wait(int ms)
{
	struct pollfd p[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
	    {.fd = pe_crt_wake_fd(), .events = POLLIN}};
	int r = poll(p, p[1].fd >= 0 ? 2 : 1, ms);

	if (r <= 0)
		return 0;
	if (p[1].fd >= 0 && p[1].revents != 0)
		pe_crt_wake_drain();
	if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
		return -1;
	return (p[0].revents & POLLIN) != 0;
}

/* The next character within ms: OK, KEY_CODE_YES or ERR, as get_wch. */
static int
next_char(wint_t *c, int ms)
{
	timeout(ms);
	return get_wch(c);
}

/* Append a character to the name of a sequence, control characters as
 * ^X; silently stops at the end of buf. */
static void
name_add(char *buf, size_t cap, wint_t c)
{
	size_t n = strlen(buf);

	if (n + 3 >= cap)
		return;
	if (c < 0x20 || c == 0x7f) {
		buf[n++] = '^';
		buf[n++] = (char)(c == 0x7f ? '?' : c + '@');
	} else if (c < 0x7f) {
		buf[n++] = (char)c;
	} else {
		buf[n++] = '?';
	}
	buf[n] = '\0';
}

/* A key a common sequence stands for when the terminfo entry says
 * otherwise (tmux sends Home as ESC [1~ while xterm-256color's khome is
 * ESC O H): CSI or SS3 (ss3) with final byte fin and parameter text par.
 * 0 when none. */
static int
known_sequence(bool ss3, const char *par, wint_t fin)
{
	if (par[0] == '\0') {
		switch (fin) {
		case 'A':
			return PE_KEY_UP;
		case 'B':
			return PE_KEY_DOWN;
		case 'C':
			return PE_KEY_RIGHT;
		case 'D':
			return PE_KEY_LEFT;
		case 'H':
			return PE_KEY_HOME;
		case 'F':
			return PE_KEY_END;
		case 'M':
			return ss3 ? PE_KEY_ENTER : 0;
		case 'Z':
			return ss3 ? 0 : PE_KEY_BTAB;
		}
		return 0;
	}
	/* a modifier (xterm's ctlseqs, "PC-Style Function Keys": ESC [1;3B
	 * is Alt+Down, ESC [6;5~ Ctrl+PgDn) leaves the key as it is */
	const char *semi = strchr(par, ';');
	if (semi != NULL && !ss3) {
		char base[32];
		snprintf(base, sizeof base, "%.*s", (int)(semi - par), par);
		if (strchr(semi + 1, ';') != NULL)
			return 0;
		if (fin != '~' && strcmp(base, "1") != 0)
			return 0;
		return known_sequence(false, fin == '~' ? base : "", fin);
	}
	if (ss3 || fin != '~')
		return 0;
	/* VT220 editing keys (xterm's ctlseqs, "PC-Style Function Keys") */
	if (strcmp(par, "1") == 0 || strcmp(par, "7") == 0)
		return PE_KEY_HOME;
	if (strcmp(par, "4") == 0 || strcmp(par, "8") == 0)
		return PE_KEY_END;
	if (strcmp(par, "5") == 0)
		return PE_KEY_PGUP;
	if (strcmp(par, "6") == 0)
		return PE_KEY_PGDN;
	return 0;
}

/* Read a control sequence after ESC [ or ESC O (ECMA-48 sec. 5.4:
 * parameter bytes 0x30-0x3F, intermediates 0x20-0x2F, then one final byte
 * 0x40-0x7E) to its end; a key when it is a common one, else its name. A
 * byte that cannot be in one ends it and is left for the next event (Alt+[
 * then Alt+q is not "ESC [" swallowing an ESC and leaving a bare q). */
static void
control_sequence(struct pe_input *in, bool ss3)
{
	char par[32] = "";
	wint_t c;
	int r, n = 0;

	name_add(in->name, sizeof in->name, ss3 ? 'O' : '[');
	while ((r = next_char(&c, SEQ_BYTE_MS)) != ERR && n++ < SEQ_MAX) {
		if (r == KEY_CODE_YES || c < 0x20 || c > 0x7e) {
			/* not part of a sequence (ESC starts the next one):
			 * it is the next event */
			if (r == KEY_CODE_YES)
				ungetch((int)c);
			else
				unget_wch((wchar_t)c);
			break;
		}
		name_add(in->name, sizeof in->name, c);
		if (c <= 0x3f) {
			size_t l = strlen(par);
			if (l + 1 < sizeof par) {
				par[l] = (char)c;
				par[l + 1] = '\0';
			}
			continue;
		}
		if (c >= 0x40 && c <= 0x7e && (in->key = known_sequence(ss3,
		    par, c)) != 0) {
			in->kind = PE_IN_KEY;
			return;
		}
		if (!ss3 && par[0] == '<' && sgr_mouse(in, par, c))
			return;
		/* a late answer to graphics.c's queries, never a key:
		 * device attributes (CSI ? ... c), XTWINOPS (CSI 4 or 6 ; h
		 * ; w t), DECRPM (CSI ? 1016 ; Ps $ y) */
		if (!ss3 && ((par[0] == '?' && c == 'c') || (c == 't' &&
		    (strncmp(par, "4;", 2) == 0 || strncmp(par, "6;", 2) == 0)) ||
		    (par[0] == '?' && c == 'y' && par[strlen(par) - 1] == '$'))) {
			snprintf(in->name, sizeof in->name, "\033[%s%c", par,
			    (char)c);
			in->kind = PE_IN_REPLY;
			return;
		}
		break; /* the final byte */
	}
	in->kind = PE_IN_UNKNOWN;
}

/* Read a control string after ESC ] (OSC), P (DCS), _ (APC), ^ (PM) or X
 * (SOS) to its end: BEL or ESC \ (ECMA-48 sec. 5.6). An ESC that is not
 * the end cuts the string short and starts the next event, as a terminal
 * takes it (xterm aborts the string), and so does a key curses decoded:
 * a string never swallows the keys after it, nor half of one (its limit
 * between Alt+q's ESC and q left a bare q: a quit). */
static void
control_string(struct pe_input *in, wint_t intro)
{
	wint_t c, d;
	int r;

	bool kitty = false; /* APC G: an answer of kitty's graphics */
	name_add(in->name, sizeof in->name, intro);
	for (int n = 0; n < SEQ_MAX && (r = next_char(&c, SEQ_BYTE_MS)) != ERR;
	    n++) {
		if (r == KEY_CODE_YES) {
			ungetch((int)c); /* the next event */
			break;
		}
		if (c == 7)
			break;
		if (c == 27) {
			int r2 = next_char(&d, SEQ_BYTE_MS);
			if (r2 == OK && d == '\\')
				break; /* ST, the end */
			/* the next event: ESC, then what came with it */
			if (r2 == KEY_CODE_YES)
				ungetch((int)d);
			else if (r2 == OK)
				unget_wch((wchar_t)d);
			unget_wch(27);
			break;
		}
		if (n == 0 && intro == '_' && c == 'G')
			kitty = true;
		if (n < 8)
			name_add(in->name, sizeof in->name, c);
	}
	in->kind = kitty ? PE_IN_REPLY : PE_IN_UNKNOWN;
}

/* After an ESC curses handed over: nothing more is Esc; [ or O start a
 * control sequence; ] P _ ^ X a control string; anything else is Alt
 * with that key (meta sends ESC first). */
static void
escape(struct pe_input *in, int depth)
{
	wint_t c;
	int r = next_char(&c, depth == 0 ? ESC_DELAY_MS : SEQ_BYTE_MS);

	if (r == KEY_CODE_YES && c == KEY_RESIZE) {
		ungetch(KEY_RESIZE); /* the next event; this was Esc */
		r = ERR;
	}
	if (r == ERR) {
		if (depth == 0) {
			in->kind = PE_IN_KEY;
			in->key = PE_KEY_ESC;
		} else {
			snprintf(in->name, sizeof in->name, "Alt+Esc");
			in->kind = PE_IN_UNKNOWN;
		}
		return;
	}
	in->kind = PE_IN_UNKNOWN;
	if (r == KEY_CODE_YES && navigation_key(function_key(c))) {
		/* Esc and a navigation key together (a clicker's Esc, or Alt
		 * held): the key, as if alone */
		in->kind = PE_IN_KEY;
		in->key = function_key(c);
		return;
	}
	if (r == KEY_CODE_YES) {
		char k[32];
		if (c == KEY_MOUSE) {
			mouse(in);
			in->kind = PE_IN_UNKNOWN;
		}
		function_key_name(c, k, sizeof k);
		snprintf(in->name, sizeof in->name, "Alt+%s", k);
		return;
	}
	if (c == 27 && depth == 0) {
		/* Alt with a key that itself sends a sequence */
		struct pe_input inner;
		memset(&inner, 0, sizeof inner);
		escape(&inner, 1);
		if (inner.kind == PE_IN_KEY && navigation_key(inner.key)) {
			*in = inner; /* Esc before a navigation key's sequence */
			return;
		}
		snprintf(in->name, sizeof in->name, "Alt+%.40s", inner.name);
		return;
	}
	snprintf(in->name, sizeof in->name, "ESC ");
	switch (c) {
	case '[':
	case 'O':
		control_sequence(in, c == 'O');
		return;
	case ']':
	case 'P':
	case '_':
	case '^':
	case 'X':
		control_string(in, c);
		return;
	}
	snprintf(in->name, sizeof in->name, "Alt+");
	name_add(in->name, sizeof in->name, c);
	if (c > ' ' && c < 0x7f) { /* Alt with a printable key: a key */
		in->kind = PE_IN_KEY;
		in->key = (int)c | PE_KEY_ALT;
	}
}

/* Wait at most timeout_ms (-1: forever) for one event; see tui.h. */
void
pe_input_read(struct pe_input *in, int timeout_ms)
{
	wint_t k;

	memset(in, 0, sizeof *in);
	/* What curses has buffered first, then wait on the terminal. */
	int r = next_char(&k, 0);
	if (r == ERR && timeout_ms != 0) {
		int w = input_wait(timeout_ms);
		if (w < 0) {
			in->kind = PE_IN_GONE;
			return;
		}
		if (w > 0)
			r = next_char(&k, 0);
	}
	if (r == ERR) {
		if (input_gone())
			in->kind = PE_IN_GONE;
		return;
	}
	if (r == KEY_CODE_YES) {
		if (k == KEY_RESIZE) {
			in->kind = PE_IN_RESIZE;
			return;
		}
		if (k == KEY_MOUSE) {
			mouse(in);
			return;
		}
		if ((in->key = function_key(k)) != 0) {
			in->kind = PE_IN_KEY;
			return;
		}
		function_key_name(k, in->name, sizeof in->name);
		in->kind = PE_IN_UNKNOWN;
		return;
	}
	if (k == 27) {
		escape(in, 0);
		return;
	}
	in->kind = PE_IN_KEY;
	switch (k) {
	case '\r':
	case '\n':
		in->key = PE_KEY_ENTER;
		break;
	default:
		in->key = (int)k;
		break;
	}
}

/* Whether the terminal has input waiting (a key to apply before the frame
 * in progress is finished), or has gone. */
bool
pe_input_pending(void)
{
	struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};

	return poll(&p, 1, 0) > 0 && p.revents != 0;
}
