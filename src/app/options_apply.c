/* The generic reader of an option row: its type says how the value is
 * read and checked, its offsets where it goes; and the one getopt_long
 * pass, built from the rows, that finds the options on a command line. */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "app/options_impl.h"

_Static_assert(offsetof(struct pe_options, cmd) == 0,
    "a row's .given 0 means none: offset 0 is never a given flag");

/* The address of the field at offset off of o. */
static void *
apply_at(struct pe_options *o, size_t off)
{
	return (char *)o + off;
}

/* Store an integer v into a field of width bytes (a bool, an enum, an
 * int or a size_t). */
static void
apply_store(void *dest, unsigned width, long long v)
{
	switch (width) {
	case 1: {
		unsigned char c = (unsigned char)v;
		memcpy(dest, &c, 1);
		break;
	}
	case 2: {
		int16_t s = (int16_t)v;
		memcpy(dest, &s, 2);
		break;
	}
	case 4: {
		int32_t i = (int32_t)v;
		memcpy(dest, &i, 4);
		break;
	}
	default: {
		int64_t l = (int64_t)v;
		memcpy(dest, &l, 8);
		break;
	}
	}
}

/* Read an OPT_FLOAT row's value and check its range. */
static int
apply_float(const struct opt_row *r, const char *arg, double *dest,
    char *err, size_t cap)
{
	if (opt_double(r->name, arg, dest, err, cap) != 0)
		return 2;
	double v = *dest;
	bool lo_ok = r->lo_bound == B_NONE || (r->lo_bound == B_OPEN
	    ? v > r->lo : v >= r->lo);
	bool hi_ok = r->hi_bound == B_NONE || (r->hi_bound == B_OPEN
	    ? v < r->hi : v <= r->hi);
	if (lo_ok && hi_ok)
		return 0;
	if (r->hi_bound == B_NONE)
		return opt_fail(err, cap, "--%s '%s': must be a finite number "
		    "%s %g", r->name, arg, r->lo_bound == B_OPEN ? ">" : ">=",
		    r->lo);
	if (r->lo_bound == B_NONE)
		return opt_fail(err, cap, "--%s '%s': must be a finite number "
		    "%s %g", r->name, arg, r->hi_bound == B_OPEN ? "<" : "<=",
		    r->hi);
	return opt_fail(err, cap, "--%s '%s': must be in %c%g, %g%c", r->name,
	    arg, r->lo_bound == B_OPEN ? '(' : '[', r->lo, r->hi,
	    r->hi_bound == B_OPEN ? ')' : ']');
}

/* Read the value of row r (not a hook's) into *o. */
static int
apply_typed(struct pe_options *o, const struct opt_row *r, const char *arg,
    char *err, size_t cap)
{
	void *dest = apply_at(o, r->dest);
	size_t z;
	int k;

	switch (r->type) {
	case OPT_FLAG:
		apply_store(dest, r->width, r->set);
		return 0;
	case OPT_SIZE:
		if (opt_size(r->name, arg, r->min, r->max, &z, err, cap) != 0)
			return 2;
		memcpy(dest, &z, sizeof z);
		if (r->alias != 0)
			memcpy(apply_at(o, r->alias), &z, sizeof z);
		return 0;
	case OPT_FLOAT:
		return apply_float(r, arg, dest, err, cap);
	case OPT_ENUM:
		if ((k = opt_pick(r->name, r->choices, arg, err, cap)) < 0)
			return 2;
		apply_store(dest, r->width, k);
		return 0;
	case OPT_LIST: {
		double **list = dest;
		if (opt_list(r->name, arg, list, apply_at(o, r->count), err,
			cap) != 0)
			return 2;
		memcpy(apply_at(o, r->alias), list, sizeof *list);
		return 0;
	}
	case OPT_FILE:
	case OPT_STRING: {
		char **s = dest;
		if (r->nonempty && arg[0] == '\0')
			return opt_fail(err, cap, "--%s: the %s is empty",
			    r->name, r->type == OPT_FILE ? "file name" : "value");
		if (opt_own(s, arg, err, cap) != 0)
			return 2;
		if (r->alias != 0)
			memcpy(apply_at(o, r->alias), s, sizeof *s);
		return 0;
	}
	}
	return opt_fail(err, cap, "--%s: not handled", r->name);
}

/* Apply one option with its argument (NULL for flags) to *o: its hook,
 * or its type; then its given flag. */
int
opt_apply(struct pe_options *o, enum opt_id id, const char *arg, char *err,
    size_t cap)
{
	const struct opt_row *r = &pe_opts[id];
	int rc = r->parse != NULL ? r->parse(o, r, arg, err, cap)
				  : apply_typed(o, r, arg, err, cap);
	if (rc == 0 && r->given != 0)
		*(bool *)apply_at(o, r->given) = true;
	return rc;
}

/* The defaults every parse starts from. */
void
opt_init(struct pe_options *o, enum pe_cmd cmd)
{
	memset(o, 0, sizeof *o);
	pe_config_default(&o->cfg);
	o->cmd = o->named = cmd;
	o->width = 120;
	o->height = 40;
	o->depth = -1;
	o->snap_format = PE_FMT_ANSI;
	o->theme = PE_THEME_DARK;
	o->dump_format = PE_DUMP_CSV;
	o->dtype = PE_F32;
	pe_train_default(&o->train);
	o->train.n = o->cfg.n;
}

/* Explain a long option getopt_long refused: unknown, or the start of
 * several ("--pre": --preset or --preset-file). */
static int
apply_unknown_long(const char *arg, char *err, size_t cap)
{
	const char *name = arg + strspn(arg, "-");
	size_t len = strcspn(name, "=");
	char list[256] = "";
	int hits = 0;
	for (int i = 0; i < O_COUNT; i++)
		if (strncmp(pe_opts[i].name, name, len) == 0) {
			size_t l = strlen(list);
			snprintf(list + l, sizeof list - l, "%s--%s",
			    hits++ == 0 ? "" : ", ", pe_opts[i].name);
		}
	if (hits > 1)
		return opt_fail(err, cap, "ambiguous option '%.*s': could be "
		    "%s", (int)(name - arg + len), arg, list);
	return opt_fail(err, cap, "unknown option '%s'",
	    arg);
}

/* See options_impl.h. */
int
opt_collect(int ac, char **av, enum pe_cmd cmd, struct opt_hit *hits,
    int *nhits, int *word, char *err, size_t cap)
{
	struct option lo[O_COUNT + 1];
	char shorts[2 * O_COUNT + 2] = ":";
	int rc = 0, ch;

	for (int i = 0; i < O_COUNT; i++) {
		int has = pe_opts[i].arg ? required_argument : no_argument;
		lo[i] = (struct option){pe_opts[i].name, has, NULL, 256 + i};
		if (pe_opts[i].letter != 0) {
			size_t l = strlen(shorts);
			shorts[l] = pe_opts[i].letter;
			shorts[l + 1] = pe_opts[i].arg ? ':' : '\0';
			shorts[l + 2] = '\0';
		}
	}
	memset(&lo[O_COUNT], 0, sizeof lo[O_COUNT]);
	*nhits = 0;
	*word = -1;
	optind = 0; /* full re-initialisation, so the parser can run twice */
	opterr = 0;
	while (rc == 0 && (ch = getopt_long(ac, av, shorts, lo, NULL)) != -1) {
		int id = -1;
		if (ch >= 256) {
			id = ch - 256;
		} else if (ch == ':') {
			rc = opt_fail(err, cap, "%s: needs a value",
			    av[optind - 1]);
		} else if (ch == '?') {
			if (optopt >= 256)
				rc = opt_fail(err, cap, "--%s takes no value",
				    pe_opts[optopt - 256].name);
			else if (optopt != 0)
				rc = opt_fail(err, cap, "unknown option '-%c'",
				    optopt);
			else
				rc = apply_unknown_long(av[optind - 1], err,
				    cap);
		} else {
			for (int i = 0; i < O_COUNT; i++)
				if (pe_opts[i].letter == ch)
					id = i;
		}
		if (rc != 0 || id < 0)
			continue;
		if (!(pe_opts[id].cmds & (1u << cmd))) {
			rc = opt_fail(err, cap, "--%s does not apply to %s",
			    pe_opts[id].name, pe_command_label(cmd));
			continue;
		}
		hits[(*nhits)++] = (struct opt_hit){(enum opt_id)id, optarg};
	}
	if (rc == 0 && optind < ac)
		*word = optind;
	return rc;
}
