/* Braille line plots: 2 x 4 dots per cell (Unicode block U+2800). */
#include <math.h>
#include <stdlib.h>

#include "render/draw.h"
#include "render/geom.h"

#define BRAILLE_BASE 0x2800u

/* Bit of dot (column dx, row dy) in a braille cell: dots 1-2-3-7 down the
 * left column, 4-5-6-8 down the right (Unicode 3.0, ch. 15 Braille
 * Patterns: dot n is bit n - 1). */
static const uint8_t braille_bit[2][4] = {
    {0x01, 0x02, 0x04, 0x40},
    {0x08, 0x10, 0x20, 0x80},
};

/* The quadrant block of each set of quadrants, bit 0 upper left, 1 upper
 * right, 2 lower left, 3 lower right (Unicode 3.2, Block Elements
 * U+2580-U+259F). */
static const uint32_t quadrant_glyph[16] = {
	' ', 0x2598, 0x259d, 0x2580, 0x2596, 0x258c, 0x259e, 0x259b,
	0x2597, 0x259a, 0x2590, 0x259c, 0x2584, 0x2599, 0x259f, 0x2588,
};

/* A large canvas's dot: the quadrant of the cell that holds braille dot
 * (px, py), added to the quadrants the cell shows already. */
static void
quadrant_dot(struct pe_cell *c, int px, int py, pe_color fg)
{
	uint32_t bits = 0;

	for (uint32_t q = 1; q < 16 && c->kind == PE_CELL_TEXT; q++)
		if (c->cp == quadrant_glyph[q])
			bits = q;
	if (bits == 0)
		c->bg = PE_COLOR_DEFAULT;
	bits |= 1u << ((py & 3) / 2 * 2 + (px & 1));
	c->cp = quadrant_glyph[bits];
	c->fg = fg;
	c->kind = PE_CELL_TEXT;
	c->shade = 0;
}

/* Set dot (px, py) of a w x h cell box at (x, y); dots outside the box are
 * dropped, a cell that is not braille yet starts empty. On a large canvas
 * the dot is the quadrant block that holds it (a line of blocks, not
 * of points). */
void
pe_draw_dot(struct pe_canvas *cv, int x, int y, int w, int h, int px, int py,
            pe_color fg)
{
	struct pe_cell *c;
	uint32_t bits = 0;

	if (px < 0 || py < 0 || px >= 2 * w || py >= 4 * h)
		return;
	c = pe_canvas_at(cv, x + px / 2, y + py / 4);
	if (c == NULL)
		return;
	if (cv->large) {
		quadrant_dot(c, px, py, fg);
		return;
	}
	if (c->kind == PE_CELL_TEXT && c->cp >= BRAILLE_BASE &&
	    c->cp <= BRAILLE_BASE + 0xff)
		bits = c->cp - BRAILLE_BASE;
	else
		c->bg = PE_COLOR_DEFAULT;
	bits |= braille_bit[px & 1][py & 3];
	c->cp = BRAILLE_BASE + bits;
	c->fg = fg;
	c->kind = PE_CELL_TEXT;
	c->shade = 0;
}

/* Dots of the straight segment (x0, y0)-(x1, y1) (Bresenham 1965, the
 * all-octant integer form). */
void
pe_draw_segment(struct pe_canvas *cv, int x, int y, int w, int h, int x0,
                int y0, int x1, int y1, pe_color fg)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;

	for (;;) {
		pe_draw_dot(cv, x, y, w, h, x0, y0, fg);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

/* A plot's placement in a box of cols x rows dots: drawing point (i, f)
 * of sample i, f its depth below yhi as a fraction of the range, goes to
 * dot (i (cols - 1) / (n - 1), f (rows - 1)): ylo to the bottom row, yhi
 * to the top. */
static void
plot_geom(struct pe_geom *g, int cols, int rows, size_t n)
{
	float sx = n > 1 ? (float)((double)(cols - 1) / (double)(n - 1)) : 0.0f;

	pe_geom_init(g, cols, rows);
	glm_scale2d(g->place, (vec2){sx, (float)(rows - 1)});
}

/* The dot of sample i, value v: f = (yhi - v) / (yhi - ylo) (0.5 when
 * yhi = ylo), taken in double where the data's digits are (a range of 1
 * around 10^6 has none left in float), clamped to [0, 1], then placed. */
static void
plot_dot(struct pe_geom *g, size_t i, double v, double ylo, double yhi,
         int *px, int *py)
{
	double f = yhi != ylo ? (yhi - v) / (yhi - ylo) : 0.5;

	if (!(f >= 0.0))
		f = 0.0;
	if (f > 1.0)
		f = 1.0;
	pe_geom_dot(g, (vec2){(float)i, (float)f}, px, py);
}

/* Plot ys[0..n) across the box: sample i at dot column round(i (2w - 1) /
 * (n - 1)), consecutive finite samples joined by segments, NAN a gap; a
 * finite sample between two gaps is one dot. */
void
pe_draw_plot(struct pe_canvas *cv, int x, int y, int w, int h, const double *ys,
             size_t n, double ylo, double yhi, pe_color fg)
{
	int cols = 2 * w, rows = 4 * h, px_prev = 0, py_prev = 0;
	bool have_prev = false;
	struct pe_geom g;

	if (w < 1 || h < 1 || n == 0)
		return;
	plot_geom(&g, cols, rows, n);
	for (size_t i = 0; i < n; i++) {
		int px, py;

		if (!isfinite(ys[i])) {
			have_prev = false;
			continue;
		}
		plot_dot(&g, i, ys[i], ylo, yhi, &px, &py);
		if (have_prev)
			pe_draw_segment(cv, x, y, w, h, px_prev, py_prev, px, py,
			             fg);
		else
			pe_draw_dot(cv, x, y, w, h, px, py, fg);
		px_prev = px;
		py_prev = py;
		have_prev = true;
	}
}
