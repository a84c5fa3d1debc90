/* test_fu.c — functional unit pipelines (timing/fu.h). Every expected
 * cycle is derived in the comment beside it from the semantics fu.h states
 * after GPGPU-Sim's pipelined_simd_unit: a unit accepting an instruction
 * with initiation interval I at cycle t accepts again at t + I, the
 * instruction completes at t + latency, a unit completes at most one
 * instruction per cycle, and at most ex_wb non-memory results complete per
 * cycle (result buses booked at issue). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/fu.h"

/* n_sp SP units, n_int INT units, one of every other kind, writeback
 * width ex_wb; latencies up to 40 (max_latency given to tm_fu_new). */
static tm_fu *make_fu(uint32_t n_sp, uint32_t n_int, uint32_t ex_wb)
{
    tm_config c;
    memset(&c, 0, sizeof c);
    for (unsigned k = 0; k < TM_UNIT_KINDS; k++)
        c.n_units[k] = 1;
    c.n_units[TM_UNIT_SP] = n_sp;
    c.n_units[TM_UNIT_INT] = n_int;
    c.ex_wb = ex_wb;
    char err[128];
    tm_fu *fu = tm_fu_new(&c, 40, err, sizeof err);
    assert_non_null(fu);
    return fu;
}

/* Offer n instructions (tags 0..n-1) of kind, latency lat, interval ii to
 * fu, as many per cycle as it accepts, from cycle 0 to 99; record the cycle
 * each was accepted and the cycle each completed. */
static void run(tm_fu *fu, tm_unit kind, uint32_t lat, uint32_t ii, uint32_t n, uint64_t *issued,
                uint64_t *completed)
{
    uint32_t next = 0;
    tm_fu_done done[8];
    for (uint64_t now = 0; now < 100; now++) {
        uint32_t got = tm_fu_cycle(fu, now, done, 8);
        for (uint32_t k = 0; k < got; k++) {
            assert_int_equal(done[k].cycle, now);
            completed[done[k].tag] = now;
        }
        while (next < n && tm_fu_can_issue(fu, kind, lat, now)) {
            assert_true(tm_fu_issue(fu, kind, lat, ii, next, now) >= 0);
            issued[next++] = now;
        }
    }
    assert_int_equal(next, n);
    assert_int_equal(tm_fu_in_flight(fu), 0);
}

/* Five independent instructions, latency 6, interval 3, one SP unit:
 * accepted at 0, 3, 6, 9, 12 (each I = 3 after the previous) and complete
 * 6 cycles later: 6, 9, 12, 15, 18. */
static void test_initiation_interval(void **state)
{
    (void)state;
    tm_fu *fu = make_fu(1, 1, 4);
    uint64_t issued[5], completed[5];
    run(fu, TM_UNIT_SP, 6, 3, 5, issued, completed);
    for (unsigned i = 0; i < 5; i++) {
        assert_int_equal(issued[i], 3 * i);
        assert_int_equal(completed[i], 3 * i + 6);
    }
    tm_fu_free(fu);
}

/* One instruction of latency 7 issued at cycle 10 completes at exactly 17:
 * not at 16, and next_event names 17. */
static void test_latency_exact(void **state)
{
    (void)state;
    tm_fu *fu = make_fu(1, 1, 1);
    tm_fu_done done[2];
    assert_int_equal(tm_fu_next_event(fu), UINT64_MAX);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SFU, 7, 1, 42, 10), 0);
    assert_int_equal(tm_fu_next_event(fu), 17);
    assert_int_equal(tm_fu_cycle(fu, 16, done, 2), 0);
    assert_int_equal(tm_fu_cycle(fu, 17, done, 2), 1);
    assert_int_equal(done[0].tag, 42);
    assert_int_equal(done[0].kind, TM_UNIT_SFU);
    assert_int_equal(tm_fu_next_event(fu), UINT64_MAX);
    tm_fu_free(fu);
}

/* Six instructions, latency 4, interval 2. One INT unit: accepted at 0, 2,
 * 4, 6, 8, 10, complete at 4, 6, ..., 14. Two INT units: both take one at
 * 0, 2 and 4, completing at 4, 4, 6, 6, 8, 8 — the last at 8 instead of
 * 14, twice the throughput. */
static void test_two_units_double_throughput(void **state)
{
    (void)state;
    uint64_t issued[6], completed[6];
    tm_fu *one = make_fu(1, 1, 4);
    run(one, TM_UNIT_INT, 4, 2, 6, issued, completed);
    for (unsigned i = 0; i < 6; i++) {
        assert_int_equal(issued[i], 2 * i);
        assert_int_equal(completed[i], 2 * i + 4);
    }
    tm_fu_free(one);
    tm_fu *two = make_fu(1, 2, 4);
    run(two, TM_UNIT_INT, 4, 2, 6, issued, completed);
    for (unsigned i = 0; i < 6; i++) {
        assert_int_equal(issued[i], 2 * (i / 2));
        assert_int_equal(completed[i], 2 * (i / 2) + 4);
    }
    tm_fu_free(two);
}

/* Writeback width 1: SP takes an instruction of latency 4 at cycle 0 (its
 * result bus is booked for cycle 4), so INT cannot take one of latency 4 at
 * cycle 0 (a second result at 4) but can at cycle 1 (result at 5) or one of
 * latency 5 at cycle 0. MEM books no result bus: latency 4 at 0 is taken.
 * With width 2 the INT instruction is taken at 0. */
static void test_writeback_width(void **state)
{
    (void)state;
    tm_fu *fu = make_fu(1, 1, 1);
    assert_int_equal(tm_fu_max_completions(fu), 2); /* ex_wb 1 + the MEM unit */
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SP, 4, 1, 1, 0), 0);
    assert_false(tm_fu_can_issue(fu, TM_UNIT_INT, 4, 0));
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_INT, 4, 1, 2, 0), TM_FU_BUSY);
    assert_true(tm_fu_can_issue(fu, TM_UNIT_INT, 5, 0));
    assert_true(tm_fu_can_issue(fu, TM_UNIT_INT, 4, 1));
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_MEM, 4, 1, 3, 0), 0);
    tm_fu_done done[2];
    assert_int_equal(tm_fu_cycle(fu, 4, done, 2), 2); /* SP's and MEM's results */
    tm_fu_free(fu);
    fu = make_fu(1, 1, 2);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SP, 4, 1, 1, 0), 0);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_INT, 4, 1, 2, 0), 0);
    assert_int_equal(tm_fu_cycle(fu, 4, done, 2), 2);
    assert_int_equal(done[0].tag, 1); /* same cycle: issue order */
    assert_int_equal(done[1].tag, 2);
    tm_fu_free(fu);
}

/* One unit completes one instruction per cycle: latency 5 at cycle 0
 * completes at 5, so latency 3 at cycle 2 (also 5) is refused while
 * latency 4 at cycle 2 (6) is taken (GPGPU-Sim's `occupied` bits). */
static void test_one_completion_per_unit(void **state)
{
    (void)state;
    tm_fu *fu = make_fu(1, 1, 4);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SP, 5, 1, 1, 0), 0);
    assert_false(tm_fu_can_issue(fu, TM_UNIT_SP, 3, 2));
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SP, 4, 1, 2, 2), 0);
    tm_fu_done done[4];
    assert_int_equal(tm_fu_cycle(fu, 5, done, 4), 1);
    assert_int_equal(done[0].tag, 1);
    assert_int_equal(tm_fu_cycle(fu, 6, done, 4), 1);
    assert_int_equal(done[0].tag, 2);
    tm_fu_free(fu);
}

/* Latency 0 or above max_latency is refused as an error, not a stall; a
 * zero writeback width is a configuration error. */
static void test_bad_input(void **state)
{
    (void)state;
    tm_fu *fu = make_fu(1, 1, 1);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SP, 0, 1, 1, 0), TM_FU_BAD);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SP, 41, 1, 1, 0), TM_FU_BAD);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_KINDS, 4, 1, 1, 0), TM_FU_BAD);
    assert_int_equal(tm_fu_issue(fu, TM_UNIT_SP, 40, 1, 1, 0), 0);
    tm_fu_free(fu);
    tm_config c;
    memset(&c, 0, sizeof c);
    char err[128] = "";
    assert_null(tm_fu_new(&c, 0, err, sizeof err));
    assert_non_null(strstr(err, "writeback"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_initiation_interval),
        cmocka_unit_test(test_latency_exact),
        cmocka_unit_test(test_two_units_double_throughput),
        cmocka_unit_test(test_writeback_width),
        cmocka_unit_test(test_one_completion_per_unit),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
