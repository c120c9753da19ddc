/* The checks that need every option at once: the config as a whole (the
 * kernel's checks, with its parameter names turned into flags), an option
 * that changes nothing where it is given (snapshot and dump refuse it),
 * the panel, the lesson's options, and what one option needs of another. */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/options_impl.h"
#include "pescope/encoding.h"
#include "pescope/toy.h"
#include "render/palette.h"
#include "render/writer.h"
#include "tui/tui.h"
#include "view/encoding.h"

/* "a, b and c": the names of ch whose values' bits are set in mask. */
static const char *
check_names(unsigned mask, const struct opt_choices *ch, char *buf,
    size_t cap)
{
	int total = 0, seen = 0, v;
	for (int i = 0; opt_choice(ch, i, &v) != NULL; i++)
		total += (mask >> v) & 1;
	buf[0] = '\0';
	for (int i = 0; opt_choice(ch, i, &v) != NULL; i++)
		if ((mask >> v) & 1)
			opt_list_item(buf, cap, seen++, total,
			    opt_choice(ch, i, &v), " and ");
	return buf;
}

/* The name of value v of ch. */
static const char *
check_name(const struct opt_choices *ch, int v)
{
	int w;
	for (int i = 0; opt_choice(ch, i, &w) != NULL; i++)
		if (w == v)
			return opt_choice(ch, i, &w);
	return "?";
}

/* --panel: one the encoding has; in its attention panel, a toy attention
 * it can compute (relative without --bias-file shows its buckets) and a
 * head the bias has. */
static int
check_panel(const struct pe_options *o, char *err, size_t cap)
{
	const struct pe_config *c = &o->cfg;
	const struct pe_enc_view *v = pe_enc_view_of(c);
	enum pe_panel p = (enum pe_panel)o->panel;
	char list[160] = "", why[512];
	unsigned has = 0;

	for (int i = 0; i < PE_PANEL_COUNT; i++)
		if (pe_enc_has_panel(v, (enum pe_panel)i))
			has |= 1u << i;
	if (!(has & (1u << p)) && has == 1)
		return opt_fail(err, cap, "--panel %s: -e %s has only its "
		    "overview",
		    pe_panel_name(p), pe_encoding_name(c->enc));
	if (!(has & (1u << p)))
		return opt_fail(err, cap, "--panel %s: -e %s has the panels %s",
		    pe_panel_name(p), pe_encoding_name(c->enc),
		    check_names(has, pe_opts[O_PANEL].choices, list,
			sizeof list));
	if (p != PE_PANEL_ATTENTION)
		return 0;
	size_t head = o->head_given ? o->head : 0;
	const struct pe_encoding_def *def = pe_config_def(c);
	bool learned_bias = def->toy != NULL && def->toy->check_bias != NULL;
	if (learned_bias && o->head_given &&
	    (c->teach.bias == NULL || head >= c->teach.bias_heads))
		return opt_fail(err, cap, "--head %zu: %s's toy attention "
		    "reads row --head of --bias-file, which has %zu", head,
		    def->name,
		    c->teach.bias == NULL ? (size_t)0 : c->teach.bias_heads);
	if (learned_bias && c->teach.bias == NULL)
		return 0; /* the panel shows what indexes the bias */
	struct pe_toy_sentence s;
	if (pe_toy_split(c->teach.tokens, &s) != PE_OK ||
	    pe_toy_check(c, &s, head, why, sizeof why) != PE_OK)
		return pe_options_flags(why, err, cap);
	return 0;
}

/* In snapshot and dump, refuse an option given on the command line that
 * changes nothing for the chosen encoding, scaling type or relative kind;
 * in dump also a table's own option with another table. */
static int
check_applies(const struct pe_options *o, const bool *given, char *err,
    size_t cap)
{
	const struct pe_config *c = &o->cfg;
	const struct opt_choices *encs = pe_opts[O_ENCODING].choices;
	const struct opt_choices *types = pe_opts[O_ROPE_SCALING].choices;
	const struct opt_choices *kinds = pe_opts[O_RELATIVE].choices;
	const struct opt_choices *panels = pe_opts[O_PANEL].choices;
	char list[160];

	if (!pe_commands[o->cmd].strict)
		return 0;
	unsigned reads = pe_config_def(c)->params;
	for (int i = 0; i < O_COUNT; i++) {
		const struct opt_row *r = &pe_opts[i];
		unsigned applies = opt_encs(r);
		if (!given[i] || applies == 0)
			continue;
		if (i == O_LAYER && o->arch != NULL)
			continue; /* a model's layer, whatever its encoding */
		enum pe_dump_scope scope = o->cmd == PE_CMD_DUMP
		    ? pe_dump_option_scope(o->table, r->name, list, sizeof list)
		    : PE_DUMP_OPT_USUAL;
		if (scope == PE_DUMP_OPT_OTHER_TABLE)
			return opt_fail(err, cap, "--%s has no effect on dump "
			    "table %s: it applies to %s", r->name, o->table,
			    list);
		if (scope == PE_DUMP_OPT_ALSO)
			continue; /* the table takes it for all its encodings */
		if (i == O_HEADS && o->train_given &&
		    (reads & PE_PARAM_TABLE))
			continue; /* the trained model's heads */
		bool snap = o->cmd == PE_CMD_SNAPSHOT;
		if (snap && (r->also_panels & (1u << o->panel)) &&
		    (opt_also_encs(r) & (1u << c->enc)))
			continue; /* the panel takes it for this encoding */
		if (!(applies & (1u << c->enc)))
			return opt_fail(err, cap, "--%s has no effect with -e "
			    "%s: it applies to %s", r->name,
			    pe_encoding_name(c->enc),
			    check_names(applies, encs, list, sizeof list));
		if ((reads & PE_PARAM_ROPE_SCALING) && r->scalings != 0 &&
		    !(r->scalings & (1u << c->rope.type)))
			return opt_fail(err, cap, "--%s has no effect with "
			    "--rope-scaling %s: it applies to %s", r->name,
			    pe_rope_type_name(c->rope.type),
			    check_names(r->scalings, types, list, sizeof list));
		if ((reads & PE_PARAM_RELATIVE) && r->kinds != 0 &&
		    !(r->kinds & (1u << c->relative)))
			return opt_fail(err, cap, "--%s has no effect with "
			    "--relative %s: it applies to %s", r->name,
			    check_name(kinds, c->relative),
			    check_names(r->kinds, kinds, list, sizeof list));
		if (snap && r->panels != 0 && !(r->panels & (1u << o->panel)))
			return opt_fail(err, cap, "--%s has no effect with "
			    "--panel %s: it applies to --panel %s", r->name,
			    pe_panel_name((enum pe_panel)o->panel),
			    check_names(r->panels, panels, list, sizeof list));
	}
	return 0;
}

/* Lessons: one lesson, what --scene and --all need, and in snapshot no
 * option a scene sets (the scene sets them). */
static int
check_lesson(const struct pe_options *o, const bool *given, char *err,
    size_t cap)
{
	bool lesson = o->lesson != NULL || o->lesson_file != NULL;

	if (o->lesson != NULL && o->lesson_file != NULL)
		return opt_fail(err, cap, "--lesson and --lesson-file: give "
		    "one of them");
	if (o->cmd != PE_CMD_SNAPSHOT)
		return o->lesson_list && given[O_SCENE]
		    ? opt_fail(err, cap, "--list and --scene: --list lists the "
			"scenes; give one of them") : 0;
	if (!lesson && (given[O_SCENE] || given[O_ALL]))
		return opt_fail(err, cap, "--%s: needs --lesson NAME or "
		    "--lesson-file FILE", given[O_SCENE] ? "scene" : "all");
	if (given[O_ALL] && given[O_SCENE])
		return opt_fail(err, cap, "--all and --scene: --all writes "
		    "every scene; give one of them");
	if (given[O_ALL] && o->output == NULL)
		return opt_fail(err, cap, "--all: needs -o DIR, the folder for "
		    "the files (with -f pdf: -o FILE.pdf, the handout)");
	if (given[O_PAPER] && o->snap_format != PE_FMT_PDF)
		return opt_fail(err, cap, "--paper has no effect with -f %s: it "
		    "sizes PDF pages (-f pdf)", pe_formats[o->snap_format].name);
	if (given[O_NO_NOTES] && !(given[O_ALL] && o->snap_format == PE_FMT_PDF))
		return opt_fail(err, cap, "--no-notes has no effect here: it "
		    "leaves the notes out of the handout (--lesson NAME --all -f "
		    "pdf)");
	if (!lesson)
		return 0;
	for (int i = 0; i < O_COUNT; i++)
		if (given[i] && (opt_is_config(i) || opt_is_model(i) ||
		    i == O_CURSOR || i == O_PANEL ||
		    i == O_VALUES || i == O_HEAD || i == O_COMPARE))
			return opt_fail(err, cap, "--%s has no effect with "
			    "--%s: each scene sets its own view (write it in a "
			    "lesson file)",
			    pe_opts[i].name, o->lesson != NULL ? "lesson"
							       : "lesson-file");
	return 0;
}

/* The attention shape's options: a window or chunks (not both; neither
 * as long as the sequence: it would change nothing), the part of a
 * decoupled head not given from the other, the temperature turned on by
 * its constants, seconds a frame only with a frame's time. */
static int
check_attn(struct pe_options *o, const bool *given, char *err, size_t cap)
{
	struct pe_config *c = &o->cfg;
	struct pe_attn *t = &c->attn;

	if (o->window_given && o->chunk_given)
		return opt_fail(err, cap, "--window and --chunk: a layer's keys "
		    "are a sliding window (Mistral, Gemma, GPT-OSS) or chunks "
		    "(Llama 4), not both; give one of them");
	size_t n = pe_config_positions(c);
	if (given[O_WINDOW] && t->span == PE_SPAN_SLIDING && t->window >= n)
		return opt_fail(err, cap, "--window %zu has no effect with "
		    "seq_len %zu: every query already sees every earlier key; "
		    "use 1..%zu (or a longer -n)", t->window, n, n - 1);
	if (given[O_CHUNK] && t->span == PE_SPAN_CHUNKED && t->chunk >= n)
		return opt_fail(err, cap, "--chunk %zu has no effect with "
		    "seq_len %zu: every position is in chunk 0; use 1..%zu (or "
		    "a longer -n)", t->chunk, n, n > 1 ? n - 1 : 1);
	if (o->rope_dim_given && !o->nope_dim_given) {
		if (t->qk_rope_dim > c->d)
			return opt_fail(err, cap, "--rope-dim %zu: the rotated "
			    "part of a head of d_model %zu must be 2..%zu (even; "
			    "the rest, --nope-dim, is content only)",
			    t->qk_rope_dim, c->d, c->d);
		t->qk_nope_dim = c->d - t->qk_rope_dim;
	} else if (o->nope_dim_given && !o->rope_dim_given) {
		if (t->qk_nope_dim + 2 > c->d)
			return opt_fail(err, cap, "--nope-dim %zu: the content part "
			    "of a head of d_model %zu must be 1..%zu (the rest, "
			    "--rope-dim, rotates: 2 or more)", t->qk_nope_dim,
			    c->d, c->d > 2 ? c->d - 2 : 0);
		t->qk_rope_dim = c->d - t->qk_nope_dim;
	}
	if (o->floor_scale_given || o->attn_scale_given)
		t->temperature = true;
	if (o->seconds_per_frame_given && !(c->mrope.tokens_per_second > 0.0))
		return opt_fail(err, cap, "--seconds-per-frame has no effect "
		    "without --tokens-per-second R > 0: a frame's temporal id "
		    "is then its index (Qwen2-VL)");
	return 0;
}

/* --train: what it needs and what it makes meaningless, then the run's
 * config from the config's (d 32 unless given, n, heads 1 unless given)
 * with the learned table's rows at seq_len. The options of the run need
 * --train in every command: without it they change nothing anywhere. */
static int
check_train(struct pe_options *o, const bool *given, char *err, size_t cap)
{
	static const enum opt_id run_opts[] = {O_TRAIN_STEPS, O_SEED, O_LR,
	    O_VOCAB};
	struct pe_config *c = &o->cfg;
	struct pe_train_config *t = &o->train;
	char why[512];

	if (!o->train_given) {
		for (size_t i = 0; i < sizeof run_opts / sizeof *run_opts; i++)
			if (given[run_opts[i]])
				return opt_fail(err, cap, "--%s: needs --train "
				    "TASK (it sets the training run)",
				    pe_opts[run_opts[i]].name);
		return 0;
	}
	if (o->table_data != NULL)
		return opt_fail(err, cap, "--train and --table-file: --train "
		    "makes the table; give one of them");
	if (o->max_len_given)
		return opt_fail(err, cap, "--max-len has no effect with "
		    "--train: the trained table has --seq-len rows");
	if (t->task == PE_TRAIN_DISTANCE && (given[O_VOCAB] || given[O_HEADS]))
		return opt_fail(err, cap, "--%s has no effect with --train "
		    "distance: it fits the table alone (no tokens, no "
		    "attention)", given[O_VOCAB] ? "vocab" : "heads");
	if (o->d_given)
		t->d = c->d;
	c->d = t->d;
	t->n = c->n;
	t->heads = given[O_HEADS] ? c->heads : 1;
	c->max_len = t->n;
	if (pe_train_check(t, why, sizeof why) != PE_OK)
		return pe_options_flags(why, err, cap);
	return 0;
}

/* --train: make the run; its position table is the learned table from
 * now on. */
static int
check_train_make(struct pe_options *o, char *err, size_t cap)
{
	struct pe_config *c = &o->cfg;
	int rc;

	if (!o->train_given)
		return 0;
	if ((rc = pe_train_new(&o->train, &o->trainer)) != PE_OK)
		return opt_fail(err, cap, "--train: %s", pe_strerror(rc));
	c->table = pe_train_table(o->trainer);
	c->table_untrained = false;
	c->trainer = o->trainer;
	return 0;
}

/* --train: take --train-steps steps, the last of the checks (a refusal
 * costs no training). A run that diverged stops where its loss stopped
 * being finite: dump refuses to write its table, the frames say so. */
static int
check_train_run(struct pe_options *o, char *err, size_t cap)
{
	struct pe_train_stats st;
	int rc;

	if (!o->train_given)
		return 0;
	rc = pe_train_run(o->trainer, o->train_steps, 0, NULL);
	pe_train_stats(o->trainer, &st);
	if (rc == PE_ENOMEM)
		return opt_fail(err, cap, "--train-steps %zu: %s",
		    o->train_steps, pe_strerror(rc));
	if (st.diverged && o->cmd == PE_CMD_DUMP)
		return opt_fail(err, cap, "--train-steps %zu: the run diverged "
		    "at step %zu (a loss or gradient that is not finite); a "
		    "smaller --lr than %g may train", o->train_steps,
		    st.step + 1, o->train.lr);
	return 0;
}

/* See options_impl.h: the table width, the config, what applies where. */
int
opt_finish(struct pe_options *o, const bool *given, char *err, size_t cap)
{
	struct pe_config *c = &o->cfg;
	char why[512];

	if (check_lesson(o, given, err, cap) != 0)
		return 2;
	/* the encoding's own defaults (its row in config.c) for what no
	 * option or preset gave */
	pe_config_encoding_defaults(c, o->d_given, o->base_given);
	unsigned reads = pe_config_def(c)->params;
	if (o->table_data != NULL) {
		char list[160];
		check_names(pe_encodings_taking(PE_PARAM_TABLE),
		    pe_opts[O_ENCODING].choices, list, sizeof list);
		if (!(reads & PE_PARAM_TABLE))
			return opt_fail(err, cap, "--table-file: only the %s "
			    "encoding reads a table, and the encoding is %s; "
			    "add -e %s", list, pe_encoding_name(c->enc), list);
		if (o->d_given && c->d != o->table_cols)
			return opt_fail(err, cap, "--table-file: the table is "
			    "%zu wide but --d-model is %zu; they must agree "
			    "(or leave out --d-model)", o->table_cols, c->d);
		c->d = o->table_cols;
		if (o->max_len_given && c->max_len != o->table_rows)
			return opt_fail(err, cap, "--max-len %zu: the table "
			    "file has %zu rows; leave out --max-len to use "
			    "them all", c->max_len,
			    o->table_rows);
		c->max_len = o->table_rows;
		c->table = o->table_data;
		c->table_untrained = false;
	}
	if (check_train(o, given, err, cap) != 0)
		return 2;
	if (check_attn(o, given, err, cap) != 0)
		return 2;
	if (pe_config_check(c, why, sizeof why) != PE_OK)
		return pe_options_flags(why, err, cap);
	if (o->model_view && o->arch == NULL)
		return opt_fail(err, cap, "--model-view has no effect without "
		    "a model, --config FILE or --preset NAME (it shows a "
		    "model's layers)");
	if (o->cmd == PE_CMD_DUMP && o->arch != NULL &&
	    strcmp(o->table, "layers") == 0)
		return check_applies(o, given, err, cap); /* the model's strip */
	if (o->cmd == PE_CMD_DUMP && o->arch != NULL &&
	    !o->arch->layers[o->layer].cfg.attn.exact) {
		/* its positions are not what the config says: no table */
		char kind[128];
		pe_layer_describe(&o->arch->layers[o->layer], kind,
		    sizeof kind);
		return opt_fail(err, cap, "--layer %zu of %s is %s (%s): its "
		    "positions are not modelled (the warnings say which key), "
		    "so it has no table", o->layer, pe_options_model_name(o),
		    kind, o->arch->layers[o->layer].type);
	}
	if (o->cmd == PE_CMD_DUMP &&
	    pe_dump_check_table(c, o->table, err, cap) != 0) {
		if (o->arch != NULL) {
			/* say which layer, and what it is */
			char kind[128], had[512];
			pe_layer_describe(&o->arch->layers[o->layer], kind,
			    sizeof kind);
			snprintf(had, sizeof had, "%s", err);
			opt_fail(err, cap, "--layer %zu of %s is %s (%s): %s",
			    o->layer, pe_options_model_name(o), kind,
			    o->arch->layers[o->layer].type, had);
		}
		return 2;
	}
	int rc = check_applies(o, given, err, cap);
	if (rc != 0)
		return rc;
	/* a picture's colors are the colormap's 24 bits, its legend's the
	 * text's (render/canvas.h, pe_canvas_pictures) */
	if (given[O_GRAPHICS] && given[O_COLOR] && o->graphics != PE_GFX_AUTO &&
	    o->graphics != PE_GFX_CELLS &&
	    !pe_depth_pictures((enum pe_depth)o->depth))
		return opt_fail(err, cap, "--graphics %s needs --color 256 or "
		    "truecolor: at --color %s a map's legend cannot show a "
		    "picture's colors (the maps are cells there)",
		    pe_gfx_name((enum pe_gfx)o->graphics),
		    pe_depth_name((enum pe_depth)o->depth));
	if (pe_teach_check(c, why, sizeof why) != PE_OK)
		return pe_options_flags(why, err, cap);
	if (given[O_SHIFT] && (c->teach.shift <= -(int64_t)c->n ||
	    c->teach.shift >= (int64_t)c->n))
		return opt_fail(err, cap, "--shift %lld: must be an integer in "
		    "%lld..%lld (-n < K < n, seq_len %zu)",
		    (long long)c->teach.shift, 1 - (long long)c->n,
		    (long long)c->n - 1, c->n);
	if (o->table_data == NULL && !o->train_given) { /* what the config
			needs (learned's untrained table), made once */
		if (pe_config_prepare(c, &o->table_data, why, sizeof why) != PE_OK)
			return pe_options_flags(why, err, cap);
	}
	bool rope2d = (reads & PE_PARAM_ROPE2D) != 0;
	if (o->freqs_data != NULL && (!rope2d ||
	    c->rope2d.kind != PE_ROPE2D_MIXED))
		return opt_fail(err, cap, "--freqs-file: only rope2d mixed "
		    "reads learned frequencies; add -e rope2d --rope2d mixed");
	if (rope2d && c->rope2d.kind == PE_ROPE2D_AXIAL &&
	    pe_commands[o->cmd].strict)
		for (int id = 0; id < O_COUNT; id++)
			if (given[id] && (id == O_HEAD || (id == O_LAYER &&
			    o->arch == NULL))) /* a model's is a layer */
				return opt_fail(err, cap, "--%s has no effect "
				    "with --rope2d axial: it applies to mixed",
				    pe_opts[id].name);
	o->head_in_config = rope2d && c->rope2d.kind == PE_ROPE2D_MIXED;
	size_t heads = pe_config_heads(c);
	if (o->head_given && pe_field_supported(c->enc, PE_FIELD_BIAS) &&
	    o->head >= heads) /* the heads of the bias */
		return opt_fail(err, cap, "--head %zu: must be in 0..%zu "
		    "(there are %zu heads)", o->head, heads - 1, heads);
	if (given[O_SCALE] && pe_formats[o->snap_format].pixels == 0)
		return opt_fail(err, cap, "--scale has no effect with -f %s: it "
		    "prints cells; png, svg and pdf draw pixels",
		    pe_format_name(o->snap_format));
	if (given[O_PRESENT] && o->speaker)
		return opt_fail(err, cap, "--present has no effect with "
		    "--speaker: the speaker's view keeps its notes, next scene "
		    "and clock; give --present to the presenting instance");
	if (given[O_NO_CHROME] && o->present)
		return opt_fail(err, cap, "--no-chrome has no effect with "
		    "--present: the presenter view has no tab bar or key "
		    "hints");
	if (check_train_make(o, err, cap) != 0)
		return 2;
	/* pane B shows the panel when it has it, else its overview */
	if ((o->cmd == PE_CMD_SNAPSHOT || o->cmd == PE_CMD_TUI) && !o->pane_b &&
	    check_panel(o, err, cap) != 0)
		return 2;
	return check_train_run(o, err, cap);
}

