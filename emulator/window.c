/* window.c — the global window: where allocations are placed and what
 * backs them.
 *
 * Every global allocation, device memory and mapped host memory alike, is
 * placed here in [SIM_GLOBAL_BASE, SIM_GLOBAL_BASE + window) (8 TiB, or
 * less: sim_device_set_global_window; the 8 TiB above, up to the top of
 * the user address space, are the host's mmap area and stack). As the CUDA driver does,
 * allocations are carved from mapped regions of 2 MiB granules
 * (SIM_REGION_BYTES): small ones share a region, a large one gets a
 * region of several granules. Inside its region an allocation keeps
 * SIM_ALLOC_GAP bytes free on both sides and starts 256-byte aligned;
 * the first hole that fits (lowest address, regions in address order) is
 * taken, so freed ranges are reused. Regions hold one kind: device
 * regions grow from the bottom of the window, mapped ones from the top,
 * and a region never comes within a granule of a region of the other
 * kind, so running off a device buffer does not reach pinned memory.
 *
 * Disjointness from host memory is enforced by the host kernel, not
 * hoped for: every guest range a region occupies is first reserved in the
 * host address space at the guest address itself (PROT_NONE, with
 * MAP_FIXED_NOREPLACE, which fails where anything is mapped already; the
 * search then moves on), so the host can never map anything at a guest
 * address later. A device region's storage is a separate anonymous
 * mapping: its guest addresses stay PROT_NONE and a host dereference of a
 * device pointer crashes as on a GPU. A mapped region makes its
 * reservation readable and writable in place, so host pointer == guest
 * address. When a region's last allocation is freed its storage goes
 * (device: unmapped; mapped: pages dropped, back to PROT_NONE), but the
 * reservation stays until the device is freed, so a stale pointer into it
 * never meets host memory and a later region reuses the range. A full
 * window or an exhausted host address space (ulimit -v) is an error
 * message, never an exit. Under AddressSanitizer (x86-64) the window lies
 * in its high application memory: above the shadow (which ends at
 * 0x10007fff8000) and its allocator (0x600000000000 to 0x640000000000),
 * below the host's libraries and stack. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "emulator/internal.h"
#include "ir/util.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older kernels take it as a hint */
#endif

/* x rounded up to a multiple of the power of two a. */
static uint64_t round_up(uint64_t x, uint64_t a)
{
    return (x + a - 1) & ~(a - 1);
}

/* Index of the first region whose base is above addr. */
static uint32_t region_upper_bound(const sim_device *d, uint64_t addr)
{
    uint32_t lo = 0, hi = d->nregions;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->regions[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const sim_region *sim_find_region(const sim_device *d, uint64_t addr, uint64_t size)
{
    uint32_t i = region_upper_bound(d, addr);
    if (i == 0)
        return NULL;
    const sim_region *r = &d->regions[i - 1];
    uint64_t off = addr - r->base;
    return off < r->size && size <= r->size - off ? r : NULL;
}

/* The lowest base inside region r where size bytes fit with the gap on
 * both sides, or 0 (lock held). */
static uint64_t hole_in_region(const sim_device *d, const sim_region *r, uint64_t size)
{
    uint64_t need = size ? size : 1, end = r->base + r->size;
    uint64_t x = round_up(r->base + SIM_ALLOC_GAP, SIM_ALLOC_ALIGN);
    for (uint32_t i = sim_alloc_upper_bound(d, r->base); i < d->nallocs && d->allocs[i].base < end; i++) {
        const sim_alloc *a = &d->allocs[i];
        if (x + need + SIM_ALLOC_GAP <= a->base)
            return x;
        x = round_up(a->base + (a->size ? a->size : 1) + SIM_ALLOC_GAP, SIM_ALLOC_ALIGN);
    }
    return x + need + SIM_ALLOC_GAP <= end ? x : 0;
}

/* Record [lo, end) as reserved, merging it with touching ranges. */
static void add_reserved(sim_device *d, uint64_t lo, uint64_t end)
{
    uint32_t at = 0;
    while (at < d->nreserved && d->reserved[at].end < lo)
        at++;
    /* ranges at..j-1 touch or overlap [lo, end): they merge into one */
    uint32_t j = at;
    while (j < d->nreserved && d->reserved[j].lo <= end) {
        lo = lo < d->reserved[j].lo ? lo : d->reserved[j].lo;
        end = end > d->reserved[j].end ? end : d->reserved[j].end;
        j++;
    }
    if (j == at) {
        PTX_GROW(d->reserved, d->cap_reserved, (uint64_t)d->nreserved + 1);
        memmove(&d->reserved[at + 1], &d->reserved[at], (d->nreserved - at) * sizeof *d->reserved);
        d->nreserved++;
    } else {
        memmove(&d->reserved[at + 1], &d->reserved[j], (d->nreserved - j) * sizeof *d->reserved);
        d->nreserved -= j - at - 1;
    }
    d->reserved[at] = (sim_range){lo, end};
}

enum reserve_result { RESERVED, RESERVE_BUSY, RESERVE_FAILED };

/* Reserve the parts of [lo, end) that are not reserved yet, at their own
 * addresses. RESERVE_BUSY: the host has something mapped there (parts
 * reserved before stay reserved); RESERVE_FAILED: no address space left
 * (err says so). */
static enum reserve_result reserve(sim_device *d, uint64_t lo, uint64_t end, char *err, size_t errlen)
{
    uint64_t x = lo;
    uint32_t i = 0;
    while (x < end) {
        while (i < d->nreserved && d->reserved[i].end <= x)
            i++;
        if (i < d->nreserved && d->reserved[i].lo <= x) {
            x = d->reserved[i].end; /* held already */
            continue;
        }
        uint64_t stop = i < d->nreserved && d->reserved[i].lo < end ? d->reserved[i].lo : end;
        void *want = (void *)(uintptr_t)x;
        void *m = mmap(want, stop - x, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                       -1, 0);
        if (m == MAP_FAILED && errno != EEXIST) {
            sim_fail(err, errlen, "out of host address space reserving %" PRIu64 " bytes of the device's "
                     "address window at 0x%" PRIx64 ": %s", stop - x, x, strerror(errno));
            return RESERVE_FAILED;
        }
        if (m != want) {
            if (m != MAP_FAILED) /* a kernel without MAP_FIXED_NOREPLACE put it elsewhere */
                munmap(m, stop - x);
            return RESERVE_BUSY;
        }
        add_reserved(d, x, stop);
        i = 0;
        x = stop;
    }
    return RESERVED;
}

/* Index of a region that [x, x + size) may not overlap for a region of
 * the given kind (regions of the other kind keep a granule away), or -1.
 * Of several, the lowest when `up`, else the highest. */
static long conflict(const sim_device *d, uint64_t x, uint64_t size, bool mapped, bool up)
{
    uint32_t i = region_upper_bound(d, x);
    i = i >= 2 ? i - 2 : 0; /* regions are a granule at least: earlier ones end too low */
    long found = -1;
    for (; i < d->nregions && d->regions[i].base < x + size + SIM_REGION_BYTES; i++) {
        const sim_region *r = &d->regions[i];
        uint64_t pad = r->mapped != mapped ? SIM_REGION_BYTES : 0;
        if (r->base < x + size + pad && x < r->base + r->size + pad) {
            found = (long)i;
            if (up)
                break;
        }
    }
    return found;
}

/* Find and reserve a free guest range of size bytes (a multiple of the
 * granule) for a new region: the lowest that fits for device regions,
 * the highest for mapped ones. -1 and err when none is left. */
static int find_range(sim_device *d, uint64_t size, bool mapped, uint64_t *at, char *err, size_t errlen)
{
    const uint64_t lo = SIM_GLOBAL_BASE, hi = SIM_GLOBAL_BASE + d->window;
    if (size > d->window)
        goto full;
    uint64_t x = mapped ? hi - size : lo;
    for (;;) {
        long c = conflict(d, x, size, mapped, !mapped);
        if (c < 0) {
            enum reserve_result r = reserve(d, x, x + size, err, errlen);
            if (r == RESERVED) {
                *at = x;
                return 0;
            }
            if (r == RESERVE_FAILED)
                return -1;
        }
        /* move past the conflict, or a granule past what the host holds */
        const sim_region *r = c >= 0 ? &d->regions[c] : NULL;
        uint64_t pad = r && r->mapped != mapped ? SIM_REGION_BYTES : 0;
        if (!mapped) {
            x = r ? r->base + r->size + pad : x + SIM_REGION_BYTES;
            if (x + size > hi)
                goto full;
        } else {
            uint64_t below = r ? r->base - pad : x + size - SIM_REGION_BYTES;
            if (below < lo + size)
                goto full;
            x = below - size;
        }
    }
full:
    return sim_fail(err, errlen, "device address window full: %" PRIu64 " bytes live of %" PRIu64
                    " (no free range of %" PRIu64 " bytes for a new region)", d->live_bytes, d->window, size);
}

/* Map a new region of size bytes (a multiple of the granule) with zeroed
 * storage; its index in the table, or -1 and err. */
static long new_region(sim_device *d, uint64_t size, bool mapped, char *err, size_t errlen)
{
    uint64_t at = 0;
    if (find_range(d, size, mapped, &at, err, errlen) != 0)
        return -1;
    uint8_t *data;
    if (mapped) {
        data = (uint8_t *)(uintptr_t)at;
        if (mprotect(data, size, PROT_READ | PROT_WRITE) != 0)
            return sim_fail(err, errlen, "out of host memory mapping %" PRIu64 " bytes: %s", size,
                            strerror(errno));
    } else {
        data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (data == MAP_FAILED)
            return sim_fail(err, errlen, "out of host memory allocating %" PRIu64 " bytes: %s", size,
                            strerror(errno));
    }
    uint32_t i = region_upper_bound(d, at);
    PTX_GROW(d->regions, d->cap_regions, (uint64_t)d->nregions + 1);
    memmove(&d->regions[i + 1], &d->regions[i], (d->nregions - i) * sizeof *d->regions);
    d->regions[i] = (sim_region){at, size, data, 0, mapped, UINT64_MAX};
    d->nregions++;
    return (long)i;
}

int sim_window_place(sim_device *d, uint64_t size, bool mapped, uint64_t *base, uint8_t **data,
                     char *err, size_t errlen)
{
    uint64_t need = size ? size : 1;
    for (uint32_t i = 0; i < d->nregions; i++) {
        sim_region *r = &d->regions[i];
        if (r->mapped != mapped || need >= r->no_fit)
            continue;
        uint64_t x = hole_in_region(d, r, size);
        if (!x) {
            r->no_fit = need;
            continue;
        }
        /* reused space may hold what earlier allocations left */
        *base = x;
        *data = r->data + (x - r->base);
        memset(*data, 0, need);
        r->live++;
        d->live_bytes += size;
        d->device_bytes += mapped ? 0 : size;
        return 0;
    }
    long i = new_region(d, round_up(need + 2ull * SIM_ALLOC_GAP, SIM_REGION_BYTES), mapped, err, errlen);
    if (i < 0)
        return -1;
    sim_region *r = &d->regions[i];
    *base = r->base + SIM_ALLOC_GAP; /* fresh pages read zero */
    *data = r->data + SIM_ALLOC_GAP;
    r->live++;
    d->live_bytes += size;
    d->device_bytes += mapped ? 0 : size;
    return 0;
}

/* Give back region i's storage and drop it from the table; its range
 * stays reserved. */
static void unmap_region(sim_device *d, uint32_t i)
{
    sim_region *r = &d->regions[i];
    if (r->mapped) {
        madvise(r->data, r->size, MADV_DONTNEED); /* the next use reads zeros */
        mprotect(r->data, r->size, PROT_NONE);
    } else {
        munmap(r->data, r->size);
    }
    memmove(&d->regions[i], &d->regions[i + 1], (d->nregions - i - 1) * sizeof *d->regions);
    d->nregions--;
}

void sim_window_release(sim_device *d, uint64_t base, uint64_t size)
{
    uint32_t i = region_upper_bound(d, base) - 1;
    sim_region *r = &d->regions[i];
    d->live_bytes -= size;
    d->device_bytes -= r->mapped ? 0 : size;
    r->no_fit = UINT64_MAX;
    if (--r->live == 0)
        unmap_region(d, i);
}

void sim_window_free(sim_device *d)
{
    for (uint32_t i = 0; i < d->nregions; i++)
        if (!d->regions[i].mapped)
            munmap(d->regions[i].data, d->regions[i].size);
    for (uint32_t i = 0; i < d->nreserved; i++)
        munmap((void *)(uintptr_t)d->reserved[i].lo, d->reserved[i].end - d->reserved[i].lo);
    free(d->regions);
    free(d->reserved);
}
