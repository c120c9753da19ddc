/* Atomic output: write into a temporary file beside the target, then
 * rename it into place (rename(2) replaces atomically within a file
 * system), so a reader never sees a half-written file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io.h"

/* Reset a to the closed state, freeing its names; errno is kept, so a
 * caller can say why an open failed. */
static void
atomic_clear(struct pe_atomic *a)
{
	int saved = errno;
	free(a->path);
	free(a->tmp);
	a->fp = NULL;
	a->path = NULL;
	a->tmp = NULL;
	errno = saved;
}

/* Mode for the new file: the target's permissions when it exists as a
 * regular file, else 0644 less the umask. */
static mode_t
atomic_mode(const char *path)
{
	struct stat st;
	mode_t u;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 07777;
	u = umask(022);
	umask(u);
	return 0644 & ~u;
}

/* Open a device, FIFO or terminal at path to write in place: never
 * truncated, never made our controlling terminal, and a FIFO nobody reads
 * is refused (ENXIO) instead of waiting for a reader. ATOMIC_REGULAR when
 * what was opened is a regular file after all (the name was replaced since
 * it was looked at). */
#define ATOMIC_REGULAR 1
static int
atomic_in_place(struct pe_atomic *a, const char *path)
{
	struct stat st = {0};
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return PE_EIO;
	if (fstat(fd, &st) != 0 || S_ISREG(st.st_mode) ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	    (a->fp = fdopen(fd, "wb")) == NULL) {
		bool reg = S_ISREG(st.st_mode);
		int saved = errno;
		close(fd);
		errno = saved;
		return reg ? ATOMIC_REGULAR : PE_EIO;
	}
	return PE_OK;
}

/* Open a temporary file ".<name>.XXXXXX" in the target's folder. path "-"
 * means standard output, and an existing non-regular target (a device) is
 * written in place; neither has a temp file. Returns PE_EINVAL for an empty
 * path, PE_EIO when the folder is not writable, PE_ENOMEM. */
int
pe_atomic_open(struct pe_atomic *a, const char *path)
{
	const char *slash, *base;
	size_t dirlen;
	int fd;

	if (a == NULL)
		return PE_EINVAL;
	a->fp = NULL;
	a->path = a->tmp = NULL;
	a->nosync = false;
	if (path == NULL || *path == '\0')
		return PE_EINVAL;
	if ((a->path = strdup(path)) == NULL)
		return PE_ENOMEM;
	if (strcmp(path, "-") == 0) {
		a->fp = stdout;
		return PE_OK;
	}
	/* A target that exists and is not a regular file (/dev/null, a FIFO,
	 * a terminal) is written in place: renaming over it would replace the
	 * device with a file. A folder is refused. */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			atomic_clear(a);
			return PE_EINVAL;
		}
		int rc = atomic_in_place(a, path);
		if (rc != PE_OK && rc != ATOMIC_REGULAR)
			atomic_clear(a);
		if (rc != ATOMIC_REGULAR)
			return rc;
		/* it became a regular file meanwhile: a temporary file */
	}
	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	dirlen = slash != NULL ? (size_t)(slash - path) + 1 : 0;
	if (*base == '\0') {
		errno = EISDIR;
		atomic_clear(a);
		return PE_EINVAL; /* a folder, not a file */
	}
	/* folder/ + "." + base + ".XXXXXX" */
	size_t cap = dirlen + 1 + strlen(base) + 8;
	if ((a->tmp = malloc(cap)) == NULL) {
		atomic_clear(a);
		return PE_ENOMEM;
	}
	snprintf(a->tmp, cap, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	if ((fd = mkostemp(a->tmp, O_CLOEXEC)) < 0) {
		atomic_clear(a);
		return PE_EIO;
	}
	if (fchmod(fd, atomic_mode(path)) != 0 ||
	    (a->fp = fdopen(fd, "wb")) == NULL) {
		int saved = errno;
		close(fd);
		unlink(a->tmp);
		errno = saved;
		atomic_clear(a);
		return PE_EIO;
	}
	return PE_OK;
}

/* Whether path can be written as pe_atomic_open would, looking only:
 * PE_OK, PE_EINVAL (empty, or a folder: errno EISDIR) or PE_EIO with
 * errno (the folder it is in is missing or not writable). Nothing is
 * created. */
int
pe_atomic_check(const char *path)
{
	struct stat st;
	if (path == NULL || *path == '\0')
		return PE_EINVAL;
	if (strcmp(path, "-") == 0)
		return PE_OK;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return PE_EINVAL;
		}
		return access(path, W_OK) == 0 ? PE_OK : PE_EIO;
	}
	const char *slash = strrchr(path, '/');
	if (slash != NULL && slash[1] == '\0') {
		errno = EISDIR;
		return PE_EINVAL;
	}
	char *dir = slash == NULL ? strdup(".")
	    : slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	if (dir == NULL)
		return PE_ENOMEM;
	int ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
	if (ok == 0 && !S_ISDIR(st.st_mode))
		errno = ENOTDIR;
	if (ok == 0)
		ok = access(dir, W_OK | X_OK);
	int saved = errno;
	free(dir);
	errno = saved;
	return ok == 0 ? PE_OK : PE_EIO;
}

/* Flush, sync (unless a->nosync) and close the temporary file, keeping it (a->fp is NULL
 * afterwards); PE_EIO when a write failed. */
int
pe_atomic_finish(struct pe_atomic *a)
{
	int rc = PE_OK;

	if (a == NULL || a->fp == NULL || a->tmp == NULL)
		return PE_EINVAL;
	if (fflush(a->fp) != 0 || ferror(a->fp) || (!a->nosync &&
	    fsync(fileno(a->fp)) != 0 && errno != EINVAL && errno != EROFS))
		rc = PE_EIO;
	int saved = errno;
	if (fclose(a->fp) != 0 && rc == PE_OK)
		rc = PE_EIO;
	else
		errno = saved;
	a->fp = NULL;
	return rc;
}

/* Give a finished temporary file a second name, never replacing a file:
 * PE_EIO with errno EEXIST when path exists. */
int
pe_atomic_link(const struct pe_atomic *a, const char *path)
{
	if (a == NULL || a->fp != NULL || a->tmp == NULL)
		return PE_EINVAL;
	return link(a->tmp, path) == 0 ? PE_OK : PE_EIO;
}

/* Flush, sync and rename the temporary file into place; on any failure the
 * temporary file is removed and PE_EIO returned. Standard output is only
 * flushed. The struct is closed afterwards either way. */
int
pe_atomic_commit(struct pe_atomic *a)
{
	int rc = PE_OK;

	if (a == NULL || a->fp == NULL)
		return PE_EINVAL;
	if (a->tmp == NULL) { /* standard output, or a device written in place */
		if (fflush(a->fp) != 0 || ferror(a->fp))
			rc = PE_EIO;
		if (a->fp != stdout && fclose(a->fp) != 0)
			rc = PE_EIO;
		atomic_clear(a);
		return rc;
	}
	rc = pe_atomic_finish(a);
	if (rc == PE_OK && rename(a->tmp, a->path) != 0)
		rc = PE_EIO;
	if (rc != PE_OK) {
		int saved = errno;
		unlink(a->tmp);
		errno = saved;
	}
	atomic_clear(a);
	return rc;
}

/* As pe_atomic_commit, but a temporary file that cannot be renamed into
 * place is kept, its name copied to kept[cap] ("" when none was kept):
 * what it holds is worth more than a clean folder (a recording). */
int
pe_atomic_commit_keep(struct pe_atomic *a, char *kept, size_t cap)
{
	if (cap > 0)
		kept[0] = '\0';
	if (a == NULL || a->fp == NULL)
		return PE_EINVAL;
	if (a->tmp == NULL)
		return pe_atomic_commit(a);
	int rc = pe_atomic_finish(a);
	int saved = errno;
	if (rename(a->tmp, a->path) != 0) {
		saved = errno;
		rc = PE_EIO;
		if (cap > 0)
			snprintf(kept, cap, "%s", a->tmp);
	}
	atomic_clear(a);
	errno = saved;
	return rc;
}

/* Close and remove the temporary file, leaving any old target untouched;
 * standard output is left open. Safe on a closed struct. */
void
pe_atomic_abort(struct pe_atomic *a)
{
	if (a == NULL)
		return;
	if (a->tmp != NULL) { /* open, or finished and kept */
		if (a->fp != NULL)
			fclose(a->fp);
		unlink(a->tmp);
	} else if (a->fp != NULL && a->fp != stdout) {
		fclose(a->fp); /* a device written in place */
	}
	atomic_clear(a);
}
