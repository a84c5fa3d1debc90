/* nextaccess.h — liveness, register next-access hints and idle periods
 * (Tripathy, PhD thesis, Ch. 6, Sec. 6.3.1).
 *
 * For every access of a register (a read or a write by instruction pc), the
 * kind of the register's next access on all paths from there: READ when
 * every path reads it next, WRITE when no path reads it before writing it
 * (the value is dead), NONE when no path accesses it again, UNDETERMINED
 * when paths disagree — which consumers must treat as READ. A backward
 * data-flow over the CFG; loops need no trip counts because the lattice is
 * finite. A guarded write counts as a read and a write (the old value may
 * survive).
 *
 * Within one instruction reads come before writes: a read's next access is
 * WRITE when the same instruction writes the register unconditionally
 * (unguarded); otherwise, and for every write, it is the first access after
 * the instruction. The kinds the paths from there can meet first — a read
 * (R), a write (W), the function end with no access (N) — give the label:
 * R alone is READ; W alone, or W and N, is WRITE (no path reads the value
 * again: it is dead, and Slumber may power-gate it); N alone, or no path
 * at all (an access-free infinite loop), is NONE; R with W or N is
 * UNDETERMINED. "Live" (R) is exactly the thesis's 1-bit hint.
 *
 * Liveness: live[i] = the number of real registers (the carry flag
 * excluded) live on entry to instruction i, "live" meaning some path from
 * there reads it before any write (an instruction's own reads count; its
 * own writes do not); max_live = the largest of them.
 *
 * Cost: no per-block set of all registers is ever built. The R/W/N kinds at
 * the end of each block that accesses register r are solved on r's sparse
 * evaluation graph: the blocks accessing r plus their iterated
 * post-dominance frontier, every other block taking the answer of its
 * nearest post-dominator in that set (Choi, Cytron, Ferrante, POPL 1991,
 * run backward). Blocks that cannot reach the exit get a virtual edge to a
 * sink that contributes nothing, so every block has a post-dominator.
 * Liveness is explored per register from its upward-exposed reads
 * backward through the blocks that do not access it, counting, so its cost
 * is the total length of the live ranges (in blocks) and it stores nothing
 * per block and register. The work is linear in accesses, post-dominance
 * frontiers and live-range lengths, not in blocks times registers; code
 * where every read is dominated by a write (all compiler output) has short
 * live ranges.
 *
 * The static idle-period estimate of a write of r by instruction pc (lat =
 * the latency function summed over instructions; pc itself and the next
 * access are not counted): the shortest path, in latency, from the end of
 * pc to the next access of r or to the function end (the warp finishes and
 * its registers are released), over all CFG paths: the time a conservative
 * wake-up must assume (Tripathy Sec. 6.1.2). Estimates saturate at
 * PTX_IDLE_MAX, the largest value of Slumber's 10-bit wake-up counter
 * (Sec. 6.3.4); a write whose paths never access r again nor end gets
 * PTX_IDLE_MAX. The search settles at most PTX_IDLE_SEARCH blocks per
 * write; if it stops there the estimate is the shortest distance still
 * unexplored, a lower bound (it never predicts a wake-up too late). Reads
 * carry idle 0. */
#define PTX_IDLE_MAX 1023u
#define PTX_IDLE_SEARCH 64u

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
    uint32_t *live;     /* per instruction: real registers live on entry */
    uint32_t max_live;  /* the largest live[i] */
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
