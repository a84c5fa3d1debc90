/* cache.h — the timing model's cache unit: the L1 data cache, the L1
 * instruction cache, the constant cache and each L2 slice are one
 * tm_cache each, configured by a tm_cache_config (GPGPU-Sim's cache
 * string, timing/config.h).
 *
 * What it models
 *   - A tag array of nsets x assoc lines of line_bytes. Lines are whole
 *     (kind N) or made of four 32-byte sectors (kind S, 128-byte lines),
 *     each sector INVALID, RESERVED (a miss is on its way), VALID or
 *     MODIFIED. The tag is the line's block address, as in GPGPU-Sim,
 *     so every set-index function keeps hits exact.
 *   - Set indexing: linear (L), Fermi hash (H, 32 or 64 sets), IPOLY
 *     hash (P, 16, 32 or 64 sets) and XOR (X), bit for bit GPGPU-Sim's
 *     functions (tm_cache_set_index).
 *   - Replacement among the ways holding no reserved sector: an invalid
 *     way first (the last one in way order, as GPGPU-Sim's probe picks),
 *     else the least recently used (LRU: last access cycle) or the
 *     oldest allocated (FIFO), the first way on a tie.
 *   - MSHRs: mshr_entries entries, each merging up to mshr_max_merge
 *     requests (the first included) to one sector (sectored caches) or
 *     one line (whole-line caches) — GPGPU-Sim keys its MSHRs by the
 *     cache's atom, whatever the MSHR letter. With MSHR kind S the next
 *     level may answer a line request sector by sector: the entry
 *     completes when every sector it asked for has come back.
 *   - A miss queue of miss_queue requests towards the next level: read
 *     misses (one sector or one line), forwarded writes, write-backs of
 *     dirty sectors, and atomics that bypass the cache.
 *   - Allocation on miss (m: the line or sector is reserved when the
 *     miss is sent), on fill (f) and streaming (s: GPGPU-Sim turns it
 *     into allocation on fill; no line is ever reserved, so no access
 *     fails for lack of a line).
 *   - Write policies R, B, T, E, L and write-allocate policies N, W, F, L
 *     with GPGPU-Sim's meanings (gpu-cache.cc's wr_hit_* and wr_miss_*):
 *       B  hit: the sector becomes MODIFIED; a dirty victim leaves as a
 *          TM_REQ_WRITEBACK carrying its dirty sectors.
 *       T  hit: the sector becomes MODIFIED here and the write goes on.
 *       E  hit: the write goes on and the sector is invalidated.
 *       L  global writes as E, local writes (and write-backs) as B —
 *          GPGPU-Sim's code is "global write-evict, local write-back".
 *       N  miss: the write goes on, nothing allocated.
 *       W  miss: the write goes on and the line is fetched (a read).
 *       F  miss: a write of a whole sector (line) is kept MODIFIED here;
 *          a partial one fetches the sector, MODIFIED when it arrives.
 *       L  miss: the sector is allocated MODIFIED without a fetch; a
 *          partial write leaves it unreadable, so a later read of it is
 *          a SECTOR_MISS that fetches it (lazy fetch on read). With T
 *          the write also goes on.
 *   - Atomics (TM_REQ_ATOMIC) bypass a first-level cache: they go to the
 *     next level untouched (TM_CACHE_BYPASS), as GPGPU-Sim's L1 sends
 *     them. A cache marked tm_cache_set_last_level() performs them as
 *     GPGPU-Sim's L2 does: a read that leaves the sector MODIFIED.
 *
 * What it leaves to the caller
 *   Latency (l1_latency, l2_rop_latency) is added by the caller: the
 *   cache decides hit, miss, merge or failure, and the order in which
 *   requests leave. A RESERVATION_FAIL changes no state of the cache
 *   (only its statistics), so the caller retries the same request on a
 *   later cycle. A sectored cache takes one sector per access (the
 *   coalescer of a sectored L1 makes 32-byte accesses, as GPGPU-Sim's
 *   does from Maxwell on; the L2 slice splits wider requests, as
 *   GPGPU-Sim's memory sub-partition does).
 *
 * Deliberate differences from GPGPU-Sim (and why)
 *   - tm_req carries no byte mask: a write covers its sectors fully when
 *     its bytes equal the sectors' size, else it is partial, and partial
 *     writes never add up to a full sector.
 *   - A fill only completes sectors still RESERVED: a sector written
 *     while its fetch was pending stays MODIFIED (GPGPU-Sim's fill can
 *     turn it back to VALID and lose the write), and a line invalidated
 *     while its miss was pending is not brought back.
 *   - A write-back that needs a miss-queue slot the queue lacks fails the
 *     access (MISS_QUEUE_FULL): GPGPU-Sim's queue is unbounded there.
 *   - Hits do not occupy the data port (the caller's hit latency stands
 *     for it); only ready requests leaving after a fill are paced by
 *     data_port_width.
 *   - Write-allocate fetches (W, F) are the cache's own: they never come
 *     out of tm_cache_next_ready (GPGPU-Sim's L2 acknowledges an F write
 *     after its fetch; here the caller acknowledges writes when accepted).
 *   - Not modelled: texture-cache MSHRs (F, T), the dirty-line ratio
 *     (-gpgpu_l1_cache_write_ratio), L1 banks, fill-port and data-port
 *     utilisation statistics, MSHR_RW_PENDING (it cannot occur: pending
 *     MSHR entries only ever hold reads), and the L2's partition-address
 *     set index (tm_cache_set_index_address lets the L2 slice supply it).
 *   - A write-back cache (B, or L for local data) that allocates on fill
 *     or streams (the Volta L1D, L:L:s) evicts its victim when the fill
 *     arrives; a dirty victim's write-back then goes into the miss queue
 *     (which keeps a slot per MSHR entry for them beyond its configured
 *     size, so a fill is never refused). GPGPU-Sim's fill drops the dirty
 *     data without a write-back, which loses a DRAM write.
 *   - Configurations GPGPU-Sim rejects by assertion are rejected here
 *     with a message: F or L write-allocate with allocation on fill.
 */
#ifndef SIMTLAB_TIMING_CACHE_H
#define SIMTLAB_TIMING_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "timing/config.h"
#include "timing/gdu.h"
#include "timing/miss_class.h"
#include "timing/snooze.h"
#include "timing/request.h"

/* Outcome of an access, in GPGPU-Sim's cache_request_status order (the
 * statistics are indexed by it). MSHR_HIT is only ever a statistic: an
 * access merged into a pending miss. BYPASS and BAD_REQUEST are not
 * statistics. */
typedef enum tm_cache_status {
    TM_CACHE_HIT,              /* data here; a write done as the write policy says */
    TM_CACHE_HIT_RESERVED,     /* a read merged into a pending miss: comes out of tm_cache_next_ready */
    TM_CACHE_MISS,             /* line absent: a request (read, or the write) now sits in the miss queue */
    TM_CACHE_RESERVATION_FAIL, /* not accepted, nothing changed: retry later (see tm_cache_fail) */
    TM_CACHE_SECTOR_MISS,      /* line present, sector not: a request for the sector was sent */
    TM_CACHE_MSHR_HIT,         /* statistic only */
    TM_CACHE_STATUSES,
    TM_CACHE_BYPASS = TM_CACHE_STATUSES, /* an atomic sent on untouched (not counted, nor is its
                                            MISS_QUEUE_FULL failure); its reply is not a fill */
    TM_CACHE_BAD_REQUEST       /* the caller broke the contract (tm_cache_error says how); nothing changed */
} tm_cache_status;

/* Why a reservation failed (GPGPU-Sim's names, its spelling in the text). */
typedef enum tm_cache_fail {
    TM_CACHE_FAIL_LINE_ALLOC,  /* LINE_ALLOC_FAIL: every way of the set has a reserved sector */
    TM_CACHE_FAIL_MISS_QUEUE,  /* MISS_QUEUE_FULL */
    TM_CACHE_FAIL_MSHR_ENTRY,  /* MSHR_ENRTY_FAIL: no free MSHR entry */
    TM_CACHE_FAIL_MSHR_MERGE,  /* MSHR_MERGE_ENRTY_FAIL: the entry holds mshr_max_merge requests */
    TM_CACHE_FAIL_MSHR_RW,     /* MSHR_RW_PENDING (never counted here) */
    TM_CACHE_FAIL_ASLEEP,      /* simtlab's: the data's unit is still waking (tm_cache_set_snooze) */
    TM_CACHE_FAIL_REASONS
} tm_cache_fail;

/* GPGPU-Sim's mem_access_type, the statistics' first index. A request's
 * type: reads and atomics by space (…_ACC_R), writes GLOBAL_ACC_W or
 * LOCAL_ACC_W, write-backs arriving from above L1_WRBK_ACC; the cache's
 * own write-allocate fetches L1_WR_ALLOC_R (L2_WR_ALLOC_R at a last
 * level). */
typedef enum tm_cache_access_type {
    TM_ACC_GLOBAL_R, TM_ACC_LOCAL_R, TM_ACC_CONST_R, TM_ACC_TEXTURE_R,
    TM_ACC_GLOBAL_W, TM_ACC_LOCAL_W, TM_ACC_L1_WRBK, TM_ACC_L2_WRBK,
    TM_ACC_INST_R, TM_ACC_L1_WR_ALLOC_R, TM_ACC_L2_WR_ALLOC_R,
    TM_ACC_TYPES
} tm_cache_access_type;

/* LAMAR's fetch quality (Rhu's thesis, Sec. 5.4): sectors read in because
 * they were asked for (DEMAND), read in by prediction and referenced
 * (PRED_REF) or never referenced before the block left (PRED_NREF), and
 * referenced after the block came without them (NPRED_REF: an extra
 * sector miss). */
typedef enum tm_lamar_class {
    TM_LAMAR_DEMAND, TM_LAMAR_PRED_REF, TM_LAMAR_PRED_NREF, TM_LAMAR_NPRED_REF, TM_LAMAR_KINDS
} tm_lamar_class;

/* Counts per [access type][status] and [access type][fail reason]; with a
 * granularity decision unit, LAMAR's counts and the blocks that left with
 * the sectors they had used (Avg_sec = lamar_used / lamar_blocks). */
typedef struct tm_cache_stats {
    uint64_t count[TM_ACC_TYPES][TM_CACHE_STATUSES];
    uint64_t fail[TM_ACC_TYPES][TM_CACHE_FAIL_REASONS];
    uint64_t lamar[TM_LAMAR_KINDS];
    uint64_t lamar_blocks, lamar_used;
    uint64_t pca_bypasses;   /* deprioritized read misses that allocated no line (tm_cache_set_pca) */
    uint64_t miss_class[TM_MISS_KINDS]; /* cold, capacity, conflict (tm_cache_set_miss_classes) */
    uint64_t snooze[TM_SNOOZE_STATES];  /* unit-cycles ON, Sleep, OFF (tm_cache_set_snooze), as of the
                                           last tm_cache_snooze_update */
    uint64_t snooze_units;              /* the units (summed over caches) */
} tm_cache_stats;

/* GPGPU-Sim's cache_sub_stats: accesses = HIT + HIT_RESERVED + MISS +
 * SECTOR_MISS, misses = MISS + SECTOR_MISS, pending hits = HIT_RESERVED,
 * reservation fails = RESERVATION_FAIL, over every type. */
typedef struct tm_cache_totals {
    uint64_t accesses, misses, pending_hits, res_fails;
} tm_cache_totals;

typedef struct tm_cache tm_cache;

/* A cache as cfg says (cfg->present must be true), named for messages.
 * NULL with a message in err when the configuration cannot be modelled
 * (sizes that are not powers of two, a hash without its set count, a
 * policy combination GPGPU-Sim rejects) or memory is short. Everything
 * the cache will ever need is allocated here. */
tm_cache *tm_cache_new(const tm_cache_config *cfg, const char *name, char *err, size_t errlen);
void tm_cache_free(tm_cache *c);

/* Make c a last-level cache (an L2 slice): atomics are performed here
 * (GPGPU-Sim's l2_cache) instead of bypassing, and write-allocate
 * fetches count as L2_WR_ALLOC_R. Call before the first access. */
void tm_cache_set_last_level(tm_cache *c);

/* Give c LAMAR's granularity decision unit of kind k (Rhu's thesis, Ch.
 * 5): a read that misses the whole block fetches the sectors the unit
 * picks (at least those asked for); the lines keep used and predicted
 * sector bits, the statistics the fetch quality. Needs a sectored cache
 * of 128-byte lines allocating on miss; false with a message otherwise. */
bool tm_cache_set_gdu(tm_cache *c, tm_gdu_kind k, char *err, size_t errlen);

/* Priority-based cache allocation (Rhu's thesis, Ch. 6): a read miss of a
 * request that is not prioritized (tm_req.prio) may allocate only a
 * vacant way or one a deprioritized access allocated; otherwise it
 * bypasses, still holding an MSHR while its data comes (the data fills no
 * line). Needs a data cache that allocates on miss; false with a message
 * otherwise. */
bool tm_cache_set_pca(tm_cache *c, char *err, size_t errlen);

/* Classify c's misses as cold, capacity or conflict (timing/miss_class.h)
 * into its statistics' miss_class: every accepted access whose tag probe
 * finds no line (in a sectored cache: no sector, the unit being the
 * 32-byte sector and the shadow holding as many sectors as the cache).
 * False when memory is short. */
bool tm_cache_set_miss_classes(tm_cache *c);

/* Snooze (timing/snooze.h) on c's data array: units of the whole bank
 * (block_bytes 0) or of blocks of block_bytes (the line, or 32 for the
 * sectors of a sectored cache), waking in `wake` cycles. A hit whose unit
 * is still waking is refused (TM_CACHE_FAIL_ASLEEP) and tried again by
 * the caller; fills use their unit without waiting. False with err for
 * a block size that is neither. */
bool tm_cache_set_snooze(tm_cache *c, uint32_t block_bytes, uint32_t wake, char *err, size_t errlen);
/* An access to addr entered c's input queue at cycle now: its unit (if
 * the line is present, or the bank) starts waking. */
void tm_cache_snooze_hint(tm_cache *c, uint64_t addr, uint64_t now);
/* Every unit OFF from cycle now (the SM holds no block; the kernel ended). */
void tm_cache_snooze_off(tm_cache *c, uint64_t now);
/* Bring the statistics' snooze cycles up to cycle now. */
void tm_cache_snooze_update(tm_cache *c, uint64_t now);

/* Index sets by fn(ctx, addr) instead of the address itself (GPGPU-Sim's
 * L2 indexes by the address with the memory-partition bits removed);
 * the tag stays the full block address. NULL restores the address. */
void tm_cache_set_index_address(tm_cache *c, uint64_t (*fn)(void *ctx, uint64_t addr), void *ctx);

/* Access r (a read, write, atomic or write-back of at most one line, and
 * at most one sector in a sectored cache) at cycle now. Returns what
 * happened (tm_cache_status); for RESERVATION_FAIL *why (if not NULL)
 * says why. A read or atomic that returns HIT_RESERVED, MISS or
 * SECTOR_MISS comes back out of tm_cache_next_ready, as r itself, once
 * its data has been filled (HIT_RESERVED: it joined a pending miss and
 * sent nothing; with allocation on fill GPGPU-Sim counts such a merge as
 * a MISS, and so do the statistics). A write is done once accepted: any
 * status but RESERVATION_FAIL and BAD_REQUEST, which is how it counts. */
tm_cache_status tm_cache_access(tm_cache *c, const tm_req *r, uint64_t now, tm_cache_fail *why);

/* What a read of r would find in the tags now (HIT, HIT_RESERVED, MISS,
 * SECTOR_MISS, or RESERVATION_FAIL: no line to reserve), changing nothing:
 * Turner's oracle hazard predictor. */
tm_cache_status tm_cache_peek(tm_cache *c, const tm_req *r);

/* A read of the byte at addr (of type: TM_ACC_INST_R for a fetch) that hits
 * the way its set hit last, taken whole: counted and its line's
 * replacement time refreshed as tm_cache_access would for that read (of
 * one byte, or of the line, within a sector). False, with nothing changed,
 * for any other read, or in a cache with Snooze, LAMAR or miss classes:
 * then the caller makes the access. For callers that would build a
 * request only to hit. */
bool tm_cache_mru_read_hit(tm_cache *c, uint64_t addr, tm_cache_access_type type, uint64_t now);

/* Would an access of r now be refused as the last refused one was, with
 * nothing in the cache changed since (so that it changes only the refusal
 * counters)? A caller that would retry r every cycle may instead skip the
 * cycles until something changes the cache and count them with
 * tm_cache_count_refusals. */
bool tm_cache_refuses_again(const tm_cache *c, const tm_req *r);

/* Count n more refusals of the access last refused, as n retries refused
 * again would (tm_cache_refuses_again held). */
void tm_cache_count_refusals(tm_cache *c, uint64_t n);

/* Every reason a read of r would be refused now, as bits (1 << tm_cache_fail),
 * where tm_cache_access reports only the first it checks (0: it would be
 * taken). Turner's hazards are checked in another order (timing/hazard.h). */
uint32_t tm_cache_read_fails(tm_cache *c, const tm_req *r);

/* MSHR entries holding a pending miss. */
uint32_t tm_cache_mshrs_in_use(const tm_cache *c);

/* What the last BAD_REQUEST was about. */
const char *tm_cache_error(const tm_cache *c);

/* The oldest request waiting for the next level (NULL: none), and its
 * removal once the next level has taken it. */
const tm_req *tm_cache_miss_front(const tm_cache *c);
void tm_cache_miss_pop(tm_cache *c);

/* Data for a read this cache sent has come back (reply: the request the
 * cache sent, kind TM_REQ_READ, with its address; or one of its sectors,
 * with that sector's address and bit, as the next level returns it).
 * When every sector the MSHR entry asked for is here the line is filled
 * and its merged requests become ready. false: the reply answers no
 * pending miss of this cache (a write acknowledgement, a bypassed
 * atomic): the caller handles it. */
bool tm_cache_fill(tm_cache *c, const tm_req *reply, uint64_t now);

/* Hand out the next ready request (the original, tag intact) into *out.
 * At most data_port_width bytes leave per cycle (0: one line), a larger
 * request occupying the port for the cycles it needs. false: none may
 * leave at cycle now. */
bool tm_cache_next_ready(tm_cache *c, uint64_t now, tm_req *out);

/* Anything in flight: a pending miss, a request in the miss queue, or a
 * ready request not yet handed out. */
bool tm_cache_has_pending(const tm_cache *c);
/* Anything for the caller to take: a ready request or a request in the
 * miss queue (false: tm_cache_next_ready and tm_cache_miss_front have
 * nothing until the next access or fill). */
bool tm_cache_has_output(const tm_cache *c);

/* The first cycle >= now at which the cache can do something without
 * outside input (hand out a ready request); UINT64_MAX when only an
 * access, a fill or a miss-queue pop can change anything. */
uint64_t tm_cache_next_event(const tm_cache *c, uint64_t now);

/* Invalidate every line (GPGPU-Sim invalidates the L1s between kernels);
 * pending misses stay and still hand out their requests. */
void tm_cache_invalidate(tm_cache *c);

/* The set a byte address maps to (the configured set-index function). */
uint32_t tm_cache_set_index(const tm_cache *c, uint64_t addr);

/* Statistics: this cache's, a sum over caches, the totals. */
const tm_cache_stats *tm_cache_get_stats(const tm_cache *c);
void tm_cache_stats_add(tm_cache_stats *sum, const tm_cache_stats *s);
tm_cache_totals tm_cache_stats_totals(const tm_cache_stats *s);

/* GPGPU-Sim's text. Totals: "<lead><prefix>_total_cache_accesses = N",
 * _misses, _miss_rate (%.4f, only when there were accesses),
 * _pending_hits, _reservation_fails; lead is "\t" for the core caches,
 * "" for the L2, as GPGPU-Sim prints them. Breakdown: every
 * "\t<name>[TYPE][STATUS] = N" and, for types with accesses,
 * "\t<name>[TYPE][TOTAL_ACCESS] = N" (all statuses but RESERVATION_FAIL
 * and MSHR_HIT); fail breakdown: the non-zero "\t<name>[TYPE][REASON] = N". */
void tm_cache_print_totals(FILE *f, const tm_cache_stats *s, const char *prefix, const char *lead);
void tm_cache_print_breakdown(FILE *f, const tm_cache_stats *s, const char *name);
void tm_cache_print_fail_breakdown(FILE *f, const tm_cache_stats *s, const char *name);

/* GPGPU-Sim's names of statuses, fail reasons and access types. */
const char *tm_cache_status_name(tm_cache_status s);
const char *tm_cache_fail_name(tm_cache_fail f);
const char *tm_cache_access_type_name(tm_cache_access_type t);

#endif
