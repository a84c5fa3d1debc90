/* report.h — the statistics of a simulated GPU (timing/gpu.h) after a
 * launch, as `simtlab sim` prints them: GPGPU-Sim's `name = value` lines
 * (its spellings and number formats for every statistic the two share)
 * plus simtlab's own, the same as one JSON object (schema
 * "simtlab-sim/1") with the per-PTX-line profile, and a readable table
 * of the busiest PTX lines. timing/README.md ("Statistics") lists every
 * name, its meaning and where it differs from GPGPU-Sim's. */
#ifndef SIMTLAB_TIMING_REPORT_H
#define SIMTLAB_TIMING_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "timing/gpu.h"

/* The text report of the last kernel and the totals. */
void tm_report_text(const tm_gpu *gpu, FILE *out);

/* The same statistics as one JSON object (one line), with "lines": the
 * per-line profile of the last kernel. */
void tm_report_json(const tm_gpu *gpu, FILE *out);

/* The `top` PTX instructions of the last kernel with the most issues plus
 * stall cycles, as a table (0: all that issued or stalled). */
void tm_report_lines(const tm_gpu *gpu, FILE *out, uint32_t top);

#endif
