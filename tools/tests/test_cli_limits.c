/* test_cli_limits.c — simtlab commands given inputs too large or of the
 * wrong kind: they stop with exit status 1 and a message saying what is
 * wrong and what is allowed, never run out of memory (exit 2) or read
 * without end.
 *
 * Expected sizes come from the inputs themselves (65535 x 65535 blocks is
 * 4294836225), expected kinds from what the files are (/dev/zero is a
 * character device, a fifo made by mkfifo(3) is a pipe). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "tools/tests/cli_run.h"

/* A 65535 x 65535 grid would need 80 bytes per block (read and write sets,
 * graph bookkeeping) of 4294836225 blocks, 320 GiB, before any address:
 * refused up front with the need and the largest launch that fits, not an
 * out-of-memory exit (the test assumes a machine with less than 320 GiB). */
static void test_locality_too_large(void **state)
{
    (void)state;
    const char *want[] = {"4294836225 thread blocks", "too large for a locality graph", "320.0 GiB",
                          "80 bytes a block", "at most ", NULL};
    cli_expect("", "locality ptx/locality.sm_80.O3.ptx -k mm --grid 65535,65535 --block 16,16 --arg buf:zero:16 "
           "--arg buf:zero:16 --arg buf:zero:16 --arg s32:2 --static-only", 1, want);
}

/* /dev/zero as a PTX file or as a buffer argument is refused at once as a
 * character device (it used to be read until memory ran out); PTX piped
 * to /dev/stdin is read. */
static void test_input_kinds(void **state)
{
    (void)state;
    const char *chr[] = {"cannot read", "is a character device", NULL};
    cli_expect("", "parse /dev/zero", 1, chr);
    cli_expect("", "run ptx/locality.sm_80.O3.ptx -k mm --grid 1 --block 1 --arg buf:/dev/zero --arg buf:zero:4 "
           "--arg buf:zero:4 --arg s32:1", 1, chr);
    const char *dir[] = {"is a directory", NULL};
    cli_expect("", "parse ptx", 1, dir);
    const char *piped[] = {"/dev/stdin: PTX", "kernel mm", NULL};
    cli_expect("cat ptx/locality.sm_80.O3.ptx |", "parse /dev/stdin", 0, piped);
}

/* simtlab exec --max-instructions takes a number of warp instructions (0:
 * no limit) and says so otherwise; its help gives the default. */
static void test_exec_budget_option(void **state)
{
    (void)state;
    const char *bad[] = {"--max-instructions needs a number of warp instructions", "not '1e9'", NULL};
    cli_expect("", "exec --max-instructions 1e9 -- true", 1, bad);
    const char *neg[] = {"not '-1'", NULL};
    cli_expect("", "exec --max-instructions -1 -- true", 1, neg);
    const char *help[] = {"--max-instructions N", "Default 2000000000", "0 = no limit", "SIMTLAB_MAX_INSTRUCTIONS",
                          NULL};
    cli_expect("", "exec --help", 0, help);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locality_too_large),
        cmocka_unit_test(test_input_kinds),
        cmocka_unit_test(test_exec_budget_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
