/* scoreboard.c — pending register writes per warp as bitsets (see
 * scoreboard.h). */
#include "timing/scoreboard.h"

#include <stdlib.h>
#include <string.h>

/* A scoreboard for nwarps x nregs, all registers free. */
tm_scoreboard *tm_scoreboard_new(uint32_t nwarps, uint32_t nregs)
{
    if (nwarps == 0 || nregs == 0)
        return NULL;
    tm_scoreboard *sb = calloc(1, sizeof *sb);
    if (!sb)
        return NULL;
    sb->nwarps = nwarps;
    sb->nregs = nregs;
    sb->words = (nregs + 63) / 64;
    size_t n = (size_t)nwarps * sb->words;
    sb->pending = calloc(n, sizeof *sb->pending);
    sb->longop = calloc(n, sizeof *sb->longop);
    sb->shadow = calloc(n, sizeof *sb->shadow);
    sb->kept = calloc(n, sizeof *sb->kept);
    sb->npending = calloc(nwarps, sizeof *sb->npending);
    if (!sb->pending || !sb->longop || !sb->shadow || !sb->kept || !sb->npending) {
        tm_scoreboard_free(sb);
        return NULL;
    }
    return sb;
}

void tm_scoreboard_free(tm_scoreboard *sb)
{
    if (!sb)
        return;
    free(sb->pending);
    free(sb->longop);
    free(sb->shadow);
    free(sb->kept);
    free(sb->npending);
    free(sb);
}

/* Is bit reg set in warp's part of set? reg must be below nregs. */
static bool test_bit(const tm_scoreboard *sb, const uint64_t *set, uint32_t warp, uint32_t reg)
{
    return (set[(size_t)warp * sb->words + reg / 64] >> (reg % 64)) & 1u;
}

/* Does any register of list[0..n) of warp have a write in flight? */
static bool any_pending(const tm_scoreboard *sb, uint32_t warp, const uint32_t *list, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (list[k] >= sb->nregs || test_bit(sb, sb->pending, warp, list[k]))
            return true;
    return false;
}

/* Does any register of list[0..n) of warp have its shadow bit set? */
static bool any_shadowed(const tm_scoreboard *sb, uint32_t warp, const uint32_t *list, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (list[k] < sb->nregs && test_bit(sb, sb->shadow, warp, list[k]))
            return true;
    return false;
}

/* S := P, less the kept registers. */
void tm_scoreboard_shadow(tm_scoreboard *sb, uint32_t warp)
{
    if (warp >= sb->nwarps)
        return;
    size_t base = (size_t)warp * sb->words;
    for (uint32_t w = 0; w < sb->words; w++)
        sb->shadow[base + w] = sb->pending[base + w] & ~sb->kept[base + w];
}

/* Keep reg's pending write on warp from shadowing until it is released. */
void tm_scoreboard_keep(tm_scoreboard *sb, uint32_t warp, uint32_t reg)
{
    if (warp >= sb->nwarps || reg >= sb->nregs || !test_bit(sb, sb->pending, warp, reg))
        return;
    size_t w = (size_t)warp * sb->words + reg / 64;
    uint64_t bit = 1ull << (reg % 64);
    sb->kept[w] |= bit;
    sb->shadow[w] &= ~bit;
}

/* Is reg of warp shadowed? */
bool tm_scoreboard_shadowed_reg(const tm_scoreboard *sb, uint32_t warp, uint32_t reg)
{
    return warp < sb->nwarps && reg < sb->nregs && test_bit(sb, sb->shadow, warp, reg);
}

bool tm_scoreboard_shadowed(const tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic)
{
    if (warp >= sb->nwarps)
        return false;
    return any_shadowed(sb, warp, ic->src, ic->nsrc) || any_shadowed(sb, warp, ic->dst, ic->ndst);
}

/* Is any register of list[0..n) beyond the scoreboard's size? */
static bool any_beyond(const tm_scoreboard *sb, const uint32_t *list, uint32_t n)
{
    uint32_t top = 0;
    for (uint32_t k = 0; k < n; k++)
        top = list[k] > top ? list[k] : top;
    return n && top >= sb->nregs;
}

/* RAW or WAW hazard of ic on warp, from its register lists. */
bool tm_scoreboard_check_lists(const tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic)
{
    if (warp >= sb->nwarps)
        return true;
    if (!sb->npending[warp]) /* nothing in flight (the usual case): only a register beyond the size stalls */
        return any_beyond(sb, ic->src, ic->nsrc) || any_beyond(sb, ic->dst, ic->ndst);
    return any_pending(sb, warp, ic->src, ic->nsrc) || any_pending(sb, warp, ic->dst, ic->ndst);
}

/* Reserve ic's destinations on warp (all or nothing). */
bool tm_scoreboard_reserve(tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic)
{
    if (warp >= sb->nwarps)
        return false;
    if (tm_scoreboard_masks_fit(sb, ic) ? tm_scoreboard_any_in_mask(sb, warp, ic->defs)
                                        : any_pending(sb, warp, ic->dst, ic->ndst))
        return false;
    size_t base = (size_t)warp * sb->words;
    bool longop = (ic->flags & TM_IC_LONGOP) != 0;
    for (uint32_t k = 0; k < ic->ndst; k++) {
        uint32_t r = ic->dst[k];
        uint64_t bit = 1ull << (r % 64);
        sb->pending[base + r / 64] |= bit;
        if (longop)
            sb->longop[base + r / 64] |= bit;
    }
    sb->npending[warp] += ic->ndst; /* dst lists hold each register once */
    return true;
}

/* Release one register of warp; whether it was shadowed. */
bool tm_scoreboard_release(tm_scoreboard *sb, uint32_t warp, uint32_t reg)
{
    if (warp >= sb->nwarps || reg >= sb->nregs || !test_bit(sb, sb->pending, warp, reg))
        return false;
    size_t w = (size_t)warp * sb->words + reg / 64;
    uint64_t bit = 1ull << (reg % 64);
    bool shadowed = (sb->shadow[w] & bit) != 0;
    sb->pending[w] &= ~bit;
    sb->longop[w] &= ~bit;
    sb->shadow[w] &= ~bit;
    sb->kept[w] &= ~bit;
    sb->npending[warp]--;
    return shadowed;
}

/* Release every destination of ic on warp; whether one was shadowed. */
bool tm_scoreboard_release_inst(tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic)
{
    bool shadowed = false;
    for (uint32_t k = 0; k < ic->ndst; k++)
        shadowed |= tm_scoreboard_release(sb, warp, ic->dst[k]);
    return shadowed;
}

bool tm_scoreboard_pending(const tm_scoreboard *sb, uint32_t warp, uint32_t reg)
{
    return warp < sb->nwarps && reg < sb->nregs && test_bit(sb, sb->pending, warp, reg);
}

bool tm_scoreboard_longop(const tm_scoreboard *sb, uint32_t warp, uint32_t reg)
{
    return warp < sb->nwarps && reg < sb->nregs && test_bit(sb, sb->longop, warp, reg);
}

/* Forget every reservation of warp. */
void tm_scoreboard_clear_warp(tm_scoreboard *sb, uint32_t warp)
{
    if (warp >= sb->nwarps)
        return;
    size_t base = (size_t)warp * sb->words;
    memset(sb->pending + base, 0, sb->words * sizeof *sb->pending);
    memset(sb->longop + base, 0, sb->words * sizeof *sb->longop);
    memset(sb->shadow + base, 0, sb->words * sizeof *sb->shadow);
    memset(sb->kept + base, 0, sb->words * sizeof *sb->kept);
    sb->npending[warp] = 0;
}
