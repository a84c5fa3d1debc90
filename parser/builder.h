/* builder.h — building the IR while the grammar reduces.
 *
 * The grammar (ptx.y) stays small: each rule calls one builder function
 * here. The builder owns name binding (scoped, O(1) through the interned
 * string table), the operand scratch stack, form decoding and every
 * semantic check that can be made at the point of use. Private to parser/. */
#ifndef SIMTLAB_BUILDER_H
#define SIMTLAB_BUILDER_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"
#include "parser/diag.h"

typedef struct ptx_builder ptx_builder;

/* Source position of a token or rule: 1-based line and column. */
typedef struct ptxb_loc { uint32_t line, col; } ptxb_loc;

/* Integer literal or constant expression value. */
typedef struct ptxb_int { int64_t v; bool is_unsigned; } ptxb_int;

/* Float literal: kind PTX_OPD_F32 / PTX_OPD_F64, exact bits; decimal
 * literals keep their text (string id) so printing reproduces them. */
typedef struct ptxb_float { uint64_t bits; uint32_t text; uint8_t kind; } ptxb_float;

/* A builder for an input of input_len bytes (bounds the names it can hold). */
ptx_builder *ptxb_new(const char *filename, size_t input_len, ptx_diags *diags);
/* Accept simtlab's extensions of PTX (ptx_ext bits of parser/parser.h). */
void ptxb_set_extensions(ptx_builder *b, unsigned extensions);
/* Finish: returns the module on success (builder freed), NULL on errors. */
ptx_module *ptxb_finish(ptx_builder *b, bool syntax_ok);

/* ---- lexer support (the only builder calls the lexer makes) ---- */
uint32_t ptxb_intern(ptx_builder *b, const char *s, size_t len);
/* Intern a token of the (padded) input buffer. */
uint32_t ptxb_intern_token(ptx_builder *b, const char *s, size_t len);

void ptxb_error(ptx_builder *b, ptxb_loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Constant-expression cast (.s64)/(.u64): true for unsigned. */
bool ptxb_cast_unsigned(ptx_builder *b, uint32_t type_word, ptxb_loc at);

/* ---- module directives ---- */
void ptxb_version(ptx_builder *b, uint32_t text, ptxb_loc at);
void ptxb_target(ptx_builder *b, uint32_t name, ptxb_loc at);
void ptxb_address_size(ptx_builder *b, ptxb_int v, ptxb_loc at);
void ptxb_file(ptx_builder *b, ptxb_int num, uint32_t name, bool extra, ptxb_int ts,
               ptxb_int size, ptxb_loc at);
/* A .section: its name, its body's text and where the body starts. */
void ptxb_section(ptx_builder *b, uint32_t name, uint32_t text, ptxb_loc body);
void ptxb_dwarf(ptx_builder *b, uint32_t text);
void ptxb_pragma(ptx_builder *b, uint32_t text, ptxb_loc at);
void ptxb_alias(ptx_builder *b, uint32_t alias, uint32_t target, ptxb_loc at);

/* ---- declaration attributes (reset after each declaration) ---- */
enum ptxb_linkage { PTXB_EXTERN = 1, PTXB_VISIBLE = 2, PTXB_WEAK = 4, PTXB_COMMON = 8 };
void ptxb_attr_linkage(ptx_builder *b, int which, ptxb_loc at);
void ptxb_attr_space(ptx_builder *b, ptx_space space, ptxb_loc at);
void ptxb_attr_align(ptx_builder *b, ptxb_int v, ptxb_loc at);
void ptxb_attr_ptr(ptx_builder *b, ptxb_loc at);
void ptxb_attr_dotword(ptx_builder *b, uint32_t word, ptxb_loc at); /* .b32 .v4 .shared::cta */
void ptxb_attr_attribute(ptx_builder *b, uint32_t word, ptxb_loc at); /* .attribute(.managed) */
void ptxb_dim(ptx_builder *b, bool sized, ptxb_int v, ptxb_loc at);
void ptxb_declare(ptx_builder *b, uint32_t name, bool has_init, ptxb_loc at);
void ptxb_declare_range(ptx_builder *b, uint32_t name, ptxb_int count, ptxb_loc at);
void ptxb_declare_end(ptx_builder *b);

/* ---- initializers (a stack; lists pop their elements) ---- */
void ptxb_init_int(ptx_builder *b, ptxb_int v);
void ptxb_init_float(ptx_builder *b, ptxb_float f);
void ptxb_init_sym(ptx_builder *b, uint32_t name, int64_t offset, bool generic, ptxb_loc at);
void ptxb_init_list(ptx_builder *b, uint32_t count, ptxb_loc at);
void ptxb_init_word(ptx_builder *b, uint32_t word);     /* a bare name such as "linear" */
void ptxb_init_named(ptx_builder *b, uint32_t name, ptxb_loc at); /* name = <top of stack> */

/* ---- functions ---- */
void ptxb_func_begin(ptx_builder *b, ptx_func_kind kind, ptxb_loc at);
void ptxb_func_name(ptx_builder *b, uint32_t name, ptxb_loc at);
void ptxb_param(ptx_builder *b, uint32_t name, ptxb_loc at); /* name PTX_NONE for "_" */
void ptxb_func_noreturn(ptx_builder *b, ptxb_loc at);
enum ptxb_perf { PTXB_MAXNTID, PTXB_REQNTID, PTXB_MINNCTAPERSM, PTXB_MAXNREG,
                 PTXB_MAXCLUSTERRANK, PTXB_REQNCTAPERCLUSTER, PTXB_EXPLICITCLUSTER,
                 PTXB_MAXNCTAPERSM };
void ptxb_perf_value(ptx_builder *b, ptxb_int v, ptxb_loc at);
void ptxb_perf(ptx_builder *b, int which, ptxb_loc at);
void ptxb_func_pragma(ptx_builder *b, uint32_t text, ptxb_loc at);
void ptxb_body_begin(ptx_builder *b, ptxb_loc at);
void ptxb_body_end(ptx_builder *b, ptxb_loc at);
void ptxb_func_decl_end(ptx_builder *b, ptxb_loc at); /* ';' instead of a body */

/* ---- statements in a body ---- */
void ptxb_scope_open(ptx_builder *b, ptxb_loc at);
void ptxb_scope_close(ptx_builder *b, ptxb_loc at);
void ptxb_label(ptx_builder *b, uint32_t name, ptxb_loc at);
void ptxb_name_push(ptx_builder *b, uint32_t name, ptxb_loc at);
void ptxb_branchtargets(ptx_builder *b, uint32_t label, uint32_t count, ptxb_loc at);
void ptxb_calltargets(ptx_builder *b, uint32_t label, uint32_t count, ptxb_loc at);
void ptxb_proto_begin(ptx_builder *b, ptxb_loc at);
void ptxb_proto_args(ptx_builder *b); /* return params done; arguments follow */
void ptxb_proto_end(ptx_builder *b, uint32_t label, bool noreturn, ptxb_loc at);
void ptxb_loc_directive(ptx_builder *b, uint32_t file, uint32_t line, uint32_t col,
                        uint32_t extra);

/* ---- instructions ---- */
void ptxb_guard(ptx_builder *b, uint32_t reg, bool negated, ptxb_loc at);
void ptxb_opd_word(ptx_builder *b, uint32_t word, uint8_t flags, ptxb_loc at);
void ptxb_opd_int(ptx_builder *b, ptxb_int v, ptxb_loc at);
void ptxb_opd_float(ptx_builder *b, ptxb_float f, ptxb_loc at);
void ptxb_opd_sink(ptx_builder *b, ptxb_loc at);
void ptxb_opd_symoff(ptx_builder *b, uint32_t name, int64_t offset, bool generic,
                     ptxb_loc at);
/* [base+offset] (base PTX_NONE for [imm]) */
void ptxb_opd_addr(ptx_builder *b, uint32_t base, int64_t offset, ptxb_loc at);
/* The qualifier written after the memory operand just pushed ([a].unified). */
void ptxb_opd_addr_qualifier(ptx_builder *b, uint32_t word, ptxb_loc at);
/* Pop the last count operands into one composite of kind VEC/PAIR/LIST/BRACKET. */
void ptxb_opd_group(ptx_builder *b, ptx_operand_kind kind, uint32_t count, ptxb_loc at);
void ptxb_instr(ptx_builder *b, uint32_t opcode_word, ptxb_loc at);

#endif
