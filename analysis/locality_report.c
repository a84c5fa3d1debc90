/* locality_report.c — locality graphs as text, JSON and heatmaps. */
#include "analysis/locality.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg_export.h"
#include "ir/util.h"

static int by_weight(const void *a, const void *b)
{
    const ptx_locality_edge *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

static void text_graph(const char *what, const ptx_locality_graph *g, unsigned top, FILE *out)
{
    ptx_locality_stats st;
    ptx_locality_stats_of(g, &st);
    fprintf(out, "%s: %" PRIu64 " edges, total weight %" PRIu64 ", SpScore %.6f\n", what, g->nedges,
            g->total_weight, st.spscore);
    fprintf(out, "  %" PRIu64 " distinct addresses read, %" PRIu64 " by two blocks or more (%.1f%%), "
                 "%" PRIu64 " sharing patterns\n", g->addresses, g->shared_addresses,
            g->addresses ? 100.0 * (double)g->shared_addresses / (double)g->addresses : 0.0, g->patterns);
    fprintf(out, "  blocks sharing with another: %u of %u; degree min %u, mean %.2f, max %u; "
                 "heaviest edge %" PRIu64 "\n", st.shared_tbs, g->ntbs, st.min_degree, st.mean_degree,
            st.max_degree, st.max_weight);
    if (!top || !g->nedges)
        return;
    uint64_t n = g->nedges < top ? g->nedges : top;
    ptx_locality_edge *e = ptx_xmalloc(g->nedges * sizeof *e);
    memcpy(e, g->edges, g->nedges * sizeof *e);
    qsort(e, g->nedges, sizeof *e, by_weight);
    fprintf(out, "  heaviest pairs:");
    for (uint64_t k = 0; k < n; k++)
        fprintf(out, " %u-%u:%" PRIu64, e[k].i, e[k].j, e[k].w);
    fputc('\n', out);
    free(e);
}

void ptx_locality_write_text(const ptx_locality_report *r, unsigned top, FILE *out)
{
    fprintf(out, "kernel %s, grid (%u,%u,%u), block (%u,%u,%u): %u thread blocks; addresses %s\n",
            r->kernel, r->grid[0], r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2],
            r->static_reads->ntbs, r->line ? "by line" : "by element");
    if (r->line)
        fprintf(out, "line size %u bytes\n", r->line);
    fprintf(out, "static analysis: reads %s, writes %s", r->reads_exact ? "exact" : "inexact",
            r->writes_exact ? "exact" : "inexact");
    if (r->inexact_reason)
        fprintf(out, " (%s, line %u)", r->inexact_reason, r->inexact_line);
    fprintf(out, "; %.3f s\n", r->static_seconds);
    text_graph("static read graph", r->static_reads, top, out);
    if (!r->profiled_reads)
        return;
    fprintf(out, "profiled launch: %.3f s\n", r->profiled_seconds);
    text_graph("profiled read graph", r->profiled_reads, top, out);
    ptx_locality_diff d;
    bool same = ptx_locality_compare(r->static_reads, r->profiled_reads, &d);
    if (same)
        fprintf(out, "static and profiled read graphs agree exactly\n");
    else
        fprintf(out, "static and profiled read graphs differ%s: %" PRIu64 " edges only static, %" PRIu64
                     " only profiled, %" PRIu64 " with different weights; first: %u-%u static %" PRIu64
                     ", profiled %" PRIu64 "\n", r->reads_exact ? " (the static graph claimed exactness)" : "",
                d.only_a, d.only_b, d.different, d.first_a.i, d.first_a.j, d.first_a.w, d.first_b.w);
    bool wsame = ptx_locality_compare(r->static_writes, r->profiled_writes, &d);
    fprintf(out, "write sharing: static %" PRIu64 " edges (weight %" PRIu64 "), profiled %" PRIu64
                 " edges (weight %" PRIu64 ")%s\n", r->static_writes->nedges, r->static_writes->total_weight,
            r->profiled_writes->nedges, r->profiled_writes->total_weight, wsame ? ", identical" : ", different");
}

static void json_graph(const ptx_locality_graph *g, FILE *out)
{
    ptx_locality_stats st;
    ptx_locality_stats_of(g, &st);
    fprintf(out, "\"graph_seconds\":%.6f,", g->seconds);
    fprintf(out, "\"edges\":%" PRIu64 ",\"total_weight\":%" PRIu64 ",\"addresses\":%" PRIu64
                 ",\"shared_addresses\":%" PRIu64 ",\"spscore\":%.9g,\"shared_tbs\":%u,\"max_degree\":%u,"
                 "\"edge_list\":[", g->nedges, g->total_weight, g->addresses, g->shared_addresses, st.spscore,
            st.shared_tbs, st.max_degree);
    for (uint64_t e = 0; e < g->nedges; e++)
        fprintf(out, "%s[%u,%u,%" PRIu64 "]", e ? "," : "", g->edges[e].i, g->edges[e].j, g->edges[e].w);
    fputc(']', out);
}

static void json_writes(const ptx_locality_graph *g, FILE *out)
{
    fprintf(out, ",\"writes\":{\"edges\":%" PRIu64 ",\"total_weight\":%" PRIu64 "}", g->nedges, g->total_weight);
}

void ptx_locality_write_json(const ptx_locality_report *r, FILE *out)
{
    fputs("{\"schema\":\"simtlab-locality/1\",\"kernel\":", out);
    ptx_json_string(r->kernel, out);
    fprintf(out, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"tbs\":%u,\"line_bytes\":%u,", r->grid[0],
            r->grid[1], r->grid[2], r->block[0], r->block[1], r->block[2], r->static_reads->ntbs, r->line);
    fprintf(out, "\"static\":{\"exact\":%s,\"writes_exact\":%s,\"inexact_reason\":",
            r->reads_exact ? "true" : "false", r->writes_exact ? "true" : "false");
    if (r->inexact_reason) {
        char *why = ptx_format("%s (line %u)", r->inexact_reason, r->inexact_line);
        ptx_json_string(why, out);
        free(why);
    } else {
        fputs("null", out);
    }
    fprintf(out, ",\"seconds\":%.6f,", r->static_seconds);
    json_graph(r->static_reads, out);
    json_writes(r->static_writes, out);
    fputs("},\"profiled\":", out);
    if (!r->profiled_reads) {
        fputs("null}\n", out);
        return;
    }
    fprintf(out, "{\"seconds\":%.6f,", r->profiled_seconds);
    json_graph(r->profiled_reads, out);
    json_writes(r->profiled_writes, out);
    ptx_locality_diff d;
    bool same = ptx_locality_compare(r->static_reads, r->profiled_reads, &d);
    fprintf(out, "},\"agreement\":{\"identical\":%s,\"only_static\":%" PRIu64 ",\"only_profiled\":%" PRIu64
                 ",\"different_weight\":%" PRIu64 "}}\n", same ? "true" : "false", d.only_a, d.only_b, d.different);
}

/* ---- heatmaps ---- */

/* The adjacency matrix summed into side x side cells (both triangles). */
static uint64_t *bucket(const ptx_locality_graph *g, uint32_t side, uint64_t *max)
{
    uint64_t *cells = ptx_xcalloc((size_t)side * side, sizeof *cells);
    *max = 0;
    for (uint64_t e = 0; e < g->nedges; e++) {
        uint32_t a = (uint32_t)((uint64_t)g->edges[e].i * side / g->ntbs);
        uint32_t b = (uint32_t)((uint64_t)g->edges[e].j * side / g->ntbs);
        cells[(size_t)a * side + b] += g->edges[e].w;
        if (a != b)
            cells[(size_t)b * side + a] += g->edges[e].w;
    }
    for (size_t i = 0; i < (size_t)side * side; i++)
        *max = cells[i] > *max ? cells[i] : *max;
    return cells;
}

/* White for 0, then light to dark blue as the square root of v / max. */
static void color(uint64_t v, uint64_t max, uint8_t rgb[3])
{
    if (!v || !max) {
        rgb[0] = rgb[1] = rgb[2] = 255;
        return;
    }
    double x = sqrt((double)v / (double)max);
    rgb[0] = (uint8_t)(220 - 212 * x);
    rgb[1] = (uint8_t)(230 - 182 * x);
    rgb[2] = (uint8_t)(250 - 130 * x);
}

static uint32_t crc32_of(const uint8_t *p, size_t n, uint32_t crc)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
    }
    return ~crc;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void chunk(FILE *f, const char *type, const uint8_t *data, uint32_t n)
{
    uint8_t head[8];
    put32(head, n);
    memcpy(head + 4, type, 4);
    uint32_t crc = crc32_of(head + 4, 4, 0);
    if (n)
        crc = crc32_of(data, n, crc);
    uint8_t tail[4];
    put32(tail, crc);
    fwrite(head, 1, 8, f);
    if (n)
        fwrite(data, 1, n, f);
    fwrite(tail, 1, 4, f);
}

/* An RGB PNG of the raw rows (filter byte + pixels), as a zlib stream of
 * stored (uncompressed) deflate blocks: no compression library needed. */
static void write_png(FILE *f, uint32_t w, uint32_t h, const uint8_t *raw, size_t n)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    fwrite(sig, 1, 8, f);
    uint8_t ihdr[13] = {0};
    put32(ihdr, w);
    put32(ihdr + 4, h);
    ihdr[8] = 8; /* bit depth */
    ihdr[9] = 2; /* RGB */
    chunk(f, "IHDR", ihdr, 13);
    size_t nblocks = n / 65535 + 1, zn = 2 + n + 5 * nblocks + 4, at = 0;
    uint8_t *z = ptx_xmalloc(zn);
    z[at++] = 0x78, z[at++] = 0x01;
    uint32_t s1 = 1, s2 = 0;
    for (size_t off = 0, b = 0; b < nblocks; b++) {
        uint32_t len = (uint32_t)(n - off < 65535 ? n - off : 65535);
        z[at++] = b + 1 == nblocks;
        z[at++] = (uint8_t)len, z[at++] = (uint8_t)(len >> 8);
        z[at++] = (uint8_t)~len, z[at++] = (uint8_t)(~len >> 8);
        memcpy(z + at, raw + off, len);
        for (uint32_t i = 0; i < len; i++) {
            s1 = (s1 + raw[off + i]) % 65521;
            s2 = (s2 + s1) % 65521;
        }
        at += len, off += len;
    }
    put32(z + at, s2 << 16 | s1);
    at += 4;
    for (size_t off = 0; off < at; off += 1u << 30) /* IDAT chunks of at most 1 GiB */
        chunk(f, "IDAT", z + off, (uint32_t)(at - off < (1u << 30) ? at - off : (1u << 30)));
    chunk(f, "IEND", NULL, 0);
    free(z);
}

static void heatmap_png(const ptx_locality_graph *g, FILE *f)
{
    uint32_t side = g->ntbs > 1024 ? 1024 : g->ntbs ? g->ntbs : 1;
    uint32_t scale = side >= 512 ? 1 : 512 / side, px = side * scale;
    uint64_t max;
    uint64_t *cells = bucket(g, side, &max);
    size_t stride = 1 + (size_t)px * 3, n = stride * px;
    uint8_t *raw = ptx_xmalloc(n);
    for (uint32_t y = 0; y < px; y++) {
        uint8_t *row = raw + (size_t)y * stride;
        row[0] = 0;
        for (uint32_t x = 0; x < px; x++)
            color(cells[(size_t)(y / scale) * side + x / scale], max, row + 1 + 3 * (size_t)x);
    }
    write_png(f, px, px, raw, n);
    free(raw);
    free(cells);
}

static void heatmap_svg(const ptx_locality_graph *g, const char *title, FILE *f)
{
    uint32_t side = g->ntbs > 256 ? 256 : g->ntbs ? g->ntbs : 1;
    double cell = 512.0 / side;
    uint64_t max;
    uint64_t *cells = bucket(g, side, &max);
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"592\" height=\"612\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n"
               "<text x=\"40\" y=\"18\">");
    for (const char *p = title; *p; p++) /* XML-escape the title */
        fputs(*p == '<' ? "&lt;" : *p == '>' ? "&gt;" : *p == '&' ? "&amp;" : (char[2]){*p, 0}, f);
    fprintf(f, "</text>\n<rect x=\"40\" y=\"40\" width=\"512\" height=\"512\" fill=\"white\" stroke=\"#888\"/>\n");
    for (uint32_t y = 0; y < side; y++)
        for (uint32_t x = 0; x < side; x++) {
            uint64_t v = cells[(size_t)y * side + x];
            if (!v)
                continue;
            uint8_t rgb[3];
            color(v, max, rgb);
            fprintf(f, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"#%02x%02x%02x\"/>\n",
                    40 + x * cell, 40 + y * cell, cell, cell, rgb[0], rgb[1], rgb[2]);
        }
    fprintf(f, "<text x=\"40\" y=\"572\">thread block 0 .. %u (both axes); darker: more shared addresses "
               "(max %" PRIu64 " per cell)</text>\n</svg>\n", g->ntbs ? g->ntbs - 1 : 0, max);
    free(cells);
}

int ptx_locality_write_heatmap(const ptx_locality_graph *g, const char *title, const char *path, char *err,
                               size_t errlen)
{
    size_t n = strlen(path);
    bool png = n >= 4 && strcmp(path + n - 4, ".png") == 0;
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    if (png)
        heatmap_png(g, f);
    else
        heatmap_svg(g, title, f);
    if (ferror(f) | (fclose(f) != 0)) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
