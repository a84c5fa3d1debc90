/* test_emu_corpus_rhu.c — rhu_examples.cu (the thesis figures' kernels:
 * BFS steps, LUD halves, BACKP layer and reduction, sorting-network
 * comparators, bitonic sort, a Mandelbrot tile) on sm_75, sm_80, sm_90
 * (-O3) and sm_80 (-G) against CPU references written here. Inputs are
 * chosen so that no two threads race on one location, except LUD's final
 * store, where either writer may win. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

enum { NODES = 512 };

/* Fig. 3.7(a): masked nodes (below 128) point at distinct nodes in
 * [256, 384), so the costs they write never overlap. */
static void check_bfs_a(emu *e, size_t a)
{
    static int32_t edges[NODES], cost[2 * NODES], want[2 * NODES];
    static uint8_t mask[NODES], visited[NODES], vis_want[NODES];
    uint64_t seed = 11;
    for (int i = 0; i < NODES; i++) {
        edges[i] = i < 128 ? 256 + (i * 37) % 128 : (int)(emu_rand(&seed) % NODES);
        mask[i] = i < 128 && emu_rand(&seed) % 3 != 0;
        visited[i] = emu_rand(&seed) % 4 == 0;
    }
    for (int i = 0; i < 2 * NODES; i++)
        cost[i] = want[i] = -5;
    memcpy(vis_want, visited, sizeof visited);
    int n = 400; /* threads from 400 on are outside the graph; tid + n misses the targets */
    for (int tid = 0; tid < n; tid++) {
        if (!mask[tid])
            continue;
        int id = edges[tid];
        want[tid] = id;
        if (!visited[id]) {
            want[id] = id + 1;
            vis_want[id] = 1;
        }
        want[tid + n] = 7;
    }
    uint64_t de = emu_buf(e, edges, sizeof edges), dm = emu_buf(e, mask, sizeof mask),
             dv = emu_buf(e, visited, sizeof visited), dc = emu_buf(e, cost, sizeof cost);
    const void *args[] = {&de, &dm, &dv, &dc, &n};
    emu_run(e, "fig3_7a_bfs", emu_cfg(1, 1, NODES, 1), args);
    emu_read(e, cost, dc, sizeof cost);
    emu_read(e, visited, dv, sizeof visited);
    for (int i = 0; i < 2 * NODES; i++)
        if (cost[i] != want[i])
            fail_msg("%s fig3_7a cost[%d]: %d, want %d", corpus_arch(a), i, cost[i], want[i]);
    assert_memory_equal(visited, vis_want, sizeof visited);
}

/* Fig. 3.7(b): the two halves scale and shift their rows; both halves'
 * threads then store their offset into m[idx] (either may win). */
static void check_lud(emu *e, size_t a)
{
    enum { DIM = 32, OFF = 3 };
    static float m[DIM * DIM], want[DIM * DIM];
    for (int i = 0; i < DIM * DIM; i++)
        m[i] = want[i] = (float)(i % 97) * 0.25f;
    for (int t = 0; t < 16; t++)
        for (int i = 0; i < 8; i++)
            want[OFF * DIM + OFF + i * DIM + t] *= 2.0f;
    for (int t = 0; t < 16; t++)
        for (int i = 8; i < 16; i++)
            want[(OFF + 8) * DIM + OFF + i * DIM + t] += 1.0f;
    uint64_t dm = emu_buf(e, m, sizeof m);
    int dim = DIM, off = OFF;
    const void *args[] = {&dm, &dim, &off};
    emu_run(e, "fig3_7b_lud", emu_cfg(1, 1, 32, 1), args);
    emu_read(e, m, dm, sizeof m);
    for (int i = 0; i < DIM * DIM; i++) {
        bool ok = m[i] == want[i];
        if (i < 16)
            ok = m[i] == (float)(OFF * DIM + OFF) || m[i] == (float)((OFF + 8) * DIM + OFF);
        if (!ok)
            fail_msg("%s fig3_7b m[%d]: %g, want %g", corpus_arch(a), i, (double)m[i], (double)want[i]);
    }
}

/* Fig. 4.4: a row's input times hid, plus 1/2 + 1/4 + 1/8 + 1/16 in f32. */
static void check_backp_forward(emu *e, size_t a)
{
    enum { BY = 3, H = 16 };
    static float in[H * BY + H + 1], out[(H * BY + H + 1) * H];
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        in[i] = (float)i * 0.375f - 4.0f;
    uint64_t di = emu_buf(e, in, sizeof in), dout = emu_buf(e, NULL, sizeof out);
    int hid = 3;
    const void *args[] = {&di, &dout, &hid};
    emu_run(e, "fig4_4_backp", emu_cfg(1, BY, H, H), args);
    emu_read(e, out, dout, sizeof out);
    for (int by = 0; by < BY; by++)
        for (int ty = 0; ty < H; ty++) {
            int index_in = H * by + ty + 1;
            float w = in[index_in] * (float)hid;
            for (int p = 2; p <= H; p *= 2)
                w += 1.0f / (float)p;
            for (int tx = 0; tx < H; tx++)
                if (out[index_in * H + tx] != w)
                    fail_msg("%s fig4_4 (%d,%d,%d): %g, want %g", corpus_arch(a), by, ty, tx,
                             (double)out[index_in * H + tx], (double)w);
        }
}

/* Fig. 4.11(a): the lower half points at unvisited upper nodes, the upper
 * half at visited lower ones, so no two threads write one location. */
static void check_bfs_b(emu *e, size_t a)
{
    static int32_t edges[NODES], cost[NODES], want[NODES];
    static uint8_t visited[NODES], vis_want[NODES];
    for (int i = 0; i < NODES; i++) {
        edges[i] = i < NODES / 2 ? NODES / 2 + (i * 101) % (NODES / 2) : (i * 7) % (NODES / 2);
        visited[i] = i < NODES / 2 || i % 5 == 0;
        cost[i] = want[i] = -1;
    }
    memcpy(vis_want, visited, sizeof visited);
    for (int tid = 0; tid < NODES; tid++) {
        int id = edges[tid];
        if (!visited[id]) {
            vis_want[id] = 1;
            want[id] = tid;
            want[tid] = id;
        }
    }
    uint64_t de = emu_buf(e, edges, sizeof edges), dv = emu_buf(e, visited, sizeof visited),
             dc = emu_buf(e, cost, sizeof cost);
    const void *args[] = {&de, &dv, &dc};
    emu_run(e, "fig4_11a_bfs", emu_cfg(1, 1, NODES, 1), args);
    emu_read(e, cost, dc, sizeof cost);
    emu_read(e, visited, dv, sizeof visited);
    for (int i = 0; i < NODES; i++)
        if (cost[i] != want[i])
            fail_msg("%s fig4_11a cost[%d]: %d, want %d", corpus_arch(a), i, cost[i], want[i]);
    assert_memory_equal(visited, vis_want, sizeof visited);
}

/* Fig. 4.11(b): one comparator step of the sorting network. */
static void check_sortnw(emu *e, size_t a)
{
    enum { T = 256 };
    static uint32_t key[T], val[T], wk[T], wv[T];
    uint64_t seed = 3;
    for (int i = 0; i < T; i++) {
        key[i] = wk[i] = (uint32_t)(emu_rand(&seed) % 1000);
        val[i] = wv[i] = (uint32_t)i;
    }
    uint32_t size = 8, dir = 1;
    for (int p = 0; p < T / 2; p++) { /* threads beyond T/2 work on uninitialized shared memory */
        uint32_t ddd = dir & ((p & (size / 2)) != 0), pos = 2 * (uint32_t)p;
        if ((wk[pos] > wk[pos + 1]) == ddd) {
            uint32_t t = wk[pos];
            wk[pos] = wk[pos + 1];
            wk[pos + 1] = t;
            t = wv[pos];
            wv[pos] = wv[pos + 1];
            wv[pos + 1] = t;
        }
    }
    uint64_t dk = emu_buf(e, key, sizeof key), dv = emu_buf(e, val, sizeof val);
    const void *args[] = {&dk, &dv, &size, &dir};
    emu_run(e, "fig4_11b_sortnw", emu_cfg(1, 1, T, 1), args);
    emu_read(e, key, dk, sizeof key);
    emu_read(e, val, dv, sizeof val);
    for (int i = 0; i < T; i++)
        if (key[i] != wk[i] || val[i] != wv[i])
            fail_msg("%s fig4_11b %d: key %u val %u, want %u %u", corpus_arch(a), i, key[i], val[i], wk[i], wv[i]);
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Fig. 4.12(a): a whole bitonic sort of 256 values. */
static void check_bitonic(emu *e, size_t a)
{
    static int32_t v[256], want[256];
    uint64_t seed = 99;
    for (int i = 0; i < 256; i++)
        v[i] = want[i] = (int32_t)(emu_rand(&seed) % 2001) - 1000;
    qsort(want, 256, sizeof *want, cmp_int);
    uint64_t dv = emu_buf(e, v, sizeof v);
    const void *args[] = {&dv};
    emu_run(e, "fig4_12a_bitonic", emu_cfg(1, 1, 256, 1), args);
    emu_read(e, v, dv, sizeof v);
    for (int i = 0; i < 256; i++)
        if (v[i] != want[i])
            fail_msg("%s fig4_12a %d: %d, want %d", corpus_arch(a), i, v[i], want[i]);
}

/* Fig. 4.12(b): a 16x16 tile at block (1,1) of a 20x20 image. */
static void check_mandelbrot(emu *e, size_t a)
{
    enum { W = 20, H = 20 };
    static uint32_t dst[2 * W * H], want[2 * W * H];
    memset(want, 0, sizeof want);
    for (int iy = 16; iy < 32; iy++)
        for (int ix = 16; ix < 32; ix++)
            if (ix < W && iy < H) {
                want[W * iy + ix] = (uint32_t)(ix * iy);
                want[W * iy + ix + W * H] = (uint32_t)(ix + iy);
            }
    uint64_t dd = emu_buf(e, NULL, sizeof dst);
    int w = W, h = H, bx = 1, by = 1;
    const void *args[] = {&dd, &w, &h, &bx, &by};
    emu_run(e, "fig4_12b_mandelbrot", emu_cfg(1, 1, 16, 16), args);
    emu_read(e, dst, dd, sizeof dst);
    assert_memory_equal(dst, want, sizeof dst);
}

/* Fig. 4.17: column sums by a tree over the rows, in f32. */
static void check_backp_reduce(emu *e, size_t a)
{
    enum { H = 16, HID = 20 };
    static float w[H * HID], m[H][H];
    for (int i = 0; i < H * HID; i++)
        w[i] = (float)((i * 13) % 31) * 0.1f;
    for (int ty = 0; ty < H; ty++)
        for (int tx = 0; tx < H; tx++)
            m[ty][tx] = w[ty * HID + tx];
    for (int p = 2; p <= H; p *= 2)
        for (int ty = 0; ty < H; ty += p)
            for (int tx = 0; tx < H; tx++)
                m[ty][tx] = m[ty][tx] + m[ty + p / 2][tx];
    uint64_t dw = emu_buf(e, w, sizeof w);
    int hid = HID;
    const void *args[] = {&dw, &hid};
    emu_run(e, "fig4_17_backp", emu_cfg(1, 1, H, H), args);
    emu_read(e, w, dw, sizeof w);
    for (int ty = 0; ty < H; ty++)
        for (int tx = 0; tx < H; tx++)
            if (w[ty * HID + tx] != m[ty][tx])
                fail_msg("%s fig4_17 (%d,%d): %.9g, want %.9g", corpus_arch(a), ty, tx, (double)w[ty * HID + tx],
                         (double)m[ty][tx]);
}

static void test_rhu_examples(void **state)
{
    (void)state;
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "rhu_examples", a);
        check_bfs_a(&e, a);
        check_lud(&e, a);
        check_backp_forward(&e, a);
        check_bfs_b(&e, a);
        check_sortnw(&e, a);
        check_bitonic(&e, a);
        check_mandelbrot(&e, a);
        check_backp_reduce(&e, a);
        emu_close(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rhu_examples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
