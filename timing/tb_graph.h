/* tb_graph.h — the locality graph a PAVER thread-block scheduler groups a
 * launch's blocks by (-simtlab_tb_graph): the analyzer's static graph of
 * the launch (emulator/locality.h; built from the launch's parameters
 * before it runs, as the thesis's JIT analysis is), or a graph made
 * elsewhere, read from a simtlab-locality/1 JSON file (`simtlab locality
 * --json`, or any tool writing that schema): its profiled graph when it
 * has one, else its static graph. A directory holds one such file per
 * launch, named as `simtlab exec --locality DIR` names them
 * (DIR/NNNN-KERNEL.json, NNNN counting the program's launches from 0):
 * the launches of a CUDA program under the timing model take the graphs
 * its run on the emulator profiled. */
#ifndef SIMTLAB_TIMING_TB_GRAPH_H
#define SIMTLAB_TIMING_TB_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/locality.h"
#include "emulator/sim.h"

typedef struct tm_tb_graph_info {
    const char *source;  /* "static", "file (profiled)", "file (static)" */
    bool exact;          /* the static analysis saw every read address (a file: what it says) */
    double seconds;      /* building (or reading) the graph */
} tm_tb_graph_info;

/* The graph of kernel `name` launched with cfg and params, launch number
 * `launch` (from 0) of the program, as source says ("static", a file or a
 * directory): 0, or -1 with err (the static analysis failing, a file that
 * cannot be read, is not simtlab-locality/1, or is of another kernel or
 * grid). */
int tm_tb_graph_get(const char *source, uint64_t launch, sim_device *d, sim_program *p, const char *name,
                    const sim_launch_config *cfg, const void *params, uint32_t param_bytes, ptx_locality_graph *g,
                    tm_tb_graph_info *info, char *err, size_t errlen);

#endif
