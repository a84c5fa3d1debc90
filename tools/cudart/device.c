/* device.c — the virtual device: its properties and attributes, device
 * selection, limits, versions and reset.
 *
 * Programs see one device whose limits are those of a real GPU, chosen
 * with SIMTLAB_GPU (simtlab exec --gpu): h100 (the default), a100, l40s
 * or b200. Its name says it is simtlab's; its memory is the emulator's. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "tools/cudart/runtime.h"

/* What distinguishes the presets. */
typedef struct gpu_preset {
    const char *key, *name;
    int major, minor, sms, clock_khz, mem_clock_khz, bus_bits;
    size_t memory, l2, smem_per_sm, smem_optin;
    int threads_per_sm, blocks_per_sm;
} gpu_preset;

static const gpu_preset presets[] = {
    {"h100", "NVIDIA H100 SXM5 80GB", 9, 0, 132, 1980000, 2619000, 5120, 80ull << 30, 50u << 20, 228u << 10,
     227u << 10, 2048, 32},
    {"a100", "NVIDIA A100-SXM4-40GB", 8, 0, 108, 1410000, 1215000, 5120, 40ull << 30, 40u << 20, 164u << 10,
     163u << 10, 2048, 32},
    {"l40s", "NVIDIA L40S", 8, 9, 142, 2520000, 9001000, 384, 48ull << 30, 96u << 20, 100u << 10, 99u << 10, 1536,
     24},
    {"b200", "NVIDIA B200", 10, 0, 148, 1965000, 3996000, 8192, 180ull << 30, 126u << 20, 228u << 10, 227u << 10,
     2048, 32},
};

/* The preset named gpu (NULL or unknown: the first, with a warning for an
 * unknown name). */
static const gpu_preset *find_preset(const char *gpu)
{
    for (size_t i = 0; gpu && *gpu && i < sizeof presets / sizeof *presets; i++)
        if (strcmp(gpu, presets[i].key) == 0)
            return &presets[i];
    if (gpu && *gpu)
        fprintf(stderr, "simtlab: unknown GPU '%s' (h100, a100, l40s or b200); using h100\n", gpu);
    return &presets[0];
}

void rt_init_device(cudart *rt, const char *gpu)
{
    const gpu_preset *g = find_preset(gpu);
    struct cudaDeviceProp *p = &rt->prop;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s (simtlab emulator)", g->name);
    memcpy(p->uuid.bytes, "simtlab-virtual", 16);
    p->totalGlobalMem = g->memory;
    p->sharedMemPerBlock = 48u << 10;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 64u << 10;
    p->major = g->major;
    p->minor = g->minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = g->sms;
    p->canMapHostMemory = 1;
    p->maxTexture1D = 131072;
    p->maxTexture2D[0] = 131072;
    p->maxTexture2D[1] = 65536;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072;
    p->maxSurface2D[1] = 65536;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    /* cudaHostRegister maps host memory at its own address (read-only too) */
    p->hostRegisterSupported = p->canUseHostPointerForRegisteredMem = p->hostRegisterReadOnlySupported = 1;
    p->memoryBusWidth = g->bus_bits;
    p->l2CacheSize = (int)g->l2;
    p->maxThreadsPerMultiProcessor = g->threads_per_sm;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = g->smem_per_sm;
    p->regsPerMultiprocessor = 65536;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 1;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = g->smem_optin;
    p->directManagedMemAccessFromHost = 1;
    p->maxBlocksPerMultiProcessor = g->blocks_per_sm;
    p->reservedSharedMemPerBlock = 1024;
    p->clusterLaunch = g->major >= 9;
    p->hostNumaId = -1;
    /* CUDA's defaults: a 1 KiB stack, a 1 MiB printf FIFO, a sync depth
     * of two grids, 2048 pending launches */
    rt->limits[cudaLimitStackSize] = 1024;
    rt->limits[cudaLimitPrintfFifoSize] = 1u << 20;
    rt->limits[cudaLimitDevRuntimeSyncDepth] = 2;
    rt->limits[cudaLimitDevRuntimePendingLaunchCount] = 2048;
    rt_device_clocks clocks = {g->clock_khz, g->mem_clock_khz};
    if (rt->backend)
        rt->backend->ops->properties(rt->backend, p, &clocks);
    rt->clock_khz = clocks.clock_khz;
    rt->mem_clock_khz = clocks.mem_clock_khz;
}

/* One device, unless the runtime could not start (its error then). */
cudaError_t cudaGetDeviceCount(int *n)
{
    cudart *rt = rt_lock();
    if (rt->start_error)
        return rt_return(rt, cudaErrorInitializationError);
    rt_unlock(rt);
    if (!n)
        return cudaErrorInvalidValue;
    *n = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *d)
{
    if (!d)
        return cudaErrorInvalidValue;
    *d = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int d)
{
    cudart *rt = rt_lock();
    return rt_return(rt, d == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

cudaError_t cudaInitDevice(int d, unsigned device_flags, unsigned flags)
{
    return cudaSetDevice(d);
}

/* Flags are kept for cudaGetDeviceFlags (none changes how the emulator
 * runs); unknown bits, or more than one scheduling policy, are
 * cudaErrorInvalidValue (driver_types.h: cudaDeviceMask, the schedule
 * values 0, 1, 2 and 4 under cudaDeviceScheduleMask). */
cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    cudart *rt = rt_lock();
    unsigned schedule = flags & 0x07u;
    if ((flags & ~0xffu) || (schedule & (schedule - 1)))
        return rt_return(rt, cudaErrorInvalidValue);
    rt->device_flags = flags;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    cudart *rt = rt_lock();
    if (!flags)
        return rt_return(rt, cudaErrorInvalidValue);
    *flags = rt->device_flags;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int d)
{
    cudart *rt = rt_lock();
    if (!prop)
        return rt_return(rt, cudaErrorInvalidValue);
    if (d != 0)
        return rt_return(rt, cudaErrorInvalidDevice);
    *prop = rt->prop;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *prop)
{
    if (!d || !prop)
        return cudaErrorInvalidValue;
    *d = 0;
    return cudaSuccess;
}

/* Attribute values simtlab does not model (-1 is a real value). */
#define NOT_MODELLED LLONG_MIN

/* The value of attribute a (cudaDeviceAttr numbering), or NOT_MODELLED. */
static long long attribute(const cudart *rt, int a)
{
    const struct cudaDeviceProp *p = &rt->prop;
    switch (a) {
    case 1: return p->maxThreadsPerBlock;
    case 2: case 3: case 4: return p->maxThreadsDim[a - 2];
    case 5: case 6: case 7: return p->maxGridSize[a - 5];
    case 8: return (long long)p->sharedMemPerBlock;
    case 9: return (long long)p->totalConstMem;
    case 10: return p->warpSize;
    case 11: return (long long)p->memPitch;
    case 12: return p->regsPerBlock;
    case 13: return rt->clock_khz;
    case 14: return (long long)p->textureAlignment;
    case 15: return 1;
    case 16: return p->multiProcessorCount;
    case 17: case 18: return 0;
    case 19: return p->canMapHostMemory;
    case 20: return 0; /* cudaComputeModeDefault */
    case 21: return p->maxTexture1D;
    case 22: case 23: return p->maxTexture2D[a - 22];
    case 24: case 25: case 26: return p->maxTexture3D[a - 24];
    case 30: return (long long)p->surfaceAlignment;
    case 31: return p->concurrentKernels;
    case 32: case 33: case 34: case 35: return 0;
    case 36: return rt->mem_clock_khz;
    case 37: return p->memoryBusWidth;
    case 38: return p->l2CacheSize;
    case 39: return p->maxThreadsPerMultiProcessor;
    case 40: return p->asyncEngineCount;
    case 41: return p->unifiedAddressing;
    case 50: return 0;
    case 51: return (long long)p->texturePitchAlignment;
    case 55: return p->maxSurface1D;
    case 56: case 57: return p->maxSurface2D[a - 56];
    case 75: return p->major;
    case 76: return p->minor;
    case 78: return p->streamPrioritiesSupported;
    case 79: return p->globalL1CacheSupported;
    case 80: return p->localL1CacheSupported;
    case 81: return (long long)p->sharedMemPerMultiprocessor;
    case 82: return p->regsPerMultiprocessor;
    case 83: return p->managedMemory;
    case 84: case 85: case 86: return 0;
    case 87: return 2;
    case 88: return 0;
    case 89: return p->concurrentManagedAccess;
    case 90: return 1;
    case 91: return p->canUseHostPointerForRegisteredMem;
    case 95: return p->cooperativeLaunch;
    case 97: return (long long)p->sharedMemPerBlockOptin;
    case 98: return 0;
    case 99: return p->hostRegisterSupported;
    case 100: return 0;
    case 101: return p->directManagedMemAccessFromHost;
    case 106: return p->maxBlocksPerMultiProcessor;
    case 111: return (long long)p->reservedSharedMemPerBlock;
    case 113: return p->hostRegisterReadOnlySupported;
    case 115: return 0;
    case 120: return p->clusterLaunch;
    case 134: return p->hostNumaId;
    default: return NOT_MODELLED;
    }
}

cudaError_t cudaDeviceGetAttribute(int *value, int attr, int d)
{
    cudart *rt = rt_lock();
    if (!value)
        return rt_return(rt, cudaErrorInvalidValue);
    if (d != 0)
        return rt_return(rt, cudaErrorInvalidDevice);
    long long v = attribute(rt, attr);
    if (v == NOT_MODELLED)
        return rt_return(rt, cudaErrorInvalidValue);
    *value = (int)v;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return cudaErrorInvalidValue;
    *v = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return cudaErrorInvalidValue;
    *v = CUDART_VERSION;
    return cudaSuccess;
}

/* cudaDeviceSetLimit as cuda_runtime_api.h documents it. The stack is per
 * thread and capped at 512 KiB, the most local memory a thread has
 * (SIM_MAX_LOCAL_PER_THREAD): a larger value is cudaErrorInvalidValue,
 * never truncated. The malloc heap is the device's, made by the first
 * launch that calls malloc: setting it after that is
 * cudaErrorInvalidValue ("must not be performed after launching any
 * kernel that uses the malloc() or free() device system calls"), and a
 * heap larger than the device's memory cudaErrorMemoryAllocation. The
 * device runtime's sync depth is cudaErrorUnsupportedLimit from compute
 * capability 9.0; the L2 fetch granularity (0 to 128 bytes) and the
 * persisting L2 size (at most persistingL2CacheMaxSize, 0 here) are hints,
 * clamped as the documentation allows, so cudaDeviceGetLimit says what
 * holds. The printf FIFO and the pending launch count are kept (the
 * emulator's printf keeps every line; it has no device runtime). */
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
    cudart *rt = rt_lock();
    char err[256];
    cudaError_t e = cudaSuccess;
    switch (limit) {
    case cudaLimitStackSize:
        /* the driver reserves the stack of every thread the device can
         * hold: an H100 (80 GB, 132 x 2048 threads) takes 256 KiB and
         * refuses 512 KiB (tools/gpu/README.md) */
        if (value > SIM_MAX_LOCAL_PER_THREAD)
            e = rt_report(rt, cudaErrorInvalidValue, "cudaDeviceSetLimit(cudaLimitStackSize, %zu): a thread has at "
                          "most %u bytes of local memory", value, SIM_MAX_LOCAL_PER_THREAD);
        else if ((double)value * rt->prop.multiProcessorCount * rt->prop.maxThreadsPerMultiProcessor >
                 (double)rt->prop.totalGlobalMem)
            e = rt_report(rt, cudaErrorInvalidValue, "cudaDeviceSetLimit(cudaLimitStackSize, %zu): the stacks of the "
                          "device's %d x %d resident threads would take more than its %zu bytes of memory", value,
                          rt->prop.multiProcessorCount, rt->prop.maxThreadsPerMultiProcessor,
                          rt->prop.totalGlobalMem);
        break;
    case cudaLimitMallocHeapSize:
        if (value > rt->prop.totalGlobalMem)
            e = rt_report(rt, cudaErrorMemoryAllocation, "cudaDeviceSetLimit(cudaLimitMallocHeapSize, %zu): more than "
                          "the device's %zu bytes of memory", value, rt->prop.totalGlobalMem);
        else if (sim_heap_set_size(rt->dev, value, err, sizeof err) != 0)
            e = rt_report(rt, cudaErrorInvalidValue, "cudaDeviceSetLimit(cudaLimitMallocHeapSize, %zu): %s", value, err);
        break;
    case cudaLimitDevRuntimeSyncDepth:
        e = rt->prop.major >= 9 ? cudaErrorUnsupportedLimit : value > 24 ? cudaErrorInvalidValue : cudaSuccess;
        break;
    case cudaLimitMaxL2FetchGranularity: /* at most 128 bytes; CUDA 13.0 refuses more */
        if (value > 128)
            e = cudaErrorInvalidValue;
        break;
    case cudaLimitPersistingL2CacheSize:
        value = value < (size_t)rt->prop.persistingL2CacheMaxSize ? value : (size_t)rt->prop.persistingL2CacheMaxSize;
        break;
    case cudaLimitPrintfFifoSize:
    case cudaLimitDevRuntimePendingLaunchCount:
        break;
    default:
        e = cudaErrorUnsupportedLimit;
    }
    if (e == cudaSuccess)
        rt->limits[limit] = value;
    return rt_return(rt, e);
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
    cudart *rt = rt_lock();
    if (!value)
        return rt_return(rt, cudaErrorInvalidValue);
    if ((unsigned)limit > cudaLimitPersistingL2CacheSize ||
        (limit == cudaLimitDevRuntimeSyncDepth && rt->prop.major >= 9))
        return rt_return(rt, cudaErrorUnsupportedLimit);
    *value = limit == cudaLimitMallocHeapSize ? (size_t)sim_heap_get_size(rt->dev) : rt->limits[limit];
    return rt_return(rt, cudaSuccess);
}

/* Cache configuration preferences change nothing in the emulator; the
 * preference set is the one cudaDeviceGetCacheConfig reports. A value
 * that is no cudaFuncCache (0 to 3) is cudaErrorInvalidValue. */
cudaError_t cudaDeviceSetCacheConfig(int config)
{
    cudart *rt = rt_lock();
    if (config < 0 || config > 3)
        return rt_return(rt, cudaErrorInvalidValue);
    rt->cache_config = config;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaDeviceGetCacheConfig(int *config)
{
    cudart *rt = rt_lock();
    if (!config)
        return rt_return(rt, cudaErrorInvalidValue);
    *config = rt->cache_config;
    return rt_return(rt, cudaSuccess);
}

/* Bank sizes are not configurable on the devices simtlab models; a value
 * that is no cudaSharedMemConfig (0 to 2) is cudaErrorInvalidValue. */
cudaError_t cudaDeviceSetSharedMemConfig(int config)
{
    cudart *rt = rt_lock();
    return rt_return(rt, config < 0 || config > 2 ? cudaErrorInvalidValue : cudaSuccess);
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer)
{
    if (!can)
        return cudaErrorInvalidValue;
    *can = 0;
    return d == 0 && peer == 0 ? cudaSuccess : cudaErrorInvalidDevice;
}

/* Destroy all allocations, streams and events and clear a sticky error;
 * registered kernels and variables stay usable (decoded again on use, with
 * their initial values). */
cudaError_t cudaDeviceReset(void)
{
    cudart *rt = rt_lock();
    rt_flush_printf(rt);
    rt_reset_device(rt);
    rt_unlock(rt);
    return cudaSuccess;
}
