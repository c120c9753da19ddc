/* CSV: number formatting (%.9g of float32, %.17g of float64, plain
 * integers, -inf/inf/nan; pe_dtoa_g against printf on millions of values),
 * layout of 1-D, 2-D and 3-D tables. */
#include <criterion/criterion.h>
#include <float.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "io/io.h"

/* Write t as CSV into memory and compare with want. */
static void
check_csv(const struct pe_table *t, enum pe_dtype dtype, size_t head,
          const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	cr_assert_not_null(fp);
	cr_assert_eq(pe_csv_write(fp, t, dtype, head), PE_OK);
	fclose(fp);
	cr_expect_str_eq(buf, want);
	free(buf);
}

Test(csv, float32_and_specials)
{
	/* (float)0.1 = 0.100000001490116..., 9 digits: 0.100000001;
	 * 1/3 as float = 0.333333343267...; -nan prints "nan". */
	double v[6] = {0.1, 1.0 / 3.0, -INFINITY, INFINITY, NAN, -NAN};
	struct pe_table t = {2, {2, 3, 0}, v, NULL};
	check_csv(&t, PE_F32, 0, "0.100000001,0.333333343,-inf\ninf,nan,nan\n");
	/* float64: 17 significant digits. */
	check_csv(
	    &t, PE_F64, 0,
	    "0.10000000000000001,0.33333333333333331,-inf\ninf,nan,nan\n");
}

Test(csv, exact_values_print_short)
{
	double v[4] = {0.0, -2.5, 1e20, 3};
	struct pe_table t = {2, {1, 4, 0}, v, NULL};
	check_csv(&t, PE_F32, 0, "0,-2.5,1.00000002e+20,3\n");
	check_csv(&t, PE_F64, 0, "0,-2.5,1e+20,3\n");
}

Test(csv, integers_and_shapes)
{
	int64_t iv[12] = {0, -5, 7, INT64_MAX, INT64_MIN, 42, 1, 2, 3, 4, 5, 6};
	struct pe_table t = {2, {2, 3, 0}, NULL, iv};
	check_csv(&t, PE_I64, 0,
	          "0,-5,7\n9223372036854775807,-9223372036854775808,42\n");
	/* 1-D: a column, one value per line. */
	struct pe_table t1 = {1, {3, 0, 0}, NULL, iv};
	check_csv(&t1, PE_I64, 0, "0\n-5\n7\n");
	/* an empty list writes nothing (rope's beyond) */
	struct pe_table t0 = {1, {0, 0, 0}, NULL, iv};
	check_csv(&t0, PE_I64, 0, "");
	/* 3-D: only sub-matrix `head`. */
	struct pe_table t3 = {3, {3, 2, 2}, NULL, iv};
	check_csv(&t3, PE_I64, 2, "3,4\n5,6\n"); /* elements 8..11 */
	check_csv(&t3, PE_I64, 0, "0,-5\n7,9223372036854775807\n");
	cr_expect_eq(pe_csv_write(stdout, &t3, PE_I64, 3), PE_EINVAL);
	struct pe_table tf = {2, {1, 1, 0}, (double[]){1.0}, NULL};
	cr_expect_eq(pe_csv_write(stdout, &tf, PE_I64, 0), PE_EINVAL);
}

Test(csv, write_error)
{
	double v[1] = {1.0};
	struct pe_table t = {2, {1, 1, 0}, v, NULL};
	FILE *fp = fopen("/dev/full", "w");
	if (fp == NULL)
		cr_skip_test("no /dev/full");
	setvbuf(fp, NULL, _IONBF, 0);
	cr_expect_eq(pe_csv_write(fp, &t, PE_F64, 0), PE_EIO);
	fclose(fp);
}

/* pe_dtoa_g against printf itself (the reference) for value v at
 * precision p; NaN is "nan" whatever its sign. Returns whether they agree
 * and reports the first few that do not. */
static bool
dtoa_agrees(double v, int p, int *reported)
{
	char got[PE_DTOA_MAX], want[64];
	size_t len = pe_dtoa_g(v, p, got);

	if (isnan(v))
		snprintf(want, sizeof want, "nan");
	else
		snprintf(want, sizeof want, "%.*g", p, v);
	if (strcmp(got, want) == 0 && len == strlen(want))
		return true;
	if ((*reported)++ < 5)
		cr_log_error("%a at %%.%dg: got '%s', printf '%s'", v, p, got, want);
	return false;
}

Test(csv, dtoa_matches_printf_on_special_values)
{
	static const double v[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, -NAN,
		DBL_MIN, -DBL_MIN, DBL_TRUE_MIN, DBL_MAX, -DBL_MAX, FLT_MIN, FLT_MAX,
		FLT_TRUE_MIN, 0x1p-1022 - 0x1p-1074, 1.0, 0.1, 0.5, 1e-5, 1e-4,
		9.999999999999999e-5, 1e16, 1e17, 1e22, 1e23, 9.9999999999999999e22,
		123456789.0, 1e9, 999999999.5, 0x1p-25, 0x1p-26, 0x1p-30, 0x1p53,
		0x1p56 + 16, 0x1p63, 0x1p64, 5e-324, 2.5, 0.125, 1e-300, 1e300,
		0.30000000000000004, 2.2250738585072014e-308};
	int bad = 0;
	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
		for (int p = 1; p <= 17; p++) {
			dtoa_agrees(v[k], p, &bad);
			dtoa_agrees((double)(float)v[k], p, &bad);
		}
	cr_expect_eq(bad, 0);
}

/* A few million random values: every bit pattern of double (so
 * subnormals, infinities and NaNs in their share) at %.17g, every float
 * at %.9g, and short binary fractions (exact decimal ties). */
Test(csv, dtoa_matches_printf_on_random_values, .timeout = 240)
{
	uint64_t s = 0x9e3779b97f4a7c15u;
	int bad = 0;
	for (int k = 0; k < 1500000; k++) {
		uint64_t u = th_lcg(&s);
		double d;
		memcpy(&d, &u, sizeof d);
		dtoa_agrees(d, 17, &bad);
		uint32_t w = (uint32_t)(u >> 32);
		float f;
		memcpy(&f, &w, sizeof f);
		dtoa_agrees((double)f, 9, &bad);
		/* m / 2^e: decimal expansions that end in 5, ties at some p */
		double t = (double)(int64_t)(th_lcg(&s) >> (u % 64)) /
		    (double)(UINT64_C(1) << (u >> 8) % 62);
		dtoa_agrees(t, 17, &bad);
		dtoa_agrees(t, (int)(u >> 16) % 17 + 1, &bad);
	}
	cr_expect_eq(bad, 0);
}

/* The line encoder writes what pe_csv_write writes, and no more than
 * pe_csv_line_max promises. */
Test(csv, encode_stays_within_its_bound)
{
	double v[3] = {-0x0.fffffffffffffp-1022, -DBL_MAX, -1e-300};
	int64_t iv[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
	char buf[256];
	size_t len = pe_csv_encode(v, NULL, 1, 3, PE_F64, buf);
	cr_expect_leq(len, pe_csv_line_max(3));
	cr_expect(memcmp(buf, "-2.2250738585072009e-308,-1.7976931348623157e+308,"
	    "-1e-300\n", len) == 0);
	len = pe_csv_encode(NULL, iv, 1, 3, PE_I64, buf);
	cr_expect_leq(len, pe_csv_line_max(3));
}
