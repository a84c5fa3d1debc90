/* ops_half.c — f16 and bf16 arithmetic, scalar and packed x2 (PTX ISA
 * 9.0, "Half Precision Floating-Point Instructions"): add, sub, mul, fma
 * (.rn; .sat; .relu; .ftz for f16), neg, abs, min, max (.NaN), setp and
 * set, and the approximate ex2 and tanh. (cvt into f16x2/bf16x2 is
 * ops_cvt_half.c's.)
 *
 * Each operation is computed on the exact double values of its operands
 * and rounded once to the format (sums and products of halves are exact in
 * double, and when a bf16 sum is not, the smaller operand is far below the
 * result's last bit, so one rounding of the double is still correct; an
 * fma's double is rounded to odd, see fma_odd). A NaN result is the
 * canonical 0x7fff. ex2.approx and tanh.approx are computed in double and
 * rounded once to the format, as ops_float.c does for f32: within half an
 * ulp of the exact value, not bit-identical to a GPU's approximation. */
#include <math.h>
#include <string.h>

#include "emulator/ops.h"
#include "emulator/smallfloat.h"

typedef struct half_fmt {
    unsigned eb, mb; /* exponent and mantissa bits */
} half_fmt;

static const half_fmt F16 = {5, 10}, BF16 = {8, 7};

/* Value of the 16-bit half at `shift` in v. */
static inline double hval(uint64_t v, unsigned shift, half_fmt f, bool ftz)
{
    uint64_t h = (v >> shift) & 0xffff;
    if (ftz && ((h >> f.mb) & ((1u << f.eb) - 1)) == 0)
        h &= 0x8000; /* subnormal to zero of the same sign */
    return sim_from_small_float(h, f.eb, f.mb);
}

/* The result bits of x for the instruction's modifiers. */
static inline uint64_t hres(const sim_inst *in, double x, half_fmt f)
{
    if (isnan(x))
        return in->sat ? 0 : 0x7fff; /* .sat: NaN gives +0 */
    if (in->sat)
        x = x < 0 ? 0.0 : x > 1 ? 1.0 : x;
    if (in->op2 == 1 && x < 0) /* .relu */
        x = 0.0;
    uint64_t b = sim_to_small_float(x, 1, f.eb, f.mb);
    if (in->ftz && ((b >> f.mb) & ((1u << f.eb) - 1)) == 0)
        b &= 0x8000;
    if (in->sat && b == 0x8000)
        b = 0;
    return b;
}

enum { H_ADD, H_SUB, H_MUL, H_FMA, H_NEG, H_ABS, H_MIN, H_MAX, H_EX2, H_TANH };

/* x*y + z in double rounded to odd when inexact, so that rounding it once
 * more to a half is correct. The product of halves is exact, but a bf16
 * sum may need more than 53 bits, and its far smaller term can decide a
 * tie: 1.125 * 1.8125 + 2^-60 is just above the tie 2.0390625 and rounds
 * up, while the double sum is the tie itself. TwoSum gives the error. */
static inline double fma_odd(double x, double y, double z)
{
    double p = x * y, s = p + z;
    if (!isfinite(s))
        return s;
    double bb = s - p, e = (p - (s - bb)) + (z - bb);
    uint64_t u;
    memcpy(&u, &s, sizeof u);
    if (e != 0 && !(u & 1))
        s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    return s;
}

/* One half of an operation. */
static inline uint64_t half_op(const sim_inst *in, half_fmt f, uint64_t a, uint64_t b, uint64_t c,
                               unsigned sh)
{
    bool ftz = in->ftz;
    switch (in->op) {
    case H_NEG: return ((a >> sh) & 0xffff) ^ 0x8000;
    case H_ABS: return ((a >> sh) & 0xffff) & 0x7fff;
    case H_MIN: case H_MAX: {
        double x = hval(a, sh, f, ftz), y = hval(b, sh, f, ftz);
        if (isnan(x) || isnan(y)) {
            if ((in->flags & SIM_IF_NAN) || (isnan(x) && isnan(y)))
                return 0x7fff;
            return isnan(x) ? ((b >> sh) & 0xffff) : ((a >> sh) & 0xffff);
        }
        bool max = in->op == H_MAX;
        bool pick_b = x == y ? (signbit(x) != 0) == max : (x < y) == max;
        uint64_t bits = pick_b ? (b >> sh) & 0xffff : (a >> sh) & 0xffff;
        if (ftz && ((bits >> f.mb) & ((1u << f.eb) - 1)) == 0)
            bits &= 0x8000;
        return bits;
    }
    default: {
        double x = hval(a, sh, f, ftz), y = hval(b, sh, f, ftz), r;
        switch (in->op) {
        case H_ADD: r = x + y; break;
        case H_SUB: r = x - y; break;
        case H_MUL: r = x * y; break;
        case H_EX2: r = exp2(x); break;
        case H_TANH: r = tanh(x); break;
        default: r = fma_odd(x, y, hval(c, sh, f, ftz)); break;
        }
        return hres(in, r, f);
    }
    }
}

/* f16/bf16 (one half) and f16x2/bf16x2 (both halves) arithmetic. */
HANDLER(op_half)
{
    (void)g; (void)s;
    bool bf = in->type == PTX_TYPE_BF16 || in->type == PTX_TYPE_BF16X2;
    bool x2 = in->type == PTX_TYPE_F16X2 || in->type == PTX_TYPE_BF16X2;
    half_fmt f = bf ? BF16 : F16;
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), b = in->nsrc_used > 1 ? SRC(1, t) : 0;
        uint64_t c3 = in->nsrc_used > 2 ? SRC(2, t) : 0;
        uint64_t r = half_op(in, f, a, b, c3, 0);
        if (x2)
            r |= half_op(in, f, a, b, c3, 16) << 16;
        PUT(0, t, r);
    }
}

/* The compare (op: ops_cmp's numbering) of the halves at `shift` in
 * sources 0 and 1 of thread t, combined with predicate source 2 by op2. */
static inline bool half_cmp(const sim_inst *in, const opnd *O, uint32_t t, half_fmt f, unsigned shift)
{
    double x = hval(SRC(0, t), shift, f, in->ftz), y = hval(SRC(1, t), shift, f, in->ftz);
    bool un = isnan(x) || isnan(y), r;
    switch (in->op) { /* the order of ops_cmp.c */
    case 0: r = !un && x == y; break;
    case 1: r = !un && x != y; break;
    case 2: r = !un && x < y; break;
    case 3: r = !un && x <= y; break;
    case 4: r = !un && x > y; break;
    case 5: r = !un && x >= y; break;
    case 6: r = un || x == y; break;
    case 7: r = un || x != y; break;
    case 8: r = un || x < y; break;
    case 9: r = un || x <= y; break;
    case 10: r = un || x > y; break;
    case 11: r = un || x >= y; break;
    case 12: r = !un; break;
    default: r = un; break;
    }
    if (in->op2 == 1)
        r = r && SRC(2, t);
    else if (in->op2 == 2)
        r = r || SRC(2, t);
    else if (in->op2 == 3)
        r = r != (SRC(2, t) != 0);
    return r;
}

/* setp on halves; x2 writes one predicate per half. */
HANDLER(op_half_setp)
{
    (void)g; (void)s;
    bool bf = in->type == PTX_TYPE_BF16 || in->type == PTX_TYPE_BF16X2;
    bool x2 = in->type == PTX_TYPE_F16X2 || in->type == PTX_TYPE_BF16X2;
    half_fmt f = bf ? BF16 : F16;
    EACH_LANE(t) {
        for (unsigned h = 0; h < (x2 ? 2u : 1u); h++)
            PUT(h, t, half_cmp(in, O, t, f, 16 * h));
    }
}

/* set.cmp.dtype.stype on halves (type2: the compared type): when true, 1.0
 * in an f16/bf16 dtype, else all ones of the dtype; x2 compares each half
 * into the same half of d (1.0 of the x2 dtype's format, or 0xffff). */
HANDLER(op_half_set)
{
    (void)g; (void)s;
    bool bf = in->type2 == PTX_TYPE_BF16 || in->type2 == PTX_TYPE_BF16X2;
    bool x2 = in->type2 == PTX_TYPE_F16X2 || in->type2 == PTX_TYPE_BF16X2;
    half_fmt f = bf ? BF16 : F16;
    uint64_t yes = in->type == PTX_TYPE_F16 || in->type == PTX_TYPE_F16X2     ? 0x3c00
                   : in->type == PTX_TYPE_BF16 || in->type == PTX_TYPE_BF16X2 ? 0x3f80
                   : x2 || type_bits(in->type) == 16                          ? 0xffff
                                                                              : 0xffffffffull;
    EACH_LANE(t) {
        uint64_t r = half_cmp(in, O, t, f, 0) ? yes : 0;
        if (x2)
            r |= (half_cmp(in, O, t, f, 16) ? yes : 0) << 16;
        PUT(0, t, r);
    }
}

sim_fn sim_pick_half(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    /* set compares its second type (set.eq.f16.f16, set.gt.u32.f16x2) */
    uint8_t ty = op == PTX_OP_SET ? in->type2 : in->type;
    if (ty != PTX_TYPE_F16 && ty != PTX_TYPE_BF16 && ty != PTX_TYPE_F16X2 && ty != PTX_TYPE_BF16X2)
        return NULL;
    unsigned n = sim_dec_nops(d), nsrc;
    if (in->rnd > 1)
        return NULL; /* half arithmetic rounds to nearest only */
    in->op2 = sim_dec_mod(d, PTX_MODCAT_RELU) != PTX_MOD_NONE;
    if (op == PTX_OP_SETP || op == PTX_OP_SET) {
        static const ptx_modifier cmps[] = {PTX_MOD_EQ, PTX_MOD_NE, PTX_MOD_LT, PTX_MOD_LE, PTX_MOD_GT,
                                            PTX_MOD_GE, PTX_MOD_EQU, PTX_MOD_NEU, PTX_MOD_LTU, PTX_MOD_LEU,
                                            PTX_MOD_GTU, PTX_MOD_GEU, PTX_MOD_NUM, PTX_MOD_NAN};
        ptx_modifier cm = sim_dec_mod(d, PTX_MODCAT_CMP), bm = sim_dec_mod(d, PTX_MODCAT_OP);
        in->op = 0xff;
        for (uint8_t i = 0; i < 14; i++)
            if (cmps[i] == cm)
                in->op = i;
        in->op2 = bm == PTX_MOD_AND ? 1 : bm == PTX_MOD_OR ? 2 : bm == PTX_MOD_XOR ? 3 : 0;
        bool x2 = ty == PTX_TYPE_F16X2 || ty == PTX_TYPE_BF16X2;
        const ptx_operand *o = sim_dec_op(d, 0);
        if (in->op == 0xff || n != (in->op2 ? 4u : 3u) || !sim_dec_dst(d, 0, 0) ||
            (op == PTX_OP_SETP && x2 && o->kind != PTX_OPD_PAIR) ||
            (op == PTX_OP_SET && o->kind == PTX_OPD_PAIR) || !sim_dec_src(d, 1, 0) ||
            !sim_dec_src(d, 2, 1) || (in->op2 && !sim_dec_src(d, 3, 2)))
            return NULL;
        return op == PTX_OP_SETP ? op_half_setp : op_half_set;
    }
    switch (op) {
    case PTX_OP_ADD: in->op = H_ADD; nsrc = 2; break;
    case PTX_OP_SUB: in->op = H_SUB; nsrc = 2; break;
    case PTX_OP_MUL: in->op = H_MUL; nsrc = 2; break;
    case PTX_OP_FMA: in->op = H_FMA; nsrc = 3; break;
    case PTX_OP_NEG: in->op = H_NEG; nsrc = 1; break;
    case PTX_OP_ABS: in->op = H_ABS; nsrc = 1; break;
    case PTX_OP_EX2: in->op = H_EX2; nsrc = 1; break; /* .approx (f16), .approx.ftz (bf16) */
    case PTX_OP_TANH: in->op = H_TANH; nsrc = 1; break; /* .approx */
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (sim_dec_mod(d, PTX_MODCAT_XORSIGN) != PTX_MOD_NONE || in->op2)
            return NULL;
        in->op = op == PTX_OP_MIN ? H_MIN : H_MAX;
        in->flags |= sim_dec_mod(d, PTX_MODCAT_NAN) != PTX_MOD_NONE ? SIM_IF_NAN : 0;
        nsrc = 2;
        break;
    default:
        return NULL;
    }
    if (in->op2 && in->op != H_FMA)
        return NULL;
    if (n != nsrc + 1 || !sim_dec_dst(d, 0, 0))
        return NULL;
    for (unsigned k = 0; k < nsrc; k++)
        if (!sim_dec_src(d, k + 1, k))
            return NULL;
    return op_half;
}
