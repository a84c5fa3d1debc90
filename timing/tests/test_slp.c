/* SIMD lane permutations (timing/slp.h) against Rhu's thesis, Sec. 4.3:
 * the rows of Fig. 4.19 (W = 8, four warps), Eq. 4.2's Balanced masks for
 * W = 32 as the thesis describes them, and the properties the thesis
 * states (every permutation a bijection; Balanced "perfectly balanced
 * within each physical lane"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timing/slp.h"

/* Fig. 4.19(b),(c) as rows of home lanes: the physical lane of logical
 * lane l of warps W0..W3 at SIMD width 8 (testdata/timing/simt/
 * rhu2014_fig4_19.ptx writes them out; the figure prints the rows of
 * none, Odd_Even, Rev_WID and Balanced; XOR-odd-half follows Sec.
 * 4.3.5's text; WID, FLIP_odd and Rotate_odd_1 are named only, and the
 * rows follow slp.h's reading of the names). */
static void test_figure_4_19_rows(void **state)
{
    (void)state;
    static const struct { tm_slp p; uint8_t home[4][8]; } rows[] = {
        {TM_SLP_NONE, {{0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}}},
        {TM_SLP_ODD_EVEN, {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}}},
        {TM_SLP_REV_WID, {{0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 6, 7, 0, 1, 2, 3}, {2, 3, 0, 1, 6, 7, 4, 5}, {6, 7, 4, 5, 2, 3, 0, 1}}},
        {TM_SLP_XOR_ODD_HALF, {{0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 6, 7, 0, 1, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 6, 7, 0, 1, 2, 3}}},
        {TM_SLP_WID, {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4}}},
        {TM_SLP_FLIP_ODD, {{0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}, {0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}}},
        {TM_SLP_ROTATE_ODD_1, {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4, 5, 6, 7, 0}, {0, 1, 2, 3, 4, 5, 6, 7}, {1, 2, 3, 4, 5, 6, 7, 0}}},
        {TM_SLP_BALANCED, {{0, 1, 2, 3, 4, 5, 6, 7}, {7, 6, 5, 4, 3, 2, 1, 0}, {1, 0, 3, 2, 5, 4, 7, 6}, {6, 7, 4, 5, 2, 3, 0, 1}}},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
        for (uint32_t w = 0; w < 4; w++)
            for (uint32_t l = 0; l < 8; l++)
                if (tm_slp_lane(rows[r].p, l, w, 8) != rows[r].home[w][l])
                    fail_msg("%s: warp %u lane %u -> %u, want %u", tm_slp_name(rows[r].p), w, l,
                             tm_slp_lane(rows[r].p, l, w, 8), rows[r].home[w][l]);
}

/* Balanced, W = 8, all eight warps: the XOR masks of Fig. 4.19(a), 000
 * 111 001 110 010 101 011 100 ("Repeat above" for warps 8..15); W = 32:
 * even warp w XORs w/2, odd warp w the 5-bit inverse of (w-1)/2 (Eq. 4.2
 * and the caption "XOR-ed values to even/odd-ID warp pairs ... are always
 * equal to a full-mask"). */
static void test_balanced_masks(void **state)
{
    (void)state;
    static const uint32_t masks8[8] = {0, 7, 1, 6, 2, 5, 3, 4};
    for (uint32_t w = 0; w < 16; w++)
        assert_int_equal(tm_slp_lane(TM_SLP_BALANCED, 0, w, 8), masks8[w % 8]);
    for (uint32_t w = 0; w < 32; w += 2) {
        assert_int_equal(tm_slp_lane(TM_SLP_BALANCED, 0, w, 32), w / 2);
        assert_int_equal(tm_slp_lane(TM_SLP_BALANCED, 0, w, 32) ^ tm_slp_lane(TM_SLP_BALANCED, 0, w + 1, 32), 31);
    }
}

/* Every permutation maps the lanes of every warp one to one; Balanced
 * puts each logical lane in each physical lane exactly once over 32
 * warps of 32 (the thesis's vertical balance, a Latin square). */
static void test_bijections_and_balance(void **state)
{
    (void)state;
    for (int p = 0; p < TM_SLPS; p++)
        for (uint32_t w = 0; w < 70; w++) {
            uint64_t seen = 0;
            for (uint32_t l = 0; l < 32; l++) {
                uint32_t h = tm_slp_lane((tm_slp)p, l, w, 32);
                assert_true(h < 32);
                seen |= 1ull << h;
            }
            assert_int_equal(seen, 0xffffffffull);
        }
    for (uint32_t phys = 0; phys < 32; phys++) {
        uint64_t logical = 0;
        for (uint32_t w = 0; w < 32; w++)
            for (uint32_t l = 0; l < 32; l++)
                if (tm_slp_lane(TM_SLP_BALANCED, l, w, 32) == phys)
                    logical |= 1ull << l;
        assert_int_equal(logical, 0xffffffffull);
    }
    assert_int_equal(tm_slp_find("balanced"), TM_SLP_BALANCED);
    assert_int_equal(tm_slp_find("sideways"), TM_SLPS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure_4_19_rows),
        cmocka_unit_test(test_balanced_masks),
        cmocka_unit_test(test_bijections_and_balance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
