/* cache.c — the cache unit of cache.h: tag array, MSHRs, miss queue and
 * GPGPU-Sim's allocation, write and write-allocate policies.
 *
 * The structure follows GPGPU-Sim's data_cache::access: probe the tags,
 * then a read-hit, read-miss, write-hit or write-miss handler chosen by
 * the configuration, each checking everything it needs (miss-queue
 * room, an MSHR entry or merge slot, a way to reserve) before it changes
 * anything, so that a reservation failure leaves the cache as it was.
 * Statistics are counted as GPGPU-Sim's cache_stats counts them
 * (select_stats_status: a pending hit counts as HIT_RESERVED, a sector
 * miss as SECTOR_MISS, a merge also as MSHR_HIT). */
#include "timing/cache.h"

#include "timing/bits.h"
#include "timing/gdu.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define ALL_SECTORS 0xFu

/* One line of the tag array, without its block address (tm_cache.blocks,
 * apart so that a scan for the victim reads 16 bytes a way). The sector
 * masks reserved, valid and modified are disjoint; a whole-line cache
 * keeps them 0 or ALL_SECTORS. */
typedef struct line {
    uint64_t stamp;            /* what replacement compares: the cycle of the last hit or
                                  allocation (LRU), or of the allocation (FIFO) */
    uint8_t reserved, valid, modified;
    uint8_t unreadable;        /* modified sectors not wholly written (lazy fetch on read) */
    uint8_t modified_on_fill;  /* reserved sectors that become MODIFIED when filled */
    uint8_t readable_on_fill;  /* modified sectors that become readable when filled */
    uint8_t used;              /* LAMAR: sectors referenced since the line was allocated */
    uint8_t predicted;         /* LAMAR: sectors fetched by prediction, not referenced yet */
    bool deprio;               /* allocated by a deprioritized access (priority-based allocation) */
} line;

/* An MSHR entry: one pending sector (or line) and the requests merged on it. */
typedef struct mshr {
    uint64_t key;              /* sector or line address */
    uint32_t head, n;          /* ring of merged requests in the entry's slots */
    uint8_t sectors;           /* the line sectors it fills */
    uint8_t pending;           /* sectors of the next-level request still to come back */
    bool ready, has_atomic;
    bool bypass;               /* its data fills no line (a deprioritized miss: tm_cache_set_pca) */
    uint32_t line;             /* the line its access found or allocated (a hint for the fill) */
} mshr;

struct tm_cache {
    tm_cache_config cfg;
    char name[32];
    uint32_t line_log2, nset_log2, atom_bytes, port_width;
    bool last_level;
    uint64_t (*index_fn)(void *ctx, uint64_t addr);
    void *index_ctx;
    tm_miss_class *classes;   /* tm_cache_set_miss_classes, or NULL */
    tm_snooze *snooze;        /* tm_cache_set_snooze, or NULL */
    uint32_t snooze_block;    /* its unit: 0 the bank, else bytes of a block */
    /* Snooze's reservation queue: sets whose access was refused for want of
     * an MSHR or a line, until a fill comes into them; an access to such a
     * set waiting in the input queue wakes nothing */
    uint32_t rq[TM_SNOOZE_RQ], rq_n;
    uint64_t index_masks[32];  /* bit i of a hashed set index: the parity of these address bits */
    line *lines;               /* nsets x assoc */
    uint64_t *blocks;          /* per line: its block address (GPGPU-Sim's tag) */
    uint8_t *prints;           /* per line: a byte of its block's hash; a probe compares
                                  blocks only where this matches */
    uint32_t *mru;             /* per set: the way that hit last (probed first) */
    /* MSHRs */
    mshr *mshrs;
    tm_req *merged;            /* mshr_entries x mshr_max_merge slots */
    bool *internal;            /* a slot holds a write-allocate fetch, not a caller's request */
    uint32_t *free_list, n_free;
    uint32_t *table, table_mask; /* open addressing: key -> entry, NONE empty */
    uint32_t *ready_ring, ready_head, ready_n;
    tm_queue missq;
    uint64_t port_bytes;       /* byte-time at which the data port is next free */
    /* The last refused access ("skipping work"): a request equal to it,
     * made while nothing in the cache changed (same `version`), is
     * refused for the same reason without a probe. Every change of the
     * tags, MSHRs or miss queue bumps `version`. */
    uint64_t version;
    struct {
        uint64_t version, addr;
        uint32_t bytes;
        uint8_t kind, space, sectors;
        tm_cache_access_type type;
        tm_cache_fail why;
        bool valid;
    } refused;
    tm_cache_stats stats;
    tm_gdu *gdu;               /* LAMAR's granularity decision unit, or NULL (tm_cache_set_gdu) */
    bool pca;                  /* priority-based cache allocation (tm_cache_set_pca) */
    char error[192];
};

/* ---- small helpers ----------------------------------------------------- */

/* Room for k more requests in the miss queue, as configured (the queue
 * has more slots when fills allocate: the write-backs of the dirty
 * victims they evict go in beyond the configured size; see fill_line). */
static bool missq_room(const tm_cache *c, uint32_t k) { return c->missq.n + k <= c->cfg.miss_queue; }

static bool is_pow2(uint32_t x) { return x && !(x & (x - 1)); }

static uint32_t log2u(uint32_t x)
{
    uint32_t l = 0;
    while (x >>= 1)
        l++;
    return l;
}

static uint64_t bit(uint64_t x, unsigned i) { return (x >> i) & 1u; }

/* The sectors of its 128-byte block that the bytes [addr, addr+bytes) touch. */
static uint8_t sectors_of_range(uint64_t addr, uint64_t bytes)
{
    uint64_t off = addr & 127u, end = off + bytes;
    if (end > 128)
        end = 128;
    if (end <= off)
        return 0;
    uint32_t first = (uint32_t)(off >> 5), last = (uint32_t)((end - 1) >> 5); /* the sectors of bytes off..end-1 */
    return (uint8_t)(((2u << last) - 1) & ~((1u << first) - 1));
}

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- set index functions (GPGPU-Sim's cache_config::hash_function) ---- */

/* IPOLY hash over GF(2) (Rau, ISCA 1991) as GPGPU-Sim's
 * ipoly_hash_function: a are the address bits above the index, b the
 * linear index bits; 16, 32 or 64 sets. */
static uint32_t ipoly_index(uint64_t a, uint32_t b, uint32_t nsets)
{
#define A(i) bit(a, i)
#define Bb(i) bit(b, i)
    uint32_t r = 0;
    if (nsets == 16) {
        r |= (uint32_t)(A(11) ^ A(10) ^ A(9) ^ A(8) ^ A(6) ^ A(4) ^ A(3) ^ A(0) ^ Bb(0)) << 0;
        r |= (uint32_t)(A(12) ^ A(8) ^ A(7) ^ A(6) ^ A(5) ^ A(3) ^ A(1) ^ A(0) ^ Bb(1)) << 1;
        r |= (uint32_t)(A(9) ^ A(8) ^ A(7) ^ A(6) ^ A(4) ^ A(2) ^ A(1) ^ Bb(2)) << 2;
        r |= (uint32_t)(A(10) ^ A(9) ^ A(8) ^ A(7) ^ A(5) ^ A(3) ^ A(2) ^ Bb(3)) << 3;
    } else if (nsets == 32) {
        r |= (uint32_t)(A(13) ^ A(12) ^ A(11) ^ A(10) ^ A(9) ^ A(6) ^ A(5) ^ A(3) ^ A(0) ^ Bb(0)) << 0;
        r |= (uint32_t)(A(14) ^ A(13) ^ A(12) ^ A(11) ^ A(10) ^ A(7) ^ A(6) ^ A(4) ^ A(1) ^ Bb(1)) << 1;
        r |= (uint32_t)(A(14) ^ A(10) ^ A(9) ^ A(8) ^ A(7) ^ A(6) ^ A(3) ^ A(2) ^ A(0) ^ Bb(2)) << 2;
        r |= (uint32_t)(A(11) ^ A(10) ^ A(9) ^ A(8) ^ A(7) ^ A(4) ^ A(3) ^ A(1) ^ Bb(3)) << 3;
        r |= (uint32_t)(A(12) ^ A(11) ^ A(10) ^ A(9) ^ A(8) ^ A(5) ^ A(4) ^ A(2) ^ Bb(4)) << 4;
    } else { /* 64, checked at creation */
        r |= (uint32_t)(A(18) ^ A(17) ^ A(16) ^ A(15) ^ A(12) ^ A(10) ^ A(6) ^ A(5) ^ A(0) ^ Bb(0)) << 0;
        r |= (uint32_t)(A(15) ^ A(13) ^ A(12) ^ A(11) ^ A(10) ^ A(7) ^ A(5) ^ A(1) ^ A(0) ^ Bb(1)) << 1;
        r |= (uint32_t)(A(16) ^ A(14) ^ A(13) ^ A(12) ^ A(11) ^ A(8) ^ A(6) ^ A(2) ^ A(1) ^ Bb(2)) << 2;
        r |= (uint32_t)(A(17) ^ A(15) ^ A(14) ^ A(13) ^ A(12) ^ A(9) ^ A(7) ^ A(3) ^ A(2) ^ Bb(3)) << 3;
        r |= (uint32_t)(A(18) ^ A(16) ^ A(15) ^ A(14) ^ A(13) ^ A(10) ^ A(8) ^ A(4) ^ A(3) ^ Bb(4)) << 4;
        r |= (uint32_t)(A(17) ^ A(16) ^ A(15) ^ A(14) ^ A(11) ^ A(9) ^ A(5) ^ A(4) ^ Bb(5)) << 5;
    }
#undef A
#undef Bb
    return r;
}

/* The set of addr under the configured function, bit by bit as the
 * function is defined (GPGPU-Sim's cache_config::hash_function). Every
 * function is linear over GF(2), so creation samples it once per
 * address bit (index_masks) and tm_cache_set_index computes the same
 * index as parities. */
static uint32_t defined_set_index(const tm_cache *c, uint64_t addr)
{
    uint32_t nsets = c->cfg.nsets;
    uint32_t linear = (uint32_t)(addr >> c->line_log2) & (nsets - 1);
    uint64_t higher = addr >> (c->line_log2 + c->nset_log2);
    switch (c->cfg.set_index) {
    case TM_INDEX_FERMI_HASH: { /* Nugteren et al., HPCA 2014: 32 or 64 sets */
        uint32_t lower = (uint32_t)(addr >> c->line_log2) & 0x1F;
        uint32_t upper = (uint32_t)((addr & 0xE000) >> 13) | (uint32_t)((addr & 0x20000) >> 14) |
                         (uint32_t)((addr & 0x80000) >> 15);
        uint32_t idx = lower ^ upper;
        if (nsets == 64)
            idx |= (uint32_t)((addr & 0x1000) >> 7);
        return idx;
    }
    case TM_INDEX_XOR:
        return linear ^ (uint32_t)(higher & (nsets - 1));
    case TM_INDEX_IPOLY:
        return ipoly_index(higher, linear, nsets);
    case TM_INDEX_LINEAR:
    default:
        return linear;
    }
}

/* Sample the set index function at each address bit: bit i of the index
 * is the parity of the address bits in index_masks[i]. */
static void sample_set_index(tm_cache *c)
{
    for (uint32_t j = 0; j < 64; j++) {
        uint32_t idx = defined_set_index(c, 1ull << j);
        for (uint32_t i = 0; i < c->nset_log2; i++)
            c->index_masks[i] |= (uint64_t)(idx >> i & 1) << j;
    }
}

uint32_t tm_cache_set_index(const tm_cache *c, uint64_t addr)
{
    if (c->index_fn)
        addr = c->index_fn(c->index_ctx, addr);
    if (c->cfg.set_index == TM_INDEX_LINEAR)
        return (uint32_t)(addr >> c->line_log2) & (c->cfg.nsets - 1);
    uint32_t idx = 0;
    for (uint32_t i = 0; i < c->nset_log2; i++)
        idx |= (uint32_t)__builtin_parityll(addr & c->index_masks[i]) << i;
    return idx;
}

/* ---- creation ---------------------------------------------------------- */

/* Why cfg cannot be modelled, or NULL. */
static const char *config_problem(const tm_cache_config *cfg, char *buf, size_t n)
{
    if (!cfg->present)
        return "the configuration says there is no such cache";
    if (!is_pow2(cfg->nsets))
        return snprintf(buf, n, "%u sets: the set count must be a power of two", cfg->nsets), buf;
    if (!is_pow2(cfg->line_bytes) || cfg->line_bytes < 4)
        return snprintf(buf, n, "%u-byte lines: the line size must be a power of two of at least 4",
                        cfg->line_bytes), buf;
    if (cfg->assoc == 0)
        return "associativity 0";
    if (cfg->sectored && cfg->line_bytes != 4 * TM_SECTOR_BYTES)
        return snprintf(buf, n, "a sectored cache needs 128-byte lines (4 sectors of 32), not %u",
                        cfg->line_bytes), buf;
    if (cfg->set_index == TM_INDEX_FERMI_HASH && cfg->nsets != 32 && cfg->nsets != 64)
        return snprintf(buf, n, "the Fermi hash (H) needs 32 or 64 sets, not %u", cfg->nsets), buf;
    if (cfg->set_index == TM_INDEX_IPOLY && cfg->nsets != 16 && cfg->nsets != 32 && cfg->nsets != 64)
        return snprintf(buf, n, "the IPOLY hash (P) needs 16, 32 or 64 sets, not %u", cfg->nsets), buf;
    if (cfg->mshr_kind != TM_MSHR_ASSOC && cfg->mshr_kind != TM_MSHR_SECTOR_ASSOC)
        return "texture-cache MSHRs (F, T) are not modelled: use A or S";
    if (cfg->mshr_entries == 0 || cfg->mshr_max_merge == 0)
        return "an MSHR table needs at least one entry and one request per entry";
    if (cfg->miss_queue == 0)
        return "a miss queue of 0 entries can send nothing";
    if (cfg->alloc != TM_ALLOC_ON_MISS &&
        (cfg->write_alloc == TM_WA_FETCH_ON_WRITE || cfg->write_alloc == TM_WA_LAZY_FETCH_ON_READ))
        return "fetch-on-write (F) and lazy fetch-on-read (L) need allocation on miss (m)";
    if (cfg->data_port_width && (cfg->data_port_width > cfg->line_bytes ||
                                 cfg->line_bytes % cfg->data_port_width))
        return snprintf(buf, n, "a data port of %u bytes must divide the %u-byte line",
                         cfg->data_port_width, cfg->line_bytes), buf;
    return NULL;
}

tm_cache *tm_cache_new(const tm_cache_config *cfg, const char *name, char *err, size_t errlen)
{
    char why[160];
    const char *problem = config_problem(cfg, why, sizeof why);
    if (problem) {
        seterr(err, errlen, "cache %s: %s", name ? name : "?", problem);
        return NULL;
    }
    tm_cache *c = calloc(1, sizeof *c);
    if (!c) {
        seterr(err, errlen, "cache %s: out of memory", name ? name : "?");
        return NULL;
    }
    c->cfg = *cfg;
    snprintf(c->name, sizeof c->name, "%s", name ? name : "cache");
    c->line_log2 = log2u(cfg->line_bytes);
    c->nset_log2 = log2u(cfg->nsets);
    c->atom_bytes = cfg->sectored ? TM_SECTOR_BYTES : cfg->line_bytes;
    c->port_width = cfg->data_port_width ? cfg->data_port_width : cfg->line_bytes;
    sample_set_index(c);
    uint32_t entries = cfg->mshr_entries, tsize = 2;
    while (tsize < 2 * entries)
        tsize <<= 1;
    c->table_mask = tsize - 1;
    c->lines = calloc((size_t)cfg->nsets * cfg->assoc, sizeof *c->lines);
    c->blocks = calloc((size_t)cfg->nsets * cfg->assoc, sizeof *c->blocks);
    c->prints = calloc((size_t)cfg->nsets * cfg->assoc, sizeof *c->prints);
    c->mru = calloc(cfg->nsets, sizeof *c->mru);
    c->mshrs = calloc(entries, sizeof *c->mshrs);
    c->merged = calloc((size_t)entries * cfg->mshr_max_merge, sizeof *c->merged);
    c->internal = calloc((size_t)entries * cfg->mshr_max_merge, sizeof *c->internal);
    c->free_list = calloc(entries, sizeof *c->free_list);
    c->table = malloc(tsize * sizeof *c->table);
    c->ready_ring = calloc(entries, sizeof *c->ready_ring);
    /* allocating on fill, each pending fill may evict a dirty line */
    bool ok = tm_queue_init(&c->missq, cfg->miss_queue + (cfg->alloc == TM_ALLOC_ON_MISS ? 0 : cfg->mshr_entries));
    if (!ok || !c->lines || !c->blocks || !c->prints || !c->mru || !c->mshrs || !c->merged || !c->internal || !c->free_list || !c->table ||
        !c->ready_ring) {
        tm_cache_free(c);
        seterr(err, errlen, "cache %s: out of memory", name ? name : "?");
        return NULL;
    }
    for (uint32_t i = 0; i < tsize; i++)
        c->table[i] = NONE;
    for (uint32_t i = 0; i < entries; i++) /* hand out entry 0 first */
        c->free_list[i] = entries - 1 - i;
    c->n_free = entries;
    return c;
}

void tm_cache_free(tm_cache *c)
{
    if (!c)
        return;
    tm_gdu_free(c->gdu);
    tm_miss_class_free(c->classes);
    tm_snooze_free(c->snooze);
    free(c->lines);
    free(c->blocks);
    free(c->prints);
    free(c->mru);
    free(c->mshrs);
    free(c->merged);
    free(c->internal);
    free(c->free_list);
    free(c->table);
    free(c->ready_ring);
    tm_queue_free(&c->missq);
    free(c);
}

void tm_cache_set_last_level(tm_cache *c) { c->last_level = true; }

bool tm_cache_set_pca(tm_cache *c, char *err, size_t errlen)
{
    if (c->cfg.alloc != TM_ALLOC_ON_MISS || c->cfg.write == TM_WRITE_READ_ONLY) {
        seterr(err, errlen, "cache %s: priority-based allocation needs a data cache that allocates on miss", c->name);
        return false;
    }
    c->pca = true;
    return true;
}

bool tm_cache_set_gdu(tm_cache *c, tm_gdu_kind k, char *err, size_t errlen)
{
    if (!c->cfg.sectored || c->cfg.line_bytes != 128 || c->cfg.alloc != TM_ALLOC_ON_MISS) {
        seterr(err, errlen, "cache %s: LAMAR needs a sectored cache of 128-byte lines that allocates on miss",
               c->name);
        return false;
    }
    tm_gdu_free(c->gdu);
    if (!(c->gdu = tm_gdu_new(k, NULL))) {
        seterr(err, errlen, "cache %s: out of memory for its granularity decision unit", c->name);
        return false;
    }
    return true;
}

void tm_cache_set_index_address(tm_cache *c, uint64_t (*fn)(void *ctx, uint64_t addr), void *ctx)
{
    c->index_fn = fn;
    c->index_ctx = ctx;
}

const char *tm_cache_error(const tm_cache *c) { return c->error; }

/* ---- the MSHR table ---------------------------------------------------- */

/* The MSHR key of an address: its sector (sectored) or line. */
static uint64_t mshr_key(const tm_cache *c, uint64_t addr) { return addr & ~(uint64_t)(c->atom_bytes - 1); }

static uint32_t table_slot(const tm_cache *c, uint64_t key)
{
    return (uint32_t)(((key >> 5) * 0x9E3779B97F4A7C15ull) >> 32) & c->table_mask;
}

/* The entry pending on key, or NONE. */
static uint32_t mshr_find(const tm_cache *c, uint64_t key)
{
    for (uint32_t s = table_slot(c, key);; s = (s + 1) & c->table_mask) {
        uint32_t e = c->table[s];
        if (e == NONE)
            return NONE;
        if (c->mshrs[e].key == key)
            return e;
    }
}

/* The entry pending on key, or on a request for several sectors of its
 * line that include key's (a LAMAR fetch), or NONE. */
static uint32_t mshr_find_covering(const tm_cache *c, uint64_t key)
{
    uint32_t e = mshr_find(c, key);
    if (e != NONE || !c->gdu)
        return e;
    uint64_t block = key & ~(uint64_t)127;
    uint8_t bit = (uint8_t)(1u << (key / TM_SECTOR_BYTES % 4));
    for (uint32_t i = 0; i < 4; i++) {
        uint64_t k = block + TM_SECTOR_BYTES * i;
        if (k != key && (e = mshr_find(c, k)) != NONE && (c->mshrs[e].sectors & bit))
            return e;
    }
    return NONE;
}

/* Drop key from the hash table, moving later entries of its probe chain
 * back so that lookups still find them (linear-probing deletion). */
static void table_remove(tm_cache *c, uint64_t key)
{
    uint32_t s = table_slot(c, key);
    while (c->mshrs[c->table[s]].key != key)
        s = (s + 1) & c->table_mask;
    uint32_t hole = s;
    for (s = (s + 1) & c->table_mask; c->table[s] != NONE; s = (s + 1) & c->table_mask) {
        uint32_t home = table_slot(c, c->mshrs[c->table[s]].key);
        /* the entry at s may fill the hole if its home is not in (hole, s] */
        bool stays = hole <= s ? (home > hole && home <= s) : (home > hole || home <= s);
        if (!stays) {
            c->table[hole] = c->table[s];
            hole = s;
        }
    }
    c->table[hole] = NONE;
}

/* Why a new request for key cannot be tracked (GPGPU-Sim's
 * mshr_table::full), or TM_CACHE_FAIL_REASONS when it can. */
static tm_cache_fail mshr_check(const tm_cache *c, uint64_t key)
{
    uint32_t e = mshr_find_covering(c, key);
    if (e != NONE)
        return c->mshrs[e].n >= c->cfg.mshr_max_merge ? TM_CACHE_FAIL_MSHR_MERGE : TM_CACHE_FAIL_REASONS;
    return c->n_free ? TM_CACHE_FAIL_REASONS : TM_CACHE_FAIL_MSHR_ENTRY;
}

/* Append r to entry e (room checked by mshr_check). */
static void mshr_append(tm_cache *c, uint32_t e, const tm_req *r, bool internal)
{
    mshr *m = &c->mshrs[e];
    uint32_t slot = (m->head + m->n) % c->cfg.mshr_max_merge;
    size_t i = (size_t)e * c->cfg.mshr_max_merge + slot;
    c->merged[i] = *r;
    c->internal[i] = internal;
    m->n++;
    if (r->kind == TM_REQ_ATOMIC)
        m->has_atomic = true;
}

/* A new entry for key (a free one exists: mshr_check). */
static uint32_t mshr_open(tm_cache *c, uint64_t key, uint8_t sectors, uint8_t pending)
{
    uint32_t e = c->free_list[--c->n_free];
    c->mshrs[e] = (mshr){.key = key, .sectors = sectors, .pending = pending};
    uint32_t s = table_slot(c, key);
    while (c->table[s] != NONE)
        s = (s + 1) & c->table_mask;
    c->table[s] = e;
    return e;
}

static void mshr_release(tm_cache *c, uint32_t e)
{
    table_remove(c, c->mshrs[e].key);
    c->free_list[c->n_free++] = e;
}

/* ---- the tag array ----------------------------------------------------- */

typedef struct probe {
    tm_cache_status status;    /* HIT, HIT_RESERVED, SECTOR_MISS, MISS or RESERVATION_FAIL */
    uint32_t idx;              /* the line hit, or the way to allocate on a miss */
} probe;

/* GPGPU-Sim's tag_array::probe: look block up for the sectors smask. A
 * modified sector not wholly written reads as a SECTOR_MISS. On a miss,
 * the way to allocate: the last invalid way, else the LRU (or FIFO) one
 * among the ways holding no reserved sector; none: RESERVATION_FAIL. */
/* The probe of a line l (at index idx) that holds the block. */
static probe probe_present(const line *l, uint32_t idx, uint8_t smask, bool is_write)
{
    probe p = {TM_CACHE_SECTOR_MISS, idx};
    if (l->reserved & smask)
        p.status = TM_CACHE_HIT_RESERVED;
    else if (l->valid & smask)
        p.status = TM_CACHE_HIT;
    else if ((l->modified & smask) && (is_write || !(l->unreadable & smask)))
        p.status = TM_CACHE_HIT;
    return p;
}

/* The byte of block's hash kept in tm_cache.prints. */
static uint8_t print_of(uint64_t block) { return (uint8_t)((block * 0x9E3779B97F4A7C15ull) >> 56); }

static bool live(const line *l) { return (l->reserved | l->valid | l->modified) != 0; }

static probe probe_in_set(tm_cache *c, uint64_t block, uint32_t set, uint8_t smask, bool is_write)
{
    uint32_t assoc = c->cfg.assoc, base = set * assoc;
    uint32_t h = base + c->mru[set]; /* a block sits in one way at most: look there first */
    if (live(&c->lines[h]) && c->blocks[h] == block)
        return probe_present(&c->lines[h], h, smask, is_write);
    uint8_t print = print_of(block);
    const uint8_t *prints = c->prints + base;
    uint32_t way = 0;
    for (; way + 8 <= assoc; way += 8) { /* eight ways' prints at a time */
        uint64_t x;
        memcpy(&x, prints + way, 8);
        x ^= print * 0x0101010101010101ull; /* a byte of 0: the print matches */
        for (uint64_t z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull; z; z &= z - 1) {
            /* (every zero byte is flagged, and a few above one: checked below) */
            uint32_t v = base + way + (uint32_t)__builtin_ctzll(z) / 8;
            if (live(&c->lines[v]) && c->blocks[v] == block) {
                c->mru[set] = v - base;
                return probe_present(&c->lines[v], v, smask, is_write);
            }
        }
    }
    for (; way < assoc; way++)
        if (prints[way] == print && live(&c->lines[base + way]) && c->blocks[base + way] == block) {
            c->mru[set] = way;
            return probe_present(&c->lines[base + way], base + way, smask, is_write);
        }
    /* absent: the way to allocate */
    uint32_t invalid = NONE, victim = NONE;
    uint64_t best = UINT64_MAX;
    for (uint32_t w = 0; w < assoc; w++) {
        const line *l = &c->lines[base + w];
        if (l->reserved)
            continue;
        if (!live(l)) {
            invalid = base + w;
        } else if (l->stamp < best) {
            best = l->stamp;
            victim = base + w;
        }
    }
    if (invalid != NONE)
        return (probe){TM_CACHE_MISS, invalid};
    if (victim != NONE)
        return (probe){TM_CACHE_MISS, victim};
    return (probe){TM_CACHE_RESERVATION_FAIL, NONE};
}

static probe probe_tags(tm_cache *c, uint64_t block, uint8_t smask, bool is_write)
{
    return probe_in_set(c, block, tm_cache_set_index(c, block), smask, is_write);
}

/* The write-back of line idx's dirty sectors. */
static tm_req writeback_of(const tm_cache *c, uint32_t idx, const tm_req *cause)
{
    const line *l = &c->lines[idx];
    tm_req wb = {.addr = c->blocks[idx], .kind = TM_REQ_WRITEBACK, .space = TM_SPACE_GLOBAL,
                 .sm = cause->sm, .warp = cause->warp, .t_made = cause->t_made};
    if (c->cfg.sectored) {
        wb.sectors = l->modified;
        wb.bytes = tm_popcount8(l->modified) * TM_SECTOR_BYTES;
    } else {
        wb.sectors = sectors_of_range(c->blocks[idx], c->cfg.line_bytes);
        wb.bytes = c->cfg.line_bytes;
    }
    return wb;
}

/* Would allocating for probe p evict a dirty line that needs a
 * write-back (GPGPU-Sim: "wb && write policy != WRITE_THROUGH")? */
static bool needs_writeback(const tm_cache *c, probe p)
{
    return p.status == TM_CACHE_MISS && c->cfg.alloc == TM_ALLOC_ON_MISS && c->lines[p.idx].modified &&
           c->cfg.write != TM_WRITE_THROUGH;
}

static void set_modified(line *l, uint8_t s)
{
    l->reserved &= (uint8_t)~s;
    l->valid &= (uint8_t)~s;
    l->modified |= s;
}

static void set_invalid(line *l, uint8_t s)
{
    l->reserved &= (uint8_t)~s;
    l->valid &= (uint8_t)~s;
    l->modified &= (uint8_t)~s;
    l->unreadable &= (uint8_t)~s;
}

/* Line idx leaves the cache (evicted or invalidated): what LAMAR counts
 * of it, and its used sectors to the granularity decision unit. */
static void line_gone(tm_cache *c, uint32_t idx)
{
    line *l = &c->lines[idx];
    if (!c->gdu || !(l->reserved | l->valid | l->modified))
        return;
    c->stats.lamar[TM_LAMAR_PRED_NREF] += tm_popcount8(l->predicted);
    c->stats.lamar_blocks++;
    c->stats.lamar_used += tm_popcount8(l->used);
    tm_gdu_evicted(c->gdu, c->blocks[idx], l->used);
    l->used = l->predicted = 0;
}

/* Line idx becomes a fresh line for block with the sectors s reserved. */
static void allocate_line(tm_cache *c, uint32_t idx, uint64_t block, uint8_t s, uint64_t now)
{
    line_gone(c, idx);
    c->lines[idx] = (line){.stamp = now, .reserved = s};
    c->blocks[idx] = block;
    c->prints[idx] = print_of(block);
}

/* A hit on (or a sector allocated in) l at cycle now: LRU's time. */
static void used(const tm_cache *c, line *l, uint64_t now)
{
    if (c->cfg.repl == TM_REPL_LRU)
        l->stamp = now;
}

/* Reserve the sectors s of a present line (GPGPU-Sim's allocate_sector:
 * a sector that was modified stays modified once filled). */
static void allocate_sector(const tm_cache *c, line *l, uint8_t s, uint64_t now)
{
    if (l->modified & s)
        l->modified_on_fill |= s;
    else
        l->modified_on_fill &= (uint8_t)~s;
    l->readable_on_fill &= (uint8_t)~s;
    set_invalid(l, s);
    l->reserved |= s;
    used(c, l, now);
}

/* GPGPU-Sim's tag_array::access after its probe p: a hit refreshes the
 * line's LRU time; with allocation on miss a miss takes the victim way
 * (its write-back, if one is needed, into *wb: true) and a sector miss
 * reserves the sector. */
static bool touch_tags(tm_cache *c, probe p, uint64_t block, uint8_t smask, uint64_t now, const tm_req *cause,
                       tm_req *wb)
{
    line *l = &c->lines[p.idx];
    bool on_miss = c->cfg.alloc == TM_ALLOC_ON_MISS;
    switch (p.status) {
    case TM_CACHE_HIT:
    case TM_CACHE_HIT_RESERVED:
        used(c, l, now);
        return false;
    case TM_CACHE_MISS: {
        if (!on_miss)
            return false;
        bool dirty = needs_writeback(c, p);
        if (dirty)
            *wb = writeback_of(c, p.idx, cause);
        allocate_line(c, p.idx, block, smask, now);
        c->mru[p.idx / c->cfg.assoc] = p.idx % c->cfg.assoc; /* its fill and next hits look here first */
        return dirty;
    }
    case TM_CACHE_SECTOR_MISS:
        if (on_miss)
            allocate_sector(c, l, smask, now);
        return false;
    default:
        return false;
    }
}

/* Complete the reserved sectors s of l with their data; an atomic among
 * the merged requests leaves them MODIFIED (GPGPU-Sim's L2). */
static void fill_sectors(line *l, uint8_t s, bool atomic)
{
    uint8_t r = l->reserved & s;
    l->reserved &= (uint8_t)~r;
    l->modified |= r & l->modified_on_fill;
    l->valid |= r & (uint8_t)~l->modified_on_fill;
    l->modified_on_fill &= (uint8_t)~r;
    uint8_t readable = l->readable_on_fill & s;
    l->unreadable &= (uint8_t)~readable;
    l->readable_on_fill &= (uint8_t)~readable;
    if (atomic)
        set_modified(l, s & l->valid);
}

/* ---- one access -------------------------------------------------------- */

/* What an access works on. */
typedef struct access {
    tm_cache *c;
    const tm_req *r;
    uint64_t now, block, key;
    uint8_t smask;             /* the line sectors it touches (ALL_SECTORS: whole-line cache) */
    bool full;                 /* a write covering its whole sector (line) */
    probe p;
    tm_cache_access_type type;
    bool merged;               /* joined an existing MSHR entry */
    bool bypass;               /* a deprioritized miss that allocates no line */
    tm_cache_fail why;
} access;

static tm_cache_status fail(access *a, tm_cache_fail why)
{
    a->why = why;
    return TM_CACHE_RESERVATION_FAIL;
}

static void push(tm_cache *c, const tm_req *r)
{
    tm_queue_push(&c->missq, r); /* room checked by the caller */
}

/* GPGPU-Sim's send_read_request once its checks passed: merge into the
 * pending entry or open one and send the read, then send the victim's
 * write-back if allocation needs one. internal: a write-allocate fetch. */
static void send_read(access *a, bool internal)
{
    tm_cache *c = a->c;
    tm_req wb;
    uint32_t e = mshr_find_covering(c, a->key);
    uint8_t fetch = a->smask; /* LAMAR: a miss of the whole block may fetch more of it */
    if (e == NONE && c->gdu && !internal && a->p.status == TM_CACHE_MISS)
        fetch = tm_gdu_fetch(c->gdu, a->block, a->smask);
    bool dirty = !a->bypass && touch_tags(c, a->p, a->block, fetch, a->now, a->r, &wb);
    if (c->pca && !a->bypass && a->p.status == TM_CACHE_MISS && c->cfg.alloc == TM_ALLOC_ON_MISS)
        c->lines[a->p.idx].deprio = !a->r->prio;
    tm_cache_access_type type = a->type;
    if (internal)
        type = c->last_level ? TM_ACC_L2_WR_ALLOC_R : TM_ACC_L1_WR_ALLOC_R;
    if (e != NONE) {
        mshr_append(c, e, a->r, internal);
        c->stats.count[type][TM_CACHE_MSHR_HIT]++;
        a->merged = true;
    } else {
        uint8_t next = c->cfg.sectored ? fetch : sectors_of_range(a->block, c->cfg.line_bytes);
        e = mshr_open(c, a->key, fetch, next);
        c->mshrs[e].line = a->bypass ? 0 : a->p.idx;
        c->mshrs[e].bypass = a->bypass;
        c->stats.pca_bypasses += a->bypass;
        mshr_append(c, e, a->r, internal);
        tm_req m = *a->r;
        m.addr = a->key;
        m.bytes = c->cfg.sectored ? TM_SECTOR_BYTES * tm_popcount8(fetch) : c->atom_bytes;
        m.sectors = next;
        m.kind = TM_REQ_READ;
        m.is_reply = 0;
        m.tag = e;
        push(c, &m);
        if (c->gdu && !a->bypass) {
            c->stats.lamar[TM_LAMAR_DEMAND] += tm_popcount8(a->smask);
            c->lines[a->p.idx].predicted |= (uint8_t)(fetch & ~a->smask);
        }
    }
    if (dirty)
        push(c, &wb);
}

/* Where a deprioritized miss of block may allocate (Rhu's thesis, Sec.
 * 6.2): a vacant way, else the least recently used way a deprioritized
 * access allocated (and no miss has reserved); NONE: it bypasses. */
static uint32_t pca_victim(const tm_cache *c, uint64_t block)
{
    uint32_t assoc = c->cfg.assoc, base = tm_cache_set_index(c, block) * assoc, best = NONE;
    for (uint32_t w = 0; w < assoc; w++) {
        const line *l = &c->lines[base + w];
        if (!live(l))
            return base + w;
        if (l->deprio && !l->reserved && (best == NONE || l->stamp < c->lines[best].stamp))
            best = base + w;
    }
    return best;
}

/* A read (or an atomic performed here) on a data cache: GPGPU-Sim's
 * rd_hit_base and rd_miss_base. A miss needs two miss-queue slots (the
 * read and perhaps a write-back). */
static tm_cache_status read_access(access *a)
{
    tm_cache *c = a->c;
    if (a->p.status == TM_CACHE_HIT) {
        line *l = &c->lines[a->p.idx];
        used(c, l, a->now);
        if (a->r->kind == TM_REQ_ATOMIC)
            set_modified(l, a->smask);
        return TM_CACHE_HIT;
    }
    if (c->pca && !a->r->prio && (a->p.status == TM_CACHE_MISS || a->p.status == TM_CACHE_RESERVATION_FAIL)) {
        uint32_t v = pca_victim(c, a->block);
        a->bypass = v == NONE;
        if (!a->bypass)
            a->p = (probe){TM_CACHE_MISS, v};
    }
    if (a->p.status == TM_CACHE_RESERVATION_FAIL && !a->bypass)
        return fail(a, TM_CACHE_FAIL_LINE_ALLOC);
    if (!missq_room(c, 2))
        return fail(a, TM_CACHE_FAIL_MISS_QUEUE);
    tm_cache_fail why = mshr_check(c, a->key);
    if (why != TM_CACHE_FAIL_REASONS)
        return fail(a, why);
    send_read(a, false);
    return TM_CACHE_MISS;
}

/* A read on a read-only cache: GPGPU-Sim's read_only_cache::access (one
 * free miss-queue slot suffices: nothing is ever dirty). */
static tm_cache_status read_only_access(access *a)
{
    tm_cache *c = a->c;
    if (a->p.status == TM_CACHE_HIT) {
        used(c, &c->lines[a->p.idx], a->now);
        return TM_CACHE_HIT;
    }
    if (a->p.status == TM_CACHE_RESERVATION_FAIL)
        return fail(a, TM_CACHE_FAIL_LINE_ALLOC);
    if (!missq_room(c, 1))
        return fail(a, TM_CACHE_FAIL_MISS_QUEUE);
    tm_cache_fail why = mshr_check(c, a->key);
    if (why != TM_CACHE_FAIL_REASONS)
        return fail(a, why);
    send_read(a, false);
    return TM_CACHE_MISS;
}

/* The write policy for this request: L is write-evict for global writes
 * and write-back for the rest (GPGPU-Sim's wr_hit_global_we_local_wb). */
static tm_write write_policy(const access *a)
{
    tm_write w = a->c->cfg.write;
    if (w == TM_WRITE_LOCAL_WB_GLOBAL_WT)
        return a->r->kind == TM_REQ_WRITE && a->r->space == TM_SPACE_GLOBAL ? TM_WRITE_EVICT : TM_WRITE_BACK;
    return w;
}

/* Mark the written sectors MODIFIED and readable when wholly written. */
static void write_into(access *a, line *l)
{
    set_modified(l, a->smask);
    if (a->full)
        l->unreadable &= (uint8_t)~a->smask;
}

/* A write that hits (wr_hit_wb, wr_hit_wt, wr_hit_we). */
static tm_cache_status write_hit(access *a)
{
    tm_cache *c = a->c;
    line *l = &c->lines[a->p.idx];
    switch (write_policy(a)) {
    case TM_WRITE_BACK:
        used(c, l, a->now);
        write_into(a, l);
        return TM_CACHE_HIT;
    case TM_WRITE_THROUGH:
        if (!missq_room(c, 1))
            return fail(a, TM_CACHE_FAIL_MISS_QUEUE);
        used(c, l, a->now);
        write_into(a, l);
        push(c, a->r);
        return TM_CACHE_HIT;
    default: /* write-evict */
        if (!missq_room(c, 1))
            return fail(a, TM_CACHE_FAIL_MISS_QUEUE);
        push(c, a->r);
        set_invalid(l, a->smask);
        return TM_CACHE_HIT;
    }
}

/* The miss-queue and MSHR checks of a write-allocate fetch: the queue
 * must keep more than `extra` slots free. */
static tm_cache_fail fetch_check(const access *a, uint32_t extra)
{
    const tm_cache *c = a->c;
    if (!missq_room(c, extra + 1))
        return TM_CACHE_FAIL_MISS_QUEUE;
    return mshr_check(c, a->key);
}

/* A write that misses (wr_miss_no_wa, wr_miss_wa_naive,
 * wr_miss_wa_fetch_on_write, wr_miss_wa_lazy_fetch_on_read). */
static tm_cache_status write_miss(access *a)
{
    tm_cache *c = a->c;
    tm_cache_fail why;
    tm_req wb;
    switch (c->cfg.write_alloc) {
    case TM_WA_NONE:
        if (!missq_room(c, 1))
            return fail(a, TM_CACHE_FAIL_MISS_QUEUE);
        push(c, a->r);
        return TM_CACHE_MISS;
    case TM_WA_WRITE: /* the write goes on, the line is fetched: up to 3 requests */
        if ((why = fetch_check(a, 2)) != TM_CACHE_FAIL_REASONS)
            return fail(a, why);
        push(c, a->r);
        send_read(a, true);
        return TM_CACHE_MISS;
    case TM_WA_FETCH_ON_WRITE:
        if (a->full) { /* nothing to fetch: the sector is written whole */
            if (!missq_room(c, 1))
                return fail(a, TM_CACHE_FAIL_MISS_QUEUE);
            bool dirty = touch_tags(c, a->p, a->block, a->smask, a->now, a->r, &wb);
            write_into(a, &c->lines[a->p.idx]);
            if (dirty)
                push(c, &wb);
            return TM_CACHE_MISS;
        }
        if ((why = fetch_check(a, 1)) != TM_CACHE_FAIL_REASONS)
            return fail(a, why);
        send_read(a, true);
        c->lines[a->p.idx].modified_on_fill |= a->smask;
        return TM_CACHE_MISS;
    default: { /* lazy fetch on read: allocate modified, fetch only if read */
        bool wt = c->cfg.write == TM_WRITE_THROUGH;
        if (wt && (why = fetch_check(a, 1)) != TM_CACHE_FAIL_REASONS)
            return fail(a, why);
        if (!wt && needs_writeback(c, a->p) && !missq_room(c, 1))
            return fail(a, TM_CACHE_FAIL_MISS_QUEUE);
        if (wt)
            push(c, a->r);
        bool dirty = touch_tags(c, a->p, a->block, a->smask, a->now, a->r, &wb);
        line *l = &c->lines[a->p.idx];
        set_modified(l, a->smask);
        if (a->full) {
            l->unreadable &= (uint8_t)~a->smask;
        } else {
            l->unreadable |= a->smask;
            if (a->p.status == TM_CACHE_HIT_RESERVED)
                l->readable_on_fill |= a->smask;
        }
        if (dirty && !wt)
            push(c, &wb);
        return TM_CACHE_MISS;
    }
    }
}

/* A write or write-back on a data cache (process_tag_probe's write half). */
static tm_cache_status write_access(access *a)
{
    if (a->p.status == TM_CACHE_HIT)
        return write_hit(a);
    if (a->p.status != TM_CACHE_RESERVATION_FAIL || a->c->cfg.write_alloc == TM_WA_NONE)
        return write_miss(a);
    return fail(a, TM_CACHE_FAIL_LINE_ALLOC);
}

/* GPGPU-Sim's statistics type of a request (valid requests only). */
static tm_cache_access_type access_type(const tm_req *r)
{
    static const tm_cache_access_type read_type[TM_SPACE_KINDS] = {
        TM_ACC_GLOBAL_R, TM_ACC_LOCAL_R, TM_ACC_CONST_R, TM_ACC_TEXTURE_R, TM_ACC_INST_R};
    if (r->kind == TM_REQ_WRITEBACK)
        return TM_ACC_L1_WRBK;
    if (r->kind == TM_REQ_WRITE)
        return r->space == TM_SPACE_LOCAL ? TM_ACC_LOCAL_W : TM_ACC_GLOBAL_W;
    return read_type[r->space];
}

/* Why r breaks the access contract (into c->error), or false. */
static bool bad_request(tm_cache *c, const tm_req *r)
{
    const char *why = NULL;
    uint64_t in_line = r->addr & (c->cfg.line_bytes - 1);
    if (r->kind >= TM_REQ_KINDS || r->space >= TM_SPACE_KINDS)
        why = "unknown request kind or space";
    else if (r->bytes == 0)
        why = "a request of 0 bytes";
    else if (r->kind == TM_REQ_ATOMIC && !c->last_level)
        why = NULL; /* bypasses: the cache's geometry does not apply */
    else if (in_line + r->bytes > c->cfg.line_bytes)
        why = "the request crosses a line boundary (the coalescer splits by line)";
    else if (c->cfg.sectored && (r->addr & (TM_SECTOR_BYTES - 1)) + r->bytes > TM_SECTOR_BYTES)
        why = "a sectored cache takes one 32-byte sector per access (the caller splits wider ones)";
    else if (c->cfg.sectored && r->sectors && r->sectors != sectors_of_range(r->addr, 1))
        why = "the sector mask does not match the address";
    else if ((r->kind == TM_REQ_WRITE || r->kind == TM_REQ_WRITEBACK) && c->cfg.write == TM_WRITE_READ_ONLY)
        why = "a write to a read-only cache (R)";
    else if (r->kind == TM_REQ_WRITE && r->space != TM_SPACE_GLOBAL && r->space != TM_SPACE_LOCAL)
        why = "a write to a space that cannot be written (constant, texture, instructions)";
    if (!why)
        return false;
    snprintf(c->error, sizeof c->error, "cache %s: %s (address 0x%llx, %u bytes)", c->name, why,
             (unsigned long long)r->addr, r->bytes);
    return true;
}

/* GPGPU-Sim's select_stats_status: how an access is counted. */
static tm_cache_status stats_status(tm_cache_status probe_status, tm_cache_status access_status)
{
    if (probe_status == TM_CACHE_HIT_RESERVED && access_status != TM_CACHE_RESERVATION_FAIL)
        return probe_status;
    if (probe_status == TM_CACHE_SECTOR_MISS && access_status == TM_CACHE_MISS)
        return probe_status;
    return access_status;
}

/* Is r the request refused last, with nothing changed since? */
static bool refused_again(const tm_cache *c, const tm_req *r)
{
    return c->refused.valid && c->refused.version == c->version && c->refused.addr == r->addr &&
           c->refused.bytes == r->bytes && c->refused.kind == r->kind && c->refused.space == r->space &&
           c->refused.sectors == r->sectors;
}

/* (The request passed bad_request when it was refused, and a cache with
 * Snooze may refuse a hit for a sleeping unit without remembering it.) */
bool tm_cache_refuses_again(const tm_cache *c, const tm_req *r) { return !c->snooze && refused_again(c, r); }

void tm_cache_count_refusals(tm_cache *c, uint64_t n)
{
    c->stats.count[c->refused.type][TM_CACHE_RESERVATION_FAIL] += n;
    c->stats.fail[c->refused.type][c->refused.why] += n;
}

static void remember_refusal(tm_cache *c, const tm_req *r, tm_cache_fail why)
{
    c->refused.valid = true;
    c->refused.version = c->version;
    c->refused.addr = r->addr;
    c->refused.bytes = r->bytes;
    c->refused.kind = (uint8_t)r->kind;
    c->refused.space = (uint8_t)r->space;
    c->refused.sectors = r->sectors;
    c->refused.type = access_type(r);
    c->refused.why = why;
}

/* LAMAR's bookkeeping after an access that was taken: the sectors it
 * touched are used; a sector fetched by prediction counts as PRED_REF the
 * first time, one missing from a present line as NPRED_REF. */
static void note_use(tm_cache *c, const access *a, tm_cache_status st)
{
    if (a->p.status == TM_CACHE_RESERVATION_FAIL)
        return;
    line *l = &c->lines[a->p.idx];
    if (!(l->reserved | l->valid | l->modified) || c->blocks[a->p.idx] != a->block)
        return; /* (nothing allocated here) */
    if (a->p.status == TM_CACHE_SECTOR_MISS && st != TM_CACHE_HIT)
        c->stats.lamar[TM_LAMAR_NPRED_REF] += tm_popcount8(a->smask);
    c->stats.lamar[TM_LAMAR_PRED_REF] += tm_popcount8(l->predicted & a->smask);
    l->predicted &= (uint8_t)~a->smask;
    l->used |= a->smask;
}

/* The Snooze unit of addr in line idx: the bank, the line, or its sector. */
static uint32_t snooze_unit(const tm_cache *c, uint32_t idx, uint64_t addr)
{
    if (!c->snooze_block)
        return 0;
    if (c->snooze_block == c->cfg.line_bytes)
        return idx;
    return idx * 4 + (uint32_t)(addr / TM_SECTOR_BYTES % 4);
}

/* Snooze's reservation queue: set s refused an access (kept while there is room). */
static void rq_add(tm_cache *c, uint32_t s)
{
    for (uint32_t k = 0; k < c->rq_n; k++)
        if (c->rq[k] == s)
            return;
    if (c->rq_n < TM_SNOOZE_RQ)
        c->rq[c->rq_n++] = s;
}

/* Is set s in the reservation queue? With `remove`, it leaves it. */
static bool rq_holds(tm_cache *c, uint32_t s, bool remove)
{
    for (uint32_t k = 0; k < c->rq_n; k++)
        if (c->rq[k] == s) {
            if (remove)
                c->rq[k] = c->rq[--c->rq_n];
            return true;
        }
    return false;
}

/* A fill wrote sectors of line idx at cycle now: their units are used,
 * and the set leaves the reservation queue. */
static void snooze_fill(tm_cache *c, uint32_t idx, uint8_t sectors, uint64_t now)
{
    if (!c->snooze)
        return;
    rq_holds(c, idx / c->cfg.assoc, true);
    if (!c->snooze_block || c->snooze_block == c->cfg.line_bytes) { /* one unit: the bank or the line */
        tm_snooze_fill(c->snooze, snooze_unit(c, idx, 0), now);
        return;
    }
    for (uint32_t k = 0; k < 4; k++)
        if (sectors >> k & 1)
            tm_snooze_fill(c->snooze, idx * 4 + k, now);
}

/* The usual access first: a read of the block that the set's last-hit
 * way holds, its sector valid and not reserved, in a cache without
 * Snooze, LAMAR or miss classes to tell. Taken, it does what the whole
 * path does for such a hit (probe_in_set looks in that way first, read_access
 * or read_only_access refreshes its LRU time, the hit is counted, the
 * version moves) without building the access; false: nothing changed. */
static bool mru_hit(tm_cache *c, uint64_t block, uint32_t set, uint8_t smask, tm_cache_access_type type,
                    uint64_t now)
{
    if (c->snooze || c->gdu || c->classes)
        return false;
    uint32_t h = set * c->cfg.assoc + c->mru[set];
    line *l = &c->lines[h];
    if (c->blocks[h] != block || (l->reserved & smask) || !(l->valid & smask))
        return false;
    used(c, l, now);
    c->stats.count[type][TM_CACHE_HIT]++;
    c->version++;
    return true;
}

static bool mru_read_hit(tm_cache *c, const tm_req *r, uint64_t block, uint32_t set, uint8_t smask, uint64_t now)
{
    return r->kind == TM_REQ_READ && mru_hit(c, block, set, smask, access_type(r), now);
}

/* (A hit leaves no refusal to repeat: a refused read missed, and its
 * line's state cannot have changed without moving the version.) */
bool tm_cache_mru_read_hit(tm_cache *c, uint64_t addr, tm_cache_access_type type, uint64_t now)
{
    uint64_t block = addr & ~(uint64_t)(c->cfg.line_bytes - 1);
    return mru_hit(c, block, tm_cache_set_index(c, block), c->cfg.sectored ? sectors_of_range(addr, 1) : ALL_SECTORS,
                   type, now);
}

tm_cache_status tm_cache_access(tm_cache *c, const tm_req *r, uint64_t now, tm_cache_fail *why)
{
    if (bad_request(c, r))
        return TM_CACHE_BAD_REQUEST;
    if (r->kind == TM_REQ_ATOMIC && !c->last_level) { /* bypass, as GPGPU-Sim's L1 */
        if (!missq_room(c, 1)) {
            if (why)
                *why = TM_CACHE_FAIL_MISS_QUEUE;
            return TM_CACHE_RESERVATION_FAIL;
        }
        push(c, r);
        c->version++;
        return TM_CACHE_BYPASS;
    }
    if (refused_again(c, r)) {
        c->stats.count[c->refused.type][TM_CACHE_RESERVATION_FAIL]++;
        c->stats.fail[c->refused.type][c->refused.why]++;
        if (why)
            *why = c->refused.why;
        return TM_CACHE_RESERVATION_FAIL;
    }
    uint64_t block = r->addr & ~(uint64_t)(c->cfg.line_bytes - 1);
    uint32_t set = tm_cache_set_index(c, block);
    uint8_t smask = c->cfg.sectored ? sectors_of_range(r->addr, 1) : ALL_SECTORS;
    if (mru_read_hit(c, r, block, set, smask, now))
        return TM_CACHE_HIT;
    access a = {.c = c, .r = r, .now = now, .why = TM_CACHE_FAIL_REASONS};
    a.block = block;
    a.key = mshr_key(c, r->addr);
    a.smask = smask;
    a.full = r->bytes == c->atom_bytes;
    a.type = access_type(r);
    bool is_write = r->kind == TM_REQ_WRITE || r->kind == TM_REQ_WRITEBACK;
    a.p = probe_in_set(c, block, set, smask, is_write);
    if (c->snooze && a.p.status == TM_CACHE_HIT && !tm_snooze_ready(c->snooze, snooze_unit(c, a.p.idx, r->addr), now)) {
        c->stats.count[a.type][TM_CACHE_RESERVATION_FAIL]++; /* (not remembered: the unit wakes by itself) */
        c->stats.fail[a.type][TM_CACHE_FAIL_ASLEEP]++;
        if (why)
            *why = TM_CACHE_FAIL_ASLEEP;
        return TM_CACHE_RESERVATION_FAIL;
    }
    tm_cache_status st;
    if (c->cfg.write == TM_WRITE_READ_ONLY)
        st = read_only_access(&a);
    else
        st = is_write ? write_access(&a) : read_access(&a);
    tm_cache_status counted = stats_status(a.p.status, st);
    c->stats.count[a.type][counted]++;
    if (st == TM_CACHE_RESERVATION_FAIL) {
        c->stats.fail[a.type][a.why]++;
        remember_refusal(c, r, a.why);
        if (c->snooze)
            rq_add(c, set);
        if (why)
            *why = a.why;
        return st;
    }
    c->version++;
    if (c->gdu)
        note_use(c, &a, st);
    if (c->snooze && a.p.status == TM_CACHE_HIT) /* the data array read or written */
        tm_snooze_use(c->snooze, snooze_unit(c, a.p.idx, r->addr), now);
    if (c->classes) {
        /* a sectored cache's unit is the sector: a sector miss is a miss */
        uint64_t unit = c->cfg.sectored ? r->addr & ~(uint64_t)(TM_SECTOR_BYTES - 1) : a.block;
        bool missed = a.p.status == TM_CACHE_MISS || (c->cfg.sectored && a.p.status == TM_CACHE_SECTOR_MISS);
        tm_miss_kind k = tm_miss_class_access(c->classes, unit, missed);
        if (k < TM_MISS_KINDS)
            c->stats.miss_class[k]++;
    }
    if (st == TM_CACHE_HIT || is_write)
        return counted;
    /* a read that waits: merged, or sent for a missing line or sector */
    if (a.merged)
        return TM_CACHE_HIT_RESERVED;
    return a.p.status == TM_CACHE_SECTOR_MISS ? TM_CACHE_SECTOR_MISS : TM_CACHE_MISS;
}

/* The tag lookup of a read of r, changing nothing the model sees. */
static probe peek(tm_cache *c, const tm_req *r)
{
    uint64_t block = r->addr & ~(uint64_t)(c->cfg.line_bytes - 1);
    return probe_tags(c, block, c->cfg.sectored ? sectors_of_range(r->addr, 1) : ALL_SECTORS, false);
}

tm_cache_status tm_cache_peek(tm_cache *c, const tm_req *r) { return peek(c, r).status; }

bool tm_cache_set_snooze(tm_cache *c, uint32_t block_bytes, uint32_t wake, char *err, size_t errlen)
{
    uint32_t lines = c->cfg.nsets * c->cfg.assoc, n = 1;
    if (block_bytes == c->cfg.line_bytes)
        n = lines;
    else if (block_bytes == TM_SECTOR_BYTES && c->cfg.sectored)
        n = lines * 4;
    else if (block_bytes) {
        snprintf(err, errlen, "%s: Snooze blocks of %u bytes: the line (%u) or, in a sectored cache, the 32-byte "
                 "sector", c->name, block_bytes, c->cfg.line_bytes);
        return false;
    }
    tm_snooze_free(c->snooze);
    c->snooze = tm_snooze_new(n, wake);
    c->snooze_block = block_bytes;
    if (!c->snooze)
        snprintf(err, errlen, "%s: out of memory for Snooze's %u units", c->name, n);
    return c->snooze != NULL;
}

void tm_cache_snooze_hint(tm_cache *c, uint64_t addr, uint64_t now)
{
    if (!c->snooze)
        return;
    if (!c->snooze_block) {
        if (!c->rq_n || !rq_holds(c, tm_cache_set_index(c, addr & ~(uint64_t)(c->cfg.line_bytes - 1)), false))
            tm_snooze_wake(c->snooze, 0, now);
        return;
    }
    uint64_t block = addr & ~(uint64_t)(c->cfg.line_bytes - 1);
    if (c->rq_n && rq_holds(c, tm_cache_set_index(c, block), false))
        return; /* blocked until a fill comes */
    probe p = probe_tags(c, block, c->cfg.sectored ? sectors_of_range(addr, 1) : ALL_SECTORS, false);
    if (p.status == TM_CACHE_HIT) /* (a miss wakes its line when the fill comes) */
        tm_snooze_wake(c->snooze, snooze_unit(c, p.idx, addr), now);
}

void tm_cache_snooze_off(tm_cache *c, uint64_t now)
{
    if (c->snooze)
        tm_snooze_all_off(c->snooze, now);
}

void tm_cache_snooze_update(tm_cache *c, uint64_t now)
{
    if (!c->snooze)
        return;
    tm_snooze_cycles(c->snooze, now, c->stats.snooze);
    c->stats.snooze_units = c->snooze_block == 0 ? 1
                            : c->snooze_block == c->cfg.line_bytes ? (uint64_t)c->cfg.nsets * c->cfg.assoc
                                                                   : (uint64_t)c->cfg.nsets * c->cfg.assoc * 4;
}

bool tm_cache_set_miss_classes(tm_cache *c)
{
    if (!c->classes) /* (a sectored cache's units are its sectors) */
        c->classes = tm_miss_class_new(c->cfg.nsets * c->cfg.assoc * (c->cfg.sectored ? 4 : 1));
    return c->classes != NULL;
}

uint32_t tm_cache_read_fails(tm_cache *c, const tm_req *r)
{
    probe p = peek(c, r);
    if (p.status == TM_CACHE_HIT)
        return 0;
    uint32_t fails = 0;
    if (p.status == TM_CACHE_RESERVATION_FAIL)
        fails |= 1u << TM_CACHE_FAIL_LINE_ALLOC;
    if (!missq_room(c, c->cfg.write == TM_WRITE_READ_ONLY ? 1 : 2))
        fails |= 1u << TM_CACHE_FAIL_MISS_QUEUE;
    tm_cache_fail m = mshr_check(c, mshr_key(c, r->addr));
    if (m != TM_CACHE_FAIL_REASONS)
        fails |= 1u << m;
    return fails;
}

uint32_t tm_cache_mshrs_in_use(const tm_cache *c) { return c->cfg.mshr_entries - c->n_free; }

/* ---- the next level, fills and ready requests --------------------------- */

const tm_req *tm_cache_miss_front(const tm_cache *c)
{
    return c->missq.n ? &c->missq.slot[c->missq.head] : NULL;
}

void tm_cache_miss_pop(tm_cache *c)
{
    if (c->missq.n) {
        tm_queue_pop(&c->missq);
        c->version++;
    }
}

/* Put the data of entry m into the tag array: with allocation on miss
 * into the line reserved for it (if it is still there), else by
 * allocating now (GPGPU-Sim's tag_array::fill). */
static void fill_line(tm_cache *c, const mshr *m, const tm_req *reply, uint64_t now)
{
    uint64_t block = m->key & ~(uint64_t)(c->cfg.line_bytes - 1);
    if (c->cfg.alloc == TM_ALLOC_ON_MISS) {
        const line *at = &c->lines[m->line]; /* (a valid index: send_read sets it from its probe) */
        probe p = !m->bypass && live(at) && c->blocks[m->line] == block
                      ? probe_present(at, m->line, m->sectors, false) /* still there: the one way that holds it */
                      : probe_tags(c, block, m->sectors, false);
        if (p.status != TM_CACHE_MISS && p.status != TM_CACHE_RESERVATION_FAIL) {
            fill_sectors(&c->lines[p.idx], m->sectors, m->has_atomic);
            snooze_fill(c, p.idx, m->sectors, now);
        }
        return; /* (not there: invalidated while pending) */
    }
    probe p = probe_tags(c, block, m->sectors, false);
    if (p.status == TM_CACHE_RESERVATION_FAIL)
        return; /* cannot happen: nothing is reserved when allocating on fill */
    line *l = &c->lines[p.idx];
    if (p.status == TM_CACHE_MISS && l->modified && c->cfg.write != TM_WRITE_THROUGH) {
        /* the victim's dirty data goes to the next level (GPGPU-Sim drops
         * it: its tag_array::fill makes no write-back); room is kept for it */
        tm_req wb = writeback_of(c, p.idx, reply);
        tm_queue_push(&c->missq, &wb);
    }
    if (p.status == TM_CACHE_MISS) {
        allocate_line(c, p.idx, block, m->sectors, now);
        c->mru[p.idx / c->cfg.assoc] = p.idx % c->cfg.assoc;
    }
    else if (p.status == TM_CACHE_SECTOR_MISS)
        allocate_sector(c, l, m->sectors, now);
    fill_sectors(l, m->sectors, m->has_atomic);
    snooze_fill(c, p.idx, m->sectors, now);
}

/* Does entry e hold any request of the caller's (not only internal fetches)? */
static bool has_callers_request(const tm_cache *c, uint32_t e)
{
    const mshr *m = &c->mshrs[e];
    for (uint32_t i = 0; i < m->n; i++)
        if (!c->internal[(size_t)e * c->cfg.mshr_max_merge + (m->head + i) % c->cfg.mshr_max_merge])
            return true;
    return false;
}

bool tm_cache_fill(tm_cache *c, const tm_req *reply, uint64_t now)
{
    if (reply->kind != TM_REQ_READ)
        return false;
    uint32_t e = mshr_find(c, mshr_key(c, reply->addr));
    if (e == NONE || c->mshrs[e].ready)
        return false;
    c->version++;
    mshr *m = &c->mshrs[e];
    m->pending &= (uint8_t)~(reply->sectors ? reply->sectors : 0xFFu);
    if (m->pending)
        return true; /* the other sectors of the line are still on their way */
    fill_line(c, m, reply, now);
    if (!has_callers_request(c, e)) { /* only write-allocate fetches: done */
        mshr_release(c, e);
        return true;
    }
    m->ready = true;
    uint32_t entries = c->cfg.mshr_entries;
    c->ready_ring[(c->ready_head + c->ready_n) % entries] = e;
    c->ready_n++;
    return true;
}

bool tm_cache_next_ready(tm_cache *c, uint64_t now, tm_req *out)
{
    uint32_t entries = c->cfg.mshr_entries, merge = c->cfg.mshr_max_merge;
    while (c->ready_n) {
        uint32_t e = c->ready_ring[c->ready_head];
        mshr *m = &c->mshrs[e];
        size_t i = (size_t)e * merge + m->head;
        bool internal = c->internal[i];
        if (!internal) {
            uint64_t w = c->port_width;
            uint64_t start = c->port_bytes > now * w ? c->port_bytes : now * w;
            if (start >= (now + 1) * w)
                return false; /* the data port is busy this cycle */
            c->port_bytes = start + c->merged[i].bytes;
            *out = c->merged[i];
        }
        m->head = (m->head + 1) % merge;
        c->version++;
        if (--m->n == 0) {
            mshr_release(c, e);
            c->ready_head = (c->ready_head + 1) % entries;
            c->ready_n--;
        }
        if (!internal)
            return true;
    }
    return false;
}

bool tm_cache_has_output(const tm_cache *c) { return c->ready_n || c->missq.n; }

bool tm_cache_has_pending(const tm_cache *c)
{
    return c->n_free < c->cfg.mshr_entries || c->missq.n > 0;
}

uint64_t tm_cache_next_event(const tm_cache *c, uint64_t now)
{
    if (!c->ready_n)
        return UINT64_MAX;
    uint64_t port_cycle = c->port_bytes / c->port_width;
    return port_cycle > now ? port_cycle : now;
}

void tm_cache_invalidate(tm_cache *c)
{
    c->version++;
    if (c->classes)
        tm_miss_class_reset(c->classes);
    size_t n = (size_t)c->cfg.nsets * c->cfg.assoc;
    for (size_t i = 0; i < n; i++) {
        line_gone(c, (uint32_t)i);
        line *l = &c->lines[i];
        l->reserved = l->valid = l->modified = l->unreadable = 0;
        l->modified_on_fill = l->readable_on_fill = 0;
    }
}

/* ---- statistics -------------------------------------------------------- */

const tm_cache_stats *tm_cache_get_stats(const tm_cache *c) { return &c->stats; }

void tm_cache_stats_add(tm_cache_stats *sum, const tm_cache_stats *s)
{
    for (int t = 0; t < TM_ACC_TYPES; t++) {
        for (int k = 0; k < TM_CACHE_STATUSES; k++)
            sum->count[t][k] += s->count[t][k];
        for (int k = 0; k < TM_CACHE_FAIL_REASONS; k++)
            sum->fail[t][k] += s->fail[t][k];
    }
    for (int k = 0; k < TM_LAMAR_KINDS; k++)
        sum->lamar[k] += s->lamar[k];
    sum->lamar_blocks += s->lamar_blocks;
    sum->pca_bypasses += s->pca_bypasses;
    sum->lamar_used += s->lamar_used;
    for (int k = 0; k < TM_MISS_KINDS; k++)
        sum->miss_class[k] += s->miss_class[k];
    for (int k = 0; k < TM_SNOOZE_STATES; k++)
        sum->snooze[k] += s->snooze[k];
    sum->snooze_units += s->snooze_units;
}

tm_cache_totals tm_cache_stats_totals(const tm_cache_stats *s)
{
    tm_cache_totals t = {0};
    for (int i = 0; i < TM_ACC_TYPES; i++) {
        const uint64_t *n = s->count[i];
        t.accesses += n[TM_CACHE_HIT] + n[TM_CACHE_MISS] + n[TM_CACHE_SECTOR_MISS] + n[TM_CACHE_HIT_RESERVED];
        t.misses += n[TM_CACHE_MISS] + n[TM_CACHE_SECTOR_MISS];
        t.pending_hits += n[TM_CACHE_HIT_RESERVED];
        t.res_fails += n[TM_CACHE_RESERVATION_FAIL];
    }
    return t;
}

void tm_cache_print_totals(FILE *f, const tm_cache_stats *s, const char *prefix, const char *lead)
{
    tm_cache_totals t = tm_cache_stats_totals(s);
    fprintf(f, "%s%s_total_cache_accesses = %llu\n", lead, prefix, (unsigned long long)t.accesses);
    fprintf(f, "%s%s_total_cache_misses = %llu\n", lead, prefix, (unsigned long long)t.misses);
    if (t.accesses > 0)
        fprintf(f, "%s%s_total_cache_miss_rate = %.4f\n", lead, prefix, (double)t.misses / (double)t.accesses);
    fprintf(f, "%s%s_total_cache_pending_hits = %llu\n", lead, prefix, (unsigned long long)t.pending_hits);
    fprintf(f, "%s%s_total_cache_reservation_fails = %llu\n", lead, prefix, (unsigned long long)t.res_fails);
    if (s->snooze_units) { /* (-simtlab_snooze) */
        uint64_t all = s->snooze[TM_SNOOZE_ON] + s->snooze[TM_SNOOZE_SLEEP] + s->snooze[TM_SNOOZE_OFF], stalls = 0;
        for (int ty = 0; ty < TM_ACC_TYPES; ty++)
            stalls += s->fail[ty][TM_CACHE_FAIL_ASLEEP];
        for (int k = 0; k < TM_SNOOZE_STATES; k++)
            fprintf(f, "%s%s_snooze_%s = %.4f\n", lead, prefix, tm_snooze_state_name((tm_snooze_state)k),
                    all ? (double)s->snooze[k] / (double)all : 0.0);
        fprintf(f, "%s%s_snooze_leakage = %.4f\n%s%s_snooze_stalls = %llu\n", lead, prefix,
                tm_snooze_leakage(s->snooze), lead, prefix, (unsigned long long)stalls);
    }
    uint64_t classified = s->miss_class[TM_MISS_COLD] + s->miss_class[TM_MISS_CAPACITY] + s->miss_class[TM_MISS_CONFLICT];
    for (int k = 0; classified && k < TM_MISS_KINDS; k++) /* (-simtlab_miss_classes) */
        fprintf(f, "%s%s_total_cache_misses_%s = %llu\n", lead, prefix, tm_miss_kind_name((tm_miss_kind)k),
                (unsigned long long)s->miss_class[k]);
}

void tm_cache_print_breakdown(FILE *f, const tm_cache_stats *s, const char *name)
{
    uint64_t total[TM_ACC_TYPES] = {0};
    for (int t = 0; t < TM_ACC_TYPES; t++)
        for (int k = 0; k < TM_CACHE_STATUSES; k++) {
            fprintf(f, "\t%s[%s][%s] = %llu\n", name, tm_cache_access_type_name((tm_cache_access_type)t),
                    tm_cache_status_name((tm_cache_status)k), (unsigned long long)s->count[t][k]);
            if (k != TM_CACHE_RESERVATION_FAIL && k != TM_CACHE_MSHR_HIT)
                total[t] += s->count[t][k];
        }
    for (int t = 0; t < TM_ACC_TYPES; t++)
        if (total[t])
            fprintf(f, "\t%s[%s][TOTAL_ACCESS] = %llu\n", name, tm_cache_access_type_name((tm_cache_access_type)t),
                    (unsigned long long)total[t]);
}

void tm_cache_print_fail_breakdown(FILE *f, const tm_cache_stats *s, const char *name)
{
    for (int t = 0; t < TM_ACC_TYPES; t++)
        for (int k = 0; k < TM_CACHE_FAIL_REASONS; k++)
            if (s->fail[t][k])
                fprintf(f, "\t%s[%s][%s] = %llu\n", name, tm_cache_access_type_name((tm_cache_access_type)t),
                        tm_cache_fail_name((tm_cache_fail)k), (unsigned long long)s->fail[t][k]);
}

const char *tm_cache_status_name(tm_cache_status s)
{
    static const char *const names[] = {"HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL",
                                        "SECTOR_MISS", "MSHR_HIT", "BYPASS", "BAD_REQUEST"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}

const char *tm_cache_fail_name(tm_cache_fail f)
{
    static const char *const names[] = {"LINE_ALLOC_FAIL", "MISS_QUEUE_FULL", "MSHR_ENRTY_FAIL",
                                        "MSHR_MERGE_ENRTY_FAIL", "MSHR_RW_PENDING", "SNOOZE_ASLEEP"};
    return (unsigned)f < TM_CACHE_FAIL_REASONS ? names[f] : "?";
}

const char *tm_cache_access_type_name(tm_cache_access_type t)
{
    static const char *const names[] = {"GLOBAL_ACC_R", "LOCAL_ACC_R",  "CONST_ACC_R",  "TEXTURE_ACC_R",
                                        "GLOBAL_ACC_W", "LOCAL_ACC_W",  "L1_WRBK_ACC",  "L2_WRBK_ACC",
                                        "INST_ACC_R",   "L1_WR_ALLOC_R", "L2_WR_ALLOC_R"};
    return (unsigned)t < TM_ACC_TYPES ? names[t] : "?";
}
