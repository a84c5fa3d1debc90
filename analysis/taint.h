/* taint.h — P/D-branch taint analysis (Rhu, PhD thesis, Sec. 4.3.2-4.3.3,
 * Fig. 4.20) and warp/CTA uniformity of branch predicates.
 *
 * A forward data-flow over registers with the lattice NONE < P < D:
 * programmatic sources (%tid, %laneid, ... thread-varying; %ctaid, %ntid,
 * %nctaid and ld.param: uniform) give P, data sources (loads from any
 * memory, texture fetches, atomics) give D, immediates give NONE, and every
 * other instruction's destination takes the join of its sources (including
 * the guard, vector elements and the carry flag). Taint stored to local
 * memory is kept through the spill (loads from .local take the join of what
 * was stored to .local).
 *
 * Separately, uniformity: a value is warp-uniform when every thread of a
 * warp computes the same value, CTA-uniform when every thread of the CTA
 * does (%tid varies, %ctaid is CTA-uniform, ...). A conditional branch is
 * class UNIFORM when its predicate is warp-uniform (it cannot diverge), else
 * P or D by the predicate's taint. With control_dependence set, values
 * defined under a divergent branch and merged at its join (and values live
 * out of a loop with a divergent exit) become non-uniform, as in LLVM's
 * uniformity analysis. */
#ifndef SIMTLAB_TAINT_H
#define SIMTLAB_TAINT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/defuse.h"
#include "ir/ir.h"

typedef enum ptx_taint { PTX_TAINT_NONE = 0, PTX_TAINT_P = 1, PTX_TAINT_D = 2 } ptx_taint;

typedef enum ptx_branch_class {
    PTX_BRANCH_UNIFORM = 0, /* the predicate is the same in every thread of a warp */
    PTX_BRANCH_P = 1,       /* may diverge; predicate depends on programmatic values only */
    PTX_BRANCH_D = 2        /* may diverge; predicate depends on loaded data */
} ptx_branch_class;

typedef struct ptx_taint_result {
    uint8_t *reg_taint;     /* per register (defuse nregs): join over all definitions */
    /* per instruction, for conditional branches (bra with a guard, brx.idx) */
    uint8_t *branch_class;  /* ptx_branch_class; 0 for other instructions */
    bool *cta_uniform;      /* the branch condition is the same in all threads of the CTA */
    uint32_t ninstrs;
    bool flow_insensitive;  /* computed flow-insensitively (asked for, or the function is too
                               large for per-block facts): conservative classes */
} ptx_taint_result;

typedef struct ptx_taint_options {
    bool control_dependence;
    /* One fact per register for the whole function (join over all its
     * definitions) instead of per block; also used automatically for
     * functions too large for per-block facts. */
    bool flow_insensitive;
} ptx_taint_options;

void ptx_taint_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                       const ptx_taint_options *opt, ptx_taint_result *out);
void ptx_taint_free(ptx_taint_result *r);

const char *ptx_branch_class_name(ptx_branch_class c); /* "uniform", "P", "D" */

#endif
