/* test_int_semantics.c — the shared PTX integer rules (ir/int_semantics.h).
 * Expected values are worked out by hand from the PTX ISA 9.0 text
 * (two's-complement wrap at the operation's width) and, for division by
 * zero and MIN / -1, which the ISA leaves unspecified, from what NVIDIA
 * GPUs return (quotient all ones, remainder the dividend; MIN / -1 = MIN,
 * remainder 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ir/int_semantics.h"

static void test_extension(void **state)
{
    (void)state;
    assert_int_equal(ptx_zext(0x1ff, 8), 0xff);
    assert_int_equal(ptx_zext(0xdeadbeefcafef00dull, 64), 0xdeadbeefcafef00dull);
    assert_true(ptx_sext(0x80, 8) == -128);
    assert_true(ptx_sext(0x7f, 8) == 127);
    assert_true(ptx_sext(0xffffffffull, 32) == -1);
    assert_true(ptx_sext(1, 1) == -1); /* a 1-bit signed value: 1 is -1 */
    assert_int_equal(ptx_ext(0xfffe, 16, true), 0xfffffffffffffffeull);
    assert_int_equal(ptx_ext(0x1fffe, 16, false), 0xfffe);
}

static void test_division(void **state)
{
    (void)state;
    /* ordinary quotients truncate toward zero, remainders take the dividend's sign */
    assert_int_equal(ptx_int_div((uint64_t)-7, 2, 32, true, false), (uint64_t)-3);
    assert_int_equal(ptx_int_div((uint64_t)-7, 2, 32, true, true), (uint64_t)-1);
    assert_int_equal(ptx_int_div(0xfffffff9u, 2, 32, false, false), 0x7ffffffcu);
    /* only the low w bits of the operands count */
    assert_int_equal(ptx_int_div(0x100000007ull, 0x100000002ull, 32, false, false), 3);
    /* by zero: all ones (at the width, extended by signedness) and the dividend */
    assert_int_equal(ptx_int_div(5, 0, 32, false, false), 0xffffffffu);
    assert_int_equal(ptx_int_div(5, 0, 32, false, true), 5);
    assert_int_equal(ptx_int_div(5, 0, 16, true, false), ~0ull);
    assert_int_equal(ptx_int_div((uint64_t)-5, 0, 32, true, true), (uint64_t)-5);
    /* MIN / -1 wraps to MIN, remainder 0, at every width */
    assert_int_equal(ptx_int_div(0x80000000u, 0xffffffffu, 32, true, false), (uint64_t)(int64_t)INT32_MIN);
    assert_int_equal(ptx_int_div(0x80000000u, 0xffffffffu, 32, true, true), 0);
    assert_int_equal(ptx_int_div((uint64_t)INT64_MIN, ~0ull, 64, true, false), (uint64_t)INT64_MIN);
    assert_int_equal(ptx_int_div(0x8000, 0xffff, 16, true, false), (uint64_t)(int64_t)INT16_MIN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_extension),
        cmocka_unit_test(test_division),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
