/* coalescer.c — a warp's per-lane accesses become L1/L2 requests (the
 * behaviour and its GPGPU-Sim reference are described in coalescer.h). */
#include "timing/coalescer.h"

#include "timing/bits.h"
#include "timing/config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#define LINE_BYTES 128u

/* One request being built: a line (or, once split, a sector) of one
 * sub-warp, the sectors touched and the lanes touching each, and for
 * atomics the bytes already taken and the creation round among the
 * line's requests. */
typedef struct coal_entry {
    uint64_t addr;
    uint64_t bytes_lo, bytes_hi; /* bytes 0..63 and 64..127 of the line (atomics) */
    uint32_t round;
    uint8_t sectors;
    uint32_t lanes[4];           /* per 32-byte sector of the line: the lanes touching it */
} coal_entry;

/* Write a one-line message into err (when given); returns -1. */
static int coal_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int coal_fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

/* Check what every entry point needs of an access: the lanes exist, the
 * size is one a lane can move, and no lane's bytes wrap past 2^64. */
static int check_access(const tm_warp_access *a, uint32_t warp_size, char *err, size_t errlen)
{
    if (warp_size == 0 || warp_size > 32)
        return coal_fail(err, errlen, "coalescer: warp size %u is not 1..32", warp_size);
    if (warp_size < 32 && (a->active >> warp_size))
        return coal_fail(err, errlen, "coalescer: active mask 0x%08x names lanes beyond the warp size %u",
                         a->active, warp_size);
    if (!is_pow2(a->bytes) || a->bytes > TM_COALESCE_MAX_LANE_BYTES)
        return coal_fail(err, errlen, "coalescer: %u bytes per lane is not a power of two up to %u", a->bytes,
                         TM_COALESCE_MAX_LANE_BYTES);
    if (a->active && !a->addr)
        return coal_fail(err, errlen, "coalescer: active lanes but no addresses");
    if (!a->active)
        return 0;
    uint64_t any = 0; /* every address below 2^63: none wraps (a lane moves at most 32 bytes) */
    for (uint32_t lane = 0; lane < warp_size; lane++)
        any |= a->addr[lane];
    for (uint32_t lane = 0; (any >> 63) && lane < warp_size; lane++)
        if (((a->active >> lane) & 1) && a->addr[lane] + (a->bytes - 1) < a->addr[lane])
            return coal_fail(err, errlen, "coalescer: lane %u: %u bytes at 0x%" PRIx64 " wrap past the end of memory",
                             lane, a->bytes, a->addr[lane]);
    return 0;
}

/* Bytes [first, first+n) of a 128-byte line as two 64-bit masks. */
static void line_byte_mask(uint32_t first, uint32_t n, uint64_t *lo, uint64_t *hi)
{
    uint64_t run = n >= 64 ? ~0ull : (1ull << n) - 1;
    *lo = first < 64 ? run << first : 0;
    *hi = first >= 64 ? run << (first - 64) : (first + n > 64 ? run >> (64 - first) : 0);
}

/* Merge an atomic lane `lane`'s touch of sector `sector` (a 32-byte sector
 * number) into the sub-warp's entries: the line's first entry whose bytes
 * are still free, else a new one (loads and stores go a run of lanes at a
 * time: merge_run). Returns false when the entry array is full (cannot
 * happen within the documented bounds; checked all the same). */
static bool merge_atomic(coal_entry *e, uint32_t *n, uint32_t cap, uint64_t sector, uint64_t addr, uint32_t bytes,
                         uint32_t lane)
{
    uint64_t line = (sector * TM_SECTOR_BYTES) & ~(uint64_t)(LINE_BYTES - 1);
    uint8_t bit = (uint8_t)(1u << (sector & 3));
    uint64_t lo, hi;
    uint32_t round = 0;
    line_byte_mask((uint32_t)(addr & (LINE_BYTES - 1)), bytes, &lo, &hi);
    for (uint32_t i = 0; i < *n; i++) {
        if (e[i].addr != line)
            continue;
        if ((e[i].bytes_lo & lo) || (e[i].bytes_hi & hi)) {
            round++; /* this one already holds some of the lane's bytes */
            continue;
        }
        e[i].sectors |= bit;
        e[i].bytes_lo |= lo;
        e[i].bytes_hi |= hi;
        e[i].lanes[sector & 3] |= 1u << lane;
        return true;
    }
    if (*n == cap)
        return false;
    e[*n] = (coal_entry){.addr = line, .bytes_lo = lo, .bytes_hi = hi, .round = round, .sectors = bit};
    e[(*n)++].lanes[sector & 3] = 1u << lane;
    return true;
}

/* Order entries by address, then by creation round (insertion sort: at
 * most 64 entries, usually a handful, mostly in order already). */
static void sort_entries(coal_entry *e, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        coal_entry x = e[i];
        uint32_t j = i;
        while (j > 0 && (e[j - 1].addr > x.addr || (e[j - 1].addr == x.addr && e[j - 1].round > x.round))) {
            e[j] = e[j - 1];
            j--;
        }
        e[j] = x;
    }
}

/* Split each line entry into one entry per touched sector (GPGPU-Sim's
 * 32-byte transactions); entries must have room for the pieces. */
static uint32_t split_sectors(const coal_entry *lines, uint32_t n, coal_entry *pieces)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t b = 0; b < 4; b++)
            if (lines[i].sectors & (1u << b)) {
                pieces[k] = (coal_entry){.addr = lines[i].addr + b * TM_SECTOR_BYTES, .round = lines[i].round,
                                         .sectors = (uint8_t)(1u << b)};
                pieces[k++].lanes[b] = lines[i].lanes[b];
            }
    return k;
}

/* The line entries that bytes [addr, addr+len) touch, in address order
 * (what merging them lane by lane gives for a non-atomic run); at most
 * len / 128 + 2 of them. */
static uint32_t run_lines(uint64_t addr, uint64_t len, coal_entry *lines)
{
    uint64_t first = addr / TM_SECTOR_BYTES, last = (addr + len - 1) / TM_SECTOR_BYTES;
    uint32_t n = 0;
    for (uint64_t s = first; s <= last; s++) {
        uint64_t line = (s * TM_SECTOR_BYTES) & ~(uint64_t)(LINE_BYTES - 1);
        if (n == 0 || lines[n - 1].addr != line)
            lines[n++] = (coal_entry){.addr = line};
        lines[n - 1].sectors |= (uint8_t)(1u << (s & 3));
    }
    return n;
}

/* Record in lines[0..n) (run_lines' entries for the run of lanes
 * lo..hi-1, `bytes` each from lane lo's address on) which lanes touch
 * each sector: those from the lane holding the sector's first byte of the
 * run to the lane holding its last. */
static void run_lanes(const tm_warp_access *a, uint32_t lo, uint32_t hi, coal_entry *lines, uint32_t n)
{
    uint64_t start = a->addr[lo], last_byte = start + (uint64_t)(hi - lo) * a->bytes - 1;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t b = 0; b < 4; b++) {
            if (!(lines[i].sectors >> b & 1))
                continue;
            uint64_t first = lines[i].addr + b * TM_SECTOR_BYTES, end = first + TM_SECTOR_BYTES - 1;
            uint32_t l0 = first > start ? (uint32_t)((first - start) / a->bytes) : 0;
            uint32_t l1 = (uint32_t)(((end < last_byte ? end : last_byte) - start) / a->bytes);
            lines[i].lanes[b] = (uint32_t)((((1ull << (l1 - l0 + 1)) - 1) << l0) << lo);
        }
}

/* Merge the run of active lanes lo..hi-1, each reading the bytes right
 * after the previous lane's, into the sub-warp's line entries (loads and
 * stores: one entry a line). False when the entries are full. */
static inline bool merge_run(const tm_warp_access *a, uint32_t lo, uint32_t hi, coal_entry *lines, uint32_t *n,
                             uint32_t cap)
{
    coal_entry run[TM_COALESCE_MAX_LANE_BYTES * 32 / LINE_BYTES + 2];
    coal_entry *into = *n ? run : lines; /* (the first run: its entries are the sub-warp's) */
    uint32_t k = run_lines(a->addr[lo], (uint64_t)(hi - lo) * a->bytes, into);
    run_lanes(a, lo, hi, into, k);
    if (!*n) {
        *n = k;
        return true;
    }
    for (uint32_t r = 0; r < k; r++) {
        uint32_t i = 0;
        while (i < *n && lines[i].addr != run[r].addr)
            i++;
        if (i == *n) {
            if (*n == cap)
                return false;
            lines[(*n)++] = run[r];
            continue;
        }
        lines[i].sectors |= run[r].sectors;
        for (uint32_t b = 0; b < 4; b++)
            lines[i].lanes[b] |= run[r].lanes[b];
    }
    return true;
}

/* A request for one entry, its identity taken from proto, its lanes those
 * touching its sectors. */
static tm_req make_req(const coal_entry *e, tm_req_kind kind, tm_req_space space, const tm_req *proto)
{
    tm_req r = proto ? *proto : (tm_req){0};
    r.addr = e->addr;
    r.sectors = e->sectors;
    r.lanes = 0;
    for (uint32_t b = 0; b < 4; b++)
        if (e->sectors >> b & 1)
            r.lanes |= e->lanes[b];
    r.bytes = tm_popcount8(e->sectors) * TM_SECTOR_BYTES;
    r.kind = (uint8_t)kind;
    r.space = (uint8_t)space;
    r.is_reply = 0;
    return r;
}

/* Lanes per sub-warp: warp_size / warp_parts, or by access size (128
 * bytes of lane data) when warp_parts is 0. */
static uint32_t subwarp_lanes(const tm_coalesce_params *p, uint32_t bytes)
{
    if (p->warp_parts)
        return p->warp_size / p->warp_parts;
    uint32_t lanes = LINE_BYTES / bytes;
    return lanes < p->warp_size ? lanes : p->warp_size;
}

int tm_coalesce(const tm_coalesce_params *p, const tm_warp_access *a, const tm_req *proto, tm_req *out,
                uint32_t out_cap, uint32_t *n_out, char *err, size_t errlen)
{
    *n_out = 0;
    if (check_access(a, p->warp_size, err, errlen))
        return -1;
    if (p->warp_parts && (p->warp_parts > p->warp_size || p->warp_size % p->warp_parts))
        return coal_fail(err, errlen, "coalescer: %u warp parts do not divide a warp of %u lanes", p->warp_parts,
                         p->warp_size);
    if (a->kind != TM_REQ_READ && a->kind != TM_REQ_WRITE && a->kind != TM_REQ_ATOMIC)
        return coal_fail(err, errlen, "coalescer: request kind %d is not a read, write or atomic", (int)a->kind);
    if (a->space != TM_SPACE_GLOBAL && a->space != TM_SPACE_LOCAL)
        return coal_fail(err, errlen, "coalescer: space %d is not global or local (constant loads: tm_const_accesses)",
                         (int)a->space);
    bool atomic = a->kind == TM_REQ_ATOMIC;
    if (atomic && a->space != TM_SPACE_GLOBAL)
        return coal_fail(err, errlen, "coalescer: atomics reach global memory only (shared ones: smem_banks)");
    if (atomic && a->bytes > 16)
        return coal_fail(err, errlen, "coalescer: a %u-byte atomic is wider than 16 bytes", a->bytes);
    for (uint32_t lane = 0; atomic && lane < p->warp_size; lane++)
        if (((a->active >> lane) & 1) && a->addr[lane] % a->bytes)
            return coal_fail(err, errlen, "coalescer: lane %u: %u-byte atomic at 0x%" PRIx64 " is not aligned", lane,
                             a->bytes, a->addr[lane]);

    uint32_t lanes = subwarp_lanes(p, a->bytes);
    for (uint32_t lo = 0; lo < p->warp_size; lo += lanes) {
        coal_entry lines[TM_COALESCE_MAX_REQS], pieces[TM_COALESCE_MAX_REQS];
        uint32_t n = 0, hi = lo + lanes < p->warp_size ? lo + lanes : p->warp_size;
        /* loads and stores: runs of lanes reading consecutive bytes (the
         * usual access is one, a tile's rows a few), merged a run at a time */
        for (uint32_t lane = lo, end; !atomic && lane < hi; lane = end) {
            end = lane + 1;
            if (!((a->active >> lane) & 1))
                continue;
            for (uint64_t next = a->addr[lane] + a->bytes; end < hi && (a->active >> end & 1) && a->addr[end] == next;
                 next += a->bytes)
                end++;
            if (!merge_run(a, lane, end, lines, &n, TM_COALESCE_MAX_REQS))
                return coal_fail(err, errlen, "coalescer: more than %u requests in one sub-warp", TM_COALESCE_MAX_REQS);
        }
        for (uint32_t lane = lo; atomic && lane < hi; lane++) {
            if (!((a->active >> lane) & 1))
                continue;
            uint64_t first = a->addr[lane] / TM_SECTOR_BYTES, last = (a->addr[lane] + a->bytes - 1) / TM_SECTOR_BYTES;
            for (uint64_t s = first; s <= last; s++) /* at most two sectors: bytes <= 32 */
                if (!merge_atomic(lines, &n, TM_COALESCE_MAX_REQS, s, a->addr[lane], a->bytes, lane))
                    return coal_fail(err, errlen, "coalescer: more than %u requests in one sub-warp",
                                     TM_COALESCE_MAX_REQS);
        }
        coal_entry *emit = lines;
        if (p->per_sector) {
            uint32_t sectors = 0;
            for (uint32_t i = 0; i < n; i++)
                sectors += tm_popcount8(lines[i].sectors);
            if (sectors > TM_COALESCE_MAX_REQS)
                return coal_fail(err, errlen, "coalescer: more than %u sector requests in one sub-warp",
                                 TM_COALESCE_MAX_REQS);
            n = split_sectors(lines, n, pieces);
            emit = pieces;
        }
        sort_entries(emit, n);
        if (*n_out + n > out_cap)
            return coal_fail(err, errlen, "coalescer: %u requests do not fit the caller's %u", *n_out + n, out_cap);
        for (uint32_t i = 0; i < n; i++)
            out[(*n_out)++] = make_req(&emit[i], a->kind, a->space, proto);
    }
    return 0;
}

/* The constant cache's request for the granule at block, read by lanes. */
static void const_request(uint64_t block, uint32_t lanes, uint32_t granule_bytes, const tm_req *proto, tm_req *out)
{
    uint32_t first = (uint32_t)(block & (LINE_BYTES - 1)) / TM_SECTOR_BYTES;
    uint32_t count = granule_bytes < TM_SECTOR_BYTES ? 1 : granule_bytes / TM_SECTOR_BYTES;
    coal_entry e = {.addr = block, .sectors = (uint8_t)(((1u << count) - 1) << first)};
    *out = make_req(&e, TM_REQ_READ, TM_SPACE_CONST, proto);
    out->bytes = granule_bytes;
    out->lanes = lanes;
}

int tm_const_accesses(const tm_warp_access *a, uint32_t warp_size, uint32_t granule_bytes, const tm_req *proto,
                      tm_req *out, uint32_t out_cap, uint32_t *n_blocks, char *err, size_t errlen)
{
    *n_blocks = 0;
    if (check_access(a, warp_size, err, errlen))
        return -1;
    if (!is_pow2(granule_bytes) || granule_bytes < 4 || granule_bytes > LINE_BYTES)
        return coal_fail(err, errlen, "constant cache: granule of %u bytes is not a power of two from 4 to %u",
                         granule_bytes, LINE_BYTES);
    uint64_t blocks[32], mask = ~(uint64_t)(granule_bytes - 1);
    uint32_t n = 0, lane = 0;
    /* the usual access (a kernel parameter): every active lane in the
     * first one's block; a whole warp told without branches */
    bool uniform;
    if (a->active == (uint32_t)((1ull << warp_size) - 1)) {
        uint64_t differ = 0;
        for (lane = 0; lane < warp_size; lane++)
            differ |= a->addr[lane] ^ a->addr[0];
        uniform = !(differ & mask);
    } else {
        while (lane < warp_size && (!((a->active >> lane) & 1) || (a->addr[lane] & mask) == (a->addr[0] & mask)))
            lane++;
        uniform = lane == warp_size && (a->active & 1);
    }
    if (uniform)
        blocks[n++] = a->addr[0] & mask;
    for (lane = 0; !uniform && lane < warp_size; lane++) {
        if (!((a->active >> lane) & 1))
            continue;
        uint64_t b = a->addr[lane] & mask;
        uint32_t j = n; /* insert in ascending order unless already there */
        while (j > 0 && blocks[j - 1] > b)
            j--;
        if (j > 0 && blocks[j - 1] == b)
            continue;
        for (uint32_t k = n; k > j; k--)
            blocks[k] = blocks[k - 1];
        blocks[j] = b;
        n++;
    }
    *n_blocks = n;
    if (!out)
        return 0;
    if (n > out_cap)
        return coal_fail(err, errlen, "constant cache: %u requests do not fit the caller's %u", n, out_cap);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t lanes = uniform ? a->active : 0;
        for (lane = 0; !uniform && lane < warp_size; lane++) /* the lanes reading in the block */
            if ((a->active >> lane & 1) && (a->addr[lane] & mask) == blocks[i])
                lanes |= 1u << lane;
        const_request(blocks[i], lanes, granule_bytes, proto, &out[i]);
    }
    return 0;
}
