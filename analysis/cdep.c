/* cdep.c — control dependence from the post-dominator tree (see cdep.h). */
#include "analysis/cdep.h"

#include <stdlib.h>
#include <string.h>

#include "ir/util.h"

/* Ascending order of block ids. */
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Append, for every edge x->s, the blocks from s up the post-dominator tree
 * to (not including) ipdom(x); `mark` keeps each x's list free of
 * duplicates. */
void ptx_cdep_build(const ptx_function *f, const ptx_domtree *pdom, ptx_cdep *out)
{
    uint32_t n = f->nblocks;
    out->nblocks = n;
    out->start = ptx_xcalloc((size_t)n + 1, sizeof *out->start);
    out->deps = NULL;
    uint32_t ndeps = 0, cap = 0;
    uint32_t *mark = ptx_xmalloc((n ? n : 1) * sizeof *mark);
    memset(mark, 0xff, (n ? n : 1) * sizeof *mark);
    for (uint32_t x = 0; x < n; x++) {
        out->start[x] = ndeps;
        const ptx_block *b = &f->blocks[x];
        if (b->nsucc < 2 || !ptx_reachable(pdom, x))
            continue;
        uint32_t stop = pdom->idom[x];
        for (uint32_t k = 0; k < b->nsucc; k++) {
            for (uint32_t y = f->succs[b->succ + k];
                 y != PTX_NONE && y != stop && ptx_reachable(pdom, y); y = pdom->idom[y]) {
                if (mark[y] == x)
                    continue;
                mark[y] = x;
                PTX_GROW(out->deps, cap, ndeps + 1);
                out->deps[ndeps++] = y;
            }
        }
        qsort(out->deps + out->start[x], ndeps - out->start[x], sizeof *out->deps, cmp_u32);
    }
    out->start[n] = ndeps;
    free(mark);
}

void ptx_cdep_free(ptx_cdep *c)
{
    free(c->start);
    free(c->deps);
    memset(c, 0, sizeof *c);
}
