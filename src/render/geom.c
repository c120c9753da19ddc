/* Render-space 2-D geometry in float (cglm 0.8.8's mat2, mat3 and affine2d):
 * the placement of a drawing on a box of dots and the snap to a dot. */
#include <float.h>
#include <math.h>

#include "render/geom.h"

/* Largest coordinate snapped as it is: beyond 2^24 a float has no
 * fraction, and no box is that large. */
#define GEOM_FAR 16777216.0f

/* An identity placement in a cols x rows box. tol is FLT_EPSILON times
 * its larger side: the bound of a placement's rounding, each of its two
 * or three roundings (a cosine or a fraction to float, a product, a sum)
 * within 2^-24 of numbers no larger than that side. */
void
pe_geom_init(struct pe_geom *g, int cols, int rows)
{
	float side = (float)(cols > rows ? cols : rows);

	glm_mat3_identity(g->place);
	g->tol = FLT_EPSILON * (side > 1.0f ? side : 1.0f);
}

/* The rotation matrix [c -s; s c] (column-major: columns (c, s) and
 * (-s, c)) with c = cos a, s = sin a from double. */
void
pe_geom_rotation(double a, mat2 dest)
{
	float c = (float)cos(a), s = (float)sin(a);

	dest[0][0] = c;
	dest[0][1] = s;
	dest[1][0] = -s;
	dest[1][1] = c;
}

/* dest = place · (p, 1), the affine map of a 2-D point. */
void
pe_geom_place(struct pe_geom *g, vec2 p, vec2 dest)
{
	vec3 h = {p[0], p[1], 1.0f}, out;

	glm_mat3_mulv(g->place, h, out);
	dest[0] = out[0];
	dest[1] = out[1];
}

/* Nearest integer, halves (and what lies within tol of one) away from
 * zero. */
int
pe_geom_snap(const struct pe_geom *g, float v)
{
	float fl;

	if (!(v > -GEOM_FAR))
		v = -GEOM_FAR; /* NaN too: a dot no box holds */
	if (v > GEOM_FAR)
		v = GEOM_FAR;
	fl = floorf(v);
	if (fabsf(v - fl - 0.5f) <= g->tol)
		return v < 0.0f ? (int)fl : (int)fl + 1;
	return (int)lroundf(v);
}

/* The dot of drawing point p. */
void
pe_geom_dot(struct pe_geom *g, vec2 p, int *px, int *py)
{
	vec2 d;

	pe_geom_place(g, p, d);
	*px = pe_geom_snap(g, d[0]);
	*py = pe_geom_snap(g, d[1]);
}
