/* ops_warp.c — warp-level instructions: vote, shfl, activemask, match,
 * redux, elect (PTX ISA 9.0). Lane numbers are positions in the thread
 * group, so compacted or permuted groups behave as real warps would.
 *
 * The .sync forms name the participating lanes in a member mask; sim_exec
 * has checked it before the handler runs (every member lane that has not
 * exited executes the instruction with the others), so a lane's members
 * here are the lanes of its mask that execute it: the ISA's "non-exited
 * threads in membermask". */
#include <stdio.h>

#include "emulator/ops.h"

/* Lanes (group positions) of the guard-passing threads. */
static inline uint32_t lane_mask(const sim_lanes *L)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < L->n; i++)
        m |= 1u << L->k[i];
    return m;
}

/* members[i] = lane L->k[i]'s member mask (source k) less the lanes not
 * executing: those that exited or lie beyond the warp (sim_exec has
 * refused any other). Lanes of one instruction may name different groups
 * (tiled partitions of a warp). */
static void members_of(const sim_lanes *L, const opnd *O, unsigned k, uint32_t *members)
{
    uint32_t exec = lane_mask(L);
    for (uint32_t i = 0; i < L->n; i++)
        members[i] = (uint32_t)SRC(k, L->t[i]) & exec;
}

enum { V_ALL, V_ANY, V_UNI, V_BALLOT };

/* vote{.sync}.mode: op = V_*; op2 = 1 for the .sync form (member mask in
 * source 1). */
HANDLER(op_vote)
{
    uint32_t members[32], all = 0;
    if (in->op2)
        members_of(L, O, 1, members);
    for (uint32_t i = 0; i < L->n; i++)
        if (SRC(0, L->t[i]))
            all |= 1u << L->k[i];
    EACH_LANE(t) {
        uint32_t mine = in->op2 ? members[i_] : lane_mask(L), yes = all & mine;
        uint64_t r;
        switch (in->op) {
        case V_ALL: r = yes == mine; break;
        case V_ANY: r = yes != 0; break;
        case V_UNI: r = yes == 0 || yes == mine; break;
        default: r = yes; break;
        }
        PUT(0, t, r);
    }
}

enum { S_UP, S_DOWN, S_BFLY, S_IDX };

/* Stop the launch: thread t's shfl.sync (member mask m) reads lane j,
 * which is not one of the lanes executing it. The ISA (shfl, "Semantics")
 * leaves the value of an inactive or predicated-off lane unpredictable and
 * a lane outside membermask undefined, so simtlab reports instead of
 * inventing a value: an exited lane, a lane the warp does not have, a lane
 * outside the mask. */
static void shfl_fault(sim_cta *c, const sim_inst *in, const sim_group *g, uint32_t t, int j, uint32_t m)
{
    char who[96], why[96];
    sim_thread_coords(c, t, who, sizeof who);
    if ((uint32_t)j >= g->n)
        snprintf(why, sizeof why, "which the warp does not have (it has %u threads)", g->n);
    else if (((g->absent | (g->pdom ? sim_pdom_absent(c, g->pdom, g->mask) : 0)) >> j) & 1)
        snprintf(why, sizeof why, "which has exited (the PTX ISA leaves its value undefined)");
    else
        snprintf(why, sizeof why, "which is not in the member mask 0x%08x", m);
    sim_fault(c, SIM_ERR_ILLEGAL, "shfl.sync reads lane %d, %s, %s, kernel %s, PTX line %u", j, why, who,
              c->kernel, in->line);
}

/* shfl.sync.mode.b32 d[|p], a, b, c, membermask (the ISA's formula). */
HANDLER(op_shfl)
{
    uint32_t members[32];
    members_of(L, O, 3, members);
    uint64_t val[32], out[32];
    uint8_t pv[32];
    for (uint32_t i = 0; i < L->n; i++)
        val[L->k[i]] = SRC(0, L->t[i]);
    for (uint32_t i = 0; i < L->n; i++) {
        uint32_t t = L->t[i];
        int lane = L->k[i];
        int bval = (int)(SRC(1, t) & 31), cv = (int)(SRC(2, t) & 31), mask = (int)((SRC(2, t) >> 8) & 31);
        int maxl = (lane & mask) | (cv & ~mask), minl = lane & mask, j;
        bool p;
        switch (in->op) {
        case S_UP: j = lane - bval; p = j >= maxl; break;
        case S_DOWN: j = lane + bval; p = j <= maxl; break;
        case S_BFLY: j = lane ^ bval; p = j <= maxl; break;
        default: j = minl | (bval & ~mask); p = j <= maxl; break;
        }
        if (!p)
            j = lane;
        if (j < 0 || j > 31 || !((members[i] >> j) & 1)) {
            shfl_fault(c, in, g, t, j, (uint32_t)SRC(3, t));
            s->event = SIM_EV_FAULT;
            return;
        }
        out[i] = val[j];
        pv[i] = p;
    }
    EACH_LANE(t) {
        PUT(0, t, out[i_]);
        if (in->ndst > 1)
            PUT(1, t, pv[i_]);
    }
}

/* activemask.b32: the lanes executing it whose guard holds (the ISA:
 * exited, inactive and predicated-off threads contribute 0). */
HANDLER(op_activemask)
{
    (void)s;
    uint32_t m = lane_mask(L);
    EACH_LANE(t) PUT(0, t, m);
}

/* match.any.sync / match.all.sync (op: 1 all; ndst 2: the all form's
 * predicate). */
HANDLER(op_match)
{
    uint32_t members[32];
    members_of(L, O, 1, members);
    unsigned w = type_bits(in->type);
    uint64_t v[32];
    for (uint32_t i = 0; i < L->n; i++)
        v[L->k[i]] = ptx_zext(SRC(0, L->t[i]), w);
    EACH_LANE(t) {
        uint64_t mine = v[L->k[i_]];
        uint32_t same = 0;
        for (uint32_t j = 0; j < L->n; j++)
            if (((members[i_] >> L->k[j]) & 1) && v[L->k[j]] == mine)
                same |= 1u << L->k[j];
        if (in->op) {
            bool all = same == members[i_];
            PUT(0, t, all ? members[i_] : 0);
            if (in->ndst > 1)
                PUT(1, t, all);
        } else {
            PUT(0, t, same);
        }
    }
}

enum { R_ADD, R_MIN, R_MAX, R_AND, R_OR, R_XOR };

/* redux.sync.op.type d, a, membermask over 32-bit values (each lane over
 * its own member mask). */
HANDLER(op_redux)
{
    uint32_t members[32];
    members_of(L, O, 1, members);
    bool sg = type_signed(in->type);
    EACH_LANE(t) {
        uint64_t acc = 0;
        bool first = true;
        for (uint32_t i = 0; i < L->n; i++) {
            if (!((members[i_] >> L->k[i]) & 1))
                continue;
            uint64_t x = ptx_zext(SRC(0, L->t[i]), 32);
            if (first) {
                acc = x;
                first = false;
                continue;
            }
            switch (in->op) {
            case R_ADD: acc = ptx_zext(acc + x, 32); break;
            case R_AND: acc &= x; break;
            case R_OR: acc |= x; break;
            case R_XOR: acc ^= x; break;
            case R_MIN: acc = sg ? (ptx_sext(x, 32) < ptx_sext(acc, 32) ? x : acc) : (x < acc ? x : acc); break;
            default: acc = sg ? (ptx_sext(x, 32) > ptx_sext(acc, 32) ? x : acc) : (x > acc ? x : acc); break;
            }
        }
        PUT(0, t, acc);
    }
}

/* elect.sync d|p, membermask: the lowest member lane is elected. */
HANDLER(op_elect)
{
    uint32_t members[32];
    members_of(L, O, 0, members);
    EACH_LANE(t) {
        int leader = members[i_] ? __builtin_ctz(members[i_]) : -1;
        PUT(0, t, leader < 0 ? 0 : (uint64_t)leader);
        PUT(1, t, L->k[i_] == leader);
    }
}

sim_fn sim_pick_warp(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    unsigned n = sim_dec_nops(d);
    ptx_modifier mode = sim_dec_mod(d, PTX_MODCAT_MODE);
    switch (op) {
    case PTX_OP_VOTE: case PTX_OP_VOTE_SYNC: {
        ptx_modifier uni = sim_dec_mod(d, PTX_MODCAT_UNI);
        in->op = mode == PTX_MOD_ALL ? V_ALL : mode == PTX_MOD_ANY ? V_ANY
                 : mode == PTX_MOD_BALLOT ? V_BALLOT : uni ? V_UNI : 0xff;
        if (in->op == 0xff)
            return NULL;
        in->op2 = op == PTX_OP_VOTE_SYNC;
        if (n != 2u + in->op2 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) ||
            (in->op2 && !sim_dec_src(d, 2, 1)))
            return NULL;
        in->sync_src = in->op2 ? 1 : -1;
        return op_vote;
    }
    case PTX_OP_SHFL_SYNC: {
        in->op = mode == PTX_MOD_UP ? S_UP : mode == PTX_MOD_DOWN ? S_DOWN
                 : mode == PTX_MOD_BFLY ? S_BFLY : mode == PTX_MOD_IDX ? S_IDX : 0xff;
        if (in->op == 0xff || n != 5 || !sim_dec_dst(d, 0, 0))
            return NULL;
        for (unsigned k = 0; k < 4; k++)
            if (!sim_dec_src(d, k + 1, k))
                return NULL;
        in->ndst = sim_dec_op(d, 0)->kind == PTX_OPD_PAIR ? 2 : 1;
        in->sync_src = 3;
        return op_shfl;
    }
    case PTX_OP_ACTIVEMASK:
        return n == 1 && sim_dec_dst(d, 0, 0) ? op_activemask : NULL;
    case PTX_OP_MATCH:
        in->op = mode == PTX_MOD_ALL;
        if ((mode != PTX_MOD_ALL && mode != PTX_MOD_ANY) || !sim_dec_mod(d, PTX_MODCAT_SYNC) || n != 3 || !sim_dec_dst(d, 0, 0) ||
            !sim_dec_src(d, 1, 0) || !sim_dec_src(d, 2, 1))
            return NULL;
        in->ndst = sim_dec_op(d, 0)->kind == PTX_OPD_PAIR ? 2 : 1;
        in->sync_src = 1;
        return op_match;
    case PTX_OP_REDUX_SYNC: {
        ptx_modifier m = sim_dec_mod(d, PTX_MODCAT_OP);
        in->op = m == PTX_MOD_ADD ? R_ADD : m == PTX_MOD_MIN ? R_MIN : m == PTX_MOD_MAX ? R_MAX
                 : m == PTX_MOD_AND ? R_AND : m == PTX_MOD_OR ? R_OR : m == PTX_MOD_XOR ? R_XOR : 0xff;
        if (in->op == 0xff || type_float(in->type) || n != 3 || !sim_dec_dst(d, 0, 0) ||
            !sim_dec_src(d, 1, 0) || !sim_dec_src(d, 2, 1))
            return NULL;
        in->sync_src = 1;
        return op_redux;
    }
    case PTX_OP_ELECT_SYNC:
        if (n != 2 || sim_dec_op(d, 0)->kind != PTX_OPD_PAIR || !sim_dec_dst(d, 0, 0) ||
            !sim_dec_src(d, 1, 0))
            return NULL;
        in->sync_src = 0;
        return op_elect;
    default:
        return NULL;
    }
}
