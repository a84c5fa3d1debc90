/* test_ptxas_limits.c — input that ptxas 13 refuses must be refused by the
 * front-end too, with an error at the offending token that says what is
 * wrong. Expected verdicts come from running ptxas 13 (ptxas -arch=sm_90) on
 * the same text; each test says what ptxas answered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "parser/diag.h"
#include "parser/parser.h"

/* Parses text; expects it refused with an error at line:col (0: any) whose
 * message contains needle. */
static void expect_refused(const char *text, uint32_t line, uint32_t col, const char *needle)
{
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string(text, strlen(text), "limits.ptx", &d);
    if (m) {
        ptx_module_free(m);
        ptx_diags_free(&d);
        fail_msg("parse succeeded; expected \"%s\" at %u:%u", needle, line, col);
    }
    const ptx_diag *e = NULL;
    for (uint32_t i = 0; i < d.count && !e; i++)
        if (d.items[i].severity == PTX_DIAG_ERROR)
            e = &d.items[i];
    assert_non_null(e);
    if ((line && e->line != line) || (col && e->col != col) || !strstr(e->message, needle)) {
        print_message("got %u:%u: %s\n", e->line, e->col, e->message);
        ptx_diags_free(&d);
        fail_msg("expected %u:%u containing \"%s\"", line, col, needle);
    }
    ptx_diags_free(&d);
}

/* Parses text; expects success. */
static void expect_accepted(const char *text)
{
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string(text, strlen(text), "limits.ptx", &d);
    if (!m && d.count)
        print_message("%u:%u: %s\n", d.items[0].line, d.items[0].col, d.items[0].message);
    assert_non_null(m);
    ptx_module_free(m);
    ptx_diags_free(&d);
}

/* A module whose .target line (line 2) names target. */
static void with_target(char *buf, size_t n, const char *target)
{
    snprintf(buf, n, ".version 9.0\n.target %s\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n",
             target);
}

/* ptxas 13 answers "Unsupported .target" for sm_999, compute_999, sm_54,
 * sm_80a, sm_90f and sm_122, and accepts the others below (some only with a
 * matching -arch, but it knows them). */
static void test_target_known_to_ptxas(void **state)
{
    (void)state;
    static const char *const refused[] = {"sm_999", "compute_999", "sm_54", "sm_80a",
                                          "sm_90f", "sm_122", "sm_1000000000000000000000"};
    static const char *const accepted[] = {"sm_10", "sm_35", "sm_72", "sm_82", "sm_90a",
                                           "compute_90", "sm_100f", "sm_101a", "sm_121f",
                                           "compute_120a"};
    char buf[256];
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        with_target(buf, sizeof buf, refused[i]);
        expect_refused(buf, 2, 9, "unknown .target");
    }
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        with_target(buf, sizeof buf, accepted[i]);
        expect_accepted(buf);
    }
}

/* A kernel with n .u32 parameters, one a line from line 5, then the line
 * `last` (NULL: none); the caller frees the text. */
static char *kernel_with_params(unsigned n, const char *last)
{
    size_t cap = (size_t)n * 32 + 256;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t len = (size_t)snprintf(t, cap, ".version 9.0\n.target sm_90\n.address_size 64\n"
                                          ".visible .entry k(\n");
    for (unsigned i = 0; i < n; i++)
        len += (size_t)snprintf(t + len, cap - len, ".param .u32 p%u%s\n", i,
                                i + 1 < n || last ? "," : "");
    if (last)
        len += (size_t)snprintf(t + len, cap - len, "%s\n", last);
    snprintf(t + len, cap - len, ")\n{\nret;\n}\n");
    return t;
}

/* ptxas 13 allows 0x7ffc bytes of .entry parameters: 8191 .u32 (0x7ffc bytes)
 * pass; 8192 .u32, or 8190 .u32 and a .u64 (aligned to 8: 0x7ff8 + 8), or
 * 100000 .u32 give "uses too much parameter space (0x8000 bytes, 0x7ffc max)".
 * The error sits on the parameter that crosses the limit. */
static void test_entry_parameter_space(void **state)
{
    (void)state;
    char *t = kernel_with_params(8191, NULL);
    expect_accepted(t);
    free(t);
    t = kernel_with_params(8192, NULL);
    expect_refused(t, 5 + 8191, 0, "0x7ffc");
    free(t);
    t = kernel_with_params(8190, ".param .u64 q");
    expect_refused(t, 5 + 8190, 0, "0x7ffc");
    free(t);
    t = kernel_with_params(100000, NULL);
    expect_refused(t, 5 + 8191, 0, "kernel parameters take more than 32764");
    free(t);
    /* ptxas: a .b8 array of 0x7ffc bytes passes, one byte more is refused */
    t = kernel_with_params(0, ".param .align 4 .b8 a[32764]");
    expect_accepted(t);
    free(t);
    t = kernel_with_params(0, ".param .align 4 .b8 a[32765]");
    expect_refused(t, 5, 0, "0x7ffc");
    free(t);
    t = kernel_with_params(0, ".param .align 4 .b8 a[4294967296][4294967296]");
    expect_refused(t, 5, 0, "0x7ffc");
    free(t);
}

/* ptxas 13 refuses .version 99999999999999999999.9 and 9.99999999999999999999
 * ("Unsupported .version"); the message must say the number is out of range,
 * not print it wrapped to 32 bits (4294967295.276447231). */
static void test_version_out_of_range(void **state)
{
    (void)state;
    static const char *const tail = "\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n";
    char buf[256];
    snprintf(buf, sizeof buf, ".version 99999999999999999999.9%s", tail);
    expect_refused(buf, 1, 10, "'99999999999999999999.9' is out of range");
    snprintf(buf, sizeof buf, ".version 9.99999999999999999999%s", tail);
    expect_refused(buf, 1, 10, "out of range");
    snprintf(buf, sizeof buf, ".version 4294967296.0%s", tail);
    expect_refused(buf, 1, 10, "out of range");
    snprintf(buf, sizeof buf, ".version 12.0%s", tail);
    expect_refused(buf, 1, 10, "unsupported PTX ISA version 12.0");
    snprintf(buf, sizeof buf, ".version 9.0%s", tail);
    expect_accepted(buf);
}

/* 100000 nested parentheses in a constant expression: the error (bison's
 * "memory exhausted" before) names the nesting limit and sits on line 3,
 * inside the parentheses. */
static void test_nested_parentheses_message(void **state)
{
    (void)state;
    enum { N = 100000 };
    const char *pre = ".version 9.0\n.target sm_90\n.global .u32 y = ";
    size_t cap = strlen(pre) + 2 * N + 16;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t len = (size_t)snprintf(t, cap, "%s", pre);
    memset(t + len, '(', N);
    len += N;
    t[len++] = '1';
    memset(t + len, ')', N);
    len += N;
    snprintf(t + len, cap - len, ";\n");
    uint32_t col0 = (uint32_t)strlen(".global .u32 y = ") + 1;
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string(t, strlen(t), "limits.ptx", &d);
    free(t);
    assert_null(m);
    assert_true(d.count > 0);
    const ptx_diag *e = &d.items[0];
    if (e->line != 3 || e->col < col0 || e->col > col0 + N ||
        !strstr(e->message, "nested too deeply") || !strstr(e->message, "nesting limit is 10000")) {
        print_message("got %u:%u: %s\n", e->line, e->col, e->message);
        fail();
    }
    ptx_diags_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_target_known_to_ptxas),
        cmocka_unit_test(test_entry_parameter_space),
        cmocka_unit_test(test_version_out_of_range),
        cmocka_unit_test(test_nested_parentheses_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
