/* parser.h — turning PTX text (or a CUDA binary holding PTX) into a module.
 *
 * Parsing runs lexer → grammar → builder in one pass, then the semantic
 * checks that need the whole function (labels), then the CFG of every
 * function. On any error the result is NULL and diags holds every message
 * with its file:line:col. */
#ifndef SIMTLAB_PARSER_H
#define SIMTLAB_PARSER_H

#include <stddef.h>

#include "ir/ir.h"
#include "parser/diag.h"

/* Bytes that must follow the text given to ptx_parse_buffer, all NUL: the
 * lexer scans the buffer in place and reads names a word at a time. */
#define PTX_PARSE_PADDING 8

/* Parse PTX text. `text` must be followed by PTX_PARSE_PADDING NUL bytes
 * (as ptx_read_file provides). `name` is used in diagnostics. */
ptx_module *ptx_parse_buffer(char *text, size_t len, const char *name, ptx_diags *diags);


/* Parse PTX text of any buffer (copied first). */
ptx_module *ptx_parse_string(const char *text, size_t len, const char *name,
                             ptx_diags *diags);

/* Load a file: PTX text, or an ELF/fatbin/cubin holding PTX. For binaries the
 * PTX entry for SM `arch` is used (0: the highest PTX version embedded). */
ptx_module *ptx_load_file(const char *path, unsigned arch, ptx_diags *diags);

#endif
