/* bits.h — counting set bits without a library call.
 *
 * The builds target baseline x86-64, where __builtin_popcount becomes a
 * call to libgcc's __popcountdi2 (about 1% of the timing model's host
 * instructions before these replaced it on the paths every request
 * takes); with a POPCNT instruction available (__POPCNT__) the builtin
 * is used. */
#ifndef SIMTLAB_TIMING_BITS_H
#define SIMTLAB_TIMING_BITS_H
#include <stdint.h>

/* The set bits of x (a sector mask). */
static inline uint32_t tm_popcount8(uint8_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcount(x);
#else
    static const uint8_t nibble[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return (uint32_t)nibble[x & 15] + nibble[x >> 4];
#endif
}

/* The set bits of x (a lane mask). */
static inline uint32_t tm_popcount32(uint32_t x)
{
#ifdef __POPCNT__
    return (uint32_t)__builtin_popcount(x);
#else
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (x * 0x01010101u) >> 24;
#endif
}

#endif
