/* ptx_test.h — helpers shared by the cmocka tests that build modules from
 * PTX text (include after <cmocka.h>). */
#ifndef SIMTLAB_PTX_TEST_H
#define SIMTLAB_PTX_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* ptx_test_parse with simtlab's extensions of PTX accepted
 * (PTX_EXT_SIMTLAB). */
static inline ptx_module *ptx_test_parse_ext(const char *text)
{
    ptx_diags d = {0};
    ptx_parse_options opts = {.extensions = PTX_EXT_SIMTLAB};
    ptx_module *m = ptx_parse_string_opts(text, strlen(text), "test.ptx", &opts, &d);
    if (!m)
        ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    assert_non_null(m);
    return m;
}

/* The module header every test text starts with. */
#define PTX_TEST_HEADER ".version 9.0\n.target sm_90\n.address_size 64\n"

/* The declarations the instructions of testdata/isa/forms.txt and
 * modifier_orders.txt assume (see forms.txt's header): registers %r %rd %f
 * %fd %h %q %p, symbols gsym ssym csym tex1 samp1 surf1, labels L1 L2 bt1,
 * functions f0 f1, prototype proto1; instructions follow on line 31. */
#define PTX_TEST_ISA_PRELUDE                                                  \
    ".version 9.0\n.target sm_100a\n.address_size 64\n"                       \
    ".global .align 8 .b8 gsym[64];\n.shared .align 8 .b8 ssym[64];\n"        \
    ".const .align 8 .b8 csym[64];\n.global .texref tex1;\n"                  \
    ".global .samplerref samp1;\n.global .surfref surf1;\n"                   \
    ".func f0()\n{\n ret;\n}\n"                                               \
    ".func (.param .b32 r) f1(.param .b32 a)\n{\n ret;\n}\n"                  \
    ".entry k()\n{\n"                                                         \
    " .reg .b32 %r<32>;\n .reg .b64 %rd<32>;\n .reg .f32 %f<32>;\n"           \
    " .reg .f64 %fd<32>;\n .reg .b16 %h<32>;\n .reg .b128 %q<32>;\n"          \
    " .reg .pred %p<32>;\n"                                                   \
    " proto1: .callprototype (.param .b32 _) _ (.param .b32 _);\n"            \
    " bt1: .branchtargets L1, L2;\nL1:\nL2:\n"

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

/* Path of testdata/<rel>; the directory comes from SIMTLAB_TESTDATA, which
 * meson test sets. */
static inline void ptx_test_path(char *buf, size_t n, const char *rel)
{
    const char *root = getenv("SIMTLAB_TESTDATA");
    if (!root)
        fail_msg("SIMTLAB_TESTDATA is not set (run the tests through meson test)");
    if ((size_t)snprintf(buf, n, "%s/%s", root, rel) >= n)
        fail_msg("path too long: %s/%s", root, rel);
}

/* Load testdata/<rel> (PTX or a CUDA binary); prints the diagnostics and
 * fails the test when it does not load. */
static inline ptx_module *ptx_test_load(const char *rel)
{
    char path[4096];
    ptx_test_path(path, sizeof path, rel);
    ptx_diags d = {0};
    ptx_module *m = ptx_load_file(path, 0, &d);
    if (!m)
        ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    if (!m)
        fail_msg("cannot load %s", path);
    return m;
}

/* Called with each module ptx_test_each_file loads and the file's name. */
typedef void ptx_test_file_fn(const ptx_module *m, const char *name, void *ctx);

/* Load every file of testdata/<sub> whose name ends in `suffix` and pass it
 * to fn; a file that does not load fails the test. Returns the file count. */
static inline unsigned ptx_test_each_file(const char *sub, const char *suffix,
                                          ptx_test_file_fn *fn, void *ctx)
{
    char dir[4096];
    ptx_test_path(dir, sizeof dir, sub);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    unsigned n = 0;
    size_t slen = strlen(suffix);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < slen || strcmp(e->d_name + len - slen, suffix) != 0)
            continue;
        char rel[4096];
        snprintf(rel, sizeof rel, "%s/%s", sub, e->d_name);
        ptx_module *m = ptx_test_load(rel);
        fn(m, e->d_name, ctx);
        ptx_module_free(m);
        n++;
    }
    closedir(d);
    return n;
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

/* The function of m named name (fails the test if absent). */
static inline const ptx_function *ptx_test_function(const ptx_module *m, const char *name)
{
    for (uint32_t i = 0; i < m->nfunctions; i++)
        if (strcmp(ptx_function_name(m, &m->functions[i]), name) == 0)
            return &m->functions[i];
    fail_msg("no function %s", name);
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

/* Path of ptxas on PATH (to free), or NULL when there is none. */
static inline char *ptx_test_find_ptxas(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    char *copy = strdup(path), *save = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s/ptxas", dir);
        if (access(buf, X_OK) == 0) {
            free(copy);
            return strdup(buf);
        }
    }
    free(copy);
    return NULL;
}

/* Exit status of `ptxas -arch=ARCH FILE -o /dev/null` (-1 if it did not
 * exit); without `optimize` it runs with -O0 (what PTX it accepts does not
 * change, and it is many times faster); quiet keeps its messages off
 * stderr. */
static inline int ptx_test_run_ptxas(const char *ptxas, const char *arch, const char *file, bool optimize,
                                     bool quiet)
{
    pid_t pid = fork();
    if (pid == 0) {
        char archopt[64];
        snprintf(archopt, sizeof archopt, "-arch=%s", arch);
        if (quiet && !freopen("/dev/null", "w", stderr))
            _exit(127);
        if (optimize) /* ptxas's default: -O3, or none for debug (-G) PTX */
            execl(ptxas, "ptxas", archopt, file, "-o", "/dev/null", (char *)NULL);
        else
            execl(ptxas, "ptxas", archopt, "-O0", file, "-o", "/dev/null", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
