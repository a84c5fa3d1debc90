/* locality.h — the static and the profiled locality graph of one launch.
 *
 * sim_locality_launch evaluates the kernel's address trees for the launch
 * (analysis/syntree.h), runs the launch with an access trace, and builds
 * both graphs (analysis/locality.h) from the blocks' read sets (and write
 * sets: st, atom, red), so that the static analysis can be checked against
 * what the kernel actually did. */
#ifndef SIMTLAB_EMU_LOCALITY_H
#define SIMTLAB_EMU_LOCALITY_H

#include "analysis/locality.h"
#include "analysis/syntree.h"
#include "emulator/sim.h"

typedef struct sim_locality {
    ptx_syntrees trees;
    ptx_st_eval_stats eval;
    ptx_locality_graph static_reads, static_writes;
    ptx_locality_graph profiled_reads, profiled_writes;
    bool profiled;           /* the launch ran (false with static_only) */
    sim_stats run;           /* the launch's statistics */
    double static_seconds;   /* evaluating the trees and building the static graphs */
} sim_locality;

typedef struct sim_locality_options {
    uint32_t line;           /* 0: element addresses; else the line size (a power of two) */
    bool static_only;        /* do not run the launch */
} sim_locality_options;

/* Both graphs of launching kernel `name` of p (made from module m) with
 * cfg and the parameter buffer. The launch changes device memory as a
 * plain sim_launch does. Returns 0, or -1 with err (the launch failed, or
 * the kernel does not exist); out is then still to be freed. */
int sim_locality_launch(sim_device *d, sim_program *p, const ptx_module *m, const char *name,
                        const sim_launch_config *cfg, const void *params, uint32_t param_bytes,
                        const sim_locality_options *opt, sim_locality *out, char *err, size_t errlen);
void sim_locality_free(sim_locality *l);
/* The report of l (a launch of kernel with cfg, counted by `line`), for
 * ptx_locality_write_text/json; it points into l. */
void sim_locality_report(const sim_locality *l, const char *kernel, const sim_launch_config *cfg, uint32_t line,
                         ptx_locality_report *r);

#endif
