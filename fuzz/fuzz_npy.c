/* libFuzzer target: the NPY reader behind --table-file. Any bytes give a
 * table or a refusal with a reason, never a read out of bounds. */
#include <stdint.h>
#include <stdlib.h>

#include "io/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double *t = NULL;
	size_t rows, cols;
	const char *why = NULL;
	int st = pe_npy_read(data, size, &t, &rows, &cols, &why);
	if (st == PE_OK) {
		volatile double sink = 0;
		for (size_t i = 0; i < rows * cols; i++)
			sink += t[i];
		(void)sink;
		free(t);
	} else if (why == NULL) {
		abort();
	}
	return 0;
}
