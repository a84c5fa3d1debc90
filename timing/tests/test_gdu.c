/* test_gdu.c — LAMAR's granularity decision units (timing/gdu.h), on the
 * behaviour Rhu's thesis states (Sec. 5.3, Table 5.2) and the digest's
 * unit tests of BGP (learning FG, default inversion, dual-array aging),
 * which hold whatever the hash functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/gdu.h"

#define BLOCK(i) (0x10000000ull + 128ull * (i) * 7919)

/* CG-only fetches the whole block, FG-only what was asked. */
static void test_cg_fg(void **state)
{
    (void)state;
    tm_gdu *cg = tm_gdu_new(TM_GDU_CG, NULL), *fg = tm_gdu_new(TM_GDU_FG, NULL);
    assert_int_equal(tm_gdu_fetch(cg, BLOCK(1), 0x2), 0xf);
    assert_int_equal(tm_gdu_fetch(fg, BLOCK(1), 0x2), 0x2);
    assert_int_equal(tm_gdu_fetch(fg, BLOCK(1), 0x5), 0x5);
    tm_gdu_free(cg);
    tm_gdu_free(fg);
}

/* Learning FG: default CG, empty filter. X evicted with one used sector
 * (below TH_FG = 2) is inserted; the next miss on X predicts FG (the
 * sectors asked for); a never-seen Y predicts CG. A block evicted with two
 * sectors used agrees with the default and is not inserted. */
static void test_bgp_learns_fg(void **state)
{
    (void)state;
    tm_gdu *g = tm_gdu_new(TM_GDU_BGP, NULL);
    assert_true(tm_gdu_default_cg(g));
    assert_int_equal(tm_gdu_fetch(g, BLOCK(1), 0x1), 0xf);
    tm_gdu_evicted(g, BLOCK(1), 0x1);
    assert_int_equal(tm_gdu_insertions(g), 1);
    assert_int_equal(tm_gdu_fetch(g, BLOCK(1), 0x1), 0x1);
    assert_int_equal(tm_gdu_fetch(g, BLOCK(2), 0x4), 0xf);
    tm_gdu_evicted(g, BLOCK(3), 0x3);
    assert_int_equal(tm_gdu_insertions(g), 1);
    tm_gdu_free(g);
}

/* Default inversion: in a window of 1000 evictions, 750 with fewer than 2
 * used sectors (SKEW_insert 0.75 > 0.7): the default becomes FG and the
 * filter starts empty; then a block evicted with 2 or more used sectors is
 * inserted and predicted CG, others FG. With 650 of 1000 (0.65) the
 * default stays. */
static void test_bgp_default_inversion(void **state)
{
    (void)state;
    tm_gdu *g = tm_gdu_new(TM_GDU_BGP, NULL);
    for (uint32_t i = 0; i < 1000; i++)
        tm_gdu_evicted(g, BLOCK(i), i < 650 ? 0x1 : 0xf);
    assert_true(tm_gdu_default_cg(g));
    for (uint32_t i = 0; i < 1000; i++)
        tm_gdu_evicted(g, BLOCK(i), i < 750 ? 0x1 : 0xf);
    assert_false(tm_gdu_default_cg(g));
    assert_int_equal(tm_gdu_fetch(g, BLOCK(5000), 0x2), 0x2);
    tm_gdu_evicted(g, BLOCK(5000), 0x3);
    assert_int_equal(tm_gdu_fetch(g, BLOCK(5000), 0x2), 0xf);
    tm_gdu_evicted(g, BLOCK(5001), 0x1); /* agrees with FG now: not inserted */
    assert_int_equal(tm_gdu_fetch(g, BLOCK(5001), 0x1), 0x1);
    tm_gdu_free(g);
}

/* Dual-array aging (refresh 512): the first array takes insertions from
 * the start, the second from the 256th; at the 512th the first is cleared
 * and tests read the second (256 .. 511 in it), at the 768th the second is
 * cleared and tests read the first again. So after 769 insertions the
 * active array holds exactly the last 257 (a Bloom filter has no false
 * negatives) and has forgotten the 512 before them, but for false
 * positives: 257 blocks x 6 hashes in 2048 bits set about half the bits,
 * 0.53^6 = 2% of other blocks test positive (bounded here by 1 in 8). */
static void test_bgp_aging(void **state)
{
    (void)state;
    tm_gdu *g = tm_gdu_new(TM_GDU_BGP, NULL);
    for (uint32_t i = 0; i < 769; i++)
        tm_gdu_evicted(g, BLOCK(i), 0x1);
    assert_int_equal(tm_gdu_insertions(g), 769);
    assert_true(tm_gdu_default_cg(g)); /* (769 evictions: no window closed yet) */
    for (uint32_t i = 512; i < 769; i++)
        assert_true(tm_gdu_filter_holds(g, BLOCK(i)));
    uint32_t old = 0;
    for (uint32_t i = 0; i < 512; i++)
        old += tm_gdu_filter_holds(g, BLOCK(i));
    assert_true(old < 512 / 8);
    /* one insertion before, the other array was active: it held 256 .. 767 */
    tm_gdu *h = tm_gdu_new(TM_GDU_BGP, NULL);
    for (uint32_t i = 0; i < 768; i++)
        tm_gdu_evicted(h, BLOCK(i), 0x1);
    for (uint32_t i = 256; i < 768; i++)
        assert_true(tm_gdu_filter_holds(h, BLOCK(i)));
    tm_gdu_free(h);
    tm_gdu_free(g);
}

/* SPP: nothing remembered, the whole block; then the used pattern of the
 * block's last eviction and the sectors asked for. */
static void test_spp(void **state)
{
    (void)state;
    tm_gdu *g = tm_gdu_new(TM_GDU_SPP, NULL);
    assert_non_null(g);
    assert_int_equal(tm_gdu_fetch(g, BLOCK(9), 0x1), 0xf);
    tm_gdu_evicted(g, BLOCK(9), 0x5);
    assert_int_equal(tm_gdu_fetch(g, BLOCK(9), 0x1), 0x5);
    assert_int_equal(tm_gdu_fetch(g, BLOCK(9), 0x2), 0x7);
    tm_gdu_evicted(g, BLOCK(10), 0x8); /* its neighbour's entry is its own */
    assert_int_equal(tm_gdu_fetch(g, BLOCK(9), 0x1), 0x5);
    assert_int_equal(tm_gdu_fetch(g, BLOCK(10), 0x8), 0x8);
    tm_gdu_free(g);
}

/* BGP_inf: the same rules with a history large enough to keep every one
 * of 10000 insertions without a false positive among 1000 others. */
static void test_bgp_inf(void **state)
{
    (void)state;
    tm_gdu *g = tm_gdu_new(TM_GDU_BGP_INF, NULL);
    assert_non_null(g);
    for (uint32_t i = 0; i < 10000; i++) /* alternate: 50% inserted, no inversion */
        tm_gdu_evicted(g, BLOCK(2 * i), 0x1), tm_gdu_evicted(g, BLOCK(2 * i + 1), 0xf);
    assert_true(tm_gdu_default_cg(g));
    for (uint32_t i = 0; i < 10000; i++)
        assert_int_equal(tm_gdu_fetch(g, BLOCK(2 * i), 0x1), 0x1);
    uint32_t fp = 0;
    for (uint32_t i = 0; i < 1000; i++)
        fp += tm_gdu_fetch(g, BLOCK(2 * i + 1), 0x1) != 0xf;
    assert_int_equal(fp, 0);
    tm_gdu_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cg_fg),   cmocka_unit_test(test_bgp_learns_fg), cmocka_unit_test(test_bgp_default_inversion),
        cmocka_unit_test(test_bgp_aging), cmocka_unit_test(test_spp),         cmocka_unit_test(test_bgp_inf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
