/* --record: an asciicast v2 recording (io/cast.c) of exactly the bytes
 * curses writes. Curses is given the slave side of a pseudo-terminal as
 * its terminal (a terminal of the real one's size and modes), and a relay
 * thread copies what comes out of the master side to the real terminal at
 * once and into the recording, as `script` and `asciinema rec` record a
 * program, but within the process. After each frame the loop writes a
 * marker (an APC string, ECMA-48 8.3.2, that curses never sends) behind
 * curses' bytes; the relay cuts the stream there, so each frame is one
 * "o" event, and drops the marker. A resize is a marker too, so its "r"
 * event lands between the frames it separates. Each event is one write(2)
 * of a whole JSON line, taken back when it is cut short (a full disk, a
 * file size limit): a crash or a signal leaves a valid file. The file is
 * written as -o writes (io's atomic files): under a temporary name beside
 * its own, renamed into place when the session ends, so that what was at
 * the name (an old recording, a link, and never its target) stays whole
 * until then. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "io/io.h"
#include "tui/tui.h"

/* The marker's start and end; between them 'F' (a frame ends) or
 * "RcolsxROWS" (a resize). */
#define MARK_HEAD "\033_pescope-record:"
#define MARK_TAIL "\033\\"
#define MARK_MAX 64

static struct {
	bool on;
	struct pe_atomic file;	/* the recording: its temporary file */
	char name[4096];	/* the name it is for (messages) */
	int cast;		/* file's descriptor */
	off_t end;		/* where its last whole line ends */
	int master, slave;	/* the pseudo-terminal */
	FILE *out;		/* the slave as a stream, for curses */
	pthread_t relay;
	bool relay_up;
	struct timespec t0;	/* the header's time: events count from it */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned long sent, seen; /* markers written; markers the relay cut */
	bool ended;		/* the relay has stopped */
	atomic_int error;	/* the first write error of the recording (set
				   by the relay, read by the loop) */
	int closed_error;	/* error of the recording pe_rec_close ended */
	char kept[4200];	/* its temporary file, when it could not be
				   renamed into place */
	int kept_error;		/* why not */
	struct sigaction winch_prev; /* curses' SIGWINCH handler */
	/* the relay's pending output: bytes since the last marker */
	char *buf;
	size_t n, cap;
	char *line;		/* an event's JSON line */
	size_t line_cap;
} rec = {.cast = -1, .master = -1, .slave = -1,
	.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

/* Write all of buf to fd (through EINTR and short writes); 0 or -1. */
static int
write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Seconds since the header. */
static double
rec_time(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)(ts.tv_sec - rec.t0.tv_sec) +
	    (double)(ts.tv_nsec - rec.t0.tv_nsec) * 1e-9;
}

/* Note the error that stops the recording (the first one counts). */
static void
rec_fail(int e)
{
	int none = 0;
	atomic_compare_exchange_strong(&rec.error, &none, e != 0 ? e : EIO);
}

/* Write one event of data[0..len) as a single line, whole or not at all;
 * false when out of memory or the write failed (the recording stops
 * there, at its last whole event). */
static bool
rec_event(char code, const char *data, size_t len)
{
	size_t need = pe_cast_event_max(len);
	if (atomic_load(&rec.error) != 0)
		return false;
	if (need > rec.line_cap) {
		char *l = realloc(rec.line, need);
		if (l == NULL) {
			rec_fail(ENOMEM);
			return false;
		}
		rec.line = l;
		rec.line_cap = need;
	}
	size_t n = pe_cast_event(rec.line, rec_time(), code, data, len);
	if (pe_cast_write(rec.cast, rec.line, n, &rec.end) != 0) {
		rec_fail(errno);
		return false;
	}
	return true;
}

/* The pending bytes up to their last whole UTF-8 character as one "o"
 * event; the rest stays pending. */
static void
rec_flush(void)
{
	size_t whole = pe_cast_utf8_whole(rec.buf, rec.n);
	if (whole > 0)
		rec_event('o', rec.buf, whole);
	memmove(rec.buf, rec.buf + whole, rec.n - whole);
	rec.n -= whole;
}

/* Append bytes to the pending output; false when out of memory. */
static bool
rec_append(const char *s, size_t len)
{
	if (rec.n + len > rec.cap) {
		size_t cap = rec.cap ? rec.cap : 65536;
		while (cap < rec.n + len)
			cap *= 2;
		char *b = realloc(rec.buf, cap);
		if (b == NULL)
			return false;
		rec.buf = b;
		rec.cap = cap;
	}
	memcpy(rec.buf + rec.n, s, len);
	rec.n += len;
	return true;
}

/* A marker's body (between head and tail) acted on. */
static void
rec_mark(const char *body, size_t len)
{
	if (rec.n > 0)
		rec_flush();
	if (len > 1 && body[0] == 'R') {
		rec_event('r', body + 1, len - 1);
		return; /* written by the signal handler: not counted */
	}
	pthread_mutex_lock(&rec.mu);
	rec.seen++;
	pthread_cond_broadcast(&rec.cv);
	pthread_mutex_unlock(&rec.mu);
}

/* Bytes for the terminal, gathered over one read so that they go out
 * in one write. */
static char term_buf[65536 + 2 * MARK_MAX];
static size_t term_n;

/* Pass bytes on: to the terminal (gathered) and into the recording. */
static void
pass(const char *s, size_t len)
{
	memcpy(term_buf + term_n, s, len);
	term_n += len;
	if (atomic_load(&rec.error) == 0 && !rec_append(s, len))
		rec_fail(ENOMEM);
}

/* Send the gathered bytes to the terminal. */
static void
term_flush(void)
{
	if (term_n > 0)
		write_all(STDOUT_FILENO, term_buf, term_n);
	term_n = 0;
}

/* The relay: what curses wrote goes to the terminal as it comes (one
 * write per read), and into the pending output, cut into events at the
 * markers. Runs until the slave side is closed (read fails with EIO). */
static void *
relay_main(void *arg)
{
	static const char head[] = MARK_HEAD;
	const size_t hl = sizeof head - 1;
	static char carry[65536 + 2 * MARK_MAX];
	size_t nc = 0; /* bytes of a possible marker held from the last read */
	(void)arg;

	for (;;) {
		ssize_t r = read(rec.master, carry + nc, 65536);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		size_t len = nc + (size_t)r, at = 0;
		nc = 0;
		while (at < len) {
			char *esc = memchr(carry + at, '\033', len - at);
			size_t plain = esc != NULL ? (size_t)(esc - carry) - at
						   : len - at;
			if (plain > 0) {
				pass(carry + at, plain);
				at += plain;
				continue;
			}
			size_t left = len - at;
			size_t cmp = left < hl ? left : hl;
			if (memcmp(carry + at, head, cmp) != 0) {
				pass(carry + at, 1); /* an escape, not ours */
				at++;
				continue;
			}
			char *end = left <= hl ? NULL
			    : memmem(carry + at + hl, left - hl, MARK_TAIL, 2);
			if (end == NULL && left > hl + MARK_MAX) {
				pass(carry + at, 1); /* too long to be ours */
				at++;
				continue;
			}
			if (end == NULL) {
				/* the marker goes on in the next read */
				memmove(carry, carry + at, left);
				nc = left;
				break;
			}
			term_flush();
			const char *body = carry + at + hl;
			rec_mark(body, (size_t)(end - body));
			at = (size_t)(end - carry) + 2;
		}
		term_flush();
	}
	if (nc > 0)
		pass(carry, nc);
	term_flush();
	if (rec.n > 0)
		rec_event('o', rec.buf, rec.n);
	pthread_mutex_lock(&rec.mu);
	rec.ended = true;
	pthread_cond_broadcast(&rec.cv);
	pthread_mutex_unlock(&rec.mu);
	return NULL;
}

/* Decimal digits of v at p (v >= 0); returns the end. */
static char *
put_uint(char *p, unsigned v)
{
	char d[12];
	int n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*p++ = d[--n];
	return p;
}

/* The size the recording last said (the header's, then each "r"
 * event's): a SIGWINCH that does not change it is no resize. */
static volatile sig_atomic_t said_w, said_h;

/* SIGWINCH: the pseudo-terminal takes the real terminal's new size
 * before curses asks it, and the resize marker goes into the stream now,
 * before anything curses draws at the new size (ioctl and write are safe
 * in a handler; the marker is built without printf); then curses' own
 * handler runs. */
static void
on_winch(int sig)
{
	struct winsize ws;
	int e = errno;
	if (rec.slave >= 0 && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > 0 && ws.ws_row > 0 &&
	    (ws.ws_col != said_w || ws.ws_row != said_h)) {
		char m[MARK_MAX + 32], *p = m;
		memcpy(p, MARK_HEAD "R", sizeof MARK_HEAD);
		p += sizeof MARK_HEAD;
		p = put_uint(p, ws.ws_col);
		*p++ = 'x';
		p = put_uint(p, ws.ws_row);
		memcpy(p, MARK_TAIL, 2);
		p += 2;
		said_w = ws.ws_col, said_h = ws.ws_row;
		ioctl(rec.slave, TIOCSWINSZ, &ws);
		if (write(rec.slave, m, (size_t)(p - m)) < 0) {
			/* the recording misses this resize: no remedy */
		}
	}
	errno = e;
	if (rec.winch_prev.sa_flags & SA_SIGINFO)
		rec.winch_prev.sa_sigaction(sig, NULL, NULL);
	else if (rec.winch_prev.sa_handler != SIG_DFL &&
	    rec.winch_prev.sa_handler != SIG_IGN)
		rec.winch_prev.sa_handler(sig);
}

/* What the name given to --record can be told by looking (nothing is
 * created): see tui.h. */
int
pe_rec_check(const char *path, char *err, size_t cap)
{
	errno = 0;
	int rc = strcmp(path, "-") == 0 ? PE_EINVAL : pe_atomic_check(path);
	if (rc == PE_OK)
		return 0;
	if (strcmp(path, "-") == 0)
		snprintf(err, cap, "--record '-': standard output is the "
		    "terminal; give the recording a file name");
	else if (rc == PE_EINVAL && errno == EISDIR)
		snprintf(err, cap, "--record '%s': is a folder; give the "
		    "recording a file name", path);
	else
		snprintf(err, cap, "--record '%s': cannot create a file there: "
		    "%s", path, strerror(errno));
	return -1;
}

/* Start recording into path: see tui.h. */
int
pe_rec_open(const char *path, char *err, size_t cap)
{
	struct termios tio;
	struct winsize ws;

	if (pe_rec_check(path, err, cap) != 0)
		return -1;
	if (pe_atomic_open(&rec.file, path) != PE_OK) {
		snprintf(err, cap, "--record '%s': cannot create a file there: "
		    "%s", path, strerror(errno));
		return -1;
	}
	snprintf(rec.name, sizeof rec.name, "%s", path);
	rec.cast = fileno(rec.file.fp);
	rec.end = 0;
	rec.kept[0] = '\0';
	rec.master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (rec.master < 0 || grantpt(rec.master) != 0 ||
	    unlockpt(rec.master) != 0)
		goto fail;
	const char *name = ptsname(rec.master);
	if (name == NULL ||
	    (rec.slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
		goto fail;
	/* the real terminal's modes and size, which curses then reads */
	if (tcgetattr(STDIN_FILENO, &tio) == 0)
		tcsetattr(rec.slave, TCSANOW, &tio);
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		ioctl(rec.slave, TIOCSWINSZ, &ws);
	if ((rec.out = fdopen(rec.slave, "w")) == NULL)
		goto fail;
	rec.sent = rec.seen = 0;
	rec.ended = false;
	atomic_store(&rec.error, 0);
	rec.closed_error = 0;
	rec.n = 0;

	/* the relay takes no signals: they are the loop's (a SIGXFSZ its
	 * write causes stays pending on it: the write fails with EFBIG) */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int pe = pthread_create(&rec.relay, NULL, relay_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pe != 0) {
		errno = pe;
		goto fail;
	}
	rec.relay_up = true;
	rec.on = true;
	return 0;
fail:
	snprintf(err, cap, "--record: cannot set up a pseudo-terminal to "
	    "record through: %s", strerror(errno));
	if (rec.out != NULL)
		fclose(rec.out);
	else if (rec.slave >= 0)
		close(rec.slave);
	if (rec.master >= 0)
		close(rec.master);
	rec.out = NULL;
	rec.slave = rec.master = -1;
	pe_atomic_abort(&rec.file);
	rec.cast = -1;
	return -1;
}

/* The stream curses writes to: the pseudo-terminal, or NULL. */
FILE *
pe_rec_output(void)
{
	return rec.on ? rec.out : NULL;
}

/* The header, once curses knows the size; see tui.h. */
void
pe_rec_begin(int w, int h)
{
	struct sigaction sa;
	char line[512];
	if (!rec.on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &rec.t0);
	said_w = w, said_h = h;
	size_t n = pe_cast_header(line, sizeof line, w, h,
	    (long long)time(NULL), getenv("TERM"));
	/* SIGXFSZ of a write past the file size limit is this write's
	 * failure (EFBIG), not a signal to quit on: blocked, then taken */
	sigset_t xfsz, old;
	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &xfsz, &old);
	errno = 0;
	if (n == 0 || pe_cast_write(rec.cast, line, n, &rec.end) != 0)
		rec_fail(errno);
	struct timespec zero = {0, 0};
	sigtimedwait(&xfsz, NULL, &zero);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* curses' SIGWINCH handler is in place now: ours goes first */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_winch;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGWINCH, &sa, &rec.winch_prev);
}

/* Copy the pseudo-terminal's input modes to the real terminal, output
 * passed through as it is (the pseudo-terminal processed it); see
 * tui.h. */
void
pe_rec_sync_modes(void)
{
	struct termios pty, real;
	if (!rec.on || tcgetattr(rec.slave, &pty) != 0 ||
	    tcgetattr(STDIN_FILENO, &real) != 0)
		return;
	real.c_iflag = pty.c_iflag;
	real.c_lflag = pty.c_lflag;
	memcpy(real.c_cc, pty.c_cc, sizeof real.c_cc);
	real.c_oflag &= (tcflag_t)~OPOST;
	tcsetattr(STDIN_FILENO, TCSADRAIN, &real);
}

/* Write a marker behind curses' bytes; wait: until the relay has passed
 * it (everything before it is on the terminal and in the file). */
static void
rec_marker(const char *body, bool wait)
{
	char m[MARK_MAX + 32];
	if (!rec.on)
		return;
	int n = snprintf(m, sizeof m, "%s%s%s", MARK_HEAD, body, MARK_TAIL);
	fflush(rec.out);
	if (write_all(rec.slave, m, (size_t)n) != 0)
		return;
	pthread_mutex_lock(&rec.mu);
	unsigned long want = ++rec.sent;
	while (wait && rec.seen < want && !rec.ended)
		pthread_cond_wait(&rec.cv, &rec.mu);
	pthread_mutex_unlock(&rec.mu);
}

/* A frame has been written; see tui.h. */
void
pe_rec_frame(bool wait)
{
	rec_marker("F", wait);
}

/* Stop: the last bytes as an event, the relay joined, the file renamed
 * into place; see tui.h. */
int
pe_rec_close(void)
{
	if (!rec.on)
		return 0;
	rec_marker("F", true);
	sigaction(SIGWINCH, &rec.winch_prev, NULL);
	fclose(rec.out); /* the slave: the relay reads to the end */
	rec.out = NULL;
	rec.slave = -1;
	if (rec.relay_up)
		pthread_join(rec.relay, NULL);
	rec.relay_up = false;
	close(rec.master);
	rec.master = -1;
	int e = atomic_load(&rec.error);
	/* the recording, whole events only, takes its name (kept under the
	 * temporary one when that fails) */
	errno = 0;
	rec.kept_error = 0;
	if (pe_atomic_commit_keep(&rec.file, rec.kept, sizeof rec.kept) !=
	    PE_OK) {
		rec.kept_error = errno != 0 ? errno : EIO;
		if (e == 0)
			e = rec.kept_error;
	}
	rec.cast = -1;
	free(rec.buf);
	free(rec.line);
	rec.buf = rec.line = NULL;
	rec.n = rec.cap = rec.line_cap = 0;
	rec.on = false;
	rec.closed_error = e;
	return e;
}

/* The error that stopped the last recording, or 0; see tui.h. */
int
pe_rec_error(void)
{
	return rec.closed_error;
}

/* The error that stopped the recording in progress, or 0; see tui.h. */
int
pe_rec_failed(void)
{
	return rec.on ? atomic_load(&rec.error) : 0;
}

/* What the last recording's end was, in a sentence; see tui.h. */
bool
pe_rec_report(char *dest, size_t cap)
{
	int e = rec.closed_error;
	if (e == 0)
		return false;
	if (rec.kept[0] != '\0')
		snprintf(dest, cap, "--record '%s': the recording could not be "
		    "given its name (%s); it is kept as '%s'", rec.name,
		    pe_io_why(rec.kept_error), rec.kept);
	else
		snprintf(dest, cap, "--record '%s': recording stopped: %s; the "
		    "file ends at the last whole event", rec.name, pe_io_why(e));
	return true;
}

/* The name being recorded into. */
const char *
pe_rec_name(void)
{
	return rec.name;
}
