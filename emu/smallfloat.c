/* smallfloat.c — exact conversions between doubles and narrow binary
 * floating-point formats (f16, bf16, and f32 itself), by any rounding
 * mode, for cvt and the half-precision arithmetic; and the fp8, fp6, fp4
 * and ue8m0 formats of cvt's packed conversions. */
#include <math.h>

#include "emu/smallfloat.h"

/* Round an integral-or-not double n to an integer by mode (1 rn even,
 * 2 rz, 3 rm, 4 rp), x's sign deciding the direction for rm/rp when n is a
 * magnitude (neg). */
double sim_round_mag(double n, int rnd, bool neg)
{
    switch (rnd) {
    case 2: return trunc(n);
    case 3: return neg ? ceil(n) : floor(n);
    case 4: return neg ? floor(n) : ceil(n);
    default: {
        double r = nearbyint(n); /* the host is in round-to-nearest-even here */
        return r;
    }
    }
}

/* a (finite, positive) rounded by mode rnd (0 or 1 nearest even, 2
 * toward zero, 3 down, 4 up; neg: a is the magnitude of a negative value)
 * to mb mantissa bits, with exponents below emin giving subnormals and no
 * upper bound: the result is r * 2^(E - mb) with r < 2^(mb + 1), and
 * r < 2^mb only for a subnormal (E == emin) or zero. */
static void round_significand(double a, int rnd, bool neg, unsigned mb, int emin, int *E, double *r)
{
    int e;
    frexp(a, &e);
    *E = e - 1 < emin ? emin : e - 1;
    double n = ldexp(a, (int)mb - *E); /* exact: a scaled by a power of two */
    *r = sim_round_mag(n, rnd ? rnd : 1, neg);
    if (*r >= ldexp(1.0, (int)mb + 1)) {
        (*E)++;
        *r = ldexp(*r, -1);
    }
}

/* x (exact double) to a binary format with `eb` exponent and `mb`
 * mantissa bits, rounded by mode rnd; returns its bits. */
uint64_t sim_to_small_float(double x, int rnd, unsigned eb, unsigned mb)
{
    uint64_t sign = signbit(x) ? 1ull << (eb + mb) : 0, emask = ((1ull << eb) - 1) << mb;
    if (isnan(x))
        return (1ull << (eb + mb)) - 1; /* 0x7fff for f16 and bf16 */
    double a = fabs(x);
    int bias = (1 << (eb - 1)) - 1, emin = 1 - bias;
    uint64_t maxfin = emask - (1ull << mb) + ((1ull << mb) - 1); /* largest finite */
    if (isinf(a))
        return sign | emask;
    if (a == 0)
        return sign;
    int E;
    double r;
    round_significand(a, rnd, sign != 0, mb, emin, &E, &r);
    if (E > bias) { /* overflow */
        bool to_inf = rnd <= 1 || (rnd == 3 && sign) || (rnd == 4 && !sign);
        return sign | (to_inf ? emask : maxfin);
    }
    uint64_t m = (uint64_t)r;
    if (m < (1ull << mb))
        return sign | m; /* subnormal (E == emin) or zero */
    return sign | ((uint64_t)(E + bias) << mb) | (m - (1ull << mb));
}

/* ---- the narrow formats of cvt (fp8, fp6, fp4, ue8m0) ------------------- */

const sim_narrow_fmt SIM_E4M3 = {4, 3, SIM_NARROW_NAN}, SIM_E5M2 = {5, 2, SIM_NARROW_IEEE},
                     SIM_E2M3 = {2, 3, SIM_NARROW_FINITE}, SIM_E3M2 = {3, 2, SIM_NARROW_FINITE},
                     SIM_E2M1 = {2, 1, SIM_NARROW_FINITE};

/* The largest finite encoding of f (without the sign). */
static uint64_t narrow_maxfin(sim_narrow_fmt f)
{
    uint64_t all = (1ull << (f.eb + f.mb)) - 1;
    switch (f.special) {
    case SIM_NARROW_IEEE: return all - (1ull << f.mb);     /* exponent all ones but one, mantissa all ones */
    case SIM_NARROW_NAN: return all - 1;                  /* S.1111.110 */
    default: return all;
    }
}

double sim_from_narrow(uint64_t v, sim_narrow_fmt f)
{
    uint64_t mag = v & ((1ull << (f.eb + f.mb)) - 1);
    uint64_t e = mag >> f.mb, m = mag & ((1ull << f.mb) - 1);
    bool neg = (v >> (f.eb + f.mb)) & 1;
    int bias = (1 << (f.eb - 1)) - 1;
    double r;
    if (f.special == SIM_NARROW_IEEE && e == (1ull << f.eb) - 1)
        r = m ? NAN : INFINITY;
    else if (f.special == SIM_NARROW_NAN && mag == (1ull << (f.eb + f.mb)) - 1)
        r = NAN;
    else if (e == 0)
        r = ldexp((double)m, 1 - bias - (int)f.mb);
    else
        r = ldexp((double)(m | (1ull << f.mb)), (int)e - bias - (int)f.mb);
    return neg ? -r : r;
}

uint64_t sim_to_narrow_satfinite(double x, sim_narrow_fmt f)
{
    uint64_t signbit_ = 1ull << (f.eb + f.mb), maxfin = narrow_maxfin(f);
    if (isnan(x))
        return f.special == SIM_NARROW_FINITE ? maxfin : signbit_ - 1;
    uint64_t sign = signbit(x) ? signbit_ : 0;
    double a = fabs(x);
    if (a == 0)
        return sign;
    if (isinf(a) || a > sim_from_narrow(maxfin, f))
        return sign | maxfin;
    int bias = (1 << (f.eb - 1)) - 1, E;
    double r;
    round_significand(a, 1, false, f.mb, 1 - bias, &E, &r); /* a <= the largest value: so is r */
    uint64_t m = (uint64_t)r;
    if (m < (1ull << f.mb))
        return sign | m; /* subnormal or zero */
    return sign | ((uint64_t)(E + bias) << f.mb) | (m - (1ull << f.mb));
}

uint64_t sim_to_ue8m0(double x, int rnd, bool satfinite)
{
    if (isnan(x))
        return 0xff;
    double a = fabs(x);
    if (isinf(a))
        return satfinite ? 0xfe : 0xff;
    if (a == 0)
        return 0; /* the smallest value, 2^-127 */
    int e;
    double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int k = e - 1 + (rnd == 4 && f != 0.5); /* the power of two below a, or above it rounding up */
    int biased = k + 127;
    if (biased < 0)
        return 0;
    if (biased > 254)
        return satfinite ? 0xfe : 0xff;
    return (uint64_t)biased;
}

/* The exact value of a small float's bits. */
double sim_from_small_float(uint64_t v, unsigned eb, unsigned mb)
{
    uint64_t e = (v >> mb) & ((1ull << eb) - 1), m = v & ((1ull << mb) - 1);
    bool neg = (v >> (eb + mb)) & 1;
    int bias = (1 << (eb - 1)) - 1;
    double r;
    if (e == (1ull << eb) - 1)
        r = m ? NAN : INFINITY;
    else if (e == 0)
        r = ldexp((double)m, 1 - bias - (int)mb);
    else
        r = ldexp((double)(m | (1ull << mb)), (int)e - bias - (int)mb);
    return neg ? -r : r;
}

