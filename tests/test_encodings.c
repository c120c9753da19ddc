/* The encoding rows (view/encoding.h): every encoding in enum pe_encoding
 * has its tab, its number key, its line in the help (when it has keys of
 * its own), its keys in the footer, its dump tables and a golden frame, so
 * a new row without them fails here. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "helpers.h"
#include "pescope/encoding.h"
#include "pescope/learned.h"
#include "pescope/rope.h"
#include "pescope/toy.h"
#include "view/encoding.h"
#include "view/view.h"
#include "view/view_impl.h"

/* The text of canvas line y as UTF-8 (static buffer). */
static const char *
line(struct pe_canvas *cv, int y)
{
	static char buf[4096];
	size_t n = 0;
	for (int x = 0; x < cv->w && n + 4 < sizeof buf; x++) {
		uint32_t cp = pe_canvas_at(cv, x, y)->cp;
		if (cp < 0x80)
			buf[n++] = (char)cp;
		else if (cp < 0x800)
			buf[n++] = (char)(0xc0 | cp >> 6),
			buf[n++] = (char)(0x80 | (cp & 0x3f));
		else
			buf[n++] = (char)(0xe0 | cp >> 12),
			buf[n++] = (char)(0x80 | ((cp >> 6) & 0x3f)),
			buf[n++] = (char)(0x80 | (cp & 0x3f));
	}
	buf[n] = '\0';
	return buf;
}

/* A config of encoding e on the defaults (learned gets a small table). */
static void
config(struct pe_config *cfg, int e, double *table)
{
	pe_config_default(cfg);
	cfg->enc = (enum pe_encoding)e;
	cfg->table = table;
}

/* Render st at w x h into cv (the caller frees it). */
static void
render(const struct pe_state *st, int w, int h, struct pe_canvas *cv)
{
	struct pe_model m;
	cr_assert_eq(pe_model_init(&m, &st->pane[st->focus].cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(cv, w, h), PE_OK);
	pe_view_render(st, &m, cv, NULL);
	pe_model_free(&m);
}

Test(encodings, every_row_is_complete)
{
	static double table[1024 * 64];
	pe_learned_init(1024, 64, 1, table);
	char *manifest = th_slurp(th_src("screenshots/MANIFEST"), NULL);
	cr_assert_not_null(manifest);

	for (int e = 0; e < PE_ENC_COUNT; e++) {
		const char *name = pe_encoding_name((enum pe_encoding)e);
		const struct pe_enc_view *v = pe_enc_views[e];
		cr_assert_not_null(v, "%s has no row", name);
		cr_assert(v->params && v->draw && v->keys, "%s", name);
		struct pe_config cfg;
		struct pe_state st;
		struct pe_canvas cv;
		config(&cfg, e, table);
		cr_assert_eq(pe_config_check(&cfg, NULL, 0), PE_OK, "%s", name);
		cr_expect(pe_field_supported(cfg.enc, v->main), "%s", name);

		/* its tab, and its own keys in the footer */
		pe_state_init(&st, &cfg);
		render(&st, 200, 40, &cv);
		char tab[64];
		/* past the ninth, no number key: " name " */
		if (e < 9)
			snprintf(tab, sizeof tab, " %d %s ", e + 1, name);
		else
			snprintf(tab, sizeof tab, " %s ", name);
		cr_expect(strstr(line(&cv, 0), tab) != NULL, "tab '%s' missing",
		    tab);
		/* the attention shape's keys may give way at 200 columns (the
		 * help lists them: panels' help_names_the_panel_keys) */
		const char *foot = line(&cv, cv.h - 1);
		for (const struct pe_enc_key *k = v->keys; k->keys != NULL; k++) {
			if (view_attn_key(k))
				continue;
			char hint[64];
			snprintf(hint, sizeof hint, "%s %s", k->label, k->what);
			cr_expect(strstr(foot, hint) != NULL, "%s: footer lacks '%s': %s",
			    name, hint, foot);
		}
		pe_canvas_free(&cv);

		/* its number key switches to it from another encoding */
		if (e < 9) {
			struct pe_config other;
			config(&other, (e + 1) % PE_ENC_COUNT, table);
			pe_state_init(&st, &other);
			pe_state_key(&st, '1' + e, 1, 1);
			cr_expect_eq((int)st.pane[st.focus].cfg.enc, e, "key %d",
			    e + 1);
		}

		/* its line in the help, with each of its own keys */
		pe_state_init(&st, &cfg);
		st.help = true;
		render(&st, 120, 40, &cv);
		bool has_own = false, found = false;
		for (const struct pe_enc_key *k = v->keys; k->keys != NULL; k++)
			has_own |= k->press != NULL;
		char boxed[64];
		snprintf(boxed, sizeof boxed, "│ %s ", name);
		for (int y = 0; y < cv.h; y++) {
			if (strstr(line(&cv, y), boxed) == NULL)
				continue;
			found = true;
			/* its line, and the lines that go on with its keys
			 * (a blank name column) */
			char all[2048] = "";
			for (int z = y; z < cv.h; z++) {
				const char *l = line(&cv, z);
				if (z > y && strstr(l, "│            ") == NULL)
					break;
				strncat(all, l, sizeof all - strlen(all) - 1);
			}
			for (const struct pe_enc_key *k = v->keys; k->keys != NULL;
			     k++)
				if (k->press != NULL)
					cr_expect(strstr(all, k->label) != NULL,
					    "%s: help lacks %s: %s", name, k->label, all);
		}
		cr_expect(!has_own || found, "%s has no help line", name);
		pe_canvas_free(&cv);

		/* dump tables, and a golden frame */
		char tables[256];
		pe_dump_tables_of(&cfg, tables, sizeof tables);
		cr_expect(tables[0] != '\0', "%s has no dump table", name);
		char opt[64];
		snprintf(opt, sizeof opt, "\t-e %s ", name);
		cr_expect(strstr(manifest, opt) != NULL, "%s has no golden frame",
		    name);

		/* c, C, v, P, x, X, r, i, {, }, e, /, L, "," and "." are every
		 * frame's keys (state_key.c): no row takes them */
		for (const struct pe_enc_key *k = v->keys; k->keys != NULL; k++)
			cr_expect(strpbrk(k->keys, "cCvPxXri{}e/L,.") == NULL, "%s: "
			    "key '%s' is a shared key of every frame", name, k->keys);
		/* its panels: a main map of their own to sit beside, and each a
		 * golden frame "-e NAME ... --panel PANEL" */
		cr_expect(v->panels == NULL || v->map != NULL, "%s: panels but no "
		    "map", name);
		/* compare mode's narrow panes draw the main map alone */
		cr_expect(v->map != NULL, "%s: no map of its own", name);
		for (const struct pe_enc_panel *p = v->panels;
		     p != NULL && p->draw != NULL; p++) {
			char want[64];
			bool golden = false;
			snprintf(want, sizeof want, "--panel %s ", pe_panel_name(p->id));
			for (const char *l = strstr(manifest, opt); l != NULL && !golden;
			     l = strstr(l + 1, opt)) {
				const char *end = strchr(l + 1, '\n');
				const char *at = strstr(l, want);
				golden = at != NULL && (end == NULL || at < end);
			}
			cr_expect(golden, "%s's %s panel has no golden frame", name,
			    pe_panel_name(p->id));
		}
	}
	free(manifest);
}

#define E(x) (1u << PE_ENC_##x)

/* The kernel rows (pescope/encoding.h): each has its name, and the masks
 * derived from their parameters and capabilities are the encodings the
 * options applied to when each listed them by hand. */
Test(encodings, kernel_rows_say_what_the_options_said)
{
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		const struct pe_encoding_def *d = pe_encoding_def(e);
		cr_assert_not_null(d);
		cr_assert_not_null(d->name);
		cr_expect_eq(pe_encoding_parse(d->name), e, "%s", d->name);
		cr_expect_str_eq(pe_encoding_name(e), d->name);
	}
	cr_expect_null(pe_encoding_def(PE_ENC_COUNT));
	cr_expect_eq(pe_encodings_with(PE_CAP_TOY), E(SINUSOIDAL) | E(LEARNED) |
	    E(RELATIVE) | E(ROPE) | E(ALIBI) | E(NOPE));
	cr_expect_eq(pe_encodings_with(PE_CAP_EXAMPLE), E(SINUSOIDAL) |
	    E(LEARNED) | E(ROPE));
	cr_expect_eq(pe_encodings_with(PE_CAP_SHIFT), E(SINUSOIDAL));
	cr_expect_eq(pe_encodings_with(PE_CAP_HEADS), E(ALIBI) | E(ROPE2D));
	cr_expect_eq(pe_encodings_with(0), (1u << PE_ENC_COUNT) - 1);
	cr_expect_eq(pe_encodings_taking(PE_PARAM_D_MODEL), E(SINUSOIDAL) |
	    E(LEARNED) | E(ROPE) | E(VIT2D) | E(MROPE) | E(XPOS) | E(ROPE2D));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_SEQ_LEN),
	    ((1u << PE_ENC_COUNT) - 1) & ~(E(VIT2D) | E(MROPE) | E(ROPE2D)));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_BASE), E(SINUSOIDAL) |
	    E(ROPE) | E(MROPE) | E(XPOS) | E(ROPE2D));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_GRID), E(VIT2D) | E(MROPE) |
	    E(ROPE2D));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_LAYOUT), E(SINUSOIDAL));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_PAIRING), E(ROPE));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_ROPE_SCALING), E(ROPE));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_HEADS | PE_PARAM_ALIBI_MODE),
	    E(ALIBI));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_RELATIVE | PE_PARAM_BIAS),
	    E(RELATIVE));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_TABLE), E(LEARNED));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_MROPE), E(MROPE));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_XPOS), E(XPOS));
	cr_expect_eq(pe_encodings_taking(PE_PARAM_ROPE2D), E(ROPE2D));
}

/* Whether dump has table `name` for cfg. */
static bool
has_dump(const struct pe_config *cfg, const char *name)
{
	char buf[512];
	size_t n = strlen(name);

	pe_dump_tables_of(cfg, buf, sizeof buf);
	for (const char *p = buf; *p != '\0';) {
		size_t l = strcspn(p, ",");
		if (l == n && strncmp(p, name, n) == 0)
			return true;
		p += l;
		p += strspn(p, ", ");
	}
	return false;
}

/* Every capability of a kernel row has what it promises: its hooks, the
 * view row's panel and dump's tables; and neither the view nor dump has
 * what the row lacks. A row that gains a capability without the rest, or
 * the rest without the capability, fails here. */
Test(encodings, capabilities_have_what_they_promise)
{
	static double table[1024 * 64];
	pe_learned_init(1024, 64, 1, table);

	for (int e = 0; e < PE_ENC_COUNT; e++) {
		const struct pe_encoding_def *d = pe_encoding_def(e);
		const struct pe_enc_view *v = pe_enc_views[e];
		const char *name = d->name;
		struct pe_config cfg;
		config(&cfg, e, table);
		cr_assert_eq(pe_config_check(&cfg, NULL, 0), PE_OK, "%s", name);

		/* how the position enters attention, and its hooks */
		cr_expect_eq(d->vector != NULL && d->attention != PE_ATTN_ADD, false,
		    "%s: a vector but it does not add one", name);
		cr_expect_eq(d->rotate != NULL && d->attention != PE_ATTN_ROTATE,
		    false, "%s: a rotation but it does not rotate", name);
		cr_expect(d->toy == NULL || d->toy->bias == NULL ||
		    d->attention == PE_ATTN_BIAS, "%s: a toy bias but no score "
		    "bias", name);
		cr_expect_eq((d->params & PE_PARAM_SEQ_LEN) != 0, d->positions == NULL,
		    "%s: positions are seq_len exactly when it reads seq_len", name);
		cr_expect_geq(pe_config_positions(&cfg), 1, "%s", name);

		/* the toy attention: a rule, the panel, the tables */
		bool toy = (d->caps & PE_CAP_TOY) != 0;
		cr_expect_eq(toy, d->toy != NULL, "%s: PE_CAP_TOY and its rule", name);
		cr_expect_eq(toy, pe_enc_has_panel(v, PE_PANEL_ATTENTION),
		    "%s: PE_CAP_TOY and the attention panel", name);
		cr_expect_eq(toy, has_dump(&cfg, "token_embeddings") &&
		    has_dump(&cfg, "scores") && has_dump(&cfg, "attention"),
		    "%s: PE_CAP_TOY and the toy tables", name);
		if (toy && d->toy != NULL && d->toy->check_bias == NULL) {
			struct pe_toy_sentence s;
			char why[256] = "";
			pe_toy_split(NULL, &s);
			cr_expect_eq(pe_toy_check(&cfg, &s, 0, why, sizeof why), PE_OK,
			    "%s: the toy refuses its defaults: %s", name, why);
		}

		/* the worked example: x + PE(p) or R_p x, the panel, a table */
		bool ex = (d->caps & PE_CAP_EXAMPLE) != 0;
		cr_expect(!ex || (d->attention == PE_ATTN_ADD && d->vector != NULL) ||
		    (d->attention == PE_ATTN_ROTATE && d->rotate != NULL),
		    "%s: PE_CAP_EXAMPLE without its vector or rotation", name);
		cr_expect_eq(ex, pe_enc_has_panel(v, PE_PANEL_EXAMPLE),
		    "%s: PE_CAP_EXAMPLE and the example panel", name);
		cr_expect_eq(ex, has_dump(&cfg, "sum") || has_dump(&cfg, "rotated"),
		    "%s: PE_CAP_EXAMPLE and its table", name);

		/* the shift matrix */
		bool shift = (d->caps & PE_CAP_SHIFT) != 0;
		cr_expect_eq(shift, pe_enc_has_panel(v, PE_PANEL_SHIFT),
		    "%s: PE_CAP_SHIFT and the shift panel", name);
		cr_expect_eq(shift, has_dump(&cfg, "shift"),
		    "%s: PE_CAP_SHIFT and the shift table", name);

		/* heads: --head has some to pick from */
		if (d->caps & PE_CAP_HEADS)
			cr_expect_geq(pe_config_heads(&cfg), 1, "%s", name);

		/* rope's pairs: a rotation pe_rope_init takes */
		if (d->caps & PE_CAP_ROPE) {
			struct pe_rope r;
			cr_expect_eq(d->attention, PE_ATTN_ROTATE, "%s", name);
			cr_expect_eq(pe_rope_init(&r, &cfg), PE_OK,
			    "%s: PE_CAP_ROPE but pe_rope_init refuses it", name);
			pe_rope_free(&r);
		}

		/* its words for a model's layer: whole, or cut and ended */
		if (d->describe != NULL) {
			char full[128], cut[6];
			int n = d->describe(&cfg, full, sizeof full);
			cr_expect(n > 0 && (size_t)n == strlen(full), "%s", name);
			cr_expect_eq(d->describe(&cfg, NULL, 0), n, "%s", name);
			cr_expect_eq(d->describe(&cfg, cut, sizeof cut), n, "%s",
			    name);
			cr_expect(strncmp(cut, full, sizeof cut - 1) == 0 &&
			    cut[sizeof cut - 1] == '\0', "%s: %s", name, cut);
		}
	}
}
