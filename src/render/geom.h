/* Render-space 2-D geometry in float, with cglm: where a drawing's points
 * fall on a box of dots (the wheel's rim and hands, a plot's samples).
 * Screen positions need float's precision, not double's: a box is at most
 * 2000 x 4000 dots (a 1000 x 1000 frame). The numbers a view prints, and
 * the kernel's angles and rotations, stay double (HACKING.md says why). */
#ifndef PESCOPE_GEOM_H
#define PESCOPE_GEOM_H

#include <cglm/cglm.h> /* the whole header: 0.8.8's mat2.h needs vec4.h */

/* A box of dots and the affine map that places a drawing in it. */
struct pe_geom {
	mat3 place;	/* drawing coordinates -> dot coordinates (cglm's
			   column-major 2-D affine matrix) */
	float tol;	/* how near a half a coordinate counts as the half:
			   the bound of the rounding of a point placed in
			   the box (pe_geom_init) */
};

/* A box of cols x rows dots whose drawing coordinates are its dots
 * (place is the identity; the caller composes its map onto it with cglm's
 * affine2d calls). */
void pe_geom_init(struct pe_geom *g, int cols, int rows);
/* The rotation by angle a (radians, counter-clockwise), its cos and sin
 * taken in double and rounded once to float: the angle is the kernel's
 * double (m·θ may be 10^6 rad, which float would move by 0.03 rad), only
 * the rotated point is screen geometry. */
void pe_geom_rotation(double a, mat2 dest);
/* Drawing point p placed in the box: dest = place · (p, 1). */
void pe_geom_place(struct pe_geom *g, vec2 p, vec2 dest);
/* The dot a placed coordinate v falls in: the nearest integer, a half
 * away from zero as lround rounds it, and a v within g->tol of a half is
 * that half, so that float's rounding never decides a tie that exact
 * arithmetic puts on the boundary (the wheel's centre lines, a plot's
 * middle sample). v is clamped to +-2^24 first. */
int pe_geom_snap(const struct pe_geom *g, float v);
/* pe_geom_place and pe_geom_snap of both coordinates. */
void pe_geom_dot(struct pe_geom *g, vec2 p, int *px, int *py);

#endif
