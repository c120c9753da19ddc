/* The preset picker (e, picker.c): its keys, for state_key.c. */
#ifndef PESCOPE_VIEW_PICKER_H
#define PESCOPE_VIEW_PICKER_H

#include "view/state.h"

/* Open the picker on the focused pane's preset (or the first); say so
 * when the program gave no presets. enum pe_action bits. */
int pe_picker_open(struct pe_state *st);
/* A key while the picker is open: arrows and PgUp/PgDn mark, Enter asks
 * for the marked preset (st->session.want_preset), any other closes it.
 * enum pe_action bits. */
int pe_picker_key(struct pe_state *st, int key);

#endif
