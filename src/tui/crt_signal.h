/* Private to crt.c and crt_signal.c: the signals that must give the
 * terminal back (their flags and self-pipe are tui.h's pe_crt_quit_signal,
 * pe_crt_wake_fd, pe_crt_take_suspend, ...). */
#ifndef PESCOPE_TUI_CRT_SIGNAL_H
#define PESCOPE_TUI_CRT_SIGNAL_H

#include <termios.h>

/* Clear the flags, make the self-pipe (once), and catch the quit signals
 * whose action is still the default, SIGTSTP, SIGCONT and SIGXFSZ; before
 * curses starts, so it installs no handlers of its own for them. */
void pe_crt_sig_catch(void);
/* The bytes that give the terminal back, from the entry curses runs on,
 * and the fatal signals caught (their previous actions kept). */
void pe_crt_sig_fatal(void);
/* Add s (a terminfo string; NULL or -1: nothing) to those bytes. */
void pe_crt_sig_restore_add(const char *s);
/* Curses owns the terminal: a fatal signal writes the bytes and puts back
 * saved (NULL: no modes were saved). */
void pe_crt_sig_up(const struct termios *saved);
/* Curses gave the terminal back: a fatal signal leaves it alone. */
void pe_crt_sig_down(void);
/* Stop the process (SIGTSTP's default), and catch SIGTSTP again when it
 * goes on. */
void pe_crt_sig_stop(void);
/* Every signal back to the action it had before pe_crt_sig_catch (a quit
 * signal that came stays reported by pe_crt_quit_signal). */
void pe_crt_sig_release(void);

#endif
