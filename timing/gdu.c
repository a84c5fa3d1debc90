/* gdu.c — LAMAR's granularity decision unit (gdu.h). */
#include "timing/gdu.h"

#include <stdlib.h>
#include <string.h>

#define ALL_SECTORS 0xfu
#define BGP_HASHES 6
#define SPP_ENTRIES (1u << 20)

struct tm_gdu {
    tm_gdu_kind kind;
    /* bgp, bgp_inf */
    tm_bgp_params p;
    uint64_t *bits[2];        /* the two arrays */
    uint32_t words;           /* uint64_t words per array */
    uint32_t active;          /* the array tests read (SEL) */
    bool second_alive;        /* the other array has started taking insertions */
    uint64_t insertions;      /* since the arrays started (or were reset by an inversion) */
    uint64_t total_insertions;
    bool default_cg;
    uint32_t evictions, window_inserts;
    /* spp: the used-sector pattern of each evicted block (0: none), two per byte */
    uint8_t *pht;
};

const char *tm_gdu_name(tm_gdu_kind k)
{
    static const char *const names[TM_GDU_KINDS] = {"cg", "fg", "spp", "bgp", "bgp_inf"};
    return k < TM_GDU_KINDS ? names[k] : "?";
}

tm_bgp_params tm_bgp_defaults(tm_gdu_kind k)
{
    if (k == TM_GDU_BGP_INF) /* a 1M-entry history: 1M-bit arrays, refreshed at the same quarter of their size */
        return (tm_bgp_params){.array_bits = 1u << 20, .refresh = 1u << 18, .th_fg = 2, .window = 1000,
                               .skew_thres = 0.7};
    return (tm_bgp_params){.array_bits = 2048, .refresh = 512, .th_fg = 2, .window = 1000, .skew_thres = 0.7};
}

tm_gdu *tm_gdu_new(tm_gdu_kind k, const tm_bgp_params *p)
{
    tm_gdu *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->kind = k;
    g->default_cg = true;
    if (k == TM_GDU_BGP || k == TM_GDU_BGP_INF) {
        g->p = p ? *p : tm_bgp_defaults(k);
        if (g->p.array_bits < 64 || (g->p.array_bits & (g->p.array_bits - 1)) || g->p.refresh < 2 || !g->p.window) {
            free(g);
            return NULL;
        }
        g->words = g->p.array_bits / 64;
        g->bits[0] = calloc(g->words, sizeof(uint64_t));
        g->bits[1] = calloc(g->words, sizeof(uint64_t));
        if (!g->bits[0] || !g->bits[1]) {
            tm_gdu_free(g);
            return NULL;
        }
    } else if (k == TM_GDU_SPP && !(g->pht = calloc(SPP_ENTRIES / 2, 1))) {
        free(g);
        return NULL;
    }
    return g;
}

void tm_gdu_free(tm_gdu *g)
{
    if (!g)
        return;
    free(g->bits[0]);
    free(g->bits[1]);
    free(g->pht);
    free(g);
}

/* Hash i of a block: the block number times an odd constant of its own,
 * the top bits of the product (the arrays' index width). */
static uint32_t bgp_hash(const tm_gdu *g, uint64_t block, int i)
{
    static const uint64_t k[BGP_HASHES] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull,
                                           0xD6E8FEB86659FD93ull, 0xFF51AFD7ED558CCDull, 0xC4CEB9FE1A85EC53ull};
    unsigned width = (unsigned)__builtin_ctz(g->p.array_bits);
    return (uint32_t)(((block >> 7) * k[i]) >> (64 - width));
}

static bool array_holds(const tm_gdu *g, int a, uint64_t block)
{
    for (int i = 0; i < BGP_HASHES; i++) {
        uint32_t h = bgp_hash(g, block, i);
        if (!(g->bits[a][h / 64] >> (h % 64) & 1))
            return false;
    }
    return true;
}

bool tm_gdu_filter_holds(const tm_gdu *g, uint64_t block)
{
    return g->bits[0] && array_holds(g, (int)g->active, block);
}

/* Both arrays empty, the first one active, as at the start. */
static void bgp_reset(tm_gdu *g)
{
    memset(g->bits[0], 0, g->words * sizeof(uint64_t));
    memset(g->bits[1], 0, g->words * sizeof(uint64_t));
    g->active = 0;
    g->second_alive = false;
    g->insertions = 0;
}

/* Insert block: the arrays' refresh first (gdu.h), then its bits in every
 * array that takes insertions. */
static void bgp_insert(tm_gdu *g, uint64_t block)
{
    uint64_t half = g->p.refresh / 2, n = g->insertions;
    if (n && n % half == 0) {
        if (n == half) {
            g->second_alive = true;
        } else { /* the active array has lived `refresh` insertions */
            memset(g->bits[g->active], 0, g->words * sizeof(uint64_t));
            g->active ^= 1;
        }
    }
    for (int a = 0; a < 2; a++) {
        if (a != 0 && !g->second_alive)
            continue;
        for (int i = 0; i < BGP_HASHES; i++) {
            uint32_t h = bgp_hash(g, block, i);
            g->bits[a][h / 64] |= 1ull << (h % 64);
        }
    }
    g->insertions++;
    g->total_insertions++;
}

uint8_t tm_gdu_fetch(tm_gdu *g, uint64_t block, uint8_t asked)
{
    switch (g->kind) {
    case TM_GDU_CG: return ALL_SECTORS;
    case TM_GDU_FG: return asked;
    case TM_GDU_SPP: {
        uint32_t i = (uint32_t)(block >> 7) % SPP_ENTRIES;
        uint8_t pattern = (uint8_t)(g->pht[i / 2] >> (4 * (i % 2)) & ALL_SECTORS);
        return pattern ? (uint8_t)(pattern | asked) : ALL_SECTORS;
    }
    case TM_GDU_BGP:
    case TM_GDU_BGP_INF: {
        bool cg = tm_gdu_filter_holds(g, block) ? !g->default_cg : g->default_cg;
        return cg ? ALL_SECTORS : asked;
    }
    default: return ALL_SECTORS;
    }
}

void tm_gdu_evicted(tm_gdu *g, uint64_t block, uint8_t used)
{
    used &= ALL_SECTORS;
    if (g->kind == TM_GDU_SPP) {
        uint32_t i = (uint32_t)(block >> 7) % SPP_ENTRIES, shift = 4 * (i % 2);
        g->pht[i / 2] = (uint8_t)((g->pht[i / 2] & ~(ALL_SECTORS << shift)) | (uint32_t)used << shift);
        return;
    }
    if (g->kind != TM_GDU_BGP && g->kind != TM_GDU_BGP_INF)
        return;
    bool cg = (uint32_t)__builtin_popcount(used) >= g->p.th_fg;
    if (cg != g->default_cg) { /* only blocks that contradict the default are remembered */
        bgp_insert(g, block);
        g->window_inserts++;
    }
    if (++g->evictions < g->p.window)
        return;
    if ((double)g->window_inserts / g->evictions > g->p.skew_thres) { /* default prediction inversion */
        g->default_cg = !g->default_cg;
        bgp_reset(g);
    }
    g->evictions = g->window_inserts = 0;
}

bool tm_gdu_default_cg(const tm_gdu *g) { return g->default_cg; }
uint64_t tm_gdu_insertions(const tm_gdu *g) { return g->total_insertions; }
