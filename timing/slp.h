/* slp.h — SIMD lane permutation (Rhu's thesis, Sec. 4.3; ISCA 2013): the
 * physical home lane of the thread in logical lane l of warp w, for the
 * permutations the thesis evaluates (Figs. 4.16, 4.19, Eq. 4.2), so that
 * lane-preserving compaction (TBC, CAPRI) can compact aligned divergence.
 * W, the SIMD width, is a power of two up to 32; every permutation is a
 * bijection of the lanes of each warp. */
#ifndef SIMTLAB_TIMING_SLP_H
#define SIMTLAB_TIMING_SLP_H

#include <stdint.h>

typedef enum tm_slp {
    TM_SLP_NONE,         /* l (TBC as published) */
    TM_SLP_ODD_EVEN,     /* odd w: l XOR 1 (Fung et al.; the thesis's Fig. 4.19 rows) */
    TM_SLP_REV_WID,      /* l XOR bitreverse(w mod W) (Brunie et al.; Fig. 4.19 rows) */
    TM_SLP_XOR_ODD_HALF, /* odd w: l XOR W/2 (Sec. 4.3.5) */
    TM_SLP_RANDOM,       /* a random permutation per warp (Fig. 4.16(f)): xorshift, fixed seed */
    TM_SLP_WID,          /* l XOR (w mod W) (name only in the thesis: this reading) */
    TM_SLP_FLIP_ODD,     /* odd w: W-1-l (name only: this reading) */
    TM_SLP_ROTATE_ODD_1, /* odd w: (l+1) mod W (name only: this reading) */
    TM_SLP_BALANCED,     /* l XOR m(w): even w' = w mod W: w'/2; odd: the n-bit inverse of its even
                            partner's (Eq. 4.2, Fig. 4.19(a)) */
    TM_SLPS
} tm_slp;

/* The permutation called `name` ("none", "odd_even", "rev_wid",
 * "xor_odd_half", "random", "wid", "flip_odd", "rotate_odd_1",
 * "balanced"), or TM_SLPS. */
tm_slp tm_slp_find(const char *name);
const char *tm_slp_name(tm_slp p);
/* The physical lane of logical lane l (< width) of warp w. */
uint32_t tm_slp_lane(tm_slp p, uint32_t l, uint32_t w, uint32_t width);

#endif
