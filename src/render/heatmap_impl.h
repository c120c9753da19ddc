/* Private to heatmap.c and its loops for the vector units
 * (heatmap_avx512.c): what a row of colors asks of its scale. */
#ifndef PESCOPE_RENDER_HEATMAP_IMPL_H
#define PESCOPE_RENDER_HEATMAP_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/draw.h"
#include "render/palette.h"

/* What pe_scale_color asks of its scale, asked once for a row. */
struct heatmap_plan {
	const struct pe_scale *sc;
	const uint32_t *lut;	/* the colormap's buckets */
	enum pe_cmap cmap;
	double lo, span;	/* t = (v - lo) / span ... */
	bool flat;		/* ... unless span is 0 or not finite: t = 1/2 */
	bool cyclic;
};

/* pe_scale_means of the first n - n % 8 means (res NULL: every
 * resultant 1) in AVX-512F, 8 at a time, bit for bit the generic loop's
 * (heatmap.c); returns how many of them are NaN (undefined). Built with
 * -mavx512f and called only where the CPU has it (pe_wave_isa). */
size_t pe_heatmap_means_avx512(const struct heatmap_plan *pl,
    const double *mean, const double *res, size_t n, uint32_t *dest);

#endif
