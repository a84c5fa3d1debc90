/* ops_async.c — asynchronous copies and mbarriers (PTX ISA 9.0,
 * "cp.async", "mbarrier").
 *
 * A cp.async copy completes at once, which no race-free program can tell
 * from a copy that completes at its wait: commit and wait are no-ops.
 *
 * An mbarrier is a 64-bit object in shared (or global) memory; its layout
 * is the emulator's own (programs only pass it to mbarrier instructions):
 * bits 0-30 the arrivals still pending in the current phase, bits 31-61
 * the expected arrivals, bit 63 the phase's parity. arrive returns the
 * object as it was (the phase token), and the phase completes when the
 * pending count reaches zero: the parity flips and the count restarts at
 * the expected count. test_wait/try_wait tell whether the phase of a token
 * (or of a parity) has completed. Transaction counts (expect_tx, bulk
 * copies) are not modelled yet. */
#include "emu/ops.h"

#define MB_PENDING(v) ((v) & 0x7fffffffull)
#define MB_EXPECTED(v) (((v) >> 31) & 0x7fffffffull)
#define MB_PARITY(v) ((v) >> 63)
#define MB_MAKE(pending, expected, parity)                                                      \
    ((uint64_t)(pending) | (uint64_t)(expected) << 31 | (uint64_t)(parity) << 63)

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

enum { MB_INIT, MB_INVAL, MB_ARRIVE, MB_DROP, MB_TEST, MB_TEST_PARITY, MB_PENDING_COUNT, MB_CP_ARRIVE };

/* The mbarrier at the memory operand for thread t, or NULL after a fault. */
static uint8_t *barrier_at(sim_cta *c, const sim_inst *in, uint32_t t, sim_step *s)
{
    uint8_t *p = sim_mem(c, in, t, in->space, sim_address(c, in, t), 8, 3);
    if (!p)
        s->event = SIM_EV_FAULT;
    return p;
}

/* mbarrier.init/inval/arrive/arrive_drop/test_wait/try_wait/pending_count
 * and cp.async.mbarrier.arrive (op: MB_*). Lanes act one after another. */
HANDLER(op_mbarrier)
{
    (void)g;
    EACH_LANE(t) {
        if (in->op == MB_PENDING_COUNT) { /* of a token: no memory */
            PUT(0, t, MB_PENDING(SRC(0, t)));
            continue;
        }
        uint8_t *p = barrier_at(c, in, t, s);
        if (!p)
            return;
        uint64_t v;
        memcpy(&v, p, 8);
        switch (in->op) {
        case MB_INIT: {
            uint64_t n = SRC(0, t) & 0x7fffffff;
            v = MB_MAKE(n, n, 0);
            break;
        }
        case MB_INVAL:
            v = 0;
            break;
        case MB_ARRIVE: case MB_DROP: case MB_CP_ARRIVE: {
            uint64_t n = in->op != MB_CP_ARRIVE && in->nsrc_used > 0 ? SRC(0, t) : 1;
            uint64_t pending = MB_PENDING(v), expected = MB_EXPECTED(v), parity = MB_PARITY(v);
            if (in->op == MB_CP_ARRIVE && !(in->flags & SIM_IF_NAN)) /* without .noinc: net zero */
                break;
            if (n > pending) {
                char who[96];
                sim_thread_coords(c, t, who, sizeof who);
                sim_fault(c, SIM_ERR_ILLEGAL, "mbarrier arrival of %llu with only %llu pending (too many arrivals, "
                          "or an uninitialized mbarrier), %s, kernel %s, PTX line %u",
                          (unsigned long long)n, (unsigned long long)pending, who, c->kernel, in->line);
                s->event = SIM_EV_FAULT;
                return;
            }
            if (in->ndst_used)
                PUT(0, t, v); /* the state token: the phase this arrival belongs to */
            if (in->op == MB_DROP)
                expected -= expected ? 1 : 0;
            pending -= n;
            if (pending == 0) {
                parity ^= 1;
                pending = expected;
            }
            v = MB_MAKE(pending, expected, parity);
            break;
        }
        case MB_TEST: /* the token's phase has completed: the parity moved on */
            PUT(0, t, MB_PARITY(v) != MB_PARITY(SRC(0, t)));
            continue;
        default: /* MB_TEST_PARITY */
            PUT(0, t, MB_PARITY(v) != (SRC(0, t) & 1));
            continue;
        }
        memcpy(p, &v, 8);
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
    case PTX_OP_CP_ASYNC_COMMIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_GROUP: case PTX_OP_CP_ASYNC_WAIT_ALL:
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
    case PTX_OP_MBARRIER_ARRIVE: case PTX_OP_MBARRIER_ARRIVE_DROP:
        if (ptx_form_has(d->m, d->form, PTX_MOD_EXPECT_TX) || sim_dec_mod(d, PTX_MODCAT_SHAPE))
            return NULL;
        in->op = op == PTX_OP_MBARRIER_ARRIVE ? MB_ARRIVE : MB_DROP;
        if (n < 2 || n > 3 || !sim_dec_dst(d, 0, 0) || !sim_dec_addr(d, 1) ||
            (n == 3 && !sim_dec_src(d, 2, 0)))
            return NULL;
        return op_mbarrier;
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
