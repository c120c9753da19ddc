/* Atomic writes: commit replaces the target, abort leaves nothing behind,
 * unwritable folders fail with PE_EIO, "-" is standard output. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "io/io.h"

/* path = dir/name in a static buffer. */
static const char *
join(const char *dir, const char *name)
{
	static char buf[1024];
	snprintf(buf, sizeof buf, "%s/%s", dir, name);
	return buf;
}

Test(atomic, commit_replaces)
{
	char *dir = th_tmpdir();
	char path[1024];
	snprintf(path, sizeof path, "%s", join(dir, "out.csv"));
	FILE *fp = fopen(path, "w");
	fputs("old contents, longer than the new\n", fp);
	fclose(fp);
	chmod(path, 0600);

	struct pe_atomic a;
	cr_assert_eq(pe_atomic_open(&a, path), PE_OK);
	cr_expect_eq(th_dir_count(dir), 2); /* target and temp */
	fputs("new\n", a.fp);
	/* Until commit the old file is intact. */
	char *s = th_slurp(path, NULL);
	cr_expect_str_eq(s, "old contents, longer than the new\n");
	free(s);
	cr_assert_eq(pe_atomic_commit(&a), PE_OK);
	s = th_slurp(path, NULL);
	cr_expect_str_eq(s, "new\n");
	free(s);
	cr_expect_eq(th_dir_count(dir), 1);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0600, "kept the target's mode");
	cr_expect_null(a.fp);
	remove(path);
	rmdir(dir);
	free(dir);
}

Test(atomic, new_file_mode)
{
	char *dir = th_tmpdir();
	char path[1024];
	snprintf(path, sizeof path, "%s", join(dir, "new.npy"));
	mode_t old = umask(027);
	struct pe_atomic a;
	cr_assert_eq(pe_atomic_open(&a, path), PE_OK);
	fputs("x", a.fp);
	cr_assert_eq(pe_atomic_commit(&a), PE_OK);
	umask(old);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 0777, 0644 & ~027, "mode %o",
	             st.st_mode & 0777);
	remove(path);
	rmdir(dir);
	free(dir);
}

Test(atomic, abort_leaves_nothing)
{
	char *dir = th_tmpdir();
	char path[1024];
	snprintf(path, sizeof path, "%s", join(dir, "out.npy"));
	struct pe_atomic a;
	cr_assert_eq(pe_atomic_open(&a, path), PE_OK);
	fputs("half a file", a.fp);
	pe_atomic_abort(&a);
	cr_expect_eq(th_dir_count(dir), 0);
	cr_expect_eq(access(path, F_OK), -1);
	pe_atomic_abort(&a); /* harmless twice */
	cr_expect_eq(pe_atomic_commit(&a), PE_EINVAL);
	rmdir(dir);
	free(dir);
}

Test(atomic, unwritable_folder)
{
	struct pe_atomic a;
	cr_expect_eq(pe_atomic_open(&a, "/nonexistent-pescope-dir/x.csv"),
	             PE_EIO);
	cr_expect_null(a.fp);
	pe_atomic_abort(&a);
	cr_expect_eq(pe_atomic_open(&a, ""), PE_EINVAL);

	char *dir = th_tmpdir();
	chmod(dir, 0555);
	if (access(dir, W_OK) == 0) { /* root writes anyway */
		chmod(dir, 0755);
		rmdir(dir);
		free(dir);
		cr_skip_test("running as root: a 0555 folder is writable");
	}
	cr_expect_eq(pe_atomic_open(&a, join(dir, "x.csv")), PE_EIO);
	chmod(dir, 0755);
	cr_expect_eq(th_dir_count(dir), 0);
	rmdir(dir);
	free(dir);
}

Test(atomic, stdout_dash)
{
	struct pe_atomic a;
	cr_assert_eq(pe_atomic_open(&a, "-"), PE_OK);
	cr_expect_eq(a.fp, stdout);
	cr_expect_null(a.tmp);
	cr_expect_eq(pe_atomic_commit(&a), PE_OK);
	cr_expect_null(a.path);
	cr_assert_eq(pe_atomic_open(&a, "-"), PE_OK);
	pe_atomic_abort(&a);
	cr_expect_null(a.path);
}

Test(atomic, failed_commit_cleans_up)
{
	char *dir = th_tmpdir();
	char path[1024];
	snprintf(path, sizeof path, "%s", join(dir, "target"));
	struct pe_atomic a;
	cr_assert_eq(pe_atomic_open(&a, path), PE_OK);
	fputs("data", a.fp);
	/* A non-empty folder now sits where the file should go: rename fails.
	 */
	mkdir(path, 0755);
	char inner[1100];
	snprintf(inner, sizeof inner, "%s/keep", path);
	fclose(fopen(inner, "w"));
	cr_expect_eq(pe_atomic_commit(&a), PE_EIO);
	cr_expect_eq(th_dir_count(dir), 1, "only the folder is left");
	remove(inner);
	rmdir(path);
	rmdir(dir);
	free(dir);
}

/* A device is written in place: renaming over /dev/null (as root) would
 * replace it with a regular file. A folder is refused. */
Test(atomic, devices_are_written_in_place)
{
	struct stat st;
	struct pe_atomic a;
	cr_assert_eq(pe_atomic_open(&a, "/dev/null"), PE_OK);
	cr_expect_null(a.tmp);
	fputs("discarded", a.fp);
	cr_expect_eq(pe_atomic_commit(&a), PE_OK);
	cr_assert_eq(stat("/dev/null", &st), 0);
	cr_expect(S_ISCHR(st.st_mode), "/dev/null is no longer a device");
	cr_assert_eq(pe_atomic_open(&a, "/dev/null"), PE_OK);
	pe_atomic_abort(&a);
	cr_assert_eq(stat("/dev/null", &st), 0);
	cr_expect(S_ISCHR(st.st_mode));
	char *dir = th_tmpdir();
	cr_expect_eq(pe_atomic_open(&a, dir), PE_EINVAL);
	rmdir(dir);
	free(dir);
}
