/* nextaccess.h — liveness, register next-access hints and idle periods
 * (Tripathy, PhD thesis, Ch. 6, Sec. 6.3.1).
 *
 * For every access of a register (a read or a write by instruction pc), the
 * kind of the register's next access on all paths from there: READ when
 * every path reads it next, WRITE when every path writes it next (the value
 * is dead), NONE when no path accesses it again, UNDETERMINED when paths
 * disagree — which consumers must treat as READ. A backward data-flow over
 * the CFG; loops need no trip counts because the lattice is finite. A
 * guarded write counts as a read and a write (the old value may survive).
 *
 * The static idle-period estimate of a destination is the sum of the
 * latencies (from a latency table) of the instructions between the write
 * and the register's next access along the shortest path, capped by the
 * block length when the next access lies in another block. */
#ifndef SIMTLAB_NEXTACCESS_H
#define SIMTLAB_NEXTACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/defuse.h"
#include "ir/ir.h"

typedef enum ptx_next_kind {
    PTX_NEXT_NONE = 0, PTX_NEXT_READ = 1, PTX_NEXT_WRITE = 2, PTX_NEXT_UNDETERMINED = 3
} ptx_next_kind;

typedef struct ptx_access {
    uint32_t pc;        /* instruction */
    uint32_t reg;       /* register id (defuse numbering) */
    uint8_t is_write;   /* this access writes the register (else reads) */
    uint8_t next;       /* ptx_next_kind after this access */
    uint32_t idle;      /* writes: static idle-period estimate in cycles; reads: 0 */
} ptx_access;

typedef struct ptx_nextaccess {
    ptx_access *acc;    /* every register access, ordered by pc, then reads before writes */
    uint32_t nacc;
    uint32_t max_live;  /* most registers live at once at any instruction */
    uint32_t *live_in;  /* per block: live registers on entry (bitset words) */
    uint32_t words;     /* 32-bit words per block bitset */
    uint32_t nblocks;
} ptx_nextaccess;

/* Latency in cycles of an instruction, for idle-period estimates. */
typedef uint32_t (*ptx_latency_fn)(const ptx_module *m, const ptx_instr *in, void *ctx);
/* The default table: 4 cycles ALU, 20 for transcendentals and f64, 400 for
 * global/local memory, 30 for shared memory, 1 for control. */
uint32_t ptx_default_latency(const ptx_module *m, const ptx_instr *in, void *ctx);

void ptx_nextaccess_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                            ptx_latency_fn latency, void *ctx, ptx_nextaccess *out);
void ptx_nextaccess_free(ptx_nextaccess *n);

const char *ptx_next_kind_name(ptx_next_kind k); /* "none", "read", "write", "undetermined" */

#endif
