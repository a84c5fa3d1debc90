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

#include "emulator/ops.h"

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
static inline uint64_t plain32(float r)
{
    uint32_t b = (uint32_t)bits_f32(r); /* integer test: the lane loops stay branch-free */
    return (b & 0x7fffffffu) > 0x7f800000u ? F32_CANON_NAN : b;
}

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

/* add / sub / mul / fma (op 0, 1, 2, 3) on .f32x2: the two f32 halves
 * of 64-bit operands (element 0 in bits 0..31, PTX ISA "fma"), each
 * computed as the f32 instruction, with its rounding and .ftz. */
HANDLER(op_fx2)
{
    (void)g; (void)s;
    int old = set_round(in->rnd);
    EACH_LANE(t) {
        uint64_t r = 0;
        for (unsigned h = 0; h < 64; h += 32) {
            float x[3];
            for (unsigned k = 0; k < in->nsrc_used; k++) {
                x[k] = f32_of(SRC(k, t) >> h);
                x[k] = in->ftz ? ftz32(x[k]) : x[k];
            }
            float v = in->op == 0 ? x[0] + x[1] : in->op == 1 ? x[0] - x[1] : in->op == 2 ? x[0] * x[1]
                      : fmaf(x[0], x[1], x[2]);
            r |= out32(in, v) << h;
        }
        PUT(0, t, r);
    }
    restore_round(in->rnd, old);
}

/* fma / mad: a*b+c with one rounding. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* out[i] = fma.rn.f32 of lane i's three sources (s: low 32 bits of each
 * word, x: negation masks, m: the destination mask), four lanes per AVX2
 * step: the hardware FMA rounds once, as the ISA requires, in the current
 * (nearest) rounding mode, and NaN results become the canonical NaN. */
__attribute__((target("avx2,fma"))) static void ffma32_avx2(uint32_t n, const uint64_t *const s[3],
                                                             const uint64_t x[3], uint64_t *out, uint64_t m)
{
    const __m256i low = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6), mv = _mm256_set1_epi64x((long long)m);
    const __m256i x0 = _mm256_set1_epi64x((long long)x[0]), x1 = _mm256_set1_epi64x((long long)x[1]),
                  x2 = _mm256_set1_epi64x((long long)x[2]);
    const __m128 canon = _mm_castsi128_ps(_mm_set1_epi32((int)F32_CANON_NAN));
    uint32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i a = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(s[0] + i)), x0);
        __m256i b = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(s[1] + i)), x1);
        __m256i c = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(s[2] + i)), x2);
        __m128 fa = _mm_castsi128_ps(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(a, low)));
        __m128 fb = _mm_castsi128_ps(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(b, low)));
        __m128 fc = _mm_castsi128_ps(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(c, low)));
        __m128 r = _mm_fmadd_ps(fa, fb, fc);
        r = _mm_blendv_ps(r, canon, _mm_cmpunord_ps(r, r));
        __m256i w = _mm256_and_si256(_mm256_cvtepu32_epi64(_mm_castps_si128(r)), mv);
        _mm256_storeu_si256((__m256i *)(out + i), w);
    }
    for (; i < n; i++)
        out[i] = plain32(__builtin_fmaf(f32_of(s[0][i] ^ x[0]), f32_of(s[1][i] ^ x[1]), f32_of(s[2][i] ^ x[2]))) & m;
}
#define HOST_HAS_AVX2_FMA() (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
#else
#define HOST_HAS_AVX2_FMA() 0
#define ffma32_avx2(n, s, x, out, m) ((void)0)
#endif

HANDLER(op_ffma)
{
    (void)g; (void)s;
    if (in->type == PTX_TYPE_F32 && in->rnd <= 1 && !in->ftz && !in->sat) { /* the common form */
        if (HOST_HAS_AVX2_FMA())
            LANE_ARRAYS(3, ffma32_avx2(n_, s_, x_, out_, m_));
        else
            MAP_LANES(3, plain32(fmaf(f32_of(ARG(0)), f32_of(ARG(1)), f32_of(ARG(2)))));
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
    bool x2 = ptx_form_has(d->m, d->form, PTX_MOD_F32X2); /* a modifier, not a type */
    if (x2 && op != PTX_OP_ADD && op != PTX_OP_SUB && op != PTX_OP_MUL && op != PTX_OP_FMA)
        return NULL;
    if (in->type != PTX_TYPE_F32 && in->type != PTX_TYPE_F64 && !x2)
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
        in->op = 3;
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
    if (x2) {
        if (in->sat)
            return NULL;
        fn = op_fx2;
    }
    if (sim_dec_nops(d) != nsrc + 1 || !sim_dec_dst(d, 0, 0))
        return NULL;
    for (unsigned k = 0; k < nsrc; k++)
        if (!sim_dec_src(d, k + 1, k))
            return NULL;
    return fn;
}
