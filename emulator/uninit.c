/* uninit.c — the registers a function may read before writing them.
 *
 * A launch must start every CTA from the same register state, or results
 * would depend on which CTA a host thread ran before. Zeroing all of a
 * CTA's rows costs more than many short kernels' whole run, and compiler
 * output writes every register before reading it; so only the rows some
 * path can read before an unguarded write are zeroed. A forward
 * "definitely written" data flow over the CFG finds them: a block's entry
 * set is the meet (intersection) of its predecessors' exit sets, an
 * unguarded write adds its register, and a read of a register outside the
 * current set marks it. A guarded write is also a read (ptx_defuse lists
 * it so), since the old value may survive. Every handler writes whole rows
 * and reads only active lanes (warp-collective instructions need their
 * members active), so rows outside the list are never observed before a
 * write. */
#include <stdlib.h>
#include <string.h>

#include "analysis/defuse.h"
#include "emulator/internal.h"
#include "ir/util.h"

/* Past this many bit-set words the analysis is skipped and every row is
 * listed (huge functions: zeroing is then cheap next to their run). */
#define UNINIT_MAX_WORDS (1u << 24)

/* One pass over f's blocks in layout order: each block's exit set from its
 * predecessors' (exit_set: words per block); with `mark`, the registers
 * read outside the current set go into marked. Returns whether an exit set
 * changed. */
static bool sweep(const ptx_function *f, const ptx_defuse *du, uint32_t words, uint64_t *exit_set,
                  uint64_t *cur, uint64_t *marked, bool mark)
{
    bool changed = false;
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const ptx_block *bl = &f->blocks[b];
        if (b == f->exit_block)
            continue;
        memset(cur, b == 0 ? 0 : 0xff, (size_t)words * sizeof *cur); /* the entry: nothing written */
        for (uint32_t k = 0; k < bl->npred && b != 0; k++) {
            const uint64_t *p = exit_set + (size_t)words * f->preds[bl->pred + k];
            for (uint32_t w = 0; w < words; w++)
                cur[w] &= p[w];
        }
        for (uint32_t i = bl->first; i < bl->end; i++) {
            for (uint32_t k = du->rstart[i]; k < du->rstart[i + 1] && mark; k++) {
                uint32_t r = du->reads[k];
                if (!(cur[r / 64] >> (r % 64) & 1))
                    marked[r / 64] |= 1ull << (r % 64);
            }
            if (f->instrs[i].guard == PTX_NONE)
                for (uint32_t k = du->wstart[i]; k < du->wstart[i + 1]; k++)
                    cur[du->writes[k] / 64] |= 1ull << (du->writes[k] % 64);
        }
        uint64_t *e = exit_set + (size_t)words * b;
        if (memcmp(e, cur, (size_t)words * sizeof *cur) != 0) {
            memcpy(e, cur, (size_t)words * sizeof *cur);
            changed = true;
        }
    }
    return changed;
}

/* Write into *n and return (malloc'd) the rows of f — registers and the
 * carry flag, ptx_defuse numbering — that some path may read before an
 * unguarded write. */
uint32_t *sim_uninit_rows(const ptx_module *m, const ptx_function *f, uint32_t *n)
{
    uint32_t nrows = f->nregs + 1, words = (nrows + 63) / 64, nb = f->nblocks;
    uint32_t *out = ptx_xmalloc(((size_t)nrows + 1) * sizeof *out);
    *n = 0;
    if ((uint64_t)words * (nb + 1) > UNINIT_MAX_WORDS) {
        for (uint32_t r = 0; r < nrows; r++)
            out[(*n)++] = r;
        return out;
    }
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    /* exit sets start at top (all written) until a path reaches them */
    uint64_t *exit_set = ptx_xmalloc((size_t)words * nb * sizeof *exit_set);
    memset(exit_set, 0xff, (size_t)words * nb * sizeof *exit_set);
    uint64_t *cur = ptx_xmalloc((size_t)words * sizeof *cur), *marked = ptx_xcalloc(words, sizeof *marked);
    while (sweep(f, &du, words, exit_set, cur, marked, false))
        ;
    sweep(f, &du, words, exit_set, cur, marked, true);
    for (uint32_t r = 0; r < nrows; r++)
        if (marked[r / 64] >> (r % 64) & 1)
            out[(*n)++] = r;
    free(exit_set);
    free(cur);
    free(marked);
    ptx_defuse_free(&du);
    return out;
}
