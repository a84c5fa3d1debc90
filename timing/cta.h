/* cta.h — a CTA as the timing model runs it: the emulator's functional
 * state of the block (registers, shared and local memory, warps; made
 * through the launch's sim_grid exactly as a functional launch makes it)
 * and the divergence mechanism's view of it: hardware warp slots, each
 * issuing a thread group the mechanism chooses (timing/simt.h). */
#ifndef SIMTLAB_TIMING_CTA_H
#define SIMTLAB_TIMING_CTA_H

#include <stdbool.h>
#include <stdint.h>

#include "emulator/simt.h"
#include "timing/stats.h"

struct tm_simt_mechanism;

typedef struct tm_cta {
    sim_cta emu;          /* functional state */
    sim_cta *self;        /* &emu: the cluster's CTA list */
    sim_cluster cluster;  /* a cluster of this one CTA */
    uint64_t id;          /* linear CTA number in the grid */
    const struct tm_simt_mechanism *simt;
    const struct tm_config *cfg; /* the GPU's configuration (mechanisms' parameters) */
    void *simt_state;     /* the mechanism's own per-CTA state */
    void **sm_state;      /* the mechanism's own per-SM state (CAPRI's table): one malloc'd block
                             the mechanism allocates, shared by the SM's CTAs, freed by the SM
                             when the kernel ends */
    tm_simt_counts counts; /* what the mechanism counted for this CTA (zeroed at its start) */
    sim_group *groups;    /* per warp slot: the group it issues (kept between issues) */
    uint32_t nslots;      /* hardware warp slots it occupies: its static warps x the mechanism's paths */
    uint16_t sm_slot[64]; /* the SM's warp slot of each (set by the SM when it starts) */
    uint32_t shadow;      /* slots whose pending writes the mechanism asks the SM to shadow: static
                             warps k whose paths diverged or reconverged under dual-path execution
                             (both path slots), or the slots a regrouping mechanism regrouped; the
                             SM clears it after each next and commit */
    bool barrier_arrived; /* a warp arrived at a barrier since the last release check */
    const struct tm_opclass_fn *kernel_opc; /* the kernel's instruction classes, once a fetch asked
                                               for them (tm_cta_init clears it: one launch's) */
    bool allocated;       /* emu's buffers exist (tm_cta_free releases them) */
} __attribute__((aligned(64))) tm_cta; /* (its emulator state begins a host cache line) */

/* Make cta the state for CTAs of grid g run under mechanism m (buffers
 * sized once, reused by every CTA that runs in this place). False with
 * err when the host has not the memory. */
bool tm_cta_init(tm_cta *cta, sim_grid *g, const struct tm_simt_mechanism *m, char *err, size_t errlen);
/* Begin CTA number id here: functional state reset, warps formed, the
 * mechanism started; false with err (mechanism out of memory). */
bool tm_cta_begin(tm_cta *cta, sim_grid *g, uint64_t id, char *err, size_t errlen);
/* The CTA finished (or faulted): its counts, printf text and fault go to
 * the grid. */
void tm_cta_end(tm_cta *cta, sim_grid *g);
void tm_cta_free(tm_cta *cta, sim_grid *g);

#endif
