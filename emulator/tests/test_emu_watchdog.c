/* test_emu_watchdog.c — a launch stopped by the instruction limit says
 * where its warps were: the PTX lines of the instructions they would have
 * run next, which is where an endless loop spins.
 *
 * The kernel below sends threads 0..SPLIT-1 into loop A and the others into
 * loop B, both endless; the expected lines are those of the loops in the
 * kernel's own text (counted from the first line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* Line numbers: loop A is lines 12-13, loop B lines 15-16. */
static const char kernel_fmt[] =
    ".version 8.0\n"                      /* 1 */
    ".target sm_80\n"                     /* 2 */
    ".address_size 64\n"                  /* 3 */
    ".visible .entry k()\n"               /* 4 */
    "{\n"                                 /* 5 */
    ".reg .pred %%p<3>;\n"                /* 6 */
    ".reg .b32 %%r<3>;\n"                 /* 7 */
    "mov.u32 %%r1, %%tid.x;\n"            /* 8 */
    "setp.lt.u32 %%p1, %%r1, %u;\n"       /* 9 */
    "@!%%p1 bra B;\n"                     /* 10 */
    "A:\n"                                /* 11 */
    "add.s32 %%r2, %%r2, 1;\n"            /* 12 */
    "bra.uni A;\n"                        /* 13 */
    "B:\n"                                /* 14 */
    "add.s32 %%r2, %%r2, 2;\n"            /* 15 */
    "bra.uni B;\n"                        /* 16 */
    "}\n";

/* The lines after "PTX line(s) " in msg, as a bit set (bit n: line n). */
static uint32_t reported_lines(const char *msg)
{
    const char *p = strstr(msg, "its warps were at PTX line");
    if (!p)
        fail_msg("no warp lines in: %s", msg);
    p = strchr(p + strlen("its warps were at PTX line"), ' ');
    uint32_t set = 0;
    while (p && *p == ' ') {
        char *end;
        unsigned long n = strtoul(p + 1, &end, 10);
        if (end == p + 1 || n >= 32)
            break;
        set |= 1u << n;
        p = *end == ',' ? end + 1 : NULL;
    }
    return set;
}

/* Run k with `threads` threads (loop A for the first `split`) until the
 * limit stops it; the lines it reports. */
static uint32_t stopped_at(unsigned split, uint32_t threads, bool its)
{
    char text[1024];
    snprintf(text, sizeof text, kernel_fmt, split);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    sim_launch_config cfg = emu_cfg(1, 1, threads, 1);
    cfg.max_instructions = 10000;
    cfg.independent_scheduling = its;
    assert_int_not_equal(emu_try(&e, "k", cfg, NULL), 0);
    assert_int_equal(e.stats.error, SIM_ERR_LIMIT);
    assert_non_null(strstr(e.err, "stopped after 10000 warp instructions"));
    uint32_t set = reported_lines(e.err);
    emu_close(&e);
    return set;
}

#define LOOP_A ((1u << 12) | (1u << 13))
#define LOOP_B ((1u << 15) | (1u << 16))

/* Two warps (PDOM: each warp's next instruction), one in each loop: one
 * line of each loop is named, and no other line. */
static void test_warps_in_two_loops(void **state)
{
    (void)state;
    uint32_t set = stopped_at(32, 64, false);
    assert_true(set & LOOP_A);
    assert_true(set & LOOP_B);
    assert_int_equal(set & ~(LOOP_A | LOOP_B), 0);
    set = stopped_at(64, 64, false); /* both warps in loop A */
    assert_true(set & LOOP_A);
    assert_int_equal(set & ~LOOP_A, 0);
}

/* Independent thread scheduling: each lane's own pc; lanes of one warp
 * in both loops (or still at the branch that splits them) are all named. */
static void test_lanes_with_own_pcs(void **state)
{
    (void)state;
    uint32_t set = stopped_at(16, 32, true);
    assert_true(set & LOOP_A);
    assert_true(set & (LOOP_B | 1u << 10));
    assert_int_equal(set & ~(LOOP_A | LOOP_B | 1u << 10), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warps_in_two_loops),
        cmocka_unit_test(test_lanes_with_own_pcs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
