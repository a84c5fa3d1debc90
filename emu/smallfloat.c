/* smallfloat.c — exact conversions between doubles and narrow binary
 * floating-point formats (f16, bf16, and f32 itself), by any rounding
 * mode, for cvt and the half-precision arithmetic. */
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
    int e;
    frexp(a, &e);
    int E = e - 1 < emin ? emin : e - 1;
    double n = ldexp(a, (int)mb - E); /* exact: a scaled by a power of two */
    double r = sim_round_mag(n, rnd ? rnd : 1, sign != 0);
    if (r >= ldexp(1.0, (int)mb + 1)) {
        E++;
        r = ldexp(r, -1);
    }
    if (E > bias) { /* overflow */
        bool to_inf = rnd <= 1 || (rnd == 3 && sign) || (rnd == 4 && !sign);
        return sign | (to_inf ? emask : maxfin);
    }
    uint64_t m = (uint64_t)r;
    if (m < (1ull << mb))
        return sign | m; /* subnormal (E == emin) or zero */
    return sign | ((uint64_t)(E + bias) << mb) | (m - (1ull << mb));
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

