/* simt_place.c — thread groups into warp slots (simt_place.h). */
#include "timing/simt_place.h"

uint32_t tm_simt_place(tm_cta *cta, uint32_t j, const uint32_t *at, uint32_t n, uint32_t pc)
{
    sim_cta *c = &cta->emu;
    sim_warp *w = &c->warps[j];
    uint32_t holes = 0, any = PTX_NONE;
    w->n = n;
    for (uint32_t l = 0; l < n; l++)
        if (at[l] == PTX_NONE)
            holes |= 1u << l;
        else
            any = at[l];
    for (uint32_t l = 0; l < n; l++)
        w->t[l] = at[l] == PTX_NONE ? any : at[l]; /* (a hole names a thread of the warp; it never runs) */
    w->exited = holes;
    w->depth = 1; /* (pdom_start gave every slot a stack) */
    w->stack[0] = (sim_simt_entry){pc, c->kernel_fn->ninstrs, sim_warp_lanes(w) & ~holes, PTX_NONE, PTX_NONE};
    w->at_barrier = w->at_cluster = false;
    cta->groups[j].ctx = NULL; /* its threads changed */
    if (c->ctx_warp == w)
        c->ctx_warp = NULL;
    return holes;
}

void tm_simt_unplace(tm_cta *cta, uint32_t j)
{
    sim_warp *w = &cta->emu.warps[j];
    w->exited = sim_warp_lanes(w);
    w->depth = 0;
}

bool tm_simt_warp_waits(const tm_cta *cta, uint32_t k)
{
    for (uint32_t id = 0; id < SIM_BARRIERS; id++)
        if (sim_simt_pdom.waiting(&cta->emu, &cta->emu.warps[k], id))
            return true;
    return false;
}

void tm_simt_enter(tm_cta *cta, uint32_t s, sim_group *g) { sim_enter_warp(&cta->emu, &cta->emu.warps[s], g); }

bool tm_simt_release(tm_cta *cta) { return sim_barriers_release(&cta->emu, &sim_simt_pdom); }

void tm_simt_deadlock(tm_cta *cta) { sim_barrier_deadlock(&cta->emu, &sim_simt_pdom); }

uint32_t tm_simt_lane_pc(const sim_warp *w, uint32_t l)
{
    for (uint32_t d = w->depth; d-- > 0;)
        if (w->stack[d].mask >> l & 1)
            return w->stack[d].pc;
    return PTX_NONE;
}

ptx_opcode tm_simt_opcode(const sim_cta *c, const sim_func *fn, uint32_t pc)
{
    return (ptx_opcode)ptx_instr_form(c->prog->m, &fn->f->instrs[pc])->opcode;
}

bool tm_simt_warp_level(const sim_cta *c, const sim_func *fn, uint32_t pc)
{
    if (fn->code[pc].sync_src >= 0)
        return true;
    switch (tm_simt_opcode(c, fn, pc)) {
    case PTX_OP_CALL: /* the callee may hold such instructions (a -G build's __activemask()) */
    case PTX_OP_ACTIVEMASK: case PTX_OP_ELECT_SYNC: case PTX_OP_MATCH: case PTX_OP_REDUX_SYNC: case PTX_OP_SHFL:
    case PTX_OP_SHFL_SYNC: case PTX_OP_VOTE: case PTX_OP_VOTE_SYNC:
        return true;
    default:
        return false;
    }
}
