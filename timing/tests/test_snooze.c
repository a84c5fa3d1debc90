/* test_snooze.c — Snooze's cache power states (Tripathy's thesis, Ch. 5;
 * timing/snooze.h): a unit's state sequence and its cycles worked by
 * hand, the same on a cache (a hit on a sleeping block waits for its
 * wake-up; fills do not), and whole launches under bank- and block-level
 * gating (every unit-cycle counted once, results unchanged).
 *
 * Rules used (snooze.h, Table 5.2): OFF from the start; a wake takes 2
 * cycles (counted ON); a unit sleeps when its last use ended more than 2
 * cycles before the next event; leakage ON 1, Sleep 0.228, OFF 0.015. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "timing/cache.h"
#include "timing/gpu.h"
#include "timing/mempart.h"
#include "timing/sm.h"
#include "timing/snooze.h"

/* One unit: a hint at 10 wakes it (OFF 0..10), ready at 12, not at 11;
 * used at 12 (ON 10..13); a hint at 20 finds it asleep since 13 (20 >
 * 13 + 2): Sleep 13..20, ON from 20, ready at 22; used at 22; at 30 it has
 * slept since 23. ON 3 + 3, Sleep 7 + 7, OFF 10. */
static void test_unit_sequence(void **state)
{
    (void)state;
    tm_snooze *s = tm_snooze_new(1, 2);
    assert_non_null(s);
    tm_snooze_wake(s, 0, 10);
    assert_false(tm_snooze_ready(s, 0, 11));
    assert_true(tm_snooze_ready(s, 0, 12));
    tm_snooze_use(s, 0, 12);
    tm_snooze_wake(s, 0, 20);
    assert_false(tm_snooze_ready(s, 0, 21));
    tm_snooze_use(s, 0, 22);
    uint64_t c[TM_SNOOZE_STATES];
    tm_snooze_cycles(s, 30, c);
    assert_int_equal(c[TM_SNOOZE_ON], 6);
    assert_int_equal(c[TM_SNOOZE_SLEEP], 14);
    assert_int_equal(c[TM_SNOOZE_OFF], 10);
    assert_true(tm_snooze_leakage(c) > (6 + 0.228 * 14 + 0.015 * 10) / 30 - 1e-12);
    assert_true(tm_snooze_leakage(c) < (6 + 0.228 * 14 + 0.015 * 10) / 30 + 1e-12);
    /* a use within the wake-up time of the last keeps it ON (30 .. 33 and
     * 34 .. 35: one ON stretch, no sleep between) */
    tm_snooze_use(s, 0, 32);
    tm_snooze_use(s, 0, 35);
    tm_snooze_cycles(s, 36, c);
    assert_int_equal(c[TM_SNOOZE_SLEEP], 14 + 2); /* 23 .. 30 counted before, 30 .. 32 now */
    assert_int_equal(c[TM_SNOOZE_ON], 6 + 4);     /* 32 .. 36 */
    /* all OFF */
    tm_snooze_all_off(s, 40);
    tm_snooze_cycles(s, 50, c);
    assert_int_equal(c[TM_SNOOZE_OFF], 10 + 10);
    assert_int_equal(c[TM_SNOOZE_ON] + c[TM_SNOOZE_SLEEP] + c[TM_SNOOZE_OFF], 50);
    tm_snooze_free(s);
}

/* A 2-set, 2-way cache of 128-byte lines, block-level: a read miss at 1
 * (tags only), its fill at 5 (the fill queue woke line 0 two cycles
 * before: ON 3..6), then a hit at 20 with no hint: the line slept from 6,
 * wakes at 20, the hit is refused at 20 and 21 (stalls) and served at 22
 * (ON 20..23). At 30: line 0 ON 3 + 3, Sleep 14 + 7, OFF 3; the three
 * others OFF 30 each. */
static void test_cache_block_level(void **state)
{
    (void)state;
    tm_cache_config cfg = {.present = true, .nsets = 2, .line_bytes = 128, .assoc = 2, .repl = TM_REPL_LRU,
                           .write = TM_WRITE_READ_ONLY, .alloc = TM_ALLOC_ON_MISS, .write_alloc = TM_WA_NONE,
                           .set_index = TM_INDEX_LINEAR, .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 4,
                           .mshr_max_merge = 4, .miss_queue = 8};
    char err[256];
    tm_cache *c = tm_cache_new(&cfg, "test", err, sizeof err);
    assert_non_null(c);
    assert_false(tm_cache_set_snooze(c, 64, 2, err, sizeof err)); /* neither the line nor a sector */
    assert_non_null(strstr(err, "the line (128)"));
    assert_true(tm_cache_set_snooze(c, 128, 2, err, sizeof err));
    tm_req r = {.addr = 0, .bytes = 4, .kind = TM_REQ_READ, .space = TM_SPACE_GLOBAL, .tag = 1};
    assert_int_equal(tm_cache_access(c, &r, 1, NULL), TM_CACHE_MISS);
    tm_req reply = *tm_cache_miss_front(c);
    reply.is_reply = 1;
    tm_cache_miss_pop(c);
    assert_true(tm_cache_fill(c, &reply, 5));
    tm_req out;
    assert_true(tm_cache_next_ready(c, 5, &out));
    r.tag = 2;
    tm_cache_fail why = TM_CACHE_FAIL_REASONS;
    assert_int_equal(tm_cache_access(c, &r, 20, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_ASLEEP);
    assert_int_equal(tm_cache_access(c, &r, 21, NULL), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(tm_cache_access(c, &r, 22, NULL), TM_CACHE_HIT);
    tm_cache_snooze_update(c, 30);
    const tm_cache_stats *s = tm_cache_get_stats(c);
    assert_int_equal(s->snooze_units, 4);
    assert_int_equal(s->snooze[TM_SNOOZE_ON], 6);
    assert_int_equal(s->snooze[TM_SNOOZE_SLEEP], 21);
    assert_int_equal(s->snooze[TM_SNOOZE_OFF], 3 + 3 * 30);
    assert_int_equal(s->fail[TM_ACC_GLOBAL_R][TM_CACHE_FAIL_ASLEEP], 2);
    /* with a hint two cycles ahead the hit does not wait */
    tm_cache_snooze_hint(c, 0, 40);
    assert_int_equal(tm_cache_access(c, &r, 42, NULL), TM_CACHE_HIT);
    assert_int_equal(tm_cache_get_stats(c)->fail[TM_ACC_GLOBAL_R][TM_CACHE_FAIL_ASLEEP], 2);
    tm_cache_free(c);
}

/* The reservation queue (Sec. 5.2.1): one MSHR; line 0 (block 0, set 0)
 * filled; a read of block 256 (set 0) takes the MSHR; a read of block 512
 * (set 0) is refused for want of one, so set 0 enters the queue. A hint
 * for block 0 at 40 then wakes nothing, and a read of it at 42 waits for
 * its own wake-up; once block 256's fill comes into set 0, a hint at 60
 * wakes line 0 and a read at 62 hits. */
static void test_reservation_queue(void **state)
{
    (void)state;
    tm_cache_config cfg = {.present = true, .nsets = 2, .line_bytes = 128, .assoc = 2, .repl = TM_REPL_LRU,
                           .write = TM_WRITE_READ_ONLY, .alloc = TM_ALLOC_ON_MISS, .write_alloc = TM_WA_NONE,
                           .set_index = TM_INDEX_LINEAR, .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 1,
                           .mshr_max_merge = 4, .miss_queue = 8};
    char err[256];
    tm_cache *c = tm_cache_new(&cfg, "test", err, sizeof err);
    assert_non_null(c);
    assert_true(tm_cache_set_snooze(c, 128, 2, err, sizeof err));
    tm_req out, r = {.addr = 0, .bytes = 4, .kind = TM_REQ_READ, .space = TM_SPACE_GLOBAL, .tag = 1};
    assert_int_equal(tm_cache_access(c, &r, 1, NULL), TM_CACHE_MISS);
    tm_req reply = *tm_cache_miss_front(c);
    reply.is_reply = 1;
    tm_cache_miss_pop(c);
    assert_true(tm_cache_fill(c, &reply, 5));
    assert_true(tm_cache_next_ready(c, 5, &out));
    tm_req b = r;
    b.addr = 256;
    b.tag = 2;
    assert_int_equal(tm_cache_access(c, &b, 10, NULL), TM_CACHE_MISS);
    tm_req x = r;
    x.addr = 512;
    x.tag = 3;
    tm_cache_fail why;
    assert_int_equal(tm_cache_access(c, &x, 11, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_MSHR_ENTRY);
    tm_cache_snooze_hint(c, 0, 40);
    r.tag = 4;
    assert_int_equal(tm_cache_access(c, &r, 42, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_ASLEEP);
    reply = *tm_cache_miss_front(c);
    reply.is_reply = 1;
    tm_cache_miss_pop(c);
    assert_true(tm_cache_fill(c, &reply, 50));
    tm_cache_snooze_hint(c, 0, 60);
    r.tag = 5;
    assert_int_equal(tm_cache_access(c, &r, 62, NULL), TM_CACHE_HIT);
    tm_cache_free(c);
}

#define HEAD ".version 8.0\n.target sm_80\n.address_size 64\n"

/* out[i] = in[i] + in[i + 64] over 256 threads (4 blocks of 64). */
static const char *const KERNEL =
    HEAD ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
         ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<4>;\n"
         "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
         "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\nmad.lo.u32 %r4, %r2, %r3, %r1;\n"
         "mul.wide.u32 %rd3, %r4, 4;\nadd.u64 %rd4, %rd1, %rd3;\n"
         "ld.global.f32 %f1, [%rd4];\nld.global.f32 %f2, [%rd4+256];\nadd.f32 %f3, %f1, %f2;\n"
         "add.u64 %rd5, %rd2, %rd3;\nst.global.f32 [%rd5], %f3;\nret;\n}\n";

/* GTX480 with Snooze `mode`: every unit-cycle of every L1D and L2 is in
 * one state (units x cycles), and the results are the emulator's. */
static void run_mode(const char *mode, uint32_t block)
{
    tm_config c;
    char err[512], m[64], b[64];
    if (tm_config_preset(&c, "GTX480", err, sizeof err) != 0)
        fail_msg("%s", err);
    snprintf(m, sizeof m, "-simtlab_snooze=%s", mode);
    snprintf(b, sizeof b, "-simtlab_snooze_block=%u", block);
    if (tm_config_set(&c, m, NULL, err, sizeof err) != 0 || tm_config_set(&c, b, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    emu e;
    emu_open_module(&e, ptx_test_parse(KERNEL));
    float in[320], out[256];
    for (int i = 0; i < 320; i++)
        in[i] = (float)i * 0.5f;
    uint64_t bufs[2] = {emu_buf(&e, in, sizeof in), emu_buf(&e, NULL, sizeof out)};
    sim_launch_config lc = emu_cfg(4, 1, 64, 1);
    tm_gpu *gpu = tm_gpu_new(&c, err, sizeof err);
    assert_non_null(gpu);
    if (tm_gpu_launch(gpu, e.d, e.p, "k", &lc, bufs, 16, NULL, err, sizeof err) != 0)
        fail_msg("%s", err);
    emu_read(&e, out, bufs[1], sizeof out);
    for (int i = 0; i < 256; i++)
        assert_true(out[i] == in[i] + in[i + 64]);
    uint64_t lines = (uint64_t)c.l1d.nsets * c.l1d.assoc;
    uint64_t units = strcmp(mode, "bank") == 0 ? 1 : lines;
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        const tm_cache_stats *s = tm_cache_get_stats(gpu->sms[i].l1d);
        assert_int_equal(s->snooze[0] + s->snooze[1] + s->snooze[2], units * gpu->core_cycle);
    }
    uint64_t l2units = strcmp(mode, "bank") == 0 ? 1 : (uint64_t)c.l2.nsets * c.l2.assoc;
    const tm_cache_stats *s2 = tm_cache_get_stats(gpu->parts[0].slices[0].l2);
    assert_int_equal(s2->snooze[0] + s2->snooze[1] + s2->snooze[2], l2units * gpu->l2_cycle);
    /* 4 blocks on 15 SMs: an SM without a block never wakes its L1 */
    uint32_t idle_off = 0;
    for (uint32_t i = 0; i < gpu->nsms; i++) {
        const tm_cache_stats *s = tm_cache_get_stats(gpu->sms[i].l1d);
        idle_off += s->snooze[TM_SNOOZE_OFF] == units * gpu->core_cycle;
    }
    assert_int_equal(idle_off, gpu->nsms - 4);
    tm_gpu_free(gpu);
    emu_close(&e);
}

static void test_launch_bank(void **state)
{
    (void)state;
    run_mode("bank", 128);
}

static void test_launch_block(void **state)
{
    (void)state;
    run_mode("block", 128);
}

/* Snooze needs the queue memory stage; a 32-byte block needs a sectored cache. */
static void test_config_checks(void **state)
{
    (void)state;
    tm_config c;
    char err[512];
    assert_int_equal(tm_config_preset(&c, "GTX480", err, sizeof err), 0);
    assert_int_equal(tm_config_set(&c, "-simtlab_snooze=block", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_set(&c, "-simtlab_mem_pipeline=replay", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_validate(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "-simtlab_snooze block needs -simtlab_mem_pipeline queue"));
    assert_int_equal(tm_config_set(&c, "-simtlab_mem_pipeline=queue", NULL, err, sizeof err), 0);
    assert_int_equal(tm_config_set(&c, "-simtlab_snooze_block=32", NULL, err, sizeof err), 0);
    assert_null(tm_gpu_new(&c, err, sizeof err)); /* GTX480's L1D is not sectored */
    assert_non_null(strstr(err, "Snooze blocks of 32 bytes"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_sequence),
        cmocka_unit_test(test_cache_block_level),
        cmocka_unit_test(test_reservation_queue),
        cmocka_unit_test(test_launch_bank),
        cmocka_unit_test(test_launch_block),
        cmocka_unit_test(test_config_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
