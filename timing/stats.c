/* stats.c — sums of the SM statistics (stats.h). */
#include "timing/stats.h"

/* The statistics are all uint64_t counters: add and subtract them as arrays. */
#define NCOUNTERS (sizeof(tm_sm_stats) / sizeof(uint64_t))
_Static_assert(sizeof(tm_sm_stats) % sizeof(uint64_t) == 0, "tm_sm_stats holds only uint64_t counters");

void tm_sm_stats_add(tm_sm_stats *sum, const tm_sm_stats *s)
{
    uint64_t *a = (uint64_t *)sum;
    const uint64_t *b = (const uint64_t *)s;
    for (size_t i = 0; i < NCOUNTERS; i++)
        a[i] += b[i];
}

void tm_sm_stats_sub(tm_sm_stats *diff, const tm_sm_stats *s)
{
    uint64_t *a = (uint64_t *)diff;
    const uint64_t *b = (const uint64_t *)s;
    for (size_t i = 0; i < NCOUNTERS; i++)
        a[i] -= b[i];
}
