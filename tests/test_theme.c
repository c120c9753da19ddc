/* Themes: every text cell of every encoding's frames, each of
 * its panels, with and without --values, keeps a WCAG contrast of 4.5:1 on
 * what it stands on, in both themes, at truecolor, 256, 16 and 8 colors;
 * lines and plot dots on the page 3:1. The light theme leaves no default
 * color, and heatmap, masked and undefined cells keep their colors. The
 * contrast is computed here from the W3C's definition, and palette
 * indices from xterm's documented values, not from palette.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "pescope/learned.h"
#include "render/canvas.h"
#include "render/palette.h"
#include "view/encoding.h"
#include "view/view.h"

/* xterm's 16 colors (XTerm-col.ad), its 6x6x6 cube (0, 95 + 40 k) and
 * grey ramp (8 + 10 k): the RGB of a palette index. */
static uint32_t
xterm_rgb(int i)
{
	static const uint32_t ansi[16] = {0x000000, 0xcd0000, 0x00cd00,
	    0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5, 0x7f7f7f,
	    0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff,
	    0xffffff};
	if (i < 16)
		return ansi[i];
	if (i < 232) {
		int c[3] = {(i - 16) / 36, (i - 16) / 6 % 6, (i - 16) % 6};
		uint32_t v = 0;
		for (int k = 0; k < 3; k++)
			v = v << 8 | (uint32_t)(c[k] ? 55 + 40 * c[k] : 0);
		return v;
	}
	uint32_t g = (uint32_t)(8 + 10 * (i - 232));
	return g << 16 | g << 8 | g;
}

/* WCAG 2.1 relative luminance and contrast ratio. */
static double
lum(uint32_t c)
{
	double l = 0, w[3] = {0.2126, 0.7152, 0.0722};
	for (int k = 0; k < 3; k++) {
		double v = ((c >> (16 - 8 * k)) & 0xff) / 255.0;
		l += w[k] * (v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055,
		    2.4));
	}
	return l;
}
static double
contrast(uint32_t a, uint32_t b)
{
	double la = lum(a), lb = lum(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* The theme's page as RGB: a dark terminal's (#1c1c1c on #d0d0d0, the
 * file writers' dark page), or the light theme's white. */
static uint32_t
page(enum pe_theme t, bool fg)
{
	if (t == PE_THEME_LIGHT)
		return fg ? 0x1c1c1c : 0xffffff;
	return fg ? 0xd0d0d0 : 0x1c1c1c;
}

/* RGB of a look color at a depth (default: the page's). */
static uint32_t
rgb(pe_color q, enum pe_depth d, enum pe_theme t, bool fg)
{
	if (q < 0)
		return page(t, fg);
	return d == PE_DEPTH_TRUECOLOR ? (uint32_t)q : xterm_rgb((int)q);
}

/* Color a at opacity 0.6 over b (dim text, as the writers draw it). */
static uint32_t
dim(uint32_t a, uint32_t b)
{
	uint32_t out = 0;
	for (int s = 16; s >= 0; s -= 8) {
		double ca = (a >> s) & 0xff, cb = (b >> s) & 0xff;
		out |= (uint32_t)lround(cb + 0.6 * (ca - cb)) << s;
	}
	return out;
}

/* Whether a glyph is a line, block, marker or plot dots (not text). */
static bool
graphic(uint32_t cp)
{
	return (cp >= 0x2500 && cp <= 0x25ff) || (cp >= 0x2800 && cp <= 0x28ff);
}

static const enum pe_depth depths[] = {PE_DEPTH_TRUECOLOR, PE_DEPTH_256,
    PE_DEPTH_16, PE_DEPTH_8};

/* What is wrong with one cell at a depth in a theme ("" when nothing):
 * a default color in the light theme, a heatmap cell whose colors
 * changed with the theme, text short of 4.5:1 with what it stands on,
 * or a line or plot dot on the page short of 3:1. */
static void
check_cell(const struct pe_cell *c, enum pe_depth d, enum pe_theme t,
    char *why, size_t cap)
{
	struct pe_look lk = pe_palette_look(c, d, t);
	struct pe_look dk = pe_palette_look(c, d, PE_THEME_DARK);

	why[0] = '\0';
	if (t == PE_THEME_LIGHT && (lk.fg < 0 || lk.bg < 0))
		snprintf(why, cap, "a default color in the light theme");
	/* values keep their colors; masked samples are light on the light
	 * theme (palette.c) */
	bool masked = c->kind == PE_CELL_MASKED || c->fg == PE_COLOR_MASKED ||
	    c->bg == PE_COLOR_MASKED;
	/* but at 8 colors the grey of a block of many turns, white (7) on a
	 * dark page, is black on the light theme's page, which is that white */
	bool grey8 = d == PE_DEPTH_8 && t == PE_THEME_LIGHT;
	bool fg_same = lk.fg == dk.fg || (grey8 && dk.fg == 7 && lk.fg == 0);
	bool bg_same = lk.bg == dk.bg || (grey8 && dk.bg == 7 && lk.bg == 0);
	if (c->kind != PE_CELL_TEXT && c->fg >= 0 && c->bg >= 0 && !masked &&
	    (!fg_same || !bg_same))
		snprintf(why, cap, "a heatmap cell (kind %d) changed color "
		    "with the theme", c->kind);
	if (c->kind != PE_CELL_TEXT || c->cp == ' ' || c->cp == 0)
		return;
	uint32_t f = rgb(lk.fg, d, t, true), b = rgb(lk.bg, d, t, false);
	if (lk.attr & PE_ATTR_REVERSE) {
		uint32_t s = f;
		f = b;
		b = s;
	}
	if (lk.attr & PE_ATTR_DIM)
		f = dim(f, b);
	double need = graphic(c->cp) ? 3.0 : 4.5;
	/* a block or a line on a color is a sample, not text */
	if ((c->bg < 0 || !graphic(c->cp)) && contrast(f, b) < need - 1e-9)
		snprintf(why, cap, "U+%04X #%06x on #%06x: %.2f:1 < %.1f:1",
		    c->cp, f, b, contrast(f, b), need);
}

/* Check every cell of cv; returns the number of failures, the first
 * described in what. */
static int
check_frame(const struct pe_canvas *cv, enum pe_depth d, enum pe_theme t,
    char *what, size_t cap)
{
	int bad = 0;

	for (int y = 0; y < cv->h; y++)
		for (int x = 0; x < cv->w; x++) {
			char why[160];
			check_cell(&cv->cells[y * cv->w + x], d, t, why,
			    sizeof why);
			if (why[0] != '\0' && bad++ == 0)
				snprintf(what, cap, "cell %d,%d: %s", x, y, why);
		}
	return bad;
}

/* Render encoding e's panel p (v: small, with values) at w x h and check
 * it in both themes at four depths; returns whether the row has the panel
 * (then it was checked). */
static bool
check_config(int e, int p, int v, int w, int h, const double *table)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_model m;
	struct pe_canvas cv;

	pe_config_default(&cfg);
	cfg.enc = (enum pe_encoding)e;
	cfg.table = table;
	if (v == 1) { /* small enough for numbers over colors */
		cfg.d = 8;
		cfg.n = 8;
	}
	pe_config_encoding_defaults(&cfg, v == 1, false);
	if (pe_config_check(&cfg, NULL, 0) != PE_OK ||
	    !pe_enc_has_panel(pe_enc_view_of(&cfg), (enum pe_panel)p))
		return false;
	pe_state_init(&st, &cfg);
	st.pane[st.focus].panel = (enum pe_panel)p;
	st.values = v == 1;
	cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(&cv, w, h), PE_OK);
	pe_view_render(&st, &m, &cv, NULL);
	for (int t = 0; t < PE_THEME_COUNT; t++)
		for (size_t d = 0; d < 4; d++) {
			char what[300] = "";
			int bad = check_frame(&cv, depths[d], (enum pe_theme)t,
			    what, sizeof what);
			cr_expect_eq(bad, 0, "%s %s%s %dx%d, %s, %s: %d cells; "
			    "first %s", pe_encoding_name(cfg.enc),
			    pe_panel_name((enum pe_panel)p), v ? " --values" : "",
			    w, h, pe_theme_name((enum pe_theme)t),
			    pe_depth_name(depths[d]), bad, what);
		}
	pe_canvas_free(&cv);
	pe_model_free(&m);
	return true;
}

/* Every encoding, each panel, with and without values, at 80x24 and
 * 120x40: every depth and theme. */
Test(theme, every_text_cell_keeps_its_contrast)
{
	static double table[1024 * 64];
	int sizes[][2] = {{80, 24}, {120, 40}};
	int frames = 0;

	pe_learned_init(1024, 64, 1, table);
	for (int e = 0; e < PE_ENC_COUNT; e++)
		for (int p = 0; p < PE_PANEL_COUNT; p++)
			for (int v = 0; v < 2; v++)
				for (int s = 0; s < 2; s++)
					frames += check_config(e, p, v, sizes[s][0],
					    sizes[s][1], table);
	cr_assert(frames >= 4 * PE_ENC_COUNT, "%d frames", frames);
}

/* The light theme's page at every depth: white (8 colors: xterm's white,
 * #e5e5e5) under black or near-black default text; an undefined cell
 * keeps its colors and glyph, a masked one its glyph (its colors turn
 * light: test_palette's light_masks_are_light). */
Test(theme, light_page_and_special_cells)
{
	struct pe_cell blank = {.cp = ' ', .fg = -1, .bg = -1};
	for (size_t d = 0; d < 4; d++) {
		struct pe_look lk = pe_palette_look(&blank, depths[d],
		    PE_THEME_LIGHT);
		uint32_t b = rgb(lk.bg, depths[d], PE_THEME_LIGHT, false);
		uint32_t f = rgb(lk.fg, depths[d], PE_THEME_LIGHT, true);
		cr_expect(b == 0xffffff || (depths[d] == PE_DEPTH_8 &&
		    b == 0xe5e5e5), "%s: page #%06x", pe_depth_name(depths[d]), b);
		cr_expect(lum(f) < 0.02, "%s: text #%06x", pe_depth_name(depths[d]),
		    f);
		struct pe_look dk = pe_palette_look(&blank, depths[d],
		    PE_THEME_DARK);
		cr_expect(dk.fg < 0 && dk.bg < 0, "dark keeps the terminal's");
	}
	struct pe_cell masked = {.cp = 0x2571, .fg = 0x5a5a5a,
	    .bg = PE_COLOR_MASKED, .kind = PE_CELL_MASKED};
	struct pe_cell undef = {.cp = 0xb7, .fg = 0xd0d0d0,
	    .bg = PE_COLOR_UNDEF, .kind = PE_CELL_UNDEFINED};
	for (size_t d = 0; d < 4; d++) {
		struct pe_look a = pe_palette_look(&masked, depths[d],
		    PE_THEME_LIGHT);
		struct pe_look b = pe_palette_look(&masked, depths[d],
		    PE_THEME_DARK);
		cr_expect(a.bg != b.bg, "the light theme's masks are light");
		a = pe_palette_look(&undef, depths[d], PE_THEME_LIGHT);
		b = pe_palette_look(&undef, depths[d], PE_THEME_DARK);
		cr_expect(a.fg == b.fg && a.bg == b.bg);
	}
	cr_expect_eq(pe_theme_parse("light"), PE_THEME_LIGHT);
	cr_expect_eq(pe_theme_parse("dark"), PE_THEME_DARK);
	cr_expect_eq(pe_theme_parse("solarized"), -1);
}

/* The chrome's colors (view/panels.h) on the light page: each reads at
 * every depth, and at truecolor keeps its kind (a grey stays grey, the
 * accent blue, the warning red). */
Test(theme, chrome_colors_on_the_light_page)
{
	static const struct {
		pe_color c;
		int top; /* the channel that must stay the largest: 0 r, 2 b;
			    -1 grey */
	} chrome[] = {{0x8a8a8a, -1}, {0x5fafff, 2}, {0xff875f, 0},
	    {0xff8700, 0}};
	for (size_t i = 0; i < sizeof chrome / sizeof chrome[0]; i++)
		for (size_t d = 0; d < 4; d++) {
			struct pe_cell c = {.cp = 'x', .fg = chrome[i].c, .bg = -1};
			struct pe_look lk = pe_palette_look(&c, depths[d],
			    PE_THEME_LIGHT);
			uint32_t f = rgb(lk.fg, depths[d], PE_THEME_LIGHT, true);
			uint32_t b = rgb(lk.bg, depths[d], PE_THEME_LIGHT, false);
			cr_expect_geq(contrast(f, b), 4.5, "#%06x at %s: #%06x on "
			    "#%06x", chrome[i].c, pe_depth_name(depths[d]), f, b);
			if (depths[d] != PE_DEPTH_TRUECOLOR)
				continue;
			int ch[3] = {(int)(f >> 16) & 255, (int)(f >> 8) & 255,
			    (int)f & 255};
			if (chrome[i].top < 0)
				cr_expect(ch[0] == ch[1] && ch[1] == ch[2],
				    "#%06x became #%06x", chrome[i].c, f);
			else
				for (int k = 0; k < 3; k++)
					cr_expect(ch[chrome[i].top] >= ch[k],
					    "#%06x became #%06x", chrome[i].c, f);
			/* and no darker than it needs: below 5:1 */
			cr_expect_lt(contrast(f, b), 5.0, "#%06x became #%06x",
			    chrome[i].c, f);
		}
}
