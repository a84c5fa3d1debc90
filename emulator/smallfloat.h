/* smallfloat.h — narrow binary floating-point formats in software. */
#ifndef SIMTLAB_EMU_SMALLFLOAT_H
#define SIMTLAB_EMU_SMALLFLOAT_H

#include <stdbool.h>
#include <stdint.h>

/* n (a magnitude, or a value whose sign `neg` gives) rounded to an
 * integer by mode rnd: 1 (or 0) nearest even, 2 toward zero, 3 toward
 * minus infinity, 4 toward plus infinity, 5 nearest with ties away from
 * zero. */
double sim_round_mag(double n, int rnd, bool neg);
/* The bits of x in a format with eb exponent and mb mantissa bits, rounded
 * once by rnd (subnormals and overflow included; NaN: all ones but the
 * sign, e.g. 0x7fff for f16 and bf16). */
uint64_t sim_to_small_float(double x, int rnd, unsigned eb, unsigned mb);
/* The largest finite encoding (without sign) of that format. */
uint64_t sim_small_float_max(unsigned eb, unsigned mb);

/* cvt's stochastic rounding (.rs), as a rounding mode beside those of
 * sim_round_mag (and the emulator's sim_inst.rnd). The ISA: the result is
 * "rounded in the direction toward zero or away from zero based on the
 * carry out of the integer addition of the supplied random bits (rbits)
 * to the truncated off (discarded) bits of mantissa from the input". The
 * ISA leaves open how rbits lines up with discarded bits when there are
 * more of those than random bits (fp8/fp6/fp4 results, subnormal
 * results); read here: rbits is added to the most significant discarded
 * bits, those just below the result's last bit, so that a carry out of
 * them is a carry into the result (the alignment that makes the chance of
 * rounding away the cut-off fraction, to rbits' precision); discarded
 * bits below them take no part. For f16 and bf16 results in the normal
 * range the discarded bits are exactly as many as the random bits (13 and
 * 16) and the reading does not matter. */
enum { SIM_RND_RS = 6 };
/* x rounded to that format stochastically with the nbits (<= 16) random
 * bits rbits: its magnitude cut to the format's precision (subnormal
 * spacing included) and moved one unit away from zero when the random
 * bits carry. An overflow gives infinity when they carried (rounded away
 * from zero), else the largest finite value, as IEEE 754's directed
 * roundings do. NaN as sim_to_small_float. */
uint64_t sim_to_small_float_rs(double x, unsigned eb, unsigned mb, uint32_t rbits, unsigned nbits);
/* The exact value of such bits. */
double sim_from_small_float(uint64_t v, unsigned eb, unsigned mb);

/* A narrow format of cvt's packed conversions: eb exponent bits (bias
 * 2^(eb-1) - 1), mb mantissa bits, and what its largest encodings mean. */
enum {
    SIM_NARROW_IEEE,   /* exponent all ones: infinity and NaN (e5m2) */
    SIM_NARROW_NAN,    /* only S.1...1 is NaN, no infinity (e4m3) */
    SIM_NARROW_FINITE  /* every encoding is a number (e2m3, e3m2, e2m1) */
};
typedef struct sim_narrow_fmt {
    uint8_t eb, mb, special;
} sim_narrow_fmt;
extern const sim_narrow_fmt SIM_E4M3, SIM_E5M2, SIM_E2M3, SIM_E3M2, SIM_E2M1;

/* The exact value of bits v of format f (NaN for its NaN encodings). */
double sim_from_narrow(uint64_t v, sim_narrow_fmt f);
/* x in format f as cvt.rn.satfinite converts it: rounded to nearest even;
 * magnitudes beyond the largest finite value (infinities included) give
 * that value with x's sign; NaN gives the format's NaN 0x7f (e4m3, e5m2)
 * or, in formats without NaN, the largest positive value (what NVIDIA's
 * cuda_fp6.hpp and cuda_fp4.hpp conversions document). */
uint64_t sim_to_narrow_satfinite(double x, sim_narrow_fmt f);
/* The same with stochastic rounding (see SIM_RND_RS) in place of rounding
 * to nearest: magnitudes up to the largest finite value cannot round past
 * it. */
uint64_t sim_to_narrow_satfinite_rs(double x, sim_narrow_fmt f, uint32_t rbits, unsigned nbits);
/* x as ue8m0 (bits e: 2^(e - 127); 0xff NaN), its magnitude rounded
 * toward zero (rnd 2) or up (rnd 4) to a power of two: 0 below 2^-127
 * (zero included), 0xff for NaN, and past 2^127 (infinity included) 0xfe
 * with .satfinite, else 0xff. */
uint64_t sim_to_ue8m0(double x, int rnd, bool satfinite);

#endif
