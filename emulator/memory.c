/* memory.c — the device: global allocations, guest address resolution and
 * fault reports (see sim.h for the address layout).
 *
 * Allocations are placed by the global window (window.c): carved from
 * mapped regions of 2 MiB granules, freed ranges reused, every guest
 * range reserved in the host address space so that no host memory ever
 * lies at a guest address. An access resolves to the live allocation
 * holding it; one outside every allocation but inside a mapped region
 * proceeds on the region's storage with a warning (once per PTX line), as
 * a GPU lets it, unless the device checks memory (sim_device_set_memcheck,
 * compute-sanitizer's behaviour); one outside every region faults.
 * Registered host memory (sim_register_host) is a table entry outside the
 * window whose storage is the caller's, at guest address == host
 * address: reached like any allocation, never freed or unmapped here,
 * and kept out of every window so that its addresses mean nothing else. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/internal.h"
#include "ir/util.h"

int sim_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

uint32_t sim_alloc_upper_bound(const sim_device *d, uint64_t addr)
{
    uint32_t lo = 0, hi = d->nallocs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->allocs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Add a to the table at its place in base order (caller holds the lock). */
static void insert_alloc(sim_device *d, sim_alloc a)
{
    uint32_t at = sim_alloc_upper_bound(d, a.base);
    PTX_GROW(d->allocs, d->cap, (uint64_t)d->nallocs + 1);
    memmove(&d->allocs[at + 1], &d->allocs[at], (d->nallocs - at) * sizeof *d->allocs);
    d->allocs[at] = a;
    d->nallocs++;
}

/* Take entry i out of the table (caller holds the lock; its storage is
 * the caller's business). */
static void remove_alloc(sim_device *d, uint32_t i)
{
    free(d->allocs[i].label);
    memmove(&d->allocs[i], &d->allocs[i + 1], (d->nallocs - i - 1) * sizeof *d->allocs);
    d->nallocs--;
}

sim_device *sim_device_new(void)
{
    sim_device *d = ptx_xcalloc(1, sizeof *d);
    d->window = SIM_GLOBAL_WINDOW_MAX;
    pthread_mutex_init(&d->lock, NULL);
    pthread_mutex_init(&d->notes_lock, NULL);
    return d;
}

void sim_device_free(sim_device *d)
{
    if (!d)
        return;
    for (uint32_t i = 0; i < d->nallocs; i++)
        free(d->allocs[i].label);
    free(d->allocs);
    sim_window_free(d);
    free(d->images);
    free(d->noted);
    pthread_mutex_destroy(&d->notes_lock);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

int sim_device_set_global_window(sim_device *d, uint64_t bytes, char *err, size_t errlen)
{
    if (bytes < SIM_REGION_BYTES || bytes > SIM_GLOBAL_WINDOW_MAX || bytes % SIM_REGION_BYTES)
        return sim_fail(err, errlen, "a global address window of %" PRIu64 " bytes: it must be a multiple of "
                        "2 MiB (%llu) from 2 MiB to 8 TiB (%llu)", bytes, SIM_REGION_BYTES,
                        SIM_GLOBAL_WINDOW_MAX);
    pthread_mutex_lock(&d->lock);
    bool empty = d->nregions == 0;
    if (empty)
        d->window = bytes;
    pthread_mutex_unlock(&d->lock);
    if (!empty)
        return sim_fail(err, errlen, "the global address window can only change while no allocation is live");
    return 0;
}

void sim_device_set_memcheck(sim_device *d, bool on)
{
    d->memcheck = on;
}

/* Place an allocation of size bytes (mapped or not) and enter it in the
 * table. */
static int allocate(sim_device *d, uint64_t size, bool mapped, const char *label, uint64_t *addr, char *err,
                    size_t errlen)
{
    if (size > (1ull << 40))
        return sim_fail(err, errlen, "cannot allocate %" PRIu64 " bytes of %s memory (more than 1 TiB)", size,
                        mapped ? "mapped" : "device");
    pthread_mutex_lock(&d->lock);
    uint64_t base;
    uint8_t *data;
    if (sim_window_place(d, size, mapped, &base, &data, err, errlen) != 0) {
        pthread_mutex_unlock(&d->lock);
        return -1;
    }
    insert_alloc(d, (sim_alloc){base, size, data, ptx_strdup(label), mapped, false, false});
    pthread_mutex_unlock(&d->lock);
    *addr = base;
    return 0;
}

int sim_malloc(sim_device *d, uint64_t size, const char *label, uint64_t *addr, char *err,
               size_t errlen)
{
    return allocate(d, size, false, label ? label : "cudaMalloc", addr, err, errlen);
}

int sim_malloc_mapped(sim_device *d, uint64_t size, const char *label, void **host, char *err,
                      size_t errlen)
{
    uint64_t a = 0;
    if (allocate(d, size, true, label ? label : "cudaMallocManaged", &a, err, errlen) != 0)
        return -1;
    *host = (void *)(uintptr_t)a;
    return 0;
}

/* Index of the live allocation whose range holds addr, or -1 (bases
 * ascend, so a binary search finds it). */
static long find_index(const sim_device *d, uint64_t addr)
{
    uint32_t lo = sim_alloc_upper_bound(d, addr);
    if (lo == 0)
        return -1;
    const sim_alloc *a = &d->allocs[lo - 1];
    return addr - a->base < (a->size ? a->size : 1) ? (long)(lo - 1) : -1;
}

/* Does [lo, end) meet a guest address range the device gives a meaning
 * of its own: the global window (at its largest, as it may grow while
 * only registered memory is live) or the part of a space's window that
 * generic addresses of that space take? */
static bool meets_guest_windows(uint64_t lo, uint64_t end)
{
    static const uint64_t spaces[] = {SIM_CODE_WINDOW, SIM_PARAM_WINDOW, SIM_CONST_WINDOW, SIM_LOCAL_WINDOW,
                                      SIM_SHARED_WINDOW};
    if (lo < SIM_GLOBAL_BASE + SIM_GLOBAL_WINDOW_MAX && SIM_GLOBAL_BASE < end)
        return true;
    for (size_t i = 0; i < sizeof spaces / sizeof *spaces; i++)
        if (lo < spaces[i] + SIM_SPACE_WINDOW_BYTES && spaces[i] < end)
            return true;
    return false;
}

/* Is all of [lo, end) mapped in this process, readable, and writable
 * unless read_only, as page-locking needs (a GPU's driver refuses to
 * register anything else; here a kernel would crash the host)? The
 * mappings of /proc/self/maps ascend. */
static bool host_range_usable(uint64_t lo, uint64_t end, bool read_only)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return false;
    uint64_t x = lo;
    char line[512];
    while (x < end && fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n')) /* a long path: the rest of its line is not a mapping */
            for (int ch = 0; ch != EOF && ch != '\n';)
                ch = fgetc(f);
        unsigned long long a, b;
        char perms[5];
        if (sscanf(line, "%llx-%llx %4s", &a, &b, perms) != 3 || b <= x)
            continue;
        if (a > x || perms[0] != 'r' || (!read_only && perms[1] != 'w'))
            break; /* a hole, or a mapping it may not use */
        x = b;
    }
    fclose(f);
    return x >= end;
}

/* The live allocation that [lo, end) overlaps, or NULL (allocations are
 * disjoint and ascend: only the last one starting below end can). */
static const sim_alloc *overlapping_alloc(const sim_device *d, uint64_t lo, uint64_t end)
{
    uint32_t i = sim_alloc_upper_bound(d, end - 1);
    if (i == 0)
        return NULL;
    const sim_alloc *a = &d->allocs[i - 1];
    return a->base + (a->size ? a->size : 1) > lo ? a : NULL;
}

int sim_register_host(sim_device *d, void *host, uint64_t size, bool read_only, const char *label, char *err,
                      size_t errlen)
{
    uint64_t lo = (uint64_t)(uintptr_t)host;
    if (!host || size == 0 || size > UINT64_MAX - lo)
        return sim_fail(err, errlen, "cannot register %" PRIu64 " bytes of host memory at 0x%" PRIx64 ": %s",
                        size, lo, !host ? "a null pointer" : size == 0 ? "an empty range"
                                                                       : "the range runs past the address space");
    uint64_t end = lo + size;
    if (meets_guest_windows(lo, end))
        return sim_fail(err, errlen, "cannot register host memory 0x%" PRIx64 "..0x%" PRIx64 ": it lies in the "
                        "device's own address windows", lo, end);
    if (!host_range_usable(lo, end, read_only))
        return sim_fail(err, errlen, "cannot register host memory 0x%" PRIx64 "..0x%" PRIx64 ": not all of it is "
                        "mapped %s in this process", lo, end, read_only ? "readable" : "readable and writable");
    pthread_mutex_lock(&d->lock);
    const sim_alloc *a = overlapping_alloc(d, lo, end);
    if (a) {
        int r = sim_fail(err, errlen, "cannot register host memory 0x%" PRIx64 "..0x%" PRIx64 ": it overlaps "
                         "%s, 0x%" PRIx64 "..0x%" PRIx64, lo, end, a->label, a->base, a->base + a->size);
        pthread_mutex_unlock(&d->lock);
        return r;
    }
    insert_alloc(d, (sim_alloc){lo, size, host, ptx_strdup(label ? label : "cudaHostRegister"), true, true,
                                read_only});
    pthread_mutex_unlock(&d->lock);
    return 0;
}

int sim_unregister_host(sim_device *d, void *host, char *err, size_t errlen)
{
    uint64_t addr = (uint64_t)(uintptr_t)host;
    pthread_mutex_lock(&d->lock);
    long i = find_index(d, addr);
    if (i < 0 || d->allocs[i].base != addr || !d->allocs[i].borrowed) {
        pthread_mutex_unlock(&d->lock);
        return sim_fail(err, errlen, "unregister of 0x%" PRIx64 ", which is not the start of registered host "
                        "memory", addr);
    }
    remove_alloc(d, (uint32_t)i); /* the storage is the caller's: it stays */
    pthread_mutex_unlock(&d->lock);
    return 0;
}

void *sim_host_pointer(sim_device *d, uint64_t addr, uint64_t n)
{
    pthread_mutex_lock(&d->lock);
    sim_alloc *a = sim_find_alloc(d, addr, n);
    void *h = a ? a->data + (addr - a->base) : NULL;
    pthread_mutex_unlock(&d->lock);
    return h;
}

uint64_t sim_allocation_size(sim_device *d, uint64_t addr)
{
    pthread_mutex_lock(&d->lock);
    long i = find_index(d, addr);
    uint64_t n = i >= 0 && d->allocs[i].base == addr ? d->allocs[i].size : 0;
    pthread_mutex_unlock(&d->lock);
    return n;
}

uint64_t sim_device_bytes_in_use(sim_device *d)
{
    pthread_mutex_lock(&d->lock);
    uint64_t n = d->device_bytes;
    pthread_mutex_unlock(&d->lock);
    return n;
}

bool sim_device_range(const sim_device *d, uint64_t addr)
{
    bool held = false;
    for (uint32_t i = 0; i < d->nreserved && !held; i++)
        held = addr - d->reserved[i].lo < d->reserved[i].end - d->reserved[i].lo;
    const sim_region *r = held ? sim_find_region(d, addr, 1) : NULL;
    return held && !(r && r->mapped);
}

int sim_free(sim_device *d, uint64_t addr, char *err, size_t errlen)
{
    pthread_mutex_lock(&d->lock);
    long i = find_index(d, addr);
    if (i < 0 || d->allocs[i].base != addr) {
        pthread_mutex_unlock(&d->lock);
        return sim_fail(err, errlen, "free of 0x%" PRIx64 ", which is not an allocation", addr);
    }
    if (d->allocs[i].borrowed) { /* the caller's memory: only sim_unregister_host lets it go */
        pthread_mutex_unlock(&d->lock);
        return sim_fail(err, errlen, "free of 0x%" PRIx64 ", which is registered host memory (unregister it)",
                        addr);
    }
    uint64_t size = d->allocs[i].size;
    remove_alloc(d, (uint32_t)i);
    sim_window_release(d, addr, size);
    pthread_mutex_unlock(&d->lock);
    return 0;
}

sim_alloc *sim_find_alloc(sim_device *d, uint64_t addr, uint64_t size)
{
    long i = find_index(d, addr);
    if (i < 0)
        return NULL;
    sim_alloc *a = &d->allocs[i];
    return size <= a->size - (addr - a->base) ? a : NULL;
}

const sim_alloc *sim_nearest_alloc(const sim_device *d, uint64_t addr)
{
    const sim_alloc *best = NULL;
    uint64_t best_dist = UINT64_MAX;
    for (uint32_t i = 0; i < d->nallocs; i++) {
        const sim_alloc *a = &d->allocs[i];
        uint64_t end = a->base + a->size;
        uint64_t dist = addr < a->base ? a->base - addr : addr >= end ? addr - end + 1 : 0;
        if (dist < best_dist) {
            best_dist = dist;
            best = a;
        }
    }
    return best;
}

int sim_memcpy_to_device(sim_device *d, uint64_t dst, const void *src, uint64_t n, char *err,
                         size_t errlen)
{
    sim_alloc *a = sim_find_alloc(d, dst, n);
    if (!a)
        return sim_fail(err, errlen, "copy of %" PRIu64 " bytes to 0x%" PRIx64
                    " does not fit in one device allocation", n, dst);
    memcpy(a->data + (dst - a->base), src, n);
    return 0;
}

int sim_memcpy_from_device(sim_device *d, void *dst, uint64_t src, uint64_t n, char *err,
                           size_t errlen)
{
    sim_alloc *a = sim_find_alloc(d, src, n);
    if (!a)
        return sim_fail(err, errlen, "copy of %" PRIu64 " bytes from 0x%" PRIx64
                    " does not fit in one device allocation", n, src);
    memcpy(dst, a->data + (src - a->base), n);
    return 0;
}

/* The heap exists once heap_base is set (sim_malloc never returns 0). */
int sim_heap_reserve(sim_device *d, char *err, size_t errlen)
{
    if (d->heap_base)
        return 0;
    uint64_t bytes = sim_heap_get_size(d);
    if (sim_malloc(d, bytes, "device heap (malloc in kernels)", &d->heap_base, err, errlen) != 0)
        return -1;
    d->heap_size = bytes;
    return 0;
}

int sim_heap_set_size(sim_device *d, uint64_t bytes, char *err, size_t errlen)
{
    if (d->heap_base)
        return sim_fail(err, errlen, "the device heap (%" PRIu64 " bytes) was made by an earlier launch that "
                        "calls malloc; its size can no longer change", d->heap_size);
    d->heap_request = bytes;
    d->heap_requested = true;
    return 0;
}

uint64_t sim_heap_get_size(const sim_device *d)
{
    if (d->heap_base)
        return d->heap_size;
    return d->heap_requested ? d->heap_request : SIM_DEFAULT_HEAP_BYTES;
}

uint64_t sim_heap_alloc(sim_device *d, uint64_t size)
{
    pthread_mutex_lock(&d->lock);
    uint64_t a = 0, need = (size + 15) & ~15ull;
    if (d->heap_size && need <= d->heap_size - d->heap_used) {
        a = d->heap_base + d->heap_used;
        d->heap_used += need;
    }
    pthread_mutex_unlock(&d->lock);
    return a;
}

/* ---- faults ------------------------------------------------------------ */

void sim_fault(sim_cta *c, sim_error kind, const char *fmt, ...)
{
    if (c->faulted)
        return;
    c->faulted = true;
    c->fault_kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->fault, sizeof c->fault, fmt, ap);
    va_end(ap);
}

void sim_thread_coords(const sim_cta *c, uint32_t t, char *buf, size_t n)
{
    t = sim_thread(c, t);
    uint32_t x = t % c->ntid.x, y = t / c->ntid.x % c->ntid.y, z = t / (c->ntid.x * c->ntid.y);
    snprintf(buf, n, "thread (%u,%u,%u) block (%u,%u,%u)", x, y, z, c->ctaid.x, c->ctaid.y,
             c->ctaid.z);
}

bool sim_misaligned(uint64_t addr, uint32_t size)
{
    return size > 1 && size <= 32 && (size & (size - 1)) == 0 && (addr & (size - 1)) != 0;
}

static const char *kind_name(int kind)
{
    return kind == 1 ? "read" : kind == 2 ? "write" : "atomic";
}

/* Fault for an access outside every valid range of its space. */
static uint8_t *bad_access(sim_cta *c, const sim_inst *in, uint32_t t, const char *space,
                           uint64_t addr, uint32_t size, int kind, const char *why)
{
    char who[96], near[160] = "";
    sim_thread_coords(c, t, who, sizeof who);
    if (strcmp(space, "__global__") == 0 || strcmp(space, "generic") == 0) {
        const sim_alloc *a = sim_nearest_alloc(c->dev, addr);
        if (a)
            snprintf(near, sizeof near, " (nearest allocation: %s, 0x%" PRIx64 "..0x%" PRIx64 ", %" PRIu64
                     " bytes)", a->label, a->base, a->base + a->size, a->size);
    }
    /* sim_mem checks alignment first: an access that is misaligned is
     * reported as that, every other one as an invalid address */
    bool misaligned = sim_misaligned(addr, size);
    sim_fault(c, misaligned ? SIM_ERR_MISALIGNED : SIM_ERR_ADDRESS, "invalid %s %s of size %u at 0x%" PRIx64 "%s%s by %s, kernel %s, PTX line %u",
              space, kind_name(kind), size, addr, why, near, who, c->kernel, in->line);
    return NULL;
}

/* Whether this is the first time (program, line) asks; remembers it. */
static bool first_note(sim_device *d, const void *program, uint32_t line)
{
    pthread_mutex_lock(&d->notes_lock);
    bool first = true;
    for (uint32_t i = 0; i < d->nnoted && first; i++)
        first = !(d->noted[i].program == program && d->noted[i].line == line);
    if (first) {
        PTX_GROW(d->noted, d->cap_noted, (uint64_t)d->nnoted + 1);
        d->noted[d->nnoted++] = (sim_noted_line){program, line};
    }
    pthread_mutex_unlock(&d->notes_lock);
    return first;
}

void sim_forget_notes(sim_device *d, const void *p)
{
    pthread_mutex_lock(&d->notes_lock);
    uint32_t n = 0;
    for (uint32_t i = 0; i < d->nnoted; i++)
        if (d->noted[i].program != p)
            d->noted[n++] = d->noted[i];
    d->nnoted = n;
    pthread_mutex_unlock(&d->notes_lock);
}

/* A global access of size bytes at addr that no live allocation holds.
 * Inside a mapped region a GPU performs it: so do we, on the region's
 * storage (zeroed when mapped, writes kept), with a warning the first
 * time its PTX line does it; with memcheck, and outside every region, it
 * is a fault. */
static uint8_t *outside_allocations(sim_cta *c, const sim_inst *in, uint32_t t, const char *space,
                                    uint64_t addr, uint32_t size, int kind)
{
    const sim_region *r = sim_find_region(c->dev, addr, size);
    if (!r)
        return bad_access(c, in, t, space, addr, size, kind, "");
    if (c->dev->memcheck)
        return bad_access(c, in, t, space, addr, size, kind,
                          " (outside every live allocation, inside a mapped region; memory checking is on)");
    if (first_note(c->dev, c->prog, in->line)) {
        char who[96], near[160] = "";
        sim_thread_coords(c, t, who, sizeof who);
        const sim_alloc *a = sim_nearest_alloc(c->dev, addr);
        if (a)
            snprintf(near, sizeof near, " (nearest allocation: %s, 0x%" PRIx64 "..0x%" PRIx64 ", %" PRIu64
                     " bytes)", a->label, a->base, a->base + a->size, a->size);
        fflush(stdout);
        fprintf(stderr, "simtlab: warning: kernel %s, PTX line %u: %s %s of size %u at 0x%" PRIx64
                " is outside every live allocation%s, by %s; it lies in a mapped 2 MiB region of device "
                "memory, where a GPU performs it, so it proceeds (reported once per line; memory "
                "checking, --memcheck, makes it an error)\n", c->kernel, in->line, space, kind_name(kind), size, addr,
                near, who);
    }
    return r->data + (addr - r->base);
}

/* Whether size bytes at shared offset addr lie inside what the CTA's
 * kernel may reach: one of its static variables' ranges (its own and its
 * callees'; the module-wide layout places other kernels' variables around
 * them) or the launch's dynamic shared memory. */
static bool shared_inside(const sim_cta *c, uint64_t addr, uint32_t size)
{
    const sim_func *fn = c->kernel_fn;
    uint64_t end = addr + size;
    if (end > c->shared_bytes)
        return false;
    for (uint32_t k = 0; k < fn->nshared_ranges; k++)
        if (addr >= fn->shared_ranges[k].lo && end <= fn->shared_ranges[k].end)
            return true;
    return addr >= fn->shared_dynamic_base && end <= (uint64_t)fn->shared_dynamic_base + c->dynamic_shared;
}

/* sim_mem without the recording: resolve and check the access. */
static uint8_t *host_pointer(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t addr,
                             uint32_t size, int kind)
{
    if (sim_misaligned(addr, size))
        return bad_access(c, in, t, space == PTX_SPACE_NONE ? "generic" : ptx_space_name(space),
                          addr, size, kind, " (misaligned)");
    switch (space) {
    case PTX_SPACE_NONE: {
        uint64_t off;
        uint8_t named = sim_generic_space(addr, &off);
        if (named != PTX_SPACE_GLOBAL)
            return host_pointer(c, in, t, named, off, size, kind);
    }
        __attribute__((fallthrough)); /* anything else is a global address */
    case PTX_SPACE_GLOBAL: {
        uint64_t off = addr - c->cache_base;
        if (off < c->cache_size && size <= c->cache_size - off)
            return c->cache_data + off;
        sim_alloc *a = sim_find_alloc(c->dev, addr, size);
        if (!a)
            return outside_allocations(c, in, t, space == PTX_SPACE_NONE ? "generic" : "__global__", addr,
                                       size, kind);
        if (a->read_only) { /* never cached: every access is checked here */
            if (kind != 1)
                return bad_access(c, in, t, space == PTX_SPACE_NONE ? "generic" : "__global__", addr, size, kind,
                                  " (host memory registered read-only)");
            return a->data + (addr - a->base);
        }
        c->cache_base = a->base;
        c->cache_size = a->size;
        c->cache_data = a->data;
        return a->data + (addr - a->base);
    }
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CTA: case PTX_SPACE_SHARED_CLUSTER: {
        const sim_cta *owner = c; /* or another CTA of the cluster (mapa) */
        if (addr >> SIM_CLUSTER_RANK_SHIFT) {
            /* shared addresses are 32-bit: beyond that no rank is named */
            uint64_t rank = (addr >> SIM_CLUSTER_RANK_SHIFT) - 1;
            if (addr >> 32 || rank >= c->cluster->n) {
                /* without a cluster (or past the ranks it has) the offset
                 * is simply beyond this CTA's shared memory */
                char why[96];
                if (c->cluster->n > 1 && !(addr >> 32))
                    snprintf(why, sizeof why, " (no CTA of rank %" PRIu64 " in the cluster of %u)", rank,
                             c->cluster->n);
                else
                    snprintf(why, sizeof why, " (outside the shared window: this CTA has %u bytes of "
                             "shared memory)", c->shared_bytes);
                return bad_access(c, in, t, "__shared__", addr, size, kind, why);
            }
            owner = c->cluster->ctas[rank];
            addr &= (1ull << SIM_CLUSTER_RANK_SHIFT) - 1;
        }
        if (!shared_inside(owner, addr, size))
            return bad_access(c, in, t, "__shared__", addr, size, kind,
                              " (outside this kernel's shared variables and dynamic shared memory)");
        return owner->shared + addr;
    }
    case PTX_SPACE_LOCAL:
        if (addr >= c->local_bytes || size > c->local_bytes - addr)
            return bad_access(c, in, t, "__local__", addr, size, kind,
                              " (outside the thread's stack)");
        return c->local + (size_t)sim_thread(c, t) * c->local_bytes + addr;
    case PTX_SPACE_CONST:
        if (kind != 1)
            return bad_access(c, in, t, "__constant__", addr, size, kind, " (read-only)");
        if (addr >= c->prog->const_bytes || size > c->prog->const_bytes - addr)
            return bad_access(c, in, t, "__constant__", addr, size, kind, "");
        return c->prog->const_bank + addr;
    case PTX_SPACE_PARAM: case PTX_SPACE_PARAM_ENTRY:
        if (kind != 1)
            return bad_access(c, in, t, "kernel parameter", addr, size, kind, " (read-only)");
        if (addr >= c->param_bytes || size > c->param_bytes - addr)
            return bad_access(c, in, t, "kernel parameter", addr, size, kind, "");
        return (uint8_t *)c->params + addr;
    default:
        sim_fault(c, SIM_ERR_UNSUPPORTED, "memory access in the %s state space is not supported yet, kernel %s, PTX line %u",
                  ptx_space_name((ptx_space)space), c->kernel, in->line);
        return NULL;
    }
}

uint8_t sim_generic_space(uint64_t addr, uint64_t *off)
{
    static const struct {
        uint64_t base;
        uint8_t space;
    } windows[] = {{SIM_SHARED_WINDOW, PTX_SPACE_SHARED}, {SIM_LOCAL_WINDOW, PTX_SPACE_LOCAL},
                   {SIM_CONST_WINDOW, PTX_SPACE_CONST}, {SIM_PARAM_WINDOW, PTX_SPACE_PARAM}};
    /* beyond what a space's generic addresses take, a window's addresses
     * are global ones (registered host memory may lie there) */
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++)
        if (addr - windows[i].base < SIM_SPACE_WINDOW_BYTES) {
            *off = addr - windows[i].base;
            return windows[i].space;
        }
    *off = addr;
    return PTX_SPACE_GLOBAL;
}

uint8_t sim_resolve_space(uint8_t space, uint64_t *addr)
{
    if (space == PTX_SPACE_NONE)
        return sim_generic_space(*addr, addr);
    if (space == PTX_SPACE_SHARED_CTA || space == PTX_SPACE_SHARED_CLUSTER)
        return PTX_SPACE_SHARED;
    if (space == PTX_SPACE_PARAM_ENTRY)
        return PTX_SPACE_PARAM;
    return space;
}

bool sim_mem_log_grow(sim_cta *c, const sim_inst *in)
{
    uint32_t cap = c->cap_mem_log ? 2 * c->cap_mem_log : 64;
    sim_mem_access *log = cap > c->cap_mem_log ? realloc(c->mem_log, cap * sizeof *log) : NULL;
    if (!log) {
        sim_fault(c, SIM_ERR_OUT_OF_MEMORY, "out of memory recording the accesses of kernel %s, PTX line %u",
                  c->kernel, in->line);
        return false;
    }
    c->mem_log = log;
    c->cap_mem_log = cap;
    return true;
}

/* Log an access sim_mem served, its space resolved as sim_mem_access
 * holds it. */
static bool record(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t addr, uint32_t size, int kind)
{
    space = sim_resolve_space(space, &addr);
    return sim_mem_log(c, in, t, space, addr, size, kind);
}

uint8_t *sim_mem(sim_cta *c, const sim_inst *in, uint32_t t, uint8_t space, uint64_t addr,
                 uint32_t size, int kind)
{
    uint8_t *p = host_pointer(c, in, t, space, addr, size, kind);
    if (p && c->record_mem && !record(c, in, t, space, addr, size, kind))
        return NULL;
    return p;
}
