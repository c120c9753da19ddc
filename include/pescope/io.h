/* File formats and safe writes: NPY (numpy's format, v1.0), CSV, and atomic
 * output through a temporary file that is renamed into place. */
#ifndef PESCOPE_IO_H
#define PESCOPE_IO_H

#include <stdio.h>

#include "pescope.h"

enum pe_dtype { PE_F32, PE_F64, PE_I64 };

/* A table to write: shape up to 3-D, values in one of two buffers. */
struct pe_table {
	size_t ndim;
	size_t shape[3];
	const double *f;  /* when not NULL: floating values */
	const int64_t *i; /* when not NULL: integer values */
};

/* Write t as NPY v1.0, C order, with dtype (<f4, <f8 or <i8). */
int pe_npy_write(FILE *fp, const struct pe_table *t, enum pe_dtype dtype);

/* Write t as CSV, one matrix row per line: %.9g for f32, %.17g for f64,
 * integers plainly; -inf, inf and nan spelled so. A 3-D table writes
 * sub-matrix `head` only. */
int pe_csv_write(FILE *fp, const struct pe_table *t, enum pe_dtype dtype,
    size_t head);

/* Parse an NPY file held in memory: 2-D, little-endian <f4 or <f8 (C order,
 * or Fortran order transposed back). Bounded: survives any bytes. On success
 * *dest is a malloc'd [rows * cols] double array holding the stored values
 * exactly (float32 ones widened). */
int pe_npy_read(const unsigned char *buf, size_t len, double **dest,
    size_t *rows, size_t *cols, const char **why);

/* Read an NPY file the same way without holding the file in memory: the
 * header is checked first (PE_EINVAL: not a regular file; PE_ERANGE: more
 * than max bytes, or a shape past max_rows x max_cols; PE_EFORMAT with
 * *why), then the data is converted in chunks. PE_EIO leaves errno. */
int pe_npy_read_file(const char *path, size_t max, size_t max_rows,
    size_t max_cols, double **dest, size_t *rows, size_t *cols,
    const char **why);

/* As pe_npy_read_file, but a 1-D array [cols] is accepted too and read as
 * one row (*rows = 1); *ndim says which the file held, 1 or 2. */
int pe_npy_read_file_nd(const char *path, size_t max, size_t max_rows,
    size_t max_cols, double **dest, size_t *ndim, size_t *rows, size_t *cols,
    const char **why);

/* As pe_npy_read_file, for an array of 1 to 3 dimensions: its shape into
 * shape[0..*ndim) (C order, Fortran order transposed back), each side at
 * most max_side. */
int pe_npy_read_file_3d(const char *path, size_t max, size_t max_side,
    double **dest, size_t *ndim, size_t shape[3], const char **why);

/* Read a whole file into memory (at most max bytes). */
int pe_file_read(const char *path, size_t max, unsigned char **dest,
    size_t *len);

/* Atomic output: open a temporary file beside path; commit renames it into
 * place, abort removes it. path "-" means standard output (no temp). */
struct pe_atomic {
	FILE *fp;
	char *path;
	char *tmp;
};
int pe_atomic_open(struct pe_atomic *a, const char *path);
int pe_atomic_commit(struct pe_atomic *a);
void pe_atomic_abort(struct pe_atomic *a);

#endif
