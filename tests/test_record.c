/* --record touches no file before it knows there is a terminal to record:
 * an old recording, a symbolic link and its target, and a device at the
 * path are as they were after a run with no terminal (the TUI and
 * `pescope lesson`), and nothing is left beside them. The binary is run
 * with standard input from /dev/null. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "helpers.h"

/* path = dir/name in buf[cap]. */
static char *
join(char *buf, size_t cap, const char *dir, const char *name)
{
	snprintf(buf, cap, "%s/%s", dir, name);
	return buf;
}

/* Write text to path. */
static void
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	cr_assert_not_null(fp, "%s", path);
	fputs(text, fp);
	fclose(fp);
}

/* Run pescope [lesson] --record path with no terminal: exit 2, said. */
static void
record_without_terminal(const char *path, bool lesson)
{
	const char *tui[] = {"pescope", "--record", path, NULL};
	const char *les[] = {"pescope", "lesson", "--record", path, NULL};
	char *out, *err;
	int rc = th_run(lesson ? les : tui, NULL, &out, NULL, &err);
	cr_expect_eq(rc, 2, "%s: exit %d: %s", lesson ? "lesson" : "TUI", rc,
	    err);
	cr_expect(strstr(err, "not a terminal") != NULL, "%s", err);
	free(out);
	free(err);
}

Test(record, an_old_recording_is_kept_when_there_is_no_terminal)
{
	char *dir = th_tmpdir(), path[512];
	join(path, sizeof path, dir, "lecture.cast");
	for (int lesson = 0; lesson < 2; lesson++) {
		put(path, "old recording\n");
		record_without_terminal(path, lesson);
		char *s = th_slurp(path, NULL);
		cr_expect_not_null(s, "%s: the old recording was removed",
		    lesson ? "lesson" : "TUI");
		if (s != NULL)
			cr_expect_str_eq(s, "old recording\n", "truncated");
		free(s);
		cr_expect_eq(th_dir_count(dir), 1, "a file was left beside it");
	}
	unlink(path);
	rmdir(dir);
	free(dir);
}

Test(record, a_symbolic_link_and_its_target_are_untouched)
{
	char *dir = th_tmpdir(), link[512], target[512];
	join(link, sizeof link, dir, "link.cast");
	join(target, sizeof target, dir, "target.txt");
	put(target, "precious\n");
	cr_assert_eq(symlink("target.txt", link), 0);
	for (int lesson = 0; lesson < 2; lesson++) {
		record_without_terminal(link, lesson);
		struct stat sb;
		cr_expect_eq(lstat(link, &sb), 0, "the link was removed");
		cr_expect(S_ISLNK(sb.st_mode), "the link is no longer a link");
		char *s = th_slurp(target, NULL);
		cr_assert_not_null(s);
		cr_expect_str_eq(s, "precious\n", "the link's target was "
		    "truncated");
		free(s);
		cr_expect_eq(th_dir_count(dir), 2);
	}
	unlink(link);
	unlink(target);
	rmdir(dir);
	free(dir);
}

/* A device node of our own (root makes one; /dev/null itself is never put
 * at risk by the test). */
Test(record, a_device_at_the_path_is_not_removed)
{
	char *dir = th_tmpdir(), dev[512];
	join(dev, sizeof dev, dir, "null");
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) != 0) {
		rmdir(dir);
		free(dir);
		cr_skip_test("cannot make a device node (not root)");
	}
	for (int lesson = 0; lesson < 2; lesson++) {
		record_without_terminal(dev, lesson);
		struct stat sb;
		cr_expect_eq(lstat(dev, &sb), 0, "the device was removed");
		cr_expect(S_ISCHR(sb.st_mode));
	}
	unlink(dev);
	rmdir(dir);
	free(dir);
}

/* What can be told without a terminal is told first, and touches
 * nothing: a folder that does not exist, a folder given as the file. */
Test(record, a_bad_path_is_refused_before_the_terminal)
{
	char *dir = th_tmpdir(), path[512];
	const char *a[] = {"pescope", "--record", path, NULL};
	char *out, *err;
	join(path, sizeof path, dir, "missing/x.cast");
	cr_expect_eq(th_run(a, NULL, &out, NULL, &err), 2);
	cr_expect(strstr(err, "--record '") != NULL &&
	    strstr(err, "No such file or directory") != NULL, "%s", err);
	free(out);
	free(err);
	snprintf(path, sizeof path, "%s", dir);
	cr_expect_eq(th_run(a, NULL, &out, NULL, &err), 2);
	cr_expect(strstr(err, "--record '") != NULL &&
	    strstr(err, "folder") != NULL, "%s", err);
	free(out);
	free(err);
	cr_expect_eq(th_dir_count(dir), 0);
	rmdir(dir);
	free(dir);
}
