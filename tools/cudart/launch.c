/* launch.c — kernel launches (<<<>>> through the pushed configuration,
 * cudaLaunchKernel, cooperative launches), function attributes and
 * occupancy.
 *
 * A launch packs the argument pointers into the kernel's parameter layout
 * and runs the grid at once through the backend (backend.h: the emulator
 * or the timing model). Configuration errors come back
 * from the launch itself; a fault inside the kernel (runtime.h) becomes the
 * sticky error that every later call returns, with the emulator's report
 * (kind, address, thread, PTX line) on stderr. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cudart/runtime.h"
#include "tools/cudart/watchdog.h"
#include "emulator/locality.h"
#include "ir/util.h"

/* What a real GPU reports for each way a launch can stop, and whether the
 * error spoils the context (a device fault) or concerns only the call.
 * CUDA 13.0 answers an invalid launch configuration and a kernel over the
 * local-memory cap with cudaErrorInvalidValue, not the
 * cudaErrorInvalidConfiguration / cudaErrorLaunchOutOfResources older
 * runtimes gave (measured on an H100: tools/gpu/README.md). */
static cudaError_t map_error(sim_error e, bool *sticky)
{
    *sticky = true;
    switch (e) {
    case SIM_OK: *sticky = false; return cudaSuccess;
    case SIM_ERR_CONFIG: *sticky = false; return cudaErrorInvalidValue;
    case SIM_ERR_RESOURCES: *sticky = false; return cudaErrorInvalidValue;
    case SIM_ERR_UNSUPPORTED: *sticky = false; return cudaErrorNotSupported;
    /* the launch did not run (or stopped for want of host memory, which
     * spoils nothing on the device): the context stays usable */
    case SIM_ERR_OUT_OF_MEMORY: *sticky = false; return cudaErrorMemoryAllocation;
    case SIM_ERR_OUT_OF_RESOURCES: *sticky = false; return cudaErrorInvalidValue;
    case SIM_ERR_ADDRESS: return cudaErrorIllegalAddress;
    case SIM_ERR_MISALIGNED: return cudaErrorMisalignedAddress;
    case SIM_ERR_TRAP: return cudaErrorLaunchFailure;
    case SIM_ERR_ASSERT: return cudaErrorAssert;
    case SIM_ERR_DEADLOCK: case SIM_ERR_LIMIT: return cudaErrorLaunchTimeout; /* a GPU would hang */
    case SIM_ERR_INVALID_PC: return cudaErrorInvalidPc;
    case SIM_ERR_ILLEGAL: return cudaErrorIllegalInstruction;
    }
    return cudaErrorLaunchFailure;
}

/* Resident blocks of k per SM for blocks of `threads` threads using
 * `shared` bytes of dynamic shared memory: limited by threads, blocks and
 * shared memory per SM. PTX does not say how many registers ptxas will
 * allocate, so registers do not limit it. */
static int blocks_per_sm(const cudart *rt, const sim_kernel_attrs *a, int threads, size_t shared)
{
    const struct cudaDeviceProp *p = &rt->prop;
    if (threads <= 0 || threads > (int)a->max_threads)
        return 0;
    int warps = (threads + 31) / 32;
    int n = p->maxThreadsPerMultiProcessor / (warps * 32);
    if (n > p->maxBlocksPerMultiProcessor)
        n = p->maxBlocksPerMultiProcessor;
    size_t smem = a->shared_bytes + shared;
    if (smem > p->sharedMemPerBlockOptin)
        return 0;
    if (smem) {
        size_t by_smem = p->sharedMemPerMultiprocessor / (smem + p->reservedSharedMemPerBlock);
        if ((size_t)n > by_smem)
            n = (int)by_smem;
    }
    return n;
}

/* The kernel behind func with its decoded program and attributes (lock
 * held); an error code when there is none. */
static cudaError_t kernel_of(cudart *rt, const void *func, rt_kernel **k, sim_program **p, sim_kernel_attrs *a)
{
    *k = rt_find_kernel(rt, func);
    if (!*k)
        return rt_report(rt, cudaErrorInvalidDeviceFunction, "%p is not a registered kernel", func);
    *p = rt_program(rt, (*k)->mod);
    if (!*p)
        return rt_error(rt, (*k)->mod->m ? cudaErrorInvalidPtx : cudaErrorNoKernelImageForDevice);
    char err[512];
    if (sim_kernel_attributes(*p, (*k)->name, a, err, sizeof err) != 0)
        return rt_report(rt, cudaErrorInvalidDeviceFunction, "%s", err);
    return cudaSuccess;
}

/* Check a launch against the virtual device (lock held). */
static cudaError_t check_launch(cudart *rt, const rt_kernel *k, const rt_module *mod, const sim_kernel_attrs *a,
                                dim3 grid, dim3 block, size_t shared, bool cooperative)
{
    const struct cudaDeviceProp *p = &rt->prop;
    unsigned cc = (unsigned)(p->major * 10 + p->minor);
    if (mod->target > cc)
        return rt_report(rt, cudaErrorNoKernelImageForDevice, "kernel %s is PTX for sm_%u; the virtual device is "
                         "sm_%u (choose another with simtlab exec --gpu)", k->name, mod->target, cc);
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    if (!threads || !grid.x || !grid.y || !grid.z || threads > (uint64_t)p->maxThreadsPerBlock ||
        block.x > (unsigned)p->maxThreadsDim[0] || block.y > (unsigned)p->maxThreadsDim[1] ||
        block.z > (unsigned)p->maxThreadsDim[2] || grid.x > (unsigned)p->maxGridSize[0] ||
        grid.y > (unsigned)p->maxGridSize[1] || grid.z > (unsigned)p->maxGridSize[2])
        return rt_error(rt, cudaErrorInvalidValue); /* CUDA 13.0's code (map_error) */
    if (threads > a->max_threads)
        return rt_error(rt, cudaErrorInvalidValue);
    size_t allowed = k->max_dynamic_shared >= 0 ? (size_t)k->max_dynamic_shared
                     : p->sharedMemPerBlock > a->shared_bytes ? p->sharedMemPerBlock - a->shared_bytes : 0;
    if (shared > allowed || a->shared_bytes + shared > p->sharedMemPerBlockOptin)
        return rt_error(rt, cudaErrorInvalidValue);
    if (cooperative) {
        int per_sm = blocks_per_sm(rt, a, (int)threads, shared);
        if ((uint64_t)grid.x * grid.y * grid.z > (uint64_t)per_sm * p->multiProcessorCount)
            return rt_error(rt, cudaErrorCooperativeLaunchTooLarge);
    }
    return cudaSuccess;
}

/* The launch with an access trace, its static and profiled locality
 * graphs written to SIMTLAB_LOCALITY/NNNN-KERNEL.json (simtlab exec
 * --locality); sim_launch's result. When the graphs cannot be made before
 * the kernel runs (a grid too large for them, a kernel the static
 * evaluation cannot follow), the kernel still runs, without graphs, and
 * stderr says why: the program's results never depend on --locality. */
static int launch_with_locality(cudart *rt, rt_kernel *k, sim_program *p, const sim_launch_config *cfg,
                                const void *params, uint32_t bytes, sim_stats *st, char *err, size_t errlen)
{
    sim_locality l;
    int rc = sim_locality_launch(rt->dev, p, k->mod->m, k->name, cfg, params, bytes, NULL, &l, err, errlen);
    *st = l.run;
    if (rc == 0) {
        char *path = ptx_format("%s/%04u-%.120s.json", rt->locality_dir, rt->locality_launches++, k->name);
        FILE *f = fopen(path, "w");
        ptx_locality_report r;
        sim_locality_report(&l, k->name, cfg, 0, &r);
        if (f)
            ptx_locality_write_json(&r, f);
        if (!f || fclose(f) != 0)
            fprintf(stderr, "simtlab: cannot write the locality graphs of %s to %s: %s\n", k->name, path,
                    strerror(errno));
        free(path);
    }
    sim_locality_free(&l);
    if (rc != 0 && st->error == SIM_OK) { /* stopped before the kernel ran */
        fprintf(stderr, "simtlab: no locality graphs for launch %u of %s: %s; the kernel runs without them\n",
                rt->locality_launches++, k->name, err);
        return rt_backend_launch(rt->backend, rt->dev, p, k->name, cfg, params, bytes, st, err, errlen);
    }
    return rc;
}

/* The warp instructions a launch may run: SIMTLAB_MAX_INSTRUCTIONS (simtlab
 * exec --max-instructions), read at each launch, else the default; 0 is no
 * limit. A value that is no number fails the launch and says so. */
static cudaError_t instruction_budget(cudart *rt, uint64_t *budget)
{
    const char *s = getenv(SIMTLAB_MAX_INSTRUCTIONS_ENV);
    *budget = SIMTLAB_DEFAULT_MAX_INSTRUCTIONS;
    if (s && *s && !simtlab_parse_budget(s, budget))
        return rt_report(rt, cudaErrorInvalidValue, "%s=%s is not a number of warp instructions per launch "
                         "(0: no limit)", SIMTLAB_MAX_INSTRUCTIONS_ENV, s);
    return cudaSuccess;
}

/* Launch func over grid x block with args (lock held), in clusters of
 * `cluster` blocks (0,0,0: the kernel's own, else one). */
static cudaError_t launch(cudart *rt, const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                          cudaStream_t stream, bool cooperative, dim3 cluster)
{
    if (rt->sticky_error)
        return rt_error(rt, rt->sticky_error);
    if (!rt->backend) /* freed at exit: a launch from a later destructor */
        return rt_error(rt, cudaErrorCudartUnloading);
    rt_kernel *k;
    sim_program *p;
    sim_kernel_attrs a;
    cudaError_t e = kernel_of(rt, func, &k, &p, &a);
    if (e)
        return e;
    if (!rt_valid_stream(rt, stream))
        return rt_error(rt, cudaErrorInvalidResourceHandle);
    if ((e = check_launch(rt, k, k->mod, &a, grid, block, shared, cooperative)) != cudaSuccess)
        return e;
    uint64_t budget;
    if ((e = instruction_budget(rt, &budget)) != cudaSuccess)
        return e;
    char err[1024];
    uint32_t nparams, bytes;
    const sim_param_info *params = sim_kernel_params(p, k->name, &nparams, &bytes, err, sizeof err);
    uint8_t *buf = ptx_xcalloc(bytes ? bytes : 1, 1);
    for (uint32_t i = 0; i < nparams; i++)
        memcpy(buf + params[i].offset, args[i], params[i].size);
    sim_launch_config cfg = {
        .grid = {grid.x, grid.y, grid.z}, .block = {block.x, block.y, block.z},
        .dynamic_shared = (uint32_t)shared, .host_threads = rt->host_threads,
        /* at most 512 KiB (cudaDeviceSetLimit); below 8 KiB, the emulator's default */
        .stack_bytes = rt->limits[cudaLimitStackSize] > 8192 ? (uint32_t)rt->limits[cudaLimitStackSize] : 0,
        .printf_out = rt->printf_out, .independent_scheduling = rt->its, .cooperative = cooperative,
        .cluster = {cluster.x, cluster.y, cluster.z}, .max_instructions = budget};
    sim_stats st;
    int rc = rt->locality_dir ? launch_with_locality(rt, k, p, &cfg, buf, bytes, &st, err, sizeof err)
                              : rt_backend_launch(rt->backend, rt->dev, p, k->name, &cfg, buf, bytes, &st, err,
                                                  sizeof err);
    free(buf);
    k->launches++;
    k->warp_instructions += st.warp_instructions;
    k->thread_instructions += st.thread_instructions;
    k->seconds += st.seconds;
    rt_clock_kernel(rt, &st);
    if (rc == 0)
        return rt_error(rt, cudaSuccess);
    bool sticky;
    e = map_error(st.error, &sticky);
    rt_flush_printf(rt);
    if (st.error == SIM_ERR_LIMIT) /* the watchdog: say how to let the kernel run longer */
        rt_report(rt, e, "watchdog: %s; the budget is %llu warp instructions per launch (PTX lines as simtlab "
                  "extract writes the program's PTX): raise it with simtlab exec --max-instructions N or %s=N, "
                  "0 for no limit (%s)", err, (unsigned long long)budget, SIMTLAB_MAX_INSTRUCTIONS_ENV,
                  rt_error_name(e));
    else
        rt_report(rt, e, "%s: %s (%s)", k->name, err, rt_error_name(e));
    if (sticky)
        rt->sticky_error = e;
    return sticky ? cudaSuccess : e; /* a GPU reports a fault at the next call */
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, void *stream)
{
    cudart *rt = rt_lock();
    unsigned rc = 1;
    if (rt->nconfigs < sizeof rt->configs / sizeof *rt->configs) {
        rt->configs[rt->nconfigs++] = (rt_launch_config){grid, block, shared, stream};
        rc = 0;
    }
    rt_unlock(rt);
    return rc;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, void *stream)
{
    cudart *rt = rt_lock();
    if (!rt->nconfigs) {
        rt_unlock(rt);
        return cudaErrorInvalidConfiguration;
    }
    rt_launch_config c = rt->configs[--rt->nconfigs];
    *grid = c.grid;
    *block = c.block;
    *shared = c.shared;
    *(void **)stream = c.stream;
    rt_unlock(rt);
    return cudaSuccess;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                             cudaStream_t stream)
{
    cudart *rt = rt_lock();
    cudaError_t e = launch(rt, func, grid, block, args, shared, stream, false, (dim3){0, 0, 0});
    rt_unlock(rt);
    return e;
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                  cudaStream_t stream)
{
    return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                               cudaStream_t stream)
{
    return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shared,
                                    cudaStream_t stream)
{
    return cudaLaunchKernel(kernel, grid, block, args, shared, stream);
}

/* All blocks are resident together, so grid-wide synchronization works. */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                        cudaStream_t stream)
{
    cudart *rt = rt_lock();
    cudaError_t e = launch(rt, func, grid, block, args, shared, stream, true, (dim3){0, 0, 0});
    rt_unlock(rt);
    return e;
}

/* What cudaLaunchKernelEx's attributes ask of a launch. */
typedef struct launch_attrs {
    bool cooperative;
    dim3 cluster;          /* 0,0,0: the kernel's own */
    cudaEvent_t events[8]; /* to record once the launch has run */
    unsigned nevents;
} launch_attrs;

/* Read a cudaLaunchConfig_t's attributes into x. Hints (access policy,
 * priority, scheduling preferences, carveout, memory synchronization
 * domains, programmatic stream serialization) change nothing here; an
 * attribute not valid for a launch, or an unknown one, is
 * cudaErrorInvalidValue; an event attribute naming an event that keeps
 * timing, cudaErrorNotSupported. */
static cudaError_t read_launch_attrs(cudart *rt, const cudaLaunchConfig_t *config, launch_attrs *x)
{
    *x = (launch_attrs){0};
    if (config->numAttrs && !config->attrs)
        return cudaErrorInvalidValue;
    for (unsigned i = 0; i < config->numAttrs; i++) {
        const cudaLaunchAttribute *at = &config->attrs[i];
        switch (at->id) {
        case cudaLaunchAttributeIgnore:
        case cudaLaunchAttributeAccessPolicyWindow:
        case cudaLaunchAttributeSynchronizationPolicy:
        case cudaLaunchAttributeClusterSchedulingPolicyPreference:
        case cudaLaunchAttributeProgrammaticStreamSerialization:
        case cudaLaunchAttributePriority:
        case cudaLaunchAttributeMemSyncDomainMap:
        case cudaLaunchAttributeMemSyncDomain:
        case cudaLaunchAttributePreferredClusterDimension:
        case cudaLaunchAttributePreferredSharedMemoryCarveout:
        case cudaLaunchAttributeNvlinkUtilCentricScheduling:
            break;
        case cudaLaunchAttributeCooperative:
            x->cooperative = at->val.cooperative != 0;
            break;
        case cudaLaunchAttributeClusterDimension:
            x->cluster = (dim3){at->val.clusterDim.x, at->val.clusterDim.y, at->val.clusterDim.z};
            if (!x->cluster.x || !x->cluster.y || !x->cluster.z)
                return cudaErrorInvalidValue;
            break;
        case cudaLaunchAttributeProgrammaticEvent:
        case cudaLaunchAttributeLaunchCompletionEvent: {
            cudaEvent_t ev = at->id == cudaLaunchAttributeProgrammaticEvent ? at->val.programmaticEvent.event
                                                                            : at->val.launchCompletionEvent.event;
            /* CUDA 13.0 on an H100 takes only events created with
             * cudaEventDisableTiming here (tools/gpu/README.md) */
            if (!rt_event_untimed(rt, ev))
                return cudaErrorNotSupported;
            if (x->nevents == sizeof x->events / sizeof *x->events)
                return cudaErrorInvalidValue;
            x->events[x->nevents++] = ev;
            break;
        }
        default: /* DeviceUpdatableKernelNode is for graphs only */
            return cudaErrorInvalidValue;
        }
    }
    return cudaSuccess;
}

/* cudaLaunchKernelEx (cuda_runtime.h's template calls this): a launch whose
 * attributes may ask for a cooperative grid or clusters and name events to
 * record. Launches run to completion when submitted, so programmatic
 * dependent launch (what Thrust and CUB ask for) needs nothing more, and
 * the programmatic and completion events are recorded after the launch. */
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    cudart *rt = rt_lock();
    launch_attrs x = {0};
    cudaError_t e = config ? read_launch_attrs(rt, config, &x) : cudaErrorInvalidValue;
    if (e != cudaSuccess)
        return rt_return(rt, e);
    /* as cudaLaunchKernel: a fault is reported by the calls after this one */
    e = launch(rt, func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream,
               x.cooperative, x.cluster);
    for (unsigned i = 0; i < x.nevents && e == cudaSuccess; i++)
        if ((e = rt_event_record(rt, x.events[i], config->stream)) != cudaSuccess)
            rt_error(rt, e);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args)
{
    return cudaLaunchKernelExC(config, func, args);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                             cudaStream_t stream)
{
    return cudaLaunchCooperativeKernel(func, grid, block, args, shared, stream);
}

/* ---- function attributes and occupancy ------------------------------------ */

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    cudart *rt = rt_lock();
    rt_kernel *k;
    sim_program *p;
    sim_kernel_attrs a;
    if (!attr)
        return rt_return(rt, cudaErrorInvalidValue);
    cudaError_t e = kernel_of(rt, func, &k, &p, &a);
    if (e) {
        rt_unlock(rt);
        return e;
    }
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = a.shared_bytes;
    attr->constSizeBytes = a.const_bytes;
    attr->localSizeBytes = a.local_bytes;
    attr->maxThreadsPerBlock = (int)a.max_threads;
    attr->numRegs = a.registers > 255 ? 255 : (int)a.registers;
    attr->ptxVersion = (int)a.target;
    attr->binaryVersion = (int)a.target;
    size_t def = rt->prop.sharedMemPerBlock > a.shared_bytes ? rt->prop.sharedMemPerBlock - a.shared_bytes : 0;
    attr->maxDynamicSharedSizeBytes = k->max_dynamic_shared >= 0 ? k->max_dynamic_shared : (int)def;
    attr->preferredShmemCarveout = -1;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    cudart *rt = rt_lock();
    rt_kernel *k;
    sim_program *p;
    sim_kernel_attrs a;
    cudaError_t e = kernel_of(rt, func, &k, &p, &a);
    if (e) {
        rt_unlock(rt);
        return e;
    }
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || a.shared_bytes + (size_t)value > rt->prop.sharedMemPerBlockOptin)
            return rt_return(rt, cudaErrorInvalidValue);
        k->max_dynamic_shared = value;
    } else if (attr != cudaFuncAttributePreferredSharedMemoryCarveout) {
        return rt_report(rt, cudaErrorInvalidValue, "cudaFuncSetAttribute: attribute %d is not supported", attr);
    }
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaFuncSetCacheConfig(const void *func, int config)
{
    cudart *rt = rt_lock();
    return rt_return(rt, rt_find_kernel(rt, func) ? cudaSuccess : cudaErrorInvalidDeviceFunction);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func, int threads,
                                                                   size_t shared, unsigned flags)
{
    cudart *rt = rt_lock();
    rt_kernel *k;
    sim_program *p;
    sim_kernel_attrs a;
    if (!n)
        return rt_return(rt, cudaErrorInvalidValue);
    cudaError_t e = kernel_of(rt, func, &k, &p, &a);
    if (!e)
        *n = blocks_per_sm(rt, &a, threads, shared);
    return rt_return(rt, e);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func, int threads, size_t shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, threads, shared, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *shared, const void *func, int blocks, int threads)
{
    cudart *rt = rt_lock();
    rt_kernel *k;
    sim_program *p;
    sim_kernel_attrs a;
    if (!shared || blocks <= 0)
        return rt_return(rt, cudaErrorInvalidValue);
    cudaError_t e = kernel_of(rt, func, &k, &p, &a);
    if (!e) {
        size_t per = rt->prop.sharedMemPerMultiprocessor / (size_t)blocks;
        per = per > rt->prop.reservedSharedMemPerBlock + a.shared_bytes
                  ? per - rt->prop.reservedSharedMemPerBlock - a.shared_bytes : 0;
        size_t cap = rt->prop.sharedMemPerBlockOptin - a.shared_bytes;
        *shared = blocks_per_sm(rt, &a, threads, 0) >= blocks ? (per < cap ? per : cap) : 0;
    }
    return rt_return(rt, e);
}
