/* Hostile files through every command. Text that comes from a file (a
 * lesson, a preset, an NPY header, their names) reaches standard output,
 * standard error and every file written only with its control characters
 * escaped: no C0 control but tab and newline, no DEL, no C1 control (raw or
 * spelled in UTF-8), no byte that is not UTF-8; in ANSI output an escape
 * only as the writer's own SGR. And a learned table whose dot products
 * would overflow is refused, naming the bound, instead of giving inf and
 * -nan with exit 0. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"
#include "io/io.h"

/* The control bytes a hostile file carries: OSC 0 (window title), OSC 52
 * (the clipboard), CSI as ESC [ and as C1 in UTF-8 and raw, BEL, DEL. */
#define EVIL "\033]0;PWNED\007\033]52;c;ZXZpbA==\007\033[31m\xc2\x9b" \
	"31m\x9b\x7f\x01"

/* Where s[0..n) is not clean (see the top), or -1. ansi: ESC [ params m
 * is the writer's own. */
static long
dirty_at(const unsigned char *s, size_t n, bool ansi)
{
	for (size_t i = 0; i < n;) {
		unsigned c = s[i];
		if (c == '\t' || c == '\n' || (c >= 0x20 && c < 0x7f)) {
			i++;
			continue;
		}
		if (c == 0x1b && ansi && i + 1 < n && s[i + 1] == '[') {
			size_t k = i + 2;
			while (k < n && ((s[k] >= '0' && s[k] <= '9') || s[k] == ';'))
				k++;
			if (k < n && s[k] == 'm') {
				i = k + 1;
				continue;
			}
			return (long)i;
		}
		size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
		    : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
		if (len == 0 || i + len > n)
			return (long)i;
		unsigned cp = c & (0x7f >> len);
		for (size_t k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return (long)i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp >= 0x80 && cp < 0xa0)
			return (long)i;
		i += len;
	}
	return -1;
}

/* Expect s[0..n) clean; what names it. */
static void
expect_clean(const char *s, size_t n, bool ansi, const char *what)
{
	long at = dirty_at((const unsigned char *)s, n, ansi);
	if (at < 0)
		return;
	long from = at > 30 ? at - 30 : 0;
	char show[200];
	size_t o = 0;
	for (long i = from; i < (long)n && i < at + 20 && o + 5 < sizeof show;
	     i++) {
		unsigned char c = (unsigned char)s[i];
		o += (size_t)(c < 0x20 || c >= 0x7f
		    ? snprintf(show + o, sizeof show - o, "\\x%02x", c)
		    : snprintf(show + o, sizeof show - o, "%c", c));
	}
	cr_expect_fail("%s: a raw control byte at %ld: ...%s...", what, at, show);
}

/* Run pescope with argv; expect its stdout and stderr clean and its exit
 * status rc (-1: any). */
static void
run_clean(const char *const *argv, int rc, bool ansi, const char *what)
{
	char *out, *err;
	size_t on;
	int got = th_run(argv, NULL, &out, &on, &err);
	if (rc >= 0)
		cr_expect_eq(got, rc, "%s: exit %d (%s)", what, got, err);
	char w[256];
	snprintf(w, sizeof w, "%s: standard output", what);
	expect_clean(out, on, ansi, w);
	snprintf(w, sizeof w, "%s: standard error", what);
	expect_clean(err, strlen(err), false, w);
	free(out);
	free(err);
}

/* Expect every file in dir clean. */
static void
files_clean(const char *dir, const char *what)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char p[1024], w[1400];
		size_t len;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		char *s = th_slurp(p, &len);
		snprintf(w, sizeof w, "%s: %s", what, e->d_name);
		size_t l = strlen(e->d_name);
		expect_clean(s, len, l > 5 && strcmp(e->d_name + l - 5, ".ansi") == 0,
		    w);
		free(s);
		unlink(p);
		n++;
	}
	closedir(d);
	cr_expect_gt(n, 0, "%s: no files", what);
}

/* Write text to dir/name; the path in a static buffer. */
static const char *
put(const char *dir, const char *name, const char *text)
{
	static char path[4][1024];
	static int k;
	char *p = path[k++ % 4];
	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	FILE *fp = fopen(p, "w");
	cr_assert_not_null(fp, "%s", p);
	fputs(text, fp);
	fclose(fp);
	return p;
}

Test(hostile, a_lesson_reaches_no_output_raw)
{
	char *dir = th_tmpdir(), out[600];
	const char *les = put(dir, "ev" EVIL "il.lesson",
	    "title = Evil" EVIL " title\n"
	    "duration = 10\n\n"
	    "[scene] Scene" EVIL " one\n"
	    "encoding = sinusoidal\n"
	    "[caption]\nA caption " EVIL " with {n} positions.\n"
	    "[notes]\nNotes " EVIL "\n\n"
	    "[scene] Two" EVIL "\n"
	    "encoding = rope\n"
	    "[pause]\nd-model = 32\n"
	    "[caption]\nStep " EVIL " two.\n");
	static const char *const fmts[] = {"ansi", "txt", "html", "svg"};
	const char *list[] = {"pescope", "lesson", "--lesson-file", les, "--list",
	    NULL};
	run_clean(list, 0, false, "lesson --list");
	const char *run[] = {"pescope", "lesson", "--lesson-file", les, NULL};
	run_clean(run, 2, false, "lesson (no terminal)");
	const char *spk[] = {"pescope", "lesson", "--speaker", "--lesson-file",
	    les, NULL};
	run_clean(spk, 2, false, "lesson --speaker (no terminal)");
	for (size_t i = 0; i < 4; i++) {
		char what[64];
		snprintf(what, sizeof what, "snapshot --lesson-file -f %s", fmts[i]);
		const char *snap[] = {"pescope", "snapshot", "--lesson-file", les,
		    "--scene", "2", "-f", fmts[i], "--size", "160x40", NULL};
		run_clean(snap, 0, i == 0, what);
		const char *pres[] = {"pescope", "snapshot", "--lesson-file", les,
		    "--present", "-f", fmts[i], "--size", "100x30", NULL};
		run_clean(pres, 0, i == 0, what);
		snprintf(out, sizeof out, "%s/all", dir);
		mkdir(out, 0700);
		const char *all[] = {"pescope", "snapshot", "--lesson-file", les,
		    "--all", "-f", fmts[i], "-o", out, NULL};
		run_clean(all, 0, false, "snapshot --lesson-file --all");
		files_clean(out, what);
		rmdir(out);
	}
	/* a broken lesson: the message quotes the file's bytes */
	static const char *const broken[] = {
		"title = T\n[scene] S\nencoding = sin" EVIL "usoidal\n",
		"title = T\n[scene] S\nd-m" EVIL "odel = 8\n",
		"title = T\n[scene] S\n[caption]\n{pl" EVIL "ace}\n",
		"title = T\n[sc" EVIL "ene] S\n",
		"title = T\n[scene] S\n[caption]\n{pe:" EVIL "}\n",
	};
	for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
		const char *b = put(dir, "broken.lesson", broken[i]);
		const char *l2[] = {"pescope", "lesson", "--lesson-file", b,
		    "--list", NULL};
		run_clean(l2, 2, false, "a broken lesson, --list");
		const char *s2[] = {"pescope", "snapshot", "--lesson-file", b, NULL};
		run_clean(s2, 2, false, "a broken lesson, snapshot");
		unlink(b);
	}
	unlink(les);
	rmdir(dir);
	free(dir);
}

Test(hostile, a_preset_reaches_no_output_raw)
{
	char *dir = th_tmpdir();
	const char *good = put(dir, "p" EVIL ".preset",
	    "source = https://example.org/" EVIL "\n"
	    "description = " EVIL "\n"
	    "encoding = rope\nd-model = 64\n");
	static const char *const fmts[] = {"ansi", "txt", "html", "svg"};
	for (size_t i = 0; i < 4; i++) {
		const char *snap[] = {"pescope", "snapshot", "--preset-file", good,
		    "-f", fmts[i], "--size", "160x40", NULL};
		run_clean(snap, 0, i == 0, "snapshot --preset-file");
	}
	const char *dump[] = {"pescope", "dump", "--preset-file", good, "-t",
	    "cos", "-n", "4", "-f", "csv", NULL};
	run_clean(dump, 0, false, "dump --preset-file");
	static const char *const broken[] = {
		"d-model = 6" EVIL "4\n", "d-m" EVIL "odel = 64\n",
		"encoding = " EVIL "\n", "source\n" EVIL "\n",
	};
	for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
		const char *b = put(dir, "b" EVIL ".preset", broken[i]);
		const char *s[] = {"pescope", "snapshot", "--preset-file", b, NULL};
		run_clean(s, -1, false, "a broken preset");
		const char *d[] = {"pescope", "dump", "-t", "pe", "--preset-file", b,
		    NULL};
		run_clean(d, -1, false, "a broken preset, dump");
		unlink(b);
	}
	unlink(good);
	rmdir(dir);
	free(dir);
}

/* An NPY file whose header says things in control bytes: the refusal
 * quotes none of them raw (--table-file, --bias-file). */
Test(hostile, an_npy_header_reaches_no_output_raw)
{
	char *dir = th_tmpdir();
	static const char *const dicts[] = {
		"{'descr': '<f8" EVIL "', 'fortran_order': False, 'shape': (4, 4), }",
		"{'descr': '<f8', 'fortran_order': " EVIL ", 'shape': (4, 4), }",
		"{'descr': '<f8', 'fortran_order': False, 'shape': (4, " EVIL "), }",
		"{'" EVIL "': 1, 'descr': '<f8', 'fortran_order': False, "
		    "'shape': (4, 4), }",
	};
	for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++) {
		char path[1024], hdr[256];
		snprintf(path, sizeof path, "%s/t" EVIL ".npy", dir);
		size_t dl = strlen(dicts[i]);
		size_t total = (10 + dl + 1 + 63) / 64 * 64;
		memset(hdr, ' ', sizeof hdr);
		memcpy(hdr, "\x93NUMPY\x01\x00", 8);
		hdr[8] = (char)((total - 10) & 0xff);
		hdr[9] = (char)((total - 10) >> 8);
		memcpy(hdr + 10, dicts[i], dl);
		hdr[total - 1] = '\n';
		FILE *fp = fopen(path, "wb");
		cr_assert_not_null(fp);
		fwrite(hdr, 1, total, fp);
		double z[16] = {0};
		fwrite(z, sizeof z[0], 16, fp);
		fclose(fp);
		const char *t[] = {"pescope", "snapshot", "-e", "learned",
		    "--table-file", path, NULL};
		run_clean(t, 2, false, "--table-file");
		const char *b[] = {"pescope", "snapshot", "-e", "relative",
		    "--relative", "t5", "--bias-file", path, NULL};
		run_clean(b, 2, false, "--bias-file");
		const char *d[] = {"pescope", "dump", "-e", "learned", "-t", "pe",
		    "--table-file", path, NULL};
		run_clean(d, 2, false, "dump --table-file");
		unlink(path);
	}
	rmdir(dir);
	free(dir);
}

/* Write a [rows, cols] table of v * (a fixed pattern of +-1, 2) as NPY. */
static void
put_table(const char *path, size_t rows, size_t cols, double v)
{
	double *t = malloc(rows * cols * sizeof *t);
	for (size_t k = 0; k < rows * cols; k++)
		t[k] = v * (k % 3 == 0 ? -1.0 : k % 3 == 1 ? 2.0 : 1.0);
	struct pe_table tab = {2, {rows, cols, 0}, t, NULL};
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	cr_assert_eq(pe_npy_write(fp, &tab, PE_F64), PE_OK);
	fclose(fp);
	free(t);
}

/* A finite table whose dot products overflow (entries 1e307, and 1e160,
 * whose squares pass DBL_MAX) is refused up front, naming the bound on a
 * row's norm; one just inside it gives no inf or nan anywhere. An
 * embedding whose norm would be infinite is refused the same way. */
Test(hostile, a_table_whose_products_overflow_is_refused)
{
	char *dir = th_tmpdir(), path[600];
	snprintf(path, sizeof path, "%s/t.npy", dir);
	static const double huge[] = {1e307, 1e160, 1e70};
	for (size_t i = 0; i < 3; i++) {
		put_table(path, 64, 32, huge[i]);
		const char *d[] = {"pescope", "dump", "-e", "learned", "--table-file",
		    path, "-t", "similarity", "-n", "8", "-f", "csv", NULL};
		const char *s[] = {"pescope", "snapshot", "-e", "learned",
		    "--table-file", path, "-f", "txt", NULL};
		const char *const *all[] = {d, s};
		for (int k = 0; k < 2; k++) {
			char *out, *err;
			int rc = th_run(all[k], NULL, &out, NULL, &err);
			cr_expect_eq(rc, 2, "%s of entries %g: exit %d, %.200s",
			    all[k][1], huge[i], rc, out);
			cr_expect(strstr(err, "--table-file") != NULL &&
			    strstr(err, "1e+64") != NULL, "%s", err);
			free(out);
			free(err);
		}
	}
	/* inside the bound: every number is finite */
	put_table(path, 64, 32, 1e62);
	const char *d[] = {"pescope", "dump", "-e", "learned", "--table-file",
	    path, "-t", "similarity", "-n", "64", "-f", "csv", "--dtype", "f64",
	    NULL};
	char *out, *err;
	cr_expect_eq(th_run(d, NULL, &out, NULL, &err), 0, "%s", err);
	cr_expect(strstr(out, "inf") == NULL && strstr(out, "nan") == NULL,
	    "%.200s", out);
	free(out), free(err);
	static const char *const panels[] = {"map", "similarity", NULL};
	for (size_t i = 0; panels[i] != NULL; i++) {
		const char *s[] = {"pescope", "snapshot", "-e", "learned",
		    "--table-file", path, "--panel", panels[i], "-f", "txt",
		    "--size", "160x48", NULL};
		int rc = th_run(s, NULL, &out, NULL, &err);
		if (rc == 2 && strstr(err, "--panel") != NULL) {
			free(out), free(err);
			continue; /* no such panel for learned */
		}
		cr_expect_eq(rc, 0, "%s", err);
		cr_expect(strstr(out, "nan") == NULL && strstr(out, "inf") == NULL,
		    "--panel %s shows inf or nan:\n%s", panels[i], out);
		free(out), free(err);
	}
	unlink(path);
	rmdir(dir);
	free(dir);

	const char *e[] = {"pescope", "snapshot", "-e", "sinusoidal", "-d", "4",
	    "--panel", "example", "--embedding", "1e308,1e308,1e308,1e308", NULL};
	cr_expect_eq(th_run(e, NULL, &out, NULL, &err), 2, "%.300s", out);
	cr_expect(strstr(err, "--embedding") != NULL && strstr(err, "1e+64") !=
	    NULL, "%s", err);
	free(out), free(err);
}
