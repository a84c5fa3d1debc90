/* parallel.h — a pool of host threads that runs one job at a time, a job
 * being a number of independent items (the timing model runs groups of
 * SMs' core cycles on it: timing/gpu.c).
 *
 * tm_pool_run(p, fn, ctx, n) runs fn(ctx, i) once for every item i in
 * 0 .. n - 1 on whichever of the pool's threads (the caller's included)
 * takes it first, and returns when every item has finished; everything
 * the items wrote is then visible to the caller, and everything the
 * caller wrote before the call is visible to the items. Which thread runs
 * which item is left to chance: the items must not care.
 *
 * A job is expected to be short (one simulated cycle: microseconds). A
 * worker the host does not run for a while holds up only the item it has
 * taken (the others take the rest, and a job does not wait for every
 * worker to look at it), which matters on a loaded host. Waiting threads
 * spin for a while and then sleep on a condition variable; with more
 * threads than host processors they sleep at once. */
#ifndef SIMTLAB_TIMING_PARALLEL_H
#define SIMTLAB_TIMING_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct tm_pool tm_pool;

/* Most items of one job. */
#define TM_POOL_MAX_ITEMS 65535u

/* One item of a job. */
typedef void (*tm_pool_fn)(void *ctx, uint32_t item);

/* A pool of n >= 1 threads, the caller's included (n - 1 workers are
 * started); NULL with err when the host cannot start them. */
tm_pool *tm_pool_new(uint32_t n, char *err, size_t errlen);
/* The pool's thread count, the caller's included. */
uint32_t tm_pool_threads(const tm_pool *p);
/* Run fn(ctx, i) for i = 0 .. nitems - 1 on the pool's threads (more
 * than TM_POOL_MAX_ITEMS items: on the caller's alone); returns when all
 * have finished. One job at a time, from one caller. */
void tm_pool_run(tm_pool *p, tm_pool_fn fn, void *ctx, uint32_t nitems);
/* Stop the workers and release the pool (NULL: nothing). */
void tm_pool_free(tm_pool *p);

#endif
