/* Numbers formatted to fit a number of terminal columns. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/draw.h"

/* Shorten a %g exponent in place: "1.5e+07" -> "1.5e7", "2e-05" -> "2e-5". */
static void
fmt_compact_exp(char *s)
{
	char *e = strchr(s, 'e'), *d;

	if (e == NULL)
		return;
	d = e + 1;
	if (*d == '+')
		memmove(d, d + 1, strlen(d + 1) + 1);
	else if (*d == '-')
		d++;
	while (d[0] == '0' && d[1] != '\0')
		memmove(d, d + 1, strlen(d + 1) + 1);
}

/* Copy s into buf[cap] (truncated to fit). */
static char *
fmt_copy(char *buf, size_t cap, const char *s)
{
	if (cap == 0)
		return buf;
	snprintf(buf, cap, "%s", s);
	return buf;
}

/* Format v into buf in at most width characters: "%.*g" (or "%.*e") with
 * the precision (at most 6, %g's default) shrinking until it fits,
 * exponents without '+' and leading zeros; "nan", "inf", "-inf"; '#' *
 * width when nothing fits. */
char *
pe_fmt_num(char *buf, size_t cap, int width, double v)
{
	char tmp[400]; /* "%.*g" of a double: at most ~320 bytes */

	if (cap == 0)
		return buf;
	buf[0] = '\0';
	if (width <= 0)
		return buf;
	if ((size_t)width >= cap)
		width = (int)cap - 1;
	if (width <= 0)
		return buf;
	if (isnan(v))
		snprintf(tmp, sizeof tmp, "nan");
	else if (isinf(v))
		snprintf(tmp, sizeof tmp, v < 0 ? "-inf" : "inf");
	else {
		if (v == 0.0)
			v = 0.0; /* no "-0" */
		/* At each precision %g first, then %e (which can be shorter
		 * for small numbers: 1.2e-4 against 0.00012). */
		for (int p = width < 6 ? width : 6; p >= 1; p--) {
			snprintf(tmp, sizeof tmp, "%.*g", p, v);
			fmt_compact_exp(tmp);
			if (strlen(tmp) <= (size_t)width)
				return fmt_copy(buf, cap, tmp);
			snprintf(tmp, sizeof tmp, "%.*e", p - 1, v);
			fmt_compact_exp(tmp);
			if (strlen(tmp) <= (size_t)width)
				return fmt_copy(buf, cap, tmp);
		}
		tmp[0] = '\0';
	}
	if (tmp[0] != '\0' && strlen(tmp) <= (size_t)width)
		return fmt_copy(buf, cap, tmp);
	memset(buf, '#', (size_t)width);
	buf[width] = '\0';
	return buf;
}
