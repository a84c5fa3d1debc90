/* test_emu_threads_determinism.c — a launch on several host threads
 * (sim_launch_config.host_threads, `--threads N`) gives the results of one
 * host thread: global atomics, the "last block" reduction, printf, device
 * malloc and volatile flags between blocks come out bit for bit the same,
 * run after run, and equal CPU references computed in block order. A
 * block that fails while higher blocks wait for it ends the launch with
 * its error, without a hang. Kernels: testdata/cuda/threads_determinism.cu
 * (nvcc -O3 for sm_80 and sm_90) and hand-written PTX.
 *
 * Where the expected values come from: the order the launch promises
 * (blocks, or clusters, commit their global atomics in increasing linear
 * order, as one host thread runs them; README "--threads") and, within a
 * block, the emulator's documented schedule: warps run round-robin, each
 * for up to 64 instructions at a time (emulator/cta.c), and one warp
 * instruction applies its lanes one after another in lane order (atom,
 * emulator/ops_mem.c). The kernels reach their atomic within a warp's first 64
 * instructions, so warp 0's lanes add first, then warp 1's...: thread
 * order. The PTX ISA leaves the order of atomics from different threads
 * unspecified; the references below fix the one the emulator promises. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/internal.h"
#include "emulator/tests/emu_test.h"

#define PTX_FILE(arch) "ptx/threads_determinism." arch ".O3.ptx"

/* Host thread counts to compare, and how often each parallel one runs. */
static const uint32_t thread_counts[] = {1, 2, 4};
enum { REPEAT = 3 };

/* Random normal floats of both signs with exponents -12..12: adding them
 * in another order changes the rounded sum almost surely. */
static void random_floats(float *v, size_t n, uint64_t seed)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = emu_rand(&x);
        uint32_t bits = (uint32_t)(r & 0x7fffff) | (uint32_t)(127 - 12 + (r >> 23) % 25) << 23 |
                        (uint32_t)((r >> 40) & 1) << 31;
        memcpy(&v[i], &bits, 4);
    }
}

/* The float sum of v[0..n) added one after another (round to nearest,
 * as atom.add.f32 and add.f32 do). */
static float ordered_sum(const float *v, size_t n)
{
    float acc = 0.0f;
    for (size_t i = 0; i < n; i++)
        acc += v[i];
    return acc;
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* sum_and_ticket (or its cluster form) over `blocks` blocks of 128
 * threads with `threads` host threads: the sum must be the block-order,
 * thread-order float sum, and block b must get ticket b. */
static void check_sum_and_ticket(const char *file, const char *kernel, uint32_t blocks, uint32_t threads, bool its,
                                 const float *v, float want)
{
    emu e;
    emu_open(&e, file);
    size_t n = (size_t)blocks * 128;
    uint64_t dv = emu_buf(&e, v, n * sizeof *v), dsum = emu_buf(&e, NULL, 4), dticket = emu_buf(&e, NULL, 4),
             dorder = emu_buf(&e, NULL, blocks * 4u);
    const void *args[] = {&dv, &dsum, &dticket, &dorder};
    sim_launch_config cfg = emu_cfg(blocks, 1, 128, 1);
    cfg.host_threads = threads;
    cfg.independent_scheduling = its;
    emu_run(&e, kernel, cfg, args);
    float sum;
    uint32_t ticket, *order = malloc(blocks * sizeof *order);
    emu_read(&e, &sum, dsum, 4);
    emu_read(&e, &ticket, dticket, 4);
    emu_read(&e, order, dorder, blocks * 4u);
    if (float_bits(sum) != float_bits(want))
        fail_msg("%s %s, %u host threads: sum %.9g (0x%08x), want %.9g (0x%08x), the sum in block and thread order",
                 file, kernel, threads, sum, float_bits(sum), want, float_bits(want));
    assert_int_equal(ticket, blocks);
    for (uint32_t t = 0; t < blocks; t++)
        if (order[t] != t)
            fail_msg("%s %s, %u host threads: ticket %u went to block %u, want block %u", file, kernel, threads, t,
                     order[t], t);
    free(order);
    emu_close(&e);
}

/* 2048 blocks x 128 threads each atomicAdd a float to one word, and each
 * block takes one atomicInc ticket: the case. Before block order,
 * two host threads gave a different sum and ticket order on every run. */
static void test_float_sum_and_tickets(void **state)
{
    (void)state;
    enum { BLOCKS = 2048 };
    static float v[BLOCKS * 128];
    random_floats(v, BLOCKS * 128, 0x9e3779b97f4a7c15ull);
    float want = ordered_sum(v, BLOCKS * 128);
    /* the data must make the order matter, or the test proves nothing */
    float reversed = 0.0f;
    for (size_t i = BLOCKS * 128; i-- > 0;)
        reversed += v[i];
    assert_true(float_bits(reversed) != float_bits(want));
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        for (int rep = 0; rep < (thread_counts[k] > 1 ? REPEAT : 1); rep++)
            check_sum_and_ticket(PTX_FILE("sm_80"), "_Z14sum_and_ticketPKfPfPjS2_", BLOCKS, thread_counts[k], false,
                                 v, want);
}

/* The same in clusters of two blocks (sm_90's __cluster_dims__): a
 * cluster runs as one unit, its two blocks' warps in turn (block 2c's
 * four warps, then block 2c+1's, each warp to its end within its first
 * slice), so the order is again block order, thread order. */
static void test_cluster_sum_and_tickets(void **state)
{
    (void)state;
    enum { BLOCKS = 512 };
    static float v[BLOCKS * 128];
    random_floats(v, BLOCKS * 128, 12345);
    float want = ordered_sum(v, BLOCKS * 128);
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        for (int rep = 0; rep < (thread_counts[k] > 1 ? REPEAT : 1); rep++)
            check_sum_and_ticket(PTX_FILE("sm_90"), "_Z22cluster_sum_and_ticketPKfPfPjS2_", BLOCKS,
                                 thread_counts[k], false, v, want);
}

/* The same with independent thread scheduling (--its): a warp issues
 * for the lanes that share a pc, and no branch precedes the atomic, so
 * each warp's lanes reach it together and add in lane order, warps in
 * turn (emulator/its.c): block order, thread order again. */
static void test_its_sum_and_tickets(void **state)
{
    (void)state;
    enum { BLOCKS = 512 };
    static float v[BLOCKS * 128];
    random_floats(v, BLOCKS * 128, 4242);
    float want = ordered_sum(v, BLOCKS * 128);
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        for (int rep = 0; rep < (thread_counts[k] > 1 ? REPEAT : 1); rep++)
            check_sum_and_ticket(PTX_FILE("sm_80"), "_Z14sum_and_ticketPKfPfPjS2_", BLOCKS, thread_counts[k], true,
                                 v, want);
}

/* The CUDA samples' threadFenceReduction pattern: each block stores its
 * partial sum, __threadfence(), takes a ticket; the block with the last
 * ticket adds the partial sums. The last ticket must go to the last block
 * (block order), and the total is the CPU's: each block's tree reduction
 * (s[t] += s[t + k] for k = 64, 32, ..., 1), then the partial sums added
 * in block order. */
static void test_last_block_reduction(void **state)
{
    (void)state;
    enum { BLOCKS = 512 };
    static float v[BLOCKS * 128];
    random_floats(v, BLOCKS * 128, 777);
    float partial[BLOCKS], want = 0.0f;
    for (int b = 0; b < BLOCKS; b++) {
        float s[128];
        memcpy(s, v + b * 128, sizeof s);
        for (int k = 64; k > 0; k >>= 1)
            for (int t = 0; t < k; t++)
                s[t] += s[t + k];
        partial[b] = s[0];
    }
    want = ordered_sum(partial, BLOCKS);
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        for (int rep = 0; rep < (thread_counts[k] > 1 ? REPEAT : 1); rep++) {
            emu e;
            emu_open(&e, PTX_FILE("sm_80"));
            uint64_t dv = emu_buf(&e, v, sizeof v), dpartial = emu_buf(&e, NULL, sizeof partial),
                     dcount = emu_buf(&e, NULL, 4), dtotal = emu_buf(&e, NULL, 4), dlast = emu_buf(&e, NULL, 4);
            const void *args[] = {&dv, &dpartial, &dcount, &dtotal, &dlast};
            sim_launch_config cfg = emu_cfg(BLOCKS, 1, 128, 1);
            cfg.host_threads = thread_counts[k];
            emu_run(&e, "_Z14last_block_sumPKfPfPjS1_S2_", cfg, args);
            float total, got_partial[BLOCKS];
            uint32_t last, count;
            emu_read(&e, &total, dtotal, 4);
            emu_read(&e, &last, dlast, 4);
            emu_read(&e, &count, dcount, 4);
            emu_read(&e, got_partial, dpartial, sizeof got_partial);
            assert_memory_equal(got_partial, partial, sizeof partial);
            if (last != BLOCKS - 1)
                fail_msg("%u host threads: block %u took the last ticket, want %u", thread_counts[k], last,
                         BLOCKS - 1);
            if (float_bits(total) != float_bits(want))
                fail_msg("%u host threads: total %.9g, want %.9g", thread_counts[k], total, want);
            assert_int_equal(count, 0);
            emu_close(&e);
        }
}

/* printf of an atomic ticket: the launch prints each block's text in
 * block order, and block b's ticket is b. */
static void test_printf_tickets(void **state)
{
    (void)state;
    enum { BLOCKS = 2000 };
    char want[BLOCKS * 32], *p = want;
    for (int b = 0; b < BLOCKS; b++)
        p += sprintf(p, "block %d ticket %d\n", b, b);
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        for (int rep = 0; rep < (thread_counts[k] > 1 ? REPEAT : 1); rep++) {
            emu e;
            emu_open(&e, PTX_FILE("sm_80"));
            uint64_t dcounter = emu_buf(&e, NULL, 4);
            const void *args[] = {&dcounter};
            char *text = NULL;
            size_t len = 0;
            FILE *out = open_memstream(&text, &len);
            assert_non_null(out);
            sim_launch_config cfg = emu_cfg(BLOCKS, 1, 64, 1);
            cfg.host_threads = thread_counts[k];
            cfg.printf_out = out;
            emu_run(&e, "_Z13printf_ticketPj", cfg, args);
            fclose(out);
            if (strcmp(text, want) != 0) {
                size_t at = 0;
                while (text[at] && text[at] == want[at])
                    at++;
                while (at > 0 && want[at - 1] != '\n')
                    at--;
                fail_msg("%u host threads: printf output differs from block order at '%.40s', want '%.40s'",
                         thread_counts[k], text + at, want + at);
            }
            free(text);
            emu_close(&e);
        }
}

/* Device malloc in every block: the addresses are the same for any
 * number of host threads, increase with the block (malloc runs in block
 * order), and the blocks' regions do not overlap (each holds the bytes
 * its block wrote). */
static void test_malloc_addresses(void **state)
{
    (void)state;
    enum { BLOCKS = 200 };
    uint64_t first[BLOCKS];
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        for (int rep = 0; rep < (thread_counts[k] > 1 ? REPEAT : 1); rep++) {
            emu e;
            emu_open(&e, PTX_FILE("sm_80"));
            uint64_t daddr = emu_buf(&e, NULL, BLOCKS * 8), addr[BLOCKS];
            const void *args[] = {&daddr};
            sim_launch_config cfg = emu_cfg(BLOCKS, 1, 32, 1);
            cfg.host_threads = thread_counts[k];
            emu_run(&e, "_Z16malloc_per_blockPy", cfg, args);
            emu_read(&e, addr, daddr, sizeof addr);
            for (uint32_t b = 0; b < BLOCKS; b++) {
                uint32_t n = 16u * (1u + b % 7u);
                assert_true(addr[b] != 0);
                if (b > 0 && addr[b] < addr[b - 1] + 16u * (1u + (b - 1) % 7u))
                    fail_msg("%u host threads: block %u's allocation at 0x%llx is not after block %u's",
                             thread_counts[k], b, (unsigned long long)addr[b], b - 1);
                uint8_t bytes[112];
                emu_read(&e, bytes, addr[b], n);
                for (uint32_t i = 0; i < n; i++)
                    if (bytes[i] != (uint8_t)b)
                        fail_msg("%u host threads: byte %u of block %u's allocation holds %u", thread_counts[k],
                                 i, b, bytes[i]);
            }
            if (k == 0 && rep == 0)
                memcpy(first, addr, sizeof addr);
            else if (memcmp(first, addr, sizeof addr) != 0)
                fail_msg("%u host threads: malloc addresses differ from one host thread's", thread_counts[k]);
            emu_close(&e);
        }
}

/* Block b spins on a volatile flag block b-1 sets: with one host thread
 * the flag is set before block b starts; with several, block b's volatile
 * load waits for the blocks before it, so it reads the flag set (b), and
 * the chain completes. */
static void test_volatile_flag_chain(void **state)
{
    (void)state;
    enum { BLOCKS = 64 };
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++) {
        emu e;
        emu_open(&e, PTX_FILE("sm_80"));
        uint64_t dflags = emu_buf(&e, NULL, BLOCKS * 4), dseen = emu_buf(&e, NULL, BLOCKS * 4);
        const void *args[] = {&dflags, &dseen};
        sim_launch_config cfg = emu_cfg(BLOCKS, 1, 32, 1);
        cfg.host_threads = thread_counts[k];
        cfg.max_instructions = 100000000; /* a hang would be the bug */
        emu_run(&e, "_Z10flag_chainPiPj", cfg, args);
        uint32_t seen[BLOCKS];
        emu_read(&e, seen, dseen, sizeof seen);
        for (uint32_t b = 0; b < BLOCKS; b++)
            assert_int_equal(seen[b], b);
        emu_close(&e);
    }
}

/* Collatz step counts of 1..BLOCKS*128 (first = 1), each thread adding
 * its count to a 64-bit total at its end: the total is the CPU's. */
static void test_compute_then_atomic(void **state)
{
    (void)state;
    enum { BLOCKS = 64 };
    uint64_t want = 0;
    for (uint64_t i = 1; i <= BLOCKS * 128; i++)
        for (uint64_t n = i; n != 1; want++)
            n = n & 1 ? 3 * n + 1 : n >> 1;
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++) {
        emu e;
        emu_open(&e, PTX_FILE("sm_80"));
        uint32_t first = 1;
        uint64_t dtotal = emu_buf(&e, NULL, 8), total;
        const void *args[] = {&first, &dtotal};
        sim_launch_config cfg = emu_cfg(BLOCKS, 1, 128, 1);
        cfg.host_threads = thread_counts[k];
        emu_run(&e, "_Z16collatz_then_addjPy", cfg, args);
        emu_read(&e, &total, dtotal, 8);
        assert_int_equal(total, want);
        emu_close(&e);
    }
}

/* The instruction limit decides the same for any number of host threads:
 * a limit one below what the launch needs (its count on one host thread)
 * stops it, the exact count lets it finish. Blocks running side by side
 * each start with what the finished ones left, so the check must also be
 * made on the launch's total. */
static void test_instruction_limit_any_threads(void **state)
{
    (void)state;
    enum { BLOCKS = 64 };
    emu e;
    emu_open(&e, PTX_FILE("sm_80"));
    uint32_t first = 1;
    uint64_t dtotal = emu_buf(&e, NULL, 8);
    const void *args[] = {&first, &dtotal};
    sim_launch_config cfg = emu_cfg(BLOCKS, 1, 128, 1);
    emu_run(&e, "_Z16collatz_then_addjPy", cfg, args);
    uint64_t need = e.stats.warp_instructions;
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        for (int rep = 0; rep < REPEAT; rep++) {
            cfg.host_threads = thread_counts[k];
            cfg.max_instructions = need - 1;
            if (emu_try(&e, "_Z16collatz_then_addjPy", cfg, args) == 0)
                fail_msg("%u host threads: a launch needing %llu warp instructions finished under a limit of %llu",
                         thread_counts[k], (unsigned long long)need, (unsigned long long)need - 1);
            assert_int_equal(e.stats.error, SIM_ERR_LIMIT);
            if (!strstr(e.err, "instruction limit"))
                fail_msg("error '%s' does not name the instruction limit", e.err);
            cfg.max_instructions = need;
            emu_run(&e, "_Z16collatz_then_addjPy", cfg, args);
        }
    emu_close(&e);
}

/* A grid.sync() kernel launched cooperatively (all blocks together, one
 * group) with several host threads: the results of coop_groups.cu's
 * cg_grid_sync as its test in test_emu_corpus_sync computes them. */
static void test_cooperative_launch(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, "ptx/coop_groups.sm_80.O3.ptx");
    int n = 200, got[256];
    uint64_t dd = emu_buf(&e, NULL, 256 * sizeof(int)), dg = emu_buf(&e, NULL, 256 * sizeof(int));
    const void *args[] = {&dd, &dg, &n};
    sim_launch_config cfg = emu_cfg(4, 1, 64, 1);
    cfg.cooperative = true;
    cfg.host_threads = 4;
    emu_run(&e, "_Z12cg_grid_syncPiS_i", cfg, args);
    emu_read(&e, got, dg, sizeof got);
    for (int i = 0; i < n; i++)
        if (got[i] != 2 * ((i + 1) % n) + 256)
            fail_msg("cg_grid_sync cooperative: out[%d] = %d, want %d", i, got[i], 2 * ((i + 1) % n) + 256);
    emu_close(&e);
}

/* Hand-written: block 0 loops p[2] times; the block numbered p[1] loads
 * from address 8, which no allocation holds (a fault); then every block
 * adds 1 to p[0] atomically. Blocks other than 0 reach the atomic at once
 * and, with several host threads, wait there for the blocks before them. */
static const char *const fault_body =
    "ld.param.u64 %rd1, [k_p0];\n"
    "cvta.to.global.u64 %rd1, %rd1;\n"
    "mov.u32 %r1, %ctaid.x;\n"
    "ld.global.u32 %r2, [%rd1+4];\n"
    "ld.global.u32 %r3, [%rd1+8];\n"
    "setp.ne.u32 %p1, %r1, 0;\n"
    "@%p1 bra NOT0;\n"
    "mov.u32 %r4, 0;\n"
    "LOOP:\n"
    "add.u32 %r4, %r4, 1;\n"
    "setp.lt.u32 %p2, %r4, %r3;\n"
    "@%p2 bra LOOP;\n"
    "NOT0:\n"
    "setp.ne.u32 %p1, %r1, %r2;\n"
    "@%p1 bra ADD;\n"
    "mov.u64 %rd2, 8;\n"
    "ld.global.u32 %r5, [%rd2];\n"
    "ADD:\n"
    "atom.global.add.u32 %r6, [%rd1], 1;\n"
    "ret;\n";

/* Run the fault kernel over 16 blocks of 32 threads: the block that
 * faults, block 0's loop count, the instruction limit (0: none). Returns
 * the counter; the launch must fail with `kind`, naming `block`. */
static uint32_t run_fault_kernel(uint32_t threads, uint32_t faulty, uint32_t loops, uint64_t limit, sim_error kind,
                                 const char *block)
{
    emu e;
    emu_open_module(&e, ptx_test_parse_body("", fault_body));
    uint32_t init[3] = {0, faulty, loops};
    uint64_t dp = emu_buf(&e, init, sizeof init);
    const void *args[] = {&dp};
    sim_launch_config cfg = emu_cfg(16, 1, 32, 1);
    cfg.host_threads = threads;
    cfg.max_instructions = limit;
    assert_int_equal(emu_try(&e, "k", cfg, args), -1);
    if (e.stats.error != kind || !strstr(e.err, block))
        fail_msg("%u host threads: error %d '%s', want kind %d naming %s", threads, e.stats.error, e.err, kind, block);
    uint32_t counter;
    emu_read(&e, &counter, dp, 4);
    emu_close(&e);
    return counter;
}

/* Block 0 faults after a long loop while blocks 1.. wait at their
 * atomic: the launch ends with block 0's fault (no hang), and no block
 * adds (one host thread stops at block 0 before any other starts). */
static void test_lower_block_faults_while_others_wait(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        assert_int_equal(run_fault_kernel(thread_counts[k], 0, 200000, 0, SIM_ERR_ADDRESS, "block (0,0,0)"), 0);
}

/* Block 0 runs into the instruction limit (an endless loop) while the
 * others wait: the launch ends with the limit, no block adds. */
static void test_lower_block_limit_while_others_wait(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        assert_int_equal(run_fault_kernel(thread_counts[k], 99, 0xffffffffu, 200000, SIM_ERR_LIMIT,
                                          "instruction limit"), 0);
}

/* Block 3 faults at once while block 0 loops and blocks 1 and 2 wait for
 * it: they still run (one host thread runs blocks 0, 1 and 2 before 3),
 * so the counter is 3 blocks x 32 threads and the error is block 3's. */
static void test_higher_block_faults_while_lower_waits(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof thread_counts / sizeof *thread_counts; k++)
        assert_int_equal(run_fault_kernel(thread_counts[k], 3, 200000, 0, SIM_ERR_ADDRESS, "block (3,0,0)"), 3 * 32);
}

/* Ordered points as the decoder marks them (SIM_IF_ORDERED), against
 * the PTX ISA's memory model: kernel `ordered` holds only instructions
 * whose effect or result can depend on another block (global and generic
 * atomics and reductions, whatever their scope; strong global or generic
 * accesses at .gpu/.sys scope, .volatile and .mmio; .gpu/.sys fences and
 * membar.gl/.sys; device malloc and free) besides the .param stores of
 * its calls; kernel `plain` holds none: weak and .nc loads, strong
 * accesses scoped to the CTA or cluster, shared memory (private to a
 * block or its cluster), CTA and cluster fences, proxy fences, barriers,
 * printf. ptxas accepts the module (sm_100, for the global red.async and
 * st.async forms). */
static const char *const ordered_ptx =
    ".version 9.0\n"
    ".target sm_100\n"
    ".address_size 64\n"
    ".extern .func (.param .b64 r) malloc (.param .b64 n);\n"
    ".extern .func free (.param .b64 p);\n"
    ".extern .func (.param .b32 r) vprintf (.param .b64 f, .param .b64 a);\n"
    ".visible .entry ordered()\n"
    "{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<8>;\n"
    "atom.global.add.u32 %r1, [%rd1], 1;\n"
    "atom.add.u32 %r1, [%rd1], 1;\n"
    "atom.global.cta.add.u32 %r1, [%rd1], 1;\n"
    "red.global.add.f32 [%rd1], %f1;\n"
    "atom.global.v2.f32.add {%f1, %f2}, [%rd1], {%f3, %f4};\n"
    "red.async.release.gpu.global.add.u32 [%rd1], %r1;\n"
    "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r2], 16;\n"
    "ld.volatile.global.u32 %r1, [%rd1];\n"
    "ld.relaxed.gpu.global.u32 %r1, [%rd1];\n"
    "ld.acquire.sys.u32 %r1, [%rd1];\n"
    "st.release.gpu.global.u32 [%rd1], %r1;\n"
    "st.volatile.u32 [%rd1], %r1;\n"
    "ld.mmio.relaxed.sys.global.u32 %r1, [%rd1];\n"
    "st.async.release.gpu.global.u32 [%rd1], %r1;\n"
    "fence.sc.gpu;\n"
    "fence.acq_rel.sys;\n"
    "membar.gl;\n"
    "membar.sys;\n"
    "{ .param .b64 n; .param .b64 r; st.param.b64 [n], 16; call.uni (r), malloc, (n); }\n"
    "{ .param .b64 p; st.param.b64 [p], %rd1; call.uni free, (p); }\n"
    "ret;\n"
    "}\n"
    ".visible .entry plain()\n"
    "{\n"
    ".reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<8>;\n"
    ".shared .b32 s;\n"
    "ld.global.u32 %r1, [%rd1];\n"
    "st.global.u32 [%rd1], %r1;\n"
    "ld.u32 %r1, [%rd1];\n"
    "ld.global.nc.u32 %r1, [%rd1];\n"
    "ld.relaxed.cta.global.u32 %r1, [%rd1];\n"
    "st.release.cluster.global.u32 [%rd1], %r1;\n"
    "ld.volatile.shared.u32 %r1, [s];\n"
    "atom.shared.add.u32 %r1, [s], 1;\n"
    "atom.shared::cluster.add.u32 %r1, [%r2], 1;\n"
    "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r2], %r1, [%r3];\n"
    "fence.sc.cta;\n"
    "fence.acq_rel.cluster;\n"
    "membar.cta;\n"
    "fence.proxy.alias;\n"
    "bar.sync 0;\n"
    "{ .param .b64 f; .param .b64 a; .param .b32 r; st.param.b64 [f], %rd1; st.param.b64 [a], %rd2; call.uni (r), vprintf, (f, a); }\n"
    "ret;\n"
    "}\n";

static void test_decoder_marks_ordered_points(void **state)
{
    (void)state;
    emu_test_assemble(ordered_ptx, "sm_100", true);
    emu e;
    emu_open_module(&e, ptx_test_parse(ordered_ptx));
    const char *const kernels[] = {"ordered", "plain"};
    for (int k = 0; k < 2; k++) {
        const sim_func *fn = sim_program_kernel(e.p, kernels[k]);
        assert_non_null(fn);
        assert_true(fn->ninstrs > 10);
        for (uint32_t pc = 0; pc + 1 < fn->ninstrs; pc++) { /* all but the closing ret */
            const sim_inst *in = &fn->code[pc];
            if (in->fn == sim_op_unsupported)
                fail_msg("%s: PTX line %u is not decoded", kernels[k], in->line);
            const ptx_form *form = ptx_instr_form(e.m, &fn->f->instrs[pc]);
            ptx_opcode op = (ptx_opcode)form->opcode;
            bool param = form->nspaces && form->space[0] == PTX_SPACE_PARAM; /* st.param: a call's argument */
            bool want = k == 0 && !param, got = (in->flags & SIM_IF_ORDERED) != 0;
            if (got != want)
                fail_msg("%s: PTX line %u (%s) is %san ordered point", kernels[k], in->line, ptx_opcode_name(op),
                         got ? "" : "not ");
            if (got)
                assert_true(in->flags & SIM_IF_GENERAL); /* sim_exec's common path does not look */
        }
    }
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decoder_marks_ordered_points),
        cmocka_unit_test(test_float_sum_and_tickets),
        cmocka_unit_test(test_cluster_sum_and_tickets),
        cmocka_unit_test(test_its_sum_and_tickets),
        cmocka_unit_test(test_last_block_reduction),
        cmocka_unit_test(test_printf_tickets),
        cmocka_unit_test(test_malloc_addresses),
        cmocka_unit_test(test_volatile_flag_chain),
        cmocka_unit_test(test_compute_then_atomic),
        cmocka_unit_test(test_instruction_limit_any_threads),
        cmocka_unit_test(test_cooperative_launch),
        cmocka_unit_test(test_lower_block_faults_while_others_wait),
        cmocka_unit_test(test_lower_block_limit_while_others_wait),
        cmocka_unit_test(test_higher_block_faults_while_lower_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
