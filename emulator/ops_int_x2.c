/* ops_int_x2.c — packed 16-bit integer arithmetic: add, min and max on
 * .u16x2 / .s16x2 (PTX ISA 9.0, "add", "min", "max": the half words
 * a[0:15], a[16:31] of each operand are processed in parallel into the
 * same halves of d), min/max .relu on .s16x2, and min/max .relu on .s32.
 *
 * .relu clamps a negative result to 0: the CUDA Math API documents
 * __vimax_s16x2_relu, which nvcc compiles to max.s16x2.relu, as "performs
 * per-halfword max(max(a, b), 0)" and __vimax_s32_relu as
 * max(max(a, b), 0). */
#include "emulator/ops.h"

enum { X2_ADD, X2_MIN, X2_MAX };

/* One 16-bit half (op: X2_*; sg signed halves; relu). */
static inline uint64_t half_op(uint8_t op, bool sg, bool relu, uint64_t a, uint64_t b)
{
    if (op == X2_ADD)
        return (a + b) & 0xffff; /* the sum wraps in 16 bits */
    int64_t x = sg ? ptx_sext(a, 16) : (int64_t)a, y = sg ? ptx_sext(b, 16) : (int64_t)b;
    int64_t r = (x < y) == (op == X2_MIN) ? x : y;
    if (relu && r < 0)
        r = 0;
    return (uint64_t)r & 0xffff;
}

/* add / min / max (op) on u16x2 / s16x2 (op2 bit 0: signed, bit 1: .relu). */
HANDLER(op_int_x2)
{
    (void)g; (void)s;
    bool sg = in->op2 & 1, relu = in->op2 & 2;
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), b = SRC(1, t);
        PUT(0, t, half_op(in->op, sg, relu, a & 0xffff, b & 0xffff) |
                      half_op(in->op, sg, relu, (a >> 16) & 0xffff, (b >> 16) & 0xffff) << 16);
    }
}

/* min.relu.s32 / max.relu.s32 (op: X2_MIN, X2_MAX). */
HANDLER(op_minmax_relu)
{
    (void)g; (void)s;
    EACH_LANE(t) {
        int64_t a = ptx_sext(SRC(0, t), 32), b = ptx_sext(SRC(1, t), 32);
        int64_t r = (a < b) == (in->op == X2_MIN) ? a : b;
        PUT(0, t, (uint64_t)(r < 0 ? 0 : r));
    }
}

sim_fn sim_pick_int_x2(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    if (op != PTX_OP_ADD && op != PTX_OP_MIN && op != PTX_OP_MAX)
        return NULL;
    bool u = ptx_form_has(d->m, d->form, PTX_MOD_U16X2), sg = ptx_form_has(d->m, d->form, PTX_MOD_S16X2);
    bool relu = sim_dec_mod(d, PTX_MODCAT_RELU) != PTX_MOD_NONE;
    bool s32 = in->type == PTX_TYPE_S32 && relu && op != PTX_OP_ADD;
    if (!(u || sg || s32) || (relu && (u || op == PTX_OP_ADD)) || in->sat)
        return NULL;
    if (sim_dec_nops(d) != 3 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) || !sim_dec_src(d, 2, 1))
        return NULL;
    in->op = op == PTX_OP_ADD ? X2_ADD : op == PTX_OP_MIN ? X2_MIN : X2_MAX;
    in->op2 = (uint8_t)(sg | relu << 1);
    return s32 ? op_minmax_relu : op_int_x2;
}
