/* analysis.h — all static analyses of a module, as annotations.
 *
 * ptx_analyze_module runs, per function with a body: dominators and
 * post-dominators, loops, def/use, taint and branch classes, likely-
 * convergence points and register next access, and keeps what the timing
 * model and the reports need as plain, self-contained tables (names and
 * source lines included), so they can be written as JSON and read back
 * without the module (annotations.c). */
#ifndef SIMTLAB_ANALYSIS_H
#define SIMTLAB_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ir/arena.h"
#include "ir/ir.h"

/* One bra or brx.idx. pcs are instruction indices in the function. */
typedef struct ptx_branch_note {
    uint32_t pc, line;
    bool conditional;      /* guarded bra, or brx.idx */
    bool uni;              /* written with .uni */
    uint32_t ipdom_pc;     /* reconvergence point; PTX_NONE: only at the virtual exit (or never) */
    uint32_t ipdom_line;   /* its line, 0 with PTX_NONE */
    bool reconverges;      /* false when the branch cannot reach an exit (infinite loop) */
    uint32_t lpc_pc;       /* likely-convergence point, PTX_NONE when none */
    uint32_t lpc_line;
    uint8_t cls;           /* ptx_branch_class (analysis/taint.h); UNIFORM for unconditional */
    bool cta_uniform;
    bool interleavable;    /* conditional and neither successor is the IPDOM */
    uint32_t *controls;    /* conditional: first pcs of the blocks control dependent on it */
    uint32_t ncontrols;
} ptx_branch_note;

typedef struct ptx_loop_note {
    uint32_t header_pc, header_line;
    uint32_t *latch_lines; /* line of the last instruction of each latch block */
    uint32_t nlatches;
    uint32_t depth;
    bool irreducible;
} ptx_loop_note;

/* One access of a register and the kind of its next access. A large module
 * has millions of them, all kept until the report is written, so the note
 * is packed (12 bytes). */
typedef struct ptx_access_note {
    uint32_t pc, line;
    uint16_t idle;         /* writes: static idle-period estimate in cycles (at most
                              PTX_IDLE_MAX, analysis/nextaccess.h); reads: 0 */
    uint8_t is_write;
    uint8_t next;          /* ptx_next_kind (analysis/nextaccess.h) */
} ptx_access_note;

typedef struct ptx_reg_note {
    char *name;            /* "%r1" (in the kernel's name_pool) */
    ptx_access_note *accesses; /* in the kernel's access_pool */
    uint32_t naccesses;
    uint8_t type;          /* ptx_type */
} ptx_reg_note;

typedef struct ptx_kernel_notes {
    char *name;
    bool is_entry;
    uint32_t nblocks;      /* real blocks (without the virtual exit) */
    uint32_t ninstrs;
    uint32_t max_live;
    uint32_t phys_regs;    /* 32-bit registers per thread after register allocation (regalloc.h) */
    bool taint_flow_insensitive; /* branch classes from the flow-insensitive fallback */
    ptx_branch_note *branches; uint32_t nbranches;
    ptx_loop_note *loops; uint32_t nloops;
    ptx_reg_note *regs; uint32_t nregs;
    char *name_pool;               /* register names, NUL-separated */
    ptx_access_note *access_pool;  /* every register's accesses, register by register */
} ptx_kernel_notes;

typedef struct ptx_annotations {
    char *file;
    ptx_kernel_notes *kernels;
    uint32_t nkernels;
    ptx_arena store;   /* every kernel's names, lists and pools (ptx_annotations_alloc) */
} ptx_annotations;

typedef struct ptx_analysis_options {
    bool control_dependence; /* taint: LLVM-style divergence through control dependence */
    const char *only;        /* analyze only the function of this name, or NULL */
} ptx_analysis_options;

/* Analyze every function with a body (or only opt->only). */
void ptx_analyze_module(const ptx_module *m, const ptx_analysis_options *opt,
                        ptx_annotations *out);

/* JSON of schema "simtlab-analysis/1" (see README.md), and back. read
 * returns 0, or -1 with a one-line reason in err. */
void ptx_annotations_write_json(const ptx_annotations *a, FILE *out);
int ptx_annotations_read_json(const char *text, ptx_annotations *out, char *err, size_t errlen);

/* A readable report, and a Graphviz CFG with reconvergence edges dashed and
 * branch blocks colored by class (needs the module for the code). */
void ptx_annotations_write_text(const ptx_annotations *a, FILE *out);
void ptx_analysis_write_dot(const ptx_module *m, const ptx_annotations *a, FILE *out);

bool ptx_annotations_equal(const ptx_annotations *x, const ptx_annotations *y);
/* n zeroed bytes that live as long as a: the storage of the kernels' notes
 * (one arena rather than an allocation per list, so the notes of a large
 * module neither fragment the heap nor cost a page fault per list). */
void *ptx_annotations_alloc(ptx_annotations *a, size_t n);
void ptx_annotations_free(ptx_annotations *a);

#endif
