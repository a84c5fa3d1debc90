/* simtlab.c — the command-line program.
 *
 * One program, one subcommand per job. Every command that reads PTX also
 * reads CUDA binaries holding PTX (ptx_load_file). Exit status: 0 success,
 * 1 bad input or usage, 2 internal error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ir/ir.h"
#include "ir/printer.h"
#include "ir/util.h"
#include "parser/container.h"
#include "parser/parser.h"
#include "analysis/analysis.h"
#include "ir/cfg_export.h"
#include "tools/exec_cmd.h"
#include "tools/run_cmd.h"

#ifndef SIMTLAB_VERSION
#define SIMTLAB_VERSION "unknown"
#endif

enum { EXIT_OK = 0, EXIT_USER = 1, EXIT_INTERNAL = 2 };

typedef struct options {
    const char *file;
    const char *kernel;
    const char *outdir;
    unsigned arch;
    ptx_parse_options parse; /* --ptx-ext: extensions of PTX accepted */
    int dot, json;
    int control_dependence;
} options;

static void usage(FILE *out)
{
    fputs("usage: simtlab <command> [options] FILE\n"
          "\n"
          "commands:\n"
          "  parse FILE        check a .ptx file (or CUDA binary) and summarize it\n"
          "  print FILE        print the program as normalized PTX\n"
          "  cfg FILE          basic blocks and edges (--dot, --json, -k KERNEL)\n"
          "  analyze FILE      branches, reconvergence, loops, taint classes, register\n"
          "                    next access (--dot, --json, -k KERNEL)\n"
          "  extract FILE      list the PTX embedded in a CUDA binary (-o DIR writes it)\n"
          "  run FILE -k K ... emulate one launch of kernel K (--grid, --block, --arg ...)\n"
          "  locality FILE -k K ...  thread-block locality graphs of one launch (static and\n"
          "                    profiled; same launch options as run, plus --json, --heatmap)\n"
          "  sim FILE -k K ... simulate one launch on the cycle-level timing model (same\n"
          "                    launch options as run, plus --config PRESET|FILE, --set)\n"
          "  exec -- PROG ...  run a CUDA program (nvcc -cudart shared) on the emulator\n"
          "\n"
          "FILE may be PTX text, or an executable, shared object, object, .fatbin or\n"
          ".cubin built by nvcc; --arch sm_XX picks the embedded PTX (default: newest).\n"
          "Every command that reads PTX takes --ptx-ext simtlab, which accepts simtlab's\n"
          "own extensions of PTX (simtlab.cond_acc, simtlab.tree_traverse, ld's .rowhint;\n"
          "README.md); without it they are errors, as in any PTX tool.\n"
          "Run 'simtlab <command> --help' for a command's options.\n",
          out);
}

static void command_help(const char *cmd)
{
    if (strcmp(cmd, "parse") == 0)
        puts("usage: simtlab parse [--arch sm_XX] [--ptx-ext simtlab] FILE\n"
             "Parses FILE and prints its PTX version, target, and each kernel and function\n"
             "with its instruction and basic-block counts. Errors are printed as\n"
             "FILE:LINE:COL: error: MESSAGE and the exit status is 1.");
    else if (strcmp(cmd, "print") == 0)
        puts("usage: simtlab print [--arch sm_XX] [--ptx-ext simtlab] FILE\n"
             "Prints the parsed program as normalized PTX on standard output.\n"
             "--ptx-ext simtlab accepts (and prints) simtlab's extensions of PTX.");
    else if (strcmp(cmd, "cfg") == 0)
        puts("usage: simtlab cfg [--arch sm_XX] [--ptx-ext simtlab] [-k KERNEL] [--dot | --json] FILE\n"
             "Prints the basic blocks and edges of each kernel and function (or only\n"
             "KERNEL). --dot writes Graphviz with each block's PTX lines; --json writes\n"
             "{\"schema\":\"simtlab-cfg/1\",...}. Edge order: branch targets, then the\n"
             "fall-through block; block ids are in program order and the last one of\n"
             "each function is its virtual exit.");
    else if (strcmp(cmd, "analyze") == 0)
        puts("usage: simtlab analyze [--arch sm_XX] [--ptx-ext simtlab] [-k KERNEL] [--dot | --json]\n"
             "                       [--control-dependence] FILE\n"
             "Runs the static analyses on each kernel and function (or only KERNEL):\n"
             "every branch with its line, reconvergence point (immediate post-dominator),\n"
             "likely-convergence point, class (uniform, P or D taint), CTA uniformity and\n"
             "whether it is interleavable; natural loops and irreducible regions; register\n"
             "use and next-access hints. --json writes the annotations (schema\n"
             "simtlab-analysis/1, readable back with ptx_annotations_read_json); --dot draws\n"
             "the CFG with reconvergence edges dashed, likely-convergence edges dotted and\n"
             "branch blocks colored by class (green uniform, orange P, red D).\n"
             "--control-dependence makes values defined under divergent branches\n"
             "non-uniform too.");
    else if (strcmp(cmd, "extract") == 0)
        puts("usage: simtlab extract [-o DIR] FILE\n"
             "Lists the entries of the fatbins in a CUDA executable, shared object,\n"
             "object, .fatbin or .cubin: kind, architecture, compression, size. With -o,\n"
             "writes each PTX entry to DIR/NAME.compute_XX.ptx.");
}

/* Parse "sm_90", "compute_90" or "90" into 90; 0 on error. */
static unsigned parse_arch(const char *s)
{
    if (strncmp(s, "sm_", 3) == 0)
        s += 3;
    else if (strncmp(s, "compute_", 8) == 0)
        s += 8;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || (*end && *end != 'a' && *end != 'f') || v == 0 || v > 10000)
        return 0;
    return (unsigned)v;
}

/* Common option parsing; returns 0 on success, else an exit status. */
static int parse_options(const char *cmd, int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            command_help(cmd);
            return -1;
        } else if (strcmp(a, "--dot") == 0) {
            o->dot = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--control-dependence") == 0) {
            o->control_dependence = 1;
        } else if ((strcmp(a, "-k") == 0 || strcmp(a, "--kernel") == 0) && i + 1 < argc) {
            o->kernel = argv[++i];
        } else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) && i + 1 < argc) {
            o->outdir = argv[++i];
        } else if (strcmp(a, "--ptx-ext") == 0 && i + 1 < argc) {
            if (!ptx_ext_parse(argv[++i], &o->parse.extensions)) {
                fprintf(stderr, "simtlab %s: unknown --ptx-ext '%s' (the one extension is 'simtlab')\n", cmd,
                        argv[i]);
                return EXIT_USER;
            }
        } else if (strcmp(a, "--arch") == 0 && i + 1 < argc) {
            o->arch = parse_arch(argv[++i]);
            if (!o->arch) {
                fprintf(stderr, "simtlab %s: bad --arch '%s' (expected sm_XX)\n", cmd, argv[i]);
                return EXIT_USER;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "simtlab %s: unknown option '%s' (see simtlab %s --help)\n", cmd, a, cmd);
            return EXIT_USER;
        } else if (o->file) {
            fprintf(stderr, "simtlab %s: more than one input file ('%s' and '%s')\n", cmd,
                    o->file, a);
            return EXIT_USER;
        } else {
            o->file = a;
        }
    }
    if (!o->file) {
        fprintf(stderr, "simtlab %s: no input file (see simtlab %s --help)\n", cmd, cmd);
        return EXIT_USER;
    }
    if (o->dot && o->json) {
        fprintf(stderr, "simtlab %s: choose one of --dot and --json\n", cmd);
        return EXIT_USER;
    }
    return 0;
}

/* Load the input; on failure print diagnostics and return NULL. */
static ptx_module *load(const options *o)
{
    ptx_diags d = {0};
    ptx_module *m = ptx_load_file_opts(o->file, o->arch, &o->parse, &d);
    ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    return m;
}

static int cmd_parse(const options *o)
{
    ptx_module *m = load(o);
    if (!m)
        return EXIT_USER;
    printf("%s: PTX %u.%u, target", o->file, m->version_major, m->version_minor);
    for (uint32_t i = 0; i < m->ntargets; i++)
        printf("%s%s", i ? ", " : " ", ptx_str(m, m->targets[i]));
    if (m->address_size)
        printf(", address size %u", m->address_size);
    putchar('\n');
    uint64_t total = 0;
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!(f->flags & PTX_FUNCF_HAS_BODY))
            continue;
        printf("  %-6s %s: %u instructions, %u blocks\n",
               f->kind == PTX_FUNC_ENTRY ? "kernel" : "func", ptx_function_name(m, f),
               f->ninstrs, f->nblocks - 1);
        total += f->ninstrs;
    }
    printf("  total: %llu instructions\n", (unsigned long long)total);
    ptx_module_free(m);
    return EXIT_OK;
}

static int cmd_print(const options *o)
{
    ptx_module *m = load(o);
    if (!m)
        return EXIT_USER;
    ptx_print_module(m, stdout);
    ptx_module_free(m);
    return EXIT_OK;
}

static int cmd_cfg(const options *o)
{
    ptx_module *m = load(o);
    if (!m)
        return EXIT_USER;
    int rc = EXIT_OK;
    if (o->kernel && !ptx_cfg_has_function(m, o->kernel)) {
        fprintf(stderr, "simtlab cfg: no kernel or function named '%s' in %s\n", o->kernel, o->file);
        rc = EXIT_USER;
    } else if (o->json) {
        ptx_cfg_json(m, m->source_name, o->kernel, stdout);
    } else if (o->dot) {
        ptx_cfg_dot(m, o->kernel, stdout);
    } else {
        ptx_cfg_text(m, o->kernel, stdout);
    }
    ptx_module_free(m);
    return rc;
}

static int cmd_analyze(const options *o)
{
    ptx_module *m = load(o);
    if (!m)
        return EXIT_USER;
    if (o->kernel && !ptx_cfg_has_function(m, o->kernel)) {
        fprintf(stderr, "simtlab analyze: no kernel or function named '%s' in %s\n", o->kernel,
                o->file);
        ptx_module_free(m);
        return EXIT_USER;
    }
    ptx_analysis_options opt = {o->control_dependence != 0, o->kernel};
    ptx_annotations a;
    ptx_analyze_module(m, &opt, &a);
    if (o->json)
        ptx_annotations_write_json(&a, stdout);
    else if (o->dot)
        ptx_analysis_write_dot(m, &a, stdout);
    else
        ptx_annotations_write_text(&a, stdout);
    ptx_annotations_free(&a);
    ptx_module_free(m);
    return EXIT_OK;
}

static const char *compression_name(ptx_entry_compression c)
{
    return c == PTX_COMPRESS_ZSTD ? "zstd" : c == PTX_COMPRESS_LZ4 ? "lz4" : "none";
}

/* Base name of a path without directories or extension. */
static char *stem(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = strrchr(b, '.');
    return ptx_strndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

static int cmd_extract(const options *o)
{
    size_t size = 0;
    char *buf = ptx_read_file(o->file, &size);
    if (!buf) {
        fprintf(stderr, "%s: error: cannot read: %s\n", o->file, ptx_read_error(errno));
        return EXIT_USER;
    }
    ptx_container c;
    char err[256] = "";
    if (!ptx_container_is_binary((unsigned char *)buf, size)) {
        fprintf(stderr, "%s: error: not a CUDA binary (ELF or fatbin); it may already be PTX text\n",
                o->file);
        free(buf);
        return EXIT_USER;
    }
    if (ptx_container_read((unsigned char *)buf, size, &c, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s\n", o->file, err);
        free(buf);
        return EXIT_USER;
    }
    free(buf);
    int rc = EXIT_OK, nptx = 0;
    char *base = stem(o->file);
    if (o->outdir && mkdir(o->outdir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "simtlab extract: cannot create %s: %s\n", o->outdir, strerror(errno));
        rc = EXIT_USER;
    }
    printf("%s: %zu fatbin%s, %zu entr%s%s\n", o->file, c.nfatbins, c.nfatbins == 1 ? "" : "s",
           c.nentries, c.nentries == 1 ? "y" : "ies", c.is_cubin ? " (cubin: SASS only, no PTX)" : "");
    for (size_t i = 0; i < c.nentries && rc == EXIT_OK; i++) {
        const ptx_entry *e = &c.entries[i];
        int is_ptx = e->kind == PTX_ENTRY_PTX;
        printf("  [%zu] %-5s %s_%u", i, is_ptx ? "ptx" : "cubin", is_ptx ? "compute" : "sm", e->arch);
        if (is_ptx)
            printf("  PTX %u.%u", e->version_major, e->version_minor);
        printf("  %zu bytes (compression: %s, stored %zu)", e->size,
               compression_name(e->compression), e->compressed_size);
        if (e->name && e->name[0])
            printf("  %s", e->name);
        putchar('\n');
        if (!is_ptx || !o->outdir)
            continue;
        nptx++;
        char *path = ptx_format("%s/%s.compute_%u.ptx", o->outdir, base, e->arch);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(e->data, 1, e->size, f) != e->size || fclose(f) != 0) {
            fprintf(stderr, "simtlab extract: cannot write %s: %s\n", path, strerror(errno));
            rc = EXIT_USER;
        } else {
            printf("      wrote %s\n", path);
        }
        free(path);
    }
    if (o->outdir && rc == EXIT_OK && nptx == 0)
        fprintf(stderr, "simtlab extract: %s holds no PTX; rebuild with "
                        "-gencode arch=compute_XX,code=compute_XX\n", o->file);
    free(base);
    ptx_container_free(&c);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USER;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("simtlab %s\n", SIMTLAB_VERSION);
        return EXIT_OK;
    }
    if (strcmp(cmd, "run") == 0)
        return simtlab_run(argc - 2, argv + 2);
    if (strcmp(cmd, "locality") == 0)
        return simtlab_locality(argc - 2, argv + 2);
    if (strcmp(cmd, "sim") == 0)
        return simtlab_sim(argc - 2, argv + 2);
    if (strcmp(cmd, "exec") == 0)
        return simtlab_exec(argc - 2, argv + 2);
    static const struct { const char *name; int (*run)(const options *); } cmds[] = {
        {"parse", cmd_parse}, {"print", cmd_print}, {"cfg", cmd_cfg}, {"analyze", cmd_analyze},
        {"extract", cmd_extract},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(cmd, cmds[i].name) != 0)
            continue;
        options o;
        int rc = parse_options(cmd, argc - 2, argv + 2, &o);
        if (rc)
            return rc < 0 ? EXIT_OK : rc;
        return cmds[i].run(&o);
    }
    fprintf(stderr, "simtlab: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_USER;
}
