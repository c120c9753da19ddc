/* Private to dump: what a table row is (dump_tables.c holds the rows,
 * their fills and preps; dump.c looks rows up, plans and streams them). */
#ifndef PESCOPE_APP_DUMP_IMPL_H
#define PESCOPE_APP_DUMP_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/io.h"
#include "pescope/field.h"
#include "pescope/rope.h"
#include "pescope/toy.h"
#include "pescope/wave.h"

/* The axes a table's shape is made of. */
enum axis {
	AX_NONE,
	AX_POS,	  /* positions (vit2d: patches) */
	AX_D,	  /* d_model */
	AX_PAIRS, /* rope: rotary pairs, rot / 2 */
	AX_ROT,	  /* rope: rotary dims */
	AX_HEADS, /* alibi heads */
	AX_ONE,	  /* a single number */
	AX_TOKENS, /* the toy sentence's tokens */
	AX_BEYOND, /* rope: the pairs whose wavelength exceeds --train-len */
	AX_HALF,  /* d_model / 2: the pairs of a head whose every pair turns */
	AX_THREE, /* mrope: the position triple (t, h, w) */
	AX_STEPS, /* --train: the run's steps 0..N */
	AX_CURVE, /* --train: step, loss, held-out loss, held-out accuracy */
};

struct dump_ctx;

/* One row per table: its name, which encodings (and relative kinds) have
 * it, its shape, whether it holds integers, how its rows are filled, what
 * it needs, the options it names (options_table.h): its own, refused with
 * every other table, and those of other encodings it takes too; and what
 * its rows share, made once before they are filled. A table one encoding
 * has names it in `encs`; a table of a capability (the toy attention, the
 * worked example) names the capability (`caps`, `attns`), so every
 * encoding whose row has it has the table. */
struct dump_table {
	const char *name;
	unsigned encs;	    /* 1 << enum pe_encoding */
	unsigned kinds;	    /* 1 << enum pe_relative_kind; 0: any */
	enum axis axes[3];  /* AX_NONE ends the shape */
	bool ints;	    /* int64 (the other tables are floating) */
	/* rows [r0, r1) of the leading axes (a 3-D table's rows are by
	 * head, then query) into dest: (r1 - r0) * x->rowlen values, double
	 * or int64. Called from several threads at once: x is read-only. */
	int (*fill)(const struct dump_ctx *x, size_t r0, size_t r1,
	    void *dest);
	/* NULL, or whether the table can be written (PE_OK), else a
	 * sentence naming the option in why */
	int (*check)(const struct dump_ctx *x, char *why, size_t cap);
	const char *opts;   /* its own options, space-separated long names */
	const char *also;   /* options of other encodings it takes too */
	/* NULL, or what the rows share (frequencies, a profile, slopes, ...),
	 * made once into x->p before any row */
	int (*prep)(struct dump_ctx *x);
	unsigned caps;	    /* enum pe_enc_cap: every encoding with them */
	unsigned attns;	    /* 1 << enum pe_enc_attention with caps; 0: any */
	bool rope;	    /* x->r is the config's rope (pe_rope_init) */
	/* NULL, or the same rows as float32 values, each the float of
	 * fill's double (NPY's <f4 bytes, with no double in between), for
	 * tables whose values are finite in float32 or infinite in double
	 * too: no float32 overflow is looked for. Same threads rule. */
	int (*fill32)(const struct dump_ctx *x, size_t r0, size_t r1,
	    float *dest);
};

/* What a table's prep makes; dump_prep_free releases it. */
struct dump_prep {
	struct pe_wave wave;	/* the table's frequencies (pescope/wave.h) */
	bool has_wave;
	struct pe_field field;	/* a field whose values the rows are */
	bool has_field;
	double *v;		/* the table's own numbers */
	int64_t *iv;
	size_t nv;
	double scale, offset;	/* rope similarity: att^2 sum + pass */
	/* a table whose rows are windows of a line (a function of query -
	 * key: alibi's bias, the mask, a wave's similarity): nlines lines
	 * of 2n - 1 values, row i of line h is line[h][n - 1 - i ..]; line32
	 * the same as floats (float32 dumps); NULL: too large, the fill
	 * makes each row itself */
	double *line;
	float *line32;
	size_t nlines;
};

/* What a fill function gets. */
struct dump_ctx {
	const struct pe_config *c;
	const struct pe_rope *r; /* the rope of a table whose row says so */
	const struct dump_table *t;
	size_t n;		 /* positions */
	size_t count;		 /* elements */
	size_t head;		 /* --head (toy attention) */
	size_t rowlen;		 /* values in a row */
	enum pe_dtype dtype;	 /* as written: PE_F32 fills may round more */
	struct dump_prep p;	 /* the table's prep */
};

/* Every table's row, in the order --table's help and messages list them. */
extern const struct dump_table dump_tables[];
extern const size_t dump_ntables;

/* The toy sentence of config c: its tokens, reordered by --permute. */
int dump_toy_sentence(const struct pe_config *c,
    struct pe_toy_sentence *dest);

/* The pairs rope's beyond lists (dest NULL: only count them). */
size_t dump_beyond(const struct pe_config *c, const struct pe_rope *r,
    size_t *dest);

/* Release what a prep made. */
void dump_prep_free(struct dump_prep *p);

/* dump_lines.c: make x->p's nlines lines of 2n - 1 values, line h by
 * line(x, h, dest), and for a float32 dump their floats, when they fit in
 * DUMP_LINES_BYTES (PE_OK either way: past it each fill makes its rows). */
int dump_prep_lines(struct dump_ctx *x, size_t nlines,
    int (*line)(const struct dump_ctx *x, size_t h, double *dest));
/* Rows [r0, r1) from the lines (row r: line r / n, query r % n), as
 * doubles or (f32) floats. */
void dump_lines_rows(const struct dump_ctx *x, size_t r0, size_t r1,
    void *dest, bool f32);
/* A table of lines as floats (a row's .fill32): copies of windows, or
 * the row's fill a row at a time when the lines did not fit. */
int dump_fill32_lines(const struct dump_ctx *x, size_t r0, size_t r1,
    float *dest);

/* dump_whole.c: the tables a kernel fills whole (mrope, xpos, rope2d):
 * each prep fills the table into x->p; dump_fill_whole copies rows
 * [r0, r1) of it. */
int dump_prep_mrope(struct dump_ctx *x);
int dump_prep_xpos(struct dump_ctx *x);
int dump_prep_rope2d(struct dump_ctx *x);
int dump_fill_whole(const struct dump_ctx *x, size_t r0, size_t r1,
    void *dest);

#endif
