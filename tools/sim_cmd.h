/* sim_cmd.h — what `simtlab sim` adds to `simtlab run`'s launch
 * description (tools/run_cmd.c parses both): the timing model's
 * configuration, annotations and report. */
#ifndef SIMTLAB_SIM_CMD_H
#define SIMTLAB_SIM_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/locality.h"
#include "emulator/sim.h"

typedef struct sim_cmd_opts {
    bool enabled;            /* the command is simtlab sim */
    const char *config;      /* preset name or gpgpusim.config path */
    const char **sets;       /* --set assignments, in order */
    uint32_t nsets, cap_sets;
    const char *annotations; /* simtlab analyze --json file, or NULL */
    bool json;
    bool lines_set;          /* --lines given: print the per-line profile table */
    uint32_t lines;          /* its number of PTX lines (0: all) */
    uint64_t max_cycles;     /* --max-cycles (0: the configuration's) */
    bool lpc_profile;        /* --lpc-profile: likely-convergence points from a profiling run */
    bool tb_profile;         /* --tb-profile: the PAVER schedulers' graph from a profiling run */
} sim_cmd_opts;

void sim_cmd_usage(FILE *out);
/* Take option a (with the next argument v, NULL at the end) if it is one
 * of sim's: returns the arguments used (0: not ours), -1 on error. */
int sim_cmd_parse_option(sim_cmd_opts *o, const char *a, const char *v);
/* Simulate the launch of kernel on the configured GPU and print the
 * statistics; returns the exit status. With --lpc-profile, lpc_profile
 * is the profile of the same launch run on the functional emulator
 * (tools/run_cmd.c runs it), from which p's likely-convergence points are
 * set before the launch. With --tb-profile, tb_graph is the launch's
 * profiled locality graph (made in tb_seconds), which a PAVER scheduler
 * takes (ownership passes). */
int sim_cmd_run(const sim_cmd_opts *o, sim_device *d, sim_program *p, const ptx_module *m, const char *kernel,
                const sim_launch_config *cfg, const void *params, uint32_t param_bytes,
                const sim_profile *lpc_profile, ptx_locality_graph *tb_graph, double tb_seconds);
void sim_cmd_free(sim_cmd_opts *o);

#endif
