/* ptx_test.h — helpers shared by the cmocka tests that build modules from
 * PTX text (include after <cmocka.h>). */
#ifndef SIMTLAB_PTX_TEST_H
#define SIMTLAB_PTX_TEST_H

#include <stdio.h>
#include <stdlib.h>
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

/* The module header every test text starts with. */
#define PTX_TEST_HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

/* Parse the kernel k(.param .u64 k_p0) with `body` after the usual register
 * declarations (%p<4>, %r<10>, %rd<10>, %f<10>, %fd<4>), preceded by the
 * module-scope declarations `pre`. */
static inline ptx_module *ptx_test_parse_body(const char *pre, const char *body)
{
    size_t n = strlen(pre) + strlen(body) + 512;
    char *text = malloc(n);
    assert_non_null(text);
    snprintf(text, n, PTX_TEST_HEADER "%s\n.visible .entry k(.param .u64 k_p0)\n{\n"
             ".reg .pred %%p<4>;\n.reg .b32 %%r<10>;\n.reg .b64 %%rd<10>;\n"
             ".reg .f32 %%f<10>;\n.reg .f64 %%fd<4>;\n%s\n}\n", pre, body);
    ptx_module *m = ptx_test_parse(text);
    free(text);
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
