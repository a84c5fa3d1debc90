/* sim_cmd.c — `simtlab sim`: one launch on the cycle-level timing model
 * (timing/gpu.h), with a GPGPU-Sim configuration or preset, optional
 * annotations, and the statistics report (timing/report.h): GPGPU-Sim's
 * statistics lines or JSON, and optionally the per-PTX-line profile. */
#include "tools/sim_cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "ir/util.h"
#include "timing/gpu.h"
#include "timing/report.h"

enum { EXIT_OK = 0, EXIT_USER = 1, EXIT_INTERNAL = 2 };

void sim_cmd_usage(FILE *out)
{
    fputs("usage: simtlab sim FILE -k KERNEL --grid X[,Y[,Z]] --block X[,Y[,Z]] [--shared BYTES]\n"
          "                   [--arg SPEC]... [--print N:TYPE]... [--dump N:PATH]...\n"
          "                   --config PRESET|FILE [--set -OPTION=VALUE]... [--annotations FILE]\n"
          "                   [--json] [--lines N] [--max-cycles N] [--threads N] [--lpc-profile]\n"
          "                   [--tb-profile]\n"
          "Simulates one launch of KERNEL from FILE on the cycle-level timing model; the\n"
          "results are the emulator's (simtlab run), the time the model's. The launch is\n"
          "described as for simtlab run (see simtlab run --help for --arg, --print, --dump).\n"
          "  --config P|FILE   a preset (QV100, GTX480, FX5800, TITANV, TITANX, H100,\n"
          "                    RHU_DPE, RHU_TBC, RHU_LAMAR, RHU_PCA, NARASIMAN, NARASIMAN_DB,\n"
          "                    TURNER) or a GPGPU-Sim gpgpusim.config file\n"
          "  --set -OPT=VAL    override one option after the configuration (repeatable),\n"
          "                    e.g. --set -gpgpu_scheduler=lrr --set -simtlab_simt=its\n"
          "  --annotations F   reconvergence points from F (simtlab analyze --json, perhaps\n"
          "                    edited) instead of the ones computed from FILE\n"
          "  --lpc-profile     pick the likely-convergence points that -simtlab_simt=pdom-lpc\n"
          "                    uses from a profile instead of the static rule (loop latches):\n"
          "                    the launch first runs once on the functional emulator, on a\n"
          "                    device of its own with the same arguments (the timed launch\n"
          "                    starts from the same memory), counting the threads on each\n"
          "                    CFG edge; each divergent branch's point is the block where most\n"
          "                    threads of its two sides are expected to meet before its\n"
          "                    immediate post-dominator. Functions the profiling run executed\n"
          "                    get these points in place of the static ones or those of\n"
          "                    --annotations; other mechanisms ignore them\n"
          "  --tb-profile      the thread-block schedulers mst, kway and rb (-simtlab_tb_sched)\n"
          "                    group blocks by the launch's profiled locality graph: the\n"
          "                    launch first runs once on the functional emulator, on a device\n"
          "                    of its own with the same arguments, recording the addresses\n"
          "                    each block reads (simtlab locality's profiled graph)\n"
          "  --json            the statistics as JSON (schema simtlab-sim/1), with the\n"
          "                    per-PTX-line profile under \"lines\"\n"
          "  --lines N         after the statistics, the N PTX instructions with the most\n"
          "                    issues + stall cycles (0: all) as a table\n"
          "  --max-cycles N    stop after N core cycles (as -gpgpu_max_cycle)\n"
          "  --threads N       simulate the SMs and memory partitions on N host threads (as\n"
          "                    -simtlab_threads, which wins when set); statistics and results\n"
          "                    are the same for every N\n"
          "Exit status: 0 success, 1 bad input, a failed launch or a model error\n"
          "(deadlock, cycle limit), 2 internal error.\n",
          out);
}

int sim_cmd_parse_option(sim_cmd_opts *o, const char *a, const char *v)
{
    if (strcmp(a, "--json") == 0) {
        o->json = true;
        return 1;
    }
    if (strcmp(a, "--lpc-profile") == 0) {
        o->lpc_profile = true;
        return 1;
    }
    if (strcmp(a, "--tb-profile") == 0) {
        o->tb_profile = true;
        return 1;
    }
    bool known = strcmp(a, "--config") == 0 || strcmp(a, "--set") == 0 || strcmp(a, "--annotations") == 0 ||
                 strcmp(a, "--max-cycles") == 0 || strcmp(a, "--lines") == 0;
    if (!known)
        return 0;
    if (!v) {
        fprintf(stderr, "simtlab sim: %s needs a value\n", a);
        return -1;
    }
    if (strcmp(a, "--config") == 0) {
        o->config = v;
    } else if (strcmp(a, "--set") == 0) {
        PTX_GROW(o->sets, o->cap_sets, o->nsets + 1);
        o->sets[o->nsets++] = v;
    } else if (strcmp(a, "--annotations") == 0) {
        o->annotations = v;
    } else if (strcmp(a, "--lines") == 0) {
        char *end;
        unsigned long long n = strtoull(v, &end, 10);
        if (!*v || *end || *v == '-' || n > UINT32_MAX) {
            fprintf(stderr, "simtlab sim: bad --lines '%s' (a count of PTX lines, 0 for all)\n", v);
            return -1;
        }
        o->lines = (uint32_t)n;
        o->lines_set = true;
    } else {
        char *end;
        o->max_cycles = strtoull(v, &end, 0);
        if (*end || !o->max_cycles) {
            fprintf(stderr, "simtlab sim: bad --max-cycles '%s' (a positive number)\n", v);
            return -1;
        }
    }
    return 2;
}

void sim_cmd_free(sim_cmd_opts *o) { free(o->sets); }

/* Apply the annotation file to program p; the exit status. */
static int use_annotations(const char *path, sim_program *p)
{
    size_t len;
    char *text = ptx_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "simtlab sim: cannot read %s: %s\n", path, ptx_read_error(errno));
        return EXIT_USER;
    }
    (void)len; /* the text is NUL-terminated; the JSON reader finds its end */
    ptx_annotations a;
    char err[512];
    int rc = EXIT_OK;
    if (ptx_annotations_read_json(text, &a, err, sizeof err) != 0) {
        fprintf(stderr, "simtlab sim: %s: %s\n", path, err);
        rc = EXIT_USER;
    } else {
        if (sim_program_use_annotations(p, &a, err, sizeof err) != 0) {
            fprintf(stderr, "simtlab sim: %s: %s\n", path, err);
            rc = EXIT_USER;
        }
        ptx_annotations_free(&a);
    }
    free(text);
    return rc;
}

int sim_cmd_run(const sim_cmd_opts *o, sim_device *d, sim_program *p, const ptx_module *m, const char *kernel,
                const sim_launch_config *cfg, const void *params, uint32_t param_bytes,
                const sim_profile *lpc_profile, ptx_locality_graph *tb_graph, double tb_seconds)
{
    (void)m;
    if (!o->config) {
        fprintf(stderr, "simtlab sim: needs --config PRESET|FILE (see simtlab sim --help)\n");
        return EXIT_USER;
    }
    if (cfg->independent_scheduling) {
        fprintf(stderr, "simtlab sim: use --set -simtlab_simt=its for independent thread scheduling\n");
        return EXIT_USER;
    }
    char err[1024];
    tm_config tc;
    if (tm_config_load(&tc, o->config, stderr, err, sizeof err) != 0) {
        fprintf(stderr, "simtlab sim: %s\n", err);
        return EXIT_USER;
    }
    for (uint32_t i = 0; i < o->nsets; i++)
        if (tm_config_set(&tc, o->sets[i], stderr, err, sizeof err) != 0) {
            fprintf(stderr, "simtlab sim: --set %s: %s\n", o->sets[i], err);
            return EXIT_USER;
        }
    if (o->max_cycles)
        tc.max_cycle = o->max_cycles;
    if (o->annotations) {
        int rc = use_annotations(o->annotations, p);
        if (rc)
            return rc;
    }
    if (lpc_profile) {
        int n = sim_program_profile_lpc(p, lpc_profile, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "simtlab sim: --lpc-profile: %s\n", err);
            return EXIT_INTERNAL; /* the profile is of this very module */
        }
        fprintf(stderr, "simtlab sim: likely-convergence points from the profile: %d branch%s%s\n", n,
                n == 1 ? "" : "es", strcmp(tc.simt, "pdom-lpc") == 0 ? "" : " (unused: -simtlab_simt is not pdom-lpc)");
    }
    tm_gpu *gpu = tm_gpu_new(&tc, err, sizeof err);
    if (!gpu) {
        fprintf(stderr, "simtlab sim: %s\n", err);
        return EXIT_USER;
    }
    gpu->progress = isatty(STDERR_FILENO) ? stderr : NULL; /* a progress line on a terminal */
    if (tb_graph) {
        if (!tm_tb_policy_uses_graph((tm_tb_policy)tc.tb_sched))
            fprintf(stderr, "simtlab sim: --tb-profile: unused (-simtlab_tb_sched %s groups no graph)\n",
                    tm_tb_policy_name((tm_tb_policy)tc.tb_sched));
        tm_gpu_set_tb_graph(gpu, tb_graph, tb_seconds);
    }
    sim_stats st;
    int rc = EXIT_OK;
    if (tm_gpu_launch(gpu, d, p, kernel, cfg, params, param_bytes, &st, err, sizeof err) != 0) {
        fprintf(stderr, "simtlab sim: %s\n", err);
        rc = EXIT_USER;
    }
    FILE *report = rc ? stderr : stdout;
    if (o->json)
        tm_report_json(gpu, report);
    else
        tm_report_text(gpu, report);
    if (o->lines_set && !o->json)
        tm_report_lines(gpu, report, o->lines);
    fflush(report); /* (the warning after the report, not inside it) */
    if (gpu->kernel.rf_unmodelled_insts)
        fprintf(stderr, "simtlab sim: warning: -simtlab_rf_power: %" PRIu64 " warp instructions ran in functions "
                "%s calls through recursion or an indirect call, whose registers are not modelled "
                "(rf_unmodelled_insts)\n",
                gpu->kernel.rf_unmodelled_insts, kernel);
    tm_gpu_free(gpu);
    return rc;
}
