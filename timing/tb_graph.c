/* tb_graph.c — the locality graph of a launch for the PAVER schedulers
 * (tb_graph.h): the static one, or one read from a file. */
#include "timing/tb_graph.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "emulator/internal.h"
#include "emulator/locality.h"
#include "ir/util.h"

/* Edges [[i, j, w], ...] of list into g (ntbs blocks), sorted by (i, j).
 * 0, or -1 with err naming file. */
static int read_edges(const json_t *list, uint32_t ntbs, const char *file, ptx_locality_graph *g, char *err,
                      size_t errlen)
{
    size_t n = json_array_size(list);
    *g = (ptx_locality_graph){.ntbs = ntbs};
    g->edges = malloc((n + 1) * sizeof *g->edges);
    if (!g->edges) {
        snprintf(err, errlen, "%s: out of memory for %zu edges", file, n);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        const json_t *e = json_array_get(list, k);
        json_int_t i = json_integer_value(json_array_get(e, 0)), j = json_integer_value(json_array_get(e, 1)),
                   w = json_integer_value(json_array_get(e, 2));
        if (json_array_size(e) != 3 || !json_is_integer(json_array_get(e, 0)) || !json_is_integer(json_array_get(e, 1)) ||
            !json_is_integer(json_array_get(e, 2)) || i < 0 || j < 0 || i >= (json_int_t)ntbs || j >= (json_int_t)ntbs ||
            i == j || w < 0) {
            snprintf(err, errlen, "%s: edge %zu is not [i, j, weight] of two different blocks below %u and a "
                     "weight of at least 0", file, k, ntbs);
            ptx_locality_graph_free(g);
            return -1;
        }
        g->edges[g->nedges++] = (ptx_locality_edge){(uint32_t)(i < j ? i : j), (uint32_t)(i < j ? j : i), (uint64_t)w};
        g->total_weight += (uint64_t)w;
    }
    return 0;
}

/* The graph of a simtlab-locality/1 file for kernel `name` on a grid of
 * ntbs blocks. */
static int read_file(const char *file, const char *name, uint64_t ntbs, ptx_locality_graph *g, tm_tb_graph_info *info,
                     char *err, size_t errlen)
{
    json_error_t je;
    json_t *root = json_load_file(file, 0, &je);
    if (!root) {
        snprintf(err, errlen, "-simtlab_tb_graph %s:%d:%d: %s", file, je.line, je.column, je.text);
        return -1;
    }
    int rc = -1;
    const char *schema = json_string_value(json_object_get(root, "schema"));
    const char *kernel = json_string_value(json_object_get(root, "kernel"));
    json_t *tbs = json_object_get(root, "tbs"), *prof = json_object_get(root, "profiled"),
           *stat = json_object_get(root, "static");
    json_t *use = json_is_object(prof) && json_object_get(prof, "edge_list") ? prof : stat;
    if (!schema || strcmp(schema, "simtlab-locality/1") != 0)
        snprintf(err, errlen, "-simtlab_tb_graph %s: not a simtlab-locality/1 file (`simtlab locality --json`)", file);
    else if (!kernel || strcmp(kernel, name) != 0)
        snprintf(err, errlen, "-simtlab_tb_graph %s: a graph of kernel %s, not of %s", file, kernel ? kernel : "(none)",
                 name);
    else if (!json_is_integer(tbs) || (uint64_t)json_integer_value(tbs) != ntbs)
        snprintf(err, errlen, "-simtlab_tb_graph %s: a graph of %lld blocks, the launch has %llu", file,
                 (long long)json_integer_value(tbs), (unsigned long long)ntbs);
    else if (!json_is_object(use) || !json_is_array(json_object_get(use, "edge_list")))
        snprintf(err, errlen, "-simtlab_tb_graph %s: no edge_list in \"profiled\" or \"static\"", file);
    else if (read_edges(json_object_get(use, "edge_list"), (uint32_t)ntbs, file, g, err, errlen) == 0) {
        info->source = use == prof ? "file (profiled)" : "file (static)";
        info->exact = use == prof || json_is_true(json_object_get(stat, "exact"));
        rc = 0;
    }
    json_decref(root);
    return rc;
}

/* Order edges by (i, j), as the builder leaves them. */
static int edge_order(const void *a, const void *b)
{
    const ptx_locality_edge *x = a, *y = b;
    return x->i != y->i ? (x->i > y->i) - (x->i < y->i) : (x->j > y->j) - (x->j < y->j);
}

int tm_tb_graph_get(const char *source, uint64_t launch, sim_device *d, sim_program *p, const char *name,
                    const sim_launch_config *cfg, const void *params, uint32_t param_bytes, ptx_locality_graph *g,
                    tm_tb_graph_info *info, char *err, size_t errlen)
{
    uint64_t ntbs = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    double t0 = ptx_wall_seconds();
    *info = (tm_tb_graph_info){0};
    if (ntbs > UINT32_MAX) {
        snprintf(err, errlen, "a locality graph of %llu blocks: at most 2^32 - 1", (unsigned long long)ntbs);
        return -1;
    }
    if (strcmp(source, "static") != 0) {
        struct stat sb;
        char *path = stat(source, &sb) == 0 && S_ISDIR(sb.st_mode)
                         ? ptx_format("%s/%04llu-%.120s.json", source, (unsigned long long)launch, name)
                         : ptx_format("%s", source);
        int rc = read_file(path, name, ntbs, g, info, err, errlen);
        free(path);
        if (rc != 0)
            return -1;
        qsort(g->edges, g->nedges, sizeof *g->edges, edge_order);
        for (uint64_t e = 1; e < g->nedges; e++)
            if (g->edges[e].i == g->edges[e - 1].i && g->edges[e].j == g->edges[e - 1].j) {
                snprintf(err, errlen, "-simtlab_tb_graph %s: the pair %u-%u appears twice", source, g->edges[e].i,
                         g->edges[e].j);
                ptx_locality_graph_free(g);
                return -1;
            }
        info->seconds = ptx_wall_seconds() - t0;
        return 0;
    }
    sim_locality loc;
    sim_locality_options opt = {.static_only = true};
    if (sim_locality_launch(d, p, p->m, name, cfg, params, param_bytes, &opt, &loc, err, errlen) != 0) {
        sim_locality_free(&loc);
        return -1;
    }
    *g = loc.static_reads;
    loc.static_reads = (ptx_locality_graph){0};
    *info = (tm_tb_graph_info){.source = "static", .exact = loc.trees.reads_exact && !loc.eval.stopped_threads,
                               .seconds = loc.static_seconds};
    sim_locality_free(&loc);
    return 0;
}
