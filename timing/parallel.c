/* parallel.c — the host thread pool of the timing model (parallel.h).
 *
 * Hand-off: the caller publishes the job (function, context, the count of
 * workers still to finish it) and then bumps a generation counter; each
 * worker waits for the counter to move past the generation it last ran,
 * runs its part and counts itself out; the caller runs part 0 and waits
 * for the count to reach zero. Both waits spin first (a cycle's job is
 * microseconds long, a sleep and wake-up costs about as much) and then
 * sleep on a condition variable. A sleeper announces itself (an atomic
 * counter or flag) before it checks the condition it waits for, and the
 * thread that changes the condition checks for sleepers after changing
 * it, both with sequentially consistent atomics: so either the sleeper
 * sees the change or the changer sees the sleeper and signals it under
 * the mutex the sleeper holds until it waits. No wake-up is lost.
 *
 * With more threads than host processors, spinning takes processor time
 * from the threads that have work, so then waits go to sleep at once. */
#include "timing/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Spins before a wait sleeps (each one a processor pause: some tens of
 * nanoseconds, so tens of microseconds in all). */
#define TM_POOL_SPINS 4000u

struct tm_pool_worker {
    struct tm_pool *pool;
    uint32_t part;
};

struct tm_pool {
    uint32_t n;                   /* threads, the caller's included */
    uint32_t started;             /* workers running */
    uint32_t spins;               /* TM_POOL_SPINS, or 0 with more threads than processors */
    pthread_t *threads;
    struct tm_pool_worker *workers;
    pthread_mutex_t lock;
    pthread_cond_t wake;          /* a new generation (job or stop) */
    pthread_cond_t done;          /* pending reached zero */
    tm_pool_fn fn;                /* the job, written before the generation moves */
    void *ctx;
    _Atomic uint64_t generation;
    _Atomic uint32_t pending;     /* workers that have not finished the job */
    _Atomic uint32_t sleepers;    /* workers asleep (or about to sleep) on wake */
    _Atomic bool caller_asleep;   /* the caller asleep (or about to sleep) on done */
    _Atomic bool stop;
};

/* A pause inside a spin loop (lets a sibling hardware thread run). */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Wait until the generation differs from seen; the new one. */
static uint64_t wait_generation(tm_pool *p, uint64_t seen)
{
    uint64_t g;
    for (uint32_t i = 0; i < p->spins; i++) {
        if ((g = atomic_load_explicit(&p->generation, memory_order_acquire)) != seen)
            return g;
        cpu_relax();
    }
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->sleepers, 1);
    while ((g = atomic_load(&p->generation)) == seen)
        pthread_cond_wait(&p->wake, &p->lock);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->lock);
    return g;
}

/* A worker: run part `part` of every job until the pool stops. */
static void *worker_main(void *arg)
{
    const struct tm_pool_worker *w = arg;
    tm_pool *p = w->pool;
    uint64_t seen = 0;
    for (;;) {
        seen = wait_generation(p, seen);
        if (atomic_load(&p->stop))
            return NULL;
        p->fn(p->ctx, w->part, p->n);
        if (atomic_fetch_sub(&p->pending, 1) == 1 && atomic_load(&p->caller_asleep)) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->lock);
        }
    }
}

/* Move to the next generation and wake the sleeping workers. */
static void next_generation(tm_pool *p)
{
    atomic_fetch_add(&p->generation, 1);
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->lock);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    }
}

/* Stop the started workers and release everything. */
static void pool_release(tm_pool *p)
{
    atomic_store(&p->stop, true);
    next_generation(p);
    for (uint32_t i = 0; i < p->started; i++)
        pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p->threads);
    free(p->workers);
    free(p);
}

tm_pool *tm_pool_new(uint32_t n, char *err, size_t errlen)
{
    tm_pool *p = calloc(1, sizeof *p);
    if (!p || n == 0) {
        free(p);
        snprintf(err, errlen, n ? "out of memory for the host thread pool" : "a thread pool needs a thread");
        return NULL;
    }
    p->n = n;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->spins = cpus > 0 && n > (uint64_t)cpus ? 0 : TM_POOL_SPINS;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    atomic_init(&p->generation, 0);
    atomic_init(&p->pending, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->caller_asleep, false);
    atomic_init(&p->stop, false);
    p->threads = calloc(n, sizeof *p->threads);
    p->workers = calloc(n, sizeof *p->workers);
    if (!p->threads || !p->workers) {
        pool_release(p);
        snprintf(err, errlen, "out of memory for the host thread pool");
        return NULL;
    }
    for (uint32_t k = 1; k < n; k++) {
        p->workers[k] = (struct tm_pool_worker){p, k};
        int rc = pthread_create(&p->threads[p->started], NULL, worker_main, &p->workers[k]);
        if (rc != 0) {
            pool_release(p);
            snprintf(err, errlen, "cannot start host thread %u of %u: %s", k + 1, n, strerror(rc));
            return NULL;
        }
        p->started++;
    }
    return p;
}

uint32_t tm_pool_threads(const tm_pool *p) { return p->n; }

void tm_pool_run(tm_pool *p, tm_pool_fn fn, void *ctx)
{
    if (p->n == 1) {
        fn(ctx, 0, 1);
        return;
    }
    p->fn = fn;
    p->ctx = ctx;
    atomic_store(&p->pending, p->n - 1);
    next_generation(p);
    fn(ctx, 0, p->n);
    for (uint32_t i = 0; i < p->spins; i++) {
        if (atomic_load_explicit(&p->pending, memory_order_acquire) == 0)
            return;
        cpu_relax();
    }
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->caller_asleep, true);
    while (atomic_load(&p->pending) != 0)
        pthread_cond_wait(&p->done, &p->lock);
    atomic_store(&p->caller_asleep, false);
    pthread_mutex_unlock(&p->lock);
}

void tm_pool_free(tm_pool *p)
{
    if (p)
        pool_release(p);
}
