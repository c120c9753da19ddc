/* Two parts of a piece of work at once: this thread and one worker thread,
 * made once a process (the machine's second core; the pixel layer's bands
 * of rows). */
#ifndef PESCOPE_POOL_H
#define PESCOPE_POOL_H

/* Run fn(arg, 0) on this thread and fn(arg, 1) on the worker at the same
 * time; returns when both have. Where the worker cannot be made (or is
 * busy: a call from within fn) both run here, part 0 first. The worker
 * blocks every signal, so they reach the thread that waits for them. */
void pe_pool_run2(void (*fn)(void *arg, int part), void *arg);

#endif
