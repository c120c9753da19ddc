/* The two-part pool (render/pool.h): each part runs once, on two threads
 * where a worker can be made, what a part wrote is seen after the call, a
 * call from within a part runs inline, and a fork's child has a pool of
 * its own. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "render/pool.h"

/* What a job saw. */
struct job {
	atomic_int runs[2];
	pthread_t who[2];
	long sums[2];
	long data[1000];
	bool nest;
	struct job *inner;
};

/* Part `part` of a job: its half of data's sum, and (nest) a whole job
 * of its own from within. */
static void
job_part(void *arg, int part)
{
	struct job *j = arg;
	atomic_fetch_add(&j->runs[part], 1);
	j->who[part] = pthread_self();
	long s = 0;
	for (int i = part * 500; i < part * 500 + 500; i++)
		s += j->data[i];
	j->sums[part] = s;
	if (j->nest && part == 0)
		pe_pool_run2(job_part, j->inner);
}

/* A job over 0..999. */
static void
job_start(struct job *j)
{
	memset(j, 0, sizeof *j);
	for (int i = 0; i < 1000; i++)
		j->data[i] = i;
}

Test(pool, both_parts_once_on_two_threads)
{
	static struct job j;
	for (int round = 0; round < 500; round++) {
		job_start(&j);
		pe_pool_run2(job_part, &j);
		cr_assert_eq(atomic_load(&j.runs[0]), 1);
		cr_assert_eq(atomic_load(&j.runs[1]), 1);
		cr_assert_eq(j.sums[0], 499L * 500 / 2, "round %d", round);
		cr_assert_eq(j.sums[1], 999L * 1000 / 2 - 499L * 500 / 2);
		cr_assert(pthread_equal(j.who[0], pthread_self()));
		cr_assert(!pthread_equal(j.who[1], pthread_self()),
		    "part 1 ran on the caller's thread");
	}
}

Test(pool, a_call_within_a_part_runs_inline)
{
	static struct job outer, inner;
	job_start(&outer);
	job_start(&inner);
	outer.nest = true;
	outer.inner = &inner;
	pe_pool_run2(job_part, &outer);
	cr_expect_eq(atomic_load(&inner.runs[0]), 1);
	cr_expect_eq(atomic_load(&inner.runs[1]), 1);
	cr_expect(pthread_equal(inner.who[0], pthread_self()));
	cr_expect(pthread_equal(inner.who[1], pthread_self()));
	cr_expect_eq(inner.sums[0] + inner.sums[1], 999L * 1000 / 2);
	/* and the pool is free again afterwards */
	job_start(&outer);
	pe_pool_run2(job_part, &outer);
	cr_expect(!pthread_equal(outer.who[1], pthread_self()));
}

Test(pool, a_forked_child_has_its_own)
{
	static struct job j;
	job_start(&j);
	pe_pool_run2(job_part, &j); /* the parent's worker exists */
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		alarm(10); /* a child waiting on the parent's worker hangs */
		job_start(&j);
		pe_pool_run2(job_part, &j);
		_exit(atomic_load(&j.runs[1]) == 1 &&
		    j.sums[0] + j.sums[1] == 999L * 1000 / 2 &&
		    !pthread_equal(j.who[1], pthread_self()) ? 0 : 1);
	}
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "the child's pool: status %d", status);
}
