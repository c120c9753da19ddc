/* Renderers: scales, half-block heatmaps, braille plots, the wheel, axes,
 * the color bar and number formatting. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/draw.h"

/* A block-mean sample of count entries with the given mean. */
static struct pe_stats
val(double mean)
{
	struct pe_stats s = {0};

	s.mean = mean;
	s.resultant = 1.0;
	s.count = 4;
	return s;
}

/* A sample whose entries are masked / undefined (m and u of 4). */
static struct pe_stats
special(int m, int u)
{
	struct pe_stats s = val(0.5);

	s.masked = (uint64_t)m;
	s.undefined = (uint64_t)u;
	if (m + u == 4)
		s.mean = NAN;
	return s;
}

/* Row y of the canvas as ASCII (non-ASCII -> '~'). */
static void
row_text(struct pe_canvas *cv, int y, char *buf)
{
	int x;

	for (x = 0; x < cv->w; x++) {
		uint32_t cp = pe_canvas_at(cv, x, y)->cp;
		buf[x] = cp < 0x80 ? (char)cp : '~';
	}
	buf[x] = '\0';
}

Test(draw, scale_t)
{
	struct pe_scale sc = {PE_CMAP_DIVERGING, -2.0, 2.0, false};

	cr_expect_float_eq(pe_scale_t(&sc, 0.0), 0.5, 1e-15);
	cr_expect_float_eq(pe_scale_t(&sc, 1.0), 0.75, 1e-15);
	cr_expect_float_eq(pe_scale_t(&sc, -9.0), 0.0, 1e-15);
	cr_expect_float_eq(pe_scale_t(&sc, INFINITY), 1.0, 1e-15);
	struct pe_scale cyc = {PE_CMAP_CYCLIC, 0.0, 2 * M_PI, true};
	cr_expect_float_eq(pe_scale_t(&cyc, 2 * M_PI + 0.5 * M_PI), 0.25,
	                   1e-12);
	cr_expect_float_eq(pe_scale_t(&cyc, -0.5 * M_PI), 0.75, 1e-12);
	double t = pe_scale_t(&cyc, 2 * M_PI);
	cr_expect(t >= 0.0 && t < 1.0, "wrapped into [0, 1): %g", t);
}

Test(draw, sample_rule_more_than_half)
{
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, 0.0, 1.0, false};
	struct pe_stats s;

	s = special(3, 0);
	cr_expect_eq(pe_scale_color(&sc, &s), PE_COLOR_MASKED);
	s = special(2, 0); /* exactly half: still a value */
	cr_expect_eq(pe_scale_color(&sc, &s), pe_cmap_color(sc.cmap, 0.5));
	s = special(0, 3);
	cr_expect_eq(pe_scale_color(&sc, &s), PE_COLOR_UNDEF);
	s = special(1, 1);
	cr_expect_eq(pe_scale_color(&sc, &s), pe_cmap_color(sc.cmap, 0.5));
}

Test(draw, cyclic_fades_to_grey)
{
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0.0, 2 * M_PI, true};
	struct pe_stats s = val(1.0);

	cr_expect_eq(pe_scale_color(&sc, &s),
	             pe_cmap_color(PE_CMAP_CYCLIC, 1.0 / (2 * M_PI)));
	s.resultant = 0.0; /* no direction at all: mid grey */
	cr_expect_eq(pe_scale_color(&sc, &s), 0x808080);
	/* Half way: each channel half way to 0x80 (within rounding). */
	s.resultant = 0.5;
	pe_color full = pe_cmap_color(PE_CMAP_CYCLIC, 1.0 / (2 * M_PI));
	pe_color half = pe_scale_color(&sc, &s);
	for (int sh = 0; sh <= 16; sh += 8) {
		double want = 0.5 * (((full >> sh) & 255) + 128);
		cr_expect(fabs(((half >> sh) & 255) - want) <= 0.5 + 1e-9);
	}
}

/* A 2 x 1 sample grid is one cell: upper sample -> foreground, lower ->
 * background. Expected colors are matplotlib's viridis ends
 * (tests/ref/render_ref.py): 0xfde725 at 1, 0x440154 at 0. */
Test(draw, heatmap_half_block)
{
	struct pe_canvas cv;
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, 0.0, 1.0, false};
	struct pe_stats s[2] = {val(1.0), val(0.0)};

	cr_assert_eq(pe_canvas_init(&cv, 3, 2), 0);
	pe_draw_heatmap(&cv, 1, 1, 1, 1, s, &sc);
	struct pe_cell *c = pe_canvas_at(&cv, 1, 1);
	cr_expect_eq(c->cp, 0x2580);
	cr_expect_eq(c->fg, 0xfde725);
	cr_expect_eq(c->bg, 0x440154);
	cr_expect_eq(c->kind, PE_CELL_SHADE);
	cr_expect(c->shade == 127 || c->shade == 128, "shade %d", c->shade);
	/* Nothing else touched. */
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, ' ');
	cr_expect_eq(pe_canvas_at(&cv, 2, 1)->cp, ' ');
	pe_canvas_free(&cv);
}

Test(draw, heatmap_grid_layout)
{
	/* 4 sample rows x 2 cols -> 2 x 2 cells; row-major samples. */
	struct pe_canvas cv;
	struct pe_scale sc = {PE_CMAP_SEQUENTIAL, 0.0, 7.0, false};
	struct pe_stats s[8];

	for (int i = 0; i < 8; i++)
		s[i] = val(i);
	cr_assert_eq(pe_canvas_init(&cv, 2, 2), 0);
	pe_draw_heatmap(&cv, 0, 0, 2, 2, s, &sc);
	for (int cy = 0; cy < 2; cy++)
		for (int cx = 0; cx < 2; cx++) {
			struct pe_cell *c = pe_canvas_at(&cv, cx, cy);
			int up = (2 * cy) * 2 + cx, lo = (2 * cy + 1) * 2 + cx;
			cr_expect_eq(c->fg, pe_cmap_color(sc.cmap, up / 7.0));
			cr_expect_eq(c->bg, pe_cmap_color(sc.cmap, lo / 7.0));
			int want = (int)lround(255.0 * (up + lo) / 14.0);
			cr_expect(abs(c->shade - want) <= 1, "shade %d want %d",
			          c->shade, want);
		}
	pe_canvas_free(&cv);
}

Test(draw, heatmap_masked_and_undefined_cells)
{
	struct pe_canvas cv;
	struct pe_scale sc = {PE_CMAP_DIVERGING, -1.0, 1.0, false};
	/* Samples 2 rows x 3 cols: masked pair, undefined pair, mixed. */
	struct pe_stats s[6] = {special(4, 0), special(0, 4), special(4, 0),
	                        special(3, 0), special(0, 3), val(1.0)};

	cr_assert_eq(pe_canvas_init(&cv, 3, 1), 0);
	pe_draw_heatmap(&cv, 0, 0, 3, 1, s, &sc);
	struct pe_cell *m = pe_canvas_at(&cv, 0, 0);
	cr_expect_eq(m->cp, 0x2571);
	cr_expect_eq(m->bg, PE_COLOR_MASKED);
	cr_expect_eq(m->kind, PE_CELL_MASKED);
	cr_expect_neq(m->fg, PE_COLOR_MASKED);
	struct pe_cell *u = pe_canvas_at(&cv, 1, 0);
	cr_expect_eq(u->cp, 0xb7);
	cr_expect_eq(u->bg, PE_COLOR_UNDEF);
	cr_expect_eq(u->kind, PE_CELL_UNDEFINED);
	struct pe_cell *x = pe_canvas_at(&cv, 2, 0);
	cr_expect_eq(x->cp, 0x2580);
	cr_expect_eq(x->kind, PE_CELL_SHADE);
	cr_expect_eq(x->fg, PE_COLOR_MASKED);
	cr_expect_eq(x->bg, 0x67001f); /* RdBu_r at 1 (ColorBrewer) */
	cr_expect_eq(x->shade, 255);   /* the one value sample's level */
	pe_canvas_free(&cv);
}

/* Braille dots (Unicode: dot n is bit n - 1; dots 1,2,3,7 left column top
 * to bottom, 4,5,6,8 right column). */
Test(draw, braille_dot_bits)
{
	struct pe_canvas cv;
	const int px[8] = {0, 0, 0, 0, 1, 1, 1, 1};
	const int py[8] = {0, 1, 2, 3, 0, 1, 2, 3};
	const uint32_t bit[8] = {0x01, 0x02, 0x04, 0x40,
	                         0x08, 0x10, 0x20, 0x80};

	cr_assert_eq(pe_canvas_init(&cv, 1, 1), 0);
	for (int i = 0; i < 8; i++) {
		pe_canvas_clear(&cv);
		pe_draw_dot(&cv, 0, 0, 1, 1, px[i], py[i], 0xffffff);
		cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, 0x2800 + bit[i],
		             "dot (%d,%d)", px[i], py[i]);
	}
	/* Dots accumulate: all eight make U+28FF. */
	for (int i = 0; i < 8; i++)
		pe_draw_dot(&cv, 0, 0, 1, 1, px[i], py[i], 0xffffff);
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, 0x28ff);
	/* Outside the box: dropped. */
	pe_canvas_clear(&cv);
	pe_draw_dot(&cv, 0, 0, 1, 1, 2, 0, 0xffffff);
	pe_draw_dot(&cv, 0, 0, 1, 1, 0, 4, 0xffffff);
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, ' ');
	pe_canvas_free(&cv);
}

Test(draw, plot_horizontal_lines)
{
	struct pe_canvas cv;
	const double top[3] = {1.0, 1.0, 1.0}, bottom[2] = {-1.0, -1.0};

	cr_assert_eq(pe_canvas_init(&cv, 2, 1), 0);
	/* y = yhi: the top dot row of both cells, dots 1 and 4. */
	pe_draw_plot(&cv, 0, 0, 2, 1, top, 3, -1.0, 1.0, 0xffffff);
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, 0x2809);
	cr_expect_eq(pe_canvas_at(&cv, 1, 0)->cp, 0x2809);
	/* y = ylo: the bottom row, dots 7 and 8. */
	pe_canvas_clear(&cv);
	pe_draw_plot(&cv, 0, 0, 2, 1, bottom, 2, -1.0, 1.0, 0xffffff);
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, 0x28c0);
	cr_expect_eq(pe_canvas_at(&cv, 1, 0)->cp, 0x28c0);
	pe_canvas_free(&cv);
}

Test(draw, plot_gap_and_vertical)
{
	struct pe_canvas cv;
	const double gap[3] = {1.0, NAN, 1.0};
	const double up[2] = {0.0, 1.0};

	cr_assert_eq(pe_canvas_init(&cv, 2, 2), 0);
	/* Samples at dot columns 0, (1.5 -> 2), 3: NAN leaves 0 and 3 alone. */
	pe_draw_plot(&cv, 0, 0, 2, 2, gap, 3, 0.0, 1.0, 0xffffff);
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, 0x2801);
	cr_expect_eq(pe_canvas_at(&cv, 1, 0)->cp, 0x2808);
	cr_expect_eq(pe_canvas_at(&cv, 0, 1)->cp, ' ');
	/* A rising segment is connected: every dot row is hit once. */
	pe_canvas_clear(&cv);
	pe_draw_plot(&cv, 0, 0, 1, 2, up, 2, 0.0, 1.0, 0xffffff);
	int rows_hit = 0;
	for (int cy = 0; cy < 2; cy++) {
		uint32_t b = pe_canvas_at(&cv, 0, cy)->cp - 0x2800;
		for (int r = 0; r < 4; r++) {
			uint32_t lr = r == 3 ? 0xc0 : (0x09u << r);
			rows_hit += (b & lr) != 0;
		}
	}
	cr_expect_eq(rows_hit, 8);
	/* Bottom-left and top-right dots are the ends. */
	cr_expect(((pe_canvas_at(&cv, 0, 1)->cp - 0x2800) & 0x40) != 0);
	cr_expect(((pe_canvas_at(&cv, 0, 0)->cp - 0x2800) & 0x08) != 0);
	pe_canvas_free(&cv);
}

Test(draw, wheel_hands)
{
	struct pe_canvas cv;
	const double ang[2] = {0.0, M_PI / 2};
	const pe_color col[2] = {0xff0000, 0x00ff00};

	/* 10 x 5 cells = 20 x 20 dots, centre (9.5, 9.5). */
	cr_assert_eq(pe_canvas_init(&cv, 10, 5), 0);
	pe_draw_wheel(&cv, 0, 0, 10, 5, ang, 2, col);
	/* Angle 0 points right (3 o'clock), pi/2 up (y up). */
	cr_expect_eq(pe_canvas_at(&cv, 7, 2)->fg, 0xff0000);
	cr_expect_eq(pe_canvas_at(&cv, 8, 2)->fg, 0xff0000);
	cr_expect_eq(pe_canvas_at(&cv, 5, 1)->fg, 0x00ff00);
	cr_expect_eq(pe_canvas_at(&cv, 5, 0)->fg, 0x00ff00);
	/* Nothing to the left or below. */
	for (int x = 1; x < 4; x++)
		cr_expect_neq(pe_canvas_at(&cv, x, 2)->fg, 0xff0000);
	cr_expect_neq(pe_canvas_at(&cv, 5, 4)->fg, 0x00ff00);
	/* The rim: a dot on each side of the circle. */
	cr_expect_neq(pe_canvas_at(&cv, 0, 2)->cp, ' ');
	cr_expect_neq(pe_canvas_at(&cv, 9, 2)->cp, ' ');
	cr_expect_neq(pe_canvas_at(&cv, 4, 4)->cp, ' ');
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, ' '); /* corner */
	pe_canvas_free(&cv);
}

/* Whether two canvases show the same glyphs and colors. */
static bool
same_cells(const struct pe_canvas *a, const struct pe_canvas *b)
{
	for (int i = 0; i < a->w * a->h; i++)
		if (a->cells[i].cp != b->cells[i].cp ||
		    a->cells[i].fg != b->cells[i].fg)
			return false;
	return true;
}

/* Whether a w x h wheel with one hand at q quarter turns draws as its rim
 * with the segment from the centre (cx, cy) = ((2w - 1) / 2, (4h - 1) / 2)
 * to the exact tip, r = (min side - 1) / 2 along an axis, halves rounded
 * up (away from zero). */
static bool
wheel_quarter_ok(struct pe_canvas *got, struct pe_canvas *want, int w, int h,
    int q)
{
	static const int dir[4][2] = {{1, 0}, {0, -1}, {-1, 0}, {0, 1}};
	const pe_color col = 0x00ff00;
	int cols = 2 * w, rows = 4 * h;
	double cx = (cols - 1) / 2.0, cy = (rows - 1) / 2.0;
	double r = (cols < rows ? cols - 1 : rows - 1) / 2.0;
	double a = q * M_PI / 2;

	pe_canvas_clear(got);
	pe_canvas_clear(want);
	pe_draw_wheel(got, 0, 0, w, h, &a, 1, &col);
	pe_draw_wheel(want, 0, 0, w, h, NULL, 0, NULL);
	pe_draw_segment(want, 0, 0, w, h, (int)floor(cx + 0.5),
	    (int)floor(cy + 0.5), (int)floor(cx + r * dir[q][0] + 0.5),
	    (int)floor(cy + r * dir[q][1] + 0.5), col);
	return same_cells(got, want);
}

/* A hand at a quarter turn ends where exact arithmetic puts it, so the 3
 * and 9 o'clock hands lie on one dot row and 12 and 6 o'clock on one
 * column, however float rounds cos and sin there (cos pi/2 is 6e-17 in
 * double, sin pi 1.2e-16, float's cosf(pi/2) -4.4e-8), in every box up to
 * 60 x 30 cells. */
Test(draw, wheel_quarter_turns_are_exact)
{
	struct pe_canvas got, want;
	int bad = 0;

	cr_assert_eq(pe_canvas_init(&got, 60, 30), 0);
	cr_assert_eq(pe_canvas_init(&want, 60, 30), 0);
	for (int w = 1; w <= 60; w++)
		for (int h = 1; h <= 30; h++)
			for (int q = 0; q < 4; q++)
				if (!wheel_quarter_ok(&got, &want, w, h, q) &&
				    bad++ < 5)
					cr_expect(false, "%d x %d cells, %d "
					    "pi/2", w, h, q);
	cr_expect_eq(bad, 0, "%d wheels with a quarter-turn hand off", bad);
	pe_canvas_free(&got);
	pe_canvas_free(&want);
}

/* A hand's direction keeps the angle's double precision: m theta for RoPE's
 * first pairs (theta_j = 10000^(-2j/64)) at m near 10^6 draws as its
 * remainder mod 2 pi does (a float angle of 10^6 rad is off by up to 0.03
 * rad, 1.8 dots at the rim of a wheel 120 dots across). */
Test(draw, wheel_hands_keep_large_angles)
{
	struct pe_canvas big, red;
	int bad = 0;

	cr_assert_eq(pe_canvas_init(&big, 60, 30), 0);
	cr_assert_eq(pe_canvas_init(&red, 60, 30), 0);
	for (int j = 0; j < 4; j++)
		for (int k = 0; k < 50; k++) {
			double m = 1e6 - 1237.0 * k;
			double a = m * pow(10000.0, -2.0 * j / 64.0);
			double b = fmod(a, 2 * M_PI);

			pe_canvas_clear(&big);
			pe_canvas_clear(&red);
			pe_draw_wheel(&big, 0, 0, 60, 30, &a, 1, NULL);
			pe_draw_wheel(&red, 0, 0, 60, 30, &b, 1, NULL);
			bad += !same_cells(&big, &red);
		}
	cr_expect_eq(bad, 0, "%d hands moved by their angle's size", bad);
	pe_canvas_free(&big);
	pe_canvas_free(&red);
}

/* Whether the samples i = parity, parity + 2, ... of a plot of n samples
 * in a w x 1 box (each alone between gaps: one dot) sit, on its top dot
 * row, at dot column i (cols - 1) / (n - 1) rounded half up in exact
 * integer arithmetic: (2 i (cols - 1) + n - 1) div 2 (n - 1). */
static bool
plot_columns_ok(struct pe_canvas *cv, double *ys, int w, int n, int parity)
{
	bool want[400] = {false}, have[400] = {false};
	long cols = 2 * w;

	for (int i = 0; i < n; i++) {
		ys[i] = i % 2 == parity ? 1.0 : NAN;
		if (i % 2 == parity)
			want[(2 * i * (cols - 1) + n - 1) / (2 * (n - 1))] =
			    true;
	}
	pe_canvas_clear(cv);
	pe_draw_plot(cv, 0, 0, w, 1, ys, (size_t)n, 0.0, 1.0, 0xffffff);
	for (int c = 0; c < cols; c++) {
		uint32_t cp = cv->cells[c / 2].cp, bit = c % 2 ? 0x08 : 0x01;

		have[c] = cp >= 0x2800 && cp <= 0x28ff &&
		    ((cp - 0x2800) & bit) != 0;
	}
	return memcmp(want, have, sizeof want) == 0;
}

/* Every sample of a plot sits at its exact column, for every n <= cols
 * and every box up to 200 cells (the middle sample of an odd n is a tie:
 * float must not move it). */
Test(draw, plot_columns_are_exact)
{
	struct pe_canvas cv;
	double *ys = malloc(400 * sizeof *ys);
	int bad = 0;

	cr_assert_not_null(ys);
	cr_assert_eq(pe_canvas_init(&cv, 200, 1), 0);
	for (int w = 1; w <= 200; w++)
		for (int n = 2; n <= 2 * w; n++)
			for (int parity = 0; parity < 2; parity++)
				if (!plot_columns_ok(&cv, ys, w, n, parity) &&
				    bad++ < 5)
					cr_expect(false, "%d dots, n %d", 2 * w,
					    n);
	cr_expect_eq(bad, 0, "%d plots with a sample off its column", bad);
	pe_canvas_free(&cv);
	free(ys);
}

Test(draw, fmt_num_fits)
{
	char buf[64];
	const double v[] = {
	    0.0,  -0.0,    1.0,     -1.0,   0.123456789, 12345.0,  -98765.4321,
	    1e-5, 3.3e-12, 6.02e23, -1e100, 1.5,         1000000.0};

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		for (int w = 1; w <= 12; w++) {
			pe_fmt_num(buf, sizeof buf, w, v[i]);
			cr_expect_leq(strlen(buf), (size_t)w, "%g in %d: %s",
			              v[i], w, buf);
			cr_expect_gt(strlen(buf), 0);
			/* Whatever is printed is the number (or #...#). */
			if (buf[0] != '#') {
				double back = strtod(buf, NULL);
				cr_expect(fabs(back - v[i]) <=
				              0.5 * fabs(v[i]) + 1e-300,
				          "%g -> %s", v[i], buf);
			}
		}
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 6, 0.123456789), "0.1235");
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 5, 12345.0), "12345");
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 4, 12345.0), "1e4");
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 4, 1e-5), "1e-5");
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 8, -0.0), "0");
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 8, -INFINITY), "-inf");
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 8, NAN), "nan");
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 3, -1e100), "###");
	cr_expect_str_eq(pe_fmt_num(buf, 4, 8, 12345.0), "1e4"); /* cap */
	cr_expect_str_eq(pe_fmt_num(buf, sizeof buf, 6, 0.00012), "1.2e-4");
}

/* Element shown by sample s of ns tiling [lo, hi) (pe_field_span's lower
 * bound: with more samples than elements, each element repeats). */
static size_t
sample_elem(size_t lo, size_t hi, size_t ns, size_t s)
{
	return lo + (size_t)((unsigned __int128)s * (hi - lo) / ns);
}

/* Whether cell k (samples k per, ..., k per + per - 1 of ns) shows v. */
static bool
cell_holds(size_t lo, size_t hi, size_t ns, int per, int k, size_t v)
{
	size_t s0 = (size_t)k * (size_t)per, s1 = s0 + (size_t)per;

	if (s1 > ns)
		s1 = ns;
	/* the last sample's block: at least its own element */
	size_t a = sample_elem(lo, hi, ns, s0);
	size_t b = s1 < ns ? sample_elem(lo, hi, ns, s1) : hi;
	if (b < sample_elem(lo, hi, ns, s1 - 1) + 1)
		b = sample_elem(lo, hi, ns, s1 - 1) + 1;
	return a <= v && v < b;
}

/* Whether d is 1, 2 or 5 times a power of ten. */
static bool
is_125(size_t d)
{
	while (d >= 10 && d % 10 == 0)
		d /= 10;
	return d == 1 || d == 2 || d == 5;
}

/* Labels of an axis: the first is lo, the others the consecutive multiples
 * of one 1-2-5 step (none skipped), each in a cell that shows it, at least
 * gap cells after the one before. */
static void
check_ticks(const char *what, size_t lo, size_t hi, size_t ns, int per,
            const size_t *v, const int *cell, int n, int gap)
{
	cr_assert_geq(n, 1, "%s: no labels", what);
	cr_expect_eq(v[0], lo, "%s: first label %zu, not %zu", what, v[0], lo);
	cr_expect_eq(cell[0], 0, "%s: %zu not in the first cell", what, lo);
	size_t step = n >= 3 ? v[2] - v[1] : 0;
	for (int i = 0; i < n; i++) {
		cr_expect(cell_holds(lo, hi, ns, per, cell[i], v[i]),
		          "%s: label %zu in cell %d, which does not show it",
		          what, v[i], cell[i]);
		if (i == 0)
			continue;
		cr_expect_geq(cell[i] - cell[i - 1], gap,
		              "%s: labels %zu and %zu %d cells apart", what,
		              v[i - 1], v[i], cell[i] - cell[i - 1]);
		if (i >= 2)
			cr_expect_eq(v[i] - v[i - 1], step,
			             "%s: labels %zu, %zu skip values (step %zu)",
			             what, v[i - 1], v[i], step);
	}
	if (n >= 3) {
		cr_expect(is_125(step), "%s: step %zu is not 1-2-5", what, step);
		cr_expect_eq(v[1] % step, 0, "%s: %zu is not a multiple of %zu",
		             what, v[1], step);
		/* no multiple is left out after lo: 0 20 40, not 0 40 60;
		 * 34 50 100, or 34 100 200, not 34 100 150 */
		cr_expect_eq(v[1], (lo / step + 1) * step, "%s: %zu, then %zu",
		             what, lo, v[1]);
	}
}

/* The issue's cases: vit2d rows (0 1 3 4 6 7 9...), llama rows (33825
 * 67650 101475), 64 rows magnified by a fraction, a zoomed viewport. */
static const struct {
	size_t lo, hi;
	int h;
	size_t ns;
} vcases[] = {
    {0, 14, 14, 28},      {0, 131072, 31, 62}, {0, 64, 31, 62},
    {0, 64, 51, 102},     {0, 16, 51, 101},    {37, 53, 20, 40},
    {100, 1000000, 20, 40}, {0, 7, 20, 40},    {5, 64, 20, 40},
    {0, 1000, 20, 39},    {0, 64, 9, 17},      {34, 284, 31, 62},
};

Test(draw, vaxis_labels_are_round_and_on_their_rows)
{
	for (size_t ci = 0; ci < sizeof vcases / sizeof vcases[0]; ci++) {
		struct pe_canvas cv;
		char line[16], what[64];
		int h = vcases[ci].h, w = 7, n = 0, cell[64];
		size_t v[64];

		snprintf(what, sizeof what, "rows %zu..%zu in %d cells",
		         vcases[ci].lo, vcases[ci].hi, h);
		cr_assert_eq(pe_canvas_init(&cv, w, h), 0);
		pe_draw_vaxis(&cv, 0, 0, w, h, vcases[ci].lo, vcases[ci].hi,
		              vcases[ci].ns, 0xffffff);
		for (int y = 0; y < h; y++) {
			row_text(&cv, y, line);
			char *p = line + strspn(line, " ");
			if (*p == '\0')
				continue;
			/* right-aligned, digits only */
			cr_expect_neq(line[w - 1], ' ', "%s row %d: '%s'", what,
			              y, line);
			cr_expect_eq(strspn(p, "0123456789"), strlen(p),
			             "%s row %d: '%s'", what, y, line);
			v[n] = strtoull(p, NULL, 10);
			cell[n++] = y;
		}
		check_ticks(what, vcases[ci].lo, vcases[ci].hi, vcases[ci].ns,
		            2, v, cell, n, 3);
		if (vcases[ci].hi - vcases[ci].lo >= 4)
			cr_expect_geq(n, 2, "%s: %d labels", what, n);
		pe_canvas_free(&cv);
	}
}

Test(draw, axis_ticks_of_a_line)
{
	/* rope's 32 pairs in 70 columns (2 5 7 10 12... before), 512 in
	 * 40, a zoomed viewport, more columns than elements */
	const struct {
		size_t lo, hi, ns;
		int gap;
	} cases[] = {{0, 32, 70, 4}, {0, 512, 40, 5}, {1000, 1000000, 40, 9},
	             {0, 10, 40, 4}, {0, 64, 43, 4}, {3, 9, 60, 3}};

	for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
		struct pe_tick t[64];
		size_t v[64];
		int cell[64], cells = (int)cases[ci].ns;
		char what[64];
		size_t n = pe_axis_ticks(cases[ci].lo, cases[ci].hi,
		                         cases[ci].ns, 1, cases[ci].gap, t, 64);

		snprintf(what, sizeof what, "cols %zu..%zu in %d cells",
		         cases[ci].lo, cases[ci].hi, cells);
		for (size_t i = 0; i < n; i++) {
			v[i] = t[i].v;
			cell[i] = t[i].cell;
			cr_expect_lt(t[i].cell, cells, "%s", what);
		}
		check_ticks(what, cases[ci].lo, cases[ci].hi, cases[ci].ns, 1,
		            v, cell, (int)n, cases[ci].gap);
		cr_expect_geq(n, 2, "%s: %zu ticks", what, n);
	}
}

Test(draw, haxis_labels)
{
	const size_t cases[][2] = {{0, 512}, {0, 10}, {1000, 1000000}};

	for (size_t ci = 0; ci < 3; ci++) {
		struct pe_canvas cv;
		char line[64];
		int w = 40, nlab = 0;

		cr_assert_eq(pe_canvas_init(&cv, w, 2), 0);
		pe_draw_haxis(&cv, 0, 0, w, cases[ci][0], cases[ci][1],
		              0xffffff);
		row_text(&cv, 1, line);
		for (int x = 0; x < w;) {
			if (line[x] == ' ') {
				x++;
				continue;
			}
			int end = x;
			while (end < w && line[end] != ' ')
				end++;
			/* Separated by blanks (a token is one label), and
			 * a tick in its span marks the cell holding it. */
			unsigned long long v = strtoull(line + x, NULL, 10);
			bool found = false;
			for (int k = x; k < end; k++)
				if (pe_canvas_at(&cv, k, 0)->cp == 0x252c &&
				    cell_holds(cases[ci][0], cases[ci][1],
				               (size_t)w, 1, k, v))
					found = true;
			cr_expect(found, "label '%.*s' at %d has no tick",
			          end - x, line + x, x);
			nlab++;
			x = end;
		}
		cr_expect_geq(nlab, 2, "labels: '%s'", line);
		cr_expect_eq(strtoull(line, NULL, 10), cases[ci][0]);
		pe_canvas_free(&cv);
	}
}

Test(draw, colorbar_legend)
{
	struct pe_canvas cv;
	struct pe_scale sc = {PE_CMAP_DIVERGING, -1.0, 1.0, false};
	char line[64];

	cr_assert_eq(pe_canvas_init(&cv, 30, 2), 0);
	pe_draw_colorbar(&cv, 0, 0, 30, &sc, "%.3g", 0xffffff);
	row_text(&cv, 1, line);
	char *a = strtok(line, " "), *b = strtok(NULL, " "),
	     *c = strtok(NULL, " ");
	cr_assert(a && b && c && strtok(NULL, " ") == NULL);
	cr_expect_str_eq(a, "-1");
	cr_expect_str_eq(b, "0");
	cr_expect_str_eq(c, "1");
	/* The bar: blue end on the left, light middle, red end right. */
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->kind, PE_CELL_SHADE);
	cr_expect_lt(pe_canvas_at(&cv, 0, 0)->shade, 10);
	cr_expect_gt(pe_canvas_at(&cv, 29, 0)->shade, 245);
	pe_color l = pe_canvas_at(&cv, 0, 0)->fg,
	         r = pe_canvas_at(&cv, 29, 0)->fg;
	cr_expect_gt(l & 0xff, (l >> 16) & 0xff);
	cr_expect_gt((r >> 16) & 0xff, r & 0xff);
	pe_canvas_free(&cv);

	/* Narrow: numbers shrink to fit and never touch. */
	struct pe_scale wide = {PE_CMAP_SEQUENTIAL, -0.000123456, 123456.789,
	                        false};
	cr_assert_eq(pe_canvas_init(&cv, 14, 2), 0);
	pe_draw_colorbar(&cv, 0, 0, 14, &wide, "%.6g", 0xffffff);
	row_text(&cv, 1, line);
	int n = 0;
	for (char *t = strtok(line, " "); t != NULL; t = strtok(NULL, " ")) {
		cr_expect_leq(strlen(t), 4, "'%s'", t);
		n++;
	}
	cr_expect_eq(n, 3);
	pe_canvas_free(&cv);
}

/* Text in a width: whole, or whole words and " …", never a cut word. */
Test(draw, text_fit_whole_or_elided)
{
	char buf[128];

	cr_expect_eq(pe_text_fit(buf, sizeof buf, "θ=2.87 rad", 10), 10);
	cr_expect_str_eq(buf, "θ=2.87 rad");
	/* a number is never cut: "θ=2" for 2.87 was the bug */
	cr_expect_eq(pe_text_fit(buf, sizeof buf, "ω=0.562 θ=2.87", 12), 9);
	cr_expect_str_eq(buf, "ω=0.562 …");
	cr_expect_eq(pe_text_fit(buf, sizeof buf, "θ=2.87", 5), 0);
	cr_expect_str_eq(buf, "");
	/* trailing punctuation-only words go with the cut */
	pe_text_fit(buf, sizeof buf, "inv_freq = 10000^(−0/64) = 1", 20);
	cr_expect_str_eq(buf, "inv_freq …");
	pe_text_fit(buf, sizeof buf, "a · b · c · d", 8);
	cr_expect_str_eq(buf, "a · b …");
	/* an indent is kept; widths count code points */
	pe_text_fit(buf, sizeof buf, " sample = block pos 0–1 × dim 0–0", 22);
	cr_expect_str_eq(buf, " sample = block pos …");
	/* no bracket left open, items (two spaces, ';', ',') kept whole */
	pe_text_fit(buf, sizeof buf, "similarity PE·PEᵀ (query ↓, key →)", 30);
	cr_expect_str_eq(buf, "similarity PE·PEᵀ …");
	pe_text_fit(buf, sizeof buf, "mean 0.42  min 0  max 0.84", 24);
	cr_expect_str_eq(buf, "mean 0.42  min 0 …");
	pe_text_fit(buf, sizeof buf, "a = 0 rad (mod 2π: 0); inv_freq = 1", 30);
	cr_expect_str_eq(buf, "a = 0 rad (mod 2π: 0) …");
	/* "·" is a product in a formula, not a separator */
	pe_text_fit(buf, sizeof buf, "θ = 36 · 0.7498 = 25.49 rad; inv = 1", 30);
	cr_expect_str_eq(buf, "θ = 36 · 0.7498 = 25.49 rad …");
	pe_text_fit(buf, sizeof buf, "all heads: slope, one shared scale", 24);
	cr_expect_str_eq(buf, "all heads: slope …");
	cr_expect_eq(pe_text_fit(buf, sizeof buf, "", 5), 0);
	cr_expect_eq(pe_text_fit(buf, sizeof buf, "abc", 0), 0);
	/* pe_canvas_text_fit clips to the canvas too */
	struct pe_canvas cv;
	cr_assert_eq(pe_canvas_init(&cv, 12, 1), 0);
	cr_expect_eq(pe_canvas_text_fit(&cv, 4, 0, 40, "one two three", 0, 0,
	                                0), 5);
	row_text(&cv, 0, buf);
	cr_expect_str_eq(buf, "    one ~   "); /* not "one two " */
	pe_canvas_free(&cv);
}

/* Items by priority: the largest prio drops first (the later of equals),
 * the rest keep their order. */
Test(draw, text_pick_drops_whole_items)
{
	const char *it[] = {"? help", "q quit", "d/D d_model", "n/N seq_len",
	                    "space play"};
	const int pr[] = {0, 0, 1, 1, 2};
	char buf[256];

	cr_expect_eq(pe_text_pick(buf, sizeof buf, it, pr, 5, "  ", 200), 52);
	cr_expect_str_eq(buf,
	                 "? help  q quit  d/D d_model  n/N seq_len  space play");
	pe_text_pick(buf, sizeof buf, it, pr, 5, "  ", 51);
	cr_expect_str_eq(buf, "? help  q quit  d/D d_model  n/N seq_len");
	pe_text_pick(buf, sizeof buf, it, pr, 5, "  ", 39);
	cr_expect_str_eq(buf, "? help  q quit  d/D d_model");
	pe_text_pick(buf, sizeof buf, it, pr, 5, "  ", 14);
	cr_expect_str_eq(buf, "? help  q quit");
	pe_text_pick(buf, sizeof buf, it, pr, 5, "  ", 7);
	cr_expect_str_eq(buf, "? help");
	pe_text_pick(buf, sizeof buf, it, pr, 5, "  ", 5);
	cr_expect_str_eq(buf, ""); /* "?" alone says nothing */
}

/* A large canvas draws dots as quadrant blocks: dot (px, py) is the
 * quadrant (px mod 2, (py mod 4) / 2) of cell (px / 2, py / 4), and the
 * quadrants of a cell add up (Unicode's Block Elements). */
Test(draw, large_canvas_dots_are_quadrant_blocks)
{
	struct pe_canvas cv;
	cr_assert_eq(pe_canvas_init(&cv, 4, 2), PE_OK);
	cr_assert(!cv.large);
	cv.large = true;
	pe_draw_dot(&cv, 0, 0, 4, 2, 0, 0, PE_RGB(1, 2, 3)); /* upper left */
	cr_assert_eq(cv.cells[0].cp, 0x2598u); /* ▘ */
	cr_assert_eq(cv.cells[0].fg, PE_RGB(1, 2, 3));
	pe_draw_dot(&cv, 0, 0, 4, 2, 0, 1, PE_RGB(1, 2, 3)); /* same quadrant */
	cr_assert_eq(cv.cells[0].cp, 0x2598u);
	pe_draw_dot(&cv, 0, 0, 4, 2, 1, 0, PE_RGB(1, 2, 3)); /* upper right */
	cr_assert_eq(cv.cells[0].cp, 0x2580u); /* ▀ */
	pe_draw_dot(&cv, 0, 0, 4, 2, 0, 2, PE_RGB(1, 2, 3)); /* lower left */
	cr_assert_eq(cv.cells[0].cp, 0x259bu); /* ▛ */
	pe_draw_dot(&cv, 0, 0, 4, 2, 1, 3, PE_RGB(1, 2, 3)); /* lower right */
	cr_assert_eq(cv.cells[0].cp, 0x2588u); /* █ */
	pe_draw_dot(&cv, 0, 0, 4, 2, 7, 7, PE_RGB(1, 2, 3)); /* cell (3, 1) */
	cr_assert_eq(cv.cells[1 * 4 + 3].cp, 0x2597u); /* ▗ */
	pe_draw_dot(&cv, 0, 0, 4, 2, 8, 0, PE_RGB(1, 2, 3)); /* outside */
	/* a line of a plot is blocks, never braille */
	double ys[] = {0, 1, 0, 1};
	pe_canvas_clear(&cv);
	pe_draw_plot(&cv, 0, 0, 4, 2, ys, 4, 0, 1, PE_RGB(9, 9, 9));
	int blocks = 0;
	for (int i = 0; i < 8; i++) {
		cr_assert(cv.cells[i].cp < 0x2800 || cv.cells[i].cp > 0x28ff);
		blocks += cv.cells[i].cp >= 0x2580 && cv.cells[i].cp <= 0x259f;
	}
	cr_assert_geq(blocks, 4);
	pe_canvas_free(&cv);
}
