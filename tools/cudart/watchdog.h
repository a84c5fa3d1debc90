/* watchdog.h — the instruction budget of each kernel launch under
 * simtlab exec: a kernel that spins forever (`while (!*flag);`) is stopped
 * once it has run the budget's warp instructions and the launch fails with
 * cudaErrorLaunchTimeout, where a GPU would hang.
 *
 * simtlab exec --max-instructions N passes the budget in the environment
 * variable SIMTLAB_MAX_INSTRUCTIONS, which the runtime reads at each
 * launch; 0 means no limit. The default stops an endless loop after a few
 * minutes: the emulator runs about 7.5 M warp instructions a second with
 * all 32 lanes active and 45 M with one (240 M and 45 M thread
 * instructions a second, one host thread of a 2-vCPU AMD EPYC guest), so
 * 2e9 warp instructions take between 45 s and 4.5 minutes. */
#ifndef SIMTLAB_CUDART_WATCHDOG_H
#define SIMTLAB_CUDART_WATCHDOG_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define SIMTLAB_MAX_INSTRUCTIONS_ENV "SIMTLAB_MAX_INSTRUCTIONS"
#define SIMTLAB_DEFAULT_MAX_INSTRUCTIONS 2000000000ull

/* Read a budget (decimal digits only, at most 2^64-1) from s into *n;
 * false when s is no such number. */
static inline bool simtlab_parse_budget(const char *s, uint64_t *n)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno)
        return false;
    *n = v;
    return true;
}

#endif
