/* run_cmd.h — the `simtlab run` command. */
#ifndef SIMTLAB_RUN_CMD_H
#define SIMTLAB_RUN_CMD_H

/* Run `simtlab run` with its arguments (after the command word); returns
 * the exit status. */
int simtlab_run(int argc, char **argv);

#endif
