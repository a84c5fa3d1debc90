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

#endif
