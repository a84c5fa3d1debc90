/* test_emu_clusters.c — thread block clusters: clusters.cu's kernels
 * (a histogram in distributed shared memory with remote atomics, a ring
 * exchange reading the neighbour block's shared memory, cluster special
 * registers, launch bounds and a register cap) on sm_75, sm_80, sm_90
 * (-O3) and sm_80 (-G) against CPU references; hand-written PTX for the
 * split barrier.cluster.arrive / .wait, clusters given by the launch
 * configuration, and the faults: a cluster held by a CTA barrier deadlock,
 * mapa to a rank outside the cluster, .maxclusterrank. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

static bool is_sm90(size_t a) { return strstr(corpus_arch(a), "sm_90") != NULL; }

/* cluster_histogram: bins split across the cluster's blocks, counted with
 * atomics into the owner block's shared memory, then added to out. */
static void check_histogram(emu *e, size_t a)
{
    enum { N = 3000, BINS = 37 };
    static int32_t in[N], out[BINS], want[BINS];
    uint64_t seed = 5;
    memset(want, 0, sizeof want);
    for (int i = 0; i < N; i++) {
        in[i] = (int32_t)(emu_rand(&seed) % 100000);
        want[in[i] % BINS]++;
    }
    uint64_t din = emu_buf(e, in, sizeof in), dout = emu_buf(e, NULL, sizeof out);
    int n = N, bins = BINS;
    const void *args[] = {&din, &dout, &n, &bins};
    sim_launch_config cfg = emu_cfg(6, 1, 64, 1);
    cfg.dynamic_shared = BINS * 4;
    emu_run(e, "_Z17cluster_histogramPKiPiii", cfg, args);
    emu_read(e, out, dout, sizeof out);
    for (int b = 0; b < BINS; b++)
        if (out[b] != want[b])
            fail_msg("%s cluster_histogram bin %d: %d, want %d", corpus_arch(a), b, out[b], want[b]);
}

/* cluster_ring: each block reads the next block of its cluster of 4 and
 * adds its rank, cluster id and cluster sizes (sm_90); its own tile on
 * older targets. */
static void check_ring(emu *e, size_t a)
{
    enum { BLOCKS = 8 };
    static float in[BLOCKS * 128], out[BLOCKS * 128];
    for (int i = 0; i < BLOCKS * 128; i++)
        in[i] = (float)(i * 3 % 1001) * 0.5f;
    uint64_t din = emu_buf(e, in, sizeof in), dout = emu_buf(e, NULL, sizeof out);
    const void *args[] = {&din, &dout};
    emu_run(e, "_Z12cluster_ringPKfPf", emu_cfg(BLOCKS, 1, 128, 1), args);
    emu_read(e, out, dout, sizeof out);
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < 128; t++) {
            float want;
            if (is_sm90(a)) {
                int rank = b % 4, cid = b / 4, next = cid * 4 + (rank + 1) % 4;
                want = in[next * 128 + ((t + 1) & 127)] + (float)rank + (float)(cid * 10) + 400.0f + 4.0f;
            } else {
                want = in[b * 128 + ((t + 1) & 127)];
            }
            if (out[b * 128 + t] != want)
                fail_msg("%s cluster_ring block %d thread %d: %g, want %g", corpus_arch(a), b, t,
                         (double)out[b * 128 + t], (double)want);
        }
}

/* launch_bounded, max_threads_only, max_registers: plain kernels whose
 * directives bound the launch. */
static void check_bounded(emu *e, size_t a)
{
    enum { N = 1000 };
    static float fin[N], fout[N];
    static double din_[N], dout_[N];
    static int32_t iout[4 * 1024];
    for (int i = 0; i < N; i++) {
        fin[i] = (float)i * 0.37f - 100.0f;
        din_[i] = (double)i * 1.0001 - 3.5;
    }
    uint64_t dfi = emu_buf(e, fin, sizeof fin), dfo = emu_buf(e, NULL, sizeof fout);
    int n = N;
    const void *a1[] = {&dfi, &dfo, &n};
    emu_run(e, "_Z14launch_boundedPKfPfi", emu_cfg(4, 1, 256, 1), a1);
    emu_read(e, fout, dfo, sizeof fout);
    for (int i = 0; i < N; i++)
        assert_true(fout[i] == fin[i] * 2.0f);
    /* 512 threads exceed __launch_bounds__(256) */
    assert_int_equal(emu_try(e, "_Z14launch_boundedPKfPfi", emu_cfg(2, 1, 512, 1), a1), -1);
    assert_non_null(strstr(e->err, "exceeds its .maxntid"));
    uint64_t dio = emu_buf(e, NULL, sizeof iout);
    const void *a2[] = {&dio};
    emu_run(e, "_Z16max_threads_onlyPi", emu_cfg(4, 1, 1024, 1), a2);
    emu_read(e, iout, dio, sizeof iout);
    for (int i = 0; i < 4 * 1024; i++)
        assert_int_equal(iout[i], i % 1024);
    uint64_t ddi = emu_buf(e, din_, sizeof din_), ddo = emu_buf(e, NULL, sizeof dout_);
    const void *a3[] = {&ddi, &ddo, &n};
    emu_run(e, "_Z13max_registersPKdPdi", emu_cfg(8, 1, 128, 1), a3);
    emu_read(e, dout_, ddo, sizeof dout_);
    bool fused = !strstr(corpus_arch(a), ".G"); /* -O3 contracts to fma.rn.f64; -G does not */
    for (int i = 0; i < N; i++) {
        double want = fused ? fma(din_[i], din_[(i + 1) % N], din_[(i + 2) % N])
                            : din_[i] * din_[(i + 1) % N] + din_[(i + 2) % N];
        if (dout_[i] != want)
            fail_msg("%s max_registers %d: %.17g, want %.17g", corpus_arch(a), i, dout_[i], want);
    }
}

static void test_clusters_cu(void **state)
{
    (void)state;
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "clusters", a);
        check_histogram(&e, a);
        check_ring(&e, a);
        check_bounded(&e, a);
        emu_close(&e);
    }
    /* the same with several host threads: whole clusters per thread */
    emu e;
    corpus_open(&e, "clusters", 2);
    enum { BLOCKS = 64 };
    static float in[BLOCKS * 128], out1[BLOCKS * 128], out4[BLOCKS * 128];
    for (int i = 0; i < BLOCKS * 128; i++)
        in[i] = (float)(i % 977);
    uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof out1);
    const void *args[] = {&din, &dout};
    emu_run(&e, "_Z12cluster_ringPKfPf", emu_cfg(BLOCKS, 1, 128, 1), args);
    emu_read(&e, out1, dout, sizeof out1);
    sim_launch_config cfg = emu_cfg(BLOCKS, 1, 128, 1);
    cfg.host_threads = 4;
    emu_run(&e, "_Z12cluster_ringPKfPf", cfg, args);
    emu_read(&e, out4, dout, sizeof out4);
    assert_memory_equal(out1, out4, sizeof out1);
    emu_close(&e);
}

/* A kernel without cluster directives: each thread writes its cluster
 * registers, thread 0 stores into the next rank's shared word, then all
 * arrive at and wait on the cluster barrier and read their own word
 * (written by the previous rank). Clusters come from the launch
 * configuration. */
static const char *const split_ptx = PTX_TEST_HEADER
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .pred %p<3>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 4 .b32 word;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
    "mad.lo.u32 %r4, %r2, %r3, %r1;\nmul.wide.u32 %rd2, %r4, 24;\nadd.u64 %rd3, %rd1, %rd2;\n"
    "mov.u32 %r5, %cluster_ctarank;\nmov.u32 %r6, %cluster_nctarank;\nmov.u32 %r7, %clusterid.x;\n"
    "mov.u32 %r8, %nclusterid.x;\nmov.u32 %r9, %cluster_ctaid.x;\nmov.u32 %r10, %is_explicit_cluster;\n"
    "st.global.v2.u32 [%rd3], {%r5, %r6};\nst.global.v2.u32 [%rd3+8], {%r7, %r8};\n"
    "st.global.u32 [%rd3+16], %r9;\n"
    "setp.eq.u32 %p1, %r1, 0;\n"
    "add.u32 %r11, %r5, 1;\nrem.u32 %r11, %r11, %r6;\n"
    "mov.u64 %rd4, word;\ncvta.shared.u64 %rd5, %rd4;\nmapa.u64 %rd6, %rd5, %r11;\n"
    "add.u32 %r12, %r2, 1000;\n"
    "@%p1 st.u32 [%rd6], %r12;\n"
    "barrier.cluster.arrive.aligned;\n"
    "barrier.cluster.wait.aligned;\n"
    "ld.shared.u32 %r13, [word];\n"
    "add.u32 %r13, %r13, %r10;\n"
    "st.global.u32 [%rd3+20], %r13;\n"
    "ret;\n}\n";

static void test_configured_clusters(void **state)
{
    (void)state;
    enum { BLOCKS = 12, THREADS = 64 };
    static uint32_t out[BLOCKS * THREADS * 6];
    const uint32_t sizes[] = {1, 2, 3, 4, 6, 12};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        uint32_t cs = sizes[k];
        emu e;
        emu_open_module(&e, ptx_test_parse(split_ptx));
        uint64_t dout = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&dout};
        sim_launch_config cfg = emu_cfg(BLOCKS, 1, THREADS, 1);
        cfg.cluster = (sim_dim3){cs, 1, 1};
        emu_run(&e, "k", cfg, args);
        emu_read(&e, out, dout, sizeof out);
        for (uint32_t b = 0; b < BLOCKS; b++)
            for (uint32_t t = 0; t < THREADS; t++) {
                const uint32_t *o = &out[(b * THREADS + t) * 6];
                uint32_t rank = b % cs, prev = b / cs * cs + (rank + cs - 1) % cs;
                uint32_t want[6] = {rank, cs, b / cs, BLOCKS / cs, rank, prev + 1000 + (cs > 1)};
                for (int i = 0; i < 6; i++)
                    if (o[i] != want[i])
                        fail_msg("clusters of %u: block %u thread %u value %d: %u, want %u", cs, b, t, i, o[i],
                                 want[i]);
            }
        emu_close(&e);
    }
}

/* Faults: a block that never reaches the cluster barrier, mapa beyond the
 * cluster, clusters larger than .maxclusterrank allows. */
static void test_cluster_faults(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse_body("",
        "mov.u32 %r1, %ctaid.x;\nsetp.eq.u32 %p1, %r1, 1;\n@%p1 bra DONE;\n"
        "barrier.cluster.arrive;\nbarrier.cluster.wait;\nDONE:\nret;"));
    uint64_t p = 0;
    const void *args[] = {&p};
    sim_launch_config cfg = emu_cfg(2, 1, 64, 1);
    cfg.cluster = (sim_dim3){2, 1, 1};
    /* block 1 exits: the cluster barrier completes with block 0 alone */
    emu_run(&e, "k", cfg, args);
    emu_close(&e);
    emu_open_module(&e, ptx_test_parse_body("",
        "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nsetp.eq.u32 %p1, %r1, 1;\nsetp.lt.u32 %p2, %r2, 32;\n"
        "and.pred %p3, %p1, %p2;\n@%p3 bra STUCK;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n"
        "STUCK:\nbar.sync 1, 64;\nret;"));
    /* block 1's first warp waits at a CTA barrier its second warp never
     * reaches; everyone else waits at the cluster barrier for that warp */
    assert_int_equal(emu_try(&e, "k", cfg, args), -1);
    if (!strstr(e.err, "barrier deadlock in kernel k, block (1,0,0)") ||
        !strstr(e.err, "3 warps of its cluster wait at barrier.cluster.wait"))
        fail_msg("%s", e.err);
    emu_close(&e);
    emu_open_module(&e, ptx_test_parse_body(".shared .b32 w;",
        "mov.u64 %rd1, w;\ncvta.shared.u64 %rd2, %rd1;\nmov.u32 %r1, %tid.x;\n"
        "mapa.u64 %rd3, %rd2, %r1;\nst.u32 [%rd3], 1;\nret;"));
    assert_int_equal(emu_try(&e, "k", cfg, args), -1);
    if (!strstr(e.err, "mapa to CTA rank 2 of a cluster of 2 blocks") || !strstr(e.err, "thread (2,0,0)"))
        fail_msg("%s", e.err);
    emu_close(&e);
    corpus_open(&e, "clusters", 2);
    float buf[16] = {0};
    uint64_t d = emu_buf(&e, buf, sizeof buf);
    int n = 16;
    const void *a1[] = {&d, &d, &n};
    sim_launch_config big = emu_cfg(16, 1, 32, 1);
    big.cluster = (sim_dim3){16, 1, 1};
    assert_int_equal(emu_try(&e, "_Z14launch_boundedPKfPfi", big, a1), -1);
    assert_non_null(strstr(e.err, "exceeds its .maxclusterrank 8"));
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clusters_cu),
        cmocka_unit_test(test_configured_clusters),
        cmocka_unit_test(test_cluster_faults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
