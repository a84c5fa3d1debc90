/* stubs.c — every other entry point of libcudart.so.13.
 *
 * Each function the CUDA 13 runtime exports (exports.def) gets a weak
 * definition here that prints one line naming itself and returns
 * cudaErrorNotSupported; the link keeps the real implementation wherever
 * another file defines one. So a program never fails to load for a missing
 * symbol, and never silently gets a wrong answer. */
#include "tools/cudart/runtime.h"

/* Report that `name` is not implemented. */
static cudaError_t unsupported(const char *name)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt_report(rt, cudaErrorNotSupported, "%s is not supported (cudaErrorNotSupported)", name);
    rt_unlock(rt);
    return e;
}

#define X(name)                                                                                          \
    cudaError_t name(void) __attribute__((weak));                                                        \
    cudaError_t name(void) { return unsupported(#name); }
#include "tools/cudart/exports.def"
#undef X
