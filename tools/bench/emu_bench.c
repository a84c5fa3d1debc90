/* emu_bench.c — the functional emulator's speed: emulated thread
 * instructions per second on a regular kernel (SAXPY), a compute-bound one
 * (tiled matrix multiply) and divergent ones (Mandelbrot, Collatz step
 * counts, level-synchronous BFS on a random graph), each next to the same
 * computation in plain C
 * compiled into this program, timed in the same run; then the speedup
 * with several host threads, and the peak memory.
 *
 * Usage: emu_bench [-p PTX] [-s SCALE] [-t THREADS]
 *   PTX     the kernels (default testdata/ptx/bench_kernels.sm_80.O3.ptx)
 *   SCALE   1 (default) is the full size: SAXPY over 16M elements, a
 *           1024x1024 multiply, a 1024x1024 Mandelbrot with 256 iterations,
 *           Collatz step counts of 1..1M, BFS over 1M vertices and 8M
 *           edges; 2 halves each dimension...
 *   THREADS host threads for the scaling runs (default: the processors)
 * Results are printed as a table (one-thread rates by wall clock and by
 * the process's CPU time, which other load on a shared machine disturbs
 * less); the emulator's results are checked
 * against the C ones (exactly for all but the multiply, whose summation
 * order matches too). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "emulator/sim.h"
#include "ir/util.h"
#include "parser/parser.h"

static void die(const char *what, const char *err)
{
    fprintf(stderr, "emu_bench: %s: %s\n", what, err);
    exit(2);
}

typedef struct bench {
    sim_device *d;
    sim_program *p;
    char err[1024];
    uint32_t threads;
    double launch_cpu_s; /* CPU seconds of the last launch */
} bench;

static uint64_t dev_buf(bench *b, const void *src, size_t n)
{
    uint64_t a;
    if (sim_malloc(b->d, n, "bench", &a, b->err, sizeof b->err) ||
        (src && sim_memcpy_to_device(b->d, a, src, n, b->err, sizeof b->err)))
        die("device memory", b->err);
    return a;
}

/* Launch kernel k with parameters laid out from args; returns stats. */
static sim_stats launch(bench *b, const char *k, sim_dim3 grid, sim_dim3 block, uint32_t threads,
                        const void *const *args)
{
    uint32_t n, bytes;
    const sim_param_info *pi = sim_kernel_params(b->p, k, &n, &bytes, b->err, sizeof b->err);
    if (!pi)
        die(k, b->err);
    uint8_t buf[256] = {0};
    for (uint32_t i = 0; i < n; i++)
        memcpy(buf + pi[i].offset, args[i], pi[i].size);
    sim_launch_config cfg = {.grid = grid, .block = block, .host_threads = threads};
    sim_stats st;
    double c0 = ptx_cpu_seconds();
    if (sim_launch(b->d, b->p, k, &cfg, buf, bytes, &st, b->err, sizeof b->err))
        die(k, b->err);
    b->launch_cpu_s = ptx_cpu_seconds() - c0;
    return st;
}

typedef struct result {
    const char *name;
    uint64_t thread_instructions;
    double emu_s, native_s, emu_mt_s;
    double simd;
    int ok;
    double emu_cpu_s; /* CPU time of the one-thread run */
} result;

static uint64_t rng(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* ---- the workloads ---------------------------------------------------------- */

static result run_saxpy(bench *b, int scale)
{
    int n = (16 << 20) / (scale * scale);
    float a = 1.25f, *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *r = malloc(n * sizeof *r);
    uint64_t s = 1;
    for (int i = 0; i < n; i++) {
        x[i] = (float)(rng(&s) % 1000) / 7.0f;
        y[i] = (float)(rng(&s) % 1000) / 3.0f;
    }
    uint64_t dx = dev_buf(b, x, n * sizeof *x), dy = dev_buf(b, y, n * sizeof *y);
    const void *args[] = {&n, &a, &dx, &dy};
    double t0 = ptx_wall_seconds();
    sim_stats st = launch(b, "bench_saxpy", (sim_dim3){(n + 255) / 256, 1, 1}, (sim_dim3){256, 1, 1}, 1, args);
    double emu_cpu_s = b->launch_cpu_s;
    double t1 = ptx_wall_seconds();
    sim_memcpy_from_device(b->d, r, dy, n * sizeof *r, b->err, sizeof b->err);
    double t2 = ptx_wall_seconds();
    for (int i = 0; i < n; i++)
        y[i] = fmaf(a, x[i], y[i]);
    double t3 = ptx_wall_seconds();
    int ok = memcmp(r, y, n * sizeof *r) == 0;
    sim_memcpy_to_device(b->d, dy, x, n * sizeof *x, b->err, sizeof b->err);
    double t4 = ptx_wall_seconds();
    launch(b, "bench_saxpy", (sim_dim3){(n + 255) / 256, 1, 1}, (sim_dim3){256, 1, 1}, b->threads, args);
    double t5 = ptx_wall_seconds();
    free(x);
    free(y);
    free(r);
    return (result){"SAXPY (16M)", st.thread_instructions, t1 - t0, t3 - t2, t5 - t4,
                    (double)st.thread_instructions / (double)st.warp_instructions, ok,
                    emu_cpu_s};
}

static result run_matmul(bench *b, int scale)
{
    int n = 1024 / scale;
    size_t nn = (size_t)n * n;
    float *A = malloc(nn * 4), *B = malloc(nn * 4), *C = malloc(nn * 4), *R = malloc(nn * 4);
    uint64_t s = 2;
    for (size_t i = 0; i < nn; i++) {
        A[i] = (float)(rng(&s) % 100) / 16.0f;
        B[i] = (float)(rng(&s) % 100) / 32.0f;
    }
    uint64_t da = dev_buf(b, A, nn * 4), db = dev_buf(b, B, nn * 4), dc = dev_buf(b, NULL, nn * 4);
    const void *args[] = {&da, &db, &dc, &n};
    sim_dim3 grid = {n / 16, n / 16, 1}, block = {16, 16, 1};
    double t0 = ptx_wall_seconds();
    sim_stats st = launch(b, "bench_matmul", grid, block, 1, args);
    double emu_cpu_s = b->launch_cpu_s;
    double t1 = ptx_wall_seconds();
    sim_memcpy_from_device(b->d, R, dc, nn * 4, b->err, sizeof b->err);
    double t2 = ptx_wall_seconds();
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int k = 0; k < n; k++)
                acc = fmaf(A[i * n + k], B[k * n + j], acc);
            C[i * n + j] = acc;
        }
    double t3 = ptx_wall_seconds();
    int ok = memcmp(C, R, nn * 4) == 0;
    double t4 = ptx_wall_seconds();
    launch(b, "bench_matmul", grid, block, b->threads, args);
    double t5 = ptx_wall_seconds();
    free(A);
    free(B);
    free(C);
    free(R);
    return (result){"matrix multiply (1024^2)", st.thread_instructions, t1 - t0, t3 - t2, t5 - t4,
                    (double)st.thread_instructions / (double)st.warp_instructions, ok,
                    emu_cpu_s};
}

static result run_mandel(bench *b, int scale)
{
    int w = 1024 / scale, h = 1024 / scale, maxit = 256;
    int *out = malloc((size_t)w * h * 4), *ref = malloc((size_t)w * h * 4);
    uint64_t dout = dev_buf(b, NULL, (size_t)w * h * 4);
    const void *args[] = {&dout, &w, &h, &maxit};
    sim_dim3 grid = {(w + 15) / 16, (h + 15) / 16, 1}, block = {16, 16, 1};
    double t0 = ptx_wall_seconds();
    sim_stats st = launch(b, "bench_mandel", grid, block, 1, args);
    double emu_cpu_s = b->launch_cpu_s;
    double t1 = ptx_wall_seconds();
    sim_memcpy_from_device(b->d, out, dout, (size_t)w * h * 4, b->err, sizeof b->err);
    double t2 = ptx_wall_seconds();
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float cr = -2.0f + 3.0f * (float)x / (float)w, ci = -1.5f + 3.0f * (float)y / (float)h;
            float zr = 0.0f, zi = 0.0f, zr2 = 0.0f, zi2 = 0.0f;
            int k = 0;
            /* as nvcc -O3 compiles it: squares kept, 2*zr*zi+ci fused */
            while (k < maxit && zr2 + zi2 <= 4.0f) {
                float t = cr + (zr2 - zi2);
                zi = fmaf(zr + zr, zi, ci);
                zr = t;
                zr2 = zr * zr;
                zi2 = zi * zi;
                k++;
            }
            ref[y * w + x] = k;
        }
    double t3 = ptx_wall_seconds();
    int ok = memcmp(out, ref, (size_t)w * h * 4) == 0;
    double t4 = ptx_wall_seconds();
    launch(b, "bench_mandel", grid, block, b->threads, args);
    double t5 = ptx_wall_seconds();
    free(out);
    free(ref);
    return (result){"Mandelbrot (1024^2, 256 it.)", st.thread_instructions, t1 - t0, t3 - t2, t5 - t4,
                    (double)st.thread_instructions / (double)st.warp_instructions, ok,
                    emu_cpu_s};
}

/* Collatz step counts of 1..n: a divergent loop, each lane leaving it
 * after its own number of steps. */
static result run_collatz(bench *b, int scale)
{
    int n = (1 << 20) / (scale * scale);
    uint32_t *out = malloc((size_t)n * 4), *ref = malloc((size_t)n * 4);
    uint64_t dout = dev_buf(b, NULL, (size_t)n * 4);
    const void *args[] = {&dout, &n};
    sim_dim3 grid = {(n + 255) / 256, 1, 1}, block = {256, 1, 1};
    double t0 = ptx_wall_seconds();
    sim_stats st = launch(b, "bench_collatz", grid, block, 1, args);
    double emu_cpu_s = b->launch_cpu_s;
    double t1 = ptx_wall_seconds();
    sim_memcpy_from_device(b->d, out, dout, (size_t)n * 4, b->err, sizeof b->err);
    double t2 = ptx_wall_seconds();
    for (int i = 0; i < n; i++) {
        uint64_t x = (uint64_t)i + 1;
        uint32_t k = 0;
        while (x != 1) {
            x = (x & 1) ? 3 * x + 1 : x / 2;
            k++;
        }
        ref[i] = k;
    }
    double t3 = ptx_wall_seconds();
    int ok = memcmp(out, ref, (size_t)n * 4) == 0;
    double t4 = ptx_wall_seconds();
    launch(b, "bench_collatz", grid, block, b->threads, args);
    double t5 = ptx_wall_seconds();
    free(out);
    free(ref);
    return (result){"Collatz steps (1M)", st.thread_instructions, t1 - t0, t3 - t2, t5 - t4,
                    (double)st.thread_instructions / (double)st.warp_instructions, ok,
                    emu_cpu_s};
}

/* Level-synchronous BFS: one launch per level, in the emulator and in C. */
static result run_bfs(bench *b, int scale)
{
    int n = (1 << 20) / (scale * scale), deg = 8;
    int *start = malloc((n + 1) * sizeof *start), *adj = malloc((size_t)n * deg * sizeof *adj);
    int *level = malloc(n * sizeof *level), *ref = malloc(n * sizeof *ref);
    uint64_t s = 3;
    for (int v = 0; v <= n; v++)
        start[v] = v * deg;
    for (size_t e = 0; e < (size_t)n * deg; e++)
        adj[e] = (int)(rng(&s) % (uint64_t)n);
    for (int v = 0; v < n; v++)
        level[v] = -1;
    level[0] = 0;
    uint64_t dstart = dev_buf(b, start, (n + 1) * sizeof *start);
    uint64_t dadj = dev_buf(b, adj, (size_t)n * deg * sizeof *adj);
    uint64_t dlevel = dev_buf(b, level, n * sizeof *level), dchanged = dev_buf(b, NULL, 4);
    sim_stats total = {0};
    double emu_s = 0, mt_s = 0, emu_cpu_s = 0;
    for (int pass = 0; pass < 2; pass++) {
        sim_memcpy_to_device(b->d, dlevel, level, n * sizeof *level, b->err, sizeof b->err);
        double t0 = ptx_wall_seconds();
        for (int cur = 0;; cur++) {
            int changed = 0;
            sim_memcpy_to_device(b->d, dchanged, &changed, 4, b->err, sizeof b->err);
            const void *args[] = {&dstart, &dadj, &dlevel, &n, &cur, &dchanged};
            sim_stats st = launch(b, "bench_bfs", (sim_dim3){(n + 255) / 256, 1, 1},
                                  (sim_dim3){256, 1, 1}, pass ? b->threads : 1, args);
            if (!pass) {
                total.thread_instructions += st.thread_instructions;
                total.warp_instructions += st.warp_instructions;
                emu_cpu_s += b->launch_cpu_s;
            }
            sim_memcpy_from_device(b->d, &changed, dchanged, 4, b->err, sizeof b->err);
            if (!changed)
                break;
        }
        if (pass)
            mt_s = ptx_wall_seconds() - t0;
        else
            emu_s = ptx_wall_seconds() - t0;
    }
    double t2 = ptx_wall_seconds();
    memcpy(ref, level, n * sizeof *ref);
    for (int cur = 0;; cur++) {
        int changed = 0;
        for (int v = 0; v < n; v++)
            if (ref[v] == cur)
                for (int e = start[v]; e < start[v + 1]; e++)
                    if (ref[adj[e]] < 0) {
                        ref[adj[e]] = cur + 1;
                        changed = 1;
                    }
        if (!changed)
            break;
    }
    double t3 = ptx_wall_seconds();
    sim_memcpy_from_device(b->d, level, dlevel, n * sizeof *level, b->err, sizeof b->err);
    int ok = memcmp(level, ref, n * sizeof *ref) == 0;
    free(start);
    free(adj);
    free(level);
    free(ref);
    return (result){"BFS (1M vertices, 8M edges)", total.thread_instructions, emu_s, t3 - t2, mt_s,
                    (double)total.thread_instructions / (double)total.warp_instructions, ok,
                    emu_cpu_s};
}

int main(int argc, char **argv)
{
    const char *path = "testdata/ptx/bench_kernels.sm_80.O3.ptx";
    int scale = 1;
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            path = argv[++i];
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            scale = atoi(argv[++i]);
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
            threads = atol(argv[++i]);
        else {
            fprintf(stderr, "usage: emu_bench [-p PTX] [-s SCALE] [-t THREADS]\n");
            return 1;
        }
    }
    if (scale < 1 || threads < 1) {
        fprintf(stderr, "emu_bench: bad scale or thread count\n");
        return 1;
    }
    ptx_diags dg = {0};
    ptx_module *m = ptx_load_file(path, 0, &dg);
    ptx_diags_print(&dg, stderr);
    ptx_diags_free(&dg);
    if (!m)
        return 1;
    bench b = {.d = sim_device_new(), .threads = (uint32_t)threads};
    b.p = sim_program_new(b.d, m, b.err, sizeof b.err);
    if (!b.p)
        die("program", b.err);
    enum { NWORK = 5 };
    result r[NWORK] = {run_saxpy(&b, scale), run_matmul(&b, scale), run_mandel(&b, scale), run_collatz(&b, scale),
                       run_bfs(&b, scale)};
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-30s %14s %6s %8s %9s %8s %9s %8s %8s %6s %s\n", "workload", "thread instr.", "lanes",
           "emu s", "M instr/s", "CPU s", "M per CPU", "C s", "emu / C", "x", "");
    for (int i = 0; i < NWORK; i++)
        printf("%-30s %14" PRIu64 " %6.1f %8.3f %9.1f %8.3f %9.1f %8.3f %8.1f %6.2f %s\n", r[i].name,
               r[i].thread_instructions, r[i].simd, r[i].emu_s,
               (double)r[i].thread_instructions / r[i].emu_s / 1e6, r[i].emu_cpu_s,
               (double)r[i].thread_instructions / r[i].emu_cpu_s / 1e6, r[i].native_s,
               r[i].emu_s / r[i].native_s, r[i].emu_s / r[i].emu_mt_s,
               r[i].ok ? "results match C" : "RESULTS DIFFER FROM C");
    printf("(one host thread: emu s wall clock, CPU s its CPU time, M instr/s and M per CPU the thread\n"
           "instructions per second of each; x: speedup with %ld host threads; lanes: mean active\n"
           "lanes per warp instruction)\n", threads);
    printf("peak RSS %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    sim_program_free(b.p);
    sim_device_free(b.d);
    ptx_module_free(m);
    int bad = 0;
    for (int i = 0; i < NWORK; i++)
        bad |= !r[i].ok;
    return bad ? 3 : 0;
}
