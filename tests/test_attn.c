/* The attention shape (pescope/attn.h): the masks cell by cell at a window
 * edge and a chunk boundary, seen counts against brute force, the mask
 * field's blocks, Llama 4's temperature at its steps, GPT-OSS's sink
 * share, DeepSeek's score split and softmax scale, Qwen3-VL's interleaved
 * pairs and Qwen2.5-VL's time ids. The literal numbers are
 * tests/ref/attn_ref.py's (numpy transcriptions of transformers; run it to
 * print them), the rest properties. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernel/diag.h"
#include "pescope/attn.h"
#include "pescope/mrope.h"
#include "pescope/toy.h"

/* attn_ref.py: mask(10, True, window=4), mask(10, True, chunk=4),
 * mask(10, False, window=2); 1 seen, 0 hidden. */
static const unsigned char want_window4[100] = {1, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1,
	1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0,
	0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
static const unsigned char want_chunk4[100] = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0,
	0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1};
static const unsigned char want_bidir2[100] = {1, 1, 1, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1,
	1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0,
	0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};

/* A shape: causal or not, a window or chunks of s (0: full). */
static struct pe_attn
shape(bool causal, enum pe_attn_span span, size_t s)
{
	struct pe_attn t;
	memset(&t, 0, sizeof t);
	t.causal = causal;
	t.span = span;
	t.window = span == PE_SPAN_SLIDING ? s : 0;
	t.chunk = span == PE_SPAN_CHUNKED ? s : 0;
	return t;
}

/* pe_attn_sees and pe_attn_mask_rows equal a mask of the reference. */
static void
expect_mask(const struct pe_attn *t, const unsigned char *want,
    const char *what)
{
	double rows[100];
	cr_assert_eq(pe_attn_mask_rows(t, 0, 10, 10, rows), PE_OK);
	for (size_t q = 0; q < 10; q++)
		for (size_t k = 0; k < 10; k++) {
			bool w = want[q * 10 + k] != 0;
			cr_expect_eq(pe_attn_sees(t, q, k), w, "%s q %zu k %zu",
			    what, q, k);
			cr_expect_eq(rows[q * 10 + k], w ? 0.0 : -INFINITY,
			    "%s row %zu k %zu", what, q, k);
		}
}

Test(attn, masks_at_a_window_edge_and_a_chunk_boundary)
{
	struct pe_attn w = shape(true, PE_SPAN_SLIDING, 4);
	struct pe_attn c = shape(true, PE_SPAN_CHUNKED, 4);
	struct pe_attn b = shape(false, PE_SPAN_SLIDING, 2);
	expect_mask(&w, want_window4, "window 4");
	expect_mask(&c, want_chunk4, "chunk 4");
	expect_mask(&b, want_bidir2, "bidirectional window 2");
	/* the edge: query 4 no longer sees key 0 through the window, and is
	 * the first of chunk 1 */
	cr_expect(pe_attn_sees(&w, 3, 0) && !pe_attn_sees(&w, 4, 0));
	cr_expect_eq(pe_attn_seen(&w, 4, 0, 10), 4);
	cr_expect_eq(pe_attn_seen(&c, 3, 0, 10), 4);
	cr_expect_eq(pe_attn_seen(&c, 4, 0, 10), 1);
	/* Llama 4's chunk of 8192 at its boundary */
	struct pe_attn l4 = shape(true, PE_SPAN_CHUNKED, 8192);
	cr_expect_eq(pe_attn_seen(&l4, 8191, 0, 20000), 8192);
	cr_expect_eq(pe_attn_seen(&l4, 8192, 0, 20000), 1);
	cr_expect(!pe_attn_sees(&l4, 8192, 8191) && pe_attn_sees(&l4, 8193,
	    8192));
	/* a window or chunk of 0 sees nothing (pe_config_check refuses it) */
	struct pe_attn z = shape(true, PE_SPAN_SLIDING, 0);
	cr_expect(!pe_attn_sees(&z, 3, 3));
}

Test(attn, seen_counts_equal_brute_force)
{
	uint64_t seed = 7;
	for (int causal = 0; causal < 2; causal++)
		for (int span = 0; span < 3; span++)
			for (size_t s = 1; s <= 9; s += 2) {
				struct pe_attn t = shape(causal, span, s);
				for (int trial = 0; trial < 40; trial++) {
					size_t r0 = th_lcg(&seed) % 60, c0 =
					    th_lcg(&seed) % 60;
					size_t r1 = r0 + 1 + th_lcg(&seed) % 40;
					size_t c1 = c0 + 1 + th_lcg(&seed) % 40;
					uint64_t brute = 0;
					for (size_t q = r0; q < r1; q++) {
						size_t row = 0;
						for (size_t k = c0; k < c1; k++)
							row += pe_attn_sees(&t, q, k);
						cr_expect_eq(pe_attn_seen(&t, q, c0, c1),
						    row, "q %zu", q);
						brute += row;
					}
					cr_expect_eq(pe_attn_seen_rect(&t, r0, r1, c0,
					    c1), brute, "causal %d span %d s %zu "
					    "[%zu,%zu)x[%zu,%zu)", causal, span, s,
					    r0, r1, c0, c1);
				}
			}
	/* ranges that do not overlap can still meet in a chunk: rows
	 * [12, 14) and keys [14, 16) share chunk [10, 15) of 5 at key 14 */
	struct pe_attn b5 = shape(false, PE_SPAN_CHUNKED, 5);
	cr_expect_eq(pe_attn_seen_rect(&b5, 12, 14, 14, 16), 2);
	/* a chunked rectangle of a million rows costs as one of ten */
	struct pe_attn c = shape(true, PE_SPAN_CHUNKED, 8192);
	uint64_t C = 8192, whole = 122; /* chunks in [0, 999424) */
	cr_expect_eq(pe_attn_seen_rect(&c, 0, whole * C, 0, whole * C),
	    whole * C * (C + 1) / 2);
}

/* NoPE with a window or chunks: the mask field's blocks and grids against
 * its values. */
Test(attn, mask_field_blocks)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	cfg.n = 97;
	cfg.attn.span = PE_SPAN_SLIDING;
	cfg.attn.window = 13;
	th_field_check_kind(&cfg, PE_FIELD_MASK, "nope window 13");
	th_field_check_grids(&cfg, PE_FIELD_MASK, "nope window 13");
	cfg.attn.span = PE_SPAN_CHUNKED;
	cfg.attn.window = 0;
	cfg.attn.chunk = 10;
	th_field_check_kind(&cfg, PE_FIELD_MASK, "nope chunk 10");
	th_field_check_grids(&cfg, PE_FIELD_MASK, "nope chunk 10");
	cfg.attn.chunk = 1;
	th_field_check_kind(&cfg, PE_FIELD_MASK, "nope chunk 1");
}

Test(attn, temperature_at_the_floor_scale_steps)
{
	/* attn_ref.py: llama4_attn_scales(3 * 8192 + 2), float32 */
	static const struct {
		size_t p;
		double want;
	} at[] = {{0, 1}, {8190, 1}, {8191, 1.06931472}, {8192, 1.06931472},
		{16382, 1.06931472}, {16383, 1.10986125}, {24575, 1.13862944},
		{24576, 1.13862944}};
	struct pe_attn t;
	memset(&t, 0, sizeof t);
	t.temperature = true;
	t.floor_scale = 8192;
	t.attn_scale = 0.1;
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
		cr_expect(th_close(pe_attn_temperature(&t, at[i].p), at[i].want,
		    0, 2e-7), "p %zu: %.9g", at[i].p,
		    pe_attn_temperature(&t, at[i].p));
	/* log(2) * 0.1 + 1 exactly in double past the first step */
	cr_expect_eq(pe_attn_temperature(&t, 8191), log1p(1.0) * 0.1 + 1.0);
	/* float32's floor: p + 1 = 2^24 + 8192 - 1 rounds up to a multiple */
	size_t p = ((size_t)1 << 24) + 8192 - 2;
	cr_expect_eq(pe_attn_temperature(&t, p), log1p(2049.0) * 0.1 + 1.0);
	t.temperature = false;
	cr_expect_eq(pe_attn_temperature(&t, 100000), 1.0);
}

Test(attn, sink_share)
{
	/* attn_ref.py: gpt_oss_softmax of the toy's NoPE scores, d 8, causal,
	 * sink 0.5 */
	static const double want[5] = {0.12442369582960555, 0.13838288909806498,
		0.31179804317579463, 0.062499790199454133, 0.1318288176515964};
	static const double sink = 0.5;
	struct pe_config cfg;
	struct pe_toy_sentence s;
	double share[5], a[25];
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	cfg.d = 8;
	cfg.attn.sinks = &sink;
	cfg.attn.n_sinks = 1;
	cr_assert_eq(pe_toy_split(NULL, &s), PE_OK);
	cr_assert_eq(pe_toy_sink_share(&cfg, &s, 0, share), PE_OK);
	cr_assert_eq(pe_toy_attention(&cfg, &s, 0, a), PE_OK);
	for (int i = 0; i < 5; i++) {
		cr_expect(th_close(share[i], want[i], 1e-15, 1e-13), "q %d: %.17g",
		    i, share[i]);
		double row = 0;
		for (int j = 0; j < 5; j++)
			row += a[i * 5 + j];
		cr_expect(th_close(row + share[i], 1.0, 1e-15, 0), "row %d", i);
	}
	/* a head past the sinks is refused */
	char why[200];
	cr_expect_eq(pe_toy_check(&cfg, &s, 1, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "head 1") != NULL, "%s", why);
	/* extreme logits keep the softmax finite */
	double scores[4] = {0, -INFINITY, 700, 3}, w[4], sh[2];
	cr_assert_eq(pe_attn_softmax_sink(2, scores, -800, w, sh), PE_OK);
	cr_expect(isfinite(sh[0]) && isfinite(sh[1]) && sh[1] < 1e-300);
	cr_expect_eq(pe_attn_softmax_sink(2, scores, NAN, w, sh), PE_EINVAL);
}

Test(attn, sinks_make_a_layer_causal)
{
	/* GPT-OSS is a causal decoder: modeling_gpt_oss.py's
	 * eager_attention_forward adds the causal mask to the scores, then
	 * concatenates the head's sink logit, softmax, drops the sink column.
	 * So a RoPE layer given sinks (the modern lesson's scene) lets query 0
	 * see only itself: its sink share and its weight on itself sum to 1,
	 * every later key gets 0. */
	static const double sink = 0.5;
	struct pe_config cfg;
	struct pe_toy_sentence s;
	double share[5], a[25];
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.d = 64;
	cfg.attn.sinks = &sink;
	cfg.attn.n_sinks = 1;
	cr_assert_eq(pe_toy_split(NULL, &s), PE_OK);
	cr_expect(pe_toy_causal(&cfg), "a layer with sinks is causal");
	cr_assert_eq(pe_toy_sink_share(&cfg, &s, 0, share), PE_OK);
	cr_assert_eq(pe_toy_attention(&cfg, &s, 0, a), PE_OK);
	for (int i = 0; i < 5; i++)
		for (int j = i + 1; j < 5; j++)
			cr_expect_eq(a[i * 5 + j], 0.0, "q %d key %d: %g", i, j,
			    a[i * 5 + j]);
	cr_expect(th_close(share[0] + a[0], 1.0, 1e-15, 0), "q 0: %.17g + %.17g",
	    share[0], a[0]);
	/* an explicit --mask none still decides (dump's toy tables) */
	cfg.teach.mask = PE_TOY_MASK_NONE;
	cr_expect(!pe_toy_causal(&cfg));
}

Test(attn, decoupled_score_split)
{
	/* attn_ref.py: decoupled_parts(words, 16, 8, 10000, yarn x40,
	 * original 4096, mscale 1, mscale_all_dim 1), query 4 */
	static const double content[5] = {-0.84829399846456854,
		1.1443163728969103, 0.58568100154788338, -0.84829399846456854,
		2.3464070201391323};
	static const double position[5] = {0.54753971161314796,
		1.1745909453790151, -2.0008678241432434, 0.53029835416726612,
		1.8940531240700913};
	struct pe_config cfg;
	struct pe_toy_sentence s;
	double c[25], p[25], sc[25], m;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.d = 16;
	cfg.pairing = PE_PAIR_INTERLEAVED;
	cfg.attn.qk_rope_dim = 8;
	cfg.attn.qk_nope_dim = 8;
	cfg.rope.type = PE_ROPE_YARN;
	cfg.rope.factor = 40;
	cfg.rope.original_max_pos = 4096;
	cfg.rope.mscale = 1;
	cfg.rope.mscale_all_dim = 1;
	cr_assert_eq(pe_config_check(&cfg, NULL, 0), PE_OK);
	cr_assert_eq(pe_toy_split(NULL, &s), PE_OK);
	cr_assert_eq(pe_toy_score_parts(&cfg, &s, 0, c, p), PE_OK);
	cr_assert_eq(pe_toy_scores(&cfg, &s, 0, sc), PE_OK);
	for (int k = 0; k < 5; k++) {
		cr_expect(th_close(c[20 + k], content[k], 1e-13, 1e-12), "c %d", k);
		cr_expect(th_close(p[20 + k], position[k], 1e-13, 1e-12), "p %d",
		    k);
		cr_expect(th_close(sc[20 + k], c[20 + k] + p[20 + k], 1e-14,
		    1e-14), "sum %d", k);
	}
	/* DeepSeek-V3's scale: 1/sqrt(16) x (0.1 ln 40 + 1)^2 */
	double want_m = 0.1 * log(40.0) + 1.0;
	cr_expect(th_close(pe_attn_scale(&cfg, &m), want_m * want_m / 4.0, 0,
	    1e-15));
	cr_expect(th_close(m, want_m, 0, 1e-15));
	/* the parts must make the head; the rotated part even */
	char why[300];
	cfg.attn.qk_nope_dim = 7;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "rope_dim 8 + nope_dim 7") != NULL, "%s", why);
	cfg.attn.qk_rope_dim = 7;
	cfg.attn.qk_nope_dim = 9;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "rope_dim 7") != NULL, "%s", why);
}

Test(attn, qwen3vl_interleaved_pairs)
{
	struct pe_config cfg;
	size_t sec[3], got[3] = {0, 0, 0};
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_MROPE;
	cfg.d = 128;
	cfg.mrope.mrope_section[0] = 24;
	cfg.mrope.mrope_section[1] = 20;
	cfg.mrope.mrope_section[2] = 20;
	cfg.mrope.layout = PE_MROPE_INTERLEAVED;
	pe_mrope_sections(&cfg, sec);
	/* apply_interleaved_mrope: slice(1, 60, 3) is h, slice(2, 60, 3) w */
	for (size_t j = 0; j < 64; j++) {
		enum pe_mrope_axis a = pe_mrope_pair_axis(&cfg, sec, j);
		enum pe_mrope_axis want = j < 60 && j % 3 == 1 ? PE_MROPE_H
		    : j < 60 && j % 3 == 2 ? PE_MROPE_W : PE_MROPE_T;
		cr_expect_eq(a, want, "pair %zu", j);
		got[a]++;
	}
	cr_expect(got[0] == 24 && got[1] == 20 && got[2] == 20);
	cr_expect_eq(pe_config_check(&cfg, NULL, 0), PE_OK);
	/* sections whose interleaved slots run past the pairs */
	cfg.mrope.mrope_section[0] = 4;
	cfg.mrope.mrope_section[1] = 30;
	cfg.mrope.mrope_section[2] = 30;
	cr_expect_eq(pe_config_check(&cfg, NULL, 0), PE_EINVAL);
}

Test(attn, qwen25vl_time_ids)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_MROPE;
	cfg.mrope.frames = 7;
	cfg.mrope.tokens_per_second = 2;
	/* 3 fps: second_per_grid_t = 2 / 3; long(f x 0.6667 x 2) in float32
	 * (attn_ref.py: qwen25vl_t_index(7, 1, 2 / 3, 2)) */
	cfg.mrope.seconds_per_frame = 2.0 / 3.0;
	static const int64_t want[7] = {0, 1, 2, 4, 5, 6, 8};
	for (size_t f = 0; f < 7; f++)
		cr_expect_eq(pe_mrope_frame_time(&cfg, f), want[f], "frame %zu", f);
	cfg.mrope.seconds_per_frame = 1.0;
	cr_expect_eq(pe_mrope_frame_time(&cfg, 5), 10);
	cfg.mrope.tokens_per_second = 0; /* Qwen2-VL: a frame a step */
	cr_expect_eq(pe_mrope_frame_time(&cfg, 5), 5);
}

Test(attn, checks_name_the_parameter)
{
	struct pe_config cfg;
	char why[300];
	double sinks[3] = {1, 2, 3};
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.attn.span = PE_SPAN_SLIDING;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_EINVAL);
	cr_expect(strncmp(why, "window 0:", 9) == 0, "%s", why);
	cfg.attn.span = PE_SPAN_CHUNKED;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_EINVAL);
	cr_expect(strncmp(why, "chunk 0:", 8) == 0, "%s", why);
	cfg.attn.span = PE_SPAN_FULL;
	cfg.attn.sinks = sinks;
	cfg.attn.n_sinks = 3;
	cfg.attn.heads = 64;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "sinks: 3 numbers") != NULL && strstr(why, "64"),
	    "%s", why);
	cfg.attn.heads = 3;
	cr_expect_eq(pe_config_check(&cfg, NULL, 0), PE_OK);
}
