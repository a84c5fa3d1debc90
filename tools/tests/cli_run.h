/* cli_run.h — running the simtlab program from a test: what the CLI
 * tests share. Include after cmocka.h. */
#ifndef SIMTLAB_CLI_RUN_H
#define SIMTLAB_CLI_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

typedef struct run_result {
    int status;
    char *out; /* stdout and stderr together */
} run_result;

/* Run the shell command line `pre simtlab args` from the testdata
 * directory, capturing its output and exit status. */
static inline run_result cli_run(const char *pre, const char *args)
{
    const char *build = getenv("SIMTLAB_BUILDDIR"), *data = getenv("SIMTLAB_TESTDATA");
    if (!build || !data)
        fail_msg("SIMTLAB_BUILDDIR and SIMTLAB_TESTDATA must be set (run through meson test)");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s/tools/simtlab' %s 2>&1", data, pre, build, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0, got;
    run_result r = {-1, malloc(cap)};
    while ((got = fread(r.out + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (n + 1 == cap)
            r.out = realloc(r.out, cap *= 2);
    }
    r.out[n] = '\0';
    int st = pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

/* `pre simtlab args` exits with status and prints every string of want
 * (NULL-terminated). */
static inline void cli_expect(const char *pre, const char *args, int status, const char *const *want)
{
    run_result r = cli_run(pre, args);
    bool ok = r.status == status;
    for (const char *const *w = want; ok && *w; w++)
        ok = strstr(r.out, *w) != NULL;
    if (!ok) {
        print_message("simtlab %s: exit %d (want %d), output:\n%s\n", args, r.status, status, r.out);
        for (const char *const *w = want; *w; w++)
            print_message("  want: %s\n", *w);
        fail();
    }
    free(r.out);
}

/* The value of `name = N` in out (a statistics report). */
static inline uint64_t stat_of(const char *out, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, "%s = ", name);
    const char *p = strstr(out, key);
    if (!p)
        fail_msg("no '%s' in:\n%s", name, out);
    return strtoull(p + strlen(key), NULL, 10);
}

#endif
