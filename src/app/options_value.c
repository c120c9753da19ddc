/* Reading an option's value: numbers by one rule in every locale, sizes
 * and pairs of them, lists, and names from a set of choices. Each refusal
 * names the option and what it takes. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options_impl.h"
#include "io/io.h"

/* Write a one-line error into err and return 2. */
int
opt_fail(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (cap > 0)
		vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return 2;
}

/* The "C" locale, for reading numbers whatever the user's locale. */
static locale_t
value_c_locale(void)
{
	static locale_t loc;
	if (loc == (locale_t)0)
		loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	return loc;
}

/* Whether s[0..len) is a plain decimal number: [+-]digits[.digits][e[+-]
 * digits]. One rule for every number pescope reads: no spaces, no hex, no
 * inf or nan, the same in every locale. */
static bool
value_is_number(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			digits++;
	if (digits == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t e = i;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == e)
			return false;
	}
	return i == len;
}

/* Read the number s[0..len) (checked with value_is_number) in the C
 * locale. */
bool
opt_read_number(const char *s, size_t len, double *dest)
{
	char tmp[128];
	if (len == 0 || len >= sizeof tmp || !value_is_number(s, len))
		return false;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	errno = 0;
	double v = strtod_l(tmp, NULL, value_c_locale());
	if (errno == ERANGE && fabs(v) > 1.0) /* overflow; underflow is fine */
		return false;
	*dest = v;
	return isfinite(v);
}

/* Whether s is all digits (at least one). */
static bool
value_is_digits(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* Parse a whole-string unsigned integer in [lo, hi]. */
int
opt_size(const char *opt, const char *s, size_t lo, size_t hi, size_t *dest,
    char *err, size_t cap)
{
	errno = 0;
	unsigned long long v = value_is_digits(s) ? strtoull(s, NULL, 10) : 0;
	if (!value_is_digits(s) || errno != 0 || v < lo || v > hi)
		return opt_fail(err, cap, "--%s '%s': must be an integer in "
		    "%zu..%zu", opt, s, lo, hi);
	*dest = (size_t)v;
	return 0;
}

/* Parse a whole-string finite decimal number. */
int
opt_double(const char *opt, const char *s, double *dest, char *err,
    size_t cap)
{
	if (!opt_read_number(s, strlen(s), dest))
		return opt_fail(err, cap, "--%s '%s': must be a finite decimal "
		    "number (such as 2, 0.5 or 1e-3)", opt, s);
	return 0;
}

/* Parse "A<sep>B" into two integers in [lo, hi]. */
int
opt_pair(const char *opt, const char *s, char sep, size_t lo, size_t hi,
    size_t *a, size_t *b, const char *form, char *err, size_t cap)
{
	const char *x = strchr(s, sep);
	char tmp[32];
	if (x == NULL || (size_t)(x - s) >= sizeof tmp)
		goto bad;
	memcpy(tmp, s, (size_t)(x - s));
	tmp[x - s] = '\0';
	if (opt_size(opt, tmp, lo, hi, a, NULL, 0) != 0 ||
	    opt_size(opt, x + 1, lo, hi, b, NULL, 0) != 0)
		goto bad;
	return 0;
bad:
	return opt_fail(err, cap, "--%s '%s': must be %s with each number in "
	    "%zu..%zu", opt, s, form, lo, hi);
}

/* Parse exactly n comma-separated integers in [0, hi] ("16,24,24"). */
int
opt_sizes(const char *opt, const char *s, size_t n, size_t hi, size_t *dest,
    const char *form, char *err, size_t cap)
{
	size_t v[8], k = 0;
	const char *p = s;
	char tmp[32];

	while (k < n && k < 8) {
		size_t l = strcspn(p, ",");
		if (l == 0 || l >= sizeof tmp)
			goto bad;
		memcpy(tmp, p, l);
		tmp[l] = '\0';
		if (opt_size(opt, tmp, 0, hi, &v[k], NULL, 0) != 0)
			goto bad;
		k++;
		p += l;
		if (*p == '\0')
			break;
		p++;
	}
	if (k != n || *p != '\0')
		goto bad;
	memcpy(dest, v, n * sizeof *dest);
	return 0;
bad:
	return opt_fail(err, cap, "--%s '%s': must be %s, each in 0..%zu", opt,
	    s, form, hi);
}

/* Why a file could not be read, from a pe_file_read status. */
const char *
opt_file_why(int st)
{
	switch (st) {
	case PE_EIO:
		return strerror(errno);
	case PE_ERANGE:
		return "too large";
	case PE_EINVAL:
		return "not a regular file";
	default:
		return pe_strerror(st);
	}
}

/* Parse a list "a,b,c" or "@FILE" (numbers separated by commas, spaces or
 * newlines, optionally in brackets; '#' comments) into a malloc'd array. */
int
opt_list(const char *opt, const char *s, double **dest, size_t *n, char *err,
    size_t cap)
{
	static const char seps[] = ", \t\r\n[]";
	unsigned char *buf = NULL;
	size_t len;
	const char *p = s;

	if (s[0] == '@') {
		int st = pe_file_read(s + 1, 1 << 20, &buf, &len);
		if (st != PE_OK)
			return opt_fail(err, cap, "--%s '%s': cannot read it: "
			    "%s",
			    opt, s + 1, opt_file_why(st));
		p = (const char *)buf;
	}
	size_t cnt = 0, room = 16;
	double *v = malloc(room * sizeof *v);
	int rc = 0;
	while (v != NULL && *p != '\0') {
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		if (strchr(seps, *p) != NULL) {
			p++;
			continue;
		}
		size_t tl = strcspn(p, ", \t\r\n[]#");
		double x;
		if (!opt_read_number(p, tl, &x)) {
			rc = opt_fail(err, cap, "--%s: '%.*s' is not a finite "
			    "decimal number", opt, (int)(tl < 24 ? tl : 24), p);
			break;
		}
		if (cnt == room) {
			double *nv = realloc(v, (room *= 2) * sizeof *v);
			if (nv == NULL) {
				free(v);
				v = NULL;
				break;
			}
			v = nv;
		}
		v[cnt++] = x;
		p += tl;
	}
	free(buf);
	if (v == NULL)
		return opt_fail(err, cap, "out of memory");
	if (rc != 0 || cnt == 0) {
		free(v);
		return rc != 0 ? rc
			       : opt_fail(err, cap, "--%s: the list is empty",
			           opt);
	}
	free(*dest);
	*dest = v;
	*n = cnt;
	return 0;
}

/* Replace an owned string with a copy of s. */
int
opt_own(char **dest, const char *s, char *err, size_t cap)
{
	char *c = strdup(s);
	if (c == NULL)
		return opt_fail(err, cap, "out of memory");
	free(*dest);
	*dest = c;
	return 0;
}

/* Append item i of n to a list "a, b or c". */
void
opt_list_item(char *buf, size_t cap, int i, int n, const char *item,
    const char *sep_last)
{
	size_t l = strlen(buf);
	snprintf(buf + l, cap - l, "%s%s", i == 0 ? "" : i == n - 1 ? sep_last
								: ", ", item);
}

/* See options_table.h. */
const char *
opt_choice(const struct opt_choices *ch, int i, int *value)
{
	if (i < 0)
		return NULL;
	if (ch->names != NULL) {
		for (int k = 0; ch->names[k].name != NULL; k++)
			if (k == i) {
				*value = ch->names[k].value;
				return ch->names[k].name;
			}
		return NULL;
	}
	if (i >= ch->count)
		return NULL;
	*value = i;
	return ch->name(i);
}

/* See options_table.h. */
int
opt_choice_parse(const struct opt_choices *ch, const char *name)
{
	if (ch->names == NULL && ch->parse != NULL)
		return ch->parse(name);
	if (ch->names == NULL) {
		for (int v = 0; v < ch->count; v++)
			if (strcmp(ch->name(v), name) == 0)
				return v;
		return -1;
	}
	for (int k = 0; ch->names[k].name != NULL; k++)
		if (strcmp(ch->names[k].name, name) == 0)
			return ch->names[k].value;
	return -1;
}

/* Match s against ch; the value, or -1 after writing "--opt 's': must be
 * one of a, b or c" into err. */
int
opt_pick(const char *opt, const struct opt_choices *ch, const char *s,
    char *err, size_t cap)
{
	int v = opt_choice_parse(ch, s), n = 0, dummy;
	if (v >= 0)
		return v;
	while (opt_choice(ch, n, &dummy) != NULL)
		n++;
	char list[256] = "";
	for (int i = 0; i < n; i++)
		opt_list_item(list, sizeof list, i, n,
		    opt_choice(ch, i, &dummy), " or ");
	opt_fail(err, cap, "--%s '%s': must be %s", opt, s, list);
	return -1;
}
