/* test_cudart_program.c — build one CUDA test program of testdata/cudart
 * with nvcc (-cudart shared, PTX only) and run it under `simtlab exec`.
 *
 *   test_cudart_program NAME SOURCE... [--exec OPTION]... [--stdout FILE] [--stderr TEXT]
 *                       [--arch compute_XX] [--nvcc FLAG]...
 *
 * --nvcc passes FLAG to nvcc (a -D macro choosing a program's variant).
 * The program checks its own results and prints "PASS NAME"; the test also
 * requires exit status 0, the exact standard output in FILE when given,
 * and TEXT somewhere in its standard error when given. Without nvcc the
 * test is skipped (exit status 77) with a message saying so, and so is it
 * when the program exits with 77 (it cannot check here what it is for and
 * says why on its standard error). In sanitizer
 * builds SIMTLAB_TEST_PRELOAD names the sanitizer runtimes to preload into
 * the program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir/util.h"

#define MAX_ARGS 32

typedef struct program_test {
    const char *name;
    const char *sources[8];
    int nsources;
    const char *exec_opts[8];
    int nexec;
    const char *expect_stdout, *expect_stderr;
    /* --locality FILE TEXT: run with simtlab exec --locality DIR and expect
     * DIR/FILE to contain TEXT and an exact static graph equal to the
     * profiled one */
    const char *locality_file, *locality_text;
    const char *arch; /* the virtual architecture the PTX is for (compute_80) */
    const char *nvcc_flags[8];
    int nflags;
    char nvcc[1024];
} program_test;

static program_test the_test;

/* Run argv with stdout and stderr sent to the files out and err, and
 * LD_PRELOAD set to preload when that is not NULL; returns the exit status
 * (or 128 + signal). */
static int run(char *const argv[], const char *out, const char *err, const char *preload)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
            _exit(126);
        if (preload)
            setenv("LD_PRELOAD", preload, 1);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The whole of file path as a string (empty when unreadable). */
static char *slurp(const char *path)
{
    size_t n;
    char *s = ptx_read_file(path, &n);
    return s ? s : ptx_strdup("");
}

/* nvcc from $NVCC, PATH or the toolkit's usual place; false if none. */
static bool find_nvcc(char *buf, size_t n)
{
    const char *env = getenv("NVCC");
    if (env && *env) {
        snprintf(buf, n, "%s", env);
        return access(buf, X_OK) == 0;
    }
    const char *path = getenv("PATH");
    char *dirs = ptx_strdup(path ? path : ""), *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(buf, n, "%s/nvcc", d);
        if (access(buf, X_OK) == 0) {
            free(dirs);
            return true;
        }
    }
    free(dirs);
    snprintf(buf, n, "/usr/local/cuda/bin/nvcc");
    return access(buf, X_OK) == 0;
}

/* Fail unless text (which may be missing) contains want. */
static void expect_in(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("the output lacks '%s':\n%s", want, text ? text : "(none)");
}

static void test_program(void **state)
{
    const program_test *t = &the_test;
    const char *data = getenv("SIMTLAB_TESTDATA"), *build = getenv("SIMTLAB_BUILDDIR");
    assert_non_null(data);
    assert_non_null(build);
    char dir[1024], exe[1100], out[1200], err[1200], inc[1100], simtlab[1100];
    snprintf(dir, sizeof dir, "%s/cudart-tests", build);
    mkdir(dir, 0755);
    /* tests of one program with different options may run at once */
    snprintf(exe, sizeof exe, "%s/%s.%ld", dir, t->name, (long)getpid());
    snprintf(out, sizeof out, "%s.stdout", exe);
    snprintf(err, sizeof err, "%s.stderr", exe);
    snprintf(inc, sizeof inc, "-I%s/cudart", data);
    snprintf(simtlab, sizeof simtlab, "%s/tools/simtlab", build);

    /* build */
    char *argv[MAX_ARGS];
    char *srcs[8];
    int n = 0;
    argv[n++] = (char *)t->nvcc;
    argv[n++] = "-cudart";
    argv[n++] = "shared";
    char gencode[64];
    snprintf(gencode, sizeof gencode, "arch=%s,code=%s", t->arch, t->arch);
    argv[n++] = "-gencode";
    argv[n++] = gencode;
    argv[n++] = inc;
    for (int i = 0; i < t->nflags; i++)
        argv[n++] = (char *)t->nvcc_flags[i];
    argv[n++] = "-o";
    argv[n++] = exe;
    for (int i = 0; i < t->nsources; i++)
        argv[n++] = srcs[i] = ptx_format("%s/cudart/%s", data, t->sources[i]);
    argv[n] = NULL;
    int rc = run(argv, out, err, NULL);
    for (int i = 0; i < t->nsources; i++)
        free(srcs[i]);
    if (rc != 0) {
        char *e = slurp(err);
        print_error("nvcc failed (%d):\n%s\n", rc, e);
        free(e);
        fail();
    }

    /* run under simtlab exec */
    n = 0;
    argv[n++] = simtlab;
    argv[n++] = "exec";
    char *ldir = NULL;
    if (t->locality_file) {
        ldir = ptx_format("%s/locality-%s-%d", build, t->name, (int)getpid());
        argv[n++] = "--locality";
        argv[n++] = ldir;
    }
    for (int i = 0; i < t->nexec; i++)
        argv[n++] = (char *)t->exec_opts[i];
    argv[n++] = "--";
    argv[n++] = exe;
    argv[n] = NULL;
    /* sanitizer builds: their runtimes must come first in the program,
     * which is not instrumented (nvcc must not get them) */
    rc = run(argv, out, err, getenv("SIMTLAB_TEST_PRELOAD"));
    char *o = slurp(out), *e = slurp(err), pass[128];
    if (rc == 77) { /* the program cannot check here what it is for: meson's skip */
        printf("SKIP: %s", e);
        exit(77);
    }
    snprintf(pass, sizeof pass, "PASS %s\n", t->name);
    if (rc != 0 || !strstr(o, pass))
        print_error("exit status %d\n--- stdout\n%s--- stderr\n%s", rc, o, e);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(o, pass));
    if (t->expect_stdout) {
        char path[1100];
        snprintf(path, sizeof path, "%s/cudart/%s", data, t->expect_stdout);
        char *want = slurp(path);
        assert_string_equal(o, want);
        free(want);
    }
    if (t->expect_stderr)
        expect_in(e, t->expect_stderr);
    if (ldir) { /* the graphs simtlab exec --locality wrote */
        char *path = ptx_format("%s/%s", ldir, t->locality_file);
        char *json = slurp(path);
        if (!json)
            fail_msg("simtlab exec --locality wrote no %s", path);
        expect_in(json, t->locality_text);
        expect_in(json, "\"static\":{\"exact\":true"); /* and the emulator agrees */
        expect_in(json, "\"agreement\":{\"identical\":true");
        free(json);
        unlink(path);
        free(path);
        char *cmd = ptx_format("rm -rf '%s'", ldir);
        assert_int_equal(system(cmd), 0);
        free(cmd);
        free(ldir);
    }
    free(o);
    free(e);
    unlink(exe); /* kept only when the test fails */
    unlink(out);
    unlink(err);
}

int main(int argc, char **argv)
{
    program_test *t = &the_test;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--exec") == 0 && i + 1 < argc && t->nexec < 8)
            t->exec_opts[t->nexec++] = argv[++i];
        else if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc)
            t->arch = argv[++i];
        else if (strcmp(argv[i], "--nvcc") == 0 && i + 1 < argc && t->nflags < 8)
            t->nvcc_flags[t->nflags++] = argv[++i];
        else if (strcmp(argv[i], "--stdout") == 0 && i + 1 < argc)
            t->expect_stdout = argv[++i];
        else if (strcmp(argv[i], "--stderr") == 0 && i + 1 < argc)
            t->expect_stderr = argv[++i];
        else if (strcmp(argv[i], "--locality") == 0 && i + 2 < argc)
            t->locality_file = argv[++i], t->locality_text = argv[++i];
        else if (!t->name)
            t->name = argv[i];
        else if (t->nsources < 8)
            t->sources[t->nsources++] = argv[i];
    }
    if (!t->arch)
        t->arch = "compute_80";
    if (!t->name || !t->nsources) {
        fprintf(stderr, "usage: %s NAME SOURCE... [--exec OPTION]... [--stdout FILE] [--stderr TEXT] [--arch compute_XX] "
                "[--nvcc FLAG]...\n", argv[0]);
        return 2;
    }
    if (!find_nvcc(t->nvcc, sizeof t->nvcc)) {
        printf("SKIP: nvcc not found (set NVCC or PATH): CUDA program %s not built or run\n", t->name);
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_program)};
    return cmocka_run_group_tests_name(t->name, tests, NULL, NULL);
}
