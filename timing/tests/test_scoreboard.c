/* test_scoreboard.c — the per-warp scoreboard (timing/scoreboard.h):
 * read-after-write and write-after-write hazards as GPGPU-Sim's
 * Scoreboard::checkCollision defines them (a source, the predicate or a
 * destination with a write in flight), reservation at issue and release at
 * writeback, long-operation registers, per-warp independence, and bitset
 * word boundaries with thousands of registers; dual-path execution's
 * shadow bits (Rhu's thesis, Sec. 3.2.2) and the registers a memory
 * subdivision keeps from them. Instructions are built by
 * hand: the scoreboard reads only their register lists and flags, or the
 * register masks tm_inst_class_set_masks makes of the lists, which must
 * answer as the lists do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "timing/opclass.h"
#include "timing/scoreboard.h"

/* An instruction reading src[0..nsrc) and writing dst[0..ndst). */
static tm_inst_class inst(const uint32_t *src, uint32_t nsrc, const uint32_t *dst, uint32_t ndst,
                          uint16_t flags)
{
    return (tm_inst_class){.src = src, .nsrc = nsrc, .dst = dst, .ndst = ndst, .read = src,
                           .nread = nsrc, .flags = flags, .guard = TM_NO_REG};
}

/* add r5 <- r1, r2 reserves r5; a reader of r5 waits (RAW) until r5 is
 * released; a writer of r5 waits too (WAW); other warps are unaffected. */
static void test_raw_waw_and_release(void **state)
{
    (void)state;
    tm_scoreboard *sb = tm_scoreboard_new(4, 64);
    assert_non_null(sb);
    const uint32_t a_src[] = {1, 2}, a_dst[] = {5};
    const uint32_t b_src[] = {5, 3}, b_dst[] = {6};   /* reads r5 */
    const uint32_t c_src[] = {3}, c_dst[] = {5};       /* writes r5 */
    const uint32_t d_src[] = {1, 3}, d_dst[] = {7};    /* independent */
    tm_inst_class a = inst(a_src, 2, a_dst, 1, TM_IC_WRITES_REG);
    tm_inst_class b = inst(b_src, 2, b_dst, 1, TM_IC_WRITES_REG);
    tm_inst_class c = inst(c_src, 1, c_dst, 1, TM_IC_WRITES_REG);
    tm_inst_class d = inst(d_src, 2, d_dst, 1, TM_IC_WRITES_REG);

    assert_false(tm_scoreboard_check(sb, 0, &a));
    assert_true(tm_scoreboard_reserve(sb, 0, &a));
    assert_true(tm_scoreboard_pending(sb, 0, 5));
    assert_int_equal(tm_scoreboard_pending_writes(sb, 0), 1);
    assert_true(tm_scoreboard_check(sb, 0, &b));   /* RAW on r5 */
    assert_true(tm_scoreboard_check(sb, 0, &c));   /* WAW on r5 */
    assert_false(tm_scoreboard_check(sb, 0, &d));  /* r1, r3 -> r7: no hazard */
    assert_false(tm_scoreboard_check(sb, 1, &b));  /* warp 1's r5 is free */
    assert_false(tm_scoreboard_reserve(sb, 0, &c)); /* r5 already reserved: refused */
    assert_int_equal(tm_scoreboard_pending_writes(sb, 0), 1);

    tm_scoreboard_release_inst(sb, 0, &a);         /* writeback of a */
    assert_false(tm_scoreboard_pending(sb, 0, 5));
    assert_false(tm_scoreboard_check(sb, 0, &b));
    assert_false(tm_scoreboard_check(sb, 0, &c));
    assert_int_equal(tm_scoreboard_pending_writes(sb, 0), 0);
    tm_scoreboard_release(sb, 0, 5);               /* releasing a free register: nothing */
    assert_int_equal(tm_scoreboard_pending_writes(sb, 0), 0);
    tm_scoreboard_free(sb);
}

/* The guard predicate is a source (GPGPU-Sim checks inst->pred): @p1 waits
 * for setp p1. */
static void test_guard_predicate(void **state)
{
    (void)state;
    tm_scoreboard *sb = tm_scoreboard_new(1, 16);
    const uint32_t setp_src[] = {2, 3}, setp_dst[] = {0};
    const uint32_t st_src[] = {0, 4, 5};           /* @p0 st [r4], r5: guard first */
    tm_inst_class setp = inst(setp_src, 2, setp_dst, 1, TM_IC_WRITES_REG);
    tm_inst_class st = inst(st_src, 3, NULL, 0, TM_IC_STORE | TM_IC_GUARDED);
    st.guard = 0;
    st.read = st_src + 1;
    st.nread = 2;
    assert_true(tm_scoreboard_reserve(sb, 0, &setp));
    assert_true(tm_scoreboard_check(sb, 0, &st));
    tm_scoreboard_release(sb, 0, 0);
    assert_false(tm_scoreboard_check(sb, 0, &st));
    assert_true(tm_scoreboard_reserve(sb, 0, &st)); /* no destination: nothing reserved */
    assert_int_equal(tm_scoreboard_pending_writes(sb, 0), 0);
    tm_scoreboard_free(sb);
}

/* A global load's destinations are long-operation registers; an ALU
 * result's are not. Releasing clears both marks. */
static void test_long_operations(void **state)
{
    (void)state;
    tm_scoreboard *sb = tm_scoreboard_new(2, 32);
    const uint32_t ld_src[] = {8}, ld_dst[] = {9, 10}; /* ld.global.v2 {r9, r10}, [r8] */
    const uint32_t add_src[] = {1}, add_dst[] = {11};
    tm_inst_class ld = inst(ld_src, 1, ld_dst, 2, TM_IC_LOAD | TM_IC_LONGOP | TM_IC_WRITES_REG);
    tm_inst_class add = inst(add_src, 1, add_dst, 1, TM_IC_WRITES_REG);
    assert_true(tm_scoreboard_reserve(sb, 1, &ld));
    assert_true(tm_scoreboard_reserve(sb, 1, &add));
    assert_true(tm_scoreboard_longop(sb, 1, 9));
    assert_true(tm_scoreboard_longop(sb, 1, 10));
    assert_false(tm_scoreboard_longop(sb, 1, 11));
    assert_true(tm_scoreboard_pending(sb, 1, 11));
    assert_int_equal(tm_scoreboard_pending_writes(sb, 1), 3);
    tm_scoreboard_release(sb, 1, 9);                /* the first half of the data returns */
    assert_false(tm_scoreboard_longop(sb, 1, 9));
    assert_true(tm_scoreboard_longop(sb, 1, 10));
    assert_int_equal(tm_scoreboard_pending_writes(sb, 1), 2);
    tm_scoreboard_clear_warp(sb, 1);
    assert_int_equal(tm_scoreboard_pending_writes(sb, 1), 0);
    assert_false(tm_scoreboard_pending(sb, 1, 10));
    assert_false(tm_scoreboard_longop(sb, 1, 10));
    tm_scoreboard_free(sb);
}

/* 5000 registers: bits on both sides of 64-bit word boundaries stay
 * distinct, the last register works, and a register beyond the size is a
 * hazard (a stall, never a silent pass) that reserve refuses. */
static void test_many_registers(void **state)
{
    (void)state;
    tm_scoreboard *sb = tm_scoreboard_new(48, 5000);
    assert_non_null(sb);
    const uint32_t w_dst[] = {63, 4999}, w_src[] = {0};
    tm_inst_class w = inst(w_src, 1, w_dst, 2, TM_IC_WRITES_REG);
    assert_true(tm_scoreboard_reserve(sb, 47, &w));
    const uint32_t r64[] = {64}, r62[] = {62}, r4999[] = {4999}, r4998[] = {4998};
    tm_inst_class a = inst(r64, 1, NULL, 0, 0), b = inst(r62, 1, NULL, 0, 0);
    tm_inst_class c = inst(r4999, 1, NULL, 0, 0), d = inst(r4998, 1, NULL, 0, 0);
    assert_false(tm_scoreboard_check(sb, 47, &a));
    assert_false(tm_scoreboard_check(sb, 47, &b));
    assert_true(tm_scoreboard_check(sb, 47, &c));
    assert_false(tm_scoreboard_check(sb, 47, &d));
    assert_false(tm_scoreboard_check(sb, 46, &c));
    const uint32_t big[] = {5000};
    tm_inst_class e = inst(big, 1, big, 1, TM_IC_WRITES_REG);
    assert_true(tm_scoreboard_check(sb, 0, &e));
    assert_false(tm_scoreboard_reserve(sb, 0, &e));
    assert_true(tm_scoreboard_check(sb, 48, &a)); /* no such warp */
    assert_null(tm_scoreboard_new(0, 10));
    tm_scoreboard_free(sb);
}

/* Shadow bits: warp 0 (a left path) has r0 pending when the paths
 * diverge (S := P): warp 1 (the right path) sees r0 shadowed; r1 written
 * after the divergence is not; the write-back of r0 clears both bits. */
static void test_shadow(void **state)
{
    (void)state;
    tm_scoreboard *sb = tm_scoreboard_new(2, 64);
    assert_non_null(sb);
    const uint32_t r0[] = {0}, r1[] = {1}, none[] = {0};
    tm_inst_class load_r0 = inst(none, 0, r0, 1, TM_IC_WRITES_REG), load_r1 = inst(none, 0, r1, 1, TM_IC_WRITES_REG);
    tm_inst_class read_r0 = inst(r0, 1, none, 0, 0), read_r1 = inst(r1, 1, none, 0, 0);
    assert_true(tm_scoreboard_reserve(sb, 0, &load_r0));
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r0)); /* pending, not shadowed yet */
    tm_scoreboard_shadow(sb, 0);
    tm_scoreboard_shadow(sb, 1);
    assert_true(tm_scoreboard_shadowed(sb, 0, &read_r0));
    assert_true(tm_scoreboard_reserve(sb, 0, &load_r1)); /* after the divergence */
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r1));
    assert_false(tm_scoreboard_shadowed(sb, 1, &read_r0)); /* warp 1 had nothing pending */
    assert_true(tm_scoreboard_release_inst(sb, 0, &load_r0)); /* r0 was shadowed: others may have waited */
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r0));
    assert_false(tm_scoreboard_check(sb, 0, &read_r0));
    tm_scoreboard_shadow(sb, 0); /* a reconvergence: r1 shadowed now */
    assert_true(tm_scoreboard_reserve(sb, 1, &load_r1));
    assert_false(tm_scoreboard_release_inst(sb, 1, &load_r1)); /* warp 1's r1 never was */
    assert_true(tm_scoreboard_shadowed(sb, 0, &read_r1));
    tm_scoreboard_clear_warp(sb, 0);
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r1));
    tm_scoreboard_free(sb);
}

/* Kept registers (memory subdivision): warp 0's load of r0 (and its
 * add of r1) is pending and shadowed; keeping r0 clears its shadow bit,
 * later shadowing leaves it out while r1 is shadowed again, warp 0's own
 * check still sees r0; the write-back clears the kept bit, so a new write
 * of r0 is shadowed as usual. Keeping a free register does nothing. */
static void test_keep(void **state)
{
    (void)state;
    tm_scoreboard *sb = tm_scoreboard_new(2, 128);
    assert_non_null(sb);
    const uint32_t r0[] = {0}, r1[] = {1}, r100[] = {100}, none[] = {0};
    tm_inst_class load_r0 = inst(none, 0, r0, 1, TM_IC_WRITES_REG), add_r1 = inst(none, 0, r1, 1, TM_IC_WRITES_REG);
    tm_inst_class read_r0 = inst(r0, 1, none, 0, 0), read_r1 = inst(r1, 1, none, 0, 0);
    tm_inst_class read_r100 = inst(r100, 1, none, 0, 0), write_r100 = inst(none, 0, r100, 1, TM_IC_WRITES_REG);
    assert_true(tm_scoreboard_reserve(sb, 0, &load_r0));
    assert_true(tm_scoreboard_reserve(sb, 0, &add_r1));
    assert_true(tm_scoreboard_reserve(sb, 0, &write_r100)); /* (the second bitset word) */
    tm_scoreboard_shadow(sb, 0);
    assert_true(tm_scoreboard_shadowed_reg(sb, 0, 0));
    tm_scoreboard_keep(sb, 0, 0);
    tm_scoreboard_keep(sb, 0, 100);
    tm_scoreboard_keep(sb, 0, 7); /* free: nothing */
    assert_false(tm_scoreboard_shadowed_reg(sb, 0, 0));
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r0));
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r100));
    assert_true(tm_scoreboard_shadowed(sb, 0, &read_r1));
    tm_scoreboard_release_inst(sb, 0, &add_r1);
    tm_scoreboard_shadow(sb, 0); /* another regrouping: r0 and r100 stay out */
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r0));
    assert_false(tm_scoreboard_shadowed(sb, 0, &read_r100));
    assert_true(tm_scoreboard_check(sb, 0, &read_r0)); /* its own slot still waits */
    assert_false(tm_scoreboard_release_inst(sb, 0, &load_r0)); /* not shadowed */
    assert_true(tm_scoreboard_reserve(sb, 0, &load_r0));
    tm_scoreboard_shadow(sb, 0);
    assert_true(tm_scoreboard_shadowed(sb, 0, &read_r0)); /* a new write: shadowed again */
    tm_scoreboard_clear_warp(sb, 0);
    assert_true(tm_scoreboard_reserve(sb, 0, &write_r100));
    tm_scoreboard_shadow(sb, 0);
    assert_true(tm_scoreboard_shadowed(sb, 0, &read_r100)); /* clear_warp forgot the kept bit */
    tm_scoreboard_free(sb);
}

/* xorshift64: the next pseudo-random number of *s. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random instructions on scoreboards of 40, 64, 100, 128 and 200
 * registers (one to four words a warp), each as given (lists) and with its
 * masks: check and reserve answer the same on twin scoreboards through a
 * random run of reservations and releases, registers beyond the size
 * included (a hazard for ever, as the lists say). */
static void test_masks_answer_as_lists(void **state)
{
    (void)state;
    const uint32_t sizes[] = {40, 64, 100, 128, 200};
    uint64_t s = 0x2545F4914F6CDD1Dull;
    for (uint32_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        uint32_t nregs = sizes[z];
        tm_scoreboard *a = tm_scoreboard_new(2, nregs), *b = tm_scoreboard_new(2, nregs);
        assert_non_null(a);
        assert_non_null(b);
        uint32_t regs[64][6];
        tm_inst_class lists[64], masks[64];
        for (uint32_t i = 0; i < 64; i++) { /* up to 4 sources and 2 destinations, now and then beyond the size */
            uint32_t nsrc = (uint32_t)(next_random(&s) % 5), ndst = (uint32_t)(next_random(&s) % 3);
            for (uint32_t k = 0; k < nsrc + ndst; k++) {
                uint32_t r;
                bool again;
                do { /* (each register once in its list) */
                    r = (uint32_t)(next_random(&s) % (nregs + 8));
                    again = false;
                    for (uint32_t j = k < nsrc ? 0 : nsrc; j < k; j++)
                        again |= regs[i][j] == r;
                } while (again);
                regs[i][k] = r;
            }
            lists[i] = inst(regs[i], nsrc, regs[i] + nsrc, ndst, ndst ? TM_IC_WRITES_REG : 0);
            masks[i] = lists[i];
            tm_inst_class_set_masks(&masks[i]);
        }
        uint32_t masked = 0;
        for (uint32_t step = 0; step < 20000; step++) {
            uint32_t i = (uint32_t)(next_random(&s) % 64), w = (uint32_t)(next_random(&s) % 2);
            masked += masks[i].has_masks && masks[i].reg_top <= nregs;
            assert_int_equal(tm_scoreboard_check(a, w, &lists[i]), tm_scoreboard_check(b, w, &masks[i]));
            if (next_random(&s) % 3) {
                assert_int_equal(tm_scoreboard_reserve(a, w, &lists[i]), tm_scoreboard_reserve(b, w, &masks[i]));
            } else {
                tm_scoreboard_release_inst(a, w, &lists[i]);
                tm_scoreboard_release_inst(b, w, &masks[i]);
            }
            assert_int_equal(tm_scoreboard_pending_writes(a, w), tm_scoreboard_pending_writes(b, w));
        }
        if (nregs <= TM_IC_MASK_REGS)
            assert_true(masked > 10000); /* (the masks were the ones answering) */
        tm_scoreboard_free(a);
        tm_scoreboard_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_waw_and_release),
        cmocka_unit_test(test_guard_predicate),
        cmocka_unit_test(test_long_operations),
        cmocka_unit_test(test_many_registers),
        cmocka_unit_test(test_shadow),
        cmocka_unit_test(test_keep),
        cmocka_unit_test(test_masks_answer_as_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
