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
#include <unistd.h>

#include "helpers.h"
#include "pescope/learned.h"
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
	cfg.n = 100003, cfg.d = 2048; /* n prime: rectangles of columns */
	check_pixels(&cfg, (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false});
	cfg.n = 65536; /* bands of many rows */
	check_pixels(&cfg, (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false});
	cfg.n = 2 * 100003; /* bands of 320 rows */
	check_pixels(&cfg, (struct pe_scale){PE_CMAP_DIVERGING, -1, 1, false});
	/* rope's angles, n and the pairs prime: calls of one row */
	cfg.enc = PE_ENC_ROPE;
	cfg.n = 100003, cfg.d = 2 * 1021;
	check_pixels(&cfg, (struct pe_scale){PE_CMAP_CYCLIC, 0, PE_TWO_PI,
	    true});
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
 * pixel's color is the picture's, and opaque (chafa 1.12's base64 writes
 * the last byte of each 512, an alpha, as 243, fixed in later chafa:
 * pescope sets those digits right). */
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
	cr_expect_eq(alpha, 0, "%ld pixels not opaque", alpha);
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
	/* its pixels are the caller's to write, every one */
	memset(pm->rgb, 0, (size_t)pm->pw * (size_t)pm->ph * sizeof *pm->rgb);
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

/* The pixels of picture pm and fresh's (the same frame from a model of
 * its own, so nothing kept) differ in how many. */
static long
pixels_differ(const struct pe_pixmap *pm, const struct pe_pixmap *fresh)
{
	long bad = 0;
	cr_assert_eq(pm->pw, fresh->pw);
	cr_assert_eq(pm->ph, fresh->ph);
	for (size_t i = 0; i < (size_t)pm->pw * (size_t)pm->ph; i++)
		bad += pm->rgb[i] != fresh->rgb[i];
	return bad;
}

/* How many cells of a and b differ. */
static long
cells_differ(const struct pe_canvas *a, const struct pe_canvas *b)
{
	long bad = 0;
	cr_assert_eq(a->w, b->w);
	cr_assert_eq(a->h, b->h);
	for (int i = 0; i < a->w * a->h; i++)
		bad += !same_cell(&a->cells[i], &b->cells[i]);
	return bad;
}

/* The frame of st drawn with a model of its own (nothing kept) on a
 * canvas like cv. */
static void
fresh_frame(const struct pe_config *cfg, const struct pe_state *st,
    struct pe_canvas *fresh)
{
	struct pe_model m;
	cr_assert_eq(pe_model_init(&m, cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(fresh, 120, 40), PE_OK);
	cr_assert_eq(pe_canvas_want_pixels(fresh, 10, 20, "test"), PE_OK);
	cr_assert_eq(pe_view_render(st, &m, fresh, NULL), PE_OK);
	cr_assert_eq(fresh->npix, 1);
	pe_model_free(&m);
}

/* A picture is kept while what it shows is unchanged: the cursor moved,
 * its serial is the same and its pixels are a fresh frame's (the new
 * cursor's frame included); the viewport or the scale changed, it is a
 * new picture, again a fresh frame's; its pixels without the frame are
 * the same whatever the cursor. */
Test(graphics, picture_kept_while_unchanged)
{
	struct pe_config cfg;
	struct pe_model m;
	struct pe_canvas cv, fresh;
	struct pe_state st;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.n = 65536, cfg.d = 256;
	frame(&cfg, 120, 40, 10, 20, &m, &cv, &st);
	const struct pe_pixmap *pm = &cv.pix[0];
	uint64_t first = pm->serial;
	size_t np = (size_t)pm->pw * (size_t)pm->ph;
	uint32_t *plain = malloc(np * sizeof *plain);
	uint32_t *plain2 = malloc(np * sizeof *plain2);
	cr_assert_neq(first, 0);
	pe_pixmap_plain(pm, plain);
	st.cur_r += 5000, st.cur_c += 7;
	pe_state_clamp(&st);
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	pm = &cv.pix[0];
	cr_expect_eq(pm->serial, first, "the cursor moved: the same picture");
	fresh_frame(&cfg, &st, &fresh);
	cr_expect_neq(fresh.pix[0].serial, first);
	cr_expect_eq(pixels_differ(pm, &fresh.pix[0]), 0);
	cr_expect_eq(cells_differ(&cv, &fresh), 0, "the kept cells are a fresh "
	    "frame's");
	pe_pixmap_plain(pm, plain2);
	cr_expect_eq(memcmp(plain, plain2, np * sizeof *plain), 0,
	    "without the cursor's frame the pixels are the same");
	long framed = 0;
	for (int y = 0; y < pm->ph; y++)
		for (int x = 0; x < pm->pw; x++)
			framed += pe_pixmap_on_frame(pm, x, y) &&
			    pm->rgb[(size_t)y * (size_t)pm->pw + (size_t)x] !=
			    plain2[(size_t)y * (size_t)pm->pw + (size_t)x];
	cr_expect_gt(framed, 0, "the frame is drawn over the picture");
	/* the frame exchanged with what it covers: the plain picture; and
	 * back */
	uint32_t *was = malloc(np * sizeof *was);
	memcpy(was, pm->rgb, np * sizeof *was);
	pe_pixmap_swap_frame(&cv.pix[0]);
	cr_expect_eq(memcmp(pm->rgb, plain2, np * sizeof *plain2), 0);
	pe_pixmap_swap_frame(&cv.pix[0]);
	cr_expect_eq(memcmp(pm->rgb, was, np * sizeof *was), 0);
	free(was);
	pe_canvas_free(&fresh);
	/* scrolled: a new picture */
	st.vr0 = 1000, st.vr1 = 40000, st.vc0 = 0, st.vc1 = cfg.d / 2;
	pe_state_clamp(&st);
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	pm = &cv.pix[0];
	cr_expect_neq(pm->serial, first, "scrolled: a new picture");
	fresh_frame(&cfg, &st, &fresh);
	cr_expect_eq(pixels_differ(pm, &fresh.pix[0]), 0);
	cr_expect_eq(cells_differ(&cv, &fresh), 0);
	pe_canvas_free(&fresh);
	/* and back: kept from before (two are kept) */
	st.vr0 = st.vr1 = st.vc0 = st.vc1 = 0;
	pe_state_clamp(&st);
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	cr_expect_eq(cv.pix[0].serial, first);
	free(plain);
	free(plain2);
	pe_canvas_free(&cv);
	pe_model_free(&m);
}

/* kitty's pieces of one image transmission in s (a=T: sent and placed,
 * a=t: only sent): its control keys (up to the first ';' or ESC) into
 * keys, its payload decoded into raw (at most cap bytes); the end of the
 * transmission, or NULL when s has none. */
static const char *
kitty_image(const char *s, char *keys, size_t kcap, unsigned char *raw,
    size_t cap, size_t *got)
{
	const char *p = s;
	while ((p = strstr(p, "\033_Ga=")) != NULL && p[5] != 'T' &&
	    p[5] != 't')
		p += 5;
	*got = 0;
	if (p == NULL)
		return NULL;
	size_t k = strcspn(p + 3, ";\033");
	snprintf(keys, kcap, "%.*s", (int)k, p + 3);
	for (bool more = true; more;) {
		const char *semi = strchr(p, ';'), *end = strstr(p, "\033\\");
		cr_assert_not_null(end);
		more = strstr(p, "m=1") != NULL && strstr(p, "m=1") < end;
		if (semi != NULL && semi < end) {
			cr_assert(*got + (size_t)(end - semi) * 3 / 4 <= cap + 4);
			*got += unbase64(semi + 1, (size_t)(end - semi - 1),
			    raw + *got);
		}
		p = end + 2;
		if (more)
			cr_assert(strncmp(p, "\033_G", 3) == 0);
	}
	return p;
}

/* The bytes pe_gfx_after writes to f (a memory stream, *buf its bytes,
 * *len their count, *off where this frame's start) for a render of st. */
static const char *
kitty_frame(const struct pe_state *st, const struct pe_model *m,
    struct pe_canvas *cv, FILE *f, char **buf, size_t *len, size_t *off)
{
	cr_assert_eq(pe_view_render(st, m, cv, NULL), PE_OK);
	fflush(f);
	*off = *len;
	pe_gfx_before(cv, false);
	pe_gfx_after(cv);
	fflush(f);
	return *buf + *off;
}

/* The most images a kitty picture is cut into (graphics.c's bands). */
#define KITTY_BANDS 8

/* A kitty picture in s (the TUI's frame bytes), its bands images with
 * ids of their own, each of whole cell rows, one below the other from
 * pm's top to its bottom. early: their data first (a=t, before the
 * update), then, after the update begins (ESC [ ? 2026 h, when update),
 * each placed (a=p, z 0, its cells, the cursor kept) at its band's first
 * cell by the move just before it; else (a frame from a screen not
 * known, which curses clears) each sent and placed at once (a=T) there.
 * Their ids into ids (*nid of them), their pixels in order into raw
 * (*got bytes); where s goes on after the last placement. */
static const char *
kitty_picture(const char *s, const struct pe_pixmap *pm, unsigned *ids,
    int *nid, unsigned char *raw, size_t cap, size_t *got, bool update,
    bool early)
{
	int row = 0, rows[KITTY_BANDS];
	char keys[128];
	*nid = 0;
	*got = 0;
	while (row < pm->h) {
		size_t n;
		const char *next = kitty_image(s, keys, sizeof keys, raw + *got,
		    cap - *got, &n);
		cr_assert_not_null(next, "band at cell row %d", row);
		unsigned id = 0;
		int w = 0, h = 0, c = 0, r = 0;
		if (early) {
			cr_assert_eq(sscanf(keys, "a=t,i=%u,q=2,f=32,s=%d,v=%d,c=%d,"
			    "r=%d", &id, &w, &h, &c, &r), 5, "%s", keys);
		} else {
			cr_assert_eq(sscanf(keys, "a=T,i=%u,z=0,q=2,C=1,f=32,s=%d,"
			    "v=%d,c=%d,r=%d", &id, &w, &h, &c, &r), 5, "%s", keys);
			char at[48];
			snprintf(at, sizeof at, "\033[%d;%dH\033_Ga=T,i=%u,",
			    pm->y + row + 1, pm->x + 1, id);
			cr_assert_not_null(strstr(s, at), "band at its cells");
		}
		cr_assert_eq(w, pm->pw);
		cr_assert_eq(c, pm->w);
		cr_assert(r > 0 && row + r <= pm->h, "%d rows at %d", r, row);
		cr_assert_eq(h, r * (pm->ph / pm->h));
		cr_assert_eq(n, (size_t)w * (size_t)h * 4);
		cr_assert_lt(*nid, KITTY_BANDS);
		for (int k = 0; k < *nid; k++)
			cr_assert_neq(ids[k], id, "ids of their own");
		rows[*nid] = r;
		ids[(*nid)++] = id;
		*got += n;
		row += r;
		s = next;
	}
	if (!early)
		return s;
	if (update) {
		const char *u = strstr(s, "\033[?2026h");
		cr_assert_not_null(u, "the update after the data");
		s = u;
	}
	row = 0;
	for (int k = 0; k < *nid; k++) {
		char want[96];
		snprintf(want, sizeof want, "\033[%d;%dH\033_Ga=p,i=%u,z=0,c=%d,"
		    "r=%d,C=1,q=2\033\\", pm->y + row + 1, pm->x + 1, ids[k],
		    pm->w, rows[k]);
		const char *q = strstr(s, want);
		cr_assert_not_null(q, "band %d placed at its cells", k);
		s = q + strlen(want);
		row += rows[k];
	}
	return s;
}

/* What the TUI writes with kitty: the picture once, without the cursor's
 * frame, as images with ids of their own (bands of whole cell rows, made
 * at once; their pixels decoded are the picture's but for the frame;
 * their data before the update, their placements in it),
 * and the frame an image of its own over it (z 1, transparent but for
 * the rings, at the cells it touches); a cursor that moves replaces only
 * the frame; a frame with nothing changed writes no image; a new picture
 * deletes the old by its ids. */
Test(graphics, kitty_sends_a_picture_once)
{
	struct pe_config cfg;
	struct pe_model m, m2;
	struct pe_canvas cv;
	struct pe_state st;
	char keys[128];
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_SINUSOIDAL;
	cfg.n = 4096, cfg.d = 256;
	frame(&cfg, 120, 40, 10, 20, &m, &cv, &st);
	const struct pe_pixmap *pm = &cv.pix[0];
	size_t np = (size_t)pm->pw * (size_t)pm->ph, got, len;
	unsigned char *raw = malloc(np * 4 + 16);
	uint32_t *plain = malloc(np * sizeof *plain);

	char *buf = NULL;
	size_t blen = 0, off = 0;
	FILE *f = open_memstream(&buf, &blen);
	cr_assert_not_null(f);
	pe_gfx_offscreen(PE_GFX_KITTY, f);
	const char *b = kitty_frame(&st, &m, &cv, f, &buf, &blen, &off);
	pm = &cv.pix[0]; /* the render made the canvas's pictures again */
	/* the picture: bands with ids, z 0, its plain pixels */
	unsigned ids[KITTY_BANDS], fid = 0;
	int nid = 0;
	const char *next = kitty_picture(b, pm, ids, &nid, raw, np * 4, &got,
	    true, false);
	cr_expect_eq(nid, 2, "a large picture in two bands");
	cr_assert_eq(got, np * 4);

	pe_pixmap_plain(pm, plain);
	long bad = 0;
	for (size_t i = 0; i < np; i++)
		bad += ((uint32_t)raw[4 * i] << 16 | (uint32_t)raw[4 * i + 1] << 8 |
		    raw[4 * i + 2]) != (plain[i] & 0xffffff);
	cr_expect_eq(bad, 0, "%ld pixels differ from the picture's", bad);
	/* the cursor's frame: z 1, over the cells it touches, its rings
	 * opaque (chafa 1.12's alpha 243 in one pixel in 128 repaired) */
	int cw = 10, ch = 20;
	int cx0 = (pm->cur_x - 2) / cw, cx1 = (pm->cur_x + pm->cur_w + 2 + cw -
	    1) / cw;
	int cy0 = (pm->cur_y - 2) / ch, cy1 = (pm->cur_y + pm->cur_h + 2 + ch -
	    1) / ch;
	char at[32];
	snprintf(at, sizeof at, "\033[%d;%dH", pm->y + cy0 + 1, pm->x + cx0 + 1);
	cr_assert_not_null(strstr(next, at), "the frame at its cells");
	next = kitty_image(next, keys, sizeof keys, raw, np * 4, &got);
	cr_assert_not_null(next);
	int fw = 0, fh = 0, fc = 0, fr = 0;
	cr_assert_eq(sscanf(keys, "a=T,i=%u,z=1,q=2,C=1,f=32,s=%d,v=%d,c=%d,r=%d",
	    &fid, &fw, &fh, &fc, &fr), 5, "%s", keys);
	cr_expect_eq(fw, (cx1 - cx0) * cw);
	cr_expect_eq(fh, (cy1 - cy0) * ch);
	cr_expect_eq(fc, cx1 - cx0);
	cr_expect_eq(fr, cy1 - cy0);
	cr_assert_eq(got, (size_t)fw * (size_t)fh * 4);
	bad = 0;
	long alpha = 0;
	for (int y = 0; y < fh; y++)
		for (int x = 0; x < fw; x++) {
			const unsigned char *q = raw + 4 * ((size_t)y * (size_t)fw +
			    (size_t)x);
			int px = cx0 * cw + x, py = cy0 * ch + y;
			bool ring = px < pm->pw && py < pm->ph &&
			    pe_pixmap_on_frame(pm, px, py);
			uint32_t want = ring ? pm->rgb[(size_t)py * (size_t)pm->pw +
			    (size_t)px] : 0;
			uint32_t have = (uint32_t)q[3] << 24 | (uint32_t)q[0] << 16 |
			    (uint32_t)q[1] << 8 | q[2];
			bad += ring ? (have & 0xffffff) != (want & 0xffffff) :
			    q[3] != 0;
			alpha += ring && q[3] != 255;
		}
	cr_expect_eq(bad, 0, "%ld pixels of the frame differ", bad);
	cr_expect_eq(alpha, 0, "%ld pixels of the rings not opaque", alpha);
	cr_expect_null(strstr(next, "\033_Ga=T"), "the bands and the frame, "
	    "no more");

	/* the cursor moves: the frame only */
	st.cur_r += 300;
	pe_state_clamp(&st);
	b = kitty_frame(&st, &m, &cv, f, &buf, &blen, &off);
	len = blen - off;
	char del[64];
	snprintf(del, sizeof del, "\033_Ga=d,d=I,i=%u,q=2\033\\", fid);
	cr_expect_not_null(strstr(b, del), "the old frame deleted");
	for (int k = 0; k < nid; k++) {
		snprintf(del, sizeof del, "\033_Ga=d,d=I,i=%u,q=2\033\\", ids[k]);
		cr_expect_null(strstr(b, del), "the picture kept");
	}
	next = kitty_image(b, keys, sizeof keys, raw, np * 4, &got);
	cr_assert_not_null(next);
	cr_expect_eq(strncmp(keys, "a=T,i=", 6), 0);
	cr_expect_not_null(strstr(keys, ",z=1,"), "only the frame: %s", keys);
	cr_expect_null(strstr(next, "\033_Ga=T"));
	cr_expect_lt(len, np / 10, "%zu bytes", len);

	/* nothing changed: no image */
	b = kitty_frame(&st, &m, &cv, f, &buf, &blen, &off);
	cr_expect_null(strstr(b, "\033_G"), "nothing written: %.40s", b);

	/* a new picture (its model made again): the old deleted by id */
	cr_assert_eq(pe_model_init(&m2, &cfg), PE_OK);
	b = kitty_frame(&st, &m2, &cv, f, &buf, &blen, &off);
	pm = &cv.pix[0];
	for (int k = 0; k < nid; k++) {
		snprintf(del, sizeof del, "\033_Ga=d,d=I,i=%u,q=2\033\\", ids[k]);
		cr_expect_not_null(strstr(b, del), "the old picture deleted");
	}
	unsigned ids2[KITTY_BANDS];
	int nid2 = 0;
	next = kitty_picture(b, pm, ids2, &nid2, raw, np * 4, &got, true,
	    true);
	/* placed before the old are deleted: kitty's d=I frees the data of
	 * every image without a placement, the new ones' too */
	{
		char pl[48];
		snprintf(pl, sizeof pl, "\033_Ga=p,i=%u,", ids2[nid2 - 1]);
		const char *last = strstr(b, pl), *first_del = strstr(b, "d=I");
		cr_assert(last != NULL && first_del != NULL);
		cr_expect_lt(last, first_del, "placements first");
	}
	/* a new picture's data went before the update: it holds the
	 * deletions, the placements and the cursor's small frame */
	const char *u0 = strstr(b, "\033[?2026h");
	const char *u1 = u0 != NULL ? strstr(u0, "\033[?2026l") : NULL;
	cr_assert(u0 != NULL && u1 != NULL);
	cr_expect_lt((size_t)(u1 - u0), np / 10, "%zu bytes in the update",
	    (size_t)(u1 - u0));
	cr_expect_eq(nid2, nid);
	for (int k = 0; k < nid2; k++)
		for (int j = 0; j < nid; j++)
			cr_expect_neq(ids2[k], ids[j], "new ids");

	/* quitting: every image of this process off, by its id (another
	 * pescope's in the same kitty stays: no delete-all, and ids of this
	 * process's own, its pid's low 20 bits above 12) */
	off = blen;
	pe_gfx_stop();
	fflush(f);
	for (int k = 0; k < nid2; k++) {
		snprintf(del, sizeof del, "\033_Ga=d,d=I,i=%u,q=2\033\\", ids2[k]);
		cr_expect_not_null(strstr(buf + off, del), "band %d deleted", k);
		cr_expect_eq(ids2[k] >> 12, (unsigned)getpid() & 0xfffffu);
	}
	cr_expect_null(strstr(buf, "d=A"), "never every image of the kitty");
	cr_expect_null(strstr(buf, "d=a"), "never every placement");
	pe_gfx_offscreen(PE_GFX_CELLS, NULL);
	fclose(f);
	free(buf);
	free(raw);
	free(plain);
	pe_canvas_free(&cv);
	pe_model_free(&m);
	pe_model_free(&m2);
}

/* Cells alone (no pixel layer): a frame where the cursor moved, and one
 * scrolled, drawn with the model that kept the map's block means, are
 * the frames a fresh model draws, cell for cell (alibi's map, and vit2d's,
 * which follows the cursor). */
static void
check_kept_cells(const struct pe_config *cfg)
{
	struct pe_model m, m2;
	struct pe_canvas cv, fresh;
	struct pe_state st;
	cr_assert_eq(pe_model_init(&m, cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(&cv, 120, 40), PE_OK);
	pe_state_init(&st, cfg);
	st.cur_r = 1;
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	cr_assert_eq(pe_canvas_init(&fresh, 120, 40), PE_OK);
	for (int k = 0; k < 3; k++) {
		if (k == 1)
			st.cur_r += 77, st.cur_c += 3;
		if (k == 2 && cfg->n > 1000)
			st.vr0 = 500, st.vr1 = 90000, st.vc0 = 10,
			st.vc1 = 80000;
		pe_state_clamp(&st);
		cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
		cr_assert_eq(pe_model_init(&m2, cfg), PE_OK);
		cr_assert_eq(pe_view_render(&st, &m2, &fresh, NULL), PE_OK);
		cr_expect_eq(cells_differ(&cv, &fresh), 0, "%s frame %d",
		    pe_encoding_name(cfg->enc), k);
		pe_model_free(&m2);
	}
	pe_canvas_free(&cv);
	pe_canvas_free(&fresh);
	pe_model_free(&m);
}

/* What tmux passes on of s (a frame written through its passthrough):
 * each "ESC P tmux; ... ESC \\" with its ESCs undoubled, as a piece of
 * its own into p[] (*np of them, malloc'd); nothing of a picture outside
 * them. */
static void
tmux_pieces(const char *s, char **p, int cap, int *np)
{
	*np = 0;
	for (const char *q = s; (q = strstr(q, "\033Ptmux;")) != NULL;) {
		cr_assert_lt(*np, cap);
		char *out = malloc(strlen(q) + 1), *o = out;
		for (q += 7;; q++) {
			cr_assert(*q != '\0', "a passthrough not ended");
			if (q[0] == '\033' && q[1] == '\033') {
				*o++ = *q++;
				continue;
			}
			if (q[0] == '\033' && q[1] == '\\')
				break;
			cr_assert(q[0] != '\033', "an ESC not doubled");
			*o++ = *q;
		}
		*o = '\0';
		p[(*np)++] = out;
		q += 2;
	}
}

/* Through tmux (allow-passthrough), a picture is placed by moving the
 * terminal's own cursor inside the passthrough, at the pane's offset on
 * the terminal: tmux moves the cursor home after each passthrough, and
 * kitty places an image where the cursor is when its last piece comes,
 * so every piece of a kitty picture starts with the move; its pieces put
 * together are the picture. A sixel picture is one passthrough (tmux's
 * own sequences between two would end it). */
Test(graphics, tmux_passthrough_places_pictures)
{
	struct pe_config cfg;
	struct pe_model m;
	struct pe_canvas cv;
	struct pe_state st;
	enum { OX = 41, OY = 7, CAP = 4096 };
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_SINUSOIDAL;
	cfg.n = 4096, cfg.d = 256;
	frame(&cfg, 120, 40, 10, 20, &m, &cv, &st);
	const struct pe_gfx_case {
		enum pe_gfx g;
	} cases[] = {{PE_GFX_KITTY}, {PE_GFX_SIXEL}};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		char *buf = NULL, **p = malloc(CAP * sizeof *p);
		size_t blen = 0, off = 0;
		int np = 0;
		FILE *f = open_memstream(&buf, &blen);
		cr_assert_not_null(f);
		pe_gfx_offscreen(cases[c].g, f);
		pe_gfx_offscreen_tmux(OX, OY);
		const char *b = kitty_frame(&st, &m, &cv, f, &buf, &blen, &off);
		const struct pe_pixmap *pm = &cv.pix[0];
		tmux_pieces(b, p, CAP, &np);
		cr_assert_gt(np, 0);
		char at[32];
		int images = 0;
		if (cases[c].g == PE_GFX_SIXEL) {
			snprintf(at, sizeof at, "\033[%d;%dH\033P", OY + pm->y + 1,
			    OX + pm->x + 1);
			for (int i = 0; i < np; i++)
				if (strstr(p[i], "\033P") != NULL) {
					images++;
					cr_expect_eq(strncmp(p[i], at, strlen(at)), 0,
					    "the sixel at its cells: %.20s", p[i] + 1);
					size_t n = strlen(p[i]);
					cr_expect(n > 2 && strcmp(p[i] + n - 2,
					    "\033\\") == 0, "whole in one");
				}
			cr_expect_eq(images, 1);
		} else {
			/* every piece of an image starts with the move to its
			 * band's first cell; the pieces together decode */
			size_t total = 0;
			for (int i = 0; i < np; i++)
				total += strlen(p[i]);
			char *joined = malloc(total + 1), *j = joined;
			for (int i = 0; i < np; i++) {
				int y = 0, x = 0, k = 0;
				bool img = strstr(p[i], "\033_Ga=T") != NULL ||
				    strstr(p[i], "\033_Ga=t") != NULL ||
				    strstr(p[i], "\033_Ga=p") != NULL ||
				    strstr(p[i], "\033_Gm=") != NULL;
				if (img) {
					images++;
					cr_assert_eq(sscanf(p[i], "\033[%d;%dH%n", &y, &x,
					    &k), 2, "piece %d starts with a move: %.12s",
					    i, p[i] + 1);
					cr_assert_gt(k, 0);
					cr_expect_eq(x, OX + pm->x + 1);
					cr_expect(y > OY + pm->y && y <= OY + pm->y +
					    pm->h, "row %d", y);
				}
				/* the picture's pieces put together, moves
				 * without the offset, as kitty_picture reads */
				if (strstr(p[i], "\033_Ga=T") != NULL ||
				    strstr(p[i], "\033_Ga=p") != NULL)
					j += sprintf(j, "\033[%d;%dH", y - OY, x - OX);
				strcpy(j, p[i] + k);
				j += strlen(j);
			}
			cr_expect_gt(images, 2);
			size_t npx = (size_t)pm->pw * (size_t)pm->ph, got;
			unsigned char *raw = malloc(npx * 4 + 16);
			uint32_t *plain = malloc(npx * sizeof *plain);
			unsigned ids[KITTY_BANDS];
			int nid = 0;
			kitty_picture(joined, pm, ids, &nid, raw, npx * 4, &got,
			    false, false);
			cr_assert_eq(got, npx * 4);
			pe_pixmap_plain(pm, plain);
			long bad = 0;
			for (size_t i = 0; i < npx; i++)
				bad += ((uint32_t)raw[4 * i] << 16 |
				    (uint32_t)raw[4 * i + 1] << 8 | raw[4 * i + 2]) !=
				    (plain[i] & 0xffffff);
			cr_expect_eq(bad, 0, "%ld pixels differ", bad);
			free(raw);
			free(plain);
			free(joined);
		}
		for (int i = 0; i < np; i++)
			free(p[i]);
		free(p);
		pe_gfx_offscreen(PE_GFX_CELLS, NULL);
		fclose(f);
		free(buf);
	}
	pe_canvas_free(&cv);
	pe_model_free(&m);
}

/* An overlay (the help, ?) is over the map: a terminal shows a picture
 * over its cells, so the pictures it covers are dropped and their cells
 * show around it; closed, the picture is back. */
Test(graphics, overlays_are_over_pictures)
{
	struct pe_config cfg;
	struct pe_model m;
	struct pe_canvas cv;
	struct pe_state st;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	frame(&cfg, 120, 40, 10, 20, &m, &cv, &st);
	cr_assert_gt(cv.npix, 0, "a picture without the help");
	st.help = true;
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	/* the box's corner: a cell with U+250C, its lines around the text */
	int bx = -1, by = -1;
	for (int y = 0; y < cv.h && bx < 0; y++)
		for (int x = 0; x < cv.w && bx < 0; x++)
			if (pe_canvas_at(&cv, x, y)->cp == 0x250c)
				bx = x, by = y;
	cr_assert_geq(bx, 0, "the help's box");
	for (int i = 0; i < cv.npix; i++) {
		const struct pe_pixmap *pm = &cv.pix[i];
		cr_expect(pm->y + pm->h <= by || pm->x + pm->w <= bx,
		    "picture %d at %d,%d %dx%d under the help at %d,%d", i,
		    pm->x, pm->y, pm->w, pm->h, bx, by);
	}
	st.help = false;
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	cr_expect_gt(cv.npix, 0, "the picture back");
	pe_canvas_free(&cv);
	pe_model_free(&m);
}

Test(graphics, kept_cells_are_fresh_cells)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 100003;
	check_kept_cells(&cfg);
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_VIT2D;
	pe_config_encoding_defaults(&cfg, false, false);
	check_kept_cells(&cfg);
}

/* The main map's picture of cfg at 120 x 40 cells of 10 x 20 pixels in a
 * theme. */
static void
mask_frame(const struct pe_config *cfg, enum pe_theme theme,
    struct pe_model *m, struct pe_canvas *cv, struct pe_state *st)
{
	cr_assert_eq(pe_model_init(m, cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(cv, 120, 40), PE_OK);
	cr_assert_eq(pe_canvas_want_pixels(cv, 10, 20, "test"), PE_OK);
	cv->theme = theme;
	pe_state_init(st, cfg);
	cr_assert_eq(pe_view_render(st, m, cv, NULL), PE_OK);
	cr_assert_eq(cv->npix, 1, "one picture: the main map");
}

/* The colors the picture's cells of a kind take in the canvas's theme:
 * the look pe_palette_look gives the first (a masked or undefined one:
 * the cell renderer's hatch or dot over its background), as RGB. */
static void
mask_cell_look(const struct pe_canvas *cv, int kind, uint32_t *bg,
    uint32_t *ink)
{
	const struct pe_pixmap *pm = &cv->pix[0];
	for (int y = pm->y; y < pm->y + pm->h; y++)
		for (int x = pm->x; x < pm->x + pm->w; x++) {
			const struct pe_cell *c = &cv->cells[(size_t)y *
			    (size_t)cv->w + (size_t)x];
			if (c->kind != kind)
				continue;
			struct pe_look lk = pe_palette_look(c, cv->depth,
			    cv->theme);
			*bg = (uint32_t)pe_look_rgb(lk.bg, cv->depth, cv->theme,
			    false);
			*ink = (uint32_t)pe_look_rgb(lk.fg, cv->depth,
			    cv->theme, true);
			return;
		}
	cr_assert_fail("no cell of kind %d under the picture", kind);
}

/* Whether cell (cx, cy) of a picture, wholly of class k, holds its
 * glyph: U+2571's diagonal (one pixel a row in a tall cell, from the
 * bottom-left corner to the top-right) or U+00B7's dot at the centre in
 * ink, background a pixel or more away from them. */
static bool
mask_cell_ok(const struct pe_pixmap *pm, int cx, int cy,
    enum pe_sample_class k, uint32_t bg, uint32_t ink)
{
	int cw = pm->pw / pm->w, ch = pm->ph / pm->h;
	bool ok = true;
	for (int v = 0; v < ch; v++)
		for (int u = 0; u < cw; u++) {
			size_t i = (size_t)(cy * ch + v) * (size_t)pm->pw +
			    (size_t)(cx * cw + u);
			uint32_t got = pm->rgb[i] & 0xffffff;
			/* the line's column in row v */
			double at = cw * (ch - v - 0.5) / ch - 0.5;
			double du = u - (cw - 1) / 2.0, dv = v - (ch - 1) / 2.0;
			double r2 = du * du + dv * dv;
			bool on = k == PE_SAMPLE_MASKED ? fabs(u - at) <= 0.5 :
			    r2 <= 1.0;
			bool off = k == PE_SAMPLE_MASKED ? fabs(u - at) >= 1.0 :
			    r2 >= 9.0;
			if ((on && got != ink) || (off && got != bg))
				ok = false;
		}
	return ok;
}

/* Masked and undefined samples in the picture look as their cells do:
 * every pixel of such a sample is the cells' background or ink, and in a
 * cell wholly of one, the ink is U+2571's diagonal (one pixel a row, from
 * the bottom-left corner to the top-right) or U+00B7's dot (at the
 * centre, the corners background); value samples are the colormap's
 * (check_pixels). Returns the sample pixels checked. */
static long
check_mask_pixels(const struct pe_canvas *cv, const struct pe_model *m,
    int kind)
{
	const struct pe_pixmap *pm = &cv->pix[0];
	enum pe_sample_class want = kind == PE_CELL_MASKED ? PE_SAMPLE_MASKED :
	    PE_SAMPLE_UNDEF;
	int cw = pm->pw / pm->w, ch = pm->ph / pm->h;
	uint32_t bg, ink;
	mask_cell_look(cv, kind, &bg, &ink);
	cr_assert_neq(bg, ink);
	long seen = 0, bad = 0, cells = 0, badcells = 0;
	/* the samples' classes, as the kernel's blocks give them */
	enum pe_sample_class *cls = malloc((size_t)pm->pw * (size_t)pm->ph *
	    sizeof *cls);
	for (int y = 0; y < pm->ph; y++) {
		size_t a0, a1, b0, b1;
		pe_field_span(pm->r0, pm->r1, pm->nr, pe_pixmap_sample(pm->nr,
		    (size_t)pm->ph, (size_t)y), &a0, &a1);
		for (int x = 0; x < pm->pw; x++) {
			struct pe_stats s;
			pe_field_span(pm->c0, pm->c1, pm->nc,
			    pe_pixmap_sample(pm->nc, (size_t)pm->pw, (size_t)x),
			    &b0, &b1);
			cr_assert_eq(pe_field_block(&m->main, a0, a1, b0, b1,
			    false, &s), PE_OK);
			size_t i = (size_t)y * (size_t)pm->pw + (size_t)x;
			cls[i] = pe_sample_class(&s);
			if (cls[i] != want || pe_pixmap_on_frame(pm, x, y))
				continue;
			uint32_t got = pm->rgb[i] & 0xffffff;
			seen++;
			bad += (got != bg && got != ink) || pm->rgb[i] >> 24 !=
			    0xff;
		}
	}
	cr_expect_gt(seen, 0, "samples of kind %d in the picture", kind);
	cr_expect_eq(bad, 0, "%ld of %ld pixels neither the cells' background "
	    "%06x nor ink %06x", bad, seen, bg, ink);
	/* cells wholly of that class, away from the cursor */
	for (int cy = 0; cy < pm->h; cy++)
		for (int cx = 0; cx < pm->w; cx++) {
			bool whole = true;
			for (int v = 0; v < ch && whole; v++)
				for (int u = 0; u < cw && whole; u++) {
					int x = cx * cw + u, y = cy * ch + v;
					whole = cls[(size_t)y * (size_t)pm->pw +
					    (size_t)x] == want &&
					    !pe_pixmap_on_frame(pm, x, y) &&
					    !on_cursor(pm, x, y);
				}
			if (!whole)
				continue;
			cells++;
			badcells += !mask_cell_ok(pm, cx, cy, want, bg, ink);
		}
	cr_expect_gt(cells, 0, "whole cells of kind %d", kind);
	cr_expect_eq(badcells, 0, "%ld of %ld cells without their glyph's "
	    "pixels", badcells, cells);
	free(cls);
	return seen;
}

/* The picture's masked and undefined samples are their cells' look at
 * pixel resolution, in the canvas's theme: alibi's causal triangle
 * hatched in the light theme's pale greys (never the dark theme's
 * near-black PE_COLOR_MASKED on a white page) and in the dark theme's;
 * a learned table's rows past max_len dotted on the undefined purple. A
 * kept picture is not reused across a theme change. */
Test(graphics, masked_and_undefined_pixels_look_like_cells)
{
	struct pe_config cfg;
	struct pe_model m;
	struct pe_canvas cv, fresh;
	struct pe_state st;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI; /* causal: the upper triangle masked */
	mask_frame(&cfg, PE_THEME_LIGHT, &m, &cv, &st);
	check_mask_pixels(&cv, &m, PE_CELL_MASKED);
	const struct pe_pixmap *pm = &cv.pix[0];
	long black = 0;
	for (size_t i = 0; i < (size_t)pm->pw * (size_t)pm->ph; i++)
		black += (pm->rgb[i] & 0xffffff) == (uint32_t)PE_COLOR_MASKED;
	cr_expect_eq(black, 0, "%ld light-theme pixels the dark theme's "
	    "masked near-black", black);
	/* the same model and canvas, dark: a new picture, not the light
	 * one kept; then light again, as fresh */
	uint64_t light = pm->serial;
	cv.theme = PE_THEME_DARK;
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	cr_expect_neq(cv.pix[0].serial, light, "a theme change: a new picture");
	check_mask_pixels(&cv, &m, PE_CELL_MASKED);
	cv.theme = PE_THEME_LIGHT;
	cr_assert_eq(pe_view_render(&st, &m, &cv, NULL), PE_OK);
	pe_model_free(&m);
	mask_frame(&cfg, PE_THEME_LIGHT, &m, &fresh, &st);
	cr_expect_eq(pixels_differ(&cv.pix[0], &fresh.pix[0]), 0,
	    "back to light: a light picture");
	pe_canvas_free(&fresh);
	pe_canvas_free(&cv);
	pe_model_free(&m);
	/* learned past max_len: undefined rows, both themes */
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_LEARNED;
	cfg.n = 80, cfg.max_len = 50;
	double *tab;
	cr_assert_eq(pe_learned_untrained(cfg.max_len, cfg.d, &tab), PE_OK);
	cfg.table = tab;
	cfg.table_untrained = true;
	for (int t = 0; t < PE_THEME_COUNT; t++) {
		mask_frame(&cfg, (enum pe_theme)t, &m, &cv, &st);
		check_mask_pixels(&cv, &m, PE_CELL_UNDEFINED);
		pe_canvas_free(&cv);
		pe_model_free(&m);
	}
	free(tab);
}
