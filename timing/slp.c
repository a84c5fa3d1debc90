/* slp.c — SIMD lane permutations (slp.h). */
#include "timing/slp.h"

#include <string.h>

#include "ir/util.h"

static const char *const names[TM_SLPS] = {"none", "odd_even", "rev_wid", "xor_odd_half", "random",
                                          "wid",  "flip_odd", "rotate_odd_1", "balanced"};

tm_slp tm_slp_find(const char *name)
{
    for (int p = 0; p < TM_SLPS; p++)
        if (strcmp(names[p], name) == 0)
            return (tm_slp)p;
    return TM_SLPS;
}

const char *tm_slp_name(tm_slp p) { return p < TM_SLPS ? names[p] : "?"; }

/* The low `bits` bits of x in reverse order. */
static uint32_t bit_reverse(uint32_t x, uint32_t bits)
{
    uint32_t r = 0;
    for (uint32_t i = 0; i < bits; i++)
        r |= (x >> i & 1) << (bits - 1 - i);
    return r;
}

/* Position of lane l in warp w's random permutation of `width` lanes, a
 * shuffle seeded from w (the thesis gives no generator; any fixed one
 * makes runs repeatable). */
static uint32_t random_lane(uint32_t l, uint32_t w, uint32_t width)
{
    uint32_t perm[32];
    for (uint32_t i = 0; i < width; i++)
        perm[i] = i;
    ptx_shuffle(perm, width, 0x9E3779B97F4A7C15ull * (w + 1));
    return perm[l];
}

uint32_t tm_slp_lane(tm_slp p, uint32_t l, uint32_t w, uint32_t width)
{
    uint32_t n = 0;
    while ((1u << n) < width)
        n++;
    uint32_t wm = w & (width - 1), odd = w & 1, full = width - 1;
    switch (p) {
    case TM_SLP_ODD_EVEN: return odd ? l ^ 1 : l;
    case TM_SLP_REV_WID: return l ^ bit_reverse(wm, n);
    case TM_SLP_XOR_ODD_HALF: return odd ? l ^ (width / 2) : l;
    case TM_SLP_RANDOM: return random_lane(l, w, width);
    case TM_SLP_WID: return l ^ wm;
    case TM_SLP_FLIP_ODD: return odd ? full - l : l;
    case TM_SLP_ROTATE_ODD_1: return odd ? (l + 1) & full : l;
    case TM_SLP_BALANCED: return l ^ (wm & 1 ? ~((wm - 1) / 2) & full : wm / 2);
    case TM_SLP_NONE:
    default: return l;
    }
}
