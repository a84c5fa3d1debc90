/* syntree.h — syntax trees of memory addresses over values known at launch
 * (Tripathy, Ch. 4, Algorithm 3: LocalityGuru).
 *
 * For every global (and generic) load, store and atomic of a kernel, the
 * tree of its address: leaves are kernel parameters, %tid/%ntid/%ctaid/
 * %nctaid (and %laneid), module variables' addresses and immediates; inner
 * nodes are the integer instructions that combine them, with their exact
 * widths and signedness (mul.wide, mad, shl, cvt, ...). The trees are
 * built on reaching definitions, in SSA form: where several definitions of
 * a register reach a block, a PHI node takes the value along the edge the
 * thread came in by. A PHI at a loop header is a loop-carried register:
 * its argument from outside the loop is the initial tree, the one from the
 * latch the update tree (modern nvcc strength-reduces addresses into
 * pointer increments). Guarded definitions become GUARD nodes (the new
 * value where the predicate holds, the old one elsewhere); guarded
 * accesses keep their guard predicate, and every conditional branch its
 * predicate tree, so that evaluation (syntree_eval.c) follows each thread's
 * path and drops idle threads exactly.
 *
 * A value that launch-time information cannot give (loaded data,
 * atomics, shuffles, floating point, calls) is an UNKNOWN leaf with its
 * reason; every node that depends on one is marked unknown, and an access
 * whose address or guard, or whose execution (a branch deciding whether it
 * runs) depends on one, is inexact. */
#ifndef SIMTLAB_SYNTREE_H
#define SIMTLAB_SYNTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/ir.h"

typedef enum ptx_st_kind {
    PTX_ST_CONST,   /* value */
    PTX_ST_PARAM,   /* kernel parameter a (index), byte value = offset in it, read as type */
    PTX_ST_SREG,    /* special register a (ptx_sreg), component b */
    PTX_ST_SYMBOL,  /* address of module variable a (symbol id) + value */
    PTX_ST_OP,      /* op over args */
    PTX_ST_PHI,     /* value entering `block`: args[k] along its k-th predecessor edge */
    PTX_ST_UNKNOWN, /* not known at launch: reason (string), at line */
    PTX_ST_FORWARD  /* internal: the same value as node a */
} ptx_st_kind;

typedef enum ptx_st_op {
    PTX_STOP_MOV,      /* a */
    PTX_STOP_ADD, PTX_STOP_SUB, PTX_STOP_MUL_LO, PTX_STOP_MUL_HI, PTX_STOP_MUL_WIDE,
    PTX_STOP_MAD_LO, PTX_STOP_MAD_HI, PTX_STOP_MAD_WIDE, PTX_STOP_DIV, PTX_STOP_REM,
    PTX_STOP_SHL, PTX_STOP_SHR, PTX_STOP_AND, PTX_STOP_OR, PTX_STOP_XOR, PTX_STOP_NOT,
    PTX_STOP_NEG, PTX_STOP_ABS, PTX_STOP_MIN, PTX_STOP_MAX,
    PTX_STOP_CVT,      /* a converted from type2 to type (integers) */
    PTX_STOP_SELP,     /* args[2] ? a : b */
    PTX_STOP_SETP,     /* a cmp b compared as type (1 or 0) */
    PTX_STOP_GUARD,    /* guarded definition: args[0] (predicate) != neg ? args[1] : args[2] */
    PTX_STOP_COUNT
} ptx_st_op;

/* Comparisons of setp (integer forms). */
typedef enum ptx_st_cmp {
    PTX_STCMP_EQ, PTX_STCMP_NE, PTX_STCMP_LT, PTX_STCMP_LE, PTX_STCMP_GT, PTX_STCMP_GE
} ptx_st_cmp;

typedef struct ptx_st_node {
    uint8_t kind;      /* ptx_st_kind */
    uint8_t op;        /* ptx_st_op */
    uint8_t type;      /* ptx_type of the operation (PARAM: of the read) */
    uint8_t type2;     /* CVT: source type */
    uint8_t cmp;       /* SETP: ptx_st_cmp */
    uint8_t neg;       /* GUARD: the guard was @!p */
    uint8_t dst_bits;  /* width of the register the result lands in (values are masked to it) */
    uint8_t width;     /* bits of type (1 for .pred): what operands are extended from */
    bool sgn;          /* type is signed */
    bool unknown;      /* depends on an UNKNOWN leaf */
    bool outside_global; /* a generic address into shared, local, constant or parameter memory
                            (cvta of such an address, plus offsets): never global memory */
    uint32_t a, b;     /* PARAM: index; SREG: sreg, component; SYMBOL: symbol id; FORWARD: node */
    uint32_t block;    /* OP: block of the defining instruction; PHI: its block */
    uint32_t pc;       /* OP, UNKNOWN: defining instruction; else PTX_NONE */
    uint32_t args, nargs; /* operands: trees->argpool[args .. args+nargs) */
    int64_t value;     /* CONST value; PARAM and SYMBOL offset */
    const char *reason;/* UNKNOWN: why (static text) */
} ptx_st_node;

typedef enum ptx_st_access_kind { PTX_ACCESS_READ, PTX_ACCESS_WRITE, PTX_ACCESS_ATOMIC } ptx_st_access_kind;

/* One memory instruction whose accesses may reach global memory. */
typedef struct ptx_st_access {
    uint32_t pc, line, block;
    uint32_t addr;      /* tree of the base address */
    int64_t offset;     /* [base+offset] */
    uint32_t guard;     /* tree of the guard predicate, PTX_NONE when unguarded */
    bool guard_neg;
    uint8_t kind;       /* ptx_st_access_kind */
    uint8_t space;      /* PTX_SPACE_GLOBAL, or NONE (generic: counted when it lands in global memory) */
    uint8_t elem_bytes; /* bytes of one element */
    uint8_t vec;        /* elements (.v2, .v4) */
    bool exact;         /* its address, guard and execution are known at launch */
} ptx_st_access;

/* How control leaves a block. */
typedef enum ptx_st_term {
    PTX_STT_GOTO,     /* to `taken` (PTX_NONE: the thread ends) */
    PTX_STT_COND,     /* cond != neg ? taken : fall (either may be PTX_NONE: ends) */
    PTX_STT_INDIRECT, /* brx.idx: targets[cond's value] (label_lists of the function) */
    PTX_STT_EXIT
} ptx_st_term;

typedef struct ptx_st_block {
    uint32_t nodes, nnodes;       /* evaluation order: trees->order[nodes .. +nnodes), PHIs first */
    uint32_t accesses, naccesses; /* trees->accesses[...], in instruction order */
    uint8_t term;                 /* ptx_st_term */
    bool cond_neg;
    uint32_t cond;                /* COND: predicate tree; INDIRECT: index tree */
    uint32_t taken, fall;         /* successor blocks; PTX_NONE: the thread ends */
    uint32_t targets, ntargets;   /* INDIRECT: block ids in trees->targets */
    uint32_t ipdom;               /* where a thread resumes when cond is unknown (PTX_NONE: ends) */
    uint32_t pc;                  /* the terminating instruction, PTX_NONE without one */
} ptx_st_block;

typedef struct ptx_syntrees {
    const ptx_module *m;
    const ptx_function *f;
    ptx_st_node *nodes; uint32_t nnodes, cap_nodes;
    uint32_t *argpool; uint32_t nargpool, cap_argpool;
    uint32_t *order; uint32_t norder;
    uint32_t *targets; uint32_t ntargets;
    ptx_st_access *accesses; uint32_t naccesses, cap_accesses;
    ptx_st_block *blocks; uint32_t nblocks;
    /* phi argument order of block b: preds[pred_start[b] .. pred_start[b+1]), its reachable
     * predecessors; block 0's list starts with PTX_NONE, the launch itself */
    uint32_t *preds, *pred_start;
    bool reads_exact;        /* every read's address, guard and execution are known at launch */
    bool writes_exact;
    const char *inexact_reason; /* the first reason reads or writes are not exact, or NULL */
    uint32_t inexact_line;
} ptx_syntrees;

/* Build the address trees of function f (which has a body and a CFG). */
void ptx_syntrees_build(const ptx_module *m, const ptx_function *f, ptx_syntrees *out);
void ptx_syntrees_free(ptx_syntrees *t);

/* Follow FORWARD links. */
static inline uint32_t ptx_st_resolve(const ptx_syntrees *t, uint32_t n)
{
    while (n != PTX_NONE && t->nodes[n].kind == PTX_ST_FORWARD)
        n = t->nodes[n].a;
    return n;
}

/* ---- evaluation for a launch (syntree_eval.c) ---- */

/* What a launch fixes: the grid, the parameter values and where module
 * variables and global memory lie. */
typedef struct ptx_st_launch {
    uint32_t grid[3], block[3];
    const uint8_t *params;         /* the parameter buffer */
    uint32_t param_bytes;
    const uint32_t *param_offset;  /* per kernel parameter: its offset in params */
    const uint64_t *symbol_addr;   /* per module symbol id: a .global variable's address (or NULL) */
    uint64_t global_lo, global_hi; /* generic accesses count when they land in [lo, hi) */
    uint64_t max_steps;            /* blocks one thread may enter before it is given up; 0: 2^24 */
} ptx_st_launch;

/* One access of one thread of thread block tb (linear id x + y*gx +
 * z*gx*gy): vec elements of elem_bytes each from addr. Threads are
 * evaluated block by block, in thread order. */
typedef void (*ptx_st_sink)(void *ctx, uint32_t tb, uint8_t kind, uint64_t addr, uint32_t elem_bytes,
                            uint32_t vec);

typedef struct ptx_st_eval_stats {
    uint64_t threads;          /* threads evaluated */
    uint64_t accesses;         /* accesses passed to the sink */
    uint64_t skipped_unknown;  /* dynamic accesses whose address or guard was unknown */
    uint64_t unknown_branches; /* branches on unknown values (the thread resumed at the IPDOM) */
    uint64_t stopped_threads;  /* threads given up at max_steps or at an invalid brx.idx index */
    double seconds;
} ptx_st_eval_stats;

/* Evaluate the trees for every thread of the launch, calling sink for each
 * access that runs. Returns 0, or -1 with err when the launch does not fit
 * the kernel (a parameter beyond the buffer). */
int ptx_syntrees_eval(const ptx_syntrees *t, const ptx_st_launch *l, ptx_st_sink sink, void *ctx,
                      ptx_st_eval_stats *stats, char *err, size_t errlen);

/* Print every access's tree as an expression, loop-carried registers and
 * joins defined once below it: "ld.global.f32 at line 12: [param0 + ...]". */
void ptx_syntrees_print(const ptx_syntrees *t, FILE *out);

#endif
