/* dump's tables whose rows are windows of one line per head (a function
 * of query - key: alibi's bias, the mask, a wave's similarity): the lines
 * made once by the prep, each row a copy of its window. */
#include <stdlib.h>
#include <string.h>

#include "app/dump_impl.h"

/* Most bytes a table's lines may take (dump_prep's line, line32); past it
 * each fill makes its rows itself. */
#define DUMP_LINES_BYTES ((size_t)16 << 20)

/* Make x->p's nlines lines of 2n - 1 values, line h by line(x, h, dest),
 * and for a float32 dump their floats, when they fit in DUMP_LINES_BYTES
 * (PE_OK either way). */
int
dump_prep_lines(struct dump_ctx *x, size_t nlines,
    int (*line)(const struct dump_ctx *x, size_t h, double *dest))
{
	size_t len = 2 * x->n - 1, per = x->dtype == PE_F32 ? 12 : 8;

	if (nlines > DUMP_LINES_BYTES / per / len)
		return PE_OK;
	x->p.line = malloc(nlines * len * sizeof *x->p.line);
	if (x->p.line == NULL)
		return PE_ENOMEM;
	for (size_t h = 0; h < nlines; h++) {
		int st = line(x, h, x->p.line + h * len);
		if (st != PE_OK)
			return st;
	}
	if (x->dtype == PE_F32) {
		x->p.line32 = malloc(nlines * len * sizeof *x->p.line32);
		if (x->p.line32 == NULL)
			return PE_ENOMEM;
		for (size_t k = 0; k < nlines * len; k++)
			x->p.line32[k] = (float)x->p.line[k];
	}
	x->p.nlines = nlines;
	return PE_OK;
}

/* Rows [r0, r1) from the lines (row r: line r / n, query r % n), as
 * doubles or (f32) floats: each a copy of the row's window. */
void
dump_lines_rows(const struct dump_ctx *x, size_t r0, size_t r1, void *dest,
    bool f32)
{
	size_t n = x->n, len = 2 * n - 1;

	for (size_t r = r0; r < r1; r++) {
		size_t at = (r / n) * len + (n - 1 - r % n);
		if (f32)
			memcpy((float *)dest + (r - r0) * n, x->p.line32 + at,
			    n * sizeof(float));
		else
			memcpy((double *)dest + (r - r0) * n, x->p.line + at,
			    n * sizeof(double));
	}
}

/* Rows [r0, r1) as floats of fill's doubles, a row at a time: a table
 * whose lines did not fit. */
static int
fill32_by_rows(const struct dump_ctx *x, size_t r0, size_t r1, float *dest)
{
	double *row = malloc(x->rowlen * sizeof *row);
	int st = row == NULL ? PE_ENOMEM : PE_OK;

	for (size_t r = r0; st == PE_OK && r < r1; r++) {
		st = x->t->fill(x, r, r + 1, row);
		for (size_t k = 0; st == PE_OK && k < x->rowlen; k++)
			dest[(r - r0) * x->rowlen + k] = (float)row[k];
	}
	free(row);
	return st;
}

/* A table of lines as floats: copies of windows, or row by row. */
int
dump_fill32_lines(const struct dump_ctx *x, size_t r0, size_t r1, float *dest)
{
	if (x->p.line32 == NULL)
		return fill32_by_rows(x, r0, r1, dest);
	dump_lines_rows(x, r0, r1, dest, true);
	return PE_OK;
}
