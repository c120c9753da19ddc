/* The RoPE wheel: a circle with one hand per rotation angle, in braille. */
#include <math.h>

#include "render/draw.h"
#include "render/geom.h"

#define WHEEL_RIM PE_RGB(0x80, 0x80, 0x80)

/* Circle and hands in a box of 2w x 4h dots. A braille dot is about as
 * wide as it is tall (a cell is ~1:2 and holds 2 x 4 dots), so the circle
 * is round in dots. The wheel's own coordinates have the centre at 0 and
 * y up; a point at angle a is the radius (r, 0) rotated by a, and the
 * placement (cglm's 2-D affine: y flipped, then moved to the box's centre
 * (cx, cy)) takes it to dot (cx + r cos a, cy - r sin a): angle 0 points
 * right, angles turn counter-clockwise (screen rows grow downward). Each
 * hand's cells take its color. */
void
pe_draw_wheel(struct pe_canvas *cv, int x, int y, int w, int h,
              const double *angles, size_t n, const pe_color *colors)
{
	int cols = 2 * w, rows = 4 * h, steps, ox, oy;
	struct pe_geom g;
	vec2 radius, centre = {0.0f, 0.0f};

	if (w < 1 || h < 1)
		return;
	pe_geom_init(&g, cols, rows);
	glm_translate2d(g.place,
	    (vec2){(float)(cols - 1) / 2.0f, (float)(rows - 1) / 2.0f});
	glm_scale2d(g.place, (vec2){1.0f, -1.0f});
	radius[0] = (float)(cols < rows ? cols - 1 : rows - 1) / 2.0f;
	radius[1] = 0.0f;
	steps = (int)ceil(2.0 * M_PI * radius[0] * 2.0) + 8;
	for (int i = 0; i < steps; i++) {
		mat2 rot;
		vec2 p;
		int px, py;

		pe_geom_rotation(2.0 * M_PI * i / steps, rot);
		glm_mat2_mulv(rot, radius, p);
		pe_geom_dot(&g, p, &px, &py);
		pe_draw_dot(cv, x, y, w, h, px, py, WHEEL_RIM);
	}
	pe_geom_dot(&g, centre, &ox, &oy);
	for (size_t k = 0; k < n; k++) {
		pe_color fg = colors != NULL ? colors[k] : PE_COLOR_DEFAULT;
		mat2 rot;
		vec2 tip;
		int px, py;

		if (!isfinite(angles[k]))
			continue;
		pe_geom_rotation(angles[k], rot);
		glm_mat2_mulv(rot, radius, tip);
		pe_geom_dot(&g, tip, &px, &py);
		pe_draw_segment(cv, x, y, w, h, ox, oy, px, py, fg);
	}
}
