/* The link of a presenting and a speaker's instance (io/link.c): owner-only
 * socket, stale sockets replaced, a live one not taken over, lines both
 * ways, a peer leaving and coming back, a path that is no socket. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "helpers.h"
#include "io/io.h"

/* Poll l until it reports an event other than NONE (at most ~1 s). */
static int
wait_event(struct pe_link *l, char *line, size_t cap)
{
	for (int i = 0; i < 200; i++) {
		int ev = pe_link_poll(l, line, cap);
		if (ev != PE_LINK_NONE)
			return ev;
		usleep(5000);
	}
	return PE_LINK_NONE;
}

Test(link, presenter_and_speaker_talk)
{
	char *dir = th_tmpdir(), path[256], line[512];
	struct pe_link p, s;
	struct stat sb;
	snprintf(path, sizeof path, "%s/l.sock", dir);
	cr_assert_eq(pe_link_check(path, line, sizeof line), PE_OK, "%s", line);
	pe_link_init(&p, path);
	pe_link_init(&s, path);
	cr_assert_eq(pe_link_connect(&s), PE_LINK_WAIT, "nobody listens yet");
	cr_assert_eq(pe_link_listen(&p), PE_OK);
	cr_assert_eq(stat(path, &sb), 0);
	cr_expect(S_ISSOCK(sb.st_mode));
	cr_expect_eq(sb.st_mode & 0777, 0600, "owner-only: %o", sb.st_mode & 0777);
	cr_assert_eq(pe_link_connect(&s), PE_OK);
	cr_assert_eq(wait_event(&p, line, sizeof line), PE_LINK_JOINED);
	cr_assert_eq(pe_link_send(&p, "hello 1 2 0"), PE_OK);
	cr_assert_eq(wait_event(&s, line, sizeof line), PE_LINK_LINE);
	cr_expect_str_eq(line, "hello 1 2 0");
	cr_assert_eq(pe_link_send(&s, "goto 3 1"), PE_OK);
	cr_assert_eq(pe_link_send(&s, "goto 4 0"), PE_OK);
	cr_assert_eq(wait_event(&p, line, sizeof line), PE_LINK_LINE);
	cr_expect_str_eq(line, "goto 3 1");
	cr_assert_eq(wait_event(&p, line, sizeof line), PE_LINK_LINE);
	cr_expect_str_eq(line, "goto 4 0");
	/* the speaker quits: the presenter hears it and keeps listening */
	pe_link_close(&s);
	cr_assert_eq(wait_event(&p, line, sizeof line), PE_LINK_LEFT);
	cr_expect(!pe_link_connected(&p));
	cr_expect_eq(pe_link_send(&p, "goto 5 0"), PE_LINK_WAIT);
	pe_link_init(&s, path);
	cr_assert_eq(pe_link_connect(&s), PE_OK);
	cr_assert_eq(wait_event(&p, line, sizeof line), PE_LINK_JOINED);
	/* the presenter quits: the speaker hears it; the socket is gone */
	pe_link_close(&p);
	cr_assert_eq(wait_event(&s, line, sizeof line), PE_LINK_LEFT);
	cr_expect_neq(stat(path, &sb), 0, "the presenter removes its socket");
	cr_expect_eq(pe_link_connect(&s), PE_LINK_WAIT);
	pe_link_close(&s);
	rmdir(dir);
	free(dir);
}

Test(link, stale_socket_replaced_live_one_kept)
{
	char *dir = th_tmpdir(), path[256], line[512];
	struct pe_link a, b;
	snprintf(path, sizeof path, "%s/l.sock", dir);
	/* a socket nobody listens on (a crashed presenter's) */
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	cr_assert_lt(strlen(path), sizeof sa.sun_path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	close(fd);
	pe_link_init(&a, path);
	cr_assert_eq(pe_link_listen(&a), PE_OK, "a stale socket is replaced");
	pe_link_init(&b, path);
	cr_expect_eq(pe_link_listen(&b), PE_LINK_BUSY, "a live one is not");
	pe_link_close(&b);
	cr_expect_eq(pe_link_check(path, line, sizeof line), PE_OK);
	pe_link_close(&a);
	rmdir(dir);
	free(dir);
}

Test(link, a_path_that_is_no_socket_is_refused)
{
	char *dir = th_tmpdir(), path[256], err[512];
	snprintf(path, sizeof path, "%s/file", dir);
	FILE *fp = fopen(path, "w");
	fputs("x", fp);
	fclose(fp);
	cr_expect_eq(pe_link_check(path, err, sizeof err), PE_EINVAL);
	cr_expect(strstr(err, "is not a socket") != NULL, "%s", err);
	char longp[300];
	memset(longp, 'a', sizeof longp - 1);
	longp[0] = '/';
	longp[sizeof longp - 1] = '\0';
	cr_expect_eq(pe_link_check(longp, err, sizeof err), PE_EINVAL);
	cr_expect(strstr(err, "at most") != NULL, "%s", err);
	unlink(path);
	rmdir(dir);
	free(dir);
}
