/* Private to the kernel: the deterministic generator the seeded pictures
 * share (learned.h's init, toy.h's words, train.h's sequences). */
#ifndef PESCOPE_KERNEL_RNG_H
#define PESCOPE_KERNEL_RNG_H

#include <stdint.h>

/* splitmix64 (Steele, Lea & Flood 2014; Vigna's reference splitmix64.c):
 * advance the state *x and return its next 64-bit output. */
static inline uint64_t
rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
