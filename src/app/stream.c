/* dump's streamed output (stream.h). The rows are cut into chunks of a
 * fixed number of rows; worker threads claim chunks in order, fill and
 * encode each into a slot of a small ring, and the calling thread writes
 * the slots in chunk order. A chunk's bytes depend on its rows only, so the
 * output is the same for any thread count; memory is the ring, whatever
 * the table's size. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/stream.h"

/* Values a chunk aims at: NPY (binary) and CSV (text, 32 bytes a value at
 * most). A chunk is at least one row. */
#define STREAM_CHUNK_NPY ((size_t)1 << 17)
#define STREAM_CHUNK_CSV ((size_t)1 << 15)
/* Bytes the ring of slots may take (a slot is at least one chunk). */
#define STREAM_RING_BYTES ((size_t)32 << 20)
/* Progress: drawn after this long, then at most this often (seconds). */
#define STREAM_PROGRESS_AFTER 1.0
#define STREAM_PROGRESS_EVERY 0.1

/* SIGXFSZ arrived while a temporary file was guarded: a write passed the
 * file size limit (it fails with EFBIG), or someone sent it; either way
 * the stream stops and says so. */
static volatile sig_atomic_t guard_xfsz;

/* One chunk in the ring. */
struct stream_slot {
	size_t chunk;		/* which chunk it holds */
	bool ready;		/* filled and encoded, not yet written */
	int st;			/* the fill's status */
	bool overflow;		/* f32: a value past float32's range */
	size_t entry;		/* its index in the table */
	double value;
	void *vals;		/* the chunk's values (double or int64) */
	unsigned char *out;	/* their bytes (vals itself when direct) */
	size_t len;		/* bytes in out */
};

/* A stream being run. */
struct stream_run {
	const struct pe_stream *s;
	size_t chunk_rows, nchunks, nslots;
	bool direct;		/* NPY bytes are the values themselves */
	bool bytes;		/* fill_bytes writes them (no values) */
	struct stream_slot *slots;
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* a slot became ready or free, or stop */
	size_t next;		/* next chunk to claim */
	size_t written;		/* chunks written: their slots are free */
	bool stop;
};

/* Monotonic seconds. */
static double
stream_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The machine's online CPUs. */
size_t
pe_stream_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > (long)PE_STREAM_MAX_THREADS ? PE_STREAM_MAX_THREADS
					       : (size_t)n;
}

/* Whether a finite value of f[count] is past float32's range (round to
 * nearest overflows from 2^128 - 2^103, halfway past FLT_MAX, on): the
 * first at *at. */
static bool
stream_scan_f32(const double *f, size_t count, size_t *at)
{
	for (*at = 0; *at < count; (*at)++)
		if (isfinite(f[*at]) && fabs(f[*at]) >= 0x1.ffffffp+127)
			return true;
	return false;
}

/* The hot loops built for the vector units too, picked at load time. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define STREAM_CLONES __attribute__((target_clones("avx512f", "avx2", \
    "default")))
#else
#define STREAM_CLONES
#endif

/* Whether a finite value of f[count] was written to float32 o[count] as
 * an infinity (past float32's range), and the first such at *at: a
 * branch-free pass over the floats' bits, then a search only when one is
 * infinite. */
STREAM_CLONES static bool
stream_past_f32(const double *f, const unsigned char *o, size_t count,
    size_t *at)
{
	const uint32_t *u = (const uint32_t *)(const void *)o;
	int any = 0;

	for (size_t k = 0; k < count; k++)
		any |= (u[k] & 0x7fffffffu) == 0x7f800000u;
	return any && stream_scan_f32(f, count, at);
}

/* Fill, check and encode chunk c into slot sl. */
static void
stream_chunk(const struct stream_run *run, size_t c, struct stream_slot *sl)
{
	const struct pe_stream *s = run->s;
	size_t r0 = s->row0 + c * run->chunk_rows;
	size_t r1 = r0 + run->chunk_rows;
	if (r1 > s->row0 + s->rows)
		r1 = s->row0 + s->rows;
	size_t count = (r1 - r0) * s->rowlen, k;

	sl->st = PE_OK;
	sl->overflow = false;
	if (s->fill == NULL) { /* the yardstick: as many bytes, memset */
		size_t es = s->dtype == PE_F32 ? 4 : 8;
		sl->len = count * es;
		memset(sl->out, (int)(c & 0x7f), sl->len);
		return;
	}
	if (run->bytes) {
		sl->len = count * (s->dtype == PE_F32 ? 4 : 8);
		sl->st = s->fill_bytes(s->arg, r0, r1, sl->out);
		return;
	}
	sl->st = s->fill(s->arg, r0, r1, sl->vals);
	if (sl->st != PE_OK)
		return;
	const double *f = s->ints ? NULL : sl->vals;
	const int64_t *iv = s->ints ? sl->vals : NULL;
	if (s->csv) {
		sl->len = pe_csv_encode(f, iv, r1 - r0, s->rowlen, s->dtype,
		    (char *)sl->out);
	} else {
		sl->len = count * (s->dtype == PE_F32 ? 4 : 8);
		if (!run->direct)
			pe_npy_encode(f, iv, count, s->dtype, sl->out);
	}
	/* float32's range: checked on the NPY bytes, or on the values for
	 * CSV (whose text costs far more) */
	if (f != NULL && s->dtype == PE_F32) {
		if (s->csv ? stream_scan_f32(f, count, &k)
			   : stream_past_f32(f, sl->out, count, &k)) {
			sl->overflow = true;
			sl->entry = r0 * s->rowlen + k;
			sl->value = f[k];
		}
	}
}

/* With run->mu held: when the next chunk's slot is free, claim the chunk,
 * fill it with the lock released, hand it over and return true. */
static bool
stream_claim(struct stream_run *run)
{
	if (run->stop || run->next >= run->nchunks ||
	    run->next >= run->written + run->nslots)
		return false;
	size_t c = run->next++;
	struct stream_slot *sl = &run->slots[c % run->nslots];
	sl->chunk = c;
	pthread_mutex_unlock(&run->mu);
	stream_chunk(run, c, sl);
	pthread_mutex_lock(&run->mu);
	sl->ready = true;
	pthread_cond_broadcast(&run->cv);
	return true;
}

/* A worker: fill chunks in order while there are any. */
static void *
stream_worker(void *arg)
{
	struct stream_run *run = arg;

	pthread_mutex_lock(&run->mu);
	while (!run->stop && run->next < run->nchunks)
		if (!stream_claim(run))
			pthread_cond_wait(&run->cv, &run->mu);
	pthread_mutex_unlock(&run->mu);
	return NULL;
}

/* Draw the progress line: percent, rows, MB/s, time left. */
static void
stream_progress(const struct pe_stream *s, size_t rows, double bytes,
    double elapsed)
{
	char bar[21];
	double frac = s->rows > 0 ? (double)rows / (double)s->rows : 1.0;
	size_t fill = (size_t)(frac * 20.0);
	double left = frac > 0 ? elapsed * (1.0 - frac) / frac : 0.0;

	for (size_t k = 0; k < 20; k++)
		bar[k] = k < fill ? '#' : '.';
	bar[20] = '\0';
	fprintf(stderr, "\r\033[K%3.0f%% [%s] %zu/%zu rows  %.0f MB/s  "
	    "%d:%02d left", frac * 100.0, bar, rows, s->rows,
	    bytes / elapsed / 1e6, (int)(left / 60), (int)fmod(left, 60.0));
}

/* Allocate the ring: nslots slots of a chunk each. */
static int
stream_ring(struct stream_run *run)
{
	const struct pe_stream *s = run->s;
	size_t vals = run->chunk_rows * s->rowlen * 8;
	/* NPY's bytes: 4 a value in float32, else 8 */
	size_t out = s->csv ? run->chunk_rows * pe_csv_line_max(s->rowlen)
			    : run->chunk_rows * s->rowlen *
				(s->dtype == PE_F32 ? 4 : 8);
	size_t per = (s->fill != NULL && !run->bytes ? vals : 0) +
	    (run->direct ? 0 : out);
	size_t fit = STREAM_RING_BYTES / (per > 0 ? per : 1);
	size_t want = s->threads > 1 ? 2 * s->threads : 1;

	run->nslots = want < fit ? want : fit;
	if (run->nslots == 0)
		run->nslots = 1;
	if ((run->slots = calloc(run->nslots, sizeof *run->slots)) == NULL)
		return PE_ENOMEM;
	for (size_t k = 0; k < run->nslots; k++) {
		struct stream_slot *sl = &run->slots[k];
		if (s->fill != NULL && !run->bytes &&
		    (sl->vals = malloc(vals ? vals : 1)) == NULL)
			return PE_ENOMEM;
		if (run->direct)
			sl->out = sl->vals;
		else if ((sl->out = malloc(out ? out : 1)) == NULL)
			return PE_ENOMEM;
	}
	return PE_OK;
}

/* Release the ring. */
static void
stream_ring_free(struct stream_run *run)
{
	for (size_t k = 0; run->slots != NULL && k < run->nslots; k++) {
		if (!run->direct)
			free(run->slots[k].out);
		free(run->slots[k].vals);
	}
	free(run->slots);
}

/* Write a ready slot (or note why its chunk failed); false stops. */
static bool
stream_take(const struct stream_slot *sl, FILE *fp,
    struct pe_stream_result *res)
{
	if (sl->st != PE_OK) {
		res->st = sl->st;
		return false;
	}
	if (sl->overflow) {
		res->st = PE_ERANGE;
		res->overflow = true;
		res->entry = sl->entry;
		res->value = sl->value;
		return false;
	}
	if (fp != NULL && sl->len > 0 && fwrite(sl->out, 1, sl->len, fp) != sl->len) {
		res->st = PE_EIO;
		res->err = errno;
		return false;
	}
	if (guard_xfsz) { /* sent, or a write passed the limit unseen */
		res->st = PE_EIO;
		res->err = EFBIG;
		return false;
	}
	res->bytes += (double)sl->len;
	return true;
}

/* Run s: fill, encode and write its chunks in order. */
int
pe_stream_run(const struct pe_stream *s, FILE *fp,
    struct pe_stream_result *res)
{
	struct stream_run run;
	pthread_t tid[PE_STREAM_MAX_THREADS];
	size_t started = 0;
	double t0 = stream_now(), drawn = 0.0;
	bool shown = false;

	memset(res, 0, sizeof *res);
	memset(&run, 0, sizeof run);
	run.s = s;
	size_t target = s->csv ? STREAM_CHUNK_CSV : STREAM_CHUNK_NPY;
	run.chunk_rows = s->rowlen > 0 && s->rowlen < target ? target / s->rowlen
							     : 1;
	/* whole wave blocks (64 rows share an exact anchor, pescope/wave.h):
	 * a chunk of 32 to 63 rows grows to 64 */
	if (run.chunk_rows >= 64)
		run.chunk_rows -= run.chunk_rows % 64;
	else if (run.chunk_rows >= 32)
		run.chunk_rows = 64;
	run.nchunks = s->rowlen == 0 ? 0
	    : (s->rows + run.chunk_rows - 1) / run.chunk_rows;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	run.bytes = !s->csv && s->fill != NULL && s->fill_bytes != NULL;
	run.direct = !s->csv && s->fill != NULL && !run.bytes &&
	    (s->ints ? s->dtype == PE_I64 : s->dtype == PE_F64);
#endif
	if ((res->st = stream_ring(&run)) != PE_OK) {
		stream_ring_free(&run);
		return res->st;
	}
	pthread_mutex_init(&run.mu, NULL);
	pthread_cond_init(&run.cv, NULL);

	/* this thread fills too, between writes: threads - 1 workers */
	size_t threads = s->threads < 1 ? 1 : s->threads;
	if (threads > 1 && run.nchunks > 1) {
		/* the workers leave signals to this thread */
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		for (; started + 1 < threads && started + 1 < run.nchunks; started++)
			if (pthread_create(&tid[started], NULL, stream_worker, &run) != 0)
				break;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}

	for (size_t c = 0; c < run.nchunks; c++) {
		struct stream_slot *sl = &run.slots[c % run.nslots];
		/* wait for chunk c, filling the next ones meanwhile */
		pthread_mutex_lock(&run.mu);
		while (!(sl->ready && sl->chunk == c))
			if (!stream_claim(&run))
				pthread_cond_wait(&run.cv, &run.mu);
		pthread_mutex_unlock(&run.mu);
		bool ok = stream_take(sl, fp, res);
		pthread_mutex_lock(&run.mu);
		sl->ready = false;
		run.written = c + 1;
		run.stop = !ok;
		pthread_cond_broadcast(&run.cv);
		pthread_mutex_unlock(&run.mu);
		if (!ok)
			break;
		double now = stream_now();
		if (s->progress && now - t0 >= STREAM_PROGRESS_AFTER &&
		    now - drawn >= STREAM_PROGRESS_EVERY) {
			size_t rows = (c + 1) * run.chunk_rows;
			stream_progress(s, rows < s->rows ? rows : s->rows,
			    res->bytes, now - t0);
			drawn = now;
			shown = true;
		}
	}
	for (size_t k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	if (shown)
		fputs("\r\033[K", stderr);
	pthread_cond_destroy(&run.cv);
	pthread_mutex_destroy(&run.mu);
	stream_ring_free(&run);
	res->seconds = stream_now() - t0;
	return res->st;
}

/* The temporary file the signal handler removes, and the actions it
 * replaced, by signal number. */
static char guard_path[4096];
static struct sigaction guard_old[NSIG];
static bool guarded[NSIG];

/* Whether sig's default action ends the program (POSIX's "T" and "A"
 * signals, real-time ones included); SIGKILL cannot be caught. */
static bool
guard_ends(int sig)
{
	switch (sig) {
	case SIGKILL: case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
	case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:
		return false;
	}
	return true;
}

/* Remove the temporary file, then let the action it had before have the
 * signal: it is raised again, blocked until the handler returns (a fault
 * happens again on return). The default ends the process; a sanitizer's
 * handler reports. Only async-signal-safe calls. */
static void
stream_on_signal(int sig)
{
	int saved = errno;
	if (guard_path[0] != '\0')
		unlink(guard_path);
	guard_path[0] = '\0';
	sigaction(sig, &guard_old[sig], NULL);
	raise(sig);
	errno = saved;
}

/* SIGXFSZ: noted; the write that passed the limit fails with EFBIG. */
static void
stream_on_xfsz(int sig)
{
	(void)sig;
	guard_xfsz = 1;
}

/* Guard path while it exists (NULL: stop guarding). */
void
pe_stream_guard(const char *path)
{
	if (path == NULL || strlen(path) >= sizeof guard_path) {
		for (int k = 1; k < NSIG; k++)
			if (guarded[k])
				sigaction(k, &guard_old[k], NULL);
		memset(guarded, 0, sizeof guarded);
		guard_path[0] = '\0';
		return;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	guard_path[0] = '\0';
	memcpy(guard_path, path, strlen(path) + 1);
	guard_xfsz = 0;
	for (int k = 1; k < NSIG; k++) {
		struct sigaction cur;
		if (guarded[k] || !guard_ends(k) || sigaction(k, NULL, &cur) != 0)
			continue;
		/* a signal ignored from the start (nohup) stays ignored */
		if (!(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_IGN)
			continue;
		sa.sa_handler = k == SIGXFSZ ? stream_on_xfsz : stream_on_signal;
		guard_old[k] = cur;
		/* glibc keeps a few real-time signals for itself: refused */
		guarded[k] = sigaction(k, &sa, NULL) == 0;
	}
}

/* Whether SIGXFSZ came while guarding. */
bool
pe_stream_guard_xfsz(void)
{
	return guard_xfsz != 0;
}
