/* Reading a Hugging Face config.json into a model (include/pescope/
 * model.h), with jansson: the keys positions depend on, as transformers
 * v5 reads them (modeling_rope_utils.py's standardize_rope_params and the
 * models' own configuration and modeling files, cited beside each key in
 * hfconfig.c). */
#ifndef PESCOPE_IO_HFCONFIG_H
#define PESCOPE_IO_HFCONFIG_H

#include <stddef.h>

#include "pescope/model.h"

/* The largest config read: anything bigger is refused before reading. */
#define PE_HF_MAX_BYTES ((size_t)4 << 20)

/* Read the config at path ("-": standard input) into *dest (which the
 * caller pe_arch_free's, on failure too). A directory, a device or a file
 * over PE_HF_MAX_BYTES is refused before it is read. On failure err[cap]
 * gets one sentence that starts with the file: "F:12:5: <jansson's
 * text>" for malformed JSON, "F: <key path>: must be ..., got <value>" for
 * a key of the wrong type or range, "F: <why>" otherwise. Returns PE_OK,
 * PE_EIO (cannot read; errno), PE_EINVAL (not a regular file or pipe),
 * PE_ERANGE (too big), PE_EFORMAT (malformed or refused) or PE_ENOMEM. */
int pe_hf_read_file(const char *path, struct pe_arch *dest, char *err,
    size_t cap);

/* The same for a config held in memory (len bytes, not necessarily NUL
 * terminated); name stands for the file in messages. */
int pe_hf_read_buf(const char *buf, size_t len, const char *name,
    struct pe_arch *dest, char *err, size_t cap);

#endif
