/* test_emu_profile.c — the execution profile: per-edge thread counts
 * against a per-thread C walk of the same control flow (Fung and Aamodt's
 * Example 2), flow conservation on every nvcc-compiled test kernel, the
 * profile-driven likely-convergence point the paper gives, and the dynamic
 * taint classes of divergent branches (Rhu, Sec. 4.4.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/dom.h"
#include "analysis/lpc.h"
#include "emulator/tests/emu_test.h"

/* Index of the edge from block a to block b in f->succs. */
static uint32_t edge(const ptx_function *f, uint32_t a, uint32_t b)
{
    for (uint32_t k = f->blocks[a].succ; k < f->blocks[a].succ + f->blocks[a].nsucc; k++)
        if (f->succs[k] == b)
            return k;
    fail_msg("no edge %u -> %u", a, b);
    return 0;
}

static void test_fung_example2(void **state)
{
    (void)state;
    enum { T = 64, K = 40 };
    uint32_t data[T + K];
    uint64_t seed = 11;
    for (int i = 0; i < T + K; i++) /* mostly "keep going", some 0 (store) and few 1 (break) */
        data[i] = (uint32_t)(emu_rand(&seed) % 16 == 0 ? 1 : emu_rand(&seed) % 3 == 0 ? 0 : 7);
    emu e;
    emu_open(&e, "hand/fung_example2.ptx");
    const ptx_function *f = &e.m->functions[0];
    uint64_t dd = emu_buf(&e, data, sizeof data), dr = emu_buf(&e, NULL, sizeof data);
    uint32_t k = K, y = 5;
    const void *args[] = {&dd, &dr, &k, &y};
    sim_profile *prof = sim_profile_new(e.p);
    sim_launch_config cfg = emu_cfg(1, 1, T, 1);
    cfg.profile = prof;
    emu_run(&e, "fung_example2", cfg, args);
    uint32_t n;
    const uint64_t *edges = sim_profile_edges(prof, 0, &n);
    assert_int_equal(n, f->nsuccs);
    /* reference: walk each thread through H A B C D E F */
    uint32_t H = label_block(e.m, f, "H"), A = label_block(e.m, f, "A"), B = label_block(e.m, f, "B"),
             C = label_block(e.m, f, "C"), D = label_block(e.m, f, "D"), E = label_block(e.m, f, "E"),
             F = label_block(e.m, f, "F");
    uint64_t *want = calloc(f->nsuccs, sizeof *want);
    for (int t = 0; t < T; t++) {
        want[edge(f, 0, H)]++;
        int i = t;
        for (;;) {
            if (i >= K) {
                want[edge(f, H, F)]++;
                break;
            }
            want[edge(f, H, A)]++;
            uint32_t x = data[i];
            if (x == 0) {
                want[edge(f, A, B)]++;
                want[edge(f, B, E)]++;
            } else {
                want[edge(f, A, C)]++;
                if (x == 1) {
                    want[edge(f, C, D)]++;
                    want[edge(f, D, F)]++;
                    break;
                }
                want[edge(f, C, E)]++;
            }
            want[edge(f, E, H)]++;
            i++;
        }
        want[edge(f, F, f->exit_block)]++;
    }
    for (uint32_t j = 0; j < n; j++)
        if (edges[j] != want[j])
            fail_msg("edge %u (%u -> ?): %llu threads, want %llu", j, j, (unsigned long long)edges[j],
                     (unsigned long long)want[j]);
    /* the profile-driven likely-convergence point of A's branch is E */
    ptx_domtree pdom;
    ptx_postdominators(f, &pdom);
    uint32_t *lpc = ptx_lpc_profile(f, &pdom, edges);
    uint32_t branch_a = f->blocks[A].end - 1;
    assert_int_equal(lpc[branch_a], f->blocks[E].first);
    /* dynamic taint: A's branch tests loaded data, H's a thread index */
    const sim_instr_profile *ip = sim_profile_instrs(prof, 0, &n);
    assert_true(ip[branch_a].divergent > 0);
    assert_int_equal(ip[branch_a].div_data, ip[branch_a].divergent);
    uint32_t branch_h = f->blocks[H].end - 1;
    assert_true(ip[branch_h].divergent > 0);
    assert_int_equal(ip[branch_h].div_prog, ip[branch_h].divergent);

    assert_true(ip[0].warp_execs == 2 && ip[0].thread_execs == T);
    free(lpc);
    ptx_domtree_free(&pdom);
    free(want);
    sim_profile_free(prof);
    emu_close(&e);
}

/* Every block's entering threads equal its leaving threads (the entry
 * block entered by every thread, the exit left by none), on each kernel
 * of emu_kernels.cu: the counts cover every path. */
static void test_flow_conservation(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, "ptx/emu_kernels.sm_80.O3.ptx");
    sim_profile *prof = sim_profile_new(e.p);
    enum { N = 300 };
    uint32_t start[N];
    for (int i = 0; i < N; i++)
        start[i] = (uint32_t)(i * 37 % 1000 + 1);
    uint64_t ds = emu_buf(&e, start, sizeof start), dk = emu_buf(&e, NULL, sizeof start);
    int n = N;
    const void *args[] = {&ds, &dk, &n};
    sim_launch_config cfg = emu_cfg(3, 1, 128, 1);
    cfg.profile = prof;
    cfg.host_threads = 2;
    emu_run(&e, "collatz", cfg, args);
    for (uint32_t fi = 0; fi < e.m->nfunctions; fi++) {
        const ptx_function *f = &e.m->functions[fi];
        uint32_t ne;
        const uint64_t *edges = sim_profile_edges(prof, fi, &ne);
        uint64_t *in = calloc(f->nblocks, sizeof *in), *out = calloc(f->nblocks, sizeof *out);
        for (uint32_t b = 0; b < f->nblocks; b++)
            for (uint32_t k = f->blocks[b].succ; k < f->blocks[b].succ + f->blocks[b].nsucc; k++) {
                out[b] += edges[k];
                in[f->succs[k]] += edges[k];
            }
        const char *name = ptx_function_name(e.m, f);
        uint64_t launched = strcmp(name, "collatz") == 0 ? 3 * 128 : 0;
        for (uint32_t b = 0; b < f->nblocks; b++) {
            uint64_t entering = in[b] + (b == 0 ? launched : 0);
            uint64_t leaving = b == f->exit_block ? entering : out[b];
            if (entering != leaving)
                fail_msg("%s block %u: %llu threads in, %llu out", name, b,
                         (unsigned long long)entering, (unsigned long long)leaving);
        }
        assert_int_equal(in[f->exit_block], launched);
        free(in);
        free(out);
    }
    sim_profile_free(prof);
    emu_close(&e);
}

/* Taint survives a spill to local memory, and a branch on a constant
 * loaded from .const memory counts as data. */
static void test_taint_classes(void **state)
{
    (void)state;
    static const char *text = PTX_TEST_HEADER
        ".const .align 4 .u32 limit = 7;\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\n.local .align 4 .b8 spill[4];\n"
        "mov.u32 %r1, %tid.x;\n"
        "and.b32 %r2, %r1, 1;\n"
        "st.local.u32 [spill], %r2;\n"
        "ld.local.u32 %r3, [spill];\n"
        "setp.eq.u32 %p1, %r3, 0;\n"
        "@%p1 bra ODD;\n"          /* P: a thread index through the stack */
        "add.s32 %r4, %r4, 1;\n"
        "ODD:\n"
        "ld.const.u32 %r5, [limit];\n"
        "setp.lt.u32 %p2, %r1, %r5;\n"
        "@%p2 bra SMALL;\n"        /* D: compares with loaded data */
        "add.s32 %r4, %r4, 2;\n"
        "SMALL:\n"
        "mov.u32 %r6, 3;\n"
        "setp.lt.u32 %p3, %r6, 2;\n"
        "@%p3 bra NEVER;\n"        /* untainted and uniform: never splits */
        "NEVER:\n"
        "ret;\n}\n";
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    sim_profile *prof = sim_profile_new(e.p);
    sim_launch_config cfg = emu_cfg(2, 1, 32, 1);
    cfg.profile = prof;
    uint64_t p = 0;
    const void *args[] = {&p};
    emu_run(&e, "k", cfg, args);
    uint32_t n;
    const sim_instr_profile *ip = sim_profile_instrs(prof, 0, &n);
    const ptx_function *f = &e.m->functions[0];
    unsigned seen = 0;
    for (uint32_t pc = 0; pc < n; pc++) {
        const ptx_instr *pi = &f->instrs[pc];
        if (e.m->forms[pi->form].opcode != PTX_OP_BRA)
            continue;
        seen++;
        if (seen == 1) {
            assert_int_equal(ip[pc].divergent, 2);
            assert_int_equal(ip[pc].div_prog, 2);
        } else if (seen == 2) {
            assert_int_equal(ip[pc].divergent, 2);
            assert_int_equal(ip[pc].div_data, 2);
        } else {
            assert_int_equal(ip[pc].divergent, 0);
            assert_int_equal(ip[pc].warp_execs, 2);
        }
    }
    assert_int_equal(seen, 3);
    sim_profile_free(prof);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fung_example2),
        cmocka_unit_test(test_flow_conservation),
        cmocka_unit_test(test_taint_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
