/* sim_bench.c — the timing model's speed: simulated warp instructions and
 * core cycles per host second, under the QV100 preset, on the three
 * workloads a GPGPU-Sim user tries first:
 *   vadd     c = a + b over 4M floats (testdata/timing/vadd.ptx);
 *   matmul   C = A * B, 512x512 floats, 16x16 shared-memory tiles
 *            (testdata/timing/matmul.cu);
 *   collatz  Collatz step counts of 1M random starts, a data-dependent,
 *            divergent loop (testdata/timing/collatz.cu).
 * Each workload runs once on the functional emulator (sim_launch, one
 * host thread) and once on the timing model (tm_gpu_launch), in the same
 * run, so the ratio timing / emulator is measured under the same load;
 * both results are checked against a CPU reference computed here (exactly:
 * the matrix multiply's reference sums in the kernel's order with fmaf).
 *
 * Each workload runs in a child process of its own, so that the peak RSS
 * printed (getrusage of that process) is the workload's, not the largest
 * so far.
 *
 * With -t N (N > 1) the timing model runs each workload a second time,
 * on N host threads (tm_gpu_set_threads), in the same process right
 * after the one-thread run: a line after the workload's gives the wall
 * time of both, their ratio, and whether the two runs' statistics (core
 * cycles, warp and thread instructions) and results agree; and before the
 * table, the cost of the pool's hand-off per core cycle (an empty job of
 * as many items as a launch's groups of SMs, timed over many rounds).
 *
 * Usage: sim_bench [-s SCALE] [-w NAME] [-d DIR] [-t N]
 *   SCALE  1 is the full size above; SCALE divides each workload's work by
 *          about SCALE (the vector lengths by SCALE, the matrix side by the
 *          cube root of SCALE, rounded down to a multiple of 16). Default
 *          4: under a minute of CPU time on the machine of
 *          tools/bench/README.md at the model's speed when this was
 *          written (the full size: about three minutes).
 *   NAME   run only that workload (vadd, matmul or collatz).
 *   DIR    where the PTX files are (default testdata/timing).
 *   N      host threads of the second timing run (default 1: no second run).
 * Exit status: 0 when every result matches its reference, 3 when one does
 * not, 1 for bad usage, 2 when something fails to run. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emulator/sim.h"
#include "ir/util.h"
#include "parser/parser.h"
#include "timing/config.h"
#include "timing/gpu.h"
#include "timing/parallel.h"

enum { EXIT_MISMATCH = 3, EXIT_FAILED = 2, EXIT_USAGE = 1 };

/* Report a failure to run (not a wrong result) and leave. */
static void die(const char *what, const char *err)
{
    fprintf(stderr, "sim_bench: %s: %s\n", what, err);
    exit(EXIT_FAILED);
}

/* One workload's program, device and model, and the last launch's figures. */
typedef struct bench {
    sim_device *dev;
    sim_program *prog;
    ptx_module *mod;
    tm_gpu *gpu;
    char err[1024];
} bench;

/* What a workload measured; the child process sends it to the parent. */
typedef struct result {
    int ok;                      /* both runs' results equal the CPU reference */
    int size;                    /* elements (vadd, collatz) or matrix side (matmul) */
    uint64_t warp_insts;         /* timing model: gpgpu_n_tot_w_icount */
    uint64_t thread_insts;       /* timing model: gpu_sim_insn */
    uint64_t emu_warp_insts;     /* emulator: warp instructions of the same launch */
    uint64_t cycles;             /* timing model: gpu_sim_cycle (core cycles) */
    double tm_wall_s, tm_cpu_s;  /* timing model launch */
    double par_wall_s, par_cpu_s; /* the same on `threads` host threads (-t), or 0 */
    int par_same;                /* that run's cycles and instructions equal the one-thread run's */
    double emu_wall_s, emu_cpu_s; /* emulator launch */
    char check[96];              /* what disagreed, or empty */
} result;

/* xorshift64: the inputs' pseudo-random numbers, from a fixed seed. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* What the command line chose, for the workloads. */
typedef struct options {
    const char *dir;
    double scale;
    uint32_t threads; /* -t: host threads of a second timing run (1: none) */
    const char *mech; /* -m: the divergence mechanism (-simtlab_simt) */
    const char *sets[8]; /* -o: more -OPTION=VALUE assignments */
    int nsets;
} options;

/* Load o->dir/file, make the device, the program and the QV100 GPU under
 * divergence mechanism o->mech and the assignments o->sets. */
static void bench_open(bench *b, const options *o, const char *file)
{
    const char *dir = o->dir, *mech = o->mech;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    ptx_diags dg = {0};
    b->mod = ptx_load_file(path, 0, &dg);
    ptx_diags_print(&dg, stderr);
    ptx_diags_free(&dg);
    if (!b->mod)
        die(path, "cannot load");
    b->dev = sim_device_new();
    b->prog = sim_program_new(b->dev, b->mod, b->err, sizeof b->err);
    if (!b->prog)
        die(path, b->err);
    tm_config cfg;
    char set[64];
    snprintf(set, sizeof set, "-simtlab_simt=%s", mech);
    if (tm_config_preset(&cfg, "QV100", b->err, sizeof b->err) != 0 || tm_config_set(&cfg, set, NULL, b->err, sizeof b->err) != 0)
        die("QV100", b->err);
    for (int i = 0; i < o->nsets; i++)
        if (tm_config_set(&cfg, o->sets[i], NULL, b->err, sizeof b->err) != 0)
            die(o->sets[i], b->err);
    b->gpu = tm_gpu_new(&cfg, b->err, sizeof b->err);
    if (!b->gpu)
        die("QV100", b->err);
}

static void bench_close(bench *b)
{
    tm_gpu_free(b->gpu);
    sim_program_free(b->prog);
    sim_device_free(b->dev);
    ptx_module_free(b->mod);
}

/* A device buffer of n bytes holding src (zeros when src is NULL). */
static uint64_t device_buffer(bench *b, const void *src, size_t n)
{
    uint64_t addr;
    if (sim_malloc(b->dev, n, "sim_bench", &addr, b->err, sizeof b->err) != 0 ||
        (src && sim_memcpy_to_device(b->dev, addr, src, n, b->err, sizeof b->err) != 0))
        die("device memory", b->err);
    return addr;
}

/* Copy n bytes of device memory at addr to dst. */
static void device_read(bench *b, void *dst, uint64_t addr, size_t n)
{
    if (sim_memcpy_from_device(b->dev, dst, addr, n, b->err, sizeof b->err) != 0)
        die("device memory", b->err);
}

/* Zero n bytes of device memory at addr, so that the next launch's results
 * are its own. */
static void device_clear(bench *b, uint64_t addr, size_t n)
{
    void *zeros = calloc(1, n);
    if (!zeros)
        die("host memory", "out of memory");
    if (sim_memcpy_to_device(b->dev, addr, zeros, n, b->err, sizeof b->err) != 0)
        die("device memory", b->err);
    free(zeros);
}

/* Lay out kernel k's parameters from args (one pointer per parameter, in
 * order) into buf; the buffer's size. */
static uint32_t pack_params(bench *b, const char *k, const void *const *args, uint8_t *buf, size_t cap)
{
    uint32_t n, bytes;
    const sim_param_info *pi = sim_kernel_params(b->prog, k, &n, &bytes, b->err, sizeof b->err);
    if (!pi)
        die(k, b->err);
    if (bytes > cap)
        die(k, "parameters too large");
    memset(buf, 0, cap);
    for (uint32_t i = 0; i < n; i++)
        memcpy(buf + pi[i].offset, args[i], pi[i].size);
    return bytes;
}

/* Run kernel k on the emulator (one host thread), into r's emu_* fields. */
static void run_emulator(bench *b, const char *k, sim_dim3 grid, sim_dim3 block, const void *const *args,
                         result *r)
{
    uint8_t buf[256];
    uint32_t bytes = pack_params(b, k, args, buf, sizeof buf);
    sim_launch_config cfg = {.grid = grid, .block = block, .host_threads = 1};
    sim_stats st;
    double w0 = ptx_wall_seconds(), c0 = ptx_cpu_seconds();
    if (sim_launch(b->dev, b->prog, k, &cfg, buf, bytes, &st, b->err, sizeof b->err) != 0)
        die(k, b->err);
    r->emu_cpu_s = ptx_cpu_seconds() - c0;
    r->emu_wall_s = ptx_wall_seconds() - w0;
    r->emu_warp_insts = st.warp_instructions;
}

/* Run kernel k on the timing model on a new QV100 GPU simulated on
 * `threads` host threads: into r's timing fields (one thread) or its
 * par_* fields (more), the latter noting whether the statistics equal the
 * one-thread run's. */
static void run_timing(bench *b, const char *k, sim_dim3 grid, sim_dim3 block, const void *const *args,
                       uint32_t threads, result *r)
{
    uint8_t buf[256];
    uint32_t bytes = pack_params(b, k, args, buf, sizeof buf);
    sim_launch_config cfg = {.grid = grid, .block = block, .host_threads = 1};
    tm_config tc = b->gpu->cfg;
    tm_gpu_free(b->gpu); /* a fresh GPU: both runs start from empty caches */
    if (!(b->gpu = tm_gpu_new(&tc, b->err, sizeof b->err)))
        die("QV100", b->err);
    tm_gpu_set_threads(b->gpu, threads);
    double w0 = ptx_wall_seconds(), c0 = ptx_cpu_seconds();
    if (tm_gpu_launch(b->gpu, b->dev, b->prog, k, &cfg, buf, bytes, NULL, b->err, sizeof b->err) != 0)
        die(k, b->err);
    double cpu = ptx_cpu_seconds() - c0, wall = ptx_wall_seconds() - w0;
    const tm_kernel_stats *ks = &b->gpu->kernel;
    if (threads > 1) {
        r->par_cpu_s = cpu;
        r->par_wall_s = wall;
        r->par_same = ks->sm.warp_insts == r->warp_insts && ks->sm.thread_insts == r->thread_insts &&
                      ks->cycles == r->cycles;
        return;
    }
    r->tm_cpu_s = cpu;
    r->tm_wall_s = wall;
    r->warp_insts = ks->sm.warp_insts;
    r->thread_insts = ks->sm.thread_insts;
    r->cycles = ks->cycles;
}

/* Compare n 32-bit words of the launch's output with the reference; on
 * the first difference note it in r (which run, which element). */
static void check_words(result *r, const char *run, const uint32_t *got, const uint32_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            r->ok = 0;
            if (!r->check[0])
                snprintf(r->check, sizeof r->check, "%s: element %zu is 0x%08" PRIx32 ", expected 0x%08" PRIx32,
                         run, i, got[i], want[i]);
            return;
        }
}

/* Run kernel k on both simulators (the timing model a second time on
 * `threads` host threads when threads > 1) with the output buffer dout (n
 * words) cleared before each, checking each run's output against want. */
static void run_both(bench *b, const char *k, sim_dim3 grid, sim_dim3 block, const void *const *args,
                     uint64_t dout, const uint32_t *want, size_t n, uint32_t threads, result *r)
{
    uint32_t *got = malloc(n * 4);
    if (!got)
        die("host memory", "out of memory");
    r->ok = 1;
    run_emulator(b, k, grid, block, args, r);
    device_read(b, got, dout, n * 4);
    check_words(r, "emulator", got, want, n);
    device_clear(b, dout, n * 4);
    run_timing(b, k, grid, block, args, 1, r);
    device_read(b, got, dout, n * 4);
    check_words(r, "timing model", got, want, n);
    if (threads > 1) {
        device_clear(b, dout, n * 4);
        run_timing(b, k, grid, block, args, threads, r);
        device_read(b, got, dout, n * 4);
        check_words(r, "timing model, host threads", got, want, n);
    }
    free(got);
}

/* ---- the workloads ---------------------------------------------------------- */

/* c = a + b over 4M / scale floats, 256 threads per CTA. */
static result run_vadd(const options *o)
{
    double scale = o->scale;
    bench b = {0};
    bench_open(&b, o, "vadd.ptx");
    uint32_t n = (uint32_t)((4u << 20) / scale);
    float *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
    if (!x || !y || !want)
        die("host memory", "out of memory");
    uint64_t s = 1;
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (float)(next_random(&s) % 100000) / 7.0f;
        y[i] = (float)(next_random(&s) % 100000) / 3.0f;
        want[i] = x[i] + y[i];
    }
    uint64_t da = device_buffer(&b, x, (size_t)n * 4), db = device_buffer(&b, y, (size_t)n * 4);
    uint64_t dc = device_buffer(&b, NULL, (size_t)n * 4);
    const void *args[] = {&da, &db, &dc, &n};
    result r = {.size = (int)n};
    run_both(&b, "vadd", (sim_dim3){(n + 255) / 256, 1, 1}, (sim_dim3){256, 1, 1}, args, dc,
             (const uint32_t *)want, n, o->threads, &r);
    free(x);
    free(y);
    free(want);
    bench_close(&b);
    return r;
}

/* C = A * B for side x side matrices, side = 512 / cbrt(scale) rounded
 * down to a multiple of 16; one 16x16 CTA per 16x16 tile of C. */
static result run_matmul(const options *o)
{
    double scale = o->scale;
    bench b = {0};
    bench_open(&b, o, "matmul.ptx");
    int side = (int)(512.0 / cbrt(scale)) / 16 * 16;
    if (side < 16)
        side = 16;
    size_t nn = (size_t)side * (size_t)side;
    float *A = malloc(nn * 4), *B = malloc(nn * 4), *want = malloc(nn * 4);
    if (!A || !B || !want)
        die("host memory", "out of memory");
    uint64_t s = 2;
    for (size_t i = 0; i < nn; i++) {
        A[i] = (float)(next_random(&s) % 2000) / 64.0f - 15.0f;
        B[i] = (float)(next_random(&s) % 2000) / 128.0f - 7.5f;
    }
    /* the kernel's order: k = 0 .. side - 1, one fused multiply-add each */
    for (int i = 0; i < side; i++)
        for (int j = 0; j < side; j++) {
            float acc = 0.0f;
            for (int k = 0; k < side; k++)
                acc = fmaf(A[(size_t)i * side + k], B[(size_t)k * side + j], acc);
            want[(size_t)i * side + j] = acc;
        }
    uint64_t da = device_buffer(&b, A, nn * 4), db = device_buffer(&b, B, nn * 4);
    uint64_t dc = device_buffer(&b, NULL, nn * 4);
    const void *args[] = {&da, &db, &dc, &side};
    result r = {.size = side};
    run_both(&b, "matmul", (sim_dim3){(uint32_t)side / 16, (uint32_t)side / 16, 1}, (sim_dim3){16, 16, 1}, args,
             dc, (const uint32_t *)want, nn, o->threads, &r);
    free(A);
    free(B);
    free(want);
    bench_close(&b);
    return r;
}

/* Collatz step counts of 1M / scale random starts in [1, 2^20], 256
 * threads per CTA. */
static result run_collatz(const options *o)
{
    double scale = o->scale;
    bench b = {0};
    bench_open(&b, o, "collatz.ptx");
    int n = (int)((1u << 20) / scale);
    uint32_t *start = malloc((size_t)n * 4), *want = malloc((size_t)n * 4);
    if (!start || !want)
        die("host memory", "out of memory");
    uint64_t s = 3;
    for (int i = 0; i < n; i++) {
        start[i] = (uint32_t)(next_random(&s) % (1u << 20)) + 1;
        uint64_t x = start[i];
        uint32_t k = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            k++;
        }
        want[i] = k;
    }
    uint64_t dstart = device_buffer(&b, start, (size_t)n * 4), dsteps = device_buffer(&b, NULL, (size_t)n * 4);
    const void *args[] = {&dstart, &dsteps, &n};
    result r = {.size = n};
    run_both(&b, "collatz", (sim_dim3){((uint32_t)n + 255) / 256, 1, 1}, (sim_dim3){256, 1, 1}, args, dsteps,
             want, (size_t)n, o->threads, &r);
    free(start);
    free(want);
    bench_close(&b);
    return r;
}

/* ---- the table ---------------------------------------------------------------- */

typedef struct workload {
    const char *name;
    result (*run)(const options *o);
} workload;

static const workload workloads[] = {
    {"vadd", run_vadd},
    {"matmul", run_matmul},
    {"collatz", run_collatz},
};
enum { NWORKLOADS = sizeof workloads / sizeof workloads[0] };

/* Run workload w in a child process; its result and the child's peak RSS
 * in KiB. 0, or -1 when the child failed (it printed why). */
static int run_isolated(const workload *w, const options *o, result *r, long *peak_kib)
{
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe", "cannot create");
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        die("fork", "cannot create a process");
    if (pid == 0) {
        close(fds[0]);
        result mine = w->run(o);
        ssize_t put = write(fds[1], &mine, sizeof mine);
        /* exit, not _exit: stdout was flushed before the fork, and leak
         * checkers run at exit */
        exit(put == (ssize_t)sizeof mine ? 0 : EXIT_FAILED);
    }
    close(fds[1]);
    ssize_t got = 0;
    while (got < (ssize_t)sizeof *r) {
        ssize_t k = read(fds[0], (char *)r + got, sizeof *r - (size_t)got);
        if (k <= 0)
            break;
        got += k;
    }
    close(fds[0]);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid)
        die("wait4", "lost the workload's process");
    *peak_kib = ru.ru_maxrss;
    if (got != (ssize_t)sizeof *r || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "sim_bench: %s did not complete (%s %d)\n", w->name,
                WIFEXITED(status) ? "exit status" : "signal",
                WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return -1;
    }
    return 0;
}

/* The machine the figures come from: CPU model, processors, load. */
static void print_machine(void)
{
    char model[256] = "unknown CPU", line[512];
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                const char *colon = strchr(line, ':');
                if (colon) {
                    snprintf(model, sizeof model, "%s", colon + 2);
                    model[strcspn(model, "\n")] = 0;
                }
                break;
            }
        fclose(f);
    }
    double load[3] = {0, 0, 0};
    if (getloadavg(load, 3) < 0)
        load[0] = load[1] = load[2] = -1;
    printf("machine: %s, %ld processors online, load average %.2f %.2f %.2f\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
}

/* An item of the hand-off measurement: *ctx iterations of a dependent
 * integer loop (0: nothing). */
static void work_item(void *ctx, uint32_t item)
{
    volatile uint64_t x = item;
    for (uint64_t i = *(const uint64_t *)ctx; i; i--)
        x = x * 6364136223846793005ull + 1;
}

/* Wall seconds per job of `items` work items of `iters` iterations on
 * pool p, over `rounds` jobs. */
static double job_seconds(tm_pool *p, uint32_t items, uint64_t iters, uint32_t rounds)
{
    double w0 = ptx_wall_seconds();
    for (uint32_t i = 0; i < rounds; i++)
        tm_pool_run(p, work_item, &iters, items);
    return (ptx_wall_seconds() - w0) / rounds;
}

/* The pool's cost per core cycle on n host threads, with as many items as
 * a QV100 launch on n threads has groups of SMs (4 per thread, gpu.c):
 * an empty job, and a job whose items together take 150 to 300 us on one
 * thread (about a QV100 core cycle of these workloads, release build), on
 * one thread and on n; the difference from a perfect split is the
 * synchronization's cost. */
static void print_handoff(uint32_t n)
{
    char err[256];
    tm_pool *one = tm_pool_new(1, err, sizeof err), *p = tm_pool_new(n, err, sizeof err);
    if (!one || !p)
        die("thread pool", err);
    uint32_t items = 4 * n < 80 ? 4 * n : 80, rounds = 2000;
    uint64_t iters = 1000;
    while (job_seconds(one, items, iters, 20) < 150e-6 && iters < (1ull << 40))
        iters *= 2;
    double empty = job_seconds(p, items, 0, rounds), serial = job_seconds(one, items, iters, rounds),
           parallel = job_seconds(p, items, iters, rounds);
    tm_pool_free(one);
    tm_pool_free(p);
    printf("hand-off on %u host threads, per job of %u items: empty %.2f us; items of %.0f us in all: %.1f us "
           "(one thread: %.1f us, perfect split: %.1f us, cost %.1f us)\n", n, items, empty * 1e6, serial * 1e6,
           parallel * 1e6, serial * 1e6, serial / n * 1e6, (parallel - serial / n) * 1e6);
}

static void usage(FILE *out)
{
    fprintf(out, "usage: sim_bench [-s SCALE] [-w vadd|matmul|collatz] [-d PTX_DIR] [-t N] [-m MECHANISM]\n"
                 "                 [-o -OPTION=VALUE]...\n"
                 "  SCALE 1 is the full size (4M-float vector add, 512x512 multiply, 1M Collatz\n"
                 "  starts); SCALE divides each workload's work by about SCALE (default 4)\n"
                 "  N > 1: each workload runs on the timing model a second time, on N host threads\n"
                 "  MECHANISM: the divergence mechanism (-simtlab_simt; default pdom)\n"
                 "  -o: an option of the QV100 configuration (up to 8), e.g. -o -simtlab_mem_pipeline=replay\n");
}

int main(int argc, char **argv)
{
    double scale = 4;
    const char *only = NULL, *dir = "testdata/timing", *mech = "pdom", *sets[8] = {0};
    int nsets = 0;
    uint32_t threads = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || n < 1 || n > TM_MAX_HOST_THREADS || argv[i][0] == '-') {
                fprintf(stderr, "sim_bench: bad thread count '%s' (1 to %u)\n", argv[i], TM_MAX_HOST_THREADS);
                return EXIT_USAGE;
            }
            threads = (uint32_t)n;
        } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            char *end;
            scale = strtod(argv[++i], &end);
            if (*end || !(scale >= 1) || scale > 65536) {
                fprintf(stderr, "sim_bench: bad scale '%s' (a number from 1 to 65536)\n", argv[i]);
                return EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc) {
            mech = argv[++i];
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && nsets < 8) {
            sets[nsets++] = argv[++i];
        } else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    int selected = 0;
    for (int i = 0; i < NWORKLOADS; i++)
        selected |= !only || strcmp(only, workloads[i].name) == 0;
    if (!selected) {
        fprintf(stderr, "sim_bench: unknown workload '%s'\n", only);
        usage(stderr);
        return EXIT_USAGE;
    }
    printf("timing model speed, QV100 preset, mechanism %s, one host thread%s, scale %g%s\n", mech,
           threads > 1 ? " (then again on more: -t)" : "", scale, scale == 1 ? " (full size)" : "");
    print_machine();
    if (threads > 1)
        print_handoff(threads);
    options opts = {dir, scale, threads, mech, {0}, nsets};
    for (int i = 0; i < nsets; i++) {
        opts.sets[i] = sets[i];
        printf("option %s\n", sets[i]);
    }
    printf("%-8s %9s %12s %11s %7s %8s %8s %9s %9s %8s %8s %7s %8s  %s\n", "workload", "size", "warp instr.",
           "cycles", "IPC", "wall s", "CPU s", "Kwi/s CPU", "Kcyc/s CPU", "Kwi/s w", "emu CPU s", "tm/emu",
           "peak MiB", "check");
    int bad = 0, failed = 0;
    for (int i = 0; i < NWORKLOADS; i++) {
        const workload *w = &workloads[i];
        if (only && strcmp(only, w->name) != 0)
            continue;
        result r;
        long peak_kib;
        if (run_isolated(w, &opts, &r, &peak_kib) != 0) {
            failed = 1;
            continue;
        }
        bad |= !r.ok;
        char size[32];
        snprintf(size, sizeof size, "%d", r.size);
        printf("%-8s %9s %12" PRIu64 " %11" PRIu64 " %7.1f %8.2f %8.2f %9.1f %9.1f %8.1f %8.3f %7.1f %8.1f  %s\n",
               w->name, size, r.warp_insts, r.cycles, r.cycles ? (double)r.thread_insts / (double)r.cycles : 0.0,
               r.tm_wall_s, r.tm_cpu_s, (double)r.warp_insts / r.tm_cpu_s / 1e3,
               (double)r.cycles / r.tm_cpu_s / 1e3, (double)r.warp_insts / r.tm_wall_s / 1e3, r.emu_cpu_s,
               r.tm_cpu_s / r.emu_cpu_s, (double)peak_kib / 1024.0, r.ok ? "results match CPU" : r.check);
        if (r.emu_warp_insts != r.warp_insts)
            printf("%-8s (the emulator ran %" PRIu64 " warp instructions)\n", "", r.emu_warp_insts);
        if (threads > 1)
            printf("%-8s on %u host threads: wall %.2f s, CPU %.2f s; 1 thread / %u threads wall time %.2f; "
                   "statistics %s\n", "", threads, r.par_wall_s, r.par_cpu_s, threads, r.tm_wall_s / r.par_wall_s,
                   r.par_same ? "identical" : "DIFFER");
        bad |= threads > 1 && !r.par_same;
        fflush(stdout);
    }
    printf("size: vadd and collatz elements, matmul matrix side. IPC: gpu_ipc (thread instructions per\n"
           "core cycle). Kwi/s: thousand warp instructions per host second, by CPU time (CPU) and wall\n"
           "clock (w); Kcyc/s: thousand simulated core cycles per CPU second; tm/emu: timing model CPU\n"
           "time / functional emulator CPU time of the same launch; peak MiB: the workload process's\n"
           "peak RSS (both runs, inputs and reference included).\n");
    if (failed)
        return EXIT_FAILED;
    return bad ? EXIT_MISMATCH : 0;
}
