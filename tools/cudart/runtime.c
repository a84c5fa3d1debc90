/* runtime.c — the process-wide runtime object: creation from the
 * environment (its backend included), the lock, error bookkeeping,
 * held-back printf output, the handle and registration tables, and the
 * --stats report at exit. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cudart/runtime.h"
#include "ir/util.h"
#include "parser/parser.h"

static cudart the_runtime = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t the_once = PTHREAD_ONCE_INIT;

/* At exit: the --stats report, and the backend freed (the timing model
 * lives as long as the program). */
static void print_stats_at_exit(void)
{
    cudart *rt = rt_lock_at_exit();
    if (!rt)
        return;
    rt_flush_printf(rt);
    if (rt->stats)
        rt_print_stats(rt);
    rt_backend_free(rt->backend);
    rt->backend = NULL;
    rt_unlock(rt);
}

/* Unsigned value of environment variable name, or def. */
static uint32_t env_uint(const char *name, uint32_t def)
{
    const char *s = getenv(name);
    char *end;
    unsigned long v = s && *s ? strtoul(s, &end, 10) : 0;
    return s && *s && !*end && v <= UINT32_MAX ? (uint32_t)v : def;
}

/* A fresh device with the memory options read at start-up. */
static sim_device *new_device(const cudart *rt)
{
    sim_device *d = sim_device_new();
    sim_device_set_memcheck(d, rt->memcheck);
    if (rt->global_window)
        sim_device_set_global_window(d, rt->global_window, NULL, 0); /* checked at start-up */
    return d;
}

/* SIMTLAB_GLOBAL_WINDOW: the bytes of the device's global address window
 * (tests shrink it to see reuse and a full window); 0 when unset. Exits
 * with a message when it is not a size the emulator takes. */
static uint64_t env_global_window(void)
{
    const char *s = getenv("SIMTLAB_GLOBAL_WINDOW");
    if (!s || !*s)
        return 0;
    char *end, why[256];
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    sim_device *probe = sim_device_new();
    int rc = *end || errno || s[0] == '-' ? -1 : sim_device_set_global_window(probe, v, why, sizeof why);
    sim_device_free(probe);
    if (rc != 0) {
        fprintf(stderr, "simtlab: SIMTLAB_GLOBAL_WINDOW=%s: %s\n", s,
                *end || errno || s[0] == '-' ? "not a number of bytes" : why);
        exit(1);
    }
    return v;
}

/* The backend the environment asks for (backend.h), or NULL with
 * rt->start_error set and printed: then every CUDA call fails with
 * cudaErrorInitializationError (a sticky error) rather than running the
 * program anywhere else than asked. */
static rt_backend *open_backend(cudart *rt)
{
    char err[1280];
    const char *sim = getenv("SIMTLAB_SIM");
    rt_backend *b = NULL;
    if (sim && *sim && rt->locality_dir)
        snprintf(err, sizeof err, "SIMTLAB_LOCALITY (exec --locality) needs the emulator; it cannot be combined "
                 "with SIMTLAB_SIM=%s (exec --sim)", sim);
    else
        b = rt_backend_open(rt->its, err, sizeof err);
    if (!b) {
        rt->start_error = ptx_strdup(err);
        rt->sticky_error = cudaErrorInitializationError;
        fflush(stdout);
        fprintf(stderr, "simtlab: %s; every CUDA call fails (cudaErrorInitializationError)\n", err);
    }
    return b;
}

/* SIMTLAB_PTX_EXT: the extensions of PTX (parser/parser.h) the programs'
 * PTX may use, as simtlab exec --ptx-ext names them ("simtlab"); none
 * when unset. Exits with a message for a name simtlab does not know. */
static unsigned env_ptx_ext(void)
{
    const char *s = getenv("SIMTLAB_PTX_EXT");
    unsigned ext = 0;
    if (s && *s && !ptx_ext_parse(s, &ext)) {
        fprintf(stderr, "simtlab: SIMTLAB_PTX_EXT=%s: unknown extension of PTX (simtlab knows 'simtlab')\n", s);
        exit(1);
    }
    return ext;
}

/* First use: the device and the options simtlab exec passes in
 * SIMTLAB_THREADS, SIMTLAB_ITS, SIMTLAB_STATS, SIMTLAB_GPU,
 * SIMTLAB_LOCALITY, SIMTLAB_MEMCHECK and SIMTLAB_PTX_EXT (with
 * SIMTLAB_GLOBAL_WINDOW, for tests), and the backend: SIMTLAB_SIM,
 * SIMTLAB_SIM_SET and SIMTLAB_SIM_STATS choose the timing model
 * (backend.h). */
static void init_runtime(void)
{
    cudart *rt = &the_runtime;
    /* an error-checking lock: a thread locking it again is told so
     * (rt_lock_at_exit) instead of waiting for itself */
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&rt->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    rt->memcheck = env_uint("SIMTLAB_MEMCHECK", 0) != 0;
    rt->global_window = env_global_window();
    rt->ptx_ext = env_ptx_ext();
    rt->dev = new_device(rt);
    rt->host_threads = env_uint("SIMTLAB_THREADS", 1);
    rt->its = env_uint("SIMTLAB_ITS", 0) != 0;
    rt->stats = env_uint("SIMTLAB_STATS", 0) != 0;
    rt->locality_dir = getenv("SIMTLAB_LOCALITY") && *getenv("SIMTLAB_LOCALITY") ? getenv("SIMTLAB_LOCALITY") : NULL;
    rt->backend = open_backend(rt);
    rt_init_device(rt, getenv("SIMTLAB_GPU"));
    rt->printf_out = open_memstream(&rt->printf_text, &rt->printf_len);
    atexit(print_stats_at_exit);
}

cudart *rt_lock(void)
{
    pthread_once(&the_once, init_runtime);
    pthread_mutex_lock(&the_runtime.lock);
    return &the_runtime;
}

cudart *rt_lock_at_exit(void)
{
    pthread_once(&the_once, init_runtime);
    return pthread_mutex_lock(&the_runtime.lock) == 0 ? &the_runtime : NULL;
}

void rt_unlock(cudart *rt)
{
    pthread_mutex_unlock(&rt->lock);
}

cudaError_t rt_error(cudart *rt, cudaError_t e)
{
    if (rt->sticky_error)
        e = rt->sticky_error;
    if (e)
        rt->last_error = e;
    return e;
}

cudaError_t rt_return(cudart *rt, cudaError_t e)
{
    e = rt_error(rt, e);
    rt_unlock(rt);
    return e;
}

cudaError_t rt_report(cudart *rt, cudaError_t e, const char *fmt, ...)
{
    fflush(stdout);
    fputs("simtlab: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return rt_error(rt, e);
}

void rt_flush_printf(cudart *rt)
{
    if (!rt->printf_out)
        return;
    fflush(rt->printf_out);
    if (rt->printf_len) {
        fwrite(rt->printf_text, 1, rt->printf_len, stdout);
        fflush(stdout);
        rewind(rt->printf_out);
        rt->printf_len = 0;
    }
}

rt_kernel *rt_find_kernel(cudart *rt, const void *host_fun)
{
    for (uint32_t i = 0; i < rt->nkernels; i++)
        if (rt->kernels[i]->host_fun == host_fun || (const void *)rt->kernels[i] == host_fun)
            return rt->kernels[i];
    return NULL;
}

rt_var *rt_find_var(cudart *rt, const void *host_var)
{
    for (uint32_t i = 0; i < rt->nvars; i++)
        if (rt->vars[i].host_var == host_var)
            return &rt->vars[i];
    return NULL;
}

rt_mapped *rt_find_mapped(cudart *rt, const void *ptr)
{
    uintptr_t a = (uintptr_t)ptr;
    for (uint32_t i = 0; i < rt->nmapped; i++) {
        uintptr_t b = (uintptr_t)rt->mapped[i].ptr;
        if (a >= b && a - b < (rt->mapped[i].size ? rt->mapped[i].size : 1))
            return &rt->mapped[i];
    }
    return NULL;
}

void rt_add_handle(cudart *rt, void *h)
{
    PTX_GROW(rt->handles, rt->cap_handles, (uint64_t)rt->nhandles + 1);
    rt->handles[rt->nhandles++] = h;
}

bool rt_has_handle(cudart *rt, const void *h)
{
    for (uint32_t i = 0; i < rt->nhandles; i++)
        if (rt->handles[i] == h)
            return true;
    return false;
}

void rt_drop_handle(cudart *rt, const void *h)
{
    for (uint32_t i = 0; i < rt->nhandles; i++)
        if (rt->handles[i] == h) {
            rt->handles[i] = rt->handles[--rt->nhandles];
            return;
        }
}

bool rt_valid_stream(cudart *rt, cudaStream_t s)
{
    return s == NULL || s == cudaStreamLegacy || s == cudaStreamPerThread || rt_has_handle(rt, s);
}

void rt_print_stats(cudart *rt)
{
    uint64_t launches = 0, wi = 0, ti = 0;
    double secs = 0;
    for (uint32_t i = 0; i < rt->nkernels; i++) {
        const rt_kernel *k = rt->kernels[i];
        if (!k->launches)
            continue;
        fprintf(stderr, "simtlab stats: %s: %" PRIu64 " launches, %" PRIu64 " warp instructions, %" PRIu64
                " thread instructions, %.3f s\n", k->name, k->launches, k->warp_instructions,
                k->thread_instructions, k->seconds);
        launches += k->launches;
        wi += k->warp_instructions;
        ti += k->thread_instructions;
        secs += k->seconds;
    }
    fprintf(stderr, "simtlab stats: total: %" PRIu64 " launches, %" PRIu64 " warp instructions, %" PRIu64
            " thread instructions, %.3f s emulating (%.1f M thread instructions/s), device clock %.3f ms\n",
            launches, wi, ti, secs, secs > 0 ? (double)ti / secs / 1e6 : 0.0, rt->device_ms);
}

void rt_reset_device(cudart *rt)
{
    for (uint32_t i = 0; i < rt->nmodules; i++) {
        sim_program_free(rt->modules[i]->p);
        rt->modules[i]->p = NULL;
    }
    sim_device_free(rt->dev);
    rt->dev = new_device(rt);
    for (uint32_t i = 0; i < rt->nhandles; i++)
        free(rt->handles[i]);
    rt->nhandles = rt->nmapped = rt->nconfigs = 0;
    rt->last_error = rt->sticky_error = cudaSuccess;
    if (rt->start_error) /* a reset cannot start a backend that could not start */
        rt->sticky_error = cudaErrorInitializationError;
    for (uint32_t i = 0; i < rt->nmodules; i++) /* managed variables get their new addresses */
        rt_decode(rt, rt->modules[i]);
}
