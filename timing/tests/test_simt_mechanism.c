/* test_simt_mechanism.c — every divergence mechanism of the timing model
 * (timing/simt.h) drives CTAs made through the
 * launch's sim_grid (timing/cta.h), one issue at a time in round robin
 * over the warp slots as an SM would, with the emulator's clock owned by
 * the caller. The results must be the program's: Collatz step counts per
 * thread (divergent loops) and per-block sums through shared memory after
 * a barrier, checked against a CPU reference computed in the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "timing/simt.h"

static const char *const text =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out, .param .u64 sums)\n{\n"
    ".reg .pred %p<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 4 .b32 part[64];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [sums];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ntid.x;\n"
    "mad.lo.s32 %r4, %r2, %r3, %r1;\nadd.u32 %r5, %r4, 1;\nmov.u32 %r6, 0;\n"
    "LOOP:\nsetp.le.u32 %p1, %r5, 1;\n@%p1 bra DONE;\nand.b32 %r7, %r5, 1;\nsetp.eq.u32 %p2, %r7, 0;\n"
    "@%p2 bra EVEN;\nmad.lo.s32 %r5, %r5, 3, 1;\nbra.uni NEXT;\nEVEN:\nshr.u32 %r5, %r5, 1;\n"
    "NEXT:\nadd.u32 %r6, %r6, 1;\nbra.uni LOOP;\n"
    "DONE:\nmul.wide.u32 %rd3, %r4, 4;\nadd.s64 %rd4, %rd1, %rd3;\nst.global.u32 [%rd4], %r6;\n"
    "shl.b32 %r8, %r1, 2;\nmov.u32 %r9, part;\nadd.u32 %r10, %r9, %r8;\nst.shared.u32 [%r10], %r6;\n"
    "bar.sync 0;\nsetp.ne.u32 %p3, %r1, 0;\n@%p3 bra END;\nmov.u32 %r11, 0;\nmov.u32 %r12, 0;\n"
    "SUM:\nshl.b32 %r13, %r12, 2;\nadd.u32 %r14, %r9, %r13;\nld.shared.u32 %r15, [%r14];\n"
    "add.u32 %r11, %r11, %r15;\nadd.u32 %r12, %r12, 1;\nsetp.lt.u32 %p1, %r12, %r3;\n@%p1 bra SUM;\n"
    "mul.wide.u32 %rd5, %r2, 4;\nadd.s64 %rd6, %rd2, %rd5;\nst.global.u32 [%rd6], %r11;\n"
    "END:\nret;\n}\n";

enum { CTAS = 3, THREADS = 64 };

/* Collatz steps of n, the CPU reference. */
static uint32_t steps(uint32_t n)
{
    uint32_t s = 0;
    while (n > 1) {
        n = n & 1 ? 3 * n + 1 : n / 2;
        s++;
    }
    return s;
}

/* Run every CTA of the launch through mechanism m, one issue per slot per
 * round; the clock is the round number. */
static void run_mechanism(emu *e, const tm_simt_mechanism *m, const uint8_t *params, uint32_t bytes)
{
    sim_launch_config cfg = emu_cfg(CTAS, 1, THREADS, 1);
    sim_grid g;
    sim_error kind;
    assert_int_equal(sim_grid_open(&g, e->d, e->p, "k", &cfg, params, bytes, &kind, e->err, sizeof e->err), 0);
    if (m->prepare)
        assert_true(m->prepare(e->p, e->err, sizeof e->err));
    tm_cta cta;
    assert_true(tm_cta_init(&cta, &g, m, e->err, sizeof e->err));
    tm_config defaults;
    tm_config_defaults(&defaults);
    cta.cfg = &defaults; /* (an SM gives its CTAs the GPU's) */
    assert_int_equal(cta.nslots, THREADS / 32 * (m->paths ? m->paths : 1)); /* (dual-path: a slot per path) */
    uint64_t round = 0;
    for (uint64_t id = 0; id < CTAS; id++) {
        assert_true(tm_cta_begin(&cta, &g, id, e->err, sizeof e->err));
        for (bool done = false; !done; round++) {
            done = true;
            bool progress = false;
            for (uint32_t s = 0; s < cta.nslots; s++) {
                sim_group *grp;
                sim_issue is;
                sim_warp_status st = m->next(&cta, s, &grp, &is);
                done &= st == SIM_WARP_DONE;
                if (st != SIM_WARP_READY)
                    continue;
                sim_step step;
                cta.emu.clock = round;
                sim_exec(&cta.emu, is.pc, grp, &step);
                assert_int_not_equal(step.event, SIM_EV_FAULT);
                assert_int_not_equal(m->commit(&cta, s, &is, &step), SIM_WARP_FAULT);
                progress = true;
                done = false;
            }
            progress |= m->release(&cta);
            assert_true(progress || done);
        }
        tm_cta_end(&cta, &g);
    }
    tm_cta_free(&cta, &g);
    assert_int_equal(sim_grid_close(&g, NULL, e->err, sizeof e->err), 0);
}

static void test_results_match_reference(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < tm_simt_count(); i++) {
        const tm_simt_mechanism *m = tm_simt_at(i);
        assert_ptr_equal(tm_simt_find(m->name), m);
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint64_t out = emu_buf(&e, NULL, CTAS * THREADS * 4), sums = emu_buf(&e, NULL, CTAS * 4);
        uint64_t params[2] = {out, sums};
        run_mechanism(&e, m, (const uint8_t *)params, sizeof params);
        uint32_t got[CTAS * THREADS], got_sums[CTAS];
        emu_read(&e, got, out, sizeof got);
        emu_read(&e, got_sums, sums, sizeof got_sums);
        for (uint32_t b = 0; b < CTAS; b++) {
            uint32_t sum = 0;
            for (uint32_t t = 0; t < THREADS; t++) {
                uint32_t gid = b * THREADS + t, want = steps(gid + 1);
                if (got[gid] != want)
                    fail_msg("%s: thread %u: %u steps, want %u", m->name, gid, got[gid], want);
                sum += want;
            }
            assert_int_equal(got_sums[b], sum);
        }
        emu_close(&e);
    }
    assert_null(tm_simt_find("no-such-mechanism"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_results_match_reference)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
