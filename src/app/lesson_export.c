/* snapshot --lesson: a scene's step as a snapshot, every step into a
 * folder (--all), or the handout (--all -f pdf: a page per step, the
 * caption and notes below the frame). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/app.h"
#include "app/lesson.h"
#include "render/pdf.h"
#include "render/writer.h"
#include "view/lesson.h"
#include "view/view.h"

/* A file name's part from a title: lowercase letters and digits, '-'
 * between words, at most 40 bytes. */
static void
slug(char *dst, size_t cap, const char *title)
{
	size_t o = 0;
	bool dash = false;
	for (const char *s = title; *s != '\0' && o + 2 < cap && o < 40; s++) {
		unsigned char c = (unsigned char)*s;
		if (isascii(c) && isalnum(c)) {
			if (dash && o > 0)
				dst[o++] = '-';
			dst[o++] = (char)tolower(c);
			dash = false;
		} else {
			dash = true;
		}
	}
	dst[o] = '\0';
}

/* The handout: a PDF page per scene step, the frame without its caption
 * band, the caption and the notes below it. */
static int
handout(const struct pe_options *o, const struct pe_app_lesson *al)
{
	struct pe_atomic out;
	if (pe_atomic_open(&out, o->output) != PE_OK) {
		pe_app_error("-o '%s': cannot create a file there: %s", o->output,
		    strerror(errno));
		return PE_EXIT_USAGE;
	}
	struct pe_pdf *pdf = pe_pdf_open(out.fp, al->l.title);
	/* a handout is printed: a4 unless told */
	pe_pdf_paper(pdf, o->paper_given ? (enum pe_paper)o->paper
					 : PE_PAPER_A4);
	struct pe_canvas cv = {0};
	char *below = malloc(32768), *cap = malloc(16384);
	int rc = pdf != NULL && below != NULL && cap != NULL &&
	    pe_canvas_init(&cv, o->width, o->height) == PE_OK ? PE_OK : PE_ENOMEM;
	enum pe_depth depth = o->depth >= 0 ? (enum pe_depth)o->depth
					    : PE_DEPTH_TRUECOLOR;
	/* a handout is printed: on the light theme unless told */
	enum pe_theme theme = o->theme_given ? o->theme : PE_THEME_LIGHT;
	if (cv.cells != NULL)
		pe_snapshot_pixels(o, &cv);
	for (size_t i = 0; rc == PE_OK && i < al->l.nscenes; i++) {
		const struct pe_scene *s = &al->l.scenes[i];
		for (size_t j = 0; rc == PE_OK && j < s->nsteps; j++) {
			struct pe_state st;
			struct pe_model m;
			pe_app_lesson_state(al, i, j, o, &st);
			st.session.caption_below = !s->text_only;
			st.session.no_chrome = true; /* no keys on a page */
			rc = pe_model_init(&m, &st.pane[st.focus].cfg);
			if (rc != PE_OK)
				break;
			cv.depth = depth;
			cv.theme = theme;
			rc = pe_view_render(&st, &m, &cv, NULL);
			if (rc == PE_OK) {
				pe_lesson_caption(&st, &m, cap, 16384);
				const char *notes = o->no_notes ? "" : s->notes;
				snprintf(below, 32768, "%s%s%s%s", s->text_only ? "" : cap,
				    notes[0] != '\0' && !s->text_only ? "\n\n" : "",
				    notes[0] != '\0' ? "Notes: " : "", notes);
				rc = pe_pdf_page(pdf, &cv, depth, theme, below);
			}
			pe_model_free(&m);
		}
	}
	if (cv.cells != NULL)
		pe_canvas_free(&cv);
	int cr = pdf != NULL ? pe_pdf_close(pdf) : PE_ENOMEM;
	free(below);
	free(cap);
	if (rc == PE_OK)
		rc = cr;
	if (rc == PE_OK)
		rc = pe_atomic_commit(&out);
	else
		pe_atomic_abort(&out);
	if (rc != PE_OK) {
		pe_app_error("-o '%s': the handout was not written: %s", o->output,
		    pe_strerror(rc));
		return PE_EXIT_FAIL;
	}
	return PE_EXIT_OK;
}

/* snapshot --lesson: one scene's step, or with --all every step of every
 * scene into the folder -o (with -f pdf: one handout, a page each). */
int
pe_snapshot_lesson(const struct pe_options *o)
{
	struct pe_app_lesson al;
	char err[1024];
	size_t k, step;

	if (pe_app_lesson_load(&al, o, err, sizeof err) != 0 ||
	    pe_app_lesson_scene(o, &al.l, &k, &step, err, sizeof err) != 0) {
		pe_app_error("%s", err);
		pe_app_lesson_free(&al);
		return PE_EXIT_USAGE;
	}
	struct pe_state st;
	int rc = PE_EXIT_OK;
	if (!o->lesson_all) {
		pe_app_lesson_state(&al, k, step, o, &st);
		rc = pe_snapshot_write(o, &st, o->output != NULL ? o->output : "-");
		pe_app_lesson_free(&al);
		return rc;
	}
	if (pe_formats[o->snap_format].paged) { /* one document, a page each */
		rc = handout(o, &al);
		pe_app_lesson_free(&al);
		return rc;
	}
	const char *dot = strrchr(o->output, '.');
	for (int i = 0; dot != NULL && i < PE_FMT_COUNT; i++)
		if (strcmp(dot + 1, pe_formats[i].ext) == 0) {
			pe_app_error("-o '%s': --all writes a file per scene into a "
			    "folder; give it a folder's name (-f pdf writes one "
			    "handout)", o->output);
			pe_app_lesson_free(&al);
			return PE_EXIT_USAGE;
		}
	struct stat sb;
	if (stat(o->output, &sb) != 0) {
		if (mkdir(o->output, 0777) != 0) {
			pe_app_error("-o '%s': cannot create the folder: %s", o->output,
			    strerror(errno));
			pe_app_lesson_free(&al);
			return PE_EXIT_USAGE;
		}
	} else if (!S_ISDIR(sb.st_mode)) {
		pe_app_error("-o '%s': --all writes a file per scene into a folder, "
		    "and this is not one", o->output);
		pe_app_lesson_free(&al);
		return PE_EXIT_USAGE;
	}
	for (size_t i = 0; i < al.l.nscenes && rc == PE_EXIT_OK; i++) {
		const struct pe_scene *s = &al.l.scenes[i];
		for (size_t j = 0; j < s->nsteps && rc == PE_EXIT_OK; j++) {
			char sl[64], path[4096], stepn[24] = "";
			slug(sl, sizeof sl, s->title);
			if (s->nsteps > 1)
				snprintf(stepn, sizeof stepn, "-%zu", j + 1);
			snprintf(path, sizeof path, "%s/%02zu-%s%s.%s", o->output, i + 1,
			    sl, stepn, pe_formats[o->snap_format].ext);
			pe_app_lesson_state(&al, i, j, o, &st);
			rc = pe_snapshot_write(o, &st, path);
		}
	}
	pe_app_lesson_free(&al);
	return rc;
}
