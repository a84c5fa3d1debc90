/* test_emu_locality.c — static (syntax-tree) and profiled (traced)
 * thread-block locality graphs against graphs enumerated by brute force.
 *
 * The kernels are testdata/cuda/locality.cu, compiled by nvcc 13 for
 * sm_75, sm_80 and sm_90 with -O3 (unrolled loops, pointer increments,
 * [%rd+4] offsets) and for sm_80 with -G (no optimization). For each
 * launch the test writes down, from the CUDA source, which elements every
 * thread of every block reads, and intersects the blocks' sets pairwise:
 * the edge list both graphs must equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/locality.h"
#include "emulator/tests/emu_test.h"

static const char *const variants[] = {
    "ptx/locality.sm_75.O3.ptx", "ptx/locality.sm_80.O3.ptx", "ptx/locality.sm_90.O3.ptx",
    "ptx/locality.sm_80.G.ptx"};
#define NVARIANTS (sizeof variants / sizeof *variants)

/* ---- the brute-force reference ---- */

typedef struct ref {
    uint32_t ntbs, line;
    uint64_t **v;
    size_t *n, *cap;
} ref;

static void ref_init(ref *r, uint32_t ntbs, uint32_t line)
{
    r->ntbs = ntbs;
    r->line = line;
    r->v = calloc(ntbs, sizeof *r->v);
    r->n = calloc(ntbs, sizeof *r->n);
    r->cap = calloc(ntbs, sizeof *r->cap);
}

static void ref_free(ref *r)
{
    for (uint32_t i = 0; i < r->ntbs; i++)
        free(r->v[i]);
    free(r->v);
    free(r->n);
    free(r->cap);
}

/* Block tb reads the 4-byte element `index` of the buffer at base. */
static void rd(ref *r, uint32_t tb, uint64_t base, int64_t index)
{
    uint64_t a = base + 4 * (uint64_t)index;
    if (r->line)
        a &= ~(uint64_t)(r->line - 1);
    if (r->n[tb] == r->cap[tb]) {
        r->cap[tb] = r->cap[tb] ? 2 * r->cap[tb] : 64;
        r->v[tb] = realloc(r->v[tb], r->cap[tb] * sizeof **r->v);
    }
    r->v[tb][r->n[tb]++] = a;
}

static int cmp64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Edges (i < j, weight = |set_i ∩ set_j| > 0), in (i, j) order: every
 * pair of blocks, sets merged after sorting. */
static ptx_locality_edge *ref_edges(ref *r, uint64_t *nedges)
{
    for (uint32_t i = 0; i < r->ntbs; i++) {
        if (r->n[i])
            qsort(r->v[i], r->n[i], sizeof **r->v, cmp64);
        size_t k = 0;
        for (size_t x = 0; x < r->n[i]; x++)
            if (k == 0 || r->v[i][x] != r->v[i][k - 1])
                r->v[i][k++] = r->v[i][x];
        r->n[i] = k;
    }
    ptx_locality_edge *e = NULL;
    uint64_t n = 0, cap = 0;
    for (uint32_t i = 0; i < r->ntbs; i++)
        for (uint32_t j = i + 1; j < r->ntbs; j++) {
            uint64_t w = 0;
            for (size_t a = 0, b = 0; a < r->n[i] && b < r->n[j];) {
                if (r->v[i][a] == r->v[j][b])
                    w++, a++, b++;
                else if (r->v[i][a] < r->v[j][b])
                    a++;
                else
                    b++;
            }
            if (!w)
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                e = realloc(e, cap * sizeof *e);
            }
            e[n++] = (ptx_locality_edge){i, j, w};
        }
    *nedges = n;
    return e;
}

/* ---- launches ---- */

/* One launch description: grid, block and per-parameter values (buffers
 * are allocated by the test and passed as their addresses). */
typedef struct launch {
    const char *kernel;
    sim_dim3 grid, block;
    uint32_t nparams;
    uint64_t value[12];      /* scalar bits, or the buffer's element count */
    uint8_t is_buffer[12];
    uint64_t addr[12];       /* filled: the buffers' addresses */
    const int32_t *data[12]; /* initial contents of a buffer, or NULL (zeros) */
} launch;

typedef void (*reference_fn)(const launch *l, ref *r);

static uint32_t f32bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

#define I(v) ((uint64_t)(uint32_t)(int32_t)(v))
#define F(v) ((uint64_t)f32bits(v))

/* Visit every thread: tb, block index (bx, by, bz), thread (tx, ty, tz). */
#define FOR_THREADS(l)                                                                        \
    for (uint32_t bz = 0, tb = 0; bz < (l)->grid.z; bz++)                                     \
        for (uint32_t by = 0; by < (l)->grid.y; by++)                                         \
            for (uint32_t bx = 0; bx < (l)->grid.x; bx++, tb++)                               \
                for (uint32_t tz = 0; tz < (l)->block.z; tz++)                                \
                    for (uint32_t ty = 0; ty < (l)->block.y; ty++)                            \
                        for (uint32_t tx = 0; tx < (l)->block.x; tx++)
#define GX (int)(bx * l->block.x + tx)
#define GY (int)(by * l->block.y + ty)
#define P(k) ((int)(int32_t)l->value[k])
#define B(k) (l->addr[k])

static void ref_mm(const launch *l, ref *r)
{
    int n = P(3);
    FOR_THREADS(l) {
        int row = GY, col = GX;
        if (row < n && col < n)
            for (int k = 0; k < n; k++)
                rd(r, tb, B(0), row * n + k), rd(r, tb, B(1), k * n + col);
    }
}

static void ref_gemm(const launch *l, ref *r)
{
    int ni = P(0), nj = P(1), nk = P(2);
    FOR_THREADS(l) {
        int j = GX, i = GY;
        if (i < ni && j < nj) {
            rd(r, tb, B(7), i * nj + j);
            for (int k = 0; k < nk; k++)
                rd(r, tb, B(5), i * nk + k), rd(r, tb, B(6), k * nj + j);
        }
    }
}

static void ref_mm2_1(const launch *l, ref *r)
{
    int ni = P(0), nj = P(1), nk = P(2);
    FOR_THREADS(l) {
        int j = GX, i = GY;
        if (i < ni && j < nj)
            for (int k = 0; k < nk; k++)
                rd(r, tb, B(4), i * nk + k), rd(r, tb, B(5), k * nj + j);
    }
}

static void ref_mm2_2(const launch *l, ref *r)
{
    int ni = P(0), nj = P(1), nl = P(2);
    FOR_THREADS(l) {
        int c = GX, i = GY;
        if (i < ni && c < nl) {
            rd(r, tb, B(6), i * nl + c);
            for (int j = 0; j < nj; j++)
                rd(r, tb, B(4), i * nj + j), rd(r, tb, B(5), j * nl + c);
        }
    }
}

static void ref_syrk(const launch *l, ref *r)
{
    int n = P(0), m = P(1);
    FOR_THREADS(l) {
        int j = GX, i = GY;
        if (i < n && j < n) {
            rd(r, tb, B(5), i * n + j);
            for (int k = 0; k < m; k++)
                rd(r, tb, B(4), i * m + k), rd(r, tb, B(4), j * m + k);
        }
    }
}

static void ref_syr2k(const launch *l, ref *r)
{
    int n = P(0), m = P(1);
    FOR_THREADS(l) {
        int j = GX, i = GY;
        if (i < n && j < n) {
            rd(r, tb, B(6), i * n + j);
            for (int k = 0; k < m; k++) {
                rd(r, tb, B(4), i * m + k), rd(r, tb, B(5), j * m + k);
                rd(r, tb, B(5), i * m + k), rd(r, tb, B(4), j * m + k);
            }
        }
    }
}

static void ref_mvt1(const launch *l, ref *r)
{
    int n = P(0);
    FOR_THREADS(l) {
        int i = GX;
        if (i < n) {
            rd(r, tb, B(2), i);
            for (int j = 0; j < n; j++)
                rd(r, tb, B(1), i * n + j), rd(r, tb, B(3), j);
        }
    }
}

static void ref_mvt2(const launch *l, ref *r)
{
    int n = P(0);
    FOR_THREADS(l) {
        int i = GX;
        if (i < n) {
            rd(r, tb, B(2), i);
            for (int j = 0; j < n; j++)
                rd(r, tb, B(1), j * n + i), rd(r, tb, B(3), j);
        }
    }
}

static void ref_bicg1(const launch *l, ref *r)
{
    int nx = P(0), ny = P(1);
    FOR_THREADS(l) {
        int j = GX;
        if (j < ny)
            for (int i = 0; i < nx; i++)
                rd(r, tb, B(3), i), rd(r, tb, B(2), i * ny + j);
    }
}

static void ref_bicg2(const launch *l, ref *r)
{
    int nx = P(0), ny = P(1);
    FOR_THREADS(l) {
        int i = GX;
        if (i < nx)
            for (int j = 0; j < ny; j++)
                rd(r, tb, B(2), i * ny + j), rd(r, tb, B(3), j);
    }
}

static void ref_covar_mean(const launch *l, ref *r)
{
    int m = P(0), n = P(1);
    FOR_THREADS(l) {
        int j = GX;
        if (j < m)
            for (int i = 0; i < n; i++)
                rd(r, tb, B(4), i * m + j);
    }
}

static void ref_covar_reduce(const launch *l, ref *r)
{
    int m = P(0), n = P(1);
    FOR_THREADS(l) {
        int j = GX, i = GY;
        if (i < n && j < m)
            rd(r, tb, B(3), i * m + j), rd(r, tb, B(2), j);
    }
}

static void ref_covar_covar(const launch *l, ref *r)
{
    int m = P(0), n = P(1);
    FOR_THREADS(l) {
        int j1 = GX;
        if (j1 < m)
            for (int j2 = j1; j2 < m; j2++)
                for (int i = 0; i < n; i++)
                    rd(r, tb, B(3), i * m + j1), rd(r, tb, B(3), i * m + j2);
    }
}

static void ref_gs1(const launch *l, ref *r)
{
    int m = P(0), n = P(1), k = P(2);
    FOR_THREADS(l) {
        if (GX == 0)
            for (int i = 0; i < m; i++)
                rd(r, tb, B(3), i * n + k);
    }
}

static void ref_gs2(const launch *l, ref *r)
{
    int m = P(0), n = P(1), k = P(2);
    FOR_THREADS(l) {
        int i = GX;
        if (i < m)
            rd(r, tb, B(3), i * n + k), rd(r, tb, B(4), k * n + k);
    }
}

static void ref_gs3(const launch *l, ref *r)
{
    int m = P(0), n = P(1), k = P(2);
    FOR_THREADS(l) {
        int j = GX;
        if (j > k && j < n)
            for (int i = 0; i < m; i++)
                rd(r, tb, B(5), i * n + k), rd(r, tb, B(3), i * n + j);
    }
}

static void ref_conv2d(const launch *l, ref *r)
{
    int ni = P(0), nj = P(1);
    FOR_THREADS(l) {
        int j = GX, i = GY;
        if (i > 0 && j > 0 && i < ni - 1 && j < nj - 1)
            for (int di = -1; di <= 1; di++)
                for (int dj = -1; dj <= 1; dj++)
                    rd(r, tb, B(2), (i + di) * nj + j + dj);
    }
}

static void ref_conv3d(const launch *l, ref *r)
{
    int ni = P(0), nj = P(1), nk = P(2);
    static const int d[11][3] = {{-1, -1, -1}, {1, -1, -1}, {0, -1, 0}, {0, 0, 0}, {0, 1, 0}, {-1, -1, 1},
                                 {1, -1, 1},   {-1, 0, 1},  {1, 0, 1},  {-1, 1, 1}, {1, 1, 1}};
    FOR_THREADS(l) {
        int k = GX, j = GY;
        if (j > 0 && k > 0 && j < nj - 1 && k < nk - 1)
            for (int i = 1; i < ni - 1; i++)
                for (int x = 0; x < 11; x++)
                    rd(r, tb, B(3), ((i + d[x][0]) * nj + j + d[x][1]) * nk + k + d[x][2]);
    }
}

static void ref_hotspot(const launch *l, ref *r)
{
    int rows = P(0), cols = P(1);
    FOR_THREADS(l) {
        int y = 14 * (int)by + (int)ty - 1, x = 14 * (int)bx + (int)tx - 1;
        if (y >= 0 && y < rows && x >= 0 && x < cols)
            rd(r, tb, B(3), y * cols + x), rd(r, tb, B(2), y * cols + x);
    }
}

static void ref_stencil1d(const launch *l, ref *r)
{
    int n = P(0);
    FOR_THREADS(l) {
        int i = GX;
        if (i > 0 && i < n - 1)
            rd(r, tb, B(1), i - 1), rd(r, tb, B(1), i), rd(r, tb, B(1), i + 1);
    }
}

static void ref_gather(const launch *l, ref *r)
{
    int n = P(0);
    FOR_THREADS(l) {
        int i = GX;
        if (i < n)
            rd(r, tb, B(1), i), rd(r, tb, B(2), l->data[1][i]);
    }
}

/* Allocate l's buffers on e's device and lay out its parameter buffer. */
static uint8_t *build_params(emu *e, launch *l, uint32_t *bytes)
{
    uint32_t n;
    const sim_param_info *pi = sim_kernel_params(e->p, l->kernel, &n, bytes, e->err, sizeof e->err);
    if (!pi)
        fail_msg("%s", e->err);
    assert_int_equal(n, l->nparams);
    uint8_t *buf = calloc(*bytes + 1, 1);
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = l->value[i];
        if (l->is_buffer[i])
            v = l->addr[i] = emu_buf(e, l->data[i], 4 * l->value[i]);
        memcpy(buf + pi[i].offset, &v, pi[i].size);
    }
    return buf;
}

static void assert_same_edges(const char *what, const launch *l, const char *variant, const ptx_locality_graph *g,
                              const ptx_locality_edge *want, uint64_t nwant)
{
    uint64_t k = 0;
    for (; k < g->nedges && k < nwant; k++)
        if (g->edges[k].i != want[k].i || g->edges[k].j != want[k].j || g->edges[k].w != want[k].w)
            break;
    if (k < g->nedges || k < nwant)
        fail_msg("%s %s (%s): %s graph has %llu edges, brute force %llu; first difference at edge %llu: "
                 "got %u-%u:%llu, want %u-%u:%llu", l->kernel, variant, "elements", what,
                 (unsigned long long)g->nedges, (unsigned long long)nwant, (unsigned long long)k,
                 k < g->nedges ? g->edges[k].i : 0, k < g->nedges ? g->edges[k].j : 0,
                 (unsigned long long)(k < g->nedges ? g->edges[k].w : 0), k < nwant ? want[k].i : 0,
                 k < nwant ? want[k].j : 0, (unsigned long long)(k < nwant ? want[k].w : 0));
}

/* Run l on every compiled variant; the profiled graph must equal the
 * brute-force one, and so must the static graph when it claims to be
 * exact (expect_exact says whether it should). */
static void check(launch l, reference_fn reference, bool expect_exact, uint32_t line)
{
    for (size_t v = 0; v < NVARIANTS; v++) {
        emu e;
        emu_open(&e, variants[v]);
        uint32_t bytes;
        uint8_t *params = build_params(&e, &l, &bytes);
        sim_launch_config cfg = {.grid = l.grid, .block = l.block};
        sim_locality_options opt = {.line = line};
        sim_locality loc;
        if (sim_locality_launch(e.d, e.p, e.m, l.kernel, &cfg, params, bytes, &opt, &loc, e.err, sizeof e.err) != 0)
            fail_msg("%s %s: %s", l.kernel, variants[v], e.err);
        ref r;
        ref_init(&r, l.grid.x * l.grid.y * l.grid.z, line);
        reference(&l, &r);
        uint64_t nwant;
        ptx_locality_edge *want = ref_edges(&r, &nwant);
        assert_true(loc.profiled);
        assert_same_edges("profiled", &l, variants[v], &loc.profiled_reads, want, nwant);
        if (loc.trees.reads_exact != expect_exact)
            fail_msg("%s %s: static reads %s (%s), expected %s", l.kernel, variants[v],
                     loc.trees.reads_exact ? "exact" : "inexact",
                     loc.trees.inexact_reason ? loc.trees.inexact_reason : "-", expect_exact ? "exact" : "inexact");
        if (expect_exact) {
            assert_same_edges("static", &l, variants[v], &loc.static_reads, want, nwant);
            assert_int_equal(loc.eval.skipped_unknown, 0);
            assert_int_equal(loc.eval.stopped_threads, 0);
        }
        assert_true(nwant > 0 || loc.profiled_reads.nedges == 0);
        free(want);
        ref_free(&r);
        sim_locality_free(&loc);
        free(params);
        emu_close(&e);
    }
}

#define BUF(n) .is_buffer = 1, .value = (n)
#define D3(x, y) ((sim_dim3){(x), (y), 1})

/* Parameters: value[] in order, is_buffer[] for the buffers' indices. */
static launch mk(const char *k, sim_dim3 grid, sim_dim3 block, uint32_t n, const uint64_t *vals, uint32_t bufmask)
{
    launch l = {.kernel = k, .grid = grid, .block = block, .nparams = n};
    for (uint32_t i = 0; i < n; i++) {
        l.value[i] = vals[i];
        l.is_buffer[i] = (bufmask >> i) & 1;
    }
    return l;
}
#define MK(k, grid, block, mask, ...)                                                                 \
    mk(k, grid, block, sizeof((uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t), (uint64_t[]){__VA_ARGS__}, mask)

/* Matrix multiply at sizes that are and are not multiples of the block. */
static void test_mm_sizes(void **state)
{
    (void)state;
    static const struct { int n, bx, by; } sizes[] = {{32, 16, 16}, {50, 16, 16}, {33, 8, 8}, {20, 8, 4}, {7, 4, 4}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        int n = sizes[s].n, bx = sizes[s].bx, by = sizes[s].by;
        sim_dim3 grid = D3((uint32_t)((n + bx - 1) / bx), (uint32_t)((n + by - 1) / by));
        check(MK("mm", grid, D3(bx, by), 0x7, (uint64_t)(n * n), (uint64_t)(n * n), (uint64_t)(n * n), I(n)),
              ref_mm, true, 0);
    }
}

static void test_gemm_2mm(void **state)
{
    (void)state;
    check(MK("gemm", D3(3, 5), D3(16, 8), 0xe0, I(40), I(36), I(24), F(1.5f), F(0.5f), 40 * 24, 24 * 36, 40 * 36),
          ref_gemm, true, 0);
    check(MK("mm2_kernel1", D3(3, 5), D3(16, 8), 0x70, I(40), I(36), I(24), F(1.5f), 40 * 24, 24 * 36, 40 * 36),
          ref_mm2_1, true, 0);
    check(MK("mm2_kernel2", D3(2, 5), D3(16, 8), 0x70, I(40), I(36), I(28), F(0.5f), 40 * 36, 36 * 28, 40 * 28),
          ref_mm2_2, true, 0);
}

static void test_syrk_syr2k(void **state)
{
    (void)state;
    check(MK("syrk", D3(3, 3), D3(16, 16), 0x30, I(40), I(24), F(1.5f), F(0.5f), 40 * 24, 40 * 40), ref_syrk, true, 0);
    check(MK("syr2k", D3(3, 3), D3(16, 16), 0x70, I(40), I(24), F(1.5f), F(0.5f), 40 * 24, 40 * 24, 40 * 40),
          ref_syr2k, true, 0);
}

static void test_mvt_bicg(void **state)
{
    (void)state;
    check(MK("mvt_kernel1", D3(4, 1), D3(32, 1), 0xe, I(100), 100 * 100, 100, 100), ref_mvt1, true, 0);
    check(MK("mvt_kernel2", D3(4, 1), D3(32, 1), 0xe, I(100), 100 * 100, 100, 100), ref_mvt2, true, 0);
    check(MK("bicg_kernel1", D3(3, 1), D3(32, 1), 0x1c, I(70), I(90), 70 * 90, 70, 90), ref_bicg1, true, 0);
    check(MK("bicg_kernel2", D3(3, 1), D3(32, 1), 0x1c, I(70), I(90), 70 * 90, 90, 70), ref_bicg2, true, 0);
}

static void test_covariance(void **state)
{
    (void)state;
    check(MK("covar_mean", D3(3, 1), D3(16, 1), 0x18, I(40), I(30), F(30.0f), 40, 30 * 40), ref_covar_mean, true, 0);
    check(MK("covar_reduce", D3(3, 4), D3(16, 8), 0xc, I(40), I(30), 40, 30 * 40), ref_covar_reduce, true, 0);
    check(MK("covar_covar", D3(3, 1), D3(16, 1), 0xc, I(40), I(30), 40 * 40, 30 * 40), ref_covar_covar, true, 0);
}

static void test_gramschmidt(void **state)
{
    (void)state;
    static int32_t ones[40 * 40];
    for (size_t i = 0; i < 40 * 40; i++)
        ones[i] = (int32_t)f32bits(1.0f); /* r[k][k] divides */
    check(MK("gramschmidt_kernel1", D3(2, 1), D3(32, 1), 0x18, I(30), I(40), I(3), 30 * 40, 40 * 40), ref_gs1, true, 0);
    launch l2 = MK("gramschmidt_kernel2", D3(1, 1), D3(32, 1), 0x38, I(30), I(40), I(3), 30 * 40, 40 * 40, 30 * 40);
    l2.data[4] = ones;
    check(l2, ref_gs2, true, 0);
    check(MK("gramschmidt_kernel3", D3(3, 1), D3(16, 1), 0x38, I(30), I(40), I(3), 30 * 40, 40 * 40, 30 * 40),
          ref_gs3, true, 0);
}

static void test_convolutions(void **state)
{
    (void)state;
    check(MK("conv2d", D3(3, 4), D3(16, 8), 0xc, I(30), I(40), 30 * 40, 30 * 40), ref_conv2d, true, 0);
    check(MK("conv3d", D3(3, 3), D3(8, 8), 0x18, I(6), I(20), I(20), 6 * 400, 6 * 400), ref_conv3d, true, 0);
}

static void test_hotspot_stencil(void **state)
{
    (void)state;
    check(MK("hotspot", D3(3, 3), D3(16, 16), 0x1c, I(30), I(40), 1200, 1200, 1200, F(0.5f), F(0.1f), F(0.1f),
             F(0.1f), F(80.0f)), ref_hotspot, true, 0);
    check(MK("stencil1d", D3(8, 1), D3(128, 1), 0x6, I(1000), 1000, 1000), ref_stencil1d, true, 0);
}

/* Cache-line granularity: both graphs count shared 128-byte lines. */
static void test_lines(void **state)
{
    (void)state;
    check(MK("mm", D3(4, 4), D3(16, 16), 0x7, 50 * 50, 50 * 50, 50 * 50, I(50)), ref_mm, true, 128);
    check(MK("conv2d", D3(3, 4), D3(16, 8), 0xc, I(30), I(40), 30 * 40, 30 * 40), ref_conv2d, true, 32);
}

/* A data-dependent gather: the static graph says it is inexact; the
 * profiled one still matches the addresses the data selects. */
static void test_indirect(void **state)
{
    (void)state;
    static int32_t idx[100];
    for (int i = 0; i < 100; i++)
        idx[i] = (i * 7) % 13; /* every block reads in[0..12] */
    launch l = MK("gather", D3(4, 1), D3(32, 1), 0xe, I(100), 100, 13, 100);
    l.data[1] = idx;
    check(l, ref_gather, false, 0);
}

/* Launch kernel k of testdata/hand/locality_forms.ptx with the given
 * parameter bytes; returns its graphs (to free). */
static sim_locality hand_launch(emu *e, const char *k, uint32_t grid, const void *params, uint32_t bytes)
{
    sim_launch_config cfg = {.grid = {grid, 1, 1}, .block = {32, 1, 1}};
    sim_locality loc;
    if (sim_locality_launch(e->d, e->p, e->m, k, &cfg, params, bytes, NULL, &loc, e->err, sizeof e->err) != 0)
        fail_msg("%s: %s", k, e->err);
    return loc;
}

/* Hand-written address forms (signed and unsigned shifts, min/max, rem,
 * mul.hi, selp, guarded definitions and loads, vector loads, generic
 * loads, module variables, brx.idx): the static graph claims exactness
 * and equals the emulator's; pointer chasing is inexact. */
static void test_hand_forms(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, "hand/locality_forms.ptx");
    uint64_t base = emu_buf(&e, NULL, 8192);
    for (int32_t off = -60; off <= 20; off += 40) {
        uint8_t params[16] = {0};
        memcpy(params, &base, 8);
        memcpy(params + 8, &off, 4);
        sim_locality loc = hand_launch(&e, "signs", 5, params, 12);
        ptx_locality_diff d;
        assert_true(loc.trees.reads_exact);
        assert_true(loc.static_reads.nedges > 0);
        if (!ptx_locality_compare(&loc.static_reads, &loc.profiled_reads, &d))
            fail_msg("signs off=%d: static and profiled differ at %u-%u (%llu vs %llu)", off, d.first_a.i,
                     d.first_a.j, (unsigned long long)d.first_a.w, (unsigned long long)d.first_b.w);
        sim_locality_free(&loc);
    }
    sim_locality loc = hand_launch(&e, "forms", 6, &base, 8);
    ptx_locality_diff d;
    assert_true(loc.trees.reads_exact);
    assert_true(ptx_locality_compare(&loc.static_reads, &loc.profiled_reads, &d));
    /* every pair of blocks shares table[0..31] and base[100], base[101] */
    assert_int_equal(loc.static_reads.nedges, 15);
    for (uint64_t k = 0; k < loc.static_reads.nedges; k++)
        assert_true(loc.static_reads.edges[k].w >= 32 + 2);
    sim_locality_free(&loc);
    uint32_t next[4] = {2, 3, 0, 0};
    uint64_t params[2] = {emu_buf(&e, next, sizeof next), emu_buf(&e, NULL, 64)};
    loc = hand_launch(&e, "chase", 4, params, 16);
    assert_false(loc.trees.reads_exact);
    assert_true(loc.eval.unknown_branches > 0);
    /* block b reads next[b], next[next[b]], ...: 0 and 2, 1 and 3 meet */
    assert_int_equal(loc.profiled_reads.nedges, 2);
    assert_int_equal(loc.profiled_reads.edges[0].i, 0);
    assert_int_equal(loc.profiled_reads.edges[0].j, 2);
    assert_int_equal(loc.profiled_reads.edges[1].i, 1);
    assert_int_equal(loc.profiled_reads.edges[1].j, 3);
    assert_int_equal(loc.static_reads.nedges, 0); /* only vals[ctaid], which no two blocks share */
    sim_locality_free(&loc);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mm_sizes),    cmocka_unit_test(test_gemm_2mm),
        cmocka_unit_test(test_syrk_syr2k),  cmocka_unit_test(test_mvt_bicg),
        cmocka_unit_test(test_covariance),  cmocka_unit_test(test_gramschmidt),
        cmocka_unit_test(test_convolutions), cmocka_unit_test(test_hotspot_stencil),
        cmocka_unit_test(test_lines),       cmocka_unit_test(test_indirect),
        cmocka_unit_test(test_hand_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
