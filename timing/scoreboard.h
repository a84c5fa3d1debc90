/* scoreboard.h — per-warp registers with a write in flight (GPGPU-Sim's
 * Scoreboard, scoreboard.cc).
 *
 * An instruction reserves its destination registers when it issues and
 * each is released when its result is written back; a warp may not issue
 * an instruction that reads or writes a register still reserved (RAW and
 * WAW hazards: GPGPU-Sim's checkCollision looks at the destinations, the
 * sources, the predicate and the address registers, which is what
 * tm_inst_class's src and dst lists hold). Reservations made by
 * long-latency operations — loads and atomics from global, local, param,
 * texture or generic space (TM_IC_LONGOP, GPGPU-Sim's longopregs) — are
 * also kept in a second set, so the core can tell a warp waiting on memory
 * from one waiting on an ALU result (tm_scoreboard_longop).
 *
 * Storage is two bitsets per warp (pending, long-op), sized once by warps x
 * registers: a check is O(registers of the instruction), nothing is
 * allocated after tm_scoreboard_new, and functions with thousands of
 * registers cost one bit each.
 *
 * Differences from GPGPU-Sim: reserving a register that is already
 * reserved is refused (false) rather than asserted; the core must check
 * first. Register numbers are tm_opclass_fn's (vector components and the
 * carry flag each their own register).
 *
 * Use by the core: at issue, tm_scoreboard_check() then
 * tm_scoreboard_reserve(); at writeback, tm_scoreboard_release_inst() (or
 * tm_scoreboard_release() per register as a load's data returns);
 * tm_scoreboard_pending_writes() for memory barriers (a membar waits until
 * the warp has none), tm_scoreboard_clear_warp() when a warp slot gets a
 * new warp. */
#ifndef SIMTLAB_TIMING_SCOREBOARD_H
#define SIMTLAB_TIMING_SCOREBOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/opclass.h"

typedef struct tm_scoreboard {
    uint32_t nwarps, nregs;
    uint32_t words;        /* 64-bit words per warp per set */
    uint64_t *pending;     /* [nwarps * words]: a write is in flight */
    uint64_t *longop;      /* [nwarps * words]: ... by a long-latency operation */
    uint64_t *shadow;      /* [nwarps * words]: ... and issued before the warp's paths last diverged
                              or reconverged (dual-path execution's shadow bits; Rhu's thesis,
                              Sec. 3.2.2): the other path waits for them too */
    uint64_t *kept;        /* [nwarps * words]: ... and kept from shadowing (a load whose lanes
                              still waiting for it all issue from this slot: dynamic warp
                              subdivision on memory divergence) */
    uint32_t *npending;    /* [nwarps]: bits set in pending */
} tm_scoreboard;

/* A scoreboard for nwarps warp slots of registers numbered below nregs
 * (the largest tm_opclass_fn.nregs of the functions that will run); NULL
 * when either is 0 or memory is short. */
tm_scoreboard *tm_scoreboard_new(uint32_t nwarps, uint32_t nregs);
void tm_scoreboard_free(tm_scoreboard *sb);

/* True when ic may not issue on warp now: one of its sources or
 * destinations has a write in flight. Registers numbered nregs or above
 * (an instruction the scoreboard was not sized for) count as a hazard, so
 * the mistake shows as a stall rather than a wrong result. Inline where
 * the instruction's register masks stand for its lists (the blocked()
 * test of every scan), else tm_scoreboard_check_lists. */
bool tm_scoreboard_check_lists(const tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic);

/* Can ic's masks stand for its lists on sb (every register of the
 * instruction below 128 and below nregs)? */
static inline bool tm_scoreboard_masks_fit(const tm_scoreboard *sb, const tm_inst_class *ic)
{
    return ic->has_masks && ic->reg_top <= sb->nregs;
}

/* Does warp have a write in flight to a register of mask m (masks_fit)? */
static inline bool tm_scoreboard_any_in_mask(const tm_scoreboard *sb, uint32_t warp, const uint64_t m[2])
{
    const uint64_t *p = &sb->pending[(size_t)warp * sb->words];
    return (p[0] & m[0]) || (sb->words > 1 && (p[1] & m[1]));
}

static inline bool tm_scoreboard_check(const tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic)
{
    if (warp < sb->nwarps && tm_scoreboard_masks_fit(sb, ic))
        return sb->npending[warp] && tm_scoreboard_any_in_mask(sb, warp, ic->uses);
    return tm_scoreboard_check_lists(sb, warp, ic);
}

/* Reserve ic's destinations on warp (and mark them long-latency when ic has
 * TM_IC_LONGOP). False, with nothing changed, when one is already
 * reserved or out of range. */
bool tm_scoreboard_reserve(tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic);

/* Dual-path execution: the pending writes of warp (one path's slot) become
 * shadowed (S := P, less the kept ones), as at a divergence or
 * reconvergence of its warp. */
void tm_scoreboard_shadow(tm_scoreboard *sb, uint32_t warp);

/* Dynamic warp subdivision on memory divergence: the pending write of reg
 * on warp is no longer shadowed, and is not when warp shadows again, until
 * it is released: only warp's own issues wait for it (the lanes it still
 * owes data to issue from that slot alone). Nothing when reg is free. */
void tm_scoreboard_keep(tm_scoreboard *sb, uint32_t warp, uint32_t reg);

/* Is reg of warp shadowed (the other path waits for it)? */
bool tm_scoreboard_shadowed_reg(const tm_scoreboard *sb, uint32_t warp, uint32_t reg);

/* True when one of ic's sources or destinations is shadowed on warp (the
 * other path's slot): the path asking must wait for it. */
bool tm_scoreboard_shadowed(const tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic);

/* Release one register of warp (its write arrived, which clears its
 * shadow and kept bits too); releasing a free register does nothing. True when the
 * register was shadowed (another slot may have waited for it). */
bool tm_scoreboard_release(tm_scoreboard *sb, uint32_t warp, uint32_t reg);

/* Release every destination of ic on warp; true when one was shadowed. */
bool tm_scoreboard_release_inst(tm_scoreboard *sb, uint32_t warp, const tm_inst_class *ic);

/* Is reg of warp reserved / reserved by a long-latency operation? */
bool tm_scoreboard_pending(const tm_scoreboard *sb, uint32_t warp, uint32_t reg);
bool tm_scoreboard_longop(const tm_scoreboard *sb, uint32_t warp, uint32_t reg);

/* Registers of warp with a write in flight (inline: the issue stage asks
 * for every stalled warp every cycle). */
static inline uint32_t tm_scoreboard_pending_writes(const tm_scoreboard *sb, uint32_t warp)
{
    return warp < sb->nwarps ? sb->npending[warp] : 0;
}

/* Forget every reservation of warp (the slot starts a new warp). */
void tm_scoreboard_clear_warp(tm_scoreboard *sb, uint32_t warp);

#endif
