/* ops_cvt_half.c — cvt from f32 into the half-precision formats with the
 * modifiers of PTX ISA 9.0 ("cvt") that the plain conversions (ops_cvt.c)
 * do not have:
 *
 *  - cvt.{rn,rz}{.relu}{.satfinite}.{f16,bf16}.f32            d, a
 *  - cvt.{rn,rz}{.relu}{.satfinite}.{f16x2,bf16x2}.f32        d, a, b
 *  - cvt.rs{.relu}{.satfinite}.{f16x2,bf16x2}.f32             d, a, b, rbits
 *  - cvt.rna{.satfinite}.tf32.f32                             d, a
 *  - cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32                  d, a
 *
 * x2 forms put a into the upper half of d and b into the lower. Each value
 * is rounded once from its exact value (emulator/smallfloat.h): an overflow
 * gives infinity for .rn and .rna and the largest finite value for .rz,
 * as IEEE 754 roundings do. The ISA's modifiers:
 *  - .relu "clamps the result to 0 if negative. NaN results are converted
 *    to canonical NaN": a negative source gives +0, as the emulator's other
 *    .relu forms do (-0 stays -0);
 *  - .satfinite: "if the input value is NaN, then the result is NaN";
 *    "if the absolute value of input (ignoring sign) is greater than
 *    MAX_NORM of the specified destination format, then the result is
 *    sign-preserved MAX_NORM" (infinities included);
 *  - .rs rounds toward or away from zero by the carry of random bits added
 *    to the discarded bits (SIM_RND_RS in emulator/smallfloat.h). rbits: "When
 *    converting to .f16x2, ... 13 LSBs from upper 16-bits are used as
 *    random bits for operand a ... and 13 LSBs from lower 16-bits ... for
 *    operand b"; for .bf16x2 the upper 16 bits for a, the lower 16 for b.
 * NaN results are the canonical NaN: 0x7fff for f16 and bf16.
 *
 * tf32: the ISA leaves the layout of a .tf32 value in its .b32 register
 * to the implementation; here it is what NVIDIA's cvt.rna.tf32.f32 gives,
 * the f32 encoding of the value rounded to 10 mantissa bits (f32's
 * exponent range, subnormals at f32's least exponent), whose 13 low bits
 * are 0; NaN is the emulator's canonical f32 NaN 0x7fffffff. */
#include <math.h>

#include "emulator/ops.h"
#include "emulator/smallfloat.h"

/* A destination format: exponent and mantissa bits, and the random bits
 * an .rs conversion takes per value. */
typedef struct half_fmt {
    unsigned eb, mb, rbits;
} half_fmt;

static const half_fmt F16 = {5, 10, 13}, BF16 = {8, 7, 16}, TF32 = {8, 10, 0};

/* The format of destination type ty. */
static half_fmt format_of(uint8_t ty)
{
    return ty == PTX_TYPE_F16 || ty == PTX_TYPE_F16X2 ? F16 : ty == PTX_TYPE_TF32 ? TF32 : BF16;
}

/* x (an f32 value) in format f as the instruction converts it (relu:
 * in->op2, .satfinite: in->sat, rounding in->rnd, rbits its random bits
 * for .rs); NaN gives the format's all-ones-but-sign pattern. */
static uint64_t convert(const sim_inst *in, double x, half_fmt f, uint32_t rbits)
{
    if (isnan(x))
        return (1ull << (f.eb + f.mb)) - 1;
    if (in->op2 && x < 0)
        x = 0.0;
    uint64_t maxfin = sim_small_float_max(f.eb, f.mb);
    if (in->sat && fabs(x) > sim_from_small_float(maxfin, f.eb, f.mb))
        return (signbit(x) ? 1ull << (f.eb + f.mb) : 0) | maxfin;
    if (in->rnd == SIM_RND_RS)
        return sim_to_small_float_rs(x, f.eb, f.mb, rbits, f.rbits);
    return sim_to_small_float(x, in->rnd, f.eb, f.mb);
}

/* One f32 (bits v) into tf32 as an f32 pattern (see the file comment). */
static uint64_t to_tf32(const sim_inst *in, uint64_t v)
{
    double x = f32_of(v);
    if (isnan(x))
        return 0x7fffffffu;
    return convert(in, x, TF32, 0) << 13;
}

HANDLER(op_cvt_half)
{
    (void)g; (void)s;
    half_fmt f = format_of(in->type);
    bool x2 = in->type == PTX_TYPE_F16X2 || in->type == PTX_TYPE_BF16X2;
    EACH_LANE(t) {
        uint64_t r;
        if (in->type == PTX_TYPE_TF32) {
            r = to_tf32(in, SRC(0, t));
        } else if (x2) {
            uint32_t rbits = in->rnd == SIM_RND_RS ? (uint32_t)SRC(2, t) : 0;
            r = convert(in, f32_of(SRC(0, t)), f, rbits >> 16) << 16 |
                convert(in, f32_of(SRC(1, t)), f, rbits & 0xffff);
        } else {
            r = convert(in, f32_of(SRC(0, t)), f, 0);
        }
        PUT(0, t, r);
    }
}

/* Decode the forms in the file comment; the plain scalar conversions
 * (without .relu and .satfinite) are ops_cvt.c's. */
sim_fn sim_pick_cvt_half(sim_decoder *d)
{
    sim_inst *in = d->in;
    uint8_t ty = in->type;
    if ((ptx_opcode)d->form->opcode != PTX_OP_CVT || d->form->ntypes != 2 || in->type2 != PTX_TYPE_F32 ||
        in->ftz)
        return NULL;
    bool scalar = ty == PTX_TYPE_F16 || ty == PTX_TYPE_BF16, x2 = ty == PTX_TYPE_F16X2 || ty == PTX_TYPE_BF16X2;
    if (!scalar && !x2 && ty != PTX_TYPE_TF32)
        return NULL;
    ptx_modifier sat = sim_dec_mod(d, PTX_MODCAT_SAT);
    bool relu = sim_dec_mod(d, PTX_MODCAT_RELU) != PTX_MOD_NONE, satfinite = sat == PTX_MOD_SATFINITE;
    if (sat != PTX_MOD_NONE && !satfinite)
        return NULL; /* .sat is not a modifier of these forms */
    if (scalar && !relu && !satfinite)
        return NULL; /* cvt.rn.f16.f32 and the like: ops_cvt.c */
    ptx_modifier rm = sim_dec_mod(d, PTX_MODCAT_ROUND);
    if (rm == PTX_MOD_RNI || rm == PTX_MOD_RZI || rm == PTX_MOD_RMI || rm == PTX_MOD_RPI)
        return NULL; /* the integer roundings, which in->rnd does not tell apart, are not these forms' */
    bool rs = in->rnd == SIM_RND_RS;
    if (!(in->rnd == 1 || in->rnd == 2 || (rs && x2) || (in->rnd == 5 && ty == PTX_TYPE_TF32 && !relu)))
        return NULL; /* .rn/.rz; .rs only for the x2 forms; .rna only for tf32, without .relu */
    unsigned nsrc = x2 ? (rs ? 3 : 2) : 1;
    if (sim_dec_nops(d) != nsrc + 1 || !sim_dec_dst(d, 0, 0))
        return NULL;
    for (unsigned k = 0; k < nsrc; k++)
        if (!sim_dec_src(d, k + 1, k))
            return NULL;
    in->op2 = relu;
    in->sat = satfinite;
    return op_cvt_half;
}
