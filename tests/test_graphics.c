/* The pixel layer and what the terminal image protocols carry of it: each
 * pixel against the kernel's values through the colormap (exact elements
 * where they are fewer than the pixels, exact block means of
 * pe_field_block, a call of its own, where they outnumber them), the
 * cells of a frame with pictures against the frame without, and the
 * kitty and sixel payloads chafa writes decoded back to pixels. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "render/draw.h"
#include "render/palette.h"
#include "tui/tui.h"
#include "view/view.h"

/* A frame of cfg at w x h with a cell of pw x ph pixels (0: none). */
static void
frame(const struct pe_config *cfg, int w, int h, int pw, int ph,
    struct pe_model *m, struct pe_canvas *cv, struct pe_state *st)
{
	cr_assert_eq(pe_model_init(m, cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(cv, w, h), PE_OK);
	cr_assert_eq(pe_canvas_want_pixels(cv, pw, ph, "test"), PE_OK);
	pe_state_init(st, cfg);
	st->cur_r = cfg->n / 3;
	st->cur_c = 1;
	cr_assert_eq(pe_view_render(st, m, cv, NULL), PE_OK);
}

/* Whether pixel (x, y) is on the cursor's frame (two rings around its
 * sample). */
static bool
on_cursor(const struct pe_pixmap *pm, int x, int y)
{
	int x0 = pm->cur_x, x1 = pm->cur_x + pm->cur_w;
	int y0 = pm->cur_y, y1 = pm->cur_y + pm->cur_h;
	bool in_outer = x >= x0 - 2 && x < x1 + 2 && y >= y0 - 2 && y < y1 + 2;
	bool in_inner = x >= x0 && x < x1 && y >= y0 && y < y1;
	return pm->cur_w > 0 && in_outer && !in_inner;
}

/* Every pixel of the main map's picture is its element's color (fewer
 * elements than pixels) or its block's mean's (more), the block as
 * pe_field_span cuts the map into the picture's samples. */
static void
check_pixels(const struct pe_config *cfg, struct pe_scale sc)
{
	struct pe_model m;
	struct pe_canvas cv;
	struct pe_state st;
	frame(cfg, 120, 40, 10, 20, &m, &cv, &st);
	cr_assert_eq(cv.npix, 1, "one picture: the main map");
	const struct pe_pixmap *pm = &cv.pix[0];
	cr_assert_eq(pm->pw, pm->w * 10);
	cr_assert_eq(pm->ph, pm->h * 20);
	size_t rows = m.main.rows, cols = m.main.cols;
	cr_assert_eq(pm->r1 - pm->r0, rows);
	cr_assert_eq(pm->nr, rows < (size_t)pm->ph ? rows : (size_t)pm->ph);
	long bad = 0;
	for (int y = 0; y < pm->ph; y++) {
		size_t a0, a1, b0, b1;
		/* pixel row y shows sample floor(nr y / ph) */
		size_t sr = (size_t)((unsigned long long)pm->nr * (size_t)y /
		    (size_t)pm->ph);
		pe_field_span(0, rows, pm->nr, sr, &a0, &a1);
		for (int x = 0; x < pm->pw; x++) {
			if (on_cursor(pm, x, y))
				continue;
			size_t scol = (size_t)((unsigned long long)pm->nc *
			    (size_t)x / (size_t)pm->pw);
			pe_field_span(0, cols, pm->nc, scol, &b0, &b1);
			pe_color want;
			if (a1 - a0 == 1 && b1 - b0 == 1) {
				double v = pe_field_value(&m.main, a0, b0);
				want = pe_cmap_color(sc.cmap, pe_scale_t(&sc, v));
			} else {
				struct pe_stats s;
				cr_assert_eq(pe_field_block(&m.main, a0, a1, b0, b1,
				    false, &s), PE_OK);
				want = pe_scale_color(&sc, &s);
			}
			uint32_t got = pm->rgb[(size_t)y * (size_t)pm->pw +
			    (size_t)x];
			if ((got & 0xffffff) != (uint32_t)want || got >> 24 != 0xff)
				bad++;
		}
	}
	cr_expect_eq(bad, 0, "%ld pixels differ from the kernel's colors", bad);
	pe_canvas_free(&cv);
	pe_model_free(&m);
}

Test(graphics, elements_magnified_are_exact)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_SINUSOIDAL;
	cfg.n = 40, cfg.d = 24;
	check_pixels(&cfg, (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false});
}

Test(graphics, block_means_at_pixel_resolution)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_SINUSOIDAL;
	cfg.n = 100003, cfg.d = 2048; /* n prime: bands of one row */
	check_pixels(&cfg, (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false});
	cfg.n = 65536; /* bands of many rows */
	check_pixels(&cfg, (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false});
}

/* Whether two cells show the same (the levels only where marked). */
static bool
same_cell(const struct pe_cell *a, const struct pe_cell *b)
{
	return a->cp == b->cp && a->fg == b->fg && a->bg == b->bg &&
	    a->attr == b->attr && a->kind == b->kind && a->shade == b->shade &&
	    a->ramp == b->ramp && a->lvok == b->lvok &&
	    (!(a->lvok & 1) || a->lv[0] == b->lv[0]) &&
	    (!(a->lvok & 2) || a->lv[1] == b->lv[1]);
}

/* The cells of a frame with a pixel layer are the cells of the frame
 * without, but for the inspector's line about the cursor's sample (then
 * a pixel's) and the status line's hint: the cell writers print what they
 * did, and --graphics cells (no pixel layer) is today's frame. */
Test(graphics, cells_unchanged_by_pixels)
{
	struct pe_config cfg;
	struct pe_model m1, m2;
	struct pe_canvas a, b;
	struct pe_state s1, s2;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.n = 4096;
	frame(&cfg, 120, 40, 0, 0, &m1, &a, &s1);
	frame(&cfg, 120, 40, 9, 18, &m2, &b, &s2);
	cr_assert_eq(a.npix, 0);
	cr_assert_eq(b.npix, 1);
	b.px_by = NULL;
	cr_assert_eq(pe_view_render(&s2, &m2, &b, NULL), PE_OK);
	for (int y = 0; y < 40; y++) {
		if (y == 40 - 2)
			continue; /* the inspector's sample: the pixel's */
		int x0 = -1;
		for (int x = 0; x < 120 && x0 < 0; x++)
			if (!same_cell(&a.cells[y * 120 + x], &b.cells[y * 120 + x]))
				x0 = x;
		cr_expect_eq(x0, -1, "a pixel layer changed line %d at column "
		    "%d", y, x0);
	}
	pe_canvas_free(&a);
	pe_canvas_free(&b);
	pe_model_free(&m1);
	pe_model_free(&m2);
}

/* Base64 (RFC 4648) of s[n] into out; the bytes written. */
static size_t
unbase64(const char *s, size_t n, unsigned char *out)
{
	unsigned v = 0;
	int bits = 0;
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		const char *al = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789+/";
		const char *p = strchr(al, s[i]);
		if (s[i] == '=' || p == NULL)
			break;
		v = v << 6 | (unsigned)(p - al);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (unsigned char)(v >> bits);
		}
	}
	return o;
}

/* A small frame's picture (a map of 40 x 24 elements). */
static void
small_picture(struct pe_model *m, struct pe_canvas *cv, int pw, int ph)
{
	struct pe_config cfg;
	struct pe_state st;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_SINUSOIDAL;
	cfg.n = 40, cfg.d = 24;
	frame(&cfg, 100, 30, pw, ph, m, cv, &st);
	cr_assert_eq(cv->npix, 1);
}

/* kitty: APC G pieces, the first with the picture's size (s=, v=) and
 * cells (c=, r=), each piece's payload base64 of RGBA on its own; every
 * pixel's color is the picture's. chafa 1.12's scaler writes alpha 243
 * on one pixel in 128 (fixed in later chafa): counted, and bounded. */
Test(graphics, kitty_payload_is_the_picture)
{
	struct pe_model m;
	struct pe_canvas cv;
	small_picture(&m, &cv, 10, 20);
	const struct pe_pixmap *pm = &cv.pix[0];
	char *b;
	size_t n;
	cr_assert_eq(pe_gfx_encode(PE_GFX_KITTY, pm, 10, 20, &b, &n), 0);
	char head[96];
	snprintf(head, sizeof head, "\033_Ga=T,f=32,s=%d,v=%d,c=%d,r=%d,", pm->pw,
	    pm->ph, pm->w, pm->h);
	cr_assert(strncmp(b, head, strlen(head)) == 0, "header %.60s", b);
	size_t want = (size_t)pm->pw * (size_t)pm->ph * 4, got = 0;
	unsigned char *raw = malloc(want + 16);
	for (char *p = b; (p = strstr(p, "\033_G")) != NULL;) {
		char *semi = strchr(p, ';'), *end = strstr(p, "\033\\");
		cr_assert_not_null(end);
		if (semi != NULL && semi < end) {
			cr_assert(got + (size_t)(end - semi) * 3 / 4 <= want + 4);
			got += unbase64(semi + 1, (size_t)(end - semi - 1), raw + got);
		}
		p = end + 2;
	}
	cr_assert_eq(got, want);
	long bad = 0, alpha = 0;
	for (size_t i = 0; i < (size_t)pm->pw * (size_t)pm->ph; i++) {
		uint32_t rgb = (uint32_t)raw[4 * i] << 16 |
		    (uint32_t)raw[4 * i + 1] << 8 | raw[4 * i + 2];
		bad += rgb != (pm->rgb[i] & 0xffffff);
		alpha += raw[4 * i + 3] != 255;
	}
	cr_expect_eq(bad, 0, "%ld pixels differ", bad);
	cr_expect_leq(alpha, (long)((size_t)pm->pw * (size_t)pm->ph / 128 + 1),
	    "%ld pixels not opaque", alpha);
	free(raw);
	free(b);
	pe_canvas_free(&cv);
	pe_model_free(&m);
}

/* sixel: DCS P1;1;0 q, raster attributes "1;1;W;H6 (H rounded up to the
 * bands of 6, the rows added left transparent), registers #n;2;r;g;b in
 * percent; every pixel painted, with its picture's color within the
 * palette's (256 registers for the picture's 960 colors) and the
 * percent's rounding. */
Test(graphics, sixel_payload_is_the_picture)
{
	struct pe_model m;
	struct pe_canvas cv;
	small_picture(&m, &cv, 9, 17);
	const struct pe_pixmap *pm = &cv.pix[0];
	char *b;
	size_t n;
	cr_assert_eq(pe_gfx_encode(PE_GFX_SIXEL, pm, 9, 17, &b, &n), 0);
	int W = pm->pw, H = (pm->ph + 5) / 6 * 6, rw, rh;
	char *q = strchr(b, 'q');
	cr_assert(strncmp(b, "\033P", 2) == 0 && q != NULL);
	cr_assert_eq(sscanf(q + 1, "\"1;1;%d;%d", &rw, &rh), 2);
	cr_assert_eq(rw, W);
	cr_assert_eq(rh, H);
	int32_t *img = malloc((size_t)W * (size_t)H * sizeof *img);
	for (size_t i = 0; i < (size_t)W * (size_t)H; i++)
		img[i] = -1;
	static int32_t reg[4096];
	int x = 0, band = 0, cur = 0;
	for (char *p = strchr(q, '#'); p != NULL && *p != '\0' && *p != '\033';) {
		if (*p == '#') {
			int k, r, g, bl, used;
			if (sscanf(p, "#%d;2;%d;%d;%d%n", &k, &r, &g, &bl, &used) == 4) {
				reg[k & 4095] = (int32_t)(lround(r * 2.55) << 16 |
				    lround(g * 2.55) << 8 | lround(bl * 2.55));
				p += used;
			} else {
				sscanf(p, "#%d%n", &k, &used);
				p += used;
			}
			cur = k & 4095;
			continue;
		}
		if (*p == '$' || *p == '-') {
			band += *p == '-';
			x = 0;
			p++;
			continue;
		}
		int rep = 1, used = 0;
		if (*p == '!') {
			sscanf(p, "!%d%n", &rep, &used);
			p += used;
		}
		int v = *p - 63;
		for (int k = 0; k < rep; k++, x++)
			for (int bit = 0; bit < 6; bit++)
				if (v >> bit & 1 && x < W && band * 6 + bit < H)
					img[(size_t)(band * 6 + bit) * (size_t)W +
					    (size_t)x] = reg[cur];
		p++;
	}
	long unset = 0, pad = 0, worst = 0;
	for (int y = 0; y < H; y++)
		for (int xx = 0; xx < W; xx++) {
			int32_t c = img[(size_t)y * (size_t)W + (size_t)xx];
			if (y >= pm->ph) {
				pad += c != -1;
				continue;
			}
			if (c < 0) {
				unset++;
				continue;
			}
			uint32_t w = pm->rgb[(size_t)y * (size_t)W + (size_t)xx];
			for (int sh = 0; sh < 24; sh += 8) {
				long d = labs((long)(c >> sh & 255) - (long)(w >> sh & 255));
				worst = d > worst ? d : worst;
			}
		}
	cr_expect_eq(unset, 0, "%ld pixels not painted", unset);
	cr_expect_eq(pad, 0, "%ld rows below the picture painted", pad);
	/* chafa's sixel palette has 256 registers, in percent */
	cr_expect_leq(worst, 16, "a channel %ld off", worst);
	free(img);
	free(b);
	pe_canvas_free(&cv);
	pe_model_free(&m);
}

/* Pictures follow a part of a frame copied into it (compare's panes, a
 * lesson's view), moved with it. */
Test(graphics, blit_moves_pictures)
{
	struct pe_canvas a, b;
	cr_assert_eq(pe_canvas_init(&a, 20, 10), PE_OK);
	cr_assert_eq(pe_canvas_init(&b, 30, 12), PE_OK);
	pe_canvas_want_pixels(&a, 4, 8, NULL);
	pe_canvas_want_like(&b, &a);
	struct pe_pixmap *pm = pe_canvas_pixmap(&a, 2, 3, 5, 4);
	cr_assert_not_null(pm);
	pm->rgb[7] = 0xff123456u;
	cr_assert_eq(pe_canvas_blit(&b, 6, 1, &a), PE_OK);
	cr_assert_eq(b.npix, 1);
	cr_expect_eq(b.pix[0].x, 8);
	cr_expect_eq(b.pix[0].y, 4);
	cr_expect_eq(b.pix[0].rgb[7], 0xff123456u);
	cr_expect_eq(pe_canvas_pixmap_at(&b, 12, 7), &b.pix[0]);
	cr_expect_null(pe_canvas_pixmap_at(&b, 13, 7));
	pe_canvas_clear(&b);
	cr_expect_eq(b.npix, 0);
	pe_canvas_free(&a);
	pe_canvas_free(&b);
}
