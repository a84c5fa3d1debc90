/* fu.c — functional unit pipelines with initiation intervals, per-unit and
 * result-bus completion slots (see fu.h).
 *
 * Bookings for future cycles (a unit's completion slot, the result buses)
 * live in rings indexed by cycle modulo `ring`, each slot stamped with the
 * cycle it is for: a stale stamp means "free", so nothing has to be
 * cleared as time passes. Every booking is for a cycle in (now, now +
 * max_latency] and ring > max_latency, so live bookings never share a
 * slot. */
#include "timing/fu.h"

#include <stdio.h>
#include <stdlib.h>

/* The largest latency of cfg's tables (+1: mul24/mad24 add one). */
static uint32_t config_max_latency(const tm_config *cfg)
{
    uint32_t m = cfg->lat_sfu > cfg->lat_tensor ? cfg->lat_sfu : cfg->lat_tensor;
    const tm_latency *t[3] = {&cfg->lat_int, &cfg->lat_fp, &cfg->lat_dp};
    for (unsigned k = 0; k < 3; k++)
        for (unsigned c = 0; c < TM_LAT_CLASSES; c++)
            if (t[k]->latency[c] > m)
                m = t[k]->latency[c];
    return m + 1;
}

/* Units of cfg, bookings all free. */
tm_fu *tm_fu_new(const tm_config *cfg, uint32_t max_latency, char *err, size_t errlen)
{
    if (cfg->ex_wb == 0) {
        snprintf(err, errlen, "the writeback width (EX_WB of -gpgpu_pipeline_widths) is 0");
        return NULL;
    }
    tm_fu *fu = calloc(1, sizeof *fu);
    if (!fu)
        goto oom;
    fu->ex_wb = cfg->ex_wb;
    fu->max_latency = max_latency ? max_latency : config_max_latency(cfg);
    fu->ring = 1;
    while (fu->ring <= fu->max_latency)
        fu->ring *= 2;
    for (unsigned k = 0; k < TM_UNIT_KINDS; k++) {
        uint32_t n = cfg->n_units[k];
        if (k == TM_UNIT_MEM && n == 0)
            n = 1;
        if (n > 65535) {
            snprintf(err, errlen, "%u units of one kind: at most 65535", n);
            tm_fu_free(fu);
            return NULL;
        }
        fu->n_units[k] = n;
        fu->first[k] = fu->total_units;
        fu->total_units += n;
    }
    fu->heap_cap = fu->total_units * (fu->max_latency + 1);
    fu->next_issue = calloc(fu->total_units ? fu->total_units : 1, sizeof *fu->next_issue);
    fu->unit_done = malloc(((size_t)fu->total_units * fu->ring + 1) * sizeof *fu->unit_done);
    fu->bus_cycle = malloc(fu->ring * sizeof *fu->bus_cycle);
    fu->bus_count = calloc(fu->ring, sizeof *fu->bus_count);
    fu->heap = malloc(((size_t)fu->heap_cap + 1) * sizeof *fu->heap);
    if (!fu->next_issue || !fu->unit_done || !fu->bus_cycle || !fu->bus_count || !fu->heap) {
        tm_fu_free(fu);
        goto oom;
    }
    for (size_t i = 0; i < (size_t)fu->total_units * fu->ring; i++)
        fu->unit_done[i] = UINT64_MAX;
    for (uint32_t i = 0; i < fu->ring; i++)
        fu->bus_cycle[i] = UINT64_MAX;
    return fu;
oom:
    snprintf(err, errlen, "out of memory for the functional units");
    return NULL;
}

void tm_fu_free(tm_fu *fu)
{
    if (!fu)
        return;
    free(fu->next_issue);
    free(fu->unit_done);
    free(fu->bus_cycle);
    free(fu->bus_count);
    free(fu->heap);
    free(fu);
}

/* Result buses booked for cycle c. */
static uint32_t bus_booked(const tm_fu *fu, uint64_t c)
{
    uint32_t s = (uint32_t)(c & (fu->ring - 1));
    return fu->bus_cycle[s] == c ? fu->bus_count[s] : 0;
}

/* The first unit of kind free to take an instruction of latency lat at
 * cycle now, or -1 (also for a bad latency or kind). */
static int free_unit(const tm_fu *fu, tm_unit kind, uint32_t lat, uint64_t now)
{
    if ((unsigned)kind >= TM_UNIT_KINDS || lat == 0 || lat > fu->max_latency ||
        fu->nheap >= fu->heap_cap)
        return -1;
    uint64_t done = now + lat;
    if (kind != TM_UNIT_MEM && bus_booked(fu, done) >= fu->ex_wb)
        return -1;
    uint32_t slot = (uint32_t)(done & (fu->ring - 1));
    for (uint32_t u = 0; u < fu->n_units[kind]; u++) {
        uint32_t g = fu->first[kind] + u;
        if (fu->next_issue[g] <= now && fu->unit_done[(size_t)g * fu->ring + slot] != done)
            return (int)u;
    }
    return -1;
}

bool tm_fu_can_issue(const tm_fu *fu, tm_unit kind, uint32_t latency, uint64_t now)
{
    return free_unit(fu, kind, latency, now) >= 0;
}

/* Is heap entry a due before b? (completion cycle, then issue order) */
static bool before(const tm_fu_done *a, const tm_fu_done *b)
{
    return a->cycle < b->cycle || (a->cycle == b->cycle && a->seq < b->seq);
}

/* Add d to the in-flight heap (room was checked by free_unit). */
static void heap_push(tm_fu *fu, tm_fu_done d)
{
    uint32_t i = fu->nheap++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!before(&d, &fu->heap[p]))
            break;
        fu->heap[i] = fu->heap[p];
        i = p;
    }
    fu->heap[i] = d;
}

/* Remove the heap's first entry. */
static void heap_pop(tm_fu *fu)
{
    tm_fu_done last = fu->heap[--fu->nheap];
    uint32_t i = 0, n = fu->nheap;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&fu->heap[c + 1], &fu->heap[c]))
            c++;
        if (!before(&fu->heap[c], &last))
            break;
        fu->heap[i] = fu->heap[c];
        i = c;
    }
    if (n)
        fu->heap[i] = last;
}

/* Dispatch to the first free unit of kind; book its completion slot and a
 * result bus. */
int tm_fu_issue(tm_fu *fu, tm_unit kind, uint32_t latency, uint32_t initiation, uint64_t tag,
                uint64_t now)
{
    if ((unsigned)kind >= TM_UNIT_KINDS || latency == 0 || latency > fu->max_latency)
        return TM_FU_BAD;
    int u = free_unit(fu, kind, latency, now);
    if (u < 0)
        return TM_FU_BUSY;
    uint32_t g = fu->first[kind] + (uint32_t)u;
    uint64_t done = now + latency;
    uint32_t slot = (uint32_t)(done & (fu->ring - 1));
    fu->next_issue[g] = now + (initiation ? initiation : 1);
    fu->unit_done[(size_t)g * fu->ring + slot] = done;
    if (kind != TM_UNIT_MEM) {
        if (fu->bus_cycle[slot] != done) {
            fu->bus_cycle[slot] = done;
            fu->bus_count[slot] = 0;
        }
        fu->bus_count[slot]++;
    }
    heap_push(fu, (tm_fu_done){.tag = tag, .cycle = done, .seq = fu->seq++, .kind = (uint8_t)kind,
                               .unit = (uint16_t)u});
    return u;
}

/* Hand out completions due by cycle now, oldest first. */
uint32_t tm_fu_cycle(tm_fu *fu, uint64_t now, tm_fu_done *out, uint32_t max)
{
    uint32_t n = 0;
    while (n < max && fu->nheap && fu->heap[0].cycle <= now) {
        out[n++] = fu->heap[0];
        heap_pop(fu);
    }
    return n;
}

uint32_t tm_fu_max_completions(const tm_fu *fu)
{
    return fu->ex_wb + fu->n_units[TM_UNIT_MEM];
}

uint64_t tm_fu_next_event(const tm_fu *fu)
{
    return fu->nheap ? fu->heap[0].cycle : UINT64_MAX;
}
