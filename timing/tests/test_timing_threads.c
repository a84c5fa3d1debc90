/* test_timing_threads.c — the timing model on several host threads
 * (timing/gpu.c's header, timing/parallel.h): for every thread count the
 * statistics (text report, JSON report with the per-line profile, the
 * busiest-lines table) and the output buffers are byte for byte those of
 * one thread, and so are they with sleeping SMs turned off
 * (-simtlab_sm_sleep=0: every SM runs every cycle), and the outputs are
 * right.
 *
 * Expected values: the outputs come from CPU references computed here (a
 * vector add, a matrix multiply summed in the kernel's order with fmaf,
 * Collatz step counts, a copy, a histogram counted on the CPU, a ticket
 * order that must be a permutation); the equality across thread counts
 * is the property the task states ("statistics bit-identical for every
 * N"), as is the independence from sleeping (the model "never buys speed
 * by skipping what it models"), so one thread's run is the reference for
 * the others (never a value copied from a run). The fault test's message follows the
 * emulator's rule for a failing launch (emulator/launch.c: the lowest
 * faulting block's error) and the kernel's source (the address block
 * `bad`'s thread 0 stores to).
 *
 * Workloads: testdata/timing/vadd.ptx, matmul.cu (shared-memory tiles and
 * barriers), collatz.cu (divergent loops), membench.cu (copy4, streaming
 * float4 copies) and histogram.cu (global atomics: a histogram, a ticket
 * counter whose order shows the order of the atomics, and a store that
 * faults in a late block), under the QV100 preset (80 SMs); thread counts
 * 1, 2, 3, 4 and 7 (more than this machine's processors must work too).
 * Also: one GPU whose launches change their thread count, the
 * -simtlab_threads option, and the pool itself. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"
#include "timing/parallel.h"
#include "timing/report.h"

static const uint32_t thread_counts[] = {1, 2, 3, 4, 7};
enum { NCOUNTS = sizeof thread_counts / sizeof thread_counts[0], MAX_BUFS = 4, MAX_ARGS = 6 };

/* A launch: the program, kernel, shape, buffers (initial contents, or
 * zeros) and arguments (a buffer's device address, or a 32-bit value). */
typedef struct workload {
    const char *ptx, *kernel;
    sim_dim3 grid, block;
    uint32_t nbufs;
    struct {
        const void *init;
        size_t bytes;
    } buf[MAX_BUFS];
    uint32_t nargs;
    struct {
        int buf; /* >= 0: that buffer's address; -1: value */
        uint32_t value;
    } arg[MAX_ARGS];
    const char *sets[6]; /* -option=value assignments on top of QV100 (NULL-terminated) */
} workload;

/* What a launch left: its status and error, the reports, the buffers. */
typedef struct outcome {
    int rc;
    char err[1024];
    char *text, *json, *lines;
    uint8_t *buf[MAX_BUFS];
} outcome;

/* The text that report(gpu, f) writes. */
static char *report_string(const tm_gpu *gpu, void (*report)(const tm_gpu *, FILE *))
{
    char *s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    assert_non_null(f);
    report(gpu, f);
    fclose(f);
    return s;
}

/* tm_report_lines with every line. */
static void all_lines(const tm_gpu *gpu, FILE *f) { tm_report_lines(gpu, f, 0); }

/* Run w on a new device and GPU with `threads` host threads. */
static outcome run_on(const workload *w, uint32_t threads)
{
    outcome o = {0};
    emu e;
    emu_open(&e, w->ptx);
    uint64_t addr[MAX_BUFS];
    for (uint32_t b = 0; b < w->nbufs; b++) {
        addr[b] = emu_buf(&e, NULL, w->buf[b].bytes);
        if (w->buf[b].init && sim_memcpy_to_device(e.d, addr[b], w->buf[b].init, w->buf[b].bytes, e.err,
                                                   sizeof e.err) != 0)
            fail_msg("copy in: %s", e.err);
    }
    uint32_t n, bytes;
    const sim_param_info *pi = sim_kernel_params(e.p, w->kernel, &n, &bytes, e.err, sizeof e.err);
    if (!pi)
        fail_msg("%s", e.err);
    assert_int_equal(n, w->nargs);
    uint8_t params[256] = {0};
    assert_true(bytes <= sizeof params);
    for (uint32_t i = 0; i < n; i++) {
        if (w->arg[i].buf >= 0)
            memcpy(params + pi[i].offset, &addr[w->arg[i].buf], pi[i].size);
        else
            memcpy(params + pi[i].offset, &w->arg[i].value, pi[i].size);
    }
    tm_config c;
    char err[512];
    if (tm_config_preset(&c, "QV100", err, sizeof err) != 0)
        fail_msg("%s", err);
    for (uint32_t i = 0; w->sets[i]; i++)
        if (tm_config_set(&c, w->sets[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", w->sets[i], err);
    tm_gpu *gpu = tm_gpu_new(&c, err, sizeof err);
    if (!gpu)
        fail_msg("tm_gpu_new: %s", err);
    tm_gpu_set_threads(gpu, threads);
    sim_launch_config lc = {.grid = w->grid, .block = w->block, .host_threads = 1};
    sim_stats st;
    o.rc = tm_gpu_launch(gpu, e.d, e.p, w->kernel, &lc, params, bytes, &st, o.err, sizeof o.err);
    /* the pool has the threads asked for (at most one per SM) */
    uint32_t want = threads < gpu->nsms ? threads : gpu->nsms;
    if (want > 1)
        assert_int_equal(tm_pool_threads(gpu->pool), want);
    else
        assert_null(gpu->pool);
    gpu->kernel.seconds = 0; /* host time: the one figure that may differ */
    o.text = report_string(gpu, tm_report_text);
    o.json = report_string(gpu, tm_report_json);
    o.lines = report_string(gpu, all_lines);
    for (uint32_t b = 0; b < w->nbufs; b++) {
        o.buf[b] = malloc(w->buf[b].bytes);
        emu_read(&e, o.buf[b], addr[b], w->buf[b].bytes);
    }
    tm_gpu_free(gpu);
    emu_close(&e);
    return o;
}

static void outcome_free(outcome *o)
{
    free(o->text);
    free(o->json);
    free(o->lines);
    for (uint32_t b = 0; b < MAX_BUFS; b++)
        free(o->buf[b]);
}

/* The first line where two reports differ, for the failure message. */
static void assert_same_text(const char *what, const char *variant, const char *one, const char *other)
{
    if (strcmp(one, other) == 0)
        return;
    size_t i = 0;
    while (one[i] && one[i] == other[i])
        i++;
    size_t from = i;
    while (from && one[from - 1] != '\n')
        from--;
    fail_msg("%s with %s differs from one thread's at byte %zu:\n  one thread: %.160s\n  %s: %.160s", what,
             variant, i, one + from, variant, other + from);
}

/* o (w run as `variant` says) left what `one` (one thread) left. */
static void assert_same_outcome(const workload *w, const outcome *one, const outcome *o, const char *variant)
{
    assert_int_equal(o->rc, one->rc);
    assert_same_text("the error", variant, one->err, o->err);
    assert_same_text("the text report", variant, one->text, o->text);
    assert_same_text("the JSON report", variant, one->json, o->json);
    assert_same_text("the per-line table", variant, one->lines, o->lines);
    for (uint32_t b = 0; b < w->nbufs; b++)
        if (memcmp(one->buf[b], o->buf[b], w->buf[b].bytes) != 0)
            fail_msg("%s: buffer %u with %s differs from one thread's", w->kernel, b, variant);
}

/* Run w with every thread count, and on one thread with sleeping SMs
 * turned off (-simtlab_sm_sleep=0: every SM runs every cycle): the same
 * status, error, reports and buffers as with one thread. One thread's
 * outcome (the caller frees it). */
static outcome run_all(const workload *w)
{
    outcome one = run_on(w, 1);
    assert_true(strstr(one.json, "\"lines\"") != NULL);
    for (uint32_t k = 1; k < NCOUNTS; k++) {
        char variant[32];
        snprintf(variant, sizeof variant, "%u host threads", thread_counts[k]);
        outcome o = run_on(w, thread_counts[k]);
        assert_same_outcome(w, &one, &o, variant);
        outcome_free(&o);
    }
    workload awake = *w;
    uint32_t n = 0;
    while (awake.sets[n])
        n++;
    assert_true(n + 1 < sizeof awake.sets / sizeof awake.sets[0]);
    awake.sets[n] = "-simtlab_sm_sleep=0";
    outcome o = run_on(&awake, 1);
    assert_same_outcome(w, &one, &o, awake.sets[n]);
    outcome_free(&o);
    return one;
}

/* xorshift64: inputs from a fixed seed. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* c = a + b over n floats in blocks of 256. */
static void vadd_case(uint32_t n)
{
    float *a = malloc(n * 4), *b = malloc(n * 4);
    uint64_t s = 1;
    for (uint32_t i = 0; i < n; i++) {
        a[i] = (float)(next_random(&s) % 100000) / 7.0f;
        b[i] = (float)(next_random(&s) % 100000) / 3.0f;
    }
    workload w = {.ptx = "timing/vadd.ptx", .kernel = "vadd", .grid = {(n + 255) / 256, 1, 1}, .block = {256, 1, 1},
                  .nbufs = 3, .buf = {{a, n * 4}, {b, n * 4}, {NULL, n * 4}},
                  .nargs = 4, .arg = {{0, 0}, {1, 0}, {2, 0}, {-1, n}}};
    outcome o = run_all(&w);
    assert_int_equal(o.rc, 0);
    const float *c = (const float *)o.buf[2];
    for (uint32_t i = 0; i < n; i++)
        if (c[i] != a[i] + b[i])
            fail_msg("c[%u] = %g, want %g", i, (double)c[i], (double)(a[i] + b[i]));
    outcome_free(&o);
    free(a);
    free(b);
}

/* 40000 floats, 157 blocks: two blocks on most of the 80 SMs. */
static void test_vadd(void **state)
{
    (void)state;
    vadd_case(40000);
}

/* 640 blocks: eight on each SM (QV100's limit for 256 threads), whose
 * loads fill the L1's miss queue, so that the L1 refuses the LD/ST unit
 * for many cycles in a row while the SM's queue to the network is full
 * (the sleep of timing/README.md's "The SM pipeline, exactly"). */
static void test_vadd_full_sms(void **state)
{
    (void)state;
    vadd_case(640 * 256);
}

/* C = A * B, 96 x 96, 16 x 16 tiles in shared memory with barriers (36
 * blocks); the reference sums in the kernel's order with fmaf. */
static void test_matmul(void **state)
{
    (void)state;
    enum { S = 96 };
    float *A = malloc(S * S * 4), *B = malloc(S * S * 4);
    uint64_t s = 2;
    for (uint32_t i = 0; i < S * S; i++) {
        A[i] = (float)(next_random(&s) % 2000) / 64.0f - 15.0f;
        B[i] = (float)(next_random(&s) % 2000) / 128.0f - 7.5f;
    }
    workload w = {.ptx = "timing/matmul.ptx", .kernel = "matmul", .grid = {S / 16, S / 16, 1}, .block = {16, 16, 1},
                  .nbufs = 3, .buf = {{A, S * S * 4}, {B, S * S * 4}, {NULL, S * S * 4}},
                  .nargs = 4, .arg = {{0, 0}, {1, 0}, {2, 0}, {-1, S}}};
    outcome o = run_all(&w);
    assert_int_equal(o.rc, 0);
    const float *C = (const float *)o.buf[2];
    for (uint32_t i = 0; i < S; i++)
        for (uint32_t j = 0; j < S; j++) {
            float acc = 0.0f;
            for (uint32_t k = 0; k < S; k++)
                acc = fmaf(A[i * S + k], B[k * S + j], acc);
            if (C[i * S + j] != acc)
                fail_msg("C[%u][%u] = %g, want %g", i, j, (double)C[i * S + j], (double)acc);
        }
    outcome_free(&o);
    free(A);
    free(B);
}

/* Collatz step counts of 8192 random starts in [1, 2^16] (32 blocks). */
static void test_collatz(void **state)
{
    (void)state;
    enum { N = 8192 };
    uint32_t *start = malloc(N * 4);
    uint64_t s = 3;
    for (uint32_t i = 0; i < N; i++)
        start[i] = (uint32_t)(next_random(&s) % (1u << 16)) + 1;
    workload w = {.ptx = "timing/collatz.ptx", .kernel = "collatz", .grid = {N / 256, 1, 1}, .block = {256, 1, 1},
                  .nbufs = 2, .buf = {{start, N * 4}, {NULL, N * 4}},
                  .nargs = 3, .arg = {{0, 0}, {1, 0}, {-1, N}}};
    outcome o = run_all(&w);
    assert_int_equal(o.rc, 0);
    const uint32_t *steps = (const uint32_t *)o.buf[1];
    for (uint32_t i = 0; i < N; i++) {
        uint64_t x = start[i];
        uint32_t k = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            k++;
        }
        if (steps[i] != k)
            fail_msg("steps[%u] = %u, want %u (start %u)", i, steps[i], k, start[i]);
    }
    outcome_free(&o);
    free(start);
}

/* membench's streaming copy of 65536 float4s (256 blocks): out = in. */
static void test_membench_copy(void **state)
{
    (void)state;
    enum { N = 65536 };
    uint32_t *in = malloc((size_t)N * 16);
    uint64_t s = 4;
    for (uint32_t i = 0; i < N * 4; i++)
        in[i] = (uint32_t)next_random(&s);
    workload w = {.ptx = "timing/membench.sm_75.ptx", .kernel = "copy4", .grid = {N / 256, 1, 1},
                  .block = {256, 1, 1}, .nbufs = 2, .buf = {{in, (size_t)N * 16}, {NULL, (size_t)N * 16}},
                  .nargs = 3, .arg = {{0, 0}, {1, 0}, {-1, N}}};
    outcome o = run_all(&w);
    assert_int_equal(o.rc, 0);
    assert_memory_equal(o.buf[1], in, (size_t)N * 16);
    outcome_free(&o);
    free(in);
}

/* A histogram of 30000 random values (seed) into 37 bins by atomicAdd (40
 * blocks of 128 threads, grid-stride) with the assignments sets: the
 * CPU's count, and expect_in_text (when not NULL) in the report. */
static void histogram_case(uint64_t seed, const char *const *sets, const char *expect_in_text)
{
    enum { N = 30000, BINS = 37 };
    uint32_t *data = malloc(N * 4), want[BINS] = {0};
    for (uint32_t i = 0; i < N; i++) {
        data[i] = (uint32_t)next_random(&seed);
        want[data[i] % BINS]++;
    }
    workload w = {.ptx = "timing/histogram.ptx", .kernel = "histogram", .grid = {40, 1, 1}, .block = {128, 1, 1},
                  .nbufs = 2, .buf = {{data, N * 4}, {NULL, BINS * 4}},
                  .nargs = 4, .arg = {{0, 0}, {1, 0}, {-1, N}, {-1, BINS}}};
    for (int i = 0; sets && sets[i]; i++)
        w.sets[i] = sets[i];
    outcome o = run_all(&w);
    assert_int_equal(o.rc, 0);
    assert_memory_equal(o.buf[1], want, sizeof want);
    if (expect_in_text)
        assert_non_null(strstr(o.text, expect_in_text));
    outcome_free(&o);
    free(data);
}

static void test_histogram(void **state)
{
    (void)state;
    histogram_case(5, NULL, NULL);
}

/* The histogram again under Turner's replay pipeline with the counter
 * hazard predictor (a table every SM reads and updates, its updates
 * applied after each cycle in SM order) and dual issue (an ordered
 * instruction, the atomicAdd, never issues as a second instruction): the
 * reports and results are still the same for every thread count. */
static void test_histogram_replay_dual(void **state)
{
    (void)state;
    const char *const sets[] = {"-simtlab_mem_pipeline=replay", "-simtlab_hazard_predictor=counter",
                                "-gpgpu_max_insn_issue_per_warp=2", NULL};
    histogram_case(6, sets, "mem_pipeline = replay");
}

/* Tickets from one global counter (order[atomicAdd(counter, 1)] = i) for
 * 20000 threads in 79 blocks: the order records the order in which the
 * atomics of the SMs ran, which must not depend on the thread count (the
 * equality run_all checks); whatever it is, order must be a permutation
 * of 0 .. N-1 and the counter N. */
static void test_atomic_tickets(void **state)
{
    (void)state;
    enum { N = 20000 };
    workload w = {.ptx = "timing/histogram.ptx", .kernel = "tickets", .grid = {(N + 255) / 256, 1, 1},
                  .block = {256, 1, 1}, .nbufs = 2, .buf = {{NULL, 4}, {NULL, N * 4}},
                  .nargs = 3, .arg = {{0, 0}, {1, 0}, {-1, N}}};
    outcome o = run_all(&w);
    assert_int_equal(o.rc, 0);
    uint32_t counter;
    memcpy(&counter, o.buf[0], 4);
    assert_int_equal(counter, N);
    const uint32_t *order = (const uint32_t *)o.buf[1];
    uint8_t *seen = calloc(N, 1);
    bool in_order = true;
    for (uint32_t t = 0; t < N; t++) {
        if (order[t] >= N || seen[order[t]])
            fail_msg("order[%u] = %u: not a permutation", t, order[t]);
        seen[order[t]] = 1;
        in_order &= order[t] == t;
    }
    /* blocks run side by side on the 80 SMs: their atomics interleave */
    assert_false(in_order);
    free(seen);
    outcome_free(&o);
}

/* `grid` blocks of 64 threads store their index; block `bad` stores to
 * address 16 + 4 * thread instead, outside every allocation: the launch
 * fails with that block's fault, thread 0's address 0x10 (the lowest
 * faulting block's error, emulator/launch.c), and everything else as with
 * one thread. */
static void expect_late_fault(uint32_t grid, uint32_t bad, const char *const *sets)
{
    workload w = {.ptx = "timing/histogram.ptx", .kernel = "late_fault", .grid = {grid, 1, 1}, .block = {64, 1, 1},
                  .nbufs = 1, .buf = {{NULL, grid * 64 * 4}}, .nargs = 2, .arg = {{0, 0}, {-1, bad}}};
    for (int k = 0; sets && sets[k]; k++)
        w.sets[k] = sets[k];
    outcome o = run_all(&w);
    assert_int_equal(o.rc, -1);
    char block[64];
    snprintf(block, sizeof block, "block (%u,0,0)", bad);
    if (!strstr(o.err, "at 0x10 ") || !strstr(o.err, block))
        fail_msg("the error does not name block %u's store to 0x10: %s", bad, o.err);
    outcome_free(&o);
}

/* Block 70 of 80, on one of the last SMs. */
static void test_late_fault(void **state)
{
    (void)state;
    expect_late_fault(80, 70, NULL);
}

/* The same on a GPU of 6 SMs, more blocks than fit at once (CTAs start
 * as others end): the fault comes in a later wave. */
static void test_late_fault_small_gpu(void **state)
{
    (void)state;
    static const char *const sets[] = {"-gpgpu_n_clusters=3", "-gpgpu_n_cores_per_cluster=2", "-gpgpu_shader_cta=2", NULL};
    expect_late_fault(150, 140, sets);
}

/* One GPU running vadd three times on 3, 1 and 2 host threads (its pool
 * made, dropped and made again; caches and time carry over between the
 * launches) gives each launch the cycles, instructions and per-line
 * profile that a GPU running the same three launches on one thread gives. */
static void test_launches_change_threads(void **state)
{
    (void)state;
    enum { N = 8192 };
    const uint32_t sequence[3] = {3, 1, 2};
    char *json[2][3];
    for (int run = 0; run < 2; run++) {
        emu e;
        emu_open(&e, "timing/vadd.ptx");
        uint64_t a = emu_buf(&e, NULL, N * 4), b = emu_buf(&e, NULL, N * 4), c = emu_buf(&e, NULL, N * 4);
        uint32_t n = N;
        const void *args[] = {&a, &b, &c, &n};
        uint32_t np, bytes;
        const sim_param_info *pi = sim_kernel_params(e.p, "vadd", &np, &bytes, e.err, sizeof e.err);
        assert_non_null(pi);
        uint8_t params[64] = {0};
        for (uint32_t i = 0; i < np; i++)
            memcpy(params + pi[i].offset, args[i], pi[i].size);
        tm_config cfg;
        char err[512];
        assert_int_equal(tm_config_preset(&cfg, "QV100", err, sizeof err), 0);
        tm_gpu *gpu = tm_gpu_new(&cfg, err, sizeof err);
        assert_non_null(gpu);
        for (int k = 0; k < 3; k++) {
            tm_gpu_set_threads(gpu, run ? sequence[k] : 1);
            sim_launch_config lc = {.grid = {N / 256, 1, 1}, .block = {256, 1, 1}, .host_threads = 1};
            if (tm_gpu_launch(gpu, e.d, e.p, "vadd", &lc, params, bytes, NULL, err, sizeof err) != 0)
                fail_msg("launch %d: %s", k, err);
            gpu->kernel.seconds = 0;
            json[run][k] = report_string(gpu, tm_report_json);
        }
        tm_gpu_free(gpu);
        emu_close(&e);
    }
    for (int k = 0; k < 3; k++) {
        char variant[32];
        snprintf(variant, sizeof variant, "%u host threads", sequence[k]);
        assert_same_text("a later launch's JSON report", variant, json[0][k], json[1][k]);
        free(json[0][k]);
        free(json[1][k]);
    }
}

/* -simtlab_threads: parsed, printed, bounded; tm_gpu_set_threads(0)
 * returns to it. */
static void test_threads_option(void **state)
{
    (void)state;
    tm_config c;
    char err[512];
    assert_int_equal(tm_config_preset(&c, "QV100", err, sizeof err), 0);
    assert_int_equal(c.host_threads, 0);
    assert_int_equal(tm_config_set(&c, "-simtlab_threads=3", NULL, err, sizeof err), 0);
    assert_int_equal(c.host_threads, 3);
    assert_int_equal(tm_config_validate(&c, err, sizeof err), 0);
    char *printed = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&printed, &n);
    tm_config_print(&c, f);
    fclose(f);
    assert_non_null(strstr(printed, "-simtlab_threads 3"));
    free(printed);
    tm_gpu *gpu = tm_gpu_new(&c, err, sizeof err);
    assert_non_null(gpu);
    assert_int_equal(gpu->host_threads, 3);
    tm_gpu_set_threads(gpu, 5);
    assert_int_equal(gpu->host_threads, 5);
    tm_gpu_set_threads(gpu, 0);
    assert_int_equal(gpu->host_threads, 3);
    tm_gpu_free(gpu);
    assert_int_equal(tm_config_set(&c, "-simtlab_threads=1025", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_validate(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "-simtlab_threads"));
}

/* Pool items: each job's items each run exactly once, whatever thread
 * takes them, over many jobs of different sizes (including one item and
 * more items than threads). */
typedef struct pool_job {
    _Atomic uint32_t runs[300];
} pool_job;

static void count_item(void *ctx, uint32_t item)
{
    pool_job *j = ctx;
    atomic_fetch_add(&j->runs[item], 1);
}

static void test_pool_items(void **state)
{
    (void)state;
    for (uint32_t k = 0; k < NCOUNTS; k++) {
        char err[256];
        tm_pool *p = tm_pool_new(thread_counts[k], err, sizeof err);
        assert_non_null(p);
        assert_int_equal(tm_pool_threads(p), thread_counts[k]);
        static pool_job job;
        for (uint32_t round = 0; round < 2000; round++) {
            uint32_t items = 1 + round % 300;
            for (uint32_t i = 0; i < 300; i++)
                atomic_store(&job.runs[i], 0);
            tm_pool_run(p, count_item, &job, items);
            for (uint32_t i = 0; i < 300; i++)
                if (atomic_load(&job.runs[i]) != (i < items))
                    fail_msg("%u threads, round %u: item %u ran %u times", thread_counts[k], round, i,
                             atomic_load(&job.runs[i]));
        }
        tm_pool_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pool_items),
        cmocka_unit_test(test_threads_option),
        cmocka_unit_test(test_vadd),
        cmocka_unit_test(test_vadd_full_sms),
        cmocka_unit_test(test_matmul),
        cmocka_unit_test(test_collatz),
        cmocka_unit_test(test_membench_copy),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_histogram_replay_dual),
        cmocka_unit_test(test_atomic_tickets),
        cmocka_unit_test(test_late_fault),
        cmocka_unit_test(test_late_fault_small_gpu),
        cmocka_unit_test(test_launches_change_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
