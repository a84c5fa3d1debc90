/* test_read_limits.c — reading input files: a directory is named as one (the
 * read(2) of a directory fails with EISDIR, which the old message hid as an
 * input/output error), a character device (/dev/zero, which the kernel
 * serves without end) is refused as one, and a pipe that never ends or a
 * file past the limit stops with an error naming the limit instead of
 * growing memory without bound; a pipe of PTX is read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* A character device is refused before reading, named as one: /dev/zero
 * would never end and /dev/null is no PTX file. */
static void test_character_device_refused(void **state)
{
    (void)state;
    size_t n = 0;
    errno = 0;
    char *buf = ptx_read_file_max("/dev/zero", (size_t)1 << 20, &n);
    assert_null(buf);
    assert_int_equal(errno, ENODEV);
    assert_non_null(strstr(ptx_read_error(ENODEV), "character device"));
    ptx_diags d = {0};
    assert_null(ptx_load_file("/dev/null", 0, &d));
    assert_true(d.errors > 0);
    assert_non_null(strstr(d.items[0].message, "is a character device"));
    ptx_diags_free(&d);
}

/* A child process that writes `text` (len bytes) into the fifo at path,
 * `repeat` times, or until the reader goes away (SIGPIPE ends it). */
static pid_t fifo_writer(const char *path, const char *text, size_t len, long repeat)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(path, O_WRONLY);
        for (long i = 0; fd >= 0 && i < repeat; i++)
            if (write(fd, text, len) != (ssize_t)len)
                break;
        _exit(0);
    }
    return pid;
}

/* A pipe is read (PTX through /dev/stdin is legitimate); one that does not
 * end stops at the stream limit with ENOBUFS, whose message names the
 * stream limit and what to do instead. */
static void test_pipe_read_and_limited(void **state)
{
    (void)state;
    char dir[] = "read_limits_fifo_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/f", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    const char ptx[] = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
    pid_t pid = fifo_writer(path, ptx, strlen(ptx), 1);
    ptx_diags d = {0};
    ptx_module *m = ptx_load_file(path, 0, &d);
    waitpid(pid, NULL, 0);
    assert_non_null(m);
    assert_int_equal(m->nfunctions, 1);
    ptx_module_free(m);
    ptx_diags_free(&d);

    char block[4096];
    memset(block, '\n', sizeof block);
    pid = fifo_writer(path, block, sizeof block, 1L << 30);
    size_t n = 0;
    errno = 0;
    char *buf = ptx_read_file_max(path, (size_t)1 << 20, &n);
    int err = errno;
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    unlink(path);
    rmdir(dir);
    assert_null(buf);
    assert_int_equal(err, ENOBUFS);
    assert_non_null(strstr(ptx_read_error(ENOBUFS), "1 GiB"));
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
        cmocka_unit_test(test_character_device_refused),
        cmocka_unit_test(test_pipe_read_and_limited),
        cmocka_unit_test(test_regular_file_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
