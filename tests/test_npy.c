/* NPY: the writer's bytes against numpy's own np.save, files numpy loads,
 * the reader on fixtures numpy wrote (tests/fixtures/make_fixtures.py),
 * and the reader's refusal of truncated, garbage and mutated input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "io/io.h"

/* Whether /usr/bin/python3 can import numpy. */
static bool
have_numpy(void)
{
	return system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") ==
	       0;
}

/* Write t with dtype into memory; returns the bytes (malloc'd). */
static char *
npy_bytes(const struct pe_table *t, enum pe_dtype dtype, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	cr_assert_not_null(fp);
	cr_assert_eq(pe_npy_write(fp, t, dtype), PE_OK);
	fclose(fp);
	return buf;
}

/* The fixture formula: a[i, j] = i * 10 + j + 0.25. */
static double
fixture_value(size_t i, size_t j)
{
	return (double)i * 10 + (double)j + 0.25;
}

Test(npy_write, header_layout)
{
	double v[12];
	for (int k = 0; k < 12; k++)
		v[k] = k * 0.5;
	struct pe_table t = {2, {3, 4, 0}, v, NULL};
	size_t len;
	char *b = npy_bytes(&t, PE_F32, &len);
	cr_assert(len > 10);
	cr_expect(memcmp(b, "\x93NUMPY\x01\x00", 8) == 0);
	size_t hl = (unsigned char)b[8] | (size_t)(unsigned char)b[9] << 8;
	cr_expect_eq((10 + hl) % 64, 0, "data starts at %zu", 10 + hl);
	cr_expect_eq(b[10 + hl - 1], '\n');
	const char *want = "{'descr': '<f4', 'fortran_order': False, 'shape': "
	                   "(3, 4), }";
	cr_expect(strncmp(b + 10, want, strlen(want)) == 0);
	cr_expect_eq(len, 10 + hl + 12 * 4);
	float f;
	memcpy(&f, b + 10 + hl + 4 * 5, 4); /* little-endian host */
	cr_expect_eq(f, 2.5f);
	free(b);

	/* 1-D shape is written "(n,)". */
	struct pe_table t1 = {1, {7, 0, 0}, v, NULL};
	b = npy_bytes(&t1, PE_F64, &len);
	cr_expect(strstr(b + 10, "'shape': (7,), }") != NULL);
	free(b);
	/* an empty list (rope's beyond when no pair is) is (0,) */
	struct pe_table t0 = {1, {0, 0, 0}, NULL, (int64_t[]){0}};
	b = npy_bytes(&t0, PE_I64, &len);
	cr_expect(strstr(b + 10, "'shape': (0,), }") != NULL);
	cr_expect_eq(len, 10 + ((unsigned char)b[8] | (size_t)(unsigned char)b[9]
	    << 8)); /* the header and no data */
	cr_expect_eq(len % 64, 0);
	free(b);
	cr_expect_eq(
	    pe_npy_write(stdout, &(struct pe_table){0, {0}, v, NULL}, PE_F32),
	    PE_EINVAL);
	cr_expect_eq(pe_npy_write(stdout, &t, PE_I64), PE_EINVAL);
}

/* Write t to a file and have numpy compare it with np.save of the array
 * that `expr` builds (same bytes), and with np.load. */
static void
check_with_numpy(const struct pe_table *t, enum pe_dtype dtype,
                 const char *expr)
{
	char *dir = th_tmpdir();
	char path[512], cmd[2048];
	snprintf(path, sizeof path, "%s/out.npy", dir);
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	cr_assert_eq(pe_npy_write(fp, t, dtype), PE_OK);
	fclose(fp);
	snprintf(cmd, sizeof cmd,
	         "/usr/bin/python3 -c \"import io, numpy as np\n"
	         "want = %s\n"
	         "a = np.load('%s')\n"
	         "assert a.shape == want.shape and a.dtype == want.dtype, "
	         "(a.shape, a.dtype)\n"
	         "assert np.array_equal(a, want, equal_nan=True), a\n"
	         "s = io.BytesIO(); np.save(s, want)\n"
	         "assert open('%s', 'rb').read() == s.getvalue(), 'bytes "
	         "differ'\n\"",
	         expr, path, path);
	cr_expect_eq(system(cmd), 0, "numpy check failed for %s", expr);
	remove(path);
	rmdir(dir);
	free(dir);
}

Test(npy_write, numpy_loads_it)
{
	if (!have_numpy())
		cr_skip_test("no /usr/bin/python3 with numpy");
	double v[24];
	int64_t iv[24];
	for (int k = 0; k < 24; k++) {
		v[k] = k * 0.1 - 1.0;
		iv[k] = (int64_t)k * 1000000007LL - 5;
	}
	v[3] = -INFINITY;
	v[4] = INFINITY;
	struct pe_table t2 = {2, {4, 6, 0}, v, NULL};
	check_with_numpy(
	    &t2, PE_F32,
	    "(np.arange(24) * 0.1 - 1.0).reshape(4, 6).astype(np.float32); "
	    "want.flat[3] = -np.inf; want.flat[4] = np.inf");
	check_with_numpy(&t2, PE_F64,
	                 "(np.arange(24) * 0.1 - 1.0).reshape(4, 6); "
	                 "want.flat[3] = -np.inf; want.flat[4] = np.inf");
	struct pe_table t1 = {1, {24, 0, 0}, NULL, iv};
	check_with_numpy(&t1, PE_I64,
	                 "np.arange(24, dtype=np.int64) * 1000000007 - 5");
	struct pe_table t3 = {3, {2, 3, 4}, NULL, iv};
	check_with_numpy(&t3, PE_I64,
	                 "(np.arange(24, dtype=np.int64) * 1000000007 - "
	                 "5).reshape(2, 3, 4)");
	/* A long first axis: the spare growth spaces shrink with its digits. */
	double *big = calloc(123457, sizeof *big);
	struct pe_table tb = {2, {123457, 1, 0}, big, NULL};
	check_with_numpy(&tb, PE_F32,
	                 "np.zeros((123457, 1), dtype=np.float32)");
	free(big);
}

/* Read fixture `name` and check its shape and values by formula. */
static void
check_fixture(const char *name, size_t rows, size_t cols)
{
	unsigned char *buf;
	size_t len, r, c;
	double *a;
	const char *why = "unset";
	cr_assert_eq(pe_file_read(th_fixture(name), 1 << 20, &buf, &len), PE_OK,
	             "%s", th_fixture(name));
	cr_assert_eq(pe_npy_read(buf, len, &a, &r, &c, &why), PE_OK, "%s: %s",
	             name, why);
	cr_expect_null(why);
	cr_expect_eq(r, rows);
	cr_expect_eq(c, cols);
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < cols; j++)
			cr_expect_eq(
			    a[i * cols + j], fixture_value(i, j),
			    "%s[%zu, %zu] = %g", name, i, j, a[i * cols + j]);
	free(a);
	free(buf);
}

/* A float64 table float32 cannot hold, written by numpy: (i * 10 + j +
 * 0.1) / 3 (tests/fixtures/make_fixtures.py), read back exactly. */
Test(npy_read, float64_values_are_kept)
{
	unsigned char *buf;
	size_t len, r, c;
	double *a;
	cr_assert_eq(pe_file_read(th_fixture("f8_third_3x4.npy"), 1 << 20, &buf,
	                          &len),
	             PE_OK);
	cr_assert_eq(pe_npy_read(buf, len, &a, &r, &c, NULL), PE_OK);
	cr_assert(r == 3 && c == 4);
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 4; j++) {
			double want = ((double)(i * 10 + j) + 0.1) / 3;
			cr_expect_eq(a[i * 4 + j], want, "[%zu, %zu] = %.17g, want "
			             "%.17g", i, j, a[i * 4 + j], want);
			cr_expect_neq(want, (double)(float)want);
		}
	free(a);
	free(buf);
}

Test(npy_read, numpy_fixtures)
{
	check_fixture("f4_3x4.npy", 3, 4);
	check_fixture("f8_2x5.npy", 2, 5);
	check_fixture("fortran_3x4.npy", 3, 4);
	check_fixture("v2_4x3.npy", 4, 3);
	check_fixture("v3_2x2.npy", 2, 2);
}

/* Expect fixture `name` to be refused with a sentence. */
static void
check_refused(const char *name)
{
	unsigned char *buf;
	size_t len, r, c;
	double *a = (double *)&len;
	const char *why = NULL;
	cr_assert_eq(pe_file_read(th_fixture(name), 1 << 20, &buf, &len),
	             PE_OK);
	cr_expect_eq(pe_npy_read(buf, len, &a, &r, &c, &why), PE_EFORMAT, "%s",
	             name);
	cr_expect_null(a);
	cr_expect(why != NULL && strlen(why) > 10, "%s", name);
	free(buf);
}

Test(npy_read, refuses_other_kinds)
{
	check_refused("big_endian_2x2.npy");
	check_refused("int64_2x2.npy");
	check_refused("f2_2x2.npy");
	check_refused("vector_5.npy");
	check_refused("cube_2x2x2.npy");
}

Test(npy_read, round_trip_writer)
{
	double v[35];
	for (int k = 0; k < 35; k++)
		v[k] = sin(k) * 100;
	struct pe_table t = {2, {5, 7, 0}, v, NULL};
	for (int d = 0; d < 2; d++) {
		size_t len, r, c;
		char *b = npy_bytes(&t, d ? PE_F64 : PE_F32, &len);
		double *a;
		cr_assert_eq(
		    pe_npy_read((unsigned char *)b, len, &a, &r, &c, NULL),
		    PE_OK);
		cr_expect(r == 5 && c == 7);
		for (int k = 0; k < 35; k++)
			/* f64 comes back exactly, f32 as float32 rounded it */
			cr_expect_eq(a[k], d ? v[k] : (double)(float)v[k],
			             "%s [%d]: %.17g vs %.17g", d ? "f8" : "f4", k,
			             a[k], v[k]);
		free(a);
		free(b);
	}
}

Test(npy_read, truncated)
{
	unsigned char *buf;
	size_t len, r, c;
	double *a;
	const char *why;
	cr_assert_eq(
	    pe_file_read(th_fixture("f4_3x4.npy"), 1 << 20, &buf, &len), PE_OK);
	for (size_t n = 0; n < len; n++) {
		why = NULL;
		cr_expect_eq(pe_npy_read(buf, n, &a, &r, &c, &why), PE_EFORMAT,
		             "prefix of %zu bytes", n);
		cr_expect_not_null(why);
	}
	free(buf);
}

/* Build an NPY v1.0 file with the given header dict and n data bytes. */
static unsigned char *
with_header(const char *dict, size_t ndata, size_t *len)
{
	size_t hl = strlen(dict) + 1;
	unsigned char *b = calloc(1, 10 + hl + ndata + 1);
	memcpy(b, "\x93NUMPY\x01\x00", 8);
	b[8] = (unsigned char)(hl & 0xff);
	b[9] = (unsigned char)(hl >> 8);
	memcpy(b + 10, dict, hl - 1);
	b[10 + hl - 1] = '\n';
	*len = 10 + hl + ndata;
	return b;
}

Test(npy_read, bad_headers)
{
	static const char *const bad[] = {
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, "
	    "4294967296), }",
	    "{'descr': '<f8', 'fortran_order': False, 'shape': "
	    "(18446744073709551615, 2), }",
	    "{'descr': '<f8', 'fortran_order': False, 'shape': "
	    "(99999999999999999999999, 2), }",
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 2), }",
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 1), }",
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 2), }",
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 3), }",
	    "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2, 2), }",
	    "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': "
	    "(2, 2), }",
	    "{'descr': '<f4', 'fortran_order': False, }",
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 1, "
	    "}",
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), } junk",
	    "{'descr': '<f4, 'fortran_order': False, 'shape': (2, 2), }",
	    "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 2), }",
	    "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }",
	    "['descr', '<f4']",
	    "",
	    "{",
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		size_t len, r, c;
		double *a;
		const char *why = NULL;
		unsigned char *b = with_header(bad[k], 16, &len);
		cr_expect_eq(pe_npy_read(b, len, &a, &r, &c, &why), PE_EFORMAT,
		             "accepted: %s", bad[k]);
		cr_expect_not_null(why);
		free(b);
	}
	/* And the good one, with double quotes and no trailing comma. */
	size_t len, r, c;
	double *a;
	unsigned char *b = with_header(
	    "{\"shape\": (2,2), \"fortran_order\": False, \"descr\": \"<f4\"}",
	    16, &len);
	cr_expect_eq(pe_npy_read(b, len, &a, &r, &c, NULL), PE_OK);
	free(a);
	free(b);
	/* Wrong magic and version. */
	b = with_header(
	    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", 16,
	    &len);
	b[6] = 4;
	cr_expect_eq(pe_npy_read(b, len, &a, &r, &c, NULL), PE_EFORMAT);
	b[6] = 1;
	b[1] = 'n';
	cr_expect_eq(pe_npy_read(b, len, &a, &r, &c, NULL), PE_EFORMAT);
	free(b);
}

Test(npy_read, fuzz_mutations)
{
	unsigned char *orig;
	size_t olen;
	uint64_t seed = 2024;
	cr_assert_eq(
	    pe_file_read(th_fixture("v2_4x3.npy"), 1 << 20, &orig, &olen),
	    PE_OK);
	for (int it = 0; it < 20000; it++) {
		size_t len = olen;
		unsigned char *b = malloc(olen);
		memcpy(b, orig, olen);
		int muts = 1 + (int)(th_lcg(&seed) % 4);
		for (int m = 0; m < muts; m++) {
			size_t at = th_lcg(&seed) % olen;
			switch (th_lcg(&seed) % 4) {
			case 0: /* random byte */
				b[at] = (unsigned char)th_lcg(&seed);
				break;
			case 1: /* interesting byte in the header */
				b[at % 80] = "0123456789(),'{}: <>f48TF\xff\x00"
				    [th_lcg(&seed) % 27];
				break;
			case 2: /* truncate */
				len = at < len ? at : len;
				break;
			default: /* length field */
				b[8 + th_lcg(&seed) % 4] =
				    (unsigned char)th_lcg(&seed);
			}
		}
		/* Exact-size copy so ASan sees any read past the end. */
		unsigned char *exact = malloc(len ? len : 1);
		memcpy(exact, b, len);
		free(b);
		double *a = NULL;
		size_t r = 0, c = 0;
		const char *why = NULL;
		int rc = pe_npy_read(exact, len, &a, &r, &c, &why);
		if (rc == PE_OK) {
			cr_assert(r > 0 && c > 0 && r * c * 4 <= len);
			free(a);
		} else {
			cr_assert_null(a);
			cr_assert_not_null(why);
		}
		free(exact);
	}
	/* Pure garbage of many lengths. */
	for (int it = 0; it < 2000; it++) {
		size_t len = th_lcg(&seed) % 300;
		unsigned char *g = malloc(len ? len : 1);
		for (size_t k = 0; k < len; k++)
			g[k] = (unsigned char)th_lcg(&seed);
		if (len > 8 && it % 2)
			memcpy(g, "\x93NUMPY\x01\x00", 8);
		double *a = NULL;
		size_t r, c;
		if (pe_npy_read(g, len, &a, &r, &c, NULL) == PE_OK)
			free(a);
		free(g);
	}
	free(orig);
}

Test(file_read, cap_and_missing)
{
	unsigned char *buf;
	size_t len;
	cr_expect_eq(pe_file_read(th_fixture("f4_3x4.npy"), 100, &buf, &len),
	             PE_ERANGE);
	cr_expect_eq(pe_file_read(th_fixture("f4_3x4.npy"), 176, &buf, &len),
	             PE_OK);
	cr_expect_eq(len, 176);
	cr_expect_eq(buf[176], 0);
	free(buf);
	cr_expect_eq(pe_file_read("/nonexistent/file.npy", 100, &buf, &len),
	             PE_EIO);
	/* devices are refused at once, before a byte is read */
	cr_expect_eq(pe_file_read("/dev/null", 100, &buf, &len), PE_EINVAL);
	cr_expect_eq(pe_file_read("/dev/zero", (size_t)1 << 32, &buf, &len),
	             PE_EINVAL);
	cr_expect_eq(pe_file_read("/tmp", 100, &buf, &len), PE_EINVAL);
}

/* Write an NPY v1.0 header for a <f8 C-order [rows, cols] array, then make
 * the file `size` bytes long (sparse: nothing is written past the header). */
static void
sparse_npy(const char *path, size_t rows, size_t cols, off_t size)
{
	char dict[128];
	int n = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': "
	    "False, 'shape': (%zu, %zu), }", rows, cols);
	size_t hl = (size_t)((10 + n + 1 + 63) / 64 * 64 - 10);
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	fwrite("\x93NUMPY\x01\x00", 1, 8, fp);
	fputc((int)(hl & 0xff), fp);
	fputc((int)(hl >> 8), fp);
	fputs(dict, fp);
	for (size_t i = (size_t)n; i + 1 < hl; i++)
		fputc(' ', fp);
	fputc('\n', fp);
	fclose(fp);
	cr_assert_eq(truncate(path, size), 0);
}

/* The header is read first: a file whose shape does not fit,
 * or that is shorter than its shape says, or too large, is refused before
 * its data is read (a 3 GiB sparse file takes no time), and a table's
 * values stream into place. */
Test(npy_read_file, header_first)
{
	char *dir = th_tmpdir(), path[512];
	snprintf(path, sizeof path, "%s/t.npy", dir);
	double *t = NULL;
	size_t r, c;
	const char *why;

	sparse_npy(path, (size_t)1 << 25, 8, (off_t)3 << 30); /* 2 GiB of data */
	cr_expect_eq(pe_npy_read_file(path, (size_t)1 << 32, (size_t)1 << 20,
	    (size_t)1 << 20, &t, &r, &c, &why), PE_ERANGE);
	cr_expect(why != NULL && strstr(why, "shape") != NULL);
	sparse_npy(path, 65536, 8192, (off_t)3 << 30);
	cr_expect_eq(pe_npy_read_file(path, (size_t)1 << 32, (size_t)1 << 30,
	    (size_t)1 << 20, &t, &r, &c, &why), PE_EFORMAT);
	cr_expect(why != NULL && strstr(why, "truncated") != NULL, "%s", why);
	sparse_npy(path, 4, 4, ((off_t)1 << 32) + 1);
	cr_expect_eq(pe_npy_read_file(path, (size_t)1 << 32, 16, 16, &t, &r, &c,
	    &why), PE_ERANGE);
	cr_expect_eq(pe_npy_read_file("/dev/zero", (size_t)1 << 32, 16, 16, &t,
	    &r, &c, &why), PE_EINVAL);
	cr_expect_null(t);
	unlink(path);

	/* the fixtures read as pe_npy_read reads them, Fortran order too */
	const char *names[] = {"f4_3x4.npy", "f8_2x5.npy", "fortran_3x4.npy",
	    "v2_4x3.npy", "v3_2x2.npy"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t len, r2, c2;
		char fx[1024];
		snprintf(fx, sizeof fx, "%s", th_fixture(names[i]));
		char *buf = th_slurp(fx, &len);
		double *want;
		cr_assert_eq(pe_npy_read((unsigned char *)buf, len, &want, &r2, &c2,
		    &why), PE_OK, "%s", names[i]);
		cr_assert_eq(pe_npy_read_file(fx, (size_t)1 << 32, 1024, 1024, &t,
		    &r, &c, &why), PE_OK, "%s: %s", names[i], why);
		cr_expect(r == r2 && c == c2, "%s", names[i]);
		cr_expect_eq(memcmp(t, want, r * c * sizeof *t), 0, "%s", names[i]);
		free(t);
		free(want);
		free(buf);
	}
	rmdir(dir);
	free(dir);
}

/* --bias-file takes [buckets] or [heads, buckets]: the _nd reader
 * accepts a 1-D array as one row and says which it was; a 3-D one is still
 * refused, and pe_npy_read_file keeps refusing 1-D. */
Test(npy_read_file, one_or_two_dims)
{
	double *t = NULL;
	size_t nd = 0, r = 0, c = 0;
	const char *why = NULL;
	char fx[1024];

	snprintf(fx, sizeof fx, "%s", th_fixture("vector_5.npy"));
	cr_assert_eq(pe_npy_read_file_nd(fx, (size_t)1 << 20, 16, 16, &t, &nd,
	    &r, &c, &why), PE_OK, "%s", why);
	cr_expect_eq(nd, 1);
	cr_expect_eq(r, 1);
	cr_expect_eq(c, 5);
	for (size_t k = 0; k < 5; k++)
		cr_expect_eq(t[k], (double)k);
	free(t);
	t = NULL;
	cr_expect_eq(pe_npy_read_file(fx, (size_t)1 << 20, 16, 16, &t, &r, &c,
	    &why), PE_EFORMAT);
	cr_expect_null(t);

	snprintf(fx, sizeof fx, "%s", th_fixture("f4_3x4.npy"));
	cr_assert_eq(pe_npy_read_file_nd(fx, (size_t)1 << 20, 16, 16, &t, &nd,
	    &r, &c, &why), PE_OK, "%s", why);
	cr_expect(nd == 2 && r == 3 && c == 4);
	cr_expect_eq(t[1 * 4 + 2], 12.25);
	free(t);
	t = NULL;

	snprintf(fx, sizeof fx, "%s", th_fixture("cube_2x2x2.npy"));
	cr_expect_eq(pe_npy_read_file_nd(fx, (size_t)1 << 20, 16, 16, &t, &nd,
	    &r, &c, &why), PE_EFORMAT);
	cr_expect(why != NULL && strstr(why, "1-D or 2-D") != NULL, "%s", why);
	cr_expect_null(t);
}

/* --freqs-file takes [2, heads, d/2] (RoPE-Mixed): the _3d
 * reader returns the stored shape, C order as it is and Fortran order
 * transposed back, and refuses 4-D. */
Test(npy_read_file, up_to_three_dims)
{
	double *t = NULL;
	size_t nd = 0, shape[3];
	const char *why = NULL;
	char fx[1024];

	snprintf(fx, sizeof fx, "%s", th_fixture("cube_2x2x2.npy"));
	cr_assert_eq(pe_npy_read_file_3d(fx, (size_t)1 << 20, 16, &t, &nd,
	    shape, &why), PE_OK, "%s", why);
	cr_expect(nd == 3 && shape[0] == 2 && shape[1] == 2 && shape[2] == 2);
	free(t);
	t = NULL;
	snprintf(fx, sizeof fx, "%s", th_fixture("vector_5.npy"));
	cr_assert_eq(pe_npy_read_file_3d(fx, (size_t)1 << 20, 16, &t, &nd,
	    shape, &why), PE_OK, "%s", why);
	cr_expect(nd == 1 && shape[0] == 5);
	free(t);
	t = NULL;

	/* a Fortran-order [2, 3, 4] <f8 holding its storage index: element
	 * (a, b, c) is stored at (c * 3 + b) * 2 + a */
	char *dir = th_tmpdir();
	char path[1200];
	snprintf(path, sizeof path, "%s/f.npy", dir);
	size_t len;
	unsigned char *b = with_header("{'descr': '<f8', 'fortran_order': True, "
	    "'shape': (2, 3, 4), }", 24 * 8, &len);
	size_t off = len - 24 * 8;
	for (size_t k = 0; k < 24; k++) {
		double v = (double)k;
		memcpy(b + off + 8 * k, &v, 8);
	}
	FILE *fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	cr_assert_eq(fwrite(b, 1, len, fp), len);
	fclose(fp);
	free(b);
	cr_assert_eq(pe_npy_read_file_3d(path, (size_t)1 << 20, 16, &t, &nd,
	    shape, &why), PE_OK, "%s", why);
	cr_expect(nd == 3 && shape[0] == 2 && shape[1] == 3 && shape[2] == 4);
	for (size_t a = 0; a < 2; a++)
		for (size_t bb = 0; bb < 3; bb++)
			for (size_t c = 0; c < 4; c++)
				cr_expect_eq(t[(a * 3 + bb) * 4 + c],
				    (double)((c * 3 + bb) * 2 + a), "(%zu,%zu,%zu)", a,
				    bb, c);
	free(t);
	t = NULL;
	/* a side past max_side, and four dimensions */
	cr_expect_eq(pe_npy_read_file_3d(path, (size_t)1 << 20, 3, &t, &nd,
	    shape, &why), PE_ERANGE);
	cr_expect_null(t);
	b = with_header("{'descr': '<f8', 'fortran_order': False, "
	    "'shape': (1, 1, 1, 2), }", 16, &len);
	fp = fopen(path, "wb");
	cr_assert_not_null(fp);
	cr_assert_eq(fwrite(b, 1, len, fp), len);
	fclose(fp);
	free(b);
	cr_expect_eq(pe_npy_read_file_3d(path, (size_t)1 << 20, 16, &t, &nd,
	    shape, &why), PE_EFORMAT);
	cr_expect(why != NULL && strstr(why, "3-D") != NULL, "%s", why);
	unlink(path);
	rmdir(dir);
	free(dir);
}
