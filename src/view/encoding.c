/* The encodings' view rows (view/encoding.h), indexed by enum
 * pe_encoding, and the look-ups of a row's panels and keys. */
#include <string.h>

#include "view/view_impl.h"

/* Each encoding's row (view/encoding.h), in tab order. */
const struct pe_enc_view *const pe_enc_views[PE_ENC_COUNT] = {
	[PE_ENC_SINUSOIDAL] = &view_sinusoidal_row,
	[PE_ENC_LEARNED] = &view_learned_row,
	[PE_ENC_RELATIVE] = &view_relative_row,
	[PE_ENC_ROPE] = &view_rope_row,
	[PE_ENC_ALIBI] = &view_alibi_row,
	[PE_ENC_NOPE] = &view_nope_row,
	[PE_ENC_VIT2D] = &view_vit2d_row,
	[PE_ENC_MROPE] = &view_mrope_row,
	[PE_ENC_XPOS] = &view_xpos_row,
	[PE_ENC_ROPE2D] = &view_rope2d_row,
};

/* The row of cfg's encoding. */
const struct pe_enc_view *
pe_enc_view_of(const struct pe_config *cfg)
{
	return pe_enc_views[cfg->enc];
}

/* The row's panel p, or NULL. */
const struct pe_enc_panel *
pe_enc_panel_of(const struct pe_enc_view *v, enum pe_panel p)
{
	for (const struct pe_enc_panel *q = v->panels; q != NULL && q->draw != NULL;
	     q++)
		if (q->id == p)
			return q;
	return NULL;
}

/* Whether the row has panel p. */
bool
pe_enc_has_panel(const struct pe_enc_view *v, enum pe_panel p)
{
	return p == PE_PANEL_OVERVIEW || pe_enc_panel_of(v, p) != NULL;
}

/* The encoding's key for `key`, or NULL. */
const struct pe_enc_key *
pe_enc_key_of(const struct pe_enc_view *v, int key)
{
	if (key <= 0 || key >= 127)
		return NULL;
	for (const struct pe_enc_key *k = v->keys; k->keys != NULL; k++)
		if (strchr(k->keys, key) != NULL)
			return k;
	return NULL;
}
