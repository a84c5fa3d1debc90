/* test_warp_sched.c — the warp scheduling policies (timing/warp_sched.h).
 * Expected orders follow from each policy's definition, worked by hand:
 * LRR starts after the warp that issued last; GTO keeps the last issuer
 * first, then oldest first; oldest-first sorts by age; two-level tries
 * only its active set and swaps a warp that waits on memory for the next
 * pending one; fetch groups (Narasiman's thesis, Sec. 4.3) take the
 * groups in priority order, each in round robin, and pass the top to the
 * next group when every live warp of the top one waits on memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/warp_sched.h"

/* The order must be exactly want[0..n). */
static void expect_order(tm_warp_sched *ws, const bool *live, const uint32_t *want, uint32_t n)
{
    uint32_t got;
    const uint32_t *o = tm_warp_sched_order(ws, live, &got);
    assert_int_equal(got, n);
    for (uint32_t i = 0; i < n; i++)
        if (o[i] != want[i])
            fail_msg("position %u: slot %u, want %u", i, o[i], want[i]);
}

static void test_lrr(void **state)
{
    (void)state;
    tm_warp_sched ws;
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_LRR, 4, 0, 0));
    bool live[4] = {true, true, false, true};
    for (uint32_t s = 0; s < 4; s++)
        tm_warp_sched_start(&ws, s, s);
    expect_order(&ws, live, (uint32_t[]){0, 1, 3}, 3); /* nobody issued yet: from slot 0 */
    tm_warp_sched_issued(&ws, 1);
    expect_order(&ws, live, (uint32_t[]){3, 0, 1}, 3); /* after 1: 2 is empty, then 3, 0, 1 */
    tm_warp_sched_issued(&ws, 3);
    expect_order(&ws, live, (uint32_t[]){0, 1, 3}, 3);
    tm_warp_sched_free(&ws);
}

/* LRR over many slots (64, the most a mask holds, and 19, which leaves
 * a tail beyond whole bytes) and many live patterns: the order is every
 * live slot from the one after the last issuer round, as the definition
 * says, counted here slot by slot. */
static void test_lrr_many_slots(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {64, 19};
    uint64_t x = 0x9E3779B97F4A7C15ull; /* xorshift: the live patterns */
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t n = sizes[k];
        tm_warp_sched ws;
        assert_true(tm_warp_sched_init(&ws, TM_SCHED_LRR, n, 0, 0));
        for (uint32_t s = 0; s < n; s++)
            tm_warp_sched_start(&ws, s, s);
        for (uint32_t round = 0; round < 200; round++) {
            bool live[64];
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            for (uint32_t s = 0; s < n; s++)
                live[s] = (x >> s & 1) != 0;
            uint32_t last = (uint32_t)(x >> 58) % n, want[64], nwant = 0;
            tm_warp_sched_issued(&ws, last);
            for (uint32_t i = 1; i <= n; i++)
                if (live[(last + i) % n])
                    want[nwant++] = (last + i) % n;
            expect_order(&ws, live, want, nwant);
        }
        tm_warp_sched_free(&ws);
    }
}

/* The order asked with the live slots as a mask too (the core's call)
 * is the order asked with the flags alone, under each policy, through a
 * random run of live patterns (unchanged ones included, which the
 * scheduler answers from its last order), issues and long waits. */
static void test_live_mask_agrees(void **state)
{
    (void)state;
    static const tm_sched policies[] = {TM_SCHED_LRR, TM_SCHED_GTO, TM_SCHED_OLDEST, TM_SCHED_TWO_LEVEL};
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (uint32_t p = 0; p < sizeof policies / sizeof policies[0]; p++) {
        const uint32_t n = 24;
        tm_warp_sched a, b;
        assert_true(tm_warp_sched_init(&a, policies[p], n, 4, 0));
        assert_true(tm_warp_sched_init(&b, policies[p], n, 4, 0));
        for (uint32_t s = 0; s < n; s++) {
            tm_warp_sched_start(&a, s, s);
            tm_warp_sched_start(&b, s, s);
        }
        bool live[24];
        uint64_t mask = (1ull << n) - 1; /* all live at first */
        for (uint32_t s = 0; s < n; s++)
            live[s] = true;
        for (uint32_t round = 0; round < 3000; round++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (x % 4 == 0) { /* a new live pattern (three times in four the same) */
                mask = x >> 20 & ((1ull << n) - 1);
                for (uint32_t s = 0; s < n; s++)
                    live[s] = (mask >> s & 1) != 0;
            }
            uint32_t na, nb;
            const uint32_t *oa = tm_warp_sched_order(&a, live, &na);
            const uint32_t *ob = tm_warp_sched_order_live(&b, live, mask, &nb);
            assert_int_equal(na, nb);
            for (uint32_t i = 0; i < na; i++)
                assert_int_equal(oa[i], ob[i]);
            if (na && x % 3) { /* one of them issues, now and then a long-latency load */
                uint32_t s = oa[(x >> 8) % na];
                tm_warp_sched_issued(&a, s);
                tm_warp_sched_issued(&b, s);
                if (x % 7 == 0) {
                    tm_warp_sched_long_wait(&a, s, live);
                    tm_warp_sched_long_wait(&b, s, live);
                }
            }
        }
        tm_warp_sched_free(&a);
        tm_warp_sched_free(&b);
    }
}

static void test_gto_and_oldest(void **state)
{
    (void)state;
    tm_warp_sched ws;
    bool live[4] = {true, true, true, true};
    /* ages: slot 2 oldest, then 0, 3, 1 */
    const uint64_t age[4] = {10, 30, 5, 20};
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_GTO, 4, 0, 0));
    for (uint32_t s = 0; s < 4; s++)
        tm_warp_sched_start(&ws, s, age[s]);
    expect_order(&ws, live, (uint32_t[]){2, 0, 3, 1}, 4);
    tm_warp_sched_issued(&ws, 3); /* greedy: 3 stays first, the rest oldest first */
    expect_order(&ws, live, (uint32_t[]){3, 2, 0, 1}, 4);
    live[3] = false; /* the greedy warp finished */
    tm_warp_sched_finish(&ws, 3, live);
    expect_order(&ws, live, (uint32_t[]){2, 0, 1}, 3);
    tm_warp_sched_free(&ws);
    bool all[4] = {true, true, true, true};
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_OLDEST, 4, 0, 0));
    for (uint32_t s = 0; s < 4; s++)
        tm_warp_sched_start(&ws, s, age[s]);
    tm_warp_sched_issued(&ws, 1); /* issuing changes nothing for oldest-first */
    expect_order(&ws, all, (uint32_t[]){2, 0, 3, 1}, 4);
    tm_warp_sched_free(&ws);
}

static void test_two_level(void **state)
{
    (void)state;
    tm_warp_sched ws;
    bool live[5] = {true, true, true, true, true};
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_TWO_LEVEL, 5, 2, 0));
    for (uint32_t s = 0; s < 5; s++)
        tm_warp_sched_start(&ws, s, s); /* slots 0 and 1 fill the active set of 2 */
    expect_order(&ws, live, (uint32_t[]){0, 1}, 2);
    tm_warp_sched_issued(&ws, 0);
    expect_order(&ws, live, (uint32_t[]){1, 0}, 2); /* round robin inside the set */
    tm_warp_sched_long_wait(&ws, 0, live); /* 0 waits on memory: pending 2 takes its place */
    expect_order(&ws, live, (uint32_t[]){1, 2}, 2);
    tm_warp_sched_long_wait(&ws, 1, live); /* then 3 (round robin over pending: after 2) */
    expect_order(&ws, live, (uint32_t[]){2, 3}, 2);
    live[2] = false; /* 2 finishes: the next pending after 3 is 4 */
    tm_warp_sched_finish(&ws, 2, live);
    expect_order(&ws, live, (uint32_t[]){3, 4}, 2);
    tm_warp_sched_free(&ws);
}

/* Two-level scheduling with warps waiting for other warps (a barrier, a
 * TBC synchronization): an active warp that parks gives its place to the
 * next pending warp that is not parked, and parked warps are never
 * promoted, so a set full of warps waiting at a barrier cannot keep out
 * the warps the barrier waits for (the deadlock this prevents: four
 * active warps at __syncthreads(), the block's other warps pending); and
 * a warp that can go on again takes the place of an active one that
 * waits (a set full of waiting warps would keep it out otherwise). */
static void test_two_level_parked(void **state)
{
    (void)state;
    tm_warp_sched ws;
    bool live[5] = {true, true, true, true, true};
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_TWO_LEVEL, 5, 2, 0));
    for (uint32_t s = 0; s < 5; s++)
        tm_warp_sched_start(&ws, s, s); /* active: 0, 1; pending: 2, 3, 4 */
    tm_warp_sched_park(&ws, 2, true, live); /* pending 2 waits at the barrier too */
    tm_warp_sched_park(&ws, 0, true, live); /* 0 arrives: its place to 3 (2 is parked) */
    expect_order(&ws, live, (uint32_t[]){1, 3}, 2);
    tm_warp_sched_park(&ws, 1, true, live); /* 1 arrives: its place to 4 */
    expect_order(&ws, live, (uint32_t[]){3, 4}, 2);
    tm_warp_sched_park(&ws, 3, true, live); /* 3 arrives: nobody left to take its place, it stays */
    expect_order(&ws, live, (uint32_t[]){3, 4}, 2);
    /* the barrier releases, slot by slot: 0 takes the place of waiting 3
     * (4 never waited); then the set holds no waiting warp and the others
     * pend */
    for (uint32_t s = 0; s < 5; s++)
        tm_warp_sched_park(&ws, s, false, live);
    expect_order(&ws, live, (uint32_t[]){0, 4}, 2);
    live[4] = false; /* 4 finishes: the next pending one, round robin from the last promotion's
                        successor (0: 4 was promoted last), joins: 1 */
    tm_warp_sched_finish(&ws, 4, live);
    expect_order(&ws, live, (uint32_t[]){0, 1}, 2);
    tm_warp_sched_free(&ws);
}

/* CTA priorities (Fung and Aamodt, HPCA 2011, Sec. 6.2), six slots of
 * three CTAs: slots 0, 1 of CTA 5, slots 2, 3 of CTA 3, slots 4, 5 of
 * CTA 9; slot 0 issued last, so within a CTA loose round robin starts at
 * slot 1 (1, 2, 3, 4, 5, 0). AGE: the oldest CTA first (3, 5, 9): 2 3 1 0
 * 4 5. SRR: the CTA that issued last (5) first, then the next ones (9,
 * 3): 1 0 4 5 2 3. RRB: the CTAs in age order rotated by the cycle: cycle
 * 1 starts at the second (5, 9, 3), cycle 2 at the third (9, 3, 5): 4 5 2
 * 3 1 0, cycle 3 back at the first. The priority overrides the policy
 * (here GTO, whose order would be by slot age). */
static void test_cta_priority(void **state)
{
    (void)state;
    static const uint64_t cta[6] = {5, 5, 3, 3, 9, 9};
    bool live[6] = {true, true, true, true, true, true};
    const struct { tm_cta_priority p; uint64_t cycle; uint32_t want[6]; } cases[] = {
        {TM_CTA_PRIORITY_AGE, 0, {2, 3, 1, 0, 4, 5}}, {TM_CTA_PRIORITY_SRR, 0, {1, 0, 4, 5, 2, 3}},
        {TM_CTA_PRIORITY_RRB, 1, {1, 0, 4, 5, 2, 3}}, {TM_CTA_PRIORITY_RRB, 2, {4, 5, 2, 3, 1, 0}},
        {TM_CTA_PRIORITY_RRB, 3, {2, 3, 1, 0, 4, 5}}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        tm_warp_sched ws;
        assert_true(tm_warp_sched_init(&ws, TM_SCHED_GTO, 6, 0, 0));
        tm_warp_sched_set_cta_priority(&ws, cases[c].p);
        for (uint32_t s = 0; s < 6; s++) {
            tm_warp_sched_start(&ws, s, 100 - s);
            tm_warp_sched_set_cta(&ws, s, cta[s]);
        }
        tm_warp_sched_issued(&ws, 0);
        tm_warp_sched_at(&ws, cases[c].cycle);
        expect_order(&ws, live, cases[c].want, 6);
        tm_warp_sched_free(&ws);
    }
    /* a CTA that left: AGE over CTAs 5 and 9 only (slots 2, 3 empty) */
    tm_warp_sched ws;
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_LRR, 6, 0, 0));
    tm_warp_sched_set_cta_priority(&ws, TM_CTA_PRIORITY_AGE);
    for (uint32_t s = 0; s < 6; s++)
        tm_warp_sched_set_cta(&ws, s, cta[s]);
    live[2] = live[3] = false;
    tm_warp_sched_issued(&ws, 4);
    expect_order(&ws, live, (uint32_t[]){0, 1, 5, 4}, 4); /* CTA 5 from slot 5 on: 0, 1; CTA 9: 5, 4 */
    tm_warp_sched_free(&ws);
}

/* Fetch groups of 2 over 6 slots: groups {0,1} {2,3} {4,5}, group 0 on
 * top. Within a group round robin resumes after the group's last issuer;
 * the top passes on (one switch a cycle) only when every live warp of the
 * top group waits on a long-latency load. */
static void test_fetch_groups(void **state)
{
    (void)state;
    tm_warp_sched ws;
    bool live[6] = {true, true, true, true, true, true};
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_FETCH_GROUPS, 6, 2, 0));
    for (uint32_t s = 0; s < 6; s++)
        tm_warp_sched_start(&ws, s, s);
    tm_warp_sched_at(&ws, 0);
    expect_order(&ws, live, (uint32_t[]){0, 1, 2, 3, 4, 5}, 6);
    tm_warp_sched_issued(&ws, 0);
    tm_warp_sched_issued(&ws, 2); /* each group's round robin on its own */
    expect_order(&ws, live, (uint32_t[]){1, 0, 3, 2, 4, 5}, 6);
    tm_warp_sched_long_wait(&ws, 0, live);
    tm_warp_sched_at(&ws, 1); /* 1 can still go on: group 0 keeps the top */
    expect_order(&ws, live, (uint32_t[]){1, 0, 3, 2, 4, 5}, 6);
    tm_warp_sched_long_wait(&ws, 1, live);
    tm_warp_sched_at(&ws, 2); /* all of group 0 waits: group 1 on top, group 0 last */
    expect_order(&ws, live, (uint32_t[]){3, 2, 4, 5, 1, 0}, 6);
    for (uint32_t s = 2; s < 6; s++)
        tm_warp_sched_long_wait(&ws, s, live);
    tm_warp_sched_at(&ws, 3); /* every group waits: one switch this cycle, to group 2 */
    expect_order(&ws, live, (uint32_t[]){4, 5, 1, 0, 3, 2}, 6);
    expect_order(&ws, live, (uint32_t[]){4, 5, 1, 0, 3, 2}, 6); /* (asked again: still one) */
    tm_warp_sched_at(&ws, 4); /* the next cycle, the next: group 0 */
    expect_order(&ws, live, (uint32_t[]){1, 0, 3, 2, 4, 5}, 6);
    tm_warp_sched_long_done(&ws, 4); /* 4's load is back; four cycles pass (an SM may skip them) */
    tm_warp_sched_at(&ws, 8); /* groups 0 and 1 still wait: two switches, and group 2 stays */
    expect_order(&ws, live, (uint32_t[]){4, 5, 1, 0, 3, 2}, 6);
    tm_warp_sched_free(&ws);

    /* a group with no live warp gives the top away; the timeout passes it
     * after that many issues of the top group's warps */
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_FETCH_GROUPS, 4, 2, 3));
    for (uint32_t s = 0; s < 4; s++)
        tm_warp_sched_start(&ws, s, s);
    tm_warp_sched_issued(&ws, 0);
    tm_warp_sched_issued(&ws, 1);
    tm_warp_sched_issued(&ws, 0); /* the third: group 1 takes the top */
    tm_warp_sched_at(&ws, 1);
    expect_order(&ws, live, (uint32_t[]){2, 3, 1, 0}, 4);
    live[2] = live[3] = false;
    tm_warp_sched_at(&ws, 2);
    expect_order(&ws, live, (uint32_t[]){1, 0}, 2);
    tm_warp_sched_free(&ws);

    /* a group per CTA (slots 0, 1 of CTA 7, 2, 3 of CTA 3, 4, 5 of CTA 9):
     * the CTAs in dispatch order from the oldest, the top passing on to
     * the next CTA */
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_FETCH_GROUPS, 6, 0, 0));
    static const uint64_t cta[6] = {7, 7, 3, 3, 9, 9};
    for (uint32_t s = 0; s < 6; s++) {
        tm_warp_sched_start(&ws, s, s);
        tm_warp_sched_set_cta(&ws, s, cta[s]);
        live[s] = true;
    }
    expect_order(&ws, live, (uint32_t[]){2, 3, 0, 1, 4, 5}, 6);
    tm_warp_sched_long_wait(&ws, 2, live);
    tm_warp_sched_long_wait(&ws, 3, live);
    tm_warp_sched_at(&ws, 1);
    expect_order(&ws, live, (uint32_t[]){0, 1, 4, 5, 2, 3}, 6);
    live[0] = live[1] = false; /* CTA 7 ends: CTA 9 is next */
    expect_order(&ws, live, (uint32_t[]){4, 5, 2, 3}, 4);
    tm_warp_sched_free(&ws);

    /* one group of every slot is loose round robin ("a fetch group size
     * of 32 ... is by definition equivalent to the baseline round-robin") */
    bool all[4] = {true, true, true, true};
    assert_true(tm_warp_sched_init(&ws, TM_SCHED_FETCH_GROUPS, 4, 4, 0));
    for (uint32_t s = 0; s < 4; s++)
        tm_warp_sched_start(&ws, s, s);
    tm_warp_sched_issued(&ws, 1);
    tm_warp_sched_long_wait(&ws, 1, all);
    tm_warp_sched_at(&ws, 1);
    expect_order(&ws, all, (uint32_t[]){2, 3, 0, 1}, 4);
    tm_warp_sched_free(&ws);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lrr),
        cmocka_unit_test(test_lrr_many_slots),
        cmocka_unit_test(test_live_mask_agrees),
        cmocka_unit_test(test_gto_and_oldest),
        cmocka_unit_test(test_two_level),
        cmocka_unit_test(test_two_level_parked),
        cmocka_unit_test(test_fetch_groups),
        cmocka_unit_test(test_cta_priority),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
