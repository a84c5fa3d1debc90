/* smallfloat.c — exact conversions between doubles and narrow binary
 * floating-point formats (f16, bf16, tf32, and f32 itself), by any
 * rounding mode (cvt's stochastic rounding included), for cvt and the
 * half-precision arithmetic; and the fp8, fp6, fp4 and ue8m0 formats of
 * cvt's packed conversions. */
#include <math.h>

#include "emulator/smallfloat.h"

/* Round an integral-or-not double n to an integer by mode (1 rn even,
 * 2 rz, 3 rm, 4 rp, 5 nearest with ties away from zero), x's sign
 * deciding the direction for rm/rp when n is a magnitude (neg). */
double sim_round_mag(double n, int rnd, bool neg)
{
    switch (rnd) {
    case 2: return trunc(n);
    case 3: return neg ? ceil(n) : floor(n);
    case 4: return neg ? floor(n) : ceil(n);
    case 5: return round(n); /* C's round: halfway cases away from zero */
    default: {
        double r = nearbyint(n); /* the host is in round-to-nearest-even here */
        return r;
    }
    }
}

/* A magnitude n (>= 0) rounded stochastically to an integer: floor(n),
 * or floor(n) + 1 when the nbits-bit random value rbits, added as an
 * integer to the nbits most significant bits of n's fraction (the bits
 * the rounding cuts off), carries out of them; fraction bits below those
 * nbits take no part. Sets *away to whether it carried. */
static double round_stochastic(double n, uint32_t rbits, unsigned nbits, bool *away)
{
    double whole = floor(n);
    double top = floor(ldexp(n - whole, (int)nbits)); /* exact: scaling by a power of two */
    *away = top + (double)(rbits & ((1u << nbits) - 1)) >= ldexp(1.0, (int)nbits);
    return *away ? whole + 1 : whole;
}

/* How a value is rounded: a sim_round_mag mode, or SIM_RND_RS with its
 * random bits. */
typedef struct rounding {
    int mode;
    uint32_t rbits;
    unsigned nbits;
} rounding;

/* a (finite, positive) rounded by rounding rd (mode 0 or 1 nearest
 * even; neg: a is the magnitude of a negative value) to mb mantissa bits,
 * with exponents below emin giving subnormals and no upper bound: the
 * result is r * 2^(E - mb) with r < 2^(mb + 1), and r < 2^mb only for a
 * subnormal (E == emin) or zero. *away: for the stochastic rounding,
 * whether its random bits carried (the magnitude went up). */
static void round_significand(double a, rounding rd, bool neg, unsigned mb, int emin, int *E, double *r,
                              bool *away)
{
    int e;
    frexp(a, &e);
    *E = e - 1 < emin ? emin : e - 1;
    double n = ldexp(a, (int)mb - *E); /* exact: a scaled by a power of two */
    if (rd.mode == SIM_RND_RS) {
        *r = round_stochastic(n, rd.rbits, rd.nbits, away);
    } else {
        *r = sim_round_mag(n, rd.mode ? rd.mode : 1, neg);
        *away = false;
    }
    if (*r >= ldexp(1.0, (int)mb + 1)) {
        (*E)++;
        *r = ldexp(*r, -1);
    }
}

/* x (exact double) to a binary format with `eb` exponent and `mb`
 * mantissa bits, rounded by rd; returns its bits. An overflow gives
 * infinity when the rounding is to nearest or went away from zero, else
 * the largest finite value (IEEE 754's directed roundings). */
static uint64_t to_small(double x, rounding rd, unsigned eb, unsigned mb)
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
    bool away;
    round_significand(a, rd, sign != 0, mb, emin, &E, &r, &away);
    if (E > bias) { /* overflow */
        bool nearest = rd.mode <= 1 || rd.mode == 5;
        bool up = rd.mode == 3 ? sign != 0 : rd.mode == 4 ? sign == 0 : rd.mode == SIM_RND_RS && away;
        return sign | (nearest || up ? emask : maxfin);
    }
    uint64_t m = (uint64_t)r;
    if (m < (1ull << mb))
        return sign | m; /* subnormal (E == emin) or zero */
    return sign | ((uint64_t)(E + bias) << mb) | (m - (1ull << mb));
}

uint64_t sim_to_small_float(double x, int rnd, unsigned eb, unsigned mb)
{
    return to_small(x, (rounding){rnd, 0, 0}, eb, mb);
}

uint64_t sim_to_small_float_rs(double x, unsigned eb, unsigned mb, uint32_t rbits, unsigned nbits)
{
    return to_small(x, (rounding){SIM_RND_RS, rbits, nbits}, eb, mb);
}

uint64_t sim_small_float_max(unsigned eb, unsigned mb)
{
    return (((1ull << eb) - 2) << mb) | ((1ull << mb) - 1);
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

/* x into narrow format f with .satfinite, rounded by rd (to nearest
 * even, or stochastically): see sim_to_narrow_satfinite. */
static uint64_t to_narrow(double x, sim_narrow_fmt f, rounding rd)
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
    bool away;
    round_significand(a, rd, false, f.mb, 1 - bias, &E, &r, &away); /* a <= the largest value: so is r */
    uint64_t m = (uint64_t)r;
    if (m < (1ull << f.mb))
        return sign | m; /* subnormal or zero */
    return sign | ((uint64_t)(E + bias) << f.mb) | (m - (1ull << f.mb));
}

uint64_t sim_to_narrow_satfinite(double x, sim_narrow_fmt f)
{
    return to_narrow(x, f, (rounding){1, 0, 0});
}

uint64_t sim_to_narrow_satfinite_rs(double x, sim_narrow_fmt f, uint32_t rbits, unsigned nbits)
{
    return to_narrow(x, f, (rounding){SIM_RND_RS, rbits, nbits});
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

