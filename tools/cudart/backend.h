/* backend.h — what runs the runtime's kernels: one small interface with
 * two implementations, so that the runtime has one launch path.
 *
 *   the emulator (backend_emu.c): kernels run functionally on the
 *     emulator; the device clock is the runtime's estimate from the
 *     instructions issued (stream.c's description);
 *   the timing model (backend_timing.c): kernels run on the cycle-level
 *     timing model (one tm_gpu for the program's lifetime, so caches and
 *     time carry over between kernels as on a GPU), the functional results
 *     still the emulator's; the device clock advances by simulated core
 *     cycles, and the device's properties come from the configuration.
 *
 * rt_backend_open (backend.c) chooses from the environment: SIMTLAB_SIM
 * (a preset name or a gpgpusim.config path) selects the timing model, with
 * SIMTLAB_SIM_SET (';'-separated "-option=value" overrides) and
 * SIMTLAB_SIM_STATS=1 (GPGPU-Sim's statistics lines on stderr after each
 * kernel); without SIMTLAB_SIM, the emulator. */
#ifndef SIMTLAB_CUDART_BACKEND_H
#define SIMTLAB_CUDART_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/cudart/abi.h"
#include "emulator/sim.h"

typedef struct rt_backend rt_backend;

/* The device clocks and properties a backend decides (the rest of
 * cudaDeviceProp is the virtual GPU's: SIMTLAB_GPU). */
typedef struct rt_device_clocks {
    int clock_khz, mem_clock_khz;
} rt_device_clocks;

typedef struct rt_backend_ops {
    const char *name; /* "emulator", "timing model" */
    /* Run kernel `name` of p on d to completion: sim_launch's contract
     * (0, or -1 with err and st->error saying why). */
    int (*launch)(rt_backend *b, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                  const void *params, uint32_t param_bytes, sim_stats *st, char *err, size_t errlen);
    /* Milliseconds of device time the launch just run took (st: its
     * functional statistics; prop, clocks: the device's). */
    double (*kernel_ms)(const rt_backend *b, const sim_stats *st, const struct cudaDeviceProp *prop,
                        const rt_device_clocks *clocks);
    /* Overwrite the properties and clocks the backend models (prop holds
     * the virtual GPU's on entry). */
    void (*properties)(const rt_backend *b, struct cudaDeviceProp *prop, rt_device_clocks *clocks);
    void (*free)(rt_backend *b);
} rt_backend_ops;

struct rt_backend {
    const rt_backend_ops *ops;
    void *state; /* the implementation's (the timing model's tm_gpu) */
};

/* The emulator backend (cannot fail). */
rt_backend *rt_backend_emulator(void);
/* The timing model of configuration `config` (preset or file) with the
 * ';'-separated overrides `sets` (NULL: none), independent thread
 * scheduling when its is set, statistics after each kernel on stderr when
 * print_stats: NULL with err when the configuration is refused. */
rt_backend *rt_backend_timing(const char *config, const char *sets, bool its, bool print_stats, char *err,
                              size_t errlen);
/* The backend the environment asks for (see above): NULL with err (one
 * line naming the variable) when it cannot be made. */
rt_backend *rt_backend_open(bool its, char *err, size_t errlen);

/* Through the interface. */
int rt_backend_launch(rt_backend *b, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                      const void *params, uint32_t param_bytes, sim_stats *st, char *err, size_t errlen);
void rt_backend_free(rt_backend *b);

#endif
