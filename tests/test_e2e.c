/* End to end: the real binary ($PESCOPE_BIN) in a pseudo-terminal
 * (forkpty), its screen read through a terminal emulator (libvterm), keys
 * sent as xterm sends them. Values on screen are checked against the kernel
 * called here; snapshots against `pescope snapshot`. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vterm.h>

#include "helpers.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"

#define ROWS 40
#define COLS 120
#define WAIT_MS 8000 /* generous: sanitizer builds start slowly */

/* xterm's keys in keypad-transmit mode (curses turns it on). */
#define K_UP "\033OA"
#define K_DOWN "\033OB"
#define K_RIGHT "\033OC"
#define K_LEFT "\033OD"
#define K_BTAB "\033[Z"

struct term {
	pid_t pid;
	int fd;		/* the pty's master side */
	VTerm *vt;
	VTermScreen *scr;
	int rows, cols;
	char *raw;	/* every byte the program wrote */
	size_t nraw, capraw;
	int status;	/* wait status once it exited */
	bool exited;
	bool px_mouse;	/* answer DECRQM 1016 as a terminal that knows
			   SGR-Pixels (libvterm does not: its 0 becomes 2) */
	bool no_apc;	/* keep kitty's APC strings from libvterm, which
			   prints them */
	int apc;	/* no_apc's state: 0 text, 1 ESC, 2 in APC, 3 ESC in
			   APC */
	bool px_from0;	/* pixel reports number pixels from 0 (kitty) */
};

/* Milliseconds on the monotonic clock. */
static long long
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Send the emulator's answers (device reports) back to the program. */
static void
vt_output(const char *s, size_t len, void *user)
{
	struct term *t = user;
	static const char unknown[] = "\033[?1016;0$y";
	if (t->px_mouse && len == sizeof unknown - 1 &&
	    memcmp(s, unknown, len) == 0)
		s = "\033[?1016;2$y"; /* known, reset */
	while (len > 0) {
		ssize_t n = write(t->fd, s, len);
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/* A file size limit for the next program started (RLIMIT_FSIZE, bytes;
 * 0: none), with SIGXFSZ at its default. */
static rlim_t child_fsize;
/* Signals the next program started inherits ignored (a background job
 * of a non-interactive shell: SIGINT, SIGQUIT); 0 ends the list. */
static int child_ignored[4];
/* A cell's pixels in the next pseudo-terminal's size (0: none said). */
static int child_cell_w, child_cell_h;

/* Start pescope with args (NULL-terminated, after the program name) in a
 * rows x cols pseudo-terminal; env: extra "NAME=value" strings or NULL. */
static void
term_start(struct term *t, int rows, int cols, const char *const *args,
    const char *const *env)
{
	struct winsize ws = {.ws_row = (unsigned short)rows,
	    .ws_col = (unsigned short)cols,
	    .ws_xpixel = (unsigned short)(cols * child_cell_w),
	    .ws_ypixel = (unsigned short)(rows * child_cell_h)};
	const char *argv[32];
	int n = 0;

	memset(t, 0, sizeof *t);
	t->rows = rows;
	t->cols = cols;
	argv[n++] = th_bin();
	for (size_t i = 0; args != NULL && args[i] != NULL; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	cr_assert_geq(t->pid, 0, "forkpty: %s", strerror(errno));
	if (t->pid == 0) {
		th_child_signals();
		/* Signals that dump core must not leave core files. */
		struct rlimit nocore = {0, 0};
		setrlimit(RLIMIT_CORE, &nocore);
		if (child_fsize > 0) {
			struct rlimit fs = {child_fsize, child_fsize};
			setrlimit(RLIMIT_FSIZE, &fs);
			signal(SIGXFSZ, SIG_DFL);
		}
		for (size_t i = 0; i < 4 && child_ignored[i] != 0; i++)
			signal(child_ignored[i], SIG_IGN);
		setenv("TERM", "xterm-256color", 1);
		setenv("LC_ALL", "C.UTF-8", 1);
		unsetenv("NO_COLOR");
		unsetenv("LINES");
		unsetenv("COLUMNS");
		unsetenv("PESCOPE_SNAPSHOT_DIR");
		for (size_t i = 0; env != NULL && env[i] != NULL; i++)
			putenv((char *)env[i]);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	fcntl(t->fd, F_SETFL, fcntl(t->fd, F_GETFL) | O_NONBLOCK);
	/* A 0x0 window (no size known) still gets an emulator. */
	if (rows == 0 || cols == 0) {
		t->rows = rows = ROWS;
		t->cols = cols = COLS;
	}
	t->vt = vterm_new(rows, cols);
	vterm_set_utf8(t->vt, 1);
	vterm_output_set_callback(t->vt, vt_output, t);
	t->scr = vterm_obtain_screen(t->vt);
	vterm_screen_enable_altscreen(t->scr, 1);
	vterm_screen_reset(t->scr, 1);
}

/* Copy buf[n] to out (n + 1 bytes: an ESC held from the last read)
 * without APC strings (ESC _ ... ESC \\), across reads; returns the
 * bytes copied. */
static size_t
strip_apc(struct term *t, const char *buf, size_t n, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		switch (t->apc) {
		case 0:
			if (c == '\033')
				t->apc = 1;
			else
				out[o++] = c;
			break;
		case 1:
			if (c == '_') {
				t->apc = 2;
				break;
			}
			out[o++] = '\033';
			if (c != '\033') {
				out[o++] = c;
				t->apc = 0;
			}
			break;
		case 2:
			if (c == '\033')
				t->apc = 3;
			break;
		default:
			t->apc = c == '\\' ? 0 : c == '\033' ? 3 : 2;
			break;
		}
	}
	return o;
}

/* Read what the program wrote for up to ms (stopping early once it has
 * been quiet for 30 ms after some output) and feed it to the emulator. */
static void
term_pump(struct term *t, int ms)
{
	long long end = now_ms() + ms;
	bool got = false;

	for (;;) {
		long long left = end - now_ms();
		if (left <= 0)
			break;
		struct pollfd p = {.fd = t->fd, .events = POLLIN};
		int r = poll(&p, 1, got ? 30 : (int)(left < 50 ? left : 50));
		if (r == 0) {
			if (got)
				break;
			if (!t->exited && waitpid(t->pid, &t->status, WNOHANG) ==
			    t->pid)
				t->exited = true;
			if (t->exited)
				break;
			continue;
		}
		char buf[65536];
		ssize_t n = read(t->fd, buf, sizeof buf);
		if (n <= 0) {
			if (n < 0 && errno == EAGAIN)
				continue;
			break; /* EIO: the program has gone */
		}
		got = true;
		if (t->nraw + (size_t)n + 1 > t->capraw) {
			while (t->nraw + (size_t)n + 1 > t->capraw)
				t->capraw = t->capraw ? t->capraw * 2 : 65536;
			t->raw = realloc(t->raw, t->capraw);
		}
		memcpy(t->raw + t->nraw, buf, (size_t)n);
		t->nraw += (size_t)n;
		t->raw[t->nraw] = '\0';
		if (t->no_apc) {
			char shown[sizeof buf + 1];
			vterm_input_write(t->vt, shown, strip_apc(t, buf,
			    (size_t)n, shown));
		} else {
			vterm_input_write(t->vt, buf, (size_t)n);
		}
	}
}

/* Encode one code point as UTF-8; returns the bytes. */
static int
utf8(uint32_t cp, char *o)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Row y of the screen as UTF-8 (one glyph per cell), into buf[cap]. */
static char *
term_line(struct term *t, int y, char *buf, size_t cap)
{
	size_t n = 0;

	for (int x = 0; x < t->cols && n + 8 < cap; x++) {
		VTermScreenCell c;
		VTermPos pos = {.row = y, .col = x};
		vterm_screen_get_cell(t->scr, pos, &c);
		uint32_t cp = c.chars[0] != 0 ? c.chars[0] : ' ';
		n += (size_t)utf8(cp, buf + n);
	}
	buf[n] = '\0';
	return buf;
}

/* The whole screen as text, lines joined by '\n' (malloc'd). */
static char *
term_text(struct term *t)
{
	size_t cap = (size_t)t->rows * ((size_t)t->cols * 4 + 2) + 1, n = 0;
	char *s = malloc(cap);
	char line[COLS * 8 + 64];

	for (int y = 0; y < t->rows; y++) {
		int l = snprintf(s + n, cap - n, "%s\n",
		    term_line(t, y, line, sizeof line));
		n += (size_t)l;
	}
	return s;
}

/* Whether the screen shows text. */
static bool
term_has(struct term *t, const char *text)
{
	char *s = term_text(t);
	bool r = strstr(s, text) != NULL;
	free(s);
	return r;
}

/* Pump until the screen shows text (true) or ms pass (false). */
static bool
term_wait_for(struct term *t, const char *text, int ms)
{
	long long end = now_ms() + ms;

	do {
		if (term_has(t, text))
			return true;
		term_pump(t, 100);
	} while (now_ms() < end && !t->exited);
	return term_has(t, text);
}

/* Pump until the screen lacks text. */
static bool
term_wait_gone(struct term *t, const char *text, int ms)
{
	long long end = now_ms() + ms;

	do {
		if (!term_has(t, text))
			return true;
		term_pump(t, 100);
	} while (now_ms() < end && !t->exited);
	return !term_has(t, text);
}

/* Type keys, then let the program draw. */
static void
term_send(struct term *t, const char *keys)
{
	size_t len = strlen(keys);
	cr_assert_eq(write(t->fd, keys, len), (ssize_t)len);
	term_pump(t, 300);
}

/* Change the window size (the kernel signals SIGWINCH; we do too). */
static void
term_resize(struct term *t, int rows, int cols)
{
	struct winsize ws = {.ws_row = (unsigned short)rows,
	    .ws_col = (unsigned short)cols};
	ioctl(t->fd, TIOCSWINSZ, &ws);
	kill(t->pid, SIGWINCH);
	t->rows = rows;
	t->cols = cols;
	vterm_set_size(t->vt, rows, cols);
}

/* Wait for the program to exit; its wait status, or -1 on timeout (then
 * it is killed). */
static int
term_wait_exit(struct term *t, int ms)
{
	long long end = now_ms() + ms;

	while (!t->exited && now_ms() < end) {
		term_pump(t, 50);
		if (!t->exited && waitpid(t->pid, &t->status, WNOHANG) == t->pid)
			t->exited = true;
	}
	if (!t->exited) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, &t->status, 0);
		return -1;
	}
	return t->status;
}

/* Quit with q and expect exit status 0; free the terminal. */
static void
term_quit(struct term *t)
{
	term_send(t, "q");
	int st = term_wait_exit(t, WAIT_MS);
	cr_expect(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "q must exit with status 0 (wait status %d)", st);
}

/* Release the emulator and the pty. */
static void
term_free(struct term *t)
{
	if (!t->exited) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, &t->status, 0);
	}
	vterm_free(t->vt);
	close(t->fd);
	free(t->raw);
}

/* Find the line holding needle; copy it to buf; -1 when absent. */
static int
find_line(struct term *t, const char *needle, char *buf, size_t cap)
{
	for (int y = 0; y < t->rows; y++) {
		term_line(t, y, buf, cap);
		if (strstr(buf, needle) != NULL)
			return y;
	}
	return -1;
}

/* nftw's callback: remove one entry. */
static int
remove_entry(const char *path, const struct stat *sb, int flag,
    struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(path);
}

/* Remove a folder and everything in it. */
static void
remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Start at 120x40 and wait for the first frame. */
static void
start(struct term *t, const char *const *args, const char *const *env)
{
	term_start(t, ROWS, COLS, args, env);
	cr_assert(term_wait_for(t, "1 sinusoidal", WAIT_MS),
	    "no first frame; output so far: %.300s", t->raw ? t->raw : "");
	term_pump(t, 200);
}

Test(e2e, start_and_quit)
{
	struct term t;

	start(&t, NULL, NULL);
	cr_expect(term_has(&t, "7 vit2d"), "every encoding has a tab");
	cr_expect(term_has(&t, "d_model 64"));
	cr_expect(term_has(&t, "seq_len 64"));
	term_quit(&t);
	/* The terminal is given back: the alternate screen is left. */
	cr_expect(strstr(t.raw, "\033[?1049l") != NULL, "rmcup at exit");
	term_free(&t);
}

/* Whether the tab of encoding e (" N name ", past the ninth " name ") is
 * drawn bold (the current tab is bold on a light background; the others
 * are not). */
static bool
tab_is_current(struct term *t, int e, const char *name)
{
	char line[COLS * 8 + 64], want[32];
	term_line(t, 0, line, sizeof line);
	if (e < 9)
		snprintf(want, sizeof want, "%d %s", e + 1, name);
	else
		snprintf(want, sizeof want, " %s ", name);
	char *p = strstr(line, want);
	if (p == NULL)
		return false;
	/* The tabs row is ASCII up to the tabs, so bytes = cells. */
	int x = (int)(p - line);
	VTermScreenCell c;
	VTermPos pos = {.row = 0, .col = x + 2};
	vterm_screen_get_cell(t->scr, pos, &c);
	return c.attrs.bold;
}

Test(e2e, every_encoding_by_key)
{
	struct term t;
	const int n = PE_ENC_COUNT;

	start(&t, NULL, NULL);
	cr_assert(tab_is_current(&t, 0, pe_encoding_name(0)));
	/* Tab walks forward through all of them and wraps. */
	for (int i = 1; i <= n; i++) {
		term_send(&t, "\t");
		for (int k = 0; k < 20 && !tab_is_current(&t, i % n,
		    pe_encoding_name(i % n)); k++)
			term_pump(&t, 250);
		for (int e = 0; e < n; e++)
			cr_expect_eq(tab_is_current(&t, e, pe_encoding_name(e)),
			    e == i % n, "after %d tabs, tab %s", i,
			    pe_encoding_name(e));
	}
	/* Number keys choose directly (the first nine have one); shift-tab
	 * goes back and wraps to the last. */
	for (int e = (n < 9 ? n : 9) - 1; e >= 0; e--) {
		char k[2] = {(char)('1' + e), 0};
		term_send(&t, k);
		for (int w = 0; w < 20 && !tab_is_current(&t, e,
		    pe_encoding_name(e)); w++)
			term_pump(&t, 250);
		cr_expect(tab_is_current(&t, e, pe_encoding_name(e)), "key %s", k);
	}
	term_send(&t, K_BTAB);
	for (int w = 0; w < 20 && !tab_is_current(&t, n - 1,
	    pe_encoding_name(n - 1)); w++)
		term_pump(&t, 250);
	cr_expect(tab_is_current(&t, n - 1, pe_encoding_name(n - 1)),
	    "shift-tab wraps to %s", pe_encoding_name(n - 1));
	term_quit(&t);
	term_free(&t);
}

Test(e2e, parameters_and_refusal)
{
	struct term t;

	start(&t, NULL, NULL);
	term_send(&t, "D");
	cr_expect(term_wait_for(&t, "d_model 128", WAIT_MS));
	term_send(&t, "N");
	cr_expect(term_wait_for(&t, "seq_len 128", WAIT_MS));
	term_send(&t, "nd");
	cr_expect(term_wait_for(&t, "d_model 64", WAIT_MS));
	cr_expect(term_wait_for(&t, "seq_len 64", WAIT_MS));
	/* rope: 64 -> 2 accepted, 1 refused with the reason. */
	term_send(&t, "4ddddd");
	term_send(&t, "d");
	cr_expect(term_wait_for(&t, "rope needs an even d_model", WAIT_MS),
	    "refusal explained on screen");
	/* vit2d needs d % 4: 2 becomes 4, and the status says so. */
	term_send(&t, "7");
	cr_expect(term_wait_for(&t, "d_model 2 -> 4", WAIT_MS));
	term_quit(&t);
	term_free(&t);
}

/* Parse "PE[p,j] = ... = v" from the screen. */
static bool
inspector_pe(struct term *t, size_t *p, size_t *j, double *v)
{
	char line[COLS * 8 + 64];
	/* the inspector is the third line from the bottom */
	term_line(t, t->rows - 3, line, sizeof line);
	if (strncmp(line, " PE[", 4) != 0)
		return false;
	char *s = line + 1;
	if (sscanf(s, "PE[%zu,%zu]", p, j) != 2)
		return false;
	char *eq = strrchr(s, '=');
	return eq != NULL && sscanf(eq + 1, "%lf", v) == 1;
}

/* The integers on the main map's column axis (the line with the ▴ mark),
 * left panel only; returns the largest. */
static long
axis_max(struct term *t)
{
	char line[COLS * 8 + 64];
	long best = -1;
	if (find_line(t, "▴", line, sizeof line) < 0)
		return -1;
	/* The left panel ends before a run of 4 spaces after the labels. */
	char *end = strstr(line + 10, "     ");
	if (end != NULL)
		*end = '\0';
	for (char *s = line; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9' && (s == line || s[-1] == ' ')) {
			long v = strtol(s, &s, 10);
			if (v > best)
				best = v;
			s--;
		}
	}
	return best;
}

Test(e2e, cursor_inspector_matches_kernel_and_zoom)
{
	struct term t;
	size_t p, j;
	double v;

	start(&t, NULL, NULL);
	cr_assert(inspector_pe(&t, &p, &j, &v), "inspector on screen");
	cr_expect(p == 0 && j == 0);
	term_send(&t, K_DOWN K_DOWN K_DOWN K_RIGHT K_RIGHT);
	cr_assert(term_wait_for(&t, "PE[3,2]", WAIT_MS));
	cr_assert(inspector_pe(&t, &p, &j, &v));
	double ref = pe_sinusoidal_value(3, 2, 64, 10000.0, PE_LAYOUT_INTERLEAVED);
	cr_expect(th_close(v, ref, 1e-8, 1e-6), "PE[3,2] on screen %.9g, "
	    "kernel %.9g", v, ref);
	term_send(&t, K_UP K_LEFT);
	cr_assert(term_wait_for(&t, "PE[2,1]", WAIT_MS));
	cr_assert(inspector_pe(&t, &p, &j, &v));
	ref = pe_sinusoidal_value(2, 1, 64, 10000.0, PE_LAYOUT_INTERLEAVED);
	cr_expect(th_close(v, ref, 1e-8, 1e-6), "PE[2,1] on screen %.9g, "
	    "kernel %.9g", v, ref);

	/* Zoom: the axis shows the viewport's real dimensions. */
	long before = axis_max(&t);
	cr_expect_geq(before, 55, "whole map: labels up to ~63 (got %ld)",
	    before);
	term_send(&t, "++");
	long after = axis_max(&t);
	cr_expect(after >= 0 && after < 40, "zoomed x4: labels within 16 "
	    "columns of the cursor (got %ld)", after);
	cr_expect(term_has(&t, "PE[2,1]"), "zoom keeps the cursor");
	term_send(&t, "0");
	cr_expect_eq(axis_max(&t), before, "0 shows the whole map again");

	/* rope's angle against the kernel. */
	term_send(&t, "4");
	cr_assert(term_wait_for(&t, "θ[2,1]", WAIT_MS));
	char line[COLS * 8 + 64];
	cr_assert_geq(find_line(&t, "θ[2,1]", line, sizeof line), 0);
	char *rad = strstr(line, " rad");
	cr_assert_not_null(rad);
	*rad = '\0';
	char *eq = strrchr(line, '=');
	cr_assert(eq != NULL && sscanf(eq + 1, "%lf", &v) == 1);
	struct pe_config c;
	struct pe_rope r;
	pe_config_default(&c);
	c.enc = PE_ENC_ROPE;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	ref = pe_rope_angle(&r, 2.0, 1);
	pe_rope_free(&r);
	cr_expect(th_close(v, ref, 1e-8, 1e-6), "θ[2,1] on screen %.9g, kernel "
	    "%.9g", v, ref);
	term_quit(&t);
	term_free(&t);
}

Test(e2e, resize_storm)
{
	static const int sizes[][2] = {{24, 80}, {1, 1}, {3, 5}, {60, 200},
	    {1, 1}, {10, 50}, {2, 300}, {300, 2}, {1, 1}, {23, 79}, {1, 1},
	    {40, 120}};
	struct term t;

	start(&t, NULL, NULL);
	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
			term_resize(&t, sizes[i][0], sizes[i][1]);
			term_pump(&t, 5);
		}
	term_pump(&t, 300);
	cr_assert(!t.exited, "survived the storm");
	cr_expect(term_wait_for(&t, "1 sinusoidal", WAIT_MS), "back to normal");
	term_resize(&t, 10, 50);
	cr_expect(term_wait_for(&t, "too small", WAIT_MS));
	term_resize(&t, 1, 1);
	term_pump(&t, 300);
	cr_assert(!t.exited);
	term_resize(&t, ROWS, COLS);
	cr_expect(term_wait_for(&t, "1 sinusoidal", WAIT_MS));
	cr_expect(term_wait_gone(&t, "too small", WAIT_MS));
	term_quit(&t);
	term_free(&t);
}

/* The one file in dir whose name ends with suffix and does not appear in
 * skip (malloc'd path), or NULL. */

static char *
find_file(const char *dir, const char *suffix, const char *skip)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *r = NULL;
	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name), s = strlen(suffix);
		if (l > s && strcmp(e->d_name + l - s, suffix) == 0 &&
		    (skip == NULL || strstr(skip, e->d_name) == NULL)) {
			free(r);
			r = malloc(strlen(dir) + l + 2);
			sprintf(r, "%s/%s", dir, e->d_name);
		}
	}
	closedir(d);
	return r;
}

Test(e2e, snapshot_key_equals_snapshot_command)
{
	struct term t;
	char *dir = th_tmpdir();
	char env[4200];
	snprintf(env, sizeof env, "PESCOPE_SNAPSHOT_DIR=%s", dir);
	const char *envs[] = {env, NULL};
	const char *args[] = {"--encoding", "rope", NULL};

	start(&t, args, envs);
	term_send(&t, K_DOWN K_DOWN K_RIGHT);
	cr_assert(term_wait_gone(&t, "θ[32,0]", WAIT_MS));
	/* Where the cursor went (a cell may cover several positions). */
	char line[COLS * 8 + 64], cursor[64];
	size_t cp, cj;
	cr_assert_geq(find_line(&t, " θ[", line, sizeof line), 0);
	cr_assert_eq(sscanf(strstr(line, "θ[") + strlen("θ["), "%zu,%zu", &cp,
	    &cj), 2, "%s", line);
	cr_expect(cp > 0 && cj == 1, "%s", line);
	snprintf(cursor, sizeof cursor, "%zu,%zu", cp, cj);
	term_send(&t, "w");
	cr_assert(term_wait_for(&t, "saved", WAIT_MS), "status shows the path");
	cr_expect(term_has(&t, dir), "the path is on screen");
	cr_expect_eq(th_dir_count(dir), 2, ".ansi and .txt, no temporary left");
	char *ansi = find_file(dir, ".ansi", NULL);
	char *txt = find_file(dir, ".txt", NULL);
	cr_assert_not_null(ansi);
	cr_assert_not_null(txt);
	cr_expect(strstr(ansi, "pescope-rope-") != NULL, "%s", ansi);

	/* The same state through the command line, at the depth the TUI
	 * used (xterm-256color: 256 colors). */
	const char *cmd[] = {"pescope", "snapshot", "--encoding", "rope",
	    "--cursor", cursor, "--size", "120x40", "--color", "256", NULL};
	const char *cmdt[] = {"pescope", "snapshot", "--encoding", "rope",
	    "--cursor", cursor, "--size", "120x40", "--format", "txt", NULL};
	char *out = NULL, *outt = NULL;
	size_t len = 0, lent = 0, flen = 0, flent = 0;
	cr_assert_eq(th_run(cmd, NULL, &out, &len, NULL), 0);
	cr_assert_eq(th_run(cmdt, NULL, &outt, &lent, NULL), 0);
	char *file = th_slurp(ansi, &flen);
	char *filet = th_slurp(txt, &flent);
	cr_assert_not_null(file);
	cr_expect(flen == len && memcmp(file, out, len) == 0,
	    "the .ansi file equals `pescope snapshot` (%zu vs %zu bytes)", flen,
	    len);
	cr_expect(flent == lent && memcmp(filet, outt, lent) == 0,
	    "the .txt file equals `pescope snapshot --format txt` (%zu vs %zu "
	    "bytes)", flent, lent);

	/* Again at once: a new name, nothing overwritten. */
	term_send(&t, "w");
	term_send(&t, "w");
	cr_expect(term_wait_for(&t, "saved", WAIT_MS));
	cr_expect_eq(th_dir_count(dir), 6, "three .ansi/.txt pairs");
	char *again = th_slurp(ansi, NULL);
	cr_expect(again != NULL && strcmp(again, file) == 0,
	    "the first snapshot is untouched");
	free(again);
	term_quit(&t);
	term_free(&t);
	free(out);
	free(outt);
	free(file);
	free(filet);
	free(ansi);
	free(txt);
	free(dir);
}

Test(e2e, snapshot_error_keeps_session)
{
	struct term t;
	const char *envs[] = {"PESCOPE_SNAPSHOT_DIR=/nonexistent/pescope", NULL};

	start(&t, NULL, envs);
	term_send(&t, "w");
	cr_expect(term_wait_for(&t, "snapshot not saved", WAIT_MS));
	cr_expect(term_has(&t, "/nonexistent/pescope"));
	term_send(&t, "D");
	cr_expect(term_wait_for(&t, "d_model 128", WAIT_MS), "still running");
	term_quit(&t);
	term_free(&t);
}

Test(e2e, help_and_escape)
{
	struct term t;

	start(&t, NULL, NULL);
	term_send(&t, "?");
	cr_expect(term_wait_for(&t, "any key closes this help", WAIT_MS));
	term_send(&t, "q"); /* closes help only */
	cr_expect(term_wait_gone(&t, "any key closes this help", WAIT_MS));
	cr_expect(!t.exited);
	/* Esc closes the help, and otherwise does not quit. */
	term_send(&t, "?");
	cr_expect(term_wait_for(&t, "any key closes this help", WAIT_MS));
	term_send(&t, "\033");
	cr_expect(term_wait_gone(&t, "any key closes this help", WAIT_MS),
	    "Esc closes the help");
	term_send(&t, "\033");
	term_pump(&t, 300);
	cr_expect(!t.exited, "Esc does not quit");
	cr_expect(term_wait_for(&t, "q quits", WAIT_MS), "Esc says how to quit");
	term_quit(&t);
	term_free(&t);
}

/* Bytes some key sends that are not its terminfo entry's, or no key's:
 * none may quit; each is read to its end and noted on the status line. */
Test(e2e, escape_sequences_never_quit)
{
	static const struct {
		const char *keys, *note;
	} seq[] = {
	    {"\033x", "Alt+x"},	   /* Meta sends Esc first */
	    {"\033q", "Alt+q"},	   /* not a quit */
	    {"\033[99~", "ESC [99~"},  /* no key at all */
	    {"\033[57;5u", "ESC [57;5u"}, /* kitty's Ctrl+9: parameters */
	    {"\033[\033q", "Alt+q"},	   /* cut short by the next one */
	    {"\033O5R", "ESC O5R"},	   /* SS3 with a modifier */
	    {"\033]11;?\007", "ESC ]"},  /* a string, ended by BEL */
	    {"\033[<0;500;500m", NULL}, /* a mouse release off screen */
	    {"\033P1;2x\033q", "Alt+q"}, /* a string cut short by Alt+q */
	    {NULL, "Alt+q"}, /* Alt+q as a string's 256th and 257th bytes */
	};
	struct term t;
	/* Esc ], then 255 bytes, then Alt+q: a string swallowed the keys
	 * after it up to its limit, which can fall between Alt+q's ESC and
	 * its q, leaving a bare q (keys_tmux.sh's random keys ended pescope
	 * once with status 0: Escape then ] or P starts such a string) */
	char cut[300] = "\033]";
	memset(cut + 2, 'a', 255);
	memcpy(cut + 257, "\033q", 3);

	start(&t, NULL, NULL);
	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		term_send(&t, seq[i].keys != NULL ? seq[i].keys : cut);
		term_pump(&t, 200);
		cr_assert(!t.exited, "%zu: the sequence quit pescope", i);
		if (seq[i].note != NULL)
			cr_expect(term_wait_for(&t, seq[i].note, WAIT_MS),
			    "%zu: a note naming %s", i, seq[i].note);
		/* Nothing of the sequence leaks out as keys: still
		 * sinusoidal at d_model 64 with the cursor at 0,0. */
		cr_expect(term_has(&t, "d_model 64"), "%zu", i);
		cr_expect(term_has(&t, "PE[0,0]"), "%zu", i);
		cr_expect(tab_is_current(&t, 0, "sinusoidal"), "%zu", i);
	}
	/* Home and End as tmux sends them under TERM=xterm-256color
	 * (terminfo says \EOH and \EOF): still Home and End. */
	term_send(&t, K_DOWN K_DOWN);
	cr_assert(term_wait_for(&t, "PE[2,0]", WAIT_MS));
	term_send(&t, "\033[1~");
	cr_expect(term_wait_for(&t, "PE[0,0]", WAIT_MS), "ESC[1~ is Home");
	term_send(&t, "\033[4~");
	cr_expect(term_wait_for(&t, "PE[63,0]", WAIT_MS), "ESC[4~ is End");
	term_quit(&t);
	term_free(&t);
}

/* A clicker's keys in a lesson: Esc arriving with PgDn (curses reads
 * the pair as Alt+PgDn) and a modifier on a navigation key (xterm's
 * ESC [6;3~ is Alt+PgDn, ESC [5;5~ Ctrl+PgUp, ESC [1;3B Alt+Down) act as
 * the key, so no step is lost to a stray Esc or a held Alt. */
Test(e2e, lesson_keys_with_a_modifier_act_as_the_key)
{
	struct term t;
	char *dir = th_tmpdir(), state[300], run[300];
	snprintf(state, sizeof state, "XDG_STATE_HOME=%s", dir);
	snprintf(run, sizeof run, "XDG_RUNTIME_DIR=%s", dir);
	const char *envs[] = {state, run, NULL};
	const char *args[] = {"lesson", "--scene", "1", NULL};

	term_start(&t, ROWS, COLS, args, envs);
	cr_assert(term_wait_for(&t, "1/18 · Word order matters", WAIT_MS),
	    "no first frame: %.300s", t.raw ? t.raw : "");
	term_pump(&t, 200);
	term_send(&t, "\033\033[6~"); /* Esc, then PgDn */
	cr_expect(term_wait_for(&t, "step 2/2", WAIT_MS), "Esc+PgDn steps");
	term_send(&t, "\033[6;3~"); /* Alt+PgDn */
	cr_expect(term_wait_for(&t, "2/18 · Adding a position", WAIT_MS),
	    "Alt+PgDn steps");
	term_send(&t, "\033[5;5~"); /* Ctrl+PgUp */
	cr_expect(term_wait_for(&t, "step 2/2", WAIT_MS), "Ctrl+PgUp goes back");
	term_send(&t, "\033\033[5~"); /* Esc, then PgUp */
	cr_expect(term_wait_for(&t, "step 1/2", WAIT_MS), "Esc+PgUp goes back");
	/* Shift: curses' own codes (KEY_SNEXT ...), not the kNXT2 names */
	term_send(&t, "\033[6;2~"); /* Shift+PgDn */
	cr_expect(term_wait_for(&t, "step 2/2", WAIT_MS), "Shift+PgDn steps");
	term_send(&t, "\033[5;2~"); /* Shift+PgUp */
	cr_expect(term_wait_for(&t, "step 1/2", WAIT_MS), "Shift+PgUp goes back");
	term_send(&t, "\033[6~\033[6~\033[1;2F"); /* PgDn twice, Shift+End */
	cr_expect(term_wait_for(&t, "18/18", WAIT_MS), "Shift+End: the last");
	term_send(&t, "\033[1;2H"); /* Shift+Home */
	cr_expect(term_wait_for(&t, "1/18 · Word order matters", WAIT_MS),
	    "Shift+Home: the first");
	cr_expect(!term_has(&t, "KEY_"), "no curses key name shown");
	term_send(&t, "\033[3;5~"); /* Ctrl+Delete: named as a person would */
	cr_expect(term_wait_for(&t, "Ctrl+Delete does nothing here", WAIT_MS),
	    "%.300s", t.raw ? t.raw : "");
	term_send(&t, "\033[3;2~"); /* Shift+Delete */
	cr_expect(term_wait_for(&t, "Shift+Delete does nothing here", WAIT_MS));
	cr_expect(!term_has(&t, "Alt+"), "no Alt+ note left");
	term_quit(&t);
	term_free(&t);
	remove_tree(dir);
	free(dir);
}

/* A binary table never goes onto a terminal (snapshot -f pdf/png refuse
 * it too): dump --format npy without -o on a terminal is refused, exit
 * 2, naming the option and what to do; nothing else is written. */
Test(e2e, dump_npy_refuses_a_terminal)
{
	struct term t;
	const char *args[] = {"dump", "-e", "sinusoidal", "--table", "pe",
	    "--format", "npy", NULL};
	term_start(&t, ROWS, COLS, args, NULL);
	int st = term_wait_exit(&t, WAIT_MS);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 2, "wait status %d", st);
	cr_expect(term_has(&t, "--format npy: standard output is a terminal"),
	    "%.300s", t.raw ? t.raw : "");
	cr_expect(!term_has(&t, "NUMPY"), "no table on the terminal");
	term_free(&t);
}

/* e opens a picker of the presets --preset takes (the list pescope
 * --list-presets prints): arrows mark one, Enter takes it into the
 * focused pane, Esc closes the list and changes nothing. */
Test(e2e, preset_picker)
{
	const char *argv[] = {"pescope", "--list-presets", NULL};
	char *out = NULL, *err = NULL, first[64] = "", second[64] = "";
	size_t len = 0;
	cr_assert_eq(th_run(argv, NULL, &out, &len, &err), 0);
	/* the names: the lines that do not start with a blank */
	for (char *l = out; l != NULL && *l != '\0'; l = strchr(l, '\n')) {
		if (*l == '\n')
			l++;
		if (*l == ' ' || *l == '\0')
			continue;
		sscanf(l, "%63s", first[0] == '\0' ? first : second);
		if (second[0] != '\0')
			break;
	}
	free(out);
	free(err);
	cr_assert(first[0] != '\0' && second[0] != '\0');

	struct term t;
	start(&t, NULL, NULL);
	term_send(&t, "e");
	cr_expect(term_wait_for(&t, "a preset: ↑↓ choose", WAIT_MS));
	cr_expect(term_has(&t, first) && term_has(&t, second));
	term_send(&t, "\033");
	cr_expect(term_wait_gone(&t, "a preset: ↑↓ choose", WAIT_MS));
	cr_expect(tab_is_current(&t, 0, "sinusoidal"), "Esc changes nothing");
	term_send(&t, "e" K_DOWN "\r");
	char want[96];
	snprintf(want, sizeof want, "preset %s", second);
	cr_expect(term_wait_for(&t, want, WAIT_MS), "the second preset taken");
	term_quit(&t);
	term_free(&t);
}

Test(e2e, sigterm_restores_terminal)
{
	struct term t;

	start(&t, NULL, NULL);
	kill(t.pid, SIGTERM);
	int st = term_wait_exit(&t, WAIT_MS);
	cr_expect(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM,
	    "dies of SIGTERM after cleanup (wait status %d)", st);
	cr_expect(strstr(t.raw, "\033[?1049l") != NULL, "rmcup before dying");
	term_free(&t);
}

Test(e2e, animation_moves_cursor)
{
	struct term t;
	const char *args[] = {"--encoding", "sinusoidal", NULL};
	size_t p, j;
	double v;

	start(&t, args, NULL);
	term_send(&t, "]]] "); /* 64 steps/s, play */
	term_pump(&t, 600);
	term_send(&t, " ");
	cr_assert(inspector_pe(&t, &p, &j, &v));
	cr_expect_gt(p, 3, "the sweep moved the cursor (at %zu)", p);
	term_quit(&t);
	term_free(&t);
}

/* The step the parameter line shows ("step N"), or -1. */
static long
train_step(struct term *t)
{
	char line[COLS * 8 + 64];
	if (find_line(t, "trained on", line, sizeof line) < 0)
		return -1;
	const char *s = strstr(line, "step ");
	return s != NULL ? strtol(s + 5, NULL, 10) : -1;
}

/* --train: the run trains between frames (the step goes up while keys
 * are answered), space pauses it, s takes one step, r starts it again
 * from the seed, and q quits at once while it trains. */
Test(e2e, training_live)
{
	struct term t;
	const char *args[] = {"-e", "learned", "--train", "offset:3", NULL};
	long a, b;

	start(&t, args, NULL);
	cr_assert(term_wait_for(&t, "trained on offset:3", WAIT_MS));
	term_pump(&t, 1000);
	a = train_step(&t);
	term_pump(&t, 1500);
	b = train_step(&t);
	cr_expect_gt(b, a, "training goes on between frames (%ld, %ld)", a, b);
	term_send(&t, " ");
	cr_expect(term_wait_for(&t, "training paused", WAIT_MS));
	term_pump(&t, 300);
	a = train_step(&t);
	term_pump(&t, 800);
	cr_expect_eq(train_step(&t), a, "paused: no step");
	term_send(&t, "s");
	for (long long end = now_ms() + WAIT_MS; train_step(&t) == a &&
	     now_ms() < end;)
		term_pump(&t, 100);
	term_pump(&t, 500);
	b = train_step(&t);
	cr_expect_eq(b, a + 1, "s takes one step (%ld, %ld)", a, b);
	term_send(&t, "r");
	cr_expect(term_wait_for(&t, "training again from seed", WAIT_MS));
	cr_expect_eq(train_step(&t), 0, "r starts again");
	term_send(&t, " ");
	long long t0 = now_ms();
	term_quit(&t);
	cr_expect_lt(now_ms() - t0, 2000, "q quits while it trains");
	term_free(&t);
}

Test(e2e, not_a_terminal)
{
	const char *argv[] = {"pescope", NULL};
	char *out = NULL, *err = NULL;
	size_t len = 0;

	int rc = th_run(argv, NULL, &out, &len, &err);
	cr_expect_eq(rc, 2);
	cr_expect_eq(len, 0, "nothing on standard output");
	cr_expect(err != NULL && strstr(err, "pescope snapshot") != NULL, "%s",
	    err);
	cr_expect(err == NULL || strchr(err, '\033') == NULL, "no escapes");
	free(out);
	free(err);

	/* A terminal that cannot address the cursor, and an unknown one. */
	static const char *bad[] = {"TERM=dumb", "TERM=no-such-terminal-xyz"};
	for (int i = 0; i < 2; i++) {
		struct term t;
		const char *envs[] = {bad[i], NULL};
		term_start(&t, ROWS, COLS, NULL, envs);
		int st = term_wait_exit(&t, WAIT_MS);
		cr_expect(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2,
		    "%s: exit 2 (wait status %d)", bad[i], st);
		cr_expect(t.raw != NULL && strstr(t.raw, "pescope snapshot"),
		    "%s: the message", bad[i]);
		cr_expect(t.raw == NULL || strchr(t.raw, '\033') == NULL,
		    "%s: no escape codes: %s", bad[i], t.raw);
		term_free(&t);
	}
}

/* Send an SGR (1006) mouse event: button b at 0-based cell (x, y). */
static void
term_mouse(struct term *t, int b, int x, int y)
{
	char s[64];
	snprintf(s, sizeof s, "\033[<%d;%d;%dM", b, x + 1, y + 1);
	term_send(t, s);
	if (b < 64) {
		snprintf(s, sizeof s, "\033[<%d;%d;%dm", b, x + 1, y + 1);
		term_send(t, s);
	}
}

Test(e2e, mouse_tabs_map_wheel)
{
	struct term t;
	char line[COLS * 8 + 64];
	size_t p, j;
	double v;

	start(&t, NULL, NULL);
	/* With the help open a click closes it, as any key does, and does
	 * nothing else: the cursor stays */
	term_send(&t, "?");
	cr_expect(term_wait_for(&t, "any key closes this help", WAIT_MS));
	term_mouse(&t, 0, 13, 9);
	cr_expect(term_wait_gone(&t, "any key closes this help", WAIT_MS),
	    "a click closes the help");
	term_pump(&t, 200);
	cr_expect(term_has(&t, "PE[0,0]"), "and moves no cursor");
	/* Click a cell inside the main map: the cursor goes there. */
	term_mouse(&t, 0, 13, 9);
	cr_assert(term_wait_gone(&t, "PE[0,0]", WAIT_MS), "click moved the "
	    "cursor");
	cr_assert(inspector_pe(&t, &p, &j, &v));
	cr_expect(p > 0 && j > 0, "PE[%zu,%zu]", p, j);
	double ref = pe_sinusoidal_value(p, j, 64, 10000.0,
	    PE_LAYOUT_INTERLEAVED);
	cr_expect(th_close(v, ref, 1e-8, 1e-6), "PE[%zu,%zu] %.9g vs %.9g", p,
	    j, v, ref);
	/* The wheel zooms in and out. */
	long before = axis_max(&t);
	term_mouse(&t, 64, 13, 9);
	term_mouse(&t, 64, 13, 9);
	cr_expect_lt(axis_max(&t), before, "wheel up zooms in");
	term_mouse(&t, 65, 13, 9);
	term_mouse(&t, 65, 13, 9);
	cr_expect_eq(axis_max(&t), before, "wheel down zooms back out");
	/* Click a tab. */
	term_line(&t, 0, line, sizeof line);
	char *r = strstr(line, "4 rope");
	cr_assert_not_null(r);
	term_mouse(&t, 0, (int)(r - line) + 2, 0);
	cr_expect(tab_is_current(&t, 3, "rope"), "clicking the tab chose rope");
	cr_expect(term_wait_for(&t, "head_dim 64", WAIT_MS));
	term_quit(&t);
	term_free(&t);
}

/* A left click at pixel (px, py) of the screen, from 0, as a terminal in
 * SGR-Pixels mode (xterm's 1016) reports it: from 1 (xterm), or from 0
 * (kitty: t->px_from0). */
static void
term_mouse_px(struct term *t, int px, int py)
{
	char s[64];
	int d = t->px_from0 ? 0 : 1;
	snprintf(s, sizeof s, "\033[<0;%d;%dM\033[<0;%d;%dm", px + d, py + d,
	    px + d, py + d);
	term_send(t, s);
}

/* The position a pixel click at (px, py) moved the cursor to, the
 * inspector's PE[p, j] read once it changed from *was. */
static size_t
clicked_position(struct term *t, int px, int py, size_t *was)
{
	size_t p = *was, j;
	double v;
	term_mouse_px(t, px, py);
	long long end = now_ms() + WAIT_MS;
	do
		term_pump(t, 50);
	while ((!inspector_pe(t, &p, &j, &v) || p == *was) && now_ms() < end);
	*was = p;
	return p;
}

/* Start -n 4096 with kitty's pictures in a pseudo-terminal of 10 x 20-pixel
 * cells whose emulator says it knows SGR-Pixels; env: extra environment. */
static void
start_px(struct term *t, const char *const *env)
{
	static const char *const args[] = {"--graphics", "kitty", "-n", "4096",
	    NULL};
	child_cell_w = 10, child_cell_h = 20;
	term_start(t, ROWS, COLS, args, env);
	child_cell_w = child_cell_h = 0;
	t->px_mouse = t->no_apc = true;
	cr_assert(term_wait_for(t, "4096", WAIT_MS), "no first frame: %s",
	    term_text(t));
	term_pump(t, 300);
}

/* Clicks at the top and bottom pixel rows of a cell of the map, and the
 * next cell's top: the positions they inspect differ and are in order;
 * the cell's middle pixel is the position mid a click read as a cell
 * inspects, and the pixel above it the one before. */
static void
expect_pixel_picks(struct term *t, const char *how, size_t mid)
{
	/* cell (13, 9) is inside the map (mouse_tabs_map_wheel) */
	size_t was = 0, top, bottom, next, at, above;
	top = clicked_position(t, 13 * 10 + 5, 9 * 20, &was);
	bottom = clicked_position(t, 13 * 10 + 5, 9 * 20 + 19, &was);
	next = clicked_position(t, 13 * 10 + 5, 10 * 20, &was);
	at = clicked_position(t, 13 * 10 + 5, 9 * 20 + 10, &was);
	above = clicked_position(t, 13 * 10 + 5, 9 * 20 + 9, &was);
	/* 4096 positions over at most 40 x 20 pixel rows: 5 or more a pixel */
	cr_expect(top > 0 && bottom >= top + 19 * 5 && next > bottom,
	    "%s: positions at pixel rows 180, 199, 200: %zu, %zu, %zu", how,
	    top, bottom, next);
	cr_expect(at == mid && above < mid && above + 10 > mid, "%s: pixel rows "
	    "190 and 189 inspect %zu and %zu, the cell's middle %zu", how, at,
	    above, mid);
}

/* Where the terminal knows SGR-Pixels (it says so to DECRQM 1016) and
 * pictures are shown, a click picks the sample under its pixel, not its
 * cell's middle one: in -n 4096 a cell row covers ~100 positions, and the
 * top and bottom pixels of one cell inspect different ones, in order, and
 * the cell's middle pixel (that a click read as a cell picks) the one a
 * terminal that does not know the mode (libvterm's own answer) inspects
 * at that cell: there no 1016 is set. The mode is set after curses' own
 * mouse modes (which would replace it) and reset at the end. As
 * xterm-256color's entry (curses decodes the SGR reports, xterm numbers
 * pixels from 1) and as kitty's (its entry's mouse is X10's: pescope
 * reads the reports, pixels from 0). */
Test(e2e, mouse_picks_the_pixel_where_the_terminal_reports_pixels)
{
	static const char *const args[] = {"--graphics", "kitty", "-n", "4096",
	    NULL};
	struct term t;
	size_t mid, j;
	double v;

	child_cell_w = 10, child_cell_h = 20;
	term_start(&t, ROWS, COLS, args, NULL);
	child_cell_w = child_cell_h = 0;
	t.no_apc = true;
	cr_assert(term_wait_for(&t, "4096", WAIT_MS), "no first frame");
	term_pump(&t, 300);
	cr_expect(strstr(t.raw, "\033[?1016h") == NULL, "no SGR-Pixels where "
	    "the terminal does not know it");
	term_mouse(&t, 0, 13, 9);
	cr_assert(term_wait_gone(&t, "PE[0,0]", WAIT_MS));
	cr_assert(inspector_pe(&t, &mid, &j, &v));
	term_quit(&t);
	term_free(&t);

	start_px(&t, NULL);
	cr_assert(strstr(t.raw, "\033[?1016$p") != NULL, "DECRQM 1016 asked");
	const char *on = strstr(t.raw, "\033[?1016h");
	const char *xm = strstr(t.raw, "1000h");
	cr_assert(on != NULL, "SGR-Pixels turned on");
	cr_assert(xm != NULL && xm < on, "after curses' mouse modes");
	expect_pixel_picks(&t, "xterm-256color", mid);
	term_quit(&t);
	cr_expect(strstr(on, "\033[?1016l") != NULL, "SGR-Pixels reset at "
	    "the end");
	term_free(&t);

	/* kitty's case where libvterm can show it: a 256-color entry whose
	 * mouse is X10's (st-256color, as xterm-kitty), kitty said by its
	 * window */
	static const char *const kitty[] = {"TERM=st-256color",
	    "KITTY_WINDOW_ID=1", NULL};
	start_px(&t, kitty);
	t.px_from0 = true;
	cr_assert(strstr(t.raw, "\033[?1016h") != NULL);
	expect_pixel_picks(&t, "X10's entry, kitty's numbers", mid);
	term_quit(&t);
	term_free(&t);
}

/* A terminal of 8 colors (TERM=xterm-xfree86) with --graphics kitty:
 * cells, and the status line says why (a picture's colors would not be
 * its legend's) and what to do, whole at 80x24; no picture is sent. */
Test(e2e, pictures_need_a_legend_of_256_colors)
{
	static const char *const args[] = {"--graphics", "kitty", "-n", "4096",
	    NULL};
	static const char *const env[] = {"TERM=xterm-xfree86", NULL};
	struct term t;

	child_cell_w = 10, child_cell_h = 20;
	term_start(&t, 24, 80, args, env);
	child_cell_w = child_cell_h = 0;
	/* whole at 80 columns, the way out included */
	cr_assert(term_wait_for(&t, "graphics: cells (8 colors: a legend cannot "
	    "show a picture's; try --color 256)", WAIT_MS), "%s", term_text(&t));
	cr_expect(strstr(t.raw, "\033_G") == NULL, "no kitty picture sent");
	term_quit(&t);
	term_free(&t);
}

/* The cell at (x, y). */
static VTermScreenCell
cell_at(struct term *t, int x, int y)
{
	VTermScreenCell c;
	VTermPos pos = {.row = y, .col = x};
	vterm_screen_get_cell(t->scr, pos, &c);
	return c;
}

/* Whether the raw output holds an SGR color of the given form. */
static bool
raw_has(struct term *t, const char *s)
{
	return t->raw != NULL && strstr(t->raw, s) != NULL;
}

/* Whether the program turned mouse reporting on (xterm's 1000 mode). */
static bool
raw_has_mouse_on(struct term *t)
{
	return raw_has(t, "1000h");
}

/* Whether any SGR sequence in the raw output sets a color (30-38, 40-48,
 * 90-97, 100-107; 39 and 49 are the defaults). */
static bool
sgr_color(struct term *t)
{
	for (const char *s = t->raw; s != NULL && (s = strstr(s, "\033[")) != NULL;
	     ) {
		s += 2;
		size_t n = strspn(s, "0123456789;:");
		if (s[n] != 'm')
			continue;
		for (const char *q = s; q < s + n;) {
			long v = strtol(q, (char **)&q, 10);
			if ((v >= 30 && v <= 38) || (v >= 40 && v <= 48) ||
			    (v >= 90 && v <= 97) || (v >= 100 && v <= 107))
				return true;
			while (q < s + n && (*q == ';' || *q == ':'))
				q++;
		}
	}
	return false;
}

Test(e2e, color_depths)
{
	struct term t;

	/* xterm-256color: the heatmap's half blocks in palette colors. */
	start(&t, NULL, NULL);
	VTermScreenCell c = cell_at(&t, 10, 8);
	cr_expect_eq(c.chars[0], 0x2580, "half block in the map");
	cr_expect(VTERM_COLOR_IS_INDEXED(&c.fg), "256 colors: indexed");
	cr_expect(raw_has(&t, "38;5;"), "SGR 38;5 used");
	term_quit(&t);
	term_free(&t);

	/* --color 16: only the 16 ANSI colors. */
	const char *a16[] = {"--color", "16", NULL};
	start(&t, a16, NULL);
	c = cell_at(&t, 10, 8);
	cr_expect(VTERM_COLOR_IS_INDEXED(&c.fg) && c.fg.indexed.idx < 16,
	    "16 colors: index %d", c.fg.indexed.idx);
	cr_expect(!raw_has(&t, "38;5;"), "no 256-color SGR");
	term_quit(&t);
	term_free(&t);

	/* NO_COLOR: mono, the map drawn with the glyph ramp. */
	const char *nc[] = {"NO_COLOR=1", NULL};
	start(&t, NULL, nc);
	c = cell_at(&t, 10, 8);
	cr_expect_neq(c.chars[0], 0x2580, "mono: a ramp glyph, not ▀");
	cr_expect(strchr(" .:-=+*#%@", (int)c.chars[0]) != NULL,
	    "mono ramp glyph, got U+%04X", c.chars[0]);
	cr_expect(!sgr_color(&t), "no color SGR at all");
	term_quit(&t);
	term_free(&t);

	/* --color beats NO_COLOR. */
	const char *a256[] = {"--color", "256", NULL};
	start(&t, a256, nc);
	c = cell_at(&t, 10, 8);
	cr_expect_eq(c.chars[0], 0x2580);
	cr_expect(raw_has(&t, "38;5;"));
	term_quit(&t);
	term_free(&t);
}

/* Compile a direct-color terminfo entry `name` with `pairs` color pairs
 * (like ncurses' xterm-direct, which Debian ships only in ncurses-term)
 * into dir/db; false when tic is not available. */
static bool
direct_terminfo(const char *dir, const char *name, int pairs)
{
	char src[4200], cmd[9000];
	snprintf(src, sizeof src, "%s/%s.src", dir, name);
	FILE *fp = fopen(src, "w");
	if (fp == NULL)
		return false;
	fprintf(fp, "%s|direct color for pescope tests,\n"
	      "\tcolors#0x1000000, pairs#%d, RGB,\n"
	      "\tsetab=\\E[%%?%%p1%%{8}%%<%%t4%%p1%%d%%e48;2;%%p1%%{65536}%%/%%d;"
	      "%%p1%%{256}%%/%%{255}%%&%%d;%%p1%%{255}%%&%%d%%;m,\n"
	      "\tsetaf=\\E[%%?%%p1%%{8}%%<%%t3%%p1%%d%%e38;2;%%p1%%{65536}%%/%%d;"
	      "%%p1%%{256}%%/%%{255}%%&%%d;%%p1%%{255}%%&%%d%%;m,\n"
	      "\tuse=xterm-256color,\n", name, pairs);
	fclose(fp);
	snprintf(cmd, sizeof cmd, "tic -x -o '%s/db' '%s' 2>/dev/null", dir, src);
	return system(cmd) == 0;
}

Test(e2e, direct_color_terminfo)
{
	char *dir = th_tmpdir();
	char tienv[4300];
	if (!direct_terminfo(dir, "pescope-direct", 65536)) {
		free(dir);
		cr_skip_test("tic could not compile a terminfo entry");
	}
	snprintf(tienv, sizeof tienv, "TERMINFO=%s/db", dir);
	char snapenv[4300];
	snprintf(snapenv, sizeof snapenv, "PESCOPE_SNAPSHOT_DIR=%s", dir);
	const char *envs[] = {tienv, "TERM=pescope-direct", snapenv, NULL};
	struct term t;

	start(&t, NULL, envs);
	VTermScreenCell c = cell_at(&t, 10, 8);
	cr_expect_eq(c.chars[0], 0x2580);
	cr_expect(VTERM_COLOR_IS_RGB(&c.fg), "direct color: RGB cells");
	cr_expect(raw_has(&t, "38;2;"), "SGR 38;2 used");
	/* The snapshot is written at the depth on screen: truecolor. */
	term_send(&t, "w");
	cr_assert(term_wait_for(&t, "saved", WAIT_MS));
	char *ansi = find_file(dir, ".ansi", NULL);
	cr_assert_not_null(ansi);
	const char *snap[] = {"pescope", "snapshot", "--size", "120x40",
	    "--color", "truecolor", NULL};
	char *out = NULL;
	size_t len = 0, flen = 0;
	cr_assert_eq(th_run(snap, NULL, &out, &len, NULL), 0);
	char *file = th_slurp(ansi, &flen);
	cr_expect(file != NULL && flen == len && memcmp(file, out, len) == 0,
	    "truecolor .ansi equals `pescope snapshot --color truecolor`");
	term_quit(&t);
	term_free(&t);
	free(out);
	free(file);
	free(ansi);
	free(dir);
}

/* The colors of every cell, as RGB (malloc'd [rows * cols * 2]). */
static uint32_t *
screen_colors(struct term *t)
{
	uint32_t *g = malloc(sizeof *g * (size_t)t->rows * t->cols * 2);
	for (int y = 0; y < t->rows; y++)
		for (int x = 0; x < t->cols; x++) {
			VTermScreenCell c = cell_at(t, x, y);
			uint32_t *o = &g[((size_t)y * t->cols + x) * 2];
			o[0] = VTERM_COLOR_IS_DEFAULT_FG(&c.fg) ? 0xff000000u
			    : (uint32_t)c.fg.rgb.red << 16 | c.fg.rgb.green << 8 |
				c.fg.rgb.blue;
			o[1] = VTERM_COLOR_IS_DEFAULT_BG(&c.bg) ? 0xff000000u
			    : (uint32_t)c.bg.rgb.red << 16 | c.bg.rgb.green << 8 |
				c.bg.rgb.blue;
		}
	return g;
}

Test(e2e, pair_pool_exhaustion_keeps_colors)
{
	/* A pool of 2000 pairs holds one frame of direct color (~1800 pairs)
	 * and runs out within the next few:
	 * the cache is cleared and the screen repainted; no cell may keep a
	 * stale color. */
	char *dir = th_tmpdir();
	char tienv[4300];
	if (!direct_terminfo(dir, "pescope-few", 2000)) {
		free(dir);
		cr_skip_test("tic could not compile a terminfo entry");
	}
	snprintf(tienv, sizeof tienv, "TERMINFO=%s/db", dir);
	const char *envs[] = {tienv, "TERM=pescope-few", NULL};
	struct term t;

	start(&t, NULL, envs);
	term_pump(&t, 300);
	uint32_t *first = screen_colors(&t);
	/* Every encoding has its own colors: the pool runs out. */
	for (int i = 0; i < 2; i++) {
		term_send(&t, "+");
		term_send(&t, "0");
		for (const char *k = "2345671"; *k != '\0'; k++) {
			char key[2] = {*k, 0};
			term_send(&t, key);
		}
	}
	term_pump(&t, 300);
	uint32_t *now = screen_colors(&t);
	size_t bad = 0, first_bad = 0;
	for (size_t i = 0; i < (size_t)t.rows * t.cols * 2; i++)
		if (first[i] != now[i] && bad++ == 0)
			first_bad = i;
	cr_expect_eq(bad, 0, "%zu color(s) differ from the first frame, first "
	    "at cell %zu,%zu", bad, first_bad / 2 % (size_t)t.cols,
	    first_bad / 2 / (size_t)t.cols);
	term_quit(&t);
	term_free(&t);

	/* And they are the colors a terminal with a large pool shows. */
	cr_assert(direct_terminfo(dir, "pescope-many", 65536));
	const char *envs2[] = {tienv, "TERM=pescope-many", NULL};
	start(&t, NULL, envs2);
	term_pump(&t, 300);
	uint32_t *ref = screen_colors(&t);
	{
		size_t n = (size_t)t.rows * t.cols, distinct = 0;
		for (size_t i = 0; i < n; i++) {
			bool seen = false;
			for (size_t k = 0; k < i && !seen; k++)
				seen = ref[2 * k] == ref[2 * i] &&
				    ref[2 * k + 1] == ref[2 * i + 1];
			distinct += !seen;
		}
		/* The test means something only if one frame fits the small
		 * pool and the frames after it do not. */
		cr_expect(distinct > 1000 && distinct < 2000, "a frame has %zu "
		    "distinct color pairs; adjust the small pool (2000)",
		    distinct);
	}
	bad = 0;
	for (size_t i = 0; i < (size_t)t.rows * t.cols * 2; i++)
		if (ref[i] != now[i] && bad++ == 0)
			first_bad = i;
	cr_expect_eq(bad, 0, "%zu color(s) differ from a large pool's, first "
	    "at cell %zu,%zu", bad, first_bad / 2 % (size_t)t.cols,
	    first_bad / 2 / (size_t)t.cols);
	term_quit(&t);
	term_free(&t);
	free(ref);
	free(first);
	free(now);
	free(dir);
}

/* A frame that takes seconds (a 2^30 x 2^20 map at 300x100): keys typed
 * meanwhile are applied together before the next frame, the screen says
 * that a frame is being computed, and q quits at once instead of waiting
 * for every frame the keys asked for. */
#if defined(__SANITIZE_ADDRESS__)
/* ASan makes every frame ten times slower: a smaller screen keeps the
 * frame slow enough to test and the test short enough to run. */
#define SLOW_H 40
#define SLOW_W 120
#else
#define SLOW_H 100
#define SLOW_W 300
#endif
Test(e2e, slow_frames_never_hold_keys)
{
	const char *args[] = {"-n", "1073741824", "-d", "1048576", NULL};
	struct term t;

	long long t0 = now_ms();
	term_start(&t, SLOW_H, SLOW_W, args, NULL);
	cr_assert(term_wait_for(&t, "1 sinusoidal", 180000), "no first frame");
	long long frame = now_ms() - t0;
	cr_assert_gt(frame, 300, "the frame is slow enough to test (%lld ms)",
	    frame);
	/* Five parameter keys at once (a base each: the model made again;
	 * a cursor's move alone now redraws from what the model keeps, too
	 * quickly to be slow): one slow frame, not five, and it says so. */
	term_send(&t, "bbbbb");
	cr_expect(term_wait_for(&t, "computing", 1000), "a slow frame says "
	    "so within a second");
	long long tq = now_ms();
	term_send(&t, "q");
	int st = term_wait_exit(&t, 60000);
	long long quit = now_ms() - tq;
	cr_expect(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	    "q exits with 0 (wait status %d)", st);
	cr_expect_lt(quit, 1500, "q quit after %lld ms; a frame takes %lld ms",
	    quit, frame);
	term_free(&t);

	/* The moves are coalesced: after five Downs and a pause, the cursor
	 * moved five steps with one frame in between at most. */
	term_start(&t, SLOW_H, SLOW_W, args, NULL);
	cr_assert(term_wait_for(&t, "1 sinusoidal", 180000));
	t0 = now_ms();
	term_send(&t, K_DOWN K_DOWN K_DOWN K_DOWN K_DOWN);
	cr_expect(term_wait_gone(&t, "PE[0,", 180000));
	long long five = now_ms() - t0;
	cr_expect_lt(five, 2 * frame + 1000, "five moves took %lld ms; one "
	    "frame %lld ms", five, frame);
	term_quit(&t);
	term_free(&t);
}

/* A storm of keys that change sizes (n, d, base, back and forth, tens of
 * thousands of them, faster than models can be built at 2^30 x 2^20): the
 * keys waiting are applied together and one model is built for them, so
 * the work never queues behind them and q after the storm quits at once;
 * Ctrl-C the same. */
Test(e2e, a_key_storm_queues_no_work)
{
	const char *args[] = {"-n", "1073741824", "-d", "1048576", NULL};
	for (int how = 0; how < 2; how++) {
		struct term t;
		term_start(&t, SLOW_H, SLOW_W, args, NULL);
		cr_assert(term_wait_for(&t, "1 sinusoidal", 180000), "no first "
		    "frame");
		static const char storm[] = "nNdDbBNnDdBb";
		char burst[40 * 12 + 1];
		for (size_t i = 0; i + 1 < sizeof burst; i++)
			burst[i] = storm[i % 12];
		burst[sizeof burst - 1] = '\0';
		long long end = now_ms() + 8000;
		size_t sent = 0;
		while (now_ms() < end) {
			ssize_t w = write(t.fd, burst, sizeof burst - 1);
			if (w > 0)
				sent += (size_t)w;
			term_pump(&t, 10);
		}
		/* q (or Ctrl-C, SIGINT) behind what the terminal still holds:
		 * the time it waits to be written counts */
		long long tq = now_ms();
		const char *key = how == 0 ? "q" : "\003";
		while (write(t.fd, key, 1) != 1 && now_ms() < tq + 120000)
			term_pump(&t, 5);
		int st = term_wait_exit(&t, 120000);
		long long quit = now_ms() - tq;
		cr_expect(st >= 0 && (how == 0 ? WIFEXITED(st) && WEXITSTATUS(st)
		    == 0 : WIFSIGNALED(st) && WTERMSIG(st) == SIGINT),
		    "%s: wait status %d", how == 0 ? "q" : "Ctrl-C", st);
		cr_expect_lt(quit, 1500, "%s after %zu keys in 8 s took %lld ms",
		    how == 0 ? "q" : "Ctrl-C", sent, quit);
		term_free(&t);
	}
}

/* Killed as tmux kill-session kills it, while its first (slow) frame is
 * computed: the terminal hangs up and SIGHUP comes. Whichever it sees
 * first, the program dies of the signal at once (not an exit through
 * atexit and, under the sanitizers, a leak check), and no signal after
 * the TUI has ended is swallowed by its handlers. */
Test(e2e, hangup_and_sighup_in_the_first_frame_end_it_by_the_signal)
{
	const char *args[] = {"-n", "1073741824", "-d", "1048576", NULL};
	static const int after_ms[] = {300, 800, 1300};
	for (size_t i = 0; i < 3; i++) {
		struct term t;
		term_start(&t, SLOW_H, SLOW_W, args, NULL);
		term_pump(&t, after_ms[i]);
		/* the terminal goes away: its controlling process (ours,
		 * forkpty made it a session leader) gets SIGHUP from the
		 * kernel; the second time tmux sends one too */
		close(t.fd);
		if (i == 1)
			kill(t.pid, SIGHUP);
		t.fd = -1;
		long long t0 = now_ms();
		int st = -1;
		while (now_ms() < t0 + 5000 &&
		    waitpid(t.pid, &st, WNOHANG) != t.pid)
			usleep(10000);
		long long took = now_ms() - t0;
		t.exited = WIFEXITED(st) || WIFSIGNALED(st);
		cr_expect(t.exited && WIFSIGNALED(st) && WTERMSIG(st) == SIGHUP,
		    "after %d ms: wait status %d (exit %d), %lld ms", after_ms[i],
		    st, WIFEXITED(st) ? WEXITSTATUS(st) : -1, took);
		term_free(&t);
	}
}

/* The terminal hangs up under a TUI whose session it does not control (a
 * program started with setsid, as keys_tmux.sh does): no signal comes,
 * the TUI sees the hangup itself. It ends as a hangup ends a program, by
 * SIGHUP, within a few seconds: never through exit and its atexit work,
 * where under LeakSanitizer the leak check stops the process with ptrace
 * and a SIGCONT from the dying session cancels that stop (the tracer then
 * waits forever and the process spins in sched_yield: the orphans at
 * ~30% CPU). */
Test(e2e, a_terminal_that_hangs_up_ends_the_tui_by_sighup)
{
	static const int after_ms[] = {300, 900, 1500};
	/* the TUI's parent exits at once: it becomes ours to wait for */
	cr_assert_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	for (size_t i = 0; i < 3; i++) {
		struct winsize ws = {.ws_row = 40, .ws_col = 120};
		int fd, p[2];
		cr_assert_eq(pipe(p), 0);
		pid_t leader = forkpty(&fd, NULL, NULL, &ws);
		cr_assert_geq(leader, 0);
		if (leader == 0) {
			/* a session of its own: the pty is only its stdio */
			pid_t c = fork();
			if (c == 0) {
				setsid();
				th_child_signals();
				close(p[0]);
				close(p[1]);
				setenv("TERM", "xterm-256color", 1);
				execl(th_bin(), th_bin(), "-n", "1073741824", "-d",
				    "1048576", (char *)NULL);
				_exit(127);
			}
			if (write(p[1], &c, sizeof c) != sizeof c)
				_exit(1);
			_exit(0);
		}
		close(p[1]);
		pid_t pid = -1;
		cr_assert_eq(read(p[0], &pid, sizeof pid), (ssize_t)sizeof pid);
		close(p[0]);
		waitpid(leader, NULL, 0);
		long long t0 = now_ms();
		while (now_ms() < t0 + after_ms[i]) {
			char b[65536];
			struct pollfd q = {.fd = fd, .events = POLLIN};
			if (poll(&q, 1, 20) == 1 && read(fd, b, sizeof b) <= 0)
				break;
		}
		close(fd); /* the hangup: nothing else */
		long long end = now_ms() + 8000;
		int st = 0;
		bool gone = false;
		while (now_ms() < end && !gone) {
			gone = waitpid(pid, &st, WNOHANG) == pid;
			if (!gone)
				usleep(5000);
		}
		cr_expect(gone, "after %d ms: pescope %d still runs 8 s after its "
		    "terminal went away", after_ms[i], (int)pid);
		cr_expect(!gone || (WIFSIGNALED(st) && WTERMSIG(st) == SIGHUP),
		    "after %d ms: wait status %d (exit %d): not ended by SIGHUP",
		    after_ms[i], st, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		if (!gone) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
	}
}

/* Signals that end the program restore the terminal first: the alternate
 * screen is left and mouse reporting is off; then it dies of the signal. */
Test(e2e, every_ending_signal_restores_terminal)
{
	static const int sigs[] = {SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGHUP,
	    SIGINT, SIGPIPE, SIGSEGV, SIGABRT};
	struct term t;
	/* Under AddressSanitizer its SEGV handler comes after ours and
	 * reports; here the default action is wanted. */
	char asan[1024] = "";
	const char *envs[] = {asan, NULL}, *const *env = NULL;
	if (getenv("ASAN_OPTIONS") != NULL) {
		snprintf(asan, sizeof asan, "ASAN_OPTIONS=%s:handle_segv=0",
		    getenv("ASAN_OPTIONS"));
		env = envs;
	}

	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		start(&t, NULL, env);
		cr_assert(raw_has_mouse_on(&t), "mouse reporting is on");
		size_t before = t.nraw;
		kill(t.pid, sigs[i]);
		int st = term_wait_exit(&t, WAIT_MS);
		const char *after = t.raw + before;
		cr_expect(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == sigs[i],
		    "%s: dies of it (wait status %d)", strsignal(sigs[i]), st);
		cr_expect(strstr(after, "\033[?1049l") != NULL,
		    "%s: the alternate screen is left", strsignal(sigs[i]));
		cr_expect(strstr(after, "1000l") != NULL,
		    "%s: mouse reporting is off", strsignal(sigs[i]));
		term_free(&t);
	}
}

/* Ctrl-C and Ctrl-\ end the TUI even when it was started with SIGINT and
 * SIGQUIT ignored (as a shell without job control starts a background
 * job): the terminal is restored and it dies of the signal. SIGHUP under
 * nohup stays ignored: a hangup the TUI does not see leaves it running,
 * and q ends it. */
Test(e2e, ctrl_c_ends_a_tui_started_with_it_ignored)
{
	static const struct {
		const char *key;
		int sig;
	} keys[] = {{"\003", SIGINT}, {"\034", SIGQUIT}};
	struct term t;
	child_ignored[0] = SIGINT, child_ignored[1] = SIGQUIT;
	child_ignored[2] = SIGHUP;
	for (size_t i = 0; i < 2; i++) {
		start(&t, NULL, NULL);
		size_t before = t.nraw;
		term_send(&t, keys[i].key);
		int st = term_wait_exit(&t, WAIT_MS);
		const char *after = t.raw + before;
		cr_expect(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) ==
		    keys[i].sig, "%s: dies of it (wait status %d)",
		    strsignal(keys[i].sig), st);
		cr_expect(strstr(after, "\033[?1049l") != NULL,
		    "%s: the alternate screen is left", strsignal(keys[i].sig));
		term_free(&t);
	}
	start(&t, NULL, NULL);
	kill(t.pid, SIGHUP);
	term_pump(&t, 300);
	cr_expect_eq(waitpid(t.pid, NULL, WNOHANG), 0, "nohup's SIGHUP ended it");
	term_quit(&t);
	term_free(&t);
	memset(child_ignored, 0, sizeof child_ignored);
}

/* LINES and COLUMNS cannot make pescope draw for a screen it does not
 * have: the terminal's own size wins, and with no size known they are
 * bounded (1000 x 1000); the status line says what was refused. */
Test(e2e, size_from_the_terminal_not_the_environment)
{
	struct term t;
	const char *huge[] = {"COLUMNS=5000", "LINES=5000", NULL};

	start(&t, NULL, huge);
	char line[COLS * 8 + 64];
	cr_expect(find_line(&t, "PE[0,0]", line, sizeof line) == ROWS - 3,
	    "the inspector sits on the 120x40 screen's third line from the "
	    "bottom");
	cr_expect(term_has(&t, "COLUMNS=5000"), "the status line says the "
	    "environment was ignored");
	term_quit(&t);
	term_free(&t);

	/* No size from the terminal: COLUMNS is bounded, not trusted. */
	const char *wide[] = {"COLUMNS=100000", "LINES=40", NULL};
	term_start(&t, 0, 0, NULL, wide);
	term_pump(&t, 2000);
	cr_expect(!t.exited, "started: %.300s", t.raw ? t.raw : "");
	cr_expect(t.raw == NULL || strstr(t.raw, "cannot start") == NULL);
	term_quit(&t);
	term_free(&t);
}

/* The screen `pescope snapshot argv...` writes (ANSI, 120x40), through an
 * emulator of its own. */
static VTerm *
snapshot_vterm(const char *const *argv)
{
	char *out = NULL;
	size_t len = 0;
	cr_assert_eq(th_run(argv, NULL, &out, &len, NULL), 0, "snapshot %s %s "
	    "--color %s %s %s failed", argv[2], argv[3], argv[7],
	    argv[10] ? argv[10] : "", argv[10] ? argv[11] : "");
	VTerm *vt = vterm_new(ROWS, COLS);
	vterm_set_utf8(vt, 1);
	VTermScreen *scr = vterm_obtain_screen(vt);
	vterm_screen_reset(scr, 1);
	/* lines end in \n; the emulator wants \r\n and no scroll at the end */
	for (char *s = out, *nl; s < out + len; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(out + len - s));
		if (nl == NULL)
			nl = out + len;
		vterm_input_write(vt, s, (size_t)(nl - s));
		if (nl + 1 < out + len)
			vterm_input_write(vt, "\r\n", 2);
	}
	free(out);
	return vt;
}

/* Whether two emulator colors are the same: both the default, or the
 * same palette index, or the same RGB. */
static bool
same_color(const VTermColor *a, const VTermColor *b, bool fg)
{
	bool da = fg ? VTERM_COLOR_IS_DEFAULT_FG(a) : VTERM_COLOR_IS_DEFAULT_BG(a);
	bool db = fg ? VTERM_COLOR_IS_DEFAULT_FG(b) : VTERM_COLOR_IS_DEFAULT_BG(b);
	if (da || db)
		return da == db;
	if (VTERM_COLOR_IS_INDEXED(a) != VTERM_COLOR_IS_INDEXED(b))
		return false;
	if (VTERM_COLOR_IS_INDEXED(a))
		return a->indexed.idx == b->indexed.idx;
	return a->rgb.red == b->rgb.red && a->rgb.green == b->rgb.green &&
	    a->rgb.blue == b->rgb.blue;
}

/* A color for a message. */
static void
color_str(const VTermColor *c, bool fg, char *buf, size_t cap)
{
	if (fg ? VTERM_COLOR_IS_DEFAULT_FG(c) : VTERM_COLOR_IS_DEFAULT_BG(c))
		snprintf(buf, cap, "default");
	else if (VTERM_COLOR_IS_INDEXED(c))
		snprintf(buf, cap, "index %d", c->indexed.idx);
	else
		snprintf(buf, cap, "#%02x%02x%02x", c->rgb.red, c->rgb.green,
		    c->rgb.blue);
}

/* Count the cells where the TUI's screen and the snapshot's differ in
 * glyph, colors, bold or reverse; the first one is described in what. */
static int
cells_differ(struct term *t, VTerm *ref, char *what, size_t cap)
{
	VTermScreen *rs = vterm_obtain_screen(ref);
	int bad = 0;
	for (int y = 0; y < t->rows; y++)
		for (int x = 0; x < t->cols; x++) {
			VTermScreenCell a = cell_at(t, x, y), b;
			VTermPos pos = {.row = y, .col = x};
			vterm_screen_get_cell(rs, pos, &b);
			uint32_t ca = a.chars[0] ? a.chars[0] : ' ';
			uint32_t cb = b.chars[0] ? b.chars[0] : ' ';
			if (ca == cb && same_color(&a.fg, &b.fg, true) &&
			    same_color(&a.bg, &b.bg, false) &&
			    a.attrs.bold == b.attrs.bold &&
			    a.attrs.reverse == b.attrs.reverse)
				continue;
			if (bad++ == 0) {
				char fa[32], fb[32], ba[32], bb[32];
				color_str(&a.fg, true, fa, sizeof fa);
				color_str(&b.fg, true, fb, sizeof fb);
				color_str(&a.bg, false, ba, sizeof ba);
				color_str(&b.bg, false, bb, sizeof bb);
				snprintf(what, cap, "cell %d,%d: TUI U+%04X fg %s "
				    "bg %s bold %d; snapshot U+%04X fg %s bg %s "
				    "bold %d", x, y, ca, fa, ba, a.attrs.bold, cb,
				    fb, bb, b.attrs.bold);
			}
		}
	return bad;
}

/* Text cells (not block elements) whose color is black or white on the
 * terminal's default background: they vanish on a dark or a light
 * screen. */
static int
invisible_text(struct term *t, char *what, size_t cap)
{
	int bad = 0;
	for (int y = 0; y < t->rows; y++)
		for (int x = 0; x < t->cols; x++) {
			VTermScreenCell c = cell_at(t, x, y);
			uint32_t cp = c.chars[0];
			if (cp == 0 || cp == ' ' || (cp >= 0x2580 && cp <= 0x259f) ||
			    !VTERM_COLOR_IS_DEFAULT_BG(&c.bg) || c.attrs.reverse ||
			    !VTERM_COLOR_IS_INDEXED(&c.fg))
				continue;
			int i = c.fg.indexed.idx;
			if (i != 0 && i != 7 && i != 15 && i != 16 && i != 231)
				continue;
			if (bad++ == 0)
				snprintf(what, cap, "cell %d,%d U+%04X: index %d on "
				    "the default background", x, y, cp, i);
		}
	return bad;
}

/* One way of starting the TUI and the snapshot depth it must match. */
struct depth_case {
	const char *name;
	const char *env[3];
	const char *args[5];
	const char *snap; /* --color of the snapshot */
	const char *theme; /* --theme of both, or NULL */
};

/* At every depth the TUI's cells (glyphs and colors) are the snapshot's,
 * for every encoding, in both themes: one color mapping for both.
 * Truecolor comes from COLORTERM with a 256-color TERM, or from --color
 * truecolor. At 8 and 16 colors no text is black or white on the default
 * background. */
Test(e2e, tui_colors_equal_snapshot_at_every_depth)
{
	static const struct depth_case cases[] = {
	    {"NO_COLOR", {"NO_COLOR=1"}, {NULL}, "mono"},
	    {"TERM=xterm", {"TERM=xterm"}, {NULL}, "8"},
	    {"TERM=screen", {"TERM=screen"}, {NULL}, "8"},
	    {"--color 16", {NULL}, {"--color", "16"}, "16"},
	    {"xterm-256color", {NULL}, {NULL}, "256"},
	    {"COLORTERM=truecolor", {"COLORTERM=truecolor"}, {NULL},
		"truecolor"},
	    {"COLORTERM=24bit, screen-256color",
		{"COLORTERM=24bit", "TERM=screen-256color"}, {NULL},
		"truecolor"},
	    {"--color truecolor", {NULL}, {"--color", "truecolor"},
		"truecolor"},
	    {"light, TERM=xterm", {"TERM=xterm"}, {"--theme", "light"}, "8",
		"light"},
	    {"light, --color 16", {NULL}, {"--color", "16", "--theme", "light"},
		"16", "light"},
	    {"light, xterm-256color", {NULL}, {"--theme", "light"}, "256",
		"light"},
	    {"light, --color truecolor", {NULL},
		{"--color", "truecolor", "--theme", "light"}, "truecolor",
		"light"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct depth_case *dc = &cases[i];
		struct term t;
		start(&t, dc->args, dc->env);
		for (int e = 0; e < PE_ENC_COUNT; e++) {
			const char *name = pe_encoding_name(e);
			/* the first nine by their key, the rest by Tab */
			char key[2] = {e < 9 ? (char)('1' + e) : '\t', 0};
			char what[300] = "";
			if (e > 0) {
				term_send(&t, key);
				/* a loaded machine (or ASan) may take longer than
				 * term_send's pump to draw the new tab */
				for (int k = 0; k < 20 && !tab_is_current(&t, e, name);
				     k++)
					term_pump(&t, 250);
				cr_assert(tab_is_current(&t, e, name), "tab %s", name);
				term_pump(&t, 300);
			}
			/* a switch by key keeps the cursor at 0,0 (rope's own
			 * start is m = n / 2) */
			const char *snap[] = {"pescope", "snapshot", "-e",
			    name, "--size", "120x40", "--color", dc->snap,
			    "--cursor", "0,0", dc->theme ? "--theme" : NULL,
			    dc->theme, NULL};
			VTerm *ref = snapshot_vterm(snap);
			int bad = cells_differ(&t, ref, what, sizeof what);
			cr_expect_eq(bad, 0, "%s, %s: %d cells differ from "
			    "`snapshot --color %s%s%s`; %s", dc->name, name, bad,
			    dc->snap, dc->theme ? " --theme " : "",
			    dc->theme ? dc->theme : "", what);
			vterm_free(ref);
			if (strcmp(dc->snap, "8") == 0 ||
			    strcmp(dc->snap, "16") == 0) {
				bad = invisible_text(&t, what, sizeof what);
				cr_expect_eq(bad, 0, "%s, %s: %d text cells "
				    "vanish; %s", dc->name, name, bad, what);
			}
		}
		term_quit(&t);
		term_free(&t);
	}
}

/* The panels in the TUI: c and C cycle the right column's panels, v puts
 * numbers over a magnified map, --panel starts on a panel. */
Test(e2e, panel_and_values_keys)
{
	struct term t;
	const char *small[] = {"-n", "5", "-d", "4", NULL};

	start(&t, small, NULL);
	term_send(&t, "c");
	cr_expect(term_wait_for(&t, "toy attention", WAIT_MS), "c: attention");
	term_send(&t, "c");
	cr_expect(term_wait_for(&t, "the worked example", WAIT_MS),
	    "c: example");
	term_send(&t, "C");
	cr_expect(term_wait_for(&t, "toy attention", WAIT_MS), "C: back");
	term_send(&t, "v");
	cr_expect(term_wait_for(&t, "0.841", WAIT_MS), "v: sin 1 over the map");
	term_quit(&t);
	term_free(&t);

	const char *decay[] = {"-e", "rope", "--panel", "decay", NULL};
	start(&t, decay, NULL);
	cr_expect(term_wait_for(&t, "long-term decay", WAIT_MS));
	term_quit(&t);
	term_free(&t);
}

/* ---- --record: asciicast v2 -------------------------------------------- */

/* Decode the JSON string starting after its opening quote at s (RFC 8259:
 * the escapes asciicast files use) into *dest (malloc'd, *len bytes);
 * returns the end (after the closing quote) or NULL. */
static const char *
json_str(const char *s, char **dest, size_t *len)
{
	size_t n = 0;
	char *o = malloc(strlen(s) + 1);
	for (; *s != '\0' && *s != '"'; s++) {
		if (*s != '\\') {
			o[n++] = *s;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': o[n++] = '\n'; break;
		case 'r': o[n++] = '\r'; break;
		case 't': o[n++] = '\t'; break;
		case 'b': o[n++] = '\b'; break;
		case 'f': o[n++] = '\f'; break;
		case '"': case '\\': case '/': o[n++] = *s; break;
		case 'u': {
			char hex[5] = {0};
			memcpy(hex, s + 1, 4);
			n += (size_t)utf8((uint32_t)strtoul(hex, NULL, 16), o + n);
			s += 4;
			break;
		}
		default:
			free(o);
			return NULL;
		}
	}
	if (*s != '"') {
		free(o);
		return NULL;
	}
	*dest = o;
	*len = n;
	return s + 1;
}

/* One event line [t, "c", "data"]: false when it is not one. */
static bool
cast_event(const char *line, double *t, char *code, char **data, size_t *len)
{
	int at = 0;
	if (sscanf(line, "[%lf, \"%c\", \"%n", t, code, &at) != 2 || at == 0)
		return false;
	const char *end = json_str(line + at, data, len);
	if (end == NULL)
		return false;
	if (strcmp(end, "]\n") != 0) {
		free(*data);
		return false;
	}
	return true;
}

/* The lines of a file (malloc'd array of malloc'd lines, NULL-ended). */
static char **
file_lines(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "r");
	char **v = NULL, *l = NULL;
	size_t cap = 0;
	*n = 0;
	if (fp == NULL)
		return NULL;
	while (getline(&l, &cap, fp) >= 0) {
		v = realloc(v, (*n + 2) * sizeof *v);
		v[(*n)++] = strdup(l);
	}
	free(l);
	fclose(fp);
	if (v != NULL)
		v[*n] = NULL;
	return v;
}

/* Free file_lines' lines. */
static void
lines_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A session recorded with --record: the header says 80x24 and the TERM;
 * the "o" events together are exactly the bytes the terminal received;
 * a resize is an "r" event; and the events replayed into a fresh
 * emulator (up to leaving the alternate screen) give the screen the TUI
 * showed last, cell by cell (glyphs, colors, bold). */
Test(e2e, record_replays_to_the_tui_screen)
{
	char dir[] = "/tmp/pescope-cast-XXXXXX", path[64];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/s.cast", dir);
	const char *args[] = {"--record", path, "-e", "sinusoidal", NULL};
	struct term t;
	term_start(&t, 24, 80, args, NULL);
	cr_assert(term_wait_for(&t, "PE[position", WAIT_MS));
	term_send(&t, "2");
	cr_assert(term_wait_for(&t, "max_len", WAIT_MS));
	term_send(&t, K_RIGHT K_DOWN "P");
	cr_assert(term_wait_for(&t, "presenter view", WAIT_MS));
	term_resize(&t, 30, 100);
	term_pump(&t, 600);
	term_send(&t, "3");
	cr_assert(term_wait_for(&t, "buckets", WAIT_MS));
	term_pump(&t, 300);
	/* the TUI's last screen */
	VTermScreenCell *seen = calloc(30 * 100, sizeof *seen);
	for (int y = 0; y < 30; y++)
		for (int x = 0; x < 100; x++)
			seen[y * 100 + x] = cell_at(&t, x, y);
	term_quit(&t);

	size_t n;
	char **lines = file_lines(path, &n);
	cr_assert_not_null(lines, "no recording at %s", path);
	cr_assert_geq(n, 4);
	cr_expect(strncmp(lines[0], "{\"version\": 2, \"width\": 80, \"height\": "
	    "24, \"timestamp\": ", 50) == 0, "%s", lines[0]);
	cr_expect(strstr(lines[0], "\"env\": {\"TERM\": \"xterm-256color\"}}\n")
	    != NULL, "%s", lines[0]);
	long long stamp = strtoll(strstr(lines[0], "\"timestamp\": ") + 13, NULL,
	    10);
	cr_expect(llabs(stamp - (long long)time(NULL)) < 600, "%lld", stamp);

	VTerm *rv = vterm_new(24, 80);
	vterm_set_utf8(rv, 1);
	VTermScreen *rs = vterm_obtain_screen(rv);
	vterm_screen_enable_altscreen(rs, 1);
	vterm_screen_reset(rs, 1);
	char *all = malloc(t.nraw + 1);
	size_t nall = 0, outs = 0;
	bool resized = false, left = false;
	double last = 0;
	for (size_t i = 1; i < n; i++) {
		double tm;
		char code, *data;
		size_t len;
		cr_assert(cast_event(lines[i], &tm, &code, &data, &len),
		    "line %zu is not an event: %.80s", i + 1, lines[i]);
		cr_expect_geq(tm, last, "line %zu: time goes back", i + 1);
		last = tm;
		if (code == 'r') {
			int w, h;
			cr_assert_eq(sscanf(data, "%dx%d", &w, &h), 2, "%s", data);
			cr_expect(!resized && w == 100 && h == 30, "r %s", data);
			resized = true;
			if (!left)
				vterm_set_size(rv, h, w);
		} else {
			cr_assert_eq(code, 'o');
			outs++;
			cr_assert_leq(nall + len, t.nraw, "more bytes recorded than "
			    "the terminal received");
			memcpy(all + nall, data, len);
			nall += len;
			if (memmem(data, len, "\033[?1049l", 8) != NULL)
				left = true;
			if (!left)
				vterm_input_write(rv, data, len);
		}
		free(data);
	}
	cr_expect(resized, "no r event");
	cr_expect(left, "the recording ends by leaving the alternate screen");
	cr_expect_eq(nall, t.nraw, "recorded %zu bytes, the terminal got %zu",
	    nall, t.nraw);
	cr_expect(memcmp(all, t.raw, nall < t.nraw ? nall : t.nraw) == 0,
	    "the recorded bytes are not the terminal's");
	cr_expect_lt(outs, 40, "%zu o events for a handful of frames", outs);
	int bad = 0;
	for (int y = 0; y < 30; y++)
		for (int x = 0; x < 100; x++) {
			VTermScreenCell a = seen[y * 100 + x], b;
			vterm_screen_get_cell(rs, (VTermPos){.row = y, .col = x}, &b);
			uint32_t ca = a.chars[0] ? a.chars[0] : ' ';
			uint32_t cb = b.chars[0] ? b.chars[0] : ' ';
			if (ca == cb && same_color(&a.fg, &b.fg, true) &&
			    same_color(&a.bg, &b.bg, false) &&
			    a.attrs.bold == b.attrs.bold)
				continue;
			if (bad++ == 0)
				cr_expect_fail("cell %d,%d: TUI U+%04X, replay U+%04X", x,
				    y, ca, cb);
		}
	cr_expect_eq(bad, 0, "%d cells differ", bad);
	free(all);
	free(seen);
	vterm_free(rv);
	lines_free(lines, n);
	term_free(&t);
	unlink(path);
	rmdir(dir);
}

/* The one entry of dir but . and .. (malloc'd path), or NULL. */
static char *
dir_only(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *r = NULL;
	int n = 0;
	if (d == NULL)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		n++;
		free(r);
		r = malloc(strlen(dir) + strlen(e->d_name) + 2);
		sprintf(r, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n != 1) {
		free(r);
		r = NULL;
	}
	return r;
}

/* Whether every line after the header of the recording at path is a
 * whole event (the last too: it ends with its newline); *left: one leaves
 * the alternate screen; *lines: how many. */
static bool
cast_whole(const char *path, bool *left, size_t *lines)
{
	size_t n, len;
	char **v = file_lines(path, &n);
	bool ok = v != NULL && n >= 1 &&
	    strncmp(v[0], "{\"version\": 2,", 14) == 0;
	*left = false;
	*lines = n;
	for (size_t i = 1; ok && i < n; i++) {
		double tm;
		char code, *data;
		if (!cast_event(v[i], &tm, &code, &data, &len)) {
			cr_expect_fail("%s: line %zu of %zu is not a whole event: "
			    "%.60s", path, i + 1, n, v[i]);
			ok = false;
			break;
		}
		*left |= memmem(data, len, "\033[?1049l", 8) != NULL;
		free(data);
	}
	if (v != NULL)
		lines_free(v, n);
	return ok;
}

/* A recording is written beside its name and renamed into place when the
 * session ends (as -o is): SIGTERM ends it by leaving the alternate
 * screen, in place; killed at any moment (SIGKILL: no cleanup at all),
 * the name keeps what it had and the hidden temporary file beside it
 * holds whole lines of JSON events up to the kill. An unwritable path is
 * refused before the screen is touched. */
Test(e2e, record_survives_signals_and_refuses_bad_paths)
{
	char dir[] = "/tmp/pescope-cast-XXXXXX", path[64];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/k.cast", dir);
	for (int s = 0; s < 2; s++) {
		int sig = s == 0 ? SIGKILL : SIGTERM;
		const char *args[] = {"--record", path, "-e", "rope", NULL};
		struct term t;
		term_start(&t, 24, 80, args, NULL);
		cr_assert(term_wait_for(&t, "head_dim", WAIT_MS));
		term_send(&t, "ss");
		kill(t.pid, sig);
		int st = term_wait_exit(&t, WAIT_MS);
		cr_expect(st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == sig,
		    "wait status %d", st);
		char *tmp = dir_only(dir);
		cr_assert_not_null(tmp, "%s: not one file in %s (%d)",
		    strsignal(sig), dir, th_dir_count(dir));
		bool left;
		size_t n;
		cr_expect(cast_whole(tmp, &left, &n), "%s", strsignal(sig));
		cr_expect_geq(n, 2, "a header and an event at least");
		if (sig == SIGKILL) {
			cr_expect(strstr(tmp, "/.k.cast.") != NULL, "SIGKILL: %s is "
			    "not the temporary file", tmp);
		} else {
			cr_expect_str_eq(tmp, path, "SIGTERM: renamed into place");
			cr_expect(left, "SIGTERM: the last event leaves the "
			    "alternate screen");
		}
		unlink(tmp);
		free(tmp);
		term_free(&t);
	}
	const char *bad[] = {"--record", "/nonexistent/x.cast", NULL};
	struct term t;
	term_start(&t, 24, 80, bad, NULL);
	int st = term_wait_exit(&t, WAIT_MS);
	cr_expect(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2,
	    "wait status %d", st);
	cr_expect(t.raw == NULL || strstr(t.raw, "\033[?1049h") == NULL,
	    "the screen was touched");
	cr_expect(t.raw != NULL && strstr(t.raw, "--record") != NULL);
	term_free(&t);
	rmdir(dir);
}

/* An old recording at the name is whole until the new one replaces it at
 * the end; a symbolic link at the name is replaced by the recording, its
 * target never written. */
Test(e2e, record_replaces_an_old_file_only_at_the_end)
{
	char dir[] = "/tmp/pescope-cast-XXXXXX", path[64], target[64];
	cr_assert_not_null(mkdtemp(dir));
	for (int s = 0; s < 2; s++) {
		snprintf(path, sizeof path, "%s/old.cast", dir);
		snprintf(target, sizeof target, "%s/target.txt", dir);
		FILE *fp = fopen(s == 0 ? path : target, "w");
		fputs("the old recording\n", fp);
		fclose(fp);
		if (s == 1)
			cr_assert_eq(symlink("target.txt", path), 0);
		const char *args[] = {"--record", path, NULL};
		struct term t;
		term_start(&t, 24, 80, args, NULL);
		cr_assert(term_wait_for(&t, "1 sinusoidal", WAIT_MS));
		char *during = th_slurp(s == 0 ? path : target, NULL);
		cr_expect(during != NULL && strcmp(during, "the old recording\n")
		    == 0, "during the session: %.40s", during ? during : "(gone)");
		free(during);
		term_quit(&t);
		term_free(&t);
		struct stat sb;
		cr_assert_eq(lstat(path, &sb), 0);
		cr_expect(S_ISREG(sb.st_mode), "the name holds the recording");
		bool left;
		size_t n;
		cr_expect(cast_whole(path, &left, &n) && left && n >= 2);
		if (s == 1) {
			char *tg = th_slurp(target, NULL);
			cr_expect(tg != NULL && strcmp(tg, "the old recording\n") == 0,
			    "the link's target was written");
			free(tg);
			unlink(target);
		}
		cr_expect_eq(th_dir_count(dir), 1, "a temporary file was left");
		unlink(path);
	}
	rmdir(dir);
}

/* Recording into a file that cannot grow: a file size limit (the write
 * that passes it is cut short, then EFBIG) and, where the test may mount
 * one (root), a 64 KB tmpfs (cut short, then ENOSPC). The file ends at the
 * last whole event, the session goes on, the status line says that the
 * recording stopped and why, and so does the message at exit. */
Test(e2e, record_stops_at_a_whole_event_when_the_file_cannot_grow)
{
	static const char *const why[2] = {"file size limit exceeded",
	    "No space left on device"};
	for (int mode = 0; mode < 2; mode++) {
		char dir[] = "/tmp/pescope-cast-XXXXXX", path[64];
		cr_assert_not_null(mkdtemp(dir));
		if (mode == 1 && mount("tmpfs", dir, "tmpfs", 0, "size=64k") != 0) {
			rmdir(dir);
			cr_log_warn("no tmpfs to fill (%s): the full disk is not "
			    "tried", strerror(errno));
			break;
		}
		snprintf(path, sizeof path, "%s/full.cast", dir);
		const char *args[] = {"--record", path, "-e", "rope", NULL};
		struct term t;
		/* the header and a first frame (37 KB), not the second */
		child_fsize = mode == 0 ? 100000 : 0;
		term_start(&t, 40, 120, args, NULL);
		child_fsize = 0;
		cr_assert(term_wait_for(&t, "head_dim", WAIT_MS), "%.300s",
		    t.raw ? t.raw : "");
		char said[128];
		snprintf(said, sizeof said, "recording stopped: %s", why[mode]);
		for (int i = 0; i < 6 && !term_has(&t, "recording stopped"); i++)
			term_send(&t, i % 2 ? "2" : "4");
		cr_expect(term_wait_for(&t, said, WAIT_MS), "the status line does "
		    "not say '%s'", said);
		term_send(&t, "1");
		cr_expect(term_has(&t, "1 sinusoidal"), "the session went on");
		size_t before = t.nraw;
		term_send(&t, "q");
		int st = term_wait_exit(&t, WAIT_MS);
		cr_expect(st >= 0 && WIFEXITED(st), "wait status %d", st);
		cr_expect(t.raw != NULL && strstr(t.raw + before, said) != NULL,
		    "the exit message does not say it: %s",
		    t.raw ? t.raw + before : "");
		struct stat sb;
		cr_assert_eq(stat(path, &sb), 0, "the recording is gone");
		cr_expect_leq(sb.st_size, 100000);
		bool left;
		size_t n;
		cr_expect(cast_whole(path, &left, &n), "%s", why[mode]);
		cr_expect_geq(n, 2);
		cr_expect_eq(th_dir_count(dir), 1);
		term_free(&t);
		unlink(path);
		if (mode == 1)
			umount(dir);
		rmdir(dir);
	}
}

/* ---- the lesson's link: whose socket, what it says -------------------- */

/* A listening Unix socket at path (removed first), or -1. */
static int
listen_at(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || strlen(path) >= sizeof sa.sun_path)
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 4)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Accept on fd within ms, pumping t meanwhile; the peer, or -1. */
static int
accept_within(struct term *t, int fd, int ms)
{
	long long end = now_ms() + ms;
	while (now_ms() < end) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 20) == 1)
			return accept(fd, NULL, NULL);
		term_pump(t, 20);
	}
	return -1;
}

/* Send a line to a peer and let the program act on it. */
static void
peer_says(struct term *t, int peer, const char *line)
{
	cr_assert_eq(write(peer, line, strlen(line)), (ssize_t)strlen(line));
	term_pump(t, 700);
}

/* Row 0 of the screen (the lesson's scene line) into buf. */
static const char *
scene_line(struct term *t, char *buf, size_t cap)
{
	return term_line(t, 0, buf, cap);
}

/* A peer of the same user that sends what no presenter would: a start
 * time that overflows the clock, a scene past the lesson, a step past its
 * scene, junk. Each is refused and said on the status line; the speaker
 * stays where it was and its clock stays sane; a sound message after them
 * is taken. */
Test(e2e, lesson_link_refuses_messages_out_of_bounds)
{
	char dir[] = "/tmp/pescope-link-XXXXXX", path[64], line[COLS * 8 + 64];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/l.sock", dir);
	int lfd = listen_at(path);
	cr_assert_geq(lfd, 0);
	const char *args[] = {"lesson", "--speaker", "--link", path, NULL};
	char state[128]; /* a place kept by an earlier run is not this one's */
	snprintf(state, sizeof state, "XDG_STATE_HOME=%s", dir);
	const char *envs[] = {state, NULL};
	struct term t;
	term_start(&t, 30, 100, args, envs);
	int peer = accept_within(&t, lfd, WAIT_MS);
	cr_assert_geq(peer, 0, "the speaker did not connect");
	cr_assert(term_wait_for(&t, "1/18", WAIT_MS));
	static const struct {
		const char *msg, *said;
	} bad[] = {
		{"hello -9223372036854775808 3 0\n", "not a plain number"},
		{"hello 9223372036854775807 3 0\n", "not within a day"},
		{"hello 0 12 0\n", "not within a day"},
		{"goto 99 0\n", "scene 100 is not in the lesson (1..18)"},
		{"goto 0 7\n", "step 8 is not in scene 1 (1..2)"},
		{"goto 3\n", "not a plain number"},
		{"\033]0;PWNED\007\n", "no message"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		peer_says(&t, peer, bad[i].msg);
		cr_expect(term_wait_for(&t, bad[i].said, 2000), "%.20s: the status "
		    "line does not say '%s'", bad[i].msg, bad[i].said);
		cr_expect(strncmp(scene_line(&t, line, sizeof line), " 1/18", 5) ==
		    0, "%.20s moved the speaker: %s", bad[i].msg, line);
		cr_expect(!term_has(&t, "-153722867280912930") &&
		    !term_has(&t, "498919"), "%.20s: the clock took it", bad[i].msg);
		cr_expect(raw_has(&t, "PWNED") == false, "the peer's bytes reached "
		    "the terminal");
	}
	char ok[64];
	snprintf(ok, sizeof ok, "hello %lld 2 0\n", (long long)time(NULL) - 600);
	peer_says(&t, peer, ok);
	cr_expect(term_wait_for(&t, " 3/18", 3000), "a sound hello is refused: "
	    "%s", scene_line(&t, line, sizeof line));
	cr_expect(term_wait_for(&t, "10:0", 3000), "the clock does not count "
	    "from the presenter's start");
	close(peer);
	close(lfd);
	term_quit(&t);
	term_free(&t);
	unlink(path);
	rmdir(dir);
}

/* Something of someone else's at the link's default path (a file where
 * the socket, or its folder, would be): the link is optional, so the lesson
 * runs, presenter and speaker, and says why the speaker's view is not
 * available. */
Test(e2e, lesson_runs_when_the_link_cannot_be_made)
{
	char dir[] = "/tmp/pescope-link-XXXXXX", p1[128], p2[128], env[160];
	cr_assert_not_null(mkdtemp(dir));
	chmod(dir, 01777);
	/* where the socket is (pescope-UID-intro.sock, before this was
	 * fixed) and where its folder is (pescope-UID/) */
	snprintf(p1, sizeof p1, "%s/pescope-%u-intro.sock", dir,
	    (unsigned)geteuid());
	snprintf(p2, sizeof p2, "%s/pescope-%u", dir, (unsigned)geteuid());
	FILE *fp = fopen(p1, "w");
	fclose(fp);
	fp = fopen(p2, "w");
	fclose(fp);
	if (geteuid() == 0) {
		chown(p1, 65534, 65534);
		chown(p2, 65534, 65534);
	}
	snprintf(env, sizeof env, "TMPDIR=%s", dir);
	char state[160]; /* a place kept by an earlier run is not this one's */
	snprintf(state, sizeof state, "XDG_STATE_HOME=%s", dir);
	const char *envs[] = {env, state, "XDG_RUNTIME_DIR", NULL};
	for (int speaker = 0; speaker < 2; speaker++) {
		const char *pre[] = {"lesson", NULL};
		const char *spk[] = {"lesson", "--speaker", NULL};
		struct term t;
		term_start(&t, 30, 100, speaker ? spk : pre, envs);
		cr_expect(term_wait_for(&t, "1/18", WAIT_MS), "%s: the lesson did "
		    "not start: %.300s", speaker ? "speaker" : "presenter",
		    t.raw ? t.raw : "");
		cr_expect(term_wait_for(&t, "speaker's view is unavailable", 3000),
		    "%s: not said why", speaker ? "speaker" : "presenter");
		if (t.exited)
			term_wait_exit(&t, 100);
		else
			term_quit(&t);
		term_free(&t);
	}
	unlink(p1);
	unlink(p2);
	rmdir(dir);
}

/* Another user's listener where a speaker would look for the presenter
 * (in the shared temporary folder: the old socket's name, and a folder of
 * the new name with a socket in it), saying hello from scene 13 and the
 * epoch: the speaker never follows it. */
static void
nobody_presents(const char *dir, int ready)
{
	char a[160], b[160], c[200];
	snprintf(a, sizeof a, "%s/pescope-0-intro.sock", dir);
	snprintf(b, sizeof b, "%s/pescope-0", dir);
	mkdir(b, 0777);
	chmod(b, 0777);
	snprintf(c, sizeof c, "%s/intro.sock", b);
	int fds[2] = {listen_at(a), listen_at(c)};
	chmod(a, 0777);
	chmod(c, 0777);
	if (write(ready, "r", 1) != 1)
		_exit(5);
	for (;;) {
		struct pollfd p[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
		if (poll(p, 2, -1) <= 0)
			continue;
		for (int k = 0; k < 2; k++)
			if (p[k].revents & POLLIN) {
				int peer = accept(fds[k], NULL, NULL);
				if (peer >= 0 && write(peer, "hello 0 12 0\n", 13) < 0)
					close(peer);
			}
	}
}

/* Start nobody_presents(dir) as user nobody; its pid (it dies with the
 * test). */
static pid_t
start_nobody(const char *dir)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(3);
		nobody_presents(dir, p[1]);
		_exit(0);
	}
	close(p[1]);
	char c;
	cr_assert_eq(read(p[0], &c, 1), 1, "the other user's listener");
	close(p[0]);
	return pid;
}

/* The other user's listener comes after the speaker started waiting (the
 * speaker looks on every try), or before it (then the speaker's view is
 * unavailable and says whose the folder is). */
Test(e2e, lesson_speaker_never_follows_another_users_socket)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to be another user");
	for (int before = 0; before < 2; before++) {
		char dir[] = "/tmp/pescope-link-XXXXXX", env[160];
		char line[COLS * 8 + 64];
		cr_assert_not_null(mkdtemp(dir));
		chmod(dir, 01777);
		snprintf(env, sizeof env, "TMPDIR=%s", dir);
		char state[160]; /* a place kept earlier is not this one's */
		snprintf(state, sizeof state, "XDG_STATE_HOME=%s", dir);
		const char *envs[] = {env, state, "XDG_RUNTIME_DIR", NULL};
		const char *args[] = {"lesson", "--speaker", NULL};
		pid_t pid = before ? start_nobody(dir) : 0;
		struct term t;
		term_start(&t, 30, COLS, args, envs);
		cr_assert(term_wait_for(&t, "1/18", WAIT_MS), "%.300s",
		    t.raw ? t.raw : "");
		if (!before)
			pid = start_nobody(dir);
		term_pump(&t, 2500); /* the speaker tries every 500 ms */
		cr_expect(strncmp(scene_line(&t, line, sizeof line), " 1/18", 5) ==
		    0, "the speaker followed another user: %s", line);
		cr_expect(!term_has(&t, "498919") && !term_has(&t, "linked to "
		    "the presenting"), "the speaker linked to another user's "
		    "socket");
		if (before)
			cr_expect(term_has(&t, "65534"), "not said whose the folder "
			    "is");
		term_quit(&t);
		term_free(&t);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		char sub[200];
		snprintf(sub, sizeof sub, "%s/pescope-0/intro.sock", dir);
		unlink(sub);
		snprintf(sub, sizeof sub, "%s/pescope-0", dir);
		rmdir(sub);
		snprintf(sub, sizeof sub, "%s/pescope-0-intro.sock", dir);
		unlink(sub);
		rmdir(dir);
	}
}

/* The presenter view in the TUI (P): no tab bar, no key hints; a click on
 * its 2-cell samples finds the element under it (d 16, n 16 at 120x40:
 * each dimension 4 cells wide from column 3, each position 2 lines from
 * line 2); P again brings the tabs back. */
Test(e2e, presenter_view_key_and_clicks)
{
	struct term t;
	size_t p, j;
	double v;
	const char *args[] = {"-d", "16", "-n", "16", NULL};

	start(&t, args, NULL);
	term_send(&t, "P");
	cr_assert(term_wait_gone(&t, "1 sinusoidal", WAIT_MS), "tabs gone");
	cr_expect(term_has(&t, "presenter view"), "the status line says so");
	term_mouse(&t, 0, 3 + 4 * 5 + 3, 2 + 2 * 7 + 1); /* last cell of dim 5 */
	cr_assert(term_wait_gone(&t, "PE[0,0]", WAIT_MS), "click moved the "
	    "cursor");
	cr_assert(inspector_pe(&t, &p, &j, &v));
	cr_expect(p == 7 && j == 5, "PE[%zu,%zu], not PE[7,5]", p, j);
	term_mouse(&t, 0, 3 + 4 * 6, 2 + 2 * 7); /* first cell of dim 6 */
	cr_assert(inspector_pe(&t, &p, &j, &v));
	cr_expect(p == 7 && j == 6, "PE[%zu,%zu], not PE[7,6]", p, j);
	cr_expect(th_close(v, pe_sinusoidal_value(7, 6, 16, 10000.0,
	    PE_LAYOUT_INTERLEAVED), 1e-8, 1e-6), "%.9g", v);
	/* no key hints: the bottom line is blank once the message is gone */
	char line[COLS * 8 + 64];
	term_line(&t, t.rows - 1, line, sizeof line);
	cr_expect(strstr(line, "? help") == NULL, "%s", line);
	term_send(&t, "P");
	cr_expect(term_wait_for(&t, "1 sinusoidal", WAIT_MS), "tabs back");
	term_quit(&t);
	term_free(&t);
}

/* Compare mode in the TUI: x starts it with B a copy and the keys on B, X
 * moves them to A, each pane's d_model changes alone, and `w` saves the
 * frame `pescope snapshot --compare` draws for the same settings. */
Test(e2e, compare_keys_and_snapshot)
{
	struct term t;
	char *dir = th_tmpdir();
	char env[4200];
	snprintf(env, sizeof env, "PESCOPE_SNAPSHOT_DIR=%s", dir);
	const char *envs[] = {env, NULL};

	start(&t, NULL, envs);
	term_send(&t, "x");
	cr_assert(term_wait_for(&t, "compare on", WAIT_MS));
	cr_expect(term_has(&t, "│ B  d_model 64"), "pane B, a copy");
	cr_expect(term_has(&t, "A − B"), "one shape: the difference strip");
	term_send(&t, "D");
	cr_assert(term_wait_for(&t, "│ B  d_model 128", WAIT_MS), "D changes B");
	cr_expect(term_has(&t, " A  d_model 64"), "A keeps its d_model");
	cr_expect(term_wait_for(&t, "no difference: A is 64×64", WAIT_MS));
	term_send(&t, "X");
	cr_assert(term_wait_for(&t, "keys change pane A", WAIT_MS));
	term_send(&t, "d");
	cr_assert(term_wait_for(&t, " A  d_model 32", WAIT_MS), "d changes A");
	cr_expect(term_has(&t, "│ B  d_model 128"));

	term_send(&t, "w");
	cr_assert(term_wait_for(&t, "saved", WAIT_MS));
	char *txt = find_file(dir, ".txt", NULL);
	cr_assert_not_null(txt);
	const char *cmd[] = {"pescope", "snapshot", "-d", "32", "--compare",
	    "-d 128", "--size", "120x40", "--format", "txt", NULL};
	char *out = NULL, *file;
	size_t len = 0, flen = 0;
	cr_assert_eq(th_run(cmd, NULL, &out, &len, NULL), 0);
	file = th_slurp(txt, &flen);
	cr_assert_not_null(file);
	cr_expect(flen == len && memcmp(file, out, len) == 0,
	    "the saved frame equals `pescope snapshot --compare` (%zu vs %zu "
	    "bytes)", flen, len);

	/* a click in pane B's map moves the keys there, and the cursor to
	 * the element under it (in both panes) */
	term_mouse(&t, 0, 70, 9);
	cr_expect(term_wait_for(&t, "X focus A", WAIT_MS), "the click focused "
	    "B");
	cr_expect(term_wait_gone(&t, "A PE[0,0]", WAIT_MS), "the cursor moved");
	char l1[COLS * 8 + 64];
	int yb = find_line(&t, "B PE[", l1, sizeof l1);
	int ya = find_line(&t, "A PE[", l1, sizeof l1);
	cr_expect(yb >= 0 && ya == yb + 1, "B's formula first (line %d, A's "
	    "%d): B has the keys", yb, ya);

	/* x again: one pane, A's settings */
	term_send(&t, "x");
	cr_assert(term_wait_for(&t, "compare off", WAIT_MS));
	cr_expect(term_wait_gone(&t, "│ B ", WAIT_MS));
	cr_expect(term_has(&t, "d_model 32"));
	term_quit(&t);
	term_free(&t);
	free(out);
	free(file);
	free(txt);
	free(dir);
}
