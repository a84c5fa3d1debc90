/* test_occupancy.c — CTAs per SM (timing/occupancy.h), each expectation
 * worked out by hand from the configuration values set here, with the
 * rules of GPGPU-Sim's max_cta: threads padded to warps, registers per
 * thread rounded up to 4. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/occupancy.h"

/* A V100-like SM: 2048 threads, 65536 registers, 96 KiB shared, 32 CTAs. */
static tm_config sm(void)
{
    tm_config c = {0};
    c.warp_size = 32;
    c.max_threads_per_core = 2048;
    c.registers_per_core = 65536;
    c.shmem_bytes = 96 * 1024;
    c.max_ctas_per_core = 32;
    return c;
}

static void test_limits(void **state)
{
    (void)state;
    tm_config c = sm();
    /* 256 threads, 32 registers, no shared: threads 2048/256 = 8;
     * registers 65536 / (32 * 256) = 8; CTA slots 32 -> 8, threads first */
    tm_occupancy o = tm_occupancy_of(&c, 256, 32, 0);
    assert_int_equal(o.ctas, 8);
    assert_int_equal(o.limit, TM_LIMIT_THREADS);
    assert_int_equal(o.by[TM_LIMIT_REGISTERS], 8);
    /* 100 threads pad to 128: threads 16; 30 registers round to 32:
     * 65536 / (32 * 128) = 16; 40 KiB shared: 96/40 = 2 -> shared memory */
    o = tm_occupancy_of(&c, 100, 30, 40 * 1024);
    assert_int_equal(o.by[TM_LIMIT_THREADS], 16);
    assert_int_equal(o.by[TM_LIMIT_REGISTERS], 16);
    assert_int_equal(o.ctas, 2);
    assert_int_equal(o.limit, TM_LIMIT_SHARED);
    /* 64 threads, 255 registers -> 256: 65536 / (256 * 64) = 4 */
    o = tm_occupancy_of(&c, 64, 255, 0);
    assert_int_equal(o.ctas, 4);
    assert_int_equal(o.limit, TM_LIMIT_REGISTERS);
    /* 32 threads, 8 registers: threads 64, registers 256, slots 32 */
    o = tm_occupancy_of(&c, 32, 8, 0);
    assert_int_equal(o.ctas, 32);
    assert_int_equal(o.limit, TM_LIMIT_CTAS);
    /* more shared memory than the SM has: none fits */
    o = tm_occupancy_of(&c, 32, 8, 100 * 1024);
    assert_int_equal(o.ctas, 0);
    assert_string_equal(tm_occupancy_limit_name(o.limit), "shared memory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_limits)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
