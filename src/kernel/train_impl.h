/* Private to the kernel and its tests: the trainer's parameters and one
 * batch's loss and gradient, for finite differences and the numpy
 * comparison (tests/test_train.c). */
#ifndef PESCOPE_KERNEL_TRAIN_IMPL_H
#define PESCOPE_KERNEL_TRAIN_IMPL_H

#include "pescope/train.h"

/* Where each tensor starts in the parameter vector, in its order
 * (train.h): P, E, W_q, W_k, W_v, W_o, W_out, and the total. */
enum train_tensor {
	TRAIN_P,
	TRAIN_E,
	TRAIN_WQ,
	TRAIN_WK,
	TRAIN_WV,
	TRAIN_WO,
	TRAIN_WOUT,
	TRAIN_TENSORS
};

/* offsets[t] is where tensor t starts; offsets[TRAIN_TENSORS] the count
 * (distance: P only, every other tensor empty). */
void pe_train_layout(const struct pe_train_config *cfg,
    size_t offsets[TRAIN_TENSORS + 1]);

/* The parameter vector, writable (a test may set any value), and its
 * length in *count. */
double *pe_train_params(struct pe_trainer *tr, size_t *count);

/* The loss of the next step's batch at the parameters as they are, and
 * its gradient into grad[count] (NULL: loss only). Moves nothing: the
 * next step still draws that batch. Only between steps (PE_EINVAL inside
 * one); PE_ENOMEM never (the buffers exist). */
int pe_train_loss_grad(struct pe_trainer *tr, double *loss, double *grad);

#endif
