/* ops_simtlab.c — simtlab's own instructions, extensions of PTX that a
 * module has only when it was parsed with them enabled (parser/parser.h;
 * README.md, "simtlab extensions of PTX"): the two warp-wide instructions
 * Narasiman proposes for databases on GPUs (PhD thesis, Ch. 7).
 *
 * Both combine a predicate across the lanes that execute them (the active
 * lanes whose guard holds: a lane that is inactive counts as false), in
 * lane order, as the thesis's parallel prefix-sum hardware does; a lane is
 * its position in the thread group, so compacted or permuted groups count
 * as the warps they are. (ld's .rowhint needs nothing here: the load is a
 * plain load, and the hint is for the timing model's memory controller.) */
#include <stdio.h>

#include "emulator/ops.h"

/* Stop the launch for an illegal use of instruction `in` by thread t:
 * what is wrong, in `why`. */
static void ext_fault(sim_cta *c, const sim_inst *in, uint32_t t, const char *why)
{
    char who[96];
    sim_thread_coords(c, t, who, sizeof who);
    sim_fault(c, SIM_ERR_ILLEGAL, "%s, %s, kernel %s, PTX line %u", why, who, c->kernel, in->line);
}

/* simtlab.cond_acc{.space}.bSIZE d, [addr], p, src (Sec. 7.1): every lane
 * whose p holds writes src at addr + (the number of such lanes below it)
 * * SIZE bytes, so the values land contiguously from addr in lane order,
 * and d = the number written, in every executing lane. addr must be the
 * same in every executing lane (the thesis's base register "is the same
 * for all threads in a warp"). The writes go through sim_mem, so they are
 * checked and logged (sim_step.mem) as a store's, one per writing lane in
 * lane order. */
HANDLER(op_cond_acc)
{
    (void)g;
    if (!L->n)
        return;
    unsigned size = type_bits(in->type) / 8;
    uint64_t base = sim_address(c, in, L->t[0]);
    for (uint32_t i = 1; i < L->n; i++) {
        uint64_t a = sim_address(c, in, L->t[i]);
        if (a != base) {
            char why[192];
            snprintf(why, sizeof why, "simtlab.cond_acc needs the same address in every executing lane, but "
                     "lane %u has 0x%llx and lane %u 0x%llx", L->k[0], (unsigned long long)base, L->k[i],
                     (unsigned long long)a);
            ext_fault(c, in, L->t[i], why);
            s->event = SIM_EV_FAULT;
            return;
        }
    }
    uint64_t written = 0;
    EACH_LANE(t) {
        if (!SRC(0, t))
            continue;
        uint64_t a = (base + written * size) & in->addr.mask;
        uint8_t *p = sim_mem(c, in, t, in->space, a, size, 2);
        if (!p) {
            s->event = SIM_EV_FAULT;
            return;
        }
        uint64_t v = SRC(1, t);
        memcpy(p, &v, size); /* little-endian: the low `size` bytes */
        written++;
    }
    EACH_LANE(t) PUT(0, t, written);
}

/* simtlab.tree_traverse.uW d, base, p, nodesize (Sec. 7.2.1): d = base +
 * (the number of executing lanes whose p holds) * nodesize, in W bits;
 * nodesize must be a power of two (the hardware shifts the count by its
 * logarithm). */
HANDLER(op_tree_traverse)
{
    (void)g;
    unsigned w = type_bits(in->type);
    uint64_t count = 0;
    EACH_LANE(t) count += SRC(1, t) != 0;
    EACH_LANE(t) {
        uint64_t size = ptx_zext(SRC(2, t), w);
        if (size == 0 || (size & (size - 1))) {
            char why[128];
            snprintf(why, sizeof why, "simtlab.tree_traverse needs a node size that is a power of two, not %llu",
                     (unsigned long long)size);
            ext_fault(c, in, t, why);
            s->event = SIM_EV_FAULT;
            return;
        }
    }
    EACH_LANE(t) PUT(0, t, ptx_zext(SRC(0, t) + count * ptx_zext(SRC(2, t), w), w));
}

sim_fn sim_pick_simtlab(sim_decoder *d)
{
    sim_inst *in = d->in;
    unsigned bits = ptx_type_bits((ptx_type)in->type);
    switch ((ptx_opcode)d->form->opcode) {
    case PTX_OP_SIMTLAB_COND_ACC:
        if (sim_dec_nops(d) != 4 || (bits != 8 && bits != 16 && bits != 32 && bits != 64) ||
            !sim_dec_dst(d, 0, 0) || !sim_dec_addr(d, 1) || !sim_dec_src(d, 2, 0) || !sim_dec_src(d, 3, 1))
            return NULL;
        in->flags |= SIM_IF_STORE | SIM_IF_PACKED;
        return op_cond_acc;
    case PTX_OP_SIMTLAB_TREE_TRAVERSE:
        if (sim_dec_nops(d) != 4 || (bits != 32 && bits != 64) || !sim_dec_dst(d, 0, 0) ||
            !sim_dec_src(d, 1, 0) || !sim_dec_src(d, 2, 1) || !sim_dec_src(d, 3, 2))
            return NULL;
        return op_tree_traverse;
    default:
        return NULL;
    }
}
