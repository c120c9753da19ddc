/* NPY, numpy's array file format (numpy/lib/format.py, NEP 1): a magic
 * string, a version, a little-endian header length, a Python dict literal
 * header, then the raw data. Writing produces version 1.0 byte for byte as
 * numpy >= 1.23 does; reading takes 1.0, 2.0 and 3.0 and survives any bytes. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/io.h"

/* format.py: MAGIC_PREFIX, ARRAY_ALIGN, GROWTH_AXIS_MAX_DIGITS. */
#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
#define NPY_GROWTH_DIGITS 21

/* Largest dimension the reader believes before looking at the data. */
#define NPY_MAX_DIM ((uint64_t)1 << 40)

/* Store x little-endian in n bytes at p. */
static void
npy_put_le(unsigned char *p, uint64_t x, size_t n)
{
	for (size_t k = 0; k < n; k++)
		p[k] = (unsigned char)(x >> (8 * k));
}

/* Read n little-endian bytes at p. */
static uint64_t
npy_get_le(const unsigned char *p, size_t n)
{
	uint64_t x = 0;

	for (size_t k = 0; k < n; k++)
		x |= (uint64_t)p[k] << (8 * k);
	return x;
}

/* Number of elements of t into *n (0 for an empty axis); false when the
 * shape is invalid or overflows. */
static bool
npy_table_size(const struct pe_table *t, size_t *n)
{
	*n = 1;
	if (t->ndim < 1 || t->ndim > 3)
		return false;
	for (size_t k = 0; k < t->ndim; k++) {
		if (t->shape[k] != 0 && *n > SIZE_MAX / t->shape[k])
			return false;
		*n *= t->shape[k];
	}
	return true;
}

/* The NPY v1.0 header of shape[ndim] and dtype (<f4, <f8 or <i8). It is
 * format.py's _write_array_header: the dict with sorted keys, spare spaces
 * for the first axis to grow (GROWTH_AXIS_MAX_DIGITS), then spaces and
 * '\n' so the data starts at a multiple of 64 (_wrap_header: padlen =
 * 64 - (10 + len + 1) % 64, a whole 64 when already aligned). */
size_t
pe_npy_header(size_t ndim, const size_t *shape, enum pe_dtype dtype,
              unsigned char *dest)
{
	static const char *const descr[] = {"<f4", "<f8", "<i8"};
	char hdr[PE_NPY_HEADER_MAX], dims[128];
	size_t hl, pad, len, first;

	if (ndim < 1 || ndim > 3 || (unsigned)dtype > PE_I64)
		return 0;
	if (ndim == 1)
		snprintf(dims, sizeof dims, "(%zu,)", shape[0]);
	else if (ndim == 2)
		snprintf(dims, sizeof dims, "(%zu, %zu)", shape[0], shape[1]);
	else
		snprintf(dims, sizeof dims, "(%zu, %zu, %zu)", shape[0],
		         shape[1], shape[2]);
	len = (size_t)snprintf(
	    hdr, sizeof hdr,
	    "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
	    descr[dtype], dims);
	first = (size_t)snprintf(dims, sizeof dims, "%zu", shape[0]);
	if (first < NPY_GROWTH_DIGITS) {
		memset(hdr + len, ' ', NPY_GROWTH_DIGITS - first);
		len += NPY_GROWTH_DIGITS - first;
	}
	pad = NPY_ALIGN - (NPY_MAGIC_LEN + 4 + len + 1) % NPY_ALIGN;
	memset(hdr + len, ' ', pad);
	len += pad;
	hdr[len++] = '\n';
	hl = len;

	memcpy(dest, NPY_MAGIC, NPY_MAGIC_LEN);
	dest[6] = 1;
	dest[7] = 0;
	npy_put_le(dest + 8, hl, 2);
	memcpy(dest + 10, hdr, hl);
	return 10 + hl;
}

/* The conversion loop built for the vector units too, picked at load
 * time. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
/* count values as little-endian <f4, <f8 or <i8, whatever the host. */
void
pe_npy_encode(const double *f, const int64_t *i, size_t count,
              enum pe_dtype dtype, unsigned char *dest)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* the host's own order: plain conversions the compiler vectorises */
	if (f != NULL && dtype == PE_F32) {
		float *o = (float *)(void *)dest; /* dest's bytes become floats */
		for (size_t k = 0; k < count; k++)
			o[k] = (float)f[k];
		return;
	}
	if (f != NULL && dtype == PE_F64) {
		memcpy(dest, f, count * 8);
		return;
	}
	if (f == NULL && dtype == PE_I64) {
		memcpy(dest, i, count * 8);
		return;
	}
#endif
	for (size_t k = 0; k < count; k++) {
		double v = f != NULL ? f[k] : (double)i[k];
		if (dtype == PE_F32) {
			float x = (float)v;
			uint32_t u;
			memcpy(&u, &x, 4);
			npy_put_le(dest + 4 * k, u, 4);
		} else if (dtype == PE_F64) {
			uint64_t u;
			memcpy(&u, &v, 8);
			npy_put_le(dest + 8 * k, u, 8);
		} else {
			npy_put_le(dest + 8 * k, (uint64_t)i[k], 8);
		}
	}
}

/* Write t as NPY v1.0, C order, with dtype (<f4, <f8 or <i8): the header,
 * then the data in chunks. */
int
pe_npy_write(FILE *fp, const struct pe_table *t, enum pe_dtype dtype)
{
	static const size_t esize[] = {4, 8, 8};
	unsigned char hdr[PE_NPY_HEADER_MAX];
	_Alignas(8) unsigned char buf[8 * 512]; /* pe_npy_encode stores floats */
	size_t n, hl;

	if (fp == NULL || !npy_table_size(t, &n) || (unsigned)dtype > PE_I64 ||
	    (t->f == NULL && t->i == NULL) || (dtype == PE_I64 && t->i == NULL))
		return PE_EINVAL;
	if ((hl = pe_npy_header(t->ndim, t->shape, dtype, hdr)) == 0)
		return PE_EINVAL;
	if (fwrite(hdr, 1, hl, fp) != hl)
		return PE_EIO;
	size_t per = sizeof buf / esize[dtype];
	for (size_t k = 0; k < n; k += per) {
		size_t m = n - k < per ? n - k : per;
		pe_npy_encode(t->f != NULL ? t->f + k : NULL,
		              t->i != NULL ? t->i + k : NULL, m, dtype, buf);
		if (fwrite(buf, esize[dtype], m, fp) != m)
			return PE_EIO;
	}
	return ferror(fp) ? PE_EIO : PE_OK;
}

/* A cursor over the header's bytes. */
struct npy_lex {
	const unsigned char *p, *end;
};

/* Skip Python whitespace. */
static void
npy_skip(struct npy_lex *lx)
{
	while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' ||
	                           *lx->p == '\n' || *lx->p == '\r'))
		lx->p++;
}

/* Consume character c (after whitespace); false when it is not next. */
static bool
npy_eat(struct npy_lex *lx, char c)
{
	npy_skip(lx);
	if (lx->p < lx->end && *lx->p == (unsigned char)c) {
		lx->p++;
		return true;
	}
	return false;
}

/* Parse a quoted string (either quote, no escapes) into s[cap]. */
static bool
npy_string(struct npy_lex *lx, char *s, size_t cap)
{
	size_t n = 0;
	unsigned char q;

	npy_skip(lx);
	if (lx->p >= lx->end || (*lx->p != '\'' && *lx->p != '"'))
		return false;
	q = *lx->p++;
	while (lx->p < lx->end && *lx->p != q) {
		if (*lx->p == '\\' || n + 1 >= cap)
			return false;
		s[n++] = (char)*lx->p++;
	}
	if (lx->p >= lx->end)
		return false;
	lx->p++;
	s[n] = '\0';
	return true;
}

/* Parse True or False. */
static bool
npy_bool(struct npy_lex *lx, bool *b)
{
	npy_skip(lx);
	size_t left = (size_t)(lx->end - lx->p);
	if (left >= 4 && memcmp(lx->p, "True", 4) == 0) {
		lx->p += 4;
		*b = true;
		return true;
	}
	if (left >= 5 && memcmp(lx->p, "False", 5) == 0) {
		lx->p += 5;
		*b = false;
		return true;
	}
	return false;
}

/* Parse a tuple of non-negative integers, at most max of them, each at most
 * NPY_MAX_DIM; *bad is set when a number is out of range. */
static bool
npy_shape(struct npy_lex *lx, uint64_t *dims, size_t max, size_t *nd, bool *bad)
{
	*nd = 0;
	if (!npy_eat(lx, '('))
		return false;
	for (;;) {
		if (npy_eat(lx, ')'))
			return true;
		npy_skip(lx);
		if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9')
			return false;
		uint64_t v = 0;
		while (lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9') {
			if (v <= NPY_MAX_DIM)
				v = v * 10 + (uint64_t)(*lx->p - '0');
			lx->p++;
		}
		if (v > NPY_MAX_DIM)
			*bad = true;
		if (*nd >= max)
			*bad = true;
		else
			dims[*nd] = v;
		(*nd)++;
		if (npy_eat(lx, ')'))
			return true;
		if (!npy_eat(lx, ','))
			return false;
	}
}

#define NPY_FAIL(msg)                                                          \
	do {                                                                   \
		if (why != NULL)                                               \
			*why = (msg);                                          \
		return PE_EFORMAT;                                             \
	} while (0)

/* Which shapes a reader takes: 2-D; 1-D or 2-D; 1-D to 3-D. */
enum npy_dims { NPY_2D, NPY_1D_2D, NPY_UP_TO_3D };

/* Parse the header dict: descr's element size, fortran_order, and a 2-D
 * shape (or as `want` allows: a 1-D one read as dims[0] = 1, dims[1] = its
 * length; a 3-D one in dims[0..3)). */
static int
npy_header(const unsigned char *h, size_t hl, enum npy_dims want,
           size_t *esize, bool *fortran, uint64_t *dims, size_t *ndim,
           const char **why)
{
	struct npy_lex lx = {h, h + hl};
	bool have_descr = false, have_fortran = false, have_shape = false;
	char key[32], val[32];

	if (!npy_eat(&lx, '{'))
		NPY_FAIL("the NPY header is not a Python dict");
	while (!npy_eat(&lx, '}')) {
		if (!npy_string(&lx, key, sizeof key) || !npy_eat(&lx, ':'))
			NPY_FAIL("the NPY header dict is malformed");
		if (strcmp(key, "descr") == 0 && !have_descr) {
			if (!npy_string(&lx, val, sizeof val))
				NPY_FAIL(
				    "the NPY header's descr is not a dtype "
				    "string");
			if (val[0] == '>')
				NPY_FAIL(
				    "the NPY data is big-endian; only "
				    "little-endian <f4 and <f8 are supported");
			if (strcmp(val, "<f4") == 0)
				*esize = 4;
			else if (strcmp(val, "<f8") == 0)
				*esize = 8;
			else
				NPY_FAIL(
				    "the NPY dtype is not supported; only "
				    "little-endian float32 (<f4) and float64 "
				    "(<f8) are");
			have_descr = true;
		} else if (strcmp(key, "fortran_order") == 0 && !have_fortran) {
			if (!npy_bool(&lx, fortran))
				NPY_FAIL(
				    "the NPY header's fortran_order is not "
				    "True or False");
			have_fortran = true;
		} else if (strcmp(key, "shape") == 0 && !have_shape) {
			size_t nd;
			bool bad = false;
			if (!npy_shape(&lx, dims, want == NPY_UP_TO_3D ? 3 : 2, &nd,
			               &bad))
				NPY_FAIL(
				    "the NPY header's shape is not a tuple of "
				    "integers");
			if (want == NPY_UP_TO_3D && (nd < 1 || nd > 3))
				NPY_FAIL("the NPY array is not 1-D, 2-D or 3-D");
			if (want == NPY_1D_2D && (nd < 1 || nd > 2))
				NPY_FAIL("the NPY array is not 1-D or 2-D");
			if (want == NPY_2D && nd != 2)
				NPY_FAIL("the NPY array is not 2-D; a table of "
				         "positions x dimensions is needed");
			if (bad)
				NPY_FAIL("the NPY shape is absurdly large");
			if (nd == 1) {
				dims[1] = dims[0];
				dims[0] = 1;
			}
			*ndim = nd;
			have_shape = true;
		} else
			NPY_FAIL(
			    "the NPY header has an unknown or repeated key");
		if (!npy_eat(&lx, ',')) {
			if (!npy_eat(&lx, '}'))
				NPY_FAIL("the NPY header dict is malformed");
			break;
		}
	}
	npy_skip(&lx);
	if (lx.p != lx.end)
		NPY_FAIL("the NPY header has bytes after its dict");
	if (!have_descr || !have_fortran || !have_shape)
		NPY_FAIL("the NPY header lacks descr, fortran_order or shape");
	return PE_OK;
}

/* What the start of an NPY file says: where the data begins, the shape, the
 * element size and the order. */
struct npy_layout {
	size_t off;	/* first data byte */
	size_t ndim;	/* 2, or 1 (then rows is 1), or 3 */
	size_t rows, cols; /* 3-D: cols = dims[1] * dims[2] */
	size_t dims[3];	/* the shape as stored (ndim of them) */
	size_t esize;	/* 4 (<f4) or 8 (<f8) */
	bool fortran;
};

/* Parse the magic, version and header in buf[0..have) of a file of total
 * bytes; check that the data fits in total. The shapes `want` allows. */
static int
npy_layout(const unsigned char *buf, size_t have, size_t total,
           enum npy_dims want, struct npy_layout *l, const char **why)
{
	size_t start, hl;
	uint64_t dims[3] = {0, 0, 1};
	int rc;

	if (have < 10 || memcmp(buf, NPY_MAGIC, NPY_MAGIC_LEN) != 0)
		NPY_FAIL("not an NPY file (no \\x93NUMPY magic string)");
	if (buf[7] != 0 || buf[6] < 1 || buf[6] > 3)
		NPY_FAIL("unsupported NPY format version (1.0, 2.0 and 3.0 are "
		         "known)");
	if (buf[6] == 1) {
		start = 10;
		hl = (size_t)npy_get_le(buf + 8, 2);
	} else {
		if (have < 12)
			NPY_FAIL("the NPY header is truncated");
		start = 12;
		hl = (size_t)npy_get_le(buf + 8, 4);
	}
	if (hl > have - start)
		NPY_FAIL("the NPY header is truncated");
	l->fortran = false;
	if ((rc = npy_header(buf + start, hl, want, &l->esize, &l->fortran,
	                     dims, &l->ndim, why)) != PE_OK)
		return rc;
	if (l->ndim < 3)
		dims[2] = 1;
	for (size_t k = 0; k < 3; k++)
		l->dims[k] = (size_t)dims[k];
	if (l->ndim == 1) { /* read as one row: dims[0] is the length */
		l->dims[0] = (size_t)dims[1];
		l->dims[1] = 1;
	}
	l->rows = (size_t)dims[0];
	l->cols = (size_t)dims[1];
	l->off = start + hl;
	if (l->rows == 0 || l->cols == 0 || dims[2] == 0)
		NPY_FAIL("the NPY array is empty");
	if (l->cols > SIZE_MAX / (size_t)dims[2])
		NPY_FAIL("the NPY shape overflows a byte count");
	l->cols *= (size_t)dims[2];
	if (l->rows > SIZE_MAX / l->cols ||
	    l->rows * l->cols > SIZE_MAX / l->esize)
		NPY_FAIL("the NPY shape overflows a byte count");
	if (l->rows * l->cols * l->esize > total - l->off)
		NPY_FAIL("the NPY data is truncated: the file is shorter than "
		         "its shape says");
	return PE_OK;
}

/* Convert elements [k0, k0 + n) stored at d into out (C order). */
static void
npy_convert(const struct npy_layout *l, const unsigned char *d, size_t k0,
            size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = k0 + i, dst = k;
		/* Fortran order: element (r, c) is stored at c * rows + r;
		 * (a, b, c) at (c * B + b) * A + a. */
		if (l->fortran && l->ndim == 3) {
			size_t A = l->dims[0], B = l->dims[1], C = l->dims[2];
			dst = ((k % A) * B + (k / A) % B) * C + k / (A * B);
		} else if (l->fortran) {
			dst = (k % l->rows) * l->cols + k / l->rows;
		}
		if (l->esize == 4) {
			uint32_t u = (uint32_t)npy_get_le(d + 4 * i, 4);
			float f;
			memcpy(&f, &u, 4);
			out[dst] = (double)f;
		} else {
			uint64_t u = npy_get_le(d + 8 * i, 8);
			memcpy(&out[dst], &u, 8);
		}
	}
}

/* Parse an NPY file held in memory into a malloc'd double table. */
int
pe_npy_read(const unsigned char *buf, size_t len, double **dest, size_t *rows,
            size_t *cols, const char **why)
{
	struct npy_layout l;
	int rc;

	if (why != NULL)
		*why = NULL;
	if (dest == NULL || rows == NULL || cols == NULL ||
	    (buf == NULL && len > 0))
		return PE_EINVAL;
	*dest = NULL;
	if ((rc = npy_layout(buf, len, len, NPY_2D, &l, why)) != PE_OK)
		return rc;
	double *out = malloc(l.rows * l.cols * sizeof *out);
	if (out == NULL) {
		if (why != NULL)
			*why = "out of memory for the NPY data";
		return PE_ENOMEM;
	}
	npy_convert(&l, buf + l.off, 0, l.rows * l.cols, out);
	*dest = out;
	*rows = l.rows;
	*cols = l.cols;
	return PE_OK;
}

/* Read an NPY file: the header first (a file that is not regular, larger
 * than max bytes, or whose shape passes max_rows x max_cols is refused
 * before its data is read), then the data in 1 MiB chunks straight into
 * the table, so memory stays near the table's own size. The shapes `want`
 * allows (a 1-D array is read as one row; a 3-D one as [A, B C]); *l says
 * which it was. */
static int
npy_read_file(const char *path, size_t max, size_t max_rows, size_t max_cols,
              enum npy_dims want, double **dest, struct npy_layout *lay,
              const char **why)
{
	enum { HEAD = 1 << 16, CHUNK = 1 << 20 };
	unsigned char *buf = NULL;
	double *out = NULL;
	struct npy_layout l;
	struct stat st;
	int rc = PE_OK;

	if (why != NULL)
		*why = NULL;
	if (path == NULL || dest == NULL || lay == NULL)
		return PE_EINVAL;
	*dest = NULL;
	FILE *fp = fopen(path, "rb");
	if (fp == NULL)
		return PE_EIO; /* errno says why */
	if (fstat(fileno(fp), &st) != 0) {
		rc = PE_EIO;
		goto end;
	}
	if (!S_ISREG(st.st_mode)) {
		if (why != NULL)
			*why = "not a regular file";
		rc = PE_EINVAL;
		goto end;
	}
	size_t total = (size_t)st.st_size;
	if ((uintmax_t)st.st_size > max) {
		if (why != NULL)
			*why = "the file is larger than pescope reads";
		rc = PE_ERANGE;
		goto end;
	}
	size_t have = total < HEAD + 16 ? total : HEAD + 16;
	size_t chunk = CHUNK;
	if ((buf = malloc(chunk > have ? chunk : have)) == NULL) {
		rc = PE_ENOMEM;
		goto end;
	}
	if (fread(buf, 1, have, fp) != have) {
		rc = PE_EIO;
		goto end;
	}
	if ((rc = npy_layout(buf, have, total, want, &l, why)) != PE_OK)
		goto end;
	if (l.rows > max_rows || l.cols > max_cols) {
		if (why != NULL)
			*why = "its shape is out of range";
		rc = PE_ERANGE;
		goto end;
	}
	if ((out = malloc(l.rows * l.cols * sizeof *out)) == NULL) {
		if (why != NULL)
			*why = "out of memory for the NPY data";
		rc = PE_ENOMEM;
		goto end;
	}
	if (fseek(fp, (long)l.off, SEEK_SET) != 0) {
		rc = PE_EIO;
		goto end;
	}
	size_t per = chunk / l.esize, count = l.rows * l.cols;
	for (size_t k = 0; k < count; k += per) {
		size_t n = count - k < per ? count - k : per;
		if (fread(buf, l.esize, n, fp) != n) {
			rc = PE_EIO;
			goto end;
		}
		npy_convert(&l, buf, k, n, out);
	}
	*dest = out;
	out = NULL;
	*lay = l;
end:
	free(out);
	free(buf);
	int saved = errno;
	fclose(fp);
	errno = saved;
	return rc;
}

/* Read a 2-D NPY table [rows, cols] from a file. */
int
pe_npy_read_file(const char *path, size_t max, size_t max_rows,
                 size_t max_cols, double **dest, size_t *rows, size_t *cols,
                 const char **why)
{
	struct npy_layout l;

	if (rows == NULL || cols == NULL)
		return PE_EINVAL;
	int rc = npy_read_file(path, max, max_rows, max_cols, NPY_2D, dest, &l,
	                       why);
	if (rc == PE_OK) {
		*rows = l.rows;
		*cols = l.cols;
	}
	return rc;
}

/* Read a 1-D [cols] or 2-D [rows, cols] NPY array from a file. */
int
pe_npy_read_file_nd(const char *path, size_t max, size_t max_rows,
                    size_t max_cols, double **dest, size_t *ndim,
                    size_t *rows, size_t *cols, const char **why)
{
	struct npy_layout l;

	if (ndim == NULL || rows == NULL || cols == NULL)
		return PE_EINVAL;
	int rc = npy_read_file(path, max, max_rows, max_cols, NPY_1D_2D, dest,
	                       &l, why);
	if (rc == PE_OK) {
		*ndim = l.ndim;
		*rows = l.rows;
		*cols = l.cols;
	}
	return rc;
}

/* Read a 1-D, 2-D or 3-D NPY array from a file, its shape into
 * shape[0..*ndim), each side at most max_side. */
int
pe_npy_read_file_3d(const char *path, size_t max, size_t max_side,
                    double **dest, size_t *ndim, size_t shape[3],
                    const char **why)
{
	struct npy_layout l;

	if (ndim == NULL || shape == NULL)
		return PE_EINVAL;
	size_t wide = max_side > SIZE_MAX / max_side ? SIZE_MAX
	                                             : max_side * max_side;
	int rc = npy_read_file(path, max, max_side, wide, NPY_UP_TO_3D, dest,
	                       &l, why);
	if (rc == PE_OK && (l.dims[1] > max_side || l.dims[2] > max_side)) {
		free(*dest);
		*dest = NULL;
		if (why != NULL)
			*why = "its shape is out of range";
		rc = PE_ERANGE;
	}
	if (rc == PE_OK) {
		*ndim = l.ndim;
		for (size_t k = 0; k < 3; k++)
			shape[k] = k < l.ndim ? l.dims[k] : 0;
	}
	return rc;
}
