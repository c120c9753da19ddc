/* pescope snapshot: exactly the frame the TUI shows for the same options
 * and size, written as ANSI, plain text, HTML, SVG, PDF or PNG. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "render/writer.h"
#include "view/view.h"

/* The color depth for a file: --color, else NO_COLOR means mono, else
 * truecolor. */
static enum pe_depth
snapshot_depth(const struct pe_options *o)
{
	if (o->depth >= 0)
		return (enum pe_depth)o->depth;
	const char *nc = getenv("NO_COLOR");
	if (nc != NULL && nc[0] != '\0')
		return PE_DEPTH_MONO;
	return PE_DEPTH_TRUECOLOR;
}

/* See app.h. */
void
pe_snapshot_pixels(const struct pe_options *o, struct pe_canvas *cv)
{
	const struct pe_format_row *f = &pe_formats[o->snap_format];
	int n = o->scale_given ? (int)o->scale
	    : f->pixels == 2 ? PE_SCALE_DEFAULT : 0;
	if (f->pixels > 0 && n > 0)
		pe_canvas_want_pixels(cv, n, 2 * n, f->name);
}

/* See app.h. */
int
pe_snapshot_write(const struct pe_options *o, const struct pe_state *st,
    const char *path)
{
	struct pe_model m, mb;
	struct pe_canvas cv;
	int rc = PE_EXIT_FAIL;

	/* A binary format (PDF) never goes onto a terminal. */
	const struct pe_format_row *fmt = &pe_formats[o->snap_format];
	if (fmt->binary && strcmp(path, "-") == 0 && isatty(STDOUT_FILENO)) {
		pe_app_error("-f %s: standard output is a terminal; give -o "
		    "FILE.%s or redirect it", fmt->name, fmt->ext);
		return PE_EXIT_USAGE;
	}
	/* The output is created before any work: a bad path costs nothing. */
	struct pe_atomic out;
	if (pe_atomic_open(&out, path) != PE_OK) {
		pe_app_error("-o '%s': cannot create a file there: %s", path,
		    strerror(errno));
		return PE_EXIT_USAGE;
	}
	/* the focused pane's model, and in compare mode the other's */
	const struct pe_config *ca = &st->pane[st->focus].cfg;
	const struct pe_config *cb = &st->pane[st->focus == PE_PANE_A
	    ? PE_PANE_B : PE_PANE_A].cfg;
	if (pe_model_init(&m, ca) != PE_OK) {
		pe_atomic_abort(&out);
		pe_app_error("cannot prepare the %s view (out of memory?)",
		    pe_encoding_name(ca->enc));
		return PE_EXIT_FAIL;
	}
	if (st->compare) { /* --compare: pane B's model beside */
		if (pe_model_init(&mb, cb) != PE_OK) {
			pe_app_error("cannot prepare pane B's %s view (out of "
			    "memory?)", pe_encoding_name(cb->enc));
			goto end_a;
		}
		m.other = &mb;
	}
	if (pe_canvas_init(&cv, o->width, o->height) != PE_OK) {
		pe_app_error("out of memory");
		goto end_b;
	}
	/* what it is written at: a legend names the colors drawn there
	 * (txt has none) */
	cv.depth = o->snap_format == PE_FMT_TXT ? PE_DEPTH_MONO
	    : snapshot_depth(o);
	cv.theme = o->theme;
	pe_snapshot_pixels(o, &cv);
	int vs = pe_view_render(st, &m, &cv, NULL);
	if (vs != PE_OK) { /* a panel is missing: write no half frame */
		pe_app_error("the frame could not be drawn whole: %s; nothing was "
		    "written", pe_strerror(vs));
		goto end_cv;
	}
	char title[128];
	snprintf(title, sizeof title, "pescope %s", pe_encoding_name(ca->enc));
	if (st->compare)
		snprintf(title, sizeof title, "pescope %s vs %s",
		    pe_encoding_name(ca->enc), pe_encoding_name(cb->enc));
	struct pe_write_opts wo = {snapshot_depth(o), o->theme, title,
	    o->paper};
	int st2 = pe_write(out.fp, &cv, o->snap_format, &wo);
	if (st2 == PE_OK)
		st2 = pe_atomic_commit(&out);
	if (st2 != PE_OK)
		pe_app_error("-o '%s': write failed (%s); nothing was written", path,
		    strerror(errno));
	else
		rc = PE_EXIT_OK;
end_cv:
	pe_canvas_free(&cv);
end_b:
	if (st->compare)
		pe_model_free(&mb);
end_a:
	if (rc != PE_EXIT_OK)
		pe_atomic_abort(&out);
	pe_model_free(&m);
	return rc;
}

/* pescope snapshot of the options' frame (a lesson's steps are
 * pe_snapshot_lesson's). */
int
pe_snapshot_run(const struct pe_options *o)
{
	struct pe_state st;
	size_t rows, cols;

	pe_state_main_dims(&o->cfg, &rows, &cols);
	if (o->cursor_given && (o->cursor_p >= rows || o->cursor_j >= cols)) {
		pe_app_error("--cursor %zu,%zu: the %s map is %zu x %zu, so P must "
		    "be in 0..%zu and J in 0..%zu", o->cursor_p, o->cursor_j,
		    pe_encoding_name(o->cfg.enc), rows, cols, rows - 1, cols - 1);
		return PE_EXIT_USAGE;
	}
	pe_app_state_from_options(o, &st);
	return pe_snapshot_write(o, &st, o->output != NULL ? o->output : "-");
}
