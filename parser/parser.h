/* parser.h — turning PTX text (or a CUDA binary holding PTX) into a module.
 *
 * Parsing runs lexer → grammar → builder in one pass, then the semantic
 * checks that need the whole function (labels), then the CFG of every
 * function. On any error the result is NULL and diags holds every message
 * with its file:line:col. */
#ifndef SIMTLAB_PARSER_H
#define SIMTLAB_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "ir/ir.h"
#include "parser/diag.h"

/* Bytes that must follow the text given to ptx_parse_buffer, all NUL: the
 * lexer scans the buffer in place and reads names a word at a time. */
#define PTX_PARSE_PADDING 8

/* What a parse accepts beyond standard PTX: simtlab's own extensions
 * (README.md, "simtlab extensions of PTX"), off unless asked for, so that
 * standard PTX stays standard. PTX_EXT_SIMTLAB: the instructions
 * simtlab.cond_acc and simtlab.tree_traverse and the .rowhint modifier of
 * ld (ir/ext_opcodes.def, ir/ext_modifiers.def). */
enum ptx_ext { PTX_EXT_SIMTLAB = 1u << 0 };

typedef struct ptx_parse_options {
    unsigned extensions; /* ptx_ext bits */
} ptx_parse_options;

/* The extension named `name` ("simtlab", as --ptx-ext and SIMTLAB_PTX_EXT
 * spell it) added to *ext; false for a name simtlab does not know. */
bool ptx_ext_parse(const char *name, unsigned *ext);

/* Parse PTX text. `text` must be followed by PTX_PARSE_PADDING NUL bytes
 * (as ptx_read_file provides). `name` is used in diagnostics. */
ptx_module *ptx_parse_buffer(char *text, size_t len, const char *name, ptx_diags *diags);


/* Parse PTX text of any buffer (copied first). */
ptx_module *ptx_parse_string(const char *text, size_t len, const char *name,
                             ptx_diags *diags);

/* Load a file: PTX text, or an ELF/fatbin/cubin holding PTX. For binaries the
 * PTX entry for SM `arch` is used (0: the highest PTX version embedded). */
ptx_module *ptx_load_file(const char *path, unsigned arch, ptx_diags *diags);

/* The three above with options (NULL: standard PTX only, as they parse). */
ptx_module *ptx_parse_buffer_opts(char *text, size_t len, const char *name, const ptx_parse_options *opts,
                                  ptx_diags *diags);
ptx_module *ptx_parse_string_opts(const char *text, size_t len, const char *name,
                                  const ptx_parse_options *opts, ptx_diags *diags);
ptx_module *ptx_load_file_opts(const char *path, unsigned arch, const ptx_parse_options *opts,
                               ptx_diags *diags);

#endif
