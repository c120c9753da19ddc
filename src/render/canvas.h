/* The canvas: a W x H grid of cells, the one render target. Views draw into
 * a canvas; the TUI and the file writers only write canvases out (like tmux's
 * grid). Nothing here knows about terminals. */
#ifndef PESCOPE_CANVAS_H
#define PESCOPE_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A 24-bit color 0xRRGGBB, or PE_COLOR_DEFAULT for the terminal's own. */
typedef int32_t pe_color;
#define PE_COLOR_DEFAULT (-1)
#define PE_RGB(r, g, b) ((pe_color)(((r) << 16) | ((g) << 8) | (b)))

enum pe_attr {
	PE_ATTR_BOLD = 1 << 0,
	PE_ATTR_DIM = 1 << 1,
	PE_ATTR_REVERSE = 1 << 2,
	PE_ATTR_UNDERLINE = 1 << 3,
};

/* What a cell shows, so a mono writer can choose a glyph for it. */
enum pe_cell_kind {
	PE_CELL_TEXT,	   /* glyph as given */
	PE_CELL_SHADE,	   /* heatmap samples: `shade` is a level in 0..255 */
	PE_CELL_MASKED,	   /* heatmap cell whose samples are all -inf */
	PE_CELL_UNDEFINED, /* heatmap cell whose samples are all undefined */
};

struct pe_cell {
	uint32_t cp;	/* Unicode code point of the glyph (width 1) */
	pe_color fg, bg;
	uint8_t attr;	/* enum pe_attr bits */
	uint8_t kind;	/* enum pe_cell_kind */
	uint8_t shade;	/* PE_CELL_SHADE: mean level of the cell's samples */
	uint8_t ramp;	/* heatmap halves: enum pe_cmap + 1 of their colormap
			   (0: none), for 16-color ramps and the cyclic
			   map's hues at 256 */
	uint8_t lv[2];	/* levels 0..255 of the halves shown by fg and bg */
	uint8_t lvok;	/* bit 0: lv[0] is a value's level; bit 1: lv[1] */
};

/* The pixel layer: a picture over a rectangle of cells, at pixel
 * resolution (a map's samples at one per pixel: exact elements, or exact
 * block means where the elements outnumber the pixels). The cells under
 * it stay what they are, for the writers that print cells; the writers
 * that draw (PNG, SVG, PDF) and the terminal image protocols draw it over
 * them. Its samples tile rows [r0, r1) and columns [c0, c1) as
 * pe_field_span cuts them into nr x nc; pixel row y shows sample row
 * nr * y / ph (and likewise for columns), so a sample is one pixel, or,
 * where there are fewer samples than pixels, a run of as equal runs of
 * pixels as integers allow. */
struct pe_pixmap {
	int x, y, w, h;	       /* the cells it covers */
	int pw, ph;	       /* its pixels: w, h times the cell's */
	uint32_t *rgb;	       /* [ph * pw] 0xFFRRGGBB (opaque), row-major */
	size_t r0, r1, c0, c1; /* the elements its samples tile */
	size_t nr, nc;	       /* samples: nr <= ph, nc <= pw */
	int cur_x, cur_y, cur_w, cur_h; /* the cursor's sample's pixels,
				  framed over the picture; cur_w 0: none */
	uint64_t serial;       /* what the pixels show but for the cursor's
				  frame: pictures with one nonzero serial
				  have the same pixels there (a picture kept
				  while what it shows is unchanged); 0: not
				  known */
	uint32_t *under;       /* [nunder], owned: the pixels the cursor's
				  frame covers, as they are without it
				  (pe_pixmap_plain) */
	size_t nunder;
};

struct pe_canvas {
	int w, h;
	struct pe_cell *cells; /* [h * w] row-major */
	bool large;	       /* drawn to be read from afar (the presenter
				  view): plot dots are quadrant blocks
				  (pe_draw_dot), map columns 2 cells a
				  sample; pe_canvas_init clears it */
	int depth, theme;      /* what it will be written at (enum pe_depth,
				  enum pe_theme; pe_canvas_init: truecolor,
				  dark), for legends that name the colors
				  drawn (pe_palette_color_name) */
	/* The pixel layer wanted: a cell is px_w x px_h pixels (0: none,
	 * what pe_canvas_init sets; then no map makes one and the frame is
	 * the cells alone); px_by names what shows it, for the status line
	 * ("kitty", "png"), or NULL. */
	int px_w, px_h;
	const char *px_by;
	struct pe_pixmap *pix; /* [npix], owned; pe_canvas_clear drops them */
	int npix;
	uint32_t *spare;       /* [nspare], owned: a dropped picture's pixels,
				  for the next frame's picture of that size
				  (no new pages every frame) */
	size_t nspare;
};

/* The most pixels a cell may be for a pixel layer, each way. */
#define PE_PX_CELL_MAX 256

/* Allocate a w x h canvas of blank cells (w, h >= 1). */
int pe_canvas_init(struct pe_canvas *cv, int w, int h);
void pe_canvas_free(struct pe_canvas *cv);
/* Blank every cell: space, default colors. */
void pe_canvas_clear(struct pe_canvas *cv);
/* Cell at (x, y), or NULL when outside. */
struct pe_cell *pe_canvas_at(struct pe_canvas *cv, int x, int y);
/* Set one cell (clipped). */
void pe_canvas_set(struct pe_canvas *cv, int x, int y, uint32_t cp,
    pe_color fg, pe_color bg, uint8_t attr);
/* Write UTF-8 text at (x, y), one cell per code point, clipped to max_w
 * cells (and the canvas); returns the cells written. */
int pe_canvas_text(struct pe_canvas *cv, int x, int y, int max_w,
    const char *utf8, pe_color fg, pe_color bg, uint8_t attr);
/* printf into the canvas, like pe_canvas_text. */
int pe_canvas_printf(struct pe_canvas *cv, int x, int y, int max_w,
    pe_color fg, pe_color bg, uint8_t attr, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
/* Copy every cell of src into dst with src's (0, 0) at (x, y) (clipped):
 * a part of a frame drawn on a canvas of its own. Its pictures come
 * along, moved (one not wholly inside dst is left out); PE_ENOMEM when
 * one could not be copied (the cells are copied all the same). */
int pe_canvas_blit(struct pe_canvas *dst, int x, int y,
    const struct pe_canvas *src);
/* Ask for a pixel layer at px_w x px_h pixels a cell (0 x 0: none),
 * shown by `by` (a static name, or NULL); PE_EINVAL past
 * PE_PX_CELL_MAX. */
int pe_canvas_want_pixels(struct pe_canvas *cv, int px_w, int px_h,
    const char *by);
/* Give dst the pixel layer request of src (a part of a frame drawn on a
 * canvas of its own). */
void pe_canvas_want_like(struct pe_canvas *dst, const struct pe_canvas *src);
/* Whether maps are pictures on cv: a pixel layer is wanted and cv's
 * depth shows pictures (pe_depth_pictures: else the maps are cells, in
 * their legend's colors). */
bool pe_canvas_pictures(const struct pe_canvas *cv);
/* A new picture over cells [x, x + w) x [y, y + h), all of them inside
 * the canvas, at the wanted pixels a cell, its pixels, tiling and cursor
 * unset (the caller writes every pixel: a map's picture is megabytes,
 * whose clearing was serial work every frame); NULL when cv shows no
 * pictures (pe_canvas_pictures), the rectangle is empty or out of the
 * canvas, or memory ran out. */
struct pe_pixmap *pe_canvas_pixmap(struct pe_canvas *cv, int x, int y,
    int w, int h);
/* The picture covering cell (x, y), or NULL. */
const struct pe_pixmap *pe_canvas_pixmap_at(const struct pe_canvas *cv,
    int x, int y);
/* Drop the pictures (the cells stay). */
void pe_canvas_drop_pixels(struct pe_canvas *cv);
/* Frame the cursor's sample, pixels [x0, x1) x [y0, y1): two rings of
 * pixels around it (black inside, white outside, so that it reads on
 * every color), the sample's own pixels left as they are; the pixels the
 * rings cover are kept (pm->under) and cur_* set. PE_ENOMEM: no frame. */
int pe_pixmap_frame_cursor(struct pe_pixmap *pm, int x0, int x1, int y0,
    int y1);
/* Whether pixel (x, y) is on the cursor's frame. */
bool pe_pixmap_on_frame(const struct pe_pixmap *pm, int x, int y);
/* Exchange the pixels of the cursor's frame with pm->under: the picture
 * without the frame, and again with it. */
void pe_pixmap_swap_frame(struct pe_pixmap *pm);
/* The picture's pixels without the cursor's frame into dest [ph * pw]. */
void pe_pixmap_plain(const struct pe_pixmap *pm, uint32_t *dest);
/* The sample a pixel row (or column) p of n shows, of ns samples. */
size_t pe_pixmap_sample(size_t ns, size_t n, size_t p);
/* The pixels [*a, *b) of n that show sample s of ns. */
void pe_pixmap_pixels(size_t ns, size_t n, size_t s, int *a, int *b);

/* Fill a rectangle with one glyph and colors (clipped). */
void pe_canvas_fill(struct pe_canvas *cv, int x, int y, int w, int h,
    uint32_t cp, pe_color fg, pe_color bg);
/* Draw a single-line box with an optional title in its top edge, over
 * what it covers: pictures it covers part of are dropped. */
void pe_canvas_box(struct pe_canvas *cv, int x, int y, int w, int h,
    const char *title, pe_color fg);

/* Decode one UTF-8 code point from s; returns bytes used (0 at the end,
 * 1 with U+FFFD for an invalid byte). */
int pe_utf8_decode(const char *s, uint32_t *cp);
/* Encode cp into buf (at least 4 bytes); returns bytes written. */
int pe_utf8_encode(uint32_t cp, char *buf);

#endif
