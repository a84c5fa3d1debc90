/* isa.h — what the PTX ISA 9.0 allows, as data: opcode names, modifier
 * spellings, which modifiers each opcode accepts, and its operand shapes.
 *
 * The parser decodes "ld.global.v4.f32" by finding the longest known opcode
 * prefix ("ld"), then looking up each remaining dotted part as a modifier and
 * checking it against the opcode's allowed set. All lookups are pure
 * functions over constant tables. */
#ifndef SIMTLAB_ISA_H
#define SIMTLAB_ISA_H

#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* Operand shape string: one letter per operand, each optionally followed by
 * '?' when it may be omitted:
 *   'd'  a destination: register, vector of registers, pair d|p, or sink _
 *   'o'  a value operand: register (with component), special register,
 *        immediate, symbol, label, vector {..}, pair d|p, or sink _
 *   'a'  a bracketed address [..] (plain address or [a, b, ...] list)
 *   'l'  a parenthesized list (..) as in call
 * e.g. ld: "oao?" (d, [a], optional cache-policy). */
typedef struct isa_opcode_info {
    const char *name;            /* "ld", "cp.async.bulk.tensor" */
    const uint16_t *allowed;     /* ptx_modifier ids this opcode accepts, ascending */
    uint16_t nallowed;
    uint64_t required;           /* bit (1ull << ptx_modcat) per category that must appear */
    const char *const *shapes;   /* operand shapes of its forms */
    uint8_t nshapes;
} isa_opcode_info;

/* Table entry of an opcode; NULL for PTX_OP_INVALID or out of range. */
const isa_opcode_info *isa_opcode_info_of(ptx_opcode op);

/* Opcode whose name is exactly text[0..len) ("cp.async.bulk"), or
 * PTX_OP_INVALID. */
ptx_opcode isa_lookup_opcode(const char *text, size_t len);

/* Modifier spelled text[0..len) without its leading dot ("L2::cache_hint"),
 * or PTX_MOD_NONE. */
ptx_modifier isa_lookup_modifier(const char *text, size_t len);

/* 1 when op accepts modifier mod, else 0. */
int isa_allows(ptx_opcode op, ptx_modifier mod);

/* simtlab's own instructions and modifiers (ir/ext_opcodes.def,
 * ir/ext_modifiers.def; isa_ext.c), which the lookups above also answer
 * for: the table entry of extension opcode op (NULL for any other), the
 * extension opcode or modifier spelled text[0..len) (else INVALID / NONE),
 * and whether PTX opcode op takes extension modifier mod (1) or not (0). */
const isa_opcode_info *isa_ext_opcode_info(ptx_opcode op);
ptx_opcode isa_ext_lookup_opcode(const char *text, size_t len);
ptx_modifier isa_ext_lookup_modifier(const char *text, size_t len);
int isa_ext_allows_on_ptx(ptx_opcode op, ptx_modifier mod);

#endif
