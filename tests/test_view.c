/* Views without a terminal: layout at the sizes users have, the too-small
 * message, mouse hit-testing, and the inspector's formula against values
 * computed here. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "render/canvas.h"
#include "render/draw.h"
#include "render/palette.h"
#include "pescope/learned.h"
#include "pescope/rope.h"
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

/* At 16 colors or fewer a pixel layer makes no picture (its legend could
 * not show a picture's colors): the frame of rope -n 4096 is the very
 * frame without a pixel layer, cells, inspector and all, and the hit
 * test's pixel samples are none; at 256 colors the map is a picture. */
Test(view, no_pictures_at_16_colors_or_fewer)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.n = 4096;
	for (int d = PE_DEPTH_256; d <= PE_DEPTH_MONO; d++) {
		struct pe_state st;
		struct pe_model m;
		struct pe_canvas a, b;
		struct pe_hit ha, hb;
		pe_state_init(&st, &cfg);
		cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
		cr_assert_eq(pe_canvas_init(&a, 120, 40), PE_OK);
		cr_assert_eq(pe_canvas_init(&b, 120, 40), PE_OK);
		a.depth = b.depth = d;
		cr_assert_eq(pe_canvas_want_pixels(&b, 10, 20, "test"), PE_OK);
		cr_assert_eq(pe_view_render(&st, &m, &a, &ha), PE_OK);
		cr_assert_eq(pe_view_render(&st, &m, &b, &hb), PE_OK);
		if (d == PE_DEPTH_256) {
			cr_expect_gt(b.npix, 0, "256 colors: the map a picture");
		} else {
			cr_expect_eq(b.npix, 0, "%s: no picture",
			    pe_depth_name((enum pe_depth)d));
			cr_expect_eq(hb.pnr, 0);
			cr_expect(memcmp(a.cells, b.cells, sizeof *a.cells *
			    (size_t)(a.w * a.h)) == 0, "%s: the cells' frame",
			    pe_depth_name((enum pe_depth)d));
		}
		pe_canvas_free(&a), pe_canvas_free(&b);
		pe_model_free(&m);
	}
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
		st.pane[st.focus].head = heads[t][1];
		st.pane[st.focus].head_own_scale = true; /* o */
		st.cur_r = 61234, st.cur_c = 40000;
		pe_state_clamp(&st);
		cr_assert_eq(st.pane[st.focus].head, heads[t][1]);
		cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
		cr_assert_eq(pe_canvas_init(&cv, 120, 40), PE_OK);
		pe_view_render(&st, &m, &cv, &hit);

		struct pe_field f = m.main;
		f.head = st.pane[st.focus].head;
		double slope = m.main.slopes[st.pane[st.focus].head];
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
		    cfg.heads, st.pane[st.focus].head, l, want.mean, want.min,
		    want.max);

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
			    st.pane[st.focus].head, sr, sc_, cell->fg, c,
			    want.mean);
		}
		pe_canvas_free(&cv);
		pe_model_free(&m);
	}
}

/* ALiBi's heads share one color scale by default, the steepest head's
 * -m_max (n - 1) to 0 (Press et al.: head 0 of 8 has slope 1/2, so -31.5
 * at n = 64): the steep head and the shallow one draw different pictures
 * (head 7, slope 1/256, is nearly flat). With o (own scale) each head
 * spans its own range again. At 80x24 every head keeps a line of the
 * strip. */
Test(view, alibi_heads_share_one_scale)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 64;
	cfg.heads = 8;
	for (int own = 0; own < 2; own++) {
		pe_color got[2][6];
		for (size_t h = 0; h < 2; h++) {
			struct pe_state st;
			struct pe_model m;
			struct pe_canvas cv;
			struct pe_hit hit;
			size_t head = h ? 7 : 0;
			pe_state_init(&st, &cfg);
			st.pane[st.focus].head = head;
			st.pane[st.focus].head_own_scale = own;
			cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
			cr_assert_eq(pe_canvas_init(&cv, 120, 40), PE_OK);
			pe_view_render(&st, &m, &cv, &hit);
			cr_expect(contains(&cv, own ? "scale: this head (o)"
						    : "scale: all heads (o)"),
			    "the legend says which scale");
			double slope = 1.0 / (double)(1u << (head + 1));
			double lo = own ? -slope * 63 : -31.5;
			struct pe_scale sc = {PE_CMAP_SEQUENTIAL, lo, 0, false};
			struct pe_field f = m.main;
			f.head = head;
			/* samples below the diagonal (keys before the query),
			 * as fractions of the map's samples */
			static const double at[][2] = {{0.94, 0.03}, {0.62, 0.15},
			    {0.78, 0.46}, {0.46, 0.08}, {0.96, 0.62}, {0.32, 0.03}};
			size_t cells[6][2];
			for (size_t k = 0; k < 6; k++) {
				cells[k][0] = (size_t)(at[k][0] * (double)hit.nsr) & ~1u;
				cells[k][1] = (size_t)(at[k][1] * (double)hit.nsc);
			}
			for (size_t k = 0; k < 6; k++) {
				size_t b0, b1, q0, q1;
				struct pe_stats want;
				struct pe_cell *cell = pe_canvas_at(&cv, hit.map_x +
				    (int)cells[k][1] * hit.map_cw, hit.map_y +
				    (int)cells[k][0] / 2);
				cr_assert(cell != NULL && cell->cp == 0x2580);
				pe_field_span(hit.r0, hit.r1, hit.nsr, cells[k][0], &b0, &b1);
				pe_field_span(hit.c0, hit.c1, hit.nsc, cells[k][1], &q0, &q1);
				th_diag_brute(&f, b0, b1, q0, q1, &want);
				pe_color c = pe_scale_color(&sc, &want);
				cr_expect(color_near(cell->fg, c), "own %d head %zu sample "
				    "%zu: %06x, want %06x", own, head, k, cell->fg, c);
				got[h][k] = cell->fg;
			}
			pe_canvas_free(&cv);
			pe_model_free(&m);
		}
		int differ = 0;
		for (size_t k = 0; k < 6; k++)
			differ += !color_near(got[0][k], got[1][k]);
		if (own)
			cr_expect_lt(differ, 6, "own scales: the heads look alike");
		else
			cr_expect_eq(differ, 6, "one scale: head 0 and head 7 "
			    "differ (%d of 6 samples)", differ);
	}
	/* 80x24: a line of the strip for every head, nothing left out */
	struct pe_canvas cv;
	struct pe_hit hit;
	render(&cfg, 40, 10, 80, 24, &cv, &hit);
	cr_expect(!contains(&cv, "more heads"));
	for (int h = 0; h < 8; h += 2) { /* a line each, or two a line */
		char pair[16], a[16], b[16];
		snprintf(pair, sizeof pair, "h%d/%d ", h, h + 1);
		snprintf(a, sizeof a, "h%d ", h);
		snprintf(b, sizeof b, "h%d ", h + 1);
		cr_expect(contains(&cv, pair) || (contains(&cv, a) &&
		    contains(&cv, b)), "no line for heads %d, %d", h, h + 1);
	}
	pe_canvas_free(&cv);
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
	cr_expect(strstr(l, "min, max: too many to scan") != NULL, "%s", l);
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

/* NoPE's mask holds 0 and −∞ only: no color bar (it read -1 … -0.5 …
 * 0), a legend of the two values instead; never "-0". */
Test(view, nope_mask_legend_names_its_two_values)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	for (int z = 0; z < 2; z++) {
		render(&cfg, 0, 0, z ? 80 : 120, z ? 24 : 40, &cv, &hit);
		bool legend = false;
		for (int y = 0; y < cv.h; y++) {
			const char *l = line(&cv, y);
			cr_expect(strstr(l, "-0 ") == NULL && strstr(l, "-0+") ==
			    NULL && strstr(l, "−0") == NULL && strstr(l, "-0.5") ==
			    NULL, "line %d: %s", y, l);
			legend = legend || strstr(l, "0: visible, ") != NULL;
		}
		cr_expect(legend, "no legend \"0: visible, −∞: masked\"");
		cr_expect(contains(&cv, "−∞: masked"));
		pe_canvas_free(&cv);
	}
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

/* Numbers in line y from column x0 on (static; at most 64). */
static int
numbers(const struct pe_canvas *cv, int y, int x0, int x1, size_t *v)
{
	int n = 0;
	for (int x = x0; x < x1 && n < 64; x++) {
		uint32_t cp = cv->cells[y * cv->w + x].cp;
		if (cp < '0' || cp > '9')
			continue;
		size_t a = 0;
		while (x < x1 && (cp = cv->cells[y * cv->w + x].cp) >= '0' &&
		    cp <= '9') {
			a = a * 10 + (cp - '0');
			x++;
		}
		v[n++] = a;
	}
	return n;
}

/* The axes: rope pairs read 2 5 7 10 12, vit2d rows 0 1 3 4 6 7 9,
 * llama rows 33825 67650 101475. After the first label, labels step by one
 * round amount (1, 2, 5 x 10^k). */
Test(view, axis_labels_step_by_round_amounts)
{
	struct {
		enum pe_encoding e;
		size_t n, d;
		int w, h;
	} cases[] = {{PE_ENC_ROPE, 64, 64, 120, 40}, {PE_ENC_VIT2D, 64, 64, 80, 24},
	    {PE_ENC_ROPE, 131072, 128, 120, 40}, {PE_ENC_SINUSOIDAL, 64, 64, 200, 60}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pe_config cfg;
		struct pe_canvas cv;
		struct pe_hit hit;
		size_t v[64];
		pe_config_default(&cfg);
		cfg.enc = cases[i].e;
		cfg.n = cases[i].n;
		cfg.d = cases[i].d;
		cfg.base = cases[i].n > 1000 ? 500000 : 10000;
		render(&cfg, 0, 0, cases[i].w, cases[i].h, &cv, &hit);
		/* columns: the line under the map; rows: the axis left of it */
		int nc = numbers(&cv, hit.map_y + hit.map_h, hit.map_x,
		    hit.map_x + hit.map_w, v);
		size_t vr[64];
		int nr = 0;
		for (int y = hit.map_y; y < hit.map_y + hit.map_h; y++)
			nr += numbers(&cv, y, 0, hit.map_x - 1, vr + nr);
		for (int axis = 0; axis < 2; axis++) {
			size_t *a = axis ? vr : v;
			int n = axis ? nr : nc;
			cr_assert_geq(n, 3, "%s %dx%d: %d labels on axis %d",
			    pe_encoding_name(cfg.enc), cases[i].w, cases[i].h, n, axis);
			size_t step = a[n - 1] - a[n - 2], d = step;
			while (d >= 10 && d % 10 == 0)
				d /= 10;
			cr_expect(d == 1 || d == 2 || d == 5, "%s axis %d: step %zu",
			    pe_encoding_name(cfg.enc), axis, step);
			for (int k = 1; k + 1 < n; k++)
				cr_expect_eq(a[k + 1] - a[k], step, "%s axis %d: %zu, %zu",
				    pe_encoding_name(cfg.enc), axis, a[k], a[k + 1]);
		}
		pe_canvas_free(&cv);
	}
}

/* Lines whose first w columns are blank. */
static int
blank_lines(const struct pe_canvas *cv, int w)
{
	int n = 0;
	for (int y = 0; y < cv->h; y++) {
		bool blank = true;
		for (int x = 0; x < w && blank; x++)
			blank = cv->cells[y * cv->w + x].cp == ' ';
		n += blank;
	}
	return n;
}

/* Big terminals are used: at 200x60 the 64-position map filled 32 of its
 * lines and left 20 blank below, because a second whole magnification did
 * not fit. The map column (left 110 columns) keeps at most 8 blank lines for
 * every encoding, and a 16 x 16 map still spans at least 32 lines. */
Test(view, big_terminals_fill_the_map_column)
{
	double *table = malloc(1024 * 64 * sizeof *table);
	pe_learned_init(1024, 64, 1, table);
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		struct pe_config cfg;
		struct pe_canvas cv;
		struct pe_hit hit;
		pe_config_default(&cfg);
		cfg.enc = (enum pe_encoding)e;
		cfg.table = table;
		render(&cfg, 5, 3, 200, 60, &cv, &hit);
		int b = blank_lines(&cv, 110);
		cr_expect_leq(b, 8, "%s at 200x60: %d blank lines in the map "
		    "column (map %d lines)", pe_encoding_name(cfg.enc), b, hit.map_h);
		pe_canvas_free(&cv);
	}
	free(table);
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.n = 16;
	render(&cfg, 0, 0, 200, 60, &cv, &hit);
	cr_expect_geq(hit.map_h, 32, "16 x 16 at 200x60: %d lines", hit.map_h);
	pe_canvas_free(&cv);
}

/* Magnified by a fraction, every sample is still one exact element: the
 * cursor's half-cell maps back to the cursor, the inspector says one
 * element, and the elements along a column are in order with none left
 * out. */
Test(view, fractional_magnification_keeps_the_cursor_exact)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE; /* 64 x 32 */
	size_t rows[] = {0, 1, 17, 31, 32, 50, 62, 63};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct pe_canvas cv;
		struct pe_hit hit;
		render(&cfg, rows[i], 7, 200, 60, &cv, &hit);
		cr_assert_gt(hit.nsr, 64, "not magnified: %zu samples", hit.nsr);
		cr_expect_eq(hit.cell_rows, 1);
		cr_expect(contains(&cv, "the cursor's sample is one element"),
		    "%s", line(&cv, cv.h - 2));
		/* the cursor cell: a TEXT half-block inside the map */
		int cx = -1, cy = -1;
		bool lower = false;
		for (int y = hit.map_y; y < hit.map_y + hit.map_h; y++)
			for (int x = hit.map_x; x < hit.map_x + hit.map_w; x++) {
				const struct pe_cell *c = &cv.cells[y * cv.w + x];
				if (c->kind == PE_CELL_TEXT &&
				    (c->cp == 0x2580 || c->cp == 0x2584))
					cx = x, cy = y, lower = c->cp == 0x2584;
			}
		cr_assert_geq(cx, 0, "no cursor cell for row %zu", rows[i]);
		size_t s = (size_t)(cy - hit.map_y) * 2 + lower, r0, r1, c0, c1;
		pe_field_span(hit.r0, hit.r1, hit.nsr, s, &r0, &r1);
		pe_field_span(hit.c0, hit.c1, hit.nsc, (size_t)(cx - hit.map_x),
		    &c0, &c1);
		cr_expect_eq(r0, rows[i], "cursor at row %zu drawn at row %zu",
		    rows[i], r0);
		cr_expect_eq(r1 - r0, 1);
		cr_expect_eq(c0, 7);
		/* every element of the column shows, in order */
		size_t prev = 0, seen = 0;
		for (size_t k = 0; k < hit.nsr; k++) {
			pe_field_span(hit.r0, hit.r1, hit.nsr, k, &r0, &r1);
			cr_assert(r0 == prev || r0 == prev + 1 || k == 0);
			seen += k == 0 || r0 != prev;
			prev = r0;
		}
		cr_expect_eq(seen, 64);
		pe_canvas_free(&cv);
	}
}

/* ---- nothing is cut mid-word or mid-number ---------------------------- */

/* Line y of the canvas with trailing blanks removed (static buffer). */
static const char *
trimmed(const struct pe_canvas *cv, int y)
{
	static char buf[4096];
	snprintf(buf, sizeof buf, "%s", line(cv, y));
	size_t n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return buf;
}

/* Whether `part`, split on sep, consists only of items of `whole` split on
 * the same sep, in order (a line that dropped items whole). */
static bool
items_of(const char *part, const char *whole, const char *sep)
{
	const char *p = part, *w = whole;
	size_t sl = strlen(sep);
	while (*p != '\0') {
		const char *pe = strstr(p, sep);
		size_t pl = pe != NULL ? (size_t)(pe - p) : strlen(p);
		bool found = false;
		while (*w != '\0' && !found) {
			const char *we = strstr(w, sep);
			size_t wl = we != NULL ? (size_t)(we - w) : strlen(w);
			found = wl == pl && memcmp(w, p, pl) == 0;
			w = we != NULL ? we + sl : w + wl;
		}
		if (!found)
			return false;
		p = pe != NULL ? pe + sl : p + pl;
	}
	return true;
}

/* The config of the llama-3.1-8b preset (assets/models). */
static void
llama(struct pe_config *cfg)
{
	pe_config_default(cfg);
	cfg->enc = PE_ENC_ROPE;
	cfg->d = 128;
	cfg->n = 131072;
	cfg->base = 500000;
	cfg->rope.type = PE_ROPE_LLAMA3;
	cfg->rope.factor = 8;
	cfg->rope.original_max_pos = 8192;
}

/* Every view's key hints at 80x24 ended mid-word ("b/B", "spa"): the status
 * line now holds whole hints of the full line (the one 400 columns show),
 * help and quit first. */
Test(view, key_hints_are_whole_at_80x24)
{
	double *table = malloc(1024 * 64 * sizeof *table);
	pe_learned_init(1024, 64, 1, table);
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		struct pe_config cfg;
		struct pe_canvas cv, wide;
		struct pe_hit hit;
		pe_config_default(&cfg);
		cfg.enc = (enum pe_encoding)e;
		cfg.table = table;
		render(&cfg, 5, 3, 400, 24, &wide, &hit);
		render(&cfg, 5, 3, 80, 24, &cv, &hit);
		char full[4096];
		snprintf(full, sizeof full, "%s", trimmed(&wide, 23));
		const char *got = trimmed(&cv, 23);
		cr_expect(strncmp(got, "? help  q quit", 14) == 0, "%s", got);
		cr_expect(items_of(got, full, "  "), "%s at 80x24: '%s' is not "
		    "whole hints of '%s'", pe_encoding_name(cfg.enc), got, full);
		pe_canvas_free(&cv);
		pe_canvas_free(&wide);
	}
	free(table);
}

/* The parameter line keeps whole items, and the scaled rope's attention
 * factor ("cos,sin ×1"), lost at 120 columns, stays at 80 and 120. */
Test(view, parameter_line_keeps_whole_items)
{
	struct pe_config cfg;
	llama(&cfg);
	int widths[] = {80, 100, 120, 160};
	for (size_t i = 0; i < 4; i++) {
		struct pe_canvas cv, wide;
		struct pe_hit hit;
		render(&cfg, 5, 3, 400, 40, &wide, &hit);
		render(&cfg, 5, 3, widths[i], 40, &cv, &hit);
		char full[4096];
		snprintf(full, sizeof full, "%s", trimmed(&wide, 1) + 1);
		const char *got = trimmed(&cv, 1) + 1;
		cr_expect(items_of(got, full, " · "), "%d: '%s' is not whole items "
		    "of '%s'", widths[i], got, full);
		cr_expect(strstr(got, "cos,sin ×1") != NULL, "%d: '%s'", widths[i],
		    got);
		cr_expect(strstr(got, "llama3 ×8") != NULL, "%d: '%s'", widths[i],
		    got);
		pe_canvas_free(&cv);
		pe_canvas_free(&wide);
	}
}

/* The wheel's labels read θ=2 for 2.87 at 120x40: each θ shown is the whole
 * number (%.3g of the angle mod 2π), at every size that shows the wheel. */
Test(view, wheel_labels_keep_whole_numbers)
{
	struct pe_config cfgs[2];
	pe_config_default(&cfgs[0]);
	cfgs[0].enc = PE_ENC_ROPE;
	llama(&cfgs[1]);
	/* unscaled: with a scaling its plots come before the wheel */
	cfgs[1].rope.type = PE_ROPE_DEFAULT;
	int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < 3; i++) {
			struct pe_canvas cv;
			struct pe_hit hit;
			render(&cfgs[k], 5, 0, sizes[i][0], sizes[i][1], &cv, &hit);
			int nth = 0;
			for (int y = 0; y < cv.h; y++) {
				const char *l = line(&cv, y), *t = strstr(l, "θ=");
				const char *j = strstr(l, "j=");
				if (t == NULL || j == NULL)
					continue;
				size_t pj = strtoull(j + 2, NULL, 10);
				struct pe_rope r;
				cr_assert_eq(pe_rope_init(&r, &cfgs[k]), PE_OK);
				double want = fmod(pe_rope_angle(&r, 5.0, pj),
				    6.283185307179586);
				pe_rope_free(&r);
				/* a whole number (2 or 3 significant digits), not a
				 * cut one */
				char got[32], *end;
				sscanf(t + strlen("θ="), "%31s", got);
				double v = strtod(got, &end);
				cr_expect(*end == '\0' && fabs(v - want) <= 0.05 * want +
				    1e-12, "%dx%d j=%zu: θ=%s, not %.3g", sizes[i][0],
				    sizes[i][1], pj, got, want);
				nth++;
			}
			cr_expect_geq(nth, 4, "%dx%d: %d wheel labels", sizes[i][0],
			    sizes[i][1], nth);
			pe_canvas_free(&cv);
		}
}

/* The too-small message was cut below ~45 columns: down to 20x5 it says
 * what it needs and what it has, no word cut. */
Test(view, too_small_fits_down_to_20x5)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	int sizes[][2] = {{20, 5}, {24, 6}, {30, 5}, {44, 10}, {60, 20},
	    {79, 24}, {80, 23}, {20, 30}};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		struct pe_canvas cv;
		struct pe_hit hit;
		char have[32];
		render(&cfg, 0, 0, sizes[i][0], sizes[i][1], &cv, &hit);
		cr_assert(hit.too_small);
		snprintf(have, sizeof have, "%d×%d", sizes[i][0], sizes[i][1]);
		cr_expect(contains(&cv, "80×24"), "%dx%d: no need", sizes[i][0],
		    sizes[i][1]);
		cr_expect(contains(&cv, have), "%dx%d: no have", sizes[i][0],
		    sizes[i][1]);
		cr_expect(contains(&cv, "too small"), "%dx%d", sizes[i][0],
		    sizes[i][1]);
		cr_expect(contains(&cv, "q quits"), "%dx%d", sizes[i][0],
		    sizes[i][1]);
		pe_canvas_free(&cv);
	}
}

/* The inspector's lines at 80x24: the first is the whole formula or whole
 * words of it and " …"; the second, when it reaches the edge, ends in
 * " …" (never in a cut number). */
Test(view, inspector_lines_keep_whole_words)
{
	double *table = malloc(1024 * 64 * sizeof *table);
	pe_learned_init(1024, 64, 1, table);
	struct pe_config cfgs[PE_ENC_COUNT + 1];
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		pe_config_default(&cfgs[e]);
		cfgs[e].enc = (enum pe_encoding)e;
		cfgs[e].table = table;
	}
	llama(&cfgs[PE_ENC_COUNT]);
	for (int e = 0; e <= PE_ENC_COUNT; e++) {
		struct pe_canvas cv, wide;
		struct pe_hit hit;
		render(&cfgs[e], 5, 3, 400, 24, &wide, &hit);
		render(&cfgs[e], 5, 3, 80, 24, &cv, &hit);
		char full[4096];
		snprintf(full, sizeof full, "%s", trimmed(&wide, 21));
		const char *got = trimmed(&cv, 21);
		size_t gl = strlen(got);
		bool whole = strcmp(got, full) == 0;
		/* whole words: what follows in the full line is a blank, or a
		 * ',', ';' or ':' and a blank */
		const char *after = full + gl - 4;
		if (strchr(",;:", *after) != NULL)
			after++;
		bool elided = gl > 4 && strcmp(got + gl - 4, " …") == 0 &&
		    strncmp(full, got, gl - 4) == 0 && *after == ' ';
		cr_expect(whole || elided, "%s: '%s' of '%s'",
		    pe_encoding_name(cfgs[e].enc), got, full);
		const char *l2 = trimmed(&cv, 22);
		size_t n2 = 0;
		for (const char *p = l2; *p; p++)
			n2 += ((unsigned char)*p & 0xc0) != 0x80;
		if (n2 >= 79)
			cr_expect(strcmp(l2 + strlen(l2) - 4, " …") == 0,
			    "%s: '%s'", pe_encoding_name(cfgs[e].enc), l2);
		pe_canvas_free(&cv);
		pe_canvas_free(&wide);
	}
	free(table);
}

/* The cursor's position is what a title must keep: at 80x24 the wheel and
 * score titles shorten their words, never the position. */
Test(view, titles_keep_the_position_at_80x24)
{
	struct pe_config cfg;
	struct pe_canvas cv;
	struct pe_hit hit;
	llama(&cfg);
	cfg.rope.type = PE_ROPE_DEFAULT; /* the wheel: unscaled */
	render(&cfg, 65536, 0, 80, 24, &cv, &hit);
	cr_expect(contains(&cv, "m = 65536"), "%s", line(&cv, 2));
	cr_expect(contains(&cv, "query 65536"), "%s", line(&cv, 11));
	pe_canvas_free(&cv);
}

/* Render cfg as the presenter view (present) or without chrome. */
static void
render_bare(const struct pe_config *cfg, bool present, int w, int h,
    struct pe_canvas *cv, struct pe_hit *hit)
{
	struct pe_state st;
	struct pe_model m;
	pe_state_init(&st, cfg);
	st.session.present = present;
	st.session.no_chrome = !present;
	cr_assert_eq(pe_model_init(&m, cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(cv, w, h), PE_OK);
	cr_assert_eq(pe_view_render(&st, &m, cv, hit), PE_OK);
	pe_model_free(&m);
}

/* Whether line y of the canvas is blank. */
static bool
blank(const struct pe_canvas *cv, int y)
{
	for (int x = 0; x < cv->w; x++)
		if (cv->cells[y * cv->w + x].cp != ' ')
			return false;
	return true;
}

/* The presenter view and --no-chrome: no tab bar (the parameter line is
 * the first), no key hints; the presenter view's map columns are 2 cells
 * a sample, both cells alike and hit-tested to the same element, its
 * plots blocks (no braille dot anywhere). */
Test(view, presenter_view_and_no_chrome)
{
	int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	double *table = malloc(1024 * 64 * sizeof *table);
	pe_learned_init(1024, 64, 1, table);
	for (int e = 0; e < PE_ENC_COUNT; e++)
		for (size_t i = 0; i < 3; i++)
			for (int present = 0; present < 2; present++) {
				struct pe_config cfg;
				struct pe_canvas cv;
				struct pe_hit hit;
				const char *name = pe_encoding_name((enum pe_encoding)e);
				pe_config_default(&cfg);
				cfg.enc = (enum pe_encoding)e;
				cfg.table = table;
				render_bare(&cfg, present, sizes[i][0], sizes[i][1], &cv,
				    &hit);
				cr_assert(!hit.too_small);
				cr_assert_eq(hit.tab_y, -1, "%s: no tab bar", name);
				cr_assert(strstr(line(&cv, 0), " pescope ") == NULL, "%s: %s",
				    name, line(&cv, 0));
				cr_assert(blank(&cv, cv.h - 1), "%s: footer '%s'", name,
				    line(&cv, cv.h - 1));
				cr_assert_eq(hit.map_y, 2, "%s: the map starts under the "
				    "parameter line and the map's title", name);
				cr_assert_eq(hit.map_cw, present ? 2 : 1, "%s", name);
				cr_assert_eq(hit.map_w, (int)hit.nsc * hit.map_cw);
				/* a click anywhere in a sample's cells finds the same
				 * element; left to right, elements only grow; the first
				 * and the last cell find the viewport's ends */
				size_t pr = 0, pc = 0, r, c;
				for (int x = hit.map_x; x < hit.map_x + hit.map_w; x++) {
					cr_assert(pe_view_hit_map(&hit, x, hit.map_y, &r, &c));
					if (x > hit.map_x && (x - hit.map_x) % hit.map_cw != 0)
						cr_assert_eq(c, pc, "%s: cell %d", name, x);
					cr_assert_geq(c, pc);
					pc = c, pr = r;
				}
				(void)pr;
				cr_assert(pe_view_hit_map(&hit, hit.map_x, hit.map_y, &r, &c));
				cr_assert_eq(c, hit.c0);
				size_t C = hit.c1 - hit.c0;
				cr_assert_geq(pc + (C + hit.nsc - 1) / hit.nsc, hit.c1,
				    "%s: the last sample reaches the end", name);
				cr_assert(!pe_view_hit_map(&hit, hit.map_x + hit.map_w,
				    hit.map_y, &r, &c));
				/* both cells of a sample show the same colors */
				for (int y = hit.map_y; present &&
				     y < hit.map_y + hit.map_h; y++)
					for (int x = hit.map_x; x < hit.map_x + hit.map_w; x += 2) {
						const struct pe_cell *a = &cv.cells[y * cv.w + x];
						cr_assert(a[0].cp == a[1].cp && a[0].fg == a[1].fg &&
						    a[0].bg == a[1].bg, "%s %dx%d: cells %d,%d and "
						    "%d differ", name, cv.w, cv.h, x, y, x + 1);
					}
				/* plots: blocks in the presenter view */
				bool braille = false;
				for (int k = 0; k < cv.w * cv.h; k++)
					braille |= cv.cells[k].cp >= 0x2801 &&
					    cv.cells[k].cp <= 0x28ff;
				if (present)
					cr_assert(!braille, "%s: a braille dot", name);
				/* letters and digits at 16 and 8 colors: never dimmed
				 * in the presenter view (a projector washes dim grey
				 * out); without it the axes' labels are */
				int dim = 0;
				for (int k = 0; k < cv.w * cv.h; k++) {
					const struct pe_cell *q = &cv.cells[k];
					bool alnum = q->cp < 128 && (isalpha((int)q->cp) ||
					    isdigit((int)q->cp));
					if (q->kind != PE_CELL_TEXT || !alnum)
						continue;
					for (int d = PE_DEPTH_16; d <= PE_DEPTH_8; d++)
						dim += (pe_palette_look(q, (enum pe_depth)d, PE_THEME_DARK).attr &
						    PE_ATTR_DIM) != 0;
				}
				if (present)
					cr_assert_eq(dim, 0, "%s %dx%d: %d dim letters", name,
					    cv.w, cv.h, dim);
				else
					cr_assert_gt(dim, 0, "%s: the control has dim labels",
					    name);
				pe_canvas_free(&cv);
			}
	free(table);
}

/* Compare mode: pane A on the left, B on the right, each map where the
 * frame's hit says (the focused pane's in the usual fields, the other's
 * in `other`); a cell of either maps to the element under it, the same
 * element in both panes (one cursor); each pane says its encoding. */
Test(view, compare_panes_hit_and_badges)
{
	struct pe_config a, b;
	struct pe_state st;
	struct pe_model ma, mb;
	struct pe_canvas cv;
	struct pe_hit hit;

	pe_config_default(&a);
	b = a;
	b.enc = PE_ENC_LEARNED;
	double *t;
	cr_assert_eq(pe_learned_untrained(b.max_len, b.d, &t), PE_OK);
	b.table = t;
	b.table_untrained = true;
	pe_state_init(&st, &a);
	st.compare = true;
	st.pane[PE_PANE_B] = (struct pe_pane){b, 0, PE_PANEL_OVERVIEW, NULL,
		false};
	cr_assert_eq(pe_model_init(&ma, &a), PE_OK);
	cr_assert_eq(pe_model_init(&mb, &b), PE_OK);
	ma.other = &mb;
	cr_assert_eq(pe_canvas_init(&cv, 120, 40), PE_OK);
	cr_assert_eq(pe_view_render(&st, &ma, &cv, &hit), PE_OK);
	cr_assert(strncmp(line(&cv, 1), " A  d_model 64", 14) == 0, "%s",
	    line(&cv, 1));
	cr_assert(strstr(line(&cv, 1), "│ B  d_model 64") != NULL, "%s",
	    line(&cv, 1));
	cr_assert(contains(&cv, "(untrained init)"), "pane B is learned");
	cr_assert(contains(&cv, "shared scale"), "both are PE values");
	cr_assert(contains(&cv, "A − B"), "one shape: a difference strip");
	/* A's map is left of the divider, B's right of it, on the same rows */
	cr_assert_gt(hit.map_w, 0);
	cr_assert_gt(hit.other.w, 0);
	cr_assert_lt(hit.map_x + hit.map_w, 60);
	cr_assert_gt(hit.other.x, 60);
	cr_assert_eq(hit.map_y, hit.other.y);
	size_t r, c, r2, c2;
	cr_assert(pe_view_hit_map(&hit, hit.map_x + 3, hit.map_y + 2, &r, &c));
	cr_assert(pe_view_hit_other(&hit, hit.other.x + 3, hit.other.y + 2, &r2,
	    &c2));
	cr_assert_eq(r, r2);
	cr_assert_eq(c, c2);
	size_t b0, b1; /* line 2's upper half is sample 4 */
	pe_field_span(0, 64, hit.nsr, 4, &b0, &b1);
	cr_assert_eq(r, b0);
	cr_assert(!pe_view_hit_other(&hit, hit.map_x + 3, hit.map_y + 2, &r2,
	    &c2), "A's map is not B's");
	pe_canvas_free(&cv);
	pe_model_free(&ma);
	pe_model_free(&mb);
	free(t);
}

/* A config of encoding e on its own defaults (learned: GPT-2's untrained
 * table, into *t). */
static void
enc_config(struct pe_config *c, enum pe_encoding e, double **t)
{
	pe_config_default(c);
	c->enc = e;
	pe_config_encoding_defaults(c, false, false);
	*t = NULL;
	if (e == PE_ENC_LEARNED) {
		cr_assert_eq(pe_learned_untrained(c->max_len, c->d, t), PE_OK);
		c->table = *t;
		c->table_untrained = true;
	}
	cr_assert_eq(pe_config_check(c, NULL, 0), PE_OK);
}

/* Every pair of encodings at 80x24, 120x40 and 200x60: the frame is drawn
 * whole, each pane keeps to its side of the divider, both badges show, and
 * the strip is a difference exactly when the main maps have one shape
 * (and both or neither are angles). */
Test(view, compare_every_pair_every_size)
{
	static const int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	for (int ea = 0; ea < PE_ENC_COUNT; ea++)
		for (int eb = 0; eb < PE_ENC_COUNT; eb++) {
			struct pe_config a, b;
			double *ta, *tb;
			struct pe_model ma, mb;
			struct pe_state st;
			enc_config(&a, (enum pe_encoding)ea, &ta);
			enc_config(&b, (enum pe_encoding)eb, &tb);
			cr_assert_eq(pe_model_init(&ma, &a), PE_OK);
			cr_assert_eq(pe_model_init(&mb, &b), PE_OK);
			ma.other = &mb;
			pe_state_init(&st, &a);
			st.compare = true;
			st.pane[PE_PANE_B] = (struct pe_pane){b, 0,
				PE_PANEL_OVERVIEW, NULL, false};
			bool diff = ma.main.rows == mb.main.rows &&
			    ma.main.cols == mb.main.cols &&
			    (ma.main.kind == PE_FIELD_ROPE_ANGLE) ==
			    (mb.main.kind == PE_FIELD_ROPE_ANGLE);
			for (size_t s = 0; s < 3; s++) {
				struct pe_canvas cv;
				int w = sizes[s][0], h = sizes[s][1], pw = (w - 1) / 2;
				cr_assert_eq(pe_canvas_init(&cv, w, h), PE_OK);
				cr_assert_eq(pe_view_render(&st, &ma, &cv, NULL), PE_OK,
				    "%s | %s at %dx%d", pe_encoding_name(a.enc),
				    pe_encoding_name(b.enc), w, h);
				cr_expect(strncmp(line(&cv, 1), " A ", 3) == 0);
				const struct pe_cell *d = &cv.cells[1 * w + pw];
				cr_expect_eq(d->cp, 0x2502u, "%s | %s at %dx%d: no divider",
				    pe_encoding_name(a.enc), pe_encoding_name(b.enc), w, h);
				cr_expect_eq(cv.cells[1 * w + pw + 2].cp, (uint32_t)'B');
				/* the divider runs down the panes, never overdrawn */
				int y = 1;
				while (y < h && cv.cells[y * w + pw].cp == 0x2502u)
					y++;
				cr_expect_geq(y, h - 4 - 14, "%s | %s at %dx%d: divider "
				    "broken at line %d", pe_encoding_name(a.enc),
				    pe_encoding_name(b.enc), w, h, y);
				cr_expect_eq(contains(&cv, "A − B"), diff, "%s | %s at "
				    "%dx%d", pe_encoding_name(a.enc),
				    pe_encoding_name(b.enc), w, h);
				cr_expect_eq(contains(&cv, "no difference: "), !diff);
				pe_canvas_free(&cv);
			}
			pe_model_free(&ma);
			pe_model_free(&mb);
			free(ta);
			free(tb);
		}
}

/* The name xterm gives palette index i of the 16 (8: the first eight). */
static const char *
ansi_name(int i)
{
	static const char *const names[16] = {"black", "red", "green",
		"yellow", "blue", "magenta", "cyan", "white", "grey", "red",
		"green", "yellow", "blue", "magenta", "cyan", "white"};
	return i >= 0 && i < 16 ? names[i] : "?";
}

/* A legend names the colors its curves show at the depth the frame is
 * written at (the canvas's), and different curves different colors: at 8
 * and 16 colors, in both themes, each legend item's name is xterm's name
 * of the palette entry its swatch and its curve's dots become, and the
 * three curves of YaRN's wavelength plot are three colors (the legend
 * said "green: unscaled, blue: 4096" while both were cyan at 8 colors,
 * and named no color for the scaled curve). */
Test(view, legends_name_the_colors_drawn)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.d = 128;
	cfg.n = 16384;
	cfg.rope.type = PE_ROPE_YARN;
	cfg.rope.factor = 4;
	cfg.rope.original_max_pos = 4096;
	cfg.teach.train_len = 4096;
	for (int d = PE_DEPTH_16; d <= PE_DEPTH_8; d++)
		for (int t = 0; t < 2; t++) {
			struct pe_state st;
			struct pe_model m;
			struct pe_canvas cv;
			const char *scaled = NULL, *unscaled = NULL, *orig = NULL;
			pe_state_init(&st, &cfg);
			cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
			cr_assert_eq(pe_canvas_init(&cv, 120, 40), PE_OK);
			cv.depth = d, cv.theme = t;
			pe_view_render(&st, &m, &cv, NULL);
			int items = 0;
			for (int y = 0; y < cv.h; y++)
				for (int x = 0; x + 2 < cv.w; x++) {
					const struct pe_cell *sw = &cv.cells[y * cv.w + x];
					if (sw->cp != 0x2501)
						continue;
					/* "━ label (name)": the text after the swatch */
					char text[128];
					size_t o = 0;
					for (int k = x + 2; k < cv.w && o + 4 < sizeof text; k++)
						o += (size_t)pe_utf8_encode(cv.cells[y * cv.w +
						    k].cp, text + o);
					text[o] = '\0';
					char label[32] = "", name[32] = "";
					cr_assert_eq(sscanf(text, "%31s (%31[a-z])", label,
					    name), 2, "'%s'", text);
					struct pe_look lk = pe_palette_look(sw,
					    (enum pe_depth)d, (enum pe_theme)t);
					cr_expect_str_eq(name, ansi_name(lk.fg), "depth %d "
					    "theme %d: '%s': the swatch shows %s", d, t, text,
					    ansi_name(lk.fg));
					/* its curve: plot dots of the swatch's color */
					bool drawn = false;
					for (int i = 0; i < cv.w * cv.h && !drawn; i++) {
						uint32_t cp = cv.cells[i].cp;
						drawn = cp >= 0x2801 && cp <= 0x28ff &&
						    cv.cells[i].fg == sw->fg;
					}
					cr_expect(drawn, "no curve drawn for '%s'", text);
					const char *nm = ansi_name(lk.fg);
					if (strcmp(label, "scaled") == 0)
						scaled = nm;
					else if (strcmp(label, "unscaled") == 0)
						unscaled = nm;
					else if (strcmp(label, "4096") == 0)
						orig = nm;
					items++;
				}
			cr_expect_geq(items, 5, "depth %d theme %d: %d legend items",
			    d, t, items);
			cr_assert(scaled && unscaled && orig, "depth %d theme %d",
			    d, t);
			cr_expect(strcmp(scaled, unscaled) != 0 && strcmp(scaled, orig)
			    != 0 && strcmp(unscaled, orig) != 0, "depth %d theme %d: "
			    "%s, %s, %s", d, t, scaled, unscaled, orig);
			pe_canvas_free(&cv);
			pe_model_free(&m);
		}
}

/* The status line's message is a warning (bold, C_WARN) unless it is the
 * note of the graphics in use (status_note): a lecturer's first slide
 * says "graphics: kitty ..." in the dim grey of hints, not as an alarm. */
Test(view, a_note_in_the_status_line_is_dim)
{
	struct pe_config cfg;
	struct pe_model m;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(&cv, 100, 30), PE_OK);
	pe_state_init(&st, &cfg);
	snprintf(st.status, sizeof st.status, "graphics: kitty, 8x19-pixel "
	    "cells (the terminal's answers)");
	snprintf(st.status_note, sizeof st.status_note, "%s", st.status);
	pe_view_render(&st, &m, &cv, NULL);
	const struct pe_cell *g = pe_canvas_at(&cv, 0, cv.h - 1);
	cr_expect_eq(g->cp, 'g');
	cr_expect_eq(g->fg, PE_RGB(0x8a, 0x8a, 0x8a), "a note: dim, %06x", (unsigned)g->fg);
	cr_expect_eq(g->attr & PE_ATTR_BOLD, 0);
	/* another message in its place: a warning again */
	snprintf(st.status, sizeof st.status, "'j' does nothing here");
	pe_view_render(&st, &m, &cv, NULL);
	g = pe_canvas_at(&cv, 0, cv.h - 1);
	cr_expect_eq(g->fg, PE_RGB(0xff, 0x87, 0x5f), "a warning: %06x", (unsigned)g->fg);
	pe_canvas_free(&cv);
	pe_model_free(&m);
}
