/* warp_sched.h — warp scheduling policies of an SM's issue stage
 * (-gpgpu_scheduler): each cycle a scheduler tries its warps in the order
 * its policy gives until it has issued what it may, as GPGPU-Sim's
 * scheduler_unit does.
 *
 *   lrr   loose round robin: starting after the warp that issued last;
 *   gto   greedy then oldest: the warp that issued last first, then the
 *         others oldest first (the order their CTAs and warps started);
 *   old   oldest first, always;
 *   two_level_active:N  an active set of N warps tried in round robin; a
 *         warp that waits for a long-latency result (a global or local
 *         memory load) or for other warps (a barrier) leaves the set for
 *         a pending one (round robin among the pending), so the set keeps
 *         warps that can issue (Narasiman et al.'s two-level scheduling,
 *         the outer level by readiness);
 *   fetch_groups:N[:T]  Narasiman's two-level round robin (PhD thesis,
 *         Sec. 4.3): slots in fixed fetch groups of N (slots 0..N-1 the
 *         first), or with N = cta the warps of each CTA (Rhu's thesis,
 *         Table 4.1: "group size = number of warps in one CTA"); the groups
 *         in priority order, each group's warps in round robin after its
 *         last issuer; when every live warp of the group on top waits for
 *         a long-latency result (a global or local load it issued), the
 *         next group takes the top and the old top goes last, at most one
 *         such switch a core cycle; with T, the top group also yields after
 *         its warps issued T instructions (Sec. 4.4's timeout for large
 *         warps). The SM's fetch stage takes the same order (sm.c).
 *
 * With a CTA priority (-simtlab_cta_priority; Fung and Aamodt, HPCA 2011,
 * Sec. 6.2) the order is by CTA instead, whatever the policy: the CTAs in
 * the priority's order (AGE: oldest first; RRB: rotating every core
 * cycle; SRR: the CTA that issued last first, then the following ones),
 * each CTA's warps in loose round robin.
 *
 * Warps are the scheduler's slots 0..n-1 (the SM maps them to its warp
 * slots). Ordering is deterministic: ties between equally old warps go
 * to the lower slot. */
#ifndef SIMTLAB_TIMING_WARP_SCHED_H
#define SIMTLAB_TIMING_WARP_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/config.h"

typedef struct tm_warp_sched {
    tm_sched policy;
    uint32_t n;            /* slots */
    uint32_t last;         /* the slot that issued last (n: none yet) */
    uint64_t *age;         /* per slot: smaller is older (set when a warp starts) */
    uint32_t *order;       /* the order handed out last ... */
    uint32_t norder;
    uint64_t order_mask;   /* bit s: slot s is in that order (slots < 64) */
    bool *order_live;      /* ... for these live flags (n) */
    uint64_t order_live_mask; /* ... as a mask (n <= 64: compared instead of order_live) */
    bool order_valid;      /* ... and still the policy's answer unless live changed */
    uint32_t *by_age;      /* every slot, oldest first (ties: lower slot), kept by tm_warp_sched_start */
    /* two-level: membership of the active set, its size and limit */
    bool *active;
    uint32_t nactive, max_active;
    uint32_t next_pending; /* where the round robin over pending warps resumes */
    bool *parked;          /* per slot: waits for other warps (a barrier, a TBC synchronization) */
    /* fetch groups: slots per group (0: a group per CTA), the timeout,
     * the group on top (a slot / group_warps, or a CTA), each slot's
     * long-latency loads in flight and the count of issues at its last
     * issue, issues since the top group took the top (and whether that
     * reached the timeout), the cycle of the last switch check */
    uint32_t group_warps, timeout;
    uint64_t top_group;
    uint32_t *long_pending;
    uint64_t *stamp, issues, top_issues, checked_at;
    bool top_expired;
    /* CTA priority: the CTA (dispatch number) of each slot, the core cycle of the order */
    tm_cta_priority cta_priority;
    uint64_t *group;
    uint64_t cycle;
} tm_warp_sched;

/* Make a scheduler of n slots (at most 64) for `policy`; `size` is the
 * two-level active set (at least 1 warp) or the warps of a fetch group (0:
 * a group per CTA, named by tm_warp_sched_set_cta), `timeout` the fetch
 * groups' timeout (0: none). False when memory is short. */
bool tm_warp_sched_init(tm_warp_sched *ws, tm_sched policy, uint32_t n, uint32_t size, uint32_t timeout);
void tm_warp_sched_free(tm_warp_sched *ws);

/* A warp starts in slot s with age `age` (an increasing stamp); under
 * two-level scheduling it joins the active set if there is room. */
void tm_warp_sched_start(tm_warp_sched *ws, uint32_t s, uint64_t age);
/* The warp in slot s finished: it leaves the active set (whose room goes
 * to the next pending live warp). live[i]: slot i holds a warp. */
void tm_warp_sched_finish(tm_warp_sched *ws, uint32_t s, const bool *live);

/* The warp in slot s waits for other warps (parked) or no longer does.
 * Two-level: a parked warp leaves the active set for the next pending
 * warp that is not parked, and is not promoted while parked; an unparked
 * one joins the set if there is room (else it is pending). Otherwise the
 * order is the policy's whatever the flag. */
void tm_warp_sched_park(tm_warp_sched *ws, uint32_t s, bool parked, const bool *live);

/* Order the warps by CTA with priority p (TM_CTA_PRIORITY_NONE: by the
 * policy alone). */
void tm_warp_sched_set_cta_priority(tm_warp_sched *ws, tm_cta_priority p);
/* The warp in slot s belongs to the CTA dispatched as number `cta`. */
void tm_warp_sched_set_cta(tm_warp_sched *ws, uint32_t s, uint64_t cta);
/* The core cycle about to be scheduled (RRB rotates with it). */
void tm_warp_sched_at(tm_warp_sched *ws, uint64_t cycle);

/* The slots to try this cycle, best first, among those with live[i]; the
 * count in *n. The array belongs to the scheduler (valid until the next
 * call). */
const uint32_t *tm_warp_sched_order(tm_warp_sched *ws, const bool *live, uint32_t *n);
/* tm_warp_sched_order with the live slots given as a mask too (bit s set
 * exactly when live[s]; with at most 64 slots the mask is what is read
 * where it can be, the core keeping one anyway). */
const uint32_t *tm_warp_sched_order_live(tm_warp_sched *ws, const bool *live, uint64_t mask, uint32_t *n);
/* Slot s issued. */
void tm_warp_sched_issued(tm_warp_sched *ws, uint32_t s);
/* Slot s issued a long-latency load. Two-level: it leaves the active
 * set for the next pending live warp; fetch groups: it waits for the
 * load until tm_warp_sched_long_done. Other policies ignore it. */
void tm_warp_sched_long_wait(tm_warp_sched *ws, uint32_t s, const bool *live);
/* One long-latency load of slot s completed. */
void tm_warp_sched_long_done(tm_warp_sched *ws, uint32_t s);

#endif
