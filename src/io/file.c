/* Reading whole files, with a cap on their size. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "io/io.h"

/* Read a whole file (path "-" is standard input) into a malloc'd buffer
 * with a NUL byte after the last one. Returns PE_EIO when it cannot be
 * opened or read (errno says why), PE_EINVAL for a folder or a device
 * (only regular files, pipes and standard input are read), PE_ERANGE when
 * it holds more than max bytes (a regular file is measured before it is
 * read), PE_ENOMEM when memory runs out. */
int
pe_file_read(const char *path, size_t max, unsigned char **dest, size_t *len)
{
	FILE *fp;
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = PE_OK;

	if (path == NULL || dest == NULL || len == NULL || max == SIZE_MAX)
		return PE_EINVAL;
	*dest = NULL;
	*len = 0;
	fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (fp == NULL)
		return PE_EIO;
	struct stat st;
	if (fp != stdin && fstat(fileno(fp), &st) == 0 &&
	    (!(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) ||
		(S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max))) {
		fclose(fp);
		return S_ISREG(st.st_mode) ? PE_ERANGE : PE_EINVAL;
	}
	for (;;) {
		if (n == cap) {
			/* Grow geometrically, but never past max + 1 (one byte
			 * more than allowed tells that the file is too big). */
			size_t want = cap == 0 ? 65536 : cap * 2;
			if (want > max + 1 || want < cap)
				want = max + 1;
			if (want <= cap) {
				rc = PE_ERANGE;
				break;
			}
			unsigned char *nb = realloc(buf, want + 1);
			if (nb == NULL) {
				rc = PE_ENOMEM;
				break;
			}
			buf = nb;
			cap = want;
		}
		size_t got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (n > max) {
			rc = PE_ERANGE;
			break;
		}
		if (got == 0) {
			if (ferror(fp))
				rc = PE_EIO;
			break;
		}
	}
	if (fp != stdin)
		fclose(fp);
	if (rc != PE_OK) {
		free(buf);
		return rc;
	}
	if (buf == NULL && (buf = malloc(1)) == NULL)
		return PE_ENOMEM;
	buf[n] = '\0';
	*dest = buf;
	*len = n;
	return PE_OK;
}

/* A failed write's errno in words; see io.h. */
const char *
pe_io_why(int err)
{
	switch (err) {
	case EFBIG: /* "File too large" would blame the file */
		return "file size limit exceeded";
	case 0:
		return "an unknown error";
	}
	return strerror(err);
}

/* Milliseconds on the monotonic clock. */
long long
pe_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
