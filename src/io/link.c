/* The link between a presenting instance and a speaker's instance: a Unix
 * stream socket carrying lines of text. The presenter listens (owner-only
 * permissions; a stale socket is replaced); the speaker connects and keeps
 * trying while nobody listens. Every descriptor is non-blocking, so a
 * frame never waits on the other instance. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

/* See io.h. */
int
pe_link_check(const char *path, char *err, size_t cap)
{
	struct sockaddr_un a;
	struct stat sb;
	if (!addr_of(path, &a)) {
		snprintf(err, cap, "--link '%s': a socket path has at most %zu "
		    "bytes", path, sizeof a.sun_path - 1);
		return PE_EINVAL;
	}
	if (lstat(path, &sb) == 0 && !S_ISSOCK(sb.st_mode)) {
		snprintf(err, cap, "--link '%s': exists and is not a socket", path);
		return PE_EINVAL;
	}
	if (lstat(path, &sb) == 0 && sb.st_uid != geteuid()) {
		snprintf(err, cap, "--link '%s': the socket belongs to another user",
		    path);
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
	if (!addr_of(l->path, &a))
		return PE_EINVAL;
	/* a socket that is there: live (another presenter) or stale */
	int probe = new_socket();
	if (probe < 0)
		return PE_EIO;
	if (connect(probe, (struct sockaddr *)&a, sizeof a) == 0 ||
	    errno == EAGAIN || errno == EINPROGRESS) {
		close(probe);
		return PE_LINK_BUSY;
	}
	close(probe);
	unlink(l->path); /* stale: nobody listens (ECONNREFUSED, ENOENT) */
	int fd = new_socket();
	if (fd < 0)
		return PE_EIO;
	mode_t old = umask(077); /* owner-only from the start */
	int rc = bind(fd, (struct sockaddr *)&a, sizeof a);
	umask(old);
	if (rc != 0 || chmod(l->path, 0600) != 0 || listen(fd, 4) != 0) {
		close(fd);
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
	if (l->fd >= 0)
		return PE_OK;
	if (!addr_of(l->path, &a))
		return PE_EINVAL;
	int fd = new_socket();
	if (fd < 0)
		return PE_EIO;
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 &&
	    errno != EINPROGRESS && errno != EAGAIN) {
		close(fd);
		return PE_LINK_WAIT;
	}
	l->fd = fd;
	l->have = 0;
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
}

/* See io.h. */
int
pe_link_poll(struct pe_link *l, char *line, size_t cap)
{
	int ev = PE_LINK_NONE;
	if (l->server && l->listen_fd >= 0) {
		int fd = accept4(l->listen_fd, NULL, NULL,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd >= 0) { /* a new speaker replaces the old */
			drop(l);
			l->fd = fd;
			return PE_LINK_JOINED;
		}
	}
	if (l->fd < 0)
		return ev;
	for (;;) {
		char *nl = memchr(l->buf, '\n', l->have);
		if (nl != NULL) {
			size_t n = (size_t)(nl - l->buf);
			snprintf(line, cap, "%.*s", (int)n, l->buf);
			memmove(l->buf, nl + 1, l->have - n - 1);
			l->have -= n + 1;
			return PE_LINK_LINE;
		}
		if (l->have == sizeof l->buf) /* a line too long: not ours */
			l->have = 0;
		ssize_t r = read(l->fd, l->buf + l->have, sizeof l->buf - l->have);
		if (r > 0) {
			l->have += (size_t)r;
			continue;
		}
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return ev;
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
