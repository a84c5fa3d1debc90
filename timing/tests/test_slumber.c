/* test_slumber.c — Slumber's register power states (Tripathy's thesis,
 * Ch. 6; timing/slumber.h): the state choices of the thesis's examples and
 * a register's timeline worked by hand from Table 6.1 (wake-up SS 4, DS
 * 13, OFF 16 cycles; leakage 94 % and 42 %). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/slumber.h"

/* Sec. 6.3.2-6.3.3 as the digest derives them: a branch's 2 cycles stay
 * ON; an integer multiply's (or add's) 6 cycles go to SS; an integer max's
 * 15 to DS even before a write (below OFF's 16); an integer division's
 * 153 before its write go OFF; before a read only down to DS. */
static void test_choices(void **state)
{
    (void)state;
    assert_int_equal(tm_slumber_choose(2, true), TM_RF_ON);
    assert_int_equal(tm_slumber_choose(6, true), TM_RF_SS);
    assert_int_equal(tm_slumber_choose(15, true), TM_RF_DS);
    assert_int_equal(tm_slumber_choose(153, true), TM_RF_OFF);
    assert_int_equal(tm_slumber_choose(153, false), TM_RF_DS);
    assert_int_equal(tm_slumber_choose(16, true), TM_RF_OFF);
    assert_int_equal(tm_slumber_choose(3, false), TM_RF_ON);
    assert_int_equal(tm_slumber_choose(4, false), TM_RF_SS);
}

/* One register, OFF from 0 (unallocated):
 *   a division issued at 0 will write it at 153: it rests OFF, its counter
 *   wakes it at 153 - 16 = 137: the write at 153 waits 0 (OFF 0..137);
 *   then 6 cycles to a read: SS, waking at 155 (ON 137..153), the read
 *   comes early at 157 and waits until 159 (SS 153..155);
 *   then 20 cycles to a read: DS, waking at 166 (ON 155..159), the read
 *   comes at 162: still DS, it waits the whole 13 (DS 159..162);
 *   the warp finishes at 200: OFF (ON 162..200), counted to 210.
 * ON 16 + 4 + 38, SS 2, DS 3, OFF 137 + 10. */
static void test_timeline(void **state)
{
    (void)state;
    tm_slumber *s = tm_slumber_new(1);
    assert_non_null(s);
    tm_slumber_rest(s, 0, 0, 153, true);
    assert_int_equal(tm_slumber_access(s, 0, 153), 0);
    tm_slumber_rest(s, 0, 153, 6, false);
    assert_int_equal(tm_slumber_access(s, 0, 157), 2);
    tm_slumber_rest(s, 0, 159, 20, false);
    assert_int_equal(tm_slumber_access(s, 0, 162), 13);
    tm_slumber_park(s, 0, 200, TM_RF_OFF);
    uint64_t c[TM_RF_STATES];
    tm_slumber_cycles(s, 210, c);
    assert_int_equal(c[TM_RF_ON], 16 + 4 + 38);
    assert_int_equal(c[TM_RF_SS], 2);
    assert_int_equal(c[TM_RF_DS], 3);
    assert_int_equal(c[TM_RF_OFF], 137 + 10);
    double want = (58 + 0.94 * 2 + 0.42 * 3) / 210.0;
    assert_true(tm_slumber_leakage(c) > want - 1e-12 && tm_slumber_leakage(c) < want + 1e-12);
    /* the 10-bit counter: a rest of 5000 cycles before a write wakes at
     * 210 + 1023 - 16 and stays ON from there: the access waits 0 */
    tm_slumber_rest(s, 0, 210, 5000, true);
    assert_int_equal(tm_slumber_access(s, 0, 5210), 0);
    tm_slumber_cycles(s, 5210, c);
    assert_int_equal(c[TM_RF_OFF], 147 + 1023 - 16);
    assert_int_equal(c[TM_RF_ON], 58 + 5210 - (210 + 1023 - 16));
    /* a parked register wakes only when accessed: DS waits 13 */
    tm_slumber_park(s, 0, 6000, TM_RF_DS);
    assert_int_equal(tm_slumber_access(s, 0, 7000), 13);
    tm_slumber_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choices),
        cmocka_unit_test(test_timeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
