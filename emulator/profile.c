/* profile.c — execution counts per instruction and per CFG edge (see
 * sim.h), and the CFG edges of block-ending instructions that the
 * scheduler attributes lanes to. */
#include <stdlib.h>
#include <string.h>

#include "emulator/internal.h"
#include "ir/util.h"

sim_profile *sim_profile_new(const sim_program *p)
{
    const ptx_module *m = p->m;
    sim_profile *prof = ptx_xcalloc(1, sizeof *prof);
    prof->prog = p;
    prof->ifirst = ptx_xcalloc(m->nfunctions + 1, sizeof *prof->ifirst);
    prof->efirst = ptx_xcalloc(m->nfunctions + 1, sizeof *prof->efirst);
    for (uint32_t fi = 0; fi < m->nfunctions; fi++) {
        const ptx_function *f = &m->functions[fi];
        bool body = (f->flags & PTX_FUNCF_HAS_BODY) != 0;
        prof->ifirst[fi + 1] = prof->ifirst[fi] + (body ? f->ninstrs : 0);
        prof->efirst[fi + 1] = prof->efirst[fi] + (body ? f->nsuccs : 0);
    }
    prof->ninstrs = prof->ifirst[m->nfunctions];
    prof->nedges = prof->efirst[m->nfunctions];
    prof->instrs = ptx_xcalloc(prof->ninstrs + 1, sizeof *prof->instrs);
    prof->edges = ptx_xcalloc(prof->nedges + 1, sizeof *prof->edges);
    return prof;
}

sim_profile *sim_profile_like(const sim_profile *prof) { return sim_profile_new(prof->prog); }

void sim_profile_add(sim_profile *into, const sim_profile *from)
{
    for (uint32_t i = 0; i < into->ninstrs; i++) {
        sim_instr_profile *a = &into->instrs[i];
        const sim_instr_profile *b = &from->instrs[i];
        a->warp_execs += b->warp_execs;
        a->thread_execs += b->thread_execs;
        a->divergent += b->divergent;
        a->div_data += b->div_data;
        a->div_prog += b->div_prog;
        a->div_none += b->div_none;
    }
    for (uint32_t e = 0; e < into->nedges; e++)
        into->edges[e] += from->edges[e];
}

void sim_profile_free(sim_profile *prof)
{
    if (!prof)
        return;
    free(prof->ifirst);
    free(prof->efirst);
    free(prof->instrs);
    free(prof->edges);
    free(prof);
}

const sim_instr_profile *sim_profile_instrs(const sim_profile *prof, uint32_t fi, uint32_t *n)
{
    if (fi >= prof->prog->m->nfunctions) {
        *n = 0;
        return NULL;
    }
    *n = prof->ifirst[fi + 1] - prof->ifirst[fi];
    return prof->instrs + prof->ifirst[fi];
}

const uint64_t *sim_profile_edges(const sim_profile *prof, uint32_t fi, uint32_t *n)
{
    if (fi >= prof->prog->m->nfunctions) {
        *n = 0;
        return NULL;
    }
    *n = prof->efirst[fi + 1] - prof->efirst[fi];
    return prof->edges + prof->efirst[fi];
}

void sim_func_edges(sim_func *fn)
{
    const ptx_function *f = fn->f;
    uint32_t n = f->ninstrs + 1;
    fn->edge_taken = ptx_xmalloc(n * sizeof *fn->edge_taken);
    fn->edge_fall = ptx_xmalloc(n * sizeof *fn->edge_fall);
    fn->edge_exit = ptx_xmalloc(n * sizeof *fn->edge_exit);
    for (uint32_t i = 0; i < n; i++)
        fn->edge_taken[i] = fn->edge_fall[i] = fn->edge_exit[i] = PTX_NONE;
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const ptx_block *bk = &f->blocks[b];
        if (b == f->exit_block || bk->first == bk->end)
            continue;
        uint32_t last = bk->end - 1;
        const sim_inst *in = &fn->code[last];
        for (uint32_t k = bk->succ; k < bk->succ + bk->nsucc; k++) {
            uint32_t sb = f->succs[k];
            if (sb == f->exit_block) {
                fn->edge_exit[last] = k;
                continue;
            }
            bool target = (in->flags & SIM_IF_BRANCH) && !in->ntargets && f->blocks[sb].first == in->target;
            bool fall = f->blocks[sb].first == bk->end;
            if (target)
                fn->edge_taken[last] = k;
            if (fall && !(target && in->guard == PTX_NONE))
                fn->edge_fall[last] = k;
        }
    }
}
