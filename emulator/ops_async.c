/* ops_async.c — asynchronous copies and mbarriers (PTX ISA 9.0,
 * "cp.async", "cp.async.bulk", "mbarrier"; st.async and red.async, in
 * ops_mem.c, complete transactions here).
 *
 * A cp.async or cp.async.bulk copy completes at once, which no race-free
 * program can tell from a copy that completes at its wait: commit and wait
 * are no-ops, and a bulk copy's complete-tx reaches its mbarrier as it
 * issues.
 *
 * An mbarrier is a 64-bit object in shared (or global) memory; its layout
 * is the emulator's own (programs only pass it to mbarrier instructions):
 * bits 0-19 the arrivals still pending in the current phase, bits 20-39
 * the expected arrivals, bits 40-61 the transaction count (22-bit two's
 * complement: expect-tx adds to it, complete-tx subtracts; the ISA's range
 * is +-(2^20 - 1)), bit 63 the phase's parity. arrive returns the object as
 * it was (the phase token), and the phase completes when the pending count
 * and the transaction count are both zero: the parity flips and the count
 * restarts at the expected count. test_wait/try_wait tell whether the phase
 * of a token (or of a parity) has completed. */
#include "emulator/ops.h"

#define MB_PENDING(v) ((v) & 0xfffffull)
#define MB_EXPECTED(v) (((v) >> 20) & 0xfffffull)
#define MB_TX(v) ptx_sext((v) >> 40, 22)
#define MB_PARITY(v) ((v) >> 63)
#define MB_MAKE(pending, expected, tx, parity)                                                  \
    ((uint64_t)(pending) | (uint64_t)(expected) << 20 | ((uint64_t)(tx) & 0x3fffffull) << 40 |  \
     (uint64_t)(parity) << 63)
#define MB_TX_MAX ((1 << 20) - 1)

/* The fault of a cp.async operand at a that is not aligned to the copy's
 * size (sim_mem reports it); false when it is aligned. */
static bool cp_misaligned(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t a,
                          uint32_t size, int kind)
{
    return (a & (size - 1)) && !sim_mem(c, in, t, space, a, size, kind);
}

/* cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size |
 * ignore-src}: the memory operand is the destination, the source address
 * is the program's address pool entry in->target; source 0 is cp-size,
 * source 1 (when nsrc_used > 1) src-size, the bytes read (the rest is
 * zero-filled), or with in->op the ignore-src predicate (zeros when true). */
HANDLER(op_cp_async)
{
    (void)g;
    const sim_addr *from_addr = &c->prog->addr_pool[in->target];
    EACH_LANE(t) {
        uint64_t size = SRC(0, t), from = size;
        if (in->nsrc_used > 1)
            from = in->op ? (SRC(1, t) ? 0 : size) : SRC(1, t);
        if (size != 4 && size != 8 && size != 16) {
            sim_fault(c, SIM_ERR_ILLEGAL, "cp.async of %llu bytes (4, 8 or 16), kernel %s, PTX line %u",
                      (unsigned long long)size, c->kernel, in->line);
            s->event = SIM_EV_FAULT;
            return;
        }
        uint64_t src = sim_addr_at(c, from_addr, t), dst = sim_address(c, in, t);
        if (cp_misaligned(c, in, t, PTX_SPACE_GLOBAL, src, (uint32_t)size, 1) ||
            cp_misaligned(c, in, t, in->space, dst, (uint32_t)size, 2)) {
            s->event = SIM_EV_FAULT;
            return;
        }
        uint8_t buf[16] = {0};
        if (from) {
            if (from > size)
                from = size;
            const uint8_t *p = sim_mem(c, in, t, PTX_SPACE_GLOBAL, src, (uint32_t)from, 1);
            if (!p) {
                s->event = SIM_EV_FAULT;
                return;
            }
            memcpy(buf, p, from);
        }
        uint8_t *p = sim_mem(c, in, t, in->space, dst, (uint32_t)size, 2);
        if (!p) {
            s->event = SIM_EV_FAULT;
            return;
        }
        memcpy(p, buf, size);
    }
}

enum { MB_INIT, MB_INVAL, MB_ARRIVE, MB_DROP, MB_TEST, MB_TEST_PARITY, MB_PENDING_COUNT, MB_CP_ARRIVE,
       MB_EXPECT_TX, MB_COMPLETE_TX, MB_ARRIVE_EXPECT_TX };

/* A fault of thread t at instruction in: the message, then "thread ..,
 * kernel .., PTX line ..". */
static void lane_fault(sim_cta *c, const sim_inst *in, uint32_t t, sim_error kind, const char *what)
{
    char who[96];
    sim_thread_coords(c, t, who, sizeof who);
    sim_fault(c, kind, "%s, %s, kernel %s, PTX line %u", what, who, c->kernel, in->line);
}

/* Update the mbarrier at p for thread t: n arrivals (drop: the expected
 * count of later phases falls by one), tx added to the transaction count;
 * the phase completes when both counts are zero. *state: the object
 * before. False after a fault. */
static bool mb_update(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t *p, uint64_t n, int64_t tx, bool drop,
                      uint64_t *state)
{
    uint64_t v;
    memcpy(&v, p, 8);
    *state = v;
    uint64_t pending = MB_PENDING(v), expected = MB_EXPECTED(v), parity = MB_PARITY(v);
    int64_t count = MB_TX(v) + tx;
    char what[160];
    if (n > pending) {
        snprintf(what, sizeof what, "mbarrier arrival of %llu with only %llu pending (too many arrivals, or an "
                 "uninitialized mbarrier)", (unsigned long long)n, (unsigned long long)pending);
        lane_fault(c, in, t, SIM_ERR_ILLEGAL, what);
        return false;
    }
    if (count > MB_TX_MAX || count < -MB_TX_MAX) {
        snprintf(what, sizeof what, "mbarrier transaction count %lld outside +-%d", (long long)count, MB_TX_MAX);
        lane_fault(c, in, t, SIM_ERR_ILLEGAL, what);
        return false;
    }
    if (drop && expected)
        expected--;
    pending -= n;
    if (pending == 0 && count == 0) {
        parity ^= 1;
        pending = expected;
    }
    v = MB_MAKE(pending, expected, count, parity);
    memcpy(p, &v, 8);
    return true;
}

bool sim_mbarrier_complete_tx(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t addr,
                              uint64_t bytes)
{
    uint8_t *p = sim_mem(c, in, t, space, addr, 8, 3);
    uint64_t state;
    if (p && bytes > MB_TX_MAX) {
        lane_fault(c, in, t, SIM_ERR_ILLEGAL, "complete-tx of more than 2^20 - 1 bytes");
        return false;
    }
    return p && mb_update(c, in, t, p, 0, -(int64_t)bytes, false, &state);
}

/* mbarrier.init/inval/arrive{.expect_tx}/arrive_drop/expect_tx/complete_tx/
 * test_wait/try_wait/pending_count and cp.async.mbarrier.arrive (op:
 * MB_*). Lanes act one after another. */
HANDLER(op_mbarrier)
{
    (void)g;
    EACH_LANE(t) {
        if (in->op == MB_PENDING_COUNT) { /* of a token: no memory */
            PUT(0, t, MB_PENDING(SRC(0, t)));
            continue;
        }
        uint8_t *p = sim_mem(c, in, t, in->space, sim_address(c, in, t), 8, 3);
        if (!p) {
            s->event = SIM_EV_FAULT;
            return;
        }
        uint64_t v, n = 0;
        int64_t tx = 0;
        memcpy(&v, p, 8);
        switch (in->op) {
        case MB_INIT: {
            uint64_t count = SRC(0, t);
            if (count == 0 || count > MB_TX_MAX) {
                lane_fault(c, in, t, SIM_ERR_ILLEGAL, "mbarrier.init count outside 1 .. 2^20 - 1");
                s->event = SIM_EV_FAULT;
                return;
            }
            v = MB_MAKE(count, count, 0, 0);
            memcpy(p, &v, 8);
            continue;
        }
        case MB_INVAL:
            memset(p, 0, 8);
            continue;
        case MB_TEST: /* the token's phase has completed: the parity moved on */
            PUT(0, t, MB_PARITY(v) != MB_PARITY(SRC(0, t)));
            continue;
        case MB_TEST_PARITY:
            PUT(0, t, MB_PARITY(v) != (SRC(0, t) & 1));
            continue;
        case MB_CP_ARRIVE: /* without .noinc the pending count rises and falls again: no change */
            if (!(in->flags & SIM_IF_NAN))
                continue;
            n = 1;
            break;
        case MB_EXPECT_TX: case MB_COMPLETE_TX: case MB_ARRIVE_EXPECT_TX:
            if (SRC(0, t) > MB_TX_MAX) {
                lane_fault(c, in, t, SIM_ERR_ILLEGAL, "mbarrier transaction count operand above 2^20 - 1");
                s->event = SIM_EV_FAULT;
                return;
            }
            tx = in->op == MB_COMPLETE_TX ? -(int64_t)SRC(0, t) : (int64_t)SRC(0, t);
            n = in->op == MB_ARRIVE_EXPECT_TX;
            break;
        default: /* MB_ARRIVE, MB_DROP: one arrival, or source 0 of them */
            n = in->nsrc_used > 0 ? SRC(0, t) : 1;
            break;
        }
        uint64_t state;
        if (!mb_update(c, in, t, p, n, tx, in->op == MB_DROP, &state)) {
            s->event = SIM_EV_FAULT;
            return;
        }
        if (in->ndst_used)
            PUT(0, t, state); /* the state token: the phase this arrival belongs to */
    }
}

/* cp.async.bulk: source 0 bytes from the pooled address in->target (in
 * state space in->op2) to the memory operand; with an mbarrier (op bit
 * BULK_MBAR, pooled at in->target + 1, in the destination's space) the
 * bytes complete transactions on it; .multicast::cluster (BULK_MULTICAST)
 * writes the same CTA-relative offsets, and signals the mbarrier at the
 * same offset, in every CTA of the cluster that source 1 (ctaMask) names;
 * .cp_mask (BULK_MASK): of each 16 bytes, byte i is written only when bit
 * i of source 1 (byteMask) is set. */
enum { BULK_MBAR = 1, BULK_MULTICAST = 2, BULK_MASK = 4 };

/* One bulk copy of n bytes (a multiple of 16) for thread t, from src to
 * dst (space dspace), 16 bytes at a time (the unit whose alignment the ISA
 * requires); false after a fault. */
static bool bulk_copy(sim_cta *c, const sim_inst *in, uint32_t t, uint64_t src, uint8_t dspace, uint64_t dst,
                      uint32_t n, uint64_t byte_mask)
{
    for (uint32_t off = 0; off < n; off += 16) {
        const uint8_t *from = sim_mem(c, in, t, in->op2, src + off, 16, 1);
        uint8_t *to = from ? sim_mem(c, in, t, dspace, dst + off, 16, 2) : NULL;
        if (!to)
            return false;
        for (unsigned i = 0; i < 16; i++)
            if (byte_mask >> i & 1)
                to[i] = from[i];
    }
    return true;
}

HANDLER(op_cp_async_bulk)
{
    (void)g;
    const sim_addr *pool = &c->prog->addr_pool[in->target];
    uint64_t low = (1ull << SIM_CLUSTER_RANK_SHIFT) - 1;
    EACH_LANE(t) {
        uint64_t size = SRC(0, t), src = sim_addr_at(c, &pool[0], t), dst = sim_address(c, in, t);
        if (size % 16 || size > UINT32_MAX || (src | dst) % 16) {
            lane_fault(c, in, t, size % 16 || size > UINT32_MAX ? SIM_ERR_ILLEGAL : SIM_ERR_MISALIGNED,
                       "cp.async.bulk needs a size that is a multiple of 16 and 16-byte aligned addresses");
            s->event = SIM_EV_FAULT;
            return;
        }
        uint64_t bar = in->op & BULK_MBAR ? sim_addr_at(c, &pool[1], t) : 0;
        uint64_t ranks = in->op & BULK_MULTICAST ? SRC(1, t) & 0xffff : 0;
        if (!(in->op & BULK_MULTICAST)) {
            if (!bulk_copy(c, in, t, src, in->space, dst, (uint32_t)size, in->op & BULK_MASK ? SRC(1, t) : ~0ull) ||
                ((in->op & BULK_MBAR) && !sim_mbarrier_complete_tx(c, in, t, in->space, bar, size))) {
                s->event = SIM_EV_FAULT;
                return;
            }
            continue;
        }
        for (uint64_t r = 0; r < 16; r++) {
            if (!(ranks >> r & 1))
                continue;
            uint64_t at = (r + 1) << SIM_CLUSTER_RANK_SHIFT;
            if (!bulk_copy(c, in, t, src, in->space, at | (dst & low), (uint32_t)size, ~0ull) ||
                !sim_mbarrier_complete_tx(c, in, t, in->space, at | (bar & low), size)) {
                s->event = SIM_EV_FAULT;
                return;
            }
        }
    }
}

HANDLER(op_async_nop) { UNUSED_ARGS; }

sim_fn sim_pick_async(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    unsigned n = sim_dec_nops(d);
    switch (op) {
    case PTX_OP_CP_ASYNC: {
        /* [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy} */
        unsigned last = n - (ptx_form_has(d->m, d->form, PTX_MOD_L2_CACHE_HINT) ? 1 : 0);
        if (last < 3 || last > 4 || (in->space != PTX_SPACE_SHARED && in->space != PTX_SPACE_SHARED_CTA) ||
            !sim_dec_addr(d, 0) || (in->target = sim_dec_addr_pooled(d, 1, PTX_SPACE_GLOBAL)) == PTX_NONE ||
            !sim_dec_src(d, 2, 0))
            return NULL;
        if (last == 4) {
            const ptx_operand *o = sim_dec_op(d, 3);
            in->op = o->kind == PTX_OPD_REG && d->f->regs[o->id].type == PTX_TYPE_PRED; /* ignore-src */
            if (!sim_dec_src(d, 3, 1))
                return NULL;
        }
        return op_cp_async;
    }
    case PTX_OP_CP_ASYNC_BULK: {
        /* [dst], [src], size{, [mbar]}{, ctaMask | byteMask}{, cache-policy} */
        const ptx_form *fm = d->form;
        bool mbar = ptx_form_has(d->m, fm, PTX_MOD_MBARRIER_COMPLETE_TX_BYTES);
        bool multicast = ptx_form_has(d->m, fm, PTX_MOD_MULTICAST_CLUSTER);
        bool mask = ptx_form_has(d->m, fm, PTX_MOD_CP_MASK);
        unsigned want = 3 + mbar + (multicast || mask) + ptx_form_has(d->m, fm, PTX_MOD_L2_CACHE_HINT);
        if (fm->nspaces != 2 || n != want || (multicast && !mbar) ||
            ptx_form_has(d->m, fm, PTX_MOD_MULTICAST_CLUSTER_ALL))
            return NULL;
        in->op = (uint8_t)((mbar ? BULK_MBAR : 0) | (multicast ? BULK_MULTICAST : 0) | (mask ? BULK_MASK : 0));
        in->op2 = fm->space[1];
        if (!sim_dec_addr(d, 0) || in->space != fm->space[0] ||
            (in->target = sim_dec_addr_pooled(d, 1, fm->space[1])) == PTX_NONE ||
            (mbar && sim_dec_addr_pooled(d, 3, in->space) != in->target + 1) || !sim_dec_src(d, 2, 0) ||
            ((multicast || mask) && !sim_dec_src(d, 3 + mbar, 1)))
            return NULL;
        return op_cp_async_bulk;
    }
    case PTX_OP_CP_ASYNC_COMMIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_ALL:
    case PTX_OP_CP_ASYNC_BULK_COMMIT_GROUP: case PTX_OP_CP_ASYNC_BULK_WAIT_GROUP: case PTX_OP_CP_ASYNC_BULK_PREFETCH:
        return op_async_nop;
    case PTX_OP_CP_ASYNC_MBARRIER_ARRIVE:
        in->op = MB_CP_ARRIVE;
        if (ptx_form_has(d->m, d->form, PTX_MOD_NOINC))
            in->flags |= SIM_IF_NAN; /* reused as ".noinc" */
        return n == 1 && sim_dec_addr(d, 0) ? op_mbarrier : NULL;
    case PTX_OP_MBARRIER_INIT:
        in->op = MB_INIT;
        return n == 2 && sim_dec_addr(d, 0) && sim_dec_src(d, 1, 0) ? op_mbarrier : NULL;
    case PTX_OP_MBARRIER_INVAL:
        in->op = MB_INVAL;
        return n == 1 && sim_dec_addr(d, 0) ? op_mbarrier : NULL;
    case PTX_OP_MBARRIER_EXPECT_TX: case PTX_OP_MBARRIER_COMPLETE_TX:
        in->op = op == PTX_OP_MBARRIER_EXPECT_TX ? MB_EXPECT_TX : MB_COMPLETE_TX;
        return n == 2 && sim_dec_addr(d, 0) && sim_dec_src(d, 1, 0) ? op_mbarrier : NULL;
    case PTX_OP_MBARRIER_ARRIVE: case PTX_OP_MBARRIER_ARRIVE_DROP: {
        bool expect = ptx_form_has(d->m, d->form, PTX_MOD_EXPECT_TX);
        if (sim_dec_mod(d, PTX_MODCAT_SHAPE))
            return NULL;
        in->op = expect ? MB_ARRIVE_EXPECT_TX : op == PTX_OP_MBARRIER_ARRIVE ? MB_ARRIVE : MB_DROP;
        if (n < 2 || n > 3 || (expect && n != 3) || !sim_dec_dst(d, 0, 0) || !sim_dec_addr(d, 1) ||
            (n == 3 && !sim_dec_src(d, 2, 0)))
            return NULL;
        return op_mbarrier;
    }
    case PTX_OP_MBARRIER_TEST_WAIT: case PTX_OP_MBARRIER_TRY_WAIT:
        in->op = ptx_form_has(d->m, d->form, PTX_MOD_PARITY) ? MB_TEST_PARITY : MB_TEST;
        if (n < 3 || n > 4 || !sim_dec_dst(d, 0, 0) || !sim_dec_addr(d, 1) || !sim_dec_src(d, 2, 0))
            return NULL;
        return op_mbarrier;
    case PTX_OP_MBARRIER_PENDING_COUNT:
        in->op = MB_PENDING_COUNT;
        return n == 2 && sim_dec_dst(d, 0, 0) && sim_dec_src(d, 1, 0) ? op_mbarrier : NULL;
    default:
        return NULL;
    }
}
