/* defuse.h — which registers each instruction reads and writes.
 *
 * Operand roles follow the ISA tables: an opcode whose operand shape starts
 * with a destination ('d', ir/isa.h) writes the registers of its first
 * operand (a register, the registers of a vector or of a d|p pair; "_"
 * writes nothing); every other register occurrence is a read — operands,
 * vector elements, address bases, the guard predicate. A guarded
 * instruction's writes are conditional (the old value may survive), so
 * ptx_defuse_build lists every register it writes among its reads as well:
 * consumers get "read and write" without looking at the guard.
 *
 * Corrections to the shape tables, which describe syntax rather than roles:
 * setp, bfi, testp, isspacep, istypep, cvta, createpolicy, redux.sync, the
 * mbarrier result forms, clusterlaunchcontrol.query_cancel, wmma.load,
 * ldmatrix, tcgen05.ld and alloca write their first operand although their
 * shapes start with 'o'; bar/barrier write it only in their .red form.
 * wgmma.mma_async accumulates into its destination (also read), and a write
 * of one component (%v.x) keeps the others (also read). Each register
 * appears at most once per list, in operand order.
 *
 * Carry-flag instructions (add.cc, addc, sub.cc, subc, mad.cc, madc) also
 * read and/or write the implicit carry flag, reported as the pseudo-register
 * PTX_DEFUSE_CC = f->nregs: written by add.cc, sub.cc and by addc, subc,
 * mad, madc carrying .cc; read by addc, subc, madc. */
#ifndef SIMTLAB_DEFUSE_H
#define SIMTLAB_DEFUSE_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/ir.h"

typedef struct ptx_defuse {
    /* per instruction i: reads[rstart[i] .. rstart[i+1]), writes[wstart[i] .. wstart[i+1]) */
    uint32_t *rstart, *reads;
    uint32_t *wstart, *writes;
    uint32_t ninstrs;
    uint32_t nregs;        /* f->nregs + 1 (the carry flag) */
} ptx_defuse;

#define PTX_DEFUSE_CC(f) ((f)->nregs)

void ptx_defuse_build(const ptx_module *m, const ptx_function *f, ptx_defuse *du);
void ptx_defuse_free(ptx_defuse *du);

#endif
