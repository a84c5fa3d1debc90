/* fuzz_runtime.c — libFuzzer harness for the CUDA runtime (libcudart):
 * sequences of runtime calls with hostile arguments.
 *
 * An input is a small program: each step is an opcode byte and the bytes
 * its arguments are drawn from. Steps allocate (cudaMalloc, MallocPitch,
 * MallocHost, MallocManaged), free, copy (1D, 2D, async), set memory, set
 * and read limits, make and use streams and events, and launch a tiny
 * kernel (registered from PTX at start-up) with a fuzzed configuration.
 * Pointers are chosen among live allocations (in and out of bounds), freed
 * ones, NULL and addresses in the emulator's windows; sizes include values
 * near 2^32 and 2^64. After every call the harness checks:
 *   - no crash, hang, leak or sanitizer report (the fuzzer's own checks);
 *   - the result is one of CUDA's error codes (tools/cudart/errors.def);
 *   - a call that must succeed on a GPU does (a small allocation, an
 *     in-bounds copy, a launch within the device limits), unless a device
 *     fault has spoiled the context (the program stops after that step);
 *   - a call that returns success did its job: new memory is usable over
 *     its whole size, a memset or copy reads back, a launch wrote what the
 *     kernel writes, a limit reads back at least what was set;
 *   - a call that cannot succeed on a GPU fails (a double free, a copy out
 *     of bounds, a launch beyond the limits of the CUDA programming guide).
 * The host side of every copy is honest (the harness's own buffer, or live
 * mapped memory, with room for the copy), as a GPU cannot protect a
 * program from its own host pointers. Every input starts on a reset
 * device. SIMTLAB_FUZZ_TRACE=1 prints each call and its result. Built with -Dfuzz=true;
 * tests/replay.c runs the same function over the seeds and regression
 * inputs in every build. See README.md. */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/cudart/abi.h"
#include "emulator/sim.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- the runtime calls used (prototypes of the toolkit's headers) ---- */
void **__cudaRegisterFatBinary(void *fat_cubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *host_fun, char *device_fun, const char *device_name,
                            int thread_limit, void *tid, void *bid, void *bdim, void *gdim, int *wsize);
cudaError_t cudaMalloc(void **ptr, size_t size);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned flags);
cudaError_t cudaMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t s);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *p, int value, size_t n);
cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s);
cudaError_t cudaMemset2D(void *p, size_t pitch, int value, size_t width, size_t height);
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t s);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);

/* ---- the kernel ---------------------------------------------------------- */

/* fill(p, n, v): thread i < n of the grid stores v to p[i] (32-bit). */
static const char fill_ptx[] =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry fill(.param .u64 p, .param .u32 n, .param .u32 v)\n{\n"
    " .reg .pred %q;\n .reg .b32 %r<6>;\n .reg .b64 %d<4>;\n"
    " ld.param.u64 %d1, [p];\n ld.param.u32 %r1, [n];\n ld.param.u32 %r2, [v];\n"
    " mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ntid.x;\n mov.u32 %r5, %tid.x;\n"
    " mad.lo.u32 %r3, %r3, %r4, %r5;\n setp.ge.u32 %q, %r3, %r1;\n @%q bra DONE;\n"
    " cvta.to.global.u64 %d1, %d1;\n mul.wide.u32 %d2, %r3, 4;\n add.u64 %d3, %d1, %d2;\n"
    " st.global.u32 [%d3], %r2;\nDONE:\n ret;\n}\n";

/* The host-side handle of fill: any address unique to it will do. */
static const char fill_host_stub;

enum { FATBIN_BYTES = 16 + 64 + ((sizeof fill_ptx + 7) & ~(size_t)7) };

/* nvcc's __fatBinC_Wrapper_t. */
typedef struct fatbin_wrapper {
    int magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} fatbin_wrapper;

/* Store v little-endian in n bytes at p. */
static void put_le(unsigned char *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Build a fatbin holding fill's PTX, stored plain (the layout documented
 * in parser/container.c: a 16-byte fatbin header, a 64-byte entry header,
 * the NUL-terminated text padded to 8 bytes). */
static void build_fatbin(unsigned long long *words)
{
    unsigned char *f = (unsigned char *)words;
    uint64_t payload = FATBIN_BYTES - 16 - 64;
    memset(f, 0, FATBIN_BYTES);
    put_le(f, 0xba55ed50u, 4);
    put_le(f + 4, 1, 2);
    put_le(f + 6, 16, 2);
    put_le(f + 8, 64 + payload, 8);
    unsigned char *e = f + 16;
    put_le(e, 1, 2);        /* PTX */
    put_le(e + 2, 0x0101, 2);
    put_le(e + 4, 64, 4);   /* header size */
    put_le(e + 8, payload, 8);
    put_le(e + 0x18, 0, 2); /* PTX ISA 8.0 */
    put_le(e + 0x1a, 8, 2);
    put_le(e + 0x1c, 80, 4);
    put_le(e + 0x28, 0x11, 8); /* 64-bit, Linux */
    memcpy(e + 64, fill_ptx, sizeof fill_ptx);
}

/* Where broken() reports: the process's stderr as it was at start-up.
 * libFuzzer's -close_fd_mask=2 (which hides the runtime's messages) points
 * descriptor 2 at /dev/null after LLVMFuzzerInitialize. Set once. */
static int report_fd = 2;

/* Register fill once per process, as nvcc's host code registers a
 * program's kernels before main. The runtime is process-wide, so the
 * fatbin and its wrapper live as long as the process does. Also keep a
 * descriptor of stderr for reports. */
static void start_up(void)
{
    int fd = dup(2);
    if (fd >= 0)
        report_fd = fd;
    static unsigned long long fatbin[FATBIN_BYTES / 8];
    static fatbin_wrapper wrapper;
    build_fatbin(fatbin);
    wrapper = (fatbin_wrapper){0x466243b1, 1, fatbin, NULL};
    void **h = __cudaRegisterFatBinary(&wrapper);
    __cudaRegisterFunction(h, &fill_host_stub, (char *)"fill", "fill", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
}

/* libFuzzer calls this once before the first input; every input calls
 * it too, so that a driver without this hook (tests/replay.c) works. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, start_up);
    return 0;
}

/* ---- the program state ----------------------------------------------------- */

enum { MAX_ALLOCS = 12, MAX_HANDLES = 4, HOST_BYTES = 1 << 16, MAX_STEPS = 64, SMALL_BYTES = 1 << 14 };

enum alloc_kind { A_DEVICE, A_PITCH, A_HOST, A_MANAGED };

typedef struct alloc {
    unsigned char *ptr;
    size_t size;
    enum alloc_kind kind;
    bool live;
} alloc;

typedef struct program {
    const uint8_t *in; /* the input not yet read */
    size_t left;
    alloc allocs[MAX_ALLOCS];
    unsigned nallocs;
    cudaStream_t streams[MAX_HANDLES];
    bool stream_live[MAX_HANDLES];
    cudaEvent_t events[MAX_HANDLES];
    bool event_live[MAX_HANDLES];
    unsigned char *host;  /* HOST_BYTES of the harness's own memory */
    unsigned char *check; /* HOST_BYTES to read results back into */
    bool spoiled;         /* a device fault happened: calls may all fail */
    bool trace;           /* SIMTLAB_FUZZ_TRACE: print each call and its result */
    unsigned step;
    const char *call;     /* the call being checked, for messages */
} program;

/* Next n bytes of the input as a little-endian number (zeros past the
 * end, so every input is a complete program). */
static uint64_t take(program *pr, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n && pr->left; i++, pr->left--)
        v |= (uint64_t)*pr->in++ << (8 * i);
    return v;
}

/* Stop the fuzzer: the runtime broke a promise. */
static void broken(const program *pr, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void broken(const program *pr, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dprintf(report_fd, "fuzz_runtime: step %u, %s: %s\n", pr->step, pr->call, msg);
    abort();
}

/* Is e one of CUDA's error codes? */
static bool cuda_code(cudaError_t e)
{
    switch (e) {
#define X(code, name, text) case code:
#include "tools/cudart/errors.def"
#undef X
        return true;
    default:
        return false;
    }
}

/* Check e is a CUDA code and note a device fault, after which every call
 * may return it; returns e. */
static cudaError_t result(program *pr, const char *call, cudaError_t e)
{
    pr->call = call;
    if (pr->trace)
        fprintf(stderr, "fuzz_runtime: step %u: %s -> %d\n", pr->step, call, e);
    if (!cuda_code(e))
        broken(pr, "returned %d, which is not a CUDA error code", e);
    if (e >= 700 && e <= 719 && e != 701) /* cudaErrorIllegalAddress to cudaErrorLaunchFailure */
        pr->spoiled = true;
    return e;
}

/* e must be success, unless a fault has spoiled the context. */
static void must_succeed(const program *pr, cudaError_t e, const char *why)
{
    if (e && !pr->spoiled)
        broken(pr, "failed with %d although %s", e, why);
}

/* ---- argument choice ---------------------------------------------------- */

/* A size: small, a power of two, just above 2^32 (which a 32-bit
 * truncation makes small), near 2^64 (which overflows any addition), or
 * 2^40 and more (beyond any GPU's memory). */
static size_t pick_size(program *pr)
{
    uint8_t how = (uint8_t)take(pr, 1);
    switch (how % 8) {
    case 0: return 0;
    case 1: case 2: case 3: return (size_t)take(pr, 2) % (SMALL_BYTES + 1);
    case 4: return (size_t)1 << (take(pr, 1) % 15);
    case 5: return ((size_t)1 << 32) + (size_t)take(pr, 1);          /* truncates to a small size */
    case 6: return SIZE_MAX - (size_t)take(pr, 2);                   /* overflows any addition */
    default: return ((size_t)1 << (40 + take(pr, 1) % 24)) + (size_t)take(pr, 1);
    }
}

/* Is n one of pick_size's hostile sizes, which no GPU can allocate? */
static bool hostile(size_t n)
{
    return n >> 40 != 0;
}

/* Is n a size the harness does not allocate: more than a few pages but
 * less than a GPU has. A GPU gives it, and the emulator would too, but
 * a million such allocations are more memory than the fuzzer is allowed. */
static bool too_big_to_try(size_t n)
{
    return n > (size_t)1 << 20 && !hostile(n);
}

/* Index of an allocation slot (any state), or -1 when there is none. */
static int pick_alloc(program *pr)
{
    uint8_t i = (uint8_t)take(pr, 1);
    return pr->nallocs ? (int)(i % pr->nallocs) : -1;
}

/* Index of the live allocation that holds address p, and in *room the
 * bytes from p to its end; -1 (and 0) when none does. Expectations come
 * from this lookup, not from how a pointer was made: a freed range may be
 * given out again, and the end of one allocation may be the start of the
 * next. */
static int find_live(const program *pr, const unsigned char *p, size_t *room)
{
    *room = 0;
    for (unsigned i = 0; i < pr->nallocs; i++) {
        const alloc *a = &pr->allocs[i];
        if (a->live && (uintptr_t)p >= (uintptr_t)a->ptr && (uintptr_t)p - (uintptr_t)a->ptr < a->size) {
            *room = a->size - (size_t)((uintptr_t)p - (uintptr_t)a->ptr);
            return (int)i;
        }
    }
    return -1;
}

/* A pointer on the device side of a call: into or past a device
 * allocation (live or freed), into live mapped memory, NULL, or an
 * address in one of the emulator's windows that holds no allocation.
 * Never other host memory. *a is the live allocation it lies in (NULL:
 * none) and *room the bytes from it to that allocation's end. */
static unsigned char *pick_device_ptr(program *pr, const alloc **a, size_t *room)
{
    uint8_t how = (uint8_t)take(pr, 1);
    int i = pick_alloc(pr);
    const alloc *al = i >= 0 ? &pr->allocs[i] : NULL;
    bool device = al && (al->kind == A_DEVICE || al->kind == A_PITCH);
    unsigned char *p = NULL;
    switch (how % 8) {
    case 0: case 1: case 2: case 3: /* in it (live or freed) */
        if (al && (al->live || device)) {
            size_t off = al->size ? (size_t)take(pr, 2) % al->size : 0;
            p = al->ptr + (how % 8 == 0 ? 0 : off);
        }
        break;
    case 4: /* just past its end */
        p = device ? al->ptr + al->size : NULL;
        break;
    case 5:
        break;
    case 6: /* where kernels see parameters, constants, local or shared memory */
        p = (unsigned char *)(uintptr_t)(SIM_PARAM_WINDOW + SIM_WINDOW_SIZE / 8 * (take(pr, 1) % 32));
        break;
    default: /* a device address far beyond the allocations */
        p = (unsigned char *)(uintptr_t)(SIM_GLOBAL_BASE + ((uint64_t)1 << 43) + take(pr, 4));
        break;
    }
    int live = find_live(pr, p, room);
    *a = live >= 0 ? &pr->allocs[live] : NULL;
    return p;
}

/* A stream argument: the default, legacy or per-thread stream, one made
 * by this program (live or destroyed), or a value no call returned. */
static cudaStream_t pick_stream(program *pr, bool *valid)
{
    uint8_t how = (uint8_t)take(pr, 1);
    *valid = true;
    switch (how % 8) {
    case 0: case 1: return NULL;
    case 2: return cudaStreamLegacy;
    case 3: return cudaStreamPerThread;
    case 4: case 5: case 6: {
        unsigned i = (how >> 3) % MAX_HANDLES;
        *valid = !pr->streams[i] || pr->stream_live[i]; /* none made there: the default stream */
        return pr->streams[i];
    }
    default:
        *valid = false;
        return (cudaStream_t)(uintptr_t)(0x1000 + take(pr, 2) * 8);
    }
}

/* The slot a new allocation is recorded in (a freed one once all are
 * used), or -1 when all hold live allocations: then the harness allocates
 * nothing, as it must know every live allocation to judge a call. */
static int free_slot(const program *pr)
{
    if (pr->nallocs < MAX_ALLOCS)
        return (int)pr->nallocs;
    for (unsigned i = 0; i < MAX_ALLOCS; i++)
        if (!pr->allocs[i].live)
            return (int)i;
    return -1;
}

/* Record a new allocation in the slot free_slot gave. */
static void add_alloc(program *pr, int slot, void *p, size_t size, enum alloc_kind kind)
{
    if ((unsigned)slot == pr->nallocs)
        pr->nallocs++;
    pr->allocs[slot] = (alloc){p, size, kind, true};
}

/* Does [p, p + n) overlap a live allocation other than self? */
static bool overlaps_live(const program *pr, const unsigned char *p, size_t n, const alloc *self)
{
    for (unsigned i = 0; i < pr->nallocs; i++) {
        const alloc *a = &pr->allocs[i];
        if (a != self && a->live && a->size && n && (uintptr_t)p < (uintptr_t)a->ptr + a->size &&
            (uintptr_t)a->ptr < (uintptr_t)p + n)
            return true;
    }
    return false;
}

/* Do the rows [p + r * pitch, + width) for r < height each lie in some
 * live allocation? (A 2D call may touch several.) */
static bool rows_allocated(const program *pr, const unsigned char *p, size_t pitch, size_t width, size_t height)
{
    for (size_t r = 0; r < height; r++) {
        uintptr_t row = (uintptr_t)p + r * pitch;
        bool found = false;
        for (unsigned i = 0; i < pr->nallocs && !found; i++) {
            const alloc *a = &pr->allocs[i];
            found = a->live && row >= (uintptr_t)a->ptr && width <= a->size &&
                    row - (uintptr_t)a->ptr <= a->size - width;
        }
        if (!found)
            return false;
    }
    return true;
}

/* Does [p, p + n) overlap host memory the program owns: its buffers or
 * its stack? Device memory must never (issue 14, item 2). */
static bool overlaps_host(const program *pr, const unsigned char *p, size_t n)
{
    unsigned char here;
    uintptr_t a = (uintptr_t)p, stack = (uintptr_t)&here;
    const unsigned char *buffers[2] = {pr->host, pr->check};
    for (int k = 0; k < 2; k++)
        if (a < (uintptr_t)buffers[k] + HOST_BYTES && (uintptr_t)buffers[k] < a + n)
            return true;
    return a < stack + 4096 && stack - 65536 < a + n;
}

/* ---- checks through other calls --------------------------------------------- */

/* Read n bytes of device memory at p back into pr->check; false (after
 * checking the code) when the copy fails. */
static bool read_back(program *pr, const void *p, size_t n)
{
    cudaError_t e = result(pr, "cudaMemcpy (read back)", cudaMemcpy(pr->check, p, n, cudaMemcpyDeviceToHost));
    must_succeed(pr, e, "it reads memory that was just written successfully");
    return e == 0;
}

/* New memory of size bytes at p must be usable at both ends: set them
 * and read them back. */
static void check_usable(program *pr, unsigned char *p, size_t size, bool mapped)
{
    if (mapped) { /* host and device share the address: the host writes it */
        p[0] = 0x5a;
        p[size - 1] = 0xa5;
        if ((size > 1 && p[0] != 0x5a) || p[size - 1] != 0xa5)
            broken(pr, "mapped memory at %p does not keep what was written", (void *)p);
        return;
    }
    size_t n = size < 64 ? size : 64;
    unsigned char *ends[2] = {p, p + size - n};
    for (int k = 0; k < 2; k++) {
        cudaError_t e = result(pr, "cudaMemset (new memory)", cudaMemset(ends[k], 0x3c + k, n));
        must_succeed(pr, e, "it sets the ends of a successful allocation");
        if (e || !read_back(pr, ends[k], n))
            return;
        for (size_t j = 0; j < n; j++)
            if (pr->check[j] != 0x3c + k)
                broken(pr, "byte %zu of new memory at %p reads 0x%02x after a memset to 0x%02x",
                       (size_t)(ends[k] - p) + j, (void *)p, pr->check[j], 0x3c + k);
    }
}

/* ---- the steps ---------------------------------------------------------------- */

/* cudaMalloc, cudaMallocHost or cudaMallocManaged of a fuzzed size. */
static bool step_malloc(program *pr, enum alloc_kind kind)
{
    size_t size = pick_size(pr);
    void *p = (void *)1;
    const char *call = kind == A_DEVICE ? "cudaMalloc" : kind == A_HOST ? "cudaMallocHost" : "cudaMallocManaged";
    int slot = free_slot(pr);
    if (too_big_to_try(size) || slot < 0)
        return true;
    cudaError_t e = result(pr, call, kind == A_DEVICE ? cudaMalloc(&p, size)
                                     : kind == A_HOST ? cudaMallocHost(&p, size)
                                                      : cudaMallocManaged(&p, size, 1));
    if (e) {
        if (size <= SMALL_BYTES)
            must_succeed(pr, e, "the size is small");
        return true;
    }
    if (hostile(size))
        broken(pr, "%zu bytes allocated; no GPU has that much memory", size);
    if (!size)
        return true;
    if (!p)
        broken(pr, "returned success and NULL for %zu bytes", size);
    if (overlaps_live(pr, p, size, NULL))
        broken(pr, "returned %p for %zu bytes, which overlaps a live allocation", p, size);
    if (kind == A_DEVICE && overlaps_host(pr, p, size))
        broken(pr, "returned %p for %zu bytes, which overlaps the program's own host memory", p, size);
    add_alloc(pr, slot, p, size, kind);
    check_usable(pr, p, size, kind != A_DEVICE);
    return true;
}

/* cudaMallocPitch of a fuzzed width and height. */
static bool step_malloc_pitch(program *pr)
{
    size_t width = pick_size(pr), height = (size_t)take(pr, 1) % 64;
    if (take(pr, 1) % 4 == 0)
        height = pick_size(pr);
    void *p = (void *)1;
    size_t pitch = 0;
    int slot = free_slot(pr);
    if (slot < 0)
        return true;
    bool overflow = width > SIZE_MAX - 511 || (height && ((width + 511) & ~(size_t)511) > SIZE_MAX / height);
    if (!overflow && too_big_to_try(((width + 511) & ~(size_t)511) * height))
        return true;
    cudaError_t e = result(pr, "cudaMallocPitch", cudaMallocPitch(&p, &pitch, width, height));
    if (e) {
        if (!overflow && width <= SMALL_BYTES && height <= SMALL_BYTES && width * height <= SMALL_BYTES * 4)
            must_succeed(pr, e, "the size is small");
        return true;
    }
    if (overflow || hostile(width) || hostile(height) || hostile(width * height))
        broken(pr, "cudaMallocPitch succeeds for a width and height no GPU can hold");
    if (!width || !height)
        return true;
    if (pitch < width || !p)
        broken(pr, "pitch %zu and pointer %p for a width of %zu bytes", pitch, p, width);
    if (overlaps_live(pr, p, pitch * height, NULL))
        broken(pr, "returned %p for %zu bytes, which overlaps a live allocation", p, pitch * height);
    add_alloc(pr, slot, p, pitch * height, A_PITCH);
    check_usable(pr, p, pitch * height, false);
    return true;
}

/* cudaFree or cudaFreeHost of a fuzzed pointer. */
static bool step_free(program *pr, bool host)
{
    int i = pick_alloc(pr);
    uint8_t how = (uint8_t)take(pr, 1);
    alloc *a = i >= 0 ? &pr->allocs[i] : NULL;
    unsigned char *p = a ? a->ptr : NULL;
    if (a && how % 4 == 1)
        p += 1 + how / 4; /* inside, not its start */
    if (a && !a->live && a->kind != A_DEVICE && a->kind != A_PITCH)
        return true; /* freed host memory is the host's again: not a device pointer */
    const char *call = host ? "cudaFreeHost" : "cudaFree";
    cudaError_t e = result(pr, call, host ? cudaFreeHost(p) : cudaFree(p));
    size_t room;
    int i_live = find_live(pr, p, &room);
    alloc *live = i_live >= 0 ? &pr->allocs[i_live] : NULL;
    bool owner = live && p == live->ptr && (host ? live->kind == A_HOST : live->kind != A_HOST);
    if (!p) {
        if (!host)
            must_succeed(pr, e, "cudaFree(NULL) does nothing");
        return true;
    }
    if (owner) {
        must_succeed(pr, e, "it frees a live allocation of its kind");
        if (!e)
            live->live = false;
    } else if (!e) {
        broken(pr, "freed %p, which is not a live allocation of its kind", (void *)p);
    }
    return true;
}

/* The host side of a copy: the harness's buffer at a fuzzed offset with
 * room for n bytes, or a live mapped allocation that holds them; NULL
 * when neither has room. */
static unsigned char *pick_host_ptr(program *pr, size_t n, const alloc **a)
{
    *a = NULL;
    int i = pick_alloc(pr);
    if (i >= 0 && pr->allocs[i].live && (pr->allocs[i].kind == A_HOST || pr->allocs[i].kind == A_MANAGED) &&
        n <= pr->allocs[i].size && take(pr, 1) % 2) {
        *a = &pr->allocs[i];
        return pr->allocs[i].ptr;
    }
    if (n > HOST_BYTES / 2)
        return NULL;
    return pr->host + take(pr, 2) % (HOST_BYTES / 2);
}

/* cudaMemset or cudaMemsetAsync of fuzzed memory. */
static bool step_memset(program *pr)
{
    const alloc *a;
    size_t room;
    unsigned char *p = pick_device_ptr(pr, &a, &room);
    size_t n = pick_size(pr);
    int value = (int)take(pr, 4);
    bool async = take(pr, 1) & 1, stream_ok = true;
    cudaStream_t s = async ? pick_stream(pr, &stream_ok) : NULL;
    cudaError_t e = result(pr, async ? "cudaMemsetAsync" : "cudaMemset",
                           async ? cudaMemsetAsync(p, value, n, s) : cudaMemset(p, value, n));
    bool fits = n == 0 || (a && n <= room);
    if (fits && stream_ok)
        must_succeed(pr, e, "the bytes lie in a live allocation");
    if (e)
        return true;
    if (!stream_ok)
        broken(pr, "succeeded on a stream that does not exist");
    if (!fits)
        broken(pr, "set %zu bytes at %p, which are not all allocated", n, (void *)p);
    size_t m = n < HOST_BYTES ? n : HOST_BYTES;
    if (m && read_back(pr, p, m))
        for (size_t j = 0; j < m; j++)
            if (pr->check[j] != (unsigned char)value)
                broken(pr, "byte %zu reads 0x%02x after a successful memset to 0x%02x", j, pr->check[j],
                       (unsigned char)value);
    return true;
}

/* Fill n bytes at p with a pattern that depends on seed. */
static void pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t j = 0; j < n; j++)
        p[j] = (unsigned char)(j * 31 + seed);
}

/* cudaMemcpy or cudaMemcpyAsync host to device, device to host or device
 * to device with fuzzed pointers and size. */
static bool step_memcpy(program *pr)
{
    unsigned kind = (unsigned)take(pr, 1) % 4; /* 0: H2D, 1: D2H, 2: D2D, 3: an invalid kind */
    size_t n = pick_size(pr);
    const alloc *da, *sa = NULL;
    size_t droom, sroom = 0;
    unsigned char *dst, *src;
    bool async = take(pr, 1) & 1, stream_ok = true;
    cudaStream_t s = async ? pick_stream(pr, &stream_ok) : NULL;
    if (kind == 0) {
        dst = pick_device_ptr(pr, &da, &droom);
        src = pick_host_ptr(pr, n, &sa);
        sroom = n;
    } else if (kind == 1) {
        src = pick_device_ptr(pr, &sa, &sroom);
        dst = pick_host_ptr(pr, n, &da);
        droom = n;
    } else {
        dst = pick_device_ptr(pr, &da, &droom);
        src = pick_device_ptr(pr, &sa, &sroom);
    }
    bool host_side = kind == 0 || kind == 1;
    if (host_side && !(kind == 0 ? src : dst))
        return true; /* no honest host memory of that size */
    if (kind == 0)
        pattern(src, n, pr->step);
    enum cudaMemcpyKind k = kind == 0 ? cudaMemcpyHostToDevice : kind == 1 ? cudaMemcpyDeviceToHost
                            : kind == 2 ? cudaMemcpyDeviceToDevice : (enum cudaMemcpyKind)(5 + take(pr, 1));
    cudaError_t e = result(pr, async ? "cudaMemcpyAsync" : "cudaMemcpy",
                           async ? cudaMemcpyAsync(dst, src, n, k, s) : cudaMemcpy(dst, src, n, k));
    bool dst_ok = kind == 1 || (da && droom >= n), src_ok = kind == 0 || (sa && sroom >= n);
    bool dev_ok = n == 0 || (dst_ok && src_ok);
    bool overlap = (uintptr_t)dst < (uintptr_t)src + n && (uintptr_t)src < (uintptr_t)dst + n;
    if (kind < 3 && dev_ok && stream_ok && !overlap)
        must_succeed(pr, e, "both sides are live memory of that size");
    if (e || n == 0)
        return true;
    if (kind == 3)
        broken(pr, "succeeded with the invalid kind %d", (int)k);
    if (!stream_ok)
        broken(pr, "succeeded on a stream that does not exist");
    if (!dev_ok)
        broken(pr, "copied %zu bytes from %p to %p, which are not all allocated", n, (void *)src, (void *)dst);
    if (kind == 0 && !overlap && dev_ok) { /* the device now holds the pattern */
        size_t m = n < HOST_BYTES ? n : HOST_BYTES;
        if (da && da->kind != A_DEVICE && da->kind != A_PITCH) /* mapped: the host reads it directly */
            memcpy(pr->check, dst, m);
        else if (!read_back(pr, dst, m))
            return true;
        for (size_t j = 0; j < m; j++)
            if (pr->check[j] != (unsigned char)(j * 31 + pr->step))
                broken(pr, "byte %zu of the destination reads 0x%02x after a successful copy", j, pr->check[j]);
    }
    return true;
}

/* cudaMemcpy2D host to device of a fuzzed shape, read back with
 * cudaMemcpy2D device to host; or a hostile cudaMemset2D. */
static bool step_2d(program *pr)
{
    const alloc *da;
    size_t droom;
    unsigned char *dst = pick_device_ptr(pr, &da, &droom);
    size_t width = take(pr, 1) % 2 ? pick_size(pr) : (size_t)take(pr, 1);
    size_t dpitch = take(pr, 1) % 2 ? pick_size(pr) : width + (size_t)take(pr, 1);
    size_t height = take(pr, 1) % 4 ? (size_t)take(pr, 1) % 32 : pick_size(pr);
    size_t spitch = width + (size_t)take(pr, 1) % 16;
    bool memset2d = take(pr, 1) & 1;
    /* nothing to do, or every row (the last one ends (height - 1) * dpitch
     * + width bytes in) inside the allocation; a GPU may refuse a pitch
     * below the width in any case */
    bool nothing = !width || !height;
    bool rows_in = da && width <= droom && (height <= 1 || (dpitch && (height - 1) <= (droom - width) / dpitch));
    bool fits = width <= dpitch && (nothing || rows_in);
    if (memset2d) {
        cudaError_t e = result(pr, "cudaMemset2D", cudaMemset2D(dst, dpitch, 7, width, height));
        if (fits)
            must_succeed(pr, e, "every row lies in a live allocation");
        else if (!e && !nothing && !rows_allocated(pr, dst, dpitch, width, height))
            broken(pr, "set %zu rows of %zu bytes, pitch %zu, at %p, beyond the allocation", height, width,
                   dpitch, (void *)dst);
        return true;
    }
    /* the host rows come from the harness's buffer: they must fit there */
    if (hostile(height) || (height && (height - 1) * spitch + width > HOST_BYTES / 2) || width > HOST_BYTES / 2)
        return true;
    pattern(pr->host, HOST_BYTES / 2, pr->step);
    cudaError_t e = result(pr, "cudaMemcpy2D",
                           cudaMemcpy2D(dst, dpitch, pr->host, spitch, width, height, cudaMemcpyHostToDevice));
    if (fits)
        must_succeed(pr, e, "every row lies in a live allocation");
    if (e || nothing)
        return true;
    if (!rows_in && !rows_allocated(pr, dst, dpitch, width, height))
        broken(pr, "copied %zu rows of %zu bytes, pitch %zu, to %p, beyond the allocation", height, width, dpitch,
               (void *)dst);
    if (!fits || !rows_in) /* rows that overlap need not read back */
        return true;
    memset(pr->check, 0, HOST_BYTES);
    e = result(pr, "cudaMemcpy2D (read back)",
               cudaMemcpy2D(pr->check, spitch, dst, dpitch, width, height, cudaMemcpyDeviceToHost));
    must_succeed(pr, e, "it reads rows that were just written");
    if (e)
        return true;
    for (size_t r = 0; r < height; r++)
        if (memcmp(pr->check + r * spitch, pr->host + r * spitch, width) != 0)
            broken(pr, "row %zu does not read back what cudaMemcpy2D wrote", r);
    return true;
}

/* cudaDeviceSetLimit of a fuzzed limit and value, then cudaDeviceGetLimit. */
static bool step_limit(program *pr)
{
    unsigned limit = (unsigned)take(pr, 1) % 8; /* 3 to 6: CUDA's other limits; 7: none */
    size_t value = take(pr, 1) % 2 ? pick_size(pr) : (size_t)take(pr, 3);
    if (limit == cudaLimitStackSize && value > 2048)
        value = 2048; /* each thread's stack is host memory: issue 14, items 1 and 4 */
    if (limit != cudaLimitStackSize && too_big_to_try(value >> 6))
        return true; /* a heap or FIFO a GPU gives, but more than the fuzzer may allocate */
    cudaError_t e = result(pr, "cudaDeviceSetLimit", cudaDeviceSetLimit((enum cudaLimit)limit, value));
    if (limit == 7 && !e)
        broken(pr, "accepted limit %u, which does not exist", limit);
    if (limit > 2 || e)
        return true;
    size_t got = 0;
    e = result(pr, "cudaDeviceGetLimit", cudaDeviceGetLimit(&got, (enum cudaLimit)limit));
    must_succeed(pr, e, "the limit was just set");
    if (!e && got < value)
        broken(pr, "cudaDeviceGetLimit reads %zu, less than the %zu cudaDeviceSetLimit accepted", got, (size_t)value);
    return true;
}

/* Stream and event calls with live, destroyed and made-up handles. */
static bool step_handles(program *pr)
{
    uint8_t op = (uint8_t)take(pr, 1);
    unsigned i = (op >> 3) % MAX_HANDLES, j = (op >> 5) % MAX_HANDLES;
    bool ok;
    switch (op % 8) {
    case 0:
        if (!pr->stream_live[i]) {
            cudaError_t e = result(pr, "cudaStreamCreate", cudaStreamCreate(&pr->streams[i]));
            must_succeed(pr, e, "streams are plentiful");
            pr->stream_live[i] = e == 0;
        }
        return true;
    case 1:
        if (pr->streams[i]) {
            cudaError_t e = result(pr, "cudaStreamDestroy", cudaStreamDestroy(pr->streams[i]));
            if (pr->stream_live[i])
                must_succeed(pr, e, "the stream is live");
            pr->stream_live[i] = false;
            pr->streams[i] = NULL; /* a destroyed handle may be reused: never pass it again */
        }
        return true;
    case 2:
        if (!pr->event_live[i]) {
            cudaError_t e = result(pr, "cudaEventCreateWithFlags",
                                   cudaEventCreateWithFlags(&pr->events[i], (unsigned)take(pr, 1) & 2));
            must_succeed(pr, e, "events are plentiful");
            pr->event_live[i] = e == 0;
        }
        return true;
    case 3:
        if (pr->event_live[i]) {
            cudaError_t e = result(pr, "cudaEventDestroy", cudaEventDestroy(pr->events[i]));
            must_succeed(pr, e, "the event is live");
            pr->event_live[i] = false;
            pr->events[i] = NULL;
        }
        return true;
    case 4: {
        cudaStream_t s = pick_stream(pr, &ok);
        cudaEvent_t e = pr->events[i];
        cudaError_t r = result(pr, "cudaEventRecord", cudaEventRecord(e, s));
        if (pr->event_live[i] && ok)
            must_succeed(pr, r, "the event and the stream are live");
        else if (!r)
            broken(pr, "recorded a dead event or on a dead stream");
        return true;
    }
    case 5: {
        float ms = -1;
        cudaError_t r = result(pr, "cudaEventElapsedTime", cudaEventElapsedTime(&ms, pr->events[i], pr->events[j]));
        if (!r && (!pr->event_live[i] || !pr->event_live[j]))
            broken(pr, "measured time between events that do not exist");
        if (!r && !(ms == ms))
            broken(pr, "elapsed time is NaN");
        return true;
    }
    case 6: {
        cudaStream_t s = pick_stream(pr, &ok);
        cudaError_t r = result(pr, "cudaStreamSynchronize", cudaStreamSynchronize(s));
        if (ok)
            must_succeed(pr, r, "the stream is live");
        else if (!r)
            broken(pr, "synchronized a stream that does not exist");
        return true;
    }
    default: {
        cudaError_t r = pr->event_live[i] ? result(pr, "cudaEventSynchronize", cudaEventSynchronize(pr->events[i]))
                                          : result(pr, "cudaDeviceSynchronize", cudaDeviceSynchronize());
        if (pr->event_live[i])
            must_succeed(pr, r, "the event is live");
        return true;
    }
    }
}

/* A dimension of a launch: mostly small, sometimes 0 or past a limit. */
static unsigned pick_dim(program *pr, unsigned small)
{
    uint8_t how = (uint8_t)take(pr, 1);
    switch (how % 16) {
    case 0: return 0;
    case 1: return 65536;
    case 2: return 1025;
    case 3: return 0x80000000u;
    case 4: return (unsigned)take(pr, 4);
    default: return 1 + how / 16 % small;
    }
}

/* fill<<<grid, block, shared, stream>>>(p, n, v) with a fuzzed
 * configuration; on success the words of p the grid covers read v. */
static bool step_launch(program *pr)
{
    dim3 grid = {pick_dim(pr, 4), pick_dim(pr, 2), pick_dim(pr, 2)};
    dim3 block = {pick_dim(pr, 64), pick_dim(pr, 2), pick_dim(pr, 2)};
    size_t shared = take(pr, 1) % 4 ? 0 : pick_size(pr);
    bool stream_ok;
    cudaStream_t s = pick_stream(pr, &stream_ok);
    const alloc *a;
    size_t room;
    unsigned char *p = pick_device_ptr(pr, &a, &room);
    uint32_t n = (uint32_t)take(pr, 2) % 1024, v = (uint32_t)take(pr, 4);
    uint64_t threads = (uint64_t)block.x * block.y * block.z, blocks = (uint64_t)grid.x * grid.y * grid.z;
    /* the limits of every GPU since sm_30 (CUDA C++ Programming Guide,
     * "Features and Technical Specifications"); 48 KiB of dynamic shared
     * memory without cudaFuncSetAttribute */
    bool valid = threads && threads <= 1024 && block.x <= 1024 && block.y <= 1024 && block.z <= 64 && grid.x &&
                 grid.y && grid.z && grid.x <= 0x7fffffffu && grid.y <= 65535 && grid.z <= 65535 &&
                 shared <= 48 * 1024;
    if (valid && blocks * threads > 1 << 12)
        return true; /* valid but too long to emulate a million times */
    void *args[] = {&p, &n, &v};
    cudaError_t e = result(pr, "cudaLaunchKernel", cudaLaunchKernel(&fill_host_stub, grid, block, args, shared, s));
    if (!valid) {
        if (!e)
            broken(pr, "launched grid (%u, %u, %u) of blocks (%u, %u, %u) with %zu bytes of shared memory, beyond "
                   "the device's limits", grid.x, grid.y, grid.z, block.x, block.y, block.z, shared);
        return true;
    }
    if (!stream_ok) {
        if (!e)
            broken(pr, "launched on a stream that does not exist");
        return true;
    }
    /* fill indexes by x only (with y or z above 1, several threads store
     * the same word): it stores words [0, covered) of p */
    uint64_t xs = (uint64_t)grid.x * block.x, covered = xs < n ? xs : n;
    bool in_bounds = covered == 0 || (a && room >= covered * 4 && (uintptr_t)p % 4 == 0);
    if (in_bounds)
        must_succeed(pr, e, "the configuration is within the limits and the kernel stays in bounds");
    if (e)
        return true;
    e = result(pr, "cudaDeviceSynchronize", cudaDeviceSynchronize());
    if (in_bounds)
        must_succeed(pr, e, "the kernel stays in bounds");
    if (e || !in_bounds || !covered)
        return true;
    if (a->kind == A_MANAGED || a->kind == A_HOST)
        memcpy(pr->check, p, covered * 4);
    else if (!read_back(pr, p, covered * 4))
        return true;
    for (uint64_t j = 0; j < covered; j++) {
        uint32_t w;
        memcpy(&w, pr->check + 4 * j, 4);
        if (w != v)
            broken(pr, "word %llu reads 0x%08x after fill wrote 0x%08x", (unsigned long long)j, w, v);
    }
    return true;
}

/* Release everything the program still holds, so that nothing leaks into
 * the next input, and reset the device. */
static void finish(program *pr)
{
    for (unsigned i = 0; i < pr->nallocs; i++)
        if (pr->allocs[i].live)
            pr->allocs[i].kind == A_HOST ? cudaFreeHost(pr->allocs[i].ptr) : cudaFree(pr->allocs[i].ptr);
    for (unsigned i = 0; i < MAX_HANDLES; i++) {
        if (pr->stream_live[i])
            cudaStreamDestroy(pr->streams[i]);
        if (pr->event_live[i])
            cudaEventDestroy(pr->events[i]);
    }
    cudaDeviceReset();
    free(pr->host);
    free(pr->check);
}

/* One fuzz input: a fresh device with the default limits, then up to
 * MAX_STEPS steps while the input lasts, and until a device fault spoils
 * the context: after one a program can only reset the device, as calls
 * report the fault whether or not they did their work (a cudaFreeHost
 * that returns cudaErrorIllegalAddress has freed the memory). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LLVMFuzzerInitialize(NULL, NULL);
    const char *trace = getenv("SIMTLAB_FUZZ_TRACE");
    program pr = {.in = data, .left = size, .trace = trace && *trace && strcmp(trace, "0") != 0};
    pr.host = calloc(1, HOST_BYTES);
    pr.check = calloc(1, HOST_BYTES);
    if (!pr.host || !pr.check) {
        free(pr.host);
        free(pr.check);
        return 0;
    }
    cudaDeviceReset();
    cudaDeviceSetLimit(cudaLimitStackSize, 1024);
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, 8 << 20);
    cudaGetLastError();
    bool go = true;
    for (pr.step = 0; go && !pr.spoiled && pr.left && pr.step < MAX_STEPS; pr.step++) {
        switch (take(&pr, 1) % 12) {
        case 0: case 1: go = step_malloc(&pr, A_DEVICE); break;
        case 2: go = step_malloc(&pr, take(&pr, 1) % 2 ? A_HOST : A_MANAGED); break;
        case 3: go = step_malloc_pitch(&pr); break;
        case 4: go = step_free(&pr, take(&pr, 1) % 4 == 0); break;
        case 5: go = step_memset(&pr); break;
        case 6: case 7: go = step_memcpy(&pr); break;
        case 8: go = step_2d(&pr); break;
        case 9: go = step_limit(&pr); break;
        case 10: go = step_handles(&pr); break;
        default: go = step_launch(&pr); break;
        }
        result(&pr, "cudaGetLastError", cudaGetLastError());
    }
    finish(&pr);
    return 0;
}
