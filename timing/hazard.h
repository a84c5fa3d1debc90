/* hazard.h — the memory-stage hazards of Turner's thesis ("On Replay and
 * Hazards in Graphics Processing Units", UBC 2012, Sec. 1.1.7) and his
 * hazard avoidance (Ch. 6): which hazard a pass of an instruction through
 * the memory stage met, whether a load is predicted to need an MSHR, and
 * whether the MSHR tracker lets it issue.
 *
 * The SM (sm.c) runs the memory stage; this file holds the rules, so that
 * they can be tested on their own:
 *   - A pass serves one access group: the requests of one 128-byte line
 *     (global, local, constant), or one conflict-free shared-memory cycle.
 *     Groups left over are a DIV hazard (BANK for shared memory). A group
 *     the L1 cannot take is an MSHR, COMQ or RSV hazard, checked in the
 *     thesis's order MSHR, COMQ, RSV (tm_hazard_of_fails).
 *   - Predictors (Sec. 6.1) first use what the instruction's own last pass
 *     showed: after an MSHR, COMQ or RSV hazard its group is a known miss;
 *     after DIV the next group is unknown. Then "false" predicts a hit,
 *     "true" a miss, "counter" (the thesis's "predictor") a 2-bit
 *     saturating counter per load pc, "oracle" the L1's tags.
 *   - Trackers (Sec. 6.2): naive lets a predicted miss issue while an MSHR
 *     is free now; credit while the credits are positive, where credits =
 *     MSHRs - MSHRs in use - credits held by issued loads. That is the
 *     thesis's invariant (Sec. 6.2, virtual credits included): a credit
 *     leaves the store when a predicted miss issues, travels with the MSHR
 *     it takes (a load without one takes a virtual credit), comes back when
 *     the load needs no MSHR or fails to get one, and when the MSHR frees.
 *     Computing it from the invariant gives the same counts with no
 *     bookkeeping to drift, and no signalling delay (the thesis's tracker
 *     reads its count instantly too). */
#ifndef SIMTLAB_TIMING_HAZARD_H
#define SIMTLAB_TIMING_HAZARD_H

#include <stdbool.h>
#include <stdint.h>

#include "timing/config.h"

typedef enum tm_hazard {
    TM_HAZARD_NONE,
    TM_HAZARD_DIV,   /* access groups left for another pass (memory divergence) */
    TM_HAZARD_BANK,  /* shared-memory bank conflict cycles left */
    TM_HAZARD_MSHR,  /* a miss found no MSHR (or no merge slot in its entry) */
    TM_HAZARD_COMQ,  /* the cache's queue towards the interconnect is full */
    TM_HAZARD_RSV,   /* every line of the set is reserved for a pending miss */
    TM_HAZARDS
} tm_hazard;

/* "none", "DIV", "BANK", "MSHR", "COMQ", "RSV" (the thesis's names). */
const char *tm_hazard_name(tm_hazard h);

/* The hazard of a group the cache refused: fails has bit (1 << f) for
 * each tm_cache_fail reason that holds; MSHR first, then COMQ, then RSV. */
tm_hazard tm_hazard_of_fails(uint32_t fails);

/* Did a pass that met h show that its group misses (needs an MSHR)? */
static inline bool tm_hazard_is_miss(tm_hazard h)
{
    return h == TM_HAZARD_MSHR || h == TM_HAZARD_COMQ || h == TM_HAZARD_RSV;
}

/* The counter predictor's table: 2-bit saturating counters indexed by a
 * load's function and pc, shared by every SM (Turner's global table).
 * The thesis's widths and update rule are not given: a counter counts up
 * on a miss and down on a hit, and 2 or more predicts a miss; it starts at
 * 0 (a hit). */
#define TM_HAZARD_TABLE_SIZE 4096u
typedef struct tm_hazard_table {
    uint8_t ctr[TM_HAZARD_TABLE_SIZE];
} tm_hazard_table;

static inline uint32_t tm_hazard_table_index(uint32_t fn, uint32_t pc)
{
    return (pc + fn * 0x9E37u) % TM_HAZARD_TABLE_SIZE;
}
static inline bool tm_hazard_table_predicts_miss(const tm_hazard_table *t, uint32_t i) { return t->ctr[i] >= 2; }
void tm_hazard_table_update(tm_hazard_table *t, uint32_t i, bool miss);

/* Does predictor p say the instruction's next pass needs an MSHR? last is
 * the hazard of its last pass (TM_HAZARD_NONE before the first), counter
 * the table's answer, oracle_miss the L1 tags' (a line absent). */
bool tm_hazard_predict_miss(tm_hazard_predictor p, tm_hazard last, bool counter, bool oracle_miss);

/* The credit tracker's store: MSHRs less those in use and those held by
 * issued loads (may be negative: virtual credits). */
static inline int64_t tm_hazard_credits(uint32_t mshrs, uint32_t in_use, uint32_t held)
{
    return (int64_t)mshrs - in_use - held;
}

/* May a load predicted to need one of a cache's mshrs MSHRs issue, with
 * in_use of them taken and `held` credits held by issued loads? */
bool tm_hazard_may_issue(tm_hazard_tracker t, uint32_t mshrs, uint32_t in_use, uint32_t held);

/* Turner's predicted maximum speedup (Sec. 3.5), the reading of the
 * garbled formula that keeps it non-negative (digest B.5.4): with the
 * collectors blocked by stalls for `blocked` cycles of `cycles`, and
 * alu_insts ALU warp instructions at alu_rate per cycle, new cycles =
 * cycles - min(blocked, alu_insts / alu_rate); the speedup is cycles /
 * new cycles - 1 ("a very optimistic strong maximum"). 0 for no cycles. */
double tm_turner_max_speedup(uint64_t cycles, uint64_t blocked, uint64_t alu_insts, double alu_rate);

#endif
