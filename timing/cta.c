/* cta.c — a CTA's state in the timing model (cta.h). */
#include "timing/cta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/simt.h"

bool tm_cta_init(tm_cta *cta, sim_grid *g, const tm_simt_mechanism *m, char *err, size_t errlen)
{
    memset(cta, 0, sizeof *cta);
    cta->self = &cta->emu;
    cta->cluster = (sim_cluster){&cta->self, 1, 0};
    cta->emu.cluster = &cta->cluster;
    cta->simt = m;
    cta->allocated = true;
    if (!sim_grid_cta_alloc(g, &cta->emu)) {
        snprintf(err, errlen, "%s", cta->emu.fault);
        return false;
    }
    cta->emu.record_mem = true; /* the memory pipeline needs every access */
    cta->emu.clock_external = true;
    uint32_t threads = g->cfg->block.x * g->cfg->block.y * g->cfg->block.z;
    cta->nslots = (threads + 31) / 32 * (m->paths ? m->paths : 1);
    if (cta->nslots > sizeof cta->sm_slot / sizeof *cta->sm_slot) { /* (launches check 1024 threads first) */
        snprintf(err, errlen, "a block of %u threads is more than 1024", threads);
        return false;
    }
    cta->groups = calloc(cta->nslots, sizeof *cta->groups);
    if (!cta->groups) {
        snprintf(err, errlen, "out of memory for the warp slots of a block of %u threads", threads);
        return false;
    }
    return true;
}

bool tm_cta_begin(tm_cta *cta, sim_grid *g, uint64_t id, char *err, size_t errlen)
{
    cta->id = id;
    sim_grid_cta_begin(g, &cta->emu, id);
    cta->emu.order_passed = true; /* one host thread decides the order: nothing to wait for */
    sim_form_warps(&cta->emu);
    sim_barriers_reset(&cta->emu);
    cta->cluster.phase = 0;
    cta->counts = (tm_simt_counts){0};
    return cta->simt->start(cta, err, errlen);
}

void tm_cta_end(tm_cta *cta, sim_grid *g)
{
    if (cta->simt->stop)
        cta->simt->stop(cta);
    sim_grid_cta_report(g, &cta->emu, cta->id, cta->emu.faulted);
}

void tm_cta_free(tm_cta *cta, sim_grid *g)
{
    if (cta->allocated)
        sim_grid_cta_free(g, &cta->emu);
    free(cta->groups);
    memset(cta, 0, sizeof *cta);
}
