/* The config reader's key readers (hfread.h): typed keys with messages
 * that name the key path, its range and the value found. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/hfread.h"

/* Why the reading failed: "FILE: " and the sentence into err; returns
 * PE_EFORMAT. */
int
hfjson_fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->err == NULL || r->cap == 0)
		return PE_EFORMAT;
	int n = snprintf(r->err, r->cap, "%s: ", r->file);
	if (n < 0 || (size_t)n >= r->cap)
		return PE_EFORMAT;
	va_start(ap, fmt);
	vsnprintf(r->err + n, r->cap - (size_t)n, fmt, ap);
	va_end(ap);
	return PE_EFORMAT;
}

/* v as compact JSON, at most about 40 bytes, into dest[cap]. */
void
hfjson_value_text(const json_t *v, char *dest, size_t cap)
{
	char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	if (s == NULL) {
		snprintf(dest, cap, "?");
		return;
	}
	size_t n = strlen(s);
	if (n > 40 && cap > 44)
		snprintf(dest, cap, "%.37s...", s);
	else
		snprintf(dest, cap, "%s", s);
	free(s);
}

/* "KEY: must be WHAT, got VALUE". */
int
hfjson_fail_value(struct reader *r, const char *path, const char *what,
           const json_t *v)
{
	char got[48];

	hfjson_value_text(v, got, sizeof got);
	return hfjson_fail(r, "%s: must be %s, got %s", path, what, got);
}

/* obj[key], or NULL when absent or null (Python's `.get(key)` is
 * None). */
json_t *
hfjson_get(const json_t *obj, const char *key)
{
	if (!json_is_object(obj))
		return NULL;
	json_t *v = json_object_get(obj, key);
	return json_is_null(v) ? NULL : v;
}

/* A number key in [lo, hi] (the kind of bound in what): PE_OK with *dest
 * and *given (when not NULL) set, or absent (PE_OK, *given false). */
int
hfjson_number(struct reader *r, const json_t *obj, const char *pre,
           const char *key, double lo, bool lo_open, double hi,
           const char *what, double *dest, bool *given)
{
	json_t *v = hfjson_get(obj, key);
	char path[KEYLEN];

	if (given != NULL)
		*given = false;
	if (v == NULL)
		return PE_OK;
	snprintf(path, sizeof path, "%s%s", pre, key);
	/* JSON true and false are not numbers, though Python's bool is an
	 * int: HF's validators (isinstance(x, (float, int))) would take
	 * them; pescope refuses them as the mistakes they are. */
	if (!json_is_number(v))
		return hfjson_fail_value(r, path, what, v);
	double x = json_number_value(v);
	if (!isfinite(x) || (lo_open ? !(x > lo) : !(x >= lo)) || !(x <= hi))
		return hfjson_fail_value(r, path, what, v);
	*dest = x;
	if (given != NULL)
		*given = true;
	return PE_OK;
}

/* A whole number key in [lo, hi] (integral reals such as 4096.0 too):
 * PE_OK, with *given false when absent. */
int
hfjson_size(struct reader *r, const json_t *obj, const char *pre,
         const char *key, size_t lo, size_t hi, size_t *dest, bool *given)
{
	json_t *v = hfjson_get(obj, key);
	char path[KEYLEN], what[80];

	if (given != NULL)
		*given = false;
	if (v == NULL)
		return PE_OK;
	snprintf(path, sizeof path, "%s%s", pre, key);
	snprintf(what, sizeof what, "a whole number from %zu to %zu", lo, hi);
	double x;
	if (json_is_integer(v))
		x = (double)json_integer_value(v);
	else if (json_is_real(v))
		x = json_real_value(v);
	else
		return hfjson_fail_value(r, path, what, v);
	if (!(x >= (double)lo && x <= (double)hi) || x != floor(x))
		return hfjson_fail_value(r, path, what, v);
	*dest = (size_t)x;
	if (given != NULL)
		*given = true;
	return PE_OK;
}

/* A boolean key: PE_OK (*dest unchanged when absent). */
int
hfjson_bool(struct reader *r, const json_t *obj, const char *pre,
         const char *key, bool *dest)
{
	json_t *v = hfjson_get(obj, key);
	char path[KEYLEN];

	if (v == NULL)
		return PE_OK;
	snprintf(path, sizeof path, "%s%s", pre, key);
	if (!json_is_boolean(v))
		return hfjson_fail_value(r, path, "true or false", v);
	*dest = json_is_true(v);
	return PE_OK;
}

/* A string key: PE_OK with *dest (NULL when absent). */
int
hfjson_string(struct reader *r, const json_t *obj, const char *pre,
           const char *key, const char **dest)
{
	json_t *v = hfjson_get(obj, key);
	char path[KEYLEN];

	*dest = NULL;
	if (v == NULL)
		return PE_OK;
	snprintf(path, sizeof path, "%s%s", pre, key);
	if (!json_is_string(v))
		return hfjson_fail_value(r, path, "a string", v);
	*dest = json_string_value(v);
	return PE_OK;
}

/* Note an unmodelled key of the text config: "PRE KEY = value". */
int
hfjson_note(struct reader *r, const char *pre, const char *key, const json_t *v,
     const char *why)
{
	char path[PE_NOTE_KEY_MAX], val[48] = "";

	snprintf(path, sizeof path, "%s%s", pre, key);
	if (v != NULL)
		hfjson_value_text(v, val, sizeof val);
	return pe_arch_note(r->arch, path, val, why);
}

