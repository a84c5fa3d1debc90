/* test_simtlab_ext.c — simtlab's own extensions of PTX in the front-end
 * (README.md, "simtlab extensions of PTX"; ir/ext_opcodes.def):
 *  - without the option a parse rejects each spelling with the usual
 *    FILE:LINE:COL error, as any PTX tool would (standard PTX stays
 *    standard), and the message names the option;
 *  - with PTX_EXT_SIMTLAB the forms decode (opcode, type, state space,
 *    .rowhint queryable with ptx_form_has), and the wrong ones are
 *    refused: other types or state spaces, .rowhint on anything but a
 *    global or generic ld, a wrong operand count;
 *  - the printer writes them back exactly as written, and the printed
 *    text parses to an equal module (ptx_compare.h) that prints the same;
 *  - every committed database variant (testdata/cudart/database) parses
 *    with the option, and the extended ones only with it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ir/isa.h"
#include "ir/printer.h"
#include "ir/util.h"
#include "parser/parser.h"
#include "ptx_compare.h"
#include "ptx_test.h"

/* The three extensions, one per line (lines 8, 9 and 10, the opcodes at
 * column 5). */
static const char ext_text[] = PTX_TEST_HEADER
    ".visible .entry k(.param .u64 p)\n{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
    "    simtlab.cond_acc.shared.b32 %r1, [%r2], %p1, %r3;\n"
    "    simtlab.tree_traverse.u32 %r4, %r5, %p1, 32;\n"
    "    ld.global.rowhint.u32 %r6, [%r7];\n"
    "    ret;\n}\n";

/* Parse text with extensions ext; the diagnostics in *d (to free). */
static ptx_module *parse(const char *text, unsigned ext, ptx_diags *d)
{
    ptx_parse_options opts = {.extensions = ext};
    return ptx_parse_string_opts(text, strlen(text), "ext.ptx", &opts, d);
}

/* The diagnostics hold an error at line:col whose message contains want. */
static void expect_error(const ptx_diags *d, uint32_t line, uint32_t col, const char *want)
{
    for (uint32_t i = 0; i < d->count; i++)
        if (d->items[i].severity == PTX_DIAG_ERROR && d->items[i].line == line && d->items[i].col == col &&
            strstr(d->items[i].message, want))
            return;
    ptx_diags_print(d, stderr);
    fail_msg("no error '%s' at %u:%u", want, line, col);
}

/* Without the option: three errors, one per line, at the opcode. */
static void test_rejected_without_option(void **state)
{
    (void)state;
    ptx_diags d = {0};
    assert_null(parse(ext_text, 0, &d));
    assert_int_equal(d.errors, 3);
    expect_error(&d, 8, 5, "unknown instruction 'simtlab.cond_acc' (a simtlab extension of PTX, accepted with "
                           "the option --ptx-ext simtlab)");
    expect_error(&d, 9, 5, "unknown instruction 'simtlab.tree_traverse'");
    expect_error(&d, 10, 5, "unknown modifier '.rowhint' in 'ld.global.rowhint.u32'");
    ptx_diags_free(&d);
    /* the plain entry points are standard PTX only */
    assert_null(ptx_parse_string(ext_text, strlen(ext_text), "ext.ptx", &d));
    assert_int_equal(d.errors, 3);
    ptx_diags_free(&d);
}

/* With the option: the forms as written. */
static void test_accepted_with_option(void **state)
{
    (void)state;
    ptx_diags d = {0};
    ptx_module *m = parse(ext_text, PTX_EXT_SIMTLAB, &d);
    ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    assert_non_null(m);
    const ptx_function *f = ptx_test_kernel(m);
    assert_int_equal(f->ninstrs, 4);
    const ptx_form *ca = ptx_instr_form(m, &f->instrs[0]), *tt = ptx_instr_form(m, &f->instrs[1]),
                   *ld = ptx_instr_form(m, &f->instrs[2]);
    assert_int_equal(ca->opcode, PTX_OP_SIMTLAB_COND_ACC);
    assert_int_equal(ca->type[0], PTX_TYPE_B32);
    assert_int_equal(ca->space[0], PTX_SPACE_SHARED);
    assert_int_equal(tt->opcode, PTX_OP_SIMTLAB_TREE_TRAVERSE);
    assert_int_equal(tt->type[0], PTX_TYPE_U32);
    assert_int_equal(ld->opcode, PTX_OP_LD);
    assert_true(ptx_form_has(m, ld, PTX_MOD_ROWHINT));
    assert_false(ptx_form_has(m, ca, PTX_MOD_ROWHINT));
    assert_true(ptx_opcode_is_extension(PTX_OP_SIMTLAB_COND_ACC));
    assert_false(ptx_opcode_is_extension(PTX_OP_LD));
    assert_true(ptx_modifier_is_extension(PTX_MOD_ROWHINT));
    assert_false(ptx_modifier_is_extension(PTX_MOD_GLOBAL));
    ptx_module_free(m);
    unsigned ext = 0;
    assert_true(ptx_ext_parse("simtlab", &ext));
    assert_int_equal(ext, PTX_EXT_SIMTLAB);
    assert_false(ptx_ext_parse("simtlab2", &ext));
    assert_false(ptx_ext_parse("", &ext));
}

/* Forms the extensions do not have, each refused at its line with why. */
static void test_bad_forms(void **state)
{
    (void)state;
    static const struct {
        const char *instr, *want;
    } cases[] = {
        {"simtlab.cond_acc.shared.f32 %r1, [%r2], %p1, %r3;", "modifier '.f32' is not allowed on 'simtlab.cond_acc'"},
        {"simtlab.cond_acc.local.b32 %r1, [%r2], %p1, %r3;", "modifier '.local' is not allowed"},
        {"simtlab.cond_acc.shared %r1, [%r2], %p1, %r3;", "needs a type modifier"},
        {"simtlab.cond_acc.global.b32 %r1, %r2, %p1, %r3;", "wrong operands for 'simtlab.cond_acc'"},
        {"simtlab.cond_acc.global.b32 %r1, [%r2], %p1;", "wrong operands for 'simtlab.cond_acc'"},
        {"simtlab.tree_traverse.s32 %r1, %r2, %p1, 32;", "modifier '.s32' is not allowed"},
        {"simtlab.tree_traverse.u32.global %r1, %r2, %p1, 32;", "modifier '.global' is not allowed"},
        {"simtlab.tree_traverse.u32 %r1, [%r2], %p1, 32;", "wrong operands for 'simtlab.tree_traverse'"},
        {"ld.shared.rowhint.u32 %r1, [%r2];", "'.rowhint' is for loads of global or generic addresses, not .shared"},
        {"ld.local.rowhint.u32 %r1, [%r2];", "not .local"},
        {"st.global.rowhint.u32 [%r2], %r1;", "modifier '.rowhint' is not allowed on 'st'"},
        {"ldu.global.rowhint.u32 %r1, [%r2];", "modifier '.rowhint' is not allowed on 'ldu'"},
        {"ld.global.rowhint.rowhint.u32 %r1, [%r2];", "repeated modifier '.rowhint'"},
        {"simtlab.cond_acc2.global.b32 %r1, [%r2], %p1, %r3;", "unknown instruction 'simtlab'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = ptx_format(PTX_TEST_HEADER ".visible .entry k()\n{\n.reg .pred %%p<2>;\n.reg .b32 %%r<8>;\n"
                                "%s\nret;\n}\n", cases[i].instr);
        ptx_diags d = {0};
        ptx_module *m = parse(text, PTX_EXT_SIMTLAB, &d);
        if (m)
            fail_msg("accepted: %s", cases[i].instr);
        expect_error(&d, 8, 1, cases[i].want);
        ptx_diags_free(&d);
        free(text);
    }
}

/* Module text as the printer writes it. */
static char *print_to_string(const ptx_module *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ptx_print_module(m, f);
    fclose(f);
    return text;
}

/* Printing keeps each extension as written; the printed text parses (with
 * the option) to an equal module, which prints the same text. */
static void test_print_round_trip(void **state)
{
    (void)state;
    static const char text[] = PTX_TEST_HEADER
        ".visible .entry k(.param .u64 p)\n{\n"
        ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
        "@%p1 simtlab.cond_acc.global.b64 %r1, [%rd1+16], %p1, %rd2;\n"
        "simtlab.cond_acc.b8 %r1, [%rd1], !%p1, 7;\n"
        "simtlab.tree_traverse.u64 %rd3, %rd2, %p1, 4096;\n"
        "ld.rowhint.v2.u32 {%r2, %r3}, [%rd1];\n"
        "ld.global.nc.rowhint.u32 %r4, [%rd1];\n"
        "ret;\n}\n";
    ptx_module *a = ptx_test_parse_ext(text);
    char *t1 = print_to_string(a);
    static const char *const lines[] = {
        "@%p1 simtlab.cond_acc.global.b64 \t%r1, [%rd1+16], %p1, %rd2;",
        "simtlab.cond_acc.b8 \t%r1, [%rd1], !%p1, 7;",
        "simtlab.tree_traverse.u64 \t%rd3, %rd2, %p1, 4096;",
        "ld.rowhint.v2.u32 \t{%r2, %r3}, [%rd1];",
        "ld.global.nc.rowhint.u32 \t%r4, [%rd1];",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (!strstr(t1, lines[i]))
            fail_msg("printed text lacks '%s':\n%s", lines[i], t1);
    ptx_diags d = {0};
    assert_null(parse(t1, 0, &d)); /* the printed extensions need the option too */
    ptx_diags_free(&d);
    ptx_module *b = ptx_test_parse_ext(t1);
    char why[512];
    if (!ptx_modules_equal(a, b, why, sizeof why))
        fail_msg("printed module differs: %s", why);
    char *t2 = print_to_string(b);
    assert_string_equal(t1, t2);
    free(t1);
    free(t2);
    ptx_module_free(a);
    ptx_module_free(b);
}

/* The committed PTX of the database programs: the baselines are standard
 * PTX, the extended variants parse only with the option. */
static void test_database_ptx(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        bool extended;
    } files[] = {
        {"cudart/database/table_scan.sm_80.ptx", false},
        {"cudart/database/table_scan_ext.sm_80.ptx", true},
        {"cudart/database/index_search.sm_80.ptx", false},
        {"cudart/database/index_search_tt.sm_80.ptx", true},
        {"cudart/database/index_search_hint.sm_80.ptx", true},
        {"cudart/database/index_search_tt_hint.sm_80.ptx", true},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[4096];
        ptx_test_path(path, sizeof path, files[i].file);
        ptx_diags d = {0};
        ptx_module *m = ptx_load_file(path, 0, &d);
        if ((m != NULL) == files[i].extended)
            fail_msg("%s %s without --ptx-ext", files[i].file, m ? "parses" : "does not parse");
        ptx_module_free(m);
        ptx_diags_free(&d);
        ptx_parse_options opts = {.extensions = PTX_EXT_SIMTLAB};
        m = ptx_load_file_opts(path, 0, &opts, &d);
        if (!m) {
            ptx_diags_print(&d, stderr);
            fail_msg("%s does not parse with --ptx-ext simtlab", files[i].file);
        }
        ptx_module_free(m);
        ptx_diags_free(&d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rejected_without_option),
        cmocka_unit_test(test_accepted_with_option),
        cmocka_unit_test(test_bad_forms),
        cmocka_unit_test(test_print_round_trip),
        cmocka_unit_test(test_database_ptx),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
