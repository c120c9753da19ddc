/* `pescope model FILE` (app/model.c): a model's layers as text. */
#ifndef PESCOPE_APP_MODEL_H
#define PESCOPE_APP_MODEL_H

#include <stddef.h>
#include <stdio.h>

#include "app/options.h"
#include "pescope/model.h"

/* Print model a as text wrapped at width columns (40 at least): its
 * description and source, model type, layer count and lengths, the strip
 * (a letter per layer: its kind, rulers every 10 layers), each kind (its
 * layers as ranges, what it does with positions, its wavelengths against
 * the keys a query sees and the trained context) and the keys not
 * modelled. PE_OK, PE_ENOMEM or PE_EIO (a write failed). */
int pe_app_model_print(FILE *fp, const struct pe_arch *a, size_t width);

/* dump --config F --table layers: the strip as CSV (a header line, then a
 * line per layer: layer, type, encoding, rotates, exact, causal, span,
 * window, chunk, head_dim, rotary_dim, base, rope_type, factor,
 * attention_scaling, softmax_scale, kind) to -o (atomically) or standard
 * output. Returns the exit status. */
int pe_app_model_csv(const struct pe_options *o);

#endif
