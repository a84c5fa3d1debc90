/* parallel.c — the host thread pool of the timing model (parallel.h).
 *
 * One atomic word describes the job being run: its number (high 32 bits),
 * its item count (16 bits) and the next item not yet taken (low 16 bits).
 * The caller publishes a job by writing the job's function and context
 * and then the word; a thread takes an item by a compare-and-swap that
 * advances the next item in the same word, so a thread still holding a
 * word of an older job can never take an item of a newer one (its swap
 * fails), and the function and context it reads after taking an item
 * are that job's (the caller rewrites them only after every item of the
 * job has finished). Finished items are counted; the caller, which takes
 * items too, returns when the count reaches the item count.
 *
 * Waiting: workers wait for the job number to change, the caller for the
 * count; both spin first (a cycle's job is microseconds long, a sleep and
 * wake-up costs about as much) and then sleep on a condition variable. A
 * sleeper announces itself (an atomic counter or flag) before it checks
 * the condition it waits for, and the thread that changes the condition
 * checks for sleepers after changing it, both with sequentially
 * consistent atomics: either the sleeper sees the change or the changer
 * sees the sleeper and signals it under the mutex the sleeper holds until
 * it waits. No wake-up is lost. */
#include "timing/parallel.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A wait first pauses the processor this many times (some tens of
 * nanoseconds each), then yields it this many times (to a thread of the
 * job that the host runs on the same processor, if any), then sleeps. */
#define TM_POOL_PAUSES 500u
#define TM_POOL_YIELDS 20u

/* The job word's fields. */
#define JOB_OF(w) ((uint32_t)((w) >> 32))
#define COUNT_OF(w) ((uint32_t)((w) >> 16) & 0xffffu)
#define NEXT_OF(w) ((uint32_t)(w) & 0xffffu)

struct tm_pool {
    uint32_t n;                   /* threads, the caller's included */
    uint32_t started;             /* workers running */
    uint32_t spins;               /* pauses and yields before a wait sleeps (0 with more threads
                                     than processors) */
    pthread_t *threads;
    pthread_mutex_t lock;
    pthread_cond_t wake;          /* a new job (or stop) */
    pthread_cond_t done_cv;       /* the job's items all finished */
    tm_pool_fn fn;                /* the job, written before its word */
    void *ctx;
    _Atomic uint64_t word;        /* job number, item count, next item */
    _Atomic uint32_t done;        /* items of the job finished */
    _Atomic uint32_t sleepers;    /* workers asleep (or about to sleep) on wake */
    _Atomic bool caller_asleep;   /* the caller asleep (or about to sleep) on done_cv */
    _Atomic bool stop;
};

/* Step i of a wait's spinning: a processor pause (lets a sibling
 * hardware thread run), later a yield of the processor. */
static inline void backoff(uint32_t i)
{
    if (i >= TM_POOL_PAUSES)
        sched_yield();
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#elif defined(__aarch64__)
    else
        __asm__ __volatile__("yield");
#endif
}

/* Take and run items of the job of word w until none is left; the item
 * that finishes the job wakes the caller if it sleeps. */
static void take_items(tm_pool *p, uint64_t w)
{
    uint32_t job = JOB_OF(w);
    while (NEXT_OF(w) < COUNT_OF(w)) {
        if (!atomic_compare_exchange_weak(&p->word, &w, w + 1)) {
            if (JOB_OF(w) != job)
                return; /* w now holds the newer word */
            continue;
        }
        uint32_t count = COUNT_OF(w);
        p->fn(p->ctx, NEXT_OF(w));
        if (atomic_fetch_add(&p->done, 1) + 1 == count && atomic_load(&p->caller_asleep)) {
            pthread_mutex_lock(&p->lock);
            pthread_cond_signal(&p->done_cv);
            pthread_mutex_unlock(&p->lock);
        }
        w = atomic_load(&p->word);
        if (JOB_OF(w) != job)
            return;
    }
}

/* Wait until the job number differs from seen; the new word. */
static uint64_t wait_job(tm_pool *p, uint32_t seen)
{
    uint64_t w;
    for (uint32_t i = 0; i < p->spins; i++) {
        if (JOB_OF(w = atomic_load(&p->word)) != seen)
            return w;
        backoff(i);
    }
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->sleepers, 1);
    while (JOB_OF(w = atomic_load(&p->word)) == seen)
        pthread_cond_wait(&p->wake, &p->lock);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->lock);
    return w;
}

/* A worker: help with every job until the pool stops. */
static void *worker_main(void *arg)
{
    tm_pool *p = arg;
    uint32_t seen = 0;
    for (;;) {
        uint64_t w = wait_job(p, seen);
        if (atomic_load(&p->stop))
            return NULL;
        seen = JOB_OF(w);
        take_items(p, w);
    }
}

/* Publish word w (a new job number) and wake the sleeping workers. */
static void publish(tm_pool *p, uint64_t w)
{
    atomic_store(&p->word, w);
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
    publish(p, (uint64_t)(JOB_OF(atomic_load(&p->word)) + 1) << 32);
    for (uint32_t i = 0; i < p->started; i++)
        pthread_join(p->threads[i], NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done_cv);
    free(p->threads);
    free(p);
}

tm_pool *tm_pool_new(uint32_t n, char *err, size_t errlen)
{
    tm_pool *p = n ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        snprintf(err, errlen, n ? "out of memory for the host thread pool" : "a thread pool needs a thread");
        return NULL;
    }
    p->n = n;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->spins = cpus > 0 && n > (uint64_t)cpus ? 0 : TM_POOL_PAUSES + TM_POOL_YIELDS;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    atomic_init(&p->word, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->caller_asleep, false);
    atomic_init(&p->stop, false);
    if (!(p->threads = calloc(n, sizeof *p->threads))) {
        pool_release(p);
        snprintf(err, errlen, "out of memory for the host thread pool");
        return NULL;
    }
    for (uint32_t k = 1; k < n; k++) {
        int rc = pthread_create(&p->threads[p->started], NULL, worker_main, p);
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

void tm_pool_run(tm_pool *p, tm_pool_fn fn, void *ctx, uint32_t nitems)
{
    if (p->n == 1 || nitems <= 1 || nitems > TM_POOL_MAX_ITEMS) { /* (the word's field has 16 bits) */
        for (uint32_t i = 0; i < nitems; i++)
            fn(ctx, i);
        return;
    }
    p->fn = fn;
    p->ctx = ctx;
    atomic_store(&p->done, 0);
    uint64_t w = (uint64_t)(JOB_OF(atomic_load(&p->word)) + 1) << 32 | (uint64_t)nitems << 16;
    publish(p, w);
    take_items(p, w);
    for (uint32_t i = 0; i < p->spins; i++) {
        if (atomic_load(&p->done) == nitems)
            return;
        backoff(i);
    }
    pthread_mutex_lock(&p->lock);
    atomic_store(&p->caller_asleep, true);
    while (atomic_load(&p->done) != nitems)
        pthread_cond_wait(&p->done_cv, &p->lock);
    atomic_store(&p->caller_asleep, false);
    pthread_mutex_unlock(&p->lock);
}

void tm_pool_free(tm_pool *p)
{
    if (p)
        pool_release(p);
}
