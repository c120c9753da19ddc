/* The link of a presenting and a speaker's instance (io/link.c): owner-only
 * socket, stale sockets replaced, a live one not taken over, lines both
 * ways, a peer leaving and coming back, a path that is no socket. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
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
	/* the path can be a link's; what is there is looked at on use */
	cr_expect_eq(pe_link_check(path, err, sizeof err), PE_OK);
	struct pe_link l;
	pe_link_init(&l, path);
	cr_expect_eq(pe_link_listen(&l), PE_LINK_UNSAFE);
	cr_expect(strstr(l.why, "is not a socket") != NULL, "%s", l.why);
	cr_expect_eq(pe_link_connect(&l), PE_LINK_UNSAFE);
	cr_expect(strstr(l.why, "is not a socket") != NULL, "%s", l.why);
	pe_link_close(&l);
	cr_expect_eq(access(path, F_OK), 0, "the file was removed");
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

/* ---- trust: whose folder, whose socket, whose peer, what it says ----- */

/* Run fn(arg) in a child as user nobody (65534); the child's pid. The
 * parent must be root: the caller skips otherwise. ready: the child
 * writes a byte to it once fn has set up. */
static pid_t
as_nobody(void (*fn)(const char *arg, int ready), const char *arg, int *ready)
{
	int p[2];
	cr_assert_eq(pipe(p), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (setgid(65534) != 0 || setuid(65534) != 0)
			_exit(3);
		fn(arg, p[1]);
		for (;;)
			pause();
	}
	close(p[1]);
	char c;
	cr_assert_eq(read(p[0], &c, 1), 1, "the other user's process did not "
	    "set up");
	*ready = p[0];
	return pid;
}

/* Listen on the path given (in a folder nobody may write). */
static void
nobody_listens(const char *path, int ready)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 4) != 0)
		_exit(4);
	chmod(path, 0666);
	write(ready, "r", 1);
}

/* Connect to the path given and send a line. */
static void
nobody_connects(const char *path, int ready)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		_exit(4);
	write(fd, "goto 1 0\n", 9);
	write(ready, "r", 1);
}

/* End a child of as_nobody. */
static void
end_child(pid_t pid, int ready)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(ready);
}

/* Without XDG_RUNTIME_DIR the socket is in a folder of the user's own in
 * the temporary folder, made owner-only; a folder there that is not the
 * user's own (another user's, open to others, a symbolic link) is refused
 * with the reason, never used. A runtime folder that is not owner-only is
 * not used either. */
Test(link, the_default_path_is_in_a_folder_of_ones_own)
{
	char *tmp = th_tmpdir(), path[256], want[600], why[256], dir[256];
	struct stat sb;
	setenv("TMPDIR", tmp, 1);
	unsetenv("XDG_RUNTIME_DIR");
	snprintf(dir, sizeof dir, "%s/pescope-%u", tmp, (unsigned)geteuid());
	snprintf(want, sizeof want, "%s/intro.sock", dir);
	cr_assert_eq(pe_link_default(path, sizeof path, "intro", why,
	    sizeof why), PE_OK, "%s", why);
	cr_expect_str_eq(path, want);
	cr_assert_eq(lstat(dir, &sb), 0, "the folder was not made");
	cr_expect(S_ISDIR(sb.st_mode) && (sb.st_mode & 0777) == 0700 &&
	    sb.st_uid == geteuid(), "mode %o uid %u", sb.st_mode & 0777,
	    (unsigned)sb.st_uid);
	cr_expect_eq(pe_link_default(path, sizeof path, "intro", why,
	    sizeof why), PE_OK, "a second time: %s", why);

	chmod(dir, 0755);
	cr_expect_neq(pe_link_default(path, sizeof path, "intro", why,
	    sizeof why), PE_OK, "a folder others may enter is used");
	cr_expect(strstr(why, dir) != NULL && strstr(why, "755") != NULL, "%s",
	    why);
	chmod(dir, 0700);
	if (geteuid() == 0) {
		cr_assert_eq(chown(dir, 65534, 65534), 0);
		cr_expect_neq(pe_link_default(path, sizeof path, "intro", why,
		    sizeof why), PE_OK, "another user's folder is used");
		cr_expect(strstr(why, "65534") != NULL, "%s", why);
		chown(dir, 0, 0);
	}
	rmdir(dir);
	char real[256];
	snprintf(real, sizeof real, "%s/real", tmp);
	cr_assert_eq(mkdir(real, 0700), 0);
	cr_assert_eq(symlink(real, dir), 0);
	cr_expect_neq(pe_link_default(path, sizeof path, "intro", why,
	    sizeof why), PE_OK, "a symbolic link is followed");
	cr_expect(strstr(why, "symbolic link") != NULL, "%s", why);
	unlink(dir);

	/* the runtime folder, when it is owner-only */
	setenv("XDG_RUNTIME_DIR", real, 1);
	snprintf(want, sizeof want, "%s/pescope-intro.sock", real);
	cr_assert_eq(pe_link_default(path, sizeof path, "intro", why,
	    sizeof why), PE_OK, "%s", why);
	cr_expect_str_eq(path, want);
	chmod(real, 0777);
	snprintf(want, sizeof want, "%s/intro.sock", dir);
	cr_assert_eq(pe_link_default(path, sizeof path, "intro", why,
	    sizeof why), PE_OK, "%s", why);
	cr_expect_str_eq(path, want, "a runtime folder open to all is used");
	unsetenv("XDG_RUNTIME_DIR");
	rmdir(dir);
	rmdir(real);
	rmdir(tmp);
	free(tmp);
}

/* The folder is looked at (lstat: owner, mode) on every use, not once:
 * a speaker that waits refuses to connect once the folder is open to
 * others, and links again when it is the user's own. */
Test(link, every_use_checks_the_folder)
{
	char *dir = th_tmpdir(), path[256], line[512];
	struct pe_link p, s;
	snprintf(path, sizeof path, "%s/l.sock", dir);
	pe_link_init(&p, path);
	pe_link_init(&s, path);
	cr_assert_eq(pe_link_listen(&p), PE_OK, "%s", p.why);
	chmod(dir, 0777);
	cr_expect_eq(pe_link_connect(&s), PE_LINK_UNSAFE);
	cr_expect(strstr(s.why, "777") != NULL, "%s", s.why);
	cr_expect(!pe_link_connected(&s));
	chmod(dir, 0700);
	cr_expect_eq(pe_link_connect(&s), PE_OK, "%s", s.why);
	cr_expect_eq(wait_event(&p, line, sizeof line), PE_LINK_JOINED);
	pe_link_close(&s);
	pe_link_close(&p);
	rmdir(dir);
	free(dir);
}

/* A listening socket of another user at the path (moved there and given
 * our name, so that only its peer's credentials tell): the speaker does
 * not connect, and says whose it is; a socket that belongs to another
 * user is refused by its owner already. */
Test(link, a_speaker_refuses_another_users_listener)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to be another user");
	char *dir = th_tmpdir(), *open_dir = th_tmpdir(), path[256], theirs[256];
	chmod(open_dir, 0777);
	snprintf(theirs, sizeof theirs, "%s/s.sock", open_dir);
	snprintf(path, sizeof path, "%s/l.sock", dir);
	int ready;
	pid_t pid = as_nobody(nobody_listens, theirs, &ready);
	cr_assert_eq(rename(theirs, path), 0);
	struct pe_link s;
	pe_link_init(&s, path);
	cr_expect_eq(pe_link_connect(&s), PE_LINK_UNSAFE, "it was owned by "
	    "65534: %s", s.why);
	cr_assert_eq(chown(path, geteuid(), getegid()), 0);
	cr_expect_eq(pe_link_connect(&s), PE_LINK_UNSAFE, "its listener is "
	    "uid 65534");
	cr_expect(strstr(s.why, "65534") != NULL, "%s", s.why);
	cr_expect(!pe_link_connected(&s));
	pe_link_close(&s);
	end_child(pid, ready);
	unlink(path);
	rmdir(dir);
	rmdir(open_dir);
	free(dir);
	free(open_dir);
}

/* A speaker of another user that reaches the presenter's socket (the
 * folder and socket opened to it here) is refused before anything it
 * sends is read, and the presenter says so. */
Test(link, a_presenter_refuses_another_users_speaker)
{
	if (geteuid() != 0)
		cr_skip_test("needs root to be another user");
	char *dir = th_tmpdir(), path[256], line[512];
	snprintf(path, sizeof path, "%s/l.sock", dir);
	struct pe_link p;
	pe_link_init(&p, path);
	cr_assert_eq(pe_link_listen(&p), PE_OK, "%s", p.why);
	chmod(dir, 0711);
	chmod(path, 0666);
	int ready;
	pid_t pid = as_nobody(nobody_connects, path, &ready);
	int ev = wait_event(&p, line, sizeof line);
	cr_expect_eq(ev, PE_LINK_REFUSED, "event %d", ev);
	cr_expect(strstr(p.why, "65534") != NULL, "%s", p.why);
	cr_expect(!pe_link_connected(&p));
	cr_expect_eq(pe_link_poll(&p, line, sizeof line), PE_LINK_NONE,
	    "a line of the refused peer was read: %s", line);
	end_child(pid, ready);
	chmod(dir, 0700);
	pe_link_close(&p);
	rmdir(dir);
	free(dir);
}

/* A line longer than the link's buffer is dropped whole: its tail is not
 * taken for a line of its own. */
Test(link, a_line_too_long_is_dropped_whole)
{
	char *dir = th_tmpdir(), path[256], line[512];
	struct pe_link p, s;
	snprintf(path, sizeof path, "%s/l.sock", dir);
	pe_link_init(&p, path);
	pe_link_init(&s, path);
	cr_assert_eq(pe_link_listen(&p), PE_OK);
	cr_assert_eq(pe_link_connect(&s), PE_OK);
	cr_assert_eq(wait_event(&p, line, sizeof line), PE_LINK_JOINED);
	char big[700];
	memset(big, 'x', sizeof big);
	memcpy(big + 600, "goto 3 1", 8);
	cr_assert_eq(write(s.fd, big, sizeof big), (ssize_t)sizeof big);
	cr_assert_eq(write(s.fd, "\ngoto 4 0\n", 10), 10);
	cr_assert_eq(wait_event(&p, line, sizeof line), PE_LINK_LINE);
	cr_expect_str_eq(line, "goto 4 0");
	pe_link_close(&s);
	pe_link_close(&p);
	rmdir(dir);
	free(dir);
}

/* Steps of scene k of a 17-scene lesson whose scene 3 has 2 steps. */
static size_t
steps_of(const void *arg, size_t k)
{
	(void)arg;
	return k == 3 ? 2 : 1;
}

/* Every field of a message is bounded: numbers are plain decimal digits
 * (no sign, no spaces, no junk), scene and step are the lesson's, a start
 * time is within a day of now. */
Test(link, every_field_of_a_message_is_bounded)
{
	const long long now = 1750000000;
	char why[256], line[128];
	struct pe_link_msg m;
	snprintf(line, sizeof line, "hello %lld 3 1", now - 3600);
	cr_assert_eq(pe_link_parse(line, now, 17, steps_of, NULL, &m, why,
	    sizeof why), PE_OK, "%s", why);
	cr_expect(m.kind == PE_LINK_HELLO && m.t0 == now - 3600 &&
	    m.scene == 3 && m.step == 1);
	cr_assert_eq(pe_link_parse("goto 16 0", now, 17, steps_of, NULL, &m,
	    why, sizeof why), PE_OK, "%s", why);
	cr_expect(m.kind == PE_LINK_GOTO && m.scene == 16 && m.step == 0);
	cr_assert_eq(pe_link_parse("here 3 1", now, 17, steps_of, NULL, &m,
	    why, sizeof why), PE_OK, "%s", why);
	cr_expect(m.kind == PE_LINK_HERE && m.scene == 3 && m.step == 1);
	cr_assert_eq(pe_link_parse("blank 1", now, 17, steps_of, NULL, &m,
	    why, sizeof why), PE_OK, "%s", why);
	cr_expect(m.kind == PE_LINK_BLANK && m.blank);
	cr_assert_eq(pe_link_parse("blank 0", now, 17, steps_of, NULL, &m,
	    why, sizeof why), PE_OK, "%s", why);
	cr_expect(m.kind == PE_LINK_BLANK && !m.blank);
	static const char *const bad[] = {
		"here 17 0", "here 3 2", "here 3", "blank 2", "blank", "blank 1 0",
		"blank -1", "blank 01x",
		"hello -9223372036854775808 3 0", "hello 0 3 0",
		"hello 1750200000 3 0", "hello 99999999999999999999999 3 0",
		"goto 17 0", "goto 3 2", "goto 2 1", "goto -1 0", "goto +3 0",
		"goto 3 0 ", " goto 3 0", "goto  3 0", "goto 3 0x", "goto 3",
		"goto 3 0 1", "goto 99999999999999999999 0", "goto 0x3 0",
		"hello 1749999000 3", "", "goto", "GOTO 3 0", "goto 3\t0",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		why[0] = '\0';
		cr_expect_neq(pe_link_parse(bad[i], now, 17, steps_of, NULL, &m,
		    why, sizeof why), PE_OK, "'%s' was taken", bad[i]);
		cr_expect_neq(why[0], '\0', "'%s': no reason given", bad[i]);
	}
	pe_link_parse("goto 17 0", now, 17, steps_of, NULL, &m, why, sizeof why);
	cr_expect(strstr(why, "1..17") != NULL, "%s", why);
	pe_link_parse("hello 0 1 0", now, 17, steps_of, NULL, &m, why,
	    sizeof why);
	cr_expect(strstr(why, "day") != NULL, "%s", why);
}
