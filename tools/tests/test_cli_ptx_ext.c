/* test_cli_ptx_ext.c — the option --ptx-ext simtlab of every simtlab
 * command that reads PTX (simtlab's own extensions of PTX; README.md):
 * without it an extended module is refused with FILE:LINE:COL and the
 * option's name, with it parse, print, cfg, analyze, run and sim take it;
 * an unknown extension name is a usage error, also for exec. The input is
 * the committed PTX of table_scan's extended variant (cudart/database);
 * the error's position is that of its first simtlab.cond_acc, found here
 * in the file. */
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

#define FILE_EXT "cudart/database/table_scan_ext.sm_80.ptx"
#define KERNEL "_Z10table_scanPKijiPjS1_"

/* "FILE:LINE:COL" of the first simtlab.cond_acc of FILE_EXT. */
static void first_cond_acc(char *buf, size_t n)
{
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/" FILE_EXT, getenv("SIMTLAB_TESTDATA"));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    for (unsigned no = 1; fgets(line, sizeof line, f); no++) {
        char *at = strstr(line, "simtlab.cond_acc");
        if (at) {
            snprintf(buf, n, FILE_EXT ":%u:%u", no, (unsigned)(at - line) + 1);
            fclose(f);
            return;
        }
    }
    fail_msg("no simtlab.cond_acc in %s", path);
}

/* Without the option: the usual error, for every command reading PTX. */
static void test_refused_without_option(void **state)
{
    (void)state;
    char msg[512];
    first_cond_acc(msg, 128);
    strcat(msg, ": error: unknown instruction 'simtlab.cond_acc' (a simtlab extension of PTX, accepted with the "
                "option --ptx-ext simtlab)");
    const char *want[] = {msg, NULL};
    static const char *const cmds[] = {"parse", "print", "cfg", "analyze"};
    for (int i = 0; i < 4; i++) {
        char args[256];
        snprintf(args, sizeof args, "%s " FILE_EXT, cmds[i]);
        cli_expect("", args, 1, want);
    }
    cli_expect("", "run " FILE_EXT " -k " KERNEL " --grid 1 --block 32 --arg buf:zero:4 --arg u32:1 --arg s32:0 "
               "--arg buf:zero:4 --arg buf:zero:4", 1, want);
}

/* With it: every command takes the module; print writes the instruction
 * back. */
static void test_accepted_with_option(void **state)
{
    (void)state;
    const char *parse[] = {"kernel " KERNEL, NULL};
    cli_expect("", "parse --ptx-ext simtlab " FILE_EXT, 0, parse);
    const char *print[] = {"simtlab.cond_acc.shared.b32 \t%r", "], p, %r", NULL};
    cli_expect("", "print --ptx-ext simtlab " FILE_EXT, 0, print);
    const char *any[] = {KERNEL, NULL};
    cli_expect("", "cfg --ptx-ext simtlab " FILE_EXT, 0, any);
    cli_expect("", "analyze --ptx-ext simtlab --json " FILE_EXT, 0, any);
}

/* run and sim: 64 rows alternately -1 and 1, max_value 0: the 32 even
 * rows are selected (count, the fifth argument, printed first). */
static void test_run_and_sim(void **state)
{
    (void)state;
    char column[512] = "buf:s32:";
    for (int i = 0; i < 64; i++)
        strcat(column, i % 2 ? "1," : "-1,");
    column[strlen(column) - 1] = '\0';
    char args[1024];
    const char *want[] = {"32\n", NULL};
    static const char *const cmds[] = {"run", "sim --config QV100"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "%s --ptx-ext simtlab " FILE_EXT " -k " KERNEL " --grid 1 --block 256 "
                 "--arg %s --arg u32:64 --arg s32:0 --arg buf:zero:256 --arg buf:zero:4 --print 4:u32",
                 cmds[i], column);
        cli_expect("", args, 0, want);
    }
}

/* An extension simtlab does not know: a usage error naming it. */
static void test_unknown_extension(void **state)
{
    (void)state;
    const char *want[] = {"unknown --ptx-ext 'nvidia'", NULL};
    cli_expect("", "parse --ptx-ext nvidia " FILE_EXT, 1, want);
    cli_expect("", "run --ptx-ext nvidia " FILE_EXT " -k " KERNEL " --grid 1 --block 1", 1, want);
    cli_expect("", "exec --ptx-ext nvidia -- true", 1, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refused_without_option),
        cmocka_unit_test(test_accepted_with_option),
        cmocka_unit_test(test_run_and_sim),
        cmocka_unit_test(test_unknown_extension),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
