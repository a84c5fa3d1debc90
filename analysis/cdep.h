/* cdep.h — control dependence (Ferrante, Ottenstein and Warren).
 *
 * Block Y is control dependent on block X when X has a successor S such
 * that Y post-dominates S but Y does not strictly post-dominate X: whether Y
 * runs depends on which way X branches. Computed per CFG edge X->S by
 * walking the post-dominator tree from S up to (not including) X's
 * immediate post-dominator. Blocks that cannot reach an exit have no
 * post-dominators and take part in no dependence. */
#ifndef SIMTLAB_CDEP_H
#define SIMTLAB_CDEP_H

#include <stdint.h>

#include "analysis/dom.h"

typedef struct ptx_cdep {
    /* the blocks control dependent on block x: deps[start[x] .. start[x+1]), ascending */
    uint32_t *start, *deps;
    uint32_t nblocks;
} ptx_cdep;

void ptx_cdep_build(const ptx_function *f, const ptx_domtree *pdom, ptx_cdep *out);
void ptx_cdep_free(ptx_cdep *c);

#endif
