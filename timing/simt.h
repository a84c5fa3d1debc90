/* simt.h — the timing model's divergence-mechanism interface: which
 * thread group each hardware warp slot of a CTA issues next, and what a
 * branch, a reconvergence point, a call or return, a barrier or an exit
 * does. The SM asks a mechanism for a slot's next issue when it fetches,
 * runs the issue through the emulator (sim_exec) when the slot's
 * instruction issues, and hands the outcome back (commit); it knows
 * nothing else about divergence, so adding a mechanism (issue 16's PDOM +
 * LPC, DWS, dual-path, TBC, DWF, CAPRI, SLP, large warps) is one new file
 * registered in simt.c, and touches no other mechanism.
 *
 * Selected by -simtlab_simt NAME (timing/config.h: tm_config.simt). Today:
 *   pdom  per-warp reconvergence stacks at the analyzer's immediate
 *         post-dominators (the emulator's PDOM control in time);
 *   its   independent thread scheduling (a pc per thread; the emulator's
 *         ITS control in time);
 *   pdom-lpc  the PDOM stacks with likely-convergence entries (Fung and
 *         Aamodt, HPCA 2011, Sec. 4) at the analyzer's static
 *         likely-convergence points, or those of --annotations;
 *   tbc, tbc+, tbc-lpc, tbc-ideal  thread block compaction and its
 *         variants (simt_tbc.c; timing/README.md lists them);
 *   capri, capri-2bit, capri-1bs, capri-ce  compaction-adequacy
 *         prediction on TBC+ (simt_tbc.c, capt.c);
 *   lwm   the large warp microarchitecture (simt_lwm.c);
 *   dpe, dpe-constrained  dual-path execution, with the expanded or the
 *         constrained scheduler (simt_dpe.c);
 *   dwf, dwf-wb  dynamic warp formation, without and with warp barriers
 *         (simt_dwf.c);
 *   dws   dynamic warp subdivision (simt_dpe.c). */
#ifndef SIMTLAB_TIMING_SIMT_H
#define SIMTLAB_TIMING_SIMT_H

#include "timing/config.h"
#include "timing/cta.h"

typedef struct tm_simt_mechanism {
    const char *name;
    const char *summary;
    const void *data;   /* the mechanism's own constant data */
    /* Hardware warp slots per static warp (0: one). Dual-path execution
     * has 2: CTA slot k < n (n static warps) is warp k's left path, slot
     * n + k its right path, both on the same scheduler, each with its own
     * scoreboard; a register a path's scoreboard holds as shadowed
     * (tm_cta.shadow) stalls the other path too. */
    uint32_t paths;
    /* Groups may hold threads of several static warps (compaction, large
     * warps). At each regrouping the mechanism flags the slots involved
     * in tm_cta.shadow; the SM then marks their pending register writes
     * shadowed, and an issue of slot s waits for its own slot's pending
     * writes and for the shadowed ones of every slot in domain(cta, s) (a
     * mask of CTA slots; NULL: all of the CTA's): what its threads' earlier
     * instructions may still be writing, wherever they issued from. */
    bool regroups;
    uint32_t (*domain)(const tm_cta *cta, uint32_t s);
    /* Make program p ready for the mechanism before a launch (the branch
     * facts it reads); false with err. May be NULL. */
    bool (*prepare)(sim_program *p, char *err, size_t errlen);
    /* A CTA begins (its warps formed by the emulator): set up the
     * mechanism's state; false with err when memory is short. */
    bool (*start)(tm_cta *cta, char *err, size_t errlen);
    /* The next issue of slot s: READY with *g (the group to run) and *is
     * filled, or WAITING / DONE, or FAULT (cta->emu.fault says why). Calling it again without a commit in
     * between gives the same answer. */
    sim_warp_status (*next)(tm_cta *cta, uint32_t s, sim_group **g, sim_issue *is);
    /* Make the emulator ready to run group g, which next() gave for slot
     * s (other slots' next() may have run since): the SM buffers next()'s
     * answer at fetch and calls this at issue, just before sim_exec. */
    void (*enter)(tm_cta *cta, uint32_t s, sim_group *g);
    /* Apply the outcome of slot s's issue. */
    sim_warp_status (*commit)(tm_cta *cta, uint32_t s, const sim_issue *is, const sim_step *st);
    /* Release barriers whose arrivals are complete; true if any was. */
    bool (*release)(tm_cta *cta);
    /* Slot s waits at a CTA barrier (for the stall breakdown). */
    bool (*at_barrier)(const tm_cta *cta, uint32_t s);
    /* Record the CTA's deadlock fault (no slot can issue, none will). */
    void (*deadlock)(tm_cta *cta);
    /* Release the mechanism's per-CTA state (may be NULL). */
    void (*stop)(tm_cta *cta);
    /* Subdivision on memory divergence (may be NULL; the SM asks only under
     * -simtlab_dws_memory): slot s's buffered issue is held by the
     * scoreboard on the destinations of loads in flight from slot ls (s or
     * s's other path), of which the issue's lanes `ready` have their data
     * and the rest wait. True when the mechanism split the issue's path
     * there (its buffered issue is void: the SM drops it and fetches
     * again, and keeps those destinations of ls from shadowing, so only
     * ls's issues wait for them: the waiting lanes must issue from ls
     * alone until they complete, the ready ones need not wait). */
    bool (*mem_split)(tm_cta *cta, uint32_t s, uint32_t ls, uint32_t ready);
} tm_simt_mechanism;

/* The mechanism called `name`, or NULL. */
const tm_simt_mechanism *tm_simt_find(const char *name);
/* Mechanism i of the registry (i < tm_simt_count()), for listings. */
const tm_simt_mechanism *tm_simt_at(uint32_t i);
uint32_t tm_simt_count(void);

#endif
