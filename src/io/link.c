/* The link between a presenting instance and a speaker's instance: a Unix
 * stream socket carrying lines of text. It lives in a folder of the user's
 * own (the runtime folder, or one made owner-only in the temporary
 * folder), looked at with lstat on every use; each side checks that the
 * other is the same user (SO_PEERCRED, socket(7)) before it reads a byte.
 * The presenter listens (owner-only permissions; a stale socket is
 * replaced); the speaker connects and keeps trying while nobody listens.
 * Every descriptor is non-blocking, so a frame never waits on the other
 * instance. A message's every field is bounded before it is used. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "io/io.h"

/* Fill a socket address for path; false when the path is too long. */
static bool
addr_of(const char *path, struct sockaddr_un *a)
{
	memset(a, 0, sizeof *a);
	a->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof a->sun_path)
		return false;
	memcpy(a->sun_path, path, strlen(path) + 1);
	return true;
}

/* A non-blocking, close-on-exec stream socket, or -1. */
static int
new_socket(void)
{
	return socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

/* Whether the folder dir is the user's own: a folder (not a symbolic
 * link) owned by the effective user that no one else may write in (mode &
 * 022; alone: nor enter, mode & 077). Else false, why says. */
static bool
folder_own(const char *dir, bool alone, char *why, size_t cap)
{
	struct stat sb;
	if (lstat(dir, &sb) != 0) {
		snprintf(why, cap, "the folder %s: %s", dir, strerror(errno));
		return false;
	}
	if (S_ISLNK(sb.st_mode)) {
		snprintf(why, cap, "the folder %s is a symbolic link", dir);
		return false;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(why, cap, "%s is not a folder", dir);
		return false;
	}
	if (sb.st_uid != geteuid()) {
		snprintf(why, cap, "the folder %s belongs to uid %u, not to you "
		    "(uid %u)", dir, (unsigned)sb.st_uid, (unsigned)geteuid());
		return false;
	}
	if (sb.st_mode & (alone ? 077 : 022)) {
		snprintf(why, cap, "the folder %s is open to others (mode %o; "
		    "a link's folder must be yours alone)", dir,
		    (unsigned)(sb.st_mode & 07777));
		return false;
	}
	return true;
}

/* The folder of path (".", "/" or what comes before its last '/') into
 * dir[cap]. */
static void
folder_of(const char *path, char *dir, size_t cap)
{
	const char *slash = strrchr(path, '/');
	if (slash == NULL)
		snprintf(dir, cap, ".");
	else if (slash == path)
		snprintf(dir, cap, "/");
	else
		snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* Whether the link's folder and what is at its path may be used: the
 * folder is the user's own, and the path holds nothing or a socket of the
 * user's. Else false with l->why; *exists: a socket is there. */
static bool
path_own(struct pe_link *l, bool *exists)
{
	char dir[sizeof l->path];
	struct stat sb;
	*exists = false;
	folder_of(l->path, dir, sizeof dir);
	if (!folder_own(dir, false, l->why, sizeof l->why))
		return false;
	if (lstat(l->path, &sb) != 0)
		return true;
	if (!S_ISSOCK(sb.st_mode)) {
		snprintf(l->why, sizeof l->why, "%s exists and is not a socket",
		    l->path);
		return false;
	}
	if (sb.st_uid != geteuid()) {
		snprintf(l->why, sizeof l->why, "the socket %s belongs to uid %u, "
		    "not to you", l->path, (unsigned)sb.st_uid);
		return false;
	}
	*exists = true;
	return true;
}

/* The user id at the other end of a connected socket, or -1. */
static long
peer_uid(int fd)
{
	struct ucred cr;
	socklen_t len = sizeof cr;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 ||
	    len != sizeof cr)
		return -1;
	return (long)cr.uid;
}

/* See io.h. */
int
pe_link_default(char *path, size_t cap, const char *lesson, char *why,
    size_t wcap)
{
	const char *slash = strrchr(lesson, '/');
	const char *base = slash != NULL ? slash + 1 : lesson;
	char name[48], dir[4096];
	size_t o = 0;
	for (; *base != '\0' && *base != '.' && o + 1 < sizeof name; base++)
		name[o++] = isascii((unsigned char)*base) &&
		    (isalnum((unsigned char)*base) || *base == '-') ? *base : '_';
	name[o] = '\0';
	const char *run = getenv("XDG_RUNTIME_DIR");
	char ignored[240];
	if (run != NULL && run[0] == '/' &&
	    folder_own(run, true, ignored, sizeof ignored)) {
		if ((size_t)snprintf(path, cap, "%s/pescope-%s.sock", run, name) >=
		    cap || strlen(path) >= sizeof ((struct pe_link *)0)->path)
			goto long_path;
		return PE_OK;
	}
	const char *tmp = getenv("TMPDIR");
	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	snprintf(dir, sizeof dir, "%s/pescope-%u", tmp, (unsigned)geteuid());
	if ((size_t)snprintf(path, cap, "%s/%s.sock", dir, name) >= cap ||
	    strlen(path) >= sizeof ((struct pe_link *)0)->path)
		goto long_path;
	/* made owner-only; one that is there already must be ours alone */
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(why, wcap, "cannot make the folder %s: %s", dir,
		    strerror(errno));
		return PE_EINVAL;
	}
	if (!folder_own(dir, true, why, wcap))
		return PE_EINVAL;
	return PE_OK;
long_path:
	snprintf(why, wcap, "the socket's path %s has more than %zu bytes",
	    path, sizeof ((struct pe_link *)0)->path - 1);
	return PE_EINVAL;
}

/* See io.h. */
int
pe_link_check(const char *path, char *err, size_t cap)
{
	struct sockaddr_un a;
	if (!addr_of(path, &a)) {
		snprintf(err, cap, "--link '%s': a socket path has at most %zu "
		    "bytes", path, sizeof a.sun_path - 1);
		return PE_EINVAL;
	}
	return PE_OK;
}

/* See io.h. */
void
pe_link_init(struct pe_link *l, const char *path)
{
	memset(l, 0, sizeof *l);
	l->listen_fd = l->fd = -1;
	snprintf(l->path, sizeof l->path, "%s", path);
}

/* See io.h. */
int
pe_link_listen(struct pe_link *l)
{
	struct sockaddr_un a;
	bool exists;
	if (!addr_of(l->path, &a))
		return PE_EINVAL;
	if (!path_own(l, &exists))
		return PE_LINK_UNSAFE;
	if (exists) {
		/* a socket of ours: live (another presenter) or stale */
		int probe = new_socket();
		if (probe < 0)
			return PE_EIO;
		if (connect(probe, (struct sockaddr *)&a, sizeof a) == 0 ||
		    errno == EAGAIN || errno == EINPROGRESS) {
			close(probe);
			return PE_LINK_BUSY;
		}
		close(probe);
		unlink(l->path); /* stale: nobody listens (ECONNREFUSED) */
	}
	int fd = new_socket();
	if (fd < 0)
		return PE_EIO;
	mode_t old = umask(077); /* owner-only from the start */
	int rc = bind(fd, (struct sockaddr *)&a, sizeof a);
	umask(old);
	if (rc != 0 || chmod(l->path, 0600) != 0 || listen(fd, 4) != 0) {
		int e = errno;
		if (rc == 0)
			unlink(l->path);
		close(fd);
		errno = e;
		return PE_EIO;
	}
	l->listen_fd = fd;
	l->server = true;
	return PE_OK;
}

/* See io.h. */
int
pe_link_connect(struct pe_link *l)
{
	struct sockaddr_un a;
	bool exists;
	if (l->fd >= 0)
		return PE_OK;
	if (!addr_of(l->path, &a))
		return PE_EINVAL;
	if (!path_own(l, &exists))
		return PE_LINK_UNSAFE;
	if (!exists)
		return PE_LINK_WAIT;
	int fd = new_socket();
	if (fd < 0)
		return PE_EIO;
	/* a Unix socket connects at once or not at all (EAGAIN: the
	 * listener's queue is full; try again) */
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return PE_LINK_WAIT;
	}
	long uid = peer_uid(fd);
	if (uid != (long)geteuid()) {
		close(fd);
		snprintf(l->why, sizeof l->why, "the socket %s is served by uid "
		    "%ld, not by you", l->path, uid);
		return PE_LINK_UNSAFE;
	}
	l->fd = fd;
	l->have = 0;
	l->skip = false;
	return PE_OK;
}

/* Drop the peer. */
static void
drop(struct pe_link *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	l->have = 0;
	l->skip = false;
}

/* See io.h. */
int
pe_link_poll(struct pe_link *l, char *line, size_t cap)
{
	if (l->server && l->listen_fd >= 0) {
		int fd = accept4(l->listen_fd, NULL, NULL,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0) {
			long uid = peer_uid(fd);
			if (uid != (long)geteuid()) { /* never read */
				close(fd);
				snprintf(l->why, sizeof l->why, "refused a speaker's "
				    "view of uid %ld", uid);
				return PE_LINK_REFUSED;
			}
			drop(l); /* a new speaker replaces the old */
			l->fd = fd;
			return PE_LINK_JOINED;
		}
	}
	if (l->fd < 0)
		return PE_LINK_NONE;
	for (;;) {
		char *nl = memchr(l->buf, '\n', l->have);
		if (nl != NULL) {
			size_t n = (size_t)(nl - l->buf);
			bool skipped = l->skip;
			if (!skipped)
				snprintf(line, cap, "%.*s", (int)n, l->buf);
			memmove(l->buf, nl + 1, l->have - n - 1);
			l->have -= n + 1;
			l->skip = false;
			if (skipped)
				continue; /* the end of a line too long */
			return PE_LINK_LINE;
		}
		if (l->have == sizeof l->buf) { /* a line too long: not ours */
			l->have = 0;
			l->skip = true;
		}
		ssize_t r = read(l->fd, l->buf + l->have, sizeof l->buf - l->have);
		if (r > 0) {
			l->have += (size_t)r;
			continue;
		}
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return PE_LINK_NONE;
		drop(l); /* end of file, or the peer is gone */
		return PE_LINK_LEFT;
	}
}

/* See io.h. */
int
pe_link_send(struct pe_link *l, const char *line)
{
	char b[256];
	if (l->fd < 0)
		return PE_LINK_WAIT;
	int n = snprintf(b, sizeof b, "%s\n", line);
	if (n < 0 || (size_t)n >= sizeof b)
		return PE_EINVAL;
	ssize_t w = send(l->fd, b, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (w == n)
		return PE_OK;
	if (w < 0 && (errno == EAGAIN || errno == EINTR))
		return PE_LINK_WAIT; /* the peer is slow: it catches up next time */
	drop(l);
	return PE_EIO;
}

/* See io.h. */
bool
pe_link_connected(const struct pe_link *l)
{
	return l->fd >= 0;
}

/* See io.h. */
void
pe_link_close(struct pe_link *l)
{
	drop(l);
	if (l->listen_fd >= 0) {
		close(l->listen_fd);
		unlink(l->path);
	}
	l->listen_fd = -1;
}

/* A number of 1 to 19 plain decimal digits at *s, at most max: its value
 * and *s past it; false otherwise. */
static bool
msg_number(const char **s, unsigned long long max, unsigned long long *v)
{
	const char *p = *s;
	unsigned long long x = 0;
	int n = 0;
	for (; *p >= '0' && *p <= '9'; p++, n++) {
		if (n == 19)
			return false;
		x = x * 10 + (unsigned long long)(*p - '0');
	}
	if (n == 0 || x > max)
		return false;
	*v = x;
	*s = p;
	return true;
}

/* See io.h. */
int
pe_link_parse(const char *line, long long now, size_t nscenes,
    size_t (*steps)(const void *arg, size_t scene), const void *arg,
    struct pe_link_msg *m, char *why, size_t cap)
{
	const char *p = line;
	unsigned long long v[3];
	int want;
	memset(m, 0, sizeof *m);
	static const struct {
		const char *word, *form;
		int kind, fields;
	} kinds[] = {
		{"hello ", "hello T0 SCENE STEP", PE_LINK_HELLO, 3},
		{"goto ", "goto SCENE STEP", PE_LINK_GOTO, 2},
		{"here ", "here SCENE STEP", PE_LINK_HERE, 2},
		{"blank ", "blank 0|1", PE_LINK_BLANK, 1},
	};
	const char *name = NULL, *form = NULL;
	want = 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strncmp(p, kinds[i].word, strlen(kinds[i].word)) == 0) {
			m->kind = kinds[i].kind;
			want = kinds[i].fields;
			name = kinds[i].word;
			form = kinds[i].form;
			p += strlen(kinds[i].word);
			break;
		}
	if (want == 0) {
		snprintf(why, cap, "a line that is no message (hello, goto, here "
		    "or blank)");
		return PE_EFORMAT;
	}
	int nl = (int)strlen(name) - 1; /* the word without its space */
	for (int i = 0; i < want; i++) {
		if ((i > 0 && *p++ != ' ') ||
		    !msg_number(&p, 9223372036854775807ULL, &v[i])) {
			snprintf(why, cap, "a %.*s message whose field %d is not a "
			    "plain number (%s)", nl, name, i + 1, form);
			return PE_EFORMAT;
		}
	}
	if (*p != '\0') {
		snprintf(why, cap, "a %.*s message with more than %d field%s", nl,
		    name, want, want == 1 ? "" : "s");
		return PE_EFORMAT;
	}
	if (m->kind == PE_LINK_BLANK) {
		if (v[0] > 1) {
			snprintf(why, cap, "a blank message of %llu (0 or 1)", v[0]);
			return PE_EFORMAT;
		}
		m->blank = v[0] == 1;
		return PE_OK;
	}
	if (want == 3) {
		long long t0 = (long long)v[0];
		if (t0 < now - PE_LINK_DAY || t0 > now + PE_LINK_DAY) {
			snprintf(why, cap, "a start time %lld s from now, not "
			    "within a day", t0 - now);
			return PE_EFORMAT;
		}
		m->t0 = t0;
	}
	unsigned long long k = v[want - 2], s = v[want - 1];
	if (k >= nscenes) {
		snprintf(why, cap, "scene %llu is not in the lesson (1..%zu)",
		    k + 1, nscenes);
		return PE_EFORMAT;
	}
	size_t ns = steps(arg, (size_t)k);
	if (s >= ns) {
		snprintf(why, cap, "step %llu is not in scene %llu (1..%zu)",
		    s + 1, k + 1, ns);
		return PE_EFORMAT;
	}
	m->scene = (size_t)k;
	m->step = (size_t)s;
	return PE_OK;
}
