/* printer.h — printing the IR as PTX text. */
#ifndef SIMTLAB_PRINTER_H
#define SIMTLAB_PRINTER_H

#include <stdio.h>

#include "ir/ir.h"

/* The whole module as PTX that parses back to the same IR. */
void ptx_print_module(const ptx_module *m, FILE *out);
/* One instruction (guard, opcode with modifiers, operands, ';'). */
void ptx_print_instr(const ptx_module *m, const ptx_function *f, const ptx_instr *in, FILE *out);
/* "ld.global.v4.f32" */
void ptx_print_form(const ptx_module *m, const ptx_form *fm, FILE *out);

#endif
