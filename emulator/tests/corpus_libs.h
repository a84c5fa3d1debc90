/* corpus_libs.h — what the tests of the library-style corpus programs
 * (cub_block.cu, half_warp.cu) share: their five builds, kernels found by
 * name fragments (CUB's kernels carry the target in their mangled names),
 * and one cmocka test per kernel group, build and scheduling mode, so a
 * failure names exactly which of them broke. Include after emu_test.h. */
#ifndef SIMTLAB_CORPUS_LIBS_H
#define SIMTLAB_CORPUS_LIBS_H

#include <stdbool.h>

#include "emulator/tests/emu_test.h"

#define LIBS_NTARGETS 5

/* The build of target t: sm_75, sm_80, sm_90 and sm_100 at -O3, and sm_80
 * with -G (testdata/ptx/NAME.TARGET.ptx). */
static inline const char *libs_target(size_t t)
{
    static const char *const names[LIBS_NTARGETS] = {"sm_75.O3", "sm_80.O3", "sm_90.O3", "sm_100.O3",
                                                     "sm_80.G"};
    return names[t];
}

/* Whether target t is the -G build (calls, so no independent scheduling). */
static inline bool libs_debug(size_t t) { return strstr(libs_target(t), ".G") != NULL; }

/* The compute capability of target t times ten (75, 80, 90, 100). */
static inline int libs_sm(size_t t) { return atoi(libs_target(t) + 3); }

/* Open testdata/ptx/<name>.<target t>.ptx. */
static inline void libs_open(emu *e, const char *name, size_t t)
{
    char rel[128];
    snprintf(rel, sizeof rel, "ptx/%s.%s.ptx", name, libs_target(t));
    emu_open(e, rel);
}

/* The name of the one kernel (.entry) of e's module that starts with
 * prefix and contains fragment (NULL: any); fails the test unless exactly
 * one does. */
static inline const char *libs_kernel(const emu *e, const char *prefix, const char *fragment)
{
    const char *found = NULL;
    for (uint32_t f = 0; f < e->m->nfunctions; f++) {
        const ptx_function *fn = &e->m->functions[f];
        const char *name = ptx_str(e->m, e->m->symbols[fn->symbol].name);
        if (fn->kind != PTX_FUNC_ENTRY || strncmp(name, prefix, strlen(prefix)) != 0 ||
            (fragment && !strstr(name, fragment)))
            continue;
        if (found)
            fail_msg("kernels %s and %s both match %s...%s", found, name, prefix, fragment ? fragment : "");
        found = name;
    }
    if (!found)
        fail_msg("no kernel matches %s...%s", prefix, fragment ? fragment : "");
    return found;
}

/* One test: a kernel group run on one build in one scheduling mode. */
typedef struct libs_case {
    void (*run)(emu *e, size_t target, bool its, const char *where);
    const char *file;   /* corpus program: testdata/ptx/<file>.<target>.ptx */
    size_t target;
    bool its;           /* independent thread scheduling */
    char name[96];      /* "group target [its]" */
} libs_case;

/* The cmocka test body: open the build, run the group, close. */
static inline void libs_run_case(void **state)
{
    const libs_case *c = *state;
    emu e;
    libs_open(&e, c->file, c->target);
    c->run(&e, c->target, c->its, c->name);
    emu_close(&e);
}

/* A kernel group of a corpus program. */
typedef struct libs_group {
    const char *name;
    void (*run)(emu *e, size_t target, bool its, const char *where);
    bool optimized_only; /* its kernels are not in the -G build */
} libs_group;

/* Run every group of file on every build that has its kernels: with PDOM
 * stacks, and on the -O3 builds also with independent thread scheduling. */
static inline int libs_run_groups(const char *suite, const char *file, const libs_group *groups,
                                  size_t ngroups)
{
    size_t max = ngroups * LIBS_NTARGETS * 2, n = 0;
    libs_case *cases = calloc(max, sizeof *cases);
    struct CMUnitTest *tests = calloc(max, sizeof *tests);
    for (size_t g = 0; g < ngroups; g++)
        for (size_t t = 0; t < LIBS_NTARGETS; t++)
            for (int its = 0; its < 2; its++) {
                if ((its || groups[g].optimized_only) && libs_debug(t))
                    continue;
                libs_case *c = &cases[n];
                *c = (libs_case){groups[g].run, file, t, its, ""};
                snprintf(c->name, sizeof c->name, "%s %s%s", groups[g].name, libs_target(t),
                         its ? " its" : "");
                tests[n] = (struct CMUnitTest){c->name, libs_run_case, NULL, NULL, c};
                n++;
            }
    int rc = _cmocka_run_group_tests(suite, tests, n, NULL, NULL);
    free(tests);
    free(cases);
    return rc;
}

#endif
