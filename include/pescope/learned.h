/* Learned absolute position embeddings: a table [max_len, d] (GPT-2, BERT). */
#ifndef PESCOPE_LEARNED_H
#define PESCOPE_LEARNED_H

#include "pescope.h"

/* Fill dest[max_len * d] with GPT-2's initialisation, N(0, 0.02^2),
 * deterministic for a given seed (splitmix64 + Box-Muller, so identical on
 * every platform), each draw rounded to float32 as a float32 embedding
 * holds it. */
void pe_learned_init(size_t max_len, size_t d, uint64_t seed, double *dest);

/* The untrained table pescope shows when no table file is given: GPT-2's
 * init with PE_LEARNED_SEED, at most PE_LEARNED_MAX_ENTRIES entries (so it
 * fits in memory). */
#define PE_LEARNED_SEED 0x5e5c09eULL
#define PE_LEARNED_MAX_ENTRIES ((size_t)1 << 26)

/* Allocate *dest and fill it with the untrained [max_len, d] table.
 * Returns PE_OK, PE_ERANGE when max_len x d passes PE_LEARNED_MAX_ENTRIES,
 * or PE_ENOMEM. */
int pe_learned_untrained(size_t max_len, size_t d, double **dest);

/* Check a table t[rows * cols] before it is used: PE_OK, or PE_EINVAL with
 * the first entry that is not finite, or the first row whose norm passes
 * PE_MAX_NORM, said in why[cap] (naming the bound). */
int pe_learned_table_check(const double *t, size_t rows, size_t cols,
    char *why, size_t cap);

#endif
