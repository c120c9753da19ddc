/* libFuzzer target: lesson files (sections, option lines, captions with
 * placeholders). A lesson that loads has every caption filled for its
 * first scene's first frame: parse, then fill. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/lesson.h"
#include "view/view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096) /* a lesson of a few scenes; keeps runs fast */
		return 0;
	char *text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct pe_app_lesson al;
	char err[1024];
	int rc = pe_app_lesson_parse(&al, "fuzz", NULL, text, err, sizeof err);
	if (rc != 0 && rc != 2)
		abort();
	if (rc == 0) {
		struct pe_state st;
		struct pe_model m;
		char cap[8192];
		memset(&st, 0, sizeof st);
		st.session.lesson = &al.l;
		pe_lesson_goto(&st, 0, 0);
		/* a small config only: a fuzzed -n 1e9 would spend the run */
		const struct pe_config *cfg = &st.pane[st.focus].cfg;
		if (cfg->n <= 4096 && pe_model_init(&m, cfg) == PE_OK) {
			if (pe_lesson_caption(&st, &m, cap, sizeof cap) != 0)
				abort(); /* the loader checked every placeholder */
			pe_model_free(&m);
		}
	}
	pe_app_lesson_free(&al);
	free(text);
	return 0;
}
