/* test_read_limits.c — reading input files: a directory is named as one (the
 * read(2) of a directory fails with EISDIR, which the old message hid as an
 * input/output error), and a stream that never ends (/dev/zero, which the
 * kernel serves without end) or a file past the limit stops with an error
 * naming the limit instead of growing memory without bound. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/ir.h"
#include "ir/util.h"
#include "parser/diag.h"
#include "parser/parser.h"

/* Loading a directory says it is a directory. */
static void test_directory_is_named(void **state)
{
    (void)state;
    ptx_diags d = {0};
    ptx_module *m = ptx_load_file(".", 0, &d);
    assert_null(m);
    assert_true(d.errors > 0);
    if (!strstr(d.items[0].message, "is a directory")) {
        print_message("got: %s\n", d.items[0].message);
        fail();
    }
    ptx_diags_free(&d);
}

/* An endless stream stops at the limit with EFBIG, and the message names
 * the 4 GiB limit ptx_read_file applies. */
static void test_endless_stream_stops(void **state)
{
    (void)state;
    size_t n = 0;
    errno = 0;
    char *buf = ptx_read_file_max("/dev/zero", (size_t)1 << 20, &n);
    assert_null(buf);
    assert_int_equal(errno, EFBIG);
    assert_non_null(strstr(ptx_read_error(EFBIG), "4 GiB"));
}

/* A regular file one byte past the limit is refused; one at the limit reads. */
static void test_regular_file_limit(void **state)
{
    (void)state;
    char path[] = "read_limits_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char data[100];
    memset(data, 'x', sizeof data);
    assert_int_equal(write(fd, data, sizeof data), (ssize_t)sizeof data);
    close(fd);
    size_t n = 0;
    char *buf = ptx_read_file_max(path, sizeof data, &n);
    assert_non_null(buf);
    assert_int_equal(n, sizeof data);
    free(buf);
    errno = 0;
    buf = ptx_read_file_max(path, sizeof data - 1, &n);
    int err = errno;
    unlink(path);
    assert_null(buf);
    assert_int_equal(err, EFBIG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_directory_is_named),
        cmocka_unit_test(test_endless_stream_stops),
        cmocka_unit_test(test_regular_file_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
