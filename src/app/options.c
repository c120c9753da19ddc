/* The one command-line parser: getopt_long over a table of options that the
 * TUI, snapshot, dump and bench share, plus presets (option files). */
#include "app/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/learned.h"

/* Which commands an option applies to. */
#define C_TUI (1u << PE_CMD_TUI)
#define C_SNAP (1u << PE_CMD_SNAPSHOT)
#define C_DUMP (1u << PE_CMD_DUMP)
#define C_BENCH (1u << PE_CMD_BENCH)
#define C_VIEW (C_TUI | C_SNAP)
#define C_ALL (C_TUI | C_SNAP | C_DUMP | C_BENCH)

enum opt_id {
	O_ENCODING = 256, O_D_MODEL, O_SEQ_LEN, O_BASE, O_LAYOUT, O_PAIRING,
	O_HEADS, O_ALIBI_MODE, O_RELATIVE, O_BUCKETS, O_MAX_DISTANCE,
	O_BIDIRECTIONAL, O_UNIDIRECTIONAL, O_MAX_RELATIVE, O_GRID, O_TABLE_FILE,
	O_MAX_LEN, O_ROPE_SCALING, O_FACTOR, O_ORIGINAL_MAX_POS, O_MAX_POS,
	O_BETA_FAST, O_BETA_SLOW, O_MSCALE, O_MSCALE_ALL_DIM, O_ATTENTION_FACTOR,
	O_NO_TRUNCATE, O_TRUNCATE, O_LOW_FREQ, O_HIGH_FREQ, O_SHORT_FACTOR,
	O_LONG_FACTOR, O_PARTIAL_ROTARY, O_PRESET, O_PRESET_FILE,
	O_LIST_PRESETS, O_TABLE, O_FORMAT, O_DTYPE, O_OUTPUT, O_HEAD, O_CURSOR,
	O_SIZE, O_COLOR, O_QUICK, O_HELP, O_VERSION,
};

struct opt_desc {
	const char *name;
	int has_arg;
	int id;
	unsigned cmds;
};

static const struct opt_desc opts[] = {
	{"encoding", 1, O_ENCODING, C_ALL},
	{"d-model", 1, O_D_MODEL, C_ALL},
	{"seq-len", 1, O_SEQ_LEN, C_ALL},
	{"base", 1, O_BASE, C_ALL},
	{"layout", 1, O_LAYOUT, C_ALL},
	{"pairing", 1, O_PAIRING, C_ALL},
	{"heads", 1, O_HEADS, C_ALL},
	{"alibi-mode", 1, O_ALIBI_MODE, C_ALL},
	{"relative", 1, O_RELATIVE, C_ALL},
	{"buckets", 1, O_BUCKETS, C_ALL},
	{"max-distance", 1, O_MAX_DISTANCE, C_ALL},
	{"bidirectional", 0, O_BIDIRECTIONAL, C_ALL},
	{"unidirectional", 0, O_UNIDIRECTIONAL, C_ALL},
	{"max-relative", 1, O_MAX_RELATIVE, C_ALL},
	{"grid", 1, O_GRID, C_ALL},
	{"table-file", 1, O_TABLE_FILE, C_ALL},
	{"max-len", 1, O_MAX_LEN, C_ALL},
	{"rope-scaling", 1, O_ROPE_SCALING, C_ALL},
	{"factor", 1, O_FACTOR, C_ALL},
	{"original-max-pos", 1, O_ORIGINAL_MAX_POS, C_ALL},
	{"max-pos", 1, O_MAX_POS, C_ALL},
	{"beta-fast", 1, O_BETA_FAST, C_ALL},
	{"beta-slow", 1, O_BETA_SLOW, C_ALL},
	{"mscale", 1, O_MSCALE, C_ALL},
	{"mscale-all-dim", 1, O_MSCALE_ALL_DIM, C_ALL},
	{"attention-factor", 1, O_ATTENTION_FACTOR, C_ALL},
	{"no-truncate", 0, O_NO_TRUNCATE, C_ALL},
	{"truncate", 0, O_TRUNCATE, C_ALL},
	{"low-freq-factor", 1, O_LOW_FREQ, C_ALL},
	{"high-freq-factor", 1, O_HIGH_FREQ, C_ALL},
	{"short-factor", 1, O_SHORT_FACTOR, C_ALL},
	{"long-factor", 1, O_LONG_FACTOR, C_ALL},
	{"partial-rotary", 1, O_PARTIAL_ROTARY, C_ALL},
	{"preset", 1, O_PRESET, C_ALL},
	{"preset-file", 1, O_PRESET_FILE, C_ALL},
	{"list-presets", 0, O_LIST_PRESETS, C_ALL},
	{"table", 1, O_TABLE, C_DUMP},
	{"format", 1, O_FORMAT, C_DUMP | C_SNAP},
	{"dtype", 1, O_DTYPE, C_DUMP},
	{"output", 1, O_OUTPUT, C_DUMP | C_SNAP},
	{"head", 1, O_HEAD, C_DUMP | C_VIEW},
	{"cursor", 1, O_CURSOR, C_VIEW},
	{"size", 1, O_SIZE, C_SNAP | C_BENCH},
	{"color", 1, O_COLOR, C_VIEW},
	{"quick", 0, O_QUICK, C_BENCH},
	{"help", 0, O_HELP, C_ALL},
	{"version", 0, O_VERSION, C_ALL},
};
#define NOPTS (sizeof opts / sizeof opts[0])

static const char *const cmd_names[] = {
	"pescope", "snapshot", "dump", "bench", "help", "version", "list-presets",
};

/* Write a one-line error into err and return 2. */
static int
fail(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return 2;
}

/* Parse a whole-string unsigned integer in [lo, hi]. */
static int
parse_size(const char *opt, const char *s, size_t lo, size_t hi, size_t *dest,
    char *err, size_t cap)
{
	char *end;
	errno = 0;
	if (*s == '-' || *s == '+' || *s == '\0' || *s == ' ')
		goto bad;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < lo || v > hi)
		goto bad;
	*dest = (size_t)v;
	return 0;
bad:
	return fail(err, cap, "--%s '%s': must be an integer in %zu..%zu", opt, s,
	    lo, hi);
}

/* Parse a whole-string finite double. */
static int
parse_double(const char *opt, const char *s, double *dest, char *err,
    size_t cap)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v))
		return fail(err, cap, "--%s '%s': must be a finite number", opt, s);
	*dest = v;
	return 0;
}

/* Parse "AxB" into two integers in [1, hi]. */
static int
parse_pair(const char *opt, const char *s, char sep, size_t lo, size_t hi,
    size_t *a, size_t *b, const char *form, char *err, size_t cap)
{
	const char *x = strchr(s, sep);
	char tmp[64];
	if (x == NULL || (size_t)(x - s) >= sizeof tmp)
		goto bad;
	memcpy(tmp, s, (size_t)(x - s));
	tmp[x - s] = '\0';
	char *end;
	errno = 0;
	if (tmp[0] < '0' || tmp[0] > '9' || x[1] < '0' || x[1] > '9')
		goto bad;
	unsigned long long va = strtoull(tmp, &end, 10);
	if (*end != '\0' || errno != 0)
		goto bad;
	unsigned long long vb = strtoull(x + 1, &end, 10);
	if (*end != '\0' || errno != 0)
		goto bad;
	if (va < lo || va > hi || vb < lo || vb > hi)
		goto bad;
	*a = (size_t)va;
	*b = (size_t)vb;
	return 0;
bad:
	return fail(err, cap, "--%s '%s': must be %s with each number in %zu..%zu",
	    opt, s, form, lo, hi);
}

/* Parse a list "a,b,c" or "@FILE" (numbers separated by commas, spaces or
 * newlines; '#' comments) into a malloc'd array. */
static int
parse_list(const char *opt, const char *s, double **dest, size_t *n, char *err,
    size_t cap)
{
	unsigned char *buf = NULL;
	size_t len;
	char *text;
	if (s[0] == '@') {
		int st = pe_file_read(s + 1, 1 << 20, &buf, &len);
		if (st != PE_OK)
			return fail(err, cap, "--%s '%s': cannot read the file (%s)",
			    opt, s + 1, pe_strerror(st));
		text = (char *)buf;
	} else {
		text = strdup(s);
		if (text == NULL)
			return fail(err, cap, "out of memory");
	}
	size_t cap_n = 16, cnt = 0;
	double *v = malloc(cap_n * sizeof *v);
	char *p = text;
	int rc = 0;
	while (v != NULL && *p != '\0') {
		if (*p == '#') {
			while (*p != '\0' && *p != '\n')
				p++;
			continue;
		}
		if (*p == ',' || *p == ' ' || *p == '\n' || *p == '\t' ||
		    *p == '\r' || *p == '[' || *p == ']') {
			p++;
			continue;
		}
		char *end;
		double x = strtod(p, &end);
		if (end == p || !isfinite(x)) {
			rc = fail(err, cap, "--%s: '%.20s' is not a finite number", opt,
			    p);
			break;
		}
		if (cnt == cap_n) {
			double *nv = realloc(v, (cap_n *= 2) * sizeof *v);
			if (nv == NULL) {
				free(v);
				v = NULL;
				break;
			}
			v = nv;
		}
		v[cnt++] = x;
		p = end;
	}
	free(text);
	if (v == NULL)
		return fail(err, cap, "out of memory");
	if (rc != 0 || cnt == 0) {
		free(v);
		return rc != 0 ? rc
			       : fail(err, cap, "--%s: the list is empty", opt);
	}
	free(*dest);
	*dest = v;
	*n = cnt;
	return 0;
}

/* Match s against a list of names; index or -1. */
static int
pick(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static int load_table(struct pe_options *o, const char *path, char *err,
    size_t cap);

/* Apply one option (by id) with its argument to *o. */
static int
apply(struct pe_options *o, int id, const char *name, const char *arg,
    char *err, size_t cap)
{
	struct pe_config *c = &o->cfg;
	int k;

	switch (id) {
	case O_ENCODING:
		if ((k = pe_encoding_parse(arg)) < 0)
			return fail(err, cap, "--encoding '%s': must be one of "
			    "sinusoidal, learned, relative, rope, alibi, nope, vit2d",
			    arg);
		c->enc = (enum pe_encoding)k;
		return 0;
	case O_D_MODEL:
		o->d_given = true;
		return parse_size(name, arg, 1, PE_MAX_D, &c->d, err, cap);
	case O_SEQ_LEN:
		return parse_size(name, arg, 1, PE_MAX_N, &c->n, err, cap);
	case O_BASE:
		if (parse_double(name, arg, &c->base, err, cap) != 0)
			return 2;
		if (c->base <= 1.0)
			return fail(err, cap, "--base '%s': must be a finite number > 1",
			    arg);
		return 0;
	case O_LAYOUT: {
		static const char *const n[] = {"interleaved", "split"};
		if ((k = pick(arg, n, 2)) < 0)
			return fail(err, cap,
			    "--layout '%s': must be interleaved or split", arg);
		c->layout = (enum pe_layout)k;
		return 0;
	}
	case O_PAIRING: {
		static const char *const n[] = {"half", "interleaved"};
		if ((k = pick(arg, n, 2)) < 0)
			return fail(err, cap,
			    "--pairing '%s': must be half or interleaved", arg);
		c->pairing = (enum pe_pairing)k;
		return 0;
	}
	case O_HEADS:
		return parse_size(name, arg, 1, PE_MAX_HEADS, &c->heads, err, cap);
	case O_ALIBI_MODE: {
		static const char *const n[] = {"causal", "symmetric"};
		if ((k = pick(arg, n, 2)) < 0)
			return fail(err, cap,
			    "--alibi-mode '%s': must be causal or symmetric", arg);
		c->alibi_mode = (enum pe_alibi_mode)k;
		return 0;
	}
	case O_RELATIVE: {
		static const char *const n[] = {"t5", "shaw"};
		if ((k = pick(arg, n, 2)) < 0)
			return fail(err, cap, "--relative '%s': must be t5 or shaw",
			    arg);
		c->relative = (enum pe_relative_kind)k;
		return 0;
	}
	case O_BUCKETS:
		return parse_size(name, arg, 2, 4096, &c->buckets, err, cap);
	case O_MAX_DISTANCE:
		return parse_size(name, arg, 1, PE_MAX_N, &c->max_distance, err,
		    cap);
	case O_BIDIRECTIONAL:
		c->bidirectional = true;
		return 0;
	case O_UNIDIRECTIONAL:
		c->bidirectional = false;
		return 0;
	case O_MAX_RELATIVE:
		return parse_size(name, arg, 1, PE_MAX_N, &c->max_relative, err,
		    cap);
	case O_GRID:
		return parse_pair(name, arg, 'x', 1, PE_MAX_GRID, &c->grid_h,
		    &c->grid_w, "HxW (rows x columns of patches)", err, cap);
	case O_TABLE_FILE:
		return load_table(o, arg, err, cap);
	case O_MAX_LEN:
		o->max_len_given = true;
		return parse_size(name, arg, 1, PE_MAX_N, &c->max_len, err, cap);
	case O_ROPE_SCALING:
		if ((k = pe_rope_type_parse(arg)) < 0)
			return fail(err, cap, "--rope-scaling '%s': must be one of "
			    "default, linear, dynamic, yarn, longrope, llama3", arg);
		c->rope.type = (enum pe_rope_type)k;
		return 0;
	case O_FACTOR:
		return parse_double(name, arg, &c->rope.factor, err, cap);
	case O_ORIGINAL_MAX_POS:
		return parse_size(name, arg, 1, PE_MAX_N, &c->rope.original_max_pos,
		    err, cap);
	case O_MAX_POS:
		return parse_size(name, arg, 1, PE_MAX_N, &c->rope.max_pos, err,
		    cap);
	case O_BETA_FAST:
		return parse_double(name, arg, &c->rope.beta_fast, err, cap);
	case O_BETA_SLOW:
		return parse_double(name, arg, &c->rope.beta_slow, err, cap);
	case O_MSCALE:
		return parse_double(name, arg, &c->rope.mscale, err, cap);
	case O_MSCALE_ALL_DIM:
		return parse_double(name, arg, &c->rope.mscale_all_dim, err, cap);
	case O_ATTENTION_FACTOR:
		return parse_double(name, arg, &c->rope.attention_factor, err, cap);
	case O_NO_TRUNCATE:
		c->rope.truncate = false;
		return 0;
	case O_TRUNCATE:
		c->rope.truncate = true;
		return 0;
	case O_LOW_FREQ:
		return parse_double(name, arg, &c->rope.low_freq_factor, err, cap);
	case O_HIGH_FREQ:
		return parse_double(name, arg, &c->rope.high_freq_factor, err, cap);
	case O_SHORT_FACTOR:
		if (parse_list(name, arg, &o->short_factor, &c->rope.n_short, err,
			cap) != 0)
			return 2;
		c->rope.short_factor = o->short_factor;
		return 0;
	case O_LONG_FACTOR:
		if (parse_list(name, arg, &o->long_factor, &c->rope.n_long, err,
			cap) != 0)
			return 2;
		c->rope.long_factor = o->long_factor;
		return 0;
	case O_PARTIAL_ROTARY:
		if (parse_double(name, arg, &c->rope.partial_rotary, err, cap) != 0)
			return 2;
		if (c->rope.partial_rotary <= 0 || c->rope.partial_rotary > 1)
			return fail(err, cap, "--partial-rotary '%s': must be in (0, 1]",
			    arg);
		return 0;
	case O_TABLE:
		o->table = arg;
		return 0;
	case O_FORMAT:
		if (o->cmd == PE_CMD_DUMP) {
			static const char *const n[] = {"csv", "npy"};
			if ((k = pick(arg, n, 2)) < 0)
				return fail(err, cap,
				    "--format '%s': dump writes csv or npy", arg);
			o->dump_format = (enum pe_dump_format)k;
		} else {
			if ((k = pe_format_parse(arg)) < 0)
				return fail(err, cap, "--format '%s': snapshot writes "
				    "ansi, txt or html", arg);
			o->snap_format = (enum pe_format)k;
		}
		return 0;
	case O_DTYPE: {
		static const char *const n[] = {"f32", "f64"};
		if ((k = pick(arg, n, 2)) < 0)
			return fail(err, cap, "--dtype '%s': must be f32 or f64", arg);
		o->dtype = k == 0 ? PE_F32 : PE_F64;
		return 0;
	}
	case O_OUTPUT:
		if (arg[0] == '\0')
			return fail(err, cap, "--output: the file name is empty");
		o->output = strcmp(arg, "-") == 0 ? NULL : arg;
		return 0;
	case O_HEAD:
		o->head_given = true;
		return parse_size(name, arg, 0, PE_MAX_HEADS - 1, &o->head, err,
		    cap);
	case O_CURSOR:
		o->cursor_given = true;
		return parse_pair(name, arg, ',', 0, PE_MAX_N, &o->cursor_p,
		    &o->cursor_j, "P,J (position, then column)", err, cap);
	case O_SIZE: {
		size_t w, h;
		if (parse_pair(name, arg, 'x', 1, 1000, &w, &h,
			"WxH (columns x lines)", err, cap) != 0)
			return 2;
		o->width = (int)w;
		o->height = (int)h;
		return 0;
	}
	case O_COLOR:
		if ((k = pe_depth_parse(arg)) < 0)
			return fail(err, cap,
			    "--color '%s': must be truecolor, 256, 16, 8 or mono", arg);
		o->depth = k;
		return 0;
	case O_QUICK:
		o->bench_quick = true;
		return 0;
	case O_LIST_PRESETS:
		o->cmd = PE_CMD_LIST_PRESETS;
		return 0;
	case O_HELP:
		o->cmd = PE_CMD_HELP;
		return 0;
	case O_VERSION:
		o->cmd = PE_CMD_VERSION;
		return 0;
	}
	return fail(err, cap, "--%s: not handled", name);
}

/* Read an NPY table for the learned encoding. */
static int
load_table(struct pe_options *o, const char *path, char *err, size_t cap)
{
	unsigned char *buf;
	size_t len, rows, cols;
	const char *why = "unreadable";
	float *t;
	int st = pe_file_read(path, (size_t)1 << 32, &buf, &len);
	if (st != PE_OK)
		return fail(err, cap, "--table-file '%s': cannot read it (%s)", path,
		    pe_strerror(st));
	st = pe_npy_read(buf, len, &t, &rows, &cols, &why);
	free(buf);
	if (st != PE_OK)
		return fail(err, cap, "--table-file '%s': not a usable NPY table "
		    "(%s); need a 2-D <f4 or <f8 array [max_len, d_model]", path, why);
	if (rows < 1 || cols < 1 || rows > PE_MAX_N || cols > PE_MAX_D) {
		free(t);
		return fail(err, cap, "--table-file '%s': shape [%zu, %zu] is out "
		    "of range", path, rows, cols);
	}
	free(o->table_data);
	o->table_data = t;
	o->cfg.table = t;
	o->cfg.table_untrained = false;
	o->cfg.max_len = rows;
	o->cfg.enc = PE_ENC_LEARNED;
	/* The file's width is its d_model; a different --d-model is an error
	 * found after all options are read. */
	o->table_rows = rows;
	o->table_cols = cols;
	return 0;
}

/* Find an option by long name. */
static const struct opt_desc *
find_opt(const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(opts[i].name, name) == 0)
			return &opts[i];
	return NULL;
}

extern const struct pe_embedded {
	const char *name;
	const char *text;
} pe_presets[];

/* Text of a compiled-in preset, or NULL. */
const char *
pe_preset_text(const char *name)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++)
		if (strcmp(pe_presets[i].name, name) == 0)
			return pe_presets[i].text;
	return NULL;
}

/* Trim spaces at both ends of s in place. */
static char *
trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* Apply a preset's text (lines "option = value") to *o. */
int
pe_options_apply_preset(struct pe_options *o, const char *name,
    const char *text, char *err, size_t cap)
{
	char *copy = strdup(text), *save = NULL, *line;
	int lineno = 0, rc = 0;
	if (copy == NULL)
		return fail(err, cap, "out of memory");
	for (line = strtok_r(copy, "\n", &save); line != NULL && rc == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash != NULL)
			*hash = '\0';
		char *key = trim(line), *val = NULL, *eq = strchr(key, '=');
		if (*key == '\0')
			continue;
		if (eq != NULL) {
			*eq = '\0';
			val = trim(eq + 1);
			key = trim(key);
		}
		if (strcmp(key, "source") == 0 || strcmp(key, "description") == 0) {
			if (strcmp(key, "source") == 0 && val != NULL) {
				free(o->preset_source);
				o->preset_source = strdup(val);
			}
			continue;
		}
		const struct opt_desc *d = find_opt(key);
		if (d == NULL || d->id == O_PRESET || d->id == O_PRESET_FILE ||
		    !(d->cmds & C_ALL) || d->id == O_HELP || d->id == O_VERSION ||
		    d->id == O_LIST_PRESETS) {
			rc = fail(err, cap, "preset %s, line %d: '%s' is not an option "
			    "a preset can set", name, lineno, key);
			break;
		}
		if (d->has_arg && (val == NULL || *val == '\0')) {
			rc = fail(err, cap, "preset %s, line %d: '%s' needs a value",
			    name, lineno, key);
			break;
		}
		char msg[512];
		if (apply(o, d->id, d->name, val != NULL ? val : "", msg,
			sizeof msg) != 0)
			rc = fail(err, cap, "preset %s, line %d: %s", name, lineno, msg);
	}
	free(copy);
	return rc;
}

/* Apply --preset NAME or --preset-file FILE. */
static int
apply_preset_opt(struct pe_options *o, bool is_file, const char *arg,
    char *err, size_t cap)
{
	if (!is_file) {
		const char *t = pe_preset_text(arg);
		if (t == NULL)
			return fail(err, cap, "--preset '%s': unknown preset; "
			    "`pescope --list-presets` lists them", arg);
		o->preset = arg;
		return pe_options_apply_preset(o, arg, t, err, cap);
	}
	unsigned char *buf;
	size_t len;
	int st = pe_file_read(arg, 1 << 20, &buf, &len);
	if (st != PE_OK)
		return fail(err, cap, "--preset-file '%s': cannot read it (%s)", arg,
		    pe_strerror(st));
	char *text = realloc(buf, len + 1);
	if (text == NULL) {
		free(buf);
		return fail(err, cap, "out of memory");
	}
	text[len] = '\0';
	if (memchr(text, '\0', len) != NULL) {
		free(text);
		return fail(err, cap, "--preset-file '%s': not a text file", arg);
	}
	o->preset = arg;
	int rc = pe_options_apply_preset(o, arg, text, err, cap);
	free(text);
	return rc;
}

/* The checks that need every option: table width, cursor, the config. */
static int
finish(struct pe_options *o, char *err, size_t cap)
{
	struct pe_config *c = &o->cfg;
	char why[512];

	if (o->table_data != NULL) {
		if (o->d_given && c->d != o->table_cols)
			return fail(err, cap, "--table-file: the table is %zu wide but "
			    "--d-model is %zu; they must agree (or leave out "
			    "--d-model)", o->table_cols, c->d);
		c->d = o->table_cols;
		if (o->max_len_given && c->max_len != o->table_rows)
			return fail(err, cap, "--max-len %zu: the table file has %zu "
			    "rows; leave out --max-len to use them all", c->max_len,
			    o->table_rows);
		c->max_len = o->table_rows;
	}
	if (pe_config_check(c, why, sizeof why) != PE_OK)
		return fail(err, cap, "%s", why);
	if (c->enc == PE_ENC_LEARNED && o->table_data == NULL) {
		/* GPT-2's init, labelled untrained; bounded so it fits in memory. */
		if ((double)c->max_len * (double)c->d > (double)(1u << 26))
			return fail(err, cap, "--max-len %zu: an untrained table of %zu "
			    "x %zu is too large; max_len x d_model must be at most "
			    "67108864", c->max_len, c->max_len, c->d);
		o->table_data = malloc(c->max_len * c->d * sizeof(float));
		if (o->table_data == NULL)
			return fail(err, cap, "out of memory for the learned table");
		pe_learned_init(c->max_len, c->d, 0x5e5c09eULL, o->table_data);
		c->table = o->table_data;
		c->table_untrained = true;
	}
	if (o->head_given && c->enc == PE_ENC_ALIBI && o->head >= c->heads)
		return fail(err, cap, "--head %zu: must be in 0..%zu (there are %zu "
		    "heads)", o->head, c->heads - 1, c->heads);
	return 0;
}

/* Parse argv into *o. */
int
pe_options_parse(struct pe_options *o, int argc, char **argv, char *err,
    size_t cap)
{
	struct option lo[NOPTS + 1];
	int first = 1, rc;

	memset(o, 0, sizeof *o);
	pe_config_default(&o->cfg);
	o->cmd = PE_CMD_TUI;
	o->width = 120;
	o->height = 40;
	o->depth = -1;
	o->snap_format = PE_FMT_ANSI;
	o->dump_format = PE_DUMP_CSV;
	o->dtype = PE_F32;
	if (argc > 1 && argv[1][0] != '-') {
		if (strcmp(argv[1], "snapshot") == 0)
			o->cmd = PE_CMD_SNAPSHOT;
		else if (strcmp(argv[1], "dump") == 0)
			o->cmd = PE_CMD_DUMP;
		else if (strcmp(argv[1], "bench") == 0)
			o->cmd = PE_CMD_BENCH;
		else
			return fail(err, cap, "unknown command '%s': commands are "
			    "snapshot, dump and bench (none starts the TUI)", argv[1]);
		first = 2;
	}
	enum pe_cmd cmd = o->cmd;

	/* Presets first, so that the other options override them wherever
	 * they stand on the line. */
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		bool file = strncmp(a, "--preset-file", 13) == 0;
		bool name = !file && strncmp(a, "--preset", 8) == 0 &&
		    (a[8] == '\0' || a[8] == '=');
		if (!file && !name)
			continue;
		const char *eq = strchr(a, '=');
		const char *val = eq != NULL ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (val == NULL)
			return fail(err, cap, "%s: needs a value", a);
		if ((rc = apply_preset_opt(o, file, val, err, cap)) != 0)
			return rc;
	}

	for (size_t i = 0; i < NOPTS; i++) {
		lo[i].name = opts[i].name;
		lo[i].has_arg = opts[i].has_arg ? required_argument : no_argument;
		lo[i].flag = NULL;
		lo[i].val = opts[i].id;
	}
	memset(&lo[NOPTS], 0, sizeof lo[NOPTS]);

	optind = 0; /* full re-initialisation, so the parser can run twice */
	opterr = 0;
	int ac = argc - first + 1;
	char **av = argv + first - 1;
	int c, idx;
	while ((c = getopt_long(ac, av, ":e:d:n:t:f:o:hV", lo, &idx)) != -1) {
		const struct opt_desc *d = NULL;
		switch (c) {
		case 'e': d = find_opt("encoding"); break;
		case 'd': d = find_opt("d-model"); break;
		case 'n': d = find_opt("seq-len"); break;
		case 't': d = find_opt("table"); break;
		case 'f': d = find_opt("format"); break;
		case 'o': d = find_opt("output"); break;
		case 'h': d = find_opt("help"); break;
		case 'V': d = find_opt("version"); break;
		case ':':
			return fail(err, cap, "%s: needs a value", av[optind - 1]);
		case '?':
			if (optopt != 0)
				return fail(err, cap, "unknown option '-%c'; see "
				    "`pescope --help`", optopt);
			return fail(err, cap, "unknown option '%s'; see "
			    "`pescope --help`", av[optind - 1]);
		default:
			for (size_t i = 0; i < NOPTS; i++)
				if (opts[i].id == c)
					d = &opts[i];
		}
		if (d == NULL)
			return fail(err, cap, "internal: option %d", c);
		if (d->id == O_PRESET || d->id == O_PRESET_FILE)
			continue; /* applied above */
		if (!(d->cmds & (1u << cmd))) {
			return fail(err, cap, "--%s does not apply to %s", d->name,
			    cmd == PE_CMD_TUI ? "the TUI" : cmd_names[cmd]);
		}
		if ((rc = apply(o, d->id, d->name, optarg, err, cap)) != 0)
			return rc;
	}
	if (optind < ac)
		return fail(err, cap, "unexpected argument '%s'; see `pescope "
		    "--help`", av[optind]);
	if (o->cmd == PE_CMD_HELP || o->cmd == PE_CMD_VERSION ||
	    o->cmd == PE_CMD_LIST_PRESETS)
		return 0;
	if (o->cmd == PE_CMD_DUMP && o->table == NULL)
		return fail(err, cap, "dump needs --table T (which table to write); "
		    "see `pescope --help`");
	return finish(o, err, cap);
}

/* Release what the options own. */
void
pe_options_free(struct pe_options *o)
{
	free(o->table_data);
	free(o->short_factor);
	free(o->long_factor);
	free(o->preset_source);
	o->table_data = NULL;
	o->short_factor = o->long_factor = NULL;
	o->preset_source = NULL;
}

/* List the compiled-in presets with their first description line. */
void
pe_options_list_presets(FILE *fp)
{
	for (size_t i = 0; pe_presets[i].name != NULL; i++) {
		const char *t = pe_presets[i].text, *d = strstr(t, "description");
		int len = 0;
		if (d != NULL && (d = strchr(d, '=')) != NULL) {
			d++;
			while (*d == ' ')
				d++;
			len = (int)strcspn(d, "\n");
		}
		fprintf(fp, "%-18s %.*s\n", pe_presets[i].name, len, d ? d : "");
	}
}

/* The usage text. */
void
pe_options_usage(FILE *fp)
{
	fputs(
"Usage: pescope [OPTION]...              the interactive viewer (TUI)\n"
"  or:  pescope snapshot [OPTION]...     the same frame, written as text\n"
"  or:  pescope dump --table T [OPTION]... the raw numbers (CSV or NPY)\n"
"  or:  pescope bench [--quick]          time every view\n"
"See transformer positional encodings in a terminal.\n"
"\n"
"Encoding and sizes (the TUI, snapshot and dump all take these):\n"
"  -e, --encoding E        sinusoidal (default), learned, relative, rope,\n"
"                          alibi, nope, vit2d\n"
"  -d, --d-model N         model width (rope: the head dimension); 64\n"
"  -n, --seq-len N         sequence length; 64\n"
"      --base B            sinusoidal / rope base theta; 10000\n"
"      --layout L          sinusoidal: interleaved (paper) or split (t2t)\n"
"      --pairing P         rope: half (HF rotate_half) or interleaved (GPT-J)\n"
"      --heads H           alibi heads; 8\n"
"      --alibi-mode M      causal (default) or symmetric\n"
"      --relative K        t5 (default) or shaw\n"
"      --buckets N         t5 num_buckets; 32\n"
"      --max-distance N    t5 max_distance; 128\n"
"      --bidirectional     t5 encoder buckets (default)\n"
"      --unidirectional    t5 decoder buckets\n"
"      --max-relative K    shaw clipping distance; 16\n"
"      --grid HxW          vit2d patch grid; 14x14\n"
"      --table-file F.npy  learned: a [max_len, d] table (else untrained)\n"
"      --max-len L         learned: rows of the untrained table; 1024\n"
"\n"
"RoPE scaling (names as in Hugging Face transformers' rope_scaling):\n"
"      --rope-scaling T    default, linear, dynamic, yarn, longrope, llama3\n"
"      --factor F          scaling factor (>= 1); 4\n"
"      --original-max-pos N  original_max_position_embeddings; 4096\n"
"      --max-pos N         max_position_embeddings (dynamic); 4096\n"
"      --beta-fast B, --beta-slow B   yarn; 32 and 1\n"
"      --mscale M, --mscale-all-dim M, --attention-factor A   yarn\n"
"      --no-truncate       yarn: keep the correction range fractional\n"
"      --low-freq-factor F, --high-freq-factor F   llama3; 1 and 4\n"
"      --short-factor LIST|@FILE, --long-factor LIST|@FILE   longrope\n"
"      --partial-rotary F  fraction of dims that rotate (GPT-NeoX); 1\n"
"      --preset NAME       a real model's settings (--list-presets)\n"
"      --preset-file FILE  settings from a file (lines: option = value)\n"
"\n"
"snapshot and the TUI:\n"
"      --cursor P,J        cursor at position P, column J\n"
"      --size WxH          snapshot size in cells; 120x40\n"
"      --color C           truecolor, 256, 16, 8 or mono (NO_COLOR: mono)\n"
"  -f, --format F          snapshot: ansi (default), txt or html\n"
"  -o, --output FILE       write to FILE atomically (default: stdout)\n"
"\n"
"dump:\n"
"  -t, --table T           pe, similarity, profile, inv_freq, angles, cos,\n"
"                          sin, wavelength, attention_scaling, slopes, bias,\n"
"                          buckets, index, mask (as the encoding has them)\n"
"  -f, --format F          csv (default) or npy\n"
"      --dtype D           f32 (default) or f64\n"
"      --head H            the head of a 3-D table, for csv (alibi: also\n"
"                          the head the TUI and snapshot draw large)\n"
"\n"
"  -h, --help              this text\n"
"  -V, --version           the version\n"
"\n"
"Exit status: 0 on success, 2 for bad input (nothing is written).\n", fp);
}
