/* --compare "OPTIONS": pane B is pane A's command line with the words of
 * OPTIONS (config options and presets, split as a shell would) applied on
 * top, checked as A is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options_impl.h"

/* Split s into words as a shell splits the quoting one types inside an
 * argument: blanks separate words; '...' keeps every character; "..."
 * keeps every character but a backslash before " \ $ or `, which goes; a
 * backslash outside quotes keeps the next character. The words go into
 * buf (strlen(s) + 1 bytes), NUL-separated, and words[] (at most max).
 * Returns their count, or -1 at an unterminated quote or a trailing
 * backslash. */
static int
compare_split(const char *s, char *buf, char **words, int max)
{
	int n = 0;
	char *o = buf;

	while (*s != '\0') {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (*s == '\0')
			break;
		if (n == max)
			return -1;
		words[n++] = o;
		while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n') {
			if (*s == '\'') {
				const char *e = strchr(s + 1, '\'');
				if (e == NULL)
					return -1;
				memcpy(o, s + 1, (size_t)(e - s - 1));
				o += e - s - 1;
				s = e + 1;
			} else if (*s == '"') {
				for (s++; *s != '"'; s++) {
					if (*s == '\0')
						return -1;
					if (*s == '\\' && s[1] != '\0' &&
					    strchr("\"\\$`", s[1]) != NULL)
						s++;
					*o++ = *s;
				}
				s++;
			} else if (*s == '\\') {
				if (s[1] == '\0')
					return -1;
				*o++ = s[1];
				s += 2;
			} else {
				*o++ = *s++;
			}
		}
		*o++ = '\0';
	}
	return n;
}

/* --compare: pane B's options into o->cmp: o's command line again (its
 * presets, then its options), then the words' presets and options on top,
 * which must be config options; the checks of opt_finish() on the result,
 * with the words' options as the given ones. Messages start "--compare
 * (pane B): ". */
int
opt_compare(struct pe_options *o, const struct opt_hit *ha, int na,
    char *err, size_t cap)
{
	static const char pre[] = "--compare (pane B): ";
	size_t len = strlen(o->compare);
	int max = (int)(len / 2 + 2), nb = 0, rc = 0;
	char *buf = malloc(len + 1), *msg = malloc(cap);
	char **av = calloc((size_t)max + 1, sizeof *av);
	struct opt_hit *hb = calloc(len + 1, sizeof *hb);
	struct pe_options *b = calloc(1, sizeof *b);
	bool given[O_COUNT] = {false};

	if (b != NULL) {
		opt_init(b, o->cmd);
		b->pane_b = true;
		o->cmp = b; /* pe_options_free(o) frees it */
	}
	if (buf == NULL || msg == NULL || av == NULL || hb == NULL ||
	    b == NULL) {
		rc = opt_fail(err, cap, "out of memory");
		goto end;
	}
	av[0] = (char *)"pescope";
	int nw = compare_split(o->compare, buf, av + 1, max - 1);
	if (nw < 0) {
		rc = opt_fail(err, cap, "%s'%s': a quote is not closed", pre,
		    o->compare);
		goto end;
	}
	if (nw == 0) {
		rc = opt_fail(err, cap, "%sno options: say what pane B "
		    "changes, e.g. --compare \"-e rope\"", pre);
		goto end;
	}
	if (av[1][0] != '-') {
		rc = opt_fail(err, cap, "%s'%s' is not an option: --compare "
		    "takes the options of a configuration, not a command", pre,
		    av[1]);
		goto end;
	}
	int word;
	rc = opt_collect(nw + 1, av, o->cmd, hb, &nb, &word, msg, cap);
	if (rc == 0 && word >= 0)
		rc = opt_fail(msg, cap, "unexpected argument '%s'; see "
		    "`pescope --help`", av[word]);
	if (rc != 0) {
		opt_fail(err, cap, "%s%s", pre, msg);
		goto end;
	}
	for (int i = 0; i < nb; i++) {
		enum opt_id id = hb[i].id;
		if (opt_is_config(id) || id == O_PRESET ||
		    id == O_PRESET_FILE)
			continue;
		rc = opt_fail(err, cap, "%s--%s is not a config option: "
		    "--compare takes what sets a pane's configuration "
		    "(encoding, sizes, scaling, the panels' inputs, presets)",
		    pre,
		    pe_opts[id].name);
		goto end;
	}
	/* A's command line, then B's words on top; the config as the
	 * presets left it says whether B is its preset modified */
	struct pe_config as_preset;
	rc = opt_apply_hits(b, ha, na, true, NULL, msg, cap);
	as_preset = b->cfg;
	if (rc == 0)
		rc = opt_apply_hits(b, ha, na, false, NULL, msg, cap);
	if (rc == 0 && opt_has_preset(hb, nb)) {
		rc = opt_apply_hits(b, hb, nb, true, NULL, msg, cap);
		as_preset = b->cfg;
	}
	if (rc == 0)
		rc = opt_apply_hits(b, hb, nb, false, given, msg, cap);
	free(b->compare);
	b->compare = NULL;
	if (rc == 0 && b->preset != NULL)
		b->preset_modified = opt_preset_modified(&b->cfg, &as_preset);
	if (rc == 0)
		rc = opt_finish(b, given, msg, cap);
	if (rc != 0)
		opt_fail(err, cap, "%s%s", pre, msg);
end:
	free(buf);
	free(msg);
	free(av);
	free(hb);
	return rc;
}

