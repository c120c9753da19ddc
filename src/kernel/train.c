/* The trainer of train.h: a one-layer causal attention model (Vaswani et
 * al. 2017, sec. 3.2, eq. 1) with a learned position table, its backward
 * pass written out by hand, and Adam (Kingma & Ba 2015, Algorithm 1). The
 * whole definition is in include/pescope/train.h; tests/ref/train.py
 * transcribes it in numpy. Built with -ffp-contract=off (meson.build), one
 * thread, every sum in increasing index order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/check.h"
#include "kernel/rng.h"
#include "kernel/train_impl.h"
#include "pescope/learned.h"

static const char *const task_names[PE_TRAIN_TASK_COUNT] = {
	[PE_TRAIN_OFFSET] = "offset",
	[PE_TRAIN_REVERSE] = "reverse",
	[PE_TRAIN_FIRST] = "first",
	[PE_TRAIN_DISTANCE] = "distance",
};

/* Where the work stands: the phase, its item (a sequence, or the
 * distance task's row block), the pass over that sequence and the block of
 * positions within the pass. */
enum train_phase {
	PHASE_EVAL,   /* held-out sequence `item` (distance: row block) */
	PHASE_TRAIN,  /* training sequence `item` (distance: row block) */
	PHASE_UPDATE, /* Adam on the accumulated gradient */
};

enum train_pass {
	PASS_EMBED,   /* x, q, k, v of a block of positions */
	PASS_ATTEND,  /* attention, read-out, loss (and its backward) */
	PASS_PROJECT, /* the backward through W_q, W_k, W_v, E and P */
};

struct pe_trainer {
	struct pe_train_config cfg;
	size_t off[TRAIN_TENSORS + 1];
	double *theta, *grad, *m, *v; /* [count] each */
	double *kern;		      /* distance: K by |i - j|, [n] */

	uint64_t train_stream; /* the training sequences' state */
	uint64_t held_seed;    /* the held-out stream's first state */
	uint64_t held_stream;  /* and its state during an evaluation */

	/* One sequence's pass. */
	unsigned char *tok; /* [n] */
	int *target;	    /* [n]: y_i, or -1 where there is none */
	double *x, *q, *k, *val, *dx, *dq, *dk, *dv; /* [n, d] each */
	double *kT, *vT;   /* [d, n]: k and v transposed */
	double *wT;	   /* W_q, W_k, W_v, W_o transposed [d, d] each, then
			      W_out's [V, d] (distance: P's [d, n]) */
	double *prob;	   /* [heads, n]: a_ij of the query at hand */
	double *row;	   /* [n]: scores, then dA (distance: R_ij) */
	double *o, *r, *dr, *dout; /* [d] each */
	double *z;		   /* [V] logits, then dz */

	/* The cursor (see pe_train_run). */
	enum train_phase phase;
	enum train_pass pass;
	size_t item, block;

	double loss_sum;   /* the phase's sum of losses (distance: R^2) */
	size_t right;	   /* held-out: targets predicted */

	double *losses;
	size_t n_losses, cap_losses;
	struct pe_train_eval *evals;
	size_t n_evals, cap_evals;
	struct pe_train_stats stats;
};

/* A task's name. */
const char *
pe_train_task_name(enum pe_train_task task)
{
	return (unsigned)task < PE_TRAIN_TASK_COUNT ? task_names[task] : "?";
}

/* "offset:K", or the task's name. */
void
pe_train_label(const struct pe_train_config *cfg, char *buf, size_t cap)
{
	if (cfg->task == PE_TRAIN_OFFSET)
		snprintf(buf, cap, "offset:%zu", cfg->k);
	else
		snprintf(buf, cap, "%s", pe_train_task_name(cfg->task));
}

/* A task by name, or -1. */
int
pe_train_task_parse(const char *name)
{
	for (int t = 0; t < PE_TRAIN_TASK_COUNT; t++)
		if (strcmp(name, task_names[t]) == 0)
			return t;
	return -1;
}

/* The defaults of train.h. */
void
pe_train_default(struct pe_train_config *cfg)
{
	*cfg = (struct pe_train_config){
		.task = PE_TRAIN_OFFSET,
		.k = 3,
		.d = 32,
		.n = 64,
		.vocab = 16,
		.heads = 1,
		.batch = 32,
		.held_out = 64,
		.eval_every = 10,
		.lr = 1e-2,
		.beta1 = 0.9,
		.beta2 = 0.999,
		.eps = 1e-8,
		.sigma = 2.0,
		.seed = PE_LEARNED_SEED,
	};
}

/* Refuse the first field out of its range. */
int
pe_train_check(const struct pe_train_config *cfg, char *why, size_t cap)
{
	if ((unsigned)cfg->task >= PE_TRAIN_TASK_COUNT)
		FAIL("train: the task must be offset, reverse, first or "
		    "distance");
	if (cfg->d < 1 || cfg->d > PE_TRAIN_MAX_D)
		FAIL("d_model %zu: training needs 1..%d", cfg->d,
		    PE_TRAIN_MAX_D);
	if (cfg->n < 2 || cfg->n > PE_TRAIN_MAX_N)
		FAIL("seq_len %zu: training needs 2..%d", cfg->n,
		    PE_TRAIN_MAX_N);
	if (!(cfg->lr > 0) || !isfinite(cfg->lr))
		FAIL("lr %g: the learning rate must be a finite number > 0",
		    cfg->lr);
	if (!(cfg->beta1 >= 0 && cfg->beta1 < 1))
		FAIL("beta1 %g: Adam's beta1 must be in [0, 1)", cfg->beta1);
	if (!(cfg->beta2 >= 0 && cfg->beta2 < 1))
		FAIL("beta2 %g: Adam's beta2 must be in [0, 1)", cfg->beta2);
	if (!(cfg->eps > 0) || !isfinite(cfg->eps))
		FAIL("eps %g: Adam's eps must be a finite number > 0",
		    cfg->eps);
	if (cfg->eval_every < 1 || cfg->eval_every > PE_TRAIN_MAX_STEPS)
		FAIL("eval_every %zu: needs 1..%d", cfg->eval_every,
		    PE_TRAIN_MAX_STEPS);
	if (cfg->task == PE_TRAIN_DISTANCE) {
		if (!(cfg->sigma > 0) || !isfinite(cfg->sigma))
			FAIL("sigma %g: the kernel's width must be a finite "
			    "number > 0", cfg->sigma);
		return PE_OK;
	}
	if (cfg->task == PE_TRAIN_OFFSET && (cfg->k < 1 || cfg->k >= cfg->n))
		FAIL("train offset:%zu: K must be 1..%zu (below seq_len %zu)",
		    cfg->k, cfg->n - 1, cfg->n);
	if (cfg->vocab < 2 || cfg->vocab > PE_TRAIN_MAX_VOCAB)
		FAIL("vocab %zu: training needs 2..%d tokens", cfg->vocab,
		    PE_TRAIN_MAX_VOCAB);
	if (cfg->heads < 1 || cfg->heads > cfg->d || cfg->d % cfg->heads != 0)
		FAIL("heads %zu: must divide d_model %zu (1..%zu)", cfg->heads,
		    cfg->d, cfg->d);
	if (cfg->batch < 1 || cfg->batch > PE_TRAIN_MAX_BATCH)
		FAIL("batch %zu: needs 1..%d sequences", cfg->batch,
		    PE_TRAIN_MAX_BATCH);
	if (cfg->held_out < 1 || cfg->held_out > PE_TRAIN_MAX_HELD_OUT)
		FAIL("held_out %zu: needs 1..%d sequences", cfg->held_out,
		    PE_TRAIN_MAX_HELD_OUT);
	return PE_OK;
}

/* The tensors' offsets in the parameter vector. */
void
pe_train_layout(const struct pe_train_config *cfg,
    size_t offsets[TRAIN_TENSORS + 1])
{
	size_t d = cfg->d, size[TRAIN_TENSORS] = {0};

	size[TRAIN_P] = cfg->n * d;
	if (cfg->task != PE_TRAIN_DISTANCE) {
		size[TRAIN_E] = cfg->vocab * d;
		size[TRAIN_WQ] = size[TRAIN_WK] = d * d;
		size[TRAIN_WV] = size[TRAIN_WO] = d * d;
		size[TRAIN_WOUT] = d * cfg->vocab;
	}
	offsets[0] = 0;
	for (int t = 0; t < TRAIN_TENSORS; t++)
		offsets[t + 1] = offsets[t] + size[t];
}

/* The number of target positions of one sequence. */
static size_t
train_targets(const struct pe_train_config *cfg)
{
	switch (cfg->task) {
	case PE_TRAIN_OFFSET:
		return cfg->n - cfg->k;
	case PE_TRAIN_REVERSE:
		return cfg->n - (cfg->n + 1) / 2;
	case PE_TRAIN_FIRST:
		return cfg->n - 1;
	default:
		return 0;
	}
}

/* Draw a sequence and its targets from *stream (train.h's tasks). */
static void
train_sequence(struct pe_trainer *tr, uint64_t *stream)
{
	const struct pe_train_config *cfg = &tr->cfg;
	size_t n = cfg->n, h = (n + 1) / 2;

	for (size_t i = 0; i < n; i++)
		tr->target[i] = -1;
	if (cfg->task == PE_TRAIN_REVERSE) {
		for (size_t i = 0; i < h; i++)
			tr->tok[i] = rng_splitmix64(stream) % cfg->vocab;
		for (size_t i = h; i < n; i++)
			tr->tok[i] = tr->tok[n - 1 - i];
		for (size_t i = h - 1; i + 2 <= n; i++)
			tr->target[i] = tr->tok[i + 1];
		return;
	}
	for (size_t i = 0; i < n; i++)
		tr->tok[i] = rng_splitmix64(stream) % cfg->vocab;
	for (size_t i = 1; i < n; i++) {
		if (cfg->task == PE_TRAIN_FIRST)
			tr->target[i] = tr->tok[0];
		else if (i >= cfg->k)
			tr->target[i] = tr->tok[i - cfg->k];
	}
}

/* Draw the parameters and reset the cursor, the streams and the curves. */
static void
train_start(struct pe_trainer *tr)
{
	const struct pe_train_config *cfg = &tr->cfg;
	size_t count = tr->off[TRAIN_TENSORS];
	uint64_t chain = cfg->seed ^ PE_TRAIN_SEED_TAG;
	size_t rows[TRAIN_TENSORS] = {0, cfg->vocab, cfg->d, cfg->d, cfg->d,
	    cfg->d, cfg->d};

	pe_learned_init(cfg->n, cfg->d, cfg->seed,
	    tr->theta + tr->off[TRAIN_P]);
	for (int t = TRAIN_E; t < TRAIN_TENSORS; t++) {
		uint64_t s = rng_splitmix64(&chain);
		size_t size = tr->off[t + 1] - tr->off[t];
		if (size > 0)
			pe_learned_init(rows[t], size / rows[t], s,
			    tr->theta + tr->off[t]);
	}
	tr->train_stream = rng_splitmix64(&chain);
	tr->held_seed = rng_splitmix64(&chain);
	tr->held_stream = tr->held_seed;
	memset(tr->m, 0, count * sizeof *tr->m);
	memset(tr->v, 0, count * sizeof *tr->v);
	tr->phase = PHASE_EVAL;
	tr->pass = PASS_EMBED;
	tr->item = tr->block = 0;
	tr->loss_sum = 0;
	tr->right = 0;
	tr->n_losses = tr->n_evals = 0;
	tr->stats = (struct pe_train_stats){
		.loss = NAN,
		.accuracy = NAN,
		.held_loss = NAN,
		.learned_step = PE_TRAIN_NOT_YET,
	};
}

/* Free a trainer (NULL is fine). */
void
pe_train_free(struct pe_trainer *tr)
{
	if (tr == NULL)
		return;
	free(tr->theta);
	free(tr->kern);
	free(tr->tok);
	free(tr->target);
	free(tr->x);
	free(tr->wT);
	free(tr->prob);
	free(tr->row);
	free(tr->o);
	free(tr->z);
	free(tr->losses);
	free(tr->evals);
	free(tr);
}

/* Allocate a trainer's buffers and draw its parameters. */
int
pe_train_new(const struct pe_train_config *cfg, struct pe_trainer **dest)
{
	*dest = NULL;
	if (pe_train_check(cfg, NULL, 0) != PE_OK)
		return PE_EINVAL;
	struct pe_trainer *tr = calloc(1, sizeof *tr);
	if (tr == NULL)
		return PE_ENOMEM;
	tr->cfg = *cfg;
	pe_train_layout(cfg, tr->off);
	size_t count = tr->off[TRAIN_TENSORS], n = cfg->n, d = cfg->d;
	size_t nd = n * d;
	/* one block each for the optimiser, the pass and the small rows */
	tr->theta = malloc(4 * count * sizeof *tr->theta);
	tr->kern = malloc(n * sizeof *tr->kern);
	tr->tok = malloc(n);
	tr->target = malloc(n * sizeof *tr->target);
	tr->x = malloc(10 * nd * sizeof *tr->x);
	tr->wT = malloc((4 * d * d + d * (cfg->vocab + n)) * sizeof *tr->wT);
	tr->prob = malloc(cfg->heads * n * sizeof *tr->prob);
	tr->row = malloc(n * sizeof *tr->row);
	tr->o = malloc(4 * d * sizeof *tr->o);
	tr->z = malloc((cfg->vocab > 0 ? cfg->vocab : 1) * sizeof *tr->z);
	if (tr->theta == NULL || tr->kern == NULL || tr->tok == NULL ||
	    tr->target == NULL || tr->x == NULL || tr->prob == NULL ||
	    tr->row == NULL || tr->o == NULL || tr->z == NULL ||
	    tr->wT == NULL) {
		pe_train_free(tr);
		return PE_ENOMEM;
	}
	tr->grad = tr->theta + count;
	tr->m = tr->grad + count;
	tr->v = tr->m + count;
	tr->q = tr->x + nd;
	tr->k = tr->q + nd;
	tr->val = tr->k + nd;
	tr->dx = tr->val + nd;
	tr->dq = tr->dx + nd;
	tr->dk = tr->dq + nd;
	tr->dv = tr->dk + nd;
	tr->kT = tr->dv + nd;
	tr->vT = tr->kT + nd;
	tr->r = tr->o + d;
	tr->dr = tr->r + d;
	tr->dout = tr->dr + d;
	/* K(delta) = exp(-delta^2 / (2 sigma^2)), a Gaussian kernel */
	for (size_t j = 0; j < n; j++)
		tr->kern[j] = exp(-(double)(j * j) /
		    (2.0 * cfg->sigma * cfg->sigma));
	train_start(tr);
	*dest = tr;
	return PE_OK;
}

/* Start again from the seed. */
void
pe_train_restart(struct pe_trainer *tr)
{
	train_start(tr);
}

/* y += a x over n elements: the loop every product here is made of (an
 * element's sum still runs in the order of the calls). */
static inline void
train_axpy(size_t n, double a, const double *restrict x, double *restrict y)
{
	for (size_t i = 0; i < n; i++)
		y[i] += a * x[i];
}

/* dest[c, r] = src[r, c] for a rows x cols matrix. */
static void
train_transpose(const double *src, size_t rows, size_t cols, double *dest)
{
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			dest[c * rows + r] = src[r * cols + c];
}

/* The transposed weights the backward pass reads (distance: P's), for
 * the parameters as they are now. */
static void
train_transposes(struct pe_trainer *tr)
{
	const struct pe_train_config *cfg = &tr->cfg;
	size_t d = cfg->d;

	if (cfg->task == PE_TRAIN_DISTANCE) {
		train_transpose(tr->theta + tr->off[TRAIN_P], cfg->n, d,
		    tr->wT);
		return;
	}
	for (int w = 0; w < 4; w++)
		train_transpose(tr->theta + tr->off[TRAIN_WQ + w], d, d,
		    tr->wT + w * d * d);
	train_transpose(tr->theta + tr->off[TRAIN_WOUT], d, cfg->vocab,
	    tr->wT + 4 * d * d);
}

/* x, q, k, v of positions [t0, t1), and k, v transposed. */
static void
train_embed(struct pe_trainer *tr, size_t t0, size_t t1)
{
	size_t d = tr->cfg.d, n = tr->cfg.n;
	const double *P = tr->theta + tr->off[TRAIN_P];
	const double *E = tr->theta + tr->off[TRAIN_E];
	const double *W[3] = {tr->theta + tr->off[TRAIN_WQ],
	    tr->theta + tr->off[TRAIN_WK], tr->theta + tr->off[TRAIN_WV]};
	double *out[3] = {tr->q, tr->k, tr->val};

	for (size_t t = t0; t < t1; t++) {
		double *x = tr->x + t * d;
		const double *e = E + (size_t)tr->tok[t] * d;
		for (size_t c = 0; c < d; c++)
			x[c] = e[c] + P[t * d + c];
		for (int w = 0; w < 3; w++) {
			double *y = out[w] + t * d;
			memset(y, 0, d * sizeof *y);
			/* y = x W: y_e = sum over c of x_c W_ce */
			for (size_t c = 0; c < d; c++)
				train_axpy(d, x[c], W[w] + c * d, y);
		}
		for (size_t c = 0; c < d; c++) {
			tr->kT[c * n + t] = tr->k[t * d + c];
			tr->vT[c * n + t] = tr->val[t * d + c];
		}
	}
}

/* The attention of query t (every head) into tr->prob and tr->o, then
 * r = x_t + o W_o and the logits z = r W_out. */
static void
train_forward_at(struct pe_trainer *tr, size_t t)
{
	size_t d = tr->cfg.d, n = tr->cfg.n, nh = tr->cfg.heads;
	size_t dh = d / nh, V = tr->cfg.vocab;
	double scale = 1.0 / sqrt((double)dh);
	const double *Wo = tr->theta + tr->off[TRAIN_WO];
	const double *Wout = tr->theta + tr->off[TRAIN_WOUT];
	const double *q = tr->q + t * d;

	for (size_t h = 0; h < nh; h++) {
		double *a = tr->prob + h * n, mx = -INFINITY, sum = 0;
		size_t b = h * dh;
		/* s_j = q . k_j over the head's columns, in column order */
		memset(a, 0, (t + 1) * sizeof *a);
		for (size_t c = 0; c < dh; c++)
			train_axpy(t + 1, q[b + c], tr->kT + (b + c) * n, a);
		for (size_t j = 0; j <= t; j++) {
			a[j] *= scale;
			if (a[j] > mx)
				mx = a[j];
		}
		/* softmax over the keys j <= t, shifted by the max */
		for (size_t j = 0; j <= t; j++) {
			a[j] = exp(a[j] - mx);
			sum += a[j];
		}
		for (size_t j = 0; j <= t; j++)
			a[j] /= sum;
		memset(tr->o + b, 0, dh * sizeof *tr->o);
		for (size_t j = 0; j <= t; j++)
			train_axpy(dh, a[j], tr->val + j * d + b, tr->o + b);
	}
	memset(tr->dout, 0, d * sizeof *tr->dout);
	for (size_t c = 0; c < d; c++)
		train_axpy(d, tr->o[c], Wo + c * d, tr->dout);
	for (size_t c = 0; c < d; c++)
		tr->r[c] = tr->x[t * d + c] + tr->dout[c];
	memset(tr->z, 0, V * sizeof *tr->z);
	for (size_t c = 0; c < d; c++)
		train_axpy(V, tr->r[c], Wout + c * V, tr->z);
}

/* Cross-entropy of the logits tr->z against y: log sum exp z - z_y, the
 * sum shifted by the max. With dz, z becomes dL/dz = (softmax z - onehot
 * y) * weight. */
static double
train_cross_entropy(struct pe_trainer *tr, int y, bool dz, double weight)
{
	size_t V = tr->cfg.vocab;
	double mx = -INFINITY, sum = 0;

	for (size_t u = 0; u < V; u++)
		if (tr->z[u] > mx)
			mx = tr->z[u];
	for (size_t u = 0; u < V; u++)
		sum += exp(tr->z[u] - mx);
	double loss = log(sum) + mx - tr->z[y];
	if (dz)
		for (size_t u = 0; u < V; u++)
			tr->z[u] = (exp(tr->z[u] - mx) / sum -
			    (u == (size_t)y ? 1.0 : 0.0)) * weight;
	return loss;
}

/* The index of the first largest logit. */
static size_t
train_argmax(const double *z, size_t V)
{
	size_t best = 0;

	for (size_t u = 1; u < V; u++)
		if (z[u] > z[best])
			best = u;
	return best;
}

/* The backward pass of query t, from dL/dz in tr->z: the gradients of
 * W_out and W_o, dx_t's residual share, and dq_t, dk_j, dv_j (j <= t). */
static void
train_backward_at(struct pe_trainer *tr, size_t t)
{
	size_t d = tr->cfg.d, n = tr->cfg.n, nh = tr->cfg.heads;
	size_t dh = d / nh, V = tr->cfg.vocab;
	double scale = 1.0 / sqrt((double)dh);
	const double *WoT = tr->wT + 3 * d * d;
	const double *WoutT = tr->wT + 4 * d * d;
	double *gWo = tr->grad + tr->off[TRAIN_WO];
	double *gWout = tr->grad + tr->off[TRAIN_WOUT];
	const double *dz = tr->z;

	/* z = r W_out: dW_out += r^T dz, dr = dz W_out^T */
	for (size_t c = 0; c < d; c++)
		train_axpy(V, tr->r[c], dz, gWout + c * V);
	memset(tr->dr, 0, d * sizeof *tr->dr);
	for (size_t u = 0; u < V; u++)
		train_axpy(d, dz[u], WoutT + u * d, tr->dr);
	/* r = x + o W_o: the residual passes dr to x */
	memcpy(tr->dx + t * d, tr->dr, d * sizeof *tr->dr);
	for (size_t c = 0; c < d; c++)
		train_axpy(d, tr->o[c], tr->dr, gWo + c * d);
	memset(tr->dout, 0, d * sizeof *tr->dout);
	for (size_t e = 0; e < d; e++)
		train_axpy(d, tr->dr[e], WoT + e * d, tr->dout);
	for (size_t h = 0; h < nh; h++) {
		const double *a = tr->prob + h * n;
		const double *g = tr->dout + h * dh;
		const double *q = tr->q + t * d + h * dh;
		double *da = tr->row, *dq = tr->dq + t * d + h * dh, dot = 0;
		size_t b = h * dh;
		/* o = sum_j a_j v_j: da_j = do . v_j, dv_j += a_j do */
		memset(da, 0, (t + 1) * sizeof *da);
		for (size_t c = 0; c < dh; c++)
			train_axpy(t + 1, g[c], tr->vT + (b + c) * n, da);
		for (size_t j = 0; j <= t; j++) {
			train_axpy(dh, a[j], g, tr->dv + j * d + b);
			dot += a[j] * da[j];
		}
		/* softmax backward: ds_j = a_j (da_j - sum_i a_i da_i); then
		 * through s = q . k * scale */
		for (size_t j = 0; j <= t; j++) {
			double ds = a[j] * (da[j] - dot) * scale;
			train_axpy(dh, ds, tr->k + j * d + b, dq);
			train_axpy(dh, ds, q, tr->dk + j * d + b);
		}
	}
}

/* The backward through q, k, v = x W and x = E[t] + P[t], positions
 * [t0, t1). */
static void
train_project(struct pe_trainer *tr, size_t t0, size_t t1)
{
	size_t d = tr->cfg.d;
	double *gW[3] = {tr->grad + tr->off[TRAIN_WQ],
	    tr->grad + tr->off[TRAIN_WK], tr->grad + tr->off[TRAIN_WV]};
	const double *dy[3] = {tr->dq, tr->dk, tr->dv};
	double *sum[3] = {tr->o, tr->r, tr->dr}; /* free after the attention */
	double *gE = tr->grad + tr->off[TRAIN_E];
	double *gP = tr->grad + tr->off[TRAIN_P];

	for (size_t t = t0; t < t1; t++) {
		const double *x = tr->x + t * d;
		double *dx = tr->dx + t * d;
		for (int w = 0; w < 3; w++) {
			const double *g = dy[w] + t * d;
			const double *WT = tr->wT + w * d * d;
			/* y = x W: dW += x^T dy, and dy W^T toward dx */
			for (size_t c = 0; c < d; c++)
				train_axpy(d, x[c], g, gW[w] + c * d);
			memset(sum[w], 0, d * sizeof *sum[w]);
			for (size_t e = 0; e < d; e++)
				train_axpy(d, g[e], WT + e * d, sum[w]);
		}
		for (size_t c = 0; c < d; c++)
			dx[c] += sum[0][c] + sum[1][c] + sum[2][c];
		train_axpy(d, 1.0, dx, gE + (size_t)tr->tok[t] * d);
		train_axpy(d, 1.0, dx, gP + t * d);
	}
}

/* The distance task's rows [i0, i1): R_ij = P_i . P_j - K(|i - j|) into
 * the loss sum; training: dL/dP_i = (4 / n^2) sum_j R_ij P_j (R is
 * symmetric); evaluation: the pairs within PE_TRAIN_DISTANCE_TOL. */
static void
train_distance_rows(struct pe_trainer *tr, size_t i0, size_t i1, bool train)
{
	size_t d = tr->cfg.d, n = tr->cfg.n;
	const double *P = tr->theta + tr->off[TRAIN_P], *PT = tr->wT;
	double *gP = tr->grad + tr->off[TRAIN_P];
	double w = 4.0 / ((double)n * (double)n);

	for (size_t i = i0; i < i1; i++) {
		double row_sum = 0, *g = gP + i * d;
		memset(tr->row, 0, n * sizeof *tr->row);
		for (size_t c = 0; c < d; c++)
			train_axpy(n, P[i * d + c], PT + c * n, tr->row);
		for (size_t j = 0; j < n; j++) {
			size_t gap = i > j ? i - j : j - i;
			double res = tr->row[j] - tr->kern[gap];
			tr->row[j] = res;
			row_sum += res * res;
			if (!train && fabs(res) < PE_TRAIN_DISTANCE_TOL)
				tr->right++;
		}
		tr->loss_sum += row_sum;
		if (!train)
			continue;
		memset(g, 0, d * sizeof *g);
		for (size_t j = 0; j < n; j++)
			train_axpy(d, tr->row[j], P + j * d, g);
		for (size_t c = 0; c < d; c++)
			g[c] *= w;
	}
}

/* Is the cursor between steps (a training step's first unit next)? */
static bool
train_at_boundary(const struct pe_trainer *tr)
{
	return tr->phase == PHASE_TRAIN && tr->item == 0 &&
	    tr->pass == PASS_EMBED && tr->block == 0;
}

/* Grow a curve by one element. */
static int
train_grow(void **items, size_t *cap, size_t used, size_t size)
{
	if (used < *cap)
		return PE_OK;
	size_t want = *cap > 0 ? 2 * *cap : 256;
	void *p = realloc(*items, want * size);
	if (p == NULL)
		return PE_ENOMEM;
	*items = p;
	*cap = want;
	return PE_OK;
}

/* The end of an evaluation: its record, then the next step's start. */
static int
train_eval_done(struct pe_trainer *tr)
{
	const struct pe_train_config *cfg = &tr->cfg;
	double total;

	if (cfg->task == PE_TRAIN_DISTANCE)
		total = (double)cfg->n * (double)cfg->n;
	else
		total = (double)cfg->held_out * (double)train_targets(cfg);
	if (train_grow((void **)&tr->evals, &tr->cap_evals, tr->n_evals,
	    sizeof *tr->evals) != PE_OK)
		return PE_ENOMEM;
	struct pe_train_stats *st = &tr->stats;
	st->accuracy = (double)tr->right / total;
	st->held_loss = tr->loss_sum / total;
	st->eval_step = st->step;
	if (st->accuracy >= PE_TRAIN_LEARNED &&
	    st->learned_step == PE_TRAIN_NOT_YET)
		st->learned_step = st->step;
	tr->evals[tr->n_evals++] = (struct pe_train_eval){st->step,
	    st->accuracy, st->held_loss};
	tr->phase = PHASE_TRAIN;
	tr->item = tr->block = 0;
	tr->pass = PASS_EMBED;
	tr->loss_sum = 0;
	return PE_OK;
}

/* Adam on the accumulated gradient (train.h), unless the loss or a
 * gradient is not finite. Then the evaluation when one is due. */
static int
train_update(struct pe_trainer *tr)
{
	const struct pe_train_config *cfg = &tr->cfg;
	size_t count = tr->off[TRAIN_TENSORS];
	double loss = tr->loss_sum;

	if (cfg->task == PE_TRAIN_DISTANCE)
		loss /= (double)cfg->n * (double)cfg->n;
	bool finite = isfinite(loss);
	for (size_t i = 0; i < count && finite; i++)
		finite = isfinite(tr->grad[i]);
	if (!finite) {
		tr->stats.diverged = true;
		return PE_ERANGE;
	}
	if (train_grow((void **)&tr->losses, &tr->cap_losses, tr->n_losses,
	    sizeof *tr->losses) != PE_OK)
		return PE_ENOMEM;
	double t = (double)(tr->stats.step + 1);
	double c1 = 1.0 - pow(cfg->beta1, t), c2 = 1.0 - pow(cfg->beta2, t);
	for (size_t i = 0; i < count; i++) {
		double g = tr->grad[i];
		tr->m[i] = cfg->beta1 * tr->m[i] + (1.0 - cfg->beta1) * g;
		tr->v[i] = cfg->beta2 * tr->v[i] + (1.0 - cfg->beta2) * g * g;
		double mhat = tr->m[i] / c1, vhat = tr->v[i] / c2;
		tr->theta[i] -= cfg->lr * mhat / (sqrt(vhat) + cfg->eps);
	}
	tr->losses[tr->n_losses++] = loss;
	tr->stats.step++;
	tr->stats.loss = loss;
	tr->item = tr->block = 0;
	tr->pass = PASS_EMBED;
	tr->loss_sum = 0;
	tr->right = 0;
	if (tr->stats.step % cfg->eval_every == 0) {
		tr->phase = PHASE_EVAL;
		tr->held_stream = tr->held_seed;
	} else {
		tr->phase = PHASE_TRAIN;
	}
	return PE_OK;
}

/* One unit of a sequence (training or held-out): a block of one pass.
 * Returns true when the sequence is done. */
static bool
train_sequence_unit(struct pe_trainer *tr, bool train)
{
	const struct pe_train_config *cfg = &tr->cfg;
	size_t n = cfg->n, d = cfg->d;
	size_t t0 = tr->block * PE_TRAIN_BLOCK;
	size_t t1 = t0 + PE_TRAIN_BLOCK < n ? t0 + PE_TRAIN_BLOCK : n;

	if (tr->pass == PASS_EMBED && tr->block == 0) {
		train_sequence(tr, train ? &tr->train_stream :
		    &tr->held_stream);
		if (train)
			memset(tr->dx, 0, 4 * n * d * sizeof *tr->dx);
	}
	if (tr->pass == PASS_EMBED) {
		train_embed(tr, t0, t1);
	} else if (tr->pass == PASS_ATTEND) {
		double weight = 1.0 / ((double)cfg->batch *
		    (double)train_targets(cfg));
		for (size_t t = t0; t < t1; t++) {
			int y = tr->target[t];
			if (y < 0)
				continue;
			train_forward_at(tr, t);
			if (!train) {
				tr->right += train_argmax(tr->z, cfg->vocab) ==
				    (size_t)y;
				tr->loss_sum += train_cross_entropy(tr, y,
				    false, 0);
				continue;
			}
			tr->loss_sum += weight *
			    train_cross_entropy(tr, y, true, weight);
			train_backward_at(tr, t);
		}
	} else {
		train_project(tr, t0, t1);
	}
	if (t1 < n) {
		tr->block++;
		return false;
	}
	tr->block = 0;
	if (tr->pass == PASS_EMBED || (train && tr->pass == PASS_ATTEND)) {
		tr->pass++;
		return false;
	}
	tr->pass = PASS_EMBED;
	return true;
}

/* Do one unit of work at the cursor and move it on. */
static int
train_unit(struct pe_trainer *tr)
{
	const struct pe_train_config *cfg = &tr->cfg;
	bool distance = cfg->task == PE_TRAIN_DISTANCE;

	if (tr->phase == PHASE_UPDATE)
		return train_update(tr);
	bool train = tr->phase == PHASE_TRAIN;
	bool first = tr->item == 0 && tr->block == 0 && tr->pass == PASS_EMBED;
	if (train && first) {
		memset(tr->grad, 0, tr->off[TRAIN_TENSORS] * sizeof *tr->grad);
		tr->loss_sum = 0;
	}
	if (first && (train || distance))
		train_transposes(tr);
	size_t items;
	if (distance) {
		size_t i0 = tr->item * PE_TRAIN_BLOCK;
		size_t i1 = i0 + PE_TRAIN_BLOCK < cfg->n ? i0 + PE_TRAIN_BLOCK :
		    cfg->n;
		train_distance_rows(tr, i0, i1, train);
		tr->item++;
		items = (cfg->n + PE_TRAIN_BLOCK - 1) / PE_TRAIN_BLOCK;
	} else {
		if (train_sequence_unit(tr, train))
			tr->item++;
		items = train ? cfg->batch : cfg->held_out;
	}
	if (tr->item < items)
		return PE_OK;
	if (!train)
		return train_eval_done(tr);
	tr->phase = PHASE_UPDATE;
	return PE_OK;
}

/* Seconds on the monotonic clock. */
static double
train_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Advance within a step and a time budget (train.h). */
int
pe_train_run(struct pe_trainer *tr, size_t max_steps, double seconds,
    size_t *done)
{
	double start = seconds > 0 ? train_clock() : 0;
	size_t first = tr->stats.step;
	int rc = PE_OK;

	if (done != NULL)
		*done = 0;
	if (tr->stats.diverged)
		return PE_ERANGE;
	for (size_t units = 0;; units++) {
		if (train_at_boundary(tr) &&
		    tr->stats.step - first >= max_steps)
			break;
		if (units > 0 && seconds > 0 &&
		    train_clock() - start >= seconds)
			break;
		rc = train_unit(tr);
		if (rc != PE_OK)
			break;
	}
	if (done != NULL)
		*done = tr->stats.step - first;
	return rc;
}

/* The loss and gradient of the next batch, moving nothing. */
int
pe_train_loss_grad(struct pe_trainer *tr, double *loss, double *grad)
{
	if (!train_at_boundary(tr))
		return PE_EINVAL;
	uint64_t stream = tr->train_stream;
	size_t count = tr->off[TRAIN_TENSORS];
	double keep = tr->loss_sum;

	while (tr->phase == PHASE_TRAIN)
		train_unit(tr);
	*loss = tr->loss_sum;
	if (tr->cfg.task == PE_TRAIN_DISTANCE)
		*loss /= (double)tr->cfg.n * (double)tr->cfg.n;
	if (grad != NULL)
		memcpy(grad, tr->grad, count * sizeof *grad);
	tr->phase = PHASE_TRAIN;
	tr->item = tr->block = 0;
	tr->pass = PASS_EMBED;
	tr->train_stream = stream;
	tr->loss_sum = keep;
	return PE_OK;
}

/* The parameter vector. */
double *
pe_train_params(struct pe_trainer *tr, size_t *count)
{
	*count = tr->off[TRAIN_TENSORS];
	return tr->theta;
}

/* The statistics so far. */
void
pe_train_stats(const struct pe_trainer *tr, struct pe_train_stats *dest)
{
	*dest = tr->stats;
}

/* The trainer's config. */
const struct pe_train_config *
pe_train_config(const struct pe_trainer *tr)
{
	return &tr->cfg;
}

/* The position table. */
const double *
pe_train_table(const struct pe_trainer *tr)
{
	return tr->theta + tr->off[TRAIN_P];
}

/* The positional scores of head h: P W_q^h (P W_k^h)^T / sqrt(dh). */
int
pe_train_position_scores(const struct pe_trainer *tr, size_t h, double *dest)
{
	const struct pe_train_config *cfg = &tr->cfg;
	size_t n = cfg->n, d = cfg->d;

	if (cfg->task == PE_TRAIN_DISTANCE || h >= cfg->heads)
		return PE_EINVAL;
	size_t dh = d / cfg->heads, b = h * dh;
	double scale = 1.0 / sqrt((double)dh);
	const double *P = tr->theta + tr->off[TRAIN_P];
	const double *Wq = tr->theta + tr->off[TRAIN_WQ];
	const double *Wk = tr->theta + tr->off[TRAIN_WK];
	double *pq = malloc(2 * n * dh * sizeof *pq);
	if (pq == NULL)
		return PE_ENOMEM;
	double *pk = pq + n * dh;
	memset(pq, 0, 2 * n * dh * sizeof *pq);
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < d; c++) {
			double p = P[i * d + c];
			train_axpy(dh, p, Wq + c * d + b, pq + i * dh);
			train_axpy(dh, p, Wk + c * d + b, pk + i * dh);
		}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			double s = 0;
			for (size_t c = 0; c < dh; c++)
				s += pq[i * dh + c] * pk[j * dh + c];
			dest[i * n + j] = s * scale;
		}
	free(pq);
	return PE_OK;
}

/* The training losses. */
const double *
pe_train_losses(const struct pe_trainer *tr, size_t *count)
{
	*count = tr->n_losses;
	return tr->losses;
}

/* The held-out evaluations. */
const struct pe_train_eval *
pe_train_evals(const struct pe_trainer *tr, size_t *count)
{
	*count = tr->n_evals;
	return tr->evals;
}
