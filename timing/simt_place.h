/* simt_place.h — putting a thread group of the mechanism's choosing into
 * one of the CTA's warp slots, for the mechanisms that regroup threads
 * (thread block compaction, large warps): slot j is the CTA's sim_warp j,
 * whose lanes receive the threads and which then runs them under the
 * emulator's PDOM control from a fresh one-entry stack. */
#ifndef SIMTLAB_TIMING_SIMT_PLACE_H
#define SIMTLAB_TIMING_SIMT_PLACE_H

#include "timing/cta.h"

/* Put the threads at[0..32) (PTX_NONE: a hole) in slot j at the kernel's
 * instruction pc; the warp has n lanes (a partial static warp has fewer
 * than 32). Holes count as exited lanes for the emulator (barrier counts,
 * warp-synchronous lanes). Returns the holes. */
uint32_t tm_simt_place(tm_cta *cta, uint32_t j, const uint32_t *at, uint32_t n, uint32_t pc);

/* Empty slot j: its warp holds no thread. */
void tm_simt_unplace(tm_cta *cta, uint32_t j);

/* Whether the CTA's sim_warp k waits at a CTA barrier (under the
 * emulator's PDOM control, which the regrouping mechanisms run their
 * slots' warps with). */
bool tm_simt_warp_waits(const tm_cta *cta, uint32_t k);

/* The emulator's context for slot s: the CTA's sim_warp s. */
void tm_simt_enter(tm_cta *cta, uint32_t s, sim_group *g);

/* Release the CTA's barriers whose arrivals are complete (their warps'
 * PDOM control resumes them); true if any was. */
bool tm_simt_release(tm_cta *cta);

/* Record the CTA's deadlock fault (the emulator's report of the barrier
 * that cannot complete). */
void tm_simt_deadlock(tm_cta *cta);

/* Where lane l of warp w goes on: the pc of the topmost entry of its
 * reconvergence stack holding the lane (PTX_NONE: none, it has finished). */
uint32_t tm_simt_lane_pc(const sim_warp *w, uint32_t l);

/* The opcode of instruction pc of function fn. */
ptx_opcode tm_simt_opcode(const sim_cta *c, const sim_func *fn, uint32_t pc);

/* Whether the instruction at pc of fn works on the lanes of its warp
 * together (shuffles, votes, match, redux, activemask, elect and every
 * .sync form but the CTA barriers), or is a call, whose callee may: what
 * it computes depends on which threads share the warp, so a regrouping
 * mechanism runs it in the static warps. */
bool tm_simt_warp_level(const sim_cta *c, const sim_func *fn, uint32_t pc);

#endif
