/* cfg_export.h — control-flow graphs as text, JSON and Graphviz DOT. */
#ifndef SIMTLAB_CFG_EXPORT_H
#define SIMTLAB_CFG_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "ir/ir.h"

/* Whether the module has a function with a body named `name`. */
bool ptx_cfg_has_function(const ptx_module *m, const char *name);

/* Each writer covers every function with a body, or only `only` when not
 * NULL. The virtual exit is not listed as a block: edges to it show as
 * "exit". */
void ptx_cfg_text(const ptx_module *m, const char *only, FILE *out);
void ptx_cfg_json(const ptx_module *m, const char *file, const char *only, FILE *out);
void ptx_cfg_dot(const ptx_module *m, const char *only, FILE *out);

/* Write s as a JSON string literal (quotes included). */
void ptx_json_string(const char *s, FILE *out);

#endif
