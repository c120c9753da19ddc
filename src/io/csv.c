/* CSV output of a table: one matrix row per line, values separated by
 * commas, numbers printed so that they read back to the same value. */
#include <inttypes.h>
#include <math.h>

#include "io/io.h"

/* Print one floating value: %.9g of the value rounded to float for f32
 * (9 significant digits round-trip a float, IEEE 754-2008 sec. 5.12.2),
 * %.17g for f64; -inf, inf and nan spelled so (never "-nan"). */
static int
csv_value(FILE *fp, double v, enum pe_dtype dtype)
{
	if (dtype == PE_F32)
		v = (double)(float)v;
	if (isnan(v))
		return fputs("nan", fp);
	if (isinf(v))
		return fputs(v < 0 ? "-inf" : "inf", fp);
	return fprintf(fp, dtype == PE_F32 ? "%.9g" : "%.17g", v);
}

/* Write t as CSV, one matrix row per line. A 1-D table is written as a
 * column (one value per line); a 3-D table writes sub-matrix `head` only;
 * an empty one writes nothing.
 * Integers are printed plainly, from t->i. Returns PE_EINVAL for a bad
 * table, dtype or head, PE_EIO when writing fails. */
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
	if (rows > SIZE_MAX / cols)
		return PE_EINVAL;

	for (size_t r = 0; r < rows; r++) {
		for (size_t c = 0; c < cols; c++) {
			size_t k = base + r * cols + c;
			if (c > 0 && putc(',', fp) == EOF)
				return PE_EIO;
			int rc = dtype == PE_I64
			             ? fprintf(fp, "%" PRId64, t->i[k])
			             : csv_value(fp,
			                         t->f != NULL ? t->f[k]
			                                      : (double)t->i[k],
			                         dtype);
			if (rc < 0)
				return PE_EIO;
		}
		if (putc('\n', fp) == EOF)
			return PE_EIO;
	}
	return ferror(fp) ? PE_EIO : PE_OK;
}
