/* corpus_test.h — what the corpus tests share: every testdata CUDA
 * program is compiled for these targets (testdata/ptx/NAME.TARGET.ptx),
 * and each test runs its kernels on all of them. Include after
 * emu_test.h. */
#ifndef SIMTLAB_CORPUS_TEST_H
#define SIMTLAB_CORPUS_TEST_H

#include "emulator/tests/emu_test.h"

#define CORPUS_NARCHS 4

/* The name of target a: sm_75, sm_80 and sm_90 at -O3, and sm_80 with -G. */
static inline const char *corpus_arch(size_t a)
{
    static const char *const names[CORPUS_NARCHS] = {"sm_75.O3", "sm_80.O3", "sm_90.O3", "sm_80.G"};
    return names[a];
}

/* Open testdata/ptx/<name>.<target a>.ptx. */
static inline void corpus_open(emu *e, const char *name, size_t a)
{
    char rel[128];
    snprintf(rel, sizeof rel, "ptx/%s.%s.ptx", name, corpus_arch(a));
    emu_open(e, rel);
}

#endif
