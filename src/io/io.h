/* File formats and safe writes: NPY (numpy's format, v1.0), CSV, and atomic
 * output through a temporary file that is renamed into place. */
#ifndef PESCOPE_IO_H
#define PESCOPE_IO_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "pescope/pescope.h"

enum pe_dtype { PE_F32, PE_F64, PE_I64 };

/* A table to write: shape up to 3-D, values in one of two buffers. */
struct pe_table {
	size_t ndim;
	size_t shape[3];
	const double *f;  /* when not NULL: floating values */
	const int64_t *i; /* when not NULL: integer values */
};

/* Write t as NPY v1.0, C order, with dtype (<f4, <f8 or <i8): the header
 * (pe_npy_header), then the data (pe_npy_encode). */
int pe_npy_write(FILE *fp, const struct pe_table *t, enum pe_dtype dtype);

/* Write t as CSV, one matrix row per line: %.9g for f32, %.17g for f64,
 * integers plainly; -inf, inf and nan spelled so. A 3-D table writes
 * sub-matrix `head` only (pe_csv_encode, row by row). */
int pe_csv_write(FILE *fp, const struct pe_table *t, enum pe_dtype dtype,
    size_t head);

/* Streamed tables: a header, then the values in C order, a chunk at a
 * time. PE_NPY_HEADER_MAX bounds the header's bytes. */
#define PE_NPY_HEADER_MAX 256
/* The NPY v1.0 header (magic, version, length, dict, padding to 64) of an
 * array of shape[ndim] (1 to 3 axes) and dtype into dest; returns its
 * length, or 0 for a bad shape or dtype. */
size_t pe_npy_header(size_t ndim, const size_t *shape, enum pe_dtype dtype,
    unsigned char *dest);
/* count values as dtype's little-endian bytes into dest (4 or 8 each,
 * dest aligned to 8): from f (rounded to float32 for PE_F32), or from i
 * when f is NULL. */
void pe_npy_encode(const double *f, const int64_t *i, size_t count,
    enum pe_dtype dtype, unsigned char *dest);

/* Bytes a CSV line of cols values can take, newline included. */
size_t pe_csv_line_max(size_t cols);
/* rows x cols values (row-major, from f, or from i when f is NULL) as CSV
 * lines into dest (room for rows * pe_csv_line_max(cols) bytes); returns
 * the bytes written. The text is pe_csv_write's. */
size_t pe_csv_encode(const double *f, const int64_t *i, size_t rows,
    size_t cols, enum pe_dtype dtype, char *dest);

/* Longest text of pe_dtoa_g with its NUL ("-2.2250738585072014e-308"). */
#define PE_DTOA_MAX 32
/* v as printf("%.*g", precision, v) writes it in the C locale (precision
 * 1..17), except that every NaN is "nan" (never "-nan"); several times
 * faster. Returns the length; dest gets a NUL too. */
size_t pe_dtoa_g(double v, int precision, char *dest);

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

/* Why a write failed, for a message: "file size limit exceeded" for EFBIG
 * (ulimit -f), else strerror's words ("No space left on device"). */
const char *pe_io_why(int err);

/* Milliseconds on the monotonic clock (timeouts, periods). */
long long pe_clock_ms(void);

/* Read a whole file into memory (at most max bytes). */
int pe_file_read(const char *path, size_t max, unsigned char **dest,
    size_t *len);

/* Atomic output: open a temporary file beside path; commit renames it into
 * place, abort removes it. path "-" means standard output (no temp). */
struct pe_atomic {
	FILE *fp;
	char *path;
	char *tmp;
	/* set after open for a file whose loss in a crash costs nothing
	 * (the lesson's place): finished and renamed without fsync */
	bool nosync;
};
int pe_atomic_open(struct pe_atomic *a, const char *path);
/* Whether pe_atomic_open could write path, by looking only (nothing is
 * created): PE_OK; PE_EINVAL for an empty name or a folder (errno
 * EISDIR); PE_EIO with errno when its folder is missing or not
 * writable. */
int pe_atomic_check(const char *path);
/* For names that must not replace a file (the TUI's snapshots): finish
 * writes and closes the temporary file but keeps it; link gives it a name
 * that does not exist yet (PE_EIO, errno EEXIST, when it does); abort
 * removes the temporary file. */
int pe_atomic_finish(struct pe_atomic *a);
int pe_atomic_link(const struct pe_atomic *a, const char *path);
int pe_atomic_commit(struct pe_atomic *a);
/* As commit, but when the rename fails the temporary file is kept and its
 * name copied to kept[cap] (else kept is ""). */
int pe_atomic_commit_keep(struct pe_atomic *a, char *kept, size_t cap);
void pe_atomic_abort(struct pe_atomic *a);

/* The link of a presenting instance and a speaker's (link.c): a Unix
 * stream socket of text lines, every descriptor non-blocking, in a folder
 * of the user's own, both ends checked to be the same user before anything
 * is read. */
struct pe_link {
	char path[108];	  /* sun_path's room */
	bool server;	  /* listening (the presenter) */
	int listen_fd;	  /* the presenter's listening socket, or -1 */
	int fd;		  /* the peer, or -1 */
	char buf[512];	  /* what has arrived of the next line */
	size_t have;
	bool skip;	  /* dropping a line too long, to its newline */
	char why[240];	  /* PE_LINK_UNSAFE, PE_LINK_REFUSED: the reason */
};
/* Results besides PE_OK, PE_EINVAL and PE_EIO. */
#define PE_LINK_BUSY 1	 /* listen: another instance listens on the path */
#define PE_LINK_WAIT 2	 /* connect: nobody listens yet; send: try later */
#define PE_LINK_UNSAFE 3 /* listen, connect: the folder or the socket is
			    not the user's own (or the listener is another
			    user): l->why says which; try again later */
/* What pe_link_poll found. */
enum { PE_LINK_NONE, PE_LINK_LINE, PE_LINK_JOINED, PE_LINK_LEFT,
	PE_LINK_REFUSED /* a peer of another user: dropped unread (why) */ };

/* The default path of a lesson's link: $XDG_RUNTIME_DIR/pescope-NAME.sock
 * when that folder is the user's alone (owner, mode 700), else
 * ${TMPDIR:-/tmp}/pescope-UID/NAME.sock, that folder made owner-only if
 * missing and refused when it is not the user's own, a symbolic link, or
 * open to others (lstat). NAME is lesson's up to its first '.', other
 * bytes than letters, digits and '-' as '_'. PE_OK, or PE_EINVAL with the
 * reason in why[wcap] (path too long, folder not usable). */
int pe_link_default(char *path, size_t cap, const char *lesson, char *why,
    size_t wcap);
/* Whether path can ever be a link's (short enough): PE_OK, or PE_EINVAL
 * with the reason (naming --link) in err. What is at the path is looked at
 * on each use instead (pe_link_listen, pe_link_connect). */
int pe_link_check(const char *path, char *err, size_t cap);
void pe_link_init(struct pe_link *l, const char *path);
/* Listen on the path (mode 0600; a stale socket of ours is replaced):
 * PE_OK, PE_LINK_BUSY, PE_LINK_UNSAFE (the folder is not the user's own:
 * owned by another user, a symbolic link, or others may write in it; a
 * file or another user's socket at the path), PE_EINVAL (too long) or
 * PE_EIO. */
int pe_link_listen(struct pe_link *l);
/* Connect to a listening instance: PE_OK, PE_LINK_WAIT, or PE_LINK_UNSAFE
 * (the folder as for listen; a socket not ours; a listener of another
 * user, by its credentials, SO_PEERCRED). Checked on every call. */
int pe_link_connect(struct pe_link *l);
/* Accept a peer (a new one replaces the old; one of another user is
 * dropped before anything is read: PE_LINK_REFUSED) or read one line into
 * line[cap] (without its newline; a line longer than the buffer is
 * dropped whole): PE_LINK_JOINED, PE_LINK_LINE, PE_LINK_LEFT (the peer
 * closed; the link waits again), PE_LINK_REFUSED, PE_LINK_NONE. */
int pe_link_poll(struct pe_link *l, char *line, size_t cap);
/* Send one line (without its newline, < 255 bytes): PE_OK, PE_LINK_WAIT
 * (no peer, or its buffer is full) or PE_EIO (the peer went; dropped). */
int pe_link_send(struct pe_link *l, const char *line);
bool pe_link_connected(const struct pe_link *l);
/* Close; the listening side removes its socket. */
void pe_link_close(struct pe_link *l);

/* A message of the link: "hello T0 K S" (the presenter's start time in
 * seconds since the epoch, its scene and step), "goto K S", "here K S"
 * (where a speaker's view is when it links: a presenter that resumed
 * takes it) or "blank B" (the audience's screen blanked, 1, or back,
 * 0). */
enum { PE_LINK_HELLO, PE_LINK_GOTO, PE_LINK_HERE, PE_LINK_BLANK };
struct pe_link_msg {
	int kind;
	long long t0;
	size_t scene, step; /* from 0 */
	bool blank;
};
/* Most seconds a start time may be from now. */
#define PE_LINK_DAY 86400
/* Parse a line of the link, every field bounded: words separated by one
 * space, numbers plain decimal digits (no sign), scene < nscenes, step <
 * steps(arg, scene), t0 within PE_LINK_DAY of now. PE_OK, or PE_EFORMAT
 * with the reason in why[cap] (which quotes no byte of the line that was
 * not checked: a caller quoting it escapes it). */
int pe_link_parse(const char *line, long long now, size_t nscenes,
    size_t (*steps)(const void *arg, size_t scene), const void *arg,
    struct pe_link_msg *m, char *why, size_t cap);

/* asciicast v2 (cast.c), the format of `asciinema rec`: lines of JSON.
 * The header line (version 2, width, height, timestamp in seconds since
 * the epoch, env with TERM) into dest[cap]; returns its length with the
 * newline, or 0 when it does not fit. */
size_t pe_cast_header(char *dest, size_t cap, int w, int h, long long timestamp,
    const char *term);
/* The room pe_cast_event needs for len bytes of data. */
size_t pe_cast_event_max(size_t len);
/* The event line [t, "code", "data"] (code 'o': bytes written to the
 * terminal; 'r': a resize, data "COLSxROWS") with t in seconds (6
 * decimals) into dest (pe_cast_event_max(len) bytes); data escaped for
 * JSON, a byte that is not UTF-8 written as U+FFFD. Returns its length
 * with the newline. */
size_t pe_cast_event(char *dest, double t, char code, const char *data,
    size_t len);
/* Append line[0..len) to the recording fd, whose last whole line ends at
 * *end: 0 and *end moved past it; or -1 with errno when the write failed
 * or was cut short (a full disk, a file size limit), the file cut back to
 * *end, so that it ends with a whole line. */
int pe_cast_write(int fd, const char *line, size_t len, off_t *end);
/* The length of data's longest prefix that does not end inside a UTF-8
 * sequence: the rest belongs with the bytes that follow. */
size_t pe_cast_utf8_whole(const char *data, size_t len);

#endif
