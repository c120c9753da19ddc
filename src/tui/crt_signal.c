/* The signals that must give the terminal back: handlers that only set
 * flags and write a byte to a self-pipe the input wait polls, a quit
 * signal raised again once the terminal is restored (crt.c), and the
 * fatal ones, which write the saved restore bytes from the handler. */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

#include "tui/crt_signal.h"
#include "tui/tui.h"

/* What a fatal signal's handler writes and sets: nothing else is safe
 * there. */
static struct {
	char bytes[512]; /* leave the alternate screen, mouse off, ... */
	size_t n;
	struct termios saved; /* the terminal's modes before curses */
	bool saved_ok;
} restore;

/* crt_up: curses owns the terminal (pe_crt_sig_up). */
static volatile sig_atomic_t quit_sig, tstp_flag, cont_flag, crt_up;
/* The self-pipe (a handler writes a byte, the input wait polls the other
 * end): a signal that comes just before the loop waits ends the wait at
 * once instead of when it times out. -1 when there is none. */
static int wake[2] = {-1, -1};

/* Signals whose default is to end the program: caught (unless ignored or
 * handled already when we start: nohup, profilers), the loop restores the
 * terminal, then the program dies of the signal. */
static const int quit_sigs[] = {
	SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM,
	SIGVTALRM, SIGXCPU, SIGIO,
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

/* Faults, and signals that say the program is broken: the terminal is
 * given back from the handler, then the previous action (the default, or
 * a sanitizer's report) takes over. */
static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT,
	SIGTRAP, SIGSYS};
static struct sigaction fatal_prev[NSIG];

/* Wake the loop from a handler: write(2) is async-signal-safe, the pipe
 * is non-blocking (a full pipe is awake already), errno is kept. */
static void
wake_loop(void)
{
	int e = errno;
	if (wake[1] >= 0 && write(wake[1], "s", 1) < 0) {
		/* full: a wakeup is pending already */
	}
	errno = e;
}

/* Record a quit signal; the loop restores the terminal and exits. */
static void
on_quit(int sig)
{
	if (quit_sig == 0)
		quit_sig = sig;
	wake_loop();
}

/* SIGXFSZ: a write of ours passed the file size limit (ulimit -f); the
 * write fails with EFBIG and says so (a snapshot, the recording). The
 * session goes on. */
static void
on_xfsz(int sig)
{
	(void)sig;
}

/* Record a suspend request; the loop leaves curses and stops. */
static void
on_tstp(int sig)
{
	(void)sig;
	tstp_flag = 1;
	wake_loop();
}

/* Record a continue: the screen must be repainted. */
static void
on_cont(int sig)
{
	(void)sig;
	cont_flag = 1;
	wake_loop();
}

/* Give the terminal back from a signal handler: the saved bytes (leave
 * the alternate screen, mouse and keypad modes off, cursor on) and the
 * saved modes; write and tcsetattr are async-signal-safe. */
static void
crt_restore_now(void)
{
	if (!crt_up)
		return;
	crt_up = 0;
	if (write(STDOUT_FILENO, restore.bytes, restore.n) < 0) {
		/* nothing more can be done */
	}
	if (restore.saved_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &restore.saved);
}

/* A fatal signal: restore the terminal, then let the previous action have
 * the signal (it is blocked until we return; a fault happens again). */
static void
on_fatal(int sig)
{
	crt_restore_now();
	sigaction(sig, &fatal_prev[sig], NULL);
	raise(sig);
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

/* The quit signals caught, with the actions they had (given back when
 * the TUI ends: a signal after it is not swallowed by on_quit). */
static bool quit_caught[NSIG];
static struct sigaction quit_prev[NSIG];

/* Catch a signal that ends the program, unless something else already
 * decided what it does (ignored under nohup, a profiler's handler). The
 * terminal's keys' own signals, SIGINT (Ctrl-C) and SIGQUIT (Ctrl-\), are
 * caught even when ignored: a shell without job control starts a program
 * in the background with them ignored, so that the keys typed at the one
 * in front do not end it, but the TUI is the program reading the keys:
 * Ctrl-C is typed at it, and ends it. Their ignoring is put back when the
 * TUI ends (release_quit). */
static void
catch_quit(int sig)
{
	struct sigaction old;

	if (sigaction(sig, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
	    (old.sa_handler == SIG_DFL || (old.sa_handler == SIG_IGN &&
	    (sig == SIGINT || sig == SIGQUIT)))) {
		quit_prev[sig] = old;
		quit_caught[sig] = true;
		catch(sig, on_quit);
	}
}

/* Give the quit signals back their previous actions. */
static void
release_quit(void)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (quit_caught[sig]) {
			sigaction(sig, &quit_prev[sig], NULL);
			quit_caught[sig] = false;
		}
}

/* The read end of the self-pipe the signal handlers write to, or -1: see
 * tui.h. */
int
pe_crt_wake_fd(void)
{
	return wake[0];
}

/* Empty the self-pipe (after a wakeup). */
void
pe_crt_wake_drain(void)
{
	char b[64];
	while (wake[0] >= 0 && read(wake[0], b, sizeof b) > 0)
		;
}

/* Catch the fatal signals, keeping their previous actions to pass on. */
static void
catch_fatal(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof fatal_sigs / sizeof fatal_sigs[0]; i++)
		sigaction(fatal_sigs[i], &sa, &fatal_prev[fatal_sigs[i]]);
}

/* Put back the fatal signals' previous actions. */
static void
release_fatal(void)
{
	for (size_t i = 0; i < sizeof fatal_sigs / sizeof fatal_sigs[0]; i++)
		sigaction(fatal_sigs[i], &fatal_prev[fatal_sigs[i]], NULL);
}

/* Append a terminfo string (when the entry has it) to the restore bytes. */
void
pe_crt_sig_restore_add(const char *s)
{
	if (s == NULL || s == (char *)-1)
		return;
	size_t n = strlen(s);
	if (restore.n + n <= sizeof restore.bytes) {
		memcpy(restore.bytes + restore.n, s, n);
		restore.n += n;
	}
}

/* The bytes that undo what curses did to the terminal: attributes off,
 * mouse reporting off (ncurses' XM, else xterm's 1000 mode), keypad
 * local, cursor visible, the normal screen. */
static void
restore_prepare(void)
{
	char *xm = tigetstr("XM");

	restore.n = 0;
	pe_crt_sig_restore_add(exit_attribute_mode);
	if (xm != NULL && xm != (char *)-1)
		pe_crt_sig_restore_add(tiparm(xm, 0));
	else if (key_mouse != NULL)
		pe_crt_sig_restore_add("\033[?1000l");
	pe_crt_sig_restore_add(keypad_local);
	pe_crt_sig_restore_add(cursor_normal);
	pe_crt_sig_restore_add(exit_ca_mode);
}

/* The signal that asked to end the program, or 0. */
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

/* Catch the signals curses must not see first; see crt_signal.h. */
void
pe_crt_sig_catch(void)
{
	quit_sig = tstp_flag = cont_flag = 0;
	if (wake[0] < 0 && pipe2(wake, O_NONBLOCK | O_CLOEXEC) != 0)
		wake[0] = wake[1] = -1; /* waits then end by their timeout */
	for (size_t i = 0; i < sizeof quit_sigs / sizeof quit_sigs[0]; i++)
		catch_quit(quit_sigs[i]);
	catch(SIGTSTP, on_tstp);
	catch(SIGCONT, on_cont);
	catch(SIGXFSZ, on_xfsz);
}

/* The restore bytes, and the fatal signals caught. */
void
pe_crt_sig_fatal(void)
{
	restore_prepare();
	catch_fatal();
}

/* Curses owns the terminal from here. */
void
pe_crt_sig_up(const struct termios *saved)
{
	crt_up = 0;
	restore.saved_ok = saved != NULL;
	if (saved != NULL)
		restore.saved = *saved;
	crt_up = 1;
}

/* Curses gave the terminal back. */
void
pe_crt_sig_down(void)
{
	crt_up = 0;
}

/* Stop as SIGTSTP's default does, then catch it again. */
void
pe_crt_sig_stop(void)
{
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP); /* stops here until SIGCONT */
	catch(SIGTSTP, on_tstp);
}

/* Every signal's previous action back. */
void
pe_crt_sig_release(void)
{
	release_fatal();
	/* from here a signal does what it did before the TUI (quit_sig keeps
	 * one that came before: the loop's caller dies of it) */
	release_quit();
	signal(SIGTSTP, SIG_DFL);
	signal(SIGCONT, SIG_DFL);
	signal(SIGXFSZ, SIG_DFL);
}
