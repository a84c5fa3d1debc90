/* test_reports.c — the buffered writer behind the text and JSON reports
 * (writer.h) and the bounds of the JSON reader's access notes.
 *
 * The writer must produce the bytes printf does: each case formats the same
 * values with snprintf ("%u", "%-6u", "%s") and with the writer into a
 * memory stream and compares. JSON strings must be those of
 * ptx_json_string, the project's one escaping, for plain names and for
 * names with characters to escape. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/writer.h"
#include "ir/cfg_export.h"

/* The writer's output for `fill`, as a string the caller frees. */
static char *written(void (*fill)(ptx_writer *w))
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    assert_non_null(mem);
    ptx_writer *w = malloc(sizeof *w);
    assert_non_null(w);
    ptx_writer_init(w, mem);
    fill(w);
    ptx_writer_flush(w);
    free(w);
    fclose(mem);
    return text;
}

static const uint32_t values[] = {0, 1, 9, 10, 99, 100, 12345, 999999, 1000000, 4294967295u};

static void fill_numbers(ptx_writer *w)
{
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        ptx_put_u32(w, values[i]);
        ptx_put_char(w, '|');
        ptx_put_u32_left(w, values[i], 6);
        ptx_put_str(w, "|\n");
    }
}

/* Decimal numbers, plain and left-aligned in 6 columns, as printf writes them. */
static void test_numbers(void **state)
{
    (void)state;
    char want[1024];
    size_t n = 0;
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%u|%-6u|\n", values[i], values[i]);
    char *got = written(fill_numbers);
    assert_string_equal(got, want);
    free(got);
}

/* More than the buffer holds, in small and in oversized pieces. */
static void fill_long(ptx_writer *w)
{
    static char big[3 * PTX_WRITER_SIZE / 2 + 1];
    memset(big, 'x', sizeof big - 1);
    for (uint32_t i = 0; i < 30000; i++) {
        ptx_put_u32(w, i);
        ptx_put_char(w, ',');
    }
    ptx_put_str(w, big);
    ptx_put_str(w, "end");
}

static void test_long_output(void **state)
{
    (void)state;
    char *got = written(fill_long);
    char *p = got;
    for (uint32_t i = 0; i < 30000; i++) {
        char num[16];
        int n = snprintf(num, sizeof num, "%u,", i);
        assert_memory_equal(p, num, (size_t)n);
        p += n;
    }
    for (size_t i = 0; i < 3 * PTX_WRITER_SIZE / 2; i++)
        assert_int_equal(p[i], 'x');
    assert_string_equal(p + 3 * PTX_WRITER_SIZE / 2, "end");
    free(got);
}

static const char *const names[] = {"%r12", "_Z6kernelPfi", "", "a\"b", "back\\slash",
                                    "tab\there", "new\nline", ("\x01" "ctl")}; /* (two literals: \x01 then "ctl") */

static void fill_json(ptx_writer *w)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ptx_put_json_string(w, names[i]);
        ptx_put_char(w, ',');
    }
}

/* JSON strings equal ptx_json_string's, escapes included. */
static void test_json_strings(void **state)
{
    (void)state;
    char *want = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&want, &len);
    assert_non_null(mem);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ptx_json_string(names[i], mem);
        fputc(',', mem);
    }
    fclose(mem);
    char *got = written(fill_json);
    assert_string_equal(got, want);
    free(got);
    free(want);
}

/* A document with one register written once, idle `idle`. */
static int read_idle(const char *idle, ptx_annotations *a, char *err, size_t n)
{
    char text[512];
    snprintf(text, sizeof text,
             "{\"schema\":\"simtlab-analysis/1\",\"file\":\"f\",\"kernels\":[{\"name\":\"k\","
             "\"kind\":\"entry\",\"blocks\":1,\"instructions\":1,\"max_live\":0,"
             "\"taint_flow_insensitive\":false,\"branches\":[],\"loops\":[],\"registers\":[{"
             "\"name\":\"%%r1\",\"type\":\"u32\",\"next_access\":[{\"line\":3,\"pc\":0,"
             "\"access\":\"write\",\"kind\":\"none\",\"idle\":%s}]}]}]}",
             idle);
    return ptx_annotations_read_json(text, a, err, n);
}

/* Idle estimates are at most PTX_IDLE_MAX; the reader keeps what its notes
 * hold (up to 65535) and names a larger value as an error. */
static void test_idle_bounds(void **state)
{
    (void)state;
    ptx_annotations a;
    char err[256];
    assert_int_equal(read_idle("1023", &a, err, sizeof err), 0);
    assert_int_equal(a.kernels[0].regs[0].accesses[0].idle, 1023);
    ptx_annotations_free(&a);
    assert_int_equal(read_idle("65535", &a, err, sizeof err), 0);
    assert_int_equal(a.kernels[0].regs[0].accesses[0].idle, 65535);
    ptx_annotations_free(&a);
    assert_int_equal(read_idle("65536", &a, err, sizeof err), -1);
    assert_non_null(strstr(err, "idle"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_long_output),
        cmocka_unit_test(test_json_strings),
        cmocka_unit_test(test_idle_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
