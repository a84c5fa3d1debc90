/* regalloc.h — a register allocator for PTX's virtual registers: each
 * register gets physical 32-bit registers of a thread, as ptxas must give
 * them, so that registers live at the same time never share one
 * (Tripathy's Slumber, Ch. 6, gates physical registers; PTX's are
 * unbounded).
 *
 * Linear scan (Poletto and Sarkar, TOPLAS 1999) over live intervals in
 * instruction order: a register's interval runs from its first write or
 * live point to its last read or live point, where "live at instruction
 * i" is the usual backward data flow (some path from i reads it before a
 * write), so a value live around a loop's back-edge covers the whole loop.
 * Within an instruction reads come before writes: a register read last by
 * instruction i and one written by i may share. Widths: a register of at
 * most 32 bits takes one physical register, 64 bits an aligned pair, 128
 * bits (.b128) an aligned four; predicates are not in the register file
 * (a separate predicate file) and get none, nor does the carry flag. No
 * spilling: the count is what the kernel needs. The count is at least the
 * most 32-bit words live at once (the interval graph's clique bound, met
 * exactly when every register is one word wide and intervals have no
 * holes). */
#ifndef SIMTLAB_REGALLOC_H
#define SIMTLAB_REGALLOC_H

#include <stdint.h>

#include "analysis/defuse.h"
#include "ir/ir.h"

#define PTX_NO_PHYS UINT32_MAX

typedef struct ptx_regalloc {
    uint32_t *phys;     /* per virtual register: its first physical register, or PTX_NO_PHYS
                           (predicates, never accessed) */
    uint8_t *width;     /* per virtual register: physical registers it takes (0, 1, 2 or 4) */
    uint32_t nregs;     /* virtual registers (f->nregs) */
    uint32_t nphys;     /* physical registers per thread */
} ptx_regalloc;

void ptx_regalloc_function(const ptx_module *m, const ptx_function *f, const ptx_defuse *du, ptx_regalloc *out);
void ptx_regalloc_free(ptx_regalloc *ra);

#endif
