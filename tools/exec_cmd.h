/* exec_cmd.h — the `simtlab exec` command. */
#ifndef SIMTLAB_EXEC_CMD_H
#define SIMTLAB_EXEC_CMD_H

/* Run `simtlab exec` with its arguments (after the command word): replaces
 * the process with the program, or returns an exit status on error. */
int simtlab_exec(int argc, char **argv);

#endif
