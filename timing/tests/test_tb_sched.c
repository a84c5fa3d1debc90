/* test_tb_sched.c — thread-block scheduling (Tripathy's thesis, Ch. 3):
 * PAVER's groupings (Prim's maximum spanning tree, METIS k-way, recursive
 * bisection), the runtime's per-SM next/tail registers and task stealing
 * (Algorithm 2), BCS and LRR, and the schedulers on the timing model.
 *
 * Expected values come from the thesis's worked examples (the MST grouping
 * of Sec. 3.3.1, the task-stealing example of Sec. 3.4.2) and from graphs
 * built by hand whose best partitions are unique. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"
#include "timing/report.h"
#include "timing/tb_groups.h"
#include "timing/tb_sched.h"

/* A graph of n blocks from m edges {i, j, w}. */
static ptx_locality_graph graph_of(uint32_t n, const uint64_t (*e)[3], uint32_t m)
{
    ptx_locality_graph g = {.ntbs = n, .nedges = m};
    g.edges = calloc(m + 1, sizeof *g.edges);
    for (uint32_t k = 0; k < m; k++) {
        g.edges[k] = (ptx_locality_edge){(uint32_t)e[k][0], (uint32_t)e[k][1], e[k][2]};
        g.total_weight += e[k][2];
    }
    return g;
}

/* Group k of gr is exactly want[0 .. n-1]. */
static void expect_group(const tm_tb_groups *gr, uint32_t k, const uint32_t *want, uint32_t n)
{
    assert_true(k < gr->ngroups);
    assert_int_equal(gr->start[k + 1] - gr->start[k], n);
    for (uint32_t i = 0; i < n; i++)
        assert_int_equal(gr->tb[gr->start[k] + i], want[i]);
}

/* Sec. 3.3.1: "if our N is 2 and x is 2, then we have 6 groupings of (0,4),
 * (1,5), (2), (3), (7) and (6)" for the tree order 0,4,1,5,2,3,7,6 of Fig.
 * 3.7(a). A path of falling weights 0-4-1-5-2-3-7-6 makes Prim (from
 * block 0) add the blocks in exactly that order. */
static void test_mst_thesis_example(void **state)
{
    (void)state;
    static const uint64_t e[][3] = {{0, 4, 70}, {1, 4, 60}, {1, 5, 50}, {2, 5, 40}, {2, 3, 30}, {3, 7, 20}, {6, 7, 10}};
    ptx_locality_graph g = graph_of(8, e, 7);
    tm_tb_groups gr;
    char err[256];
    assert_int_equal(tm_tb_groups_make(TM_TB_PART_MST, &g, 2, 2, &gr, err, sizeof err), 0);
    assert_int_equal(gr.ngroups, 6);
    expect_group(&gr, 0, (const uint32_t[]){0, 4}, 2);
    expect_group(&gr, 1, (const uint32_t[]){1, 5}, 2);
    expect_group(&gr, 2, (const uint32_t[]){2}, 1);
    expect_group(&gr, 3, (const uint32_t[]){3}, 1);
    expect_group(&gr, 4, (const uint32_t[]){7}, 1);
    expect_group(&gr, 5, (const uint32_t[]){6}, 1);
    /* captured: the two first groups' edges 0-4 and 1-5 */
    assert_int_equal(tm_tb_groups_captured(&gr, &g), 70 + 50);
    tm_tb_groups_free(&gr);
    ptx_locality_graph_free(&g);
}

/* Prim's ties go to the lower block, and a block no edge reaches comes
 * when nothing else is reachable, the lowest first: 0 -5- 3 -5- 1 -1- 4,
 * 2 alone: 0, 3 (5), 1 (5 from 3), 4 (1), 2. */
static void test_mst_ties_and_isolated(void **state)
{
    (void)state;
    static const uint64_t e[][3] = {{0, 3, 5}, {1, 3, 5}, {1, 4, 1}};
    ptx_locality_graph g = graph_of(5, e, 3);
    tm_tb_groups gr;
    char err[256];
    assert_int_equal(tm_tb_groups_make(TM_TB_PART_MST, &g, 1, 5, &gr, err, sizeof err), 0);
    assert_int_equal(gr.ngroups, 1);
    expect_group(&gr, 0, (const uint32_t[]){0, 3, 1, 4, 2}, 5);
    tm_tb_groups_free(&gr);
    ptx_locality_graph_free(&g);
}

/* The 4 x 4 grid of a matrix multiply (Sec. 3.2.3): blocks of one grid
 * row share rows of A, blocks of one column share columns of B. Four
 * planted groups, the grid's columns {c, c+4, c+8, c+12}, share 100 each
 * pair (B's columns); blocks of a row share 1 (a thin slice of A). The
 * only balanced 4-way cut keeping every weight-100 edge inside is the
 * columns: k-way must return them, each in Prim's order (all ties: by
 * block number). */
static ptx_locality_graph mm_grid(void)
{
    uint64_t e[96][3];
    uint32_t m = 0;
    for (uint32_t i = 0; i < 16; i++)
        for (uint32_t j = i + 1; j < 16; j++) {
            if (i % 4 == j % 4)
                e[m][0] = i, e[m][1] = j, e[m++][2] = 100;
            else if (i / 4 == j / 4)
                e[m][0] = i, e[m][1] = j, e[m++][2] = 1;
        }
    return graph_of(16, (const uint64_t(*)[3])e, m);
}

static void test_kway_matrix_grid(void **state)
{
    (void)state;
    ptx_locality_graph g = mm_grid();
    tm_tb_groups gr;
    char err[256];
    assert_int_equal(tm_tb_groups_make(TM_TB_PART_KWAY, &g, 4, 4, &gr, err, sizeof err), 0);
    assert_int_equal(gr.ngroups, 4);
    bool seen[4] = {false};
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t c = gr.tb[gr.start[k]];
        assert_true(c < 4);
        assert_false(seen[c]);
        seen[c] = true;
        expect_group(&gr, k, (const uint32_t[]){c, c + 4, c + 8, c + 12}, 4);
    }
    /* every column's 6 pairs of weight 100 */
    assert_int_equal(tm_tb_groups_captured(&gr, &g), 4 * 6 * 100);
    tm_tb_groups_free(&gr);
    ptx_locality_graph_free(&g);
}

/* Algorithm 1 with maxTB 3 on 8 blocks: pairs {0,5} {1,4} {2,7} {3,6}
 * share 100; the pairs of each quad {0,5,1,4} and {2,7,3,6} share 10
 * between their blocks; the quads share 1 (1-2). The first bisection cuts
 * the 1 (quads); each quad of 4 (not < 3) is split again, cutting the
 * four 10s; halves of 2 are final. FIFO order, the half with the lower
 * block first: (0,5), (1,4), (2,7), (3,6). */
static void test_rb_algorithm1(void **state)
{
    (void)state;
    static const uint64_t e[][3] = {{0, 5, 100}, {1, 4, 100}, {2, 7, 100}, {3, 6, 100}, {0, 1, 10}, {0, 4, 10},
                                    {1, 5, 10},  {4, 5, 10},  {2, 3, 10},  {2, 6, 10},  {3, 7, 10}, {6, 7, 10},
                                    {1, 2, 1}};
    ptx_locality_graph g = graph_of(8, e, 13);
    tm_tb_groups gr;
    char err[256];
    assert_int_equal(tm_tb_groups_make(TM_TB_PART_RB, &g, 2, 3, &gr, err, sizeof err), 0);
    assert_int_equal(gr.ngroups, 4);
    expect_group(&gr, 0, (const uint32_t[]){0, 5}, 2);
    expect_group(&gr, 1, (const uint32_t[]){1, 4}, 2);
    expect_group(&gr, 2, (const uint32_t[]){2, 7}, 2);
    expect_group(&gr, 3, (const uint32_t[]){3, 6}, 2);
    tm_tb_groups_free(&gr);
    /* maxTB 1: parts of one block only (Algorithm 1's strict < never holds) */
    assert_int_equal(tm_tb_groups_make(TM_TB_PART_RB, &g, 2, 1, &gr, err, sizeof err), 0);
    assert_int_equal(gr.ngroups, 8);
    for (uint32_t k = 0; k < 8; k++)
        assert_int_equal(gr.start[k + 1] - gr.start[k], 1);
    tm_tb_groups_free(&gr);
    ptx_locality_graph_free(&g);
}

/* A graph without edges still gives every block exactly once, in parts
 * below maxTB. */
static void test_rb_without_edges(void **state)
{
    (void)state;
    ptx_locality_graph g = {.ntbs = 7};
    tm_tb_groups gr;
    char err[256];
    assert_int_equal(tm_tb_groups_make(TM_TB_PART_RB, &g, 2, 3, &gr, err, sizeof err), 0);
    bool seen[7] = {false};
    for (uint32_t k = 0; k < gr.ngroups; k++) {
        assert_true(gr.start[k + 1] - gr.start[k] < 3);
        for (uint32_t p = gr.start[k]; p < gr.start[k + 1]; p++) {
            assert_false(seen[gr.tb[p]]);
            seen[gr.tb[p]] = true;
        }
    }
    assert_int_equal(gr.start[gr.ngroups], 7);
    tm_tb_groups_free(&gr);
    assert_int_equal(tm_tb_groups_make(TM_TB_PART_KWAY, &g, 3, 3, &gr, err, sizeof err), 0);
    assert_int_equal(gr.start[gr.ngroups], 7);
    tm_tb_groups_free(&gr);
}

/* Groups from a list: group k = blocks given, -1 ending each group. */
static tm_tb_groups groups_of(uint32_t ntbs, const int *list)
{
    tm_tb_groups gr = {.ntbs = ntbs};
    gr.start = calloc(ntbs + 2, sizeof *gr.start);
    gr.tb = calloc(ntbs + 1, sizeof *gr.tb);
    uint32_t pos = 0;
    for (const int *x = list; pos < ntbs; x++)
        if (*x < 0)
            gr.start[++gr.ngroups] = pos;
        else
            gr.tb[pos++] = (uint32_t)*x;
    gr.start[++gr.ngroups] = pos;
    return gr;
}

/* One block for SM s (room 1), or UINT64_MAX for none. */
static uint64_t one(tm_tb_sched *t, uint32_t s)
{
    uint64_t out[2];
    return tm_tb_sched_next(t, s, 1, out) ? out[0] : UINT64_MAX;
}

/* Sec. 3.4.2's example: the donor's group holds TB0..TB3 waiting, the
 * recipient's is spent and no group is left; Algorithm 2 gives count =
 * max - mean = 4 - (4 + 0) / 2 = 2: the donor keeps TB0, TB1 and the
 * recipient runs TB2, TB3 (the tail). Here SM 0's group is blocks 0..4
 * (block 0 started, 1..4 are "TB0..TB3"), SM 1's is block 5. */
static void test_task_stealing_thesis_example(void **state)
{
    (void)state;
    tm_tb_groups gr = groups_of(6, (const int[]){0, 1, 2, 3, 4, -1, 5});
    tm_tb_sched t;
    assert_true(tm_tb_sched_start(&t, TM_TB_KWAY, true, 2, 1, 6, &gr));
    assert_int_equal(one(&t, 0), 0);
    assert_int_equal(one(&t, 1), 5);
    assert_int_equal(t.steals, 0);
    assert_int_equal(one(&t, 1), 3); /* stolen: 3, 4 */
    assert_int_equal(t.steals, 1);
    assert_int_equal(t.stolen, 2);
    assert_int_equal(t.sm[0].tail - t.sm[0].next, 2); /* the donor keeps 1, 2 */
    assert_int_equal(one(&t, 0), 1);
    assert_int_equal(one(&t, 1), 4);
    assert_int_equal(one(&t, 0), 2);
    assert_int_equal(one(&t, 1), UINT64_MAX);
    assert_int_equal(tm_tb_sched_left(&t), 0);
    tm_tb_sched_free(&t);

    /* switched off, and under MST (groups of one): no stealing */
    for (int k = 0; k < 2; k++) {
        gr = groups_of(6, (const int[]){0, 1, 2, 3, 4, -1, 5});
        assert_true(tm_tb_sched_start(&t, k ? TM_TB_MST : TM_TB_KWAY, k == 1, 2, 1, 6, &gr));
        assert_int_equal(one(&t, 0), 0);
        assert_int_equal(one(&t, 1), 5);
        assert_int_equal(one(&t, 1), UINT64_MAX);
        assert_int_equal(t.steals, 0);
        tm_tb_sched_free(&t);
    }
}

/* Groups go out in queue order: SM s takes group s at the start, the SM
 * whose group is spent first takes the next. */
static void test_group_queue(void **state)
{
    (void)state;
    tm_tb_groups gr = groups_of(5, (const int[]){3, 1, -1, 0, -1, 4, -1, 2});
    tm_tb_sched t;
    assert_true(tm_tb_sched_start(&t, TM_TB_RB, true, 2, 1, 5, &gr));
    assert_int_equal(one(&t, 1), 0);
    assert_int_equal(one(&t, 1), 4); /* group 1 spent: group 2 */
    assert_int_equal(one(&t, 0), 3);
    assert_int_equal(one(&t, 1), 2); /* group 3 */
    assert_int_equal(one(&t, 0), 1);
    assert_int_equal(tm_tb_sched_left(&t), 0);
    tm_tb_sched_free(&t);
}

/* BCS hands two consecutive blocks to an SM with room for two, nothing to
 * one with room for one while two or more are left, and the last block
 * alone; LRR one at a time in order. */
static void test_bcs_and_lrr(void **state)
{
    (void)state;
    tm_tb_sched t;
    uint64_t out[2];
    assert_true(tm_tb_sched_start(&t, TM_TB_BCS, true, 2, 3, 5, NULL));
    assert_int_equal(tm_tb_sched_next(&t, 0, 3, out), 2);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 1);
    assert_int_equal(tm_tb_sched_next(&t, 0, 1, out), 0); /* three per SM: BCS runs two */
    assert_int_equal(tm_tb_sched_next(&t, 1, 2, out), 2);
    assert_int_equal(out[0], 2);
    assert_int_equal(tm_tb_sched_next(&t, 1, 1, out), 1);
    assert_int_equal(out[0], 4);
    tm_tb_sched_free(&t);
    assert_true(tm_tb_sched_start(&t, TM_TB_BCS, true, 2, 1, 3, NULL)); /* one block per SM: one at a time */
    assert_int_equal(tm_tb_sched_next(&t, 0, 1, out), 1);
    assert_int_equal(out[0], 0);
    tm_tb_sched_free(&t);
    assert_true(tm_tb_sched_start(&t, TM_TB_LRR, true, 2, 4, 3, NULL));
    assert_int_equal(tm_tb_sched_next(&t, 1, 4, out), 1);
    assert_int_equal(out[0], 0);
    assert_int_equal(tm_tb_sched_next(&t, 0, 0, out), 0);
    assert_int_equal(tm_tb_sched_next(&t, 0, 1, out), 1);
    assert_int_equal(out[0], 1);
    tm_tb_sched_free(&t);
}

/* ---- on the timing model -------------------------------------------- */

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* Block b's 32 threads read words (b % 2) * 32 + tid of a (blocks 0 and 2
 * share 32 words, blocks 1 and 3 share 32 more: the static graph has
 * edges 0-2 and 1-3 of weight 32); thread 0 writes %smid to out[b]. */
static const char *const SMID_KERNEL =
    HEAD ".visible .entry k(.param .u64 a, .param .u64 out)\n{\n"
         ".reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<12>;\n"
         "ld.param.u64 %rd1, [a];\nld.param.u64 %rd2, [out];\n"
         "cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\n"
         "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
         "and.b32 %r3, %r2, 1;\nshl.b32 %r3, %r3, 5;\nadd.u32 %r3, %r3, %r1;\n"
         "mul.wide.u32 %rd3, %r3, 4;\nadd.u64 %rd4, %rd1, %rd3;\n"
         "ld.global.u32 %r4, [%rd4];\n"
         "setp.ne.u32 %p1, %r1, 0;\n"
         "@%p1 bra DONE;\n"
         "mov.u32 %r5, %smid;\nadd.u32 %r5, %r5, %r4;\n"
         "mul.wide.u32 %rd5, %r2, 4;\nadd.u64 %rd6, %rd2, %rd5;\n"
         "st.global.u32 [%rd6], %r5;\n"
         "DONE:\nret;\n}\n";

/* Two SMs holding one block each, scheduler `sched`, graph `graph`
 * (NULL: static). */
static tm_config two_sms(const char *sched, const char *graph)
{
    tm_config c;
    char err[512], g[300];
    if (tm_config_preset(&c, "QV100", err, sizeof err) != 0)
        fail_msg("%s", err);
    snprintf(g, sizeof g, "-simtlab_tb_graph=%s", graph ? graph : "static");
    char s[64];
    snprintf(s, sizeof s, "-simtlab_tb_sched=%s", sched);
    const char *const sets[] = {"-gpgpu_n_clusters=1", "-gpgpu_n_cores_per_cluster=2", "-gpgpu_n_mem=2",
                                "-gpgpu_shader_cta=1", s, g, NULL};
    for (int i = 0; sets[i]; i++)
        if (tm_config_set(&c, sets[i], NULL, err, sizeof err) != 0)
            fail_msg("%s: %s", sets[i], err);
    return c;
}

/* Run SMID_KERNEL (4 blocks of 32) on cfg: 0 with out[] the blocks' SMs
 * and *ks the kernel's statistics, or -1 with err. */
static int run_smid(const tm_config *cfg, uint32_t out[4], tm_kernel_stats *ks, char *err, size_t errlen)
{
    emu e;
    emu_open_module(&e, ptx_test_parse(SMID_KERNEL));
    uint32_t zeros[64] = {0};
    uint64_t bufs[2] = {emu_buf(&e, zeros, sizeof zeros), emu_buf(&e, zeros, 16)};
    sim_launch_config lc = emu_cfg(4, 1, 32, 1);
    tm_gpu *gpu = tm_gpu_new(cfg, err, errlen);
    if (!gpu)
        fail_msg("tm_gpu_new: %s", err);
    int rc = tm_gpu_launch(gpu, e.d, e.p, "k", &lc, bufs, 16, NULL, err, errlen);
    if (rc == 0) {
        *ks = gpu->kernel;
        assert_int_equal(gpu->sm_ctas[0] + gpu->sm_ctas[1], 4);
    }
    tm_gpu_free(gpu);
    emu_read(&e, out, bufs[1], 16);
    emu_close(&e);
    return rc;
}

/* k-way with k = 2 SMs on the static graph: the one balanced cut keeping
 * both edges puts blocks 0 and 2 on one SM and 1 and 3 on the other; the
 * groups capture both edges (64). */
static void test_kway_on_model(void **state)
{
    (void)state;
    tm_config c = two_sms("kway", NULL);
    uint32_t smid[4];
    tm_kernel_stats ks;
    char err[512];
    if (run_smid(&c, smid, &ks, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(smid[0], smid[2]);
    assert_int_equal(smid[1], smid[3]);
    assert_int_not_equal(smid[0], smid[1]);
    assert_true(smid[0] < 2 && smid[1] < 2);
    assert_int_equal(ks.tb.policy, TM_TB_KWAY);
    assert_string_equal(ks.tb.graph_source, "static");
    assert_true(ks.tb.graph_exact);
    assert_int_equal(ks.tb.graph_edges, 2);
    assert_int_equal(ks.tb.graph_weight, 64);
    assert_int_equal(ks.tb.groups, 2);
    assert_int_equal(ks.tb.captured, 64);
}

/* A graph file (simtlab-locality/1) pairing 0-3 and 1-2 instead; a file
 * of another kernel is refused with the file's name. */
static void test_graph_file(void **state)
{
    (void)state;
    char path[] = "tbgraph-XXXXXX"; /* (in the test's working directory, the build directory) */
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("{\"schema\":\"simtlab-locality/1\",\"kernel\":\"k\",\"tbs\":4,"
          "\"static\":{\"exact\":true,\"edge_list\":[[0,3,9],[1,2,9]]}}", f);
    fclose(f);
    tm_config c = two_sms("kway", path);
    uint32_t smid[4];
    tm_kernel_stats ks;
    char err[512];
    if (run_smid(&c, smid, &ks, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(smid[0], smid[3]);
    assert_int_equal(smid[1], smid[2]);
    assert_int_not_equal(smid[0], smid[1]);
    assert_string_equal(ks.tb.graph_source, "file (static)");
    assert_int_equal(ks.tb.captured, 18);
    /* a directory of per-launch files (simtlab exec --locality): launch 0's */
    char dir[] = "tbdir-XXXXXX", file[64];
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/0000-k.json", dir);
    assert_int_equal(rename(path, file), 0);
    c = two_sms("kway", dir);
    if (run_smid(&c, smid, &ks, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(smid[0], smid[3]);
    assert_int_equal(smid[1], smid[2]);
    unlink(file);
    assert_int_equal(run_smid(&c, smid, &ks, err, sizeof err), -1); /* no file for launch 0 */
    assert_non_null(strstr(err, "0000-k.json"));
    rmdir(dir);
    c = two_sms("kway", path);
    f = fopen(path, "w");
    fputs("{\"schema\":\"simtlab-locality/1\",\"kernel\":\"other\",\"tbs\":4,\"static\":{\"edge_list\":[]}}", f);
    fclose(f);
    assert_int_equal(run_smid(&c, smid, &ks, err, sizeof err), -1);
    assert_non_null(strstr(err, "a graph of kernel other, not of k"));
    assert_non_null(strstr(err, path));
    unlink(path);
}

/* %smid reads the SM under every policy; BCS and LRR run every block. */
static void test_every_policy_runs_all(void **state)
{
    (void)state;
    const char *const names[] = {"lrr", "bcs", "mst", "kway", "rb"};
    for (int k = 0; k < 5; k++) {
        tm_config c = two_sms(names[k], NULL);
        uint32_t smid[4] = {9, 9, 9, 9};
        tm_kernel_stats ks;
        char err[512];
        if (run_smid(&c, smid, &ks, err, sizeof err) != 0)
            fail_msg("%s: %s", names[k], err);
        for (int b = 0; b < 4; b++)
            assert_true(smid[b] < 2);
        assert_int_equal(ks.sm.ctas, 4);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mst_thesis_example),
        cmocka_unit_test(test_mst_ties_and_isolated),
        cmocka_unit_test(test_kway_matrix_grid),
        cmocka_unit_test(test_rb_algorithm1),
        cmocka_unit_test(test_rb_without_edges),
        cmocka_unit_test(test_task_stealing_thesis_example),
        cmocka_unit_test(test_group_queue),
        cmocka_unit_test(test_bcs_and_lrr),
        cmocka_unit_test(test_kway_on_model),
        cmocka_unit_test(test_graph_file),
        cmocka_unit_test(test_every_policy_runs_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
