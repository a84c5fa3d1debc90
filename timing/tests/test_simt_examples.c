/* The papers' worked examples under the divergence mechanisms
 * (timing/simt.h), on the kernels of testdata/timing/simt/. Each kernel's
 * header derives, from the paper's text, how many times each of its basic
 * blocks A, B, ... issues as a warp under each mechanism; the tests count
 * the issues of each block's first instruction in the timing model's
 * per-line profile and compare. The kernels also record each thread's
 * path, checked against the paper's thread sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/tests/emu_test.h"
#include "timing/gpu.h"
#include "timing/tests/trace_support.h"

/* The PTX line of the first instruction after label `name` in file rel
 * (the kernels put every block's label on a line of its own). */
static uint32_t block_line(const char *rel, const char *name)
{
    char path[1024], want[32], line[512];
    snprintf(path, sizeof path, "%s/%s", getenv("SIMTLAB_TESTDATA"), rel);
    snprintf(want, sizeof want, "%s:\n", name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    uint32_t n = 0, found = 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        if (strcmp(line, want) == 0) {
            found = n + 1;
            break;
        }
    }
    fclose(f);
    if (!found)
        fail_msg("no label %s in %s", name, rel);
    return found;
}

/* Warp issues of the instruction at PTX line `line` of kernel function fi
 * in the last launch's profile. */
static uint64_t issues_at(const tm_gpu *gpu, uint32_t fi, uint32_t line)
{
    const sim_func *fn = &gpu->prog->funcs[fi];
    for (uint32_t pc = 0; pc < fn->ninstrs; pc++)
        if (fn->code[pc].line == line)
            return gpu->inst[fi] ? gpu->inst[fi][pc].issues : 0;
    fail_msg("no instruction at line %u", line);
    return 0;
}

/* run_example_set, recording every issue in *tr when tr is not NULL. */
static tm_kernel_stats run_example_traced(emu *e, const char *rel, const char *k, uint32_t threads,
                                          const void *const *args, const char *mech, const char *const *sets,
                                          const char *const *blocks, uint64_t *issues, uint32_t *depth, trace *tr)
{
    tm_config cfg;
    char err[512], opt[64];
    snprintf(opt, sizeof opt, "-simtlab_simt=%s", mech);
    if (tm_config_preset(&cfg, "QV100", err, sizeof err) != 0 || tm_config_set(&cfg, opt, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    for (uint32_t i = 0; sets && sets[i]; i++)
        if (tm_config_set(&cfg, sets[i], NULL, err, sizeof err) != 0)
            fail_msg("%s", err);
    tm_gpu *gpu = tm_gpu_new(&cfg, err, sizeof err);
    if (!gpu)
        fail_msg("tm_gpu_new: %s", err);
    if (tr) {
        tr->n = 0;
        gpu->on_issue = record_issue;
        gpu->on_issue_arg = tr;
    }
    uint32_t n, bytes;
    const sim_param_info *pi = sim_kernel_params(e->p, k, &n, &bytes, err, sizeof err);
    if (!pi)
        fail_msg("%s", err);
    uint8_t *buf = calloc(bytes + 1, 1);
    for (uint32_t i = 0; i < n; i++)
        memcpy(buf + pi[i].offset, args[i], pi[i].size);
    sim_launch_config lc = emu_cfg(1, 1, threads, 1);
    if (tm_gpu_launch(gpu, e->d, e->p, k, &lc, buf, bytes, NULL, err, sizeof err) != 0)
        fail_msg("%s under %s: %s", k, mech, err);
    free(buf);
    uint32_t fi = 0;
    while (fi < gpu->prog->m->nfunctions && strcmp(ptx_function_name(gpu->prog->m, &gpu->prog->m->functions[fi]), k))
        fi++;
    for (uint32_t b = 0; blocks[b]; b++)
        issues[b] = issues_at(gpu, fi, block_line(rel, blocks[b]));
    *depth = gpu->kernel.max_stack_depth;
    tm_kernel_stats ks = gpu->kernel;
    tm_gpu_free(gpu);
    return ks;
}

/* One launch of kernel k of file rel (one block of `threads` threads,
 * parameters `args`) on QV100 under mechanism mech, with the option
 * assignments `sets` too (NULL-terminated; NULL: none); the issues of the
 * first instruction of each block named in `blocks` go to issues[], the
 * launch's deepest stack to *depth; the kernel's statistics are returned.
 * The GPU is freed, e stays open. */
static tm_kernel_stats run_example_set(emu *e, const char *rel, const char *k, uint32_t threads, const void *const *args,
                                      const char *mech, const char *const *sets, const char *const *blocks,
                                      uint64_t *issues, uint32_t *depth)
{
    return run_example_traced(e, rel, k, threads, args, mech, sets, blocks, issues, depth, NULL);
}

/* run_example_set without option assignments. */
static tm_kernel_stats run_example(emu *e, const char *rel, const char *k, uint32_t threads, const void *const *args,
                                   const char *mech, const char *const *blocks, uint64_t *issues, uint32_t *depth)
{
    return run_example_set(e, rel, k, threads, args, mech, NULL, blocks, issues, depth);
}

/* The paths the n threads of a kernel of testdata/timing/simt/ recorded
 * in out: thread t plays the figure's thread 4 * (t / 32) + t % 4 + first
 * (lane j of hardware warp w is the figure's lane j % 4 of warp w), whose
 * path must be `set` where bit fig of `figure` is set, `clear` elsewhere. */
static void expect_paths(emu *e, uint64_t out, uint32_t n, uint32_t first, uint64_t figure, uint32_t set,
                         uint32_t clear)
{
    uint32_t *path = malloc(n * sizeof *path);
    emu_read(e, path, out, n * sizeof *path);
    for (uint32_t t = 0; t < n; t++) {
        uint32_t fig = 4 * (t / 32) + t % 4 + first;
        if (path[t] != ((figure >> fig & 1) ? set : clear))
            fail_msg("thread %u (the figure's %u) ran path %#x", t, fig, path[t]);
    }
    free(path);
}

/* Each block of `blocks` (NULL-terminated) issued as often as `want` says
 * under mechanism mech. */
static void expect_issues(const char *mech, const char *const *blocks, const uint64_t *got, const uint64_t *want)
{
    for (int b = 0; blocks[b]; b++)
        if (got[b] != want[b])
            fail_msg("%s: block %s issued %llu times, want %llu", mech, blocks[b], (unsigned long long)got[b],
                     (unsigned long long)want[b]);
}

/* Fung and Aamodt, HPCA 2011, Example 1 (Fig. 7), as
 * testdata/timing/simt/fung2011_example1.ptx replicates it over 32 lanes
 * (two warps of 32; lane j plays the figure's lane j % 4): per-warp PDOM
 * issues A 2, C 2, B 2, D 2 (8 warp-blocks); thread block compaction A 2,
 * C 1 (threads 1, 6, 7 compacted into one warp), B 2, D 2 (7: the paper's
 * "reduces the overall execution time by 12.5%"). Paths: figure threads
 * 1, 6, 7 run A C D (0x134), the others A B D (0x124). Rhu's warp counts
 * (thesis Sec. 4.1-4.2) over the four compactions (the start, C, B, D):
 * NW_NoTBC 2 + 2 + 2 + 2 = 8 (both static warps hold threads of C and of
 * B), NW_TBC 2 + 1 + 2 + 2 = 7, NW_ideal (the 24 threads of C, 40 of B,
 * 64 of A and D in warps of 32) 2 + 1 + 2 + 2 = 7; one synchronization,
 * at a branch on %tid (class P), which split the block. TBC+ does the
 * same (the branch is neither unconditional nor CTA-uniform). */
static void test_fung_example1(void **state)
{
    (void)state;
    static const char *const blocks[] = {"A", "C", "B", "D", NULL};
    const char *rel = "timing/simt/fung2011_example1.ptx";
    const struct { const char *mech; uint64_t want[4]; } runs[] = {
        {"pdom", {2, 2, 2, 2}}, {"tbc", {2, 1, 2, 2}}, {"tbc+", {2, 1, 2, 2}}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        emu e;
        emu_open(&e, rel);
        uint64_t out = emu_buf(&e, NULL, 64 * 4), issues[4];
        const void *args[] = {&out};
        uint32_t depth;
        tm_kernel_stats ks = run_example(&e, rel, "fung_example1", 64, args, runs[r].mech, blocks, issues, &depth);
        tm_simt_counts n = ks.sm.simt;
        /* both warps issue A's branch and each splits (threads 1 | 2,3,4 and 6,7 | 5,8, under
         * every mechanism: the static warps reach it); B and C both hold instructions before
         * D, the reconvergence point: interleavable (Rhu's thesis, Sec. 3.3) */
        assert_int_equal(ks.sm.divergent_branches, 2);
        assert_int_equal(ks.sm.divergent_interleavable, 2);
        if (strcmp(runs[r].mech, "pdom") != 0) {
            assert_int_equal(n.nw_static, 8);
            assert_int_equal(n.nw_compacted, 7);
            assert_int_equal(n.nw_ideal, 7);
            assert_int_equal(n.syncs, 1);
            assert_int_equal(n.divergent[1], 1); /* P */
            assert_int_equal(n.divergent[0] + n.divergent[2], 0);
        }
        expect_issues(runs[r].mech, blocks, issues, runs[r].want);
        expect_paths(&e, out, 64, 1, 1u << 1 | 1u << 6 | 1u << 7, 0x134u, 0x124u);
        emu_close(&e);
    }
}

/* Example 1 (fung2011_example1.ptx, two warps) under dynamic warp
 * formation (Fung and Aamodt, HPCA 2011, Sec. 2.3-2.4; timing/simt_dwf.c).
 * A: 2 issues (the two static warps' threads keep colliding in their
 * lanes). At the branch each warp's taken threads merge into the pool's
 * entry for C (figure lanes 0 | 1, 2: 24 threads, mask 0x77777777, which
 * neither warp holds alone) and the not-taken ones into the entries for B
 * (figure lanes 1, 2, 3 of W1 and 0, 3 of W2: lane 3 is taken twice, so 2
 * entries). Majority scheduling picks B (40 threads) over C (24), and C's
 * entry, never the majority while W2's threads are on their way, takes
 * them all: C issues once. DWF-WB: each warp's divergence sets its warp
 * barrier at D (the branch's reconvergence point); the threads regroup
 * in B and C as under DWF and wait at D until their warp is whole, so D
 * issues as the two static warps (full masks, slots 0 and 1), one
 * re-formation per warp; 7 warp-blocks in all, TBC's count. Under plain
 * DWF, D's count depends on whether B's two entries reach D together
 * (the starvation eddy of the paper's Fig. 1(a) makes it 3), so only A,
 * B and C are fixed. Paths are the baseline's under both. */
static void test_fung_example1_dwf(void **state)
{
    (void)state;
    static const char *const blocks[] = {"A", "C", "B", "D", NULL};
    const char *rel = "timing/simt/fung2011_example1.ptx";
    static trace tr;
    for (int wb = 0; wb < 2; wb++) {
        const char *mech = wb ? "dwf-wb" : "dwf";
        emu e;
        emu_open(&e, rel);
        uint64_t out = emu_buf(&e, NULL, 64 * 4), issues[4];
        const void *args[] = {&out};
        uint32_t depth;
        tm_kernel_stats ks =
            run_example_traced(&e, rel, "fung_example1", 64, args, mech, NULL, blocks, issues, &depth, &tr);
        uint64_t want[4] = {2, 1, 2, wb ? 2 : issues[3]};
        expect_issues(mech, blocks, issues, want);
        assert_int_equal(ks.sm.simt.syncs, wb ? 2 : 0);
        uint32_t c_line = block_line(rel, "C"), d_line = block_line(rel, "D"), c_seen = 0, d_slots = 0;
        for (uint32_t i = 0; i < tr.n; i++) {
            const tm_issue_event *ev = &tr.ev[i];
            uint32_t line = e.p->funcs[ev->fn].code[ev->pc].line;
            if (line == c_line) {
                assert_int_equal(ev->mask, 0x77777777u);
                c_seen++;
            }
            if (wb && line == d_line) {
                assert_int_equal(ev->mask, 0xffffffffu);
                d_slots |= 1u << ev->cta_slot;
            }
        }
        assert_int_equal(c_seen, 1);
        if (wb)
            assert_int_equal(d_slots, 0x3);
        expect_paths(&e, out, 64, 1, 1u << 1 | 1u << 6 | 1u << 7, 0x134u, 0x124u);
        emu_close(&e);
    }
}

/* Fung and Aamodt, HPCA 2011, Example 2 (Fig. 10): a loop with a break,
 * one warp (testdata/timing/simt/fung2011_example2.ptx, lane j plays the
 * figure's thread j % 4 + 1). Thread 1 runs A B E, thread 2 A C E (both
 * stay in the loop), threads 3, 4 A C D and break to F; the second
 * iteration (K = 2) has threads 1 and 2 run A B E. Under PDOM they run E
 * and the second iteration apart: A 3, B 3, C 1, D 1, E 4, F 1. With the
 * likely-convergence point E (the paper's steps (1)-(10); the entries
 * pushed at C share the likely-convergence entry pushed at A), they run
 * them together: A 2, B 2, C 1, D 1, E 2, F 1. Thread block compaction
 * of a one-warp block issues as PDOM does, and with likely-convergence
 * entries on its block-wide stack (TBC-LPC) as PDOM with them. Deepest
 * stacks, the same for the block-wide ones (an entry whose
 * reconvergence point is the new branch's is replaced, as GPGPU-Sim's
 * stack does): PDOM {F} {B} {C}, at C {C} gives way to {D} {E}: 4;
 * with LPC {F} {LC E} {B} {C}, then {D} {E} in place of {C}: 5. A
 * large warp of one warp (the block) is the warp with its PDOM stack:
 * its sub-warps are the warp's active lanes. */
static void test_fung_example2(void **state)
{
    (void)state;
    static const char *const blocks[] = {"A", "B", "C", "D", "E", "F", NULL};
    const char *rel = "timing/simt/fung2011_example2.ptx";
    const struct { const char *mech; uint64_t want[6]; uint32_t depth; } runs[] = {
        {"pdom", {3, 3, 1, 1, 4, 1}, 4}, {"pdom-lpc", {2, 2, 1, 1, 2, 1}, 5}, {"tbc", {3, 3, 1, 1, 4, 1}, 4},
        {"tbc-lpc", {2, 2, 1, 1, 2, 1}, 5}, {"lwm", {3, 3, 1, 1, 4, 1}, 4}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        emu e;
        emu_open(&e, rel);
        const uint32_t data[8] = {0, 2, 1, 1, 0, 0, 0, 0};
        uint64_t out = emu_buf(&e, NULL, 32 * 4), din = emu_buf(&e, data, sizeof data), res = emu_buf(&e, NULL, 32);
        uint32_t k = 2, y = 7;
        const void *args[] = {&out, &din, &res, &k, &y};
        uint64_t issues[6];
        uint32_t depth;
        tm_kernel_stats ks = run_example(&e, rel, "fung_example2", 32, args, runs[r].mech, blocks, issues, &depth);
        /* the warp splits once at A (first iteration) and once at C; both branches have
         * instructions on both sides before F: interleavable (the loop branch never splits) */
        assert_int_equal(ks.sm.divergent_branches, 2);
        assert_int_equal(ks.sm.divergent_interleavable, 2);
        expect_issues(runs[r].mech, blocks, issues, runs[r].want);
        assert_int_equal(depth, runs[r].depth);
        uint32_t path[32];
        emu_read(&e, path, out, sizeof path);
        for (uint32_t t = 0; t < 32; t++)
            assert_int_equal(path[t], t % 4 == 0 ? 0x1251256u : t % 4 == 1 ? 0x1351256u : 0x1346u);
        emu_close(&e);
    }
}

/* Fung and Aamodt, HPCA 2011, Fig. 9 (Sec. 3.3), as
 * testdata/timing/simt/fung2011_fig9.ptx replicates it over 32 lanes
 * (three warps of 32; lane j plays the figure's lane j % 4, figure
 * thread 4w + j % 4 + 1): C = {2,5,7,9,12}, B = the other seven (the
 * header's reconstruction of the outcomes the figure lost). Every warp
 * diverges, so per-warp PDOM issues A 3, C 3, B 3, D 3 (12 warp-blocks).
 * Thread block compaction: the C mask holds lane counts (2,1,1,1), so 2
 * warps; B's (1,2,2,2), 2 warps; D recompacts the whole block into the 3
 * static warps: A 3, C 2, B 2, D 3 (10). TBC+ the same (the one
 * conditional branch is on %tid; `bra.uni D` is not synchronized by
 * either). Warp counts over the four compactions (the start, C, B, D):
 * NW_NoTBC 3 + 3 + 3 + 3 = 12 (every static warp holds threads of both
 * sides), NW_TBC 3 + 2 + 2 + 3 = 10, NW_ideal (96, 40, 56 and 96 threads
 * in warps of 32) 3 + 2 + 2 + 3 = 10. Paths: threads of C run A C D
 * (0x134), the others A B D (0x124). */
static void test_fung_fig9(void **state)
{
    (void)state;
    static const char *const blocks[] = {"A", "C", "B", "D", NULL};
    const char *rel = "timing/simt/fung2011_fig9.ptx";
    const struct { const char *mech; uint64_t want[4]; } runs[] = {
        {"pdom", {3, 3, 3, 3}}, {"tbc", {3, 2, 2, 3}}, {"tbc+", {3, 2, 2, 3}}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        emu e;
        emu_open(&e, rel);
        uint64_t out = emu_buf(&e, NULL, 96 * 4), lat = emu_buf(&e, NULL, 256), issues[4];
        const void *args[] = {&out, &lat};
        uint32_t depth;
        tm_kernel_stats ks = run_example(&e, rel, "fung_fig9", 96, args, runs[r].mech, blocks, issues, &depth);
        tm_simt_counts n = ks.sm.simt;
        assert_int_equal(ks.sm.divergent_branches, 3); /* each static warp splits at A's branch */
        assert_int_equal(ks.sm.divergent_interleavable, 3);
        if (strcmp(runs[r].mech, "pdom") != 0) {
            assert_int_equal(n.nw_static, 12);
            assert_int_equal(n.nw_compacted, 10);
            assert_int_equal(n.nw_ideal, 10);
            assert_int_equal(n.syncs, 1);
            assert_int_equal(n.divergent[1], 1); /* P */
        }
        expect_issues(runs[r].mech, blocks, issues, runs[r].want);
        expect_paths(&e, out, 96, 1, 0x12A4u, 0x134u, 0x124u);
        emu_close(&e);
    }
}

/* Rhu's thesis, Figs. 4.1-4.3 (Sec. 4.1), as
 * testdata/timing/simt/rhu2014_fig4_2.ptx replicates it over 32 lanes
 * (figure thread 4w + j % 4 for lane j of warp w): BR_B-C sends {7, A} to
 * B (true side) and the other ten to C; BR_D-E sends {1,4,6,8,B} to D and
 * {0,2,3,5,9} to E (the header's reconstruction). The stack trace (a)-(k)
 * in the header gives per block: TBC A 3, B 1 (Fig. 4.2(e): [-,-,A,7]), C 3
 * (Fig. 4.3: threads 0, 4, 8 share lane 0), D 2, E 2, F 3, G 3 (17); per-
 * warp PDOM (No_TBC) A 3, B 2, C 3, D 3, E 3, F 3, G 3 (20). The deepest
 * block-wide stack holds 4 entries (step (g): the block's, C's waiting
 * at F, E's and D's). Warp counts over the seven compactions (the start,
 * B, C, D, E, F, G): NW_NoTBC 3 + 2 + 3 + 3 + 3 + 3 + 3 = 20, NW_TBC
 * 3 + 1 + 3 + 2 + 2 + 3 + 3 = 17, NW_ideal (16 threads in B, 80 in C, 40
 * each in D and E) 3 + 1 + 3 + 2 + 2 + 3 + 3 = 17. Two synchronizations,
 * both divergent, both on %tid (P). Divergent warps: W1 and W2 at BR_B-C,
 * then three at BR_D-E (the static warps under PDOM; C's compacted warps
 * [0123] [456B] [89--] under TBC, each split), all interleavable. */
static void test_rhu_fig4_2(void **state)
{
    (void)state;
    static const char *const blocks[] = {"A", "B", "C", "D", "E", "F", "G", NULL};
    const char *rel = "timing/simt/rhu2014_fig4_2.ptx";
    const struct { const char *mech; uint64_t want[7]; } runs[] = {
        {"pdom", {3, 2, 3, 3, 3, 3, 3}}, {"tbc", {3, 1, 3, 2, 2, 3, 3}}, {"tbc+", {3, 1, 3, 2, 2, 3, 3}}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        emu e;
        emu_open(&e, rel);
        uint64_t out = emu_buf(&e, NULL, 96 * 4), issues[7];
        const void *args[] = {&out};
        uint32_t depth;
        tm_kernel_stats ks = run_example(&e, rel, "rhu_fig4_2", 96, args, runs[r].mech, blocks, issues, &depth);
        tm_simt_counts n = ks.sm.simt;
        assert_int_equal(ks.sm.divergent_branches, 5);
        assert_int_equal(ks.sm.divergent_interleavable, 5);
        if (strcmp(runs[r].mech, "pdom") != 0) {
            assert_int_equal(depth, 4);
            assert_int_equal(n.nw_static, 20);
            assert_int_equal(n.nw_compacted, 17);
            assert_int_equal(n.nw_ideal, 17);
            assert_int_equal(n.syncs, 2);
            assert_int_equal(n.divergent[1], 2); /* P */
        }
        expect_issues(runs[r].mech, blocks, issues, runs[r].want);
        uint32_t path[96];
        emu_read(&e, path, out, sizeof path);
        for (uint32_t t = 0; t < 96; t++) {
            uint32_t fig = 4 * (t / 32) + t % 4;
            uint32_t want = (0x480u >> fig & 1) ? 0x127u : (0x952u >> fig & 1) ? 0x13467u : 0x13567u;
            assert_int_equal(path[t], want);
        }
        emu_close(&e);
    }
}

/* CAPRI on Rhu's Figs. 4.7-4.9 (Sec. 4.2.2), as
 * testdata/timing/simt/rhu2014_fig4_8.ptx replicates it over 32 lanes,
 * two iterations of the loop (iters = 2). BR_B-C: W0 goes whole to B, W1
 * sends {4,7} to B and {5,6} to C, W2 {8,9} to B and {A,B} to C. The
 * header's trace, under the 1b-latest table: first instance, W0 bypasses
 * (not divergent), the first of W1, W2 to arrive misses the table
 * (allocated adequate: it waits), the second hits it, adequate, and
 * waits; the compaction unit forms B's W1/W2 threads into "49-7" and
 * "8---" beside W0 (B runs 3 warps), C's into "-56B", "--A-" (2); the
 * predictor finds B needs 3 warps with 3 active, C 2 with 2: inadequate,
 * the history becomes 0. Second instance: W0 bypasses, W1 and W2 hit the
 * entry with history 0 and bypass: B runs W0, W1's and W2's B lanes (3),
 * C their C lanes (2); the verdict is inadequate again. So: blocks A 6,
 * B 6, C 4, G 6; warps that went on without waiting 1 + 3 = 4; table
 * predictions 1 (wrong: adequate) + 2 (right: inadequate) = 3, 2
 * correct, 1 miss; 2 synchronizations, both divergent, P. Warp counts
 * over the compactions (the start, then B, C, G per instance; a bypassing
 * warp counts as a warp of its path's entry): NW_TBC 3 + 2 x (3 + 2 + 3)
 * = 19, NW_NoTBC the same (every path's threads come from that many
 * static warps), NW_ideal 3 + 2 x (2 + 1 + 3) = 15 (64 threads in B, 32
 * in C). The 2-bit counter (allocated at 2, timing/capt.h) does the
 * same here: the first verdict takes it to 1, inadequate, so W1 and W2
 * bypass the second instance. Cost-effective CAPRI and the 1b-sticky
 * table make W1 and W2 wait at both instances, only W0 goes on: 2
 * bypasses; 1bS allocates once (1 miss) and predicts adequate after,
 * wrongly each time (3 predictions, 0 correct); the cost-effective form
 * has no table. Every variant, TBC+ too, issues the same blocks:
 * compaction gains nothing here (the thesis's point: CAPRI saves only
 * the waiting). */
static void test_rhu_fig4_8_capri(void **state)
{
    (void)state;
    static const char *const blocks[] = {"A", "B", "C", "G", NULL};
    const char *rel = "timing/simt/rhu2014_fig4_8.ptx";
    const struct {
        const char *mech;
        uint64_t bypassed, predictions, correct, misses;
    } runs[] = {{"capri", 4, 3, 2, 1},      {"capri-2bit", 4, 3, 2, 1}, {"capri-1bs", 2, 3, 0, 1},
                {"capri-ce", 2, 0, 0, 0}, {"tbc+", 0, 0, 0, 0}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        emu e;
        emu_open(&e, rel);
        uint64_t out = emu_buf(&e, NULL, 96 * 4), lat = emu_buf(&e, NULL, 256), issues[4];
        uint32_t iters = 2;
        const void *args[] = {&out, &lat, &iters};
        uint32_t depth;
        tm_kernel_stats ks = run_example(&e, rel, "rhu_fig4_8", 96, args, runs[r].mech, blocks, issues, &depth);
        tm_simt_counts n = ks.sm.simt;
        const uint64_t want[4] = {6, 6, 4, 6};
        expect_issues(runs[r].mech, blocks, issues, want);
        assert_int_equal(n.syncs, 2);
        assert_int_equal(n.divergent[1], 2);
        assert_int_equal(n.nw_compacted, 19);
        assert_int_equal(n.nw_static, 19);
        assert_int_equal(n.nw_ideal, 15);
        assert_int_equal(n.bypassed, runs[r].bypassed);
        assert_int_equal(n.predictions, runs[r].predictions);
        assert_int_equal(n.predictions_correct, runs[r].correct);
        assert_int_equal(n.capt_misses, runs[r].misses);
        expect_paths(&e, out, 96, 0, 0x39Fu, 0x127127u, 0x137137u);
        emu_close(&e);
    }
}

/* TBC synchronizes at every branch not written .uni (Fung and Aamodt);
 * TBC+ (Rhu's thesis, Sec. 4.1.4) not at unconditional branches nor at
 * branches that cannot diverge, here one on a kernel parameter (CTA-
 * uniform by the analyzer). The kernel: `@p1 bra BIG` on n > 5 (the
 * parameter), else an unconditional `bra JOIN` (not .uni); then `@p2 bra
 * LOW` on %tid < 16, which splits the block. With n = 9 every thread
 * takes BIG: TBC synchronizes at the two conditional branches (2), TBC+
 * only at the second (1). With n = 3 the threads also run `bra JOIN`:
 * TBC 3, TBC+ 1. Either way one synchronization split the block, at a P
 * branch (%tid), and out[t] = (n > 5 ? 2 : 1) + (t < 16 ? 0 : 10). */
static void test_tbc_plus_skips_uniform_branches(void **state)
{
    (void)state;
    static const char text[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
        ".reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
        "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1; ld.param.u32 %r1, [n];\n"
        "mov.u32 %r2, %tid.x; setp.gt.u32 %p1, %r1, 5;\n"
        "@%p1 bra BIG;\nmov.u32 %r3, 1;\nbra JOIN;\nBIG:\nmov.u32 %r3, 2;\n"
        "JOIN:\nsetp.lt.u32 %p2, %r2, 16;\n@%p2 bra LOW;\nadd.u32 %r3, %r3, 10;\n"
        "LOW:\nmul.wide.u32 %rd2, %r2, 4; add.s64 %rd2, %rd1, %rd2; st.global.u32 [%rd2], %r3;\nret;\n}\n";
    const struct { const char *mech; uint32_t n; uint64_t syncs; } runs[] = {
        {"tbc", 9, 2}, {"tbc+", 9, 1}, {"tbc", 3, 3}, {"tbc+", 3, 1}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint64_t out = emu_buf(&e, NULL, 64 * 4);
        const void *args[] = {&out, &runs[r].n};
        static const char *const none[] = {NULL};
        uint32_t depth;
        tm_kernel_stats ks = run_example(&e, NULL, "k", 64, args, runs[r].mech, none, NULL, &depth);
        tm_simt_counts c = ks.sm.simt;
        /* `@%p2 bra LOW` splits warp 0 (lanes 0-15 | 16-31); LOW is its
         * reconvergence point: not interleavable */
        assert_int_equal(ks.sm.divergent_branches, 1);
        assert_int_equal(ks.sm.divergent_interleavable, 0);
        assert_int_equal(c.syncs, runs[r].syncs);
        assert_int_equal(c.divergent[1], 1);
        uint32_t got[64];
        emu_read(&e, got, out, sizeof got);
        for (uint32_t t = 0; t < 64; t++)
            assert_int_equal(got[t], (runs[r].n > 5 ? 2u : 1u) + (t < 16 ? 0u : 10u));
        emu_close(&e);
    }
}

/* SIMD lane permutation on TBC (Rhu's thesis, Sec. 4.3, Fig. 4.19(b),(c)),
 * testdata/timing/simt/rhu2014_fig4_19.ptx at W = 32, 4 warps of 32:
 * slp_even_lanes sends the even logical lanes of every warp to B, the odd
 * ones to C; slp_first_half lanes 0-15 to B, 16-31 to C. Lane-preserving
 * compaction of a path's 64 threads (16 per warp) needs as many warps as
 * the busiest physical lane has threads: the file's header derives, per
 * permutation, B and C: none 4 and 4 for both; Odd_Even 2, 2 for the even
 * lanes, 4, 4 for the first half; Rev_WID the other way round; Balanced
 * 2, 2 for both; TBC_ideal, whose threads may change lanes, 2, 2 for both
 * (Eq. 4.1: ceil(64 / 32)). NW_TBC adds the 4 warps of the start and of D: 4 + B + C
 * + 4. The permutation changes no result: out[t] = 0x124 on B, 0x134 on
 * C. */
static void test_slp_on_tbc(void **state)
{
    (void)state;
    const char *rel = "timing/simt/rhu2014_fig4_19.ptx";
    static const char *const none[] = {NULL};
    const struct { const char *mech, *slp; uint64_t even[2], half[2]; } runs[] = {
        {"tbc", "none", {4, 4}, {4, 4}},       {"tbc", "odd_even", {2, 2}, {4, 4}},
        {"tbc", "rev_wid", {4, 4}, {2, 2}},    {"tbc", "balanced", {2, 2}, {2, 2}},
        {"tbc-ideal", "none", {2, 2}, {2, 2}}}; /* TBC_ideal: 64 threads a path, in 2 warps whatever their lanes */
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++)
        for (int kind = 0; kind < 2; kind++) {
            emu e;
            emu_open(&e, rel);
            uint64_t out = emu_buf(&e, NULL, 128 * 4);
            const void *args[] = {&out};
            char set[64];
            snprintf(set, sizeof set, "-simtlab_slp=%s", runs[r].slp);
            uint32_t depth;
            const char *const sets[] = {set, NULL};
            tm_simt_counts c = run_example_set(&e, rel, kind ? "slp_first_half" : "slp_even_lanes", 128, args,
                                               runs[r].mech, sets, none, NULL, &depth).sm.simt;
            const uint64_t *bc = kind ? runs[r].half : runs[r].even;
            if (c.nw_compacted != 4 + bc[0] + bc[1] + 4)
                fail_msg("%s, %s: NW_TBC %llu, want %llu", runs[r].slp, kind ? "first half" : "even lanes",
                         (unsigned long long)c.nw_compacted, (unsigned long long)(8 + bc[0] + bc[1]));
            assert_int_equal(c.nw_static, 16);
            assert_int_equal(c.nw_ideal, 4 + 2 + 2 + 4);
            uint32_t got[128];
            emu_read(&e, got, out, sizeof got);
            for (uint32_t t = 0; t < 128; t++) {
                bool on_b = kind ? t % 32 < 16 : t % 2 == 0;
                assert_int_equal(got[t], on_b ? 0x124u : 0x134u);
            }
            emu_close(&e);
        }
    /* the kernel-level disable bit: the same even-lanes split made by a
     * D-branch (on a loaded flag), 4 warps of 32: none 4 + 4 + 4 + 4 =
     * 16, Balanced 4 + 2 + 2 + 4 = 12 when applied; the kernel's one
     * classified branch is D (100% > the default 50%): not applied, 16;
     * with -simtlab_slp_max_d_percent=100 applied again, 12. */
    static const char text[] =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".visible .entry k(.param .u64 out, .param .u64 flags)\n{\n"
        ".reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<5>;\n"
        "ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd1, %rd1; ld.param.u64 %rd2, [flags];\n"
        "cvta.to.global.u64 %rd2, %rd2; mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 4;\n"
        "add.s64 %rd4, %rd2, %rd3; ld.global.u32 %r2, [%rd4]; setp.ne.u32 %p1, %r2, 0;\n"
        "mov.u32 %r3, 1;\n@%p1 bra B;\nmov.u32 %r3, 3;\nbra.uni D;\nB:\nmov.u32 %r3, 2;\n"
        "D:\nadd.s64 %rd4, %rd1, %rd3; st.global.u32 [%rd4], %r3;\nret;\n}\n";
    const struct { const char *sets[3]; uint64_t nw; } bits[] = {
        {{"-simtlab_slp=none", NULL}, 16},
        {{"-simtlab_slp=balanced", NULL}, 16},
        {{"-simtlab_slp=balanced", "-simtlab_slp_max_d_percent=100", NULL}, 12}};
    for (size_t r = 0; r < sizeof bits / sizeof *bits; r++) {
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint32_t flags[128];
        for (uint32_t t = 0; t < 128; t++)
            flags[t] = t % 2 == 0;
        uint64_t out = emu_buf(&e, NULL, sizeof flags), din = emu_buf(&e, flags, sizeof flags);
        const void *args[] = {&out, &din};
        uint32_t depth;
        tm_simt_counts c = run_example_set(&e, NULL, "k", 128, args, "tbc", bits[r].sets, none, NULL, &depth).sm.simt;
        assert_int_equal(c.nw_compacted, bits[r].nw);
        uint32_t got[128];
        emu_read(&e, got, out, sizeof got);
        for (uint32_t t = 0; t < 128; t++)
            assert_int_equal(got[t], t % 2 == 0 ? 2u : 3u);
        emu_close(&e);
    }
}

/* Narasiman's thesis, Fig. 4.5 (Sec. 4.2.1; 4.2.3-4.2.5), as
 * testdata/timing/simt/narasiman_fig4_5.ptx scales it to a 256-thread
 * large warp on 32 lanes (its header derives every count below): block A
 * and D run with all 256 threads, 8 sub-warps per instruction; B's 15 x 8
 * threads pack into 4 sub-warps for the mad (3 full, the last 24 lanes:
 * the figure's masks 1111 1111 1111 1110), C's 17 x 8 into 5 (the last 8
 * lanes); the global stores form a sub-warp per row (B rows of 16, 16,
 * 24, 8, 16, 16, 8, 16 threads; C the complement) and the jump ending C
 * issues once (32 lanes). Lane histogram: W32 15 x 8 (A) + 3 + 4 + 1 + 3 x
 * 8 (D) = 152, W24 1 + 1 + 2 = 4, W16 5 + 5 = 10, W8 2 + 1 + 1 = 4. Per
 * instruction NW_NoTBC (the rows with an active thread) sums to 184,
 * NW_TBC (sub-warps issued) 170, NW_ideal (ceil(threads / 32)) 167. PDOM
 * issues 8 warps for every instruction. Without the memory rule the
 * stores pack as the mads (4 and 5: 163 sub-warps); without the jump rule
 * the jump issues 5 (174). The stack is 3 deep (the join entry at D,
 * C's, B's) under both. Paths: the figure's 15 threads A B D (0x124),
 * the others A C D (0x134). */
static void test_narasiman_fig4_5(void **state)
{
    (void)state;
    static const char *const blocks[] = {"A", "B", "C", "D", NULL};
    const char *rel = "timing/simt/narasiman_fig4_5.ptx";
    static const char *const no_mem[] = {"-simtlab_lwm_mem_rows=0", NULL}, *const no_jump[] = {"-simtlab_lwm_jump_once=0", NULL};
    const struct {
        const char *mech;
        const char *const *sets;
        uint64_t want[4], nw_compacted;
    } runs[] = {{"pdom", NULL, {8, 8, 8, 8}, 0}, {"lwm", NULL, {8, 4, 5, 8}, 170},
                {"lwm", no_mem, {8, 4, 5, 8}, 163}, {"lwm", no_jump, {8, 4, 5, 8}, 174}};
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        emu e;
        emu_open(&e, rel);
        uint64_t out = emu_buf(&e, NULL, 256 * 4), issues[4];
        const void *args[] = {&out};
        uint32_t depth;
        tm_kernel_stats ks =
            run_example_set(&e, rel, "narasiman_fig4_5", 256, args, runs[r].mech, runs[r].sets, blocks, issues, &depth);
        expect_issues(runs[r].mech, blocks, issues, runs[r].want);
        assert_int_equal(depth, 3); /* the entry at D, then C's and B's */
        tm_simt_counts n = ks.sm.simt;
        assert_int_equal(n.nw_compacted, runs[r].nw_compacted);
        if (runs[r].nw_compacted) {
            assert_int_equal(n.nw_static, 184);
            assert_int_equal(n.nw_ideal, 167);
            assert_int_equal(n.syncs, 1); /* the conditional branch ending A */
            assert_int_equal(n.divergent[1], 1); /* class P */
            assert_int_equal(ks.sm.warp_insts, runs[r].nw_compacted);
        }
        if (r == 1) {
            const uint64_t *d = ks.sm.distro + TM_DISTRO_W1;
            assert_int_equal(d[31], 152);
            assert_int_equal(d[23], 4);
            assert_int_equal(d[15], 10);
            assert_int_equal(d[7], 4);
        }
        expect_paths(&e, out, 256, 0, 0x31C62E59u, 0x124u, 0x134u);
        emu_close(&e);
    }
}

/* The issue of kernel instruction pc in trace tr (its first, and the
 * only one here: the kernel has no loop). */
static const tm_issue_event *issue_of(const trace *tr, uint32_t pc)
{
    for (uint32_t i = 0; i < tr->n; i++)
        if (tr->ev[i].pc == pc)
            return &tr->ev[i];
    fail_msg("instruction %u never issued", pc);
    return NULL;
}

/* Rhu's thesis, the CFG of Fig. 2.6 under single-path execution (SPE,
 * Fig. 3.1) and dual-path execution (DPE, Figs. 3.3-3.6), as
 * testdata/timing/simt/rhu2014_fig2_6.ptx holds it (its header derives
 * what follows; blocks by pc: A 0-17, C 18-21, E 22-25, D 26-28, F 29-32,
 * B 33-36, G 37-41). Every memory access takes the same time
 * (-gpgpu_perfect_mem) and fetch never misses, so a load's dependent
 * instruction waits the same latency whichever path issues it.
 *  - Both issue every instruction once with its block's mask (DPE keeps
 *    SPE's reconvergence): B 0x33333333, C 0xCCCCCCCC, D 0x44444444, E
 *    0x88888888, F 0xCCCCCCCC, A and G all lanes.
 *  - SPE runs one path at a time in the thesis's order A B C D E F G, from
 *    one warp slot, with a stack 4 deep ({G} {C} {B}, then {F} {E} {D}).
 *  - DPE runs B and C interleaved from the warp's two slots (C issues
 *    between B's first and last instruction); its stack is 3 dual entries
 *    deep; Avg_Path lies between 1 and 2.
 *  - C's `add r5, r0, r2` waits for A's `load r0` (a write pending at the
 *    divergence, shadowed for the right path) exactly as long as B's
 *    store of r1 waits for B's own `load r1`: the load-to-use latency.
 *  - B's `load r1` is still pending when C diverges at BR_D-E (it issued
 *    after A's load, C waited only for that one), so D's `add r4, r1, r3`
 *    and E's `sub r4, r1, r3` both wait for it (the thesis's false
 *    dependency): neither issues before B's store of r1 could.
 *  - D and E both write r4 on different scoreboards: they issue within
 *    less than an add's latency of each other.
 *  - G's `add r8, r1, r7` waits for F's `load r7` (the right path's write
 *    pending at the reconvergence) the load-to-use latency.
 * With the constrained scheduler (Sec. 3.2.3: one path shown, turned at
 * long-latency instructions) B's `load r1` turns the warp to C, whose
 * side then runs C and D (no long-latency instruction there); E follows
 * when D is done, and B's next instruction only after E's block: the same
 * masks and depth, less overlap. */
static void test_rhu_fig2_6(void **state)
{
    (void)state;
    const char *rel = "timing/simt/rhu2014_fig2_6.ptx";
    static const char *const blocks[] = {"A", "B", "C", "D", "E", "F", "G", NULL};
    static const char *const sets[] = {"-gpgpu_perfect_mem=1", "-gpgpu_l1_latency=200", "-gpgpu_cache:il1=none", NULL};
    enum { A_LD = 11, BR_BC = 17, C_ADD = 18, BR_DE = 21, E_SUB = 22, D_ADD = 26, F_LD = 29, B_LD = 33, B_ST = 36,
           G_ADD = 37, NPC = 42 };
    static const uint32_t first[] = {0, 18, 22, 26, 29, 33, 37, NPC}; /* A C E D F B G */
    static const uint32_t block_mask[] = {~0u, 0xCCCCCCCCu, 0x88888888u, 0x44444444u, 0xCCCCCCCCu, 0x33333333u, ~0u};
    tm_config cfg;
    char err[256];
    if (tm_config_preset(&cfg, "QV100", err, sizeof err) != 0)
        fail_msg("%s", err);
    uint32_t add_latency = cfg.lat_int.latency[0];
    static trace tr;
    for (int dpe = 0; dpe < 3; dpe++) {
        emu e;
        emu_open(&e, rel);
        uint32_t in[96];
        for (uint32_t i = 0; i < 96; i++)
            in[i] = i;
        uint64_t out = emu_buf(&e, NULL, 32 * 4), vals = emu_buf(&e, NULL, 32 * 4), din = emu_buf(&e, in, sizeof in),
                 issues[7];
        const void *args[] = {&out, &vals, &din};
        uint32_t depth;
        static const char *const mech[] = {"pdom", "dpe", "dpe-constrained"};
        tm_kernel_stats ks = run_example_traced(&e, rel, "rhu_fig2_6", 32, args, mech[dpe], sets, blocks, issues,
                                                &depth, &tr);
        assert_int_equal(tr.n, NPC);
        for (uint32_t b = 0; b < 7; b++)
            for (uint32_t pc = first[b]; pc < first[b + 1]; pc++)
                if (issue_of(&tr, pc)->mask != block_mask[b])
                    fail_msg("%s: instruction %u issued with lanes %08x, want %08x", mech[dpe], pc,
                             issue_of(&tr, pc)->mask, block_mask[b]);
        bool interleaved = false, two_slots = false;
        for (uint32_t i = 0; i < tr.n; i++)
            two_slots |= tr.ev[i].cta_slot != 0;
        for (uint32_t pc = C_ADD; pc <= BR_DE; pc++)
            interleaved |= issue_of(&tr, pc)->cycle > issue_of(&tr, B_LD)->cycle &&
                           issue_of(&tr, pc)->cycle < issue_of(&tr, B_ST)->cycle;
        assert_int_equal(depth, dpe ? 3 : 4);
        assert_int_equal(interleaved, dpe != 0);
        assert_int_equal(two_slots, dpe != 0);
        if (dpe == 2) { /* constrained: B's load, then C, D, E, then the rest of B */
            assert_true(issue_of(&tr, B_LD)->cycle < issue_of(&tr, C_ADD)->cycle);
            assert_true(issue_of(&tr, BR_DE)->cycle < issue_of(&tr, D_ADD)->cycle);
            assert_true(issue_of(&tr, D_ADD + 2)->cycle < issue_of(&tr, E_SUB)->cycle);
            assert_true(issue_of(&tr, E_SUB + 3)->cycle < issue_of(&tr, B_LD + 1)->cycle);
            emu_close(&e);
            continue;
        }
        if (!dpe) { /* SPE: B, C, D, E, F, G in turn */
            static const uint32_t order[] = {33, 18, 26, 22, 29, 37};
            for (uint32_t k = 0; k + 1 < 6; k++)
                assert_true(issue_of(&tr, order[k])->cycle < issue_of(&tr, order[k + 1])->cycle);
            assert_int_equal(ks.sm.simt.path_issues, 0);
            emu_close(&e);
            continue;
        }
        uint64_t latency = issue_of(&tr, B_ST)->cycle - issue_of(&tr, B_LD)->cycle; /* r1's load to use */
        uint64_t c_wait = issue_of(&tr, C_ADD)->cycle - issue_of(&tr, A_LD)->cycle;
        if (c_wait + 2 < latency || c_wait > latency + 2)
            fail_msg("C's add issued %llu cycles after A's load r0, B's store %llu after its load r1",
                     (unsigned long long)c_wait, (unsigned long long)latency);
        assert_true(issue_of(&tr, BR_BC)->cycle < issue_of(&tr, B_LD)->cycle);
        assert_true(issue_of(&tr, BR_DE)->cycle < issue_of(&tr, B_ST)->cycle); /* r1 pending at BR_D-E */
        assert_true(issue_of(&tr, D_ADD)->cycle + 1 >= issue_of(&tr, B_ST)->cycle);
        assert_true(issue_of(&tr, E_SUB)->cycle + 1 >= issue_of(&tr, B_ST)->cycle);
        uint64_t d = issue_of(&tr, D_ADD)->cycle, ee = issue_of(&tr, E_SUB)->cycle;
        assert_true((d > ee ? d - ee : ee - d) < add_latency);
        uint64_t g_wait = issue_of(&tr, G_ADD)->cycle - issue_of(&tr, F_LD)->cycle;
        if (g_wait + 2 < latency)
            fail_msg("G's add issued %llu cycles after F's load r7 (load to use: %llu)", (unsigned long long)g_wait,
                     (unsigned long long)latency);
        double avg = (double)ks.sm.simt.paths_sum / (double)ks.sm.simt.path_issues;
        assert_int_equal(ks.sm.simt.path_issues, NPC);
        assert_true(avg > 1.0 && avg < 2.0);
        uint32_t path[32], r8[32];
        emu_read(&e, path, out, sizeof path);
        emu_read(&e, r8, vals, sizeof r8);
        for (uint32_t t = 0; t < 32; t++) {
            uint32_t f = t % 4;
            assert_int_equal(path[t], f < 2 ? 0x127u : f == 2 ? 0x13467u : 0x13567u);
            assert_int_equal(r8[t], f < 2 ? 32 + t : 64 + t);
        }
        emu_close(&e);
    }
}

/* Rhu's thesis, Fig. 3.2: dynamic warp subdivision on the CFG of Fig. 2.6
 * (rhu2014_fig2_6.ptx; blocks by pc: A 0-17, C 18-21, E 22-25, D 26-28,
 * F 29-32, B 33-36, G 37-41). A warp splits at a divergent branch whose
 * reconvergence point starts a block of at most N instructions. The
 * thesis's blocks have 3 instructions and F 1, with N = 2: no split at
 * BR_B-C (|G| = 3 > 2), a split at BR_D-E (|F| = 1), into D and E bound
 * for G (the stack top's reconvergence point, not F), which run F apart:
 * F twice, then G once with the whole warp; depth 3 (SPE 4). Here G has
 * 5 instructions and F 4, so N = 4 gives the thesis's trace: 46 issues
 * (SPE's 42 and F's 4 again), F with D's lanes 0x44444444 and E's
 * 0x88888888, D and E from the warp's two slots, interleaved (no
 * dependence between them); and N = 3 splits nowhere (F has 4): SPE's
 * trace, one path at a time. Results as the baseline's. */
static void test_rhu_fig3_2_dws(void **state)
{
    (void)state;
    const char *rel = "timing/simt/rhu2014_fig2_6.ptx";
    static const char *const blocks[] = {"A", NULL};
    static const uint32_t first[] = {0, 18, 22, 26, 29, 33, 37, 42}; /* A C E D F B G */
    static const uint32_t block_mask[] = {~0u, 0xCCCCCCCCu, 0x88888888u, 0x44444444u, 0xCCCCCCCCu, 0x33333333u, ~0u};
    enum { D_FIRST = 26, D_LAST = 28, E_FIRST = 22, E_LAST = 25, F_FIRST = 29, F_LAST = 32 };
    static trace tr;
    for (uint32_t n = 3; n <= 4; n++) {
        char opt[64];
        snprintf(opt, sizeof opt, "-simtlab_dws_threshold=%u", n);
        const char *const sets[] = {"-gpgpu_perfect_mem=1", "-gpgpu_cache:il1=none", opt, NULL};
        emu e;
        emu_open(&e, rel);
        uint32_t in[96];
        for (uint32_t i = 0; i < 96; i++)
            in[i] = i;
        uint64_t out = emu_buf(&e, NULL, 32 * 4), vals = emu_buf(&e, NULL, 32 * 4), din = emu_buf(&e, in, sizeof in),
                 issues[1];
        const void *args[] = {&out, &vals, &din};
        uint32_t depth;
        tm_kernel_stats ks =
            run_example_traced(&e, rel, "rhu_fig2_6", 32, args, "dws", sets, blocks, issues, &depth, &tr);
        bool split = n == 4;
        assert_int_equal(tr.n, split ? 46 : 42);
        assert_int_equal(depth, split ? 3 : 4);
        for (uint32_t b = 0; b < 7; b++)
            for (uint32_t pc = first[b]; pc < first[b + 1]; pc++) {
                uint32_t seen = 0, count = 0;
                for (uint32_t i = 0; i < tr.n; i++)
                    if (tr.ev[i].pc == pc)
                        seen |= tr.ev[i].mask, count++;
                bool twice = split && pc >= F_FIRST && pc <= F_LAST;
                assert_int_equal(count, twice ? 2 : 1);
                assert_int_equal(seen, block_mask[b]);
                for (uint32_t i = 0; twice && i < tr.n; i++)
                    if (tr.ev[i].pc == pc && tr.ev[i].mask != 0x44444444u && tr.ev[i].mask != 0x88888888u)
                        fail_msg("F's instruction %u issued with lanes %08x", pc, tr.ev[i].mask);
            }
        bool two_slots = false, interleaved = false;
        for (uint32_t i = 0; i < tr.n; i++)
            two_slots |= tr.ev[i].cta_slot != 0;
        for (uint32_t pc = E_FIRST; pc <= E_LAST; pc++)
            interleaved |= issue_of(&tr, pc)->cycle > issue_of(&tr, D_FIRST)->cycle &&
                           issue_of(&tr, pc)->cycle < issue_of(&tr, D_LAST)->cycle;
        assert_int_equal(two_slots, split);
        assert_int_equal(interleaved, split);
        double avg = (double)ks.sm.simt.paths_sum / (double)ks.sm.simt.path_issues;
        if (split)
            assert_true(avg > 1.0);
        else
            assert_true(avg == 1.0);
        uint32_t path[32], r8[32];
        emu_read(&e, path, out, sizeof path);
        emu_read(&e, r8, vals, sizeof r8);
        for (uint32_t t = 0; t < 32; t++) {
            uint32_t f = t % 4;
            assert_int_equal(path[t], f < 2 ? 0x127u : f == 2 ? 0x13467u : 0x13567u);
            assert_int_equal(r8[t], f < 2 ? 32 + t : 64 + t);
        }
        emu_close(&e);
    }
}

/* Path forwarding (Rhu's thesis, Sec. 3.4.1, Fig. 3.3(d)) on
 * rhu2014_fig3_3d.ptx, whose header derives it: block B (pcs 33-44) has
 * work left when D (26-28) reaches F, E (22-25) still running. Dual-path
 * execution keeps B suspended until E is done too: every instruction of
 * B's tail (37-44) issues after E's last. With forwarding, B takes the
 * free slot once D is done: some of B's tail issues after D's last
 * instruction and before E's last, and more paths are schedulable on
 * average. Masks and results are the baseline's either way. */
static void test_rhu_fig3_3d_forwarding(void **state)
{
    (void)state;
    const char *rel = "timing/simt/rhu2014_fig3_3d.ptx";
    static const char *const blocks[] = {"A", NULL};
    enum { E_LAST = 25, D_LAST = 28, TAIL_FIRST = 37, TAIL_LAST = 44, NPC = 50 };
    static trace tr;
    double avg[2];
    for (int fwd = 0; fwd < 2; fwd++) {
        const char *const sets[] = {"-gpgpu_perfect_mem=1", "-gpgpu_l1_latency=200", "-gpgpu_cache:il1=none",
                                    fwd ? "-simtlab_dpe_forwarding=1" : "-simtlab_dpe_forwarding=0", NULL};
        emu e;
        emu_open(&e, rel);
        uint32_t in[96];
        for (uint32_t i = 0; i < 96; i++)
            in[i] = i;
        uint64_t out = emu_buf(&e, NULL, 32 * 4), vals = emu_buf(&e, NULL, 32 * 4), din = emu_buf(&e, in, sizeof in),
                 issues[1];
        const void *args[] = {&out, &vals, &din};
        uint32_t depth;
        tm_kernel_stats ks =
            run_example_traced(&e, rel, "rhu_fig3_3d", 32, args, "dpe", sets, blocks, issues, &depth, &tr);
        assert_int_equal(tr.n, NPC);
        uint64_t e_last = issue_of(&tr, E_LAST)->cycle, d_last = issue_of(&tr, D_LAST)->cycle;
        assert_true(d_last < e_last); /* D (3 instructions) is done first */
        uint32_t during = 0;
        for (uint32_t pc = TAIL_FIRST; pc <= TAIL_LAST; pc++) {
            assert_int_equal(issue_of(&tr, pc)->mask, 0x33333333u);
            during += issue_of(&tr, pc)->cycle > d_last && issue_of(&tr, pc)->cycle < e_last;
            if (!fwd && issue_of(&tr, pc)->cycle < e_last)
                fail_msg("B's instruction %u issued at cycle %llu, before E's last (%llu)", pc,
                         (unsigned long long)issue_of(&tr, pc)->cycle, (unsigned long long)e_last);
        }
        if (fwd)
            assert_true(during > 0);
        avg[fwd] = (double)ks.sm.simt.paths_sum / (double)ks.sm.simt.path_issues;
        uint32_t path[32], v[32];
        emu_read(&e, path, out, sizeof path);
        emu_read(&e, v, vals, sizeof v);
        for (uint32_t t = 0; t < 32; t++) {
            uint32_t f = t % 4;
            assert_int_equal(path[t], f < 2 ? 0x127u : f == 2 ? 0x13467u : 0x13567u);
            assert_int_equal(v[t], f < 2 ? 32 + t + 7 : 64 + t);
        }
        emu_close(&e);
    }
    assert_true(avg[1] > avg[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fung_example1),
        cmocka_unit_test(test_fung_example1_dwf),
        cmocka_unit_test(test_fung_example2),
        cmocka_unit_test(test_fung_fig9),
        cmocka_unit_test(test_rhu_fig4_2),
        cmocka_unit_test(test_rhu_fig4_8_capri),
        cmocka_unit_test(test_tbc_plus_skips_uniform_branches),
        cmocka_unit_test(test_slp_on_tbc),
        cmocka_unit_test(test_narasiman_fig4_5),
        cmocka_unit_test(test_rhu_fig2_6),
        cmocka_unit_test(test_rhu_fig3_2_dws),
        cmocka_unit_test(test_rhu_fig3_3d_forwarding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
