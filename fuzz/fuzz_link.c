/* libFuzzer target: what a peer sends over the lesson's link. The bytes go
 * through a socket pair into pe_link_poll (lines, a line too long dropped
 * whole), and every line, and the whole input as one line, through
 * pe_link_parse against a lesson of 17 scenes (scene 3 has 2 steps, scene
 * 9 has 4). What the parser takes must be within the bounds; what it says
 * about a refusal must hold no control byte (it quotes nothing of the
 * peer's). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "io/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NOW 1750000000LL
#define SCENES 17

/* Steps of scene k of the fuzzed lesson. */
static size_t
steps(const void *arg, size_t k)
{
	(void)arg;
	return k == 3 ? 2 : k == 9 ? 4 : 1;
}

/* Parse line; abort when the result breaks a bound. */
static void
check(const char *line)
{
	struct pe_link_msg m;
	char why[160];
	why[0] = '\0';
	int rc = pe_link_parse(line, NOW, SCENES, steps, NULL, &m, why,
	    sizeof why);
	if (rc == PE_OK) {
		if (m.scene >= SCENES || m.step >= steps(NULL, m.scene))
			abort();
		if (m.kind == PE_LINK_HELLO &&
		    (m.t0 < NOW - PE_LINK_DAY || m.t0 > NOW + PE_LINK_DAY))
			abort();
		if (m.kind != PE_LINK_HELLO && m.kind != PE_LINK_GOTO)
			abort();
		return;
	}
	if (rc != PE_EFORMAT || why[0] == '\0')
		abort();
	for (const char *p = why; *p != '\0'; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	char *text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	check(text);

	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) != 0) {
		free(text);
		return 0;
	}
	struct pe_link l;
	pe_link_init(&l, "/nonexistent/fuzz.sock");
	l.fd = sv[0];
	size_t sent = 0;
	char line[512];
	int lines = 0;
	for (;;) {
		if (sent < size) {
			ssize_t w = write(sv[1], data + sent, size - sent);
			if (w > 0)
				sent += (size_t)w;
			if (sent == size)
				shutdown(sv[1], SHUT_WR);
		} else if (size == 0) {
			shutdown(sv[1], SHUT_WR);
		}
		int ev = pe_link_poll(&l, line, sizeof line);
		if (ev == PE_LINK_LINE) {
			if (strlen(line) >= sizeof l.buf || ++lines > 65536)
				abort();
			check(line);
		} else if (ev == PE_LINK_LEFT) {
			break;
		} else if (ev != PE_LINK_NONE) {
			abort(); /* no listener: no peer joins or is refused */
		}
	}
	if (sent != size || pe_link_connected(&l))
		abort();
	pe_link_close(&l);
	close(sv[1]);
	free(text);
	return 0;
}
