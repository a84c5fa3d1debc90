/* launch_timer.c — an LD_PRELOAD library for a CUDA program linked with
 * -cudart shared: every launch (cudaLaunchKernel, and __cudaLaunchKernel,
 * which CUDA 13's <<<>>> calls) is timed on the GPU with two events around
 * it (the launch is waited for, so launches no longer overlap one another
 * or the host) and one line per launch is appended to the file
 * $LAUNCH_TIMER_OUT: "KERNEL GRID/BLOCK MS" (KERNEL: the host stub's
 * symbol, or the kernel handle's address). tools/gpu/compare.py sums
 * these per program, on the GPU and on simtlab's timing model.
 *   cc -shared -fPIC -O2 -o launch_timer.so launch_timer.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct dim3 {
    unsigned x, y, z;
} dim3;
typedef void *event_t;
typedef int (*launch_fn)(const void *, dim3, dim3, void **, size_t, void *);
typedef int (*event_create_fn)(event_t *);
typedef int (*event_record_fn)(event_t, void *);
typedef int (*event_sync_fn)(event_t);
typedef int (*event_elapsed_fn)(float *, event_t, event_t);
typedef int (*event_destroy_fn)(event_t);

/* The runtime's function `name`, or exit with a message. */
static void *runtime(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "launch_timer: no %s in the CUDA runtime\n", name);
        exit(1);
    }
    return f;
}

/* Launch through the runtime's `name`, timed; append the line. A launch
 * the runtime makes from inside another (one entry point calling the
 * other) passes through untimed. */
static int timed(const char *name, const void *kernel, dim3 grid, dim3 block, void **args, size_t shared,
                 void *stream)
{
    static __thread int depth; /* an interposer has nowhere else to keep it */
    launch_fn launch = (launch_fn)runtime(name);
    if (depth)
        return launch(kernel, grid, block, args, shared, stream);
    depth++;
    event_create_fn create = (event_create_fn)runtime("cudaEventCreate");
    event_record_fn record = (event_record_fn)runtime("cudaEventRecord");
    event_sync_fn sync = (event_sync_fn)runtime("cudaEventSynchronize");
    event_elapsed_fn elapsed = (event_elapsed_fn)runtime("cudaEventElapsedTime");
    event_destroy_fn destroy = (event_destroy_fn)runtime("cudaEventDestroy");
    event_t a = NULL, b = NULL;
    create(&a);
    create(&b);
    record(a, stream);
    int rc = launch(kernel, grid, block, args, shared, stream);
    record(b, stream);
    float ms = -1;
    if (rc == 0 && sync(b) == 0)
        elapsed(&ms, a, b);
    destroy(a);
    destroy(b);
    depth--;
    const char *path = getenv("LAUNCH_TIMER_OUT");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        Dl_info info;
        if (dladdr(kernel, &info) && info.dli_sname)
            fprintf(f, "%s", info.dli_sname);
        else
            fprintf(f, "kernel@%p", kernel);
        fprintf(f, " %ux%ux%u/%ux%ux%u %.6f\n", grid.x, grid.y, grid.z, block.x, block.y, block.z, ms);
        fclose(f);
    }
    return rc;
}

int cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, void *stream)
{
    return timed("cudaLaunchKernel", func, grid, block, args, shared, stream);
}

int __cudaLaunchKernel(const void *kernel, dim3 grid, dim3 block, void **args, size_t shared, void *stream)
{
    return timed("__cudaLaunchKernel", kernel, grid, block, args, shared, stream);
}
