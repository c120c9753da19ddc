/* CSV: number formatting (%.9g of float32, %.17g of float64, plain
 * integers, -inf/inf/nan), layout of 1-D, 2-D and 3-D tables. */
#include <criterion/criterion.h>
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
	/* an empty list writes nothing (issue 11: rope's beyond) */
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
