/* Input: curses keys and mouse events as terminal-independent events
 * (enum pe_key, clicks, wheel, resize). */
#include <curses.h>

#include "tui/tui.h"
#include "view/state.h"

/* Esc alone must be quick to tell from the start of an escape sequence;
 * 25 ms is enough on a local or ssh terminal (htop uses 25 too). */
#define ESC_DELAY_MS 25

/* Keypad, mouse reporting and a short Esc delay on the current screen. */
void
pe_input_init(void)
{
	keypad(stdscr, TRUE);
	set_escdelay(ESC_DELAY_MS);
	mouseinterval(0);
	mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
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
	case KEY_BTAB:
		return PE_KEY_BTAB;
	case KEY_ENTER:
		return PE_KEY_ENTER;
	}
	return 0;
}

/* Read the pending mouse event into in. */
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

/* Wait at most timeout_ms (-1: forever) for one event. */
void
pe_input_read(struct pe_input *in, int timeout_ms)
{
	wint_t k;

	in->kind = PE_IN_NONE;
	in->key = 0;
	in->wheel = 0;
	timeout(timeout_ms);
	int r = get_wch(&k);
	if (r == ERR)
		return;
	if (r == KEY_CODE_YES) {
		if (k == KEY_RESIZE) {
			in->kind = PE_IN_RESIZE;
			return;
		}
		if (k == KEY_MOUSE) {
			mouse(in);
			return;
		}
		if ((in->key = function_key(k)) != 0)
			in->kind = PE_IN_KEY;
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
