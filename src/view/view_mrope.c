/* The mrope view: Qwen2-VL's multimodal rope. The angle map over tokens
 * and pairs, the token strip with the three position components, the
 * score of the cursor's token with every token, and with every patch as
 * the image's grid. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/mrope.h"
#include "render/palette.h"

#include "view/view_impl.h"

static const char *const axis_names[3] = {"t", "h", "w"};

/* What token i is, in a few words: "text", "patch (h 3, w 5)" or, in a
 * video, "frame 2 patch (h 3, w 5)". */
static void
mrope_token_what(const struct pe_config *k, size_t i, char *buf, size_t cap)
{
	size_t f, r, col;
	switch (pe_mrope_part_of(k, i, &f, &r, &col)) {
	case PE_MROPE_TEXT_BEFORE:
	case PE_MROPE_TEXT_AFTER:
		snprintf(buf, cap, "text");
		return;
	case PE_MROPE_VISION:
		break;
	}
	if (k->mrope.frames > 1)
		snprintf(buf, cap, "frame %zu patch (h %zu, w %zu)", f, r, col);
	else
		snprintf(buf, cap, "patch (h %zu, w %zu)", r, col);
}

/* The token strip: the three parts as labelled boxes, the cursor's part
 * bold, on one line. */
static void
mrope_strip(struct ctx *c, int x, int y, int w, size_t cur)
{
	const struct pe_config *k = c->cfg;
	char parts[3][64];
	size_t f, r, col;
	enum pe_mrope_part on = pe_mrope_part_of(k, cur, &f, &r, &col);

	snprintf(parts[0], sizeof parts[0], "text %zu", k->mrope.text_before);
	if (k->mrope.frames > 1)
		snprintf(parts[1], sizeof parts[1], "video %zu×%zu×%zu",
		    k->mrope.frames, k->grid_h, k->grid_w);
	else
		snprintf(parts[1], sizeof parts[1], "image %zu×%zu", k->grid_h,
		    k->grid_w);
	snprintf(parts[2], sizeof parts[2], "text %zu", k->mrope.text_after);
	int at = x;
	for (int p = 0; p < 3; p++) {
		char box[80];
		snprintf(box, sizeof box, "[%s]", parts[p]);
		int l = pe_text_cells(box);
		if (at + l > x + w)
			break;
		pe_canvas_text(c->cv, at, y, l, box,
		    p == 1 ? C_ACCENT : C_TEXT, PE_COLOR_DEFAULT,
		    (int)on == p ? PE_ATTR_BOLD : 0);
		at += l + 1;
	}
}

/* The pairs' axes on one line, a cell a pair (t orange, h green, w blue
 * as the positions' curves), after "pairs"; when they do not all fit, the
 * first ones and "…". */
static void
mrope_pair_strip(struct ctx *c, int x, int y, int w)
{
	const struct pe_config *k = c->cfg;
	static const uint32_t ink[3] = {C_CURVE, C_CURVE2, C_ACCENT};
	size_t P = k->d / 2, sec[3];
	const char *lead = k->mrope.layout == PE_MROPE_INTERLEAVED
	    ? "pairs (interleaved) " : "pairs (contiguous) ";
	int lw = pe_text_cells(lead);

	if (w < lw + 8 || P == 0)
		return;
	pe_mrope_sections(k, sec);
	pe_canvas_text(c->cv, x, y, lw, lead, C_DIM, PE_COLOR_DEFAULT, 0);
	size_t room = (size_t)(w - lw);
	size_t cells = room >= P ? P : room - 1;
	for (size_t j = 0; j < cells; j++) {
		enum pe_mrope_axis a = pe_mrope_pair_axis(k, sec, j);
		pe_canvas_text(c->cv, x + lw + (int)j, y, 1, axis_names[a],
		    ink[a], PE_COLOR_DEFAULT, 0);
	}
	if (cells < P)
		pe_canvas_text(c->cv, x + lw + (int)cells, y, 1, "…", C_DIM,
		    PE_COLOR_DEFAULT, 0);
}

/* Mean position of axis a over tokens [i0, i1) (exact, from the runs). */
static double
mrope_mean_position(const struct pe_config *k, enum pe_mrope_axis a,
    size_t i0, size_t i1)
{
	struct pe_mrope_run run[PE_MROPE_MAX_RUNS];
	size_t n = pe_mrope_runs(k, a, i0, i1, run);
	double sum = 0.0;

	for (size_t j = 0; j < n; j++) {
		if (run[j].frames) { /* frames at their times */
			for (uint64_t f = 0; f < run[j].len; f++)
				sum += (double)run[j].mult *
				    (double)pe_mrope_run_pos(k, &run[j], f);
			continue;
		}
		sum += (double)run[j].mult * ((double)run[j].p0 *
		    (double)run[j].len + (double)run[j].len *
		    ((double)run[j].len - 1) / 2);
	}
	return sum / (double)(i1 - i0);
}

/* The three position components along the tokens (t orange, h green, w
 * blue), each sample the mean of its block of tokens. */
static void
mrope_positions_plot(struct ctx *c, int x, int y, int w, int h, size_t cur)
{
	const struct pe_config *k = c->cfg;
	size_t L = pe_mrope_length(k);
	int pw = w - 7;
	if (pw < 4 || h < 4)
		return;
	size_t ns = (size_t)pw * 2 < L ? (size_t)pw * 2 : L;
	double *ys = calloc(3 * ns, sizeof *ys);
	if (view_check(c, ys == NULL ? PE_ENOMEM : PE_OK, x, y, w) != PE_OK)
		return;
	double hi = 0;
	for (int a = 0; a < 3; a++)
		for (size_t s = 0; s < ns; s++) {
			size_t i0, i1;
			pe_field_span(0, L, ns, s, &i0, &i1);
			ys[a * ns + s] = mrope_mean_position(k, (enum pe_mrope_axis)a,
			    i0, i1);
			if (ys[a * ns + s] > hi)
				hi = ys[a * ns + s];
		}
	int64_t p[3];
	pe_mrope_position(k, cur, p);
	char t[120], xhi[32];
	snprintf(t, sizeof t, "position t h w of token %zu: (%lld, %lld, %lld)",
	    cur, (long long)p[0], (long long)p[1], (long long)p[2]);
	if (pe_text_cells(t) > w)
		snprintf(t, sizeof t, "token %zu at (%lld, %lld, %lld)", cur,
		    (long long)p[0], (long long)p[1], (long long)p[2]);
	snprintf(xhi, sizeof xhi, "%zu", L - 1);
	long mark = (long)panel_sample_of(0, L, ns, cur);
	panel_plot(c->cv, x, y, w, h, t, ys, ns, 0, hi > 0 ? hi : 1,
	    "token 0", xhi, mark);
	panel_plot_overlay(c->cv, x, y, w, h, ys + ns, ns, 0, hi > 0 ? hi : 1,
	    C_CURVE2);
	panel_plot_overlay(c->cv, x, y, w, h, ys + 2 * ns, ns, 0,
	    hi > 0 ? hi : 1, C_ACCENT);
	free(ys);
}

/* The score of token cur with every token, block means of the score
 * matrix's row. */
static void
mrope_score_plot(struct ctx *c, int x, int y, int w, int h, size_t cur)
{
	size_t L = c->m->sim.rows;
	double P = (double)(c->cfg->d / 2);
	int pw = w - 7;
	if (pw < 4 || h < 4 || !c->m->has_sim)
		return;
	size_t ns = (size_t)pw * 2 < L ? (size_t)pw * 2 : L;
	struct pe_stats *st = calloc(ns, sizeof *st);
	double *ys = calloc(ns, sizeof *ys);
	int rc = st == NULL || ys == NULL ? PE_ENOMEM
	    : pe_field_grid(&c->m->sim, cur, cur + 1, 1, 0, L, ns, st);
	if (view_check(c, rc, x, y, w) == PE_OK) {
		for (size_t s = 0; s < ns; s++)
			ys[s] = st[s].mean;
		/* the curve's own range: at a large base the slow pairs keep
		 * every score near d/2 */
		double lo = -P, hi = P;
		if (panel_range(ys, ns, &lo, &hi) && hi - lo < 1e-9 * P) {
			lo -= 1e-9 * P;
			hi += 1e-9 * P;
		}
		char t[120], xhi[32];
		snprintf(t, sizeof t, "score with token %zu, q=k=(1,0)", cur);
		snprintf(xhi, sizeof xhi, "%zu", L - 1);
		panel_plot(c->cv, x, y, w, h, t, ys, ns, lo, hi, "token 0", xhi,
		    (long)panel_sample_of(0, L, ns, cur));
	}
	free(st);
	free(ys);
}

/* The patch map's two computations, one a core: the whole map's range
 * (part 0: a scan within the kernel's budget) and the block means at the
 * map's tiling (part 1), which the map then draws (patch_grid). */
struct patch_job {
	const struct pe_field *f;
	size_t nsr, nsc;
	struct pe_stats all, *st;
	int rc[2];
};

/* Part `part` of a patch_job. */
static void
patch_part(void *arg, int part)
{
	struct patch_job *j = arg;
	const struct pe_field *f = j->f;

	if (part == 0)
		j->rc[0] = pe_field_block(f, 0, f->rows, 0, f->cols, true,
		    &j->all);
	else
		j->rc[1] = j->st == NULL ? PE_OK : pe_field_grid(f, 0, f->rows,
		    j->nsr, 0, f->cols, j->nsc, j->st);
}

/* The patch map's block means: the patch_job's when the tiling is
 * the one it made, else the kernel's. */
static int
patch_grid(const void *arg, size_t r0, size_t r1, size_t nr, size_t c0,
    size_t c1, size_t nc, struct pe_stats *dest)
{
	const struct patch_job *j = arg;
	const struct pe_field *f = j->f;

	if (j->st != NULL && j->rc[1] == PE_OK && r0 == 0 && r1 == f->rows &&
	    c0 == 0 && c1 == f->cols && nr == j->nsr && nc == j->nsc) {
		memcpy(dest, j->st, nr * nc * sizeof *dest);
		return PE_OK;
	}
	return pe_field_grid(f, r0, r1, nr, c0, c1, nc, dest);
}

/* One element of the patch map. */
static double
patch_value(const void *arg, size_t r, size_t c)
{
	const struct patch_job *j = arg;
	return pe_field_value(j->f, r, c);
}

/* The score of token cur with every patch, score / (d/2), as the image's
 * grid (a video's frames stacked). */
static void
mrope_patch_map(struct ctx *c, int x, int y, int w, int h, size_t cur)
{
	const struct pe_config *k = c->cfg;
	struct pe_field f;
	struct map_spec s;
	struct map_geom g;
	char title[96];

	if (view_check(c, pe_field_init(&f, PE_FIELD_PATCH_COSINE, k), x, y, w) !=
	    PE_OK)
		return;
	f.anchor = cur;
	memset(&s, 0, sizeof s);
	struct patch_job job = {.f = &f, .rc = {PE_OK, PE_OK}};
	s.src = (struct map_source){&job, patch_grid, patch_value};
	s.r0 = 0, s.r1 = f.rows, s.c0 = 0, s.c1 = f.cols;
	snprintf(title, sizeof title, "score/(d/2), token %zu with each patch "
	    "(%s ↓, w →)", cur, k->mrope.frames > 1 ? "frame·h" : "h");
	s.title = title;
	s.fmt = "%.5g";
	s.axes = true;
	s.colorbar = true;
	/* the map's own range (a scan within the kernel's budget), else the
	 * cosine's [-1, 1]; its block means at once on the other core */
	panel_map_tiling(c->cv, &s, w, h, &job.nsr, &job.nsc);
	if (job.nsr > 0)
		job.st = calloc(job.nsr * job.nsc, sizeof *job.st);
	panel_run2(patch_part, &job);
	double lo = -1, hi = 1;
	if (view_check(c, job.rc[0], 0, 0, 0) == PE_OK && job.all.minmax_exact &&
	    job.all.max > job.all.min) {
		lo = job.all.min;
		hi = job.all.max;
	}
	s.scale = (struct pe_scale){PE_CMAP_SEQUENTIAL, lo, hi, false};
	size_t pf, pr, pc;
	if (pe_mrope_part_of(k, cur, &pf, &pr, &pc) == PE_MROPE_VISION) {
		s.cursor = true;
		s.cur_r = pf * k->grid_h + pr;
		s.cur_c = pc;
	}
	view_check(c, panel_map(c->cv, x, y, w, h, &s, &g), 0, 0, 0);
	free(job.st);
	pe_field_free(&f);
}

/* mrope's main map (angles by token) and its inspector. */
static void
mrope_map(struct ctx *c)
{
	const struct pe_config *k = c->cfg;
	size_t sec[3];
	char legend[160], title[96];

	const char *grey = pe_palette_no_hue_name((enum pe_depth)c->cv->depth,
	    (enum pe_theme)c->cv->theme);
	pe_mrope_sections(k, sec);
	snprintf(legend, sizeof legend, "pairs 0–%zu turn with t · %zu–%zu h · "
	    "%zu–%zu w · %s: many turns", sec[0] - 1, sec[0],
	    sec[0] + sec[1] - 1, sec[0] + sec[1], k->d / 2 - 1, grey);
	if (k->mrope.layout == PE_MROPE_INTERLEAVED)
		snprintf(legend, sizeof legend, "interleaved: pair j turns with "
		    "h if j%%3=1 < %zu, w if j%%3=2 < %zu, else t · %s: many "
		    "turns", 3 * sec[1], 3 * sec[2], grey);
	else if (sec[0] == 0 || sec[1] == 0 || sec[2] == 0)
		snprintf(legend, sizeof legend, "sections t %zu · h %zu · w %zu · "
		    "%s: many turns", sec[0], sec[1], sec[2], grey);
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0, PE_TWO_PI, true};
	snprintf(title, sizeof title, "θ[i, j] mod 2π  (token i ↓, pair j →)");
	view_map_main(c, &sc, title, "%.3g", legend);

	size_t cur = c->st->cur_r, j = c->st->cur_c;
	int64_t p[3];
	char what[64];
	pe_mrope_position(k, cur, p);
	mrope_token_what(k, cur, what, sizeof what);
	enum pe_mrope_axis a = pe_mrope_pair_axis(k, sec, j);
	double th = (double)p[a] * c->mainf.omega[j];
	snprintf(c->insp[0], sizeof c->insp[0], " token %zu, %s, at (t, h, w) = "
	    "(%lld, %lld, %lld); θ[%zu,%zu] = %s · ω_%zu = %lld · %.9g = "
	    "%.9g rad (mod 2π: %.6g)", cur, what, (long long)p[0],
	    (long long)p[1], (long long)p[2], cur, j, axis_names[a], j,
	    (long long)p[a], c->mainf.omega[j], th, fmod(th, PE_TWO_PI));
	view_map_inspect(c, "token", "pair");
}

/* mrope: the angle map, the strip, the positions, the scores. */
static void
view_mrope(struct ctx *c)
{
	mrope_map(c);

	int x = c->rx, y = c->by, w = c->rw, h = c->bh;
	size_t cur = c->st->cur_r;
	mrope_strip(c, x, y, w, cur);
	mrope_pair_strip(c, x, y + 1, w);
	y += 2;
	h -= 2;
	int hp = h >= 30 ? 9 : (h >= 20 ? 7 : 0);
	if (hp > 0) {
		mrope_positions_plot(c, x, y, w, hp, cur);
		y += hp + 1;
		h -= hp + 1;
	}
	int hs = h >= 16 ? h / 2 - 1 : h;
	mrope_score_plot(c, x, y, w, hs, cur);
	y += hs + 1;
	h -= hs + 1;
	if (h >= 8)
		mrope_patch_map(c, x, y, w, h, cur);
}

/* ---- row -------------------------------------------------------------- */

/* The parameter line: head, base, sections, the sequence. */
static void
mrope_params(struct ctx *c, struct items *it)
{
	const struct pe_config *k = c->cfg;
	const size_t *given = k->mrope.mrope_section;
	size_t sec[3];

	pe_mrope_sections(k, sec);
	view_item(it, 0, "head_dim %zu", k->d);
	view_item(it, 1, "base %.10g", k->base);
	view_item(it, 0, "sections t %zu h %zu w %zu%s", sec[0], sec[1], sec[2],
	    given[0] || given[1] || given[2] ? ""
	    : k->d == 128 ? " (Qwen2-VL's)" : " (Qwen2-VL's, scaled)");
	view_item(it, 0, "%zu tokens", pe_mrope_length(k));
	if (k->mrope.frames > 1)
		view_item(it, 1, "text %zu · video %zu×%zu×%zu · text %zu",
		    k->mrope.text_before, k->mrope.frames, k->grid_h, k->grid_w,
		    k->mrope.text_after);
	else
		view_item(it, 1, "text %zu · image %zu×%zu · text %zu",
		    k->mrope.text_before, k->grid_h, k->grid_w,
		    k->mrope.text_after);
	if (k->mrope.layout == PE_MROPE_INTERLEAVED)
		view_item(it, 0, "interleaved t h w (Qwen3-VL)");
	if (k->mrope.tokens_per_second > 0.0) {
		char times[80] = "";
		size_t F = k->mrope.frames, show = F < 4 ? F : 3;
		for (size_t f = 0; f < show; f++)
			view_cat(times, sizeof times, "%s%lld", f ? "," : "",
			    (long long)pe_mrope_frame_time(k, f));
		view_item(it, 0, "frame t %s%s (%g s/frame × %g tokens/s)", times,
		    F > show ? ",…" : "", k->mrope.seconds_per_frame,
		    k->mrope.tokens_per_second);
	}
	view_item(it, 2, "pairing half (rotate_half)");
}

/* g/G: the image's side -/+ 1 (square). */
static int
mrope_grid(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	c.grid_h = c.grid_w = key == 'g' ? c.grid_h - 1 : c.grid_h + 1;
	return pe_state_apply(st, &c);
}

/* f/F: frames -/+ 1 (1: an image). */
static int
mrope_frames(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	c.mrope.frames = key == 'f' ? c.mrope.frames - 1 : c.mrope.frames + 1;
	return pe_state_apply(st, &c);
}

/* Halve, or double (from 0: 1), a count of text tokens. */
static size_t
mrope_text_step(size_t v, bool up)
{
	if (!up)
		return v / 2;
	return v == 0 ? 1 : (v > PE_MAX_N ? v : 2 * v);
}

/* t/T: text before halved/doubled; a/A: text after. */
static int
mrope_text(struct pe_state *st, int key)
{
	struct pe_config c = st->pane[st->focus].cfg;
	bool up = key == 'T' || key == 'A';
	if (key == 't' || key == 'T')
		c.mrope.text_before = mrope_text_step(c.mrope.text_before, up);
	else
		c.mrope.text_after = mrope_text_step(c.mrope.text_after, up);
	return pe_state_apply(st, &c);
}

static const struct pe_enc_key mrope_keys[] = {
	PE_SHARED_D_MODEL("head_dim"),
	PE_SHARED_BASE,
	{"gG", "g/G", "image", mrope_grid},
	{"fF", "f/F", "frames", mrope_frames},
	{"tT", "t/T", "text before", mrope_text},
	{"aA", "a/A", "after", mrope_text},
	PE_KEYS_END,
};

const struct pe_enc_view view_mrope_row = {
	.main = PE_FIELD_ROPE_ANGLE,
	.start_mid = true,
	.params = mrope_params,
	.draw = view_mrope,
	.map = mrope_map,
	.keys = mrope_keys,
};
