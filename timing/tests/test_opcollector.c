/* test_opcollector.c — the operand collector (timing/opcollector.h).
 * Expected cycles are derived in the comments from the rules opcollector.h
 * states after GPGPU-Sim's opndcoll_rfu_t: bank = (reg [+ warp]) % banks;
 * one access per bank per cycle, writes first, reads oldest collector
 * first; the core's cycle order is writeback, pop OC_EX, tm_opcollector_
 * cycle, issue — so an instruction issued at cycle t is read from t+1 and
 * enters OC_EX the cycle after its last read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timing/opcollector.h"

/* 4 register banks, one scheduler, no warp offset; oc_sp SP collectors,
 * oc_gen generic ones, one of every other kind; OC_EX width 1. */
static tm_config config(uint32_t oc_sp, uint32_t oc_gen)
{
    tm_config c;
    memset(&c, 0, sizeof c);
    c.reg_banks = 4;
    c.n_schedulers = 1;
    for (unsigned k = 0; k < TM_UNIT_KINDS; k++) {
        c.oc_units[k] = 1;
        c.oc_ex[k] = 1;
    }
    c.oc_units[TM_UNIT_SP] = oc_sp;
    c.oc_units_gen = oc_gen;
    return c;
}

static tm_opcollector *make(const tm_config *c, uint32_t max_reads, uint32_t per_cu)
{
    char err[128];
    tm_opcollector *oc = tm_opcollector_new(c, max_reads, per_cu, err, sizeof err);
    assert_non_null(oc);
    return oc;
}

/* An SP instruction reading regs[0..n). */
static tm_inst_class sp_inst(const uint32_t *regs, uint32_t n)
{
    return (tm_inst_class){.unit = TM_UNIT_SP, .src = regs, .nsrc = n, .read = regs, .nread = n,
                           .guard = TM_NO_REG, .latency = 1, .initiation = 1};
}

/* The cycle ic (issued alone at cycle 0 on warp 0) reaches OC_EX. */
static uint64_t arrival(tm_opcollector *oc, const tm_inst_class *ic)
{
    assert_true(tm_opcollector_issue(oc, 0, 0, ic, 7, 0) >= 0);
    tm_oc_entry e;
    for (uint64_t now = 1; now < 20; now++) {
        tm_opcollector_cycle(oc, now);
        if (tm_opcollector_ready(oc, TM_UNIT_SP, &e)) {
            assert_int_equal(e.tag, 7);
            tm_opcollector_pop(oc, TM_UNIT_SP);
            return now;
        }
    }
    fail_msg("never left its collector");
    return 0;
}

/* r1, r2 are in banks 1, 2: both read at cycle 1, in OC_EX at 2, no
 * conflict. r1, r5 are both in bank 1 (5 % 4): r1 read at 1, r5 at 2, in
 * OC_EX at 3, one conflict stall (cycle 1). */
static void test_same_bank_takes_two_cycles(void **state)
{
    (void)state;
    tm_config c = config(1, 0);
    tm_opcollector *oc = make(&c, 4, 0);
    const uint32_t apart[] = {1, 2}, same[] = {1, 5};
    tm_inst_class a = sp_inst(apart, 2), b = sp_inst(same, 2);
    assert_int_equal(arrival(oc, &a), 2);
    assert_int_equal(tm_opcollector_bank_conflict_stalls(oc), 0);
    tm_opcollector_free(oc);
    oc = make(&c, 4, 0);
    assert_int_equal(arrival(oc, &b), 3);
    assert_int_equal(tm_opcollector_bank_conflict_stalls(oc), 1);
    assert_int_equal(oc->regfile_reads, 2);
    tm_opcollector_free(oc);
    /* no operands: leaves at the first cycle after issue */
    oc = make(&c, 4, 0);
    tm_inst_class z = sp_inst(NULL, 0);
    assert_int_equal(arrival(oc, &z), 1);
    tm_opcollector_free(oc);
}

/* With GPGPU-Sim's allocator limit (one operand per collector per cycle)
 * r1, r2 take cycles 1 and 2 although their banks differ: OC_EX at 3, and
 * no bank conflict. */
static void test_one_read_per_collector_limit(void **state)
{
    (void)state;
    tm_config c = config(1, 0);
    tm_opcollector *oc = make(&c, 4, 1);
    const uint32_t apart[] = {1, 2};
    tm_inst_class a = sp_inst(apart, 2);
    assert_int_equal(arrival(oc, &a), 3);
    assert_int_equal(tm_opcollector_bank_conflict_stalls(oc), 0);
    tm_opcollector_free(oc);
}

/* register_bank(): (reg + warp) % banks with the warp offset; with the
 * sub-core model and 8 banks over 2 schedulers, (reg [+ warp]) % 4 +
 * 4 * sched. */
static void test_bank_mapping(void **state)
{
    (void)state;
    tm_config c = config(1, 0);
    tm_opcollector *oc = make(&c, 4, 0);
    assert_int_equal(tm_opcollector_bank(oc, 5, 3, 0), 1);  /* 5 % 4 */
    tm_opcollector_free(oc);
    c.reg_bank_use_warp_id = true;
    oc = make(&c, 4, 0);
    assert_int_equal(tm_opcollector_bank(oc, 5, 3, 0), 0);  /* (5 + 3) % 4 */
    assert_int_equal(tm_opcollector_bank(oc, 1, 2, 0), 3);  /* (1 + 2) % 4 */
    tm_opcollector_free(oc);
    c.reg_banks = 8;
    c.n_schedulers = 2;
    c.sub_core_model = true;
    oc = make(&c, 4, 0);
    assert_int_equal(tm_opcollector_bank(oc, 5, 0, 1), 5);  /* (5 + 0) % 4 + 4 */
    assert_int_equal(tm_opcollector_bank(oc, 6, 1, 0), 3);  /* (6 + 1) % 4 + 0 */
    tm_opcollector_free(oc);
    c.reg_banks = 12; /* three banks a scheduler: not a power of two */
    c.n_schedulers = 4;
    oc = make(&c, 4, 0);
    assert_int_equal(tm_opcollector_bank(oc, 5, 0, 2), 8);  /* (5 + 0) % 3 + 2 * 3 */
    assert_int_equal(tm_opcollector_bank(oc, 7, 1, 3), 11); /* (7 + 1) % 3 + 3 * 3 */
    tm_opcollector_free(oc);
    c.sub_core_model = false;
    c.reg_bank_use_warp_id = false;
    c.reg_banks = 6;
    oc = make(&c, 4, 0);
    assert_int_equal(tm_opcollector_bank(oc, 13, 0, 3), 1); /* 13 % 6 */
    tm_opcollector_free(oc);
    c.sub_core_model = true;
    c.reg_bank_use_warp_id = true;
    c.reg_banks = 6;
    c.n_schedulers = 4; /* 6 banks do not split among 4 schedulers */
    char err[128] = "";
    assert_null(tm_opcollector_new(&c, 4, 0, err, sizeof err));
    assert_non_null(strstr(err, "sub_core"));
}

/* Warp 0 reads r1 and warp 1 reads r0 in the same cycle. Without the warp
 * offset they are in banks 1 and 0: both read at 1. With it, warp 1's r0 is
 * in bank (0 + 1) % 4 = 1 too: the older collector (warp 0) reads at 1,
 * warp 1 at 2, one conflict stall. */
static void test_warp_offset_changes_conflicts(void **state)
{
    (void)state;
    const uint32_t r1[] = {1}, r0[] = {0};
    tm_inst_class a = sp_inst(r1, 1), b = sp_inst(r0, 1);
    for (int use_wid = 0; use_wid < 2; use_wid++) {
        tm_config c = config(2, 0);
        c.oc_ex[TM_UNIT_SP] = 2;
        c.reg_bank_use_warp_id = use_wid;
        tm_opcollector *oc = make(&c, 4, 0);
        assert_true(tm_opcollector_issue(oc, 0, 0, &a, 0, 0) >= 0);
        assert_true(tm_opcollector_issue(oc, 1, 0, &b, 1, 0) >= 0);
        tm_opcollector_cycle(oc, 1);
        assert_int_equal(oc->regfile_reads, use_wid ? 1 : 2);
        assert_int_equal(tm_opcollector_bank_conflict_stalls(oc), use_wid ? 1 : 0);
        tm_opcollector_cycle(oc, 2);
        assert_int_equal(oc->regfile_reads, 2);
        tm_opcollector_free(oc);
    }
}

/* One SP collector, no generic ones: a second SP instruction finds no free
 * collector until the first leaves (r1, r2: read at 1, leaves at 2), then
 * issues at cycle 2. With one generic collector it issues at once. */
static void test_collector_exhaustion(void **state)
{
    (void)state;
    const uint32_t regs[] = {1, 2};
    tm_inst_class a = sp_inst(regs, 2);
    tm_config c = config(1, 0);
    tm_opcollector *oc = make(&c, 4, 0);
    assert_true(tm_opcollector_issue(oc, 0, 0, &a, 0, 0) >= 0);
    assert_false(tm_opcollector_can_issue(oc, TM_UNIT_SP, 0));
    assert_int_equal(tm_opcollector_issue(oc, 1, 0, &a, 1, 0), TM_OC_BUSY);
    assert_true(tm_opcollector_can_issue(oc, TM_UNIT_SFU, 0)); /* SFU has its own */
    tm_opcollector_cycle(oc, 1);
    assert_int_equal(tm_opcollector_issue(oc, 1, 0, &a, 1, 1), TM_OC_BUSY);
    tm_opcollector_cycle(oc, 2);                               /* the first leaves */
    assert_true(tm_opcollector_issue(oc, 1, 0, &a, 1, 2) >= 0);
    tm_opcollector_free(oc);
    c = config(1, 1);
    oc = make(&c, 4, 0);
    assert_int_equal(tm_opcollector_issue(oc, 0, 0, &a, 0, 0), 0);
    /* the generic collector: numbered after the six kinds' sets (SP 1 + 5 x 1) */
    assert_int_equal(tm_opcollector_issue(oc, 1, 0, &a, 1, 0), 6);
    assert_int_equal(tm_opcollector_issue(oc, 2, 0, &a, 2, 0), TM_OC_BUSY);
    tm_opcollector_free(oc);
}

/* With sp SP collectors and 10 generic ones (sets numbered SP, the five
 * other kinds' one each, generic): SP instructions take collectors 0 ..
 * sp - 1, then the generic ones sp + 5 .. sp + 14, then none is left; an
 * SFU instruction still has its own. Both ways of finding a free one:
 * 55 collectors (a mask of them), 75 (more than a mask holds). */
static void test_collectors_taken_in_order(void **state)
{
    (void)state;
    const uint32_t regs[] = {1};
    tm_inst_class a = sp_inst(regs, 1);
    const uint32_t sizes[] = {40, 60};
    for (int z = 0; z < 2; z++) {
        uint32_t sp = sizes[z];
        tm_config c = config(sp, 10);
        tm_opcollector *oc = make(&c, 4, 0);
        for (uint32_t i = 0; i < sp + 10; i++) {
            assert_true(tm_opcollector_can_issue(oc, TM_UNIT_SP, 0));
            assert_int_equal(tm_opcollector_issue(oc, 0, 0, &a, i, 0), i < sp ? i : i + 5);
        }
        assert_false(tm_opcollector_can_issue(oc, TM_UNIT_SP, 0));
        assert_int_equal(tm_opcollector_issue(oc, 0, 0, &a, 99, 0), TM_OC_BUSY);
        assert_true(tm_opcollector_can_issue(oc, TM_UNIT_SFU, 0));
        tm_opcollector_cycle(oc, 1); /* (reads) */
        tm_opcollector_cycle(oc, 2); /* the oldest leaves into OC_EX (width 1): collector 0 is free */
        assert_int_equal(tm_opcollector_issue(oc, 0, 0, &a, 100, 2), 0);
        tm_opcollector_free(oc);
    }
}

/* OC_EX of width 1: two SP instructions (r0 and r1, banks 0 and 1) both
 * read at 1; at 2 the older enters OC_EX and the other waits in its
 * collector; once the core pops the first (cycle 3), it follows at 3. */
static void test_oc_ex_width(void **state)
{
    (void)state;
    const uint32_t r0[] = {0}, r1[] = {1};
    tm_inst_class a = sp_inst(r0, 1), b = sp_inst(r1, 1);
    tm_config c = config(2, 0);
    tm_opcollector *oc = make(&c, 4, 0);
    assert_true(tm_opcollector_issue(oc, 0, 0, &a, 10, 0) >= 0);
    assert_true(tm_opcollector_issue(oc, 1, 0, &b, 11, 0) >= 0);
    tm_oc_entry e;
    tm_opcollector_cycle(oc, 1);
    assert_false(tm_opcollector_ready(oc, TM_UNIT_SP, &e));
    tm_opcollector_cycle(oc, 2);
    assert_true(tm_opcollector_ready(oc, TM_UNIT_SP, &e));
    assert_int_equal(e.tag, 10);
    assert_int_equal(tm_opcollector_next_event(oc, 2), 2); /* b waits for room */
    tm_opcollector_pop(oc, TM_UNIT_SP);                    /* cycle 3: to its unit */
    tm_opcollector_cycle(oc, 3);
    assert_true(tm_opcollector_ready(oc, TM_UNIT_SP, &e));
    assert_int_equal(e.tag, 11);
    assert_int_equal(e.warp, 1);
    tm_opcollector_pop(oc, TM_UNIT_SP);
    assert_int_equal(tm_opcollector_next_event(oc, 3), UINT64_MAX);
    tm_opcollector_free(oc);
}

/* Writes take their bank first: a writeback of r5 (bank 1) at cycle 1
 * keeps the read of r1 (bank 1) to cycle 2 (one conflict stall), so the
 * instruction reaches OC_EX at 3. Two writes to one bank in a cycle: the
 * second waits (writeback returns 1, the rest next cycle). */
static void test_writes_take_banks(void **state)
{
    (void)state;
    const uint32_t r1[] = {1}, w5[] = {5}, w04[] = {0, 4};
    tm_inst_class a = sp_inst(r1, 1);
    tm_config c = config(1, 0);
    tm_opcollector *oc = make(&c, 4, 0);
    tm_oc_entry e;
    assert_true(tm_opcollector_issue(oc, 0, 0, &a, 0, 0) >= 0);
    assert_int_equal(tm_opcollector_writeback(oc, 0, 0, w5, 1, 1), 1);
    tm_opcollector_cycle(oc, 1);
    assert_int_equal(tm_opcollector_bank_conflict_stalls(oc), 1);
    tm_opcollector_cycle(oc, 2);
    assert_false(tm_opcollector_ready(oc, TM_UNIT_SP, &e));
    tm_opcollector_cycle(oc, 3);
    assert_true(tm_opcollector_ready(oc, TM_UNIT_SP, &e));
    assert_int_equal(tm_opcollector_writeback(oc, 0, 0, w04, 2, 5), 1);     /* r4: bank 0 busy */
    assert_int_equal(tm_opcollector_writeback(oc, 0, 0, w04 + 1, 1, 6), 1);
    assert_int_equal(oc->regfile_writes, 3);
    tm_opcollector_free(oc);
}

/* More operands than max_reads, or a kind without OC_EX width, is an
 * error rather than a silent stall. */
static void test_bad_input(void **state)
{
    (void)state;
    const uint32_t regs[] = {1, 2, 3};
    tm_inst_class a = sp_inst(regs, 3);
    tm_config c = config(1, 0);
    tm_opcollector *oc = make(&c, 2, 0);
    assert_int_equal(tm_opcollector_issue(oc, 0, 0, &a, 0, 0), TM_OC_BAD);
    tm_opcollector_free(oc);
    c.oc_ex[TM_UNIT_SP] = 0;
    oc = make(&c, 4, 0);
    assert_int_equal(tm_opcollector_issue(oc, 0, 0, &a, 0, 0), TM_OC_BAD);
    tm_opcollector_free(oc);
    c.reg_banks = 0;
    char err[128] = "";
    assert_null(tm_opcollector_new(&c, 4, 0, err, sizeof err));
    assert_non_null(strstr(err, "reg_banks"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bank_takes_two_cycles),
        cmocka_unit_test(test_one_read_per_collector_limit),
        cmocka_unit_test(test_bank_mapping),
        cmocka_unit_test(test_warp_offset_changes_conflicts),
        cmocka_unit_test(test_collector_exhaustion),
        cmocka_unit_test(test_collectors_taken_in_order),
        cmocka_unit_test(test_oc_ex_width),
        cmocka_unit_test(test_writes_take_banks),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
