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
 * Within one instruction reads come before writes: a read's next access is
 * WRITE when the same instruction writes the register unconditionally
 * (unguarded); otherwise, and for every write, it is the first access after
 * the instruction. A path with no further access that reaches the function
 * end contributes NONE; a point from which no path reaches an access or the
 * end (an access-free infinite loop) is NONE too.
 *
 * Liveness: live_in[b] = registers some path from the entry of b reads
 * before writing (bit PTX_DEFUSE_CC is the carry flag). max_live is the
 * largest number of real registers (carry flag excluded) live on entry to
 * any instruction, "live" meaning some path from there reads it before any
 * write (an instruction's own reads count; its own writes do not).
 *
 * The static idle-period estimate of a write of r by instruction pc in block
 * b (lat = the latency function, summed over instructions; pc itself and the
 * next access are not counted):
 *   - next access of r later in b at pc': lat(pc+1 .. pc'-1);
 *   - otherwise lat(pc+1 .. end of b - 1) + min over successors s of b of
 *     head(s, r), where head(s, r) = lat of the instructions of s before its
 *     first access of r, or of all of s when s does not access r, and 0 for
 *     the virtual exit (or when b has no successor). One block of
 *     look-ahead: linear apart from a binary search per cross-block write.
 * Reads carry idle 0. */
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
/* The default table: 1 for control (bra, brx.idx, call, ret, exit, trap,
 * bar, barrier, bar.warp.sync); ld/ldu/ld.global.nc/st/atom/red: 30 on
 * shared, const or param space, 400 on global, local or generic; 400 for
 * tex, tld4, suld, sust; 20 for sin, cos, lg2, ex2, rcp, sqrt, rsqrt, tanh,
 * div and any instruction with an f64 type; 4 for everything else (ALU).
 * A NULL latency function passed to ptx_nextaccess_analyze means this one. */
uint32_t ptx_default_latency(const ptx_module *m, const ptx_instr *in, void *ctx);

void ptx_nextaccess_analyze(const ptx_module *m, const ptx_function *f, const ptx_defuse *du,
                            ptx_latency_fn latency, void *ctx, ptx_nextaccess *out);
void ptx_nextaccess_free(ptx_nextaccess *n);

const char *ptx_next_kind_name(ptx_next_kind k); /* "none", "read", "write", "undetermined" */

#endif
