/* capt.h — CAPRI's compaction-adequacy prediction table (Rhu's thesis,
 * Sec. 4.2; Rhu and Erez, ISCA 2012): one per SM, fully associative,
 * tagged by the branch's pc, LRU replacement, 32 entries (the thesis's
 * default, Table 4.1), and the history kept per branch:
 *   1bL   1-bit latest: the last verdict of the compaction unit;
 *   2bit  a 2-bit saturating counter, +1 on an adequate verdict, -1 on an
 *         inadequate one, adequate in its upper half; allocated weakly
 *         adequate (the thesis: "adequate"; the strength is not given);
 *   1bS   1-bit sticky: set adequate when a warp diverges there and never
 *         cleared while the kernel runs (every divergent warp stalls).
 * A lookup that misses allocates the entry, predicted adequate (the warp
 * stalls, as the thesis's outcome 2). */
#ifndef SIMTLAB_TIMING_CAPT_H
#define SIMTLAB_TIMING_CAPT_H

#include <stdbool.h>
#include <stdint.h>

#define TM_CAPT_ENTRIES 32u

typedef enum tm_capt_history { TM_CAPT_1BL, TM_CAPT_2BIT, TM_CAPT_1BS } tm_capt_history;

typedef struct tm_capt_entry {
    uint32_t fn, pc;  /* the branch: function index and pc */
    uint8_t history;  /* 1bL / 1bS: 1 adequate; 2bit: 0..3 */
    bool valid;
    uint64_t used;    /* LRU stamp */
} tm_capt_entry;

typedef struct tm_capt {
    tm_capt_history kind;
    uint64_t clock;
    tm_capt_entry e[TM_CAPT_ENTRIES];
} tm_capt;

/* An empty table keeping `kind` histories. */
void tm_capt_init(tm_capt *c, tm_capt_history kind);
/* A divergent warp at branch (fn, pc): whether it stalls for compaction
 * (the prediction "adequate"); *hit says whether a valid entry predicted
 * it (false: the lookup missed and allocated one, adequate). */
bool tm_capt_predict(tm_capt *c, uint32_t fn, uint32_t pc, bool *hit);
/* The compaction unit's verdict on an instance of branch (fn, pc):
 * updates its entry, if it has one (1bS keeps its bit). */
void tm_capt_update(tm_capt *c, uint32_t fn, uint32_t pc, bool adequate);

#endif
