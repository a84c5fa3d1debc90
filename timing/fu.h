/* fu.h — the functional units of one SM (or of one sub-core): for each
 * unit kind (SP, DP, INT, SFU, TENSOR, MEM) n_units[kind] pipelines, each
 * accepting one warp instruction at a time and handing its result to
 * writeback `latency` cycles later.
 *
 * What it models, matching GPGPU-Sim's pipelined_simd_unit (shader.cc) and
 * shader_core_ctx::execute():
 *   - a pipeline accepts a new instruction only when the previous one has
 *     spent its initiation interval in the dispatch register: a unit that
 *     took an instruction with interval I at cycle t accepts again at
 *     cycle t + I (GPGPU-Sim: dispatch_delay() counts I cycles before the
 *     dispatch register empties);
 *   - an instruction accepted at cycle t completes at cycle t + latency
 *     (tm_fu_cycle(now = t + latency) returns its tag);
 *   - a pipeline completes at most one instruction per cycle: it refuses an
 *     instruction that would complete in a cycle where an earlier one of a
 *     different latency completes (GPGPU-Sim's `occupied` bit set);
 *   - writeback width: ex_wb result buses (-gpgpu_pipeline_widths' EX_WB
 *     value) shared by all non-memory units, booked at issue for the
 *     completion cycle (GPGPU-Sim's m_result_bus / test_res_bus): a unit
 *     cannot take an instruction whose completion cycle already has ex_wb
 *     results booked. So at most ex_wb ALU results complete per cycle, and
 *     nothing waits after completing;
 *   - several units of a kind (-gpgpu_num_*_units) each have their own
 *     dispatch register: two units take two instructions in the same cycle
 *     (GPGPU-Sim tries its units in order; here the lowest-numbered free
 *     unit takes it).
 *   - MEM: GPGPU-Sim's LD/ST unit is "stallable" and books no result bus
 *     (its writeback has its own port); here MEM is a pipeline like the
 *     others (the fixed part of its latency, typically 1) without a result
 *     bus booking, and the memory system's latency is the LD/ST path's
 *     business. n_units[MEM] = 0 means the one LD/ST unit.
 * Where it differs: in GPGPU-Sim an instruction dispatched at cycle t
 * reaches the EX_WB register at t + latency + 1 and is written back at
 * t + latency + 2 (its stages run in reverse pipeline order, each moving
 * a stage per cycle); here it completes at exactly t + latency and the
 * core decides what writeback adds. The widths of ID_OC/OC_EX registers (how many
 * instructions wait in front of a unit) are the operand collector's and
 * the core's business; an instruction here is either accepted or not.
 * Latency and initiation come with each instruction (tm_inst_class), since
 * one unit runs classes of several latencies.
 *
 * Cost: issue and can_issue are O(units of the kind); tm_fu_cycle is
 * O(log in-flight) per completion; tm_fu_next_event says when the next
 * completion is, so idle cycles can be skipped. Nothing is allocated after
 * tm_fu_new. */
#ifndef SIMTLAB_TIMING_FU_H
#define SIMTLAB_TIMING_FU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timing/config.h"

/* A completed instruction. */
typedef struct tm_fu_done {
    uint64_t tag;      /* the caller's reference, as given to tm_fu_issue */
    uint64_t cycle;    /* the cycle it completed */
    uint64_t seq;      /* issue order (ties among same-cycle completions) */
    uint8_t kind;      /* tm_unit */
    uint16_t unit;     /* which unit of its kind */
} tm_fu_done;

typedef struct tm_fu {
    uint32_t n_units[TM_UNIT_KINDS];
    uint32_t first[TM_UNIT_KINDS];  /* index of a kind's first unit in next_issue */
    uint32_t total_units;
    uint32_t ex_wb;
    uint32_t max_latency;
    uint32_t ring;                  /* power of two above max_latency */
    uint64_t *next_issue;           /* [total_units]: first cycle the unit accepts again */
    uint64_t *unit_done;            /* [total_units * ring]: cycle the slot's completion is booked for */
    uint64_t *bus_cycle;            /* [ring]: cycle bus_count is for */
    uint32_t *bus_count;            /* [ring]: result buses booked in that cycle */
    tm_fu_done *heap;               /* in flight, min-heap by (cycle, seq) */
    uint32_t nheap, heap_cap;
    uint64_t seq;
} tm_fu;

#define TM_FU_BUSY (-1)  /* no unit of the kind can take it this cycle */
#define TM_FU_BAD (-2)   /* latency 0 or above max_latency, or no such kind */

/* The units of cfg (n_units[], ex_wb). max_latency bounds the latencies
 * that will be issued (0: the largest latency of cfg's tables, plus one
 * for mul24/mad24). NULL, with err set, when ex_wb is 0, a kind other than
 * MEM has more than 65535 units, or memory is short. */
tm_fu *tm_fu_new(const tm_config *cfg, uint32_t max_latency, char *err, size_t errlen);
void tm_fu_free(tm_fu *fu);

/* Could a unit of kind take an instruction of this latency at cycle now? */
bool tm_fu_can_issue(const tm_fu *fu, tm_unit kind, uint32_t latency, uint64_t now);

/* Dispatch an instruction (latency >= 1, initiation 0 counts as 1) to the
 * lowest-numbered unit of kind that can take it at cycle now: returns that
 * unit's number within the kind, TM_FU_BUSY, or TM_FU_BAD. */
int tm_fu_issue(tm_fu *fu, tm_unit kind, uint32_t latency, uint32_t initiation, uint64_t tag,
                uint64_t now);

/* Collect into out[0..max) the instructions that completed at or before
 * cycle now, oldest first; returns how many. Called every cycle
 * tm_fu_next_event names, with max >= tm_fu_max_completions(), nothing is
 * ever left behind. */
uint32_t tm_fu_cycle(tm_fu *fu, uint64_t now, tm_fu_done *out, uint32_t max);

/* The most completions one cycle can have: ex_wb, plus one per MEM unit. */
uint32_t tm_fu_max_completions(const tm_fu *fu);

/* The cycle of the next completion, or UINT64_MAX when nothing is in flight. */
uint64_t tm_fu_next_event(const tm_fu *fu);

/* Instructions in flight. */
static inline uint32_t tm_fu_in_flight(const tm_fu *fu) { return fu->nheap; }

#endif
