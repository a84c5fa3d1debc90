/* order.c — block order on several host threads: which instructions are
 * ordered points (decided once, when a function is decoded), and the gate
 * where a group of CTAs (a cluster, or one CTA) waits, at its first
 * ordered point, until every lower-numbered group has finished. Why this
 * gives the results of one host thread, and which programs it does not
 * cover, is argued at the top of launch.c.
 *
 * An ordered point is an instruction whose effect or result can depend on
 * what other groups did before it, beyond plain loads and stores:
 *  - atom, red and red.async on global or generic addresses (vector forms
 *    included), cp.reduce.async.bulk(.tensor) into global memory, sured,
 *    multimem reductions and stores;
 *  - ld, st and st.async of global or generic addresses that are strong
 *    beyond the cluster: .volatile (the ISA gives it relaxed.sys
 *    semantics), .mmio, .relaxed/.acquire/.release at .gpu or .sys scope;
 *  - fence and membar at .gpu/.sys (.gl) scope;
 *  - calls of the runtime's malloc and free (the device heap is carved in
 *    call order), and indirect calls in a module that declares them;
 *  - clusterlaunchcontrol.try_cancel (it depends on which clusters have
 *    started).
 * Some of these are refused by the decoder today (their launch stops at
 * them); they are listed so that supporting them keeps the order.
 * Not ordered points: shared memory and mbarriers (private to a CTA or its
 * cluster, and a cluster runs as one group), .cta/.cluster-scoped strong
 * accesses (they cannot synchronize with another group), printf (each CTA
 * buffers its text and the launch prints the buffers in CTA order),
 * %clock, %clock64 and %globaltimer (the CTA's own instruction count),
 * trap and faults (the launch reports the lowest-numbered failing CTA). */
#include <stdlib.h>
#include <string.h>

#include "emulator/internal.h"

/* Whether an access in `space` may reach global memory: .global, or a
 * generic address. */
static bool reaches_global(uint8_t space)
{
    return space == PTX_SPACE_GLOBAL || space == PTX_SPACE_NONE;
}

/* Whether a scope reaches other clusters: .gpu, .sys and membar's .gl. A
 * strong operation written without a scope counts as such. */
static bool beyond_cluster(ptx_modifier scope)
{
    return scope == PTX_MOD_NONE || scope == PTX_MOD_GPU || scope == PTX_MOD_SYS || scope == PTX_MOD_GL;
}

/* Whether ld/st (d's form) is strong at a scope wider than the cluster:
 * .volatile, .mmio, or .relaxed/.acquire/.release... at .gpu or .sys. */
static bool strong_beyond_cluster(const sim_decoder *d)
{
    ptx_modifier sem = sim_dec_mod(d, PTX_MODCAT_SEM);
    if (sem == PTX_MOD_VOLATILE || ptx_form_has(d->m, d->form, PTX_MOD_MMIO))
        return true;
    if (sem == PTX_MOD_NONE || sem == PTX_MOD_WEAK)
        return false;
    return beyond_cluster(sim_dec_mod(d, PTX_MODCAT_SCOPE));
}

/* Whether f is the runtime's malloc or free (a function without a body). */
static bool heap_function(const ptx_module *m, const ptx_function *f)
{
    if (f->flags & PTX_FUNCF_HAS_BODY)
        return false;
    const char *name = ptx_function_name(m, f);
    return strcmp(name, "malloc") == 0 || strcmp(name, "free") == 0;
}

/* Whether module m declares malloc or free (an indirect call may reach
 * them). */
static bool module_has_heap(const ptx_module *m)
{
    for (uint32_t k = 0; k < m->nfunctions; k++)
        if (heap_function(m, &m->functions[k]))
            return true;
    return false;
}

bool sim_order_dependent(const sim_decoder *d)
{
    const sim_inst *in = d->in;
    const ptx_form *f = d->form;
    switch ((ptx_opcode)f->opcode) {
    case PTX_OP_ATOM: case PTX_OP_RED: case PTX_OP_RED_ASYNC:
        return reaches_global(in->space);
    case PTX_OP_CP_REDUCE_ASYNC_BULK: case PTX_OP_CP_REDUCE_ASYNC_BULK_TENSOR:
        return f->nspaces > 0 && reaches_global(f->space[0]);
    case PTX_OP_SURED: case PTX_OP_MULTIMEM_RED: case PTX_OP_MULTIMEM_ST: case PTX_OP_MULTIMEM_LD_REDUCE:
    case PTX_OP_CLUSTERLAUNCHCONTROL_TRY_CANCEL:
        return true;
    case PTX_OP_LD: case PTX_OP_ST: case PTX_OP_ST_ASYNC:
        return reaches_global(in->space) && strong_beyond_cluster(d);
    case PTX_OP_FENCE: case PTX_OP_MEMBAR: {
        ptx_modifier scope = sim_dec_mod(d, PTX_MODCAT_SCOPE);
        return scope != PTX_MOD_NONE && beyond_cluster(scope);
    }
    case PTX_OP_CALL:
        if (in->target == PTX_NONE)
            return module_has_heap(d->m);
        return in->target < d->m->nfunctions && heap_function(d->m, &d->m->functions[in->target]);
    default:
        return false;
    }
}

void sim_order_init(sim_order *o, uint32_t workers)
{
    memset(o, 0, sizeof *o);
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->finished, NULL);
    o->nslots = workers ? workers : 1;
    o->running = malloc(o->nslots * sizeof *o->running);
    if (!o->running) { /* run on one host thread rather than fail */
        o->nslots = 1;
        o->running = &o->one_slot;
    }
    for (uint32_t k = 0; k < o->nslots; k++)
        o->running[k] = UINT64_MAX;
    o->fault_group = UINT64_MAX;
}

void sim_order_free(sim_order *o)
{
    if (o->running != &o->one_slot)
        free(o->running);
    pthread_cond_destroy(&o->finished);
    pthread_mutex_destroy(&o->lock);
}

uint32_t sim_order_join(sim_order *o)
{
    pthread_mutex_lock(&o->lock);
    uint32_t slot = o->joined++;
    pthread_mutex_unlock(&o->lock);
    return slot;
}

bool sim_order_take(sim_order *o, uint32_t slot, uint64_t ngroups, uint64_t *group)
{
    pthread_mutex_lock(&o->lock);
    bool ok = o->next < ngroups;
    if (ok) {
        *group = o->next++;
        o->running[slot] = *group;
    }
    pthread_mutex_unlock(&o->lock);
    return ok;
}

void sim_order_finish(sim_order *o, uint32_t slot, bool failed, sim_error kind)
{
    pthread_mutex_lock(&o->lock);
    uint64_t g = o->running[slot];
    o->running[slot] = UINT64_MAX;
    if (failed && g < o->fault_group) {
        o->fault_group = g;
        o->fault_kind = kind;
    }
    if (o->waiting)
        pthread_cond_broadcast(&o->finished);
    pthread_mutex_unlock(&o->lock);
}

/* Whether a group below g is still running (o->lock held). Groups are
 * handed out in increasing order, so every group below g has started:
 * none running means all of them have finished. */
static bool lower_running(const sim_order *o, uint64_t g)
{
    for (uint32_t k = 0; k < o->nslots; k++)
        if (o->running[k] < g)
            return true;
    return false;
}

bool sim_order_pass(sim_cta *c, const sim_inst *in)
{
    sim_order *o = c->order;
    c->order_passed = true;
    if (!o)
        return true;
    uint64_t g = c->order_group;
    pthread_mutex_lock(&o->lock);
    while (lower_running(o, g)) {
        o->waiting++;
        pthread_cond_wait(&o->finished, &o->lock);
        o->waiting--;
    }
    uint64_t failed = o->fault_group; /* the lowest failed group: one above g does not concern it */
    sim_error kind = o->fault_kind;
    pthread_mutex_unlock(&o->lock);
    if (failed > g)
        return true;
    sim_fault(c, kind, "block (%u,%u,%u) of kernel %s stopped at PTX line %u, where it waited for the blocks "
              "before it: one of them failed first", c->ctaid.x, c->ctaid.y, c->ctaid.z, c->kernel, in->line);
    return false;
}
