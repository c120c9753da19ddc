/* pescope dump: the raw numbers of one table, as CSV or NPY. Everything is
 * checked before any work; the output is written atomically, streamed a
 * chunk of rows at a time (app/stream.c) by --threads threads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "app/dump_impl.h"
#include "app/stream.h"
#include "pescope/encoding.h"
#include "pescope/train.h"
#include "io/io.h"

/* Largest output dump writes. */
#define DUMP_MAX_BYTES ((double)4 * 1024 * 1024 * 1024)

/* Whether the config's encoding (and relative kind) has table t: the
 * table names the encoding, or the encoding's row has the table's
 * capabilities (and way into attention). Only relative's tables name
 * kinds. */
static bool
has_table(const struct pe_config *c, const struct dump_table *t)
{
	const struct pe_encoding_def *e = pe_config_def(c);
	bool has = (t->encs & (1u << c->enc)) ||
	    (t->caps != 0 && (e->caps & t->caps) == t->caps &&
		(t->attns == 0 || (t->attns & (1u << e->attention))));

	return has && (t->kinds == 0 || (t->kinds & (1u << c->relative)));
}

/* The tables an encoding has, as "a, b, c" into buf. */
const char *
pe_dump_tables_of(const struct pe_config *c, char *buf, size_t cap)
{
	buf[0] = '\0';
	for (size_t t = 0; t < dump_ntables; t++)
		if (has_table(c, &dump_tables[t])) {
			if (buf[0] != '\0')
				strncat(buf, ", ", cap - strlen(buf) - 1);
			strncat(buf, dump_tables[t].name, cap - strlen(buf) - 1);
		}
	return buf;
}

/* The first row named `name` at or after row `from`, or NULL. */
static const struct dump_table *
find_row(const char *name, size_t from)
{
	for (size_t t = from; name != NULL && t < dump_ntables; t++)
		if (strcmp(name, dump_tables[t].name) == 0)
			return &dump_tables[t];
	return NULL;
}

/* Every table's name, space-separated, in table order (a name several
 * encodings' rows share, once). */
const char *
pe_dump_table_names(char *buf, size_t cap)
{
	buf[0] = '\0';
	for (size_t t = 0; t < dump_ntables; t++) {
		if (find_row(dump_tables[t].name, 0) != &dump_tables[t])
			continue;
		size_t l = strlen(buf);
		snprintf(buf + l, cap - l, "%s%s", l ? " " : "", dump_tables[t].name);
	}
	return buf;
}

/* Table `name` (the first row of that name). */
static const struct dump_table *
find_table(const char *name)
{
	return find_row(name, 0);
}

/* Table `name` as config c has it: the row of that name whose encodings
 * hold c's (several encodings may each have a row of one name, with its
 * own shape and fill), else the first row of the name, else NULL. */
static const struct dump_table *
find_table_for(const struct pe_config *c, const char *name)
{
	for (const struct dump_table *t = find_row(name, 0); t != NULL;
	     t = find_row(name, (size_t)(t - dump_tables) + 1))
		if (has_table(c, t))
			return t;
	return find_table(name);
}

/* Whether the space-separated list has word w. */
static bool
list_has(const char *list, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = list; p != NULL && *p != '\0';) {
		size_t l = strcspn(p, " ");
		if (l == n && strncmp(p, w, n) == 0)
			return true;
		p += l + (p[l] == ' ');
	}
	return false;
}

/* How table `table` takes option `opt`: as usual, for every encoding
 * (also), or not at all (another table's own: their names into buf). */
enum pe_dump_scope
pe_dump_option_scope(const char *table, const char *opt, char *buf,
    size_t cap)
{
	const struct dump_table *t = find_table(table);
	size_t total = 0, seen = 0;

	buf[0] = '\0';
	if (t == NULL || list_has(t->opts, opt))
		return PE_DUMP_OPT_USUAL;
	if (list_has(t->also, opt))
		return PE_DUMP_OPT_ALSO;
	for (size_t k = 0; k < dump_ntables; k++)
		total += list_has(dump_tables[k].opts, opt);
	if (total == 0)
		return PE_DUMP_OPT_USUAL;
	for (size_t k = 0; k < dump_ntables; k++) {
		if (!list_has(dump_tables[k].opts, opt))
			continue;
		size_t l = strlen(buf);
		snprintf(buf + l, cap - l, "%s%s",
		    seen == 0 ? "" : seen == total - 1 ? " and " : ", ",
		    dump_tables[k].name);
		seen++;
	}
	return PE_DUMP_OPT_OTHER_TABLE;
}

/* Rows of the encoding's position axis (vit2d: patches). */
static size_t
npos(const struct pe_config *c)
{
	return pe_config_positions(c);
}

/* The steps the config's training run took (0: none). */
static size_t
train_steps(const struct pe_config *c)
{
	struct pe_train_stats st;

	if (c->trainer == NULL)
		return 0;
	pe_train_stats(c->trainer, &st);
	return st.step;
}

/* Shape of table t for config c (r: the rope, rope only). */
static void
table_shape(const struct pe_config *c, const struct pe_rope *r,
    const struct dump_table *t, struct pe_table *dest)
{
	struct pe_toy_sentence s;
	size_t rot = r != NULL ? r->rot : 0;

	dest->ndim = 0;
	memset(dest->shape, 0, sizeof dest->shape);
	for (size_t k = 0; k < 3 && t->axes[k] != AX_NONE; k++) {
		size_t len = 1;
		switch (t->axes[k]) {
		case AX_POS: len = npos(c); break;
		case AX_D: len = c->d; break;
		case AX_PAIRS: len = rot / 2; break;
		case AX_ROT: len = rot; break;
		case AX_HEADS: len = c->heads; break;
		case AX_TOKENS:
			len = dump_toy_sentence(c, &s) == PE_OK ? s.count : 0;
			break;
		case AX_BEYOND: len = r != NULL ? dump_beyond(c, r, NULL) : 0; break;
		case AX_HALF: len = c->d / 2; break;
		case AX_THREE: len = 3; break;
		case AX_STEPS: len = train_steps(c) + 1; break;
		case AX_CURVE: len = 4; break;
		case AX_ONE:
		case AX_NONE: len = 1; break;
		}
		dest->shape[dest->ndim++] = len;
	}
}

/* 0 when config c has table `name`, else 2 and why. */
int
pe_dump_check_table(const struct pe_config *c, const char *name, char *err,
    size_t cap)
{
	const struct dump_table *t = find_table_for(c, name);
	char names[512];

	if (t == NULL) {
		snprintf(err, cap, "--table '%s': unknown table; %s has: %s", name,
		    pe_encoding_name(c->enc), pe_dump_tables_of(c, names, sizeof names));
		return PE_EXIT_USAGE;
	}
	if (!has_table(c, t)) {
		const struct pe_encoding_def *e = pe_config_def(c);
		char kind[32] = "";
		if (e->variant != NULL)
			snprintf(kind, sizeof kind, " (%s)", e->variant(c));
		snprintf(err, cap, "--table '%s': not available for %s%s; it has: %s",
		    name, e->name, kind, pe_dump_tables_of(c, names, sizeof names));
		return PE_EXIT_USAGE;
	}
	return 0;
}

/* The stream's fill: rows of x's table. */
static int
dump_fill(const void *arg, size_t r0, size_t r1, void *dest)
{
	const struct dump_ctx *x = arg;
	return x->t->fill(x, r0, r1, dest);
}

/* The stream's float32 fill: rows of x's table as floats. */
static int
dump_fill32(const void *arg, size_t r0, size_t r1, void *dest)
{
	const struct dump_ctx *x = arg;
	return x->t->fill32(x, r0, r1, dest);
}

/* What a dump of o's table is: its shape, dtype, the checks before any
 * work. Fills *x (its rope in *rope) and *tab; returns PE_EXIT_OK or the
 * exit status after saying why. */
static int
dump_plan(const struct pe_options *o, struct dump_ctx *x,
    struct pe_rope *rope, struct pe_table *tab, enum pe_dtype *dt)
{
	const struct pe_config *c = &o->cfg;
	const struct dump_table *t = find_table_for(c, o->table);
	char why[1024];

	if (pe_dump_check_table(c, o->table, why, sizeof why) != 0) {
		pe_app_error("%s", why);
		return PE_EXIT_USAGE;
	}
	if (t->rope && pe_rope_init(rope, c) != PE_OK) {
		pe_app_error("rope: cannot derive the frequencies");
		return PE_EXIT_USAGE;
	}
	memset(x, 0, sizeof *x);
	x->c = c;
	x->r = rope;
	x->t = t;
	x->n = npos(c);
	x->head = o->head;
	x->dtype = PE_F32;
	if (t->check != NULL && t->check(x, why, sizeof why) != PE_OK) {
		char msg[sizeof why + 64];
		pe_options_flags(why, msg, sizeof msg);
		pe_app_error("%s", msg);
		return PE_EXIT_USAGE;
	}
	memset(tab, 0, sizeof *tab);
	table_shape(c, t->rope ? rope : NULL, t, tab);
	*dt = t->ints ? PE_I64 : o->dtype;
	x->dtype = *dt;
	double elems = (double)tab->shape[0] *
	    (double)(tab->ndim > 1 ? tab->shape[1] : 1) *
	    (double)(tab->ndim > 2 ? tab->shape[2] : 1);
	double bytes = elems * (*dt == PE_F32 ? 4 : 8);
	if (bytes > DUMP_MAX_BYTES) {
		pe_app_error("--table %s: [%zu x %zu%s] is %.1f GiB; dump writes at "
		    "most 4 GiB (lower --seq-len or --d-model)", o->table,
		    tab->shape[0], tab->ndim > 1 ? tab->shape[1] : 1,
		    tab->ndim > 2 ? " x ..." : "", bytes / (1024.0 * 1024 * 1024));
		return PE_EXIT_USAGE;
	}
	x->count = (size_t)elems;
	x->rowlen = tab->ndim == 1 ? 1 : tab->shape[tab->ndim - 1];
	if (o->dump_format == PE_DUMP_CSV && tab->ndim == 3 && !o->head_given) {
		pe_app_error("--table %s is 3-D [%zu, %zu, %zu]: CSV needs --head H "
		    "(0..%zu), or use --format npy", o->table, tab->shape[0],
		    tab->shape[1], tab->shape[2], tab->shape[0] - 1);
		return PE_EXIT_USAGE;
	}

	/* --head picks the CSV slice of a 3-D table; the toy tables take it
	 * as an input (alibi's head, the bias's row), and so does an encoding
	 * whose parameter it is (rope2d mixed's head) */
	bool head_input = list_has(t->also, "head") || o->head_in_config;
	if (o->head_given && !head_input &&
	    (tab->ndim != 3 || o->dump_format == PE_DUMP_NPY)) {
		pe_app_error(tab->ndim != 3
			? "--head: table %s has no head axis"
			: "--head: table %s as NPY holds every head; --head picks "
			  "the head written as CSV", o->table);
		return PE_EXIT_USAGE;
	}
	return PE_EXIT_OK;
}

/* The stream of x's rows: every row, or a 3-D table's head as CSV. */
static struct pe_stream
dump_stream(const struct pe_options *o, const struct dump_ctx *x,
    const struct pe_table *tab, enum pe_dtype dt)
{
	bool csv = o->dump_format == PE_DUMP_CSV;
	size_t lead = tab->ndim == 3 ? tab->shape[0] * tab->shape[1]
	    : tab->ndim == 1 ? tab->shape[0] : tab->shape[0];
	struct pe_stream s = {0, lead, x->rowlen, x->t->ints, dt, csv, dump_fill,
		NULL, x, o->threads > 0 ? o->threads : pe_stream_cpus(), false};

	if (dt == PE_F32 && x->t->fill32 != NULL)
		s.fill_bytes = dump_fill32;

	if (csv && tab->ndim == 3) {
		s.row0 = o->head * tab->shape[1];
		s.rows = tab->shape[1];
	}
	return s;
}

/* Say why a stream stopped; the exit status. */
static int
dump_failed(const struct pe_options *o, const struct pe_stream_result *res,
    const char *path)
{
	if (res->overflow) {
		pe_app_error("--dtype f32: entry %zu of --table %s is %g, past "
		    "float32's range (it would be written as inf); use --dtype "
		    "f64", res->entry, o->table, res->value);
		return PE_EXIT_USAGE;
	}
	if (res->st == PE_EIO) {
		pe_app_error("-o '%s': write failed (%s); nothing was written", path,
		    pe_io_why(res->err != 0 ? res->err : errno));
		return PE_EXIT_FAIL;
	}
	pe_app_error("--table %s: %s", o->table, pe_strerror(res->st));
	return res->st == PE_ENOMEM ? PE_EXIT_FAIL : PE_EXIT_USAGE;
}

/* pescope dump: plan and check, create the output, prepare the table,
 * then stream its rows (header first) and commit. */
int
pe_dump_run(const struct pe_options *o)
{
	struct dump_ctx x;
	struct pe_rope rope;
	struct pe_table tab;
	enum pe_dtype dt;
	struct pe_stream_result res;

	memset(&rope, 0, sizeof rope);
	memset(&x, 0, sizeof x);
	int rc = dump_plan(o, &x, &rope, &tab, &dt);
	if (rc != PE_EXIT_OK)
		goto end;

	/* The output is created before any work: a bad path costs nothing.
	 * A binary table never goes onto a terminal (as snapshot's PDF). */
	struct pe_atomic out;
	const char *path = o->output != NULL ? o->output : "-";
	if (o->dump_format == PE_DUMP_NPY && strcmp(path, "-") == 0 &&
	    isatty(STDOUT_FILENO)) {
		pe_app_error("--format npy: standard output is a terminal; give "
		    "-o FILE.npy or redirect it");
		rc = PE_EXIT_USAGE;
		goto end;
	}
	if (pe_atomic_open(&out, path) != PE_OK) {
		pe_app_error("-o '%s': cannot create a file there: %s", path,
		    strerror(errno));
		rc = PE_EXIT_USAGE;
		goto end;
	}
	pe_stream_guard(out.tmp); /* Ctrl-C leaves no partial file */
	int st = x.t->prep != NULL ? x.t->prep(&x) : PE_OK;
	if (st != PE_OK) {
		memset(&res, 0, sizeof res);
		res.st = st;
		rc = dump_failed(o, &res, path);
		goto abort;
	}
	if (o->dump_format == PE_DUMP_NPY) {
		unsigned char hdr[PE_NPY_HEADER_MAX];
		size_t hl = pe_npy_header(tab.ndim, tab.shape, dt, hdr);
		if (hl == 0 || fwrite(hdr, 1, hl, out.fp) != hl) {
			memset(&res, 0, sizeof res);
			res.st = hl == 0 ? PE_EINVAL : PE_EIO;
			res.err = errno;
			rc = dump_failed(o, &res, path);
			goto abort;
		}
	}
	struct pe_stream s = dump_stream(o, &x, &tab, dt);
	s.progress = isatty(STDERR_FILENO) == 1;
	if (pe_stream_run(&s, out.fp, &res) != PE_OK) {
		rc = dump_failed(o, &res, path);
		goto abort;
	}
	if (pe_atomic_commit(&out) != PE_OK) {
		pe_app_error("-o '%s': write failed (%s); nothing was written", path,
		    pe_io_why(pe_stream_guard_xfsz() ? EFBIG : errno));
		rc = PE_EXIT_FAIL;
	} else {
		rc = PE_EXIT_OK;
	}
	pe_stream_guard(NULL);
	goto end;
abort:
	pe_atomic_abort(&out);
	pe_stream_guard(NULL);
end:
	dump_prep_free(&x.p);
	pe_rope_free(&rope); /* zeroed when the table has no rope */
	return rc;
}

/* Seconds of clock c. */
static double
dump_clock(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fill o's table as dump would, encoded as NPY but written nowhere, with
 * threads threads (memset: the same bytes memset instead); the wall and
 * CPU seconds and the bytes into *seconds, *cpu, *bytes. Returns
 * PE_EXIT_OK or an exit status. */
int
pe_dump_bench(const struct pe_options *o, size_t threads, bool memset_only,
    double *seconds, double *cpu, double *bytes)
{
	struct dump_ctx x;
	struct pe_rope rope;
	struct pe_table tab;
	enum pe_dtype dt;
	struct pe_stream_result res;

	memset(&rope, 0, sizeof rope);
	memset(&x, 0, sizeof x);
	int rc = dump_plan(o, &x, &rope, &tab, &dt);
	if (rc == PE_EXIT_OK) {
		struct pe_stream s = dump_stream(o, &x, &tab, dt);
		double t0 = dump_clock(CLOCK_MONOTONIC);
		double c0 = dump_clock(CLOCK_PROCESS_CPUTIME_ID);
		int st = x.t->prep != NULL && !memset_only ? x.t->prep(&x) : PE_OK;
		s.threads = threads;
		if (memset_only)
			s.fill = NULL;
		if (st == PE_OK)
			st = pe_stream_run(&s, NULL, &res);
		*seconds = dump_clock(CLOCK_MONOTONIC) - t0;
		*cpu = dump_clock(CLOCK_PROCESS_CPUTIME_ID) - c0;
		*bytes = res.bytes;
		rc = st == PE_OK ? PE_EXIT_OK : PE_EXIT_FAIL;
	}
	dump_prep_free(&x.p);
	pe_rope_free(&rope); /* zeroed when the table has no rope */
	return rc;
}
