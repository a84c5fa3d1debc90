/* gdu.h — LAMAR's granularity decision unit (Rhu's thesis, Ch. 5; MICRO
 * 2013): on a miss of a sectored cache (128-byte blocks of four 32-byte
 * sectors), fetch the whole block (coarse grain, CG) or only the sectors
 * asked for (fine grain, FG). One unit per cache.
 *
 *   cg       always the whole block (the thesis's baseline, CG-only)
 *   fg       always the sectors asked for (FG-only)
 *   spp      a spatial pattern predictor: the used-sector pattern of each
 *            evicted block is kept in a pattern history table indexed by
 *            the block address (the thesis simulates 1M entries; the
 *            index function is not given: the block address modulo the
 *            table); a miss fetches the pattern remembered for its block
 *            and the sectors asked for, or the whole block when nothing is
 *            remembered
 *   bgp      the bi-modal granularity predictor (Sec. 5.3.2): a block
 *            evicted with fewer than TH_FG (2) sectors used has low
 *            locality (FG), else CG; blocks whose locality differs from
 *            the default prediction are inserted into a dual bit-array
 *            Bloom filter (two arrays of 2K bits, 6 hash functions), and a
 *            miss predicts the opposite of the default for a block the
 *            filter holds. Every 1000 evictions, when more than SKEW_thres
 *            (0.7) of them were inserted, the default flips (and the
 *            filter, whose meaning flipped, is cleared: the thesis is
 *            silent). Refresh (Table 5.2, "every 512 insertions"): each
 *            array is cleared after 512 insertions, the second array
 *            starting 256 insertions after the first, and tests use the
 *            array that was not just cleared, so it holds the last 256 to
 *            512 insertions.
 *   bgp_inf  the same with 1M-bit arrays refreshed every 256K insertions
 *            (the thesis's idealized 1M-entry history)
 *
 * The hash functions (the thesis's six byte-sliced XOR trees are not
 * specified): hash i is the top bits of the block number times an odd
 * constant of its own (a multiplicative hash: independent enough that a
 * 2K-bit array holding 256 blocks answers about 2% false positives, the
 * rate six ideal hashes give). */
#ifndef SIMTLAB_TIMING_GDU_H
#define SIMTLAB_TIMING_GDU_H

#include <stdbool.h>
#include <stdint.h>

typedef enum tm_gdu_kind { TM_GDU_CG, TM_GDU_FG, TM_GDU_SPP, TM_GDU_BGP, TM_GDU_BGP_INF, TM_GDU_KINDS } tm_gdu_kind;

/* "cg", "fg", "spp", "bgp", "bgp_inf". */
const char *tm_gdu_name(tm_gdu_kind k);

/* BGP's parameters (Table 5.2 and Sec. 5.3.2's defaults). */
typedef struct tm_bgp_params {
    uint32_t array_bits;      /* bits per array (2048) */
    uint32_t refresh;         /* insertions an array lives (512) */
    uint32_t th_fg;           /* a block evicted with fewer used sectors is FG (2) */
    uint32_t window;          /* evictions between default checks (1000) */
    double skew_thres;        /* insertions / evictions above this flip the default (0.7) */
} tm_bgp_params;

/* The defaults of kind (bgp or bgp_inf). */
tm_bgp_params tm_bgp_defaults(tm_gdu_kind k);

typedef struct tm_gdu tm_gdu;

/* A unit of kind k (p: BGP's parameters, NULL for the defaults); NULL
 * when memory is short. */
tm_gdu *tm_gdu_new(tm_gdu_kind k, const tm_bgp_params *p);
void tm_gdu_free(tm_gdu *g);

/* The sectors (bit i: sector i) to fetch for a miss of the block at byte
 * address block (128-byte aligned) that asked for sectors `asked`; always
 * includes asked. */
uint8_t tm_gdu_fetch(tm_gdu *g, uint64_t block, uint8_t asked);

/* The block was evicted having had sectors `used` referenced. */
void tm_gdu_evicted(tm_gdu *g, uint64_t block, uint8_t used);

/* BGP's state, for statistics and tests: its default prediction (true:
 * CG), insertions so far, whether the active array holds block. */
bool tm_gdu_default_cg(const tm_gdu *g);
uint64_t tm_gdu_insertions(const tm_gdu *g);
bool tm_gdu_filter_holds(const tm_gdu *g, uint64_t block);

#endif
