/* ops_cvt_narrow.c — cvt between f32, f16x2, bf16x2 and the packed narrow
 * formats of PTX ISA 9.0 ("cvt"): fp8 (e4m3x2, e5m2x2), fp6 (e2m3x2,
 * e3m2x2), fp4 (e2m1x2) and ue8m0x2.
 *
 *  - cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2}.f32 d, a, b
 *  - cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2,e2m1x2}.f16x2 d, a (e2m1x2: in
 *    the ISA's syntax from PTX ISA 9.1 on; ptxas of CUDA 13.0 takes it in
 *    9.0 code)
 *  - cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2} d, a
 *  - cvt.{rz,rp}{.satfinite}.ue8m0x2.{f32 d, a, b | bf16x2 d, a}
 *  - cvt.rn.bf16x2.ue8m0x2 d, a
 *  - cvt.rs{.relu}.satfinite.{e4m3x4,e5m2x4,e2m3x4,e3m2x4,e2m1x4}.f32
 *    d, {a, b, e, f}, rbits
 *
 * Two values go into one register: a (or the upper half of a packed
 * source) into the upper element, b (or the lower half) into the lower;
 * elements are 8 bits wide (fp6 in the low 6, the upper 2 zero) or 4 bits
 * for e2m1x2. The x4 forms put a, b, e, f from the most significant
 * element down. The rounding and saturation rules are in
 * emulator/smallfloat.h. .relu makes negative values +0 and NaN results
 * canonical NaN.
 *
 * .rs rounds each value stochastically (SIM_RND_RS in emulator/smallfloat.h)
 * with random bits from rbits. The ISA: "When converting to
 * .e4m3x4/.e5m2x4/.e2m3x4/.e3m2x4, two 16-bit values are provided from
 * rbits where lower 16-bits are used for operands e, f and upper 16 bits
 * are used for operands a, b. When converting to .e2m1x4, two 16-bit
 * values are provided from rbits where lower 8-bits from both 16-bits half
 * of rbits are used for operands e, f and upper 8-bits from both 16-bits
 * half of rbits are used for operands a, b." Its figures of the layout
 * are not part of the text; the literal reading taken here:
 *  - fp8 and fp6: the 16 bits rbits[31:16] are the random bits of a and
 *    also of b; rbits[15:0] those of e and of f;
 *  - e2m1: 8 random bits each, the upper value of a pair from the upper
 *    16-bit half as in the f16x2/bf16x2 forms: a rbits[31:24],
 *    b rbits[15:8], e rbits[23:16], f rbits[7:0]. */
#include <math.h>

#include "emulator/ops.h"
#include "emulator/smallfloat.h"

/* The handler's conversion (in->op). */
enum {
    N_FROM_F32,      /* d, a, b: two f32 into a narrow pair */
    N_FROM_F16X2,    /* d, a: an f16x2 into an fp8 or fp4 pair */
    N_TO_F16X2,      /* d, a: a narrow pair into f16x2 */
    N_UE8M0_F32,     /* d, a, b: two f32 into ue8m0x2 */
    N_UE8M0_BF16X2,  /* d, a: a bf16x2 into ue8m0x2 */
    N_BF16X2_UE8M0,  /* d, a: a ue8m0x2 into bf16x2 */
    N_RS_X4          /* d, {a, b, e, f}, rbits: four f32 into a narrow quad (.rs); type2 the element type */
};

/* The narrow format of packed type (or element type) ty and its element
 * width in bits. */
static sim_narrow_fmt narrow_of(uint8_t ty, unsigned *bits)
{
    *bits = ty == PTX_TYPE_E2M1X2 || ty == PTX_TYPE_E2M1 ? 4 : 8;
    switch (ty) {
    case PTX_TYPE_E4M3X2: case PTX_TYPE_E4M3: return SIM_E4M3;
    case PTX_TYPE_E5M2X2: case PTX_TYPE_E5M2: return SIM_E5M2;
    case PTX_TYPE_E2M3X2: case PTX_TYPE_E2M3: return SIM_E2M3;
    case PTX_TYPE_E3M2X2: case PTX_TYPE_E3M2: return SIM_E3M2;
    default: return SIM_E2M1;
    }
}

/* The random bits of element k (0 for a ... 3 for f) of an .rs quad and
 * how many there are (see the file comment). */
static inline uint32_t quad_rbits(uint32_t rbits, unsigned k, bool e2m1, unsigned *nbits)
{
    static const unsigned e2m1_shift[4] = {24, 8, 16, 0};
    *nbits = e2m1 ? 8 : 16;
    return e2m1 ? (rbits >> e2m1_shift[k]) & 0xff : k < 2 ? rbits >> 16 : rbits & 0xffff;
}

/* One value into format f with .satfinite (relu: .relu). */
static inline uint64_t to_narrow(double x, sim_narrow_fmt f, bool relu)
{
    if (relu && x < 0)
        x = 0.0;
    return sim_to_narrow_satfinite(x, f);
}

/* One narrow element into f16 bits: exact (every fp8, fp6 and fp4 value
 * is an f16), NaN canonical. */
static inline uint64_t narrow_to_f16(uint64_t v, sim_narrow_fmt f, bool relu)
{
    double x = sim_from_narrow(v, f);
    if (isnan(x))
        return 0x7fff;
    if (relu && x < 0)
        x = 0.0;
    return sim_to_small_float(x, 1, 5, 10);
}

/* ue8m0 bits into bf16 bits: 2^(e - 127) is exact in bf16 (2^-127 as the
 * subnormal 0x0040); 0xff is NaN. */
static inline uint64_t ue8m0_to_bf16(uint64_t e)
{
    return e == 0xff ? 0x7fff : e == 0 ? 0x0040 : e << 7;
}

HANDLER(op_cvt_narrow)
{
    (void)g; (void)s;
    bool relu = in->op2, satfinite = in->sat;
    unsigned w;
    sim_narrow_fmt f = narrow_of(in->op == N_TO_F16X2 || in->op == N_RS_X4 ? in->type2 : in->type, &w);
    uint64_t emask = (1ull << w) - 1;
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), r = 0;
        switch (in->op) {
        case N_FROM_F32:
            r = to_narrow(f32_of(a), f, relu) << w | to_narrow(f32_of(SRC(1, t)), f, relu);
            break;
        case N_FROM_F16X2:
            r = to_narrow(sim_from_small_float(a >> 16 & 0xffff, 5, 10), f, relu) << w |
                to_narrow(sim_from_small_float(a & 0xffff, 5, 10), f, relu);
            break;
        case N_TO_F16X2: {
            uint64_t keep = (1ull << (f.eb + f.mb + 1)) - 1; /* fp6: the 2 upper bits are padding */
            r = narrow_to_f16((a >> w) & emask & keep, f, relu) << 16 | narrow_to_f16(a & emask & keep, f, relu);
            break;
        }
        case N_UE8M0_F32:
            r = sim_to_ue8m0(f32_of(a), in->rnd, satfinite) << 8 |
                sim_to_ue8m0(f32_of(SRC(1, t)), in->rnd, satfinite);
            break;
        case N_UE8M0_BF16X2:
            r = sim_to_ue8m0(sim_from_small_float(a >> 16 & 0xffff, 8, 7), in->rnd, satfinite) << 8 |
                sim_to_ue8m0(sim_from_small_float(a & 0xffff, 8, 7), in->rnd, satfinite);
            break;
        case N_BF16X2_UE8M0:
            r = ue8m0_to_bf16(a >> 8 & 0xff) << 16 | ue8m0_to_bf16(a & 0xff);
            break;
        default: /* N_RS_X4 */
            for (unsigned k = 0; k < 4; k++) {
                double x = f32_of(SRC(k, t));
                unsigned nbits;
                uint32_t rb = quad_rbits((uint32_t)SRC(4, t), k, w == 4, &nbits);
                r |= sim_to_narrow_satfinite_rs(relu && x < 0 ? 0.0 : x, f, rb, nbits) << (w * (3 - k));
            }
            break;
        }
        PUT(0, t, r);
    }
}

/* Is ty one of the packed narrow float pairs (not ue8m0x2)? */
static bool narrow_pair(uint8_t ty)
{
    return ty == PTX_TYPE_E4M3X2 || ty == PTX_TYPE_E5M2X2 || ty == PTX_TYPE_E2M3X2 || ty == PTX_TYPE_E3M2X2 ||
           ty == PTX_TYPE_E2M1X2;
}

/* The element type of an .rs quad destination, or PTX_TYPE_NONE: the x4
 * types, or .e2m3x4/.e3m2x4, which the IR has as modifiers (the form's
 * only type is then .f32). */
static uint8_t quad_element(const sim_decoder *d)
{
    const ptx_form *fm = d->form;
    if (fm->ntypes == 1 && fm->type[0] == PTX_TYPE_F32)
        return ptx_form_has(d->m, fm, PTX_MOD_E2M3X4)   ? PTX_TYPE_E2M3
               : ptx_form_has(d->m, fm, PTX_MOD_E3M2X4) ? PTX_TYPE_E3M2
                                                        : PTX_TYPE_NONE;
    if (fm->ntypes != 2 || fm->type[1] != PTX_TYPE_F32)
        return PTX_TYPE_NONE;
    switch (fm->type[0]) {
    case PTX_TYPE_E4M3X4: return PTX_TYPE_E4M3;
    case PTX_TYPE_E5M2X4: return PTX_TYPE_E5M2;
    case PTX_TYPE_E2M1X4: return PTX_TYPE_E2M1;
    default: return PTX_TYPE_NONE;
    }
}

/* Decode cvt.rs{.relu}.satfinite.<quad>.f32 d, {a, b, e, f}, rbits. */
static sim_fn pick_rs_quad(sim_decoder *d, uint8_t element)
{
    sim_inst *in = d->in;
    const ptx_operand *v = sim_dec_nops(d) == 3 ? sim_dec_op(d, 1) : NULL;
    if (in->rnd != SIM_RND_RS || sim_dec_mod(d, PTX_MODCAT_SAT) != PTX_MOD_SATFINITE || !v ||
        v->kind != PTX_OPD_VEC || v->count != 4 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) ||
        !sim_dec_src(d, 2, 4))
        return NULL;
    in->op = N_RS_X4;
    in->op2 = sim_dec_mod(d, PTX_MODCAT_RELU) != PTX_MOD_NONE;
    in->type2 = element;
    in->sat = 1;
    return op_cvt_narrow;
}

sim_fn sim_pick_cvt_narrow(sim_decoder *d)
{
    sim_inst *in = d->in;
    if ((ptx_opcode)d->form->opcode != PTX_OP_CVT || in->ftz)
        return NULL;
    ptx_modifier rm = sim_dec_mod(d, PTX_MODCAT_ROUND);
    if (rm == PTX_MOD_RNI || rm == PTX_MOD_RZI || rm == PTX_MOD_RMI || rm == PTX_MOD_RPI)
        return NULL; /* the integer roundings, which in->rnd does not tell apart, are not these forms' */
    uint8_t element = quad_element(d);
    if (element != PTX_TYPE_NONE)
        return pick_rs_quad(d, element);
    if (d->form->ntypes != 2)
        return NULL;
    uint8_t dt = in->type, st = in->type2;
    ptx_modifier sat = sim_dec_mod(d, PTX_MODCAT_SAT);
    bool relu = sim_dec_mod(d, PTX_MODCAT_RELU) != PTX_MOD_NONE, satfinite = sat == PTX_MOD_SATFINITE;
    if (sat != PTX_MOD_NONE && !satfinite)
        return NULL; /* .sat is not a modifier of these forms */
    unsigned nsrc;
    if (narrow_pair(dt) && st == PTX_TYPE_F32) {
        in->op = N_FROM_F32;
        nsrc = 2;
    } else if ((dt == PTX_TYPE_E4M3X2 || dt == PTX_TYPE_E5M2X2 || dt == PTX_TYPE_E2M1X2) && st == PTX_TYPE_F16X2) {
        in->op = N_FROM_F16X2;
        nsrc = 1;
    } else if (dt == PTX_TYPE_F16X2 && narrow_pair(st)) {
        in->op = N_TO_F16X2;
        nsrc = 1;
    } else if (dt == PTX_TYPE_UE8M0X2 && (st == PTX_TYPE_F32 || st == PTX_TYPE_BF16X2)) {
        in->op = st == PTX_TYPE_F32 ? N_UE8M0_F32 : N_UE8M0_BF16X2;
        nsrc = st == PTX_TYPE_F32 ? 2 : 1;
    } else if (dt == PTX_TYPE_BF16X2 && st == PTX_TYPE_UE8M0X2) {
        in->op = N_BF16X2_UE8M0;
        nsrc = 1;
    } else {
        return NULL;
    }
    switch (in->op) {
    case N_FROM_F32: case N_FROM_F16X2:
        if (in->rnd != 1 || !satfinite) /* .rn.satfinite is mandatory */
            return NULL;
        break;
    case N_TO_F16X2:
        if (in->rnd != 1 || satfinite)
            return NULL;
        break;
    case N_UE8M0_F32: case N_UE8M0_BF16X2:
        if ((in->rnd != 2 && in->rnd != 4) || relu) /* .rz or .rp */
            return NULL;
        break;
    default:
        if (in->rnd != 1 || relu || satfinite)
            return NULL;
        break;
    }
    if (sim_dec_nops(d) != nsrc + 1 || !sim_dec_dst(d, 0, 0))
        return NULL;
    for (unsigned k = 0; k < nsrc; k++)
        if (!sim_dec_src(d, k + 1, k))
            return NULL;
    in->op2 = relu;
    in->sat = satfinite;
    return op_cvt_narrow;
}
