/* Shared test helpers: run the real binary, read files, compare numbers. */
#include "helpers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/diag.h"

extern char **environ;

const char *
th_bin(void)
{
	const char *b = getenv("PESCOPE_BIN");
	return b != NULL ? b : "./pescope";
}

const char *
th_fixture(const char *name)
{
	static char buf[4096];
	const char *d = getenv("PESCOPE_FIXTURES");
	snprintf(buf, sizeof buf, "%s/%s", d != NULL ? d : "tests/fixtures",
	    name);
	return buf;
}

const char *
th_src(const char *rel)
{
	static char buf[4096];
	const char *d = getenv("PESCOPE_SRCDIR");
	snprintf(buf, sizeof buf, "%s/%s", d != NULL ? d : ".", rel);
	return buf;
}

/* Append what fd has to a growing buffer; returns 0 at end of file. */
static int
drain(int fd, char **buf, size_t *len, size_t *cap)
{
	char tmp[65536];
	ssize_t n = read(fd, tmp, sizeof tmp);
	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : 0;
	if (*len + (size_t)n + 1 > *cap) {
		while (*len + (size_t)n + 1 > *cap)
			*cap = *cap ? *cap * 2 : 65536;
		*buf = realloc(*buf, *cap);
	}
	memcpy(*buf + *len, tmp, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return 1;
}

int
th_run(const char *const *argv, const char *const *extra_env, char **out,
    size_t *out_len, char **err)
{
	int po[2], pe[2];
	if (pipe(po) != 0 || pipe(pe) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		for (size_t i = 0; extra_env != NULL && extra_env[i]; i++)
			putenv((char *)extra_env[i]);
		size_t n = 0;
		while (argv[n] != NULL)
			n++;
		char **av = calloc(n + 1, sizeof *av);
		av[0] = (char *)th_bin();
		for (size_t i = 1; i < n; i++)
			av[i] = (char *)argv[i];
		execv(av[0], av);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	char *ob = NULL, *eb = NULL;
	size_t ol = 0, oc = 0, el = 0, ec = 0;
	struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
		for (int k = 0; k < 2; k++) {
			if (fds[k].fd < 0 || fds[k].revents == 0)
				continue;
			int more = k == 0 ? drain(fds[k].fd, &ob, &ol, &oc)
					  : drain(fds[k].fd, &eb, &el, &ec);
			if (!more) {
				close(fds[k].fd);
				fds[k].fd = -1;
				open_fds--;
			}
		}
	}
	int st = 0;
	waitpid(pid, &st, 0);
	if (ob == NULL)
		ob = calloc(1, 1);
	if (eb == NULL)
		eb = calloc(1, 1);
	if (out != NULL)
		*out = ob;
	else
		free(ob);
	if (out_len != NULL)
		*out_len = ol;
	if (err != NULL)
		*err = eb;
	else
		free(eb);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *
th_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (fp == NULL)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 131072;
			buf = realloc(buf, cap);
		}
		size_t r = fread(buf + n, 1, 65536, fp);
		n += r;
		if (r == 0)
			break;
	}
	fclose(fp);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

char *
th_tmpdir(void)
{
	char *t = strdup("/tmp/pescope-test-XXXXXX");
	if (mkdtemp(t) == NULL) {
		free(t);
		return NULL;
	}
	return t;
}

int
th_dir_count(const char *dir)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

bool
th_close(double a, double b, double atol, double rtol)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return a == b;
	return fabs(a - b) <= atol + rtol * fabs(b);
}

/* Deterministic pseudo-random numbers (64-bit LCG, Knuth's MMIX). */
uint64_t
th_lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* Brute-force statistics of a rectangle of a diagonal field. */
void
th_diag_brute(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, struct pe_stats *s)
{
	long double sum = 0;
	uint64_t cnt = 0;
	memset(s, 0, sizeof *s);
	s->min = INFINITY;
	s->max = -INFINITY;
	for (size_t i = r0; i < r1; i++)
		for (size_t j = c0; j < c1; j++) {
			double v = pe_diag_value(f, i, j);
			s->count++;
			if (v == -INFINITY) {
				s->masked++;
				continue;
			}
			sum += v;
			cnt++;
			s->min = fmin(s->min, v);
			s->max = fmax(s->max, v);
		}
	s->mean = cnt ? (double)(sum / cnt) : NAN;
	if (!cnt)
		s->min = s->max = NAN;
}
