/* dump's streamed output: a table's rows filled a chunk at a time by a
 * pool of threads, encoded (NPY bytes or CSV text) by the same threads and
 * written in order by the calling one, so memory holds a few chunks
 * whatever the table's size and the bytes never depend on the thread
 * count. Private to src/app. */
#ifndef PESCOPE_APP_STREAM_H
#define PESCOPE_APP_STREAM_H

#include <stdbool.h>
#include <stdio.h>

#include "io/io.h"

/* Most threads a stream uses. */
#define PE_STREAM_MAX_THREADS 256

/* What to stream: rows [row0, row0 + rows) of rowlen values each. */
struct pe_stream {
	size_t row0, rows, rowlen;
	bool ints;		/* fill writes int64 (else double) */
	enum pe_dtype dtype;	/* how the values are written */
	bool csv;		/* CSV lines (else NPY data) */
	/* rows [r0, r1) into dest ((r1 - r0) * rowlen values); NULL: no
	 * values, the chunks are memset (the bench's yardstick) */
	int (*fill)(const void *arg, size_t r0, size_t r1, void *dest);
	/* NULL, or rows [r0, r1) straight into NPY data of dtype (the host's
	 * order, little-endian): the bytes fill and the encoding would make,
	 * with no double in between. Its values are within dtype's range (a
	 * float32 overflow is not looked for). Used for NPY on a
	 * little-endian host. */
	int (*fill_bytes)(const void *arg, size_t r0, size_t r1, void *dest);
	const void *arg;
	size_t threads;		/* 1 .. PE_STREAM_MAX_THREADS */
	bool progress;		/* a progress bar on stderr past a second */
};

/* How a stream ended. */
struct pe_stream_result {
	int st;			/* PE_OK, a fill's status, PE_EIO, PE_ENOMEM */
	int err;		/* PE_EIO: the write's errno */
	bool overflow;		/* f32: a finite value past float32's range */
	size_t entry;		/* its index in the whole table */
	double value;		/* and its value */
	double seconds;		/* wall time of the stream */
	double bytes;		/* bytes encoded */
};

/* Fill, encode and write s's rows to fp (NULL: encode only) in order. Stops
 * at the first failing chunk (in row order, so the same one for any thread
 * count); the rows before it may have been written. Returns res->st. */
int pe_stream_run(const struct pe_stream *s, FILE *fp,
    struct pe_stream_result *res);

/* The machine's online CPUs (at least 1, at most PE_STREAM_MAX_THREADS). */
size_t pe_stream_cpus(void);

/* While a temporary output file exists: every signal whose default action
 * ends the program (faults and real-time signals too) removes it, then has
 * the action it had before (the default ends the process as the signal
 * would; one ignored from the start, as under nohup, stays ignored).
 * SIGXFSZ does not end it: a write past the file size limit fails with
 * EFBIG, and pe_stream_run stops with PE_EIO and err EFBIG (pe_io_why
 * says so). path NULL restores the previous actions. */
void pe_stream_guard(const char *path);
/* Whether SIGXFSZ arrived while guarding. */
bool pe_stream_guard_xfsz(void);


#endif
