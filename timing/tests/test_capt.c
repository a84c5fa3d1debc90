/* test_capt.c — CAPRI's compaction-adequacy prediction table (timing/capt.h)
 * against the thesis's definitions (Rhu, PhD thesis, Sec. 4.2): a miss
 * allocates the branch's entry "adequate" (the warp waits); 1-bit latest
 * keeps the last verdict; the 2-bit counter moves one step per verdict and
 * predicts adequate in its upper half (allocated at 2, weakly adequate,
 * capt.h's reading); 1-bit sticky never clears; 32 entries, least recently
 * used replaced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/capt.h"

/* One lookup of branch pc: the prediction; *hit says whether it hit. */
static bool predict(tm_capt *c, uint32_t pc, bool *hit) { return tm_capt_predict(c, 0, pc, hit); }

static void test_one_bit_latest(void **state)
{
    (void)state;
    tm_capt c;
    tm_capt_init(&c, TM_CAPT_1BL);
    bool hit;
    assert_true(predict(&c, 7, &hit)); /* miss: allocated, adequate */
    assert_false(hit);
    tm_capt_update(&c, 0, 7, false);   /* the compaction unit: inadequate */
    assert_false(predict(&c, 7, &hit));
    assert_true(hit);
    tm_capt_update(&c, 0, 7, true);
    assert_true(predict(&c, 7, &hit));
    tm_capt_update(&c, 0, 9, false);   /* no entry: nothing learnt */
    assert_true(predict(&c, 9, &hit));
    assert_false(hit);
}

static void test_two_bit_counter(void **state)
{
    (void)state;
    tm_capt c;
    tm_capt_init(&c, TM_CAPT_2BIT);
    bool hit;
    assert_true(predict(&c, 3, &hit)); /* allocated at 2 */
    tm_capt_update(&c, 0, 3, true);    /* 3 */
    tm_capt_update(&c, 0, 3, true);    /* stays 3 */
    tm_capt_update(&c, 0, 3, false);   /* 2: still adequate */
    assert_true(predict(&c, 3, &hit));
    tm_capt_update(&c, 0, 3, false);   /* 1 */
    assert_false(predict(&c, 3, &hit));
    tm_capt_update(&c, 0, 3, false);   /* 0 */
    tm_capt_update(&c, 0, 3, false);   /* stays 0 */
    tm_capt_update(&c, 0, 3, true);    /* 1 */
    assert_false(predict(&c, 3, &hit));
    tm_capt_update(&c, 0, 3, true);    /* 2 */
    assert_true(predict(&c, 3, &hit));
}

static void test_one_bit_sticky(void **state)
{
    (void)state;
    tm_capt c;
    tm_capt_init(&c, TM_CAPT_1BS);
    bool hit;
    assert_true(predict(&c, 5, &hit));
    tm_capt_update(&c, 0, 5, false);
    assert_true(predict(&c, 5, &hit));
    assert_true(hit);
}

/* 32 branches fill the table; touching branch 0 again makes branch 1 the
 * least recently used, which a 33rd branch replaces. */
static void test_lru_replacement(void **state)
{
    (void)state;
    tm_capt c;
    tm_capt_init(&c, TM_CAPT_1BL);
    bool hit;
    for (uint32_t pc = 0; pc < TM_CAPT_ENTRIES; pc++) {
        predict(&c, pc, &hit);
        tm_capt_update(&c, 0, pc, false);
    }
    assert_false(predict(&c, 0, &hit));
    assert_true(hit);
    predict(&c, 100, &hit); /* allocates over branch 1 */
    assert_false(hit);
    assert_false(predict(&c, 2, &hit)); /* still there, inadequate */
    assert_true(hit);
    assert_true(predict(&c, 1, &hit));  /* gone: a miss, adequate again */
    assert_false(hit);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_bit_latest),
        cmocka_unit_test(test_two_bit_counter),
        cmocka_unit_test(test_one_bit_sticky),
        cmocka_unit_test(test_lru_replacement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
