/* test_sim_exec.c — the emulator's execution entry point driven directly,
 * as the timing model drives it: a grid opened with sim_grid_open, one CTA
 * made through it, and each warp stepped by hand through its SIMT control
 * (emulator/simt.h: next, sim_exec, commit). Checks, with expectations
 * worked out by hand from the PTX ISA and the documented SIMT rules:
 *  - sim_step.mem lists every access of an instruction (ld.global vector,
 *    st.shared, atom, a generic load resolving to shared memory, cp.async,
 *    ldmatrix, simtlab.cond_acc) with its thread, address, size, kind and
 *    space; sim_step.mem_by_lane says when entry i is the i-th running
 *    lane's only access, all of one size, kind and space (and only then);
 *  - %clock64 reads the caller's clock when the caller owns it;
 *  - an indirect call whose lanes name two functions reports the second
 *    group in sim_step.retry, and the call completes for both;
 *  - the issue sequence of a divergent if/else under PDOM (taken path
 *    first, reconvergence at the immediate post-dominator) and under ITS
 *    (smallest pc and next pc alternately);
 *  - a barrier holds the first warp until the second arrives;
 *  - annotations with a moved reconvergence point change the PDOM issue
 *    order accordingly, and annotations of another module are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "emulator/simt.h"
#include "emulator/tests/emu_test.h"

#define PROLOGUE ".version 8.0\n.target sm_80\n.address_size 64\n"

/* One CTA of a launch, stepped by hand. */
typedef struct stepper {
    emu e;
    sim_launch_config cfg;
    sim_grid grid;
    sim_cta c;
    sim_cta *self;
    sim_cluster cluster;
    const sim_simt_ops *ops;
    sim_group g[4];
    uint8_t params[64];
} stepper;

/* Open module m (taking it), launch kernel k on `threads` threads (one
 * CTA) with the 64-bit parameters args, and start its warps under PDOM or
 * ITS. */
static void stepper_open_module(stepper *s, ptx_module *m, const char *k, uint32_t threads, bool its,
                                const uint64_t *args, uint32_t nargs)
{
    memset(s, 0, sizeof *s);
    emu_open_module(&s->e, m);
    s->cfg = emu_cfg(1, 1, threads, 1);
    s->cfg.independent_scheduling = its;
    uint32_t n, bytes;
    const sim_param_info *pi = sim_kernel_params(s->e.p, k, &n, &bytes, s->e.err, sizeof s->e.err);
    assert_non_null(pi);
    assert_int_equal(n, nargs);
    for (uint32_t i = 0; i < n; i++)
        memcpy(s->params + pi[i].offset, &args[i], 8);
    sim_error kind;
    if (sim_grid_open(&s->grid, s->e.d, s->e.p, k, &s->cfg, s->params, bytes, &kind, s->e.err, sizeof s->e.err))
        fail_msg("sim_grid_open: %s", s->e.err);
    s->self = &s->c;
    s->cluster = (sim_cluster){&s->self, 1, 0};
    s->c.cluster = &s->cluster;
    assert_true(sim_grid_cta_alloc(&s->grid, &s->c));
    sim_grid_cta_begin(&s->grid, &s->c, 0);
    s->c.order_passed = true;
    s->ops = its ? &sim_simt_its : &sim_simt_pdom;
    sim_form_warps(&s->c);
    sim_barriers_reset(&s->c);
    for (uint32_t i = 0; i < s->c.nwarps; i++) {
        s->ops->start(&s->c, &s->c.warps[i]);
        s->g[i].ctx = NULL;
    }
}

/* stepper_open_module of PTX text. */
static void stepper_open(stepper *s, const char *text, const char *k, uint32_t threads, bool its,
                         const uint64_t *args, uint32_t nargs)
{
    stepper_open_module(s, ptx_test_parse(text), k, threads, its, args, nargs);
}

/* stepper_open of text's kernel k (checked with ptxas where it is
 * installed) on `threads` threads under PDOM, its one 64-bit parameter a
 * fresh device buffer of `bytes` bytes, whose address it returns. */
static uint64_t stepper_open_buffer(stepper *s, const char *text, uint32_t threads, size_t bytes)
{
    emu_test_assemble(text, "sm_80", true);
    stepper_open(s, text, "k", threads, false, (uint64_t[]){0}, 1);
    uint64_t buf = emu_buf(&s->e, NULL, bytes);
    memcpy((uint8_t *)s->c.params, &buf, 8); /* the parameter, now that the buffer exists */
    return buf;
}

static void stepper_close(stepper *s)
{
    sim_grid_cta_report(&s->grid, &s->c, 0, s->c.faulted);
    sim_grid_cta_free(&s->grid, &s->c);
    FILE *sink = fopen("/dev/null", "w");
    s->cfg.printf_out = sink;
    sim_grid_close(&s->grid, NULL, s->e.err, sizeof s->e.err);
    if (sink)
        fclose(sink);
    emu_close(&s->e);
}

/* Issue one instruction of warp w: its status after; *is and *st say
 * what was issued and what happened. */
static sim_warp_status step(stepper *s, uint32_t w, sim_issue *is, sim_step *st)
{
    sim_warp_status r = s->ops->next(&s->c, &s->c.warps[w], &s->g[w], is);
    if (r != SIM_WARP_READY)
        return r;
    sim_exec(&s->c, is->pc, &s->g[w], st);
    if (st->event == SIM_EV_FAULT)
        fail_msg("fault: %s", s->c.fault);
    return s->ops->commit(&s->c, &s->c.warps[w], is, st);
}

/* Run warp w to its end or a wait. */
static sim_warp_status run(stepper *s, uint32_t w)
{
    sim_issue is;
    sim_step st;
    sim_warp_status r;
    while ((r = step(s, w, &is, &st)) == SIM_WARP_READY)
        ;
    return r;
}

/* The access log entry i of step st must be (thread, addr, size, kind, space). */
static void expect_access(const sim_step *st, uint32_t i, uint32_t thread, uint64_t addr, uint32_t size, uint8_t kind,
                          uint8_t space)
{
    assert_true(i < st->nmem);
    const sim_mem_access *a = &st->mem[i];
    if (a->thread != thread || a->addr != addr || a->size != size || a->kind != kind || a->space != space)
        fail_msg("access %u: thread %u addr 0x%llx size %u kind %u space %u; want thread %u addr 0x%llx size %u "
                 "kind %u space %u", i, a->thread, (unsigned long long)a->addr, a->size, a->kind, a->space, thread,
                 (unsigned long long)addr, size, kind, space);
}

static const char *const mem_text = PROLOGUE
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<12>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 16 .b8 sm[512];\n"
    "ld.param.u64 %rd1, [p];\n"                 /* 0 */
    "cvta.to.global.u64 %rd2, %rd1;\n"          /* 1 */
    "mov.u32 %r1, %tid.x;\n"                    /* 2 */
    "mul.wide.u32 %rd3, %r1, 8;\n"              /* 3 */
    "add.s64 %rd4, %rd2, %rd3;\n"               /* 4 */
    "ld.global.v2.u32 {%r2, %r3}, [%rd4];\n"    /* 5 */
    "shl.b32 %r4, %r1, 2;\n"                    /* 6 */
    "mov.u32 %r5, sm;\n"                        /* 7 */
    "add.u32 %r6, %r5, %r4;\n"                  /* 8 */
    "st.shared.u32 [%r6], %r2;\n"               /* 9 */
    "atom.global.add.u32 %r7, [%rd2], 1;\n"     /* 10 */
    "cvta.shared.u64 %rd5, sm;\n"               /* 11 */
    "ld.u32 %r8, [%rd5+4];\n"                   /* 12 */
    "shl.b32 %r9, %r1, 3;\n"                    /* 13 */
    "add.u32 %r10, %r5, %r9;\n"                 /* 14 */
    "cp.async.ca.shared.global [%r10+256], [%rd4], 8;\n" /* 15 */
    "ret;\n}\n";

/* Every access of each memory instruction, per thread, in thread order.
 * `sm` is the module's only shared variable: shared offset 0. */
static void test_memory_log(void **state)
{
    (void)state;
    stepper s;
    uint64_t buf = stepper_open_buffer(&s, mem_text, 4, 64);
    s.c.record_mem = true;
    sim_issue is;
    sim_step st;
    for (uint32_t pc = 0; pc <= 15; pc++) {
        assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
        assert_int_equal(is.pc, pc);
        assert_int_equal(is.mask, 0xf);
        /* lane by lane: the parameter, the 4-byte shared store; not the
         * vector (its entries are lane by lane, but it is not said for
         * every such log), the atomic, the generic load, the copy */
        assert_int_equal(st.mem_by_lane, pc == 0 || pc == 9);
        switch (pc) {
        case 0: /* ld.param: the 8-byte parameter, read by each thread */
            assert_int_equal(st.nmem, 4);
            for (uint32_t t = 0; t < 4; t++)
                expect_access(&st, t, t, 0, 8, 1, PTX_SPACE_PARAM);
            break;
        case 5: /* one 8-byte vector read per thread at buf + 8t */
            assert_int_equal(st.nmem, 4);
            for (uint32_t t = 0; t < 4; t++)
                expect_access(&st, t, t, buf + 8 * t, 8, 1, PTX_SPACE_GLOBAL);
            break;
        case 9: /* 4-byte shared writes at 4t */
            assert_int_equal(st.nmem, 4);
            for (uint32_t t = 0; t < 4; t++)
                expect_access(&st, t, t, 4 * t, 4, 2, PTX_SPACE_SHARED);
            break;
        case 10: /* a read-modify-write of the same word by each thread */
            assert_int_equal(st.nmem, 4);
            for (uint32_t t = 0; t < 4; t++)
                expect_access(&st, t, t, buf, 4, 3, PTX_SPACE_GLOBAL);
            break;
        case 12: /* generic address of sm + 4: shared offset 4 */
            assert_int_equal(st.nmem, 4);
            for (uint32_t t = 0; t < 4; t++)
                expect_access(&st, t, t, 4, 4, 1, PTX_SPACE_SHARED);
            break;
        case 15: /* cp.async: 8 bytes read from global, 8 written to shared at 256 + 8t */
            assert_int_equal(st.nmem, 8);
            for (uint32_t t = 0; t < 4; t++) {
                expect_access(&st, 2 * t, t, buf + 8 * t, 8, 1, PTX_SPACE_GLOBAL);
                expect_access(&st, 2 * t + 1, t, 256 + 8 * t, 8, 2, PTX_SPACE_SHARED);
            }
            break;
        default: /* no memory */
            assert_int_equal(st.nmem, 0);
            break;
        }
    }
    /* after ret the warp is done */
    assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_DONE);
    stepper_close(&s);
}

static const char *const guarded_text = PROLOGUE
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "cvta.to.global.u64 %rd2, %rd1;\n"
    "mov.u32 %r1, %tid.x;\n"
    "mul.wide.u32 %rd3, %r1, 4;\n"
    "add.s64 %rd4, %rd2, %rd3;\n"
    "and.b32 %r2, %r1, 1;\n"
    "setp.eq.u32 %p1, %r2, 0;\n"
    "ld.global.u32 %r3, [%rd2];\n"      /* 7: every thread, the buffer's first word */
    "@%p1 ld.global.u32 %r3, [%rd4];\n" /* 8: the even threads */
    "ld.global.u32 %r3, [%rd4];\n"      /* 9: every thread */
    "ret;\n}\n";

/* A 4-byte load by the even threads of four, then by all, after a load of
 * the same buffer (the emulator's fast path for memory it has just
 * touched, which is what makes a log lane by lane): entries for the lanes
 * that ran, in lane order, at buf + 4t, said to be lane by lane (entry i:
 * the i-th lane that ran). */
static void test_memory_log_by_lane(void **state)
{
    (void)state;
    stepper s;
    uint64_t buf = stepper_open_buffer(&s, guarded_text, 4, 16);
    s.c.record_mem = true;
    sim_issue is;
    sim_step st;
    for (int i = 0; i < 8; i++)
        assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(is.pc, 8);
    assert_int_equal(st.nmem, 2);
    assert_true(st.mem_by_lane);
    expect_access(&st, 0, 0, buf, 4, 1, PTX_SPACE_GLOBAL);
    expect_access(&st, 1, 2, buf + 8, 4, 1, PTX_SPACE_GLOBAL);
    assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(is.pc, 9);
    assert_int_equal(st.nmem, 4);
    assert_true(st.mem_by_lane);
    for (uint32_t t = 0; t < 4; t++)
        expect_access(&st, t, t, buf + 4 * t, 4, 1, PTX_SPACE_GLOBAL);
    stepper_close(&s);
}

static const char *const ldmatrix_text = PROLOGUE
    ".visible .entry k()\n{\n"
    ".reg .b32 %r<8>;\n"
    ".shared .align 16 .b8 sm[512];\n"
    "mov.u32 %r1, %tid.x;\n"
    "shl.b32 %r2, %r1, 4;\n"
    "mov.u32 %r3, sm;\n"
    "add.u32 %r4, %r3, %r2;\n"
    "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r5}, [%r4];\n"
    "ret;\n}\n";

/* ldmatrix .x1: lanes 0..7 give the 16-byte rows of the one matrix (PTX
 * ISA, ldmatrix: "threads 0-7" hold the addresses for .x1). */
static void test_memory_log_ldmatrix(void **state)
{
    (void)state;
    emu_test_assemble(ldmatrix_text, "sm_80", true);
    stepper s;
    stepper_open(&s, ldmatrix_text, "k", 32, false, NULL, 0);
    s.c.record_mem = true;
    sim_issue is;
    sim_step st;
    for (int i = 0; i < 4; i++)
        assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(is.pc, 4);
    assert_int_equal(st.nmem, 8);
    for (uint32_t r = 0; r < 8; r++)
        expect_access(&st, r, r, 16 * r, 16, 1, PTX_SPACE_SHARED);
    stepper_close(&s);
}

static const char *const cond_acc_text = PROLOGUE
    ".visible .entry k()\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
    ".shared .align 8 .b8 sm[512];\n"
    "mov.u32 %r1, %laneid;\n"
    "and.b32 %r2, %r1, 3;\n"
    "setp.ne.u32 %p1, %r2, 1;\n" /* lanes 1, 5, 9, ... do not write */
    "mov.u32 %r3, sm;\n"
    "simtlab.cond_acc.shared.b16 %r4, [%r3+8], %p1, %r1;\n"
    "ret;\n}\n";

/* simtlab.cond_acc (simtlab's extension of PTX): one 2-byte write per
 * lane whose predicate holds, in lane order, at consecutive addresses from
 * the base (sm + 8): the i-th writing lane at 8 + 2i, as a store. */
static void test_memory_log_cond_acc(void **state)
{
    (void)state;
    stepper s;
    stepper_open_module(&s, ptx_test_parse_ext(cond_acc_text), "k", 32, false, NULL, 0);
    s.c.record_mem = true;
    sim_issue is;
    sim_step st;
    for (int i = 0; i < 4; i++)
        assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
    assert_int_equal(is.pc, 4);
    assert_int_equal(st.nmem, 24);
    uint32_t i = 0;
    for (uint32_t lane = 0; lane < 32; lane++)
        if (lane % 4 != 1) {
            expect_access(&st, i, lane, 8 + 2 * i, 2, 2, PTX_SPACE_SHARED);
            i++;
        }
    stepper_close(&s);
}

static const char *const clock_text = PROLOGUE
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "mov.u64 %rd2, %clock64;\n"
    "st.global.u64 [%rd1], %rd2;\n"
    "ret;\n}\n";

/* %clock64 reads the caller's clock when it owns time, otherwise the
 * warp instructions issued so far, its own mov included: 2. */
static void test_clock_owned_by_caller(void **state)
{
    (void)state;
    for (int owned = 0; owned < 2; owned++) {
        stepper s;
        stepper_open(&s, clock_text, "k", 1, false, (uint64_t[]){0}, 1);
        uint64_t buf = emu_buf(&s.e, NULL, 8);
        memcpy((uint8_t *)s.c.params, &buf, 8);
        s.c.clock_external = owned;
        s.c.clock = 123456789;
        assert_int_equal(run(&s, 0), SIM_WARP_DONE);
        uint64_t v;
        emu_read(&s.e, &v, buf, 8);
        assert_int_equal(v, owned ? 123456789 : 2);
        stepper_close(&s);
    }
}

static const char *const call_text = PROLOGUE
    ".func (.param .b32 r) f1(.param .b32 a)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.b32 %r1, [a];\nadd.s32 %r2, %r1, 100;\nst.param.b32 [r], %r2;\nret;\n}\n"
    ".func (.param .b32 r) f2(.param .b32 a)\n{\n.reg .b32 %r<3>;\n"
    "ld.param.b32 %r1, [a];\nadd.s32 %r2, %r1, 200;\nst.param.b32 [r], %r2;\nret;\n}\n"
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [p];\n"
    "mov.u32 %r1, %tid.x;\n"
    "mov.u64 %rd2, f1;\n"
    "mov.u64 %rd3, f2;\n"
    "setp.lt.u32 %p1, %r1, 2;\n"
    "selp.b64 %rd4, %rd2, %rd3, %p1;\n"
    "{\n.param .b32 x;\n.param .b32 y;\nst.param.b32 [x], %r1;\n"
    "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
    "call (y), %rd4, (x), proto;\n"
    "ld.param.b32 %r2, [y];\n}\n"
    "mul.wide.u32 %rd5, %r1, 4;\n"
    "add.s64 %rd6, %rd1, %rd5;\n"
    "st.global.u32 [%rd6], %r2;\n"
    "ret;\n}\n";

/* An indirect call whose lanes 0-1 name f1 and lanes 2-3 f2: the first
 * issue calls f1 for lanes 0-1 and asks lanes 2-3 to issue the call
 * again (sim_step.retry), never as exits; both calls complete. */
static void test_indirect_call_retry(void **state)
{
    (void)state;
    stepper s;
    uint64_t buf = stepper_open_buffer(&s, call_text, 4, 16);
    sim_issue is;
    sim_step st;
    const sim_func *caller = s.c.kernel_fn;
    bool seen = false;
    while (!seen) {
        assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
        if (st.event == SIM_EV_CALL) {
            seen = true;
            assert_int_equal(st.taken, 0x3);
            assert_int_equal(st.retry, 0xc);
            assert_int_equal(st.exited, 0);
            assert_string_equal(ptx_function_name(s.e.m, s.e.p->funcs[st.target].f), "f1");
        }
    }
    /* the next issue is f1's first instruction for lanes 0-1 */
    assert_int_equal(s.ops->next(&s.c, &s.c.warps[0], &s.g[0], &is), SIM_WARP_READY);
    assert_int_equal(is.pc, 0);
    assert_int_equal(is.mask, 0x3);
    assert_ptr_not_equal(s.c.fn, caller);
    assert_int_equal(run(&s, 0), SIM_WARP_DONE);
    uint32_t out[4];
    emu_read(&s.e, out, buf, sizeof out);
    for (uint32_t t = 0; t < 4; t++) /* f1 adds 100, f2 200 */
        assert_int_equal(out[t], t + (t < 2 ? 100 : 200));
    stepper_close(&s);
}

static const char *const branch_text = PROLOGUE
    ".visible .entry k()\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
    "mov.u32 %r1, %tid.x;\n"        /* 0 */
    "setp.lt.u32 %p1, %r1, 16;\n"   /* 1 */
    "@%p1 bra THEN;\n"              /* 2 */
    "mov.u32 %r2, 2;\n"             /* 3 */
    "bra.uni JOIN;\n"               /* 4 */
    "THEN:\nmov.u32 %r2, 1;\n"      /* 5 */
    "JOIN:\nadd.u32 %r3, %r2, 1;\n" /* 6 */
    "ret;\n}\n";                    /* 7 */

/* The (pc, lanes) issue sequence of an if/else under each SIMT control. */
static void test_issue_order(void **state)
{
    (void)state;
    const uint32_t lo = 0x0000ffff, hi = 0xffff0000, all = ~0u;
    /* PDOM: the branch at 2 splits; the taken path (5) runs first, then
     * the fall-through (3, 4), and they meet at the immediate
     * post-dominator 6 */
    const uint32_t pdom[8][2] = {{0, all}, {1, all}, {2, all}, {5, lo}, {3, hi}, {4, hi}, {6, all}, {7, all}};
    /* ITS: the pick alternates smallest pc and next pc after the last one
     * issued: 0, 1, 2; then {3 hi, 5 lo}: next after 2 is 3; smallest of
     * {4, 5} is 4 (bra.uni to 6); next after 4 among {5, 6} is 5; then
     * every lane is at 6 */
    const uint32_t its[8][2] = {{0, all}, {1, all}, {2, all}, {3, hi}, {4, hi}, {5, lo}, {6, all}, {7, all}};
    for (int mode = 0; mode < 2; mode++) {
        stepper s;
        stepper_open(&s, branch_text, "k", 32, mode == 1, NULL, 0);
        const uint32_t(*want)[2] = mode ? its : pdom;
        for (int i = 0; i < 8; i++) {
            sim_issue is;
            sim_step st;
            assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
            if (is.pc != want[i][0] || is.mask != want[i][1])
                fail_msg("%s issue %d: pc %u lanes 0x%08x; want pc %u lanes 0x%08x", mode ? "its" : "pdom", i,
                         is.pc, is.mask, want[i][0], want[i][1]);
        }
        sim_issue is;
        assert_int_equal(s.ops->next(&s.c, &s.c.warps[0], &s.g[0], &is), SIM_WARP_DONE);
        stepper_close(&s);
    }
}

static const char *const barrier_text = PROLOGUE
    ".visible .entry k()\n{\n"
    ".reg .b32 %r<2>;\n"
    "mov.u32 %r1, %tid.x;\n"
    "bar.sync 0;\n"
    "ret;\n}\n";

/* Of 64 threads (two warps), the first to reach bar.sync waits until the
 * second arrives; then both go on after the barrier. */
static void test_barrier_holds_first_warp(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        stepper s;
        stepper_open(&s, barrier_text, "k", 64, mode == 1, NULL, 0);
        assert_int_equal(run(&s, 0), SIM_WARP_WAITING);
        assert_int_equal(s.ops->waiting(&s.c, &s.c.warps[0], 0), ~0u);
        assert_false(sim_barriers_release(&s.c, s.ops)); /* 32 of 64 arrived */
        sim_issue is;
        assert_int_equal(s.ops->next(&s.c, &s.c.warps[0], &s.g[0], &is), SIM_WARP_WAITING);
        assert_int_equal(run(&s, 1), SIM_WARP_WAITING);
        assert_true(sim_barriers_release(&s.c, s.ops));
        assert_int_equal(s.ops->waiting(&s.c, &s.c.warps[0], 0), 0);
        for (uint32_t w = 0; w < 2; w++) {
            assert_int_equal(s.ops->next(&s.c, &s.c.warps[w], &s.g[w], &is), SIM_WARP_READY);
            assert_int_equal(is.pc, 2); /* the ret after the barrier */
            assert_int_equal(run(&s, w), SIM_WARP_DONE);
        }
        stepper_close(&s);
    }
}

/* The analyzer's annotations of branch_text with the if/else's
 * reconvergence point moved from 6 (JOIN) to 7 (ret): each path now runs
 * the add at 6 on its own, the taken one first. */
static void test_annotations_move_reconvergence(void **state)
{
    (void)state;
    const uint32_t lo = 0x0000ffff, hi = 0xffff0000, all = ~0u;
    const uint32_t want[9][2] = {{0, all}, {1, all}, {2, all}, {5, lo}, {6, lo}, {3, hi}, {4, hi}, {6, hi}, {7, all}};
    stepper s;
    stepper_open(&s, branch_text, "k", 32, false, NULL, 0);
    ptx_annotations a;
    ptx_analyze_module(s.e.m, &(ptx_analysis_options){0}, &a);
    assert_int_equal(a.nkernels, 1);
    ptx_kernel_notes *kn = &a.kernels[0];
    uint32_t moved = 0;
    for (uint32_t b = 0; b < kn->nbranches; b++)
        if (kn->branches[b].pc == 2) {
            assert_int_equal(kn->branches[b].ipdom_pc, 6); /* the analyzer's: JOIN */
            kn->branches[b].ipdom_pc = 7;
            moved++;
        }
    assert_int_equal(moved, 1);
    assert_int_equal(sim_program_use_annotations(s.e.p, &a, s.e.err, sizeof s.e.err), 0);
    for (int i = 0; i < 9; i++) {
        sim_issue is;
        sim_step st;
        assert_int_equal(step(&s, 0, &is, &st), SIM_WARP_READY);
        if (is.pc != want[i][0] || is.mask != want[i][1])
            fail_msg("issue %d: pc %u lanes 0x%08x; want pc %u lanes 0x%08x", i, is.pc, is.mask, want[i][0],
                     want[i][1]);
    }
    /* annotations that do not describe the module change nothing */
    kn->ninstrs++;
    assert_int_equal(sim_program_use_annotations(s.e.p, &a, s.e.err, sizeof s.e.err), -1);
    assert_non_null(strstr(s.e.err, "describe 9 instructions; the module's k has 8"));
    kn->ninstrs--;
    kn->branches[0].pc = 1;
    assert_int_equal(sim_program_use_annotations(s.e.p, &a, s.e.err, sizeof s.e.err), -1);
    assert_non_null(strstr(s.e.err, "instruction 1"));
    assert_non_null(strstr(s.e.err, "is not a branch"));
    ptx_annotations_free(&a);
    stepper_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_log),
        cmocka_unit_test(test_memory_log_by_lane),
        cmocka_unit_test(test_memory_log_ldmatrix),
        cmocka_unit_test(test_memory_log_cond_acc),
        cmocka_unit_test(test_clock_owned_by_caller),
        cmocka_unit_test(test_indirect_call_retry),
        cmocka_unit_test(test_issue_order),
        cmocka_unit_test(test_barrier_holds_first_warp),
        cmocka_unit_test(test_annotations_move_reconvergence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
