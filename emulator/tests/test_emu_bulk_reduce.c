/* test_emu_bulk_reduce.c — cp.reduce.async.bulk without tensor maps (PTX
 * ISA 9.0, "cp.reduce.async.bulk": each element of the destination
 * becomes redOp(destination element, source element), the source in
 * shared::cta, the destination in global memory (completion by
 * .bulk_group) or in the shared memory of a CTA of the cluster (complete-tx
 * of the size on an mbarrier); the size a multiple of 16 and the
 * addresses 16-byte aligned, as for cp.async.bulk). The operations are
 * those atom defines ("atom": inc(r, s) = r >= s ? 0 : r + 1, dec(r, s)
 * = r == 0 || r > s ? s : r - 1; floating-point add rounds to nearest),
 * computed here in C on the same inputs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

enum { BYTES = 64 };

/* Append to text (at *k) the copy of BYTES from [from] in space fs to
 * [to] in space ts, 16 bytes at a time through %rd3, %rd4. */
static void copy(char *text, size_t cap, size_t *k, const char *fs, const char *from, const char *ts, const char *to)
{
    for (int off = 0; off < BYTES; off += 16)
        *k += (size_t)snprintf(text + *k, cap - *k, " ld.%s.v2.b64 {%%rd3, %%rd4}, [%s+%d];\n"
                               " st.%s.v2.b64 [%s+%d], {%%rd3, %%rd4};\n", fs, from, off, ts, to, off);
}

/* The kernel k(.param .u64 pdst, .param .u64 psrc): one thread copies
 * BYTES from psrc into the shared buffer sbuf and runs `op` on it (%r1)
 * into the global destination [%rd1], or with cluster into the shared
 * buffer sdst (%r2, filled from pdst first, its final bytes copied back to
 * pdst) with the mbarrier bar (%r3); then waits for it. */
static char *kernel(const char *op, bool cluster)
{
    size_t cap = 8192, k = 0;
    char *text = malloc(cap);
    k += (size_t)snprintf(text + k, cap - k,
                          ".version 9.0\n.target sm_90\n.address_size 64\n"
                          ".shared .align 16 .b8 sbuf[%d];\n.shared .align 16 .b8 sdst[%d];\n"
                          ".shared .align 8 .b64 bar;\n"
                          ".visible .entry k(.param .u64 pdst, .param .u64 psrc)\n{\n"
                          " .reg .b64 %%rd<6>;\n .reg .b32 %%r<6>;\n .reg .pred %%p;\n"
                          " ld.param.u64 %%rd1, [pdst];\n cvta.to.global.u64 %%rd1, %%rd1;\n"
                          " ld.param.u64 %%rd2, [psrc];\n cvta.to.global.u64 %%rd2, %%rd2;\n",
                          BYTES, BYTES);
    copy(text, cap, &k, "global", "%rd2", "shared", "sbuf");
    if (cluster) {
        copy(text, cap, &k, "global", "%rd1", "shared", "sdst");
        k += (size_t)snprintf(text + k, cap - k, " mbarrier.init.shared::cta.b64 [bar], 1;\n"
                              " mbarrier.arrive.expect_tx.shared::cta.b64 %%rd5, [bar], %d;\n"
                              " mov.u32 %%r2, sdst;\n mov.u32 %%r3, bar;\n", BYTES);
    }
    k += (size_t)snprintf(text + k, cap - k, " fence.proxy.async.shared::cta;\n mov.u32 %%r1, sbuf;\n%s\n", op);
    if (cluster) {
        k += (size_t)snprintf(text + k, cap - k, "WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 %%p, [bar], 0;\n"
                              " @!%%p bra WAIT;\n");
        copy(text, cap, &k, "shared", "sdst", "global", "%rd1");
    } else {
        k += (size_t)snprintf(text + k, cap - k, " cp.async.bulk.commit_group;\n cp.async.bulk.wait_group 0;\n");
    }
    snprintf(text + k, cap - k, " ret;\n}\n");
    return text;
}

/* Run kernel(op) on one thread: dst (BYTES, updated) and src. */
static void run(const char *op, bool cluster, void *dst, const void *src)
{
    char *text = kernel(op, cluster);
    emu_test_assemble(text, "sm_90", true);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    free(text);
    uint64_t ddst = emu_buf(&e, dst, BYTES), dsrc = emu_buf(&e, src, BYTES);
    const void *args[] = {&ddst, &dsrc};
    emu_run(&e, "k", emu_cfg(1, 1, 1, 1), args);
    emu_read(&e, dst, ddst, BYTES);
    emu_close(&e);
}

/* The integer reductions on u32, s32, u64 and b64 elements, to global
 * memory and to shared::cluster memory with an mbarrier. */
static void test_integer(void **state)
{
    (void)state;
    /* cluster: ptxas takes the form with a shared::cluster destination too */
    static const struct { const char *op, *type; int w; bool sg, cluster; } forms[] = {
        {"add", "u32", 32, false, true}, {"min", "s32", 32, true, true}, {"max", "u32", 32, false, true},
        {"inc", "u32", 32, false, true}, {"dec", "u32", 32, false, true}, {"and", "b32", 32, false, true},
        {"xor", "b32", 32, false, true}, {"or", "b64", 64, false, false}, {"xor", "b64", 64, false, false},
        {"add", "u64", 64, false, true}, {"min", "u64", 64, false, false}, {"max", "s64", 64, true, false},
    };
    uint64_t seed = 0xb17;
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++)
        for (int cluster = 0; cluster < 1 + forms[f].cluster; cluster++) {
            uint8_t dst[BYTES], src[BYTES], want[BYTES];
            for (int i = 0; i < BYTES; i += 8) {
                uint64_t a = emu_rand(&seed), b = emu_rand(&seed);
                if (i == 8) /* inc/dec edges: the element reaches the limit, or is 0 */
                    a = 7ull | 7ull << 32, b = 7ull | 9ull << 32;
                if (i == 16)
                    a = 0, b = 5ull << 32 | 5;
                memcpy(dst + i, &a, 8);
                memcpy(src + i, &b, 8);
            }
            unsigned es = (unsigned)forms[f].w / 8;
            for (int i = 0; i < BYTES; i += (int)es) {
                uint64_t r = 0, s = 0;
                memcpy(&r, dst + i, es);
                memcpy(&s, src + i, es);
                uint64_t v;
                const char *op = forms[f].op;
                int64_t x = forms[f].w == 32 ? (int32_t)r : (int64_t)r, y = forms[f].w == 32 ? (int32_t)s : (int64_t)s;
                if (!strcmp(op, "add")) v = r + s;
                else if (!strcmp(op, "min")) v = forms[f].sg ? (uint64_t)(x < y ? x : y) : r < s ? r : s;
                else if (!strcmp(op, "max")) v = forms[f].sg ? (uint64_t)(x > y ? x : y) : r > s ? r : s;
                else if (!strcmp(op, "inc")) v = r >= s ? 0 : r + 1;
                else if (!strcmp(op, "dec")) v = r == 0 || r > s ? s : r - 1;
                else if (!strcmp(op, "and")) v = r & s;
                else if (!strcmp(op, "or")) v = r | s;
                else v = r ^ s;
                memcpy(want + i, &v, es);
            }
            char text[512];
            if (cluster)
                snprintf(text, sizeof text, " cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
                         ".%s.%s [%%r2], [%%r1], %d, [%%r3];", forms[f].op, forms[f].type, BYTES);
            else
                snprintf(text, sizeof text, " cp.reduce.async.bulk.global.shared::cta.bulk_group.%s.%s [%%rd1], "
                         "[%%r1], %d;", forms[f].op, forms[f].type, BYTES);
            run(text, cluster, dst, src);
            if (memcmp(dst, want, BYTES) != 0)
                fail_msg("%s: element bytes differ", text);
        }
}

/* f32 add, and f16/bf16 add.noftz: each element rounded to nearest. */
static void test_float(void **state)
{
    (void)state;
    float fd[BYTES / 4], fs[BYTES / 4], fw[BYTES / 4];
    for (int i = 0; i < BYTES / 4; i++) {
        fd[i] = (float)i * 0.37f - 2.0f;
        fs[i] = 1.0f / (float)(i + 3);
        volatile float sum = fd[i] + fs[i];
        fw[i] = sum;
    }
    run(" cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], 64;", false, fd, fs);
    assert_memory_equal(fd, fw, sizeof fw);
    /* f16: 1.0 + 2^-11 ties to 1.0 (even), 1.0 + 3 * 2^-11 to 1 + 2^-9; bf16 likewise with 2^-8 */
    uint16_t hd[BYTES / 2], hs[BYTES / 2];
    for (int i = 0; i < BYTES / 2; i++) {
        hd[i] = 0x3c00;                          /* f16 1.0 */
        hs[i] = i % 2 ? 0x1600 : 0x1000;         /* 3 * 2^-11 (1.5 * 2^-10), 2^-11 */
    }
    run(" cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [%r1], 64;", false, hd, hs);
    for (int i = 0; i < BYTES / 2; i++)
        assert_int_equal(hd[i], i % 2 ? 0x3c02 : 0x3c00);
    for (int i = 0; i < BYTES / 2; i++) {
        hd[i] = 0x3f80;                          /* bf16 1.0 */
        hs[i] = i % 2 ? 0x3c40 : 0x3b80;         /* 3 * 2^-8 (0x3c40 = 1.5 * 2^-7), 2^-8 */
    }
    run(" cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%rd1], [%r1], 64;", false, hd, hs);
    for (int i = 0; i < BYTES / 2; i++)
        assert_int_equal(hd[i], i % 2 ? 0x3f82 : 0x3f80);
}

/* A size that is not a multiple of 16 stops the launch. */
static void test_bad_size(void **state)
{
    (void)state;
    char *text = kernel(" cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], 24;", false);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    free(text);
    uint64_t ddst = emu_buf(&e, NULL, BYTES), dsrc = emu_buf(&e, NULL, BYTES);
    const void *args[] = {&ddst, &dsrc};
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args), -1);
    if (!strstr(e.err, "multiple of 16"))
        fail_msg("unexpected message: %s", e.err);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer),
        cmocka_unit_test(test_float),
        cmocka_unit_test(test_bad_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
