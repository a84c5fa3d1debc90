/* ir.h — simtlab's in-memory PTX program.
 *
 * A module owns everything: interned strings, symbols (variables, parameters,
 * functions, module-wide ids), the decoded opcode forms shared by all
 * instructions, and the functions. Every cross reference is a small integer
 * index into a flat array; nothing points into another structure, so passes
 * and the emulator can index side tables by the same ids.
 *
 * Ownership: ptx_module_free() releases the module and every array in it.
 */
#ifndef SIMTLAB_IR_H
#define SIMTLAB_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PTX_NONE UINT32_MAX /* "no index" for every id field */

struct ptx_module;

/* ---- Types ------------------------------------------------------------ */

typedef enum ptx_type {
    PTX_TYPE_NONE = 0,
#define X(e, name, bits, cls) PTX_TYPE_##e,
#include "ir/types.def"
#undef X
    PTX_TYPE_COUNT
} ptx_type;

const char *ptx_type_name(ptx_type t);   /* "b32"; "" for NONE */
unsigned ptx_type_bits(ptx_type t);      /* width in bits of one value */
char ptx_type_class(ptx_type t);         /* 'b','u','s','f','p','o' */

/* ---- State spaces ----------------------------------------------------- */

typedef enum ptx_space {
    PTX_SPACE_NONE = 0, /* generic addressing (no space written) */
    PTX_SPACE_REG,
    PTX_SPACE_SREG,
    PTX_SPACE_CONST,
    PTX_SPACE_GLOBAL,
    PTX_SPACE_LOCAL,
    PTX_SPACE_PARAM,         /* .param */
    PTX_SPACE_PARAM_ENTRY,   /* .param::entry */
    PTX_SPACE_PARAM_FUNC,    /* .param::func */
    PTX_SPACE_SHARED,        /* .shared */
    PTX_SPACE_SHARED_CTA,    /* .shared::cta */
    PTX_SPACE_SHARED_CLUSTER,/* .shared::cluster */
    PTX_SPACE_TEX,
    PTX_SPACE_COUNT
} ptx_space;

const char *ptx_space_name(ptx_space s); /* "global", "shared::cta"; "" for NONE */

/* ---- Opcodes and modifiers -------------------------------------------- */

typedef enum ptx_opcode {
    PTX_OP_INVALID = 0,
#define X(e, name) PTX_OP_##e,
#include "ir/opcodes.def"
#include "ir/ext_opcodes.def"
#undef X
    PTX_OP_COUNT
} ptx_opcode;

/* The first of simtlab's own instructions (ir/ext_opcodes.def): opcodes
 * from here on are extensions of PTX, not PTX. */
#define PTX_OP_FIRST_EXTENSION PTX_OP_SIMTLAB_COND_ACC

const char *ptx_opcode_name(ptx_opcode op); /* "ld", "cp.async.bulk.tensor" */
/* True for simtlab's own instructions (ir/ext_opcodes.def). */
bool ptx_opcode_is_extension(ptx_opcode op);

/* Every modifier belongs to one category. A form records the first modifier of
 * each category it carries (mod[cat]); the full written order is kept in the
 * module's form-token pool for printing and for categories that may repeat
 * (TYPE, SPACE, LAYOUT, MISC). */
typedef enum ptx_modcat {
    PTX_MODCAT_NONE = 0,
    PTX_MODCAT_TYPE,      /* .b32 .f16x2 ... (value = ptx_type) */
    PTX_MODCAT_SPACE,     /* .global .shared::cta ... (value = ptx_space) */
    PTX_MODCAT_VEC,       /* .v2 .v4 .v8 (value = element count) */
    PTX_MODCAT_ROUND,     /* .rn .rz .rm .rp .rna .rs .rni .rzi .rmi .rpi */
    PTX_MODCAT_CMP,       /* .eq .ne .lt ... .equ .neu ... .num .nan */
    PTX_MODCAT_OP,        /* .and .or .xor .add .inc .dec .min .max .exch .cas .popc ... */
    PTX_MODCAT_SAT,       /* .sat .satfinite */
    PTX_MODCAT_FTZ,       /* .ftz */
    PTX_MODCAT_APPROX,    /* .approx .full */
    PTX_MODCAT_RELU,      /* .relu */
    PTX_MODCAT_NAN,       /* .NaN */
    PTX_MODCAT_XORSIGN,   /* .xorsign */
    PTX_MODCAT_ABS,       /* .abs */
    PTX_MODCAT_WIDTH,     /* .wide .hi .lo */
    PTX_MODCAT_CC,        /* .cc */
    PTX_MODCAT_UNI,       /* .uni */
    PTX_MODCAT_ALIGNED,   /* .aligned */
    PTX_MODCAT_SYNC,      /* .sync */
    PTX_MODCAT_SEM,       /* .weak .volatile .relaxed .acquire .release .acq_rel .sc .mmio */
    PTX_MODCAT_SCOPE,     /* .cta .cluster .gpu .sys */
    PTX_MODCAT_COP,       /* cache operators .ca .cg .cs .lu .cv .wb .wt */
    PTX_MODCAT_L1EVICT,   /* .L1::evict_* .L1::no_allocate */
    PTX_MODCAT_L2EVICT,   /* .L2::evict_* */
    PTX_MODCAT_CACHEHINT, /* .L2::cache_hint */
    PTX_MODCAT_PREFETCH,  /* .L2::64B .L2::128B .L2::256B */
    PTX_MODCAT_NC,        /* .nc */
    PTX_MODCAT_MODE,      /* shfl/vote/match/prmt/shf/... operating mode */
    PTX_MODCAT_CLAMP,     /* .clamp .wrap .trap .zero */
    PTX_MODCAT_SHAPE,     /* .m16n8k16 .m8n8 .x4 ... */
    PTX_MODCAT_LAYOUT,    /* .row .col (may repeat: a then b layout) */
    PTX_MODCAT_GEOM,      /* .1d .2d .3d .a1d .a2d .cube .acube .2dms .a2dms */
    PTX_MODCAT_MISC,      /* everything else; may repeat */
    PTX_MODCAT_COUNT
} ptx_modcat;

typedef enum ptx_modifier {
    PTX_MOD_NONE = 0,
#define X(e, text, cat, value) PTX_MOD_##e,
#include "ir/modifiers.def"
#include "ir/ext_modifiers.def"
#undef X
    PTX_MOD_COUNT
} ptx_modifier;

/* The first modifier of simtlab's extensions (ir/ext_modifiers.def). */
#define PTX_MOD_FIRST_EXTENSION PTX_MOD_ROWHINT
/* True for the modifiers of simtlab's extensions (ir/ext_modifiers.def). */
bool ptx_modifier_is_extension(ptx_modifier m);

const char *ptx_modifier_text(ptx_modifier m); /* without the leading dot */
ptx_modcat ptx_modifier_category(ptx_modifier m);
int ptx_modifier_value(ptx_modifier m);        /* type/space/vector width; else 0 */

/* A decoded opcode-with-modifiers, e.g. "ld.global.v4.f32". Instructions
 * with the same spelling share one form, so decoding happens once per file. */
typedef struct ptx_form {
    uint16_t opcode;              /* ptx_opcode */
    uint8_t ntypes;               /* types in written order */
    uint8_t type[5];              /* ptx_type (mma .block_scale forms carry 5) */
    uint8_t nspaces;
    uint8_t space[2];             /* ptx_space, in written order */
    uint8_t vec;                  /* 1 when no .vN */
    uint16_t mod[PTX_MODCAT_COUNT]; /* first ptx_modifier of each category */
    uint32_t first_token;         /* written order: module->form_tokens[...] */
    uint8_t ntokens;
} ptx_form;

/* True when the form carries modifier m (anywhere in its written chain). */
bool ptx_form_has(const struct ptx_module *m, const ptx_form *f, ptx_modifier mod);

/* ---- Special registers ------------------------------------------------ */

typedef enum ptx_sreg {
    PTX_SREG_INVALID = 0,
#define X(e, name) PTX_SREG_##e,
#include "ir/sregs.def"
#undef X
    PTX_SREG_COUNT
} ptx_sreg;

const char *ptx_sreg_name(ptx_sreg s); /* with the leading '%' */

/* ---- Operands --------------------------------------------------------- */

typedef enum ptx_operand_kind {
    PTX_OPD_REG,      /* id = register id; comp = component (x,y,z,w,h0,...) */
    PTX_OPD_SREG,     /* id = ptx_sreg; comp = component */
    PTX_OPD_IMM,      /* value = 64-bit integer as written (two's complement) */
    PTX_OPD_F32,      /* value = IEEE single bits (0fXXXXXXXX or decimal) */
    PTX_OPD_F64,      /* value = IEEE double bits (0dXXXXXXXXXXXXXXXX or decimal) */
    PTX_OPD_SYM,      /* id = symbol id; value = byte offset */
    PTX_OPD_LABEL,    /* id = label id of the function */
    PTX_OPD_ADDR,     /* [base+value]: id = reg/symbol id per flags, or PTX_NONE */
    PTX_OPD_VEC,      /* {a, b, ...}: id = first pool index, count elements */
    PTX_OPD_PAIR,     /* d|p: id = first pool index, count = 2 */
    PTX_OPD_LIST,     /* (a, b, ...) of call: id = first pool index, count */
    PTX_OPD_BRACKET,  /* [a, b, ...] of tex/tensor ops: id = first pool index, count */
    PTX_OPD_SINK,     /* _ */
    PTX_OPD_REG_IMM   /* r + imm as a value (st.u64 [p], r + 1): id = register id (an
                         integer register), value = the immediate; the value read is
                         r + imm in the register's width */
} ptx_operand_kind;

enum ptx_operand_flags {
    PTX_OPF_NEG = 1u << 0,      /* -%r (video instructions) */
    PTX_OPF_NOT = 1u << 1,      /* !%p */
    PTX_OPF_GENERIC = 1u << 2,  /* generic(sym) */
    PTX_OPF_ADDR_SYM = 1u << 3, /* ADDR base is a symbol id, not a register */
    PTX_OPF_DECIMAL = 1u << 4,  /* float immediate was written in decimal */
    PTX_OPF_UNSIGNED = 1u << 5, /* integer immediate written with U suffix */
    PTX_OPF_VECREG = 1u << 6,   /* VEC written as the name of a vector register: its
                                   elements are the register's components, in order */
    PTX_OPF_UNIFIED = 1u << 7    /* [a].unified (ld, st) */
};

/* Component selectors: .x .y .z .w (special registers), .h0 .h1, .b0-.b3
 * (video byte/half selectors), and the several-digit selectors and masks of
 * the SIMD video instructions (.h32, .h10, .b7654, .b20): HSEL and BSEL,
 * whose digits the operand's value holds (PTX_VSEL_*). A component of a
 * vector register (%v.x, %v.g) is not a selector: it is a register of its
 * own (see ptx_reg). */
typedef enum ptx_component {
    PTX_COMP_NONE = 0, PTX_COMP_X, PTX_COMP_Y, PTX_COMP_Z, PTX_COMP_W,
    PTX_COMP_R, PTX_COMP_G, PTX_COMP_B, PTX_COMP_A,
    PTX_COMP_H0, PTX_COMP_H1, PTX_COMP_B0, PTX_COMP_B1, PTX_COMP_B2, PTX_COMP_B3,
    PTX_COMP_HSEL, PTX_COMP_BSEL,
    PTX_COMP_COUNT
} ptx_component;

/* An HSEL/BSEL selector's digits as the value of its operand: one hex
 * nibble per digit in written order (".b7654" is 0x7654, so the last digit,
 * the one for element 0, is the lowest nibble) and the digit count in bits
 * 32..35. */
#define PTX_VSEL_VALUE(digits, count) ((int64_t)(((uint64_t)(count) << 32) | (uint64_t)(digits)))
#define PTX_VSEL_COUNT(value) ((unsigned)(((uint64_t)(value) >> 32) & 0xf))
#define PTX_VSEL_DIGIT(value, i) ((unsigned)(((uint64_t)(value) >> (4 * (i))) & 0xf)) /* element i */

const char *ptx_component_name(ptx_component c); /* "x", "h0"; "" for NONE */

typedef struct ptx_operand {
    uint8_t kind;    /* ptx_operand_kind */
    uint8_t flags;   /* ptx_operand_flags */
    uint8_t comp;    /* ptx_component */
    uint8_t count;   /* elements of VEC/PAIR/LIST/BRACKET */
    uint32_t id;
    int64_t value;
} ptx_operand;

/* ---- Registers -------------------------------------------------------- */

/* Every register is a scalar. A vector register (.reg .v4 .f32 %v) is a
 * group of consecutive registers, its components %v.x .. %v.w (lane 0..3);
 * its declaration (ptx_regdecl.vec) says how many. The name of the whole
 * vector as an operand is a VEC of its components (PTX_OPF_VECREG). */
typedef struct ptx_reg {
    uint32_t name;   /* string id: the full name, or the prefix of a %r<N> range */
    uint32_t index;  /* position in its %r<N> range, or PTX_NONE */
    uint8_t type;    /* ptx_type */
    uint8_t vec;     /* always 1: the register holds one value */
    uint8_t lane;    /* component of a vector register (x = 0 ...); 0 for scalars */
    uint8_t pad;
    uint32_t decl;   /* index of the declaring ptx_regdecl */
} ptx_reg;

/* One declarator of a .reg statement ("%r<100>" or "%x"), or a function
 * parameter in the .reg state space (its registers have no statement). */
typedef struct ptx_regdecl {
    uint32_t name;     /* string id (prefix for ranges) */
    uint32_t count;    /* N of %r<N>, or PTX_NONE for a single register */
    uint32_t first;    /* first register id (count * vec registers follow) */
    uint8_t type;
    uint8_t vec;       /* components of each register: 1, 2 or 4 */
    uint16_t pad;
    uint32_t line, col;
} ptx_regdecl;

/* ---- Symbols (variables, parameters, functions) ----------------------- */

typedef enum ptx_symbol_kind {
    PTX_SYM_VAR,      /* .global/.const/.shared/.local/.tex variable */
    PTX_SYM_PARAM,    /* kernel or function parameter, or return parameter */
    PTX_SYM_LOCALPARAM, /* .param declared inside a body (call arguments) */
    PTX_SYM_FUNC      /* .entry or .func; func = function index */
} ptx_symbol_kind;

enum ptx_symbol_flags {
    PTX_SYMF_VISIBLE = 1u << 0,
    PTX_SYMF_EXTERN = 1u << 1,
    PTX_SYMF_WEAK = 1u << 2,
    PTX_SYMF_COMMON = 1u << 3,
    PTX_SYMF_PTR = 1u << 4,        /* param carries .ptr */
    PTX_SYMF_FLEX = 1u << 5,       /* last array dimension is [] */
    PTX_SYMF_RETURN = 1u << 6,     /* return parameter */
    PTX_SYMF_UNNAMED = 1u << 7,    /* "_" in a prototype */
    PTX_SYMF_MANAGED = 1u << 8,    /* .attribute(.managed) */
    PTX_SYMF_UNIFIED = 1u << 9     /* .attribute(.unified) */
};

typedef struct ptx_symbol {
    uint32_t name;      /* string id */
    uint8_t kind;       /* ptx_symbol_kind */
    uint8_t space;      /* ptx_space */
    uint8_t type;       /* ptx_type of one element */
    uint8_t vec;        /* 1, 2, 4 */
    uint16_t flags;     /* ptx_symbol_flags */
    uint8_t ptr_space;  /* .ptr .global etc (ptx_space) */
    uint8_t ndims;      /* array dimensions written */
    uint32_t align;     /* .align N, 0 when absent */
    uint32_t ptr_align; /* .ptr ... .align N */
    uint64_t dims[4];   /* sizes; a flexible [] dimension is 0 with PTX_SYMF_FLEX */
    uint32_t init;      /* initializer root in module->inits, or PTX_NONE */
    uint32_t func;      /* owning function, or PTX_NONE at module scope; FUNC: itself */
    uint32_t reg;       /* a function's parameter in the .reg state space: its first
                           register (vector components follow); else PTX_NONE */
    uint32_t line, col;
} ptx_symbol;

/* Byte size of a symbol (elements * vec * type bytes); 0 when unsized. */
uint64_t ptx_symbol_size(const ptx_symbol *s);

/* ---- Initializers ----------------------------------------------------- */

typedef enum ptx_init_kind {
    PTX_INIT_INT,     /* value */
    PTX_INIT_F32,     /* value = bits */
    PTX_INIT_F64,     /* value = bits */
    PTX_INIT_SYM,     /* address of symbol id (+ value offset); GENERIC flag */
    PTX_INIT_LIST,    /* {...}: first = first child index, count */
    PTX_INIT_NAMED,   /* field = value (samplerref fields): id = field name string, first = child */
    PTX_INIT_NAME     /* a bare name used as a value ("linear"): id = string */
} ptx_init_kind;

typedef struct ptx_init {
    uint8_t kind;
    uint8_t flags;   /* PTX_OPF_GENERIC, PTX_OPF_DECIMAL */
    uint16_t pad;
    uint32_t id;     /* symbol id (SYM), name string (NAMED) */
    uint32_t first;  /* LIST: first child; NAMED: child */
    uint32_t count;  /* LIST: number of children */
    int64_t value;
} ptx_init;

/* ---- Instructions, labels, statements --------------------------------- */

typedef struct ptx_instr {
    uint32_t form;      /* index into module->forms */
    uint32_t operands;  /* first index into function->operands */
    uint8_t noperands;
    uint8_t guard_neg;  /* @!p */
    uint16_t pad;
    uint32_t guard;     /* predicate register id, or PTX_NONE */
    uint32_t line, col; /* 1-based position of the opcode (guard excluded) */
} ptx_instr;

typedef enum ptx_label_kind {
    PTX_LABEL_CODE,          /* labels an instruction position */
    PTX_LABEL_BRANCHTARGETS, /* name: .branchtargets L1, L2; */
    PTX_LABEL_CALLTARGETS,   /* name: .calltargets f1, f2; */
    PTX_LABEL_PROTOTYPE      /* name: .callprototype ... */
} ptx_label_kind;

typedef struct ptx_label {
    uint32_t name;    /* string id */
    uint8_t kind;     /* ptx_label_kind */
    uint8_t defined;
    uint16_t pad;
    uint32_t instr;   /* CODE: index of the next instruction (== ninstrs at the end) */
    uint32_t first;   /* targets lists: first index in function->label_lists */
    uint32_t count;
    uint32_t proto;   /* PROTOTYPE: index into function->protos */
    uint32_t line, col;
} ptx_label;

/* A call prototype: (.param .b32 _) _ (.param .b64 _, ...). Parameters are
 * stored as symbols (kind PARAM, flag UNNAMED for "_"). */
typedef struct ptx_proto {
    uint32_t first_ret, nret;   /* into function->proto_params */
    uint32_t first_arg, narg;
    uint8_t noreturn;
} ptx_proto;

/* Non-instruction statements inside a body, kept in order for printing. Each
 * sits before instruction `before`. */
typedef enum ptx_stmt_kind {
    PTX_STMT_LABEL,       /* index: label id (all kinds of labels) */
    PTX_STMT_REGDECL,     /* index: first regdecl; count: declarators of the line */
    PTX_STMT_VARDECL,     /* index: symbol id */
    PTX_STMT_SCOPE_OPEN,
    PTX_STMT_SCOPE_CLOSE,
    PTX_STMT_PRAGMA,      /* index: string id of the quoted list */
    PTX_STMT_LOC,         /* index: into function->locs */
    PTX_STMT_DWARF        /* index: string id of raw @@DWARF text */
} ptx_stmt_kind;

typedef struct ptx_stmt {
    uint8_t kind;
    uint8_t pad[3];
    uint32_t index;
    uint32_t count;
    uint32_t before;
} ptx_stmt;

/* .loc file line col [, extra] — extra keeps "function_name ..., inlined_at ..." */
typedef struct ptx_loc {
    uint32_t file, line, col;
    uint32_t extra; /* string id of the text after the column, or PTX_NONE */
} ptx_loc;

/* ---- Functions and CFG ------------------------------------------------ */

typedef enum ptx_func_kind { PTX_FUNC_ENTRY, PTX_FUNC_FUNC } ptx_func_kind;

enum ptx_func_flags {
    PTX_FUNCF_NORETURN = 1u << 0,
    PTX_FUNCF_HAS_BODY = 1u << 1,
    PTX_FUNCF_EXPLICITCLUSTER = 1u << 2
};

/* Basic block: instructions [first, end). The virtual exit block has first ==
 * end == ninstrs and no successors. */
typedef struct ptx_block {
    uint32_t first, end;
    uint32_t succ, nsucc; /* into function->succs */
    uint32_t pred, npred; /* into function->preds */
    uint8_t exits;        /* has an edge to the virtual exit */
} ptx_block;

typedef struct ptx_function {
    uint32_t symbol;          /* its symbol id (name) */
    uint8_t kind;             /* ptx_func_kind */
    uint8_t flags;            /* ptx_func_flags */
    uint32_t decl_line, decl_col;

    uint32_t *params; uint32_t nparams;   /* symbol ids */
    uint32_t *rets; uint32_t nrets;       /* symbol ids of return parameters */

    /* performance-tuning directives, 0 when absent */
    uint32_t maxntid[3], reqntid[3], reqnctapercluster[3];
    uint32_t minnctapersm, maxnreg, maxclusterrank;
    uint32_t *pragmas; uint32_t npragmas; /* string ids of .pragma after the signature */

    ptx_reg *regs; uint32_t nregs;
    ptx_regdecl *regdecls; uint32_t nregdecls;
    ptx_instr *instrs; uint32_t ninstrs;
    ptx_operand *operands; uint32_t noperands;
    ptx_label *labels; uint32_t nlabels;
    uint32_t *label_lists; uint32_t nlabel_lists; /* branch targets: label ids; call targets: symbol ids */
    ptx_proto *protos; uint32_t nprotos;
    uint32_t *proto_params; uint32_t nproto_params;
    ptx_stmt *stmts; uint32_t nstmts;
    ptx_loc *locs; uint32_t nlocs;
    uint32_t *locals; uint32_t nlocals;   /* symbol ids declared in the body */

    /* CFG (built by ptx_build_cfg): blocks[0] is the entry, blocks[exit_block]
     * the virtual exit. */
    ptx_block *blocks; uint32_t nblocks; uint32_t exit_block;
    uint32_t *succs; uint32_t nsuccs;
    uint32_t *preds; uint32_t npreds;
    uint32_t *instr_block;    /* block id of each instruction */
} ptx_function;

/* ---- Module ----------------------------------------------------------- */

typedef enum ptx_top_kind {
    PTX_TOP_VAR,        /* index: symbol id */
    PTX_TOP_FUNC,       /* index: function id */
    PTX_TOP_SECTION,    /* index: into module->sections */
    PTX_TOP_ALIAS,      /* index: into module->aliases */
    PTX_TOP_FILE,       /* index: into module->files */
    PTX_TOP_PRAGMA,     /* index: string id */
    PTX_TOP_DWARF       /* index: string id of raw @@DWARF text */
} ptx_top_kind;

typedef struct ptx_top { uint8_t kind; uint32_t index; } ptx_top;

typedef struct ptx_file_entry {
    uint32_t number, name;   /* .file N "name" */
    uint64_t timestamp, size;
    uint8_t has_extra;
} ptx_file_entry;

typedef struct ptx_section { uint32_t name, text; } ptx_section; /* raw body text */
typedef struct ptx_alias { uint32_t alias, target; } ptx_alias; /* symbol ids */

typedef struct ptx_module {
    char *source_name;
    uint32_t version_major, version_minor;
    uint32_t *targets; uint32_t ntargets;  /* string ids: "sm_90a", "debug" */
    uint32_t address_size;                 /* 32 or 64; 0 when absent */

    char **strings; uint32_t nstrings;     /* interned, NUL-terminated */
    ptx_symbol *symbols; uint32_t nsymbols;
    ptx_function *functions; uint32_t nfunctions;
    ptx_form *forms; uint32_t nforms;
    uint16_t *form_tokens; uint32_t nform_tokens; /* ptx_modifier, written order */
    ptx_init *inits; uint32_t ninits;
    ptx_top *tops; uint32_t ntops;
    ptx_file_entry *files; uint32_t nfiles;
    ptx_section *sections; uint32_t nsections;
    ptx_alias *aliases; uint32_t naliases;

    void *impl; /* private allocation state */
} ptx_module;

const char *ptx_str(const ptx_module *m, uint32_t id);
void ptx_module_free(ptx_module *m);

/* Convenience accessors. */
static inline const ptx_form *ptx_instr_form(const ptx_module *m, const ptx_instr *i)
{
    return &m->forms[i->form];
}
static inline const ptx_operand *ptx_instr_operand(const ptx_function *f,
                                                   const ptx_instr *i, unsigned k)
{
    return &f->operands[i->operands + k];
}
const char *ptx_symbol_name(const ptx_module *m, uint32_t sym);

/* The vector register that register r is a component of has this many
 * components (1: r is a scalar register). */
static inline unsigned ptx_reg_vec(const ptx_function *f, uint32_t r)
{
    return f->regdecls[f->regs[r].decl].vec;
}
const char *ptx_function_name(const ptx_module *m, const ptx_function *f);

/* Build (or rebuild) the CFG of every function with a body. */
void ptx_build_cfg(ptx_module *m, ptx_function *f);

#endif
