/* test_roundtrip.c — parse → print → parse over every PTX file in testdata.
 *
 * For each file: the first parse must succeed; the printed text must parse
 * to a structurally equal module (ptx_compare.h); printing that again must
 * give the same text (a fixed point). Where ptxas is installed, the printed
 * PTX of every file must also assemble with it — an independent check that
 * the printer writes valid PTX. Without ptxas that test is skipped. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ir/printer.h"
#include "parser/parser.h"
#include "ptx_compare.h"
#include "ptx_test.h"

typedef struct file_list { char **paths; size_t n; } file_list;

/* All *.ptx files of testdata/<sub> (sorted for stable output). */
static void collect(file_list *l, const char *root, const char *sub)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, sub);
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx") != 0)
            continue;
        char *p = malloc(strlen(dir) + n + 2);
        sprintf(p, "%s/%s", dir, e->d_name);
        l->paths = realloc(l->paths, (l->n + 1) * sizeof *l->paths);
        l->paths[l->n++] = p;
    }
    closedir(d);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static file_list testdata_files(void)
{
    file_list l = {0};
    const char *root = getenv("SIMTLAB_TESTDATA");
    if (!root)
        return l;
    collect(&l, root, "ptx");
    collect(&l, root, "hand");
    collect(&l, root, "bin");
    qsort(l.paths, l.n, sizeof *l.paths, by_name);
    return l;
}

static void free_list(file_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
}

static char *print_to_string(const ptx_module *m, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    ptx_print_module(m, f);
    fclose(f);
    return text;
}

static ptx_module *load_or_fail(const char *path)
{
    ptx_diags d = {0};
    ptx_module *m = ptx_load_file(path, 0, &d);
    if (!m)
        ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    return m;
}

static void test_every_file_round_trips(void **state)
{
    (void)state;
    file_list l = testdata_files();
    if (l.n == 0)
        fail_msg("no testdata files (SIMTLAB_TESTDATA unset or empty)");
    if (l.n < 30) {
        free_list(&l);
        fail_msg("expected at least 30 PTX files in testdata");
    }
    for (size_t i = 0; i < l.n; i++) {
        ptx_module *a = load_or_fail(l.paths[i]);
        if (!a)
            fail_msg("%s does not parse", l.paths[i]);
        size_t len1, len2;
        char *t1 = print_to_string(a, &len1);
        ptx_diags d = {0};
        ptx_module *b = ptx_parse_string(t1, len1, "printed", &d);
        if (!b) {
            ptx_diags_print(&d, stderr);
            fail_msg("printed form of %s does not parse", l.paths[i]);
        }
        char why[512] = "";
        if (!ptx_modules_equal(a, b, why, sizeof why))
            fail_msg("%s: reparsed module differs: %s", l.paths[i], why);
        char *t2 = print_to_string(b, &len2);
        if (len1 != len2 || memcmp(t1, t2, len1) != 0)
            fail_msg("%s: printing is not a fixed point", l.paths[i]);
        free(t1);
        free(t2);
        ptx_diags_free(&d);
        ptx_module_free(a);
        ptx_module_free(b);
    }
    free_list(&l);
}

/* sm_XX of the module's .target; ptxas 13 cannot assemble for targets older
 * than sm_75, so those are assembled for sm_75, and it no longer generates
 * 32-bit code, so 32-bit modules are only checked (-arch=compute_75). */
static void target_arch(const ptx_module *m, char *buf, size_t n)
{
    bool addr32 = m->address_size != 64; /* a module without .address_size is 32-bit */
    snprintf(buf, n, addr32 ? "compute_75" : "sm_75");
    if (addr32)
        return;
    for (uint32_t i = 0; i < m->ntargets; i++) {
        const char *t = ptx_str(m, m->targets[i]);
        unsigned v = 0;
        if (sscanf(t, "sm_%u", &v) == 1 && v >= 75)
            snprintf(buf, n, "%s", t);
    }
}

static void test_printed_ptx_assembles_with_ptxas(void **state)
{
    (void)state;
    char *ptxas = ptx_test_find_ptxas();
    file_list l = testdata_files();
    if (!ptxas) {
        free_list(&l);
        fprintf(stderr, "ptxas not found on PATH: skipping\n");
        skip();
    }
    if (l.n == 0)
        fail_msg("no testdata files (SIMTLAB_TESTDATA unset or empty)");
    char tmp[] = "/tmp/simtlab-rt-XXXXXX.ptx";
    int fd = mkstemps(tmp, 4);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < l.n; i++) {
        /* debug (-G) files take ptxas long; their syntax is covered by one of them */
        if (strstr(l.paths[i], ".G.ptx") && !strstr(l.paths[i], "arith_int"))
            continue;
        ptx_module *m = load_or_fail(l.paths[i]);
        assert_non_null(m);
        FILE *f = fopen(tmp, "w");
        ptx_print_module(m, f);
        fclose(f);
        char arch[32];
        target_arch(m, arch, sizeof arch);
        ptx_module_free(m);
        if (ptx_test_run_ptxas(ptxas, arch, tmp, true, false) != 0)
            fail_msg("ptxas rejects the printed form of %s (kept in %s)", l.paths[i], tmp);
    }
    unlink(tmp);
    free(ptxas);
    free_list(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_file_round_trips),
        cmocka_unit_test(test_printed_ptx_assembles_with_ptxas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
