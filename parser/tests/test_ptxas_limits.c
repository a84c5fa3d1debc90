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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_target_known_to_ptxas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
