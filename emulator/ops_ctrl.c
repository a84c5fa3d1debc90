/* ops_ctrl.c — control flow and synchronization: bra, brx.idx, ret, exit,
 * trap, brkpt, bar/barrier, bar.warp.sync, nanosleep (PTX ISA 9.0,
 * "Control Flow Instructions", "Parallel Synchronization").
 *
 * Handlers only report what happened (sim_step); moving program counters,
 * reconvergence and barrier waiting are the scheduler's job (cta.c). */
#include "emulator/ops.h"
#include "ir/util.h"

/* Lanes (group positions) of the active, guard-passing threads. */
static inline uint32_t lane_mask(const sim_lanes *L)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < L->n; i++)
        m |= 1u << L->k[i];
    return m;
}

/* bra: the guard-passing lanes go to the target. */
HANDLER(op_bra)
{
    (void)c; (void)g;
    s->event = SIM_EV_BRANCH;
    s->taken = lane_mask(L);
    s->target = in->target;
}

/* brx.idx: each lane to the index-th label of its list; an index past the
 * end is a fault. */
HANDLER(op_brx)
{
    (void)g;
    s->event = SIM_EV_BRANCH;
    s->indirect = true;
    s->taken = lane_mask(L);
    for (uint32_t i = 0; i < L->n; i++) {
        uint64_t ix = ptx_zext(SRC(0, L->t[i]), 32);
        if (ix >= in->ntargets) {
            char who[96];
            sim_thread_coords(c, L->t[i], who, sizeof who);
            sim_fault(c, SIM_ERR_INVALID_PC, "brx.idx index %llu out of range (%u targets) by %s, kernel %s, PTX line %u",
                      (unsigned long long)ix, in->ntargets, who, c->kernel, in->line);
            s->event = SIM_EV_FAULT;
            return;
        }
        s->next_pc[L->k[i]] = c->prog->targets[in->target + ix];
    }
}

/* exit, and ret from the kernel itself (op 0): the lanes finish; ret
 * from a called function (op 1): the lanes return. */
HANDLER(op_exit)
{
    (void)c; (void)g;
    s->event = in->op ? SIM_EV_RET : SIM_EV_EXIT;
    s->exited = lane_mask(L);
}

/* The function index an indirect call's target address names for lane i,
 * or PTX_NONE after a fault. */
static uint32_t indirect_target(sim_cta *c, const sim_inst *in, const opnd *O, const sim_lanes *L,
                                uint32_t i)
{
    uint64_t a = SRC(0, L->t[i]);
    uint64_t fi = (a - SIM_CODE_WINDOW) / 16;
    if (a < SIM_CODE_WINDOW || (a - SIM_CODE_WINDOW) % 16 || fi >= c->prog->m->nfunctions) {
        char who[96];
        sim_thread_coords(c, L->t[i], who, sizeof who);
        sim_fault(c, SIM_ERR_INVALID_PC, "indirect call to 0x%llx, which is not a function's address, by %s, kernel %s, "
                  "PTX line %u", (unsigned long long)a, who, c->kernel, in->line);
        return PTX_NONE;
    }
    return (uint32_t)fi;
}

/* call: to a function with a body, the scheduler enters it; functions the
 * runtime provides (vprintf, malloc, free, __assertfail) run here. An
 * indirect call whose lanes name different functions calls the first
 * lane's now; the scheduler brings the others back to the call. */
HANDLER(op_call)
{
    (void)g;
    uint32_t fi = in->target;
    sim_lanes sub;
    const sim_lanes *all = L;
    if (fi == PTX_NONE) { /* indirect: through a register */
        if (!L->n)
            return;
        fi = indirect_target(c, in, O, L, 0);
        if (fi == PTX_NONE) {
            s->event = SIM_EV_FAULT;
            return;
        }
        sub.n = 0;
        sub.contig = false;
        for (uint32_t i = 0; i < L->n; i++) {
            uint32_t fj = indirect_target(c, in, O, L, i);
            if (fj == PTX_NONE) {
                s->event = SIM_EV_FAULT;
                return;
            }
            if (fj == fi) {
                sub.t[sub.n] = L->t[i];
                sub.k[sub.n++] = L->k[i];
            }
        }
        const ptx_function *cf = &c->prog->m->functions[fi];
        if (cf->nparams != in->nsrc || cf->nrets < in->ndst) {
            sim_fault(c, SIM_ERR_ILLEGAL, "indirect call of %s with %u arguments and %u results; it takes %u and "
                      "returns %u, kernel %s, PTX line %u", ptx_function_name(c->prog->m, cf),
                      in->nsrc, in->ndst, cf->nparams, cf->nrets, c->kernel, in->line);
            s->event = SIM_EV_FAULT;
            return;
        }
        L = &sub;
    }
    const sim_func *callee = &c->prog->funcs[fi];
    if (callee->code) {
        s->event = SIM_EV_CALL;
        s->taken = lane_mask(L);
        s->target = fi;
        s->retry = in->target == PTX_NONE ? lane_mask(all) & ~s->taken : 0; /* to call again */
        return;
    }
    if (in->target == PTX_NONE) {
        sim_fault(c, SIM_ERR_UNSUPPORTED, "indirect call of %s, which has no body, kernel %s, PTX line %u",
                  ptx_function_name(c->prog->m, callee->f), c->kernel, in->line);
        s->event = SIM_EV_FAULT;
        return;
    }
    sim_builtin_call(c, in, L, s);
}

/* trap / brkpt: the launch stops with an error naming the thread. */
HANDLER(op_trap)
{
    (void)g;
    if (!L->n)
        return;
    char who[96];
    sim_thread_coords(c, L->t[0], who, sizeof who);
    sim_fault(c, SIM_ERR_TRAP, "%s executed by %s, kernel %s, PTX line %u", in->op ? "brkpt" : "trap", who,
              c->kernel, in->line);
    s->event = SIM_EV_FAULT;
}

/* bar.sync / barrier.sync / bar.arrive (op2: 1 arrive) / bar.red (op:
 * 1 popc, 2 and, 3 or; predicate in source 2, result in destination 0):
 * barrier id (source 0) and optional thread count (source 1). */
HANDLER(op_bar)
{
    (void)g;
    if (!L->n)
        return;
    uint32_t t0 = L->t[0];
    uint64_t id = SRC(0, t0);
    uint64_t count = in->nsrc > 1 ? SRC(1, t0) : 0;
    if ((id > 15 && !(in->flags & SIM_IF_INTERNAL)) || (in->nsrc > 1 && (count == 0 || count % 32 != 0))) {
        char who[96];
        sim_thread_coords(c, t0, who, sizeof who);
        sim_fault(c, SIM_ERR_ILLEGAL, "barrier %llu with thread count %llu is invalid (ids 0..15, counts multiples "
                  "of 32), %s, kernel %s, PTX line %u", (unsigned long long)id,
                  (unsigned long long)count, who, c->kernel, in->line);
        s->event = SIM_EV_FAULT;
        return;
    }
    s->event = SIM_EV_BARRIER;
    s->barrier = (uint32_t)id;
    s->barrier_count = (uint32_t)count;
    s->barrier_arrive_only = in->op2;
    s->red_op = in->op;
    if (in->op) { /* bar.red: the predicate (source 2) of every lane */
        s->red_true = s->red_lanes = 0;
        for (uint32_t i = 0; i < L->n; i++) {
            s->red_lanes++;
            s->red_true += SRC(2, L->t[i]) != 0;
        }
    }
}

/* bar.warp.sync, nanosleep, pmevent: nothing to do when a warp's
 * converged lanes run in lockstep. griddepcontrol: launches run one after
 * another, so a grid's prerequisites have completed (and their memory is
 * visible) before it starts, which is what .wait waits for, and
 * .launch_dependents may not make a dependent start earlier. setmaxnreg:
 * a hint on how registers are shared out, which the emulator's per-thread
 * registers do not need. */
HANDLER(op_nothing) { UNUSED_ARGS; }

/* Label operand k's instruction index, or PTX_NONE. */
static uint32_t label_pc(const sim_decoder *d, unsigned k)
{
    const ptx_operand *o = sim_dec_op(d, k);
    if (o->kind != PTX_OPD_LABEL)
        return PTX_NONE;
    const ptx_label *l = &d->f->labels[o->id];
    return l->kind == PTX_LABEL_CODE ? l->instr : PTX_NONE;
}

/* One value of a call's register argument (a source) or register result
 * (a destination row and its width; _ is PTX_NONE), appended to xsrc. */
static bool call_value(sim_decoder *d, const ptx_operand *o, bool result)
{
    sim_program *p = d->p;
    sim_src v = {0};
    if (result) {
        if (o->kind == PTX_OPD_SINK) {
            v.row = PTX_NONE;
        } else if (o->kind == PTX_OPD_REG && o->comp == PTX_COMP_NONE) {
            unsigned bits = ptx_type_bits((ptx_type)d->f->regs[o->id].type);
            v.row = o->id;
            v.value = bits == 0 || bits > 64 ? 64 : bits;
        } else {
            return false;
        }
    } else if (!sim_dec_value(d, o, &v) || v.imm == 2 || v.neg) {
        return false;
    }
    p->xsrc = ptx_xrealloc(p->xsrc, (p->nxsrc + 1) * sizeof *p->xsrc);
    p->xsrc[p->nxsrc++] = v;
    return true;
}

/* A call's result or argument, appended to the call pool: a .param slot
 * (its symbol), or registers (a vector register's components; an
 * argument also an immediate) whose values go to xsrc. */
static bool call_slot(sim_decoder *d, const ptx_operand *o, bool result)
{
    sim_program *p = d->p;
    uint32_t sym = PTX_NONE;
    sim_call_regs regs = {p->nxsrc, 0};
    if (o->kind == PTX_OPD_SYM) {
        if (o->value != 0 || !sim_frame_symbol(d->p, o->id))
            return false;
        sym = o->id;
    } else if (o->kind == PTX_OPD_VEC) {
        for (unsigned e = 0; e < o->count; e++)
            if (!call_value(d, &d->f->operands[o->id + e], result))
                return false;
        regs.n = o->count;
    } else {
        if (!call_value(d, o, result))
            return false;
        regs.n = 1;
    }
    p->call_syms = ptx_xrealloc(p->call_syms, (p->ncall_syms + 1) * sizeof *p->call_syms);
    p->call_regs = ptx_xrealloc(p->call_regs, (p->ncall_syms + 1) * sizeof *p->call_regs);
    p->call_regs[p->ncall_syms] = regs;
    p->call_syms[p->ncall_syms++] = sym;
    return true;
}

/* call{.uni} [(ret, ...),] func[, (arg, ...)][, proto or targets]:
 * results and arguments are .param slots; the callee is a function
 * (target = its index) or, for an indirect call, a register holding a
 * function's address (target = PTX_NONE, source 0). */
static bool decode_call(sim_decoder *d)
{
    sim_inst *in = d->in;
    unsigned n = sim_dec_nops(d), k = 0;
    const ptx_operand *rets = NULL, *args = NULL;
    if (k < n && sim_dec_op(d, k)->kind == PTX_OPD_LIST)
        rets = sim_dec_op(d, k++);
    if (k >= n)
        return false;
    unsigned fk = k;
    const ptx_operand *fo = sim_dec_op(d, k++);
    bool indirect = fo->kind == PTX_OPD_REG;
    if (!indirect && (fo->kind != PTX_OPD_SYM || d->m->symbols[fo->id].kind != PTX_SYM_FUNC))
        return false;
    if (k < n && sim_dec_op(d, k)->kind == PTX_OPD_LIST)
        args = sim_dec_op(d, k++);
    if (k < n && indirect && sim_dec_op(d, k)->kind == PTX_OPD_LABEL)
        k++; /* the prototype (or target list): checked when the call runs */
    if (k != n)
        return false;
    if (indirect) {
        if (!sim_dec_src(d, fk, 0))
            return false;
        in->target = PTX_NONE;
    } else {
        in->target = d->m->symbols[fo->id].func;
        if (in->target == PTX_NONE || in->target >= d->m->nfunctions)
            return false;
    }
    if (!indirect) {
        const ptx_function *callee = &d->m->functions[in->target];
        if (!(callee->flags & PTX_FUNCF_HAS_BODY) &&
            strcmp(ptx_function_name(d->m, callee), "malloc") == 0)
            d->p->uses_heap = true;
    }
    in->ntargets = d->p->ncall_syms;
    in->ndst = rets ? rets->count : 0;
    in->nsrc = args ? args->count : 0;
    for (unsigned i = 0; i < in->ndst; i++)
        if (!call_slot(d, &d->f->operands[rets->id + i], true))
            return false;
    for (unsigned i = 0; i < in->nsrc; i++)
        if (!call_slot(d, &d->f->operands[args->id + i], false))
            return false;
    /* the runtime's own functions (no body) read .param slots only */
    for (unsigned i = 0; !indirect && !(d->m->functions[in->target].flags & PTX_FUNCF_HAS_BODY) &&
                         i < in->ndst + in->nsrc; i++)
        if (d->p->call_syms[in->ntargets + i] == PTX_NONE)
            return false;
    return true;
}

sim_fn sim_pick_ctrl(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    unsigned n = sim_dec_nops(d);
    switch (op) {
    case PTX_OP_BRA:
        if (n != 1 || (in->target = label_pc(d, 0)) == PTX_NONE)
            return NULL;
        in->flags |= SIM_IF_BRANCH | (sim_dec_mod(d, PTX_MODCAT_UNI) ? SIM_IF_UNI : 0);
        return op_bra;
    case PTX_OP_BRX_IDX: {
        if (n != 2 || !sim_dec_src(d, 0, 0))
            return NULL;
        const ptx_operand *o = sim_dec_op(d, 1);
        if (o->kind != PTX_OPD_LABEL)
            return NULL;
        const ptx_label *l = &d->f->labels[o->id];
        if (l->kind != PTX_LABEL_BRANCHTARGETS)
            return NULL;
        sim_program *p = d->p;
        in->target = p->ntargets;
        in->ntargets = l->count;
        p->targets = ptx_xrealloc(p->targets, (p->ntargets + l->count + 1) * sizeof *p->targets);
        for (uint32_t k = 0; k < l->count; k++)
            p->targets[p->ntargets++] = d->f->labels[d->f->label_lists[l->first + k]].instr;
        in->flags |= SIM_IF_BRANCH;
        return op_brx;
    }
    case PTX_OP_EXIT:
        return n == 0 ? op_exit : NULL;
    case PTX_OP_RET:
        in->op = d->f->kind != PTX_FUNC_ENTRY;
        return n == 0 ? op_exit : NULL;
    case PTX_OP_CALL:
        return decode_call(d) ? op_call : NULL;
    case PTX_OP_TRAP: case PTX_OP_BRKPT:
        in->op = op == PTX_OP_BRKPT;
        return n == 0 ? op_trap : NULL;
    case PTX_OP_BAR: case PTX_OP_BARRIER: {
        ptx_modifier mode = sim_dec_mod(d, PTX_MODCAT_MODE);
        bool sync = sim_dec_mod(d, PTX_MODCAT_SYNC) != PTX_MOD_NONE;
        if (mode == PTX_MOD_RED) { /* bar.red.op.type d, a{, b}, {!}c */
            ptx_modifier rop = sim_dec_mod(d, PTX_MODCAT_OP);
            in->op = ptx_form_has(d->m, d->form, PTX_MOD_POPC) ? 1 : rop == PTX_MOD_AND ? 2
                     : rop == PTX_MOD_OR ? 3 : 0;
            if (!in->op || n < 3 || n > 4 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) ||
                (n == 4 && !sim_dec_src(d, 2, 1)) || !sim_dec_src(d, n - 1, 2))
                return NULL;
            in->nsrc = (uint8_t)(n - 2);
            return op_bar;
        }
        if (n < 1 || n > 2)
            return NULL;
        if (!sync && mode != PTX_MOD_ARRIVE && op == PTX_OP_BARRIER)
            return NULL;
        in->op2 = mode == PTX_MOD_ARRIVE;
        in->nsrc = (uint8_t)n;
        for (unsigned k = 0; k < n; k++)
            if (!sim_dec_src(d, k, k))
                return NULL;
        return op_bar;
    }
    case PTX_OP_BARRIER_CLUSTER: { /* the emulator's barrier SIM_CLUSTER_BARRIER: arrive, or wait */
        ptx_modifier m = sim_dec_mod(d, PTX_MODCAT_MODE);
        if (n != 0 || (m != PTX_MOD_ARRIVE && m != PTX_MOD_WAIT))
            return NULL;
        in->op2 = m == PTX_MOD_ARRIVE;
        in->src[0] = (sim_src){1, 0, 0, SIM_CLUSTER_BARRIER};
        in->nsrc_used = 1;
        in->nsrc = 1;
        in->flags |= SIM_IF_INTERNAL;
        return op_bar;
    }
    case PTX_OP_BAR_WARP_SYNC:
        if (n != 1 || !sim_dec_src(d, 0, 0))
            return NULL;
        in->sync_src = 0; /* with independent scheduling: wait for the member lanes */
        return op_nothing;
    case PTX_OP_NANOSLEEP: case PTX_OP_PMEVENT:
        return op_nothing;
    case PTX_OP_GRIDDEPCONTROL:
        return n == 0 ? op_nothing : NULL;
    case PTX_OP_SETMAXNREG:
        return n == 1 ? op_nothing : NULL;
    default:
        return NULL;
    }
}
