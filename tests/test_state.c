/* Keys -> state, without a terminal (view/state.c). Expected values follow
 * from the key list in the brief and from pe_config_check's rules, not from
 * running the code. */
#include <criterion/criterion.h>
#include <string.h>

#include "pescope/train.h"
#include "view/encoding.h"
#include "view/state.h"

/* The focused pane of state s (the one the keys change). */
#define PANE(s) ((s).pane[(s).focus])

/* A state on the defaults (sinusoidal, d 64, n 64), or on enc. */
static void
start(struct pe_state *st, enum pe_encoding enc)
{
	struct pe_config c;

	pe_config_default(&c);
	c.enc = enc;
	pe_state_init(st, &c);
}

/* Press a key with one element per cell. */
static int
key(struct pe_state *st, int k)
{
	return pe_state_key(st, k, 1, 1);
}

Test(state, init_defaults)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL);
	cr_assert_eq(st.cur_r, 0);
	cr_assert_eq(st.cur_c, 0);
	cr_assert_eq(st.vr1, 0, "whole map");
	cr_assert_eq(st.status[0], '\0');
	cr_assert(!st.help);
	cr_assert(!st.playing);
	cr_assert(st.speed >= 1 && st.speed <= 64);
}

/* RoPE at m = 0 shows every pair at θ = 0: it starts at the middle
 * position, where the wheel's hands spread and the score curve has keys on
 * both sides; every other encoding starts at 0, 0. */
Test(state, rope_starts_where_the_rotation_shows)
{
	struct pe_state st;
	struct pe_config c;

	start(&st, PE_ENC_ROPE);
	cr_assert_eq(st.cur_r, 32, "rope starts at m = n / 2");
	cr_assert_eq(st.cur_c, 0);
	pe_config_default(&c);
	c.enc = PE_ENC_ROPE;
	c.n = 131072;
	c.d = 128;
	pe_state_init(&st, &c);
	cr_assert_eq(st.cur_r, 65536);
	c.n = 1;
	pe_state_init(&st, &c);
	cr_assert_eq(st.cur_r, 0);
	for (int e = 0; e < PE_ENC_COUNT; e++) {
		size_t rows, cols;
		start(&st, (enum pe_encoding)e);
		pe_state_main_dims(&PANE(st).cfg, &rows, &cols);
		/* the rows that start mid-map (rope, mrope) start at the
		 * middle row */
		size_t want = pe_enc_views[e]->start_mid ? rows / 2 : 0;
		cr_assert(st.cur_r == want && st.cur_c == 0, "%s",
		    pe_encoding_name((enum pe_encoding)e));
	}
}

Test(state, main_dims)
{
	struct pe_config c;
	size_t r, k;

	pe_config_default(&c);
	c.n = 100;
	c.d = 48;
	c.grid_h = 5;
	c.grid_w = 7;
	c.enc = PE_ENC_SINUSOIDAL;
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 100 && k == 48);
	c.enc = PE_ENC_LEARNED;
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 100 && k == 48);
	c.enc = PE_ENC_ROPE; /* pairs: 48 / 2 */
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 100 && k == 24);
	c.rope.partial_rotary = 0.25; /* int(48 * 0.25) = 12 dims, 6 pairs */
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 100 && k == 6);
	c.enc = PE_ENC_RELATIVE;
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 100 && k == 100);
	c.enc = PE_ENC_ALIBI;
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 100 && k == 100);
	c.enc = PE_ENC_NOPE;
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 100 && k == 100);
	c.enc = PE_ENC_VIT2D;
	pe_state_main_dims(&c, &r, &k);
	cr_assert(r == 5 && k == 7);
}

Test(state, encoding_number_keys_and_tab)
{
	struct pe_state st;
	const int n = PE_ENC_COUNT, keyed = n < 9 ? n : 9;

	start(&st, PE_ENC_SINUSOIDAL);
	for (int i = keyed - 1; i >= 0; i--) {
		int a = key(&st, '1' + i);
		cr_assert_eq((int)PANE(st).cfg.enc, i);
		cr_assert(a & PE_ACT_REBUILD);
		cr_assert(a & PE_ACT_REDRAW);
	}
	/* The same encoding again changes nothing. */
	cr_assert_eq(key(&st, '1') & PE_ACT_REBUILD, 0);
	for (int i = 1; i <= n; i++) {
		key(&st, PE_KEY_TAB);
		cr_assert_eq((int)PANE(st).cfg.enc, i % n);
	}
	key(&st, PE_KEY_BTAB);
	cr_assert_eq((int)PANE(st).cfg.enc, n - 1, "shift-tab wraps backwards");
	/* Other parameters are kept across switches; d_model and base at
	 * defaults follow each encoding's, and come back. */
	key(&st, PE_KEY_TAB);
	cr_assert_eq(PANE(st).cfg.enc, PE_ENC_SINUSOIDAL);
	cr_assert_eq(PANE(st).cfg.d, 64);
	cr_assert_eq(PANE(st).cfg.n, 64);
	cr_assert_float_eq(PANE(st).cfg.base, 10000.0, 0);
}

/* A tab shows what -e would: d_model and base at the old encoding's
 * defaults take the new one's (mrope: Qwen2-VL-7B's 128 and 1e6); a value
 * the user chose stays. */
Test(state, defaults_follow_the_encoding)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL);
	key(&st, '8');
	cr_assert_eq(PANE(st).cfg.enc, PE_ENC_MROPE);
	cr_expect_eq(PANE(st).cfg.d, 128);
	cr_expect_float_eq(PANE(st).cfg.base, 1e6, 0);
	cr_expect_eq(st.status[0], '\0', "%s", st.status);
	key(&st, '4');
	cr_expect(PANE(st).cfg.d == 64 && PANE(st).cfg.base == 10000.0);
	key(&st, 'b' | PE_KEY_ALT); /* base 1000: the user's */
	key(&st, 'D'); /* d 128 */
	key(&st, '8');
	cr_expect(PANE(st).cfg.d == 128 && PANE(st).cfg.base == 1000.0);
	key(&st, 'd'); /* d 64 on mrope: the user's */
	key(&st, '4');
	cr_expect(PANE(st).cfg.d == 64 && PANE(st).cfg.base == 1000.0);
}

Test(state, learned_table_follows_d)
{
	struct pe_state st;
	struct pe_config c;
	static double table[4 * 8];

	pe_config_default(&c);
	c.enc = PE_ENC_LEARNED;
	c.d = 8;
	c.max_len = 4;
	c.table = table;
	c.table_untrained = true;
	pe_state_init(&st, &c);
	int a = key(&st, 'D');
	cr_assert(a & PE_ACT_REBUILD);
	cr_assert_eq(PANE(st).cfg.d, 16);
	cr_assert_null(PANE(st).cfg.table, "an untrained table must be "
	    "regenerated");

	/* A user's table fixes d_model. */
	c.table_untrained = false;
	pe_state_init(&st, &c);
	a = key(&st, 'D');
	cr_assert_eq(a & PE_ACT_REBUILD, 0);
	cr_assert_eq(PANE(st).cfg.d, 8);
	cr_assert_eq(PANE(st).cfg.table, table);
	cr_assert(strstr(st.status, "table") != NULL, "status: %s", st.status);

	/* Too large an untrained table is refused (max_len x d <= 2^26). */
	c.table_untrained = true;
	c.max_len = (size_t)1 << 20; /* 2^20 x 128 = 2^27 entries */
	c.d = 128;
	c.table = NULL;
	c.enc = PE_ENC_SINUSOIDAL;
	pe_state_init(&st, &c);
	a = key(&st, '2');
	cr_assert_eq(a & PE_ACT_REBUILD, 0);
	cr_assert_eq(PANE(st).cfg.enc, PE_ENC_SINUSOIDAL);
	cr_assert(strstr(st.status, "too large") != NULL, "%s", st.status);
}

Test(state, odd_d_refused_with_reason)
{
	struct pe_state st;

	start(&st, PE_ENC_ROPE);
	for (int i = 0; i < 5; i++) /* 64 -> 2 */
		cr_assert(key(&st, 'd') & PE_ACT_REBUILD);
	cr_assert_eq(PANE(st).cfg.d, 2);
	int a = key(&st, 'd'); /* 1 is odd */
	cr_assert_eq(a & PE_ACT_REBUILD, 0);
	cr_assert(a & PE_ACT_REDRAW);
	cr_assert_eq(PANE(st).cfg.d, 2, "old config kept");
	cr_assert(strstr(st.status, "rope needs an even d_model") != NULL,
	    "status: %s", st.status);
	/* The next accepted key clears the message. */
	key(&st, 'D');
	cr_assert_eq(PANE(st).cfg.d, 4);
	cr_assert_eq(st.status[0], '\0');
}

Test(state, switch_adjusts_d_and_says_so)
{
	struct pe_state st;
	struct pe_config c;

	pe_config_default(&c);
	c.d = 66; /* even: fine for sinusoidal, not for vit2d (d % 4) */
	pe_state_init(&st, &c);
	int a = key(&st, '7');
	cr_assert(a & PE_ACT_REBUILD);
	cr_assert_eq(PANE(st).cfg.enc, PE_ENC_VIT2D);
	cr_assert_eq(PANE(st).cfg.d, 68, "nearest multiple of 4, up on a tie");
	cr_assert(strstr(st.status, "66") && strstr(st.status, "68"), "%s",
	    st.status);

	/* nope accepts d 3; rope needs even: 3 -> 4. */
	c.enc = PE_ENC_NOPE;
	c.d = 3;
	pe_state_init(&st, &c);
	key(&st, '4');
	cr_assert_eq(PANE(st).cfg.enc, PE_ENC_ROPE);
	cr_assert_eq(PANE(st).cfg.d, 4);
	cr_assert_neq(st.status[0], '\0');

	/* d 5 to vit2d: 4 is nearer than 8. */
	c.d = 5;
	pe_state_init(&st, &c);
	key(&st, '7');
	cr_assert_eq(PANE(st).cfg.d, 4);
}

Test(state, other_encodings_keys_refused)
{
	struct pe_state st;
	static const int keys[] = {'p', 's', 'f', 'h', 'a', 'r', 'u', 'k', 'm',
	    'g', '<', '>'};

	start(&st, PE_ENC_SINUSOIDAL);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		struct pe_config before = PANE(st).cfg;
		int a = key(&st, keys[i]);
		cr_assert_eq(a & PE_ACT_REBUILD, 0, "key %c", keys[i]);
		cr_assert_neq(st.status[0], '\0', "key %c says why", keys[i]);
		cr_assert_eq(memcmp(&before, &PANE(st).cfg, sizeof before), 0);
	}
	start(&st, PE_ENC_ALIBI);
	int a = key(&st, 'l');
	cr_assert_eq(a & PE_ACT_REBUILD, 0);
	cr_assert(strstr(st.status, "sinusoidal") != NULL, "%s", st.status);
	key(&st, 'b');
	cr_assert_float_eq(PANE(st).cfg.base, 10000.0, 0);
	cr_assert_neq(st.status[0], '\0');
}

Test(state, parameters_change)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL);
	key(&st, 'N');
	cr_assert_eq(PANE(st).cfg.n, 128);
	key(&st, 'n');
	key(&st, 'n');
	cr_assert_eq(PANE(st).cfg.n, 32);
	key(&st, 'l');
	cr_assert_eq(PANE(st).cfg.layout, PE_LAYOUT_SPLIT);
	key(&st, 'l');
	cr_assert_eq(PANE(st).cfg.layout, PE_LAYOUT_T2T);
	key(&st, 'l');
	cr_assert_eq(PANE(st).cfg.layout, PE_LAYOUT_INTERLEAVED);
	key(&st, 'l');
	key(&st, 'b'); /* ÷2; Alt+b ÷10 */
	cr_assert_float_eq(PANE(st).cfg.base, 5000.0, 1e-9);
	key(&st, 'b' | PE_KEY_ALT);
	cr_assert_float_eq(PANE(st).cfg.base, 500.0, 1e-9);
	key(&st, 'B' | PE_KEY_ALT);
	key(&st, 'B' | PE_KEY_ALT);
	key(&st, 'B');
	cr_assert_float_eq(PANE(st).cfg.base, 100000.0, 1e-6);
	/* base 10 / 10 = 1 is not > 1. */
	start(&st, PE_ENC_SINUSOIDAL);
	for (int i = 0; i < 3; i++)
		key(&st, 'b' | PE_KEY_ALT);
	cr_assert_float_eq(PANE(st).cfg.base, 10.0, 1e-9);
	cr_assert_eq(key(&st, 'b' | PE_KEY_ALT) & PE_ACT_REBUILD, 0);
	cr_assert_float_eq(PANE(st).cfg.base, 10.0, 1e-9);
	cr_assert(strstr(st.status, "base 1:") != NULL, "%s", st.status);

	start(&st, PE_ENC_ROPE);
	key(&st, 'p');
	cr_assert_eq(PANE(st).cfg.rope.type, PE_ROPE_DEFAULT);
	cr_assert_eq(PANE(st).cfg.pairing, PE_PAIR_INTERLEAVED);
	key(&st, 'f'); /* default scaling has no factor */
	cr_assert_float_eq(PANE(st).cfg.rope.factor, 4.0, 0);
	cr_assert_neq(st.status[0], '\0');
	key(&st, 's');
	cr_assert_eq(PANE(st).cfg.rope.type, PE_ROPE_LINEAR);
	key(&st, 'f');
	key(&st, 'f');
	cr_assert_float_eq(PANE(st).cfg.rope.factor, 1.0, 0);
	cr_assert_eq(key(&st, 'f') & PE_ACT_REBUILD, 0, "factor 0.5 < 1");
	cr_assert_float_eq(PANE(st).cfg.rope.factor, 1.0, 0);
	cr_assert_neq(st.status[0], '\0');
	key(&st, 'F');
	cr_assert_float_eq(PANE(st).cfg.rope.factor, 2.0, 0);

	start(&st, PE_ENC_ALIBI);
	cr_assert_eq(PANE(st).cfg.heads, 8);
	key(&st, '>');
	key(&st, '>');
	cr_assert_eq(PANE(st).head, 2);
	key(&st, '<');
	cr_assert_eq(PANE(st).head, 1);
	key(&st, '<');
	key(&st, '<');
	cr_assert_eq(PANE(st).head, 0);
	cr_assert_neq(st.status[0], '\0', "no head before 0");
	for (int i = 0; i < 7; i++)
		key(&st, '>');
	cr_assert_eq(PANE(st).head, 7);
	key(&st, 'h');
	cr_assert_eq(PANE(st).cfg.heads, 7);
	cr_assert_eq(PANE(st).head, 6, "head clamped to the heads left");
	key(&st, 'H');
	cr_assert_eq(PANE(st).cfg.heads, 8);
	key(&st, 'a');
	cr_assert_eq(PANE(st).cfg.alibi_mode, PE_ALIBI_SYMMETRIC);
	for (int i = 0; i < 7; i++)
		key(&st, 'h');
	cr_assert_eq(PANE(st).cfg.heads, 1);
	cr_assert_eq(key(&st, 'h') & PE_ACT_REBUILD, 0);
	cr_assert(strstr(st.status, "heads 0") != NULL, "%s", st.status);

	start(&st, PE_ENC_RELATIVE);
	key(&st, 'k');
	cr_assert_eq(PANE(st).cfg.buckets, 30);
	key(&st, 'K');
	key(&st, 'K');
	cr_assert_eq(PANE(st).cfg.buckets, 34);
	key(&st, 'm');
	cr_assert_eq(PANE(st).cfg.max_distance, 64);
	key(&st, 'M');
	key(&st, 'M');
	cr_assert_eq(PANE(st).cfg.max_distance, 256);
	key(&st, 'u');
	cr_assert(!PANE(st).cfg.bidirectional);
	key(&st, 't');
	cr_assert_eq(PANE(st).cfg.relative, PE_REL_SHAW);
	key(&st, 'k');
	cr_assert_eq(PANE(st).cfg.max_relative, 15);
	key(&st, 'K');
	key(&st, 'K');
	cr_assert_eq(PANE(st).cfg.max_relative, 17);
	key(&st, 'u'); /* shaw has no direction */
	cr_assert(!PANE(st).cfg.bidirectional);
	cr_assert_neq(st.status[0], '\0');

	/* t5, 32 buckets bidirectional: 32 / 4 = 8 exact, so max_distance
	 * must be > 8: 128 -> 64 -> 32 -> 16 fine, 8 refused. */
	start(&st, PE_ENC_RELATIVE);
	for (int i = 0; i < 3; i++)
		cr_assert(key(&st, 'm') & PE_ACT_REBUILD);
	cr_assert_eq(PANE(st).cfg.max_distance, 16);
	cr_assert_eq(key(&st, 'm') & PE_ACT_REBUILD, 0);
	cr_assert_eq(PANE(st).cfg.max_distance, 16);
	cr_assert(strstr(st.status, "max_distance 8") != NULL, "%s",
	    st.status);

	start(&st, PE_ENC_VIT2D);
	key(&st, 'G');
	cr_assert(PANE(st).cfg.grid_h == 15 && PANE(st).cfg.grid_w == 15);
	key(&st, 'g');
	key(&st, 'g');
	cr_assert(PANE(st).cfg.grid_h == 13 && PANE(st).cfg.grid_w == 13);
	key(&st, 'n'); /* no seq_len in vit2d */
	cr_assert_eq(PANE(st).cfg.n, 64);
	cr_assert_neq(st.status[0], '\0');
}

Test(state, rope_scaling_cycle_skips_longrope)
{
	struct pe_state st;
	static const enum pe_rope_type next[] = {PE_ROPE_LINEAR,
	    PE_ROPE_DYNAMIC, PE_ROPE_YARN, PE_ROPE_LLAMA3, PE_ROPE_DEFAULT};

	start(&st, PE_ENC_ROPE);
	for (size_t i = 0; i < 5; i++) {
		key(&st, 's'); /* forward from the one shown */
		cr_assert_eq(PANE(st).cfg.rope.type, next[i], "step %zu", i);
		if (next[i] == PE_ROPE_LLAMA3)
			cr_assert(strstr(st.status, "longrope") != NULL, "%s",
			    st.status);
	}
	key(&st, 'S');
	cr_assert_eq(PANE(st).cfg.rope.type, PE_ROPE_LLAMA3);
	key(&st, 'S');
	cr_assert_eq(PANE(st).cfg.rope.type, PE_ROPE_YARN, "skips longrope "
	    "backwards");

	/* With factor lists of rot/2 = 32 entries, longrope is reachable. */
	static double sf[32], lf[32];
	for (int i = 0; i < 32; i++)
		sf[i] = lf[i] = 1.0;
	start(&st, PE_ENC_ROPE);
	PANE(st).cfg.rope.short_factor = sf;
	PANE(st).cfg.rope.long_factor = lf;
	PANE(st).cfg.rope.n_short = PANE(st).cfg.rope.n_long = 32;
	PANE(st).cfg.rope.type = PE_ROPE_YARN;
	key(&st, 's');
	cr_assert_eq(PANE(st).cfg.rope.type, PE_ROPE_LONGROPE);
	/* d_model 32 would need 16 factors: refused by the check. */
	cr_assert_eq(key(&st, 'd') & PE_ACT_REBUILD, 0);
	cr_assert_eq(PANE(st).cfg.d, 64);
	cr_assert(strstr(st.status, "short_factor") != NULL, "%s", st.status);
}

Test(state, cursor_moves)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL); /* 64 x 64 */
	key(&st, PE_KEY_UP);
	key(&st, PE_KEY_LEFT);
	cr_assert(st.cur_r == 0 && st.cur_c == 0, "saturates at 0");
	pe_state_key(&st, PE_KEY_DOWN, 3, 2);
	pe_state_key(&st, PE_KEY_RIGHT, 3, 2);
	cr_assert_eq(st.cur_r, 3, "one cell is 3 rows");
	cr_assert_eq(st.cur_c, 2, "one cell is 2 columns");
	key(&st, PE_KEY_END);
	cr_assert_eq(st.cur_r, 63);
	key(&st, PE_KEY_DOWN);
	cr_assert_eq(st.cur_r, 63, "saturates at the last row");
	key(&st, PE_KEY_HOME);
	cr_assert_eq(st.cur_r, 0);
	cr_assert_eq(st.cur_c, 2, "home keeps the column");
	pe_state_key(&st, PE_KEY_RIGHT, 1, 100);
	cr_assert_eq(st.cur_c, 63);
	/* Whole map: PgDn moves a whole map height, i.e. to the end. */
	key(&st, PE_KEY_PGDN);
	cr_assert_eq(st.cur_r, 63);
	pe_state_point(&st, 1000, 1000);
	cr_assert(st.cur_r == 63 && st.cur_c == 63, "clicks clamp");
	pe_state_point(&st, 5, 6);
	cr_assert(st.cur_r == 5 && st.cur_c == 6);
}

Test(state, zoom_and_clamp)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL); /* 64 x 64 */
	pe_state_point(&st, 40, 10);
	cr_assert(key(&st, '+') & PE_ACT_REDRAW);
	cr_assert_eq(st.vr1 - st.vr0, 32);
	cr_assert_eq(st.vc1 - st.vc0, 32);
	cr_assert(st.vr0 <= 40 && 40 < st.vr1, "cursor row inside");
	cr_assert(st.vc0 <= 10 && 10 < st.vc1, "cursor column inside");
	cr_assert(st.vr1 <= 64 && st.vc1 <= 64);
	/* Zoom keeps the cursor's relative place: 40 at 40/64 of the map. */
	cr_assert_eq(st.vr0, 20);
	cr_assert_eq(st.vc0, 5);
	key(&st, '+');
	key(&st, '+');
	key(&st, '+');
	cr_assert_eq(st.vr1 - st.vr0, 4, "32 -> 16 -> 8 -> 4");
	key(&st, '+');
	cr_assert_eq(st.vr1 - st.vr0, 4, "4 is the closest");
	cr_assert_neq(st.status[0], '\0');
	cr_assert(st.vr0 <= 40 && 40 < st.vr1);
	/* Moving past the viewport scrolls it. */
	size_t r0 = st.vr0;
	for (int i = 0; i < 10; i++)
		key(&st, PE_KEY_DOWN);
	cr_assert_eq(st.cur_r, 50);
	cr_assert(st.vr0 <= 50 && 50 < st.vr1);
	cr_assert_gt(st.vr0, r0);
	cr_assert_eq(st.vr1 - st.vr0, 4, "extent kept while scrolling");
	/* PgUp pans by a viewport height. */
	size_t before = st.vr0;
	key(&st, PE_KEY_PGUP);
	cr_assert_eq(st.vr0, before - 4);
	cr_assert_eq(st.cur_r, 46);
	key(&st, '-');
	cr_assert_eq(st.vr1 - st.vr0, 8);
	key(&st, '0');
	cr_assert_eq(st.vr1, 0, "0 shows the whole map");
	key(&st, '-');
	cr_assert_neq(st.status[0], '\0', "cannot zoom out past the map");
	cr_assert_eq(st.vr1, 0);

	/* A config change clamps cursor and viewport. */
	start(&st, PE_ENC_SINUSOIDAL);
	pe_state_point(&st, 60, 60);
	key(&st, '+');
	cr_assert(st.vr0 <= 60 && 60 < st.vr1);
	key(&st, 'n'); /* 64 -> 32 rows */
	cr_assert_eq(st.cur_r, 31);
	cr_assert_leq(st.vr1, 32);
	cr_assert(st.vr0 <= 31 && 31 < st.vr1);
	key(&st, 'd'); /* 64 -> 32 columns */
	cr_assert_eq(st.cur_c, 31);
	cr_assert(st.vr1 == 0 || st.vc1 <= 32);

	/* Zooming out back to the whole map restores "whole". */
	start(&st, PE_ENC_SINUSOIDAL);
	pe_state_zoom(&st, 2, 0, 0);
	cr_assert_eq(st.vr1 - st.vr0, 16);
	cr_assert_eq(st.vr0, 0);
	pe_state_zoom(&st, -2, 0, 0);
	cr_assert_eq(st.vr1, 0);

	/* The wheel zooms around the pointer and keeps the cursor inside:
	 * one the view leaves out goes to the pointer's element (not to the
	 * view's corner, an element nobody chose); one it keeps stays. */
	start(&st, PE_ENC_SINUSOIDAL);
	pe_state_zoom(&st, 3, 63, 63);
	cr_assert_eq(st.vr1, 64);
	cr_assert_eq(st.vc1, 64);
	cr_expect(st.cur_r == 63 && st.cur_c == 63, "cursor (%zu, %zu)",
	    st.cur_r, st.cur_c);
	start(&st, PE_ENC_SINUSOIDAL);
	st.cur_r = 30, st.cur_c = 20;
	pe_state_zoom(&st, 1, 31, 21);
	cr_assert(st.vr0 <= 30 && st.vr1 > 30 && st.vc0 <= 20 && st.vc1 > 20);
	cr_expect(st.cur_r == 30 && st.cur_c == 20, "a cursor in view stays");
}

Test(state, help_quit_snapshot)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL);
	cr_assert(key(&st, '?') & PE_ACT_REDRAW);
	cr_assert(st.help);
	int a = key(&st, 'q');
	cr_assert_eq(a & PE_ACT_QUIT, 0, "any key closes help, q included");
	cr_assert(!st.help);
	cr_assert(key(&st, 'q') & PE_ACT_QUIT);
	/* Esc never quits (a presenter's clicker sends it): it closes the
	 * help, and otherwise says how to quit. */
	key(&st, '?');
	cr_assert_eq(key(&st, PE_KEY_ESC) & PE_ACT_QUIT, 0);
	cr_assert(!st.help, "Esc closes the help");
	cr_assert_eq(key(&st, PE_KEY_ESC) & PE_ACT_QUIT, 0, "Esc does not quit");
	cr_assert_neq(strstr(st.status, "q quits"), NULL, "%s", st.status);
	cr_assert(key(&st, 'w') & PE_ACT_SNAPSHOT);
	key(&st, 'Z');
	cr_assert_neq(st.status[0], '\0', "unbound keys say so");
}

Test(state, animation)
{
	struct pe_state st;

	start(&st, PE_ENC_ROPE);
	size_t r0 = st.cur_r; /* rope's start position */
	cr_assert_eq(key(&st, PE_KEY_TICK), PE_ACT_NONE, "paused");
	key(&st, ' ');
	cr_assert(st.playing);
	cr_assert(key(&st, PE_KEY_TICK) & PE_ACT_REDRAW);
	cr_assert_eq(st.cur_r, r0 + 1);
	pe_state_key(&st, PE_KEY_TICK, 10, 1);
	cr_assert_eq(st.cur_r, r0 + 11);
	key(&st, PE_KEY_END);
	key(&st, PE_KEY_TICK);
	cr_assert_eq(st.cur_r, 0, "wraps");
	int s = st.speed;
	key(&st, ']');
	cr_assert_eq(st.speed, 2 * s);
	key(&st, '[');
	key(&st, '[');
	cr_assert_eq(st.speed, s / 2);
	for (int i = 0; i < 10; i++)
		key(&st, '[');
	cr_assert_eq(st.speed, 1);
	for (int i = 0; i < 10; i++)
		key(&st, ']');
	cr_assert_eq(st.speed, 64);
	key(&st, ' ');
	cr_assert(!st.playing);

	/* vit2d: patches in raster order. */
	start(&st, PE_ENC_VIT2D);
	st.playing = true;
	for (int i = 0; i < 14; i++)
		key(&st, PE_KEY_TICK);
	cr_assert(st.cur_r == 1 && st.cur_c == 0);
}

/* A key that changes the configuration marks the preset as
 * modified; moving the cursor does not. */
Test(state, changing_a_preset_marks_it_modified)
{
	struct pe_state st;

	start(&st, PE_ENC_ROPE);
	PANE(st).preset = "llama-3.1-8b";
	key(&st, PE_KEY_DOWN);
	cr_expect(!PANE(st).preset_modified, "a cursor move is no change");
	key(&st, 's');
	cr_expect_neq(PANE(st).cfg.rope.type, PE_ROPE_DEFAULT);
	cr_expect(PANE(st).preset_modified);
}

/* Playing, the speed and control keys say what they did (the footer's
 * hints may not show it at 80 columns). */
Test(state, play_speed_and_control_keys_answer)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL);
	key(&st, ' ');
	cr_expect(st.playing);
	cr_expect(strstr(st.status, "playing") != NULL, "%s", st.status);
	key(&st, ']');
	cr_expect(strstr(st.status, "speed 16") != NULL, "%s", st.status);
	key(&st, 1); /* Ctrl-A */
	cr_expect(strstr(st.status, "Ctrl-A") != NULL, "%s", st.status);
}

/* c / C cycle the right column's panel through the encoding's
 * list (the overview first); an encoding without the panel shows its
 * overview and the choice comes back with an encoding that has it. */
Test(state, panel_key_cycles_the_encodings_panels)
{
	struct pe_state st;

	start(&st, PE_ENC_SINUSOIDAL);
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_OVERVIEW);
	int act = key(&st, 'c');
	cr_assert(act & PE_ACT_REDRAW);
	cr_assert(!(act & PE_ACT_REBUILD), "a panel is no config change");
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_ATTENTION);
	key(&st, 'c');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_EXAMPLE);
	key(&st, 'c');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_SHIFT);
	key(&st, 'c');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_OVERVIEW, "wraps");
	key(&st, 'C');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_SHIFT, "backwards");

	/* rope has no shift panel: its overview, until sinusoidal again */
	pe_state_set_encoding(&st, PE_ENC_ROPE);
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_OVERVIEW);
	pe_state_set_encoding(&st, PE_ENC_SINUSOIDAL);
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_SHIFT);

	/* from a panel rope lacks, c moves on from its overview */
	pe_state_set_encoding(&st, PE_ENC_ROPE);
	key(&st, 'c');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_ATTENTION);
	key(&st, 'c');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_EXAMPLE);
	key(&st, 'c');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_DECAY);

	start(&st, PE_ENC_ALIBI);
	key(&st, 'C');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_RECENCY);
	start(&st, PE_ENC_NOPE);
	key(&st, 'C');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_TEMPERATURE);
	key(&st, 'C');
	key(&st, 'C');
	key(&st, 'C');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_SHARE);

	/* vit2d has only its overview: the key says so */
	start(&st, PE_ENC_VIT2D);
	key(&st, 'c');
	cr_assert_eq(pe_state_panel(&st), PE_PANEL_OVERVIEW);
	cr_assert(strstr(st.status, "one panel") != NULL, "%s", st.status);
}

Test(state, panel_names_round_trip)
{
	for (int p = 0; p < PE_PANEL_COUNT; p++)
		cr_assert_eq(pe_panel_parse(pe_panel_name((enum pe_panel)p)), p);
	cr_assert_str_eq(pe_panel_name(PE_PANEL_ATTENTION), "attention");
	cr_assert_eq(pe_panel_parse("overview"), PE_PANEL_OVERVIEW);
	cr_assert_eq(pe_panel_parse("dot"), -1);
	cr_assert_eq(pe_panel_parse(""), -1);
}

/* v: values over the colors, on and off, with any encoding. */
Test(state, v_toggles_values)
{
	struct pe_state st;

	for (int e = 0; e < PE_ENC_COUNT; e++) {
		start(&st, (enum pe_encoding)e);
		cr_assert(!st.values);
		cr_assert(key(&st, 'v') & PE_ACT_REDRAW);
		cr_assert(st.values, "%s", pe_encoding_name((enum pe_encoding)e));
		cr_assert(strstr(st.status, "values on") != NULL, "%s", st.status);
		key(&st, 'v');
		cr_assert(!st.values);
	}
}

/* P: the presenter view, on and off, with any encoding; a frame key, so
 * it keeps the config, the cursor and the panel; with the help up it only
 * closes the help, as every key does. */
Test(state, P_toggles_the_presenter_view)
{
	struct pe_state st;

	for (int e = 0; e < PE_ENC_COUNT; e++) {
		start(&st, (enum pe_encoding)e);
		struct pe_config before = PANE(st).cfg;
		cr_assert(!st.session.present);
		int act = key(&st, 'P');
		cr_assert(act & PE_ACT_REDRAW);
		cr_assert(!(act & PE_ACT_REBUILD), "a view change rebuilds nothing");
		cr_assert(st.session.present, "%s",
		    pe_encoding_name((enum pe_encoding)e));
		cr_assert(strstr(st.status, "presenter view") != NULL, "%s",
		    st.status);
		cr_assert(strstr(st.status, "P leaves it") != NULL);
		cr_assert_eq(memcmp(&before, &PANE(st).cfg, sizeof before), 0);
		key(&st, 'P');
		cr_assert(!st.session.present);
		cr_assert(strstr(st.status, "off") != NULL, "%s", st.status);
	}
	start(&st, PE_ENC_SINUSOIDAL);
	key(&st, '?');
	cr_assert(st.help);
	key(&st, 'P');
	cr_assert(!st.help);
	cr_assert(!st.session.present, "P with the help up closes the help "
	    "only");
}

/* x turns compare on with pane B a copy of A and the keys on B; X moves
 * them back to A; the encoding's keys (d/D here) change only the focused
 * pane; the cursor is one; x again leaves pane A alone. */
Test(state, compare_x_and_focus_X)
{
	struct pe_state st, a, b;

	start(&st, PE_ENC_SINUSOIDAL);
	cr_assert(!st.compare);
	cr_assert_eq(pe_state_focused(&st), PE_PANE_A);
	cr_assert(key(&st, 'X') & PE_ACT_REDRAW);
	cr_assert(!st.compare, "X alone does not start compare");
	cr_assert_neq(st.status[0], '\0', "X alone says x starts it");

	cr_assert(key(&st, 'x') & PE_ACT_REBUILD, "pane B needs a model");
	cr_assert(st.compare);
	cr_assert_eq(pe_state_focused(&st), PE_PANE_B, "B takes the keys");
	pe_state_pane(&st, PE_PANE_A, &a);
	pe_state_pane(&st, PE_PANE_B, &b);
	cr_assert_eq(PANE(a).cfg.d, 64);
	cr_assert_eq(PANE(b).cfg.d, 64, "B starts as a copy");
	cr_assert(!a.compare && !b.compare, "a pane is one state");

	/* D doubles d_model of the focused pane, B, only */
	cr_assert(key(&st, 'D') & PE_ACT_REBUILD);
	pe_state_pane(&st, PE_PANE_A, &a);
	pe_state_pane(&st, PE_PANE_B, &b);
	cr_assert_eq(PANE(a).cfg.d, 64, "A keeps its d_model");
	cr_assert_eq(PANE(b).cfg.d, 128);
	cr_assert_eq(pe_state_pane_cfg(&st, PE_PANE_B)->d, 128);
	cr_assert_eq(pe_state_pane_cfg(&st, PE_PANE_A)->d, 64);

	/* the cursor is shared: move it in B (128 columns), then focus A
	 * (64 columns): it stays on its row and is clamped to A's map */
	pe_state_point(&st, 5, 100);
	pe_state_pane(&st, PE_PANE_A, &a);
	cr_assert_eq(a.cur_r, 5);
	cr_assert_eq(a.cur_c, 63, "clamped to A's last column");
	cr_assert(key(&st, 'X') & PE_ACT_REDRAW);
	cr_assert_eq(pe_state_focused(&st), PE_PANE_A);
	cr_assert_eq(PANE(st).cfg.d, 64, "the keys act on A now");
	cr_assert_eq(st.cur_r, 5);
	cr_assert_eq(st.cur_c, 63);
	cr_assert(key(&st, 'd') & PE_ACT_REBUILD);
	pe_state_pane(&st, PE_PANE_A, &a);
	pe_state_pane(&st, PE_PANE_B, &b);
	cr_assert_eq(PANE(a).cfg.d, 32);
	cr_assert_eq(PANE(b).cfg.d, 128, "B untouched by A's key");

	/* a tab (number key) changes the focused pane's encoding */
	key(&st, 'X');
	key(&st, '4');
	pe_state_pane(&st, PE_PANE_A, &a);
	pe_state_pane(&st, PE_PANE_B, &b);
	cr_assert_eq(PANE(a).cfg.enc, PE_ENC_SINUSOIDAL);
	cr_assert_eq(PANE(b).cfg.enc, PE_ENC_ROPE);

	/* x with the focus on B: compare ends and pane A stays */
	cr_assert_eq(pe_state_focused(&st), PE_PANE_B);
	key(&st, 'x');
	cr_assert(!st.compare);
	cr_assert_eq(PANE(st).cfg.enc, PE_ENC_SINUSOIDAL);
	cr_assert_eq(PANE(st).cfg.d, 32);
	cr_assert_eq(pe_state_focused(&st), PE_PANE_A);
}

/* Turning compare on copies the settings but not an untrained learned
 * table (the TUI gives pane B its own, so A's can change alone). */
Test(state, compare_copies_no_untrained_table)
{
	struct pe_state st;
	struct pe_config c;
	static double table[64 * 64];

	pe_config_default(&c);
	c.enc = PE_ENC_LEARNED;
	c.table = table;
	c.table_untrained = true;
	pe_state_init(&st, &c);
	key(&st, 'x');
	cr_assert_null(pe_state_pane_cfg(&st, PE_PANE_B)->table);
	cr_assert_eq(pe_state_pane_cfg(&st, PE_PANE_A)->table, table);
}

/* --train's keys, on a learned pane whose table a run trains: space
 * pauses and resumes, s asks for one step and pauses, r for a restart;
 * d/D and n/N are the run's and refused; the requests are the loop's to
 * do. Without a run, space is the animation's again. */
Test(state, training_keys)
{
	struct pe_train_config tc;
	struct pe_trainer *tr;
	struct pe_state st;
	struct pe_config c;

	pe_train_default(&tc);
	cr_assert_eq(pe_train_new(&tc, &tr), PE_OK);
	pe_config_default(&c);
	c.enc = PE_ENC_LEARNED;
	c.d = tc.d;
	c.n = c.max_len = tc.n;
	c.table = pe_train_table(tr);
	c.table_untrained = false;
	c.trainer = tr;
	pe_state_init(&st, &c);
	cr_expect_not(st.train_paused);
	cr_expect_eq(key(&st, ' ') & PE_ACT_REDRAW, PE_ACT_REDRAW);
	cr_expect(st.train_paused);
	cr_expect_not(st.playing, "space is the training's here");
	cr_expect(strstr(st.status, "training paused") != NULL, "%s",
	    st.status);
	key(&st, ' ');
	cr_expect_not(st.train_paused);
	key(&st, 's');
	cr_expect(st.train_paused);
	cr_expect_eq(st.train_req, PE_TRAIN_REQ_STEP);
	st.train_req = PE_TRAIN_REQ_NONE;
	key(&st, 'r');
	cr_expect_eq(st.train_req, PE_TRAIN_REQ_RESTART);
	cr_expect(strstr(st.status, "seed 98943134") != NULL, "%s",
	    st.status);
	key(&st, 'D');
	cr_expect_eq(PANE(st).cfg.d, 32, "d_model is the run's");
	cr_expect(strstr(st.status, "d_model 32 is the training run's") !=
	    NULL, "%s", st.status);
	key(&st, 'n');
	cr_expect_eq(PANE(st).cfg.n, 64, "seq_len is the run's");
	/* on another tab the keys are that encoding's */
	PANE(st).cfg.enc = PE_ENC_SINUSOIDAL;
	st.train_paused = false;
	key(&st, ' ');
	cr_expect(st.playing);
	cr_expect_not(st.train_paused);
	pe_train_free(tr);
}
