/* trace_support.h — a launch's warp issues in issue order, recorded
 * through tm_gpu.on_issue, for the tests that check traces derived by
 * hand (test_simt_examples.c, test_mem_pipeline.c). */
#ifndef SIMTLAB_TIMING_TESTS_TRACE_SUPPORT_H
#define SIMTLAB_TIMING_TESTS_TRACE_SUPPORT_H

#include <stdint.h>

#include "timing/gpu.h"

typedef struct trace {
    tm_issue_event ev[4096];
    uint32_t n;
} trace;

/* tm_gpu.on_issue: append the issue to the trace arg (the first 4096). */
static inline void record_issue(void *arg, const tm_issue_event *e)
{
    trace *t = arg;
    if (t->n < sizeof t->ev / sizeof *t->ev)
        t->ev[t->n++] = *e;
}

#endif
