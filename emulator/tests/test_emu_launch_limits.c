/* test_emu_launch_limits.c — the instruction limit of a launch
 * (--max-instructions) counts every block's warp instructions: it is a
 * budget for the whole grid, not one granted again to each new block. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* A grid of many blocks of one warp running the one-instruction kernel
 * `ret;`: with a limit of 1000 warp instructions, the launch must stop
 * with SIM_ERR_LIMIT after about 1000 blocks (each issues one warp
 * instruction), on one host thread or several. Expected values: the
 * limit's definition (warp instructions per launch); before the fix every
 * block past the budget was granted one instruction and all ran. */
static void test_budget_is_global_to_the_launch(void **state)
{
    (void)state;
    const uint32_t threads[] = {1, 4};
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        emu e;
        emu_open_module(&e, ptx_test_parse_body("", "ret;"));
        sim_launch_config cfg = emu_cfg(200000, 1, 32, 1);
        cfg.max_instructions = 1000;
        cfg.host_threads = threads[i];
        uint64_t p = 0;
        const void *args[] = {&p};
        if (emu_try(&e, "k", cfg, args) == 0)
            fail_msg("launch of 200000 one-instruction blocks ran to the end under a limit of 1000 "
                     "(%u host threads)", threads[i]);
        assert_int_equal(e.stats.error, SIM_ERR_LIMIT);
        if (!strstr(e.err, "instruction limit"))
            fail_msg("error '%s' does not name the instruction limit", e.err);
        /* each host thread may finish the block it had started */
        assert_true(e.stats.warp_instructions <= 1000 + threads[i]);
        assert_true(e.stats.ctas <= 1000 + threads[i]);
        emu_close(&e);
    }
}

/* A grid whose blocks together need exactly the limit runs to the end:
 * the limit stops the instruction past it, not the last one allowed. */
static void test_budget_exactly_spent_is_not_a_fault(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse_body("", "ret;"));
    sim_launch_config cfg = emu_cfg(1000, 1, 32, 1);
    cfg.max_instructions = 1000;
    uint64_t p = 0;
    const void *args[] = {&p};
    emu_run(&e, "k", cfg, args);
    assert_int_equal(e.stats.warp_instructions, 1000);
    emu_close(&e);
}

/* CUDA refuses a grid x of 2^31 (and y or z of 65536) with
 * cudaErrorInvalidConfiguration (error 9); the CUDA programming guide's
 * table of limits: grid x at most 2^31-1, y and z at most 65535; block x
 * and y at most 1024, z at most 64, at most 1024 threads in all. */
static void test_grid_and_block_limits(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse_body("", "ret;"));
    uint64_t p = 0;
    const void *args[] = {&p};
    const sim_dim3 bad_grids[] = {{2147483648u, 1, 1}, {UINT32_MAX, 1, 1}, {1, 65536, 1}, {1, 1, 65536}};
    for (size_t i = 0; i < sizeof bad_grids / sizeof bad_grids[0]; i++) {
        sim_launch_config cfg = emu_cfg(1, 1, 32, 1);
        cfg.grid = bad_grids[i];
        if (emu_try(&e, "k", cfg, args) == 0)
            fail_msg("grid %u,%u,%u accepted", bad_grids[i].x, bad_grids[i].y, bad_grids[i].z);
        assert_int_equal(e.stats.error, SIM_ERR_CONFIG);
        if (!strstr(e.err, "at most"))
            fail_msg("error '%s' does not say the limit", e.err);
    }
    const sim_dim3 bad_blocks[] = {{1025, 1, 1}, {1, 1025, 1}, {1, 1, 65}, {32, 32, 2}};
    for (size_t i = 0; i < sizeof bad_blocks / sizeof bad_blocks[0]; i++) {
        sim_launch_config cfg = emu_cfg(1, 1, 32, 1);
        cfg.block = bad_blocks[i];
        if (emu_try(&e, "k", cfg, args) == 0)
            fail_msg("block %u,%u,%u accepted", bad_blocks[i].x, bad_blocks[i].y, bad_blocks[i].z);
        assert_int_equal(e.stats.error, SIM_ERR_CONFIG);
    }
    /* the largest grid is accepted: it starts, and the instruction limit
     * stops it after 10 blocks */
    sim_launch_config cfg = emu_cfg(2147483647u, 1, 32, 1);
    cfg.max_instructions = 10;
    if (emu_try(&e, "k", cfg, args) == 0)
        fail_msg("2^31-1 blocks ran under a limit of 10 instructions");
    assert_int_equal(e.stats.error, SIM_ERR_LIMIT);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_is_global_to_the_launch),
        cmocka_unit_test(test_budget_exactly_spent_is_not_a_fault),
        cmocka_unit_test(test_grid_and_block_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
