/* asciicast v2 lines (src/io/cast.c) against lines written out here from
 * the format's description (https://docs.asciinema.org/manual/asciicast/v2/)
 * and RFC 8259's string escapes. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/io.h"

/* The event line of data, as a string. */
static const char *
event(double t, char code, const char *data, size_t len)
{
	static char buf[1024];
	cr_assert_lt(pe_cast_event_max(len), sizeof buf);
	size_t n = pe_cast_event(buf, t, code, data, len);
	cr_assert_leq(n, pe_cast_event_max(len));
	buf[n] = '\0';
	return buf;
}

Test(cast, header_line)
{
	char buf[256];
	size_t n = pe_cast_header(buf, sizeof buf, 80, 24, 1700000000LL,
	    "xterm-256color");
	cr_assert_str_eq(buf, "{\"version\": 2, \"width\": 80, \"height\": 24, "
	    "\"timestamp\": 1700000000, \"env\": {\"TERM\": \"xterm-256color\"}}\n");
	cr_assert_eq(n, strlen(buf));
	/* a TERM with a quote stays one JSON string */
	pe_cast_header(buf, sizeof buf, 1, 1, 0, "a\"b");
	cr_assert(strstr(buf, "\"TERM\": \"a\\\"b\"}}") != NULL, "%s", buf);
	cr_assert_eq(pe_cast_header(buf, 10, 80, 24, 0, "x"), 0, "too small");
}

Test(cast, events_escape_json)
{
	cr_assert_str_eq(event(1.5, 'o', "hi", 2), "[1.500000, \"o\", \"hi\"]\n");
	cr_assert_str_eq(event(0.000001, 'r', "100x30", 6),
	    "[0.000001, \"r\", \"100x30\"]\n");
	const char esc[] = "a\"b\\c\n\r\t\033[0m\x7f";
	cr_assert_str_eq(event(2, 'o', esc, sizeof esc - 1),
	    "[2.000000, \"o\", \"a\\\"b\\\\c\\n\\r\\t\\u001b[0m\\u007f\"]\n");
	/* NUL is data too */
	cr_assert_str_eq(event(0, 'o', "a\0b", 3),
	    "[0.000000, \"o\", \"a\\u0000b\"]\n");
	/* UTF-8 as it is: é ▀ 😀 */
	const char u[] = "\xc3\xa9\xe2\x96\x80\xf0\x9f\x98\x80";
	cr_assert_str_eq(event(0, 'o', u, sizeof u - 1),
	    "[0.000000, \"o\", \"\xc3\xa9\xe2\x96\x80\xf0\x9f\x98\x80\"]\n");
	/* not UTF-8: U+FFFD a byte (a stray byte, an overlong '/', a
	 * surrogate, a sequence cut short) */
	const char bad[] = "\xff" "\xc0\xaf" "\xed\xa0\x80" "\xe2\x96" "x";
	cr_assert_str_eq(event(0, 'o', bad, sizeof bad - 1),
	    "[0.000000, \"o\", \"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd"
	    "\\ufffd\\ufffdx\"]\n");
}

Test(cast, utf8_whole_keeps_a_cut_character_for_later)
{
	cr_assert_eq(pe_cast_utf8_whole("", 0), 0);
	cr_assert_eq(pe_cast_utf8_whole("abc", 3), 3);
	cr_assert_eq(pe_cast_utf8_whole("ab\xe2\x96", 4), 2);
	cr_assert_eq(pe_cast_utf8_whole("ab\xe2", 3), 2);
	cr_assert_eq(pe_cast_utf8_whole("ab\xe2\x96\x80", 5), 5);
	cr_assert_eq(pe_cast_utf8_whole("a\xc3", 2), 1);
	cr_assert_eq(pe_cast_utf8_whole("a\xc3\xa9", 3), 3);
	cr_assert_eq(pe_cast_utf8_whole("\xf0\x9f\x98", 3), 0);
	cr_assert_eq(pe_cast_utf8_whole("\xf0\x9f\x98\x80", 4), 4);
}

/* A line that does not fit whole (a file size limit cuts the write short,
 * then EFBIG; a full disk does the same with ENOSPC) is taken back: the
 * file ends at the last whole line, and the next line that fits is not
 * written after a torn one. */
Test(cast, a_line_is_written_whole_or_not_at_all)
{
	char path[] = "/tmp/pescope-cast-XXXXXX";
	int fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	signal(SIGXFSZ, SIG_IGN);
	struct rlimit lim = {100, 100};
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	char line[31];
	memset(line, 'x', 29);
	line[29] = '\n';
	line[30] = '\0';
	off_t end = 0;
	for (int i = 0; i < 3; i++)
		cr_assert_eq(pe_cast_write(fd, line, 30, &end), 0, "line %d", i);
	cr_expect_eq(end, 90);
	errno = 0;
	cr_expect_eq(pe_cast_write(fd, line, 30, &end), -1, "past the limit");
	cr_expect_eq(errno, EFBIG, "%s", strerror(errno));
	cr_expect_eq(end, 90);
	struct stat sb;
	cr_assert_eq(fstat(fd, &sb), 0);
	cr_expect_eq(sb.st_size, 90, "the torn line stays: %lld bytes",
	    (long long)sb.st_size);
	/* a short line fits where the torn one was */
	cr_expect_eq(pe_cast_write(fd, "ab\n", 3, &end), 0);
	cr_assert_eq(fstat(fd, &sb), 0);
	cr_expect_eq(sb.st_size, 93);
	char buf[128];
	cr_assert_eq(pread(fd, buf, sizeof buf, 0), 93);
	cr_expect(memcmp(buf + 90, "ab\n", 3) == 0);
	close(fd);
	unlink(path);
}
