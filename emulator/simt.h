/* simt.h — SIMT control: which lanes of a warp issue next, at which
 * instruction, and what a step's outcome (a branch, a reconvergence point,
 * a call or return, a barrier, an exit) does to the warp.
 *
 * The emulator's functional scheduler (cta.c) and the timing model drive
 * warps through this one interface, so both run the same decisions: the
 * functional scheduler in instruction counts, the timing model in cycles.
 * Three implementations exist:
 *   sim_simt_pdom  a reconvergence stack per warp, reconverging at the
 *                  analyzer's immediate post-dominators (simt_pdom.c):
 *                  GPUs before Volta, and the baseline of the papers;
 *   sim_simt_its   independent thread scheduling, a program counter per
 *                  lane (simt_its.c): Volta and later;
 *   sim_simt_pdom_lpc  PDOM with likely-convergence points (simt_pdom.c).
 * Barriers (arrival counts, bar.red, release, deadlock reports) are common
 * to both (barrier.c): an implementation says which of its lanes wait at
 * which barrier and how they resume.
 *
 * A caller's loop over one warp:
 *     sim_group g; sim_issue is; sim_step s;
 *     while (ops->next(c, w, &g, &is) == SIM_WARP_READY) {
 *         sim_exec(c, is.pc, &g, &s);        (or sim_exec_run up to is.stop)
 *         if (ops->commit(c, w, &is, &s) != SIM_WARP_READY) break;
 *     }
 *     and between rounds sim_barriers_release(c, ops).
 * next() makes the CTA run the warp's current code (the kernel, or the
 * function on top of its call stack): c->fn, the register rows and the
 * lane-to-thread map are set for sim_exec. A caller that owns time sets
 * c->clock_external and c->clock before each sim_exec.
 *
 * Call frames hold a called function's registers for the 32 lanes of the
 * warp that called it (sim_frame), so a thread group inside a called
 * function is always (a subset of) the lanes of one warp: compaction
 * mechanisms that regroup threads across warps (thread block compaction,
 * dynamic warp formation, large warps) can regroup kernel code only, and
 * must hand a warp that calls a function back to its own lanes until the
 * call returns. */
#ifndef SIMTLAB_EMU_SIMT_H
#define SIMTLAB_EMU_SIMT_H

#include "emulator/internal.h"

/* What a warp issues next (sim_simt_ops.next). */
typedef struct sim_issue {
    uint32_t pc;   /* the instruction, in the running function (c->fn) */
    uint32_t mask; /* the lanes that issue (positions in the warp) */
    uint32_t stop; /* straight-line code may run on with the same lanes up to, not
                      including, this pc (PDOM: the reconvergence point; ITS: pc + 1) */
} sim_issue;

/* A warp's state for its scheduler. */
typedef enum sim_warp_status {
    SIM_WARP_READY,   /* it can issue (next) / it may go on issuing (commit) */
    SIM_WARP_WAITING, /* every live lane waits: at a barrier or a warp-synchronous instruction */
    SIM_WARP_DONE,    /* every lane has finished */
    SIM_WARP_FAULT    /* the CTA faulted (c->fault says why) */
} sim_warp_status;

typedef struct sim_simt_ops {
    const char *name;
    /* Put warp w (its lanes formed by sim_form_warps) at the kernel's first
     * instruction, nothing pending. */
    void (*start)(sim_cta *c, sim_warp *w);
    /* The next issue of w: READY with *is and *g (the group to pass to
     * sim_exec) filled and the CTA's context set for w; or WAITING / DONE.
     * Finishes what needs no instruction on the way (popping reconverged
     * entries, returning from a finished call). */
    sim_warp_status (*next)(sim_cta *c, sim_warp *w, sim_group *g, sim_issue *is);
    /* Apply the outcome s of issue is (the last instruction run when a
     * straight-line run was cut: is->pc updated to it by the caller):
     * branches, exits, calls and returns, barrier arrival (counted in the
     * CTA's barrier table). READY, WAITING (the warp arrived at a barrier
     * or must wait for member lanes) or FAULT. */
    sim_warp_status (*commit)(sim_cta *c, sim_warp *w, const sim_issue *is, const sim_step *s);
    /* Lanes of w waiting at CTA barrier id. */
    uint32_t (*waiting)(const sim_cta *c, const sim_warp *w, uint32_t id);
    /* Barrier id completed: w's lanes waiting there go on after it, those
     * that executed bar.red receiving the reduction red. */
    void (*resume)(sim_cta *c, sim_warp *w, uint32_t id, const sim_bar_red *red);
    /* For deadlock reports: append what w's lanes wait for besides barriers
     * (ITS: member lanes of a warp-synchronous instruction); the length. */
    size_t (*describe_wait)(const sim_cta *c, const sim_warp *w, uint32_t i, char *buf, size_t len, size_t cap);
    /* The PTX lines where w's unfinished lanes stand (at most n), for the
     * instruction-limit report; how many it wrote. */
    uint32_t (*where)(const sim_cta *c, const sim_warp *w, uint32_t *lines, uint32_t n);
} sim_simt_ops;

extern const sim_simt_ops sim_simt_pdom;
/* PDOM with likely-convergence points (Fung and Aamodt, HPCA 2011, Sec.
 * 4): a divergent branch whose likely-convergence point (sim_func.lpc)
 * differs from its reconvergence point also pushes a likely-convergence
 * entry, which collects the lanes of its paths that reach that point and
 * runs them from there on together. Plain PDOM where lpc is NULL. */
extern const sim_simt_ops sim_simt_pdom_lpc;
extern const sim_simt_ops sim_simt_its;

/* ---- barriers (barrier.c) ---------------------------------------------- */

/* Warp w's `lanes` lanes (`threads` threads: PDOM counts every live lane
 * of the warp) arrive at barrier id expecting `count` threads (0: every
 * live thread of the CTA); for bar.red (s->red_op) their predicate
 * values join the reduction. */
void sim_barrier_arrive(sim_cta *c, uint32_t id, uint32_t threads, const sim_step *s);
/* Release every barrier whose arrivals are complete (each waiting warp
 * resumes through ops); true if any was. */
bool sim_barriers_release(sim_cta *c, const sim_simt_ops *ops);
/* sim_barriers_release where `live` threads of the CTA have not exited,
 * for a caller that holds some of them outside the CTA's warps (dynamic
 * warp formation's pool). */
bool sim_barriers_release_live(sim_cta *c, const sim_simt_ops *ops, uint32_t live);
/* Forget every arrival (a CTA's start). */
void sim_barriers_reset(sim_cta *c);
/* Record the deadlock fault of a CTA whose warps all wait: which warps
 * wait at which barrier or for which member lanes, and how many threads
 * the barrier still expects. */
void sim_barrier_deadlock(sim_cta *c, const sim_simt_ops *ops);
/* Threads of the CTA that have not exited. */
uint32_t sim_live_threads(const sim_cta *c);
/* The lanes warp w has (a mask of w->n bits). */
static inline uint32_t sim_warp_lanes(const sim_warp *w) { return w->n >= 32 ? ~0u : (1u << w->n) - 1; }

#endif
