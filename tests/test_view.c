/* Views without a terminal: layout at the sizes users have, the too-small
 * message, mouse hit-testing, and the inspector's formula against values
 * computed here. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "pescope/canvas.h"
#include "pescope/draw.h"
#include "pescope/learned.h"
#include "view/view.h"

/* The text of canvas line y as UTF-8 (static buffer). */
static const char *
line(const struct pe_canvas *cv, int y)
{
	static char buf[4096];
	size_t n = 0;
	for (int x = 0; x < cv->w && n + 4 < sizeof buf; x++)
		n += (size_t)pe_utf8_encode(cv->cells[y * cv->w + x].cp, buf + n);
	buf[n] = '\0';
	return buf;
}

/* Whether any line of the canvas contains s. */
static bool
contains(const struct pe_canvas *cv, const char *s)
{
	for (int y = 0; y < cv->h; y++)
		if (strstr(line(cv, y), s) != NULL)
			return true;
	return false;
}

/* Render cfg with cursor (r, c) into a w x h canvas. */
static void
render(const struct pe_config *cfg, size_t r, size_t c, int w, int h,
    struct pe_canvas *cv, struct pe_hit *hit)
{
	struct pe_state st;
	struct pe_model m;
	pe_state_init(&st, cfg);
	st.cur_r = r, st.cur_c = c;
	pe_state_clamp(&st);
	cr_assert_eq(pe_model_init(&m, cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(cv, w, h), PE_OK);
	pe_view_render(&st, &m, cv, hit);
	pe_model_free(&m);
}

/* The issue's own example: PE[3,2] for d = 4 is sin(3 * 10000^(-2/4)). */
Test(view, inspector_shows_formula_and_value)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.d = 4;
	cfg.n = 8;
	render(&cfg, 3, 2, 120, 40, &cv, &hit);
	char want[128];
	snprintf(want, sizeof want, "PE[3,2] = sin(3 · 10000^(−2/4)) = %.9g",
	    sin(3.0 / 100.0));
	cr_assert(contains(&cv, want), "missing '%s'; line: %s", want,
	    line(&cv, cv.h - 3));
	cr_assert(strstr(want, "0.0299955") != NULL);
	pe_canvas_free(&cv);
}

Test(view, too_small_says_so_at_any_size)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	int sizes[][2] = {{79, 24}, {80, 23}, {40, 10}, {1, 1}, {2, 1}, {1, 30}};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		struct pe_canvas cv;
		struct pe_hit hit;
		render(&cfg, 0, 0, sizes[i][0], sizes[i][1], &cv, &hit);
		cr_assert(hit.too_small);
		if (sizes[i][0] >= 60)
			cr_assert(contains(&cv, "terminal too small: need ≥ 80×24"));
		pe_canvas_free(&cv);
	}
}

Test(view, every_encoding_lays_out_at_common_sizes)
{
	int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	double *table = malloc(1024 * 64 * sizeof *table);
	pe_learned_init(1024, 64, 1, table);
	for (int e = 0; e < PE_ENC_COUNT; e++)
		for (size_t i = 0; i < 3; i++) {
			struct pe_config cfg;
			struct pe_canvas cv;
			struct pe_hit hit;
			pe_config_default(&cfg);
			cfg.enc = (enum pe_encoding)e;
			cfg.table = table;
			render(&cfg, 5, 3, sizes[i][0], sizes[i][1], &cv, &hit);
			cr_assert(!hit.too_small);
			cr_assert_gt(hit.map_w, 8, "%s at %dx%d: map %dx%d",
			    pe_encoding_name(cfg.enc), sizes[i][0], sizes[i][1],
			    hit.map_w, hit.map_h);
			cr_assert_gt(hit.map_h, 4);
			cr_assert_leq(hit.map_x + hit.map_w, cv.w);
			cr_assert_leq(hit.map_y + hit.map_h, cv.h - 3);
			/* the tab of the current encoding names it */
			cr_assert(strstr(line(&cv, 0), pe_encoding_name(cfg.enc)));
			for (int t = 1; t < PE_ENC_COUNT; t++)
				cr_assert_gt(hit.tab_x0[t], hit.tab_x0[t - 1]);
			/* the top-left map cell is element (r0, c0) */
			size_t r, c;
			cr_assert(pe_view_hit_map(&hit, hit.map_x, hit.map_y, &r, &c));
			cr_assert_eq(r, hit.r0);
			cr_assert_eq(c, hit.c0);
			cr_assert(!pe_view_hit_map(&hit, hit.map_x - 1, hit.map_y, &r,
			    &c));
			/* the status line shows help and quit */
			cr_assert(strstr(line(&cv, cv.h - 1), "? help  q quit"));
			pe_canvas_free(&cv);
		}
	free(table);
}

/* A cell of a 1,048,576-position map is the mean of its block. */
Test(view, huge_maps_say_which_block_the_cursor_covers)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.n = (size_t)1 << 20;
	cfg.d = 8192;
	render(&cfg, 0, 0, 120, 40, &cv, &hit);
	cr_assert_gt(hit.cell_rows, 1000);
	cr_assert(contains(&cv, "sample = block pos 0–"), "%s",
	    line(&cv, cv.h - 2));
	cr_assert(contains(&cv, "mean"));
	pe_canvas_free(&cv);
}

/* Whether two colors differ by at most one in each channel (a mean on a
 * color boundary may round either way). */
static bool
color_near(pe_color a, pe_color b)
{
	if (a < 0 || b < 0)
		return a == b;
	for (int s = 0; s < 24; s += 8)
		if (abs(((a >> s) & 255) - ((b >> s) & 255)) > 1)
			return false;
	return true;
}

/* ALiBi draws the selected head: the inspector's block statistics and the
 * map's cells are that head's, against brute-force block means (at
 * n = 100000 a sample is a block of about 1500 x 1500 elements). */
Test(view, alibi_uses_the_selected_head)
{
	static const size_t heads[][2] = {{7, 6}, {7, 3}, {11, 10}, {11, 5}};
	for (size_t t = 0; t < 4; t++) {
		struct pe_config cfg;
		struct pe_state st;
		struct pe_model m;
		struct pe_canvas cv;
		struct pe_hit hit;
		pe_config_default(&cfg);
		cfg.enc = PE_ENC_ALIBI;
		cfg.n = 100000;
		cfg.heads = heads[t][0];
		cfg.alibi_mode = t % 2 ? PE_ALIBI_SYMMETRIC : PE_ALIBI_CAUSAL;
		pe_state_init(&st, &cfg);
		st.head = heads[t][1];
		st.cur_r = 61234, st.cur_c = 40000;
		pe_state_clamp(&st);
		cr_assert_eq(st.head, heads[t][1]);
		cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
		cr_assert_eq(pe_canvas_init(&cv, 120, 40), PE_OK);
		pe_view_render(&st, &m, &cv, &hit);

		struct pe_field f = m.main;
		f.head = st.head;
		double slope = m.main.slopes[st.head];
		/* the inspector: "sample = block query a–b × key c–d (N
		 * elements): mean X  min Y  max Z" */
		const char *l = line(&cv, cv.h - 2);
		size_t r0, r1, c0, c1;
		double mean, lo, hi;
		const char *s = strstr(l, "block query ");
		cr_assert(s != NULL, "%s", l);
		cr_assert_eq(sscanf(s, "block query %zu–%zu × key %zu–%zu", &r0,
		    &r1, &c0, &c1), 4, "%s", l);
		s = strstr(l, "mean ");
		cr_assert(s != NULL, "%s", l);
		cr_assert_eq(sscanf(s, "mean %lf  min %lf  max %lf", &mean, &lo,
		    &hi), 3, "%s", l);
		struct pe_stats want;
		th_diag_brute(&f, r0, r1 + 1, c0, c1 + 1, &want);
		cr_expect(th_close(mean, want.mean, 0, 1e-5) &&
		    th_close(lo, want.min, 0, 1e-5) &&
		    th_close(hi, want.max, 0, 1e-5),
		    "heads %zu head %zu: %s; want mean %.6g min %.6g max %.6g",
		    cfg.heads, st.head, l, want.mean, want.min, want.max);

		/* three map cells (upper samples) on the diagonal's near side,
		 * under the head's own scale */
		struct pe_scale sc = {PE_CMAP_SEQUENTIAL,
		    -slope * (double)(cfg.n - 1), 0, false};
		size_t cells[][2] = {{10, 2}, {40, 20}, {60, 5}};
		for (size_t k = 0; k < 3; k++) {
			size_t sr = cells[k][0], sc_ = cells[k][1], b0, b1, q0, q1;
			struct pe_cell *cell = pe_canvas_at(&cv, hit.map_x + (int)sc_,
			    hit.map_y + (int)sr / 2);
			cr_assert(cell != NULL && cell->cp == 0x2580);
			pe_field_span(hit.r0, hit.r1, hit.nsr, sr, &b0, &b1);
			pe_field_span(hit.c0, hit.c1, hit.nsc, sc_, &q0, &q1);
			th_diag_brute(&f, b0, b1, q0, q1, &want);
			pe_color c = pe_scale_color(&sc, &want);
			cr_expect(color_near(cell->fg, c), "heads %zu head %zu sample "
			    "(%zu, %zu): color %06x, want %06x (mean %g)", cfg.heads,
			    st.head, sr, sc_, cell->fg, c, want.mean);
		}
		pe_canvas_free(&cv);
		pe_model_free(&m);
	}
}

/* A block too large for an exact min/max scan says so; it never prints
 * "nan" for numbers it did not compute. */
Test(view, unscanned_min_max_are_not_nan)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.n = PE_MAX_N;
	cfg.d = 8192;
	render(&cfg, 5, 3, 120, 40, &cv, &hit);
	const char *l = line(&cv, cv.h - 2);
	cr_assert(strstr(l, "sample = block pos") != NULL, "%s", l);
	cr_expect(strstr(l, "nan") == NULL, "%s", l);
	cr_expect(strstr(l, "min and max not scanned") != NULL, "%s", l);
	pe_canvas_free(&cv);
}

/* The parameter line says which factor longrope uses: --factor when given,
 * else max_pos / original_max_pos (HF's Phi-3 path). */
Test(view, longrope_says_which_factor)
{
	static const double ones[4] = {1, 1, 1, 1};
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.d = 8;
	cfg.rope.type = PE_ROPE_LONGROPE;
	cfg.rope.short_factor = cfg.rope.long_factor = ones;
	cfg.rope.n_short = cfg.rope.n_long = 4;
	cfg.rope.original_max_pos = 1024;
	cfg.rope.max_pos = 4096;
	render(&cfg, 0, 0, 160, 40, &cv, &hit);
	cr_expect(strstr(line(&cv, 1), "longrope ×4 = max_pos 4096 / orig 1024"),
	    "%s", line(&cv, 1));
	pe_canvas_free(&cv);
	cfg.rope.factor = 8;
	cfg.rope.factor_given = true;
	render(&cfg, 0, 0, 160, 40, &cv, &hit);
	cr_expect(strstr(line(&cv, 1), "longrope ×8 (--factor) orig 1024"), "%s",
	    line(&cv, 1));
	/* and the attention scaling follows: sqrt(1 + ln 8 / ln 1024) */
	char want[64];
	snprintf(want, sizeof want, "cos,sin ×%.4g",
	    sqrt(1.0 + log(8.0) / log(1024.0)));
	cr_expect(strstr(line(&cv, 1), want), "%s", line(&cv, 1));
	pe_canvas_free(&cv);
}

/* ALiBi's header states the formula of its mode: symmetric is
 * −m·|query − key|, causal −m·(query − key). */
Test(view, alibi_header_says_the_modes_formula)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.alibi_mode = PE_ALIBI_SYMMETRIC;
	render(&cfg, 0, 0, 160, 40, &cv, &hit);
	cr_expect(strstr(line(&cv, 1), "bias = −m·|query − key|"), "%s",
	    line(&cv, 1));
	cr_expect(!strstr(line(&cv, 1), "(query − key)"), "%s", line(&cv, 1));
	pe_canvas_free(&cv);
	cfg.alibi_mode = PE_ALIBI_CAUSAL;
	render(&cfg, 0, 0, 160, 40, &cv, &hit);
	cr_expect(strstr(line(&cv, 1), "bias = −m·(query − key)"), "%s",
	    line(&cv, 1));
	pe_canvas_free(&cv);
}

/* NoPE's color bar: -1, its midpoint -0.5, 0; never "-0". */
Test(view, nope_color_bar_has_no_negative_zero)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	render(&cfg, 0, 0, 120, 40, &cv, &hit);
	bool bar = false;
	for (int y = 0; y < cv.h; y++) {
		const char *l = line(&cv, y);
		cr_expect(strstr(l, "-0 ") == NULL && strstr(l, "-0+") == NULL &&
		    strstr(l, "−0") == NULL, "line %d: %s", y, l);
		bar = bar || strstr(l, "-0.5") != NULL;
	}
	cr_expect(bar, "no color bar with -0.5");
	pe_canvas_free(&cv);
}

/* vit2d's maps are cosines, and say so: "similarity" is the raw dot
 * product (dump --table similarity), the maps are its normalised form. */
Test(view, vit2d_maps_are_titled_cosine)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_VIT2D;
	int sizes[][2] = {{120, 40}, {200, 60}};
	for (int s = 0; s < 2; s++) {
		render(&cfg, 0, 0, sizes[s][0], sizes[s][1], &cv, &hit);
		cr_expect(contains(&cv, "cosine maps"), "%dx%d: %s", sizes[s][0],
		    sizes[s][1], line(&cv, 2));
		cr_expect(!contains(&cv, "similarity"), "%dx%d", sizes[s][0],
		    sizes[s][1]);
		pe_canvas_free(&cv);
	}
}
