/* The RoPE wheel: a circle with one hand per rotation angle, in braille. */
#include <math.h>

#include "render/draw.h"

#define WHEEL_RIM PE_RGB(0x80, 0x80, 0x80)

/* Circle and hands in a box of 2w x 4h dots. A braille dot is about as
 * wide as it is tall (a cell is ~1:2 and holds 2 x 4 dots), so the circle
 * is round in dots. Hand k ends at (cx + r cos a, cy - r sin a): angle 0
 * points right and angles turn counter-clockwise with y up (screen rows
 * grow downward, hence the minus). Each hand's cells take its color. */
void
pe_draw_wheel(struct pe_canvas *cv, int x, int y, int w, int h,
              const double *angles, size_t n, const pe_color *colors)
{
	int cols = 2 * w, rows = 4 * h, steps;
	double cx = (cols - 1) / 2.0, cy = (rows - 1) / 2.0, r;

	if (w < 1 || h < 1)
		return;
	r = (cols < rows ? cols - 1 : rows - 1) / 2.0;
	steps = (int)ceil(2.0 * M_PI * r * 2.0) + 8;
	for (int i = 0; i < steps; i++) {
		double a = 2.0 * M_PI * i / steps;
		pe_draw_dot(cv, x, y, w, h, (int)lround(cx + r * cos(a)),
		            (int)lround(cy - r * sin(a)), WHEEL_RIM);
	}
	for (size_t k = 0; k < n; k++) {
		pe_color fg = colors != NULL ? colors[k] : PE_COLOR_DEFAULT;

		if (!isfinite(angles[k]))
			continue;
		pe_draw_segment(cv, x, y, w, h, (int)lround(cx), (int)lround(cy),
		              (int)lround(cx + r * cos(angles[k])),
		              (int)lround(cy - r * sin(angles[k])), fg);
	}
}
