/* A canvas as vector shapes (paint.h): the geometry the SVG and PDF
 * writers share, so both draw blocks, lines and braille the same way. */
#include <stdlib.h>
#include <string.h>

#include "render/paint.h"
#include "render/writer.h"

#define ARM_L 1u
#define ARM_R 2u
#define ARM_U 4u
#define ARM_D 8u
#define ARM_HEAVY 16u

/* Box-drawing glyphs drawn as lines (Unicode 15, U+2500..U+257F): the
 * straight ones, light and heavy, and the rounded corners drawn square. */
static const struct {
	uint32_t cp;
	unsigned arms;
} box_arms[] = {
    {0x2500, ARM_L | ARM_R}, {0x2501, ARM_L | ARM_R | ARM_HEAVY},
    {0x2502, ARM_U | ARM_D}, {0x2503, ARM_U | ARM_D | ARM_HEAVY},
    {0x250c, ARM_R | ARM_D}, {0x250f, ARM_R | ARM_D | ARM_HEAVY},
    {0x2510, ARM_L | ARM_D}, {0x2513, ARM_L | ARM_D | ARM_HEAVY},
    {0x2514, ARM_R | ARM_U}, {0x2517, ARM_R | ARM_U | ARM_HEAVY},
    {0x2518, ARM_L | ARM_U}, {0x251b, ARM_L | ARM_U | ARM_HEAVY},
    {0x251c, ARM_U | ARM_D | ARM_R},
    {0x2523, ARM_U | ARM_D | ARM_R | ARM_HEAVY},
    {0x2524, ARM_U | ARM_D | ARM_L},
    {0x252b, ARM_U | ARM_D | ARM_L | ARM_HEAVY},
    {0x252c, ARM_L | ARM_R | ARM_D},
    {0x2533, ARM_L | ARM_R | ARM_D | ARM_HEAVY},
    {0x2534, ARM_L | ARM_R | ARM_U},
    {0x253b, ARM_L | ARM_R | ARM_U | ARM_HEAVY},
    {0x253c, ARM_L | ARM_R | ARM_U | ARM_D},
    {0x254b, ARM_L | ARM_R | ARM_U | ARM_D | ARM_HEAVY},
    {0x256d, ARM_R | ARM_D}, {0x256e, ARM_L | ARM_D},
    {0x256f, ARM_L | ARM_U}, {0x2570, ARM_R | ARM_U},
    {0x2574, ARM_L}, {0x2575, ARM_U}, {0x2576, ARM_R}, {0x2577, ARM_D},
};

/* The arms of a box-drawing glyph; see paint.h. */
unsigned
pe_paint_box_arms(uint32_t cp)
{
	for (size_t i = 0; i < sizeof box_arms / sizeof box_arms[0]; i++)
		if (box_arms[i].cp == cp)
			return box_arms[i].arms;
	return 0;
}

/* Color a over b at opacity t (0..1), per sRGB channel (as CSS opacity
 * composes). */
static pe_color
paint_mix(pe_color a, pe_color b, double t)
{
	pe_color out = 0;

	for (int s = 16; s >= 0; s -= 8) {
		double ca = (a >> s) & 0xff, cb = (b >> s) & 0xff;
		int v = (int)(cb + t * (ca - cb) + 0.5);
		out |= (v < 0 ? 0 : v > 255 ? 255 : v) << s;
	}
	return out;
}

/* A cell's colors as RGB: reverse applied, dim text mixed into its
 * background at 0.6 (the HTML writer's opacity). */
static void
paint_colors(const struct pe_cell *c, enum pe_depth depth,
    enum pe_theme theme, pe_color *fg, pe_color *bg, uint8_t *attr)
{
	struct pe_look lk = pe_palette_look(c, depth, theme);
	pe_color f = pe_look_rgb(lk.fg, depth, theme, true);
	pe_color b = pe_look_rgb(lk.bg, depth, theme, false);

	if (depth == PE_DEPTH_MONO) {
		f = pe_look_rgb(-1, depth, theme, true);
		b = pe_look_rgb(-1, depth, theme, false);
		lk.attr &= (uint8_t)~(PE_ATTR_REVERSE | PE_ATTR_DIM);
	}
	if (lk.attr & PE_ATTR_REVERSE) {
		pe_color t = f;
		f = b;
		b = t;
	}
	if (lk.attr & PE_ATTR_DIM)
		f = paint_mix(f, b, 0.6);
	*fg = f;
	*bg = b;
	*attr = lk.attr;
}

/* An open run of one layer: a rectangle growing to the right. */
struct run {
	bool open;
	pe_color rgb;
	double x0, x1, y0, y1;
};

#define RUNS 8

/* Runs of rectangles along a row: a rectangle continues the open run of
 * its band (y0, y1) when it has its color and starts where it ends. */
struct merger {
	const struct pe_painter *p;
	enum pe_paint_layer layer;
	struct run r[RUNS];
	int next; /* the slot to reuse when every slot is open */
};

/* Paint an open run and close it. */
static void
merger_flush_run(struct merger *m, struct run *r)
{
	if (r->open && r->x1 > r->x0 && r->y1 > r->y0)
		m->p->rect(m->p->arg, m->layer, r->rgb, r->x0, r->y0,
		    r->x1 - r->x0, r->y1 - r->y0);
	r->open = false;
}

/* Paint every open run. */
static void
merger_flush(struct merger *m)
{
	for (int i = 0; i < RUNS; i++)
		merger_flush_run(m, &m->r[i]);
}

/* Whether two coordinates are the same (sums of cell sizes). */
static bool
same(double a, double b)
{
	double d = a - b;

	return d < 1e-9 && d > -1e-9;
}

/* Add a rectangle [x0, x1) x [y0, y1) of one color. */
static void
merger_add(struct merger *m, pe_color rgb, double x0, double x1, double y0,
    double y1)
{
	struct run *free_slot = NULL;

	if (x1 <= x0 || y1 <= y0)
		return;
	for (int i = 0; i < RUNS; i++) {
		struct run *r = &m->r[i];
		if (!r->open) {
			if (free_slot == NULL)
				free_slot = r;
			continue;
		}
		if (!same(r->y0, y0) || !same(r->y1, y1))
			continue;
		if (r->rgb == rgb && same(r->x1, x0)) {
			r->x1 = x1;
			return;
		}
		merger_flush_run(m, r);
		free_slot = r;
		break;
	}
	if (free_slot == NULL) {
		free_slot = &m->r[m->next];
		m->next = (m->next + 1) % RUNS;
		merger_flush_run(m, free_slot);
	}
	*free_slot = (struct run){true, rgb, x0, x1, y0, y1};
}

/* The quadrants of U+2596..U+259F lit: bits 1 upper left, 2 upper right,
 * 4 lower left, 8 lower right. */
static const uint8_t quadrants[10] = {4, 8, 1, 1 | 4 | 8, 1 | 8, 1 | 2 | 4,
    1 | 2 | 8, 2, 2 | 4, 2 | 4 | 8};

/* A cell's background layer: its background, with a block element's lit
 * part in the foreground color (fractions of the cell, exact). */
static void
paint_cell_bg(struct merger *m, uint32_t cp, pe_color fg, pe_color bg,
    double x, double y, double cw, double ch)
{
	double top = 0, split = 0; /* a horizontal cut at `split` */
	bool horiz = false, left_lit = false;

	if (cp == 0x2580) { /* upper half */
		merger_add(m, fg, x, x + cw, y, y + ch / 2);
		merger_add(m, bg, x, x + cw, y + ch / 2, y + ch);
		return;
	}
	if (cp >= 0x2581 && cp <= 0x2588) { /* lower eighths, full block */
		top = ch * (double)(8 - (int)(cp - 0x2580)) / 8;
		merger_add(m, bg, x, x + cw, y, y + top);
		merger_add(m, fg, x, x + cw, y + top, y + ch);
		return;
	}
	if (cp >= 0x2589 && cp <= 0x258f) { /* left eighths */
		split = cw * (double)(8 - (int)(cp - 0x2588)) / 8;
		horiz = true;
		left_lit = true;
	} else if (cp == 0x2590) { /* right half */
		split = cw / 2;
		horiz = true;
	} else if (cp == 0x2595) { /* right eighth */
		split = cw * 7 / 8;
		horiz = true;
	}
	if (horiz) {
		merger_add(m, left_lit ? fg : bg, x, x + split, y, y + ch);
		merger_add(m, left_lit ? bg : fg, x + split, x + cw, y, y + ch);
		return;
	}
	if (cp >= 0x2591 && cp <= 0x2593) { /* shades: 1/4, 1/2, 3/4 */
		merger_add(m, paint_mix(fg, bg, (double)(cp - 0x2590) / 4), x,
		    x + cw, y, y + ch);
		return;
	}
	if (cp == 0x2594) { /* upper eighth */
		merger_add(m, fg, x, x + cw, y, y + ch / 8);
		merger_add(m, bg, x, x + cw, y + ch / 8, y + ch);
		return;
	}
	if (cp >= 0x2596 && cp <= 0x259f) {
		uint8_t q = quadrants[cp - 0x2596];
		double mx = x + cw / 2, my = y + ch / 2;
		merger_add(m, q & 1 ? fg : bg, x, mx, y, my);
		merger_add(m, q & 2 ? fg : bg, mx, x + cw, y, my);
		merger_add(m, q & 4 ? fg : bg, x, mx, my, y + ch);
		merger_add(m, q & 8 ? fg : bg, mx, x + cw, my, y + ch);
		return;
	}
	merger_add(m, bg, x, x + cw, y, y + ch);
}

/* A box-drawing glyph's lines: arms from the cell's centre to its edges,
 * cw / 8 thick (heavy: twice), in both directions alike. */
static void
paint_cell_lines(struct merger *m, unsigned arms, pe_color fg, double x,
    double y, double cw, double ch)
{
	double t = cw / 8 * (arms & ARM_HEAVY ? 2 : 1);
	double mx = x + cw / 2, my = y + ch / 2;
	double l = arms & ARM_L ? x : mx - t / 2;
	double r = arms & ARM_R ? x + cw : mx + t / 2;
	double u = arms & ARM_U ? y : my - t / 2;
	double d = arms & ARM_D ? y + ch : my + t / 2;

	if (arms & (ARM_L | ARM_R))
		merger_add(m, fg, l, r, my - t / 2, my + t / 2);
	if (arms & (ARM_U | ARM_D))
		merger_add(m, fg, mx - t / 2, mx + t / 2, u, d);
}

/* Braille dots (Unicode's U+2800 block: bits 0-2 and 6 the left column
 * top to bottom, 3-5 and 7 the right) as circles on a 2 x 4 grid. */
static void
paint_cell_dots(const struct pe_painter *p, uint32_t cp, pe_color fg,
    double x, double y)
{
	static const uint8_t col[8] = {0, 0, 0, 1, 1, 1, 0, 1};
	static const uint8_t row[8] = {0, 1, 2, 0, 1, 2, 3, 3};
	unsigned bits = cp - 0x2800;
	double sx = p->cw / 2, sy = p->ch / 4;
	double r = (sx < sy ? sx : sy) * 0.36;

	for (int b = 0; b < 8; b++)
		if (bits & (1u << b))
			p->dot(p->arg, fg, x + sx * (col[b] + 0.5),
			    y + sy * (row[b] + 0.5), r);
}

/* Whether a glyph is drawn as a shape (no font): blocks, the box lines of
 * box_arms, braille. */
static bool
paint_is_shape(uint32_t cp)
{
	return (cp >= 0x2580 && cp <= 0x259f) ||
	    (cp >= 0x2800 && cp <= 0x28ff) || pe_paint_box_arms(cp) != 0;
}

/* A run of text being gathered along a row. */
struct text_run {
	bool open;
	int x0, last;	/* first cell, last cell that is not a blank */
	int blanks;	/* blanks since `last` */
	pe_color rgb;
	uint8_t attr;
	char buf[4 * 1024 + 8];
	size_t len, len_last; /* bytes, bytes up to `last` */
};

/* Paint the text run, if any, and close it. */
static void
paint_text_flush(const struct pe_painter *p, struct text_run *t, int y)
{
	if (t->open) {
		struct pe_paint_text pt = {p->cw * t->x0, p->ch * y, t->buf,
		    t->last - t->x0 + 1, t->rgb, (t->attr & PE_ATTR_BOLD) != 0,
		    (t->attr & PE_ATTR_UNDERLINE) != 0, 1.0};
		t->buf[t->len_last] = '\0';
		p->text(p->arg, &pt);
	}
	t->open = false;
}

/* Add cell x's glyph cp (text color fg, attributes attr) to the row's
 * text run: a single blank joins a run; two or more, a shape or another
 * look end it (so no writer depends on how a renderer treats runs of
 * spaces). */
static void
paint_cell_text(const struct pe_painter *p, struct text_run *t, int x, int y,
    uint32_t cp, pe_color fg, uint8_t attr)
{
	attr &= PE_ATTR_BOLD | PE_ATTR_UNDERLINE;
	if (cp == ' ') {
		if (t->open && t->len + 1 < sizeof t->buf)
			t->buf[t->len++] = ' ';
		t->blanks++;
		return;
	}
	if (paint_is_shape(cp)) {
		paint_text_flush(p, t, y);
		return;
	}
	if (t->open && (t->rgb != fg || t->attr != attr || t->blanks > 1 ||
	    t->len + 4 >= sizeof t->buf))
		paint_text_flush(p, t, y);
	if (!t->open) {
		t->open = true;
		t->x0 = x;
		t->rgb = fg;
		t->attr = attr;
		t->len = 0;
	}
	t->len += (size_t)pe_utf8_encode(cp, t->buf + t->len);
	t->last = x;
	t->len_last = t->len;
	t->blanks = 0;
}

/* Paint one cell's part of a layer. */
static void
paint_cell(const struct pe_painter *p, struct merger *m, struct text_run *t,
    enum pe_paint_layer layer, const struct pe_cell *c, int x, int y,
    enum pe_depth depth, enum pe_theme theme)
{
	uint32_t cp = pe_writer_glyph(c, depth);
	double px = p->cw * x, py = p->ch * y;
	pe_color fg, bg;
	uint8_t attr;

	paint_colors(c, depth, theme, &fg, &bg, &attr);
	switch (layer) {
	case PE_PAINT_BG:
		paint_cell_bg(m, cp, fg, bg, px, py, p->cw, p->ch);
		break;
	case PE_PAINT_LINES:
		if (pe_paint_box_arms(cp) != 0)
			paint_cell_lines(m, pe_paint_box_arms(cp), fg, px, py,
			    p->cw, p->ch);
		break;
	case PE_PAINT_DOTS:
		if (cp > 0x2800 && cp <= 0x28ff)
			paint_cell_dots(p, cp, fg, px, py);
		break;
	default:
		paint_cell_text(p, t, x, y, cp, fg, attr);
		break;
	}
}

/* Paint cv layer by layer; see paint.h. */
void
pe_paint_canvas(const struct pe_canvas *cv, enum pe_depth depth,
                enum pe_theme theme, const struct pe_painter *p)
{
	struct merger m = {.p = p};
	struct text_run t;

	for (int layer = 0; layer < PE_PAINT_LAYERS; layer++) {
		m.layer = (enum pe_paint_layer)layer;
		for (int y = 0; y < cv->h; y++) {
			const struct pe_cell *row = &cv->cells[(size_t)y * cv->w];
			t.open = false;
			for (int x = 0; x < cv->w; x++) {
				/* a picture hides its cells' glyphs, as a
				 * terminal's does: only their backgrounds,
				 * under it, are painted */
				if (layer != PE_PAINT_BG && cv->npix > 0 &&
				    pe_canvas_pixmap_at(cv, x, y) != NULL)
					continue;
				paint_cell(p, &m, &t, m.layer, &row[x], x, y,
				    depth, theme);
			}
			if (layer == PE_PAINT_TEXT)
				paint_text_flush(p, &t, y);
			merger_flush(&m);
		}
		p->end(p->arg, (enum pe_paint_layer)layer);
		if (layer == PE_PAINT_BG && p->image != NULL)
			for (int i = 0; i < cv->npix; i++)
				p->image(p->arg, &cv->pix[i]);
	}
}
