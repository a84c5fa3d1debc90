/* locality_cmd.c — `simtlab locality`: the thread-block locality graphs of
 * one launch, from the static address trees and from the emulator's
 * access trace, compared (Tripathy, Ch. 4).
 *
 *   simtlab locality FILE -k KERNEL --grid .. --block .. --arg .. [--json]
 *                    [--heatmap PATH] [--line BYTES] [--top N] [--trees] [--static-only] */
#include "tools/locality_cmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/locality.h"
#include "ir/util.h"

enum { EXIT_OK = 0, EXIT_USER = 1 };

void locality_usage(FILE *out)
{
    fputs("usage: simtlab locality FILE -k KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--arg SPEC]...\n"
          "                        [--json] [--heatmap PATH] [--line BYTES] [--top N] [--trees]\n"
          "                        [--static-only] [--shared BYTES] [--its] [--threads N]\n"
          "Which thread blocks of one launch of KERNEL read the same data. The static graph\n"
          "comes from syntax trees of every global access's address over values known at\n"
          "launch, evaluated for every thread; the profiled graph from running the launch on\n"
          "the emulator and tracing its accesses. Vertices are thread blocks (x + y*gx +\n"
          "z*gx*gy); an edge's weight is the number of distinct addresses both blocks read.\n"
          "Launch options and --arg are those of simtlab run (see simtlab run --help).\n"
          "  --json            print JSON (schema simtlab-locality/1) instead of the summary\n"
          "  --heatmap PATH    write the static read graph's adjacency matrix as a picture\n"
          "                    (PNG when PATH ends in .png, else SVG)\n"
          "  --line BYTES      count shared cache lines of BYTES (a power of two) instead of\n"
          "                    element addresses\n"
          "  --top N           heaviest pairs to list (default 10)\n"
          "  --trees           print the address syntax trees first\n"
          "  --static-only     do not run the launch (no profiled graph)\n"
          "Exit status: 0 success (also when the graphs differ: see the summary), 1 bad input\n"
          "or a failed launch, 2 internal error.\n",
          out);
}

int locality_parse_option(locality_opts *o, const char *a, const char *v)
{
    if (strcmp(a, "--json") == 0)
        return o->json = true, 1;
    if (strcmp(a, "--trees") == 0)
        return o->trees = true, 1;
    if (strcmp(a, "--static-only") == 0)
        return o->static_only = true, 1;
    bool heat = strcmp(a, "--heatmap") == 0, line = strcmp(a, "--line") == 0, top = strcmp(a, "--top") == 0;
    if (!heat && !line && !top)
        return 0;
    if (!v) {
        fprintf(stderr, "simtlab locality: %s needs a value\n", a);
        return -1;
    }
    if (heat) {
        o->heatmap = v;
        return 2;
    }
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 0);
    if (end == v || *end || errno || n > (1ul << 30) || *v == '-' ||
        (line && (n == 0 || (n & (n - 1)) != 0))) {
        fprintf(stderr, "simtlab locality: bad %s '%s'%s\n", a, v, line ? " (a power of two)" : "");
        return -1;
    }
    if (line)
        o->line = (uint32_t)n;
    else
        o->top = (uint32_t)n;
    return 2;
}

int locality_run(const locality_opts *o, sim_device *d, sim_program *p, const ptx_module *m, const char *kernel,
                 const sim_launch_config *cfg, const void *params, uint32_t param_bytes)
{
    sim_locality_options lopt = {.line = o->line, .static_only = o->static_only};
    sim_locality l;
    char err[1024];
    int rc = EXIT_OK;
    if (sim_locality_launch(d, p, m, kernel, cfg, params, param_bytes, &lopt, &l, err, sizeof err) != 0) {
        fprintf(stderr, "simtlab locality: %s\n", err);
        rc = EXIT_USER;
    } else {
        if (o->trees)
            ptx_syntrees_print(&l.trees, o->json ? stderr : stdout);
        ptx_locality_report r;
        sim_locality_report(&l, kernel, cfg, o->line, &r);
        if (o->json)
            ptx_locality_write_json(&r, stdout);
        else
            ptx_locality_write_text(&r, o->top, stdout);
        if (o->heatmap) {
            char *title = ptx_format("%s: static read graph, %u thread blocks", kernel, l.static_reads.ntbs);
            if (ptx_locality_write_heatmap(&l.static_reads, title, o->heatmap, err, sizeof err) != 0) {
                fprintf(stderr, "simtlab locality: %s\n", err);
                rc = EXIT_USER;
            }
            free(title);
        }
    }
    sim_locality_free(&l);
    return rc;
}
