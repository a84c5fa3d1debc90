/* int_semantics.h — PTX integer semantics that more than one part of
 * simtlab computes: the emulator's instruction handlers and the
 * analyzer's evaluation of address trees (analysis/syntree_eval.c) hold
 * values as register bits and must extend, truncate and divide them the
 * same way, so the rules live here once.
 *
 * Values are 64-bit slots holding a w-bit register value (1 <= w <= 64). */
#ifndef SIMTLAB_IR_INT_SEMANTICS_H
#define SIMTLAB_IR_INT_SEMANTICS_H

#include <stdbool.h>
#include <stdint.h>

/* The low w bits of v (zero-extended). */
static inline uint64_t ptx_zext(uint64_t v, unsigned w) { return w >= 64 ? v : v & ((1ull << w) - 1); }

/* The low w bits of v, sign-extended to 64. */
static inline int64_t ptx_sext(uint64_t v, unsigned w)
{
    return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* The low w bits of v extended to 64 by signedness: how a w-bit operand
 * enters an operation, and how its w-bit result is kept. */
static inline uint64_t ptx_ext(uint64_t v, unsigned w, bool sg) { return sg ? (uint64_t)ptx_sext(v, w) : ptx_zext(v, w); }

/* div (rem: rem) of w-bit operands a and b, the result extended as
 * ptx_ext does. Division by zero, which the PTX ISA leaves unspecified,
 * gives what NVIDIA GPUs give: all ones for the quotient and the dividend
 * for the remainder; the most negative value divided by -1 gives itself,
 * remainder 0. */
static inline uint64_t ptx_int_div(uint64_t a, uint64_t b, unsigned w, bool sg, bool rem)
{
    uint64_t r;
    if (sg) {
        int64_t x = ptx_sext(a, w), y = ptx_sext(b, w);
        if (y == 0)
            r = rem ? (uint64_t)x : ~0ull;
        else if (y == -1) /* x / -1 is -x, which wraps for the most negative x */
            r = rem ? 0 : 0 - (uint64_t)x;
        else
            r = (uint64_t)(rem ? x % y : x / y);
    } else {
        uint64_t x = ptx_zext(a, w), y = ptx_zext(b, w);
        r = y == 0 ? (rem ? x : ~0ull) : rem ? x % y : x / y;
    }
    return ptx_ext(r, w, sg);
}

#endif
