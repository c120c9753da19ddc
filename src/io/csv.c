/* CSV output of a table: one matrix row per line, values separated by
 * commas, numbers printed so that they read back to the same value. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/io.h"

/* Bytes of the longest int64 in decimal ("-9223372036854775808"). */
#define CSV_I64_MAX 20

/* n in decimal into dest, as printf's PRId64; returns the length. */
static size_t
csv_i64(int64_t n, char *dest)
{
	char tmp[CSV_I64_MAX];
	uint64_t u = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
	size_t len = 0, k = 0;

	do {
		tmp[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (n < 0)
		dest[len++] = '-';
	while (k > 0)
		dest[len++] = tmp[--k];
	return len;
}

/* One floating value: %.9g of the value rounded to float for f32 (9
 * significant digits round-trip a float, IEEE 754-2008 sec. 5.12.2),
 * %.17g for f64; -inf, inf and nan spelled so (never "-nan"). */
static size_t
csv_value(double v, enum pe_dtype dtype, char *dest)
{
	if (dtype == PE_F32)
		return pe_dtoa_g((double)(float)v, 9, dest);
	return pe_dtoa_g(v, 17, dest);
}

/* Bytes a line of cols values can take: each value and its comma, and the
 * newline. */
size_t
pe_csv_line_max(size_t cols)
{
	return cols * PE_DTOA_MAX + 1;
}

/* rows x cols values as CSV lines into dest; integers (from i when f is
 * NULL) are printed plainly. */
size_t
pe_csv_encode(const double *f, const int64_t *i, size_t rows, size_t cols,
              enum pe_dtype dtype, char *dest)
{
	char *o = dest;

	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols; c++) {
			size_t k = r * cols + c;
			if (c > 0)
				*o++ = ',';
			if (dtype == PE_I64)
				o += csv_i64(i[k], o);
			else
				o += csv_value(f != NULL ? f[k] : (double)i[k], dtype,
				               o);
		}
		*o++ = '\n';
	}
	return (size_t)(o - dest);
}

/* Write t as CSV, one matrix row per line. A 1-D table is written as a
 * column (one value per line); a 3-D table writes sub-matrix `head` only;
 * an empty one writes nothing.
 * Integers are printed plainly, from t->i. Returns PE_EINVAL for a bad
 * table, dtype or head, PE_EIO when writing fails, PE_ENOMEM. */
int
pe_csv_write(FILE *fp, const struct pe_table *t, enum pe_dtype dtype,
             size_t head)
{
	size_t rows, cols, base = 0;

	if (fp == NULL || t == NULL || (unsigned)dtype > PE_I64 ||
	    (t->f == NULL && t->i == NULL) || (dtype == PE_I64 && t->i == NULL))
		return PE_EINVAL;
	switch (t->ndim) {
	case 1:
		rows = t->shape[0];
		cols = 1;
		break;
	case 2:
		rows = t->shape[0];
		cols = t->shape[1];
		break;
	case 3:
		if (head >= t->shape[0])
			return PE_EINVAL;
		rows = t->shape[1];
		cols = t->shape[2];
		if (cols != 0 && rows > SIZE_MAX / cols / t->shape[0])
			return PE_EINVAL;
		base = head * rows * cols;
		break;
	default:
		return PE_EINVAL;
	}
	if (rows == 0 || cols == 0) /* an empty table: no line */
		return ferror(fp) ? PE_EIO : PE_OK;
	if (rows > SIZE_MAX / cols || cols > SIZE_MAX / PE_DTOA_MAX - 1)
		return PE_EINVAL;

	char *line = malloc(pe_csv_line_max(cols));
	int rc = line == NULL ? PE_ENOMEM : PE_OK;
	for (size_t r = 0; rc == PE_OK && r < rows; r++) {
		size_t k = base + r * cols;
		size_t len = pe_csv_encode(t->f != NULL ? t->f + k : NULL,
		                           t->i != NULL ? t->i + k : NULL, 1, cols,
		                           dtype, line);
		if (fwrite(line, 1, len, fp) != len)
			rc = PE_EIO;
	}
	free(line);
	if (rc == PE_OK && ferror(fp))
		rc = PE_EIO;
	return rc;
}
