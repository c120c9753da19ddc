/* asciicast v2, asciinema's recording format
 * (https://docs.asciinema.org/manual/asciicast/v2/): a header line, a JSON
 * object with the version, the terminal's size, the start time and its
 * environment, then one event per line, [time, code, data]: "o" for bytes
 * written to the terminal, "r" for a resize to "COLSxROWS". Every line is
 * whole JSON, so a file cut after any line is a valid recording. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "io/io.h"

/* The length of the UTF-8 sequence at s[0..n) that is valid (RFC 3629:
 * no overlong forms, no surrogates, at most U+10FFFF), or 0. */
static size_t
utf8_valid(const unsigned char *s, size_t n)
{
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* data[0..len) as the inside of a JSON string (RFC 8259, section 7) into
 * dest: quote, backslash and control characters escaped, valid UTF-8 as
 * it is, a byte that is not UTF-8 as U+FFFD. Returns the bytes written
 * (at most 6 per byte of data). */
static size_t
json_string(char *dest, const char *data, size_t len)
{
	const unsigned char *s = (const unsigned char *)data;
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		unsigned char b = s[i];
		size_t k;
		if (b == '"' || b == '\\') {
			dest[o++] = '\\';
			dest[o++] = (char)b;
			i++;
		} else if (b == '\n' || b == '\r' || b == '\t') {
			dest[o++] = '\\';
			dest[o++] = b == '\n' ? 'n' : b == '\r' ? 'r' : 't';
			i++;
		} else if (b < 0x20 || b == 0x7f) {
			o += (size_t)sprintf(dest + o, "\\u%04x", b);
			i++;
		} else if ((k = utf8_valid(s + i, len - i)) > 0) {
			memcpy(dest + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(dest + o, "\\ufffd", 6);
			o += 6;
			i++;
		}
	}
	return o;
}

/* The header line; see io.h. */
size_t
pe_cast_header(char *dest, size_t cap, int w, int h, long long timestamp,
    const char *term)
{
	char t[6 * 64 + 1];
	size_t tl = strlen(term != NULL ? term : "");
	if (tl > 64)
		tl = 64;
	t[json_string(t, term != NULL ? term : "", tl)] = '\0';
	int n = snprintf(dest, cap, "{\"version\": 2, \"width\": %d, "
	    "\"height\": %d, \"timestamp\": %lld, \"env\": {\"TERM\": "
	    "\"%s\"}}\n", w, h, timestamp, t);
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* Room an event of len bytes of data needs; see io.h. */
size_t
pe_cast_event_max(size_t len)
{
	return 64 + 6 * len;
}

/* One event line; see io.h. */
size_t
pe_cast_event(char *dest, double t, char code, const char *data, size_t len)
{
	size_t o = (size_t)sprintf(dest, "[%.6f, \"%c\", \"", t, code);
	o += json_string(dest + o, data, len);
	memcpy(dest + o, "\"]\n", 3);
	return o + 3;
}

/* The prefix of data that does not end inside a UTF-8 sequence; see
 * io.h. */
size_t
pe_cast_utf8_whole(const char *data, size_t len)
{
	const unsigned char *s = (const unsigned char *)data;
	/* a sequence is at most 4 bytes: look at the last 3 for its start */
	for (size_t back = 1; back <= 3 && back <= len; back++) {
		unsigned char b = s[len - back];
		if (b < 0x80)
			return len;
		if (b >= 0xc0) {
			size_t need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
			return need > back ? len - back : len;
		}
	}
	return len;
}

/* Append a line whole or not at all; see io.h. */
int
pe_cast_write(int fd, const char *line, size_t len, off_t *end)
{
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, line + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* a short write, then the error: take the part back
			 * (a pipe or a device cannot be cut: nothing to do) */
			int e = w == 0 ? EIO : errno;
			if (done > 0 && ftruncate(fd, *end) == 0)
				lseek(fd, *end, SEEK_SET);
			errno = e;
			return -1;
		}
		done += (size_t)w;
	}
	*end += (off_t)len;
	return 0;
}
