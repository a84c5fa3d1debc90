/* lpc_internal.h — the static likely-convergence rule with its search
 * strategy chosen by the caller, for the tests. */
#ifndef SIMTLAB_LPC_INTERNAL_H
#define SIMTLAB_LPC_INTERNAL_H

#include "analysis/lpc.h"

/* How ptx_lpc_static_mode finds which latches a branch reaches: LPC_AUTO
 * (what ptx_lpc_static does) searches forward from each branch until that
 * costs as much as searching backward from the latches for all branches
 * with the same IPDOM and loop, then backward; the other two use one way
 * only. All three give the same result. */
typedef enum lpc_mode { LPC_AUTO, LPC_FORWARD, LPC_BACKWARD } lpc_mode;

uint32_t *ptx_lpc_static_mode(const ptx_function *f, const ptx_domtree *pdom,
                              const ptx_loops *loops, lpc_mode mode);

#endif
