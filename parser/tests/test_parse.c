/* test_parse.c — what the parser builds from small PTX programs.
 *
 * Each test parses a snippet and checks the IR against what the PTX ISA says
 * the text means: literal values in every base, exact float bits, register
 * ids and types, scoping, addresses, declarations and initializers,
 * functions, prototypes and source locations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir/printer.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

/* Parse a kernel body after the usual registers, with a global array g. */
static ptx_module *parse_body(const char *body)
{
    return ptx_test_parse_body(".global .align 4 .b8 g[64];", body);
}

static const ptx_operand *opd(const ptx_function *f, uint32_t instr, unsigned k)
{
    assert_true(instr < f->ninstrs);
    assert_true(k < f->instrs[instr].noperands);
    return &f->operands[f->instrs[instr].operands + k];
}

static const char *reg_name(const ptx_module *m, const ptx_function *f, uint32_t r, char *buf)
{
    const ptx_reg *g = &f->regs[r];
    if (g->index == PTX_NONE)
        return strcpy(buf, ptx_str(m, g->name));
    sprintf(buf, "%s%u", ptx_str(m, g->name), g->index);
    return buf;
}

static void test_header(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(".version 8.5\n.target sm_90a, texmode_independent, debug\n"
                          ".address_size 32\n");
    assert_int_equal(m->version_major, 8);
    assert_int_equal(m->version_minor, 5);
    assert_int_equal(m->ntargets, 3);
    assert_string_equal(ptx_str(m, m->targets[0]), "sm_90a");
    assert_string_equal(ptx_str(m, m->targets[2]), "debug");
    assert_int_equal(m->address_size, 32);
    ptx_module_free(m);
}

/* Integer literals: decimal, hex, octal, binary, U suffix, full 64-bit range,
 * constant expressions — values as the ISA defines them. */
static void test_integer_literals(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "mov.u64 %rd1, 0xFFFFFFFFFFFFFFFF;\n"
        "mov.u64 %rd2, 18446744073709551615U;\n"
        "mov.s64 %rd3, -9223372036854775808;\n"
        "mov.u32 %r1, 0777;\n"
        "mov.u32 %r2, 0b1011;\n"
        "mov.u32 %r3, (1 << 3) + 4 * 2 - 1;\n"
        "mov.u32 %r4, -1;\n"
        "mov.u32 %r5, 0x7fffffff ^ 0xff;\n"
        "mov.u32 %r6, 17 % 5;\n"
        "mov.s64 %rd4, -8 >> 1;\n");
    const ptx_function *f = ptx_test_kernel(m);
    assert_int_equal((uint64_t)opd(f, 0, 1)->value, UINT64_MAX);
    assert_int_equal(opd(f, 0, 1)->kind, PTX_OPD_IMM);
    assert_int_equal((uint64_t)opd(f, 1, 1)->value, UINT64_MAX);
    assert_true(opd(f, 1, 1)->flags & PTX_OPF_UNSIGNED);
    assert_true(opd(f, 2, 1)->value == INT64_MIN);
    assert_int_equal(opd(f, 3, 1)->value, 511);
    assert_int_equal(opd(f, 4, 1)->value, 11);
    assert_int_equal(opd(f, 5, 1)->value, 15);
    assert_int_equal(opd(f, 6, 1)->value, -1);
    assert_int_equal(opd(f, 7, 1)->value, 0x7fffff00);
    assert_int_equal(opd(f, 8, 1)->value, 2);
    assert_int_equal(opd(f, 9, 1)->value, -4);
    ptx_module_free(m);
}

/* Float literals keep their exact bits; decimal ones are doubles. */
static void test_float_literals(void **state)
{
    (void)state;
    ptx_module *m = parse_body("mov.f32 %f1, 0f3F800000;\n"
                               "mov.f64 %fd1, 0d400921FB54442D18;\n"
                               "mov.f32 %f2, 0fFF800000;\n"
                               "mov.f64 %fd2, 1.5;\n"
                               "mov.f64 %fd3, -2.5e3;\n");
    const ptx_function *f = ptx_test_kernel(m);
    assert_int_equal(opd(f, 0, 1)->kind, PTX_OPD_F32);
    assert_int_equal((uint64_t)opd(f, 0, 1)->value, 0x3F800000u);
    assert_int_equal(opd(f, 1, 1)->kind, PTX_OPD_F64);
    assert_int_equal((uint64_t)opd(f, 1, 1)->value, 0x400921FB54442D18ull);
    assert_int_equal((uint64_t)opd(f, 2, 1)->value, 0xFF800000u);
    double d;
    uint64_t bits = (uint64_t)opd(f, 3, 1)->value;
    memcpy(&d, &bits, sizeof d);
    assert_true(d == 1.5);
    assert_true(opd(f, 3, 1)->flags & PTX_OPF_DECIMAL);
    bits = (uint64_t)opd(f, 4, 1)->value;
    memcpy(&d, &bits, sizeof d);
    assert_true(d == -2500.0);
    ptx_module_free(m);
}

/* %r<N> ranges become N dense ids in declaration order, with their type. */
static void test_register_ranges(void **state)
{
    (void)state;
    ptx_module *m = parse_body("add.s32 %r9, %r0, %r8;\nadd.s64 %rd0, %rd9, 1;\n");
    const ptx_function *f = ptx_test_kernel(m);
    assert_int_equal(f->nregs, 4 + 10 + 10 + 10 + 4);
    const ptx_operand *d = opd(f, 0, 0), *a = opd(f, 0, 1);
    assert_int_equal(d->kind, PTX_OPD_REG);
    assert_int_equal(d->id, 4 + 9);
    assert_int_equal(a->id, 4);
    assert_int_equal(f->regs[d->id].type, PTX_TYPE_B32);
    assert_int_equal(opd(f, 1, 0)->id, 14);
    assert_int_equal(f->regs[opd(f, 1, 1)->id].type, PTX_TYPE_B64);
    ptx_module_free(m);
}

/* A register declared in a nested scope shadows the outer one there only. */
static void test_scoped_shadowing(void **state)
{
    (void)state;
    ptx_module *m = parse_body("mov.u32 %r1, 1;\n"
                               "{\n .reg .b32 %r<3>;\n mov.u32 %r1, 2;\n"
                               "  { .reg .b64 %r1; mov.u64 %r1, 3; }\n"
                               "  mov.u32 %r1, 4;\n}\n"
                               "mov.u32 %r1, 5;\n");
    const ptx_function *f = ptx_test_kernel(m);
    uint32_t outer = opd(f, 0, 0)->id, inner = opd(f, 1, 0)->id, inner2 = opd(f, 2, 0)->id;
    assert_int_not_equal(outer, inner);
    assert_int_not_equal(inner, inner2);
    assert_int_equal(f->regs[inner2].type, PTX_TYPE_B64);
    assert_int_equal(opd(f, 3, 0)->id, inner);
    assert_int_equal(opd(f, 4, 0)->id, outer);
    ptx_module_free(m);
}

/* Labels are block scoped: sibling blocks may reuse a name, and a branch
 * inside a block may target a label the enclosing block defines later. */
static void test_scoped_labels(void **state)
{
    (void)state;
    ptx_module *m = parse_body("{ bra L; }\n"          /* 0: forward, from a nested block */
                               "{ M: bra M; }\n"       /* 1 */
                               "{ M: bra M; }\n"       /* 2 */
                               "L: ret;\n");           /* 3 */
    const ptx_function *f = ptx_test_kernel(m);
    const ptx_label *l0 = &f->labels[opd(f, 0, 0)->id];
    assert_string_equal(ptx_str(m, l0->name), "L");
    assert_int_equal(l0->instr, 3);
    uint32_t m1 = opd(f, 1, 0)->id, m2 = opd(f, 2, 0)->id;
    assert_int_not_equal(m1, m2);
    assert_int_equal(f->labels[m1].instr, 1);
    assert_int_equal(f->labels[m2].instr, 2);
    ptx_module_free(m);
}

/* Constant expressions: C operators, casts, ternary (values by hand). */
static void test_constant_expressions(void **state)
{
    (void)state;
    ptx_module *m = parse_body("mov.s64 %rd1, (1 > 0) ? 11 : 22;\n"
                               "mov.s64 %rd2, (.u64)(-1) >> 60;\n"
                               "mov.s64 %rd3, (.s64)(-1) >> 60;\n"
                               "mov.s64 %rd4, (3 <= 4) + (3 >= 4) * 10 + (2 == 2) + (2 != 2);\n"
                               "mov.s64 %rd5, 1 && 0 || 1;\n"
                               "mov.s64 %rd6, -1 < 1U;\n");
    const ptx_function *f = ptx_test_kernel(m);
    assert_int_equal(opd(f, 0, 1)->value, 11);
    assert_int_equal(opd(f, 1, 1)->value, 15);
    assert_int_equal(opd(f, 2, 1)->value, -1);
    assert_int_equal(opd(f, 3, 1)->value, 2);
    assert_int_equal(opd(f, 4, 1)->value, 1);
    assert_int_equal(opd(f, 5, 1)->value, 0); /* unsigned comparison: 2^64-1 < 1 is false */
    ptx_module_free(m);
}

static void test_addresses(void **state)
{
    (void)state;
    ptx_module *m = parse_body("ld.global.u32 %r1, [%rd1+-4];\n"
                               "ld.global.u32 %r2, [g+8];\n"
                               "ld.global.u32 %r3, [0x100];\n"
                               "ld.param.u64 %rd2, [k_p0];\n"
                               "st.global.v2.f32 [%rd1+16], {%f1, %f2};\n");
    const ptx_function *f = ptx_test_kernel(m);
    const ptx_operand *a = opd(f, 0, 1);
    assert_int_equal(a->kind, PTX_OPD_ADDR);
    assert_int_equal(a->value, -4);
    assert_false(a->flags & PTX_OPF_ADDR_SYM);
    a = opd(f, 1, 1);
    assert_true(a->flags & PTX_OPF_ADDR_SYM);
    assert_string_equal(ptx_symbol_name(m, a->id), "g");
    assert_int_equal(a->value, 8);
    a = opd(f, 2, 1);
    assert_int_equal(a->id, PTX_NONE);
    assert_int_equal(a->value, 256);
    a = opd(f, 3, 1);
    assert_string_equal(ptx_symbol_name(m, a->id), "k_p0");
    const ptx_operand *v = opd(f, 4, 1);
    assert_int_equal(v->kind, PTX_OPD_VEC);
    assert_int_equal(v->count, 2);
    char buf[32];
    assert_string_equal(reg_name(m, f, f->operands[v->id + 1].id, buf), "%f2");
    ptx_module_free(m);
}

/* Forms: opcode, spaces, vector width, types and modifiers in written order. */
static void test_forms(void **state)
{
    (void)state;
    ptx_module *m = parse_body("ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1];\n"
                               "ld.global.nc.L1::evict_last.u32 %r1, [%rd1];\n"
                               "mad.wide.u32 %rd1, %r1, %r2, %rd2;\n"
                               "setp.lt.and.s32 %p1, %r1, %r2, !%p2;\n"
                               "cvt.rn.f32.s32 %f1, %r1;\n");
    const ptx_function *f = ptx_test_kernel(m);
    const ptx_form *fm = ptx_instr_form(m, &f->instrs[0]);
    assert_int_equal(fm->opcode, PTX_OP_LD);
    assert_int_equal(fm->nspaces, 1);
    assert_int_equal(fm->space[0], PTX_SPACE_GLOBAL);
    assert_int_equal(fm->vec, 4);
    assert_int_equal(fm->ntypes, 1);
    assert_int_equal(fm->type[0], PTX_TYPE_F32);
    assert_int_equal(f->operands[opd(f, 0, 0)->id + 2].kind, PTX_OPD_SINK);
    fm = ptx_instr_form(m, &f->instrs[1]);
    assert_int_equal(fm->opcode, PTX_OP_LD_GLOBAL_NC);
    assert_int_equal(fm->mod[PTX_MODCAT_L1EVICT], PTX_MOD_L1_EVICT_LAST);
    fm = ptx_instr_form(m, &f->instrs[2]);
    assert_int_equal(fm->mod[PTX_MODCAT_WIDTH], PTX_MOD_WIDE);
    fm = ptx_instr_form(m, &f->instrs[3]);
    assert_int_equal(fm->mod[PTX_MODCAT_CMP], PTX_MOD_LT);
    assert_int_equal(fm->mod[PTX_MODCAT_OP], PTX_MOD_AND);
    assert_true(opd(f, 3, 3)->flags & PTX_OPF_NOT);
    fm = ptx_instr_form(m, &f->instrs[4]);
    assert_int_equal(fm->ntypes, 2);
    assert_int_equal(fm->type[0], PTX_TYPE_F32);
    assert_int_equal(fm->type[1], PTX_TYPE_S32);
    assert_int_equal(fm->mod[PTX_MODCAT_ROUND], PTX_MOD_RN);
    /* one spelling, one form */
    ptx_module_free(m);
    m = parse_body("add.s32 %r1, %r1, 1;\nadd.s32 %r2, %r2, 2;\n");
    f = ptx_test_kernel(m);
    assert_int_equal(f->instrs[0].form, f->instrs[1].form);
    ptx_module_free(m);
}

static void test_guards_pairs_sregs(void **state)
{
    (void)state;
    ptx_module *m = parse_body("@%p1 mov.u32 %r1, %tid.x;\n"
                               "@!%p2 shfl.sync.up.b32 %r2|%p3, %r1, 1, 0, -1;\n"
                               "mov.u32 %r3, %laneid;\n");
    const ptx_function *f = ptx_test_kernel(m);
    char buf[32];
    assert_string_equal(reg_name(m, f, f->instrs[0].guard, buf), "%p1");
    assert_false(f->instrs[0].guard_neg);
    const ptx_operand *s = opd(f, 0, 1);
    assert_int_equal(s->kind, PTX_OPD_SREG);
    assert_int_equal(s->id, PTX_SREG_TID);
    assert_int_equal(s->comp, PTX_COMP_X);
    assert_true(f->instrs[1].guard_neg);
    const ptx_operand *p = opd(f, 1, 0);
    assert_int_equal(p->kind, PTX_OPD_PAIR);
    assert_string_equal(reg_name(m, f, f->operands[p->id + 1].id, buf), "%p3");
    assert_int_equal(opd(f, 2, 1)->id, PTX_SREG_LANEID);
    ptx_module_free(m);
}

/* Module variables: spaces, alignment, arrays, and initializers including
 * symbol addresses and generic(). */
static void test_variables_and_initializers(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER
        ".global .align 4 .u32 arr[3] = {1, 2, 3};\n"
        ".global .u64 p = generic(arr)+4;\n"
        ".const .align 8 .f64 pi = 0d400921FB54442D18;\n"
        ".global .align 4 .b8 grid[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".visible .global .attribute(.managed) .align 4 .u32 man;\n");
    assert_int_equal(m->ntops, 6);
    const ptx_symbol *arr = &m->symbols[m->tops[0].index];
    assert_string_equal(ptx_str(m, arr->name), "arr");
    assert_int_equal(arr->space, PTX_SPACE_GLOBAL);
    assert_int_equal(arr->align, 4);
    assert_int_equal(ptx_symbol_size(arr), 12);
    const ptx_init *in = &m->inits[arr->init];
    assert_int_equal(in->kind, PTX_INIT_LIST);
    assert_int_equal(in->count, 3);
    assert_int_equal(m->inits[in->first + 2].value, 3);
    const ptx_symbol *p = &m->symbols[m->tops[1].index];
    in = &m->inits[p->init];
    assert_int_equal(in->kind, PTX_INIT_SYM);
    assert_true(in->flags & PTX_OPF_GENERIC);
    assert_int_equal(in->value, 4);
    assert_string_equal(ptx_symbol_name(m, in->id), "arr");
    const ptx_symbol *pi = &m->symbols[m->tops[2].index];
    assert_int_equal((uint64_t)m->inits[pi->init].value, 0x400921FB54442D18ull);
    const ptx_symbol *grid = &m->symbols[m->tops[3].index];
    assert_int_equal(grid->ndims, 2);
    assert_int_equal(ptx_symbol_size(grid), 6);
    in = &m->inits[grid->init];
    assert_int_equal(m->inits[m->inits[in->first + 1].first + 2].value, 6);
    const ptx_symbol *dyn = &m->symbols[m->tops[4].index];
    assert_true(dyn->flags & PTX_SYMF_EXTERN);
    assert_true(dyn->flags & PTX_SYMF_FLEX);
    const ptx_symbol *man = &m->symbols[m->tops[5].index];
    assert_true(man->flags & PTX_SYMF_MANAGED);
    assert_true(man->flags & PTX_SYMF_VISIBLE);
    ptx_module_free(m);
}

/* Functions: return parameters, forward declarations, direct and indirect
 * calls through a prototype, and .branchtargets for brx.idx. */
static void test_functions_and_calls(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER
        ".func (.param .b32 r) sq(.param .b32 x);\n"
        ".func (.param .b32 r) sq(.param .b32 x)\n{\n .reg .b32 %a;\n"
        " ld.param.b32 %a, [x];\n mul.lo.s32 %a, %a, %a;\n st.param.b32 [r], %a;\n ret;\n}\n"
        ".visible .entry k(.param .u64 fp) .maxntid 128, 1, 1 .minnctapersm 2\n{\n"
        " .reg .b32 %r<4>;\n .reg .b64 %rd<2>;\n"
        " { .param .b32 a0; .param .b32 r0;\n"
        "   st.param.b32 [a0], %r1;\n"
        "   call.uni (r0), sq, (a0);\n"
        "   ld.param.b32 %r2, [r0];\n }\n"
        " ld.param.u64 %rd1, [fp];\n"
        " { .param .b32 a1; .param .b32 r1;\n"
        "   proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "   st.param.b32 [a1], %r1;\n"
        "   call (r1), %rd1, (a1), proto;\n }\n"
        " tbl: .branchtargets L0, L1;\n"
        " brx.idx %r3, tbl;\n"
        "L0:\n ret;\nL1:\n exit;\n}\n");
    assert_int_equal(m->nfunctions, 3);
    const ptx_function *sq = &m->functions[1], *k = &m->functions[2];
    assert_int_equal(sq->nrets, 1);
    assert_int_equal(sq->nparams, 1);
    /* the declaration and the definition share one symbol, bound to the body */
    assert_int_equal(m->functions[0].symbol, sq->symbol);
    assert_int_equal(m->symbols[sq->symbol].func, 1);
    assert_int_equal(k->maxntid[0], 128);
    assert_int_equal(k->minnctapersm, 2);
    const ptx_operand *target = opd(k, 1, 1);
    assert_int_equal(target->kind, PTX_OPD_SYM);
    assert_int_equal(m->symbols[target->id].kind, PTX_SYM_FUNC);
    assert_int_equal(opd(k, 1, 0)->kind, PTX_OPD_LIST);
    const ptx_operand *proto = opd(k, 5, 3);
    assert_int_equal(proto->kind, PTX_OPD_LABEL);
    assert_int_equal(k->labels[proto->id].kind, PTX_LABEL_PROTOTYPE);
    assert_int_equal(k->protos[k->labels[proto->id].proto].narg, 1);
    /* brx.idx: one block per target, both successors of the switch block */
    uint32_t sw = k->instr_block[6];
    assert_int_equal(k->blocks[sw].nsucc, 2);
    assert_int_equal(k->succs[k->blocks[sw].succ], k->instr_block[7]);
    assert_int_equal(k->succs[k->blocks[sw].succ + 1], k->instr_block[8]);
    ptx_module_free(m);
}

/* Debug information: .file, .loc and .section survive printing. */
static void test_debug_directives_print_back(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".file 1 \"a.cu\", 1700000000, 1234\n"
                          ".entry k()\n{\n.loc 1 5 3\n ret;\n}\n"
                          ".section .debug_abbrev\n{\n.b8 1\n.b8 17\n}\n");
    assert_int_equal(m->nfiles, 1);
    assert_int_equal(m->files[0].size, 1234);
    assert_int_equal(m->nsections, 1);
    assert_string_equal(ptx_str(m, m->sections[0].name), ".debug_abbrev");
    const ptx_function *f = ptx_test_kernel(m);
    assert_int_equal(f->nlocs, 1);
    assert_int_equal(f->locs[0].line, 5);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ptx_print_module(m, out);
    fclose(out);
    assert_non_null(strstr(text, ".loc\t1 5 3"));
    assert_non_null(strstr(text, ".b8 17"));
    assert_non_null(strstr(text, ".file 1 \"a.cu\", 1700000000, 1234"));
    free(text);
    ptx_module_free(m);
}

/* Every instruction records the line and column of its opcode. */
static void test_source_locations(void **state)
{
    (void)state;
    ptx_module *m = ptx_test_parse(PTX_TEST_HEADER ".entry k()\n{\n"
                                   "  .reg .pred %p;\n  @%p   exit;\n\tret;\n}\n");
    const ptx_function *f = ptx_test_kernel(m);
    assert_int_equal(f->instrs[0].line, 7);
    assert_int_equal(f->instrs[0].col, 9);
    assert_int_equal(f->instrs[1].line, 8);
    assert_int_equal(f->instrs[1].col, 2);
    ptx_module_free(m);
}

/* Parse must fail with the first error at line:col containing `what`. */
static void expect_error(const char *body, uint32_t line, uint32_t col, const char *what)
{
    char text[4096];
    int n = snprintf(text, sizeof text, PTX_TEST_HEADER ".entry k()\n{\n.reg .pred %%p<2>;\n"
                     ".reg .b32 %%r<4>;\n%s\n}\n", body);
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string(text, (size_t)n, "e.ptx", &d);
    assert_null(m);
    assert_true(d.count >= 1);
    if (d.items[0].line != line || d.items[0].col != col || !strstr(d.items[0].message, what))
        fail_msg("got %u:%u: %s; want %u:%u: ...%s...", d.items[0].line, d.items[0].col,
                 d.items[0].message, line, col, what);
    ptx_diags_free(&d);
}

/* Semantic checks on operands: destinations, branch targets, guards. */
static void test_operand_semantic_errors(void **state)
{
    (void)state;
    expect_error("add.s32 5, %r1, %r2;", 8, 1, "destination of 'add' must be a register");
    expect_error("add.s32 %r1, %r2;", 8, 1, "got 2 operands");
    expect_error("bra %r1;", 8, 1, "'bra' needs a label");
    expect_error("  @%r1 ret;", 8, 4, "not a predicate");
    expect_error("mov.u32 %r1, %r4;", 8, 14, "undeclared register '%r4'");
    expect_error("T: .branchtargets L;\nL:\nbra T;", 10, 1, "'T' is not a label");
    expect_error("L:\nL:\nret;", 9, 1, "duplicate label 'L'");
    expect_error("add.s32 %r1, %r2, L;\nL: ret;", 8, 19, "labels are only operands");
}

/* Bytes above 0x7f outside comments are errors, not a hang (the scanner is
 * 8-bit clean); inside comments they are fine. */
static void test_high_bytes(void **state)
{
    (void)state;
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string("\x80", 1, "x.ptx", &d);
    assert_null(m);
    assert_int_equal(d.items[0].line, 1);
    assert_non_null(strstr(d.items[0].message, "unexpected byte 0x80"));
    ptx_diags_free(&d);
    m = ptx_test_parse(PTX_TEST_HEADER "// caf\xc3\xa9\n.entry k()\n{\nret;\n}\n");
    ptx_module_free(m);
}

/* Every instruction form of the ISA 9.0 syntax reference (testdata/isa,
 * generated from it) parses inside a kernel declaring the names it uses. */
static void test_every_isa_form_parses(void **state)
{
    (void)state;
    char path[4096];
    ptx_test_path(path, sizeof path, "isa/forms.txt");
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    static const char pre[] =
        ".version 9.0\n.target sm_100a\n.address_size 64\n"
        ".global .align 8 .b8 gsym[1024];\n.shared .align 8 .b8 ssym[1024];\n"
        ".const .align 8 .b8 csym[1024];\n.global .texref tex1;\n"
        ".global .samplerref samp1;\n.global .surfref surf1;\n"
        ".func f0()\n{\nret;\n}\n"
        ".func (.param .b32 f1_r) f1(.param .b32 f1_a)\n{\nret;\n}\n"
        ".entry k()\n{\n.reg .b32 %r<100>;\n.reg .b64 %rd<100>;\n.reg .f32 %f<100>;\n"
        ".reg .f64 %fd<100>;\n.reg .b16 %h<100>;\n.reg .b128 %q<10>;\n.reg .pred %p<10>;\n"
        "proto1: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "bt1: .branchtargets L1, L2;\nL1:\n";
    char line[4096], text[8192];
    unsigned n = 0, bad = 0;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        n++;
        int len = snprintf(text, sizeof text, "%s%sL2:\nret;\n}\n", pre, line);
        ptx_diags d = {0};
        ptx_module *m = ptx_parse_string(text, (size_t)len, "forms", &d);
        if (!m) {
            if (bad++ < 10) {
                fprintf(stderr, "form does not parse: %s", line);
                ptx_diags_print(&d, stderr);
            }
        }
        ptx_module_free(m);
        ptx_diags_free(&d);
    }
    fclose(in);
    assert_true(n > 1000);
    if (bad)
        fail_msg("%u of %u ISA forms do not parse", bad, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header),
        cmocka_unit_test(test_integer_literals),
        cmocka_unit_test(test_float_literals),
        cmocka_unit_test(test_register_ranges),
        cmocka_unit_test(test_scoped_shadowing),
        cmocka_unit_test(test_scoped_labels),
        cmocka_unit_test(test_constant_expressions),
        cmocka_unit_test(test_addresses),
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_guards_pairs_sregs),
        cmocka_unit_test(test_variables_and_initializers),
        cmocka_unit_test(test_functions_and_calls),
        cmocka_unit_test(test_debug_directives_print_back),
        cmocka_unit_test(test_source_locations),
        cmocka_unit_test(test_operand_semantic_errors),
        cmocka_unit_test(test_high_bytes),
        cmocka_unit_test(test_every_isa_form_parses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
