/* test_emu_float_literals.c — float literals as instruction operands.
 * PTX ISA 9.0, "Floating-Point Constants": a literal is a double-precision
 * value unless written 0fXXXXXXXX (single precision, exact); an
 * instruction reads it in its own type (an f32 instruction the double
 * rounded to nearest single precision, an f64 one the single widened).
 * Decimal literals are what hand-written inline assembly uses (nvcc's own
 * output writes 0f/0d); the same instructions on an H100 give these
 * results (tools/gpu/README.md). References: C's own conversions of the
 * same decimal text, and the correctly rounded operations of the host. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

static uint32_t bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static float flt(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

enum { N = 8 };
static const float IN[N] = {10.0f, -7.5f, 0.1f, 3.0f, 1e-30f, 123456.78f, -0.0f, 0.3f};

/* out[i] = body(a = IN[i]) for every input, against ref(IN[i]). */
static void check(const char *body, float (*ref)(float))
{
    uint32_t a[N], out[N];
    for (int i = 0; i < N; i++)
        a[i] = bits(IN[i]);
    op_run(body, a, NULL, NULL, out, N);
    for (int i = 0; i < N; i++)
        if (out[i] != bits(ref(IN[i])))
            fail_msg("%s\ninput %g: got %.9g (%08x), want %.9g (%08x)", body, (double)IN[i], (double)flt(out[i]),
                     out[i], (double)ref(IN[i]), bits(ref(IN[i])));
}

static float add_3(float x) { return x + 3.0f; }
static float div_3(float x) { return x / 3.0f; }
static float mul_point1(float x) { return x * (float)0.1; }
static float fma_exp(float x) { return fmaf(x, (float)2.5e-3, (float)-1.25e2); }
static float sel_lt_half(float x) { return x < 0.5f ? (float)0.7 : (float)1e10; }
static float as_f64_plus(float x) { return (float)((double)x + 1.1); }
static float cvt_point1(float x) { (void)x; return (float)0.1; }
static float f64_hex_single(float x) { return (float)((double)x * 1.5); }

/* add.f32 / div.rn.f32 / mul.f32 / fma.rn.f32 with decimal literals */
static void test_f32_arithmetic(void **state)
{
    (void)state;
    check(".reg .f32 %x, %y;\nmov.b32 %x, %a;\nadd.f32 %y, %x, 3.0;\nmov.b32 %d, %y;", add_3);
    check(".reg .f32 %x, %y;\nmov.b32 %x, %a;\ndiv.rn.f32 %y, %x, 3.0;\nmov.b32 %d, %y;", div_3);
    check(".reg .f32 %x, %y;\nmov.b32 %x, %a;\nmul.rn.f32 %y, %x, 0.1;\nmov.b32 %d, %y;", mul_point1);
    check(".reg .f32 %x, %y;\nmov.b32 %x, %a;\nfma.rn.f32 %y, %x, 2.5e-3, -1.25e2;\nmov.b32 %d, %y;", fma_exp);
}

/* compares and selects: setp.lt.f32 against 0.5, selp.f32 of two literals */
static void test_f32_compare_select(void **state)
{
    (void)state;
    check(".reg .f32 %x, %y;\n.reg .pred %q;\nmov.b32 %x, %a;\nsetp.lt.f32 %q, %x, 0.5;\n"
          "selp.f32 %y, 0.7, 1E10, %q;\nmov.b32 %d, %y;",
          sel_lt_half);
}

/* f64 instructions: a decimal literal keeps double precision, a 0f one is
 * widened; cvt.rn.f32.f64 reads its literal as the source's f64 */
static void test_f64_and_cvt(void **state)
{
    (void)state;
    check(".reg .f32 %x, %y;\n.reg .f64 %u, %v;\nmov.b32 %x, %a;\ncvt.f64.f32 %u, %x;\n"
          "add.rn.f64 %v, %u, 1.1;\ncvt.rn.f32.f64 %y, %v;\nmov.b32 %d, %y;",
          as_f64_plus);
    check(".reg .f32 %y;\ncvt.rn.f32.f64 %y, 0.1;\nmov.b32 %d, %y;", cvt_point1);
    check(".reg .f32 %x, %y;\n.reg .f64 %u, %v;\nmov.b32 %x, %a;\ncvt.f64.f32 %u, %x;\n"
          "mul.rn.f64 %v, %u, 0f3FC00000;\ncvt.rn.f32.f64 %y, %v;\nmov.b32 %d, %y;",
          f64_hex_single);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f32_arithmetic),
        cmocka_unit_test(test_f32_compare_select),
        cmocka_unit_test(test_f64_and_cvt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
