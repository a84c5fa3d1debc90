/* parallel.h — a pool of host threads that runs one job at a time, split
 * into a fixed number of parts (the timing model runs its SMs' core cycle
 * on it: timing/gpu.c).
 *
 * The pool has n threads, the caller's included: tm_pool_run(p, fn, ctx)
 * runs fn(ctx, k, n) for every part k in 0 .. n - 1, part 0 on the
 * calling thread and part k on worker k, and returns when every part has
 * finished; everything the parts wrote is then visible to the caller, and
 * everything the caller wrote before the call is visible to the parts.
 * Part k always runs on the same worker, so a part may keep state that
 * only its own thread touches.
 *
 * A job is expected to be short (one simulated cycle: microseconds), so
 * waiting threads first spin for a while, then sleep on a condition
 * variable: with more threads than host processors the spinning ones
 * give way instead of taking the processors from the working ones. */
#ifndef SIMTLAB_TIMING_PARALLEL_H
#define SIMTLAB_TIMING_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct tm_pool tm_pool;

/* A job's part k of n. */
typedef void (*tm_pool_fn)(void *ctx, uint32_t k, uint32_t n);

/* A pool of n >= 1 threads (n - 1 workers are started); NULL with err
 * when the host cannot start them. */
tm_pool *tm_pool_new(uint32_t n, char *err, size_t errlen);
/* The pool's thread count, the caller's included. */
uint32_t tm_pool_threads(const tm_pool *p);
/* Run fn(ctx, k, n) for k = 0 .. n - 1 on the pool's threads; returns
 * when all have finished. Not reentrant: one job at a time. */
void tm_pool_run(tm_pool *p, tm_pool_fn fn, void *ctx);
/* Stop the workers and release the pool (NULL: nothing). */
void tm_pool_free(tm_pool *p);

#endif
