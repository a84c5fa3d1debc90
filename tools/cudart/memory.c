/* memory.c — allocation, copies, memset and symbols.
 *
 * cudaMalloc memory lives in the emulator's device (guest addresses that
 * the host cannot dereference, as on a GPU). Pinned host memory
 * (cudaMallocHost, cudaHostAlloc) and managed memory are mapped: host and
 * kernels use one address, as with unified addressing. So is host memory
 * the program registers (cudaHostRegister): the emulator's allocation
 * table names it at its own address, borrowed, until cudaHostUnregister.
 * Copies find each side's storage: a device allocation, or plain host
 * memory. */
#include <string.h>

#include "tools/cudart/runtime.h"
#include "ir/util.h"

/* Where a copy's side is. */
enum side { SIDE_HOST, SIDE_DEVICE, SIDE_MAPPED, SIDE_BAD };

/* Locate n bytes at p: their host storage in *h and which kind of memory
 * holds them; SIDE_BAD when p is device memory the n bytes overrun, or a
 * device address that is no longer (or never was) allocated. */
static enum side locate(cudart *rt, const void *p, uint64_t n, void **h)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    void *d = sim_host_pointer(rt->dev, a, n ? n : 1);
    if (d) {
        *h = d;
        return d == p ? SIDE_MAPPED : SIDE_DEVICE;
    }
    *h = (void *)p;
    /* the constant window (cudaGetSymbolAddress of a __constant__) is not
     * host memory either; copy to such variables by symbol */
    if (sim_host_pointer(rt->dev, a, 1) || sim_device_range(rt->dev, a) || !p ||
        a - SIM_CONST_WINDOW < SIM_WINDOW_SIZE)
        return SIDE_BAD;
    return SIDE_HOST;
}

/* Is side s acceptable where a copy of kind k expects device (dev) or host
 * memory? Mapped memory is both; cudaMemcpyDefault accepts anything. */
static bool side_ok(enum side s, bool dev, enum cudaMemcpyKind k)
{
    if (s == SIDE_BAD)
        return false;
    if (k == cudaMemcpyDefault || s == SIDE_MAPPED)
        return true;
    return dev ? s == SIDE_DEVICE : s == SIDE_HOST;
}

/* The copy every cudaMemcpy variant comes down to (lock held). */
static cudaError_t copy(cudart *rt, void *dst, const void *src, uint64_t n, enum cudaMemcpyKind kind,
                        const char *who)
{
    if ((unsigned)kind > cudaMemcpyDefault)
        return rt_error(rt, cudaErrorInvalidMemcpyDirection);
    if (n == 0)
        return rt_error(rt, cudaSuccess);
    void *hd, *hs;
    enum side sd = locate(rt, dst, n, &hd), ss = locate(rt, src, n, &hs);
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (!side_ok(sd, dst_dev, kind) || !side_ok(ss, src_dev, kind))
        return rt_report(rt, cudaErrorInvalidValue, "%s of %llu bytes from %p to %p: %s is not %s memory of that "
                         "size", who, (unsigned long long)n, src, dst,
                         !side_ok(sd, dst_dev, kind) ? "the destination" : "the source",
                         sd == SIDE_BAD || ss == SIDE_BAD ? "allocated" : "the kind's");
    memmove(hd, hs, n);
    rt_clock_copy(rt, n, kind == cudaMemcpyDefault ? (sd == SIDE_HOST   ? cudaMemcpyDeviceToHost
                                                      : ss == SIDE_HOST ? cudaMemcpyHostToDevice
                                                                        : cudaMemcpyDeviceToDevice)
                                                   : kind);
    return rt_error(rt, cudaSuccess);
}

/* Does a 2D region of `height` rows of `width` bytes, `pitch` apart from
 * base, run past the end of the address space (or start at NULL)? Checked
 * on integers, before any pointer arithmetic on it. */
static bool rows_wrap(const void *base, size_t pitch, size_t width, size_t height)
{
    uintptr_t b = (uintptr_t)base;
    return !b || (height - 1 && height - 1 > (UINTPTR_MAX - width) / (pitch ? pitch : 1)) ||
           (height - 1) * pitch + width > UINTPTR_MAX - b;
}

/* Rows of a 2D copy (lock held). */
static cudaError_t copy_2d(cudart *rt, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                           size_t height, enum cudaMemcpyKind kind)
{
    if (width > dpitch || width > spitch)
        return rt_error(rt, cudaErrorInvalidPitchValue);
    if (width == 0 || height == 0) /* nothing to copy, however many rows */
        return rt_error(rt, cudaSuccess);
    if (rows_wrap(dst, dpitch, width, height) || rows_wrap(src, spitch, width, height))
        return rt_report(rt, cudaErrorInvalidValue, "cudaMemcpy2D of %zu rows of %zu bytes: the rows are not in "
                         "the address space (NULL, or past its end)", height, width);
    for (size_t r = 0; r < height; r++) {
        cudaError_t e = copy(rt, (char *)dst + r * dpitch, (const char *)src + r * spitch, width, kind,
                             "cudaMemcpy2D");
        if (e)
            return e;
    }
    return cudaSuccess;
}

/* Fill rows of device memory (lock held). */
static cudaError_t fill(cudart *rt, void *p, size_t pitch, int value, size_t width, size_t height)
{
    if (width > pitch && height > 1)
        return rt_error(rt, cudaErrorInvalidPitchValue);
    if (width == 0 || height == 0) /* nothing to set, however many rows */
        return rt_error(rt, cudaSuccess);
    if (rows_wrap(p, pitch, width, height))
        return rt_report(rt, cudaErrorInvalidValue, "%s of %zu rows of %zu bytes: the rows are not in the address "
                         "space (NULL, or past its end)", height > 1 ? "cudaMemset2D" : "cudaMemset", height, width);
    for (size_t r = 0; r < height; r++) {
        void *h;
        enum side s = locate(rt, (char *)p + r * pitch, width, &h);
        if (width && s != SIDE_DEVICE && s != SIDE_MAPPED)
            return rt_report(rt, cudaErrorInvalidValue, "cudaMemset of %zu bytes at %p: not allocated device "
                             "memory of that size", width, (void *)((char *)p + r * pitch));
        memset(h, value, width);
    }
    rt_clock_copy(rt, (uint64_t)width * height, cudaMemcpyDeviceToDevice);
    return rt_error(rt, cudaSuccess);
}

/* ---- allocation ---------------------------------------------------------- */

cudaError_t cudaMalloc(void **ptr, size_t size)
{
    cudart *rt = rt_lock();
    if (!ptr)
        return rt_return(rt, cudaErrorInvalidValue);
    *ptr = NULL;
    uint64_t addr;
    char err[256];
    if (size == 0)
        return rt_return(rt, cudaSuccess);
    uint64_t used = sim_device_bytes_in_use(rt->dev);
    if (size > rt->prop.totalGlobalMem - (used < rt->prop.totalGlobalMem ? used : rt->prop.totalGlobalMem)) {
        cudaError_t e = rt_report(rt, cudaErrorMemoryAllocation, "cudaMalloc of %zu bytes: the device has %zu "
                                  "bytes of memory and %llu are in use", size, rt->prop.totalGlobalMem,
                                  (unsigned long long)used);
        rt_unlock(rt);
        return e;
    }
    if (sim_malloc(rt->dev, size, "cudaMalloc", &addr, err, sizeof err) != 0) {
        cudaError_t e = rt_report(rt, cudaErrorMemoryAllocation, "cudaMalloc of %zu bytes: %s", size, err);
        rt_unlock(rt);
        return e;
    }
    *ptr = (void *)(uintptr_t)addr;
    return rt_return(rt, cudaSuccess);
}

/* Allocate mapped memory of the given type (lock held). */
static cudaError_t alloc_mapped(cudart *rt, void **ptr, size_t size, enum cudaMemoryType type)
{
    if (!ptr)
        return rt_error(rt, cudaErrorInvalidValue);
    *ptr = NULL;
    if (size == 0)
        return rt_error(rt, cudaSuccess);
    char err[256];
    void *h;
    const char *who = type == cudaMemoryTypeManaged ? "cudaMallocManaged" : "cudaMallocHost";
    if (size > rt->prop.totalGlobalMem)
        return rt_error(rt, cudaErrorMemoryAllocation);
    if (sim_malloc_mapped(rt->dev, size, who, &h, err, sizeof err) != 0)
        return rt_report(rt, cudaErrorMemoryAllocation, "%s of %zu bytes: %s", who, size, err);
    PTX_GROW(rt->mapped, rt->cap_mapped, (uint64_t)rt->nmapped + 1);
    rt->mapped[rt->nmapped++] = (rt_mapped){h, size, type, cudaHostAllocMapped, false};
    *ptr = h;
    return rt_error(rt, cudaSuccess);
}

cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned flags)
{
    cudart *rt = rt_lock();
    cudaError_t e = alloc_mapped(rt, ptr, size, cudaMemoryTypeManaged);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    cudart *rt = rt_lock();
    cudaError_t e = alloc_mapped(rt, ptr, size, cudaMemoryTypeHost);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned flags)
{
    return cudaMallocHost(ptr, size);
}

/* Rows of width bytes padded to 512 (the texture alignment). A row or a
 * whole that does not fit in size_t is more memory than any device has:
 * cudaErrorMemoryAllocation, one of the two errors the function documents
 * (cudaErrorInvalidValue is for missing pointers), and what cudaMalloc
 * says of any size over the device's memory; *ptr is NULL then. */
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    if (!ptr || !pitch) {
        cudart *rt = rt_lock();
        return rt_return(rt, cudaErrorInvalidValue);
    }
    *ptr = NULL;
    *pitch = 0;
    cudart *rt = rt_lock();
    /* Either dimension alone larger than the device's memory is refused even
     * when the other is zero: no GPU holds a row that wide or that many rows,
     * and a zero-byte success would hide the caller's bug. */
    size_t total = rt->prop.totalGlobalMem;
    if (width > total || height > total || ((width + 511) & ~(size_t)511) > SIZE_MAX / (height ? height : 1))
        return rt_return(rt, rt_report(rt, cudaErrorMemoryAllocation, "cudaMallocPitch of %zu rows of %zu bytes: "
                                       "more memory than the device has", height, width));
    rt_unlock(rt);
    size_t p = (width + 511) & ~(size_t)511;
    cudaError_t e = cudaMalloc(ptr, p * height);
    if (e == cudaSuccess)
        *pitch = p;
    return e;
}

/* Free device or mapped memory at p of the expected kind (lock held). */
static cudaError_t release(cudart *rt, void *p, bool host)
{
    if (!p)
        return rt_error(rt, cudaSuccess);
    rt_mapped *m = rt_find_mapped(rt, p);
    if (m && m->registered)
        return rt_report(rt, cudaErrorInvalidValue, "%s(%p): registered host memory, which cudaHostUnregister "
                         "releases", host ? "cudaFreeHost" : "cudaFree", p);
    if (host ? !m || m->type != cudaMemoryTypeHost || m->ptr != p
             : (m && (m->type != cudaMemoryTypeManaged || m->ptr != p)))
        return rt_report(rt, cudaErrorInvalidValue, "%s(%p): not an allocation it can free", host ? "cudaFreeHost"
                         : "cudaFree", p);
    if (sim_free(rt->dev, (uint64_t)(uintptr_t)p, NULL, 0) != 0)
        return rt_report(rt, cudaErrorInvalidValue, "cudaFree(%p): not an allocation (or freed already)", p);
    if (m)
        *m = rt->mapped[--rt->nmapped];
    return rt_error(rt, cudaSuccess);
}

cudaError_t cudaFree(void *p)
{
    cudart *rt = rt_lock();
    rt_flush_printf(rt);
    cudaError_t e = release(rt, p, false);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaFreeHost(void *p)
{
    cudart *rt = rt_lock();
    cudaError_t e = release(rt, p, true);
    rt_unlock(rt);
    return e;
}

/* Mapped and registered memory has one address for host and kernels (as
 * under unified addressing with cudaDevAttrCanUseHostPointerForRegisteredMem);
 * flags "must be set to 0 for now". */
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    cudart *rt = rt_lock();
    if (!dev || flags || !rt_find_mapped(rt, host))
        return rt_return(rt, cudaErrorInvalidValue);
    *dev = host;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaHostGetFlags(unsigned *flags, void *host)
{
    cudart *rt = rt_lock();
    rt_mapped *m = flags ? rt_find_mapped(rt, host) : NULL;
    if (!m)
        return rt_return(rt, cudaErrorInvalidValue);
    *flags = m->flags;
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    cudart *rt = rt_lock();
    if (!a)
        return rt_return(rt, cudaErrorInvalidValue);
    void *h;
    enum side s = locate(rt, p, 1, &h);
    rt_mapped *m = rt_find_mapped(rt, p);
    *a = (struct cudaPointerAttributes){.type = cudaMemoryTypeUnregistered, .device = 0};
    if (m) {
        a->type = m->type;
        a->devicePointer = a->hostPointer = (void *)p;
    } else if (s == SIDE_DEVICE) {
        a->type = cudaMemoryTypeDevice;
        a->devicePointer = (void *)p;
    }
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    cudart *rt = rt_lock();
    uint64_t used = sim_device_bytes_in_use(rt->dev);
    if (free_bytes)
        *free_bytes = used < rt->prop.totalGlobalMem ? rt->prop.totalGlobalMem - used : 0;
    if (total)
        *total = rt->prop.totalGlobalMem;
    return rt_return(rt, cudaSuccess);
}

/* The mapped or registered range that [p, p + size) overlaps, or NULL
 * (lock held). */
static rt_mapped *overlapping_mapped(cudart *rt, const void *p, size_t size)
{
    uintptr_t lo = (uintptr_t)p;
    for (uint32_t i = 0; i < rt->nmapped; i++) {
        uintptr_t b = (uintptr_t)rt->mapped[i].ptr;
        if (b < lo + size && lo < b + (rt->mapped[i].size ? rt->mapped[i].size : 1))
            return &rt->mapped[i];
    }
    return NULL;
}

/* Page-locking changes nothing here, but kernels can reach the range
 * from now on: the emulator's allocation table names it at its own
 * address (mapped and portable whatever the flags, as under unified
 * addressing). Flags outside the documented ones are cudaErrorInvalidValue;
 * IoMemory is taken as ordinary memory; with ReadOnly a kernel's write
 * there is an illegal address (700), as a GPU's write to a read-only
 * mapping faults. */
cudaError_t cudaHostRegister(void *p, size_t size, unsigned flags)
{
    const unsigned known = cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterIoMemory |
                           cudaHostRegisterReadOnly;
    cudart *rt = rt_lock();
    if (!p || !size || (flags & ~known))
        return rt_return(rt, rt_report(rt, cudaErrorInvalidValue, "cudaHostRegister(%p, %zu, 0x%x): %s", p, size,
                                       flags, !p ? "a null pointer" : !size ? "an empty range" : "unknown flags"));
    if (size > UINTPTR_MAX - (uintptr_t)p)
        return rt_return(rt, rt_report(rt, cudaErrorInvalidValue, "cudaHostRegister(%p, %zu): the range runs past "
                                       "the address space", p, size));
    /* as CUDA 13.0 answers (tools/gpu/README.md): memory of cudaMallocHost
     * is an invalid value, a registered range already registered */
    const rt_mapped *old = overlapping_mapped(rt, p, size);
    if (old)
        return rt_return(rt, old->registered ? cudaErrorHostMemoryAlreadyRegistered : cudaErrorInvalidValue);
    char err[256];
    if (sim_register_host(rt->dev, p, size, flags & cudaHostRegisterReadOnly, "cudaHostRegister", err,
                          sizeof err) != 0)
        return rt_return(rt, rt_report(rt, cudaErrorInvalidValue, "cudaHostRegister(%p, %zu): %s", p, size, err));
    PTX_GROW(rt->mapped, rt->cap_mapped, (uint64_t)rt->nmapped + 1);
    rt->mapped[rt->nmapped++] = (rt_mapped){p, size, cudaMemoryTypeHost, flags, true};
    return rt_return(rt, cudaSuccess);
}

/* "The base address must be the same one specified to cudaHostRegister()".
 * As CUDA 13.0 answers (tools/gpu/README.md): memory no registration or
 * allocation covers is cudaErrorHostMemoryNotRegistered; a pointer inside
 * a registered range, or to memory of cudaMallocHost, an invalid value. */
cudaError_t cudaHostUnregister(void *p)
{
    cudart *rt = rt_lock();
    if (!p)
        return rt_return(rt, cudaErrorInvalidValue);
    rt_mapped *m = rt_find_mapped(rt, p);
    if (!m)
        return rt_return(rt, cudaErrorHostMemoryNotRegistered);
    if (!m->registered || m->ptr != p)
        return rt_return(rt, cudaErrorInvalidValue);
    rt_flush_printf(rt);
    char err[256];
    if (sim_unregister_host(rt->dev, p, err, sizeof err) != 0)
        return rt_return(rt, rt_report(rt, cudaErrorHostMemoryNotRegistered, "cudaHostUnregister(%p): %s", p, err));
    *m = rt->mapped[--rt->nmapped];
    return rt_return(rt, cudaSuccess);
}

/* Managed memory is always where both sides can read it: prefetches and
 * advice have nothing to do (their further arguments are not needed). */
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n)
{
    cudart *rt = rt_lock();
    return rt_return(rt, cudaSuccess);
}

cudaError_t cudaMemAdvise(const void *p, size_t n)
{
    cudart *rt = rt_lock();
    return rt_return(rt, cudaSuccess);
}

/* ---- copies and memset ----------------------------------------------------- */

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    cudart *rt = rt_lock();
    rt_flush_printf(rt);
    cudaError_t e = copy(rt, dst, src, n, kind, "cudaMemcpy");
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t s)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt_valid_stream(rt, s) ? copy(rt, dst, src, n, kind, "cudaMemcpyAsync")
                                           : rt_error(rt, cudaErrorInvalidResourceHandle);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind)
{
    cudart *rt = rt_lock();
    rt_flush_printf(rt);
    cudaError_t e = copy_2d(rt, dst, dpitch, src, spitch, width, height, kind);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                              size_t height, enum cudaMemcpyKind kind, cudaStream_t s)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt_valid_stream(rt, s) ? copy_2d(rt, dst, dpitch, src, spitch, width, height, kind)
                                           : rt_error(rt, cudaErrorInvalidResourceHandle);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemset(void *p, int value, size_t n)
{
    cudart *rt = rt_lock();
    cudaError_t e = fill(rt, p, n, value, n, 1);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt_valid_stream(rt, s) ? fill(rt, p, n, value, n, 1)
                                           : rt_error(rt, cudaErrorInvalidResourceHandle);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height)
{
    cudart *rt = rt_lock();
    cudaError_t e = fill(rt, p, pitch, value, width, height);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int value, size_t width, size_t height, cudaStream_t s)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt_valid_stream(rt, s) ? fill(rt, p, pitch, value, width, height)
                                           : rt_error(rt, cudaErrorInvalidResourceHandle);
    rt_unlock(rt);
    return e;
}

/* ---- symbols ------------------------------------------------------------------ */

/* The storage of the registered variable whose host shadow is symbol
 * (lock held); cudaErrorInvalidSymbol when there is none. */
static cudaError_t find_symbol(cudart *rt, const void *symbol, sim_symbol_info *out)
{
    rt_var *v = rt_find_var(rt, symbol);
    if (!v)
        return rt_error(rt, cudaErrorInvalidSymbol);
    sim_program *p = rt_program(rt, v->mod);
    if (!p)
        return rt_error(rt, cudaErrorInvalidPtx);
    char err[256];
    if (sim_program_symbol(p, v->name, out, err, sizeof err) != 0)
        return rt_report(rt, cudaErrorInvalidSymbol, "%s", err);
    return cudaSuccess;
}

/* Copy between a symbol's bytes [offset, offset + n) and buf (lock held). */
static cudaError_t symbol_copy(cudart *rt, const void *symbol, void *buf, size_t n, size_t offset,
                               enum cudaMemcpyKind kind, bool to_symbol)
{
    sim_symbol_info s;
    cudaError_t e = find_symbol(rt, symbol, &s);
    if (e)
        return e;
    if (offset > s.size || n > s.size - offset)
        return rt_error(rt, cudaErrorInvalidValue);
    if (to_symbol && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_error(rt, cudaErrorInvalidMemcpyDirection);
    if (!to_symbol && kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return rt_error(rt, cudaErrorInvalidMemcpyDirection);
    void *h;
    enum side side = locate(rt, buf, n, &h);
    if (side == SIDE_BAD || (kind == cudaMemcpyDeviceToDevice && side == SIDE_HOST))
        return rt_report(rt, cudaErrorInvalidValue, "copy of %zu bytes %s symbol %s: %p is not valid memory of "
                         "that kind", n, to_symbol ? "to" : "from", rt_find_var(rt, symbol)->name, buf);
    if (to_symbol)
        memmove((char *)s.host + offset, h, n);
    else
        memmove(h, (const char *)s.host + offset, n);
    rt_clock_copy(rt, n, side == SIDE_HOST ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice);
    return rt_error(rt, cudaSuccess);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t offset,
                               enum cudaMemcpyKind kind)
{
    cudart *rt = rt_lock();
    cudaError_t e = symbol_copy(rt, symbol, (void *)src, n, offset, kind, true);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t offset, enum cudaMemcpyKind kind)
{
    cudart *rt = rt_lock();
    rt_flush_printf(rt);
    cudaError_t e = symbol_copy(rt, symbol, dst, n, offset, kind, false);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n, size_t offset,
                                    enum cudaMemcpyKind kind, cudaStream_t s)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt_valid_stream(rt, s) ? symbol_copy(rt, symbol, (void *)src, n, offset, kind, true)
                                           : rt_error(rt, cudaErrorInvalidResourceHandle);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n, size_t offset,
                                      enum cudaMemcpyKind kind, cudaStream_t s)
{
    cudart *rt = rt_lock();
    cudaError_t e = rt_valid_stream(rt, s) ? symbol_copy(rt, symbol, dst, n, offset, kind, false)
                                           : rt_error(rt, cudaErrorInvalidResourceHandle);
    rt_unlock(rt);
    return e;
}

cudaError_t cudaGetSymbolAddress(void **ptr, const void *symbol)
{
    cudart *rt = rt_lock();
    sim_symbol_info s;
    cudaError_t e = ptr ? find_symbol(rt, symbol, &s) : cudaErrorInvalidValue;
    if (!e)
        *ptr = (void *)(uintptr_t)s.addr;
    return rt_return(rt, e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
    cudart *rt = rt_lock();
    sim_symbol_info s;
    cudaError_t e = size ? find_symbol(rt, symbol, &s) : cudaErrorInvalidValue;
    if (!e)
        *size = s.size;
    return rt_return(rt, e);
}

/* ---- arrays ---------------------------------------------------------------------- */

/* CUDA arrays are not supported, but their channel descriptions are plain
 * values (returned by value, so no stub may stand in for this). */
struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, enum cudaChannelFormatKind f)
{
    return (struct cudaChannelFormatDesc){x, y, z, w, f};
}
