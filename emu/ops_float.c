/* ops_float.c — f32 and f64 arithmetic (PTX ISA 9.0, "Floating-Point
 * Instructions").
 *
 * IEEE operations run on the host's IEEE arithmetic under the instruction's
 * rounding mode (.rn default, .rz, .rm, .rp through fesetround; the
 * library is built with -frounding-math and without contraction, so
 * a*b+c is never fused behind our back). .ftz flushes f32 subnormal inputs
 * and results to zero of the same sign; .sat clamps f32 results to
 * [0, 1] with NaN giving 0. A NaN result is the canonical NaN:
 * 0x7fffffff for f32 (as NVIDIA GPUs produce), 0x7fffffffffffffff for
 * f64.
 *
 * Approximate functions (.approx sin, cos, lg2, ex2, rcp, sqrt, rsqrt,
 * tanh, div.approx, div.full) are computed in double precision and rounded
 * once to f32: the error is at most 0.5 ulp of the f32 result (plus the
 * double computation's error, far below that), inside every bound the ISA
 * states for them (e.g. 2 ulp for div.full.f32, 2^-22.5 absolute for
 * sin/cos on [-pi, pi]). They are not bit-identical to a GPU's approximate
 * hardware. */
#include <fenv.h>
#include <math.h>

#include "emu/ops.h"

#define F32_CANON_NAN 0x7fffffffull
#define F64_CANON_NAN 0x7fffffffffffffffull

/* Switch the host to the instruction's rounding mode; returns the old
 * one for restore_round. */
static int set_round(uint8_t rnd)
{
    if (rnd <= 1)
        return FE_TONEAREST; /* the host always runs in round-to-nearest */
    int old = fegetround();
    int want = rnd == 2 ? FE_TOWARDZERO : rnd == 3 ? FE_DOWNWARD : rnd == 4 ? FE_UPWARD
                                                                          : FE_TONEAREST;
    if (want != old)
        fesetround(want);
    return old;
}
static void restore_round(uint8_t rnd, int old)
{
    if (rnd > 1 && fegetround() != old)
        fesetround(old);
}

/* f32 subnormal flushed to zero of the same sign. */
static inline float ftz32(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

/* An f32 result: canonical NaN, flush and saturation as the instruction
 * asks. */
static inline uint64_t out32(const sim_inst *in, float r)
{
    if (isnan(r))
        return in->sat ? 0 : F32_CANON_NAN;
    if (in->ftz)
        r = ftz32(r);
    if (in->sat)
        r = r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
    if (in->sat && r == 0.0f)
        r = 0.0f; /* -0 saturates to +0 */
    return bits_f32(r);
}
static inline uint64_t out64(const sim_inst *in, double r)
{
    if (isnan(r))
        return in->sat ? 0 : F64_CANON_NAN;
    if (in->sat)
        r = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
    if (in->sat && r == 0.0)
        r = 0.0;
    return bits_f64(r);
}

/* Source k of thread t as f32, flushed under .ftz. */
static inline float in32(const opnd *O, const sim_inst *in, unsigned k, uint32_t t)
{
    float x = f32_of(SRC(k, t));
    return in->ftz ? ftz32(x) : x;
}
static inline double in64(const opnd *O, const sim_inst *in, unsigned k, uint32_t t)
{
    (void)in;
    return f64_of(SRC(k, t));
}

/* An f32 result without .ftz or .sat: the canonical NaN or the bits. */
static inline uint64_t plain32(float r) { return isnan(r) ? F32_CANON_NAN : bits_f32(r); }

/* add / sub / mul (op 0, 1, 2). */
HANDLER(op_fbin)
{
    (void)g; (void)s;
    if (in->type == PTX_TYPE_F32 && in->rnd <= 1 && !in->ftz && !in->sat) { /* the common forms */
        switch (in->op) {
        case 0: MAP_LANES(2, plain32(f32_of(ARG(0)) + f32_of(ARG(1)))); break;
        case 1: MAP_LANES(2, plain32(f32_of(ARG(0)) - f32_of(ARG(1)))); break;
        default: MAP_LANES(2, plain32(f32_of(ARG(0)) * f32_of(ARG(1)))); break;
        }
        return;
    }
    int old = set_round(in->rnd);
    if (in->type == PTX_TYPE_F32) {
        switch (in->op) {
        case 0: EACH_LANE(t) PUT(0, t, out32(in, in32(O, in, 0, t) + in32(O, in, 1, t))); break;
        case 1: EACH_LANE(t) PUT(0, t, out32(in, in32(O, in, 0, t) - in32(O, in, 1, t))); break;
        default: EACH_LANE(t) PUT(0, t, out32(in, in32(O, in, 0, t) * in32(O, in, 1, t))); break;
        }
    } else {
        EACH_LANE(t) {
            double a = in64(O, in, 0, t), b = in64(O, in, 1, t);
            double r = in->op == 0 ? a + b : in->op == 1 ? a - b : a * b;
            PUT(0, t, out64(in, r));
        }
    }
    restore_round(in->rnd, old);
}

/* fma / mad: a*b+c with one rounding. */
#if defined(__x86_64__) && defined(__GNUC__)
/* The common fma.rn.f32 loop compiled for hosts with the FMA instruction:
 * one vfmadd per lane instead of a call into libm. */
__attribute__((target("fma"))) static void ffma32_host_fma(const sim_lanes *L, const opnd *O, const dsts *D)
{
    MAP_LANES(3, plain32(__builtin_fmaf(f32_of(ARG(0)), f32_of(ARG(1)), f32_of(ARG(2)))));
}
#define HOST_HAS_FMA() __builtin_cpu_supports("fma")
#else
#define HOST_HAS_FMA() 0
#define ffma32_host_fma(L, O, D) ((void)0)
#endif

HANDLER(op_ffma)
{
    (void)g; (void)s;
    if (in->type == PTX_TYPE_F32 && in->rnd <= 1 && !in->ftz && !in->sat) { /* the common form */
        if (HOST_HAS_FMA())
            ffma32_host_fma(L, O, D);
        else
            EACH_LANE(t) PUT(0, t, plain32(fmaf(f32_of(SRC(0, t)), f32_of(SRC(1, t)), f32_of(SRC(2, t)))));
        return;
    }
    int old = set_round(in->rnd);
    if (in->type == PTX_TYPE_F32) {
        EACH_LANE(t) PUT(0, t, out32(in, fmaf(in32(O, in, 0, t), in32(O, in, 1, t), in32(O, in, 2, t))));
    } else {
        EACH_LANE(t) PUT(0, t, out64(in, fma(in64(O, in, 0, t), in64(O, in, 1, t), in64(O, in, 2, t))));
    }
    restore_round(in->rnd, old);
}

/* div: IEEE with the rounding mode; .approx and .full as the double
 * quotient rounded to f32. */
HANDLER(op_fdiv)
{
    (void)g; (void)s;
    int old = set_round(in->rnd);
    if (in->type == PTX_TYPE_F32) {
        EACH_LANE(t) PUT(0, t, out32(in, in32(O, in, 0, t) / in32(O, in, 1, t)));
    } else {
        EACH_LANE(t) PUT(0, t, out64(in, in64(O, in, 0, t) / in64(O, in, 1, t)));
    }
    restore_round(in->rnd, old);
}

enum { FU_RCP, FU_SQRT, FU_RSQRT, FU_SIN, FU_COS, FU_LG2, FU_EX2, FU_TANH, FU_ABS, FU_NEG };

/* One-operand functions (op: FU_*). abs and neg only touch the sign bit
 * (NaN included); the others follow the notes at the top of the file. */
HANDLER(op_funary)
{
    (void)g; (void)s;
    bool f32 = in->type == PTX_TYPE_F32;
    if (in->op == FU_ABS || in->op == FU_NEG) {
        uint64_t sign = f32 ? 0x80000000ull : 0x8000000000000000ull;
        EACH_LANE(t) {
            uint64_t v = SRC(0, t);
            if (f32 && in->ftz)
                v = bits_f32(ftz32(f32_of(v)));
            PUT(0, t, in->op == FU_ABS ? v & ~sign : v ^ sign);
        }
        return;
    }
    int old = set_round(in->rnd);
    EACH_LANE(t) {
        double x = f32 ? (double)in32(O, in, 0, t) : in64(O, in, 0, t), r;
        switch (in->op) {
        case FU_RCP: r = f32 && in->rnd ? (double)(1.0f / (float)x) : 1.0 / x; break;
        case FU_SQRT: r = f32 && in->rnd ? (double)sqrtf((float)x) : sqrt(x); break;
        case FU_RSQRT: r = 1.0 / sqrt(x); break;
        case FU_SIN: r = sin(x); break;
        case FU_COS: r = cos(x); break;
        case FU_LG2: r = log2(x); break;
        case FU_EX2: r = exp2(x); break;
        default: r = tanh(x); break;
        }
        PUT(0, t, f32 ? out32(in, (float)r) : out64(in, r));
    }
    restore_round(in->rnd, old);
}

/* min / max (op: 1 max): a NaN operand is ignored (both NaN: canonical
 * NaN); with .NaN any NaN operand gives the canonical NaN; -0 < +0. */
HANDLER(op_fminmax)
{
    (void)g; (void)s;
    bool f32 = in->type == PTX_TYPE_F32, max = in->op, nanp = in->flags & SIM_IF_NAN;
    EACH_LANE(t) {
        double a = f32 ? (double)in32(O, in, 0, t) : in64(O, in, 0, t);
        double b = f32 ? (double)in32(O, in, 1, t) : in64(O, in, 1, t);
        double r;
        if (isnan(a) || isnan(b))
            r = nanp || (isnan(a) && isnan(b)) ? NAN : isnan(a) ? b : a;
        else if (a == b)
            r = (signbit(a) != 0) == max ? b : a; /* pick by sign for ±0 */
        else
            r = (a < b) != max ? a : b;
        PUT(0, t, f32 ? out32(in, (float)r) : out64(in, r));
    }
}

sim_fn sim_pick_float(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    if (in->type != PTX_TYPE_F32 && in->type != PTX_TYPE_F64)
        return NULL;
    unsigned nsrc;
    sim_fn fn;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL:
        in->op = op == PTX_OP_ADD ? 0 : op == PTX_OP_SUB ? 1 : 2;
        nsrc = 2;
        fn = op_fbin;
        break;
    case PTX_OP_FMA: case PTX_OP_MAD:
        nsrc = 3;
        fn = op_ffma;
        break;
    case PTX_OP_DIV:
        nsrc = 2;
        fn = op_fdiv;
        if (sim_dec_mod(d, PTX_MODCAT_APPROX) != PTX_MOD_NONE)
            in->rnd = 0;
        break;
    case PTX_OP_RCP: case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_SIN: case PTX_OP_COS:
    case PTX_OP_LG2: case PTX_OP_EX2: case PTX_OP_TANH: case PTX_OP_ABS: case PTX_OP_NEG:
        in->op = op == PTX_OP_RCP ? FU_RCP : op == PTX_OP_SQRT ? FU_SQRT : op == PTX_OP_RSQRT ? FU_RSQRT
                 : op == PTX_OP_SIN ? FU_SIN : op == PTX_OP_COS ? FU_COS : op == PTX_OP_LG2 ? FU_LG2
                 : op == PTX_OP_EX2 ? FU_EX2 : op == PTX_OP_TANH ? FU_TANH
                 : op == PTX_OP_ABS ? FU_ABS : FU_NEG;
        nsrc = 1;
        fn = op_funary;
        break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (sim_dec_mod(d, PTX_MODCAT_XORSIGN) != PTX_MOD_NONE)
            return NULL;
        in->op = op == PTX_OP_MAX;
        in->flags |= sim_dec_mod(d, PTX_MODCAT_NAN) != PTX_MOD_NONE ? SIM_IF_NAN : 0;
        nsrc = 2;
        fn = op_fminmax;
        break;
    default:
        return NULL;
    }
    if (in->type == PTX_TYPE_F64)
        in->ftz = 0; /* .ftz applies to f32 only */
    if (sim_dec_nops(d) != nsrc + 1 || !sim_dec_dst(d, 0, 0))
        return NULL;
    for (unsigned k = 0; k < nsrc; k++)
        if (!sim_dec_src(d, k + 1, k))
            return NULL;
    return fn;
}
