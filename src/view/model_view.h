/* The model view (model_view.c): a model's layers in one picture. */
#ifndef PESCOPE_VIEW_MODEL_VIEW_H
#define PESCOPE_VIEW_MODEL_VIEW_H

#include <stddef.h>

#include "pescope/model.h"
#include "render/canvas.h"

/* Draw model a into cv's rectangle (x, y, w, h), layer `layer` marked:
 * the strip (a cell per layer, its kind's letter on its kind's color,
 * numbers every 10 layers), a line per kind (count and what it does with
 * positions), and each rotating kind's wavelengths 2 pi / w_j as a band
 * on one log axis of positions, with its reach (window, chunk or the
 * sequence) and the trained context marked. What does not fit in h rows
 * is left out from the bottom. PE_OK, PE_ENOMEM, or PE_EINVAL for an
 * empty model or a rectangle under 20 x 3. */
int pe_view_model_draw(struct pe_canvas *cv, int x, int y, int w, int h,
    const struct pe_arch *a, size_t layer);

#endif
