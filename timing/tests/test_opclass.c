/* test_opclass.c — instruction classes (timing/opclass.h) of a small PTX
 * module (accepted by ptxas -arch=sm_90) under a configuration set here,
 * checked against GPGPU-Sim's rules (ptx_instruction::set_opcode_and_latency
 * in cuda-sim/ptx_ir.cc and the warp scheduler's unit choice in shader.cc,
 * scheduler_unit::cycle) as opclass.h states them; each assertion names
 * the rule. Latencies are chosen all different so that a value read from
 * the wrong table or class cannot pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/defuse.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"
#include "timing/opclass.h"

/* int: ADD 11/1, MAX 12/2, MUL 13/3, MAD 14/4, DIV 15/5, SHFL 16/6
 * fp:  ADD 21/7, MAX 22/8, MUL 23/9, MAD 24/10, DIV 25/11
 * dp:  ADD 31/12, MAX 32/13, MUL 33/14, MAD 34/15, DIV 35/16
 * sfu 41/17, tensor 51/18; one unit of every kind. */
static tm_config test_config(void)
{
    tm_config c;
    memset(&c, 0, sizeof c);
    for (unsigned k = 0; k < TM_LAT_CLASSES; k++) {
        c.lat_int.latency[k] = 11 + k;
        c.lat_int.initiation[k] = 1 + k;
        c.lat_fp.latency[k] = 21 + k;
        c.lat_fp.initiation[k] = 7 + k;
        c.lat_dp.latency[k] = 31 + k;
        c.lat_dp.initiation[k] = 12 + k;
    }
    c.lat_sfu = 41;
    c.init_sfu = 17;
    c.lat_tensor = 51;
    c.init_tensor = 18;
    for (unsigned k = 0; k < TM_UNIT_KINDS; k++)
        c.n_units[k] = 1;
    return c;
}

/* The module; the comment after each instruction is its pc. */
static const char *const kernel_ptx =
    ".version 9.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry k(.param .u64 k_p)\n"
    "{\n"
    ".reg .pred %p<3>;\n"
    ".reg .b32 %r<10>;\n"
    ".reg .b64 %rd<6>;\n"
    ".reg .f32 %f<8>;\n"
    ".reg .f64 %fd<4>;\n"
    ".reg .b16 %h<4>;\n"
    "ld.param.u64 %rd1, [k_p];\n" /* 0 */
    "cvta.to.global.u64 %rd2, %rd1;\n" /* 1 */
    "mov.u32 %r1, %tid.x;\n" /* 2 */
    "add.s32 %r2, %r1, 1;\n" /* 3 */
    "add.f32 %f1, %f2, %f3;\n" /* 4 */
    "add.f64 %fd1, %fd2, %fd3;\n" /* 5 */
    "mul.lo.s32 %r3, %r2, %r1;\n" /* 6 */
    "mad.lo.s32 %r4, %r3, %r2, %r1;\n" /* 7 */
    "fma.rn.f32 %f4, %f1, %f2, %f3;\n" /* 8 */
    "mul24.lo.s32 %r5, %r1, %r2;\n" /* 9 */
    "div.s32 %r6, %r5, %r4;\n" /* 10 */
    "div.rn.f32 %f5, %f4, %f1;\n" /* 11 */
    "sqrt.rn.f32 %f6, %f5;\n" /* 12 */
    "max.f64 %fd2, %fd1, %fd3;\n" /* 13 */
    "shfl.sync.bfly.b32 %r7, %r6, 1, 31, -1;\n" /* 14 */
    "setp.lt.s32 %p1, %r7, %r2;\n" /* 15 */
    "@%p1 st.global.u32 [%rd2+4], %r7;\n" /* 16 */
    "ld.shared.u32 %r8, [%rd3];\n" /* 17 */
    "atom.global.add.u32 %r9, [%rd2], 1;\n" /* 18 */
    "add.f16 %h1, %h2, %h3;\n" /* 19 */
    "bar.sync 0;\n" /* 20 */
    "add.cc.u32 %r1, %r2, %r3;\n" /* 21 */
    "addc.u32 %r2, %r3, %r4;\n" /* 22 */
    "@%p2 mov.u32 %r9, %r8;\n" /* 23 */
    "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%r0, %r1}, {%r2}, {%f4, %f5, %f6, %f7};\n" /* 24 */
    "tanh.approx.f32 %f7, %f6;\n" /* 25 */
    "rem.u32 %r0, %r1, %r2;\n" /* 26 */
    "ld.global.nc.f32 %f0, [%rd2];\n" /* 27 */
    "ld.u32 %r3, [%rd4];\n" /* 28 */
    "@!%p1 bra L1;\n" /* 29 */
    "L1:\n"
    "exit;\n" /* 30 */
    "}\n"
    ;

typedef struct fixture {
    ptx_module *m;
    const ptx_function *f;
} fixture;

/* Parse the module (failing the test on a parse error). */
static int setup(void **state)
{
    static fixture fx;
    ptx_diags d = {0};
    fx.m = ptx_parse_string(kernel_ptx, strlen(kernel_ptx), "opclass.ptx", &d);
    if (!fx.m)
        ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    if (!fx.m)
        return -1;
    fx.f = &fx.m->functions[fx.m->nfunctions - 1];
    *state = &fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    ptx_module_free(fx->m);
    return 0;
}

/* The register id of %<prefix><index> of the kernel. */
static uint32_t reg(const fixture *fx, const char *prefix, uint32_t index)
{
    return ptx_test_reg(fx->m, fx->f, prefix, index);
}

/* Classify the kernel under cfg, failing on an error. */
static tm_opclass_fn classify(const fixture *fx, const tm_config *cfg)
{
    tm_opclass_fn fn;
    char err[256] = "";
    if (!tm_opclass_function(fx->m, fx->f, cfg, &fn, err, sizeof err))
        fail_msg("tm_opclass_function: %s", err);
    assert_int_equal(fn.ninstrs, 31);
    return fn;
}

/* Expect unit, latency class, latency and initiation of pc. */
static void expect_timing(const tm_opclass_fn *fn, uint32_t pc, tm_unit unit, tm_latclass lc,
                          uint32_t lat, uint32_t init)
{
    const tm_inst_class *ic = &fn->ic[pc];
    if (ic->unit != unit || ic->lat_class != lc || ic->latency != lat || ic->initiation != init)
        fail_msg("pc %u: got %s %s %u/%u, expected %s %s %u/%u", pc, tm_opclass_unit_name(ic->unit),
                 tm_opclass_latclass_name(ic->lat_class), ic->latency, ic->initiation,
                 tm_opclass_unit_name(unit), tm_opclass_latclass_name(lc), lat, init);
}

/* Units and latencies with INT units present. */
static void test_units_and_latencies(void **state)
{
    fixture *fx = *state;
    tm_config cfg = test_config();
    tm_opclass_fn fn = classify(fx, &cfg);
    /* ld/st/atom: LOAD_OP/STORE_OP -> the LD/ST unit; default latency 1/1 */
    expect_timing(&fn, 0, TM_UNIT_MEM, TM_LC_ONE, 1, 1);
    /* cvta, mov, setp: default ALU_OP, latency 1; non-SP_OP goes to INT when INT units exist */
    expect_timing(&fn, 1, TM_UNIT_INT, TM_LC_ONE, 1, 1);
    expect_timing(&fn, 2, TM_UNIT_INT, TM_LC_ONE, 1, 1);
    expect_timing(&fn, 15, TM_UNIT_INT, TM_LC_ONE, 1, 1);
    /* add: int_latency[0] (s32 -> INTP_OP), fp_latency[0] (f32 -> SP_OP), dp_latency[0] (f64 -> DP_OP) */
    expect_timing(&fn, 3, TM_UNIT_INT, TM_LC_ADD, 11, 1);
    expect_timing(&fn, 4, TM_UNIT_SP, TM_LC_ADD, 21, 7);
    expect_timing(&fn, 5, TM_UNIT_DP, TM_LC_ADD, 31, 12);
    /* mul: int_latency[2]; mad: int_latency[3]; fma.f32: fp_latency[3] (the MAD group) */
    expect_timing(&fn, 6, TM_UNIT_INT, TM_LC_MUL, 13, 3);
    expect_timing(&fn, 7, TM_UNIT_INT, TM_LC_MAD, 14, 4);
    expect_timing(&fn, 8, TM_UNIT_SP, TM_LC_MAD, 24, 10);
    /* mul24: int_latency[2] + 1 and int_init[2] + 1 */
    expect_timing(&fn, 9, TM_UNIT_INT, TM_LC_MUL, 14, 4);
    /* div/rem: SFU_OP for every type; int_latency[4] for integers, fp_latency[4] for f32 */
    expect_timing(&fn, 10, TM_UNIT_SFU, TM_LC_DIV, 15, 5);
    expect_timing(&fn, 11, TM_UNIT_SFU, TM_LC_DIV, 25, 11);
    expect_timing(&fn, 26, TM_UNIT_SFU, TM_LC_DIV, 15, 5);
    /* sqrt: sfu_latency, SFU_OP */
    expect_timing(&fn, 12, TM_UNIT_SFU, TM_LC_SFU, 41, 17);
    /* max.f64: dp_latency[1] */
    expect_timing(&fn, 13, TM_UNIT_DP, TM_LC_MAX, 32, 13);
    /* shfl: int_latency[5], op stays ALU_OP -> INT */
    expect_timing(&fn, 14, TM_UNIT_INT, TM_LC_SHFL, 16, 6);
    /* add.f16: simtlab's documented difference: fp table on SP (GPGPU-Sim: int default) */
    expect_timing(&fn, 19, TM_UNIT_SP, TM_LC_ADD, 21, 7);
    /* bar, bra, exit: BARRIER_OP/BRANCH_OP/EXIT, latency 1, non-SP_OP -> INT */
    expect_timing(&fn, 20, TM_UNIT_INT, TM_LC_ONE, 1, 1);
    expect_timing(&fn, 29, TM_UNIT_INT, TM_LC_ONE, 1, 1);
    expect_timing(&fn, 30, TM_UNIT_INT, TM_LC_ONE, 1, 1);
    /* add.cc / addc: the ADD group (ADDC_OP) on integers */
    expect_timing(&fn, 21, TM_UNIT_INT, TM_LC_ADD, 11, 1);
    expect_timing(&fn, 22, TM_UNIT_INT, TM_LC_ADD, 11, 1);
    /* mma: TENSOR_CORE_OP, tensor_latency (simtlab: mma.sync as wmma.mma) */
    expect_timing(&fn, 24, TM_UNIT_TENSOR, TM_LC_TENSOR, 51, 18);
    /* tanh: an SFU function (simtlab's rule for an opcode GPGPU-Sim lacks) */
    expect_timing(&fn, 25, TM_UNIT_SFU, TM_LC_SFU, 41, 17);
    assert_int_equal(fn.max_latency, 51);
    tm_opclass_fn_free(&fn);
}

/* Memory spaces and the flags the core needs. */
static void test_flags_and_spaces(void **state)
{
    fixture *fx = *state;
    tm_config cfg = test_config();
    tm_opclass_fn fn = classify(fx, &cfg);
    const tm_inst_class *ic = fn.ic;
    /* ld.param: a load from param space, a long operation (GPGPU-Sim's longopregs list) */
    assert_int_equal(ic[0].space, TM_MEM_PARAM);
    assert_true(ic[0].flags & TM_IC_LOAD);
    assert_true(ic[0].flags & TM_IC_LONGOP);
    assert_true(ic[0].flags & TM_IC_WRITES_REG);
    /* guarded st.global: a store, no register written, not a long op */
    assert_int_equal(ic[16].space, TM_MEM_GLOBAL);
    assert_int_equal(ic[16].flags & (TM_IC_STORE | TM_IC_LOAD | TM_IC_LONGOP | TM_IC_WRITES_REG),
                     TM_IC_STORE);
    assert_true(ic[16].flags & TM_IC_GUARDED);
    /* ld.shared: a load, but shared memory is not a long operation */
    assert_int_equal(ic[17].space, TM_MEM_SHARED);
    assert_true(ic[17].flags & TM_IC_LOAD);
    assert_false(ic[17].flags & TM_IC_LONGOP);
    /* atom.global: atomic, long op (GPGPU-Sim: ATOM_OP is a LOAD_OP) */
    assert_int_equal(ic[18].unit, TM_UNIT_MEM);
    assert_true(ic[18].flags & TM_IC_ATOMIC);
    assert_true(ic[18].flags & TM_IC_LONGOP);
    /* ld.global.nc: global load; ld without a space: generic */
    assert_int_equal(ic[27].space, TM_MEM_GLOBAL);
    assert_int_equal(ic[28].space, TM_MEM_GENERIC);
    assert_true(ic[28].flags & TM_IC_LONGOP);
    /* control */
    assert_int_equal(ic[20].flags & TM_IC_BARRIER, TM_IC_BARRIER);
    assert_int_equal(ic[29].flags & (TM_IC_BRANCH | TM_IC_GUARDED), TM_IC_BRANCH | TM_IC_GUARDED);
    assert_int_equal(ic[30].flags & TM_IC_EXIT, TM_IC_EXIT);
    /* an ALU instruction is no memory access */
    assert_int_equal(ic[3].space, TM_MEM_NONE);
    assert_int_equal(ic[3].flags & (TM_IC_LOAD | TM_IC_STORE | TM_IC_ATOMIC), 0);
    for (uint32_t pc = 0; pc < fn.ninstrs; pc++)
        assert_false(ic[pc].flags & TM_IC_DEFAULT_RULE);
    tm_opclass_fn_free(&fn);
}

/* Expect list[0..n) to be exactly want[0..nwant) in order. */
static void expect_regs(const uint32_t *list, uint32_t n, const uint32_t *want, uint32_t nwant)
{
    assert_int_equal(n, nwant);
    for (uint32_t k = 0; k < n; k++)
        assert_int_equal(list[k], want[k]);
}

/* Sources, destinations and bank reads of chosen instructions (register
 * roles from the PTX ISA: first operand written, the rest read). */
static void test_registers(void **state)
{
    fixture *fx = *state;
    tm_config cfg = test_config();
    tm_opclass_fn fn = classify(fx, &cfg);
    const tm_inst_class *ic = fn.ic;
    uint32_t cc = fx->f->nregs; /* defuse's carry-flag pseudo-register */
    assert_int_equal(fn.nregs, fx->f->nregs + 1);
    /* pc 7, mad.lo.s32 %r4, %r3, %r2, %r1 */
    uint32_t mad_src[] = {reg(fx, "%r", 3), reg(fx, "%r", 2), reg(fx, "%r", 1)};
    uint32_t mad_dst[] = {reg(fx, "%r", 4)};
    expect_regs(ic[7].src, ic[7].nsrc, mad_src, 3);
    expect_regs(ic[7].read, ic[7].nread, mad_src, 3);
    expect_regs(ic[7].dst, ic[7].ndst, mad_dst, 1);
    assert_int_equal(ic[7].guard, TM_NO_REG);
    /* pc 16, @%p1 st.global.u32 [%rd2+4], %r7: the guard is a source for the
     * scoreboard but not a bank read; the address base is read */
    uint32_t st_src[] = {reg(fx, "%p", 1), reg(fx, "%rd", 2), reg(fx, "%r", 7)};
    expect_regs(ic[16].src, ic[16].nsrc, st_src, 3);
    expect_regs(ic[16].read, ic[16].nread, st_src + 1, 2);
    assert_int_equal(ic[16].ndst, 0);
    assert_int_equal(ic[16].guard, reg(fx, "%p", 1));
    /* pc 23, @%p2 mov.u32 %r9, %r8: the old %r9 is not read from a bank */
    uint32_t mov_src[] = {reg(fx, "%p", 2), reg(fx, "%r", 8)};
    uint32_t mov_dst[] = {reg(fx, "%r", 9)};
    expect_regs(ic[23].src, ic[23].nsrc, mov_src, 2);
    expect_regs(ic[23].read, ic[23].nread, mov_src + 1, 1);
    expect_regs(ic[23].dst, ic[23].ndst, mov_dst, 1);
    /* pc 21, add.cc.u32 %r1, %r2, %r3 writes %r1 and the carry flag */
    uint32_t addcc_dst[] = {reg(fx, "%r", 1), cc};
    expect_regs(ic[21].dst, ic[21].ndst, addcc_dst, 2);
    /* pc 22, addc.u32 %r2, %r3, %r4 reads the carry flag (a source, not a bank read) */
    uint32_t addc_src[] = {reg(fx, "%r", 3), reg(fx, "%r", 4), cc};
    expect_regs(ic[22].src, ic[22].nsrc, addc_src, 3);
    expect_regs(ic[22].read, ic[22].nread, addc_src, 2);
    /* pc 15, setp writes the predicate %p1 */
    uint32_t setp_dst[] = {reg(fx, "%p", 1)};
    expect_regs(ic[15].dst, ic[15].ndst, setp_dst, 1);
    /* pc 24, mma: 4 f32 results, 2 + 1 + 4 registers read */
    assert_int_equal(ic[24].ndst, 4);
    assert_int_equal(ic[24].nread, 7);
    assert_int_equal(fn.max_reads, 7);
    /* pc 20, bar.sync 0 touches no register */
    assert_int_equal(ic[20].nsrc + ic[20].ndst, 0);
    tm_opclass_fn_free(&fn);
}

/* The configuration's fallbacks: no INT units -> SP; no DP units -> SFU
 * (GPGPU-Sim: "If the DP units = 0 (like in Fermi archi), then execute DP
 * inst on SFU unit"); no tensor units -> SFU (simtlab's choice). */
static void test_unit_fallbacks(void **state)
{
    fixture *fx = *state;
    tm_config cfg = test_config();
    cfg.n_units[TM_UNIT_INT] = 0;
    cfg.n_units[TM_UNIT_DP] = 0;
    cfg.n_units[TM_UNIT_TENSOR] = 0;
    tm_opclass_fn fn = classify(fx, &cfg);
    expect_timing(&fn, 3, TM_UNIT_SP, TM_LC_ADD, 11, 1);   /* int add: int table, SP unit */
    expect_timing(&fn, 1, TM_UNIT_SP, TM_LC_ONE, 1, 1);    /* cvta */
    expect_timing(&fn, 14, TM_UNIT_SP, TM_LC_SHFL, 16, 6); /* shfl */
    expect_timing(&fn, 5, TM_UNIT_SFU, TM_LC_ADD, 31, 12); /* add.f64: dp table, SFU unit */
    expect_timing(&fn, 24, TM_UNIT_SFU, TM_LC_TENSOR, 51, 18);
    expect_timing(&fn, 4, TM_UNIT_SP, TM_LC_ADD, 21, 7);   /* unchanged */
    tm_opclass_fn_free(&fn);
}

/* A configuration without SFU units cannot run sqrt: a clear error naming
 * the PTX line, no class table. */
static void test_missing_unit_is_an_error(void **state)
{
    fixture *fx = *state;
    tm_config cfg = test_config();
    cfg.n_units[TM_UNIT_SFU] = 0;
    tm_opclass_fn fn;
    char err[256] = "";
    assert_false(tm_opclass_function(fx->m, fx->f, &cfg, &fn, err, sizeof err));
    assert_non_null(strstr(err, "SFU"));
    assert_non_null(strstr(err, "line 23")); /* div.s32 (pc 10), the first SFU user, is line 23 of the text */
    assert_null(fn.ic);
    cfg = test_config();
    cfg.lat_fp.latency[TM_LAT_ADD] = 0; /* add.f32 would take no time */
    assert_false(tm_opclass_function(fx->m, fx->f, &cfg, &fn, err, sizeof err));
    assert_non_null(strstr(err, "line 17")); /* add.f32, pc 4 */
}

/* Every opcode simtlab knows has a rule of its own. */
static void test_every_opcode_classified(void **state)
{
    (void)state;
    for (unsigned op = PTX_OP_INVALID + 1; op < PTX_OP_COUNT; op++)
        if (!tm_opclass_opcode_known((ptx_opcode)op))
            fail_msg("opcode %s has no class rule", ptx_opcode_name((ptx_opcode)op));
    assert_false(tm_opclass_opcode_known(PTX_OP_INVALID));
    assert_false(tm_opclass_opcode_known(PTX_OP_COUNT));
}

/* What every class must satisfy whatever the instruction: a rule of its
 * own, non-zero timing, memory operations on the MEM unit with latency
 * class ONE, register numbers below nregs, bank reads inside the sources,
 * the guard first among the sources. */
static void check_classes(const ptx_module *m, const ptx_function *f, const tm_opclass_fn *fn,
                          const char *name)
{
    for (uint32_t pc = 0; pc < fn->ninstrs; pc++) {
        const tm_inst_class *ic = &fn->ic[pc];
        const char *op = ptx_opcode_name((ptx_opcode)m->forms[f->instrs[pc].form].opcode);
        if (ic->flags & TM_IC_DEFAULT_RULE)
            fail_msg("%s pc %u (%s): no rule", name, pc, op);
        if (ic->latency < 1 || ic->initiation < 1 || ic->unit >= TM_UNIT_KINDS)
            fail_msg("%s pc %u (%s): bad timing", name, pc, op);
        bool mem = ic->flags & (TM_IC_LOAD | TM_IC_STORE | TM_IC_ATOMIC | TM_IC_MEMBAR);
        if (mem && (ic->unit != TM_UNIT_MEM || ic->lat_class != TM_LC_ONE))
            fail_msg("%s pc %u (%s): a memory operation off the MEM unit", name, pc, op);
        for (uint32_t k = 0; k < ic->nsrc; k++)
            assert_true(ic->src[k] < fn->nregs);
        for (uint32_t k = 0; k < ic->ndst; k++)
            assert_true(ic->dst[k] < fn->nregs);
        assert_true(ic->nread <= ic->nsrc);
        assert_true(ic->read >= ic->src && ic->read + ic->nread <= ic->src + ic->nsrc);
        if (ic->guard != TM_NO_REG)
            assert_int_equal(ic->src[0], ic->guard);
        assert_int_equal(!!(ic->flags & TM_IC_WRITES_REG), ic->ndst > 0);
    }
}

/* Every instruction form of testdata/isa/forms.txt (each form of the PTX
 * ISA 9.0 reference), in one kernel, gets a class that passes
 * check_classes; every opcode of ir/opcodes.def occurs there (simtlab's
 * own, ir/ext_opcodes.def, are not PTX: test_simtlab_extensions). */
static void test_every_isa_form(void **state)
{
    (void)state;
    char path[4096], line[1024];
    ptx_test_path(path, sizeof path, "isa/forms.txt");
    FILE *in = fopen(path, "r");
    if (!in)
        fail_msg("cannot open %s", path);
    size_t cap = 1 << 20, len = strlen(PTX_TEST_ISA_PRELUDE);
    char *text = malloc(cap);
    assert_non_null(text);
    memcpy(text, PTX_TEST_ISA_PRELUDE, len);
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        size_t k = strlen(line);
        while (len + k + 16 >= cap)
            assert_non_null(text = realloc(text, cap *= 2));
        memcpy(text + len, line, k);
        len += k;
    }
    fclose(in);
    snprintf(text + len, cap - len, " ret;\n}\n");
    ptx_module *m = ptx_test_parse(text);
    free(text);
    const ptx_function *f = NULL;
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (!strcmp(ptx_function_name(m, &m->functions[i]), "k"))
            f = &m->functions[i];
    assert_non_null(f);
    tm_config cfg = test_config();
    tm_opclass_fn fn;
    char err[256] = "";
    if (!tm_opclass_function(m, f, &cfg, &fn, err, sizeof err))
        fail_msg("%s", err);
    check_classes(m, f, &fn, "forms.txt");
    bool seen[PTX_OP_COUNT] = {false};
    for (uint32_t pc = 0; pc < f->ninstrs; pc++)
        seen[m->forms[f->instrs[pc].form].opcode] = true;
    for (unsigned op = PTX_OP_INVALID + 1; op < PTX_OP_FIRST_EXTENSION; op++)
        if (!seen[op])
            fail_msg("forms.txt has no %s", ptx_opcode_name((ptx_opcode)op));
    tm_opclass_fn_free(&fn);
    ptx_module_free(m);
}

/* Classify every function with a body of one module (ptx_test_each_file). */
static void classify_module(const ptx_module *m, const char *name, void *ctx)
{
    const tm_config *cfg = ctx;
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!(f->flags & PTX_FUNCF_HAS_BODY))
            continue;
        tm_opclass_fn fn;
        char err[256] = "";
        if (!tm_opclass_function(m, f, cfg, &fn, err, sizeof err))
            fail_msg("%s: %s", name, err);
        check_classes(m, f, &fn, name);
        tm_opclass_fn_free(&fn);
    }
}

/* simtlab's extensions of PTX (opclass.h): cond_acc is a store on the MEM
 * unit in its form's space (generic without one), tree_traverse the
 * default one-cycle INT instruction, and a load with .rowhint carries
 * TM_IC_ROW_HINT (the same load without it does not). */
static void test_simtlab_extensions(void **state)
{
    (void)state;
    static const char text[] =
        PTX_TEST_HEADER
        ".visible .entry e(.param .u64 e_p)\n{\n"
        ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
        "simtlab.cond_acc.shared.b32 %r1, [%r2], %p1, %r3;\n"     /* 0 */
        "simtlab.cond_acc.global.b64 %r1, [%rd1], %p1, %rd2;\n"   /* 1 */
        "simtlab.cond_acc.b8 %r1, [%rd1], %p1, %r3;\n"            /* 2 */
        "simtlab.tree_traverse.u32 %r4, %r5, %p1, 32;\n"          /* 3 */
        "ld.global.rowhint.u32 %r6, [%rd1];\n"                    /* 4 */
        "ld.global.u32 %r7, [%rd1];\n"                            /* 5 */
        "ld.rowhint.u32 %r7, [%rd1];\n"                           /* 6 */
        "ret;\n}\n";
    ptx_parse_options opts = {.extensions = PTX_EXT_SIMTLAB};
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string_opts(text, strlen(text), "ext.ptx", &opts, &d);
    ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    assert_non_null(m);
    const ptx_function *f = &m->functions[0];
    tm_config cfg = test_config();
    tm_opclass_fn fn;
    char err[256] = "";
    if (!tm_opclass_function(m, f, &cfg, &fn, err, sizeof err))
        fail_msg("%s", err);
    check_classes(m, f, &fn, "ext.ptx");
    static const uint8_t spaces[3] = {TM_MEM_SHARED, TM_MEM_GLOBAL, TM_MEM_GENERIC};
    for (uint32_t pc = 0; pc < 3; pc++) {
        const tm_inst_class *ic = &fn.ic[pc];
        assert_int_equal(ic->unit, TM_UNIT_MEM);
        assert_int_equal(ic->space, spaces[pc]);
        assert_int_equal(ic->flags & (TM_IC_LOAD | TM_IC_STORE | TM_IC_ATOMIC | TM_IC_LONGOP),
                         TM_IC_STORE);
        assert_true(ic->flags & TM_IC_WRITES_REG); /* d, the count */
    }
    /* reads: the base register, p and src (operand order); writes: d */
    const uint32_t *r = fn.ic[0].src;
    assert_int_equal(fn.ic[0].nsrc, 3);
    assert_int_equal(r[0], ptx_test_reg(m, f, "%r", 2));
    assert_int_equal(r[1], ptx_test_reg(m, f, "%p", 1));
    assert_int_equal(r[2], ptx_test_reg(m, f, "%r", 3));
    assert_int_equal(fn.ic[0].ndst, 1);
    assert_int_equal(fn.ic[0].dst[0], ptx_test_reg(m, f, "%r", 1));
    expect_timing(&fn, 3, TM_UNIT_INT, TM_LC_ONE, 1, 1);
    assert_int_equal(fn.ic[3].nsrc, 2); /* %r5, %p1 (32 is an immediate) */
    assert_int_equal(fn.ic[3].dst[0], ptx_test_reg(m, f, "%r", 4));
    assert_true(fn.ic[4].flags & TM_IC_ROW_HINT);
    assert_true(fn.ic[4].flags & TM_IC_LOAD);
    assert_false(fn.ic[5].flags & TM_IC_ROW_HINT);
    assert_true(fn.ic[6].flags & TM_IC_ROW_HINT);
    for (uint32_t pc = 0; pc < 4; pc++)
        assert_false(fn.ic[pc].flags & TM_IC_ROW_HINT);
    tm_opclass_fn_free(&fn);
    ptx_module_free(m);
}

/* The nvcc-generated PTX of testdata/ptx classifies cleanly. */
static void test_nvcc_modules(void **state)
{
    (void)state;
    tm_config cfg = test_config();
    assert_true(ptx_test_each_file("ptx", ".ptx", classify_module, &cfg) > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_and_latencies),
        cmocka_unit_test(test_flags_and_spaces),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_unit_fallbacks),
        cmocka_unit_test(test_missing_unit_is_an_error),
        cmocka_unit_test(test_every_opcode_classified),
        cmocka_unit_test(test_every_isa_form),
        cmocka_unit_test(test_simtlab_extensions),
        cmocka_unit_test(test_nvcc_modules),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
