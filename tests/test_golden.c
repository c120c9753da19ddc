/* Golden frames: a fresh `pescope snapshot` equals the committed file in
 * screenshots/ byte for byte, so any change in rendering is a deliberate
 * regeneration (`make screenshots`) seen in the diff. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "pescope/pescope.h"

/* Split a manifest line's options on spaces into argv (in place); "..."
 * makes one word of what it holds (--compare "-e rope"), as the shell
 * does for tools/screenshots.sh. */
static int
split(char *s, const char **argv, int max)
{
	int n = 0;
	while (*s != '\0' && n < max) {
		while (*s == ' ' || *s == '\n')
			s++;
		if (*s == '\0')
			break;
		bool quoted = *s == '"';
		char *end = quoted ? strchr(s + 1, '"') : s + strcspn(s, " \n");
		if (quoted && end == NULL)
			end = s + strlen(s);
		argv[n++] = quoted ? s + 1 : s;
		s = *end != '\0' ? end + 1 : end;
		*end = '\0';
	}
	return n;
}

Test(golden, every_frame_matches_its_file)
{
	char *man = th_slurp(th_src("screenshots/MANIFEST"), NULL);
	cr_assert_not_null(man, "screenshots/MANIFEST missing");
	int frames = 0;
	char *save = NULL;
	for (char *line = strtok_r(man, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '\0')
			continue;
		char *tab = strchr(line, '\t');
		cr_assert_not_null(tab);
		*tab = '\0';
		char path[1024];
		snprintf(path, sizeof path, "screenshots/%s", line);
		size_t want_len;
		char *want = th_slurp(th_src(path), &want_len);
		cr_assert_not_null(want, "%s missing: run make screenshots", path);

		const char *argv[40] = {"pescope", "snapshot"};
		char opts[512];
		snprintf(opts, sizeof opts, "%s", tab + 1);
		int n = 2 + split(opts, argv + 2, 36);
		argv[n] = NULL;
		const char *env[] = {"NO_COLOR=", NULL};
		char *out, *err;
		size_t len;
		int st = th_run(argv, env, &out, &len, &err);
		cr_assert_eq(st, 0, "%s: %s", path, err);
		cr_expect(len == want_len && memcmp(out, want, len) == 0,
		    "%s differs from a fresh render (%zu vs %zu bytes); if the "
		    "change is meant, run make screenshots", path, len, want_len);
		free(out), free(err), free(want);
		frames++;
	}
	cr_assert(frames >= 15, "only %d frames in the manifest", frames);
	free(man);
}

/* Every frame has exactly H lines of exactly W columns. */
Test(golden, frames_have_exact_size)
{
	const char *sizes[][2] = {{"80x24", "txt"}, {"120x40", "txt"},
	    {"200x60", "txt"}};
	for (size_t i = 0; i < 3; i++) {
		for (int e = 0; e < PE_ENC_COUNT; e++) {
			const char *encs[] = {pe_encoding_name(e)};
			const char *argv[] = {"pescope", "snapshot", "-e", encs[0],
			    "--size", sizes[i][0], "-f", sizes[i][1], NULL};
			char *out, *err;
			cr_assert_eq(th_run(argv, NULL, &out, NULL, &err), 0, "%s", err);
			int w, h;
			sscanf(sizes[i][0], "%dx%d", &w, &h);
			int lines = 0, cols = 0;
			for (const unsigned char *p = (const unsigned char *)out; *p;
			     p++) {
				if (*p == '\n') {
					cr_expect_eq(cols, w, "%s %s line %d: %d columns",
					    encs[0], sizes[i][0], lines, cols);
					lines++;
					cols = 0;
				} else if ((*p & 0xc0) != 0x80) {
					cols++; /* one code point, one column */
				}
			}
			cr_expect_eq(lines, h, "%s %s: %d lines", encs[0], sizes[i][0],
			    lines);
			free(out), free(err);
		}
	}
}
