/* test_hazard.c — Turner's hazard classification, predictors and MSHR
 * trackers (timing/hazard.h), on the thesis's definitions (Sec. 1.1.7,
 * Ch. 6) and the credit-accounting sequence of the digest's B.2.3, whose
 * every value follows from the quoted rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/cache.h"
#include "timing/hazard.h"

#define FAIL(f) (1u << TM_CACHE_FAIL_##f)

/* Sec. 1.1.7: a miss needs an MSHR, then room in the communication queue,
 * then a line to reserve ("If ... misses in the cache and MSHR and COMQ
 * are available, a line ... must be reserved"): with several conditions
 * failing, the first in that order names the hazard. */
static void test_classification_order(void **state)
{
    (void)state;
    assert_int_equal(tm_hazard_of_fails(0), TM_HAZARD_NONE);
    assert_int_equal(tm_hazard_of_fails(FAIL(MSHR_ENTRY)), TM_HAZARD_MSHR);
    assert_int_equal(tm_hazard_of_fails(FAIL(MSHR_MERGE)), TM_HAZARD_MSHR);
    assert_int_equal(tm_hazard_of_fails(FAIL(MISS_QUEUE)), TM_HAZARD_COMQ);
    assert_int_equal(tm_hazard_of_fails(FAIL(LINE_ALLOC)), TM_HAZARD_RSV);
    assert_int_equal(tm_hazard_of_fails(FAIL(LINE_ALLOC) | FAIL(MISS_QUEUE)), TM_HAZARD_COMQ);
    assert_int_equal(tm_hazard_of_fails(FAIL(LINE_ALLOC) | FAIL(MSHR_ENTRY)), TM_HAZARD_MSHR);
    assert_int_equal(tm_hazard_of_fails(FAIL(LINE_ALLOC) | FAIL(MISS_QUEUE) | FAIL(MSHR_ENTRY)), TM_HAZARD_MSHR);
    assert_string_equal(tm_hazard_name(TM_HAZARD_RSV), "RSV");
    assert_string_equal(tm_hazard_name(TM_HAZARD_DIV), "DIV");
}

/* The hazard classification on a real cache (B.2.5's vectors): a read of
 * a line whose set has every way reserved, with a full miss queue and no
 * free MSHR, fails on all three; the access itself reports the first its
 * own (GPGPU-Sim's) order checks, tm_cache_read_fails every one. */
static void test_cache_fail_conditions(void **state)
{
    (void)state;
    /* 1 set x 2 ways of 128-byte lines, 2 MSHRs, a miss queue of 2 */
    tm_cache_config cfg = {.present = true, .nsets = 1, .line_bytes = 128, .assoc = 2, .repl = TM_REPL_LRU,
                           .write = TM_WRITE_BACK, .alloc = TM_ALLOC_ON_MISS, .write_alloc = TM_WA_NONE,
                           .set_index = TM_INDEX_LINEAR, .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 2, .mshr_max_merge = 4, .miss_queue = 4};
    char err[256];
    tm_cache *c = tm_cache_new(&cfg, "L1D", err, sizeof err);
    assert_non_null(c);
    tm_req r = {.addr = 0x1000, .bytes = 128, .sectors = 0xf, .kind = TM_REQ_READ, .space = TM_SPACE_GLOBAL};
    assert_int_equal(tm_cache_access(c, &r, 1, NULL), TM_CACHE_MISS);
    assert_int_equal(tm_cache_mshrs_in_use(c), 1);
    r.addr = 0x2000;
    assert_int_equal(tm_cache_access(c, &r, 2, NULL), TM_CACHE_MISS);
    assert_int_equal(tm_cache_mshrs_in_use(c), 2);
    /* both ways reserved, both MSHRs taken; the two reads fill the miss queue's room for a
     * read and its write-back (2 slots needed, 2 left) */
    r.addr = 0x3000;
    uint32_t fails = tm_cache_read_fails(c, &r);
    assert_true(fails & FAIL(LINE_ALLOC));
    assert_true(fails & FAIL(MSHR_ENTRY));
    assert_int_equal(tm_hazard_of_fails(fails), TM_HAZARD_MSHR);
    assert_int_equal(tm_cache_peek(c, &r), TM_CACHE_RESERVATION_FAIL);
    tm_cache_fail why;
    assert_int_equal(tm_cache_access(c, &r, 3, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_LINE_ALLOC); /* (GPGPU-Sim's order looks at the line first) */
    /* a read of a line on its way merges: it needs no new MSHR, and the peek sees it reserved */
    r.addr = 0x1000;
    assert_int_equal(tm_cache_peek(c, &r), TM_CACHE_HIT_RESERVED);
    assert_int_equal(tm_cache_read_fails(c, &r) & (FAIL(MSHR_ENTRY) | FAIL(LINE_ALLOC)), 0);
    tm_cache_free(c);
}

/* Sec. 6.1: a load squashed for MSHR, COMQ or RSV is a known miss (those
 * hazards "can only occur for a cache miss"); after DIV nothing is known;
 * otherwise false predicts a hit, true a miss, the counter and the oracle
 * what they say. */
static void test_predictors(void **state)
{
    (void)state;
    tm_hazard known[] = {TM_HAZARD_MSHR, TM_HAZARD_COMQ, TM_HAZARD_RSV};
    for (int k = 0; k < 3; k++) {
        assert_true(tm_hazard_predict_miss(TM_PREDICT_FALSE, known[k], false, false));
        assert_true(tm_hazard_predict_miss(TM_PREDICT_ORACLE, known[k], false, false));
    }
    assert_false(tm_hazard_predict_miss(TM_PREDICT_FALSE, TM_HAZARD_NONE, true, true));
    assert_false(tm_hazard_predict_miss(TM_PREDICT_FALSE, TM_HAZARD_DIV, true, true));
    assert_true(tm_hazard_predict_miss(TM_PREDICT_TRUE, TM_HAZARD_NONE, false, false));
    assert_true(tm_hazard_predict_miss(TM_PREDICT_COUNTER, TM_HAZARD_DIV, true, false));
    assert_false(tm_hazard_predict_miss(TM_PREDICT_COUNTER, TM_HAZARD_NONE, false, true));
    assert_true(tm_hazard_predict_miss(TM_PREDICT_ORACLE, TM_HAZARD_NONE, false, true));
    assert_false(tm_hazard_predict_miss(TM_PREDICT_ORACLE, TM_HAZARD_BANK, true, false));
}

/* The saturating counter: 2 bits, up on a miss, down on a hit, a miss
 * predicted from 2 (hazard.h's choice where the thesis is silent). */
static void test_counter_table(void **state)
{
    (void)state;
    static tm_hazard_table t;
    uint32_t i = tm_hazard_table_index(3, 17);
    assert_false(tm_hazard_table_predicts_miss(&t, i));
    tm_hazard_table_update(&t, i, true);
    assert_false(tm_hazard_table_predicts_miss(&t, i)); /* 1 */
    tm_hazard_table_update(&t, i, true);
    assert_true(tm_hazard_table_predicts_miss(&t, i)); /* 2 */
    tm_hazard_table_update(&t, i, true);
    tm_hazard_table_update(&t, i, true);               /* saturates at 3 */
    tm_hazard_table_update(&t, i, false);
    assert_true(tm_hazard_table_predicts_miss(&t, i)); /* 2 */
    tm_hazard_table_update(&t, i, false);
    assert_false(tm_hazard_table_predicts_miss(&t, i)); /* 1 */
    tm_hazard_table_update(&t, i, false);
    tm_hazard_table_update(&t, i, false);              /* stays at 0 */
    tm_hazard_table_update(&t, i, true);
    assert_false(tm_hazard_table_predicts_miss(&t, i)); /* 1 */
}

/* The credit tracker on the digest's B.2.3 sequence (2 MSHRs): each
 * event's credit count follows from the thesis's rules (a predicted miss
 * takes a credit at issue; a load that takes an MSHR without one takes a
 * virtual credit; a credit travels with its MSHR and comes back when the
 * MSHR frees; a load that fails to get an MSHR returns its credit). The
 * tracker computes the count as MSHRs - in use - held, which must give
 * the same numbers. */
static void test_credit_sequence(void **state)
{
    (void)state;
    uint32_t in_use = 0, held = 0;
    assert_int_equal(tm_hazard_credits(2, in_use, held), 2);
    held++; /* 1. I1 (predicted miss) issues with a credit */
    assert_int_equal(tm_hazard_credits(2, in_use, held), 1);
    assert_true(tm_hazard_may_issue(TM_TRACK_CREDIT, 2, in_use, held));
    held++; /* 2. I2 (predicted miss) issues with a credit */
    assert_int_equal(tm_hazard_credits(2, in_use, held), 0);
    in_use++; /* 3. I3 (predicted hit, no credit) misses and takes MSHR #1: a virtual credit */
    assert_int_equal(tm_hazard_credits(2, in_use, held), -1);
    held--, in_use++; /* 4. I1 takes MSHR #2: its credit moves to the MSHR */
    assert_int_equal(tm_hazard_credits(2, in_use, held), -1);
    held--; /* 5. I2 finds no MSHR (MSHR hazard): it returns its credit and replays */
    assert_int_equal(tm_hazard_credits(2, in_use, held), 0);
    /* 6. no predicted miss may issue while the credits are not positive */
    assert_false(tm_hazard_may_issue(TM_TRACK_CREDIT, 2, in_use, held));
    in_use--; /* 7. MSHR #1 frees: I2 may issue again with a credit */
    assert_int_equal(tm_hazard_credits(2, in_use, held), 1);
    assert_true(tm_hazard_may_issue(TM_TRACK_CREDIT, 2, in_use, held));
}

/* The naive tracker reads the free MSHRs now and nothing else: after step
 * 2 above (both credits out, no MSHR taken) it still lets a third
 * predicted miss issue, the oversubscription the thesis describes. */
static void test_naive_tracker(void **state)
{
    (void)state;
    assert_true(tm_hazard_may_issue(TM_TRACK_NAIVE, 2, 0, 2));
    assert_false(tm_hazard_may_issue(TM_TRACK_CREDIT, 2, 0, 2));
    assert_true(tm_hazard_may_issue(TM_TRACK_NAIVE, 2, 1, 5));
    assert_false(tm_hazard_may_issue(TM_TRACK_NAIVE, 2, 2, 0));
}

/* Predicted maximum speedup (Sec. 3.5; the digest's B.2.4 numbers): 1M
 * cycles, 200K of them blocked, 600K ALU instructions at 2 per cycle
 * (300K cycles of ALU work): 1M / (1M - 200K) - 1 = 0.25; with only 100K
 * ALU instructions the ALU work (50K cycles) bounds it: 1M / 950K - 1. */
static void test_max_speedup(void **state)
{
    (void)state;
    assert_float_equal(tm_turner_max_speedup(1000000, 200000, 600000, 2), 0.25, 1e-12);
    assert_float_equal(tm_turner_max_speedup(1000000, 200000, 100000, 2), 1000000.0 / 950000.0 - 1, 1e-12);
    assert_float_equal(tm_turner_max_speedup(0, 0, 0, 2), 0.0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classification_order), cmocka_unit_test(test_cache_fail_conditions),
        cmocka_unit_test(test_predictors),           cmocka_unit_test(test_counter_table),
        cmocka_unit_test(test_credit_sequence),      cmocka_unit_test(test_naive_tracker),
        cmocka_unit_test(test_max_speedup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
