/* Numbers as printf's %.Pg writes them (C locale), without printf: the
 * P significant digits of a double are the integer nearest to v 10^k
 * (k = P - 1 - floor(log10 v), ties to even), computed from a 128-bit
 * mantissa of 10^k (pow10.h) times v's 64-bit one. The product is exact
 * for k in [0, 55] and within 2^64 of exact (in its 192-bit units) for the
 * other k, which decides the rounding except within 2^-70 or so of a tie;
 * there snprintf decides. The text is then laid out as %g lays it out
 * (C11 7.21.6.1: style e when the exponent is below -4 or at least P, else
 * style f; trailing zeros and a trailing point removed). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/io.h"
#include "io/pow10.h"

__extension__ typedef unsigned __int128 dtoa_u128;

/* 10^0 .. 10^19. */
static const uint64_t dtoa_p10[20] = {
	1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
	100000000u, 1000000000u, 10000000000u, 100000000000u,
	1000000000000u, 10000000000000u, 100000000000000u,
	1000000000000000u, 10000000000000000u, 100000000000000000u,
	1000000000000000000u, 10000000000000000000u,
};

/* floor(e log10 2) for |e| < 2^20 (78913 / 2^18 = log10 2 to 1e-6). */
static int
dtoa_floor_log10_pow2(int e)
{
	int64_t x = (int64_t)e * 78913;
	return (int)(x >= 0 ? x >> 18 : -((-x + (1 << 18) - 1) >> 18));
}

/* The integer part of f 2^ef 10^k into *ip and the integer nearest to it
 * into *dest (ties to even); false when the table's error leaves the
 * rounding undecided. */
static bool
dtoa_scale(uint64_t f, int ef, int k, uint64_t *ipart, uint64_t *dest)
{
	const int i = k - PE_POW10_MIN;
	const dtoa_u128 lo = (dtoa_u128)f * pow10_table[i].lo;
	const dtoa_u128 hi = (dtoa_u128)f * pow10_table[i].hi;
	/* the product [top : p0], 192 bits; top is its upper 128 */
	const dtoa_u128 top = hi + (uint64_t)(lo >> 64);
	const uint64_t p0 = (uint64_t)lo;
	/* v 10^k = product 2^(ef + g): the integer part is product >> sh */
	const int sh = -(ef + pow10_table[i].g);

	if (sh < 65 + 64 || sh > 64 + 127)
		return false; /* not reached for doubles; be safe */
	const int st = sh - 64; /* shift of top */
	const uint64_t ip = (uint64_t)(top >> st);
	const dtoa_u128 x = top & (((dtoa_u128)1 << st) - 1); /* R >> 64 */
	const dtoa_u128 half = (dtoa_u128)1 << (st - 1);	  /* 2^(sh-1) >> 64 */

	*ipart = ip;

	if (pow10_table[i].exact) {
		/* R = x 2^64 + p0 exactly: compare with half 2^64 */
		if (x < half)
			*dest = ip;
		else if (x == half && p0 == 0)
			*dest = ip + (ip & 1);
		else
			*dest = ip + 1;
		return true;
	}
	/* the exact R lies in [x 2^64, (x + 2) 2^64) and above x 2^64 + p0 */
	if (x + 2 <= half)
		*dest = ip;
	else if (x >= half)
		*dest = ip + 1;
	else
		return false;
	return true;
}

/* The p significant digits of finite v > 0 into *digits and the decimal
 * exponent of the first into *e10; false when snprintf must decide. */
static bool
dtoa_digits(double v, int p, uint64_t *digits, int *e10)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	int be = (int)((bits >> 52) & 0x7ff);
	uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
	int ef;

	if (be == 0) { /* subnormal: m 2^-1074 */
		ef = -1074;
	} else {
		m |= UINT64_C(1) << 52;
		ef = be - 1075;
	}
	int lz = __builtin_clzll(m);
	uint64_t f = m << lz;
	ef -= lz;
	/* v in [2^(ef+63), 2^(ef+64)): log10 v within one of the estimate */
	int e = dtoa_floor_log10_pow2(ef + 63);
	for (int tries = 0; tries < 3; tries++) {
		int k = p - 1 - e;
		uint64_t ip, d;
		if (k < PE_POW10_MIN || k > PE_POW10_MAX)
			return false;
		if (!dtoa_scale(f, ef, k, &ip, &d))
			return false;
		/* the scale is right when the integer part has p digits; its
		 * rounding up to 10^p is a carry into the exponent */
		if (ip < dtoa_p10[p - 1]) {
			e--;
			continue;
		}
		if (ip >= dtoa_p10[p]) {
			e++;
			continue;
		}
		if (d == dtoa_p10[p]) {
			d = dtoa_p10[p - 1];
			e++;
		}
		*digits = d;
		*e10 = e;
		return true;
	}
	return false;
}

/* Write v as printf's "%.*g" with precision p (1..17) writes it in the C
 * locale, except that any NaN is "nan"; returns the length (at most
 * PE_DTOA_MAX - 1) and NUL-terminates. */
size_t
pe_dtoa_g(double v, int p, char *dest)
{
	char *o = dest;
	uint64_t d;
	int e;

	if (p < 1)
		p = 1;
	if (p > 17)
		p = 17;
	if (isnan(v)) {
		memcpy(dest, "nan", 4);
		return 3;
	}
	if (signbit(v)) {
		*o++ = '-';
		v = -v;
	}
	if (isinf(v)) {
		memcpy(o, "inf", 4);
		return (size_t)(o - dest) + 3;
	}
	if (v == 0.0) {
		*o++ = '0';
		*o = '\0';
		return (size_t)(o - dest);
	}
	if (!dtoa_digits(v, p, &d, &e)) {
		int n = snprintf(o, PE_DTOA_MAX - 1, "%.*g", p, v);
		return (size_t)(o - dest) + (size_t)(n > 0 ? n : 0);
	}
	/* the digits, trailing zeros dropped (%g without '#') */
	char dig[20];
	int n = p, i = p;
	if (p > 8) { /* the last 8 digits in 32-bit arithmetic */
		uint32_t lo = (uint32_t)(d % 100000000u);
		d /= 100000000u;
		for (int k = 0; k < 4; k++) {
			uint32_t two = lo % 100;
			lo /= 100;
			dig[--i] = (char)('0' + two % 10);
			dig[--i] = (char)('0' + two / 10);
		}
	}
	uint32_t rest = (uint32_t)d; /* below 10^9 */
	while (i >= 2) { /* two digits a step */
		uint32_t two = rest % 100;
		rest /= 100;
		dig[--i] = (char)('0' + two % 10);
		dig[--i] = (char)('0' + two / 10);
	}
	if (i == 1)
		dig[0] = (char)('0' + rest);
	while (n > 1 && dig[n - 1] == '0')
		n--;
	if (e < -4 || e >= p) { /* style e */
		*o++ = dig[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)(n - 1));
			o += n - 1;
		}
		*o++ = 'e';
		*o++ = e < 0 ? '-' : '+';
		int a = e < 0 ? -e : e;
		if (a >= 100)
			*o++ = (char)('0' + a / 100);
		*o++ = (char)('0' + a / 10 % 10);
		*o++ = (char)('0' + a % 10);
	} else if (e >= 0) { /* style f, integer digits first */
		memcpy(o, dig, (size_t)(e + 1));
		o += e + 1;
		if (n > e + 1) {
			*o++ = '.';
			memcpy(o, dig + e + 1, (size_t)(n - e - 1));
			o += n - e - 1;
		}
	} else { /* style f below 1: 0.000ddd */
		*o++ = '0';
		*o++ = '.';
		for (int z = 0; z < -e - 1; z++)
			*o++ = '0';
		memcpy(o, dig, (size_t)n);
		o += n;
	}
	*o = '\0';
	return (size_t)(o - dest);
}
