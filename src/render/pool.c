/* A worker thread for pe_pool_run2 (render/pool.h): made on first use,
 * it waits for a job on a condition variable, runs its part and says so;
 * the job's memory is published and read back under the mutex, so what
 * one part wrote the caller sees after the call. A fork's child has no
 * worker: pthread_atfork forgets it there, and the child makes its own. */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "render/pool.h"

/* The worker and its one job. */
static struct {
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	bool made, failed, atfork, busy;
	unsigned long gen, finished; /* jobs given, jobs finished */
	void (*fn)(void *arg, int part);
	void *arg;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
	PTHREAD_COND_INITIALIZER, false, false, false, false, 0, 0, NULL, NULL};

/* The worker: each new job's part 1 (a job is new while it is not
 * finished: one at a time, pool.busy). */
static void *
pool_main(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&pool.mu);
	for (;;) {
		while (pool.gen == pool.finished)
			pthread_cond_wait(&pool.go, &pool.mu);
		void (*fn)(void *, int) = pool.fn;
		void *arg = pool.arg;
		unsigned long job = pool.gen;
		pthread_mutex_unlock(&pool.mu);
		fn(arg, 1);
		pthread_mutex_lock(&pool.mu);
		pool.finished = job;
		pthread_cond_signal(&pool.done);
	}
	return NULL;
}

/* In a fork's child: no worker, fresh locks. */
static void
pool_forget(void)
{
	pthread_mutex_init(&pool.mu, NULL);
	pthread_cond_init(&pool.go, NULL);
	pthread_cond_init(&pool.done, NULL);
	pool.made = pool.failed = pool.busy = false;
	pool.gen = pool.finished = 0;
}

/* Make the worker (under the mutex): false when it cannot be. */
static bool
pool_make(void)
{
	if (pool.made || pool.failed)
		return pool.made;
	if (!pool.atfork) {
		if (pthread_atfork(NULL, NULL, pool_forget) != 0) {
			pool.failed = true;
			return false;
		}
		pool.atfork = true;
	}
	sigset_t all, old;
	pthread_t t;
	pthread_attr_t at;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the worker's, inherited */
	bool ok = pthread_attr_init(&at) == 0;
	if (ok) {
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		ok = pthread_create(&t, &at, pool_main, NULL) == 0;
		pthread_attr_destroy(&at);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pool.made = ok;
	pool.failed = !ok;
	return ok;
}

/* Both parts of a job at once; see pool.h. */
void
pe_pool_run2(void (*fn)(void *arg, int part), void *arg)
{
	pthread_mutex_lock(&pool.mu);
	if (pool.busy || !pool_make()) {
		pthread_mutex_unlock(&pool.mu);
		fn(arg, 0);
		fn(arg, 1);
		return;
	}
	pool.busy = true;
	pool.fn = fn;
	pool.arg = arg;
	unsigned long job = ++pool.gen;
	pthread_cond_signal(&pool.go);
	pthread_mutex_unlock(&pool.mu);
	fn(arg, 0);
	pthread_mutex_lock(&pool.mu);
	while (pool.finished != job)
		pthread_cond_wait(&pool.done, &pool.mu);
	pool.busy = false;
	pthread_mutex_unlock(&pool.mu);
}
