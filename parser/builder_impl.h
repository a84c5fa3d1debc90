/* builder_impl.h — the builder's private state, shared by the builder's
 * source files (builder.c: declarations and functions; operands.c:
 * instructions and operands; form.c: opcode decoding). */
#ifndef SIMTLAB_BUILDER_IMPL_H
#define SIMTLAB_BUILDER_IMPL_H

#include "ir/u64map.h"
#include "parser/builder.h"
#include "parser/strtab.h"

/* One undoable change of a name binding (restored at scope exit). */
typedef struct undo {
    uint32_t str;
    uint8_t field; /* UNDO_* */
    uint32_t old, old_gen;
} undo;

enum { UNDO_REG, UNDO_SCALAR, UNDO_RANGE, UNDO_SYM, UNDO_LABEL };

/* Attributes of the declaration being parsed. */
typedef struct decl_attrs {
    int linkage;        /* PTXB_* bits */
    int space;          /* ptx_space, -1 when not written */
    ptxb_loc space_at;
    uint32_t align;
    bool ptr;
    int ptr_space;
    uint32_t ptr_align;
    int type;           /* ptx_type, 0 when not written */
    int vec;
    uint32_t attribute; /* string id of .attribute(.x), or PTX_NONE */
    ptxb_loc at;        /* first attribute */
    bool any;
} decl_attrs;

/* Registers are expanded at declaration (one record each): these bound the
 * memory a declaration can claim (16 bytes a register). */
#define PTXB_MAX_FUNC_REGS (1u << 22)
#define PTXB_MAX_MODULE_REGS (1u << 24)

/* The arrays of a function the builder fills: X(array, count). */
#define PTXB_FUNC_ARRAYS(X)                                                      \
    X(params, nparams) X(rets, nrets) X(pragmas, npragmas) X(regs, nregs)          \
    X(regdecls, nregdecls) X(instrs, ninstrs) X(operands, noperands)               \
    X(labels, nlabels) X(label_lists, nlabel_lists) X(protos, nprotos)             \
    X(proto_params, nproto_params) X(stmts, nstmts) X(locs, nlocs)                 \
    X(locals, nlocals)

typedef enum param_ctx { CTX_NONE, CTX_FUNC_RET, CTX_FUNC_ARG, CTX_PROTO_RET, CTX_PROTO_ARG } param_ctx;

typedef struct pending_name { uint32_t str; ptxb_loc at; } pending_name;

struct ptx_builder {
    ptx_module *m;
    ptx_diags *diags;
    char *filename;
    strtab st;
    unsigned extensions;      /* ptx_ext: simtlab's extensions this parse accepts */

    /* capacities of module arrays */
    uint32_t cap_symbols, cap_functions, cap_forms, cap_form_tokens, cap_inits, cap_tops,
        cap_files, cap_sections, cap_aliases, cap_targets;
    uint8_t *sym_depth;       /* scope depth each symbol was declared at */
    uint32_t cap_sym_depth;

    /* scopes */
    undo *undo; uint32_t nundo, cap_undo;
    undo *hoist; uint32_t nhoist, cap_hoist; /* pending labels moving to the parent scope */
    uint32_t *marks; uint32_t nmarks, cap_marks;
    uint32_t reg_gen;         /* bumped when a register declaration may shadow a cached one */
    uint64_t module_regs;     /* registers declared in all functions so far */
    uint32_t decl_seq;        /* declaration order, to pick the innermost binding */

    /* the declaration being parsed */
    decl_attrs attrs;
    uint64_t dims[4]; uint32_t ndims; bool flex; bool dims_overflow;
    uint32_t line_regdecl_start;

    /* initializer stack */
    ptx_init *istack; uint32_t nistack, cap_istack;

    /* the function being parsed (fn == PTX_NONE outside) */
    uint32_t fn;
    param_ctx ctx;
    int fn_linkage;           /* linkage written before .entry/.func */
    bool in_body;
    uint32_t depth;           /* scope depth: 0 module, 1 function header/body, 2+ nested */
    /* the function's arrays grow in scratch buffers kept from function to
     * function; at its end they are copied to the module arena */
#define X(a, n) void *scratch_##a; uint32_t fcap_##a;
    PTXB_FUNC_ARRAYS(X)
#undef X
    uint32_t *regdecl_seq;    /* declaration order of each regdecl */
    uint32_t *regdecl_depth;  /* scope depth of each regdecl */
    uint32_t cap_regdecl_seq, cap_regdecl_depth;
    ptxb_loc *label_ref;      /* first reference of each label */
    uint32_t *label_depth;    /* scope depth each label belongs to */
    uint32_t cap_label_ref, cap_label_depth;
    uint32_t perf[3]; uint32_t nperf;
    uint32_t proto_first_ret, proto_first_arg;
    uint64_t entry_param_bytes; /* the .entry's parameter space so far, laid out as ptxas does */

    /* instruction being parsed */
    uint32_t guard; bool guard_neg;
    ptx_operand *stk; ptxb_loc *stk_at; uint32_t nstk, cap_stk, cap_stk_at;
    ptx_operand *elems; uint32_t nelems, cap_elems;
    pending_name *names; uint32_t nnames, cap_names;

    uint64_t *form_shape_ok;  /* per form: last operand signature that matched a shape */
    uint32_t cap_form_shape_ok;

    bool syntax_failed;

    ptx_u64map section_labels; /* label defined in a .section -> its line << 32 | column */
};

/* section.c: check the body of section `name`, text[0..len), which starts
 * at `body` (just after its '{'), as ptxas reads it. */
void ptxb_section_check(ptx_builder *b, uint32_t name, const char *text, size_t len, ptxb_loc body);

/* builder.c */
const char *ptxb_str(const ptx_builder *b, uint32_t id);
void ptxb_bind(ptx_builder *b, uint32_t str, int field, uint32_t value);
uint32_t ptxb_new_symbol(ptx_builder *b, uint32_t name, ptxb_loc at);
void ptxb_add_stmt(ptx_builder *b, ptx_stmt_kind kind, uint32_t index, uint32_t count);
uint32_t ptxb_label_ref(ptx_builder *b, uint32_t name, ptxb_loc at);

/* operands.c */
uint32_t ptxb_resolve_register(ptx_builder *b, uint32_t word);

/* form.c */
uint32_t ptxb_decode_form(ptx_builder *b, uint32_t word, ptxb_loc at);
bool ptxb_check_shape(ptx_builder *b, const ptx_form *f, const ptx_operand *ops, uint32_t n,
                 ptxb_loc at);

#endif
