/* warp_sched.c — the warp scheduling policies (warp_sched.h). */
#include "timing/warp_sched.h"

#include <stdlib.h>
#include <string.h>

bool tm_warp_sched_init(tm_warp_sched *ws, tm_sched policy, uint32_t n, uint32_t size, uint32_t timeout)
{
    *ws = (tm_warp_sched){.policy = policy, .n = n, .last = n, .max_active = size ? size : 1,
                          .group_warps = size, .timeout = timeout};
    ws->age = calloc(n + 1, sizeof *ws->age);
    ws->order = calloc(n + 1, sizeof *ws->order);
    ws->active = calloc(n + 1, sizeof *ws->active);
    ws->by_age = calloc(n + 1, sizeof *ws->by_age);
    ws->order_live = calloc(n + 1, sizeof *ws->order_live);
    ws->group = calloc(n + 1, sizeof *ws->group);
    ws->parked = calloc(n + 1, sizeof *ws->parked);
    ws->stamp = calloc(n + 1, sizeof *ws->stamp);
    ws->long_pending = calloc(n + 1, sizeof *ws->long_pending);
    if (!ws->age || !ws->order || !ws->active || !ws->by_age || !ws->order_live || !ws->group || !ws->parked ||
        !ws->stamp || !ws->long_pending) {
        tm_warp_sched_free(ws);
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        ws->by_age[i] = i;
    return true;
}

void tm_warp_sched_free(tm_warp_sched *ws)
{
    free(ws->age);
    free(ws->order);
    free(ws->active);
    free(ws->by_age);
    free(ws->order_live);
    free(ws->group);
    free(ws->parked);
    free(ws->stamp);
    free(ws->long_pending);
    ws->stamp = NULL;
    ws->long_pending = NULL;
    ws->group = NULL;
    ws->parked = NULL;
    ws->by_age = NULL;
    ws->order_live = NULL;
    ws->age = NULL;
    ws->order = NULL;
    ws->active = NULL;
}

/* Does slot a come before slot b, oldest first? */
static bool older(const tm_warp_sched *ws, uint32_t a, uint32_t b)
{
    return ws->age[a] < ws->age[b] || (ws->age[a] == ws->age[b] && a < b);
}

void tm_warp_sched_start(tm_warp_sched *ws, uint32_t s, uint64_t age)
{
    ws->order_valid = false;
    ws->age[s] = age;
    ws->parked[s] = false;
    ws->long_pending[s] = 0;
    ws->stamp[s] = 0;
    /* move s to its place in by_age: out of the list, then in again */
    uint32_t i = 0;
    while (ws->by_age[i] != s)
        i++;
    for (; i + 1 < ws->n; i++)
        ws->by_age[i] = ws->by_age[i + 1];
    uint32_t j = ws->n - 1;
    while (j > 0 && older(ws, s, ws->by_age[j - 1])) {
        ws->by_age[j] = ws->by_age[j - 1];
        j--;
    }
    ws->by_age[j] = s;
    ws->active[s] = false;
    if (ws->policy == TM_SCHED_TWO_LEVEL && ws->nactive < ws->max_active) {
        ws->active[s] = true;
        ws->nactive++;
    }
}

/* Two-level: move the next pending live warp (round robin from
 * next_pending) into the active set, if there is one. */
static void promote(tm_warp_sched *ws, const bool *live, uint32_t except)
{
    for (uint32_t k = 0; k < ws->n && ws->nactive < ws->max_active; k++) {
        uint32_t s = (ws->next_pending + k) % ws->n;
        if (live[s] && !ws->active[s] && !ws->parked[s] && s != except) {
            ws->active[s] = true;
            ws->nactive++;
            ws->next_pending = (s + 1) % ws->n;
            return;
        }
    }
}

void tm_warp_sched_finish(tm_warp_sched *ws, uint32_t s, const bool *live)
{
    ws->order_valid = false;
    if (ws->active[s]) {
        ws->active[s] = false;
        ws->nactive--;
        if (ws->policy == TM_SCHED_TWO_LEVEL)
            promote(ws, live, s);
    }
    if (ws->last == s)
        ws->last = ws->n;
}

void tm_warp_sched_long_wait(tm_warp_sched *ws, uint32_t s, const bool *live)
{
    ws->order_valid = false;
    if (ws->policy == TM_SCHED_FETCH_GROUPS)
        ws->long_pending[s]++;
    if (ws->policy != TM_SCHED_TWO_LEVEL || !ws->active[s])
        return;
    uint32_t before = ws->nactive;
    ws->active[s] = false;
    ws->nactive--;
    promote(ws, live, s);
    if (ws->nactive < before) { /* nobody pending: it stays */
        ws->active[s] = true;
        ws->nactive++;
    }
}

void tm_warp_sched_long_done(tm_warp_sched *ws, uint32_t s)
{
    if (ws->long_pending[s])
        ws->long_pending[s]--;
}

/* Append slot s to the order being built (k entries so far). */
static inline void put(tm_warp_sched *ws, uint32_t *k, uint32_t s)
{
    ws->order[(*k)++] = s;
    ws->order_mask |= s < 64 ? 1ull << s : 0;
}

void tm_warp_sched_park(tm_warp_sched *ws, uint32_t s, bool parked, const bool *live)
{
    if (ws->parked[s] == parked)
        return;
    ws->parked[s] = parked;
    if (ws->policy != TM_SCHED_TWO_LEVEL)
        return;
    ws->order_valid = false;
    if (parked && ws->active[s]) {
        uint32_t before = ws->nactive;
        ws->active[s] = false; /* its room to a pending warp that can go on, if any */
        ws->nactive--;
        promote(ws, live, s);
        if (ws->nactive < before) { /* nobody could take it: it stays */
            ws->active[s] = true;
            ws->nactive++;
        }
    } else if (!parked && !ws->active[s]) {
        /* a warp that can go on takes the place of one that waits (the
         * lowest such slot), which stayed only for want of a taker:
         * otherwise a set full of waiting warps would keep it out while
         * the warps they wait for cannot issue */
        for (uint32_t k = 0; k < ws->n && ws->nactive == ws->max_active; k++)
            if (ws->active[k] && ws->parked[k]) {
                ws->active[k] = false;
                ws->nactive--;
            }
        if (ws->nactive < ws->max_active) {
            ws->active[s] = true;
            ws->nactive++;
        }
    }
}

void tm_warp_sched_set_cta_priority(tm_warp_sched *ws, tm_cta_priority p)
{
    ws->cta_priority = p;
    ws->order_valid = false;
}

void tm_warp_sched_set_cta(tm_warp_sched *ws, uint32_t s, uint64_t cta)
{
    ws->group[s] = cta;
    ws->order_valid = false;
}

void tm_warp_sched_at(tm_warp_sched *ws, uint64_t cycle)
{
    if (ws->cta_priority == TM_CTA_PRIORITY_RRB && cycle != ws->cycle)
        ws->order_valid = false;
    ws->cycle = cycle;
}

/* The order by CTA priority: the live slots' CTAs, ascending (oldest
 * first), from the first the priority names; each CTA's slots in loose
 * round robin after the slot that issued last. */
static uint32_t order_by_cta(tm_warp_sched *ws, const bool *live, uint32_t start)
{
    uint64_t ctas[64];
    uint32_t nc = 0, k = 0;
    for (uint32_t s = 0; s < ws->n && s < 64; s++) { /* sorted, without repeats */
        if (!live[s])
            continue;
        uint32_t i = nc;
        while (i > 0 && ctas[i - 1] > ws->group[s])
            i--;
        if (i > 0 && ctas[i - 1] == ws->group[s])
            continue;
        memmove(&ctas[i + 1], &ctas[i], (nc - i) * sizeof *ctas);
        ctas[i] = ws->group[s];
        nc++;
    }
    uint32_t first = 0;
    if (ws->cta_priority == TM_CTA_PRIORITY_RRB && nc)
        first = (uint32_t)(ws->cycle % nc);
    else if (ws->cta_priority == TM_CTA_PRIORITY_SRR && ws->last < ws->n && live[ws->last])
        while (ctas[first] != ws->group[ws->last])
            first++;
    for (uint32_t c = 0; c < nc; c++)
        for (uint32_t i = 0; i < ws->n; i++) {
            uint32_t s = (start + i) % ws->n;
            if (live[s] && ws->group[s] == ctas[(first + c) % nc])
                put(ws, &k, s);
        }
    return k;
}

/* Fetch groups: the group of slot s (fixed groups of group_warps slots,
 * or, with group_warps 0, the CTA: its dispatch number). */
static uint64_t group_of(const tm_warp_sched *ws, uint32_t s)
{
    return ws->group_warps ? s / ws->group_warps : ws->group[s];
}

/* Fetch groups: the live slots by group, then slot (into ws->order), the
 * count; where each group starts in it goes to start[] (nk groups). */
static uint32_t slots_by_group(tm_warp_sched *ws, const bool *live, uint32_t *start, uint32_t *nk)
{
    uint32_t m = 0;
    for (uint32_t s = 0; s < ws->n; s++) {
        if (!live[s])
            continue;
        uint32_t i = m++;
        while (i > 0 && group_of(ws, ws->order[i - 1]) > group_of(ws, s))
            ws->order[i] = ws->order[i - 1], i--;
        ws->order[i] = s;
    }
    *nk = 0;
    for (uint32_t i = 0; i < m; i++)
        if (i == 0 || group_of(ws, ws->order[i]) != group_of(ws, ws->order[i - 1]))
            start[(*nk)++] = i;
    start[*nk] = m;
    return m;
}

/* Fetch groups: does every slot of group k (slots[start[k] .. start[k+1]))
 * wait for a long-latency load? */
static bool group_stalled(const tm_warp_sched *ws, const uint32_t *slots, const uint32_t *start, uint32_t k)
{
    for (uint32_t i = start[k]; i < start[k + 1]; i++)
        if (!ws->long_pending[slots[i]])
            return false;
    return true;
}

/* Fetch groups: the group on top (the first at or after top_group, as
 * groups without live warps have left); it passes the top to the next
 * group when all its warps wait on long-latency loads, at most once for
 * each core cycle since the last check (cycles an SM skipped changed
 * nothing), or at once when its timeout ran out. Then the order: the
 * groups from the top, each in round robin after its last issuer. */
static uint32_t order_by_groups(tm_warp_sched *ws, const bool *live)
{
    uint32_t start[65], nk, slots[64];
    uint32_t m = slots_by_group(ws, live, start, &nk);
    memcpy(slots, ws->order, m * sizeof *slots);
    if (!nk)
        return 0;
    uint32_t top = 0;
    while (top < nk && group_of(ws, slots[start[top]]) < ws->top_group)
        top++;
    top %= nk;
    uint64_t switches = ws->cycle - ws->checked_at;
    for (uint32_t i = 0; i < nk && (ws->top_expired || (switches && group_stalled(ws, slots, start, top))); i++) {
        switches -= !ws->top_expired;
        ws->top_expired = false;
        ws->top_issues = 0;
        top = (top + 1) % nk;
    }
    ws->checked_at = ws->cycle;
    ws->top_group = group_of(ws, slots[start[top]]);
    uint32_t k = 0;
    for (uint32_t j = 0; j < nk; j++) {
        uint32_t g = (top + j) % nk, n = start[g + 1] - start[g], first = 0;
        for (uint32_t i = 1; i < n; i++) /* after the group's last issuer */
            if (ws->stamp[slots[start[g] + i]] > ws->stamp[slots[start[g] + first]])
                first = i;
        if (ws->stamp[slots[start[g] + first]])
            first = (first + 1) % n;
        for (uint32_t i = 0; i < n; i++)
            put(ws, &k, slots[start[g] + (first + i) % n]);
    }
    return k;
}

/* The slots of live (n <= 64 bools, each 0 or 1) as a mask. On a
 * little-endian host eight at a time: multiplying their bytes by
 * 0x0102040810204080 puts byte i's bit at bit 56 + i, and every other
 * product term at its own bit either below 56 or above 63, so nothing
 * carries into the top byte. */
static uint64_t live_mask(const bool *live, uint32_t n)
{
    uint64_t m = 0;
    uint32_t s = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(sizeof(bool) == 1, "one byte per bool");
    for (; s + 8 <= n; s += 8) {
        uint64_t x;
        memcpy(&x, live + s, 8);
        m |= (x * 0x0102040810204080ull) >> 56 << s;
    }
#endif
    for (; s < n; s++)
        m |= (uint64_t)live[s] << s;
    return m;
}

/* The order of the scheduling policy alone (mask: live as a mask, with at
 * most 64 slots). */
static uint32_t order_by_policy(tm_warp_sched *ws, const bool *live, uint64_t mask, uint32_t start)
{
    uint32_t k = 0;
    switch (ws->policy) {
    case TM_SCHED_LRR:
        if (ws->n <= 64) { /* the live slots as a mask, taken from start round */
            uint64_t m = mask;
            uint64_t low = start < 64 ? m & ((1ull << start) - 1) : m;
            for (uint64_t b = m & ~low; b; b &= b - 1)
                ws->order[k++] = (uint32_t)__builtin_ctzll(b);
            for (uint64_t b = low; b; b &= b - 1)
                ws->order[k++] = (uint32_t)__builtin_ctzll(b);
            ws->order_mask = m;
            break;
        }
        /* fall through */
    case TM_SCHED_TWO_LEVEL: { /* from start round to start - 1 */
        const bool *active = ws->policy == TM_SCHED_TWO_LEVEL ? ws->active : live;
        for (uint32_t s = start; s < ws->n; s++)
            if (live[s] && active[s])
                put(ws, &k, s);
        for (uint32_t s = 0; s < start && s < ws->n; s++)
            if (live[s] && active[s])
                put(ws, &k, s);
        break;
    }
    case TM_SCHED_GTO: {
        bool greedy = ws->last < ws->n && live[ws->last];
        if (greedy)
            put(ws, &k, ws->last);
        for (uint32_t i = 0; i < ws->n; i++) {
            uint32_t s = ws->by_age[i];
            if (live[s] && !(greedy && s == ws->last))
                put(ws, &k, s);
        }
        break;
    }
    case TM_SCHED_OLDEST:
        for (uint32_t i = 0; i < ws->n; i++)
            if (live[ws->by_age[i]])
                put(ws, &k, ws->by_age[i]);
        break;
    case TM_SCHED_FETCH_GROUPS: k = order_by_groups(ws, live); break;
    }
    return k;
}

const uint32_t *tm_warp_sched_order_live(tm_warp_sched *ws, const bool *live, uint64_t mask, uint32_t *n)
{
    bool small = ws->n <= 64;
    if (ws->order_valid && (small ? mask == ws->order_live_mask
                                  : memcmp(live, ws->order_live, ws->n * sizeof *live) == 0)) {
        *n = ws->norder; /* nothing it depends on changed (a greedy warp issuing again, typically) */
        return ws->order;
    }
    uint32_t k = 0, start = ws->last < ws->n ? ws->last + 1 : 0;
    ws->order_mask = 0;
    if (ws->cta_priority != TM_CTA_PRIORITY_NONE)
        k = order_by_cta(ws, live, start);
    else
        k = order_by_policy(ws, live, mask, start);
    *n = ws->norder = k;
    if (small)
        ws->order_live_mask = mask;
    else
        memcpy(ws->order_live, live, ws->n * sizeof *live);
    ws->order_valid = ws->policy != TM_SCHED_FETCH_GROUPS; /* (it may switch at the next cycle) */
    return ws->order;
}

const uint32_t *tm_warp_sched_order(tm_warp_sched *ws, const bool *live, uint32_t *n)
{
    return tm_warp_sched_order_live(ws, live, ws->n <= 64 ? live_mask(live, ws->n) : 0, n);
}

void tm_warp_sched_issued(tm_warp_sched *ws, uint32_t s)
{
    if (ws->last != s)
        ws->order_valid = false;
    ws->last = s;
    if (ws->policy != TM_SCHED_FETCH_GROUPS)
        return;
    ws->stamp[s] = ++ws->issues;
    if (group_of(ws, s) == ws->top_group && ws->timeout && ++ws->top_issues >= ws->timeout)
        ws->top_expired = true;
}
