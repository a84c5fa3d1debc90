/* run_cmd.h — the `simtlab run` command. */
#ifndef SIMTLAB_RUN_CMD_H
#define SIMTLAB_RUN_CMD_H

/* Run `simtlab run` with its arguments (after the command word); returns
 * the exit status. */
int simtlab_run(int argc, char **argv);
/* `simtlab locality`: the same launch description, analyzed for thread-block
 * locality (tools/locality_cmd.c). */
int simtlab_locality(int argc, char **argv);
/* `simtlab sim`: the same launch description, simulated on the timing
 * model (tools/sim_cmd.c). */
int simtlab_sim(int argc, char **argv);

#endif
