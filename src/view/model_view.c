/* The model view (model_view.h): a model's layers as a strip, each kind
 * of layer in a line, and each rotating kind's wavelength band on one log
 * axis of positions, against the keys its queries see (window, chunk or
 * the sequence) and the trained context, and how many pairs turn within
 * each: "which layers can see how far" in one picture. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/encoding.h"
#include "render/canvas.h"
#include "view/model_view.h"
#include "view/panels.h"
#include "view/view_impl.h"

/* The kinds' colors (blue, orange, green, magenta, red, yellow, cyan),
 * repeated past seven. At 8 colors the first five stay distinct (cyan,
 * yellow, green, magenta, red: the nearest of xterm's eight); the sixth
 * and seventh fall on the first two there, and the letters tell them
 * apart. */
static const pe_color kind_colors[] = {
	PE_RGB(0x5f, 0xaf, 0xff), PE_RGB(0xff, 0x87, 0x00),
	PE_RGB(0x00, 0xaf, 0x5f), PE_RGB(0xd7, 0x5f, 0xd7),
	PE_RGB(0xff, 0x5f, 0x5f), PE_RGB(0xd7, 0xd7, 0x00),
	PE_RGB(0x00, 0xd7, 0xd7),
};

/* The color of kind k. */
static pe_color
kind_color(size_t k)
{
	return kind_colors[k % (sizeof kind_colors / sizeof kind_colors[0])];
}

/* The letter of kind k (as `pescope model` prints it). */
static char
kind_letter(size_t k)
{
	return k < 26 ? (char)('A' + k) : k < 52 ? (char)('a' + k - 26) : '+';
}

/* Column of value v on the log axis [1, top] drawn over [x0, x0 + w). */
static int
axis_col(double v, double top, int x0, int w)
{
	if (!(v > 1.0))
		return x0;
	double t = log(v) / log(top);
	int c = x0 + (int)lround(t * (double)(w - 1));
	return c < x0 ? x0 : c >= x0 + w ? x0 + w - 1 : c;
}

/* Draw the model view. */
int
pe_view_model_draw(struct pe_canvas *cv, int x, int y, int w, int h,
                   const struct pe_arch *a, size_t layer)
{
	if (a == NULL || a->nlayers == 0 || w < 20 || h < 3)
		return PE_EINVAL;
	size_t *kind_of = malloc(a->nlayers * sizeof *kind_of);
	if (kind_of == NULL)
		return PE_ENOMEM;
	size_t kinds = pe_arch_kinds(a, kind_of);
	int row = y, bottom = y + h;

	/* the strip: a cell per layer in its kind's color, rows of up to
	 * w - 7 layers, numbers every 10 above */
	int per = (w - 7) / 10 * 10;
	if (per < 10)
		per = w - 7;
	for (size_t r0 = 0; r0 < a->nlayers && row + 1 < bottom;
	     r0 += (size_t)per) {
		size_t r1 = r0 + (size_t)per < a->nlayers ? r0 + (size_t)per :
		    a->nlayers;
		for (size_t i = r0; i < r1; i += 10)
			pe_canvas_printf(cv, x + 7 + (int)(i - r0), row, 10,
			    C_DIM, PE_COLOR_DEFAULT, 0, "%zu", i);
		row++;
		pe_canvas_text(cv, x, row, 7, r0 == 0 ? "layers" : "",
		    C_DIM, PE_COLOR_DEFAULT, 0);
		for (size_t i = r0; i < r1; i++) {
			bool cur = i == layer;
			pe_canvas_set(cv, x + 7 + (int)(i - r0), row,
			    (uint32_t)kind_letter(kind_of[i]),
			    cur ? PE_COLOR_DEFAULT : PE_RGB(0, 0, 0),
			    cur ? PE_COLOR_DEFAULT : kind_color(kind_of[i]),
			    cur ? (uint8_t)(PE_ATTR_BOLD |
			        PE_ATTR_REVERSE) : 0);
		}
		row++;
	}

	/* the kinds, one line each */
	double top = 10.0;
	for (size_t i = 0; i < a->nlayers; i++)
		top = fmax(top, (double)a->layers[i].cfg.n);
	struct pe_layer_bands *bands = calloc(kinds, sizeof *bands);
	const struct pe_layer **first = calloc(kinds, sizeof *first);
	if (bands == NULL || first == NULL) {
		free(bands);
		free(first);
		free(kind_of);
		return PE_ENOMEM;
	}
	for (size_t i = 0; i < a->nlayers; i++)
		if (first[kind_of[i]] == NULL)
			first[kind_of[i]] = &a->layers[i];
	size_t rotating = 0;
	for (size_t k = 0; k < kinds; k++) {
		if (pe_layer_bands(first[k], a->train_len, &bands[k]) != PE_OK)
			bands[k].pairs = 0;
		if (bands[k].pairs > 0) {
			rotating++;
			top = fmax(top, bands[k].longest);
		}
	}
	for (size_t k = 0; k < kinds && row < bottom; k++, row++) {
		char what[160];
		size_t count = 0;
		for (size_t i = 0; i < a->nlayers; i++)
			count += kind_of[i] == k;
		pe_layer_describe(first[k], what, sizeof what);
		pe_canvas_set(cv, x, row, (uint32_t)kind_letter(k),
		    PE_RGB(0, 0, 0), kind_color(k), 0);
		pe_canvas_printf(cv, x + 2, row, w - 2, PE_COLOR_DEFAULT,
		    PE_COLOR_DEFAULT, 0, "%zu× %s%s", count, what,
		    first[k]->cfg.attn.exact ? "" : " (not modelled)");
	}

	/* the bands: one row per rotating kind on a log axis of positions,
	 * │ its reach, ┆ the trained context; the axis below */
	int ax = x + 2, aw = w - 2;
	if (rotating > 0 && row + (int)rotating + 2 <= bottom) {
		pe_canvas_text(cv, x, row++, w, "wavelengths 2π/ω (positions, "
		    "log): │ reach  ┆ trained", C_DIM, PE_COLOR_DEFAULT, 0);
		for (size_t k = 0; k < kinds; k++) {
			const struct pe_layer_bands *b = &bands[k];
			if (b->pairs == 0)
				continue;
			pe_canvas_set(cv, x, row, (uint32_t)kind_letter(k),
			    PE_RGB(0, 0, 0), kind_color(k), 0);
			int c0 = axis_col(b->shortest, top, ax, aw);
			int c1 = axis_col(b->longest, top, ax, aw);
			for (int c = c0; c <= c1; c++)
				pe_canvas_set(cv, c, row, 0x2501 /* ━ */,
				    kind_color(k), PE_COLOR_DEFAULT, 0);
			if (a->train_len > 0)
				pe_canvas_set(cv, axis_col((double)a->train_len,
				    top, ax, aw), row, 0x2506 /* ┆ */,
				    PE_COLOR_DEFAULT, PE_COLOR_DEFAULT, 0);
			pe_canvas_set(cv, axis_col((double)b->reach, top, ax,
			    aw), row, 0x2502 /* │ */, PE_COLOR_DEFAULT,
			    PE_COLOR_DEFAULT, PE_ATTR_BOLD);
			row++;
		}
		/* ticks at powers of ten that fit */
		int last = -100;
		for (int e = 0; pow(10.0, e) <= top; e++) {
			int c = axis_col(pow(10.0, e), top, ax, aw);
			char lab[16];
			if (e < 3)
				snprintf(lab, sizeof lab, "%.0f", pow(10.0, e));
			else if (e < 6)
				snprintf(lab, sizeof lab, "%.0fk",
				    pow(10.0, e - 3));
			else
				snprintf(lab, sizeof lab, "%.0fM",
				    pow(10.0, e - 6));
			int len = (int)strlen(lab);
			if (c - last < len + 1 || c + len > x + w)
				continue;
			pe_canvas_text(cv, c, row, len, lab, C_DIM,
			    PE_COLOR_DEFAULT, 0);
			last = c;
		}
		row++;
	}

	/* what the bands mean, a line a rotating (or NoPE) kind where there
	 * is room: how many pairs turn once within the reach and within the
	 * trained context when that differs (a pair whose wavelength is
	 * longer never completes a turn there) */
	if (row + (int)kinds + 1 <= bottom)
		row++;
	for (size_t k = 0; k < kinds && row < bottom; k++) {
		const struct pe_layer_bands *b = &bands[k];
		const struct pe_layer *l = first[k];
		const struct pe_encoding_def *def = pe_config_def(&l->cfg);
		bool rope = (def->caps & PE_CAP_ROPE) != 0 ||
		    def->attention == PE_ATTN_NONE;
		char line[256];
		if (!rope)
			continue; /* its kind's line says what it is */
		if (!l->cfg.attn.exact)
			snprintf(line, sizeof line, "not drawn: its positions "
			    "are not modelled");
		else if (b->pairs == 0)
			snprintf(line, sizeof line, "no rotation: %s",
			    l->cfg.attn.causal ? "position enters only through "
			    "the causal mask" : "it sees no position");
		else {
			const char *reach = l->cfg.attn.span == PE_SPAN_SLIDING ?
			    "window" : l->cfg.attn.span == PE_SPAN_CHUNKED ? "chunk"
			    : "sequence";
			int n = snprintf(line, sizeof line, "%zu of %zu pairs "
			    "turn within the %s (%zu)", b->turn_in_reach,
			    b->pairs, reach, b->reach);
			if (a->train_len > 0 && a->train_len != b->reach &&
			    n > 0 && (size_t)n < sizeof line)
				snprintf(line + n, sizeof line - (size_t)n,
				    ", %zu within the trained %zu",
				    b->turn_in_train, a->train_len);
		}
		pe_canvas_set(cv, x, row, (uint32_t)kind_letter(k),
		    PE_RGB(0, 0, 0), kind_color(k), 0);
		pe_canvas_text_fit(cv, x + 2, row, w - 2, line, C_TEXT,
		    PE_COLOR_DEFAULT, 0);
		row++;
	}
	free(bands);
	free(first);
	free(kind_of);
	return PE_OK;
}

/* The body as the model view; the inspector says the layer shown and
 * what the config has that is not modelled. */
void
view_model_body(struct ctx *c)
{
	const struct pe_arch *a = c->pane->arch;
	char kind[128];

	view_check(c, pe_view_model_draw(c->cv, 1, c->by, c->w - 2, c->bh, a,
	    c->pane->layer), 1, c->by, c->w - 2);
	pe_layer_describe(&a->layers[c->pane->layer], kind, sizeof kind);
	snprintf(c->insp[0], sizeof c->insp[0], "layer %zu/%zu: %s · , . "
	    "move · L back to the layer's view", c->pane->layer, a->nlayers,
	    kind);
	c->insp[1][0] = '\0';
	for (size_t i = 0; i < a->nnotes; i++)
		view_cat(c->insp[1], sizeof c->insp[1], "%s%s: %s",
		    i ? " · " : "not modelled: ", a->notes[i].key,
		    a->notes[i].why);
}
