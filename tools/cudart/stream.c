/* stream.c — streams, events, synchronization and the device clock.
 *
 * Work runs when submitted (runtime.h), so a stream is a name with flags
 * and a priority, and synchronizing means delivering held-back printf
 * output and any error. Events read the device clock: a deterministic
 * estimate of device time that kernels and copies advance, so that
 * cudaEventElapsedTime is reproducible from run to run:
 *   a kernel: the backend's time for it (backend.h): on the emulator an
 *             estimate from the instructions issued, on the timing model
 *             the simulated cycles at the core clock;
 *   a copy:   1 us + bytes at 25 GB/s between host and device, or at 1 TB/s
 *             within the device (memset too); no backend simulates copies. */
#include <stdlib.h>

#include "tools/cudart/runtime.h"
#include "ir/util.h"

enum { TAG_STREAM = 0x5354524d, TAG_EVENT = 0x4556454e };

typedef struct rt_stream {
    int tag;
    unsigned flags;
    int priority;
} rt_stream;

typedef struct rt_event_obj {
    int tag;
    rt_event ev;
} rt_event_obj;

void rt_clock_copy(cudart *rt, uint64_t n, enum cudaMemcpyKind kind)
{
    double bytes_per_ms = kind == cudaMemcpyDeviceToDevice ? 1e9 : 25e6;
    rt->device_ms += 1e-3 + (double)n / bytes_per_ms;
}

void rt_clock_kernel(cudart *rt, const sim_stats *st)
{
    rt_device_clocks clocks = {rt->clock_khz, rt->mem_clock_khz};
    rt->device_ms += rt->backend->ops->kernel_ms(rt->backend, st, &rt->prop, &clocks);
}

/* The event behind handle e, or NULL. */
static rt_event *event_of(cudart *rt, cudaEvent_t e)
{
    rt_event_obj *o = (rt_event_obj *)e;
    return e && rt_has_handle(rt, e) && o->tag == TAG_EVENT ? &o->ev : NULL;
}

bool rt_event_untimed(cudart *rt, cudaEvent_t e)
{
    const rt_event *ev = event_of(rt, e);
    return ev && (ev->flags & cudaEventDisableTiming);
}

/* Create a stream with flags and priority (lock held). */
static cudaError_t new_stream(cudart *rt, cudaStream_t *s, unsigned flags, int priority)
{
    if (!s)
        return rt_error(rt, cudaErrorInvalidValue);
    rt_stream *st = ptx_xcalloc(1, sizeof *st);
    *st = (rt_stream){TAG_STREAM, flags, priority < -5 ? -5 : priority > 0 ? 0 : priority};
    rt_add_handle(rt, st);
    *s = (cudaStream_t)st;
    return rt_error(rt, cudaSuccess);
}

cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    cudart *rt = rt_lock();
    cudaError_t e = new_stream(rt, s, 0, 0);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    cudart *rt = rt_lock();
    cudaError_t e = new_stream(rt, s, flags, 0);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
    cudart *rt = rt_lock();
    cudaError_t e = new_stream(rt, s, flags, priority);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return cudaSuccess;
}

/* The stream behind handle s (NULL for the default streams); false when
 * s names no live stream. */
static bool stream_of(cudart *rt, cudaStream_t s, rt_stream **out)
{
    *out = NULL;
    if (!rt_valid_stream(rt, s))
        return false;
    if (s != NULL && s != cudaStreamLegacy && s != cudaStreamPerThread) {
        *out = (rt_stream *)s;
        return (*out)->tag == TAG_STREAM;
    }
    return true;
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    cudart *rt = rt_lock();
    rt_stream *st;
    if (!stream_of(rt, s, &st) || !st)
        return rt_return(rt, cudaErrorInvalidResourceHandle);
    rt_drop_handle(rt, st);
    free(st);
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags)
{
    cudart *rt = rt_lock();
    rt_stream *st;
    if (!flags || !stream_of(rt, s, &st))
        return rt_return(rt, cudaErrorInvalidResourceHandle);
    *flags = st ? st->flags : 0;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
    cudart *rt = rt_lock();
    rt_stream *st;
    if (!priority || !stream_of(rt, s, &st))
        return rt_return(rt, cudaErrorInvalidResourceHandle);
    *priority = st ? st->priority : 0;
    return rt_return(rt, cudaSuccess);
}

/* Everything submitted has run: deliver printf output and errors. */
static cudaError_t synchronize(cudaStream_t s)
{
    cudart *rt = rt_lock();
    rt_flush_printf(rt);
    return rt_return(rt, rt_valid_stream(rt, s) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    return synchronize(s);
}

cudaError_t cudaDeviceSynchronize(void)
{
    return synchronize(NULL);
}

cudaError_t cudaStreamQuery(cudaStream_t s)
{
    cudart *rt = rt_lock();
    return rt_return(rt, rt_valid_stream(rt, s) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    cudart *rt = rt_lock();
    return rt_return(rt, rt_valid_stream(rt, s) && event_of(rt, e) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

typedef void (*host_fn)(void *);
typedef void (*stream_callback)(cudaStream_t, cudaError_t, void *);

/* Host functions run at once: everything before them has completed. */
cudaError_t cudaLaunchHostFunc(cudaStream_t s, host_fn fn, void *data)
{
    cudart *rt = rt_lock();
    bool ok = fn && rt_valid_stream(rt, s);
    rt_flush_printf(rt);
    rt_unlock(rt);
    if (!ok)
        return cudaErrorInvalidValue;
    fn(data);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t s, stream_callback cb, void *data, unsigned flags)
{
    cudart *rt = rt_lock();
    bool ok = cb && rt_valid_stream(rt, s) && flags == 0;
    cudaError_t status = rt->sticky_error;
    rt_flush_printf(rt);
    rt_unlock(rt);
    if (!ok)
        return cudaErrorInvalidValue;
    cb(s, status, data);
    return cudaSuccess;
}

/* ---- events ------------------------------------------------------------- */

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    cudart *rt = rt_lock();
    if (!e)
        return rt_return(rt, cudaErrorInvalidValue);
    rt_event_obj *o = ptx_xcalloc(1, sizeof *o);
    o->tag = TAG_EVENT;
    o->ev.flags = flags;
    rt_add_handle(rt, o);
    *e = (cudaEvent_t)o;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    return cudaEventCreateWithFlags(e, 0);
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    cudart *rt = rt_lock();
    if (!event_of(rt, e))
        return rt_return(rt, cudaErrorInvalidResourceHandle);
    rt_drop_handle(rt, e);
    free(e);
    return rt_return(rt, cudaSuccess);
}

cudaError_t rt_event_record(cudart *rt, cudaEvent_t e, cudaStream_t s)
{
    rt_event *ev = event_of(rt, e);
    if (!ev || !rt_valid_stream(rt, s))
        return cudaErrorInvalidResourceHandle;
    ev->recorded = true;
    ev->ms = rt->device_ms;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    cudart *rt = rt_lock();
    return rt_return(rt, rt_event_record(rt, e, s));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags)
{
    return cudaEventRecord(e, s);
}

cudaError_t cudaEventQuery(cudaEvent_t e)
{
    cudart *rt = rt_lock();
    return rt_return(rt, event_of(rt, e) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    cudart *rt = rt_lock();
    rt_flush_printf(rt);
    return rt_return(rt, event_of(rt, e) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    cudart *rt = rt_lock();
    rt_event *a = event_of(rt, start), *b = event_of(rt, end);
    if (!ms)
        return rt_return(rt, cudaErrorInvalidValue);
    if (!a || !b || ((a->flags | b->flags) & cudaEventDisableTiming))
        return rt_return(rt, cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        return rt_return(rt, cudaErrorInvalidResourceHandle);
    *ms = (float)(b->ms - a->ms);
    return rt_return(rt, cudaSuccess);
}
