/* smallfloat.h — narrow binary floating-point formats in software. */
#ifndef SIMTLAB_EMU_SMALLFLOAT_H
#define SIMTLAB_EMU_SMALLFLOAT_H

#include <stdbool.h>
#include <stdint.h>

/* n (a magnitude, or a value whose sign `neg` gives) rounded to an
 * integer by mode rnd: 1 (or 0) nearest even, 2 toward zero, 3 toward
 * minus infinity, 4 toward plus infinity. */
double sim_round_mag(double n, int rnd, bool neg);
/* The bits of x in a format with eb exponent and mb mantissa bits, rounded
 * once by rnd (subnormals and overflow included; NaN: all ones but the
 * sign, e.g. 0x7fff for f16 and bf16). */
uint64_t sim_to_small_float(double x, int rnd, unsigned eb, unsigned mb);
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
/* x as ue8m0 (bits e: 2^(e - 127); 0xff NaN), its magnitude rounded
 * toward zero (rnd 2) or up (rnd 4) to a power of two: 0 below 2^-127
 * (zero included), 0xff for NaN, and past 2^127 (infinity included) 0xfe
 * with .satfinite, else 0xff. */
uint64_t sim_to_ue8m0(double x, int rnd, bool satfinite);

#endif
