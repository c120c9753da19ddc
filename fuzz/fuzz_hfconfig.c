/* libFuzzer target: model configs (config.json) through the loader, then
 * every layer's rope tables built as a view would build them. */
#include <stdint.h>
#include <stdlib.h>

#include "io/hfconfig.h"
#include "pescope/model.h"
#include "pescope/rope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pe_arch a;
	char err[512];

	pe_arch_init(&a);
	int rc = pe_hf_read_buf((const char *)data, size, "fuzz", &a, err,
	    sizeof err);
	if (rc == PE_OK) {
		size_t *kind = malloc(a.nlayers * sizeof *kind);
		if (kind != NULL)
			pe_arch_kinds(&a, kind);
		free(kind);
		for (size_t i = 0; i < a.nlayers; i++) {
			char d[128];
			pe_layer_describe(&a.layers[i], d, sizeof d);
			if (a.layers[i].cfg.enc != PE_ENC_ROPE ||
			    !a.layers[i].cfg.attn.rotates)
				continue;
			struct pe_rope r;
			if (pe_rope_init(&r, &a.layers[i].cfg) == PE_OK)
				pe_rope_free(&r);
		}
	} else if (rc != PE_EFORMAT && rc != PE_ENOMEM)
		abort(); /* a buffer is never an I/O error */
	pe_arch_free(&a);
	return 0;
}
