/* ptx_test.h — helpers shared by the cmocka tests that build modules from
 * PTX text (include after <cmocka.h>). */
#ifndef SIMTLAB_PTX_TEST_H
#define SIMTLAB_PTX_TEST_H

#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "parser/parser.h"

/* Parse a whole module; prints the diagnostics and fails the test on error. */
static inline ptx_module *ptx_test_parse(const char *text)
{
    ptx_diags d = {0};
    ptx_module *m = ptx_parse_string(text, strlen(text), "test.ptx", &d);
    if (!m)
        ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    assert_non_null(m);
    return m;
}

/* The first function with a body. */
static inline const ptx_function *ptx_test_kernel(const ptx_module *m)
{
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (m->functions[i].flags & PTX_FUNCF_HAS_BODY)
            return &m->functions[i];
    fail_msg("no function with a body");
    return NULL;
}

/* Register id of "<prefix><index>" (index PTX_NONE: a plain name). */
static inline uint32_t ptx_test_reg(const ptx_module *m, const ptx_function *f,
                                    const char *prefix, uint32_t index)
{
    for (uint32_t r = 0; r < f->nregs; r++)
        if (f->regs[r].index == index && strcmp(ptx_str(m, f->regs[r].name), prefix) == 0)
            return r;
    fail_msg("no register %s%u", prefix, index);
    return 0;
}

#endif
