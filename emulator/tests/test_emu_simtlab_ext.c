/* test_emu_simtlab_ext.c — simtlab's own extensions of PTX on the
 * emulator (emulator/ops_simtlab.c; README.md, "simtlab extensions of
 * PTX"), with expectations from Narasiman's thesis as the digest of it
 * states them:
 *  - simtlab.cond_acc: worked example 2.9 (warp size 8, predicates
 *    1,0,1,1,0,0,1,0, 4-byte elements: d0 d2 d3 d6 at B+0..B+12, no other
 *    byte written, d = 4 in every lane) exactly, and generalised to 32
 *    lanes (the pattern four times: 16 elements, d = 16); all lanes false
 *    (nothing written, d = 0) and all true (32 contiguous, d = 32); 1-, 2-
 *    and 8-byte elements; shared and global memory; lanes made inactive by
 *    divergence or a guard count as false (Sec. 7.1: "inactive lanes count
 *    as false"); lanes disagreeing on the base address are a guest error
 *    naming the PTX line;
 *  - simtlab.tree_traverse: worked example 2.10 (base 32, 5 lanes true,
 *    node size 32: 192 in every lane), 64-bit and wrapping 32-bit sums,
 *    register and immediate operands, and a node size that is not a power
 *    of two (a guest error naming the PTX line);
 *  - ld with .rowhint reads what the same ld without it reads.
 * Each kernel also runs through the timing model in the _timing test
 * (emu_test.h: SIMTLAB_TEST_TIMING). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "ir/util.h"

#define SENTINEL 0xEE /* bytes of the buffers no lane should write */

/* A cond_acc kernel: lane l's predicate is bit l of p_mask, its source
 * 0x0807060504030200 + l * 0x0101010101010101 truncated to the element
 * type; lanes whose bit of p_skip is set branch around the instruction
 * (inactive), and with a guard (`guard`) lanes >= 16 are predicated off.
 * Every lane then stores its d at counts[tid] (d starts at 77). Shared
 * memory: the 256-byte buffer, filled with the sentinel first, is copied
 * to out afterwards; global: out itself is the base. */
static char *cond_acc_kernel(const char *space, unsigned bits, bool guard)
{
    bool shared = strcmp(space, "shared") == 0;
    const char *src = bits == 64 ? "%rd5" : "%r5";
    return ptx_format(
        PTX_TEST_HEADER
        ".visible .entry ca(.param .u64 p_out, .param .u64 p_counts, .param .u32 p_mask, .param .u32 p_skip)\n{\n"
        ".reg .pred %%p<4>;\n.reg .b32 %%r<16>;\n.reg .b64 %%rd<16>;\n"
        ".shared .align 8 .b8 buf[256];\n"
        "ld.param.u64 %%rd1, [p_out];\n"
        "ld.param.u64 %%rd2, [p_counts];\n"
        "ld.param.u32 %%r1, [p_mask];\n"
        "ld.param.u32 %%r11, [p_skip];\n"
        "mov.u32 %%r2, %%laneid;\n"
        "mov.u32 %%r10, %%tid.x;\n"
        "shr.b32 %%r3, %%r1, %%r2;\n"
        "and.b32 %%r3, %%r3, 1;\n"
        "setp.ne.u32 %%p1, %%r3, 0;\n"
        "mul.lo.u32 %%r4, %%r2, 0x01010101;\n"
        "add.u32 %%r5, %%r4, 0x03020100;\n"
        "cvt.u64.u32 %%rd5, %%r5;\n"
        "add.u32 %%r6, %%r4, 0x07060504;\n"
        "cvt.u64.u32 %%rd6, %%r6;\n"
        "shl.b64 %%rd6, %%rd6, 32;\n"
        "or.b64 %%rd5, %%rd5, %%rd6;\n"
        "mov.u32 %%r7, buf;\n"
        /* fill the shared buffer with the sentinel: 256 bytes, 8 a thread */
        "setp.lt.u32 %%p3, %%r10, 32;\n"
        "shl.b32 %%r12, %%r10, 3;\n"
        "add.u32 %%r14, %%r7, %%r12;\n"
        "mov.b64 %%rd10, 0xEEEEEEEEEEEEEEEE;\n"
        "@%%p3 st.shared.u64 [%%r14], %%rd10;\n"
        "bar.sync 0;\n"
        "mov.u32 %%r8, 77;\n"
        "setp.lt.u32 %%p2, %%r2, 16;\n"
        "shr.b32 %%r13, %%r11, %%r2;\n"
        "and.b32 %%r13, %%r13, 1;\n"
        "setp.ne.u32 %%p3, %%r13, 0;\n"
        "@%%p3 bra SKIP;\n"
        "%s simtlab.cond_acc.%s.b%u %%r8, [%s], %%p1, %s;\n"
        "SKIP:\n"
        "bar.sync 0;\n"
        "mul.wide.u32 %%rd3, %%r10, 4;\n"
        "add.s64 %%rd4, %%rd2, %%rd3;\n"
        "st.global.u32 [%%rd4], %%r8;\n"
        "%s"
        "ret;\n}\n",
        guard ? "@%p2" : "", space, bits, shared ? "%r7" : "%rd1", src,
        shared ? "setp.lt.u32 %p3, %r10, 32;\n"
                 "@%p3 ld.shared.u64 %rd7, [%r14];\n"
                 "mul.wide.u32 %rd8, %r10, 8;\n"
                 "add.s64 %rd9, %rd1, %rd8;\n"
                 "@%p3 st.global.u64 [%rd9], %rd7;\n"
               : "");
}

/* Lane l's source value, truncated to `bytes` (see cond_acc_kernel). */
static uint64_t source_of(unsigned l, unsigned bytes)
{
    uint64_t v = 0x0706050403020100ull + l * 0x0101010101010101ull;
    return bytes == 8 ? v : v & ((1ull << (8 * bytes)) - 1);
}

/* Run cond_acc of `bits`-wide elements in `space` on `threads` threads
 * (one CTA) with predicate mask `mask` and skipped lanes `skip`; expect
 * the elements of the lanes `writers` (in that order) from the base, the
 * sentinel in every other byte of the 256, and count `d` in every thread
 * that executed it (77 in those that did not: `idle`, a lane mask). */
static void expect_cond_acc(const char *space, unsigned bits, bool guard, uint32_t threads, uint32_t mask,
                            uint32_t skip, const unsigned *writers, unsigned nwriters, uint32_t idle)
{
    char *text = cond_acc_kernel(space, bits, guard);
    emu e;
    emu_open_module(&e, ptx_test_parse_ext(text));
    free(text);
    uint8_t init[256];
    memset(init, SENTINEL, sizeof init);
    uint64_t out = emu_buf(&e, init, sizeof init), counts = emu_buf(&e, NULL, 4 * threads);
    emu_run(&e, "ca", emu_cfg(1, 1, threads, 1), (const void *[]){&out, &counts, &mask, &skip});
    uint8_t got[256], want[256];
    emu_read(&e, got, out, sizeof got);
    memset(want, SENTINEL, sizeof want);
    unsigned bytes = bits / 8;
    for (unsigned i = 0; i < nwriters; i++) {
        uint64_t v = source_of(writers[i], bytes);
        memcpy(want + i * bytes, &v, bytes);
    }
    for (unsigned b = 0; b < sizeof want; b++)
        if (got[b] != want[b])
            fail_msg("%s b%u: byte %u is 0x%02x, want 0x%02x", space, bits, b, got[b], want[b]);
    uint32_t d[32];
    emu_read(&e, d, counts, 4 * threads);
    for (uint32_t t = 0; t < threads; t++)
        assert_int_equal(d[t], (idle >> t & 1) ? 77 : nwriters);
    emu_close(&e);
}

/* Worked example 2.9 itself: a warp of 8 lanes (a block of 8 threads;
 * the lanes the warp does not have write nothing). */
static void test_cond_acc_example(void **state)
{
    (void)state;
    static const unsigned writers[] = {0, 2, 3, 6}; /* B+0 = d0, B+4 = d2, B+8 = d3, B+12 = d6 */
    expect_cond_acc("global", 32, false, 8, 0x4D /* lanes 0, 2, 3, 6 */, 0, writers, 4, 0);
    expect_cond_acc("shared", 32, false, 8, 0x4D, 0, writers, 4, 0);
}

/* The example's pattern over 32 lanes (four times), every element size,
 * shared and global. */
static void test_cond_acc_32_lanes(void **state)
{
    (void)state;
    static const unsigned writers[] = {0, 2, 3, 6, 8, 10, 11, 14, 16, 18, 19, 22, 24, 26, 27, 30};
    static const unsigned sizes[] = {8, 16, 32, 64};
    for (unsigned k = 0; k < 4; k++) {
        expect_cond_acc("global", sizes[k], false, 32, 0x4D4D4D4Du, 0, writers, 16, 0);
        expect_cond_acc("shared", sizes[k], false, 32, 0x4D4D4D4Du, 0, writers, 16, 0);
    }
}

/* All lanes false: no byte written, d = 0; all true: the 32 elements in
 * lane order, d = 32. */
static void test_cond_acc_all_or_none(void **state)
{
    (void)state;
    unsigned all[32];
    for (unsigned l = 0; l < 32; l++)
        all[l] = l;
    expect_cond_acc("global", 32, false, 32, 0, 0, NULL, 0, 0);
    expect_cond_acc("shared", 64, false, 32, 0, 0, NULL, 0, 0);
    expect_cond_acc("global", 32, false, 32, ~0u, 0, all, 32, 0);
    expect_cond_acc("shared", 64, false, 32, ~0u, 0, all, 32, 0);
    expect_cond_acc("global", 8, false, 32, ~0u, 0, all, 32, 0);
}

/* Inactive lanes count as false: the odd lanes branch around the
 * instruction, or a guard leaves out lanes 16..31; their d stays 77. */
static void test_cond_acc_inactive_lanes(void **state)
{
    (void)state;
    unsigned even[16], low[16];
    for (unsigned l = 0; l < 16; l++)
        even[l] = 2 * l, low[l] = l;
    expect_cond_acc("global", 32, false, 32, ~0u, 0xAAAAAAAAu, even, 16, 0xAAAAAAAAu);
    expect_cond_acc("shared", 16, false, 32, ~0u, 0xAAAAAAAAu, even, 16, 0xAAAAAAAAu);
    expect_cond_acc("global", 32, true, 32, ~0u, 0, low, 16, 0xFFFF0000u);
    /* guard and predicate together: lanes 0..15 active, the pattern's there */
    static const unsigned writers[] = {0, 2, 3, 6, 8, 10, 11, 14};
    expect_cond_acc("shared", 32, true, 32, 0x4D4D4D4Du, 0, writers, 8, 0xFFFF0000u);
}

/* A base that differs between lanes stops the launch with the rule, the
 * lanes and the PTX line; nothing is written. */
static void test_cond_acc_base_must_agree(void **state)
{
    (void)state;
    static const char text[] = PTX_TEST_HEADER
        ".visible .entry bad(.param .u64 p_out)\n{\n"    /* line 4 */
        ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
        "ld.param.u64 %rd1, [p_out];\n"
        "mov.u32 %r1, %laneid;\n"
        "and.b32 %r2, %r1, 1;\n"
        "mul.wide.u32 %rd2, %r2, 4;\n"
        "add.s64 %rd3, %rd1, %rd2;\n"
        "setp.eq.u32 %p1, %r2, 0;\n"
        "simtlab.cond_acc.global.b32 %r3, [%rd3], %p1, %r1;\n" /* line 15 */
        "ret;\n}\n";
    emu e;
    emu_open_module(&e, ptx_test_parse_ext(text));
    uint8_t init[256];
    memset(init, SENTINEL, sizeof init);
    uint64_t out = emu_buf(&e, init, sizeof init);
    assert_int_not_equal(emu_try(&e, "bad", emu_cfg(1, 1, 32, 1), (const void *[]){&out}), 0);
    assert_int_equal(e.stats.error, SIM_ERR_ILLEGAL);
    if (!strstr(e.err, "simtlab.cond_acc needs the same address in every executing lane") ||
        !strstr(e.err, "lane 0 has 0x") || !strstr(e.err, "lane 1 0x") || !strstr(e.err, "PTX line 15"))
        fail_msg("message: %s", e.err);
    uint8_t got[256];
    emu_read(&e, got, out, sizeof got);
    for (unsigned b = 0; b < sizeof got; b++)
        assert_int_equal(got[b], SENTINEL);
    emu_close(&e);
}

/* tree_traverse kernels: d = base + (lanes whose bit of p_mask is set) *
 * node size, stored per thread; `ops` are the instruction's operands
 * after d and before the predicate (base) and after it (node size). */
static const char tree_text[] = PTX_TEST_HEADER
    ".visible .entry tt(.param .u64 p_out, .param .u32 p_mask, .param .u32 p_base, .param .u32 p_size,\n"
    "                   .param .u64 p_base64, .param .u64 p_size64)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
    "ld.param.u64 %rd1, [p_out];\n"
    "ld.param.u32 %r1, [p_mask];\n"
    "ld.param.u32 %r2, [p_base];\n"
    "ld.param.u32 %r3, [p_size];\n"
    "ld.param.u64 %rd2, [p_base64];\n"
    "ld.param.u64 %rd3, [p_size64];\n"
    "mov.u32 %r4, %laneid;\n"
    "mov.u32 %r5, %tid.x;\n"
    "shr.b32 %r6, %r1, %r4;\n"
    "and.b32 %r6, %r6, 1;\n"
    "setp.ne.u32 %p1, %r6, 0;\n"
    "simtlab.tree_traverse.u32 %r7, %r2, %p1, %r3;\n"        /* registers */
    "simtlab.tree_traverse.u32 %r8, 32, %p1, 32;\n"          /* immediates */
    "simtlab.tree_traverse.u64 %rd4, %rd2, %p1, %rd3;\n"     /* 64-bit */
    "simtlab.tree_traverse.u32 %r9, %r2, !%p1, 1;\n"         /* the lanes whose p is false */
    "mul.wide.u32 %rd5, %r5, 32;\n"
    "add.s64 %rd6, %rd1, %rd5;\n"
    "st.global.u32 [%rd6], %r7;\n"
    "st.global.u32 [%rd6+4], %r8;\n"
    "st.global.u64 [%rd6+8], %rd4;\n"
    "st.global.u32 [%rd6+16], %r9;\n"
    "ret;\n}\n";

/* The four results of each of `threads` threads (tree_text's order). */
typedef struct tree_out {
    uint32_t reg, imm;
    uint64_t wide;
    uint32_t negated, pad[3];
} tree_out;

/* Run tree_text on `threads` threads with the parameters given. */
static void run_tree(uint32_t threads, uint32_t mask, uint32_t base, uint32_t size, uint64_t base64,
                     uint64_t size64, tree_out *out)
{
    emu e;
    emu_open_module(&e, ptx_test_parse_ext(tree_text));
    uint64_t buf = emu_buf(&e, NULL, sizeof(tree_out) * threads);
    emu_run(&e, "tt", emu_cfg(1, 1, threads, 1), (const void *[]){&buf, &mask, &base, &size, &base64, &size64});
    emu_read(&e, out, buf, sizeof(tree_out) * threads);
    emu_close(&e);
}

/* Worked example 2.10: base 32 (the root line's first child), 5 lanes
 * with key > value, node size 32: every lane gets 32 + 5 * 32 = 192, the
 * baseline's idx + (5 + 1) * 32 from idx 0. */
static void test_tree_traverse_example(void **state)
{
    (void)state;
    tree_out out[32];
    uint32_t mask = 1u << 3 | 1u << 7 | 1u << 11 | 1u << 20 | 1u << 29;
    run_tree(32, mask, 32, 32, 1ull << 40, 4096, out);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(out[t].reg, 192);
        assert_int_equal(out[t].imm, 192);
        assert_int_equal(out[t].wide, (1ull << 40) + 5 * 4096);
        assert_int_equal(out[t].negated, 32 + 27);
    }
}

/* All lanes, none, and a 32-bit sum that wraps; a partial warp of 8
 * counts its own lanes only. */
static void test_tree_traverse_sums(void **state)
{
    (void)state;
    tree_out out[32];
    run_tree(32, ~0u, 0xFFFFFFF0u, 1, 0, 1ull << 32, out);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(out[t].reg, 0x10);          /* 0xFFFFFFF0 + 32 mod 2^32 */
        assert_int_equal(out[t].imm, 32 + 32 * 32);
        assert_int_equal(out[t].wide, 32ull << 32);
        assert_int_equal(out[t].negated, 0xFFFFFFF0u); /* no lane's !p holds */
    }
    run_tree(32, 0, 100, 64, 7, 8, out);
    for (uint32_t t = 0; t < 32; t++) {
        assert_int_equal(out[t].reg, 100);
        assert_int_equal(out[t].imm, 32);
        assert_int_equal(out[t].wide, 7);
    }
    run_tree(8, 0xFFu, 0, 16, 0, 2, out);
    for (uint32_t t = 0; t < 8; t++) {
        assert_int_equal(out[t].reg, 8 * 16);
        assert_int_equal(out[t].wide, 16);
    }
}

/* A node size that is not a power of two (31, or 0) stops the launch
 * with the rule, the value and the PTX line of the instruction. */
static void test_tree_traverse_node_size(void **state)
{
    (void)state;
    static const uint32_t bad[] = {31, 0};
    for (unsigned k = 0; k < 2; k++) {
        emu e;
        emu_open_module(&e, ptx_test_parse_ext(tree_text));
        uint64_t buf = emu_buf(&e, NULL, sizeof(tree_out) * 32), base64 = 0, size64 = 1;
        uint32_t mask = 1, base = 0;
        assert_int_not_equal(emu_try(&e, "tt", emu_cfg(1, 1, 32, 1),
                                     (const void *[]){&buf, &mask, &base, &bad[k], &base64, &size64}),
                             0);
        assert_int_equal(e.stats.error, SIM_ERR_ILLEGAL);
        char want[96];
        snprintf(want, sizeof want, "node size that is a power of two, not %u", bad[k]);
        if (!strstr(e.err, "simtlab.tree_traverse needs a") || !strstr(e.err, want) ||
            !strstr(e.err, "PTX line 21"))
            fail_msg("message: %s", e.err);
        emu_close(&e);
    }
}

/* ld with .rowhint (global, generic, ld.global.nc, vectors) reads what
 * the plain forms read. */
static void test_rowhint_loads(void **state)
{
    (void)state;
    static const char text[] = PTX_TEST_HEADER
        ".visible .entry rh(.param .u64 p_in, .param .u64 p_out)\n{\n"
        ".reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [p_in];\n"
        "ld.param.u64 %rd2, [p_out];\n"
        "mov.u32 %r1, %tid.x;\n"
        "mul.wide.u32 %rd3, %r1, 8;\n"
        "add.s64 %rd4, %rd1, %rd3;\n"
        "ld.global.u32 %r2, [%rd4];\n"
        "ld.global.rowhint.u32 %r3, [%rd4];\n"
        "ld.rowhint.u32 %r4, [%rd4+4];\n"
        "ld.u32 %r5, [%rd4+4];\n"
        "ld.global.nc.rowhint.u32 %r6, [%rd4];\n"
        "ld.global.rowhint.v2.u32 {%r7, %r8}, [%rd4];\n"
        "mul.wide.u32 %rd5, %r1, 28;\n"
        "add.s64 %rd6, %rd2, %rd5;\n"
        "st.global.u32 [%rd6], %r2;\n"
        "st.global.u32 [%rd6+4], %r3;\n"
        "st.global.u32 [%rd6+8], %r4;\n"
        "st.global.u32 [%rd6+12], %r5;\n"
        "st.global.u32 [%rd6+16], %r6;\n"
        "st.global.u32 [%rd6+20], %r7;\n"
        "st.global.u32 [%rd6+24], %r8;\n"
        "ret;\n}\n";
    emu e;
    emu_open_module(&e, ptx_test_parse_ext(text));
    uint32_t in[64], got[32 * 7];
    uint64_t x = 0x5EEDull;
    for (unsigned i = 0; i < 64; i++)
        in[i] = (uint32_t)emu_rand(&x);
    uint64_t a = emu_buf(&e, in, sizeof in), b = emu_buf(&e, NULL, sizeof got);
    emu_run(&e, "rh", emu_cfg(1, 1, 32, 1), (const void *[]){&a, &b});
    emu_read(&e, got, b, sizeof got);
    for (unsigned t = 0; t < 32; t++) {
        const uint32_t *g = &got[7 * t];
        assert_int_equal(g[0], in[2 * t]);
        assert_int_equal(g[1], g[0]);
        assert_int_equal(g[2], in[2 * t + 1]);
        assert_int_equal(g[3], g[2]);
        assert_int_equal(g[4], g[0]);
        assert_int_equal(g[5], in[2 * t]);
        assert_int_equal(g[6], in[2 * t + 1]);
    }
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cond_acc_example),
        cmocka_unit_test(test_cond_acc_32_lanes),
        cmocka_unit_test(test_cond_acc_all_or_none),
        cmocka_unit_test(test_cond_acc_inactive_lanes),
        cmocka_unit_test(test_cond_acc_base_must_agree),
        cmocka_unit_test(test_tree_traverse_example),
        cmocka_unit_test(test_tree_traverse_sums),
        cmocka_unit_test(test_tree_traverse_node_size),
        cmocka_unit_test(test_rowhint_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
