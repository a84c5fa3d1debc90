/* locality_cmd.h — what `simtlab locality` adds to `simtlab run`'s launch
 * description (tools/run_cmd.c parses both). */
#ifndef SIMTLAB_LOCALITY_CMD_H
#define SIMTLAB_LOCALITY_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "emulator/sim.h"

typedef struct locality_opts {
    bool enabled;          /* the command is simtlab locality */
    bool json, trees, static_only;
    const char *heatmap;   /* picture of the read graph, or NULL */
    uint32_t line;         /* 0: element addresses; else the line size */
    uint32_t top;          /* heaviest pairs to list */
} locality_opts;

void locality_usage(FILE *out);
/* Take option a (with the next argument v, NULL at the end) if it is one
 * of locality's: returns the arguments used (0: not ours), -1 on error. */
int locality_parse_option(locality_opts *o, const char *a, const char *v);
/* Build, compare and report the graphs of launching kernel on d; returns
 * the exit status. */
int locality_run(const locality_opts *o, sim_device *d, sim_program *p, const ptx_module *m, const char *kernel,
                 const sim_launch_config *cfg, const void *params, uint32_t param_bytes);

#endif
