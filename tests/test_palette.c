/* Palette: xterm-256 / 16-color quantisation, the mono ramp, colormaps. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "render/draw.h"
#include "render/palette.h"

struct pair {
	pe_color c;
	int idx;
};

/* Expected indices from tests/ref/render_ref.py (brute-force search over
 * xterm's palette rebuilt from 256colres.pl; independent of palette.c). */
static const struct pair ref256[] = {
    {0x5f87af, 67}, {0x080808, 232}, {0xffffff, 231}, {0x808080, 244},
    {0x000000, 16}, {0x123456, 23},  {0xfa8072, 209}, {0x3a3a3c, 237},
    {0x6c006c, 53}, {0x262626, 235}, {0xc0ffee, 159},
};
static const struct pair ref16[] = {
    {0x000000, 0}, {0xffffff, 15}, {0xc80000, 1}, {0x808080, 8},
    {0x101090, 4}, {0x6060f0, 12}, {0xe0e0e0, 7}, {0x00c0c0, 6},
};

Test(palette, nearest_256)
{
	for (size_t i = 0; i < sizeof ref256 / sizeof ref256[0]; i++)
		cr_expect_eq(pe_palette_256(ref256[i].c), ref256[i].idx,
		             "0x%06x -> %d, want %d", ref256[i].c,
		             pe_palette_256(ref256[i].c), ref256[i].idx);
}

Test(palette, every_entry_maps_to_itself)
{
	/* 16..255 are distinct colors, so each is its own nearest entry. */
	for (int i = 16; i < 256; i++)
		cr_expect_eq(pe_palette_256(pe_palette_rgb(i)), i, "index %d",
		             i);
	for (int i = 0; i < 16; i++)
		cr_expect_eq(pe_palette_16(pe_palette_rgb(i)), i, "index %d",
		             i);
}

Test(palette, rgb_of_index)
{
	/* xterm: cube 16 + 36r + 6g + b, levels 0,95,135,175,215,255. */
	cr_expect_eq(pe_palette_rgb(16), 0x000000);
	cr_expect_eq(pe_palette_rgb(67), 0x5f87af);
	cr_expect_eq(pe_palette_rgb(231), 0xffffff);
	cr_expect_eq(pe_palette_rgb(232), 0x080808);
	cr_expect_eq(pe_palette_rgb(255), 0xeeeeee);
	cr_expect_eq(pe_palette_rgb(1), 0xcd0000);
	cr_expect_eq(pe_palette_rgb(12), 0x5c5cff);
}

Test(palette, nearest_16)
{
	for (size_t i = 0; i < sizeof ref16 / sizeof ref16[0]; i++)
		cr_expect_eq(pe_palette_16(ref16[i].c), ref16[i].idx,
		             "0x%06x -> %d, want %d", ref16[i].c,
		             pe_palette_16(ref16[i].c), ref16[i].idx);
}

Test(palette, ramp)
{
	const char *ramp = " .:-=+*#%@";

	cr_expect_eq(pe_palette_ramp(0), ' ');
	cr_expect_eq(pe_palette_ramp(255), '@');
	/* Ten equal bins: level 128 is in the sixth (index 5). */
	cr_expect_eq(pe_palette_ramp(128), (uint32_t)ramp[5]);
	/* Monotone: never steps back down the ramp. */
	int prev = 0;
	for (int s = 0; s < 256; s++) {
		const char *p = strchr(ramp, (int)pe_palette_ramp((uint8_t)s));
		cr_assert_not_null(p);
		cr_expect_geq(p - ramp, prev);
		prev = (int)(p - ramp);
	}
}

Test(palette, depth_names)
{
	cr_expect_eq(pe_depth_parse("truecolor"), PE_DEPTH_TRUECOLOR);
	cr_expect_eq(pe_depth_parse("256"), PE_DEPTH_256);
	cr_expect_eq(pe_depth_parse("16"), PE_DEPTH_16);
	cr_expect_eq(pe_depth_parse("mono"), PE_DEPTH_MONO);
	cr_expect_eq(pe_depth_parse("8"), PE_DEPTH_8);
	cr_expect_eq(pe_depth_parse("88"), -1);
	cr_expect_eq(pe_depth_parse(""), -1);
	for (int d = 0; d <= PE_DEPTH_MONO; d++)
		cr_expect_eq(pe_depth_parse(pe_depth_name(d)), d);
}

/* Colormap ends and midpoints from tests/ref/render_ref.py, read from
 * matplotlib's tables (_cm_listed.py, _cm.py); the midpoint is halfway
 * between the two middle entries, as linear interpolation gives. */
Test(palette, colormap_reference_values)
{
	cr_expect_eq(pe_cmap_color(PE_CMAP_SEQUENTIAL, 0.0), 0x440154);
	cr_expect_eq(pe_cmap_color(PE_CMAP_SEQUENTIAL, 0.5), 0x21908c);
	cr_expect_eq(pe_cmap_color(PE_CMAP_SEQUENTIAL, 1.0), 0xfde725);
	cr_expect_eq(pe_cmap_color(PE_CMAP_CYCLIC, 0.0), 0xe2d9e2);
	cr_expect_eq(pe_cmap_color(PE_CMAP_CYCLIC, 0.5), 0x2f1437);
	cr_expect_eq(pe_cmap_color(PE_CMAP_CYCLIC, 1.0), 0xe2d9e2);
	/* ColorBrewer RdBu: #053061 .. #f7f7f7 .. #67001f (reversed). */
	cr_expect_eq(pe_cmap_color(PE_CMAP_DIVERGING, 0.0), 0x053061);
	cr_expect_eq(pe_cmap_color(PE_CMAP_DIVERGING, 0.5), 0xf7f7f7);
	cr_expect_eq(pe_cmap_color(PE_CMAP_DIVERGING, 1.0), 0x67001f);
}

Test(palette, colormap_clamps)
{
	for (int cm = 0; cm < PE_CMAP_COUNT; cm++) {
		cr_expect_eq(pe_cmap_color(cm, -3.0), pe_cmap_color(cm, 0.0));
		cr_expect_eq(pe_cmap_color(cm, 7.0), pe_cmap_color(cm, 1.0));
		cr_expect_str_neq(pe_cmap_name(cm), "?");
		cr_expect_gt(strlen(pe_cmap_source(cm)), 0);
	}
}

Test(palette, diverging_is_light_in_the_middle)
{
	/* Luminance peaks at the centre: every other sample is darker. */
	pe_color mid = pe_cmap_color(PE_CMAP_DIVERGING, 0.5);
	int lmid = ((mid >> 16) & 255) + ((mid >> 8) & 255) + (mid & 255);
	for (int i = 0; i <= 20; i++) {
		if (i == 10)
			continue;
		pe_color c = pe_cmap_color(PE_CMAP_DIVERGING, i / 20.0);
		int l = ((c >> 16) & 255) + ((c >> 8) & 255) + (c & 255);
		cr_expect_lt(l, lmid, "t=%g", i / 20.0);
	}
}

/* At 16 colors a heatmap keeps its order: a diverging ramp of samples
 * from -1 to 1 maps to blue, bright blue, white, bright red, red (xterm
 * indices 4 12 15 9 1), not to whatever ANSI color is nearest. */
Test(palette, sixteen_color_heatmaps_keep_their_order)
{
	struct pe_canvas cv;
	struct pe_stats s[10];
	memset(s, 0, sizeof s);
	for (int i = 0; i < 10; i++) {
		s[i].count = 1;
		s[i].resultant = 1;
		s[i].mean = -1.0 + 2.0 * (i / 2 + 0.5) / 5.0; /* 5 cells, 2 rows */
	}
	struct pe_stats grid[10]; /* [2 rows x 5 cols] */
	for (int c = 0; c < 5; c++)
		grid[c] = grid[5 + c] = s[2 * c];
	struct pe_scale sc = {PE_CMAP_DIVERGING, -1, 1, false};
	cr_assert_eq(pe_canvas_init(&cv, 5, 1), 0);
	pe_draw_heatmap(&cv, 0, 0, 5, 1, grid, &sc);
	const int want[5] = {4, 12, 15, 9, 1};
	for (int c = 0; c < 5; c++) {
		cr_expect_eq(pe_palette_16_cell(&cv.cells[c], true), want[c],
		    "cell %d fg", c);
		cr_expect_eq(pe_palette_16_cell(&cv.cells[c], false), want[c],
		    "cell %d bg", c);
	}
	/* text cells keep the nearest color and the default stays default */
	pe_canvas_set(&cv, 0, 0, 'x', PE_RGB(0xff, 0, 0), PE_COLOR_DEFAULT, 0);
	cr_expect_eq(pe_palette_16_cell(&cv.cells[0], true), 9);
	cr_expect_eq(pe_palette_16_cell(&cv.cells[0], false), -1);
	pe_canvas_free(&cv);
}

/* A cyclic half at 256 colors: the nearest entry with a hue (checked
 * against a search of every cube entry off the grey diagonal); at 16
 * colors the cyclic map keeps its nearest colors. */
Test(palette, cyclic_halves_keep_a_hue)
{
	uint64_t seed = 9;
	for (int n = 0; n < 4000; n++) {
		uint64_t r = seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		pe_color col = (pe_color)((r >> 33) & 0xffffff);
		if (n < 256)
			col = PE_RGB(n, n, n); /* greys: the hard case */
		struct pe_cell c;
		memset(&c, 0, sizeof c);
		c.fg = c.bg = col;
		pe_palette_mark(&c, 0, PE_CMAP_CYCLIC, true, 7);
		int got = pe_palette_256_cell(&c, true), best = -1, bd = 0;
		for (int i = 16; i < 232; i++) {
			int k = i - 16;
			if (k / 36 == (k / 6) % 6 && k / 36 == k % 6)
				continue;
			pe_color e = pe_palette_rgb(i);
			int d = 0;
			for (int sh = 0; sh <= 16; sh += 8) {
				int dv = ((col >> sh) & 255) - ((e >> sh) & 255);
				d += dv * dv;
			}
			if (best < 0 || d < bd)
				best = i, bd = d;
		}
		pe_color g = pe_palette_rgb(got);
		int dg = 0;
		for (int sh = 0; sh <= 16; sh += 8) {
			int dv = ((col >> sh) & 255) - ((g >> sh) & 255);
			dg += dv * dv;
		}
		int k = got - 16;
		cr_assert(got >= 16 && got < 232 &&
		    !(k / 36 == (k / 6) % 6 && k / 36 == k % 6),
		    "0x%06x -> %d", col, got);
		cr_assert_eq(dg, bd, "0x%06x -> %d, nearest hue %d", col, got, best);
		/* the unmarked half and 16 colors: nearest, as before */
		cr_assert_eq(pe_palette_256_cell(&c, false), pe_palette_256(col));
		cr_assert_eq(pe_palette_16_cell(&c, true), pe_palette_16(col));
	}
}

/* The look the writers and the TUI share: at 8 and 16 colors text on the
 * default background is never black or white, greys are dimmed text in
 * the terminal's own color, heatmap halves keep their ramp, and 8 colors
 * never name an index past 7. */
Test(palette, look_text_reads_on_any_screen)
{
	static const pe_color texts[] = {0x000000, 0x8a8a8a, 0xd0d0d0,
	    0xffffff, 0x5fafff, 0xff875f, 0x303030};
	for (int d = PE_DEPTH_16; d <= PE_DEPTH_8; d++)
		for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
			struct pe_cell c = {.cp = 'x', .fg = texts[i],
			    .bg = PE_COLOR_DEFAULT};
			struct pe_look lk = pe_palette_look(&c, (enum pe_depth)d,
			    PE_THEME_DARK);
			cr_expect(lk.fg != 0 && lk.fg != 7 && lk.fg != 15,
			    "depth %s: text #%06x became index %d",
			    pe_depth_name((enum pe_depth)d), texts[i], lk.fg);
			if (d == PE_DEPTH_8)
				cr_expect_lt(lk.fg, 8);
		}
	struct pe_cell grey = {.cp = '5', .fg = 0x8a8a8a, .bg = -1};
	struct pe_look lk = pe_palette_look(&grey, PE_DEPTH_8, PE_THEME_DARK);
	cr_expect_eq(lk.fg, PE_COLOR_DEFAULT, "grey ticks: the default color");
	cr_expect(lk.attr & PE_ATTR_DIM, "grey ticks: dimmed");
	/* On a colored background black text stays black. */
	struct pe_cell tab = {.cp = 'p', .fg = 0, .bg = 0x5fafff};
	cr_expect_eq(pe_palette_look(&tab, PE_DEPTH_8, PE_THEME_DARK).fg, 0);
	/* A diverging heatmap spans its 8-color ramp, in order. */
	int prev = -1, seen = 0;
	for (int lv = 0; lv < 256; lv += 5) {
		struct pe_cell h = {.cp = 0x2580, .fg = 0x123456, .bg = 0x123456,
		    .kind = PE_CELL_SHADE};
		pe_palette_mark(&h, 0, PE_CMAP_DIVERGING, false, (uint8_t)lv);
		int fg = pe_palette_look(&h, PE_DEPTH_8, PE_THEME_DARK).fg;
		cr_expect(fg >= 0 && fg < 8);
		if (fg != prev)
			seen++;
		prev = fg;
	}
	cr_expect_eq(seen, 5, "five steps blue to red, got %d", seen);
}

/* Grey text on a colored background (a color bar's label) keeps its
 * contrast with the color the background became at 8 and 16 colors:
 * black on cyan, green, yellow and white; white on blue, red, magenta
 * (black on magenta at 8 colors, whose white is grey). */
Test(palette, labels_on_colors_keep_contrast)
{
	static const struct {
		pe_color bg;
		bool black;
	} cases[] = {
		{0x00cdcd, true}, {0x00cd00, true}, {0xcdcd00, true},
		{0xe5e5e5, true}, {0x0000ee, false}, {0xcd0000, false},
		{0xcd00cd, false},
	};
	for (int d = PE_DEPTH_16; d <= PE_DEPTH_8; d++)
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			/* a label chosen white for a darker 24-bit shade */
			struct pe_cell c = {.cp = '1', .fg = 0xffffff,
			    .bg = cases[i].bg, .kind = PE_CELL_TEXT};
			struct pe_look lk = pe_palette_look(&c, (enum pe_depth)d,
			    PE_THEME_DARK);
			int white = d == PE_DEPTH_8 ? 7 : 15;
			/* at 8 colors white is xterm's #e5e5e5: on magenta
			 * #cd00cd it has 3.71:1, black 4.48:1 (WCAG 2.x) */
			bool black = cases[i].black ||
			    (d == PE_DEPTH_8 && cases[i].bg == 0xcd00cd);
			cr_expect_eq(lk.fg, black ? 0 : white,
			    "depth %d, bg 0x%06x (index %d): fg %d", d, cases[i].bg,
			    lk.bg, lk.fg);
		}
}

/* At 8 colors a cyclic block of many turns (a value half without a hue,
 * faded toward mid grey) is white (black on the light theme, whose page is
 * that white: a lecturer's report), which the cyclic ramp does not use, so
 * it never looks like an angle (the nearest of the eight to such greys is
 * often yellow, the ramp's 2π end: a lecturer's report); a valued half
 * keeps its ramp color. Drawn through pe_draw_heatmap, at 32 angles with
 * a resultant of 0.1 (many turns) and of 1. */
Test(palette, eight_colors_many_turns_is_not_an_angle)
{
	struct pe_canvas cv;
	struct pe_stats s[2];
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0, 2 * M_PI, true};
	int yellow = 0;
	cr_assert_eq(pe_canvas_init(&cv, 1, 1), PE_OK);
	for (int k = 0; k < 32; k++) {
		memset(s, 0, sizeof s);
		for (int i = 0; i < 2; i++) {
			s[i].count = 1;
			s[i].mean = s[i].min = s[i].max = 2 * M_PI * k / 32;
			s[i].resultant = i == 0 ? 0.1 : 1.0; /* upper: many turns */
		}
		pe_draw_heatmap(&cv, 0, 0, 1, 1, s, &sc);
		for (int theme = 0; theme < 2; theme++) {
			struct pe_look a = pe_palette_look(&cv.cells[0], PE_DEPTH_8,
			    (enum pe_theme)theme);
			/* the eight's grey apart from the page: white on a
			 * dark one, black on the light theme's white */
			int grey = theme == PE_THEME_LIGHT ? 0 : 7;
			cr_expect_eq(a.fg, grey, "angle %d/32, many turns: %d", k,
			    a.fg);
			cr_expect(a.bg >= 0 && a.bg != 7 && a.bg != 0,
			    "angle %d/32 keeps its ramp color: %d", k, a.bg);
			yellow += a.bg == 3;
		}
	}
	cr_expect_gt(yellow, 0, "the ramp's yellow is an angle's color");
	pe_canvas_free(&cv);
}

/* Masked samples on the light theme are light and quiet (a white slide):
 * a pale background (WCAG luminance above 0.6, where the dark theme's
 * #262626 is 0.019) under a hatch that still tells them from the page; a
 * masked half of a value cell too. The dark theme keeps its dark grey. */
Test(palette, light_masks_are_light)
{
	for (int d = PE_DEPTH_TRUECOLOR; d <= PE_DEPTH_8; d++) {
		struct pe_cell c;
		memset(&c, 0, sizeof c);
		c.cp = 0x2571;
		c.fg = PE_RGB(0x76, 0x76, 0x76);
		c.bg = PE_COLOR_MASKED;
		c.kind = PE_CELL_MASKED;
		struct pe_look lk = pe_palette_look(&c, (enum pe_depth)d,
		    PE_THEME_LIGHT);
		pe_color bg = pe_look_rgb(lk.bg, (enum pe_depth)d, PE_THEME_LIGHT,
		    false);
		pe_color fg = pe_look_rgb(lk.fg, (enum pe_depth)d, PE_THEME_LIGHT,
		    true);
		cr_expect_gt(pe_palette_luminance(bg), 0.6, "depth %d: masked "
		    "background %06x", d, bg);
		cr_expect_gt(pe_palette_contrast(fg, bg), 1.3, "depth %d: the "
		    "hatch %06x on %06x", d, fg, bg);
		/* half masked, half a value */
		c.cp = 0x2580;
		c.kind = PE_CELL_SHADE;
		c.fg = PE_RGB(0xfd, 0xe7, 0x25);
		lk = pe_palette_look(&c, (enum pe_depth)d, PE_THEME_LIGHT);
		bg = pe_look_rgb(lk.bg, (enum pe_depth)d, PE_THEME_LIGHT, false);
		cr_expect_gt(pe_palette_luminance(bg), 0.6, "depth %d: a masked "
		    "half %06x", d, bg);
		/* the dark theme: as it was */
		c.cp = 0x2571;
		c.kind = PE_CELL_MASKED;
		lk = pe_palette_look(&c, (enum pe_depth)d, PE_THEME_DARK);
		bg = pe_look_rgb(lk.bg, (enum pe_depth)d, PE_THEME_DARK, false);
		cr_expect_lt(pe_palette_luminance(bg), 0.05, "depth %d dark: %06x",
		    d, bg);
	}
}

/* The colormaps' tables, read here as colormap.c reads them. */
static const float ref_rdbu_r[][3] = {
#include "colormaps/rdbu_r.inc"
};
static const float ref_viridis[][3] = {
#include "colormaps/viridis.inc"
};
static const float ref_twilight[][3] = {
#include "colormaps/twilight.inc"
};

/* matplotlib's LinearSegmentedColormap rule for evenly spaced knots, each
 * channel rounded by lround and clamped: the colormap as first written,
 * before its rounding lost the call. */
static pe_color
ref_cmap(int cm, double t)
{
	const float(*tb)[3] = cm == PE_CMAP_DIVERGING ? ref_rdbu_r
	    : cm == PE_CMAP_CYCLIC ? ref_twilight : ref_viridis;
	size_t n = cm == PE_CMAP_DIVERGING ? sizeof ref_rdbu_r / sizeof *tb
	    : cm == PE_CMAP_CYCLIC ? sizeof ref_twilight / sizeof *tb
	    : sizeof ref_viridis / sizeof *tb;
	if (!(t > 0.0))
		t = 0.0;
	if (t > 1.0)
		t = 1.0;
	double pos = t * (double)(n - 1);
	size_t i = (size_t)pos;
	if (i >= n - 1)
		i = n - 2;
	double f = pos - (double)i;
	int out = 0;
	for (int ch = 0; ch < 3; ch++) {
		long b = lround((tb[i][ch] + f * (tb[i + 1][ch] - tb[i][ch])) *
		    255.0);
		out = out << 8 | (int)(b < 0 ? 0 : b > 255 ? 255 : b);
	}
	return out;
}

/* Every colormap, bit for bit the lround rule: 2^21 + 1 evenly spaced t
 * and each one's neighbours a double apart. */
Test(palette, colormap_rounds_as_lround)
{
	for (int cm = 0; cm < PE_CMAP_COUNT; cm++) {
		long bad = 0;
		for (long k = 0; k <= 1L << 21; k++) {
			double t = (double)k / (double)(1L << 21);
			double ts[3] = {nextafter(t, -1.0), t, nextafter(t, 2.0)};
			for (int j = 0; j < 3; j++)
				bad += pe_cmap_color(cm, ts[j]) != ref_cmap(cm, ts[j]);
		}
		cr_expect_eq(bad, 0, "%s: %ld colors differ", pe_cmap_name(cm),
		    bad);
	}
}

/* A cyclic sample fades toward mid grey by 1 - R, each channel rounded
 * by lround: the blend bit for bit, over t and R. */
Test(palette, cyclic_fade_rounds_as_lround)
{
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0.0, 1.0, true};
	long bad = 0;
	for (int a = 0; a < 4096; a++)
		for (int r = 0; r <= 256; r++) {
			struct pe_stats s = {.mean = a / 4096.0, .resultant =
			    r / 256.0, .count = 1};
			pe_color c = ref_cmap(PE_CMAP_CYCLIC, a / 4096.0), want = 0;
			double f = 1.0 - s.resultant;
			for (int sh = 16; sh >= 0; sh -= 8) {
				double ca = (c >> sh) & 0xff, cb = 0x80;
				long v = lround(ca + f * (cb - ca));
				want |= (int)(v < 0 ? 0 : v > 255 ? 255 : v) << sh;
			}
			bad += pe_scale_color(&sc, &s) != want;
		}
	cr_expect_eq(bad, 0, "%ld faded colors differ", bad);
}

/* A row's pixel colors are each sample's pe_scale_color, opaque, where
 * neighbours differ only in what the color reads (masked, undefined,
 * the resultant on a cyclic scale) and where they are equal. */
Test(palette, pixel_row_is_each_samples_color)
{
	struct pe_stats s[9] = {
	    {.mean = 0.25, .resultant = 1, .count = 4},
	    {.mean = 0.25, .resultant = 1, .count = 4},
	    {.mean = 0.25, .resultant = 0.5, .count = 4},
	    {.mean = 0.25, .resultant = 0.5, .count = 4, .masked = 3},
	    {.mean = 0.25, .resultant = 0.5, .count = 4, .undefined = 3},
	    {.mean = NAN, .count = 4, .masked = 4},
	    {.mean = NAN, .count = 4, .masked = 4},
	    {.mean = 0.75, .resultant = 1, .count = 1},
	    {.mean = -0.0, .resultant = 1, .count = 1},
	};
	for (int cyc = 0; cyc < 2; cyc++) {
		struct pe_scale sc = {cyc ? PE_CMAP_CYCLIC : PE_CMAP_DIVERGING,
		    0.0, 1.0, cyc == 1};
		uint32_t px[9];
		pe_scale_pixels(&sc, s, 9, px);
		for (int i = 0; i < 9; i++)
			cr_expect_eq(px[i], 0xff000000u |
			    (uint32_t)pe_scale_color(&sc, &s[i]), "%d of %d", i,
			    cyc);
	}
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0.0, 1.0, true};
	cr_expect_neq(pe_scale_color(&sc, &s[1]), pe_scale_color(&sc, &s[2]),
	    "the resultant shows on a cyclic scale");
}
