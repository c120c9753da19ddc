/* A tiny transformer trained in the kernel, so that a learned position
 * table can be watched being learned. Small and fully specified, so a
 * reader can recompute every number (tests/ref/train.py does, in numpy).
 *
 * Model (one causal attention layer, Vaswani et al. 2017 sec. 3.2; GPT-2's
 * row-vector layout, openai/gpt-2 model.py conv1d: x W with W [in, out]).
 * Parameters, in this order in memory: the position table P [n, d], the
 * token embedding E [V, d], W_q, W_k, W_v, W_o [d, d], the read-out
 * W_out [d, V]; no biases, no layer norm. For a sequence t_0 .. t_{n-1}:
 *   x_i = E[t_i] + P[i]
 *   q_i = x_i W_q,  k_i = x_i W_k,  v_i = x_i W_v   (head h: columns
 *         h dh .. h dh + dh - 1, dh = d / heads)
 *   s_ij = (q_i . k_j) * (1 / sqrt(dh)) for j <= i   (causal: j > i unseen)
 *   a_ij = exp(s_ij - max_j s_ij) / sum_j exp(s_ij - max_j s_ij)
 *   o_i = sum_j a_ij v_j  (per head),  r_i = x_i + o_i W_o  (residual)
 *   z_i = r_i W_out (V logits),  loss_i = log sum_v exp(z_iv) - z_i[y_i]
 * L is the mean of loss_i over the batch's sequences and their target
 * positions. Every sum runs in increasing index order, in double.
 *
 * Tasks (their targets need positions; tokens are uniform in 0..V-1):
 *   offset K  t_i random; y_i = t_{i-K} for i >= K (relative position)
 *   reverse   h = ceil(n / 2): t_i random for i < h, t_i = t_{n-1-i} for
 *             i >= h; y_i = t_{i+1} = t_{n-2-i} for h-1 <= i <= n-2 (the
 *             next token of the mirrored half: absolute position)
 *   first     t_i random; y_i = t_0 for i >= 1 (attend to position 0)
 *   distance  no transformer and no tokens: the table alone fits the
 *             kernel K_ij = exp(-(i - j)^2 / (2 sigma^2)), minimising
 *             L = (1/n^2) sum_ij ((P P^T)_ij - K_ij)^2. K depends on i - j
 *             only (Toeplitz) and is positive definite, so the best table
 *             of d columns spans its leading eigenvectors (Eckart-Young),
 *             which are sinusoid-like: the "why sinusoids" demonstration.
 * Held-out accuracy: the share of target positions of PE_TRAIN held-out
 * sequences (drawn once, from their own stream) where the first largest
 * logit is the target. For distance: the share of all pairs (i, j) with
 * |(P P^T)_ij - K_ij| < PE_TRAIN_DISTANCE_TOL (nothing is held out: the
 * kernel is the whole of what it fits). A task is learned at accuracy
 * >= PE_TRAIN_LEARNED. At the defaults (pe_train_default) offset:3 is
 * learned by step 110, first by 80, reverse by 180, distance by 50
 * (tests/test_train.c checks 200, 150, 300 and 100), and distance's
 * ||P P^T - K||_F / ||K||_F is 0.0039347 after 2000 steps: the least any
 * table of 32 columns can have (Eckart-Young).
 *
 * Random numbers: splitmix64 (Steele, Lea & Flood 2014; Vigna's reference
 * code), as learned.h's. P is pe_learned_init(n, d, seed): at step 0 it is
 * the untrained table that seed gives. A chain from state seed XOR
 * PE_TRAIN_SEED_TAG gives, in order, the seeds of E, W_q, W_k, W_v, W_o,
 * W_out (each filled by pe_learned_init: GPT-2's N(0, 0.02^2), float32
 * draws; HF scales GPT-2's c_proj by 1/sqrt(2 n_layer), not done here: every
 * matrix is drawn alike), then the training stream's state and the
 * held-out stream's state. A token is splitmix64(stream) mod V; a sequence
 * draws its random tokens in position order; a step draws its batch's
 * sequences in order.
 *
 * Adam (Kingma & Ba 2015, Algorithm 1; PyTorch's defaults, no weight
 * decay), at step t = 1, 2, ... on each parameter:
 *   m = b1 m + (1 - b1) g,  v = b2 v + (1 - b2) g^2
 *   theta -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
 * A step whose loss or gradient is not finite is not applied: the trainer
 * stops (diverged) with its table as it was, finite.
 *
 * Work is cut into units (a block of PE_TRAIN_BLOCK positions of one
 * sequence's forward or backward pass, a block of the distance task's
 * rows, the update, a held-out sequence), so pe_train_run can stop within a
 * time budget and go on later; the numbers never depend on where it
 * stopped. The file is built with -ffp-contract=off (meson.build): no fused
 * multiply-add changes a rounding, so a build gives the same bytes on
 * every run. */
#ifndef PESCOPE_TRAIN_H
#define PESCOPE_TRAIN_H

#include "pescope.h"

/* The training bounds: the sizes are tiny, so the work stays live. */
#define PE_TRAIN_MAX_D 128
#define PE_TRAIN_MAX_N 256
#define PE_TRAIN_MAX_VOCAB 64
#define PE_TRAIN_MAX_HEADS 16
#define PE_TRAIN_MAX_BATCH 1024
#define PE_TRAIN_MAX_HELD_OUT 4096
#define PE_TRAIN_MAX_STEPS 1000000

#define PE_TRAIN_LEARNED 0.95	    /* accuracy at which a task is learned */
#define PE_TRAIN_DISTANCE_TOL 0.05  /* distance: a pair is right within */
#define PE_TRAIN_BLOCK 8	    /* positions (or rows) per unit of work */
#define PE_TRAIN_SEED_TAG 0x747261696e000000ULL /* "train" */
#define PE_TRAIN_NOT_YET ((size_t)-1) /* learned_step before it is */

enum pe_train_task {
	PE_TRAIN_OFFSET,   /* y_i = t_{i-K}: relative position */
	PE_TRAIN_REVERSE,  /* the second half mirrors the first */
	PE_TRAIN_FIRST,	   /* y_i = t_0 */
	PE_TRAIN_DISTANCE, /* P P^T fits a distance kernel */
	PE_TRAIN_TASK_COUNT
};

/* Everything that determines a run. Messages name the fields as in the
 * comments ("lr 0: ..."), as pe_config_check does. */
struct pe_train_config {
	enum pe_train_task task; /* train */
	size_t k;		 /* offset's K, 1..n-1 (train offset:K) */
	size_t d;		 /* d_model, 1..PE_TRAIN_MAX_D */
	size_t n;		 /* seq_len: the table's rows and each
				    sequence's length, 2..PE_TRAIN_MAX_N */
	size_t vocab;		 /* V, 2..PE_TRAIN_MAX_VOCAB */
	size_t heads;		 /* 1..PE_TRAIN_MAX_HEADS, divides d */
	size_t batch;		 /* training sequences per step */
	size_t held_out;	 /* held-out sequences */
	size_t eval_every;	 /* held-out accuracy every this many steps */
	double lr;		 /* Adam's learning rate, > 0, finite */
	double beta1, beta2;	 /* Adam's decay rates, in [0, 1) */
	double eps;		 /* Adam's epsilon, > 0 */
	double sigma;		 /* distance: the kernel's width, > 0 */
	uint64_t seed;
};

/* Statistics of a run so far. */
struct pe_train_stats {
	size_t step;	      /* Adam steps applied */
	double loss;	      /* the last applied step's training loss; NAN
				 before the first */
	double accuracy;      /* held-out accuracy at the last evaluation */
	double held_loss;     /* held-out loss (distance: L) then */
	size_t eval_step;     /* the step it was measured at */
	size_t learned_step;  /* the first evaluation at >= PE_TRAIN_LEARNED,
				 or PE_TRAIN_NOT_YET */
	bool diverged;	      /* a step's loss or gradient was not finite:
				 the run stopped before applying it */
};

/* One held-out evaluation. */
struct pe_train_eval {
	size_t step;
	double accuracy;
	double loss;
};

struct pe_trainer;

/* Fill *cfg with the defaults: offset:3, d 32, n 64, V 16, one head,
 * batch 32, 64 held-out sequences, an evaluation every 10 steps, lr 1e-2,
 * PyTorch's Adam betas (0.9, 0.999) and eps 1e-8, sigma 2, seed
 * PE_LEARNED_SEED. */
void pe_train_default(struct pe_train_config *cfg);

/* Check a training config. PE_OK, or PE_EINVAL with a sentence naming the
 * field and its range in why[cap] ("heads 3: d_model 32 is not a multiple
 * of heads"). */
int pe_train_check(const struct pe_train_config *cfg, char *why, size_t cap);

/* The task as the command line names it, "offset:3" or "reverse", into
 * buf[cap]. */
void pe_train_label(const struct pe_train_config *cfg, char *buf,
    size_t cap);

/* A task's name ("offset"), and the reverse (-1 when unknown). */
const char *pe_train_task_name(enum pe_train_task task);
int pe_train_task_parse(const char *name);

/* A trainer for cfg at step 0 (parameters drawn, nothing evaluated yet).
 * PE_OK, PE_EINVAL for a config pe_train_check refuses, or PE_ENOMEM. */
int pe_train_new(const struct pe_train_config *cfg,
    struct pe_trainer **dest);
void pe_train_free(struct pe_trainer *tr);

/* Start again from the seed: step 0, curves emptied. */
void pe_train_restart(struct pe_trainer *tr);

/* Advance until max_steps more steps (Adam updates) are applied and the
 * evaluation due after the last of them is done (step 0's evaluation
 * comes first), or seconds have passed on the monotonic clock (seconds
 * <= 0: no limit), or the run diverged. Work cut short goes on at the
 * next call. *done (may be NULL): the steps this call applied.
 * PE_OK; PE_ERANGE when the run has diverged (now or before: nothing
 * moves again until pe_train_restart); PE_ENOMEM when a curve cannot
 * grow. */
int pe_train_run(struct pe_trainer *tr, size_t max_steps, double seconds,
    size_t *done);

/* The run's statistics. */
void pe_train_stats(const struct pe_trainer *tr,
    struct pe_train_stats *dest);

/* The config the trainer was made with. */
const struct pe_train_config *pe_train_config(const struct pe_trainer *tr);

/* The position table P [n, d], row-major, as the last applied step left
 * it: a learned encoding's table (cfg->table with max_len n). The pointer
 * stays valid, and the values change only in pe_train_run and
 * pe_train_restart. */
const double *pe_train_table(const struct pe_trainer *tr);

/* What attention sees of positions alone in head h: the scores of the
 * table's rows, dest[i n + j] = (P_i W_q^h) . (P_j W_k^h) / sqrt(dh) for
 * every i, j (the model reads only j <= i); dest has n * n entries.
 * PE_OK, PE_EINVAL for the distance task (no attention) or h past the
 * heads, or PE_ENOMEM. */
int pe_train_position_scores(const struct pe_trainer *tr, size_t h,
    double *dest);

/* The training loss of steps 1 .. *count (losses[s] is step s + 1's). */
const double *pe_train_losses(const struct pe_trainer *tr, size_t *count);

/* The held-out evaluations so far, in step order. */
const struct pe_train_eval *pe_train_evals(const struct pe_trainer *tr,
    size_t *count);

#endif
