/* Fields: the logical matrices pescope draws, and their exact block means.
 *
 * Every heatmap cell is the mean of a rectangle of a field. A field computes
 * that mean in closed form where one exists (sums of sines and cosines over
 * an arithmetic progression, polynomials along diagonals), so a 1,000,000 x
 * 8192 matrix costs no more to show than a 50 x 64 one. */
#ifndef PESCOPE_FIELD_H
#define PESCOPE_FIELD_H

#include "pescope.h"
#include "rope.h"

enum pe_field_kind {
	PE_FIELD_PE,	       /* sinusoidal, learned: [n, d]; vit2d: [H*W, d] */
	PE_FIELD_ROPE_ANGLE,   /* [n, npairs]: theta mod 2 pi, circular mean */
	PE_FIELD_ROPE_COS,     /* [n, rot], pairing's column order, scaled */
	PE_FIELD_ROPE_SIN,     /* [n, rot] */
	PE_FIELD_BIAS,	       /* alibi, one head: [n, n], row = query */
	PE_FIELD_MASK,	       /* nope causal mask: [n, n] */
	PE_FIELD_RELATIVE,     /* t5 bucket or shaw index: [n, n] */
	PE_FIELD_SIMILARITY,   /* dot products of position vectors: [n, n] */
	PE_FIELD_PATCH_COSINE, /* vit2d: cosine of patch `anchor` to all: [H, W];
				  mrope: of token `anchor` to every patch,
				  [frames H, W] */
	PE_FIELD_KIND_COUNT
};

/* Statistics of a rectangle of a field. Masked entries (-inf) and undefined
 * ones (NaN: a learned table past max_len) are counted, not averaged. */
struct pe_stats {
	double mean;	  /* mean of the finite entries; for angles the
			     circular mean in [0, 2 pi); NAN when none */
	double min, max;  /* of the finite entries (only when asked) */
	double resultant; /* angles: mean resultant length in [0, 1]; else 1 */
	uint64_t count;	  /* entries in the rectangle */
	uint64_t masked;  /* entries that are -inf */
	uint64_t undefined; /* entries that are NaN */
	bool minmax_exact;  /* min/max computed exactly (else NAN) */
};

struct pe_field {
	enum pe_field_kind kind;
	const struct pe_config *cfg;
	size_t rows, cols;
	size_t head;	/* BIAS: which head */
	size_t anchor;	/* PATCH_COSINE: patch index (row-major); mrope: a
			   token */
	/* Derived once by pe_field_init; read-only afterwards. */
	struct pe_rope rope; /* rope kinds and rope similarity */
	double *slopes;	     /* alibi: [heads] */
	double *omega;	     /* frequencies of vector encodings */
	size_t nomega;
	double *prefix;	     /* what a kind derives once (field_impl.h says what):
				learned prefix sums and row norms, the
				patch-cosine table C(k), ... */
};

/* Rows and columns of a field of kind for cfg (the shape pe_field_init
 * gives it). */
void pe_field_shape(const struct pe_config *cfg, enum pe_field_kind kind,
    size_t *rows, size_t *cols);

/* Prepare a field of the given kind for cfg (which must pass
 * pe_config_check and outlive the field). head and anchor start at 0. */
int pe_field_init(struct pe_field *f, enum pe_field_kind kind,
    const struct pe_config *cfg);
void pe_field_free(struct pe_field *f);

/* Whether an encoding has this kind of field. */
bool pe_field_supported(enum pe_encoding enc, enum pe_field_kind kind);

/* Exact value at (r, c): -INFINITY when masked, NAN when undefined. */
double pe_field_value(const struct pe_field *f, size_t r, size_t c);

/* Statistics of rows [r0, r1) x cols [c0, c1). The mean is exact and, where
 * a closed form exists, costs the same for any size of rectangle. With
 * minmax, min and max are exact too (closed form or a scan). */
int pe_field_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest);

/* Means of an nr x nc grid of blocks that tile rows [r0, r1) x cols
 * [c0, c1) as pe_field_span cuts them; dest is row-major [nr * nc]. Faster
 * than nr * nc calls of pe_field_block (shares work along rows and
 * columns); min and max are not filled. */
int pe_field_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest);

/* A finished row of a grid, as pe_field_grid_rows hands it on: its nc
 * cells' statistics (cells), or, where every cell is a block of finite
 * entries alone (count > 0, none masked or undefined), only their means
 * and resultant lengths (cells NULL; resultant NULL: every one 1): what a
 * color reads, in arrays a vector unit loads whole. */
struct pe_field_row {
	const struct pe_stats *cells; /* [nc], or NULL: mean, resultant */
	const double *mean;	      /* [nc] where cells is NULL */
	const double *resultant;      /* [nc], or NULL: every one 1 */
};

/* What pe_field_grid_rows hands each finished row to: row k of the nr,
 * valid only during the call. A status other than PE_OK stops the grid,
 * which returns it. */
typedef int pe_field_row_fn(void *arg, size_t k,
    const struct pe_field_row *row);

/* pe_field_grid, each row handed to row(arg, k, ...) once finished, in
 * order, rather than kept: where the module finishes its rows one by one
 * (the wave fields: sinusoidal, rope, xpos's angles; mrope's angles) they
 * are handed on as means and resultants from a few rows' scratch, so
 * that a grid larger than the cache is read while it is still in it (a
 * picture's block means are tens of megabytes: writing them all and
 * reading them back was a third of its time); elsewhere scratch holds
 * the whole grid, then its rows are handed on as cells. scratch: nr * nc
 * cells. The same means, bit for bit. */
int pe_field_grid_rows(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, struct pe_stats *scratch,
    pe_field_row_fn *row, void *arg);

/* The check long grids poll between passes (every few milliseconds of
 * work): when it returns true, pe_field_grid stops early with PE_EINTR and
 * dest is unfinished. One per process (the TUI's: a key is waiting);
 * NULL, the default, never stops anything. Only the thread that set it
 * calls it; grids on other threads stop once it has said so. */
void pe_field_set_interrupt(bool (*check)(void *arg), void *arg);

/* How the similarity grids and the grids of products of sums (the wave
 * similarities, mrope's and rope2d's scores) may run two halves of their
 * work at once: run(fn, arg) returns once fn(arg, 0) and fn(arg, 1) have
 * run (the view's: the second core, render/pool.h). The halves write
 * apart and are the calls one pass makes, so the means are the same bits
 * with or without it. NULL, the default: one after the other. */
typedef void pe_field_run2_fn(void (*fn)(void *arg, int part), void *arg);
void pe_field_set_run2(pe_field_run2_fn *run);

/* Block k of nblocks that tile [lo, hi): [*b0, *b1). Blocks are as equal as
 * integer bounds allow; when there are more blocks than items, each item
 * spans several consecutive blocks (never an empty block). */
void pe_field_span(size_t lo, size_t hi, size_t nblocks, size_t k,
    size_t *b0, size_t *b1);

/* The difference A − B of two fields, a field of its own (compare mode's
 * strip). Defined when both have one shape and both or neither are
 * angles (pe_field_diff_defined). A block's mean is the exact mean of A's
 * block minus that of B's, which is the mean of the elementwise A − B;
 * angles: the difference of the circular means, wrapped into [−π, π), and
 * the resultant the smaller of the two. Masked and undefined entries: the
 * block keeps them when A and B have as many of each (pescope's are the
 * causal triangle and the rows past max_len, so equal counts are the same
 * entries); otherwise the whole block is undefined. min and max are not
 * filled. Returns PE_EINVAL when not defined. */
bool pe_field_diff_defined(const struct pe_field *a, const struct pe_field *b);
int pe_field_diff_grid(const struct pe_field *a, const struct pe_field *b,
    size_t r0, size_t r1, size_t nr, size_t c0, size_t c1, size_t nc,
    struct pe_stats *dest);
/* A − B at (r, c): −inf where both are masked, NAN where either is not
 * finite otherwise; angles wrapped into [−π, π). */
double pe_field_diff_value(const struct pe_field *a, const struct pe_field *b,
    size_t r, size_t c);

#endif
