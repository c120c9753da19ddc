/* Private to the kernel: hot loops built for the vector units too, the
 * clone picked once at load time from the CPU (GCC's target_clones, an
 * ifunc). The clones run the same IEEE operations in the same order (the
 * build contracts no multiply-add: -ffp-contract=off, which -std=c17
 * implies), only more of them at once, so every clone gives the same bits. */
#ifndef PESCOPE_KERNEL_CLONES_H
#define PESCOPE_KERNEL_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__linux__)
#define PE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define PE_CLONES
#endif

#endif
