/* backend.c — choosing the runtime's backend from the environment, and
 * the calls through the interface (backend.h). */
#include <stdlib.h>
#include <string.h>

#include "tools/cudart/backend.h"

/* Environment variable name's value when it is set and not empty, else NULL. */
static const char *env_value(const char *name)
{
    const char *s = getenv(name);
    return s && *s ? s : NULL;
}

rt_backend *rt_backend_open(bool its, char *err, size_t errlen)
{
    const char *config = env_value("SIMTLAB_SIM");
    if (!config)
        return rt_backend_emulator();
    const char *stats = env_value("SIMTLAB_SIM_STATS");
    bool print_stats = stats && strcmp(stats, "0") != 0;
    char why[1024];
    rt_backend *b = rt_backend_timing(config, env_value("SIMTLAB_SIM_SET"), its, print_stats, why, sizeof why);
    if (!b)
        snprintf(err, errlen, "SIMTLAB_SIM=%s: %s", config, why);
    return b;
}

int rt_backend_launch(rt_backend *b, sim_device *d, sim_program *p, const char *name, const sim_launch_config *cfg,
                      const void *params, uint32_t param_bytes, sim_stats *st, char *err, size_t errlen)
{
    return b->ops->launch(b, d, p, name, cfg, params, param_bytes, st, err, errlen);
}

void rt_backend_free(rt_backend *b)
{
    if (b)
        b->ops->free(b);
}
