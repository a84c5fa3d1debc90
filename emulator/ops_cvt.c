/* ops_cvt.c — cvt between integer, f16, bf16, f32 and f64 types (PTX ISA
 * 9.0, "cvt"), cvt.pack, and mov.
 *
 *  - integer to integer: the source value (extended by its own signedness)
 *    truncated to the destination, or clamped to its range with .sat;
 *  - integer to float: rounded by the mode (.rn .rz .rm .rp);
 *  - float to integer: rounded to an integer by .rni .rzi .rmi .rpi, then
 *    clamped to the destination range; NaN gives 0, or 1 << (width - 1)
 *    from f64 or into 64 bits, as the ISA states;
 *  - float to float: narrowing rounds by the mode; .rni... round to an
 *    integral value in the same format; .ftz flushes f32 subnormals; .sat
 *    clamps to [0, 1].
 * f16 and bf16 values are rounded in software from the exact double value,
 * so every mode and subnormals are exact; their NaN is 0x7fff. */
#include <fenv.h>
#include <math.h>

#include "emulator/ops.h"
#include "emulator/smallfloat.h"

/* Source value of type ty as a double (floats exactly). */
static double float_value(uint8_t ty, uint64_t v, bool ftz)
{
    switch (ty) {
    case PTX_TYPE_F16: return sim_from_small_float(v, 5, 10);
    case PTX_TYPE_BF16: return sim_from_small_float(v, 8, 7);
    case PTX_TYPE_F32: {
        float f = f32_of(v);
        if (ftz && fpclassify(f) == FP_SUBNORMAL)
            f = copysignf(0.0f, f);
        return f;
    }
    default: return f64_of(v);
    }
}

/* Clamp an integral double to the range of integer type ty. NaN, as the
 * ISA states: 0 unless the source type st is f64 or the destination is
 * 64 bits wide, then 1 << (w - 1) (MININT, or MAXINT / 2 + 1 unsigned). */
static uint64_t float_to_int(double x, uint8_t ty, uint8_t st)
{
    unsigned w = type_bits(ty);
    if (isnan(x))
        return st == PTX_TYPE_F64 || w == 64 ? 1ull << (w - 1) : 0;
    if (type_signed(ty)) {
        double lo = -ldexp(1.0, (int)w - 1), hi = ldexp(1.0, (int)w - 1);
        if (x <= lo)
            return (uint64_t)(w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1)));
        if (x >= hi)
            return w >= 64 ? (uint64_t)INT64_MAX : ((1ull << (w - 1)) - 1);
        return (uint64_t)(int64_t)x;
    }
    if (x <= 0)
        return 0;
    if (x >= ldexp(1.0, (int)w))
        return w >= 64 ? UINT64_MAX : (1ull << w) - 1;
    return (uint64_t)x;
}

/* A double value into float type ty, rounded by rnd (.ftz and .sat after). */
static uint64_t to_float(const sim_inst *in, double x, uint8_t ty)
{
    if (in->sat && !isnan(x))
        x = x < 0 ? 0.0 : x > 1 ? 1.0 : x;
    else if (in->sat)
        x = 0.0;
    switch (ty) {
    case PTX_TYPE_F16: return sim_to_small_float(x, in->rnd, 5, 10);
    case PTX_TYPE_BF16: return sim_to_small_float(x, in->rnd, 8, 7);
    case PTX_TYPE_F32: {
        uint64_t b = sim_to_small_float(x, in->rnd, 8, 23);
        float f = f32_of(b);
        if (in->ftz && fpclassify(f) == FP_SUBNORMAL)
            b = bits_f32(copysignf(0.0f, f));
        return isnan(x) ? 0x7fffffffull : b;
    }
    default: {
        if (isnan(x))
            return 0x7fffffffffffffffull;
        return bits_f64(x); /* the source was f64 or narrower: exact */
    }
    }
}

/* An integer (held in 64 bits) to a float: rounded by the mode. */
static uint64_t int_to_float(const sim_inst *in, uint64_t v, bool sg, uint8_t ty)
{
    if (ty == PTX_TYPE_F64 && (sg ? (ptx_sext(v, 64) > (1ll << 53) || ptx_sext(v, 64) < -(1ll << 53)) : v > (1ull << 53))) {
        int old = fegetround();
        fesetround(in->rnd == 2 ? FE_TOWARDZERO : in->rnd == 3 ? FE_DOWNWARD
                   : in->rnd == 4 ? FE_UPWARD : FE_TONEAREST);
        double d = sg ? (double)(int64_t)v : (double)v;
        fesetround(old);
        return bits_f64(d);
    }
    /* the value fits a double exactly when |v| <= 2^53; otherwise for
     * narrower targets round in two exact steps: split v = hi + lo */
    if (sg ? (ptx_sext(v, 64) <= (1ll << 53) && ptx_sext(v, 64) >= -(1ll << 53)) : v <= (1ull << 53))
        return to_float(in, sg ? (double)(int64_t)v : (double)v, ty);
    /* |v| > 2^53 for an f32/f16 target: keep a sticky bit so one rounding
     * of the truncated double gives the right result */
    bool neg = sg && (int64_t)v < 0;
    uint64_t mag = neg ? 0 - v : v;
    unsigned shift = 64 - (unsigned)__builtin_clzll(mag) - 53;
    uint64_t kept = mag >> shift, lost = mag & ((1ull << shift) - 1);
    double dd = ldexp((double)(kept | (lost != 0)), (int)shift); /* sticky in bit 0 */
    return to_float(in, neg ? -dd : dd, ty);
}

HANDLER(op_cvt)
{
    (void)g; (void)s;
    uint8_t dt = in->type, st = in->type2;
    unsigned dw = type_bits(dt), sw = type_bits(st);
    bool dfl = type_float(dt), sfl = type_float(st), ssg = type_signed(st);
    EACH_LANE(t) {
        uint64_t v = SRC(0, t), r;
        if (!dfl && !sfl) { /* integer to integer */
            int64_t x = ssg ? ptx_sext(v, sw) : (int64_t)ptx_zext(v, sw);
            if (in->sat) {
                if (type_signed(dt)) {
                    int64_t lo = dw >= 64 ? INT64_MIN : -((int64_t)1 << (dw - 1));
                    int64_t hi = dw >= 64 ? INT64_MAX : ((int64_t)1 << (dw - 1)) - 1;
                    if (!ssg && ptx_zext(v, sw) > (uint64_t)hi)
                        x = hi;
                    else
                        x = x < lo ? lo : x > hi ? hi : x;
                } else {
                    uint64_t hi = dw >= 64 ? UINT64_MAX : (1ull << dw) - 1;
                    if (ssg && x < 0)
                        x = 0;
                    else if ((uint64_t)x > hi)
                        x = (int64_t)hi;
                }
            }
            r = type_signed(dt) ? (uint64_t)ptx_sext((uint64_t)x, dw) : ptx_zext((uint64_t)x, dw);
        } else if (!sfl) { /* integer to float */
            r = int_to_float(in, ssg ? (uint64_t)ptx_sext(v, sw) : ptx_zext(v, sw), ssg, dt);
        } else if (!dfl) { /* float to integer */
            double x = float_value(st, v, in->ftz);
            double n = isnan(x) || isinf(x) ? x : sim_round_mag(fabs(x), in->rnd, signbit(x) != 0);
            if (!isnan(x) && !isinf(x))
                n = copysign(n, x);
            r = float_to_int(n, dt, st);
            r = type_signed(dt) ? (uint64_t)ptx_sext(r, dw) : r;
        } else { /* float to float */
            double x = float_value(st, v, in->ftz);
            if (in->op) { /* .rni .rzi .rmi .rpi: integral value */
                if (!isnan(x) && !isinf(x))
                    x = copysign(sim_round_mag(fabs(x), in->rnd, signbit(x) != 0), x);
                sim_inst keep = *in;
                keep.rnd = 1;
                r = to_float(&keep, x, dt);
            } else {
                r = to_float(in, x, dt);
            }
        }
        PUT(0, t, r);
    }
}

/* mov: copy the source (register, immediate, special register or symbol
 * address); a vector source packs into one wider register, a vector
 * destination unpacks (op: 1 pack, 2 unpack; op2 element bits); op 3
 * copies a vector into a vector, element by element (all read first). */
HANDLER(op_mov)
{
    (void)g; (void)s;
    if (in->op == 0) {
        MAP_LANES(1, ARG(0));
    } else if (in->op == 3) {
        EACH_LANE(t) {
            uint64_t v[4];
            for (unsigned k = 0; k < in->ndst; k++)
                v[k] = SRC(k, t);
            for (unsigned k = 0; k < in->ndst; k++)
                PUT(k, t, v[k]);
        }
    } else if (in->op == 1) {
        EACH_LANE(t) {
            uint64_t r = 0;
            for (unsigned k = 0; k < in->nsrc; k++)
                r |= ptx_zext(SRC(k, t), in->op2) << (k * in->op2);
            PUT(0, t, r);
        }
    } else {
        EACH_LANE(t) {
            uint64_t v = SRC(0, t);
            for (unsigned k = 0; k < in->ndst; k++)
                PUT(k, t, ptx_zext(v >> (k * in->op2), in->op2));
        }
    }
}

/* cvt.pack.sat (op: bits of the converted type, op2: 1 when signed): a
 * and b (s32) clamped to the range of the op-bit type, b in the low op
 * bits and a in the op bits above; the 16-bit forms give those 32 bits,
 * the narrower ones (d, a, b, c) put the low bits of c above them. */
HANDLER(op_cvt_pack)
{
    (void)g; (void)s;
    unsigned w = in->op;
    bool sg = in->op2;
    int64_t lo = sg ? -((int64_t)1 << (w - 1)) : 0;
    int64_t hi = sg ? ((int64_t)1 << (w - 1)) - 1 : ((int64_t)1 << w) - 1;
    EACH_LANE(t) {
        int64_t a = ptx_sext(SRC(0, t), 32), b = ptx_sext(SRC(1, t), 32);
        a = a < lo ? lo : a > hi ? hi : a;
        b = b < lo ? lo : b > hi ? hi : b;
        uint64_t r = ptx_zext((uint64_t)a, w) << w | ptx_zext((uint64_t)b, w);
        if (w < 16)
            r |= SRC(2, t) << (2 * w);
        PUT(0, t, ptx_zext(r, 32));
    }
}

/* Decode cvt.pack.sat.{u16,s16}.s32 d, a, b and
 * cvt.pack.sat.{u2,s2,u4,s4,u8,s8}.s32.b32 d, a, b, c. */
static sim_fn pick_cvt_pack(sim_decoder *d)
{
    sim_inst *in = d->in;
    const ptx_form *fm = d->form;
    unsigned w = 0;
    bool sg = false;
    uint8_t first = fm->ntypes ? fm->type[0] : PTX_TYPE_NONE;
    if (first == PTX_TYPE_U16 || first == PTX_TYPE_S16 || first == PTX_TYPE_U8 || first == PTX_TYPE_S8 ||
        first == PTX_TYPE_U4 || first == PTX_TYPE_S4) {
        w = type_bits(first);
        sg = type_signed(first);
    } else if (ptx_form_has(d->m, fm, PTX_MOD_U2) || ptx_form_has(d->m, fm, PTX_MOD_S2)) {
        w = 2; /* u2/s2 are not types of the IR: the form's types are then .s32.b32 */
        sg = ptx_form_has(d->m, fm, PTX_MOD_S2);
    }
    unsigned nt = w == 2 ? 2 : 3, at = w == 2 ? 0 : 1; /* types written, index of .s32 */
    if (w == 0 || !in->sat || sim_dec_mod(d, PTX_MODCAT_SAT) != PTX_MOD_SAT)
        return NULL;
    if (w == 16 ? fm->ntypes != 2 || fm->type[1] != PTX_TYPE_S32
                : fm->ntypes != nt || fm->type[at] != PTX_TYPE_S32 || fm->type[at + 1] != PTX_TYPE_B32)
        return NULL;
    unsigned nsrc = w == 16 ? 2 : 3;
    if (sim_dec_nops(d) != nsrc + 1 || !sim_dec_dst(d, 0, 0))
        return NULL;
    for (unsigned k = 0; k < nsrc; k++)
        if (!sim_dec_src(d, k + 1, k))
            return NULL;
    in->op = (uint8_t)w;
    in->op2 = sg;
    return op_cvt_pack;
}

/* Supported cvt types: integers up to 64 bits, f16, bf16, f32, f64. */
static bool cvt_type_ok(uint8_t ty)
{
    char cls = ptx_type_class((ptx_type)ty);
    if (cls == 'u' || cls == 's' || cls == 'b')
        return ptx_type_bits((ptx_type)ty) >= 8 && ptx_type_bits((ptx_type)ty) <= 64;
    return ty == PTX_TYPE_F16 || ty == PTX_TYPE_BF16 || ty == PTX_TYPE_F32 || ty == PTX_TYPE_F64;
}

sim_fn sim_pick_cvt(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    if (op == PTX_OP_MOV) {
        if (sim_dec_nops(d) != 2)
            return NULL;
        const ptx_operand *dst = sim_dec_op(d, 0), *src = sim_dec_op(d, 1);
        unsigned bits = type_bits(in->type);
        if (src->kind == PTX_OPD_VEC && dst->kind != PTX_OPD_VEC) {
            if (!sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) || src->count == 0)
                return NULL;
            in->op = 1;
            in->nsrc = src->count;
            in->op2 = (uint8_t)(bits / src->count);
            return bits <= 64 ? op_mov : NULL;
        }
        if (dst->kind == PTX_OPD_VEC && src->kind != PTX_OPD_VEC) {
            if (!sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) || dst->count == 0 || dst->count > 4)
                return NULL;
            in->op = 2;
            in->ndst = dst->count;
            in->op2 = (uint8_t)(bits / dst->count);
            return bits <= 64 ? op_mov : NULL;
        }
        if (dst->kind == PTX_OPD_VEC) { /* mov.v2/.v4 between vectors */
            if (src->count != dst->count || dst->count > 4 || !sim_dec_dst(d, 0, 0) ||
                !sim_dec_src(d, 1, 0) || bits > 64)
                return NULL;
            in->op = 3;
            in->ndst = dst->count;
            return op_mov;
        }
        if (!sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) || bits > 64)
            return NULL;
        return op_mov;
    }
    if (op == PTX_OP_CVT_PACK)
        return pick_cvt_pack(d);
    if (op != PTX_OP_CVT || d->form->ntypes != 2 || sim_dec_nops(d) != 2)
        return NULL;
    if (!cvt_type_ok(in->type) || !cvt_type_ok(in->type2))
        return NULL;
    ptx_modifier r = sim_dec_mod(d, PTX_MODCAT_ROUND);
    bool irnd = r == PTX_MOD_RNI || r == PTX_MOD_RZI || r == PTX_MOD_RMI || r == PTX_MOD_RPI;
    bool dfl = type_float(in->type), sfl = type_float(in->type2);
    if (sfl && !dfl && !irnd)
        return NULL; /* float to integer needs an integer rounding */
    if (dfl && sfl) {
        in->op = irnd;
        if (!irnd && in->rnd == 0 && type_bits(in->type) < type_bits(in->type2))
            return NULL; /* narrowing needs a rounding mode */
    } else if (irnd && !sfl) {
        return NULL;
    }
    if (in->rnd == 5 || r == PTX_MOD_RS)
        return NULL; /* .rna and .rs are for tf32 and the packed formats only */
    if (sim_dec_mod(d, PTX_MODCAT_RELU) != PTX_MOD_NONE || sim_dec_mod(d, PTX_MODCAT_SAT) == PTX_MOD_SATFINITE)
        return NULL;
    if (!sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0))
        return NULL;
    return op_cvt;
}
