/* Canvas: cells, clipping, UTF-8 text, boxes. */
#include <criterion/criterion.h>
#include <string.h>

#include "render/canvas.h"
#include "render/palette.h"
#include "pescope/pescope.h"

Test(canvas, init_blank_and_free)
{
	struct pe_canvas cv;

	cr_assert_eq(pe_canvas_init(&cv, 7, 3), PE_OK);
	cr_expect_eq(cv.w, 7);
	cr_expect_eq(cv.h, 3);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 7; x++) {
			struct pe_cell *c = pe_canvas_at(&cv, x, y);
			cr_assert_not_null(c);
			cr_expect_eq(c->cp, ' ');
			cr_expect_eq(c->fg, PE_COLOR_DEFAULT);
			cr_expect_eq(c->bg, PE_COLOR_DEFAULT);
			cr_expect_eq(c->kind, PE_CELL_TEXT);
		}
	pe_canvas_free(&cv);
	cr_expect_null(cv.cells);
	pe_canvas_free(&cv); /* twice is harmless */
}

Test(canvas, init_rejects_empty)
{
	struct pe_canvas cv;

	cr_expect_eq(pe_canvas_init(&cv, 0, 3), PE_EINVAL);
	cr_expect_eq(pe_canvas_init(&cv, 3, -1), PE_EINVAL);
	cr_expect_null(cv.cells);
}

Test(canvas, at_and_set_clip)
{
	struct pe_canvas cv;

	cr_assert_eq(pe_canvas_init(&cv, 4, 2), PE_OK);
	cr_expect_null(pe_canvas_at(&cv, -1, 0));
	cr_expect_null(pe_canvas_at(&cv, 4, 0));
	cr_expect_null(pe_canvas_at(&cv, 0, 2));
	pe_canvas_set(&cv, 10, 10, 'x', 1, 2, 0); /* ignored */
	pe_canvas_set(&cv, 3, 1, 'x', 0x123456, 0x654321, PE_ATTR_BOLD);
	struct pe_cell *c = pe_canvas_at(&cv, 3, 1);
	cr_expect_eq(c->cp, 'x');
	cr_expect_eq(c->fg, 0x123456);
	cr_expect_eq(c->bg, 0x654321);
	cr_expect_eq(c->attr, PE_ATTR_BOLD);
	/* Row-major layout. */
	cr_expect_eq(c, &cv.cells[1 * 4 + 3]);
	pe_canvas_clear(&cv);
	cr_expect_eq(c->cp, ' ');
	pe_canvas_free(&cv);
}

Test(canvas, utf8_round_trip)
{
	const uint32_t cps[] = {0x41, 0xb7, 0x2580, 0x28ff, 0x1f600};
	const int lens[] = {1, 2, 3, 3, 4};

	for (size_t i = 0; i < 5; i++) {
		char buf[5] = {0};
		uint32_t back;
		cr_expect_eq(pe_utf8_encode(cps[i], buf), lens[i]);
		cr_expect_eq(pe_utf8_decode(buf, &back), lens[i]);
		cr_expect_eq(back, cps[i]);
	}
	/* U+2580 is E2 96 80 (Unicode 15, Block Elements). */
	char b[4];
	pe_utf8_encode(0x2580, b);
	cr_expect_eq((unsigned char)b[0], 0xe2);
	cr_expect_eq((unsigned char)b[1], 0x96);
	cr_expect_eq((unsigned char)b[2], 0x80);
}

Test(canvas, utf8_invalid)
{
	uint32_t cp;

	cr_expect_eq(pe_utf8_decode("", &cp), 0);
	cr_expect_eq(pe_utf8_decode("\xff", &cp), 1);
	cr_expect_eq(cp, 0xfffd);
	cr_expect_eq(pe_utf8_decode("\xe2\x96", &cp), 1); /* truncated */
	cr_expect_eq(cp, 0xfffd);
	cr_expect_eq(pe_utf8_decode("\xc0\x80", &cp), 1); /* overlong NUL */
	cr_expect_eq(cp, 0xfffd);
	cr_expect_eq(pe_utf8_decode("\xed\xa0\x80", &cp), 1); /* surrogate */
	cr_expect_eq(cp, 0xfffd);
}

Test(canvas, text_one_cell_per_code_point)
{
	struct pe_canvas cv;

	cr_assert_eq(pe_canvas_init(&cv, 10, 1), PE_OK);
	cr_expect_eq(pe_canvas_text(&cv, 1, 0, 10,
	                            "a\xc2\xb7"
	                            "b",
	                            5, 6, 0),
	             3);
	cr_expect_eq(pe_canvas_at(&cv, 1, 0)->cp, 'a');
	cr_expect_eq(pe_canvas_at(&cv, 2, 0)->cp, 0xb7);
	cr_expect_eq(pe_canvas_at(&cv, 3, 0)->cp, 'b');
	cr_expect_eq(pe_canvas_at(&cv, 3, 0)->fg, 5);
	/* max_w and the right edge clip. */
	cr_expect_eq(pe_canvas_text(&cv, 0, 0, 2, "xyz", 0, 0, 0), 2);
	cr_expect_eq(pe_canvas_at(&cv, 2, 0)->cp, 0xb7);
	cr_expect_eq(pe_canvas_text(&cv, 8, 0, 10, "uvw", 0, 0, 0), 2);
	cr_expect_eq(pe_canvas_at(&cv, 9, 0)->cp, 'v');
	/* Off-canvas rows write nothing. */
	cr_expect_eq(pe_canvas_text(&cv, 0, 1, 10, "q", 0, 0, 0), 0);
	pe_canvas_free(&cv);
}

Test(canvas, printf_long)
{
	struct pe_canvas cv;
	char big[600];

	memset(big, 'z', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	cr_assert_eq(pe_canvas_init(&cv, 20, 2), PE_OK);
	cr_expect_eq(pe_canvas_printf(&cv, 0, 0, 20, 1, 2, 0, "n=%d", 42), 4);
	cr_expect_eq(pe_canvas_at(&cv, 3, 0)->cp, '2');
	cr_expect_eq(pe_canvas_printf(&cv, 0, 1, 20, 1, 2, 0, "%s", big), 20);
	cr_expect_eq(pe_canvas_at(&cv, 19, 1)->cp, 'z');
	pe_canvas_free(&cv);
}

Test(canvas, fill_and_box)
{
	struct pe_canvas cv;

	cr_assert_eq(pe_canvas_init(&cv, 12, 4), PE_OK);
	pe_canvas_fill(&cv, 10, 2, 5, 5, '#', 1, 2); /* clipped */
	cr_expect_eq(pe_canvas_at(&cv, 11, 3)->cp, '#');
	cr_expect_eq(pe_canvas_at(&cv, 9, 3)->cp, ' ');
	pe_canvas_box(&cv, 0, 0, 10, 4, "Hi", 7);
	cr_expect_eq(pe_canvas_at(&cv, 0, 0)->cp, 0x250c);
	cr_expect_eq(pe_canvas_at(&cv, 9, 0)->cp, 0x2510);
	cr_expect_eq(pe_canvas_at(&cv, 0, 3)->cp, 0x2514);
	cr_expect_eq(pe_canvas_at(&cv, 9, 3)->cp, 0x2518);
	cr_expect_eq(pe_canvas_at(&cv, 0, 1)->cp, 0x2502);
	cr_expect_eq(pe_canvas_at(&cv, 5, 3)->cp, 0x2500);
	/* The title sits in the top edge, away from the corners. */
	char top[16] = {0};
	for (int x = 0; x < 10; x++) {
		uint32_t cp = pe_canvas_at(&cv, x, 0)->cp;
		top[x] = cp < 0x80 ? (char)cp : '-';
	}
	cr_expect(strstr(top, "Hi") != NULL, "top edge: %s", top);
	cr_expect_eq(pe_canvas_at(&cv, 1, 0)->cp, 0x2500);
	pe_canvas_free(&cv);
}

/* Maps are pictures only where the canvas is written at 256 colors or
 * more: a picture's pixels are the colormap's 24-bit colors, its legend is
 * cells, which at 16 colors or fewer could not show them. */
Test(canvas, pictures_only_where_the_legend_can_show_them)
{
	static const struct {
		enum pe_depth d;
		bool pictures;
	} at[] = {{PE_DEPTH_TRUECOLOR, true}, {PE_DEPTH_256, true},
	    {PE_DEPTH_16, false}, {PE_DEPTH_8, false}, {PE_DEPTH_MONO, false}};
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		struct pe_canvas cv;
		cr_assert_eq(pe_canvas_init(&cv, 20, 10), PE_OK);
		cv.depth = (int)at[i].d;
		cr_expect(!pe_canvas_pictures(&cv), "no pixel layer asked");
		cr_assert_eq(pe_canvas_want_pixels(&cv, 8, 16, "test"), PE_OK);
		cr_expect_eq(pe_canvas_pictures(&cv), at[i].pictures, "%s",
		    pe_depth_name(at[i].d));
		struct pe_pixmap *pm = pe_canvas_pixmap(&cv, 1, 1, 4, 3);
		cr_expect_eq(pm != NULL, at[i].pictures, "%s: a picture",
		    pe_depth_name(at[i].d));
		cr_expect_eq(cv.npix, at[i].pictures ? 1 : 0);
		pe_canvas_free(&cv);
	}
}
