/* runtime.h — simtlab's CUDA runtime (libcudart.so.13): the state shared
 * by its parts.
 *
 * The CUDA runtime API has no context argument, so this library keeps one
 * process-wide runtime object (the only global state in simtlab), created
 * on first use and guarded by one lock: every entry point takes the lock,
 * works on the emulator's device, and returns. Kernels run through the
 * backend (backend.h): the emulator, or the timing model (SIMTLAB_SIM). Work is done when it is
 * submitted, in submission order: streams and events keep CUDA's ordering
 * guarantees trivially, asynchronous calls complete before they return, and
 * a kernel's fault is reported by the calls after it, as a GPU's would be.
 * Device printf output is held back until the next synchronizing call. */
#ifndef SIMTLAB_CUDART_RUNTIME_H
#define SIMTLAB_CUDART_RUNTIME_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/cudart/abi.h"
#include "tools/cudart/backend.h"
#include "emulator/sim.h"

/* The error codes, by name (cudart/errors.def). */
enum {
#define X(code, name, text) name = code,
#include "tools/cudart/errors.def"
#undef X
};

/* A registered fatbin: its PTX, parsed and decoded once registration ends,
 * or why that failed (reported at the first use). */
typedef struct rt_module {
    const void *fatbin;   /* the fatbin header the wrapper points to */
    struct ptx_module *m;
    sim_program *p;
    unsigned target;      /* SM number of the PTX .target */
    char *error;          /* NULL when p is usable */
    bool reported;        /* error printed already */
} rt_module;

/* A __global__ function: the host stub's address and the PTX entry. */
typedef struct rt_kernel {
    const void *host_fun;
    rt_module *mod;
    char *name;
    int max_dynamic_shared; /* cudaFuncSetAttribute */
    uint64_t launches, warp_instructions, thread_instructions; /* --stats */
    double seconds;
} rt_kernel;

/* A __device__, __constant__ or __managed__ variable: its host shadow (for
 * managed ones, where the host pointer to it is stored). */
typedef struct rt_var {
    const void *host_var;
    rt_module *mod;
    char *name;
    size_t size;
    bool managed;
} rt_var;

/* Memory the host and kernels share at one address. */
typedef struct rt_mapped {
    void *ptr;
    uint64_t size;
    enum cudaMemoryType type; /* cudaMemoryTypeHost or cudaMemoryTypeManaged */
    unsigned flags;           /* what cudaHostGetFlags reports */
    bool registered;          /* cudaHostRegister'd: the program's own memory */
} rt_mapped;

typedef struct rt_event {
    double ms;      /* device time it was recorded at */
    bool recorded;
    unsigned flags;
} rt_event;

typedef struct rt_launch_config {
    dim3 grid, block;
    size_t shared;
    void *stream;
} rt_launch_config;

typedef struct cudart {
    pthread_mutex_t lock;
    sim_device *dev;
    rt_backend *backend;     /* what runs kernels; NULL when start_error says why not */
    char *start_error;       /* the backend could not be made: every call fails
                                (cudaErrorInitializationError, sticky) */
    struct cudaDeviceProp prop;
    int clock_khz, mem_clock_khz;
    /* options from the environment (simtlab exec sets them) */
    uint32_t host_threads;
    bool its, stats;
    bool memcheck;          /* SIMTLAB_MEMCHECK: accesses outside live allocations fault */
    uint64_t global_window; /* SIMTLAB_GLOBAL_WINDOW: bytes of the device's address window (0: all) */
    const char *locality_dir; /* SIMTLAB_LOCALITY: write each launch's locality graphs there */
    unsigned ptx_ext;       /* SIMTLAB_PTX_EXT: extensions of PTX the embedded PTX may use (ptx_ext) */
    uint32_t locality_launches;
    /* registered code and data */
    rt_module **modules;
    uint32_t nmodules, cap_modules;
    rt_kernel **kernels;
    uint32_t nkernels, cap_kernels;
    rt_var *vars;
    uint32_t nvars, cap_vars;
    rt_mapped *mapped;
    uint32_t nmapped, cap_mapped;
    void **handles;            /* live streams and events, for validity checks */
    uint32_t nhandles, cap_handles;
    rt_launch_config configs[16]; /* <<<...>>> configurations pushed and not yet popped */
    uint32_t nconfigs;
    /* errors: the last one (cudaGetLastError) and a device fault that spoils
     * every later call until cudaDeviceReset */
    cudaError_t last_error, sticky_error;
    /* device printf output held back until the next synchronization */
    char *printf_text;
    size_t printf_len;
    FILE *printf_out;
    double device_ms;          /* the device clock (see stream.c) */
    /* cudaDeviceSetLimit's values by cudaLimit (the heap's is the
     * device's: sim_heap_get_size) */
    size_t limits[cudaLimitPersistingL2CacheSize + 1];
    unsigned device_flags; /* cudaSetDeviceFlags */
    int cache_config;      /* cudaDeviceSetCacheConfig (a preference) */
} cudart;

/* The name of error code e, "cudaErrorIllegalAddress" (errors.c). */
const char *rt_error_name(cudaError_t e);

/* The runtime, locked; rt_unlock releases it. */
cudart *rt_lock(void);
void rt_unlock(cudart *rt);
/* rt_lock for the work done at exit (the --stats report, fatbin
 * unregistration): NULL, and nothing to do, when the calling thread holds
 * the lock already, which happens only when the process ends from inside
 * a runtime call (an internal error): waiting would hang it forever. */
cudart *rt_lock_at_exit(void);

/* Record e as the last error and return it (the sticky error, once a
 * device fault has happened, wins over everything). */
cudaError_t rt_error(cudart *rt, cudaError_t e);
/* rt_error, then rt_unlock: the usual way out of an entry point. */
cudaError_t rt_return(cudart *rt, cudaError_t e);
/* Print "simtlab: <message>" on stderr and return rt_error(rt, e). */
cudaError_t rt_report(cudart *rt, cudaError_t e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record event e on stream s at the device clock (lock held); an error
 * code for a bad handle (stream.c). */
cudaError_t rt_event_record(cudart *rt, cudaEvent_t e, cudaStream_t s);
/* Whether e is an event created with cudaEventDisableTiming (lock held). */
bool rt_event_untimed(cudart *rt, cudaEvent_t e);

/* Write the held-back device printf output to stdout. */
void rt_flush_printf(cudart *rt);

/* The module of a registered kernel or variable, ready to use, or NULL
 * after printing why not (once). */
sim_program *rt_program(cudart *rt, rt_module *mod);
rt_kernel *rt_find_kernel(cudart *rt, const void *host_fun);
rt_var *rt_find_var(cudart *rt, const void *host_var);

/* The mapped allocation containing ptr, or NULL. */
rt_mapped *rt_find_mapped(cudart *rt, const void *ptr);
/* Register and forget streams and events (opaque handles we allocate). */
void rt_add_handle(cudart *rt, void *h);
bool rt_has_handle(cudart *rt, const void *h);
void rt_drop_handle(cudart *rt, const void *h);
/* A stream argument that names no live stream gives false. */
bool rt_valid_stream(cudart *rt, cudaStream_t s);

/* Advance the device clock by a copy of n bytes of the given kind. */
void rt_clock_copy(cudart *rt, uint64_t n, enum cudaMemcpyKind kind);
/* Advance it by a kernel's execution. */
void rt_clock_kernel(cudart *rt, const sim_stats *st);

/* Set the virtual device's properties and clocks (device.c) to those of
 * the GPU named gpu (SIMTLAB_GPU; NULL: the default), then those the
 * backend models. */
void rt_init_device(cudart *rt, const char *gpu);
/* Decode mod's PTX for the device if that has not been done (register.c). */
void rt_decode(cudart *rt, rt_module *mod);
/* Free the runtime's modules, allocations and handles, and start over
 * with an empty device (cudaDeviceReset keeps registrations). */
void rt_reset_device(cudart *rt);

/* Print the --stats summary (at exit). */
void rt_print_stats(cudart *rt);

#endif
