/* test_bits.c — the set-bit counts of timing/bits.h against counting the
 * bits one at a time: every 8-bit value, and 32-bit values chosen to have
 * each count (0 to 32 bits) plus a pseudo-random sweep. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/bits.h"

/* The reference: one bit at a time. */
static uint32_t count_slowly(uint64_t x)
{
    uint32_t n = 0;
    for (; x; x >>= 1)
        n += (uint32_t)(x & 1);
    return n;
}

static void test_popcount8_every_value(void **state)
{
    (void)state;
    for (uint32_t x = 0; x < 256; x++)
        assert_int_equal(tm_popcount8((uint8_t)x), count_slowly(x));
}

static void test_popcount32(void **state)
{
    (void)state;
    for (uint32_t k = 0; k <= 32; k++) { /* the k lowest bits, the k highest */
        uint32_t low = k == 32 ? UINT32_MAX : (1u << k) - 1;
        assert_int_equal(tm_popcount32(low), k);
        assert_int_equal(tm_popcount32(~low), 32 - k);
    }
    uint64_t s = 0x9E3779B97F4A7C15ull;
    for (uint32_t i = 0; i < 100000; i++) { /* xorshift64 */
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        uint32_t x = (uint32_t)(s >> 16);
        assert_int_equal(tm_popcount32(x), count_slowly(x));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_popcount8_every_value),
        cmocka_unit_test(test_popcount32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
