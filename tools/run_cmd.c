/* run_cmd.c — `simtlab run`: emulate one kernel launch from the command
 * line.
 *
 *   simtlab run FILE -k KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--shared BYTES]
 *               [--arg SPEC]... [--print N:TYPE]... [--dump N:PATH]... [--stats]
 *               [--its] [--threads N] [--max-instructions N] [--cluster X[,Y[,Z]]]
 *               [--memcheck] [--arch sm_XX] [--ptx-ext simtlab]
 *
 * One --arg per kernel parameter, in order: a scalar TYPE:VALUE, or a
 * buffer (the parameter receives its device address): buf:PATH,
 * buf:zero:BYTES, buf:TYPE:v1,v2,..., buf:rand:BYTES:SEED. After the run
 * --print writes a buffer argument's values one per line and --dump its
 * raw bytes. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/locality.h"
#include "emulator/sim.h"
#include "ir/util.h"
#include "parser/parser.h"
#include "tools/locality_cmd.h"
#include "tools/run_cmd.h"
#include "tools/sim_cmd.h"

enum { EXIT_OK = 0, EXIT_USER = 1, EXIT_INTERNAL = 2 };

/* One --arg after parsing. */
typedef struct run_arg {
    const char *spec;
    bool is_buffer;
    ptx_type type;       /* scalar type, or the element type of a typed buffer */
    uint64_t value;      /* scalar bits */
    uint8_t *data;       /* buffer contents */
    uint64_t size;       /* buffer bytes */
    uint64_t addr;       /* buffer device address */
} run_arg;

/* A --print or --dump request. */
typedef struct run_out {
    uint32_t arg;
    const char *what; /* TYPE or PATH */
} run_out;

typedef struct run_opts {
    const char *cmd;     /* "run" or "locality" */
    locality_opts lo;    /* simtlab locality's own options */
    sim_cmd_opts so;     /* simtlab sim's own options */
    const char *file, *kernel;
    unsigned arch;
    ptx_parse_options parse; /* --ptx-ext: extensions of PTX accepted */
    sim_launch_config cfg;
    run_arg *args;
    uint32_t nargs, cap_args;
    run_out *prints, *dumps;
    uint32_t nprints, ndumps, cap_prints, cap_dumps;
    bool stats;
    bool memcheck; /* every access outside a live allocation is an error */
} run_opts;

static void run_usage(FILE *out)
{
    fputs("usage: simtlab run FILE -k KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--shared BYTES]\n"
          "                   [--arg SPEC]... [--print N:TYPE]... [--dump N:PATH]... [--stats]\n"
          "                   [--its] [--threads N] [--max-instructions N] [--cluster X[,Y[,Z]]]\n"
          "                   [--memcheck] [--arch sm_XX] [--ptx-ext simtlab]\n"
          "Emulates one launch of KERNEL from FILE (PTX or a CUDA binary with PTX).\n"
          "  --arg SPEC        one per kernel parameter, in order:\n"
          "                      TYPE:VALUE (u8 u16 u32 u64 s8 s16 s32 s64 b8 b16 b32 b64 f32 f64),\n"
          "                      e.g. u32:5 s32:-3 u64:0x10 f32:1.5;\n"
          "                    or a buffer whose device address the parameter receives:\n"
          "                      buf:PATH (a file's bytes), buf:zero:BYTES,\n"
          "                      buf:TYPE:v1,v2,... (typed values), buf:rand:BYTES:SEED\n"
          "  --shared BYTES    dynamic shared memory per block\n"
          "  --print N:TYPE    after the run, print buffer argument N (0-based) as TYPE values,\n"
          "                    one per line (floats: %.9g for f32, %.17g for f64)\n"
          "  --dump N:PATH     after the run, write buffer argument N's bytes to PATH\n"
          "  --stats           print instructions, SIMD utilization (mean active lanes per\n"
          "                    warp instruction), divergent branches per PTX line with the\n"
          "                    dynamic taint class of their predicate, and the speed\n"
          "  --its             independent thread scheduling (a program counter per thread,\n"
          "                    as on Volta and later: intra-warp locks complete); default:\n"
          "                    per-warp reconvergence stacks\n"
          "  --threads N       run blocks on N host threads: blocks wait, at their first global\n"
          "                    atomic, strong global access, gpu fence or malloc, for the blocks\n"
          "                    before them, so data-race-free programs get the results of one\n"
          "                    thread; plain loads and stores racing between blocks may differ.\n"
          "                    1 (the default) is deterministic for every program\n"
          "  --max-instructions N   stop after N warp instructions (endless loops)\n"
          "  --cluster X[,Y[,Z]]    blocks per thread block cluster (default: the kernel's\n"
          "                    .reqnctapercluster, else 1)\n"
          "  --memcheck        every global access outside a live allocation is an error, as\n"
          "                    under compute-sanitizer; without it an access outside the\n"
          "                    allocations but inside a mapped 2 MiB region (where a GPU\n"
          "                    performs it) proceeds with a warning, once per PTX line\n"
          "  --ptx-ext simtlab accept simtlab's own extensions of PTX in FILE\n"
          "                    (simtlab.cond_acc, simtlab.tree_traverse, ld's .rowhint)\n"
          "Exit status: 0 success, 1 bad input or a failed launch, 2 internal error.\n",
          out);
}

/* Parse "X[,Y[,Z]]" (each a positive 32-bit number). */
static bool parse_dim3(const char *s, sim_dim3 *d)
{
    unsigned long v[3] = {1, 1, 1};
    int n = 0;
    const char *p = s;
    while (n < 3) {
        char *end;
        errno = 0;
        v[n] = strtoul(p, &end, 0);
        if (end == p || errno || v[n] == 0 || v[n] > UINT32_MAX)
            return false;
        n++;
        if (*end == 0)
            break;
        if (*end != ',')
            return false;
        p = end + 1;
    }
    if (*p && n == 3 && strchr(p, ','))
        return false;
    d->x = (uint32_t)v[0];
    d->y = (uint32_t)v[1];
    d->z = (uint32_t)v[2];
    return true;
}

/* Parse an unsigned number (any base strtoull accepts). */
static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    if (*s == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno)
        return false;
    *out = v;
    return true;
}

/* A scalar type name (no leading dot), or PTX_TYPE_NONE. */
static ptx_type scalar_type(const char *name, size_t len)
{
    static const ptx_type ok[] = {PTX_TYPE_U8, PTX_TYPE_U16, PTX_TYPE_U32, PTX_TYPE_U64,
                                  PTX_TYPE_S8, PTX_TYPE_S16, PTX_TYPE_S32, PTX_TYPE_S64,
                                  PTX_TYPE_B8, PTX_TYPE_B16, PTX_TYPE_B32, PTX_TYPE_B64,
                                  PTX_TYPE_F32, PTX_TYPE_F64};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        const char *n = ptx_type_name(ok[i]);
        if (strlen(n) == len && strncmp(n, name, len) == 0)
            return ok[i];
    }
    return PTX_TYPE_NONE;
}

/* One value of type t from text into its little-endian bits. */
static bool parse_value(ptx_type t, const char *s, uint64_t *bits)
{
    char *end;
    errno = 0;
    unsigned w = ptx_type_bits(t);
    if (t == PTX_TYPE_F32 || t == PTX_TYPE_F64) {
        double v = strtod(s, &end);
        if (end == s || *end)
            return false;
        if (t == PTX_TYPE_F32) {
            float f = (float)v;
            uint32_t b;
            memcpy(&b, &f, 4);
            *bits = b;
        } else {
            memcpy(bits, &v, 8);
        }
        return true;
    }
    if (ptx_type_class(t) == 's') {
        long long v = strtoll(s, &end, 0);
        if (end == s || *end || errno)
            return false;
        if (w < 64 && (v < -(1ll << (w - 1)) || v > (1ll << (w - 1)) - 1))
            return false;
        *bits = w >= 64 ? (uint64_t)v : (uint64_t)v & ((1ull << w) - 1);
        return true;
    }
    if (*s == '-')
        return false;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno || (w < 64 && v >> w))
        return false;
    *bits = v;
    return true;
}

/* Read a whole file into a buffer. */
static uint8_t *read_all(const char *path, uint64_t *size)
{
    size_t n;
    char *data = ptx_read_file(path, &n);
    *size = n;
    return (uint8_t *)data;
}

/* The largest buffer --arg buf:zero / buf:rand makes: the host allocates
 * it whole, so a mistyped size must not exhaust the host's memory. */
#define ARG_BUFFER_LIMIT (1ull << 34)

/* Whether a buffer of size bytes is within ARG_BUFFER_LIMIT; prints the
 * error naming both when not. */
static bool buffer_size_ok(const char *cmd, const char *spec, uint64_t size)
{
    if (size <= ARG_BUFFER_LIMIT)
        return true;
    fprintf(stderr, "simtlab %s: bad --arg '%s' (a buffer of %" PRIu64 " bytes is over the limit of "
            "%llu bytes, 16 GiB)\n", cmd, spec, size, ARG_BUFFER_LIMIT);
    return false;
}

/* Parse one --arg SPEC into a. Prints the error and returns false. */
static bool parse_arg(const char *cmd, const char *spec, run_arg *a)
{
    memset(a, 0, sizeof *a);
    a->spec = spec;
    const char *colon = strchr(spec, ':');
    if (!colon) {
        fprintf(stderr, "simtlab %s: bad --arg '%s' (expected TYPE:VALUE or buf:...)\n", cmd, spec);
        return false;
    }
    if (strncmp(spec, "buf:", 4) != 0) {
        a->type = scalar_type(spec, (size_t)(colon - spec));
        if (a->type == PTX_TYPE_NONE || !parse_value(a->type, colon + 1, &a->value)) {
            fprintf(stderr, "simtlab %s: bad --arg '%s' (expected TYPE:VALUE with TYPE one of "
                            "u8 u16 u32 u64 s8 s16 s32 s64 b8 b16 b32 b64 f32 f64 and a value "
                            "that fits)\n", cmd, spec);
            return false;
        }
        return true;
    }
    a->is_buffer = true;
    const char *rest = spec + 4;
    if (strncmp(rest, "zero:", 5) == 0) {
        if (!parse_u64(rest + 5, &a->size)) {
            fprintf(stderr, "simtlab %s: bad --arg '%s' (buf:zero:BYTES)\n", cmd, spec);
            return false;
        }
        if (!buffer_size_ok(cmd, spec, a->size))
            return false;
        a->data = ptx_xcalloc(a->size ? a->size : 1, 1);
        return true;
    }
    if (strncmp(rest, "rand:", 5) == 0) {
        const char *c2 = strchr(rest + 5, ':');
        char num[32];
        uint64_t seed;
        size_t nl = c2 ? (size_t)(c2 - (rest + 5)) : 0;
        if (!c2 || nl == 0 || nl >= sizeof num) {
            fprintf(stderr, "simtlab %s: bad --arg '%s' (buf:rand:BYTES:SEED)\n", cmd, spec);
            return false;
        }
        memcpy(num, rest + 5, nl);
        num[nl] = 0;
        if (!parse_u64(num, &a->size) || !parse_u64(c2 + 1, &seed)) {
            fprintf(stderr, "simtlab %s: bad --arg '%s' (buf:rand:BYTES:SEED)\n", cmd, spec);
            return false;
        }
        if (!buffer_size_ok(cmd, spec, a->size))
            return false;
        a->data = ptx_xmalloc(a->size ? a->size : 1);
        uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1; /* xorshift64*, documented in --help */
        for (uint64_t i = 0; i < a->size; i++) {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            a->data[i] = (uint8_t)((x * 0x2545F4914F6CDD1Dull) >> 56);
        }
        return true;
    }
    const char *c2 = strchr(rest, ':');
    ptx_type t = c2 ? scalar_type(rest, (size_t)(c2 - rest)) : PTX_TYPE_NONE;
    if (t != PTX_TYPE_NONE) { /* buf:TYPE:v1,v2,... */
        unsigned eb = ptx_type_bits(t) / 8;
        uint32_t cap = 0;
        const char *p = c2 + 1;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char tok[128];
            uint64_t bits;
            if (len == 0 || len >= sizeof tok) {
                fprintf(stderr, "simtlab %s: bad value list in --arg '%s'\n", cmd, spec);
                return false;
            }
            memcpy(tok, p, len);
            tok[len] = 0;
            if (!parse_value(t, tok, &bits)) {
                fprintf(stderr, "simtlab %s: bad %s value '%s' in --arg '%s'\n", cmd, ptx_type_name(t),
                        tok, spec);
                return false;
            }
            PTX_GROW(a->data, cap, a->size + eb);
            memcpy(a->data + a->size, &bits, eb);
            a->size += eb;
            if (!comma)
                break;
            p = comma + 1;
        }
        a->type = t;
        return true;
    }
    a->data = read_all(rest, &a->size);
    if (!a->data) {
        fprintf(stderr, "simtlab %s: cannot read '%s' for --arg '%s': %s\n", cmd, rest, spec,
                ptx_read_error(errno));
        return false;
    }
    return true;
}

/* Parse "N:TEXT". */
static bool parse_out(const char *s, run_out *o)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (end == s || *end != ':' || !end[1] || errno || n > UINT32_MAX)
        return false;
    o->arg = (uint32_t)n;
    o->what = end + 1;
    return true;
}

/* Parse the command line into o; returns 0, -1 for --help, or an exit status. */
static int parse_run_opts(const char *cmd, int argc, char **argv, run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = cmd;
    bool locality = strcmp(cmd, "locality") == 0, timing = strcmp(cmd, "sim") == 0;
    o->lo.enabled = locality;
    o->so.enabled = timing;
    o->lo.top = 10;
    bool grid = false, block = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (locality)
                locality_usage(stdout);
            else if (timing)
                sim_cmd_usage(stdout);
            else
                run_usage(stdout);
            return -1;
        }
        if (locality) {
            int used = locality_parse_option(&o->lo, a, v);
            if (used < 0)
                return EXIT_USER;
            if (used) {
                i += used - 1;
                continue;
            }
        }
        if (timing) {
            int used = sim_cmd_parse_option(&o->so, a, v);
            if (used < 0)
                return EXIT_USER;
            if (used) {
                i += used - 1;
                continue;
            }
        }
        if (strcmp(a, "--stats") == 0) {
            o->stats = true;
            continue;
        }
        if (strcmp(a, "--its") == 0) {
            o->cfg.independent_scheduling = true;
            continue;
        }
        if (strcmp(a, "--memcheck") == 0) {
            o->memcheck = true;
            continue;
        }
        if (a[0] == '-' && !v) {
            fprintf(stderr, "simtlab %s: %s needs a value\n", o->cmd, a);
            return EXIT_USER;
        }
        if (strcmp(a, "-k") == 0 || strcmp(a, "--kernel") == 0) {
            o->kernel = v;
        } else if (strcmp(a, "--cluster") == 0) {
            if (!parse_dim3(v, &o->cfg.cluster)) {
                fprintf(stderr, "simtlab %s: bad %s '%s' (expected X[,Y[,Z]], positive)\n", o->cmd, a, v);
                return EXIT_USER;
            }
        } else if (strcmp(a, "--grid") == 0 || strcmp(a, "--block") == 0) {
            bool is_grid = a[2] == 'g';
            if (!parse_dim3(v, is_grid ? &o->cfg.grid : &o->cfg.block)) {
                fprintf(stderr, "simtlab %s: bad %s '%s' (expected X[,Y[,Z]], positive)\n", o->cmd, a, v);
                return EXIT_USER;
            }
            if (is_grid)
                grid = true;
            else
                block = true;
        } else if (strcmp(a, "--shared") == 0 || strcmp(a, "--threads") == 0 ||
                   strcmp(a, "--max-instructions") == 0) {
            uint64_t n;
            if (!parse_u64(v, &n) || (a[2] != 'm' && n > UINT32_MAX)) {
                fprintf(stderr, "simtlab %s: bad %s '%s'\n", o->cmd, a, v);
                return EXIT_USER;
            }
            if (a[2] == 's')
                o->cfg.dynamic_shared = (uint32_t)n;
            else if (a[2] == 't')
                o->cfg.host_threads = (uint32_t)n;
            else
                o->cfg.max_instructions = n;
        } else if (strcmp(a, "--arg") == 0) {
            PTX_GROW(o->args, o->cap_args, o->nargs + 1);
            if (!parse_arg(o->cmd, v, &o->args[o->nargs]))
                return EXIT_USER;
            o->nargs++;
        } else if (strcmp(a, "--print") == 0 || strcmp(a, "--dump") == 0) {
            bool pr = a[2] == 'p';
            run_out out;
            if (!parse_out(v, &out)) {
                fprintf(stderr, "simtlab %s: bad %s '%s' (expected N:%s)\n", o->cmd, a, v, pr ? "TYPE" : "PATH");
                return EXIT_USER;
            }
            if (pr) {
                PTX_GROW(o->prints, o->cap_prints, o->nprints + 1);
                o->prints[o->nprints++] = out;
            } else {
                PTX_GROW(o->dumps, o->cap_dumps, o->ndumps + 1);
                o->dumps[o->ndumps++] = out;
            }
        } else if (strcmp(a, "--ptx-ext") == 0) {
            if (!ptx_ext_parse(v, &o->parse.extensions)) {
                fprintf(stderr, "simtlab %s: unknown --ptx-ext '%s' (the one extension is 'simtlab')\n", o->cmd, v);
                return EXIT_USER;
            }
        } else if (strcmp(a, "--arch") == 0) {
            unsigned long n = 0;
            if (strncmp(v, "sm_", 3) == 0 || strncmp(v, "compute_", 8) == 0)
                n = strtoul(strchr(v, '_') + 1, NULL, 10);
            if (!n) {
                fprintf(stderr, "simtlab %s: bad --arch '%s' (expected sm_XX)\n", o->cmd, v);
                return EXIT_USER;
            }
            o->arch = (unsigned)n;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "simtlab %s: unknown option '%s' (see simtlab %s --help)\n", o->cmd, a, o->cmd);
            return EXIT_USER;
        } else if (o->file) {
            fprintf(stderr, "simtlab %s: more than one input file ('%s' and '%s')\n", o->cmd, o->file, a);
            return EXIT_USER;
        } else {
            o->file = a;
            continue;
        }
        i++;
    }
    if (!o->file || !o->kernel || !grid || !block) {
        fprintf(stderr, "simtlab %s: needs FILE, -k KERNEL, --grid and --block (see simtlab %s --help)\n", o->cmd, o->cmd);
        return EXIT_USER;
    }
    return 0;
}

/* Check the --arg list against the kernel's parameters and build the
 * parameter buffer (allocating and filling buffers). */
static int build_params(sim_device *d, sim_program *p, run_opts *o, uint8_t **buf, uint32_t *bytes)
{
    char err[512];
    uint32_t nparams;
    const sim_param_info *pi = sim_kernel_params(p, o->kernel, &nparams, bytes, err, sizeof err);
    if (!pi) {
        fprintf(stderr, "simtlab %s: %s\n", o->cmd, err);
        return EXIT_USER;
    }
    if (o->nargs != nparams) {
        fprintf(stderr, "simtlab %s: kernel %s takes %u parameter%s but %u --arg %s given\n", o->cmd,
                o->kernel, nparams, nparams == 1 ? "" : "s", o->nargs, o->nargs == 1 ? "was" : "were");
        return EXIT_USER;
    }
    *buf = ptx_xcalloc(*bytes ? *bytes : 1, 1);
    for (uint32_t i = 0; i < nparams; i++) {
        run_arg *a = &o->args[i];
        if (a->is_buffer) {
            if (pi[i].size != 8) {
                fprintf(stderr, "simtlab %s: --arg %u '%s' is a buffer but parameter %s is .%s "
                                "(%u bytes); buffers need a 64-bit parameter\n", o->cmd, i, a->spec,
                        pi[i].name, ptx_type_name((ptx_type)pi[i].type), pi[i].size);
                return EXIT_USER;
            }
            if (sim_malloc(d, a->size, a->spec, &a->addr, err, sizeof err) != 0 ||
                sim_memcpy_to_device(d, a->addr, a->data, a->size, err, sizeof err) != 0) {
                fprintf(stderr, "simtlab %s: %s\n", o->cmd, err);
                return EXIT_USER;
            }
            memcpy(*buf + pi[i].offset, &a->addr, 8);
            continue;
        }
        unsigned bytes_arg = ptx_type_bits(a->type) / 8;
        if (bytes_arg != pi[i].size) {
            fprintf(stderr, "simtlab %s: --arg %u '%s' is %u bytes but parameter %s is .%s (%u bytes)\n", o->cmd,
                    i, a->spec, bytes_arg, pi[i].name, ptx_type_name((ptx_type)pi[i].type), pi[i].size);
            return EXIT_USER;
        }
        memcpy(*buf + pi[i].offset, &a->value, bytes_arg);
    }
    return 0;
}

/* Print buffer argument out->arg as TYPE values, one per line. */
static int print_buffer(sim_device *d, const run_opts *o, const run_out *out)
{
    if (out->arg >= o->nargs || !o->args[out->arg].is_buffer) {
        fprintf(stderr, "simtlab %s: --print %u: argument %u is not a buffer\n", o->cmd, out->arg, out->arg);
        return EXIT_USER;
    }
    ptx_type t = scalar_type(out->what, strlen(out->what));
    if (t == PTX_TYPE_NONE) {
        fprintf(stderr, "simtlab %s: --print %u:%s: unknown type\n", o->cmd, out->arg, out->what);
        return EXIT_USER;
    }
    const run_arg *a = &o->args[out->arg];
    uint8_t *data = ptx_xmalloc(a->size ? a->size : 1);
    char err[256];
    if (sim_memcpy_from_device(d, data, a->addr, a->size, err, sizeof err) != 0) {
        fprintf(stderr, "simtlab %s: %s\n", o->cmd, err);
        free(data);
        return EXIT_INTERNAL;
    }
    unsigned eb = ptx_type_bits(t) / 8;
    for (uint64_t off = 0; off + eb <= a->size; off += eb) {
        uint64_t v = 0;
        memcpy(&v, data + off, eb);
        if (t == PTX_TYPE_F32) {
            float f;
            uint32_t b = (uint32_t)v;
            memcpy(&f, &b, 4);
            printf("%.9g\n", (double)f);
        } else if (t == PTX_TYPE_F64) {
            double f;
            memcpy(&f, &v, 8);
            printf("%.17g\n", f);
        } else if (ptx_type_class(t) == 's') {
            unsigned w = eb * 8;
            int64_t s = w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
            printf("%" PRId64 "\n", s);
        } else {
            printf("%" PRIu64 "\n", v);
        }
    }
    free(data);
    return 0;
}

/* Write buffer argument out->arg's bytes to a file. */
static int dump_buffer(sim_device *d, const run_opts *o, const run_out *out)
{
    if (out->arg >= o->nargs || !o->args[out->arg].is_buffer) {
        fprintf(stderr, "simtlab %s: --dump %u: argument %u is not a buffer\n", o->cmd, out->arg, out->arg);
        return EXIT_USER;
    }
    const run_arg *a = &o->args[out->arg];
    uint8_t *data = ptx_xmalloc(a->size ? a->size : 1);
    char err[256];
    int rc = 0;
    if (sim_memcpy_from_device(d, data, a->addr, a->size, err, sizeof err) != 0) {
        fprintf(stderr, "simtlab %s: %s\n", o->cmd, err);
        rc = EXIT_INTERNAL;
    } else {
        FILE *f = fopen(out->what, "wb");
        if (!f || fwrite(data, 1, a->size, f) != a->size || fclose(f) != 0) {
            fprintf(stderr, "simtlab %s: cannot write %s: %s\n", o->cmd, out->what, strerror(errno));
            rc = EXIT_USER;
        }
    }
    free(data);
    return rc;
}

/* The branches that split warps, by PTX line, with the dynamic taint
 * class of the predicate that split them. */
static void print_divergence(const ptx_module *m, const sim_profile *prof, FILE *out)
{
    for (uint32_t fi = 0; fi < m->nfunctions; fi++) {
        uint32_t n;
        const sim_instr_profile *ip = sim_profile_instrs(prof, fi, &n);
        const ptx_function *f = &m->functions[fi];
        for (uint32_t pc = 0; pc < n; pc++)
            if (ip[pc].divergent)
                fprintf(out, "stats: divergent branch at line %u (%s): %" PRIu64 " of %" PRIu64
                        " issues split; predicate from data %" PRIu64 ", programmatic %" PRIu64
                        ", untainted %" PRIu64 "\n", f->instrs[pc].line, ptx_function_name(m, f),
                        ip[pc].divergent, ip[pc].warp_execs, ip[pc].div_data, ip[pc].div_prog,
                        ip[pc].div_none);
    }
}

/* simtlab sim --lpc-profile: the launch run once on the functional
 * emulator with a profile, on a device of its own, so that the timed
 * launch starts from the memory the arguments describe. */
typedef struct lpc_profile_run {
    sim_device *d;
    sim_program *p;
    sim_profile *prof;
} lpc_profile_run;

/* Run o's launch of module m on a fresh device with fresh copies of the
 * buffer arguments (build_params leaves their addresses on that device:
 * call it before the timed device's build_params), counting CFG edges
 * into r->prof; its device printf output is dropped (the timed launch
 * prints it). The exit status. */
static int run_lpc_profile(run_opts *o, const ptx_module *m, lpc_profile_run *r)
{
    char err[1024];
    r->d = sim_device_new();
    sim_device_set_memcheck(r->d, o->memcheck);
    r->p = sim_program_new(r->d, m, err, sizeof err);
    if (!r->p) {
        fprintf(stderr, "simtlab %s: --lpc-profile: %s\n", o->cmd, err);
        return EXIT_USER;
    }
    uint8_t *params = NULL;
    uint32_t bytes = 0;
    int rc = build_params(r->d, r->p, o, &params, &bytes);
    FILE *devnull = rc == 0 ? fopen("/dev/null", "w") : NULL;
    if (rc == 0 && !devnull) {
        fprintf(stderr, "simtlab %s: --lpc-profile: cannot open /dev/null for the profiling run's printf "
                "output: %s\n", o->cmd, strerror(errno));
        rc = EXIT_INTERNAL;
    }
    if (rc == 0) {
        sim_launch_config cfg = o->cfg;
        sim_stats st;
        r->prof = sim_profile_new(r->p);
        cfg.profile = r->prof;
        cfg.printf_out = devnull;
        if (sim_launch(r->d, r->p, o->kernel, &cfg, params, bytes, &st, err, sizeof err) != 0) {
            fprintf(stderr, "simtlab %s: --lpc-profile: the profiling run failed: %s\n", o->cmd, err);
            rc = EXIT_USER;
        }
    }
    if (devnull)
        fclose(devnull);
    free(params);
    return rc;
}

/* simtlab sim --tb-profile: the launch's profiled locality graph, from a
 * run on the functional emulator on a device of its own with fresh copies
 * of the arguments (as run_lpc_profile; call it before the timed device's
 * build_params), into *g in *seconds of host time. The exit status. */
static int run_tb_profile(run_opts *o, const ptx_module *m, ptx_locality_graph *g, double *seconds)
{
    char err[1024];
    double t0 = ptx_wall_seconds();
    sim_device *d = sim_device_new();
    sim_device_set_memcheck(d, o->memcheck);
    sim_program *p = sim_program_new(d, m, err, sizeof err);
    uint8_t *params = NULL;
    uint32_t bytes = 0;
    int rc = p ? build_params(d, p, o, &params, &bytes) : EXIT_USER;
    if (!p)
        fprintf(stderr, "simtlab %s: --tb-profile: %s\n", o->cmd, err);
    FILE *devnull = rc == 0 ? fopen("/dev/null", "w") : NULL;
    if (rc == 0 && !devnull) {
        fprintf(stderr, "simtlab %s: --tb-profile: cannot open /dev/null for the profiling run's printf output: %s\n",
                o->cmd, strerror(errno));
        rc = EXIT_INTERNAL;
    }
    if (rc == 0) {
        sim_launch_config cfg = o->cfg;
        cfg.printf_out = devnull;
        sim_locality loc;
        sim_locality_options opt = {0};
        if (sim_locality_launch(d, p, m, o->kernel, &cfg, params, bytes, &opt, &loc, err, sizeof err) != 0) {
            fprintf(stderr, "simtlab %s: --tb-profile: the profiling run failed: %s\n", o->cmd, err);
            rc = EXIT_USER;
        } else {
            *g = loc.profiled_reads;
            loc.profiled_reads = (ptx_locality_graph){0};
        }
        sim_locality_free(&loc);
    }
    if (devnull)
        fclose(devnull);
    free(params);
    sim_program_free(p);
    sim_device_free(d);
    *seconds = ptx_wall_seconds() - t0;
    return rc;
}

/* Free what run_lpc_profile made. */
static void free_lpc_profile(lpc_profile_run *r)
{
    sim_profile_free(r->prof);
    sim_program_free(r->p);
    sim_device_free(r->d);
}

/* simtlab run and simtlab locality: parse, load, lay out the parameters,
 * then launch (run) or build the locality graphs (locality). */
static int run_main(const char *cmd, int argc, char **argv)
{
    run_opts o;
    int rc = parse_run_opts(cmd, argc, argv, &o);
    if (rc == 0) {
        ptx_diags diags = {0};
        ptx_module *m = ptx_load_file_opts(o.file, o.arch, &o.parse, &diags);
        ptx_diags_print(&diags, stderr);
        ptx_diags_free(&diags);
        if (!m) {
            rc = EXIT_USER;
        } else {
            char err[1024];
            sim_device *d = sim_device_new();
            sim_device_set_memcheck(d, o.memcheck);
            sim_program *p = sim_program_new(d, m, err, sizeof err);
            uint8_t *params = NULL;
            uint32_t bytes = 0;
            sim_stats st = {0};
            lpc_profile_run lp = {0};
            ptx_locality_graph tbg = {0};
            double tb_seconds = 0;
            if (!p) {
                fprintf(stderr, "simtlab %s: %s\n", o.cmd, err);
                rc = EXIT_USER;
            } else if (o.so.enabled && o.so.lpc_profile && (rc = run_lpc_profile(&o, m, &lp)) != 0) {
                /* reported */
            } else if (o.so.enabled && o.so.tb_profile && (rc = run_tb_profile(&o, m, &tbg, &tb_seconds)) != 0) {
                /* reported */
            } else if ((rc = build_params(d, p, &o, &params, &bytes)) == 0 && o.lo.enabled) {
                rc = locality_run(&o.lo, d, p, m, o.kernel, &o.cfg, params, bytes);
            } else if (rc == 0 && o.so.enabled) {
                rc = sim_cmd_run(&o.so, d, p, m, o.kernel, &o.cfg, params, bytes, lp.prof,
                                 o.so.tb_profile ? &tbg : NULL, tb_seconds);
                for (uint32_t i = 0; i < o.nprints && rc == 0; i++)
                    rc = print_buffer(d, &o, &o.prints[i]);
                for (uint32_t i = 0; i < o.ndumps && rc == 0; i++)
                    rc = dump_buffer(d, &o, &o.dumps[i]);
            } else if (rc == 0) {
                sim_profile *prof = o.stats ? sim_profile_new(p) : NULL;
                o.cfg.profile = prof;
                if (sim_launch(d, p, o.kernel, &o.cfg, params, bytes, &st, err, sizeof err) != 0) {
                    fprintf(stderr, "simtlab %s: %s\n", o.cmd, err);
                    rc = EXIT_USER;
                }
                for (uint32_t i = 0; i < o.nprints && rc == 0; i++)
                    rc = print_buffer(d, &o, &o.prints[i]);
                for (uint32_t i = 0; i < o.ndumps && rc == 0; i++)
                    rc = dump_buffer(d, &o, &o.dumps[i]);
                if (o.stats)
                    fprintf(rc ? stderr : stdout,
                            "stats: %" PRIu64 " blocks, %" PRIu64 " threads\n"
                            "stats: %" PRIu64 " warp instructions, %" PRIu64 " thread instructions\n"
                            "stats: SIMD utilization %.2f of 32 lanes per warp instruction\n"
                            "stats: %" PRIu64 " divergent branches\n"
                            "stats: %.3f s, %.1f M thread instructions/s\n",
                            st.ctas, st.threads, st.warp_instructions, st.thread_instructions,
                            st.warp_instructions ? (double)st.thread_instructions / (double)st.warp_instructions : 0.0,
                            st.divergent_branches, st.seconds,
                            st.seconds > 0 ? (double)st.thread_instructions / st.seconds / 1e6 : 0.0);
                if (prof)
                    print_divergence(m, prof, rc ? stderr : stdout);
                sim_profile_free(prof);
            }
            free(params);
            free_lpc_profile(&lp);
            ptx_locality_graph_free(&tbg);
            sim_program_free(p);
            sim_device_free(d);
            ptx_module_free(m);
        }
    }
    for (uint32_t i = 0; i < o.nargs; i++)
        free(o.args[i].data);
    free(o.args);
    free(o.prints);
    free(o.dumps);
    sim_cmd_free(&o.so);
    return rc < 0 ? EXIT_OK : rc;
}

int simtlab_run(int argc, char **argv) { return run_main("run", argc, argv); }

int simtlab_locality(int argc, char **argv) { return run_main("locality", argc, argv); }

int simtlab_sim(int argc, char **argv) { return run_main("sim", argc, argv); }
