/* test_cli_print_debug.c — `simtlab print` of the library-style corpus
 * programs' -G builds (CUB collectives, 16-bit warp code: DWARF sections,
 * .loc with inlined_at, many small .func) must assemble with ptxas, the
 * independent judge of valid PTX. test_roundtrip assembles the -O3 builds
 * and one -G file; these debug builds carry the library headers' debug
 * information, which the others do not. Skipped without ptxas. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

/* Status of the shell command cmd (-1 when it did not exit). */
static int shell(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_debug_builds_assemble(void **state)
{
    (void)state;
    const char *build = getenv("SIMTLAB_BUILDDIR"), *data = getenv("SIMTLAB_TESTDATA");
    if (!build || !data)
        fail_msg("SIMTLAB_BUILDDIR and SIMTLAB_TESTDATA must be set (run through meson test)");
    if (shell("command -v ptxas >/dev/null 2>&1") != 0) {
        fprintf(stderr, "ptxas not found on PATH: skipping\n");
        skip();
    }
    static const char *const files[] = {"cub_block.sm_80.G.ptx", "half_warp.sm_80.G.ptx"};
    char tmp[] = "/tmp/simtlab-printdbg-XXXXXX.ptx";
    int fd = mkstemps(tmp, 4);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "'%s/tools/simtlab' print '%s/ptx/%s' > '%s'", build, data, files[i], tmp);
        if (shell(cmd) != 0)
            fail_msg("simtlab print %s failed", files[i]);
        snprintf(cmd, sizeof cmd, "ptxas -arch=sm_80 '%s' -o /dev/null", tmp);
        if (shell(cmd) != 0)
            fail_msg("ptxas rejects the printed form of %s (kept in %s)", files[i], tmp);
    }
    unlink(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_debug_builds_assemble)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
