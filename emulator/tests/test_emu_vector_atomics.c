/* test_emu_vector_atomics.c — atom and red with vector types (PTX ISA 9.0
 * "atom", "red": on .global or generic addresses, .add on .v2/.v4 .f32,
 * .add/.min/.max .noftz on .v2/.v4/.v8 .f16/.bf16 and .v2/.v4
 * .f16x2/.bf16x2; operands d and b are vectors of the vector's size; the
 * elements are adjacent in memory and each is updated atomically).
 *
 * The values added are small integers, whose sums are exact in every
 * format, so the final values do not depend on the order of the threads.
 * Atomicity is checked on the old values atom returns: ordered by the old
 * value of element 0, each thread must have seen the sum of the threads
 * before it, and every element the same threads (thread t adds (k + 1) *
 * (t + 1) to element k, so element k's old value is k + 1 times element
 * 0's). The vector must be aligned to its size ("Addresses as Operands");
 * a misaligned one faults. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* The kernel k(.param .u64 pmem, .param .u64 pold): %v = global thread
 * index + 1 as f32 (%v1..%v4 = 1..4 times it), %pm = pmem (.global
 * address), %po = pold + 16 * index; then body. */
static char *kernel(const char *body)
{
    static const char *const head =
        ".version 9.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 pmem, .param .u64 pold)\n{\n"
        ".reg .b32 %%i, %%n, %%r<9>;\n.reg .b64 %%pm, %%po, %%off;\n.reg .f32 %%v1, %%v2, %%v3, %%v4, %%o<5>;\n"
        ".reg .b16 %%h<17>;\n.reg .pred %%p;\n"
        "mov.u32 %%i, %%ctaid.x;\nmov.u32 %%n, %%ntid.x;\nmul.lo.u32 %%i, %%i, %%n;\nmov.u32 %%n, %%tid.x;\n"
        "add.u32 %%i, %%i, %%n;\nadd.u32 %%n, %%i, 1;\ncvt.rn.f32.u32 %%v1, %%n;\nadd.f32 %%v2, %%v1, %%v1;\n"
        "add.f32 %%v3, %%v2, %%v1;\nadd.f32 %%v4, %%v3, %%v1;\n"
        "ld.param.u64 %%pm, [pmem];\ncvta.to.global.u64 %%pm, %%pm;\nld.param.u64 %%po, [pold];\n"
        "mul.wide.u32 %%off, %%i, 16;\nadd.s64 %%po, %%po, %%off;\n%s\nret;\n}\n";
    size_t n = strlen(head) + strlen(body) + 1;
    char *text = malloc(n);
    snprintf(text, n, head, body);
    emu_test_assemble(text, "sm_90", true);
    return text;
}

/* Run kernel(body) on `blocks` blocks of `threads` over the memory words
 * mem (n bytes, updated) and the per-thread old values old (16 bytes a
 * thread). */
static void run(const char *body, unsigned blocks, unsigned threads, void *mem, size_t n, void *old)
{
    char *text = kernel(body);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    free(text);
    uint64_t dmem = emu_buf(&e, mem, n), dold = emu_buf(&e, NULL, 16 * blocks * threads);
    const void *args[] = {&dmem, &dold};
    sim_launch_config cfg = emu_cfg(blocks, 1, threads, 1);
    cfg.host_threads = 2;
    emu_run(&e, "k", cfg, args);
    emu_read(&e, mem, dmem, n);
    if (old)
        emu_read(&e, old, dold, 16 * blocks * threads);
    emu_close(&e);
}

/* Check that the old values of element 0 (olds[t], thread t adding
 * (t + 1) * unit) chain: sorted, each is the previous one plus that
 * thread's addend, from `init`; and that they end at `final`. */
static void check_chain(const char *what, const double *olds, unsigned n, double unit, double init, double final)
{
    bool *used = calloc(n, sizeof *used);
    double at = init;
    for (unsigned k = 0; k < n; k++) { /* the thread that saw `at` */
        unsigned found = n;
        for (unsigned t = 0; t < n && found == n; t++)
            if (!used[t] && olds[t] == at)
                found = t;
        if (found == n)
            fail_msg("%s: no thread saw the running sum %g (step %u)", what, at, k);
        used[found] = true;
        at += (found + 1) * unit;
    }
    if (at != final)
        fail_msg("%s: the running sum ends at %g, memory holds %g", what, at, final);
    free(used);
}

/* atom.global.v4.f32.add and atom.global.v2.f32.add returning the old
 * values, 128 threads in 4 blocks on 2 host threads. */
static void test_f32_vectors(void **state)
{
    (void)state;
    enum { N = 128 };
    float mem[8] = {0, 0, 0, 0, 0.5f, 0.5f, 0, 0}, old[N * 4];
    run("atom.global.v4.f32.add {%o1, %o2, %o3, %o4}, [%pm], {%v1, %v2, %v3, %v4};\n"
        "st.global.v4.f32 [%po], {%o1, %o2, %o3, %o4};\n"
        "atom.global.add.v2.f32 {%o1, %o2}, [%pm+16], {%v1, %v2};",
        4, 32, mem, sizeof mem, old);
    double sum = N * (N + 1) / 2.0;
    for (int k = 0; k < 4; k++)
        assert_true(mem[k] == (float)((k + 1) * sum));
    assert_true(mem[4] == (float)(0.5 + sum) && mem[5] == (float)(0.5 + 2 * sum));
    assert_true(mem[6] == 0 && mem[7] == 0); /* past the vectors: untouched */
    double olds[N];
    for (unsigned t = 0; t < N; t++) {
        olds[t] = old[4 * t];
        for (int k = 1; k < 4; k++)
            if (old[4 * t + k] != (k + 1) * old[4 * t])
                fail_msg("thread %u: element %d saw %g, element 0 %g", t, k, (double)old[4 * t + k],
                         (double)old[4 * t]);
    }
    check_chain("atom.global.v4.f32.add", olds, N, 1.0, 0.0, mem[0]);
}

/* red.global.add.v4.f32 and red.global.v2.f32.add, and the generic form
 * atom.v2.f32.add (no state space: a generic address of global memory). */
static void test_red_and_generic(void **state)
{
    (void)state;
    enum { N = 96 };
    float mem[8] = {1, 1, 1, 1, 0, 0, 0, 0}, old[N * 4];
    run("red.global.add.v4.f32 [%pm], {%v1, %v2, %v3, %v4};\nred.global.v2.f32.add [%pm+16], {%v1, %v1};\n"
        "cvta.global.u64 %pm, %pm;\natom.v2.f32.add {%o1, %o2}, [%pm+24], {%v2, %v4};\n"
        "st.global.v2.f32 [%po], {%o1, %o2};",
        3, 32, mem, sizeof mem, old);
    double sum = N * (N + 1) / 2.0;
    for (int k = 0; k < 4; k++)
        assert_true(mem[k] == (float)(1 + (k + 1) * sum));
    assert_true(mem[4] == (float)sum && mem[5] == (float)sum);
    assert_true(mem[6] == (float)(2 * sum) && mem[7] == (float)(4 * sum));
    double olds[N];
    for (unsigned t = 0; t < N; t++) {
        olds[t] = old[4 * t] / 2;
        assert_true(old[4 * t + 1] == 2 * old[4 * t]);
    }
    check_chain("atom.v2.f32.add (generic)", olds, N, 1.0, 0.0, mem[6] / 2);
}

/* The code of the integer v in a binary float format with `mant`
 * mantissa bits and exponent bias `bias` (v exact in it: its significant
 * bits fit the mantissa). */
static uint16_t float_of_int(unsigned v, int mant, int bias)
{
    if (v == 0)
        return 0;
    int e = 0;
    while ((v >> e) > 1)
        e++;
    unsigned m = e <= mant ? v << (mant - e) : v >> (e - mant);
    return (uint16_t)((e + bias) << mant | (m & ((1u << mant) - 1)));
}

/* f16 and bf16 codes of small integers (exact: below 2^11 and 2^8, and
 * powers of two). */
static uint16_t f16_of_int(unsigned v)
{
    return float_of_int(v, 10, 15);
}
static uint16_t bf16_of_int(unsigned v)
{
    return float_of_int(v, 7, 127);
}

/* atom.global.v8.f16.add.noftz and atom.global.v8.bf16.add.noftz (32
 * threads, element k gets k + 1 from every thread), red.global.v4.bf16x2
 * .add.noftz. Sums up to 2^11 (f16) and 2^8 (bf16) are exact. */
static void test_half_add(void **state)
{
    (void)state;
    enum { N = 32 };
    uint16_t mem[24] = {0}, old[N * 8];
    char body[4096];
    size_t k = 0;
    for (int e = 0; e < 8; e++) /* %h1..%h8: the f16 of 1..8, %h9..%h16: the bf16 of 1..8 */
        k += (size_t)snprintf(body + k, sizeof body - k, "mov.b16 %%h%d, 0x%04x;\nmov.b16 %%h%d, 0x%04x;\n", e + 1,
                              f16_of_int((unsigned)e + 1), e + 9, bf16_of_int((unsigned)e + 1));
    snprintf(body + k, sizeof body - k,
             "atom.global.v8.f16.add.noftz {%%h1, %%h2, %%h3, %%h4, %%h5, %%h6, %%h7, %%h8}, [%%pm], "
             "{%%h1, %%h2, %%h3, %%h4, %%h5, %%h6, %%h7, %%h8};\n"
             "st.global.v8.b16 [%%po], {%%h1, %%h2, %%h3, %%h4, %%h5, %%h6, %%h7, %%h8};\n"
             "atom.global.v8.bf16.add.noftz {%%h1, %%h2, %%h3, %%h4, %%h5, %%h6, %%h7, %%h8}, [%%pm+16], "
             "{%%h9, %%h10, %%h11, %%h12, %%h13, %%h14, %%h15, %%h16};\n"
             "mov.b32 %%r1, {%%h9, %%h10};\nmov.b32 %%r2, {%%h11, %%h12};\n"
             "red.global.v2.bf16x2.add.noftz [%%pm+32], {%%r1, %%r2};\n");
    run(body, 1, N, mem, sizeof mem, old);
    for (int e = 0; e < 8; e++) {
        if (mem[e] != f16_of_int(N * (unsigned)(e + 1)) || mem[8 + e] != bf16_of_int(N * (unsigned)(e + 1)))
            fail_msg("element %d: f16 %04x bf16 %04x, want %04x %04x", e, mem[e], mem[8 + e],
                     f16_of_int(N * (unsigned)(e + 1)), bf16_of_int(N * (unsigned)(e + 1)));
    }
    for (int e = 0; e < 4; e++)
        assert_int_equal(mem[16 + e], bf16_of_int(N * (unsigned)(e + 1)));
    /* the old f16 values: element e is e + 1 times the number of threads before */
    for (unsigned t = 0; t < N; t++)
        for (int e = 0; e < 8; e++) {
            unsigned before = 0;
            while (before <= N && f16_of_int(before) != old[8 * t])
                before++;
            if (before > N || old[8 * t + e] != f16_of_int(before * (unsigned)(e + 1)))
                fail_msg("thread %u element %d saw %04x (element 0 %04x)", t, e, old[8 * t + e], old[8 * t]);
        }
}

/* atom.global.v4.f16x2.min.noftz and atom.global.v2.bf16x2.max.noftz: the
 * minimum and maximum over the threads; the old values min returns lie
 * between the final minimum and the start. */
static void test_half_minmax(void **state)
{
    (void)state;
    enum { N = 64 };
    uint16_t mem[16], old[N * 8];
    for (int e = 0; e < 8; e++) {
        mem[e] = f16_of_int(1000); /* min's start */
        mem[8 + e] = 0x8000 | bf16_of_int(200); /* max's start: -200 */
    }
    /* thread t offers f16 (t * 7 + e) % 61 + 3 for element e of the min,
     * bf16 -(t * 5 + e) % 43 for the max */
    const char *body =
        "mul.lo.u32 %r1, %i, 7;\nrem.u32 %r1, %r1, 61;\n"
        "add.u32 %r2, %r1, 1;\nrem.u32 %r2, %r2, 61;\nadd.u32 %r3, %r1, 2;\nrem.u32 %r3, %r3, 61;\n"
        "add.u32 %r4, %r1, 3;\nrem.u32 %r4, %r4, 61;\nadd.u32 %r1, %r1, 3;\nadd.u32 %r2, %r2, 3;\n"
        "add.u32 %r3, %r3, 3;\nadd.u32 %r4, %r4, 3;\n"
        "cvt.rn.f16.u32 %h1, %r1;\ncvt.rn.f16.u32 %h2, %r2;\ncvt.rn.f16.u32 %h3, %r3;\ncvt.rn.f16.u32 %h4, %r4;\n"
        "mov.b32 %r5, {%h1, %h2};\nmov.b32 %r6, {%h3, %h4};\nmov.b32 %r7, {%h2, %h1};\nmov.b32 %r8, {%h4, %h3};\n"
        "atom.global.v4.f16x2.min.noftz {%r1, %r2, %r3, %r4}, [%pm], {%r5, %r6, %r7, %r8};\n"
        "st.global.v4.b32 [%po], {%r1, %r2, %r3, %r4};\n"
        "mul.lo.u32 %r1, %i, 5;\nrem.u32 %r1, %r1, 43;\nadd.u32 %r2, %r1, 1;\nrem.u32 %r2, %r2, 43;\n"
        "cvt.rn.bf16.u32 %h1, %r1;\ncvt.rn.bf16.u32 %h2, %r2;\nneg.bf16 %h1, %h1;\nneg.bf16 %h2, %h2;\n"
        "mov.b32 %r5, {%h1, %h2};\nmov.b32 %r6, {%h2, %h1};\n"
        "atom.global.v2.bf16x2.max.noftz {%r1, %r2}, [%pm+16], {%r5, %r6};\n";
    run(body, 1, N, mem, sizeof mem, old);
    /* min over t of (7t + e) % 61 + 3: some t gives 0 for each e -> 3 */
    for (int e = 0; e < 8; e++)
        assert_int_equal(mem[e], f16_of_int(3));
    /* max over t of -((5t + e) % 43): some t gives -0 (bf16 neg of +0),
     * above every other value; the last four halves are not touched */
    for (int e = 0; e < 8; e++)
        assert_int_equal(mem[8 + e], e < 4 ? 0x8000 : 0x8000 | bf16_of_int(200));
    for (unsigned t = 0; t < N; t++)
        for (int e = 0; e < 8; e++) {
            uint16_t o = old[8 * t + e];
            double v = ldexp(1024 + (o & 0x3ff), ((o >> 10) & 31) - 25); /* a positive normal f16 */
            if ((o >> 15) || v < 3 || v > 1000)
                fail_msg("thread %u element %d saw %04x, outside [3, 1000]", t, e, o);
        }
}

/* A vector atom must be aligned to the vector's size: .v4.f32 at 8 mod 16
 * faults. */
static void test_misaligned(void **state)
{
    (void)state;
    char *text = kernel("atom.global.v4.f32.add {%o1, %o2, %o3, %o4}, [%pm+8], {%v1, %v2, %v3, %v4};");
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    free(text);
    uint64_t dmem = emu_buf(&e, NULL, 64), dold = emu_buf(&e, NULL, 16);
    const void *args[] = {&dmem, &dold};
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args), -1);
    if (!strstr(e.err, "misaligned"))
        fail_msg("'%s' does not say misaligned", e.err);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_vectors),
        cmocka_unit_test(test_red_and_generic),
        cmocka_unit_test(test_half_add),
        cmocka_unit_test(test_half_minmax),
        cmocka_unit_test(test_misaligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
