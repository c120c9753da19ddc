/* Relative positions: T5 buckets against a numpy float32 transcription of
 * HF's _relative_position_bucket, Shaw indices by definition, and exact
 * block statistics of both against brute force. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernel/diag.h"
#include "pescope/relative.h"
#include "kernel/testing.h"

/* Printed by: /usr/bin/python3 tests/ref/t5_buckets.py
 * (buckets of rel = -300 .. 300; names give mode, num_buckets,
 * max_distance). */
static const int64_t t5_bi_32_128[601] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14, 14,
    14, 14, 14, 14, 14, 14, 14, 14, 14, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13,
    13, 13, 13, 13, 13, 13, 13, 13, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12,
    12, 12, 12, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10, 10, 10, 10,
    9,  9,  9,  9,  8,  8,  8,  8,  7,  6,  5,  4,  3,  2,  1,  0,  17, 18, 19,
    20, 21, 22, 23, 24, 24, 24, 24, 25, 25, 25, 25, 26, 26, 26, 26, 26, 26, 26,
    27, 27, 27, 27, 27, 27, 27, 27, 27, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    28, 28, 28, 28, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29, 29,
    29, 29, 29, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
};
static const int64_t t5_uni_32_128[601] = {
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 29, 29, 29, 29, 29, 29, 29,
    29, 29, 29, 29, 29, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 27, 27, 27, 27,
    27, 27, 27, 27, 27, 27, 26, 26, 26, 26, 26, 26, 26, 26, 25, 25, 25, 25, 25,
    25, 25, 24, 24, 24, 24, 24, 24, 23, 23, 23, 23, 23, 23, 22, 22, 22, 22, 22,
    21, 21, 21, 21, 20, 20, 20, 20, 19, 19, 19, 18, 18, 18, 17, 17, 16, 16, 16,
    15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};
static const int64_t t5_bi_64_50[601] = {
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31, 31,
    31, 31, 31, 31, 31, 31, 31, 30, 30, 30, 29, 29, 29, 28, 28, 28, 27, 27, 26,
    26, 26, 25, 25, 24, 24, 23, 23, 22, 22, 21, 21, 20, 19, 19, 18, 17, 16, 16,
    15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  33, 34, 35,
    36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 48, 49, 50, 51, 51, 52,
    53, 53, 54, 54, 55, 55, 56, 56, 57, 57, 58, 58, 58, 59, 59, 60, 60, 60, 61,
    61, 61, 62, 62, 62, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
};
static const int64_t t5_uni_10_20[601] = {
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 6, 6, 5, 5, 4, 3, 2, 1,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0,
};

/* Unidirectional, 64 buckets, max_distance 50: rel = -40 sits on a knife
 * edge, log(1.25) / log(1.5625) * 32 = 16 exactly in reals; float32 gives
 * 16 (bucket 48) while float64 with numpy's log gives 15.999999999999998
 * (bucket 47). */
static const int64_t t5_uni_64_50[601] = {
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    63, 63, 63, 63, 62, 61, 59, 58, 56, 54, 53, 51, 49, 48, 46, 44, 42, 40, 38,
    36, 34, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
    15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
    0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/* Check pe_t5_bucket on rel = -300 .. 300 against a table. */
static void
check_table(const int64_t *want, bool bi, size_t nb, size_t maxd)
{
	for (int64_t rel = -300; rel <= 300; rel++)
		cr_expect_eq(pe_t5_bucket(rel, bi, nb, maxd), want[rel + 300],
		             "rel %lld (bi %d, %zu buckets, max %zu): got %lld "
		             "want %lld",
		             (long long)rel, bi, nb, maxd,
		             (long long)pe_t5_bucket(rel, bi, nb, maxd),
		             (long long)want[rel + 300]);
}

Test(t5, small_example)
{
	/* rel[i][j] for the example in the brief, buckets as printed by
	 * tests/ref/t5_buckets.py: [[0, 17], [1, 0], [2, 1]] and
	 * [[0, 0], [1, 0], [2, 1]]. */
	const int64_t rel[3][2] = {{0, 1}, {-1, 0}, {-2, -1}};
	const int64_t bi[3][2] = {{0, 17}, {1, 0}, {2, 1}};
	const int64_t uni[3][2] = {{0, 0}, {1, 0}, {2, 1}};
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++) {
			cr_expect_eq(pe_t5_bucket(rel[i][j], true, 32, 128),
			             bi[i][j]);
			cr_expect_eq(pe_t5_bucket(rel[i][j], false, 32, 128),
			             uni[i][j]);
		}
}

Test(t5, tables_match_numpy)
{
	check_table(t5_bi_32_128, true, 32, 128);
	check_table(t5_uni_32_128, false, 32, 128);
	check_table(t5_bi_64_50, true, 64, 50);
	check_table(t5_uni_10_20, false, 10, 20);
	check_table(t5_uni_64_50, false, 64, 50);
	cr_expect_eq(t5_uni_64_50[300 - 40], 48);
}

Test(t5, max_exact_and_range)
{
	cr_expect_eq(pe_t5_max_exact(true, 32), 8);
	cr_expect_eq(pe_t5_max_exact(false, 32), 16);
	/* Far distances land in the last bucket of each half. */
	cr_expect_eq(pe_t5_bucket(-1000000000, true, 32, 128), 15);
	cr_expect_eq(pe_t5_bucket(1000000000, true, 32, 128), 31);
	cr_expect_eq(pe_t5_bucket(-1000000000, false, 32, 128), 31);
	cr_expect_eq(pe_t5_bucket(1000000000, false, 32, 128), 0);
	/* Monotone in distance, within [0, num_buckets). */
	int64_t prev = 0;
	for (int64_t n = 0; n < 5000; n++) {
		int64_t b = pe_t5_bucket(-n, true, 64, 1000);
		cr_assert(b >= prev && b < 32);
		prev = b;
	}
}

Test(shaw, clip)
{
	/* clip(rel, -K, K) + K (Shaw et al. 2018, eq. 3). */
	cr_expect_eq(pe_shaw_index(0, 16), 16);
	cr_expect_eq(pe_shaw_index(-16, 16), 0);
	cr_expect_eq(pe_shaw_index(-17, 16), 0);
	cr_expect_eq(pe_shaw_index(16, 16), 32);
	cr_expect_eq(pe_shaw_index(1000, 16), 32);
	cr_expect_eq(pe_shaw_index(-3, 4), 1);
	cr_expect_eq(pe_shaw_index(INT64_MIN / 2, 4), 0);
}

Test(relative, fill)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.n = 40;
	int64_t *m = malloc(40 * 40 * sizeof *m);
	cr_assert_eq(pe_relative_fill(&cfg, m), PE_OK);
	for (int i = 0; i < 40; i++)
		for (int j = 0; j < 40; j++)
			cr_expect_eq(m[i * 40 + j], t5_bi_32_128[j - i + 300]);
	cfg.relative = PE_REL_SHAW;
	cfg.max_relative = 5;
	cr_assert_eq(pe_relative_fill(&cfg, m), PE_OK);
	cr_expect_eq(m[0 * 40 + 39], 10);
	cr_expect_eq(m[39 * 40 + 0], 0);
	cr_expect_eq(m[7 * 40 + 9], 7);
	free(m);
}

/* A relative field over cfg, built by hand (field.c is not needed). */
static struct pe_field
make_field(const struct pe_config *cfg)
{
	struct pe_field f;
	memset(&f, 0, sizeof f);
	f.kind = PE_FIELD_RELATIVE;
	f.cfg = cfg;
	f.rows = f.cols = cfg->n;
	return f;
}

/* Compare pe_diag_block with brute force on many random rectangles. */
static void
check_random_blocks(const struct pe_config *cfg, int trials)
{
	struct pe_field f = make_field(cfg);
	uint64_t seed = 12345;
	for (int t = 0; t < trials; t++) {
		size_t n = cfg->n;
		size_t r0 = th_lcg(&seed) % n, c0 = th_lcg(&seed) % n;
		size_t r1 = r0 + 1 + th_lcg(&seed) % (n - r0);
		size_t c1 = c0 + 1 + th_lcg(&seed) % (n - c0);
		if (t % 4 == 0) { /* thin ones too */
			r1 = r0 + 1 + th_lcg(&seed) % 3 % (n - r0);
		}
		struct pe_stats got, want;
		cr_assert_eq(pe_diag_block(&f, r0, r1, c0, c1, true, &got),
		             PE_OK);
		th_diag_brute(&f, r0, r1, c0, c1, &want);
		cr_expect_eq(got.count, want.count);
		cr_expect_eq(got.masked, want.masked);
		cr_expect(th_close(got.mean, want.mean, 1e-12, 1e-13),
		          "[%zu,%zu)x[%zu,%zu): mean %.17g want %.17g", r0, r1,
		          c0, c1, got.mean, want.mean);
		cr_expect_eq(got.min, want.min, "min %g want %g", got.min,
		             want.min);
		cr_expect_eq(got.max, want.max, "max %g want %g", got.max,
		             want.max);
	}
}

Test(relative_block, t5_random_vs_brute)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.n = 400;
	check_random_blocks(&cfg, 300);
	cfg.bidirectional = false;
	check_random_blocks(&cfg, 300);
	cfg.buckets = 10;
	cfg.max_distance = 20;
	check_random_blocks(&cfg, 200);
	cfg.bidirectional = true;
	cfg.buckets = 64;
	cfg.max_distance = 50;
	check_random_blocks(&cfg, 200);
	/* Few buckets, close max_distance: some log buckets are empty. */
	cfg.buckets = 40;
	cfg.max_distance = 11;
	check_random_blocks(&cfg, 200);
	/* Larger rectangles, many buckets. */
	cfg.n = 2500;
	cfg.buckets = 200;
	cfg.max_distance = 1500;
	check_random_blocks(&cfg, 12);
}

Test(relative_block, shaw_random_vs_brute)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.relative = PE_REL_SHAW;
	cfg.n = 200;
	check_random_blocks(&cfg, 300);
	cfg.max_relative = 1;
	check_random_blocks(&cfg, 100);
	cfg.max_relative = 500;
	check_random_blocks(&cfg, 100);
}

/* Value of diagonal k of a relative config. */
static int64_t
rel_value(const struct pe_config *cfg, int64_t k)
{
	return cfg->relative == PE_REL_SHAW
	           ? pe_shaw_index(k, cfg->max_relative)
	           : pe_t5_bucket(k, cfg->bidirectional, cfg->buckets,
	                          cfg->max_distance);
}

/* Add `len` cells of value v to a row-wise sum. */
static void
rel_add(__int128 *sum, uint64_t *cnt, int64_t *vmin, int64_t *vmax, int64_t v,
        int64_t len)
{
	if (len <= 0)
		return;
	*sum += (__int128)v * len;
	*cnt += (uint64_t)len;
	*vmin = v < *vmin ? v : *vmin;
	*vmax = v > *vmax ? v : *vmax;
}

/* Row-wise reference for huge rectangles: per row, brute force over the
 * diagonals |k| <= w and count the constant tails (the value is constant
 * for k < -w and for k > w). Sums exactly in __int128. */
static long double
rowwise_mean(const struct pe_config *cfg, size_t r0, size_t r1, size_t c0,
             size_t c1, int64_t w, int64_t *vmin, int64_t *vmax)
{
	__int128 sum = 0;
	uint64_t cnt = 0;
	*vmin = INT64_MAX;
	*vmax = INT64_MIN;
	for (size_t i = r0; i < r1; i++) {
		int64_t ka = (int64_t)c0 - (int64_t)i;
		int64_t kb = (int64_t)c1 - 1 - (int64_t)i;
		int64_t x = ka > -w ? ka : -w, y = kb < w ? kb : w;
		rel_add(&sum, &cnt, vmin, vmax, rel_value(cfg, -w - 1),
		        (kb < -w - 1 ? kb : -w - 1) - ka + 1);
		for (int64_t k = x; k <= y; k++)
			rel_add(&sum, &cnt, vmin, vmax, rel_value(cfg, k), 1);
		rel_add(&sum, &cnt, vmin, vmax, rel_value(cfg, w + 1),
		        kb - (ka > w + 1 ? ka : w + 1) + 1);
	}
	return (long double)sum / cnt;
}

/* Compare a huge block with the row-wise reference. */
static void
check_huge(const struct pe_config *cfg, size_t r0, size_t r1, size_t c0,
           size_t c1, int64_t w)
{
	struct pe_field f = make_field(cfg);
	struct pe_stats got;
	int64_t lo, hi;
	long double want = rowwise_mean(cfg, r0, r1, c0, c1, w, &lo, &hi);
	cr_assert_eq(pe_diag_block(&f, r0, r1, c0, c1, true, &got), PE_OK);
	cr_expect_eq(got.count, (uint64_t)(r1 - r0) * (c1 - c0));
	cr_expect_eq(got.masked, 0);
	cr_expect(th_close(got.mean, (double)want, 0, 1e-15),
	          "mean %.17g want %.17Lg", got.mean, want);
	cr_expect_eq(got.min, (double)lo);
	cr_expect_eq(got.max, (double)hi);
}

Test(relative_block, huge_exact)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.n = PE_MAX_N;
	size_t n = cfg.n;
	check_huge(&cfg, 0, 50, 0, n, 300);
	check_huge(&cfg, n - 50, n, 0, n, 300);
	check_huge(&cfg, n / 2, n / 2 + 40, n / 2 - 1000, n, 300);
	cfg.bidirectional = false;
	check_huge(&cfg, n / 3, n / 3 + 40, 0, n, 300);
	cfg.bidirectional = true;
	cfg.buckets = 1024;
	cfg.max_distance = 100000;
	check_huge(&cfg, n / 2, n / 2 + 20, 0, n, 200001);
	/* Every bucket boundary of 4096 buckets met in one row, cell by cell.
	 */
	cfg.buckets = 4096;
	cfg.max_distance = 3000000;
	check_huge(&cfg, 4000000, 4000001, 0, 8000000, 6000001);
	cfg.bidirectional = false;
	check_huge(&cfg, 7000000, 7000002, 0, 8000000, 6000001);
	cfg.bidirectional = true;
	cfg.relative = PE_REL_SHAW;
	cfg.max_relative = 1000;
	check_huge(&cfg, n / 2, n / 2 + 30, 0, n, 1001);

	/* The whole n x n T5 matrix, default config: by symmetry of the two
	 * halves, mean = (sum_k w(k) g(|k|) + sum_{k>0} w(k) 16) / n^2; check
	 * count and range instead, and that the mean lies in range. */
	struct pe_stats s;
	cfg.relative = PE_REL_T5;
	cfg.buckets = 32;
	cfg.max_distance = 128;
	struct pe_field f = make_field(&cfg);
	cr_assert_eq(pe_diag_block(&f, 0, n, 0, n, false, &s), PE_OK);
	cr_expect_eq(s.count, (uint64_t)n * n);
	cr_expect_eq(s.min, 0.0);
	cr_expect_eq(s.max, 31.0);
	/* Almost every cell is far from the diagonal: the mean tends to
	 * (15 + 31) / 2 = 23. */
	cr_expect(fabs(s.mean - 23.0) < 1e-3, "mean %g", s.mean);
}

Test(relative_block, errors)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.n = 10;
	struct pe_field f = make_field(&cfg);
	struct pe_stats s;
	cr_expect_eq(pe_diag_block(&f, 3, 3, 0, 5, false, &s), PE_EINVAL);
	cr_expect_eq(pe_diag_block(&f, 0, 11, 0, 5, false, &s), PE_ERANGE);
}

/* The grid (pe_diag_grid: one closed form a block within a piece, the
 * pieces summed across one's end) against its blocks and the direct sums,
 * on awkward tilings: T5 both ways with many and few buckets (empty log
 * buckets), Shaw with a clip of 0, 1 and past n. */
Test(relative_grid, tilings_vs_brute)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.n = 150;
	struct pe_field f = make_field(&cfg);
	th_diag_check_grids(&f);
	cfg.bidirectional = false;
	th_diag_check_grids(&f);
	cfg.buckets = 40;
	cfg.max_distance = 11;
	cfg.bidirectional = true;
	th_diag_check_grids(&f);
	cfg.relative = PE_REL_SHAW;
	size_t clips[] = {0, 1, 9, 400};
	for (size_t k = 0; k < 4; k++) {
		cfg.max_relative = clips[k];
		th_diag_check_grids(&f);
	}
	/* larger blocks across many buckets */
	cfg.relative = PE_REL_T5;
	cfg.n = 1500;
	cfg.buckets = 200;
	cfg.max_distance = 900;
	f = make_field(&cfg);
	th_diag_check_grid(&f, 0, 1500, 13, 0, 1500, 17);
	th_diag_check_grid(&f, 100, 1403, 1, 0, 1500, 150);
}
