/* backend_emu.c — the emulator backend: kernels run on the functional
 * emulator (sim_launch), and the device clock is a deterministic estimate
 * from the instructions issued (stream.c):
 *   3 us launch latency + warp instructions / (SMs x 4 schedulers issuing
 *   one a cycle) at the device's clock.
 * It is no timing simulation (the timing model backend is); it orders and
 * scales events sensibly. The device's properties are the virtual GPU's
 * (SIMTLAB_GPU), unchanged. */
#include <stdlib.h>

#include "tools/cudart/backend.h"
#include "ir/util.h"

/* sim_launch, through the interface. */
static int emu_launch(rt_backend *b, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                      const void *params, uint32_t param_bytes, sim_stats *st, char *err, size_t errlen)
{
    (void)b;
    return sim_launch(d, p, name, cfg, params, param_bytes, st, err, errlen);
}

/* The estimate above, in milliseconds. */
static double emu_kernel_ms(const rt_backend *b, const sim_stats *st, const struct cudaDeviceProp *prop,
                            const rt_device_clocks *clocks)
{
    (void)b;
    double cycles = (double)st->warp_instructions / (4.0 * prop->multiProcessorCount);
    return 3e-3 + cycles / clocks->clock_khz;
}

/* The virtual GPU's properties stay as they are. */
static void emu_properties(const rt_backend *b, struct cudaDeviceProp *prop, rt_device_clocks *clocks)
{
    (void)b, (void)prop, (void)clocks;
}

/* The emulator backend holds nothing but itself. */
static void emu_free(rt_backend *b)
{
    free(b);
}

static const rt_backend_ops emu_ops = {"emulator", emu_launch, emu_kernel_ms, emu_properties, emu_free};

rt_backend *rt_backend_emulator(void)
{
    rt_backend *b = ptx_xcalloc(1, sizeof *b);
    b->ops = &emu_ops;
    return b;
}
