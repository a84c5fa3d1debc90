/* test_emu_exact.c — instruction exactness: each case runs one PTX
 * instruction over thousands of inputs (edge values first — 0, ±1, the
 * extremes, shift amounts past the width, NaNs, infinities, subnormals,
 * rounding ties — then random ones) and compares every result bit with a
 * reference written here in C from the ISA's definition.
 *
 * The float references do not reuse the operation under test: directed
 * roundings come from the round-to-nearest result corrected by the sign of
 * the exact error (TwoSum, TwoProduct and remainder identities); f16
 * conversion, min/max NaN rules, compares and integer conversions are
 * written out bit by bit. */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* Operand classes of the generated kernel: the register family and
 * width each operand type uses. */
typedef enum { K_B16, K_B32, K_B64, K_F32, K_F64, K_PRED } kind;

static const char *reg_prefix(kind k)
{
    static const char *p[] = {"%h", "%r", "%rd", "%f", "%fd", "%p"};
    return p[k];
}

/* Input distributions. */
typedef enum { G_INT, G_SHIFT, G_F32, G_F64, G_SMALL, G_HALF } gen;

typedef uint64_t (*ref_fn)(uint64_t a, uint64_t b, uint64_t c);

typedef struct op_case {
    const char *instr; /* with D, A, B, C (and E for a second destination) */
    kind d, a, b, c;
    int nsrc;
    gen g;
    ref_fn ref;
} op_case;

enum { N = 4096 };

/* ---- helpers for references ------------------------------------------------ */

static inline int64_t s32(uint64_t v) { return (int32_t)(uint32_t)v; }
static inline uint64_t u32(uint64_t v) { return (uint32_t)v; }
static inline float ff(uint64_t v) { uint32_t b = (uint32_t)v; float f; memcpy(&f, &b, 4); return f; }
static inline uint64_t fb(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline double dd(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static inline uint64_t db(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

/* f32 result as the GPU writes it: NaN is canonical 0x7fffffff. */
static uint64_t fres(float f) { return isnan(f) ? 0x7fffffffu : fb(f); }

/* Adjust the round-to-nearest result r of an operation whose exact value
 * is r + err (err's sign is what matters) to mode m: 2 rz, 3 rm, 4 rp. */
static float directed(float r, double err, int m)
{
    if (err == 0 || isnan(r) || isinf(r))
        return r;
    bool up = err > 0; /* exact value above r */
    if (m == 3 && up) return r;
    if (m == 4 && !up) return r;
    if (m == 3) return nextafterf(r, -INFINITY);
    if (m == 4) return nextafterf(r, INFINITY);
    /* rz: toward zero */
    if ((r > 0 && !up) || (r < 0 && up))
        return nextafterf(r, 0.0f);
    return r;
}

/* RN result of a+b and its exact error (Knuth's TwoSum, in float). */
static float two_sum(float a, float b, double *err)
{
    float s = a + b;
    float bb = s - a, aa = s - bb;
    *err = (double)(a - aa) + (double)(b - bb);
    return s;
}

/* Overflow to infinity under RN becomes the largest finite value under
 * directed modes that round toward it. */
static float overflow_fix(float r, float a_exact_sign, int m)
{
    if (!isinf(r))
        return r;
    bool pos = r > 0;
    (void)a_exact_sign;
    if (m == 2 || (m == 3 && pos) || (m == 4 && !pos))
        return pos ? 3.40282347e38f : -3.40282347e38f;
    return r;
}

#define ADD_REF(name, m, neg)                                                           \
    static uint64_t name(uint64_t a, uint64_t b, uint64_t c)                            \
    {                                                                                   \
        (void)c;                                                                        \
        float x = ff(a), y = neg ? -ff(b) : ff(b);                                      \
        double err;                                                                     \
        float r = two_sum(x, y, &err);                                                  \
        if (isinf(r) && !isinf(x) && !isinf(y))                                         \
            return fres(overflow_fix(r, 0, m));                                         \
        r = m == 1 ? r : directed(r, isfinite(err) ? err : 0, m);                       \
        if (r == 0 && x == -y && signbit(x) != signbit(y) && m == 3)                    \
            r = -0.0f; /* an exact zero sum of opposite signs is -0 under rm */         \
        return fres(r);                                                                 \
    }
ADD_REF(ref_add_rn, 1, 0)
ADD_REF(ref_add_rz, 2, 0)
ADD_REF(ref_add_rm, 3, 0)
ADD_REF(ref_add_rp, 4, 0)
ADD_REF(ref_sub_rz, 2, 1)

#define MUL_REF(name, m)                                                                \
    static uint64_t name(uint64_t a, uint64_t b, uint64_t c)                            \
    {                                                                                   \
        (void)c;                                                                        \
        float x = ff(a), y = ff(b);                                                     \
        double exact = (double)x * (double)y; /* exact: 48 significant bits */         \
        float r = x * y;                                                                \
        if (isinf(r) && !isinf(x) && !isinf(y))                                         \
            return fres(overflow_fix(r, 0, m));                                         \
        if (r == 0 && exact != 0 && m != 1) { /* underflow below the subnormals */      \
            float tiny = 1.40129846e-45f;                                               \
            bool pos = exact > 0;                                                       \
            if ((m == 4 && pos) || (m == 3 && !pos))                                    \
                return fres(pos ? tiny : -tiny);                                        \
            return fres(r);                                                             \
        }                                                                               \
        return fres(m == 1 ? r : directed(r, exact - (double)r, m));                    \
    }
MUL_REF(ref_mul_rn, 1)
MUL_REF(ref_mul_rz, 2)
MUL_REF(ref_mul_rm, 3)
MUL_REF(ref_mul_rp, 4)

/* f32 bits of the exact value (-1)^neg * q * 2^r rounded in mode m (1 rn,
 * 2 rz, 3 rm, 4 rp), q > 0 an integer of up to 127 bits: integer
 * rounding at the f32 grid (subnormals included), then overflow by mode. */
static uint64_t round_f32(bool neg, unsigned __int128 q, int r, int m)
{
    int n = 0;
    for (unsigned __int128 t = q; t; t >>= 1)
        n++;
    int e = r + n - 1;                      /* exponent of the leading bit */
    int g = e - 23 < -149 ? -149 : e - 23;  /* the grid the result lies on */
    if (g > r) {
        int sh = g - r;
        unsigned __int128 kept = sh >= 128 ? 0 : q >> sh, rem = q - (sh >= 128 ? 0 : kept << sh);
        unsigned __int128 half = (unsigned __int128)1 << (sh - 1);
        bool up;
        switch (m) {
        case 1: up = rem > half || (rem == half && (kept & 1)); break;
        case 2: up = false; break;
        case 3: up = neg && rem; break;
        default: up = !neg && rem; break;
        }
        q = kept + up;
        r = g;
        if (q >> 24) { /* carried into a new binade */
            q >>= 1;
            r++;
        }
    } else {
        q <<= r - g;
        r = g;
    }
    uint32_t sign = neg ? 0x80000000u : 0;
    if (q == 0)
        return sign;
    if (r + 150 >= 255) { /* overflow */
        bool inf = m == 1 || (m == 3 && neg) || (m == 4 && !neg);
        return sign | (inf ? 0x7f800000u : 0x7f7fffffu);
    }
    if (q < (1u << 23)) /* subnormal: r == -149 */
        return sign | (uint32_t)q;
    return sign | (uint32_t)(r + 150) << 23 | ((uint32_t)q & 0x7fffffu);
}

/* fma.f32 in mode m computed exactly with integers: a*b is a 48-bit
 * integer times a power of two, c is added at the common exponent (a term
 * more than 76 binades below the other only decides rounding, so it stands
 * in as one unit there), and the exact sum is rounded once. */
static uint64_t fma_f32_exact(uint64_t a, uint64_t b, uint64_t c, int m)
{
    float x = ff(a), y = ff(b), z = ff(c);
    if (isnan(x) || isnan(y) || isnan(z))
        return 0x7fffffffu;
    bool pneg = !!signbit(x) != !!signbit(y);
    if (isinf(x) || isinf(y)) {
        if (x == 0 || y == 0 || (isinf(z) && !!signbit(z) != pneg))
            return 0x7fffffffu;
        return pneg ? 0xff800000u : 0x7f800000u;
    }
    if (isinf(z))
        return fb(z);
    if (x == 0 || y == 0) {
        if (z != 0)
            return fb(z);
        if (!!signbit(z) == pneg)
            return fb(z);
        return m == 3 ? 0x80000000u : 0;
    }
    /* value = mant * 2^exp for each finite operand */
    int ex[3];
    uint64_t mt[3];
    const uint64_t in[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        uint32_t bits = (uint32_t)in[k], ef = bits >> 23 & 0xff;
        mt[k] = ef ? (bits & 0x7fffffu) | 0x800000u : bits & 0x7fffffu;
        ex[k] = ef ? (int)ef - 150 : -149;
    }
    __int128 P = (__int128)(mt[0] * mt[1]), C = (__int128)mt[2];
    int eP = ex[0] + ex[1], eC = ex[2];
    if (pneg)
        P = -P;
    if (signbit(z))
        C = -C;
    if (C == 0)
        eC = eP;
    if (eP - eC > 76) { /* c only decides the rounding */
        C = C > 0 ? 1 : C < 0 ? -1 : 0;
        eC = eP - 76;
    } else if (eC - eP > 76) {
        P = P > 0 ? 1 : -1;
        eP = eC - 76;
    }
    int e0 = eP < eC ? eP : eC;
    __int128 v = P * ((__int128)1 << (eP - e0)) + C * ((__int128)1 << (eC - e0));
    if (v == 0) /* exact cancellation */
        return m == 3 ? 0x80000000u : 0;
    return round_f32(v < 0, (unsigned __int128)(v < 0 ? -v : v), e0, m);
}
static uint64_t ref_fma_rn(uint64_t a, uint64_t b, uint64_t c) { return fma_f32_exact(a, b, c, 1); }
static uint64_t ref_fma_rz(uint64_t a, uint64_t b, uint64_t c) { return fma_f32_exact(a, b, c, 2); }
static uint64_t ref_fma_rm(uint64_t a, uint64_t b, uint64_t c) { return fma_f32_exact(a, b, c, 3); }
static uint64_t ref_fma_rp(uint64_t a, uint64_t b, uint64_t c) { return fma_f32_exact(a, b, c, 4); }

/* div.rn/.rz.f32: remainder a - q*b (exact in double for f32 inputs with
 * moderate exponents) gives the error's sign, divided by b's sign. */
#define DIV_REF(name, m)                                                                \
    static uint64_t name(uint64_t a, uint64_t b, uint64_t c)                            \
    {                                                                                   \
        (void)c;                                                                        \
        float x = ff(a), y = ff(b);                                                     \
        float q = x / y;                                                                \
        if (!isfinite(q) || y == 0 || !isfinite(x) || q == 0)                           \
            return fres(m == 1 || !isinf(q) || isinf(x) || y == 0 ? q : overflow_fix(q, 0, m)); \
        long double rem = (long double)x - (long double)q * (long double)y;           \
        double err = (double)(rem / (long double)y);                                   \
        return fres(m == 1 ? q : directed(q, err, m));                                  \
    }
DIV_REF(ref_div_rn, 1)
DIV_REF(ref_div_rz, 2)

static uint64_t ref_sqrt_rn(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    float x = ff(a);
    if (x < 0 || isnan(x))
        return fres(NAN);
    float s = (float)sqrt((double)x); /* double sqrt then one rounding: correct for f32 */
    /* fix a possible double-rounding tie using the exact square */
    long double e = (long double)x - (long double)s * s;
    if (e > 0 && (long double)nextafterf(s, INFINITY) * nextafterf(s, INFINITY) - x < e)
        s = nextafterf(s, INFINITY);
    return fres(s);
}

/* min/max.f32 per the ISA: a NaN operand is ignored, two NaNs give NaN,
 * -0 is less than +0. */
static uint64_t fminmax(uint64_t a, uint64_t b, bool max)
{
    float x = ff(a), y = ff(b);
    if (isnan(x) && isnan(y)) return 0x7fffffffu;
    if (isnan(x)) return fb(y);
    if (isnan(y)) return fb(x);
    if (x == y) { /* ±0: by sign */
        bool xneg = signbit(x) != 0;
        return fb(xneg != max ? x : y);
    }
    return fb((x < y) != max ? x : y);
}
static uint64_t ref_min_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return fminmax(a, b, false); }
static uint64_t ref_max_f32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return fminmax(a, b, true); }
static uint64_t ref_min_nan(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return isnan(ff(a)) || isnan(ff(b)) ? 0x7fffffffu : fminmax(a, b, false);
}

/* Float compares. */
static uint64_t ref_lt_f(uint64_t a, uint64_t b, uint64_t c) { (void)c; return !isnan(ff(a)) && !isnan(ff(b)) && ff(a) < ff(b); }
static uint64_t ref_ltu_f(uint64_t a, uint64_t b, uint64_t c) { (void)c; return isnan(ff(a)) || isnan(ff(b)) || ff(a) < ff(b); }
static uint64_t ref_neu_f(uint64_t a, uint64_t b, uint64_t c) { (void)c; return isnan(ff(a)) || isnan(ff(b)) || ff(a) != ff(b); }
static uint64_t ref_ne_f(uint64_t a, uint64_t b, uint64_t c) { (void)c; return !isnan(ff(a)) && !isnan(ff(b)) && ff(a) != ff(b); }
static uint64_t ref_num_f(uint64_t a, uint64_t b, uint64_t c) { (void)c; return !isnan(ff(a)) && !isnan(ff(b)); }
static uint64_t ref_ge_ftz(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float x = ff(a), y = ff(b);
    if (fpclassify(x) == FP_SUBNORMAL) x = 0;
    if (fpclassify(y) == FP_SUBNORMAL) y = 0;
    return !isnan(x) && !isnan(y) && x >= y;
}

/* ---- integer references ----------------------------------------------------- */

static uint64_t ref_add_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(a + b); }
static uint64_t ref_sub_u64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a - b; }
static uint64_t ref_add_sat(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t r = s32(a) + s32(b);
    return u32((uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r));
}
static uint64_t ref_sub_sat(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t r = s32(a) - s32(b);
    return u32((uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r));
}
static uint64_t ref_mul_lo_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(u32(a) * u32(b)); }
static uint64_t ref_mul_hi_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32((uint64_t)((s32(a) * s32(b)) >> 32)); }
static uint64_t ref_mul_hi_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (u32(a) * u32(b)) >> 32; }
static uint64_t ref_mul_hi_u64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c; /* schoolbook on 32-bit halves, independent of __int128 */
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
static uint64_t ref_mul_hi_s64(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t h = ref_mul_hi_u64(a, b, c);
    if ((int64_t)a < 0) h -= b;
    if ((int64_t)b < 0) h -= a;
    return h;
}
static uint64_t ref_mul_wide_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (uint64_t)(s32(a) * s32(b)); }
static uint64_t ref_mul_wide_u16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32((a & 0xffff) * (b & 0xffff)); }
static uint64_t ref_mad_lo_s32(uint64_t a, uint64_t b, uint64_t c) { return u32(u32(a) * u32(b) + c); }
static uint64_t ref_mad_wide_u32(uint64_t a, uint64_t b, uint64_t c) { return u32(a) * u32(b) + c; }
static uint64_t ref_mad_wide_s32(uint64_t a, uint64_t b, uint64_t c) { return (uint64_t)(s32(a) * s32(b)) + c; }
static uint64_t ref_and_b32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(a & b); }
static uint64_t ref_or_b64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return a | b; }
static uint64_t ref_xor_b16(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (a ^ b) & 0xffff; }
static uint64_t ref_not_b32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return u32(~a); }
static uint64_t ref_mad_hi_sat(uint64_t a, uint64_t b, uint64_t c)
{
    int64_t hi = (s32(a) * s32(b)) >> 32, r = hi + s32(c);
    return u32((uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r));
}
static uint64_t ref_div_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t x = s32(a), y = s32(b);
    if (y == 0) return 0xffffffffu;
    if (x == INT32_MIN && y == -1) return u32((uint64_t)x);
    return u32((uint64_t)(x / y));
}
static uint64_t ref_rem_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t x = s32(a), y = s32(b);
    if (y == 0) return u32(a);
    if (x == INT32_MIN && y == -1) return 0;
    return u32((uint64_t)(x % y));
}
static uint64_t ref_div_u64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return b ? a / b : ~0ull; }
static uint64_t ref_rem_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(b) ? u32(a) % u32(b) : u32(a); }
static uint64_t ref_abs_s32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return u32((uint64_t)(s32(a) < 0 ? -s32(a) : s32(a))); }
static uint64_t ref_neg_s64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return 0 - a; }
static uint64_t ref_min_s32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return s32(a) < s32(b) ? u32(a) : u32(b); }
static uint64_t ref_max_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(a) > u32(b) ? u32(a) : u32(b); }
static uint64_t ref_shl_b32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(b) >= 32 ? 0 : u32(a << u32(b)); }
static uint64_t ref_shr_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(b) >= 32 ? 0 : u32(a) >> u32(b); }
static uint64_t ref_shr_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    uint32_t n = (uint32_t)b > 31 ? 31 : (uint32_t)b;
    int64_t v = s32(a);
    for (uint32_t i = 0; i < n; i++)
        v = v < 0 ? -((-v + 1) / 2) : v / 2; /* floor division by 2 */
    return u32((uint64_t)v);
}
static uint64_t ref_shr_s64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    uint32_t n = (uint32_t)b > 63 ? 63 : (uint32_t)b;
    uint64_t r = a >> n;
    if ((int64_t)a < 0 && n)
        r |= ~0ull << (64 - n);
    return r;
}
static uint64_t ref_lop(uint64_t a, uint64_t b, uint64_t c) { return u32((a & b) | (~a & c)); }
static uint64_t ref_popc64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    uint64_t n = 0;
    for (int i = 0; i < 64; i++) n += (a >> i) & 1;
    return n;
}
static uint64_t ref_clz32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    uint64_t n = 0;
    for (int i = 31; i >= 0 && !((a >> i) & 1); i--) n++;
    return n;
}
static uint64_t ref_brev64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    uint64_t r = 0;
    for (int i = 0; i < 64; i++) r |= ((a >> i) & 1) << (63 - i);
    return r;
}
static uint64_t ref_bfind_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    uint32_t x = (uint32_t)a;
    if ((int32_t)x < 0) x = ~x;
    for (int i = 31; i >= 0; i--)
        if ((x >> i) & 1) return (uint64_t)i;
    return 0xffffffffu;
}
static uint64_t ref_bfind_u32_shift(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    for (int i = 31; i >= 0; i--)
        if ((a >> i) & 1) return (uint64_t)(31 - i);
    return 0xffffffffu;
}
static uint64_t ref_bfe_u32(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t pos = (uint32_t)b & 0xff, len = (uint32_t)c & 0xff, r = 0;
    for (uint32_t i = 0; i < len && pos + i < 32; i++)
        r |= (uint32_t)((a >> (pos + i)) & 1) << i;
    return r;
}
static uint64_t ref_bfe_s32(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t pos = (uint32_t)b & 0xff, len = (uint32_t)c & 0xff;
    if (len == 0) return 0;
    uint32_t msb = pos + len - 1 >= 31 ? 31 : pos + len - 1;
    uint32_t sbit = (uint32_t)(a >> msb) & 1, r = 0;
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t bit = i < len && pos + i <= 31 ? (uint32_t)(a >> (pos + i)) & 1 : sbit;
        r |= bit << i;
    }
    return r;
}
static uint64_t ref_prmt(uint64_t a, uint64_t b, uint64_t c)
{
    uint8_t bytes[8];
    for (int i = 0; i < 4; i++) {
        bytes[i] = (uint8_t)(a >> (8 * i));
        bytes[4 + i] = (uint8_t)(b >> (8 * i));
    }
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t sel = (uint32_t)(c >> (4 * i)) & 0xf;
        uint8_t v = bytes[sel & 7];
        if (sel & 8)
            v = (v & 0x80) ? 0xff : 0;
        r |= (uint32_t)v << (8 * i);
    }
    return r;
}
static uint64_t ref_shf_l_wrap(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t n = (uint32_t)c & 31;
    uint64_t x = ((uint64_t)(uint32_t)b << 32) | (uint32_t)a;
    return (uint32_t)((x << n) >> 32);
}
static uint64_t ref_shf_r_clamp(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t n = (uint32_t)c > 32 ? 32 : (uint32_t)c;
    uint64_t x = ((uint64_t)(uint32_t)b << 32) | (uint32_t)a;
    return (uint32_t)(x >> n);
}
static uint64_t ref_sad_u32(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    return u32((x > y ? x - y : y - x) + c);
}
static uint64_t ref_dp4a_ss(uint64_t a, uint64_t b, uint64_t c)
{
    int64_t acc = s32(c);
    for (int i = 0; i < 4; i++)
        acc += (int64_t)(int8_t)(a >> (8 * i)) * (int8_t)(b >> (8 * i));
    return u32((uint64_t)acc);
}
static uint64_t ref_mul24_lo(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    int64_t x = (int64_t)((int32_t)((uint32_t)a << 8) >> 8), y = (int64_t)((int32_t)((uint32_t)b << 8) >> 8);
    return u32((uint64_t)(x * y));
}
static uint64_t ref_addc_chain(uint64_t a, uint64_t b, uint64_t c)
{
    /* add.cc.u32 lo(a)+lo(b), then addc.u32 hi(a)+hi(b)+carry: the 64-bit sum */
    (void)c;
    return a + b;
}

/* ---- conversions ---------------------------------------------------------- */

/* f32 -> f16, round to nearest even, written bit by bit. */
static uint64_t ref_f32_to_f16(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    uint32_t x = (uint32_t)a, sign = (x >> 16) & 0x8000;
    int e = (int)((x >> 23) & 0xff);
    uint32_t m = x & 0x7fffff;
    if (e == 255)
        return m ? 0x7fff : sign | 0x7c00;
    if (e == 0 && m == 0)
        return sign;
    /* value = 1.m * 2^(e-127) (or 0.m * 2^-126): shift to a 10-bit f16
     * mantissa with guard/sticky information */
    int exp = e ? e - 127 : -126;
    uint64_t sig = e ? (m | 0x800000u) : m; /* 24-bit significand, value sig * 2^(exp-23) */
    int fe = exp < -14 ? -14 : exp;          /* f16 exponent (subnormals at -14) */
    int shift = 23 - 10 + (fe - exp);         /* bits to drop */
    if (e == 0) { /* f32 subnormals are far below f16's range: normalize */
        while (!(sig & 0x800000u)) { sig <<= 1; exp--; }
        fe = exp < -14 ? -14 : exp;
        shift = 23 - 10 + (fe - exp);
    }
    uint64_t q, rem, half;
    if (shift >= 64) { q = 0; rem = sig; half = ~0ull; }
    else {
        q = sig >> shift;
        rem = sig & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    }
    if (rem > half || (rem == half && (q & 1)))
        q++;
    if (q >= 0x800) { q >>= 1; fe++; } /* carried into a new bit */
    if (fe > 15)
        return sign | 0x7c00;
    if (q < 0x400)
        return sign | (uint32_t)q; /* subnormal */
    return sign | (uint32_t)((fe + 15) << 10) | (uint32_t)(q & 0x3ff);
}
static uint64_t ref_f16_to_f32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    uint32_t h = (uint32_t)a & 0xffff, sign = (h & 0x8000) << 16, e = (h >> 10) & 31, m = h & 0x3ff;
    if (e == 31)
        return m ? 0x7fffffffu : sign | 0x7f800000u;
    if (e == 0) {
        float f = (float)m * 0x1p-24f;
        return fb(sign ? -f : f);
    }
    return sign | ((e - 15 + 127) << 23) | (m << 13);
}
static uint64_t ref_cvt_rni_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    float f = ff(a);
    if (isnan(f)) return 0;
    double r = nearbyint((double)f);
    return u32((uint64_t)(r >= 2147483647.0 ? INT32_MAX : r <= -2147483648.0 ? INT32_MIN : (int64_t)r));
}
static uint64_t ref_cvt_rmi_u32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    float f = ff(a);
    if (isnan(f) || f < 1.0f) return 0;
    double r = floor((double)f);
    return r >= 4294967295.0 ? 0xffffffffu : (uint64_t)r;
}
/* s32 -> f32 under mode m: the nearest floats bracketing the exact value. */
static uint64_t s32_to_f32(uint64_t a, int m)
{
    int64_t v = s32(a);
    float lo = (float)v; /* RN */
    double err = (double)v - (double)lo;
    return fb(m == 1 ? lo : directed(lo, err, m));
}
static uint64_t ref_cvt_rz_f32_s32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return s32_to_f32(a, 2); }
static uint64_t ref_cvt_rp_f32_s32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return s32_to_f32(a, 4); }
static uint64_t ref_cvt_rn_f32_f64(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    double x = dd(a);
    return fres((float)x);
}
static uint64_t ref_cvt_s16_sat_s32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    int64_t v = s32(a);
    return (uint64_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v) & 0xffff;
}
static uint64_t ref_cvt_u8_s32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return a & 0xff; }
static uint64_t ref_cvt_s64_s16(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return (uint64_t)(int64_t)(int16_t)(uint16_t)a; }

/* ---- f16 / bf16: nearest values by search over every encoding ---------- */

/* Value of f16 bits (from the bit-by-bit reference above) and of bf16 bits. */
static double f16v(uint64_t h) { return (double)ff(ref_f16_to_f32(h & 0xffff, 0, 0)); }
static double bf16v(uint64_t h) { return (double)ff((h & 0xffff) << 16); }

/* The encoding nearest to x among the finite values of a 16-bit format
 * (ties to the even encoding), infinity past the largest value's
 * rounding boundary, canonical NaN for NaN: a search over all 65536
 * encodings sorted once. */
typedef struct half_table {
    double v[63488];  /* finite non-negative values, ascending: encodings 0..0x7bff (f16) */
    uint32_t n;
    uint32_t inf;     /* the +infinity encoding */
    double maxv, bound; /* largest finite value; where rounding to infinity starts */
} half_table;

static void table_init(half_table *t, bool bf)
{
    t->n = 0;
    uint32_t last = bf ? 0x7f7f : 0x7bff;
    for (uint32_t h = 0; h <= last; h++)
        t->v[t->n++] = bf ? bf16v(h) : f16v(h);
    t->inf = bf ? 0x7f80 : 0x7c00;
    t->maxv = t->v[t->n - 1];
    double ulp = t->maxv - t->v[t->n - 2];
    t->bound = t->maxv + ulp / 2;
}

static uint64_t nearest(const half_table *t, double x)
{
    if (isnan(x))
        return 0x7fff;
    uint64_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a >= t->bound)
        return sign | t->inf;
    uint32_t lo = 0, hi = t->n - 1;
    while (lo < hi) { /* first encoding with value >= a */
        uint32_t mid = (lo + hi) / 2;
        if (t->v[mid] < a) lo = mid + 1; else hi = mid;
    }
    uint32_t best = lo;
    if (lo > 0) {
        double dlo = a - t->v[lo - 1], dhi = t->v[lo] - a;
        if (dlo < dhi || (dlo == dhi && ((lo - 1) & 1) == 0))
            best = lo - 1;
    }
    return sign | best;
}

static half_table *h16, *hbf; /* built once in main */

/* x*y + z for halves: the product is exact in double (at most 16 or 22
 * bits) but a bf16 sum may need more than 53 bits, and its smaller term can
 * decide a tie (1.125 * 1.8125 + 2^-60 lies just above one). So the double
 * sum is made odd when inexact (TwoSum gives its error): one more rounding
 * to a half is then correct. */
static double fma_to_odd(double x, double y, double z)
{
    double p = x * y, s = p + z;
    if (!isfinite(s))
        return s;
    double v = s - p, e = (p - (s - v)) + (z - v);
    uint64_t u = db(s);
    if (e != 0 && !(u & 1))
        s = nextafter(s, e > 0 ? INFINITY : -INFINITY);
    return s;
}

static uint64_t hop(uint64_t a, uint64_t b, uint64_t c, int op, bool bf, unsigned sh)
{
    const half_table *t = bf ? hbf : h16;
    double (*val)(uint64_t) = bf ? bf16v : f16v;
    double x = val(a >> sh), y = val(b >> sh), z = val(c >> sh);
    uint64_t ha = (a >> sh) & 0xffff, hb = (b >> sh) & 0xffff;
    bool ax = ((ha >> (bf ? 7 : 10)) & (bf ? 0xff : 0x1f)) == (bf ? 0xffu : 0x1fu) && (ha & (bf ? 0x7f : 0x3ff));
    bool bx = ((hb >> (bf ? 7 : 10)) & (bf ? 0xff : 0x1f)) == (bf ? 0xffu : 0x1fu) && (hb & (bf ? 0x7f : 0x3ff));
    if (ax) x = NAN;
    if (bx) y = NAN;
    switch (op) {
    case 0: return nearest(t, x + y);
    case 1: return nearest(t, x * y);
    case 2: return nearest(t, fma_to_odd(x, y, z));
    case 3: /* min */
        if (ax && bx) return 0x7fff;
        if (ax) return hb;
        if (bx) return ha;
        if (x == y) return signbit(x) ? ha : hb;
        return x < y ? ha : hb;
    default: return ha ^ 0x8000;
    }
}

static uint64_t ref_add_f16(uint64_t a, uint64_t b, uint64_t c) { return hop(a, b, c, 0, false, 0); }
static uint64_t ref_mul_f16(uint64_t a, uint64_t b, uint64_t c) { return hop(a, b, c, 1, false, 0); }
static uint64_t ref_fma_f16(uint64_t a, uint64_t b, uint64_t c) { return hop(a, b, c, 2, false, 0); }
static uint64_t ref_fma_bf16(uint64_t a, uint64_t b, uint64_t c) { return hop(a, b, c, 2, true, 0); }
static uint64_t ref_min_f16(uint64_t a, uint64_t b, uint64_t c) { return hop(a, b, c, 3, false, 0); }
static uint64_t ref_add_f16x2(uint64_t a, uint64_t b, uint64_t c)
{
    return hop(a, b, c, 0, false, 0) | hop(a, b, c, 0, false, 16) << 16;
}
static uint64_t ref_neg_bf16x2(uint64_t a, uint64_t b, uint64_t c)
{
    return hop(a, b, c, 4, true, 0) | hop(a, b, c, 4, true, 16) << 16;
}
static uint64_t ref_setp_lt_f16(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    double x = f16v(a), y = f16v(b);
    bool an = (a & 0x7c00) == 0x7c00 && (a & 0x3ff), bn = (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    return !an && !bn && x < y;
}
/* set with f16 sources: 1.0 (f16) per compare that holds for an f16 or
 * f16x2 destination, 0xffff per half for u32 with f16x2. */
static bool f16_cmp(uint64_t a, uint64_t b, unsigned sh, int op)
{
    a = (a >> sh) & 0xffff;
    b = (b >> sh) & 0xffff;
    bool an = (a & 0x7c00) == 0x7c00 && (a & 0x3ff), bn = (b & 0x7c00) == 0x7c00 && (b & 0x3ff);
    double x = f16v(a), y = f16v(b);
    return !an && !bn && (op == 0 ? x == y : op == 1 ? x >= y : x > y);
}
static uint64_t ref_set_eq_f16(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return f16_cmp(a, b, 0, 0) ? 0x3c00 : 0;
}
static uint64_t ref_set_ge_f16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return (f16_cmp(a, b, 0, 1) ? 0x3c00 : 0) | (f16_cmp(a, b, 16, 1) ? 0x3c000000 : 0);
}
static uint64_t ref_set_gt_u32_f16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return (f16_cmp(a, b, 0, 2) ? 0xffff : 0) | (f16_cmp(a, b, 16, 2) ? 0xffff0000 : 0);
}
static uint64_t ref_pack_f16x2(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    return ref_f32_to_f16(a, 0, 0) << 16 | ref_f32_to_f16(b, 0, 0);
}

/* cvt.rna.tf32.f32: the nearest value with 10 mantissa bits, ties away
 * from zero, found by comparing the two candidates. */
static uint64_t ref_tf32(uint64_t a, uint64_t b, uint64_t c)
{
    (void)b; (void)c;
    float x = ff(a);
    if (isnan(x))
        return 0x7fffffffu;
    if (isinf(x))
        return u32(a);
    uint32_t lo = (uint32_t)a & ~0x1fffu, hi = lo + 0x2000u; /* magnitudes around |x| */
    /* hi may be the infinity pattern: its value as a rounding target is 2^128 */
    double vhi = isinf(ff(hi)) ? ldexp(1.0, 128) : fabs((double)ff(hi));
    double dl = fabs((double)x) - fabs((double)ff(lo)), dh = vhi - fabs((double)x);
    return dl < dh ? lo : hi; /* a tie (dl == dh) goes away from zero */
}
/* fns.b32 from the ISA's pseudocode. */
static uint64_t ref_fns(uint64_t a, uint64_t b, uint64_t c)
{
    uint32_t mask = (uint32_t)a;
    int base = (int)(int32_t)(uint32_t)b, off = (int)(int32_t)(uint32_t)c;
    if (off == 0)
        return base >= 0 && base < 32 && ((mask >> base) & 1) ? (uint64_t)base : 0xffffffffu;
    int count = off > 0 ? off - 1 : -off - 1, inc = off > 0 ? 1 : -1;
    for (int pos = base; pos >= 0 && pos < 32; pos += inc)
        if ((mask >> pos) & 1) {
            if (count == 0)
                return (uint64_t)pos;
            count--;
        }
    return 0xffffffffu;
}

/* selp and testp */
static uint64_t ref_selp(uint64_t a, uint64_t b, uint64_t c) { return (c & 1) ? u32(a) : u32(b); }
static uint64_t ref_testp_sub(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return fpclassify(ff(a)) == FP_SUBNORMAL; }
static uint64_t ref_setp_lt_s64(uint64_t a, uint64_t b, uint64_t c) { (void)c; return (int64_t)a < (int64_t)b; }
static uint64_t ref_setp_hs_u32(uint64_t a, uint64_t b, uint64_t c) { (void)c; return u32(a) >= u32(b); }
static uint64_t ref_add_ftz(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float x = ff(a), y = ff(b);
    if (fpclassify(x) == FP_SUBNORMAL) x = copysignf(0, x);
    if (fpclassify(y) == FP_SUBNORMAL) y = copysignf(0, y);
    float r = x + y;
    if (fpclassify(r) == FP_SUBNORMAL) r = copysignf(0, r);
    return fres(r);
}
static uint64_t ref_mul_sat(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    float r = ff(a) * ff(b);
    if (isnan(r)) return 0;
    r = r < 0 ? 0.0f : r > 1 ? 1.0f : r;
    return fb(r == 0 ? 0.0f : r);
}
static uint64_t ref_abs_f32(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return u32(a) & 0x7fffffffu; }
static uint64_t ref_neg_f64(uint64_t a, uint64_t b, uint64_t c) { (void)b; (void)c; return a ^ 0x8000000000000000ull; }
static uint64_t ref_add_f64_rn(uint64_t a, uint64_t b, uint64_t c)
{
    (void)c;
    double x = dd(a), y = dd(b), s = x + y;
    return isnan(s) ? 0x7fffffffffffffffull : db(s);
}

static const op_case cases[] = {
    /* integer */
    {"add.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_add_s32},
    {"sub.u64 D, A, B;", K_B64, K_B64, K_B64, K_B64, 2, G_INT, ref_sub_u64},
    {"add.sat.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_add_sat},
    {"sub.sat.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_sub_sat},
    {"mul.lo.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_mul_lo_s32},
    {"mul.hi.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_mul_hi_s32},
    {"mul.hi.u32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_mul_hi_u32},
    {"mul.hi.u64 D, A, B;", K_B64, K_B64, K_B64, K_B64, 2, G_INT, ref_mul_hi_u64},
    {"mul.hi.s64 D, A, B;", K_B64, K_B64, K_B64, K_B64, 2, G_INT, ref_mul_hi_s64},
    {"mul.wide.s32 D, A, B;", K_B64, K_B32, K_B32, K_B32, 2, G_INT, ref_mul_wide_s32},
    {"mul.wide.u16 D, A, B;", K_B32, K_B16, K_B16, K_B16, 2, G_INT, ref_mul_wide_u16},
    {"mad.lo.s32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_INT, ref_mad_lo_s32},
    {"mad.wide.u32 D, A, B, C;", K_B64, K_B32, K_B32, K_B64, 3, G_INT, ref_mad_wide_u32},
    {"mad.wide.s32 D, A, B, C;", K_B64, K_B32, K_B32, K_B64, 3, G_INT, ref_mad_wide_s32},
    {"and.b32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_and_b32},
    {"or.b64 D, A, B;", K_B64, K_B64, K_B64, K_B64, 2, G_INT, ref_or_b64},
    {"xor.b16 D, A, B;", K_B16, K_B16, K_B16, K_B16, 2, G_INT, ref_xor_b16},
    {"not.b32 D, A;", K_B32, K_B32, K_B32, K_B32, 1, G_INT, ref_not_b32},
    {"mad.hi.sat.s32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_INT, ref_mad_hi_sat},
    {"div.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_SMALL, ref_div_s32},
    {"rem.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_SMALL, ref_rem_s32},
    {"div.u64 D, A, B;", K_B64, K_B64, K_B64, K_B64, 2, G_SMALL, ref_div_u64},
    {"rem.u32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_SMALL, ref_rem_u32},
    {"abs.s32 D, A;", K_B32, K_B32, K_B32, K_B32, 1, G_INT, ref_abs_s32},
    {"neg.s64 D, A;", K_B64, K_B64, K_B64, K_B64, 1, G_INT, ref_neg_s64},
    {"min.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_min_s32},
    {"max.u32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_max_u32},
    {"shl.b32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_SHIFT, ref_shl_b32},
    {"shr.u32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_SHIFT, ref_shr_u32},
    {"shr.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_SHIFT, ref_shr_s32},
    {"shr.s64 D, A, B;", K_B64, K_B64, K_B32, K_B32, 2, G_SHIFT, ref_shr_s64},
    {"lop3.b32 D, A, B, C, 0xCA;", K_B32, K_B32, K_B32, K_B32, 3, G_INT, ref_lop},
    {"popc.b64 D, A;", K_B32, K_B64, K_B64, K_B64, 1, G_INT, ref_popc64},
    {"clz.b32 D, A;", K_B32, K_B32, K_B32, K_B32, 1, G_INT, ref_clz32},
    {"brev.b64 D, A;", K_B64, K_B64, K_B64, K_B64, 1, G_INT, ref_brev64},
    {"bfind.s32 D, A;", K_B32, K_B32, K_B32, K_B32, 1, G_INT, ref_bfind_s32},
    {"bfind.shiftamt.u32 D, A;", K_B32, K_B32, K_B32, K_B32, 1, G_INT, ref_bfind_u32_shift},
    {"bfe.u32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_SHIFT, ref_bfe_u32},
    {"bfe.s32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_SHIFT, ref_bfe_s32},
    {"prmt.b32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_INT, ref_prmt},
    {"shf.l.wrap.b32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_SHIFT, ref_shf_l_wrap},
    {"shf.r.clamp.b32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_SHIFT, ref_shf_r_clamp},
    {"sad.u32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_INT, ref_sad_u32},
    {"dp4a.s32.s32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_INT, ref_dp4a_ss},
    {"mul24.lo.s32 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_INT, ref_mul24_lo},
    /* float */
    {"add.rn.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_add_rn},
    {"add.rz.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_add_rz},
    {"add.rm.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_add_rm},
    {"add.rp.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_add_rp},
    {"sub.rz.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_sub_rz},
    {"mul.rn.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_mul_rn},
    {"mul.rz.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_mul_rz},
    {"mul.rm.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_mul_rm},
    {"mul.rp.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_mul_rp},
    {"fma.rn.f32 D, A, B, C;", K_F32, K_F32, K_F32, K_F32, 3, G_F32, ref_fma_rn},
    {"mad.rn.f32 D, A, B, C;", K_F32, K_F32, K_F32, K_F32, 3, G_F32, ref_fma_rn},
    {"fma.rz.f32 D, A, B, C;", K_F32, K_F32, K_F32, K_F32, 3, G_F32, ref_fma_rz},
    {"fma.rm.f32 D, A, B, C;", K_F32, K_F32, K_F32, K_F32, 3, G_F32, ref_fma_rm},
    {"fma.rp.f32 D, A, B, C;", K_F32, K_F32, K_F32, K_F32, 3, G_F32, ref_fma_rp},
    {"div.rn.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_div_rn},
    {"div.rz.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_div_rz},
    {"sqrt.rn.f32 D, A;", K_F32, K_F32, K_F32, K_F32, 1, G_F32, ref_sqrt_rn},
    {"min.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_min_f32},
    {"max.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_max_f32},
    {"min.NaN.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_min_nan},
    {"add.ftz.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_add_ftz},
    {"mul.sat.f32 D, A, B;", K_F32, K_F32, K_F32, K_F32, 2, G_F32, ref_mul_sat},
    {"abs.f32 D, A;", K_F32, K_F32, K_F32, K_F32, 1, G_F32, ref_abs_f32},
    {"neg.f64 D, A;", K_F64, K_F64, K_F64, K_F64, 1, G_F64, ref_neg_f64},
    {"add.rn.f64 D, A, B;", K_F64, K_F64, K_F64, K_F64, 2, G_F64, ref_add_f64_rn},
    /* compare and select */
    {"setp.lt.f32 D, A, B;", K_PRED, K_F32, K_F32, K_F32, 2, G_F32, ref_lt_f},
    {"setp.ltu.f32 D, A, B;", K_PRED, K_F32, K_F32, K_F32, 2, G_F32, ref_ltu_f},
    {"setp.ne.f32 D, A, B;", K_PRED, K_F32, K_F32, K_F32, 2, G_F32, ref_ne_f},
    {"setp.neu.f32 D, A, B;", K_PRED, K_F32, K_F32, K_F32, 2, G_F32, ref_neu_f},
    {"setp.num.f32 D, A, B;", K_PRED, K_F32, K_F32, K_F32, 2, G_F32, ref_num_f},
    {"setp.ge.ftz.f32 D, A, B;", K_PRED, K_F32, K_F32, K_F32, 2, G_F32, ref_ge_ftz},
    {"setp.lt.s64 D, A, B;", K_PRED, K_B64, K_B64, K_B64, 2, G_INT, ref_setp_lt_s64},
    {"setp.hs.u32 D, A, B;", K_PRED, K_B32, K_B32, K_B32, 2, G_INT, ref_setp_hs_u32},
    {"selp.b32 D, A, B, C;", K_B32, K_B32, K_B32, K_PRED, 3, G_INT, ref_selp},
    {"testp.subnormal.f32 D, A;", K_PRED, K_F32, K_F32, K_F32, 1, G_F32, ref_testp_sub},
    /* conversions */
    {"cvt.rn.f16.f32 D, A;", K_B16, K_F32, K_F32, K_F32, 1, G_F32, ref_f32_to_f16},
    {"cvt.f32.f16 D, A;", K_F32, K_B16, K_B16, K_B16, 1, G_INT, ref_f16_to_f32},
    {"cvt.rni.s32.f32 D, A;", K_B32, K_F32, K_F32, K_F32, 1, G_F32, ref_cvt_rni_s32},
    {"cvt.rmi.u32.f32 D, A;", K_B32, K_F32, K_F32, K_F32, 1, G_F32, ref_cvt_rmi_u32},
    {"cvt.rz.f32.s32 D, A;", K_F32, K_B32, K_B32, K_B32, 1, G_INT, ref_cvt_rz_f32_s32},
    {"cvt.rp.f32.s32 D, A;", K_F32, K_B32, K_B32, K_B32, 1, G_INT, ref_cvt_rp_f32_s32},
    {"cvt.rn.f32.f64 D, A;", K_F32, K_F64, K_F64, K_F64, 1, G_F64, ref_cvt_rn_f32_f64},
    {"cvt.sat.s16.s32 D, A;", K_B16, K_B32, K_B32, K_B32, 1, G_INT, ref_cvt_s16_sat_s32},
    {"cvt.u8.s32 D, A;", K_B16, K_B32, K_B32, K_B32, 1, G_INT, ref_cvt_u8_s32},
    {"cvt.s64.s16 D, A;", K_B64, K_B16, K_B16, K_B16, 1, G_INT, ref_cvt_s64_s16},
    {"cvt.rna.tf32.f32 D, A;", K_B32, K_F32, K_F32, K_F32, 1, G_F32, ref_tf32},
    {"fns.b32 D, A, B, C;", K_B32, K_B32, K_B32, K_B32, 3, G_SHIFT, ref_fns},
    /* half precision */
    {"add.f16 D, A, B;", K_B16, K_B16, K_B16, K_B16, 2, G_HALF, ref_add_f16},
    {"mul.f16 D, A, B;", K_B16, K_B16, K_B16, K_B16, 2, G_HALF, ref_mul_f16},
    {"fma.rn.f16 D, A, B, C;", K_B16, K_B16, K_B16, K_B16, 3, G_HALF, ref_fma_f16},
    {"fma.rn.bf16 D, A, B, C;", K_B16, K_B16, K_B16, K_B16, 3, G_HALF, ref_fma_bf16},
    {"min.f16 D, A, B;", K_B16, K_B16, K_B16, K_B16, 2, G_HALF, ref_min_f16},
    {"add.f16x2 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_HALF, ref_add_f16x2},
    {"neg.bf16x2 D, A;", K_B32, K_B32, K_B32, K_B32, 1, G_HALF, ref_neg_bf16x2},
    {"setp.lt.f16 D, A, B;", K_PRED, K_B16, K_B16, K_B16, 2, G_HALF, ref_setp_lt_f16},
    {"set.eq.f16.f16 D, A, B;", K_B16, K_B16, K_B16, K_B16, 2, G_HALF, ref_set_eq_f16},
    {"set.ge.f16x2.f16x2 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_HALF, ref_set_ge_f16x2},
    {"set.gt.u32.f16x2 D, A, B;", K_B32, K_B32, K_B32, K_B32, 2, G_HALF, ref_set_gt_u32_f16x2},
    {"cvt.rn.f16x2.f32 D, A, B;", K_B32, K_F32, K_F32, K_F32, 2, G_F32, ref_pack_f16x2},
};

/* Carry chains need two instructions: tested as one case with its own
 * kernel text. */
static const op_case carry_case = {
    "mov.b64 {%r1, %r2}, %rd1;\nmov.b64 {%r3, %r4}, %rd2;\nadd.cc.u32 %r5, %r1, %r3;\n"
    "addc.u32 %r6, %r2, %r4;\nmov.b64 %rd4, {%r5, %r6};", K_B64, K_B64, K_B64, K_B64, 2, G_INT,
    ref_addc_chain};

/* ---- inputs ------------------------------------------------------------------ */

static const uint64_t int_edges[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe,
                                     0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, 0xffff,
                                     0x8000, 0x7fff, 0x10000, 31, 32, 33, 63, 64, 65, 255, 256};
static const float f32_edges[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1.5f, 2.5f, -2.5f, 3.0f,
                                  1e-45f, -1e-45f, 1.17549435e-38f, 1.1754942e-38f, 3.4028235e38f,
                                  -3.4028235e38f, INFINITY, -INFINITY, NAN, -NAN, 16777216.0f,
                                  16777217.0f, 0.1f, 1e30f, 1e-30f, 65504.0f, 65520.0f, 6.1e-5f,
                                  6e-8f, 2.98e-8f};

/* Input k (0 .. N-1) of operand `which` for distribution g. */
static uint64_t input(gen g, unsigned which, unsigned k, uint64_t *seed)
{
    uint64_t r = emu_rand(seed);
    switch (g) {
    case G_INT: {
        unsigned ne = sizeof int_edges / sizeof *int_edges;
        if (k < ne * ne) /* all pairs of edges for the first two operands */
            return int_edges[which == 0 ? k % ne : which == 1 ? k / ne : (k * 7 + 3) % ne];
        return (r & 3) == 0 ? r & 0xff : (r & 3) == 1 ? (uint64_t)(int64_t)(int32_t)r : r;
    }
    case G_SHIFT:
        if (which == 0)
            return k < 64 ? 0x80000001u + k : r;
        return which == 1 ? (k < 80 ? k : r % 80) : (r % 40);
    case G_SMALL:
        if (k < 512)
            return int_edges[(k + which * 5) % (sizeof int_edges / sizeof *int_edges)];
        return which == 1 && (r & 7) == 0 ? 0 : (r & 1) ? (uint64_t)(int64_t)(int32_t)(r >> 8) % 1000 : r;
    case G_F32: {
        unsigned ne = sizeof f32_edges / sizeof *f32_edges;
        if (k < ne * ne)
            return fb(f32_edges[which == 0 ? k % ne : which == 1 ? k / ne : (k * 5 + 1) % ne]);
        if ((r & 7) == 0) /* near ties: values a few ulps apart */
            return fb(1.0f + (float)(r >> 40 & 0xff) * 0x1p-23f);
        uint32_t bits = (uint32_t)(r >> 16);
        if ((r & 3) == 1) /* moderate exponents */
            bits = (bits & 0x807fffffu) | ((uint32_t)(100 + (r >> 8) % 56) << 23);
        return bits;
    }
    case G_HALF: {
        static const uint16_t edges[] = {0, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x8001, 0x03ff, 0x0400,
                                         0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x3800,
                                         0x3555, 0x5640, 0x7f7f, 0x3f80, 0x0080,
                                         /* (k = 482) bf16 1.125 * 1.8125 + 2^-60: above a tie */
                                         0x3fe8, 0x2180, 0x3f90};
        unsigned ne = sizeof edges / sizeof *edges;
        if (k < ne * ne)
            return edges[which == 0 ? k % ne : which == 1 ? k / ne : (k * 3 + 1) % ne] *
                   0x10001ull; /* the same half in both lanes of x2 */
        return (r & 1) ? (r >> 8) & 0xffffffff : ((r >> 8) & 0x3fff3fff) | 0x1c001c00; /* moderate */
    }
    default: {
        if (k < 64)
            return db((double)f32_edges[k % (sizeof f32_edges / sizeof *f32_edges)] * (k & 1 ? 1.0 : 3.0));
        return (r & 3) == 0 ? db((double)(int32_t)r) : r;
    }
    }
}

/* ---- the kernel ---------------------------------------------------------------- */

/* Register name of operand slot (1 A, 2 B, 3 C, 4 D) of kind k. */
static void reg_name(kind k, int slot, char *out, size_t n)
{
    snprintf(out, n, "%s%d", reg_prefix(k), slot);
}

/* Load instruction for an operand of kind k from [%rd{addr}]. */
static void load(kind k, int slot, int addr, char *out, size_t n)
{
    char r[16];
    reg_name(k, slot, r, sizeof r);
    switch (k) {
    case K_B16: snprintf(out, n, "ld.global.b16 %s, [%%rd%d];\n", r, addr); break;
    case K_B32: snprintf(out, n, "ld.global.b32 %s, [%%rd%d];\n", r, addr); break;
    case K_B64: snprintf(out, n, "ld.global.b64 %s, [%%rd%d];\n", r, addr); break;
    case K_F32: snprintf(out, n, "ld.global.f32 %s, [%%rd%d];\n", r, addr); break;
    case K_F64: snprintf(out, n, "ld.global.f64 %s, [%%rd%d];\n", r, addr); break;
    default:
        snprintf(out, n, "ld.global.b32 %%r9, [%%rd%d];\nsetp.ne.b32 %s, %%r9, 0;\n", addr, r);
        break;
    }
}

/* Build the kernel of one case: k(in0, in1, in2, out, n) runs the
 * instruction on element i of each input (8-byte slots). */
static char *kernel_text(const op_case *oc)
{
    static const char *head =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 i0, .param .u64 i1, .param .u64 i2, .param .u64 o, .param .u32 n)\n{\n"
        ".reg .pred %p<6>;\n.reg .b16 %h<6>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<20>;\n"
        ".reg .f32 %f<6>;\n.reg .f64 %fd<6>;\n"
        "mov.u32 %r10, %ctaid.x;\nmov.u32 %r11, %ntid.x;\nmov.u32 %r9, %tid.x;\n"
        "mad.lo.u32 %r10, %r10, %r11, %r9;\nld.param.u32 %r11, [n];\n"
        "setp.ge.u32 %p5, %r10, %r11;\n@%p5 bra DONE;\nmul.wide.u32 %rd19, %r10, 8;\n"
        "ld.param.u64 %rd11, [i0];\nld.param.u64 %rd12, [i1];\nld.param.u64 %rd13, [i2];\n"
        "ld.param.u64 %rd14, [o];\nadd.s64 %rd11, %rd11, %rd19;\nadd.s64 %rd12, %rd12, %rd19;\n"
        "add.s64 %rd13, %rd13, %rd19;\nadd.s64 %rd14, %rd14, %rd19;\n";
    size_t cap = 8192;
    char *t = malloc(cap), line[256];
    snprintf(t, cap, "%s", head);
    kind ks[3] = {oc->a, oc->b, oc->c};
    for (int i = 0; i < oc->nsrc; i++) {
        load(ks[i], i + 1, 11 + i, line, sizeof line);
        strcat(t, line);
    }
    /* the instruction with D, A, B, C replaced */
    char ins[512] = "";
    for (const char *p = oc->instr; *p; p++) {
        char r[16] = "";
        if (*p == 'D' && (p[1] == ',' || p[1] == ';'))
            reg_name(oc->d, 4, r, sizeof r);
        else if ((*p == 'A' || *p == 'B' || *p == 'C') && (p[1] == ',' || p[1] == ';') && p[-1] == ' ')
            reg_name(ks[*p - 'A'], *p - 'A' + 1, r, sizeof r);
        if (r[0])
            strcat(ins, r);
        else
            strncat(ins, p, 1);
    }
    strcat(t, ins);
    strcat(t, "\n");
    char d[16];
    reg_name(oc->d, 4, d, sizeof d);
    switch (oc->d) {
    case K_B16: snprintf(line, sizeof line, "cvt.u64.u16 %%rd15, %s;\n", d); break;
    case K_B32: case K_F32: snprintf(line, sizeof line, "mov.b32 %%r8, %s;\ncvt.u64.u32 %%rd15, %%r8;\n", d); break;
    case K_PRED: snprintf(line, sizeof line, "selp.u64 %%rd15, 1, 0, %s;\n", d); break;
    default: snprintf(line, sizeof line, "mov.b64 %%rd15, %s;\n", d); break;
    }
    strcat(t, line);
    strcat(t, "st.global.u64 [%rd14], %rd15;\nDONE:\nret;\n}\n");
    return t;
}

/* Width in bits of kind k's values. */
static unsigned kind_bits(kind k)
{
    static const unsigned b[] = {16, 32, 64, 32, 64, 1};
    return b[k];
}

static void run_case(const op_case *oc)
{
    char *text = kernel_text(oc);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    static uint64_t in[3][N], out[N];
    uint64_t seed = 0x1234567 + (uint64_t)(uintptr_t)oc->instr[0] * 131 + strlen(oc->instr);
    kind ks[3] = {oc->a, oc->b, oc->c};
    for (unsigned w = 0; w < 3; w++)
        for (unsigned k = 0; k < N; k++) {
            uint64_t v = input(oc->g, w, k, &seed);
            unsigned bits = kind_bits(ks[w]);
            in[w][k] = bits >= 64 ? v : bits == 1 ? v & 1 : v & ((1ull << bits) - 1);
        }
    uint64_t d0 = emu_buf(&e, in[0], sizeof in[0]), d1 = emu_buf(&e, in[1], sizeof in[1]),
             d2 = emu_buf(&e, in[2], sizeof in[2]), dout = emu_buf(&e, NULL, sizeof out);
    uint32_t n = N;
    const void *args[] = {&d0, &d1, &d2, &dout, &n};
    emu_run(&e, "k", emu_cfg(N / 256, 1, 256, 1), args);
    emu_read(&e, out, dout, sizeof out);
    for (unsigned k = 0; k < N; k++) {
        uint64_t want = oc->ref(in[0][k], in[1][k], in[2][k]);
        unsigned bits = kind_bits(oc->d);
        if (bits < 64)
            want &= bits == 1 ? 1 : (1ull << bits) - 1;
        if (out[k] != want)
            fail_msg("%s\ninputs %#llx %#llx %#llx: got %#llx, want %#llx", oc->instr,
                     (unsigned long long)in[0][k], (unsigned long long)in[1][k],
                     (unsigned long long)in[2][k], (unsigned long long)out[k], (unsigned long long)want);
    }
    free(text);
    emu_close(&e);
}

static void test_instructions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        run_case(&cases[i]);
    run_case(&carry_case);
    print_message("%zu instruction forms, %d inputs each\n", sizeof cases / sizeof *cases + 1, N);
}

/* .approx functions stay within the ISA's bounds of the exact value. */
static void test_approx_bounds(void **state)
{
    (void)state;
    static const struct { const char *instr; double (*exact)(double); double lo, hi; double abs_err, rel_err; } fns[] = {
        {"sin.approx.f32 D, A;", sin, -3.14159265, 3.14159265, 0x1p-20, 0},
        {"cos.approx.f32 D, A;", cos, -3.14159265, 3.14159265, 0x1p-20, 0},
        {"lg2.approx.f32 D, A;", log2, 0.01, 1000.0, 0x1p-20, 0},
        {"ex2.approx.f32 D, A;", exp2, -20.0, 20.0, 0, 0x1p-21},
    };
    for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
        op_case oc = {fns[i].instr, K_F32, K_F32, K_F32, K_F32, 1, G_F32, NULL};
        char *text = kernel_text(&oc);
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        static uint64_t in[N], out[N];
        for (unsigned k = 0; k < N; k++)
            in[k] = fb((float)(fns[i].lo + (fns[i].hi - fns[i].lo) * k / (N - 1)));
        uint64_t d0 = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof out);
        uint32_t n = N;
        const void *args[] = {&d0, &d0, &d0, &dout, &n};
        emu_run(&e, "k", emu_cfg(N / 256, 1, 256, 1), args);
        emu_read(&e, out, dout, sizeof out);
        for (unsigned k = 0; k < N; k++) {
            double x = ff(in[k]), want = fns[i].exact(x), got = ff(out[k]);
            double bound = fns[i].abs_err + fns[i].rel_err * fabs(want);
            if (!(fabs(got - want) <= bound))
                fail_msg("%s at %a: %a, exact %a", fns[i].instr, x, got, want);
        }
        free(text);
        emu_close(&e);
    }
}

/* Atomics: contended f16 and f32 additions, 16-bit cas, inc/dec wrap,
 * against sequential references. */
static void test_atomics(void **state)
{
    (void)state;
    static const char *text = PTX_TEST_HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        ".reg .pred %p<2>;\n.reg .b16 %h<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n.reg .f32 %f<2>;\n"
        "ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\n"
        "mov.b16 %h1, 0x3c00;\n"                                    /* 1.0 in f16 */
        "atom.global.add.noftz.f16 %h2, [%rd1], %h1;\n"             /* [0]: sum of 1.0 */
        "mov.f32 %f1, 0f3F000000;\n"
        "atom.global.add.f32 %f1, [%rd1+4], %f1;\n"                 /* [4]: sum of 0.5 */
        "cvt.u16.u32 %h3, %r1;\n"
        "add.s64 %rd2, %rd1, 8;\nmul.wide.u32 %rd3, %r1, 2;\nadd.s64 %rd2, %rd2, %rd3;\n"
        "atom.global.cas.b16 %h2, [%rd2], 0, %h3;\n"                /* [8+2i]: 0 -> i */
        "atom.global.inc.u32 %r2, [%rd1+1032], 6;\n"                /* wraps after 6 */
        "atom.global.dec.u32 %r3, [%rd1+1036], 4;\n"
        "ret;\n}\n";
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint8_t mem[1040] = {0};
    uint64_t d = emu_buf(&e, mem, sizeof mem);
    const void *args[] = {&d};
    emu_run(&e, "k", emu_cfg(2, 1, 256, 1), args); /* 512 threads */
    emu_read(&e, mem, d, sizeof mem);
    uint16_t h;
    memcpy(&h, mem, 2);
    assert_int_equal(h, 0x6000); /* 512.0 in f16 */
    float f;
    memcpy(&f, mem + 4, 4);
    assert_true(f == 256.0f);
    for (int i = 0; i < 256; i++) { /* the second block found the values set */
        uint16_t v;
        memcpy(&v, mem + 8 + 2 * i, 2);
        assert_int_equal(v, i);
    }
    uint32_t inc, dec;
    memcpy(&inc, mem + 1032, 4);
    memcpy(&dec, mem + 1036, 4);
    uint32_t wi = 0, wd = 0;
    for (int i = 0; i < 512; i++) { /* the ISA's definitions, applied in order */
        wi = wi >= 6 ? 0 : wi + 1;
        wd = (wd == 0 || wd > 4) ? 4 : wd - 1;
    }
    assert_int_equal(inc, wi);
    assert_int_equal(dec, wd);
    emu_close(&e);
}

int main(void)
{
    static half_table t16, tbf;
    table_init(&t16, false);
    table_init(&tbf, true);
    h16 = &t16;
    hbf = &tbf;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_instructions),
        cmocka_unit_test(test_approx_bounds),
        cmocka_unit_test(test_atomics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
