/* test_taint.c — P/D taint and branch classes (Rhu, PhD thesis, Sec. 4.3.2-
 * 4.3.3, Fig. 4.20), on the thesis's own examples and on small unit cases.
 *
 * Thesis examples: testdata/hand/rhu_fig4_20.ptx (Fig. 4.20 as PTX) and the
 * CUDA kernels of testdata/cuda/rhu_examples.cu compiled into
 * testdata/ptx/rhu_examples.sm_80.O3.ptx. A kernel's conditional branches
 * are taken in instruction order and each is identified by the instruction
 * that last defines its guard before it (e.g. "setp.ge"), so the test fails
 * loudly if a recompilation reorders or reshapes them. The mapping from the
 * thesis's source lines to those branches is written next to each table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/defuse.h"
#include "analysis/taint.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

#define HEADER ".version 8.0\n.target sm_80\n.address_size 64\n"

/* A parsed module with def/use and taint of one function. */
typedef struct fixture {
    ptx_module *m;
    const ptx_function *f;
    ptx_defuse du;
    ptx_taint_result tr;
} fixture;

/* Run def/use and taint on function `name` of an already loaded module. */
static void analyze_opt(fixture *fx, ptx_module *m, const char *name, bool cd, bool fi)
{
    fx->m = m;
    fx->f = ptx_test_function(m, name);
    ptx_defuse_build(m, fx->f, &fx->du);
    ptx_taint_options opt = {.control_dependence = cd, .flow_insensitive = fi};
    ptx_taint_analyze(m, fx->f, &fx->du, &opt, &fx->tr);
    assert_int_equal(fx->tr.ninstrs, fx->f->ninstrs);
    assert_int_equal(fx->tr.flow_insensitive, fi); /* testdata functions are small */
}

/* Flow-sensitive analysis, with or without control dependence. */
static void analyze(fixture *fx, ptx_module *m, const char *name, bool cd)
{
    analyze_opt(fx, m, name, cd, false);
}

/* Free the analyses (not the module). */
static void release(fixture *fx)
{
    ptx_taint_free(&fx->tr);
    ptx_defuse_free(&fx->du);
}

/* Whether instruction i is a conditional branch (bra with guard, brx.idx). */
static bool cond_branch(const ptx_module *m, const ptx_function *f, uint32_t i)
{
    const ptx_form *fm = ptx_instr_form(m, &f->instrs[i]);
    return fm->opcode == PTX_OP_BRX_IDX || (fm->opcode == PTX_OP_BRA && f->instrs[i].guard != PTX_NONE);
}

/* "opcode[.cmp]" of the last instruction before i writing register r. */
static void feeder(const fixture *fx, uint32_t i, uint32_t r, char *buf, size_t n)
{
    snprintf(buf, n, "?");
    for (uint32_t j = i; j-- > 0;) {
        for (uint32_t k = fx->du.wstart[j]; k < fx->du.wstart[j + 1]; k++)
            if (fx->du.writes[k] == r) {
                const ptx_form *fm = ptx_instr_form(fx->m, &fx->f->instrs[j]);
                uint16_t cmp = fm->mod[PTX_MODCAT_CMP];
                if (cmp != PTX_MOD_NONE)
                    snprintf(buf, n, "%s.%s", ptx_opcode_name(fm->opcode),
                             ptx_modifier_text((ptx_modifier)cmp));
                else
                    snprintf(buf, n, "%s", ptx_opcode_name(fm->opcode));
                return;
            }
    }
}

/* Expected conditional branch: guard feeder, class, CTA uniformity (-1: any). */
typedef struct want_branch {
    const char *feeder;
    ptx_branch_class cls;
    int cta_uniform;
} want_branch;

/* Check every conditional branch of the fixture's function against w[]. */
static void check_branches(const fixture *fx, const want_branch *w, size_t nw)
{
    size_t seen = 0;
    const char *fname = ptx_function_name(fx->m, fx->f);
    for (uint32_t i = 0; i < fx->f->ninstrs; i++) {
        if (!cond_branch(fx->m, fx->f, i))
            continue;
        if (seen >= nw)
            fail_msg("%s: more than %zu conditional branches", fname, nw);
        char fd[64];
        feeder(fx, i, fx->f->instrs[i].guard, fd, sizeof fd);
        if (strcmp(fd, w[seen].feeder) != 0)
            fail_msg("%s branch %zu (line %u): guard from %s, want %s", fname, seen,
                     fx->f->instrs[i].line, fd, w[seen].feeder);
        ptx_branch_class c = (ptx_branch_class)fx->tr.branch_class[i];
        if (c != w[seen].cls)
            fail_msg("%s branch %zu (line %u, %s): class %s, want %s", fname, seen,
                     fx->f->instrs[i].line, fd, ptx_branch_class_name(c),
                     ptx_branch_class_name(w[seen].cls));
        if (w[seen].cta_uniform >= 0 && fx->tr.cta_uniform[i] != (w[seen].cta_uniform != 0))
            fail_msg("%s branch %zu (line %u): cta_uniform %d, want %d", fname, seen,
                     fx->f->instrs[i].line, fx->tr.cta_uniform[i], w[seen].cta_uniform);
        seen++;
    }
    if (seen != nw)
        fail_msg("%s: %zu conditional branches, want %zu", fname, seen, nw);
}

/* Register id by name ("%r2"), for reg_taint checks. */
static uint32_t reg_id(const fixture *fx, const char *name)
{
    for (uint32_t r = 0; r < fx->f->nregs; r++) {
        const ptx_reg *g = &fx->f->regs[r];
        char buf[64];
        if (g->index == PTX_NONE)
            snprintf(buf, sizeof buf, "%s", ptx_str(fx->m, g->name));
        else
            snprintf(buf, sizeof buf, "%s%u", ptx_str(fx->m, g->name), g->index);
        if (strcmp(buf, name) == 0)
            return r;
    }
    fail_msg("no register %s", name);
    return PTX_NONE;
}

/* ---- Fig. 4.20 -------------------------------------------------------- */

/* Fig. 4.20: line 3 is a P-branch, line 8 a D-branch; %r3 (ld.param) and
 * %r4 (address) are P, %r5 (global load) is D. reg_taint of %r2 is P: it is
 * the join over the register's definitions (%tid.x on line 1, the immediate
 * of line 9); the clearing itself is checked by test_clear_by_immediate. */
static void test_fig4_20(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_load("hand/rhu_fig4_20.ptx");
    fixture fx;
    analyze(&fx, m, "rhu_fig4_20", false);
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_P, 0}, {"setp.gt", PTX_BRANCH_D, 0}};
    check_branches(&fx, w, 2);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r2")], PTX_TAINT_P);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r3")], PTX_TAINT_P);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r4")], PTX_TAINT_P);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r5")], PTX_TAINT_D);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%p1")], PTX_TAINT_P);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%p6")], PTX_TAINT_D);
    release(&fx);
    /* the same with control dependence: nothing changes for the branches */
    analyze(&fx, m, "rhu_fig4_20", true);
    check_branches(&fx, w, 2);
    release(&fx);
    ptx_module_free(m);
}

/* ---- Source-level examples (rhu_examples.cu) ------------------------- */

typedef struct kernel_case {
    const char *name;
    want_branch w[8];
    size_t nw;
} kernel_case;

/* Per kernel, the conditional branches of the -O3 PTX in order:
 *  fig3_7a_bfs: BR_B-E `tid<no_of_nodes && g_graph_mask[tid]` is split by
 *    nvcc into `tid >= no_of_nodes` (P) and `g_graph_mask[tid] == 0` (D);
 *    BR_C-D `!g_graph_visited[id]` (D).
 *  fig3_7b_lud: BR_B-C `threadIdx.x < BLOCK_SIZE` (P); the constant-bound
 *    loops are fully unrolled.
 *  fig4_4_backp: line 9 `tx == 0` (P); line 17 the loop-end branch
 *    (uniform: the counter starts at an immediate).
 *  fig4_11a_bfs: line 7 `!g_graph_visited[id]` (D).
 *  fig4_11b_sortnw: line 8 `(keyA > keyB) == dir` compiled to setp.ne of
 *    the comparison and ddd (D: P value combined with shared data).
 *  fig4_12a_bitonic: the inner loop's entry test `j > 0` (uniform), line 7
 *    `ixj > tid` as setp.le (P), line 8 `(tid & k) == 0` (P), the inner
 *    loop end (uniform), the outer loop end `k <= NUM` (uniform).
 *  fig4_12b_mandelbrot: line 6, both comparisons or'ed into one predicate (P).
 *  fig4_17_backp: line 9 `ty % power_two == 0` (P); the loop end (uniform). */
static const kernel_case kernels[] = {
    {"fig3_7a_bfs",
     {{"setp.ge", PTX_BRANCH_P, 0}, {"setp.eq", PTX_BRANCH_D, 0}, {"setp.ne", PTX_BRANCH_D, 0}},
     3},
    {"fig3_7b_lud", {{"setp.lt", PTX_BRANCH_P, 0}}, 1},
    {"fig4_4_backp", {{"setp.eq", PTX_BRANCH_P, 0}, {"setp.ne", PTX_BRANCH_UNIFORM, 1}}, 2},
    {"fig4_11a_bfs", {{"setp.ne", PTX_BRANCH_D, 0}}, 1},
    {"fig4_11b_sortnw", {{"setp.ne", PTX_BRANCH_D, 0}}, 1},
    {"fig4_12a_bitonic",
     {{"setp.eq", PTX_BRANCH_UNIFORM, 1},
      {"setp.le", PTX_BRANCH_P, 0},
      {"setp.eq", PTX_BRANCH_P, 0},
      {"setp.ne", PTX_BRANCH_UNIFORM, 1},
      {"setp.lt", PTX_BRANCH_UNIFORM, 1}},
     5},
    {"fig4_12b_mandelbrot", {{"or", PTX_BRANCH_P, 0}}, 1},
    {"fig4_17_backp", {{"setp.ne", PTX_BRANCH_P, 0}, {"setp.ne", PTX_BRANCH_UNIFORM, 1}}, 2},
};

/* Every kernel of rhu_examples.sm_80.O3.ptx, with and without control
 * dependence, flow-sensitive and flow-insensitive (the thesis's examples
 * have no values merged under divergent branches that feed later branches,
 * and nvcc's registers are nearly SSA, so the classes agree). */
static void test_thesis_examples(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_load("ptx/rhu_examples.sm_80.O3.ptx");
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++)
        for (int v = 0; v < 4; v++) {
            fixture fx;
            analyze_opt(&fx, m, kernels[k].name, v & 1, v & 2);
            check_branches(&fx, kernels[k].w, kernels[k].nw);
            release(&fx);
        }
    ptx_module_free(m);
}

/* ---- Unit cases -------------------------------------------------------- */

/* Analyze inline PTX (function "k") and check its branches. */
static void run_case(const char *text, const want_branch *w, size_t nw, bool cd)
{
    ptx_module *m = ptx_test_parse(text);
    fixture fx;
    analyze(&fx, m, "k", cd);
    check_branches(&fx, w, nw);
    release(&fx);
    ptx_module_free(m);
}

/* A branch on %ctaid.x: P by taint but uniform, and uniform over the CTA. */
static void test_ctaid_uniform(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
                    "mov.u32 %r1, %ctaid.x;\n"
                    "setp.eq.u32 %p1, %r1, 0;\n"
                    "@%p1 bra L;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_UNIFORM, 1}};
    run_case(t, w, 1, false);
    run_case(t, w, 1, true);
}

/* A branch on a loaded value indexed by %tid: D. */
static void test_loaded_value(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "mul.wide.u32 %rd2, %r1, 4;\n"
                    "add.s64 %rd3, %rd1, %rd2;\n"
                    "ld.global.u32 %r2, [%rd3];\n"
                    "setp.gt.s32 %p1, %r2, 0;\n"
                    "@%p1 bra L;\n"
                    "st.global.u32 [%rd3], %r1;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.gt", PTX_BRANCH_D, 0}};
    run_case(t, w, 1, false);
}

/* A load from a warp-uniform address (a parameter pointer) is D but cannot
 * diverge a warp; it may still differ between warps (not CTA-uniform). */
static void test_uniform_load(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "ld.global.u32 %r2, [%rd1];\n"
                    "setp.gt.s32 %p1, %r2, 0;\n"
                    "@%p1 bra L;\n"
                    "st.global.u32 [%rd1+4], %r2;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.gt", PTX_BRANCH_UNIFORM, 0}};
    run_case(t, w, 1, false);
}

/* A branch on %tid.x: P, not uniform, not CTA-uniform. */
static void test_tid_branch(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "and.b32 %r2, %r1, 1;\n"
                    "setp.ne.u32 %p1, %r2, 0;\n"
                    "@%p1 bra L;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.ne", PTX_BRANCH_P, 0}};
    run_case(t, w, 1, false);
}

/* A loop whose trip count is a kernel parameter: the loop branch is
 * uniform across the CTA (P taint, but no thread-varying source); the
 * counter itself only ever holds immediates and their sums (NONE). */
static void test_param_loop(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a, .param .u32 n) {\n"
                    ".reg .pred %p<2>; .reg .b32 %r<5>; .reg .b64 %rd<4>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "ld.param.u32 %r1, [n];\n"
                    "mov.u32 %r2, 0;\n"
                    "mov.u32 %r3, %tid.x;\n"
                    "LOOP:\n"
                    "st.global.u32 [%rd1], %r3;\n"
                    "add.s32 %r2, %r2, 1;\n"
                    "setp.lt.s32 %p1, %r2, %r1;\n"
                    "@%p1 bra LOOP;\n"
                    "ret;\n}\n";
    const want_branch w[] = {{"setp.lt", PTX_BRANCH_UNIFORM, 1}};
    run_case(t, w, 1, false);
    run_case(t, w, 1, true);
    ptx_module *m = ptx_test_parse(t);
    fixture fx;
    analyze(&fx, m, "k", false);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r1")], PTX_TAINT_P);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r2")], PTX_TAINT_NONE); /* counter */
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%p1")], PTX_TAINT_P);
    release(&fx);
    ptx_module_free(m);
}

/* A %tid value spilled to .local and reloaded keeps P (not D) and stays
 * thread-varying. */
static void test_local_spill(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".local .align 4 .b8 depot[8];\n"
                    ".reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "mov.u64 %rd2, depot;\n"
                    "st.local.u32 [%rd2], %r1;\n"
                    "ld.local.u32 %r2, [%rd2];\n"
                    "setp.eq.u32 %p1, %r2, 3;\n"
                    "@%p1 bra L;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "st.global.u32 [%rd1], %r2;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_P, 0}};
    run_case(t, w, 1, false);
    ptx_module *m = ptx_test_parse(t);
    fixture fx;
    analyze(&fx, m, "k", false);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r2")], PTX_TAINT_P);
    release(&fx);
    ptx_module_free(m);
}

/* Carry chain: add.cc of a loaded (D) low word feeds addc of two uniform
 * values; the high word is D and thread-varying through the carry flag. */
static void test_carry_chain(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a, .param .u32 n) {\n"
                    ".reg .pred %p<2>; .reg .b32 %r<8>; .reg .b64 %rd<4>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "ld.param.u32 %r6, [n];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "mul.wide.u32 %rd2, %r1, 4;\n"
                    "add.s64 %rd3, %rd1, %rd2;\n"
                    "ld.global.u32 %r2, [%rd3];\n"
                    "add.cc.u32 %r3, %r2, 1;\n"
                    "addc.u32 %r4, %r6, 0;\n"
                    "setp.eq.u32 %p1, %r4, 0;\n"
                    "@%p1 bra L;\n"
                    "st.global.u32 [%rd3], %r3;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_D, 0}};
    run_case(t, w, 1, false);
    ptx_module *m = ptx_test_parse(t);
    fixture fx;
    analyze(&fx, m, "k", false);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r4")], PTX_TAINT_D);
    assert_int_equal(fx.tr.reg_taint[PTX_DEFUSE_CC(fx.f)], PTX_TAINT_D);
    release(&fx);
    ptx_module_free(m);
}

/* setp.and combining a P predicate (from %tid) and a D value: D. */
static void test_setp_and(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "setp.lt.u32 %p1, %r1, 16;\n"
                    "ld.global.u32 %r2, [%rd1];\n"
                    "setp.ne.and.u32 %p2, %r2, 0, %p1;\n"
                    "@%p2 bra L;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.ne", PTX_BRANCH_D, 0}};
    run_case(t, w, 1, false);
}

/* selp picking between immediates under a %tid predicate: P, varying;
 * selp under a %ctaid predicate: uniform. */
static void test_selp(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<5>; .reg .b32 %r<6>; .reg .b64 %rd<2>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "mov.u32 %r4, %ctaid.x;\n"
                    "setp.lt.u32 %p1, %r1, 16;\n"
                    "selp.b32 %r2, 5, 7, %p1;\n"
                    "setp.eq.u32 %p2, %r2, 5;\n"
                    "@%p2 bra L1;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L1:\n"
                    "setp.lt.u32 %p3, %r4, 16;\n"
                    "selp.b32 %r3, 5, 7, %p3;\n"
                    "setp.eq.u32 %p4, %r3, 5;\n"
                    "@%p4 bra L2;\n"
                    "st.global.u32 [%rd1+4], %r1;\n"
                    "L2: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_P, 0}, {"setp.eq", PTX_BRANCH_UNIFORM, 1}};
    run_case(t, w, 2, false);
}

/* Taint cleared by an immediate (Fig. 4.20 line 9): the analysis is
 * flow-sensitive, so a branch on %r1 after `mov %r1, 100` is uniform while
 * the branch before it is P; reg_taint joins both definitions (P). */
static void test_clear_by_immediate(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "setp.eq.u32 %p1, %r1, 0;\n"
                    "@%p1 bra L1;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L1:\n"
                    "mov.u32 %r1, 100;\n"
                    "setp.gt.u32 %p2, %r1, 5;\n"
                    "@%p2 bra L2;\n"
                    "st.global.u32 [%rd1+4], %r1;\n"
                    "L2: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_P, 0}, {"setp.gt", PTX_BRANCH_UNIFORM, 1}};
    run_case(t, w, 2, false);
    run_case(t, w, 2, true);
    ptx_module *m = ptx_test_parse(t);
    fixture fx;
    analyze(&fx, m, "k", false);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%r1")], PTX_TAINT_P);
    assert_int_equal(fx.tr.reg_taint[reg_id(&fx, "%p2")], PTX_TAINT_NONE);
    release(&fx);
    /* flow-insensitive: %r1 is P everywhere, so the second branch is P too */
    analyze_opt(&fx, m, "k", false, true);
    const want_branch wfi[] = {{"setp.eq", PTX_BRANCH_P, 0}, {"setp.gt", PTX_BRANCH_P, 0}};
    check_branches(&fx, wfi, 2);
    release(&fx);
    ptx_module_free(m);
}

/* A guarded write under a %tid predicate makes an otherwise uniform value
 * thread-varying (old value survives in the other lanes). */
static void test_guarded_write(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "mov.u32 %r2, 1;\n"
                    "setp.eq.u32 %p1, %r1, 0;\n"
                    "@%p1 mov.u32 %r2, 2;\n"
                    "setp.eq.u32 %p2, %r2, 1;\n"
                    "@%p2 bra L;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_P, 0}};
    run_case(t, w, 1, false);
}

/* A value set to different immediates on the two sides of a %tid branch
 * (no thread-varying data flow): uniform without control dependence,
 * P (non-uniform) with it. */
static void test_control_dependence(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "setp.lt.u32 %p1, %r1, 16;\n"
                    "@%p1 bra THEN;\n"
                    "mov.u32 %r2, 1;\n"
                    "bra.uni JOIN;\n"
                    "THEN:\n"
                    "mov.u32 %r2, 2;\n"
                    "JOIN:\n"
                    "setp.eq.u32 %p2, %r2, 1;\n"
                    "@%p2 bra L;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L: ret;\n}\n";
    const want_branch plain[] = {{"setp.lt", PTX_BRANCH_P, 0}, {"setp.eq", PTX_BRANCH_UNIFORM, 1}};
    const want_branch cd[] = {{"setp.lt", PTX_BRANCH_P, 0}, {"setp.eq", PTX_BRANCH_P, 0}};
    run_case(t, plain, 2, false);
    run_case(t, cd, 2, true);
}

/* shfl.sync.idx from a constant lane is uniform; shfl.sync.down is not.
 * vote.sync.ballot is warp-uniform but not CTA-uniform. */
static void test_warp_ops(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<6>; .reg .b32 %r<8>; .reg .b64 %rd<2>;\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\n"
                    "setp.eq.u32 %p1, %r2, 0;\n"
                    "@%p1 bra L1;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L1:\n"
                    "shfl.sync.down.b32 %r3, %r1, 1, 31, -1;\n"
                    "setp.eq.u32 %p2, %r3, 0;\n"
                    "@%p2 bra L2;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L2:\n"
                    "setp.lt.u32 %p3, %r1, 5;\n"
                    "vote.sync.ballot.b32 %r4, %p3, -1;\n"
                    "setp.eq.u32 %p4, %r4, 0;\n"
                    "@%p4 bra L3;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L3: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_UNIFORM, 0},
                             {"setp.eq", PTX_BRANCH_P, 0},
                             {"setp.eq", PTX_BRANCH_UNIFORM, 0}};
    run_case(t, w, 3, false);
}

/* simtlab's extensions of PTX: cond_acc's count is the same in every lane
 * of the warp (a branch on it is uniform) though it comes from loaded
 * data; tree_traverse's result is uniform when its base and node size are
 * (an immediate base), and varies with a thread-varying base, with the
 * predicate's taint (D). */
static void test_simtlab_extensions(void **state)
{
    (void)state;
    const char *t = HEADER ".visible .entry k(.param .u64 a) {\n"
                    ".reg .pred %p<6>; .reg .b32 %r<10>; .reg .b64 %rd<4>;\n"
                    ".shared .align 4 .b32 buf[64];\n"
                    "ld.param.u64 %rd1, [a];\n"
                    "mov.u32 %r1, %tid.x;\n"
                    "mul.wide.u32 %rd2, %r1, 4;\n"
                    "add.s64 %rd3, %rd1, %rd2;\n"
                    "ld.global.u32 %r2, [%rd3];\n"
                    "setp.lt.u32 %p1, %r2, 7;\n"
                    "mov.u32 %r3, buf;\n"
                    "simtlab.cond_acc.shared.b32 %r4, [%r3], %p1, %r1;\n"
                    "setp.eq.u32 %p2, %r4, 0;\n"
                    "@%p2 bra L1;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L1:\n"
                    "simtlab.tree_traverse.u32 %r5, 32, %p1, 32;\n"
                    "setp.ne.u32 %p3, %r5, 64;\n"
                    "@%p3 bra L2;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L2:\n"
                    "simtlab.tree_traverse.u32 %r6, %r1, %p1, 32;\n"
                    "setp.gt.u32 %p4, %r6, 64;\n"
                    "@%p4 bra L3;\n"
                    "st.global.u32 [%rd1], %r1;\n"
                    "L3: ret;\n}\n";
    const want_branch w[] = {{"setp.eq", PTX_BRANCH_UNIFORM, 0},
                             {"setp.ne", PTX_BRANCH_UNIFORM, 0},
                             {"setp.gt", PTX_BRANCH_D, 0}};
    ptx_module *m = ptx_test_parse_ext(t);
    fixture fx;
    analyze(&fx, m, "k", false);
    check_branches(&fx, w, 3);
    release(&fx);
    ptx_module_free(m);
}

/* Names of the classes. */
static void test_names(void **state)
{
    (void)state;
    assert_string_equal(ptx_branch_class_name(PTX_BRANCH_UNIFORM), "uniform");
    assert_string_equal(ptx_branch_class_name(PTX_BRANCH_P), "P");
    assert_string_equal(ptx_branch_class_name(PTX_BRANCH_D), "D");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fig4_20),
        cmocka_unit_test(test_thesis_examples),
        cmocka_unit_test(test_ctaid_uniform),
        cmocka_unit_test(test_loaded_value),
        cmocka_unit_test(test_uniform_load),
        cmocka_unit_test(test_tid_branch),
        cmocka_unit_test(test_param_loop),
        cmocka_unit_test(test_local_spill),
        cmocka_unit_test(test_carry_chain),
        cmocka_unit_test(test_setp_and),
        cmocka_unit_test(test_selp),
        cmocka_unit_test(test_clear_by_immediate),
        cmocka_unit_test(test_guarded_write),
        cmocka_unit_test(test_control_dependence),
        cmocka_unit_test(test_warp_ops),
        cmocka_unit_test(test_simtlab_extensions),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
