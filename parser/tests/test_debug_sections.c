/* test_debug_sections.c — the contents of `.section` blocks are checked as
 * ptxas reads them: good and bad section bodies, each with the verdict of
 * ptxas 13 (`ptxas -arch=sm_90 f.ptx -o /dev/null`, recorded when the test
 * was written; where ptxas is on PATH the test asks it again) and, for bad
 * ones, where simtlab must report the error and what it must say. The
 * nvcc -G corpus (testdata/ptx/\*.G.ptx) is parsed by test_parse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "parser/diag.h"
#include "parser/tests/ptx_test.h"

/* The module around a section body: the body starts on line 12, column 1;
 * the kernel defines $L__f0 and $L__f1 (labels of another scope). */
static const char module_fmt[] = ".version 8.8\n.target sm_90, debug\n.address_size 64\n"
                                 ".visible .entry k(.param .u64 k_param_0)\n{\n$L__f0:\nret;\n$L__f1:\n}\n"
                                 ".section .debug_info\n{\n%s\n}\n";

typedef struct section_case {
    const char *body;
    bool valid;           /* ptxas 13 accepts it */
    const char *message;  /* bad: part of the error */
    uint32_t line, col;   /* bad: where */
} section_case;

static const section_case cases[] = {
    /* what nvcc -G emits */
    {".b8 1,2,3\n.b8 0", true, NULL, 0, 0},
    {".b32 $L__f1-$L__f0\n.b64 $L__f0\n.b64 .debug_info+42\n.b64 __local_depot0\n.b32 .debug_abbrev", true, NULL, 0, 0},
    /* the ISA's other forms, ptxas's aliases, literals, layout */
    {".b8 255,-128\n.b16 65535,-32768\n.b32 -2147483648\n.b64 -1,18446744073709551615", true, NULL, 0, 0},
    {".b8 0x41,0X41,077,0b101,0B1,1U,0x1U,00,-0x80,- 1", true, NULL, 0, 0},
    {".byte 1\n.4byte 2\n.quad $L__f0\n.b32 4294967296", true, NULL, 0, 0},
    {"x: .b8 1 .b8 2\ny :\n.b64 x + 0x10\n.b32 y+4U\n.b64 nosuch", true, NULL, 0, 0},
    {".b8\n1\n,\n2 // comment\n.b64 x\n+\n4 /* comment */", true, NULL, 0, 0},
    /* a '}' inside a comment does not end the section */
    {".b8 1 // }\n.b8 2 /* } */ .b8 3 /* }\n*/ .b8 4", true, NULL, 0, 0},
    /* the example: a letter inside a number */
    {".b8 97,100,100,114,101l115", false, "malformed integer '101l115'", 12, 20},
    {".b8 256", false, "value 256 is out of range for .b8 (-128..255)", 12, 5},
    {".b8 -129", false, "value -129 is out of range for .b8", 12, 5},
    {".b16 65536", false, "out of range for .b16", 12, 6},
    {".b32 -2147483649", false, "out of range for .b32", 12, 6},
    {".b64 -9223372036854775808", false, "out of range for .b64", 12, 6},
    {".byte 0x100", false, "value 256 is out of range for .byte", 12, 7},
    {".b8 1,", false, "expected a number after ','", 13, 1},
    {".b8 1 2", false, "separate a list's values with ','", 12, 7},
    {".b8 1,,2", false, "expected a number", 12, 7},
    {".b8", false, "a data directive without a value", 12, 1},
    {".b8 1.5", false, "malformed integer '1.5'", 12, 5},
    {".b8 08", false, "malformed integer '08'", 12, 5},
    {".b8 1u", false, "malformed integer '1u'", 12, 5},
    {".b8 \"add\"", false, ".b8 takes integers or one label", 12, 5},
    {".b8 1;", false, "unexpected ';'", 12, 6},
    {".b8 1+2", false, "unexpected '+2'", 12, 6},
    {".u8 1", false, ".u8 cannot hold data here", 12, 1},
    {".f32 1", false, ".f32 cannot hold data here", 12, 1},
    {".word 1", false, "unknown directive '.word'", 12, 1},
    {".b8 $L__f0", false, "a label needs .b32 or .b64 data, not .b8", 12, 5},
    {".b64 $L__f0-4", false, "expected a label after 'label -'", 12, 13},
    {".b64 $L__f0 + -1", false, "expected a non-negative offset", 12, 15},
    {".b64 $L__f0,$L__f1", false, ".b64 takes one label operand, not a list", 12, 12},
    {"x: .b8 1\nx: .b8 2", false, "duplicate definition of label 'x' (first at line 12)", 13, 1},
    {"x .b8 1", false, "'x' is neither a label definition (NAME:) nor a data directive", 12, 1},
    {".b8 1 /* open", false, "unterminated /* comment", 12, 7},
    {".b8 1 /* } */ 2", false, "separate a list's values with ','", 12, 15},
};

/* ptxas's verdict on text, or -1 without ptxas. */
static int ptxas_accepts(const char *ptxas, const char *text)
{
    if (!ptxas)
        return -1;
    char tmp[] = "debug_sections_XXXXXX.ptx"; /* in the test's working directory */
    int fd = mkstemps(tmp, 4);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    int rc = ptx_test_run_ptxas(ptxas, "sm_90", tmp, false, true);
    unlink(tmp);
    return rc == 0;
}

static void test_section_contents(void **state)
{
    (void)state;
    char *ptxas = ptx_test_find_ptxas();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const section_case *c = &cases[i];
        char text[2048];
        snprintf(text, sizeof text, module_fmt, c->body);
        int judge = ptxas_accepts(ptxas, text);
        if (judge >= 0 && judge != c->valid)
            fail_msg("ptxas %s section body '%s' (the table says otherwise)", judge ? "accepts" : "rejects", c->body);
        ptx_diags d = {0};
        ptx_module *m = ptx_parse_string(text, strlen(text), "test.ptx", &d);
        if (c->valid) {
            if (!m) {
                ptx_diags_print(&d, stderr);
                fail_msg("valid section body refused: %s", c->body);
            }
        } else {
            if (m)
                fail_msg("invalid section body accepted: %s", c->body);
            assert_true(d.count > 0);
            const ptx_diag *e = &d.items[0];
            if (!strstr(e->message, c->message) || e->line != c->line || e->col != c->col)
                fail_msg("section body '%s': got %u:%u: %s; want %u:%u: ...%s...", c->body, e->line, e->col,
                         e->message, c->line, c->col, c->message);
        }
        ptx_module_free(m);
        ptx_diags_free(&d);
    }
    free(ptxas);
}

/* Section names: ptxas takes '.' and a letter-initial word. */
static void test_section_names(void **state)
{
    (void)state;
    const char *bad[] = {"foo", ".nv.foo", "._x", ".9x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[256];
        snprintf(text, sizeof text, PTX_TEST_HEADER ".section %s\n{\n.b8 1\n}\n", bad[i]);
        ptx_diags d = {0};
        ptx_module *m = ptx_parse_string(text, strlen(text), "test.ptx", &d);
        assert_null(m);
        assert_non_null(strstr(d.items[0].message, "bad section name"));
        assert_int_equal(d.items[0].line, 4);
        ptx_diags_free(&d);
    }
    ptx_module_free(ptx_test_parse(PTX_TEST_HEADER ".section .debug_str\n{\n.b8 0\n}\n"));
    ptx_module_free(ptx_test_parse(PTX_TEST_HEADER ".section .a$b\n{\n}\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_section_contents),
        cmocka_unit_test(test_section_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
