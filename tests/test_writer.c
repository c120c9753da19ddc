/* Writers: ANSI, TXT and HTML give exactly H lines of W columns, SGR only
 * where the look changes, mono without colors, HTML well-formed; SVG and
 * PDF documents (tests/check_svg.py, check_pdf.py and check_browser.py
 * compare their colors with the ANSI frame's); PDF pages through the
 * page API. */
#include <cairo.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "render/draw.h"
#include "pescope/pescope.h"
#include "render/pdf.h"
#include "render/writer.h"

#define W 13
#define H 5

static const enum pe_depth depths[5] = {PE_DEPTH_TRUECOLOR, PE_DEPTH_256,
                                        PE_DEPTH_16, PE_DEPTH_8, PE_DEPTH_MONO};

/* A canvas with text, heatmap cells (value, masked, undefined), braille,
 * box drawing, attributes and characters HTML must escape. */
static void
make_canvas(struct pe_canvas *cv)
{
	struct pe_scale sc = {PE_CMAP_DIVERGING, -1.0, 1.0, false};
	struct pe_stats s[8] = {0};

	cr_assert_eq(pe_canvas_init(cv, W, H), PE_OK);
	pe_canvas_text(cv, 0, 0, W, "a<b & \"c\" \xc2\xb7z", 0x5f87af,
	               PE_COLOR_DEFAULT, PE_ATTR_BOLD);
	for (int i = 0; i < 8; i++) {
		s[i].mean = -1.0 + i / 3.5;
		s[i].resultant = 1.0;
		s[i].count = 2;
	}
	s[1].masked = 2;
	s[5].masked = 2;
	s[2].undefined = 2;
	s[6].undefined = 2;
	s[2].mean = s[6].mean = s[1].mean = s[5].mean = NAN;
	pe_draw_heatmap(cv, 0, 1, 4, 1, s, &sc);
	const double ys[6] = {0, 1, 0.5, NAN, 0.2, 0.9};
	pe_draw_plot(cv, 5, 1, 4, 2, ys, 6, 0.0, 1.0, 0x00ff00);
	pe_canvas_box(cv, 9, 1, 4, 3, NULL, 0xaaaaaa);
	pe_canvas_fill(cv, 0, 4, 5, 1, 'x', 0xcd0000, 0x0000ee);
	pe_canvas_set(cv, 6, 4, 'R', 0xffffff, 0x000000, PE_ATTR_REVERSE);
}

/* Write a canvas to a malloc'd string. */
static char *
write_str(const struct pe_canvas *cv, enum pe_format fmt, enum pe_depth d,
          const char *title)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	cr_assert_not_null(fp);
	cr_assert_eq(pe_write_canvas(fp, cv, fmt, d, title), PE_OK);
	fclose(fp);
	return buf;
}

/* Count lines and their widths in code points, skipping ESC [ ... final
 * byte sequences; fails on a line of the wrong width. */
static void
expect_grid(const char *s, int w, int h)
{
	int lines = 0, cols = 0;

	while (*s != '\0') {
		if (s[0] == '\033') {
			cr_assert_eq(s[1], '[', "only CSI sequences");
			s += 2;
			while (*s != '\0' && !(*s >= 0x40 && *s <= 0x7e))
				s++;
			cr_assert_eq(*s, 'm', "only SGR");
			s++;
			continue;
		}
		if (*s == '\n') {
			cr_expect_eq(cols, w, "line %d is %d wide", lines,
			             cols);
			lines++;
			cols = 0;
			s++;
			continue;
		}
		uint32_t cp;
		int n = pe_utf8_decode(s, &cp);
		cr_assert_gt(n, 0);
		cr_expect_neq(cp, 0xfffd, "valid UTF-8");
		cr_expect_geq(cp, 0x20u, "no control characters");
		s += n;
		cols++;
	}
	cr_expect_eq(cols, 0, "last line newline-terminated");
	cr_expect_eq(lines, h);
}

Test(writer, parse_format)
{
	cr_expect_eq(pe_format_parse("ansi"), PE_FMT_ANSI);
	cr_expect_eq(pe_format_parse("txt"), PE_FMT_TXT);
	cr_expect_eq(pe_format_parse("html"), PE_FMT_HTML);
}

Test(writer, ansi_and_txt_grid)
{
	struct pe_canvas cv;

	make_canvas(&cv);
	for (int d = 0; d < 5; d++) {
		char *out = write_str(&cv, PE_FMT_ANSI, depths[d], NULL);
		expect_grid(out, W, H);
		free(out);
		out = write_str(&cv, PE_FMT_TXT, depths[d], NULL);
		expect_grid(out, W, H);
		cr_expect_null(strchr(out, '\033'), "txt has no escapes");
		free(out);
	}
	pe_canvas_free(&cv);
}

Test(writer, ansi_line_ends_reset)
{
	struct pe_canvas cv;

	make_canvas(&cv);
	for (int d = 0; d < 5; d++) {
		char *out = write_str(&cv, PE_FMT_ANSI, depths[d], NULL);
		int nl = 0;
		for (char *p = strchr(out, '\n'); p != NULL;
		     p = strchr(p + 1, '\n')) {
			cr_expect(
			    p - out >= 4 && strncmp(p - 4, "\033[0m", 4) == 0,
			    "depth %d: line %d ends without a reset", d, nl);
			nl++;
		}
		cr_expect_eq(nl, H);
		free(out);
	}
	pe_canvas_free(&cv);
}

/* SGR codes per depth (ECMA-48 / xterm ctlseqs): 38;2;r;g;b, 38;5;n,
 * 30-37 / 40-47 for the first eight, 90-97 / 100-107 for the bright. */
Test(writer, ansi_color_codes)
{
	struct pe_canvas cv;
	char *out;

	cr_assert_eq(pe_canvas_init(&cv, 3, 1), PE_OK);
	pe_canvas_set(&cv, 0, 0, 'a', 0x5f87af, PE_COLOR_DEFAULT, 0);
	pe_canvas_set(&cv, 1, 0, 'b', 0xcd0000, 0x0000ee, 0);
	pe_canvas_set(&cv, 2, 0, 'c', 0xff0000, 0xffffff, PE_ATTR_BOLD);
	out = write_str(&cv, PE_FMT_ANSI, PE_DEPTH_TRUECOLOR, NULL);
	cr_expect_str_eq(out,
	                 "\033[0;38;2;95;135;175ma"
	                 "\033[0;38;2;205;0;0;48;2;0;0;238mb"
	                 "\033[0;1;38;2;255;0;0;48;2;255;255;255mc\033[0m\n");
	free(out);
	out = write_str(&cv, PE_FMT_ANSI, PE_DEPTH_256, NULL);
	/* 0xcd0000 -> cube (215,0,0) = 160; 0x0000ee -> (0,0,255)... */
	cr_expect_str_eq(out, "\033[0;38;5;67ma\033[0;38;5;160;48;5;21mb"
	                      "\033[0;1;38;5;196;48;5;231mc\033[0m\n");
	free(out);
	out = write_str(&cv, PE_FMT_ANSI, PE_DEPTH_16, NULL);
	/* a: 0x5f87af's nearest, bright black (#7f7f7f), has 4.26:1 on the
	 * dark page (#1c1c1c): the nearest hue that reads is cyan (#00cdcd) */
	cr_expect_str_eq(out, "\033[0;36ma\033[0;31;44mb\033[0;1;91;107mc"
	                      "\033[0m\n");
	free(out);
	out = write_str(&cv, PE_FMT_ANSI, PE_DEPTH_MONO, NULL);
	/* Mono: attributes only, never a color. */
	cr_expect_str_eq(out, "ab\033[0;1mc\033[0m\n");
	free(out);
	pe_canvas_free(&cv);
}

Test(writer, ansi_sgr_only_on_change)
{
	struct pe_canvas cv;
	char *out;
	int n = 0;

	cr_assert_eq(pe_canvas_init(&cv, 6, 2), PE_OK);
	pe_canvas_fill(&cv, 0, 0, 6, 1, '#', 0x123456, 0x654321);
	out = write_str(&cv, PE_FMT_ANSI, PE_DEPTH_TRUECOLOR, NULL);
	for (char *p = strstr(out, "\033["); p != NULL;
	     p = strstr(p + 1, "\033["))
		n++;
	/* One SGR for the run, one reset per line; the default second
	 * line has no color code at all. */
	cr_expect_eq(n, 3, "%s", out);
	cr_expect(strstr(out, "\n      \033[0m\n") != NULL);
	free(out);
	pe_canvas_free(&cv);
}

Test(writer, mono_has_no_color)
{
	struct pe_canvas cv;

	make_canvas(&cv);
	char *out = write_str(&cv, PE_FMT_ANSI, PE_DEPTH_MONO, NULL);
	cr_expect_null(strstr(out, "38;"));
	cr_expect_null(strstr(out, "48;"));
	for (char *p = strstr(out, "\033["); p != NULL;
	     p = strstr(p + 1, "\033[")) {
		/* Only resets and attributes: no 3x/4x/9x/10x parameters. */
		const char *q = p + 2;
		while (*q != 'm') {
			long v = strtol(q, (char **)&q, 10);
			cr_expect(v < 30, "color parameter %ld", v);
			if (*q == ';')
				q++;
		}
	}
	free(out);
	pe_canvas_free(&cv);
}

Test(writer, txt_glyphs_are_mono)
{
	struct pe_canvas cv;

	make_canvas(&cv);
	char *out = write_str(&cv, PE_FMT_TXT, PE_DEPTH_TRUECOLOR, NULL);
	/* Heatmap row: value cell, masked '/', undefined '?', value. */
	const char *row1 = strchr(out, '\n') + 1;
	cr_expect_eq(row1[1], '/');
	cr_expect_eq(row1[2], '?');
	cr_expect_null(strstr(out, "\xe2\x96\x80"), "no half blocks");
	cr_expect_eq(strncmp(out, "a<b & \"c\" \xc2\xb7z", 13), 0);
	free(out);
	/* Ramp ends. */
	struct pe_cell c = {0};
	c.kind = PE_CELL_SHADE;
	c.cp = 0x2580;
	c.shade = 255;
	cr_expect_eq(pe_writer_glyph(&c, PE_DEPTH_MONO), '@');
	cr_expect_eq(pe_writer_glyph(&c, PE_DEPTH_256), 0x2580);
	c.shade = 0;
	cr_expect_eq(pe_writer_glyph(&c, PE_DEPTH_MONO), ' ');
	pe_canvas_free(&cv);
}

/* Strip tags and decode the five entities the writer uses, then check the
 * <pre> is H lines of W code points. */
static void
expect_html_grid(const char *doc, int w, int h)
{
	const char *pre = strstr(doc, "<pre>"), *end = strstr(doc, "</pre>");
	char *text, *o;

	cr_assert(pre != NULL && end != NULL && pre < end);
	pre += 5;
	text = malloc((size_t)(end - pre) + 1);
	o = text;
	for (const char *p = pre; p < end;) {
		if (*p == '<') {
			p = strchr(p, '>') + 1;
			continue;
		}
		if (*p == '&') {
			static const char *const ent[][2] = {{"&amp;", "&"},
			                                     {"&lt;", "<"},
			                                     {"&gt;", ">"},
			                                     {"&quot;", "\""},
			                                     {"&#39;", "'"}};
			bool ok = false;
			for (size_t i = 0; i < 5; i++)
				if (strncmp(p, ent[i][0], strlen(ent[i][0])) ==
				    0) {
					*o++ = ent[i][1][0];
					p += strlen(ent[i][0]);
					ok = true;
					break;
				}
			cr_assert(ok, "unknown entity at %.8s", p);
			continue;
		}
		cr_expect(*p != '>' && *p != '"', "unescaped %c", *p);
		*o++ = *p++;
	}
	*o = '\0';
	expect_grid(text, w, h);
	free(text);
}

Test(writer, html_document)
{
	struct pe_canvas cv;

	make_canvas(&cv);
	for (int d = 0; d < 5; d++) {
		char *out = write_str(&cv, PE_FMT_HTML, depths[d], "x<y & z");
		cr_expect_eq(strncmp(out, "<!DOCTYPE html>", 15), 0);
		cr_expect_not_null(strstr(out, "<meta charset=\"utf-8\">"));
		cr_expect_not_null(
		    strstr(out, "<title>x&lt;y &amp; z</title>"));
		cr_expect_not_null(strstr(out, "line-height: 1.25"));
		cr_expect_not_null(strstr(out, "monospace"));
		cr_expect_not_null(strstr(out, "</html>\n"));
		expect_html_grid(out, W, H);
		if (depths[d] == PE_DEPTH_MONO)
			cr_expect_null(strstr(out, "color:#"),
			               "mono: no color");
		else
			cr_expect_not_null(strstr(out, ";color:#"));
		free(out);
	}
	pe_canvas_free(&cv);
}

Test(writer, html_span_colors)
{
	struct pe_canvas cv;

	cr_assert_eq(pe_canvas_init(&cv, 2, 1), PE_OK);
	pe_canvas_set(&cv, 0, 0, '<', 0x5f87af, 0x080808, 0);
	pe_canvas_set(&cv, 1, 0, 'b', 0x82a9d0, PE_COLOR_DEFAULT, 0);
	char *out = write_str(&cv, PE_FMT_HTML, PE_DEPTH_TRUECOLOR, "t");
	cr_expect_not_null(strstr(out, "<pre><span style=\"width:1ch;"
	                               "color:#5f87af;background:#080808\">"
	                               "&lt;</span><span style=\"width:1ch;"
	                               "color:#82a9d0\">b</span>\n</pre>"),
	                   "%s", out);
	free(out);
	/* 256 colors: the palette entry's RGB (0x82a9d0 -> 110 = #87afd7). */
	out = write_str(&cv, PE_FMT_HTML, PE_DEPTH_256, "t");
	cr_expect_not_null(strstr(out, "color:#87afd7"), "%s", out);
	free(out);
	/* half blocks are backgrounds: top and bottom colors, a blank */
	pe_canvas_set(&cv, 0, 0, 0x2580, 0x112233, 0x445566, 0);
	out = write_str(&cv, PE_FMT_HTML, PE_DEPTH_TRUECOLOR, "t");
	cr_expect_not_null(strstr(out, "background:linear-gradient(#112233 "
	                               "50%,#445566 50%)\"> </span>"), "%s", out);
	free(out);
	pe_canvas_free(&cv);
}

/* The document also passes Python's html.parser (tests/check_html.py). */
Test(writer, html_parses)
{
	const char *py = "/usr/bin/python3";
	struct pe_canvas cv;
	char path[] = "/tmp/pescope-html-XXXXXX";
	char cmd[8192];

	if (access(py, X_OK) != 0)
		cr_skip_test("no %s", py);
	make_canvas(&cv);
	for (int d = 0; d < 5; d++) {
		int fd = mkstemp(path);
		cr_assert_geq(fd, 0);
		FILE *fp = fdopen(fd, "w");
		cr_assert_eq(pe_write_canvas(fp, &cv, PE_FMT_HTML, depths[d],
		                             "check <&> \"it\""),
		             PE_OK);
		fclose(fp);
		snprintf(cmd, sizeof cmd, "%s %s --size %dx%d %s", py,
		         th_src("tests/check_html.py"), W, H, path);
		cr_expect_eq(system(cmd), 0, "%s", cmd);
		unlink(path);
		strcpy(path, "/tmp/pescope-html-XXXXXX");
	}
	pe_canvas_free(&cv);
}

Test(writer, stream_error)
{
	struct pe_canvas cv;
	FILE *fp = fopen("/dev/full", "w");

	if (fp == NULL)
		cr_skip_test("no /dev/full");
	cr_assert_eq(pe_canvas_init(&cv, 4, 2), PE_OK);
	cr_expect_eq(pe_write_canvas(fp, &cv, PE_FMT_TXT, PE_DEPTH_MONO, NULL),
	             PE_EIO);
	fclose(fp);
	pe_canvas_free(&cv);
}

/* Whether a 256-color index is a grey: the ramp 232..255 or the cube's
 * diagonal (r = g = b). */
static bool
is_grey_256(int i)
{
	if (i >= 232)
		return true;
	if (i < 16)
		return false;
	i -= 16;
	return i / 36 == (i / 6) % 6 && i / 36 == i % 6;
}

/* At 256 colors the cyclic RoPE map kept landing on grey entries (62 of its
 * 256 levels), which the legend reserves for "a block spans many turns":
 * every level at full resultant keeps a hue; a block of resultant 0 is
 * grey. Read back from the writer's SGR, as a terminal would. */
Test(writer, cyclic_map_keeps_its_hue_at_256)
{
	struct pe_canvas cv;
	struct pe_scale sc = {PE_CMAP_CYCLIC, 0, 6.283185307179586, true};
	struct pe_stats s[2 * 256];

	memset(s, 0, sizeof s);
	for (int k = 0; k < 256; k++) {
		s[k].mean = (k + 0.5) / 256 * 6.283185307179586;
		s[k].resultant = 1.0;
		s[k].count = 1;
		s[256 + k] = s[k];
		s[256 + k].resultant = 0.0; /* many turns */
	}
	cr_assert_eq(pe_canvas_init(&cv, 256, 1), PE_OK);
	pe_draw_heatmap(&cv, 0, 0, 256, 1, s, &sc);
	char *out = write_str(&cv, PE_FMT_ANSI, PE_DEPTH_256, NULL);
	int cells = 0, fg = -1, bg = -1, hue_grey = 0, turns_hue = 0;
	for (const char *p = out; *p != '\0';) {
		if (p[0] == '\033') {
			const char *f = strstr(p, ";38;5;"), *b = strstr(p, ";48;5;");
			const char *end = strchr(p, 'm');
			if (f != NULL && f < end)
				fg = atoi(f + 6);
			if (b != NULL && b < end)
				bg = atoi(b + 6);
			p = end + 1;
			continue;
		}
		if ((unsigned char)p[0] == 0xe2 && cells < 256) { /* U+2580 */
			hue_grey += is_grey_256(fg);
			turns_hue += !is_grey_256(bg);
			if (is_grey_256(fg) && hue_grey <= 3)
				cr_log_error("level %d at full resultant -> grey %d",
				    cells, fg);
			cells++;
			p += 3;
			continue;
		}
		p++;
	}
	cr_expect_eq(cells, 256);
	cr_expect_eq(hue_grey, 0, "%d of 256 levels at full resultant show a "
	    "grey", hue_grey);
	cr_expect_eq(turns_hue, 0, "%d blocks of many turns show a hue",
	    turns_hue);
	free(out);
	pe_canvas_free(&cv);
}

/* Write with pe_write into a malloc'd string (*len: its bytes). */
static char *
write_opts(const struct pe_canvas *cv, enum pe_format fmt, enum pe_depth d,
           enum pe_theme t, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);
	struct pe_write_opts wo = {d, t, "a & b"};

	cr_assert_not_null(fp);
	cr_assert_eq(pe_write(fp, cv, fmt, &wo), PE_OK);
	fclose(fp);
	if (len != NULL)
		*len = n;
	return buf;
}

Test(writer, formats_parse)
{
	cr_expect_eq(pe_format_parse("svg"), PE_FMT_SVG);
	cr_expect_eq(pe_format_parse("pdf"), PE_FMT_PDF);
	cr_expect_eq(pe_format_parse("png"), PE_FMT_PNG);
	cr_expect_eq(pe_format_parse("gif"), -1);
}

/* An SVG document in every depth and theme: its size is 9 x 18 units a
 * cell, its title escaped, its background the theme's page. */
Test(writer, svg_document)
{
	struct pe_canvas cv;

	make_canvas(&cv);
	for (int d = 0; d < 5; d++)
		for (int t = 0; t < PE_THEME_COUNT; t++) {
			char *out = write_opts(&cv, PE_FMT_SVG, depths[d],
			    (enum pe_theme)t, NULL);
			cr_expect_eq(strncmp(out, "<?xml version=\"1.0\"", 19), 0);
			/* 13 x 5 cells of 9 x 18, inside a margin of 18 */
			cr_expect_not_null(strstr(out, "width=\"153\" height=\"126\" "
			    "viewBox=\"-18 -18 153 126\""));
			cr_expect_not_null(strstr(out, "<rect class=\"margin\""));
			cr_expect_not_null(strstr(out, "<title>a &amp; b</title>"));
			cr_expect_not_null(strstr(out, "crispEdges"));
			/* the blank cell at 12,4 is the page */
			/* (xterm's white at 8 colors is #e5e5e5) */
			const char *page = t == PE_THEME_DARK ? "fill=\"#1c1c1c\""
			    : depths[d] == PE_DEPTH_8 ? "fill=\"#e5e5e5\""
			    : "fill=\"#ffffff\"";
			cr_expect_not_null(strstr(out, page), "%s", out);
			cr_expect_eq(strcmp(out + strlen(out) - 7, "</svg>\n"), 0);
			free(out);
		}
	pe_canvas_free(&cv);
}

/* Whether program prog is on the PATH. */
static bool
have(const char *prog)
{
	char cmd[256];

	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/* The page API: three pages, the second with paragraphs below the frame,
 * in one document; poppler's pdfinfo counts the pages and measures them
 * (6 x 12 pt a cell, 24 pt margins, 14 pt a line of text below after a
 * 14 pt gap). */
Test(writer, pdf_pages)
{
	struct pe_canvas cv;
	char path[] = "/tmp/pescope-pdf-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	FILE *fp = fdopen(fd, "w");
	make_canvas(&cv);
	struct pe_pdf *pdf = pe_pdf_open(fp, "three pages");
	cr_assert_not_null(pdf);
	cr_expect_eq(pe_pdf_page(pdf, &cv, PE_DEPTH_TRUECOLOR, PE_THEME_DARK,
	    NULL), PE_OK);
	cr_expect_eq(pe_pdf_page(pdf, &cv, PE_DEPTH_256, PE_THEME_LIGHT,
	    "One.\n\nTwo."), PE_OK);
	cr_expect_eq(pe_pdf_page(pdf, &cv, PE_DEPTH_MONO, PE_THEME_LIGHT, ""),
	    PE_OK);
	cr_expect_eq(pe_pdf_close(pdf), PE_OK);
	fclose(fp);
	size_t len;
	char *body = th_slurp(path, &len);
	cr_assert_not_null(body);
	cr_expect(len > 5 && memcmp(body, "%PDF-", 5) == 0);
	free(body);
	if (!have("pdfinfo")) {
		unlink(path);
		pe_canvas_free(&cv);
		cr_skip_test("no pdfinfo (poppler-utils): page sizes unchecked");
	}
	char cmd[512], *out = NULL;
	snprintf(cmd, sizeof cmd, "pdfinfo -f 1 -l 3 %s", path);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	char line[256];
	int pages = -1;
	double w[4] = {0}, h[4] = {0};
	while (fgets(line, sizeof line, p) != NULL) {
		int k;
		double a, b;
		if (sscanf(line, "Pages: %d", &k) == 1)
			pages = k;
		if (sscanf(line, "Page %d size: %lf x %lf", &k, &a, &b) == 3 &&
		    k >= 1 && k <= 3) {
			w[k] = a;
			h[k] = b;
		}
	}
	pclose(p);
	free(out);
	cr_expect_eq(pages, 3);
	for (int k = 1; k <= 3; k++)
		cr_expect(fabs(w[k] - (W * 6 + 48)) < 0.01, "page %d: %g wide", k,
		    w[k]);
	cr_expect(fabs(h[1] - (H * 12 + 48)) < 0.01, "page 1: %g tall", h[1]);
	/* "One.", a blank line, "Two." */
	cr_expect(fabs(h[2] - (H * 12 + 48 + 14 + 3 * 14)) < 0.01,
	    "page 2: %g tall", h[2]);
	cr_expect(fabs(h[3] - h[1]) < 0.01, "page 3: %g tall", h[3]);
	unlink(path);
	pe_canvas_free(&cv);
}

/* A stream that fails is PE_EIO for SVG and PDF too. */
Test(writer, vector_stream_error)
{
	struct pe_canvas cv;
	enum pe_format fmts[] = {PE_FMT_SVG, PE_FMT_PDF, PE_FMT_HTML};

	make_canvas(&cv);
	for (size_t i = 0; i < 3; i++) {
		FILE *fp = fopen("/dev/full", "w");
		struct pe_write_opts wo = {PE_DEPTH_TRUECOLOR, PE_THEME_LIGHT, NULL};
		if (fp == NULL)
			cr_skip_test("no /dev/full");
		cr_expect_eq(pe_write(fp, &cv, fmts[i], &wo), PE_EIO, "format %d",
		    fmts[i]);
		fclose(fp);
	}
	pe_canvas_free(&cv);
}

/* cairo's read function over a buffer (closure: a struct png_buf). */
struct png_buf {
	const unsigned char *p;
	size_t left;
};

static cairo_status_t
png_buf_read(void *closure, unsigned char *data, unsigned int length)
{
	struct png_buf *b = closure;

	if (length > b->left)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, b->p, length);
	b->p += length;
	b->left -= length;
	return CAIRO_STATUS_SUCCESS;
}

/* How far a pixel is from c: its largest channel difference. */
static int
png_dist(uint32_t px, pe_color c)
{
	int d = 0;

	for (int s = 16; s >= 0; s -= 8) {
		int e = (int)((px >> s) & 0xff) - (int)((c >> s) & 0xff);
		if (e < 0)
			e = -e;
		if (e > d)
			d = e;
	}
	return d;
}

/* The slide text of the tests below: "d_model" over a blank row and
 * "ω_0 = 0.54" on the last row. */
static void
make_slide(struct pe_canvas *cv, pe_color ink)
{
	cr_assert_eq(pe_canvas_init(cv, 12, 3), PE_OK);
	pe_canvas_text(cv, 1, 0, 11, "d_model", ink, PE_COLOR_DEFAULT, 0);
	pe_canvas_text(cv, 0, 2, 12, "\xcf\x89_0 = 0.54", ink,
	    PE_COLOR_DEFAULT, 0);
}

/* make_slide's frame as an image whose cells are cw x ch pixels from x0,
 * y0: each underscore is visible (a pixel at least half way from the
 * page to the text's color) in the lower half of its own cell, and the
 * blank row between is the page: nothing of a glyph reaches into the row
 * below or the row above. */
static void
expect_slide(cairo_surface_t *sf, double x0, double y0, double cw, double ch,
    pe_color ink, const char *what)
{
	int stride = cairo_image_surface_get_stride(sf);
	const unsigned char *data = cairo_image_surface_get_data(sf);
	pe_color page = pe_look_rgb(-1, PE_DEPTH_TRUECOLOR, PE_THEME_DARK,
	    false);
	int full = png_dist(ink, page), stray = 0;
#define PX(x, y) (*(const uint32_t *)(data + (size_t)(y) * stride + \
	    (size_t)(x) * 4) & 0xffffff)

	cairo_surface_flush(sf);
	for (int y = (int)ceil(y0 + ch - 1e-6); y < (int)(y0 + 2 * ch); y++)
		for (int x = (int)x0; x < (int)(x0 + 12 * cw); x++)
			stray += png_dist(PX(x, y), page) > 8;
	cr_expect_eq(stray, 0, "%s: %d pixels of the blank row painted", what,
	    stray);
	/* the underscores: cell 2 of row 0, cell 1 of row 2 */
	const int cells[2][2] = {{2, 0}, {1, 2}};
	for (int k = 0; k < 2; k++) {
		int best = 0;
		double cx = x0 + cells[k][0] * cw, cy = y0 + cells[k][1] * ch;
		for (int y = (int)(cy + ch / 2); y < (int)(cy + ch + 1e-6); y++)
			for (int x = (int)cx; x < (int)(cx + cw); x++) {
				int d = png_dist(PX(x, y), page);
				if (d > best)
					best = d;
			}
		cr_expect_geq(2 * best, full, "%s: row %d's underscore %d of "
		    "%d from the page", what, cells[k][1], best, full);
	}
#undef PX
}

/* A slide's text in PNG at every --scale (a cell of N x 2N pixels): at
 * --scale 8 the underscores were drawn on the first pixel row of the next
 * cell, "d model" over a bar on the row below. */
Test(writer, png_glyphs_stay_in_their_cells)
{
	const pe_color ink = 0xe0e0e0;

	for (int n = PE_SCALE_MIN; n <= PE_SCALE_MAX; n++) {
		struct pe_canvas cv;
		char *buf = NULL, what[32];
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);
		struct pe_write_opts wo = {PE_DEPTH_TRUECOLOR, PE_THEME_DARK,
		    NULL};

		make_slide(&cv, ink);
		cr_assert_eq(pe_canvas_want_pixels(&cv, n, 2 * n, "test"), PE_OK);
		cr_assert_not_null(fp);
		cr_assert_eq(pe_write(fp, &cv, PE_FMT_PNG, &wo), PE_OK);
		fclose(fp);
		struct png_buf b = {(const unsigned char *)buf, len};
		cairo_surface_t *sf = cairo_image_surface_create_from_png_stream(
		    png_buf_read, &b);
		cr_assert_eq(cairo_surface_status(sf), CAIRO_STATUS_SUCCESS);
		cr_assert_eq(cairo_image_surface_get_width(sf), 12 * n);
		cr_assert_eq(cairo_image_surface_get_height(sf), 3 * 2 * n);
		snprintf(what, sizeof what, "png scale %d", n);
		expect_slide(sf, 0, 0, n, 2 * n, ink, what);
		cairo_surface_destroy(sf);
		free(buf);
		pe_canvas_free(&cv);
	}
}

/* The same text in PDF as poppler rasterises it at a projector's and a
 * printer's resolutions (a cell of 6 x 12 pt inside a 24 pt margin). */
Test(writer, pdf_glyphs_stay_in_their_cells)
{
	const pe_color ink = 0xe0e0e0;
	const int dpis[] = {72, 96, 144, 200, 300};
	struct pe_canvas cv;
	char path[] = "/tmp/pescope-pdf-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	FILE *fp = fdopen(fd, "w");
	struct pe_write_opts wo = {PE_DEPTH_TRUECOLOR, PE_THEME_DARK, NULL};
	make_slide(&cv, ink);
	cr_assert_eq(pe_write(fp, &cv, PE_FMT_PDF, &wo), PE_OK);
	fclose(fp);
	pe_canvas_free(&cv);
	if (!have("pdftoppm")) {
		unlink(path);
		cr_skip_test("no pdftoppm (poppler-utils)");
	}
	for (size_t i = 0; i < sizeof dpis / sizeof dpis[0]; i++) {
		char cmd[512], png[64], what[32];
		snprintf(png, sizeof png, "%s-%d", path, dpis[i]);
		snprintf(cmd, sizeof cmd, "pdftoppm -r %d -png -singlefile %s %s",
		    dpis[i], path, png);
		cr_assert_eq(system(cmd), 0, "%s", cmd);
		strcat(png, ".png");
		cairo_surface_t *sf = cairo_image_surface_create_from_png(png);
		cr_assert_eq(cairo_surface_status(sf), CAIRO_STATUS_SUCCESS);
		double k = dpis[i] / 72.0;
		snprintf(what, sizeof what, "pdf at %d dpi", dpis[i]);
		expect_slide(sf, 24 * k, 24 * k, 6 * k, 12 * k, ink, what);
		cairo_surface_destroy(sf);
		unlink(png);
	}
	unlink(path);
}
